//! The treemap's layout in value space: chartjs-chart-treemap's `buildData` (grouping by
//! `groups`, `normalizeTreeToArray` for nested objects) and `squarify`.
//!
//! Groups hold the indices of their entries, not copies (the plugin shares object
//! references; deep copies per level took gigabytes for 300 levels of 300 rows), the levels
//! are laid out with an explicit stack, at most [`Limits`]' treemap depth of `groups` is used
//! and at most its leaf budget of rectangles is laid out.

use crate::elements::bounds::{finite_in, MAX_PX};
use chart_spec::model::{Raw, TreemapEntry, TreemapOptions};
use chart_spec::{Cancel, Limits};
use std::cmp::Ordering;

/// A pixel length from the options, non-negative and bounded.
pub(super) fn px_len(v: f64) -> f64 {
    finite_in(v, 0.0, MAX_PX, 0.0)
}

/// The rectangle squarify fills (`Rect` of the plugin).
#[derive(Debug, Clone, Copy)]
struct LRect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    ix: f64,
    iy: f64,
    rtl: bool,
}

impl LRect {
    fn new(x: f64, y: f64, w: f64, h: f64, rtl: bool) -> Self {
        Self {
            x,
            y,
            w,
            h,
            ix: 0.0,
            iy: 0.0,
            rtl,
        }
    }
    fn iw(&self) -> f64 {
        self.w - self.ix
    }
    fn ih(&self) -> f64 {
        self.h - self.iy
    }
    /// `dir`: rows run along x unless the remaining height is the shorter side.
    fn dir_x(&self) -> bool {
        let ih = self.ih();
        !(ih <= self.iw() && ih > 0.0)
    }
    fn side(&self) -> f64 {
        if self.dir_x() {
            self.iw()
        } else {
            self.ih()
        }
    }
}

/// What a laid-out rectangle stands for.
#[derive(Debug, Clone)]
pub enum TreeData {
    /// A leaf: a data entry.
    Leaf {
        /// Its index in the (normalized) tree.
        index: usize,
        /// Its `label`, when an object with a string `label`.
        label: Option<String>,
    },
    /// A group of entries.
    Group {
        /// The group's value (`label`).
        label: String,
        /// Its entries, as indices into the (normalized) tree.
        children: Vec<usize>,
        /// `groupIndex`.
        group_index: usize,
    },
}

/// One input of squarify.
#[derive(Debug, Clone)]
struct Node {
    value: f64,
    data: TreeData,
}

/// A laid-out rectangle in value space (`dataset.data[i]` after `buildData`).
#[derive(Debug, Clone)]
pub struct Sq {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// `v`: the value.
    pub v: f64,
    /// `s`: the sum of the row's set.
    pub s: f64,
    /// `g`: the group label.
    pub g: Option<String>,
    /// `l`: the group level.
    pub l: Option<usize>,
    /// `isLeaf`.
    pub is_leaf: bool,
    /// `_data`.
    pub data: TreeData,
}

struct Row {
    items: Vec<(Node, f64)>,
    sum: f64,
    nsum: f64,
    nmin: f64,
    nmax: f64,
    ratio: f64,
}

impl Row {
    fn new(ratio: f64) -> Self {
        Self {
            items: Vec::new(),
            sum: 0.0,
            nsum: 0.0,
            nmin: f64::INFINITY,
            nmax: f64::NEG_INFINITY,
            ratio,
        }
    }
    /// Takes the row out, leaving an empty one with the same ratio.
    fn take(&mut self) -> Row {
        std::mem::replace(self, Row::new(self.ratio))
    }
    /// `getNewStat`: (sum, nsum, nmin, nmax) with `o` added, and `o`'s normalized value.
    fn stat_with(&self, v: f64) -> (f64, f64, f64, f64, f64) {
        let n = v * self.ratio;
        (
            self.sum + v,
            self.nsum + n,
            self.nmin.min(n),
            self.nmax.max(n),
            n,
        )
    }
    fn push(&mut self, node: Node) {
        let (sum, nsum, nmin, nmax, n) = self.stat_with(node.value);
        self.sum = sum;
        self.nsum = nsum;
        self.nmin = nmin;
        self.nmax = nmax;
        self.items.push((node, n));
    }
}

