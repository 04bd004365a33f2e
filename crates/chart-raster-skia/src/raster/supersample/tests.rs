//! The supersampler's tests: byte for byte tiny-skia's masks, every walk against the others.

use super::{cover, cover_handing_over, jump, linked_edges, Route, SHIFT};
use tiny_skia::{FillRule, Mask, Path, PathBuilder};

/// A small deterministic generator: `next(n)` is below `n`.
pub(super) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// `path`'s coverage by [`cover`] as a mask (`None` when refused), the same walked on an
/// array whatever the path (see [`walk`]).
fn ours(path: &Path, w: u32, h: u32) -> Option<Vec<u8>> {
    let routes = [Route::General, Route::Array(u32::MAX - 1), Route::Auto];
    let mut masks = routes.map(|route| {
        let mut out = vec![0u8; (w * h) as usize];
        let done = cover_handing_over(
            path,
            (w, h),
            0..h,
            &|| false,
            &mut |y, x, cov| {
                let a = y * w as usize + x;
                out[a..a + cov.len()].copy_from_slice(cov);
            },
            route,
        );
        done.map(|done| {
            assert!(done);
            out
        })
    });
    assert!(masks[0] == masks[1], "the list and the array walk differ");
    assert!(
        masks[0] == masks[2],
        "the list and the few-edges walk differ"
    );
    masks[0].take()
}

pub(super) fn theirs(path: &Path, w: u32, h: u32) -> Vec<u8> {
    let mut m = Mask::new(w, h).unwrap();
    m.fill_path(
        path,
        FillRule::Winding,
        true,
        tiny_skia::Transform::identity(),
    );
    m.data().to_vec()
}

/// Fails on the first pixel where `actual` and `expected` (masks `w` wide) differ.
pub(super) fn assert_same_mask(
    case: impl std::fmt::Display,
    actual: &[u8],
    expected: &[u8],
    w: u32,
) {
    if let Some(i) = (0..actual.len()).find(|&i| actual[i] != expected[i]) {
        panic!(
            "case {case}: pixel ({}, {}) {} instead of {}",
            i % w as usize,
            i / w as usize,
            actual[i],
            expected[i]
        );
    }
}

