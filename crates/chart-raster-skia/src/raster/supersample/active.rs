//! The walk over the live edges kept in an x-sorted array rather than in tiny-skia's linked
//! list: the same order, the same spans, the same pixels.
//!
//! The list walk chases `next` from edge to edge, one dependent load after another, over
//! 72-byte edges spread through the path's edge array; on the 10,000-point time series a
//! sub-scanline crosses a few hundred edges and the walk spent most of its time waiting on
//! those loads. Here what a sub-scanline reads of a live edge (x, slope, last row, winding)
//! sits in arrays in list order, one per field: a pass over them is a sequential read, and
//! the step of the usual edge (on within its piece, still right of the one before) is done
//! eight edges at a time in vector registers. The spans are found from where the running
//! winding comes back to zero, without a branch per edge (`blit_spans`). On the time series
//! (1.3 M edge steps a render) the walk went from 72 to 45 M instructions (callgrind), its
//! fill from 4.3 to 3.3 ms.
//!
//! What stays tiny-skia's (`walk_edges`, `backward_insert_edge_based_on_x`,
//! `insert_new_edges`), step for step as `super::walk_list` does it on the list:
//! - an edge whose stepped x is left of the x before it is moved back behind the last edge at
//!   or left of its x (ties keep their order);
//! - edges starting on a sub-scanline are merged in before it: the first after every live edge
//!   at or left of its x (found walking back from the end), each next one from the one before
//!   it on, before the first live edge at or right of its x;
//! - a curve's next piece starts on the next sub-scanline. One that did not (never seen: the
//!   pieces of a curve meet) would end tiny-skia's pass early there; the array is then handed
//!   back to the list (its links set to the array's order) and the list walks on.

use super::{insert_new, walk_list, Edge, Kind, Rows, ROWS_PER_POLL, SHIFT};

/// A live edge as a sub-scanline reads it.
#[derive(Clone, Copy, Default)]
struct Live {
    /// x in 16.16 at the current sub-scanline.
    x: i32,
    dx: i32,
    last_y: i32,
    /// The edge's index in the path's edges, shifted left once; bit 0 set for winding −1.
    id: u32,
}

impl Live {
    fn of(edges: &[Edge], i: usize) -> Live {
        let e = &edges[i];
        Live {
            x: e.x,
            dx: e.dx,
            last_y: e.last_y,
            id: ((i as u32) << 1) | u32::from(e.winding < 0),
        }
    }

    fn index(self) -> usize {
        (self.id >> 1) as usize
    }

    fn winding(self) -> i32 {
        1 - ((self.id & 1) << 1) as i32
    }
}

/// The live edges in list order, one array per field: a pass reads each field of a run of
/// edges as one block (four x, four slopes, four last rows), which the compiler steps and
/// checks in vector registers.
#[derive(Default)]
struct Lives {
    x: Vec<i32>,
    dx: Vec<i32>,
    last_y: Vec<i32>,
    id: Vec<u32>,
    /// The edge's winding, 1 or −1 (also bit 0 of `id`): what the spans' running sum adds.
    winding: Vec<i32>,
}

impl Lives {
    fn len(&self) -> usize {
        self.x.len()
    }

    fn get(&self, k: usize) -> Live {
        Live {
            x: self.x[k],
            dx: self.dx[k],
            last_y: self.last_y[k],
            id: self.id[k],
        }
    }

    #[inline(always)]
    fn set(&mut self, k: usize, e: Live) {
        self.x[k] = e.x;
        self.dx[k] = e.dx;
        self.last_y[k] = e.last_y;
        self.id[k] = e.id;
        self.winding[k] = e.winding();
    }

    fn push(&mut self, e: Live) {
        self.x.push(e.x);
        self.dx.push(e.dx);
        self.last_y.push(e.last_y);
        self.id.push(e.id);
        self.winding.push(e.winding());
    }

    fn resize(&mut self, n: usize) {
        self.x.resize(n, 0);
        self.dx.resize(n, 0);
        self.last_y.resize(n, 0);
        self.id.resize(n, 0);
        self.winding.resize(n, 0);
    }

