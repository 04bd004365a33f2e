//! Services sharing their cache through a real `redis-server` (`CACHE_URL`): what one renders
//! the other serves byte for byte, a request arriving at both at once is drawn once, and Redis
//! going away never fails a render. Skipped with a printed reason when `redis-server` is not
//! installed, unless `CHART_RASTER_REQUIRE_REDIS=1`.

use chart_raster::cache::testing::RedisServer;
use chart_raster::cache::SharedConfig;
use chart_raster::spec::{Bitmap, Cancel, Message, RenderOptions, Rendered};
use chart_raster::{BlockingRenderer, RenderFailure, Service, ServiceConfig, ServiceError};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Draws a solid bitmap slowly enough for two requests to overlap, with one message, and
/// counts its renders.
#[derive(Default)]
struct SlowRenderer {
    renders: AtomicUsize,
}

impl BlockingRenderer for SlowRenderer {
    fn render(&self, opts: &RenderOptions, _: &Cancel) -> Result<Rendered, RenderFailure> {
        self.renders.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(300));
        let (w, h) = (opts.bitmap_width(), opts.bitmap_height());
        Ok(Rendered {
            bitmap: Bitmap {
                width: w,
                height: h,
                data: vec![200; w as usize * h as usize * 4],
            },
            messages: vec![Message::warn("slow but sure")],
        })
    }
}

fn config(redis: &RedisServer, edit: impl FnOnce(&mut ServiceConfig)) -> ServiceConfig {
    let mut c = ServiceConfig {
        shared_cache: Some(SharedConfig::new(&redis.url()).unwrap()),
        ..ServiceConfig::default()
    };
    c.browser.chromedriver = Some("/nonexistent/chromedriver".into());
    c.browser.chromium = Some("/nonexistent/chromium".into());
    edit(&mut c);
    c
}

fn skia(redis: &RedisServer) -> Service {
    Service::new(config(redis, |_| {}))
}

