//! chartjs-plugin-annotation 3.1.0: line, box, label, point, ellipse and polygon annotations,
//! each drawn at its `drawTime` (clipped to the chart area unless `clip: false`), and
//! `adjustScaleRange` widening the scales to show them.
//!
//! Mirrors the plugin's `resolveElementProperties` of each element type (positions from
//! `scaleValue`: the laid-out scales and the values' pixels that [`prepare`](mod@prepare)
//! read off the update's scales), `calculateLabelPosition` for line labels,
//! `resolveLabelElementProperties` for box labels, and `drawBox`/`drawLabel`.
//!
//! Hostile options: before drawing, every annotation is copied with its numbers bounded
//! ([`bounded`]: finite pixel lengths, finite angles, at most [`MAX_SIDES`] polygon sides,
//! fonts at most [`MAX_FONT_PX`](crate::elements::bounds::MAX_FONT_PX)), and at most [`Limits`]' annotation budget is drawn.

use crate::elements::bounds::{bounded_dash, bounded_font, finite_in, MAX_PX};
use crate::elements::point::{draw_point, PointDraw};
use crate::elements::{Area, Ctx, P};
use crate::math::squared;
use crate::scales::LaidOutScale;
use crate::scene::{LineCap, LineJoin};
use chart_spec::model::annotation::{
    Annotation, AnnotationKind, AnnotationLabel, Annotations, ArrowHead, DrawTime, Shape,
};
use chart_spec::model::annotation::{ControlOffset, LabelSize};
use chart_spec::model::{Axis, Raw};
use chart_spec::Limits;
use std::borrow::Cow;
use std::collections::HashMap;
use std::f64::consts::PI;

mod geometry;
mod label;
mod prepare;
mod shape;

pub use prepare::{doughnut_hole, pixels, prepare, Prepared, Widened};

use geometry::{
    angle_in_curve, box_bounds, control_point, line_props, point_in_curve, point_props,
};
use label::{box_label, draw_doughnut_label, draw_label, label_annotation, line_label};
use shape::{draw_arrow_head, draw_box, ellipse, rotate_about, set_shadow, stroke_style};

/// Most sides a polygon annotation is drawn with: past a few hundred it is a circle to the
/// eye, and the plugin would loop once per side.
const MAX_SIDES: usize = 1_024;

/// A pixel length or offset from the options, finite and bounded (`default` when not a
/// number).
fn px(v: f64, default: f64) -> f64 {
    finite_in(v, -MAX_PX, MAX_PX, default)
}

/// An angle in degrees: a turn more or less draws the same, a huge one loses all precision.
fn degrees(v: f64) -> f64 {
    if v.is_finite() {
        v % 360.0
    } else {
        0.0
    }
}

fn bounded_shape(s: &mut Shape) {
    s.border_width = px(s.border_width, 0.0);
    s.border_radius = px(s.border_radius, 0.0);
    s.border_dash_offset = px(s.border_dash_offset, 0.0);
    s.border_dash = bounded_dash(&s.border_dash);
    s.shadow.blur = finite_in(s.shadow.blur, 0.0, MAX_PX, 0.0);
    s.shadow.offset_x = px(s.shadow.offset_x, 0.0);
    s.shadow.offset_y = px(s.shadow.offset_y, 0.0);
}

fn bounded_label(l: &mut AnnotationLabel) {
    bounded_shape(&mut l.shape);
    let p = &mut l.padding;
    (p.top, p.right, p.bottom, p.left) = (
        px(p.top, 0.0),
        px(p.right, 0.0),
        px(p.bottom, 0.0),
        px(p.left, 0.0),
    );
    l.x_adjust = px(l.x_adjust, 0.0);
    l.y_adjust = px(l.y_adjust, 0.0);
    l.rotation = l.rotation.map(degrees);
    l.text_stroke_width = finite_in(l.text_stroke_width, 0.0, MAX_PX, 0.0);
    l.z = finite_in(l.z, f64::MIN, f64::MAX, 0.0);
    for f in l.fonts.iter_mut() {
        if let Cow::Owned(g) = bounded_font(f) {
            *f = g;
        }
    }
    if let Some(c) = l.callout.as_mut() {
        c.margin = px(c.margin, 5.0);
        c.side = px(c.side, 5.0);
        if let LabelSize::Px(v) = c.start {
            c.start = LabelSize::Px(px(v, 0.0));
        }
        bounded_shape(&mut c.shape);
    }
}

