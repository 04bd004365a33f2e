//! The chart types of the bundled chart plugins (chartjs-chart-matrix 3.1.0,
//! chartjs-chart-treemap 4.2.2, chartjs-chart-sankey 0.19.1, chartjs-chart-venn 4.3.7):
//! their defaults as data (the controllers' and elements'
//! `static defaults`/`overrides`) and their dataset options, resolved through the same scope
//! chain as the core types.
//!
//! [`crate::defaults`] consults these tables after its own. Options that the plugins accept
//! as functions (matrix `width`/`height`, treemap `labels.formatter`) cannot be JSON; the
//! numbers and strings they also accept are read, and the plugins' default functions are
//! reproduced by the engine.

use crate::color::{parse_color, Rgba};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{to_font, Font};
use serde_json::{json, Map, Value};
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

/// `DendrogramController.overrides`: hidden linear scales over -1..1 and a 10px padding.
fn graph_overrides() -> Value {
    let axis = json!({
        "type": "linear",
        "display": false,
        "min": -1,
        "max": 1,
        "ticks": {"maxTicksLimit": 2, "precision": 100, "minRotation": 0, "maxRotation": 0}
    });
    json!({
        "interaction": {"mode": "point"},
        "layout": {"padding": 10},
        "scales": {"x": axis, "y": axis}
    })
}

/// `Chart.defaults.datasets[type]`: each plugin controller's `static defaults`.
static DATASETS: LazyLock<Value> = LazyLock::new(|| {
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
        "venn": {"dataElementType": "arcSlice"},
        "euler": {"dataElementType": "arcSlice"}
    })
});

/// `Chart.defaults.elements[type]`: each plugin element's `static defaults`.
static ELEMENTS: LazyLock<Value> = LazyLock::new(|| {
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
static OVERRIDES: LazyLock<Value> = LazyLock::new(|| {
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

/// Adds the plugin types to one of [`crate::defaults`]'s tables (`"global"` or
/// `"overrides"`) when it is built; existing keys are kept.
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
            add(v.get_mut("elements"), &ELEMENTS);
        }
        "overrides" => add(Some(&mut v), &OVERRIDES),
        _ => {}
    }
    v
}

/// The element type whose `elements.<type>` scope a plugin dataset reads.
pub fn element_type(kind: &str) -> &'static str {
    match kind {
        "matrix" => "matrix",
        "treemap" => "treemap",
        "sankey" => "flow",
        "venn" | "euler" => "arcSlice",
        "tree" | "dendrogram" | "dendogram" => "edgeLine",
        _ => "point",
    }
}

/// Resolved options of a plugin chart type's dataset.
#[derive(Debug, Clone, PartialEq)]
pub enum PluginDataset {
    /// chartjs-chart-matrix.
    Matrix(MatrixOptions),
    /// chartjs-chart-treemap.
    Treemap(Box<TreemapOptions>),
    /// chartjs-chart-sankey.
    Sankey(Box<SankeyOptions>),
    /// chartjs-chart-venn (`venn` and `euler`).
    Venn(VennOptions),
    /// chartjs-chart-graph's tree layouts (`tree`, `dendrogram`).
    Graph(Box<GraphOptions>),
}

/// chartjs-chart-graph tree and dendrogram options, with the edges and their style.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOptions {
    /// `tree.mode`: `'tree'` (d3 `tree()`) or `'dendrogram'` (d3 `cluster()`).
    pub tidy_tree: bool,
    /// `tree.orientation`: `horizontal`, `vertical` or `radial`. Default: `'horizontal'`.
    pub orientation: String,
    /// Edges (source, target): from `edges` or from each node's `parent`.
    pub edges: Vec<(NodeRef, NodeRef)>,
    /// Edges derived from `parent` (the root is then the first node without one).
    pub derived_edges: bool,
    /// Edge `borderColor`. Default: `Chart.defaults.borderColor`.
    pub edge_color: Rgba,
    /// Edge `borderWidth`. Default: 3.
    pub edge_width: f64,
    /// Edge `tension`. Default: 0.4 (the controller's).
    pub tension: f64,
    /// Edge `borderDash`. Default: none.
    pub edge_dash: Vec<f64>,
    /// Edge `directed`: an arrow head at the target. Default: false.
    pub directed: bool,
    /// `arrowHeadSize`. Default: 15.
    pub arrow_size: f64,
    /// `arrowHeadOffset`. Default: 5.
    pub arrow_offset: f64,
}

