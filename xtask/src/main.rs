//! `cargo xtask <task>`: repository automation. Arguments are parsed with argh: each task is a
//! subcommand whose flags live beside its code (`cargo xtask <task> --help` lists them).
//!
//! - `fixtures`: render Chart.js's image tests with the skia engine and compare.
//! - `browser-assets`: fetch and verify the pinned JS bundles of the browser engine.
//! - `compare`: the skia and browser engines side by side.
//! - `loadtest`: cache-hit and cache-miss throughput of the service; `--soak`: the binary
//!   under twice its capacity with hostile requests mixed in.
//! - `bench-peers`: the service against Chart.js on @napi-rs/canvas in Node, over HTTP.
//! - `fuzz`: AFL++ campaigns over the targets in `fuzz/` (see xtask/src/fuzz.rs).
//! - `sweep`: extreme values pushed into gallery and random configs, each rendered under a
//!   watchdog (panics, renders that ignore their deadline, slow cases).
//! - `tidy`: the workspace's structure rules (layering, module cycles, file length).
//! - `ci`: what CI checks after installing system packages (fmt, build, clippy, cargo-deny,
//!   the README's test command).

mod bench_peers;
mod browser_assets;
mod ci;
mod compare;
mod fixtures;
mod fuzz;
mod loadtest;
mod sweep;
mod tidy;

use argh::FromArgs;

/// Repository tasks of chart-raster.
#[derive(FromArgs)]
struct Xtask {
    #[argh(subcommand)]
    task: Task,
}

#[derive(FromArgs)]
#[argh(subcommand)]
enum Task {
    Fixtures(fixtures::Cli),
    BrowserAssets(browser_assets::Cli),
    Compare(compare::Cli),
    Loadtest(loadtest::Cli),
    BenchPeers(bench_peers::Cli),
    Fuzz(fuzz::Cli),
    Sweep(sweep::Cli),
    Tidy(tidy::Cli),
    Ci(ci::Cli),
}

fn main() -> anyhow::Result<()> {
    let xtask: Xtask = argh::from_env();
    match xtask.task {
        Task::Fixtures(a) => fixtures::run(a),
        Task::BrowserAssets(a) => browser_assets::run(a),
        Task::Compare(a) => compare::run(a),
        Task::Loadtest(a) => loadtest::run(a),
        Task::BenchPeers(a) => bench_peers::run(a),
        Task::Fuzz(a) => fuzz::run(a),
        Task::Sweep(a) => sweep::run(a),
        Task::Tidy(a) => tidy::run(a),
        Task::Ci(a) => ci::run(a),
    }
}
