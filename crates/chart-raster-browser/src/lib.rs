//! The browser engine: renders configs with the real Chart.js 4.5.1 and the bundled plugins in
//! headless Chromium driven over WebDriver. It is also the oracle of the skia engine.
//!
//! Processes: one chromedriver (started lazily on the first render, on a free loopback port)
//! and a small pool of sessions, each one Chromium with one tab holding the prepared page
//! (the `page` module). A render checks a session out, runs one script on it and checks it back in, so
//! parallel renders never share a tab. A session that fails or exceeds the page timeout is
//! discarded (its Chromium killed) and the next render opens a new one; a dead chromedriver is
//! restarted.
#![warn(missing_docs)]

pub mod assets;
mod base64;
mod driver;
pub mod layout;
mod page;

pub use page::PageLeaks;

use chart_spec::{RenderOptions, Rendered};
use driver::{Driver, Session};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, Semaphore};

/// Why a browser render failed.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// Chromium, chromedriver or the assets are missing or cannot start (HTTP 503).
    #[error("browser engine unavailable: {0}")]
    Unavailable(String),
    /// The page did not finish within the page timeout.
    #[error("browser render timed out after {0:?}")]
    Timeout(Duration),
    /// Anything else that went wrong while driving the page.
    #[error("browser render failed: {0}")]
    Render(String),
}

/// Where the browser engine finds its programs and assets.
#[derive(Debug, Clone)]
pub struct BrowserConfig {
    /// `CHROMEDRIVER`, else `chromedriver` on PATH.
    pub chromedriver: Option<PathBuf>,
    /// `CHROMIUM_PATH`, else `chromium` on PATH.
    pub chromium: Option<PathBuf>,
    /// `CHART_RASTER_ASSETS`, else [`assets::default_assets_dir`]
    /// (`~/.cache/chart-raster/browser-assets`).
    pub assets_dir: PathBuf,
    /// A page still rendering after this is closed. Default: 30 s.
    pub page_timeout: Duration,
    /// Most Chromium processes (sessions) alive at once; renders beyond it wait for a free one.
    /// `CHART_RASTER_BROWSERS`, default: the number of CPUs, at most 4.
    pub max_browsers: usize,
}

impl BrowserConfig {
    /// Reads the environment.
    pub fn from_env() -> Self {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Self {
            chromedriver: std::env::var_os("CHROMEDRIVER").map(PathBuf::from),
            chromium: std::env::var_os("CHROMIUM_PATH").map(PathBuf::from),
            assets_dir: std::env::var_os("CHART_RASTER_ASSETS")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(assets::default_assets_dir),
            page_timeout: Duration::from_secs(30),
            max_browsers: std::env::var("CHART_RASTER_BROWSERS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|&n: &usize| n > 0)
                .unwrap_or_else(|| cpus.clamp(1, 4)),
        }
    }

    /// The chromedriver to run: the configured one, else `chromedriver` on PATH.
    pub fn resolve_chromedriver(&self) -> Result<PathBuf, BrowserError> {
        match &self.chromedriver {
            Some(p) if p.is_file() => Ok(p.clone()),
            Some(p) => Err(BrowserError::Unavailable(format!(
                "CHROMEDRIVER={} does not exist",
                p.display()
            ))),
            None => driver::find_on_path("chromedriver").ok_or_else(|| {
                BrowserError::Unavailable(
                    "chromedriver not found: install it (Debian: chromium-driver) \
                     or set CHROMEDRIVER"
                        .into(),
                )
            }),
        }
    }

    /// The Chromium to drive: the configured one, else `chromium` (or `chromium-browser`,
    /// `google-chrome`) on PATH.
    pub fn resolve_chromium(&self) -> Result<PathBuf, BrowserError> {
        match &self.chromium {
            Some(p) if p.is_file() => Ok(p.clone()),
            Some(p) => Err(BrowserError::Unavailable(format!(
                "CHROMIUM_PATH={} does not exist",
                p.display()
            ))),
            None => ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .find_map(|n| driver::find_on_path(n))
                .ok_or_else(|| {
                    BrowserError::Unavailable(
                        "Chromium not found: install it (Debian: chromium) or set CHROMIUM_PATH"
                            .into(),
                    )
                }),
        }
    }

    /// Why this configuration cannot render, if it cannot: a missing program or asset.
    /// Starts nothing; used by tests and tools to skip with a reason.
    pub fn check(&self) -> Result<(), BrowserError> {
        self.resolve_chromedriver()?;
        self.resolve_chromium()?;
        assets::load(&self.assets_dir).map(|_| ())
    }
}

/// State reported by `/health`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BrowserStatus {
    /// A WebDriver session is up.
    pub connected: bool,
    /// Tabs currently open for renders.
    pub active_pages: usize,
    /// The page timeout, seconds.
    pub page_timeout_seconds: u64,
    /// Chromium sessions replaced after a crash or a stuck page, and chromedriver restarts
    /// after it died, since the engine was made (`/metrics`).
    pub restarts: u64,
}

