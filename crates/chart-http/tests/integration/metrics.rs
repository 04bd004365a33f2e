//! `GET /metrics`, read with a Prometheus text-format parser as Prometheus would scrape it.

use crate::common::*;
use prometheus_parse::{LineInfo, Scrape, Value};
use serde_json::json;
use std::sync::atomic::Ordering;

/// A parsed scrape. Fails on any line the parser does not recognise as a comment, a type, or
/// a sample with a numeric value, and on a family without `# HELP` and `# TYPE`.
struct Metrics(Scrape);

async fn scrape(s: &Server, headers: &[(&str, &str)]) -> Metrics {
    let r = s.request("GET", "/metrics", headers, Vec::new()).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(
        r.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    assert_powered_by(&r);
    let text = std::str::from_utf8(&r.body).unwrap().to_string();
    let mut helped = std::collections::BTreeSet::new();
    let mut typed = std::collections::BTreeSet::new();
    for line in text.lines() {
        match LineInfo::parse(line) {
            LineInfo::Doc { metric_name, .. } => {
                helped.insert(metric_name.to_string());
            }
            LineInfo::Type {
                metric_name,
                metric_alias,
                ..
            } => {
                typed.insert(metric_alias.unwrap_or(metric_name));
            }
            LineInfo::Sample {
                metric_name, value, ..
            } => {
                assert!(value.parse::<f64>().is_ok(), "value of {line:?}");
                let family = ["_bucket", "_sum", "_count"]
                    .iter()
                    .find_map(|s| metric_name.strip_suffix(s).filter(|f| typed.contains(*f)))
                    .unwrap_or(metric_name);
                assert!(typed.contains(family), "{line:?} before its # TYPE");
                assert!(helped.contains(family), "{line:?} before its # HELP");
            }
            LineInfo::Empty | LineInfo::Ignored => panic!("unrecognised line {line:?}"),
        }
    }
    assert!(text.ends_with('\n'));
    Metrics(Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap())
}

impl Metrics {
    /// The value of the one series of `name` with these labels (others may exist).
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let found: Vec<_> = self
            .0
            .samples
            .iter()
            .filter(|s| s.metric == name)
            .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
            .collect();
        assert_eq!(found.len(), 1, "{name} {labels:?}: {found:?}");
        match &found[0].value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
            other => panic!("{name}: not a number: {other:?}"),
        }
    }

    /// 0 when the series is absent (labelled series appear once they count something).
    fn value_or_zero(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let any =
            self.0.samples.iter().any(|s| {
                s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v))
            });
        if any {
            self.value(name, labels)
        } else {
            0.0
        }
    }

    fn renders(&self, outcome: &str) -> f64 {
        self.value(
            "chart_raster_renders_total",
            &[("engine", "skia"), ("format", "png"), ("outcome", outcome)],
        )
    }

    fn http(&self, route: &str, status: &str) -> f64 {
        self.value_or_zero(
            "chart_raster_http_requests_total",
            &[("route", route), ("status", status)],
        )
    }

    /// The skia histogram: (bucket bounds and cumulative counts, count, sum).
    fn skia_seconds(&self) -> (Vec<(f64, f64)>, f64, f64) {
        let h = self
            .0
            .samples
            .iter()
            .find(|s| {
                s.metric == "chart_raster_render_seconds" && s.labels.get("engine") == Some("skia")
            })
            .expect("skia histogram");
        let Value::Histogram(b) = &h.value else {
            panic!("not a histogram: {h:?}");
        };
        let buckets = b.iter().map(|c| (c.less_than, c.count)).collect();
        let count = self.value("chart_raster_render_seconds_count", &[("engine", "skia")]);
        let sum = self.value("chart_raster_render_seconds_sum", &[("engine", "skia")]);
        (buckets, count, sum)
    }
}

