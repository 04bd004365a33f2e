//! `Chart.defaults.elements`: the default options of the core elements (arc, line, point,
//! bar). The bundled plugin chart types' elements are in [`super::plugin_chart`].

use serde_json::{json, Value};
use std::sync::LazyLock;

/// `Chart.defaults.elements` of Chart.js 4.5.1 core.
pub(super) static ELEMENTS: LazyLock<Value> = LazyLock::new(|| {
    json!({
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
    })
});
