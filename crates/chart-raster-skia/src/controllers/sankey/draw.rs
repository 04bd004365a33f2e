//! Drawing a sankey chart: the nodes, flows as cubic bands (`Flow.draw`) and the node labels
//! (`_drawLabels`), from the laid-out [`SankeyElements`].

use super::layout::{Node, CANCEL_EVERY};
use super::FlowEl;
use crate::elements::bounds::{bounded_font, finite_in, MAX_PX};
use crate::elements::dataset::PluginElements;
use crate::elements::{Area, Ctx, StrokeStyle, P};
use crate::scene::{Paint, TextAlign, TextBaseline};
use chart_spec::model::{Raw, SankeyOptions};
use chart_spec::values::Font;
use chart_spec::{Cancel, Rgba};

/// What a sankey dataset draws: its nodes (coloured by their flows) with their rectangles,
/// the flows, and the dataset's options.
pub(super) struct SankeyElements<'a> {
    pub(super) nodes: Vec<Node>,
    /// Node rectangles: (x, y, width, height).
    pub(super) node_rects: Vec<(f64, f64, f64, f64)>,
    pub(super) flows: Vec<FlowEl>,
    /// The chart area the labels' automatic side is decided in.
    pub(super) area: Area,
    pub(super) options: &'a SankeyOptions,
    /// The render's stop signal.
    pub(super) cancel: Cancel,
}

impl PluginElements for SankeyElements<'_> {
    /// The nodes, the flows over them, then the nodes' labels (`_drawNodes`, the flows'
    /// `draw`, `_drawLabels`).
    fn draw(&self, ctx: &mut Ctx<'_>, _area: &Area) {
        let o = self.options;
        let border_width = finite_in(o.border_width, 0.0, MAX_PX, 1.0);
        let cancelled = |i: usize| i.is_multiple_of(CANCEL_EVERY) && self.cancel.is_cancelled();
        // _drawNodes
        for (i, (n, &(x, y, w, h))) in self.nodes.iter().zip(&self.node_rects).enumerate() {
            if cancelled(i) {
                return;
            }
            if border_width != 0.0 {
                let mut p = P::new();
                p.rect(x, y, w, h);
                let color = o.border_color.unwrap_or(Rgba::rgb(0, 0, 0));
                ctx.stroke(&p, &StrokeStyle::new(border_width, color));
            }
            ctx.fill_rect(x, y, w, h, n.color.unwrap_or(Rgba::rgb(0, 0, 0)));
        }
        // Flows.
        for (i, f) in self.flows.iter().enumerate() {
            if cancelled(i) {
                return;
            }
            draw_flow(ctx, f, o.vertical);
        }
        // _drawLabels. What is the same for every node is worked out once.
        let nl = &o.node_labels;
        let area = self.area;
        let font = &*bounded_font(&o.font);
        let padding = nl
            .padding
            .map(|v| finite_in(v, -MAX_PX, MAX_PX, 4.0))
            .unwrap_or(4.0);
        let line_offset = finite_in(
            o.padding.unwrap_or(font.line_height / 2.0),
            -MAX_PX,
            MAX_PX,
            0.0,
        );
        let border_radius = nl
            .border_radius
            .map(|v| finite_in(v, 0.0, MAX_PX, 0.0))
            .unwrap_or(0.0);
        for (i, (n, &(x, y, w, h))) in self.nodes.iter().zip(&self.node_rects).enumerate() {
            if cancelled(i) {
                return;
            }
            let display = nl.display.get(&n.key).copied().unwrap_or(true);
            if !display {
                continue;
            }
            let own;
            let lines = match o.labels.as_ref().and_then(|l| l.get(&n.key)) {
                Some(lines) => lines,
                None => {
                    own = key_lines(&n.key);
                    &own
                }
            };
            let color = nl.color.get(&n.key).copied().flatten().unwrap_or(o.color);
            let background = nl.background_color.get(&n.key).copied().flatten();
            let position = nl
                .position
                .get(&n.key)
                .and_then(Option::as_deref)
                .unwrap_or("auto");
            let auto = if o.vertical {
                if y < (area.top + area.bottom) / 2.0 {
                    "bottom"
                } else {
                    "top"
                }
            } else if x < (area.left + area.right) / 2.0 {
                "right"
            } else {
                "left"
            };
            draw_label(
                ctx,
                lines,
                &LabelBox {
                    position,
                    auto,
                    x,
                    y,
                    width: w,
                    height: h,
                    border_width,
                    padding,
                    line_offset,
                    font,
                    color,
                    background,
                    border_radius,
                },
            );
        }
    }
}

