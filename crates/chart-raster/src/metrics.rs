//! Counters of the render service for `GET /metrics`: requests by engine, format and outcome,
//! and the time engine renders take (a histogram by engine). Lock-free atomics indexed by enum
//! position, so the label sets are fixed and recording never allocates.

use chart_spec::{EngineKind, ImageFormat};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (seconds) of the render-time histogram's buckets. A typical chart takes
/// 5-50 ms on the skia engine and 100-500 ms in Chromium; the top bucket is the default
/// `MAX_RENDER_TIME_SECONDS` (renders stop there).
pub const RENDER_SECONDS_BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Every engine, in label order.
pub const ENGINES: [EngineKind; 2] = [EngineKind::Skia, EngineKind::Browser];
/// Every format, in label order.
pub const FORMATS: [ImageFormat; 5] = [
    ImageFormat::Png,
    ImageFormat::Jpeg,
    ImageFormat::Webp,
    ImageFormat::Svg,
    ImageFormat::Pdf,
];

/// How one `Service::render` call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderOutcome {
    /// Drawn and encoded by an engine (alone or shared with identical requests in flight).
    Rendered,
    /// Served from the cache.
    CacheHit,
    /// Refused for the chart's content: over a budget, invalid (HTTP 400).
    Rejected,
    /// No slot: queue full, queue wait over, shutting down, browser unavailable (HTTP 503).
    Unavailable,
    /// Over `MAX_RENDER_TIME_SECONDS` (HTTP 504).
    Timeout,
    /// The engine or encoder failed, or a bug (HTTP 500).
    Error,
    /// The requester went away before the answer (its client disconnected).
    Abandoned,
}

impl RenderOutcome {
    /// Every outcome, in label order.
    pub const ALL: [RenderOutcome; 7] = [
        RenderOutcome::Rendered,
        RenderOutcome::CacheHit,
        RenderOutcome::Rejected,
        RenderOutcome::Unavailable,
        RenderOutcome::Timeout,
        RenderOutcome::Error,
        RenderOutcome::Abandoned,
    ];

    /// The `outcome` label.
    pub fn as_str(self) -> &'static str {
        match self {
            RenderOutcome::Rendered => "rendered",
            RenderOutcome::CacheHit => "cache_hit",
            RenderOutcome::Rejected => "rejected",
            RenderOutcome::Unavailable => "unavailable",
            RenderOutcome::Timeout => "timeout",
            RenderOutcome::Error => "error",
            RenderOutcome::Abandoned => "abandoned",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

fn engine_index(e: EngineKind) -> usize {
    match e {
        EngineKind::Skia => 0,
        EngineKind::Browser => 1,
    }
}

fn format_index(f: ImageFormat) -> usize {
    match f {
        ImageFormat::Png => 0,
        ImageFormat::Jpeg => 1,
        ImageFormat::Webp => 2,
        ImageFormat::Svg => 3,
        ImageFormat::Pdf => 4,
    }
}

const OUTCOMES: usize = RenderOutcome::ALL.len();
const BUCKETS: usize = RENDER_SECONDS_BUCKETS.len();

/// The histogram of one engine: cumulative counts are computed when read.
#[derive(Default)]
struct Histogram {
    /// Observations per bucket (not cumulative); the last slot is above every bound.
    buckets: [AtomicU64; BUCKETS + 1],
    count: AtomicU64,
    sum_nanos: AtomicU64,
}

/// The service's render counters.
#[derive(Default)]
pub struct RenderMetrics {
    renders: [[[AtomicU64; OUTCOMES]; FORMATS.len()]; 2],
    seconds: [Histogram; 2],
}

impl RenderMetrics {
    /// Counts one request's outcome.
    pub fn count(&self, engine: EngineKind, format: ImageFormat, outcome: RenderOutcome) {
        self.renders[engine_index(engine)][format_index(format)][outcome.index()]
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Records the time one engine render (draw and encode) took.
    pub fn observe(&self, engine: EngineKind, took: Duration) {
        let h = &self.seconds[engine_index(engine)];
        let secs = took.as_secs_f64();
        let slot = RENDER_SECONDS_BUCKETS
            .iter()
            .position(|&b| secs <= b)
            .unwrap_or(BUCKETS);
        if let Some(b) = h.buckets.get(slot) {
            b.fetch_add(1, Ordering::Relaxed);
        }
        h.count.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        h.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// A copy of every counter.
    pub fn snapshot(&self) -> RenderMetricsSnapshot {
        let mut renders = Vec::new();
        for engine in ENGINES {
            for format in FORMATS {
                for outcome in RenderOutcome::ALL {
                    let n = self.renders[engine_index(engine)][format_index(format)]
                        [outcome.index()]
                    .load(Ordering::Relaxed);
                    renders.push(RenderCount {
                        engine,
                        format,
                        outcome,
                        count: n,
                    });
                }
            }
        }
        let seconds = ENGINES.map(|engine| {
            let h = &self.seconds[engine_index(engine)];
            let mut cumulative = 0u64;
            let mut buckets = [0u64; BUCKETS];
            for (out, b) in buckets.iter_mut().zip(&h.buckets) {
                cumulative += b.load(Ordering::Relaxed);
                *out = cumulative;
            }
            // The +Inf bucket is the count; read it after the buckets so that it is never
            // below them (observations landing meanwhile only raise it).
            let count = h.count.load(Ordering::Relaxed).max(cumulative);
            RenderSeconds {
                engine,
                cumulative: buckets,
                count,
                sum_seconds: h.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9,
            }
        });
        RenderMetricsSnapshot { renders, seconds }
    }
}

/// Counts one `Service::render` call's outcome; a call dropped before it finished (its client
/// went away) counts as abandoned.
pub(crate) struct OutcomeGuard<'a> {
    pub(crate) metrics: &'a RenderMetrics,
    pub(crate) engine: EngineKind,
    pub(crate) format: ImageFormat,
    pub(crate) done: bool,
}

impl OutcomeGuard<'_> {
    pub(crate) fn finish(mut self, outcome: RenderOutcome) {
        self.done = true;
        self.metrics.count(self.engine, self.format, outcome);
    }
}

impl Drop for OutcomeGuard<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.metrics
                .count(self.engine, self.format, RenderOutcome::Abandoned);
        }
    }
}

