//! Axis-aligned rectangles filled with a solid colour, bit for bit as tiny-skia's anti-aliased
//! path filler and its low-precision pipeline would fill them, for a fraction of the work.
//!
//! Grid lines, ticks, borders, bars and legend boxes are such rectangles and make up most of a
//! cartesian chart's pixels. tiny-skia runs each one through the 4× supersampler
//! (`SkScan_AntiPath`) and a chain of pipeline stages per 16 pixels; here the supersampler's
//! coverage is worked out per row and per column (for a rectangle it is separable) and the
//! blend is a plain loop the compiler vectorises.
//!
//! What the supersampler does with a rectangle (tiny-skia `scan/path_aa.rs`, `edge.rs`):
//! - An edge coordinate `v` becomes the supersampled integer `(trunc(v·256) + 32) >> 6`
//!   (the FDot6 conversion, then `fdot6::round`); sub-row `sy` is inside when
//!   `Y0 <= sy < Y1`, sub-column `sx` when `X0 <= sx < X1`.
//! - Each covered sub-row adds to a pixel `16` per covered sub-column when the pixel's
//!   columns are partly covered, and `64` (`63` on the pixel's last sub-row, so four rows
//!   make 255) when they are all covered.
//!
//! And what the pipeline then does with a coverage `c` (tiny-skia `pipeline/lowp.rs`,
//! `pipeline/blitter.rs`), on premultiplied 8-bit channels with `div255(v) = (v + 255) >> 8`:
//! - an opaque colour without a clip mask is drawn in `Source` mode: stored as is where
//!   `c = 255`, else `div255(d·(255 − c) + s·c)`;
//! - otherwise in `SourceOver` mode: the colour is scaled by the clip mask (`div255(s·m)`),
//!   then by the coverage when `c < 255`, then `s + div255(d·(255 − sa))`.
//!
//! The unit tests compare this with tiny-skia itself on random rectangles, colours and masks.

/// A solid colour as tiny-skia's uniform-colour stage holds it: premultiplied in floating
/// point, then each channel `(v·255 + 0.5)` truncated to an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SolidColor {
    rgba: [u16; 4],
}

impl SolidColor {
    pub(super) fn new(c: chart_spec::Rgba) -> Self {
        let p = tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a).premultiply();
        let q = |v: f32| (v * 255.0 + 0.5) as u16;
        Self {
            rgba: [q(p.red()), q(p.green()), q(p.blue()), q(p.alpha())],
        }
    }

    fn is_opaque(&self) -> bool {
        self.rgba[3] == 255
    }

    pub(super) fn is_transparent(&self) -> bool {
        self.rgba[3] == 0
    }
}

/// Skia's `div255` of the low-precision pipeline (an approximation, kept for identical bits).
#[inline(always)]
fn div255(v: u16) -> u16 {
    (v + 255) >> 8
}

/// The edges of the supersampled rectangle; `None` when the supersampler would not draw it.
fn super_edges(r: [f32; 4], width: u32, height: u32) -> Option<[i32; 4]> {
    let [x0, y0, x1, y1] = r;
    // tiny-skia refuses paths whose bounds are nearly zero wide or high (1/4096 px).
    const NEARLY_ZERO: f32 = 1.0 / 4096.0;
    if !(x1 - x0 > NEARLY_ZERO && y1 - y0 > NEARLY_ZERO) {
        return None;
    }
    // The edge clipper moves parts outside the bitmap onto its border; clamping the
    // coordinates first gives the same edges.
    let sup = |v: f32, max: u32| ((v.clamp(0.0, max as f32) * 256.0) as i32 + 32) >> 6;
    let e = [
        sup(x0, width),
        sup(y0, height),
        sup(x1, width),
        sup(y1, height),
    ];
    (e[0] < e[2] && e[1] < e[3]).then_some(e)
}

/// Whether [`fill`] can draw `r` on a `width × height` bitmap; otherwise the caller uses
/// tiny-skia's own filler (huge bitmaps are tiled there, huge coordinates refused).
pub(super) fn supported(r: [f32; 4], width: u32, height: u32) -> bool {
    const LIMIT: f32 = 1.0e7;
    width < 8192 && height < 8192 && r.iter().all(|v| v.abs() < LIMIT)
}

/// Coverage of one pixel row: how many sub-rows are inside, and whether the last one is.
#[derive(Clone, Copy)]
struct RowCover {
    rows: u16,
    last: bool,
}

impl RowCover {
    /// The cover of pixel row `py` by the sub-rows `[lo, hi)`.
    fn of(lo: i32, hi: i32, py: i32) -> Self {
        let rows = cover(lo, hi, py as usize);
        Self {
            rows,
            last: rows > 0 && hi >= py * 4 + 4,
        }
    }

