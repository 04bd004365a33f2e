//! `GET /metrics`: the service's counters in the Prometheus text exposition format (0.0.4),
//! plus the HTTP layer's own count of requests by route and status.

use crate::routes::Route;
use chart_raster::metrics::RENDER_SECONDS_BUCKETS;
use chart_raster::ServiceMetrics;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

/// `Content-Type` of `/metrics`.
pub const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The `route` label of a request path: its [`Route`]'s label, or `other` for every unknown
/// path, so a client requesting many different paths cannot grow the series without bound.
pub fn route_label(path: &str) -> &'static str {
    Route::of(path).map_or("other", Route::label)
}

/// HTTP requests answered, by route label and status. Both label sets are small and fixed
/// (routes above, statuses this server sends), so the map stays small.
#[derive(Default)]
pub struct HttpMetrics {
    requests: Mutex<BTreeMap<(&'static str, u16), u64>>,
}

impl HttpMetrics {
    /// Counts one answered request.
    pub fn count(&self, route: &'static str, status: u16) {
        let mut m = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *m.entry((route, status)).or_insert(0) += 1;
    }

    fn snapshot(&self) -> BTreeMap<(&'static str, u16), u64> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// One metric family's `# HELP` and `# TYPE` lines.
fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// Families of one series without labels: (name, type, help, value).
fn unlabelled(out: &mut String, series: &[(&str, &str, &str, u64)]) {
    for &(name, kind, help, value) in series {
        family(out, name, kind, help);
        let _ = writeln!(out, "{name} {value}");
    }
}

/// The exposition text of `s` and `http`.
pub fn render(s: &ServiceMetrics, http: &HttpMetrics) -> String {
    let mut out = String::new();
    family(
        &mut out,
        "chart_raster_renders_total",
        "counter",
        "Render requests by engine, output format and outcome (rendered, cache_hit, rejected, \
         unavailable, timeout, error, abandoned).",
    );
    for r in &s.renders.renders {
        let _ = writeln!(
            out,
            "chart_raster_renders_total{{engine=\"{}\",format=\"{}\",outcome=\"{}\"}} {}",
            r.engine.as_str(),
            r.format.as_str(),
            r.outcome.as_str(),
            r.count
        );
    }
    family(
        &mut out,
        "chart_raster_render_seconds",
        "histogram",
        "Time of engine renders (drawing and encoding, not the queue), by engine.",
    );
    for h in &s.renders.seconds {
        let engine = h.engine.as_str();
        for (le, n) in RENDER_SECONDS_BUCKETS.iter().zip(h.cumulative) {
            let _ = writeln!(
                out,
                "chart_raster_render_seconds_bucket{{engine=\"{engine}\",le=\"{le}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "chart_raster_render_seconds_bucket{{engine=\"{engine}\",le=\"+Inf\"}} {}",
            h.count
        );
        let _ = writeln!(
            out,
            "chart_raster_render_seconds_sum{{engine=\"{engine}\"}} {}",
            h.sum_seconds
        );
        let _ = writeln!(
            out,
            "chart_raster_render_seconds_count{{engine=\"{engine}\"}} {}",
            h.count
        );
    }
    let simple: [(&str, &str, &str, u64); 8] = [
        (
            "chart_raster_cache_hits_total",
            "counter",
            "Cache lookups that found a live image.",
            s.cache.hits,
        ),
        (
            "chart_raster_cache_misses_total",
            "counter",
            "Cache lookups that found no image or an expired one.",
            s.cache.misses,
        ),
        (
            "chart_raster_cache_entries",
            "gauge",
            "Images in the cache.",
            s.cache.entries,
        ),
        (
            "chart_raster_cache_bytes",
            "gauge",
            "Bytes of the images in the cache.",
            s.cache.bytes,
        ),
        (
            "chart_raster_renders_in_flight",
            "gauge",
            "Renders running now (CONCURRENCY bounds them).",
            s.in_flight,
        ),
        (
            "chart_raster_renders_pending",
            "gauge",
            "Renders waiting for a slot (MAX_PENDING bounds them).",
            s.pending,
        ),
        (
            "chart_raster_renders_pending_bytes",
            "gauge",
            "Parsed input held by the waiting renders, estimated (MAX_PENDING_BYTES bounds it).",
            s.pending_bytes,
        ),
        (
            "chart_raster_browser_restarts_total",
            "counter",
            "Chromium sessions replaced after a crash or a stuck page, and chromedriver restarts.",
            s.browser_restarts,
        ),
    ];
    unlabelled(&mut out, &simple);
    family(
        &mut out,
        "chart_raster_second_core_total",
        "counter",
        "Second cores asked for by the drawing, the PNG encoder and a large request's parse, \
         cache key and scene built ahead, by decision: lent, other_render (another render was splitting), \
         no_idle_core.",
    );
    let c = s.second_core;
    for (decision, n) in [
        ("lent", c.lent),
        ("other_render", c.other_render),
        ("no_idle_core", c.no_idle_core),
    ] {
        let _ = writeln!(
            out,
            "chart_raster_second_core_total{{decision=\"{decision}\"}} {n}"
        );
    }
    // The shared level, only with CACHE_URL (issue 15).
    if let Some(r) = s.cache.redis {
        let redis: [(&str, &str, &str, u64); 6] = [
            (
                "chart_raster_cache_redis_connected",
                "gauge",
                "1 while the shared cache (CACHE_URL) is connected.",
                u64::from(r.connected),
            ),
            (
                "chart_raster_cache_redis_hits_total",
                "counter",
                "Lookups in Redis that found an image (after a miss in memory).",
                r.hits,
            ),
            (
                "chart_raster_cache_redis_misses_total",
                "counter",
                "Lookups in Redis that found none.",
                r.misses,
            ),
            (
                "chart_raster_cache_redis_stores_total",
                "counter",
                "Images written to Redis.",
                r.stores,
            ),
            (
                "chart_raster_cache_redis_too_large_total",
                "counter",
                "Images not written to Redis: over CACHE_MAX_ENTRY_BYTES.",
                r.too_large,
            ),
            (
                "chart_raster_cache_redis_errors_total",
                "counter",
                "Redis calls that failed or timed out (the cache fell back to memory).",
                r.errors,
            ),
        ];
        unlabelled(&mut out, &redis);
    }
    family(
        &mut out,
        "chart_raster_http_requests_total",
        "counter",
        "HTTP requests answered, by route and status.",
    );
    for ((route, status), n) in http.snapshot() {
        let _ = writeln!(
            out,
            "chart_raster_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_a_fixed_set() {
        assert_eq!(route_label("/cache/0123456789abcdef"), "/cache/<hash>");
        assert_eq!(route_label("/render"), "/render");
        assert_eq!(route_label("/anything/else"), "other");
        assert_eq!(route_label("/render/"), "other");
    }
}
