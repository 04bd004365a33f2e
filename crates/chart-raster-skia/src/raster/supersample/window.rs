//! A window's first sub-scanline: the list as the walk would have it there, without walking
//! the rows above (a painter drawing one band of the bitmap, see `split.rs`).

use super::{Edge, Kind};

/// Sets the list up as the walk (`super::walk_list`) leaves it at the start of sub-scanline `y` (edges stepped
/// to `y`, those ended above it removed, those starting on it inserted) without walking
/// the rows above: a line steps `dx` times the rows at once (the walk's wrapping sums, so
/// the same `x`), a curve goes through its pieces. The walk keeps the live edges sorted by
/// `x`, and only the order among equal `x` depends on its history (which edge came first,
/// see `super::backward_insert` and `super::insert_new`): when two live edges share an `x`,
/// `false`, with the edges as they were (the caller walks from the top).
pub(super) fn jump(edges: &mut [Edge], y: i32) -> bool {
    let tail = edges.len() - 1;
    // The live edges' x, index and state at `y`, stepped on copies until the order is known.
    let mut live: Vec<(i32, u32, Edge)> = Vec::new();
    let mut waiting: Vec<u32> = Vec::new();
    let mut i = edges[0].next as usize;
    while i != tail {
        let mut e = edges[i];
        if e.first_y > y {
            waiting.push(i as u32); // not reached yet: still in the first order
        } else {
            match stepped_to(&mut e, y) {
                Some(true) => live.push((e.x, i as u32, e)),
                Some(false) => {} // ended above `y`
                None => return false,
            }
        }
        i = edges[i].next as usize;
    }
    live.sort_unstable_by_key(|&(x, i, _)| (x, i));
    if live.windows(2).any(|w| w[0].0 == w[1].0) {
        return false;
    }
    let mut prev = 0usize;
    for &(_, i, e) in &live {
        edges[i as usize] = e;
    }
    for i in live.iter().map(|&(_, i, _)| i).chain(waiting) {
        edges[prev].next = i;
        edges[i as usize].prev = prev as u32;
        prev = i as usize;
    }
    edges[prev].next = tail as u32;
    edges[tail].prev = prev as u32;
    true
}

/// Steps edge `e` (reached at `y`: `first_y <= y`) to sub-scanline `y` as the walk does
/// row by row: `Some(false)` when it ends above `y`, `None` when its pieces leave a gap
/// (never seen; the walk would treat it its own way).
fn stepped_to(e: &mut Edge, y: i32) -> Option<bool> {
    loop {
        if e.first_y > y {
            return None;
        }
        if e.last_y >= y {
            e.x = e.x.wrapping_add(e.dx.wrapping_mul(y - e.first_y));
            return Some(true);
        }
        let more = match e.kind {
            Kind::Line => false,
            Kind::Quad => e.curve_count > 0 && e.update_quad(),
            Kind::Cubic => e.curve_count < 0 && e.update_cubic(),
        };
        if !more {
            return Some(false);
        }
    }
}
