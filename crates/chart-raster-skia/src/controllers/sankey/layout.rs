//! The sankey layout in flow units: `buildNodesFromData`, `calculateX` (columns),
//! `calculateY` or by `priority` (stacking in each column), `addPadding` (`padding.rs`) and
//! `sortFlows`.

use crate::elements::bounds::finite_in;
use chart_spec::model::SankeyOptions;
use chart_spec::Limits;
use chart_spec::Rgba;
use std::cmp::Ordering;
use std::collections::HashMap;

mod padding;

use padding::add_padding;
pub(super) use padding::node_min_size;

pub(super) const SMALL_VALUE: f64 = 1e-6;

/// Largest flow magnitude the layout takes: 50,000 flows of this size still sum to a finite
/// number far from overflow, so no node position becomes infinite.
pub(super) const MAX_FLOW: f64 = 1e12;

/// Largest column index the `column` option may set.
pub(super) const MAX_COLUMN: f64 = 1e6;

/// Node-count steps `flowByNodeCount` may spend over a whole layout (see [`NodeCounts`]).
pub(super) const COUNT_BUDGET: usize = 4_000_000;

/// How often the loops over flows and nodes poll the render's [`Cancel`].
pub(super) const CANCEL_EVERY: usize = 256;

/// One end of a flow as a node sees it.
#[derive(Debug, Clone)]
pub(super) struct Edge {
    add_y: f64,
    flow: f64,
    index: usize,
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

pub(super) fn nx(n: &Node) -> f64 {
    n.x.unwrap_or(0.0)
}
pub(super) fn ny(n: &Node) -> f64 {
    n.y.unwrap_or(0.0)
}
pub(super) fn or(a: f64, b: f64) -> f64 {
    if a != 0.0 && !a.is_nan() {
        a
    } else {
        b
    }
}

/// A column as a map key: JavaScript compares columns with `===`, so `-0` is `0`.
pub(super) fn col_key(x: f64) -> u64 {
    (x + 0.0).to_bits()
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
    /// Per flow of the options: its (from, to) nodes; `None` for a flow past the budgets.
    pub(super) ends: Vec<Option<(usize, usize)>>,
    /// Per flow: its amount as the layout takes it (finite, at most [`MAX_FLOW`]).
    pub(super) amounts: Vec<f64>,
    /// Per flow: `addY` at its source and at its target (`getAddY`), after `sortFlows`.
    pub(super) add_y: Vec<(f64, f64)>,
    /// Flows or nodes were left out to keep to the sankey budgets.
    pub truncated: bool,
}

/// `flowSort`: larger flows first, then data order.
pub(super) fn flow_sort(a: &Edge, b: &Edge) -> Ordering {
    b.flow.total_cmp(&a.flow).then(a.index.cmp(&b.index))
}

/// `buildNodesFromData`, keeping to `limits`: flows past `max_sankey_flows`, and flows that
/// would add a node past `max_sankey_nodes`, are left out.
pub(super) fn build_nodes<'o>(o: &'o SankeyOptions, limits: &Limits) -> Layout {
    let mut l = Layout::default();
    let mut index: HashMap<&'o str, usize> = HashMap::new();
    for (i, f) in o.flows.iter().enumerate() {
        let amount = finite_in(f.flow, -MAX_FLOW, MAX_FLOW, 0.0);
        l.amounts.push(amount);
        if i >= limits.max_sankey_flows {
            l.truncated = true;
            l.ends.push(None);
            continue;
        }
        let new_nodes = usize::from(!index.contains_key(f.from.as_str()))
            + usize::from(f.to != f.from && !index.contains_key(f.to.as_str()));
        if l.nodes.len() + new_nodes > limits.max_sankey_nodes {
            l.truncated = true;
            l.ends.push(None);
            continue;
        }
        let mut node_of = |key: &'o str, l: &mut Layout| -> usize {
            *index.entry(key).or_insert_with(|| {
                l.nodes.push(new_node(key));
                l.nodes.len() - 1
            })
        };
        let fi = node_of(&f.from, &mut l);
        let ti = node_of(&f.to, &mut l);
        l.ends.push(Some((fi, ti)));
        l.nodes[fi].outflow += amount;
        l.nodes[fi].to.push(Edge {
            add_y: 0.0,
            flow: amount,
            index: i,
            node: ti,
        });
        l.nodes[ti].inflow += amount;
        l.nodes[ti].from.push(Edge {
            add_y: 0.0,
            flow: amount,
            index: i,
            node: fi,
        });
    }
    for n in l.nodes.iter_mut() {
        n.from.sort_by(flow_sort);
        n.to.sort_by(flow_sort);
        let (a, b) = (or(n.inflow, n.outflow), or(n.outflow, n.inflow));
        n.size = if o.size_min { a.min(b) } else { a.max(b) };
        if let Some(&p) = o.priority.as_ref().and_then(|p| p.get(&n.key)) {
            // The plugin subtracts priorities; a value that is not a number sorts as 0.
            n.priority = Some(finite_in(p, f64::MIN, f64::MAX, 0.0));
        }
        if let Some(&c) = o.column.as_ref().and_then(|c| c.get(&n.key)) {
            // A column that is not a number would put the node nowhere; a huge one would
            // make the plugin step through every integer up to it.
            if c.is_finite() {
                n.column = true;
                n.x = Some(c.clamp(-MAX_COLUMN, MAX_COLUMN) + 0.0);
            }
        }
    }
    l
}

