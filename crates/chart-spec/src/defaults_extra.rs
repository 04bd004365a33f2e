//! Chart.js 4.5.1 defaults of the arc and radial chart types and of the logarithmic, time and
//! radial scales, as data: the `static defaults`/`overrides` of `DoughnutController`,
//! `PieController`, `PolarAreaController`, `RadarController`, `LogarithmicScale`,
//! `TimeScale`, `TimeSeriesScale` and `RadialLinearScale`, plus the decimation plugin's.
//!
//! [`crate::defaults`] consults these tables after its own, so each chart or scale type keeps
//! its defaults next to the others of its family. Functions (legend `generateLabels`, tick
//! callbacks) cannot be data; the engine applies them by type.

use serde_json::{json, Map, Value};
use std::sync::LazyLock;

/// `Chart.defaults.datasets[type]`: each controller's `static defaults`.
static DATASETS: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "doughnut": {
            "datasetElementType": false,
            "dataElementType": "arc",
            "cutout": "50%",
            "rotation": 0,
            "circumference": 360,
            "radius": "100%",
            "spacing": 0,
            "spacingMode": "angular",
            "indexAxis": "r"
        },
        "pie": {
            "datasetElementType": false,
            "dataElementType": "arc",
            "cutout": 0,
            "rotation": 0,
            "circumference": 360,
            "radius": "100%",
            "spacing": 0,
            "spacingMode": "angular",
            "indexAxis": "r"
        },
        "polarArea": {
            "dataElementType": "arc",
            "indexAxis": "r",
            "startAngle": 0,
            "spacing": 0,
            "spacingMode": "proportional"
        },
        "radar": {
            "datasetElementType": "line",
            "dataElementType": "point",
            "indexAxis": "r",
            "showLine": true,
            "elements": {"line": {"fill": "start"}}
        }
    })
});

/// `Chart.overrides[type]`.
static OVERRIDES: LazyLock<Value> = LazyLock::new(|| {
    let arc_overrides = json!({"aspectRatio": 1});
    json!({
        "doughnut": arc_overrides,
        "pie": arc_overrides,
        "polarArea": {
            "aspectRatio": 1,
            "scales": {
                "r": {
                    "type": "radialLinear",
                    "angleLines": {"display": false},
                    "beginAtZero": true,
                    "grid": {"circular": true},
                    "pointLabels": {"display": false},
                    "startAngle": 0
                }
            }
        },
        "radar": {
            "aspectRatio": 1,
            "scales": {"r": {"type": "radialLinear"}}
        }
    })
});

/// `Chart.defaults.scales[type]`: each scale's `static defaults`.
static SCALES: LazyLock<Value> = LazyLock::new(|| {
    let time = json!({
        "bounds": "data",
        "adapters": {},
        "time": {
            "parser": false,
            "unit": false,
            "round": false,
            "isoWeekday": false,
            "minUnit": "millisecond",
            "displayFormats": {}
        },
        "ticks": {"source": "auto", "callback": false, "major": {"enabled": false}}
    });
    json!({
        "logarithmic": {"ticks": {"major": {"enabled": true}}},
        "time": time,
        "timeseries": time,
        "radialLinear": {
            "display": true,
            "animate": true,
            "position": "chartArea",
            "angleLines": {
                "display": true,
                "lineWidth": 1,
                "borderDash": [],
                "borderDashOffset": 0.0
            },
            "grid": {"circular": false},
            "startAngle": 0,
            "ticks": {"showLabelBackdrop": true},
            "pointLabels": {
                "backdropPadding": 2,
                "display": true,
                "font": {"size": 10},
                "padding": 5,
                "centerPointLabels": false
            }
        }
    })
});

/// Plugin defaults of this family: `decimation`.
static PLUGINS: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "decimation": {"algorithm": "min-max", "enabled": false}
    })
});

/// Adds this family's entries to one of [`crate::defaults`]'s tables (`"global"`,
/// `"overrides"` or `"scales"`) when it is built; existing keys are kept.
pub(crate) fn extend(table: &str, mut v: Value) -> Value {
    let add = |target: Option<&mut Value>, from: &Value| {
        if let (Some(Value::Object(t)), Value::Object(f)) = (target, from) {
            for (k, val) in f {
                t.entry(k.clone()).or_insert_with(|| val.clone());
            }
        }
    };
    match table {
        "global" => {
            add(v.get_mut("datasets"), &DATASETS);
            add(v.get_mut("plugins"), &PLUGINS);
        }
        "overrides" => add(Some(&mut v), &OVERRIDES),
        "scales" => add(Some(&mut v), &SCALES),
        _ => {}
    }
    v
}

fn entry(table: &'static Value, key: &str) -> Option<&'static Map<String, Value>> {
    table.get(key).and_then(Value::as_object)
}

/// A controller's `static defaults`, for the types of this family.
pub fn dataset_type(chart_type: &str) -> Option<&'static Map<String, Value>> {
    entry(&DATASETS, chart_type)
}

/// `Chart.overrides[type]`, for the types of this family.
pub fn overrides(chart_type: &str) -> Option<&'static Map<String, Value>> {
    entry(&OVERRIDES, chart_type)
}

/// A scale's `static defaults`, for the scale types of this family.
pub fn scale_type(scale_type: &str) -> Option<&'static Map<String, Value>> {
    entry(&SCALES, scale_type)
}

/// A plugin's defaults (`Chart.defaults.plugins[id]`), for the plugins of this family.
pub fn plugin(id: &str) -> Option<&'static Map<String, Value>> {
    entry(&PLUGINS, id)
}

/// `defaultRoutes` of `RadialLinearScale`: options that fall back to a global colour when
/// unset (`angleLines.color` → `borderColor`, `pointLabels.color` and `ticks.color` →
/// `color`). Pairs of (option path, global key).
pub const RADIAL_DEFAULT_ROUTES: [(&str, &str); 3] = [
    ("angleLines.color", "borderColor"),
    ("pointLabels.color", "color"),
    ("ticks.color", "color"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert_eq!(
            dataset_type("doughnut").map(|m| &m["cutout"]),
            Some(&json!("50%"))
        );
        assert_eq!(dataset_type("pie").map(|m| &m["cutout"]), Some(&json!(0)));
        assert!(overrides("polarArea").is_some_and(|m| m.contains_key("scales")));
        assert!(scale_type("timeseries").is_some());
        assert!(scale_type("linear").is_none());
        assert_eq!(
            plugin("decimation").map(|m| &m["enabled"]),
            Some(&json!(false))
        );
    }
}