    /// The coverage of a pixel whose columns are covered `cols` of 4.
    #[inline(always)]
    fn alpha(self, cols: u16) -> u16 {
        if cols == 4 {
            64 * self.rows - u16::from(self.last)
        } else {
            16 * cols * self.rows
        }
    }
}

/// The clip a rectangle is filled through.
#[derive(Debug, Clone, Copy)]
pub(super) enum Clip<'a> {
    /// Nothing clipped.
    None,
    /// A coverage mask, one byte per pixel of the bitmap.
    Mask(&'a [u8]),
    /// A rectangle clip whose mask was never built: its values are the ones
    /// [`cover_mask`] would write, worked out row by row.
    Rect([f32; 4]),
}

/// Fills the device rectangle `r` (x0, y0, x1, y1) on premultiplied RGBA8 `pixels` through
/// `clip`, on the pixel rows of `rows` only (each row's coverage is its own). Call only when
/// [`supported`].
pub(super) fn fill(
    pixels: &mut [u8],
    (width, height): (u32, u32),
    rows: std::ops::Range<u32>,
    r: [f32; 4],
    color: SolidColor,
    clip: Clip<'_>,
) {
    let Some(e) = super_edges(r, width, height) else {
        return;
    };
    let clip_edges = match clip {
        Clip::Rect(c) => match super_edges(c, width, height) {
            Some(ce) => Some(ce),
            None => return, // an empty clip shows nothing
        },
        _ => None,
    };
    let [sx0, sy0, sx1, sy1] = e;
    let (px0, px1) = ((sx0 >> 2) as usize, ((sx1 - 1) >> 2) as usize);
    let first_cols = cover(sx0, sx1, px0);
    let last_cols = cover(sx0, sx1, px1);
    let stride = width as usize;
    // The rectangle clip's mask over columns px0..=px1, for the last clip row cover seen.
    let mut clip_row: Vec<u8> = Vec::new();
    let mut clip_row_cover = None;
    let (py0, py1) = ((sy0 >> 2).max(rows.start as i32), ((sy1 - 1) >> 2) + 1);
    for py in py0..py1.min(rows.end as i32) {
        let row_cover = RowCover::of(sy0, sy1, py);
        let row = py as usize * stride;
        let mask_row: Option<&[u8]> = match (clip, clip_edges) {
            (Clip::Mask(m), _) => Some(&m[row + px0..=row + px1]),
            (_, Some([cx0, cy0, cx1, cy1])) => {
                let cc = RowCover::of(cy0, cy1, py);
                if cc.rows == 0 {
                    continue;
                }
                if clip_row_cover != Some((cc.rows, cc.last)) {
                    clip_row.clear();
                    clip_row.extend((px0..=px1).map(|px| cc.alpha(cover(cx0, cx1, px)) as u8));
                    clip_row_cover = Some((cc.rows, cc.last));
                }
                Some(&clip_row)
            }
            _ => None,
        };
        let mut blend = |a: usize, b: usize, alpha: u16| {
            let px = &mut pixels[(row + a) * 4..(row + b + 1) * 4];
            match mask_row {
                Some(m) => blend_masked(px, &m[a - px0..=b - px0], color, alpha),
                None => blend_span(px, color, alpha),
            }
        };
        // The row is its first column, the inner ones and its last; neighbours of equal
        // coverage blend as one span (a pixel-aligned grid line is one span per row).
        // Written out rather than merged in a loop: this runs for every row of every
        // rectangle, also in the debug build the service's tests use.
        let first = row_cover.alpha(first_cols);
        if px1 == px0 {
            blend(px0, px0, first);
            continue;
        }
        let last = row_cover.alpha(last_cols);
        if px1 == px0 + 1 {
            if first == last {
                blend(px0, px1, first);
            } else {
                blend(px0, px0, first);
                blend(px1, px1, last);
            }
            continue;
        }
        let inner = row_cover.alpha(4);
        let mut from = px0;
        if first != inner {
            blend(px0, px0, first);
            from = px0 + 1;
        }
        if last == inner {
            blend(from, px1, inner);
        } else {
            blend(from, px1 - 1, inner);
            blend(px1, px1, last);
        }
    }
}

/// The rows of a clip over the pixel columns `[px0, px1)`, for blending a shape row by row.
pub(super) struct ClipRows<'a> {
    clip: Clip<'a>,
    /// A rectangle clip's supersampled edges; `None` for an empty one.
    edges: Option<[i32; 4]>,
    px0: usize,
    px1: usize,
    stride: usize,
    /// A rectangle clip's row for the row cover in `built`.
    row: Vec<u8>,
    built: Option<(u16, bool)>,
}

