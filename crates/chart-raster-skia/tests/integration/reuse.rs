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

/// A chart with a clipped line (mask built lazily), bars, text in two sizes and a title.
fn line_and_bar() -> Map<String, Value> {
    object(json!({
        "type": "bar",
        "data": {"labels": ["alpha", "beta", "gamma"], "datasets": [
            {"label": "bars", "data": [3, -1, 2], "backgroundColor": "rgba(200, 40, 40, 0.5)"},
            {"type": "line", "label": "line", "data": [1, 4, 0], "borderColor": "#123456",
             "tension": 0.4}
        ]},
        "options": {"plugins": {"title": {"display": true, "text": "Reuse"}}}
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
