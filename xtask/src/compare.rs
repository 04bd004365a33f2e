//! `cargo xtask compare [CONFIG…|--examples|--geo|--dir DIR] --out DIR`: the skia engine next
//! to the browser engine (real Chart.js), which is how the skia engine is measured on real
//! charts.
//!
//! Each input renders with both engines at the same options. Written to `--out`:
//! `<name>.skia.png`, `<name>.browser.png`, `<name>.diff.png` (browser | diff | skia, like
//! resvg's harness: expected, then the pixelmatch diff, then actual) and `index.html` with the
//! three side by side, the mismatch ratio and each engine's messages. The ratio is the rule of
//! the fixtures README: pixelmatch mismatches (threshold 0.1, anti-aliasing not counted) over
//! the pixel count. A table and the median ratio are printed.
//!
//! Inputs may be gallery examples (`{title, config, width, height}`), image-fixture cases
//! (`{config, canvas: {width, height}}`; `--dir` reads a fixtures folder with its
//! subfolders), request bodies (`{chart, width, …}`) or bare Chart.js configs (`{type, data,
//! options}`).
//!
//! The layout oracle: for each input the skia engine's [`Layout`] is held against the numbers
//! the browser engine reads from the live Chart.js object ([`ChartLayout`]: `chart.chartArea`,
//! each scale's box and `getPixelForTick`, the `x`/`y` of `getDatasetMeta(i).data`), and the
//! largest difference of each kind is printed (CSS px), so a wrong layout shows as a number.
//! Differences in kind (a scale or tick missing on one side) are listed as notes; the skia
//! layout is written as `<name>.layout.json`.

//! `--random N --seed S [--from I]` compares N generated configs ([`random`]): case `i` of
//! seed `S` is rebuilt from `(S, i)` alone, its request body is written to
//! `cases/<name>.json`, and only the cases over [`KEEP_IMAGES_ABOVE`] keep their PNGs. The
//! report then shows the worst `--worst K` cases (default 60), the share of cases within 1%
//! and 0.3% (plain and text-aware, [`text_mask`]), per chart kind, and `results.tsv` lists
//! every case. Campaigns run one chart at a time; run them with `nice` in batches
//! (`--from 0 --random 200`, `--from 200 --random 200`, …) on a shared machine.

pub(crate) mod random;
mod report;
mod text_mask;

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use chart_fixtures::{pixelmatch, side_by_side, write_png};
use chart_raster_browser::layout::ChartLayout;
use chart_raster_browser::{BrowserConfig, BrowserEngine};
use chart_raster_skia::layout::Layout;
use chart_raster_skia::ElementGeometry;
use chart_spec::{Bitmap, EngineKind, Message, RenderOptions};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The chartjs-chart-geo comparison set (`--geo`), below the repository root.
const GEO_SET: &str = "fixtures/compare/geo";

/// Per-pixel YIQ threshold of the fixtures README.
const DEFAULT_THRESHOLD: f64 = 0.1;

/// In a random campaign, a case keeps its PNGs when either score is over this (plain) or
/// half of it (text-aware): the report needs the bad cases, not two thousand good ones.
const KEEP_IMAGES_ABOVE: f64 = 0.002;

struct Args {
    /// (folder, path below it): the name of a case is its path below the folder.
    inputs: Vec<(PathBuf, PathBuf)>,
    /// Generated cases: (seed, first index, count).
    random: Option<(u64, u64, u64)>,
    out: PathBuf,
    dpr: Option<f64>,
    threshold: f64,
    worst: usize,
}

