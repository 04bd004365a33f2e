//! Rendering a fixtures folder and checking it against its pass list.

use crate::image::{read_png, write_png};
use crate::pixelmatch::pixelmatch;
use crate::{Error, Result};
use chart_raster_skia::text::TextEngine;
use chart_raster_skia::{Engine, Settings};
use chart_spec::{Bitmap, Rgba};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A fixtures set of `../shared`, with its pass list in `fixtures/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// Chart.js's own image tests (`../shared/chartjs-fixtures`).
    Chartjs,
    /// The bundled plugins' image tests (`../shared/plugin-fixtures`).
    Plugin,
}

impl Suite {
    /// Both suites.
    pub const ALL: [Suite; 2] = [Suite::Chartjs, Suite::Plugin];

    /// The folder name under `shared/`.
    pub fn folder(self) -> &'static str {
        match self {
            Suite::Chartjs => "chartjs-fixtures",
            Suite::Plugin => "plugin-fixtures",
        }
    }

    /// The suite whose cases folder `dir` is (`…/chartjs-fixtures/dev`), if any.
    pub fn of_dir(dir: &Path) -> Option<Suite> {
        let folder = dir.parent()?.file_name()?;
        Suite::ALL.into_iter().find(|s| folder == s.folder())
    }

    /// `../shared/<folder>/dev` relative to the repository root; a worktree nested deeper
    /// finds it in the nearest ancestor that has it. The path may not exist.
    pub fn default_dir(self) -> PathBuf {
        let root = repo_root();
        let first = root.join("../shared").join(self.folder()).join("dev");
        if first.is_dir() {
            return first;
        }
        root.ancestors()
            .map(|anc| anc.join("shared").join(self.folder()).join("dev"))
            .find(|p| p.is_dir())
            .unwrap_or(first)
    }

    /// `fixtures/<suite>-pass.txt`: the cases that pass today, one `area/case` a line.
    pub fn pass_list_path(self) -> PathBuf {
        let name = match self {
            Suite::Chartjs => "chartjs-pass.txt",
            Suite::Plugin => "plugin-pass.txt",
        };
        repo_root().join("fixtures").join(name)
    }

    /// The names of the pass list (blank lines and `#` comments left out).
    pub fn pass_list(self) -> Result<Vec<String>> {
        let path = self.pass_list_path();
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Io { path, source })?;
        Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect())
    }
}

/// The repository root (two folders above this crate).
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or(manifest)
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// `area/case`, the path below the cases folder without `.json`.
    pub name: String,
    /// The first folder of the name (`controller.bar`).
    pub area: String,
    /// Whether the case passed the comparison.
    pub passed: bool,
    /// `ratio > tolerance`, or why the case could not be compared.
    pub detail: String,
}

/// One compared case, images included.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Whether the mismatch ratio is within the case's tolerance.
    pub passed: bool,
    /// Mismatched pixels over all pixels (1 when the sizes differ).
    pub ratio: f64,
    /// The case's tolerance (README default 0.001).
    pub tolerance: f64,
    /// The reference image.
    pub expected: Bitmap,
    /// The skia engine's image.
    pub actual: Bitmap,
    /// pixelmatch's diff image (red: counted, yellow: anti-aliasing); blank when the sizes
    /// differ.
    pub diff: Bitmap,
}

/// The two engines a fixtures folder needs: system fonts, and the harness's sprite font
/// (`<dir>/../sprite`) for `"spriteText": true` cases.
pub struct Engines {
    system: Engine,
    sprite: std::result::Result<Engine, String>,
}

impl Engines {
    /// The engines for the cases folder `dir`. A missing sprite font is not an error here:
    /// the sprite cases then fail, each saying why.
    pub fn for_dir(dir: &Path) -> Engines {
        let sprite = match dir.parent() {
            Some(parent) => TextEngine::sprite(&parent.join("sprite"))
                .map(Engine::with_text)
                .map_err(|e| format!("sprite text unavailable: {e}")),
            None => Err("the cases folder has no parent".to_string()),
        };
        // `RASTER_THREADS=2` draws every case on two threads (the skia engine's bands of
        // rows), to check that the pixels are the same as on one.
        let two = std::env::var("RASTER_THREADS").is_ok_and(|v| v == "2");
        let threads = |engine: Engine| match two {
            true => engine.with_split_always(),
            false => engine,
        };
        Engines {
            system: threads(Engine::new()),
            sprite: sprite.map(threads),
        }
    }
}