impl<'a> ClipRows<'a> {
    pub(super) fn new(clip: Clip<'a>, width: u32, height: u32, px0: usize, px1: usize) -> Self {
        let edges = match clip {
            Clip::Rect(c) => super_edges(c, width, height),
            _ => None,
        };
        Self {
            clip,
            edges,
            px0,
            px1,
            stride: width as usize,
            row: Vec::new(),
            built: None,
        }
    }

    /// The clip's coverage over the columns on pixel row `py`: `Some(None)` when nothing is
    /// clipped, `None` when the clip hides the whole row.
    pub(super) fn row(&mut self, py: usize) -> Option<Option<&[u8]>> {
        match self.clip {
            Clip::None => Some(None),
            Clip::Mask(m) => {
                let row = py * self.stride;
                m.get(row + self.px0..row + self.px1).map(Some)
            }
            Clip::Rect(_) => {
                let [cx0, cy0, cx1, cy1] = self.edges?;
                let cc = RowCover::of(cy0, cy1, py as i32);
                if cc.rows == 0 {
                    return None;
                }
                if self.built != Some((cc.rows, cc.last)) {
                    self.row.clear();
                    self.row
                        .extend((self.px0..self.px1).map(|px| cc.alpha(cover(cx0, cx1, px)) as u8));
                    self.built = Some((cc.rows, cc.last));
                }
                Some(Some(&self.row))
            }
        }
    }
}

/// How many of pixel column (or row) `p`'s four sub-samples lie in `[lo, hi)`.
#[inline(always)]
fn cover(lo: i32, hi: i32, p: usize) -> u16 {
    let p = p as i32 * 4;
    (hi.min(p + 4) - lo.max(p)).max(0) as u16
}

/// Blends `color` at coverage `alpha` over a span of pixels without a clip mask. Kept out of
/// line, as [`blend_masked`]: inlined into [`fill`]'s rows (their one caller) they made its
/// row closure a call of its own, 0.65–1.1 M instructions more on the bar charts
/// (callgrind).
#[inline(never)]
fn blend_span(px: &mut [u8], color: SolidColor, alpha: u16) {
    if alpha == 0 {
        return;
    }
    let s = color.rgba;
    if !color.is_opaque() {
        source_over(px, scale(s, alpha));
    } else if alpha == 255 {
        // `Source` mode at full coverage: a memset.
        fill_pixels(px, s.map(|v| v as u8));
    } else {
        // `Source` mode at partial coverage: `div255(d·(255 − c) + s·c)`.
        let keep = 255 - alpha;
        let add = s.map(|v| v * alpha + 255);
        per_channel(px, add, |d, add| ((d * keep + add) >> 8) as u8);
    }
}

/// Stores the pixel `p` in every pixel of `px`, by doubling copies: `memcpy` does the work
/// in any build (a per-pixel loop costs hundreds of instructions a pixel in a debug build,
/// which the service's tests run: a sankey of 5,000 nodes fills 70M pixels of node).
pub(super) fn fill_pixels(px: &mut [u8], p: [u8; 4]) {
    if p.iter().all(|&v| v == p[0]) {
        px.fill(p[0]);
        return;
    }
    let Some(first) = px.get_mut(..4) else {
        return;
    };
    first.copy_from_slice(&p);
    let mut done = 4;
    while done < px.len() {
        let n = done.min(px.len() - done);
        px.copy_within(..n, done);
        done += n;
    }
}

/// Blends `color` over a row of pixels at the per-pixel coverage `cov` (a row of the
/// supersampler's mask), through the clip mask row `clip`: what the pipeline does with each
/// run of a scanline (`blit_anti_h`).
///
/// Eight pixels at a time: eight zero coverages are skipped, runs of eight whole ones are
/// blended as one span, and the covered pixels of any other group go through one formula
/// each.
/// The formulas need no case for 0 and 255: with `div255(v) = (v + 255) >> 8`,
/// `div255(v·255) = v` and `div255(d·255 + 0·s) = d` for every byte, so a coverage of 0
/// leaves the pixel as it is and 255 is the full-coverage blend.
///
/// `px` may run on past the row's last coverage (pixels of the same bitmap row): a short row
/// then blends its last group in place, those pixels read and written back as they are.
pub(super) fn blend_coverage(px: &mut [u8], cov: &[u8], clip: Option<&[u8]>, color: SolidColor) {
    let s = color.rgba;
    match clip {
        // A point marker's row: every group of eight through one formula (see `in_eights`).
        None if cov.len() <= SHORT_ROW => in_eights(px, cov, s, color.is_opaque()),
        // `Source` mode: full coverage stores the colour, partial `div255(d·(255 − c) + s·c)`.
        None if color.is_opaque() => {
            let solid = s.map(|v| v as u8);
            each_group(
                px,
                cov,
                None,
                |span| fill_pixels(span, solid),
                |p, c, _| source_pixel(p, s, solid, c),
                Some(|p: &mut [u8], c: &[u8]| source_eight(p, c, s)),
            );
        }
        // `SourceOver` of the colour scaled by the coverage.
        None => each_group(
            px,
            cov,
            None,
            |span| source_over(span, s),
            |p, c, _| source_over_pixel(p, scale(s, c)),
            Some(|p: &mut [u8], c: &[u8]| source_over_eight(p, c, s)),
        ),
        // `SourceOver` of the colour scaled by the clip mask, then by the coverage.
        Some(_) => each_group(
            px,
            cov,
            clip,
            |span| source_over(span, s),
            |p, c, m| source_over_pixel(p, s.map(|v| div255(div255(v * m) * c))),
            None::<fn(&mut [u8], &[u8])>,
        ),
    }
}

