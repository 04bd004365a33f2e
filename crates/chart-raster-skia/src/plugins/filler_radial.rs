//! The filler's targets on a radial scale (`computeCircularBoundary` in plugin.filler): radar
//! lines fill to a circle (`grid.circular`) or to the polygon through every spoke at the
//! target value.

use crate::elements::line::{LineEl, LinePoint};
use crate::elements::{Ctx, P};
use crate::scales::radial_geometry::RadialGeometry;
use crate::scales::Scale;
use chart_spec::model::Fill;
use chart_spec::Rgba;
use std::f64::consts::{FRAC_PI_2, TAU};

/// The boundary a radar line fills to.
#[derive(Debug, Clone, PartialEq)]
pub enum RadialBoundary {
    /// `simpleArc`: a full circle, drawn counter-clockwise.
    Circle {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// Radius.
        r: f64,
    },
    /// A closed polygon through the spokes.
    Polygon(Vec<LinePoint>),
}

/// `computeCircularBoundary(source)` when `scale` is radial; `None` for other scales.
pub fn radial_boundary(fill: &Fill, scale: &Scale) -> Option<RadialBoundary> {
    let g = scale.kind.radial()?;
    let core = &scale.core;
    let start = if core.opts.reverse { g.max } else { g.min };
    // _getTargetValue
    let value = match fill {
        Fill::Start => start,
        Fill::End => {
            if core.opts.reverse {
                g.min
            } else {
                g.max
            }
        }
        Fill::Value(v) => *v,
        _ => {
            let (min, max) = (g.min, g.max);
            if min < 0.0 && max < 0.0 {
                max
            } else if min > 0.0 && max > 0.0 {
                min
            } else {
                0.0
            }
        }
    };
    if core.opts.grid.circular {
        let (x, y, _) = g.point_position(0, g.distance_for_value(start), 0.0);
        return Some(RadialBoundary::Circle {
            x,
            y,
            r: g.distance_for_value(value),
        });
    }
    let d = g.distance_for_value(value);
    Some(RadialBoundary::Polygon(
        (0..g.label_count)
            .map(|i| {
                let (x, y, _) = g.point_position(i, d, 0.0);
                LinePoint {
                    x,
                    y,
                    ..LinePoint::default()
                }
            })
            .collect(),
    ))
}

/// What a radar line fills to, as `fill` of plugin.filler sees it.
pub enum RadialTarget<'a> {
    /// `simpleArc`: centre and radius.
    Circle(f64, f64, f64),
    /// The boundary polygon (a loop line through every spoke).
    Polygon(&'a LineEl),
}

/// `fill()` of plugin.filler for a radar line (`property === 'angle'`): each solid segment
/// of the line, then back along the target between the segment's end and start angles, so a
/// line broken by null values still fills the part it covers. `g` gives the spokes' angles
/// (a point's `angle` is its spoke's `getIndexAngle(i) - π/2`).
pub fn fill_radial(
    ctx: &mut Ctx<'_>,
    line: &LineEl,
    target: &RadialTarget<'_>,
    g: &RadialGeometry,
    color: Rgba,
) {
    let angle = |i: usize| g.index_angle(i) - FRAC_PI_2;
    for seg in line.segments() {
        let mut p = P::new();
        let line_loop = line.path_segment(&mut p, &seg, None, true, false);
        if line_loop {
            p.close();
            match target {
                RadialTarget::Circle(x, y, r) => p.arc(*x, *y, *r, TAU, 0.0, true),
                RadialTarget::Polygon(t) => {
                    for tseg in t.segments() {
                        t.path_segment(&mut p, &tseg, None, true, true);
                    }
                }
            }
        } else {
            let (s, e) = (seg.start, seg.end);
            match target {
                RadialTarget::Circle(x, y, r) => {
                    let (ae, as_) = (angle(e), angle(s));
                    p.line_to(x + libm::cos(ae) * r, y + libm::sin(ae) * r);
                    p.arc(*x, *y, *r, ae, as_, true);
                    p.line_to(x + libm::cos(as_) * r, y + libm::sin(as_) * r);
                }
                RadialTarget::Polygon(t) => {
                    let n = t.points.len();
                    if n == 0 {
                        continue;
                    }
                    // The polygon's points from the segment's end spoke back to its start.
                    let mut i = e % n;
                    let mut guard = 0;
                    loop {
                        let tp = t.points[i];
                        // A dataset target may have gaps of its own; they are passed over.
                        if !tp.skip && tp.x.is_finite() && tp.y.is_finite() {
                            p.line_to(tp.x, tp.y);
                        }
                        if i == s % n || guard > n {
                            break;
                        }
                        i = (i + n - 1) % n;
                        guard += 1;
                    }
                }
            }
        }
        p.close();
        ctx.fill(&p, color);
    }
}
