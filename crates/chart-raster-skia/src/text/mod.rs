//! Text: font discovery, measuring and glyph outlines, with no rasteriser types.
//!
//! Layout asks [`TextEngine::measure`] for `ctx.measureText(s).width`; the rasteriser asks
//! [`TextEngine::shape`] for the outlines of a line, already placed on its baseline.

mod autohint;
mod discovery;
mod fontconfig;
pub mod fonts;
mod hinting;
mod shaping;
#[cfg(feature = "sprite-text")]
pub mod sprite;

use crate::scene::{Path, TextAlign, TextBaseline};
use chart_spec::font::FontSpec;

/// The text backend of an engine.
pub enum TextEngine {
    /// Real fonts found on the machine, with a bundled last resort.
    System(fonts::FontDb),
    /// The fixtures harness's bitmap font (test support only).
    #[cfg(feature = "sprite-text")]
    Sprite(sprite::SpriteFont),
}

/// A line of text as outlines, in CSS px, the pen starting at (0, 0) on the alphabetic
/// baseline, y down.
#[derive(Debug, Clone, Default)]
pub struct ShapedLine {
    /// The glyphs, left to right.
    pub glyphs: Vec<ShapedGlyph>,
    /// The advance width (`measureText().width`).
    pub width: f32,
    /// Offsets of the canvas baselines below the alphabetic one (negative is up).
    pub baselines: Baselines,
    /// Extra outline stroke width for the glyphs of a synthesized bold face (0 when none).
    pub embolden: f32,
}

impl ShapedLine {
    /// Where the pen starts relative to a `fillText` anchor, CSS px: the line moved left by
    /// `textAlign` (none, half or all of its advance) and up to the `textBaseline` chosen, as
    /// canvas places text. The rasteriser and the vector writers place text by it.
    pub fn anchor_offset(&self, align: TextAlign, baseline: TextBaseline) -> (f32, f32) {
        let dx = match align {
            TextAlign::Left => 0.0,
            TextAlign::Center => -self.width / 2.0,
            TextAlign::Right => -self.width,
        };
        let b = self.baselines;
        let dy = -match baseline {
            TextBaseline::Alphabetic => 0.0,
            TextBaseline::Top => b.top,
            TextBaseline::Hanging => b.hanging,
            TextBaseline::Middle => b.middle,
            TextBaseline::Ideographic => b.ideographic,
            TextBaseline::Bottom => b.bottom,
        };
        (dx, dy)
    }
}

/// One glyph: its outline in CSS px around its origin (y down), and the origin's x.
#[derive(Debug, Clone, Default)]
pub struct ShapedGlyph {
    /// Pen position of the glyph origin on the baseline.
    pub x: f32,
    /// Offset of the origin below the baseline (marks placed by the shaper), CSS px.
    pub y: f32,
    /// Whether the glyph's face is emboldened by [`ShapedLine::embolden`] (a regular face
    /// drawn for bold text).
    pub synthetic_bold: bool,
    /// The outline, filled with the non-zero rule; shared by every occurrence of the glyph
    /// in the line (a long string repeats a few glyphs: one copy each, not one per letter).
    pub path: std::sync::Arc<Path>,
    /// Everything the outline depends on: equal ids, equal outlines (the rasteriser keeps
    /// glyph masks by it).
    pub id: Option<GlyphId>,
}

/// A glyph outline's identity: the face and glyph, and how it was scaled and grid-fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GlyphId {
    /// The face, as numbered by the process-wide font catalogue.
    pub face: usize,
    /// The glyph in the face.
    pub glyph: u16,
    /// The font size, CSS px (its bits).
    pub size: u32,
    /// The device scale the outline was grid-fitted for (its bits), if any.
    pub device_scale: Option<u32>,
    /// Synthetic italic skew.
    pub italic: bool,
    /// Whether the Latin blue zones fitted it.
    pub latin: bool,
}

/// Where each `textBaseline` lies relative to the alphabetic baseline, px, y down.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Baselines {
    /// `top`.
    pub top: f32,
    /// `hanging`.
    pub hanging: f32,
    /// `middle`.
    pub middle: f32,
    /// `ideographic`.
    pub ideographic: f32,
    /// `bottom`.
    pub bottom: f32,
}

impl TextEngine {
    /// Discovers the fonts installed on this machine (lazily: files are read on first use).
    pub fn system() -> Self {
        TextEngine::System(fonts::FontDb::system())
    }

    /// The harness's sprite font from a folder holding `sprite.json` and `characters.png`.
    #[cfg(feature = "sprite-text")]
    pub fn sprite(dir: &std::path::Path) -> Result<Self, sprite::SpriteError> {
        sprite::SpriteFont::load(dir).map(TextEngine::Sprite)
    }

    /// `ctx.measureText(text).width` for this font, CSS px.
    pub fn measure(&self, font: &FontSpec, text: &str) -> f32 {
        match self {
            TextEngine::System(db) => db.measure(font, text),
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(sprite) => sprite.measure(text),
        }
    }

    /// Whether `fillText(text, x, y, maxWidth)` condenses wider text, as a canvas does. The
    /// fixtures' sprite `fillText` takes no `maxWidth`, so it never condenses.
    pub fn honours_max_width(&self) -> bool {
        match self {
            TextEngine::System(_) => true,
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(_) => false,
        }
    }

    /// What `fillText(undefined)` prints: a canvas converts the value to "undefined"; the
    /// fixtures' sprite `measureText`/`fillText` iterate over `undefined.length` and draw
    /// nothing.
    pub fn undefined_text(&self) -> &'static str {
        match self {
            TextEngine::System(_) => "undefined",
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(_) => "",
        }
    }

    /// The font file holding the face [`GlyphId::face`] names, and the face's index in it
    /// (system fonts only): the PDF writer embeds it.
    pub fn face_data(&self, face: usize) -> Option<(&'static [u8], u32)> {
        match self {
            TextEngine::System(db) => db.face_data(face),
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(_) => None,
        }
    }

    /// The outlines of one line of text (system fonts only; `None` for the sprite backend).
    ///
    /// With `device_scale` (device pixels per CSS px of unrotated text), outlines are
    /// grid-fitted vertically for that pixel size the way FreeType's light auto-hinter does
    /// in Chrome on Linux; without it they are the exact outlines (rotated text).
    /// `rtl` is the canvas `direction` (the base direction of the bidi algorithm).
    pub fn shape(
        &self,
        font: &FontSpec,
        text: &str,
        device_scale: Option<f32>,
        rtl: bool,
    ) -> Option<ShapedLine> {
        match self {
            TextEngine::System(db) => Some(db.shape(font, text, device_scale, rtl)),
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(_) => None,
        }
    }
}
