//! Browser engine tests. Each needs Chromium, chromedriver and the bundles
//! (`cargo xtask browser-assets`); without them it prints why it skipped and passes, unless
//! `CHART_RASTER_REQUIRE_BROWSER=1` (set in CI) turns the skip into a failure.

mod render;
mod robustness;

use chart_raster_browser::{BrowserConfig, BrowserEngine};
use chart_spec::{Bitmap, EngineKind, ImageFormat, RenderOptions};
use serde_json::Value;

/// An engine, or `None` after printing why the browser tests cannot run here.
pub fn engine(test: &str) -> Option<BrowserEngine> {
    let config = BrowserConfig::from_env();
    match config.check() {
        Ok(()) => Some(BrowserEngine::new(config)),
        Err(e) if std::env::var_os("CHART_RASTER_REQUIRE_BROWSER").is_some() => {
            panic!("{test} cannot run and CHART_RASTER_REQUIRE_BROWSER is set: {e}")
        }
        Err(e) => {
            eprintln!("skipping {test}: {e}");
            None
        }
    }
}

/// Render options for `chart` at `width`×`height` CSS px, white background.
pub fn options(chart: Value, width: f64, height: f64, dpr: f64) -> RenderOptions {
    let Value::Object(chart) = chart else {
        panic!("test configs are objects");
    };
    RenderOptions {
        chart,
        width,
        height,
        device_pixel_ratio: dpr,
        background_color: "white".into(),
        format: ImageFormat::Png,
        quality: 90,
        engine: EngineKind::Browser,
    }
}

/// Share of pixels that are not opaque white.
pub fn ink(bitmap: &Bitmap) -> f64 {
    let inked = bitmap
        .data
        .chunks_exact(4)
        .filter(|p| p != &[255, 255, 255, 255])
        .count();
    inked as f64 / (bitmap.width as f64 * bitmap.height as f64)
}

/// Whether some pixel has exactly this colour.
pub fn has_colour(bitmap: &Bitmap, rgba: [u8; 4]) -> bool {
    bitmap.data.chunks_exact(4).any(|p| p == rgba)
}

/// A bar chart with one dataset in `colour`.
pub fn bar_chart(colour: &str) -> Value {
    serde_json::json!({
        "type": "bar",
        "data": {
            "labels": ["a", "b", "c"],
            "datasets": [{ "label": "n", "data": [3, 5, 2], "backgroundColor": colour }]
        }
    })
}
