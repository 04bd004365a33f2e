//! Vector output: the same [`Scene`](crate::scene::Scene) the rasteriser draws, written as SVG ([`svg`]) or PDF
//! (`pdf`) instead of pixels. The writers read only the scene (and the text engine, for the
//! glyphs of its text items), never the chart config, so the vector files show what the PNG
//! shows.
//!
//! Units: 1 CSS px of the canvas is 1 SVG user unit and 0.75 pt in the PDF (96 px per inch);
//! the page is the canvas's CSS size. The device pixel ratio sizes only bitmaps: a vector
//! file of a request at `devicePixelRatio: 2` has the same size as at 1 (its scene is the one
//! the PNG of that request is drawn from, where Chart.js aligns some lines to half pixels).
//!
//! Geometry passes through the rasteriser's guard (`raster::guard`) first, so a
//! coordinate of 1e30 reaches no viewer: non-finite commands are dropped and far geometry is
//! moved onto a box around the canvas, as for the PNG. Each writer's output is linear in the
//! scene's size (whose items `MAX_SCENE_ITEMS` bounds): one element per item, glyph outlines
//! written once per glyph and size, glyphs far off the page left out.
pub mod pdf;
pub mod svg;

use crate::scene::{Stroke, TextDirection, TextItem, Transform};
use crate::text::{ShapedGlyph, ShapedLine, TextEngine};

/// Which vector format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorFormat {
    /// SVG 1.1 (`image/svg+xml`).
    Svg,
    /// PDF (`application/pdf`).
    Pdf,
}

/// A vector file and the messages of its render.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The file.
    pub bytes: Vec<u8>,
    /// Problems found in the config (the chart is still drawn).
    pub messages: Vec<chart_spec::Message>,
}

/// Why a vector file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum VectorError {
    /// The render was cancelled while the file was written.
    #[error("render cancelled")]
    Cancelled,
    /// The PDF could not be written (a page without size, or krilla refused the document).
    #[error("cannot write the PDF: {0}")]
    Pdf(String),
    /// The PDF page needs more drawing work than `MAX_PDF_CONTENT` (the limit given).
    #[error("the PDF needs more content than the limit of {0} (MAX_PDF_CONTENT)")]
    OverBudget(usize),
    /// The SVG document grew past `MAX_SVG_BYTES` (the limit given).
    #[error("the SVG needs more bytes than the limit of {0} (MAX_SVG_BYTES)")]
    TooLarge(usize),
}

/// Items written between polls of the render's stop signal.
const POLL_EVERY: usize = 64;

/// One text item shaped and anchored: its glyphs (those that can reach the page) and where
/// the line's pen starts, in the item's coordinate space.
pub(crate) struct PlacedText {
    /// The shaped line (glyph outlines in CSS px around each glyph origin, y down).
    pub line: ShapedLine,
    /// The indices into `line.glyphs` of the glyphs drawn.
    pub visible: Vec<usize>,
    /// The pen's start on the alphabetic baseline, item space.
    pub x: f32,
    /// The alphabetic baseline, item space.
    pub y: f32,
}

impl PlacedText {
    /// The drawn glyphs.
    pub fn glyphs(&self) -> impl Iterator<Item = &ShapedGlyph> {
        self.visible.iter().filter_map(|&i| self.line.glyphs.get(i))
    }
}

/// Shapes a text item with exact outlines (no grid fitting: a vector file has no pixel grid)
/// and anchors it as the rasteriser does (`outline_text`: `textAlign` shifts by the advance
/// width, `textBaseline` by the font's baselines). Glyphs whose origin lies farther than a
/// few ems (plus the stroke) off the page are left out, as the rasteriser leaves them out of
/// its path: a 5 MB title writes only what can be seen. `None` when nothing is drawn.
pub(crate) fn place_text(
    item: &TextItem,
    text: &TextEngine,
    page: (f32, f32),
) -> Option<PlacedText> {
    if item.text.is_empty() {
        return None;
    }
    let rtl = item.direction == TextDirection::Rtl;
    let line = text.shape(&item.font, &item.text, None, rtl)?;
    let (dx, dy) = line.anchor_offset(item.align, item.baseline);
    let (x, y) = (item.x + dx, item.y + dy);
    let t = item.transform;
    if ![x, y, t.a, t.b, t.c, t.d, t.e, t.f, item.font.size]
        .iter()
        .all(|v| v.is_finite())
    {
        return None;
    }
    let scale = max_scale(t);
    let reach = 4.0 * item.font.size * scale
        + item
            .stroke
            .as_ref()
            .map_or(0.0, |(s, _)| s.width.abs() * scale)
        + line.embolden * scale;
    let visible: Vec<usize> = (0..line.glyphs.len())
        .filter(|&i| {
            let (gx, gy) = t.apply(x + line.glyphs[i].x, y);
            !reach.is_finite()
                || (gx >= -reach && gx <= page.0 + reach && gy >= -reach && gy <= page.1 + reach)
        })
        .collect();
    if visible.is_empty() {
        return None;
    }
    Some(PlacedText {
        line,
        visible,
        x,
        y,
    })
}

/// The largest factor by which `t` stretches a length (0 when not finite).
pub(crate) fn max_scale(t: Transform) -> f32 {
    let s = libm::sqrtf(t.a * t.a + t.b * t.b).max(libm::sqrtf(t.c * t.c + t.d * t.d));
    if s.is_finite() {
        s
    } else {
        0.0
    }
}

/// The dash pattern a canvas strokes with, made even (an odd list repeats, HTML
/// `setLineDash`); `None` for a solid line (empty, a negative or non-finite entry, or all
/// zeros), as the rasteriser's `stroke_style`.
pub(crate) fn dash_pattern(s: &Stroke) -> Option<Vec<f32>> {
    if s.dash.is_empty() || s.dash.iter().any(|d| !d.is_finite() || *d < 0.0) {
        return None;
    }
    let mut list = s.dash.clone();
    if list.len() % 2 == 1 {
        list.extend_from_within(..);
    }
    (list.iter().sum::<f32>() > 0.0).then_some(list)
}

/// Whether a stroke draws anything: canvas ignores a `lineWidth` of 0, negative or NaN.
pub(crate) fn strokes(s: &Stroke) -> bool {
    s.width.is_finite() && s.width > 0.0
}

/// Whether every coefficient of a transform is finite (an item under a broken transform is
/// not drawn, as canvas ignores `setTransform` with a non-finite argument).
pub(crate) fn finite(t: &Transform) -> bool {
    [t.a, t.b, t.c, t.d, t.e, t.f].iter().all(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_dashes_repeat_and_broken_ones_are_solid() {
        let s = |dash: Vec<f32>| Stroke {
            dash,
            ..Stroke::default()
        };
        assert_eq!(dash_pattern(&s(vec![4.0])), Some(vec![4.0, 4.0]));
        assert_eq!(dash_pattern(&s(vec![2.0, 3.0])), Some(vec![2.0, 3.0]));
        assert_eq!(dash_pattern(&s(vec![2.0, -1.0])), None);
        assert_eq!(dash_pattern(&s(vec![0.0, 0.0])), None);
        assert_eq!(dash_pattern(&s(vec![f32::NAN])), None);
        assert_eq!(dash_pattern(&s(vec![])), None);
    }
}
