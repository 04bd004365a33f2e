//! Bitmap → PNG, JPEG or WebP bytes.

use chart_spec::{Bitmap, ImageFormat};

/// Why an image could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The bitmap's pixel buffer does not match its size.
    #[error("bitmap is {width}x{height} but holds {len} bytes")]
    BadBitmap {
        /// Device pixels.
        width: u32,
        /// Device pixels.
        height: u32,
        /// Bytes in the buffer.
        len: usize,
    },
    /// The encoder refused the image.
    #[error("{format} encoder failed: {reason}")]
    Encoder {
        /// `png`, `jpeg` or `webp`.
        format: &'static str,
        /// The encoder's own message.
        reason: String,
    },
}

/// Encodes a straight-alpha bitmap. `quality` (0–100) applies to JPEG and WebP.
pub fn encode(bitmap: &Bitmap, format: ImageFormat, quality: u8) -> Result<Vec<u8>, EncodeError> {
    let expected = bitmap.width as usize * bitmap.height as usize * 4;
    if bitmap.data.len() != expected || bitmap.width == 0 || bitmap.height == 0 {
        return Err(EncodeError::BadBitmap {
            width: bitmap.width,
            height: bitmap.height,
            len: bitmap.data.len(),
        });
    }
    match format {
        ImageFormat::Png => png(bitmap),
        ImageFormat::Jpeg => jpeg(bitmap, quality),
        ImageFormat::Webp => webp(bitmap, quality),
    }
}

fn png(bitmap: &Bitmap) -> Result<Vec<u8>, EncodeError> {
    let err = |e: png::EncodingError| EncodeError::Encoder {
        format: "png",
        reason: e.to_string(),
    };
    let mut out = Vec::with_capacity(bitmap.data.len() / 8);
    let mut enc = png::Encoder::new(&mut out, bitmap.width, bitmap.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    // `Fast` is png's fdeflate-backed compressor. Measured on a synthetic 1600x1200 chart (the
    // default 800x600 at dpr 2: flat background, grid, bars, an anti-aliased curve; release
    // build): Fast 1.3 ms / 244 KB, Default (zlib level 6) 15 ms / 26 KB. Encoding happens on
    // every cache miss and a real render costs tens of milliseconds, so the encoder must not
    // double it; the price is bigger files (and fewer of them in CACHE_MAX_BYTES). Revisit if
    // bandwidth matters more than latency.
    enc.set_compression(png::Compression::Fast);
    // `Up` suits charts: rows mostly repeat the row above (backgrounds, bars, grid gaps).
    enc.set_filter(png::FilterType::Up);
    let mut writer = enc.write_header().map_err(err)?;
    writer.write_image_data(&bitmap.data).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}

/// JPEG has no alpha channel: every pixel is composited over white. When the request's
/// background is opaque the engine has already covered the canvas with it, so this only
/// changes transparent or translucent backgrounds — they come out over white, as a browser
/// shows a transparent canvas on a default page.
fn jpeg(bitmap: &Bitmap, quality: u8) -> Result<Vec<u8>, EncodeError> {
    let mut rgb = Vec::with_capacity(bitmap.width as usize * bitmap.height as usize * 3);
    for px in bitmap.data.chunks_exact(4) {
        let a = u32::from(px[3]);
        for &c in &px[..3] {
            // c·a + 255·(1 − a), rounded.
            let v = (u32::from(c) * a + 255 * (255 - a) + 127) / 255;
            rgb.push(v as u8);
        }
    }
    let (w, h) = (
        u16::try_from(bitmap.width).map_err(|_| side_error(bitmap))?,
        u16::try_from(bitmap.height).map_err(|_| side_error(bitmap))?,
    );
    let mut out = Vec::new();
    let enc = jpeg_encoder::Encoder::new(&mut out, quality.clamp(1, 100));
    enc.encode(&rgb, w, h, jpeg_encoder::ColorType::Rgb)
        .map_err(|e| EncodeError::Encoder {
            format: "jpeg",
            reason: e.to_string(),
        })?;
    Ok(out)
}

fn side_error(bitmap: &Bitmap) -> EncodeError {
    EncodeError::Encoder {
        format: "jpeg",
        reason: format!(
            "{}x{} is over the 65535-pixel side limit",
            bitmap.width, bitmap.height
        ),
    }
}

/// Lossy WebP with alpha (libwebp's `quality` 0–100).
fn webp(bitmap: &Bitmap, quality: u8) -> Result<Vec<u8>, EncodeError> {
    let enc = webp::Encoder::from_rgba(&bitmap.data, bitmap.width, bitmap.height);
    // `encode_simple` rather than `encode`, which unwraps the encoder's error.
    let mem = enc
        .encode_simple(false, f32::from(quality))
        .map_err(|e| EncodeError::Encoder {
            format: "webp",
            reason: format!("{e:?}"),
        })?;
    Ok(mem.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(w: u32, h: u32, px: [u8; 4]) -> Bitmap {
        Bitmap {
            width: w,
            height: h,
            data: px
                .iter()
                .copied()
                .cycle()
                .take((w * h * 4) as usize)
                .collect(),
        }
    }

    #[test]
    fn png_round_trips() {
        let bmp = solid(7, 5, [10, 20, 30, 128]);
        let bytes = encode(&bmp, ImageFormat::Png, 90).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (7, 5));
        assert_eq!(&buf[..info.buffer_size()], &bmp.data[..]);
    }

    #[test]
    fn jpeg_and_webp_have_their_magic() {
        let bmp = solid(16, 9, [200, 0, 0, 255]);
        let j = encode(&bmp, ImageFormat::Jpeg, 80).unwrap();
        assert_eq!(&j[..3], &[0xFF, 0xD8, 0xFF]);
        let w = encode(&bmp, ImageFormat::Webp, 80).unwrap();
        assert_eq!(&w[..4], b"RIFF");
        assert_eq!(&w[8..12], b"WEBP");
    }

    #[test]
    fn a_short_buffer_is_an_error_not_a_panic() {
        let bmp = Bitmap {
            width: 10,
            height: 10,
            data: vec![0; 12],
        };
        assert!(matches!(
            encode(&bmp, ImageFormat::Png, 90),
            Err(EncodeError::BadBitmap { .. })
        ));
    }
}
