//! Hostile plugin charts built from nothing: sankey, treemap, word cloud, choropleth and
//! bubble map, force-directed graph, tree and dendrogram, venn and euler, matrix. Mutating the
//! gallery's small examples of these rarely reaches their own loops (a sankey's cycles, a
//! tree's parent chains, a map's rings), so each generator draws the shapes those loops fear:
//! cycles and self-loops, chains as long as the budgets, references out of range, rings of
//! one point or a hundred thousand, numbers at the ends of the f64 range.

use crate::compare::random::Rng;
use serde_json::{json, Value};

/// Sizes the generators draw, around the budgets' orders of magnitude.
const SIZES: &[usize] = &[1, 2, 10, 300, 2_000, 10_000, 50_000];

/// A number from the ends of the range, or an ordinary one.
fn number(rng: &mut Rng) -> Value {
    if rng.chance(0.5) {
        json!(rng.int(0, 100))
    } else {
        json!(rng.pick(super::table::EXTREMES))
    }
}

/// A value where a number is expected: mostly numbers, sometimes strings, nulls, objects.
fn numberish(rng: &mut Rng) -> Value {
    match rng.int(0, 9) {
        0 => rng.pick(&[
            json!("NaN"),
            json!("1e999"),
            json!("-Infinity"),
            json!(" 7 "),
        ]),
        1 => rng.pick(&[json!(null), json!({}), json!([]), json!(true)]),
        _ => number(rng),
    }
}

/// An index or name reference: in range, out of it, negative, or of the wrong type.
fn reference(rng: &mut Rng, n: usize) -> Value {
    match rng.int(0, 9) {
        0 => json!(-1),
        1 => json!(n),
        2 => json!(1e308),
        3 => json!(format!("n{}", rng.int(0, n as i64))),
        4 => json!(null),
        _ => json!(rng.int(0, n as i64 - 1).max(0)),
    }
}

/// One hostile plugin chart and its name.
pub(super) fn chart(rng: &mut Rng) -> (String, Value) {
    let n = rng.pick(SIZES);
    let kind = rng.pick(&[
        "sankey",
        "treemap",
        "wordCloud",
        "choropleth",
        "bubbleMap",
        "forceDirectedGraph",
        "tree",
        "dendrogram",
        "venn",
        "euler",
        "matrix",
    ]);
    let chart = match kind {
        "sankey" => sankey(rng, n),
        "treemap" => treemap(rng, n),
        "wordCloud" => word_cloud(rng, n),
        "choropleth" | "bubbleMap" => geo(rng, kind, n),
        "forceDirectedGraph" | "tree" | "dendrogram" => graph(rng, kind, n),
        "venn" | "euler" => venn(rng, kind, n),
        _ => matrix(rng, n),
    };
    (format!("plugin {kind} n={n}"), chart)
}

fn sankey(rng: &mut Rng, n: usize) -> Value {
    let shape = rng.pick(&["chain", "cycle", "self", "star", "random", "dense"]);
    let nodes = n.clamp(2, 20_000);
    let flows: Vec<Value> = (0..n)
        .map(|i| {
            let (from, to) = match shape {
                "chain" => (i, i + 1),
                "cycle" => (i % nodes, (i + 1) % nodes),
                "self" => (i % nodes, i % nodes),
                "star" => (0, i + 1),
                "dense" => (i % 50, 50 + i / 50),
                _ => (
                    rng.int(0, nodes as i64) as usize,
                    rng.int(0, nodes as i64) as usize,
                ),
            };
            json!({"from": format!("n{from}"), "to": format!("n{to}"), "flow": numberish(rng)})
        })
        .collect();
    let mut ds = json!({"data": flows, "colorFrom": "red", "colorTo": "blue"});
    let extra = [
        ("colorMode", json!("gradient")),
        ("size", rng.pick(&[json!("min"), json!("max")])),
        ("nodeWidth", number(rng)),
        ("nodePadding", number(rng)),
        ("borderWidth", number(rng)),
        ("priority", json!({"n0": 1e308, "n1": -1e308, "n2": null})),
        ("column", json!({"n0": 1e9, "n1": -5, "n3": 1e308})),
        (
            "labels",
            json!({"n0": "L".repeat(10_000), "n1": "\u{202e}x"}),
        ),
    ];
    for (k, v) in extra {
        if rng.chance(0.4) {
            ds[k] = v;
        }
    }
    json!({"type": "sankey", "data": {"datasets": [ds]}})
}

