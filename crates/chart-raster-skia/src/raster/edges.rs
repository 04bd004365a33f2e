//! The edges of Skia's supersampling scan converter, as tiny-skia builds them for an
//! anti-aliased fill (`BasicEdgeBuilder`, `LineEdge`, `QuadraticEdge`, `CubicEdge`, and the
//! part of `EdgeClipper` that cuts lines and quadratics at the target's top and bottom),
//! for `supersample.rs`: points × 256 truncated to 26.6 fixed point,
//! quadratics and cubics chopped at their y extrema in floating point first (with the same
//! flattening of the chopped extrema), then stepped by forward differences in fixed point,
//! vertical lines in a row combined. Every step is tiny-skia's, operation for operation:
//! one rounding apart and the coverage differs.

use tiny_skia::{Path, Point};
use tiny_skia_path::path_geometry::{
    chop_cubic_at2, chop_quad_at, find_unit_quad_roots, new_t_values, valid_unit_divide,
};
use tiny_skia_path::NormalizedF32Exclusive;
use tiny_skia_path::PathVerb;

/// `1 << SHIFT` sub-scanlines and sub-columns per pixel (tiny-skia's `SUPERSAMPLE_SHIFT`).
pub(super) const SHIFT: i32 = 2;
/// Up to `1 << MAX_COEFF_SHIFT` line pieces per curve edge.
const MAX_COEFF_SHIFT: i32 = 6;

/// Which kind of segment an edge steps along.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Kind {
    #[default]
    Line,
    Quad,
    Cubic,
}

/// One edge: its current line piece (x in 16.16 at the current sub-scanline, the slope, the
/// rows it spans) and, for a curve, the forward-difference state of the pieces to come.
#[derive(Clone, Copy, Default)]
pub(super) struct Edge {
    pub(super) prev: u32,
    pub(super) next: u32,
    pub(super) x: i32,
    pub(super) dx: i32,
    pub(super) first_y: i32,
    pub(super) last_y: i32,
    pub(super) winding: i8,
    pub(super) kind: Kind,
    /// Pieces left: counts down from `1 << shift` for a quadratic, up from `-(1 << shift)`
    /// for a cubic (tiny-skia's signs).
    pub(super) curve_count: i8,
    curve_shift: u8,
    /// A cubic's shift of `d` (its `dshift`).
    dshift: u8,
    cx: i32,
    cy: i32,
    cdx: i32,
    cdy: i32,
    cddx: i32,
    cddy: i32,
    cdddx: i32,
    cdddy: i32,
    last_x: i32,
    last_yc: i32,
}

fn left_shift(v: i32, s: i32) -> i32 {
    ((v as u32) << s) as i32
}

fn fdot6_round(n: i32) -> i32 {
    (n + 32) >> 6
}

fn fdot6_to_fdot16(n: i32) -> i32 {
    left_shift(n, 10)
}

fn fdot6_div(a: i32, b: i32) -> i32 {
    if i16::try_from(a).is_ok() {
        left_shift(a, 16) / b
    } else {
        let v = (((a as i64) as u64) << 16) as i64 / b as i64;
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}

fn fdot16_mul(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> 16) as i32
}

/// Favours the lower pixel when `y0` is on a half pixel (`compute_dy`).
fn compute_dy(top: i32, y0: i32) -> i32 {
    left_shift(top, 6) + 32 - y0
}

/// The fixed-point value of a coordinate at 4× supersampling, 26.6 (truncated, as
/// tiny-skia's `(p * scale) as i32`).
fn dot6(v: f32) -> i32 {
    (v * (1 << (SHIFT + 6)) as f32) as i32
}

impl Edge {
    /// An edge of no rows that only links the list.
    pub(super) fn sentinel(prev: u32, next: u32, x: i32, first_y: i32) -> Edge {
        Edge {
            prev,
            next,
            x,
            first_y,
            ..Edge::default()
        }
    }

    fn line(p0: Point, p1: Point) -> Option<Edge> {
        let (mut x0, mut y0, mut x1, mut y1) = (dot6(p0.x), dot6(p0.y), dot6(p1.x), dot6(p1.y));
        let mut winding = 1;
        if y0 > y1 {
            std::mem::swap(&mut x0, &mut x1);
            std::mem::swap(&mut y0, &mut y1);
            winding = -1;
        }
        let (top, bottom) = (fdot6_round(y0), fdot6_round(y1));
        if top == bottom {
            return None;
        }
        let slope = fdot6_div(x1 - x0, y1 - y0);
        let dy = compute_dy(top, y0);
        Some(Edge {
            x: fdot6_to_fdot16(x0 + fdot16_mul(slope, dy)),
            dx: slope,
            first_y: top,
            last_y: bottom - 1,
            winding,
            ..Edge::default()
        })
    }

