//! Identical requests in flight at the same time share one render: a [`Flight`], which lives
//! only while a [`Waiter`] waits for it.

use super::{lock, CachedImage, Inner, ServiceError};
use chart_spec::Cancel;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio::task::AbortHandle;

pub(super) type Outcome = Result<CachedImage, ServiceError>;

/// One render shared by the identical requests waiting for it. It runs in its own task and
/// lives only while someone waits: the last [`Waiter`] to leave before the result aborts the
/// task (so a queued render leaves the queue) and fires the render's [`Cancel`] (so a running
/// one stops and frees its slot).
pub(super) struct Flight {
    /// Requests waiting; changed only under [`Inner::flights`]' lock, so a newcomer never
    /// joins a flight that is being abandoned.
    pub(super) waiters: AtomicUsize,
    pub(super) result: watch::Receiver<Option<Outcome>>,
    pub(super) control: Mutex<FlightControl>,
}

#[derive(Default)]
pub(super) struct FlightControl {
    pub(super) task: Option<AbortHandle>,
    cancel: Option<Cancel>,
    abandoned: bool,
}

impl Flight {
    /// Hands the render's Cancel to the flight, unless nobody waits any more.
    pub(super) fn arm(&self, cancel: &Cancel) -> bool {
        let mut c = lock(&self.control);
        if c.abandoned {
            return false;
        }
        c.cancel = Some(cancel.clone());
        true
    }

    fn abandon(&self) {
        let mut c = lock(&self.control);
        c.abandoned = true;
        if let Some(t) = &c.task {
            t.abort();
        }
        if let Some(cancel) = &c.cancel {
            cancel.cancel();
        }
    }
}

/// One request's membership in a flight.
pub(super) struct Waiter {
    pub(super) inner: Arc<Inner>,
    pub(super) hash: String,
    pub(super) flight: Arc<Flight>,
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut map = lock(&self.inner.flights);
        if self.flight.waiters.fetch_sub(1, Ordering::SeqCst) != 1
            || self.flight.result.borrow().is_some()
        {
            return;
        }
        // The last requester left before the result: nobody will read it.
        if map
            .get(&self.hash)
            .is_some_and(|f| Arc::ptr_eq(f, &self.flight))
        {
            map.remove(&self.hash);
        }
        drop(map);
        self.flight.abandon();
    }
}
