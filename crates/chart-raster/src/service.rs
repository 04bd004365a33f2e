//! The render service: one request goes validate → hash → cache lookup → single flight →
//! bounded queue → concurrency limit → engine (with a [`Cancel`]) → timeout → encode → store.
//!
//! The HTTP server and the CLI both drive this type; neither talks to an engine directly.
//!
//! A render costs nothing once nobody waits for it: it runs as a flight in its own task, and
//! when its last requester goes (the HTTP client disconnected, so hyper dropped the request's
//! future) the task is aborted, which takes it out of the queue, and its Cancel fires, so the
//! engine stops at its next poll and gives the slot back. The Cancel also carries the deadline
//! `start + MAX_RENDER_TIME_SECONDS` (start: the slot, or the request's arrival given to
//! [`Service::render_received`]), which is when the request is answered 504.
//!
//! The cache has two levels ([`TieredCache`]): this process' LRU, then, with `CACHE_URL`,
//! Redis shared by every replica. A flight that misses both claims the render across
//! replicas (a short lock in Redis) before taking a slot, so the same request arriving at two
//! replicas at once is drawn once; Redis being away only makes the cache local.

mod ahead;
mod browser;
mod cache;
mod draw;
mod flight;
mod freeing;
mod health;
mod queue;

use ahead::Ahead;
pub use ahead::Prepared;
use cache::shared_cache;
pub use cache::CachedImage;
pub(crate) use draw::{draw_encoded, panicked, result};
use draw::{encoded, run_blocking};
use flight::{Flight, FlightControl, Waiter};
use freeing::free_off_the_answer;
pub use health::{
    CacheHealth, CacheMetrics, ConcurrencyHealth, Health, RendererHealth, ServiceMetrics,
};
pub use queue::parsed_size;
use queue::{Gauge, QueuedBytes};

use crate::encode::{EncodeError, PngCompression};
use crate::metrics::{OutcomeGuard, RenderMetrics, RenderOutcome};
use bytes::Bytes;
use chart_cache::{CacheConfig, Claim, Clock, SharedConfig, SystemClock, TieredCache};
use chart_spec::{
    Bitmap, Cancel, EngineKind, Limits, Message, RenderOptions, Rendered, RequestError,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore, TryAcquireError};

/// The version reported by `/health`, `X-Powered-By` and `--version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Default `MAX_RENDER_TIME_SECONDS`.
pub const DEFAULT_MAX_RENDER_TIME: Duration = Duration::from_secs(30);

/// Default `MAX_PENDING`, per render slot: `MAX_PENDING` = 4 × `CONCURRENCY` unless set.
///
/// Why 4: a queued request waits for the renders ahead of it, so its latency grows with the
/// queue; at four per slot a cache miss waits at most about four render times (~0.1 s for a
/// typical chart), while a burst of a few connections per core (the load test's 8 on 2 cores)
/// still queues instead of failing. Beyond that a client is better served by an immediate 503
/// and a retry (or another replica) than by a long wait. Scaling with the slots keeps the
/// wait, not the count, the same on bigger machines; each queued request holds its parsed
/// body (bounded by the input budgets), so memory grows with it too.
pub const PENDING_PER_SLOT: usize = 4;

/// Default `MAX_PENDING_BYTES`: 256 MiB of parsed input held by the requests waiting for a
/// render slot.
///
/// Each queued request holds its parsed config, up to about 250 MiB at the default input
/// budgets (README, "Parsing memory"), so `MAX_PENDING` of them could hold gigabytes. 256 MiB
/// admits one worst-case request, or thousands of ordinary ones (a typical chart is a few
/// hundred values, ~100 KiB by this estimate), and bounds what the queue adds to the memory of
/// the running renders.
pub const DEFAULT_MAX_PENDING_BYTES: u64 = 256 * 1024 * 1024;

/// Bytes a parsed JSON value is counted for in the queue's budget: the costliest shape
/// measured (single-key objects nested in each other: 191-206 B per value, README "Parsing
/// memory"), so the estimate is an upper bound for every other shape (numbers: 76-88 B).
pub const PARSED_BYTES_PER_VALUE: u64 = 210;

