//! The one gate between the display list and tiny-skia: every path, stroke and clip passes
//! through here before it becomes pixels, so no item of a [`crate::scene::Scene`], however it
//! was built, can make a fill or stroke loop, overflow or allocate without bound.
//!
//! tiny-skia scan-converts in fixed point (device coordinates × 4 for supersampling × 64 for
//! `FDot6`, in an `i32`): a point a few million pixels away overflows it, and its scanline walk
//! then asserts (debug) or never ends (release). Chart.js hands such coordinates to the canvas
//! freely (a `pointRadius` of 1e9, a radial value of 1e300), and Skia's own edge clipper copes
//! with them; here the parts of a path far outside the canvas are moved onto the boundary of a
//! box around it instead:
//!
//! - A command with a non-finite coordinate is dropped, as a canvas ignores `moveTo`, `lineTo`,
//!   `arc`, … called with a non-finite argument.
//! - A path whose points all lie within [`UNTOUCHED`] device pixels of the origin passes as it
//!   is: every real chart does, so their pixels do not change.
//! - Otherwise each segment is clamped to the box (the canvas grown by the stroke's reach):
//!   a straight segment becomes the polyline `clamp(segment)` (clamping is affine between the
//!   segment's crossings of the box's four lines). That changes no pixel inside the box: the
//!   straight homotopy from a point to its clamped image never crosses the box's interior, so
//!   every winding number inside is kept, and what moved lies farther than the stroke reaches
//!   from the canvas. Curves are split until each piece lies inside the box (kept as a curve)
//!   or wholly outside it (replaced by its chord, which stays in the same convex hull).
//! - Stroke widths are capped at [`MAX_STROKE_WIDTH`] device pixels (wider than any canvas),
//!   miter limits at [`MAX_MITER_LIMIT`], and dash patterns that would cut a path into more
//!   than [`MAX_DASH_COUNT`] dashes are dropped: Skia's dasher gives up there
//!   (`SkDashPath::InternalFilter`) and the canvas strokes the path undashed.

use crate::scene::{Path, PathCmd, Stroke, Transform};
use std::borrow::Cow;

/// Device pixels from the origin within which a path is handed to tiny-skia unchanged.
pub(super) const UNTOUCHED: f32 = 262_144.0;
/// The largest distance (device px) the clamping box reaches past the canvas.
const MAX_REACH: f32 = 524_288.0;
/// Stroke widths above this many device pixels are drawn this wide.
pub(super) const MAX_STROKE_WIDTH: f32 = 65_536.0;
/// `miterLimit` is capped here (Chart.js never sets it; canvas default 10).
const MAX_MITER_LIMIT: f32 = 100.0;
/// Skia's `MAX_DASH_COUNT` in `SkDashPath`: more dashes than this and the path is stroked
/// without its dash pattern.
pub(super) const MAX_DASH_COUNT: f32 = 1_000_000.0;
/// How often a curve crossing the box is halved at most; pieces still crossing it after
/// that many splits become chords (under 1/2^20 of the curve each).
const MAX_SPLIT_DEPTH: u32 = 20;

/// The device-pixel bounds of the canvas.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Canvas {
    pub width: f32,
    pub height: f32,
}

/// A stroke made safe: width, miter limit and dashes bounded. Borrowed when nothing needed
/// bounding, as for every stroke a chart makes: a stroke owns its dash list, and a line
/// chart strokes thousands of segments.
pub(crate) fn stroke<'a>(s: &'a Stroke, path: &Path, t: Transform) -> Cow<'a, Stroke> {
    let scale = max_scale(t);
    let width =
        (s.width * scale > MAX_STROKE_WIDTH && scale > 0.0).then(|| MAX_STROKE_WIDTH / scale);
    let miter_limit = if s.miter_limit.is_finite() {
        s.miter_limit.clamp(0.0, MAX_MITER_LIMIT)
    } else {
        10.0
    };
    let drop_dash = !s.dash.is_empty() && {
        let interval: f32 = s.dash.iter().map(|d| d.abs()).sum();
        let pairs = s.dash.len().div_ceil(2).max(1) as f32;
        let length = control_polygon_length(path) * scale;
        let dashes = length * pairs / (interval * scale);
        !(dashes.is_finite() && dashes <= MAX_DASH_COUNT)
    };
    // `!=` also takes a NaN miter limit (made 10 above) as a change.
    let changed =
        width.is_some() || miter_limit != s.miter_limit || !s.dash_offset.is_finite() || drop_dash;
    if !changed {
        return Cow::Borrowed(s);
    }
    let mut out = s.clone();
    out.width = width.unwrap_or(s.width);
    out.miter_limit = miter_limit;
    if !out.dash_offset.is_finite() {
        out.dash_offset = 0.0;
    }
    if drop_dash {
        out.dash.clear();
    }
    Cow::Owned(out)
}

