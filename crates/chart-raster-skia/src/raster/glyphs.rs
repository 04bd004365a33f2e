//! Glyph masks kept between renders, and their blit.
//!
//! Text is drawn glyph by glyph from 8-bit coverage masks, as Skia draws text from its glyph
//! cache: a glyph's mask depends only on its outline, the device transform and where its
//! origin falls within a pixel (origins are on quarter pixels, see `outline_text`), so each
//! mask is covered once and reused by every label, tick and render after it. Covering
//! outlines was a third of a bar chart's time.

use super::coverage::Coverage;
use crate::text::GlyphId;
use chart_spec::Rgba;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Masks kept at most, and their bytes at most; past either the cache starts again (charts
/// use a few hundred glyphs, and only text up to 96 device px per em is cached).
const MAX_MASKS: usize = 4096;
const MAX_BYTES: usize = 16 << 20;

/// What a glyph mask depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct MaskKey {
    pub glyph: GlyphId,
    /// The linear part of the device transform, `[a, b, c, d]` (their bits).
    pub matrix: [u32; 4],
    /// The origin's position within its pixel, in quarter pixels (0..4), x and y.
    pub phase: (u8, u8),
}

/// A glyph's coverage, 0..=255 per pixel, placed relative to its origin's pixel.
#[derive(Debug)]
pub(super) struct GlyphMask {
    /// Offset of the mask's left column from the origin's pixel column.
    pub left: i32,
    /// Offset of the mask's top row from the baseline's pixel row.
    pub top: i32,
    pub width: usize,
    pub height: usize,
    pub alpha: Vec<u8>,
}

impl GlyphMask {
    /// A glyph without ink.
    pub(super) fn empty() -> GlyphMask {
        GlyphMask {
            left: 0,
            top: 0,
            width: 0,
            height: 0,
            alpha: Vec::new(),
        }
    }

    /// Covers a device-space outline around its origin's pixel, by exact area.
    pub(super) fn cover(path: &tiny_skia::Path) -> GlyphMask {
        let b = path.bounds();
        let (left, top) = (b.left().floor(), b.top().floor());
        let (w, h) = (
            (b.right() - left).ceil() + 1.0,
            (b.bottom() - top).ceil() + 1.0,
        );
        // A glyph larger than any bitmap is a broken font or size: nothing to keep.
        if !(w.is_finite() && h.is_finite() && w * h <= 16.0e6) {
            return GlyphMask::empty();
        }
        let shifted = path
            .clone()
            .transform(tiny_skia::Transform::from_translate(-left, -top));
        let Some(mut mask) = shifted.and_then(|p| Self::cover_within(&p, w as u32, h as u32))
        else {
            return GlyphMask::empty();
        };
        mask.left += left as i32;
        mask.top += top as i32;
        mask
    }

    /// Covers a device-space path by exact area within a `width × height` bitmap; `None`
    /// when none of it is inside.
    pub(super) fn cover_within(path: &tiny_skia::Path, width: u32, height: u32) -> Option<Self> {
        let cov = Coverage::of_path(path, width, height)?;
        let mut alpha = Vec::with_capacity(cov.width * cov.height);
        for y in 0..cov.height {
            // Coverage is kept to 8 bits like a FreeType glyph mask (rounded; it is >= 0).
            alpha.extend((0..cov.width).map(|x| (cov.at(x, y) * 255.0 + 0.5) as u8));
        }
        Some(GlyphMask {
            left: cov.x0,
            top: cov.y0,
            width: cov.width,
            height: cov.height,
            alpha,
        })
    }
}

/// Glyph masks shared by the renders of one engine.
#[derive(Default)]
pub struct GlyphCache {
    masks: Mutex<Masks>,
}

/// The masks, and their bytes.
#[derive(Default)]
struct Masks {
    map: HashMap<MaskKey, Arc<GlyphMask>>,
    bytes: usize,
}

