//! The walk for small paths of few edges: a point marker's disc and its border's ring (4 and
//! about 16 edges, 2 and 4 of them live on a sub-scanline, 13 to 16 pixels across), a
//! bubble, a small slice. The same edges, steps, order and spans as the list walk
//! (`super::walk_list`), with what its generality costs on such a path left out.
//!
//! On a scatter chart the list walk spent about 320 instructions a sub-scanline on markers
//! (callgrind, scatter 1,000: 36 M of the drawing's 85 M): a third chasing and re-sorting
//! the list through 72-byte edges, two thirds adding each span to the coverage row as
//! `AlphaRuns::add` would (a 32-byte window of lane masks per span), then finding the row's
//! covered stretch and clearing it. Here:
//! - the live edges (at most [`MAX_LIVE`]) sit in a small array in the list's order, their
//!   x, slope and last row beside their index, stepped and re-sorted in place exactly as the
//!   list is (tiny-skia's backward insertion, its merge of new edges, ties kept in the
//!   list's order: the order among equal x decides whether two touching spans are one);
//! - the usual sub-scanlines, two live edges (a disc) or four (a ring), run in a loop of
//!   their own with the edges in locals ([`Run`]): one span between two edges, one or two
//!   among four (two when the winding is back at zero after the second), a step of each x
//!   and a check of their order; an edge ending its piece takes its curve's next, an edge
//!   ending takes the place of the next one starting, in the list's order, out of line;
//!   anything else (edges coming or going in number, the next poll) ends the loop and the
//!   general step for any number of live edges takes that sub-scanline;
//! - a span is four adds to a pixel row of differences (six on a row's last sub-scanline),
//!   and the row's coverage is their running sum, clamped at 255, when the row is done
//!   (see [`Coverage`]).
//!
//! Whatever else the list would do (a winding not back at zero at a sub-scanline's end, a
//! span outside the row, a curve's next piece not starting on the next sub-scanline, more
//! live edges than the array holds) is handed over to the list walk at the sub-scanline it
//! happens on: the list is linked in the array's order, the row so far is put into the
//! list walk's coverage row, and the list walks on.
//!
//! callgrind, release CLI, `RASTER_THREADS=1`, scatter 1,000: the walk with its row
//! handling 38 M → 27 M instructions, `raster::rasterize` 85.2 → 76.4 M. What is left is
//! mostly intrinsic: each curve piece's fixed-point set-up (a division; 61,000 pieces, 5.5
//! M) and a quarter of a ring's sub-scanlines ending some edge's piece.

use super::{insert_new, walk_list, Edge, Kind, Rows, MASK, ROWS_PER_POLL, SHIFT};

/// Paths of at most this many edges are walked here.
pub(super) const MAX_EDGES: usize = 32;
/// Live edges on one sub-scanline at most (a marker's ring has four).
const MAX_LIVE: usize = 8;
/// Spans on one sub-scanline at most.
const MAX_SPANS: usize = MAX_LIVE / 2;
/// Paths whose rows span at most this many pixel columns (from the floor of their left to
/// the ceiling of their right side) are walked here; the coverage row is on the stack.
pub(super) const MAX_COLUMNS: usize = 64;

/// Whether [`walk`] takes a path of `n` edges over the columns `left..right`.
pub(super) fn fits(n: usize, left: i32, right: i32) -> bool {
    n <= MAX_EDGES && right - left <= MAX_COLUMNS as i32
}

/// A live edge as a sub-scanline reads it.
#[derive(Clone, Copy, Default)]
struct Live {
    /// x in 16.16 at the current sub-scanline.
    x: i32,
    dx: i32,
    last_y: i32,
    index: u32,
    winding: i32,
}

impl Live {
    fn of(edges: &[Edge], i: usize) -> Live {
        let e = &edges[i];
        Live {
            x: e.x,
            dx: e.dx,
            last_y: e.last_y,
            index: i as u32,
            winding: i32::from(e.winding),
        }
    }
}

