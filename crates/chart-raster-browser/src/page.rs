//! The page Chart.js runs in, and one render on it.
//!
//! A session's tab loads a shell page once (a `data:` URL whose Content-Security-Policy allows
//! inline scripts and `data:` images and nothing else, so no config can make Chromium fetch a
//! URL), then the pinned bundles are inserted as inline `<script>` elements whose source is
//! passed as a WebDriver argument. Each render is then one WebDriver `execute` call whose
//! arguments carry the config as a JSON *string* parsed in the page with `JSON.parse`: the
//! config is data from end to end and never passes through an HTML or JavaScript parser, so
//! `</script>`, `<!--`, U+2028 or quotes in it cannot escape.

use crate::base64;
use crate::layout::{ChartLayout, MAX_ELEMENTS, READ_LAYOUT_JS};
use chart_spec::{Bitmap, Level, Message, RenderOptions, Rendered};
use fantoccini::Client;
use serde::Deserialize;
use serde_json::{json, Value};

/// The shell document. `default-src 'none'` blocks every fetch (scripts, styles, fonts, images,
/// frames, XHR/fetch, WebSocket); inline scripts are allowed because the bundles are inlined.
const SHELL_HTML: &str = "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\
<title>chart-raster</title>\
<style>html,body{margin:0;padding:0;background:transparent}</style>\
</head><body></body></html>";

/// `data:` URL of [`SHELL_HTML`].
pub fn shell_url() -> String {
    format!(
        "data:text/html;charset=utf-8;base64,{}",
        base64::encode(SHELL_HTML.as_bytes())
    )
}

/// Inserts the bundles (argument 0: their sources, in load order), registers what the UMD
/// builds leave unregistered, and installs the console capture. Returns the Chart.js version
/// and any error a bundle threw while loading.
const SETUP_JS: &str = r#"
const sources = arguments[0];
// Count the animation frames the page has asked for, so a render can wait until charts that
// lay out in a later frame (chartjs-chart-graph, responsive resizes) have settled. Installed
// before the bundles load because some capture requestAnimationFrame at load time.
const pendingFrames = new Set();
const nativeFrame = window.requestAnimationFrame.bind(window);
const nativeCancel = window.cancelAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => {
  const id = nativeFrame((time) => {
    pendingFrames.delete(id);
    callback(time);
  });
  pendingFrames.add(id);
  return id;
};
window.cancelAnimationFrame = (id) => {
  pendingFrames.delete(id);
  nativeCancel(id);
};
// Math.random from a seed reset before each render, so layouts that use it (the word cloud's
// placement) come out the same for the same config: renders are cached and compared. The
// generator is mulberry32 (32-bit state, period 2^32), plenty for layout jitter.
let seed = 0;
Math.random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const errors = [];
const onError = (e) => { errors.push(String(e.message)); };
window.addEventListener('error', onError);
for (const source of sources) {
  const script = document.createElement('script');
  script.textContent = source;
  document.head.appendChild(script);
}
window.removeEventListener('error', onError);
if (typeof Chart === 'undefined') {
  return { version: null, errors };
}
// datalabels' UMD does not register itself; it is registered but hidden unless the config
// turns `display` on (globally in options.plugins.datalabels or per dataset).
if (window.ChartDataLabels) {
  Chart.register(window.ChartDataLabels);
  Chart.defaults.plugins.datalabels.display = false;
} else {
  errors.push('chartjs-plugin-datalabels did not load');
}
if (window['chartjs-plugin-gradient']) {
  Chart.register(window['chartjs-plugin-gradient']);
} else {
  errors.push('chartjs-plugin-gradient did not load');
}
// The word cloud seeds its layout with `randomRotationSeed`, else the chart's id, which counts
// up with every chart on the page; seed it as the first chart of a fresh page would be (id 0)
// so the same config always lays out the same. A config may still set its own seed.
if (Chart.defaults.datasets.wordCloud) {
  Chart.defaults.datasets.wordCloud.randomRotationSeed = 0;
} else {
  errors.push('chartjs-chart-wordcloud did not load');
}
// The zoom, annotation, matrix, sankey, treemap, wordcloud, geo, graph and venn UMD builds
// register their controllers, elements, scales and plugins themselves.
const format = (value) => {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch (_) {
    return String(value);
  }
};
const messages = [];
for (const level of ['warn', 'error']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    messages.push({ level, message: args.map(format).join(' ') });
    original(...args);
  };
}
// An exception thrown later, in a frame callback of a chart, is a message too.
window.addEventListener('error', (e) => {
  messages.push({ level: 'error', message: e.error instanceof Error ? e.error.message : String(e.message) });
});
window.__chartRaster = {
  messages,
  format,
  pendingFrames: () => pendingFrames.size,
  resetRandom: () => { seed = 0x2545f491; },
  nextFrame: nativeFrame,
  // Paints the requested colour under everything, as in Chart.js's "canvas background" recipe:
  // destination-over keeps whatever plugins drew in their own beforeDraw hooks on top.
  background: (color) => ({
    id: 'chartRasterBackground',
    beforeDraw(chart) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = 'rgba(0,0,0,0)';
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, chart.width, chart.height);
      ctx.restore();
    },
  }),
};
// Remembered so `leaks` can tell globals a render added (none should be).
window.__chartRaster.globals = new Set(Object.getOwnPropertyNames(window));
return { version: Chart.version, errors };
"#;

