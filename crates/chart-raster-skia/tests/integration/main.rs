//! Integration tests of the skia engine.

use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::json;

#[test]
fn renders_bitmap_of_requested_size() {
    let engine = Engine::new();
    let cfg = json!({"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [1]}]}});
    let settings = Settings {
        width: 100.0,
        height: 50.0,
        device_pixel_ratio: 2.0,
        background: Rgba::WHITE,
    };
    let out = engine
        .render_chart(cfg.as_object().unwrap(), &settings)
        .unwrap();
    assert_eq!((out.bitmap.width, out.bitmap.height), (200, 100));
}

mod geometry;
mod plugin_charts;
mod plugins;
mod radial_time;
mod robustness;
#[cfg(feature = "sprite-text")]
mod scene_dump;
mod timing;
