//! The text-aware score: pixelmatch mismatches outside the text of the chart.
//!
//! Glyph rasterisation differs between any two text stacks (hinting, gamma, coverage), so a
//! chart with forty data labels can differ by 2% from glyphs alone and hide a bar that is
//! two pixels off. The text-aware score counts only the mismatched pixels that lie outside
//! every text box of the skia engine's scene, each box grown by [`TEXT_MARGIN`] CSS px
//! (dilated) so the fringe of a glyph drawn a subpixel away still counts as text.
//!
//! The boxes come from the skia scene's `fillText` items: the advance width measured by the
//! engine's text backend, the font's line height, anchored by the item's `textAlign` and
//! `textBaseline` and carried through its transform (rotated tick labels give the axis
//! aligned box of their rotated rectangle). Only the skia side's text is masked: a label
//! Chart.js draws somewhere the skia engine draws no text (a layout difference) still counts,
//! and so does a label the skia engine misplaces, at Chart.js's position.

use chart_raster_skia::scene::{Item, Scene, TextAlign, TextBaseline};
use chart_raster_skia::text::TextEngine;

/// How far, in CSS px, a text box is grown on each side.
pub const TEXT_MARGIN: f32 = 2.0;

/// Which device pixels are text: `width × height` booleans, row by row.
pub struct TextMask {
    width: u32,
    height: u32,
    text: Vec<bool>,
}

impl TextMask {
    /// The mask of `scene`'s text at its device pixel ratio, for a bitmap of `width ×
    /// height` device pixels.
    pub fn of_scene(scene: &Scene, text: &TextEngine, width: u32, height: u32) -> TextMask {
        let mut mask = TextMask {
            width,
            height,
            text: vec![false; width as usize * height as usize],
        };
        let dpr = scene.device_pixel_ratio.max(0.01);
        for item in &scene.items {
            let Item::Text(t) = item else { continue };
            let w = text.measure(&t.font, &t.text);
            let size = t.font.size;
            let left = match t.align {
                TextAlign::Left => 0.0,
                TextAlign::Center => -w / 2.0,
                TextAlign::Right => -w,
            };
            // The glyphs' extent around the anchor: ascent ~0.8 em above the alphabetic
            // baseline, descent ~0.25 em below.
            let top = match t.baseline {
                TextBaseline::Top | TextBaseline::Hanging => 0.0,
                TextBaseline::Middle => -size * 0.55,
                TextBaseline::Alphabetic => -size * 0.85,
                TextBaseline::Ideographic | TextBaseline::Bottom => -size * 1.1,
            };
            let (x0, y0) = (t.x + left, t.y + top);
            let (x1, y1) = (x0 + w, y0 + size * 1.15);
            let tr = &t.transform;
            let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                .map(|(x, y)| (tr.a * x + tr.c * y + tr.e, tr.b * x + tr.d * y + tr.f));
            let min_x = corners.iter().map(|c| c.0).fold(f32::INFINITY, f32::min);
            let max_x = corners
                .iter()
                .map(|c| c.0)
                .fold(f32::NEG_INFINITY, f32::max);
            let min_y = corners.iter().map(|c| c.1).fold(f32::INFINITY, f32::min);
            let max_y = corners
                .iter()
                .map(|c| c.1)
                .fold(f32::NEG_INFINITY, f32::max);
            mask.fill(
                (min_x - TEXT_MARGIN) * dpr,
                (min_y - TEXT_MARGIN) * dpr,
                (max_x + TEXT_MARGIN) * dpr,
                (max_y + TEXT_MARGIN) * dpr,
            );
        }
        mask
    }

    /// Marks the device pixels that meet the rectangle (clamped to the bitmap; NaN and
    /// infinite bounds mark nothing).
    fn fill(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) {
        if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            return;
        }
        let clamp = |v: f32, hi: u32| v.clamp(0.0, hi as f32) as usize;
        let (cx0, cx1) = (clamp(x0.floor(), self.width), clamp(x1.ceil(), self.width));
        let (cy0, cy1) = (
            clamp(y0.floor(), self.height),
            clamp(y1.ceil(), self.height),
        );
        let w = self.width as usize;
        for y in cy0..cy1 {
            self.text[y * w + cx0..y * w + cx1].fill(true);
        }
    }

    /// The share of the bitmap that is text.
    #[cfg(test)]
    fn coverage(&self) -> f64 {
        let n = self.text.iter().filter(|t| **t).count();
        n as f64 / self.text.len().max(1) as f64
    }

    /// Mismatched pixels outside the text over all pixels, from a pixelmatch diff image
    /// (counted differences are pure red, `[255, 0, 0]`).
    pub fn ratio_outside(&self, diff: &[u8]) -> f64 {
        let mut count = 0usize;
        for (i, px) in diff.chunks_exact(4).enumerate() {
            if px[..3] == [255, 0, 0] && !self.text.get(i).copied().unwrap_or(false) {
                count += 1;
            }
        }
        count as f64 / self.text.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_raster_skia::scene::{Paint, TextItem, Transform};
    use chart_spec::font::FontSpec;
    use chart_spec::Rgba;

    fn scene(items: Vec<Item>, dpr: f32) -> Scene {
        Scene {
            width: 100.0,
            height: 50.0,
            device_pixel_ratio: dpr,
            background: Rgba::TRANSPARENT,
            items,
        }
    }

    fn label(x: f32, y: f32, transform: Transform) -> Item {
        Item::Text(Box::new(TextItem {
            text: "Label".into(),
            x,
            y,
            font: FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Center,
            baseline: TextBaseline::Middle,
            direction: Default::default(),
            transform,
            stroke: None,
        }))
    }

    #[test]
    fn red_pixels_under_text_are_not_counted() {
        let text = TextEngine::system();
        let s = scene(vec![label(50.0, 25.0, Transform::IDENTITY)], 1.0);
        let mask = TextMask::of_scene(&s, &text, 100, 50);
        assert!(mask.coverage() > 0.02 && mask.coverage() < 0.5);
        let mut diff = vec![200u8; 100 * 50 * 4];
        // One red pixel on the label, one in the corner.
        for (x, y) in [(50usize, 25usize), (1, 1)] {
            diff[(y * 100 + x) * 4..][..3].copy_from_slice(&[255, 0, 0]);
        }
        assert_eq!(mask.ratio_outside(&diff), 1.0 / 5000.0);
    }

    #[test]
    fn the_mask_follows_the_pixel_ratio_and_the_transform() {
        let text = TextEngine::system();
        let s = scene(vec![label(50.0, 25.0, Transform::IDENTITY)], 2.0);
        let mask = TextMask::of_scene(&s, &text, 200, 100);
        assert!(mask.text[50 * 200 + 100], "the centre of the label at 2x");
        assert!(!mask.text[50 * 200 + 10]);
        // A label translated off the canvas masks nothing.
        let away = Transform {
            e: 1000.0,
            ..Transform::IDENTITY
        };
        let s = scene(vec![label(50.0, 25.0, away)], 1.0);
        assert_eq!(TextMask::of_scene(&s, &text, 100, 50).coverage(), 0.0);
    }
}