/// The largest factor by which `t` stretches a length.
pub(super) fn max_scale(t: Transform) -> f32 {
    let s = libm::sqrtf(t.a * t.a + t.b * t.b).max(libm::sqrtf(t.c * t.c + t.d * t.d));
    if s.is_finite() {
        s
    } else {
        0.0
    }
}

/// How far (device px) a stroke's ink reaches from its path: half the width times the miter
/// limit (joins), at least √2 (square caps), plus a pixel of anti-aliasing.
pub(crate) fn stroke_reach(s: &Stroke, t: Transform) -> f32 {
    s.width * 0.5 * s.miter_limit.max(std::f32::consts::SQRT_2) * max_scale(t) + 2.0
}

/// The path as it can safely be drawn under `t` on `canvas`, with ink reaching `reach`
/// device pixels from it (0 for fills and clips). `is_fill` closes each subpath as a fill
/// does, so that the closing edge is clamped too.
pub(crate) fn path<'a>(
    path: &'a Path,
    t: Transform,
    canvas: Canvas,
    reach: f32,
    is_fill: bool,
) -> Cow<'a, Path> {
    if untouched(path, t) {
        return Cow::Borrowed(path);
    }
    let (finite, inside) = finite_and_inside(path, t);
    if finite && inside {
        return Cow::Borrowed(path);
    }
    let det = t.a * t.d - t.b * t.c;
    let inv = if det.is_finite() && det != 0.0 {
        Transform {
            a: t.d / det,
            b: -t.b / det,
            c: -t.c / det,
            d: t.a / det,
            e: (t.c * t.f - t.d * t.e) / det,
            f: (t.b * t.e - t.a * t.f) / det,
        }
    } else {
        return Cow::Owned(Path::new()); // a degenerate transform draws nothing
    };
    let finite_only = drop_non_finite(path);
    if inside {
        return Cow::Owned(finite_only);
    }
    let r = if reach.is_finite() {
        reach.clamp(0.0, MAX_REACH)
    } else {
        MAX_REACH
    } + 2.0;
    let bounds = Box {
        x0: -r,
        y0: -r,
        x1: canvas.width + r,
        y1: canvas.height + r,
    };
    let mut c = Clamper {
        out: Path::new(),
        t,
        inv,
        b: bounds,
        start: None,
        cur: None,
        is_fill,
    };
    for cmd in &finite_only.cmds {
        c.cmd(*cmd);
    }
    c.close_fill();
    Cow::Owned(c.out)
}

/// Point by point: whether every point of `path` and its image under `t` is finite, and
/// whether every finite one's image lies within [`UNTOUCHED`] of the origin.
fn finite_and_inside(path: &Path, t: Transform) -> (bool, bool) {
    let mut finite = true;
    let mut inside = true;
    for cmd in &path.cmds {
        cmd.for_each_point(|x, y| {
            let (dx, dy) = t.apply(x, y);
            if !(x.is_finite() && y.is_finite() && dx.is_finite() && dy.is_finite()) {
                finite = false;
            } else if !(dx.abs() <= UNTOUCHED && dy.abs() <= UNTOUCHED) {
                inside = false;
            }
        });
    }
    (finite, inside)
}

