//! `addPadding`: the nodes of each column spread apart by `nodePadding` (`resolveNodeGap`)
//! and stretched to `nodeMinSize`, in flow units.

use super::{nx, ny, Layout, Node};
use crate::elements::bounds::{finite_in, MAX_PX};
use chart_spec::model::{NodeGap, SankeyOptions};

/// `createColumnGapState`, with the y history run-length encoded: a node can pad its
/// column's history with as many copies of its y as the deepest column before it has nodes.
#[derive(Default, Clone)]
struct GapState {
    last_after: f64,
    last_extra_half: f64,
    real_count: f64,
    real_cum_offset: f64,
    /// (y, copies), y never decreasing: nodes come sorted by y within a column.
    y_history: Vec<(f64, usize)>,
    len: usize,
}

impl GapState {
    fn push(&mut self, y: f64, copies: usize) {
        if copies == 0 {
            return;
        }
        self.len += copies;
        match self.y_history.last_mut() {
            Some((last, c)) if *last == y => *c += copies,
            _ => self.y_history.push((y, copies)),
        }
    }
}

/// What `countCrossColumnPaddings` reads of the finished columns: for a y, the largest number
/// of entries at most y in any earlier column's history (the plugin counts each history up
/// to its first entry past y; histories are sorted). A non-decreasing step function of y,
/// kept as its steps (y, count), both increasing.
#[derive(Default)]
struct Paddings {
    steps: Vec<(f64, usize)>,
}

impl Paddings {
    fn at(&self, y: f64) -> usize {
        match self.steps.partition_point(|s| s.0 <= y) {
            0 => 0,
            i => self.steps[i - 1].1,
        }
    }

    /// Takes in a finished column's history.
    fn add(&mut self, history: &[(f64, usize)]) {
        let mut cum = 0;
        for &(y, c) in history {
            cum += c;
            if self.at(y) >= cum {
                continue;
            }
            let from = self.steps.partition_point(|s| s.0 < y);
            let to = from + self.steps[from..].partition_point(|s| s.1 <= cum);
            self.steps.splice(from..to, [(y, cum)]);
        }
    }
}

/// `resolveNodeGap`: a number, or `{before, after}`, per node key when an object.
fn node_gap(o: &SankeyOptions, key: &str) -> (f64, f64) {
    let px = |v: f64| finite_in(v, 0.0, MAX_PX, 10.0);
    match o.node_padding.get(key) {
        Some(NodeGap::Sides { before, after }) => (
            before.map(px).unwrap_or(10.0),
            after.map(px).unwrap_or(10.0),
        ),
        Some(&NodeGap::Both(v)) => (px(v), px(v)),
        _ => (10.0, 10.0),
    }
}

pub(in crate::controllers::sankey) fn node_min_size(o: &SankeyOptions, key: &str) -> f64 {
    o.node_min_size
        .get(key)
        .map(|&v| finite_in(v, 0.0, MAX_PX, 0.0))
        .unwrap_or(0.0)
}

/// `addPadding`: spreads the nodes of each column apart by `nodePadding` (in flow units:
/// `scale` is flow units per pixel).
pub(super) fn add_padding(l: &mut Layout, o: &SankeyOptions, order: &[usize], scale: f64) -> f64 {
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
    // Nodes come sorted by column, so a column is finished once the next one starts: its
    // history then joins `before`, which answers `countCrossColumnPaddings` in log time.
    let mut before = Paddings::default();
    let mut column: Option<(f64, GapState)> = None;
    for &n in order {
        let x = nx(&nodes[n]) + 0.0;
        if column.as_ref().is_none_or(|(cx, _)| *cx != x) {
            if let Some((_, done)) = column.take() {
                before.add(&done.y_history);
            }
            column = Some((x, GapState::default()));
        }
        let Some((_, st)) = column.as_mut() else {
            continue;
        };
        let (gap_before, gap_after) = node_gap(o, &nodes[n].key);
        let y = ny(&nodes[n]);
        let eh = extra_half(&nodes[n]);
        if y != 0.0 {
            st.push(y, 1);
            let mut paddings = st.len;
            if nodes[n].inflow != 0.0 {
                paddings = paddings.max(before.at(y));
                let missing = paddings - st.len;
                st.push(y, missing);
            }
            // offsetForNode
            let above = st.real_count;
            let b = gap_before * scale;
            let a = gap_after * scale;
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
            st.real_count += 1.0;
            st.last_after = gap_after * scale;
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
