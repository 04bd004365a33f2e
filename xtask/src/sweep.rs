//! `cargo xtask sweep`: a hostile-input sweep of the skia engine, in process.
//!
//! Takes the gallery configs (`fixtures/examples`) and the random generator's configs
//! (`compare::random`), pushes each towards extremes (numbers replaced by ±1e308, 1e-308, -0,
//! 5e-324, huge or negative counts; options from a table of hostile settings; types swapped;
//! arrays grown to the budgets; strings made long), validates it as the service does and
//! renders it on a worker thread with a deadline in its [`Cancel`]. A case is reported when
//! it panics, outlives its deadline (a loop that does not poll the `Cancel`), or is slow.
//!
//! Before each case its index is written to `target/sweep-current.txt`, so that a case that
//! kills the process (a stack overflow, an abort) is known too; `--from` resumes after it.
//! Long runs are for a developer's machine (release build: `cargo xtask sweep` runs xtask
//! in whatever profile it was built); CI runs the smoke test below only.

use crate::compare::random::{self, Rng};
use anyhow::{Context, Result};
use argh::FromArgs;
use chart_raster_skia::{vector::VectorFormat, Engine, Error};
use chart_spec::{Cancel, ImageFormat, RenderOptions};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Push gallery and random configs towards extreme values and render each under a watchdog.
#[derive(FromArgs)]
#[argh(subcommand, name = "sweep")]
pub struct Cli {
    /// cases to run (default 1000)
    #[argh(option, default = "1000")]
    cases: u64,
    /// first case index (default 0)
    #[argh(option, default = "0")]
    from: u64,
    /// campaign seed (default 1)
    #[argh(option, default = "1")]
    seed: u64,
    /// a render's deadline in seconds; slower cases are reported (default 2)
    #[argh(option, default = "2.0")]
    deadline: f64,
    /// write each reported case's request body to this directory
    #[argh(option)]
    out: Option<PathBuf>,
}

/// What became of one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Validation or a budget refused it (a designed answer).
    Refused,
    /// Drawn (or ended by a designed error) within the deadline.
    Done,
    /// Ended with `Cancelled` at its deadline: a chart this slow is a jam unless refused.
    Cancelled(Duration),
    /// Still running this long after its deadline: a loop that ignores the `Cancel`.
    Stuck,
    /// A panic, with its text.
    Panicked(String),
}

/// One mutated request.
pub struct Case {
    /// Base config and the mutations applied, for the report.
    pub name: String,
    /// The `POST /render` body.
    pub body: Value,
}

const EXTREMES: &[f64] = &[
    1e308,
    -1e308,
    1e-308,
    -0.0,
    5e-324,
    1e9,
    -1e9,
    1e15,
    9_007_199_254_740_993.0,
    4_294_967_296.0,
    -1.0,
    0.0,
    0.5,
    1e21,
];