impl GlyphCache {
    /// The mask for `key`, covered by `make` the first time.
    pub(super) fn get(&self, key: MaskKey, make: impl FnOnce() -> GlyphMask) -> Arc<GlyphMask> {
        if let Some(m) = self.lock().map.get(&key) {
            return m.clone();
        }
        // Covered outside the lock: another render may cover the same glyph meanwhile,
        // which costs a little work and changes nothing.
        let mask = Arc::new(make());
        let size = mask.alpha.len() + std::mem::size_of::<GlyphMask>();
        let mut masks = self.lock();
        if masks.map.len() >= MAX_MASKS || masks.bytes + size > MAX_BYTES {
            masks.map.clear();
            masks.bytes = 0;
        }
        if let Some(old) = masks.map.insert(key, mask.clone()) {
            masks.bytes -= old.alpha.len() + std::mem::size_of::<GlyphMask>();
        }
        masks.bytes += size;
        mask
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Masks> {
        // A panicked render cannot leave the map and its byte count apart: both change
        // after the mask is made, with nothing in between that can panic.
        self.masks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Masks kept now.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Bytes of the masks kept now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// Whether no mask is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Skia's text contrast and gamma as Chromium builds it for Linux (`SK_GAMMA_CONTRAST=0.2`,
/// `SK_GAMMA_EXPONENT=1.2`, used for both the paint and the device gamma).
const TEXT_CONTRAST: f32 = 0.2;
const TEXT_GAMMA: f32 = 1.2;

/// Bits of text luminance Skia keeps to choose a coverage table (`SkTMaskGamma<3, 3, 3>`).
const LUMINANCE_BITS: u32 = 3;

/// The coverage table ("pre-blend") Skia applies to a glyph mask drawn in `color`, by the
/// colour's luminance.
///
/// Skia does not blend glyph coverage as is: it maps each 8-bit coverage through a table
/// built for the text colour's luminance `s` and a guessed background `1 − s`, so that a
/// blend in the gamma-encoded bitmap lands where a blend in linear light (gamma 1.2) with a
/// little extra contrast would (`SkTMaskGamma_build_correcting_lut`). Black text comes out
/// lighter at its edges than its area coverage, white text heavier. Glyph masks of
/// Chromium's canvas text (grayscale anti-aliasing) all go through it.
pub(super) fn coverage_table(color: Rgba) -> &'static [u8; 256] {
    static TABLES: std::sync::OnceLock<Vec<[u8; 256]>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..1u32 << LUMINANCE_BITS)
            .map(|i| correcting_table(expand_luminance(i)))
            .collect()
    });
    // `SkComputeLuminance`, then the top bits of it.
    let (r, g, b) = (u32::from(color.r), u32::from(color.g), u32::from(color.b));
    let luminance = (r * 54 + g * 183 + b * 19) >> 8;
    let index = (luminance >> (8 - LUMINANCE_BITS)) as usize;
    &tables[index.min(tables.len() - 1)]
}

/// A luminance bucket back to 8 bits by repeating its bits (`sk_t_scale255`).
fn expand_luminance(i: u32) -> u32 {
    let mut v = 0;
    let mut shift = 8i32 - LUMINANCE_BITS as i32;
    while shift > -(LUMINANCE_BITS as i32) {
        v |= if shift >= 0 { i << shift } else { i >> -shift };
        shift -= LUMINANCE_BITS as i32;
    }
    v.min(255)
}

/// The table for a text of luminance `lum` (0..=255): coverage in, coverage to blend with
/// out.
fn correcting_table(lum: u32) -> [u8; 256] {
    let src = lum as f32 / 255.0;
    let to_linear = |v: f32| libm::powf(v, TEXT_GAMMA);
    let from_linear = |v: f32| libm::powf(v, 1.0 / TEXT_GAMMA);
    let lin_src = to_linear(src);
    // The background is guessed as the opposite luminance.
    let dst = 1.0 - src;
    let lin_dst = to_linear(dst);
    // The contrast boost fades out as the text gets lighter.
    let contrast = TEXT_CONTRAST * lin_dst;
    let mut table = [0u8; 256];
    for (i, out) in table.iter_mut().enumerate() {
        let raw = i as f32 / 255.0;
        let a = raw + (1.0 - raw) * contrast * raw;
        let v = if (src - dst).abs() < 1.0 / 256.0 {
            // Text and guessed background alike: only the contrast applies.
            a
        } else {
            let blended = from_linear(lin_src * a + (1.0 - a) * lin_dst);
            // The coverage whose plain blend from `dst` to `src` gives that.
            (blended - dst) / (src - dst)
        };
        *out = (v * 255.0).round().clamp(0.0, 255.0) as u8;
    }
    table
}

