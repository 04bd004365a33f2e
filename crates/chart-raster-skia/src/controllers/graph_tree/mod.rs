//! Tree and dendrogram controllers of chartjs-chart-graph 4.3.5: the nodes are laid out by
//! d3-hierarchy's `tree()` (Buchheim, Jünger and Leipert's linear-time tidy tree) or
//! `cluster()` (leaves evenly spaced, parents over the mean of their children) in a 2 × 2 box
//! mapped onto hidden -1..1 scales, then drawn as points joined by curved edges.
//!
//! Trees come from user data: every walk here keeps an explicit stack (a chain of 20,000
//! nodes is as easy as a bush), children are found through adjacency lists and labels through
//! a map, so the work stays linear in nodes plus edges; sizes from the options are clamped
//! before they become geometry.
//!
//! The same controller draws chartjs-chart-graph's `graph` (nodes where the data puts them)
//! and `forceDirectedGraph` (nodes where d3-force's simulation leaves them,
//! [`super::force_graph`]); their nodes and edges are cut at the render's budgets, and the
//! simulation's ticks at `max_force_work`.

mod draw;

use self::draw::GraphElements;
use super::{Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::dataset::DatasetElements;
use crate::scales::Scale;
use chart_spec::model::{ChartKind, Dataset, Raw};
use chart_spec::model::{ForceSimulation, GraphOptions, NodeRef};
use chart_spec::Cancel;
use std::collections::HashMap;
use std::f64::consts::PI;

/// How often the loops over nodes and edges poll the render's [`Cancel`].
const CANCEL_EVERY: usize = 256;

/// A node of the hierarchy (`d3.hierarchy`), with the tidy-tree walk's fields.
#[derive(Debug, Clone, Default)]
struct HNode {
    /// Data index.
    index: usize,
    parent: Option<usize>,
    children: Vec<usize>,
    depth: usize,
    height: usize,
    x: f64,
    y: f64,
    // Tidy tree (`TreeNode`): prelim, mod, change, shift, thread, ancestor, default ancestor,
    // number among siblings.
    z: f64,
    m: f64,
    c: f64,
    s: f64,
    t: Option<usize>,
    a: usize,
    anc: Option<usize>,
    i: usize,
}

/// The hierarchy: nodes in an arena, the root first.
#[derive(Debug, Clone, Default)]
struct Hier {
    nodes: Vec<HNode>,
}

impl Hier {
    /// `hierarchy(root, children)` then `.sort((a, b) => b.height - a.height || b.index -
    /// a.index)`.
    fn build(root: usize, edges: &[(usize, usize)], n: usize) -> Self {
        let mut h = Hier::default();
        // Targets of each node, in edge order.
        let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(s, t) in edges {
            if s < n && t < n {
                adjacency[s].push(t);
            }
        }
        let mut seen = vec![false; n];
        let mut stack = vec![(root, None, 0usize)];
        // Breadth of the JavaScript recursion is irrelevant: children lists keep edge order.
        while let Some((idx, parent, depth)) = stack.pop() {
            if idx >= n || seen[idx] {
                continue;
            }
            seen[idx] = true;
            let id = h.nodes.len();
            h.nodes.push(HNode {
                index: idx,
                parent,
                depth,
                a: id,
                ..HNode::default()
            });
            if let Some(p) = parent {
                h.nodes[p].children.push(id);
            }
            for &k in adjacency[idx].iter().rev() {
                stack.push((k, Some(id), depth + 1));
            }
        }
        // Children were pushed in visiting order; restore edge order per parent (the
        // position of the first edge to each child).
        let mut first_edge: HashMap<usize, usize> = HashMap::new();
        for id in 0..h.nodes.len() {
            first_edge.clear();
            for (pos, &t) in adjacency[h.nodes[id].index].iter().enumerate() {
                first_edge.entry(t).or_insert(pos);
            }
            let mut kids = std::mem::take(&mut h.nodes[id].children);
            kids.sort_by_key(|&k| first_edge.get(&h.nodes[k].index).copied());
            h.nodes[id].children = kids;
        }
        // Heights, deepest first.
        for id in (0..h.nodes.len()).rev() {
            let hh = h.nodes[id]
                .children
                .iter()
                .map(|&c| h.nodes[c].height + 1)
                .max()
                .unwrap_or(0);
            h.nodes[id].height = hh;
        }
        for id in 0..h.nodes.len() {
            let mut kids = h.nodes[id].children.clone();
            kids.sort_by(|&a, &b| {
                let (na, nb) = (&h.nodes[a], &h.nodes[b]);
                nb.height.cmp(&na.height).then(nb.index.cmp(&na.index))
            });
            for (i, &k) in kids.iter().enumerate() {
                h.nodes[k].i = i;
            }
            h.nodes[id].children = kids;
        }
        h
    }

    /// Pre-order (`eachBefore`).
    fn pre(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            out.push(n);
            for &c in self.nodes[n].children.iter().rev() {
                stack.push(c);
            }
        }
        out
    }

    /// Post-order, children left to right (`eachAfter`).
    fn post(&self) -> Vec<usize> {
        let mut out = self.pre();
        // Reverse pre-order of the mirrored tree is the post-order.
        let mut stack = vec![0usize];
        out.clear();
        let mut next = Vec::new();
        while let Some(n) = stack.pop() {
            next.push(n);
            for &c in &self.nodes[n].children {
                stack.push(c);
            }
        }
        while let Some(n) = next.pop() {
            out.push(n);
        }
        out
    }

    fn separation(&self, a: usize, b: usize) -> f64 {
        if self.nodes[a].parent == self.nodes[b].parent {
            1.0
        } else {
            2.0
        }
    }

    fn next_left(&self, v: usize) -> Option<usize> {
        self.nodes[v].children.first().copied().or(self.nodes[v].t)
    }

    fn next_right(&self, v: usize) -> Option<usize> {
        self.nodes[v].children.last().copied().or(self.nodes[v].t)
    }

    fn move_subtree(&mut self, wm: usize, wp: usize, shift: f64) {
        let change = shift / (self.nodes[wp].i as f64 - self.nodes[wm].i as f64);
        self.nodes[wp].c -= change;
        self.nodes[wp].s += shift;
        self.nodes[wm].c += change;
        self.nodes[wp].z += shift;
        self.nodes[wp].m += shift;
    }

    fn execute_shifts(&mut self, v: usize) {
        let (mut shift, mut change) = (0.0, 0.0);
        let kids = self.nodes[v].children.clone();
        for &w in kids.iter().rev() {
            self.nodes[w].z += shift;
            self.nodes[w].m += shift;
            change += self.nodes[w].c;
            shift += self.nodes[w].s + change;
        }
    }

    fn next_ancestor(&self, vim: usize, v: usize, ancestor: usize) -> usize {
        let a = self.nodes[vim].a;
        if self.nodes[a].parent == self.nodes[v].parent {
            a
        } else {
            ancestor
        }
    }

    fn apportion(&mut self, v: usize, w: Option<usize>, mut ancestor: usize) -> usize {
        let Some(w) = w else { return ancestor };
        let Some(parent) = self.nodes[v].parent else {
            return ancestor;
        };
        let mut vip = v;
        let mut vop = v;
        let mut vim = w;
        let mut vom = self.nodes[parent].children[0];
        let mut sip = self.nodes[vip].m;
        let mut sop = self.nodes[vop].m;
        let mut sim = self.nodes[vim].m;
        let mut som = self.nodes[vom].m;
        let (mut nvim, mut nvip) = (self.next_right(vim), self.next_left(vip));
        while let (Some(a), Some(b)) = (nvim, nvip) {
            vim = a;
            vip = b;
            vom = self.next_left(vom).unwrap_or(vom);
            vop = self.next_right(vop).unwrap_or(vop);
            self.nodes[vop].a = v;
            let shift =
                self.nodes[vim].z + sim - self.nodes[vip].z - sip + self.separation(vim, vip);
            if shift > 0.0 {
                let na = self.next_ancestor(vim, v, ancestor);
                self.move_subtree(na, v, shift);
                sip += shift;
                sop += shift;
            }
            sim += self.nodes[vim].m;
            sip += self.nodes[vip].m;
            som += self.nodes[vom].m;
            sop += self.nodes[vop].m;
            nvim = self.next_right(vim);
            nvip = self.next_left(vip);
        }
        if nvim.is_some() && self.next_right(vop).is_none() {
            self.nodes[vop].t = nvim;
            self.nodes[vop].m += sim - sop;
        }
        if nvip.is_some() && self.next_left(vom).is_none() {
            self.nodes[vom].t = nvip;
            self.nodes[vom].m += sip - som;
            ancestor = v;
        }
        ancestor
    }

    /// d3 `tree().size([dx, dy])`.
    fn tidy(&mut self, dx: f64, dy: f64) {
        let post = self.post();
        // firstWalk for every node; the virtual parent of the root is handled by `None`.
        let mut root_parent_anc: Option<usize> = None;
        for &v in &post {
            let parent = self.nodes[v].parent;
            // The previous sibling and the first one, read in place: copying the sibling list
            // for every node is quadratic in a wide tree.
            let siblings: &[usize] = match parent {
                Some(p) => &self.nodes[p].children,
                None => &[],
            };
            let first_sibling = siblings.first().copied().unwrap_or(v);
            let i = self.nodes[v].i;
            let w = if i > 0 {
                siblings.get(i - 1).copied()
            } else {
                None
            };
            if !self.nodes[v].children.is_empty() {
                self.execute_shifts(v);
                let kids = &self.nodes[v].children;
                let mid = (self.nodes[kids[0]].z + self.nodes[kids[kids.len() - 1]].z) / 2.0;
                if let Some(w) = w {
                    self.nodes[v].z = self.nodes[w].z + self.separation(v, w);
                    self.nodes[v].m = self.nodes[v].z - mid;
                } else {
                    self.nodes[v].z = mid;
                }
            } else if let Some(w) = w {
                self.nodes[v].z = self.nodes[w].z + self.separation(v, w);
            }
            match parent {
                Some(p) => {
                    let anc = self.nodes[p].anc.unwrap_or(first_sibling);
                    let r = self.apportion(v, w, anc);
                    self.nodes[p].anc = Some(r);
                }
                None => root_parent_anc = Some(v),
            }
        }
        let _ = root_parent_anc;
        // `t.parent.m = -t.z`, then secondWalk.
        let root_m = -self.nodes[0].z;
        for v in self.pre() {
            let pm = match self.nodes[v].parent {
                Some(p) => self.nodes[p].m,
                None => root_m,
            };
            self.nodes[v].x = self.nodes[v].z + pm;
            self.nodes[v].m += pm;
        }
        let pre = self.pre();
        let (mut left, mut right, mut bottom) = (0usize, 0usize, 0usize);
        for &n in &pre {
            if self.nodes[n].x < self.nodes[left].x {
                left = n;
            }
            if self.nodes[n].x > self.nodes[right].x {
                right = n;
            }
            if self.nodes[n].depth > self.nodes[bottom].depth {
                bottom = n;
            }
        }
        let s = if left == right {
            1.0
        } else {
            self.separation(left, right) / 2.0
        };
        let tx = s - self.nodes[left].x;
        let kx = dx / (self.nodes[right].x + s + tx);
        let depth = self.nodes[bottom].depth.max(1) as f64;
        let ky = dy / depth;
        for n in pre {
            self.nodes[n].x = (self.nodes[n].x + tx) * kx;
            self.nodes[n].y = self.nodes[n].depth as f64 * ky;
        }
    }

    /// d3 `cluster().size([dx, dy])`.
    fn cluster(&mut self, dx: f64, dy: f64) {
        let mut prev: Option<usize> = None;
        let mut x = 0.0;
        for n in self.post() {
            let kids = self.nodes[n].children.clone();
            if kids.is_empty() {
                self.nodes[n].x = match prev {
                    Some(p) => {
                        x += self.separation(n, p);
                        x
                    }
                    None => 0.0,
                };
                self.nodes[n].y = 0.0;
                prev = Some(n);
            } else {
                self.nodes[n].x =
                    kids.iter().map(|&c| self.nodes[c].x).sum::<f64>() / kids.len() as f64;
                self.nodes[n].y = 1.0 + kids.iter().map(|&c| self.nodes[c].y).fold(0.0, f64::max);
            }
        }
        let mut left = 0usize;
        while let Some(&c) = self.nodes[left].children.first() {
            left = c;
        }
        let mut right = 0usize;
        while let Some(&c) = self.nodes[right].children.last() {
            right = c;
        }
        let x0 = self.nodes[left].x - self.separation(left, right) / 2.0;
        let x1 = self.nodes[right].x + self.separation(right, left) / 2.0;
        let root_y = self.nodes[0].y;
        for n in 0..self.nodes.len() {
            self.nodes[n].x = (self.nodes[n].x - x0) / (x1 - x0) * dx;
            self.nodes[n].y =
                (1.0 - if root_y != 0.0 {
                    self.nodes[n].y / root_y
                } else {
                    1.0
                }) * dy;
        }
    }
}

