//! Dataset options of the bundled plugin chart types (matrix, treemap, sankey, venn/euler and
//! chartjs-chart-graph's trees), resolved through the same scope chain as the core types from
//! the defaults in [`crate::defaults`].

use crate::color::{parse_color, Rgba};
use crate::limits::Limits;
use crate::model::{
    CenterForce, ChartKind, CollideForce, ForceSimulation, GraphOptions, LinkForce, ManyBodyForce,
    MatrixOptions, MatrixRect, NodeGap, NodeRef, PerNode, PositionForce, RadialForce, Raw,
    SankeyFlow, SankeyNodeLabels, SankeyOptions, TreemapEntry, TreemapOptions, TreemapText,
    VennOptions, VennSlice,
};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{corners_of, to_font, to_padding, Corners};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The element type whose `elements.<type>` scope a plugin dataset reads.
pub fn element_type(kind: ChartKind) -> &'static str {
    match kind {
        ChartKind::Matrix => "matrix",
        ChartKind::Treemap => "treemap",
        ChartKind::Sankey => "flow",
        ChartKind::Venn | ChartKind::Euler => "arcSlice",
        ChartKind::Choropleth => "geoFeature",
        ChartKind::WordCloud => "word",
        ChartKind::Tree
        | ChartKind::Dendrogram
        | ChartKind::Dendogram
        | ChartKind::Graph
        | ChartKind::ForceDirectedGraph => "edgeLine",
        _ => "point",
    }
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

/// `toTRBLCorners` of a number (every corner) or `{topLeft, topRight, bottomLeft,
/// bottomRight}`, by the one per-side rule of [`crate::values`].
pub fn to_corners(v: Option<&Value>) -> Corners {
    match v {
        Some(Value::Object(m)) => corners_of(m),
        other => Corners::all(to_padding(other).top),
    }
}

/// The default colour of matrix and treemap elements, `rgba(0,0,0,0.1)`.
const DEFAULT_COLOR: Rgba = Rgba {
    r: 0,
    g: 0,
    b: 0,
    a: 26,
};

// The plugin types' dataset options: `scopes` are the dataset's element scopes (`dataset`,
// `datasets.<type>`, `elements.<element>` with [`element_type`], defaults), `chart_font` the
// `Chart.defaults.font` fallback of fonts.

/// chartjs-chart-matrix: one rectangle's options per data index.
pub fn resolve_matrix(scopes: &Scopes<'_>, count: usize) -> MatrixOptions {
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
                    .unwrap_or(DEFAULT_COLOR),
                border_color: color_at(scopes.get("borderColor"), Some(i)).unwrap_or(DEFAULT_COLOR),
                border_width: to_padding(at(scopes.get("borderWidth"), Some(i))),
                border_radius: to_corners(at(scopes.get("borderRadius"), Some(i))),
            }
        })
        .collect();
    MatrixOptions { rects }
}

/// chartjs-chart-treemap: the tree built from the data, its grouping and the element options.
pub fn resolve_treemap(
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
    limits: &Limits,
) -> TreemapOptions {
    let key = ds.get("key").and_then(Value::as_str).map(String::from);
    let tree_leaf_key = ds
        .get("treeLeafKey")
        .and_then(Value::as_str)
        .unwrap_or("_leaf")
        .to_string();
    let (tree, tree_len) = treemap_tree(
        ds.get("tree").or_else(|| ds.get("data")),
        key.as_deref().unwrap_or_default(),
        &tree_leaf_key,
        limits.max_treemap_leaves,
    );
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
            Some(Value::Array(a)) => a.iter().filter_map(|c| color_at(Some(c), None)).collect(),
            c => vec![color_at(c, None).unwrap_or(Rgba::rgb(0, 0, 0))],
        };
        let text = match s.get("formatter") {
            Some(Value::String(t)) => Some(vec![t.clone()]),
            Some(Value::Array(a)) => {
                Some(a.iter().map(|v| Raw::from_json(v).to_js_string()).collect())
            }
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
    TreemapOptions {
        tree,
        tree_len,
        key,
        groups: match ds.get("groups") {
            Some(Value::Array(a)) => a.iter().map(|v| Raw::from_json(v).to_js_string()).collect(),
            _ => Vec::new(),
        },
        tree_leaf_key,
        layout_spacing: ds
            .get("spacing")
            .map(to_number)
            .filter(|n| n.is_finite())
            .unwrap_or(0.0),
        layout_border_width: to_padding(ds.get("borderWidth")),
        display_mode: scopes
            .get("displayMode")
            .and_then(Value::as_str)
            .unwrap_or("containerBoxes")
            .to_string(),
        rtl: scopes.get("rtl").is_some_and(truthy),
        unsorted: scopes.get("unsorted").is_some_and(truthy),
        spacing: num("spacing", 0.5),
        border_width: to_padding(scopes.get("borderWidth")),
        border_radius: to_corners(scopes.get("borderRadius")),
        background_color: color_at(scopes.get("backgroundColor"), None).unwrap_or(DEFAULT_COLOR),
        border_color: color_at(scopes.get("borderColor"), None).unwrap_or(DEFAULT_COLOR),
        captions: text("captions", false),
        labels: text("labels", true),
        dividers: dividers.get("display").is_some_and(truthy),
        divider_color: color_at(dividers.get("lineColor"), None).unwrap_or(Rgba::rgb(0, 0, 0)),
        divider_width: dividers.get("lineWidth").map(to_number).unwrap_or(1.0),
        divider_dash: super::lookup::num_array(dividers.get("lineDash")),
        divider_dash_offset: dividers
            .get("lineDashOffset")
            .map(to_number)
            .filter(|n| n.is_finite())
            .unwrap_or(0.0),
        divider_cap: match dividers.get("lineCapStyle").and_then(Value::as_str) {
            Some("round") => crate::model::CapStyle::Round,
            Some("square") => crate::model::CapStyle::Square,
            _ => crate::model::CapStyle::Butt,
        },
    }
}

