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
//! Inputs may be gallery examples (`{title, config, width, height}`), request bodies
//! (`{chart, width, …}`) or bare Chart.js configs (`{type, data, options}`).

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use chart_fixtures::{pixelmatch, side_by_side, write_png};
use chart_raster_browser::{BrowserConfig, BrowserEngine};
use chart_spec::{Bitmap, EngineKind, Message, RenderOptions};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Per-pixel YIQ threshold of the fixtures README.
const DEFAULT_THRESHOLD: f64 = 0.1;

struct Args {
    inputs: Vec<PathBuf>,
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
        inputs.extend(json_files(&crate_root().join("fixtures/examples"))?);
    }
    for dir in &cli.dir {
        inputs.extend(json_files(dir)?);
    }
    inputs.extend(cli.configs);
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

fn load_case(path: &Path, dpr: Option<f64>) -> Result<Case> {
    let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let v: Value =
        serde_json::from_slice(&text).with_context(|| format!("parsing {}", path.display()))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "chart".into());
    let title = v
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or(&name)
        .to_string();
    // Normalise the three accepted shapes to a request body.
    let mut body = if let Some(config) = v.get("config") {
        json!({
            "chart": config,
            "width": v.get("width").cloned().unwrap_or(json!(800)),
            "height": v.get("height").cloned().unwrap_or(json!(600)),
        })
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

struct Row {
    case: Case,
    skia: Side,
    browser: Side,
    /// Mismatched pixels over all pixels; 1 when a side failed or the sizes differ.
    ratio: f64,
}

pub fn run(cli: Cli) -> Result<()> {
    let args = parse_args(cli)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let cases = args
        .inputs
        .iter()
        .map(|p| load_case(p, args.dpr))
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
        let mut browser_side = match runtime.block_on(browser.render(&case.opts)) {
            Ok(r) => Side {
                bitmap: Some(r.bitmap),
                messages: r.messages,
                failure: None,
                millis: 0,
            },
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
        rows.push(Row {
            case,
            skia: skia_side,
            browser: browser_side,
            ratio,
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
        "{:<28} {:>9} {:>9} {:>9} {:>8} {:>8}  notes",
        "chart", "mismatch", "skia msg", "brws msg", "skia ms", "brws ms"
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
        println!(
            "{:<28} {:>8.2}% {:>9} {:>9} {:>8} {:>8}  {}",
            row.case.name,
            row.ratio * 100.0,
            row.skia.messages.len(),
            row.browser.messages.len(),
            row.skia.millis,
            row.browser.millis,
            notes.join("; ")
        );
    }
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    println!(
        "{} charts, median mismatch {:.2}%",
        rows.len(),
        median(ratios) * 100.0
    );
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
         <table><tr><th>chart</th><th>mismatch</th><th>browser | diff | skia</th>\
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
             <td>{:.2}%</td><td>{strip}</td><td>{}</td><td>{}</td></tr>",
            escape(&row.case.title),
            row.ratio * 100.0,
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

    #[test]
    fn every_example_loads() {
        let dir = crate_root().join("fixtures/examples");
        let Ok(files) = json_files(&dir) else {
            eprintln!("skipped: no {}", dir.display());
            return;
        };
        for f in files {
            let case = load_case(&f, None).unwrap();
            assert!(
                case.opts.width > 0.0 && case.opts.height > 0.0,
                "{}",
                case.name
            );
        }
    }
}
