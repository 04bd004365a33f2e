//! Skia's 4× supersampling scan converter (`SkScan_AntiPath`, which tiny-skia ports), written
//! for coverage rows instead of a blitter chain, so that solid fills and stroke outlines are
//! covered bit for bit as tiny-skia's `fill_path` covers them, for a fraction of the work.
//!
//! tiny-skia hands every run of every sub-scanline to an `AlphaRuns` run-length row (each
//! span splits runs), flushes each pixel row through a blitter that runs its pipeline stages
//! per run into a bitmap-sized mask, and the painter then reads that mask back: on a scatter
//! chart this was most of the drawing. Here the edges live in one flat array, each span adds
//! its coverage straight into a row of bytes, and the row's covered stretch goes to the
//! caller, which blends it (`rect::blend_coverage`).
//!
//! What is reproduced, and must stay so (the unit tests compare with tiny-skia byte for byte):
//! - the edges (`edges.rs`);
//! - the walk (`walk_edges`): edges sorted by first row then x (a stable sort), kept in an
//!   x-sorted list whose order among ties decides how spans split, non-zero winding; on
//!   their linked list for most paths, in an array for outlines with hundreds of live edges
//!   a sub-scanline (`supersample/active.rs`, same order), small paths of few edges (point
//!   markers) in a small array with a row of differences (`supersample/few.rs`, same order);
//! - the super-blitter (`SuperBlitter::blit_h`, `AlphaRuns::add`): partial coverage of the
//!   ends of a span at quarter pixels, `max_value` for whole pixels (63 on the last
//!   sub-scanline so that four make 255), the `alpha - (alpha >> 8)` clamp on the start and
//!   middle pixels, a wrapping add on the end pixel.
//!
//! A path whose rounded-out bounds leave the bitmap is taken when what tiny-skia's edge
//! clipper makes of it is reproduced (`edges.rs`: lines and quadratics cut at the top and
//! bottom, pieces left as they are); otherwise, or for another fill rule, the caller falls
//! back to tiny-skia.

mod active;
mod few;
mod window;
mod words;

use super::edges::{linked_edges, Edge, Kind, SHIFT};
use std::ops::Range;
use tiny_skia::Path;
use window::jump;
use words::{add_span, block_range, BLOCK};

const MASK: u32 = (1 << SHIFT) - 1;
/// Pixel rows covered between two polls of the stop signal.
const ROWS_PER_POLL: u32 = 64;

/// Covers `path` (device space) with the non-zero rule as tiny-skia's anti-aliased
/// `fill_path` does on a `width × height` target and hands each pixel row's covered stretch
/// to `row(y, x, coverage)` (`x` its first column), top to bottom, for the pixel rows of
/// `window` only (a painter drawing one band of the bitmap: the rows are the whole walk's,
/// see [`jump`]); the stretch may be changed (it is cleared afterwards). `None` when the path needs what is not reproduced here
/// (clipping to the target, a bitmap tiny-skia tiles): the caller draws it with tiny-skia.
/// `Some(false)` when `stop` ended the covering part-way (rows handed over stay so).
pub(super) fn cover(
    path: &Path,
    width: u32,
    height: u32,
    window: Range<u32>,
    stop: &dyn Fn() -> bool,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
) -> Option<bool> {
    cover_handing_over(path, (width, height), window, stop, row, Route::Auto)
}

/// Which walk covers a path: [`Route::Auto`] picks by the path, the tests force each.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code, reason = "only the tests force a walk"))]
enum Route {
    /// A small path of few edges on `few.rs`'s walk, others on the list or an array (see
    /// [`ARRAY_LIVE`]).
    Auto,
    /// The list or an array, as [`ARRAY_LIVE`] says, whatever the path's size.
    General,
    /// An array that hands the list over to the list walk at this sub-scanline (see
    /// `active::walk`), whatever the path.
    Array(u32),
    /// `few.rs`'s walk for a small path, handing over to the list walk at this sub-scanline.
    Few(u32),
}

