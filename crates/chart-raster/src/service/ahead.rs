//! A large request's first render stage (the skia engine's scene) started on an idle core
//! while the request's own thread writes its cache key and looks it up: on a miss, the
//! render finds it built, or nearly.
//!
//! Why: a 10,000-point time series spent some 2 ms building its scene after 0.7–0.9 ms of
//! key and 0.3–0.6 ms of hand-overs (the flight's task, the blocking pool) in which the
//! second core idled; the scene does not depend on the key.
//!
//! What it must not change:
//! - the render slots: the core is only one the idle-core rule lends (`cores::ahead_core`,
//!   the prefix's rule), and a request that has to queue for a slot drops what was built
//!   (a queued request holds its parsed body only, as `MAX_PENDING_BYTES` counts it);
//! - cancellation: dropped unused (a cache hit, a joined flight, a request withdrawn or
//!   queued) its [`Cancel`] fires, and the build stops at its next poll; the render waiting
//!   for it stops waiting when the render's own Cancel fires;
//! - the result: the render draws the scene the renderer's own first stage builds, with the
//!   same refusals; if the lent core has not started it by the time the render wants it,
//!   the render builds it itself, and a panic there is answered by building it again;
//! - the browser engine and the other formats, which are drawn as before.

use super::freeing::data_points;
use super::{lock, BlockingRenderer, RenderFailure};
use crate::cores::AheadCore;
use crate::encode::PngCompression;
use chart_spec::{Cancel, EngineKind, ImageFormat, RenderOptions};
use std::any::Any;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What a renderer's first stage made ahead of its render ([`BlockingRenderer::prepare`]),
/// for [`BlockingRenderer::render_png_prepared`] to go on with: a value of the renderer's
/// own type.
pub struct Prepared(Box<dyn Any + Send>);

impl Prepared {
    /// Wraps a renderer's first stage.
    pub fn new<T: Any + Send>(stage: T) -> Self {
        Self(Box::new(stage))
    }

    /// The stage, if it is a `T`; itself again otherwise.
    pub fn downcast<T: Any>(self) -> Result<T, Prepared> {
        self.0.downcast::<T>().map(|b| *b).map_err(Prepared)
    }
}

/// Data points (labels and datasets' data) from which a request's scene is built ahead:
/// the size from which its key is written on two cores too (an array of 4,096 elements,
/// `chart_spec::split`), which the build ahead replaces. Smaller requests' keys take well
/// under 0.3 ms, about what the hand-over to the lent core costs.
const AHEAD_POINTS: usize = 4096;

/// How often a render waiting for the build looks at its own Cancel.
const WAIT_POLL: Duration = Duration::from_millis(2);

/// A request's first stage, started on a lent core; dropped, it is cancelled.
pub(crate) struct Ahead {
    shared: Arc<Shared>,
    cancel: Cancel,
}

struct Shared {
    state: Mutex<State>,
    done: Condvar,
}

enum State {
    /// The lent core has not begun: whichever thread comes first takes the build.
    Waiting,
    /// Building on the lent core.
    Building,
    /// Built, or refused as the render would refuse it.
    Built(Result<Prepared, RenderFailure>),
    /// Nothing to take: the render took the build itself, or the lent core panicked or
    /// found it cancelled.
    Gone,
}

/// Starts the first stage of `opts`' render on a lent core when the request is large, the
/// renderer has such a stage for it and the idle-core rule lends a core; `None` otherwise.
/// Its Cancel fires at `deadline` too, when given (the request's, as its render's).
pub(super) fn start(
    renderer: &Arc<dyn BlockingRenderer>,
    opts: &Arc<RenderOptions>,
    png: PngCompression,
    deadline: Option<Instant>,
) -> Option<Ahead> {
    let fits = opts.engine == EngineKind::Skia
        && opts.format == ImageFormat::Png
        && renderer.prepares(png)
        && data_points(opts) >= AHEAD_POINTS;
    if !fits {
        return None;
    }
    start_on(crate::cores::ahead_core()?, renderer, opts, deadline)
}

/// [`start`] on a core already lent.
fn start_on(
    core: AheadCore,
    renderer: &Arc<dyn BlockingRenderer>,
    opts: &Arc<RenderOptions>,
    deadline: Option<Instant>,
) -> Option<Ahead> {
    let cancel = deadline.map_or_else(Cancel::new, Cancel::with_deadline);
    let shared = Arc::new(Shared {
        state: Mutex::new(State::Waiting),
        done: Condvar::new(),
    });
    let (renderer, opts) = (Arc::clone(renderer), Arc::clone(opts));
    let (job_shared, job_cancel) = (Arc::clone(&shared), cancel.clone());
    core.spawn(move |core| {
        {
            let mut state = lock(&job_shared.state);
            if !matches!(*state, State::Waiting) || job_cancel.is_cancelled() {
                *state = State::Gone;
                return;
            }
            *state = State::Building;
        }
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            renderer.prepare(&opts, &job_cancel)
        }));
        // The core's counts go before the render can see the scene: its drawing asks for
        // this core next.
        drop(core);
        *lock(&job_shared.state) = match built {
            Ok(built) => State::Built(built),
            Err(_) => State::Gone,
        };
        job_shared.done.notify_all();
    });
    Some(Ahead { shared, cancel })
}