/// `compareAspectRatio`: true when adding keeps the row's worst aspect ratio no worse.
fn keeps_ratio(old: (f64, f64, f64, f64), new: (f64, f64, f64, f64), length: f64) -> bool {
    let (osum, onsum, onmin, onmax) = old;
    let (_, nnsum, nnmin, nnmax) = new;
    if osum == 0.0 {
        return true;
    }
    let os2 = onsum * onsum;
    let ns2 = nnsum * nnsum;
    let l2 = length * length;
    let or = (l2 * onmax / os2).max(os2 / (l2 * onmin));
    let nr = (l2 * nnmax / ns2).max(ns2 / (l2 * nnmin));
    nr <= or
}

/// `Rect.map(row)`: lays a row along the remaining rectangle's shorter side.
fn map_row(rect: &mut LRect, row: Row, group: bool, lvl: usize) -> Vec<Sq> {
    let dir_x = rect.dir_x();
    let side = rect.side();
    let w2 = side * side;
    let s2 = row.nsum * row.nsum;
    let mut out = Vec::new();
    let mut maxd2: f64 = 0.0;
    let mut totd1 = 0.0;
    for (node, a) in row.items {
        let a = &a;
        let ar = w2 * a / s2;
        let d1 = (a * ar).sqrt();
        let d2 = a / d1;
        let (w, h) = if dir_x { (d1, d2) } else { (d2, d1) };
        totd1 += d1;
        maxd2 = maxd2.max(d2);
        let x = if rect.rtl {
            rect.x + rect.iw() - w
        } else {
            rect.x + rect.ix
        };
        let (g, l) = match (&node.data, group) {
            (
                TreeData::Group {
                    label, group_index, ..
                },
                true,
            ) => (Some(label.clone()), Some(*group_index)),
            (_, true) => (None, Some(lvl)),
            _ => (None, None),
        };
        out.push(Sq {
            x,
            y: rect.y + rect.iy,
            w,
            h,
            v: node.value,
            s: row.sum,
            g,
            l,
            is_leaf: false,
            data: node.data,
        });
        if dir_x {
            rect.ix += d1;
        } else {
            rect.iy += d1;
        }
    }
    if dir_x {
        rect.iy += maxd2;
        rect.ix -= totd1;
    } else {
        rect.ix += maxd2;
        rect.iy -= totd1;
    }
    out
}

/// `squarify(values, rectangle, keys, grp, lvl)`.
fn squarify(
    mut nodes: Vec<Node>,
    rect: LRect,
    sum: f64,
    unsorted: bool,
    group: bool,
    lvl: usize,
) -> Vec<Sq> {
    let mut rect = rect;
    let mut rows: Vec<Sq> = Vec::new();
    if nodes.is_empty() {
        return rows;
    }
    let mut row = Row::new(rect.w * rect.h / sum);
    let mut length = rect.side();
    if !unsorted {
        // `sort`: `+b - +a`, a stable sort. A NaN makes that comparator inconsistent (Rust's
        // sort may then panic, V8's order is arbitrary): values that are not numbers go last.
        nodes.sort_by(|a, b| descending_nan_last(a.value, b.value));
    }
    for node in nodes {
        let old = (row.sum, row.nsum, row.nmin, row.nmax);
        let (s, ns, mn, mx, _) = row.stat_with(node.value);
        if keeps_ratio(old, (s, ns, mn, mx), length) {
            row.push(node);
        } else {
            rows.extend(map_row(&mut rect, row.take(), group, lvl));
            length = rect.side();
            row.push(node);
        }
    }
    if !row.items.is_empty() {
        rows.extend(map_row(&mut rect, row, group, lvl));
    }
    rows
}

/// Larger first, NaN last: a total order.
fn descending_nan_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => b.total_cmp(&a),
        (a_nan, b_nan) => a_nan.cmp(&b_nan),
    }
}

fn has_group_value(v: Option<&Raw>) -> bool {
    !matches!(v, None | Some(Raw::Null) | Some(Raw::Undefined))
        && !matches!(v, Some(Raw::Str(s)) if s.is_empty())
}

