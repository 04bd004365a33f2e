//! The filler's targets on a radial scale (`computeCircularBoundary` in plugin.filler): radar
//! lines fill to a circle (`grid.circular`) or to the polygon through every spoke at the
//! target value.

use crate::elements::line::LinePoint;
use crate::scales::Scale;
use chart_spec::model::Fill;

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
