//! `cargo xtask ci`: the checks of CI, in order, as one command (in the manner of
//! rust-analyzer's xtask). `.ci/run` installs the system packages and tools (Chromium, fonts,
//! cargo-deny), fetches the crates and then calls this; a developer with the same tools can
//! run it as is.
//!
//! Steps: format, build, clippy, docs, rust-version, package, licences and sources
//! (cargo-deny), then the README's test command (`cargo xtask browser-assets && cargo test
//! --workspace`) with `CHART_RASTER_REQUIRE_BROWSER=1`, `CHART_RASTER_REQUIRE_REDIS=1` and
//! `CHART_RASTER_REQUIRE_VECTOR_TOOLS=1`, so that a skipped browser, Redis or SVG/PDF tool test
//! fails; then every example of the chart-raster library is run.
//!
//! Every cargo call gets `RUSTFLAGS="-D warnings"`: warnings are denied everywhere, and one
//! set of flags means the workspace compiles once (a RUSTFLAGS change rebuilds everything).
//! `.ci/run` exports the same value before building xtask itself.

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use std::process::Command;
use std::time::Instant;

/// The flags of every cargo call in CI.
const RUSTFLAGS: &str = "-D warnings";

/// Run CI's checks after the system packages: format, build, clippy, cargo-deny, then the
/// README's test command with CHART_RASTER_REQUIRE_BROWSER=1.
#[derive(FromArgs)]
#[argh(subcommand, name = "ci")]
pub struct Cli {}

pub fn run(_: Cli) -> Result<()> {
    let started = Instant::now();
    if std::env::var("RUSTFLAGS").as_deref() != Ok(RUSTFLAGS) {
        println!(
            "note: RUSTFLAGS is not {RUSTFLAGS:?} in this shell, so the workspace builds apart from \
             this xtask binary (.ci/run exports it)"
        );
    }
    let step = |name: &str| println!("\n== {name} ({}s)", started.elapsed().as_secs());

    step("format");
    cargo(&["fmt", "--all", "--check"])?;
    step("build");
    cargo(&["build", "--workspace", "--all-targets"])?;
    step("clippy");
    cargo(&["clippy", "--workspace", "--all-targets", "--quiet"])?;
    step("docs");
    // The API documentation of every library crate, with broken and private links denied.
    let mut doc = cargo_command(&["doc", "--no-deps", "--workspace", "--quiet"]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    status(doc, "cargo doc --no-deps --workspace")?;
    step("rust-version");
    rust_version_covers_dependencies()?;
    step("package");
    // Every published crate packs (manifests, readme, licence files, path dependencies with
    // versions); the publish = false ones (xtask, chart-fixtures) are left out. Offline, as
    // cargo-deny: CI has the crates fetched but no network. Dirty: a developer's edits should
    // not stop the check.
    cargo(&[
        "package",
        "--workspace",
        "--exclude",
        "xtask",
        "--exclude",
        "chart-fixtures",
        "--no-verify",
        "--allow-dirty",
        "--offline",
        "--quiet",
    ])?;
    step("licences and sources");
    // Advisories need the advisory database from the network, which CI does not have.
    cargo(&["deny", "--offline", "check", "bans", "licenses", "sources"])?;
    step("tests");
    // The README's test command; in CI a skipped browser test is a failure.
    crate::browser_assets::run(Default::default())?;
    let mut test = cargo_command(&["test", "--workspace"]);
    test.env("CHART_RASTER_REQUIRE_BROWSER", "1");
    // .ci/run installs redis-server: the shared-cache tests must run, not skip.
    test.env("CHART_RASTER_REQUIRE_REDIS", "1");
    // .ci/run installs rsvg-convert, pdftoppm and pdftotext: the SVG and PDF checks must run.
    test.env("CHART_RASTER_REQUIRE_VECTOR_TOOLS", "1");
    status(test, "cargo test --workspace")?;
    step("library examples");
    // `cargo test` builds examples but does not run them: run each one (they check their
    // own output and exit non-zero on a wrong answer).
    for example in library_examples()? {
        cargo(&[
            "run",
            "--quiet",
            "-p",
            "chart-raster",
            "--example",
            &example,
        ])?;
    }
    step("done");
    Ok(())
}

/// Fails when a package of the locked graph declares a `rust-version` newer than the
/// workspace's: the crates' `rust-version` would then promise a toolchain they cannot be built
/// with (only the installed rustc is tested; this keeps the declared minimum honest).
fn rust_version_covers_dependencies() -> Result<()> {
    let out = cargo_command(&["metadata", "--format-version", "1", "--offline", "--locked"])
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    // "1.88" and "1.88.0" are the same version: compare (major, minor, patch).
    let parse = |v: &str| {
        let mut parts = v.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
        let mut next = || parts.next().unwrap_or(0);
        (next(), next(), next())
    };
    let packages = meta["packages"]
        .as_array()
        .context("cargo metadata: no packages")?;
    let ours = packages
        .iter()
        .find(|p| p["name"] == "chart-raster")
        .and_then(|p| p["rust_version"].as_str())
        .context("chart-raster has no rust-version")?;
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|p| Some((p["name"].as_str()?, p["rust_version"].as_str()?)))
        .filter(|(_, v)| parse(v) > parse(ours))
        .map(|(name, v)| format!("{name} ({v})"))
        .collect();
    if !newer.is_empty() {
        bail!(
            "the workspace's rust-version is {ours}, but these dependencies need more: {}; raise \
             [workspace.package] rust-version or pick older versions",
            newer.join(", ")
        );
    }
    println!("rust-version {ours} covers every locked dependency");
    Ok(())
}

/// The names of `crates/chart-raster/examples/*.rs`, sorted.
fn library_examples() -> Result<Vec<String>> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/chart-raster/examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    names.sort();
    if names.is_empty() {
        bail!("no examples in {}", dir.display());
    }
    Ok(names)
}

/// `cargo <args>` with CI's flags.
fn cargo_command(args: &[&str]) -> Command {
    // $CARGO: the cargo that runs this xtask (same toolchain); plain `cargo` otherwise.
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(args).env("RUSTFLAGS", RUSTFLAGS);
    cmd
}

fn cargo(args: &[&str]) -> Result<()> {
    status(cargo_command(args), &format!("cargo {}", args.join(" ")))
}

fn status(mut cmd: Command, what: &str) -> Result<()> {
    let status = cmd.status().with_context(|| format!("starting {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Runs in `cargo test --workspace` (CI's test step): a dependency update that needs a
    /// newer rustc than the declared `rust-version` fails here.
    #[test]
    fn rust_version_covers_every_locked_dependency() {
        if let Err(e) = super::rust_version_covers_dependencies() {
            panic!("{e:#}");
        }
    }
}