/// `group(values, grp, keys, ...)`: entries grouped by the first of `groups[gidx..]` they
/// have a value for (else the tree leaf key), summing `key`. Keys come out in JavaScript
/// object order: integer-like keys ascending, then others by insertion.
fn group_nodes(
    tree: &[TreemapEntry],
    items: &[usize],
    groups: &[String],
    gidx: usize,
    leaf_key: &str,
) -> Vec<Node> {
    let mut order: Vec<String> = Vec::new();
    let mut acc: std::collections::HashMap<String, (f64, usize, Vec<usize>)> = Default::default();
    for &item in items {
        let Some(v) = tree.get(item) else { continue };
        let (fields, value) = match v {
            TreemapEntry::Object { fields, value, .. } => (Some(fields), *value),
            TreemapEntry::Value(_) => (None, f64::NAN),
        };
        let get = |k: &str| fields.and_then(|f| f.get(k));
        let found = (gidx..groups.len())
            .find(|&i| has_group_value(get(&groups[i])))
            .map(|i| (get(&groups[i]), i))
            .or_else(|| has_group_value(get(leaf_key)).then(|| (get(leaf_key), gidx)));
        let Some((Some(gv), gi)) = found else {
            return Vec::new();
        };
        // The group's name is `String(value)`, a JavaScript object key.
        let g = gv.to_js_string();
        let val = value;
        let e = acc.entry(g.clone()).or_insert_with(|| {
            order.push(g.clone());
            (0.0, gi, Vec::new())
        });
        e.0 += val;
        e.1 = gi;
        e.2.push(item);
    }
    let is_index = |k: &str| {
        k.parse::<u32>()
            .is_ok_and(|n| n.to_string() == k && n != u32::MAX)
    };
    let mut ints: Vec<&String> = order.iter().filter(|k| is_index(k)).collect();
    ints.sort_by_key(|k| k.parse::<u32>().unwrap_or(0));
    let rest = order.iter().filter(|k| !is_index(k));
    ints.into_iter()
        .chain(rest)
        .filter_map(|k| {
            let (value, gi, children) = acc.remove(k)?;
            Some(Node {
                value,
                data: TreeData::Group {
                    label: k.clone(),
                    children,
                    group_index: gi,
                },
            })
        })
        .collect()
}

/// The first caption font's line height (`buildData` reads it); 0 without fonts.
fn caption_line_height(o: &TreemapOptions) -> f64 {
    o.captions
        .fonts
        .first()
        .map(|f| px_len(f.line_height))
        .unwrap_or(0.0)
}

pub(super) fn caption_padding(o: &TreemapOptions) -> f64 {
    finite_in(o.captions.padding, -MAX_PX, MAX_PX, 3.0)
}

/// Font line height of the captions as `buildData` reads them.
pub(super) fn caption_fits(display_mode: &str, w: f64, h: f64, o: &TreemapOptions) -> bool {
    if !o.captions.display {
        return false;
    }
    if display_mode == "headerBoxes" {
        return true;
    }
    let min = caption_line_height(o);
    let padding = (caption_padding(o) * 2.0).min(w.min(h)).max(0.0);
    w - padding > min && h - padding > min
}

fn caption_height(display_mode: &str, h: f64, o: &TreemapOptions) -> f64 {
    let ch = caption_line_height(o) + caption_padding(o) * 2.0;
    if display_mode == "headerBoxes" && h < 2.0 * ch {
        h / 3.0
    } else {
        ch
    }
}

/// `buildData(tree, dataset, keys, rect)`: the rectangles in value space, within the default
/// budgets.
pub fn build_data(o: &TreemapOptions, w: f64, h: f64) -> Vec<Sq> {
    build_data_within(o, w, h, &Limits::default(), &Cancel::new())
}

