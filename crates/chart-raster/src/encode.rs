//! Bitmap → PNG, JPEG or WebP bytes.

use chart_spec::{Bitmap, ImageFormat};
use std::io::Write;

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
    let err = |reason: String| EncodeError::Encoder {
        format: "png",
        reason,
    };
    let png_err = |e: png::EncodingError| err(e.to_string());
    let io_err = |e: std::io::Error| err(e.to_string());
    // The image data: every row filtered with `Up` (rows of a chart mostly repeat the row
    // above: backgrounds, bars, gaps between grid lines), then zlib at level 1.
    //
    // The level is chosen on the 800x600 bar chart at dpr 2 (a 1600x1200 bitmap) of the
    // render benchmark, against the rest of a render (about 2 ms of drawing):
    // - png's own fast mode (fdeflate): ~1 ms, 234 KB;
    // - level 1: ~2.5 ms, 85 KB;
    // - level 2 and up: 13–16 ms, 47–48 KB (Chromium's PNG of the same chart is 43 KB).
    // Level 1 costs about one more render's time for a third of the bytes, which is what a
    // service sending images over networks and keeping them in a byte-bounded cache wants;
    // the higher levels would make encoding seven times the drawing for a last 45%.
    let stride = bitmap.width as usize * 4;
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(bitmap.data.len() / 16),
        flate2::Compression::new(1),
    );
    // Filtered rows one at a time: a whole filtered copy would be as large as the bitmap.
    let mut row = vec![0u8; stride + 1];
    row[0] = 2; // filter type Up
    let mut prev: &[u8] = &[];
    for line in bitmap.data.chunks_exact(stride.max(1)) {
        if prev.is_empty() {
            row[1..].copy_from_slice(line);
        } else {
            for ((out, cur), up) in row[1..].iter_mut().zip(line).zip(prev) {
                *out = cur.wrapping_sub(*up);
            }
        }
        z.write_all(&row).map_err(io_err)?;
        prev = line;
    }
    let idat = z.finish().map_err(io_err)?;

    let mut out = Vec::with_capacity(idat.len() + 64);
    let mut enc = png::Encoder::new(&mut out, bitmap.width, bitmap.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(png_err)?;
    // IDAT chunks hold at most 2^31 - 1 bytes.
    for part in idat.chunks(1 << 30) {
        writer
            .write_chunk(png::chunk::IDAT, part)
            .map_err(png_err)?;
    }
    writer.finish().map_err(png_err)?;
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

    fn decode_png(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn png_round_trips() {
        let bmp = solid(7, 5, [10, 20, 30, 128]);
        let (w, h, data) = decode_png(encode(&bmp, ImageFormat::Png, 90).unwrap());
        assert_eq!((w, h), (7, 5));
        assert_eq!(data, bmp.data);
        // Rows that differ from the row above in every byte, wrapping around 0 and 255 (the
        // `Up` filter's subtraction), and a single-row image.
        for (w, h) in [(13u32, 11u32), (9, 1)] {
            let data = (0..w * h * 4)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect();
            let bmp = Bitmap {
                width: w,
                height: h,
                data,
            };
            let (dw, dh, decoded) = decode_png(encode(&bmp, ImageFormat::Png, 90).unwrap());
            assert_eq!((dw, dh), (w, h));
            assert_eq!(decoded, bmp.data);
        }
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
