use crate::common::*;
use chart_raster::ServiceConfig;
use serde_json::json;
use std::time::Duration;

fn req(n: u32) -> serde_json::Value {
    json!({"chart": bar(), "width": 100 + n, "height": 50, "devicePixelRatio": 1})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn second_request_is_a_hit_and_cache_url_serves_it() {
    let s = Server::default().await;
    let a = s.post_json("/render", &req(0)).await;
    assert_eq!(a.header("x-cache-hit"), Some("false"));
    // Same request, keys in another order.
    let b = s
        .post_json(
            "/render",
            &json!({"devicePixelRatio": 1, "height": 50, "width": 100, "chart": bar()}),
        )
        .await;
    assert_eq!(b.header("x-cache-hit"), Some("true"));
    assert_eq!(a.header("x-cache-hash"), b.header("x-cache-hash"));
    assert_eq!(a.body, b.body);
    assert_eq!(s.service.renders(), 1);

    let url = a.header("x-cache-url").unwrap();
    let path = url.strip_prefix(&format!("http://{}", s.addr)).unwrap();
    let c = s.get(path).await;
    assert_eq!(c.status, 200);
    assert_eq!(c.body, a.body);
    assert_eq!(c.header("content-type"), Some("image/png"));
    assert_eq!(c.header("cache-control"), Some("public, max-age=3600"));
    assert_eq!(
        c.header("content-length"),
        Some(a.body.len().to_string().as_str())
    );
    assert_powered_by(&c);
    assert_eq!(s.get("/health").await.json()["cache"]["size"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_serves_the_stored_format() {
    let s = Server::with_test_renderer().await;
    let mut r = req(0);
    r["format"] = json!("webp");
    let a = s.post_json("/render", &r).await;
    let c = s
        .get(&format!("/cache/{}", a.header("x-cache-hash").unwrap()))
        .await;
    assert_eq!(c.header("content-type"), Some("image/webp"));
    assert_eq!(webp_size(&c.body), (100, 50));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn miss_is_404() {
    let s = Server::default().await;
    s.get("/cache/0123456789abcdef")
        .await
        .assert_error(404, "Cache miss - image not found or expired");
    s.get("/cache/")
        .await
        .assert_error(404, "Cache miss - image not found or expired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_expire_after_the_ttl() {
    let mut config = Options::default().config;
    config.cache.ttl = Duration::from_secs(60);
    let s = Server::with_test_renderer_and(config).await;
    let a = s.post_json("/render", &req(0)).await;
    let path = format!("/cache/{}", a.header("x-cache-hash").unwrap());
    s.clock.advance(Duration::from_secs(59));
    assert_eq!(s.get(&path).await.status, 200);
    s.clock.advance(Duration::from_secs(1));
    s.get(&path)
        .await
        .assert_error(404, "Cache miss - image not found or expired");
    let again = s.post_json("/render", &req(0)).await;
    assert_eq!(again.header("x-cache-hit"), Some("false"));
    assert_eq!(s.service.renders(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn least_recently_used_is_evicted() {
    let mut config: ServiceConfig = Options::default().config;
    config.cache.max_entries = 2;
    let s = Server::with_test_renderer_and(config).await;
    let h: Vec<String> = {
        let mut v = Vec::new();
        for n in 0..2 {
            let r = s.post_json("/render", &req(n)).await;
            v.push(r.header("x-cache-hash").unwrap().to_string());
        }
        v
    };
    // Touch the first so the second is the least recently used.
    assert_eq!(s.get(&format!("/cache/{}", h[0])).await.status, 200);
    s.post_json("/render", &req(2)).await;
    assert_eq!(s.get(&format!("/cache/{}", h[0])).await.status, 200);
    assert_eq!(s.get(&format!("/cache/{}", h[1])).await.status, 404);
    assert_eq!(s.get("/health").await.json()["cache"]["size"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byte_bound_evicts() {
    let mut config: ServiceConfig = Options::default().config;
    config.cache.max_bytes = 1; // every image is larger: nothing is kept
    let s = Server::with_test_renderer_and(config).await;
    let a = s.post_json("/render", &req(0)).await;
    assert_eq!(a.status, 200);
    let b = s.post_json("/render", &req(0)).await;
    assert_eq!(b.header("x-cache-hit"), Some("false"));
    assert_eq!(s.service.renders(), 2);
}