/// `Retry-After` (seconds) of a 503 for a full queue or a shutdown: the queue drains in far
/// less than a second under normal renders, so a client may try again right away.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// Why a render produced no image.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ServiceError {
    /// The request is invalid (HTTP 400).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The chart needs more than a budget of [`Limits`] allows (HTTP 400); the message names
    /// the limit and its variable.
    #[error("{0}")]
    Rejected(String),
    /// The browser engine cannot run here (HTTP 503).
    #[error("browser engine unavailable: {0}")]
    BrowserUnavailable(String),
    /// Every render slot is busy and `MAX_PENDING` requests already wait (HTTP 503 with
    /// `Retry-After`).
    #[error("too many renders waiting: {max_pending} are queued (MAX_PENDING); retry later")]
    Busy {
        /// `MAX_PENDING`.
        max_pending: usize,
    },
    /// Every render slot is busy and the requests already waiting hold `MAX_PENDING_BYTES` of
    /// parsed input, with this one (HTTP 503 with `Retry-After`).
    #[error(
        "too many renders waiting: the queued requests would hold about {} MiB of parsed input, \
         over MAX_PENDING_BYTES ({max_pending_bytes} bytes); retry later",
        .queued_bytes.div_ceil(1024 * 1024)
    )]
    QueueMemory {
        /// What the queue would hold with this request, estimated.
        queued_bytes: u64,
        /// `MAX_PENDING_BYTES`.
        max_pending_bytes: u64,
    },
    /// The service is shutting down and starts no more renders (HTTP 503).
    #[error("the service is shutting down")]
    ShuttingDown,
    /// The request waited `MAX_RENDER_TIME_SECONDS` in the queue without getting a render
    /// slot (HTTP 503 with `Retry-After`).
    #[error(
        "no render slot became free within {} s (MAX_RENDER_TIME_SECONDS); retry later",
        .0.as_secs_f64()
    )]
    QueueTimeout(Duration),
    /// The render took longer than `MAX_RENDER_TIME_SECONDS` (HTTP 504), counted from its
    /// slot, or from when the request was received ([`Service::render_received`]).
    #[error("render timed out after {} s (MAX_RENDER_TIME_SECONDS)", .0.as_secs_f64())]
    Timeout(Duration),
    /// The engine failed (HTTP 500).
    #[error("render failed: {0}")]
    Render(String),
    /// The encoder failed (HTTP 500).
    #[error("encoding failed: {0}")]
    Encode(#[from] EncodeError),
    /// A bug: a render panicked or its task ended without a result (HTTP 500). The message
    /// holds the detail for the log; it is not meant for clients.
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

impl ServiceError {
    /// The `outcome` label of `/metrics` for this error.
    pub fn outcome(&self) -> RenderOutcome {
        match self {
            ServiceError::Request(_) | ServiceError::Rejected(_) => RenderOutcome::Rejected,
            ServiceError::BrowserUnavailable(_)
            | ServiceError::Busy { .. }
            | ServiceError::QueueMemory { .. }
            | ServiceError::ShuttingDown
            | ServiceError::QueueTimeout(_) => RenderOutcome::Unavailable,
            ServiceError::Timeout(_) => RenderOutcome::Timeout,
            ServiceError::Render(_)
            | ServiceError::Encode(_)
            | ServiceError::Internal(_)
            | ServiceError::Config { .. } => RenderOutcome::Error,
        }
    }

    /// Seconds after which the same request may succeed (`Retry-After`), for the errors that
    /// come from the service's state rather than from the request.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            ServiceError::Busy { .. }
            | ServiceError::QueueMemory { .. }
            | ServiceError::ShuttingDown
            | ServiceError::QueueTimeout(_) => Some(RETRY_AFTER_SECONDS),
            _ => None,
        }
    }
}

/// Why a [`BlockingRenderer`] produced no image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderFailure {
    /// The render's [`Cancel`] fired (deadline, client gone, shutdown) and it stopped.
    #[error("render cancelled")]
    Cancelled,
    /// The chart needs more than a budget allows: a client error (HTTP 400). The message
    /// names the limit.
    #[error("{0}")]
    Rejected(String),
    /// The engine failed (HTTP 500).
    #[error("{0}")]
    Failed(String),
}