/// Blends the straight-alpha `color` through a glyph mask whose top-left pixel lands at
/// (`x`, `y`) on the premultiplied RGBA8 `pixels`, clipped to the bitmap's pixel rows `rows`
/// (all of them, or a painter's band) and by `clip` (one byte per pixel). `table` maps the
/// mask's coverage first ([`coverage_table`]).
///
/// Source-over with the coverage `a·k·m` (colour alpha, glyph coverage, clip), rounded to
/// the nearest level: `(c·X + d·(Q − X)) / Q` with `X = a·k·m` and `Q = 255³`, exact in
/// integers. Blink's text comes out this way, not through the low-precision pipeline's
/// biased `div255`: against the fixtures' reference text that one mismatches more.
#[allow(clippy::too_many_arguments)]
pub(super) fn blit(
    pixels: &mut [u8],
    width: u32,
    rows: std::ops::Range<u32>,
    mask: &GlyphMask,
    (x, y): (i32, i32),
    color: Rgba,
    clip: Option<&[u8]>,
    table: Option<&[u8; 256]>,
) {
    const Q: u32 = 255 * 255 * 255;
    // The straight colour, with alpha standing for a premultiplied channel of 255.
    let c = [color.r, color.g, color.b, 255].map(u32::from);
    let ca = u32::from(color.a);
    let (w, r0, r1) = (width as i64, i64::from(rows.start), i64::from(rows.end));
    let (x0, y0) = (x as i64, y as i64);
    let cols = (0.max(-x0)..(mask.width as i64).min(w - x0)).map(|c| c as usize);
    for row in 0..mask.height {
        let py = y0 + row as i64;
        if py < r0 || py >= r1 {
            continue;
        }
        let line = &mask.alpha[row * mask.width..(row + 1) * mask.width];
        for col in cols.clone() {
            let k = u32::from(table.map_or(line[col], |t| t[usize::from(line[col])]));
            if k == 0 {
                continue;
            }
            let i = (py * w + x0 + col as i64) as usize;
            let m = clip.map_or(255, |m| u32::from(m[i]));
            let cover = ca * k * m;
            if cover == 0 {
                continue;
            }
            let d = &mut pixels[i * 4..i * 4 + 4];
            for (d, c) in d.iter_mut().zip(c) {
                *d = ((c * cover + u32::from(*d) * (Q - cover) + Q / 2) / Q) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(glyph: u16) -> MaskKey {
        MaskKey {
            glyph: GlyphId {
                face: 0,
                glyph,
                size: 12f32.to_bits(),
                device_scale: None,
                italic: false,
                latin: true,
            },
            matrix: [1f32, 0.0, 0.0, 1.0].map(f32::to_bits),
            phase: (0, 0),
        }
    }

    fn mask(bytes: usize) -> GlyphMask {
        GlyphMask {
            left: 0,
            top: 0,
            width: bytes,
            height: 1,
            alpha: vec![1; bytes],
        }
    }

    /// Skia's text coverage tables at Chromium's Linux contrast and gamma: the ends stay,
    /// black text is lighter between them, white text heavier, and mid-gray text (bucket
    /// of `#666`, Chart.js's default colour) slightly heavier.
    #[test]
    fn coverage_tables_lighten_dark_text_and_thicken_light_text() {
        let black = coverage_table(Rgba::BLACK);
        let white = coverage_table(Rgba::WHITE);
        let gray = coverage_table(Rgba::rgb(102, 102, 102));
        for t in [black, white, gray] {
            assert_eq!((t[0], t[255]), (0, 255));
            assert!(t.windows(2).all(|w| w[0] <= w[1]), "monotonic");
        }
        // Black at area coverage 0.553 → 0.536, as Chromium draws Liberation Sans stems.
        assert_eq!(black[141], 137);
        assert!((1..255).all(|i| black[i] <= i as u8));
        assert!((1..255).all(|i| white[i] >= i as u8));
        assert!(white[128] > 140, "{}", white[128]);
        assert!(gray[128] > 128 && gray[128] < 136, "{}", gray[128]);
        assert_eq!(expand_luminance(7), 255);
        assert_eq!(expand_luminance(3), 109);
    }

    #[test]
    fn covers_once_and_stays_within_its_bytes() {
        let cache = GlyphCache::default();
        let mut made = 0;
        for _ in 0..3 {
            cache.get(key(1), || {
                made += 1;
                mask(10)
            });
        }
        assert_eq!(
            (made, cache.len()),
            (1, 1),
            "a kept mask is not covered again"
        );
        // Masks of 1 MiB each: the byte budget starts the cache again before it is passed.
        for g in 2..40 {
            cache.get(key(g), || mask(1 << 20));
            assert!(cache.bytes() <= MAX_BYTES, "{} bytes", cache.bytes());
        }
        assert!(cache.len() < 20);
    }
}