    /// Moves edges `from` to index `to` on (as `slice::copy_within`).
    fn copy_within(&mut self, from: std::ops::Range<usize>, to: usize) {
        self.x.copy_within(from.clone(), to);
        self.dx.copy_within(from.clone(), to);
        self.last_y.copy_within(from.clone(), to);
        self.id.copy_within(from.clone(), to);
        self.winding.copy_within(from, to);
    }
}

/// tiny-skia's `walk_edges` (non-zero rule) over `edges` (a list with a head at 0 and a tail
/// at the end, as `linked_edges` or `jump` leave it) on the sub-scanlines `start_y..stop_y`;
/// a span still open at the end of a sub-scanline runs to `right_clip`. `false` when `stop`
/// ended it. `hand_over` is the sub-scanline from which the list walks on (`u32::MAX`: none;
/// the tests hand over anywhere to check that the two agree). Above sub-scanline
/// `blit_from` the edges are only stepped and ordered, no span blitted: a painter drawing a
/// band of the bitmap walks the rows above it for the order among equal x alone.
pub(super) fn walk(
    edges: &mut [Edge],
    (start_y, stop_y): (u32, u32),
    right_clip: u32,
    rows: &mut Rows<'_>,
    stop: &dyn Fn() -> bool,
    (mut hand_over, blit_from): (u32, u32),
) -> bool {
    let mut live = Lives::default();
    // The edges started at the first sub-scanline are its live ones, in the list's order; the
    // others wait in the list, which is left as it is from `pending` on.
    let mut pending = edges[0].next as usize;
    while edges[pending].first_y <= start_y as i32 {
        live.push(Live::of(edges, pending));
        pending = edges[pending].next as usize;
    }
    let mut fresh: Vec<(Live, usize)> = Vec::new();
    let mut zeros: Vec<u32> = Vec::new();
    let mut curr_y = start_y;
    loop {
        if (curr_y - start_y) % (ROWS_PER_POLL << SHIFT) == 0 && stop() {
            return false;
        }
        if curr_y >= blit_from {
            blit_spans(&live, &mut zeros, curr_y, right_clip, rows);
        }
        let (kept, gap) = step(&mut live, edges, curr_y as i32);
        live.resize(kept);
        if gap {
            hand_over = hand_over.min(curr_y + 1);
        }
        curr_y += 1;
        if curr_y >= stop_y {
            return true;
        }
        if curr_y >= hand_over {
            relink(edges, &live, pending);
            insert_new(pending, curr_y as i32, edges);
            return walk_list(edges, (curr_y, stop_y), right_clip, rows, stop);
        }
        pending = merge_new(edges, &mut live, &mut fresh, pending, curr_y as i32);
    }
}

/// The spans of sub-scanline `y` over the live edges in order (non-zero winding), blitted
/// left to right, then the one still open at the end, as `walk_edges` blits them.
///
/// `walk_edges` starts a span at an edge reached with the winding at zero and ends it at an
/// edge that brings the winding back to zero (a span of no width is not blitted): the spans
/// run from the edge after one zero of the running winding (or the first edge) to the next
/// zero. So the pass over the edges only notes where the winding is zero, without a branch
/// (the index is stored whatever it is, and the count moves on at a zero): on a time series'
/// outline a span ends every dozen edges, at no pattern a branch could follow. The x of the
/// few edges that end spans is rounded afterwards.
#[inline(never)]
fn blit_spans(live: &Lives, zeros: &mut Vec<u32>, y: u32, right_clip: u32, rows: &mut Rows<'_>) {
    let n = live.len();
    if zeros.len() < n {
        zeros.resize(n, 0);
    }
    let (mut z, mut w) = (0usize, 0i32);
    for (i, &c) in live.winding.iter().enumerate() {
        w += c;
        zeros[z] = i as u32;
        z += usize::from(w == 0);
    }
    // The edge's x on the supersampled grid.
    let column = |k: usize| (live.x[k].wrapping_add(0x8000) >> 16) as u32;
    let mut first = 0;
    for &end in &zeros[..z] {
        let (left, right) = (column(first), column(end as usize));
        let width = right.wrapping_sub(left);
        if width != 0 {
            rows.blit_h(left, y, width);
        }
        first = end as usize + 1;
    }
    if w != 0 {
        rows.blit_open(w, column(first), right_clip, y);
    }
}

