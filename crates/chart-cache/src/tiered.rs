//! The two-level cache the service uses: the in-memory LRU ([`Cache`]) first, then, when
//! `CACHE_URL` is set, the shared Redis level ([`SharedLevel`]); plus the cross-replica
//! render claim ([`TieredCache::claim`]) that lets one replica render while the others wait.
//!
//! Without a shared level it is the LRU alone and every method answers from memory. With one,
//! a miss in memory asks Redis (bounded by its timeout), a hit from Redis is copied into
//! memory for the time it has left there, and an insert writes both. Redis being away only
//! turns its answers into misses.

use crate::shared::{LockAttempt, SharedConfig, SharedEntry, SharedLevel, SharedStats, Stored};
use crate::{Cache, CacheConfig, CacheStats, Clock};
use std::sync::Arc;
use std::time::Duration;

/// Longest pause between two looks at a render another replica holds the lock of.
const MAX_POLL: Duration = Duration::from_millis(100);
/// First pause: most renders take tens of milliseconds.
const FIRST_POLL: Duration = Duration::from_millis(10);

/// A value the shared level can hold: it converts to and from a [`SharedEntry`].
pub trait Shareable: Clone + Send + Sync + 'static {
    /// The entry to store.
    fn to_shared(&self) -> SharedEntry;
    /// The value of a stored entry; `None` when it cannot be read (written by another
    /// version, say): a miss.
    fn from_shared(entry: SharedEntry) -> Option<Self>;
    /// Bytes counted against the in-memory byte bound.
    fn weight(&self) -> u64;
}

/// Where a hit came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The in-memory LRU of this process.
    Local,
    /// Redis (written by this replica or another).
    Shared,
}

/// What `/health` reports about the cache's backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackendStatus {
    /// `memory` (no `CACHE_URL`) or `redis`.
    pub backend: &'static str,
    /// The backend answers: always true for `memory`; for `redis`, a connection is up.
    pub connected: bool,
}

/// Counters of both levels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TieredStats {
    /// The in-memory level.
    pub local: CacheStats,
    /// The shared level, when there is one.
    pub shared: Option<SharedStats>,
}

/// The outcome of [`TieredCache::claim`].
pub enum Claim<V: Shareable> {
    /// Another replica rendered it while we waited.
    Ready(V),
    /// Render it here; with the lock when one was taken (release it once the value is
    /// inserted), without when there is no shared level, Redis is away, or the holder did
    /// not deliver in time.
    Render(Option<RenderLock>),
}

/// A held render lock. [`RenderLock::release`] it after the insert; dropped unreleased (the
/// render was abandoned), it is released by a background task, or expires.
pub struct RenderLock {
    shared: Arc<SharedLevel>,
    hash: String,
    token: Option<String>,
}

impl RenderLock {
    /// Releases the lock (only if it is still ours).
    pub async fn release(mut self) {
        if let Some(token) = self.token.take() {
            self.shared.unlock(&self.hash, &token).await;
        }
    }
}

impl Drop for RenderLock {
    fn drop(&mut self) {
        let Some(token) = self.token.take() else {
            return;
        };
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let shared = self.shared.clone();
            let hash = std::mem::take(&mut self.hash);
            rt.spawn(async move { shared.unlock(&hash, &token).await });
        }
    }
}

/// The in-memory LRU in front of an optional shared Redis level. Keys are request hashes.
pub struct TieredCache<V: Shareable> {
    local: Cache<String, V>,
    shared: Option<Arc<SharedLevel>>,
}

impl<V: Shareable> TieredCache<V> {
    /// The cache: `local` bounds the memory level; `shared`, when given, adds Redis behind it
    /// (entries there live `local.ttl` too).
    pub fn new(local: CacheConfig, clock: Arc<dyn Clock>, shared: Option<SharedConfig>) -> Self {
        Self {
            local: Cache::with_clock(local, clock),
            shared: shared.map(SharedLevel::new),
        }
    }

