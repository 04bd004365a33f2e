//! `cargo xtask fixtures [--dir DIR] [--out DIR] [--filter TEXT] [--verbose]`: renders an
//! image-fixtures folder with the skia engine at the harness's settings, compares each case
//! with its reference PNG by the pixelmatch rule (fixtures README, "Comparing") and prints the
//! score per area. For the two shared suites it also holds the run against the suite's pass
//! list (`fixtures/chartjs-pass.txt`, `fixtures/plugin-pass.txt`) and fails on a regression;
//! the same check runs as chart-raster-skia's integration test `image_fixtures`. The harness
//! itself is the `chart-fixtures` crate.

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use chart_fixtures::{render_all, Ratchet, Suite};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Render an image-fixtures folder with the skia engine and compare it with the reference
/// PNGs (pixelmatch); for the shared suites, fail when a case of the pass list regresses.
#[derive(FromArgs)]
#[argh(subcommand, name = "fixtures")]
pub struct Cli {
    /// the cases folder (default: ../shared/chartjs-fixtures/dev)
    #[argh(option, default = "Suite::Chartjs.default_dir()")]
    dir: PathBuf,
    /// write each rendering and its diff image below this folder
    #[argh(option)]
    out: Option<PathBuf>,
    /// only the cases whose name contains this text
    #[argh(option)]
    filter: Option<String>,
    /// print the passing cases too
    #[argh(switch, short = 'v')]
    verbose: bool,
}

pub fn run(opts: Cli) -> Result<()> {
    let results = render_all(&opts.dir, opts.out.as_deref(), opts.filter.as_deref())
        .with_context(|| format!("rendering the fixtures of {}", opts.dir.display()))?;
    for r in &results {
        if !r.passed {
            println!("FAIL {} ({})", r.name, r.detail);
        } else if opts.verbose {
            println!("pass {} ({})", r.name, r.detail.replace(" > ", " <= "));
        }
    }
    let mut areas: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in &results {
        let e = areas.entry(&r.area).or_default();
        e.1 += 1;
        if r.passed {
            e.0 += 1;
        }
    }
    for (area, (pass, total)) in &areas {
        println!("{area}: {pass}/{total}");
    }
    let passed = results.iter().filter(|r| r.passed).count();
    println!("{} passed, {} failed", passed, results.len() - passed);
    let Some(suite) = Suite::of_dir(&opts.dir) else {
        return Ok(());
    };
    let listed = suite.pass_list()?;
    let ratchet = Ratchet::check(&listed, &results, opts.filter.is_none());
    for name in &ratchet.newly_passing {
        println!(
            "newly passing (add to {}): {name}",
            suite.pass_list_path().display()
        );
    }
    if !ratchet.regressed.is_empty() {
        bail!(
            "cases listed in {} no longer pass:\n{}",
            suite.pass_list_path().display(),
            ratchet.regressed.join("\n")
        );
    }
    Ok(())
}
