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
//!   a sub-scanline (`supersample/active.rs`, same order);
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
    cover_handing_over(path, (width, height), window, stop, row, u32::MAX)
}

/// [`cover`]; with a `hand_over` sub-scanline other than `u32::MAX`, walked on an array that
/// hands the list over to the list walk there (see `active::walk`), whatever the path.
fn cover_handing_over(
    path: &Path,
    (width, height): (u32, u32),
    window: Range<u32>,
    stop: &dyn Fn() -> bool,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
    hand_over: u32,
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
            let done = walk(
                edges,
                (ys.0, to),
                width << SHIFT,
                &mut blitter,
                stop,
                (hand_over, ys.1),
            );
            blitter.flush();
            done
        };
    let done = if from == first || jump(&mut edges, from as i32) {
        walk_rows(&mut edges, (from, from), row)
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
    /// Hands the finished row over and clears it (`SuperBlitter::flush`).
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
mod tests {
    use super::*;
    use tiny_skia::{FillRule, Mask, PathBuilder};

    /// A small deterministic generator: `next(n)` is below `n`.
    pub(super) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// `path`'s coverage by [`cover`] as a mask (`None` when refused), the same walked on an
    /// array whatever the path (see [`walk`]).
    fn ours(path: &Path, w: u32, h: u32) -> Option<Vec<u8>> {
        let mut masks = [u32::MAX, u32::MAX - 1].map(|hand_over| {
            let mut out = vec![0u8; (w * h) as usize];
            let done = cover_handing_over(
                path,
                (w, h),
                0..h,
                &|| false,
                &mut |y, x, cov| {
                    let a = y * w as usize + x;
                    out[a..a + cov.len()].copy_from_slice(cov);
                },
                hand_over,
            );
            done.map(|done| {
                assert!(done);
                out
            })
        });
        assert!(masks[0] == masks[1], "the list and the array walk differ");
        masks[0].take()
    }

    fn theirs(path: &Path, w: u32, h: u32) -> Vec<u8> {
        let mut m = Mask::new(w, h).unwrap();
        m.fill_path(
            path,
            FillRule::Winding,
            true,
            tiny_skia::Transform::identity(),
        );
        m.data().to_vec()
    }

    /// Fails on the first pixel where `actual` and `expected` (masks `w` wide) differ.
    pub(super) fn assert_same_mask(
        case: impl std::fmt::Display,
        actual: &[u8],
        expected: &[u8],
        w: u32,
    ) {
        if let Some(i) = (0..actual.len()).find(|&i| actual[i] != expected[i]) {
            panic!(
                "case {case}: pixel ({}, {}) {} instead of {}",
                i % w as usize,
                i / w as usize,
                actual[i],
                expected[i]
            );
        }
    }

    /// Random contours of lines, quadratics and cubics (self-crossing, overlapping, with
    /// vertical runs on whole and half pixels, points on exact quarter pixels), circles
    /// and rings: byte for byte tiny-skia's anti-aliased non-zero mask.
    #[test]
    fn covers_as_tiny_skia() {
        let (w, h) = (120u32, 90u32);
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let mut covered = 0;
        for case in 0..3000 {
            let mut coord = |max: u32| -> f32 {
                match case % 4 {
                    // Snapped to quarter pixels: ties between edges and on sub-scanlines.
                    0 => next(max as u64 * 4) as f32 / 4.0,
                    1 => next(max as u64 * 2) as f32 / 2.0,
                    _ => next(max as u64 * 1000) as f32 / 1000.0,
                }
            };
            let mut pb = PathBuilder::new();
            match case % 7 {
                5 => {
                    let (x, y) = (coord(w), coord(h));
                    let r = 0.5 + coord(20);
                    pb.push_circle(x, y, r);
                    pb.push_circle(x + 0.3, y, r * 0.6);
                }
                6 => {
                    // A cubic ring as scene paths draw circles, and a vertical bar pair.
                    let (x, y) = (coord(w), coord(h));
                    let r = 1.0 + coord(12);
                    let k = 0.552_284_8 * r;
                    pb.move_to(x + r, y);
                    pb.cubic_to(x + r, y + k, x + k, y + r, x, y + r);
                    pb.cubic_to(x - k, y + r, x - r, y + k, x - r, y);
                    pb.cubic_to(x - r, y - k, x - k, y - r, x, y - r);
                    pb.cubic_to(x + k, y - r, x + r, y - k, x + r, y);
                    pb.close();
                    let (bx, by) = (coord(w).floor(), coord(h));
                    pb.move_to(bx, by);
                    pb.line_to(bx, by + 10.0);
                    pb.line_to(bx + 2.0, by + 10.0);
                    pb.line_to(bx + 2.0, by);
                    pb.close();
                    pb.move_to(bx + 2.0, by + 5.0);
                    pb.line_to(bx + 2.0, by + 15.0);
                    pb.line_to(bx + 4.0, by + 15.0);
                    pb.line_to(bx + 4.0, by + 5.0);
                    pb.close();
                }
                _ => {
                    for _ in 0..1 + case % 3 {
                        pb.move_to(coord(w), coord(h));
                        let n = 2 + coord(6) as u64;
                        for k in 0..n {
                            match (case + k as usize) % 4 {
                                0 | 3 => pb.line_to(coord(w), coord(h)),
                                1 => pb.quad_to(coord(w), coord(h), coord(w), coord(h)),
                                _ => pb.cubic_to(
                                    coord(w),
                                    coord(h),
                                    coord(w),
                                    coord(h),
                                    coord(w),
                                    coord(h),
                                ),
                            }
                        }
                        if case % 2 == 0 {
                            pb.close();
                        }
                    }
                }
            }
            let Some(path) = pb.finish() else {
                continue;
            };
            let expected = theirs(&path, w, h);
            match ours(&path, w, h) {
                Some(actual) => {
                    covered += 1;
                    if let Some(i) = (0..actual.len()).find(|&i| actual[i] != expected[i]) {
                        panic!(
                            "case {case}: pixel ({}, {}) {} instead of {}: {path:?}",
                            i % w as usize,
                            i / w as usize,
                            actual[i],
                            expected[i]
                        );
                    }
                }
                None => {
                    let b = path.bounds();
                    assert!(
                        b.left() < 0.0
                            || b.top() < 0.0
                            || b.right() > w as f32
                            || b.bottom() > h as f32,
                        "case {case} refused inside the target"
                    );
                }
            }
        }
        assert!(covered > 2000, "only {covered} paths covered here");
    }

    /// Long polylines as line charts draw them: a time series' stroke outline (hundreds of
    /// edges active on one sub-scanline, crossing each other, with round and miter joins)
    /// and self-crossing filled zigzags, byte for byte tiny-skia's mask.
    #[test]
    fn covers_long_polylines_as_tiny_skia() {
        use tiny_skia::{LineCap, LineJoin, Stroke};
        let (w, h) = (400u32, 300u32);
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut covered = 0;
        for case in 0..120 {
            let n = 20 + next(400) as usize;
            let mut pb = PathBuilder::new();
            let margin = 8.0;
            let step = (w as f32 - 2.0 * margin) / n as f32;
            let y = |next: &mut dyn FnMut(u64) -> u64| {
                margin + next(((h as f32 - 2.0 * margin) * 64.0) as u64) as f32 / 64.0
            };
            pb.move_to(margin, y(&mut next));
            for i in 1..=n {
                let x = margin + step * i as f32;
                if case % 3 == 2 {
                    let (cx, cy) = (x - step / 2.0, y(&mut next));
                    pb.quad_to(cx, cy, x, y(&mut next));
                } else {
                    pb.line_to(x, y(&mut next));
                }
            }
            let line = pb.finish().unwrap();
            let path = if case % 4 == 3 {
                line // filled as it is: closed by the fill, crossing itself everywhere
            } else {
                let stroke = Stroke {
                    width: 0.5 + next(8) as f32 / 2.0,
                    line_join: [LineJoin::Round, LineJoin::Miter, LineJoin::Bevel][case % 3],
                    line_cap: if case % 2 == 0 {
                        LineCap::Round
                    } else {
                        LineCap::Butt
                    },
                    ..Stroke::default()
                };
                line.stroke(&stroke, 1.0).unwrap()
            };
            let expected = theirs(&path, w, h);
            let actual = ours(&path, w, h).expect("inside the target");
            covered += 1;
            assert_same_mask(case, &actual, &expected, w);
        }
        assert_eq!(covered, 120);
    }

    /// Pie slices and circles reaching past the target's sides (their control points, or
    /// the curves themselves by up to 3 px), filled and stroked: where what the edge
    /// clipper does is reproduced they are covered here, byte for byte as tiny-skia covers
    /// them with its clipper; the others are refused.
    #[test]
    fn shapes_reaching_past_the_target_cover_as_tiny_skia() {
        use tiny_skia::Stroke;
        let (w, h) = (160u32, 120u32);
        let mut next = xorshift(0xd1b5_4a32_d192_ed03);
        let (mut taken, mut refused) = (0, 0);
        for case in 0..6000 {
            let r = 20.0 + next(400) as f32 / 8.0;
            // The circle's nearest side from 3 px past it to 1.5 px inside, at a random side.
            let gap = next(144) as f32 / 32.0 - 3.0;
            let free = |n: &mut dyn FnMut(u64) -> u64, size: u32| {
                r + gap + n(((size as f32 - 2.0 * (r + gap)).max(1.0) * 16.0) as u64) as f32 / 16.0
            };
            let (cx, cy) = match case % 4 {
                0 => (free(&mut next, w), r + gap),
                1 => (free(&mut next, w), h as f32 - r - gap),
                2 => (r + gap, free(&mut next, h)),
                _ => (w as f32 - r - gap, free(&mut next, h)),
            };
            let mut pb = PathBuilder::new();
            if case % 3 == 0 {
                pb.push_circle(cx, cy, r);
            } else {
                // A slice as elements/arc.rs builds one: cubics of at most a quarter turn.
                let a0 = next(628) as f32 / 100.0;
                let sweep = 0.3 + next(560) as f32 / 100.0;
                pb.move_to(cx, cy);
                pb.line_to(cx + r * libm::cosf(a0), cy + r * libm::sinf(a0));
                let parts = (sweep / 1.5).ceil();
                let step = sweep / parts;
                let k = 4.0 / 3.0 * libm::tanf(step / 4.0);
                for i in 0..parts as usize {
                    let (s, e) = (a0 + step * i as f32, a0 + step * (i + 1) as f32);
                    let (cs, ss, ce, se) =
                        (libm::cosf(s), libm::sinf(s), libm::cosf(e), libm::sinf(e));
                    pb.cubic_to(
                        cx + r * (cs - k * ss),
                        cy + r * (ss + k * cs),
                        cx + r * (ce + k * se),
                        cy + r * (se - k * ce),
                        cx + r * ce,
                        cy + r * se,
                    );
                }
                pb.close();
            }
            let mut path = pb.finish().unwrap();
            if case % 2 == 1 {
                let stroke = Stroke {
                    width: 0.5 + next(4) as f32 / 2.0,
                    ..Stroke::default()
                };
                path = path.stroke(&stroke, 1.0).unwrap();
            }
            let Some(actual) = ours(&path, w, h) else {
                refused += 1;
                continue;
            };
            let b = path.bounds();
            if b.left() >= 0.0 && b.top() >= 0.0 && b.right() <= w as f32 && b.bottom() <= h as f32
            {
                continue; // no clipper involved
            }
            taken += 1;
            let expected = theirs(&path, w, h);
            assert_same_mask(case, &actual, &expected, w);
        }
        assert!(
            taken > 50 && refused > 100,
            "{taken} taken, {refused} refused"
        );
    }

    /// Rows of a window (a painter's band) covered alone, after the list was jumped to the
    /// window's first sub-scanline or, with ties in x, walked there: byte for byte those
    /// rows of the whole cover, for random contours, circles, long stroke outlines and
    /// paths reaching past the target, with the windows' first row anywhere in the path.
    #[test]
    fn a_row_window_covers_as_the_whole_walk() {
        use tiny_skia::Stroke;
        let (w, h) = (120u32, 90u32);
        let mut next = xorshift(0x6a09_e667_f3bc_c908);
        let (mut jumped, mut walked) = (0, 0);
        for case in 0..1500 {
            let coord = |max: u32, n: &mut dyn FnMut(u64) -> u64| -> f32 {
                match case % 3 {
                    0 => n(max as u64 * 4) as f32 / 4.0 - 4.0, // ties on quarter pixels
                    _ => n(max as u64 * 1000) as f32 / 1000.0 - 4.0,
                }
            };
            let mut pb = PathBuilder::new();
            pb.move_to(coord(w + 8, &mut next), coord(h + 8, &mut next));
            for k in 0..3 + next(12) {
                let (x, y) = (coord(w + 8, &mut next), coord(h + 8, &mut next));
                match (case as u64 + k) % 3 {
                    0 => pb.line_to(x, y),
                    1 => pb.quad_to(coord(w, &mut next), coord(h, &mut next), x, y),
                    _ => {
                        let (c1x, c1y) = (coord(w, &mut next), coord(h, &mut next));
                        pb.cubic_to(c1x, c1y, coord(w, &mut next), coord(h, &mut next), x, y)
                    }
                }
            }
            if case % 5 == 4 {
                pb.push_circle(
                    coord(w, &mut next),
                    coord(h, &mut next),
                    3.0 + coord(30, &mut next),
                );
            }
            if case % 3 == 0 {
                // Bars sharing a side: two edges at one x on many sub-scanlines.
                let x = (4 + next(u64::from(w) - 12)) as f32 + next(4) as f32 / 4.0;
                let (y0, y1) = (
                    next(u64::from(h) / 2) as f32,
                    (h / 2 + next(40) as u32) as f32,
                );
                pb.push_rect(tiny_skia::Rect::from_ltrb(x - 2.5, y0, x, y1).unwrap());
                pb.push_rect(tiny_skia::Rect::from_ltrb(x, y0 + 3.25, x + 3.0, y1 + 9.0).unwrap());
            }
            let mut path = pb.finish().unwrap();
            if case % 4 == 1 {
                let stroke = Stroke {
                    width: 1.0 + next(12) as f32 / 2.0,
                    ..Stroke::default()
                };
                path = path.stroke(&stroke, 1.0).unwrap();
            }
            let Some(whole) = ours(&path, w, h) else {
                continue;
            };
            let b = path.bounds();
            let top = (b.top().max(0.0) as u32).min(h - 1);
            let start = top + next(u64::from(h - top)) as u32;
            let end = (start + 1 + next(u64::from(h - start)) as u32).min(h);
            let mut band = vec![0u8; (w * h) as usize];
            let done = cover(&path, w, h, start..end, &|| false, &mut |y, x, cov| {
                assert!((start..end).contains(&(y as u32)), "case {case}: row {y}");
                let a = y * w as usize + x;
                band[a..a + cov.len()].copy_from_slice(cov);
            });
            assert_eq!(done, Some(true));
            let rows = start as usize * w as usize..end as usize * w as usize;
            assert_same_mask(case, &band[rows.clone()], &whole[rows], w);
            // Which way the list got to the window.
            if let Some(mut edges) = linked_edges(&path, None).filter(|e| !e.is_empty()) {
                if start > top && b.top() >= 0.0 && b.bottom() <= h as f32 {
                    if jump(&mut edges, (start << SHIFT) as i32) {
                        jumped += 1;
                    } else {
                        walked += 1;
                    }
                }
            }
        }
        assert!(
            jumped > 100 && walked > 20,
            "{jumped} jumped, {walked} walked"
        );
    }

    /// A path reaching past the target is left to tiny-skia (its edge clipper), and a stop
    /// ends the covering between row groups.
    #[test]
    fn clipping_is_refused_and_a_stop_ends_it() {
        let mut pb = PathBuilder::new();
        pb.push_circle(10.0, 10.0, 12.0);
        let path = pb.finish().unwrap();
        assert!(cover(&path, 100, 100, 0..100, &|| false, &mut |_, _, _| {}).is_none());
        let mut pb = PathBuilder::new();
        pb.push_circle(100.0, 100.0, 90.0);
        let path = pb.finish().unwrap();
        let mut rows = 0;
        let done = cover(&path, 200, 200, 0..200, &|| true, &mut |_, _, _| rows += 1);
        assert_eq!((done, rows), (Some(false), 0));
    }
}
