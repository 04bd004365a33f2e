//! The public [`Layout`] of the update stage: the same numbers the drawing uses, and JSON.

use chart_raster_skia::layout::Layout;
use chart_raster_skia::scene::{Item, PathCmd};
use chart_raster_skia::ElementGeometry;
use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::json;

const SETTINGS: Settings = Settings {
    width: 400.0,
    height: 200.0,
    device_pixel_ratio: 1.0,
    background: Rgba::TRANSPARENT,
};

fn bar_chart() -> serde_json::Value {
    json!({"type": "bar", "data": {"labels": ["a", "b", "c"],
        "datasets": [{"data": [1, 2, 3]}]},
        "options": {"plugins": {"legend": {"display": false}}}})
}

fn layout_of(cfg: &serde_json::Value) -> Layout {
    let (layout, msgs) = Engine::new().layout(cfg.as_object().expect("object"), &SETTINGS);
    assert!(msgs.is_empty(), "{msgs:?}");
    layout.expect("a layout")
}

/// Each bar's centre sits on its category's tick pixel, inside the chart area, and the bars
/// the scene draws are the ones the layout describes.
#[test]
fn bars_sit_on_their_ticks_and_match_the_scene() {
    let cfg = bar_chart();
    let l = layout_of(&cfg);
    let a = l.chart_area;
    assert!(
        a.left > 0.0 && a.right <= 400.0 && a.top > 0.0 && a.bottom < 200.0,
        "{a:?}"
    );
    let x = l.scales.iter().find(|s| s.id == "x").expect("x scale");
    assert_eq!(x.ticks.len(), 3);
    assert_eq!(x.rect.left, a.left);
    assert_eq!(x.rect.top, a.bottom);
    let bars: Vec<(f64, f64)> = l.datasets[0]
        .elements
        .iter()
        .map(|e| match e {
            Some(ElementGeometry::Bar { x, y, .. }) => (*x, *y),
            other => panic!("not a bar: {other:?}"),
        })
        .collect();
    for (b, t) in bars.iter().zip(&x.ticks) {
        assert_eq!(b.0, t.pixel);
    }
    assert!(bars[0].1 > bars[1].1 && bars[1].1 > bars[2].1, "{bars:?}");
    // The scene's bar fills start at the layout's tops.
    let (scene, _) = Engine::new().scene(cfg.as_object().expect("object"), &SETTINGS);
    let tops: Vec<f32> = scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Fill { path, .. } => match path.cmds.first() {
                Some(PathCmd::MoveTo(_, y)) => Some(*y),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for b in &bars {
        assert!(
            tops.iter().any(|t| (f64::from(*t) - b.1).abs() < 1e-3),
            "{tops:?} {b:?}"
        );
    }
}

/// The layout prints as JSON with Chart.js's names for the numbers.
#[test]
fn layout_serializes_to_json() {
    let l = layout_of(&bar_chart());
    let v = serde_json::to_value(&l).expect("json");
    assert_eq!(v["chart_area"]["left"], json!(l.chart_area.left));
    assert_eq!(v["scales"][0]["ticks"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["datasets"][0]["elements"][0]["type"], json!("bar"));
}

/// A config that does not resolve has no layout, and says why.
#[test]
fn unknown_chart_type_has_no_layout() {
    let cfg = json!({"type": "nope", "data": {"datasets": [{"data": [1]}]}});
    let (layout, msgs) = Engine::new().layout(cfg.as_object().expect("object"), &SETTINGS);
    assert!(layout.is_none());
    assert!(!msgs.is_empty());
}

/// The colour (size) scale of chartjs-chart-geo is its legend: Chart.js reports its box and
/// ticks as the legend's `update` leaves them (`axis: 'r'`, the box at the chart area's
/// `left` and `top: 0` for a vertical legend, at `left: 0` and the chart area's `top` for a
/// horizontal one, `right`/`bottom` the legend's size, tick pixels in the legend's own
/// frame), not a hidden scale along the chart; the projection scale sits on the chart area.
/// The numbers were read from `chart.scales` in Chromium (Chart.js 4.5.1, chartjs-chart-geo
/// 4.3.6) for the gallery's maps.
#[test]
fn geo_value_scales_report_their_legends() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/examples");
    let scale_of = |name: &str, id: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("example");
        let example: serde_json::Value = serde_json::from_str(&text).expect("json");
        let settings = Settings {
            width: 800.0,
            height: 500.0,
            ..SETTINGS
        };
        let cfg = example["config"].as_object().expect("config");
        let (layout, _) = Engine::new().layout(cfg, &settings);
        let s = (layout.expect("a layout").scales.into_iter())
            .find(|s| s.id == id)
            .expect("the scale");
        let ticks: Vec<(f64, f64)> = s.ticks.iter().map(|t| (t.value, t.pixel)).collect();
        let r = s.rect;
        (s.axis, (r.left, r.top, r.right, r.bottom), ticks)
    };
    let near = |a: &[(f64, f64)], b: &[(f64, f64)]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(a, b)| (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-6)
    };
    let (axis, rect, ticks) = scale_of("choropleth", "color");
    assert_eq!((axis.as_str(), rect), ("r", (0.0, 0.0, 40.0, 100.0)));
    let steps = |n: usize, value: f64, pixel: f64, v0: f64, p0: f64| -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| (v0 + value * i as f64, p0 + pixel * i as f64))
            .collect()
    };
    assert!(
        near(&ticks, &steps(5, 100.0, -25.0, 0.0, 100.0)),
        "{ticks:?}"
    );
    let (axis, rect, ticks) = scale_of("choropleth-legend", "color");
    assert_eq!(axis, "r");
    let (l, t, r, b) = rect;
    assert!(
        (l, r, b) == (0.0, 220.0, 50.0) && (t - 34.4).abs() < 1e-9,
        "{rect:?}"
    );
    assert!(near(&ticks, &steps(5, 100.0, 55.0, 0.0, 0.0)), "{ticks:?}");
    // The projection scale sits on the chart area (`left: 0` from its `setDimensions`),
    // without ticks.
    let (axis, rect, ticks) = scale_of("choropleth-legend", "projection");
    let (l, t, r, b) = rect;
    assert!(
        axis == "x" && (l, r, b) == (0.0, 800.0, 500.0) && (t - 34.4).abs() < 1e-9,
        "{axis} {rect:?}"
    );
    assert!(ticks.is_empty(), "{ticks:?}");
    let (axis, rect, ticks) = scale_of("bubble-map-legend", "size");
    assert_eq!((axis.as_str(), rect), ("r", (0.0, 0.0, 28.0, 160.0)));
    assert!(
        near(&ticks, &steps(8, 10.0, -160.0 / 7.0, 20.0, 160.0)),
        "{ticks:?}"
    );
}