impl From<chart_raster_skia::Error> for RenderFailure {
    fn from(e: chart_raster_skia::Error) -> Self {
        use chart_raster_skia::Error;
        match e {
            Error::Cancelled => RenderFailure::Cancelled,
            Error::Limit { .. } => RenderFailure::Rejected(e.to_string()),
            // A side of zero device pixels comes from the request (`width: 0.4` at dpr 1);
            // a bitmap that cannot be allocated within MAX_PIXELS is the server's problem.
            Error::BitmapSize { width, height } if width == 0 || height == 0 => {
                RenderFailure::Rejected(format!(
                    "Invalid size: the bitmap would be {width}x{height} device pixels; \
                     width and height times devicePixelRatio must be at least 1"
                ))
            }
            _ => RenderFailure::Failed(e.to_string()),
        }
    }
}

/// A renderer that blocks its thread (CPU-bound); the service runs it on tokio's blocking pool.
/// The skia engine is one; tests plug in others (slow, counting, panicking).
pub trait BlockingRenderer: Send + Sync + 'static {
    /// Draws one validated request. Long work polls `cancel` and returns
    /// [`RenderFailure::Cancelled`] soon after it fires: the render slot stays taken until
    /// this returns.
    fn render(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, RenderFailure>;

    /// Takes back a bitmap from [`BlockingRenderer::render`] once it is encoded, for reuse.
    fn recycle(&self, bitmap: Bitmap) {
        drop(bitmap);
    }

    /// Draws one validated PNG request and encodes it with `png`: the file (or why it could
    /// not be encoded) and the render's messages. By default [`render`](Self::render), then
    /// the encoder; the skia engine does better, encoding each band of rows on the core
    /// that drew it (`encode/bands.rs`).
    fn render_png(
        &self,
        opts: &RenderOptions,
        cancel: &Cancel,
        png: PngCompression,
    ) -> Result<(Result<Vec<u8>, EncodeError>, Vec<Message>), RenderFailure> {
        draw::render_then_encode(self, opts, cancel, png)
    }

    /// Whether [`prepare`](Self::prepare) builds anything for PNG requests encoded with
    /// `png`: the service then starts a large request's first stage on an idle core while
    /// it writes the request's cache key. Default: no.
    fn prepares(&self, png: PngCompression) -> bool {
        let _ = png;
        false
    }

    /// The first stage of [`render_png`](Self::render_png) (the skia engine's scene), for
    /// [`render_png_prepared`](Self::render_png_prepared) to go on with; run before the
    /// render has its slot, on an idle core, polling `cancel`. Refuses what that render
    /// would refuse at that stage.
    fn prepare(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Prepared, RenderFailure> {
        let _ = (opts, cancel);
        Err(RenderFailure::Failed(
            "this renderer prepares nothing".into(),
        ))
    }

    /// [`render_png`](Self::render_png) going on from what [`prepare`](Self::prepare)
    /// made of the same request: the same result. By default, `render_png` afresh.
    fn render_png_prepared(
        &self,
        prepared: Prepared,
        opts: &RenderOptions,
        cancel: &Cancel,
        png: PngCompression,
    ) -> Result<(Result<Vec<u8>, EncodeError>, Vec<Message>), RenderFailure> {
        drop(prepared);
        self.render_png(opts, cancel, png)
    }

    /// Writes one validated request whose format is a vector one (SVG, PDF): the file and
    /// the render's messages. A renderer that only makes bitmaps keeps this default.
    fn render_vector(
        &self,
        opts: &RenderOptions,
        cancel: &Cancel,
    ) -> Result<(Vec<u8>, Vec<Message>), RenderFailure> {
        let _ = cancel;
        Err(RenderFailure::Failed(format!(
            "this renderer does not write {}",
            opts.format.as_str()
        )))
    }
}

/// The settings of a [`Service`].
#[derive(Clone)]
pub struct ServiceConfig {
    /// Renders running at once (`CONCURRENCY`). Default: the number of cores.
    pub concurrency: usize,
    /// Requests that may wait for a render slot (`MAX_PENDING`); one more is answered 503 at
    /// once. `None`: [`PENDING_PER_SLOT`] × `concurrency` (see there for why). Identical
    /// requests joining a render in flight do not count.
    pub max_pending: Option<usize>,
    /// Parsed input the waiting requests may hold in all (`MAX_PENDING_BYTES`), estimated
    /// at [`PARSED_BYTES_PER_VALUE`] per JSON value plus the text of its strings; a request
    /// that would take the queue over it is answered 503 at once, unless the queue is empty
    /// (so one request larger than the budget still renders, alone). Default:
    /// [`DEFAULT_MAX_PENDING_BYTES`].
    pub max_pending_bytes: u64,
    /// Longest a render may take once it has started (`MAX_RENDER_TIME_SECONDS`): it is
    /// answered 504 then, and the engine stops through its [`Cancel`]. Default: 30 s.
    pub max_render_time: Duration,
    /// The input budgets of one render (`MAX_POINTS`, `MAX_TEXT_CHARS`, ...).
    /// Default: [`Limits::default`].
    pub limits: Limits,
    /// Cache bounds (`CACHE_MAX_ENTRIES`, `CACHE_MAX_BYTES`, `CACHE_TTL_SECONDS`).
    pub cache: CacheConfig,
    /// The cache's clock. Default: the system clock.
    pub clock: Arc<dyn Clock>,
    /// The shared cache level (`CACHE_URL`, `CACHE_MAX_ENTRY_BYTES`,
    /// `CACHE_REDIS_TIMEOUT_MS`, `CACHE_REDIS_CA_FILE`). Default: none, the cache is this process' memory only.
    pub shared_cache: Option<SharedConfig>,
    /// How hard PNG data is deflated (`PNG_COMPRESSION`: `fast`, `default` or `small`).
    /// Default: [`PngCompression::Default`].
    pub png_compression: PngCompression,
    /// Where the browser engine finds Chromium. Default: `BrowserConfig::from_env()`.
    #[cfg(feature = "browser")]
    pub browser: chart_raster_browser::BrowserConfig,
}

impl std::fmt::Debug for ServiceConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ServiceConfig");
        d.field("concurrency", &self.concurrency)
            .field("max_pending", &self.max_pending)
            .field("max_pending_bytes", &self.max_pending_bytes)
            .field("max_render_time", &self.max_render_time)
            .field("limits", &self.limits)
            .field("cache", &self.cache)
            .field("shared_cache", &self.shared_cache);
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
            max_pending: None,
            max_pending_bytes: DEFAULT_MAX_PENDING_BYTES,
            max_render_time: DEFAULT_MAX_RENDER_TIME,
            limits: Limits::default(),
            cache: CacheConfig::default(),
            clock: Arc::new(SystemClock::new()),
            shared_cache: None,
            png_compression: PngCompression::Default,
            #[cfg(feature = "browser")]
            browser: chart_raster_browser::BrowserConfig::from_env(),
        }
    }
}

