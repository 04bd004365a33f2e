//! `cargo xtask fixtures [--dir DIR] [--out DIR] [--filter TEXT] [--verbose]`: renders an
//! image-fixtures folder with the skia engine at the harness's settings, compares each case
//! with its reference PNG by the pixelmatch rule (fixtures README, "Comparing") and prints the
//! score per area. For the two shared suites it also holds the run against the suite's pass
//! list (`fixtures/chartjs-pass.txt`, `fixtures/plugin-pass.txt`) and fails on a regression;
//! the same check runs as chart-raster-skia's integration test `image_fixtures`. The harness
//! itself is the `chart-fixtures` crate.

use anyhow::{bail, Context, Result};
use chart_fixtures::{render_all, Ratchet, Suite};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of one run.
struct Options {
    dir: PathBuf,
    out: Option<PathBuf>,
    filter: Option<String>,
    verbose: bool,
}

pub fn run(args: &[String]) -> Result<()> {
    let mut opts = Options {
        dir: Suite::Chartjs.default_dir(),
        out: None,
        filter: None,
        verbose: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .with_context(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--dir" => opts.dir = PathBuf::from(value()?),
            "--out" => opts.out = Some(PathBuf::from(value()?)),
            "--filter" => opts.filter = Some(value()?),
            "--verbose" | "-v" => opts.verbose = true,
            "-h" | "--help" => {
                println!(
                    "cargo xtask fixtures [--dir DIR] [--out DIR] [--filter TEXT] [--verbose]"
                );
                return Ok(());
            }
            other => bail!("unknown argument {other:?}"),
        }
    }
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