/// Whether every point of `path` and its image under a scale-and-translate `t` is finite
/// and the image within [`UNTOUCHED`] of the origin, decided on the largest magnitudes:
/// such a `t` maps x by one rounded `a·x + e`, and rounding is monotonic, so
/// `|a·x + e| ≤ |a|·max|x| + |e|` holds for the rounded values too. `true` is therefore
/// always what the point-by-point check says; `false` means "look point by point" ([`path`]
/// then does). A scatter chart guards every marker's fill and border: point by point, the
/// check cost a sixth of drawing the marker's disc.
fn untouched(path: &Path, t: Transform) -> bool {
    if t.b != 0.0 || t.c != 0.0 {
        return false;
    }
    let (mut mx, mut my) = (0.0f32, 0.0f32);
    // `x · 0` is NaN for a NaN or infinite coordinate, else ±0; the sum keeps a NaN.
    let mut nan = 0.0f32;
    let mut add = |x: f32, y: f32| {
        let (ax, ay) = (x.abs(), y.abs());
        mx = if ax > mx { ax } else { mx };
        my = if ay > my { ay } else { my };
        nan += x * 0.0 + y * 0.0;
    };
    for cmd in &path.cmds {
        cmd.for_each_point(&mut add);
    }
    // A NaN bound (from `t`) fails the comparison; an infinite one fails it too.
    nan == 0.0 && t.a.abs() * mx + t.e.abs() <= UNTOUCHED && t.d.abs() * my + t.f.abs() <= UNTOUCHED
}

/// The total length of a path's control polygon: an upper bound of its arc length.
fn control_polygon_length(path: &Path) -> f32 {
    let mut len = 0.0f32;
    let (mut cur, mut start) = ((0.0f32, 0.0f32), (0.0f32, 0.0f32));
    let dist = |a: (f32, f32), b: (f32, f32)| libm::hypotf(b.0 - a.0, b.1 - a.1);
    for cmd in &path.cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) => {
                cur = (x, y);
                start = cur;
            }
            PathCmd::LineTo(x, y) => {
                len += dist(cur, (x, y));
                cur = (x, y);
            }
            PathCmd::QuadTo(a, b, x, y) => {
                len += dist(cur, (a, b)) + dist((a, b), (x, y));
                cur = (x, y);
            }
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                len += dist(cur, (a, b)) + dist((a, b), (c, d)) + dist((c, d), (x, y));
                cur = (x, y);
            }
            PathCmd::Close => {
                len += dist(cur, start);
                cur = start;
            }
        }
    }
    len
}

/// Drops the commands a canvas would ignore (a non-finite argument); a curve left without a
/// current point starts its own subpath at its first control point, as canvas does.
pub(crate) fn drop_non_finite(p: &Path) -> Path {
    let mut out = Path::new();
    for cmd in &p.cmds {
        let mut ok = true;
        cmd.for_each_point(|x, y| ok &= x.is_finite() && y.is_finite());
        if !ok {
            continue;
        }
        match *cmd {
            PathCmd::LineTo(x, y) => {
                out.line_to(x, y);
            }
            PathCmd::QuadTo(a, b, x, y) => {
                out.quad_to(a, b, x, y);
            }
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                out.cubic_to(a, b, c, d, x, y);
            }
            PathCmd::Close => {
                out.close();
            }
            other => out.cmds.push(other),
        }
    }
    out
}

/// An axis-aligned box in device pixels.
#[derive(Debug, Clone, Copy)]
struct Box {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Box {
    fn clamp(&self, p: (f32, f32)) -> (f32, f32) {
        (p.0.clamp(self.x0, self.x1), p.1.clamp(self.y0, self.y1))
    }
    fn contains(&self, p: (f32, f32)) -> bool {
        p.0 >= self.x0 && p.0 <= self.x1 && p.1 >= self.y0 && p.1 <= self.y1
    }
}

/// Writes a device-space path clamped to a box, mapped back to user space.
struct Clamper {
    out: Path,
    t: Transform,
    inv: Transform,
    b: Box,
    /// Device start of the current subpath.
    start: Option<(f32, f32)>,
    /// Device current point.
    cur: Option<(f32, f32)>,
    is_fill: bool,
}

impl Clamper {
    fn emit_line(&mut self, p: (f32, f32)) {
        let (x, y) = self.inv.apply(p.0, p.1);
        self.out.line_to(x, y);
    }

