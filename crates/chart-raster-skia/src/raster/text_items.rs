//! Text items on the bitmap: glyph outlines shaped by [`crate::text`], drawn from cached
//! coverage masks ([`super::glyphs`]) or covered by exact area, and the fixtures' sprite
//! text.

use super::convert::{build_path, device_paint};
use super::glyphs;
use super::guard;
use super::painter::Painter;
use crate::scene::{Paint, Path, Stroke, TextDirection, TextItem, Transform};
#[cfg(feature = "sprite-text")]
use crate::scene::{TextAlign, TextBaseline};
use crate::text::TextEngine;
use chart_spec::Rgba;

/// Appends a glyph's outline to `path`, mapped by `t` (its origin lands on `(t.e, t.f)`).
fn glyph_outline(path: &mut Path, glyph: &crate::text::ShapedGlyph, t: Transform) {
    path.cmds.extend(
        glyph
            .path
            .cmds
            .iter()
            .map(|cmd| cmd.map(|x, y| t.apply(x, y))),
    );
}

impl Painter<'_> {
    pub(super) fn text(&mut self, item: &TextItem) {
        if item.text.is_empty() {
            return;
        }
        match self.text {
            TextEngine::System(_) => self.outline_text(item),
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(sprite) => self.sprite_text(item, sprite),
        }
    }

    fn outline_text(&mut self, item: &TextItem) {
        let t = self.base.then(item.transform);
        let axis_aligned = t.b == 0.0 && t.c == 0.0 && t.a > 0.0 && t.d > 0.0;
        let hint = axis_aligned.then_some(t.d);
        let rtl = item.direction == TextDirection::Rtl;
        let Some(line) = self.text.shape(&item.font, &item.text, hint, rtl) else {
            return;
        };
        let (dx, dy) = line.anchor_offset(item.align, item.baseline);
        let (ox, oy) = (item.x + dx, item.y + dy);
        // Skia's glyph placement (subpixel positioning rounds `v + 1/8` down to a multiple
        // of 1/4): unrotated text has its baseline on whole device pixels and each glyph
        // origin on a quarter pixel; under a rotation both coordinates take quarter pixels
        // (`SkGlyphPositionRoundingSpec` for no axis alignment).
        let quarter = |v: f32| ((v + 0.125) * 4.0).floor() / 4.0;
        let snap = |glyph_x: f32, glyph_y: f32| {
            let (x, y) = t.apply(ox + glyph_x, oy + glyph_y);
            if axis_aligned {
                (quarter(x), (y + 0.5).floor())
            } else {
                (quarter(x), quarter(y))
            }
        };
        // Glyphs over this many device pixels per em are covered afresh each time: large
        // text is rare, and its masks would crowd the cache.
        const MAX_CACHED_EM: f32 = 96.0;
        // Skia's largest glyph mask (`SkStrikeCommon::kSkSideTooBigForAtlas`).
        const MAX_MASK_EM: f32 = 256.0;
        let dev_scale = (t.a * t.d - t.b * t.c).abs().sqrt();
        let em = item.font.size * dev_scale;
        let cacheable = em.is_finite() && em <= MAX_CACHED_EM;
        if cacheable && item.stroke.is_none() && line.embolden == 0.0 {
            if let Paint::Solid(c) = item.paint {
                if line.glyphs.iter().all(|g| g.id.is_some()) {
                    self.glyph_masks(&line, snap, t, c);
                    return;
                }
            }
        }
        // Glyphs whose origin is farther than a few ems (plus the stroke) off the bitmap
        // cannot reach it: a long string's outlines past the edge are left out of the path.
        let reach = 4.0 * em
            + item
                .stroke
                .as_ref()
                .map_or(0.0, |(s, _)| s.width * dev_scale);
        let guard::Canvas {
            width: pw,
            height: ph,
        } = self.canvas();
        let mut path = Path::new();
        // The glyphs of a synthesized bold face, stroked by `embolden` after the fill.
        let mut bold = Path::new();
        for glyph in &line.glyphs {
            let (x, y) = snap(glyph.x, glyph.y);
            if reach.is_finite()
                && !(x >= -reach && x <= pw + reach && y >= -reach && y <= ph + reach)
            {
                continue;
            }
            glyph_outline(&mut path, glyph, Transform { e: x, f: y, ..t });
            if glyph.synthetic_bold {
                glyph_outline(&mut bold, glyph, Transform { e: x, f: y, ..t });
            }
        }
        // The path is in device space now.
        let device = Transform::IDENTITY;
        if let Some((stroke, p)) = &item.stroke {
            let s = Stroke {
                width: stroke.width * dev_scale,
                dash: stroke.dash.iter().map(|d| d * dev_scale).collect(),
                dash_offset: stroke.dash_offset * dev_scale,
                ..stroke.clone()
            };
            self.stroke(&path, &device_paint(p, t), &s, device);
        }
        let fill = device_paint(&item.paint, t);
        match (&fill, build_path(&path)) {
            // Glyphs are covered by exact area, as FreeType's smooth rasteriser makes
            // Chrome's glyph masks (shapes keep Skia's supersampling, see the module docs).
            // Against Chromium's Chart.js renders this cut text mismatches by 10–25%.
            // Skia draws glyphs up to 256 device px per em from masks, through the text
            // coverage table; larger ones as paths, without it.
            (Paint::Solid(c), Some(dp)) => {
                let table = (em <= MAX_MASK_EM).then(|| glyphs::coverage_table(*c));
                self.fill_exact(&dp, *c, table)
            }
            _ => self.fill(&path, &fill, device),
        }
        if line.embolden > 0.0 {
            let s = Stroke {
                width: line.embolden * dev_scale,
                ..Stroke::default()
            };
            self.stroke(&bold, &fill, &s, device);
        }
    }

    /// Draws glyphs from their cached masks (see [`glyphs`]), each origin placed by `snap`
    /// on quarter pixels, the outline mapped by the linear part of `t`.
    fn glyph_masks(
        &mut self,
        line: &crate::text::ShapedLine,
        snap: impl Fn(f32, f32) -> (f32, f32),
        t: Transform,
        c: Rgba,
    ) {
        if c.a == 0 {
            return;
        }
        let table = glyphs::coverage_table(c);
        for glyph in &line.glyphs {
            let Some(id) = glyph.id else {
                continue;
            };
            let (x, y) = snap(glyph.x, glyph.y);
            let (ix, iy) = (x.floor(), y.floor());
            if !(ix.abs() < 1.0e7 && iy.abs() < 1.0e7) {
                continue;
            }
            let phase = (((x - ix) * 4.0) as u8, ((y - iy) * 4.0) as u8);
            let key = glyphs::MaskKey {
                glyph: id,
                matrix: [t.a, t.b, t.c, t.d].map(f32::to_bits),
                phase,
            };
            let mask = self.glyphs.get(key, || {
                // The outline in device pixels, its origin at the phase within pixel (0, 0).
                let (dx, dy) = (f32::from(phase.0) / 4.0, f32::from(phase.1) / 4.0);
                let mut path = Path::new();
                glyph_outline(&mut path, glyph, Transform { e: dx, f: dy, ..t });
                build_path(&path)
                    .map_or_else(glyphs::GlyphMask::empty, |p| glyphs::GlyphMask::cover(&p))
            });
            self.blit_mask(&mask, (ix as i32, iy as i32), c, Some(table));
        }
    }

    /// Blends `color` through a coverage mask placed at `origin`, clipped, its coverage
    /// mapped by `table` first.
    fn blit_mask(
        &mut self,
        mask: &glyphs::GlyphMask,
        origin: (i32, i32),
        color: Rgba,
        table: Option<&[u8; 256]>,
    ) {
        let (gx, gy) = (origin.0 + mask.left, origin.1 + mask.top);
        let bounds = [
            gx as f32,
            gy as f32,
            (gx + mask.width as i32) as f32,
            (gy + mask.height as i32) as f32,
        ];
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return;
        };
        let pw = self.pixmap.width();
        let clip = clip.map(|m| m.data());
        let pixels = self.pixmap.data_mut();
        let rows = self.rows.clone();
        glyphs::blit(pixels, pw, rows, mask, (gx, gy), color, clip, table);
    }

    /// The harness's `fillText` (fixtures README, "Sprite text"): cells of the sprite image
    /// copied with `drawImage` at the shifted position, fill colour ignored.
    #[cfg(feature = "sprite-text")]
    fn sprite_text(&mut self, item: &TextItem, sprite: &crate::text::sprite::SpriteFont) {
        if self.sprite.is_none() {
            let mut data = sprite.image.clone();
            for px in data.chunks_exact_mut(4) {
                let a = px[3] as u32;
                for c in &mut px[..3] {
                    *c = ((*c as u32 * a + 127) / 255) as u8;
                }
            }
            self.sprite = tiny_skia::IntSize::from_wh(sprite.image_width, sprite.image_height)
                .and_then(|size| tiny_skia::Pixmap::from_vec(data, size));
        }
        let Some(image) = self.sprite.take() else {
            return;
        };
        let width = sprite.measure(&item.text);
        let mut x = item.x;
        match item.align {
            TextAlign::Left => {}
            TextAlign::Center => x -= width / 2.0,
            TextAlign::Right => x -= width,
        }
        let fh = sprite.font_height as f32;
        let y = item.y
            - match item.baseline {
                TextBaseline::Top | TextBaseline::Hanging => fh,
                TextBaseline::Middle | TextBaseline::Alphabetic | TextBaseline::Ideographic => {
                    fh / 2.0
                }
                TextBaseline::Bottom => 0.0,
            };
        let t = self.base.then(item.transform);
        // Blink draws images without anti-aliased edges while the transform keeps rectangles
        // rectangles (scales, quarter turns), unless a cell would be under a device pixel
        // (`ShouldDrawImageAntialiased`).
        // Skia snaps the sine and cosine of a rotation to zero when nearly zero
        // (`SkScalarSinSnapToZero`), so a quarter turn keeps rectangles.
        let zero = |v: f32| v.abs() <= 1.0 / 4096.0;
        let rect_stays_rect = (zero(t.b) && zero(t.c)) || (zero(t.a) && zero(t.d));
        let (expand_w, expand_h) = if zero(t.b) && zero(t.c) {
            (t.a.abs(), t.d.abs())
        } else {
            (t.b.abs(), t.c.abs())
        };
        for cell in sprite.cells(&item.text) {
            if cell.width == 0 {
                continue;
            }
            let (dx, dy) = (x + cell.dx, y);
            let aa = !rect_stays_rect || cell.width as f32 * expand_w < 1.0 || fh * expand_h < 1.0;
            let Some(dest) =
                tiny_skia::Rect::from_xywh(dx, dy, cell.width as f32, sprite.font_height as f32)
            else {
                continue;
            };
            // Skia filters bilinearly unless the whole mapping is an integer translation;
            // tiny-skia also drops to nearest for fractional translations, so a translation
            // gets a negligible scale (1e-6 of a pixel over a cell) to keep it bilinear.
            let (ddx, ddy) = t.apply(dx, dy);
            let translate_only = t.b == 0.0 && t.c == 0.0 && t.a == 1.0 && t.d == 1.0;
            let fractional = ddx.fract() != 0.0 || ddy.fract() != 0.0;
            // The pattern is the whole sprite sheet: Blink draws with Skia's fast source-rect
            // constraint, so filtering at a cell's edge reads the sheet's neighbouring pixels.
            // Skia's bitmap sampler (`SkBitmapProcState`, which drew Chart.js's reference
            // images) filters with 4-bit sub-pixel weights: the sampling phase is truncated
            // to 1/16 px. Shifting the pattern by the truncated part reproduces its blend;
            // with exact phases the sprite text of the time-scale cases was 8 levels off.
            let truncate_phase = |d: f32| {
                let f = (-d).rem_euclid(1.0);
                f - (f * 16.0).floor() / 16.0
            };
            let (ax, ay) = if translate_only {
                (truncate_phase(ddx), truncate_phase(ddy))
            } else {
                (0.0, 0.0)
            };
            let mut pattern_ts = tiny_skia::Transform::from_translate(
                dx - cell.sx as f32 + ax,
                dy - cell.sy as f32 + ay,
            );
            if translate_only && fractional {
                pattern_ts = pattern_ts.pre_scale(1.0 + 1e-6, 1.0 + 1e-6);
            }
            // Without anti-aliasing Skia fills the device rectangle with its edges rounded
            // half up (`SkScan::FillRect` after `SkRect::round`); draw that pixel rectangle
            // in device space, the pattern carrying the transform.
            let (dest, draw_ts, pattern_ts) = if aa {
                (dest, super::convert::ts(t), pattern_ts)
            } else {
                let (x0, y0) = t.apply(dest.left(), dest.top());
                let (x1, y1) = t.apply(dest.right(), dest.bottom());
                let round = |v: f32| (v + 0.5).floor();
                let Some(r) = tiny_skia::Rect::from_ltrb(
                    round(x0.min(x1)),
                    round(y0.min(y1)),
                    round(x0.max(x1)),
                    round(y0.max(y1)),
                ) else {
                    continue;
                };
                (
                    r,
                    tiny_skia::Transform::identity(),
                    super::convert::ts(t).pre_concat(pattern_ts),
                )
            };
            let pattern = tiny_skia::Pattern::new(
                image.as_ref(),
                tiny_skia::SpreadMode::Pad,
                tiny_skia::FilterQuality::Bilinear,
                1.0,
                pattern_ts,
            );
            let p = tiny_skia::Paint {
                shader: pattern,
                anti_alias: aa,
                ..tiny_skia::Paint::default()
            };
            let Ok(mask) = self.clips.mask_for(None, self.pool) else {
                break;
            };
            self.pixmap.fill_rect(dest, &p, draw_ts, mask);
        }
        self.sprite = Some(image);
    }

    /// Fills a device-space path with a solid colour at exact-area coverage, clipped, the
    /// coverage mapped by `table`.
    fn fill_exact(&mut self, path: &tiny_skia::Path, c: Rgba, table: Option<&[u8; 256]>) {
        if c.a == 0 {
            return;
        }
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        if let Some(mask) = glyphs::GlyphMask::cover_within(path, pw, ph) {
            self.blit_mask(&mask, (0, 0), c, table);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::raster::tests::{px, scene};
    use crate::raster::{rasterize, Reuse};
    use crate::scene::{Item, Paint, TextAlign, TextBaseline, TextItem, Transform};
    use crate::text::TextEngine;
    use chart_spec::Rgba;

    #[cfg(feature = "sprite-text")]
    #[test]
    fn sprite_cells_round_half_up_and_shift_by_baseline() {
        use crate::text::sprite::SpriteFont;
        // A 34×34 sheet of opaque red: every cell is a solid block.
        let sprite = SpriteFont {
            widths: vec![4.0; 224],
            first_char_code: 32,
            cell_width: 17,
            cell_height: 17,
            font_height: 16,
            image_width: 34,
            image_height: 34,
            image: [255, 0, 0, 255].repeat(34 * 34),
        };
        let item = |x: f32, baseline| {
            Item::Text(Box::new(TextItem {
                text: " ".into(),
                x,
                y: 20.0,
                font: chart_spec::font::FontSpec::default(),
                paint: Paint::Solid(Rgba::BLACK),
                align: TextAlign::Left,
                baseline,
                direction: Default::default(),
                transform: Transform::IDENTITY,
                stroke: None,
            }))
        };
        let mut s = scene(vec![item(10.5, TextBaseline::Bottom)], 1.0);
        s.width = 40.0;
        s.height = 40.0;
        let b = rasterize(
            &s,
            &TextEngine::Sprite(sprite.clone()),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        // x 10.5..14.5 fills pixels 11..15 (SkScan::FillRect rounds half up), y 20..36.
        assert_eq!(px(&b, 10, 25)[3], 0);
        assert_eq!(px(&b, 11, 25), [255, 0, 0, 255]);
        assert_eq!(px(&b, 14, 25)[3], 255);
        assert_eq!(px(&b, 15, 25)[3], 0);
        assert_eq!(px(&b, 12, 19)[3], 0);
        assert_eq!(px(&b, 12, 35)[3], 255);
        // `middle` lifts the cell by 8: y 12..28.
        s.items = vec![item(10.0, TextBaseline::Middle)];
        let b = rasterize(
            &s,
            &TextEngine::Sprite(sprite),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        assert_eq!(px(&b, 12, 12)[3], 255);
        assert_eq!(px(&b, 12, 11)[3], 0);
        assert_eq!(px(&b, 12, 28)[3], 0);
    }

    #[test]
    fn text_draws_ink() {
        let item = Item::Text(Box::new(TextItem {
            text: "Hi".into(),
            x: 2.0,
            y: 5.0,
            font: chart_spec::font::FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Left,
            baseline: TextBaseline::Middle,
            direction: Default::default(),
            transform: Transform::IDENTITY,
            stroke: None,
        }));
        let b = rasterize(
            &scene(vec![item], 1.0),
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        let ink = b.data.chunks_exact(4).filter(|p| p[3] > 128).count();
        assert!(ink > 10, "only {ink} inked pixels");
    }
}