/// chartjs-chart-venn (`venn` and `euler`): one slice per data entry.
pub fn resolve_venn(ds: &Map<String, Value>, scopes: &Scopes<'_>, count: usize) -> VennOptions {
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
            sets: match data.get(i).and_then(|d| d.get("sets")) {
                Some(Value::Array(a)) => a
                    .iter()
                    .take(64)
                    .map(|v| Raw::from_json(v).to_js_string())
                    .collect(),
                _ => Vec::new(),
            },
            background_color: color_at(scopes.get("backgroundColor"), Some(i)),
            border_color: color_at(scopes.get("borderColor"), Some(i)).or(Some(default_border)),
            border_width: at(scopes.get("borderWidth"), Some(i))
                .map(to_number)
                .filter(|n| n.is_finite())
                .unwrap_or(0.0),
        })
        .collect();
    VennOptions { slices }
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

pub fn resolve_graph(
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    kind: ChartKind,
) -> GraphOptions {
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
        simulation: (kind == ChartKind::ForceDirectedGraph)
            .then(|| Box::new(resolve_simulation(&scopes.child("simulation")))),
    }
}

/// `simulation` of `ForceDirectedGraphController`: each force is on when its option is truthy,
/// and an object's keys call d3's setters of the same name over d3's defaults.
fn resolve_simulation(sim: &Scopes<'_>) -> ForceSimulation {
    let forces = sim.child("forces");
    // A force's options: `None` when off, else the object (empty for `true`).
    let force = |key: &str| -> Option<Scopes<'_>> {
        let v = forces.get(key)?;
        truthy(v).then(|| match v {
            Value::Object(_) => forces.child(key),
            _ => Scopes::default(),
        })
    };
    let num = |s: &Scopes<'_>, k: &str, d: f64| s.get(k).map(to_number).unwrap_or(d);
    ForceSimulation {
        initial_iterations: sim.get("initialIterations").map(to_number).unwrap_or(0.0),
        auto_restart: sim.get("autoRestart").is_none_or(truthy),
        center: force("center").map(|s| CenterForce {
            x: num(&s, "x", 0.0),
            y: num(&s, "y", 0.0),
            strength: num(&s, "strength", 1.0),
        }),
        collide: force("collide").map(|s| CollideForce {
            radius: num(&s, "radius", 1.0),
            strength: num(&s, "strength", 1.0),
            iterations: num(&s, "iterations", 1.0),
        }),
        link: force("link").map(|s| LinkForce {
            distance: num(&s, "distance", 30.0),
            strength: s.get("strength").map(to_number),
            iterations: num(&s, "iterations", 1.0),
        }),
        many_body: force("manyBody").map(|s| ManyBodyForce {
            strength: num(&s, "strength", -30.0),
            theta: num(&s, "theta", 0.9),
            distance_min: num(&s, "distanceMin", 1.0),
            distance_max: num(&s, "distanceMax", f64::INFINITY),
        }),
        x: force("x").map(|s| PositionForce {
            position: num(&s, "x", 0.0),
            strength: num(&s, "strength", 0.1),
        }),
        y: force("y").map(|s| PositionForce {
            position: num(&s, "y", 0.0),
            strength: num(&s, "strength", 0.1),
        }),
        radial: force("radial").map(|s| RadialForce {
            radius: num(&s, "radius", f64::NAN),
            x: num(&s, "x", 0.0),
            y: num(&s, "y", 0.0),
            strength: num(&s, "strength", 0.1),
        }),
    }
}