/// Positions (x, y, angle) in scale units per data index, from the plugin's `doLayout`.
pub fn layout(
    o: &GraphOptions,
    edges: &[(usize, usize)],
    n: usize,
) -> Vec<Option<(f64, f64, f64)>> {
    let mut out = vec![None; n];
    if n == 0 {
        return out;
    }
    let targets: std::collections::HashSet<usize> = edges.iter().map(|e| e.1).collect();
    let Some(root) = (0..n).find(|i| !targets.contains(i)) else {
        return out;
    };
    let mut h = Hier::build(root, edges, n);
    let radial = o.orientation == "radial";
    let (dx, dy) = if radial { (2.0 * PI, 1.0) } else { (2.0, 2.0) };
    if o.tidy_tree {
        h.tidy(dx, dy);
    } else {
        h.cluster(dx, dy);
    }
    for node in &h.nodes {
        let (x, y) = (node.x, node.y);
        out[node.index] = Some(match o.orientation.as_str() {
            "vertical" => (x - 1.0, -y + 1.0, f64::NAN),
            "radial" => (
                libm::cos(x) * y,
                libm::sin(x) * y,
                if y == 0.0 { f64::NAN } else { x },
            ),
            _ => (y - 1.0, -x + 1.0, f64::NAN),
        });
    }
    out
}

