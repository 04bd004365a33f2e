//! How much a scene paints: the sum of its fills' and strokes' device bounds, clipped to the
//! bitmap, in bitmaps. The rasteriser's work grows with this area (every pixel under a shape
//! is covered and blended), not with the number of items alone: `MAX_SCENE_ITEMS` admits
//! millions of items, and a few thousand bitmap-sized ones take minutes to draw.
//!
//! A sankey whose flows form one chain of 5,000 nodes at 400×300 is such a scene: the columns
//! are 0.16 px apart, so each node and each flow (a band as tall as the chart) lies on the
//! ones before it, and the scene paints its bitmap about 500 times over (about 70 million
//! pixels of gradient alone). Real charts stay far below: a scatter of 250,000 points at the
//! default radius, the most `MAX_POINTS` admits, paints about 50 bitmaps at 800×600.

use crate::scene::{Item, Path, PathCmd, Scene, Transform};

/// The painted area of `scene` in bitmaps (device area of every fill's and stroke's bounds,
/// clipped to the bitmap, over the bitmap's area). Text, clips and shadows are not counted:
/// glyphs are drawn from cached masks, and a shadow is as large as its item.
pub fn painted_bitmaps(scene: &Scene) -> f64 {
    let dpr = if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
        scene.device_pixel_ratio
    } else {
        1.0
    };
    let (w, h) = (
        f64::from((scene.width * dpr).floor().max(1.0)),
        f64::from((scene.height * dpr).floor().max(1.0)),
    );
    let base = Transform {
        a: dpr,
        b: 0.0,
        c: 0.0,
        d: dpr,
        e: 0.0,
        f: 0.0,
    };
    let mut area = 0.0;
    for item in &scene.items {
        let item = match item {
            Item::Shadowed { item, .. } => &**item,
            other => other,
        };
        let (path, transform, pad) = match item {
            Item::Fill {
                path, transform, ..
            } => (path, transform, 0.0),
            Item::Stroke {
                path,
                transform,
                stroke,
                ..
            } => (path, transform, stroke.width.abs() * 0.5),
            _ => continue,
        };
        let t = base.then(*transform);
        if let Some([x0, y0, x1, y1]) = bounds(path, t) {
            // The stroke's half width, at the transform's larger scale, and a pixel of
            // anti-aliasing.
            let scale = f64::from(libm::hypotf(t.a, t.b).max(libm::hypotf(t.c, t.d)));
            let pad = f64::from(pad) * if scale.is_finite() { scale } else { 0.0 } + 1.0;
            let cw = (x1 + pad).min(w) - (x0 - pad).max(0.0);
            let ch = (y1 + pad).min(h) - (y0 - pad).max(0.0);
            if cw > 0.0 && ch > 0.0 {
                area += cw * ch;
            }
        }
    }
    area / (w * h)
}

/// The device bounds of a path's points (control points included) under `t`.
fn bounds(path: &Path, t: Transform) -> Option<[f64; 4]> {
    let mut b: Option<[f64; 4]> = None;
    let mut add = |x: f32, y: f32| {
        let (dx, dy) = (
            f64::from(t.a * x + t.c * y + t.e),
            f64::from(t.b * x + t.d * y + t.f),
        );
        if !(dx.is_finite() && dy.is_finite()) {
            return;
        }
        b = Some(match b {
            None => [dx, dy, dx, dy],
            Some([x0, y0, x1, y1]) => [x0.min(dx), y0.min(dy), x1.max(dx), y1.max(dy)],
        });
    };
    for cmd in &path.cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => add(x, y),
            PathCmd::QuadTo(x1, y1, x, y) => {
                add(x1, y1);
                add(x, y);
            }
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                add(x1, y1);
                add(x2, y2);
                add(x, y);
            }
            PathCmd::Close => {}
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Paint, Stroke};
    use chart_spec::Rgba;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Path {
        let mut p = Path::new();
        p.rect(x, y, w, h);
        p
    }

    #[test]
    fn counts_fills_and_strokes_clipped_to_the_bitmap() {
        let fill = |p: Path| Item::Fill {
            path: p,
            paint: Paint::Solid(Rgba::rgb(1, 2, 3)),
            transform: Transform::IDENTITY,
        };
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            device_pixel_ratio: 2.0,
            background: Rgba::TRANSPARENT,
            items: vec![
                // The whole bitmap, twice (once far past its edges).
                fill(rect(0.0, 0.0, 100.0, 50.0)),
                fill(rect(-1e6, -1e6, 2e6, 2e6)),
                // Off the bitmap: nothing.
                fill(rect(200.0, 0.0, 10.0, 10.0)),
                Item::Stroke {
                    path: rect(10.0, 10.0, 20.0, 10.0),
                    paint: Paint::Solid(Rgba::rgb(1, 2, 3)),
                    stroke: Stroke {
                        width: 2.0,
                        ..Stroke::default()
                    },
                    transform: Transform::IDENTITY,
                },
            ],
        };
        // The stroke: 40 × 20 device px, padded by its half width (2 device px) and the
        // anti-aliasing pixel on every side.
        let stroke = (40.0 + 2.0 * 3.0) * (20.0 + 2.0 * 3.0) / (200.0 * 100.0);
        let got = painted_bitmaps(&scene);
        assert!((got - (2.0 + stroke)).abs() < 1e-9, "{got}");
    }
}
