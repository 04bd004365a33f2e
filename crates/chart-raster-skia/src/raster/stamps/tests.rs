//! Stamped against exact drawing: how far the pixels move, and that the choice of what is
//! stamped depends on the scene alone.

use super::{Plan, Stamps, MIN_REPEATS};
use crate::raster::clip::ClipStack;
use crate::raster::painter::tests::xorshift;
use crate::raster::painter::Painter;
use crate::raster::{rasterize_until, Reuse, Split};
use crate::scene::{Item, Paint, Path, Scene, Stroke, Transform};
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
        stamps: Stamps::new(plan),
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

/// The same bytes whichever row two painters split the bitmap at (each painter makes its
/// own plan and masks), and with one painter.
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
