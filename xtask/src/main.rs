//! `cargo xtask <task>`: repository automation.
//!
//! - `fixtures`: render Chart.js's image tests with the skia engine and compare.
//! - `browser-assets`: fetch and verify the pinned JS bundles of the browser engine.
//! - `compare`: the skia and browser engines side by side.
//! - `loadtest`: cache-hit and cache-miss throughput of the service; `--soak`: the binary
//!   under twice its capacity with hostile requests mixed in.
//! - `fuzz`: AFL++ campaigns over the targets in `fuzz/` (see xtask/src/fuzz.rs).
//! - `tidy`: the workspace's structure rules (layering, module cycles, file length).
//! - `ci`: what CI checks after installing system packages (fmt, build, clippy, cargo-deny,
//!   the README's test command).

mod browser_assets;
mod ci;
mod compare;
mod fixtures;
mod fuzz;
mod loadtest;
mod tidy;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let task = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    match task.as_str() {
        "fixtures" => fixtures::run(&rest),
        "browser-assets" => browser_assets::run(&rest),
        "compare" => compare::run(&rest),
        "loadtest" => loadtest::run(&rest),
        "fuzz" => fuzz::run(&rest),
        "tidy" => tidy::run(&rest),
        "ci" => ci::run(&rest),
        _ => anyhow::bail!(
            "unknown task {task:?}; tasks: fixtures, browser-assets, compare, loadtest, fuzz, tidy, ci"
        ),
    }
}