/// [`cover`] on the walk `route` says.
fn cover_handing_over(
    path: &Path,
    (width, height): (u32, u32),
    window: Range<u32>,
    stop: &dyn Fn() -> bool,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
    route: Route,
) -> Option<bool> {
    if width >= 8192 || height >= 8192 {
        return None; // tiny-skia tiles such bitmaps, and shifted coordinates must fit i16
    }
    let b = path.bounds();
    // `Mask::fill_path` draws nothing for a path this thin.
    const NEARLY_ZERO: f32 = 1.0 / 4096.0;
    if b.width() <= NEARLY_ZERO || b.height() <= NEARLY_ZERO {
        return Some(true);
    }
    // As `path_aa::fill_path`: floor/ceil the bounds, then round out.
    let (l, t) = (b.left().floor(), b.top().floor());
    let (r, bt) = (b.right().ceil(), b.bottom().ceil());
    if !(l.is_finite() && t.is_finite() && r.is_finite() && bt.is_finite()) {
        return None;
    }
    // Bounds past the target make tiny-skia clip the edges to it; when the clipper would
    // change no piece, the result is the unclipped one's within the target, its rows and
    // columns limited to it (`fill_path_impl`'s start and stop rows, the super-blitter's
    // intersection of the bounds and the clip).
    let (w, h) = (width as f32, height as f32);
    let clip = (l < 0.0 || t < 0.0 || r > w || bt > h).then_some((w, h));
    let (l, t, r, bt) = match clip {
        Some(_) => (l.max(0.0), t.max(0.0), r.min(w), bt.min(h)),
        None => (l, t, r, bt),
    };
    if l >= r || t >= bt {
        return None;
    }
    let (left, top) = (l as i32, t as i32);
    let right = left + ((r - l).ceil() as i32).max(1);
    let bottom = top + ((bt - t).ceil() as i32).max(1);
    if right > width as i32 || bottom > height as i32 {
        return None;
    }
    // Only the rows of `window` are covered: a path that misses it is done with.
    let (from, to) = (top.max(window.start as i32), bottom.min(window.end as i32));
    if from >= to {
        return Some(true);
    }
    let mut edges = linked_edges(path, clip)?;
    if edges.is_empty() {
        return Some(true);
    }
    let (first, from, to) = (
        (top << SHIFT) as u32,
        (from << SHIFT) as u32,
        (to << SHIFT) as u32,
    );
    // A window starting below the path's top: the list as the walk would have it there.
    // The walk of `edges` from sub-scanline `ys.0` to `to`, its rows from `ys.1` on handed
    // to `row`.
    let walk_rows =
        |edges: &mut [Edge], ys: (u32, u32), row: &mut dyn FnMut(usize, usize, &mut [u8])| {
            let mut blitter = Rows::new(left, right, top, row);
            let hand_over = match route {
                Route::Array(y) => y,
                _ => u32::MAX,
            };
            let (walked, blit_from) = ((ys.0, to), ys.1);
            let done = walk(
                edges,
                walked,
                width << SHIFT,
                &mut blitter,
                stop,
                (hand_over, blit_from),
            );
            blitter.flush();
            done
        };
    let done = if from == first || jump(&mut edges, from as i32) {
        // A point marker's disc or ring: the few-edges walk.
        let few = match route {
            Route::Auto if few::fits(edges.len() - 2, left, right) => Some(u32::MAX),
            Route::Few(y) if few::fits(edges.len() - 2, left, right) => Some(y),
            _ => None,
        };
        match few {
            Some(y) => {
                let area = few::Area { left, right, top };
                let ys = (from, to);
                few::walk(&mut edges, ys, area, width << SHIFT, row, stop, y)
            }
            None => walk_rows(&mut edges, (from, from), row),
        }
    } else {
        // Equal x among the live edges (a line chart's outline: the sides of neighbouring
        // vertical strokes): the walk from the top, which only orders the edges above the
        // window on an array (see `active::walk`); the rows above it left out.
        let start = window.start as usize;
        let mut below = |y: usize, x: usize, cov: &mut [u8]| {
            if y >= start {
                row(y, x, cov);
            }
        };
        walk_rows(&mut edges, (first, from), &mut below)
    };
    Some(done)
}

impl<'r> Rows<'r> {
    /// An empty row over the columns `left..right` (rows from `top`), handed to `row`.
    fn new(
        left: i32,
        right: i32,
        top: i32,
        row: &'r mut dyn FnMut(usize, usize, &mut [u8]),
    ) -> Self {
        Rows {
            acc: vec![0; (right - left) as usize + 1 + SLACK],
            lo: usize::MAX,
            hi: 0,
            left,
            super_left: (left << SHIFT) as u32,
            top,
            curr_iy: top - 1,
            row,
        }
    }
}

