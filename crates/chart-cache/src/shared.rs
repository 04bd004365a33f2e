//! The shared level: cache entries in Redis, so that every replica of the service sees every
//! render, plus the short-lived render locks that let one replica render while the others
//! wait for its result.
//!
//! Nothing here can fail a render. Every call is bounded by [`SharedConfig::timeout`]; a call
//! that fails for connection reasons (refused, dropped, timed out) drops the connection and
//! the level reports itself disconnected: calls then answer "not available" at once, without
//! touching the network, until a background task reconnects (it tries every
//! [`RECONNECT_INTERVAL`], and pings a live connection as often so that `/health` notices a
//! Redis that went away while no request was made). The change is logged once each way.
//!
//! Layout in Redis, under the key prefix (default `chart-raster:v1:`):
//! - `img:<hash>`: a hash with fields `image` (the encoded bytes), `type` (the content type)
//!   and `messages` (the render's messages, as the service serialized them), with a `PEXPIRE`
//!   of the cache TTL. Written in one `MULTI`, so a reader never sees half an entry.
//! - `lock:<hash>`: the render lock, a random token set with `SET NX PX`; removed by its
//!   owner only (a script compares the token), or by its expiry.

use crate::CacheError;
use bytes::Bytes;
use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, Script, TlsCertificates, Value};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Default `CACHE_MAX_ENTRY_BYTES`: the largest entry the shared level stores, 8 MiB.
pub const DEFAULT_MAX_ENTRY_BYTES: u64 = 8 * 1024 * 1024;
/// The largest `CACHE_MAX_ENTRY_BYTES` accepted: Redis' own limit on one value (512 MiB).
pub const MAX_ENTRY_BYTES_LIMIT: u64 = 512 * 1024 * 1024;
/// Default `CACHE_REDIS_TIMEOUT_MS`: the longest one Redis call (or connect) may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(500);
/// How often the background task tries to reconnect, or pings a live connection.
pub const RECONNECT_INTERVAL: Duration = Duration::from_millis(500);
/// Default key prefix. The `v1` names the entry layout: a change of layout changes it, so a
/// replica never reads entries written in a layout it does not know.
pub const DEFAULT_KEY_PREFIX: &str = "chart-raster:v1:";

/// Where the shared level lives and its bounds.
#[derive(Clone)]
pub struct SharedConfig {
    client: Client,
    url: String,
    /// Entries larger than this (image, type and messages together) are neither stored nor
    /// read back (`CACHE_MAX_ENTRY_BYTES`). Default: [`DEFAULT_MAX_ENTRY_BYTES`].
    pub max_entry_bytes: u64,
    /// The longest one Redis call may take, connecting included (`CACHE_REDIS_TIMEOUT_MS`).
    /// Default: [`DEFAULT_TIMEOUT`].
    pub timeout: Duration,
    /// Prefix of every key. Default: [`DEFAULT_KEY_PREFIX`].
    pub key_prefix: String,
}

impl SharedConfig {
    /// A shared level at `url`: `redis://[user:password@]host[:port][/db]`, or `rediss://`
    /// for TLS. Checked here (scheme and syntax); nothing is connected yet.
    pub fn new(url: &str) -> Result<Self, CacheError> {
        let url = url.trim();
        let bad = |reason: String| CacheError::Url {
            url: redact(url),
            reason,
        };
        if !(url.starts_with("redis://") || url.starts_with("rediss://")) {
            return Err(bad("expected redis://host:port/db or rediss://...".into()));
        }
        if url.starts_with("rediss://") {
            install_tls_provider();
        }
        // redis-rs' messages quote no part of the URL, so they cannot leak a password.
        let client = Client::open(url).map_err(|e| bad(e.to_string()))?;
        Ok(Self {
            client,
            url: url.to_string(),
            max_entry_bytes: DEFAULT_MAX_ENTRY_BYTES,
            timeout: DEFAULT_TIMEOUT,
            key_prefix: DEFAULT_KEY_PREFIX.to_string(),
        })
    }