/// The columns and rows a walk covers: the path's rounded-out bounds.
#[derive(Clone, Copy)]
pub(super) struct Area {
    pub(super) left: i32,
    pub(super) right: i32,
    pub(super) top: i32,
}

/// One pixel row's coverage as differences from column to column (index: column − left):
/// a span adds its partial and whole pixels as steps up and down, and the row's coverage
/// is their running sum.
///
/// A span from super-column `start` to `stop` covers a pixel by 16 per quarter column it
/// covers there, 64 when it covers the whole pixel (`max_value`, 63 on a row's last
/// sub-scanline): 64 − 16·(start mod 4) on its first pixel, 64 on the pixels between,
/// 16·(stop mod 4) on its last, or 16·(stop − start) when it starts and stops in one pixel.
/// As differences that is `+64 − 16·fb` at the first pixel and `+16·fb` after it, `−64 +
/// 16·fe` at the last and `−16·fe` after it, whichever case it is; on the last sub-scanline
/// the whole pixels (from the ceiling of `start`, below the floor of `stop`) add −1 more.
///
/// `AlphaRuns::add` clamps the first and whole pixels' sums (`t − (t >> 8)`) and wraps the
/// last one's: a pixel row's four sub-scanlines give a pixel at most 256 (a sub-scanline's
/// spans cover distinct quarter columns, 16 each, a whole pixel at most 64 and 63 on the
/// last), where the clamp gives 255, and only a start or whole pixel can bring the sum to
/// 256 (an end pixel adds at most 48 on the last sub-scanline after at most 192): the sum
/// clamped at 255 once is what tiny-skia's adds make (see also `words.rs`).
struct Coverage {
    /// Indexed by masking with `DIFF - 1` (every index is below the row's width + 2, at most
    /// `MAX_COLUMNS + 2`): no bounds checks in the span adds.
    diff: [i32; DIFF],
    cov: [u8; DIFF],
    /// The row's columns and the one after them (the differences' end).
    width: usize,
    /// Whether a span was added to the current row.
    touched: bool,
    /// The pixel row being covered.
    iy: i32,
}

/// The length of [`Coverage`]'s arrays: a power of two above `MAX_COLUMNS + 2`.
const DIFF: usize = (MAX_COLUMNS + 2).next_power_of_two();

impl Coverage {
    fn new(area: Area) -> Coverage {
        Coverage {
            diff: [0; DIFF],
            cov: [0; DIFF],
            width: (area.right - area.left) as usize + 2,
            touched: false,
            iy: area.top - 1,
        }
    }

    /// Adds the span `start..stop` (super-columns from the row's left, within the row) of
    /// a sub-scanline, `last` when it is its pixel row's last.
    #[inline(always)]
    fn add(&mut self, start: u32, stop: u32, last: bool) {
        const M: usize = DIFF - 1;
        let (first, end) = ((start >> SHIFT) as usize, (stop >> SHIFT) as usize);
        let (fb, fe) = (((start & MASK) << 4) as i32, ((stop & MASK) << 4) as i32);
        let d = &mut self.diff;
        d[first & M] += 64 - fb;
        d[(first + 1) & M] += fb;
        d[end & M] += fe - 64;
        d[(end + 1) & M] -= fe;
        if last {
            // The whole pixels add 63: none when the span's ceiling is past its floor.
            let a = ((start + MASK) >> SHIFT) as usize;
            d[a & M] -= 1;
            d[a.max(end) & M] += 1;
        }
        self.touched = true;
    }

    /// The row's coverage from its differences, which are cleared.
    #[inline(always)]
    fn sum(&mut self) -> &mut [u8] {
        let w = self.width.min(DIFF);
        let mut sum = 0;
        for (d, c) in self.diff[..w].iter_mut().zip(&mut self.cov[..w]) {
            sum += *d;
            *d = 0;
            *c = sum.min(255) as u8;
        }
        self.touched = false;
        &mut self.cov[..w]
    }