/// `toTextLines` of a node key, the label of a node without one in `labels`.
pub(super) fn key_lines(key: &str) -> Vec<String> {
    if key.is_empty() {
        return Vec::new();
    }
    key.split('\n').map(String::from).collect()
}

/// What `drawLabel` needs besides the text.
pub(super) struct LabelBox<'a> {
    pub(super) position: &'a str,
    pub(super) auto: &'a str,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) width: f64,
    pub(super) height: f64,
    pub(super) border_width: f64,
    pub(super) padding: f64,
    pub(super) line_offset: f64,
    pub(super) font: &'a Font,
    pub(super) color: Rgba,
    pub(super) background: Option<Rgba>,
    pub(super) border_radius: f64,
}

/// `drawLabel` of the plugin.
pub(super) fn draw_label(ctx: &mut Ctx<'_>, lines: &[String], b: &LabelBox<'_>) {
    if lines.is_empty() {
        return;
    }
    let position = if b.position == "auto" {
        b.auto
    } else {
        b.position
    };
    let lh = b.font.line_height;
    let text_w = lines
        .iter()
        .map(|l| ctx.measure(b.font, l))
        .fold(f64::NEG_INFINITY, f64::max);
    let total = lh * lines.len() as f64;
    let (mut align, mut tx, mut ty) =
        (TextAlign::Center, b.x + b.width / 2.0, b.y + b.height / 2.0);
    match position {
        "left" => {
            align = TextAlign::Right;
            tx = b.x - b.border_width - b.padding;
        }
        "right" => {
            align = TextAlign::Left;
            tx = b.x + b.width + b.border_width + b.padding;
        }
        "top" => ty = b.y - b.padding - total / 2.0,
        "bottom" => ty = b.y + b.height + b.padding + total / 2.0,
        _ => {}
    }
    let bg_w = text_w + b.padding * 2.0;
    let bg_h = total + b.padding * 2.0;
    let bg_x = match align {
        TextAlign::Left => tx - b.padding,
        TextAlign::Right => tx - text_w - b.padding,
        TextAlign::Center => tx - bg_w / 2.0,
    };
    let first = if lines.len() == 1 {
        ty
    } else {
        ty - total / 2.0 + b.line_offset
    };
    let center = first + (lines.len() as f64 - 1.0) * lh / 2.0;
    if let Some(bg) = b.background {
        let r = b.border_radius.min(bg_w / 2.0).min(bg_h / 2.0).max(0.0);
        let (x, y) = (bg_x as f32, (center - bg_h / 2.0) as f32);
        let (w, h, r) = (bg_w as f32, bg_h as f32, r as f32);
        let mut path = crate::scene::Path::new();
        if r > 0.0 {
            // The plugin's own `addRoundedRectPath`, with quadratic corners.
            path.move_to(x + r, y);
            path.line_to(x + w - r, y);
            path.quad_to(x + w, y, x + w, y + r);
            path.line_to(x + w, y + h - r);
            path.quad_to(x + w, y + h, x + w - r, y + h);
            path.line_to(x + r, y + h);
            path.quad_to(x, y + h, x, y + h - r);
            path.line_to(x, y + r);
            path.quad_to(x, y, x + r, y);
            path.close();
        } else {
            path.rect(x, y, w, h);
        }
        let p = P::from(path);
        ctx.fill(&p, bg);
    }
    for (i, l) in lines.iter().enumerate() {
        ctx.fill_text(
            l,
            tx,
            first + i as f64 * lh,
            b.font,
            b.color,
            align,
            TextBaseline::Middle,
            None,
        );
    }
}

