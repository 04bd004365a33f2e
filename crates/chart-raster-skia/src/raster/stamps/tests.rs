//! Stamped against exact drawing: how far the pixels move, and that the choice of what is
//! stamped depends on the scene alone.

use super::{
    cap_code, guard, invert, is_hairline, join_code, units, Keyer, Plan, Stamps, KEY_WORDS,
    MAX_CMDS, MAX_REACH, MAX_SIDE, MIN_REPEATS, UNITS,
};
use crate::raster::clip::ClipStack;
use crate::raster::painter::tests::xorshift;
use crate::raster::painter::Painter;
use crate::raster::{rasterize_until, Reuse, Split};
use crate::scene::{Item, LineCap, LineJoin, Paint, Path, PathCmd, Scene, Stroke, Transform};
use crate::text::TextEngine;
use chart_spec::Rgba;

const W: u32 = 480;
const H: u32 = 360;

/// Point markers as Chart.js draws them (fill, then border), `n` (up to 660) of one style
/// in cells of 8 CSS px at random sub-pixel positions, none overlapping another (the bitmap
/// is at `devicePixelRatio` 2).
fn markers(style: u32, n: usize, border: bool, seed: u64) -> Vec<Item> {
    let mut next = xorshift(seed);
    let mut items = Vec::new();
    for k in 0..n {
        let x = (k % 30) as f32 * 8.0 + 3.0 + next(200) as f32 / 100.0;
        let y = (k / 30) as f32 * 8.0 + 3.0 + next(200) as f32 / 100.0;
        let r = 3.0;
        let mut path = Path::new();
        match style {
            0 => {
                path.circle(x, y, r);
            }
            1 => {
                path.rect(x - 2.1, y - 2.1, 4.2, 4.2);
            }
            2 => {
                // Chart.js's triangle: three points around the centre.
                path.move_to(x, y - r)
                    .line_to(x + 2.598, y + 1.5)
                    .line_to(x - 2.598, y + 1.5)
                    .close();
            }
            _ => {
                // `rectRot` turned by 30 degrees.
                let (c, s) = (r * 0.866_025_4, r * 0.5);
                path.move_to(x - c, y - s)
                    .line_to(x + s, y - c)
                    .line_to(x + c, y + s)
                    .line_to(x - s, y + c)
                    .close();
            }
        }
        let fill = Rgba {
            r: 54,
            g: 162,
            b: 235,
            a: 153,
        };
        items.push(Item::Fill {
            path: path.clone(),
            paint: Paint::Solid(fill),
            transform: Transform::IDENTITY,
        });
        if border {
            items.push(Item::Stroke {
                path,
                paint: Paint::Solid(Rgba {
                    r: 20,
                    g: 40,
                    b: 60,
                    a: 255,
                }),
                stroke: Stroke::default(),
                transform: Transform::IDENTITY,
            });
        }
    }
    items
}

/// `items` drawn under `scale(2)` on a white bitmap, stamped as the plan says when
/// `stamped`, else each exactly.
fn draw(items: &[Item], stamped: bool) -> tiny_skia::Pixmap {
    let reuse = Reuse::default();
    let text = TextEngine::system();
    let mut pixmap = tiny_skia::Pixmap::new(W, H).unwrap();
    pixmap.fill(tiny_skia::Color::WHITE);
    let base = Transform::scale(2.0);
    let plan = if stamped {
        Plan::of(items, base)
    } else {
        Plan::default()
    };
    let mut painter = Painter {
        pixmap: &mut pixmap,
        rows: 0..H,
        clips: ClipStack::new(W, H),
        scratch: None,
        pool: &reuse.buffers,
        glyphs: &reuse.glyphs,
        base,
        text: &text,
        sprite: None,
        stop: &|| false,
        buffers: Default::default(),
        stamps: Stamps::new(plan.into()),
    };
    for (i, item) in items.iter().enumerate() {
        painter.draw(i, item);
    }
    drop(painter);
    pixmap
}

/// The largest and the mean difference of a channel between two bitmaps.
fn difference(a: &tiny_skia::Pixmap, b: &tiny_skia::Pixmap) -> (u8, f64) {
    let d: Vec<u8> = a
        .data()
        .iter()
        .zip(b.data())
        .map(|(x, y)| x.abs_diff(*y))
        .collect();
    let sum: u64 = d.iter().map(|&v| u64::from(v)).sum();
    (
        d.iter().copied().max().unwrap_or(0),
        sum as f64 / d.len() as f64,
    )
}

