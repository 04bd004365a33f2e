//! Text: font discovery, measuring and glyphs, with no rasteriser types.
//!
//! Layout asks [`TextEngine::measure`] for `ctx.measureText(s).width`; the rasteriser asks
//! for glyphs. TODO(text owner): fontconfig-like discovery, bundled fallback, per-glyph
//! fallback, the sprite backend behind the `sprite-text` feature.

use chart_spec::font::FontSpec;

/// The text backend of an engine.
pub enum TextEngine {
    /// Real fonts found on the machine, with a bundled last resort.
    System,
}

impl TextEngine {
    /// Discovers the fonts installed on this machine.
    pub fn system() -> Self {
        TextEngine::System
    }

    /// `ctx.measureText(text).width` for this font, CSS px.
    pub fn measure(&self, font: &FontSpec, text: &str) -> f32 {
        // Placeholder until real fonts land: an average Helvetica advance.
        text.chars().count() as f32 * font.size * 0.55
    }
}
