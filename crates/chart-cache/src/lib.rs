//! The render cache: encoded images kept by request hash, bounded by entry count, total bytes
//! and age (an expired entry is a miss), with an injectable clock. Depends on no workspace crate.
//!
//! Two levels: [`Cache`], the in-memory LRU of one process, and [`shared::SharedLevel`],
//! entries in Redis shared by every replica (`CACHE_URL`). [`TieredCache`] puts the first in
//! front of the second and is what the service uses.
//!
//! The cache is generic (`Cache<K, V>`) and does its own locking, so it can be shared behind an
//! `Arc` by every request of the service. Time comes from a [`Clock`]: the service uses
//! [`SystemClock`]; tests use [`ManualClock`] and move time forward instead of sleeping.
#![warn(missing_docs)]

pub mod shared;
// Not for production use: the throwaway `redis-server` of this and dependent crates' tests
// (std only, compiled always so that their tests need no feature plumbing). Hidden from the
// documentation: not part of the API.
#[doc(hidden)]
pub mod testing;
pub mod tiered;

pub use shared::{SharedConfig, SharedEntry, SharedLevel, SharedStats, Stored};
pub use tiered::{BackendStatus, Claim, Level, RenderLock, Shareable, TieredCache, TieredStats};

use lru::LruCache;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Default entry bound (`CACHE_MAX_ENTRIES`).
pub const DEFAULT_MAX_ENTRIES: usize = 1000;
/// Default byte bound (`CACHE_MAX_BYTES`): 256 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// Default entry lifetime (`CACHE_TTL_SECONDS`): one hour.
pub const DEFAULT_TTL: Duration = Duration::from_secs(3600);

/// Why a cache could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// `CACHE_URL` is not a Redis URL this build can use. The URL is shown without its
    /// password.
    #[error("invalid CACHE_URL {url:?}: {reason}")]
    Url {
        /// The URL, redacted.
        url: String,
        /// What is wrong.
        reason: String,
    },
}

/// A monotonic time source. Only differences between two readings matter.
pub trait Clock: Send + Sync {
    /// Time elapsed since an arbitrary, fixed origin.
    fn now(&self) -> Duration;
}

/// The real clock: [`Instant`] elapsed since the clock was made.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug, Default)]
pub struct ManualClock {
    nanos: AtomicU64,
}

impl ManualClock {
    /// A clock at time zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(by, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }
}

/// The bounds of a cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheConfig {
    /// Most entries kept; the least recently used goes first. Default: 1000.
    /// Zero disables the cache.
    pub max_entries: usize,
    /// Most bytes kept (the sum of the sizes given to [`Cache::insert`]). Default: 256 MiB.
    pub max_bytes: u64,
    /// How long an entry lives after it is inserted. Default: one hour.
    pub ttl: Duration,
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self {
            max_entries: DEFAULT_MAX_ENTRIES,
            max_bytes: DEFAULT_MAX_BYTES,
            ttl: DEFAULT_TTL,
        }
    }
}

/// Counters since the cache was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found a live entry.
    pub hits: u64,
    /// Lookups that found nothing or an expired entry.
    pub misses: u64,
    /// Entries dropped to stay within the entry or byte bound.
    pub evictions: u64,
    /// Entries dropped because their time was up.
    pub expirations: u64,
}

struct Entry<V> {
    value: V,
    bytes: u64,
    expires_at: Duration,
}

struct Inner<K: Hash + Eq, V> {
    map: LruCache<K, Entry<V>>,
    bytes: u64,
    stats: CacheStats,
}

/// An LRU cache bounded by entries, bytes and age. Values are cloned out, so keep them cheap
/// to clone (`Arc`, `bytes::Bytes`).
pub struct Cache<K: Hash + Eq, V> {
    config: CacheConfig,
    clock: std::sync::Arc<dyn Clock>,
    inner: Mutex<Inner<K, V>>,
}

