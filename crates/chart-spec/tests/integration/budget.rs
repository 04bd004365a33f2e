//! The input budgets of `Limits` on the raw config: each one just under and just over its
//! limit, the error text naming the environment variable, and the walk's own bounds (depth,
//! linear work).

use chart_spec::budget::check_chart;
use chart_spec::{Limits, RenderOptions, RequestError};
use serde_json::{json, Map, Value};

fn check(chart: Value, limits: &Limits) -> Result<RenderOptions, RequestError> {
    RenderOptions::from_json_with_limits(&json!({ "chart": chart }), limits)
}

fn accepted(chart: Value, limits: &Limits) {
    if let Err(e) = check(chart, limits) {
        panic!("refused: {e}");
    }
}

fn refused(chart: Value, limits: &Limits) -> String {
    match check(chart, limits) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

fn zeros(n: usize) -> Value {
    Value::Array(vec![json!(0); n])
}

fn line(data: Value) -> Value {
    json!({"type": "line", "data": {"datasets": [{"data": data}]}})
}

#[test]
fn datasets() {
    let l = Limits::default();
    let chart = |n: usize| json!({"type": "bar", "data": {"datasets": vec![json!({}); n]}});
    accepted(chart(1_000), &l);
    assert_eq!(
        refused(chart(1_001), &l),
        "Invalid chart: 1001 datasets is over the limit of 1000 (MAX_DATASETS)"
    );
}

#[test]
fn points_per_dataset() {
    let l = Limits::default();
    accepted(line(zeros(100_000)), &l);
    assert_eq!(
        refused(line(zeros(100_001)), &l),
        "Invalid chart: 100001 data points in dataset 0 is over the limit of 100000 \
         (MAX_POINTS_PER_DATASET)"
    );
}

#[test]
fn points_of_every_shape_count() {
    let l = Limits {
        max_points_per_dataset: 2,
        ..Limits::default()
    };
    let msg = "Invalid chart: 3 data points in dataset 0 is over the limit of 2 \
               (MAX_POINTS_PER_DATASET)";
    accepted(line(json!([{"x": 1, "y": 2}, [1, 2]])), &l);
    assert_eq!(
        refused(line(json!([{"x": 1, "y": 2}, [1, 2], null])), &l),
        msg
    );
    // `data` as an object map: one point per key, as Chart.js parses it.
    accepted(line(json!({"a": 1, "b": 2})), &l);
    assert_eq!(refused(line(json!({"a": 1, "b": 2, "c": 3})), &l), msg);
    // A graph's edges are points of its dataset too.
    let graph = |edges: usize| {
        json!({"type": "tree", "data": {"datasets": [{
            "data": [{}], "edges": vec![json!({"source": 0, "target": 0}); edges]
        }]}})
    };
    accepted(graph(1), &l);
    assert_eq!(refused(graph(2), &l), msg);
    // The dataset is named by its index.
    let two = json!({"type": "bar", "data": {"datasets": [{"data": [1]}, {"data": [1, 2, 3]}]}});
    assert_eq!(
        refused(two, &l),
        "Invalid chart: 3 data points in dataset 1 is over the limit of 2 \
         (MAX_POINTS_PER_DATASET)"
    );
}

#[test]
fn points_in_total() {
    let l = Limits::default();
    let chart = |last: usize| {
        json!({"type": "line", "data": {"datasets": [
            {"data": zeros(100_000)}, {"data": zeros(100_000)}, {"data": zeros(last)}
        ]}})
    };
    accepted(chart(50_000), &l);
    assert_eq!(
        refused(chart(50_001), &l),
        "Invalid chart: 250001 data points over all datasets is over the limit of 250000 \
         (MAX_POINTS)"
    );
}

#[test]
fn labels() {
    let l = Limits::default();
    let chart = |n: usize| json!({"type": "bar", "data": {"labels": vec![json!("a"); n]}});
    accepted(chart(100_000), &l);
    assert_eq!(
        refused(chart(100_001), &l),
        "Invalid chart: 100001 entries in data.labels is over the limit of 100000 (MAX_LABELS)"
    );
    let small = Limits {
        max_labels: 1,
        ..Limits::default()
    };
    assert_eq!(
        refused(json!({"data": {"yLabels": ["a", "b"]}}), &small),
        "Invalid chart: 2 entries in data.yLabels is over the limit of 1 (MAX_LABELS)"
    );
    accepted(
        json!({"options": {"scales": {"x": {"type": "category", "labels": ["a"]}}}}),
        &small,
    );
    assert_eq!(
        refused(
            json!({"options": {"scales": {"x": {"type": "category", "labels": ["a", "b"]}}}}),
            &small
        ),
        "Invalid chart: 2 entries in options.scales.x.labels is over the limit of 1 (MAX_LABELS)"
    );
}

#[test]
fn text_chars_count_characters_not_bytes() {
    let l = Limits::default();
    let title = |s: String| json!({"options": {"plugins": {"title": {"text": s}}}});
    // 10,000 two-byte characters: 20,000 bytes, within the budget.
    accepted(title("é".repeat(10_000)), &l);
    assert_eq!(
        refused(title("é".repeat(10_001)), &l),
        "Invalid chart: a string of 10001 characters is over the limit of 10000 (MAX_TEXT_CHARS)"
    );
    // Anywhere: in an array of labels, and as an object key.
    assert_eq!(
        refused(json!({"data": {"labels": ["a", "b".repeat(10_001)]}}), &l),
        "Invalid chart: a string of 10001 characters is over the limit of 10000 (MAX_TEXT_CHARS)"
    );
    let mut key = Map::new();
    key.insert("k".repeat(10_001), json!(1));
    assert_eq!(
        refused(json!({"options": key}), &l),
        "Invalid chart: a string of 10001 characters is over the limit of 10000 (MAX_TEXT_CHARS)"
    );
    // The issue's 5 MB title.
    assert!(refused(title("x".repeat(5_000_000)), &l).contains("(MAX_TEXT_CHARS)"));
}

/// `levels` arrays nested in each other, built without recursion.
fn nested_arrays(levels: usize) -> Value {
    let mut v = Value::Array(Vec::new());
    for _ in 1..levels {
        v = Value::Array(vec![v]);
    }
    v
}

/// Drops a deeply nested value without recursing (serde_json's `Drop` recurses).
fn dismantle(mut v: Value) {
    loop {
        v = match v {
            Value::Array(mut a) => match a.pop() {
                Some(inner) => inner,
                None => return,
            },
            Value::Object(m) => match m.into_iter().next() {
                Some((_, inner)) => inner,
                None => return,
            },
            _ => return,
        };
    }
}

#[test]
fn json_depth() {
    let l = Limits::default();
    // The config object is level 1, so 63 nested arrays under it reach level 64.
    accepted(json!({"options": {"x": nested_arrays(62)}}), &l);
    assert_eq!(
        refused(json!({"options": {"x": nested_arrays(63)}}), &l),
        "Invalid chart: a value nested 65 levels deep is over the limit of 64 (MAX_JSON_DEPTH)"
    );
}

#[test]
fn ten_thousand_levels_are_refused_without_recursion() {
    // Built in memory, so serde_json's own limit of 128 levels is not in the way: only the
    // walk stands between this value and a stack overflow.
    // (Not through `json!`, which would copy the value recursively.)
    let mut chart = Map::new();
    chart.insert("x".into(), nested_arrays(10_000));
    let mut req = Map::new();
    req.insert("chart".into(), Value::Object(chart));
    let req = Value::Object(req);
    let e = RenderOptions::from_json_with_limits(&req, &Limits::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Invalid chart: a value nested 65 levels deep is over the limit of 64 (MAX_JSON_DEPTH)"
    );
    // A budget built in code cannot lift the walk over serde_json's ceiling of 128 levels,
    // below which the rest of the pipeline recurses.
    let unbounded = Limits {
        max_json_depth: usize::MAX,
        ..Limits::default()
    };
    assert_eq!(
        RenderOptions::from_json_with_limits(&req, &unbounded)
            .unwrap_err()
            .to_string(),
        "Invalid chart: a value nested 129 levels deep is over the limit of 128 (MAX_JSON_DEPTH)"
    );
    dismantle(req);

    // Sent as a body, the scan of its bytes refuses it before serde_json parses anything,
    // at the first level too deep (the body object is level 0, its config level 1).
    let body = format!(
        "{{\"chart\":{{\"x\":{}{}}}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_eq!(
        RenderOptions::from_json_bytes(body.as_bytes())
            .unwrap_err()
            .to_string(),
        "Invalid request body: a value nested 65 levels deep is over the limit of 64 \
         (MAX_JSON_DEPTH)"
    );
    // At the largest depth budget a setting may ask for, too.
    let deepest = Limits {
        max_json_depth: 128,
        ..Limits::default()
    };
    let msg = RenderOptions::from_json_bytes_with_limits(body.as_bytes(), &deepest)
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "Invalid request body: a value nested 129 levels deep is over the limit of 128 \
         (MAX_JSON_DEPTH)"
    );
}

