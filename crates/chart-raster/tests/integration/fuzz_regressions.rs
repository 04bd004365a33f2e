//! Replays every fuzzing finding kept in `fuzz/regressions/` (one JSON case per finding,
//! written by the fuzz crate's `replay` tool and minimised by hand) through the library as
//! the fuzz target that found it ran it. Each must end in a designed outcome (an image, a
//! request error, a budget error, a cancellation): no panic, and no render running past its
//! deadline. See the README, "Fuzzing".

use chart_raster::skia::Engine;
use chart_raster::spec::{Cancel, Limits};
use chart_raster::{ImageFormat, RenderOptions};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The fuzz targets' canvas and deadline (fuzz/src/lib.rs: `CANVAS`, `RENDER_DEADLINE`).
const CANVAS: (f64, f64) = (160.0, 120.0);
const DEADLINE: Duration = Duration::from_secs(1);

/// How long one case may take in all: the deadline, plus the parsing, resolution and
/// encoding around it in a debug build on a busy machine.
const BOUND: Duration = Duration::from_secs(15);

// `fuzz_limits()`: the fuzz targets' budgets, shared with the fuzz crate (fuzz/src/limits.rs).
include!("../../../../fuzz/src/limits.rs");

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions")
}

/// What one case ended in, for the failure message.
fn replay(case: &Value) -> Result<String, String> {
    let kind = case["kind"].as_str().ok_or("case without a kind")?;
    let input = &case["input"];
    match kind {
        "request" => {
            let body = input.as_str().ok_or("request input must be a string")?;
            Ok(match RenderOptions::from_json_bytes(body.as_bytes()) {
                Ok(o) => format!("accepted, hash {}", o.hash()),
                Err(e) => format!("rejected: {e}"),
            })
        }
        "query" => {
            let text = input.as_str().ok_or("query input must be a string")?;
            let pairs = text
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| p.split_once('=').unwrap_or((p, "")));
            Ok(match RenderOptions::from_query(pairs) {
                Ok(o) => format!("accepted, hash {}", o.hash()),
                Err(e) => format!("rejected: {e}"),
            })
        }
        "resolve" => {
            let config = input.as_object().ok_or("resolve input must be an object")?;
            // As the fuzz target and the service: the default budgets, then resolution.
            if let Err(e) = chart_raster::spec::budget::check_chart(config, &Limits::default()) {
                return Ok(format!("over a budget: {e}"));
            }
            Ok(match chart_raster::spec::resolve_chart(config) {
                Ok((_, msgs)) => format!("resolved, {} message(s)", msgs.len()),
                Err(msgs) => format!("not a chart, {} message(s)", msgs.len()),
            })
        }
        "render" => {
            let config = input.as_object().ok_or("render input must be an object")?;
            let format = case["format"]
                .as_str()
                .and_then(ImageFormat::parse)
                .unwrap_or(ImageFormat::Png);
            // The service's order: the input budgets first, then the engine.
            if let Err(e) = chart_raster::spec::budget::check_chart(config, &fuzz_limits()) {
                return Ok(format!("over a budget: {e}"));
            }
            let mut opts = RenderOptions::new(config.clone());
            opts.format = format;
            render(opts)
        }
        "render-request" => {
            let body = input
                .as_str()
                .ok_or("render-request input must be a string")?;
            match RenderOptions::from_json_bytes_with_limits(body.as_bytes(), &fuzz_limits()) {
                Ok(opts) => render(opts),
                Err(e) => Ok(format!("rejected: {e}")),
            }
        }
        other => Err(format!("unknown kind {other:?}")),
    }
}

/// The render targets' render: the small canvas at dpr 1, the deadline, then the encoder.
fn render(mut opts: RenderOptions) -> Result<String, String> {
    opts.width = CANVAS.0;
    opts.height = CANVAS.1;
    opts.device_pixel_ratio = 1.0;
    let engine = Engine::new().with_limits(fuzz_limits());
    let start = Instant::now();
    let cancel = Cancel::with_deadline(start + DEADLINE);
    let out = match engine.render_with(&opts, &cancel) {
        Ok(out) => out,
        // Every engine error is a designed outcome (a budget, a cancellation, a size).
        Err(e) => return Ok(format!("engine error after {:?}: {e}", start.elapsed())),
    };
    let bytes = chart_raster::encode(&out.bitmap, opts.format, opts.quality)
        .map_err(|e| format!("the encoder refused a rendered bitmap: {e}"))?;
    if bytes.is_empty() {
        return Err("empty image".into());
    }
    Ok(format!(
        "{} bytes of {} in {:?}",
        bytes.len(),
        opts.format.as_str(),
        start.elapsed()
    ))
}

fn cases() -> Vec<(PathBuf, Value)> {
    let dir = regressions_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let v: Value = serde_json::from_slice(&text)
                .unwrap_or_else(|e| panic!("{}: not JSON: {e}", p.display()));
            (p, v)
        })
        .collect()
}

#[test]
fn every_fuzz_finding_ends_in_a_designed_outcome() {
    let cases = cases();
    assert!(!cases.is_empty(), "no cases in fuzz/regressions");
    let mut failures = Vec::new();
    for (path, case) in cases {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let note = case["note"].as_str().unwrap_or("").to_string();
        assert!(!note.is_empty(), "{name:?}: every case says what it found");
        let (tx, rx) = mpsc::channel();
        let start = Instant::now();
        // A thread per case: a panic or a render that never returns fails this case
        // instead of the whole run (a hung thread is left behind; the test fails anyway).
        std::thread::Builder::new()
            .name(format!("fuzz-case-{name:?}"))
            .spawn(move || {
                let _ = tx.send(replay(&case));
            })
            .expect("spawning a replay thread");
        match rx.recv_timeout(BOUND) {
            Ok(Ok(outcome)) => eprintln!("{name:?}: {outcome} ({:?})", start.elapsed()),
            Ok(Err(e)) => failures.push(format!("{name:?}: {e}")),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                failures.push(format!("{name:?}: still running after {BOUND:?}"))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                failures.push(format!("{name:?}: panicked ({note})"))
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cases_are_objects_with_the_fields_replay_writes() {
    for (path, case) in cases() {
        let o: &Map<String, Value> = case.as_object().expect("a case is an object");
        for field in ["kind", "target", "note", "input"] {
            assert!(o.contains_key(field), "{}: no {field}", path.display());
        }
    }
}