/// The super-blitter: one pixel row of accumulated coverage (`AlphaRuns` without the runs).
struct Rows<'r> {
    acc: Vec<u8>,
    /// The first and last column written in the current row (`lo > hi`: none).
    lo: usize,
    hi: usize,
    left: i32,
    super_left: u32,
    top: i32,
    curr_iy: i32,
    row: &'r mut dyn FnMut(usize, usize, &mut [u8]),
}

impl Rows<'_> {
    /// Hands the finished row over and clears it (`SuperBlitter::flush`). Inlined: with
    /// `few.rs` calling the list walk too, the compiler left it out of line, a call per row
    /// (pie 6: `walk_list` 27.7 -> 28.0 M instructions inclusive).
    #[inline(always)]
    fn flush(&mut self) {
        if self.curr_iy >= self.top {
            if self.lo <= self.hi {
                // Whole blocks, as `add_span` writes them (see `words.rs`).
                let (a, e) = block_range(self.lo, self.hi);
                let cov = &mut self.acc[a..e];
                if let Some((first, last)) = super::rect::covered(cov) {
                    let stretch = &mut cov[first..=last];
                    (self.row)(
                        self.curr_iy as usize,
                        self.left as usize + a + first,
                        stretch,
                    );
                }
                cov.fill(0);
                (self.lo, self.hi) = (usize::MAX, 0);
            }
            self.curr_iy = self.top - 1;
        }
    }

    /// A span of sub-scanline `y` from super-column `x`, `width` wide (`SuperBlitter::blit_h`
    /// and `AlphaRuns::add` on plain bytes: partial coverage at the ends, `max_value` on
    /// whole pixels). A span within the row, the usual case, takes the short way here.
    #[inline(always)]
    fn blit_h(&mut self, x: u32, y: u32, width: u32) {
        let iy = (y >> SHIFT) as i32;
        if iy != self.curr_iy {
            self.flush();
            self.curr_iy = iy;
        }
        // Whole pixels add 64 on the first three sub-scanlines, 63 on the last.
        let max_value = ((1 << (8 - SHIFT)) - (((y & MASK) + 1) >> SHIFT)) as u8;
        let len = self.acc.len() - SLACK;
        let start = x.wrapping_sub(self.super_left);
        let stop = start.wrapping_add(width);
        if x < self.super_left || stop > ((len - 1) << SHIFT) as u32 || stop < start {
            self.blit_h_outside(x, width, max_value);
            return;
        }
        let (first, end) = ((start >> SHIFT) as usize, (stop >> SHIFT) as usize);
        let (fb, fe) = (start & MASK, stop & MASK);
        let last = if first == end {
            // Within one pixel: its sub-columns as a partial start.
            add_span(
                &mut self.acc,
                first,
                ((fe - fb) << 4) as u8,
                first + 1,
                0,
                0,
            );
            first
        } else {
            let head = if fb != 0 { ((1 << SHIFT) - fb) << 4 } else { 0 };
            add_span(
                &mut self.acc,
                first,
                head as u8,
                end,
                max_value,
                (fe << 4) as u8,
            );
            if fe != 0 {
                end
            } else {
                end - 1
            }
        };
        self.touch(first, last);
    }

    /// The span still open at the end of sub-scanline `y` (the winding `w` not back at zero)
    /// runs from `left` to `right_clip`, the target's right side.
    #[inline(always)]
    fn blit_open(&mut self, w: i32, left: u32, right_clip: u32, y: u32) {
        if w != 0 {
            let width = right_clip.wrapping_sub(left);
            if width != 0 {
                self.blit_h(left, y, width);
            }
        }
    }

    #[inline(always)]
    fn touch(&mut self, first: usize, last: usize) {
        self.lo = self.lo.min(first);
        self.hi = self.hi.max(last);
    }

    /// [`Rows::blit_h`] of a span that reaches out of the row, the general way.
    #[cold]
    #[inline(never)]
    fn blit_h_outside(&mut self, mut x: u32, mut width: u32, max_value: u8) {
        match x.checked_sub(self.super_left) {
            Some(n) => x = n,
            None => {
                // tiny-skia's own guard for spans left of the bounds ("hack").
                width = x.wrapping_add(width);
                x = 0;
            }
        }
        let (start, stop) = (x, x.wrapping_add(width));
        let mut fb = start & MASK;
        let mut fe = stop & MASK;
        let mut n = (stop as i32 >> SHIFT) - (start as i32 >> SHIFT) - 1;
        if n < 0 {
            fb = fe.wrapping_sub(fb);
            n = 0;
            fe = 0;
        } else if fb == 0 {
            n += 1;
        } else {
            fb = (1 << SHIFT) - fb;
        }
        self.add(
            (x >> SHIFT) as usize,
            (fb << (8 - 2 * SHIFT)) as u8,
            n as usize,
            (fe << (8 - 2 * SHIFT)) as u8,
            max_value,
        );
    }

    /// `AlphaRuns::add` on plain bytes, columns past the row ignored.
    fn add(&mut self, mut x: usize, start: u8, middle: usize, stop: u8, max_value: u8) {
        let len = self.acc.len() - SLACK;
        let acc = &mut self.acc[..len];
        let first = x;
        if start != 0 {
            if let Some(a) = acc.get_mut(x) {
                *a = clamped_add(*a, start);
            }
            x += 1;
        }
        if middle != 0 {
            for a in &mut acc[x.min(len)..(x + middle).min(len)] {
                *a = clamped_add(*a, max_value);
            }
            x += middle;
        }
        if stop != 0 {
            if let Some(a) = acc.get_mut(x) {
                *a = a.wrapping_add(stop);
            }
        } else if x > first {
            x -= 1;
        }
        let last = x.min(len - 1);
        if first <= last {
            self.touch(first, last);
        }
    }
}

