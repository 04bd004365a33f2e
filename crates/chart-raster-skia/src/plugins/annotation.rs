//! chartjs-plugin-annotation 3.1.0: line, box, label, point, ellipse and polygon annotations,
//! each drawn at its `drawTime` (clipped to the chart area unless `clip: false`), and
//! `adjustScaleRange` widening the scales to show them.
//!
//! Mirrors the plugin's `resolveElementProperties` of each element type (positions from
//! `scaleValue` on the chart's scales), `calculateLabelPosition` for line labels,
//! `resolveLabelElementProperties` for box labels, and `drawBox`/`drawLabel`.
//!
//! Hostile options: before drawing, every annotation is copied with its numbers bounded
//! ([`bounded`]: finite pixel lengths, finite angles, at most [`MAX_SIDES`] polygon sides,
//! fonts at most [`MAX_FONT_PX`]), and at most [`Limits`]' annotation budget is drawn.

use crate::elements::point::{draw_point, PointDraw};
use crate::elements::{Area, Ctx, StrokeStyle, P};
use crate::math::squared;
use crate::plugins::bounds::{bounded_dash, bounded_font, finite_in, MAX_FONT_PX, MAX_PX};
use crate::scales::{DataLimits, Scale};
use crate::scene::{LineCap, LineJoin, TextAlign, TextBaseline};
use chart_spec::model::annotation::{
    Annotation, AnnotationKind, AnnotationLabel, Annotations, ArrowHead, Callout, DrawTime, Shape,
};
use chart_spec::model::annotation::{ControlOffset, LabelSize};
use chart_spec::model::{Axis, Raw};
use chart_spec::{Limits, Rgba};
use std::collections::HashMap;
use std::f64::consts::{FRAC_PI_2, PI};

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
        if f.size > MAX_FONT_PX || !f.size.is_finite() || !f.line_height.is_finite() {
            *f = bounded_font(f).into_owned();
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
    a.sides = a.sides.min(MAX_SIDES);
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

/// An axis-aligned rectangle (`{x, y, x2, y2}` of the plugin's elements).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Left (or start x of a line).
    pub x: f64,
    /// Top (or start y of a line).
    pub y: f64,
    /// Right (or end x).
    pub x2: f64,
    /// Bottom (or end y).
    pub y2: f64,
}

impl Bounds {
    fn width(&self) -> f64 {
        self.x2 - self.x
    }
    fn height(&self) -> f64 {
        self.y2 - self.y
    }
    fn center(&self) -> (f64, f64) {
        (self.x + self.width() / 2.0, self.y + self.height() / 2.0)
    }
}

/// `retrieveScaleID`: the option, else the first scale of that axis.
fn scale_for<'a>(scales: &Scales<'a>, id: Option<&str>, axis: Axis) -> Option<&'a Scale> {
    match id {
        Some(id) => scales.list.iter().find(|s| s.core.id() == id),
        None => scales.list.iter().find(|s| s.core.axis() == axis),
    }
}

/// `scale.parse(value)` for an annotation value (`None`: not a finite number).
fn parse(scale: &mut Scale, v: &Raw) -> Option<f64> {
    if v.is_null_or_undef() {
        return None;
    }
    let s = &mut *scale;
    s.kind.parse(&s.core, v, None).filter(|f| f.is_finite())
}

/// Annotation values parsed by each scale before drawing (`scale.parse` needs `&mut` and
/// runs when the scales are built): (scale id, value as written) → parsed value.
pub type Parsed = HashMap<(String, String), f64>;

/// The chart's scales with the annotation values they parsed.
pub struct Scales<'a> {
    /// The scales.
    pub list: &'a [Scale],
    /// Parsed annotation values.
    pub parsed: &'a Parsed,
    /// The hole of the innermost visible doughnut or pie ring drawn over at least 90°
    /// (`getDatasetMeta` of doughnutLabel): centre x, y and inner radius.
    pub hole: Option<(f64, f64, f64)>,
}

/// `scaleValue(scale, value, fallback)`.
fn scale_value(sc: &Scales<'_>, scale: &Scale, v: &Raw, fallback: f64) -> f64 {
    let parsed = match v {
        Raw::Undefined | Raw::Null => None,
        Raw::Num(n) => Some(*n).filter(|f| f.is_finite()),
        other => sc
            .parsed
            .get(&(scale.core.id().to_string(), other.to_js_string()))
            .copied(),
    };
    match parsed {
        Some(p) => scale.pixel_for_value(p),
        None => fallback,
    }
}

/// `getDimensionByScale`: (start, end) pixels, unordered.
fn dimension(
    sc: &Scales<'_>,
    scale: &Scale,
    min: &Raw,
    max: &Raw,
    start: f64,
    end: f64,
) -> (f64, f64) {
    let rev = scale.core.opts.reverse;
    (
        scale_value(sc, scale, min, if rev { end } else { start }),
        scale_value(sc, scale, max, if rev { start } else { end }),
    )
}

