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
//! kernel's count of runnable threads, this process's own left out but for this thread
//! ([`runnable_elsewhere`]), and with no other stage of this process working on split work
//! meanwhile (between two renders that start together the kernel's count cannot tell).
//!
//! The second thread is one long-lived worker ([`Lent`]), the same for both stages: a
//! thread started per render cost about 30 µs to start and join, and its fresh stack pages
//! faults and, when unmapped at its end, a TLB flush of every core (the IPIs that took 10%
//! of a line chart's CPU time when fresh buffers did the same, see `encode/deflate.rs`).

use crate::metrics::SecondCoreCounts;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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

/// Requests of the service between starting their render (queued for a slot included) and
/// its end: what tells [`runnable_elsewhere`] whether this process's threads have other work.
static REQUESTS: AtomicUsize = AtomicUsize::new(0);

/// One request counted in [`REQUESTS`] while it lives.
pub(crate) struct Request;

impl Request {
    pub(crate) fn enter() -> Request {
        REQUESTS.fetch_add(1, Ordering::Relaxed);
        Request
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        REQUESTS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A second thread for a stage whose own thread is already counted ([`Busy::enter`]),
/// counted while it is lent, when one pays (see the module docs).
pub(crate) fn second_core() -> Option<Lent> {
    static CORES: OnceLock<usize> = OnceLock::new();
    let (busy, before) = Busy::enter();
    // The stage's own thread is counted in `before`.
    if before > 1 {
        DECISIONS.other_render.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // This thread is one of the runnable ones.
    if cores < 2 || runnable_elsewhere(cores).is_none_or(|n| n >= cores) {
        DECISIONS.no_idle_core.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let lent = Lent::new(busy);
    if lent.is_some() {
        DECISIONS.lent.fetch_add(1, Ordering::Relaxed);
    }
    lent
}

/// [`second_core`]'s answers since the process started, for `GET /metrics`: how often the
/// splitting stages got the second core, and why not when they did not.
static DECISIONS: Decisions = Decisions {
    lent: AtomicU64::new(0),
    other_render: AtomicU64::new(0),
    no_idle_core: AtomicU64::new(0),
};

struct Decisions {
    lent: AtomicU64,
    other_render: AtomicU64,
    no_idle_core: AtomicU64,
}

/// A copy of [`second_core`]'s counts.
pub(crate) fn second_core_counts() -> SecondCoreCounts {
    SecondCoreCounts {
        lent: DECISIONS.lent.load(Ordering::Relaxed),
        other_render: DECISIONS.other_render.load(Ordering::Relaxed),
        no_idle_core: DECISIONS.no_idle_core.load(Ordering::Relaxed),
    }
}

/// The long-lived second thread, lent to one stage at a time (counted in [`BUSY`] while
/// lent).
pub(crate) struct Lent {
    worker: &'static rayon_core::ThreadPool,
    _busy: Busy,
}

impl Lent {
    /// The worker counted by `busy`; `None` when it cannot be started (a process limit),
    /// then no stage ever gets one.
    fn new(busy: Busy) -> Option<Lent> {
        static WORKER: OnceLock<Option<rayon_core::ThreadPool>> = OnceLock::new();
        let worker = WORKER.get_or_init(|| {
            rayon_core::ThreadPoolBuilder::new()
                .num_threads(1)
                .thread_name(|_| "second-core".into())
                .start_handler(|_| placement::on_worker_start())
                .build()
                .ok()
                // Once it has run a job, it has started: its id is known to `placement`.
                .inspect(|worker| worker.install(|| ()))
        });
        Some(Lent {
            worker: worker.as_ref()?,
            _busy: busy,
        })
    }

    /// The worker whatever the machine is doing (counted all the same): for measuring, and
    /// for tests.
    pub(crate) fn forced() -> Option<Lent> {
        Lent::new(Busy::enter().0)
    }

    /// Runs `there` on the worker while `here` runs on this thread, and returns both
    /// results once both are done (`there`'s a panic's payload if it panicked).
    pub(crate) fn join<A: Send, B>(
        &self,
        there: impl FnOnce() -> A + Send,
        here: impl FnOnce() -> B,
    ) -> (std::thread::Result<A>, B) {
        placement::keep_off_this_cpu();
        let mut far = None;
        let near = self.worker.in_place_scope(|scope| {
            scope.spawn(|_| {
                far = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                    there,
                )));
            });
            let near = here();
            // This half is done and this thread is about to wait: the lent thread may now
            // run here too, should it still be queued on a CPU taken meanwhile.
            placement::let_run_anywhere();
            near
        });
        // The scope returns once its spawned job has run.
        let far = far.unwrap_or_else(|| Err(Box::new("the second thread did not run")));
        (far, near)
    }
}

/// Where the lent thread may run: never on the CPU of the thread that borrows it.
///
/// Why: on a VM, a vCPU that has idled is handed back to the host, and the guest kernel
/// then takes it for preempted (`vcpu_is_preempted`) and wakes a thread on the waker's own
/// CPU instead, where it waits until the waker blocks. Every render that starts after an
/// idle spell (a service between requests, as in `cargo xtask bench-peers`) had its two
/// halves run one after the other: `perf sched` showed the lent thread queued 2.1–2.4 ms
/// behind the render on the same vCPU while the other idled, and a join of two 3 ms halves
/// took 5.5 ms after 20 ms of idling (3.1 ms back to back). Kept off the borrower's CPU,
/// it is woken on the other one: 3.1 ms either way.
#[cfg(target_os = "linux")]
mod placement {
    use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
    use nix::unistd::{gettid, Pid};
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// The lent thread's id (0 until it has started).
    static WORKER: AtomicI32 = AtomicI32::new(0);
    /// The CPU the lent thread is kept off, plus one (0: none yet).
    static KEPT_OFF: AtomicUsize = AtomicUsize::new(0);

