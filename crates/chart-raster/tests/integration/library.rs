//! The one-call library API ([`chart_raster::render`]) and its documentation.

use chart_raster::{render, EngineKind, Error, RenderOptions, Service, ServiceConfig};
use serde_json::json;

/// The first ```rust block of a Markdown text.
fn rust_block(markdown: &str) -> Option<&str> {
    let start = markdown.find("```rust\n")? + "```rust\n".len();
    let len = markdown[start..].find("```\n")?;
    Some(&markdown[start..start + len])
}

/// The repository README's library example is the crate's doctested front page, word for word.
#[test]
fn readme_example_is_the_doctested_one() {
    let root = include_str!("../../../../README.md");
    let section = root
        .find("## Use as a library")
        .map(|i| &root[i..])
        .expect("README has a \"Use as a library\" section");
    let doctested = rust_block(include_str!("../../README.md")).expect("crate README example");
    assert_eq!(rust_block(section), Some(doctested));
}

/// The one call draws what the service draws: same bytes, same hash.
#[tokio::test]
async fn render_matches_the_service() {
    let request = json!({
        "chart": {"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [2, 3]}]}},
        "width": 120, "height": 90, "devicePixelRatio": 1, "format": "jpeg", "quality": 70
    });
    let options = RenderOptions::from_json(&request).unwrap();
    let one_call = render(&options).unwrap();
    let served = Service::new(ServiceConfig::default())
        .render(options)
        .await
        .unwrap();
    assert_eq!(one_call.bytes, served.bytes);
    assert_eq!(one_call.hash, served.hash);
    assert_eq!(one_call.content_type, "image/jpeg");
    assert!(!one_call.cached);
}

#[test]
fn render_refuses_the_browser_engine() {
    let options = RenderOptions {
        engine: EngineKind::Browser,
        ..RenderOptions::new(serde_json::Map::new())
    };
    match render(&options) {
        Err(Error::BrowserUnavailable(why)) => assert!(why.contains("Service"), "{why}"),
        other => panic!("expected BrowserUnavailable, got {other:?}"),
    }
}

/// Options written in code are checked as a parsed request is: a bitmap over the pixel
/// budget is refused before the engine allocates it.
#[test]
fn render_checks_options_written_in_code() {
    let options = RenderOptions {
        width: 10_000.0,
        height: 10_000.0,
        ..RenderOptions::new(serde_json::Map::new())
    };
    assert!(matches!(render(&options), Err(Error::Request(_))));
}

/// The deadline of [`chart_raster::render_received`] and [`Service::render_received`] counts
/// from when the request arrived: one whose parsing outlasted the limit is answered with the
/// timeout and never drawn, where the deadline used to start with the render.
#[tokio::test]
async fn a_request_past_its_deadline_on_arrival_is_not_drawn() {
    use chart_raster::render_received;
    use std::time::{Duration, Instant};
    let options = RenderOptions::from_json(&json!({
        "chart": {"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [2]}]}},
        "width": 60, "height": 40, "devicePixelRatio": 1
    }))
    .unwrap();
    let limit = Duration::from_secs(1);
    let received = Instant::now()
        .checked_sub(Duration::from_secs(2))
        .expect("the machine has been up for 2 s");
    match render_received(&options, received, limit) {
        Err(Error::Timeout(d)) => assert_eq!(d, limit),
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(render_received(&options, Instant::now(), Duration::from_secs(30)).is_ok());

    let service = Service::new(ServiceConfig {
        max_render_time: limit,
        ..ServiceConfig::default()
    });
    let late = service
        .render_received(options.clone(), Some(received))
        .await;
    assert_eq!(
        late.map(|r| r.bytes.len()).map_err(|e| e.to_string()),
        Err("render timed out after 1 s (MAX_RENDER_TIME_SECONDS)".into())
    );
    assert_eq!(service.renders(), 0);
    let now = service.render_received(options, Some(Instant::now())).await;
    assert!(now.is_ok(), "{now:?}");
    assert_eq!(service.renders(), 1);
}