/// Render each config with the skia and browser engines and write <name>.skia.png,
/// <name>.browser.png, <name>.diff.png and index.html into --out.
#[derive(FromArgs)]
#[argh(subcommand, name = "compare")]
pub struct Cli {
    /// config files: gallery examples, request bodies or bare Chart.js configs
    #[argh(positional)]
    configs: Vec<PathBuf>,
    /// every gallery example (fixtures/examples)
    #[argh(switch)]
    examples: bool,
    /// the chartjs-chart-geo set (fixtures/compare/geo): shared legends, legends over the
    /// map, the legend's z, no visible dataset
    #[argh(switch)]
    geo: bool,
    /// every *.json of this folder (repeatable)
    #[argh(option)]
    dir: Vec<PathBuf>,
    /// this many generated configs (random but realistic Chart.js configs)
    #[argh(option)]
    random: Option<u64>,
    /// the campaign's seed for --random (default 1)
    #[argh(option, default = "1")]
    seed: u64,
    /// the index of the first generated case (default 0), to run a campaign in batches
    #[argh(option, default = "0")]
    from: u64,
    /// how many of the worst cases the report of a campaign shows (default 60)
    #[argh(option, default = "60")]
    worst: usize,
    /// the output folder
    #[argh(option)]
    out: PathBuf,
    /// render at this device pixel ratio instead of each input's
    #[argh(option)]
    dpr: Option<f64>,
    /// pixelmatch's per-pixel YIQ threshold (default 0.1, the fixtures README's)
    #[argh(option, default = "DEFAULT_THRESHOLD")]
    threshold: f64,
}

/// The inputs in order: the gallery examples, the sets (--geo), each --dir, then the named
/// configs.
fn parse_args(cli: Cli) -> Result<Args> {
    let mut inputs = Vec::new();
    let sets = [(cli.examples, "fixtures/examples"), (cli.geo, GEO_SET)];
    for (_, folder) in sets.into_iter().filter(|(on, _)| *on) {
        let dir = crate_root().join(folder);
        for f in json_files(&dir)? {
            if let Ok(rel) = f.strip_prefix(&dir) {
                inputs.push((dir.clone(), rel.to_path_buf()));
            }
        }
    }
    for dir in &cli.dir {
        // Fixture folders nest cases in subfolders (`controller.bar/…/case.json`).
        let cases = chart_fixtures::list_cases(dir)
            .with_context(|| format!("listing {}", dir.display()))?;
        inputs.extend(cases.into_iter().map(|rel| (dir.clone(), rel)));
    }
    for c in cli.configs {
        let dir = c.parent().map(Path::to_path_buf).unwrap_or_default();
        let rel = c.file_name().map(PathBuf::from).unwrap_or_default();
        inputs.push((dir, rel));
    }
    let random = cli.random.map(|n| (cli.seed, cli.from, n));
    if inputs.is_empty() && random.is_none() {
        bail!("nothing to compare: name configs, --examples, --geo, --dir DIR or --random N");
    }
    Ok(Args {
        inputs,
        random,
        out: cli.out,
        dpr: cli.dpr,
        threshold: cli.threshold,
        worst: cli.worst,
    })
}

/// The repository root (the parent of the xtask crate).
fn crate_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// One input, as both engines will render it.
struct Case {
    name: String,
    title: String,
    opts: RenderOptions,
    /// The generator's chart kind, for generated cases.
    kind: Option<&'static str>,
    /// The config file the report links to (generated cases), relative to the report.
    config_file: Option<String>,
}

/// Writes generated case `index` of `seed` to `<out>/cases/<name>.json` and loads it.
fn random_case(out: &Path, seed: u64, index: u64, dpr: Option<f64>) -> Result<Case> {
    let c = random::case(seed, index);
    let dir = out.join("cases");
    std::fs::create_dir_all(&dir)?;
    let file = format!("{}.json", c.name);
    std::fs::write(dir.join(&file), serde_json::to_string_pretty(&c.body)?)?;
    let mut case = load_case(&dir, Path::new(&file), dpr)?;
    case.title = c.title;
    case.kind = Some(c.kind);
    case.config_file = Some(format!("cases/{file}"));
    Ok(case)
}