/// One region of a venn diagram (`ArcSlice` options at an index) and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct VennSlice {
    /// `value` of the data entry (`NaN` when missing).
    pub value: f64,
    /// `backgroundColor`. Default: `'#efefef'`.
    pub background_color: Option<Rgba>,
    /// `borderColor`. Default: `Chart.defaults.borderColor`.
    pub border_color: Option<Rgba>,
    /// `borderWidth`. Default: 0 (which a canvas ignores, keeping 1).
    pub border_width: f64,
}

/// chartjs-chart-venn dataset options: one slice per data entry.
#[derive(Debug, Clone, PartialEq)]
pub struct VennOptions {
    /// Per data index.
    pub slices: Vec<VennSlice>,
}

/// One flow of a sankey chart, with its element options.
#[derive(Debug, Clone, PartialEq)]
pub struct SankeyFlow {
    /// `from` node key (`String(from)`).
    pub from: String,
    /// `to` node key.
    pub to: String,
    /// `flow` amount.
    pub flow: f64,
    /// `colorFrom`. Default: `'red'`.
    pub color_from: Rgba,
    /// `colorTo`. Default: `'green'`.
    pub color_to: Rgba,
    /// `colorMode`: `gradient`, `from` or `to`. Default: `'gradient'`.
    pub color_mode: String,
    /// `alpha` applied to the flow colours. Default: 0.5.
    pub alpha: f64,
    /// `flowColor`: one colour for the flow. Default: null.
    pub flow_color: Option<Rgba>,
    /// `flowLabels.display`. Default: false.
    pub label_display: bool,
    /// `flowLabels.color`. Default: black.
    pub label_color: Rgba,
    /// `flowLabels.padding`. Default: 4.
    pub label_padding: f64,
    /// `flowLabels.position`. Default: `'center'`.
    pub label_position: String,
    /// `flowLabels.backgroundColor`. Default: none.
    pub label_background: Option<Rgba>,
    /// `flowLabels.borderRadius`. Default: 0.
    pub label_border_radius: f64,
    /// `flowLabels.font`. Default: `Chart.defaults.font`.
    pub label_font: Font,
}

/// chartjs-chart-sankey dataset options. Node options given per node key (objects keyed by
/// node) stay JSON and are looked up by key when drawing (`resolveNodeOption`).
#[derive(Debug, Clone, PartialEq)]
pub struct SankeyOptions {
    /// The flows, in data order (entries without from/to are left out).
    pub flows: Vec<SankeyFlow>,
    /// `size`: `'max'` or `'min'`. Default: `'max'`.
    pub size_min: bool,
    /// `priority`: node key → order in its column.
    pub priority: Option<Map<String, Value>>,
    /// `column`: node key → column.
    pub column: Option<Map<String, Value>>,
    /// `nodePadding`: a number, or per node key. Default: 10.
    pub node_padding: Value,
    /// `nodePaddingMode`: `auto` or `even`. Default: `'auto'`.
    pub node_padding_mode: String,
    /// `nodeMinSize`: a number, or per node key. Default: 0.
    pub node_min_size: Value,
    /// `nodeWidth`. Default: 10.
    pub node_width: f64,
    /// `modeX`: `edge` or `even`. Default: `'edge'`.
    pub mode_x: String,
    /// `orientation`: `horizontal` or `vertical`. Default: `'horizontal'`.
    pub vertical: bool,
    /// `borderColor` of nodes. Default: `'black'`.
    pub border_color: Option<Rgba>,
    /// `borderWidth` of nodes. Default: 1.
    pub border_width: f64,
    /// `color`: node label colour. Default: `'black'`.
    pub color: Rgba,
    /// `labels`: node key → label text.
    pub labels: Option<Map<String, Value>>,
    /// `nodeLabels` (per-key objects allowed for colours, display and position).
    pub node_labels: Map<String, Value>,
    /// `nodeLabels.font`, else `font`, else the chart font.
    pub font: Font,
    /// `padding`: the line offset of multi-line labels. Default: half the line height.
    pub padding: Option<f64>,
}

