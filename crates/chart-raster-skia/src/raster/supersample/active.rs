//! The walk over the live edges kept in an x-sorted array rather than in tiny-skia's linked
//! list: the same order, the same spans, the same pixels.
//!
//! The list walk chases `next` from edge to edge, one dependent load after another, over
//! 72-byte edges spread through the path's edge array; on the 10,000-point time series a
//! sub-scanline crosses a few hundred edges and the walk spent most of its time waiting on
//! those loads. Here what a sub-scanline reads of a live edge (x, slope, last row, winding)
//! sits in 16 bytes in one array in list order: the next edge's x is known before the current
//! one is done with, and a pass over it is a sequential read.
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

/// tiny-skia's `walk_edges` (non-zero rule) over `edges` (a list with a head at 0 and a tail
/// at the end, as `linked_edges` or `jump` leave it) on the sub-scanlines `start_y..stop_y`;
/// a span still open at the end of a sub-scanline runs to `right_clip`. `false` when `stop`
/// ended it. `hand_over` is the sub-scanline from which the list walks on (`u32::MAX`: none;
/// the tests hand over anywhere to check that the two agree).
pub(super) fn walk(
    edges: &mut [Edge],
    (start_y, stop_y): (u32, u32),
    right_clip: u32,
    rows: &mut Rows<'_>,
    stop: &dyn Fn() -> bool,
    mut hand_over: u32,
) -> bool {
    let mut live: Vec<Live> = Vec::new();
    // The edges started at the first sub-scanline are its live ones, in the list's order; the
    // others wait in the list, which is left as it is from `pending` on.
    let mut pending = edges[0].next as usize;
    while edges[pending].first_y <= start_y as i32 {
        live.push(Live::of(edges, pending));
        pending = edges[pending].next as usize;
    }
    let mut fresh: Vec<(Live, usize)> = Vec::new();
    let mut spans: Vec<(u32, u32)> = Vec::new();
    let mut curr_y = start_y;
    loop {
        if (curr_y - start_y) % (ROWS_PER_POLL << SHIFT) == 0 && stop() {
            return false;
        }
        // At most one span per two edges, and one more.
        if spans.len() <= live.len() / 2 {
            spans.resize(live.len() / 2 + 1, (0, 0));
        }
        let (kept, n, w, left, gap) = pass(&mut live, edges, curr_y as i32, &mut spans);
        live.truncate(kept);
        for &(x, width) in &spans[..n] {
            rows.blit_h(x, curr_y, width);
        }
        if gap {
            hand_over = hand_over.min(curr_y + 1);
        }
        rows.blit_open(w, left, right_clip, curr_y);
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

/// One sub-scanline over the live edges: the spans where the winding comes back to zero
/// into `spans` (left end and width, in order), then each edge stepped (a curve to its next
/// piece, an ended edge dropped) and moved back where its x falls behind. Returns how many
/// stay live (at the front of `live`), how many spans, the winding and the left end of the
/// span still open at the end, and whether a curve's next piece starts below the next
/// sub-scanline. Two loops, each small enough to keep its state in registers, and no span
/// blitted in them (fused with the stepping and the blit, the winding went through the stack
/// on every edge).
#[inline(always)]
fn pass(
    live: &mut [Live],
    edges: &mut [Edge],
    y: i32,
    spans: &mut [(u32, u32)],
) -> (usize, usize, i32, u32, bool) {
    let (n, w, left) = spans_of(live, spans);
    let (kept, gap) = step(live, edges, y);
    (kept, n, w, left, gap)
}

/// The spans of one sub-scanline over the live edges in order (non-zero winding).
#[inline(never)]
fn spans_of(live: &[Live], spans: &mut [(u32, u32)]) -> (usize, i32, u32) {
    let (mut w, mut left, mut n) = (0i32, 0u32, 0);
    for e in live {
        let x = (e.x.wrapping_add(0x8000) >> 16) as u32;
        if w == 0 {
            left = x;
        }
        w += e.winding();
        if w == 0 {
            let width = x.wrapping_sub(left);
            if width != 0 {
                spans[n] = (left, width);
                n += 1;
            }
        }
    }
    (n, w, left)
}

/// Steps every live edge to the next sub-scanline after `y`, as the walk does, keeping the
/// array in tiny-skia's list order; returns how many stay live and whether a curve's next
/// piece leaves a gap.
#[inline(never)]
fn step(live: &mut [Live], edges: &mut [Edge], y: i32) -> (usize, bool) {
    let mut gap = false;
    let mut prev_x = i32::MIN; // the head's x
    let (mut kept, mut k) = (0, 0);
    let len = live.len();
    loop {
        // Edges stepping on within their piece, without a call; an edge at the end of its
        // piece is dealt with below.
        let mut end = None;
        while k < len {
            let mut e = live[k];
            k += 1;
            if e.last_y == y {
                end = Some(e);
                break;
            }
            e.x = e.x.wrapping_add(e.dx);
            (kept, prev_x) = place(live, kept, e, prev_x);
        }
        let Some(mut e) = end else {
            break;
        };
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
fn place(live: &mut [Live], kept: usize, e: Live, prev_x: i32) -> (usize, i32) {
    if e.x >= prev_x {
        live[kept] = e;
        return (kept + 1, e.x);
    }
    let mut p = kept;
    while p > 0 && live[p - 1].x > e.x {
        live[p] = live[p - 1];
        p -= 1;
    }
    live[p] = e;
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
    live: &mut Vec<Live>,
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
    if live.last().is_some_and(|l| l.x > x) {
        // Walking back from the one before the last (the last is right of it).
        at = old - 1;
        while at > 0 && live[at - 1].x > x {
            at -= 1;
        }
    }
    while edges[pending].first_y == y {
        let e = Live::of(edges, pending);
        // From the edge before on, up to the first live edge at or right of its x.
        while at < old && live[at].x < e.x {
            at += 1;
        }
        fresh.push((e, at));
        pending = edges[pending].next as usize;
    }
    // Into place from the back, each run of live edges moved once.
    let n = fresh.len();
    live.resize(old + n, Live::default());
    let mut src = old;
    for (j, &(e, at)) in fresh.iter().enumerate().rev() {
        live.copy_within(at..src, at + j + 1);
        live[at + j] = e;
        src = at;
    }
    pending
}

/// Sets the list's links to the order of `live` followed by the waiting edges from `pending`
/// on (their links as they were), and the live edges' state back into `edges`.
fn relink(edges: &mut [Edge], live: &[Live], pending: usize) {
    let mut prev = 0usize;
    for l in live {
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
    use super::super::cover_handing_over;
    use super::super::tests::xorshift;
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
            hand_over,
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
                if let Some(i) = (0..whole.len()).find(|&i| whole[i] != handed[i]) {
                    panic!(
                        "case {case}, handed over at {at}: pixel ({}, {}) {} instead of {}",
                        i % w as usize,
                        i / w as usize,
                        handed[i],
                        whole[i]
                    );
                }
            }
        }
    }
}