fn load_case(dir: &Path, rel: &Path, dpr: Option<f64>) -> Result<Case> {
    let path = dir.join(rel);
    let path = path.as_path();
    let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let v: Value =
        serde_json::from_slice(&text).with_context(|| format!("parsing {}", path.display()))?;
    // Nested fixture cases share file names: the name keeps the subfolders.
    let name = rel
        .with_extension("")
        .to_string_lossy()
        .replace(['/', '\\'], "__");
    let name = if name.is_empty() {
        "chart".into()
    } else {
        name
    };
    let title = v
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or(&name)
        .to_string();
    // Normalise the three accepted shapes to a request body.
    let mut body = if let Some(config) = v.get("config") {
        // A fixture case sizes its canvas in `canvas` (default 512 × 512, the harness's).
        let size = |key: &str, default: f64| {
            v.get(key)
                .or_else(|| v.get("canvas").and_then(|c| c.get(key)))
                .cloned()
                .unwrap_or(json!(if v.get("canvas").is_some() {
                    512.0
                } else {
                    default
                }))
        };
        let mut body = json!({
            "chart": config,
            "width": size("width", 800.0),
            "height": size("height", 600.0),
        });
        if let (Some(d), Some(obj)) = (v.get("devicePixelRatio"), body.as_object_mut()) {
            obj.insert("devicePixelRatio".into(), d.clone());
        }
        body
    } else if v.get("chart").is_some() {
        v.clone()
    } else {
        json!({ "chart": v })
    };
    if let (Some(dpr), Some(obj)) = (dpr, body.as_object_mut()) {
        obj.insert("devicePixelRatio".into(), json!(dpr));
    }
    let mut opts =
        RenderOptions::from_json(&body).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    opts.engine = EngineKind::Browser;
    Ok(Case {
        name,
        title,
        opts,
        kind: None,
        config_file: None,
    })
}

/// What one engine made of a case.
struct Side {
    /// Dropped once the case is scored (a campaign would hold thousands).
    bitmap: Option<Bitmap>,
    /// The bitmap's size, kept after it is dropped.
    size: Option<(u32, u32)>,
    messages: Vec<Message>,
    /// Why there is no bitmap.
    failure: Option<String>,
    /// Wall time of the render.
    millis: u128,
}

/// The two layouts of a case.
struct Layouts {
    skia: Option<Layout>,
    browser: Option<ChartLayout>,
}

struct Row {
    case: Case,
    skia: Side,
    browser: Side,
    /// Mismatched pixels over all pixels; 1 when a side failed or the sizes differ.
    ratio: f64,
    /// Mismatched pixels outside the skia engine's text over all pixels ([`text_mask`]);
    /// `None` when the plain ratio could not be computed.
    text_ratio: Option<f64>,
    /// Whether the PNGs of the case are in the output folder.
    images_written: bool,
    /// The layout oracle's verdict; `None` when a side has no layout.
    layout: Option<LayoutDiff>,
}