/// Four sides or corners (`toTRBL`/`toTRBLCorners`), in the order top, right, bottom, left
/// (corners: top-left, top-right, bottom-left, bottom-right).
pub type Four = [f64; 4];

/// One matrix rectangle's options (`MatrixElement` options resolved at an index).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixRect {
    /// `width`. Default: 20 (functions are not expressible in JSON).
    pub width: f64,
    /// `height`. Default: 20.
    pub height: f64,
    /// `anchorX`: `'left'|'start'`, `'right'|'end'` or centre. Default: `'center'`.
    pub anchor_x: String,
    /// `anchorY`: `'top'|'start'`, `'bottom'|'end'` or centre. Default: `'center'`.
    pub anchor_y: String,
    /// `backgroundColor`. Default: `Chart.defaults.backgroundColor` (`rgba(0,0,0,0.1)`).
    pub background_color: Rgba,
    /// `borderColor`. Default: `Chart.defaults.borderColor` (`rgba(0,0,0,0.1)`).
    pub border_color: Rgba,
    /// `borderWidth` per side (t, r, b, l). Default: undefined (0).
    pub border_width: Four,
    /// `borderRadius` per corner (tl, tr, bl, br). Default: 0.
    pub border_radius: Four,
}

/// chartjs-chart-matrix dataset options: one entry per data index.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixOptions {
    /// Per data index.
    pub rects: Vec<MatrixRect>,
}

/// Treemap caption or label text options.
#[derive(Debug, Clone, PartialEq)]
pub struct TreemapText {
    /// `display`. Default: captions true, labels false.
    pub display: bool,
    /// `color` (labels accept one per line). Default: `'black'`.
    pub colors: Vec<Rgba>,
    /// `font` (labels accept one per line). Default: `Chart.defaults.font`.
    pub fonts: Vec<Font>,
    /// `padding`. Default: 3.
    pub padding: f64,
    /// `align`: `left`, `center` or `right`. Default: labels `'center'`, captions left.
    pub align: Option<String>,
    /// `position` (labels): `top`, `middle` or `bottom`. Default: `'middle'`.
    pub position: String,
    /// `overflow` (labels): `cut`, `hidden` or `fit`. Default: `'cut'`.
    pub overflow: String,
    /// `formatter` given as a string (a constant text).
    pub text: Option<Vec<String>>,
}

/// chartjs-chart-treemap dataset options.
#[derive(Debug, Clone, PartialEq)]
pub struct TreemapOptions {
    /// `tree` (or `data`): numbers, objects, or a nested object.
    pub tree: Value,
    /// `key`: the value key of object data. Default: undefined.
    pub key: Option<String>,
    /// `groups`: keys grouping object data, outermost first.
    pub groups: Vec<String>,
    /// `treeLeafKey`. Default: `'_leaf'`.
    pub tree_leaf_key: String,
    /// `spacing` as `buildData` reads it from the dataset. Default: 0 there, 0.5 for drawing.
    pub layout_spacing: f64,
    /// `borderWidth` as `buildData` reads it from the dataset (t, r, b, l).
    pub layout_border_width: Four,
    /// `displayMode`: `containerBoxes` or `headerBoxes`. Default: `'containerBoxes'`.
    pub display_mode: String,
    /// `rtl`. Default: false.
    pub rtl: bool,
    /// `unsorted`. Default: false.
    pub unsorted: bool,
    /// Element `spacing`. Default: 0.5.
    pub spacing: f64,
    /// Element `borderWidth` (t, r, b, l). Default: 0.
    pub border_width: Four,
    /// Element `borderRadius` (tl, tr, bl, br). Default: 0.
    pub border_radius: Four,
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `rgba(0,0,0,0.1)`.
    pub border_color: Rgba,
    /// `captions`.
    pub captions: TreemapText,
    /// `labels`.
    pub labels: TreemapText,
    /// `dividers.display`. Default: false.
    pub dividers: bool,
    /// `dividers.lineColor`. Default: black.
    pub divider_color: Rgba,
    /// `dividers.lineWidth`. Default: 1.
    pub divider_width: f64,
}