pub fn resolve_sankey(
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
) -> SankeyOptions {
    // `getParsedData(data, this.options.parsing)`: each key resolved through the dataset's
    // scopes, so `options.parsing` and `options.datasets.sankey.parsing` rename them too.
    let parsing = scopes.child("parsing");
    let pkey = |k: &'static str| -> String {
        parsing
            .get(k)
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
            from: Raw::from_json(f).to_js_string(),
            to: Raw::from_json(t).to_js_string(),
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
    let empty = Map::new();
    let node_labels = scopes
        .get("nodeLabels")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let font = match node_labels.get("font").or_else(|| ds.get("font")) {
        Some(Value::Object(f)) => to_font(&Scopes::new(vec![f]), chart_font),
        _ => to_font(&Scopes::default(), chart_font),
    };
    SankeyOptions {
        flows,
        size_min: ds.get("size").and_then(Value::as_str) == Some("min"),
        priority: by_key(ds.get("priority")),
        column: by_key(ds.get("column")),
        node_padding: match scopes.get("nodePadding") {
            Some(Value::Object(m)) => {
                PerNode::ByKey(m.iter().map(|(k, v)| (k.clone(), node_gap(v))).collect())
            }
            Some(v) => PerNode::All(node_gap(v)),
            None => PerNode::All(NodeGap::Both(10.0)),
        },
        node_padding_mode: st("nodePaddingMode", "auto"),
        node_min_size: per_node(
            Some(scopes.get("nodeMinSize").unwrap_or(&json!(0))),
            to_number,
        ),
        node_width: num("nodeWidth", 10.0),
        mode_x: st("modeX", "edge"),
        vertical: st("orientation", "horizontal") == "vertical",
        border_color: color_at(scopes.get("borderColor"), None),
        border_width: num("borderWidth", 1.0),
        color: color_at(scopes.get("color"), None).unwrap_or(Rgba::rgb(0, 0, 0)),
        labels: ds.get("labels").and_then(Value::as_object).map(|m| {
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), text_lines(v)))
                .collect()
        }),
        node_labels: SankeyNodeLabels {
            display: per_node(node_labels.get("display"), truthy),
            color: per_node(node_labels.get("color"), |v| {
                v.as_str().and_then(parse_color)
            }),
            background_color: per_node(node_labels.get("backgroundColor"), |v| {
                v.as_str().and_then(parse_color)
            }),
            position: per_node(node_labels.get("position"), |v| {
                v.as_str().map(String::from)
            }),
            padding: node_labels.get("padding").map(to_number),
            border_radius: node_labels.get("borderRadius").map(to_number),
        },
        font,
        padding: ds.get("padding").map(to_number).filter(|n| n.is_finite()),
    }
}

/// `resolveNodeOption` of a sankey option, each value read with `read`: an object maps node
/// keys to values, `null` is unset.
fn per_node<T>(v: Option<&Value>, read: impl Fn(&Value) -> T) -> PerNode<T> {
    match v {
        None | Some(Value::Null) => PerNode::Unset,
        Some(Value::Object(m)) => {
            PerNode::ByKey(m.iter().map(|(k, v)| (k.clone(), read(v))).collect())
        }
        Some(v) => PerNode::All(read(v)),
    }
}

/// `priority` and `column`: node key → `+value`, when an object.
fn by_key(v: Option<&Value>) -> Option<BTreeMap<String, f64>> {
    let m = v?.as_object()?;
    Some(m.iter().map(|(k, v)| (k.clone(), to_number(v))).collect())
}

/// One node's `nodePadding` (`resolveNodeGap`): a number, or `{before, after}`.
fn node_gap(v: &Value) -> NodeGap {
    match v {
        Value::Object(g) => NodeGap::Sides {
            before: g.get("before").map(to_number),
            after: g.get("after").map(to_number),
        },
        Value::Number(_) => NodeGap::Both(to_number(v)),
        _ => NodeGap::Default,
    }
}

