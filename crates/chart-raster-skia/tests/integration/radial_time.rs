//! Arc, radial and time charts: structure of the scene and a few pixels.

use chart_raster_skia::scene::Item;
use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::{json, Value};

fn settings(w: f32, h: f32) -> Settings {
    Settings {
        width: w,
        height: h,
        device_pixel_ratio: 1.0,
        background: Rgba::WHITE,
    }
}

fn texts(cfg: &Value, w: f32, h: f32) -> Vec<String> {
    let engine = Engine::new();
    let map = cfg.as_object().cloned().unwrap_or_default();
    let (scene, _) = engine.scene(&map, &settings(w, h));
    scene
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

fn pixel(cfg: &Value, w: f32, h: f32, x: u32, y: u32) -> [u8; 4] {
    let engine = Engine::new();
    let map = cfg.as_object().cloned().unwrap_or_default();
    let out = engine.render_chart(&map, &settings(w, h)).expect("render");
    let i = ((y * out.bitmap.width + x) * 4) as usize;
    [
        out.bitmap.data[i],
        out.bitmap.data[i + 1],
        out.bitmap.data[i + 2],
        out.bitmap.data[i + 3],
    ]
}

#[test]
fn time_scale_labels_in_both_token_styles() {
    let base = |formats: Value| {
        json!({
            "type": "line",
            "data": {"labels": ["2021-03-01", "2021-03-02", "2021-03-03"],
                     "datasets": [{"data": [1, 2, 3]}]},
            "options": {"plugins": {"legend": false},
                        "scales": {"x": {"type": "time", "time": {"unit": "day", "displayFormats": formats}}}}
        })
    };
    let moment = texts(&base(json!({"day": "ddd D MMM"})), 600.0, 300.0);
    assert!(moment.contains(&"Mon 1 Mar".to_string()), "{moment:?}");
    let date_fns = texts(&base(json!({"day": "EEE d MMM"})), 600.0, 300.0);
    assert!(date_fns.contains(&"Mon 1 Mar".to_string()), "{date_fns:?}");
    let default = texts(&base(json!({})), 600.0, 300.0);
    assert!(default.contains(&"Mar 2".to_string()), "{default:?}");
}

#[test]
fn logarithmic_ticks_label_one_two_five() {
    let cfg = json!({
        "type": "line",
        "data": {"labels": ["a", "b"], "datasets": [{"data": [1, 1000]}]},
        "options": {"plugins": {"legend": false}, "scales": {"y": {"type": "logarithmic"}}}
    });
    let t = texts(&cfg, 300.0, 600.0);
    for label in ["1", "10", "100", "1,000", "20", "50"] {
        assert!(t.contains(&label.to_string()), "{label} missing from {t:?}");
    }
    assert!(
        !t.contains(&"40".to_string()),
        "minor ticks stay unlabelled: {t:?}"
    );
}

#[test]
fn doughnut_and_pie_fill_their_slices() {
    let cfg = |kind: &str| {
        json!({"type": kind, "data": {"labels": ["a", "b"], "datasets": [
            {"data": [1, 1], "backgroundColor": ["#ff0000", "#0000ff"]}]},
            "options": {"plugins": {"legend": false}}})
    };
    // 200×200: centre (100, 100); the first slice covers the right half.
    assert_eq!(
        pixel(&cfg("doughnut"), 200.0, 200.0, 175, 100),
        [255, 0, 0, 255]
    );
    assert_eq!(
        pixel(&cfg("doughnut"), 200.0, 200.0, 25, 100),
        [0, 0, 255, 255]
    );
    // The doughnut's hole is the background; the pie's centre is a slice.
    assert_eq!(
        pixel(&cfg("doughnut"), 200.0, 200.0, 100, 110),
        [255, 255, 255, 255]
    );
    assert_ne!(
        pixel(&cfg("pie"), 200.0, 200.0, 110, 100),
        [255, 255, 255, 255]
    );
}

#[test]
fn radar_and_polar_area_draw_point_labels() {
    let radar = json!({"type": "radar", "data": {"labels": ["North", "East", "South"],
        "datasets": [{"data": [1, 2, 3], "fill": true}]}});
    let t = texts(&radar, 400.0, 400.0);
    for label in ["North", "East", "South"] {
        assert!(t.contains(&label.to_string()), "{label} missing from {t:?}");
    }
    let polar = json!({"type": "polarArea", "data": {"labels": ["a", "b"],
        "datasets": [{"data": [1, 2]}]}, "options": {"plugins": {"legend": false}}});
    // Polar area charts hide point labels by default.
    assert!(!texts(&polar, 400.0, 400.0).contains(&"a".to_string()));
}

#[test]
fn odd_values_never_panic() {
    let odd = [
        json!(null),
        json!("x"),
        json!(-1e308),
        json!([]),
        json!({}),
        json!(true),
    ];
    for kind in ["doughnut", "pie", "polarArea", "radar"] {
        for v in &odd {
            let cfg = json!({"type": kind, "data": {"labels": [v, "b"], "datasets": [
                {"data": [v, 2], "cutout": v, "rotation": v, "circumference": v,
                 "borderRadius": v, "spacing": v, "borderWidth": v, "offset": v}]},
                "options": {"scales": {"r": {"startAngle": v, "min": v, "max": v,
                    "pointLabels": {"display": v}, "ticks": {"stepSize": v}}}}});
            let _ = texts(&cfg, 200.0, 200.0);
            let _ = pixel(&cfg, 50.0, 50.0, 25, 25);
        }
    }
    for v in &odd {
        let cfg = json!({"type": "line", "data": {"labels": [v, "2021-01-01"], "datasets": [{"data": [1, v]}]},
            "options": {"scales": {
                "x": {"type": "time", "min": v, "max": v, "time": {"unit": v, "parser": v, "round": v}},
                "y": {"type": "logarithmic", "min": v, "max": v}}}});
        let _ = texts(&cfg, 200.0, 200.0);
        let _ = pixel(&cfg, 50.0, 50.0, 25, 25);
    }
}

/// `labels` daily labels from 2024-03-06.
fn daily_labels(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let (m, d) = if i < 26 { (3, 6 + i) } else { (4, i - 25) };
            format!("2024-{m:02}-{d:02}")
        })
        .collect()
}