pub(super) fn new_node(key: &str) -> Node {
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

/// `calculateX`: columns from the sources forward; with `modeX: 'edge'` every sink goes to
/// the last column.
///
/// The plugin's `nextColumn` takes every remaining node that no flow from a remaining node
/// (self-loops aside) points to, or else (a cycle) the first remaining node. That is Kahn's
/// topological sort by levels, done here with in-degree counts, so each flow is looked at a
/// constant number of times instead of once per column.
pub(super) fn calculate_x(l: &mut Layout, o: &SankeyOptions) -> f64 {
    let n = l.nodes.len();
    let flows: Vec<(usize, usize)> = l.ends.iter().flatten().copied().collect();
    let mut placed = vec![false; n];
    let mut remaining = n;
    // `startColumn`: the sources, then (in data order) the first node of every flow that
    // neither the sources reach nor an earlier flow pointed to.
    let mut column: Vec<usize> = (0..n).filter(|&i| l.nodes[i].from.is_empty()).collect();
    // `getAllKeysForward`, with a stack.
    let mut referenced = vec![false; n];
    let mut stack: Vec<usize> = column.clone();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut referenced[k], true) {
            continue;
        }
        stack.extend(l.nodes[k].to.iter().map(|e| e.node));
    }
    for &(f, t) in &flows {
        if !referenced[f] && !referenced[t] {
            column.push(f);
            referenced[f] = true;
        }
        referenced[t] = true;
    }
    let mut x = 0.0;
    // Flows from remaining nodes into each node, self-loops aside (`dataWithoutDirectLoops`).
    let mut indegree = vec![0usize; n];
    let mut first_remaining = 0;
    loop {
        let mut ready = Vec::new();
        for &k in &column {
            if placed[k] {
                continue;
            }
            placed[k] = true;
            remaining -= 1;
            if l.nodes[k].x.is_none() {
                l.nodes[k].x = Some(x);
            }
        }
        if remaining == 0 {
            break;
        }
        if x == 0.0 {
            for &(f, t) in &flows {
                if f != t && !placed[f] {
                    indegree[t] += 1;
                }
            }
            ready.extend((0..n).filter(|&k| !placed[k] && indegree[k] == 0));
        } else {
            for &k in &column {
                for e in &l.nodes[k].to {
                    let t = e.node;
                    if t != k && !placed[t] {
                        indegree[t] -= 1;
                        if indegree[t] == 0 {
                            ready.push(t);
                        }
                    }
                }
            }
        }
        x += 1.0;
        // A column lists its nodes in `Map` order.
        ready.sort_unstable();
        ready.dedup();
        column = if ready.is_empty() {
            // A cycle: `remainingKeyArray.slice(0, 1)`.
            while first_remaining < n && placed[first_remaining] {
                first_remaining += 1;
            }
            vec![first_remaining.min(n - 1)]
        } else {
            ready
        };
    }
    let max_x = l.nodes.iter().map(nx).fold(0.0, f64::max);
    if o.mode_x == "edge" {
        let mut is_from = vec![false; n];
        for &(f, _) in &flows {
            is_from[f] = true;
        }
        for (i, node) in l.nodes.iter_mut().enumerate() {
            if !is_from[i] && !node.column {
                node.x = Some(max_x);
            }
        }
    }
    max_x
}