    /// The last sub-scanline the edge covers (a curve's last piece's, from its end point).
    pub(super) fn last_row(&self) -> i32 {
        match self.kind {
            Kind::Line => self.last_y,
            _ => fdot6_round(self.last_yc >> 10) - 1,
        }
    }

    /// The next line piece of a curve, from 16.16 end points (`LineEdge::update`).
    fn set_piece(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) -> bool {
        let (y0, y1) = (y0 >> 10, y1 >> 10);
        let (top, bottom) = (fdot6_round(y0), fdot6_round(y1));
        if top == bottom {
            return false;
        }
        let (x0, x1) = (x0 >> 10, x1 >> 10);
        let slope = fdot6_div(x1 - x0, y1 - y0);
        let dy = compute_dy(top, y0);
        self.x = fdot6_to_fdot16(x0 + fdot16_mul(slope, dy));
        self.dx = slope;
        self.first_y = top;
        self.last_y = bottom - 1;
        true
    }

    fn quad(p: &[Point]) -> Option<Edge> {
        let (mut x0, mut y0) = (dot6(p[0].x), dot6(p[0].y));
        let (x1, y1) = (dot6(p[1].x), dot6(p[1].y));
        let (mut x2, mut y2) = (dot6(p[2].x), dot6(p[2].y));
        let mut winding = 1;
        if y0 > y2 {
            std::mem::swap(&mut x0, &mut x2);
            std::mem::swap(&mut y0, &mut y2);
            winding = -1;
        }
        if fdot6_round(y0) == fdot6_round(y2) {
            return None;
        }
        let dx = (left_shift(x1, 1) - x0 - x2) >> 2;
        let dy = (left_shift(y1, 1) - y0 - y2) >> 2;
        let mut shift = diff_to_shift(dx, dy, SHIFT);
        if shift == 0 {
            shift = 1;
        } else if shift > MAX_COEFF_SHIFT {
            shift = MAX_COEFF_SHIFT;
        }
        // A and B stored at half their value (`QuadraticEdge::new2`).
        let half = |v: i32| left_shift(v, 16 - 6 - 1);
        let (ax, bx) = (half(x0 - x1 - x1 + x2), fdot6_to_fdot16(x1 - x0));
        let (ay, by) = (half(y0 - y1 - y1 + y2), fdot6_to_fdot16(y1 - y0));
        let mut e = Edge {
            winding,
            kind: Kind::Quad,
            curve_count: (1 << shift) as i8,
            curve_shift: (shift - 1) as u8,
            cx: fdot6_to_fdot16(x0),
            cy: fdot6_to_fdot16(y0),
            cdx: bx + (ax >> shift),
            cdy: by + (ay >> shift),
            cddx: ax >> (shift - 1),
            cddy: ay >> (shift - 1),
            last_x: fdot6_to_fdot16(x2),
            last_yc: fdot6_to_fdot16(y2),
            ..Edge::default()
        };
        e.update_quad().then_some(e)
    }

    pub(super) fn update_quad(&mut self) -> bool {
        let mut count = self.curve_count;
        let (mut oldx, mut oldy) = (self.cx, self.cy);
        let (mut dx, mut dy) = (self.cdx, self.cdy);
        let shift = self.curve_shift;
        let (mut newx, mut newy);
        let mut success;
        loop {
            count -= 1;
            if count > 0 {
                newx = oldx + (dx >> shift);
                dx += self.cddx;
                newy = oldy + (dy >> shift);
                dy += self.cddy;
            } else {
                newx = self.last_x;
                newy = self.last_yc;
            }
            success = self.set_piece(oldx, oldy, newx, newy);
            oldx = newx;
            oldy = newy;
            if count == 0 || success {
                break;
            }
        }
        self.cx = newx;
        self.cy = newy;
        self.cdx = dx;
        self.cdy = dy;
        self.curve_count = count;
        success
    }

