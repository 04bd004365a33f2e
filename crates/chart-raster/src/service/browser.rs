//! The browser engine, or its absence when built without the `browser` feature.

use super::{ServiceConfig, ServiceError};
use chart_spec::{RenderOptions, Rendered};

/// What `/health` reports about the browser.
pub(super) struct Status {
    pub connected: bool,
    pub active_pages: usize,
    pub page_timeout_seconds: u64,
    pub restarts: u64,
}

#[cfg(feature = "browser")]
pub(super) struct Slot(chart_raster_browser::BrowserEngine);

#[cfg(feature = "browser")]
impl Slot {
    pub fn new(config: &ServiceConfig) -> Self {
        Self(chart_raster_browser::BrowserEngine::new(
            config.browser.clone(),
        ))
    }

    pub async fn render(&self, opts: &RenderOptions) -> Result<Rendered, ServiceError> {
        use chart_raster_browser::BrowserError;
        self.0.render(opts).await.map_err(|e| match e {
            BrowserError::Unavailable(reason) => ServiceError::BrowserUnavailable(reason),
            BrowserError::Timeout(d) => ServiceError::Timeout(d),
            BrowserError::Render(m) => ServiceError::Render(m),
        })
    }

    pub fn status(&self) -> Status {
        let s = self.0.status();
        Status {
            connected: s.connected,
            active_pages: s.active_pages,
            page_timeout_seconds: s.page_timeout_seconds,
            restarts: s.restarts,
        }
    }

    pub async fn shutdown(&self) {
        self.0.shutdown().await;
    }
}

#[cfg(not(feature = "browser"))]
pub(super) struct Slot;

#[cfg(not(feature = "browser"))]
impl Slot {
    pub fn new(_config: &ServiceConfig) -> Self {
        Slot
    }

    pub async fn render(&self, _opts: &RenderOptions) -> Result<Rendered, ServiceError> {
        Err(ServiceError::BrowserUnavailable(
            "chart-raster was built without the `browser` feature".into(),
        ))
    }

    pub fn status(&self) -> Status {
        Status {
            connected: false,
            active_pages: 0,
            page_timeout_seconds: 0,
            restarts: 0,
        }
    }

    pub async fn shutdown(&self) {}
}