/// `nodeCount(node[prop], prop)` per node: the `prop` list lengths summed over every node
/// reachable from `node` along `prop`.
///
/// The plugin's `flowByNodeCount` recounts on every comparison of every sort, which is
/// quadratic on a long chain and worse on a dense graph. The graph does not change while the
/// columns are stacked, so each node's count is computed once, by an iterative walk; and all
/// the walks together take at most [`COUNT_BUDGET`] steps: past it (only a hostile graph gets
/// there), a count is what the walk reached so far. Deterministic either way.
pub(super) struct NodeCounts {
    memo: [Vec<Option<u64>>; 2],
    mark: Vec<u32>,
    generation: u32,
    budget: usize,
    stack: Vec<usize>,
}

impl NodeCounts {
    fn new(n: usize) -> Self {
        Self {
            memo: [vec![None; n], vec![None; n]],
            mark: vec![0; n],
            generation: 0,
            budget: COUNT_BUDGET,
            stack: Vec::new(),
        }
    }

    fn count(&mut self, nodes: &[Node], n: usize, from: bool) -> u64 {
        let side = |k: usize| {
            if from {
                &nodes[k].from
            } else {
                &nodes[k].to
            }
        };
        if let Some(c) = self.memo[usize::from(from)][n] {
            return c;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.fill(0);
            self.generation = 1;
        }
        let mut count = 0u64;
        self.stack.clear();
        self.stack.extend(side(n).iter().map(|e| e.node));
        while let Some(k) = self.stack.pop() {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            if self.mark[k] == self.generation {
                continue;
            }
            self.mark[k] = self.generation;
            count += side(k).len() as u64;
            self.stack.extend(side(k).iter().map(|e| e.node));
        }
        self.memo[usize::from(from)][n] = Some(count);
        count
    }
}

/// The state of `calculateY`: the nodes, the memoised node counts, and per column the
/// highest `y + max(in, out)` of its placed nodes (what `processRest` scans every node for).
pub(super) struct Stacker<'a> {
    nodes: &'a mut [Node],
    counts: NodeCounts,
    column_bottom: HashMap<u64, f64>,
}