    /// Run by the lent thread as it starts.
    pub(super) fn on_worker_start() {
        WORKER.store(gettid().as_raw(), Ordering::Relaxed);
    }

    /// The CPUs the process may use (its first thread's: a borrower may be pinned).
    fn allowed() -> Option<&'static CpuSet> {
        static ALLOWED: OnceLock<Option<CpuSet>> = OnceLock::new();
        ALLOWED
            .get_or_init(|| sched_getaffinity(Pid::this()).ok())
            .as_ref()
    }

    /// Lets the lent thread run on every CPU the process may use but this thread's current
    /// one (a system call); nothing when it cannot be done (no other CPU allowed, or the
    /// calls fail): the thread then runs where the kernel puts it, as before.
    pub(super) fn keep_off_this_cpu() {
        let worker = WORKER.load(Ordering::Relaxed);
        let Ok(here) = sched_getcpu() else {
            return;
        };
        if worker == 0 || KEPT_OFF.load(Ordering::Relaxed) == here + 1 {
            return;
        }
        let Some(allowed) = allowed() else {
            return;
        };
        let mut others = CpuSet::new();
        let mut any = false;
        for cpu in 0..CpuSet::count() {
            if cpu != here && allowed.is_set(cpu).unwrap_or(false) {
                any |= others.set(cpu).is_ok();
            }
        }
        if any && sched_setaffinity(Pid::from_raw(worker), &others).is_ok() {
            KEPT_OFF.store(here + 1, Ordering::Relaxed);
        }
    }

    /// Lets the lent thread run on every CPU the process may use again. Kept off the
    /// borrower's CPU, it could wait queued on the other while that one is taken (another
    /// process woke since the idle-core rule looked) and the borrower's CPU idles: the
    /// kernel moves a queued thread to an idle CPU only where it may run.
    pub(super) fn let_run_anywhere() {
        let worker = WORKER.load(Ordering::Relaxed);
        if worker == 0 || KEPT_OFF.load(Ordering::Relaxed) == 0 {
            return;
        }
        if let Some(allowed) = allowed() {
            if sched_setaffinity(Pid::from_raw(worker), allowed).is_ok() {
                KEPT_OFF.store(0, Ordering::Relaxed);
            }
        }
    }

