//! Solid fills of paths whose edges are all horizontal or vertical, bit for bit as
//! tiny-skia's anti-aliased path filler and pipeline would draw them, without either.
//!
//! Rings are such paths: a bar's border (canvas's `fill('evenodd')` of the outer and inner
//! rectangles, a reversed inner rectangle here), and the outline tiny-skia's stroker makes of
//! a rectangle stroked with miter joins (a sankey node's border, a legend box's). Drawn by
//! tiny-skia, a ring costs the supersampler and a pipeline start for every run of every row
//! (a bar chart with borders spent +70M instructions on 24 rings; a 5,000-node sankey chain
//! spent seconds on its node borders). Here the supersampler's work is repeated on the
//! vertical edges alone (horizontal edges never reach its scanline walk), one coverage row
//! per distinct pattern of sub-rows, and blended with `rect.rs`'s exact blender.
//!
//! What is reproduced (tiny-skia `edge.rs`, `scan/path.rs` `walk_edges`, `scan/path_aa.rs`
//! `SuperBlitter::blit_h`, `alpha_runs.rs`):
//! - a vertical edge at `x` from `y0` to `y1`, clamped onto the bitmap as the edge clipper
//!   does, becomes the supersampled column `(trunc(x·256) + 32) >> 6` over the sub-rows
//!   `[round(y0), round(y1))` with winding +1 downwards and −1 upwards;
//! - on each sub-row the edges are walked left to right and the non-zero winding gives the
//!   spans;
//! - a span adds to its first and last pixels 16 per covered sub-column and to the pixels in
//!   between 64 (63 on a pixel's last sub-row), each add folding 256 to 255.
//!
//! The one case where the result depends on how tiny-skia orders and merges its edges (two
//! spans of one sub-row that touch inside a pixel) is refused, and tiny-skia draws it.

use super::rect::{self, Clip, SolidColor};

/// The edges at most one path may have here (a ring has four vertical ones).
const MAX_EDGES: usize = 16;

/// A vertical edge in supersampled coordinates: column `x`, sub-rows `[top, bot)`.
#[derive(Debug, Clone, Copy)]
struct Edge {
    x: i32,
    top: i32,
    bot: i32,
    winding: i32,
}

/// The vertical edges of a rectilinear path, ready to fill.
#[derive(Debug)]
pub(super) struct Rectilinear {
    /// Sorted by column.
    edges: Vec<Edge>,
    /// The sub-rows where anything may be covered.
    top: i32,
    bot: i32,
}

impl Rectilinear {
    /// The vertical edges of `path` (in device space) on a `width × height` bitmap; `None`
    /// when the path has a curve or a slanted segment, too many edges, coordinates
    /// [`rect::supported`] refuses, bounds tiny-skia refuses to fill, or touching spans.
    pub(super) fn of(path: &tiny_skia::Path, width: u32, height: u32) -> Option<Self> {
        let b = path.bounds();
        let r = [b.left(), b.top(), b.right(), b.bottom()];
        // tiny-skia refuses paths whose bounds are nearly zero wide or high (1/4096 px).
        const NEARLY_ZERO: f32 = 1.0 / 4096.0;
        let fillable = r[2] - r[0] > NEARLY_ZERO && r[3] - r[1] > NEARLY_ZERO;
        if !(fillable && rect::supported(r, width, height)) {
            return None;
        }
        let (w, h) = (width as f32, height as f32);
        // FDot6 of a coordinate clamped onto the bitmap.
        let fdot6 = |v: f32, max: f32| (v.clamp(0.0, max) * 256.0) as i32;
        let round = |v: i32| (v + 32) >> 6;
        let mut edges = Vec::new();
        let mut segment = |p0: tiny_skia::Point, p1: tiny_skia::Point| -> Option<()> {
            let (x0, y0) = (fdot6(p0.x, w), fdot6(p0.y, h));
            let (x1, y1) = (fdot6(p1.x, w), fdot6(p1.y, h));
            let (top, bot) = (round(y0.min(y1)), round(y0.max(y1)));
            if top == bot {
                return Some(()); // never reaches the scanline walk
            }
            if x0 != x1 || edges.len() >= MAX_EDGES {
                return None;
            }
            edges.push(Edge {
                x: round(x0),
                top,
                bot,
                winding: if y0 > y1 { -1 } else { 1 },
            });
            Some(())
        };
        // Every contour is closed for filling, with or without its `Close`.
        let (mut start, mut last) = (None::<tiny_skia::Point>, None::<tiny_skia::Point>);
        for seg in path.segments() {
            match seg {
                tiny_skia::PathSegment::MoveTo(p) => {
                    if let (Some(s), Some(l)) = (start, last) {
                        segment(l, s)?;
                    }
                    (start, last) = (Some(p), Some(p));
                }
                tiny_skia::PathSegment::LineTo(p) => {
                    segment(last.unwrap_or(p), p)?;
                    last = Some(p);
                }
                tiny_skia::PathSegment::Close => {
                    if let (Some(s), Some(l)) = (start, last) {
                        segment(l, s)?;
                    }
                    last = start;
                }
                _ => return None,
            }
        }
        if let (Some(s), Some(l)) = (start, last) {
            segment(l, s)?;
        }
        edges.sort_by_key(|e| e.x);
        let top = edges.iter().map(|e| e.top).min().unwrap_or(0);
        let bot = edges.iter().map(|e| e.bot).max().unwrap_or(0);
        let shape = Self { edges, top, bot };
        // The spans change only where an edge starts or ends: check each stretch once.
        let mut breaks: Vec<i32> = shape.edges.iter().flat_map(|e| [e.top, e.bot]).collect();
        let mut spans = Vec::new();
        breaks.sort_unstable();
        for &sy in &breaks {
            spans.clear();
            shape.spans(sy, &mut spans);
            if spans
                .windows(2)
                .any(|p| p[0].1 == p[1].0 && p[0].1 & 3 != 0)
            {
                return None;
            }
        }
        Some(shape)
    }

