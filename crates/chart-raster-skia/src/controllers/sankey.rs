//! Sankey controller of chartjs-chart-sankey 0.19.1: nodes placed in columns (`calculateX`),
//! stacked in each column (`calculateY` or by `priority`), padded (`addPadding`), then flows
//! drawn as cubic bands between the columns with a `colorFrom` → `colorTo` gradient, nodes as
//! rectangles and their labels beside them.
//!
//! The layout works in flow units: x is the column, y the cumulated flow; the hidden linear
//! scales map both to pixels.

use super::{Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::{Area, Ctx, StrokeStyle, P};
use crate::scales::Scale;
use crate::scene::{Paint, TextAlign, TextBaseline};
use chart_spec::model::{Dataset, Raw};
use chart_spec::model::{PluginDataset, SankeyFlow, SankeyOptions};
use chart_spec::scopes::{to_number, truthy};
use chart_spec::values::Font;
use chart_spec::Rgba;
use serde_json::Value;
use std::collections::HashSet;

const SMALL_VALUE: f64 = 1e-6;

/// One end of a flow as a node sees it.
#[derive(Debug, Clone)]
struct Edge {
    add_y: f64,
    flow: f64,
    index: usize,
    key: String,
    node: usize,
}

/// A node (`buildNodesFromData`).
#[derive(Debug, Clone)]
pub struct Node {
    /// Key.
    pub key: String,
    from: Vec<Edge>,
    to: Vec<Edge>,
    /// Inflow.
    pub inflow: f64,
    /// Outflow.
    pub outflow: f64,
    /// `size`.
    pub size: f64,
    /// Column.
    pub x: Option<f64>,
    /// Position in flow units.
    pub y: Option<f64>,
    priority: Option<f64>,
    column: bool,
    /// Fill colour (the last flow's `colorFrom`/`colorTo` at this node).
    pub color: Option<Rgba>,
}

fn nx(n: &Node) -> f64 {
    n.x.unwrap_or(0.0)
}
fn ny(n: &Node) -> f64 {
    n.y.unwrap_or(0.0)
}
fn or(a: f64, b: f64) -> f64 {
    if a != 0.0 && !a.is_nan() {
        a
    } else {
        b
    }
}

/// The whole layout.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// Nodes in `Map` insertion order.
    pub nodes: Vec<Node>,
    /// Last column.
    pub max_x: f64,
    /// Height in flow units, padding included.
    pub max_y: f64,
}

impl Layout {
    fn idx(&self, key: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.key == key)
    }
}

fn flow_sort(a: &Edge, b: &Edge) -> std::cmp::Ordering {
    if a.flow == b.flow {
        a.index.cmp(&b.index)
    } else {
        b.flow
            .partial_cmp(&a.flow)
            .unwrap_or(std::cmp::Ordering::Equal)
    }
}

/// `resolveNodeOption`: an object is a map by node key.
fn node_opt<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    match v? {
        Value::Object(m) => m.get(key),
        Value::Null => None,
        v => Some(v),
    }
}

fn build_nodes(o: &SankeyOptions) -> Layout {
    let mut l = Layout::default();
    for (i, f) in o.flows.iter().enumerate() {
        let fi = match l.idx(&f.from) {
            Some(i) => i,
            None => {
                l.nodes.push(new_node(&f.from));
                l.nodes.len() - 1
            }
        };
        let ti = match l.idx(&f.to) {
            Some(i) => i,
            None => {
                l.nodes.push(new_node(&f.to));
                l.nodes.len() - 1
            }
        };
        l.nodes[fi].outflow += f.flow;
        l.nodes[fi].to.push(Edge {
            add_y: 0.0,
            flow: f.flow,
            index: i,
            key: f.to.clone(),
            node: ti,
        });
        l.nodes[ti].inflow += f.flow;
        l.nodes[ti].from.push(Edge {
            add_y: 0.0,
            flow: f.flow,
            index: i,
            key: f.from.clone(),
            node: fi,
        });
    }
    for n in l.nodes.iter_mut() {
        n.from.sort_by(flow_sort);
        n.to.sort_by(flow_sort);
        let (a, b) = (or(n.inflow, n.outflow), or(n.outflow, n.inflow));
        n.size = if o.size_min { a.min(b) } else { a.max(b) };
        if let Some(p) = o.priority.as_ref().and_then(|p| p.get(&n.key)) {
            n.priority = Some(to_number(p));
        }
        if let Some(c) = o.column.as_ref().and_then(|c| c.get(&n.key)) {
            n.column = true;
            n.x = Some(to_number(c));
        }
    }
    l
}

fn new_node(key: &str) -> Node {
    Node {
        key: key.to_string(),
        from: Vec::new(),
        to: Vec::new(),
        inflow: 0.0,
        outflow: 0.0,
        size: 0.0,
        x: None,
        y: None,
        priority: None,
        column: false,
        color: None,
    }
}

fn keys_forward(
    nodes: &[Node],
    list: &[usize],
    visited: &mut HashSet<usize>,
    out: &mut Vec<usize>,
) {
    for &n in list {
        if !visited.insert(n) {
            continue;
        }
        out.push(n);
        let next: Vec<usize> = nodes[n].to.iter().map(|e| e.node).collect();
        keys_forward(nodes, &next, visited, out);
    }
}

