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

/// The render's device pixel ratio sets the bitmap size; a config cannot enlarge it past the
/// service's limits with `options.devicePixelRatio`.
#[test]
fn config_device_pixel_ratio_does_not_override_the_render() {
    let engine = Engine::new();
    let cfg = json!({"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
                     "options": {"devicePixelRatio": 100}});
    let settings = Settings {
        width: 100.0,
        height: 50.0,
        device_pixel_ratio: 1.0,
        background: Rgba::WHITE,
    };
    let out = engine
        .render_chart(cfg.as_object().unwrap(), &settings)
        .unwrap();
    assert_eq!((out.bitmap.width, out.bitmap.height), (100, 50));
    assert!(
        out.messages.iter().any(|m| m
            .message
            .contains("options.devicePixelRatio (100) is ignored")),
        "{:?}",
        out.messages
    );
}

mod geometry;
mod hostile_core;
mod hostile_plugin_charts;
mod image_fixtures;
mod layout;
mod plugin_charts;
mod plugins;
mod radial_time;
mod reuse;
mod robustness;
#[cfg(feature = "sprite-text")]
mod scene_dump;
mod scene_memory;
mod timing;
mod vector;