/// `a` with every number that becomes geometry finite and bounded.
fn bounded(a: &Annotation) -> Annotation {
    let mut a = a.clone();
    a.z = finite_in(a.z, f64::MIN, f64::MAX, 0.0);
    a.x_adjust = px(a.x_adjust, 0.0);
    a.y_adjust = px(a.y_adjust, 0.0);
    // NaN keeps its meaning (a point's radius from its box).
    if !a.radius.is_nan() {
        a.radius = a.radius.clamp(-MAX_PX, MAX_PX);
    }
    a.spacing = px(a.spacing, 1.0);
    a.rotation = degrees(a.rotation);
    bounded_shape(&mut a.shape);
    let offset = |o: ControlOffset| match o {
        ControlOffset::Px(v) => ControlOffset::Px(px(v, 0.0)),
        ControlOffset::Percent(p) => ControlOffset::Percent(finite_in(p, -1e3, 1e3, 0.0)),
        ControlOffset::Length => ControlOffset::Length,
    };
    a.control_point = (offset(a.control_point.0), offset(a.control_point.1));
    for h in a.arrow_heads.iter_mut().flatten() {
        h.length = px(h.length, 12.0);
        h.width = px(h.width, 6.0);
        bounded_shape(&mut h.shape);
    }
    bounded_label(&mut a.label);
    a
}

/// `retrieveScaleID`: the option, else the first scale of that axis.
fn scale_for<'a>(scales: &Scales<'a>, id: Option<&str>, axis: Axis) -> Option<&'a LaidOutScale> {
    match id {
        Some(id) => scales.list.iter().find(|s| s.core.id() == id),
        None => scales.list.iter().find(|s| s.core.axis() == axis),
    }
}

/// Annotation values parsed by each scale before drawing (`scale.parse` needs `&mut` and
/// runs when the scales are built): (scale id, value as written) → parsed value.
pub type Parsed = HashMap<(String, String), f64>;

/// The pixel of each annotation value on the scale it is bound to, computed once the scales
/// are laid out (`scale.getPixelForValue`): scale id → value (as bits) → pixel.
pub type Pixels = HashMap<String, HashMap<u64, f64>>;

/// The chart's scales with the annotation values they parsed.
pub struct Scales<'a> {
    /// The scales, laid out.
    pub list: &'a [LaidOutScale],
    /// Parsed annotation values.
    pub parsed: &'a Parsed,
    /// The pixels of the annotations' values on their scales.
    pub pixels: &'a Pixels,
    /// The hole of the innermost visible doughnut or pie ring drawn over at least 90°
    /// (`getDatasetMeta` of doughnutLabel): centre x, y and inner radius.
    pub hole: Option<(f64, f64, f64)>,
}

/// The value of `v` on the scale `id` (`None`: none, or not a finite number), as
/// `scaleValue` reads it before asking for its pixel.
fn value_on(parsed: &Parsed, id: &str, v: &Raw) -> Option<f64> {
    match v {
        Raw::Undefined | Raw::Null => None,
        Raw::Num(n) => Some(*n).filter(|f| f.is_finite()),
        other => parsed.get(&(id.to_string(), other.to_js_string())).copied(),
    }
}

/// `scaleValue(scale, value, fallback)`, the pixel read from [`Scales::pixels`] (every value
/// bound to a scale has one there).
fn scale_value(sc: &Scales<'_>, scale: &LaidOutScale, v: &Raw, fallback: f64) -> f64 {
    match value_on(sc.parsed, scale.core.id(), v) {
        Some(p) => (sc.pixels.get(scale.core.id()))
            .and_then(|m| m.get(&p.to_bits()))
            .copied()
            .unwrap_or(f64::NAN),
        None => fallback,
    }
}

