//! Concurrency, single flight, timeouts and graceful shutdown, seen over HTTP.

use crate::common::*;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

fn gated(n: u32) -> serde_json::Value {
    json!({"chart": {"test": "gate", "n": n}, "width": 20, "height": 20})
}

fn spin(n: u32) -> serde_json::Value {
    json!({"chart": {"test": "spin", "n": n}, "width": 20, "height": 20})
}

/// Asserts that `cond` becomes true within `limit`.
async fn within(limit: Duration, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < limit, "not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
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
    let s = Server::with_test_renderer_and(config).await;
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
        json!({"max": 1, "active": 1, "pending": 2, "maxPending": 4})
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
async fn a_render_over_the_time_limit_is_504_and_stops() {
    let mut config = Options::default().config;
    config.max_render_time = Duration::from_millis(200);
    let s = Server::with_test_renderer_and(config).await;
    let start = Instant::now();
    s.post_json("/render", &spin(0)).await.assert_error(
        504,
        "render timed out after 0.2 s (MAX_RENDER_TIME_SECONDS)",
    );
    // The render saw its Cancel and gave its slot back within 100 ms of the answer.
    within(Duration::from_millis(100), || {
        s.service.health().renderer.concurrency.active == 0
    })
    .await;
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(s.renderer.cancelled.load(Ordering::SeqCst), 1);
    assert_eq!(s.renderer.ended.load(Ordering::SeqCst), 1);
}

/// MAX_RENDER_TIME_SECONDS bounds a request from when it was read, its wait for a slot
/// included: with one slot held by a render that runs to the limit, a second request sent
/// 1.2 s later waits 0.8 s, then gets what is left of its own 2 s (0.8 s more: 504 at about
/// 2 s after sending), not a fresh 2 s from its slot (2.8 s, as before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_limit_counts_the_wait_for_a_slot() {
    let mut config = Options::default().config;
    config.max_render_time = Duration::from_secs(2);
    config.concurrency = 1;
    let s = Server::with_test_renderer_and(config).await;
    let holder = spin(10);
    let first = s.post_json("/render", &holder);
    let second = async {
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let sent = Instant::now();
        let r = s.post_json("/render", &spin(11)).await;
        (r, sent.elapsed())
    };
    let (first, (second, waited)) = tokio::join!(first, second);
    first.assert_error(504, "render timed out after 2 s (MAX_RENDER_TIME_SECONDS)");
    second.assert_error(504, "render timed out after 2 s (MAX_RENDER_TIME_SECONDS)");
    assert!(
        waited < Duration::from_millis(2500),
        "the second request was answered after {waited:?}"
    );
}

/// A request sent on its own connection, which the returned stream keeps open; dropping the
/// stream is the client going away.
async fn send_and_hold(s: &Server, body: &serde_json::Value) -> tokio::net::TcpStream {
    let body = serde_json::to_vec(body).unwrap();
    let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    c.write_all(head.as_bytes()).await.unwrap();
    c.write_all(&body).await.unwrap();
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_stops_its_render() {
    let s = Server::with_test_renderer().await;
    let c = send_and_hold(&s, &spin(1)).await;
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    assert_eq!(s.service.health().renderer.concurrency.active, 1);
    // hyper notices the closed connection and drops the request's future; the render's
    // Cancel fires and the slot comes back.
    drop(c);
    within(Duration::from_millis(500), || {
        s.service.health().renderer.concurrency.active == 0
    })
    .await;
    assert_eq!(s.renderer.cancelled.load(Ordering::SeqCst), 1);
    // The next request renders normally.
    let r = s
        .post_json("/render", &json!({"chart": {}, "width": 5, "height": 5}))
        .await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_render_goes_on_while_one_requester_waits() {
    let s = Server::with_test_renderer().await;
    let addr = s.addr;
    let gone = send_and_hold(&s, &gated(7)).await;
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    let body = serde_json::to_vec(&gated(7)).unwrap();
    let stays = tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await });
    // Let the second requester join the flight, then the first one leaves.
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(gone);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.renderer.cancelled.load(Ordering::SeqCst), 0);
    s.renderer.open_gate();
    assert_eq!(stays.await.unwrap().status, 200);
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 1);
}

