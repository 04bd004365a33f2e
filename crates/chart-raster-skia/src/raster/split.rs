//! One bitmap drawn by two painters on two threads, each answerable for a band of rows: the
//! top one for rows `..s`, the bottom one for rows `s..`, in a bitmap of its own.
//!
//! Both draw every item in order. Our own fillers write only the painter's rows (the
//! supersampler walks its edges to the band's first row without blitting, see
//! `supersample::jump`; rectangles, rings and glyph masks cover row by row); what
//! tiny-skia's pipeline draws (gradients, hairlines, paths it clips) is drawn whole by
//! both, its rows outside the band left as scratch. Every blend reads and writes one pixel
//! only, and the coverage of a pixel row depends on nothing outside it (the supersampler's
//! rows are the whole walk's), so each band's rows come out as one painter would draw them,
//! whatever the other does: the image never depends on whether a second thread drew it.
//! An item whose device bounds miss a painter's band is skipped by that painter; a mask
//! that is composited later (a shadow's shape) is still drawn whole.

use super::overdraw::painted_box;
use super::shadow::item_bounds;
use crate::scene::{Item, Scene, TextItem, Transform};

/// The first row of the bottom band of a `height`-row bitmap, where the two painters' work
/// is about even, or `None` when the scene is not worth two threads. It depends on the
/// scene alone: the rows a painter writes never depend on timing.
///
/// Each fill and stroke weighs on the rows of its device bounds, as much per row as its
/// bounds are wide plus a constant for the edges a row crosses; solid rectangles (a store
/// per row) and text (small, from cached masks) are left out (`overdraw::painted_box`).
pub(super) fn split_row(scene: &Scene, base: Transform, width: u32, height: u32) -> Option<u32> {
    /// A row's cost of walking a path's edges, in pixels blended.
    const EDGE_PIXELS: f64 = 32.0;
    /// Fewer rows and the second thread costs more than it saves (a thread costs about
    /// 30 µs to start and join).
    const MIN_ROWS: u32 = 256;
    if height < MIN_ROWS || width == 0 {
        return None;
    }
    let (w, h) = (f64::from(width), height as usize);
    // Differences of the per-row weight: row y weighs the sum of `per_row[..=y]`.
    let mut per_row = vec![0.0f64; h + 1];
    for item in &scene.items {
        let weight = match item {
            Item::Text(text) => text_weighed(text, base, height),
            _ => weighed(item, base, w, height),
        };
        let Some((rows, wide)) = weight else {
            continue;
        };
        per_row[rows.start] += wide + EDGE_PIXELS;
        per_row[rows.end] -= wide + EDGE_PIXELS;
    }
    let mut row_weight = 0.0;
    let weights: Vec<f64> = per_row[..h]
        .iter()
        .map(|d| {
            row_weight += d;
            row_weight.max(0.0)
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return Some(height / 2);
    }
    // The top band's thread also copies the bottom band's rows in at the end: it takes a
    // little less of the drawing.
    const TOP_SHARE: f64 = 0.48;
    let mut seen = 0.0;
    let s = weights.iter().position(|v| {
        seen += v;
        seen >= total * TOP_SHARE
    })?;
    // At least a few rows each: a band of none would leave a thread idle.
    let s = (s as u32 + 1).clamp(MIN_ROWS / 4, height - MIN_ROWS / 4);
    Some(s)
}

/// The rows (within the bitmap) and width in device pixels that `item` weighs on.
fn weighed(
    item: &Item,
    base: Transform,
    width: f64,
    height: u32,
) -> Option<(std::ops::Range<usize>, f64)> {
    let [x0, y0, x1, y1] = painted_box(item, base, width, f64::from(height))?;
    Some((
        y0 as usize..(y1.ceil() as usize).min(height as usize),
        x1 - x0,
    ))
}

/// The rows and width a line of text weighs on, guessed from its anchor and font size
/// (a glyph about 0.6 em wide, the line within an em of the anchor): the weight only
/// balances the threads, the pixels do not depend on it.
fn text_weighed(
    text: &TextItem,
    base: Transform,
    height: u32,
) -> Option<(std::ops::Range<usize>, f64)> {
    let t = base.then(text.transform);
    let (_, y) = t.apply(text.x, text.y);
    let em = f64::from(text.font.size * super::guard::max_scale(t));
    let (y, em) = (f64::from(y), if em.is_finite() { em } else { 0.0 });
    if !y.is_finite() {
        return None;
    }
    let (top, bottom) = ((y - em).max(0.0), (y + em).min(f64::from(height)));
    if top >= bottom {
        return None;
    }
    let wide = text.text.chars().count() as f64 * 0.6 * em;
    Some((
        top as usize..(bottom.ceil() as usize).min(height as usize),
        wide,
    ))
}

/// Whether `item` (under the device transform `base`) certainly draws nothing on the pixel
/// rows `rows`: a fill's or stroke's device bounds (grown by what the stroke's joins and
/// caps reach, see `shadow.rs`) and two pixels of anti-aliasing miss them. Other items
/// (text, clips, shadows, whose blur reaches past the shape) are never skipped.
pub(super) fn misses(item: &Item, base: Transform, rows: &std::ops::Range<u32>) -> bool {
    if let Item::Stroke { stroke, .. } = item {
        // The bounds take a miter limit of 1.5 for one that is not a number, where the
        // guard draws with the canvas default.
        if !stroke.miter_limit.is_finite() {
            return false;
        }
    }
    let Some([_, y0, _, y1]) = item_bounds(item, base) else {
        return false; // text, clips, shadows, nothing finite: left to the painter
    };
    y1 + 2.0 < rows.start as f32 || y0 - 2.0 > rows.end as f32
}

#[cfg(test)]
mod tests {
    use super::super::{rasterize_until, Reuse, Split};
    use crate::raster::painter::tests::xorshift;
    use crate::scene::{
        Item, LineCap, LineJoin, Paint, Path, Scene, Shadow, Stroke, TextAlign, TextBaseline,
        TextItem, Transform,
    };
    use crate::text::TextEngine;
    use chart_spec::Rgba;

    /// A random scene of what charts draw and what they could: fills and strokes (curves,
    /// circles, long polylines, rectangles, rings), hairlines, dashes, gradients (tiny-skia's
    /// pipeline), rectangle and path clips, text (straight and rotated), shadows, items
    /// partly or wholly outside the canvas.
    fn random_scene(seed: u64) -> Scene {
        let mut next = xorshift(seed);
        let (w, h) = (200.0f32, 150.0f32);
        let coord = |max: f32, next: &mut dyn FnMut(u64) -> u64| {
            next((max * 1.2 * 64.0) as u64) as f32 / 64.0 - max * 0.1
        };
        let mut items = Vec::new();
        let mut clips = 0;
        for k in 0..40 {
            let colour = Rgba {
                r: next(256) as u8,
                g: next(256) as u8,
                b: next(256) as u8,
                a: if k % 3 == 0 { 255 } else { 1 + next(255) as u8 },
            };
            let mut path = Path::new();
            match next(6) {
                0 => {
                    let (x, y) = (coord(w, &mut next), coord(h, &mut next));
                    path.rect(x, y, coord(60.0, &mut next), coord(60.0, &mut next));
                }
                1 => {
                    let (x, y) = (coord(w, &mut next), coord(h, &mut next));
                    path.circle(x, y, 0.5 + coord(40.0, &mut next).abs());
                }
                2 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    for _ in 0..2 + next(60) {
                        path.line_to(coord(w, &mut next), coord(h, &mut next));
                    }
                }
                3 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    for _ in 0..1 + next(20) {
                        let (c1, c2) = (coord(w, &mut next), coord(h, &mut next));
                        let (c3, c4) = (coord(w, &mut next), coord(h, &mut next));
                        path.cubic_to(c1, c2, c3, c4, coord(w, &mut next), coord(h, &mut next));
                    }
                    path.close();
                }
                4 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    let (c1, c2) = (coord(w, &mut next), coord(h, &mut next));
                    path.quad_to(c1, c2, coord(w, &mut next), coord(h, &mut next));
                    path.line_to(coord(w, &mut next), coord(h, &mut next));
                    path.close();
                }
                _ => {
                    // Bars on whole and half pixels, sharing sides.
                    let x = next(180) as f32 / 2.0;
                    path.rect(x, next(100) as f32, 10.0, 40.0);
                    path.rect(x + 10.0, next(100) as f32 / 4.0, 10.0, 60.0);
                }
            }
            let paint = if k % 7 == 5 {
                Paint::LinearGradient {
                    x0: 0.0,
                    y0: 0.0,
                    x1: w,
                    y1: h,
                    stops: vec![(0.0, colour), (1.0, Rgba::rgb(10, 200, 30))],
                }
            } else {
                Paint::Solid(colour)
            };
            let transform = if k % 9 == 4 {
                Transform::rotate(0.3).then(Transform::translate(5.0, -3.0))
            } else {
                Transform::IDENTITY
            };
            let item = if next(2) == 0 {
                Item::Fill {
                    path,
                    paint,
                    transform,
                }
            } else {
                Item::Stroke {
                    path,
                    paint,
                    stroke: Stroke {
                        width: [0.3, 0.5, 1.0, 1.5, 3.0, 7.0][next(6) as usize],
                        cap: [LineCap::Butt, LineCap::Round, LineCap::Square][next(3) as usize],
                        join: [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel][next(3) as usize],
                        dash: if k % 5 == 2 {
                            vec![4.0, 2.0]
                        } else {
                            Vec::new()
                        },
                        ..Stroke::default()
                    },
                    transform,
                }
            };
            let item = if k % 11 == 7 {
                Item::Shadowed {
                    shadow: Shadow {
                        color: Rgba {
                            a: 120,
                            ..Rgba::BLACK
                        },
                        blur: next(12) as f32,
                        offset_x: 2.0,
                        offset_y: next(30) as f32 - 10.0,
                    },
                    item: Box::new(item),
                }
            } else {
                item
            };
            items.push(item);
            if k % 8 == 3 {
                let mut clip = Path::new();
                if next(2) == 0 {
                    clip.rect(coord(w, &mut next), coord(h, &mut next), 90.0, 70.0);
                } else {
                    clip.circle(coord(w, &mut next), coord(h, &mut next), 50.0);
                }
                items.push(Item::PushClip {
                    path: clip,
                    transform: Transform::IDENTITY,
                });
                clips += 1;
            }
            if k % 6 == 1 {
                items.push(Item::Text(Box::new(TextItem {
                    text: "Bands 12,345".into(),
                    x: coord(w, &mut next),
                    y: coord(h, &mut next),
                    font: chart_spec::font::FontSpec {
                        size: 8.0 + next(20) as f32,
                        ..Default::default()
                    },
                    paint: Paint::Solid(colour),
                    align: TextAlign::Left,
                    baseline: TextBaseline::Middle,
                    direction: Default::default(),
                    transform: if k % 4 == 1 {
                        Transform::rotate(-0.7)
                    } else {
                        Transform::IDENTITY
                    },
                    stroke: None,
                })));
            }
            if k % 10 == 9 && clips > 0 {
                items.push(Item::PopClip);
                clips -= 1;
            }
        }
        Scene {
            width: w,
            height: h,
            device_pixel_ratio: 2.0,
            background: if seed.is_multiple_of(2) {
                Rgba::WHITE
            } else {
                Rgba::TRANSPARENT
            },
            items,
        }
    }

    /// Random scenes drawn by two painters split at rows across the bitmap (the top, the
    /// bottom, anywhere, and where [`super::split_row`] puts it): byte for byte what one
    /// painter draws.
    #[test]
    fn two_painters_draw_what_one_draws() {
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let stop = || false;
        let mut next = xorshift(0x1f83_d9ab_fb41_bd6b);
        for seed in 1..=16u64 {
            let scene = random_scene(seed * 0x9e37_79b9);
            let one = rasterize_until(&scene, &text, &reuse, &stop, Split::None).unwrap();
            let mut splits = vec![0, 1, 299, 300, 1 + next(298) as u32, 1 + next(298) as u32];
            let base = Transform {
                a: 2.0,
                d: 2.0,
                ..Transform::IDENTITY
            };
            splits.extend(super::split_row(&scene, base, 400, 300));
            for s in splits {
                let two = rasterize_until(&scene, &text, &reuse, &stop, Split::At(s)).unwrap();
                if let Some(i) = (0..one.data.len()).find(|&i| one.data[i] != two.data[i]) {
                    panic!(
                        "scene {seed} split at row {s}: pixel ({}, {}) differs",
                        i / 4 % 400,
                        i / 4 / 400
                    );
                }
                reuse.buffers.give(two.data);
            }
            reuse.buffers.give(one.data);
        }
    }
}