/// Issue 17: a time scale's `ticks.source` defaults to `'auto'`, and Chart.js autoskips when
/// `autoSkip || source === 'auto'`, so `autoSkip: false` alone still thins the labels: 40
/// daily labels on 600 px show 20 in Chart.js 4.5.1 (read from the browser engine's layout
/// oracle), not 40. With `source: 'data'` the labels are not thinned.
#[test]
fn time_scale_thins_labels_with_autoskip_false_while_source_is_auto() {
    let cfg = |ticks: Value| {
        json!({
            "type": "line",
            "data": {"labels": daily_labels(40), "datasets": [{"data": vec![1; 40]}]},
            "options": {"plugins": {"legend": false},
                        "scales": {"x": {"type": "time", "ticks": ticks}}}
        })
    };
    let dates = |t: Vec<String>| {
        t.into_iter()
            .filter(|s| s.starts_with("Mar ") || s.starts_with("Apr "))
            .count()
    };
    assert_eq!(
        dates(texts(&cfg(json!({"autoSkip": false})), 600.0, 300.0)),
        20
    );
    assert_eq!(
        dates(texts(
            &cfg(json!({"autoSkip": false, "source": "data"})),
            600.0,
            300.0
        )),
        40
    );
}

/// Issue 17: without a format in the config the display formats are
/// chartjs-adapter-date-fns's (the service's adapter): minutes read `h:mm aaaa`, "12:15 a.m.",
/// not moment's "12:15 am".
#[test]
fn time_scale_default_formats_are_date_fns() {
    let labels: Vec<String> = (0..12)
        .map(|i| format!("2024-03-06T00:{:02}:00", i * 5))
        .collect();
    let cfg = json!({
        "type": "line",
        "data": {"labels": labels, "datasets": [{"data": vec![1; 12]}]},
        "options": {"plugins": {"legend": false}, "scales": {"x": {"type": "time"}}}
    });
    let t = texts(&cfg, 600.0, 300.0);
    assert!(t.contains(&"12:15 a.m.".to_string()), "{t:?}");
    assert!(!t.iter().any(|s| s.ends_with(" am")), "{t:?}");
}