/// Rows of coverage up to this many pixels (a point marker's: 13 to 16 at radius 6, the
/// default `pointRadius` 3 at `devicePixelRatio` 2) blend in groups of eight, whatever
/// their values, by [`in_eights`].
const SHORT_ROW: usize = 32;

/// Each group of eight pixels of a short row that is not all zero blended through one
/// formula, `Source` when `opaque`, else `SourceOver`; the last few pixels padded to eight
/// with coverage 0, in place when `px` reaches that far (the caller may hand over pixels
/// past the row's last coverage: they are read and written back unchanged), else copied
/// out and back. Exact, because a coverage of 0 leaves a pixel as it is and 255 is the
/// full-coverage blend in both formulas (see [`blend_coverage`]). The sorting of
/// [`each_group`] (whole runs, zero groups, single pixels with a branch each) cost a
/// scatter chart's markers more than it saved on rows this short: a marker's row is one
/// group and a few pixels, and the few went through the per-pixel formula one by one.
#[inline(always)]
fn in_eights(px: &mut [u8], cov: &[u8], s: [u16; 4], opaque: bool) {
    let eight = |p: &mut [u8], c: &[u8]| {
        if opaque {
            source_eight(p, c, s);
        } else {
            source_over_eight(p, c, s);
        }
    };
    let n = cov.len().min(px.len() / 4);
    let whole = n / 8 * 8;
    for (p, c) in px[..whole * 4]
        .chunks_exact_mut(32)
        .zip(cov[..whole].chunks_exact(8))
    {
        if c != [0; 8] {
            eight(p, c);
        }
    }
    let rest = n - whole;
    if rest > 0 {
        let mut c = [0u8; 8];
        c[..rest].copy_from_slice(&cov[whole..n]);
        match px.get_mut(whole * 4..whole * 4 + 32) {
            Some(p) => eight(p, &c),
            None => {
                let mut p = [0u8; 32];
                p[..rest * 4].copy_from_slice(&px[whole * 4..n * 4]);
                eight(&mut p, &c);
                px[whole * 4..n * 4].copy_from_slice(&p[..rest * 4]);
            }
        }
    }
}

/// Eight pixels (32 bytes) of the `Source` blend at their coverages `cov`, 0 and 255
/// included (see [`blend_coverage`]): one loop over the bytes without a branch, which the
/// compiler turns into vector code (per pixel, a stroke's edge cost a branch and a pixel's
/// blend a covered byte).
#[inline(always)]
fn source_eight(px: &mut [u8], cov: &[u8], s: [u16; 4]) {
    let (Ok(px), Ok(cov)) = (<&mut [u8; 32]>::try_from(px), <&[u8; 8]>::try_from(cov)) else {
        return;
    };
    let (c, s) = lanes(cov, s);
    for k in 0..32 {
        px[k] = ((u16::from(px[k]) * (255 - c[k]) + s[k] * c[k] + 255) >> 8) as u8;
    }
}

/// Eight pixels of `SourceOver` of the colour scaled by their coverages, as
/// [`source_eight`] (`scale` at 255 keeps the colour, `div255(v·255) = v`).
#[inline(always)]
fn source_over_eight(px: &mut [u8], cov: &[u8], s: [u16; 4]) {
    let (Ok(px), Ok(cov)) = (<&mut [u8; 32]>::try_from(px), <&[u8; 8]>::try_from(cov)) else {
        return;
    };
    let (c, s) = lanes(cov, s);
    let mut sc = [0u16; 32];
    for k in 0..32 {
        sc[k] = div255(s[k] * c[k]);
    }
    let mut keep = [0u16; 32];
    for k in 0..32 {
        keep[k] = 255 - sc[k | 3];
    }
    for k in 0..32 {
        px[k] = (sc[k] + div255(u16::from(px[k]) * keep[k])) as u8;
    }
}

/// The coverages of eight pixels and the colour, one 16-bit lane per byte of the pixels.
#[inline(always)]
fn lanes(cov: &[u8; 8], s: [u16; 4]) -> ([u16; 32], [u16; 32]) {
    let (mut c, mut s32) = ([0u16; 32], [0u16; 32]);
    for k in 0..32 {
        c[k] = u16::from(cov[k / 4]);
        s32[k] = s[k % 4];
    }
    (c, s32)
}