pub fn run(cli: Cli) -> Result<()> {
    let args = parse_args(cli)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let mut cases = args
        .inputs
        .iter()
        .map(|(dir, rel)| load_case(dir, rel, args.dpr))
        .collect::<Result<Vec<_>>>()?;
    if let Some((seed, from, n)) = args.random {
        for i in from..from.saturating_add(n) {
            cases.push(random_case(&args.out, seed, i, args.dpr)?);
        }
    }
    let campaign = args.random.is_some();

    let config = BrowserConfig::from_env();
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{e}\n(the comparison needs the browser engine)"))?;
    let browser = BrowserEngine::new(config);
    let skia = chart_raster_skia::Engine::new();
    let text = chart_raster_skia::text::TextEngine::system();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;

    let mut rows = Vec::new();
    let total = cases.len();
    for case in cases {
        let engines = Engines {
            skia: &skia,
            browser: &browser,
            runtime: &runtime,
            text: &text,
        };
        rows.push(compare_one(case, &engines, &args, campaign)?);
        if campaign && rows.len() % 50 == 0 {
            eprintln!("{}/{total}: {}", rows.len(), report::rates_line(&rows));
        }
    }
    runtime.block_on(browser.shutdown());

    std::fs::write(args.out.join("results.tsv"), report::results_tsv(&rows))?;
    let mut shown: Vec<&Row> = rows.iter().collect();
    let mut heading = String::new();
    if let Some((seed, from, n)) = args.random {
        // The worst by the plain score, then the worst by the text-aware score not already
        // shown: glyph noise sorts first in the plain list and layout defects in the other.
        shown.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
        shown.truncate(args.worst);
        let mut by_text: Vec<&Row> = rows.iter().collect();
        by_text.sort_by(|a, b| {
            let key = |r: &Row| r.text_ratio.unwrap_or(r.ratio);
            key(b).total_cmp(&key(a))
        });
        for r in by_text.into_iter().take(args.worst / 2) {
            if !shown.iter().any(|s| s.case.name == r.case.name) {
                shown.push(r);
            }
        }
        heading = format!(
            "Seed {seed}, cases {from}..{}: the {} worst by plain mismatch, then the worst \
             by text-aware mismatch. Every case's request body is in cases/, its numbers in \
             results.tsv.",
            from.saturating_add(n),
            args.worst
        );
    }
    std::fs::write(
        args.out.join("index.html"),
        report::index_html(&rows, &shown, args.threshold, &heading),
    )?;
    if campaign {
        report::print_kinds(&rows);
        report::print_summary(&rows);
    } else {
        report::print_table(&rows);
    }
    println!("wrote {}", args.out.join("index.html").display());
    Ok(())
}

/// What renders and measures a case.
struct Engines<'a> {
    skia: &'a chart_raster_skia::Engine,
    browser: &'a BrowserEngine,
    runtime: &'a tokio::runtime::Runtime,
    text: &'a chart_raster_skia::text::TextEngine,
}

/// Renders one case with both engines, scores it and writes its files.
fn compare_one(case: Case, e: &Engines<'_>, args: &Args, campaign: bool) -> Result<Row> {
    let started = std::time::Instant::now();
    let mut skia_side = render_skia(e.skia, &case.opts);
    skia_side.millis = started.elapsed().as_millis();
    let started = std::time::Instant::now();
    let mut layouts = Layouts {
        skia: skia_layout(e.skia, &case.opts),
        browser: None,
    };
    let mut browser_side = match e.runtime.block_on(e.browser.render_with_layout(&case.opts)) {
        Ok((r, layout)) => {
            layouts.browser = layout;
            Side {
                size: Some((r.bitmap.width, r.bitmap.height)),
                bitmap: Some(r.bitmap),
                messages: r.messages,
                failure: None,
                millis: 0,
            }
        }
        Err(e) => Side {
            bitmap: None,
            size: None,
            messages: Vec::new(),
            failure: Some(e.to_string()),
            millis: 0,
        },
    };
    browser_side.millis = started.elapsed().as_millis();
    let scored = score(&skia_side, &browser_side, args.threshold);
    let text_ratio = scored
        .as_ref()
        .and_then(|(_, diff)| text_aware_ratio(e, &case.opts, diff));
    let ratio = scored.as_ref().map_or(1.0, |s| s.0);
    let keep = !campaign
        || ratio > KEEP_IMAGES_ABOVE
        || text_ratio.unwrap_or(ratio) > KEEP_IMAGES_ABOVE / 2.0;
    if keep {
        write_images(
            &args.out,
            &case.name,
            &skia_side,
            &browser_side,
            scored.as_ref().map(|s| &s.1),
        )?;
        if let Some(l) = &layouts.skia {
            std::fs::write(
                args.out.join(format!("{}.layout.json", case.name)),
                serde_json::to_string_pretty(l)?,
            )?;
        }
    }
    let layout = match (&layouts.skia, &layouts.browser) {
        (Some(ours), Some(theirs)) => Some(layout_diff(ours, theirs)),
        _ => None,
    };
    skia_side.bitmap = None;
    browser_side.bitmap = None;
    Ok(Row {
        case,
        skia: skia_side,
        browser: browser_side,
        ratio,
        text_ratio,
        images_written: keep,
        layout,
    })
}