impl Stacker<'_> {
    fn set_y(&mut self, n: usize, y: f64) {
        let node = &mut self.nodes[n];
        node.y = Some(y);
        let bottom = y + node.inflow.max(node.outflow);
        let e = self.column_bottom.entry(col_key(nx(node))).or_insert(0.0);
        *e = e.max(bottom);
    }

    /// `setOrGetY`.
    fn set_or_get_y(&mut self, n: usize, v: f64) -> f64 {
        match self.nodes[n].y {
            Some(y) => y,
            None => {
                self.set_y(n, v);
                v
            }
        }
    }

    /// Sorts a node's `from` or `to` list with `flowByNodeCount` (a stable sort, as
    /// `Array.prototype.sort`).
    ///
    /// The keys are read before the list is taken out to be sorted: the plugin's comparator
    /// counts over the whole graph, this node's own list included (it is reachable from its
    /// neighbours in a cycle, and is its own neighbour's list through a self-loop), and V8
    /// sorts a copy, so the list is whole while it is counted. Counting with the list taken
    /// out would see a node without flows there, and memoise that.
    fn sort_by_count(&mut self, n: usize, from: bool) {
        let len = self.side(n, from).len();
        if len < 2 {
            return;
        }
        let mut keys: Vec<(u64, usize)> = Vec::with_capacity(len);
        for i in 0..len {
            let m = self.side(n, from)[i].node;
            let c = self.counts.count(&*self.nodes, m, from);
            keys.push((c, self.side(m, from).len()));
        }
        let list = if from {
            &mut self.nodes[n].from
        } else {
            &mut self.nodes[n].to
        };
        let mut keyed: Vec<((u64, usize), Edge)> = keys.into_iter().zip(list.drain(..)).collect();
        keyed.sort_by_key(|(k, _)| *k);
        list.extend(keyed.into_iter().map(|(_, e)| e));
    }

    fn side(&self, n: usize, from: bool) -> &[Edge] {
        if from {
            &self.nodes[n].from
        } else {
            &self.nodes[n].to
        }
    }

    /// `processFrom` (`from`) or `processTo`, with an explicit stack: the plugin recurses
    /// into every node it places, as deep as the longest chain of flows. Each frame is
    /// (node, position in its list, running y, whether the entry at that position is placed).
    fn process(&mut self, start: usize, y: f64, from: bool) -> f64 {
        if self.side(start, from).is_empty() {
            return y;
        }
        self.sort_by_count(start, from);
        let mut stack: Vec<(usize, usize, f64, bool)> = vec![(start, 0, y, false)];
        while let Some(&(n, i, y, placed)) = stack.last() {
            let list = self.side(n, from);
            let Some(e) = list.get(i) else {
                // The recursive call's value is not used by its caller.
                stack.pop();
                continue;
            };
            let (m, flow) = (e.node, e.flow);
            if !placed {
                if let Some(top) = stack.last_mut() {
                    top.3 = true;
                }
                if self.nodes[m].y.is_none() {
                    self.set_y(m, y);
                    if !self.side(m, from).is_empty() {
                        self.sort_by_count(m, from);
                        let child_y = if y != 0.0 { y + SMALL_VALUE } else { 0.0 };
                        stack.push((m, 0, child_y, false));
                    }
                }
                continue;
            }
            let mn = &self.nodes[m];
            let y = if from {
                (ny(mn) + mn.outflow).max(y)
            } else {
                // `returnsToNearerColumn(n, node.to[i + 1]?.node)`
                let nearer = list
                    .get(i + 1)
                    .is_some_and(|next| nx(&self.nodes[next.node]) < nx(mn));
                if nearer {
                    y + flow
                } else {
                    (ny(mn) + mn.inflow.max(mn.outflow)).max(y)
                }
            };
            if let Some(top) = stack.last_mut() {
                *top = (n, i + 1, y, false);
            }
        }
        ny(&self.nodes[start]) + self.nodes[start].size
    }
}

pub(super) fn js_or0(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v
    }
}

/// `processRest`.
pub(super) fn process_rest(st: &mut Stacker<'_>, max_x: f64) -> f64 {
    let nodes = &*st.nodes;
    let all = 0..nodes.len();
    let left: Vec<usize> = all.clone().filter(|&i| nodes[i].x == Some(0.0)).collect();
    let right: Vec<usize> = all.clone().filter(|&i| nodes[i].x == Some(max_x)).collect();
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
            left_y = st.set_or_get_y(n, left_y);
            let p = st.process(n, left_y, false);
            left_y = (left_y + st.nodes[n].outflow).max(p);
        }
    } else {
        for &n in &left_todo {
            left_y = st.set_or_get_y(n, left_y);
        }
    }
    for &n in &right_todo {
        right_y = st.set_or_get_y(n, right_y);
        let p = st.process(n, right_y, true);
        right_y = (right_y + st.nodes[n].inflow).max(p);
    }
    for &n in &center_todo {
        // The highest bottom among the placed nodes of the column.
        let y = st
            .column_bottom
            .get(&col_key(nx(&st.nodes[n])))
            .copied()
            .unwrap_or(0.0);
        let mut y = st.set_or_get_y(n, y);
        let p = st.process(n, y, true);
        y = (y + st.nodes[n].inflow).max(p);
        let p = st.process(n, y, false);
        y = (y + st.nodes[n].outflow).max(p);
        center_y = center_y.max(y);
    }
    left_y.max(right_y).max(center_y)
}

/// The nodes of the columns `for (let x = 0; x <= maxX; x++)` visits (the integer columns
/// `0..=max_x`), grouped by column in increasing order, `Map` order within a column. Only
/// the columns that hold a node are listed: the plugin's loop would step through every
/// integer up to `maxX`.
pub(super) fn integer_columns(nodes: &[Node], max_x: f64) -> Vec<(f64, Vec<usize>)> {
    let mut order: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            let x = nx(&nodes[i]);
            x >= 0.0 && x <= max_x && x.fract() == 0.0
        })
        .collect();
    order.sort_by(|&a, &b| nx(&nodes[a]).total_cmp(&nx(&nodes[b])).then(a.cmp(&b)));
    let mut out: Vec<(f64, Vec<usize>)> = Vec::new();
    for i in order {
        let x = nx(&nodes[i]) + 0.0;
        match out.last_mut() {
            Some((cx, col)) if *cx == x => col.push(i),
            _ => out.push((x, vec![i])),
        }
    }
    out
}

