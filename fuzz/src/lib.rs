//! The fuzz targets of chart-raster and their structure-aware input decoder.
//!
//! Each target is a plain function of the input bytes, so that the AFL binaries in `src/bin`
//! (one per target, built by `cargo afl build`) and the `replay` tool (which turns a finding
//! into the readable JSON case kept in `fuzz/regressions/`) run exactly the same code.
//!
//! | target | input | code under test |
//! |---|---|---|
//! | `request` | a `POST /render` body | `RenderOptions::from_json_bytes`, the cache key |
//! | `query` | a query string (`k=v&k=v`, already decoded) | `RenderOptions::from_query` |
//! | `resolve` | chart config JSON text | `chart_spec::resolve_chart` |
//! | `render` | a `POST /render` body (canvas forced small) | skia `Engine::render_with` + encoder |
//! | `resolve-struct` | seed pick + mutation program ([`mutate`]) | `resolve_chart` |
//! | `render-struct` | seed pick + mutation program | `Engine::render_with` + encoder |

#![forbid(unsafe_code)]

pub mod mutate;

use chart_raster::ImageFormat;
use chart_raster_skia::Engine;
use chart_spec::{Cancel, Limits, RenderOptions};
use serde_json::{Map, Value};
use std::time::{Duration, Instant};

/// Canvas of the render targets, in CSS px at dpr 1: small, so that one execution costs
/// the chart's work rather than filling pixels.
pub const CANVAS: (f64, f64) = (160.0, 120.0);

/// Deadline of one render: the engine must give up (with `Error::Cancelled`) by then. AFL's
/// `-t` is set above it (see xtask/src/fuzz.rs), so a render that does not return is a hang.
pub const RENDER_DEADLINE: Duration = Duration::from_secs(1);

// The tight budgets of the render targets, in a file of their own that the workspace's
// regression replay (crates/chart-raster/tests/integration/fuzz_regressions.rs) includes too:
// this crate is outside the workspace, so the test cannot depend on it.
include!("limits.rs");

/// `POST /render` body parsing, then the cache key of what was accepted.
pub fn request(data: &[u8]) {
    if let Ok(opts) = RenderOptions::from_json_bytes(data) {
        let _ = opts.hash();
    }
}

/// `GET /render`: the input is split into `key=value` pairs at `&` and the first `=` (as
/// chart-http's `query_pairs` does after percent-decoding, so any byte may appear in a value).
pub fn query(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let pairs = text
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")));
    if let Ok(opts) = RenderOptions::from_query(pairs) {
        let _ = opts.hash();
    }
}

/// Option resolution of a chart config given as JSON text.
pub fn resolve_json(data: &[u8]) {
    if let Ok(Value::Object(config)) = serde_json::from_slice::<Value>(data) {
        resolve(&config);
    }
}

/// Option resolution of a chart config that keeps to the service's default input budgets
/// (the service never resolves a config before `check_chart` accepted it; without the check,
/// 7,500 datasets take a second to resolve in the instrumented build and read as hangs).
pub fn resolve(config: &Map<String, Value>) {
    if chart_spec::budget::check_chart(config, &Limits::default()).is_ok() {
        let _ = chart_spec::resolve_chart(config);
    }
}

/// The engine of the render targets: system fonts, [`fuzz_limits`].
pub fn engine() -> Engine {
    Engine::new().with_limits(fuzz_limits())
}

/// A whole render of a request body: validation within the limits as the service does it,
/// then the canvas is forced to [`CANVAS`] at dpr 1 (the size limits are the request
/// target's business).
pub fn render_request(engine: &Engine, data: &[u8]) {
    if let Ok(mut opts) = RenderOptions::from_json_bytes_with_limits(data, engine.limits()) {
        opts.width = CANVAS.0;
        opts.height = CANVAS.1;
        opts.device_pixel_ratio = 1.0;
        render(engine, &opts);
    }
}

/// A whole render of a chart config on the small canvas, encoded as `format`. The config
/// first goes through the input budgets, as every request of the service does.
pub fn render_config(engine: &Engine, config: Map<String, Value>, format: ImageFormat) {
    if chart_spec::budget::check_chart(&config, engine.limits()).is_err() {
        return;
    }
    let mut opts = RenderOptions::new(config);
    opts.width = CANVAS.0;
    opts.height = CANVAS.1;
    opts.device_pixel_ratio = 1.0;
    opts.format = format;
    render(engine, &opts);
}

/// Renders under [`RENDER_DEADLINE`] and encodes; every outcome but a panic, a hang or a
/// blown memory limit is a designed one (an image, a budget error, a cancellation).
pub fn render(engine: &Engine, opts: &RenderOptions) {
    let cancel = Cancel::with_deadline(Instant::now() + RENDER_DEADLINE);
    if let Ok(out) = engine.render_with(opts, &cancel) {
        let _ = chart_raster::encode(&out.bitmap, opts.format, opts.quality);
        engine.recycle(out.bitmap);
    }
}

/// The output format picked by the top two bits of a structure-aware input's seed word.
pub fn format_of(word: u16) -> ImageFormat {
    match word >> 14 {
        1 => ImageFormat::Jpeg,
        2 => ImageFormat::Webp,
        _ => ImageFormat::Png,
    }
}
