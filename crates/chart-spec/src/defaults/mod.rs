//! Chart.js 4.5.1 defaults, as data.
//!
//! Three tables mirror the three places Chart.js keeps defaults:
//! - [`global`]: `Chart.defaults` (core.defaults, layout, scale, elements, datasets, plugins);
//! - [`overrides`]: `Chart.overrides[type]`, each controller's `static overrides`;
//! - [`scale_type`]: `Chart.defaults.scales[type]`, each scale's `static defaults`.
//!
//! Each is assembled once from the files named for what they hold: `global`
//! (`Chart.defaults` of the core), `element`, `chart_type` (controllers), `scale` (scale types),
//! `plugin` (plugins beyond the core) and `plugin_chart` (the bundled plugin chart types);
//! `annotation` holds chartjs-plugin-annotation's element defaults, read by its resolver;
//! [`venn_template`] gives chartjs-chart-venn's fixed layouts, typed.
//!
//! The resolver ([`crate::scopes`]) reads them as the last scopes of every chain, exactly as
//! Chart.js's `getOptionScopes` does. Adding a chart or scale type means adding its entries
//! to the file of its kind and a variant to [`ChartKind`] or [`ScaleKind`] (a test holds the
//! enums and the tables' keys to each other). Functions (scriptable defaults such as `tickColor`) cannot be
//! data; they are applied as explicit fallbacks where the option is resolved, with a comment
//! naming the Chart.js route.

pub(crate) mod annotation;
mod chart_type;
mod element;
mod global;
pub(crate) mod plugin;
mod plugin_chart;
mod scale;

pub use plugin_chart::venn_template;

use crate::model::{ChartKind, ScaleKind};
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// Adds `from`'s entries to the object `target` (when both are objects), keeping existing keys:
/// how a table is extended by the types registered after it.
fn add_entries(target: Option<&mut Value>, from: &Value) {
    if let (Some(Value::Object(t)), Value::Object(f)) = (target, from) {
        for (k, val) in f {
            t.entry(k.clone()).or_insert_with(|| val.clone());
        }
    }
}

/// `Chart.defaults` with every registered controller, element and plugin.
static GLOBAL_ALL: LazyLock<Value> = LazyLock::new(|| {
    let mut v = global::GLOBAL.clone();
    add_entries(v.get_mut("elements"), &element::ELEMENTS);
    add_entries(v.get_mut("datasets"), &chart_type::DATASETS);
    add_entries(v.get_mut("plugins"), &plugin::PLUGINS);
    add_entries(v.get_mut("scale"), &scale::SCALE);
    add_entries(v.get_mut("datasets"), &plugin_chart::DATASETS);
    add_entries(v.get_mut("elements"), &plugin_chart::ELEMENTS);
    v
});
/// `Chart.overrides`, core chart types first.
static OVERRIDES_ALL: LazyLock<Value> = LazyLock::new(|| {
    let mut v = chart_type::OVERRIDES.clone();
    add_entries(Some(&mut v), &plugin_chart::OVERRIDES);
    v
});

static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

fn as_map(v: &'static Value) -> &'static Map<String, Value> {
    v.as_object().unwrap_or(&EMPTY)
}

/// `Chart.defaults`.
pub fn global() -> &'static Map<String, Value> {
    as_map(&GLOBAL_ALL)
}

/// `Chart.overrides[chart_type]`, when the type has overrides.
pub fn overrides(chart_type: ChartKind) -> Option<&'static Map<String, Value>> {
    as_map(&OVERRIDES_ALL)
        .get(chart_type.name())
        .and_then(Value::as_object)
}

/// `Chart.defaults.datasets[chart_type]`: a controller's `static defaults`.
pub fn dataset_type(chart_type: ChartKind) -> Option<&'static Map<String, Value>> {
    global()
        .get("datasets")
        .and_then(|d| d.get(chart_type.name()))
        .and_then(Value::as_object)
}

/// `Chart.defaults.scales[scale_type]`: a scale's `static defaults`.
pub fn scale_type(scale_type: ScaleKind) -> Option<&'static Map<String, Value>> {
    as_map(&scale::SCALES)
        .get(scale_type.name())
        .and_then(Value::as_object)
}

/// The option names of an element type: `Object.keys(defaults.elements[type])` plus the
/// routed colours, what `resolveDataElementOptions` asks the resolver for.
pub fn element_keys(element: &str) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = global()
        .get("elements")
        .and_then(|e| e.get(element))
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    for k in ["backgroundColor", "borderColor"] {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tables_are_objects() {
        assert_eq!(global()["color"], "#666");
        assert!(overrides(ChartKind::Bar).is_some());
        assert!(overrides(ChartKind::Bubble).is_some());
        assert!(element_keys("point").contains(&"radius"));
    }

    #[test]
    fn tables_hold_every_registered_type() {
        assert_eq!(
            dataset_type(ChartKind::Doughnut).map(|m| &m["cutout"]),
            Some(&json!("50%"))
        );
        assert_eq!(
            dataset_type(ChartKind::Pie).map(|m| &m["cutout"]),
            Some(&json!(0))
        );
        assert!(overrides(ChartKind::PolarArea).is_some_and(|m| m.contains_key("scales")));
        assert_eq!(global()["plugins"]["decimation"]["enabled"], json!(false));
    }

    /// The registered kinds are the tables' keys, no more and no fewer: a controller or scale
    /// added to one but not the other would be registered without defaults (or the reverse).
    #[test]
    fn kinds_are_the_tables_keys() {
        let datasets = global()["datasets"].as_object().map(|m| m.len());
        assert_eq!(datasets, Some(ChartKind::ALL.len()));
        assert!(ChartKind::ALL
            .into_iter()
            .all(|k| dataset_type(k).is_some()));
        assert_eq!(as_map(&scale::SCALES).len(), ScaleKind::ALL.len());
        assert!(ScaleKind::ALL.into_iter().all(|k| scale_type(k).is_some()));
        assert_eq!(ChartKind::from_name("Bar"), None);
        assert_eq!(
            ChartKind::from_name("dendogram"),
            Some(ChartKind::Dendogram)
        );
        // `DatasetKind` gives a line element to line and radar (their `datasetElementType`)
        // and to scatter (its `showLine`), to no other type.
        let with_line: Vec<ChartKind> = ChartKind::ALL
            .into_iter()
            .filter(|&k| {
                dataset_type(k).and_then(|d| d.get("datasetElementType")) == Some(&json!("line"))
            })
            .collect();
        assert_eq!(with_line, [ChartKind::Line, ChartKind::Radar]);
    }
}
