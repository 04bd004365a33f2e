//! chartjs-plugin-gradient's drawing: the shapes painted with a gradient's stand-in colour
//! are repainted with the gradient, from what [`super::prepare`] read of the laid-out
//! scales (the stops and the scale's box or radial geometry).

use crate::elements::Area;
use crate::scene::{Item, Paint, PathCmd, Transform};
use chart_spec::model::GradientAxis;
use chart_spec::Rgba;
use std::collections::HashMap;

/// One gradient over its laid-out scale.
#[derive(Debug, Clone)]
pub struct ScaleGradient {
    /// The stand-in colour resolution wrote for it.
    pub sentinel: Rgba,
    /// The axis the colours run along.
    pub axis: GradientAxis,
    /// `addColors`: the stops, 0..=1, sorted.
    pub stops: Vec<(f32, Rgba)>,
    /// The scale's box (`left, top, right, bottom`).
    pub scale_box: (f64, f64, f64, f64),
    /// A radial scale's `(xCenter, yCenter, drawingArea)`.
    pub radial: Option<(f64, f64, f64)>,
}

/// `createGradient(ctx, axis, area)` over a box (`left, top, right, bottom`) or a radial
/// scale, with `stops`.
fn paint(
    axis: GradientAxis,
    b: (f64, f64, f64, f64),
    radial: Option<(f64, f64, f64)>,
    stops: Vec<(f32, Rgba)>,
) -> Paint {
    let (l, t, r, btm) = b;
    match (axis, radial) {
        (GradientAxis::R, Some((cx, cy, radius))) => Paint::RadialGradient {
            x0: cx as f32,
            y0: cy as f32,
            r0: 0.0,
            x1: cx as f32,
            y1: cy as f32,
            r1: radius as f32,
            stops,
        },
        (GradientAxis::R, None) => Paint::RadialGradient {
            x0: ((l + r) / 2.0) as f32,
            y0: ((t + btm) / 2.0) as f32,
            r0: 0.0,
            x1: ((l + r) / 2.0) as f32,
            y1: ((t + btm) / 2.0) as f32,
            r1: ((r - l).max(btm - t) / 2.0) as f32,
            stops,
        },
        (GradientAxis::Y, _) => Paint::LinearGradient {
            x0: 0.0,
            y0: btm as f32,
            x1: 0.0,
            y1: t as f32,
            stops,
        },
        (GradientAxis::X, _) => Paint::LinearGradient {
            x0: l as f32,
            y0: 0.0,
            x1: r as f32,
            y1: 0.0,
            stops,
        },
    }
}

/// The scene bounding box of a path's points.
fn path_box(cmds: &[PathCmd], t: &Transform) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    for c in cmds {
        let (pts, n): ([(f32, f32); 3], usize) = match *c {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => ([(x, y); 3], 1),
            PathCmd::QuadTo(a, bb, x, y) => ([(a, bb), (x, y), (x, y)], 2),
            PathCmd::CubicTo(a, bb, c2, d, x, y) => ([(a, bb), (c2, d), (x, y)], 3),
            PathCmd::Close => ([(0.0, 0.0); 3], 0),
        };
        for &(x, y) in &pts[..n] {
            let (x, y) = t.apply(x, y);
            let (x, y) = (f64::from(x), f64::from(y));
            b = Some(match b {
                None => (x, y, x, y),
                Some((l, tp, r, bt)) => (l.min(x), tp.min(y), r.max(x), bt.max(y)),
            });
        }
    }
    b
}

/// Repaints the stand-in colours of the prepared `gradients` with their gradients.
pub fn apply(items: &mut [Item], gradients: &[ScaleGradient], area: &Area) {
    if gradients.is_empty() {
        return;
    }
    // The first gradient of each stand-in colour, as `find` would pick.
    let mut by_sentinel: HashMap<Rgba, usize> = HashMap::new();
    for (i, g) in gradients.iter().enumerate() {
        by_sentinel.entry(g.sentinel).or_insert(i);
    }
    for item in items.iter_mut() {
        let (path, p, transform) = match item {
            Item::Fill {
                path,
                paint,
                transform,
            }
            | Item::Stroke {
                path,
                paint,
                transform,
                ..
            } => (&*path, paint, *transform),
            _ => continue,
        };
        let Paint::Solid(c) = *p else { continue };
        let Some(g) = by_sentinel.get(&c).and_then(|&i| gradients.get(i)) else {
            continue;
        };
        let bbox = path_box(&path.cmds, &transform);
        let outside = bbox.is_some_and(|(l, t, r, b)| {
            r < area.left || l > area.right || b < area.top || t > area.bottom
        });
        *p = match (outside, bbox) {
            // A legend box: the gradient over the box itself.
            (true, Some(b)) => paint(g.axis, b, None, g.stops.clone()),
            _ => paint(g.axis, g.scale_box, g.radial, g.stops.clone()),
        };
    }
}