/// Bytes after the coverage row, so that the two blocks from the one holding any column of
/// it can be read and written whole (see `words::add_span`).
const SLACK: usize = 2 * BLOCK;

/// `AlphaRuns`' saturation: a sum of 256 is kept as 255 (`t - (t >> 8)`, truncated).
#[inline(always)]
fn clamped_add(a: u8, v: u8) -> u8 {
    let t = u16::from(a) + u16::from(v);
    (t - (t >> 8)) as u8
}

/// A path whose edges are live on this many sub-scanlines each on average, or more, is
/// walked on an array (`active.rs`), others on their list. The array's gain is in not
/// chasing links through hundreds of live edges a sub-scanline (the 10,000-point time series'
/// outline: 360 on average); on a few dozen its passes cost more than the chase (callgrind,
/// line 3×50, its three stroke outlines at 29–37: 38.8 → 45.5 M in the walk; area 2×40 at
/// 20–33 the same way).
const ARRAY_LIVE: i64 = 64;

/// tiny-skia's `walk_edges` (non-zero rule) over `edges` (a list with a head at 0 and a
/// tail at the end) on the sub-scanlines `start_y..stop_y`: on the list or an array, as
/// [`ARRAY_LIVE`] says; with a `hand_over` row (not `u32::MAX`: the tests), on an array
/// handing over to the list there (see `active::walk`). Spans above sub-scanline
/// `blit_from` may be left out (the array walk only orders its edges there).
fn walk(
    edges: &mut [Edge],
    ys: (u32, u32),
    right_clip: u32,
    rows: &mut Rows<'_>,
    stop: &dyn Fn() -> bool,
    (hand_over, blit_from): (u32, u32),
) -> bool {
    // Sub-scanlines of live edges (each edge's rows from its first piece's first to its last
    // piece's last), against the walk's sub-scanlines.
    let inner = &edges[1..edges.len() - 1];
    let (live, walked) = (
        inner
            .iter()
            .map(|e| i64::from(e.last_row() - e.first_y + 1))
            .sum::<i64>(),
        i64::from(ys.1 - ys.0),
    );
    if live < ARRAY_LIVE * walked && hand_over == u32::MAX {
        walk_list(edges, ys, right_clip, rows, stop)
    } else {
        active::walk(edges, ys, right_clip, rows, stop, (hand_over, blit_from))
    }
}

