//! The sweep's tables: extreme numbers and hostile option settings.

use serde_json::{json, Value};

pub(super) const EXTREMES: &[f64] = &[
    1e308,
    -1e308,
    1e-308,
    -0.0,
    5e-324,
    1e9,
    -1e9,
    1e15,
    9_007_199_254_740_993.0,
    4_294_967_296.0,
    -1.0,
    0.0,
    0.5,
    1e21,
];

/// Hostile settings: a path (`S` = every scale, `D` = every dataset) and its values.
pub(super) fn hostile_options() -> Vec<(&'static str, Vec<Value>)> {
    let long = "W".repeat(10_000);
    let marks = format!("a{}", "\u{301}".repeat(9_000));
    let dash = json!([1e-6, 1e-6]);
    vec![
        (
            "options.scales.S.ticks.stepSize",
            vec![json!(1e-300), json!(1e-9), json!(-1)],
        ),
        (
            "options.scales.S.min",
            vec![json!(-1e308), json!(1e-308), json!(-8.64e15)],
        ),
        (
            "options.scales.S.max",
            vec![json!(1e308), json!(5e-324), json!(8.64e15)],
        ),
        ("options.scales.S.suggestedMax", vec![json!(1e308)]),
        (
            "options.scales.S.type",
            vec![
                json!("time"),
                json!("logarithmic"),
                json!("timeseries"),
                json!("category"),
                json!("radialLinear"),
                json!("linear"),
            ],
        ),
        (
            "options.scales.S.ticks.maxTicksLimit",
            vec![json!(1e9), json!(0), json!(-1)],
        ),
        (
            "options.scales.S.ticks.count",
            vec![json!(1e9), json!(100_000), json!(-5)],
        ),
        (
            "options.scales.S.ticks.precision",
            vec![json!(1e9), json!(100), json!(-1)],
        ),
        (
            "options.scales.S.ticks.sampleSize",
            vec![json!(0), json!(1e9), json!(-1)],
        ),
        (
            "options.scales.S.ticks.autoSkipPadding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.ticks.padding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.ticks.maxRotation",
            vec![json!(1e308), json!(-1e9)],
        ),
        (
            "options.scales.S.ticks.minRotation",
            vec![json!(1e308), json!(45.5)],
        ),
        (
            "options.scales.S.ticks.font.size",
            vec![json!(1e9), json!(1e-9), json!(-5)],
        ),
        (
            "options.scales.S.ticks.font.lineHeight",
            vec![json!(1e9), json!(-1), json!("1e308px")],
        ),
        ("options.scales.S.ticks.z", vec![json!(1e308)]),
        (
            "options.scales.S.ticks.format",
            vec![
                json!({"maximumFractionDigits": 100, "minimumFractionDigits": 100}),
                json!({"notation": "scientific", "maximumSignificantDigits": 21}),
                json!({"style": "percent", "minimumIntegerDigits": 21}),
            ],
        ),
        (
            "options.scales.S.time.unit",
            vec![json!("millisecond"), json!("year"), json!("quarter")],
        ),
        (
            "options.scales.S.time.stepSize",
            vec![json!(1e-9), json!(1e9)],
        ),
        ("options.scales.S.time.round", vec![json!("millisecond")]),
        (
            "options.scales.S.time.displayFormats",
            vec![
                json!({"millisecond": long.clone(), "day": "YYYY".repeat(2000), "month": "[".repeat(5000)}),
            ],
        ),
        (
            "options.scales.S.time.parser",
            vec![json!("Y".repeat(5000)), json!("x")],
        ),
        (
            "options.scales.S.grid.lineWidth",
            vec![json!(1e9), json!([1e308, -1])],
        ),
        (
            "options.scales.S.grid.tickLength",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.scales.S.border.dash",
            vec![dash.clone(), json!([0, 0]), json!([1e308])],
        ),
        ("options.scales.S.grid.tickBorderDash", vec![dash.clone()]),
        (
            "options.scales.S.grace",
            vec![json!("1e308%"), json!(1e308), json!("-50%")],
        ),
        ("options.scales.S.offset", vec![json!(true)]),
        (
            "options.scales.S.stacked",
            vec![json!(true), json!("single")],
        ),
        ("options.scales.S.reverse", vec![json!(true)]),
        ("options.scales.S.weight", vec![json!(1e308), json!(-1e308)]),
        (
            "options.scales.S.position",
            vec![json!({"x": 1e308}), json!("chartArea"), json!("center")],
        ),
        (
            "options.scales.S.title",
            vec![json!({"display": true, "text": long.clone()})],
        ),
        ("options.scales.S.pointLabels.font.size", vec![json!(1e9)]),
        ("options.scales.S.pointLabels.padding", vec![json!(1e308)]),
        ("options.scales.S.angleLines.borderDash", vec![dash.clone()]),
        (
            "options.scales.S.startAngle",
            vec![json!(1e308), json!(-1e308)],
        ),
        ("options.scales.S.ticks.backdropPadding", vec![json!(1e308)]),
        (
            "options.scales.S.labels",
            vec![json!(vec![long.clone(); 3])],
        ),
        (
            "options.layout.padding",
            vec![
                json!(1e308),
                json!(-1e308),
                json!({"left": 1e308, "top": -1e308}),
            ],
        ),
        (
            "options.plugins.title",
            vec![
                json!({"display": true, "text": vec!["t"; 5000]}),
                json!({"display": true, "text": marks.clone()}),
                json!({"display": true, "text": "t", "font": {"size": 1e-9}, "padding": 1e308}),
            ],
        ),
        (
            "options.plugins.subtitle",
            vec![json!({"display": true, "text": long.clone(), "font": {"size": 1e9}})],
        ),
        (
            "options.plugins.legend.labels.boxWidth",
            vec![json!(1e9), json!(-1e9)],
        ),
        (
            "options.plugins.legend.labels.padding",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.plugins.legend.labels.font.size",
            vec![json!(1e-9), json!(1e9)],
        ),
        (
            "options.plugins.legend.labels.usePointStyle",
            vec![json!(true)],
        ),
        (
            "options.plugins.legend.labels.pointStyleWidth",
            vec![json!(1e308)],
        ),
        (
            "options.plugins.legend.maxWidth",
            vec![json!(-1), json!(1e-308)],
        ),
        (
            "options.plugins.legend.maxHeight",
            vec![json!(-1), json!(1e-308)],
        ),
        (
            "options.plugins.legend.position",
            vec![json!("left"), json!("chartArea"), json!({"x": 1})],
        ),
        (
            "options.plugins.legend.title",
            vec![json!({"display": true, "text": long.clone(), "padding": 1e308})],
        ),
        (
            "options.plugins.decimation",
            vec![
                json!({"enabled": true, "algorithm": "lttb", "samples": 1e9}),
                json!({"enabled": true, "algorithm": "lttb", "samples": 0.5, "threshold": -1}),
                json!({"enabled": true, "algorithm": "min-max", "threshold": 0}),
            ],
        ),
        (
            "options.plugins.datalabels",
            vec![
                json!({"display": true, "font": {"size": 1e-9}, "padding": 1e308, "rotation": 1e308}),
                json!({"display": true, "offset": 1e308, "borderWidth": 1e9, "borderRadius": 1e9, "clamp": true, "clip": true, "textStrokeWidth": 1e9, "anchor": "end", "align": 1e308}),
                json!({"display": "auto", "font": {"size": 1e9}, "formatter": null}),
            ],
        ),
        (
            "options.elements.line.borderDash",
            vec![dash.clone(), json!([1e-300]), json!([0.01, 0])],
        ),
        (
            "options.elements.line.tension",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.line.cubicInterpolationMode",
            vec![json!("monotone")],
        ),
        (
            "options.elements.line.stepped",
            vec![json!(true), json!("middle")],
        ),
        (
            "options.elements.point.pointStyle",
            vec![
                json!("star"),
                json!("crossRot"),
                json!("rectRounded"),
                json!("line"),
            ],
        ),
        ("options.elements.point.rotation", vec![json!(1e308)]),
        (
            "options.elements.point.radius",
            vec![json!(1e9), json!(1e-308)],
        ),
        ("options.elements.point.borderWidth", vec![json!(1e9)]),
        (
            "options.elements.arc.borderRadius",
            vec![
                json!(1e308),
                json!({"outerStart": 1e308, "innerEnd": -1e308}),
            ],
        ),
        (
            "options.elements.arc.spacing",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.arc.offset",
            vec![json!(1e308), json!(-1e308)],
        ),
        ("options.elements.arc.borderWidth", vec![json!(1e9)]),
        ("options.elements.arc.borderDash", vec![dash.clone()]),
        ("options.elements.arc.borderJoinStyle", vec![json!("miter")]),
        (
            "options.elements.bar.borderRadius",
            vec![json!(1e308), json!(-1e308)],
        ),
        (
            "options.elements.bar.borderWidth",
            vec![json!({"top": 1e308, "left": -1e308})],
        ),
        (
            "options.elements.bar.borderSkipped",
            vec![json!("middle"), json!(false)],
        ),
        (
            "options.rotation",
            vec![json!(1e308), json!(-1e308), json!(5e-324)],
        ),
        (
            "options.circumference",
            vec![json!(1e308), json!(-1e308), json!(1e-308)],
        ),
        (
            "options.cutout",
            vec![json!(-1e308), json!("1e308%"), json!("-50%"), json!(1e308)],
        ),
        (
            "options.radius",
            vec![json!("1e308%"), json!(-1), json!(1e308)],
        ),
        ("options.spanGaps", vec![json!(1e-300), json!(true)]),
        ("options.indexAxis", vec![json!("y")]),
        ("options.devicePixelRatio", vec![json!(1e308), json!(1e-9)]),
        (
            "options.locale",
            vec![json!(long.clone()), json!("ar-u-nu-arab"), json!("-")],
        ),
        ("options.font.size", vec![json!(1e9), json!(1e-9)]),
        ("D.borderDash", vec![dash.clone(), json!([0.001, 0.001])]),
        ("D.borderDashOffset", vec![json!(1e308), json!(-1e308)]),
        ("D.tension", vec![json!(1e308), json!(0.4)]),
        ("D.stepped", vec![json!("middle"), json!("after")]),
        (
            "D.fill",
            vec![
                json!("origin"),
                json!("-1"),
                json!("+1"),
                json!("stack"),
                json!({"target": {"value": 1e308}}),
                json!("shape"),
                json!(-1e9),
            ],
        ),
        ("D.pointStyle", vec![json!("triangle"), json!("star")]),
        ("D.pointRotation", vec![json!(1e308)]),
        ("D.pointRadius", vec![json!(1e9), json!(100)]),
        ("D.borderWidth", vec![json!({"top": 1e308}), json!(1e9)]),
        (
            "D.borderRadius",
            vec![json!({"topLeft": 1e308}), json!(1e308)],
        ),
        ("D.barPercentage", vec![json!(1e308), json!(-1)]),
        ("D.categoryPercentage", vec![json!(1e308), json!(-1e308)]),
        (
            "D.barThickness",
            vec![json!(1e308), json!("flex"), json!(-1)],
        ),
        ("D.maxBarThickness", vec![json!(-1)]),
        ("D.minBarLength", vec![json!(1e308)]),
        ("D.inflateAmount", vec![json!(1e308)]),
        ("D.base", vec![json!(1e308), json!(-1e308)]),
        ("D.order", vec![json!(1e308)]),
        ("D.stack", vec![json!("a")]),
        (
            "D.clip",
            vec![
                json!(1e308),
                json!(-1e308),
                json!({"left": -1e308, "top": 1e308}),
            ],
        ),
        ("D.xAxisID", vec![json!("nope")]),
        (
            "D.type",
            vec![
                json!("line"),
                json!("bar"),
                json!("bubble"),
                json!("pie"),
                json!("radar"),
                json!("scatter"),
            ],
        ),
        ("D.circumference", vec![json!(1e308)]),
        ("D.rotation", vec![json!(-1e308)]),
        ("D.weight", vec![json!(1e308), json!(-1)]),
        ("D.spacing", vec![json!(1e308)]),
        ("D.offset", vec![json!(1e308)]),
        ("D.hidden", vec![json!(true)]),
        ("D.indexAxis", vec![json!("y")]),
        ("D.label", vec![json!(long.clone()), json!(marks.clone())]),
        (
            "D.datalabels",
            vec![json!({"display": true, "rotation": 1e308, "padding": -1e308})],
        ),
        (
            "options.plugins.annotation",
            vec![
                json!({"clip": false, "common": {"drawTime": "beforeDraw"}, "annotations": (0..1000).map(|i| json!({"type": "box", "xMin": i, "xMax": 1e308, "yMin": -1e308, "yMax": i, "borderWidth": 1e9, "shadowBlur": 1e9, "shadowOffsetX": 1e308, "borderDash": [1e-6, 1e-6]})).collect::<Vec<_>>()}),
                json!({"annotations": {"a": {"type": "label", "xValue": 1, "yValue": 1, "content": vec![long.clone(); 3], "font": {"size": 1e9}, "padding": 1e308, "rotation": 1e308, "callout": {"display": true, "margin": 1e308, "start": "1e308%"}, "textStrokeWidth": 1e9}}}),
                json!({"annotations": {"a": {"type": "line", "scaleID": "y", "value": 5e-324, "endValue": 1e308, "curve": true, "controlPoint": {"x": "1e308%", "y": -1e308}, "arrowHeads": {"end": {"display": true, "length": 1e308, "width": -1e308, "fill": true}}, "label": {"display": true, "content": marks.clone(), "position": "1e308%"}}}}),
                json!({"annotations": {"a": {"type": "doughnutLabel", "content": vec!["x"; 5000], "font": [{"size": 1e9}]}, "b": {"type": "ellipse", "xMin": -1e308, "xMax": 1e308, "yMin": 1, "yMax": 1, "rotation": 1e308, "borderWidth": 1e9}}}),
                json!({"annotations": {"a": {"type": "polygon", "xValue": 1, "yValue": 1, "sides": 1024, "radius": 1e308, "rotation": -1e308, "point": {"radius": 1e9}}, "b": {"type": "point", "xValue": 1e308, "yValue": -1e308, "radius": 1e308, "pointStyle": "star", "rotation": 1e308}}}),
            ],
        ),
        (
            "D.datalabels",
            vec![
                json!({"display": true, "labels": {"a": {"font": {"size": 1e9}}, "b": {"offset": 1e308, "rotation": 1e308, "padding": {"left": 1e308, "top": -1e308}}, "c": {"borderWidth": 1e9, "borderRadius": 1e308, "textShadowBlur": 1e9, "textStrokeWidth": 1e9}}}),
                json!({"display": true, "anchor": "end", "align": -1e308, "clamp": true, "clip": true, "offset": -1e308, "font": {"size": 5e-324, "lineHeight": 1e308}}),
                json!({"display": "auto", "formatter": null, "textAlign": "right", "font": {"family": long.clone()}, "backgroundColor": "rgba(1e308, -1e308, 0, 1e-308)"}),
            ],
        ),
        (
            "options.plugins.annotation.annotations",
            vec![
                json!([{"type": "line", "yMin": 1e308, "yMax": -1e308, "borderDash": [1e-6], "label": {"display": true, "content": long.clone()}}]),
                json!([{"type": "box", "xMin": -1e308, "xMax": 1e308, "borderRadius": 1e308, "label": {"display": true, "content": "a", "font": {"size": 1e9}}}]),
                json!([{"type": "ellipse", "xMin": 0, "xMax": 1e308, "rotation": 1e308}]),
                json!([{"type": "point", "xValue": 1, "yValue": 1, "radius": 1e9, "pointStyle": "star"}]),
                json!([{"type": "polygon", "xValue": 1, "yValue": 1, "sides": 1e9, "radius": 1e308}]),
                json!([{"type": "label", "xValue": 1, "yValue": 1, "content": vec!["x"; 5000], "callout": {"display": true}}]),
                json!([{"type": "line", "scaleID": "x", "value": 1, "curve": true, "arrowHeads": {"start": {"display": true, "length": 1e308}}}]),
            ],
        ),
    ]
}
