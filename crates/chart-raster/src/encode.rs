//! Bitmap → PNG, JPEG or WebP bytes.

#[allow(
    dead_code,
    reason = "wired to the skia engine's bands in the next step"
)]
mod bands;
mod block;
mod deflate;
mod png;

/// The encoder tests' PNG decoder, for the service's tests of what it encodes.
#[cfg(test)]
pub(crate) use png::tests::decode_png;

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

/// How hard PNG data is deflated: the trade between encoding time and bytes.
///
/// Figures from `cargo xtask bench-peers` (issue 13), against Chart.js on @napi-rs/canvas
/// (Skia's PNG encoder: zlib level 6 and libpng's adaptive filters) on the same charts; the
/// README's Performance section has the table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PngCompression {
    /// Our deflate encoder searching less (`deflate::Effort::Fast`: one position per hash,
    /// nothing hashed inside matches): about 1% more bytes than `Default` for 0–9% less
    /// time per encode (26% on the literal-heavy scatter 10,000). Little to trade: what
    /// every mode pays is the work per byte and per symbol, and searching less finds fewer
    /// matches, so more symbols. Before it was zlib level 1 (static codes only): twice
    /// `Default`'s bytes and more instructions.
    Fast,
    /// Our deflate encoder (`encode/deflate.rs`): 0.58–0.95× node-skia's bytes on the
    /// benchmark's charts, for about a third of zlib level 2's instructions on the bar
    /// charts, two thirds on curves, three quarters on the densest chart (scatter 10,000).
    /// Images of at least 512×512 pixels are deflated in two halves on two threads when a
    /// core is idle.
    #[default]
    Default,
    /// zlib level 6 (lazy matching, zlib-rs): between 8% under and 3% over `Default`'s bytes
    /// on the benchmark's charts (2.5% under in all), at 2.7–5.7× its instructions.
    Small,
}

impl PngCompression {
    /// The mode named by a `PNG_COMPRESSION` setting: `fast`, `default` or `small`
    /// (case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "fast" => Some(Self::Fast),
            "default" => Some(Self::Default),
            "small" => Some(Self::Small),
            _ => None,
        }
    }
}

/// Encodes a straight-alpha bitmap. `quality` (0–100) applies to JPEG and WebP; PNG data is
/// deflated as [`PngCompression::Default`].
pub fn encode(bitmap: &Bitmap, format: ImageFormat, quality: u8) -> Result<Vec<u8>, EncodeError> {
    encode_with(bitmap, format, quality, PngCompression::Default)
}

/// [`encode`] with PNG data deflated as `compression` (the service's `PNG_COMPRESSION`).
pub fn encode_with(
    bitmap: &Bitmap,
    format: ImageFormat,
    quality: u8,
    compression: PngCompression,
) -> Result<Vec<u8>, EncodeError> {
    check(bitmap)?;
    match format {
        ImageFormat::Png => png::encode(bitmap, compression),
        ImageFormat::Jpeg => jpeg(bitmap, quality),
        ImageFormat::Webp => webp(bitmap, quality),
        // Vector files are written from the scene (`Engine::render_vector_with`).
        ImageFormat::Svg | ImageFormat::Pdf => Err(EncodeError::Encoder {
            format: format.as_str(),
            reason: "a vector format is written from the scene, not from a bitmap".into(),
        }),
    }
}

/// The PNG encoder as a consumer of the skia engine's bands
/// (`chart_raster_skia::Engine::render_bands_with`): each band filtered and deflated as one
/// half of the file on the thread that drew it (`encode/bands.rs`). `None` for a mode that
/// deflates the whole image on one thread (`Small`).
pub(crate) struct PngBands(deflate::Effort);

impl PngBands {
    pub(crate) fn new(compression: PngCompression) -> Option<Self> {
        bands::effort(compression).map(PngBands)
    }
}

impl chart_raster_skia::BandConsumer for PngBands {
    type Part = bands::Half;

    fn band(&self, band: chart_raster_skia::Band<'_>) -> bands::Half {
        let size = (band.width, band.height);
        bands::half(size, band.rows, band.pixels, band.opaque, self.0)
    }
}

/// The PNG file of a bitmap drawn for [`PngBands`]: its two halves joined, or, drawn whole
/// (or with a translucent pixel where it was written as RGB), the bitmap encoded whole,
/// which then goes to `done`.
pub(crate) fn png_of_drawn(
    drawn: chart_raster_skia::Drawn<'_, bands::Half>,
    compression: PngCompression,
    done: impl FnOnce(Bitmap),
) -> Result<Vec<u8>, EncodeError> {
    let bitmap = match drawn {
        chart_raster_skia::Drawn::Whole(bitmap) => bitmap,
        chart_raster_skia::Drawn::Bands([top, bottom], pixels) => match bands::join(top, bottom) {
            Some(file) => return Ok(file),
            None => pixels.into_bitmap(),
        },
    };
    let file = encode_png(&bitmap, compression);
    done(bitmap);
    file
}

/// Encodes a straight-alpha bitmap as PNG with the given compression.
pub fn encode_png(bitmap: &Bitmap, compression: PngCompression) -> Result<Vec<u8>, EncodeError> {
    check(bitmap)?;
    png::encode(bitmap, compression)
}

fn check(bitmap: &Bitmap) -> Result<(), EncodeError> {
    let expected = bitmap.width as usize * bitmap.height as usize * 4;
    if bitmap.data.len() != expected || bitmap.width == 0 || bitmap.height == 0 {
        return Err(EncodeError::BadBitmap {
            width: bitmap.width,
            height: bitmap.height,
            len: bitmap.data.len(),
        });
    }
    Ok(())
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
    use super::png::tests::{rendered_bar_chart, solid};
    use super::*;

    /// `PNG_COMPRESSION` is read with the service's other settings; a value that names no
    /// mode stops the service at start-up rather than being ignored.
    #[test]
    fn png_compression_is_an_operator_setting() {
        let config = |v: &'static str| {
            crate::service::ServiceConfig::from_vars(move |k| {
                (k == "PNG_COMPRESSION").then(|| v.to_string())
            })
        };
        assert_eq!(config("").unwrap().png_compression, PngCompression::Default);
        assert_eq!(
            config("fast").unwrap().png_compression,
            PngCompression::Fast
        );
        assert_eq!(
            config(" Default ").unwrap().png_compression,
            PngCompression::Default
        );
        assert_eq!(
            config("Small").unwrap().png_compression,
            PngCompression::Small
        );
        assert!(config("max").is_err());
        // The setting reaches the encoder: `small` writes different data than the default
        // on a rendered chart.
        let b = rendered_bar_chart(chart_spec::Rgba::rgb(255, 255, 255));
        let small = encode_with(
            &b,
            ImageFormat::Png,
            90,
            config("small").unwrap().png_compression,
        );
        let default = encode(&b, ImageFormat::Png, 90).unwrap();
        assert_ne!(small.unwrap(), default);
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