fn color_at(v: Option<&Value>, index: Option<usize>) -> Option<Rgba> {
    match (v?, index) {
        (Value::String(s), _) => parse_color(s),
        (Value::Array(a), Some(i)) if !a.is_empty() => color_at(a.get(i % a.len()), None),
        _ => None,
    }
}

fn at(v: Option<&Value>, index: Option<usize>) -> Option<&Value> {
    match (v?, index) {
        (Value::Array(a), Some(i)) if !a.is_empty() => a.get(i % a.len()),
        (v, _) => Some(v),
    }
}

/// `toTRBL` of a number or `{top, right, bottom, left}` (`x`/`y` too).
pub fn to_trbl(v: Option<&Value>) -> Four {
    match v {
        Some(Value::Object(m)) => {
            let n = |k: &str, alt: &str| {
                m.get(k)
                    .or_else(|| m.get(alt))
                    .map(to_number)
                    .filter(|n| n.is_finite())
                    .unwrap_or(0.0)
            };
            [
                n("top", "y"),
                n("right", "x"),
                n("bottom", "y"),
                n("left", "x"),
            ]
        }
        Some(v) => {
            let n = to_number(v);
            let n = if n.is_finite() { n } else { 0.0 };
            [n; 4]
        }
        None => [0.0; 4],
    }
}

/// `toTRBLCorners` of a number or `{topLeft, topRight, bottomLeft, bottomRight}`.
pub fn to_corners(v: Option<&Value>) -> Four {
    match v {
        Some(Value::Object(m)) => {
            let n = |k: &str| {
                m.get(k)
                    .map(to_number)
                    .filter(|n| n.is_finite())
                    .unwrap_or(0.0)
            };
            [
                n("topLeft"),
                n("topRight"),
                n("bottomLeft"),
                n("bottomRight"),
            ]
        }
        other => to_trbl(other),
    }
}