/// [`build_data`] using at most `limits.max_treemap_depth` levels of `groups` and laying
/// out at most `limits.max_treemap_leaves` rectangles; cut short once `cancel` fires.
pub fn build_data_within(
    o: &TreemapOptions,
    w: f64,
    h: f64,
    limits: &Limits,
    cancel: &Cancel,
) -> Vec<Sq> {
    let key = o.key.clone().unwrap_or_default();
    // chart_spec resolved the tree within the same leaf budget; a smaller one here still holds.
    let tree = &o.tree[..o.tree.len().min(limits.max_treemap_leaves)];
    let header = o.display_mode == "headerBoxes";
    let sp = if header {
        0.0
    } else {
        px_len(o.layout_spacing)
    };
    let rect = LRect::new(0.0, 0.0, w, h, o.rtl);
    let out = if o.groups.is_empty() {
        // `index()`: a list of primitives is read as numbers, objects by `key`.
        let first_obj = matches!(tree.first(), Some(TreemapEntry::Object { .. }));
        // An object's value is `+object[key]`, a non-object's `+value`.
        let by_key = |v: &TreemapEntry| match v {
            TreemapEntry::Object { value, .. } => *value,
            TreemapEntry::Value(_) => f64::NAN,
        };
        let plain = |v: &TreemapEntry| match v {
            TreemapEntry::Object { .. } => f64::NAN,
            TreemapEntry::Value(n) => *n,
        };
        let val = |v: &TreemapEntry| -> f64 {
            if first_obj {
                if key.is_empty() {
                    f64::NAN
                } else {
                    by_key(v)
                }
            } else {
                plain(v)
            }
        };
        let sum: f64 = tree
            .iter()
            .map(|v| if key.is_empty() { plain(v) } else { by_key(v) })
            .sum();
        let nodes = tree
            .iter()
            .enumerate()
            .map(|(index, v)| Node {
                value: val(v),
                data: TreeData::Leaf {
                    index,
                    label: match v {
                        TreemapEntry::Object { label, .. } => label.clone(),
                        TreemapEntry::Value(_) => None,
                    },
                },
            })
            .collect();
        let mut sq = squarify(nodes, rect, sum, o.unsorted, false, 0);
        for s in sq.iter_mut() {
            s.is_leaf = true;
        }
        sq
    } else {
        layout_groups(o, tree, rect, sp, limits, cancel)
    };
    if !header {
        return out;
    }
    out.into_iter()
        .filter_map(|mut d| {
            if d.is_leaf {
                return Some(d);
            }
            if !caption_fits(&o.display_mode, d.w, d.h, o) {
                return None;
            }
            d.h = caption_height(&o.display_mode, d.h, o);
            Some(d)
        })
        .collect()
}

/// One level of grouping still to lay out: the entries of a group, the group level to split
/// them by, the rectangle they fill, and the output index of the group they belong to.
struct GroupTask {
    items: Vec<usize>,
    gidx: usize,
    rect: LRect,
    parent: Option<usize>,
}