    /// Hands the row's covered stretch to `row` (`left` the row's first column) and clears
    /// the row, as `Rows::flush` does.
    fn flush(&mut self, left: i32, row: &mut dyn FnMut(usize, usize, &mut [u8])) {
        if !self.touched {
            return;
        }
        let iy = self.iy as usize;
        let cov = self.sum();
        let Some(first) = cov.iter().position(|&c| c != 0) else {
            return;
        };
        let last = cov.iter().rposition(|&c| c != 0).unwrap_or(first);
        (row)(iy, left as usize + first, &mut cov[first..=last]);
    }

    /// Puts the row so far into the list walk's coverage row (all zero: a new `Rows`).
    fn hand_to(&mut self, rows: &mut Rows<'_>) {
        rows.curr_iy = self.iy;
        if !self.touched {
            return;
        }
        let cov = self.sum();
        rows.acc[..cov.len()].copy_from_slice(cov);
        (rows.lo, rows.hi) = (0, cov.len() - 1);
    }
}

/// tiny-skia's `walk_edges` (non-zero rule) over `edges` (a list with a head at 0 and a tail
/// at the end, as `linked_edges` or `jump` leave it) on the sub-scanlines `start_y..stop_y`
/// of a path covering `area` (see [`fits`]), each finished pixel row's covered stretch handed
/// to `row(y, x, coverage)`; a span still open at the end of a sub-scanline runs to
/// `right_clip`. `hand_over` is a sub-scanline from which the list walks on whatever
/// happens (`u32::MAX`: none; the tests hand over anywhere). `false` when `stop` ended it.
pub(super) fn walk(
    edges: &mut [Edge],
    (start_y, stop_y): (u32, u32),
    area: Area,
    right_clip: u32,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
    stop: &dyn Fn() -> bool,
    hand_over: u32,
) -> bool {
    let super_left = (area.left << SHIFT) as u32;
    // A span's stop at most this far from the row's left (as `Rows::blit_h` takes it).
    let stop_max = ((area.right - area.left) << SHIFT) as u32;
    let mut live = [Live::default(); MAX_LIVE];
    let mut n = 0;
    let mut pending = edges[0].next as usize;
    let mut acc = Coverage::new(area);
    let mut y = start_y;
    while edges[pending].first_y <= y as i32 {
        if n == MAX_LIVE {
            let on = (y, stop_y, right_clip);
            return list_walks_on(edges, &live[..n], pending, on, area, &mut acc, row, stop);
        }
        live[n] = Live::of(edges, pending);
        n += 1;
        pending = edges[pending].next as usize;
    }
    loop {
        if (y - start_y) % (ROWS_PER_POLL << SHIFT) == 0 && stop() {
            acc.flush(area.left, row);
            return false;
        }
        // The usual shapes' sub-scanlines up to the next poll.
        let end = segment_end((y, stop_y, hand_over), start_y);
        if end > y {
            let bounds = (super_left, stop_max);
            let (reached, gap) = run(
                (&mut live, &mut n, &mut pending),
                edges,
                (y, end),
                bounds,
                &mut acc,
                area.left,
                row,
            );
            if reached > y {
                y = reached;
                if y >= stop_y && !gap {
                    acc.flush(area.left, row);
                    return true;
                }
                // Edges starting here that did not fit where the segment ended.
                if gap || !merge_new(edges, &mut live, &mut n, &mut pending, y as i32) {
                    let on = (y, stop_y, right_clip);
                    return list_walks_on(
                        edges,
                        &live[..n],
                        pending,
                        on,
                        area,
                        &mut acc,
                        row,
                        stop,
                    );
                }
                continue;
            }
        }
        // The spans where the running winding comes back to zero.
        let mut spans = [(0u32, 0u32); MAX_SPANS];
        let (mut m, mut w, mut left, mut inside) = (0, 0, 0u32, true);
        for e in &live[..n] {
            let x = (e.x.wrapping_add(0x8000) >> 16) as u32;
            if w == 0 {
                left = x;
            }
            w += e.winding;
            if w == 0 {
                let width = x.wrapping_sub(left);
                if width != 0 {
                    let start = left.wrapping_sub(super_left);
                    let end = start.wrapping_add(width);
                    inside &= left >= super_left && end <= stop_max && end >= start;
                    spans[m] = (start, end);
                    m += 1;
                }
            }
        }
        if w != 0 || !inside || y >= hand_over {
            let on = (y, stop_y, right_clip);
            return list_walks_on(edges, &live[..n], pending, on, area, &mut acc, row, stop);
        }
        let iy = (y >> SHIFT) as i32;
        if iy != acc.iy {
            acc.flush(area.left, row);
            acc.iy = iy;
        }
        let last = y & MASK == MASK;
        for &(start, end) in &spans[..m] {
            acc.add(start, end, last);
        }
        let gap = step(&mut live, &mut n, edges, y as i32);
        y += 1;
        if y >= stop_y {
            acc.flush(area.left, row);
            return true;
        }
        if gap || !merge_new(edges, &mut live, &mut n, &mut pending, y as i32) {
            let on = (y, stop_y, right_clip);
            return list_walks_on(edges, &live[..n], pending, on, area, &mut acc, row, stop);
        }
    }
}

