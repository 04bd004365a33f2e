//! The render service: one request goes validate → hash → cache lookup → single flight →
//! concurrency limit → engine → timeout → encode → store.
//!
//! The HTTP server and the CLI both drive this type; neither talks to an engine directly.

use crate::encode::{encode, EncodeError};
use bytes::Bytes;
use chart_cache::{Cache, CacheConfig, Clock, SystemClock};
use chart_spec::{Bitmap, EngineKind, ImageFormat, Message, RenderOptions, Rendered, RequestError};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

/// The version reported by `/health`, `X-Powered-By` and `--version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Default `MAX_RENDER_TIME_SECONDS`.
pub const DEFAULT_MAX_RENDER_TIME: Duration = Duration::from_secs(30);

/// Why a render produced no image.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ServiceError {
    /// The request is invalid (HTTP 400).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The browser engine cannot run here (HTTP 503).
    #[error("browser engine unavailable: {0}")]
    BrowserUnavailable(String),
    /// The render took longer than `MAX_RENDER_TIME_SECONDS` (HTTP 504).
    #[error("render timed out after {} s (MAX_RENDER_TIME_SECONDS)", .0.as_secs_f64())]
    Timeout(Duration),
    /// The engine failed (HTTP 500).
    #[error("render failed: {0}")]
    Render(String),
    /// The encoder failed (HTTP 500).
    #[error("encoding failed: {0}")]
    Encode(#[from] EncodeError),
    /// A bug: a render task panicked or was cancelled (HTTP 500).
    #[error("internal error: {0}")]
    Internal(String),
    /// A setting (environment variable) is invalid.
    #[error("invalid setting {name}={value:?}: {reason}")]
    Config {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A renderer that blocks its thread (CPU-bound); the service runs it on tokio's blocking pool.
/// The skia engine is one; tests plug in others (slow, counting, panicking).
pub trait BlockingRenderer: Send + Sync + 'static {
    /// Draws one validated request.
    fn render(&self, opts: &RenderOptions) -> Result<Rendered, String>;

    /// Takes back a bitmap from [`BlockingRenderer::render`] once it is encoded, for reuse.
    fn recycle(&self, bitmap: Bitmap) {
        drop(bitmap);
    }
}

impl BlockingRenderer for chart_raster_skia::Engine {
    fn render(&self, opts: &RenderOptions) -> Result<Rendered, String> {
        chart_raster_skia::Engine::render(self, opts).map_err(|e| e.to_string())
    }

    fn recycle(&self, bitmap: Bitmap) {
        chart_raster_skia::Engine::recycle(self, bitmap);
    }
}

/// The settings of a [`Service`].
#[derive(Clone)]
pub struct ServiceConfig {
    /// Renders running at once (`CONCURRENCY`). Default: the number of cores.
    pub concurrency: usize,
    /// Longest a render may take once it has started (`MAX_RENDER_TIME_SECONDS`).
    /// Default: 30 s.
    pub max_render_time: Duration,
    /// Cache bounds (`CACHE_MAX_ENTRIES`, `CACHE_MAX_BYTES`, `CACHE_TTL_SECONDS`).
    pub cache: CacheConfig,
    /// The cache's clock. Default: the system clock.
    pub clock: Arc<dyn Clock>,
    /// Where the browser engine finds Chromium. Default: `BrowserConfig::from_env()`.
    #[cfg(feature = "browser")]
    pub browser: chart_raster_browser::BrowserConfig,
}

impl std::fmt::Debug for ServiceConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ServiceConfig");
        d.field("concurrency", &self.concurrency)
            .field("max_render_time", &self.max_render_time)
            .field("cache", &self.cache);
        #[cfg(feature = "browser")]
        d.field("browser", &self.browser);
        d.finish_non_exhaustive()
    }
}

/// The number of cores, the default `CONCURRENCY`.
pub fn default_concurrency() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for ServiceConfig {
    fn default() -> Self {
        Self {
            concurrency: default_concurrency(),
            max_render_time: DEFAULT_MAX_RENDER_TIME,
            cache: CacheConfig::default(),
            clock: Arc::new(SystemClock::new()),
            #[cfg(feature = "browser")]
            browser: chart_raster_browser::BrowserConfig::from_env(),
        }
    }
}