    /// For `rediss://`: trust only the CA certificate(s) in `pem` (`CACHE_REDIS_CA_FILE`),
    /// instead of the system's trust store: a Redis with a certificate of a private CA.
    pub fn with_root_cert(mut self, pem: Vec<u8>) -> Result<Self, CacheError> {
        let bad = |reason: String| CacheError::Url {
            url: redact(&self.url),
            reason,
        };
        if !self.url.starts_with("rediss://") {
            return Err(bad("a CA certificate needs a rediss:// URL".into()));
        }
        // redis-rs reads a PEM without certificates as an empty trust store; say so here.
        let marker = b"-----BEGIN CERTIFICATE-----";
        if !pem.windows(marker.len()).any(|w| w == marker) {
            return Err(bad("the CA file holds no PEM certificate".into()));
        }
        let certs = TlsCertificates {
            client_tls: None,
            root_cert: Some(pem),
        };
        self.client =
            Client::build_with_tls(self.url.as_str(), certs).map_err(|e| bad(e.to_string()))?;
        Ok(self)
    }

    /// The URL with any user and password replaced by `***`, fit for logs and `/health`.
    pub fn redacted_url(&self) -> String {
        redact(&self.url)
    }
}

impl std::fmt::Debug for SharedConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedConfig")
            .field("url", &self.redacted_url())
            .field("max_entry_bytes", &self.max_entry_bytes)
            .field("timeout", &self.timeout)
            .field("key_prefix", &self.key_prefix)
            .finish()
    }
}

/// rustls needs one crypto provider for the process; ring is the one built in (see
/// Cargo.toml). Another part of the process may have installed its own first: that one stays.
fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// `scheme://user:password@host/...` → `scheme://***@host/...`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "***".into();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => url.to_string(),
    }
}

/// One entry as the shared level stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedEntry {
    /// The encoded image.
    pub image: Bytes,
    /// Its content type.
    pub content_type: String,
    /// The render's messages, serialized by the owner of the cache.
    pub messages: String,
}

impl SharedEntry {
    /// Bytes stored: what [`SharedConfig::max_entry_bytes`] bounds.
    pub fn size(&self) -> u64 {
        (self.image.len() + self.content_type.len() + self.messages.len()) as u64
    }
}

/// Counters of the shared level since it was made, and its state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SharedStats {
    /// A connection to Redis is up.
    pub connected: bool,
    /// Lookups that found an entry.
    pub hits: u64,
    /// Lookups that found none (or one over the size cap, or unreadable).
    pub misses: u64,
    /// Entries written.
    pub stores: u64,
    /// Entries not written because they were over `CACHE_MAX_ENTRY_BYTES`.
    pub too_large: u64,
    /// Calls that failed or timed out (each drops the connection).
    pub errors: u64,
    /// Calls skipped because Redis was not connected.
    pub unavailable: u64,
    /// Connections made (the first one included).
    pub connects: u64,
}

#[derive(Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    stores: AtomicU64,
    too_large: AtomicU64,
    errors: AtomicU64,
    unavailable: AtomicU64,
    connects: AtomicU64,
}

fn bump(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// The outcome of [`SharedLevel::try_lock`].
#[derive(Debug, PartialEq, Eq)]
pub enum LockAttempt {
    /// The lock is ours, under this token.
    Acquired(String),
    /// Another render holds it.
    Held,
    /// Redis is not reachable: there is no lock to take.
    Unavailable,
}

/// The outcome of [`SharedLevel::put`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// Written.
    Yes,
    /// Over `CACHE_MAX_ENTRY_BYTES`: not written.
    TooLarge,
    /// Redis is not reachable, or the write failed.
    Unavailable,
}

#[derive(Default)]
struct Link {
    conn: Option<MultiplexedConnection>,
    /// The last state logged: `Some(true)` connected, `Some(false)` unavailable.
    logged: Option<bool>,
}

