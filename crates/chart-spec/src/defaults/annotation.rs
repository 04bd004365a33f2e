//! Defaults of chartjs-plugin-annotation 3.1.0: each annotation element type's
//! `static defaults` (with its label's), which `resolveAnnotationOptions` merges under
//! `common` and each annotation's own options.

use crate::model::annotation::AnnotationKind;
use serde_json::{json, Value};

pub(crate) fn type_defaults(kind: AnnotationKind) -> Value {
    let box_label = json!({"backgroundColor": "transparent", "borderWidth": 0, "color": "black",
        "display": false, "font": {"weight": "bold"}, "padding": 6, "position": "center",
        "textAlign": "start", "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0,
        "borderRadius": 0, "borderDash": [], "borderDashOffset": 0});
    match kind {
        AnnotationKind::Line => json!({"adjustScaleRange": true, "borderDash": [],
            "arrowHeads": {"display": false, "fill": false, "length": 12, "width": 6},
            "curve": false, "controlPoint": {"y": "-50%"},
            "borderDashOffset": 0, "borderWidth": 2, "display": true, "z": 0,
            "label": {"backgroundColor": "rgba(0,0,0,0.8)", "borderColor": "black",
                "borderDash": [], "borderDashOffset": 0, "borderRadius": 6, "borderWidth": 0,
                "color": "#fff", "display": false, "font": {"weight": "bold"}, "padding": 6,
                "position": "center", "rotation": 0, "textAlign": "center",
                "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0}}),
        AnnotationKind::Box => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderRadius": 0, "borderWidth": 1, "display": true,
            "rotation": 0, "z": 0, "label": box_label}),
        AnnotationKind::Ellipse => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "rotation": 0, "z": 0,
            "label": box_label}),
        AnnotationKind::Label => json!({"adjustScaleRange": true, "backgroundColor": "transparent",
            "borderDash": [], "borderDashOffset": 0, "borderRadius": 0, "borderWidth": 0,
            "color": "black", "display": true, "padding": 6, "position": "center",
            "rotation": 0, "textAlign": "center", "textStrokeWidth": 0, "xAdjust": 0,
            "yAdjust": 0, "z": 0}),
        AnnotationKind::Point => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "pointStyle": "circle",
            "radius": 10, "rotation": 0, "xAdjust": 0, "yAdjust": 0, "z": 0}),
        AnnotationKind::DoughnutLabel => json!({"autoFit": true, "autoHide": true,
            "backgroundColor": "transparent", "borderColor": "transparent", "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 0, "color": "black", "display": true,
            "position": "center", "rotation": 0, "spacing": 1, "textAlign": "center",
            "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0, "adjustScaleRange": false,
            "padding": 0}),
        AnnotationKind::Polygon => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "radius": 10,
            "rotation": 0, "sides": 3, "xAdjust": 0, "yAdjust": 0, "z": 0}),
    }
}