/// Random contours of lines, quadratics and cubics (self-crossing, overlapping, with
/// vertical runs on whole and half pixels, points on exact quarter pixels), circles
/// and rings: byte for byte tiny-skia's anti-aliased non-zero mask.
#[test]
fn covers_as_tiny_skia() {
    let (w, h) = (120u32, 90u32);
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut covered = 0;
    for case in 0..3000 {
        let mut coord = |max: u32| -> f32 {
            match case % 4 {
                // Snapped to quarter pixels: ties between edges and on sub-scanlines.
                0 => next(max as u64 * 4) as f32 / 4.0,
                1 => next(max as u64 * 2) as f32 / 2.0,
                _ => next(max as u64 * 1000) as f32 / 1000.0,
            }
        };
        let mut pb = PathBuilder::new();
        match case % 7 {
            5 => {
                let (x, y) = (coord(w), coord(h));
                let r = 0.5 + coord(20);
                pb.push_circle(x, y, r);
                pb.push_circle(x + 0.3, y, r * 0.6);
            }
            6 => {
                // A cubic ring as scene paths draw circles, and a vertical bar pair.
                let (x, y) = (coord(w), coord(h));
                let r = 1.0 + coord(12);
                let k = 0.552_284_8 * r;
                pb.move_to(x + r, y);
                pb.cubic_to(x + r, y + k, x + k, y + r, x, y + r);
                pb.cubic_to(x - k, y + r, x - r, y + k, x - r, y);
                pb.cubic_to(x - r, y - k, x - k, y - r, x, y - r);
                pb.cubic_to(x + k, y - r, x + r, y - k, x + r, y);
                pb.close();
                let (bx, by) = (coord(w).floor(), coord(h));
                pb.move_to(bx, by);
                pb.line_to(bx, by + 10.0);
                pb.line_to(bx + 2.0, by + 10.0);
                pb.line_to(bx + 2.0, by);
                pb.close();
                pb.move_to(bx + 2.0, by + 5.0);
                pb.line_to(bx + 2.0, by + 15.0);
                pb.line_to(bx + 4.0, by + 15.0);
                pb.line_to(bx + 4.0, by + 5.0);
                pb.close();
            }
            _ => {
                for _ in 0..1 + case % 3 {
                    pb.move_to(coord(w), coord(h));
                    let n = 2 + coord(6) as u64;
                    for k in 0..n {
                        match (case + k as usize) % 4 {
                            0 | 3 => pb.line_to(coord(w), coord(h)),
                            1 => pb.quad_to(coord(w), coord(h), coord(w), coord(h)),
                            _ => pb.cubic_to(
                                coord(w),
                                coord(h),
                                coord(w),
                                coord(h),
                                coord(w),
                                coord(h),
                            ),
                        }
                    }
                    if case % 2 == 0 {
                        pb.close();
                    }
                }
            }
        }
        let Some(path) = pb.finish() else {
            continue;
        };
        let expected = theirs(&path, w, h);
        match ours(&path, w, h) {
            Some(actual) => {
                covered += 1;
                if let Some(i) = (0..actual.len()).find(|&i| actual[i] != expected[i]) {
                    panic!(
                        "case {case}: pixel ({}, {}) {} instead of {}: {path:?}",
                        i % w as usize,
                        i / w as usize,
                        actual[i],
                        expected[i]
                    );
                }
            }
            None => {
                let b = path.bounds();
                assert!(
                    b.left() < 0.0
                        || b.top() < 0.0
                        || b.right() > w as f32
                        || b.bottom() > h as f32,
                    "case {case} refused inside the target"
                );
            }
        }
    }
    assert!(covered > 2000, "only {covered} paths covered here");
}

/// Long polylines as line charts draw them: a time series' stroke outline (hundreds of
/// edges active on one sub-scanline, crossing each other, with round and miter joins)
/// and self-crossing filled zigzags, byte for byte tiny-skia's mask.
#[test]
fn covers_long_polylines_as_tiny_skia() {
    use tiny_skia::{LineCap, LineJoin, Stroke};
    let (w, h) = (400u32, 300u32);
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut covered = 0;
    for case in 0..120 {
        let n = 20 + next(400) as usize;
        let mut pb = PathBuilder::new();
        let margin = 8.0;
        let step = (w as f32 - 2.0 * margin) / n as f32;
        let y = |next: &mut dyn FnMut(u64) -> u64| {
            margin + next(((h as f32 - 2.0 * margin) * 64.0) as u64) as f32 / 64.0
        };
        pb.move_to(margin, y(&mut next));
        for i in 1..=n {
            let x = margin + step * i as f32;
            if case % 3 == 2 {
                let (cx, cy) = (x - step / 2.0, y(&mut next));
                pb.quad_to(cx, cy, x, y(&mut next));
            } else {
                pb.line_to(x, y(&mut next));
            }
        }
        let line = pb.finish().unwrap();
        let path = if case % 4 == 3 {
            line // filled as it is: closed by the fill, crossing itself everywhere
        } else {
            let stroke = Stroke {
                width: 0.5 + next(8) as f32 / 2.0,
                line_join: [LineJoin::Round, LineJoin::Miter, LineJoin::Bevel][case % 3],
                line_cap: if case % 2 == 0 {
                    LineCap::Round
                } else {
                    LineCap::Butt
                },
                ..Stroke::default()
            };
            line.stroke(&stroke, 1.0).unwrap()
        };
        let expected = theirs(&path, w, h);
        let actual = ours(&path, w, h).expect("inside the target");
        covered += 1;
        assert_same_mask(case, &actual, &expected, w);
    }
    assert_eq!(covered, 120);
}