/// Hostile settings: a path (`S` = every scale, `D` = every dataset) and its values.
fn hostile_options() -> Vec<(&'static str, Vec<Value>)> {
    let long = "W".repeat(10_000);
    let marks = format!("a{}", "\u{301}".repeat(9_000));
    let dash = json!([1e-6, 1e-6]);
    vec![
        (
            "options.scales.S.ticks.stepSize",
            vec![json!(1e-300), json!(1e-9), json!(-1)],
        ),
        (
            "options.scales.S.min",
            vec![json!(-1e308), json!(1e-308), json!(-8.64e15)],
        ),
        (
            "options.scales.S.max",
            vec![json!(1e308), json!(5e-324), json!(8.64e15)],
        ),
        ("options.scales.S.suggestedMax", vec![json!(1e308)]),
        (
            "options.scales.S.type",
            vec![
                json!("time"),
                json!("logarithmic"),
                json!("timeseries"),
                json!("category"),
                json!("radialLinear"),
                json!("linear"),
            ],
        ),
        (
            "options.scales.S.ticks.maxTicksLimit",
            vec![json!(1e9), json!(0), json!(-1)],
        ),
        (
            "options.scales.S.ticks.count",
            vec![json!(1e9), json!(100_000), json!(-5)],
        ),
        (
            "options.scales.S.ticks.precision",
            vec![json!(1e9), json!(100), json!(-1)],
        ),
        (
            "options.scales.S.ticks.sampleSize",
            vec![json!(0), json!(1e9), json!(-1)],
        ),
        (
            "options.scales.S.ticks.autoSkipPadding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.ticks.padding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.ticks.maxRotation",
            vec![json!(1e308), json!(-1e9)],
        ),
        (
            "options.scales.S.ticks.minRotation",
            vec![json!(1e308), json!(45.5)],
        ),
        (
            "options.scales.S.ticks.font.size",
            vec![json!(1e9), json!(1e-9), json!(-5)],
        ),
        (
            "options.scales.S.ticks.font.lineHeight",
            vec![json!(1e9), json!(-1), json!("1e308px")],
        ),
        ("options.scales.S.ticks.z", vec![json!(1e308)]),
        (
            "options.scales.S.ticks.format",
            vec![
                json!({"maximumFractionDigits": 100, "minimumFractionDigits": 100}),
                json!({"notation": "scientific", "maximumSignificantDigits": 21}),
                json!({"style": "percent", "minimumIntegerDigits": 21}),
            ],
        ),
        (
            "options.scales.S.time.unit",
            vec![json!("millisecond"), json!("year"), json!("quarter")],
        ),
        (
            "options.scales.S.time.stepSize",
            vec![json!(1e-9), json!(1e9)],
        ),
        ("options.scales.S.time.round", vec![json!("millisecond")]),
        (
            "options.scales.S.time.displayFormats",
            vec![
                json!({"millisecond": long.clone(), "day": "YYYY".repeat(2000), "month": "[".repeat(5000)}),
            ],
        ),
        (
            "options.scales.S.time.parser",
            vec![json!("Y".repeat(5000)), json!("x")],
        ),
        (
            "options.scales.S.grid.lineWidth",
            vec![json!(1e9), json!([1e308, -1])],
        ),
        (
            "options.scales.S.grid.tickLength",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.border.dash",
            vec![dash.clone(), json!([0, 0]), json!([1e308])],
        ),
        ("options.scales.S.grid.tickBorderDash", vec![dash.clone()]),
        (
            "options.scales.S.grace",
            vec![json!("1e308%"), json!(1e308), json!("-50%")],
        ),
        ("options.scales.S.offset", vec![json!(true)]),
        (
            "options.scales.S.stacked",
            vec![json!(true), json!("single")],
        ),
        ("options.scales.S.reverse", vec![json!(true)]),
        ("options.scales.S.weight", vec![json!(1e308), json!(-1e308)]),
        (
            "options.scales.S.position",
            vec![json!({"x": 1e308}), json!("chartArea"), json!("center")],
        ),
        (
            "options.scales.S.title",
            vec![json!({"display": true, "text": long.clone()})],
        ),
        ("options.scales.S.pointLabels.font.size", vec![json!(1e9)]),
        ("options.scales.S.pointLabels.padding", vec![json!(1e308)]),
        ("options.scales.S.angleLines.borderDash", vec![dash.clone()]),
        (
            "options.scales.S.startAngle",
            vec![json!(1e308), json!(-1e308)],
        ),
        ("options.scales.S.ticks.backdropPadding", vec![json!(1e308)]),
        (
            "options.scales.S.labels",
            vec![json!(vec![long.clone(); 3])],
        ),
        (
            "options.layout.padding",
            vec![
                json!(1e308),
                json!(-1e308),
                json!({"left": 1e308, "top": -1e308}),
            ],
        ),
        (
            "options.plugins.title",
            vec![
                json!({"display": true, "text": vec!["t"; 5000]}),
                json!({"display": true, "text": marks.clone()}),
                json!({"display": true, "text": "t", "font": {"size": 1e-9}, "padding": 1e308}),
            ],
        ),
        (
            "options.plugins.subtitle",
            vec![json!({"display": true, "text": long.clone(), "font": {"size": 1e9}})],
        ),
        (
            "options.plugins.legend.labels.boxWidth",
            vec![json!(1e9), json!(-1e9)],
        ),
        (
            "options.plugins.legend.labels.padding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.plugins.legend.labels.font.size",
            vec![json!(1e-9), json!(1e9)],
        ),
        (
            "options.plugins.legend.labels.usePointStyle",
            vec![json!(true)],
        ),
        (
            "options.plugins.legend.labels.pointStyleWidth",
            vec![json!(1e308)],
        ),
        (
            "options.plugins.legend.maxWidth",
            vec![json!(-1), json!(1e-308)],
        ),
        (
            "options.plugins.legend.maxHeight",
            vec![json!(-1), json!(1e-308)],
        ),
        (
            "options.plugins.legend.position",
            vec![json!("left"), json!("chartArea"), json!({"x": 1})],
        ),
        (
            "options.plugins.legend.title",
            vec![json!({"display": true, "text": long.clone(), "padding": 1e308})],
        ),
        (
            "options.plugins.decimation",
            vec![
                json!({"enabled": true, "algorithm": "lttb", "samples": 1e9}),
                json!({"enabled": true, "algorithm": "lttb", "samples": 0.5, "threshold": -1}),
                json!({"enabled": true, "algorithm": "min-max", "threshold": 0}),
            ],
        ),
        (
            "options.plugins.datalabels",
            vec![
                json!({"display": true, "font": {"size": 1e-9}, "padding": 1e308, "rotation": 1e308}),
                json!({"display": true, "offset": 1e308, "borderWidth": 1e9, "borderRadius": 1e9, "clamp": true, "clip": true, "textStrokeWidth": 1e9, "anchor": "end", "align": 1e308}),
                json!({"display": "auto", "font": {"size": 1e9}, "formatter": null}),
            ],
        ),
        (
            "options.elements.line.borderDash",
            vec![dash.clone(), json!([1e-300]), json!([0.01, 0])],
        ),
        (
            "options.elements.line.tension",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.line.cubicInterpolationMode",
            vec![json!("monotone")],
        ),
        (
            "options.elements.line.stepped",
            vec![json!(true), json!("middle")],
        ),
        (
            "options.elements.point.pointStyle",
            vec![
                json!("star"),
                json!("crossRot"),
                json!("rectRounded"),
                json!("line"),
            ],
        ),
        ("options.elements.point.rotation", vec![json!(1e308)]),
        (
            "options.elements.point.radius",
            vec![json!(1e9), json!(1e-308)],
        ),
        ("options.elements.point.borderWidth", vec![json!(1e9)]),
        (
            "options.elements.arc.borderRadius",
            vec![
                json!(1e308),
                json!({"outerStart": 1e308, "innerEnd": -1e308}),
            ],
        ),
        (
            "options.elements.arc.spacing",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.arc.offset",
            vec![json!(1e308), json!(-1e308)],
        ),
        ("options.elements.arc.borderWidth", vec![json!(1e9)]),
        ("options.elements.arc.borderDash", vec![dash.clone()]),
        ("options.elements.arc.borderJoinStyle", vec![json!("miter")]),
        (
            "options.elements.bar.borderRadius",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.bar.borderWidth",
            vec![json!({"top": 1e308, "left": -1e308})],
        ),
        (
            "options.elements.bar.borderSkipped",
            vec![json!("middle"), json!(false)],
        ),
        (
            "options.rotation",
            vec![json!(1e308), json!(-1e308), json!(5e-324)],
        ),
        (
            "options.circumference",
            vec![json!(1e308), json!(-1e308), json!(1e-308)],
        ),
        (
            "options.cutout",
            vec![json!(-1e308), json!("1e308%"), json!("-50%"), json!(1e308)],
        ),
        (
            "options.radius",
            vec![json!("1e308%"), json!(-1), json!(1e308)],
        ),
        ("options.spanGaps", vec![json!(1e-300), json!(true)]),
        ("options.indexAxis", vec![json!("y")]),
        ("options.devicePixelRatio", vec![json!(1e308), json!(1e-9)]),
        (
            "options.locale",
            vec![json!(long.clone()), json!("ar-u-nu-arab"), json!("-")],
        ),
        ("options.font.size", vec![json!(1e9), json!(1e-9)]),
        ("D.borderDash", vec![dash.clone(), json!([0.001, 0.001])]),
        ("D.borderDashOffset", vec![json!(1e308), json!(-1e308)]),
        ("D.tension", vec![json!(1e308), json!(0.4)]),
        ("D.stepped", vec![json!("middle"), json!("after")]),
        (
            "D.fill",
            vec![
                json!("origin"),
                json!("-1"),
                json!("+1"),
                json!("stack"),
                json!({"target": {"value": 1e308}}),
                json!("shape"),
                json!(-1e9),
            ],
        ),
        ("D.pointStyle", vec![json!("triangle"), json!("star")]),
        ("D.pointRotation", vec![json!(1e308)]),
        ("D.pointRadius", vec![json!(1e9), json!(100)]),
        ("D.borderWidth", vec![json!({"top": 1e308}), json!(1e9)]),
        (
            "D.borderRadius",
            vec![json!({"topLeft": 1e308}), json!(1e308)],
        ),
        ("D.barPercentage", vec![json!(1e308), json!(-1)]),
        ("D.categoryPercentage", vec![json!(1e308), json!(-1e308)]),
        (
            "D.barThickness",
            vec![json!(1e308), json!("flex"), json!(-1)],
        ),
        ("D.maxBarThickness", vec![json!(-1)]),
        ("D.minBarLength", vec![json!(1e308)]),
        ("D.inflateAmount", vec![json!(1e308)]),
        ("D.base", vec![json!(1e308), json!(-1e308)]),
        ("D.order", vec![json!(1e308)]),
        ("D.stack", vec![json!("a")]),
        (
            "D.clip",
            vec![
                json!(1e308),
                json!(-1e308),
                json!({"left": -1e308, "top": 1e308}),
            ],
        ),
        ("D.xAxisID", vec![json!("nope")]),
        (
            "D.type",
            vec![
                json!("line"),
                json!("bar"),
                json!("bubble"),
                json!("pie"),
                json!("radar"),
                json!("scatter"),
            ],
        ),
        ("D.circumference", vec![json!(1e308)]),
        ("D.rotation", vec![json!(-1e308)]),
        ("D.weight", vec![json!(1e308), json!(-1)]),
        ("D.spacing", vec![json!(1e308)]),
        ("D.offset", vec![json!(1e308)]),
        ("D.hidden", vec![json!(true)]),
        ("D.indexAxis", vec![json!("y")]),
        ("D.label", vec![json!(long.clone()), json!(marks.clone())]),
        (
            "D.datalabels",
            vec![json!({"display": true, "rotation": 1e308, "padding": -1e308})],
        ),
        (
            "options.plugins.annotation.annotations",
            vec![
                json!([{"type": "line", "yMin": 1e308, "yMax": -1e308, "borderDash": [1e-6], "label": {"display": true, "content": long.clone()}}]),
                json!([{"type": "box", "xMin": -1e308, "xMax": 1e308, "borderRadius": 1e308, "label": {"display": true, "content": "a", "font": {"size": 1e9}}}]),
                json!([{"type": "ellipse", "xMin": 0, "xMax": 1e308, "rotation": 1e308}]),
                json!([{"type": "point", "xValue": 1, "yValue": 1, "radius": 1e9, "pointStyle": "star"}]),
                json!([{"type": "polygon", "xValue": 1, "yValue": 1, "sides": 1e9, "radius": 1e308}]),
                json!([{"type": "label", "xValue": 1, "yValue": 1, "content": vec!["x"; 5000], "callout": {"display": true}}]),
                json!([{"type": "line", "scaleID": "x", "value": 1, "curve": true, "arrowHeads": {"start": {"display": true, "length": 1e308}}}]),
            ],
        ),
    ]
}