impl ServiceConfig {
    /// Defaults overridden by `CONCURRENCY`, `MAX_RENDER_TIME_SECONDS`, `CACHE_MAX_ENTRIES`,
    /// `CACHE_MAX_BYTES` and `CACHE_TTL_SECONDS`, read through `var` (the process
    /// environment in the binary, a map in tests). Empty values count as unset.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, ServiceError> {
        fn num<T>(
            var: &impl Fn(&str) -> Option<String>,
            name: &'static str,
            positive: bool,
        ) -> Result<Option<T>, ServiceError>
        where
            T: std::str::FromStr + PartialOrd + Default,
        {
            let Some(value) = var(name).filter(|v| !v.trim().is_empty()) else {
                return Ok(None);
            };
            let n: T = value.trim().parse().map_err(|_| ServiceError::Config {
                name,
                value: value.clone(),
                reason: "expected a whole number",
            })?;
            if positive && n <= T::default() {
                return Err(ServiceError::Config {
                    name,
                    value,
                    reason: "must be at least 1",
                });
            }
            Ok(Some(n))
        }
        let mut c = Self::default();
        if let Some(n) = num::<usize>(&var, "CONCURRENCY", true)? {
            c.concurrency = n;
        }
        if let Some(n) = num::<u64>(&var, "MAX_RENDER_TIME_SECONDS", true)? {
            c.max_render_time = Duration::from_secs(n);
        }
        if let Some(n) = num::<usize>(&var, "CACHE_MAX_ENTRIES", false)? {
            c.cache.max_entries = n;
        }
        if let Some(n) = num::<u64>(&var, "CACHE_MAX_BYTES", false)? {
            c.cache.max_bytes = n;
        }
        if let Some(n) = num::<u64>(&var, "CACHE_TTL_SECONDS", false)? {
            c.cache.ttl = Duration::from_secs(n);
        }
        Ok(c)
    }
}

/// An encoded image as the cache keeps it.
#[derive(Debug, Clone)]
pub struct CachedImage {
    /// The encoded bytes.
    pub bytes: Bytes,
    /// Their format.
    pub format: ImageFormat,
    /// The messages of the render that produced them.
    pub messages: Arc<[Message]>,
}

/// What one render returns.
#[derive(Debug, Clone)]
pub struct RenderResult {
    /// The encoded image.
    pub bytes: Bytes,
    /// The request hash (16 lowercase hex characters), the key of `/cache/<hash>`.
    pub hash: String,
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub content_type: &'static str,
    /// The image came from the cache.
    pub cached: bool,
    /// Problems found in the config (the image is still drawn).
    pub messages: Vec<Message>,
}

/// `/health`'s `renderer.concurrency`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct ConcurrencyHealth {
    /// `CONCURRENCY`.
    pub max: usize,
    /// Renders running now.
    pub active: usize,
    /// Renders waiting for a slot.
    pub pending: usize,
}

/// `/health`'s `renderer`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RendererHealth {
    /// The browser engine has a live WebDriver session.
    pub browser_connected: bool,
    /// Render slots.
    pub concurrency: ConcurrencyHealth,
    /// Browser tabs open for renders.
    pub active_pages: usize,
    /// The browser's page timeout.
    pub page_timeout_seconds: u64,
}

/// `/health`'s `cache`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CacheHealth {
    /// Entries held.
    pub size: usize,
    /// `CACHE_MAX_ENTRIES`.
    pub max_entries: usize,
    /// `CACHE_TTL_SECONDS`.
    pub ttl_seconds: u64,
}

/// The body of `GET /health`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Health {
    /// Always `ok` while the process answers.
    pub status: &'static str,
    /// [`VERSION`].
    pub version: &'static str,
    /// Engines and render slots.
    pub renderer: RendererHealth,
    /// The cache.
    pub cache: CacheHealth,
}

/// Counts a number up for as long as the guard lives.
struct Gauge(Arc<AtomicUsize>);

