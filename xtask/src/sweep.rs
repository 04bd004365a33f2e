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

mod http;
mod plugins;
mod table;

use table::{hostile_options, EXTREMES};

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
    /// send the cases through the HTTP layer of an in-process server instead (GET /render
    /// query strings, GET|POST /chart QuickChart parameters and JavaScript literals, headers)
    #[argh(switch)]
    http: bool,
    /// report cases whose peak resident memory grows by more than this many MiB (default 1024)
    #[argh(option, default = "1024")]
    max_rss_mib: u64,
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
    /// Drawn, but the encoded image is larger than [`MAX_OUTPUT`] bytes.
    Large(usize),
}

/// Encoded images larger than this are reported: what the cache and a client would hold.
const MAX_OUTPUT: usize = 64 << 20;

/// One mutated request.
pub struct Case {
    /// Base config and the mutations applied, for the report.
    pub name: String,
    /// The `POST /render` body.
    pub body: Value,
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
            // A grown `datasets` array holds up to 99,000: a copy of a long value in each is
            // the generator running out of memory (23 GB, seed 4, an OOM kill), past the
            // 1,000 datasets the budget lets in anyway.
            let n = chart["data"]["datasets"]
                .as_array()
                .map_or(0, Vec::len)
                .min(1_001);
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
    let (mut name, mut chart) = if rng.chance(0.2) {
        plugins::chart(&mut rng)
    } else if rng.chance(0.6) && !bases.is_empty() {
        let (n, c) = &bases[rng.int(0, bases.len() as i64 - 1) as usize];
        (n.clone(), c.clone())
    } else {
        let r = random::case(seed, index);
        (r.name, r.body["chart"].clone())
    };
    for _ in 0..rng.int(1, 4) {
        let op = rng.int(0, 11);
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
            10 => {
                // Every number of the config at once (an option nobody tried alone).
                let x = rng.pick(EXTREMES);
                let mut n = 0;
                for p in nodes(&chart, 20_000) {
                    if let Some(v) = at(&mut chart, &p).filter(|v| v.is_number()) {
                        if rng.chance(0.5) {
                            *v = json!(x);
                            n += 1;
                        }
                    }
                }
                name.push_str(&format!(" {n} numbers={x:e}"));
            }
            11 => {
                // Deep or wide JSON under an option or a dataset.
                let (path, v) = shape(&mut rng);
                set_option(&mut chart, path, &v);
                name.push_str(&format!(" {path}={}", short(&v)));
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
    let format = rng.pick(&["png", "png", "png", "svg", "pdf", "jpeg", "webp"]);
    Case {
        name,
        body: json!({"chart": chart, "width": w, "height": h, "devicePixelRatio": 1, "format": format}),
    }
}

/// A deeply nested or very wide value and where to put it.
fn shape(rng: &mut Rng) -> (&'static str, Value) {
    let path = rng.pick(&[
        "options.plugins.x",
        "data.datasets.0.data",
        "options.scales.S.ticks",
        "options.plugins.annotation.annotations",
        "data.datasets.0.backgroundColor",
        "data.labels",
    ]);
    let depth = rng.pick(&[10usize, 60, 63, 64, 65, 200]);
    let v = match rng.int(0, 3) {
        0 => {
            let mut v = json!(1);
            for _ in 0..depth {
                v = json!([v]);
            }
            v
        }
        1 => {
            let mut v = json!({"a": 1});
            for _ in 0..depth {
                v = json!({"a": v, "b": [1, {"c": null}]});
            }
            v
        }
        2 => {
            let keys = rng.pick(&[1_000usize, 100_000]);
            Value::Object((0..keys).map(|i| (format!("k{i}"), json!(i))).collect())
        }
        _ => json!(vec![json!({}); rng.pick(&[1_000usize, 200_000])]),
    };
    (path, v)
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
                    .map(|v| v.bytes.len()),
                ImageFormat::Pdf => engine
                    .render_vector_with(&opts, VectorFormat::Pdf, &cancel)
                    .map(|v| v.bytes.len()),
                format => engine.render_with(&opts, &cancel).map(|out| {
                    // The encoders see what the service would give them.
                    let size = chart_raster::encode(&out.bitmap, format, opts.quality)
                        .map_or(0, |b| b.len());
                    engine.recycle(out.bitmap);
                    size
                }),
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
        Ok(Ok(Ok(size))) if size > MAX_OUTPUT => Outcome::Large(size),
        Ok(Ok(_)) => Outcome::Done,
    };
    (outcome, started.elapsed())
}

pub fn run(cli: Cli) -> Result<()> {
    let bases = gallery()?;
    let table = hostile_options();
    let engine = Arc::new(Engine::new());
    let deadline = Duration::from_secs_f64(cli.deadline);
    if cli.http {
        let cases = cli.from..cli.from + cli.cases;
        http::run(cases, cli.seed, deadline, |i| {
            case(&bases, &table, cli.seed, i)
        })?;
        return Ok(());
    }
    let marker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/sweep-current.txt");
    let (mut refused, mut done, mut reported, mut stuck) = (0, 0, 0, 0);
    for i in cli.from..cli.from + cli.cases {
        let c = case(&bases, &table, cli.seed, i);
        std::fs::write(&marker, format!("{i} {}\n", c.name))?;
        // Peak memory per case over what the process held before it (freed memory the
        // allocator keeps counts in both): Linux resets VmHWM on writing 5 to clear_refs.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = crate::loadtest::status_mib("self", "VmRSS").unwrap_or(0.0);
        let (outcome, took) = run_case(&engine, &c.body, deadline);
        let peak =
            crate::loadtest::status_mib("self", "VmHWM").map(|m| (m - before).max(0.0) as u64);
        let slow = took > deadline.mul_f64(0.75);
        let heavy = peak.is_some_and(|m| m > cli.max_rss_mib);
        match &outcome {
            Outcome::Refused if !slow && !heavy => refused += 1,
            Outcome::Done if !slow && !heavy => done += 1,
            _ => {
                reported += 1;
                println!(
                    "case {i}: {outcome:?} in {:.2}s, peak +{} MiB: {}",
                    took.as_secs_f64(),
                    peak.unwrap_or(0),
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

    /// A short run: every case ends in a designed outcome within its deadline (drawn,
    /// refused, or stopped at it: a word cloud of a 10,000-character word takes 3.5 s in a
    /// release build).
    #[test]
    fn a_short_sweep_ends_in_designed_outcomes() {
        let bases = gallery().unwrap();
        let table = hostile_options();
        let engine = Arc::new(Engine::new());
        let deadline = Duration::from_secs(20);
        for i in 0..12 {
            let c = case(&bases, &table, 7, i);
            let (outcome, _) = run_case(&engine, &c.body, deadline);
            let stopped = |d: &Duration| *d < deadline + Duration::from_secs(2);
            assert!(
                matches!(&outcome, Outcome::Refused | Outcome::Done)
                    || matches!(&outcome, Outcome::Cancelled(d) if stopped(d)),
                "case {i} ({}): {outcome:?}",
                c.name
            );
        }
    }

    /// A short run through the HTTP layer: every request is answered, none with a 500, and
    /// the service answers `/health` after each.
    #[test]
    fn a_short_http_sweep_is_answered() {
        let bases = gallery().unwrap();
        let table = hostile_options();
        let reported = http::run(0..12, 7, Duration::from_secs(60), |i| {
            case(&bases, &table, 7, i)
        })
        .unwrap();
        assert_eq!(reported, 0);
    }
}