    /// The device rectangle (x0, y0, x1, y1) of whole pixels that may be covered.
    pub(super) fn pixel_bounds(&self) -> Option<[usize; 4]> {
        let x0 = self.edges.first()?.x;
        let x1 = self.edges.last()?.x;
        (x0 < x1 && self.top < self.bot).then(|| {
            [
                (x0 >> 2) as usize,
                (self.top >> 2) as usize,
                ((x1 + 3) >> 2) as usize,
                ((self.bot + 3) >> 2) as usize,
            ]
        })
    }

    /// The spans `[start, end)` of sub-row `sy` under the non-zero rule (`walk_edges`).
    fn spans(&self, sy: i32, out: &mut Vec<(i32, i32)>) {
        let mut w = 0;
        let mut left = 0;
        for e in self.edges.iter().filter(|e| e.top <= sy && sy < e.bot) {
            if w == 0 {
                left = e.x;
            }
            w += e.winding;
            if w == 0 && e.x > left {
                out.push((left, e.x));
            }
        }
    }

    /// Which stretch between edge ends sub-row `sy` lies in (equal keys, equal spans).
    fn stretch(&self, sy: i32) -> u64 {
        self.edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.top <= sy && sy < e.bot)
            .fold(0, |k, (i, _)| k | 1 << i)
    }

    /// Fills the path in `color` on premultiplied RGBA8 `pixels` through `clip`, on the
    /// pixel rows of `rows` only (each row's coverage is its own).
    pub(super) fn fill(
        &self,
        pixels: &mut [u8],
        (width, height): (u32, u32),
        rows: std::ops::Range<u32>,
        color: SolidColor,
        clip: Clip<'_>,
    ) {
        let Some([px0, py0, px1, py1]) = self.pixel_bounds() else {
            return;
        };
        let (px1, py1) = (px1.min(width as usize), py1.min(height as usize));
        let (py0, py1) = (py0.max(rows.start as usize), py1.min(rows.end as usize));
        if px0 >= px1 || color.is_transparent() {
            return;
        }
        let stride = width as usize;
        let mut clip_rows = rect::ClipRows::new(clip, width, height, px0, px1);
        let mut cov = vec![0u8; px1 - px0];
        let mut spans = Vec::new();
        // A row has the key of the row above unless an edge starts or ends within three
        // sub-rows of its first: only those rows are worked out again.
        let mut breaks: Vec<i32> = self.edges.iter().flat_map(|e| [e.top, e.bot]).collect();
        breaks.sort_unstable();
        let mut next_break = 0;
        let mut key = None;
        let mut row_key = [0u64; 4];
        for py in py0..py1 {
            let sy0 = py as i32 * 4;
            while next_break < breaks.len() && breaks[next_break] < sy0 - 3 {
                next_break += 1;
            }
            let changes = breaks.get(next_break).is_some_and(|&b| b <= sy0 + 3);
            if changes || key.is_none() {
                row_key = [
                    self.stretch(sy0),
                    self.stretch(sy0 + 1),
                    self.stretch(sy0 + 2),
                    self.stretch(sy0 + 3),
                ];
            }
            if key != Some(row_key) {
                cov.fill(0);
                for (s, &k) in row_key.iter().enumerate() {
                    if k == 0 {
                        continue;
                    }
                    spans.clear();
                    self.spans(sy0 + s as i32, &mut spans);
                    let max_value = if s == 3 { 63 } else { 64 };
                    for &(a, b) in &spans {
                        add_span(&mut cov, px0, a, b, max_value);
                    }
                }
                key = Some(row_key);
            }
            if row_key == [0; 4] {
                continue;
            }
            let Some(clip_row) = clip_rows.row(py) else {
                continue; // the clip hides the row
            };
            let row = py * stride;
            let px = &mut pixels[(row + px0) * 4..(row + px1) * 4];
            rect::blend_coverage(px, &cov, clip_row, color);
        }
    }
}

