//! Drawing a venn or euler diagram: each region (`ArcSlice.draw`), then the set labels and the
//! values, from the laid-out [`VennElements`].

use super::{svg_arc, Circle, PathOp, Region, VennLayout};
use crate::elements::dataset::PluginElements;
use crate::elements::{Area, Ctx, StrokeStyle, P};
use crate::scene::{TextAlign, TextBaseline};
use chart_spec::model::VennOptions;
use chart_spec::values::Font;
use chart_spec::Rgba;

/// The region's outline: SVG arcs `A r r 0 large sweep x2 y2` around a known centre are canvas
/// arcs between the end points' angles, clockwise on screen when `sweep`.
fn region_path(r: &Region, circles: &[Circle]) -> P {
    if let Some(ops) = &r.path {
        let mut p = P::new();
        let mut cur = (0.0, 0.0);
        for op in ops {
            match *op {
                PathOp::Move(x, y) => {
                    p.move_to(x, y);
                    cur = (x, y);
                }
                PathOp::Arc {
                    r,
                    large,
                    sweep,
                    x,
                    y,
                } => {
                    svg_arc(&mut p, cur, (r, r, 0.0), large, sweep, (x, y));
                    cur = (x, y);
                }
            }
        }
        return p;
    }
    if circles.iter().any(|c| c.ellipse.is_some()) {
        // `M x1,y1 A rx ry rotation large sweep x2 y2 …` as the browser's Path2D reads it.
        let mut p = P::new();
        p.move_to(r.start.0, r.start.1);
        let mut cur = r.start;
        for a in &r.arcs {
            let Some(c) = circles.get(a.circle) else {
                continue;
            };
            let (rx, ry, rot) = c.ellipse.unwrap_or((c.r, c.r, 0.0));
            svg_arc(&mut p, cur, (rx, ry, rot), a.large, a.sweep, (a.x2, a.y2));
            cur = (a.x2, a.y2);
        }
        return p;
    }
    let mut p = P::new();
    p.move_to(r.start.0, r.start.1);
    let mut cur = r.start;
    for a in &r.arcs {
        let Some(c) = circles.get(a.circle) else {
            continue;
        };
        let a0 = libm::atan2(cur.1 - c.cy, cur.0 - c.cx);
        let a1 = libm::atan2(a.y2 - c.cy, a.x2 - c.cx);
        let a1 = if (a1 - a0).abs() < 1e-12 {
            a0 + if a.sweep { 2.0 } else { -2.0 } * std::f64::consts::PI
        } else {
            a1
        };
        p.arc(c.cx, c.cy, c.r, a0, a1, !a.sweep);
        cur = (a.x2, a.y2);
    }
    p
}

/// `Number.prototype.toLocaleString()` (en-US): grouped, at most three fraction digits.
fn locale_string(v: f64) -> String {
    crate::scales::ticks::format_number(v, 0, 3, false, true)
}

/// What a venn or euler dataset draws: its laid-out regions and circles, the fonts of the
/// set labels and values, and the dataset's options.
pub(super) struct VennElements<'a> {
    pub(super) layout: VennLayout,
    /// Set label font and colour, when the y scale's ticks display.
    pub(super) label_font: Option<(Font, Rgba)>,
    /// Value font and colour, when the x scale's ticks display.
    pub(super) value_font: Option<(Font, Rgba)>,
    pub(super) labels: Vec<String>,
    pub(super) options: &'a VennOptions,
}

impl PluginElements for VennElements<'_> {
    /// The regions, then the set labels and the values (`drawLabels`).
    fn draw(&self, ctx: &mut Ctx<'_>, _area: &Area) {
        let o = self.options;
        for (i, r) in self.layout.regions.iter().enumerate() {
            let Some(s) = o.slices.get(i) else { break };
            let p = region_path(r, &self.layout.circles);
            if let Some(bg) = s.background_color {
                ctx.fill(&p, bg);
            }
            if let Some(bc) = s.border_color {
                // `ctx.lineWidth = 0` is ignored by canvas: the default 1 stays (so are
                // negative and non-finite widths); a huge width is clamped.
                let w = if s.border_width > 0.0 && s.border_width.is_finite() {
                    s.border_width.min(1e5)
                } else {
                    1.0
                };
                ctx.stroke(&p, &StrokeStyle::new(w, bc));
            }
        }
        // drawLabels: set names with the y scale's tick font, values with the x scale's.
        if let Some((font, color)) = &self.label_font {
            for (i, c) in self.layout.circles.iter().enumerate() {
                let align = match c.align.as_str() {
                    "middle" => TextAlign::Center,
                    "end" | "right" => TextAlign::Right,
                    _ => TextAlign::Left,
                };
                let baseline = match c.vertical_align.as_str() {
                    "top" => TextBaseline::Top,
                    "bottom" => TextBaseline::Bottom,
                    "middle" => TextBaseline::Middle,
                    "hanging" => TextBaseline::Hanging,
                    _ => TextBaseline::Alphabetic,
                };
                let text = self
                    .labels
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| "undefined".into());
                ctx.fill_text(
                    &text, c.text.0, c.text.1, font, *color, align, baseline, None,
                );
            }
        }
        if let Some((font, color)) = &self.value_font {
            for (i, r) in self.layout.regions.iter().enumerate() {
                let Some(s) = o.slices.get(i) else { break };
                ctx.fill_text(
                    &locale_string(s.value),
                    r.text.0,
                    r.text.1,
                    font,
                    *color,
                    TextAlign::Center,
                    TextBaseline::Middle,
                    None,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::locale_string;

    #[test]
    fn values_use_en_us_grouping() {
        assert_eq!(locale_string(1234.5), "1,234.5");
        assert_eq!(locale_string(3.0), "3");
    }
}
