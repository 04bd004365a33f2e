//! Chart.js 4.5.1 defaults, as data, in one place.
//!
//! Three tables mirror the three places Chart.js keeps defaults:
//! - [`global`]: `Chart.defaults` (core.defaults, layout, scale, elements, datasets, plugins);
//! - [`overrides`]: `Chart.overrides[type]`, each controller's `static overrides`;
//! - [`scale_type`]: `Chart.defaults.scales[type]`, each scale's `static defaults`.
//!
//! The resolver ([`crate::scopes`]) reads them as the last scopes of every chain, exactly as
//! Chart.js's `getOptionScopes` does. Adding a chart or scale type means adding its entries
//! here (controller `defaults` under `global().datasets`, `overrides` under [`overrides`]).
//! Functions (scriptable defaults such as `tickColor`) cannot be data; they are applied as
//! explicit fallbacks where the option is resolved, with a comment naming the Chart.js route.

use serde_json::{json, Map, Value};
use std::sync::LazyLock;

static GLOBAL: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "backgroundColor": "rgba(0,0,0,0.1)",
        "borderColor": "rgba(0,0,0,0.1)",
        "color": "#666",
        "font": {
            "family": crate::font::DEFAULT_FAMILY,
            "size": 12,
            "style": "normal",
            "lineHeight": 1.2,
            "weight": null
        },
        "indexAxis": "x",
        "parsing": true,
        "showLine": true,
        "maintainAspectRatio": true,
        "responsive": true,
        "locale": "en-US",
        "layout": {
            "autoPadding": true,
            "padding": {"top": 0, "right": 0, "bottom": 0, "left": 0}
        },
        "elements": {
            "arc": {
                "borderAlign": "center",
                "borderColor": "#fff",
                "borderDash": [],
                "borderDashOffset": 0,
                "borderRadius": 0,
                "borderWidth": 2,
                "offset": 0,
                "spacing": 0,
                "circular": true,
                "selfJoin": false
            },
            "line": {
                "borderCapStyle": "butt",
                "borderDash": [],
                "borderDashOffset": 0,
                "borderJoinStyle": "miter",
                "borderWidth": 3,
                "capBezierPoints": true,
                "cubicInterpolationMode": "default",
                "fill": false,
                "spanGaps": false,
                "stepped": false,
                "tension": 0
            },
            "point": {
                "borderWidth": 1,
                "hitRadius": 1,
                "hoverBorderWidth": 1,
                "hoverRadius": 4,
                "pointStyle": "circle",
                "radius": 3,
                "rotation": 0
            },
            "bar": {
                "borderSkipped": "start",
                "borderWidth": 0,
                "borderRadius": 0,
                "inflateAmount": "auto"
            }
        },
        "datasets": {
            "bar": {
                "datasetElementType": false,
                "dataElementType": "bar",
                "categoryPercentage": 0.8,
                "barPercentage": 0.9,
                "grouped": true
            },
            "line": {
                "datasetElementType": "line",
                "dataElementType": "point",
                "showLine": true,
                "spanGaps": false
            },
            "scatter": {
                "datasetElementType": false,
                "dataElementType": "point",
                "showLine": false,
                "fill": false
            },
            "bubble": {
                "datasetElementType": false,
                "dataElementType": "point"
            }
        },
        "plugins": {
            "colors": {"enabled": true, "forceOverride": false},
            "filler": {"propagate": true, "drawTime": "beforeDatasetDraw"},
            "legend": {
                "display": true,
                "position": "top",
                "align": "center",
                "fullSize": true,
                "reverse": false,
                "weight": 1000,
                "labels": {"boxWidth": 40, "padding": 10},
                "title": {"display": false, "position": "center", "text": ""}
            },
            "title": {
                "align": "center",
                "display": false,
                "font": {"weight": "bold"},
                "fullSize": true,
                "padding": 10,
                "position": "top",
                "text": "",
                "weight": 2000
            },
            "subtitle": {
                "align": "center",
                "display": false,
                "font": {"weight": "normal"},
                "fullSize": true,
                "padding": 0,
                "position": "top",
                "text": "",
                "weight": 1500
            }
        },
        "scale": {
            "display": true,
            "offset": false,
            "reverse": false,
            "beginAtZero": false,
            "bounds": "ticks",
            "clip": true,
            "grace": 0,
            "grid": {
                "display": true,
                "lineWidth": 1,
                "drawOnChartArea": true,
                "drawTicks": true,
                "tickLength": 8,
                "offset": false
            },
            "border": {"display": true, "dash": [], "dashOffset": 0.0, "width": 1},
            "title": {"display": false, "text": "", "padding": {"top": 4, "bottom": 4}},
            "ticks": {
                "minRotation": 0,
                "maxRotation": 50,
                "mirror": false,
                "textStrokeWidth": 0,
                "textStrokeColor": "",
                "padding": 3,
                "display": true,
                "autoSkip": true,
                "autoSkipPadding": 3,
                "labelOffset": 0,
                "minor": {},
                "major": {},
                "align": "center",
                "crossAlign": "near",
                "showLabelBackdrop": false,
                "backdropColor": "rgba(255, 255, 255, 0.75)",
                "backdropPadding": 2
            }
        }
    })
});

