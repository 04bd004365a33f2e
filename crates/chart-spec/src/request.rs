//! The input of one render ([`RenderOptions`]): validated, defaults filled in, hashable.
//!
//! TODO(interface owner): full validation, limits and the canonical hash (issue 2).

use serde_json::{Map, Value};

/// Image encoding of the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ImageFormat {
    /// PNG (default).
    #[default]
    Png,
    /// JPEG, lossy with `quality`.
    Jpeg,
    /// WebP, lossy with `quality`.
    Webp,
}

/// Which renderer draws the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EngineKind {
    /// The native renderer (default).
    #[default]
    Skia,
    /// Real Chart.js in headless Chromium.
    Browser,
}

/// A validated render request. Every field has its default filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The Chart.js config object (`type`, `data`, `options`).
    pub chart: Map<String, Value>,
    /// CSS pixels. Default: 800.
    pub width: f64,
    /// CSS pixels. Default: 600.
    pub height: f64,
    /// Bitmap = width·dpr × height·dpr. Default: 2.
    pub device_pixel_ratio: f64,
    /// Any CSS colour. Default: `white`.
    pub background_color: String,
    /// Default: png.
    pub format: ImageFormat,
    /// 0–100, for JPEG and WebP. Default: 90.
    pub quality: u8,
    /// Default: skia.
    pub engine: EngineKind,
}

/// Why a request was rejected (HTTP 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No `chart` field.
    #[error("Missing chart parameter")]
    MissingChart,
}

impl RenderOptions {
    /// Validates a JSON request body and fills in defaults.
    pub fn from_json(v: &Value) -> Result<Self, RequestError> {
        let chart = v
            .get("chart")
            .and_then(Value::as_object)
            .ok_or(RequestError::MissingChart)?;
        Ok(Self {
            chart: chart.clone(),
            width: 800.0,
            height: 600.0,
            device_pixel_ratio: 2.0,
            background_color: "white".into(),
            format: ImageFormat::Png,
            quality: 90,
            engine: EngineKind::Skia,
        })
    }
}
