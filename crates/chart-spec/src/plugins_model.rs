//! Options of the bundled Chart.js plugins the skia engine draws: chartjs-plugin-datalabels
//! 2.2.0 and chartjs-plugin-gradient 0.6.1 (annotation options live in
//! [`crate::annotation_model`]).
//!
//! Resolved from the raw config the way each plugin reads its options, so the engine only
//! draws. Scriptable options (functions) cannot occur in JSON; array values are indexable per
//! data index, as the plugins' `resolve([...], context, index)` calls make them.

use crate::color::{parse_color, Rgba};
use crate::message::Message;
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{js_number, to_font, to_padding, Font, Padding};
use serde_json::{json, Map, Value};

/// `display` of one label: `true` or `'auto'` (hidden when it overlaps another label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelDisplay {
    /// Always drawn.
    Yes,
    /// `'auto'`: hidden when it overlaps a label drawn after it.
    Auto,
}

/// `align`: where the label sits relative to its anchor point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelAlign {
    /// `'center'` (default).
    Center,
    /// `'start'`: towards the element's origin.
    Start,
    /// `'end'`: away from the origin.
    End,
    /// `'top'`.
    Top,
    /// `'bottom'`.
    Bottom,
    /// `'left'`.
    Left,
    /// `'right'`.
    Right,
    /// A number: clockwise angle in degrees.
    Angle(f64),
}

/// `anchor`: the point of the element a label is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelAnchor {
    /// `'center'` (default).
    Center,
    /// `'start'`.
    Start,
    /// `'end'`.
    End,
}

/// `textAlign` of multi-line labels, as the canvas reads it (left-to-right text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelTextAlign {
    /// `'start'` (default) or `'left'`.
    Left,
    /// `'center'`.
    Center,
    /// `'end'` or `'right'`.
    Right,
}

/// The resolved options of one data label (`Label._modelize` in chartjs-plugin-datalabels).
#[derive(Debug, Clone, PartialEq)]
pub struct LabelOptions {
    /// `display`. Default: `true` in the plugin, `false` as the service registers it.
    pub display: LabelDisplay,
    /// `align`. Default: `'center'`.
    pub align: LabelAlign,
    /// `anchor`. Default: `'center'`.
    pub anchor: LabelAnchor,
    /// `backgroundColor`. Default: `null` (no frame fill).
    pub background_color: Option<Rgba>,
    /// `borderColor`. Default: `null`.
    pub border_color: Option<Rgba>,
    /// `borderRadius`. Default: 0.
    pub border_radius: f64,
    /// `borderWidth`. Default: 0.
    pub border_width: f64,
    /// `clamp`: keep the anchor inside the chart area. Default: false.
    pub clamp: bool,
    /// `clip`: clip the label to the chart area. Default: false.
    pub clip: bool,
    /// `color`; `None` draws no text fill. Default: `Chart.defaults.color` (`#666`).
    pub color: Option<Rgba>,
    /// `font` over `Chart.defaults.font` (not `options.font`). Default line height: 1.2.
    pub font: Font,
    /// `offset`, px. Default: 4.
    pub offset: f64,
    /// `opacity`. Default: 1.
    pub opacity: f64,
    /// `padding`. Default: 4 on every side.
    pub padding: Padding,
    /// `rotation`, converted to radians. Default: 0.
    pub rotation: f64,
    /// `textAlign`. Default: `'start'`.
    pub text_align: LabelTextAlign,
    /// `textStrokeColor`. Default: `color`.
    pub text_stroke_color: Option<Rgba>,
    /// `textStrokeWidth`. Default: 0.
    pub text_stroke_width: f64,
}

/// One label to place on the element `index` of dataset `dataset`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataLabel {
    /// Dataset index.
    pub dataset: usize,
    /// Data index.
    pub index: usize,
    /// Text lines (the value through the default formatter, split at `\n`).
    pub lines: Vec<String>,
    /// Options.
    pub options: LabelOptions,
}