/// `DendrogramController` / `TreeController`, `GraphController` and
/// `ForceDirectedGraphController`.
#[derive(Default)]
pub struct GraphTreeController {
    /// The render's budgets (graph nodes, edges and simulation work).
    limits: chart_spec::Limits,
    /// Messages of `parse` (input cut at a budget).
    messages: Vec<chart_spec::Message>,
    /// A force-directed graph's given node positions and ticks, simulated at the first
    /// `update`.
    force: Option<(Vec<Option<(f64, f64)>>, usize)>,
    /// The simulated positions (-1..1), once run.
    placed: Option<Vec<Option<(f64, f64)>>>,
    edges: Vec<(usize, usize)>,
    angles: Vec<f64>,
    /// Node pixels after `update`: (x, y, angle).
    pub points: Vec<Option<(f64, f64, f64)>>,
    /// The render's stop signal, kept from `update` for `draw`.
    cancel: Cancel,
}

fn options(ds: &Dataset) -> Option<&GraphOptions> {
    ds.kind.graph()
}

/// A node reference as a data index; labels are looked up in `by_label` (the first index
/// of each label, as `labels.indexOf`).
fn resolve_ref(r: &NodeRef, by_label: &HashMap<String, usize>) -> Option<usize> {
    match r {
        NodeRef::Index(i) => Some(*i),
        NodeRef::Label(s) => by_label.get(s).copied(),
    }
}