/// Where a segment from sub-scanline `y` ends (the first sub-scanline not in it): at
/// `stop_y`, at `hand_over`, at the next poll of the stop.
fn segment_end((y, stop_y, hand_over): (u32, u32, u32), start_y: u32) -> u32 {
    let poll = ROWS_PER_POLL << SHIFT;
    let next_poll = start_y + ((y - start_y) / poll + 1) * poll;
    stop_y.min(hand_over).min(next_poll)
}

/// How far [`run`] got: the sub-scanline reached (its spans not yet added), and whether a
/// curve's next piece leaves a gap there (the list walk takes over).
type Reached = (u32, bool);

/// Covers the sub-scanlines from `y` to `end` (see [`segment_end`]) while they are the
/// usual shape's (two live edges, or four: a ring) and every live edge stays within the
/// row: spans added, edges stepped (a curve on to its next piece, an edge ending replaced
/// by the next edge starting) and kept in order as the list walk does. Returns where it
/// got (`y` when the segment is not one of those) with the live edges (`live[..n]`, the
/// waiting ones from `pending`) as the list walk would have them there, save edges
/// starting there that did not fit (the caller merges them).
#[allow(clippy::too_many_arguments)]
fn run(
    (live, n, pending): (&mut [Live; MAX_LIVE], &mut usize, &mut usize),
    edges: &mut [Edge],
    (y, end): (u32, u32),
    (super_left, stop_max): (u32, u32),
    acc: &mut Coverage,
    left: i32,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
) -> Reached {
    let bounds = Bounds {
        super_left,
        stop_max,
        end,
    };
    if !live[..*n].iter().all(|e| bounds.holds(e, y)) {
        return (y, false);
    }
    if live[..*n].iter().map(|e| e.winding).sum::<i32>() != 0 {
        return (y, false);
    }
    if *n == 0 {
        // Nothing live: on to the next edge's first row.
        let next = u32::try_from(edges[*pending].first_y).unwrap_or(u32::MAX);
        return (next.clamp(y, end), false);
    }
    let mut run = Run {
        live,
        n,
        edges,
        pending,
        bounds,
        acc,
        left,
        row,
    };
    match *run.n {
        2 => run.two(y),
        4 => run.four(y),
        _ => (y, false),
    }
}

/// Where the live edges of a segment must stay: their columns within the row up to the
/// segment's `end`.
#[derive(Clone, Copy)]
struct Bounds {
    super_left: u32,
    stop_max: u32,
    end: u32,
}

