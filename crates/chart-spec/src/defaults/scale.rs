//! Defaults of the scale types: `Chart.defaults.scales[type]`, each scale's `static defaults`
//! (category, linear, logarithmic, time, timeseries, radialLinear), and `Chart.defaults.scale`,
//! the defaults common to all scales.

use serde_json::{json, Value};
use std::sync::LazyLock;

/// `Chart.defaults.scales[type]`: each scale's `static defaults`.
pub(super) static SCALES: LazyLock<Value> = LazyLock::new(|| {
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
        "category": {},
        "linear": {},
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

/// `Chart.defaults.scale`: what every scale starts from.
pub(super) static SCALE: LazyLock<Value> = LazyLock::new(|| {
    json!({
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
    })
});
