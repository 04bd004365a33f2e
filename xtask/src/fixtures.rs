//! `cargo xtask fixtures [--dir DIR] [--out DIR] [--filter TEXT]`: renders Chart.js's image
//! tests with the skia engine at the harness's settings and compares them with the reference
//! PNGs by the pixelmatch rule (fixtures README, "Comparing").

use crate::pixelmatch::pixelmatch;
use anyhow::{bail, Context, Result};
use chart_raster_skia::text::TextEngine;
use chart_raster_skia::{Engine, Settings};
use chart_spec::{Bitmap, Rgba};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Options of one run.
struct Options {
    dir: PathBuf,
    out: Option<PathBuf>,
    filter: Option<String>,
    verbose: bool,
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
    /// Mismatched pixels over all pixels, or why it could not be compared.
    pub detail: String,
}

pub fn run(args: &[String]) -> Result<()> {
    let mut opts = Options {
        dir: default_dir()?,
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
    let results = render_all(&opts.dir, opts.out.as_deref(), opts.filter.as_deref())?;
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
    Ok(())
}

/// The repository root (the parent of the xtask crate).
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// `../shared/chartjs-fixtures/dev` relative to the repository root; a worktree nested
/// deeper finds it in the nearest ancestor that has it.
fn default_dir() -> Result<PathBuf> {
    let root = repo_root();
    let first = root.join("../shared/chartjs-fixtures/dev");
    if first.is_dir() {
        return Ok(first);
    }
    for anc in root.ancestors() {
        let p = anc.join("shared/chartjs-fixtures/dev");
        if p.is_dir() {
            return Ok(p);
        }
    }
    Ok(first)
}

/// Every `*.json` below `dir`, as paths relative to it, sorted.
fn list_cases(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let p = e?.path();
            if p.is_dir() {
                walk(base, &p, out)?;
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p.strip_prefix(base)?.to_path_buf());
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
/// threads (the machine is shared).
pub fn render_all(dir: &Path, out: Option<&Path>, filter: Option<&str>) -> Result<Vec<CaseResult>> {
    let sprite_dir = dir
        .parent()
        .map(|p| p.join("sprite"))
        .context("the cases folder has no parent")?;
    let system = Engine::new();
    let sprite = match TextEngine::sprite(&sprite_dir) {
        Ok(t) => Some(Engine::with_text(t)),
        Err(e) => {
            eprintln!("sprite text unavailable ({e}); sprite cases fail");
            None
        }
    };
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
                let (system, sprite) = (&system, sprite.as_ref());
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|rel| run_case(dir, rel, out, system, sprite))
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

fn run_case(
    dir: &Path,
    rel: &Path,
    out: Option<&Path>,
    system: &Engine,
    sprite: Option<&Engine>,
) -> CaseResult {
    let name = rel.with_extension("").to_string_lossy().replace('\\', "/");
    let area = name.split('/').next().unwrap_or_default().to_string();
    let (passed, detail) = match compare_case(dir, rel, out, system, sprite) {
        Ok((passed, ratio, tolerance)) => (passed, format!("{ratio:.5} > {tolerance}")),
        Err(e) => (false, format!("{e:#}")),
    };
    CaseResult {
        name,
        area,
        passed,
        detail,
    }
}

/// Renders one case; returns (passed, mismatch ratio, tolerance).
fn compare_case(
    dir: &Path,
    rel: &Path,
    out: Option<&Path>,
    system: &Engine,
    sprite: Option<&Engine>,
) -> Result<(bool, f64, f64)> {
    let path = dir.join(rel);
    let case: serde_json::Value = serde_json::from_slice(&std::fs::read(&path)?)
        .with_context(|| format!("parsing {}", path.display()))?;
    let num = |v: Option<&serde_json::Value>, d: f64| v.and_then(|v| v.as_f64()).unwrap_or(d);
    let canvas = case.get("canvas");
    let width = num(canvas.and_then(|c| c.get("width")), 512.0);
    let height = num(canvas.and_then(|c| c.get("height")), 512.0);
    let config = case
        .get("config")
        .and_then(|c| c.as_object())
        .context("case has no config object")?;
    let dpr = case
        .get("devicePixelRatio")
        .and_then(|v| v.as_f64())
        .or_else(|| {
            config
                .get("options")
                .and_then(|o| o.get("devicePixelRatio"))
                .and_then(|v| v.as_f64())
        })
        .unwrap_or(1.0);
    let threshold = num(case.get("threshold"), 0.1);
    let tolerance = num(case.get("tolerance"), 0.001);
    let sprite_text = case
        .get("spriteText")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let engine = if sprite_text {
        sprite.context("sprite text unavailable")?
    } else {
        system
    };
    let settings = Settings {
        width: width as f32,
        height: height as f32,
        device_pixel_ratio: dpr as f32,
        background: Rgba::TRANSPARENT,
    };
    let rendered = engine.render_chart(config, &settings)?;
    let actual = rendered.bitmap;
    let expected = read_png(&path.with_extension("png"))?;
    let out_base = out.map(|o| o.join(rel.with_extension("")));
    if let Some(base) = &out_base {
        if let Some(parent) = base.parent() {
            std::fs::create_dir_all(parent)?;
        }
        write_png(&base.with_extension("png"), &actual)?;
    }
    if (actual.width, actual.height) != (expected.width, expected.height) {
        bail!(
            "size {}x{} != reference {}x{}",
            actual.width,
            actual.height,
            expected.width,
            expected.height
        );
    }
    let mut diff = Bitmap::new(actual.width, actual.height);
    let mismatched = pixelmatch(
        &expected.data,
        &actual.data,
        actual.width,
        actual.height,
        threshold,
        Some(&mut diff.data),
    );
    if let Some(base) = &out_base {
        let name = format!(
            "{}.diff.png",
            base.file_name().unwrap_or_default().to_string_lossy()
        );
        write_png(&base.with_file_name(name), &diff)?;
    }
    let ratio = mismatched as f64 / (actual.width as f64 * actual.height as f64).max(1.0);
    Ok((ratio <= tolerance, ratio, tolerance))
}

/// Reads any 8-bit PNG as straight RGBA8.
pub fn read_png(path: &Path) -> Result<Bitmap> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let data = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        _ => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
    };
    Ok(Bitmap {
        width: info.width,
        height: info.height,
        data,
    })
}