/// Every numeric, string and array node path of `v` (at most `cap`), for the mutations.
fn nodes(v: &Value, cap: usize) -> Vec<Vec<Key>> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<Key>, &Value)> = vec![(Vec::new(), v)];
    while let Some((path, v)) = stack.pop() {
        if out.len() >= cap {
            break;
        }
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    let mut p = path.clone();
                    p.push(Key::Field(k.clone()));
                    stack.push((p, c));
                }
            }
            Value::Array(a) => {
                out.push(path.clone());
                for (i, c) in a.iter().enumerate().take(64) {
                    let mut p = path.clone();
                    p.push(Key::Index(i));
                    stack.push((p, c));
                }
            }
            Value::Number(_) | Value::String(_) | Value::Bool(_) | Value::Null => out.push(path),
        }
    }
    out
}

#[derive(Clone)]
enum Key {
    Field(String),
    Index(usize),
}

fn get<'a>(v: &'a Value, path: &[Key]) -> Option<&'a Value> {
    let mut v = v;
    for k in path {
        v = match k {
            Key::Field(f) => v.get(f.as_str())?,
            Key::Index(i) => v.get(*i)?,
        };
    }
    Some(v)
}

fn at<'a>(v: &'a mut Value, path: &[Key]) -> Option<&'a mut Value> {
    let mut v = v;
    for k in path {
        v = match k {
            Key::Field(f) => v.get_mut(f.as_str())?,
            Key::Index(i) => v.get_mut(*i)?,
        };
    }
    Some(v)
}