/// `calculateX`: columns from the sources forward; with `modeX: 'edge'` every sink goes to
/// the last column.
fn calculate_x(l: &mut Layout, o: &SankeyOptions) -> f64 {
    let flows: Vec<(usize, usize)> = o
        .flows
        .iter()
        .filter_map(|f| Some((l.idx(&f.from)?, l.idx(&f.to)?)))
        .collect();
    let mut remaining: Vec<usize> = (0..l.nodes.len()).collect();
    let mut x = 0.0;
    let mut guard = 0;
    while !remaining.is_empty() && guard <= l.nodes.len() + 1 {
        guard += 1;
        let column: Vec<usize> = if x == 0.0 {
            let start: Vec<usize> = (0..l.nodes.len())
                .filter(|&i| l.nodes[i].from.is_empty())
                .collect();
            let mut col = start.clone();
            let mut refd = Vec::new();
            keys_forward(&l.nodes, &start, &mut HashSet::new(), &mut refd);
            let mut referenced: HashSet<usize> = refd.into_iter().collect();
            for &(f, t) in &flows {
                if !referenced.contains(&f) && !referenced.contains(&t) {
                    col.push(f);
                    referenced.insert(f);
                }
                referenced.insert(t);
            }
            col
        } else {
            let rem: HashSet<usize> = remaining.iter().copied().collect();
            let to: HashSet<usize> = flows
                .iter()
                .filter(|(f, t)| f != t && rem.contains(f))
                .map(|(_, t)| *t)
                .collect();
            let not_in: Vec<usize> = remaining
                .iter()
                .copied()
                .filter(|k| !to.contains(k))
                .collect();
            if not_in.is_empty() {
                remaining.iter().copied().take(1).collect()
            } else {
                not_in
            }
        };
        if column.is_empty() {
            break;
        }
        for k in column {
            if l.nodes[k].x.is_none() {
                l.nodes[k].x = Some(x);
            }
            remaining.retain(|r| *r != k);
        }
        if !remaining.is_empty() {
            x += 1.0;
        }
    }
    let max_x = l.nodes.iter().map(nx).fold(0.0, f64::max);
    if o.mode_x == "edge" {
        let from: HashSet<usize> = flows.iter().map(|(f, _)| *f).collect();
        for (i, n) in l.nodes.iter_mut().enumerate() {
            if !from.contains(&i) && !n.column {
                n.x = Some(max_x);
            }
        }
    }
    max_x
}

fn node_count(nodes: &[Node], list: &[Edge], from: bool, seen: &mut HashSet<usize>) -> usize {
    let mut count = 0;
    for e in list {
        if !seen.insert(e.node) {
            continue;
        }
        let next = if from {
            &nodes[e.node].from
        } else {
            &nodes[e.node].to
        };
        count += next.len() + node_count(nodes, next, from, seen);
    }
    count
}

/// Sorts a node's `from` or `to` list with `flowByNodeCount`.
fn sort_by_count(nodes: &mut [Node], n: usize, from: bool) {
    let mut list = if from {
        std::mem::take(&mut nodes[n].from)
    } else {
        std::mem::take(&mut nodes[n].to)
    };
    {
        let nodes_ref: &[Node] = nodes;
        let side = |e: &Edge| {
            if from {
                &nodes_ref[e.node].from
            } else {
                &nodes_ref[e.node].to
            }
        };
        let mut keyed: Vec<(i64, i64, Edge)> = list
            .drain(..)
            .map(|e| {
                let s = side(&e);
                let c = node_count(nodes_ref, s, from, &mut HashSet::new()) as i64;
                (c, s.len() as i64, e)
            })
            .collect();
        keyed.sort_by(|a, b| (a.0 - b.0).cmp(&0).then((a.1 - b.1).cmp(&0)));
        list = keyed.into_iter().map(|(_, _, e)| e).collect();
    }
    if from {
        nodes[n].from = list;
    } else {
        nodes[n].to = list;
    }
}

fn process_from(nodes: &mut [Node], n: usize, mut y: f64) -> f64 {
    if nodes[n].from.is_empty() {
        return y;
    }
    sort_by_count(nodes, n, true);
    let list: Vec<usize> = nodes[n].from.iter().map(|e| e.node).collect();
    for m in list {
        if nodes[m].y.is_none() {
            nodes[m].y = Some(y);
            process_from(nodes, m, if y != 0.0 { y + SMALL_VALUE } else { 0.0 });
        }
        y = (ny(&nodes[m]) + nodes[m].outflow).max(y);
    }
    ny(&nodes[n]) + nodes[n].size
}