impl ServiceConfig {
    /// Defaults overridden by `CONCURRENCY`, `MAX_PENDING`, `MAX_PENDING_BYTES`,
    /// `MAX_RENDER_TIME_SECONDS`, `PNG_COMPRESSION`, `CACHE_MAX_ENTRIES`, `CACHE_MAX_BYTES`,
    /// `CACHE_TTL_SECONDS`, `CACHE_URL`, `CACHE_MAX_ENTRY_BYTES`, `CACHE_REDIS_TIMEOUT_MS`,
    /// `CACHE_REDIS_CA_FILE` and the budgets of [`Limits::from_vars`], read through `var`
    /// (the process environment in the binary, a map in tests). Empty values count as unset.
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
        let limits = Limits::from_vars(&var).map_err(|e| ServiceError::Config {
            name: e.name,
            value: e.value,
            reason: e.reason,
        })?;
        let mut c = Self {
            limits,
            ..Self::default()
        };
        if let Some(n) = num::<usize>(&var, "CONCURRENCY", true)? {
            c.concurrency = n;
        }
        c.max_pending = num::<usize>(&var, "MAX_PENDING", false)?;
        if let Some(n) = num::<u64>(&var, "MAX_PENDING_BYTES", false)? {
            c.max_pending_bytes = n;
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
        if let Some(v) = var("PNG_COMPRESSION").filter(|v| !v.trim().is_empty()) {
            c.png_compression =
                PngCompression::from_name(&v).ok_or_else(|| ServiceError::Config {
                    name: "PNG_COMPRESSION",
                    value: v.clone(),
                    reason: "expected fast, default or small",
                })?;
        }
        c.shared_cache = shared_cache(
            var("CACHE_URL"),
            num::<u64>(&var, "CACHE_MAX_ENTRY_BYTES", true)?,
            num::<u64>(&var, "CACHE_REDIS_TIMEOUT_MS", true)?,
            var("CACHE_REDIS_CA_FILE").filter(|v| !v.trim().is_empty()),
        )?;
        Ok(c)
    }