/// `resolveBoxProperties`: `None` without any scale.
fn box_bounds(a: &Annotation, scales: &Scales<'_>, area: &Area) -> Option<Bounds> {
    let xs = scale_for(scales, a.x_scale_id.as_deref(), Axis::X);
    let ys = scale_for(scales, a.y_scale_id.as_deref(), Axis::Y);
    if xs.is_none() && ys.is_none() {
        return None;
    }
    let (x, x2) = xs.map_or((area.left, area.right), |s| (s.core.left, s.core.right));
    let (y, y2) = ys.map_or((area.top, area.bottom), |s| (s.core.top, s.core.bottom));
    let (xa, xb) = xs.map_or((x, x2), |s| dimension(scales, s, &a.x_min, &a.x_max, x, x2));
    let (ya, yb) = ys.map_or((y2, y), |s| dimension(scales, s, &a.y_min, &a.y_max, y2, y));
    Some(Bounds {
        x: xa.min(xb),
        x2: xa.max(xb),
        y: ya.min(yb),
        y2: ya.max(yb),
    })
}

fn bound_to_point(a: &Annotation) -> bool {
    !matches!(a.x_value, Raw::Undefined) || !matches!(a.y_value, Raw::Undefined)
}

/// `getChartPoint`.
fn chart_point(a: &Annotation, scales: &Scales<'_>, area: &Area) -> (f64, f64) {
    let mut x = area.width() / 2.0;
    let mut y = area.height() / 2.0;
    if let Some(s) = scale_for(scales, a.x_scale_id.as_deref(), Axis::X) {
        x = scale_value(scales, s, &a.x_value, s.core.left + s.core.width / 2.0);
    }
    if let Some(s) = scale_for(scales, a.y_scale_id.as_deref(), Axis::Y) {
        y = scale_value(scales, s, &a.y_value, s.core.top + s.core.height / 2.0);
    }
    (x, y)
}

/// `resolvePointProperties`: centre and radius.
fn point_props(a: &Annotation, scales: &Scales<'_>, area: &Area) -> Option<(f64, f64, f64)> {
    if bound_to_point(a) {
        let (x, y) = chart_point(a, scales, area);
        return Some((x + a.x_adjust, y + a.y_adjust, a.radius));
    }
    let b = box_bounds(a, scales, area)?;
    let mut r = a.radius;
    if r == 0.0 || r.is_nan() {
        r = b.width().min(b.height()) / 2.0;
    }
    let (cx, cy) = b.center();
    Some((cx + a.x_adjust, cy + a.y_adjust, r))
}

/// `resolveLineProperties` then the clipping of `LineAnnotation.resolveElementProperties`:
/// the segment and whether it crosses the chart area.
fn line_props(a: &Annotation, scales: &Scales<'_>, area: &Area) -> (Bounds, bool, (f64, f64)) {
    let mut b = Bounds {
        x: area.left,
        y: area.top,
        x2: area.right,
        y2: area.bottom,
    };
    match a
        .scale_id
        .as_deref()
        .and_then(|id| scales.list.iter().find(|s| s.core.id() == id))
    {
        Some(s) => {
            let min = scale_value(scales, s, &a.value, f64::NAN);
            let max = scale_value(scales, s, &a.end_value, min);
            if s.core.is_horizontal() {
                (b.x, b.x2) = (min, max);
            } else {
                (b.y, b.y2) = (min, max);
            }
        }
        None => {
            if let Some(s) = scale_for(scales, a.x_scale_id.as_deref(), Axis::X) {
                (b.x, b.x2) = dimension(scales, s, &a.x_min, &a.x_max, s.core.left, s.core.right);
            }
            if let Some(s) = scale_for(scales, a.y_scale_id.as_deref(), Axis::Y) {
                (b.y, b.y2) = dimension(scales, s, &a.y_min, &a.y_max, s.core.bottom, s.core.top);
            }
        }
    }
    // `centerX`/`centerY` come from the segment before it is limited to the area.
    let center = ((b.x + b.x2) / 2.0, (b.y + b.y2) / 2.0);
    // isLineInArea
    let inside = !((b.x < area.left && b.x2 < area.left)
        || (b.x > area.right && b.x2 > area.right)
        || (b.y < area.top && b.y2 < area.top)
        || (b.y > area.bottom && b.y2 > area.bottom));
    if inside {
        let p1 = limit_point((b.x, b.y), (b.x2, b.y2), area);
        let p2 = limit_point((b.x2, b.y2), (b.x, b.y), area);
        b = Bounds {
            x: p1.0,
            y: p1.1,
            x2: p2.0,
            y2: p2.1,
        };
    }
    (b, inside, center)
}

