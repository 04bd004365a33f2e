//! Integration tests of chart-cache: bounds, LRU order and expiry on a manual clock.

mod shared;

use chart_cache::{Cache, CacheConfig, Clock, ManualClock};
use std::sync::Arc;
use std::time::Duration;

fn cache(
    max_entries: usize,
    max_bytes: u64,
    ttl_secs: u64,
) -> (Cache<String, u32>, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let c = Cache::with_clock(
        CacheConfig {
            max_entries,
            max_bytes,
            ttl: Duration::from_secs(ttl_secs),
        },
        clock.clone(),
    );
    (c, clock)
}

fn k(s: &str) -> String {
    s.to_string()
}

#[test]
fn hit_and_miss() {
    let (c, _) = cache(10, 1000, 60);
    assert_eq!(c.get(&k("a")), None);
    assert!(c.insert(k("a"), 1, 10));
    assert_eq!(c.get(&k("a")), Some(1));
    let s = c.stats();
    assert_eq!((s.hits, s.misses), (1, 1));
}

#[test]
fn entries_expire_after_ttl() {
    let (c, clock) = cache(10, 1000, 60);
    c.insert(k("a"), 1, 10);
    clock.advance(Duration::from_secs(59));
    assert_eq!(c.get(&k("a")), Some(1));
    clock.advance(Duration::from_secs(1));
    assert_eq!(c.get(&k("a")), None, "an entry at its TTL is expired");
    assert_eq!(c.len(), 0);
    assert_eq!(c.bytes(), 0);
    assert_eq!(c.stats().expirations, 1);
}

#[test]
fn reinserting_renews_the_ttl() {
    let (c, clock) = cache(10, 1000, 60);
    c.insert(k("a"), 1, 10);
    clock.advance(Duration::from_secs(50));
    c.insert(k("a"), 2, 10);
    clock.advance(Duration::from_secs(50));
    assert_eq!(c.get(&k("a")), Some(2));
    assert_eq!(c.bytes(), 10);
}

#[test]
fn least_recently_used_is_evicted_at_the_entry_bound() {
    let (c, _) = cache(2, 1000, 60);
    c.insert(k("a"), 1, 1);
    c.insert(k("b"), 2, 1);
    assert_eq!(c.get(&k("a")), Some(1)); // a is now more recent than b
    c.insert(k("c"), 3, 1);
    assert_eq!(c.len(), 2);
    assert_eq!(c.get(&k("b")), None);
    assert_eq!(c.get(&k("a")), Some(1));
    assert_eq!(c.get(&k("c")), Some(3));
    assert_eq!(c.stats().evictions, 1);
}

#[test]
fn byte_bound_evicts_until_it_holds() {
    let (c, _) = cache(100, 100, 60);
    c.insert(k("a"), 1, 40);
    c.insert(k("b"), 2, 40);
    c.insert(k("c"), 3, 40);
    assert_eq!(c.bytes(), 80);
    assert_eq!(c.get(&k("a")), None);
    c.insert(k("big"), 4, 100);
    assert_eq!(c.len(), 1);
    assert_eq!(c.bytes(), 100);
}

#[test]
fn a_value_over_the_byte_bound_is_not_stored() {
    let (c, _) = cache(100, 100, 60);
    c.insert(k("a"), 1, 10);
    assert!(!c.insert(k("huge"), 2, 101));
    assert_eq!(c.get(&k("a")), Some(1));
    assert_eq!(c.get(&k("huge")), None);
}

#[test]
fn expired_entries_are_evicted_before_live_ones() {
    let (c, clock) = cache(2, 1000, 60);
    c.insert(k("old"), 1, 1);
    clock.advance(Duration::from_secs(30));
    c.insert(k("live"), 2, 1);
    assert_eq!(c.get(&k("old")), Some(1)); // old is most recently used, but will expire first
    clock.advance(Duration::from_secs(31));
    c.insert(k("new"), 3, 1);
    assert_eq!(c.get(&k("live")), Some(2));
    assert_eq!(c.get(&k("new")), Some(3));
    assert_eq!(c.stats().evictions, 0);
    assert_eq!(c.stats().expirations, 1);
}

#[test]
fn zero_entries_disables_the_cache() {
    let (c, _) = cache(0, 1000, 60);
    assert!(!c.insert(k("a"), 1, 1));
    assert!(c.is_empty());
}

#[test]
fn manual_clock_only_moves_when_told() {
    let clock = ManualClock::new();
    assert_eq!(clock.now(), Duration::ZERO);
    clock.advance(Duration::from_millis(1500));
    assert_eq!(clock.now(), Duration::from_millis(1500));
}

#[test]
fn insert_for_shortens_but_never_lengthens_the_life() {
    let (c, clock) = cache(10, 1000, 60);
    c.insert_for(k("short"), 1, 1, Duration::from_secs(5));
    c.insert_for(k("long"), 2, 1, Duration::from_secs(600));
    clock.advance(Duration::from_secs(5));
    assert_eq!(c.get(&k("short")), None);
    clock.advance(Duration::from_secs(55));
    assert_eq!(c.get(&k("long")), None, "capped at the configured 60 s");
}