/// The Redis level. Shared behind an `Arc`; see the module documentation.
pub struct SharedLevel {
    config: SharedConfig,
    link: Mutex<Link>,
    keeper_started: AtomicBool,
    counters: Counters,
    read: Script,
    unlock: Script,
}

/// Reads an entry only when it is within the size cap (ARGV[1]), so that a stray huge value
/// never crosses the network: `{type, messages, image, pttl}` or nil.
const READ_SCRIPT: &str = r"
local size = redis.call('HSTRLEN', KEYS[1], 'image')
if size == 0 then return false end
size = size + redis.call('HSTRLEN', KEYS[1], 'type') + redis.call('HSTRLEN', KEYS[1], 'messages')
if size > tonumber(ARGV[1]) then return false end
local v = redis.call('HMGET', KEYS[1], 'type', 'messages', 'image')
return {v[1], v[2], v[3], redis.call('PTTL', KEYS[1])}
";

/// Deletes the lock only while it still holds our token: after its expiry another replica
/// may hold it, and that lock is not ours to remove.
const UNLOCK_SCRIPT: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

impl SharedLevel {
    /// The level; it connects in the background once used inside a tokio runtime (at once
    /// when made inside one).
    pub fn new(config: SharedConfig) -> Arc<Self> {
        let level = Arc::new(Self {
            config,
            link: Mutex::new(Link::default()),
            keeper_started: AtomicBool::new(false),
            counters: Counters::default(),
            read: Script::new(READ_SCRIPT),
            unlock: Script::new(UNLOCK_SCRIPT),
        });
        level.start_keeper();
        level
    }

    /// The settings.
    pub fn config(&self) -> &SharedConfig {
        &self.config
    }

    /// A connection to Redis is up.
    pub fn connected(&self) -> bool {
        self.link().conn.is_some()
    }