    fn cubic(p: &[Point]) -> Option<Edge> {
        let mut v = [0i32; 8];
        for (i, q) in p[..4].iter().enumerate() {
            v[2 * i] = dot6(q.x);
            v[2 * i + 1] = dot6(q.y);
        }
        let [mut x0, mut y0, mut x1, mut y1, mut x2, mut y2, mut x3, mut y3] = v;
        let mut winding = 1;
        if y0 > y3 {
            std::mem::swap(&mut x0, &mut x3);
            std::mem::swap(&mut x1, &mut x2);
            std::mem::swap(&mut y0, &mut y3);
            std::mem::swap(&mut y1, &mut y2);
            winding = -1;
        }
        if fdot6_round(y0) == fdot6_round(y3) {
            return None;
        }
        let dx = cubic_delta_from_line(x0, x1, x2, x3);
        let dy = cubic_delta_from_line(y0, y1, y2, y3);
        let shift = (diff_to_shift(dx, dy, 2) + 1).min(MAX_COEFF_SHIFT);
        let mut up_shift = 6;
        let mut down_shift = shift + up_shift - 10;
        if down_shift < 0 {
            down_shift = 0;
            up_shift = 10 - shift;
        }
        let up = |v: i32| left_shift(v, up_shift);
        let coeffs = |a: i32, b: i32, c: i32, d: i32| {
            let bb = up(3 * (b - a));
            let cc = up(3 * (a - b - b + c));
            let dd = up(d + 3 * (b - c) - a);
            (
                bb + (cc >> shift) + (dd >> (2 * shift)),
                2 * cc + ((3 * dd) >> (shift - 1)),
                (3 * dd) >> (shift - 1),
            )
        };
        let (cdx, cddx, cdddx) = coeffs(x0, x1, x2, x3);
        let (cdy, cddy, cdddy) = coeffs(y0, y1, y2, y3);
        let mut e = Edge {
            winding,
            kind: Kind::Cubic,
            curve_count: left_shift(-1, shift) as i8,
            curve_shift: shift as u8,
            dshift: down_shift as u8,
            cx: fdot6_to_fdot16(x0),
            cy: fdot6_to_fdot16(y0),
            cdx,
            cdy,
            cddx,
            cddy,
            cdddx,
            cdddy,
            last_x: fdot6_to_fdot16(x3),
            last_yc: fdot6_to_fdot16(y3),
            ..Edge::default()
        };
        e.update_cubic().then_some(e)
    }

    pub(super) fn update_cubic(&mut self) -> bool {
        let mut count = self.curve_count;
        let (mut oldx, mut oldy) = (self.cx, self.cy);
        let (ddshift, dshift) = (self.curve_shift, self.dshift);
        let (mut newx, mut newy);
        let mut success;
        loop {
            count += 1;
            if count < 0 {
                newx = oldx + (self.cdx >> dshift);
                self.cdx += self.cddx >> ddshift;
                self.cddx += self.cdddx;
                newy = oldy + (self.cdy >> dshift);
                self.cdy += self.cddy >> ddshift;
                self.cddy += self.cdddy;
            } else {
                newx = self.last_x;
                newy = self.last_yc;
            }
            // Fixed-point steps may go up a little: pinned, as tiny-skia does.
            if newy < oldy {
                newy = oldy;
            }
            success = self.set_piece(oldx, oldy, newx, newy);
            oldx = newx;
            oldy = newy;
            if count == 0 || success {
                break;
            }
        }
        self.cx = newx;
        self.cy = newy;
        self.curve_count = count;
        success
    }
}

fn diff_to_shift(dx: i32, dy: i32, shift_aa: i32) -> i32 {
    let (dx, dy) = (dx.abs(), dy.abs());
    let mut dist = if dx > dy {
        dx + (dy >> 1)
    } else {
        dy + (dx >> 1)
    };
    dist = (dist + (1 << 4)) >> (3 + shift_aa);
    (32 - dist.leading_zeros() as i32) >> 1
}

fn cubic_delta_from_line(a: i32, b: i32, c: i32, d: i32) -> i32 {
    let one_third = ((a * 8 - b * 15 + 6 * c + d) * 19) >> 9;
    let two_third = ((a + 6 * b - c * 15 + d * 8) * 19) >> 9;
    one_third.abs().max(two_third.abs())
}