/// One pixel of the `Source` blend at coverage `c`.
#[inline(always)]
fn source_pixel(p: &mut [u8], s: [u16; 4], solid: [u8; 4], c: u16) {
    if c == 255 {
        p.copy_from_slice(&solid);
        return;
    }
    let keep = 255 - c;
    for (d, s) in p.iter_mut().zip(s) {
        *d = ((*d as u16 * keep + s * c + 255) >> 8) as u8;
    }
}

/// One pixel of `SourceOver` of the premultiplied colour `s`.
#[inline(always)]
fn source_over_pixel(p: &mut [u8], s: [u16; 4]) {
    let keep = 255 - s[3];
    for (d, s) in p.iter_mut().zip(s) {
        *d = (s + div255(*d as u16 * keep)) as u8;
    }
}

/// Runs `whole` on each run of pixels whose coverage (and clip mask) is all 255, at least
/// eight long, and `pixel(p, coverage, mask)` on each covered pixel of the other groups of
/// eight that are not all zero (a row's stretch runs from its first ink to its last: a
/// ring's row, a radial grid circle, is mostly the empty inside), or `eight(pixels,
/// coverages)` on such a group whole when given.
#[inline(always)]
fn each_group(
    px: &mut [u8],
    cov: &[u8],
    clip: Option<&[u8]>,
    whole: impl Fn(&mut [u8]),
    pixel: impl Fn(&mut [u8], u16, u16),
    eight: Option<impl Fn(&mut [u8], &[u8])>,
) {
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
    let n = cov.len().min(px.len() / 4);
    let mask = |i: usize| clip.map_or(255, |m| u16::from(m[i]));
    // The coverage (and mask) of the eight pixels from `i`, the lowest byte first.
    let group = |i: usize| {
        let m = clip.map_or(u64::MAX, |m| word(&m[i..i + 8]));
        (word(&cov[i..i + 8]), m)
    };
    let whole_group = |i: usize| i + 8 <= n && group(i) == (u64::MAX, u64::MAX);
    let mut i = 0;
    while i + 8 <= n {
        let (w, m) = group(i);
        if w == 0 || m == 0 {
            i += 8;
            continue;
        }
        if w == u64::MAX && m == u64::MAX {
            let mut end = i + 8;
            while whole_group(end) {
                end += 8;
            }
            // The run goes on into the next group as far as its whole pixels go.
            if end + 8 <= n {
                let (w, m) = group(end);
                end += ((!w).trailing_zeros().min((!m).trailing_zeros()) / 8) as usize;
            }
            whole(&mut px[i * 4..end * 4]);
            i = end;
            continue;
        }
        // Whole pixels at the end of the group that a whole group follows start a run.
        let tail = ((!w).leading_zeros().min((!m).leading_zeros()) / 8) as usize;
        let stop = if tail > 0 && whole_group(i + 8) {
            i + 8 - tail
        } else {
            i + 8
        };
        match &eight {
            // Not with a run starting in it: a translucent blend must not be done twice.
            Some(eight) if stop == i + 8 => eight(&mut px[i * 4..stop * 4], &cov[i..stop]),
            _ => {
                for k in i..stop {
                    if cov[k] != 0 {
                        pixel(&mut px[k * 4..k * 4 + 4], u16::from(cov[k]), mask(k));
                    }
                }
            }
        }
        i = stop;
    }
    for k in i..n {
        if cov[k] != 0 {
            pixel(&mut px[k * 4..k * 4 + 4], u16::from(cov[k]), mask(k));
        }
    }
}

/// Reads the first and last pixel of each row of a small shape's box `[x0, y0, x1, y1]`
/// (device pixels, clamped to the `width × height` bitmap) before the shape is covered.
/// The loads do not depend on each other, so their cache misses overlap; the blend that
/// follows each pixel row of the supersampler would otherwise wait for each row's miss in
/// turn (on a scatter chart of 10,000 points the blend's pixel loads were two thirds of its
/// time: the markers land all over a 7.7 MB bitmap).
pub(super) fn touch_rows(px: &[u8], (width, height): (u32, u32), b: [f32; 4]) {
    /// Shapes of up to this many rows are touched (a point marker's; a larger shape's rows
    /// are far apart in time anyway).
    const MAX_ROWS: f32 = 48.0;
    let [x0, y0, x1, y1] = b;
    if !(y1 - y0 <= MAX_ROWS && x1 - x0 <= MAX_ROWS) {
        return;
    }
    let clamp = |v: f32, max: u32| v.clamp(0.0, max.saturating_sub(1) as f32) as usize;
    let (l, r) = (clamp(x0, width), clamp(x1, width));
    let (t, b) = (clamp(y0, height), clamp(y1, height));
    let stride = width as usize * 4;
    let mut acc = 0u8;
    for y in t..=b {
        let row = y * stride;
        acc ^= px.get(row + l * 4).copied().unwrap_or(0);
        acc ^= px.get(row + r * 4 + 3).copied().unwrap_or(0);
    }
    std::hint::black_box(acc);
}

