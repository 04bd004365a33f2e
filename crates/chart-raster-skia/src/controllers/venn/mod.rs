//! Venn controller of chartjs-chart-venn 4.3.7: for one to three sets the plugin does not
//! compute a layout, it scales a fixed template (circles, and each region as a path of
//! circle arcs) into the chart area; set names go beside the circles and each region's value
//! at its text point.
//!
//! The templates for zero to five sets come typed from
//! [`chart_spec::defaults::venn_template`] (four and five sets are ellipses, their regions
//! outlined by SVG elliptical arcs, [`svg_arc`]).
//!
//! `euler` diagrams are laid out by venn.js's optimiser ([`super::euler`]) and drawn from the
//! region paths it gives (each region minus the regions of its supersets, `distinctPath`).
//!
//! The number of sets is bounded by the templates: the plugin reads `log2(data.length + 1)`
//! sets and clamps to its last template (five), so the regions drawn are at most that
//! template's 31 whatever the data's length.

mod draw;

use self::draw::VennElements;
use super::{Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::dataset::DatasetElements;
use crate::elements::P;
use crate::scales::Scale;
use chart_spec::model::VennOptions;
use chart_spec::model::{ChartKind, Dataset, Raw};
use chart_spec::values::Font;
use chart_spec::Rgba;

/// A circle of the layout (`sets[i]`), in pixels: the template's circle type, scaled to the
/// chart (the same fields, one type).
pub type Circle = chart_spec::model::VennTemplateCircle;

/// One arc of a region's outline: along circle `circle` to `(x2, y2)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Arc {
    /// Index into the circles.
    pub circle: usize,
    /// End x.
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// SVG `sweep` flag: increasing angles.
    pub sweep: bool,
    /// SVG `large` flag.
    pub large: bool,
}

/// One command of an SVG region path (`path` of an euler region): absolute positions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathOp {
    /// `M x y` (or a relative `m`, made absolute).
    Move(f64, f64),
    /// `A r r 0 large sweep x y` (a circle's arc, made absolute).
    Arc {
        /// Radius.
        r: f64,
        /// Large-arc flag.
        large: bool,
        /// Sweep flag.
        sweep: bool,
        /// End x.
        x: f64,
        /// End y.
        y: f64,
    },
}

/// A region of the diagram (`intersections[i]`), in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// The region's SVG path when the layout gives one (euler diagrams), drawn instead of
    /// `start` and `arcs`.
    pub path: Option<Vec<PathOp>>,
    /// Start point.
    pub start: (f64, f64),
    /// Outline.
    pub arcs: Vec<Arc>,
    /// Where the value goes.
    pub text: (f64, f64),
}

/// The layout scaled into a box.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VennLayout {
    /// Circles.
    pub circles: Vec<Circle>,
    /// Regions, in data order.
    pub regions: Vec<Region>,
}

/// The plugin's `layout(sets, bb)`: the template for `sets` sets (at most five: the plugin's
/// `lookup[Math.min(lookup.length - 1, sets)]`) scaled uniformly to fit
/// `(x, y, width, height)` and centred.
pub fn layout(sets: usize, bb: (f64, f64, f64, f64)) -> Option<VennLayout> {
    let t = chart_spec::defaults::venn_template(sets.min(5))?;
    let (tx, ty, tw, th) = t.bb;
    let (x, y, w, h) = bb;
    let f = (w / tw).min(h / th);
    let ox = f * -tx + (w - f * tw) / 2.0 + x;
    let oy = f * -ty + (h - f * th) / 2.0 + y;
    let mx = |v: f64| ox + f * v;
    let my = |v: f64| oy + f * v;
    let circles = t
        .circles
        .iter()
        .map(|c| Circle {
            cx: mx(c.cx),
            cy: my(c.cy),
            r: c.r * f,
            ellipse: c.ellipse.map(|(rx, ry, rot)| (rx * f, ry * f, rot)),
            text: (mx(c.text.0), my(c.text.1)),
            align: c.align.clone(),
            vertical_align: c.vertical_align.clone(),
        })
        .collect();
    let regions = t
        .regions
        .iter()
        .map(|r| Region {
            path: None,
            start: (mx(r.start.0), my(r.start.1)),
            arcs: r
                .arcs
                .iter()
                .map(|a| Arc {
                    circle: a.circle,
                    x2: mx(a.x2),
                    y2: my(a.y2),
                    sweep: a.sweep,
                    large: a.large,
                })
                .collect(),
            text: (mx(r.text.0), my(r.text.1)),
        })
        .collect();
    Some(VennLayout { circles, regions })
}

