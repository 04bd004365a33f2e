//! Hostile input to the plugin chart types (sankey, treemap, tree, venn, matrix) and the
//! annotation and datalabels plugins: every case renders within a bounded amount of work and
//! returns an image or a designed error, never a panic, an abort or a hang.

use chart_raster_skia::{Engine, Error, Settings};
use chart_spec::{Cancel, Rendered, Rgba};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn settings() -> Settings {
    Settings {
        width: 300.0,
        height: 200.0,
        device_pixel_ratio: 1.0,
        background: Rgba::WHITE,
    }
}

fn render_with(cfg: &Value, cancel: &Cancel) -> Result<Rendered, Error> {
    Engine::new().render_chart_with(cfg.as_object().expect("object"), &settings(), cancel)
}

/// Renders `cfg` and checks the image's size.
fn renders(cfg: &Value) -> Rendered {
    let out = render_with(cfg, &Cancel::new()).expect("an image");
    assert_eq!((out.bitmap.width, out.bitmap.height), (300, 200));
    out
}

/// An image, or the designed error for a chart past a budget.
fn renders_or_limit(cfg: &Value) {
    match render_with(cfg, &Cancel::new()) {
        Ok(out) => assert_eq!((out.bitmap.width, out.bitmap.height), (300, 200)),
        Err(Error::Limit { what, .. }) => assert!(!what.is_empty()),
        Err(e) => panic!("unexpected error: {e}"),
    }
}

/// Builds the display list of `cfg` (layout and scene, the stages that walk the input; the
/// rasteriser's cost per item is the same for any chart) and returns its item count.
fn scene_items(cfg: &Value) -> usize {
    scene_and_messages(cfg).0
}

/// [`scene_items`] and the messages' texts.
fn scene_and_messages(cfg: &Value) -> (usize, Vec<String>) {
    let (scene, msgs) = Engine::new().scene(cfg.as_object().expect("object"), &settings());
    (
        scene.items.len(),
        msgs.into_iter().map(|m| m.message).collect(),
    )
}

/// Runs `f` on a thread with a 256 KiB stack: a walk that recursed on the input's depth
/// would overflow it (and abort the test binary).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic")
}

fn sankey(flows: Vec<Value>) -> Value {
    json!({"type": "sankey", "data": {"datasets": [{"data": flows}]},
           "options": {"animation": false}})
}

fn chain(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"from": format!("n{i}"), "to": format!("n{}", i + 1), "flow": 1}))
        .collect()
}

#[test]
fn a_sankey_chain_of_20000_nodes_does_not_recurse() {
    let start = Instant::now();
    // The chain is cut at the node budget (10,000 nodes): a node, its border, its label and a
    // flow's stroke and fill per node, and nothing recursed on the way.
    let (items, msgs) = on_small_stack(|| scene_and_messages(&sankey(chain(20_000))));
    assert!(items >= 40_000, "{items}");
    assert!(
        msgs.iter()
            .any(|m| m.contains("first 10000 nodes") && m.contains("MAX_SANKEY_NODES")),
        "{msgs:?}"
    );
    // Quadratic work on 10,000 columns would take minutes in a debug build.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // A whole render on the small stack too.
    on_small_stack(|| renders_or_limit(&sankey(chain(2_000))));
}

#[test]
fn a_sankey_layout_of_a_long_chain_is_near_linear() {
    // The layout alone, on a small stack: 9,000 columns, each node below the previous.
    on_small_stack(|| {
        let cfg = sankey(chain(9_000));
        let (chart, _) = chart_spec::resolve_chart(cfg.as_object().expect("object")).expect("ok");
        let chart_spec::model::DatasetKind::Sankey(o, _) = chart.datasets[0].kind.clone() else {
            panic!("a sankey dataset");
        };
        let start = Instant::now();
        let l = chart_raster_skia::internals::sankey_layout(&o, 200.0);
        assert_eq!(l.nodes.len(), 9_001);
        assert_eq!(l.max_x, 9_000.0);
        assert!(!l.truncated);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
    });
}

#[test]
fn sankey_nodes_past_the_budget_are_left_out() {
    let cfg = sankey(chain(20_000));
    let (chart, _) = chart_spec::resolve_chart(cfg.as_object().expect("object")).expect("ok");
    let chart_spec::model::DatasetKind::Sankey(o, _) = chart.datasets[0].kind.clone() else {
        panic!("a sankey dataset");
    };
    let l = chart_raster_skia::internals::sankey_layout(&o, 200.0);
    assert_eq!(
        l.nodes.len(),
        chart_spec::Limits::default().max_sankey_nodes
    );
    assert!(l.truncated);
}