/// `toTextLines`: nested arrays flattened with a stack, as the plugin does (no recursion on
/// the label's depth).
fn text_lines(v: &Value) -> Vec<String> {
    if !truthy(v) {
        return Vec::new();
    }
    let mut lines = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => lines.extend(s.split('\n').map(String::from)),
            // Pushed in reverse so that they come off in order.
            Value::Array(a) => stack.extend(a.iter().rev()),
            v if truthy(v) => lines.push(Raw::from_json(v).to_js_string()),
            _ => {}
        }
    }
    lines
}

/// A treemap's `tree` as the entries `buildData` lays out, and the length of `tree` when it is
/// an array: an array's first `max_leaves` entries, a nested object flattened by
/// `normalizeTreeToArray` into at most `max_leaves` records, anything else nothing.
fn treemap_tree(
    tree: Option<&Value>,
    key: &str,
    leaf_key: &str,
    max_leaves: usize,
) -> (Vec<TreemapEntry>, usize) {
    let entry = |v: &Value| match v {
        Value::Object(o) => TreemapEntry::Object {
            value: o.get(key).map(to_number).unwrap_or(f64::NAN),
            label: o.get("label").and_then(Value::as_str).map(String::from),
            fields: o
                .iter()
                .map(|(k, v)| (k.clone(), Raw::from_json(v)))
                .collect(),
        },
        v => TreemapEntry::Value(to_number(v)),
    };
    match tree {
        Some(Value::Array(a)) => (a.iter().take(max_leaves).map(entry).collect(), a.len()),
        Some(Value::Object(m)) => (
            normalize_tree(key, leaf_key, m, max_leaves)
                .iter()
                .map(entry)
                .collect(),
            0,
        ),
        _ => (Vec::new(), 0),
    }
}