fn flows(pairs: impl IntoIterator<Item = (String, String)>) -> Value {
    Value::Array(
        pairs
            .into_iter()
            .map(|(f, t)| json!({"from": f, "to": t, "flow": 1}))
            .collect(),
    )
}

fn sankey(data: Value) -> Value {
    json!({"type": "sankey", "data": {"datasets": [{"data": data}]}})
}

#[test]
fn sankey_flows() {
    let l = Limits::default();
    let same = |n: usize| flows((0..n).map(|_| ("a".to_string(), "b".to_string())));
    accepted(sankey(same(50_000)), &l);
    assert_eq!(
        refused(sankey(same(50_001)), &l),
        "Invalid chart: 50001 sankey flows in dataset 0 is over the limit of 50000 \
         (MAX_SANKEY_FLOWS)"
    );
}

#[test]
fn sankey_nodes() {
    let l = Limits::default();
    // The issue's chain of nodes (there 20,000, which overflowed the stack): n flows join
    // n + 1 nodes.
    let chain = |n: usize| flows((0..n).map(|i| (i.to_string(), (i + 1).to_string())));
    accepted(sankey(chain(9_999)), &l);
    assert_eq!(
        refused(sankey(chain(10_000)), &l),
        "Invalid chart: at least 10001 sankey nodes (distinct from/to keys) in dataset 0 \
         is over the limit of 10000 (MAX_SANKEY_NODES)"
    );
    assert!(refused(sankey(chain(20_000)), &l).contains("(MAX_SANKEY_NODES)"));
}