/// One `chart_raster_renders_total` series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderCount {
    /// `engine` label.
    pub engine: EngineKind,
    /// `format` label.
    pub format: ImageFormat,
    /// `outcome` label.
    pub outcome: RenderOutcome,
    /// The count.
    pub count: u64,
}

/// The render-time histogram of one engine.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderSeconds {
    /// `engine` label.
    pub engine: EngineKind,
    /// Observations at or below each bound of [`RENDER_SECONDS_BUCKETS`] (cumulative).
    pub cumulative: [u64; BUCKETS],
    /// All observations (the `+Inf` bucket).
    pub count: u64,
    /// Their sum, seconds.
    pub sum_seconds: f64,
}

/// How often a render's splitting stages (the skia engine's drawing, the PNG encoder, and
/// for a large request its JSON parse and cache key, `crate::prefix_core`, or its scene
/// built ahead while the key is written) asked for a
/// second core and got it, since the process started (`chart_raster_second_core_total`).
/// A service whose renders are seldom lent one while it is not loaded is losing half of its
/// speed on a two-core machine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SecondCoreCounts {
    /// Lent.
    pub lent: u64,
    /// Refused: another render of this process was splitting its work.
    pub other_render: u64,
    /// Refused: no idle core (by the kernel's count of other processes' runnable threads),
    /// or a machine of one core.
    pub no_idle_core: u64,
}

/// The render counters at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderMetricsSnapshot {
    /// Every (engine, format, outcome) series, zeros included.
    pub renders: Vec<RenderCount>,
    /// One histogram per engine.
    pub seconds: [RenderSeconds; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let m = RenderMetrics::default();
        m.observe(EngineKind::Skia, Duration::from_millis(3));
        m.observe(EngineKind::Skia, Duration::from_millis(40));
        m.observe(EngineKind::Skia, Duration::from_secs(100));
        let s = m.snapshot();
        let skia = &s.seconds[0];
        assert_eq!(skia.cumulative[0], 1); // <= 5 ms
        assert_eq!(skia.cumulative[3], 2); // <= 50 ms
        assert_eq!(skia.cumulative[BUCKETS - 1], 2); // <= 30 s
        assert_eq!(skia.count, 3);
        assert!((skia.sum_seconds - 100.043).abs() < 1e-6);
        assert_eq!(s.seconds[1].count, 0);
    }

    #[test]
    fn counts_land_in_their_series() {
        let m = RenderMetrics::default();
        m.count(
            EngineKind::Browser,
            ImageFormat::Webp,
            RenderOutcome::Timeout,
        );
        let s = m.snapshot();
        assert_eq!(s.renders.len(), 2 * FORMATS.len() * OUTCOMES);
        let hit: Vec<_> = s.renders.iter().filter(|r| r.count > 0).collect();
        assert_eq!(hit.len(), 1);
        assert_eq!(hit[0].engine, EngineKind::Browser);
        assert_eq!(hit[0].format, ImageFormat::Webp);
        assert_eq!(hit[0].outcome, RenderOutcome::Timeout);
    }
}
