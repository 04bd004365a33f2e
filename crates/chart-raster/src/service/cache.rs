//! The service's side of the cache: the image as both levels keep it, and the settings of the
//! shared level (`CACHE_URL`).

use super::ServiceError;
use bytes::Bytes;
use chart_cache::{Shareable, SharedConfig, SharedEntry};
use chart_spec::{ImageFormat, Message};
use std::sync::Arc;
use std::time::Duration;

/// `CACHE_URL` (and the settings of the shared level that only matter with it).
pub(super) fn shared_cache(
    url: Option<String>,
    max_entry: Option<u64>,
    timeout_ms: Option<u64>,
    ca_file: Option<String>,
) -> Result<Option<SharedConfig>, ServiceError> {
    let Some(url) = url.filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    // Redacted: the password stays out of error messages and logs.
    let bad_url = |e: chart_cache::CacheError| {
        let chart_cache::CacheError::Url { url, .. } = e;
        ServiceError::Config {
            name: "CACHE_URL",
            value: url,
            reason: "expected redis://[:password@]host[:port][/db] or rediss://...",
        }
    };
    let mut shared = SharedConfig::new(&url).map_err(bad_url)?;
    if let Some(path) = ca_file {
        let bad_file = |reason| ServiceError::Config {
            name: "CACHE_REDIS_CA_FILE",
            value: path.clone(),
            reason,
        };
        if !url.trim().starts_with("rediss://") {
            return Err(bad_file("needs a rediss:// CACHE_URL"));
        }
        let pem = read_bounded(&path, MAX_CA_FILE_BYTES)
            .ok_or_else(|| bad_file("cannot be read, or is over 1 MiB"))?;
        shared = shared
            .with_root_cert(pem)
            .map_err(|_| bad_file("is not a PEM certificate"))?;
    }
    if let Some(n) = max_entry {
        if n > chart_cache::shared::MAX_ENTRY_BYTES_LIMIT {
            return Err(ServiceError::Config {
                name: "CACHE_MAX_ENTRY_BYTES",
                value: n.to_string(),
                reason: "must be at most 536870912 (Redis' limit on one value)",
            });
        }
        shared.max_entry_bytes = n;
    }
    if let Some(ms) = timeout_ms {
        shared.timeout = Duration::from_millis(ms);
    }
    Ok(Some(shared))
}

/// A CA bundle is a few kB; anything near this is not one.
const MAX_CA_FILE_BYTES: u64 = 1024 * 1024;

/// The file's bytes, if it can be read and holds at most `max` of them.
fn read_bounded(path: &str, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(max + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() as u64 <= max).then_some(bytes)
}

/// An encoded image as the cache keeps it.
#[derive(Debug, Clone)]
pub struct CachedImage {
    /// The encoded bytes.
    pub bytes: Bytes,
    /// Their format.
    pub format: ImageFormat,
    /// The messages of the render that produced them.
    pub messages: Arc<[Message]>,
}

/// In Redis: the bytes, their content type and the messages as JSON.
impl Shareable for CachedImage {
    fn to_shared(&self) -> SharedEntry {
        SharedEntry {
            image: self.bytes.clone(),
            content_type: self.format.content_type().to_string(),
            messages: serde_json::to_string(&self.messages[..]).unwrap_or_else(|_| "[]".into()),
        }
    }

    fn from_shared(entry: SharedEntry) -> Option<Self> {
        let format = ImageFormat::ALL
            .iter()
            .copied()
            .find(|f| f.content_type() == entry.content_type)?;
        // Bounded: the shared level reads nothing over CACHE_MAX_ENTRY_BYTES.
        let messages: Vec<Message> = serde_json::from_str(&entry.messages).ok()?;
        Some(CachedImage {
            bytes: entry.image,
            format,
            messages: messages.into(),
        })
    }

    fn weight(&self) -> u64 {
        self.bytes.len() as u64
    }
}
