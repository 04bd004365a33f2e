//! Drawing one request on the current thread: the skia engine as a [`BlockingRenderer`]
//! (bitmaps, and SVG/PDF from its scene), and the step from a render to the bytes cached.

use super::ServiceError;
use super::{Ahead, BlockingRenderer, CachedImage, Prepared, RenderFailure, RenderResult};
use crate::encode::{encode_with, png_of_drawn, EncodeError, PngBands, PngCompression};
use bytes::Bytes;
use chart_raster_skia::Drawn;
use chart_spec::{Bitmap, Cancel, ImageFormat, Message, RenderOptions, Rendered};

impl BlockingRenderer for chart_raster_skia::Engine {
    fn render(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, RenderFailure> {
        self.render_with(opts, cancel).map_err(RenderFailure::from)
    }

    /// Where the scene says two painters pay, draws for the PNG encoder's bands: each core
    /// goes on from drawing its band to deflating it as one part of the file. Otherwise
    /// the bitmap is drawn whole and encoded after it, as the default does.
    fn render_png(
        &self,
        opts: &RenderOptions,
        cancel: &Cancel,
        png: PngCompression,
    ) -> Result<(Result<Vec<u8>, EncodeError>, Vec<Message>), RenderFailure> {
        let Some(bands) = PngBands::new(png) else {
            return render_then_encode(self, opts, cancel, png);
        };
        let drawn = self.render_bands_with(opts, cancel, &bands);
        Ok(png_of(self, drawn.map_err(RenderFailure::from)?, opts, png))
    }

    /// Drawn for the PNG encoder's bands, its scene is what there is to build ahead.
    fn prepares(&self, png: PngCompression) -> bool {
        PngBands::new(png).is_some()
    }

    fn prepare(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Prepared, RenderFailure> {
        let scene = chart_raster_skia::Engine::prepare(self, opts, cancel);
        Ok(Prepared::new(scene.map_err(RenderFailure::from)?))
    }

    fn render_png_prepared(
        &self,
        prepared: Prepared,
        opts: &RenderOptions,
        cancel: &Cancel,
        png: PngCompression,
    ) -> Result<(Result<Vec<u8>, EncodeError>, Vec<Message>), RenderFailure> {
        let scene = prepared.downcast::<chart_raster_skia::Prepared>();
        let (Some(bands), Ok(scene)) = (PngBands::new(png), scene) else {
            return self.render_png(opts, cancel, png);
        };
        let drawn = self.render_bands_prepared(scene, cancel, &bands);
        Ok(png_of(self, drawn.map_err(RenderFailure::from)?, opts, png))
    }

    fn recycle(&self, bitmap: Bitmap) {
        chart_raster_skia::Engine::recycle(self, bitmap);
    }

    fn render_vector(
        &self,
        opts: &RenderOptions,
        cancel: &Cancel,
    ) -> Result<(Vec<u8>, Vec<Message>), RenderFailure> {
        use chart_raster_skia::vector::VectorFormat;
        let format = match opts.format {
            chart_spec::ImageFormat::Svg => VectorFormat::Svg,
            chart_spec::ImageFormat::Pdf => VectorFormat::Pdf,
            other => {
                return Err(RenderFailure::Failed(format!(
                    "{} is not a vector format",
                    other.as_str()
                )))
            }
        };
        let written = self
            .render_vector_with(opts, format, cancel)
            .map_err(RenderFailure::from)?;
        Ok((written.bytes, written.messages))
    }
}

/// The skia engine's PNG of a bitmap drawn for [`PngBands`], and the render's messages.
fn png_of(
    engine: &chart_raster_skia::Engine,
    (drawn, messages): (
        Drawn<'_, <PngBands as chart_raster_skia::BandConsumer>::Part>,
        Vec<Message>,
    ),
    opts: &RenderOptions,
    png: PngCompression,
) -> (Result<Vec<u8>, EncodeError>, Vec<Message>) {
    match drawn {
        Drawn::Whole(bitmap) => encoded_whole(Rendered { bitmap, messages }, opts, png, |b| {
            engine.recycle(b)
        }),
        bands => (png_of_drawn(bands, png, |b| engine.recycle(b)), messages),
    }
}

/// Draws and encodes one request on this thread: the service's skia path, and the whole of
/// the blocking [`crate::render`]. A render stopped by `cancel` fails with `cancelled`. A
/// PNG goes on from what was started `ahead` of it, if anything.
pub(crate) fn draw_encoded(
    renderer: &dyn BlockingRenderer,
    opts: &RenderOptions,
    cancel: &Cancel,
    cancelled: ServiceError,
    png: PngCompression,
    ahead: Option<Ahead>,
) -> Result<CachedImage, ServiceError> {
    let failure = |e| match e {
        RenderFailure::Cancelled => cancelled,
        RenderFailure::Rejected(m) => ServiceError::Rejected(m),
        RenderFailure::Failed(m) => ServiceError::Render(m),
    };
    if opts.format.is_vector() {
        // SVG and PDF are written from the scene: no bitmap, no encoder.
        let (bytes, messages) = renderer.render_vector(opts, cancel).map_err(failure)?;
        return Ok(CachedImage {
            bytes: Bytes::from(bytes),
            format: opts.format,
            messages: messages.into(),
        });
    }
    if opts.format == ImageFormat::Png {
        let drawn = match ahead.and_then(|ahead| ahead.take(cancel)) {
            Some(Ok(prepared)) => renderer.render_png_prepared(prepared, opts, cancel, png),
            Some(Err(refused)) => Err(refused),
            None => renderer.render_png(opts, cancel, png),
        };
        let (file, messages) = drawn.map_err(failure)?;
        return cached(file, opts.format, messages);
    }
    let rendered = renderer.render(opts, cancel).map_err(failure)?;
    encoded(rendered, opts, png, |bitmap| renderer.recycle(bitmap))
}

/// [`BlockingRenderer::render`], then the encoder: the file (or why it could not be
/// encoded) and the render's messages.
pub(super) fn render_then_encode<R: BlockingRenderer + ?Sized>(
    renderer: &R,
    opts: &RenderOptions,
    cancel: &Cancel,
    png: PngCompression,
) -> Result<(Result<Vec<u8>, EncodeError>, Vec<Message>), RenderFailure> {
    let rendered = renderer.render(opts, cancel)?;
    Ok(encoded_whole(rendered, opts, png, |b| renderer.recycle(b)))
}

/// The file of a bitmap drawn whole, with its render's messages; the bitmap goes to `done`
/// once encoded (see [`BlockingRenderer::recycle`]).
pub(super) fn encoded_whole(
    rendered: Rendered,
    opts: &RenderOptions,
    png: PngCompression,
    done: impl FnOnce(Bitmap),
) -> (Result<Vec<u8>, EncodeError>, Vec<Message>) {
    let file = encode_with(&rendered.bitmap, opts.format, opts.quality, png);
    done(rendered.bitmap);
    (file, rendered.messages)
}

/// The encoded image; the bitmap goes to `done` once encoded (see
/// [`BlockingRenderer::recycle`]).
pub(super) fn encoded(
    rendered: Rendered,
    opts: &RenderOptions,
    png: PngCompression,
    done: impl FnOnce(Bitmap),
) -> Result<CachedImage, ServiceError> {
    let (file, messages) = encoded_whole(rendered, opts, png, done);
    cached(file, opts.format, messages)
}

/// What the cache keeps of an encoded image.
fn cached(
    file: Result<Vec<u8>, EncodeError>,
    format: ImageFormat,
    messages: Vec<Message>,
) -> Result<CachedImage, ServiceError> {
    Ok(CachedImage {
        bytes: Bytes::from(file?),
        format,
        messages: messages.into(),
    })
}

/// Runs a blocking draw on tokio's blocking pool; a panic in it is an internal error.
pub(super) async fn run_blocking(
    f: impl FnOnce() -> Result<CachedImage, ServiceError> + Send + 'static,
) -> Result<CachedImage, ServiceError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        if e.is_panic() {
            panicked(e.into_panic().as_ref())
        } else {
            ServiceError::Internal("render task cancelled".into())
        }
    })?
}