/// `color(c).alpha(a)`: the colour with its alpha replaced.
pub(super) fn with_alpha(c: Rgba, alpha: f64) -> Rgba {
    Rgba {
        a: (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
        ..c
    }
}

/// `Flow.draw`: the band between two cubic curves, stroked 0.5px and filled.
pub(super) fn draw_flow(ctx: &mut Ctx<'_>, f: &FlowEl, vertical: bool) {
    let (x, y, x2, y2) = (f.x, f.y, f.x2, f.y2);
    let o = &f.flow;
    let paint = if let Some(c) = o.flow_color {
        Paint::Solid(c)
    } else if o.color_mode == "from" {
        Paint::Solid(with_alpha(o.color_from, o.alpha))
    } else if o.color_mode == "to" {
        Paint::Solid(with_alpha(o.color_to, o.alpha))
    } else {
        let (gx0, gy0, gx1, gy1) = if vertical {
            (0.0, y, 0.0, y2)
        } else {
            (x, 0.0, x2, 0.0)
        };
        Paint::LinearGradient {
            x0: gx0 as f32,
            y0: gy0 as f32,
            x1: gx1 as f32,
            y1: gy1 as f32,
            stops: vec![
                (0.0, with_alpha(o.color_from, o.alpha)),
                (1.0, with_alpha(o.color_to, o.alpha)),
            ],
        }
    };
    // controlPoints
    let (c1, c2) = if vertical {
        if y < y2 {
            ((x, y + (y2 - y) / 3.0 * 2.0), (x2, y + (y2 - y) / 3.0))
        } else {
            ((0.0, y - (y - y2) / 3.0), (0.0, y2 + (y - y2) / 3.0))
        }
    } else if x < x2 {
        ((x + (x2 - x) / 3.0 * 2.0, y), (x + (x2 - x) / 3.0, y2))
    } else {
        ((x - (x - x2) / 3.0, 0.0), (x2 + (x - x2) / 3.0, 0.0))
    };
    let mut p = P::new();
    p.move_to(x, y);
    p.cubic_to(c1.0, c1.1, c2.0, c2.1, x2, y2);
    if vertical {
        p.line_to(x2 + f.width, y2);
        p.cubic_to(c2.0 + f.width, c2.1, c1.0 + f.width, c1.1, x + f.width, y);
    } else {
        p.line_to(x2, y2 + f.height);
        p.cubic_to(
            c2.0,
            c2.1 + f.height,
            c1.0,
            c1.1 + f.height,
            x,
            y + f.height,
        );
    }
    p.line_to(x, y);
    stroke_paint(ctx, &p, paint.clone(), 0.5);
    p.close();
    ctx.fill_paint(&p, paint);
    if o.label_display {
        let (lx, ly, lw, lh) = if vertical {
            ((x).min(x2), y, (x2 - x).abs() + f.width, y2 - y)
        } else {
            (x, y.min(y2), x2 - x, (y2 - y).abs() + f.height)
        };
        let font = &*bounded_font(&o.label_font);
        draw_label(
            ctx,
            &[Raw::Num(o.flow).to_js_string()],
            &LabelBox {
                position: &o.label_position,
                auto: "center",
                x: lx,
                y: ly,
                width: lw,
                height: lh,
                border_width: 0.0,
                padding: finite_in(o.label_padding, -MAX_PX, MAX_PX, 4.0),
                line_offset: font.line_height / 2.0,
                font,
                color: o.label_color,
                background: o.label_background,
                border_radius: finite_in(o.label_border_radius, 0.0, MAX_PX, 0.0),
            },
        );
    }
}

/// `ctx.stroke()` with a gradient or colour paint.
pub(super) fn stroke_paint(ctx: &mut Ctx<'_>, p: &P, paint: Paint, width: f64) {
    if p.is_empty() || paint.is_invisible() {
        return;
    }
    ctx.items.push(crate::scene::Item::Stroke {
        path: p.clone().into_path(),
        paint,
        stroke: crate::scene::Stroke {
            width: width as f32,
            cap: crate::scene::LineCap::Butt,
            join: crate::scene::LineJoin::Miter,
            miter_limit: 10.0,
            dash: Vec::new(),
            dash_offset: 0.0,
        },
        transform: crate::scene::Transform::IDENTITY,
    });
}
