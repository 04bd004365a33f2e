//! Bounds on the numbers user options turn into geometry: the plugin chart types and the
//! bundled plugins clamp every size, offset and font here before drawing, so that no path or
//! glyph built from an absurd option (`1e308`, `NaN`) explodes in the rasteriser. It lives
//! with the elements, which controllers and plugins both use, so that no controller depends
//! on a plugin module.

use chart_spec::values::Font;
use std::borrow::Cow;

/// Largest pixel length taken from options (offsets, paddings, borders, radii, node widths):
/// far past any canvas, small enough that no path explodes in the rasteriser.
pub(crate) const MAX_PX: f64 = 1e5;

/// Largest font size drawn, px: a glyph mask stays about a megapixel.
pub(crate) const MAX_FONT_PX: f64 = 1_000.0;

/// `v` when finite, clamped to `lo..=hi`; `default` when not a number.
pub(crate) fn finite_in(v: f64, lo: f64, hi: f64, default: f64) -> f64 {
    if v.is_finite() {
        v.clamp(lo, hi)
    } else {
        default
    }
}

/// A dash list as `setLineDash` takes it, each entry at most [`MAX_PX`]: empty (solid) when
/// an entry is negative or not finite (the canvas ignores such a list) or when every entry is
/// zero (a dasher would never advance).
pub(crate) fn bounded_dash(dash: &[f64]) -> Vec<f64> {
    let valid = dash.iter().all(|d| d.is_finite() && *d >= 0.0);
    if valid && dash.iter().any(|&d| d > 0.0) {
        dash.iter().map(|&d| d.min(MAX_PX)).collect()
    } else {
        Vec::new()
    }
}

/// `font` with its size at most [`MAX_FONT_PX`] and a finite line height (borrowed when it
/// already is).
pub(crate) fn bounded_font(font: &Font) -> Cow<'_, Font> {
    let size_ok = font.size.is_finite() && (0.0..=MAX_FONT_PX).contains(&font.size);
    let lh_ok = font.line_height.is_finite() && font.line_height.abs() <= MAX_PX;
    if size_ok && lh_ok {
        return Cow::Borrowed(font);
    }
    let mut f = font.clone();
    f.size = finite_in(f.size, 0.0, MAX_FONT_PX, 12.0);
    f.line_height = finite_in(f.line_height, -MAX_PX, MAX_PX, f.size * 1.2);
    f.spec.size = f.size as f32;
    f.spec.line_height = f.line_height as f32;
    Cow::Owned(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_fonts_are_bounded_and_sane_ones_borrowed() {
        let sane = Font::default();
        assert!(matches!(bounded_font(&sane), Cow::Borrowed(_)));
        let huge = Font {
            size: 1e308,
            line_height: f64::INFINITY,
            ..Font::default()
        };
        let b = bounded_font(&huge);
        assert_eq!(b.size, MAX_FONT_PX);
        assert_eq!(b.line_height, MAX_FONT_PX * 1.2);
        assert_eq!(b.spec.size, 1_000.0);
        assert_eq!(finite_in(f64::NAN, 0.0, 1.0, 0.5), 0.5);
        assert_eq!(finite_in(-1e308, -MAX_PX, MAX_PX, 0.0), -MAX_PX);
    }
}