/// Every `*.json` below `dir`, as paths relative to it, sorted.
pub fn list_cases(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        let io = |source| Error::Io {
            path: dir.to_path_buf(),
            source,
        };
        for e in std::fs::read_dir(dir).map_err(io)? {
            let p = e.map_err(io)?.path();
            if p.is_dir() {
                // Recursion on the fixtures' own folder depth (two or three levels), not on
                // user input.
                walk(base, &p, out)?;
            } else if p.extension().is_some_and(|x| x == "json") {
                if let Ok(rel) = p.strip_prefix(base) {
                    out.push(rel.to_path_buf());
                }
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Renders and compares every case of `dir` whose name contains `filter`, on up to two
/// threads (the machine is shared). With `out`, each rendering is written to
/// `<out>/<area>/<case>.png` and its diff beside it as `<case>.diff.png`.
pub fn render_all(dir: &Path, out: Option<&Path>, filter: Option<&str>) -> Result<Vec<CaseResult>> {
    let engines = Engines::for_dir(dir);
    let cases: Vec<PathBuf> = list_cases(dir)?
        .into_iter()
        .filter(|c| filter.is_none_or(|f| c.to_string_lossy().contains(f)))
        .collect();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 2);
    let chunks: Vec<Vec<PathBuf>> = (0..threads)
        .map(|t| cases.iter().skip(t).step_by(threads).cloned().collect())
        .collect();
    let mut results: Vec<CaseResult> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let engines = &engines;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|rel| run_case(dir, rel, out, engines))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(results)
}

fn run_case(dir: &Path, rel: &Path, out: Option<&Path>, engines: &Engines) -> CaseResult {
    let name = rel.with_extension("").to_string_lossy().replace('\\', "/");
    let area = name.split('/').next().unwrap_or_default().to_string();
    let compared = compare_case(dir, rel, engines).and_then(|c| {
        if let Some(base) = out.map(|o| o.join(rel.with_extension(""))) {
            write_outputs(&base, &c)?;
        }
        Ok(c)
    });
    let (passed, detail) = match compared {
        Ok(c) if c.expected.width == c.actual.width && c.expected.height == c.actual.height => {
            (c.passed, format!("{:.5} > {}", c.ratio, c.tolerance))
        }
        Ok(c) => (
            false,
            format!(
                "size {}x{} != reference {}x{}",
                c.actual.width, c.actual.height, c.expected.width, c.expected.height
            ),
        ),
        Err(e) => (false, e.to_string()),
    };
    CaseResult {
        name,
        area,
        passed,
        detail,
    }
}

/// `<base>.png` (the rendering) and `<base>.diff.png`.
fn write_outputs(base: &Path, c: &Comparison) -> Result<()> {
    if let Some(parent) = base.parent() {
        std::fs::create_dir_all(parent).map_err(|source| Error::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    write_png(&base.with_extension("png"), &c.actual)?;
    let name = format!(
        "{}.diff.png",
        base.file_name().unwrap_or_default().to_string_lossy()
    );
    write_png(&base.with_file_name(name), &c.diff)
}

/// Renders the case `rel` (a `.json` path below `dir`) at the harness's settings and compares
/// it with its reference PNG by the README's rule.
pub fn compare_case(dir: &Path, rel: &Path, engines: &Engines) -> Result<Comparison> {
    let path = dir.join(rel);
    let bytes = std::fs::read(&path).map_err(|source| Error::Io {
        path: path.clone(),
        source,
    })?;
    let case: Value = serde_json::from_slice(&bytes).map_err(|source| Error::Json {
        path: path.clone(),
        source,
    })?;
    let num = |v: Option<&Value>, d: f64| v.and_then(Value::as_f64).unwrap_or(d);
    let canvas = case.get("canvas");
    let width = num(canvas.and_then(|c| c.get("width")), 512.0);
    let height = num(canvas.and_then(|c| c.get("height")), 512.0);
    let mut config = case
        .get("config")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::Case("case has no config object".into()))?
        .clone();
    harness_options(&case, &mut config);
    let config = &config;
    // The README: the bitmap is `canvas * devicePixelRatio`, 1 unless the config sets
    // `options.devicePixelRatio`.
    let dpr = case
        .get("devicePixelRatio")
        .and_then(Value::as_f64)
        .or_else(|| {
            config
                .get("options")
                .and_then(|o| o.get("devicePixelRatio"))
                .and_then(Value::as_f64)
        })
        .unwrap_or(1.0);
    let threshold = num(case.get("threshold"), 0.1);
    let tolerance = num(case.get("tolerance"), 0.001);
    let sprite_text = case
        .get("spriteText")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let engine = if sprite_text {
        engines
            .sprite
            .as_ref()
            .map_err(|e| Error::Case(e.clone()))?
    } else {
        &engines.system
    };
    let settings = Settings {
        width: width as f32,
        height: height as f32,
        device_pixel_ratio: dpr as f32,
        background: Rgba::TRANSPARENT,
    };
    let actual = engine.render_chart(config, &settings)?.bitmap;
    let expected = read_png(&path.with_extension("png"))?;
    let mut diff = Bitmap::new(actual.width, actual.height);
    if (actual.width, actual.height) != (expected.width, expected.height) {
        return Ok(Comparison {
            passed: false,
            ratio: 1.0,
            tolerance,
            expected,
            actual,
            diff,
        });
    }
    let mismatched = pixelmatch(
        &expected.data,
        &actual.data,
        actual.width,
        actual.height,
        threshold,
        Some(&mut diff.data),
    );
    let ratio = mismatched as f64 / (f64::from(actual.width) * f64::from(actual.height)).max(1.0);
    Ok(Comparison {
        passed: ratio <= tolerance,
        ratio,
        tolerance,
        expected,
        actual,
        diff,
    })
}

/// What the harness that drew a case's reference image had and the service does not, set
/// as options the engine reads:
/// - `"dateAdapter": "moment"`: chartjs-adapter-moment's token language and default display
///   formats (the service, like its browser engine, has chartjs-adapter-date-fns): every
///   scale of `options.scales` gets `adapters.date.tokens: 'moment'` unless it names one.
/// - Chart.js's own fixtures (`source` in `test/fixtures/`) were drawn by a Chart.js after
///   4.5.1 whose arcs trim `spacing` by `spacingMode: 'angular'` by default (4.5.1, the
///   service's, has only the proportional rule): `options.spacingMode` is set unless the
///   config sets it there.
pub fn harness_options(case: &Value, config: &mut serde_json::Map<String, Value>) {
    let options = config
        .entry("options")
        .or_insert_with(|| Value::Object(Default::default()));
    let Some(options) = options.as_object_mut() else {
        return;
    };
    if case.get("dateAdapter").and_then(Value::as_str) == Some("moment") {
        if let Some(Value::Object(scales)) = options.get_mut("scales") {
            for scale in scales.values_mut() {
                let Some(scale) = scale.as_object_mut() else {
                    continue;
                };
                let adapters = scale
                    .entry("adapters")
                    .or_insert_with(|| serde_json::json!({}));
                if let Some(a) = adapters.as_object_mut() {
                    let date = a.entry("date").or_insert_with(|| serde_json::json!({}));
                    if let Some(d) = date.as_object_mut() {
                        d.entry("tokens").or_insert_with(|| "moment".into());
                    }
                }
            }
        }
    }
    let chartjs_own = case
        .get("source")
        .and_then(Value::as_str)
        .is_some_and(|s| s.starts_with("test/fixtures/"));
    if chartjs_own {
        // The root of the options is the last user scope of a dataset element's options
        // (after the dataset, `datasets.<type>` and `elements.arc`), so any spacingMode the
        // config sets still wins.
        options
            .entry("spacingMode")
            .or_insert_with(|| "angular".into());
    }
}

/// The results of a run held against a pass list.
#[derive(Debug, Default)]
pub struct Ratchet {
    /// Listed cases that fail now, with why (`area/case (detail)`), or that are gone.
    pub regressed: Vec<String>,
    /// Names of the listed cases among `regressed` that were rendered (not gone).
    pub regressed_names: Vec<String>,
    /// Passing cases the list does not name yet.
    pub newly_passing: Vec<String>,
}

impl Ratchet {
    /// Holds `results` against `listed`. With `complete` (the run had no filter), a listed
    /// case that was not rendered at all counts as regressed.
    pub fn check(listed: &[String], results: &[CaseResult], complete: bool) -> Ratchet {
        let mut r = Ratchet::default();
        for case in results {
            let is_listed = listed.contains(&case.name);
            if case.passed && !is_listed {
                r.newly_passing.push(case.name.clone());
            }
            if !case.passed && is_listed {
                r.regressed.push(format!("{} ({})", case.name, case.detail));
                r.regressed_names.push(case.name.clone());
            }
        }
        if complete {
            for name in listed {
                if !results.iter().any(|c| c.name == *name) {
                    r.regressed.push(format!("{name} (case missing)"));
                }
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, passed: bool) -> CaseResult {
        CaseResult {
            name: name.into(),
            area: "a".into(),
            passed,
            detail: "0.5 > 0.001".into(),
        }
    }

    #[test]
    fn ratchet_finds_regressions_new_passes_and_missing_cases() {
        let listed = vec!["a/kept".to_string(), "a/lost".into(), "a/gone".into()];
        let results = [
            result("a/kept", true),
            result("a/lost", false),
            result("a/new", true),
            result("a/never", false),
        ];
        let r = Ratchet::check(&listed, &results, true);
        assert_eq!(
            r.regressed,
            vec!["a/lost (0.5 > 0.001)", "a/gone (case missing)"]
        );
        assert_eq!(r.regressed_names, vec!["a/lost"]);
        assert_eq!(r.newly_passing, vec!["a/new"]);
        // A filtered run does not know about the cases it skipped.
        let r = Ratchet::check(&listed, &results, false);
        assert_eq!(r.regressed, vec!["a/lost (0.5 > 0.001)"]);
    }

    #[test]
    fn suite_of_dir_reads_the_shared_folder_name() {
        assert_eq!(
            Suite::of_dir(Path::new("/x/shared/plugin-fixtures/dev")),
            Some(Suite::Plugin)
        );
        assert_eq!(
            Suite::of_dir(Path::new("../shared/chartjs-fixtures/dev")),
            Some(Suite::Chartjs)
        );
        assert_eq!(Suite::of_dir(Path::new("/tmp/cases")), None);
    }
}
