//! The vertical half of FreeType's auto-hinter for Latin faces, as Chromium on Linux runs it
//! (`hintslight`: FreeType's light mode, which hints horizontal edges only and keeps stem
//! heights as they are).
//!
//! Written from FreeType's description of its auto-fitter (`afhints`, `aflatin`): the outline's
//! points get directions; runs of points along a horizontal line form *segments*; a segment
//! and the opposite one across the ink nearest to it (scored by overlap and distance) make a
//! *stem*; segments at about the same height merge into *edges*. Edges within a blue zone
//! snap onto it; every other stem is placed by its centre on the pixel grid (light mode keeps
//! its height), edges without a partner follow their neighbours. The outline's points then
//! follow: points on an edge take its position, other corners are interpolated between the
//! edges around them, and curve control points between the points already placed along their
//! contour (TrueType's `IUP`). All arithmetic is FreeType's: 26.6 fixed point in device pixels,
//! 16.16 scales, so the rounding is the same as the browser's.

mod fit;
mod glyph;
mod outline;

use crate::scene::PathCmd;
use glyph::GlyphHints;
use outline::{contours_of, Kind};

/// 16.16 × 26.6 rounded as `FT_MulFix` (half away from zero).
pub(super) fn mul_fix(a: i64, b: i64) -> i64 {
    let s = (a < 0) != (b < 0);
    let v = (a.abs() * b.abs() + 0x8000) >> 16;
    if s {
        -v
    } else {
        v
    }
}

/// `FT_DivFix`: a / b in 16.16, rounded.
pub(super) fn div_fix(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0x7FFF_FFFF;
    }
    let s = (a < 0) != (b < 0);
    let v = ((a.abs() << 16) + b.abs() / 2) / b.abs();
    if s {
        -v
    } else {
        v
    }
}

/// `FT_MulDiv`: a · b / c rounded.
pub(super) fn mul_div(a: i64, b: i64, c: i64) -> i64 {
    if c == 0 {
        return 0x7FFF_FFFF;
    }
    let s = ((a < 0) != (b < 0)) != (c < 0);
    let v = (a.abs() * b.abs() + c.abs() / 2) / c.abs();
    if s {
        -v
    } else {
        v
    }
}

pub(super) fn pix_round(x: i64) -> i64 {
    (x + 32) & !63
}

/// A blue zone in font units: the flat reference height and the round overshoot.
#[derive(Debug, Clone, Copy)]
pub(super) struct Blue {
    pub reference: i32,
    pub shoot: i32,
    pub top: bool,
}

/// What the auto-hinter learns of a face once (`af_latin_metrics_init`).
#[derive(Debug, Clone)]
pub(super) struct LatinMetrics {
    upem: i32,
    blues: Vec<Blue>,
    /// The round x-height the vertical scale is fitted to (the `o`'s top).
    x_shoot: i32,
    /// Heights of the horizontal stems of `o`, sorted (`axis->widths`).
    widths: Vec<i32>,
    /// Segments nearer than this (font units) make one edge: a fifth of the standard width.
    edge_distance_threshold: i32,
}

/// A blue zone fitted at a size: positions in 26.6 device pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct FittedBlue {
    pub(super) reference: i64,
    pub(super) shoot: i64,
    pub(super) active: bool,
}