/// The first and last non-zero bytes of a coverage row, if any: eight bytes at a time, the
/// byte within the first and last non-zero word found from its zero bits (the row of a
/// point marker is two to four words, and a byte-by-byte search within the end words cost
/// as much as the words).
pub(super) fn covered(cov: &[u8]) -> Option<(usize, usize)> {
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
    let whole = cov.len() / 8 * 8;
    let first = match cov[..whole].chunks_exact(8).position(|c| word(c) != 0) {
        Some(i) => i * 8 + (word(&cov[i * 8..i * 8 + 8]).trailing_zeros() / 8) as usize,
        None => whole + cov[whole..].iter().position(|&v| v != 0)?,
    };
    let last = match cov[whole..].iter().rposition(|&v| v != 0) {
        Some(k) => whole + k,
        None => {
            let i = cov[..whole].rchunks_exact(8).position(|c| word(c) != 0)?;
            let start = whole - (i + 1) * 8;
            start + 7 - (word(&cov[start..start + 8]).leading_zeros() / 8) as usize
        }
    };
    Some((first, last))
}

/// The colour at coverage `alpha` (tiny-skia's `scale_1_float`; full coverage keeps it).
#[inline(always)]
fn scale(s: [u16; 4], alpha: u16) -> [u16; 4] {
    if alpha == 255 {
        s
    } else {
        s.map(|v| div255(v * alpha))
    }
}

/// `SourceOver` of the premultiplied colour `s` over every pixel of `px`.
fn source_over(px: &mut [u8], s: [u16; 4]) {
    let keep = 255 - s[3];
    per_channel(px, s, |d, s| (s + div255(d * keep)) as u8);
}

/// Applies `f(channel, k[channel])` to every channel of every pixel, four pixels at a time so
/// the compiler turns it into vector code.
#[inline(always)]
fn per_channel(px: &mut [u8], k: [u16; 4], f: impl Fn(u16, u16) -> u8) {
    // Spelled out: `array::from_fn` costs 16 calls a span in a debug build.
    let [r, g, b, a] = k;
    let k16 = [r, g, b, a, r, g, b, a, r, g, b, a, r, g, b, a];
    let mut quads = px.chunks_exact_mut(16);
    for q in &mut quads {
        for (d, k) in q.iter_mut().zip(k16) {
            *d = f(*d as u16, k);
        }
    }
    for (i, d) in quads.into_remainder().iter_mut().enumerate() {
        *d = f(*d as u16, k[i % 4]);
    }
}

/// Blends `color` at coverage `alpha` over a span of pixels through the clip mask `mask`
/// (always `SourceOver`: tiny-skia keeps that mode whenever a mask is given). Runs of fully
/// opaque mask, the inside of a clip, blend as one span (`div255(s·255) = s`).
#[inline(never)]
fn blend_masked(px: &mut [u8], mask: &[u8], color: SolidColor, alpha: u16) {
    if alpha == 0 {
        return;
    }
    let mut i = 0;
    while i < mask.len() {
        let m = mask[i];
        let run = mask[i..].iter().take_while(|&&v| v == m).count();
        if m == 255 {
            source_over(&mut px[i * 4..(i + run) * 4], scale(color.rgba, alpha));
        } else if m != 0 {
            let s = scale(color.rgba.map(|v| div255(v * m as u16)), alpha);
            source_over(&mut px[i * 4..(i + run) * 4], s);
        }
        i += run;
    }
}