/// The processes, guarded together so a restart of chromedriver and the sessions it owned
/// happen as one step.
#[derive(Default)]
struct Pool {
    driver: Option<Driver>,
    /// Bumped on each chromedriver start; sessions of an older one are discarded.
    generation: u64,
    idle: Vec<Session>,
}

/// The engine. Starts chromedriver and Chromium lazily, on the first render.
pub struct BrowserEngine {
    config: BrowserConfig,
    pool: Mutex<Pool>,
    /// Loaded once and kept: the bundles are verified by sha256 on the first render.
    sources: Mutex<Option<Arc<Vec<String>>>>,
    /// One permit per Chromium the engine may run.
    permits: Semaphore,
    active: AtomicUsize,
    /// Sessions alive (checked out or idle); maintained by the sessions themselves.
    live: Arc<AtomicUsize>,
    /// Sessions being opened (Chromium starting, page loading).
    starting: Arc<AtomicUsize>,
    profiles: PathBuf,
    next_profile: AtomicU64,
    /// See [`BrowserStatus::restarts`].
    restarts: AtomicU64,
}

/// Counts a render in `active` for as long as it lives.
struct ActiveGuard<'a>(&'a AtomicUsize);

impl<'a> ActiveGuard<'a> {
    fn new(counter: &'a AtomicUsize) -> Self {
        counter.fetch_add(1, Ordering::SeqCst);
        Self(counter)
    }
}

