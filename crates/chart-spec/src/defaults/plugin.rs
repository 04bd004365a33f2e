//! Plugin defaults: `Chart.defaults.plugins` of the core plugins, and the defaults
//! chartjs-plugin-datalabels 2.2.0 reads its options over. Annotation defaults are in
//! [`super::annotation`].

use serde_json::{json, Value};
use std::sync::LazyLock;

/// `chartjs-plugin-datalabels` defaults, with `display: false` as the service registers the
/// plugin (`Chart.defaults.plugins.datalabels.display = false`).
pub(crate) fn datalabels() -> Value {
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

/// `Chart.defaults.plugins`: the core plugins' defaults (colors, filler, legend, title,
/// subtitle, decimation).
pub(super) static PLUGINS: LazyLock<Value> = LazyLock::new(|| {
    json!({
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
        },
        "decimation": {"algorithm": "min-max", "enabled": false}
    })
});