/// One drawable: an annotation's main element or its label.
enum Drawable<'a> {
    Main(&'a Annotation),
    Label(&'a Annotation),
}

/// `draw(chart, caller, clip)`: every element and label of `time`, by `z`.
pub fn draw(
    ctx: &mut Ctx<'_>,
    anns: &Annotations,
    time: DrawTime,
    scales: &Scales<'_>,
    area: &Area,
    limits: &Limits,
) {
    let mut items: Vec<(f64, Drawable<'_>)> = Vec::new();
    let list: Vec<Annotation> = anns
        .list
        .iter()
        .take(limits.max_annotations)
        .map(bounded)
        .collect();
    for a in &list {
        if a.draw_time == time {
            items.push((a.z, Drawable::Main(a)));
        }
        let has_label = matches!(
            a.kind,
            AnnotationKind::Line | AnnotationKind::Box | AnnotationKind::Ellipse
        );
        if has_label && a.label.display && a.label.draw_time == time {
            items.push((a.label.z, Drawable::Label(a)));
        }
    }
    if items.is_empty() {
        return;
    }
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
    if anns.clip {
        ctx.clip_area(*area);
    }
    let text = ctx.text;
    let measure = |f: &chart_spec::values::Font, s: &str| f64::from(text.measure(&f.spec, s));
    for (_, d) in items {
        match d {
            Drawable::Main(a) => draw_main(ctx, a, scales, area, &measure),
            Drawable::Label(a) => {
                let lb = match a.kind {
                    AnnotationKind::Line => {
                        let (b, inside, center) = line_props(a, scales, area);
                        if !inside || b.x.is_nan() || b.y.is_nan() {
                            continue;
                        }
                        let cp = a.curve.then(|| control_point(a, &b, center));
                        line_label(&a.label, &b, cp, area, &measure)
                    }
                    _ => match box_bounds(a, scales, area) {
                        Some(b) => box_label(&a.label, &b, a.shape.border_width, &measure),
                        None => continue,
                    },
                };
                if lb.rect.x.is_nan() || lb.rect.y.is_nan() {
                    continue;
                }
                draw_label(ctx, &a.label, &lb);
            }
        }
    }
    if anns.clip {
        ctx.unclip_area();
    }
}

fn draw_main(
    ctx: &mut Ctx<'_>,
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) {
    match a.kind {
        AnnotationKind::Line => {
            let (b, _, center) = line_props(a, scales, area);
            let bw = a.shape.border_width;
            if b.x.is_nan() || b.y.is_nan() || bw <= 0.0 || bw.is_nan() {
                return;
            }
            let length = (squared(b.x2 - b.x) + squared(b.y2 - b.y)).sqrt();
            // `getLineAdjust`: arrow heads shorten the line.
            let adjust = |h: &Option<ArrowHead>| {
                h.as_ref()
                    .map_or(0.0, |h| (h.length * (bw / 2.0) / h.width).abs())
            };
            let (start_adj, end_adj) = (adjust(&a.arrow_heads[0]), adjust(&a.arrow_heads[1]));
            if a.curve {
                // `drawCurve`.
                let cp = control_point(a, &b, center);
                let (p1, p2) = ((b.x, b.y), (b.x2, b.y2));
                let ps = point_in_curve(p1, cp, p2, start_adj / length);
                let pe = point_in_curve(p1, cp, p2, 1.0 - end_adj / length);
                let mut p = P::new();
                p.move_to(ps.0, ps.1);
                // quadraticCurveTo as the equivalent cubic.
                let c1 = (
                    ps.0 + 2.0 / 3.0 * (cp.0 - ps.0),
                    ps.1 + 2.0 / 3.0 * (cp.1 - ps.1),
                );
                let c2 = (
                    pe.0 + 2.0 / 3.0 * (cp.0 - pe.0),
                    pe.1 + 2.0 / 3.0 * (cp.1 - pe.1),
                );
                p.cubic_to(c1.0, c1.1, c2.0, c2.1, pe.0, pe.1);
                ctx.save();
                set_shadow(ctx, &a.shape, a.shape.shadow.border_color);
                ctx.stroke(&p, &stroke_style(&a.shape));
                let ends = [
                    (ps, angle_in_curve(p1, cp, p2, 0.0), start_adj),
                    (pe, angle_in_curve(p1, cp, p2, 1.0) - PI, end_adj),
                ];
                for (i, (at, angle, adj)) in ends.into_iter().enumerate() {
                    if a.arrow_heads[i].is_some() {
                        ctx.save();
                        ctx.translate(at.0, at.1);
                        ctx.rotate(angle);
                        draw_arrow_head(ctx, 0.0, -adj, a.arrow_heads[i].as_ref(), &a.shape);
                        ctx.restore();
                    }
                }
                ctx.restore();
                return;
            }
            // `LineAnnotation.draw`: along the x axis of a frame at the start, rotated to
            // the line.
            ctx.save();
            ctx.translate(b.x, b.y);
            ctx.rotate(libm::atan2(b.y2 - b.y, b.x2 - b.x));
            let mut p = P::new();
            p.move_to(start_adj, 0.0);
            p.line_to(length - end_adj, 0.0);
            set_shadow(ctx, &a.shape, a.shape.shadow.border_color);
            ctx.stroke(&p, &stroke_style(&a.shape));
            draw_arrow_head(ctx, 0.0, start_adj, a.arrow_heads[0].as_ref(), &a.shape);
            draw_arrow_head(ctx, length, -end_adj, a.arrow_heads[1].as_ref(), &a.shape);
            ctx.restore();
        }
        AnnotationKind::Box => {
            let Some(b) = box_bounds(a, scales, area).filter(|b| !b.x.is_nan() && !b.y.is_nan())
            else {
                return;
            };
            ctx.save();
            rotate_about(ctx, b.center(), a.rotation);
            draw_box(ctx, &b, &a.shape, a.shape.background_color);
            ctx.restore();
        }
        AnnotationKind::Ellipse => {
            let Some(b) = box_bounds(a, scales, area).filter(|b| !b.x.is_nan() && !b.y.is_nan())
            else {
                return;
            };
            let (cx, cy) = b.center();
            ctx.save();
            rotate_about(ctx, (cx, cy), a.rotation);
            let mut p = P::new();
            ellipse(&mut p, cx, cy, b.width() / 2.0, b.height() / 2.0);
            set_shadow(ctx, &a.shape, a.shape.shadow.background_color);
            ctx.fill(&p, a.shape.background_color);
            if a.shape.border_width > 0.0 {
                set_shadow(ctx, &a.shape, a.shape.shadow.border_color);
                ctx.stroke(&p, &stroke_style(&a.shape));
            }
            ctx.restore();
        }
        AnnotationKind::Point => {
            let Some((x, y, r)) = point_props(a, scales, area) else {
                return;
            };
            if x.is_nan() || y.is_nan() || r < 0.1 || r.is_nan() {
                return;
            }
            // `drawPoint` → `drawPointStyle`: the shapes of Chart.js's `drawPoint`.
            let d = PointDraw {
                style: a.point_style,
                radius: r,
                rotation: a.rotation,
                border_width: a.shape.border_width,
                fill: a.shape.background_color,
                stroke: a.shape.border_color,
                dash: a.shape.border_dash.clone(),
                dash_offset: a.shape.border_dash_offset,
                cap: LineCap::Butt,
                join: LineJoin::Miter,
            };
            // `drawPointStyle` fills under the background shadow, then the element strokes
            // under the border shadow.
            ctx.save();
            set_shadow(ctx, &a.shape, a.shape.shadow.background_color);
            draw_point(
                ctx,
                &PointDraw {
                    border_width: 0.0,
                    ..d.clone()
                },
                x,
                y,
                None,
            );
            set_shadow(ctx, &a.shape, a.shape.shadow.border_color);
            draw_point(
                ctx,
                &PointDraw {
                    fill: chart_spec::Rgba::TRANSPARENT,
                    ..d
                },
                x,
                y,
                None,
            );
            ctx.restore();
        }
        AnnotationKind::Polygon => {
            let Some((cx, cy, r)) = point_props(a, scales, area) else {
                return;
            };
            // `for (i = 0; i < sides; i++, rad += 2π / sides)`: ⌈sides⌉ vertices, none for
            // NaN or a non-positive count. The plugin loops over `sides` as given (a browser
            // hangs on `sides: 1e308`); past 1,024 sides the polygon is its circle to well
            // under a pixel at any radius a canvas holds, so the vertices are capped there
            // (found by fuzzing).
            if cx.is_nan() || cy.is_nan() || a.sides.is_nan() || a.sides <= 0.0 {
                return;
            }
            let sides = a.sides.ceil().min(MAX_SIDES as f64) as usize;
            let step = 2.0 * PI / a.sides.min(MAX_SIDES as f64);
            let mut rad = a.rotation.to_radians();
            let mut p = P::new();
            for i in 0..sides {
                let (x, y) = (cx + libm::sin(rad) * r, cy - libm::cos(rad) * r);
                if i == 0 {
                    p.move_to(x, y);
                } else {
                    p.line_to(x, y);
                }
                rad += step;
            }
            p.close();
            ctx.save();
            set_shadow(ctx, &a.shape, a.shape.shadow.background_color);
            ctx.fill(&p, a.shape.background_color);
            if a.shape.border_width > 0.0 {
                set_shadow(ctx, &a.shape, a.shape.shadow.border_color);
                ctx.stroke(&p, &stroke_style(&a.shape));
            }
            ctx.restore();
        }
        AnnotationKind::DoughnutLabel => draw_doughnut_label(ctx, a, scales, area, measure),
        AnnotationKind::Label => {
            if let Some(lb) = label_annotation(a, scales, area, measure) {
                if !lb.rect.x.is_nan() && !lb.rect.y.is_nan() {
                    draw_label(ctx, &a.label, &lb);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elements::bounds::MAX_FONT_PX;
    use chart_spec::resolve::resolve_annotations;
    use serde_json::json;

    /// A label font with a negative size or a finite but absurd line height is bounded like
    /// every other font (`bounded_font`), not only an oversized or non-finite one.
    #[test]
    fn label_fonts_are_bounded_whole() {
        let cfg = json!({"options": {"plugins": {"annotation": {"annotations": {"l": {
            "type": "label", "xValue": 1, "yValue": 1, "content": ["a", "b"],
            "font": [{"size": -5}, {"size": 12, "lineHeight": 1e300}]}}}}}});
        let anns = resolve_annotations(cfg.as_object().unwrap(), &mut Vec::new()).unwrap();
        let label = bounded(&anns.list[0]).label;
        assert_eq!(label.fonts.len(), 2);
        for f in &label.fonts {
            assert!((0.0..=MAX_FONT_PX).contains(&f.size), "{f:?}");
            assert!(f.line_height.abs() <= MAX_PX, "{f:?}");
        }
    }
}