#[test]
fn sankey_nodes_follow_parsing_and_js_string_keys() {
    let l = Limits {
        max_sankey_nodes: 2,
        ..Limits::default()
    };
    let over = "Invalid chart: at least 3 sankey nodes (distinct from/to keys) in dataset 0 \
                is over the limit of 2 (MAX_SANKEY_NODES)";
    // Renamed keys are the ones read (the default `from`/`to` are then ignored).
    let renamed = |data: Value| {
        json!({"type": "sankey", "data": {"datasets": [
            {"parsing": {"from": "src", "to": "dst", "flow": "v"}, "data": data}
        ]}})
    };
    accepted(
        renamed(json!([{"src": "a", "dst": "b", "from": "x", "to": "y"}])),
        &l,
    );
    assert_eq!(
        refused(
            renamed(json!([{"src": "a", "dst": "b"}, {"src": "a", "dst": "c"}])),
            &l
        ),
        over
    );
    // 1, 1.0 and "1" are one node, as the controller keys nodes by their string.
    accepted(
        sankey(json!([{"from": 1, "to": "1.0"}, {"from": 1.0, "to": "1"}])),
        &l,
    );
    // A dataset typed sankey in a chart of another type counts too.
    let typed = json!({"type": "bar", "data": {"datasets": [
        {"type": "sankey", "data": [{"from": "a", "to": "b"}, {"from": "c", "to": "b"}]}
    ]}});
    assert_eq!(refused(typed, &l), over);
}

fn treemap(dataset: Value) -> Value {
    json!({"type": "treemap", "data": {"datasets": [dataset]}})
}

