//! Defaults of the chart types (controllers) the skia engine draws: `Chart.defaults.datasets[type]`
//! (each controller's `static defaults`) and `Chart.overrides[type]` (its `static overrides`),
//! for the core line, bar, scatter and bubble types and for doughnut, pie, polar area and
//! radar. The bundled plugins' chart types are in [`super::plugin_chart`].

use serde_json::{json, Value};
use std::sync::LazyLock;

/// `Chart.defaults.datasets[type]`: each controller's `static defaults`.
pub(super) static DATASETS: LazyLock<Value> = LazyLock::new(|| {
    json!({
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
        },
        "doughnut": {
            "datasetElementType": false,
            "dataElementType": "arc",
            "cutout": "50%",
            "rotation": 0,
            "circumference": 360,
            "radius": "100%",
            "spacing": 0,
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
            "indexAxis": "r"
        },
        "polarArea": {
            "dataElementType": "arc",
            "indexAxis": "r",
            "startAngle": 0,
            "spacing": 0
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
pub(super) static OVERRIDES: LazyLock<Value> = LazyLock::new(|| {
    let arc_overrides = json!({"aspectRatio": 1});
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
        },
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