/// `Math.round(v * 100) / 100` (venn.js's `arcsToPath` with `round: 2`).
fn round2(v: f64) -> f64 {
    libm::floor(v * 100.0 + 0.5) / 100.0
}

/// venn.js's `arcsToPath(arcs, 2)` shifted by `(bx, by)` as the plugin's `shiftPath` does.
fn arcs_to_path(arcs: &[super::euler::RegionArc], bx: f64, by: f64, out: &mut Vec<PathOp>) {
    match arcs {
        [] => out.push(PathOp::Move(bx, by)),
        [one] => {
            // circlePath: `M x y m -r 0 a r r 0 1 0 2r 0 a r r 0 1 0 -2r 0`.
            let (x, y, r) = (
                round2(one.circle.x) + bx,
                round2(one.circle.y) + by,
                round2(one.circle.radius),
            );
            out.push(PathOp::Move(x, y));
            out.push(PathOp::Move(x - r, y));
            out.push(PathOp::Arc {
                r,
                large: true,
                sweep: false,
                x: x - r + r * 2.0,
                y,
            });
            out.push(PathOp::Arc {
                r,
                large: true,
                sweep: false,
                x: x - r + r * 2.0 - r * 2.0,
                y,
            });
        }
        [first, ..] => {
            out.push(PathOp::Move(
                round2(first.p2.0) + bx,
                round2(first.p2.1) + by,
            ));
            for a in arcs {
                out.push(PathOp::Arc {
                    r: round2(a.circle.radius),
                    large: a.large,
                    sweep: true,
                    x: round2(a.p1.0) + bx,
                    y: round2(a.p1.1) + by,
                });
            }
        }
    }
}

/// The plugin's `euler(sets, bb)`: venn.js's layout of the data's sets in the box, set labels
/// beside their circles (away from the diagram's centre), each region as its distinct path.
pub fn euler_layout(
    slices: &[chart_spec::model::VennSlice],
    bb: (f64, f64, f64, f64),
    cancel: &chart_spec::Cancel,
) -> VennLayout {
    let (bx, by, w, h) = bb;
    let data: Vec<super::euler::Area> = slices
        .iter()
        .map(|s| super::euler::Area {
            sets: s.sets.clone(),
            size: s.value,
        })
        .collect();
    let (areas, by_name) = super::euler::layout(&data, w, h, cancel);
    let singles: Vec<super::euler::Circle> = data
        .iter()
        .filter(|d| d.sets.len() == 1)
        .filter_map(|d| by_name.get(&d.sets[0]).copied())
        .collect();
    let n = singles.len() as f64;
    let centre = (
        singles.iter().map(|c| c.x).sum::<f64>() / n,
        singles.iter().map(|c| c.y).sum::<f64>() / n,
    );
    let circles = singles
        .iter()
        .map(|c| {
            let angle = libm::atan2(c.y - centre.1, c.x - centre.0) / std::f64::consts::PI * 180.0;
            let rad = angle * (1.0 / 180.0 * std::f64::consts::PI);
            let r = c.radius * 1.1;
            Circle {
                cx: c.x + bx,
                cy: c.y + by,
                r: c.radius,
                ellipse: None,
                text: (c.x + bx + libm::cos(rad) * r, c.y + by + libm::sin(rad) * r),
                align: if angle > 90.0 { "end" } else { "start" }.into(),
                vertical_align: "bottom".into(),
            }
        })
        .collect();
    let regions = areas
        .iter()
        .map(|a| {
            let mut ops = Vec::new();
            if !a.arcs.is_empty() {
                arcs_to_path(&a.arcs, bx, by, &mut ops);
                for hole in &a.holes {
                    arcs_to_path(hole, bx, by, &mut ops);
                }
            }
            Region {
                path: Some(ops),
                start: (0.0, 0.0),
                arcs: Vec::new(),
                text: (a.text.0 + bx, a.text.1 + by),
            }
        })
        .collect();
    VennLayout { circles, regions }
}

