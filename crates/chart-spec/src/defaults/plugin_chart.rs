//! Defaults of the bundled plugin chart types (chartjs-chart-matrix 3.1.0,
//! chartjs-chart-treemap 4.2.2, chartjs-chart-sankey 0.19.1, chartjs-chart-venn 4.3.7,
//! chartjs-chart-graph): the controllers' and elements' `static defaults`/`overrides`, as data.
//! [`super`] adds them to its tables after the core ones. Options that the plugins accept as
//! functions (matrix `width`/`height`, treemap `labels.formatter`) cannot be JSON; their
//! default functions are reproduced by the engine.

use crate::model::{VennTemplate, VennTemplateArc, VennTemplateCircle, VennTemplateRegion};
use serde_json::{json, Value};
use std::sync::LazyLock;

/// chartjs-chart-graph's `DendrogramController.defaults` (the scatter controller's, `clip`
/// 10, `tension` 0.4 and the tree layout `mode`).
fn graph_dataset(mode: &str) -> Value {
    json!({
        "datasetElementType": false,
        "dataElementType": "point",
        "showLine": false,
        "fill": false,
        "clip": 10,
        "edgeElementType": "edgeLine",
        "tension": 0.4,
        "tree": {"mode": mode, "orientation": "horizontal"}
    })
}

/// `GraphController.defaults` (the scatter controller's with `clip` 10 and edges), and
/// `ForceDirectedGraphController.defaults`: the `simulation` with its default forces.
fn plain_graph_dataset(force: bool) -> Value {
    let mut v = json!({
        "datasetElementType": false,
        "dataElementType": "point",
        "showLine": false,
        "fill": false,
        "clip": 10,
        "edgeElementType": "edgeLine"
    });
    if force {
        v["animation"] = json!(false);
        v["simulation"] = json!({
            "initialIterations": 0,
            "autoRestart": true,
            "forces": {
                "center": true,
                "collide": false,
                "link": true,
                "manyBody": true,
                "x": false,
                "y": false,
                "radial": false
            }
        });
    }
    v
}

/// `DendrogramController.overrides` and `ForceDirectedGraphController.overrides`: hidden
/// linear scales over -1..1 and a 10px padding.
fn graph_overrides() -> Value {
    let mut v = plain_graph_overrides();
    for axis in ["x", "y"] {
        v["scales"][axis]["min"] = json!(-1);
        v["scales"][axis]["max"] = json!(1);
    }
    v
}

/// `GraphController.overrides`: the scatter chart's, with hidden scales and a 10px padding.
fn plain_graph_overrides() -> Value {
    let axis = json!({
        "type": "linear",
        "display": false,
        "ticks": {"maxTicksLimit": 2, "precision": 100, "minRotation": 0, "maxRotation": 0}
    });
    json!({
        "interaction": {"mode": "point"},
        "layout": {"padding": 10},
        "scales": {"x": axis, "y": axis}
    })
}

/// `geoOverrides` with the value scale (`color` or `size`). The plugin's own scale types
/// (`projection`, `color`, `size`) draw nothing in the chart's layout (they sit at
/// `chartArea`); here they are hidden linear scales, and the controller projects by itself.
fn geo_overrides(value_scale: &str) -> Value {
    let hidden = json!({"axis": "x", "type": "linear", "display": false});
    let mut scales = serde_json::Map::new();
    scales.insert("projection".into(), hidden.clone());
    scales.insert(value_scale.into(), hidden);
    json!({"scales": scales})
}

