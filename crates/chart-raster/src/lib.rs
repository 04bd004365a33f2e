#![doc = include_str!("../README.md")]
//!
//! # In a server
//!
//! [`Service`] renders asynchronously on tokio's blocking pool, within a number of render
//! slots, and keeps the encoded images in its cache: a second identical request is a cache
//! hit, and identical requests in flight share one render.
//!
//! ```
//! use chart_raster::{Service, ServiceConfig};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), chart_raster::Error> {
//! let service = Service::new(ServiceConfig::default());
//! let request = serde_json::json!({
//!     "chart": {"type": "pie", "data": {"datasets": [{"data": [3, 2, 1]}]}},
//!     "width": 300, "height": 300
//! });
//! let first = service.render_json(&request).await?;
//! let again = service.render_json(&request).await?;
//! assert!(!first.cached && again.cached);
//! assert_eq!(first.bytes, again.bytes);
//! // The key of the cached image: `GET /cache/<hash>` in the HTTP service.
//! assert_eq!(first.hash, again.hash);
//! # Ok(())
//! # }
//! ```
//!
//! `ServiceConfig::from_vars(|name| std::env::var(name).ok())` reads the settings from the
//! environment variables the HTTP service documents.
//!
//! # The layers
//!
//! The facade re-exports the crates it wires together, for what the one call does not cover:
//!
//! - [`spec`]: the request ([`RenderOptions`]), its budgets ([`spec::Limits`]) and what
//!   engines return.
//! - [`skia`] and, with the `browser` feature (default), `browser`: the engines.
//! - [`cache`]: the cache of encoded images (in memory, optionally shared through Redis).
//! - [`encode`](mod@encode): bitmap → PNG / JPEG / WebP.
//! - [`service`]: the [`Service`] that runs one request through all of the above.
//! - [`metrics`]: its counters, for `GET /metrics`.
//! - [`examples`]: the built-in example charts.
#![warn(missing_docs)]

pub mod benchmark;
mod cores;
pub mod encode;
pub mod examples;
pub mod metrics;
pub mod service;

pub use chart_cache as cache;
#[cfg(feature = "browser")]
pub use chart_raster_browser as browser;
pub use chart_raster_skia as skia;
pub use chart_spec as spec;

pub use chart_spec::{EngineKind, ImageFormat, Level, Message, RenderOptions, RequestError};
pub use cores::prefix_core;
pub use encode::{encode, EncodeError};
pub use service::{
    BlockingRenderer, CacheMetrics, CachedImage, Health, RenderFailure, RenderResult, Service,
    ServiceConfig, ServiceError, ServiceMetrics, VERSION,
};

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Why [`render`] (or a [`Service`]) produced no image: the options are invalid
/// ([`ServiceError::Request`]), the chart needs more than a budget allows
/// ([`ServiceError::Rejected`]), or the engine or encoder failed. A render that reports
/// problems with the config is not an error: the image comes back with
/// [`RenderResult::messages`].
pub type Error = ServiceError;

/// Renders one chart with the native (skia) engine on the calling thread: no async runtime,
/// no cache. The result holds the encoded image in `options.format`, its MIME type and what
/// Chart.js would have logged about the config.
///
/// The options are checked first ([`RenderOptions::check`] within the default
/// [`spec::Limits`]), so options written in code meet the rules a parsed request does. The
/// engine, with the fonts it finds on this machine, is made once per process and shared by
/// every call (and every thread); calls may run in parallel.
///
/// `engine: "browser"` is refused with [`ServiceError::BrowserUnavailable`]: the browser
/// engine needs a running Chromium and an async runtime, which a [`Service`] manages.
///
/// ```
/// use chart_raster::{render, ImageFormat, RenderOptions};
/// use serde_json::json;
///
/// let serde_json::Value::Object(config) = json!({
///     "type": "line",
///     "data": {"labels": [1, 2, 3], "datasets": [{"label": "squares", "data": [1, 4, 9]}]}
/// }) else {
///     unreachable!("json! of an object is an object")
/// };
/// let options = RenderOptions {
///     width: 300.0,
///     height: 200.0,
///     device_pixel_ratio: 1.0,
///     format: ImageFormat::Webp,
///     ..RenderOptions::new(config)
/// };
/// let image = render(&options)?;
/// assert_eq!(image.content_type, "image/webp");
/// assert!(image.bytes.starts_with(b"RIFF"));
/// assert!(image.messages.is_empty());
///
/// // Options out of range are an error, not a panic nor a huge allocation.
/// let too_wide = RenderOptions { width: 1e9, ..options };
/// assert!(matches!(render(&too_wide), Err(chart_raster::Error::Request(_))));
/// # Ok::<(), chart_raster::Error>(())
/// ```
pub fn render(options: &RenderOptions) -> Result<RenderResult, Error> {
    render_by(options, None)
}