/// Edges stepped together in [`step`].
const LANES: usize = 8;

/// [`LANES`] consecutive values of a field from `k`.
#[inline(always)]
fn lanes(v: &[i32], k: usize) -> [i32; LANES] {
    v[k..k + LANES].try_into().unwrap_or([0; LANES])
}

/// Steps every live edge to the next sub-scanline after `y`, as the walk does, keeping the
/// array in tiny-skia's list order; returns how many stay live (at the front) and whether a
/// curve's next piece leaves a gap.
///
/// Most edges step on within their piece and stay right of the one before (on the time
/// series' outline all but one in 150): eight at a time, those are stepped and checked
/// together, and moved down only once an edge has left the array. Any other edge of the
/// eight (one ending its piece, or left of the one before) is dealt with alone, as before.
#[inline(never)]
fn step(live: &mut Lives, edges: &mut [Edge], y: i32) -> (usize, bool) {
    let mut gap = false;
    let mut prev_x = i32::MIN; // the head's x
    let (mut kept, mut k) = (0, 0);
    let len = live.len();
    loop {
        {
            let Lives {
                x,
                dx,
                last_y,
                id,
                winding,
            } = &mut *live;
            let (x, dx, last_y, id, winding) = (
                &mut x[..len],
                &mut dx[..len],
                &mut last_y[..len],
                &mut id[..len],
                &mut winding[..len],
            );
            while k + LANES <= len {
                let (xs, dxs, last) = (lanes(x, k), lanes(dx, k), lanes(last_y, k));
                let nx: [i32; LANES] = std::array::from_fn(|i| xs[i].wrapping_add(dxs[i]));
                let before: [i32; LANES] =
                    std::array::from_fn(|i| if i == 0 { prev_x } else { nx[i - 1] });
                // Bitwise, not short-circuit: vector compares.
                let mut odd = false;
                for i in 0..LANES {
                    odd |= (last[i] == y) | (nx[i] < before[i]);
                }
                if odd {
                    break;
                }
                if kept != k {
                    dx.copy_within(k..k + LANES, kept);
                    last_y.copy_within(k..k + LANES, kept);
                    id.copy_within(k..k + LANES, kept);
                    winding.copy_within(k..k + LANES, kept);
                }
                x[kept..kept + LANES].copy_from_slice(&nx);
                prev_x = nx[LANES - 1];
                (kept, k) = (kept + LANES, k + LANES);
            }
        }
        if k >= len {
            break;
        }
        let mut e = live.get(k);
        k += 1;
        if e.last_y != y {
            e.x = e.x.wrapping_add(e.dx);
            (kept, prev_x) = place(live, kept, e, prev_x);
            continue;
        }
        let edge = &mut edges[e.index()];
        if edge.kind == Kind::Line {
            continue; // ended: out of the list
        }
        let Some(next) = next_piece(edge) else {
            continue;
        };
        gap |= next.3 > y + 1;
        (e.x, e.dx, e.last_y) = (next.0, next.1, next.2);
        (kept, prev_x) = place(live, kept, e, prev_x);
    }
    (kept, gap)
}

/// Puts stepped edge `e` after the `kept` ones: at the end when its x is not left of the
/// last's (`prev_x`), else back behind the last edge at or left of its x. Returns the count
/// and the last's x.
#[inline(always)]
fn place(live: &mut Lives, kept: usize, e: Live, prev_x: i32) -> (usize, i32) {
    if e.x >= prev_x {
        live.set(kept, e);
        return (kept + 1, e.x);
    }
    let mut p = kept;
    while p > 0 && live.x[p - 1] > e.x {
        p -= 1;
    }
    live.copy_within(p..kept, p + 1);
    live.set(p, e);
    (kept + 1, prev_x)
}