fn process_to(nodes: &mut [Node], n: usize, mut y: f64) -> f64 {
    if nodes[n].to.is_empty() {
        return y;
    }
    sort_by_count(nodes, n, false);
    let list: Vec<(usize, f64)> = nodes[n].to.iter().map(|e| (e.node, e.flow)).collect();
    for (i, &(m, flow)) in list.iter().enumerate() {
        if nodes[m].y.is_none() {
            nodes[m].y = Some(y);
            process_to(nodes, m, if y != 0.0 { y + SMALL_VALUE } else { 0.0 });
        }
        let nearer = list
            .get(i + 1)
            .is_some_and(|&(next, _)| nx(&nodes[next]) < nx(&nodes[m]));
        if nearer {
            y += flow;
        } else {
            y = (ny(&nodes[m]) + nodes[m].inflow.max(nodes[m].outflow)).max(y);
        }
    }
    ny(&nodes[n]) + nodes[n].size
}

fn set_or_get_y(n: &mut Node, v: f64) -> f64 {
    match n.y {
        Some(y) => y,
        None => {
            n.y = Some(v);
            v
        }
    }
}

fn js_or0(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v
    }
}

fn process_rest(nodes: &mut [Node], max_x: f64) -> f64 {
    let all: Vec<usize> = (0..nodes.len()).collect();
    let left: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| nodes[i].x == Some(0.0))
        .collect();
    let right: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| nodes[i].x == Some(max_x))
        .collect();
    let left_todo: Vec<usize> = left
        .iter()
        .copied()
        .filter(|&i| nodes[i].y.is_none())
        .collect();
    let right_todo: Vec<usize> = right
        .iter()
        .copied()
        .filter(|&i| nodes[i].y.is_none())
        .collect();
    let center_todo: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| nx(&nodes[i]) > 0.0 && nx(&nodes[i]) < max_x && nodes[i].y.is_none())
        .collect();
    let mut left_y = left.iter().fold(0.0, |acc: f64, &i| {
        acc.max(js_or0(ny(&nodes[i]) + nodes[i].outflow))
    }) + SMALL_VALUE;
    let mut right_y = right.iter().fold(0.0, |acc: f64, &i| {
        acc.max(js_or0(ny(&nodes[i]) + nodes[i].inflow))
    }) + SMALL_VALUE;
    let mut center_y: f64 = 0.0;
    if left_y >= right_y {
        for &n in &left_todo {
            left_y = set_or_get_y(&mut nodes[n], left_y);
            let p = process_to(nodes, n, left_y);
            left_y = (left_y + nodes[n].outflow).max(p);
        }
    } else {
        for &n in &left_todo {
            left_y = set_or_get_y(&mut nodes[n], left_y);
        }
    }
    for &n in &right_todo {
        right_y = set_or_get_y(&mut nodes[n], right_y);
        let p = process_from(nodes, n, right_y);
        right_y = (right_y + nodes[n].inflow).max(p);
    }
    for &n in &center_todo {
        let x = nx(&nodes[n]);
        let mut y = nodes
            .iter()
            .filter(|m| nx(m) == x && m.y.is_some())
            .fold(0.0, |acc: f64, m| acc.max(ny(m) + m.inflow.max(m.outflow)));
        y = set_or_get_y(&mut nodes[n], y);
        let p = process_from(nodes, n, y);
        y = (y + nodes[n].inflow).max(p);
        let p = process_to(nodes, n, y);
        y = (y + nodes[n].outflow).max(p);
        center_y = center_y.max(y);
    }
    left_y.max(right_y).max(center_y)
}

fn by_y(nodes: &[Node], a: usize, b: usize) -> std::cmp::Ordering {
    (ny(&nodes[a]) - ny(&nodes[b]))
        .partial_cmp(&0.0)
        .unwrap_or(std::cmp::Ordering::Equal)
}

fn fix_top(nodes: &mut [Node], max_x: f64) -> f64 {
    let mut max_y: f64 = 0.0;
    let mut x = 0.0;
    while x <= max_x {
        let mut col: Vec<usize> = (0..nodes.len()).filter(|&i| nx(&nodes[i]) == x).collect();
        col.sort_by(|&a, &b| by_y(nodes, a, b));
        let mut min_y = 0.0;
        for n in col {
            if ny(&nodes[n]) < min_y {
                nodes[n].y = Some(min_y);
            }
            min_y = ny(&nodes[n]) + nodes[n].size;
        }
        max_y = max_y.max(min_y);
        x += 1.0;
    }
    max_y
}

