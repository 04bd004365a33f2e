//! Any JSON config renders (possibly blank, with messages) without panicking.

use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::{json, Value};

fn settings() -> Settings {
    Settings {
        width: 200.0,
        height: 120.0,
        device_pixel_ratio: 1.0,
        background: Rgba::TRANSPARENT,
    }
}

fn bases() -> Vec<Value> {
    vec![
        json!({"type": "bar", "data": {"labels": ["a", "b", "c"], "datasets": [
            {"label": "x", "data": [1, -2, 3], "borderWidth": 2, "borderRadius": 4},
            {"data": [[1, 2], [-1, 3], null], "stack": "s"}]},
            "options": {"plugins": {"legend": {"position": "left"}, "title": {"display": true, "text": ["t", "u"]}},
                "scales": {"y": {"stacked": true, "grace": "10%", "ticks": {"stepSize": 0.5}}}}}),
        json!({"type": "line", "data": {"labels": [1, 2, 3, 4], "datasets": [
            {"data": [1, null, 3, 4], "fill": "-1", "tension": 0.4, "pointStyle": "star"},
            {"data": [{"x": 1, "y": 2}, {"x": 3, "y": 1}], "fill": {"value": 2, "above": "red"}, "stepped": "middle"}]},
            "options": {"indexAxis": "y", "scales": {"x": {"position": {"y": 2}, "title": {"display": true, "text": "x"}}}}}),
        json!({"type": "bubble", "data": {"datasets": [{"data": [{"x": 1, "y": 2, "r": 5}, [3, 4, 6]]}]}}),
        json!({"type": "scatter", "data": {"datasets": [{"data": [{"x": 1, "y": 2}], "showLine": true, "fill": "stack"}]},
            "options": {"scales": {"x": {"min": 5, "max": 1, "reverse": true, "ticks": {"count": 4}}}}}),
    ]
}

const ODD: [fn() -> Value; 10] = [
    || json!(null),
    || json!(-1e308),
    || json!(1e308),
    || json!("nope"),
    || json!([]),
    || json!({}),
    || json!(true),
    || json!([null, "a", {"x": 1}]),
    || json!(0),
    || json!("50%"),
];

/// Replaces the `n`-th leaf (depth-first) with an odd value; returns false when there is none.
fn mutate(v: &mut Value, n: &mut usize, odd: &Value) -> bool {
    match v {
        Value::Object(m) => m.values_mut().any(|c| mutate(c, n, odd)),
        Value::Array(a) => a.iter_mut().any(|c| mutate(c, n, odd)),
        leaf => {
            if *n == 0 {
                *leaf = odd.clone();
                true
            } else {
                *n -= 1;
                false
            }
        }
    }
}

#[test]
fn mutated_configs_never_panic() {
    let engine = Engine::new();
    let mut rendered = 0;
    for base in bases() {
        for k in 0..200 {
            for odd in ODD.iter() {
                let mut cfg = base.clone();
                let mut n = k;
                if !mutate(&mut cfg, &mut n, &odd()) {
                    break;
                }
                if let Some(obj) = cfg.as_object() {
                    let _ = engine.scene(obj, &settings());
                    rendered += 1;
                }
            }
        }
    }
    assert!(rendered > 100, "only {rendered} mutated configs rendered");
}

#[test]
fn unknown_types_report_chartjs_messages() {
    let engine = Engine::new();
    let (scene, msgs) = engine.scene(
        json!({"type": "nope", "data": {}}).as_object().unwrap(),
        &settings(),
    );
    assert!(scene.items.is_empty());
    assert_eq!(msgs[0].message, "\"nope\" is not a registered controller.");
    let (_, msgs) = engine.scene(
        json!({"type": "line", "data": {"datasets": [{"data": [1]}]},
            "options": {"scales": {"x": {"type": "weird"}}}})
        .as_object()
        .unwrap(),
        &settings(),
    );
    assert!(msgs
        .iter()
        .any(|m| m.message == "\"weird\" is not a registered scale."));
}