impl GraphTreeController {
    /// A controller keeping to the render's `limits`.
    pub fn new(limits: &chart_spec::Limits) -> Self {
        Self {
            limits: *limits,
            ..Self::default()
        }
    }

    /// `GraphController.parse`: a node's `x`/`y` when numbers.
    fn given_positions(ds: &Dataset, n: usize) -> Vec<Option<(f64, f64)>> {
        ds.data
            .iter()
            .take(n)
            .map(|d| match d {
                chart_spec::model::Datum::Object {
                    x: Raw::Num(x),
                    y: Raw::Num(y),
                    ..
                } if x.is_finite() && y.is_finite() => Some((*x, *y)),
                _ => None,
            })
            .collect()
    }

    /// The ticks of a force-directed layout (`resyncLayout`), cut at the simulation budget
    /// (said); `None` when the plugin never places the nodes.
    fn force_ticks(&mut self, sim: &ForceSimulation, n: usize) -> Option<usize> {
        let planned = super::force_graph::planned_ticks(sim)?;
        let work = (n + self.edges.len()).max(1);
        let affordable = (self.limits.max_force_work / work).max(1);
        if planned > affordable {
            self.messages.push(chart_spec::Message::warn(format!(
                "forceDirectedGraph: ran {affordable} of {planned} simulation ticks: \
                 {n} nodes and {} edges reach the simulation budget",
                self.edges.len()
            )));
        }
        Some(planned.min(affordable))
    }
}