impl Drop for ActiveGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl BrowserEngine {
    /// An engine that has not started anything yet.
    pub fn new(config: BrowserConfig) -> Self {
        static ENGINES: AtomicU64 = AtomicU64::new(0);
        let profiles = std::env::temp_dir().join(format!(
            "chart-raster-browser-{}-{}",
            std::process::id(),
            ENGINES.fetch_add(1, Ordering::SeqCst)
        ));
        Self {
            permits: Semaphore::new(config.max_browsers.max(1)),
            config,
            pool: Mutex::new(Pool::default()),
            sources: Mutex::new(None),
            active: AtomicUsize::new(0),
            live: Arc::new(AtomicUsize::new(0)),
            starting: Arc::new(AtomicUsize::new(0)),
            profiles,
            next_profile: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
        }
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &BrowserConfig {
        &self.config
    }

    /// Renders one request with real Chart.js.
    pub async fn render(&self, opts: &RenderOptions) -> Result<Rendered, BrowserError> {
        self.render_reading(opts, false).await.map(|(r, _)| r)
    }

    /// Renders one request and reads the live chart's layout ([`layout::ChartLayout`]) before
    /// the chart is destroyed: the oracle of `cargo xtask compare`. The layout is `None`
    /// when the chart threw.
    pub async fn render_with_layout(
        &self,
        opts: &RenderOptions,
    ) -> Result<(Rendered, Option<layout::ChartLayout>), BrowserError> {
        self.render_reading(opts, true).await
    }

    async fn render_reading(
        &self,
        opts: &RenderOptions,
        with_layout: bool,
    ) -> Result<(Rendered, Option<layout::ChartLayout>), BrowserError> {
        let sources = self.sources().await?;
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| BrowserError::Unavailable("the engine is closed".into()))?;
        let _active = ActiveGuard::new(&self.active);
        // A session can die between renders (Chromium killed or crashed): the first failure
        // discards it and the render is retried once on a fresh one.
        let mut last_error = String::new();
        for _ in 0..2 {
            let session = self.checkout(&sources).await?;
            let timeout = self.config.page_timeout;
            match tokio::time::timeout(timeout, page::render(&session.client, opts, with_layout))
                .await
            {
                Ok(Ok(rendered)) => {
                    self.checkin(session).await;
                    return Ok(rendered);
                }
                Ok(Err(page::PageError::Page(e))) => {
                    self.checkin(session).await;
                    return Err(BrowserError::Render(e));
                }
                Ok(Err(page::PageError::Driver(e))) => {
                    self.restarts.fetch_add(1, Ordering::SeqCst);
                    self.discard(session).await;
                    last_error = e;
                }
                Err(_) => {
                    // The page is stuck: kill its Chromium (dropping the session does) rather
                    // than reuse it, and without a polite session delete, which would queue
                    // behind the stuck script.
                    self.restarts.fetch_add(1, Ordering::SeqCst);
                    drop(session);
                    return Err(BrowserError::Timeout(timeout));
                }
            }
        }
        Err(BrowserError::Render(last_error))
    }

    /// What `/health` reports.
    pub fn status(&self) -> BrowserStatus {
        BrowserStatus {
            connected: self.live.load(Ordering::SeqCst) > 0,
            active_pages: self.active.load(Ordering::SeqCst),
            page_timeout_seconds: self.config.page_timeout.as_secs(),
            restarts: self.restarts.load(Ordering::SeqCst),
        }
    }

    /// Stops Chromium and chromedriver. A later render starts them again.
    pub async fn shutdown(&self) {
        let mut pool = self.pool.lock().await;
        // Sessions checked out now belong to this generation and are discarded on check-in.
        pool.generation += 1;
        for session in pool.idle.drain(..) {
            session.close().await;
        }
        if let Some(driver) = pool.driver.take() {
            driver.stop().await;
        }
        // Sessions still being opened or used by a render when shutdown came.
        driver::kill_chromium_under(&self.profiles);
    }

    /// Counts tabs, canvases and Chart.js instances over the idle sessions: all zero but one
    /// tab per session when no render leaked anything. For tests and diagnostics.
    pub async fn leaks(&self) -> Result<Vec<PageLeaks>, BrowserError> {
        let pool = self.pool.lock().await;
        let mut out = Vec::new();
        for session in &pool.idle {
            out.push(
                page::leaks(&session.client)
                    .await
                    .map_err(|e| BrowserError::Render(format!("{e:?}")))?,
            );
        }
        Ok(out)
    }

    /// Which requests (`fetch`, `image`, `stylesheet`) a page of an idle session could make
    /// to `url`: none, unless the network fence is broken. For tests.
    pub async fn probe_network(&self, url: &str) -> Result<Vec<String>, BrowserError> {
        let pool = self.pool.lock().await;
        let session = pool
            .idle
            .first()
            .ok_or_else(|| BrowserError::Render("no idle session to probe from".into()))?;
        page::probe(&session.client, url)
            .await
            .map_err(|e| BrowserError::Render(format!("{e:?}")))
    }

    /// Process ids of the idle sessions' Chromium main processes (Linux). For tests that
    /// kill them.
    pub async fn chromium_pids(&self) -> Vec<u32> {
        let pool = self.pool.lock().await;
        pool.idle.iter().filter_map(Session::chromium_pid).collect()
    }

    /// Sessions being opened right now, including those whose render was abandoned (they
    /// finish starting, then are closed).
    pub fn starting(&self) -> usize {
        self.starting.load(Ordering::SeqCst)
    }