impl Bounds {
    /// Whether edge `e`'s column stays within the row from sub-scanline `y` while its piece
    /// lasts (up to the segment's end): its x moves by its slope, so the piece's ends tell.
    fn holds(self, e: &Live, y: u32) -> bool {
        let to = if e.last_y >= y as i32 {
            (e.last_y as u32).min(self.end - 1)
        } else {
            self.end - 1 // a piece ending above (never seen) steps on
        };
        let inside = |x: i64| {
            let c = (x + 0x8000) >> 16;
            c >= i64::from(self.super_left)
                && c - i64::from(self.super_left) <= i64::from(self.stop_max)
        };
        let last = i64::from(e.x) + i64::from(e.dx) * i64::from(to.saturating_sub(y));
        i32::try_from(last).is_ok() && inside(i64::from(e.x)) && inside(last)
    }
}

/// A segment being covered by [`run`].
struct Run<'a, 'r> {
    live: &'a mut [Live; MAX_LIVE],
    n: &'a mut usize,
    edges: &'a mut [Edge],
    /// The first edge still waiting in the list.
    pending: &'a mut usize,
    bounds: Bounds,
    acc: &'a mut Coverage,
    left: i32,
    row: &'a mut (dyn FnMut(usize, usize, &mut [u8]) + 'r),
}

impl Run<'_, '_> {
    /// The next row's coverage once sub-scanline `y` starts one.
    #[inline(always)]
    fn row_at(&mut self, y: u32) {
        let iy = (y >> SHIFT) as i32;
        if iy != self.acc.iy {
            self.acc.flush(self.left, self.row);
            self.acc.iy = iy;
        }
    }

    /// The span of sub-scanline `y` from column `l` to `r` (supersampled), if not empty.
    #[inline(always)]
    fn span(&mut self, l: u32, r: u32, y: u32) {
        if l != r {
            let sl = self.bounds.super_left;
            self.acc.add(l - sl, r - sl, y & MASK == MASK);
        }
    }

    /// The step after sub-scanline `y` where an edge of `e` (the live edges, in order) ends
    /// its piece, as the list walk does (`step`): those ending their piece go on to their
    /// curve's next or leave, the others step, and all are put in order again (a stable
    /// insertion by x). `None` to go on with `e`; `Some` where the segment ends (an edge
    /// left, a gap, a new piece leaving the row), the live edges then in the array.
    #[inline(always)]
    fn ends(&mut self, e: &mut [Live], y: u32) -> Option<Reached> {
        let (mut kept, mut gap) = (0, false);
        for k in 0..e.len() {
            let mut l = e[k];
            if l.last_y == y as i32 {
                match next_piece(&mut self.edges[l.index as usize]) {
                    Some((x, dx, last_y, first_y)) => {
                        gap |= first_y != y as i32 + 1;
                        (l.x, l.dx, l.last_y) = (x, dx, last_y);
                    }
                    None => continue,
                }
            } else {
                l.x = l.x.wrapping_add(l.dx);
            }
            let mut p = kept;
            while p > 0 && e[p - 1].x > l.x {
                e[p] = e[p - 1];
                p -= 1;
            }
            e[p] = l;
            kept += 1;
        }
        // Edges starting on the next sub-scanline, when they take the places of those that
        // left (a curve's next edge: a ring's sides are chains of quadratics).
        let y1 = y as i32 + 1;
        let merged = gap || merge_new(self.edges, e, &mut kept, self.pending, y1);
        let bounds = self.bounds;
        if kept == e.len()
            && merged
            && !gap
            && e.iter().map(|l| l.winding).sum::<i32>() == 0
            && e.iter().all(|l| bounds.holds(l, y + 1))
        {
            return None;
        }
        // Arrivals that did not fit are merged by the caller (see `walk`).
        self.live[..kept].copy_from_slice(&e[..kept]);
        *self.n = kept;
        Some((y + 1, gap))
    }

    /// [`run`] on two live edges: a span between them.
    #[inline(never)]
    fn two(&mut self, mut y: u32) -> Reached {
        let end = self.bounds.end;
        let mut e = [self.live[0], self.live[1]];
        while y < end {
            self.row_at(y);
            self.span(column(e[0].x), column(e[1].x), y);
            let yi = y as i32;
            if e[0].last_y == yi || e[1].last_y == yi || self.edges[*self.pending].first_y == yi + 1
            {
                if let Some(reached) = self.ends(&mut e, y) {
                    return reached;
                }
            } else {
                let (a, b) = (e[0].x.wrapping_add(e[0].dx), e[1].x.wrapping_add(e[1].dx));
                (e[0].x, e[1].x) = (a, b);
                if b < a {
                    e.swap(0, 1);
                }
            }
            y += 1;
        }
        self.live[..2].copy_from_slice(&e);
        (end, false)
    }