/// Resolves a plugin type's dataset options: `scopes` are the dataset's element scopes
/// (`dataset`, `datasets.<type>`, `elements.<element>`, defaults), `chart_font` the
/// `Chart.defaults.font` fallback of fonts.
pub fn resolve(
    kind: &str,
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
    count: usize,
) -> Option<PluginDataset> {
    let default_color = Rgba {
        r: 0,
        g: 0,
        b: 0,
        a: 26,
    };
    match kind {
        "matrix" => {
            let rects = (0..count)
                .map(|i| {
                    let num = |k: &str, d: f64| {
                        at(scopes.get(k), Some(i))
                            .filter(|v| v.is_number() || v.is_string())
                            .map(to_number)
                            .filter(|n| n.is_finite())
                            .unwrap_or(d)
                    };
                    let s = |k: &str| {
                        at(scopes.get(k), Some(i))
                            .and_then(Value::as_str)
                            .unwrap_or("center")
                            .to_string()
                    };
                    MatrixRect {
                        width: num("width", 20.0),
                        height: num("height", 20.0),
                        anchor_x: s("anchorX"),
                        anchor_y: s("anchorY"),
                        background_color: color_at(scopes.get("backgroundColor"), Some(i))
                            .unwrap_or(default_color),
                        border_color: color_at(scopes.get("borderColor"), Some(i))
                            .unwrap_or(default_color),
                        border_width: to_trbl(at(scopes.get("borderWidth"), Some(i))),
                        border_radius: to_corners(at(scopes.get("borderRadius"), Some(i))),
                    }
                })
                .collect();
            Some(PluginDataset::Matrix(MatrixOptions { rects }))
        }
        "treemap" => {
            let tree = ds
                .get("tree")
                .or_else(|| ds.get("data"))
                .cloned()
                .unwrap_or(Value::Array(Vec::new()));
            let text = |key: &str, labels: bool| {
                let s = scopes.child(key);
                let fonts = match s.get("font") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .filter_map(Value::as_object)
                        .map(|f| to_font(&Scopes::new(vec![f]), chart_font))
                        .collect(),
                    _ => vec![to_font(&s.child("font"), chart_font)],
                };
                let colors = match s.get("color") {
                    Some(Value::Array(a)) => {
                        a.iter().filter_map(|c| color_at(Some(c), None)).collect()
                    }
                    c => vec![color_at(c, None).unwrap_or(Rgba::rgb(0, 0, 0))],
                };
                let text = match s.get("formatter") {
                    Some(Value::String(t)) => Some(vec![t.clone()]),
                    Some(Value::Array(a)) => Some(
                        a.iter()
                            .map(|v| crate::model::Raw::from_json(v).to_js_string())
                            .collect(),
                    ),
                    _ => None,
                };
                TreemapText {
                    display: s.get("display").map(truthy).unwrap_or(!labels),
                    colors,
                    fonts: if fonts.is_empty() {
                        vec![to_font(&Scopes::default(), chart_font)]
                    } else {
                        fonts
                    },
                    padding: s
                        .get("padding")
                        .map(to_number)
                        .filter(|n| n.is_finite())
                        .unwrap_or(3.0),
                    align: s.get("align").and_then(Value::as_str).map(String::from),
                    position: s
                        .get("position")
                        .and_then(Value::as_str)
                        .unwrap_or("middle")
                        .to_string(),
                    overflow: s
                        .get("overflow")
                        .and_then(Value::as_str)
                        .unwrap_or("cut")
                        .to_string(),
                    text,
                }
            };
            let num = |k: &str, d: f64| {
                scopes
                    .get(k)
                    .map(to_number)
                    .filter(|n| n.is_finite())
                    .unwrap_or(d)
            };
            let dividers = scopes.child("dividers");
            Some(PluginDataset::Treemap(Box::new(TreemapOptions {
                tree,
                key: ds.get("key").and_then(Value::as_str).map(String::from),
                groups: match ds.get("groups") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|v| crate::model::Raw::from_json(v).to_js_string())
                        .collect(),
                    _ => Vec::new(),
                },
                tree_leaf_key: ds
                    .get("treeLeafKey")
                    .and_then(Value::as_str)
                    .unwrap_or("_leaf")
                    .to_string(),
                layout_spacing: ds
                    .get("spacing")
                    .map(to_number)
                    .filter(|n| n.is_finite())
                    .unwrap_or(0.0),
                layout_border_width: to_trbl(ds.get("borderWidth")),
                display_mode: scopes
                    .get("displayMode")
                    .and_then(Value::as_str)
                    .unwrap_or("containerBoxes")
                    .to_string(),
                rtl: scopes.get("rtl").is_some_and(truthy),
                unsorted: scopes.get("unsorted").is_some_and(truthy),
                spacing: num("spacing", 0.5),
                border_width: to_trbl(scopes.get("borderWidth")),
                border_radius: to_corners(scopes.get("borderRadius")),
                background_color: color_at(scopes.get("backgroundColor"), None)
                    .unwrap_or(default_color),
                border_color: color_at(scopes.get("borderColor"), None).unwrap_or(default_color),
                captions: text("captions", false),
                labels: text("labels", true),
                dividers: dividers.get("display").is_some_and(truthy),
                divider_color: color_at(dividers.get("lineColor"), None)
                    .unwrap_or(Rgba::rgb(0, 0, 0)),
                divider_width: dividers.get("lineWidth").map(to_number).unwrap_or(1.0),
            })))
        }
        "sankey" => Some(PluginDataset::Sankey(Box::new(resolve_sankey(
            ds, scopes, chart_font,
        )))),
        "venn" | "euler" => {
            let data = match ds.get("data") {
                Some(Value::Array(a)) => a.as_slice(),
                _ => &[],
            };
            let default_border = Rgba {
                r: 0,
                g: 0,
                b: 0,
                a: 26,
            };
            let slices = (0..count)
                .map(|i| VennSlice {
                    value: data
                        .get(i)
                        .and_then(|d| d.get("value"))
                        .map(to_number)
                        .unwrap_or(f64::NAN),
                    background_color: color_at(scopes.get("backgroundColor"), Some(i)),
                    border_color: color_at(scopes.get("borderColor"), Some(i))
                        .or(Some(default_border)),
                    border_width: at(scopes.get("borderWidth"), Some(i))
                        .map(to_number)
                        .filter(|n| n.is_finite())
                        .unwrap_or(0.0),
                })
                .collect();
            Some(PluginDataset::Venn(VennOptions { slices }))
        }
        "tree" | "dendrogram" | "dendogram" => {
            Some(PluginDataset::Graph(Box::new(resolve_graph(ds, scopes))))
        }
        _ => None,
    }
}