    /// How long a render may hold the cross-replica render lock: its wait for a slot and its
    /// render are each bounded by `MAX_RENDER_TIME_SECONDS`; a second on top for the encode
    /// and the store. A holder that dies leaves a lock that expires after this.
    pub fn render_lock_hold(&self) -> Duration {
        self.max_render_time
            .saturating_mul(2)
            .saturating_add(Duration::from_secs(1))
    }

    /// How long a flight waits for another replica's render of the same request before it
    /// renders itself: half of `MAX_RENDER_TIME_SECONDS`, so a request that waited in vain
    /// still ends within 1.5 times the render limit.
    pub fn render_lock_wait(&self) -> Duration {
        self.max_render_time / 2
    }

    /// Render slots: `concurrency`, at least 1.
    pub fn slots(&self) -> usize {
        self.concurrency.max(1)
    }

    /// `MAX_PENDING` in effect: the setting, or [`PENDING_PER_SLOT`] per slot.
    pub fn max_pending(&self) -> usize {
        self.max_pending
            .unwrap_or_else(|| PENDING_PER_SLOT.saturating_mul(self.slots()))
    }
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct Inner {
    config: ServiceConfig,
    renderer: Arc<dyn BlockingRenderer>,
    browser: browser::Slot,
    cache: TieredCache<CachedImage>,
    permits: Arc<Semaphore>,
    active: Arc<AtomicUsize>,
    pending: Arc<AtomicUsize>,
    /// Estimated parsed input held by the requests in `pending`.
    pending_bytes: Arc<AtomicU64>,
    renders: AtomicU64,
    metrics: RenderMetrics,
    flights: Mutex<HashMap<String, Arc<Flight>>>,
    /// Raised by [`Service::begin_shutdown`]: queued renders give up, new ones are refused.
    closing: watch::Sender<bool>,
}

/// The render service. Cheap to clone; clones share the cache and the render slots.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

impl Service {
    /// A service drawing with the skia engine (fonts are discovered here, once), within the
    /// configured budgets.
    pub fn new(config: ServiceConfig) -> Self {
        let engine = crate::cores::skia_engine().with_limits(config.limits);
        Self::with_renderer(config, Arc::new(engine))
    }

    /// A service whose `skia` slot is the given renderer.
    pub fn with_renderer(config: ServiceConfig, renderer: Arc<dyn BlockingRenderer>) -> Self {
        let cache = TieredCache::new(
            config.cache,
            config.clock.clone(),
            config.shared_cache.clone(),
        );
        let browser = browser::Slot::new(&config);
        Self {
            inner: Arc::new(Inner {
                permits: Arc::new(Semaphore::new(config.slots())),
                config,
                renderer,
                browser,
                cache,
                active: Arc::new(AtomicUsize::new(0)),
                pending: Arc::new(AtomicUsize::new(0)),
                pending_bytes: Arc::new(AtomicU64::new(0)),
                renders: AtomicU64::new(0),
                metrics: RenderMetrics::default(),
                flights: Mutex::new(HashMap::new()),
                closing: watch::Sender::new(false),
            }),
        }
    }

    /// The settings.
    pub fn config(&self) -> &ServiceConfig {
        &self.inner.config
    }

    /// Validates a JSON request against the configured budgets and renders it.
    pub async fn render_json(
        &self,
        request: &serde_json::Value,
    ) -> Result<RenderResult, ServiceError> {
        let opts = RenderOptions::from_json_with_limits(request, &self.inner.config.limits)?;
        self.render(opts).await
    }

    /// Renders a validated request, from the cache when possible. Identical requests in
    /// flight at the same time share one render. Dropping the returned future withdraws the
    /// request; the render stops once no request waits for it, or `MAX_RENDER_TIME_SECONDS`
    /// after it got a render slot.
    pub async fn render(&self, opts: RenderOptions) -> Result<RenderResult, ServiceError> {
        self.render_received(opts, None).await
    }