/// A curve edge's next piece (x, dx, last and first sub-scanline); `None` when the edge ends.
/// Out of the pass's loop.
#[cold]
#[inline(never)]
fn next_piece(edge: &mut Edge) -> Option<(i32, i32, i32, i32)> {
    let more = match edge.kind {
        Kind::Line => false,
        Kind::Quad => edge.curve_count > 0 && edge.update_quad(),
        Kind::Cubic => edge.curve_count < 0 && edge.update_cubic(),
    };
    more.then_some((edge.x, edge.dx, edge.last_y, edge.first_y))
}

/// Merges the edges starting on sub-scanline `y` (those from `pending` on) into `live` where
/// tiny-skia's `insert_new_edges` puts them in its list (see the module's comment); returns
/// the first edge still waiting.
fn merge_new(
    edges: &[Edge],
    live: &mut Lives,
    fresh: &mut Vec<(Live, usize)>,
    mut pending: usize,
    y: i32,
) -> usize {
    if edges[pending].first_y != y {
        return pending;
    }
    fresh.clear();
    let old = live.len();
    // Where each goes, as a count of the live edges before it.
    let x = edges[pending].x;
    let mut at = old;
    if live.x.last().is_some_and(|&l| l > x) {
        // Walking back from the one before the last (the last is right of it).
        at = old - 1;
        while at > 0 && live.x[at - 1] > x {
            at -= 1;
        }
    }
    while edges[pending].first_y == y {
        let e = Live::of(edges, pending);
        // From the edge before on, up to the first live edge at or right of its x.
        while at < old && live.x[at] < e.x {
            at += 1;
        }
        fresh.push((e, at));
        pending = edges[pending].next as usize;
    }
    // Into place from the back, each run of live edges moved once.
    let n = fresh.len();
    live.resize(old + n);
    let mut src = old;
    for (j, &(e, at)) in fresh.iter().enumerate().rev() {
        live.copy_within(at..src, at + j + 1);
        live.set(at + j, e);
        src = at;
    }
    pending
}

/// Sets the list's links to the order of `live` followed by the waiting edges from `pending`
/// on (their links as they were), and the live edges' state back into `edges`.
fn relink(edges: &mut [Edge], live: &Lives, pending: usize) {
    let mut prev = 0usize;
    for k in 0..live.len() {
        let l = live.get(k);
        let i = l.index();
        let e = &mut edges[i];
        (e.x, e.dx, e.last_y) = (l.x, l.dx, l.last_y);
        e.prev = prev as u32;
        edges[prev].next = i as u32;
        prev = i;
    }
    edges[prev].next = pending as u32;
    edges[pending].prev = prev as u32;
}

#[cfg(test)]
mod tests {
    use super::super::tests::xorshift;
    use super::super::{cover_handing_over, Route};
    use tiny_skia::{LineCap, LineJoin, Path, PathBuilder, Stroke};

    /// The rows `window` of `path`'s coverage, the list taking over at `hand_over`.
    fn mask(path: &Path, (w, h): (u32, u32), window: (u32, u32), hand_over: u32) -> Vec<u8> {
        let mut out = vec![0u8; (w * h) as usize];
        let done = cover_handing_over(
            path,
            (w, h),
            window.0..window.1,
            &|| false,
            &mut |y, x, cov| {
                let a = y * w as usize + x;
                out[a..a + cov.len()].copy_from_slice(cov);
            },
            Route::Array(hand_over),
        );
        assert_eq!(done, Some(true));
        out
    }