/// A node reference of an edge or a `parent`: an index, or a chart label (`resolveNodeIndex`).
#[derive(Debug, Clone, PartialEq)]
pub enum NodeRef {
    /// A node index.
    Index(usize),
    /// A chart label, looked up in `data.labels`.
    Label(String),
}

fn node_index(v: &Value) -> Option<NodeRef> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|f| *f >= 0.0)
            .map(|f| NodeRef::Index(f as usize)),
        Value::String(s) => Some(NodeRef::Label(s.clone())),
        _ => None,
    }
}

fn resolve_graph(ds: &Map<String, Value>, scopes: &Scopes<'_>) -> GraphOptions {
    let tree = scopes.child("tree");
    let data = match ds.get("data") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let (edges, derived) = match ds.get("edges") {
        Some(Value::Array(e)) => (
            e.iter()
                .filter_map(|e| {
                    Some((node_index(e.get("source")?)?, node_index(e.get("target")?)?))
                })
                .collect(),
            false,
        ),
        _ => (
            data.iter()
                .enumerate()
                .filter_map(|(i, d)| {
                    let p = d.get("parent").filter(|p| !p.is_null())?;
                    Some((node_index(p)?, NodeRef::Index(i)))
                })
                .collect(),
            true,
        ),
    };
    let num = |k: &str, d: f64| {
        scopes
            .get(k)
            .map(to_number)
            .filter(|n| n.is_finite())
            .unwrap_or(d)
    };
    GraphOptions {
        tidy_tree: tree.get("mode").and_then(Value::as_str) == Some("tree"),
        orientation: tree
            .get("orientation")
            .and_then(Value::as_str)
            .unwrap_or("horizontal")
            .to_string(),
        edges,
        derived_edges: derived,
        edge_color: color_at(scopes.get("borderColor"), Some(0)).unwrap_or(Rgba {
            r: 0,
            g: 0,
            b: 0,
            a: 26,
        }),
        edge_width: num("borderWidth", 3.0),
        tension: num("tension", 0.0),
        edge_dash: match scopes.get("borderDash") {
            Some(Value::Array(a)) => a.iter().map(to_number).collect(),
            _ => Vec::new(),
        },
        directed: scopes.get("directed").is_some_and(truthy),
        arrow_size: num("arrowHeadSize", 15.0),
        arrow_offset: num("arrowHeadOffset", 5.0),
    }
}