    /// Counters.
    pub fn stats(&self) -> SharedStats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        SharedStats {
            connected: self.connected(),
            hits: get(&c.hits),
            misses: get(&c.misses),
            stores: get(&c.stores),
            too_large: get(&c.too_large),
            errors: get(&c.errors),
            unavailable: get(&c.unavailable),
            connects: get(&c.connects),
        }
    }

    fn link(&self) -> MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn key(&self, kind: &str, hash: &str) -> String {
        format!("{}{kind}:{hash}", self.config.key_prefix)
    }

    /// Starts the reconnect-and-ping task once, when a tokio runtime is at hand. It holds
    /// only a weak reference and ends when the level is dropped.
    fn start_keeper(self: &Arc<Self>) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if self.keeper_started.swap(true, Ordering::SeqCst) {
            return;
        }
        let weak = Arc::downgrade(self);
        rt.spawn(keep(weak));
    }

    /// Connects, bounded by the timeout; logs a change of state once.
    async fn connect(&self) -> bool {
        let timeout = self.config.timeout;
        let cfg = AsyncConnectionConfig::new()
            .set_connection_timeout(timeout)
            .set_response_timeout(timeout);
        let attempt = self
            .config
            .client
            .get_multiplexed_async_connection_with_config(&cfg);
        let failure = match tokio::time::timeout(timeout, attempt).await {
            Ok(Ok(conn)) => {
                bump(&self.counters.connects);
                let mut link = self.link();
                link.conn = Some(conn);
                if link.logged != Some(true) {
                    link.logged = Some(true);
                    eprintln!(
                        "chart-raster: cache: connected to Redis at {}",
                        self.config.redacted_url()
                    );
                }
                return true;
            }
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no connection within {} ms", timeout.as_millis()),
        };
        self.log_down(&failure);
        false
    }

    fn log_down(&self, why: &str) {
        let mut link = self.link();
        if link.logged != Some(false) {
            link.logged = Some(false);
            eprintln!(
                "chart-raster: cache: Redis at {} is unavailable ({why}); serving from the \
                 local cache and reconnecting in the background",
                self.config.redacted_url()
            );
        }
    }

    /// Runs one Redis call on the live connection, bounded by the timeout. `None` when there
    /// is no connection, or the call failed for connection reasons (the connection is then
    /// dropped, and the background task reconnects). Other errors (a reply of an unexpected
    /// shape) come back as `Some(Err)` and leave the connection up.
    async fn call<T, F, Fut>(self: &Arc<Self>, f: F) -> Option<redis::RedisResult<T>>
    where
        F: FnOnce(MultiplexedConnection) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        self.start_keeper();
        let Some(conn) = self.link().conn.clone() else {
            bump(&self.counters.unavailable);
            return None;
        };
        let why = match tokio::time::timeout(self.config.timeout, f(conn)).await {
            Ok(Ok(v)) => return Some(Ok(v)),
            Ok(Err(e)) if !connection_failure(&e) => return Some(Err(e)),
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!(
                "no answer within {} ms (CACHE_REDIS_TIMEOUT_MS)",
                self.config.timeout.as_millis()
            ),
        };
        bump(&self.counters.errors);
        // A stalled connection may still have calls queued: drop it, later calls fail fast
        // and the background task makes a fresh one.
        self.link().conn = None;
        self.log_down(&why);
        None
    }

    /// The entry of `hash` and the time it has left, when it is there and within the cap.
    pub async fn get(self: &Arc<Self>, hash: &str) -> Option<(SharedEntry, Duration)> {
        let key = self.key("img", hash);
        let cap = self.config.max_entry_bytes;
        let script = self.read.clone();
        let reply = self
            .call(
                |mut c| async move { script.key(key).arg(cap).invoke_async::<Value>(&mut c).await },
            )
            .await?;
        match reply.ok().and_then(decode_entry) {
            Some(found) => {
                bump(&self.counters.hits);
                Some(found)
            }
            None => {
                bump(&self.counters.misses);
                None
            }
        }
    }

    /// Stores `entry` under `hash` for `ttl` (at least a millisecond), replacing any old one,
    /// unless it is over the size cap.
    pub async fn put(self: &Arc<Self>, hash: &str, entry: &SharedEntry, ttl: Duration) -> Stored {
        if entry.size() > self.config.max_entry_bytes {
            bump(&self.counters.too_large);
            return Stored::TooLarge;
        }
        let key = self.key("img", hash);
        let ttl_ms = millis(ttl);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .del(&key)
            .ignore()
            .hset_multiple(
                &key,
                &[
                    ("image", entry.image.as_ref()),
                    ("type", entry.content_type.as_bytes()),
                    ("messages", entry.messages.as_bytes()),
                ],
            )
            .ignore()
            .pexpire(&key, ttl_ms as i64)
            .ignore();
        let reply = self
            .call(|mut c| async move { pipe.query_async::<()>(&mut c).await })
            .await;
        match reply {
            Some(Ok(())) => {
                bump(&self.counters.stores);
                Stored::Yes
            }
            _ => Stored::Unavailable,
        }
    }

    /// Takes the render lock of `hash` for `hold` (`SET NX PX`).
    pub async fn try_lock(self: &Arc<Self>, hash: &str, hold: Duration) -> LockAttempt {
        let key = self.key("lock", hash);
        let token = new_token();
        let value = token.clone();
        let reply = self
            .call(|mut c| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg(value)
                    .arg("NX")
                    .arg("PX")
                    .arg(millis(hold))
                    .query_async::<Option<String>>(&mut c)
                    .await
            })
            .await;
        match reply {
            Some(Ok(Some(_))) => LockAttempt::Acquired(token),
            Some(Ok(None)) => LockAttempt::Held,
            // An unexpected reply: behave as without Redis (render here).
            Some(Err(_)) | None => LockAttempt::Unavailable,
        }
    }

    /// Releases the render lock of `hash` if it still holds `token`.
    pub async fn unlock(self: &Arc<Self>, hash: &str, token: &str) {
        let key = self.key("lock", hash);
        let script = self.unlock.clone();
        let token = token.to_string();
        let _ = self
            .call(
                |mut c| async move { script.key(key).arg(token).invoke_async::<i64>(&mut c).await },
            )
            .await;
    }

    async fn ping(self: &Arc<Self>) {
        let _ = self
            .call(|mut c| async move { redis::cmd("PING").query_async::<String>(&mut c).await })
            .await;
    }
}