/// One render (asynchronous script). Arguments: config JSON text, width and height in CSS px,
/// device pixel ratio, background colour, whether to read the chart's layout, then
/// WebDriver's callback. Answers the canvas as base64 PNG, its size, the messages and, when
/// asked, the layout ([`crate::layout`]).
///
/// With animation off Chart.js draws inside `new Chart()`, but some controllers finish in a
/// later animation frame (chartjs-chart-graph lays trees and graphs out in one and redraws in
/// the next), so the bitmap is read once no frame callback is pending, after at most
/// `MAX_FRAMES` frames (a chart animating forever is read as it is then).
const RENDER_JS: &str = r#"
const [configText, width, height, dpr, background, withLayout, done] = arguments;
const MAX_FRAMES = 60;
const R = window.__chartRaster;
R.messages.length = 0;
R.resetRandom();
const box = document.createElement('div');
box.style.position = 'relative';
box.style.width = width + 'px';
box.style.height = height + 'px';
const canvas = document.createElement('canvas');
box.appendChild(canvas);
document.body.appendChild(box);
let failed = false;
try {
  const config = JSON.parse(configText);
  const o = config.options;
  const options = o !== null && typeof o === 'object' && !Array.isArray(o) ? o : {};
  config.options = options;
  options.animation = false;
  options.responsive = true;
  options.maintainAspectRatio = false;
  options.devicePixelRatio = dpr;
  if (config.plugins !== undefined) {
    R.messages.push({ level: 'warn', message: 'inline "plugins" need JavaScript functions and are ignored' });
  }
  config.plugins = [R.background(background)];
  // chartjs-chart-graph's force simulation would run for ~300 frames (5 s) before it settles;
  // unless the config says otherwise, run those ticks at once (same positions: d3-force is
  // deterministic and one timer frame is one tick).
  const types = [config.type].concat((config.data && Array.isArray(config.data.datasets)
    ? config.data.datasets : []).map((d) => d && d.type));
  if (types.includes('forceDirectedGraph')) {
    const sim = options.simulation !== null && typeof options.simulation === 'object'
      ? options.simulation : {};
    if (sim.initialIterations === undefined) sim.initialIterations = 300;
    options.simulation = sim;
  }
  new Chart(canvas, config);
} catch (e) {
  failed = true;
  R.messages.push({ level: 'error', message: R.format(e) });
}
// Reads the bitmap back and tidies the page. Runs from a frame callback, so anything it
// throws is answered too: WebDriver would otherwise wait for `done` until the page timeout.
const finish = () => {
  try {
    let out = canvas;
    if (failed) {
      // The chart threw before or while drawing: answer the background alone, as the image
      // the failed chart leaves behind, with the exception as the message.
      out = document.createElement('canvas');
      out.width = Math.max(1, Math.floor(width * dpr));
      out.height = Math.max(1, Math.floor(height * dpr));
      const ctx = out.getContext('2d');
      ctx.fillStyle = 'rgba(0,0,0,0)';
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, out.width, out.height);
    }
    const url = out.toDataURL('image/png');
    const result = {
      png: url.slice(url.indexOf(',') + 1),
      width: out.width,
      height: out.height,
      messages: R.messages.slice(),
    };
    try {
      const chart = Chart.getChart(canvas);
      if (chart && withLayout && !failed) result.layout = readLayout(chart, MAX_ELEMENTS);
      if (chart) chart.destroy();
    } catch (e) {
      result.messages.push({ level: 'error', message: R.format(e) });
    }
    box.remove();
    done(result);
  } catch (e) {
    box.remove();
    done({ failure: R.format(e) });
  }
};
let frames = 0;
const settle = () => {
  if (failed || R.pendingFrames() === 0 || frames >= MAX_FRAMES) {
    finish();
  } else {
    frames += 1;
    R.nextFrame(settle);
  }
};
settle();
"#;