/// Every data label of a chart, in dataset then data order; per element several labels
/// when `labels` names more than one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataLabels {
    /// The labels whose `display` resolved truthy and whose text is not empty.
    pub labels: Vec<DataLabel>,
}

/// `chartjs-plugin-datalabels` defaults, with `display: false` as the service registers the
/// plugin (`Chart.defaults.plugins.datalabels.display = false`).
fn datalabels_defaults() -> Value {
    json!({
        "align": "center",
        "anchor": "center",
        "backgroundColor": null,
        "borderColor": null,
        "borderRadius": 0,
        "borderWidth": 0,
        "clamp": false,
        "clip": false,
        "display": false,
        "font": {"lineHeight": 1.2, "weight": null},
        "offset": 4,
        "opacity": 1,
        "padding": {"top": 4, "right": 4, "bottom": 4, "left": 4},
        "rotation": 0,
        "textAlign": "start",
        "textStrokeWidth": 0,
        "textShadowBlur": 0
    })
}

/// Chart.js `merge`: objects merge key by key, anything else replaces.
pub fn merge_into(target: &mut Map<String, Value>, src: &Map<String, Value>) {
    for (k, v) in src {
        match (target.get_mut(k), v) {
            (Some(Value::Object(t)), Value::Object(s)) => merge_into(t, s),
            _ => {
                target.insert(k.clone(), v.clone());
            }
        }
    }
}

/// `resolve([value], context, index)`: an array gives its `index % length` entry; an empty
/// array counts as not set.
fn at(v: Option<&Value>, index: usize) -> Option<&Value> {
    match v {
        Some(Value::Array(a)) if a.is_empty() => None,
        Some(Value::Array(a)) => a.get(index % a.len()),
        other => other,
    }
}

/// `options.plugins.<key>` when plugins and that plugin are not disabled.
fn plugin_options<'a>(config: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let plugins = config.get("options")?.get("plugins")?;
    plugins.as_object()?.get(key)
}

