//! Whether a render may take a second core: the one rule for the two stages that can split
//! their work in two with the same result either way, the skia engine's drawing (two bands
//! of rows, see `Engine::with_second_core`) and the PNG encoder's deflate (two halves of one
//! stream, `encode/png.rs`).
//!
//! A second thread only pays on an idle core: on a busy machine the halves take turns and
//! the thread costs CPU (starting it, data read from another core's cache: 5–24% more CPU
//! time for the encode, measured with `perf stat` at a load average of 8 on 2 cores, and
//! no shorter wall time), which a service under load pays out of its throughput. So a
//! second thread is lent only on a machine with two cores or more, one of them idle by the
//! kernel's count of runnable threads ([`runnable_threads`]), and with no other stage of
//! this process working on split work meanwhile (between two renders that start together
//! the kernel's count cannot tell).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Threads of the process in a stage that may split (drawing or deflating), each counted
/// by a [`Busy`] while it lives.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// One thread counted in [`BUSY`] while it lives.
pub(crate) struct Busy;

impl Busy {
    /// Counts one more busy thread until dropped; the count before.
    pub(crate) fn enter() -> (Busy, usize) {
        (Busy, BUSY.fetch_add(1, Ordering::Relaxed))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A second thread for a stage whose own thread is already counted ([`Busy::enter`]),
/// counted while it lives, when one pays (see the module docs).
pub(crate) fn second_core() -> Option<Busy> {
    static CORES: OnceLock<usize> = OnceLock::new();
    let (busy, before) = Busy::enter();
    // The stage's own thread is counted in `before`.
    if before > 1 {
        return None;
    }
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // This thread is one of the runnable ones.
    if cores < 2 || runnable_threads().is_none_or(|n| n >= cores) {
        return None;
    }
    Some(busy)
}

/// The skia engine's [`chart_raster_skia::SecondCore`]: this render's drawing thread
/// counted, and a second one when [`second_core`] lends it.
pub(crate) fn drawing_core() -> Option<Box<dyn std::any::Any>> {
    let own = Busy::enter().0;
    second_core().map(|second| Box::new((own, second)) as Box<dyn std::any::Any>)
}

/// The skia engine as this crate runs it: drawing on a second core when [`drawing_core`]
/// lends one and the scene is one where that pays, or as `RASTER_THREADS` fixes it: `1`
/// one thread, `2` two whenever the bitmap is large enough, even where that costs time
/// (for measuring one against the other; the pixels are the same).
pub(crate) fn skia_engine() -> chart_raster_skia::Engine {
    let engine = chart_raster_skia::Engine::new();
    match std::env::var("RASTER_THREADS").as_deref() {
        Ok("1") => engine,
        Ok("2") => engine.with_split_always(),
        _ => engine.with_second_core(drawing_core),
    }
}

/// Threads runnable on the machine right now, this one included: the fourth field of
/// Linux's `/proc/loadavg` ("runnable/total"), the kernel's instant count rather than an
/// average. `None` elsewhere or when unreadable (then no second thread). In a container it
/// counts the host's threads, so it errs towards one thread.
fn runnable_threads() -> Option<usize> {
    let loadavg = std::fs::read_to_string("/proc/loadavg").ok()?;
    let field = loadavg.split_whitespace().nth(3)?;
    field.split('/').next()?.parse().ok()
}
