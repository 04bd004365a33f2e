//! chartjs-chart-wordcloud's datasets typed: each word's `word` element options (the data
//! value as the default size, colours per index, the font routes), the rotation options and
//! the seed of the plugin's random stream, within the word budget.

use crate::color::{parse_color, Rgba};
use crate::font::{FontSpec, FontStyle};
use crate::model::{Raw, Word, WordCloudOptions};
use crate::scopes::{to_number, truthy, Scopes};
use serde_json::{Map, Value};

/// Words of one dataset laid out; the rest are left out (d3-cloud tries every word against
/// every placed one).
pub const MAX_WORDS: usize = 2_000;

fn at(v: Option<&Value>, i: usize) -> Option<&Value> {
    match v? {
        Value::Array(a) if !a.is_empty() => a.get(i % a.len()),
        Value::Array(_) => None,
        v => Some(v),
    }
}

fn color(v: Option<&Value>) -> Option<Rgba> {
    v.and_then(Value::as_str).and_then(parse_color)
}

/// The plugin's `rnd(seed)` seed: a number as is, a string as the sum of its characters'
/// first UTF-16 units.
fn seed_of(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::String(s)) => s
            .chars()
            .map(|c| {
                let mut buf = [0u16; 2];
                f64::from(c.encode_utf16(&mut buf)[0])
            })
            .sum(),
        Some(v) => to_number(v),
        None => 0.0,
    }
}

/// The options of a `wordCloud` dataset: `scopes` are its `word` element scopes, `chart`
/// the chart's `font` scopes (family, style, weight routes) and colour.
pub fn resolve_word_cloud(
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    count: usize,
    default_color: Rgba,
    default_family: &str,
) -> WordCloudOptions {
    let data = match ds.get("data") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let n = count.min(MAX_WORDS).min(data.len());
    let font = scopes.child("font");
    let words = (0..n)
        .map(|i| {
            let num = |k: &str, d: f64| {
                at(scopes.get(k), i)
                    .filter(|v| !v.is_null())
                    .map(to_number)
                    .unwrap_or(d)
            };
            let value = data.get(i).map(to_number).unwrap_or(f64::NAN);
            let family = at(scopes.get("family"), i)
                .or_else(|| font.get("family"))
                .and_then(Value::as_str)
                .map_or(default_family.into(), crate::font::bounded_family)
                .into_owned();
            let style = at(scopes.get("style"), i)
                .or_else(|| font.get("style"))
                .and_then(Value::as_str)
                .unwrap_or("normal")
                .to_string();
            let weight_v = at(scopes.get("weight"), i)
                .or_else(|| font.get("weight"))
                .filter(|v| !v.is_null());
            let weight = match weight_v {
                Some(Value::String(s)) if s == "bold" => 700,
                Some(Value::String(s)) if s == "lighter" => 100,
                Some(Value::String(s)) if s == "bolder" => 700,
                Some(v) => {
                    let w = to_number(v);
                    if w.is_finite() {
                        w.clamp(1.0, 1000.0) as u16
                    } else {
                        400
                    }
                }
                None => 400,
            };
            let stroke = color(at(scopes.get("strokeStyle"), i)).map(|c| {
                (
                    c,
                    at(scopes.get("strokeWidth"), i)
                        .filter(|v| !v.is_null())
                        .map(to_number),
                )
            });
            Word {
                size: num("size", value),
                color: color(at(scopes.get("color"), i)).unwrap_or(default_color),
                font: FontSpec {
                    family,
                    style: if style == "italic" || style == "oblique" {
                        FontStyle::Italic
                    } else {
                        FontStyle::Normal
                    },
                    weight,
                    ..FontSpec::default()
                },
                layout_weight: match weight_v {
                    Some(v) => Raw::from_json(v).to_js_string(),
                    None => "1".into(),
                },
                style,
                rotate: at(scopes.get("rotate"), i)
                    .filter(|v| !v.is_null())
                    .map(to_number),
                min_rotation: num("minRotation", -90.0),
                max_rotation: num("maxRotation", 0.0),
                rotation_steps: num("rotationSteps", 2.0),
                padding: num("padding", 1.0),
                stroke,
            }
        })
        .collect();
    let grow = scopes.child("autoGrow");
    WordCloudOptions {
        words,
        seed: seed_of(scopes.get("randomRotationSeed")),
        fit: scopes.get("fit").is_some_and(truthy),
        max_tries: grow.get("maxTries").map(to_number).unwrap_or(3.0),
        scaling_factor: grow
            .get("scalingFactor")
            .filter(|v| v.is_number())
            .map(to_number)
            .unwrap_or(1.2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_string_seed_sums_its_characters() {
        assert_eq!(seed_of(Some(&json!("ab"))), 195.0);
        assert_eq!(seed_of(Some(&json!(7))), 7.0);
        assert_eq!(seed_of(None), 0.0);
    }
}
