//! The fidelity ratchet: Chart.js's own image tests (`../shared/chartjs-fixtures/dev`) and the
//! bundled plugins' (`../shared/plugin-fixtures/dev`) rendered with this engine and compared by
//! the pixelmatch rule of the fixtures README. Every case of the suite's pass list
//! (`fixtures/chartjs-pass.txt`, `fixtures/plugin-pass.txt`) must still pass; the lists only
//! grow. A regressed case is written to `target/tmp/<suite>/<area>/<case>.png` as expected |
//! actual | diff (red: counted pixels, yellow: anti-aliasing).
//!
//! Missing fixtures fail the test (a green run must mean the ratchet ran), unless
//! `CHART_RASTER_ALLOW_MISSING_FIXTURES=1`, which turns the failure into a printed skip, the
//! way `CHART_RASTER_REQUIRE_BROWSER` decides for the browser tests.

use chart_fixtures::{compare_case, over_white, render_all, side_by_side, write_png};
use chart_fixtures::{Engines, Ratchet, Suite};
use std::path::{Path, PathBuf};

#[test]
fn chartjs_fixtures_on_the_pass_list_still_pass() {
    check_suite(Suite::Chartjs);
}

#[test]
fn plugin_fixtures_on_the_pass_list_still_pass() {
    check_suite(Suite::Plugin);
}

fn check_suite(suite: Suite) {
    let dir = suite.default_dir();
    if !dir.is_dir() {
        let why = format!(
            "no {} at {} (the repository expects ../shared beside it)",
            suite.folder(),
            dir.display()
        );
        if std::env::var_os("CHART_RASTER_ALLOW_MISSING_FIXTURES").is_some_and(|v| v == "1") {
            eprintln!("skipping the {} ratchet: {why}", suite.folder());
            return;
        }
        panic!("{why}; set CHART_RASTER_ALLOW_MISSING_FIXTURES=1 to skip this test instead");
    }
    let listed = suite.pass_list().expect("the suite's pass list");
    let results = render_all(&dir, None, None).expect("render the fixtures");
    let ratchet = Ratchet::check(&listed, &results, true);
    let passed = results.iter().filter(|r| r.passed).count();
    println!("{}: {passed}/{} pass", suite.folder(), results.len());
    for name in &ratchet.newly_passing {
        println!(
            "newly passing (add to {}): {name}",
            suite.pass_list_path().display()
        );
    }
    if ratchet.regressed.is_empty() {
        return;
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(suite.folder());
    let images: Vec<String> = ratchet
        .regressed_names
        .iter()
        .map(|name| match write_failure(&dir, name, &out) {
            Ok(path) => format!("  {}", path.display()),
            Err(e) => format!("  {name}: no image ({e})"),
        })
        .collect();
    panic!(
        "cases listed in {} no longer pass:\n{}\nexpected | actual | diff:\n{}",
        suite.pass_list_path().display(),
        ratchet.regressed.join("\n"),
        images.join("\n")
    );
}

/// Renders the case again and writes expected | actual | diff, over white, as one PNG.
fn write_failure(dir: &Path, name: &str, out: &Path) -> Result<PathBuf, String> {
    let c = compare_case(
        dir,
        Path::new(&format!("{name}.json")),
        &Engines::for_dir(dir),
    )
    .map_err(|e| e.to_string())?;
    let path = out.join(format!("{name}.png"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let strip = side_by_side(&[
        &over_white(&c.expected),
        &over_white(&c.actual),
        &over_white(&c.diff),
    ]);
    write_png(&path, &strip).map_err(|e| e.to_string())?;
    Ok(path)
}
