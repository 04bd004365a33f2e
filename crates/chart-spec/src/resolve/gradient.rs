//! chartjs-plugin-gradient 0.6.1: the gradient specs of each dataset, and the sentinel
//! colours that stand in for them during resolution (the engine repaints them).

use super::lookup::{color_of, plugin_options, raw_datasets};
use crate::color::Rgba;
use crate::model::{GradientAxis, GradientSpec};
use serde_json::{Map, Value};

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
    for (index, key, colour) in gradient_sentinels(config) {
        if let Some(ds) = datasets.get_mut(index) {
            ds.insert(key, colour);
        }
    }
}

/// What [`apply_gradient_sentinels`] writes: the dataset index, the option key and the
/// stand-in colour of every gradient with colours.
pub(super) fn gradient_sentinels(
    config: &Map<String, Value>,
) -> impl Iterator<Item = (usize, String, Value)> {
    resolve_gradients(config)
        .into_iter()
        .filter(|g| !g.colors.is_empty())
        .map(|g| {
            let c = g.sentinel;
            let colour = format!(
                "rgba({}, {}, {}, {})",
                c.r,
                c.g,
                c.b,
                f64::from(c.a) / 255.0
            );
            (g.dataset, g.key, Value::String(colour))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::parse_color;
    use serde_json::json;

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
