//! Integration tests of the chart-raster facade: the service end to end (without HTTP) and
//! the built-in examples.

mod fuzz_regressions;
mod library;
mod shared_cache;

use chart_raster::cache::ManualClock;
use chart_raster::{examples, ImageFormat, Service, ServiceConfig, ServiceError};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

fn service() -> Service {
    let mut config = ServiceConfig {
        clock: Arc::new(ManualClock::new()),
        ..ServiceConfig::default()
    };
    config.browser.chromedriver = Some("/nonexistent/chromedriver".into());
    config.browser.chromium = Some("/nonexistent/chromium".into());
    Service::new(config)
}

#[tokio::test]
async fn render_then_hit() {
    let s = service();
    let req = json!({"chart": {"type": "bar"}, "width": 40, "height": 30, "devicePixelRatio": 1});
    let a = s.render_json(&req).await.unwrap();
    assert!(!a.cached);
    assert_eq!(a.content_type, "image/png");
    assert_eq!(&a.bytes[1..4], b"PNG");
    let b = s.render_json(&req).await.unwrap();
    assert!(b.cached);
    assert_eq!(a.hash, b.hash);
    assert_eq!(a.bytes, b.bytes);
    assert_eq!(s.renders(), 1);
    let cached = s.cached(&a.hash).await.unwrap();
    assert_eq!(cached.format, ImageFormat::Png);
    assert_eq!(s.health().cache.size, 1);
}

#[tokio::test]
async fn invalid_requests_are_request_errors() {
    let s = service();
    let e = s.render_json(&json!({"width": 3})).await.unwrap_err();
    assert!(matches!(e, ServiceError::Request(_)));
    assert_eq!(e.to_string(), "Missing chart parameter");
    assert_eq!(s.renders(), 0);
}

#[tokio::test]
async fn browser_unavailable_maps_to_its_own_error() {
    let s = service();
    let e = s
        .render_json(&json!({"chart": {}, "engine": "browser", "width": 10, "height": 10}))
        .await
        .unwrap_err();
    assert!(matches!(e, ServiceError::BrowserUnavailable(_)), "{e:?}");
    assert!(e.to_string().starts_with("browser engine unavailable: "));
    // Errors are not cached, and the slot is released.
    assert_eq!(s.health().cache.size, 0);
    assert_eq!(s.health().renderer.concurrency.active, 0);
}

#[test]
fn settings_come_from_the_environment() {
    let vars: HashMap<&str, &str> = [
        ("CONCURRENCY", "3"),
        ("MAX_PENDING", "0"),
        ("MAX_POINTS", "1234"),
        ("MAX_RENDER_TIME_SECONDS", "7"),
        ("CACHE_MAX_ENTRIES", "5"),
        ("CACHE_MAX_BYTES", "1000"),
        ("CACHE_TTL_SECONDS", "60"),
    ]
    .into_iter()
    .collect();
    let c = ServiceConfig::from_vars(|k| vars.get(k).map(|v| v.to_string())).unwrap();
    assert_eq!(c.concurrency, 3);
    assert_eq!(
        c.max_pending(),
        0,
        "0: no queue, a busy service answers 503 at once"
    );
    assert_eq!(c.max_render_time.as_secs(), 7);
    assert_eq!(c.cache.max_entries, 5);
    assert_eq!(c.cache.max_bytes, 1000);
    assert_eq!(c.cache.ttl.as_secs(), 60);
    let d = ServiceConfig::from_vars(|_| None).unwrap();
    assert_eq!(d.max_render_time.as_secs(), 30);
    assert_eq!(d.max_pending(), 4 * d.concurrency);
    assert_eq!(d.cache.max_entries, 1000);
    assert_eq!(d.cache.max_bytes, 256 * 1024 * 1024);
    assert_eq!(d.cache.ttl.as_secs(), 3600);
    let e =
        ServiceConfig::from_vars(|k| (k == "CONCURRENCY").then(|| "0".to_string())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid setting CONCURRENCY=\"0\": must be at least 1"
    );
    let e = ServiceConfig::from_vars(|k| (k == "CACHE_TTL_SECONDS").then(|| "soon".to_string()))
        .unwrap_err();
    assert!(e.to_string().contains("expected a whole number"));
}

#[test]
fn examples_are_built_in_and_cover_every_type_and_plugin() {
    let all = examples::all().unwrap();
    assert!(all.len() >= 30, "{}", all.len());
    assert_eq!(all.len(), examples::count());
    let types: Vec<&str> = all
        .iter()
        .filter_map(|e| e.config.get("type").and_then(|t| t.as_str()))
        .collect();
    for t in [
        "bar",
        "line",
        "pie",
        "doughnut",
        "radar",
        "polarArea",
        "scatter",
        "bubble",
        "matrix",
        "sankey",
        "treemap",
        "wordCloud",
        "choropleth",
        "bubbleMap",
        "forceDirectedGraph",
        "tree",
        "venn",
        "euler",
    ] {
        assert!(types.contains(&t), "no example of type {t}");
    }
    let text = |e: &examples::Example| serde_json::to_string(&e.config).unwrap();
    for needle in [
        "\"indexAxis\":\"y\"",
        "\"stacked\":true",
        "\"fill\":true",
        "\"logarithmic\"",
        "\"type\":\"time\"",
        "\"yAxisID\":\"y1\"",
        "\"minRotation\"",
        "\"datalabels\"",
        "\"annotation\"",
        "\"gradient\"",
        "\"zoom\"",
        "一月",
    ] {
        assert!(
            all.iter().any(|e| text(e).contains(needle)),
            "no example with {needle}"
        );
    }
    for e in &all {
        assert!(!e.title.is_empty());
        assert!(e.width > 0.0 && e.height > 0.0);
    }
}

#[tokio::test]
async fn every_example_renders() {
    let s = service();
    for e in examples::all().unwrap() {
        let req = json!({"chart": e.config, "width": e.width, "height": e.height,
            "devicePixelRatio": 1});
        let r = s
            .render_json(&req)
            .await
            .unwrap_or_else(|err| panic!("{}: {err}", e.name));
        assert!(r.bytes.len() > 8, "{}", e.name);
    }
}
