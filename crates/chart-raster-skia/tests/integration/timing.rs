//! A profiling aid (not a timed assertion): `cargo test --release -p chart-raster-skia --test
//! integration timing -- --ignored --nocapture` prints scene-building and raster times.

use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::json;
use std::time::Instant;

#[test]
#[ignore = "profiling aid"]
fn timing() {
    let engine = Engine::new();
    let cfg = json!({"type": "bar", "data": {"labels": ["January", "February", "March", "April",
        "May", "June", "July", "August", "September", "October", "November", "December"],
        "datasets": [{"label": "2025", "data": [12, 19, 3, 5, 2, 3, 9, 14, 7, 11, 6, 15]},
                     {"label": "2026", "data": [8, 11, 7, 9, 12, 5, 4, 10, 13, 6, 9, 12]}]},
        "options": {"plugins": {"title": {"display": true, "text": "Monthly sales"}}}});
    let cfg = cfg.as_object().expect("object");
    let s = Settings {
        width: 800.0,
        height: 600.0,
        device_pixel_ratio: 2.0,
        background: Rgba::WHITE,
    };
    let _ = engine.render_chart(cfg, &s);
    let n = 20;
    let t = Instant::now();
    for _ in 0..n {
        let _ = engine.scene(cfg, &s);
    }
    let scene = t.elapsed() / n;
    let t = Instant::now();
    for _ in 0..n {
        let _ = engine.render_chart(cfg, &s);
    }
    let total = t.elapsed() / n;
    let (sc, _) = engine.scene(cfg, &s);
    println!(
        "scene {scene:?}, scene+raster {total:?}, {} items",
        sc.items.len()
    );
}