/// The mismatch ratio and the pixelmatch diff image, when both sides drew a bitmap of the
/// same size.
fn score(skia: &Side, browser: &Side, threshold: f64) -> Option<(f64, Bitmap)> {
    let (expected, actual) = (browser.bitmap.as_ref()?, skia.bitmap.as_ref()?);
    let (w, h) = (expected.width, expected.height);
    if (actual.width, actual.height) != (w, h) {
        return None;
    }
    let mut diff = Bitmap::new(w, h);
    let mismatched = pixelmatch(
        &expected.data,
        &actual.data,
        w,
        h,
        threshold,
        Some(&mut diff.data),
    );
    Some((
        mismatched as f64 / (f64::from(w) * f64::from(h)).max(1.0),
        diff,
    ))
}

/// The text-aware ratio of a scored case: its diff's mismatches outside the text boxes of
/// the skia engine's scene ([`text_mask`]).
fn text_aware_ratio(e: &Engines<'_>, opts: &RenderOptions, diff: &Bitmap) -> Option<f64> {
    let settings = chart_raster_skia::Settings {
        width: opts.width as f32,
        height: opts.height as f32,
        device_pixel_ratio: opts.device_pixel_ratio as f32,
        background: chart_spec::Rgba::TRANSPARENT,
    };
    let scene = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        e.skia.scene(&opts.chart, &settings).0
    }))
    .ok()?;
    let mask = text_mask::TextMask::of_scene(&scene, e.text, diff.width, diff.height);
    Some(mask.ratio_outside(&diff.data))
}

/// The skia engine's layout of a request, at the settings its render uses (`None` when the
/// chart cannot be updated, or the engine panicked: the render reports that).
fn skia_layout(engine: &chart_raster_skia::Engine, opts: &RenderOptions) -> Option<Layout> {
    let settings = chart_raster_skia::Settings {
        width: opts.width as f32,
        height: opts.height as f32,
        device_pixel_ratio: opts.device_pixel_ratio as f32,
        background: chart_spec::Rgba::TRANSPARENT,
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.layout(&opts.chart, &settings).0
    }))
    .ok()
    .flatten()
}

/// The largest differences, in CSS px, between the skia engine's layout and Chart.js's, by
/// kind; differences in kind are notes.
#[derive(Debug, Clone, Default, PartialEq)]
struct LayoutDiff {
    /// `chart.chartArea`'s four sides.
    area: f64,
    /// Scale boxes (matched by id).
    boxes: f64,
    /// `getPixelForTick` of the ticks both sides have.
    ticks: f64,
    /// Element `x`/`y` of the elements both sides have (visible datasets).
    elements: f64,
    /// What could not be compared number to number.
    notes: Vec<String>,
}

impl LayoutDiff {
    fn worst(&self) -> f64 {
        self.area.max(self.boxes).max(self.ticks).max(self.elements)
    }
}

/// The largest `|a - b|` over the pairs where both are numbers; a number on one side only
/// counts as infinitely far (Chart.js has no such number, or we lost one).
fn max_gap(pairs: &[(f64, Option<f64>)]) -> f64 {
    pairs.iter().fold(0.0, |m, &(ours, theirs)| {
        let gap = match (ours.is_finite(), theirs) {
            (true, Some(t)) => (ours - t).abs(),
            (false, None) => 0.0,
            _ => f64::INFINITY,
        };
        m.max(gap)
    })
}

fn sides(
    ours: &chart_raster_skia::Area,
    theirs: &chart_raster_browser::layout::Rect,
) -> [(f64, Option<f64>); 4] {
    [
        (ours.left, theirs.left),
        (ours.top, theirs.top),
        (ours.right, theirs.right),
        (ours.bottom, theirs.bottom),
    ]
}