/// tiny-skia's `walk_edges` on the list, over `edges` with a head at 0 and a tail at the
/// end, over the sub-scanlines `start_y..stop_y`; a span still open at the end of a
/// sub-scanline runs to `right_clip` (the target's right side, supersampled). `false` when
/// `stop` ended it.
fn walk_list(
    edges: &mut [Edge],
    (start_y, stop_y): (u32, u32),
    right_clip: u32,
    rows: &mut Rows<'_>,
    stop: &dyn Fn() -> bool,
) -> bool {
    let mut curr_y = start_y;
    loop {
        if (curr_y - start_y) % (ROWS_PER_POLL << SHIFT) == 0 && stop() {
            return false;
        }
        let mut w = 0i32;
        let mut left = 0u32;
        let mut prev_x = edges[0].x;
        let mut curr = edges[0].next as usize;
        while edges[curr].first_y <= curr_y as i32 {
            let x = ((edges[curr].x + 0x8000) >> 16) as u32;
            if w == 0 {
                left = x;
            }
            w += i32::from(edges[curr].winding);
            if w == 0 {
                let width = x.wrapping_sub(left);
                if width != 0 {
                    rows.blit_h(left, curr_y, width);
                }
            }
            let next = edges[curr].next;
            if edges[curr].last_y == curr_y as i32 {
                let more = match edges[curr].kind {
                    Kind::Line => false,
                    Kind::Quad => edges[curr].curve_count > 0 && edges[curr].update_quad(),
                    Kind::Cubic => edges[curr].curve_count < 0 && edges[curr].update_cubic(),
                };
                if more {
                    let new_x = edges[curr].x;
                    if new_x < prev_x {
                        backward_insert(curr, edges);
                    } else {
                        prev_x = new_x;
                    }
                } else {
                    remove(curr, edges);
                }
            } else {
                let new_x = edges[curr].x.wrapping_add(edges[curr].dx);
                edges[curr].x = new_x;
                if new_x < prev_x {
                    backward_insert(curr, edges);
                } else {
                    prev_x = new_x;
                }
            }
            curr = next as usize;
        }
        rows.blit_open(w, left, right_clip, curr_y);
        curr_y += 1;
        if curr_y >= stop_y {
            return true;
        }
        insert_new(curr, curr_y as i32, edges);
    }
}

fn remove(i: usize, edges: &mut [Edge]) {
    let (p, n) = (edges[i].prev as usize, edges[i].next as usize);
    edges[p].next = n as u32;
    edges[n].prev = p as u32;
}

fn insert_after(i: usize, after: usize, edges: &mut [Edge]) {
    edges[i].prev = after as u32;
    edges[i].next = edges[after].next;
    let an = edges[after].next as usize;
    edges[an].prev = i as u32;
    edges[after].next = i as u32;
}

/// Ripples edge `i` back until the list is x-sorted (`backward_insert_edge_based_on_x`).
fn backward_insert(i: usize, edges: &mut [Edge]) {
    let x = edges[i].x;
    let mut p = edges[i].prev as usize;
    while p != 0 && edges[p].x > x {
        p = edges[p].prev as usize;
    }
    if edges[p].next as usize != i {
        remove(i, edges);
        insert_after(i, p, edges);
    }
}

/// Moves the edges starting at row `y` (from `new` on) into x order (`insert_new_edges`).
/// Inlined: the list walk calls it on every sub-scanline, and with a second caller
/// (`active.rs`) the compiler made it a call (scatter 1,000: 2.9 M instructions more).
#[inline(always)]
fn insert_new(mut new: usize, y: i32, edges: &mut [Edge]) {
    if edges[new].first_y != y {
        return;
    }
    let prev = edges[new].prev as usize;
    if edges[prev].x <= edges[new].x {
        return;
    }
    // `backward_insert_start`: the head has no predecessor.
    let x = edges[new].x;
    let mut start = prev;
    while start != 0 {
        start = edges[start].prev as usize;
        if edges[start].x <= x {
            break;
        }
    }
    loop {
        let next = edges[new].next as usize;
        let mut keep = false;
        loop {
            let after = edges[start].next as usize;
            if after == new {
                keep = true;
                break;
            }
            if edges[after].x >= edges[new].x {
                break;
            }
            start = after;
        }
        if !keep {
            remove(new, edges);
            insert_after(new, start, edges);
        }
        start = new;
        new = next;
        if edges[new].first_y != y {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