/// `fixTop`.
pub(super) fn fix_top(nodes: &mut [Node], max_x: f64) -> f64 {
    let mut max_y: f64 = 0.0;
    for (_, mut col) in integer_columns(nodes, max_x) {
        col.sort_by(|&a, &b| ny(&nodes[a]).total_cmp(&ny(&nodes[b])));
        let mut min_y = 0.0;
        for n in col {
            if ny(&nodes[n]) < min_y {
                nodes[n].y = Some(min_y);
            }
            min_y = ny(&nodes[n]) + nodes[n].size;
        }
        max_y = max_y.max(min_y);
    }
    max_y
}

/// `findStartNode`.
pub(super) fn find_start(nodes: &[Node], max_x: f64) -> usize {
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
    biggest.sort_by(|&a, &b| nx(&nodes[a]).total_cmp(&nx(&nodes[b])));
    if nx(&nodes[first]) == 0.0 {
        return first;
    }
    let last = biggest[biggest.len() - 1];
    if nx(&nodes[last]) == max_x {
        return last;
    }
    biggest[biggest.len() / 2]
}

/// `calculateY`.
pub(super) fn calculate_y(nodes: &mut [Node], max_x: f64) -> f64 {
    if nodes.is_empty() {
        return 0.0;
    }
    let start = find_start(nodes, max_x);
    let counts = NodeCounts::new(nodes.len());
    let mut st = Stacker {
        nodes,
        counts,
        column_bottom: HashMap::new(),
    };
    st.set_y(start, 0.0);
    st.process(start, 0.0, true);
    st.process(start, 0.0, false);
    process_rest(&mut st, max_x);
    fix_top(st.nodes, max_x)
}