fn find_start(nodes: &[Node], max_x: f64) -> usize {
    let size = nodes
        .iter()
        .map(|n| n.size)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut biggest: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].size == size)
        .collect();
    let Some(&first) = biggest.first() else {
        return 0;
    };
    if biggest.len() == 1 {
        return first;
    }
    biggest.sort_by(|&a, &b| {
        (nx(&nodes[a]) - nx(&nodes[b]))
            .partial_cmp(&0.0)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    if nx(&nodes[first]) == 0.0 {
        return first;
    }
    let last = biggest[biggest.len() - 1];
    if nx(&nodes[last]) == max_x {
        return last;
    }
    biggest[biggest.len() / 2]
}

fn calculate_y(nodes: &mut [Node], max_x: f64) -> f64 {
    if nodes.is_empty() {
        return 0.0;
    }
    let start = find_start(nodes, max_x);
    nodes[start].y = Some(0.0);
    process_from(nodes, start, 0.0);
    process_to(nodes, start, 0.0);
    process_rest(nodes, max_x);
    fix_top(nodes, max_x)
}

fn calculate_y_priority(nodes: &mut [Node], max_x: f64) -> f64 {
    let mut max_y: f64 = 0.0;
    let mut next_start = 0.0;
    let mut x = 0.0;
    while x <= max_x {
        let mut y = next_start;
        let mut col: Vec<usize> = (0..nodes.len()).filter(|&i| nx(&nodes[i]) == x).collect();
        col.sort_by(|&a, &b| {
            (nodes[a].priority.unwrap_or(0.0) - nodes[b].priority.unwrap_or(0.0))
                .partial_cmp(&0.0)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if let Some(&first) = col.first() {
            let next_x = nodes
                .iter()
                .filter(|n| nx(n) > x)
                .fold(f64::INFINITY, |m, n| m.min(nx(n)));
            next_start = js_or0(
                nodes[first]
                    .to
                    .iter()
                    .filter(|e| nx(&nodes[e.node]) > next_x)
                    .map(|e| e.flow)
                    .sum(),
            );
        }
        for n in col {
            nodes[n].y = Some(y);
            y += nodes[n].outflow.max(nodes[n].inflow);
        }
        max_y = max_y.max(y);
        x += 1.0;
    }
    max_y
}

#[derive(Default, Clone)]
struct GapState {
    last_after: f64,
    last_extra_half: f64,
    real_count: f64,
    real_cum_offset: f64,
    y_history: Vec<f64>,
}

/// `resolveNodeGap`: a number, or `{before, after}`, per node key when an object.
fn node_gap(o: &SankeyOptions, key: &str) -> (f64, f64) {
    let v = match &o.node_padding {
        Value::Object(m) => m.get(key),
        v => Some(v),
    };
    match v {
        Some(Value::Object(g)) => {
            let n = |k: &str| g.get(k).map(to_number).unwrap_or(10.0);
            (n("before"), n("after"))
        }
        Some(v) if v.is_number() => (to_number(v), to_number(v)),
        _ => (10.0, 10.0),
    }
}

fn node_min_size(o: &SankeyOptions, key: &str) -> f64 {
    node_opt(Some(&o.node_min_size), key)
        .map(to_number)
        .filter(|n| n.is_finite())
        .unwrap_or(0.0)
}

/// `addPadding`: spreads the nodes of each column apart by `nodePadding` (in flow units:
/// `scale` is flow units per pixel).
fn add_padding(l: &mut Layout, o: &SankeyOptions, order: &[usize], scale: f64) -> f64 {
    let mut max_y: f64 = 0.0;
    let nodes = &mut l.nodes;
    let extra_half = |n: &Node| ((node_min_size(o, &n.key) * scale) - n.size).max(0.0) / 2.0;
    let stretched = |n: &Node| n.size.max(node_min_size(o, &n.key) * scale);
    if o.node_padding_mode == "even" {
        let mut column_x: Option<f64> = None;
        let mut prev: Option<(usize, (f64, f64), f64)> = None;
        for &n in order {
            let x = nx(&nodes[n]);
            let gap = node_gap(o, &nodes[n].key);
            let eh = extra_half(&nodes[n]);
            if column_x != Some(x) {
                column_x = Some(x);
            } else if let Some((p, pg, peh)) = prev {
                nodes[n].y =
                    Some(ny(&nodes[p]) + nodes[p].size + pg.1.max(gap.0) * scale + peh + eh);
            }
            prev = Some((n, gap, eh));
            let h = stretched(&nodes[n]);
            let nn = &nodes[n];
            max_y = max_y
                .max(ny(nn) + nn.inflow.max(nn.outflow))
                .max(ny(nn) + (nn.size + h) / 2.0);
        }
        return max_y;
    }
    let mut cols: Vec<f64> = Vec::new();
    let mut grid: Vec<GapState> = Vec::new();
    for &n in order {
        let x = nx(&nodes[n]);
        let ci = match cols.iter().position(|c| *c == x) {
            Some(i) => i,
            None => {
                cols.push(x);
                grid.push(GapState::default());
                grid.len() - 1
            }
        };
        let (before, after) = node_gap(o, &nodes[n].key);
        let y = ny(&nodes[n]);
        let eh = extra_half(&nodes[n]);
        if y != 0.0 {
            grid[ci].y_history.push(y);
            let mut paddings = grid[ci].y_history.len();
            if nodes[n].inflow != 0.0 {
                for col in grid.iter().take(ci) {
                    for (row, h) in col.y_history.iter().enumerate() {
                        if *h > y {
                            break;
                        }
                        paddings = paddings.max(row + 1);
                    }
                }
                while grid[ci].y_history.len() < paddings {
                    grid[ci].y_history.push(y);
                }
            }
            // offsetForNode
            let st = &mut grid[ci];
            let above = st.real_count;
            let b = before * scale;
            let a = after * scale;
            let transition = if above > 0.0 {
                st.last_after.max(b) + st.last_extra_half + eh
            } else {
                0.0
            };
            let cum = st.real_cum_offset + transition;
            let virtual_levels = paddings as f64 - above;
            st.real_count = above + 1.0;
            st.real_cum_offset = cum;
            st.last_after = a;
            st.last_extra_half = eh;
            nodes[n].y = Some(y + cum + virtual_levels * b);
        } else {
            let st = &mut grid[ci];
            st.real_count += 1.0;
            st.last_after = after * scale;
            st.last_extra_half = eh;
        }
        let h = stretched(&nodes[n]);
        let nn = &nodes[n];
        max_y = max_y
            .max(ny(nn) + nn.inflow.max(nn.outflow))
            .max(ny(nn) + (nn.size + h) / 2.0);
    }
    max_y
}

/// `sortFlows`: where each flow leaves and enters its nodes.
fn sort_flows(nodes: &mut [Node]) {
    for n in 0..nodes.len() {
        for from in [true, false] {
            let mut list = if from {
                std::mem::take(&mut nodes[n].from)
            } else {
                std::mem::take(&mut nodes[n].to)
            };
            let size = nodes[n].size;
            let overlap = if from {
                size < nodes[n].inflow
            } else {
                size < nodes[n].outflow
            };
            let mid = |e: &Edge| {
                let m = &nodes[e.node];
                ny(m) + if from { m.outflow } else { m.inflow } / 2.0
            };
            list.sort_by(|a, b| {
                (mid(a) - mid(b))
                    .partial_cmp(&0.0)
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            let len = list.len() as f64;
            let mut add = 0.0;
            for (i, e) in list.iter_mut().enumerate() {
                if overlap {
                    e.add_y = i as f64 * (size - e.flow) / (len - 1.0);
                } else {
                    e.add_y = add;
                    add += e.flow;
                }
            }
            if from {
                nodes[n].from = list;
            } else {
                nodes[n].to = list;
            }
        }
    }
}

/// The plugin's `layout(nodes, data, options)`; `height` is the canvas height (width when
/// vertical).
pub fn layout(o: &SankeyOptions, height: f64) -> Layout {
    let mut l = build_nodes(o);
    let max_x = calculate_x(&mut l, o);
    let max_y = if o.priority.is_some() {
        calculate_y_priority(&mut l.nodes, max_x)
    } else {
        calculate_y(&mut l.nodes, max_x)
    };
    let scale = max_y / height;
    // `nodeArray.sort(nodeByXYSize)`.
    let mut order: Vec<usize> = (0..l.nodes.len()).collect();
    order.sort_by(|&a, &b| {
        let (na, nb) = (&l.nodes[a], &l.nodes[b]);
        let d = if nx(na) != nx(nb) {
            nx(na) - nx(nb)
        } else if ny(na) == ny(nb) {
            na.size - nb.size
        } else {
            ny(na) - ny(nb)
        };
        d.partial_cmp(&0.0).unwrap_or(std::cmp::Ordering::Equal)
    });
    l.max_y = add_padding(&mut l, o, &order, scale);
    sort_flows(&mut l.nodes);
    l.max_x = max_x;
    l
}

/// One flow in pixels.
#[derive(Debug, Clone)]
pub struct FlowEl {
    /// Start x (after the source node).
    pub x: f64,
    /// Start y.
    pub y: f64,
    /// End x (before the target node).
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// Band thickness (horizontal) .
    pub height: f64,
    /// Band thickness (vertical).
    pub width: f64,
    /// The flow's options.
    pub flow: SankeyFlow,
    from: usize,
    to: usize,
}

/// `SankeyController`.
#[derive(Default)]
pub struct SankeyController {
    /// The layout after `parse`.
    pub layout: Layout,
    /// The flows after `update`.
    pub flows: Vec<FlowEl>,
    /// Node rectangles after `update`: (x, y, width, height).
    pub node_rects: Vec<(f64, f64, f64, f64)>,
    /// Per flow: (from y, to y) in flow units.
    ends: Vec<Option<(f64, f64)>>,
    column_padding: f64,
    area: Area,
}

fn options(ds: &Dataset) -> Option<&SankeyOptions> {
    match &ds.plugin {
        Some(PluginDataset::Sankey(s)) => Some(s),
        _ => None,
    }
}

/// `toTextLines`.
fn text_lines(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => s.split('\n').map(String::from).collect(),
        Value::Array(a) => a.iter().flat_map(text_lines).collect(),
        Value::Null | Value::Bool(false) => Vec::new(),
        v => {
            if truthy(v) {
                vec![Raw::from_json(v).to_js_string()]
            } else {
                Vec::new()
            }
        }
    }
}

/// What `drawLabel` needs besides the text.
struct LabelBox<'a> {
    position: &'a str,
    auto: &'a str,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    border_width: f64,
    padding: f64,
    line_offset: f64,
    font: &'a Font,
    color: Rgba,
    background: Option<Rgba>,
    border_radius: f64,
}

/// `drawLabel` of the plugin.
fn draw_label(ctx: &mut Ctx<'_>, lines: &[String], b: &LabelBox<'_>) {
    if lines.is_empty() {
        return;
    }
    let position = if b.position == "auto" {
        b.auto
    } else {
        b.position
    };
    let lh = b.font.line_height;
    let text_w = lines
        .iter()
        .map(|l| ctx.measure(b.font, l))
        .fold(f64::NEG_INFINITY, f64::max);
    let total = lh * lines.len() as f64;
    let (mut align, mut tx, mut ty) =
        (TextAlign::Center, b.x + b.width / 2.0, b.y + b.height / 2.0);
    match position {
        "left" => {
            align = TextAlign::Right;
            tx = b.x - b.border_width - b.padding;
        }
        "right" => {
            align = TextAlign::Left;
            tx = b.x + b.width + b.border_width + b.padding;
        }
        "top" => ty = b.y - b.padding - total / 2.0,
        "bottom" => ty = b.y + b.height + b.padding + total / 2.0,
        _ => {}
    }
    let bg_w = text_w + b.padding * 2.0;
    let bg_h = total + b.padding * 2.0;
    let bg_x = match align {
        TextAlign::Left => tx - b.padding,
        TextAlign::Right => tx - text_w - b.padding,
        TextAlign::Center => tx - bg_w / 2.0,
    };
    let first = if lines.len() == 1 {
        ty
    } else {
        ty - total / 2.0 + b.line_offset
    };
    let center = first + (lines.len() as f64 - 1.0) * lh / 2.0;
    if let Some(bg) = b.background {
        let r = b.border_radius.min(bg_w / 2.0).min(bg_h / 2.0).max(0.0);
        let (x, y) = (bg_x as f32, (center - bg_h / 2.0) as f32);
        let (w, h, r) = (bg_w as f32, bg_h as f32, r as f32);
        let mut path = crate::scene::Path::new();
        if r > 0.0 {
            // The plugin's own `addRoundedRectPath`, with quadratic corners.
            path.move_to(x + r, y);
            path.line_to(x + w - r, y);
            path.quad_to(x + w, y, x + w, y + r);
            path.line_to(x + w, y + h - r);
            path.quad_to(x + w, y + h, x + w - r, y + h);
            path.line_to(x + r, y + h);
            path.quad_to(x, y + h, x, y + h - r);
            path.line_to(x, y + r);
            path.quad_to(x, y, x + r, y);
            path.close();
        } else {
            path.rect(x, y, w, h);
        }
        let p = P::from(path);
        ctx.fill(&p, bg);
    }
    for (i, l) in lines.iter().enumerate() {
        ctx.fill_text(
            l,
            tx,
            first + i as f64 * lh,
            b.font,
            b.color,
            align,
            TextBaseline::Middle,
            None,
        );
    }
}

/// `color(c).alpha(a)`: the colour with its alpha replaced.
fn with_alpha(c: Rgba, alpha: f64) -> Rgba {
    Rgba {
        a: (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
        ..c
    }
}

impl SankeyController {
    fn col_pixel(&self, s: &Scale, v: f64) -> f64 {
        let p = s.pixel_for_value(v);
        if self.layout.max_x != 0.0 {
            p - v / self.layout.max_x * self.column_padding
        } else {
            p
        }
    }
}

impl Controller for SankeyController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], _labels: &[Raw]) {
        meta.parsed.clear();
        let Some(o) = options(ds) else { return };
        let (cw, ch) = scales
            .first()
            .map(|s| (s.core.chart_width, s.core.chart_height))
            .unwrap_or((0.0, 0.0));
        self.layout = layout(o, if o.vertical { cw } else { ch });
        let l = &self.layout;
        self.ends = o
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (fi, ti) = (l.idx(&f.from)?, l.idx(&f.to)?);
                let add = |list: &[Edge], key: &str| {
                    list.iter()
                        .find(|e| e.key == key && e.index == i)
                        .map(|e| e.add_y)
                        .unwrap_or(0.0)
                };
                Some((
                    ny(&l.nodes[fi]) + add(&l.nodes[fi].to, &f.to),
                    ny(&l.nodes[ti]) + add(&l.nodes[ti].from, &f.from),
                ))
            })
            .collect();
        // `getMinMax`: the column scale spans 0..maxX, the other 0..maxY.
        let (cx, cy) = (l.max_x, l.max_y);
        let (x, y) = if o.vertical { (cy, cx) } else { (cx, cy) };
        meta.parsed.push(Parsed {
            x: Some(0.0),
            y: Some(0.0),
            ..Parsed::default()
        });
        meta.parsed.push(Parsed {
            x: Some(x),
            y: Some(y),
            ..Parsed::default()
        });
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.flows.clear();
        self.node_rects.clear();
        self.area = cx.area;
        let Some(o) = options(ds) else { return };
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        let (chart_w, chart_h) = (xs.core.chart_width, xs.core.chart_height);
        let trailing = if o.vertical {
            chart_h - cx.area.bottom
        } else {
            chart_w - cx.area.right
        };
        self.column_padding = (o.node_width + 3.0 - trailing).max(0.0);
        let border_space = if o.border_width != 0.0 {
            o.border_width / 2.0 + 0.5
        } else {
            0.0
        };
        let (cs, vs) = if o.vertical { (ys, xs) } else { (xs, ys) };
        for (i, f) in o.flows.iter().enumerate() {
            let Some(Some((fy, ty))) = self.ends.get(i).copied() else {
                continue;
            };
            let (Some(fi), Some(ti)) = (self.layout.idx(&f.from), self.layout.idx(&f.to)) else {
                continue;
            };
            let (fx, tx) = (nx(&self.layout.nodes[fi]), nx(&self.layout.nodes[ti]));
            let v = vs.pixel_for_value(fy);
            let thick = (vs.pixel_for_value(fy + f.flow) - v).abs();
            let c1 = self.col_pixel(cs, fx) + o.node_width + border_space;
            let c2 = self.col_pixel(cs, tx) - border_space;
            let v2 = vs.pixel_for_value(ty);
            let el = if o.vertical {
                FlowEl {
                    x: v,
                    y: c1,
                    x2: v2,
                    y2: c2,
                    height: 0.0,
                    width: thick,
                    flow: f.clone(),
                    from: fi,
                    to: ti,
                }
            } else {
                FlowEl {
                    x: c1,
                    y: v,
                    x2: c2,
                    y2: v2,
                    height: thick,
                    width: 0.0,
                    flow: f.clone(),
                    from: fi,
                    to: ti,
                }
            };
            self.flows.push(el);
        }
        for n in &self.layout.nodes {
            let (a, b) = (or(n.inflow, n.outflow), or(n.outflow, n.inflow));
            let size = if o.size_min { a.min(b) } else { a.max(b) };
            let min_size = node_min_size(o, &n.key);
            let p1 = vs.pixel_for_value(ny(n));
            let p2 = vs.pixel_for_value(ny(n) + size);
            let lo = p1.min(p2);
            let natural = (p2 - p1).abs();
            let len = natural.max(min_size);
            let c = self.col_pixel(cs, nx(n));
            self.node_rects.push(if o.vertical {
                (lo - (len - natural) / 2.0, c, len, o.node_width)
            } else {
                (c, lo - (len - natural) / 2.0, o.node_width, len)
            });
        }
    }

    fn draw(&mut self, ctx: &mut Ctx<'_>, ds: &Dataset, _meta: &Meta, _area: &Area) {
        let Some(o) = options(ds) else { return };
        // Node colours: each flow paints its ends, later flows win.
        for n in self.layout.nodes.iter_mut() {
            n.color = None;
        }
        for f in &self.flows {
            self.layout.nodes[f.from].color = Some(f.flow.color_from);
            self.layout.nodes[f.to].color = Some(f.flow.color_to);
        }
        // _drawNodes
        for (n, &(x, y, w, h)) in self.layout.nodes.iter().zip(&self.node_rects) {
            if o.border_width != 0.0 {
                let mut p = P::new();
                p.rect(x, y, w, h);
                let color = o
                    .border_color
                    .filter(|_| o.border_width != 0.0)
                    .unwrap_or(Rgba::rgb(0, 0, 0));
                ctx.stroke(&p, &StrokeStyle::new(o.border_width, color));
            }
            ctx.fill_rect(x, y, w, h, n.color.unwrap_or(Rgba::rgb(0, 0, 0)));
        }
        // Flows.
        for f in &self.flows {
            draw_flow(ctx, f, o.vertical);
        }
        // _drawLabels
        let nl = &o.node_labels;
        let area = self.area;
        for (n, &(x, y, w, h)) in self.layout.nodes.iter().zip(&self.node_rects) {
            let display = node_opt(nl.get("display"), &n.key)
                .map(truthy)
                .unwrap_or(true);
            if !display {
                continue;
            }
            let label = o
                .labels
                .as_ref()
                .and_then(|l| l.get(&n.key))
                .filter(|v| !v.is_null())
                .cloned()
                .unwrap_or_else(|| Value::String(n.key.clone()));
            let color = node_opt(nl.get("color"), &n.key)
                .and_then(Value::as_str)
                .and_then(chart_spec::color::parse_color)
                .unwrap_or(o.color);
            let background = node_opt(nl.get("backgroundColor"), &n.key)
                .and_then(Value::as_str)
                .and_then(chart_spec::color::parse_color);
            let position = node_opt(nl.get("position"), &n.key)
                .and_then(Value::as_str)
                .unwrap_or("auto");
            let auto = if o.vertical {
                if y < (area.top + area.bottom) / 2.0 {
                    "bottom"
                } else {
                    "top"
                }
            } else if x < (area.left + area.right) / 2.0 {
                "right"
            } else {
                "left"
            };
            let font = &o.font;
            draw_label(
                ctx,
                &text_lines(&label),
                &LabelBox {
                    position,
                    auto,
                    x,
                    y,
                    width: w,
                    height: h,
                    border_width: o.border_width,
                    padding: nl.get("padding").map(to_number).unwrap_or(4.0),
                    line_offset: o.padding.unwrap_or(font.line_height / 2.0),
                    font,
                    color,
                    background,
                    border_radius: nl.get("borderRadius").map(to_number).unwrap_or(0.0),
                },
            );
        }
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        let c = options(ds)
            .and_then(|o| o.flows.first())
            .map(|f| f.color_from)
            .unwrap_or(Rgba::rgb(0, 0, 0));
        LegendStyle::plain_box(c, c, 0.0)
    }
}

