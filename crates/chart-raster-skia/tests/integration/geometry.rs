//! Element geometry checked against what Chart.js 4.5.1 computes for the same configs
//! (hand-derived from its layout, category/linear scales and bar ruler arithmetic).

use chart_raster_skia::scene::{Item, PathCmd};
use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::{json, Value};

fn fills(cfg: Value, w: f32, h: f32) -> Vec<Vec<PathCmd>> {
    let engine = Engine::new();
    let settings = Settings {
        width: w,
        height: h,
        device_pixel_ratio: 1.0,
        background: Rgba::TRANSPARENT,
    };
    let (scene, msgs) = engine.scene(cfg.as_object().expect("object"), &settings);
    assert!(msgs.is_empty(), "unexpected messages {msgs:?}");
    scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Fill { path, .. } => Some(path.cmds.clone()),
            _ => None,
        })
        .collect()
}

fn rect(cmds: &[PathCmd]) -> (f32, f32, f32, f32) {
    match (cmds.first(), cmds.get(2)) {
        (Some(PathCmd::MoveTo(x0, y0)), Some(PathCmd::LineTo(x1, y1))) => (*x0, *y0, *x1, *y1),
        other => panic!("not a rectangle: {other:?}"),
    }
}

fn close(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) {
    let d = [(a.0 - b.0), (a.1 - b.1), (a.2 - b.2), (a.3 - b.3)];
    assert!(d.iter().all(|v| v.abs() < 1e-3), "{a:?} != {b:?}");
}

#[test]
fn bars_fill_categories_like_chartjs() {
    // Category centres at 25 and 75 (offset grid, 2 labels), bar width 50 × 0.8 × 0.9 = 36;
    // the linear scale spans 0..2 over the full 100 px height.
    let f = fills(
        json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [
            {"data": [1, 2], "backgroundColor": "red"}]},
            "options": {"plugins": false, "scales": {"x": {"display": false}, "y": {"display": false}}}}),
        100.0,
        100.0,
    );
    assert_eq!(f.len(), 2);
    close(rect(&f[0]), (7.0, 50.0, 43.0, 100.0));
    close(rect(&f[1]), (57.0, 0.0, 93.0, 100.0));
}

#[test]
fn title_box_takes_line_height_and_padding() {
    // Title: one bold 12px line (14.4 px) + 10 px padding top and bottom = 34.4 px; the
    // chart area is 34.4..100, so the value 1 of 0..2 sits at 34.4 + 65.6 / 2 = 67.2.
    let f = fills(
        json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [
            {"data": [1, 2], "backgroundColor": "red"}]},
            "options": {"plugins": {"legend": false, "colors": false,
                "title": {"display": true, "text": "T"}},
                "scales": {"x": {"display": false}, "y": {"display": false}}}}),
        100.0,
        100.0,
    );
    close(rect(&f[0]), (7.0, 67.2, 43.0, 100.0));
}

#[test]
fn stacked_bars_start_where_the_previous_ends() {
    let f = fills(
        json!({"type": "bar", "data": {"labels": ["a"], "datasets": [
            {"data": [1], "backgroundColor": "red"}, {"data": [3], "backgroundColor": "blue"}]},
            "options": {"plugins": false, "scales": {"x": {"display": false, "stacked": true},
                "y": {"display": false, "stacked": true}}}}),
        100.0,
        100.0,
    );
    // One category of 100 px: width 72, x 14..86; y 0..4 → 25 px per unit. Datasets draw in
    // reverse order, so the second (blue, 1..4) comes first.
    close(rect(&f[0]), (14.0, 0.0, 86.0, 75.0));
    close(rect(&f[1]), (14.0, 75.0, 86.0, 100.0));
}
