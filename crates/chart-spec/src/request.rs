//! The input of one render ([`RenderOptions`]): validated, defaults filled in, hashable.
//!
//! A request arrives either as a JSON object (the body of `POST /render`, or what the CLI builds
//! from its flags) or as query-string pairs (`GET /render`), where every value is a string and
//! the numeric fields are coerced. Both paths end in [`RenderOptions::from_json`], so the rules
//! and the error messages are the same.
//!
//! The [`RenderOptions::hash`] identifies a request for the cache: SHA-256 over a canonical JSON
//! of every field (defaults filled in, object keys sorted at every depth), so two requests that
//! differ only in key order or in spelling out a default share one cache entry.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::budget::{parse_json_split, parse_json_within, JsonText};
use crate::canonical::CanonicalWriter;
use crate::error::shorten;
use crate::limits::Limits;
use crate::split::SecondCore;

/// Default `width`, CSS pixels.
pub const DEFAULT_WIDTH: f64 = 800.0;
/// Default `height`, CSS pixels.
pub const DEFAULT_HEIGHT: f64 = 600.0;
/// Default `devicePixelRatio`.
pub const DEFAULT_DEVICE_PIXEL_RATIO: f64 = 2.0;
/// Default `backgroundColor`.
pub const DEFAULT_BACKGROUND_COLOR: &str = "white";
/// Default `quality` of JPEG and WebP.
pub const DEFAULT_QUALITY: u8 = 90;

// The size limits live with the other budgets; their paths here are kept for users.
pub use crate::limits::{
    MAX_DEVICE_PIXEL_RATIO, MAX_HEIGHT, MAX_JPEG_SIDE, MAX_PIXELS, MAX_WEBP_SIDE, MAX_WIDTH,
};
// The error type lives in its own module, which the budget checks share.
pub use crate::error::RequestError;

/// Image encoding of the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ImageFormat {
    /// PNG (default).
    #[default]
    Png,
    /// JPEG, lossy with `quality`.
    Jpeg,
    /// WebP, lossy with `quality`.
    Webp,
    /// SVG, written from the skia engine's display list (vector; `devicePixelRatio` and
    /// `quality` do not apply).
    Svg,
    /// PDF, one page, written from the skia engine's display list (vector, fonts embedded).
    Pdf,
}

impl ImageFormat {
    /// Every format, in declaration order: what a caller offers or iterates over (the
    /// `render_all_formats` example of chart-raster). A new variant goes here too; the test
    /// `all_lists_every_format` does not compile until its match names it.
    pub const ALL: &'static [ImageFormat] = &[
        ImageFormat::Png,
        ImageFormat::Jpeg,
        ImageFormat::Webp,
        ImageFormat::Svg,
        ImageFormat::Pdf,
    ];

    /// Whether this is a vector format (SVG, PDF): drawn by the skia engine only.
    pub fn is_vector(self) -> bool {
        matches!(self, ImageFormat::Svg | ImageFormat::Pdf)
    }

    /// The name used in requests and in the canonical JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpeg",
            ImageFormat::Webp => "webp",
            ImageFormat::Svg => "svg",
            ImageFormat::Pdf => "pdf",
        }
    }

    /// The MIME type of the encoded image.
    pub fn content_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Webp => "image/webp",
            ImageFormat::Svg => "image/svg+xml",
            ImageFormat::Pdf => "application/pdf",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
            ImageFormat::Webp => "webp",
            ImageFormat::Svg => "svg",
            ImageFormat::Pdf => "pdf",
        }
    }

    /// Parses a request value: `png`, `jpeg` (or `jpg`), `webp`, any case.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "jpeg" | "jpg" => Some(ImageFormat::Jpeg),
            "webp" => Some(ImageFormat::Webp),
            "svg" => Some(ImageFormat::Svg),
            "pdf" => Some(ImageFormat::Pdf),
            _ => None,
        }
    }
}

/// Which renderer draws the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EngineKind {
    /// The native renderer (default).
    #[default]
    Skia,
    /// Real Chart.js in headless Chromium.
    Browser,
}

impl EngineKind {
    /// The name used in requests and in the canonical JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineKind::Skia => "skia",
            EngineKind::Browser => "browser",
        }
    }

    /// Parses a request value: `skia` or `browser`, any case.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "skia" => Some(EngineKind::Skia),
            "browser" => Some(EngineKind::Browser),
            _ => None,
        }
    }
}