/// Two vertical line edges in a row on the same column merge or cancel
/// (`combine_vertical` in tiny-skia's edge builder): `true` when `edge` was absorbed.
fn combine_vertical(edge: &Edge, edges: &mut Vec<Edge>, first: usize) -> bool {
    if edges.len() <= first {
        return false; // only edges of this path combine (not the list's head before them)
    }
    let Some(last) = edges.last_mut() else {
        return false;
    };
    if last.kind != Kind::Line || last.dx != 0 || edge.x != last.x {
        return false;
    }
    if edge.winding == last.winding {
        if edge.last_y + 1 == last.first_y {
            last.first_y = edge.first_y;
            return true;
        }
        if edge.first_y == last.last_y + 1 {
            last.last_y = edge.last_y;
            return true;
        }
        return false;
    }
    if edge.first_y == last.first_y {
        if edge.last_y == last.last_y {
            edges.pop();
        } else if edge.last_y < last.last_y {
            last.first_y = edge.last_y + 1;
        } else {
            last.first_y = last.last_y + 1;
            last.last_y = edge.last_y;
            last.winding = edge.winding;
        }
        return true;
    }
    if edge.last_y == last.last_y {
        if edge.first_y > last.first_y {
            last.last_y = edge.first_y - 1;
        } else {
            last.last_y = last.first_y - 1;
            last.first_y = edge.first_y;
            last.winding = edge.winding;
        }
        return true;
    }
    false
}

/// The edges of a path in the supersampler's list, in tiny-skia's order: a stable sort by
/// first row then x (ties keep the path's order), a head before them (left of everything,
/// before every row) at 0 and a tail after them (after every row) at the end; the edges
/// stay in the path's order and only their links follow the sorted order. Fewer than two
/// edges: the list is empty (nothing to cover). `None` as [`build_edges`].
pub(super) fn linked_edges(path: &Path, clip: Option<(f32, f32)>) -> Option<Vec<Edge>> {
    let mut edges: Vec<Edge> = Vec::with_capacity(path.points().len() + 6);
    edges.push(Edge::default()); // the head, linked below
    build_edges(path, clip, &mut edges)?;
    let n = edges.len() - 1;
    if n < 2 {
        edges.clear();
        return Some(edges);
    }
    // A point marker has a handful of edges: their order is found by insertion on packed
    // keys in a fixed array, without allocating (the general sort and its key vector cost
    // a scatter chart more than building the edges' list did).
    let mut small = [0u64; SMALL_LIST];
    let mut order = Vec::new();
    let keys: &mut [u64] = match packed_keys(&edges[1..], &mut small) {
        Some(keys) => {
            insertion_sort(keys);
            keys
        }
        None => {
            order = sorted_order(&edges[1..]);
            &mut []
        }
    };
    let index = |k: usize| -> usize {
        if keys.is_empty() {
            order[k] as usize
        } else {
            (keys[k] & 0xffff) as usize
        }
    };
    let (first, last) = (index(0), index(n - 1));
    edges[0] = Edge::sentinel(0, first as u32, i32::MIN, i32::MIN);
    edges.push(Edge::sentinel(last as u32, 0, 0, i32::MAX));
    let mut prev = 0;
    for k in 0..n {
        let i = index(k);
        edges[i].prev = prev as u32;
        edges[i].next = if k + 1 < n { index(k + 1) } else { n + 1 } as u32;
        prev = i;
    }
    Some(edges)
}

/// The indices (from 1) of `edges` in (first row, x, index) order.
///
/// A long path's edges start on rows spread over its height, a few on each (the time
/// series' outline: 6,740 over 3,600 sub-scanlines): they are counted into their rows,
/// placed row by row in index order, and each row's few put in x order, where sorting the
/// (row, x, index) tuples took most of building the edges (0.3 ms). Rows spread far wider
/// than the edges, and rows holding many edges (bars on one baseline), are sorted.
fn sorted_order(edges: &[Edge]) -> Vec<u32> {
    /// Rows holding more edges than this are sorted rather than ordered by insertion.
    const FEW: usize = 16;
    let n = edges.len();
    let (lo, hi) = edges.iter().fold((i32::MAX, i32::MIN), |(lo, hi), e| {
        (lo.min(e.first_y), hi.max(e.first_y))
    });
    let rows = i64::from(hi) - i64::from(lo) + 1;
    if n == 0 || rows > 4 * n as i64 + 64 {
        return tuples_order(edges);
    }
    // `ends[r]`: where row `r`'s edges end once placed (they start where row `r - 1`'s end).
    let row = |e: &Edge| (e.first_y - lo) as usize;
    let mut ends = vec![0u32; rows as usize];
    for e in edges {
        ends[row(e)] += 1;
    }
    let mut sum = 0;
    for c in &mut ends {
        sum += *c;
        *c = sum - *c; // the row's start, moved to its end by the placing below
    }
    let mut order = vec![0u32; n];
    for (i, e) in edges.iter().enumerate() {
        let at = &mut ends[row(e)];
        order[*at as usize] = i as u32 + 1;
        *at += 1;
    }
    let x = |i: u32| edges[i as usize - 1].x;
    let mut start = 0;
    for &end in &ends {
        let run = &mut order[start..end as usize];
        start = end as usize;
        if run.len() > FEW {
            run.sort_unstable_by_key(|&i| (x(i), i));
        } else {
            // In index order already: an insertion by x keeps equal x in it.
            for k in 1..run.len() {
                let v = run[k];
                let mut j = k;
                while j > 0 && x(run[j - 1]) > x(v) {
                    run[j] = run[j - 1];
                    j -= 1;
                }
                run[j] = v;
            }
        }
    }
    order
}