fn resolve_sankey(
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
) -> SankeyOptions {
    let parsing = ds.get("parsing").and_then(Value::as_object);
    let pkey = |k: &'static str| -> String {
        parsing
            .and_then(|p| p.get(k))
            .and_then(Value::as_str)
            .unwrap_or(k)
            .to_string()
    };
    let (fk, tk, vk) = (pkey("from"), pkey("to"), pkey("flow"));
    let num = |k: &str, d: f64| {
        scopes
            .get(k)
            .filter(|v| !v.is_null())
            .map(to_number)
            .filter(|n| n.is_finite())
            .unwrap_or(d)
    };
    let st = |k: &str, d: &str| {
        scopes
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or(d)
            .to_string()
    };
    let labels_child = scopes.child("flowLabels");
    let data = match ds.get("data") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let mut flows = Vec::new();
    for (i, d) in data.iter().enumerate() {
        let Some(o) = d.as_object() else { continue };
        let (Some(f), Some(t)) = (o.get(&fk), o.get(&tk)) else {
            continue;
        };
        let idx = Some(i);
        let lfont = match labels_child.get("font") {
            Some(Value::Object(f)) => to_font(&Scopes::new(vec![f]), chart_font),
            _ => to_font(&Scopes::default(), chart_font),
        };
        flows.push(SankeyFlow {
            from: crate::model::Raw::from_json(f).to_js_string(),
            to: crate::model::Raw::from_json(t).to_js_string(),
            flow: o.get(&vk).map(to_number).unwrap_or(f64::NAN),
            color_from: color_at(scopes.get("colorFrom"), idx).unwrap_or(Rgba::rgb(255, 0, 0)),
            color_to: color_at(scopes.get("colorTo"), idx).unwrap_or(Rgba::rgb(0, 128, 0)),
            color_mode: at(scopes.get("colorMode"), idx)
                .and_then(Value::as_str)
                .unwrap_or("gradient")
                .to_string(),
            alpha: at(scopes.get("alpha"), idx)
                .map(to_number)
                .filter(|n| n.is_finite())
                .unwrap_or(0.5),
            flow_color: color_at(scopes.get("flowColor"), idx),
            label_display: labels_child.get("display").is_some_and(truthy),
            label_color: color_at(labels_child.get("color"), idx).unwrap_or(Rgba::rgb(0, 0, 0)),
            label_padding: labels_child.get("padding").map(to_number).unwrap_or(4.0),
            label_position: labels_child
                .get("position")
                .and_then(Value::as_str)
                .unwrap_or("center")
                .to_string(),
            label_background: color_at(labels_child.get("backgroundColor"), idx),
            label_border_radius: labels_child
                .get("borderRadius")
                .map(to_number)
                .unwrap_or(0.0),
            label_font: lfont,
        });
    }
    let node_labels = scopes
        .get("nodeLabels")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let font = match node_labels.get("font").or_else(|| ds.get("font")) {
        Some(Value::Object(f)) => to_font(&Scopes::new(vec![f]), chart_font),
        _ => to_font(&Scopes::default(), chart_font),
    };
    SankeyOptions {
        flows,
        size_min: ds.get("size").and_then(Value::as_str) == Some("min"),
        priority: ds.get("priority").and_then(Value::as_object).cloned(),
        column: ds.get("column").and_then(Value::as_object).cloned(),
        node_padding: scopes.get("nodePadding").cloned().unwrap_or(json!(10)),
        node_padding_mode: st("nodePaddingMode", "auto"),
        node_min_size: scopes.get("nodeMinSize").cloned().unwrap_or(json!(0)),
        node_width: num("nodeWidth", 10.0),
        mode_x: st("modeX", "edge"),
        vertical: st("orientation", "horizontal") == "vertical",
        border_color: color_at(scopes.get("borderColor"), None),
        border_width: num("borderWidth", 1.0),
        color: color_at(scopes.get("color"), None).unwrap_or(Rgba::rgb(0, 0, 0)),
        labels: ds.get("labels").and_then(Value::as_object).cloned(),
        node_labels,
        font,
        padding: ds.get("padding").map(to_number).filter(|n| n.is_finite()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_register_the_types() {
        assert!(crate::defaults::is_registered_controller("matrix"));
        assert!(crate::defaults::is_registered_controller("treemap"));
        assert_eq!(
            crate::defaults::overrides("treemap")
                .and_then(|o| o.get("scales"))
                .and_then(|s| s.get("x"))
                .and_then(|x| x.get("display")),
            Some(&json!(false))
        );
    }

    #[test]
    fn trbl_reads_numbers_and_objects() {
        assert_eq!(to_trbl(Some(&json!(2))), [2.0; 4]);
        assert_eq!(
            to_trbl(Some(&json!({"top": 1, "left": 4}))),
            [1.0, 0.0, 0.0, 4.0]
        );
        assert_eq!(
            to_corners(Some(&json!({"topRight": 3}))),
            [0.0, 3.0, 0.0, 0.0]
        );
    }
}