/// Counts what a render could leak in the page: canvases, Chart.js instances, script
/// elements, globals.
const LEAKS_JS: &str = r#"
const known = window.__chartRaster.globals;
return {
  canvases: document.querySelectorAll('canvas').length,
  charts: Object.keys(Chart.instances).length,
  scripts: document.scripts.length,
  new_globals: Object.getOwnPropertyNames(window).filter((name) => !known.has(name)),
};
"#;

/// Tries to reach argument 0 from the page by `fetch`, an image and a style sheet; answers
/// which attempts got anything but a refusal. A fetch still pending after 2 s counts as having
/// got through (something answered the connection).
const PROBE_JS: &str = r#"
const [url, done] = arguments;
const reached = [];
const attempts = [
  fetch(url).then(() => reached.push('fetch'), () => {}),
  new Promise((resolve) => {
    const img = new Image();
    img.onload = () => { reached.push('image'); resolve(); };
    img.onerror = () => resolve();
    img.src = url;
  }),
  new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.onload = () => { reached.push('stylesheet'); link.remove(); resolve(); };
    link.onerror = () => { link.remove(); resolve(); };
    link.href = url;
    document.head.appendChild(link);
  }),
];
const timer = new Promise((resolve) => setTimeout(() => resolve('pending'), 2000));
Promise.race([Promise.all(attempts), timer]).then((outcome) => {
  if (outcome === 'pending') reached.push('pending');
  done(reached);
});
"#;

/// Which requests to `url` the page managed to make (empty when the network is fenced off).
pub async fn probe(client: &Client, url: &str) -> Result<Vec<String>, PageError> {
    let value = client
        .execute_async(PROBE_JS, vec![Value::String(url.into())])
        .await?;
    serde_json::from_value(value).map_err(|e| PageError::Page(format!("unexpected probe: {e}")))
}

/// What went wrong on a page.
#[derive(Debug)]
pub enum PageError {
    /// WebDriver or Chromium failed: the session can no longer be trusted.
    Driver(String),
    /// The page answered, but not with what we expect (bad bundles, undecodable image).
    Page(String),
}

impl From<fantoccini::error::CmdError> for PageError {
    fn from(e: fantoccini::error::CmdError) -> Self {
        PageError::Driver(e.to_string())
    }
}

#[derive(Deserialize)]
struct SetupResult {
    version: Option<String>,
    errors: Vec<String>,
}

/// Loads the shell and the bundles into the session's tab.
pub async fn setup(client: &Client, sources: &[String]) -> Result<(), PageError> {
    client.goto(&shell_url()).await?;
    let value = client.execute(SETUP_JS, vec![json!(sources)]).await?;
    let result: SetupResult = serde_json::from_value(value)
        .map_err(|e| PageError::Page(format!("unexpected setup result: {e}")))?;
    match result.version.as_deref() {
        Some("4.5.1") if result.errors.is_empty() => Ok(()),
        version => Err(PageError::Page(format!(
            "the bundles did not load (Chart.js version {version:?}, errors: {})",
            result.errors.join("; ")
        ))),
    }
}

#[derive(Deserialize)]
struct RenderResult {
    png: String,
    width: u32,
    height: u32,
    messages: Vec<PageMessage>,
    #[serde(default)]
    layout: Option<ChartLayout>,
}