impl LatinMetrics {
    /// The zones and the standard stem height of a Latin face, from the glyphs FreeType
    /// measures them on; `None` when the face has no Latin letters.
    pub(super) fn of(
        face: &ttf_parser::Face,
        outline: impl Fn(u16) -> Vec<PathCmd>,
    ) -> Option<Self> {
        let upem = i32::from(face.units_per_em());
        // FreeType's Latin zones: the characters each is measured on, and whether it is a top.
        const ZONES: [(&str, bool); 6] = [
            ("THEZOCQS", true),
            ("HEZLOCUS", false),
            ("fijkdbh", true),
            ("xzroesc", true),
            ("xzroesc", false),
            ("pqgjy", false),
        ];
        let mut blues = Vec::new();
        let mut x_shoot = None;
        for (zi, (chars, top)) in ZONES.iter().enumerate() {
            let (mut flats, mut rounds) = (Vec::new(), Vec::new());
            for c in chars.chars() {
                let Some(g) = face.glyph_index(c) else {
                    continue;
                };
                if let Some((y, round)) = extremum(&outline(g.0), *top, upem / 14) {
                    if round {
                        rounds.push(y);
                    } else {
                        flats.push(y);
                    }
                }
            }
            flats.sort_unstable();
            rounds.sort_unstable();
            let (mut reference, mut shoot) = match (flats.is_empty(), rounds.is_empty()) {
                (true, true) => continue,
                (true, false) => (rounds[rounds.len() / 2], rounds[rounds.len() / 2]),
                (false, true) => (flats[flats.len() / 2], flats[flats.len() / 2]),
                (false, false) => (flats[flats.len() / 2], rounds[rounds.len() / 2]),
            };
            // An overshoot on the wrong side of its reference: both take the middle.
            if shoot != reference && *top != (shoot > reference) {
                reference = (shoot + reference) / 2;
                shoot = reference;
            }
            if zi == 3 {
                x_shoot = Some(shoot);
            }
            blues.push(Blue {
                reference,
                shoot,
                top: *top,
            });
        }
        let x_shoot = x_shoot?;
        // Bottom to top (`af_latin_sort_blue`): ties between zones go to the lower one.
        blues.sort_by_key(|b| if b.top { b.reference } else { b.shoot });
        // Standard stem heights: the stems of `o` (`af_latin_metrics_init_widths`).
        let mut widths = Vec::new();
        if let Some(g) = face.glyph_index('o') {
            let cmds = outline(g.0);
            if let Some(mut hints) = GlyphHints::load(&cmds, upem, 0x10000) {
                hints.compute_segments();
                hints.link_segments(0);
                for (i, s) in hints.segments.iter().enumerate() {
                    if let Some(l) = s.link {
                        if hints.segments[l].link == Some(i) && l > i {
                            widths.push((s.pos - hints.segments[l].pos).abs());
                        }
                    }
                }
            }
        }
        let widths = quantize_widths(widths, upem / 100);
        let stdw = widths.first().copied().unwrap_or(50 * upem / 2048);
        Some(LatinMetrics {
            upem,
            blues,
            x_shoot,
            widths,
            edge_distance_threshold: stdw / 5,
        })
    }

    /// The vertical scale (16.16) for a size of `size64` 26.6 pixels per em, fitted so the
    /// x-height overshoot lands on a whole pixel (`af_latin_metrics_scale_dim`), and the zones
    /// at that scale.
    fn scale(&self, size64: i64) -> (i64, Vec<FittedBlue>) {
        let mut scale = div_fix(size64, i64::from(self.upem));
        let scaled = mul_fix(i64::from(self.x_shoot), scale);
        let fitted = (scaled + 40) & !63;
        if scaled != fitted && scaled > 0 {
            let new_scale = mul_div(scale, fitted, scaled);
            // Not if it moves the em's top by two pixels or more.
            let max_height = i64::from(self.upem);
            if (mul_fix(max_height, new_scale - scale).abs() & !127) == 0 {
                scale = new_scale;
            }
        }
        let blues = self
            .blues
            .iter()
            .map(|b| {
                let r = mul_fix(i64::from(b.reference), scale);
                let s = mul_fix(i64::from(b.shoot), scale);
                // A zone is active while its overshoot is under 3/4 pixel; the overshoot is
                // then flattened (< 1/2 px), made half a pixel or a whole one.
                let dist = mul_fix(i64::from(b.reference - b.shoot), scale);
                if (-48..=48).contains(&dist) {
                    let d2 = match dist.abs() {
                        0..=31 => 0,
                        32..=47 => 32,
                        _ => 64,
                    };
                    let rf = pix_round(r);
                    FittedBlue {
                        reference: rf,
                        shoot: rf - if dist < 0 { -d2 } else { d2 },
                        active: true,
                    }
                } else {
                    FittedBlue {
                        reference: r,
                        shoot: s,
                        active: false,
                    }
                }
            })
            .collect();
        (scale, blues)
    }

