//! Pixels: the only module that knows tiny-skia. Turns a [`Scene`] into a straight-alpha
//! [`Bitmap`] at the scene's device pixel ratio.

use crate::scene::Scene;
use crate::text::TextEngine;
use crate::Error;
use chart_spec::Bitmap;

/// Rasterises a scene. TODO(raster owner): paths, strokes, clips, gradients and text.
pub fn rasterize(scene: &Scene, _text: &TextEngine) -> Result<Bitmap, Error> {
    let width = (scene.width * scene.device_pixel_ratio).round().max(0.0) as u32;
    let height = (scene.height * scene.device_pixel_ratio).round().max(0.0) as u32;
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(Error::BitmapSize { width, height })?;
    let bg = scene.background;
    pixmap.fill(tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a));
    let mut data = pixmap.take();
    // tiny-skia stores premultiplied alpha; a Bitmap is straight alpha.
    for px in data.chunks_exact_mut(4) {
        let a = px[3];
        if a != 0 && a != 255 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            }
        }
    }
    Ok(Bitmap {
        width,
        height,
        data,
    })
}