impl Controller for GraphTreeController {
    fn take_messages(&mut self) -> Vec<chart_spec::Message> {
        std::mem::take(&mut self.messages)
    }

    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, _scales: &mut [Scale], labels: &[Raw]) {
        meta.parsed.clear();
        let Some(o) = options(ds) else { return };
        let tree = !matches!(
            ds.kind.chart_kind(),
            ChartKind::Graph | ChartKind::ForceDirectedGraph
        );
        let mut n = ds.data.len();
        if !tree && n > self.limits.max_graph_nodes {
            self.messages.push(chart_spec::Message::warn(format!(
                "{}: only the first {} of {n} nodes are drawn (the graph node budget)",
                ds.kind.chart_kind(),
                self.limits.max_graph_nodes
            )));
            n = self.limits.max_graph_nodes;
        }
        let mut by_label: HashMap<String, usize> = HashMap::new();
        if o.edges
            .iter()
            .any(|(s, t)| matches!(s, NodeRef::Label(_)) || matches!(t, NodeRef::Label(_)))
        {
            for (i, l) in labels.iter().enumerate() {
                by_label.entry(l.to_js_string()).or_insert(i);
            }
        }
        self.edges = o
            .edges
            .iter()
            .filter_map(|(s, t)| Some((resolve_ref(s, &by_label)?, resolve_ref(t, &by_label)?)))
            .filter(|(s, t)| *s < n && *t < n)
            .collect();
        if !tree && self.edges.len() > self.limits.max_graph_edges {
            self.messages.push(chart_spec::Message::warn(format!(
                "{}: only the first {} of {} edges are drawn (the graph edge budget)",
                ds.kind.chart_kind(),
                self.limits.max_graph_edges,
                self.edges.len()
            )));
            self.edges.truncate(self.limits.max_graph_edges);
        }
        self.force = None;
        self.placed = None;
        let pos = if tree {
            layout(o, &self.edges, n)
        } else if let Some(sim) = &o.simulation {
            // Simulated in `update`, where the render's stop signal is at hand; Chart.js's
            // first update has no positions either (the layout runs in a later frame).
            self.force = self
                .force_ticks(sim, n)
                .map(|ticks| (Self::given_positions(ds, n), ticks));
            vec![None; n]
        } else {
            Self::given_positions(ds, n)
                .into_iter()
                .map(|p| p.map(|(x, y)| (x, y, f64::NAN)))
                .collect()
        };
        self.angles = pos
            .iter()
            .map(|p| p.map(|p| p.2).unwrap_or(f64::NAN))
            .collect();
        meta.parsed = pos
            .iter()
            .map(|p| Parsed {
                x: p.map(|p| p.0),
                y: p.map(|p| p.1),
                ..Parsed::default()
            })
            .collect();
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.points.clear();
        self.cancel = cx.cancel.clone();
        if cx.cancel.is_cancelled() {
            return;
        }
        if let (Some((given, ticks)), Some(sim)) = (
            self.force.take(),
            options(ds).and_then(|o| o.simulation.as_deref()),
        ) {
            let out = super::force_graph::simulate(sim, &given, &self.edges, ticks, cx.cancel);
            self.placed = Some(out.positions);
        }
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        if let Some(placed) = &self.placed {
            self.points = placed
                .iter()
                .map(|p| {
                    let (x, y) = (*p)?;
                    Some((xs.pixel_for_value(x), ys.pixel_for_value(y), f64::NAN))
                })
                .collect();
            return;
        }
        self.points = meta
            .parsed
            .iter()
            .enumerate()
            .map(|(i, p)| {
                Some((
                    xs.pixel_for_value(p.x?),
                    ys.pixel_for_value(p.y?),
                    self.angles.get(i).copied().unwrap_or(f64::NAN),
                ))
            })
            .collect();
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        match options(ds) {
            Some(options) => DatasetElements::Plugin(Box::new(GraphElements {
                edges: std::mem::take(&mut self.edges),
                points: std::mem::take(&mut self.points),
                options,
                elements: ds.kind.elements(),
                cancel: self.cancel.clone(),
            })),
            None => DatasetElements::Empty,
        }
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, true, use_point_style)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(tidy: bool) -> GraphOptions {
        GraphOptions {
            tidy_tree: tidy,
            orientation: "horizontal".into(),
            edges: Vec::new(),
            derived_edges: true,
            edge_color: chart_spec::Rgba::rgb(0, 0, 0),
            edge_width: 1.0,
            tension: 0.0,
            edge_dash: Vec::new(),
            directed: false,
            arrow_size: 15.0,
            arrow_offset: 5.0,
            simulation: None,
        }
    }

    #[test]
    fn tidy_tree_spreads_depths_over_the_box() {
        // root → (1, 2); 1 → (3, 4); 2 → 5
        let edges = [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5)];
        let p = layout(&opts(true), &edges, 6);
        let x = |i: usize| p[i].expect("placed").0;
        let y = |i: usize| p[i].expect("placed").1;
        // Horizontal: depth along x from -1 to 1.
        assert_eq!(x(0), -1.0);
        assert_eq!(x(1), 0.0);
        assert_eq!(x(3), 1.0);
        // The root sits between its children.
        assert!((y(0) - (y(1) + y(2)) / 2.0).abs() < 1e-9);
        // Siblings are apart, all inside -1..1.
        assert!(y(3) != y(4));
        assert!((0..6).all(|i| (-1.0..=1.0).contains(&y(i))));
    }

    #[test]
    fn a_star_of_100000_nodes_is_laid_out_in_linear_time() {
        // The children of the root were found by scanning every edge per node, and each
        // sibling list copied per node: 10^10 steps for this star.
        let n = 100_000;
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (0, i)).collect();
        for tidy in [true, false] {
            let start = std::time::Instant::now();
            let p = layout(&opts(tidy), &edges, n);
            assert!(p.iter().all(Option::is_some));
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "{:?}",
                start.elapsed()
            );
        }
    }

    #[test]
    fn cluster_puts_leaves_at_the_far_side() {
        let edges = [(0, 1), (0, 2), (1, 3)];
        let p = layout(&opts(false), &edges, 4);
        assert_eq!(p[3].expect("leaf").0, 1.0);
        assert_eq!(p[2].expect("leaf").0, 1.0);
        assert_eq!(p[0].expect("root").0, -1.0);
    }
}
