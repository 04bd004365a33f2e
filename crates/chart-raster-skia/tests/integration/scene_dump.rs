//! A debugging aid: `CASE=path/to/case.json cargo test -p chart-raster-skia --test integration
//! scene_dump -- --ignored --nocapture` prints the scene of a fixture case.

use chart_raster_skia::text::TextEngine;
use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;

#[test]
#[ignore = "debugging aid, needs CASE"]
fn scene_dump() {
    let Ok(path) = std::env::var("CASE") else {
        println!("CASE not set; nothing to dump");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("case file");
    let case: serde_json::Value = serde_json::from_str(&text).expect("case json");
    let sprite = case["spriteText"].as_bool().unwrap_or(false);
    let engine = if sprite {
        let dir = std::path::Path::new(&path)
            .ancestors()
            .find(|p| p.join("sprite").is_dir())
            .map(|p| p.join("sprite"))
            .expect("sprite dir");
        Engine::with_text(TextEngine::sprite(&dir).expect("sprite"))
    } else {
        Engine::new()
    };
    let settings = Settings {
        width: case["canvas"]["width"].as_f64().unwrap_or(300.0) as f32,
        height: case["canvas"]["height"].as_f64().unwrap_or(150.0) as f32,
        device_pixel_ratio: 1.0,
        background: Rgba::TRANSPARENT,
    };
    let (scene, msgs) = engine.scene(case["config"].as_object().expect("config"), &settings);
    for m in msgs {
        println!("MSG {:?}: {}", m.level, m.message);
    }
    for it in &scene.items {
        println!("{it:?}");
    }
}
