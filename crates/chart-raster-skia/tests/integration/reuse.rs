//! Buffers and glyph masks kept between renders must change no pixel.

use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::{json, Map, Value};

fn settings(background: Rgba) -> Settings {
    Settings {
        width: 320.0,
        height: 200.0,
        device_pixel_ratio: 2.0,
        background,
    }
}

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("configs are objects"),
    }
}

/// A chart with a clipped line (mask built lazily), bars, a title, unrotated and rotated
/// text (glyph masks cached on the first render, reused on the next).
fn line_and_bar() -> Map<String, Value> {
    object(json!({
        "type": "bar",
        "data": {"labels": ["alpha", "beta", "gamma"], "datasets": [
            {"label": "bars", "data": [3, -1, 2], "backgroundColor": "rgba(200, 40, 40, 0.5)"},
            {"type": "line", "label": "line", "data": [1, 4, 0], "borderColor": "#123456",
             "tension": 0.4}
        ]},
        "options": {"plugins": {"title": {"display": true, "text": "Reuse"}},
                    "scales": {"x": {"ticks": {"minRotation": 40}}}}
    }))
}

#[test]
fn a_recycled_bitmap_is_reused_and_draws_the_same_pixels() {
    let fresh = Engine::new()
        .render_chart(&line_and_bar(), &settings(Rgba::TRANSPARENT))
        .unwrap();

    let engine = Engine::new();
    // Leave a dark, opaque picture in the buffer, then hand it back.
    let first = engine
        .render_chart(&line_and_bar(), &settings(Rgba::rgb(10, 20, 30)))
        .unwrap();
    let kept = first.bitmap.data.as_ptr();
    engine.recycle(first.bitmap);

    let again = engine
        .render_chart(&line_and_bar(), &settings(Rgba::TRANSPARENT))
        .unwrap();
    assert_eq!(
        again.bitmap.data.as_ptr(),
        kept,
        "the recycled buffer is reused"
    );
    assert!(
        again.bitmap.data == fresh.bitmap.data,
        "a reused buffer and glyph cache give the pixels of a fresh engine"
    );
}

#[test]
fn renders_of_other_sizes_do_not_share_a_too_small_buffer() {
    let engine = Engine::new();
    let small = engine
        .render_chart(&line_and_bar(), &settings(Rgba::WHITE))
        .unwrap();
    engine.recycle(small.bitmap);
    let mut big = settings(Rgba::WHITE);
    big.width = 640.0;
    let out = engine.render_chart(&line_and_bar(), &big).unwrap();
    assert_eq!(out.bitmap.data.len(), 1280 * 400 * 4);
    let fresh = Engine::new().render_chart(&line_and_bar(), &big).unwrap();
    assert!(out.bitmap.data == fresh.bitmap.data);
}

/// Text too large for the glyph cache is still drawn, the same on every render.
#[test]
fn large_titles_draw_without_the_glyph_cache() {
    let cfg = |size: u32| {
        object(json!({
            "type": "bar",
            "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
            "options": {"plugins": {"legend": {"display": false},
                "title": {"display": true, "text": "Wg", "font": {"size": size}}}}
        }))
    };
    let engine = Engine::new();
    let ink = |size: u32| {
        let out = engine
            .render_chart(&cfg(size), &settings(Rgba::WHITE))
            .unwrap();
        // Dark pixels in the title's band at the top.
        let w = out.bitmap.width as usize;
        let rows = (size as usize * 3 + 40).min(out.bitmap.height as usize);
        let dark = out.bitmap.data[..rows * w * 4]
            .chunks_exact(4)
            .filter(|p| p[0] < 160)
            .count();
        (dark, out.bitmap.data)
    };
    let (small, _) = ink(12);
    let (large, first) = ink(60); // 120 device px per em: past the cache's limit
    let (_, second) = ink(60);
    assert!(small > 20, "{small} dark pixels in a 12 px title");
    assert!(large > 4 * small, "{large} dark pixels in a 60 px title");
    assert!(
        first == second,
        "the same large title twice gives the same pixels"
    );
}
