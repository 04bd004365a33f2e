//! Where each annotation element sits: `resolveElementProperties` of the box, point, line
//! (with its curve's control point) and ellipse elements, from `scaleValue` on the chart's
//! scales.

use super::{scale_for, scale_value, Scales};
use crate::elements::Area;
use crate::math::squared;
use crate::scales::LaidOutScale;
use chart_spec::model::annotation::Annotation;
use chart_spec::model::{Axis, Raw};
use std::f64::consts::PI;

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
    pub(super) fn width(&self) -> f64 {
        self.x2 - self.x
    }
    pub(super) fn height(&self) -> f64 {
        self.y2 - self.y
    }
    pub(super) fn center(&self) -> (f64, f64) {
        (self.x + self.width() / 2.0, self.y + self.height() / 2.0)
    }
}

/// `getDimensionByScale`: (start, end) pixels, unordered.
pub(super) fn dimension(
    sc: &Scales<'_>,
    scale: &LaidOutScale,
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
pub(super) fn box_bounds(a: &Annotation, scales: &Scales<'_>, area: &Area) -> Option<Bounds> {
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

pub(super) fn bound_to_point(a: &Annotation) -> bool {
    !matches!(a.x_value, Raw::Undefined) || !matches!(a.y_value, Raw::Undefined)
}

/// `getChartPoint`.
pub(super) fn chart_point(a: &Annotation, scales: &Scales<'_>, area: &Area) -> (f64, f64) {
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
pub(super) fn point_props(
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
) -> Option<(f64, f64, f64)> {
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
pub(super) fn line_props(
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
) -> (Bounds, bool, (f64, f64)) {
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
pub(super) fn control_point(a: &Annotation, b: &Bounds, center: (f64, f64)) -> (f64, f64) {
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
pub(super) fn point_in_curve(p1: (f64, f64), cp: (f64, f64), p2: (f64, f64), t: f64) -> (f64, f64) {
    let coord =
        |s: f64, c: f64, e: f64| (1.0 - t) * (1.0 - t) * s + 2.0 * (1.0 - t) * t * c + t * t * e;
    (coord(p1.0, cp.0, p2.0), coord(p1.1, cp.1, p2.1))
}

/// `angleInCurve`.
pub(super) fn angle_in_curve(p1: (f64, f64), cp: (f64, f64), p2: (f64, f64), t: f64) -> f64 {
    let d = |s: f64, c: f64, e: f64| 2.0 * (1.0 - t) * (c - s) + 2.0 * t * (e - c);
    -libm::atan2(d(p1.0, cp.0, p2.0), d(p1.1, cp.1, p2.1)) + 0.5 * PI
}

/// `limitPointToArea`.
pub(super) fn limit_point(p: (f64, f64), p2: (f64, f64), area: &Area) -> (f64, f64) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
