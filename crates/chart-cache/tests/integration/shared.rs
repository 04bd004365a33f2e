//! The two-level cache against a real `redis-server` (started per test on a free port; the
//! tests skip with a printed reason when it is not installed, and fail instead when
//! `CHART_RASTER_REQUIRE_REDIS=1`).

use bytes::Bytes;
use chart_cache::testing::RedisServer;
use chart_cache::{
    CacheConfig, Claim, Level, Shareable, SharedConfig, SharedEntry, Stored, SystemClock,
    TieredCache,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq, Eq)]
struct Blob(Bytes);

impl Shareable for Blob {
    fn to_shared(&self) -> SharedEntry {
        SharedEntry {
            image: self.0.clone(),
            content_type: "application/x-test".into(),
            messages: "[]".into(),
        }
    }

    fn from_shared(e: SharedEntry) -> Option<Self> {
        (e.content_type == "application/x-test").then_some(Blob(e.image))
    }

    fn weight(&self) -> u64 {
        self.0.len() as u64
    }
}

fn blob(n: usize, fill: u8) -> Blob {
    Blob(Bytes::from(vec![fill; n]))
}

fn tiered(
    redis: &RedisServer,
    ttl: Duration,
    edit: impl FnOnce(&mut SharedConfig),
) -> TieredCache<Blob> {
    let mut shared = SharedConfig::new(&redis.url()).unwrap();
    edit(&mut shared);
    TieredCache::new(
        CacheConfig {
            ttl,
            ..CacheConfig::default()
        },
        Arc::new(SystemClock::new()),
        Some(shared),
    )
}