/// A Chart.js config object as the user wrote it (`type`, `data`, `options`): the input of
/// [`crate::resolve::resolve_for_render`], which turns it into the [`crate::Chart`] engines draw.
pub type ChartConfig = Map<String, Value>;

/// A validated render request. Every field has its default filled in.
///
/// From the JSON of a request, or in code from [`RenderOptions::new`] (every default) with
/// the fields that differ; options written in code pass [`RenderOptions::check`] before an
/// engine sees them.
///
/// ```
/// use chart_spec::{ImageFormat, Limits, RenderOptions};
///
/// let parsed = RenderOptions::from_json_bytes(br#"{"chart": {"type": "bar"}, "width": 400}"#)?;
/// assert_eq!((parsed.width, parsed.height), (400.0, 600.0));
///
/// let in_code = RenderOptions {
///     width: 400.0,
///     format: ImageFormat::Jpeg,
///     ..RenderOptions::new(parsed.chart.clone())
/// };
/// in_code.check(&Limits::default())?;
/// assert_eq!(in_code.bitmap_width(), 800); // devicePixelRatio 2 by default
///
/// let too_big = RenderOptions { height: 1e7, ..in_code };
/// assert!(too_big.check(&Limits::default()).is_err());
/// # Ok::<(), chart_spec::RequestError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The Chart.js config object (`type`, `data`, `options`).
    pub chart: ChartConfig,
    /// CSS pixels. Default: 800.
    pub width: f64,
    /// CSS pixels. Default: 600.
    pub height: f64,
    /// Bitmap = width·dpr × height·dpr. Default: 2.
    pub device_pixel_ratio: f64,
    /// Any CSS colour. Default: `white`.
    pub background_color: String,
    /// Default: png.
    pub format: ImageFormat,
    /// 0–100, for JPEG and WebP. Default: 90.
    pub quality: u8,
    /// Default: skia.
    pub engine: EngineKind,
}

/// The JSON type name of a value, for error messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A field that is absent or `null` takes its default.
fn field<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).filter(|v| !v.is_null())
}

fn number(obj: &Map<String, Value>, name: &'static str, default: f64) -> Result<f64, RequestError> {
    match field(obj, name) {
        None => Ok(default),
        Some(Value::Number(n)) => n.as_f64().ok_or(RequestError::NotANumber {
            field: name,
            got: n.to_string(),
        }),
        Some(other) => Err(RequestError::NotANumber {
            field: name,
            got: match other {
                Value::String(s) => format!("\"{}\"", shorten(s)),
                v => kind(v).to_string(),
            },
        }),
    }
}

fn string<'a>(
    obj: &'a Map<String, Value>,
    name: &'static str,
) -> Result<Option<&'a str>, RequestError> {
    match field(obj, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(RequestError::NotAString {
            field: name,
            got: kind(other),
        }),
    }
}

fn size(
    value: f64,
    field: &'static str,
    max: f64,
    constant: &'static str,
) -> Result<f64, RequestError> {
    if !value.is_finite() || value <= 0.0 {
        return Err(RequestError::NotPositive { field, value });
    }
    if value > max {
        return Err(RequestError::OverLimit {
            field,
            value,
            max,
            constant,
        });
    }
    Ok(value)
}

impl RenderOptions {
    /// Options with every default and the given chart config.
    pub fn new(chart: Map<String, Value>) -> Self {
        Self {
            chart,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            device_pixel_ratio: DEFAULT_DEVICE_PIXEL_RATIO,
            background_color: DEFAULT_BACKGROUND_COLOR.to_string(),
            format: ImageFormat::Png,
            quality: DEFAULT_QUALITY,
            engine: EngineKind::Skia,
        }
    }

    /// Parses and validates a JSON request body (the bytes of `POST /render`) within the
    /// default [`Limits`].
    pub fn from_json_bytes(body: &[u8]) -> Result<Self, RequestError> {
        Self::from_json_bytes_with_limits(body, &Limits::default())
    }