/// The indices (from 1) of `edges` in the sorted order of their (row, x, index) tuples:
/// [`sorted_order`] for rows spread far wider than the edges.
fn tuples_order(edges: &[Edge]) -> Vec<u32> {
    let mut order = (edges.iter().enumerate())
        .map(|(i, e)| (e.first_y, e.x, i as u32 + 1))
        .collect::<Vec<_>>();
    order.sort_unstable();
    order.into_iter().map(|o| o.2).collect()
}

/// Lists up to this many edges are ordered in a fixed array.
const SMALL_LIST: usize = 32;

/// The edges' (first row, x, index) keys packed into one `u64` each, in `keys` (row 16
/// bits, x 32 bits biased to order as unsigned, index 16 bits from 1): the same order as
/// the tuples. `None` when there are too many edges or a row does not fit (the caller then
/// sorts the tuples).
fn packed_keys<'k>(edges: &[Edge], keys: &'k mut [u64; SMALL_LIST]) -> Option<&'k mut [u64]> {
    if edges.len() > SMALL_LIST {
        return None;
    }
    for (i, e) in edges.iter().enumerate() {
        let row = u16::try_from(e.first_y).ok()?;
        let x = (e.x as u32) ^ 0x8000_0000;
        keys[i] = (u64::from(row) << 48) | (u64::from(x) << 16) | (i as u64 + 1);
    }
    Some(&mut keys[..edges.len()])
}

/// Sorts a few keys in place (all distinct: each holds its index).
fn insertion_sort(keys: &mut [u64]) {
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
    }
}

/// The edges of a path, each contour closed, as tiny-skia's `BasicEdgeBuilder` builds them
/// (cut at the target's top and bottom with `clip`), appended to `edges` (whose earlier
/// entries are left alone); `None` on a non-finite point or a cut not reproduced.
fn build_edges(path: &Path, clip: Option<(f32, f32)>, edges: &mut Vec<Edge>) -> Option<()> {
    let first = edges.len();
    let push_line = |edges: &mut Vec<Edge>, a: Point, b: Point| -> Option<()> {
        let Some([a, b]) = (match clip {
            Some((w, h)) => clip_line(a, b, w, h)?,
            None => Some([a, b]),
        }) else {
            return Some(());
        };
        if let Some(e) = Edge::line(a, b) {
            if !(e.dx == 0 && combine_vertical(&e, edges, first)) {
                edges.push(e);
            }
        }
        Some(())
    };
    let (mut start, mut last) = (Point::zero(), Point::zero());
    let mut open = false;
    // The verbs and their points read straight from the path (what `segments()` yields,
    // without its iterator's bookkeeping: a scatter chart builds the edges of 20,000 paths).
    let points = path.points();
    let mut at = 0;
    for verb in path.verbs() {
        let n = match verb {
            PathVerb::Move | PathVerb::Line => 1,
            PathVerb::Quad => 2,
            PathVerb::Cubic => 3,
            PathVerb::Close => 0,
        };
        let p = points.get(at..at + n)?;
        at += n;
        match verb {
            PathVerb::Move => {
                if open {
                    push_line(edges, last, start)?;
                    open = false;
                }
                start = p[0];
                last = p[0];
            }
            PathVerb::Line => {
                push_line(edges, last, p[0])?;
                last = p[0];
                open = true;
            }
            PathVerb::Quad => {
                let src = [last, p[0], p[1]];
                let mut mono = [Point::zero(); 5];
                let n = chop_quad_at_y_extrema(&src, &mut mono);
                for i in 0..=n {
                    let piece = [mono[i * 2], mono[i * 2 + 1], mono[i * 2 + 2]];
                    let piece = match clip {
                        Some((w, h)) => clip_quad(piece, w, h)?,
                        None => Some(piece),
                    };
                    edges.extend(piece.and_then(|q| Edge::quad(&q)));
                }
                last = p[1];
                open = true;
            }
            PathVerb::Cubic => {
                let src = [last, p[0], p[1], p[2]];
                let mut mono = [Point::zero(); 10];
                let n = chop_cubic_at_y_extrema(&src, &mut mono);
                if let Some((w, h)) = clip {
                    if !cubic_unclipped(&src, &mono[..n * 3 + 4], w, h) {
                        return None;
                    }
                }
                for i in 0..=n {
                    edges.extend(Edge::cubic(&mono[i * 3..]));
                }
                last = p[2];
                open = true;
            }
            PathVerb::Close => {
                if open {
                    push_line(edges, last, start)?;
                    open = false;
                }
            }
        }
    }
    if open {
        push_line(edges, last, start)?;
    }
    // tiny-skia refuses the path when a point is not finite (the bounds check above already
    // needs finite bounds, which a non-finite point would make infinite or NaN).
    Some(())
}