/// Covers the device rectangle `r` on a clip mask (one byte per pixel) that is all zero, as
/// tiny-skia's `Mask::fill_path` with anti-aliasing would: each pixel gets its coverage.
pub(super) fn cover_mask(mask: &mut [u8], width: u32, height: u32, r: [f32; 4]) {
    let Some([sx0, sy0, sx1, sy1]) = super_edges(r, width, height) else {
        return;
    };
    let (px0, px1) = ((sx0 >> 2) as usize, ((sx1 - 1) >> 2) as usize);
    let stride = width as usize;
    for py in (sy0 >> 2)..=((sy1 - 1) >> 2) {
        let cover_row = RowCover::of(sy0, sy1, py);
        let row = &mut mask[py as usize * stride..][..stride];
        row[px0] = cover_row.alpha(cover(sx0, sx1, px0)) as u8;
        row[px1] = cover_row.alpha(cover(sx0, sx1, px1)) as u8;
        if px1 > px0 + 1 {
            row[px0 + 1..px1].fill(cover_row.alpha(4) as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: deterministic test data without a dependency.
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
        fn coord(&mut self, max: f32) -> f32 {
            // Whole, quarter and arbitrary positions, some outside the bitmap.
            let v = self.below(10_000) as f32 / 10_000.0 * (max + 8.0) - 4.0;
            match self.below(4) {
                0 => v.round(),
                1 => (v * 4.0).round() / 4.0,
                _ => v,
            }
        }
    }

    fn random_pixmap(rng: &mut Rng, w: u32, h: u32) -> tiny_skia::Pixmap {
        let mut p = tiny_skia::Pixmap::new(w, h).unwrap();
        for px in p.data_mut().chunks_exact_mut(4) {
            let a = rng.below(256) as u8;
            for c in &mut px[..3] {
                *c = (rng.below(a as u64 + 1)) as u8;
            }
            px[3] = a;
        }
        p
    }

    fn random_color(rng: &mut Rng) -> chart_spec::Rgba {
        let a = match rng.below(3) {
            0 => 255,
            _ => 1 + rng.below(255) as u8,
        };
        chart_spec::Rgba {
            r: rng.below(256) as u8,
            g: rng.below(256) as u8,
            b: rng.below(256) as u8,
            a,
        }
    }

    #[test]
    fn matches_tiny_skia_fill_path() {
        let (w, h) = (23u32, 17u32);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..4000 {
            let mut a = random_pixmap(&mut rng, w, h);
            let (x0, x1) = (rng.coord(w as f32), rng.coord(w as f32));
            let (y0, y1) = (rng.coord(h as f32), rng.coord(h as f32));
            let r = [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)];
            let c = random_color(&mut rng);
            let mask = (rng.below(2) == 0).then(|| {
                let mut m = tiny_skia::Mask::new(w, h).unwrap();
                for v in m.data_mut() {
                    *v = match rng.below(4) {
                        0 => 0,
                        1 => 255,
                        _ => rng.below(256) as u8,
                    };
                }
                m
            });
            let mut b = a.clone();
            let paint = tiny_skia::Paint {
                shader: tiny_skia::Shader::SolidColor(tiny_skia::Color::from_rgba8(
                    c.r, c.g, c.b, c.a,
                )),
                anti_alias: true,
                ..tiny_skia::Paint::default()
            };
            if let Some(rect) = tiny_skia::Rect::from_ltrb(r[0], r[1], r[2], r[3]) {
                a.fill_path(
                    &tiny_skia::PathBuilder::from_rect(rect),
                    &paint,
                    tiny_skia::FillRule::Winding,
                    tiny_skia::Transform::identity(),
                    mask.as_ref(),
                );
            }
            assert!(supported(r, w, h));
            let clip = mask.as_ref().map_or(Clip::None, |m| Clip::Mask(m.data()));
            fill(b.data_mut(), (w, h), 0..h, r, SolidColor::new(c), clip);
            assert!(
                a.data() == b.data(),
                "case {case}: rect {r:?} colour {c:?} mask {}",
                mask.is_some()
            );
        }
    }

    #[test]
    fn mask_cover_matches_tiny_skia() {
        let (w, h) = (19u32, 13u32);
        let mut rng = Rng(42);
        for case in 0..2000 {
            let (x0, x1) = (rng.coord(w as f32), rng.coord(w as f32));
            let (y0, y1) = (rng.coord(h as f32), rng.coord(h as f32));
            let r = [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)];
            let mut a = tiny_skia::Mask::new(w, h).unwrap();
            if let Some(rect) = tiny_skia::Rect::from_ltrb(r[0], r[1], r[2], r[3]) {
                a.fill_path(
                    &tiny_skia::PathBuilder::from_rect(rect),
                    tiny_skia::FillRule::Winding,
                    true,
                    tiny_skia::Transform::identity(),
                );
            }
            let mut b = tiny_skia::Mask::new(w, h).unwrap();
            cover_mask(b.data_mut(), w, h, r);
            assert!(a.data() == b.data(), "case {case}: rect {r:?}");
        }
    }

    #[test]
    fn rectangle_clips_match_their_mask() {
        let (w, h) = (21u32, 15u32);
        let mut rng = Rng(7);
        let rect = |rng: &mut Rng| {
            let (x0, x1) = (rng.coord(w as f32), rng.coord(w as f32));
            let (y0, y1) = (rng.coord(h as f32), rng.coord(h as f32));
            [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)]
        };
        for case in 0..3000 {
            let (r, c) = (rect(&mut rng), rect(&mut rng));
            let color = SolidColor::new(random_color(&mut rng));
            let mut a = random_pixmap(&mut rng, w, h);
            let mut b = a.clone();
            let mut mask = vec![0u8; (w * h) as usize];
            cover_mask(&mut mask, w, h, c);
            fill(a.data_mut(), (w, h), 0..h, r, color, Clip::Mask(&mask));
            fill(b.data_mut(), (w, h), 0..h, r, color, Clip::Rect(c));
            assert!(a.data() == b.data(), "case {case}: rect {r:?} clip {c:?}");
        }
    }

    #[test]
    fn covered_finds_the_first_and_last_ink() {
        assert_eq!(covered(&[0; 19]), None);
        assert_eq!(covered(&[]), None);
        for len in 1..40 {
            for i in 0..len {
                for j in i..len {
                    let mut row = vec![0u8; len];
                    row[i] = 3;
                    row[j] = 255;
                    assert_eq!(covered(&row), Some((i, j)), "len {len}, ink at {i} and {j}");
                }
            }
        }
        // Sparse random rows against the byte-by-byte search.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..5000 {
            let len = rng.below(70) as usize;
            let row: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.below(6) == 0 {
                        rng.below(256) as u8
                    } else {
                        0
                    }
                })
                .collect();
            let naive = row
                .iter()
                .position(|&v| v != 0)
                .zip(row.iter().rposition(|&v| v != 0));
            assert_eq!(covered(&row), naive, "case {case}: {row:?}");
        }
    }

    /// A row of coverage, with and without a clip mask, blends as each pixel alone does
    /// through the span blends (one-pixel runs of `blit_anti_h`), for opaque and translucent
    /// colours: runs of 0 and 255 of every length and alignment, and values between.
    #[test]
    fn coverage_rows_blend_as_their_pixels() {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let row = |rng: &mut Rng, len: usize| -> Vec<u8> {
            let mut v = Vec::with_capacity(len);
            while v.len() < len {
                let run = 1 + rng.below(40) as usize;
                let value = match rng.below(4) {
                    0 => 0,
                    1 => 255,
                    _ => rng.below(256) as u8,
                };
                let random = rng.below(3) == 0;
                for _ in 0..run.min(len - v.len()) {
                    v.push(if random { rng.below(256) as u8 } else { value });
                }
            }
            v
        };
        for case in 0..2000 {
            let len = rng.below(140) as usize;
            let cov = row(&mut rng, len);
            let clip = (case % 3 == 0).then(|| row(&mut rng, len));
            let mut color = random_color(&mut rng);
            if case % 2 == 0 {
                color.a = 255;
            }
            let color = SolidColor::new(color);
            let px: Vec<u8> = (0..len * 4).map(|_| rng.below(256) as u8).collect();
            let mut expected = px.clone();
            for (k, &c) in cov.iter().enumerate() {
                let p = &mut expected[k * 4..k * 4 + 4];
                match &clip {
                    Some(m) => blend_masked(p, &m[k..=k], color, u16::from(c)),
                    None => blend_span(p, color, u16::from(c)),
                }
            }
            let mut actual = px;
            blend_coverage(&mut actual, &cov, clip.as_deref(), color);
            assert_eq!(actual, expected, "case {case}: {cov:?} {clip:?} {color:?}");
        }
    }

    /// Rows of a point marker's length and a little past (`in_eights`) blend as each pixel
    /// alone does, for every length: all zero, all whole, mixed, and random coverages, over
    /// random pixels, in opaque, translucent and fully transparent colours; the pixels just
    /// past the row, handed over or not, are left alone.
    #[test]
    fn short_rows_blend_as_their_pixels() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..6000 {
            let len = case % (SHORT_ROW + 9);
            let cov: Vec<u8> = (0..len)
                .map(|k| match (case / (SHORT_ROW + 9)) % 4 {
                    0 => 0,
                    1 => 255,
                    2 if k % 3 == 0 => 255,
                    2 if k % 3 == 1 => 0,
                    _ => rng.below(256) as u8,
                })
                .collect();
            let mut color = random_color(&mut rng);
            match case % 3 {
                0 => color.a = 255,
                1 if case % 7 == 0 => color.a = 0,
                _ => {}
            }
            let color = SolidColor::new(color);
            // Four pixels more than the row, to see that they stay as they are.
            let px: Vec<u8> = (0..(len + 4) * 4).map(|_| rng.below(256) as u8).collect();
            let mut expected = px.clone();
            for (k, &c) in cov.iter().enumerate() {
                blend_span(&mut expected[k * 4..k * 4 + 4], color, u16::from(c));
            }
            // With and without pixels after the row to blend the last group in place.
            let room = if case % 2 == 0 { 4 } else { 0 };
            let mut actual = px;
            blend_coverage(&mut actual[..(len + room) * 4], &cov, None, color);
            assert_eq!(
                actual, expected,
                "case {case}: {cov:?} {color:?} room {room}"
            );
        }
    }
}