/// Adds span `[a, b)` of one sub-row (supersampled columns) to the coverage row `cov` that
/// starts at pixel `px0`, as `SuperBlitter::blit_h` and `AlphaRuns::add` do.
fn add_span(cov: &mut [u8], px0: usize, a: i32, b: i32, max_value: u16) {
    let mut add = |px: i32, v: u16| {
        let Some(c) = usize::try_from(px)
            .ok()
            .and_then(|p| p.checked_sub(px0))
            .and_then(|i| cov.get_mut(i))
        else {
            return;
        };
        let t = u16::from(*c) + v;
        *c = (t - (t >> 8)) as u8;
    };
    let (mut fb, mut fe) = (a & 3, b & 3);
    let mut n = (b >> 2) - (a >> 2) - 1;
    if n < 0 {
        fb = fe - fb;
        n = 0;
        fe = 0;
    } else if fb == 0 {
        n += 1;
    } else {
        fb = 4 - fb;
    }
    let mut x = a >> 2;
    if fb != 0 {
        add(x, fb as u16 * 16);
        x += 1;
    }
    for _ in 0..n {
        add(x, max_value);
        x += 1;
    }
    if fe != 0 {
        add(x, fe as u16 * 16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        /// Whole, half, quarter and arbitrary positions, some outside the bitmap.
        fn coord(&mut self, max: f32) -> f32 {
            let v = self.below(10_000) as f32 / 10_000.0 * (max + 8.0) - 4.0;
            match self.below(5) {
                0 => v.round(),
                1 => (v * 2.0).round() / 2.0,
                2 => (v * 4.0).round() / 4.0,
                _ => v,
            }
        }
        fn rect(&mut self, w: f32, h: f32) -> [f32; 4] {
            let (x0, x1) = (self.coord(w), self.coord(w));
            let (y0, y1) = (self.coord(h), self.coord(h));
            [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)]
        }
        fn pixmap(&mut self, w: u32, h: u32) -> tiny_skia::Pixmap {
            let mut p = tiny_skia::Pixmap::new(w, h).unwrap();
            for px in p.data_mut().chunks_exact_mut(4) {
                let a = self.below(256) as u8;
                for c in &mut px[..3] {
                    *c = self.below(u64::from(a) + 1) as u8;
                }
                px[3] = a;
            }
            p
        }
        fn color(&mut self) -> chart_spec::Rgba {
            chart_spec::Rgba {
                r: self.below(256) as u8,
                g: self.below(256) as u8,
                b: self.below(256) as u8,
                a: if self.below(2) == 0 {
                    255
                } else {
                    1 + self.below(255) as u8
                },
            }
        }
    }

    fn paint(c: chart_spec::Rgba) -> tiny_skia::Paint<'static> {
        tiny_skia::Paint {
            shader: tiny_skia::Shader::SolidColor(tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)),
            anti_alias: true,
            ..tiny_skia::Paint::default()
        }
    }

    /// Draws `path` both ways and compares; `false` when it was refused here.
    fn check(
        rng: &mut Rng,
        path: &tiny_skia::Path,
        w: u32,
        h: u32,
        clip: Option<[f32; 4]>,
        what: &str,
    ) -> bool {
        let Some(shape) = Rectilinear::of(path, w, h) else {
            return false;
        };
        let c = rng.color();
        let mut expected = rng.pixmap(w, h);
        let mut actual = expected.clone();
        let mask = clip.map(|r| {
            let mut m = tiny_skia::Mask::new(w, h).unwrap();
            rect::cover_mask(m.data_mut(), w, h, r);
            m
        });
        expected.fill_path(
            path,
            &paint(c),
            tiny_skia::FillRule::Winding,
            tiny_skia::Transform::identity(),
            mask.as_ref(),
        );
        let clip = clip.map_or(Clip::None, Clip::Rect);
        shape.fill(actual.data_mut(), (w, h), 0..h, SolidColor::new(c), clip);
        assert!(actual.data() == expected.data(), "{what}: colour {c:?}");
        true
    }

    /// Rings (an outer rectangle and a reversed inner one, as a bar's border is drawn),
    /// rectangles and crosses of two rectangles, with and without a rectangle clip, against
    /// tiny-skia's `fill_path`.
    #[test]
    fn rectilinear_fills_match_tiny_skia() {
        let (w, h) = (29u32, 23u32);
        let mut rng = Rng(0x51f1_5eed_1234_5678);
        let mut drawn = 0;
        for case in 0..6000 {
            let o = rng.rect(w as f32, h as f32);
            let mut pb = tiny_skia::PathBuilder::new();
            let Some(outer) = tiny_skia::Rect::from_ltrb(o[0], o[1], o[2], o[3]) else {
                continue;
            };
            pb.push_rect(outer);
            let inner = match case % 3 {
                // A ring: the inner rectangle inside the outer, drawn the other way round.
                0 | 1 => {
                    let t: [f32; 4] = std::array::from_fn(|_| rng.below(9) as f32 * 0.375);
                    let i = [o[0] + t[0], o[1] + t[1], o[2] - t[2], o[3] - t[3]];
                    if i[0] < i[2] && i[1] < i[3] {
                        pb.move_to(i[0], i[1]);
                        pb.line_to(i[0], i[3]);
                        pb.line_to(i[2], i[3]);
                        pb.line_to(i[2], i[1]);
                        pb.close();
                    }
                    i
                }
                // Another rectangle anywhere, the same way round: a union.
                _ => {
                    let i = rng.rect(w as f32, h as f32);
                    if let Some(r) = tiny_skia::Rect::from_ltrb(i[0], i[1], i[2], i[3]) {
                        pb.push_rect(r);
                    }
                    i
                }
            };
            let Some(path) = pb.finish() else { continue };
            let clip = (rng.below(2) == 0).then(|| rng.rect(w as f32, h as f32));
            if check(
                &mut rng,
                &path,
                w,
                h,
                clip,
                &format!("case {case}: {o:?} {inner:?} clip {clip:?}"),
            ) {
                drawn += 1;
            }
        }
        assert!(drawn > 5000, "only {drawn} cases were drawn here");
    }

    /// Rectangles stroked with miter joins (tiny-skia's stroker makes the ring), against
    /// tiny-skia's `stroke_path`.
    #[test]
    fn stroked_rectangles_match_tiny_skia() {
        let (w, h) = (31u32, 27u32);
        let mut rng = Rng(77);
        let mut drawn = 0;
        for case in 0..3000 {
            let r = rng.rect(w as f32, h as f32);
            let Some(rr) = tiny_skia::Rect::from_ltrb(r[0], r[1], r[2], r[3]) else {
                continue;
            };
            let stroke = tiny_skia::Stroke {
                width: 1.0 + rng.below(16) as f32 * 0.25,
                ..tiny_skia::Stroke::default()
            };
            let Some(outline) = tiny_skia::PathBuilder::from_rect(rr).stroke(&stroke, 1.0) else {
                continue;
            };
            let what = format!("case {case}: {r:?} width {}", stroke.width);
            if check(&mut rng, &outline, w, h, None, &what) {
                drawn += 1;
            }
        }
        assert!(drawn > 2500, "only {drawn} cases were drawn here");
    }

    #[test]
    fn curves_and_slants_are_refused() {
        let mut pb = tiny_skia::PathBuilder::new();
        pb.move_to(1.0, 1.0);
        pb.line_to(9.0, 5.0);
        pb.line_to(1.0, 9.0);
        pb.close();
        assert!(Rectilinear::of(&pb.finish().unwrap(), 20, 20).is_none());
        let mut pb = tiny_skia::PathBuilder::new();
        pb.move_to(1.0, 1.0);
        pb.quad_to(9.0, 1.0, 9.0, 9.0);
        pb.line_to(1.0, 9.0);
        pb.close();
        assert!(Rectilinear::of(&pb.finish().unwrap(), 20, 20).is_none());
    }
}