static OVERRIDES: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "bar": {
            "scales": {
                "_index_": {"type": "category", "offset": true, "grid": {"offset": true}},
                "_value_": {"type": "linear", "beginAtZero": true}
            }
        },
        "line": {
            "scales": {
                "_index_": {"type": "category"},
                "_value_": {"type": "linear"}
            }
        },
        "scatter": {
            "interaction": {"mode": "point"},
            "scales": {"x": {"type": "linear"}, "y": {"type": "linear"}}
        },
        "bubble": {
            "scales": {"x": {"type": "linear"}, "y": {"type": "linear"}}
        }
    })
});

static SCALE_TYPES: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "category": {},
        "linear": {}
    })
});

// The tables with the arc/radial/time family added (`crate::defaults_extra`).
static GLOBAL_ALL: LazyLock<Value> = LazyLock::new(|| {
    crate::charts_model::extend(
        "global",
        crate::defaults_extra::extend("global", GLOBAL.clone()),
    )
});
static OVERRIDES_ALL: LazyLock<Value> = LazyLock::new(|| {
    crate::charts_model::extend(
        "overrides",
        crate::defaults_extra::extend("overrides", OVERRIDES.clone()),
    )
});
static SCALE_TYPES_ALL: LazyLock<Value> =
    LazyLock::new(|| crate::defaults_extra::extend("scales", SCALE_TYPES.clone()));

static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

fn as_map(v: &'static Value) -> &'static Map<String, Value> {
    v.as_object().unwrap_or(&EMPTY)
}

/// `Chart.defaults`.
pub fn global() -> &'static Map<String, Value> {
    as_map(&GLOBAL_ALL)
}

/// `Chart.overrides[chart_type]`, when the type has overrides.
pub fn overrides(chart_type: &str) -> Option<&'static Map<String, Value>> {
    as_map(&OVERRIDES_ALL)
        .get(chart_type)
        .and_then(Value::as_object)
}

/// `Chart.defaults.datasets[chart_type]`: a controller's `static defaults`.
pub fn dataset_type(chart_type: &str) -> Option<&'static Map<String, Value>> {
    global()
        .get("datasets")
        .and_then(|d| d.get(chart_type))
        .and_then(Value::as_object)
}

/// `Chart.defaults.scales[scale_type]`: a scale's `static defaults`.
pub fn scale_type(scale_type: &str) -> Option<&'static Map<String, Value>> {
    as_map(&SCALE_TYPES_ALL)
        .get(scale_type)
        .and_then(Value::as_object)
}

/// True when a controller is registered for this chart or dataset type.
pub fn is_registered_controller(chart_type: &str) -> bool {
    dataset_type(chart_type).is_some()
}

/// True when a scale is registered for this type.
pub fn is_registered_scale(t: &str) -> bool {
    scale_type(t).is_some()
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

    #[test]
    fn tables_are_objects() {
        assert_eq!(global()["color"], "#666");
        assert!(overrides("bar").is_some());
        assert!(overrides("nope").is_none());
        assert!(is_registered_controller("line"));
        assert!(!is_registered_controller("nope"));
        assert!(element_keys("point").contains(&"radius"));
    }
}
