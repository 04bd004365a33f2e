//! Concurrency, single flight, timeouts and graceful shutdown, seen over HTTP.

use crate::common::*;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn gated(n: u32) -> serde_json::Value {
    json!({"chart": {"test": "gate", "n": n}, "width": 20, "height": 20})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_requests_in_flight_render_once() {
    let s = Server::with_test_renderer().await;
    let addr = s.addr;
    let body = serde_json::to_vec(&gated(0)).unwrap();
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let body = body.clone();
            tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await })
        })
        .collect();
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    // Let the other three reach the flight before it lands.
    tokio::time::sleep(Duration::from_millis(100)).await;
    s.renderer.open_gate();
    let mut hashes = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        assert_eq!(r.status, 200);
        hashes.push(r.header("x-cache-hash").unwrap().to_string());
    }
    hashes.dedup();
    assert_eq!(hashes.len(), 1);
    assert_eq!(s.service.renders(), 1);
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrency_limit_queues_the_rest() {
    let mut config = Options::default().config;
    config.concurrency = 1;
    let s = Server::start(Options {
        test_renderer: true,
        config,
        ..Options::default()
    })
    .await;
    let addr = s.addr;
    let tasks: Vec<_> = (0..3)
        .map(|n| {
            let body = serde_json::to_vec(&gated(n)).unwrap();
            tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await })
        })
        .collect();
    // The permit is taken before the blocking task starts: wait for both, or a loaded machine
    // sees the render counted as active but not yet started.
    s.wait_until(|s| {
        let h = s.service.health();
        h.renderer.concurrency.active == 1
            && h.renderer.concurrency.pending == 2
            && s.renderer.started.load(Ordering::SeqCst) == 1
    })
    .await;
    let v = s.get("/health").await.json();
    assert_eq!(
        v["renderer"]["concurrency"],
        json!({"max": 1, "active": 1, "pending": 2})
    );
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 1);
    s.renderer.open_gate();
    for t in tasks {
        assert_eq!(t.await.unwrap().status, 200);
    }
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_render_over_the_time_limit_is_504() {
    let mut config = Options::default().config;
    config.max_render_time = Duration::from_millis(200);
    let s = Server::start(Options {
        test_renderer: true,
        config,
        ..Options::default()
    })
    .await;
    s.post_json("/render", &gated(0)).await.assert_error(
        504,
        "render timed out after 0.2 s (MAX_RENDER_TIME_SECONDS)",
    );
    // The stuck render still holds its slot until it really ends.
    assert_eq!(s.service.health().renderer.concurrency.active, 1);
    s.renderer.open_gate();
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_finishes_in_flight_requests() {
    let mut s = Server::with_test_renderer().await;
    let addr = s.addr;
    let body = serde_json::to_vec(&gated(0)).unwrap();
    let in_flight = tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await });
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    s.signal_shutdown();
    // New connections are refused once the accept loop has stopped.
    let mut refused = false;
    for _ in 0..1000 {
        if tokio::net::TcpStream::connect(addr).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(refused, "the listener is still accepting");
    s.renderer.open_gate();
    let r = in_flight.await.unwrap();
    assert_eq!(r.status, 200);
    s.stop().await;
}
