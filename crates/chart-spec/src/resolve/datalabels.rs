//! chartjs-plugin-datalabels 2.2.0: its options resolved the way the plugin reads them
//! (defaults, `options.plugins.datalabels`, dataset `datalabels`, `labels.<name>` layers), so
//! the engine only draws. Scriptable options (functions) cannot occur in JSON; array values
//! are indexable per data index, as the plugin's `resolve([...], context, index)` calls make
//! them.

use super::lookup::{color_of, merge_into, plugin_options, raw_datasets};
use crate::color::parse_color;
use crate::defaults;
use crate::message::Message;
use crate::model::{
    DataLabel, DataLabels, LabelAlign, LabelAnchor, LabelDisplay, LabelOptions, LabelTextAlign,
};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{js_number, to_font, to_padding};
use serde_json::{Map, Value};

/// `resolve([value], context, index)`: an array gives its `index % length` entry; an empty
/// array counts as not set.
fn at(v: Option<&Value>, index: usize) -> Option<&Value> {
    match v {
        Some(Value::Array(a)) if a.is_empty() => None,
        Some(Value::Array(a)) => a.get(index % a.len()),
        other => other,
    }
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
    let text_align = LabelTextAlign::parse(get("textAlign").and_then(Value::as_str));
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
    let mut base = match defaults::plugin::datalabels() {
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
        // A config whose `display` is one falsy value (not indexable) shows no label at any
        // index: it is left out here rather than asked once per data point.
        let configs: Vec<Map<String, Value>> = configs
            .into_iter()
            .filter(|c| match c.get("display") {
                Some(Value::Array(_)) => true,
                Some(Value::String(s)) if s == "auto" => true,
                display => display.is_some_and(truthy),
            })
            .collect();
        if configs.is_empty() {
            continue;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::Sides;
    use serde_json::json;

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
        assert_eq!(l[0].options.padding, Sides::all(4.0));
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
}