/// Stamped markers (circles, squares, triangles, rotated squares, with and without a
/// border) against the same markers drawn exactly. A stamp moves a marker by at most
/// 1/32 px in x and in y: in x an edge can cross one of the supersampler's sample columns
/// on each of a pixel's four sub-scanlines (4 × 16 = 64 levels of coverage), in y one
/// sub-scanline (64 more), so a pixel's coverage moves by at most 128 levels (a corner's,
/// where both happen), and a channel by that times the contrast of the colours (at most
/// 235 of 255 here): 118. Measured: at most 88 (a square's bordered corner), 58 for
/// circles, a mean difference below 0.75 with every marker's edge differing somewhere.
#[test]
fn stamped_markers_are_close_to_exact() {
    for style in 0..4 {
        for border in [false, true] {
            let items = markers(style, 660, border, 0x9e37_79b9 + u64::from(style));
            assert!(Plan::of(&items, Transform::scale(2.0)).shapes() >= 1);
            let (max, mean) = difference(&draw(&items, true), &draw(&items, false));
            eprintln!("style {style} border {border}: max {max}, mean {mean:.4}");
            assert!(max <= 118, "style {style} border {border}: max {max}");
            assert!(mean < 1.0, "style {style} border {border}: mean {mean}");
        }
    }
}

/// Below [`MIN_REPEATS`] occurrences nothing is stamped and the bytes are the exact
/// drawing's; at it, the shape is stamped.
#[test]
fn fewer_repeats_draw_exactly() {
    let base = Transform::scale(2.0);
    let n = MIN_REPEATS as usize - 1;
    let items = markers(0, n, true, 7);
    assert_eq!(Plan::of(&items, base).shapes(), 0);
    assert!(draw(&items, true).data() == draw(&items, false).data());
    let items = markers(0, n + 1, true, 7);
    assert_eq!(
        Plan::of(&items, base).shapes(),
        2,
        "the fill and the border"
    );
}

/// The same bytes whichever row two painters split the bitmap at (each painter covers its
/// own masks from the render's plan), and with one painter.
#[test]
fn stamps_do_not_depend_on_bands() {
    let mut items = markers(0, 400, true, 11);
    items.extend(markers(2, 300, false, 12));
    let scene = Scene {
        width: W as f32 / 2.0,
        height: H as f32 / 2.0,
        device_pixel_ratio: 2.0,
        background: Rgba::rgb(255, 255, 255),
        items,
    };
    let text = TextEngine::system();
    let render = |split| {
        rasterize_until(&scene, &text, &Reuse::default(), &|| false, split)
            .unwrap()
            .data
    };
    let whole = render(Split::None);
    for at in [1, 37, 90, 91, 150, H - 1] {
        assert!(render(Split::At(at)) == whole, "split at {at}");
    }
}

/// Non-finite, huge, degenerate and oversized markers are never keyed, and a plan of
/// them draws what the exact drawing does (nothing panics).
#[test]
fn hostile_markers_are_drawn_exactly() {
    let base = Transform::scale(2.0);
    let mut items = Vec::new();
    for k in 0..300 {
        let v = [f32::NAN, f32::INFINITY, 1e30, -4e5, 10.0][k % 5];
        let mut path = Path::new();
        match k % 3 {
            0 => path.circle(v, 10.0, 3.0),
            1 => path.circle(10.0, 10.0, 200.0), // larger than a stamp
            _ => path.move_to(v, v).line_to(5.0, 5.0).line_to(v, 0.0),
        };
        items.push(Item::Fill {
            path,
            paint: Paint::Solid(Rgba::rgb(0, 0, 0)),
            transform: if k % 7 == 0 {
                Transform {
                    a: 0.0,
                    b: 0.0,
                    c: 0.0,
                    d: 0.0,
                    e: 0.0,
                    f: 0.0,
                }
            } else {
                Transform::IDENTITY
            },
        });
    }
    assert_eq!(Plan::of(&items, base).shapes(), 0);
    assert!(draw(&items, true).data() == draw(&items, false).data());
}