/// Where an element sits, as Chart.js's `element.x`/`element.y` (the centre of points,
/// arcs and bars' value end; the top left of matrix cells).
fn element_xy(e: &ElementGeometry) -> (f64, f64) {
    match *e {
        ElementGeometry::Arc { x, y, .. }
        | ElementGeometry::Point { x, y, .. }
        | ElementGeometry::Rect { x, y, .. }
        | ElementGeometry::Bar { x, y, .. } => (x, y),
    }
}

fn layout_diff(ours: &Layout, theirs: &ChartLayout) -> LayoutDiff {
    let mut d = LayoutDiff {
        area: max_gap(&sides(&ours.chart_area, &theirs.chart_area)),
        ..LayoutDiff::default()
    };
    for s in &ours.scales {
        let Some(t) = theirs.scales.iter().find(|t| t.id == s.id) else {
            d.notes.push(format!("scale {}: not in Chart.js", s.id));
            continue;
        };
        d.boxes = d.boxes.max(max_gap(&sides(&s.rect, &t.rect)));
        if s.ticks.len() != t.ticks.len() {
            d.notes.push(format!(
                "scale {}: {} ticks, Chart.js {}",
                s.id,
                s.ticks.len(),
                t.ticks.len()
            ));
        }
        let pixels: Vec<(f64, Option<f64>)> = s
            .ticks
            .iter()
            .zip(&t.ticks)
            .map(|(a, b)| (a.pixel, b.pixel))
            .collect();
        d.ticks = d.ticks.max(max_gap(&pixels));
        if let Some((i, (a, b))) = s
            .ticks
            .iter()
            .zip(&t.ticks)
            .enumerate()
            .find(|(_, (a, b))| b.value.is_some_and(|v| v != a.value))
        {
            d.notes.push(format!(
                "scale {}: tick {i} is {}, Chart.js {:?}",
                s.id, a.value, b.value
            ));
        }
    }
    for t in &theirs.scales {
        if !ours.scales.iter().any(|s| s.id == t.id) {
            d.notes.push(format!("scale {}: only in Chart.js", t.id));
        }
    }
    for (i, t) in theirs.datasets.iter().enumerate() {
        let Some(s) = ours.datasets.get(i) else {
            d.notes.push(format!("dataset {i}: only in Chart.js"));
            continue;
        };
        if !(s.visible && t.visible) {
            continue;
        }
        if s.elements.len() != t.elements.len() {
            d.notes.push(format!(
                "dataset {i}: {} elements, Chart.js {}",
                s.elements.len(),
                t.elements.len()
            ));
        }
        for (a, b) in s.elements.iter().zip(&t.elements) {
            // A skipped element on our side has no position to compare.
            if let (Some(a), Some(b)) = (a, b) {
                let (x, y) = element_xy(a);
                d.elements = d.elements.max(max_gap(&[(x, b.x), (y, b.y)]));
            }
        }
    }
    d
}

fn render_skia(engine: &chart_raster_skia::Engine, opts: &RenderOptions) -> Side {
    // The skia engine is young: a panic on one chart must not end the comparison.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.render(opts)));
    match result {
        Ok(Ok(r)) => Side {
            size: Some((r.bitmap.width, r.bitmap.height)),
            bitmap: Some(r.bitmap),
            messages: r.messages,
            failure: None,
            millis: 0,
        },
        Ok(Err(e)) => Side {
            bitmap: None,
            size: None,
            messages: Vec::new(),
            failure: Some(e.to_string()),
            millis: 0,
        },
        Err(panic) => Side {
            bitmap: None,
            size: None,
            messages: Vec::new(),
            failure: Some(format!(
                "panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("?")
            )),
            millis: 0,
        },
    }
}