    /// [`Service::render`] by the deadline `received + MAX_RENDER_TIME_SECONDS` when given
    /// `received`, when the request arrived (before it was parsed): parsing, scanning and
    /// hashing a large body count against it (the CLI takes bodies of any size; 100 MB took
    /// 0.5 s before the deadline started). A request past it is answered
    /// [`ServiceError::Timeout`] before it is drawn (a cached image is still served); one that
    /// joins a render in flight keeps that render's deadline.
    pub async fn render_received(
        &self,
        opts: RenderOptions,
        received: Option<Instant>,
    ) -> Result<RenderResult, ServiceError> {
        let guard = OutcomeGuard {
            metrics: &self.inner.metrics,
            engine: opts.engine,
            format: opts.format,
            done: false,
        };
        let r = self.render_counted(opts, received).await;
        guard.finish(match &r {
            Ok(r) if r.cached => RenderOutcome::CacheHit,
            Ok(_) => RenderOutcome::Rendered,
            Err(e) => e.outcome(),
        });
        r
    }

    async fn render_counted(
        &self,
        opts: RenderOptions,
        received: Option<Instant>,
    ) -> Result<RenderResult, ServiceError> {
        let deadline = received.and_then(|r| r.checked_add(self.inner.config.max_render_time));
        // Shared with the blocking render, not copied (a copy costs a parse).
        let opts = Arc::new(opts);
        // A large request's scene is built on an idle core meanwhile (dropped unused on a
        // hit or a joined flight); the key is then written here alone, else on two threads
        // when a core is idle.
        let png = self.inner.config.png_compression;
        let ahead = ahead::start(&self.inner.renderer, &opts, png, deadline);
        let hash = match ahead {
            Some(_) => opts.hash(),
            None => opts.hash_with_core(crate::cores::prefix_core),
        };
        if let Some((img, _level)) = self.inner.cache.get(&hash).await {
            return Ok(result(img, hash, true));
        }
        let waiter = self.join(opts, &hash, deadline, ahead);
        let mut rx = waiter.flight.result.clone();
        let outcome = match rx.wait_for(Option::is_some).await {
            Ok(r) => r.clone().unwrap_or_else(|| {
                Err(ServiceError::Internal(
                    "a flight landed without a result".into(),
                ))
            }),
            // The task ended without sending: it panicked outside the blocking work.
            Err(_) => Err(ServiceError::Internal(
                "the render task ended without a result".into(),
            )),
        };
        drop(waiter);
        outcome.map(|img| result(img, hash, false))
    }

    /// Joins the flight of `hash`, starting it (with `deadline`, if given, and what was
    /// started `ahead`) when there is none.
    fn join(
        &self,
        opts: Arc<RenderOptions>,
        hash: &str,
        deadline: Option<Instant>,
        ahead: Option<Ahead>,
    ) -> Waiter {
        let mut map = lock(&self.inner.flights);
        let flight = match map.get(hash) {
            Some(f) => f.clone(),
            None => {
                let (tx, rx) = watch::channel(None);
                let flight = Arc::new(Flight {
                    waiters: AtomicUsize::new(0),
                    result: rx,
                    control: Mutex::new(FlightControl::default()),
                });
                let task = {
                    let service = self.clone();
                    let flight = flight.clone();
                    let hash = hash.to_string();
                    tokio::spawn(async move {
                        let outcome =
                            (service.produce(&opts, &hash, &flight, deadline, ahead)).await;
                        service.land(&hash, &flight);
                        let _ = tx.send(Some(outcome));
                        free_off_the_answer(opts);
                    })
                };
                lock(&flight.control).task = Some(task.abort_handle());
                map.insert(hash.to_string(), flight.clone());
                flight
            }
        };
        flight.waiters.fetch_add(1, Ordering::SeqCst);
        Waiter {
            inner: self.inner.clone(),
            hash: hash.to_string(),
            flight,
        }
    }

    /// Takes a finished flight out of the map: later requests find the cache, or start afresh
    /// after an error.
    fn land(&self, hash: &str, flight: &Arc<Flight>) {
        let mut map = lock(&self.inner.flights);
        if map.get(hash).is_some_and(|f| Arc::ptr_eq(f, flight)) {
            map.remove(hash);
        }
    }

