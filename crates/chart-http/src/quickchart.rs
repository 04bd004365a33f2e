//! `GET|POST /chart`: QuickChart's request shape, so a QuickChart user switches by changing
//! the host. The fields map onto [`RenderOptions`] with QuickChart's defaults (500×300,
//! devicePixelRatio 2, transparent background), so a `/chart` request and the equivalent
//! `/render` request are one request: same options, same hash, same cache entry.
//!
//! | QuickChart | here |
//! |---|---|
//! | `c` / `chart`: JSON or a JavaScript object literal | the literal is read as JSON5 (`crate::js_literal`); functions are not evaluated and are reported in `X-Chart-Messages` |
//! | `w` / `width`, `h` / `height` | CSS pixels (default 500, 300) |
//! | `devicePixelRatio` | default 2 |
//! | `bkg` / `backgroundColor` | default `transparent` |
//! | `f` / `format`: png, webp, jpg, svg, pdf, base64 | png, webp, jpg (jpeg), svg, pdf (skia engine; see `/render`); base64 = the PNG as a `data:image/png;base64,` URL in a text/plain body |
//! | `v` / `version` | Chart.js 4 is what renders; any other version is reported in `X-Chart-Messages` |
//! | `encoding`: url or base64 | base64 decodes `c` first (standard or URL-safe alphabet) |
//! | `key` | the API key, when one is set |

use base64::Engine as _;
use chart_raster::spec::budget::{parse_json_within, JsonText};
use chart_raster::spec::Limits;
use chart_raster::{Message, RenderOptions};
use serde_json::{Map, Value};

use crate::js_literal;

/// QuickChart's default width, CSS pixels.
pub const QUICKCHART_WIDTH: f64 = 500.0;
/// QuickChart's default height, CSS pixels.
pub const QUICKCHART_HEIGHT: f64 = 300.0;
/// QuickChart's default device pixel ratio.
pub const QUICKCHART_DEVICE_PIXEL_RATIO: f64 = 2.0;
/// QuickChart's default background.
pub const QUICKCHART_BACKGROUND: &str = "transparent";

/// A `/chart` request, ready for the service.
#[derive(Debug)]
pub struct ChartRequest {
    /// What `/render` would get.
    pub opts: RenderOptions,
    /// Reports about the request itself (functions left out, the version), to add to the
    /// render's own messages.
    pub messages: Vec<Message>,
    /// `format=base64`: answer with the PNG as a data URL.
    pub base64: bool,
    /// The `key` field, for authentication.
    pub key: Option<String>,
}

/// The fields of a QuickChart request under their long names, each as sent.
#[derive(Default)]
struct Fields {
    chart: Option<Value>,
    width: Option<Value>,
    height: Option<Value>,
    device_pixel_ratio: Option<Value>,
    background_color: Option<Value>,
    format: Option<String>,
    version: Option<String>,
    encoding: Option<String>,
    key: Option<String>,
    // Our own options, accepted too.
    quality: Option<Value>,
    engine: Option<Value>,
}

impl Fields {
    /// Takes one field; an unknown name is ignored, a later value wins over an earlier one.
    fn set(&mut self, name: &str, value: Value) {
        let text = || match &value {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        };
        match name {
            "c" | "chart" => self.chart = Some(value),
            "w" | "width" => self.width = Some(value),
            "h" | "height" => self.height = Some(value),
            "devicePixelRatio" => self.device_pixel_ratio = Some(value),
            "bkg" | "backgroundColor" => self.background_color = Some(value),
            "f" | "format" => self.format = text(),
            "v" | "version" => self.version = text(),
            "encoding" => self.encoding = text(),
            "key" => self.key = text(),
            "quality" => self.quality = Some(value),
            "engine" => self.engine = Some(value),
            _ => {}
        }
    }
}

/// `GET /chart`: the percent-decoded query pairs.
pub fn from_query(pairs: Vec<(String, String)>, limits: &Limits) -> Result<ChartRequest, String> {
    let mut f = Fields::default();
    for (k, v) in pairs {
        f.set(&k, Value::String(v));
    }
    build(f, limits)
}

/// `POST /chart`: a JSON body with the same fields (`chart` an object, or a string holding
/// JSON or a JavaScript literal).
pub fn from_body(body: &[u8], limits: &Limits) -> Result<ChartRequest, String> {
    let v = parse_json_within(body, JsonText::RequestBody, limits)
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("Invalid JSON body: {e}"))?;
    let Value::Object(obj) = v else {
        return Err("Invalid request body: expected a JSON object".into());
    };
    let mut f = Fields::default();
    for (k, v) in obj {
        f.set(&k, v);
    }
    build(f, limits)
}

/// A number given as a number or as text (`"500"`), as QuickChart reads it; anything else is
/// passed on for the request validation to name.
fn numeric(v: Value) -> Value {
    match &v {
        Value::String(s) => s
            .trim()
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map_or(v, Value::Number),
        _ => v,
    }
}