/// Sets `path` (with `S`/`D` expanded) in `chart` to `value`, making the objects on the way.
fn set_option(chart: &mut Value, path: &str, value: &Value) {
    let parts: Vec<&str> = path.split('.').collect();
    let targets: Vec<Vec<String>> = match parts[0] {
        "D" => {
            let n = chart["data"]["datasets"].as_array().map_or(0, Vec::len);
            (0..n)
                .map(|i| {
                    let mut p = vec!["data".into(), "datasets".into(), i.to_string()];
                    p.extend(parts[1..].iter().map(|s| s.to_string()));
                    p
                })
                .collect()
        }
        _ if parts.get(2) == Some(&"S") => {
            let mut keys: Vec<String> = chart["options"]["scales"]
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            if keys.is_empty() {
                keys = vec!["x".into(), "y".into(), "r".into()];
            }
            keys.into_iter()
                .map(|k| {
                    let mut p: Vec<String> = vec!["options".into(), "scales".into(), k];
                    p.extend(parts[3..].iter().map(|s| s.to_string()));
                    p
                })
                .collect()
        }
        _ => vec![parts.iter().map(|s| s.to_string()).collect()],
    };
    for path in targets {
        if let Some(v) = slot(chart, &path) {
            *v = value.clone();
        }
    }
}