/// The key as [`Keyer::key`] makes it, computed afresh for each item (as the plan first
/// did), for comparison: the key of an eligible item into `key`: its kind (fill, or stroke and its parameters),
/// the linear part of its device transform, and its commands with their points in device
/// space relative to the first, in 1/256 px. `false` when the item is drawn exactly: not a
/// fill or a stroke of a solid colour (shadowed items never are), a dashed or hairline
/// stroke, a path not starting with a move, too long or too large, anything not finite.
fn reference_key(item: &Item, base: Transform, key: &mut Vec<i32>) -> bool {
    let (path, paint, stroke, transform) = match item {
        Item::Fill {
            path,
            paint,
            transform,
        } => (path, paint, None, transform),
        Item::Stroke {
            path,
            paint,
            stroke,
            transform,
        } => (path, paint, Some(stroke), transform),
        _ => return false,
    };
    if !matches!(paint, Paint::Solid(_)) {
        return false;
    }
    let t = base.then(*transform);
    if invert([t.a, t.b, t.c, t.d]).is_none() || !(t.e.is_finite() && t.f.is_finite()) {
        return false;
    }
    let cmds = &path.cmds;
    if cmds.len() < 2 || cmds.len() > MAX_CMDS {
        return false;
    }
    let PathCmd::MoveTo(x0, y0) = cmds[0] else {
        return false;
    };
    let (ox, oy) = t.apply(x0, y0);
    if !(ox.abs() < guard::UNTOUCHED && oy.abs() < guard::UNTOUCHED) {
        return false;
    }
    key.clear();
    match stroke {
        None => key.push(0),
        Some(s) => {
            let plain = s.width.is_finite()
                && s.width > 0.0
                && s.dash.is_empty()
                && (0.0..=100.0).contains(&s.miter_limit)
                && !is_hairline(s.width, t);
            // Not NaN, and not so far that the mask grows past a marker's size.
            let reach = guard::stroke_reach(s, t);
            if !plain || !reach.is_finite() || reach > MAX_REACH {
                return false;
            }
            key.extend([
                1,
                s.width.to_bits() as i32,
                cap_code(s.cap),
                join_code(s.join),
                s.miter_limit.to_bits() as i32,
            ]);
        }
    }
    key.extend([t.a, t.b, t.c, t.d].map(|v| v.to_bits() as i32));
    // The offsets from the first point, mapped by the linear part (the same numbers as
    // the mapped points' differences, but for float noise, which the rounding takes
    // out), written into a fixed buffer and appended at once: pushed word by word, the
    // key cost more than a scatter point's blend.
    let [a, b, c, d] = [t.a, t.b, t.c, t.d];
    let (mut lo, mut hi) = ([i32::MAX; 2], [i32::MIN; 2]);
    let mut words = [0i32; MAX_CMDS * 7];
    let mut n = 0;
    for cmd in cmds {
        let (verb, points): (i32, &[f32]) = match cmd {
            PathCmd::MoveTo(x, y) => (-1, &[*x, *y]),
            PathCmd::LineTo(x, y) => (-2, &[*x, *y]),
            PathCmd::QuadTo(x1, y1, x, y) => (-3, &[*x1, *y1, *x, *y]),
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => (-4, &[*x1, *y1, *x2, *y2, *x, *y]),
            PathCmd::Close => (-5, &[]),
        };
        words[n] = verb;
        n += 1;
        for p in points.chunks_exact(2) {
            let (ux, uy) = (p[0] - x0, p[1] - y0);
            let (rx, ry) = (a * ux + c * uy, b * ux + d * uy);
            // Also false for NaN.
            if !(rx.abs() <= MAX_SIDE && ry.abs() <= MAX_SIDE) {
                return false;
            }
            let q = [units(rx), units(ry)];
            for k in 0..2 {
                lo[k] = lo[k].min(q[k]);
                hi[k] = hi[k].max(q[k]);
            }
            words[n] = q[0];
            words[n + 1] = q[1];
            n += 2;
        }
    }
    key.extend_from_slice(&words[..n]);
    let side = (MAX_SIDE * UNITS) as i32;
    hi[0] - lo[0] <= side && hi[1] - lo[1] <= side
}