/// `VennDiagramController`.
#[derive(Default)]
pub struct VennController {
    /// The layout after `update`.
    pub layout: VennLayout,
    /// Set label font and colour (the y scale's tick font), when its ticks display.
    label_font: Option<(Font, Rgba)>,
    /// Value font and colour (the x scale's tick font), when its ticks display.
    value_font: Option<(Font, Rgba)>,
    labels: Vec<String>,
    /// Messages of `parse` (input cut at a budget).
    messages: Vec<chart_spec::Message>,
}

fn options(ds: &Dataset) -> Option<&VennOptions> {
    ds.kind.venn()
}

/// An SVG elliptical arc (`A rx ry rotation large sweep x y`) from `from` to `to`, appended
/// as cubic Béziers of at most a quarter turn: the endpoint-to-centre conversion of the SVG
/// specification (F.6.5, radii scaled up when too small, F.6.6).
pub fn svg_arc(
    p: &mut P,
    from: (f64, f64),
    (rx, ry, rotation): (f64, f64, f64),
    large: bool,
    sweep: bool,
    to: (f64, f64),
) {
    let (x1, y1) = from;
    let (x2, y2) = to;
    if x1 == x2 && y1 == y2 {
        return;
    }
    let (mut rx, mut ry) = (rx.abs(), ry.abs());
    if !(rx > 0.0 && ry > 0.0 && rx.is_finite() && ry.is_finite()) {
        p.line_to(x2, y2);
        return;
    }
    let phi = rotation.to_radians();
    let (sin, cos) = (libm::sin(phi), libm::cos(phi));
    let dx = (x1 - x2) / 2.0;
    let dy = (y1 - y2) / 2.0;
    let x1p = cos * dx + sin * dy;
    let y1p = -sin * dx + cos * dy;
    let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
    if lambda > 1.0 {
        let s = lambda.sqrt();
        rx *= s;
        ry *= s;
    }
    let num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
    let den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
    let mut coef = if den > 0.0 {
        (num / den).max(0.0).sqrt()
    } else {
        0.0
    };
    if large == sweep {
        coef = -coef;
    }
    let cxp = coef * rx * y1p / ry;
    let cyp = -coef * ry * x1p / rx;
    let cx = cos * cxp - sin * cyp + (x1 + x2) / 2.0;
    let cy = sin * cxp + cos * cyp + (y1 + y2) / 2.0;
    let angle =
        |ux: f64, uy: f64, vx: f64, vy: f64| libm::atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    let ux = (x1p - cxp) / rx;
    let uy = (y1p - cyp) / ry;
    let vx = (-x1p - cxp) / rx;
    let vy = (-y1p - cyp) / ry;
    let theta1 = angle(1.0, 0.0, ux, uy);
    let mut delta = angle(ux, uy, vx, vy);
    let tau = 2.0 * std::f64::consts::PI;
    if !sweep && delta > 0.0 {
        delta -= tau;
    } else if sweep && delta < 0.0 {
        delta += tau;
    }
    let segments = (delta.abs() / (std::f64::consts::FRAC_PI_2) - 1e-9)
        .ceil()
        .clamp(1.0, 4.0);
    let step = delta / segments;
    let k = 4.0 / 3.0 * libm::tan(step / 4.0);
    let map = |ex: f64, ey: f64| {
        (
            cx + rx * cos * ex - ry * sin * ey,
            cy + rx * sin * ex + ry * cos * ey,
        )
    };
    let mut t0 = theta1;
    for i in 0..segments as usize {
        let t1 = if i + 1 == segments as usize {
            theta1 + delta
        } else {
            t0 + step
        };
        let (c0, s0) = (libm::cos(t0), libm::sin(t0));
        let (c1, s1) = (libm::cos(t1), libm::sin(t1));
        let a = map(c0 - k * s0, s0 + k * c0);
        let b = map(c1 + k * s1, s1 - k * c1);
        let e = if i + 1 == segments as usize {
            (x2, y2)
        } else {
            map(c1, s1)
        };
        p.cubic_to(a.0, a.1, b.0, b.1, e.0, e.1);
        t0 = t1;
    }
}