/// The plugin's recursive `buildData` over `groups`, with an explicit stack: each level's
/// group rectangles, then each group's own levels in order (the plugin's `ret = gsq.slice()`
/// followed by every group's children).
fn layout_groups(
    o: &TreemapOptions,
    tree: &[TreemapEntry],
    rect: LRect,
    sp: f64,
    limits: &Limits,
    cancel: &Cancel,
) -> Vec<Sq> {
    let groups = &o.groups[..o.groups.len().min(limits.max_treemap_depth)];
    let glen = groups.len();
    let border = o.layout_border_width.to_array().map(px_len);
    let mut out: Vec<Sq> = Vec::new();
    let mut stack = vec![GroupTask {
        items: (0..tree.len()).collect(),
        gidx: 0,
        rect,
        parent: None,
    }];
    while let Some(task) = stack.pop() {
        if cancel.is_cancelled() {
            break;
        }
        let nodes = group_nodes(tree, &task.items, groups, task.gidx, &o.tree_leaf_key);
        drop(task.items);
        let sum: f64 = nodes.iter().map(|n| n.value).sum();
        let mut gsq = squarify(nodes, task.rect, sum, o.unsorted, true, task.gidx);
        if gsq.is_empty() {
            // A group whose entries form no group at the next level is a leaf.
            if let Some(p) = task.parent.and_then(|p| out.get_mut(p)) {
                p.is_leaf = true;
            }
            continue;
        }
        let room = limits.max_treemap_leaves.saturating_sub(out.len());
        gsq.truncate(room);
        let base = out.len();
        let mut next = Vec::new();
        for (j, mut sq) in gsq.into_iter().enumerate() {
            sq.is_leaf = true;
            if task.gidx + 1 < glen {
                if let TreeData::Group {
                    group_index,
                    children,
                    ..
                } = &sq.data
                {
                    if group_index + 1 < glen {
                        let bw = if o.display_mode == "headerBoxes" {
                            [0.0; 4]
                        } else {
                            let lim = |v: f64, m: f64| v.min(m).max(0.0);
                            let [t, r, b, l] = border;
                            [
                                lim(t, sq.h / 2.0),
                                lim(r, sq.w / 2.0),
                                lim(b, sq.h / 2.0),
                                lim(l, sq.w / 2.0),
                            ]
                        };
                        let mut sub = LRect::new(
                            sq.x + sp + bw[3],
                            sq.y + sp + bw[0],
                            sq.w - 2.0 * sp - bw[3] - bw[1],
                            sq.h - 2.0 * sp - bw[0] - bw[2],
                            o.rtl,
                        );
                        if caption_fits(&o.display_mode, sub.w, sub.h, o) {
                            let ch = caption_height(&o.display_mode, sub.h, o);
                            sub.y += ch;
                            sub.h -= ch;
                        }
                        sq.is_leaf = false;
                        next.push(GroupTask {
                            items: children.clone(),
                            gidx: group_index + 1,
                            rect: sub,
                            parent: Some(base + j),
                        });
                    }
                }
            }
            out.push(sq);
        }
        if out.len() >= limits.max_treemap_leaves {
            break;
        }
        stack.extend(next.into_iter().rev());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_spec::model::DatasetKind;
    use serde_json::{json, Value};

    fn opts(tree: Value, key: Option<&str>, groups: &[&str]) -> TreemapOptions {
        let cfg = json!({"type": "treemap", "data": {"datasets": [{"tree": tree, "key": key, "groups": groups}]}});
        let Value::Object(m) = cfg else { panic!() };
        let (chart, _) = chart_spec::resolve_chart(&m).expect("resolves");
        match chart.datasets[0].kind.clone() {
            DatasetKind::Treemap(t, _) => *t,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn areas_are_proportional_and_fill_the_rectangle() {
        let o = opts(json!([45, 30, 22, 15, 12, 9, 6, 4, 3]), None, &[]);
        let r = build_data(&o, 400.0, 300.0);
        assert_eq!(r.len(), 9);
        let total: f64 = 146.0;
        for s in &r {
            let expect = s.v / total * 400.0 * 300.0;
            assert!((s.w * s.h - expect).abs() < 1e-6, "{s:?}");
            assert!(s.x >= -1e-9 && s.x + s.w <= 400.0 + 1e-6);
            assert!(s.y >= -1e-9 && s.y + s.h <= 300.0 + 1e-6);
        }
        // Sorted largest first.
        assert_eq!(r[0].v, 45.0);
    }

    #[test]
    fn groups_nest_children_inside_their_group() {
        let tree = json!([
            {"cat": "a", "name": "x", "n": 5},
            {"cat": "a", "name": "y", "n": 3},
            {"cat": "b", "name": "z", "n": 8}
        ]);
        let o = opts(tree, Some("n"), &["cat", "name"]);
        let r = build_data(&o, 200.0, 100.0);
        assert_eq!(r.len(), 5);
        let a = r
            .iter()
            .find(|s| s.g.as_deref() == Some("a"))
            .expect("group a");
        assert_eq!(a.v, 8.0);
        assert!(!a.is_leaf);
        let x = r
            .iter()
            .find(|s| s.g.as_deref() == Some("x"))
            .expect("leaf x");
        assert!(x.is_leaf);
        assert!(x.x >= a.x && x.x + x.w <= a.x + a.w + 1e-9);
        assert!(x.y >= a.y && x.y + x.h <= a.y + a.h + 1e-9);
    }
}