    /// The array walk and the list walk it hands over to agree wherever the hand-over
    /// falls (so both keep the same order, ties included): random contours of lines and
    /// curves on quarter pixels and anywhere, stroked and filled zigzags as line charts draw
    /// them, whole and from a window's first row.
    #[test]
    fn handing_over_to_the_list_changes_no_pixel() {
        let (w, h) = (160u32, 120u32);
        let mut next = xorshift(0x3c6e_f372_fe94_f82b);
        for case in 0..1000 {
            let mut coord = |max: u32| -> f32 {
                if case % 2 == 0 {
                    next(u64::from(max) * 4) as f32 / 4.0
                } else {
                    next(u64::from(max) * 1000) as f32 / 1000.0
                }
            };
            let mut pb = PathBuilder::new();
            let n = 4 + case % 200;
            let zigzag = case % 5 < 3; // a line chart's values left to right
            pb.move_to(coord(w), coord(h));
            for k in 0..n {
                let x = if zigzag {
                    4.0 + (w - 8) as f32 * (k + 1) as f32 / n as f32
                } else {
                    coord(w)
                };
                let y = coord(h);
                match (case + k) % 3 {
                    0 => pb.line_to(x, y),
                    1 => pb.quad_to(coord(w), coord(h), x, y),
                    _ => pb.cubic_to(coord(w), coord(h), coord(w), coord(h), x, y),
                }
            }
            let mut path = pb.finish().unwrap();
            if case % 3 != 0 {
                let stroke = Stroke {
                    width: 0.5 + (case % 7) as f32 / 2.0,
                    line_join: [LineJoin::Round, LineJoin::Miter][case % 2],
                    line_cap: LineCap::Round,
                    ..Stroke::default()
                };
                path = path.stroke(&stroke, 1.0).unwrap();
            }
            let b = path.bounds();
            if b.left() < 0.0 || b.top() < 0.0 || b.right() > w as f32 || b.bottom() > h as f32 {
                continue;
            }
            let top = b.top() as u32;
            let bottom = (b.bottom().ceil() as u32).min(h);
            let start = if case % 4 == 3 {
                top + next(u64::from(bottom - top)) as u32
            } else {
                0
            };
            let whole = mask(&path, (w, h), (start, h), u32::MAX);
            for _ in 0..3 {
                let at = (start.max(top) << 2) + next(u64::from((bottom - top) << 2) + 2) as u32;
                let handed = mask(&path, (w, h), (start, h), at);
                let case = format!("{case}, handed over at {at}");
                super::super::tests::assert_same_mask(case, &handed, &whole, w);
            }
        }
    }

    /// A band of a time series' outline (hundreds of live edges, the sides of neighbouring
    /// vertical strokes at equal x, so the list cannot be jumped to the band's first row):
    /// walked from the top on the array, ordering the edges alone above the band, its rows
    /// are byte for byte those of the whole walk.
    #[test]
    fn a_band_below_equal_x_covers_as_the_whole_walk() {
        use super::super::{jump, linked_edges, SHIFT};
        let (w, h) = (400u32, 200u32);
        let mut next = xorshift(0x510e_527f_ade6_82d1);
        let mut not_jumped = 0;
        for case in 0..12 {
            // Chart.js's fast path: per column a vertical run from the lowest to the
            // highest value, columns two device pixels apart, stroked two pixels wide.
            let mut pb = PathBuilder::new();
            let y = |next: &mut dyn FnMut(u64) -> u64| 4.0 + next(190 * 8) as f32 / 8.0;
            pb.move_to(5.0, y(&mut next));
            for c in 0..190 {
                let x = 5.0 + 2.0 * c as f32 + [0.0, 0.5, 0.25][case % 3];
                pb.line_to(x, y(&mut next));
                pb.line_to(x, y(&mut next));
            }
            let stroke = Stroke {
                width: 2.0,
                line_join: [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel][case % 3],
                ..Stroke::default()
            };
            let path = pb.finish().unwrap().stroke(&stroke, 1.0).unwrap();
            let whole = mask(&path, (w, h), (0, h), u32::MAX);
            for _ in 0..4 {
                let start = 10 + next(180) as u32;
                let band = mask(&path, (w, h), (start, h), u32::MAX);
                let rows = (start * w) as usize..;
                assert!(
                    band[rows.clone()] == whole[rows],
                    "case {case}, band from {start}"
                );
                let mut edges = linked_edges(&path, None).unwrap();
                not_jumped += usize::from(!jump(&mut edges, (start << SHIFT) as i32));
            }
        }
        assert!(
            not_jumped > 30,
            "only {not_jumped} bands could not be jumped to"
        );
    }
}