/// `Chart.defaults.datasets[type]`: each plugin controller's `static defaults`.
pub(super) static DATASETS: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "matrix": {"dataElementType": "matrix"},
        "treemap": {"dataElementType": "treemap"},
        "sankey": {
            "borderColor": "black",
            "borderWidth": 1,
            "color": "black",
            "dataElementType": "flow",
            "modeX": "edge",
            "nodeMinSize": 0,
            "nodePadding": 10,
            "nodePaddingMode": "auto",
            "nodeWidth": 10,
            "orientation": "horizontal"
        },
        "tree": graph_dataset("tree"),
        "dendrogram": graph_dataset("dendrogram"),
        "dendogram": graph_dataset("dendrogram"),
        "graph": plain_graph_dataset(false),
        "forceDirectedGraph": plain_graph_dataset(true),
        "choropleth": {
            "dataElementType": "geoFeature",
            "datasetElementType": "geoFeature",
            "showOutline": false,
            "showGraticule": false,
            "clipMap": true
        },
        "bubbleMap": {
            "dataElementType": "point",
            "datasetElementType": "geoFeature",
            "showOutline": true,
            "showGraticule": false,
            "clipMap": "outline+graticule"
        },
        "wordCloud": {"dataElementType": "word", "randomRotationSeed": 0},
        "venn": {"dataElementType": "arcSlice"},
        "euler": {"dataElementType": "arcSlice"}
    })
});

/// `Chart.defaults.elements[type]`: each plugin element's `static defaults`.
pub(super) static ELEMENTS: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "matrix": {
            "anchorX": "center",
            "anchorY": "center",
            "borderRadius": 0,
            "height": 20,
            "width": 20
        },
        "treemap": {
            "borderRadius": 0,
            "borderWidth": 0,
            "captions": {"color": "black", "display": true, "font": {}, "padding": 3},
            "displayMode": "containerBoxes",
            "dividers": {
                "display": false,
                "lineCapStyle": "butt",
                "lineColor": "black",
                "lineDash": [],
                "lineDashOffset": 0,
                "lineWidth": 1
            },
            "labels": {
                "align": "center",
                "color": "black",
                "display": false,
                "font": {},
                "overflow": "cut",
                "padding": 3,
                "position": "middle"
            },
            "rtl": false,
            "spacing": 0.5,
            "unsorted": false
        },
        "geoFeature": {
            "borderSkipped": "start",
            "borderWidth": 0,
            "borderRadius": 0,
            "inflateAmount": "auto",
            "outlineBackgroundColor": null,
            "outlineBorderWidth": 0,
            "graticuleBorderColor": "#CCCCCC",
            "graticuleBorderWidth": 0
        },
        "word": {
            "minRotation": -90,
            "maxRotation": 0,
            "rotationSteps": 2,
            "padding": 1,
            "hoverColor": "#ababab"
        },
        "arcSlice": {
            "backgroundColor": "#efefef",
            "borderRadius": 0,
            "borderSkipped": "start",
            "borderWidth": 0,
            "inflateAmount": "auto"
        },
        "edgeLine": {
            "borderCapStyle": "butt",
            "borderDash": [],
            "borderDashOffset": 0.0,
            "borderJoinStyle": "miter",
            "borderWidth": 3,
            "capBezierPoints": true,
            "cubicInterpolationMode": "default",
            "fill": false,
            "spanGaps": false,
            "stepped": false,
            "tension": 0,
            "directed": false,
            "arrowHeadSize": 15,
            "arrowHeadOffset": 5
        },
        "flow": {
            "alpha": 0.5,
            "colorFrom": "red",
            "colorMode": "gradient",
            "colorTo": "green",
            "flowColor": null,
            "flowLabels": {
                "borderRadius": 0,
                "color": "black",
                "display": false,
                "padding": 4,
                "position": "center"
            },
            "orientation": "horizontal"
        }
    })
});