/// Pie slices and circles reaching past the target's sides (their control points, or
/// the curves themselves by up to 3 px), filled and stroked: where what the edge
/// clipper does is reproduced they are covered here, byte for byte as tiny-skia covers
/// them with its clipper; the others are refused.
#[test]
fn shapes_reaching_past_the_target_cover_as_tiny_skia() {
    use tiny_skia::Stroke;
    let (w, h) = (160u32, 120u32);
    let mut next = xorshift(0xd1b5_4a32_d192_ed03);
    let (mut taken, mut refused) = (0, 0);
    for case in 0..6000 {
        let r = 20.0 + next(400) as f32 / 8.0;
        // The circle's nearest side from 3 px past it to 1.5 px inside, at a random side.
        let gap = next(144) as f32 / 32.0 - 3.0;
        let free = |n: &mut dyn FnMut(u64) -> u64, size: u32| {
            r + gap + n(((size as f32 - 2.0 * (r + gap)).max(1.0) * 16.0) as u64) as f32 / 16.0
        };
        let (cx, cy) = match case % 4 {
            0 => (free(&mut next, w), r + gap),
            1 => (free(&mut next, w), h as f32 - r - gap),
            2 => (r + gap, free(&mut next, h)),
            _ => (w as f32 - r - gap, free(&mut next, h)),
        };
        let mut pb = PathBuilder::new();
        if case % 3 == 0 {
            pb.push_circle(cx, cy, r);
        } else {
            // A slice as elements/arc.rs builds one: cubics of at most a quarter turn.
            let a0 = next(628) as f32 / 100.0;
            let sweep = 0.3 + next(560) as f32 / 100.0;
            pb.move_to(cx, cy);
            pb.line_to(cx + r * libm::cosf(a0), cy + r * libm::sinf(a0));
            let parts = (sweep / 1.5).ceil();
            let step = sweep / parts;
            let k = 4.0 / 3.0 * libm::tanf(step / 4.0);
            for i in 0..parts as usize {
                let (s, e) = (a0 + step * i as f32, a0 + step * (i + 1) as f32);
                let (cs, ss, ce, se) = (libm::cosf(s), libm::sinf(s), libm::cosf(e), libm::sinf(e));
                pb.cubic_to(
                    cx + r * (cs - k * ss),
                    cy + r * (ss + k * cs),
                    cx + r * (ce + k * se),
                    cy + r * (se - k * ce),
                    cx + r * ce,
                    cy + r * se,
                );
            }
            pb.close();
        }
        let mut path = pb.finish().unwrap();
        if case % 2 == 1 {
            let stroke = Stroke {
                width: 0.5 + next(4) as f32 / 2.0,
                ..Stroke::default()
            };
            path = path.stroke(&stroke, 1.0).unwrap();
        }
        let Some(actual) = ours(&path, w, h) else {
            refused += 1;
            continue;
        };
        let b = path.bounds();
        if b.left() >= 0.0 && b.top() >= 0.0 && b.right() <= w as f32 && b.bottom() <= h as f32 {
            continue; // no clipper involved
        }
        taken += 1;
        let expected = theirs(&path, w, h);
        assert_same_mask(case, &actual, &expected, w);
    }
    assert!(
        taken > 50 && refused > 100,
        "{taken} taken, {refused} refused"
    );
}

