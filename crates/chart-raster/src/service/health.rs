//! What `/health` and `/metrics` report about a [`Service`](super::Service).

use crate::metrics::RenderMetricsSnapshot;
use chart_cache::SharedStats;
use serde::Serialize;

/// `/health`'s `renderer.concurrency`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ConcurrencyHealth {
    /// `CONCURRENCY`.
    pub max: usize,
    /// Renders running now (until their thread really stops).
    pub active: usize,
    /// Renders waiting for a slot.
    pub pending: usize,
    /// `MAX_PENDING`.
    pub max_pending: usize,
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
    /// `memory` (this process only), or `redis` (`CACHE_URL`: shared by every replica).
    pub backend: &'static str,
    /// The backend answers: always for `memory`; for `redis`, a connection is up (while it
    /// is not, the cache is this process' memory and renders go on).
    pub connected: bool,
}

/// The body of `GET /health`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Health {
    /// Always `ok` while the process answers.
    pub status: &'static str,
    /// [`VERSION`](super::VERSION).
    pub version: &'static str,
    /// Engines and render slots.
    pub renderer: RendererHealth,
    /// The cache.
    pub cache: CacheHealth,
}

/// The cache's figures for `/metrics`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheMetrics {
    /// Lookups that found a live image.
    pub hits: u64,
    /// Lookups that found none (or an expired one).
    pub misses: u64,
    /// Images held.
    pub entries: u64,
    /// Bytes of the images held.
    pub bytes: u64,
    /// The shared level (`CACHE_URL`), when there is one: its counters and whether it is
    /// connected. The figures above are this process' memory level.
    pub redis: Option<SharedStats>,
}

/// What `GET /metrics` reports about the service, at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceMetrics {
    /// Requests by engine, format and outcome; render times by engine.
    pub renders: RenderMetricsSnapshot,
    /// The cache.
    pub cache: CacheMetrics,
    /// Renders running now (until their thread really stops).
    pub in_flight: u64,
    /// Renders waiting for a slot.
    pub pending: u64,
    /// Their parsed input, estimated (see `MAX_PENDING_BYTES`).
    pub pending_bytes: u64,
    /// Browser sessions and chromedriver restarted after a failure.
    pub browser_restarts: u64,
    /// Second cores asked for by the splitting stages, lent or refused.
    pub second_core: crate::metrics::SecondCoreCounts,
}