#[derive(Deserialize)]
struct PageMessage {
    level: String,
    message: String,
}

/// Renders one request on a page prepared by [`setup`]; with `with_layout`, also reads the
/// live chart's layout (`None` when the chart threw).
pub async fn render(
    client: &Client,
    opts: &RenderOptions,
    with_layout: bool,
) -> Result<(Rendered, Option<ChartLayout>), PageError> {
    let config = Value::Object(opts.chart.clone()).to_string();
    let args = vec![
        Value::String(config),
        json!(opts.width),
        json!(opts.height),
        json!(opts.device_pixel_ratio),
        Value::String(opts.background_color.clone()),
        json!(with_layout),
    ];
    // The render script names `readLayout` and `MAX_ELEMENTS` only when asked to read the
    // layout, so a plain render runs it unchanged.
    let value = if with_layout {
        let script = format!("const MAX_ELEMENTS = {MAX_ELEMENTS};\n{READ_LAYOUT_JS}\n{RENDER_JS}");
        client.execute_async(&script, args).await?
    } else {
        client.execute_async(RENDER_JS, args).await?
    };
    if let Some(failure) = value.get("failure").and_then(Value::as_str) {
        return Err(PageError::Page(format!(
            "reading the canvas failed: {failure}"
        )));
    }
    let result: RenderResult = serde_json::from_value(value)
        .map_err(|e| PageError::Page(format!("unexpected render result: {e}")))?;
    let png = base64::decode(&result.png)
        .ok_or_else(|| PageError::Page("the canvas data URL is not base64".into()))?;
    let bitmap = decode_png(&png).map_err(PageError::Page)?;
    if (bitmap.width, bitmap.height) != (result.width, result.height) {
        return Err(PageError::Page(format!(
            "canvas is {}x{} but its PNG is {}x{}",
            result.width, result.height, bitmap.width, bitmap.height
        )));
    }
    let messages = result
        .messages
        .into_iter()
        .map(|m| Message {
            level: match m.level.as_str() {
                "warn" => Level::Warn,
                _ => Level::Error,
            },
            message: m.message,
        })
        .collect();
    Ok((Rendered { bitmap, messages }, result.layout))
}

/// What `leaks` counts on one session's page.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
pub struct PageLeaks {
    /// Browser tabs of the session (one is the page itself).
    #[serde(default)]
    pub tabs: usize,
    /// `<canvas>` elements left in the page.
    pub canvases: usize,
    /// Live Chart.js instances.
    pub charts: usize,
    /// `<script>` elements: one per bundle, unless something injected one.
    pub scripts: usize,
    /// Globals that appeared after the bundles loaded.
    pub new_globals: Vec<String>,
}

/// Counts tabs, canvases and charts of an idle session.
pub async fn leaks(client: &Client) -> Result<PageLeaks, PageError> {
    let tabs = client.windows().await?.len();
    let value = client.execute(LEAKS_JS, vec![]).await?;
    let mut leaks: PageLeaks = serde_json::from_value(value)
        .map_err(|e| PageError::Page(format!("unexpected leak report: {e}")))?;
    leaks.tabs = tabs;
    Ok(leaks)
}

/// Decodes the canvas PNG (8-bit RGBA from Chromium; other layouts expanded) to straight RGBA.
fn decode_png(bytes: &[u8]) -> Result<Bitmap, String> {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
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
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err("indexed PNG after expansion".into()),
    };
    Ok(Bitmap {
        width: info.width,
        height: info.height,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_blocks_the_network() {
        assert!(SHELL_HTML.contains("default-src 'none'"));
        let url = shell_url();
        let body = url.split(',').nth(1).unwrap();
        assert_eq!(base64::decode(body).unwrap(), SHELL_HTML.as_bytes());
    }

    #[test]
    fn decodes_an_rgb_png() {
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, 2, 1);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().unwrap();
            w.write_image_data(&[1, 2, 3, 4, 5, 6]).unwrap();
        }
        let bm = decode_png(&bytes).unwrap();
        assert_eq!((bm.width, bm.height), (2, 1));
        assert_eq!(bm.data, vec![1, 2, 3, 255, 4, 5, 6, 255]);
    }
}
