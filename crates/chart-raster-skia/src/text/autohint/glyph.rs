//! A glyph's points, segments and edges (`afhints`, `aflatin`'s glyph analysis).

use super::outline::for_each_point;
use super::{div_fix, mul_fix};
use crate::scene::PathCmd;

/// Directions of a vector (FreeType's `AF_Direction`).
pub(super) const DIR_NONE: i8 = 4;
pub(super) const DIR_RIGHT: i8 = 1;
pub(super) const DIR_LEFT: i8 = -1;
pub(super) const DIR_UP: i8 = 2;
pub(super) const DIR_DOWN: i8 = -2;

/// Points kept per glyph at most: a larger outline is drawn unhinted.
pub(super) const MAX_POINTS: usize = 4096;

/// Edge flags.
pub(super) const EDGE_ROUND: u8 = 1;
pub(super) const EDGE_SERIF: u8 = 2;
pub(super) const EDGE_DONE: u8 = 4;

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Point {
    pub(super) fx: i32,
    pub(super) fy: i32,
    /// Scaled y (26.6) before and after hinting.
    pub(super) oy: i64,
    pub(super) y: i64,
    pub(super) prev: usize,
    pub(super) next: usize,
    pub(super) control: bool,
    pub(super) weak: bool,
    pub(super) touched: bool,
    pub(super) in_dir: i8,
    pub(super) out_dir: i8,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Segment {
    pub(super) dir: i8,
    pub(super) first: usize,
    pub(super) last: usize,
    /// Height (font units) and its half spread.
    pub(super) pos: i32,
    pub(super) delta: i32,
    pub(super) min_coord: i32,
    pub(super) max_coord: i32,
    pub(super) height: i32,
    pub(super) round: bool,
    pub(super) link: Option<usize>,
    pub(super) serif: Option<usize>,
    pub(super) score: i64,
    pub(super) edge: Option<usize>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Edge {
    pub(super) fpos: i32,
    pub(super) opos: i64,
    pub(super) pos: i64,
    pub(super) dir: i8,
    pub(super) flags: u8,
    pub(super) link: Option<usize>,
    pub(super) serif: Option<usize>,
    pub(super) blue: Option<i64>,
    pub(super) segments: Vec<usize>,
}

/// A glyph's points and what the hinter found in them (`AF_GlyphHintsRec`, vertical axis).
pub(super) struct GlyphHints {
    pub(super) points: Vec<Point>,
    /// First point of each contour.
    pub(super) contours: Vec<usize>,
    pub(super) upem: i32,
    /// The direction of bottom edges (left in TrueType's clockwise outlines).
    pub(super) major_dir: i8,
    pub(super) segments: Vec<Segment>,
    pub(super) edges: Vec<Edge>,
}

impl GlyphHints {
    /// The points of an outline as FreeType holds them (implied on-curve points between two
    /// quadratic controls are not points), their directions and weak flags
    /// (`af_glyph_hints_reload`).
    pub(super) fn load(outline: &[PathCmd], upem: i32, scale: i64) -> Option<Self> {
        let mut points: Vec<Point> = Vec::new();
        let mut contours = Vec::new();
        for_each_point(outline, |x, y, control, start| {
            if start {
                contours.push(points.len());
            }
            points.push(Point {
                fx: x as i32,
                fy: y as i32,
                control,
                ..Point::default()
            });
        })?;
        if points.len() > MAX_POINTS || points.is_empty() {
            return None;
        }
        let n = points.len();
        for (ci, &start) in contours.iter().enumerate() {
            let end = contours.get(ci + 1).copied().unwrap_or(n) - 1;
            for (i, p) in points.iter_mut().enumerate().take(end + 1).skip(start) {
                p.prev = if i == start { end } else { i - 1 };
                p.next = if i == end { start } else { i + 1 };
            }
        }
        for p in points.iter_mut() {
            p.oy = mul_fix(i64::from(p.fy), scale);
            p.y = p.oy;
            p.in_dir = DIR_NONE;
            p.out_dir = DIR_NONE;
        }
        // TrueType outlines run clockwise: horizontal edges of the major direction go left.
        let mut area = 0i64;
        for p in &points {
            let q = &points[p.next];
            area += i64::from(p.fx) * i64::from(q.fy) - i64::from(q.fx) * i64::from(p.fy);
        }
        let major_dir = if area > 0 { DIR_RIGHT } else { DIR_LEFT };
        let mut hints = GlyphHints {
            points,
            contours,
            upem,
            major_dir,
            segments: Vec::new(),
            edges: Vec::new(),
        };
        hints.compute_directions();
        Some(hints)
    }

    pub(super) fn compute_directions(&mut self) {
        let n = self.points.len();
        let near_limit = 20 * self.upem / 2048;
        let near_limit2 = 2 * near_limit - 1;
        // Index of the next and previous non-near point of each point.
        let mut nxt: Vec<usize> = (0..n).collect();
        let mut prv: Vec<usize> = (0..n).collect();
        let pts = &mut self.points;
        for ci in 0..self.contours.len() {
            let mut first = self.contours[ci];
            // Start at a point that is not near its predecessor.
            let mut point = first;
            let mut prev = pts[first].prev;
            while prev != first {
                let (dx, dy) = (pts[point].fx - pts[prev].fx, pts[point].fy - pts[prev].fy);
                if dx.abs() + dy.abs() >= near_limit2 {
                    break;
                }
                point = prev;
                prev = pts[prev].prev;
            }
            first = point;
            let mut curr = first;
            nxt[curr] = first;
            prv[first] = curr;
            let (mut ox, mut oy) = (0, 0);
            let mut next = first;
            let mut guard = 0;
            loop {
                guard += 1;
                if guard > n + 1 {
                    break;
                }
                let p = next;
                next = pts[p].next;
                ox += pts[next].fx - pts[p].fx;
                oy += pts[next].fy - pts[p].fy;
                if ox.abs() + oy.abs() < near_limit {
                    pts[next].weak = true;
                    if next == first {
                        break;
                    }
                    continue;
                }
                nxt[curr] = next;
                prv[next] = curr;
                let dir = direction(ox, oy);
                pts[curr].out_dir = dir;
                let mut c = pts[curr].next;
                while c != next {
                    pts[c].in_dir = dir;
                    pts[c].out_dir = dir;
                    c = pts[c].next;
                }
                pts[next].in_dir = dir;
                curr = next;
                nxt[curr] = first;
                prv[first] = curr;
                ox = 0;
                oy = 0;
                if next == first {
                    break;
                }
            }
        }
        // Runs of diagonal vectors into one quadrant count as one.
        for i in 0..n {
            if pts[i].weak || pts[i].in_dir != DIR_NONE || pts[i].out_dir != DIR_NONE {
                continue;
            }
            let (u, v) = (nxt[i], prv[i]);
            let (ix, iy) = (pts[i].fx - pts[v].fx, pts[i].fy - pts[v].fy);
            let (ox, oy) = (pts[u].fx - pts[i].fx, pts[u].fy - pts[i].fy);
            if (ix ^ ox) >= 0 && (iy ^ oy) >= 0 {
                pts[i].weak = true;
                nxt[v] = u;
                prv[u] = v;
            }
        }
        for i in 0..n {
            if pts[i].weak {
                continue;
            }
            if pts[i].control {
                pts[i].weak = true;
            } else if pts[i].out_dir == pts[i].in_dir {
                if pts[i].out_dir != DIR_NONE {
                    pts[i].weak = true;
                    continue;
                }
                let (u, v) = (nxt[i], prv[i]);
                if corner_is_flat(
                    pts[i].fx - pts[v].fx,
                    pts[i].fy - pts[v].fy,
                    pts[u].fx - pts[i].fx,
                    pts[u].fy - pts[i].fy,
                ) {
                    nxt[v] = u;
                    prv[u] = v;
                    pts[i].weak = true;
                }
            } else if pts[i].in_dir == -pts[i].out_dir {
                pts[i].weak = true;
            }
        }
    }

    /// Runs of points along horizontal lines (`af_latin_hints_compute_segments`, vertical
    /// dimension: positions are heights, coordinates are x).
    pub(super) fn compute_segments(&mut self) {
        let flat_threshold = self.upem / 14;
        let major = self.major_dir.abs();
        let pts = &self.points;
        let mut segments: Vec<Segment> = Vec::new();
        for ci in 0..self.contours.len() {
            let start = self.contours[ci];
            let mut point = start;
            let mut last = pts[point].prev;
            if pts[last].out_dir.abs() == major && pts[point].out_dir.abs() == major {
                // Already on an edge: find its start.
                last = point;
                loop {
                    point = pts[point].prev;
                    if pts[point].out_dir.abs() != major {
                        point = pts[point].next;
                        break;
                    }
                    if point == last {
                        break;
                    }
                }
            }
            let last = point;
            let mut passed = false;
            let mut on_edge = false;
            let mut seg = Segment::default();
            let (mut min_pos, mut max_pos, mut min_coord, mut max_coord) = (0, 0, 0, 0);
            let (mut min_ctl, mut max_ctl) = (false, false);
            let (mut min_on, mut max_on) = (32000, -32000);
            let mut prev_seg: Option<usize> = None;
            let mut prev_state = (0, 0, 0, 0, false, false, 0, 0);
            let mut guard = 0;
            loop {
                guard += 1;
                if guard > 2 * pts.len() + 4 {
                    break;
                }
                let p = &pts[point];
                if on_edge {
                    let (u, v) = (p.fy, p.fx);
                    min_pos = min_pos.min(u);
                    max_pos = max_pos.max(u);
                    if v < min_coord {
                        min_coord = v;
                        min_ctl = p.control;
                    }
                    if v > max_coord {
                        max_coord = v;
                        max_ctl = p.control;
                    }
                    if !p.control {
                        min_on = min_on.min(v);
                        max_on = max_on.max(v);
                    }
                    if p.out_dir != seg.dir || point == last {
                        let merge = prev_seg
                            .map(|ps| segments[ps].last == seg.first)
                            .unwrap_or(false);
                        if !merge {
                            seg.last = point;
                            seg.pos = (min_pos + max_pos) >> 1;
                            seg.delta = (max_pos - min_pos) >> 1;
                            seg.round = (min_ctl || max_ctl) && max_on - min_on < flat_threshold;
                            seg.min_coord = min_coord;
                            seg.max_coord = max_coord;
                            seg.height = max_coord - min_coord;
                            prev_state = (
                                min_pos, max_pos, min_coord, max_coord, min_ctl, max_ctl, min_on,
                                max_on,
                            );
                            segments.push(seg.clone());
                            prev_seg = Some(segments.len() - 1);
                        } else if let Some(ps) = prev_seg {
                            let (
                                pmin_pos,
                                pmax_pos,
                                pmin_c,
                                pmax_c,
                                pmin_ctl,
                                pmax_ctl,
                                pmin_on,
                                pmax_on,
                            ) = prev_state;
                            if pts[segments[ps].last].in_dir == p.in_dir {
                                // Same direction: unify.
                                min_pos = min_pos.min(pmin_pos);
                                max_pos = max_pos.max(pmax_pos);
                                if pmin_c < min_coord {
                                    min_coord = pmin_c;
                                    min_ctl = pmin_ctl;
                                }
                                if pmax_c > max_coord {
                                    max_coord = pmax_c;
                                    max_ctl = pmax_ctl;
                                }
                                min_on = min_on.min(pmin_on);
                                max_on = max_on.max(pmax_on);
                                let s = &mut segments[ps];
                                s.last = point;
                                s.pos = (min_pos + max_pos) >> 1;
                                s.delta = (max_pos - min_pos) >> 1;
                                s.round = (min_ctl || max_ctl) && max_on - min_on < flat_threshold;
                                s.min_coord = min_coord;
                                s.max_coord = max_coord;
                                s.height = max_coord - min_coord;
                            } else if (pmax_c - pmin_c).abs() > (max_coord - min_coord).abs() {
                                // Keep the longer (previous) one.
                                let (a, b) = (min_pos.min(pmin_pos), max_pos.max(pmax_pos));
                                prev_state.0 = a;
                                prev_state.1 = b;
                                let s = &mut segments[ps];
                                s.last = point;
                                s.pos = (a + b) >> 1;
                                s.delta = (b - a) >> 1;
                            } else {
                                min_pos = min_pos.min(pmin_pos);
                                max_pos = max_pos.max(pmax_pos);
                                seg.last = point;
                                seg.pos = (min_pos + max_pos) >> 1;
                                seg.delta = (max_pos - min_pos) >> 1;
                                seg.round =
                                    (min_ctl || max_ctl) && max_on - min_on < flat_threshold;
                                seg.min_coord = min_coord;
                                seg.max_coord = max_coord;
                                seg.height = max_coord - min_coord;
                                segments[ps] = seg.clone();
                                prev_state = (
                                    min_pos, max_pos, min_coord, max_coord, min_ctl, max_ctl,
                                    min_on, max_on,
                                );
                            }
                        }
                        on_edge = false;
                    }
                }
                if point == last {
                    if passed {
                        break;
                    }
                    passed = true;
                }
                let p = &pts[point];
                if !on_edge && (p.out_dir.abs() == major || p.prev == point) {
                    seg = Segment {
                        dir: p.out_dir,
                        first: point,
                        last: point,
                        score: 32000,
                        ..Segment::default()
                    };
                    min_pos = p.fy;
                    max_pos = p.fy;
                    min_coord = p.fx;
                    max_coord = p.fx;
                    min_ctl = p.control;
                    max_ctl = p.control;
                    if p.control {
                        min_on = 32000;
                        max_on = -32000;
                    } else {
                        min_on = p.fx;
                        max_on = p.fx;
                    }
                    on_edge = true;
                    if p.prev == point {
                        seg.pos = p.fy;
                        seg.round = p.control;
                        seg.min_coord = p.fx;
                        seg.max_coord = p.fx;
                        seg.dir = DIR_NONE;
                        segments.push(seg.clone());
                        on_edge = false;
                    }
                }
                point = pts[point].next;
            }
        }
        // Lengthen segments by half their neighbouring slopes (serifs are told apart by it).
        for s in segments.iter_mut() {
            let (f, l) = (&pts[s.first], &pts[s.last]);
            let (fv, lv) = (f.fx, l.fx);
            let (pv, nv) = (pts[f.prev].fx, pts[l.next].fx);
            if fv < lv {
                if pv < fv {
                    s.height += (fv - pv) >> 1;
                }
                if nv > lv {
                    s.height += (nv - lv) >> 1;
                }
            } else {
                if pv > fv {
                    s.height += (pv - fv) >> 1;
                }
                if nv < lv {
                    s.height += (lv - nv) >> 1;
                }
            }
        }
        self.segments = segments;
    }

    /// Pairs segments into stems (`af_latin_hints_link_segments`).
    pub(super) fn link_segments(&mut self, max_width: i32) {
        let len_threshold = (8 * self.upem / 2048).max(1);
        let len_score = i64::from(6000 * self.upem / 2048);
        let major = self.major_dir;
        let segs = &mut self.segments;
        let n = segs.len();
        for i in 0..n {
            if segs[i].dir != major {
                continue;
            }
            for j in 0..n {
                let (pos1, pos2) = (segs[i].pos, segs[j].pos);
                if segs[i].dir + segs[j].dir != 0 || pos2 <= pos1 {
                    continue;
                }
                let min = segs[i].min_coord.max(segs[j].min_coord);
                let max = segs[i].max_coord.min(segs[j].max_coord);
                let len = max - min;
                if len < len_threshold {
                    continue;
                }
                let dist = i64::from(pos2 - pos1);
                let dist_demerit = if max_width > 0 {
                    let delta = (dist << 10) / i64::from(max_width) - (1 << 10);
                    if delta > 10000 {
                        32000
                    } else if delta > 0 {
                        delta * delta / 3000
                    } else {
                        0
                    }
                } else {
                    dist
                };
                let score = dist_demerit + len_score / i64::from(len);
                if score < segs[i].score {
                    segs[i].score = score;
                    segs[i].link = Some(j);
                }
                if score < segs[j].score {
                    segs[j].score = score;
                    segs[j].link = Some(i);
                }
            }
        }
        for i in 0..n {
            if let Some(l) = segs[i].link {
                if segs[l].link != Some(i) {
                    segs[i].link = None;
                    segs[i].serif = segs[l].link;
                }
            }
        }
    }

    /// Merges segments at about the same height into edges, sorted bottom to top
    /// (`af_latin_hints_compute_edges`).
    pub(super) fn compute_edges(&mut self, scale: i64, edge_distance_threshold: i32) {
        let width_threshold = div_fix(32, scale);
        let mut threshold = mul_fix(i64::from(edge_distance_threshold), scale).min(16);
        threshold = div_fix(threshold, scale);
        let mut edges: Vec<Edge> = Vec::new();
        for si in 0..self.segments.len() {
            let s = &self.segments[si];
            if i64::from(s.delta) > width_threshold || s.dir == DIR_NONE {
                continue;
            }
            let found = edges
                .iter()
                .position(|e| i64::from((s.pos - e.fpos).abs()) < threshold && e.dir == s.dir);
            match found {
                Some(e) => edges[e].segments.push(si),
                None => {
                    // Keep edges sorted; at the same height, minor-direction edges first.
                    let mut at = edges.len();
                    while at > 0 {
                        let prev = &edges[at - 1];
                        if prev.fpos < s.pos || (prev.fpos == s.pos && s.dir == self.major_dir) {
                            break;
                        }
                        at -= 1;
                    }
                    let opos = mul_fix(i64::from(s.pos), scale);
                    edges.insert(
                        at,
                        Edge {
                            fpos: s.pos,
                            opos,
                            pos: opos,
                            dir: s.dir,
                            segments: vec![si],
                            ..Edge::default()
                        },
                    );
                }
            }
        }
        // One-point segments join an edge at their height, if any.
        for si in 0..self.segments.len() {
            let s = &self.segments[si];
            if s.dir != DIR_NONE {
                continue;
            }
            if let Some(e) = edges
                .iter()
                .position(|e| i64::from((s.pos - e.fpos).abs()) < threshold)
            {
                edges[e].segments.push(si);
            }
        }
        for (ei, e) in edges.iter().enumerate() {
            for &si in &e.segments {
                self.segments[si].edge = Some(ei);
            }
        }
        for ei in 0..edges.len() {
            let (mut round, mut straight) = (0, 0);
            let segs = edges[ei].segments.clone();
            for si in segs {
                let seg = &self.segments[si];
                if seg.round {
                    round += 1;
                } else {
                    straight += 1;
                }
                let serif_edge = seg.serif.and_then(|s| self.segments[s].edge);
                let is_serif = serif_edge.is_some_and(|e| e != ei);
                let link_edge = seg.link.and_then(|s| self.segments[s].edge);
                if link_edge.is_some() || is_serif {
                    let seg2 = if is_serif { seg.serif } else { seg.link };
                    let Some(seg2) = seg2 else { continue };
                    let current = if is_serif {
                        edges[ei].serif
                    } else {
                        edges[ei].link
                    };
                    let mut edge2 = self.segments[seg2].edge;
                    if let Some(c) = current {
                        let edge_delta = (edges[ei].fpos - edges[c].fpos).abs();
                        let seg_delta = (seg.pos - self.segments[seg2].pos).abs();
                        if seg_delta >= edge_delta {
                            edge2 = Some(c);
                        }
                    }
                    if is_serif {
                        edges[ei].serif = edge2;
                        if let Some(e2) = edge2 {
                            edges[e2].flags |= EDGE_SERIF;
                        }
                    } else {
                        edges[ei].link = edge2;
                    }
                }
            }
            // Keep the serif flag set by an earlier edge.
            edges[ei].flags &= EDGE_SERIF;
            if round > 0 && round >= straight {
                edges[ei].flags |= EDGE_ROUND;
            }
            if edges[ei].serif.is_some() && edges[ei].link.is_some() {
                edges[ei].serif = None;
            }
        }
        self.edges = edges;
    }
}

/// `af_direction_compute`: the axis a vector runs along, or none when it is diagonal.
fn direction(dx: i32, dy: i32) -> i8 {
    let (dir, ll, ss) = if dy >= dx {
        if dy >= -dx {
            (DIR_UP, dy, dx)
        } else {
            (DIR_LEFT, -dx, dy)
        }
    } else if dy >= -dx {
        (DIR_RIGHT, dx, dy)
    } else {
        (DIR_DOWN, -dy, dx)
    };
    if i64::from(ll) <= 14 * i64::from(ss).abs() {
        DIR_NONE
    } else {
        dir
    }
}

/// `ft_corner_is_flat`: whether the in and out vectors nearly continue each other.
fn corner_is_flat(ix: i32, iy: i32, ox: i32, oy: i32) -> bool {
    let hypot = |x: i32, y: i32| {
        let (x, y) = (i64::from(x).abs(), i64::from(y).abs());
        if x > y {
            x + ((3 * y) >> 3)
        } else {
            y + ((3 * x) >> 3)
        }
    };
    let d_in = hypot(ix, iy);
    let d_out = hypot(ox, oy);
    let d_hypot = hypot(ix + ox, iy + oy);
    d_in + d_out - d_hypot < (d_hypot >> 4)
}