/// `calculateYUsingPriority`.
pub(super) fn calculate_y_priority(nodes: &mut [Node], max_x: f64) -> f64 {
    // Every column any node is in, for `nextX` (the next column right of `x`).
    let mut xs: Vec<f64> = nodes.iter().map(|n| nx(n) + 0.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let mut max_y: f64 = 0.0;
    let mut next_start = 0.0;
    for (x, mut col) in integer_columns(nodes, max_x) {
        let mut y = next_start;
        col.sort_by(|&a, &b| {
            let p = |n: usize| nodes[n].priority.unwrap_or(0.0);
            p(a).total_cmp(&p(b))
        });
        if let Some(&first) = col.first() {
            let next_x = xs
                .get(xs.partition_point(|&c| c <= x))
                .copied()
                .unwrap_or(f64::INFINITY);
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
    }
    max_y
}

/// `sortFlows`: where each flow leaves and enters its nodes; records each flow's `addY` at
/// both ends (what `getAddY` looks up by key and index).
pub(super) fn sort_flows(l: &mut Layout) {
    let nodes = &mut l.nodes;
    l.add_y = vec![(0.0, 0.0); l.ends.len()];
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
            list.sort_by(|a, b| mid(a).total_cmp(&mid(b)));
            let len = list.len() as f64;
            let mut add = 0.0;
            for (i, e) in list.iter_mut().enumerate() {
                if overlap {
                    e.add_y = i as f64 * (size - e.flow) / (len - 1.0);
                } else {
                    e.add_y = add;
                    add += e.flow;
                }
                if let Some(slot) = l.add_y.get_mut(e.index) {
                    // The `from` list holds the flow's target end, the `to` list its source.
                    if from {
                        slot.1 = e.add_y;
                    } else {
                        slot.0 = e.add_y;
                    }
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
/// vertical). Keeps to the default sankey budgets.
pub fn layout(o: &SankeyOptions, height: f64) -> Layout {
    layout_within(o, height, &Limits::default())
}

/// [`layout`] within `limits`.
pub fn layout_within(o: &SankeyOptions, height: f64, limits: &Limits) -> Layout {
    let mut l = build_nodes(o, limits);
    let max_x = calculate_x(&mut l, o);
    let max_y = if o.priority.is_some() {
        calculate_y_priority(&mut l.nodes, max_x)
    } else {
        calculate_y(&mut l.nodes, max_x)
    };
    let scale = max_y / height;
    let scale = if scale.is_finite() { scale } else { 0.0 };
    // `nodeArray.sort(nodeByXYSize)`: by column, then y, then size.
    let mut order: Vec<usize> = (0..l.nodes.len()).collect();
    order.sort_by(|&a, &b| {
        let (na, nb) = (&l.nodes[a], &l.nodes[b]);
        nx(na)
            .total_cmp(&nx(nb))
            .then(ny(na).total_cmp(&ny(nb)))
            .then(na.size.total_cmp(&nb.size))
    });
    l.max_y = add_padding(&mut l, o, &order, scale);
    sort_flows(&mut l);
    l.max_x = max_x;
    l
}
#[cfg(test)]
mod tests {
    use super::{build_nodes, layout, ny, Edge, Node, NodeCounts, Stacker};
    use chart_spec::model::DatasetKind;
    use chart_spec::model::SankeyOptions;
    use chart_spec::Limits;
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn opts(data: Value) -> SankeyOptions {
        let cfg = json!({"type": "sankey", "data": {"datasets": [{"data": data}]}});
        let Value::Object(m) = cfg else { panic!() };
        let (chart, _) = chart_spec::resolve_chart(&m).expect("resolves");
        match chart.datasets[0].kind.clone() {
            DatasetKind::Sankey(s, _) => *s,
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

    /// `flowByNodeCount` as the plugin writes it: `nodeCount` recursing with one `seen` set.
    fn plugin_node_count(nodes: &[Node], list: &[Edge], from: bool, seen: &mut Vec<usize>) -> u64 {
        let mut count = 0;
        for e in list {
            if seen.contains(&e.node) {
                continue;
            }
            seen.push(e.node);
            let side = if from {
                &nodes[e.node].from
            } else {
                &nodes[e.node].to
            };
            count += side.len() as u64 + plugin_node_count(nodes, side, from, seen);
        }
        count
    }

    /// Every node's lists sorted by `flowByNodeCount` in cyclic graphs with self-loops: the
    /// count of a neighbour reaches back through the node being sorted (whose list must be
    /// whole then), so the order is the plugin's (chartjs-chart-sankey `issues/issue72`).
    #[test]
    fn flows_sort_by_node_count_through_cycles() {
        let o = opts(json!([
            {"from": "a", "to": "b", "flow": 1}, {"from": "b", "to": "c", "flow": 1},
            {"from": "c", "to": "a", "flow": 1}, {"from": "c", "to": "d", "flow": 1},
            {"from": "d", "to": "b", "flow": 1}, {"from": "a", "to": "a", "flow": 1},
            {"from": "e", "to": "c", "flow": 1}, {"from": "b", "to": "e", "flow": 1},
            {"from": "f", "to": "a", "flow": 1}, {"from": "d", "to": "f", "flow": 1},
            {"from": "g", "to": "a", "flow": 1}, {"from": "e", "to": "e", "flow": 1},
            {"from": "a", "to": "d", "flow": 1}, {"from": "d", "to": "a", "flow": 1}
        ]));
        let l = build_nodes(&o, &Limits::default());
        for from in [true, false] {
            for n in 0..l.nodes.len() {
                let mut nodes = l.nodes.clone();
                let side = |nodes: &[Node], k: usize| {
                    if from {
                        nodes[k].from.clone()
                    } else {
                        nodes[k].to.clone()
                    }
                };
                let mut expected = side(&nodes, n);
                let key = |e: &Edge| {
                    let list = side(&l.nodes, e.node);
                    (
                        plugin_node_count(&l.nodes, &list, from, &mut Vec::new()),
                        list.len(),
                    )
                };
                expected.sort_by_key(key);
                let mut st = Stacker {
                    nodes: &mut nodes,
                    counts: NodeCounts::new(l.nodes.len()),
                    column_bottom: HashMap::new(),
                };
                st.sort_by_count(n, from);
                let got: Vec<usize> = side(st.nodes, n).iter().map(|e| e.index).collect();
                let want: Vec<usize> = expected.iter().map(|e| e.index).collect();
                assert_eq!(got, want, "node {} from {from}", l.nodes[n].key);
            }
        }
    }
}