fn build(f: Fields, limits: &Limits) -> Result<ChartRequest, String> {
    let mut messages = Vec::new();
    let chart = match f.chart {
        None | Some(Value::Null) => return Err("You are missing variable `c` or `chart`".into()),
        Some(Value::String(text)) => {
            let text = if f.encoding.as_deref().map(str::trim) == Some("base64") {
                decode_base64(&text)?
            } else {
                text
            };
            let converted =
                js_literal::to_json(&text, limits.max_json_depth).map_err(|e| e.to_string())?;
            messages.extend(converted.messages.into_iter().map(Message::warn));
            parse_json_within(converted.json.as_bytes(), JsonText::ChartConfig, limits)
                .map_err(|e| e.to_string())?
                .map_err(|e| format!("Invalid chart: {e}"))?
        }
        Some(other) => other,
    };
    let mut base64 = false;
    let format = match f.format.as_deref().map(|s| s.trim().to_ascii_lowercase()) {
        None => None,
        Some(s) if s.is_empty() => None,
        Some(s) if s == "base64" => {
            base64 = true;
            Some("png".to_string())
        }
        Some(s) => Some(s),
    };
    if let Some(v) = f.version.as_deref().map(str::trim) {
        if !(v.is_empty() || v == "4" || v.starts_with("4.")) {
            messages.push(Message::warn(format!(
                "Chart.js version {} was requested: this service renders Chart.js 4; the \
                 version is ignored, and options of older versions (such as scales.xAxes) may \
                 not apply",
                js_literal::shorten(v, 40)
            )));
        }
    }
    let mut req = Map::new();
    req.insert("chart".into(), chart);
    let num = |v: Option<Value>, default: f64| {
        v.filter(|v| !matches!(v, Value::Null) && v.as_str() != Some(""))
            .map_or_else(|| serde_json::json!(default), numeric)
    };
    req.insert("width".into(), num(f.width, QUICKCHART_WIDTH));
    req.insert("height".into(), num(f.height, QUICKCHART_HEIGHT));
    req.insert(
        "devicePixelRatio".into(),
        num(f.device_pixel_ratio, QUICKCHART_DEVICE_PIXEL_RATIO),
    );
    let background = f
        .background_color
        .filter(|v| !matches!(v, Value::Null) && v.as_str() != Some(""))
        .unwrap_or_else(|| Value::String(QUICKCHART_BACKGROUND.into()));
    req.insert("backgroundColor".into(), background);
    if let Some(fmt) = format {
        req.insert("format".into(), Value::String(fmt));
    }
    if let Some(q) = f.quality {
        req.insert("quality".into(), numeric(q));
    }
    if let Some(e) = f.engine {
        req.insert("engine".into(), e);
    }
    let opts = RenderOptions::from_json_value_with_limits(Value::Object(req), limits)
        .map_err(|e| e.to_string())?;
    Ok(ChartRequest {
        opts,
        messages,
        base64,
        key: f.key,
    })
}

/// `encoding=base64`: standard or URL-safe alphabet, padding optional. A `+` that reached us
/// unescaped in a query string was read as a space: it is put back.
fn decode_base64(text: &str) -> Result<String, String> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '\n' && *c != '\r' && *c != '=')
        .map(|c| match c {
            ' ' => '+',
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(cleaned.as_bytes())
        .map_err(|e| format!("Invalid chart: encoding=base64 but the chart is not base64 ({e})"))?;
    String::from_utf8(bytes)
        .map_err(|_| "Invalid chart: the base64-decoded chart is not UTF-8 text".to_string())
}

/// The body of `format=base64`: the image as a data URL.
pub fn data_url(content_type: &str, bytes: &[u8]) -> String {
    format!(
        "data:{content_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Result<ChartRequest, String> {
        from_query(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            &Limits::default(),
        )
    }

    #[test]
    fn quickchart_defaults_apply() {
        let r = query(&[(
            "c",
            "{type:'bar',data:{labels:['a'],datasets:[{data:[1]}]}}",
        )])
        .unwrap();
        assert_eq!(r.opts.width, 500.0);
        assert_eq!(r.opts.height, 300.0);
        assert_eq!(r.opts.device_pixel_ratio, 2.0);
        assert_eq!(r.opts.background_color, "transparent");
        assert!(r.messages.is_empty());
        assert!(!r.base64);
    }

    #[test]
    fn short_and_long_names_are_the_same_request() {
        let chart = r#"{"type":"line","data":{"datasets":[{"data":[1,2]}]}}"#;
        let short = query(&[
            ("c", chart),
            ("w", "300"),
            ("h", "200"),
            ("bkg", "#ff0000"),
            ("f", "webp"),
        ])
        .unwrap();
        let long = query(&[
            ("chart", chart),
            ("width", "300"),
            ("height", "200"),
            ("backgroundColor", "#ff0000"),
            ("format", "webp"),
        ])
        .unwrap();
        assert_eq!(short.opts, long.opts);
        assert_eq!(short.opts.hash(), long.opts.hash());
    }

    #[test]
    fn base64_encoding_and_format() {
        let text = "{type:'pie',data:{datasets:[{data:[1,2]}]}}";
        let b64 = base64::engine::general_purpose::STANDARD.encode(text);
        let r = query(&[("c", &b64), ("encoding", "base64"), ("f", "base64")]).unwrap();
        assert_eq!(r.opts.chart["type"], "pie");
        assert!(r.base64);
        assert_eq!(r.opts.format, chart_raster::ImageFormat::Png);
        assert!(query(&[("c", "***"), ("encoding", "base64")]).is_err());
    }

    #[test]
    fn vector_formats_are_passed_on() {
        for (f, want) in [
            ("svg", chart_raster::ImageFormat::Svg),
            ("PDF", chart_raster::ImageFormat::Pdf),
        ] {
            let r = query(&[("c", "{}"), ("f", f)]).unwrap();
            assert_eq!(r.opts.format, want);
        }
    }

    #[test]
    fn other_versions_are_reported() {
        let r = query(&[("c", "{type:'bar'}"), ("v", "2.9.4")]).unwrap();
        assert_eq!(r.messages.len(), 1);
        assert!(r.messages[0].message.contains("2.9.4"));
        let r = query(&[("c", "{type:'bar'}"), ("v", "4")]).unwrap();
        assert!(r.messages.is_empty());
    }

    #[test]
    fn missing_chart_names_both_fields() {
        assert_eq!(
            query(&[("w", "10")]).unwrap_err(),
            "You are missing variable `c` or `chart`"
        );
    }
}