/// What tiny-skia's edge clipper (`EdgeClipper`, `line_clipper::clip`) makes of a line
/// against the target `0..w × 0..h` when it has to clip the path (its rounded-out bounds
/// leave the target): `Some(None)` when the line lies above or below the target, the line
/// cut at the top and bottom as the clipper cuts it, `None` (not reproduced: tiny-skia
/// draws the path) when an end lies left or right of the target.
fn clip_line(a: Point, b: Point, w: f32, h: f32) -> Option<Option<[Point; 2]>> {
    if !(0.0..=w).contains(&a.x) || !(0.0..=w).contains(&b.x) {
        return None;
    }
    let src = [a, b];
    let (i0, i1) = if a.y < b.y { (0, 1) } else { (1, 0) };
    if src[i1].y <= 0.0 || src[i0].y >= h {
        return Some(None);
    }
    let mut out = src;
    if src[i0].y < 0.0 {
        out[i0] = Point::from_xy(sect_with_horizontal(&src, 0.0), 0.0);
    }
    if out[i1].y > h {
        out[i1] = Point::from_xy(sect_with_horizontal(&src, h), h);
    }
    // Within the sides (the cut x lies between the ends' x) the clipper keeps the points
    // and their order.
    Some(Some(out))
}

/// `line_clipper`'s `sect_with_horizontal`: where the line crosses `y`, in double
/// precision, pinned between the ends' x.
fn sect_with_horizontal(src: &[Point; 2], y: f32) -> f32 {
    let dy = src[1].y - src[0].y;
    if dy.abs() <= 1.0 / 4096.0 {
        (src[0].x + src[1].x) * 0.5
    } else {
        let (x0, y0) = (f64::from(src[0].x), f64::from(src[0].y));
        let (x1, y1) = (f64::from(src[1].x), f64::from(src[1].y));
        let x = x0 + (f64::from(y) - y0) * (x1 - x0) / (y1 - y0);
        let (lo, hi) = if x1 < x0 { (x1, x0) } else { (x0, x1) };
        (if x < lo {
            lo
        } else if x > hi {
            hi
        } else {
            x
        }) as f32
    }
}