/// `normalizeTreeToArray`: a nested object tree becomes flat records, one per object
/// holding `key`, with the path as group keys `"0"`, `"1"`, … and the leaf name under the
/// leaf key. A pre-order walk with an explicit stack (no recursion on the tree's depth), at
/// most `max_records` records.
fn normalize_tree(
    key: &str,
    leaf_key: &str,
    obj: &Map<String, Value>,
    max_records: usize,
) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    let mut path: Vec<&str> = Vec::new();
    // (depth of the object, its name, the object); pushed in reverse to pop in order.
    let mut stack: Vec<(usize, &str, &Map<String, Value>)> = obj
        .iter()
        .rev()
        .filter_map(|(k, c)| Some((1, k.as_str(), c.as_object()?)))
        .collect();
    while let Some((depth, name, obj)) = stack.pop() {
        if out.len() >= max_records {
            break;
        }
        path.truncate(depth - 1);
        path.push(name);
        if obj.contains_key(key) {
            let mut rec = Map::new();
            for (i, p) in path[..path.len() - 1].iter().enumerate() {
                rec.insert(i.to_string(), Value::String((*p).to_string()));
            }
            rec.insert(leaf_key.to_string(), Value::String(name.to_string()));
            rec.insert(
                key.to_string(),
                obj.get(key).cloned().unwrap_or(Value::Null),
            );
            out.push(rec);
            continue;
        }
        stack.extend(
            obj.iter()
                .rev()
                .filter_map(|(k, c)| Some((depth + 1, k.as_str(), c.as_object()?))),
        );
    }
    let max = out
        .iter()
        .map(|r| r.len().saturating_sub(2))
        .max()
        .unwrap_or(0);
    out.into_iter()
        .map(|mut r| {
            for i in 0..max {
                let k = i.to_string();
                let empty = r.get(&k).and_then(Value::as_str).is_none_or(str::is_empty);
                if empty {
                    r.insert(k, Value::String(String::new()));
                }
            }
            Value::Object(r)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `this.options.parsing` resolves through the dataset's scopes: keys renamed in the
    /// chart's `options.parsing` apply, the dataset's own win, the rest stay default.
    #[test]
    fn sankey_parsing_keys_come_from_the_option_scopes() {
        let ds = json!({"parsing": {"flow": "v"}, "data": [
            {"source": "a", "to": "b", "v": 3, "flow": 9}]});
        let opts = json!({"parsing": {"from": "source", "flow": "value"}});
        let (Value::Object(ds), Value::Object(opts)) = (ds, opts) else {
            unreachable!()
        };
        let s = resolve_sankey(&ds, &Scopes::new(vec![&ds, &opts]), &Scopes::default());
        assert_eq!(s.flows.len(), 1);
        let f = &s.flows[0];
        assert_eq!((f.from.as_str(), f.to.as_str(), f.flow), ("a", "b", 3.0));
    }

    #[test]
    fn sankey_node_options_are_typed_per_node_key() {
        // resolveNodeOption: an object maps node keys, null is unset, anything else is for all.
        let by_key = per_node(Some(&json!({"a": 0, "b": "x"})), truthy);
        assert_eq!(
            (by_key.get("a"), by_key.get("b"), by_key.get("c")),
            (Some(&false), Some(&true), None)
        );
        assert_eq!(per_node(Some(&Value::Null), truthy), PerNode::Unset);
        assert_eq!(
            per_node(Some(&json!("5")), to_number).get("any"),
            Some(&5.0)
        );
        // resolveNodeGap: {before, after} only per node key; a string is the default gap.
        assert_eq!(
            node_gap(&json!({"before": "3"})),
            NodeGap::Sides {
                before: Some(3.0),
                after: None
            }
        );
        assert_eq!(node_gap(&json!(7)), NodeGap::Both(7.0));
        assert_eq!(node_gap(&json!("7")), NodeGap::Default);
        // toTextLines: nested arrays in order, strings split at newlines, falsy entries out.
        assert_eq!(
            text_lines(&json!(["a\nb", ["c", 0, 1]])),
            vec!["a", "b", "c", "1"]
        );
        assert!(text_lines(&json!("")).is_empty());
    }

    #[test]
    fn treemap_tree_is_typed_within_the_leaf_budget() {
        // A nested object is flattened in pre-order: the path as "0", …, the leaf name under
        // the leaf key, at most `max_leaves` records.
        let nested = json!({"a": {"x": {"v": 1}, "y": {"v": "2"}}, "b": {"v": 3}});
        let (entries, len) = treemap_tree(Some(&nested), "v", "_leaf", 2);
        assert_eq!((entries.len(), len), (2, 0));
        let TreemapEntry::Object { value, fields, .. } = &entries[1] else {
            panic!("{entries:?}")
        };
        assert_eq!(*value, 2.0);
        assert_eq!(fields.get("0"), Some(&Raw::Str("a".into())));
        assert_eq!(fields.get("_leaf"), Some(&Raw::Str("y".into())));
        // An array keeps its length for the message, and its first `max_leaves` entries.
        let list = json!([1, "2", {"v": 3, "label": "c"}]);
        let (entries, len) = treemap_tree(Some(&list), "v", "_leaf", 3);
        assert_eq!(len, 3);
        assert_eq!(entries[1], TreemapEntry::Value(2.0));
        let TreemapEntry::Object { value, label, .. } = &entries[2] else {
            panic!("{entries:?}")
        };
        assert_eq!((*value, label.as_deref()), (3.0, Some("c")));
        assert_eq!(treemap_tree(Some(&list), "v", "_leaf", 1).0.len(), 1);
    }

    /// `drawDivider` sets `lineDash`, `lineDashOffset` and `lineCapStyle` from `dividers`.
    #[test]
    fn treemap_dividers_keep_their_dash() {
        let ds = json!({"tree": [1, 2], "dividers": {"display": true, "lineDash": [3, 5],
            "lineDashOffset": -2, "lineCapStyle": "round"}});
        let Value::Object(ds) = ds else {
            unreachable!()
        };
        let t = resolve_treemap(
            &ds,
            &Scopes::new(vec![&ds]),
            &Scopes::default(),
            &Limits::default(),
        );
        assert!(t.dividers);
        assert_eq!(t.divider_dash, vec![3.0, 5.0]);
        assert_eq!(t.divider_dash_offset, -2.0);
        assert_eq!(t.divider_cap, crate::model::CapStyle::Round);
    }

    #[test]
    fn tables_register_the_types() {
        assert_eq!(
            crate::defaults::overrides(ChartKind::Treemap)
                .and_then(|o| o.get("scales"))
                .and_then(|s| s.get("x"))
                .and_then(|x| x.get("display")),
            Some(&json!(false))
        );
    }

    #[test]
    fn sides_and_corners_read_numbers_and_objects() {
        assert_eq!(to_padding(Some(&json!(2))).to_array(), [2.0; 4]);
        assert_eq!(
            to_padding(Some(&json!({"top": 1, "left": 4}))).to_array(),
            [1.0, 0.0, 0.0, 4.0]
        );
        assert_eq!(
            to_corners(Some(&json!({"topRight": 3}))).to_array(),
            [0.0, 3.0, 0.0, 0.0]
        );
    }
}