    fn emit_move(&mut self, p: (f32, f32)) {
        let (x, y) = self.inv.apply(p.0, p.1);
        self.out.move_to(x, y);
    }

    /// `clamp(segment a→b)`: the clamped images of the segment's crossings of the box's
    /// lines, then of `b`.
    fn segment(&mut self, a: (f32, f32), b: (f32, f32)) {
        if self.b.contains(a) && self.b.contains(b) {
            self.emit_line(b);
            return;
        }
        // Each crossing lies on one of the box's lines: that coordinate is set exactly (f32
        // interpolation between points a billion pixels apart is off by dozens of pixels).
        let mut cuts = [(0.0f32, (0.0f32, 0.0f32)); 4];
        let mut n = 0;
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        for (edge, vertical) in [
            (self.b.x0, true),
            (self.b.x1, true),
            (self.b.y0, false),
            (self.b.y1, false),
        ] {
            let (from, d) = if vertical { (a.0, dx) } else { (a.1, dy) };
            if d != 0.0 {
                let t = (edge - from) / d;
                if t > 0.0 && t < 1.0 {
                    let p = if vertical {
                        (edge, a.1 + dy * t)
                    } else {
                        (a.0 + dx * t, edge)
                    };
                    cuts[n] = (t, p);
                    n += 1;
                }
            }
        }
        let cuts = &mut cuts[..n];
        cuts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut last = self.b.clamp(a);
        for &(_, p) in cuts.iter() {
            let p = self.b.clamp(p);
            if p != last {
                self.emit_line(p);
                last = p;
            }
        }
        let end = self.b.clamp(b);
        if end != last {
            self.emit_line(end);
        }
    }

    fn close_fill(&mut self) {
        if let (true, Some(s), Some(c)) = (self.is_fill, self.start, self.cur) {
            if s != c {
                self.segment(c, s);
                self.cur = Some(s);
            }
        }
    }

    fn cmd(&mut self, cmd: PathCmd) {
        let t = self.t;
        match cmd {
            PathCmd::MoveTo(x, y) => {
                self.close_fill();
                let p = t.apply(x, y);
                self.emit_move(self.b.clamp(p));
                self.start = Some(p);
                self.cur = Some(p);
            }
            PathCmd::LineTo(x, y) => {
                let p = t.apply(x, y);
                match self.cur {
                    Some(c) => self.segment(c, p),
                    None => {
                        self.emit_move(self.b.clamp(p));
                        self.start = Some(p);
                    }
                }
                self.cur = Some(p);
            }
            PathCmd::QuadTo(a, b, x, y) => {
                // Degree elevation: a quadratic is the cubic with controls 2/3 of the way.
                let c0 = self.cur.map_or((a, b), |c| self.inv.apply(c.0, c.1));
                let c1 = (c0.0 + 2.0 / 3.0 * (a - c0.0), c0.1 + 2.0 / 3.0 * (b - c0.1));
                let c2 = (x + 2.0 / 3.0 * (a - x), y + 2.0 / 3.0 * (b - y));
                self.cmd(PathCmd::CubicTo(c1.0, c1.1, c2.0, c2.1, x, y));
            }
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                let p1 = t.apply(a, b);
                let p2 = t.apply(c, d);
                let p3 = t.apply(x, y);
                let p0 = match self.cur {
                    Some(p) => p,
                    None => {
                        self.emit_move(self.b.clamp(p1));
                        self.start = Some(p1);
                        p1
                    }
                };
                self.cubic([p0, p1, p2, p3]);
                self.cur = Some(p3);
            }
            PathCmd::Close => {
                if let (Some(s), Some(c)) = (self.start, self.cur) {
                    if s != c {
                        self.segment(c, s);
                    }
                    self.out.close();
                    self.cur = Some(s);
                }
            }
        }
    }