fn one_slot(max_pending: usize) -> Options {
    let mut config = Options::default().config;
    config.concurrency = 1;
    config.max_pending = Some(max_pending);
    Options {
        test_renderer: true,
        config,
        ..Options::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_request_whose_client_left_leaves_the_queue() {
    let s = Server::start(one_slot(4)).await;
    let addr = s.addr;
    let body = serde_json::to_vec(&gated(1)).unwrap();
    let running = tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await });
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    let queued = send_and_hold(&s, &gated(2)).await;
    s.wait_until(|s| s.service.health().renderer.concurrency.pending == 1)
        .await;
    drop(queued);
    within(Duration::from_millis(500), || {
        s.service.health().renderer.concurrency.pending == 0
    })
    .await;
    s.renderer.open_gate();
    assert_eq!(running.await.unwrap().status, 200);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The request that left was never rendered.
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 1);
    assert_eq!(s.service.renders(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_max_pending_is_503_with_retry_after_at_once() {
    let s = Server::start(one_slot(1)).await;
    let addr = s.addr;
    let mut tasks = Vec::new();
    for n in 0..2 {
        let body = serde_json::to_vec(&gated(n)).unwrap();
        tasks.push(tokio::spawn(async move {
            request(addr, "POST", "/render", &[], body).await
        }));
        s.wait_until(|s| {
            let c = s.service.health().renderer.concurrency;
            c.active + c.pending == n as usize + 1
        })
        .await;
    }
    let start = Instant::now();
    let r = s.post_json("/render", &gated(2)).await;
    assert!(start.elapsed() < Duration::from_secs(1));
    r.assert_error(
        503,
        "too many renders waiting: 1 are queued (MAX_PENDING); retry later",
    );
    assert_eq!(r.header("retry-after"), Some("1"));
    s.renderer.open_gate();
    for t in tasks {
        assert_eq!(t.await.unwrap().status, 200);
    }
    // Once the queue drains, the refused request renders.
    assert_eq!(s.post_json("/render", &gated(2)).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_ends_within_the_render_limit() {
    let mut opts = one_slot(4);
    opts.config.max_render_time = Duration::from_millis(600);
    let mut s = Server::start(opts).await;
    let addr = s.addr;
    let spawn = |body: serde_json::Value| {
        let body = serde_json::to_vec(&body).unwrap();
        tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await })
    };
    let running = spawn(spin(1));
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    let queued = spawn(spin(2));
    s.wait_until(|s| s.service.health().renderer.concurrency.pending == 1)
        .await;
    let start = Instant::now();
    s.signal_shutdown();
    // The queued request is answered at once; the running one at its deadline.
    let q = queued.await.unwrap();
    q.assert_error(503, "the service is shutting down");
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    running.await.unwrap().assert_error(
        504,
        "render timed out after 0.6 s (MAX_RENDER_TIME_SECONDS)",
    );
    s.stop().await;
    assert!(
        start.elapsed() < Duration::from_millis(1600),
        "{:?}",
        start.elapsed()
    );
    within(Duration::from_millis(200), || {
        s.service.health().renderer.concurrency.active == 0
    })
    .await;
    assert_eq!(s.renderer.started.load(Ordering::SeqCst), 1);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_request_waits_at_most_the_render_limit() {
    let mut opts = one_slot(4);
    opts.config.max_render_time = Duration::from_millis(400);
    let s = Server::start(opts).await;
    let addr = s.addr;
    // A render that ignores its deadline (an engine bug) holds the only slot.
    let stuck = {
        let body =
            serde_json::to_vec(&json!({"chart": {"test": "stuck"}, "width": 5, "height": 5}))
                .unwrap();
        tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await })
    };
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    let start = Instant::now();
    let r = s.post_json("/render", &gated(9)).await;
    r.assert_error(
        503,
        "no render slot became free within 0.4 s (MAX_RENDER_TIME_SECONDS); retry later",
    );
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(s.service.health().renderer.concurrency.pending, 0);
    stuck.await.unwrap().assert_error(
        504,
        "render timed out after 0.4 s (MAX_RENDER_TIME_SECONDS)",
    );
    // The stuck render still holds its slot until it really ends.
    assert_eq!(s.service.health().renderer.concurrency.active, 1);
    s.renderer.open_gate();
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
}

/// Queued requests hold their parsed configs: the queue is bounded by MAX_PENDING_BYTES as
/// well as by MAX_PENDING, with an over-budget request admitted only into an empty queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_holds_at_most_max_pending_bytes() {
    let mut config = Options::default().config;
    config.concurrency = 1;
    config.max_pending = Some(8);
    config.max_pending_bytes = 50_000;
    let s = Server::with_test_renderer_and(config).await;
    let addr = s.addr;
    let spawn = |v: serde_json::Value| {
        let body = serde_json::to_vec(&v).unwrap();
        tokio::spawn(async move { request(addr, "POST", "/render", &[], body).await })
    };
    // 1,000 numbers: about 210 KB by the estimate, over the 50 KB budget on its own.
    let big = |n: u32| json!({"chart": {"test": "gate", "n": n, "data": vec![1; 1000]}, "width": 20, "height": 20});
    let running = spawn(gated(0));
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 1)
        .await;
    // Alone in the queue, the big one waits.
    let alone = spawn(big(1));
    s.wait_until(|s| s.service.health().renderer.concurrency.pending == 1)
        .await;
    let held = s.service.metrics().pending_bytes;
    assert!(held > 200_000, "{held}");
    // Behind it, even a small one would take the queue over the budget: 503 at once.
    let start = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(5), s.post_json("/render", &gated(2)))
        .await
        .expect("queued instead of refused");
    let mib = held.div_ceil(1024 * 1024);
    assert!(r.status == 503 && start.elapsed() < Duration::from_secs(2));
    let msg = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        msg.starts_with(&format!(
            "too many renders waiting: the queued requests would hold about {mib} MiB"
        )) && msg.contains("MAX_PENDING_BYTES (50000 bytes)"),
        "{msg}"
    );
    assert_eq!(r.header("retry-after"), Some("1"));
    s.renderer.open_gate();
    assert_eq!(running.await.unwrap().status, 200);
    assert_eq!(alone.await.unwrap().status, 200);
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
    assert_eq!(s.service.metrics().pending_bytes, 0);

    // Small requests share the budget.
    s.renderer.close_gate();
    let running = spawn(gated(3));
    s.wait_until(|s| s.renderer.started.load(Ordering::SeqCst) == 3)
        .await;
    let a = spawn(gated(4));
    let b = spawn(gated(5));
    s.wait_until(|s| s.service.health().renderer.concurrency.pending == 2)
        .await;
    s.renderer.open_gate();
    for t in [running, a, b] {
        assert_eq!(t.await.unwrap().status, 200);
    }
    s.wait_until(|s| s.service.health().renderer.concurrency.active == 0)
        .await;
    assert_eq!(s.service.metrics().pending_bytes, 0);
}
