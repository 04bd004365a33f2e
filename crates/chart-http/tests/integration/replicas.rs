//! Two servers sharing their cache through a real `redis-server` (`CACHE_URL`), as two
//! replicas behind a load balancer would: an image rendered by one is served by the other,
//! byte for byte, and Redis going away never fails a request. Skipped with a printed reason
//! when `redis-server` is not installed, unless `CHART_RASTER_REQUIRE_REDIS=1`.

use crate::common::*;
use chart_raster::cache::testing::RedisServer;
use chart_raster::cache::SharedConfig;
use serde_json::json;

async fn replica(redis: &RedisServer) -> Server {
    let mut opts = Options::default();
    opts.config.shared_cache = Some(SharedConfig::new(&redis.url()).unwrap());
    let s = Server::start(opts).await;
    s.wait_until(|s| s.service.health().cache.connected).await;
    s
}

fn req() -> serde_json::Value {
    json!({"chart": bar(), "width": 120, "height": 60, "devicePixelRatio": 1})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cache_url_from_one_replica_works_at_another() {
    let Some(redis) = RedisServer::start_or_skip("a_cache_url_from_one_replica_works_at_another")
    else {
        return;
    };
    let (a, b) = (replica(&redis).await, replica(&redis).await);
    let health = b.get("/health").await.json();
    assert_eq!(health["cache"]["backend"], "redis");
    assert_eq!(health["cache"]["connected"], true);

    let first = a.post_json("/render", &req()).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.header("x-cache-hit"), Some("false"));
    let hash = first.header("x-cache-hash").unwrap().to_string();
    // The X-Cache-Url A handed out, followed at B (the load balancer picked the other one).
    let at_b = b.get(&format!("/cache/{hash}")).await;
    assert_eq!(at_b.status, 200);
    assert_eq!(at_b.body, first.body);
    assert_eq!(at_b.header("content-type"), Some("image/png"));
    // The same request at B: a hit, the same bytes, no render there.
    let again = b.post_json("/render", &req()).await;
    assert_eq!(again.header("x-cache-hit"), Some("true"));
    assert_eq!(again.header("x-cache-hash"), Some(hash.as_str()));
    assert_eq!(again.body, first.body);
    assert_eq!((a.service.renders(), b.service.renders()), (1, 0));
    // B found it in Redis once (for /cache/<hash>); the render request then hit memory.
    let metrics = metric_lines(&b).await;
    assert!(metrics.contains(&"chart_raster_cache_redis_connected 1".to_string()));
    assert!(metrics.contains(&"chart_raster_cache_redis_hits_total 1".to_string()));
    assert!(metric_lines(&a)
        .await
        .contains(&"chart_raster_cache_redis_stores_total 1".to_string()));
}

async fn metric_lines(s: &Server) -> Vec<String> {
    let r = s.get("/metrics").await;
    assert_eq!(r.status, 200);
    String::from_utf8_lossy(&r.body)
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_cache_url_the_cache_is_memory_and_metrics_name_no_redis() {
    let s = Server::default().await;
    let health = s.get("/health").await.json();
    assert_eq!(health["cache"]["backend"], "memory");
    assert_eq!(health["cache"]["connected"], true);
    assert!(!metric_lines(&s).await.iter().any(|l| l.contains("redis")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_going_away_shows_in_health_and_fails_no_render() {
    let Some(mut redis) =
        RedisServer::start_or_skip("redis_going_away_shows_in_health_and_fails_no_render")
    else {
        return;
    };
    let a = replica(&redis).await;
    redis.stop();
    let r = a.post_json("/render", &req()).await;
    assert_eq!(r.status, 200);
    assert_eq!(&r.body[1..4], b"PNG");
    a.wait_until(|s| !s.service.health().cache.connected).await;
    assert_eq!(a.get("/health").await.json()["cache"]["connected"], false);
    assert!(metric_lines(&a)
        .await
        .contains(&"chart_raster_cache_redis_connected 0".to_string()));
    // The local level still serves /cache/<hash>.
    let hash = r.header("x-cache-hash").unwrap();
    assert_eq!(a.get(&format!("/cache/{hash}")).await.body, r.body);
    redis.restart();
    a.wait_until(|s| s.service.health().cache.connected).await;
    assert_eq!(a.get("/health").await.json()["cache"]["connected"], true);
}