/// Writes the PNGs of one case: each side's bitmap and, when both have one, browser | diff |
/// skia (the diff blank when the sizes differ).
fn write_images(
    out: &Path,
    name: &str,
    skia: &Side,
    browser: &Side,
    diff: Option<&Bitmap>,
) -> Result<()> {
    if let Some(b) = &skia.bitmap {
        write_png(&out.join(format!("{name}.skia.png")), b)?;
    }
    if let Some(b) = &browser.bitmap {
        write_png(&out.join(format!("{name}.browser.png")), b)?;
    }
    let (Some(expected), Some(actual)) = (&browser.bitmap, &skia.bitmap) else {
        return Ok(());
    };
    let blank = Bitmap::new(expected.width, expected.height);
    write_png(
        &out.join(format!("{name}.diff.png")),
        &side_by_side(&[expected, diff.unwrap_or(&blank), actual]),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_places_images_left_to_right() {
        let mut a = Bitmap::new(1, 2);
        a.data.fill(1);
        let mut b = Bitmap::new(2, 1);
        b.data.fill(2);
        let s = side_by_side(&[&a, &b]);
        assert_eq!((s.width, s.height), (3, 2));
        assert_eq!(&s.data[0..12], &[1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2]);
        assert_eq!(&s.data[12..16], &[1, 1, 1, 1]);
        assert_eq!(
            &s.data[16..24],
            &[0; 8],
            "transparent below the shorter image"
        );
    }

    use chart_raster_skia::layout::{DatasetLayout, ScaleLayout, TickLayout};
    use chart_raster_skia::Area;

    fn area(left: f64, top: f64, right: f64, bottom: f64) -> Area {
        Area {
            left,
            top,
            right,
            bottom,
        }
    }

    /// A bar chart's layout as the skia engine would give it.
    fn ours() -> Layout {
        Layout {
            width: 400.0,
            height: 200.0,
            chart_area: area(30.0, 10.0, 390.0, 170.0),
            boxes: Vec::new(),
            scales: vec![ScaleLayout {
                id: "x".into(),
                axis: "x".into(),
                visible: true,
                rect: area(30.0, 170.0, 390.0, 190.0),
                ticks: vec![
                    TickLayout {
                        value: 0.0,
                        label: None,
                        pixel: 90.0,
                    },
                    TickLayout {
                        value: 1.0,
                        label: None,
                        pixel: 210.0,
                    },
                ],
            }],
            datasets: vec![DatasetLayout {
                index: 0,
                visible: true,
                clip: None,
                elements: vec![Some(ElementGeometry::Bar {
                    x: 90.0,
                    y: 50.0,
                    base: 170.0,
                    horizontal: false,
                })],
            }],
        }
    }

    /// The same layout as the browser engine reads it from Chart.js.
    fn theirs() -> ChartLayout {
        serde_json::from_value(json!({
            "chart_area": {"left": 30.0, "top": 10.0, "right": 390.0, "bottom": 170.0},
            "scales": [{"id": "x", "axis": "x",
                "rect": {"left": 30.0, "top": 170.0, "right": 390.0, "bottom": 190.0},
                "ticks": [{"value": 0.0, "pixel": 90.0}, {"value": 1.0, "pixel": 210.0}]}],
            "datasets": [{"visible": true, "elements": [{"x": 90.0, "y": 50.0}]}]
        }))
        .unwrap()
    }

    #[test]
    fn equal_layouts_differ_by_nothing() {
        let d = layout_diff(&ours(), &theirs());
        assert_eq!(d, LayoutDiff::default());
    }

    #[test]
    fn a_shifted_chart_area_is_reported() {
        let mut t = theirs();
        t.chart_area.top = Some(13.5);
        let d = layout_diff(&ours(), &t);
        assert_eq!(d.area, 3.5);
        assert_eq!(d.worst(), 3.5);
        assert_eq!((d.boxes, d.ticks, d.elements), (0.0, 0.0, 0.0));
    }

    #[test]
    fn tick_and_element_gaps_and_missing_numbers_are_reported() {
        let mut t = theirs();
        t.scales[0].ticks[1].pixel = Some(212.0);
        t.scales[0].ticks.pop();
        t.datasets[0].elements[0] = Some(chart_raster_browser::layout::Point {
            x: Some(91.0),
            y: None,
        });
        let d = layout_diff(&ours(), &t);
        assert_eq!(d.ticks, 0.0, "only the ticks both sides have are compared");
        assert_eq!(
            d.elements,
            f64::INFINITY,
            "a number Chart.js lacks counts as far off"
        );
        assert_eq!(d.notes, vec!["scale x: 2 ticks, Chart.js 1".to_string()]);
        let mut t = theirs();
        t.scales[0].ticks[1].pixel = Some(212.0);
        t.scales[0].id = "y".into();
        let d = layout_diff(&ours(), &t);
        assert_eq!(
            d.notes,
            vec!["scale x: not in Chart.js", "scale y: only in Chart.js"]
        );
    }

    #[test]
    fn a_fixture_case_takes_its_canvas_size() {
        let dir = std::env::temp_dir().join(format!("xtask-compare-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("area")).unwrap();
        let case = json!({"config": {"type": "bar", "data": {"datasets": []}},
            "canvas": {"height": 256}});
        std::fs::write(dir.join("area/case.json"), case.to_string()).unwrap();
        let c = load_case(&dir, Path::new("area/case.json"), None).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(c.name, "area__case");
        assert_eq!((c.opts.width, c.opts.height), (512.0, 256.0));
    }

    /// The oracle end to end: gallery charts whose layout matches Chart.js today (axes with
    /// rotated labels, two value axes, a legend, arcs) stay within half a pixel of the live
    /// chart's numbers. Needs the browser engine; skips without it unless
    /// CHART_RASTER_REQUIRE_BROWSER is set (as in CI).
    #[test]
    fn gallery_layouts_match_chartjs() {
        let config = BrowserConfig::from_env();
        if let Err(e) = config.check() {
            assert!(
                std::env::var_os("CHART_RASTER_REQUIRE_BROWSER").is_none(),
                "the layout oracle cannot run and CHART_RASTER_REQUIRE_BROWSER is set: {e}"
            );
            eprintln!("skipping gallery_layouts_match_chartjs: {e}");
            return;
        }
        let browser = BrowserEngine::new(config);
        let skia = chart_raster_skia::Engine::new();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let dir = crate_root().join("fixtures/examples");
        for name in [
            "bar-stacked",
            "dual-axis",
            "rotated-labels",
            "legend-bottom-subtitle",
            "doughnut",
            "scatter",
        ] {
            let case = load_case(&dir, Path::new(&format!("{name}.json")), None).unwrap();
            let ours = skia_layout(&skia, &case.opts).expect("a skia layout");
            let (_, theirs) = runtime
                .block_on(browser.render_with_layout(&case.opts))
                .unwrap();
            let d = layout_diff(&ours, &theirs.expect("a Chart.js layout"));
            assert!(d.worst() < 0.5 && d.notes.is_empty(), "{name}: {d:?}");
        }
        runtime.block_on(browser.shutdown());
    }

    /// The sets' cases load as the gallery's do (`--geo`).
    #[test]
    fn every_set_case_loads() {
        let dir = crate_root().join(GEO_SET);
        let files = json_files(&dir).unwrap();
        assert!(files.len() >= 4, "{files:?}");
        for f in files {
            let case = load_case(&dir, f.strip_prefix(&dir).unwrap(), None).unwrap();
            assert_eq!((case.opts.width, case.opts.height), (600.0, 400.0));
        }
    }

    #[test]
    fn every_example_loads() {
        let dir = crate_root().join("fixtures/examples");
        let Ok(files) = json_files(&dir) else {
            eprintln!("skipped: no {}", dir.display());
            return;
        };
        for f in files {
            let rel = f.strip_prefix(&dir).unwrap();
            let case = load_case(&dir, rel, None).unwrap();
            assert!(
                case.opts.width > 0.0 && case.opts.height > 0.0,
                "{}",
                case.name
            );
        }
    }
}