    /// The outline hinted vertically at `size` device pixels per em: the same commands
    /// in device pixels (y up). `None` when the outline is
    /// too large to hint (it is then drawn unhinted).
    pub(super) fn hint(&self, outline: &[PathCmd], size: f32) -> Option<Vec<PathCmd>> {
        // Skia asks FreeType for the size in 26.6, truncated.
        let size64 = (size * 64.0).floor();
        if !(1.0..1.0e6).contains(&size64) {
            return None;
        }
        let (scale, blues) = self.scale(size64 as i64);
        let mut hints = GlyphHints::load(outline, self.upem, scale)?;
        hints.compute_segments();
        hints.link_segments(self.widths.last().copied().unwrap_or(0));
        hints.compute_edges(scale, self.edge_distance_threshold);
        hints.compute_blue_edges(&self.blues, &blues, scale);
        hints.hint_edges();
        hints.align_edge_points();
        hints.align_strong_points();
        hints.align_weak_points();
        // Widths are not hinted, only scaled into FreeType's 26.6 grid.
        let x_scale = div_fix(size64 as i64, i64::from(self.upem));
        let x = |x: f32| mul_fix(x.round() as i64, x_scale) as f32 / 64.0;
        Some(
            hints
                .save(outline)
                .iter()
                .map(|cmd| cmd.map(|px, py| (x(px), py)))
                .collect(),
        )
    }
}

/// The highest (`top`) or lowest point of an outline, and whether it is round: the extreme
/// of a curve rather than of a flat run of on-curve points wider than `flat_threshold`
/// (`af_latin_metrics_init_blues`). Contours of one or two points are skipped.
fn extremum(outline: &[PathCmd], top: bool, flat_threshold: i32) -> Option<(i32, bool)> {
    let contours: Vec<Vec<(i32, i32, bool)>> = contours_of(outline)?
        .into_iter()
        .map(|c| {
            c.into_iter()
                .filter(|e| matches!(e.0, Kind::On | Kind::Control))
                .map(|e| (e.1 as i32, e.2 as i32, e.0 == Kind::Control))
                .collect::<Vec<_>>()
        })
        .collect();
    if contours.iter().map(Vec::len).sum::<usize>() <= 2 {
        return None;
    }
    let mut best: Option<(usize, usize)> = None;
    for (ci, c) in contours.iter().enumerate() {
        if c.len() <= 1 {
            continue;
        }
        for (pi, p) in c.iter().enumerate() {
            let better = match best {
                None => true,
                Some((bc, bp)) => {
                    let y = contours[bc][bp].1;
                    if top {
                        p.1 > y
                    } else {
                        p.1 < y
                    }
                }
            };
            if better {
                best = Some((ci, pi));
            }
        }
    }
    let (ci, bp) = best?;
    let c = &contours[ci];
    let n = c.len();
    let (bx, by, bctl) = c[bp];
    let (mut on_first, mut on_last) = if bctl {
        (None, None)
    } else {
        (Some(bp), Some(bp))
    };
    // Extend over neighbours at about the same height (within 5 units or a flat angle).
    let near = |q: usize| {
        let dist = (c[q].1 - by).abs();
        !(dist > 5 && (c[q].0 - bx).abs() <= 20 * dist)
    };
    let (mut seg_first, mut seg_last) = (bp, bp);
    let mut q = bp;
    for _ in 0..n {
        q = (q + n - 1) % n;
        if q == bp || !near(q) {
            break;
        }
        seg_first = q;
        if !c[q].2 {
            on_first = Some(q);
            on_last.get_or_insert(q);
        }
    }
    let mut q = bp;
    for _ in 0..n {
        q = (q + 1) % n;
        if q == bp || !near(q) {
            break;
        }
        seg_last = q;
        if !c[q].2 {
            on_last = Some(q);
            on_first.get_or_insert(q);
        }
    }
    let round = match (on_first, on_last) {
        (Some(a), Some(b)) if (c[b].0 - c[a].0).abs() > flat_threshold => false,
        _ => c[seg_first].2 || c[seg_last].2,
    };
    Some((by, round))
}

