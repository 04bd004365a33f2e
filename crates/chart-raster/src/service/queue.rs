//! The bounds of the queue of requests waiting for a render slot: their count
//! (`MAX_PENDING`) and the parsed input they hold (`MAX_PENDING_BYTES`).

use super::{ServiceError, PARSED_BYTES_PER_VALUE};
use chart_spec::RenderOptions;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Counts a number up for as long as the guard lives.
pub(super) struct Gauge(Arc<AtomicUsize>);

impl Gauge {
    pub(super) fn new(counter: &Arc<AtomicUsize>) -> Self {
        counter.fetch_add(1, Ordering::SeqCst);
        Self(counter.clone())
    }

    /// Counts up only while the count is below `max`: the check and the increment are one
    /// step, so concurrent requests cannot overshoot the bound.
    pub(super) fn below(counter: &Arc<AtomicUsize>, max: usize) -> Option<Self> {
        counter
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Self(counter.clone()))
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A queued request's share of `MAX_PENDING_BYTES`, given back when it leaves the queue.
pub(super) struct QueuedBytes {
    total: Arc<AtomicU64>,
    bytes: u64,
}

impl QueuedBytes {
    /// Takes `bytes` of the budget when they fit, or when nothing else is queued (a request
    /// over the whole budget renders alone rather than never); the check and the addition are
    /// one step, so concurrent requests cannot overshoot.
    pub(super) fn admit(
        total: &Arc<AtomicU64>,
        bytes: u64,
        max: u64,
    ) -> Result<Self, ServiceError> {
        total
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                (held == 0 || held.saturating_add(bytes) <= max).then(|| held.saturating_add(bytes))
            })
            .map_err(|held| ServiceError::QueueMemory {
                queued_bytes: held.saturating_add(bytes),
                max_pending_bytes: max,
            })?;
        Ok(Self {
            total: total.clone(),
            bytes,
        })
    }
}

impl Drop for QueuedBytes {
    fn drop(&mut self) {
        self.total.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

/// The memory a request's parsed config holds, estimated: [`PARSED_BYTES_PER_VALUE`] per JSON
/// value and the bytes of every string and key. One iterative walk (no recursion on depth).
pub fn parsed_size(opts: &RenderOptions) -> u64 {
    use serde_json::Value;
    let mut values: u64 = 1;
    let mut text: u64 = opts.background_color.len() as u64;
    let mut stack: Vec<&Value> = Vec::new();
    for (k, v) in &opts.chart {
        text += k.len() as u64;
        stack.push(v);
    }
    while let Some(v) = stack.pop() {
        values += 1;
        match v {
            Value::String(s) => text += s.len() as u64,
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => {
                for (k, v) in m {
                    text += k.len() as u64;
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
    values
        .saturating_mul(PARSED_BYTES_PER_VALUE)
        .saturating_add(text)
}