#[test]
fn the_engine_limits_cut_a_sankey() {
    // The controllers keep to the engine's budgets, not the defaults: a 200-node chain under
    // a 50-node budget draws exactly what a 50-node chain draws, and says which limit cut it.
    let limits = chart_spec::Limits {
        max_sankey_nodes: 50,
        ..chart_spec::Limits::default()
    };
    let small = Engine::new().with_limits(limits);
    let (cut, messages) = small.scene(sankey(chain(200)).as_object().expect("object"), &settings());
    let text: Vec<&str> = messages.iter().map(|m| m.message.as_str()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("only the first 50 nodes") && t.contains("MAX_SANKEY_NODES")),
        "{text:?}"
    );
    // 50 nodes take the first 49 flows.
    let (whole, _) =
        Engine::new().scene(sankey(chain(49)).as_object().expect("object"), &settings());
    assert_eq!(cut.items.len(), whole.items.len());
    assert!(cut.items.len() > 49 * 2, "{}", cut.items.len());
}

#[test]
fn sankey_cycles_end() {
    // A ring, a self-loop, a ring reached from a source, and two nodes pointing at each other.
    let flows = vec![
        json!({"from": "a", "to": "b", "flow": 3}),
        json!({"from": "b", "to": "c", "flow": 2}),
        json!({"from": "c", "to": "a", "flow": 1}),
        json!({"from": "s", "to": "s", "flow": 4}),
        json!({"from": "src", "to": "r1", "flow": 5}),
        json!({"from": "r1", "to": "r2", "flow": 5}),
        json!({"from": "r2", "to": "r1", "flow": 2}),
        json!({"from": "p", "to": "q", "flow": 1}),
        json!({"from": "q", "to": "p", "flow": 1}),
    ];
    on_small_stack(move || {
        renders(&sankey(flows));
    });
    // A big ring: every column but the first is placed by breaking the cycle.
    let mut ring = chain(1_000);
    ring.push(json!({"from": "n1000", "to": "n0", "flow": 1}));
    on_small_stack(move || {
        renders(&sankey(ring));
    });
}