    /// Parses and validates a JSON request body within `limits`.
    ///
    /// The raw bytes are held to `MAX_JSON_VALUES` and `MAX_JSON_DEPTH` while they are parsed
    /// ([`parse_json_within`]: the parse stops one value past the budget, else
    /// [`scan_json`](crate::budget::scan_json) counts first), so parsing never takes more
    /// memory than the value budget allows, whatever the body's size. Every container is
    /// made at its exact size, and the parsed config is moved, not copied, into the options.
    pub fn from_json_bytes_with_limits(body: &[u8], limits: &Limits) -> Result<Self, RequestError> {
        let v = parse_json_within(body, JsonText::RequestBody, limits)?
            .map_err(|e| RequestError::InvalidJson(e.to_string()))?;
        Self::from_json_value_with_limits(v, limits)
    }

    /// [`from_json_bytes_with_limits`](Self::from_json_bytes_with_limits), the body parsed
    /// on two threads when it is long (64 KiB or more) and `second_core` lends one
    /// ([`parse_json_split`]): the same options, refusals and errors.
    pub fn from_json_bytes_with_core(
        body: &[u8],
        limits: &Limits,
        second_core: SecondCore,
    ) -> Result<Self, RequestError> {
        let v = parse_json_split(body, JsonText::RequestBody, limits, second_core)?
            .map_err(|e| RequestError::InvalidJson(e.to_string()))?;
        Self::from_json_value_with_limits(v, limits)
    }

    /// [`from_json_with_limits`](Self::from_json_with_limits) on a request object it may
    /// take apart: the chart config is moved into the options instead of copied, so a
    /// request's config is never held twice (a copy of a 10,000-point config costs about
    /// as much as parsing it, and dropping the copy as much again).
    pub fn from_json_value_with_limits(v: Value, limits: &Limits) -> Result<Self, RequestError> {
        let mut opts = Self::validate(&v, limits)?;
        if let Value::Object(mut obj) = v {
            if let Some(Value::Object(chart)) = obj.remove("chart") {
                opts.chart = chart;
            }
        }
        Ok(opts)
    }

    /// Validates a JSON request object and fills in defaults, within the default [`Limits`].
    /// Unknown fields are ignored; a field set to `null` takes its default.
    pub fn from_json(v: &Value) -> Result<Self, RequestError> {
        Self::from_json_with_limits(v, &Limits::default())
    }

    /// Validates a JSON request object and fills in defaults; the chart config must keep to
    /// the input budgets of `limits` ([`crate::budget::check_chart`], run before the config
    /// is copied or read any further). Unknown fields are ignored; a field set to `null`
    /// takes its default.
    pub fn from_json_with_limits(v: &Value, limits: &Limits) -> Result<Self, RequestError> {
        let mut opts = Self::validate(v, limits)?;
        if let Some(Value::Object(chart)) = v.get("chart") {
            opts.chart = chart.clone();
        }
        Ok(opts)
    }

    /// Every check of [`from_json_with_limits`](Self::from_json_with_limits), the chart
    /// config's budgets included; the options it returns have an empty `chart`, for the
    /// caller to fill (the config is known to be an object by then).
    fn validate(v: &Value, limits: &Limits) -> Result<Self, RequestError> {
        let obj = v.as_object().ok_or(RequestError::BodyNotObject(kind(v)))?;
        let chart = match field(obj, "chart") {
            None => return Err(RequestError::MissingChart),
            Some(Value::Object(m)) => m,
            Some(other) => return Err(RequestError::ChartNotObject(kind(other))),
        };

        let width = size(
            number(obj, "width", DEFAULT_WIDTH)?,
            "width",
            MAX_WIDTH,
            "MAX_WIDTH",
        )?;
        let height = size(
            number(obj, "height", DEFAULT_HEIGHT)?,
            "height",
            MAX_HEIGHT,
            "MAX_HEIGHT",
        )?;
        let device_pixel_ratio = size(
            number(obj, "devicePixelRatio", DEFAULT_DEVICE_PIXEL_RATIO)?,
            "devicePixelRatio",
            MAX_DEVICE_PIXEL_RATIO,
            "MAX_DEVICE_PIXEL_RATIO",
        )?;
        let quality = number(obj, "quality", f64::from(DEFAULT_QUALITY))?;
        if !(0.0..=100.0).contains(&quality) {
            return Err(RequestError::QualityRange(quality));
        }
        let format = match string(obj, "format")? {
            None => ImageFormat::Png,
            Some(s) => {
                ImageFormat::parse(s).ok_or_else(|| RequestError::InvalidFormat(shorten(s)))?
            }
        };
        let engine = match string(obj, "engine")? {
            None => EngineKind::Skia,
            Some(s) => {
                EngineKind::parse(s).ok_or_else(|| RequestError::InvalidEngine(shorten(s)))?
            }
        };
        check_engine_format(engine, format)?;
        let background_color = string(obj, "backgroundColor")?.unwrap_or(DEFAULT_BACKGROUND_COLOR);
        // A colour is short; a huge one would be copied, hashed and echoed in messages.
        crate::budget::check_text(background_color, "backgroundColor", limits)?;
        let background_color = background_color.to_string();
        let opts = Self {
            chart: Map::new(),
            width,
            height,
            device_pixel_ratio,
            background_color,
            format,
            quality: quality.round() as u8,
            engine,
        };
        opts.check_bitmap()?;
        // The cheap checks first; the config is copied or moved only once it is known to be
        // in budget.
        crate::budget::check_chart(chart, limits)?;
        Ok(opts)
    }