fn small_bar() -> Vec<u8> {
    serde_json::to_vec(&json!({"chart": bar(), "width": 120, "height": 80})).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_move_as_requests_are_made() {
    let s = Server::default().await;
    let m = scrape(&s, &[]).await;
    assert_eq!(m.renders("rendered"), 0.0);
    assert_eq!(m.value("chart_raster_cache_hits_total", &[]), 0.0);
    assert_eq!(m.value("chart_raster_cache_entries", &[]), 0.0);
    assert_eq!(m.value("chart_raster_renders_in_flight", &[]), 0.0);
    assert_eq!(m.value("chart_raster_renders_pending", &[]), 0.0);
    assert_eq!(m.value("chart_raster_browser_restarts_total", &[]), 0.0);
    assert_eq!(m.skia_seconds().1, 0.0);

    // A miss, then a hit of the same chart.
    let r = s.request("POST", "/render", &[], small_bar()).await;
    assert_eq!(r.status, 200);
    let r = s.request("POST", "/render", &[], small_bar()).await;
    assert_eq!(r.header("x-cache-hit"), Some("true"));
    // Refused before the service (bad JSON): no render request, a 400 on /render.
    let r = s.request("POST", "/render", &[], b"{".to_vec()).await;
    assert_eq!(r.status, 400);
    s.get("/nowhere").await;
    s.get(&format!("/cache/{}", "0".repeat(16))).await;

    let m = scrape(&s, &[]).await;
    assert_eq!(m.renders("rendered"), 1.0);
    assert_eq!(m.renders("cache_hit"), 1.0);
    assert_eq!(m.renders("rejected"), 0.0);
    assert_eq!(m.renders("timeout"), 0.0);
    assert_eq!(
        m.value(
            "chart_raster_renders_total",
            &[
                ("engine", "browser"),
                ("format", "webp"),
                ("outcome", "error")
            ]
        ),
        0.0,
        "every series is there from the start"
    );
    // Lookups: a miss and the flight's recheck for the first render, a hit for the second,
    // a miss for /cache/000...
    assert_eq!(m.value("chart_raster_cache_hits_total", &[]), 1.0);
    assert_eq!(m.value("chart_raster_cache_misses_total", &[]), 3.0);
    assert_eq!(m.value("chart_raster_cache_entries", &[]), 1.0);
    let png_len = s
        .request("POST", "/render", &[], small_bar())
        .await
        .body
        .len();
    assert_eq!(m.value("chart_raster_cache_bytes", &[]), png_len as f64);

    let (buckets, count, sum) = m.skia_seconds();
    assert_eq!(count, 1.0);
    assert!(sum > 0.0);
    assert_eq!(buckets.last().map(|b| b.0), Some(f64::INFINITY));
    assert_eq!(buckets.last().map(|b| b.1), Some(count));
    assert!(buckets
        .windows(2)
        .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));

    assert_eq!(m.http("/render", "200"), 2.0);
    assert_eq!(m.http("/render", "400"), 1.0);
    assert_eq!(m.http("other", "404"), 1.0);
    assert_eq!(m.http("/cache/<hash>", "404"), 1.0);
    assert_eq!(m.http("/metrics", "200"), 1.0, "the first scrape");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_flight_pending_and_outcomes_of_the_queue() {
    let mut config = Options::default().config;
    config.concurrency = 1;
    config.max_pending = Some(1);
    let s = Server::with_test_renderer_and(config).await;
    let addr = s.addr;
    let gated = |n: u32| {
        serde_json::to_vec(&json!({"chart": {"test": "gate", "n": n}, "width": 20, "height": 20}))
            .unwrap()
    };
    let running = {
        let b = gated(0);
        tokio::spawn(async move { request(addr, "POST", "/render", &[], b).await })
    };
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    let queued = {
        let b = gated(1);
        tokio::spawn(async move { request(addr, "POST", "/render", &[], b).await })
    };
    s.wait_until(|s| s.service.health().renderer.concurrency.pending == 1)
        .await;
    // The queue is full: a third is answered 503 at once.
    let r = s.request("POST", "/render", &[], gated(2)).await;
    assert_eq!(r.status, 503);

    let m = scrape(&s, &[]).await;
    assert_eq!(m.value("chart_raster_renders_in_flight", &[]), 1.0);
    assert_eq!(m.value("chart_raster_renders_pending", &[]), 1.0);
    assert_eq!(m.renders("unavailable"), 1.0);
    assert_eq!(m.http("/render", "503"), 1.0);

    s.renderer.open_gate();
    assert_eq!(running.await.unwrap().status, 200);
    assert_eq!(queued.await.unwrap().status, 200);
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
    let m = scrape(&s, &[]).await;
    assert_eq!(m.value("chart_raster_renders_in_flight", &[]), 0.0);
    assert_eq!(m.value("chart_raster_renders_pending", &[]), 0.0);
    assert_eq!(m.renders("rendered"), 2.0);
    assert_eq!(m.skia_seconds().1, 2.0);

    // Refused by the engine (a budget) and failed in it: each counted, each timed.
    let limit = json!({"chart": {"test": "limit"}, "width": 20, "height": 20});
    assert_eq!(s.post_json("/render", &limit).await.status, 400);
    let fail = json!({"chart": {"test": "fail"}, "width": 20, "height": 20});
    assert_eq!(s.post_json("/render", &fail).await.status, 500);
    let m = scrape(&s, &[]).await;
    assert_eq!(m.renders("rejected"), 1.0);
    assert_eq!(m.renders("error"), 1.0);
    assert_eq!(m.skia_seconds().1, 4.0);
    assert_eq!(m.http("/render", "500"), 1.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_counts_as_abandoned() {
    let s = Server::with_test_renderer().await;
    let body =
        serde_json::to_vec(&json!({"chart": {"test": "spin"}, "width": 20, "height": 20})).unwrap();
    let addr = s.addr;
    let client = tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await });
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    client.abort();
    s.wait_until(|s| s.renderer.cancelled.load(Ordering::SeqCst) == 1)
        .await;
    let m = scrape(&s, &[]).await;
    assert_eq!(m.renders("abandoned"), 1.0);
    assert_eq!(m.renders("rendered"), 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_need_the_key_when_one_is_set() {
    let s = Server::start(Options {
        api_key: Some("k3y".into()),
        ..Options::default()
    })
    .await;
    s.get("/metrics").await.assert_error(401, "Unauthorized");
    let m = scrape(&s, &[("x-api-key", "k3y")]).await;
    assert_eq!(m.http("/metrics", "401"), 1.0);
    let r = s
        .request("POST", "/metrics", &[("x-api-key", "k3y")], Vec::new())
        .await;
    r.assert_error(405, "Method not allowed");
}

/// The second-core counter moves when a chart large enough to split is rendered: the PNG
/// encoder of a bitmap of 2^18 pixels or more always asks for one, lent or refused. The
/// counters are the process's (other tests' servers share them), so only growth is checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn second_core_decisions_are_counted() {
    let s = Server::default().await;
    let asked = |m: &Metrics| -> f64 {
        ["lent", "other_render", "no_idle_core"]
            .iter()
            .map(|d| m.value("chart_raster_second_core_total", &[("decision", d)]))
            .sum()
    };
    let before = asked(&scrape(&s, &[]).await);
    let body = serde_json::to_vec(&json!({"chart": bar(), "width": 800, "height": 600,
        "devicePixelRatio": 2}))
    .unwrap();
    let r = s.request("POST", "/render", &[], body).await;
    assert_eq!(r.status, 200);
    let after = asked(&scrape(&s, &[]).await);
    assert!(after > before, "asked {before} then {after}");
}