impl<K: Hash + Eq + Clone, V: Clone> Cache<K, V> {
    /// A cache on the system clock.
    pub fn new(config: CacheConfig) -> Self {
        Self::with_clock(config, std::sync::Arc::new(SystemClock::new()))
    }

    /// A cache on the given clock.
    pub fn with_clock(config: CacheConfig, clock: std::sync::Arc<dyn Clock>) -> Self {
        Self {
            config,
            clock,
            inner: Mutex::new(Inner {
                // Unbounded: the bounds (entries and bytes) are enforced in `insert`.
                map: LruCache::unbounded(),
                bytes: 0,
                stats: CacheStats::default(),
            }),
        }
    }

    /// The bounds.
    pub fn config(&self) -> CacheConfig {
        self.config
    }

    fn lock(&self) -> MutexGuard<'_, Inner<K, V>> {
        // A panic while holding the lock cannot leave the map half-updated in a way that
        // matters (at worst the byte count is off), so keep serving rather than poisoning.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The live value for `key`, marking it most recently used. An expired entry is removed
    /// and reported as a miss.
    pub fn get(&self, key: &K) -> Option<V> {
        let now = self.clock.now();
        let mut inner = self.lock();
        let expired = match inner.map.get(key) {
            None => {
                inner.stats.misses += 1;
                return None;
            }
            Some(e) if e.expires_at > now => {
                let v = e.value.clone();
                inner.stats.hits += 1;
                return Some(v);
            }
            Some(_) => true,
        };
        if expired {
            if let Some(e) = inner.map.pop(key) {
                inner.bytes -= e.bytes;
            }
            inner.stats.expirations += 1;
            inner.stats.misses += 1;
        }
        None
    }

    /// Stores `value` (of `bytes` bytes) under `key`, replacing any previous value, then
    /// evicts expired entries and least recently used ones until both bounds hold. A value
    /// larger than the byte bound is not stored. Returns whether it was stored.
    pub fn insert(&self, key: K, value: V, bytes: u64) -> bool {
        self.insert_for(key, value, bytes, self.config.ttl)
    }

    /// [`Cache::insert`] with a lifetime of `ttl` (capped at the configured TTL) instead of
    /// the configured one: an entry copied from the shared level lives only as long as it has
    /// left there.
    pub fn insert_for(&self, key: K, value: V, bytes: u64, ttl: Duration) -> bool {
        if self.config.max_entries == 0 || bytes > self.config.max_bytes {
            return false;
        }
        let now = self.clock.now();
        let expires_at = now.saturating_add(ttl.min(self.config.ttl));
        let mut inner = self.lock();
        if let Some(old) = inner.map.put(
            key,
            Entry {
                value,
                bytes,
                expires_at,
            },
        ) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        // Expired entries go first, wherever they sit in the LRU order.
        if inner.map.len() > self.config.max_entries || inner.bytes > self.config.max_bytes {
            let expired: Vec<K> = inner
                .map
                .iter()
                .filter(|(_, e)| e.expires_at <= now)
                .map(|(k, _)| k.clone())
                .collect();
            for k in expired {
                if let Some(e) = inner.map.pop(&k) {
                    inner.bytes -= e.bytes;
                    inner.stats.expirations += 1;
                }
            }
        }
        while inner.map.len() > self.config.max_entries || inner.bytes > self.config.max_bytes {
            match inner.map.pop_lru() {
                Some((_, e)) => {
                    inner.bytes -= e.bytes;
                    inner.stats.evictions += 1;
                }
                None => break,
            }
        }
        true
    }

    /// Removes an entry.
    pub fn remove(&self, key: &K) -> Option<V> {
        let mut inner = self.lock();
        let e = inner.map.pop(key)?;
        inner.bytes -= e.bytes;
        Some(e.value)
    }

    /// Entries held (expired ones included until they are looked up or evicted).
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// True when no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// Counters.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_clock_moves_forward() {
        let c = SystemClock::new();
        let a = c.now();
        assert!(c.now() >= a);
    }
}
