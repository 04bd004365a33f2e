//! Render benchmarks (issue 3): layout+draw and PNG encoding timed separately, at the service's
//! default canvas (800×600 CSS px, dpr 2), on a few charts of our own and on every chart of
//! issue 13's peer benchmark (`chart_raster::benchmark`, the configs `cargo xtask bench-peers`
//! sends; their ids are `peer/<stem>`).
//!
//! Every peer chart also has `peer/<stem>/parse` and `peer/<stem>/hash`: what the service does
//! on one core before any drawing starts, on the request body `cargo xtask bench-peers` sends
//! (`RenderOptions::from_json_bytes_with_limits` as chart-http calls it, the parsed request
//! dropped inside the timing as the service drops it, then `RenderOptions::hash`, the cache
//! key). Charts whose body is 64 KiB or more also have `/parse-split` and `/hash-split`,
//! the same on two threads as the service splits them (`chart_raster::prefix_core`: the
//! second core lent when one is idle, always with `RASTER_THREADS=2`). A forced split on a
//! busy machine waits for its other half's core: at a load of 4 on 2 cores, back to back,
//! the time series' split parse took 5.1 ms against 3.2 on one thread (and the bench runs
//! on the system allocator, not the binary's jemalloc), so compare the two only on an idle
//! machine.
//!
//! Run with `cargo bench -p chart-raster --bench render` (`-- peer/` for the peer set only,
//! `-- '/parse|/hash'` for the request prefix only).

use chart_raster::encode::encode;
use chart_raster::prefix_core;
use chart_raster_skia::{Engine, Settings};
use chart_spec::{ImageFormat, Limits, RenderOptions, Rgba};
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

/// 12 labels, two datasets, title and legend.
fn bar_chart() -> Map<String, Value> {
    let labels = chart_raster::benchmark::MONTHS;
    object(json!({
        "type": "bar",
        "data": {
            "labels": labels,
            "datasets": [
                {"label": "2025", "data": [12, 19, 3, 5, 2, 3, 9, 14, 7, 11, 6, 15],
                 "backgroundColor": "rgba(54, 162, 235, 0.6)"},
                {"label": "2026", "data": [8, 11, 7, 9, 12, 5, 4, 10, 13, 6, 9, 12],
                 "backgroundColor": "rgba(255, 99, 132, 0.6)"}
            ]
        },
        "options": {"plugins": {"title": {"display": true, "text": "Monthly sales"}}}
    }))
}

/// Three datasets of 50 points each, curved.
fn line_chart() -> Map<String, Value> {
    let labels: Vec<String> = (0..50).map(|i| format!("P{i}")).collect();
    let series = |k: f64| -> Vec<f64> {
        (0..50)
            .map(|i| ((f64::from(i) * 0.37 + k) * 1.7).rem_euclid(23.0) + k)
            .collect()
    };
    object(json!({
        "type": "line",
        "data": {
            "labels": labels,
            "datasets": [
                {"label": "a", "data": series(1.0), "borderColor": "#36a2eb", "tension": 0.4},
                {"label": "b", "data": series(5.0), "borderColor": "#ff6384", "tension": 0.4},
                {"label": "c", "data": series(9.0), "borderColor": "#4bc0c0", "tension": 0.4}
            ]
        }
    }))
}

/// Five slices with a legend.
fn doughnut_chart() -> Map<String, Value> {
    object(json!({
        "type": "doughnut",
        "data": {
            "labels": ["Rent", "Food", "Travel", "Savings", "Other"],
            "datasets": [{"data": [1200, 450, 300, 600, 150],
                          "backgroundColor": ["#36a2eb", "#ff6384", "#ff9f40", "#4bc0c0", "#9966ff"]}]
        }
    }))
}

