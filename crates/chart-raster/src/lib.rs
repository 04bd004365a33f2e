//! The facade: re-exports the layers and wires one render — validate, hash, look up the cache,
//! draw with an engine, encode, store.
//!
//! - [`spec`]: the request ([`RenderOptions`]) and what engines return.
//! - [`skia`] and, with the `browser` feature (default), `browser`: the engines.
//! - [`cache`]: the LRU of encoded images.
//! - [`encode`](mod@encode): bitmap → PNG / JPEG / WebP.
//! - [`service`]: the [`Service`] that runs one request through all of the above.
//! - [`metrics`]: its counters, for `GET /metrics`.
//! - [`examples`]: the built-in example charts.

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
pub use encode::{encode, EncodeError};
pub use service::{
    BlockingRenderer, CacheMetrics, CachedImage, Health, RenderFailure, RenderResult, Service,
    ServiceConfig, ServiceError, ServiceMetrics, VERSION,
};