/// `getControlPoint`: the quadratic control point of a curved line.
fn control_point(a: &Annotation, b: &Bounds, center: (f64, f64)) -> (f64, f64) {
    let angle = libm::atan2(b.y2 - b.y, b.x2 - b.x);
    let distance = (squared(b.x2 - b.x) + squared(b.y2 - b.y)).sqrt();
    let (cx, cy) = center;
    let px = cx + a.control_point.0.size(distance);
    let py = cy + a.control_point.1.size(distance);
    let (c, s) = (libm::cos(angle), libm::sin(angle));
    (
        cx + c * (px - cx) - s * (py - cy),
        cy + s * (px - cx) + c * (py - cy),
    )
}

/// `pointInCurve`.
fn point_in_curve(p1: (f64, f64), cp: (f64, f64), p2: (f64, f64), t: f64) -> (f64, f64) {
    let coord =
        |s: f64, c: f64, e: f64| (1.0 - t) * (1.0 - t) * s + 2.0 * (1.0 - t) * t * c + t * t * e;
    (coord(p1.0, cp.0, p2.0), coord(p1.1, cp.1, p2.1))
}

/// `angleInCurve`.
fn angle_in_curve(p1: (f64, f64), cp: (f64, f64), p2: (f64, f64), t: f64) -> f64 {
    let d = |s: f64, c: f64, e: f64| 2.0 * (1.0 - t) * (c - s) + 2.0 * t * (e - c);
    -libm::atan2(d(p1.0, cp.0, p2.0), d(p1.1, cp.1, p2.1)) + 0.5 * PI
}

/// `limitPointToArea`.
fn limit_point(p: (f64, f64), p2: (f64, f64), area: &Area) -> (f64, f64) {
    let (mut x, mut y) = p;
    let along = |p1: (f64, f64), t: f64| (p1.0 + t * (p2.0 - p1.0), p1.1 + t * (p2.1 - p1.1));
    if x < area.left {
        y = along((x, y), ((area.left - x) / (p2.0 - x)).abs()).1;
        x = area.left;
    }
    if x > area.right {
        y = along((x, y), ((area.right - x) / (p2.0 - x)).abs()).1;
        x = area.right;
    }
    if y < area.top {
        x = along((x, y), ((area.top - y) / (p2.1 - y)).abs()).0;
        y = area.top;
    }
    if y > area.bottom {
        x = along((x, y), ((area.bottom - y) / (p2.1 - y)).abs()).0;
        y = area.bottom;
    }
    (x, y)
}

/// `measureLabelSize`/`calculateLabelSize`.
fn label_size(
    l: &AnnotationLabel,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> (f64, f64) {
    let sw = l.text_stroke_width;
    let mut w: f64 = 0.0;
    let mut h = sw;
    for (i, line) in l.content.iter().enumerate() {
        let Some(f) = l.fonts.get(i.min(l.fonts.len().saturating_sub(1))) else {
            break;
        };
        w = w.max(measure(f, line) + sw);
        h += f.line_height;
    }
    (w, h)
}

/// A label box ready to draw: its rectangle and rotation (degrees) about its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelBox {
    /// The frame (`x, y, x2, y2`).
    pub rect: Bounds,
    /// Rotation, degrees.
    pub rotation: f64,
    /// Background colour (box labels force transparent).
    pub background: Rgba,
    /// The labelled point (`pointX`, `pointY`) a callout points to; `None` for box labels,
    /// whose callout the plugin turns off.
    pub point: Option<(f64, f64)>,
}