/// The datasets array of the config.
fn raw_datasets(config: &Map<String, Value>) -> &[Value] {
    config
        .get("data")
        .and_then(|d| d.get("datasets"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// The plugin's default `formatter`: `null` gives no label, objects their `label`, `r` or
/// `key: value` pairs, anything else `'' + value`.
fn format_value(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::Object(m) => {
            if let Some(l) = m.get("label").filter(|l| !l.is_null()) {
                return Some(js_string(l));
            }
            if let Some(r) = m.get("r").filter(|r| !r.is_null()) {
                return Some(js_string(r));
            }
            Some(
                m.iter()
                    .map(|(k, v)| format!("{k}: {}", js_string(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }
        other => Some(js_string(other)),
    }
}

/// JavaScript `String(value)` of a JSON value.
fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|x| match x {
                Value::Null => String::new(),
                x => js_string(x),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

fn color_of(v: Option<&Value>) -> Option<Rgba> {
    match v {
        Some(Value::String(s)) => parse_color(s),
        _ => None,
    }
}

/// The label options of data index `index` from a merged label config.
fn label_options(cfg: &Map<String, Value>, index: usize) -> Option<LabelOptions> {
    let get = |k: &str| at(cfg.get(k), index);
    let display = match get("display") {
        Some(Value::String(s)) if s == "auto" => LabelDisplay::Auto,
        Some(v) if truthy(v) => LabelDisplay::Yes,
        _ => return None,
    };
    let num = |k: &str, d: f64| get(k).map(to_number).unwrap_or(d);
    let align = match get("align") {
        Some(Value::String(s)) => match s.as_str() {
            "center" => LabelAlign::Center,
            "start" => LabelAlign::Start,
            "end" => LabelAlign::End,
            "top" => LabelAlign::Top,
            "bottom" => LabelAlign::Bottom,
            "left" => LabelAlign::Left,
            "right" => LabelAlign::Right,
            // `align *= PI / 180` on any other string: a numeric one is an angle, the rest
            // give NaN, which leaves the label at its anchor like 'center'.
            other => {
                let a = to_number(&Value::String(other.to_string()));
                if a.is_finite() {
                    LabelAlign::Angle(a)
                } else {
                    LabelAlign::Center
                }
            }
        },
        Some(v @ Value::Number(_)) => LabelAlign::Angle(to_number(v)),
        _ => LabelAlign::Center,
    };
    let anchor = match get("anchor").and_then(Value::as_str) {
        Some("start") => LabelAnchor::Start,
        Some("end") => LabelAnchor::End,
        _ => LabelAnchor::Center,
    };
    let empty = Map::new();
    let font_map = get("font").and_then(Value::as_object).unwrap_or(&empty);
    let global_font = crate::defaults::global()
        .get("font")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let font = to_font(
        &Scopes::new(vec![font_map]),
        &Scopes::new(vec![global_font]),
    );
    let default_color = crate::defaults::global()
        .get("color")
        .and_then(Value::as_str)
        .and_then(parse_color);
    let color = match get("color") {
        None => default_color,
        v => color_of(v),
    };
    let text_align = match get("textAlign").and_then(Value::as_str) {
        Some("center") => LabelTextAlign::Center,
        Some("end" | "right") => LabelTextAlign::Right,
        _ => LabelTextAlign::Left,
    };
    Some(LabelOptions {
        display,
        align,
        anchor,
        background_color: color_of(get("backgroundColor")),
        border_color: color_of(get("borderColor")),
        border_radius: num("borderRadius", 0.0),
        border_width: num("borderWidth", 0.0),
        clamp: get("clamp").is_some_and(truthy),
        clip: get("clip").is_some_and(truthy),
        color,
        font,
        offset: num("offset", 4.0),
        opacity: num("opacity", 1.0),
        padding: to_padding(get("padding")),
        rotation: num("rotation", 0.0).to_radians(),
        text_align,
        text_stroke_color: match get("textStrokeColor") {
            None => color,
            v => color_of(v),
        },
        text_stroke_width: num("textStrokeWidth", 0.0),
    })
}

/// Resolves chartjs-plugin-datalabels for a config: `None` when the plugin is off
/// (`options.plugins.datalabels: false`) or no label displays. Mirrors `configure()` (chart
/// options, then `dataset.datalabels`, then each named `labels` entry) and `Label.update`.
pub fn resolve_datalabels(
    config: &Map<String, Value>,
    messages: &mut Vec<Message>,
) -> Option<DataLabels> {
    let chart_opts = plugin_options(config, "datalabels");
    if matches!(chart_opts, Some(Value::Bool(false))) {
        return None;
    }
    let mut base = match datalabels_defaults() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    if let Some(Value::Object(o)) = chart_opts {
        merge_into(&mut base, o);
    }
    let mut out = DataLabels::default();
    let mut shadow_warned = false;
    for (di, ds) in raw_datasets(config).iter().enumerate() {
        let mut cfg = base.clone();
        match ds.get("datalabels") {
            Some(Value::Bool(false)) => continue,
            Some(Value::Object(o)) => merge_into(&mut cfg, o),
            _ => {}
        }
        let named = match cfg.remove("labels") {
            Some(Value::Object(m)) if !m.is_empty() => m,
            _ => Map::new(),
        };
        let configs: Vec<Map<String, Value>> = if named.is_empty() {
            vec![cfg]
        } else {
            named
                .values()
                .filter(|v| truthy(v))
                .map(|v| {
                    let mut c = cfg.clone();
                    if let Value::Object(o) = v {
                        merge_into(&mut c, o);
                    }
                    c
                })
                .collect()
        };
        let data = ds
            .get("data")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for (i, value) in data.iter().enumerate() {
            for c in &configs {
                let Some(options) = label_options(c, i) else {
                    continue;
                };
                let Some(text) = format_value(value) else {
                    continue;
                };
                if !shadow_warned && at(c.get("textShadowBlur"), i).is_some_and(truthy) {
                    shadow_warned = true;
                    messages.push(Message::warn(
                        "the skia engine does not draw chartjs-plugin-datalabels textShadowBlur \
                         yet; labels are drawn without a shadow",
                    ));
                }
                out.labels.push(DataLabel {
                    dataset: di,
                    index: i,
                    lines: text.split('\n').map(str::to_string).collect(),
                    options,
                });
            }
        }
    }
    if out.labels.is_empty() {
        None
    } else {
        Some(out)
    }
}

/// `axis` of a chartjs-plugin-gradient option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GradientAxis {
    /// `'x'`: left to right over the x scale.
    X,
    /// `'y'`: bottom to top over the y scale.
    Y,
    /// `'r'`: radial from the radial scale's centre.
    R,
}

/// One `dataset.gradient[key]` of chartjs-plugin-gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct GradientSpec {
    /// Dataset index.
    pub dataset: usize,
    /// The dataset option replaced (`backgroundColor`, `borderColor`, …).
    pub key: String,
    /// `axis`.
    pub axis: GradientAxis,
    /// `colors`: (value as written, colour), in key order; the engine places them on the
    /// scale.
    pub colors: Vec<(String, Rgba)>,
    /// The stand-in colour written into the dataset during resolution; the engine repaints
    /// every shape of this colour with the gradient.
    pub sentinel: Rgba,
}

/// A colour no config is expected to use, standing for gradient `k` of dataset `d` until the
/// engine knows the scales.
fn gradient_sentinel(dataset: usize, k: usize) -> Rgba {
    Rgba {
        r: 1,
        g: (3 + k).min(255) as u8,
        b: (dataset % 256) as u8,
        a: 251,
    }
}

/// chartjs-plugin-gradient (`beforeDatasetsUpdate`): every `dataset.gradient[key]` with
/// `colors` on an axis the dataset has a scale for (`x`/`y` on cartesian charts, `r` on
/// radar and polar area charts). `options.plugins.gradient: false` turns it off.
pub fn resolve_gradients(config: &Map<String, Value>) -> Vec<GradientSpec> {
    if matches!(plugin_options(config, "gradient"), Some(Value::Bool(false))) {
        return Vec::new();
    }
    let chart_type = config.get("type").and_then(Value::as_str).unwrap_or("");
    let mut out = Vec::new();
    for (d, ds) in raw_datasets(config).iter().enumerate() {
        let Some(g) = ds.get("gradient").and_then(Value::as_object) else {
            continue;
        };
        let kind = ds.get("type").and_then(Value::as_str).unwrap_or(chart_type);
        let radial = matches!(kind, "radar" | "polarArea");
        let cartesian = matches!(kind, "bar" | "line" | "scatter" | "bubble");
        for (k, (key, opt)) in g.iter().enumerate() {
            let Some(colors) = opt.get("colors").and_then(Value::as_object) else {
                continue;
            };
            let axis = match opt.get("axis").and_then(Value::as_str) {
                Some("x") if cartesian => GradientAxis::X,
                Some("y") if cartesian => GradientAxis::Y,
                Some("r") if radial => GradientAxis::R,
                // `getScale(meta, axis)` finds no scale: the plugin warns and skips.
                _ => continue,
            };
            // JavaScript orders integer-like keys first, ascending.
            let mut entries: Vec<(&String, &Value)> = colors.iter().collect();
            let int_key = |s: &str| s.parse::<u32>().ok().filter(|n| n.to_string() == s);
            entries.sort_by_key(|(k, _)| match int_key(k) {
                Some(n) => (0, n),
                None => (1, 0),
            });
            let colors: Vec<(String, Rgba)> = entries
                .into_iter()
                .filter_map(|(k, v)| Some((k.clone(), color_of(Some(v))?)))
                .collect();
            out.push(GradientSpec {
                dataset: d,
                key: key.clone(),
                axis,
                colors,
                sentinel: gradient_sentinel(d, k),
            });
        }
    }
    out
}

/// Writes each gradient's stand-in colour into its dataset, after the colors plugin ran (as
/// chartjs-plugin-gradient replaces the option in `beforeDatasetsUpdate`, after
/// `beforeLayout`).
pub fn apply_gradient_sentinels(config: &Map<String, Value>, datasets: &mut [Map<String, Value>]) {
    for g in resolve_gradients(config) {
        if g.colors.is_empty() {
            continue;
        }
        if let Some(ds) = datasets.get_mut(g.dataset) {
            let c = g.sentinel;
            ds.insert(
                g.key.clone(),
                Value::String(format!(
                    "rgba({}, {}, {}, {})",
                    c.r,
                    c.g,
                    c.b,
                    f64::from(c.a) / 255.0
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(v: Value) -> Vec<DataLabel> {
        let Value::Object(m) = v else {
            panic!("object expected")
        };
        resolve_datalabels(&m, &mut Vec::new())
            .map(|d| d.labels)
            .unwrap_or_default()
    }

    #[test]
    fn hidden_unless_display_is_set() {
        let base = json!({"type": "bar", "data": {"datasets": [{"data": [1, 2]}]},
            "options": {"plugins": {"datalabels": {"color": "red"}}}});
        assert!(labels(base).is_empty());
        let on = json!({"type": "bar", "data": {"datasets": [{"data": [1, null, 3.5],
            "datalabels": {"display": true, "align": "end"}}]}});
        let l = labels(on);
        assert_eq!(l.len(), 2, "null values have no label");
        assert_eq!(l[1].lines, vec!["3.5".to_string()]);
        assert_eq!(l[1].options.align, LabelAlign::End);
        assert_eq!(l[0].options.padding, Padding::all(4.0));
        assert_eq!(l[0].options.color, parse_color("#666"));
        assert!((l[0].options.font.line_height - 14.4).abs() < 1e-9);
    }

    #[test]
    fn per_index_arrays_and_named_labels() {
        let v = json!({"type": "bar", "data": {"datasets": [{"data": [{"x": 1, "y": 2}, 5]}]},
            "options": {"plugins": {"datalabels": {"display": [true, "auto"],
                "labels": {"a": {"color": "blue"}, "b": {"rotation": 90}, "c": false}}}}});
        let l = labels(v);
        assert_eq!(l.len(), 4);
        assert_eq!(l[0].lines, vec!["x: 1, y: 2".to_string()]);
        assert_eq!(l[0].options.color, parse_color("blue"));
        assert!((l[1].options.rotation - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert_eq!(l[3].options.display, LabelDisplay::Auto);
    }

    #[test]
    fn plugin_off_and_dataset_off() {
        let v = json!({"data": {"datasets": [{"data": [1], "datalabels": false}, {"data": [2]}]},
            "options": {"plugins": {"datalabels": {"display": true}}}});
        let l = labels(v);
        assert_eq!((l.len(), l[0].dataset), (1, 1));
        let off = json!({"data": {"datasets": [{"data": [1], "datalabels": {"display": true}}]},
            "options": {"plugins": {"datalabels": false}}});
        assert!(labels(off).is_empty());
    }

    #[test]
    fn gradients_need_a_scale_axis() {
        let v = json!({"type": "line", "data": {"datasets": [{"data": [1], "gradient": {
            "backgroundColor": {"axis": "y", "colors": {"b": "red", "10": "blue", "2": "lime"}},
            "borderColor": {"axis": "r", "colors": {"0": "red"}}}}]}});
        let Value::Object(m) = v else {
            panic!("object expected")
        };
        let g = resolve_gradients(&m);
        assert_eq!(g.len(), 1, "no r scale on a line chart");
        let keys: Vec<&str> = g[0].colors.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["2", "10", "b"], "integer keys first");
        let mut ds = vec![Map::new()];
        apply_gradient_sentinels(&m, &mut ds);
        let written = ds[0]
            .get("backgroundColor")
            .and_then(Value::as_str)
            .and_then(parse_color);
        assert_eq!(written, Some(g[0].sentinel));
    }
}