#[test]
fn treemap_depth() {
    let l = Limits::default();
    let groups = |n: usize| Value::Array((0..n).map(|i| json!(format!("g{i}"))).collect());
    accepted(
        treemap(json!({"tree": [{"value": 1}], "groups": groups(16)})),
        &l,
    );
    assert_eq!(
        refused(
            treemap(json!({"tree": [{"value": 1}], "groups": groups(17)})),
            &l
        ),
        "Invalid chart: 17 treemap levels (groups) in dataset 0 is over the limit of 16 \
         (MAX_TREEMAP_DEPTH)"
    );
    // The issue's 300 nested groups × 300 rows (3.3 GB of RSS in the engine).
    let rows: Vec<Value> = (0..300).map(|_| json!({"value": 1})).collect();
    assert!(
        refused(treemap(json!({"tree": rows, "groups": groups(300)})), &l)
            .contains("(MAX_TREEMAP_DEPTH)")
    );
}

#[test]
fn treemap_leaves() {
    let l = Limits::default();
    let rows = |n: usize| Value::Array(vec![json!({"g": "a", "value": 1}); n]);
    // rows × (groups + 1): 50,000 × 2 = 100,000.
    accepted(treemap(json!({"tree": rows(50_000), "groups": ["g"]})), &l);
    assert_eq!(
        refused(treemap(json!({"tree": rows(50_001), "groups": ["g"]})), &l),
        "Invalid chart: 100002 treemap rectangles (rows × (groups + 1), over all datasets) \
         is over the limit of 100000 (MAX_TREEMAP_LEAVES)"
    );
}

#[test]
fn treemap_object_trees_count_their_rows() {
    let l = Limits {
        max_treemap_leaves: 3,
        ..Limits::default()
    };
    // normalizeTreeToArray: one row per nested object holding `key`.
    let tree = json!({
        "a": {"x": {"value": 1}, "y": {"value": 2, "deeper": {"value": 9}}},
        "b": {"value": 3},
        "c": 7
    });
    accepted(treemap(json!({"tree": tree, "key": "value"})), &l);
    let mut bigger = tree.clone();
    bigger["d"] = json!({"value": 4});
    assert_eq!(
        refused(treemap(json!({"tree": bigger, "key": "value"})), &l),
        "Invalid chart: 4 treemap rectangles (rows × (groups + 1), over all datasets) \
         is over the limit of 3 (MAX_TREEMAP_LEAVES)"
    );
}

#[test]
fn annotations() {
    let l = Limits::default();
    let array = |n: usize| {
        json!({"options": {"plugins": {"annotation": {
            "annotations": vec![json!({"type": "line", "yMin": 1, "yMax": 1}); n]
        }}}})
    };
    accepted(array(1_000), &l);
    assert_eq!(
        refused(array(1_001), &l),
        "Invalid chart: 1001 annotations is over the limit of 1000 (MAX_ANNOTATIONS)"
    );
    let map = |n: usize| {
        let m: Map<String, Value> = (0..n)
            .map(|i| (format!("a{i}"), json!({"type": "box"})))
            .collect();
        json!({"options": {"plugins": {"annotation": {"annotations": m}}}})
    };
    accepted(map(1_000), &l);
    assert_eq!(
        refused(map(1_001), &l),
        "Invalid chart: 1001 annotations is over the limit of 1000 (MAX_ANNOTATIONS)"
    );
}

#[test]
fn budgets_apply_to_query_strings_too() {
    let l = Limits {
        max_points_per_dataset: 1,
        ..Limits::default()
    };
    let e = RenderOptions::from_query_with_limits(
        [(
            "chart",
            r#"{"type":"line","data":{"datasets":[{"data":[1,2]}]}}"#,
        )],
        &l,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Invalid chart: 2 data points in dataset 0 is over the limit of 1 \
         (MAX_POINTS_PER_DATASET)"
    );
}

/// A 10 MiB body: `<prefix><item>,<item>,…<suffix>`, with as many items as fit.
pub(crate) fn ten_mib_body(prefix: &str, item: &str, suffix: &str) -> (String, usize) {
    let budget = 10 * 1024 * 1024 - prefix.len() - suffix.len();
    let n = (budget + 1) / (item.len() + 1);
    let mut body = String::with_capacity(10 * 1024 * 1024);
    body.push_str(prefix);
    for i in 0..n {
        if i > 0 {
            body.push(',');
        }
        body.push_str(item);
    }
    body.push_str(suffix);
    assert!(body.len() <= 10 * 1024 * 1024);
    (body, n)
}