fn treemap(rng: &mut Rng, n: usize) -> Value {
    let depth = rng.pick(&[1usize, 3, 16, 17]);
    let groups: Vec<String> = (0..depth).map(|g| format!("g{g}")).collect();
    let rows: Vec<Value> = (0..n)
        .map(|i| {
            let mut row = json!({"v": numberish(rng)});
            for (g, key) in groups.iter().enumerate() {
                // Few distinct values at the top, one per row at the bottom.
                row[key] = json!(format!("{}", i % (1 + g * g * 7)));
            }
            row
        })
        .collect();
    let ds = if rng.chance(0.3) {
        json!({"tree": (0..n).map(|_| numberish(rng)).collect::<Vec<_>>()})
    } else {
        json!({
            "tree": rows, "key": "v", "groups": groups,
            "spacing": number(rng), "borderWidth": number(rng),
            "captions": {"display": true, "padding": number(rng), "font": {"size": number(rng)}},
            "labels": {"display": true, "overflow": rng.pick(&[json!("fit"), json!("hidden")]),
                       "padding": number(rng), "font": {"size": number(rng)}},
            "dividers": {"display": true, "lineWidth": number(rng), "lineDash": [1e-6, 1e-6]},
        })
    };
    json!({"type": "treemap", "data": {"datasets": [ds]}})
}

fn word_cloud(rng: &mut Rng, n: usize) -> Value {
    let long = rng.chance(0.2);
    let labels: Vec<String> = (0..n)
        .map(|i| {
            if long {
                format!("{i}{}", "w".repeat(2_000))
            } else {
                format!("w{i}")
            }
        })
        .collect();
    let data: Vec<Value> = (0..n).map(|_| numberish(rng)).collect();
    json!({"type": "wordCloud", "data": {"labels": labels, "datasets": [{
        "data": data,
        "padding": number(rng), "rotate": number(rng), "minRotation": number(rng),
        "maxRotation": number(rng), "rotationSteps": number(rng),
        "fit": rng.chance(0.5), "maxTries": number(rng),
    }]}})
}

/// A ring of `n` points: a circle, a zigzag, a single point, or coordinates off the globe.
fn ring(rng: &mut Rng, n: usize) -> Value {
    let shape = rng.int(0, 4);
    let mut pts: Vec<Value> = (0..n)
        .map(|i| {
            let t = i as f64 / n.max(1) as f64;
            match shape {
                0 => json!([-10.0 + 20.0 * t, 45.0 + (i % 3) as f64 * 3.0]),
                1 => json!([
                    -180.0 + 360.0 * (i % 2) as f64,
                    -90.0 + i as f64 * 180.0 / n as f64
                ]),
                2 => json!([1e308 * if i % 2 == 0 { 1.0 } else { -1.0 }, 91.0]),
                3 => json!([numberish(rng), numberish(rng)]),
                _ => json!([0, 0]),
            }
        })
        .collect();
    if let Some(first) = pts.first().cloned() {
        pts.push(first);
    }
    json!(pts)
}

fn geo(rng: &mut Rng, kind: &str, n: usize) -> Value {
    let features = n.clamp(1, 2_000);
    let points = (n / features).max(1);
    let feature = |rng: &mut Rng, i: usize| {
        let geometry = match rng.int(0, 5) {
            0 => {
                json!({"type": "MultiPolygon", "coordinates": [[ring(rng, points)], [ring(rng, 3)]]})
            }
            1 => json!({"type": "Polygon", "coordinates": []}),
            2 => json!({"type": "GeometryCollection", "geometries": [
                {"type": "Polygon", "coordinates": [ring(rng, points)]},
                {"type": "GeometryCollection", "geometries": []}]}),
            3 => json!({"type": "LineString", "coordinates": ring(rng, points)}),
            _ => json!({"type": "Polygon", "coordinates": [ring(rng, points), ring(rng, 4)]}),
        };
        json!({"type": "Feature", "properties": {"name": format!("f{i}")}, "geometry": geometry})
    };
    let outline = if rng.chance(0.5) {
        json!({"type": "FeatureCollection",
               "features": (0..features.min(50)).map(|i| feature(rng, i)).collect::<Vec<_>>()})
    } else {
        feature(rng, 0)
    };
    let data: Vec<Value> = (0..features)
        .map(|i| {
            if kind == "choropleth" {
                json!({"feature": feature(rng, i), "value": numberish(rng)})
            } else {
                json!({"longitude": numberish(rng), "latitude": numberish(rng), "value": numberish(rng)})
            }
        })
        .collect();
    let projection = rng.pick(&[
        "mercator",
        "equalEarth",
        "albersUsa",
        "naturalEarth1",
        "orthographic",
        "unknown",
    ]);
    json!({"type": kind, "data": {"labels": (0..features).map(|i| format!("f{i}")).collect::<Vec<_>>(),
        "datasets": [{"outline": outline, "showOutline": true, "data": data}]},
        "options": {"scales": {"projection": {"axis": "x", "projection": projection,
            "projectionScale": number(rng), "projectionOffset": [number(rng), number(rng)],
            "padding": number(rng)},
            "color": {"axis": "x", "quantize": number(rng)},
            "size": {"axis": "x", "range": [number(rng), number(rng)]}}}})
}