/// Sorts stem widths and replaces each cluster within `threshold` by its mean
/// (`af_sort_and_quantize_widths`).
fn quantize_widths(mut w: Vec<i32>, threshold: i32) -> Vec<i32> {
    w.sort_unstable();
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        let mut j = i + 1;
        while j < w.len() && w[j] - w[i] <= threshold {
            j += 1;
        }
        let sum: i64 = w[i..j].iter().map(|&v| i64::from(v)).sum();
        out.push((sum / (j - i) as i64) as i32);
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::outline::map_points;
    use super::*;

    fn bundled() -> ttf_parser::Face<'static> {
        ttf_parser::Face::parse(super::super::discovery::BUNDLED, 0).expect("bundled font")
    }

    fn outline(face: &ttf_parser::Face, g: u16) -> Vec<PathCmd> {
        let mut b = super::super::fonts::OutlineBuilder(Vec::new());
        face.outline_glyph(ttf_parser::GlyphId(g), &mut b);
        b.0
    }

    /// The heights FreeType 2.12.1 gives the points of Liberation Sans `e` and `9` at 11 px
    /// with `FT_LOAD_TARGET_LIGHT` (what Chromium draws on Linux): (font units, 26.6 px).
    /// Among them the bar of the `e` (1.5 px stem centred on a pixel boundary) and the bowl of
    /// the `9`, which the blue zones alone leave where they fall.
    #[test]
    fn hints_as_freetype_light_does() {
        let face = bundled();
        let m = LatinMetrics::of(&face, |g| outline(&face, g)).expect("latin face");
        let cases: [(char, &[i32], &[i64]); 2] = [
            (
                'e',
                &[
                    503, 317, 115, 209, 281, 236, -20, 266, 548, 816, 1102, 527, 641, 812, 969, 794,
                ],
                &[
                    200, 126, 47, 84, 112, 95, 0, 98, 194, 286, 384, 208, 248, 295, 337, 290,
                ],
            ),
            (
                '9',
                &[
                    733, 370, -20, 119, 274, 301, 125, 413, 680, 590, 481, 741, 1177, 1430,
                ],
                &[
                    266, 138, 0, 53, 113, 125, 51, 162, 266, 235, 200, 285, 429, 512,
                ],
            ),
        ];
        for (c, units, expected) in cases {
            let g = face.glyph_index(c).expect("glyph").0;
            let cmds = outline(&face, g);
            let hinted = m.hint(&cmds, 11.0).expect("hinted");
            let ys = |cmds: &[PathCmd]| -> Vec<f32> {
                cmds.iter()
                    .flat_map(|c| match *c {
                        PathCmd::MoveTo(_, y) | PathCmd::LineTo(_, y) => vec![y],
                        PathCmd::QuadTo(_, y1, _, y) => vec![y1, y],
                        PathCmd::CubicTo(_, y1, _, y2, _, y) => vec![y1, y2, y],
                        PathCmd::Close => vec![],
                    })
                    .collect()
            };
            let mut checked = 0;
            for (b, a) in ys(&cmds).into_iter().zip(ys(&hinted)) {
                if let Some(k) = units.iter().position(|&u| u as f32 == b) {
                    assert_eq!((a * 64.0).round() as i64, expected[k], "{c}: height {b}");
                    checked += 1;
                }
            }
            assert!(checked >= units.len(), "{c}: {checked}");
        }
    }

    /// Implied on-curve points are not points of the font: they are left out of hinting and
    /// put back halfway between their hinted controls.
    #[test]
    fn implied_points_stay_between_their_controls() {
        let quad = vec![
            PathCmd::MoveTo(0.0, 0.0),
            PathCmd::QuadTo(100.0, 0.0, 100.0, 50.0),
            PathCmd::QuadTo(100.0, 100.0, 50.0, 100.0),
            PathCmd::QuadTo(0.0, 100.0, 0.0, 50.0),
            PathCmd::QuadTo(0.0, 0.0, 0.0, 0.0),
            PathCmd::Close,
        ];
        let contours = contours_of(&quad).expect("contours");
        let kinds: Vec<Kind> = contours[0].iter().map(|e| e.0).collect();
        assert_eq!(kinds[0], Kind::On);
        assert_eq!(kinds[kinds.len() - 1], Kind::Closing);
        let ys = vec![1.0; 7];
        let mapped = map_points(&quad, &ys);
        assert_eq!(mapped.len(), quad.len());
        let PathCmd::QuadTo(_, _, _, y) = mapped[4] else {
            panic!()
        };
        assert_eq!(y, 1.0, "the closing end is the start");
    }

    /// Outlines the hinter cannot read or that are too large are left to the caller.
    #[test]
    fn leaves_unreadable_outlines_alone() {
        let face = bundled();
        let m = LatinMetrics::of(&face, |g| outline(&face, g)).expect("latin face");
        assert!(m.hint(&[PathCmd::LineTo(1.0, 1.0)], 12.0).is_none());
        let mut big = vec![PathCmd::MoveTo(0.0, 0.0)];
        big.extend((0..5000).map(|i| PathCmd::LineTo(i as f32, (i % 7) as f32)));
        big.push(PathCmd::Close);
        assert!(m.hint(&big, 12.0).is_none());
    }
}