    /// [`run`] on four live edges: two spans, or one when the winding is not back at zero
    /// between the second and the third.
    #[inline(never)]
    fn four(&mut self, mut y: u32) -> Reached {
        let end = self.bounds.end;
        let mut e = [self.live[0], self.live[1], self.live[2], self.live[3]];
        while y < end {
            self.row_at(y);
            let c = e.map(|e| column(e.x));
            if e[0].winding + e[1].winding == 0 {
                self.span(c[0], c[1], y);
                self.span(c[2], c[3], y);
            } else {
                self.span(c[0], c[3], y);
            }
            let yi = y as i32;
            let ends = e[0].last_y == yi || e[1].last_y == yi || e[2].last_y == yi;
            if ends || e[3].last_y == yi || self.edges[*self.pending].first_y == yi + 1 {
                if let Some(reached) = self.ends(&mut e, y) {
                    return reached;
                }
            } else {
                for e in &mut e {
                    e.x = e.x.wrapping_add(e.dx);
                }
                if !(e[0].x <= e[1].x && e[1].x <= e[2].x && e[2].x <= e[3].x) {
                    // The list walk's backward insertion: a stable insertion sort by x.
                    for k in 1..4 {
                        let mut p = k;
                        while p > 0 && e[p - 1].x > e[p].x {
                            e.swap(p - 1, p);
                            p -= 1;
                        }
                    }
                }
            }
            y += 1;
        }
        self.live[..4].copy_from_slice(&e);
        (end, false)
    }
}

/// A curve edge's next piece (x, dx, last and first sub-scanline); `None` when the edge ends.
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

/// An edge's x on the supersampled grid (16.16 rounded).
#[inline(always)]
fn column(x: i32) -> u32 {
    (x.wrapping_add(0x8000) >> 16) as u32
}

/// Steps the `n` live edges to the sub-scanline after `y` as the list walk does (an edge
/// ending its piece takes its curve's next or leaves; one left of the edge before it moves
/// back behind the last edge at or left of its x); `true` when a curve's next piece does not
/// start on the next sub-scanline (the list walk ends its pass at such an edge: handed over).
#[inline(always)]
fn step(live: &mut [Live; MAX_LIVE], n: &mut usize, edges: &mut [Edge], y: i32) -> bool {
    let mut gap = false;
    let mut prev_x = i32::MIN; // the list head's
    let mut kept = 0;
    for k in 0..*n {
        let mut e = live[k];
        if e.last_y == y {
            let edge = &mut edges[e.index as usize];
            let more = match edge.kind {
                Kind::Line => false,
                Kind::Quad => edge.curve_count > 0 && edge.update_quad(),
                Kind::Cubic => edge.curve_count < 0 && edge.update_cubic(),
            };
            if !more {
                continue;
            }
            gap |= edge.first_y != y + 1;
            (e.x, e.dx, e.last_y) = (edge.x, edge.dx, edge.last_y);
        } else {
            e.x = e.x.wrapping_add(e.dx);
        }
        if e.x >= prev_x {
            live[kept] = e;
            prev_x = e.x;
        } else {
            let mut p = kept;
            while p > 0 && live[p - 1].x > e.x {
                p -= 1;
            }
            live.copy_within(p..kept, p + 1);
            live[p] = e;
        }
        kept += 1;
    }
    *n = kept;
    gap
}