/// Random items of the kinds a plan meets: markers under a few transforms and strokes
/// (some degenerate, dashed, hairline, huge or not finite), paths of every command, too
/// long, not starting with a move, a border after its fill (the same path) and not.
fn random_items(seed: u64, n: usize) -> Vec<Item> {
    let mut next = xorshift(seed);
    let transforms = [
        Transform::IDENTITY,
        Transform::scale(2.0),
        Transform {
            a: 0.8,
            b: 0.6,
            c: -0.6,
            d: 0.8,
            e: 3.0,
            f: -2.0,
        },
        Transform {
            a: 0.0,
            b: 0.0,
            c: 0.0,
            d: 0.0,
            e: 0.0,
            f: 0.0,
        },
        Transform {
            a: f32::NAN,
            ..Transform::IDENTITY
        },
        Transform {
            e: f32::INFINITY,
            ..Transform::IDENTITY
        },
        Transform::scale(40.0),
    ];
    let values = [
        0.0,
        -0.0,
        1.0,
        3.0,
        0.1,
        0.25,
        2.5,
        100.0,
        f32::NAN,
        f32::INFINITY,
        1e30,
    ];
    let stroke = |next: &mut dyn FnMut(u64) -> u64| Stroke {
        width: if next(3) == 0 {
            values[next(values.len() as u64) as usize]
        } else {
            1.0 + next(4) as f32 * 0.5
        },
        cap: [LineCap::Butt, LineCap::Round, LineCap::Square][next(3) as usize],
        join: [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel][next(3) as usize],
        miter_limit: if next(4) == 0 {
            values[next(values.len() as u64) as usize] * 3.0
        } else {
            10.0
        },
        dash: if next(8) == 0 {
            vec![2.0, 1.0]
        } else {
            Vec::new()
        },
        ..Stroke::default()
    };
    let mut items = Vec::new();
    let mut path = Path::new();
    let mut transform = Transform::IDENTITY;
    while items.len() < n {
        // Mostly the same transform as the item before, as a chart's.
        if next(10) == 0 {
            transform = transforms[next(transforms.len() as u64) as usize];
        }
        let x = next(4000) as f32 / 7.0 - 20.0;
        let y = next(4000) as f32 / 7.0 - 20.0;
        let coord = |next: &mut dyn FnMut(u64) -> u64, v: f32| {
            if next(50) == 0 {
                values[next(values.len() as u64) as usize]
            } else {
                v + (next(2000) as f32 - 1000.0) / [50.0, 300.0, 3.0][next(3) as usize]
            }
        };
        // A new path, or the one before (a border after its fill).
        if next(3) != 0 {
            path = Path::new();
            match next(4) {
                0 => {
                    path.circle(x, y, 1.0 + next(8) as f32);
                }
                1 => {
                    path.rect(x, y, 1.0 + next(5) as f32, 2.0);
                }
                _ => {
                    let len = next(MAX_CMDS as u64 + 8) as usize;
                    for k in 0..len {
                        let (u, v) = (coord(&mut next, x), coord(&mut next, y));
                        let cmd = match if k == 0 && next(10) != 0 { 0 } else { next(5) } {
                            0 => PathCmd::MoveTo(u, v),
                            1 => PathCmd::LineTo(u, v),
                            2 => PathCmd::QuadTo(coord(&mut next, x), coord(&mut next, y), u, v),
                            3 => PathCmd::CubicTo(
                                coord(&mut next, x),
                                coord(&mut next, y),
                                coord(&mut next, x),
                                coord(&mut next, y),
                                u,
                                v,
                            ),
                            _ => PathCmd::Close,
                        };
                        path.cmds.push(cmd);
                    }
                }
            }
        }
        let paint = Paint::Solid(Rgba::rgb(1, 2, 3));
        items.push(if next(2) == 0 {
            Item::Fill {
                path: path.clone(),
                paint,
                transform,
            }
        } else {
            Item::Stroke {
                path: path.clone(),
                paint,
                stroke: stroke(&mut next),
                transform,
            }
        });
    }
    items
}

/// The keyer, which works out what items share once, makes the keys that computing each
/// item's afresh makes, bit for bit, so that the plan (the same counting of the same keys)
/// is the same.
#[test]
fn keyer_makes_the_keys_made_afresh() {
    let mut eligible = 0;
    for seed in 1..40u64 {
        let items = random_items(seed * 0x9e37_79b9, 2000);
        for base in [
            Transform::scale(2.0),
            Transform::IDENTITY,
            Transform::scale(0.5),
        ] {
            let mut keyer = Keyer::new();
            let mut expected = Vec::with_capacity(KEY_WORDS);
            for (i, item) in items.iter().enumerate() {
                let made = keyer.key(item, base).map(<[i32]>::to_vec);
                let afresh = reference_key(item, base, &mut expected).then(|| expected.clone());
                assert_eq!(made, afresh, "seed {seed}, item {i}: {item:?}");
                eligible += usize::from(made.is_some());
            }
        }
    }
    // Both kinds of verdict met often.
    assert!(eligible > 20_000, "{eligible} eligible");
}