/// What the edge clipper makes of a y-monotonic piece of a quadratic (`clip_quad`,
/// `clip_mono_quad`, `chop_quad_in_y`): dropped above or below the target, cut at the top
/// and bottom (with the clipper's clamps), in the piece's direction. `None` (not
/// reproduced) when the clipper would chop it at an x extremum or against a side.
fn clip_quad(src: [Point; 3], w: f32, h: f32) -> Option<Option<[Point; 3]>> {
    if is_not_monotonic(src[0].x, src[1].x, src[2].x) {
        return None; // chopped at its x extremum
    }
    let reverse = src[0].y > src[2].y;
    let mut pts = if reverse {
        [src[2], src[1], src[0]]
    } else {
        src
    };
    if pts[2].y <= 0.0 || pts[0].y >= h {
        return Some(None);
    }
    let mut tmp = [Point::zero(); 5];
    if pts[0].y < 0.0 {
        match mono_quad_root(&pts, 0.0) {
            Some(t) => {
                chop_quad_at(&pts, t, &mut tmp);
                tmp[2].y = 0.0;
                tmp[3].y = tmp[3].y.max(0.0);
                pts[0] = tmp[2];
                pts[1] = tmp[3];
            }
            None => pts.iter_mut().filter(|p| p.y < 0.0).for_each(|p| p.y = 0.0),
        }
    }
    if pts[2].y > h {
        match mono_quad_root(&pts, h) {
            Some(t) => {
                chop_quad_at(&pts, t, &mut tmp);
                tmp[1].y = tmp[1].y.min(h);
                tmp[2].y = h;
                pts[1] = tmp[1];
                pts[2] = tmp[2];
            }
            None => pts.iter_mut().filter(|p| p.y > h).for_each(|p| p.y = h),
        }
    }
    let (lo, hi) = (pts[0].x.min(pts[2].x), pts[0].x.max(pts[2].x));
    if lo < 0.0 || hi > w || hi <= 0.0 || lo >= w {
        return None; // cut against a side, or replaced by a vertical line on it
    }
    Some(Some(if reverse {
        [pts[2], pts[1], pts[0]]
    } else {
        pts
    }))
}

/// The edge clipper's `chop_mono_quad_at` in y: the first root in (0, 1) of the piece's
/// y reaching `target`.
fn mono_quad_root(p: &[Point; 3], target: f32) -> Option<NormalizedF32Exclusive> {
    let (c0, c1, c2) = (p[0].y, p[1].y, p[2].y);
    let mut roots = new_t_values();
    let n = find_unit_quad_roots(c0 - c1 - c1 + c2, 2.0 * (c1 - c0), c0 - target, &mut roots);
    (n != 0).then_some(roots[0])
}

/// Whether the edge clipper leaves a cubic as [`build_edges`] chops it (`mono`, its
/// y-monotonic pieces): not too big for its float math, no piece with an x extremum
/// (`chop_cubic_at_x_extrema`), every piece's ends within the target, neither flat nor on
/// a side (which the clipper drops or replaces). Cutting a cubic is not reproduced.
fn cubic_unclipped(src: &[Point; 4], mono: &[Point], w: f32, h: f32) -> bool {
    let limit = (1 << 22) as f32;
    if src.iter().any(|p| p.x.abs() > limit || p.y.abs() > limit) {
        return false;
    }
    let inside = |p: Point| (0.0..=w).contains(&p.x) && (0.0..=h).contains(&p.y);
    mono.windows(4).step_by(3).all(|c| {
        let (a, b, cc, d) = (c[0].x, c[1].x, c[2].x, c[3].x);
        let mut t = new_t_values();
        let extrema = find_unit_quad_roots(
            d - a + 3.0 * (b - cc),
            2.0 * (a - b - b + cc),
            b - a,
            &mut t,
        );
        extrema == 0
            && inside(c[0])
            && inside(c[3])
            && c[0].y.max(c[3].y) > 0.0
            && c[0].y.min(c[3].y) < h
            && c[0].x.max(c[3].x) > 0.0
            && c[0].x.min(c[3].x) < w
    })
}

fn is_not_monotonic(a: f32, b: f32, c: f32) -> bool {
    let ab = a - b;
    let mut bc = b - c;
    if ab < 0.0 {
        bc = -bc;
    }
    ab == 0.0 || bc < 0.0
}

/// tiny-skia's `chop_quad_at_y_extrema`: 0 for one monotonic quad in `dst[0..3]`, 1 for two.
fn chop_quad_at_y_extrema(src: &[Point; 3], dst: &mut [Point; 5]) -> usize {
    let (a, mut b, c) = (src[0].y, src[1].y, src[2].y);
    if is_not_monotonic(a, b, c) {
        if let Some(t) = valid_unit_divide(a - b, a - b - b + c) {
            chop_quad_at(src, t, dst);
            dst[1].y = dst[2].y;
            dst[3].y = dst[2].y;
            return 1;
        }
        b = if (a - b).abs() < (b - c).abs() { a } else { c };
    }
    dst[0] = Point::from_xy(src[0].x, a);
    dst[1] = Point::from_xy(src[1].x, b);
    dst[2] = Point::from_xy(src[2].x, c);
    0
}