#[test]
fn sankey_absurd_numbers_are_clamped() {
    let flows = vec![
        json!({"from": "a", "to": "b", "flow": 1e308}),
        json!({"from": "a", "to": "c", "flow": -1e308}),
        json!({"from": "b", "to": "d", "flow": "NaN"}),
        json!({"from": "c", "to": "d", "flow": "1e999"}),
        json!({"from": "d", "to": "e", "flow": 1e9}),
        json!({"from": "e", "to": "f", "flow": -5}),
    ];
    for opts in [
        json!({}),
        json!({"nodePadding": 1e308, "nodeWidth": 1e9, "borderWidth": 1e308}),
        json!({"nodePadding": -1e308, "nodeWidth": -1e308, "borderWidth": "NaN",
               "nodeMinSize": 1e308, "nodeLabels": {"padding": 1e308, "borderRadius": 1e308,
               "backgroundColor": "red"}}),
        json!({"column": {"a": 1e9, "f": -1e308, "c": "x"}, "priority": {"a": "NaN", "b": 1e308}}),
        json!({"column": {"d": 1e308}, "nodePaddingMode": "even", "size": "min",
               "flowLabels": {"display": true, "padding": 1e308, "borderRadius": -1e308}}),
    ] {
        let mut cfg = sankey(flows.clone());
        let ds = cfg["data"]["datasets"][0].as_object_mut().expect("dataset");
        for (k, v) in opts.as_object().expect("object") {
            ds.insert(k.clone(), v.clone());
        }
        let start = Instant::now();
        renders(&cfg);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{opts}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_dense_sankey_is_not_quadratic() {
    // Every node of a column flows into every node of the next: 60 columns of 40 nodes,
    // 94,000 flows cut to the flow budget; the node counts of `flowByNodeCount` and the
    // cross-column paddings are where the plugin's loops multiply.
    let mut flows = Vec::new();
    for c in 0..60 {
        for a in 0..40 {
            for b in 0..40 {
                flows.push(
                    json!({"from": format!("c{c}n{a}"), "to": format!("c{}n{b}", c + 1),
                                  "flow": 1 + (a * b) % 7}),
                );
            }
        }
    }
    let start = Instant::now();
    assert!(scene_items(&sankey(flows)) > 0);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_cancelled_render_of_a_big_sankey_stops() {
    let cancel = Cancel::new();
    cancel.cancel();
    let start = Instant::now();
    let out =
        on_small_stack(move || render_with(&sankey(chain(9_000)), &cancel).map(|r| r.bitmap.width));
    assert!(matches!(out, Err(Error::Cancelled)), "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

fn treemap(dataset: Value) -> Value {
    json!({"type": "treemap", "data": {"datasets": [dataset]},
           "options": {"plugins": {"legend": {"display": false}}}})
}

#[test]
fn a_treemap_with_300_nested_groups_stays_small() {
    // 300 rows, each with a value for every one of 300 group keys: every level splits every
    // group again. Copies of the rows per level took gigabytes; the depth budget keeps 16
    // levels and the rectangles stay within the leaf budget.
    let groups: Vec<String> = (0..300).map(|g| format!("g{g}")).collect();
    let rows: Vec<Value> = (0..300)
        .map(|r| {
            let mut m = serde_json::Map::new();
            for (g, k) in groups.iter().enumerate() {
                m.insert(k.clone(), json!(format!("v{}", (r + g) % 7)));
            }
            m.insert("value".into(), json!(r + 1));
            Value::Object(m)
        })
        .collect();
    let cfg = treemap(json!({"tree": rows, "key": "value", "groups": groups}));
    let start = Instant::now();
    let (items, msgs) = on_small_stack(move || scene_and_messages(&cfg));
    assert!(items > 0);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("first 16 of 300 groups") && m.contains("MAX_TREEMAP_DEPTH")),
        "{msgs:?}"
    );
}

#[test]
fn treemap_groups_are_laid_out_within_the_budgets() {
    let groups: Vec<String> = (0..40).map(|g| format!("g{g}")).collect();
    let rows: Vec<Value> = (0..50)
        .map(|r| {
            let mut m = serde_json::Map::new();
            for (g, k) in groups.iter().enumerate() {
                m.insert(k.clone(), json!(format!("v{}", (r * 7 + g) % 5)));
            }
            m.insert("value".into(), json!(r + 1));
            Value::Object(m)
        })
        .collect();
    let cfg = treemap(json!({"tree": rows, "key": "value", "groups": groups}));
    let (chart, _) = chart_spec::resolve_chart(cfg.as_object().expect("object")).expect("ok");
    let chart_spec::model::DatasetKind::Treemap(o, _) = chart.datasets[0].kind.clone() else {
        panic!("a treemap dataset");
    };
    use chart_raster_skia::internals::treemap_data_within as build_data_within;
    let limits = chart_spec::Limits {
        max_treemap_depth: 3,
        max_treemap_leaves: 120,
        ..chart_spec::Limits::default()
    };
    let out = build_data_within(&o, 400.0, 300.0, &limits, &Cancel::new());
    assert!(!out.is_empty() && out.len() <= 120, "{}", out.len());
    assert!(out.iter().all(|s| s.l.is_some_and(|l| l < 3)));
    // A cancelled layout stops at once.
    let cancel = Cancel::new();
    cancel.cancel();
    assert!(build_data_within(&o, 400.0, 300.0, &limits, &cancel).is_empty());
}

#[test]
fn treemap_odd_options_and_data_do_not_panic() {
    let many: Vec<Value> = (0..64)
        .map(|i| match i % 4 {
            0 => json!(i),
            1 => json!("NaN"),
            2 => json!(null),
            _ => json!(-1e308),
        })
        .collect();
    for ds in [
        json!({"tree": [1, 2, 3], "labels": {"display": true, "color": []}}),
        json!({"tree": [1, 2, 3], "labels": {"display": true, "color": [], "font": []}}),
        json!({"tree": [{"g": "a", "v": 2}, {"g": "b", "v": 3}], "key": "v", "groups": ["g", "g"],
               "captions": {"display": true, "color": []}}),
        json!({"tree": [{}, {"v": 2}, {}], "key": "v", "labels": {"display": true}}),
        json!({"tree": {}, "labels": {"display": true, "font": {}}}),
        json!({"tree": [{}, {}], "groups": ["a"], "key": "v"}),
        json!({"data": [{}, 3, "x"]}),
        // Enough NaNs among numbers that a comparator which is not a total order is caught.
        json!({"tree": many.clone()}),
        json!({"tree": many.iter().map(|v| json!({"v": v, "g": "a"})).collect::<Vec<_>>(),
               "key": "v", "groups": ["g"]}),
        json!({"tree": [5, 3, 1], "spacing": 1e308, "borderWidth": 1e308, "borderRadius": 1e308,
               "labels": {"display": true, "padding": 1e308, "overflow": "fit"},
               "captions": {"padding": -1e308}, "dividers": {"display": true, "lineWidth": 1e308}}),
        json!({"tree": [{"g": "a", "v": 5}, {"g": "b", "v": 1e308}], "key": "v", "groups": ["g"],
               "borderWidth": -1e308, "spacing": -5, "captions": {"padding": 1e308},
               "displayMode": "headerBoxes", "dividers": {"display": true}}),
        json!({"tree": {"a": {"b": {"c": {"v": 1}}, "d": {"v": 2}}, "e": {"v": "NaN"}},
               "key": "v", "groups": ["0", "1", "_leaf"]}),
    ] {
        renders(&treemap(ds));
    }
}

#[test]
fn a_deeply_nested_treemap_tree_does_not_recurse() {
    // A nested object tree 120 levels deep (serde_json's own limit is 128). serde_json's
    // clone and drop recurse, so only the layout runs on the small stack, and the options
    // come back out to be dropped.
    let mut tree = json!({"v": 1});
    for i in 0..120 {
        tree = json!({format!("k{i}"): tree, format!("s{i}"): {"v": i}});
    }
    let cfg = treemap(json!({"tree": tree, "key": "v", "groups": ["0", "1", "2", "_leaf"]}));
    let (chart, _) = chart_spec::resolve_chart(cfg.as_object().expect("object")).expect("ok");
    let chart_spec::model::DatasetKind::Treemap(o, _) = chart.datasets[0].kind.clone() else {
        panic!("a treemap dataset");
    };
    let (o, rects) = on_small_stack(move || {
        let out = chart_raster_skia::internals::treemap_data(&o, 400.0, 300.0);
        let rects = out.len();
        drop(out);
        (o, rects)
    });
    // One record per object holding `v` (121), grouped: 2 groups at the first level.
    assert!(rects > 121, "{rects}");
    drop(o);
    renders(&cfg);
}

#[test]
fn a_cancelled_render_of_a_big_treemap_stops() {
    let rows: Vec<Value> = (0..20_000)
        .map(|r| json!({"a": format!("a{}", r % 50), "b": format!("b{}", r % 13), "v": r % 97 + 1}))
        .collect();
    let cfg = treemap(json!({"tree": rows, "key": "v", "groups": ["a", "b"]}));
    let cancel = Cancel::new();
    cancel.cancel();
    let start = Instant::now();
    let out = render_with(&cfg, &cancel).map(|r| r.bitmap.width);
    assert!(matches!(out, Err(Error::Cancelled)), "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_tree_of_20000_nodes_in_a_chain_does_not_recurse() {
    // Each node's parent is the one before: depth 20,000, for both layouts.
    let data: Vec<Value> = (0..20_000)
        .map(|i| {
            if i == 0 {
                json!({"name": "n0"})
            } else {
                json!({"name": format!("n{i}"), "parent": i - 1})
            }
        })
        .collect();
    for kind in ["tree", "dendrogram"] {
        let cfg = json!({"type": kind, "data": {"labels": [], "datasets": [{"data": data.clone()}]},
                         "options": {"plugins": {"legend": {"display": false}}}});
        let start = Instant::now();
        let items = on_small_stack(move || scene_items(&cfg));
        assert!(items > 0, "{kind}");
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{kind}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_wide_tree_is_not_quadratic() {
    // One root with 20,000 children: the tidy tree's sibling walks and the children's edge
    // order must not rescan every edge per node.
    let data: Vec<Value> = (0..20_000)
        .map(|i| {
            if i == 0 {
                json!({"name": "root"})
            } else {
                json!({"name": format!("c{i}"), "parent": 0})
            }
        })
        .collect();
    let cfg = json!({"type": "tree", "data": {"datasets": [{"data": data,
        "borderWidth": 1e308, "arrowHeadSize": 1e308, "directed": true, "tension": 1e308,
        "borderDash": [1e308, -1]}]}});
    let start = Instant::now();
    assert!(scene_items(&cfg) > 0);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn venn_and_matrix_absurd_numbers_render() {
    // 2,000 entries read as log2(2,001), 10 sets: only the templates' three are laid out.
    let venn: Vec<Value> = (0..2_000)
        .map(|i| json!({"sets": [format!("s{}", i % 20)], "value": if i % 2 == 0 { 1e308 } else { -1e308 }}))
        .collect();
    renders(&json!({"type": "venn", "data": {"labels": ["a", "b", "c"],
        "datasets": [{"data": venn, "borderWidth": 1e308, "borderColor": "red"}]}}));
    renders(&json!({"type": "venn", "data": {"labels": ["a", "b"],
        "datasets": [{"data": [{"sets": ["a"], "value": "NaN"}, {"sets": ["b"], "value": 1},
                               {"sets": ["a", "b"], "value": 1}], "borderWidth": "NaN"}]}}));
    let cells: Vec<Value> = (0..400)
        .map(|i| json!({"x": i % 20, "y": i / 20, "v": i}))
        .collect();
    for ds in [
        json!({"data": cells.clone(), "width": 1e308, "height": -1e308, "borderWidth": 1e308,
               "borderRadius": 1e308}),
        json!({"data": cells.clone(), "width": 1e9, "height": 1e9, "borderWidth": -1e308,
               "borderRadius": -5, "anchorX": "left"}),
        json!({"data": [{"x": 1e308, "y": -1e308}, {"x": "NaN", "y": 2}], "width": 10,
               "height": 10}),
    ] {
        // Cells as large as the chart, 400 of them rounded: past MAX_OVERDRAW is designed.
        renders_or_limit(&json!({"type": "matrix", "data": {"datasets": [ds]},
            "options": {"scales": {"x": {"type": "linear"}, "y": {"type": "linear"}}}}));
    }
}

#[test]
fn annotation_absurd_numbers_render() {
    let annotations = json!({
        "box": {"type": "box", "xMin": -1e308, "xMax": 1e308, "yMin": 1, "yMax": 2,
                "borderWidth": 1e308, "borderRadius": 1e308, "rotation": 1e308,
                "borderDash": [1e308, 0], "borderDashOffset": 1e308,
                "label": {"display": true, "content": "b", "padding": 1e308, "rotation": 1e308,
                          "xAdjust": 1e308, "font": {"size": 1e308}}},
        "line": {"type": "line", "yMin": 2, "yMax": 2, "borderWidth": 1e9, "curve": true,
                 "controlPoint": {"x": 1e308, "y": "1e308%"},
                 "arrowHeads": {"display": true, "length": 1e308, "width": -1e308, "fill": true},
                 "label": {"display": true, "content": ["l", "m"], "rotation": "auto",
                           "textStrokeWidth": 1e308, "textStrokeColor": "red", "color": [],
                           "callout": {"display": true, "margin": 1e308, "side": -1e308}}},
        "point": {"type": "point", "xValue": 1, "yValue": 2, "radius": 1e308,
                  "xAdjust": -1e308, "borderWidth": -1e308},
        "poly": {"type": "polygon", "xValue": 1, "yValue": 2, "radius": 1e9,
                 "sides": 1_000_000_000, "rotation": -1e308},
        "ellipse": {"type": "ellipse", "xMin": 0, "xMax": 2, "yMin": 0, "yMax": 3,
                    "rotation": 1e308, "borderWidth": 1e308},
        "label": {"type": "label", "xValue": 1, "yValue": 1, "content": "x", "z": 1e308,
                  "font": {"size": 1e308, "lineHeight": 1e308},
                  "callout": {"display": true, "margin": 1e308}},
    });
    let start = Instant::now();
    renders(
        &json!({"type": "line", "data": {"labels": [0, 1, 2], "datasets": [{"data": [1, 2, 3]}]},
        "options": {"plugins": {"annotation": {"annotations": annotations}}}}),
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn datalabels_absurd_numbers_and_many_colliding_labels_render() {
    let opts = json!({"display": "auto", "offset": 1e308, "padding": 1e308, "rotation": 1e308,
        "borderWidth": 1e308, "borderRadius": 1e308, "borderColor": "red",
        "backgroundColor": "blue", "textStrokeWidth": 1e308, "textStrokeColor": "red",
        "font": {"size": 1e308}, "align": 1e308, "anchor": "end", "clamp": true});
    renders(
        &json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [1, -1e308]}]},
        "options": {"plugins": {"datalabels": opts}}}),
    );
    // 6,000 overlapping labels that cannot hide and one that can: the plugin's `collide`
    // compares every pair (18 million); here it stops at its budget.
    let data: Vec<Value> = (0..6_000).map(|_| json!(1)).collect();
    let labels: Vec<Value> = (0..6_000).map(|i| json!(i)).collect();
    let start = Instant::now();
    let items = scene_items(&json!({"type": "line", "data": {"labels": labels,
        "datasets": [{"data": data, "datalabels": {"display": true}},
                     {"data": [1], "datalabels": {"display": "auto"}}]},
        "options": {"plugins": {"datalabels": {"display": "auto"}}}}));
    assert!(items > 0);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

fn force_graph(nodes: Vec<Value>, edges: Vec<Value>, simulation: Value) -> Value {
    json!({"type": "forceDirectedGraph",
           "data": {"datasets": [{"data": nodes, "edges": edges, "simulation": simulation}]},
           "options": {"plugins": {"legend": {"display": false}}}})
}

#[test]
fn a_force_graph_past_the_node_budget_is_cut_and_its_ticks_bounded() {
    // 20,000 nodes on one spot, each linked to the next, asking for a billion ticks: the nodes
    // are cut at the budget (5,000), the ticks at the simulation work budget, both said.
    let nodes: Vec<Value> = (0..20_000).map(|_| json!({"x": 1, "y": 1})).collect();
    let edges: Vec<Value> = (0..19_999)
        .map(|i| json!({"source": i, "target": i + 1}))
        .collect();
    let cfg = force_graph(nodes, edges, json!({"initialIterations": 1e9}));
    let start = Instant::now();
    let (items, msgs) = on_small_stack(move || scene_and_messages(&cfg));
    assert!(items > 0);
    assert!(
        msgs.iter().any(|m| m.contains("first 5000 of 20000 nodes")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("simulation ticks")),
        "{msgs:?}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn force_graph_absurd_options_and_positions_do_not_panic() {
    let nodes = vec![
        json!({"x": 1e308, "y": -1e308}),
        json!({"x": "NaN", "y": null}),
        json!({}),
        json!({"x": 0, "y": 0}),
        json!({"x": 0, "y": 0}),
    ];
    let edges = vec![
        json!({"source": 0, "target": 1}),
        json!({"source": 3, "target": 3}),
        json!({"source": 9, "target": -4}),
        json!({"source": "nope", "target": 2}),
    ];
    for forces in [
        json!({"manyBody": {"strength": 1e308, "theta": 0, "distanceMin": -1}}),
        json!({"link": {"distance": -1e308, "strength": "x", "iterations": 1e12}}),
        json!({"collide": {"radius": 1e300, "iterations": 1e9}, "radial": true, "x": {"strength": 1e308}}),
        json!({"center": false, "link": false, "manyBody": false}),
    ] {
        let sim = json!({"initialIterations": 300, "autoRestart": true, "forces": forces});
        renders(&force_graph(nodes.clone(), edges.clone(), sim));
    }
    // A plain graph with huge and missing positions.
    renders(&json!({"type": "graph", "data": {"datasets": [{"data": nodes, "edges": edges}]}}));
}

#[test]
fn a_cancelled_render_of_a_big_force_graph_stops() {
    let nodes: Vec<Value> = (0..5_000).map(|_| json!({})).collect();
    let cfg = force_graph(nodes, Vec::new(), json!({"initialIterations": 300}));
    let cancel = Cancel::with_deadline(Instant::now() + Duration::from_millis(200));
    let start = Instant::now();
    let out = on_small_stack(move || render_with(&cfg, &cancel).map(|r| r.bitmap.width));
    assert!(matches!(out, Err(Error::Cancelled)), "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

fn geo(kind: &str, dataset: Value, projection: &str) -> Value {
    json!({"type": kind, "data": {"datasets": [dataset]},
           "options": {"scales": {"projection": {"axis": "x", "projection": projection}}}})
}

#[test]
fn geo_charts_with_absurd_coordinates_and_projections_do_not_panic() {
    let ring = |pts: Vec<Value>| json!({"type": "Polygon", "coordinates": [pts]});
    let features = vec![
        json!({"feature": ring(vec![json!([0, 90]), json!([1e308, -90]), json!([-1e308, 1e308]), json!([0, 90])]), "value": 1e308}),
        json!({"feature": ring(vec![json!([179, 0]), json!([-179, 1]), json!([179, 2]), json!([179, 0])]), "value": "NaN"}),
        json!({"feature": {"type": "Sphere"}, "value": -1e308}),
        json!({"feature": {"type": "Point", "coordinates": [0, 0]}}),
        json!({"feature": 5}),
        json!({}),
    ];
    for projection in [
        "mercator",
        "equalEarth",
        "albersUsa",
        "naturalEarth1",
        "equirectangular",
        "orthographic",
        "gnomonic",
        "stereographic",
        "transverseMercator",
        "nope",
    ] {
        let ds = json!({"data": features.clone(), "outline": [ring(vec![json!([0, 0]), json!([0, 0])])]});
        renders(&geo("choropleth", ds, projection));
        let ds = json!({"data": [{"longitude": 1e308, "latitude": 90, "value": 1}, {"value": 2}, {"x": 0, "y": 0}],
                        "showOutline": true});
        renders(&geo("bubbleMap", ds, projection));
    }
}

#[test]
fn deeply_nested_and_huge_geojson_stays_within_the_budgets() {
    // 120 nested collections around a polygon (serde_json's own limit is 128; read with a
    // stack, not recursion), and 300,000 positions in one ring (within the vertex budget,
    // resampled within its own budget).
    let mut nested =
        json!({"type": "Polygon", "coordinates": [[[0, 0], [0, 10], [10, 10], [0, 0]]]});
    for _ in 0..120 {
        nested = json!({"type": "GeometryCollection", "geometries": [nested]});
    }
    let big: Vec<Value> = (0..300_000)
        .map(|i| json!([f64::from(i % 360) - 180.0, f64::from(i % 170) - 85.0]))
        .collect();
    let data = vec![
        json!({"feature": nested, "value": 1}),
        json!({"feature": {"type": "Polygon", "coordinates": [big]}, "value": 2}),
    ];
    let cfg = geo("choropleth", json!({"data": data}), "mercator");
    let start = Instant::now();
    let items = scene_items(&cfg);
    assert!(items > 0);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

fn euler(data: Vec<Value>) -> Value {
    json!({"type": "euler", "data": {"datasets": [{"data": data}]}})
}

#[test]
fn an_euler_diagram_past_its_budgets_is_cut_and_bounded() {
    // 300 sets, each overlapping the next: the loss is quadratic in sets and Nelder–Mead runs
    // 500 rounds over 2 coordinates per set, so sets and areas are cut at their budgets.
    let mut data: Vec<Value> = (0..300)
        .map(|i| json!({"sets": [format!("s{i}")], "value": 10}))
        .collect();
    data.extend(
        (0..299).map(|i| json!({"sets": [format!("s{i}"), format!("s{}", i + 1)], "value": 2})),
    );
    let cfg = euler(data);
    let start = Instant::now();
    let (items, msgs) = scene_and_messages(&cfg);
    assert!(items > 0);
    assert!(
        msgs.iter().any(|m| m.contains("euler: only the first")),
        "{msgs:?}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "{:?}",
        start.elapsed()
    );
}

/// genDistinctPath compared every entry with every other (a sort of one's sets per pair),
/// over all entries, not only the ones within the area budget: 99,000 entries (found by
/// `cargo xtask sweep`) never ended and polled no `Cancel`.
#[test]
fn an_euler_diagram_of_99000_entries_ends() {
    let shapes = [json!(["A"]), json!(["B"]), json!(["A", "B"]), json!(["C"])];
    let data: Vec<Value> = (0..99_000)
        .map(|i| json!({"sets": shapes[i % 4], "value": 10 - (i % 4)}))
        .collect();
    let cfg = euler(data);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(scene_items(&cfg));
    });
    let items = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the layout ends within 60 s");
    assert!(items > 0);
}

#[test]
fn euler_odd_data_does_not_panic() {
    for data in [
        vec![
            json!({"sets": ["A"], "value": "NaN"}),
            json!({"sets": ["A", "B"], "value": 1e308}),
        ],
        vec![
            json!({"sets": ["A"], "value": -5}),
            json!({"sets": ["B"], "value": 0}),
            json!({"sets": ["A", "B"], "value": 9}),
        ],
        vec![
            json!({"sets": [], "value": 1}),
            json!({"sets": ["A", "A"], "value": 1}),
            json!({"value": 3}),
            json!(7),
        ],
        vec![
            json!({"sets": ["A"], "value": 1e308}),
            json!({"sets": ["B"], "value": 1e-308}),
            json!({"sets": ["A", "B", "C"], "value": 1}),
        ],
        vec![
            json!({"sets": ["1"], "value": 4}),
            json!({"sets": ["0"], "value": 4}),
            json!({"sets": ["0", "1"], "value": 4}),
        ],
        Vec::new(),
    ] {
        renders(&euler(data));
    }
    // Venn diagrams of more sets than the templates clamp to five.
    let data: Vec<Value> = (0..200)
        .map(|i| json!({"sets": [format!("s{i}")], "value": i}))
        .collect();
    renders(&json!({"type": "venn", "data": {"datasets": [{"data": data}]}}));
}

#[test]
fn a_cancelled_euler_render_stops() {
    let data: Vec<Value> = (0..24)
        .map(|i| json!({"sets": [format!("s{i}")], "value": 10 + i}))
        .collect();
    let cfg = euler(data);
    let cancel = Cancel::new();
    cancel.cancel();
    let out = render_with(&cfg, &cancel).map(|r| r.bitmap.width);
    assert!(matches!(out, Err(Error::Cancelled)), "{out:?}");
}

fn word_cloud(labels: Vec<Value>, data: Vec<Value>, extra: Value) -> Value {
    let mut ds = json!({"data": data});
    if let (Some(d), Some(e)) = (ds.as_object_mut(), extra.as_object()) {
        d.extend(e.clone());
    }
    json!({"type": "wordCloud", "data": {"labels": labels, "datasets": [ds]},
           "options": {"plugins": {"legend": {"display": false}}}})
}

#[test]
fn a_word_cloud_of_many_words_is_bounded() {
    // 5,000 words (cut at the word budget), each tried along its spiral: bounded by the step
    // and sprite budgets, not by luck.
    let labels: Vec<Value> = (0..5_000).map(|i| json!(format!("word{i}"))).collect();
    let data: Vec<Value> = (0..5_000).map(|i| json!(10 + i % 40)).collect();
    let cfg = word_cloud(labels, data, json!({}));
    let start = Instant::now();
    assert!(scene_items(&cfg) > 0);
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn word_cloud_odd_words_and_options_do_not_panic() {
    let labels = vec![
        json!("a"),
        json!(""),
        json!("ééé 中文"),
        json!(null),
        json!(5),
    ];
    for data in [
        vec![
            json!(1e308),
            json!(-1e308),
            json!("NaN"),
            json!(0),
            json!(2000),
        ],
        vec![json!(30), json!(30), json!(30), json!(30), json!(30)],
        Vec::new(),
    ] {
        for extra in [
            json!({}),
            json!({"rotate": 1e308, "padding": 1e9, "strokeStyle": "red", "strokeWidth": -5}),
            json!({"minRotation": "x", "maxRotation": 1e308, "rotationSteps": 1e12, "randomRotationSeed": "seed"}),
            json!({"autoGrow": {"maxTries": 1e9, "scalingFactor": 1e-9}, "fit": true, "size": [5, 1e6]}),
            json!({"family": 5, "weight": "bold", "style": "italic", "color": ["#f00", 3]}),
        ] {
            renders(&word_cloud(labels.clone(), data.clone(), extra));
        }
    }
}

#[test]
fn a_cancelled_word_cloud_stops() {
    let labels: Vec<Value> = (0..2_000).map(|i| json!(format!("w{i}"))).collect();
    let data: Vec<Value> = (0..2_000).map(|_| json!(60)).collect();
    let cfg = word_cloud(labels, data, json!({}));
    let cancel = Cancel::with_deadline(Instant::now() + Duration::from_millis(300));
    let start = Instant::now();
    let out = on_small_stack(move || render_with(&cfg, &cancel).map(|r| r.bitmap.width));
    assert!(matches!(out, Err(Error::Cancelled)), "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}