    /// The cached image of a hash, if it is there and alive: in this process' memory, else
    /// in Redis (an image another replica rendered). Only well-formed hashes (16 lowercase
    /// hex digits, what [`RenderResult::hash`] holds) are looked up.
    pub async fn cached(&self, hash: &str) -> Option<CachedImage> {
        let well_formed =
            hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !well_formed {
            return None;
        }
        self.inner.cache.get(hash).await.map(|(img, _)| img)
    }

    /// Engine renders started since the service was made (cache hits and requests that
    /// joined an identical render in flight do not count).
    pub fn renders(&self) -> u64 {
        self.inner.renders.load(Ordering::SeqCst)
    }

    /// The cache's counters and size. The one place `/metrics` reads the cache from, so a
    /// second cache tier (Redis, issue 15) adds its figures here.
    pub fn cache_metrics(&self) -> CacheMetrics {
        let stats = self.inner.cache.stats();
        CacheMetrics {
            hits: stats.local.hits,
            misses: stats.local.misses,
            entries: self.inner.cache.local_len() as u64,
            bytes: self.inner.cache.local_bytes(),
            redis: stats.shared,
        }
    }

    /// The `/metrics` snapshot.
    pub fn metrics(&self) -> ServiceMetrics {
        ServiceMetrics {
            renders: self.inner.metrics.snapshot(),
            cache: self.cache_metrics(),
            in_flight: self.inner.active.load(Ordering::SeqCst) as u64,
            pending: self.inner.pending.load(Ordering::SeqCst) as u64,
            pending_bytes: self.inner.pending_bytes.load(Ordering::SeqCst),
            browser_restarts: self.inner.browser.status().restarts,
            second_core: crate::cores::second_core_counts(),
        }
    }

    /// The `/health` snapshot.
    pub fn health(&self) -> Health {
        let b = self.inner.browser.status();
        let cache = self.inner.cache.config();
        let backend = self.inner.cache.backend();
        Health {
            status: "ok",
            version: VERSION,
            renderer: RendererHealth {
                browser_connected: b.connected,
                concurrency: ConcurrencyHealth {
                    max: self.inner.config.slots(),
                    active: self.inner.active.load(Ordering::SeqCst),
                    pending: self.inner.pending.load(Ordering::SeqCst),
                    max_pending: self.inner.config.max_pending(),
                },
                active_pages: b.active_pages,
                page_timeout_seconds: b.page_timeout_seconds,
            },
            cache: CacheHealth {
                size: self.inner.cache.local_len(),
                max_entries: cache.max_entries,
                ttl_seconds: cache.ttl.as_secs(),
                backend: backend.backend,
                connected: backend.connected,
            },
        }
    }

    /// The first step of a graceful shutdown: queued requests are answered
    /// [`ServiceError::ShuttingDown`] at once and no new render starts. Renders already
    /// running go on until they finish or reach their deadline (`MAX_RENDER_TIME_SECONDS`),
    /// so a shutdown ends within the render limit.
    pub fn begin_shutdown(&self) {
        self.inner.closing.send_replace(true);
    }

    /// Stops the browser engine, if it started.
    pub async fn shutdown(&self) {
        self.begin_shutdown();
        self.inner.browser.shutdown().await;
    }

    /// A render slot: at once when one is free, else after a wait in the bounded queue
    /// (dropping what was started `ahead`: a queued request holds its parsed body only).
    async fn slot(
        &self,
        opts: &RenderOptions,
        ahead: &mut Option<Ahead>,
    ) -> Result<OwnedSemaphorePermit, ServiceError> {
        let mut closing = self.inner.closing.subscribe();
        if *closing.borrow() {
            return Err(ServiceError::ShuttingDown);
        }
        match self.inner.permits.clone().try_acquire_owned() {
            Ok(p) => return Ok(p),
            Err(TryAcquireError::Closed) => {
                return Err(ServiceError::Internal("the render slots are closed".into()))
            }
            Err(TryAcquireError::NoPermits) => drop(ahead.take()),
        }
        let max_pending = self.inner.config.max_pending();
        let _queued = Gauge::below(&self.inner.pending, max_pending)
            .ok_or(ServiceError::Busy { max_pending })?;
        // Only a request that waits is weighed: the walk costs about what hashing did.
        let _held = QueuedBytes::admit(
            &self.inner.pending_bytes,
            parsed_size(opts),
            self.inner.config.max_pending_bytes,
        )?;
        // Dropping this future (the flight was abandoned) leaves the semaphore's queue and
        // counts `pending` down. The wait is bounded too: slots held by renders that do not
        // stop (an engine bug) must not hold every later request forever.
        let limit = self.inner.config.max_render_time;
        tokio::select! {
            p = self.inner.permits.clone().acquire_owned() => {
                p.map_err(|_| ServiceError::Internal("the render slots are closed".into()))
            }
            _ = closing.wait_for(|c| *c) => Err(ServiceError::ShuttingDown),
            () = tokio::time::sleep(limit) => Err(ServiceError::QueueTimeout(limit)),
        }
    }