/// The value at `path`, objects made on the way; `None` past the end of an array.
fn slot<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let Some((seg, rest)) = path.split_first() else {
        return Some(v);
    };
    let next = match v {
        Value::Array(a) => a.get_mut(seg.parse::<usize>().ok()?)?,
        other => {
            if !other.is_object() {
                *other = Value::Object(Map::new());
            }
            let m = other.as_object_mut()?;
            m.entry(seg.clone()).or_insert(Value::Null)
        }
    };
    slot(next, rest)
}

/// The bases: every gallery config, then random configs.
fn gallery() -> Result<Vec<(String, Value)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/examples");
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| dir.display().to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p)?)?;
        if let Some(cfg) = v.get("config") {
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((name, cfg.clone()));
        }
    }
    Ok(out)
}

/// Case `index` of campaign `seed`: a base and one to four mutations.
pub fn case(
    bases: &[(String, Value)],
    table: &[(&str, Vec<Value>)],
    seed: u64,
    index: u64,
) -> Case {
    let mut rng = Rng::for_case(seed ^ 0x4057_11e5, index);
    let (mut name, mut chart) = if rng.chance(0.6) && !bases.is_empty() {
        let (n, c) = &bases[rng.int(0, bases.len() as i64 - 1) as usize];
        (n.clone(), c.clone())
    } else {
        let r = random::case(seed, index);
        (r.name, r.body["chart"].clone())
    };
    for _ in 0..rng.int(1, 4) {
        let op = rng.int(0, 9);
        match op {
            0..=4 => {
                let (path, values) = &table[rng.int(0, table.len() as i64 - 1) as usize];
                let v = &values[rng.int(0, values.len() as i64 - 1) as usize];
                set_option(&mut chart, path, v);
                name.push_str(&format!(" {path}={}", short(v)));
            }
            5 | 6 => {
                let all = nodes(&chart, 20_000);
                let Some(p) = all.get(rng.int(0, all.len() as i64 - 1).max(0) as usize) else {
                    continue;
                };
                let x = rng.pick(EXTREMES);
                if let Some(v) = at(&mut chart, p) {
                    if v.is_number() || rng.chance(0.3) {
                        *v = json!(x);
                        name.push_str(&format!(" {}={x:e}", show(p)));
                    }
                }
            }
            7 => {
                let all = nodes(&chart, 20_000);
                let Some(p) = all.get(rng.int(0, all.len() as i64 - 1).max(0) as usize) else {
                    continue;
                };
                let swap = rng.pick(&[
                    json!(null),
                    json!(""),
                    json!([]),
                    json!({}),
                    json!(true),
                    json!("1e308"),
                    json!([[[1]]]),
                ]);
                if let Some(v) = at(&mut chart, p) {
                    *v = swap.clone();
                    name.push_str(&format!(" {}={}", show(p), short(&swap)));
                }
            }
            8 => {
                // Grow an array towards the budgets.
                let arrays: Vec<Vec<Key>> = nodes(&chart, 20_000)
                    .into_iter()
                    .filter(|p| {
                        get(&chart, p).is_some_and(|v| v.as_array().is_some_and(|a| !a.is_empty()))
                    })
                    .collect();
                let Some(p) = arrays.get(rng.int(0, arrays.len() as i64 - 1).max(0) as usize)
                else {
                    continue;
                };
                let n = rng.pick(&[1_000usize, 10_000, 50_000, 99_000]);
                if let Some(Value::Array(a)) = at(&mut chart, p) {
                    let len = a.len();
                    // At most ~4 MB of JSON: the generator must not be what runs out of memory.
                    let size = a
                        .iter()
                        .take(8)
                        .map(|e| e.to_string().len())
                        .max()
                        .unwrap_or(1);
                    let n = n.min(4_000_000 / (size + 1)).max(len);
                    let grown: Vec<Value> = (0..n)
                        .map(|i| {
                            let mut e = a[i % len].clone();
                            if let Some(x) = e.as_f64() {
                                e = json!(x + (i % 97) as f64);
                            }
                            e
                        })
                        .collect();
                    *a = grown;
                    name.push_str(&format!(" {}x{n}", show(p)));
                }
            }
            _ => {
                let all = nodes(&chart, 20_000);
                let strings: Vec<&Vec<Key>> = all
                    .iter()
                    .filter(|p| get(&chart, p).is_some_and(Value::is_string))
                    .collect();
                let Some(p) = strings
                    .get(rng.int(0, strings.len() as i64 - 1).max(0) as usize)
                    .map(|p| (*p).clone())
                else {
                    continue;
                };
                let s = rng.pick(&[
                    "W".repeat(10_000),
                    format!("a{}", "\u{301}".repeat(9_999)),
                    "\u{202e}ab\u{2066}".repeat(2_000),
                    "x\n".repeat(5_000),
                    "👩‍👩‍👧‍👦".repeat(1_000),
                ]);
                if let Some(v) = at(&mut chart, &p) {
                    *v = json!(s);
                    name.push_str(&format!(" {}=<long>", show(&p)));
                }
            }
        }
    }
    let (w, h) = rng.pick(&[(800, 600), (400, 300), (1000, 1000)]);
    let format = rng.pick(&["png", "png", "png", "svg", "pdf"]);
    Case {
        name,
        body: json!({"chart": chart, "width": w, "height": h, "devicePixelRatio": 1, "format": format}),
    }
}

