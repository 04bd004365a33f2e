//! Turns fuzzer inputs into readable regression cases, and optionally runs them.
//!
//! `replay TARGET FILE... [--run]` prints, for each input file, the JSON case that
//! `fuzz/regressions/` keeps (`{"note", "target", "kind", "seed", "format", "input"}`): the
//! request text, the query string, or the (mutated) chart config. Structure-aware targets
//! need the same `CHART_FUZZ_SEEDS` as the campaign. With `--run`, each case is also run as
//! its target runs it and the time it took is printed to stderr.
use chart_raster_fuzz::mutate::{mutate, Seeds};
use serde_json::{json, Value};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let run = args.iter().any(|a| a == "--run");
    args.retain(|a| a != "--run");
    let Some((target, files)) = args.split_first() else {
        eprintln!("usage: replay TARGET FILE... [--run]");
        std::process::exit(2);
    };
    let structured = target.ends_with("-struct");
    let seeds = structured.then(Seeds::from_env);
    let engine = run.then(chart_raster_fuzz::engine);
    for f in files {
        let data = match std::fs::read(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{f}: {e}");
                continue;
            }
        };
        let text = String::from_utf8_lossy(&data).into_owned();
        let case = match target.as_str() {
            "request" => json!({"kind": "request", "input": text}),
            "query" => json!({"kind": "query", "input": text}),
            "resolve" => match serde_json::from_slice::<Value>(&data) {
                Ok(v @ Value::Object(_)) => json!({"kind": "resolve", "input": v}),
                _ => json!({"kind": "resolve", "input": null, "note": "not a JSON object"}),
            },
            "render" => json!({"kind": "render-request", "input": text}),
            "resolve-struct" | "render-struct" => {
                let Some(m) = seeds.as_ref().and_then(|s| mutate(s, &data)) else {
                    eprintln!("{f}: under two bytes");
                    continue;
                };
                let kind = if target == "resolve-struct" {
                    "resolve"
                } else {
                    "render"
                };
                let format = chart_raster_fuzz::format_of(m.word).as_str();
                let seed = seeds.as_ref().map_or("", |s| s.name(m.seed));
                json!({"kind": kind, "seed": seed, "format": format, "input": m.config})
            }
            other => {
                eprintln!("unknown target {other}");
                std::process::exit(2);
            }
        };
        let mut case = case;
        if let Value::Object(o) = &mut case {
            o.insert("target".into(), json!(target));
            o.insert("found".into(), json!(f));
            o.entry("note").or_insert(json!(""));
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&case).unwrap_or_default()
        );
        if let Some(engine) = &engine {
            let t = Instant::now();
            match target.as_str() {
                "request" => chart_raster_fuzz::request(&data),
                "query" => chart_raster_fuzz::query(&data),
                "resolve" => chart_raster_fuzz::resolve_json(&data),
                "render" => chart_raster_fuzz::render_request(engine, &data),
                _ => {
                    if let Some(m) = seeds.as_ref().and_then(|s| mutate(s, &data)) {
                        if target == "resolve-struct" {
                            chart_raster_fuzz::resolve(&m.config);
                        } else {
                            let format = chart_raster_fuzz::format_of(m.word);
                            chart_raster_fuzz::render_config(engine, m.config, format);
                        }
                    }
                }
            }
            eprintln!("{f}: ran in {:?}", t.elapsed());
        }
    }
}