/// Merges the edges starting on sub-scanline `y` (from `pending` on) into the live ones as
/// tiny-skia's `insert_new_edges` puts them in its list: the first after every live edge at
/// or left of its x, each next one from the one before it on, before the first live edge at
/// or right of its x. `false`, with nothing merged, when they would not fit in `live`.
#[inline(always)]
fn merge_new(
    edges: &[Edge],
    live: &mut [Live],
    n: &mut usize,
    pending: &mut usize,
    y: i32,
) -> bool {
    let mut p = *pending;
    if edges[p].first_y != y {
        return true;
    }
    let mut count = 0;
    while edges[p].first_y == y {
        count += 1;
        p = edges[p].next as usize;
    }
    if *n + count > live.len() {
        return false;
    }
    let x = edges[*pending].x;
    let mut at = *n;
    if at > 0 && live[at - 1].x > x {
        at -= 1;
        while at > 0 && live[at - 1].x > x {
            at -= 1;
        }
    }
    let mut i = *pending;
    for k in 0..count {
        let e = Live::of(edges, i);
        if k > 0 {
            while at < *n && live[at].x < e.x {
                at += 1;
            }
        }
        live.copy_within(at..*n, at + 1);
        live[at] = e;
        *n += 1;
        at += 1;
        i = edges[i].next as usize;
    }
    *pending = p;
    true
}