impl Ahead {
    /// The stage built ahead, waiting for it while it is being built (until `cancel`, the
    /// render's, fires: then [`RenderFailure::Cancelled`]); `None` when the render is to
    /// build it itself (not begun yet, or lost to a panic).
    pub(super) fn take(self, cancel: &Cancel) -> Option<Result<Prepared, RenderFailure>> {
        let mut state = lock(&self.shared.state);
        loop {
            match std::mem::replace(&mut *state, State::Gone) {
                State::Waiting | State::Gone => return None,
                State::Built(built) => return Some(built),
                State::Building => {
                    *state = State::Building;
                    if cancel.is_cancelled() {
                        return Some(Err(RenderFailure::Cancelled));
                    }
                    state = (self.shared.done)
                        .wait_timeout(state, WAIT_POLL)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            }
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{draw_encoded, ServiceError};
    use std::sync::atomic::{AtomicBool, Ordering};

    fn request(name: &str) -> Arc<RenderOptions> {
        let charts = crate::benchmark::charts();
        let chart = charts.iter().find(|c| c.name == name).unwrap();
        Arc::new(RenderOptions::from_json(&chart.request()).unwrap())
    }

    fn png(
        engine: &Arc<dyn BlockingRenderer>,
        opts: &RenderOptions,
        ahead: Option<Ahead>,
    ) -> bytes::Bytes {
        let failed = ServiceError::Internal("cancelled".into());
        let png = PngCompression::Default;
        let cancel = Cancel::new();
        draw_encoded(engine.as_ref(), opts, &cancel, failed, png, ahead)
            .unwrap()
            .bytes
    }

    /// The time series drawn from its scene built ahead on the lent core, or taken back
    /// by the render before the core began, is the file drawn without either.
    #[test]
    fn a_scene_built_ahead_draws_the_same_file() {
        let _alone = crate::cores::LENT_IN_TESTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let engine: Arc<dyn BlockingRenderer> = Arc::new(chart_raster_skia::Engine::new());
        let opts = request("time series 10,000");
        assert!(engine.prepares(PngCompression::Default));
        assert!(data_points(&opts) >= AHEAD_POINTS);
        let alone = png(&engine, &opts, None);
        let core = AheadCore::forced().unwrap();
        let ahead = start_on(core, &engine, &opts, None).unwrap();
        // Built by now, or being built: the render waits for it.
        let deadline = Instant::now() + Duration::from_secs(10);
        while matches!(*lock(&ahead.shared.state), State::Waiting) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        assert!(!matches!(*lock(&ahead.shared.state), State::Waiting));
        assert!(png(&engine, &opts, Some(ahead)) == alone, "built ahead");
        // Taken back before the core begins (the core is held by the render's caller).
        let held = AheadCore::forced().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        held.spawn(move |_| {
            let _ = rx.recv_timeout(Duration::from_secs(10));
        });
        let ahead = start_on(AheadCore::forced().unwrap(), &engine, &opts, None).unwrap();
        assert!(png(&engine, &opts, Some(ahead)) == alone, "taken back");
        drop(tx);
    }

    /// A renderer whose first stage runs until it is cancelled.
    struct Stalls(Arc<AtomicBool>);

    impl BlockingRenderer for Stalls {
        fn render(
            &self,
            _: &RenderOptions,
            _: &Cancel,
        ) -> Result<chart_spec::Rendered, RenderFailure> {
            Err(RenderFailure::Failed("not drawn".into()))
        }

        fn prepare(&self, _: &RenderOptions, cancel: &Cancel) -> Result<Prepared, RenderFailure> {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !cancel.is_cancelled() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.0.store(cancel.is_cancelled(), Ordering::SeqCst);
            Err(RenderFailure::Cancelled)
        }
    }

    /// Dropped unused (a cache hit, a joined flight, a queued request), the build ahead is
    /// cancelled; a render waiting for it stops waiting once its own Cancel fires.
    #[test]
    fn a_build_ahead_stops_when_dropped_or_when_its_render_is_cancelled() {
        let _alone = crate::cores::LENT_IN_TESTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let opts = request("time series 10,000");
        let seen = Arc::new(AtomicBool::new(false));
        let stalls: Arc<dyn BlockingRenderer> = Arc::new(Stalls(seen.clone()));
        let ahead = start_on(AheadCore::forced().unwrap(), &stalls, &opts, None).unwrap();
        let shared = Arc::clone(&ahead.shared);
        let deadline = Instant::now() + Duration::from_secs(10);
        while matches!(*lock(&shared.state), State::Waiting) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        drop(ahead);
        while !matches!(*lock(&shared.state), State::Built(_)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(
            seen.swap(false, Ordering::SeqCst),
            "the build saw its cancel"
        );
        // A render whose Cancel fires while it waits.
        let ahead = start_on(AheadCore::forced().unwrap(), &stalls, &opts, None).unwrap();
        while matches!(*lock(&ahead.shared.state), State::Waiting) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        let cancel = Cancel::with_deadline(Instant::now() + Duration::from_millis(20));
        let taken = ahead.take(&cancel);
        assert!(matches!(taken, Some(Err(RenderFailure::Cancelled))));
        // The lent core is free again for the next test.
        let (tx, rx) = std::sync::mpsc::channel();
        AheadCore::forced().unwrap().spawn(move |_| {
            let _ = tx.send(());
        });
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(seen.load(Ordering::SeqCst));
    }
}