#[test]
fn a_ten_mib_body_is_checked_in_one_linear_walk() {
    // What a 10 MiB body of 1-element arrays outside any budgeted place parses to (built
    // directly: parsing 10 MiB in a debug build takes seconds and is not what is tested).
    // Refused by the value budget, which the walk counts for configs built in code; with
    // that budget lifted, accepted, and the walk visits every value exactly once: the
    // config, `options`, `x`, then each array and its number.
    let n = (10 * 1024 * 1024) / "[1],".len();
    let mut x = Vec::with_capacity(n);
    x.resize_with(n, || json!([1]));
    let mut options = Map::new();
    options.insert("x".into(), Value::Array(x));
    let mut chart = Map::new();
    chart.insert("options".into(), Value::Object(options));
    assert_eq!(
        check_chart(&chart, &Limits::default())
            .unwrap_err()
            .to_string(),
        format!(
            "Invalid chart: {} JSON values is over the limit of 1200000 (MAX_JSON_VALUES)",
            3 + 2 * n
        )
    );
    let lifted = Limits {
        max_json_values: usize::MAX,
        ..Limits::default()
    };
    let measure = check_chart(&chart, &lifted).unwrap();
    assert_eq!(measure.values, 3 + 2 * n);
    assert_eq!(measure.depth, 4);
    assert_eq!(measure.points, 0);

    // As data points, a real 10 MiB body (the issue's 5,000,000-point line chart) is
    // refused by the scan of its bytes, before serde_json builds its values: the body object,
    // `chart`, `"line"`, `data`, `datasets`, the dataset, its `data` and the numbers.
    let (body, n) = ten_mib_body(
        r#"{"chart":{"type":"line","data":{"datasets":[{"data":["#,
        "1",
        "]}]}}}",
    );
    assert!(n > 5_000_000, "{n}");
    assert_eq!(
        RenderOptions::from_json_bytes(body.as_bytes())
            .unwrap_err()
            .to_string(),
        format!(
            "Invalid request body: {} JSON values is over the limit of 1200000 \
             (MAX_JSON_VALUES)",
            n + 7
        )
    );
    // With the value budget lifted, the parsed config is refused from the array's length
    // alone.
    assert_eq!(
        RenderOptions::from_json_bytes_with_limits(body.as_bytes(), &lifted)
            .unwrap_err()
            .to_string(),
        format!(
            "Invalid chart: {n} data points in dataset 0 is over the limit of 100000 \
             (MAX_POINTS_PER_DATASET)"
        )
    );
}

#[test]
fn the_readme_documents_every_budget() {
    let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"));
    let d = Limits::default();
    let defaults = [
        d.max_datasets,
        d.max_points_per_dataset,
        d.max_points,
        d.max_labels,
        d.max_text_chars,
        d.max_json_depth,
        d.max_json_values,
        d.max_sankey_nodes,
        d.max_sankey_flows,
        d.max_treemap_depth,
        d.max_treemap_leaves,
        d.max_annotations,
        d.max_total_ticks,
        d.max_scene_items,
        d.max_overdraw,
        d.max_pdf_content,
        d.max_svg_bytes,
    ];
    for (name, default) in Limits::VARIABLES.iter().zip(defaults) {
        let row = readme
            .lines()
            .find(|l| l.starts_with('|') && l.contains(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("README has no row for {name}"));
        assert!(
            row.contains(&format!("| {default} |")),
            "README's row for {name} does not give its default {default}: {row}"
        );
    }
}

#[test]
fn a_huge_background_colour_is_refused() {
    let l = Limits::default();
    let req = |n: usize| json!({"chart": {}, "backgroundColor": "x".repeat(n)});
    assert!(RenderOptions::from_json_with_limits(&req(10_000), &l).is_ok());
    assert_eq!(
        RenderOptions::from_json_with_limits(&req(10_001), &l)
            .unwrap_err()
            .to_string(),
        "Invalid backgroundColor: a string of 10001 characters is over the limit of 10000 \
         (MAX_TEXT_CHARS)"
    );
}