fn bar(width: u32) -> serde_json::Value {
    json!({
        "chart": {"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [1, 2]}]}},
        "width": width, "height": 60, "devicePixelRatio": 1
    })
}

async fn until(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn connected(services: &[&Service]) {
    until("connected to Redis", || {
        services.iter().all(|s| s.health().cache.connected)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_rendered_by_one_service_is_served_by_another() {
    let Some(redis) =
        RedisServer::start_or_skip("an_image_rendered_by_one_service_is_served_by_another")
    else {
        return;
    };
    let (a, b) = (skia(&redis), skia(&redis));
    connected(&[&a, &b]).await;
    let h = b.health().cache;
    assert_eq!((h.backend, h.connected), ("redis", true));
    let first = a.render_json(&bar(90)).await.unwrap();
    assert!(!first.cached);
    // /cache/<hash> on the other replica: the same bytes, type and messages.
    let img = b
        .cached(&first.hash)
        .await
        .expect("B finds A's image in Redis");
    assert_eq!(img.bytes, first.bytes);
    assert_eq!(img.format.content_type(), first.content_type);
    // The same request at B is a hit without a render.
    let again = b.render_json(&bar(90)).await.unwrap();
    assert!(again.cached);
    assert_eq!(again.bytes, first.bytes);
    assert_eq!(again.messages, first.messages);
    assert_eq!((a.renders(), b.renders()), (1, 0));
    // Only well-formed hashes reach Redis.
    assert!(b.cached("../../etc/passwd").await.is_none());
    assert!(b.cached(&first.hash.to_uppercase()).await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_request_at_two_services_at_once_is_rendered_once() {
    let Some(redis) =
        RedisServer::start_or_skip("the_same_request_at_two_services_at_once_is_rendered_once")
    else {
        return;
    };
    let renderer = Arc::new(SlowRenderer::default());
    let a = Service::with_renderer(config(&redis, |_| {}), renderer.clone());
    let b = Service::with_renderer(config(&redis, |_| {}), renderer.clone());
    connected(&[&a, &b]).await;
    for round in 0..3 {
        let req = bar(50 + round);
        let (ra, rb) = tokio::join!(a.render_json(&req), b.render_json(&req));
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        assert_eq!(ra.bytes, rb.bytes);
        assert_eq!(ra.messages, rb.messages);
        assert_eq!(ra.messages[0].message, "slow but sure");
        assert_eq!(
            renderer.renders.load(Ordering::SeqCst),
            round as usize + 1,
            "round {round}: one render for both services"
        );
    }
    assert_eq!(a.renders() + b.renders(), 3);
    // No lock is left behind.
    assert_eq!(redis.command("KEYS chart-raster:v1:lock:*"), "*0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renders_go_on_while_redis_is_away_and_sharing_resumes_when_it_is_back() {
    let Some(mut redis) = RedisServer::start_or_skip(
        "renders_go_on_while_redis_is_away_and_sharing_resumes_when_it_is_back",
    ) else {
        return;
    };
    let (a, b) = (skia(&redis), skia(&redis));
    connected(&[&a, &b]).await;
    a.render_json(&bar(40)).await.unwrap();
    redis.stop();
    for w in 41..46 {
        let t = Instant::now();
        let r = a.render_json(&bar(w)).await.unwrap();
        assert_eq!(&r.bytes[1..4], b"PNG");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
        // The local level still answers.
        assert!(a.render_json(&bar(w)).await.unwrap().cached);
    }
    until("disconnected", || {
        !a.health().cache.connected && !b.health().cache.connected
    })
    .await;
    assert_eq!(a.health().cache.backend, "redis");
    redis.restart();
    connected(&[&a, &b]).await;
    // Redis came back empty; sharing works again.
    let r = a.render_json(&bar(47)).await.unwrap();
    assert_eq!(b.cached(&r.hash).await.unwrap().bytes, r.bytes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_entries_expire_with_cache_ttl() {
    let Some(redis) = RedisServer::start_or_skip("shared_entries_expire_with_cache_ttl") else {
        return;
    };
    let ttl = |c: &mut ServiceConfig| c.cache.ttl = Duration::from_millis(500);
    let a = Service::new(config(&redis, ttl));
    let b = Service::new(config(&redis, ttl));
    connected(&[&a, &b]).await;
    let r = a.render_json(&bar(30)).await.unwrap();
    assert!(b.cached(&r.hash).await.is_some());
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(b.cached(&r.hash).await.is_none());
    assert!(a.cached(&r.hash).await.is_none());
    assert_eq!(redis.command("DBSIZE"), ":0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_over_the_entry_cap_stays_local() {
    let Some(redis) = RedisServer::start_or_skip("an_image_over_the_entry_cap_stays_local") else {
        return;
    };
    let cap = |c: &mut ServiceConfig| {
        if let Some(s) = c.shared_cache.as_mut() {
            s.max_entry_bytes = 200;
        }
    };
    let a = Service::new(config(&redis, cap));
    let b = Service::new(config(&redis, cap));
    connected(&[&a, &b]).await;
    let r = a.render_json(&bar(300)).await.unwrap();
    assert!(r.bytes.len() > 200, "{}", r.bytes.len());
    assert!(a.cached(&r.hash).await.is_some());
    assert!(b.cached(&r.hash).await.is_none());
    assert_eq!(redis.command("DBSIZE"), ":0");
    assert_eq!(a.cache_metrics().redis.unwrap().too_large, 1);
}

#[test]
fn cache_url_settings_are_read_and_checked() {
    let read = |pairs: &[(&str, &str)]| {
        let vars: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ServiceConfig::from_vars(|k| vars.get(k).cloned())
    };
    assert!(read(&[]).unwrap().shared_cache.is_none());
    assert!(read(&[("CACHE_URL", " ")]).unwrap().shared_cache.is_none());
    let c = read(&[
        ("CACHE_URL", "redis://:s3cret@127.0.0.1:6390/2"),
        ("CACHE_MAX_ENTRY_BYTES", "1000"),
        ("CACHE_REDIS_TIMEOUT_MS", "250"),
    ])
    .unwrap();
    let shared = c.shared_cache.as_ref().unwrap();
    assert_eq!(shared.max_entry_bytes, 1000);
    assert_eq!(shared.timeout, Duration::from_millis(250));
    assert_eq!(shared.redacted_url(), "redis://***@127.0.0.1:6390/2");
    assert!(!format!("{c:?}").contains("s3cret"));
    // TLS, with the system's trust store or a CA file (which must be a PEM, and needs TLS).
    let tls = read(&[("CACHE_URL", "rediss://:s3cret@host:6380/0")]).unwrap();
    assert_eq!(
        tls.shared_cache.unwrap().redacted_url(),
        "rediss://***@host:6380/0"
    );
    let dir = std::env::temp_dir().join(format!("chart-raster-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_pem = dir.join("not.pem");
    std::fs::write(&not_pem, "hello").unwrap();
    let not_pem = not_pem.to_str().unwrap();
    for (url, ca) in [
        ("rediss://host", not_pem),
        ("rediss://host", "/nonexistent/ca.pem"),
        ("redis://host", not_pem),
    ] {
        let e = read(&[("CACHE_URL", url), ("CACHE_REDIS_CA_FILE", ca)]).unwrap_err();
        assert!(
            matches!(
                e,
                ServiceError::Config {
                    name: "CACHE_REDIS_CA_FILE",
                    ..
                }
            ),
            "{url} {ca}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let e = read(&[("CACHE_URL", "http://user:s3cret@host/")]).unwrap_err();
    assert!(matches!(
        e,
        ServiceError::Config {
            name: "CACHE_URL",
            ..
        }
    ));
    assert!(!e.to_string().contains("s3cret"), "{e}");
    for bad in [
        ("CACHE_MAX_ENTRY_BYTES", "0"),
        ("CACHE_MAX_ENTRY_BYTES", "600000000"),
        ("CACHE_REDIS_TIMEOUT_MS", "x"),
    ] {
        assert!(read(&[("CACHE_URL", "redis://h"), bad]).is_err(), "{bad:?}");
    }
}