fn graph(rng: &mut Rng, kind: &str, n: usize) -> Value {
    let shape = rng.pick(&["chain", "cycle", "self", "star", "random", "broken"]);
    let nodes: Vec<Value> = (0..n)
        .map(|i| match (kind, shape) {
            ("forceDirectedGraph", _) => json!({"x": numberish(rng), "y": numberish(rng)}),
            (_, "chain") if i > 0 => json!({"parent": i - 1}),
            (_, "cycle") => json!({"parent": (i + 1) % n}),
            (_, "self") => json!({"parent": i}),
            (_, "star") if i > 0 => json!({"parent": 0}),
            (_, "broken") => json!({"parent": reference(rng, n)}),
            (_, _) if i > 0 => json!({"parent": rng.int(0, i as i64 - 1)}),
            _ => json!({}),
        })
        .collect();
    let edges: Vec<Value> = (0..n.min(100_000))
        .map(|i| match shape {
            "chain" => json!({"source": i, "target": i + 1}),
            "self" => json!({"source": i, "target": i}),
            "star" => json!({"source": 0, "target": i}),
            "broken" => json!({"source": reference(rng, n), "target": reference(rng, n)}),
            _ => json!({"source": rng.int(0, n as i64 - 1), "target": rng.int(0, n as i64 - 1)}),
        })
        .collect();
    let mut ds = json!({"data": nodes, "pointRadius": number(rng)});
    if kind == "forceDirectedGraph" {
        ds["edges"] = json!(edges);
        ds["simulation"] = json!({"initialIterations": number(rng), "autoRestart": false,
            "forces": {"center": {"x": number(rng)}, "collide": {"radius": number(rng)},
                       "link": {"distance": number(rng)}, "manyBody": {"strength": number(rng)}}});
    } else {
        ds["tree"] = json!({"orientation": rng.pick(&["horizontal", "vertical", "radial"]),
                            "mode": rng.pick(&["dendrogram", "tree"])});
    }
    json!({"type": kind, "data": {"labels": (0..n).map(|i| format!("n{i}")).collect::<Vec<_>>(),
        "datasets": [ds]}})
}

fn venn(rng: &mut Rng, kind: &str, n: usize) -> Value {
    let sets = n.min(if kind == "venn" { 6 } else { 2_000 }).max(1);
    let mut data: Vec<Value> = (0..sets)
        .map(|i| json!({"sets": [format!("s{i}")], "value": numberish(rng)}))
        .collect();
    for i in 0..n.min(5_000) {
        let k = rng.int(2, sets.clamp(2, 40) as i64) as usize;
        let members: Vec<String> = (0..k)
            .map(|j| format!("s{}", (i + j) % (sets + 1)))
            .collect();
        data.push(json!({"sets": members, "value": numberish(rng)}));
    }
    let labels: Vec<String> = (0..data.len()).map(|i| format!("r{i}")).collect();
    json!({"type": kind, "data": {"labels": labels, "datasets": [{"data": data}]}})
}

fn matrix(rng: &mut Rng, n: usize) -> Value {
    let side = (n as f64).sqrt().ceil() as usize;
    let data: Vec<Value> = (0..n)
        .map(|i| {
            if rng.chance(0.1) {
                json!({"x": numberish(rng), "y": numberish(rng), "v": numberish(rng)})
            } else {
                json!({"x": i % side.max(1), "y": i / side.max(1), "v": numberish(rng)})
            }
        })
        .collect();
    json!({"type": "matrix", "data": {"datasets": [{"data": data,
        "width": number(rng), "height": number(rng), "borderWidth": number(rng),
        "anchorX": rng.pick(&["left", "center", "right", "nope"]),
        "borderRadius": number(rng)}]},
        "options": {"scales": {"x": {"type": rng.pick(&["linear", "category", "time"])},
                               "y": {"type": "linear", "offset": true}}}})
}
