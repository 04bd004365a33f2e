//! Render benchmarks of issue 5: a doughnut, a radar and a 10,000-point time-series line
//! with and without decimation, at the service's default canvas (800×600 CSS px, dpr 2).
//! Layout+draw (rasterised bitmap) is timed separately from PNG encoding.
//!
//! Run with `cargo bench -p chart-raster --bench render_extra`.

use chart_raster::encode::encode;
use chart_raster_skia::{Engine, Settings};
use chart_spec::{ImageFormat, Rgba};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Map, Value};

const SETTINGS: Settings = Settings {
    width: 800.0,
    height: 600.0,
    device_pixel_ratio: 2.0,
    background: Rgba::WHITE,
};

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("benchmark configs are objects"),
    }
}

/// Five slices with a legend and a title.
fn doughnut() -> Map<String, Value> {
    object(json!({
        "type": "doughnut",
        "data": {
            "labels": ["Red", "Blue", "Yellow", "Green", "Purple"],
            "datasets": [{
                "data": [300, 50, 100, 80, 120],
                "backgroundColor": ["#ff6384", "#36a2eb", "#ffcd56", "#4bc0c0", "#9966ff"]
            }]
        },
        "options": {"plugins": {"title": {"display": true, "text": "Share"}}}
    }))
}

/// Two datasets over seven spokes, filled, with point labels and ticks.
fn radar() -> Map<String, Value> {
    object(json!({
        "type": "radar",
        "data": {
            "labels": ["Eating", "Drinking", "Sleeping", "Designing", "Coding", "Cycling", "Running"],
            "datasets": [
                {"label": "A", "data": [65, 59, 90, 81, 56, 55, 40], "fill": true,
                 "backgroundColor": "rgba(255, 99, 132, 0.2)", "borderColor": "#ff6384"},
                {"label": "B", "data": [28, 48, 40, 19, 96, 27, 100], "fill": true,
                 "backgroundColor": "rgba(54, 162, 235, 0.2)", "borderColor": "#36a2eb"}
            ]
        }
    }))
}

/// 10,000 points, one a minute, on a time scale (`parsing: false`, as decimation requires).
fn time_series(decimation: bool) -> Map<String, Value> {
    let start = 1_700_000_000_000.0_f64;
    let data: Vec<Value> = (0..10_000)
        .map(|i| {
            let t = f64::from(i);
            // A sawtooth with a faster ripple: no trig, so the data is the same everywhere.
            let y = (t * 0.7).rem_euclid(97.0) + (t * 3.1).rem_euclid(13.0);
            json!({"x": start + t * 60_000.0, "y": y})
        })
        .collect();
    object(json!({
        "type": "line",
        "data": {"datasets": [{"label": "sensor", "data": data, "borderColor": "#36a2eb",
                               "borderWidth": 1, "pointRadius": 0}]},
        "options": {
            "parsing": false,
            "scales": {"x": {"type": "time"}},
            "plugins": {"decimation": {"enabled": decimation, "algorithm": "lttb", "samples": 500}}
        }
    }))
}

fn bench(c: &mut Criterion) {
    let engine = Engine::new();
    let cases = [
        ("doughnut", doughnut()),
        ("radar", radar()),
        ("timeseries_10k", time_series(false)),
        ("timeseries_10k_lttb", time_series(true)),
    ];
    for (name, cfg) in cases {
        c.bench_function(&format!("{name}/layout+draw"), |b| {
            b.iter(|| {
                engine
                    .render_chart(&cfg, &SETTINGS)
                    .map(|r| r.bitmap.data.len())
            })
        });
        let Ok(rendered) = engine.render_chart(&cfg, &SETTINGS) else {
            eprintln!("{name}: render failed; skipping the encode benchmark");
            continue;
        };
        c.bench_function(&format!("{name}/png-encode"), |b| {
            b.iter(|| encode(&rendered.bitmap, ImageFormat::Png, 90).map(|v| v.len()))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
