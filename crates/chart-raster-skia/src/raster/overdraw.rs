//! How much a scene paints: the sum of its fills' and strokes' device bounds, clipped to the
//! bitmap, in bitmaps (solid rectangles, which cost a store per row, left out). The rasteriser's work grows with this area (every pixel under a shape
//! is covered and blended), not with the number of items alone: `MAX_SCENE_ITEMS` admits
//! millions of items, and a few thousand bitmap-sized ones take minutes to draw.
//!
//! A sankey whose flows form one chain of 5,000 nodes at 400×300 is such a scene: the columns
//! are 0.16 px apart, so each node and each flow (a gradient band as tall as the chart) lies
//! on the ones before it, and the scene paints its bitmap about 330 times over (about 70
//! million pixels of gradient). Real charts stay far below: a scatter of 250,000 points at
//! the default radius, the most `MAX_POINTS` admits, paints 59 bitmaps at 800×600, and the
//! heaviest fixture (a sankey) 82.

use super::convert::device_rect;
use crate::scene::{Item, LineJoin, Paint, Path, Scene, Transform};

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
    let base = Transform::scale(dpr);
    let mut area = 0.0;
    for item in &scene.items {
        if let Some([x0, y0, x1, y1]) = painted_box(item, base, w, h) {
            area += (x1 - x0) * (y1 - y0);
        }
    }
    area / (w * h)
}

/// The device box a fill or stroke (or the shape under a shadow) paints under `base`: its
/// points' bounds, grown by a stroke's half width and a pixel of anti-aliasing, clipped to
/// the `w × h` bitmap; `None` when it misses the bitmap, and for the items not counted
/// (solid rectangles, [`is_cheap`]; text, clips).
pub(super) fn painted_box(item: &Item, base: Transform, w: f64, h: f64) -> Option<[f64; 4]> {
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
        _ => return None,
    };
    let t = base.then(*transform);
    if is_cheap(item, t) {
        return None;
    }
    let [x0, y0, x1, y1] = bounds(path, t)?;
    // The stroke's half width, at the transform's larger scale, and a pixel of
    // anti-aliasing (a fill's pad is the pixel alone: no scale to work out).
    let scale = if pad == 0.0 {
        0.0
    } else if t.b == 0.0 && t.c == 0.0 {
        // `hypotf(v, 0)` is `|v|` exactly: a scale without rotation needs no call.
        f64::from(t.a.abs().max(t.d.abs()))
    } else {
        f64::from(libm::hypotf(t.a, t.b).max(libm::hypotf(t.c, t.d)))
    };
    let pad = f64::from(pad) * if scale.is_finite() { scale } else { 0.0 } + 1.0;
    let b = [
        (x0 - pad).max(0.0),
        (y0 - pad).max(0.0),
        (x1 + pad).min(w),
        (y1 + pad).min(h),
    ];
    (b[0] < b[2] && b[1] < b[3]).then_some(b)
}

/// Whether the rasteriser draws `item` (under the device transform `t`) by its exact
/// rectangle paths, a store or a short blend per row (`rect.rs`, `rectilinear.rs`): a solid
/// rectangle, and a solid rectangle's undashed stroke with miter joins. Such items cost
/// little however much they overlap (a matrix of cells as large as the chart), so they are
/// not counted.
pub(super) fn is_cheap(item: &Item, t: Transform) -> bool {
    match item {
        Item::Fill {
            path,
            paint: Paint::Solid(_),
            ..
        } => device_rect(path, t).is_some(),
        Item::Stroke {
            path,
            paint: Paint::Solid(_),
            stroke,
            ..
        } => {
            stroke.dash.is_empty()
                && stroke.join == LineJoin::Miter
                && stroke.miter_limit >= std::f32::consts::SQRT_2
                && device_rect(path, t).is_some()
        }
        _ => false,
    }
}