/// `calculateLabelPosition` for a line's label.
fn line_label(
    l: &AnnotationLabel,
    line: &Bounds,
    cp: Option<(f64, f64)>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> LabelBox {
    let (tw, th) = label_size(l, measure);
    let p = &l.padding;
    let bw = l.shape.border_width;
    let width = tw + p.left + p.right + bw;
    let height = th + p.top + p.bottom + bw;
    let rotation = match l.rotation {
        Some(deg) => deg.to_radians(),
        None => {
            let r = libm::atan2(line.y2 - line.y, line.x2 - line.x);
            if r > FRAC_PI_2 {
                r - PI
            } else if r < -FRAC_PI_2 {
                r + PI
            } else {
                r
            }
        }
    };
    let (c, s) = (libm::cos(rotation), libm::sin(rotation));
    let (sw, sh) = (
        (width * c).abs() + (height * s).abs(),
        (width * s).abs() + (height * c).abs(),
    );
    // spaceAround
    let t_ = line.y.min(line.y2) - area.top;
    let l_ = line.x.min(line.x2) - area.left;
    let b_ = area.bottom - line.y.max(line.y2);
    let r_ = area.right - line.x.max(line.x2);
    let (spx, spy) = (l_.min(r_), t_.min(b_));
    let (dx, dy) = (
        if l_ <= r_ { 1.0 } else { -1.0 },
        if t_ <= b_ { 1.0 } else { -1.0 },
    );
    let t_adjust = |lw: f64, lh: f64| {
        let (lw, lh) = (lw * dx, lh * dy);
        // `(lineW > 0) && (...)`: false counts as 0 in Math.max.
        let x = if lw > 0.0 {
            (sw / 2.0 + p.left - spx) / lw
        } else {
            0.0
        };
        let y = if lh > 0.0 {
            (sh / 2.0 + p.top - spy) / lh
        } else {
            0.0
        };
        x.max(y).clamp(0.0, 0.25)
    };
    use chart_spec::model::annotation::LabelPos;
    let t = match l.line_position {
        LabelPos::Start => t_adjust(line.x2 - line.x, line.y2 - line.y),
        LabelPos::End => 1.0 - t_adjust(line.x - line.x2, line.y - line.y2),
        other => other.relative(1.0),
    };
    let pt = match cp {
        Some(cp) => point_in_curve((line.x, line.y), cp, (line.x2, line.y2), t),
        None => (
            line.x + t * (line.x2 - line.x),
            line.y + t * (line.y2 - line.y),
        ),
    };
    let adjust = |coord: f64, size: f64, min: f64, max: f64, pad: f64| {
        let half = size / 2.0;
        if size > max - min {
            return (max + min) / 2.0;
        }
        let mut c = coord;
        if min >= c - pad - half {
            c = min + pad + half;
        }
        if max <= c + pad + half {
            c = max - pad - half;
        }
        c
    };
    let cx = adjust(pt.0, sw, area.left, area.right, p.left) + l.x_adjust;
    let cy = adjust(pt.1, sh, area.top, area.bottom, p.top) + l.y_adjust;
    LabelBox {
        rect: Bounds {
            x: cx - width / 2.0,
            y: cy - height / 2.0,
            x2: cx + width / 2.0,
            y2: cy + height / 2.0,
        },
        rotation: rotation.to_degrees(),
        background: l.shape.background_color,
        point: Some(pt),
    }
}

/// `resolveLabelElementProperties$1`: a box's (or ellipse's) label inside it.
fn box_label(
    l: &AnnotationLabel,
    b: &Bounds,
    box_border: f64,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> LabelBox {
    let (tw, th) = label_size(l, measure);
    let p = &l.padding;
    let pos = |start: f64,
               end: f64,
               pad0: f64,
               pad1: f64,
               adj: f64,
               size: f64,
               at: chart_spec::model::annotation::LabelPos| {
        let avail = end - box_border - start - pad0 - pad1 - size;
        start + box_border / 2.0 + adj + at.relative(avail)
    };
    let x = pos(b.x, b.x2, p.left, p.right, l.x_adjust, tw, l.position.0);
    let y = pos(b.y, b.y2, p.top, p.bottom, l.y_adjust, th, l.position.1);
    let (w, h) = (tw + p.left + p.right, th + p.top + p.bottom);
    LabelBox {
        rect: Bounds {
            x,
            y,
            x2: x + w,
            y2: y + h,
        },
        rotation: l.rotation.unwrap_or(0.0),
        background: Rgba::TRANSPARENT,
        point: None,
    }
}

/// `measureLabelRectangle` for a `type: 'label'` annotation.
fn label_annotation(
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> Option<LabelBox> {
    let point = if bound_to_point(a) {
        chart_point(a, scales, area)
    } else {
        box_bounds(a, scales, area)?.center()
    };
    let l = &a.label;
    let (tw, th) = label_size(l, measure);
    let bw = l.shape.border_width;
    let p = &l.padding;
    let w = tw + p.left + p.right + bw;
    let h = th + p.top + p.bottom + bw;
    let x = point.0 - l.position.0.relative(w) + l.x_adjust;
    let y = point.1 - l.position.1.relative(h) + l.y_adjust;
    Some(LabelBox {
        rect: Bounds {
            x,
            y,
            x2: x + w,
            y2: y + h,
        },
        rotation: a.rotation,
        background: l.shape.background_color,
        point: Some(point),
    })
}

fn stroke_style(s: &Shape) -> StrokeStyle {
    let mut st = StrokeStyle::new(s.border_width, s.border_color);
    st.dash = s.border_dash.clone();
    st.dash_offset = s.border_dash_offset;
    st
}

/// `translate(ctx, center, rotation)`: rotation about a point.
fn rotate_about(ctx: &mut Ctx<'_>, (x, y): (f64, f64), deg: f64) {
    if deg != 0.0 && !deg.is_nan() {
        ctx.translate(x, y);
        ctx.rotate(deg.to_radians());
        ctx.translate(-x, -y);
    }
}

/// A rounded rectangle with one radius, clamped to half the shorter side
/// (`addRoundedRectPath` with `clampAll`).
fn rounded_rect(p: &mut P, b: &Bounds, radius: f64) {
    let (w, h) = (b.width(), b.height());
    let r = radius.clamp(0.0, (w.min(h) / 2.0).max(0.0));
    if r <= 0.0 || r.is_nan() {
        p.rect(b.x, b.y, w, h);
        return;
    }
    let (x, y) = (b.x, b.y);
    p.move_to(x + r, y);
    p.line_to(x + w - r, y);
    p.arc(x + w - r, y + r, r, -FRAC_PI_2, 0.0, false);
    p.line_to(x + w, y + h - r);
    p.arc(x + w - r, y + h - r, r, 0.0, FRAC_PI_2, false);
    p.line_to(x + r, y + h);
    p.arc(x + r, y + h - r, r, FRAC_PI_2, PI, false);
    p.line_to(x, y + r);
    p.arc(x + r, y + r, r, PI, PI + FRAC_PI_2, false);
    p.close();
}

/// `drawBox`: fill, then the border when it has a width.
fn draw_box(ctx: &mut Ctx<'_>, b: &Bounds, shape: &Shape, background: Rgba) {
    let mut p = P::new();
    rounded_rect(&mut p, b, shape.border_radius);
    ctx.fill(&p, background);
    if shape.border_width > 0.0 {
        ctx.stroke(&p, &stroke_style(shape));
    }
}

/// `LabelAnnotation.draw`: frame then text lines.
fn draw_label(ctx: &mut Ctx<'_>, l: &AnnotationLabel, lb: &LabelBox) {
    if !l.display || l.content.is_empty() {
        return;
    }
    ctx.save();
    rotate_about(ctx, lb.rect.center(), lb.rotation);
    if let (Some(c), Some(pt)) = (&l.callout, lb.point) {
        draw_callout(ctx, c, l.shape.border_width, lb, pt);
    }
    draw_box(ctx, &lb.rect, &l.shape, lb.background);
    // getLabelSize
    let bw = l.shape.border_width;
    let p = &l.padding;
    let x0 = lb.rect.x + p.left + bw / 2.0;
    let y0 = lb.rect.y + p.top + bw / 2.0;
    let w = lb.rect.width() - p.left - p.right - bw;
    let (x, align) = match l.text_align {
        0 => (x0 + w / 2.0, TextAlign::Center),
        1 => (x0 + w, TextAlign::Right),
        _ => (x0, TextAlign::Left),
    };
    let mut y = y0 + l.text_stroke_width / 2.0;
    for (i, line) in l.content.iter().enumerate() {
        let Some(f) = l.fonts.get(i.min(l.fonts.len().saturating_sub(1))) else {
            break;
        };
        let c = l
            .colors
            .get(i.min(l.colors.len().saturating_sub(1)))
            .copied()
            .unwrap_or(Rgba::rgb(0, 0, 0));
        let stroke = l
            .text_stroke_color
            .filter(|_| l.text_stroke_width > 0.0)
            .map(|sc| (l.text_stroke_width, sc));
        ctx.fill_text(
            line,
            x,
            y + f.line_height / 2.0,
            f,
            c,
            align,
            TextBaseline::Middle,
            stroke,
        );
        y += f.line_height;
    }
    ctx.restore();
}

/// Rotates `p` about `c` by `rad` (the plugin's `rotated`).
fn rotated(p: (f64, f64), c: (f64, f64), rad: f64) -> (f64, f64) {
    let (co, si) = (libm::cos(rad), libm::sin(rad));
    (
        c.0 + co * (p.0 - c.0) - si * (p.1 - c.1),
        c.1 + si * (p.0 - c.0) + co * (p.1 - c.1),
    )
}

/// `drawCallout`: separator and stub on the label's side nearest the point, then a line
/// to the point; nothing when the point is (nearly) inside the label.
fn draw_callout(ctx: &mut Ctx<'_>, c: &Callout, border_width: f64, lb: &LabelBox, pt: (f64, f64)) {
    let r = &lb.rect;
    let (w, h) = (r.width(), r.height());
    let center = r.center();
    let rad = lb.rotation.to_radians();
    // resolveCalloutPosition: 0 left, 1 bottom, 2 top, 3 right.
    let pos = c.position.unwrap_or_else(|| {
        let (xa, ya) = (c.start.of(w), c.start.of(h));
        let xs = [r.x, r.x + xa, r.x + xa, r.x2];
        let ys = [r.y + ya, r.y2, r.y, r.y2];
        let mut best = (0, f64::INFINITY);
        for i in 0..4 {
            let q = rotated((xs[i], ys[i]), center, rad);
            let d = (squared(q.0 - pt.0) + squared(q.1 - pt.1)).sqrt();
            if d < best.1 {
                best = (i, d);
            }
        }
        best.0
    });
    // isPointInRange
    let (mut px, mut py) = pt;
    match pos {
        0 => px += c.margin,
        3 => px -= c.margin,
        2 => py += c.margin,
        _ => py -= c.margin,
    }
    let q = rotated((px, py), center, -rad);
    let hit = border_width / 2.0 + 0.001;
    if q.0 >= r.x - hit && q.0 <= r.x2 + hit && q.1 >= r.y - hit && q.1 <= r.y2 + hit {
        return;
    }
    if c.shape.border_width.is_nan() || c.shape.border_width <= 0.0 {
        return;
    }
    let adjust = c.margin + border_width / 2.0;
    let sep = match pos {
        3 => w + adjust,
        1 => h + adjust,
        _ => -adjust,
    };
    let side = if pos == 0 || pos == 2 {
        -c.side
    } else {
        c.side
    };
    let (s0, s1, k0, k1) = if pos == 0 || pos == 3 {
        let s0 = (r.x + sep, r.y);
        let k0 = (s0.0, r.y + c.start.of(h));
        (s0, (s0.0, r.y2), k0, (k0.0 + side, k0.1))
    } else {
        let s0 = (r.x, r.y + sep);
        let k0 = (s0.0 + c.start.of(w), s0.1);
        (s0, (r.x2, s0.1), k0, (k0.0, k0.1 + side))
    };
    let mut p = P::new();
    if c.margin > 0.0 || border_width == 0.0 {
        p.move_to(s0.0, s0.1);
        p.line_to(s1.0, s1.1);
    }
    p.move_to(k0.0, k0.1);
    p.line_to(k1.0, k1.1);
    let target = rotated(pt, center, -rad);
    p.line_to(target.0, target.1);
    ctx.stroke(&p, &stroke_style(&c.shape));
}

/// A 4-cubic ellipse (`ctx.ellipse`) of radii `rx`, `ry`.
fn ellipse(p: &mut P, cx: f64, cy: f64, rx: f64, ry: f64) {
    const K: f64 = 0.552_284_749_830_793_4;
    let (kx, ky) = (rx * K, ry * K);
    p.move_to(cx + rx, cy);
    p.cubic_to(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
    p.cubic_to(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
    p.cubic_to(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
    p.cubic_to(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
    p.close();
}

/// The hole for doughnutLabel annotations (`getDatasetMeta` in the plugin): among the
/// visible doughnut and pie datasets drawn over at least 90°, the one with the smallest
/// inner radius, as (centre x, centre y, inner radius) of its first arc.
pub fn doughnut_hole(
    ctrls: &[Box<dyn crate::controllers::Controller>],
    data: &crate::controllers::ChartData,
    datasets: &[chart_spec::model::Dataset],
) -> Option<(f64, f64, f64)> {
    let mut best: Option<(f64, f64, f64)> = None;
    for &i in &data.sorted_visible {
        let (meta, ds) = (&data.metas[i], &datasets[i]);
        if !matches!(meta.kind.as_str(), "doughnut" | "pie")
            || ds.arc.as_ref().is_none_or(|a| a.circumference < 90.0)
        {
            continue;
        }
        let hole = ctrls[i]
            .element_geometry(ds, meta)
            .into_iter()
            .flatten()
            .find_map(|e| match e {
                crate::elements::geometry::ElementGeometry::Arc {
                    x, y, inner_radius, ..
                } => Some((x, y, inner_radius)),
                _ => None,
            });
        if let Some(h) = hole {
            if best.is_none_or(|b| h.2 < b.2) {
                best = Some(h);
            }
        }
    }
    best
}

/// `DoughnutLabelAnnotation`: `getControllerMeta`, `autoFit`, `drawBackground`, then the
/// text centred in the hole.
fn draw_doughnut_label(
    ctx: &mut Ctx<'_>,
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) {
    let l = &a.label;
    let Some((x, y, inner)) = scales.hole else {
        return;
    };
    if l.content.is_empty() {
        return;
    }
    let sq_l = (x - inner).max(area.left);
    let sq_r = (x + inner).min(area.right);
    let sq_t = (y - inner).max(area.top);
    let sq_b = (y + inner).min(area.bottom);
    let point = ((sq_l + sq_r) / 2.0, (sq_t + sq_b) / 2.0);
    let radius = inner.min((sq_r - sq_l).min(sq_b - sq_t) / 2.0);
    let (mut w, mut h) = label_size(l, measure);
    let ratio = radius * 2.0 / (w * w + h * h).sqrt();
    let mut label = l.clone();
    if a.auto_fit && ratio < 1.0 {
        // `toFonts` with `fitRatio`: floored sizes, the same line-height factor. (The plugin
        // scales the size as written, so a font without a size gets NaN and the canvas keeps
        // its previous font; the resolved size is scaled here.)
        label.fonts = l
            .fonts
            .iter()
            .map(|f| {
                // A ratio below 0 or NaN (an empty hole) shrinks to nothing.
                let size = (f.size * ratio).floor().max(0.0);
                let factor = if f.size > 0.0 {
                    f.line_height / f.size
                } else {
                    1.2
                };
                let mut g = f.clone();
                g.size = size;
                g.line_height = size * factor;
                g.spec.size = size as f32;
                g.spec.line_height = g.line_height as f32;
                g
            })
            .collect();
        w *= ratio;
        h *= ratio;
    }
    // drawBackground: the hole's circle, flattened where the chart area cuts it.
    let space = a.spacing + l.shape.border_width / 2.0;
    let r = inner - space;
    let ccw = point.1 > y;
    let side = if ccw {
        area.top + space
    } else {
        area.bottom - space
    };
    let (start, end) = hole_angles(side, x, y, r);
    let mut p = P::new();
    p.arc(x, y, r, start, end, ccw);
    p.close();
    ctx.fill(&p, l.shape.background_color);
    if l.shape.border_width > 0.0 {
        ctx.stroke(&p, &stroke_style(&l.shape));
    }
    // measureLabelRectangle without padding or border, then drawLabel on that box.
    let bx = point.0 - l.position.0.relative(w) + l.x_adjust;
    let by = point.1 - l.position.1.relative(h) + l.y_adjust;
    let lb = LabelBox {
        rect: Bounds {
            x: bx,
            y: by,
            x2: bx + w,
            y2: by + h,
        },
        rotation: a.rotation,
        background: Rgba::TRANSPARENT,
        point: None,
    };
    label.shape.border_width = 0.0;
    label.padding = chart_spec::values::Padding::all(0.0);
    label.display = true;
    draw_label(ctx, &label, &lb);
}

/// `getAngles`: where the line `y` crosses the circle, as angles (a full circle when it
/// does not).
fn hole_angles(y: f64, cx: f64, cy: f64, r: f64) -> (f64, f64) {
    let yk2 = squared(cy - y);
    let b = cx * -2.0;
    let c = cx * cx + yk2 - r * r;
    let delta = b * b - 4.0 * c;
    if delta <= 0.0 {
        return (0.0, 2.0 * PI);
    }
    let start = (-b - delta.sqrt()) / 2.0;
    let end = (-b + delta.sqrt()) / 2.0;
    // getAngleFromPoint: in (-π/2, 3π/2].
    let angle = |px: f64| {
        let a = libm::atan2(y - cy, px - cx);
        if a < -0.5 * PI {
            a + 2.0 * PI
        } else {
            a
        }
    };
    (angle(start), angle(end))
}

/// `drawArrowHead(ctx, offset, adjust, arrowOpts)` in the line's frame.
fn draw_arrow_head(
    ctx: &mut Ctx<'_>,
    offset: f64,
    adjust: f64,
    head: Option<&ArrowHead>,
    line: &Shape,
) {
    let Some(h) = head else { return };
    let x = (offset - h.length).abs() + adjust;
    let mut p = P::new();
    p.move_to(x, -h.width);
    p.line_to(offset + adjust, 0.0);
    p.line_to(x, h.width);
    // `setBorderStyle` leaves the line's stroke when the head has no border width.
    let shape = if h.shape.border_width > 0.0 {
        &h.shape
    } else {
        line
    };
    if h.fill {
        p.close();
        ctx.fill(&p, h.background_color.unwrap_or(h.shape.border_color));
    }
    ctx.stroke(&p, &stroke_style(shape));
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
            ctx.fill(&p, a.shape.background_color);
            if a.shape.border_width > 0.0 {
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
            draw_point(ctx, &d, x, y, None);
        }
        AnnotationKind::Polygon => {
            let Some((cx, cy, r)) = point_props(a, scales, area) else {
                return;
            };
            if cx.is_nan() || cy.is_nan() || a.sides == 0 {
                return;
            }
            // The plugin loops over `sides` as given (a browser hangs on `sides: 1e308`);
            // past 1,024 sides the polygon is its circle to well under a pixel at any radius
            // a canvas holds, so the vertices are capped there (found by fuzzing).
            let sides = a.sides.min(1024);
            let step = 2.0 * PI / sides as f64;
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
            ctx.fill(&p, a.shape.background_color);
            if a.shape.border_width > 0.0 {
                ctx.stroke(&p, &stroke_style(&a.shape));
            }
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

/// What the scales compute for the annotations when they are built.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Per scale id, the (min, max) `adjustScaleRange` adds to its data limits.
    pub extents: HashMap<String, (f64, f64)>,
    /// Non-numeric annotation values parsed by each scale.
    pub parsed: Parsed,
}

fn raw_values(a: &Annotation) -> [&Raw; 8] {
    [
        &a.value,
        &a.end_value,
        &a.x_min,
        &a.x_max,
        &a.y_min,
        &a.y_max,
        &a.x_value,
        &a.y_value,
    ]
}

/// Parses the annotation values with the scales (`scale.parse`) and computes
/// `adjustScaleRange` (`afterDataLimits`): per scale id, the (min, max) of the values bound
/// to it. Sides the user fixed (`min`/`suggestedMin`, `max`/`suggestedMax`) are left alone.
pub fn prepare(anns: &Annotations, scales: &mut [Scale]) -> Prepared {
    let mut out = Prepared::default();
    for s in scales.iter_mut() {
        let id = s.core.id().to_string();
        for a in &anns.list {
            for v in raw_values(a) {
                if matches!(v, Raw::Str(_) | Raw::Bool(_) | Raw::Array(_)) {
                    if let Some(p) = parse(s, v) {
                        out.parsed.insert((id.clone(), v.to_js_string()), p);
                    }
                }
            }
        }
    }
    for si in 0..scales.len() {
        let (id, axis) = (scales[si].core.id().to_string(), scales[si].core.axis());
        let first_of_axis = scales
            .iter()
            .find(|s| s.core.axis() == axis)
            .map(|s| s.core.id().to_string());
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for a in anns.list.iter().filter(|a| a.adjust_scale_range) {
            let values: Vec<&Raw> = if a.scale_id.as_deref() == Some(id.as_str()) {
                vec![&a.value, &a.end_value]
            } else {
                let sid = if axis == Axis::X {
                    a.x_scale_id.clone()
                } else {
                    a.y_scale_id.clone()
                }
                .or_else(|| first_of_axis.clone());
                if sid.as_deref() != Some(id.as_str()) {
                    continue;
                }
                if axis == Axis::X {
                    vec![&a.x_min, &a.x_max, &a.x_value]
                } else {
                    vec![&a.y_min, &a.y_max, &a.y_value]
                }
            };
            for v in values {
                let p = match v {
                    Raw::Num(n) => Some(*n).filter(|f| f.is_finite()),
                    other => out.parsed.get(&(id.clone(), other.to_js_string())).copied(),
                };
                if let Some(p) = p {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
        }
        let o = &scales[si].core.opts;
        if !matches!(o.min, Raw::Undefined) || !matches!(o.suggested_min, Raw::Undefined) {
            lo = f64::INFINITY;
        }
        if !matches!(o.max, Raw::Undefined) || !matches!(o.suggested_max, Raw::Undefined) {
            hi = f64::NEG_INFINITY;
        }
        if lo.is_finite() || hi.is_finite() {
            out.extents.insert(id, (lo, hi));
        }
    }
    out
}

/// The datasets' limits widened by [`Prepared::extents`].
pub struct Widened<'a> {
    /// The datasets' limits.
    pub inner: &'a dyn DataLimits,
    /// Per scale id, the annotation (min, max).
    pub extents: &'a HashMap<String, (f64, f64)>,
}

impl DataLimits for Widened<'_> {
    fn min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64) {
        let (min, max) = self.inner.min_max(scale_id, axis, can_stack);
        match self.extents.get(scale_id) {
            Some(&(lo, hi)) => (min.min(lo), max.max(hi)),
            None => (min, max),
        }
    }
    fn all_values(&self, scale_id: &str, axis: Axis) -> Vec<f64> {
        self.inner.all_values(scale_id, axis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::PathCmd;

    const AREA: Area = Area {
        left: 10.0,
        top: 10.0,
        right: 110.0,
        bottom: 60.0,
    };

    #[test]
    fn limit_point_moves_ends_onto_the_area_edges() {
        // A diagonal from outside the top-left corner to outside the bottom-right.
        let p = limit_point((0.0, 0.0), (120.0, 60.0), &AREA);
        assert!(
            (p.0 - 20.0).abs() < 1e-9 && (p.1 - 10.0).abs() < 1e-9,
            "{p:?}"
        );
        let q = limit_point((120.0, 60.0), (0.0, 0.0), &AREA);
        assert!(
            (q.0 - 110.0).abs() < 1e-9 && (q.1 - 55.0).abs() < 1e-9,
            "{q:?}"
        );
    }

    #[test]
    fn rounded_rect_clamps_the_radius() {
        let mut p = P::new();
        let b = Bounds {
            x: 0.0,
            y: 0.0,
            x2: 10.0,
            y2: 4.0,
        };
        rounded_rect(&mut p, &b, 100.0);
        let path = p.into_path();
        // Radius 2 (half the height): the first edge starts 2 px in.
        assert_eq!(path.cmds.first(), Some(&PathCmd::MoveTo(2.0, 0.0)));
    }
}