/// `Chart.overrides[type]`.
pub(super) static OVERRIDES: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "matrix": {
            "interaction": {"intersect": true, "mode": "nearest"},
            "scales": {
                "x": {"offset": true, "type": "linear"},
                "y": {"reverse": true, "type": "linear"}
            }
        },
        "treemap": {
            "interaction": {"includeInvisible": true, "intersect": true, "mode": "point"},
            "scales": {
                "x": {"alignToPixels": true, "bounds": "data", "display": false, "type": "linear"},
                "y": {
                    "alignToPixels": true,
                    "bounds": "data",
                    "display": false,
                    "reverse": true,
                    "type": "linear"
                }
            }
        },
        "tree": graph_overrides(),
        "dendrogram": graph_overrides(),
        "dendogram": graph_overrides(),
        "graph": plain_graph_overrides(),
        "forceDirectedGraph": graph_overrides(),
        "choropleth": {
            "plugins": {"colors": {"enabled": false}},
            "scales": geo_overrides("color")["scales"].clone()
        },
        "bubbleMap": geo_overrides("size"),
        "wordCloud": {
            "scales": {
                "x": {"type": "linear", "min": -1, "max": 1, "display": false},
                "y": {"type": "linear", "min": -1, "max": 1, "display": false}
            }
        },
        "venn": {
            "scales": {
                "x": {"type": "linear", "min": -1, "max": 1, "display": false},
                "y": {"type": "linear", "min": -1, "max": 1, "display": false}
            }
        },
        "euler": {
            "scales": {
                "x": {"type": "linear", "min": -1, "max": 1, "display": false},
                "y": {"type": "linear", "min": -1, "max": 1, "display": false}
            }
        },
        "sankey": {
            "interaction": {"intersect": true, "mode": "nearest"},
            "layout": {"padding": {"bottom": 3, "left": 3, "right": 13, "top": 3}},
            "plugins": {"legend": {"display": false}},
            "scales": {
                "x": {"bounds": "data", "display": false, "min": 0, "offset": false, "type": "linear"},
                "y": {
                    "bounds": "data",
                    "display": false,
                    "min": 0,
                    "offset": false,
                    "reverse": true,
                    "type": "linear"
                }
            }
        }
    })
});

/// chartjs-chart-venn's layouts for zero to five sets (its `venn0` to `venn5` tables, MIT
/// licence, © Samuel Gratzl): coordinates only, extracted as JSON. Four and five sets use
/// ellipses; `euler` runs venn.js's optimiser and has no template.
static VENN_LAYOUTS: &str = include_str!("venn_layouts.json");

/// The templates, typed once; an entry is `None` when its JSON lacks a part.
static VENN_TEMPLATES: LazyLock<Vec<Option<VennTemplate>>> =
    LazyLock::new(|| match serde_json::from_str::<Value>(VENN_LAYOUTS) {
        Ok(Value::Array(all)) => all.iter().map(venn_template_of).collect(),
        _ => Vec::new(),
    });

/// The chartjs-chart-venn template for `sets` sets; `None` beyond five.
pub fn venn_template(sets: usize) -> Option<&'static VennTemplate> {
    VENN_TEMPLATES.get(sets)?.as_ref()
}

fn venn_template_of(t: &Value) -> Option<VennTemplate> {
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    let text = |v: &Value| {
        v.get("text")
            .map_or((0.0, 0.0), |t| (num(t, "x"), num(t, "y")))
    };
    let tb = t.get("bb")?;
    let circles = t
        .get("sets")?
        .as_array()?
        .iter()
        .map(|c| VennTemplateCircle {
            cx: num(c, "cx"),
            cy: num(c, "cy"),
            r: num(c, "r"),
            ellipse: c
                .get("rx")
                .and_then(Value::as_f64)
                .map(|rx| (rx, num(c, "ry"), num(c, "rotation"))),
            text: text(c),
            align: c
                .get("align")
                .and_then(Value::as_str)
                .unwrap_or("start")
                .into(),
            vertical_align: c
                .get("verticalAlign")
                .and_then(Value::as_str)
                .unwrap_or("alphabetic")
                .into(),
        })
        .collect();
    let regions = t
        .get("intersections")?
        .as_array()?
        .iter()
        .map(|r| VennTemplateRegion {
            start: (num(r, "x1"), num(r, "y1")),
            arcs: r
                .get("arcs")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|a| VennTemplateArc {
                            circle: a.get("ref").and_then(Value::as_u64).unwrap_or(0) as usize,
                            x2: num(a, "x2"),
                            y2: num(a, "y2"),
                            sweep: a.get("sweep").and_then(Value::as_bool).unwrap_or(false),
                            large: a.get("large").and_then(Value::as_bool).unwrap_or(false),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            text: text(r),
        })
        .collect();
    Some(VennTemplate {
        bb: (
            num(tb, "x"),
            num(tb, "y"),
            num(tb, "width"),
            num(tb, "height"),
        ),
        circles,
        regions,
    })
}