    /// Validates `GET /render` query pairs (already percent-decoded). `chart` is JSON text;
    /// `width`, `height`, `devicePixelRatio` and `quality` are coerced to numbers; other
    /// parameters (such as `api_key`) are ignored. The last of repeated parameters wins.
    /// Within the default [`Limits`].
    pub fn from_query<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, RequestError> {
        Self::from_query_with_limits(pairs, &Limits::default())
    }

    /// [`from_query`](Self::from_query) within `limits`.
    pub fn from_query_with_limits<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        limits: &Limits,
    ) -> Result<Self, RequestError> {
        let mut obj = Map::new();
        for (k, v) in pairs {
            let (k, v) = (k.as_ref(), v.as_ref());
            let value = match k {
                "chart" => {
                    if v.trim().is_empty() {
                        continue;
                    }
                    // Budgets before parsing, as for a body; and the config of an earlier
                    // `chart` parameter is dropped first, so two are never held at once.
                    obj.remove("chart");
                    parse_json_within(v.as_bytes(), JsonText::ChartConfig, limits)?
                        .map_err(|e| RequestError::ChartNotJson(e.to_string()))?
                }
                "width" | "height" | "devicePixelRatio" | "quality" => {
                    let field: &'static str = match k {
                        "width" => "width",
                        "height" => "height",
                        "devicePixelRatio" => "devicePixelRatio",
                        _ => "quality",
                    };
                    let n: f64 = v.trim().parse().map_err(|_| RequestError::NotANumber {
                        field,
                        got: format!("\"{}\"", shorten(v)),
                    })?;
                    // NaN and infinities have no JSON number; let `size` name the problem.
                    if !n.is_finite() {
                        return Err(RequestError::NotPositive { field, value: n });
                    }
                    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
                }
                "backgroundColor" | "format" | "engine" => Value::String(v.to_string()),
                _ => continue,
            };
            obj.insert(k.to_string(), value);
        }
        Self::from_json_value_with_limits(Value::Object(obj), limits)
    }

    /// Checks options built in code (`RenderOptions { width: 400.0, ..RenderOptions::new(c) }`)
    /// as [`from_json_with_limits`](Self::from_json_with_limits) checks a request: sizes,
    /// `quality`, the bitmap and format limits, and the chart config's input budgets. The
    /// fields are public, so a caller that did not go through a parser must pass here before
    /// an engine sees the options.
    pub fn check(&self, limits: &Limits) -> Result<(), RequestError> {
        size(self.width, "width", MAX_WIDTH, "MAX_WIDTH")?;
        size(self.height, "height", MAX_HEIGHT, "MAX_HEIGHT")?;
        size(
            self.device_pixel_ratio,
            "devicePixelRatio",
            MAX_DEVICE_PIXEL_RATIO,
            "MAX_DEVICE_PIXEL_RATIO",
        )?;
        if self.quality > 100 {
            return Err(RequestError::QualityRange(f64::from(self.quality)));
        }
        check_engine_format(self.engine, self.format)?;
        crate::budget::check_text(&self.background_color, "backgroundColor", limits)?;
        self.check_bitmap()?;
        crate::budget::check_chart(&self.chart, limits)?;
        Ok(())
    }

    /// Bitmap width in device pixels: `floor(width · dpr)`, as the skia engine sizes it.
    pub fn bitmap_width(&self) -> u32 {
        device_side_f32(self.width, self.device_pixel_ratio)
    }

    /// Bitmap height in device pixels: `floor(height · dpr)`.
    pub fn bitmap_height(&self) -> u32 {
        device_side_f32(self.height, self.device_pixel_ratio)
    }

    /// Checks the bitmap size against [`MAX_PIXELS`] and the format's side limit.
    ///
    /// Each side is checked as both engines compute it: the skia rasteriser floors
    /// `width·dpr` in `f32`, Chart.js's `retinaScale` (the browser engine) floors it in `f64`.
    /// A request passes only if both give at least one pixel, and the larger must fit, so
    /// no engine is handed a size it cannot allocate (`width: 0.4` at dpr 2 is a 0-pixel-wide
    /// bitmap, a client error, not an engine failure).
    fn check_bitmap(&self) -> Result<(), RequestError> {
        let dpr = self.device_pixel_ratio;
        let sides = |css: f64| {
            let a = u64::from(device_side_f32(css, dpr));
            let b = device_side_f64(css, dpr);
            (a.min(b), a.max(b))
        };
        let (w_min, w) = sides(self.width);
        let (h_min, h) = sides(self.height);
        let pixels = w.saturating_mul(h);
        if w_min == 0 || h_min == 0 {
            return Err(RequestError::BitmapSize {
                width: w_min,
                height: h_min,
                pixels: w_min.saturating_mul(h_min),
            });
        }
        if pixels > MAX_PIXELS {
            return Err(RequestError::BitmapSize {
                width: w,
                height: h,
                pixels,
            });
        }
        let side = match self.format {
            ImageFormat::Png | ImageFormat::Svg | ImageFormat::Pdf => None,
            ImageFormat::Jpeg => Some(MAX_JPEG_SIDE),
            ImageFormat::Webp => Some(MAX_WEBP_SIDE),
        };
        if let Some(max) = side {
            if w > u64::from(max) || h > u64::from(max) {
                return Err(RequestError::FormatSideLimit {
                    format: self.format.as_str(),
                    max,
                    width: w,
                    height: h,
                });
            }
        }
        Ok(())
    }

    /// The request as a JSON object with every field, in the request's own field names.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "backgroundColor".into(),
            Value::String(self.background_color.clone()),
        );
        m.insert("chart".into(), Value::Object(self.chart.clone()));
        m.insert("devicePixelRatio".into(), json_f64(self.device_pixel_ratio));
        m.insert("engine".into(), Value::String(self.engine.as_str().into()));
        m.insert("format".into(), Value::String(self.format.as_str().into()));
        m.insert("height".into(), json_f64(self.height));
        m.insert("quality".into(), Value::from(self.quality));
        m.insert("width".into(), json_f64(self.width));
        Value::Object(m)
    }

    /// The canonical JSON text: every field with defaults filled in, object keys sorted at
    /// every depth, no whitespace. The crate's `serde_json` keeps insertion order
    /// (`preserve_order`, needed by the config resolution), so keys are sorted here explicitly.
    pub fn canonical_json(&self) -> String {
        // Writing into a `Vec` cannot fail.
        let bytes = self.write_canonical(Vec::new(), None).unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// The cache key: the first 16 lowercase hex characters of SHA-256 over
    /// [`canonical_json`](Self::canonical_json).
    ///
    /// The canonical JSON is streamed into the hash as it is written, in one pass over the
    /// config: neither the text nor a sorted copy of the config is ever held, so hashing a
    /// large config costs no memory in proportion to it (beyond one list of key references
    /// per open object).
    pub fn hash(&self) -> String {
        self.hash_on(None)
    }

    /// [`hash`](Self::hash), the canonical JSON of the config's first array of 4,096
    /// elements or more written in two parts on two threads when `second_core` lends one
    /// (asked only for such an array; see [`crate::split`]): the same key, the part written
    /// on the other thread hashed after the part before it.
    pub fn hash_with_core(&self, second_core: SecondCore) -> String {
        self.hash_on(Some(second_core))
    }

    fn hash_on(&self, second_core: Option<SecondCore>) -> String {
        // Writing into a hash cannot fail.
        let digest = self
            .write_canonical(HashSink(Sha256::new()), second_core)
            .map(|sink| sink.0.finalize())
            .unwrap_or_default();
        let mut out = String::with_capacity(16);
        for b in &digest[..8] {
            out.push_str(&format!("{b:02x}"));
        }
        out
    }

    /// Writes the canonical JSON into `sink`: [`to_json`](Self::to_json)'s fields, already
    /// in key order.
    fn write_canonical<W: std::io::Write>(
        &self,
        sink: W,
        second_core: Option<SecondCore>,
    ) -> std::io::Result<W> {
        let mut w = match second_core {
            Some(second_core) => CanonicalWriter::with_second_core(sink, second_core),
            None => CanonicalWriter::new(sink),
        };
        w.raw(b"{\"backgroundColor\":")?;
        w.string(&self.background_color)?;
        w.raw(b",\"chart\":")?;
        w.object(&self.chart)?;
        w.raw(b",\"devicePixelRatio\":")?;
        w.scalar(&json_f64(self.device_pixel_ratio))?;
        w.raw(b",\"engine\":")?;
        w.string(self.engine.as_str())?;
        w.raw(b",\"format\":")?;
        w.string(self.format.as_str())?;
        w.raw(b",\"height\":")?;
        w.scalar(&json_f64(self.height))?;
        w.raw(b",\"quality\":")?;
        w.scalar(&Value::from(self.quality))?;
        w.raw(b",\"width\":")?;
        w.scalar(&json_f64(self.width))?;
        w.raw(b"}")?;
        w.finish()
    }
}