/// [`render`] by the deadline `received + limit`, where `received` is when the request
/// arrived, before its body was parsed ([`RenderOptions::from_json_bytes`] scans, parses and
/// validates it: about 0.5 s for 100 MB), so that the parsing counts against the deadline
/// as the drawing does, as the service's `MAX_RENDER_TIME_SECONDS` does for the CLI. Past
/// the deadline the render stops at its next poll, and one already past it is not started:
/// both fail with [`ServiceError::Timeout`].
///
/// ```
/// use chart_raster::{render_received, RenderOptions, ServiceError};
/// use std::time::{Duration, Instant};
///
/// let received = Instant::now();
/// let body = br#"{"chart": {"type": "bar", "data": {"datasets": [{"data": [1, 2]}]}}}"#;
/// let options = RenderOptions::from_json_bytes(body)?;
/// assert!(render_received(&options, received, Duration::from_secs(30)).is_ok());
/// // A request whose parsing took longer than its limit is answered without drawing.
/// assert!(matches!(
///     render_received(&options, received, Duration::ZERO),
///     Err(ServiceError::Timeout(_))
/// ));
/// # Ok::<(), chart_raster::Error>(())
/// ```
pub fn render_received(
    options: &RenderOptions,
    received: Instant,
    limit: Duration,
) -> Result<RenderResult, Error> {
    render_by(options, received.checked_add(limit).map(|at| (at, limit)))
}

/// [`render`], stopped at `deadline` (the time and the limit it reports) when given.
fn render_by(
    options: &RenderOptions,
    deadline: Option<(Instant, Duration)>,
) -> Result<RenderResult, Error> {
    if options.engine != EngineKind::Skia {
        return Err(ServiceError::BrowserUnavailable(
            "chart_raster::render draws with the skia engine only; \
             render engine \"browser\" through a Service"
                .into(),
        ));
    }
    let engine = shared_engine();
    options.check(engine.limits())?;
    let (cancel, cancelled) = match deadline {
        Some((at, limit)) => {
            if Instant::now() >= at {
                return Err(ServiceError::Timeout(limit));
            }
            (
                spec::Cancel::with_deadline(at),
                ServiceError::Timeout(limit),
            )
        }
        None => (
            spec::Cancel::new(),
            ServiceError::Internal("render cancelled without a Cancel".into()),
        ),
    };
    // A panic is a bug, never a user's input; still, a library call answers it with an error,
    // as the service does, rather than taking the caller's thread down.
    let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        service::draw_encoded(
            engine,
            options,
            &cancel,
            cancelled,
            encode::PngCompression::Default,
            None,
        )
    }))
    .map_err(|panic| service::panicked(panic.as_ref()))?;
    Ok(service::result(
        drawn?,
        options.hash_with_core(cores::prefix_core),
        false,
    ))
}

/// The process' skia engine: font discovery scans the system once, not per chart.
fn shared_engine() -> &'static skia::Engine {
    static ENGINE: OnceLock<skia::Engine> = OnceLock::new();
    ENGINE.get_or_init(cores::skia_engine)
}
