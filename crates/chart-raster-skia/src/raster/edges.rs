//! The edges of Skia's supersampling scan converter, as tiny-skia builds them for an
//! anti-aliased fill without a clip (`BasicEdgeBuilder`, `LineEdge`, `QuadraticEdge`,
//! `CubicEdge`), for `supersample.rs`: points × 256 truncated to 26.6 fixed point,
//! quadratics and cubics chopped at their y extrema in floating point first (with the same
//! flattening of the chopped extrema), then stepped by forward differences in fixed point,
//! vertical lines in a row combined. Every step is tiny-skia's, operation for operation:
//! one rounding apart and the coverage differs.

use tiny_skia::{Path, PathSegment, Point};
use tiny_skia_path::path_geometry::{
    chop_cubic_at2, chop_quad_at, find_unit_quad_roots, new_t_values, valid_unit_divide,
};
use tiny_skia_path::NormalizedF32Exclusive;

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
fn combine_vertical(edge: &Edge, edges: &mut Vec<Edge>) -> bool {
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

/// The edges of a path, each contour closed, as tiny-skia's `BasicEdgeBuilder` builds them
/// without a clip; `None` on a non-finite point.
pub(super) fn build_edges(path: &Path) -> Option<Vec<Edge>> {
    let mut edges: Vec<Edge> = Vec::with_capacity(path.points().len() + 4);
    let push_line = |edges: &mut Vec<Edge>, a: Point, b: Point| {
        if let Some(e) = Edge::line(a, b) {
            if !(e.dx == 0 && combine_vertical(&e, edges)) {
                edges.push(e);
            }
        }
    };
    let (mut start, mut last) = (Point::zero(), Point::zero());
    let mut open = false;
    for seg in path.segments() {
        match seg {
            PathSegment::MoveTo(p) => {
                if open {
                    push_line(&mut edges, last, start);
                    open = false;
                }
                start = p;
                last = p;
            }
            PathSegment::LineTo(p) => {
                push_line(&mut edges, last, p);
                last = p;
                open = true;
            }
            PathSegment::QuadTo(p1, p2) => {
                let src = [last, p1, p2];
                let mut mono = [Point::zero(); 5];
                let n = chop_quad_at_y_extrema(&src, &mut mono);
                for i in 0..=n {
                    edges.extend(Edge::quad(&mono[i * 2..]));
                }
                last = p2;
                open = true;
            }
            PathSegment::CubicTo(p1, p2, p3) => {
                let src = [last, p1, p2, p3];
                let mut mono = [Point::zero(); 10];
                let n = chop_cubic_at_y_extrema(&src, &mut mono);
                for i in 0..=n {
                    edges.extend(Edge::cubic(&mono[i * 3..]));
                }
                last = p3;
                open = true;
            }
            PathSegment::Close => {
                if open {
                    push_line(&mut edges, last, start);
                    open = false;
                }
            }
        }
    }
    if open {
        push_line(&mut edges, last, start);
    }
    // tiny-skia refuses the path when a point is not finite (the bounds check above already
    // needs finite bounds, which a non-finite point would make infinite or NaN).
    Some(edges)
}

/// Whether tiny-skia's edge clipper (`EdgeClipper`, for a path whose rounded-out bounds
/// leave the `width × height` target) would hand the edge builder exactly the pieces
/// [`build_edges`] makes without it. A pie's slice reaching the canvas edge is the case:
/// its bounds hold the arc's control points, which lie past the edge while the curve
/// itself stays within. The clipper leaves a piece as it is when it is a line with both
/// ends within the target, or a curve's y-monotonic piece (chopped as [`build_edges`]
/// chops it) that has no x extremum to chop at (`chop_*_at_x_extrema`), ends within the
/// target, and neither lies on a side nor is flat (which the clipper drops or replaces).
/// `false` for anything else, conservatively (tiny-skia then draws the path).
pub(super) fn unchanged_by_clip(path: &Path, width: u32, height: u32) -> bool {
    let (w, h) = (width as f32, height as f32);
    let inside = |p: Point| p.x >= 0.0 && p.x <= w && p.y >= 0.0 && p.y <= h;
    // The clipper's own limit for chopping a cubic (`too_big_for_reliable_float_math`).
    let limit = (1 << 22) as f32;
    // A curve piece's ends: within, not flat, not on a side (else dropped or replaced).
    let piece = |a: Point, z: Point| {
        inside(a)
            && inside(z)
            && a.y.max(z.y) > 0.0
            && a.y.min(z.y) < h
            && a.x.max(z.x) > 0.0
            && a.x.min(z.x) < w
    };
    let (mut start, mut last) = (Point::zero(), Point::zero());
    for seg in path.segments() {
        let kept = match seg {
            PathSegment::MoveTo(p) => {
                // The closing line of the contour before.
                let kept = inside(last) && inside(start);
                (start, last) = (p, p);
                kept
            }
            PathSegment::LineTo(p) => {
                let kept = inside(last) && inside(p);
                last = p;
                kept
            }
            PathSegment::QuadTo(p1, p2) => {
                let mut mono = [Point::zero(); 5];
                let n = chop_quad_at_y_extrema(&[last, p1, p2], &mut mono);
                last = p2;
                (0..=n).all(|i| {
                    let q = &mono[i * 2..i * 2 + 3];
                    !is_not_monotonic(q[0].x, q[1].x, q[2].x) && piece(q[0], q[2])
                })
            }
            PathSegment::CubicTo(p1, p2, p3) => {
                let src = [last, p1, p2, p3];
                last = p3;
                let big = src.iter().any(|p| p.x.abs() > limit || p.y.abs() > limit);
                let mut mono = [Point::zero(); 10];
                let n = chop_cubic_at_y_extrema(&src, &mut mono);
                !big && (0..=n).all(|i| {
                    let c = &mono[i * 3..i * 3 + 4];
                    let mut t = new_t_values();
                    let (a, b, cc, d) = (c[0].x, c[1].x, c[2].x, c[3].x);
                    let extrema = find_unit_quad_roots(
                        d - a + 3.0 * (b - cc),
                        2.0 * (a - b - b + cc),
                        b - a,
                        &mut t,
                    );
                    extrema == 0 && piece(c[0], c[3])
                })
            }
            PathSegment::Close => inside(last) && inside(start),
        };
        if !kept {
            return false;
        }
    }
    inside(last) && inside(start)
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