    /// A cubic, split (by an explicit stack, depth ≤ [`MAX_SPLIT_DEPTH`]) until each piece is
    /// inside the box (emitted as a curve) or outside it (emitted as its clamped chord). Only
    /// the pieces crossing the box's boundary are split again, so the work is linear in the
    /// depth.
    fn cubic(&mut self, c: [(f32, f32); 4]) {
        let mut stack = vec![(c, 0u32)];
        while let Some((c, depth)) = stack.pop() {
            let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for p in c {
                x0 = x0.min(p.0);
                y0 = y0.min(p.1);
                x1 = x1.max(p.0);
                y1 = y1.max(p.1);
            }
            let b = self.b;
            if x0 >= b.x0 && x1 <= b.x1 && y0 >= b.y0 && y1 <= b.y1 {
                let [_, p1, p2, p3] = c.map(|p| self.inv.apply(p.0, p.1));
                self.out.cubic_to(p1.0, p1.1, p2.0, p2.1, p3.0, p3.1);
                continue;
            }
            let outside = x1 < b.x0 || x0 > b.x1 || y1 < b.y0 || y0 > b.y1;
            if outside || depth >= MAX_SPLIT_DEPTH {
                self.segment(c[0], c[3]);
                continue;
            }
            // de Casteljau at t = 1/2; the second half is pushed first so the first half is
            // emitted first.
            let mid = |p: (f32, f32), q: (f32, f32)| ((p.0 + q.0) * 0.5, (p.1 + q.1) * 0.5);
            let (a, bb, cc) = (mid(c[0], c[1]), mid(c[1], c[2]), mid(c[2], c[3]));
            let (d, e) = (mid(a, bb), mid(bb, cc));
            let m = mid(d, e);
            stack.push(([m, e, cc, c[3]], depth + 1));
            stack.push(([c[0], a, d, m], depth + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANVAS: Canvas = Canvas {
        width: 100.0,
        height: 100.0,
    };

    fn max_abs(p: &Path) -> f32 {
        let mut m = 0.0f32;
        for cmd in &p.cmds {
            cmd.for_each_point(|x, y| m = m.max(x.abs()).max(y.abs()));
        }
        m
    }

    /// The check on the largest magnitudes says "untouched" only when the point-by-point
    /// check does, and for nearly every path it passes (refers the rotating transforms to
    /// it): paths near the limit, past it, with NaN and infinite coordinates, under huge,
    /// zero, negative, infinite and NaN factors.
    #[test]
    fn the_extremes_decide_as_every_point_does() {
        let mut next = crate::raster::painter::tests::xorshift(0x9e37_79b9_7f4a_7c15);
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1e30];
        let value = |next: &mut dyn FnMut(u64) -> u64, spread: f32| match next(40) {
            0 => specials[next(specials.len() as u64) as usize],
            1 => UNTOUCHED * (if next(2) == 0 { 1.0 } else { -1.0 }),
            _ => (next(2_000_001) as f32 / 1_000_000.0 - 1.0) * spread,
        };
        let (mut agreed, mut fast) = (0, 0);
        for case in 0..40_000 {
            let spread = [1.0, 1000.0, 140_000.0, 300_000.0][case % 4];
            let mut p = Path::new();
            for k in 0..1 + next(6) {
                let mut c = || value(&mut next, spread);
                match k % 4 {
                    0 => p.move_to(c(), c()),
                    1 => p.line_to(c(), c()),
                    2 => p.quad_to(c(), c(), c(), c()),
                    _ => p.cubic_to(c(), c(), c(), c(), c(), c()),
                };
                if next(5) == 0 {
                    p.close();
                }
            }
            let mut f = || value(&mut next, [1.0, 4.0, 1e5][case % 3]);
            let t = Transform {
                a: f(),
                b: if case % 7 == 0 { f() } else { 0.0 },
                c: if case % 11 == 0 { f() } else { -0.0 },
                d: f(),
                e: f(),
                f: f(),
            };
            let (finite, inside) = finite_and_inside(&p, t);
            if untouched(&p, t) {
                fast += 1;
                assert!(finite && inside, "case {case}: {p:?} under {t:?}");
            } else if !(finite && inside) {
                agreed += 1;
            }
        }
        assert!(
            fast > 5_000 && agreed > 5_000,
            "{fast} fast, {agreed} refused"
        );
        // How many it refers that the point-by-point check lets through: a few near the limit.
        assert!(
            fast + agreed > 40_000 * 9 / 10,
            "{fast} fast, {agreed} refused"
        );
    }

    #[test]
    fn ordinary_paths_pass_unchanged() {
        let mut p = Path::new();
        p.move_to(1.0, 2.0)
            .line_to(50.0, 60.0)
            .circle(30.0, 30.0, 20.0);
        let out = path(&p, Transform::IDENTITY, CANVAS, 0.0, true);
        assert!(matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn non_finite_commands_are_dropped() {
        let mut p = Path::new();
        p.move_to(1.0, 2.0)
            .line_to(f32::NAN, 3.0)
            .line_to(5.0, f32::INFINITY)
            .line_to(7.0, 8.0);
        let out = path(&p, Transform::IDENTITY, CANVAS, 0.0, true);
        assert_eq!(
            out.cmds,
            vec![PathCmd::MoveTo(1.0, 2.0), PathCmd::LineTo(7.0, 8.0)]
        );
    }

    #[test]
    fn huge_circles_are_clamped_into_a_box() {
        let mut p = Path::new();
        p.circle(50.0, 50.0, 1e9);
        let out = path(&p, Transform::IDENTITY, CANVAS, 0.0, true);
        assert!(max_abs(&out) <= 200.0, "{:?}", out.cmds);
        // The disc still covers the canvas: its clamped outline runs round the box.
        assert!(out.cmds.len() >= 4);
    }

    #[test]
    fn a_segment_through_the_canvas_keeps_its_visible_part() {
        let mut p = Path::new();
        p.move_to(-1e9, 50.0).line_to(1e9, 50.0);
        let out = path(&p, Transform::IDENTITY, CANVAS, 0.0, false);
        assert_eq!(
            out.cmds,
            vec![PathCmd::MoveTo(-2.0, 50.0), PathCmd::LineTo(102.0, 50.0)]
        );
    }

    #[test]
    fn absurd_strokes_are_bounded() {
        let mut p = Path::new();
        p.move_to(0.0, 0.0).line_to(1e6, 0.0);
        let s = Stroke {
            width: 1e12,
            miter_limit: f32::INFINITY,
            dash: vec![1e-6, 1e-6],
            ..Stroke::default()
        };
        let out = stroke(&s, &p, Transform::IDENTITY);
        assert_eq!(out.width, MAX_STROKE_WIDTH);
        assert_eq!(out.miter_limit, 10.0);
        assert!(out.dash.is_empty());
        // A dash pattern of a sane count is kept.
        let s = Stroke {
            dash: vec![5.0, 5.0],
            ..Stroke::default()
        };
        assert_eq!(stroke(&s, &p, Transform::IDENTITY).dash, vec![5.0, 5.0]);
    }

    /// A stroke with nothing to bound is not copied (a copy clones its dash list).
    #[test]
    fn sane_strokes_are_borrowed() {
        let mut p = Path::new();
        p.move_to(0.0, 0.0).line_to(100.0, 40.0);
        let s = Stroke {
            width: 3.0,
            dash: vec![5.0, 5.0],
            ..Stroke::default()
        };
        let t = Transform {
            a: 2.0,
            d: 2.0,
            ..Transform::IDENTITY
        };
        assert!(matches!(stroke(&s, &p, t), Cow::Borrowed(_)));
        let nan_miter = Stroke {
            miter_limit: f32::NAN,
            ..s.clone()
        };
        let out = stroke(&nan_miter, &p, t);
        assert!(matches!(out, Cow::Owned(_)));
        assert_eq!(out.miter_limit, 10.0);
        let odd_offset = Stroke {
            dash_offset: f32::INFINITY,
            ..s
        };
        assert_eq!(stroke(&odd_offset, &p, t).dash_offset, 0.0);
    }
}