    /// The CPUs the lent thread may run on now, for tests.
    #[cfg(test)]
    pub(super) fn worker_cpus() -> Option<CpuSet> {
        let worker = WORKER.load(Ordering::Relaxed);
        (worker != 0)
            .then(|| sched_getaffinity(Pid::from_raw(worker)).ok())
            .flatten()
    }
}

/// Elsewhere the kernel places the lent thread.
#[cfg(not(target_os = "linux"))]
mod placement {
    pub(super) fn on_worker_start() {}
    pub(super) fn keep_off_this_cpu() {}
    pub(super) fn let_run_anywhere() {}
}

/// The skia engine's lent thread: this render's drawing thread counted too.
struct Drawing {
    second: Lent,
    _own: Busy,
}

impl chart_raster_skia::SecondThread for Drawing {
    fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut()) {
        if let (Err(panic), ()) = self.second.join(there, here) {
            std::panic::resume_unwind(panic);
        }
    }
}

/// The skia engine's [`chart_raster_skia::SecondCore`]: the worker when [`second_core`]
/// lends it.
fn drawing_core() -> Option<Box<dyn chart_raster_skia::SecondThread>> {
    let own = Busy::enter().0;
    let second = second_core()?;
    Some(Box::new(Drawing { second, _own: own }))
}

/// The worker whatever the machine is doing (`RASTER_THREADS=2`): counted, not asked for.
fn forced_core() -> Option<Box<dyn chart_raster_skia::SecondThread>> {
    let own = Busy::enter().0;
    let second = Lent::forced()?;
    Some(Box::new(Drawing { second, _own: own }))
}

/// The skia engine as this crate runs it: drawing on a second core when [`drawing_core`]
/// lends one and the scene is one where that pays, or as `RASTER_THREADS` fixes it: `1`
/// one thread, `2` two whenever the bitmap is large enough, even where that costs time
/// (for measuring one against the other; the pixels are the same).
pub(crate) fn skia_engine() -> chart_raster_skia::Engine {
    let engine = chart_raster_skia::Engine::new();
    match fixed_threads() {
        Some("1") => engine,
        Some("2") => engine.with_split_always().with_second_core(forced_core),
        _ => engine.with_second_core(drawing_core),
    }
}

/// `RASTER_THREADS` as the process started with it (`1` or `2` fix the threads of every
/// stage that may split, for measuring; anything else leaves it to the idle-core rule).
fn fixed_threads() -> Option<&'static str> {
    static THREADS: OnceLock<Option<String>> = OnceLock::new();
    THREADS
        .get_or_init(|| std::env::var("RASTER_THREADS").ok())
        .as_deref()
}

/// Threads runnable right now that compete with this one for a core, this one included:
/// the machine's count ([`runnable_threads`]), less this process's other runnable threads
/// when that count says the cores are taken.
///
/// Why this process's own threads are left out: when a request arrives after the service
/// has idled (as it does between any two requests of a client that is not flooding it), the
/// network runtime's threads that it wakes stay counted as runnable until their idle vCPU
/// is back, which on this benchmark's VM is often the moment the render asks for a core.
/// With a client idling 20 ms before each request, 55% of the line chart's renders were
/// refused the second core on that count (10% back to back), and took 8.7–9.8 ms instead of
/// 4.7–5.3 ms. Those threads have nothing to do while the render runs; other renders are
/// counted apart ([`Busy`]); the lent worker, if runnable, is ours to use.
///
/// Only while the service has this one request: with others queued or in flight, its
/// threads are parsing and answering them, and take a core as any other process would
/// (lending then splits a render while the other core serves requests: the costs of the
/// module docs).
fn runnable_elsewhere(cores: usize) -> Option<usize> {
    let all = runnable_threads()?;
    if all < cores || REQUESTS.load(Ordering::Relaxed) > 1 {
        return Some(all);
    }
    // A few looks, [`LOOK_GAP`] apart, the fewest counted: the threads a request wakes
    // (ours, and the kernel's own after an idle spell: `rcu_preempt`, a `kworker`) stop
    // being runnable within microseconds, often between the machine's count and ours (a
    // thread counted in the first and gone from the second reads as another process's). A
    // process that computes is runnable in every look. With the line chart and a client
    // idling 20 ms before each request, one look refused 43% of the asks.
    let mut fewest = usize::MAX;
    for look in 0..LOOKS {
        let all = if look == 0 {
            all
        } else {
            std::thread::sleep(LOOK_GAP);
            runnable_threads()?
        };
        let elsewhere = match all < cores {
            true => all,
            false => all.saturating_sub(own_runnable_threads()?) + 1,
        };
        fewest = fewest.min(elsewhere);
        if fewest < cores {
            break;
        }
    }
    Some(fewest)
}