/// Links the list in the order of `live` followed by the waiting edges from `pending` on,
/// with the live edges' state, merges the edges starting on sub-scanline `y`, puts the row
/// covered so far into the list walk's coverage row and walks the list on from `y`.
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn list_walks_on(
    edges: &mut [Edge],
    live: &[Live],
    pending: usize,
    (y, stop_y, right_clip): (u32, u32, u32),
    area: Area,
    acc: &mut Coverage,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
    stop: &dyn Fn() -> bool,
) -> bool {
    let mut prev = 0usize;
    for l in live {
        let i = l.index as usize;
        let e = &mut edges[i];
        (e.x, e.dx, e.last_y) = (l.x, l.dx, l.last_y);
        e.prev = prev as u32;
        edges[prev].next = i as u32;
        prev = i;
    }
    edges[prev].next = pending as u32;
    edges[pending].prev = prev as u32;
    insert_new(pending, y as i32, edges);
    let mut rows = Rows::new(area.left, area.right, area.top, row);
    acc.hand_to(&mut rows);
    let done = walk_list(edges, (y, stop_y), right_clip, &mut rows, stop);
    rows.flush();
    done
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_same_mask, theirs, xorshift};
    use super::super::{cover_handing_over, Route};
    use super::MAX_COLUMNS;
    use crate::raster::convert::build_path;
    use crate::scene::Path as ScenePath;
    use tiny_skia::{LineJoin, Path, PathBuilder, Stroke};

    /// `path`'s coverage (a `w × h` mask, rows `window`) on `route`; `None` when refused.
    fn mask(path: &Path, (w, h): (u32, u32), window: (u32, u32), route: Route) -> Option<Vec<u8>> {
        let mut out = vec![0u8; (w * h) as usize];
        let done = cover_handing_over(
            path,
            (w, h),
            window.0..window.1,
            &|| false,
            &mut |y, x, cov| {
                assert!((window.0..window.1).contains(&(y as u32)), "row {y}");
                let a = y * w as usize + x;
                out[a..a + cov.len()].copy_from_slice(cov);
            },
            route,
        )?;
        assert!(done);
        Some(out)
    }

    /// A random value in `lo..hi`: on quarter pixels (ties between edges and sub-scanlines)
    /// in one case of four, anywhere in the others.
    fn value(next: &mut impl FnMut(u64) -> u64, lo: f32, hi: f32, snapped: bool) -> f32 {
        if snapped {
            lo + next(((hi - lo) * 4.0) as u64 + 1) as f32 / 4.0
        } else {
            lo + (hi - lo) * (next(1 << 24) as f32 / (1u32 << 24) as f32)
        }
    }

    /// Point markers as the painter fills them (a scene circle's four cubics, and its border
    /// stroked by tiny-skia's stroker: 4 and about 16 edges), small polygons of lines,
    /// quadratics and cubics (self-crossing, up to 20 edges: more live at once than the
    /// array holds), on quarter pixels and anywhere, partly off the target, radii 0.5-40,
    /// borders 0.25-10: byte for byte tiny-skia's mask and the list walk's, whole, from a
    /// band's first row, and handed over to the list at any sub-scanline.
    #[test]
    fn small_paths_cover_as_the_list_and_tiny_skia() {
        let (w, h) = (120u32, 100u32);
        let mut next = xorshift(0x9b05_688c_2b3e_6c1f);
        let (mut few, mut handed, mut refused) = (0, 0, 0);
        for case in 0..30_000 {
            let snapped = case % 4 == 0;
            let (x, y) = (
                value(&mut next, -4.0, w as f32 - 10.0, snapped),
                value(&mut next, -4.0, h as f32 - 10.0, snapped),
            );
            let path = match case % 5 {
                0..=2 => {
                    let r = value(
                        &mut next,
                        0.5,
                        if case % 7 == 0 { 40.0 } else { 9.0 },
                        snapped,
                    );
                    let mut circle = ScenePath::new();
                    circle.circle(x, y, r);
                    let disc = build_path(&circle).unwrap();
                    if case % 5 == 0 {
                        disc
                    } else {
                        let stroke = Stroke {
                            width: value(&mut next, 0.25, 10.0, snapped),
                            line_join: [LineJoin::Miter, LineJoin::Round][case % 2],
                            ..Stroke::default()
                        };
                        let Some(ring) = disc.stroke(&stroke, 1.0) else {
                            continue;
                        };
                        ring
                    }
                }
                _ => {
                    let mut pb = PathBuilder::new();
                    let size = value(&mut next, 1.0, 30.0, false);
                    let mut at = || {
                        (
                            x + value(&mut next, 0.0, size, snapped),
                            y + value(&mut next, 0.0, size, snapped),
                        )
                    };
                    let (x0, y0) = at();
                    pb.move_to(x0, y0);
                    for k in 0..2 + case % 19 {
                        let ((ax, ay), (bx, by), (cx, cy)) = (at(), at(), at());
                        match (case + k) % 4 {
                            0 | 3 => pb.line_to(ax, ay),
                            1 => pb.quad_to(ax, ay, bx, by),
                            _ => pb.cubic_to(ax, ay, bx, by, cx, cy),
                        }
                    }
                    pb.close();
                    let Some(path) = pb.finish() else {
                        continue;
                    };
                    path
                }
            };
            let Some(list) = mask(&path, (w, h), (0, h), Route::General) else {
                refused += 1;
                continue;
            };
            let auto = mask(&path, (w, h), (0, h), Route::Auto).unwrap();
            assert_same_mask(format!("{case} auto"), &auto, &list, w);
            if case % 8 == 0 {
                assert_same_mask(format!("{case} tiny-skia"), &list, &theirs(&path, w, h), w);
            }
            let b = path.bounds();
            let (top, bottom) = (b.top().max(0.0) as u32, (b.bottom().ceil() as u32).min(h));
            if top >= bottom {
                continue;
            }
            let (l, r) = (b.left().floor().max(0.0), b.right().ceil().min(w as f32));
            few += usize::from(r - l <= MAX_COLUMNS as f32);
            // Handed over anywhere, from the first row or a band's.
            let start = if case % 3 == 0 {
                top + next(u64::from(bottom - top)) as u32
            } else {
                0
            };
            let at = (start.max(top) << 2) + next(u64::from((bottom - top) << 2) + 2) as u32;
            let route = Route::Few(if case % 4 == 1 { u32::MAX } else { at });
            let band = mask(&path, (w, h), (start, h), route).unwrap();
            let rows = (start * w) as usize..;
            assert_same_mask(
                format!("{case} from {start}, {at}"),
                &band[rows.clone()],
                &list[rows],
                w,
            );
            handed += 1;
        }
        assert!(
            few > 20_000 && handed > 20_000 && refused > 1000,
            "{few} small, {handed} handed over, {refused} refused"
        );
    }
}