fn show(p: &[Key]) -> String {
    p.iter()
        .map(|k| match k {
            Key::Field(f) => f.clone(),
            Key::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

/// Validates `body` as the service does and renders it on a worker thread, waiting up to
/// `deadline` + 5 s.
pub fn run_case(engine: &Arc<Engine>, body: &Value, deadline: Duration) -> (Outcome, Duration) {
    let started = Instant::now();
    let opts = match RenderOptions::from_json_with_limits(body, engine.limits()) {
        Ok(o) => o,
        Err(_) => return (Outcome::Refused, started.elapsed()),
    };
    let (tx, rx) = mpsc::channel();
    let engine = Arc::clone(engine);
    let cancel = Cancel::with_deadline(started + deadline);
    std::thread::Builder::new()
        .name("sweep-render".into())
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match opts.format {
                ImageFormat::Svg => engine
                    .render_vector_with(&opts, VectorFormat::Svg, &cancel)
                    .map(|_| ()),
                ImageFormat::Pdf => engine
                    .render_vector_with(&opts, VectorFormat::Pdf, &cancel)
                    .map(|_| ()),
                _ => engine
                    .render_with(&opts, &cancel)
                    .map(|out| engine.recycle(out.bitmap)),
            }));
            let _ = tx.send(r);
        })
        .expect("thread");
    let outcome = match rx.recv_timeout(deadline + Duration::from_secs(5)) {
        Err(_) => Outcome::Stuck,
        Ok(Err(p)) => Outcome::Panicked(
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default(),
        ),
        Ok(Ok(Err(Error::Cancelled))) => Outcome::Cancelled(started.elapsed()),
        Ok(Ok(Err(Error::Limit { .. }))) => Outcome::Refused,
        Ok(Ok(_)) => Outcome::Done,
    };
    (outcome, started.elapsed())
}

