//! Drawing one request on the current thread: the skia engine as a [`BlockingRenderer`]
//! (bitmaps, and SVG/PDF from its scene), and the step from a render to the bytes cached.

use super::{BlockingRenderer, CachedImage, RenderFailure, RenderResult, ServiceError};
use crate::encode::{encode_with, PngCompression};
use bytes::Bytes;
use chart_spec::{Bitmap, Cancel, Message, RenderOptions, Rendered};

impl BlockingRenderer for chart_raster_skia::Engine {
    fn render(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, RenderFailure> {
        self.render_with(opts, cancel).map_err(RenderFailure::from)
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

/// Draws and encodes one request on this thread: the service's skia path, and the whole of
/// the blocking [`crate::render`]. A render stopped by `cancel` fails with `cancelled`.
pub(crate) fn draw_encoded(
    renderer: &dyn BlockingRenderer,
    opts: &RenderOptions,
    cancel: &Cancel,
    cancelled: ServiceError,
    png: PngCompression,
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
    let rendered = renderer.render(opts, cancel).map_err(failure)?;
    encoded(rendered, opts, png, |bitmap| renderer.recycle(bitmap))
}

/// The encoded image; the bitmap goes to `done` once encoded (see
/// [`BlockingRenderer::recycle`]).
pub(super) fn encoded(
    rendered: Rendered,
    opts: &RenderOptions,
    png: PngCompression,
    done: impl FnOnce(Bitmap),
) -> Result<CachedImage, ServiceError> {
    let bytes = encode_with(&rendered.bitmap, opts.format, opts.quality, png);
    done(rendered.bitmap);
    Ok(CachedImage {
        bytes: Bytes::from(bytes?),
        format: opts.format,
        messages: rendered.messages.into(),
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
