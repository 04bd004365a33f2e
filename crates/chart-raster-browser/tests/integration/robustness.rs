//! Crash recovery, leaks and parallel renders.

use crate::{bar_chart, engine, has_colour, options};
use chart_raster_browser::{BrowserConfig, BrowserEngine, BrowserError};
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_assets_name_the_install_command() {
    let mut config = BrowserConfig::from_env();
    if let Err(e) = config.resolve_chromedriver().and(config.resolve_chromium()) {
        eprintln!("skipping missing_assets_name_the_install_command: {e}");
        return;
    }
    config.assets_dir = std::env::temp_dir().join("chart-raster-no-assets-here");
    let engine = BrowserEngine::new(config);
    match engine
        .render(&options(bar_chart("red"), 100.0, 100.0, 1.0))
        .await
    {
        Err(BrowserError::Unavailable(reason)) => {
            assert!(reason.contains("cargo xtask browser-assets"), "{reason}")
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    // Nothing was started for a render that could not happen.
    assert!(!engine.status().connected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_chromium_is_replaced() {
    let Some(engine) = engine("killed_chromium_is_replaced") else {
        return;
    };
    let opts = options(bar_chart("rgb(0, 128, 0)"), 200.0, 150.0, 1.0);
    engine.render(&opts).await.unwrap();
    let pids = engine.chromium_pids().await;
    if pids.is_empty() {
        eprintln!("skipping killed_chromium_is_replaced: no /proc to find Chromium in");
        return;
    }
    for &pid in &pids {
        kill(pid);
    }
    // Wait until it is dead (gone, or a zombie until chromedriver reaps it), so the next
    // render really meets a dead browser.
    while pids.iter().any(|&p| running(p)) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let out = engine.render(&opts).await.unwrap();
    assert!(has_colour(&out.bitmap, [0, 128, 0, 255]));
    let new_pids = engine.chromium_pids().await;
    assert!(!new_pids.is_empty() && new_pids.iter().all(|p| !pids.contains(p)));
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_chromedriver_is_restarted() {
    let Some(engine) = engine("killed_chromedriver_is_restarted") else {
        return;
    };
    let opts = options(bar_chart("rgb(0, 0, 128)"), 200.0, 150.0, 1.0);
    engine.render(&opts).await.unwrap();
    let old_chromium = engine.chromium_pids().await;
    let driver = engine.chromedriver_pid().await.unwrap();
    kill(driver);
    while running(driver) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let out = engine.render(&opts).await.unwrap();
    assert!(has_colour(&out.bitmap, [0, 0, 128, 255]));
    assert_ne!(engine.chromedriver_pid().await, Some(driver));
    // The orphaned Chromium of the dead chromedriver was stopped, not leaked.
    for pid in old_chromium {
        while running(pid) {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_over_the_timeout_is_closed() {
    let Some(engine) = engine("a_page_over_the_timeout_is_closed") else {
        return;
    };
    // A timeout no WebDriver round trip can meet: the render must report it and close the
    // session rather than keep a page in an unknown state.
    let mut config = engine.config().clone();
    config.page_timeout = std::time::Duration::from_nanos(1);
    let engine = BrowserEngine::new(config);
    match engine
        .render(&options(bar_chart("red"), 100.0, 100.0, 1.0))
        .await
    {
        Err(BrowserError::Timeout(_)) => {}
        other => panic!("expected a timeout, got {other:?}"),
    }
    let status = engine.status();
    assert!(!status.connected, "{status:?}");
    assert_eq!(status.active_pages, 0);
    assert!(engine.chromium_pids().await.is_empty());
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_renders_leave_no_tab_open() {
    let Some(engine) = engine("two_hundred_renders_leave_no_tab_open") else {
        return;
    };
    for i in 0..200 {
        let colour = format!("rgb({}, 0, 0)", i % 256);
        let chart = if i % 10 == 9 {
            // Some failing renders too: they must clean up as well.
            serde_json::json!({ "type": "nope", "data": { "datasets": [] } })
        } else {
            bar_chart(&colour)
        };
        engine
            .render(&options(chart, 120.0, 90.0, 1.0))
            .await
            .unwrap();
    }
    let pages = engine.leaks().await.unwrap();
    assert!(!pages.is_empty());
    for page in pages {
        assert_eq!(page.tabs, 1, "{page:?}");
        assert_eq!(page.canvases, 0, "{page:?}");
        assert_eq!(page.charts, 0, "{page:?}");
    }
    assert_eq!(engine.status().active_pages, 0);
    // And no browser beyond the sessions' own.
    let mut owned = engine.chromium_pids().await;
    let mut all: Vec<u32> = engine
        .all_chromium_pids()
        .into_iter()
        .filter(|&p| running(p))
        .collect();
    owned.sort_unstable();
    all.sort_unstable();
    assert_eq!(all, owned);
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_concurrent_renders_succeed() {
    let Some(engine) = engine("eight_concurrent_renders_succeed") else {
        return;
    };
    let engine = Arc::new(engine);
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..8u8 {
        let engine = engine.clone();
        tasks.spawn(async move {
            let rgb = [i * 30, 200 - i * 20, 100];
            let colour = format!("rgb({}, {}, {})", rgb[0], rgb[1], rgb[2]);
            let out = engine
                .render(&options(bar_chart(&colour), 300.0, 200.0, 2.0))
                .await;
            (rgb, out)
        });
    }
    let mut done = 0;
    while let Some(joined) = tasks.join_next().await {
        let (rgb, out) = joined.unwrap();
        let out = out.unwrap();
        assert_eq!((out.bitmap.width, out.bitmap.height), (600, 400));
        // Each render got its own chart, not a neighbour's.
        assert!(
            has_colour(&out.bitmap, [rgb[0], rgb[1], rgb[2], 255]),
            "{rgb:?}"
        );
        done += 1;
    }
    assert_eq!(done, 8);
    assert_eq!(engine.status().active_pages, 0);
    engine.shutdown().await;
}

/// Whether `pid` is a live process (not gone, not a zombie).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_renders_leak_no_browser() {
    let Some(engine) = engine("abandoned_renders_leak_no_browser") else {
        return;
    };
    // Callers give up (their own timeouts) at various points: before Chromium is up, while it
    // starts, during the render. Whenever that is, every Chromium left running must belong to
    // a session of the engine.
    for wait_ms in [0, 50, 200, 500, 1000, 2000] {
        let opts = options(bar_chart("red"), 200.0, 100.0, 1.0);
        let wait = std::time::Duration::from_millis(wait_ms);
        let _ = tokio::time::timeout(wait, engine.render(&opts)).await;
        // A start the caller abandoned still finishes (then closes its browser): wait for it.
        while engine.starting() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let mut owned = engine.chromium_pids().await;
        let mut running: Vec<u32> = engine
            .all_chromium_pids()
            .into_iter()
            .filter(|&p| running(p))
            .collect();
        owned.sort_unstable();
        running.sort_unstable();
        assert_eq!(running, owned, "after giving up at {wait_ms} ms");
    }
    engine.shutdown().await;
    let left: Vec<u32> = engine
        .all_chromium_pids()
        .into_iter()
        .filter(|&p| running(p))
        .collect();
    assert!(left.is_empty(), "{left:?} still running after shutdown");
}