/// The internal error of a render that panicked, with the panic's message.
pub(crate) fn panicked(payload: &(dyn std::any::Any + Send)) -> ServiceError {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    ServiceError::Internal(format!("render panicked: {msg}"))
}

/// What a request gets back for an image.
pub(crate) fn result(img: CachedImage, hash: String, cached: bool) -> RenderResult {
    RenderResult {
        content_type: img.format.content_type(),
        bytes: img.bytes,
        hash,
        cached,
        messages: img.messages.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_raster_skia::Engine;

    /// The benchmark's line chart (two painters pay: drawn and encoded in two bands)
    /// and its bar chart with borders (drawn whole, encoded as before), through
    /// [`draw_encoded`] as the service draws them: the PNG decodes to the pixels the engine
    /// draws, and is the same file whether the bands were drawn on one thread (no core
    /// lent) or two (a thread started for the render), in every mode.
    #[test]
    fn a_png_drawn_in_bands_is_the_same_file_on_one_thread_or_two() {
        let one = Engine::new();
        let two = Engine::new().with_split_always();
        let charts = crate::benchmark::charts();
        for (name, bands) in [
            ("line 3×50, curved", true),
            ("bar 12×2, borders, title, legend", false),
        ] {
            let chart = charts.iter().find(|c| c.name == name).unwrap();
            let mut opts = RenderOptions::from_json(&chart.request()).unwrap();
            let cancel = Cancel::new();
            let consumer = PngBands::new(PngCompression::Default).unwrap();
            let (drawn, _) = one.render_bands_with(&opts, &cancel, &consumer).unwrap();
            assert_eq!(matches!(drawn, Drawn::Bands(..)), bands, "{name}");
            drop(drawn);
            let pixels = one.render(&opts).unwrap().bitmap.data;
            for compression in [
                PngCompression::Fast,
                PngCompression::Default,
                PngCompression::Small,
            ] {
                let file = |engine: &Engine| {
                    let failed = ServiceError::Internal("cancelled".into());
                    draw_encoded(engine, &opts, &cancel, failed, compression, None)
                        .unwrap()
                        .bytes
                };
                let (a, b) = (file(&one), file(&two));
                assert!(a == b, "{name} {compression:?}: the files differ");
                assert!(
                    crate::encode::decode_png(a.to_vec()).2 == pixels,
                    "{name} {compression:?}: pixels differ"
                );
            }
            // JPEG keeps the whole bitmap's path.
            opts.format = ImageFormat::Jpeg;
            let jpeg = draw_encoded(
                &one,
                &opts,
                &cancel,
                ServiceError::Timeout(Default::default()),
                PngCompression::Default,
                None,
            )
            .unwrap();
            assert_eq!(&jpeg.bytes[..3], &[0xFF, 0xD8, 0xFF]);
        }
    }
}