/// The background task: reconnects while disconnected, pings while connected.
async fn keep(weak: Weak<SharedLevel>) {
    loop {
        let Some(level) = weak.upgrade() else { return };
        if level.connected() {
            level.ping().await;
        } else {
            level.connect().await;
        }
        drop(level);
        tokio::time::sleep(RECONNECT_INTERVAL).await;
    }
}

/// Errors that say the connection is unusable (as opposed to an odd reply).
fn connection_failure(e: &redis::RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || e.is_unrecoverable_error()
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// A token no other lock holder has: process, time and a counter.
fn new_token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}-{nanos:x}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// `{type, messages, image, pttl}` from [`READ_SCRIPT`]; anything else is a miss.
fn decode_entry(v: Value) -> Option<(SharedEntry, Duration)> {
    let Value::Array(items) = v else { return None };
    let mut it = items.into_iter();
    let (Some(t), Some(m), Some(i), Some(ttl), None) =
        (it.next(), it.next(), it.next(), it.next(), it.next())
    else {
        return None;
    };
    let text = |v: Value| match v {
        Value::BulkString(b) => String::from_utf8(b).ok(),
        _ => None,
    };
    let image = match i {
        Value::BulkString(b) if !b.is_empty() => Bytes::from(b),
        _ => return None,
    };
    // PTTL: -1 no expiry (not written by us: treat as expiring now), -2 gone.
    let ttl = match ttl {
        Value::Int(ms) if ms > 0 => Duration::from_millis(ms as u64),
        _ => return None,
    };
    Some((
        SharedEntry {
            image,
            content_type: text(t)?,
            messages: text(m)?,
        },
        ttl,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_redacted() {
        assert_eq!(redact("redis://:secret@h:1/0"), "redis://***@h:1/0");
        assert_eq!(redact("rediss://u:p@h"), "rediss://***@h");
        assert_eq!(redact("redis://h:1/0"), "redis://h:1/0");
        // An @ after the authority is not a password.
        assert_eq!(redact("redis://h/0?x=a@b"), "redis://h/0?x=a@b");
        let c = SharedConfig::new("redis://:hunter2@127.0.0.1:6379/0").unwrap();
        assert!(!format!("{c:?}").contains("hunter2"));
    }

    #[test]
    fn only_redis_urls_are_accepted() {
        for bad in ["http://h", "h:6379", "", "redis://"] {
            let e = SharedConfig::new(bad).unwrap_err();
            assert!(e.to_string().contains("CACHE_URL"), "{bad}: {e}");
        }
        assert!(SharedConfig::new("redis://127.0.0.1:1/3").is_ok());
    }

    #[test]
    fn replies_of_another_shape_are_misses() {
        let ok = |ttl| {
            Value::Array(vec![
                Value::BulkString(b"image/png".to_vec()),
                Value::BulkString(b"[]".to_vec()),
                Value::BulkString(vec![1, 2]),
                Value::Int(ttl),
            ])
        };
        let (e, ttl) = decode_entry(ok(1500)).unwrap();
        assert_eq!(
            (e.content_type.as_str(), &e.image[..], ttl),
            ("image/png", &[1u8, 2][..], Duration::from_millis(1500))
        );
        assert!(decode_entry(ok(-1)).is_none());
        assert!(decode_entry(Value::Nil).is_none());
        assert!(decode_entry(Value::Array(vec![Value::Nil; 4])).is_none());
    }

    #[test]
    fn tokens_differ() {
        assert_ne!(new_token(), new_token());
    }
}