/// The device bounds of a path's points (control points included) under `t`.
/// Kept in f32 (every point is one) and widened at the end: the same bounds, without an
/// `Option` and four f64 conversions per point (a scatter chart's markers are thirteen
/// points each).
fn bounds(path: &Path, t: Transform) -> Option<[f64; 4]> {
    let mut b = [
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut add = |x: f32, y: f32| {
        let (dx, dy) = (t.a * x + t.c * y + t.e, t.b * x + t.d * y + t.f);
        if dx.is_finite() && dy.is_finite() {
            b = [b[0].min(dx), b[1].min(dy), b[2].max(dx), b[3].max(dy)];
        }
    };
    for cmd in &path.cmds {
        cmd.for_each_point(&mut add);
    }
    // No finite point: the infinities are still there.
    (b[0] <= b[2]).then(|| b.map(f64::from))
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
        // A gradient: rectangles in it go through tiny-skia's pipeline and count.
        let fill = |p: Path| Item::Fill {
            path: p,
            paint: Paint::LinearGradient {
                x0: 0.0,
                y0: 0.0,
                x1: 10.0,
                y1: 0.0,
                stops: vec![(0.0, Rgba::rgb(1, 2, 3)), (1.0, Rgba::rgb(4, 5, 6))],
            },
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
                // A solid rectangle as large as the bitmap: drawn by a store per row, not
                // counted.
                Item::Fill {
                    path: rect(0.0, 0.0, 100.0, 50.0),
                    paint: Paint::Solid(Rgba::rgb(1, 2, 3)),
                    transform: Transform::IDENTITY,
                },
                Item::Stroke {
                    path: rect(10.0, 10.0, 20.0, 10.0),
                    paint: Paint::Solid(Rgba::rgb(1, 2, 3)),
                    // Round joins: not the exact rectangle path, so it counts.
                    stroke: Stroke {
                        width: 2.0,
                        join: LineJoin::Round,
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

    /// The f32 bounds widened at the end are the bounds of the points widened one by one,
    /// non-finite points left out, under scales, rotations and huge offsets.
    #[test]
    fn bounds_match_the_widened_points() {
        let mut next = crate::raster::painter::tests::xorshift(0x1234_abcd_9876_5431);
        let mut coord =
            |k: u64| (next(2_000_001) as f32 - 1e6) * [1e-3, 1.0, 1e3][(k % 3) as usize];
        for case in 0..2000u64 {
            let mut path = Path::new();
            path.move_to(coord(case), coord(case + 1));
            path.cubic_to(
                coord(case),
                coord(case + 2),
                if case % 7 == 0 {
                    f32::INFINITY
                } else {
                    coord(case)
                },
                coord(case + 1),
                coord(case),
                if case % 11 == 0 {
                    f32::NAN
                } else {
                    coord(case)
                },
            );
            path.line_to(coord(case + 2), coord(case));
            path.close();
            let t = Transform {
                a: coord(case) / 1e3,
                b: if case % 2 == 0 {
                    0.0
                } else {
                    coord(case) / 1e4
                },
                c: if case % 2 == 0 {
                    0.0
                } else {
                    coord(case) / 1e4
                },
                d: coord(case + 1) / 1e3,
                e: coord(case),
                f: coord(case + 2),
            };
            let mut expected: Option<[f64; 4]> = None;
            for cmd in &path.cmds {
                cmd.for_each_point(|x, y| {
                    let (dx, dy) = (
                        f64::from(t.a * x + t.c * y + t.e),
                        f64::from(t.b * x + t.d * y + t.f),
                    );
                    if dx.is_finite() && dy.is_finite() {
                        expected = Some(match expected {
                            None => [dx, dy, dx, dy],
                            Some([x0, y0, x1, y1]) => {
                                [x0.min(dx), y0.min(dy), x1.max(dx), y1.max(dy)]
                            }
                        });
                    }
                });
            }
            assert_eq!(bounds(&path, t), expected, "case {case}");
        }
    }
}
