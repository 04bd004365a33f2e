//! The browser engine: renders configs with the real Chart.js 4.5.1 and the bundled plugins in
//! headless Chromium driven over WebDriver. It is also the oracle of the skia engine.
//!
//! TODO(browser owner): everything of issue 4. The public API below is what the facade wires.

use chart_spec::{RenderOptions, Rendered};
use std::path::PathBuf;
use std::time::Duration;

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
    /// `CHART_RASTER_ASSETS`, else a default cache directory.
    pub assets_dir: PathBuf,
    /// A page still rendering after this is closed.
    pub page_timeout: Duration,
}

impl BrowserConfig {
    /// Reads the environment.
    pub fn from_env() -> Self {
        Self {
            chromedriver: std::env::var_os("CHROMEDRIVER").map(PathBuf::from),
            chromium: std::env::var_os("CHROMIUM_PATH").map(PathBuf::from),
            assets_dir: std::env::var_os("CHART_RASTER_ASSETS")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("target/browser-assets")),
            page_timeout: Duration::from_secs(30),
        }
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
}

/// The engine. Starts chromedriver and Chromium lazily, on the first render.
pub struct BrowserEngine {
    config: BrowserConfig,
}

impl BrowserEngine {
    /// An engine that has not started anything yet.
    pub fn new(config: BrowserConfig) -> Self {
        Self { config }
    }

    /// Renders one request with real Chart.js.
    pub async fn render(&self, _opts: &RenderOptions) -> Result<Rendered, BrowserError> {
        Err(BrowserError::Unavailable("not implemented yet".into()))
    }

    /// What `/health` reports.
    pub fn status(&self) -> BrowserStatus {
        BrowserStatus {
            connected: false,
            active_pages: 0,
            page_timeout_seconds: self.config.page_timeout.as_secs(),
        }
    }

    /// Stops Chromium and chromedriver.
    pub async fn shutdown(&self) {}
}