/// SVG and PDF are written from the skia engine's display list; the browser engine hands
/// back a bitmap, and a bitmap wrapped in an SVG or PDF would not be the vector file asked
/// for, so that combination is refused (HTTP 400).
fn check_engine_format(engine: EngineKind, format: ImageFormat) -> Result<(), RequestError> {
    if engine == EngineKind::Browser && format.is_vector() {
        return Err(RequestError::VectorNeedsSkia(format.as_str()));
    }
    Ok(())
}

/// An `io::Write` that feeds SHA-256.
struct HashSink(Sha256);

impl std::io::Write for HashSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A device side as the skia rasteriser computes it (`Settings` holds `f32`s; mirrors
/// `retinaScale` in Chart.js helpers.dom, which floors). Saturating: NaN gives 0.
fn device_side_f32(css: f64, dpr: f64) -> u32 {
    ((css as f32) * (dpr as f32)).floor().max(0.0) as u32
}

/// A device side as Chart.js's `retinaScale` computes it: `Math.floor(width * pixelRatio)`.
fn device_side_f64(css: f64, dpr: f64) -> u64 {
    (css * dpr).floor().max(0.0) as u64
}

/// Integral sizes are written as integers so `800` and `800.0` hash alike.
fn json_f64(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // The canonical form as it was first written, by building a sorted copy: the reference
    // the canonical writer must reproduce byte for byte (cache keys must not change).
    use crate::canonical::tests::sorted;

    #[test]
    fn canonical_json_is_the_sorted_copy_written_out() {
        let chart = json!({
            "type": "bar",
            "data": {"labels": ["b", "a", "é", "A"], "datasets": [
                {"data": [1, 2.5, -3e-7, 1e300, null, true, "x\u{0}\"y"], "z": {}, "a": []},
                {"data": {"b": 1, "a": {"d": [{"k": 1, "c": 2}], "b": 2}}}
            ]},
            "options": {"é": 1, "e": 2, "E": 3, "": 4, "plugins": {"title": {"text": "t"}}}
        });
        let Value::Object(chart) = chart else {
            unreachable!()
        };
        let mut opts = RenderOptions::new(chart);
        opts.width = 333.25;
        opts.format = ImageFormat::Webp;
        opts.quality = 7;
        let reference = serde_json::to_string(&sorted(&opts.to_json())).unwrap();
        assert_eq!(opts.canonical_json(), reference);
        let digest = Sha256::digest(reference.as_bytes());
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(opts.hash(), hex);
    }

    #[test]
    fn sorted_sorts_nested_objects_inside_arrays() {
        let v = sorted(&json!({"b": [{"z": 1, "a": 2}], "a": {"y": 1, "x": 2}}));
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"a":{"x":2,"y":1},"b":[{"a":2,"z":1}]}"#
        );
    }

    #[test]
    fn integral_floats_are_written_as_integers() {
        assert_eq!(json_f64(800.0), json!(800));
        assert_eq!(json_f64(1.5), json!(1.5));
    }

    #[test]
    fn all_lists_every_format() {
        for &f in ImageFormat::ALL {
            assert_eq!(ImageFormat::parse(f.as_str()), Some(f));
        }
        // Exhaustive: a new variant stops this compiling; add it to ALL and here.
        let position = |f: ImageFormat| match f {
            ImageFormat::Png => 0,
            ImageFormat::Jpeg => 1,
            ImageFormat::Webp => 2,
            ImageFormat::Svg => 3,
            ImageFormat::Pdf => 4,
        };
        let listed: Vec<usize> = ImageFormat::ALL.iter().map(|&f| position(f)).collect();
        assert_eq!(listed, [0, 1, 2, 3, 4]);
    }

    /// Options built in code get the parser's checks: the fields are public.
    #[test]
    fn check_refuses_what_the_parser_refuses() {
        let limits = Limits::default();
        let ok = RenderOptions::new(Map::new());
        assert_eq!(ok.check(&limits), Ok(()));
        let bad = [
            RenderOptions {
                height: 0.0,
                ..ok.clone()
            },
            RenderOptions {
                device_pixel_ratio: MAX_DEVICE_PIXEL_RATIO * 2.0,
                ..ok.clone()
            },
            RenderOptions {
                quality: 101,
                ..ok.clone()
            },
            RenderOptions {
                width: 0.3,
                device_pixel_ratio: 1.0,
                ..ok.clone()
            },
            RenderOptions {
                background_color: "x".repeat(limits.max_text_chars + 1),
                ..ok.clone()
            },
        ];
        for opts in bad {
            let from_json = RenderOptions::from_json_with_limits(&opts.to_json(), &limits);
            let checked = opts.check(&limits);
            assert!(checked.is_err(), "{}", opts.canonical_json());
            assert_eq!(checked.err(), from_json.err());
        }
        // JSON has no NaN (it reads as `null`, the default); code can write one.
        let nan = RenderOptions {
            width: f64::NAN,
            ..ok
        };
        assert!(matches!(
            nan.check(&limits),
            Err(RequestError::NotPositive { field: "width", .. })
        ));
    }

    /// A 10,000-point time series as `cargo xtask bench-peers` sends it, parsed and keyed
    /// on two threads: the options and the key of one thread, the key a fixed one (cache
    /// keys must not change).
    #[test]
    fn a_large_request_parses_and_hashes_alike_on_two_threads() {
        use crate::split::tests::{here_only, spawned};
        let data: Vec<Value> = (0..10_000)
            .map(|i| {
                let t = f64::from(i);
                json!({"x": 1_767_225_600_000.0 + t * 60_000.0, "y": (t * 0.013).rem_euclid(7.0)})
            })
            .collect();
        let body = json!({
            "chart": {"type": "line", "data": {"datasets": [{"label": "signal", "data": data}]},
                      "options": {"parsing": false, "scales": {"x": {"type": "time"}}}},
            "width": 800, "height": 600, "devicePixelRatio": 2, "format": "png"
        });
        let text = serde_json::to_vec(&body).unwrap();
        let limits = Limits::default();
        let serial = RenderOptions::from_json_bytes_with_limits(&text, &limits).unwrap();
        for second_core in [spawned as SecondCore, here_only] {
            let split = RenderOptions::from_json_bytes_with_core(&text, &limits, second_core);
            let split = split.unwrap();
            assert_eq!(split, serial);
            assert_eq!(split.hash_with_core(second_core), "d074aacc299d4935");
        }
        assert_eq!(serial.hash(), "d074aacc299d4935");
        let reference = serde_json::to_string(&sorted(&serial.to_json())).unwrap();
        let digest = Sha256::digest(reference.as_bytes());
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "d074aacc299d4935");
        // Over the value budget by one: the one thread's refusal.
        let tight = Limits {
            max_json_values: 30_010,
            ..Limits::default()
        };
        let whole = RenderOptions::from_json_bytes_with_limits(&text, &tight).unwrap_err();
        let split = RenderOptions::from_json_bytes_with_core(&text, &tight, spawned).unwrap_err();
        assert_eq!(split.to_string(), whole.to_string());
    }
}