/// `Flow.draw`: the band between two cubic curves, stroked 0.5px and filled.
fn draw_flow(ctx: &mut Ctx<'_>, f: &FlowEl, vertical: bool) {
    let (x, y, x2, y2) = (f.x, f.y, f.x2, f.y2);
    let o = &f.flow;
    let paint = if let Some(c) = o.flow_color {
        Paint::Solid(c)
    } else if o.color_mode == "from" {
        Paint::Solid(with_alpha(o.color_from, o.alpha))
    } else if o.color_mode == "to" {
        Paint::Solid(with_alpha(o.color_to, o.alpha))
    } else {
        let (gx0, gy0, gx1, gy1) = if vertical {
            (0.0, y, 0.0, y2)
        } else {
            (x, 0.0, x2, 0.0)
        };
        Paint::LinearGradient {
            x0: gx0 as f32,
            y0: gy0 as f32,
            x1: gx1 as f32,
            y1: gy1 as f32,
            stops: vec![
                (0.0, with_alpha(o.color_from, o.alpha)),
                (1.0, with_alpha(o.color_to, o.alpha)),
            ],
        }
    };
    // controlPoints
    let (c1, c2) = if vertical {
        if y < y2 {
            ((x, y + (y2 - y) / 3.0 * 2.0), (x2, y + (y2 - y) / 3.0))
        } else {
            ((0.0, y - (y - y2) / 3.0), (0.0, y2 + (y - y2) / 3.0))
        }
    } else if x < x2 {
        ((x + (x2 - x) / 3.0 * 2.0, y), (x + (x2 - x) / 3.0, y2))
    } else {
        ((x - (x - x2) / 3.0, 0.0), (x2 + (x - x2) / 3.0, 0.0))
    };
    let mut p = P::new();
    p.move_to(x, y);
    p.cubic_to(c1.0, c1.1, c2.0, c2.1, x2, y2);
    if vertical {
        p.line_to(x2 + f.width, y2);
        p.cubic_to(c2.0 + f.width, c2.1, c1.0 + f.width, c1.1, x + f.width, y);
    } else {
        p.line_to(x2, y2 + f.height);
        p.cubic_to(
            c2.0,
            c2.1 + f.height,
            c1.0,
            c1.1 + f.height,
            x,
            y + f.height,
        );
    }
    p.line_to(x, y);
    stroke_paint(ctx, &p, paint.clone(), 0.5);
    p.close();
    ctx.fill_paint(&p, paint);
    if o.label_display {
        let (lx, ly, lw, lh) = if vertical {
            ((x).min(x2), y, (x2 - x).abs() + f.width, y2 - y)
        } else {
            (x, y.min(y2), x2 - x, (y2 - y).abs() + f.height)
        };
        let font = &o.label_font;
        draw_label(
            ctx,
            &[Raw::Num(o.flow).to_js_string()],
            &LabelBox {
                position: &o.label_position,
                auto: "center",
                x: lx,
                y: ly,
                width: lw,
                height: lh,
                border_width: 0.0,
                padding: o.label_padding,
                line_offset: font.line_height / 2.0,
                font,
                color: o.label_color,
                background: o.label_background,
                border_radius: o.label_border_radius,
            },
        );
    }
}