impl Controller for VennController {
    fn take_messages(&mut self) -> Vec<chart_spec::Message> {
        std::mem::take(&mut self.messages)
    }

    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, _scales: &mut [Scale], labels: &[Raw]) {
        meta.parsed.clear();
        if let (Some(o), ChartKind::Euler) = (options(ds), ds.kind.chart_kind()) {
            let mut sets: Vec<&str> = Vec::new();
            for s in &o.slices {
                if let [one] = s.sets.as_slice() {
                    if !sets.contains(&one.as_str()) {
                        sets.push(one);
                    }
                }
            }
            if sets.len() > super::euler::MAX_SETS || o.slices.len() > super::euler::MAX_AREAS {
                self.messages.push(chart_spec::Message::warn(format!(
                    "euler: only the first {} entries over the first {} sets are laid out \
                     ({} entries, {} sets given)",
                    super::euler::MAX_AREAS,
                    super::euler::MAX_SETS,
                    o.slices.len(),
                    sets.len()
                )));
            }
        }
        self.labels = labels.iter().map(Raw::to_js_string).collect();
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        let n = ds.data.len();
        // `Math.log2(data.length + 1)` sets; the plugin's lookup clamps to its last template.
        let sets = libm::log2((n + 1) as f64).max(0.0) as usize;
        let bb = (
            xs.core.left,
            ys.core.top,
            xs.core.right - xs.core.left,
            ys.core.bottom - ys.core.top,
        );
        self.layout = if ds.kind.chart_kind() == ChartKind::Euler {
            match options(ds) {
                Some(o) => euler_layout(&o.slices, bb, cx.cancel),
                None => VennLayout::default(),
            }
        } else {
            layout(sets, bb).unwrap_or_default()
        };
        let font = |s: &Scale| {
            let t = &s.core.opts.ticks;
            t.display.then(|| (t.font.at(0), t.color.at(0)))
        };
        self.value_font = font(xs);
        self.label_font = font(ys);
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        match options(ds) {
            Some(options) => DatasetElements::Plugin(Box::new(VennElements {
                layout: std::mem::take(&mut self.layout),
                label_font: self.label_font.take(),
                value_font: self.value_font.take(),
                labels: std::mem::take(&mut self.labels),
                options,
            })),
            None => DatasetElements::Empty,
        }
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        let s = options(ds).and_then(|o| o.slices.first());
        let grey = Rgba::rgb(0xef, 0xef, 0xef);
        LegendStyle::plain_box(
            s.and_then(|s| s.background_color).unwrap_or(grey),
            s.and_then(|s| s.border_color).unwrap_or(grey),
            s.map(|s| s.border_width).unwrap_or(0.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::squared;

    #[test]
    fn two_sets_fit_the_box_and_keep_their_shape() {
        let l = layout(2, (0.0, 0.0, 400.0, 200.0)).expect("template");
        assert_eq!(l.circles.len(), 2);
        assert_eq!(l.regions.len(), 3);
        let (a, b) = (&l.circles[0], &l.circles[1]);
        assert_eq!(a.r, b.r);
        assert!((a.cy - 100.0).abs() < 1e-9);
        assert!(a.cx - a.r >= -1e-9 && b.cx + b.r <= 400.0 + 1e-9);
        // Every arc end lies on its circle.
        for r in &l.regions {
            for arc in &r.arcs {
                let c = &l.circles[arc.circle];
                let d = (squared(arc.x2 - c.cx) + squared(arc.y2 - c.cy)).sqrt();
                assert!(
                    (d - c.r).abs() < 1e-6 * c.r.max(1.0) + 0.02 * c.r,
                    "{d} vs {}",
                    c.r
                );
            }
        }
        // Four and five sets are ellipses; more sets clamp to five.
        let five = layout(9, (0.0, 0.0, 400.0, 300.0)).expect("template");
        assert_eq!((five.circles.len(), five.regions.len()), (5, 31));
        assert!(five.circles.iter().all(|c| c.ellipse.is_some()));
        assert_eq!(
            layout(4, (0.0, 0.0, 1.0, 1.0)).expect("four").regions.len(),
            15
        );
    }
}