pub fn run(cli: Cli) -> Result<()> {
    let bases = gallery()?;
    let table = hostile_options();
    let engine = Arc::new(Engine::new());
    let deadline = Duration::from_secs_f64(cli.deadline);
    let marker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/sweep-current.txt");
    let (mut refused, mut done, mut reported, mut stuck) = (0, 0, 0, 0);
    for i in cli.from..cli.from + cli.cases {
        let c = case(&bases, &table, cli.seed, i);
        std::fs::write(&marker, format!("{i} {}\n", c.name))?;
        let (outcome, took) = run_case(&engine, &c.body, deadline);
        let slow = took > deadline.mul_f64(0.75);
        match &outcome {
            Outcome::Refused if !slow => refused += 1,
            Outcome::Done if !slow => done += 1,
            _ => {
                reported += 1;
                println!(
                    "case {i}: {outcome:?} in {:.2}s: {}",
                    took.as_secs_f64(),
                    c.name
                );
                if let Some(dir) = &cli.out {
                    std::fs::create_dir_all(dir)?;
                    std::fs::write(
                        dir.join(format!("case-{i}.json")),
                        serde_json::to_vec(&c.body)?,
                    )?;
                }
            }
        }
        if outcome == Outcome::Stuck {
            stuck += 1;
            // Each stuck render keeps a core: stop before the machine is full of them.
            anyhow::ensure!(stuck < 2, "two stuck renders; stopping at case {i}");
        }
    }
    println!(
        "{} cases: {done} drawn, {refused} refused, {reported} reported",
        cli.cases
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short run: every case ends in a designed outcome within its deadline.
    #[test]
    fn a_short_sweep_ends_in_designed_outcomes() {
        let bases = gallery().unwrap();
        let table = hostile_options();
        let engine = Arc::new(Engine::new());
        for i in 0..12 {
            let c = case(&bases, &table, 7, i);
            let (outcome, _) = run_case(&engine, &c.body, Duration::from_secs(60));
            assert!(
                matches!(outcome, Outcome::Refused | Outcome::Done),
                "case {i} ({}): {outcome:?}",
                c.name
            );
        }
    }
}