impl Gauge {
    fn new(counter: &Arc<AtomicUsize>) -> Self {
        counter.fetch_add(1, Ordering::SeqCst);
        Self(counter.clone())
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

type Flight = Arc<OnceCell<Result<CachedImage, ServiceError>>>;

struct Inner {
    config: ServiceConfig,
    renderer: Arc<dyn BlockingRenderer>,
    browser: browser::Slot,
    cache: Cache<String, CachedImage>,
    permits: Arc<Semaphore>,
    active: Arc<AtomicUsize>,
    pending: Arc<AtomicUsize>,
    renders: AtomicU64,
    in_flight: Mutex<HashMap<String, Flight>>,
}

/// The render service. Cheap to clone; clones share the cache and the render slots.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

impl Service {
    /// A service drawing with the skia engine (fonts are discovered here, once).
    pub fn new(config: ServiceConfig) -> Self {
        Self::with_renderer(config, Arc::new(chart_raster_skia::Engine::new()))
    }

    /// A service whose `skia` slot is the given renderer.
    pub fn with_renderer(config: ServiceConfig, renderer: Arc<dyn BlockingRenderer>) -> Self {
        let cache = Cache::with_clock(config.cache, config.clock.clone());
        let browser = browser::Slot::new(&config);
        Self {
            inner: Arc::new(Inner {
                permits: Arc::new(Semaphore::new(config.concurrency.max(1))),
                config,
                renderer,
                browser,
                cache,
                active: Arc::new(AtomicUsize::new(0)),
                pending: Arc::new(AtomicUsize::new(0)),
                renders: AtomicU64::new(0),
                in_flight: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The settings.
    pub fn config(&self) -> &ServiceConfig {
        &self.inner.config
    }

    /// Validates a JSON request and renders it.
    pub async fn render_json(
        &self,
        request: &serde_json::Value,
    ) -> Result<RenderResult, ServiceError> {
        self.render(RenderOptions::from_json(request)?).await
    }

    /// Renders a validated request, from the cache when possible. Identical requests in
    /// flight at the same time share one render.
    pub async fn render(&self, opts: RenderOptions) -> Result<RenderResult, ServiceError> {
        let hash = opts.hash();
        if let Some(img) = self.inner.cache.get(&hash) {
            return Ok(result(img, hash, true));
        }
        let flight: Flight = {
            let mut map = self
                .inner
                .in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            map.entry(hash.clone()).or_default().clone()
        };
        let outcome = flight
            .get_or_init(|| self.produce(&opts, &hash))
            .await
            .clone();
        {
            let mut map = self
                .inner
                .in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if map.get(&hash).is_some_and(|f| Arc::ptr_eq(f, &flight)) {
                map.remove(&hash);
            }
        }
        outcome.map(|img| result(img, hash, false))
    }

    /// The cached image of a hash, if it is there and alive.
    pub fn cached(&self, hash: &str) -> Option<CachedImage> {
        self.inner.cache.get(&hash.to_string())
    }

    /// Engine renders started since the service was made (cache hits and requests that
    /// joined an identical render in flight do not count).
    pub fn renders(&self) -> u64 {
        self.inner.renders.load(Ordering::SeqCst)
    }

    /// The `/health` snapshot.
    pub fn health(&self) -> Health {
        let b = self.inner.browser.status();
        let cache = self.inner.cache.config();
        Health {
            status: "ok",
            version: VERSION,
            renderer: RendererHealth {
                browser_connected: b.connected,
                concurrency: ConcurrencyHealth {
                    max: self.inner.config.concurrency.max(1),
                    active: self.inner.active.load(Ordering::SeqCst),
                    pending: self.inner.pending.load(Ordering::SeqCst),
                },
                active_pages: b.active_pages,
                page_timeout_seconds: b.page_timeout_seconds,
            },
            cache: CacheHealth {
                size: self.inner.cache.len(),
                max_entries: cache.max_entries,
                ttl_seconds: cache.ttl.as_secs(),
            },
        }
    }

    /// Stops the browser engine, if it started.
    pub async fn shutdown(&self) {
        self.inner.browser.shutdown().await;
    }

    /// The leader of a flight: draws, encodes and stores one image.
    async fn produce(&self, opts: &RenderOptions, hash: &str) -> Result<CachedImage, ServiceError> {
        // A flight that just landed may have stored the image between our lookup and now.
        if let Some(img) = self.inner.cache.get(&hash.to_string()) {
            return Ok(img);
        }
        let permit = {
            let _waiting = Gauge::new(&self.inner.pending);
            self.inner
                .permits
                .clone()
                .acquire_owned()
                .await
                .map_err(|e| ServiceError::Internal(e.to_string()))?
        };
        // The slot (permit + active count) moves into the blocking task and is released when
        // the work really ends: after a timeout the thread may still be drawing, and it must
        // keep counting against CONCURRENCY until it stops.
        let slot = (permit, Gauge::new(&self.inner.active));
        self.inner.renders.fetch_add(1, Ordering::SeqCst);
        let limit = self.inner.config.max_render_time;
        let work = async {
            match opts.engine {
                EngineKind::Skia => {
                    let renderer = self.inner.renderer.clone();
                    let opts = opts.clone();
                    run_blocking(move || {
                        let _slot = slot;
                        let rendered = renderer.render(&opts).map_err(ServiceError::Render)?;
                        encoded(rendered, &opts, |bitmap| renderer.recycle(bitmap))
                    })
                    .await
                }
                EngineKind::Browser => {
                    let rendered = self.inner.browser.render(opts).await?;
                    let opts = opts.clone();
                    run_blocking(move || {
                        let _slot = slot;
                        encoded(rendered, &opts, drop)
                    })
                    .await
                }
            }
        };
        let img = tokio::time::timeout(limit, work)
            .await
            .map_err(|_| ServiceError::Timeout(limit))??;
        self.inner
            .cache
            .insert(hash.to_string(), img.clone(), img.bytes.len() as u64);
        Ok(img)
    }
}

async fn run_blocking(
    f: impl FnOnce() -> Result<CachedImage, ServiceError> + Send + 'static,
) -> Result<CachedImage, ServiceError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        if e.is_panic() {
            let payload = e.into_panic();
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            ServiceError::Internal(format!("render panicked: {msg}"))
        } else {
            ServiceError::Internal("render task cancelled".into())
        }
    })?
}

/// The encoded image; the bitmap goes to `done` once encoded (see
/// [`BlockingRenderer::recycle`]).
fn encoded(
    rendered: Rendered,
    opts: &RenderOptions,
    done: impl FnOnce(Bitmap),
) -> Result<CachedImage, ServiceError> {
    let bytes = encode(&rendered.bitmap, opts.format, opts.quality);
    done(rendered.bitmap);
    Ok(CachedImage {
        bytes: Bytes::from(bytes?),
        format: opts.format,
        messages: rendered.messages.into(),
    })
}

fn result(img: CachedImage, hash: String, cached: bool) -> RenderResult {
    RenderResult {
        content_type: img.format.content_type(),
        bytes: img.bytes,
        hash,
        cached,
        messages: img.messages.to_vec(),
    }
}

/// The browser engine, or its absence when built without the `browser` feature.
mod browser {
    use super::{ServiceConfig, ServiceError};
    use chart_spec::{RenderOptions, Rendered};

    /// What `/health` reports about the browser.
    pub(super) struct Status {
        pub connected: bool,
        pub active_pages: usize,
        pub page_timeout_seconds: u64,
    }

    #[cfg(feature = "browser")]
    pub(super) struct Slot(chart_raster_browser::BrowserEngine);

    #[cfg(feature = "browser")]
    impl Slot {
        pub fn new(config: &ServiceConfig) -> Self {
            Self(chart_raster_browser::BrowserEngine::new(
                config.browser.clone(),
            ))
        }

        pub async fn render(&self, opts: &RenderOptions) -> Result<Rendered, ServiceError> {
            use chart_raster_browser::BrowserError;
            self.0.render(opts).await.map_err(|e| match e {
                BrowserError::Unavailable(reason) => ServiceError::BrowserUnavailable(reason),
                BrowserError::Timeout(d) => ServiceError::Timeout(d),
                BrowserError::Render(m) => ServiceError::Render(m),
            })
        }

        pub fn status(&self) -> Status {
            let s = self.0.status();
            Status {
                connected: s.connected,
                active_pages: s.active_pages,
                page_timeout_seconds: s.page_timeout_seconds,
            }
        }

        pub async fn shutdown(&self) {
            self.0.shutdown().await;
        }
    }

    #[cfg(not(feature = "browser"))]
    pub(super) struct Slot;

    #[cfg(not(feature = "browser"))]
    impl Slot {
        pub fn new(_config: &ServiceConfig) -> Self {
            Slot
        }

        pub async fn render(&self, _opts: &RenderOptions) -> Result<Rendered, ServiceError> {
            Err(ServiceError::BrowserUnavailable(
                "chart-raster was built without the `browser` feature".into(),
            ))
        }

        pub fn status(&self) -> Status {
            Status {
                connected: false,
                active_pages: 0,
                page_timeout_seconds: 0,
            }
        }

        pub async fn shutdown(&self) {}
    }
}
