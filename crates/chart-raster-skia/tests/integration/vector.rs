//! SVG and PDF output checked with the real tools: every gallery example (`fixtures/examples`)
//! is written as SVG and PDF, rasterised by `rsvg-convert` (librsvg) and `pdftoppm -r 96`
//! (poppler), and compared with the engine's own PNG by the fixtures' pixelmatch rule
//! (threshold 0.1); each must mismatch by at most 2%. `pdftotext` must find each PDF's text.
//!
//! Without the tools these tests print why and pass, unless
//! `CHART_RASTER_REQUIRE_VECTOR_TOOLS=1` (CI sets it), when they fail.

use chart_fixtures::{over_white, pixelmatch};
use chart_raster_skia::text::sprite::decode_png;
use chart_raster_skia::vector::VectorFormat;
use chart_raster_skia::Engine;
use chart_spec::{Bitmap, Cancel, RenderOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Largest share of mismatched pixels between a vector file, rasterised, and the PNG.
const TOLERANCE: f64 = 0.02;

/// Whether `tool` runs here; when it does not, the reason is printed, and the test fails if
/// CI asked for the tools.
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !ok {
        let why = format!("{tool} is not installed (Debian: librsvg2-bin, poppler-utils)");
        if std::env::var("CHART_RASTER_REQUIRE_VECTOR_TOOLS").as_deref() == Ok("1") {
            panic!("CHART_RASTER_REQUIRE_VECTOR_TOOLS=1 but {why}");
        }
        eprintln!("skipped: {why}");
    }
    ok
}

/// Runs `cmd` with `input` on its standard input; its standard output.
fn run(mut cmd: Command, input: &[u8]) -> Vec<u8> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn png(bytes: &[u8]) -> Bitmap {
    let (data, width, height) = decode_png(bytes).expect("a PNG");
    Bitmap {
        width,
        height,
        data,
    }
}

/// SVG → PNG at 96 dpi (1 user unit = 1 px).
pub fn rsvg(svg: &[u8]) -> Bitmap {
    let mut cmd = Command::new("rsvg-convert");
    cmd.args(["-f", "png"]);
    png(&run(cmd, svg))
}

/// A scratch folder of this test process.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chart-raster-vector-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// PDF → PNG at 96 dpi (0.75 pt = 1 px).
pub fn pdftoppm(pdf: &[u8], name: &str) -> Bitmap {
    let dir = scratch();
    let input = dir.join(format!("{name}.pdf"));
    std::fs::write(&input, pdf).expect("write pdf");
    let prefix = dir.join(name);
    let mut cmd = Command::new("pdftoppm");
    cmd.args(["-r", "96", "-png", "-singlefile"])
        .arg(&input)
        .arg(&prefix);
    run(cmd, &[]);
    let out = prefix.with_extension("png");
    let bitmap = png(&std::fs::read(&out).expect("pdftoppm output"));
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
    bitmap
}

/// The text pdftotext finds in a PDF.
pub fn pdftotext(pdf: &[u8]) -> String {
    let mut cmd = Command::new("pdftotext");
    cmd.args(["-", "-"]);
    String::from_utf8_lossy(&run(cmd, pdf)).into_owned()
}

/// The share of pixels that differ (pixelmatch at threshold 0.1, both over white).
pub fn mismatch(expected: &Bitmap, actual: &Bitmap) -> f64 {
    if (expected.width, expected.height) != (actual.width, actual.height) {
        return 1.0;
    }
    let (e, a) = (over_white(expected), over_white(actual));
    let n = pixelmatch(&e.data, &a.data, e.width, e.height, 0.1, None);
    n as f64 / (f64::from(e.width) * f64::from(e.height)).max(1.0)
}

/// Every gallery example as a request at devicePixelRatio 1, by name.
fn examples() -> Vec<(String, RenderOptions)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/examples");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixtures/examples") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        let mut opts = RenderOptions::new(v["config"].as_object().expect("config").clone());
        opts.width = v["width"].as_f64().expect("width");
        opts.height = v["height"].as_f64().expect("height");
        opts.device_pixel_ratio = 1.0;
        let name = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        out.push((name, opts));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Renders every example to PNG and to `format`, rasterises the vector file with `raster`
/// and checks the mismatch; prints the table.
fn every_example(format: VectorFormat, raster: impl Fn(&[u8], &str) -> Bitmap) {
    let engine = Engine::new();
    let mut failed = Vec::new();
    let mut table = String::new();
    for (name, opts) in examples() {
        let expected = engine.render(&opts).expect("png render").bitmap;
        let file = engine
            .render_vector_with(&opts, format, &Cancel::new())
            .expect("vector render");
        let actual = raster(&file.bytes, &name);
        let m = mismatch(&expected, &actual);
        table.push_str(&format!(
            "{name:32} {:6.3}%  {:8} bytes\n",
            m * 100.0,
            file.bytes.len()
        ));
        if m > TOLERANCE {
            failed.push(format!("{name}: {:.3}%", m * 100.0));
        }
    }
    eprintln!("{format:?} vs PNG, pixelmatch mismatch per example:\n{table}");
    assert!(failed.is_empty(), "over {TOLERANCE}: {failed:?}");
}

#[test]
fn svg_of_every_example_matches_its_png() {
    if !have("rsvg-convert") {
        return;
    }
    every_example(VectorFormat::Svg, |svg, _| rsvg(svg));
}

#[test]
fn pdf_of_every_example_matches_its_png() {
    if !have("pdftoppm") {
        return;
    }
    every_example(VectorFormat::Pdf, pdftoppm);
}

/// The chart titles of the examples, as text a PDF reader finds.
#[test]
fn pdf_text_is_selectable() {
    if !have("pdftotext") {
        return;
    }
    let engine = Engine::new();
    let mut checked = 0;
    for (name, opts) in examples() {
        let title = &opts.chart["options"]["plugins"]["title"]["text"];
        let Some(title) = title.as_str() else {
            continue;
        };
        // pdftotext gives right-to-left text (the Arabic and Hebrew examples) in its own
        // visual order; this check is about left-to-right titles.
        if title.chars().any(|c| matches!(c as u32, 0x0590..=0x08FF)) {
            continue;
        }
        let render = |format| {
            engine
                .render_vector_with(&opts, format, &Cancel::new())
                .expect("vector render")
                .bytes
        };
        // Charts the engine does not draw yet have no title to find.
        let svg = String::from_utf8(render(VectorFormat::Svg)).expect("utf-8");
        if !svg.contains(&format!(">{title}</text>")) {
            continue;
        }
        let pdf = render(VectorFormat::Pdf);
        let found = pdftotext(&pdf);
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words(&found).contains(&words(title)),
            "{name}: {title:?} not in {found:?}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} examples have a title");
}