async fn until(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

const HOUR: Duration = Duration::from_secs(3600);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_stored_by_one_cache_is_served_by_another() {
    let Some(redis) =
        RedisServer::start_or_skip("an_entry_stored_by_one_cache_is_served_by_another")
    else {
        return;
    };
    let (a, b) = (tiered(&redis, HOUR, |_| {}), tiered(&redis, HOUR, |_| {}));
    until("connected", || {
        a.backend().connected && b.backend().connected
    })
    .await;
    assert_eq!(a.backend().backend, "redis");
    let v = blob(3000, 7);
    assert_eq!(
        a.insert("00000000000000aa", v.clone()).await,
        Some(Stored::Yes)
    );
    assert_eq!(b.get_local("00000000000000aa"), None);
    assert_eq!(
        b.get("00000000000000aa").await,
        Some((v.clone(), Level::Shared))
    );
    // Copied into B's memory: the next lookup does not need Redis.
    assert_eq!(b.get("00000000000000aa").await, Some((v, Level::Local)));
    assert_eq!(b.get("00000000000000bb").await, None);
    let s = b.stats().shared.unwrap();
    assert_eq!((s.hits, s.misses), (1, 1));
    assert_eq!(
        redis.command("EXISTS chart-raster:v1:img:00000000000000aa"),
        ":1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_expire_in_redis_after_the_ttl() {
    let Some(redis) = RedisServer::start_or_skip("entries_expire_in_redis_after_the_ttl") else {
        return;
    };
    let ttl = Duration::from_millis(400);
    let (a, b) = (tiered(&redis, ttl, |_| {}), tiered(&redis, ttl, |_| {}));
    until("connected", || {
        a.backend().connected && b.backend().connected
    })
    .await;
    a.insert("k1", blob(10, 1)).await;
    let pttl: i64 = redis.command("PTTL chart-raster:v1:img:k1")[1..]
        .parse()
        .unwrap();
    assert!((1..=400).contains(&pttl), "{pttl}");
    assert!(b.get("k1").await.is_some());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(redis.command("EXISTS chart-raster:v1:img:k1"), ":0");
    // Neither level keeps it: B's memory copy lived only as long as the entry had left.
    assert_eq!(b.get("k1").await, None);
    assert_eq!(tiered(&redis, ttl, |_| {}).get("k1").await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_over_the_cap_is_not_stored_in_redis() {
    let Some(redis) = RedisServer::start_or_skip("an_entry_over_the_cap_is_not_stored_in_redis")
    else {
        return;
    };
    let cap = |c: &mut SharedConfig| c.max_entry_bytes = 10_000;
    let (a, b) = (tiered(&redis, HOUR, cap), tiered(&redis, HOUR, cap));
    until("connected", || a.backend().connected).await;
    // 10_000 bytes with the type and messages: over.
    assert_eq!(
        a.insert("big", blob(10_000, 1)).await,
        Some(Stored::TooLarge)
    );
    assert_eq!(redis.command("DBSIZE"), ":0");
    assert_eq!(b.get("big").await, None);
    // It stays in A's memory.
    assert!(a.get_local("big").is_some());
    assert_eq!(a.stats().shared.unwrap().too_large, 1);
    // Just under the cap is stored.
    let fits = 10_000 - "application/x-test".len() - 2;
    assert_eq!(a.insert("fits", blob(fits, 1)).await, Some(Stored::Yes));
    // A huge value written behind our back is not read (the cap bounds reads too).
    let huge = tiered(&redis, HOUR, |c| c.max_entry_bytes = 100_000);
    huge.insert("huge", blob(50_000, 2)).await;
    assert_eq!(b.get("huge").await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_going_away_and_back_degrades_then_recovers() {
    let Some(mut redis) =
        RedisServer::start_or_skip("redis_going_away_and_back_degrades_then_recovers")
    else {
        return;
    };
    let a = tiered(&redis, HOUR, |_| {});
    until("connected", || a.backend().connected).await;
    a.insert("before", blob(10, 1)).await;
    redis.stop();
    // Every call answers quickly; memory keeps working.
    let t = Instant::now();
    for i in 0..20 {
        let key = format!("during{i}");
        assert_eq!(a.get(&key).await, None);
        assert_eq!(a.insert(&key, blob(10, 3)).await, Some(Stored::Unavailable));
        assert_eq!(a.get(&key).await, Some((blob(10, 3), Level::Local)));
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    until("disconnected", || !a.backend().connected).await;
    redis.restart();
    until("reconnected", || a.backend().connected).await;
    assert_eq!(a.insert("after", blob(10, 4)).await, Some(Stored::Yes));
    let b = tiered(&redis, HOUR, |_| {});
    until("b connected", || b.backend().connected).await;
    assert_eq!(b.get("after").await, Some((blob(10, 4), Level::Shared)));
    assert!(a.stats().shared.unwrap().connects >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_redis_cannot_hang_a_call() {
    let Some(redis) = RedisServer::start_or_skip("a_stalled_redis_cannot_hang_a_call") else {
        return;
    };
    let timeout = Duration::from_millis(200);
    let a = tiered(&redis, HOUR, |c| c.timeout = timeout);
    until("connected", || a.backend().connected).await;
    redis.pause();
    let t = Instant::now();
    assert_eq!(a.get("x").await, None);
    assert_eq!(a.insert("x", blob(10, 1)).await, Some(Stored::Unavailable));
    let took = t.elapsed();
    redis.resume();
    // The first call waits out the timeout and drops the connection; the second fails fast.
    assert!(took < timeout * 3, "{took:?}");
    assert!(a.stats().shared.unwrap().errors >= 1);
    until("reconnected", || a.backend().connected).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_render_claim_lets_one_render_and_the_other_wait() {
    let Some(redis) =
        RedisServer::start_or_skip("the_render_claim_lets_one_render_and_the_other_wait")
    else {
        return;
    };
    let (a, b) = (
        Arc::new(tiered(&redis, HOUR, |_| {})),
        tiered(&redis, HOUR, |_| {}),
    );
    until("connected", || {
        a.backend().connected && b.backend().connected
    })
    .await;
    let hold = Duration::from_secs(5);
    let Claim::Render(Some(lock)) = a.claim("h", hold, hold).await else {
        panic!("A should get the lock");
    };
    let holder = {
        let a = a.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            a.insert("h", blob(5, 9)).await;
            lock.release().await;
        })
    };
    let t = Instant::now();
    match b.claim("h", hold, hold).await {
        Claim::Ready(v) => assert_eq!(v, blob(5, 9)),
        Claim::Render(_) => panic!("B should have waited for A"),
    }
    assert!(t.elapsed() >= Duration::from_millis(150));
    holder.await.unwrap();
    assert_eq!(redis.command("EXISTS chart-raster:v1:lock:h"), ":0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_holder_that_does_not_deliver_is_not_waited_for_beyond_the_wait() {
    let Some(redis) = RedisServer::start_or_skip(
        "a_holder_that_does_not_deliver_is_not_waited_for_beyond_the_wait",
    ) else {
        return;
    };
    let (a, b) = (tiered(&redis, HOUR, |_| {}), tiered(&redis, HOUR, |_| {}));
    until("connected", || {
        a.backend().connected && b.backend().connected
    })
    .await;
    let Claim::Render(Some(_lock)) = a.claim("slow", HOUR, HOUR).await else {
        panic!("A should get the lock");
    };
    let t = Instant::now();
    let wait = Duration::from_millis(300);
    assert!(matches!(
        b.claim("slow", HOUR, wait).await,
        Claim::Render(None)
    ));
    assert!(
        t.elapsed() >= wait && t.elapsed() < wait * 3,
        "{:?}",
        t.elapsed()
    );
    // A holder that gives up (drops its lock unreleased) hands it on.
    drop(_lock);
    until("unlocked", || {
        redis.command("EXISTS chart-raster:v1:lock:slow") == ":0"
    })
    .await;
    assert!(matches!(
        b.claim("slow", HOUR, wait).await,
        Claim::Render(Some(_))
    ));
}

#[tokio::test]
async fn without_a_shared_level_it_is_memory_only() {
    let c: TieredCache<Blob> =
        TieredCache::new(CacheConfig::default(), Arc::new(SystemClock::new()), None);
    assert_eq!(
        (c.backend().backend, c.backend().connected),
        ("memory", true)
    );
    assert_eq!(c.insert("a", blob(1, 1)).await, None);
    assert_eq!(c.get("a").await, Some((blob(1, 1), Level::Local)));
    assert!(matches!(
        c.claim("a", HOUR, HOUR).await,
        Claim::Render(None)
    ));
    assert!(c.stats().shared.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rediss_urls_speak_tls_and_check_the_certificate() {
    let Some(redis) =
        RedisServer::start_tls_or_skip("rediss_urls_speak_tls_and_check_the_certificate")
    else {
        return;
    };
    assert!(redis.url().starts_with("rediss://"));
    let trusted = |c: &mut SharedConfig| {
        *c = c.clone().with_root_cert(redis.ca_pem()).unwrap();
    };
    let (a, b) = (tiered(&redis, HOUR, trusted), tiered(&redis, HOUR, trusted));
    until("connected over TLS", || {
        a.backend().connected && b.backend().connected
    })
    .await;
    assert_eq!(a.insert("tls", blob(100, 5)).await, Some(Stored::Yes));
    assert_eq!(b.get("tls").await, Some((blob(100, 5), Level::Shared)));
    // The system trust store does not know the test CA: no connection, and nothing else
    // breaks.
    let untrusted = tiered(&redis, HOUR, |_| {});
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(!untrusted.backend().connected);
    assert_eq!(untrusted.get("tls").await, None);
    // A CA file makes no sense without TLS.
    let plain = SharedConfig::new("redis://127.0.0.1:1/0").unwrap();
    assert!(plain.with_root_cert(redis.ca_pem()).is_err());
    let tls = SharedConfig::new("rediss://127.0.0.1:1/0").unwrap();
    assert!(tls.with_root_cert(b"not a certificate".to_vec()).is_err());
}