/// Rows of a window (a painter's band) covered alone, after the list was jumped to the
/// window's first sub-scanline or, with ties in x, walked there: byte for byte those
/// rows of the whole cover, for random contours, circles, long stroke outlines and
/// paths reaching past the target, with the windows' first row anywhere in the path.
#[test]
fn a_row_window_covers_as_the_whole_walk() {
    use tiny_skia::Stroke;
    let (w, h) = (120u32, 90u32);
    let mut next = xorshift(0x6a09_e667_f3bc_c908);
    let (mut jumped, mut walked) = (0, 0);
    for case in 0..1500 {
        let coord = |max: u32, n: &mut dyn FnMut(u64) -> u64| -> f32 {
            match case % 3 {
                0 => n(max as u64 * 4) as f32 / 4.0 - 4.0, // ties on quarter pixels
                _ => n(max as u64 * 1000) as f32 / 1000.0 - 4.0,
            }
        };
        let mut pb = PathBuilder::new();
        pb.move_to(coord(w + 8, &mut next), coord(h + 8, &mut next));
        for k in 0..3 + next(12) {
            let (x, y) = (coord(w + 8, &mut next), coord(h + 8, &mut next));
            match (case as u64 + k) % 3 {
                0 => pb.line_to(x, y),
                1 => pb.quad_to(coord(w, &mut next), coord(h, &mut next), x, y),
                _ => {
                    let (c1x, c1y) = (coord(w, &mut next), coord(h, &mut next));
                    pb.cubic_to(c1x, c1y, coord(w, &mut next), coord(h, &mut next), x, y)
                }
            }
        }
        if case % 5 == 4 {
            pb.push_circle(
                coord(w, &mut next),
                coord(h, &mut next),
                3.0 + coord(30, &mut next),
            );
        }
        if case % 3 == 0 {
            // Bars sharing a side: two edges at one x on many sub-scanlines.
            let x = (4 + next(u64::from(w) - 12)) as f32 + next(4) as f32 / 4.0;
            let (y0, y1) = (
                next(u64::from(h) / 2) as f32,
                (h / 2 + next(40) as u32) as f32,
            );
            pb.push_rect(tiny_skia::Rect::from_ltrb(x - 2.5, y0, x, y1).unwrap());
            pb.push_rect(tiny_skia::Rect::from_ltrb(x, y0 + 3.25, x + 3.0, y1 + 9.0).unwrap());
        }
        let mut path = pb.finish().unwrap();
        if case % 4 == 1 {
            let stroke = Stroke {
                width: 1.0 + next(12) as f32 / 2.0,
                ..Stroke::default()
            };
            path = path.stroke(&stroke, 1.0).unwrap();
        }
        let Some(whole) = ours(&path, w, h) else {
            continue;
        };
        let b = path.bounds();
        let top = (b.top().max(0.0) as u32).min(h - 1);
        let start = top + next(u64::from(h - top)) as u32;
        let end = (start + 1 + next(u64::from(h - start)) as u32).min(h);
        let mut band = vec![0u8; (w * h) as usize];
        let done = cover(&path, w, h, start..end, &|| false, &mut |y, x, cov| {
            assert!((start..end).contains(&(y as u32)), "case {case}: row {y}");
            let a = y * w as usize + x;
            band[a..a + cov.len()].copy_from_slice(cov);
        });
        assert_eq!(done, Some(true));
        let rows = start as usize * w as usize..end as usize * w as usize;
        assert_same_mask(case, &band[rows.clone()], &whole[rows], w);
        // Which way the list got to the window.
        if let Some(mut edges) = linked_edges(&path, None).filter(|e| !e.is_empty()) {
            if start > top && b.top() >= 0.0 && b.bottom() <= h as f32 {
                if jump(&mut edges, (start << SHIFT) as i32) {
                    jumped += 1;
                } else {
                    walked += 1;
                }
            }
        }
    }
    assert!(
        jumped > 100 && walked > 20,
        "{jumped} jumped, {walked} walked"
    );
}

/// A path reaching past the target is left to tiny-skia (its edge clipper), and a stop
/// ends the covering between row groups.
#[test]
fn clipping_is_refused_and_a_stop_ends_it() {
    let mut pb = PathBuilder::new();
    pb.push_circle(10.0, 10.0, 12.0);
    let path = pb.finish().unwrap();
    assert!(cover(&path, 100, 100, 0..100, &|| false, &mut |_, _, _| {}).is_none());
    let mut pb = PathBuilder::new();
    pb.push_circle(100.0, 100.0, 90.0);
    let path = pb.finish().unwrap();
    let mut rows = 0;
    let done = cover(&path, 200, 200, 0..200, &|| true, &mut |_, _, _| rows += 1);
    assert_eq!((done, rows), (Some(false), 0));
}