/// Looks of [`runnable_elsewhere`] at most, and the pause between two.
const LOOKS: usize = 3;
const LOOK_GAP: std::time::Duration = std::time::Duration::from_micros(20);

/// This process's threads in state `R` (running or waiting for a core), this one included:
/// the third field of each `/proc/self/task/*/stat`. `None` when unreadable. At most
/// [`MAX_TASKS`] threads are read (a service runs some 10).
fn own_runnable_threads() -> Option<usize> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    let mut runnable = 0;
    for task in tasks.take(MAX_TASKS).flatten() {
        // A thread that has ended since the listing has no stat: skipped.
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        runnable += usize::from(task_state(&stat) == Some('R'));
    }
    Some(runnable.max(1))
}

/// Bound of [`own_runnable_threads`]' walk.
const MAX_TASKS: usize = 256;

/// The state letter of a `/proc/<pid>/task/<tid>/stat` line: the first field after the
/// command name, which is in parentheses and may itself hold `)` and spaces, so the last
/// `)` ends it.
fn task_state(stat: &str) -> Option<char> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.trim_start().chars().next()
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

/// The request prefix's lent thread: the thread parsing a request's body or writing its
/// cache key counted too, and the request itself while it is asked for and used (the
/// service counts a request from its render on: before, at its parse and key, another
/// request in flight would otherwise be taken for idle threads by [`runnable_elsewhere`]).
struct Prefix {
    second: Lent,
    _own: Busy,
    _request: Request,
}

/// When [`prefix_core`] was last refused a thread.
///
/// Why: a request's prefix asks twice within a few milliseconds (its parse, then its key),
/// and a refusal on a busy machine costs 0.2–0.4 ms (three looks at `/proc`, 20 µs apart, of
/// which [`own_runnable_threads`] reads a file per thread of the service): the key of a
/// request whose parse was refused is refused without looking again, within
/// [`PREFIX_REFUSAL_HOLDS`]. A lent thread is not remembered: each ask looks.
static PREFIX_REFUSED: Refusal = Refusal(AtomicU64::new(0));

/// How long [`PREFIX_REFUSED`] answers for the machine: longer than a large request's
/// parse, shorter than a client's pause between two requests.
const PREFIX_REFUSAL_HOLDS: std::time::Duration = std::time::Duration::from_millis(10);

/// An instant, in µs since the first one asked for (0: never).
struct Refusal(AtomicU64);

impl Refusal {
    fn clock() -> u64 {
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        let start = START.get_or_init(std::time::Instant::now);
        // Never 0, which is "never".
        u64::try_from(start.elapsed().as_micros())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    fn now(&self) {
        self.0.store(Refusal::clock(), Ordering::Relaxed);
    }

    fn lately(&self) -> bool {
        let at = self.0.load(Ordering::Relaxed);
        let hold = PREFIX_REFUSAL_HOLDS.as_micros() as u64;
        at != 0 && Refusal::clock().saturating_sub(at) < hold
    }
}

impl chart_spec::split::SecondThread for Prefix {
    fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut()) {
        if let (Err(panic), ()) = self.second.join(there, here) {
            std::panic::resume_unwind(panic);
        }
    }
}