/// Two datasets over eight axes, filled.
fn radar_chart() -> Map<String, Value> {
    object(json!({
        "type": "radar",
        "data": {
            "labels": ["Speed", "Power", "Range", "Comfort", "Safety", "Price", "Looks", "Tech"],
            "datasets": [
                {"label": "A", "data": [65, 59, 90, 81, 56, 55, 40, 70], "fill": true,
                 "backgroundColor": "rgba(54, 162, 235, 0.2)", "borderColor": "#36a2eb"},
                {"label": "B", "data": [28, 48, 40, 19, 96, 27, 100, 60], "fill": true,
                 "backgroundColor": "rgba(255, 99, 132, 0.2)", "borderColor": "#ff6384"}
            ]
        }
    }))
}

/// 10,000 points a minute apart on a time scale, optionally decimated (LTTB to 500 samples).
fn time_series_chart(decimate: bool) -> Map<String, Value> {
    const START_MS: f64 = 1_767_225_600_000.0; // 2026-01-01T00:00:00Z
    let data: Vec<Value> = (0..10_000)
        .map(|i| {
            let t = f64::from(i);
            json!({"x": START_MS + t * 60_000.0, "y": (t * 0.013).rem_euclid(7.0) + (t * 0.0007).rem_euclid(3.0)})
        })
        .collect();
    object(json!({
        "type": "line",
        "data": {"datasets": [{"label": "signal", "data": data, "borderColor": "#36a2eb",
                               "borderWidth": 1, "pointRadius": 0}]},
        "options": {
            "parsing": false,
            "scales": {"x": {"type": "time"}},
            "plugins": {"decimation": {"enabled": decimate, "algorithm": "lttb", "samples": 500}}
        }
    }))
}

/// Parsing and hashing a peer chart's request body, timed apart.
fn bench_request(c: &mut Criterion) {
    let limits = Limits::default();
    for chart in chart_raster::benchmark::charts() {
        let name = format!("peer/{}", chart.stem());
        let body = serde_json::to_vec(&chart.request()).unwrap_or_default();
        c.bench_function(&format!("{name}/parse"), |b| {
            b.iter(|| RenderOptions::from_json_bytes_with_limits(&body, &limits).is_ok())
        });
        let Ok(opts) = RenderOptions::from_json_bytes_with_limits(&body, &limits) else {
            eprintln!("{name}: request refused; skipping the hash benchmark");
            continue;
        };
        c.bench_function(&format!("{name}/hash"), |b| b.iter(|| opts.hash()));
        // The same on two threads where the service would split them (a body of 64 KiB or
        // more, an array of 4,096 elements or more), with the service's second core: lent
        // under its idle-core rule, always with `RASTER_THREADS=2`.
        if body.len() >= 64 * 1024 {
            c.bench_function(&format!("{name}/parse-split"), |b| {
                b.iter(|| {
                    RenderOptions::from_json_bytes_with_core(&body, &limits, prefix_core).is_ok()
                })
            });
            c.bench_function(&format!("{name}/hash-split"), |b| {
                b.iter(|| opts.hash_with_core(prefix_core))
            });
        }
    }
}

fn bench(c: &mut Criterion) {
    let engine = Engine::new();
    let own = [
        ("bar_12x2", bar_chart()),
        ("line_3x50", line_chart()),
        ("doughnut_5", doughnut_chart()),
        ("radar_8x2", radar_chart()),
        ("time_10k", time_series_chart(false)),
        ("time_10k_lttb", time_series_chart(true)),
    ]
    .map(|(name, cfg)| (name.to_string(), cfg));
    let peer = chart_raster::benchmark::charts()
        .into_iter()
        .map(|c| (format!("peer/{}", c.stem()), object(c.config)));
    for (name, cfg) in own.into_iter().chain(peer) {
        // The bitmap goes back to the engine after each render, as the service hands it back
        // once encoded: the buffers are reused, not faulted in afresh.
        c.bench_function(&format!("{name}/layout+draw"), |b| {
            b.iter(|| {
                engine.render_chart(&cfg, &SETTINGS).map(|r| {
                    let n = r.bitmap.data.len();
                    engine.recycle(r.bitmap);
                    n
                })
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

criterion_group!(benches, bench_request, bench);
criterion_main!(benches);