fn write_png(path: &Path, bitmap: &Bitmap) -> Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), bitmap.width, bitmap.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    enc.write_header()?.write_image_data(&bitmap.data)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The regression guard: every case in `fixtures/chartjs-pass.txt` must still pass.
    /// Newly passing cases are printed so they can be added to the list.
    #[test]
    fn listed_fixtures_still_pass() {
        let dir = default_dir().expect("fixtures dir");
        if !dir.is_dir() {
            eprintln!(
                "skipped: no fixtures at {} (CI has them at ../shared/chartjs-fixtures)",
                dir.display()
            );
            return;
        }
        let list_path = repo_root().join("fixtures/chartjs-pass.txt");
        let list = std::fs::read_to_string(&list_path).unwrap_or_default();
        let listed: Vec<&str> = list
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let results = render_all(&dir, None, None).expect("render fixtures");
        let mut regressed = Vec::new();
        for r in &results {
            let is_listed = listed.contains(&r.name.as_str());
            if r.passed && !is_listed {
                println!(
                    "newly passing (add to fixtures/chartjs-pass.txt): {}",
                    r.name
                );
            }
            if !r.passed && is_listed {
                regressed.push(format!("{} ({})", r.name, r.detail));
            }
        }
        for name in &listed {
            if !results.iter().any(|r| r.name == *name) {
                regressed.push(format!("{name} (case missing)"));
            }
        }
        assert!(
            regressed.is_empty(),
            "listed fixtures no longer pass:\n{}",
            regressed.join("\n")
        );
    }
}