    /// The memory level's bounds.
    pub fn config(&self) -> CacheConfig {
        self.local.config()
    }

    /// The shared level, if any.
    pub fn shared(&self) -> Option<&Arc<SharedLevel>> {
        self.shared.as_ref()
    }

    /// Entries in memory.
    pub fn local_len(&self) -> usize {
        self.local.len()
    }

    /// Bytes in memory.
    pub fn local_bytes(&self) -> u64 {
        self.local.bytes()
    }

    /// The value in memory, without asking Redis.
    pub fn get_local(&self, hash: &str) -> Option<V> {
        self.local.get(&hash.to_string())
    }

    /// The value from memory, else from Redis (then kept in memory for the time it has left
    /// in Redis).
    pub async fn get(&self, hash: &str) -> Option<(V, Level)> {
        if let Some(v) = self.get_local(hash) {
            return Some((v, Level::Local));
        }
        self.get_shared(hash).await.map(|v| (v, Level::Shared))
    }

    async fn get_shared(&self, hash: &str) -> Option<V> {
        let shared = self.shared.as_ref()?;
        let (entry, left) = shared.get(hash).await?;
        let value = V::from_shared(entry)?;
        let ttl = left.min(self.local.config().ttl);
        self.local
            .insert_for(hash.to_string(), value.clone(), value.weight(), ttl);
        Some(value)
    }

    /// Stores in memory and, when there is one, in Redis (bounded by the timeout; an entry
    /// over `CACHE_MAX_ENTRY_BYTES` stays in memory only). Returns what Redis did, `None`
    /// without a shared level.
    pub async fn insert(&self, hash: &str, value: V) -> Option<Stored> {
        self.local
            .insert(hash.to_string(), value.clone(), value.weight());
        let shared = self.shared.as_ref()?;
        let ttl = self.local.config().ttl;
        if ttl.is_zero() {
            return Some(Stored::Unavailable);
        }
        Some(shared.put(hash, &value.to_shared(), ttl).await)
    }

    /// Before rendering `hash`: take the cross-replica render lock for `hold` (longer than
    /// the render may take), or, when another replica holds it, wait up to `wait` for its
    /// result. A holder that gives up (its lock goes without a result) hands the lock to the
    /// next one to ask, so a failing request is not retried by every replica at once.
    pub async fn claim(&self, hash: &str, hold: Duration, wait: Duration) -> Claim<V> {
        let Some(shared) = &self.shared else {
            return Claim::Render(None);
        };
        let deadline = tokio::time::Instant::now() + wait;
        let mut pause = FIRST_POLL;
        loop {
            match shared.try_lock(hash, hold).await {
                LockAttempt::Acquired(token) => {
                    let lock = RenderLock {
                        shared: shared.clone(),
                        hash: hash.to_string(),
                        token: Some(token),
                    };
                    // The previous holder may have stored and released between our lookup
                    // and the lock.
                    if let Some(v) = self.get_shared(hash).await {
                        lock.release().await;
                        return Claim::Ready(v);
                    }
                    return Claim::Render(Some(lock));
                }
                LockAttempt::Unavailable => return Claim::Render(None),
                LockAttempt::Held => {}
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Claim::Render(None);
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(MAX_POLL);
            if let Some(v) = self.get_shared(hash).await {
                return Claim::Ready(v);
            }
        }
    }

    /// `memory`, or `redis` and whether it is connected.
    pub fn backend(&self) -> BackendStatus {
        match &self.shared {
            None => BackendStatus {
                backend: "memory",
                connected: true,
            },
            Some(s) => BackendStatus {
                backend: "redis",
                connected: s.connected(),
            },
        }
    }

    /// Counters of both levels.
    pub fn stats(&self) -> TieredStats {
        TieredStats {
            local: self.local.stats(),
            shared: self.shared.as_ref().map(|s| s.stats()),
        }
    }
}