/// tiny-skia's `chop_cubic_at_y_extrema`: the number of chops (0 to 2), the cubics in
/// `dst[0..4]`, `dst[3..7]`, `dst[6..10]`.
fn chop_cubic_at_y_extrema(src: &[Point; 4], dst: &mut [Point; 10]) -> usize {
    let (a, b, c, d) = (src[0].y, src[1].y, src[2].y, src[3].y);
    let mut t_values = new_t_values();
    let roots = find_unit_quad_roots(
        d - a + 3.0 * (b - c),
        2.0 * (a - b - b + c),
        b - a,
        &mut t_values,
    );
    let t_values = &t_values[..roots];
    chop_cubic_at(src, t_values, dst);
    if !t_values.is_empty() {
        dst[2].y = dst[3].y;
        dst[4].y = dst[3].y;
        if t_values.len() == 2 {
            dst[5].y = dst[6].y;
            dst[7].y = dst[6].y;
        }
    }
    t_values.len()
}

fn chop_cubic_at(src: &[Point; 4], t_values: &[NormalizedF32Exclusive], dst: &mut [Point]) {
    let Some(&first) = t_values.first() else {
        dst[..4].copy_from_slice(src);
        return;
    };
    let mut t = first;
    let mut tmp = *src;
    let mut offset = 0;
    for i in 0..t_values.len() {
        chop_cubic_at2(&tmp, t, &mut dst[offset..]);
        if i == t_values.len() - 1 {
            break;
        }
        offset += 3;
        tmp.copy_from_slice(&dst[offset..offset + 4]);
        match valid_unit_divide(
            t_values[i + 1].get() - t_values[i].get(),
            1.0 - t_values[i].get(),
        ) {
            Some(n) => t = n,
            None => {
                dst[offset + 4] = tmp[3];
                dst[offset + 5] = tmp[3];
                dst[offset + 6] = tmp[3];
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` edges on rows from `row`, at x from a few steps apart to the extremes.
    fn random_edges(
        next: &mut dyn FnMut(u64) -> u64,
        n: usize,
        row: &dyn Fn(&mut dyn FnMut(u64) -> u64) -> i32,
    ) -> Vec<Edge> {
        let xs = [i32::MIN, i32::MAX, 0, -1, 1, 65_536, -65_536];
        (0..n)
            .map(|_| Edge {
                first_y: row(next),
                x: match next(4) {
                    0 => xs[next(xs.len() as u64) as usize],
                    _ => next(8) as i32 * 16_384 - 65_536,
                },
                ..Edge::default()
            })
            .collect()
    }

    /// A long list's order, placed row by row, is the (row, x, index) tuples' sorted order:
    /// rows holding one edge, a few, or many (sorted), equal and extreme x, rows spread
    /// wide (sorted as tuples), negative rows.
    #[test]
    fn long_lists_order_as_the_tuples() {
        let mut next = crate::raster::painter::tests::xorshift(0x9e37_79b9_7f4a_7c15);
        for case in 0..600 {
            let n = 1 + next(400) as usize;
            let spread = [n as u64 / 8 + 1, n as u64 * 2, n as u64 * 9, 3][case % 4];
            let base = [0i64, -5_000, 30_000][case % 3];
            let edges = random_edges(&mut next, n, &|next| (base + next(spread) as i64) as i32);
            assert_eq!(sorted_order(&edges), tuples_order(&edges), "case {case}");
        }
    }

    /// The packed keys in insertion order are the (row, x, index) tuples' sorted order,
    /// with negative, equal and extreme x and equal rows.
    #[test]
    fn packed_keys_sort_as_the_tuples() {
        let mut next = crate::raster::painter::tests::xorshift(0x2545_f491_4f6c_dd1d);
        for case in 0..5_000 {
            let n = 2 + next(SMALL_LIST as u64 - 1) as usize;
            let rows = [4, 40, 65_536][case % 3];
            let edges = random_edges(&mut next, n, &|next| next(rows) as i32);
            let mut small = [0u64; SMALL_LIST];
            let keys = packed_keys(&edges, &mut small).expect("rows within 16 bits");
            insertion_sort(keys);
            let order: Vec<u32> = keys.iter().map(|k| (k & 0xffff) as u32).collect();
            assert_eq!(order, tuples_order(&edges), "case {case}");
        }
        let far = [Edge {
            first_y: 70_000,
            ..Edge::default()
        }];
        assert!(packed_keys(&far, &mut [0; SMALL_LIST]).is_none());
    }
}
