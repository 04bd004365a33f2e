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
) -> Result<Option<SharedConfig>, ServiceError> {
    let Some(url) = url.filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    let mut shared = SharedConfig::new(&url).map_err(|e| {
        let chart_cache::CacheError::Url { url, reason } = e;
        ServiceError::Config {
            name: "CACHE_URL",
            // Redacted: the password stays out of error messages and logs.
            value: url,
            reason: if reason.contains("TLS") {
                "rediss:// (TLS) is not supported by this build"
            } else {
                "expected redis://[:password@]host[:port][/db] or rediss://..."
            },
        }
    })?;
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
        let format = [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Webp]
            .into_iter()
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
