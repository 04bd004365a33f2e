//! `cargo xtask compare [CONFIG…|--examples|--dir DIR] --out DIR`: the skia engine next to the
//! browser engine (real Chart.js), which is how the skia engine is measured on real charts.
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

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use chart_fixtures::{pixelmatch, side_by_side, write_png};
use chart_raster_browser::layout::ChartLayout;
use chart_raster_browser::{BrowserConfig, BrowserEngine};
use chart_raster_skia::elements::geometry::ElementGeometry;
use chart_raster_skia::layout::Layout;
use chart_spec::{Bitmap, EngineKind, Message, RenderOptions};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Per-pixel YIQ threshold of the fixtures README.
const DEFAULT_THRESHOLD: f64 = 0.1;

struct Args {
    /// (folder, path below it): the name of a case is its path below the folder.
    inputs: Vec<(PathBuf, PathBuf)>,
    out: PathBuf,
    dpr: Option<f64>,
    threshold: f64,
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
    /// every *.json of this folder (repeatable)
    #[argh(option)]
    dir: Vec<PathBuf>,
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

/// The inputs in order: the gallery examples, each --dir, then the named configs.
fn parse_args(cli: Cli) -> Result<Args> {
    let mut inputs = Vec::new();
    if cli.examples {
        let dir = crate_root().join("fixtures/examples");
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
    if inputs.is_empty() {
        bail!("nothing to compare: name configs, --examples or --dir DIR");
    }
    Ok(Args {
        inputs,
        out: cli.out,
        dpr: cli.dpr,
        threshold: cli.threshold,
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
    Ok(Case { name, title, opts })
}

/// What one engine made of a case.
struct Side {
    bitmap: Option<Bitmap>,
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
    /// The layout oracle's verdict; `None` when a side has no layout.
    layout: Option<LayoutDiff>,
}

pub fn run(cli: Cli) -> Result<()> {
    let args = parse_args(cli)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let cases = args
        .inputs
        .iter()
        .map(|(dir, rel)| load_case(dir, rel, args.dpr))
        .collect::<Result<Vec<_>>>()?;

    let config = BrowserConfig::from_env();
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{e}\n(the comparison needs the browser engine)"))?;
    let browser = BrowserEngine::new(config);
    let skia = chart_raster_skia::Engine::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;

    let mut rows = Vec::new();
    for case in cases {
        let started = std::time::Instant::now();
        let mut skia_side = render_skia(&skia, &case.opts);
        skia_side.millis = started.elapsed().as_millis();
        let started = std::time::Instant::now();
        let mut layouts = Layouts {
            skia: skia_layout(&skia, &case.opts),
            browser: None,
        };
        let mut browser_side = match runtime.block_on(browser.render_with_layout(&case.opts)) {
            Ok((r, layout)) => {
                layouts.browser = layout;
                Side {
                    bitmap: Some(r.bitmap),
                    messages: r.messages,
                    failure: None,
                    millis: 0,
                }
            }
            Err(e) => Side {
                bitmap: None,
                messages: Vec::new(),
                failure: Some(e.to_string()),
                millis: 0,
            },
        };
        browser_side.millis = started.elapsed().as_millis();
        let ratio = write_images(
            &args.out,
            &case.name,
            &skia_side,
            &browser_side,
            args.threshold,
        )?;
        if let Some(l) = &layouts.skia {
            std::fs::write(
                args.out.join(format!("{}.layout.json", case.name)),
                serde_json::to_string_pretty(l)?,
            )?;
        }
        let layout = match (&layouts.skia, &layouts.browser) {
            (Some(ours), Some(theirs)) => Some(layout_diff(ours, theirs)),
            _ => None,
        };
        rows.push(Row {
            case,
            skia: skia_side,
            browser: browser_side,
            ratio,
            layout,
        });
    }
    runtime.block_on(browser.shutdown());

    std::fs::write(
        args.out.join("index.html"),
        index_html(&rows, args.threshold),
    )?;
    print_table(&rows);
    println!("wrote {}", args.out.join("index.html").display());
    Ok(())
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
    ours: &chart_raster_skia::elements::Area,
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
            bitmap: Some(r.bitmap),
            messages: r.messages,
            failure: None,
            millis: 0,
        },
        Ok(Err(e)) => Side {
            bitmap: None,
            messages: Vec::new(),
            failure: Some(e.to_string()),
            millis: 0,
        },
        Err(panic) => Side {
            bitmap: None,
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

/// Writes the PNGs of one case and returns its mismatch ratio.
fn write_images(
    out: &Path,
    name: &str,
    skia: &Side,
    browser: &Side,
    threshold: f64,
) -> Result<f64> {
    if let Some(b) = &skia.bitmap {
        write_png(&out.join(format!("{name}.skia.png")), b)?;
    }
    if let Some(b) = &browser.bitmap {
        write_png(&out.join(format!("{name}.browser.png")), b)?;
    }
    let (Some(expected), Some(actual)) = (&browser.bitmap, &skia.bitmap) else {
        return Ok(1.0);
    };
    let (w, h) = (expected.width, expected.height);
    let same_size = (actual.width, actual.height) == (w, h);
    let mut diff = Bitmap::new(w, h);
    let ratio = if same_size {
        let mismatched = pixelmatch(
            &expected.data,
            &actual.data,
            w,
            h,
            threshold,
            Some(&mut diff.data),
        );
        mismatched as f64 / (f64::from(w) * f64::from(h)).max(1.0)
    } else {
        1.0
    };
    write_png(
        &out.join(format!("{name}.diff.png")),
        &side_by_side(&[expected, &diff, actual]),
    )?;
    Ok(ratio)
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn print_table(rows: &[Row]) {
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>8} {:>8}  {:>7} {:>7} {:>7} {:>7}  notes",
        "chart",
        "mismatch",
        "skia msg",
        "brws msg",
        "skia ms",
        "brws ms",
        "area px",
        "box px",
        "tick px",
        "elem px"
    );
    for row in rows {
        let mut notes = Vec::new();
        if let Some(f) = &row.skia.failure {
            notes.push(format!("skia: {f}"));
        }
        if let Some(f) = &row.browser.failure {
            notes.push(format!("browser: {f}"));
        }
        if let (Some(a), Some(b)) = (&row.skia.bitmap, &row.browser.bitmap) {
            if (a.width, a.height) != (b.width, b.height) {
                notes.push(format!(
                    "size {}x{} vs {}x{}",
                    a.width, a.height, b.width, b.height
                ));
            }
        }
        if let Some(l) = &row.layout {
            notes.extend(l.notes.iter().cloned());
        }
        println!(
            "{:<28} {:>8.2}% {:>9} {:>9} {:>8} {:>8}  {}  {}",
            row.case.name,
            row.ratio * 100.0,
            row.skia.messages.len(),
            row.browser.messages.len(),
            row.skia.millis,
            row.browser.millis,
            layout_columns(row.layout.as_ref()),
            notes.join("; ")
        );
    }
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    let worst: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.layout.as_ref().map(LayoutDiff::worst))
        .collect();
    let exact = worst.iter().filter(|w| **w < 0.5).count();
    println!(
        "{} charts, median mismatch {:.2}%; layout within 0.5 px of Chart.js: {exact}/{} \
         (median largest difference {:.2} px)",
        rows.len(),
        median(ratios) * 100.0,
        worst.len(),
        median(worst.clone())
    );
}

/// The four largest differences, or dashes when a side has no layout.
fn layout_columns(l: Option<&LayoutDiff>) -> String {
    match l {
        Some(l) => format!(
            "{:>7.2} {:>7.2} {:>7.2} {:>7.2}",
            l.area, l.boxes, l.ticks, l.elements
        ),
        None => format!("{:>7} {:>7} {:>7} {:>7}", "-", "-", "-", "-"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn messages_html(side: &Side) -> String {
    let mut s = String::new();
    if let Some(f) = &side.failure {
        let _ = write!(s, "<li class=error>failed: {}</li>", escape(f));
    }
    for m in &side.messages {
        let level = format!("{:?}", m.level).to_lowercase();
        let _ = write!(s, "<li class={level}>{level}: {}</li>", escape(&m.message));
    }
    if s.is_empty() {
        "<span class=none>no messages</span>".into()
    } else {
        format!("<ul>{s}</ul>")
    }
}

fn layout_html(l: Option<&LayoutDiff>) -> String {
    match l {
        Some(l) => {
            let mut s = format!(
                "{:.2} {:.2} {:.2} {:.2}",
                l.area, l.boxes, l.ticks, l.elements
            );
            for n in &l.notes {
                let _ = write!(s, "; {n}");
            }
            s
        }
        None => "-".into(),
    }
}

fn index_html(rows: &[Row], threshold: f64) -> String {
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>skia vs browser</title>\
         <style>body{{font:14px sans-serif;margin:1em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}}\
         img{{max-width:100%;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}}\
         .error{{color:#b00}}.warn{{color:#a60}}.none{{color:#999}}ul{{margin:0;padding-left:1.2em}}\
         </style></head><body><h1>skia vs browser</h1>\
         <p>{} charts; median mismatch <b>{:.2}%</b> (pixelmatch, threshold {threshold}, \
         anti-aliasing not counted). Each strip: browser (Chart.js) | diff | skia.</p>\
         <table><tr><th>chart</th><th>mismatch</th><th>layout Δ px<br>area box tick elem</th>\
         <th>browser | diff | skia</th>\
         <th>skia messages</th><th>browser messages</th></tr>",
        rows.len(),
        median(ratios) * 100.0
    );
    for row in rows {
        let name = escape(&row.case.name);
        let strip = if row.skia.bitmap.is_some() && row.browser.bitmap.is_some() {
            format!("<a href=\"{name}.diff.png\"><img src=\"{name}.diff.png\"></a>")
        } else {
            let mut s = String::new();
            for (side, file) in [(&row.browser, "browser"), (&row.skia, "skia")] {
                if side.bitmap.is_some() {
                    let _ = write!(s, "<img src=\"{name}.{file}.png\"> ");
                }
            }
            s
        };
        let _ = write!(
            html,
            "<tr id=\"{name}\"><td><b>{name}</b><br>{}<br>\
             <a href=\"{name}.browser.png\">browser</a> · <a href=\"{name}.skia.png\">skia</a></td>\
             <td>{:.2}%</td><td>{}</td><td>{strip}</td><td>{}</td><td>{}</td></tr>",
            escape(&row.case.title),
            row.ratio * 100.0,
            escape(&layout_html(row.layout.as_ref())),
            messages_html(&row.skia),
            messages_html(&row.browser),
        );
    }
    html.push_str("</table></body></html>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(vec![0.3, 0.1, 0.2]), 0.2);
        assert_eq!(median(vec![0.4, 0.1, 0.2, 0.3]), 0.25);
        assert_eq!(median(vec![]), 0.0);
    }

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

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }

    use chart_raster_skia::elements::Area;
    use chart_raster_skia::layout::{DatasetLayout, ScaleLayout, TickLayout};

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