/// Issue 17: doughnut `spacing` trims each arc by Chart.js 4.5.1's proportional rule (the
/// angular rule of later Chart.js made the gaps about twice as wide): the fill of an arc
/// starts `(alpha - alpha * r / (r + s)) / 2` after its start angle, `s` half the spacing
/// and `r` the mean radius without spacing.
#[test]
fn doughnut_spacing_gaps_are_chartjs_4_5_1s() {
    let cfg = json!({
        "type": "doughnut",
        "data": {"labels": ["a", "b", "c"], "datasets": [{"data": [1, 2, 3], "borderWidth": 0}]},
        "options": {"spacing": 8, "plugins": {"legend": false}}
    });
    let engine = Engine::new();
    let map = cfg.as_object().cloned().unwrap_or_default();
    let layout = engine
        .layout(&map, &settings(400.0, 400.0))
        .0
        .expect("layout");
    let Some(Some(chart_raster_skia::ElementGeometry::Arc {
        x,
        y,
        start_angle,
        end_angle,
        inner_radius,
        outer_radius,
    })) = layout.datasets[0].elements.first().cloned()
    else {
        panic!("an arc");
    };
    let (scene, _) = engine.scene(&map, &settings(400.0, 400.0));
    let path = scene
        .items
        .iter()
        .find_map(|it| match it {
            Item::Fill { path, .. } => Some(path.clone()),
            _ => None,
        })
        .expect("the first arc's fill");
    let chart_raster_skia::scene::PathCmd::MoveTo(px, py) = path.cmds[0] else {
        panic!("starts with a move");
    };
    let angle = libm::atan2(f64::from(py) - y, f64::from(px) - x);
    let (s, alpha) = (4.0, end_angle - start_angle);
    let r = (inner_radius - s + outer_radius) / 2.0;
    let trim = (alpha - alpha * r / (r + s)) / 2.0;
    assert!(
        (angle - (start_angle + trim)).abs() < 1e-4,
        "trimmed {} rad, Chart.js 4.5.1 {trim}",
        angle - start_angle
    );
}

/// Issue 17: chartjs-plugin-annotation widens a scale after its `determineDataLimits`
/// (`afterDataLimits`), then runs `handleTickRangeOptions`. A logarithmic value axis of a bar
/// chart (`beginAtZero`, the bar default) with data 251..975 and a box from 1 to 2 starts at
/// 1 in Chart.js 4.5.1: the zero rule moves 251 to 100 first, the annotation then widens to
/// 1. Widening the data before the zero rule moved the minimum a decade lower, to 0.1.
#[test]
fn annotations_widen_a_log_scale_after_its_zero_rule() {
    let cfg = json!({
        "type": "bar",
        "data": {"labels": ["a", "b", "c"], "datasets": [{"data": [251, 975, 806]}]},
        "options": {"indexAxis": "y", "scales": {"x": {"type": "logarithmic"}},
            "plugins": {"legend": false, "annotation": {"annotations": {
                "box1": {"type": "box", "xMin": 1, "xMax": 2}}}}}
    });
    let engine = Engine::new();
    let map = cfg.as_object().cloned().unwrap_or_default();
    let layout = engine
        .layout(&map, &settings(600.0, 400.0))
        .0
        .expect("layout");
    let x = layout.scales.iter().find(|s| s.id == "x").expect("scale x");
    assert_eq!(x.ticks.first().map(|t| t.value), Some(1.0), "{:?}", x.ticks);
}