    /// Every Chromium main process started by this engine that is still running (Linux),
    /// whether or not a session owns it: a test compares it with [`Self::chromium_pids`] to
    /// find leaked browsers.
    pub fn all_chromium_pids(&self) -> Vec<u32> {
        driver::chromium_pids_under(&self.profiles)
    }

    /// Process id of the running chromedriver. For tests that kill it.
    pub async fn chromedriver_pid(&self) -> Option<u32> {
        self.pool.lock().await.driver.as_ref().and_then(Driver::pid)
    }

    async fn sources(&self) -> Result<Arc<Vec<String>>, BrowserError> {
        let mut cached = self.sources.lock().await;
        if let Some(sources) = cached.as_ref() {
            return Ok(sources.clone());
        }
        // Programs first: their absence is the likelier and more useful message.
        self.config.resolve_chromedriver()?;
        self.config.resolve_chromium()?;
        let sources = Arc::new(assets::load(&self.config.assets_dir)?);
        *cached = Some(sources.clone());
        Ok(sources)
    }

    /// An idle session, or a new one (starting chromedriver when it is not running).
    async fn checkout(&self, sources: &Arc<Vec<String>>) -> Result<Session, BrowserError> {
        let (url, generation) = {
            let mut pool = self.pool.lock().await;
            let running = pool.driver.as_mut().is_some_and(Driver::alive);
            if !running {
                // chromedriver died (or never ran): its sessions are unusable.
                if pool.driver.is_some() {
                    self.restarts.fetch_add(1, Ordering::SeqCst);
                }
                pool.idle.clear();
                pool.driver = None;
                let program = self.config.resolve_chromedriver()?;
                pool.driver = Some(Driver::start(&program).await?);
                pool.generation += 1;
            }
            if let Some(session) = pool.idle.pop() {
                return Ok(session);
            }
            let Some(driver) = pool.driver.as_ref() else {
                return Err(BrowserError::Unavailable(
                    "chromedriver is not running".into(),
                ));
            };
            (driver.url.clone(), pool.generation)
        };
        // Opened outside the lock: Chromium takes a second to start, and other renders may
        // meanwhile check idle sessions in and out.
        let profile = self.profiles.join(format!(
            "session-{}",
            self.next_profile.fetch_add(1, Ordering::SeqCst)
        ));
        let chromium = self.config.resolve_chromium()?;
        // A task of its own, so that a caller giving up mid-start (its future dropped) does not
        // cut the start short: chromedriver would launch a Chromium nobody knows of. The task
        // runs to the end and its session, unclaimed, is dropped, which kills that Chromium.
        let open = Session::open(
            url,
            chromium,
            profile,
            sources.clone(),
            self.config.page_timeout,
            generation,
            self.live.clone(),
        );
        let (tx, rx) = tokio::sync::oneshot::channel();
        let starting = self.starting.clone();
        starting.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(async move {
            let result = open.await;
            // Unclaimed: dropped here, killing its Chromium, before `starting` goes down.
            drop(tx.send(result));
            starting.fetch_sub(1, Ordering::SeqCst);
        });
        rx.await
            .map_err(|_| BrowserError::Unavailable("starting Chromium was abandoned".into()))?
    }

    async fn checkin(&self, session: Session) {
        let mut pool = self.pool.lock().await;
        if session.generation == pool.generation && pool.driver.is_some() {
            pool.idle.push(session);
        } else {
            drop(pool);
            self.discard(session).await;
        }
    }

    async fn discard(&self, session: Session) {
        session.close().await;
    }
}

impl Drop for BrowserEngine {
    fn drop(&mut self) {
        // Sessions kill their Chromium on drop; chromedriver is killed on drop of its Child.
        let pool = self.pool.get_mut();
        pool.idle.clear();
        pool.driver = None;
        driver::kill_chromium_under(&self.profiles);
        let _ = std::fs::remove_dir_all(&self.profiles);
    }
}