/// `ctx.stroke()` with a gradient or colour paint.
fn stroke_paint(ctx: &mut Ctx<'_>, p: &P, paint: Paint, width: f64) {
    if p.is_empty() || paint.is_invisible() {
        return;
    }
    ctx.items.push(crate::scene::Item::Stroke {
        path: p.clone().into_path(),
        paint,
        stroke: crate::scene::Stroke {
            width: width as f32,
            cap: crate::scene::LineCap::Butt,
            join: crate::scene::LineJoin::Miter,
            miter_limit: 10.0,
            dash: Vec::new(),
            dash_offset: 0.0,
        },
        transform: crate::scene::Transform::IDENTITY,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn opts(data: Value) -> SankeyOptions {
        let cfg = json!({"type": "sankey", "data": {"datasets": [{"data": data}]}});
        let Value::Object(m) = cfg else { panic!() };
        let (chart, _) = chart_spec::resolve_chart(&m).expect("resolves");
        match chart.datasets[0].plugin.clone() {
            Some(PluginDataset::Sankey(s)) => *s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn columns_and_sizes() {
        let o = opts(json!([
            {"from": "a", "to": "c", "flow": 5},
            {"from": "b", "to": "c", "flow": 3},
            {"from": "c", "to": "d", "flow": 8}
        ]));
        let l = layout(&o, 400.0);
        let get = |k: &str| l.nodes.iter().find(|n| n.key == k).expect("node");
        assert_eq!(get("a").x, Some(0.0));
        assert_eq!(get("b").x, Some(0.0));
        assert_eq!(get("c").x, Some(1.0));
        assert_eq!(get("d").x, Some(2.0));
        assert_eq!(get("c").size, 8.0);
        assert_eq!(l.max_x, 2.0);
        // a and b do not overlap in their column.
        let (a, b) = (get("a"), get("b"));
        let (top, bottom) = if a.y < b.y { (a, b) } else { (b, a) };
        assert!(ny(top) + top.size <= ny(bottom), "{l:?}");
    }
}