/// The [`chart_spec::split::SecondCore`] of a request's prefix, its JSON parse
/// ([`RenderOptions::from_json_bytes_with_core`](chart_spec::RenderOptions::from_json_bytes_with_core))
/// and its cache key ([`RenderOptions::hash_with_core`](chart_spec::RenderOptions::hash_with_core)),
/// asked only for a large body or array: the worker when `second_core` lends it, by the
/// rule of the drawing and the PNG encoder (and counted with them in
/// `chart_raster_second_core_total`), or as `RASTER_THREADS` fixes it (`1`: never, `2`:
/// always). The results are the one thread's either way.
pub fn prefix_core() -> Option<Box<dyn chart_spec::split::SecondThread>> {
    let request = Request::enter();
    let own = Busy::enter().0;
    let second = lent_by_prefix_rule()?;
    Some(Box::new(Prefix {
        second,
        _own: own,
        _request: request,
    }))
}

/// The worker for a request's prefix or its scene built ahead: as `RASTER_THREADS` fixes
/// it (`1`: never, `2`: always), else when `second_core` lends it, a refusal remembered for
/// [`PREFIX_REFUSAL_HOLDS`] so that the next large request does not ask again at once.
fn lent_by_prefix_rule() -> Option<Lent> {
    match fixed_threads() {
        Some("1") => None,
        Some("2") => Lent::forced(),
        _ => {
            if PREFIX_REFUSED.lately() {
                DECISIONS.no_idle_core.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            let second = second_core();
            if second.is_none() {
                PREFIX_REFUSED.now();
            }
            second
        }
    }
}

/// The core that builds a large request's scene ahead of its render (`service/ahead.rs`),
/// while the request's own thread writes its cache key: counted, with the request, until
/// the job given to [`AheadCore::spawn`] drops it.
pub(crate) struct AheadCore {
    second: Lent,
    _request: Request,
}

/// A core for a request's scene built ahead ([`AheadCore`]): the worker when `second_core`
/// lends it, by the rule of the drawing and the prefix (a refusal of either answers for the
/// other within [`PREFIX_REFUSAL_HOLDS`]: the ask comes where the key's did), or as
/// `RASTER_THREADS` fixes it (`1`: never, `2`: always).
pub(crate) fn ahead_core() -> Option<AheadCore> {
    let request = Request::enter();
    let second = lent_by_prefix_rule()?;
    Some(AheadCore {
        second,
        _request: request,
    })
}

impl AheadCore {
    /// The worker whatever the machine is doing, for tests.
    #[cfg(test)]
    pub(crate) fn forced() -> Option<AheadCore> {
        Some(AheadCore {
            second: Lent::forced()?,
            _request: Request::enter(),
        })
    }

    /// Runs `job` on the lent worker without waiting for it; the job is handed the core,
    /// to drop (and with it its counts) as soon as it is done with it.
    pub(crate) fn spawn(self, job: impl FnOnce(AheadCore) + Send + 'static) {
        // Woken off this CPU, as for a join: this thread goes on with the key meanwhile.
        placement::keep_off_this_cpu();
        let worker = self.second.worker;
        worker.spawn(move || {
            // Running on another CPU by now: it may go anywhere for the later joins.
            placement::let_run_anywhere();
            job(self);
        });
    }
}

/// The lent thread is one per process: the tests that borrow it take turns, or one would
/// move it while the other checks where it runs.
#[cfg(test)]
pub(crate) static LENT_IN_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    use super::LENT_IN_TESTS as LENT;

    /// The lent worker runs its part on a thread of its own while the caller runs the
    /// other, both results come back, and a panic there comes back as an error with the
    /// worker still usable after it.
    #[test]
    fn the_worker_runs_beside_the_caller() {
        let _alone = LENT.lock().unwrap_or_else(|e| e.into_inner());
        let lent = super::Lent::forced().unwrap();
        let caller = std::thread::current().id();
        let (there, here) = lent.join(|| std::thread::current().id(), || 7);
        assert_ne!(there.unwrap(), caller);
        assert_eq!(here, 7);
        let (failed, ()) = lent.join(|| panic!("a panic on the worker, on purpose"), || ());
        assert!(failed.is_err());
        assert_eq!(lent.join(|| 1, || 2).0.unwrap(), 1);
    }

    /// A thread that borrows the lent one keeps it off its own CPU: pinned to one CPU,
    /// the borrower finds the lent thread allowed everywhere else, and running elsewhere.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_lent_thread_runs_off_the_borrowers_cpu() {
        use super::placement;
        use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
        use nix::unistd::Pid;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::time::{Duration, Instant};
        let allowed = sched_getaffinity(Pid::from_raw(0)).unwrap();
        let cpus: Vec<usize> = (0..CpuSet::count())
            .filter(|&c| allowed.is_set(c).unwrap_or(false))
            .collect();
        if cpus.len() < 2 {
            eprintln!("skipped: this process may use {} CPU", cpus.len());
            return;
        }
        let _alone = LENT.lock().unwrap_or_else(|e| e.into_inner());
        let lent = super::Lent::forced().unwrap();
        // On a thread of its own, pinned (the test harness's thread stays as it was).
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for &cpu in &cpus[..2] {
                    let mut one = CpuSet::new();
                    one.set(cpu).unwrap();
                    sched_setaffinity(Pid::from_raw(0), &one).unwrap();
                    assert_eq!(sched_getcpu().unwrap(), cpu);
                    // Where the lent thread runs and may run, read while this thread's
                    // half waits for it (after this half, it may run anywhere again).
                    let seen = AtomicBool::new(false);
                    let (there, ()) = lent.join(
                        || {
                            let at = (sched_getcpu().unwrap(), placement::worker_cpus());
                            seen.store(true, Ordering::Release);
                            at
                        },
                        || {
                            let start = Instant::now();
                            while !seen.load(Ordering::Acquire)
                                && start.elapsed() < Duration::from_secs(10)
                            {
                                std::hint::spin_loop();
                            }
                        },
                    );
                    let (ran_on, worker) = there.unwrap();
                    let worker = worker.unwrap();
                    assert!(
                        !worker.is_set(cpu).unwrap(),
                        "the lent thread may use CPU {cpu}"
                    );
                    let others = cpus.iter().filter(|&&c| c != cpu);
                    assert!(others.clone().all(|&c| worker.is_set(c).unwrap()));
                    assert_ne!(ran_on, cpu, "the lent thread ran on CPU {cpu}");
                    // Its wait over, the borrower let it run anywhere again.
                    let after = placement::worker_cpus().unwrap();
                    assert!(cpus.iter().all(|&c| after.is_set(c).unwrap()));
                }
            });
        });
    }

    /// The state is read after the last `)`, whatever the command name holds.
    #[test]
    fn a_task_state_follows_the_command_name() {
        let stat = "4242 (tokio-rt-worker) S 1 4242 4242 0 -1 4194368 0 0";
        assert_eq!(super::task_state(stat), Some('S'));
        let tricky = "77 (a) R (b)) R 1 77 77 0 -1";
        assert_eq!(super::task_state(tricky), Some('R'));
        assert_eq!(super::task_state("77 (no end"), None);
        assert_eq!(super::task_state("77 (x)"), None);
    }

    /// A thread of this process that spins is counted runnable beside this one, and once
    /// it has ended it no longer is (Linux only: elsewhere there is no count).
    #[test]
    fn own_runnable_threads_counts_a_spinning_thread() {
        use std::sync::atomic::{AtomicBool, Ordering};
        if !std::path::Path::new("/proc/self/task").exists() {
            eprintln!("skipped: no /proc/self/task on this system");
            return;
        }
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let started = std::sync::Arc::new(AtomicBool::new(false));
        let spinner = {
            let (stop, started) = (stop.clone(), started.clone());
            std::thread::spawn(move || {
                started.store(true, Ordering::Release);
                while !stop.load(Ordering::Acquire) {
                    std::hint::spin_loop();
                }
            })
        };
        while !started.load(Ordering::Acquire) {
            std::hint::spin_loop();
        }
        // This thread and the spinner, at least (other tests may run beside this one).
        let counted = super::own_runnable_threads().unwrap();
        stop.store(true, Ordering::Release);
        spinner.join().unwrap();
        assert!(counted >= 2, "counted {counted} runnable threads");
    }
}