    /// The body of a flight: draws, encodes and stores one image, by `deadline` when given,
    /// else within `MAX_RENDER_TIME_SECONDS` of taking a slot.
    async fn produce(
        &self,
        opts: &Arc<RenderOptions>,
        hash: &str,
        flight: &Flight,
        deadline: Option<Instant>,
        mut ahead: Option<Ahead>,
    ) -> Result<CachedImage, ServiceError> {
        let _counted = crate::cores::Request::enter();
        // A flight that just landed may have stored the image between our lookup and now.
        if let Some(img) = self.inner.cache.get_local(hash) {
            return Ok(img);
        }
        // Another replica may be drawing the same request: wait for it (without a slot), or
        // take the lock so that the others wait for us. The lock goes when this flight ends,
        // stored or not (dropped on an error or an abort, it is released in the background).
        let config = &self.inner.config;
        let lock = match (self.inner.cache)
            .claim(hash, config.render_lock_hold(), config.render_lock_wait())
            .await
        {
            Claim::Ready(img) => return Ok(img),
            Claim::Render(lock) => lock,
        };
        let permit = self.slot(opts, &mut ahead).await?;
        // The slot (permit + active count) moves into the blocking task and is released when
        // the work really ends: after a timeout the thread may still be drawing until it sees
        // the Cancel, and it must keep counting against CONCURRENCY until it stops.
        let slot = (permit, Gauge::new(&self.inner.active));
        let limit = self.inner.config.max_render_time;
        let deadline = deadline.unwrap_or_else(|| Instant::now() + limit);
        if Instant::now() >= deadline {
            return Err(ServiceError::Timeout(limit));
        }
        let cancel = Cancel::with_deadline(deadline);
        if !flight.arm(&cancel) {
            return Err(ServiceError::Internal(
                "nobody waits for this render".into(),
            ));
        }
        self.inner.renders.fetch_add(1, Ordering::SeqCst);
        let started = Instant::now();
        let work = async {
            match opts.engine {
                EngineKind::Skia => {
                    let renderer = self.inner.renderer.clone();
                    let opts = Arc::clone(opts);
                    let cancel = cancel.clone();
                    let png = self.inner.config.png_compression;
                    run_blocking(move || {
                        let _slot = slot;
                        // Deadline or shutdown; a render whose waiters all left has no reader
                        // for its error.
                        let cancelled = ServiceError::Timeout(limit);
                        let r = renderer.as_ref();
                        draw_encoded(r, &opts, &cancel, cancelled, png, ahead)
                    })
                    .await
                }
                EngineKind::Browser => {
                    // Options are validated before (RequestError::VectorNeedsSkia); a
                    // RenderOptions built in code may still ask.
                    if opts.format.is_vector() {
                        return Err(ServiceError::Request(RequestError::VectorNeedsSkia(
                            opts.format.as_str(),
                        )));
                    }
                    let rendered = self.inner.browser.render(opts).await?;
                    let opts = Arc::clone(opts);
                    let png = self.inner.config.png_compression;
                    run_blocking(move || {
                        let _slot = slot;
                        encoded(rendered, &opts, png, drop)
                    })
                    .await
                }
            }
        };
        let outcome = tokio::time::timeout_at(deadline.into(), work).await;
        self.inner.metrics.observe(opts.engine, started.elapsed());
        let img = match outcome {
            Ok(r) => r?,
            Err(_) => {
                // Answered 504: the engine stops at its next poll of the Cancel.
                cancel.cancel();
                return Err(ServiceError::Timeout(limit));
            }
        };
        self.inner.cache.insert(hash, img.clone()).await;
        if let Some(lock) = lock {
            lock.release().await;
        }
        Ok(img)
    }
}
