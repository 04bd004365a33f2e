//! The outline of a point marker's border: a closed run of cubics (a circle, `Path::circle`)
//! stroked with butt caps and miter or round joins, exactly as tiny-skia 0.11's `PathStroker`
//! outlines it (Skia's `SkPathStroker`), f32 bit for bit, for less work.
//!
//! On a scatter chart of 10,000 points the generic stroker was a fifth of the render: each
//! circle went through its per-verb dispatch, recursion bookkeeping and two working paths,
//! and each side (outer, inner) of each quarter evaluated the curve at the same parameters
//! again and again (the middle of a piece is evaluated for its ray, then as the end of its
//! first half and the start of its second half, then all of that once more for the other
//! side). Here the curve's point and scaled tangent at each parameter are computed once per
//! quarter and shared by both sides, and the outline is written straight into one path.
//!
//! What is reproduced, and must stay so (the unit tests compare with `PathStroker` bit for
//! bit): every float operation that decides or produces a point, in the stroker's order (the
//! cubic's power-basis coefficients, the tangent scaled in f64 by `set_length`, the tangent
//! rays' intersection, the closeness test of the quad against the curve's ray, the recursion
//! limits, which state a half inherits from its sibling). Whatever would take another branch
//! of the stroker (a degenerate or straight piece, an inflection or a possible cusp, a join
//! that is not a straight continuation, a closing gap that is not negligible, a zero tangent,
//! a recursion that gives up, caps other than butt, bevel joins) is refused: the caller then
//! strokes with `PathStroker`.

use super::convert::Unskewed;
use tiny_skia::{LineCap, LineJoin, Path, PathBuilder, PathSegment, Stroke};

/// Skia's `SK_ScalarNearlyZero`.
const NEARLY_ZERO: f32 = 1.0 / 4096.0;
/// Depth limits of a piece's subdivision before and after its tangents met (Skia's cubic
/// limits: three times the deepest seen in practice).
const DEPTH_LIMITS: [i32; 2] = [5 * 3, 26 * 3];
/// Parameters remembered per quarter: a point marker's quarter is fitted at five (0, 1/4,
/// 1/2, 3/4, 1); a larger circle's further ones are worked out again (the memo is only a
/// cache), and a smaller memo is less to clear for every quarter of every marker.
const MAX_MEMO: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct V {
    x: f32,
    y: f32,
}

fn v(x: f32, y: f32) -> V {
    V { x, y }
}

impl V {
    fn sub(self, o: V) -> V {
        v(self.x - o.x, self.y - o.y)
    }
    fn add(self, o: V) -> V {
        v(self.x + o.x, self.y + o.y)
    }
    fn mul(self, s: f32) -> V {
        v(self.x * s, self.y * s)
    }
    fn dot(self, o: V) -> f32 {
        self.x * o.x + self.y * o.y
    }
    fn cross(self, o: V) -> f32 {
        self.x * o.y - self.y * o.x
    }
    fn dist_sqd(self, o: V) -> f32 {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        dx * dx + dy * dy
    }
    /// Not zero and finite in both coordinates (Skia's `canNormalize`).
    fn usable(self) -> bool {
        self.x.is_finite() && self.y.is_finite() && (self.x != 0.0 || self.y != 0.0)
    }
    /// `(x, y)` scaled to `length` through f64, as `SkPoint::setLength` does; `None` when
    /// the result is zero or not finite.
    fn with_length(self, length: f32) -> Option<V> {
        let (xx, yy) = (f64::from(self.x), f64::from(self.y));
        let scale = (f64::from(length) / (xx * xx + yy * yy).sqrt()) as f32;
        let r = v(self.x * scale, self.y * scale);
        (r.x.is_finite() && r.y.is_finite() && (r.x != 0.0 || r.y != 0.0)).then_some(r)
    }
    /// A quarter turn counter-clockwise (in y-down device terms: Skia's `rotateCCW`).
    fn ccw(self) -> V {
        v(self.y, -self.x)
    }
}

/// Distance squared from `pt` to the segment `a`–`b` (Skia's `pt_to_line`).
fn pt_to_line(pt: V, a: V, b: V) -> f32 {
    let dxy = b.sub(a);
    let ab0 = pt.sub(a);
    let t = dxy.dot(ab0) / dxy.dot(dxy);
    if (0.0..=1.0).contains(&t) {
        let hit = v(a.x * (1.0 - t) + b.x * t, a.y * (1.0 - t) + b.y * t);
        hit.dist_sqd(pt)
    } else {
        pt.dist_sqd(a)
    }
}

/// The roots in (0, 1) of `a t² + b t + c`, ascending (Skia's `SkFindUnitQuadRoots`).
fn unit_quad_roots(a: f32, b: f32, c: f32) -> ([f32; 2], usize) {
    fn unit_divide(mut numer: f32, mut denom: f32) -> Option<f32> {
        if numer < 0.0 {
            numer = -numer;
            denom = -denom;
        }
        if denom == 0.0 || numer == 0.0 || numer >= denom {
            return None;
        }
        let r = numer / denom;
        (r > 0.0 && r < 1.0).then_some(r)
    }
    let mut roots = [0.0; 2];
    if a == 0.0 {
        return match unit_divide(-c, b) {
            Some(r) => ([r, 0.0], 1),
            None => (roots, 0),
        };
    }
    let dr = f64::from(b) * f64::from(b) - 4.0 * f64::from(a) * f64::from(c);
    if dr < 0.0 {
        return (roots, 0);
    }
    let r = dr.sqrt() as f32;
    if !r.is_finite() {
        return (roots, 0);
    }
    let q = if b < 0.0 {
        -(b - r) / 2.0
    } else {
        -(b + r) / 2.0
    };
    let mut n = 0;
    for r in [unit_divide(q, a), unit_divide(c, q)].into_iter().flatten() {
        roots[n] = r;
        n += 1;
    }
    if n == 2 {
        if roots[0] > roots[1] {
            roots.swap(0, 1);
        } else if roots[0] == roots[1] {
            n = 1;
        }
    }
    (roots, n)
}

/// A quad at `t` in power basis, as Skia's `SkQuadCoeff` evaluates it.
fn quad_at(q: &[V; 3], t: f32) -> V {
    let c = q[0];
    let d = q[1].sub(c);
    let b = d.add(d);
    let a = q[2].sub(q[1].add(q[1])).add(c);
    a.mul(t).add(b).mul(t).add(c)
}

/// A cubic piece of the path with its power-basis coefficients and the points and scaled
/// tangents worked out so far.
struct Cubic {
    p: [V; 4],
    /// Position coefficients (`SkCubicCoeff`): ((a t + b) t + c) t + d.
    a: V,
    b: V,
    c: V,
    /// Derivative coefficients: (a t + db) t + dc.
    db: V,
    dc: V,
    /// `(t, point, tangent scaled to the radius)` per parameter evaluated.
    memo: [(f32, V, V); MAX_MEMO],
    memo_len: usize,
}

impl Cubic {
    fn new(p: [V; 4]) -> Cubic {
        let [p0, p1, p2, p3] = p;
        let a = p3.add(p1.sub(p2).mul(3.0)).sub(p0);
        let e = p2.sub(p1.add(p1)).add(p0);
        let c1 = p1.sub(p0);
        Cubic {
            p,
            a,
            b: e.mul(3.0),
            c: c1.mul(3.0),
            db: e.add(e),
            dc: c1,
            memo: [(0.0, V::default(), V::default()); MAX_MEMO],
            memo_len: 0,
        }
    }

    /// The point at `t` and the tangent there scaled to `radius` (`None`: a zero tangent,
    /// which the stroker resolves by chopping; not reproduced).
    fn ray(&mut self, t: f32, radius: f32) -> Option<(V, V)> {
        if let Some(&(_, pt, d)) = self.memo[..self.memo_len].iter().find(|m| m.0 == t) {
            return Some((pt, d));
        }
        let pt = self
            .a
            .mul(t)
            .add(self.b)
            .mul(t)
            .add(self.c)
            .mul(t)
            .add(self.p[0]);
        let d = self.a.mul(t).add(self.db).mul(t).add(self.dc);
        if d.x == 0.0 && d.y == 0.0 {
            return None;
        }
        let d = d.with_length(radius).unwrap_or(v(radius, 0.0));
        if self.memo_len < MAX_MEMO {
            self.memo[self.memo_len] = (t, pt, d);
            self.memo_len += 1;
        }
        Some((pt, d))
    }
}

/// One span of parameters being fitted by a quad of the outline (Skia's `SkQuadConstruct`).
#[derive(Clone, Copy, Default)]
struct Span {
    quad: [V; 3],
    tangent_start: V,
    tangent_end: V,
    start_t: f32,
    mid_t: f32,
    end_t: f32,
    start_set: bool,
    end_set: bool,
    opposite_tangents: bool,
}

impl Span {
    fn init(&mut self, start: f32, end: f32) -> bool {
        self.start_t = start;
        self.mid_t = ((start + end) * 0.5).clamp(0.0, 1.0);
        self.end_t = end;
        self.start_set = false;
        self.end_set = false;
        self.start_t < self.mid_t && self.mid_t < self.end_t
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Fit {
    Split,
    Line,
    Quad,
}

/// Refused: the stroker would take a branch not reproduced here.
struct Refused;

/// Working state of one outline, and the inner side's path kept between outlines.
#[derive(Default)]
pub(super) struct RingOutliner {
    radius: f32,
    inv_res_scale: f32,
    inv_res_scale_sqd: f32,
    /// +1 outer side, -1 inner side.
    flip: f32,
    found_tangents: bool,
    depth: i32,
    /// The inner side: its points after its start, `None` marking a line's single point.
    inner: Vec<(V, Option<V>)>,
    /// Maps each point as it is written out.
    map: Unskewed,
}

impl RingOutliner {
    /// The outline of the path of `segments` (a tiny-skia path's, or a scene path's read
    /// as the same segments, see `painter.rs`) stroked with `stroke` at `res_scale`, its
    /// points mapped by `map`, written into `out` (an empty builder): `Some(outline)` bit
    /// for bit as `PathStroker::stroke` returns it and `Path::transform` maps it, or `None`
    /// when this path or style is not one reproduced here. Mapped as it is written, the outline is
    /// not walked again to be mapped and have its bounds found a second time.
    pub(super) fn outline(
        &mut self,
        path: impl Iterator<Item = PathSegment>,
        stroke: &Stroke,
        res_scale: f32,
        out: PathBuilder,
        map: Unskewed,
    ) -> Option<Option<Path>> {
        let width = stroke.width;
        let joins_straight = match stroke.line_join {
            // A miter limit of 1 or less makes the stroker join with bevels.
            LineJoin::Miter => stroke.miter_limit > 1.0,
            LineJoin::Round | LineJoin::MiterClip => true,
            LineJoin::Bevel => false,
        };
        if !(width > 0.0 && width.is_finite())
            || stroke.line_cap != LineCap::Butt
            || !joins_straight
            || stroke.dash.is_some()
        {
            return None;
        }
        self.radius = width * 0.5;
        self.inv_res_scale = 1.0 / (res_scale * 4.0);
        self.inv_res_scale_sqd = self.inv_res_scale * self.inv_res_scale;
        self.depth = 0;
        self.inner.clear();
        self.map = map;
        self.stroke_ring(path, res_scale, out).ok()
    }

    fn stroke_ring(
        &mut self,
        mut segments: impl Iterator<Item = PathSegment>,
        res_scale: f32,
        mut out: PathBuilder,
    ) -> Result<Option<Path>, Refused> {
        let Some(PathSegment::MoveTo(start)) = segments.next() else {
            return Err(Refused);
        };
        let first = v(start.x, start.y);
        let teeny = NEARLY_ZERO * self.inv_res_scale;
        let negligible = |a: V, b: V| (a.x - b.x).abs() <= teeny && (a.y - b.y).abs() <= teeny;
        let mut prev = first;
        let mut first_unit = V::default();
        let mut prev_unit = V::default();
        let mut pieces = 0;
        // A move, an optional line to (within a hair of) the start, cubics, a close.
        loop {
            let (p1, p2, p3) = match segments.next() {
                // A butt-capped stroke skips a line this short (and does not move its start).
                Some(PathSegment::LineTo(p)) if pieces == 0 && negligible(first, v(p.x, p.y)) => {
                    continue;
                }
                Some(PathSegment::CubicTo(p1, p2, p3)) => (p1, p2, p3),
                Some(PathSegment::Close) if pieces > 0 => break,
                _ => return Err(Refused),
            };
            let p = [prev, v(p1.x, p1.y), v(p2.x, p2.y), v(p3.x, p3.y)];
            if !(p[1].sub(p[0]).usable() && p[2].sub(p[1]).usable() && p[3].sub(p[2]).usable())
                || in_line(&p)
            {
                return Err(Refused);
            }
            // The normal at the start, from the first control point (res-scaled).
            let d = v((p[1].x - p[0].x) * res_scale, (p[1].y - p[0].y) * res_scale);
            let unit = d.with_length(1.0).ok_or(Refused)?.ccw();
            let normal = unit.mul(self.radius);
            if pieces == 0 {
                first_unit = unit;
                let (x, y) = self.mapped(v(prev.x + normal.x, prev.y + normal.y));
                out.move_to(x, y);
                self.inner
                    .push((v(prev.x - normal.x, prev.y - normal.y), None));
            } else if !continues(prev_unit, unit) {
                return Err(Refused);
            }
            if may_inflect(&p) || !no_cusp(&p) {
                return Err(Refused);
            }
            let mut cubic = Cubic::new(p);
            for flip in [1.0, -1.0] {
                self.flip = flip;
                self.found_tangents = false;
                let mut span = Span::default();
                span.init(0.0, 1.0);
                self.fit(&mut cubic, &mut span, &mut out)?;
            }
            // The normal at the end, from the last control leg (not res-scaled).
            prev_unit = p[3].sub(p[2]).with_length(1.0).ok_or(Refused)?.ccw();
            prev = p[3];
            pieces += 1;
        }
        if segments.next().is_some() {
            return Err(Refused);
        }
        // The close: a gap back to the start is a line a butt cap skips when negligible.
        if prev != first && !negligible(prev, first) {
            return Err(Refused);
        }
        if !continues(prev_unit, first_unit) {
            return Err(Refused);
        }
        out.close();
        // The inner side, reversed, as its own contour.
        let Some(&(last, _)) = self.inner.last() else {
            return Err(Refused);
        };
        let (x, y) = self.mapped(last);
        out.move_to(x, y);
        for i in (1..self.inner.len()).rev() {
            let (x, y) = self.mapped(self.inner[i - 1].0);
            match self.inner[i] {
                (_, None) => out.line_to(x, y),
                (_, Some(ctrl)) => {
                    let (cx, cy) = self.mapped(ctrl);
                    out.quad_to(cx, cy, x, y);
                }
            }
        }
        out.close();
        Ok(out.finish())
    }

    /// A point of the outline as it is written out.
    #[inline(always)]
    fn mapped(&self, p: V) -> (f32, f32) {
        self.map.apply(p.x, p.y)
    }

    fn line(&mut self, to: V, out: &mut PathBuilder) {
        if self.flip > 0.0 {
            let (x, y) = self.mapped(to);
            out.line_to(x, y);
        } else {
            self.inner.push((to, None));
        }
    }

    fn quad(&mut self, ctrl: V, to: V, out: &mut PathBuilder) {
        if self.flip > 0.0 {
            let ((cx, cy), (x, y)) = (self.mapped(ctrl), self.mapped(to));
            out.quad_to(cx, cy, x, y);
        } else {
            self.inner.push((to, Some(ctrl)));
        }
    }

    /// The point of this side's outline at `t` and a point along its tangent (`SkPathStroker`
    /// `cubicPerpRay` / `setRayPts`).
    fn perp(&self, cubic: &mut Cubic, t: f32) -> Result<(V, V, V), Refused> {
        let (pt, d) = cubic.ray(t, self.radius).ok_or(Refused)?;
        let on = v(pt.x + self.flip * d.y, pt.y - self.flip * d.x);
        Ok((pt, on, v(on.x + d.x, on.y + d.y)))
    }

    fn ends(&self, cubic: &mut Cubic, s: &mut Span) -> Result<(), Refused> {
        if !s.start_set {
            let (_, on, tangent) = self.perp(cubic, s.start_t)?;
            s.quad[0] = on;
            s.tangent_start = tangent;
            s.start_set = true;
        }
        if !s.end_set {
            let (_, on, tangent) = self.perp(cubic, s.end_t)?;
            s.quad[2] = on;
            s.tangent_end = tangent;
            s.end_set = true;
        }
        Ok(())
    }

    /// Where the tangents at the span's ends meet (`intersectRay`); the control point is
    /// always set on `Quad` (the stroker's first, result-only call is followed at once by
    /// the one that sets it, with the same inputs).
    fn intersect(&self, s: &mut Span) -> Fit {
        let (start, end) = (s.quad[0], s.quad[2]);
        let a_len = s.tangent_start.sub(start);
        let b_len = s.tangent_end.sub(end);
        let denom = a_len.cross(b_len);
        if denom == 0.0 || !denom.is_finite() {
            s.opposite_tangents = a_len.dot(b_len) < 0.0;
            return Fit::Line;
        }
        s.opposite_tangents = false;
        let ab0 = start.sub(end);
        let mut numer_a = b_len.cross(ab0);
        let numer_b = a_len.cross(ab0);
        if (numer_a >= 0.0) == (numer_b >= 0.0) {
            let dist1 = pt_to_line(start, end, s.tangent_end);
            let dist2 = pt_to_line(end, start, s.tangent_start);
            return if dist1.max(dist2) <= self.inv_res_scale_sqd {
                Fit::Line
            } else {
                Fit::Split
            };
        }
        numer_a /= denom;
        if numer_a > numer_a - 1.0 {
            s.quad[1] = v(
                start.x * (1.0 - numer_a) + s.tangent_start.x * numer_a,
                start.y * (1.0 - numer_a) + s.tangent_start.y * numer_a,
            );
            return Fit::Quad;
        }
        s.opposite_tangents = a_len.dot(b_len) < 0.0;
        Fit::Line
    }

    /// Whether the quad `s.quad` follows the curve's ray `on`–`pt` closely
    /// (`strokeCloseEnough`).
    fn close_enough(&self, s: &Span, on: V, pt: V) -> Fit {
        let q = s.quad;
        let ok = |q: &[V; 3]| {
            if sharp_angle(q) {
                Fit::Split
            } else {
                Fit::Quad
            }
        };
        let lim = self.inv_res_scale;
        if on.dist_sqd(quad_at(&q, 0.5)) <= lim * lim {
            return ok(&q);
        }
        let (x_min, x_max) = (
            q[0].x.min(q[1].x).min(q[2].x),
            q[0].x.max(q[1].x).max(q[2].x),
        );
        let (y_min, y_max) = (
            q[0].y.min(q[1].y).min(q[2].y),
            q[0].y.max(q[1].y).max(q[2].y),
        );
        if on.x + lim < x_min || on.x - lim > x_max || on.y + lim < y_min || on.y - lim > y_max {
            return Fit::Split;
        }
        // Where the ray crosses the quad.
        let dir = pt.sub(on);
        let r = q.map(|p| (p.y - on.y) * dir.x - (p.x - on.x) * dir.y);
        let (mut a, mut b, c) = (r[2], r[1], r[0]);
        a += c - 2.0 * b;
        b -= c;
        let (roots, n) = unit_quad_roots(a, 2.0 * b, c);
        if n != 1 {
            return Fit::Split;
        }
        let error = lim * (1.0 - (roots[0] - 0.5).abs() * 2.0);
        if on.dist_sqd(quad_at(&q, roots[0])) <= error * error {
            return ok(&q);
        }
        Fit::Split
    }

    /// Fits the span with quads of this side's outline, halving it where one does not follow
    /// the curve (`cubicStroke`).
    fn fit(
        &mut self,
        cubic: &mut Cubic,
        s: &mut Span,
        out: &mut PathBuilder,
    ) -> Result<(), Refused> {
        let mut meets = None;
        if !self.found_tangents {
            self.ends(cubic, s)?;
            let fit = self.intersect(s);
            if fit != Fit::Quad {
                let near = s.quad[0].dist_sqd(s.quad[2]) <= self.inv_res_scale * self.inv_res_scale;
                if fit == Fit::Line || near {
                    let (_, mid, _) = self.perp(cubic, s.mid_t)?;
                    if pt_to_line(mid, s.quad[0], s.quad[2]) < self.inv_res_scale_sqd {
                        self.line(s.quad[2], out);
                        return Ok(());
                    }
                }
            } else {
                self.found_tangents = true;
                meets = Some(fit);
            }
        }
        if self.found_tangents {
            let fit = match meets {
                Some(fit) => fit,
                None => {
                    self.ends(cubic, s)?;
                    self.intersect(s)
                }
            };
            let fit = if fit == Fit::Quad {
                let (pt, on, _) = self.perp(cubic, s.mid_t)?;
                self.close_enough(s, on, pt)
            } else {
                fit
            };
            if fit == Fit::Quad {
                self.quad(s.quad[1], s.quad[2], out);
                return Ok(());
            }
            if fit == Fit::Line && !s.opposite_tangents {
                self.line(s.quad[2], out);
                return Ok(());
            }
        }
        if !s.quad[2].x.is_finite() {
            return Err(Refused);
        }
        self.depth += 1;
        if self.depth > DEPTH_LIMITS[usize::from(self.found_tangents)] {
            return Err(Refused);
        }
        // The halves share one span, so the second starts with what the first left (the
        // stroker's `half`), save what `init` resets.
        let mut half = Span::default();
        for second in [false, true] {
            let (from, to) = if second {
                (s.mid_t, s.end_t)
            } else {
                (s.start_t, s.mid_t)
            };
            if !half.init(from, to) {
                self.line(s.quad[2], out);
                self.depth -= 1;
                return Ok(());
            }
            if second {
                half.quad[2] = s.quad[2];
                half.tangent_end = s.tangent_end;
                half.end_set = true;
            } else {
                half.quad[0] = s.quad[0];
                half.tangent_start = s.tangent_start;
                half.start_set = true;
            }
            self.fit(cubic, &mut half, out)?;
        }
        self.depth -= 1;
        Ok(())
    }
}

/// Whether a join from a piece ending with unit normal `before` to one starting with `after`
/// adds nothing: Skia's miter and round joiners return at once for a nearly straight angle.
fn continues(before: V, after: V) -> bool {
    let dot = before.dot(after);
    dot >= 0.0 && (1.0 - dot).abs() <= NEARLY_ZERO
}

/// Whether the cubic's control points lie on the line through its farthest pair
/// (`cubic_in_line`: such a cubic is stroked as lines).
fn in_line(c: &[V; 4]) -> bool {
    let mut pt_max = -1.0;
    let (mut outer1, mut outer2) = (0, 0);
    for i in 0..3 {
        for j in i + 1..4 {
            let d = c[j].sub(c[i]);
            let m = d.x.abs().max(d.y.abs());
            if pt_max < m {
                (outer1, outer2, pt_max) = (i, j, m);
            }
        }
    }
    let mid1 = (1 + (2 >> outer2)) >> outer1;
    let mid2 = outer1 ^ outer2 ^ mid1;
    let slop = pt_max * pt_max * 0.00001;
    pt_to_line(c[mid1], c[outer1], c[outer2]) <= slop
        && pt_to_line(c[mid2], c[outer1], c[outer2]) <= slop
}

/// Whether the stroker might find an inflection inside the cubic (it then strokes each side
/// of it apart): any root its quadratic could yield counts.
fn may_inflect(p: &[V; 4]) -> bool {
    let a = p[1].sub(p[0]);
    let b = v(
        p[2].x - 2.0 * p[1].x + p[0].x,
        p[2].y - 2.0 * p[1].y + p[0].y,
    );
    let c = v(
        p[3].x + 3.0 * (p[1].x - p[2].x) - p[0].x,
        p[3].y + 3.0 * (p[1].y - p[2].y) - p[0].y,
    );
    unit_quad_roots(
        b.x * c.y - b.y * c.x,
        a.x * c.y - a.y * c.x,
        a.x * b.y - a.y * b.x,
    )
    .1 > 0
}

/// Whether the stroker's cusp search ends before looking (the control legs do not cross),
/// as for any arc of a circle.
fn no_cusp(p: &[V; 4]) -> bool {
    let same_side = |test: usize, line: usize| {
        let o = p[line];
        let l = p[line + 1].sub(o);
        l.cross(p[test].sub(o)) * l.cross(p[test + 1].sub(o)) >= 0.0
    };
    same_side(0, 2) || same_side(2, 0)
}

/// Skia's `sharp_angle`: whether the quad's control point makes a sharp turn.
fn sharp_angle(q: &[V; 3]) -> bool {
    let mut smaller = q[1].sub(q[0]);
    let mut larger = q[1].sub(q[2]);
    let smaller_len = smaller.dot(smaller);
    let mut larger_len = larger.dot(larger);
    if smaller_len > larger_len {
        std::mem::swap(&mut smaller, &mut larger);
        larger_len = smaller_len;
    }
    if let Some(sharp) = dot_sign_of_scaled(smaller, larger) {
        return sharp;
    }
    match smaller.with_length(larger_len) {
        Some(s) => s.dot(larger) > 0.0,
        None => false,
    }
}

/// Whether `smaller.with_length(len).dot(larger) > 0` for any positive length, when that is
/// certain without the square root and the division (each quad of a marker's border asks):
/// `Some` only when every component is zero or of a magnitude from 2^-20 to below 2^20 and
/// `smaller` is not zero, so that the scaled vector is finite and not zero for the lengths
/// `sharp_angle` passes (`with_length` succeeds) and no product leaves the normal range.
/// The scaled dot product is then `scale·(a·(1 + e1) + b·(1 + e2))` with `a`, `b` the
/// exact products of the components (exact in f64), `scale > 0` and `|e1|, |e2| < 2^-22`
/// (two f32 roundings each; rounding the sum never flips its sign): its sign is that of
/// `a + b` whenever `|a + b|` exceeds `2^-21·(|a| + |b|)`. Otherwise `None`: the caller
/// works it out in full.
fn dot_sign_of_scaled(smaller: V, larger: V) -> Option<bool> {
    // Zero, or a biased exponent from 127 - 20 to 127 + 19 (2^-20 ≤ |c| < 2^20), read off
    // the bits: a few integer operations per component, no branch.
    let fits = |c: f32| {
        let m = c.to_bits() & 0x7fff_ffff;
        (m == 0) | (m.wrapping_sub(107 << 23) < (40 << 23))
    };
    let zero = (smaller.x.to_bits() | smaller.y.to_bits()) & 0x7fff_ffff == 0;
    if !(fits(smaller.x) & fits(smaller.y) & fits(larger.x) & fits(larger.y)) | zero {
        return None;
    }
    let a = f64::from(smaller.x) * f64::from(larger.x);
    let b = f64::from(smaller.y) * f64::from(larger.y);
    let (sum, margin) = (a + b, (a.abs() + b.abs()) / f64::from(1u32 << 21));
    if sum > margin {
        Some(true)
    } else if sum < -margin {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::convert::build_path;
    use crate::raster::painter::tests::xorshift;
    use crate::scene::Path as ScenePath;

    /// `a` and `b` as the same verbs, the same f32 bits of every point and the same bounds.
    fn same_bits(a: &Path, b: &Path) -> bool {
        let bits = |p: &Path| {
            let pts: Vec<(u32, u32)> = p
                .points()
                .iter()
                .map(|q| (q.x.to_bits(), q.y.to_bits()))
                .collect();
            let b = p.bounds();
            let bounds = [b.left(), b.top(), b.right(), b.bottom()].map(f32::to_bits);
            (pts, bounds, p.segments().collect::<Vec<_>>())
        };
        bits(a) == bits(b)
    }

    /// A random f32 in `lo..hi` with all its mantissa bits in use.
    fn uniform(next: &mut impl FnMut(u64) -> u64, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (next(1 << 24) as f32 / (1u32 << 24) as f32)
    }

    /// Point markers' circles anywhere on a large bitmap, of any radius and border width, at
    /// the resolution scales of dpr 1 and 2 (and others): the outline has the same f32 bits
    /// as tiny-skia's `PathStroker` gives, and nearly every one is outlined here.
    #[test]
    fn circles_outline_as_tiny_skia_strokes_them() {
        let mut next = xorshift(0x6a09_e667_f3bc_c908);
        let mut ours = RingOutliner::default();
        let mut theirs = tiny_skia::PathStroker::new();
        let (mut handled, cases) = (0, 24_000);
        for case in 0..cases {
            let x = uniform(&mut next, 0.0, 8192.0);
            let y = uniform(&mut next, 0.0, 8192.0);
            let r = uniform(&mut next, 0.5, 50.0);
            let mut circle = ScenePath::new();
            circle.circle(x, y, r);
            let path = build_path(&circle).unwrap();
            let stroke = Stroke {
                width: uniform(&mut next, 0.5, 20.0),
                miter_limit: 10.0,
                line_join: if case % 2 == 0 {
                    LineJoin::Miter
                } else {
                    LineJoin::Round
                },
                ..Stroke::default()
            };
            let res_scale = match case % 8 {
                0..=2 => 1.0,
                3..=5 => 2.0,
                _ => uniform(&mut next, 0.25, 4.0),
            };
            // Mapped as the painter maps a marker's outline: identity, dpr scales, a
            // translation, a flip.
            let t = match case % 5 {
                0 => tiny_skia::Transform::identity(),
                1 => tiny_skia::Transform::from_scale(2.0, 2.0),
                2 => tiny_skia::Transform::from_row(1.5, 0.0, 0.0, 1.5, 3.25, -7.5),
                3 => tiny_skia::Transform::from_translate(0.375, 11.0),
                _ => tiny_skia::Transform::from_row(-1.0, 0.0, 0.0, 2.0, 8192.0, 0.0),
            };
            let map = Unskewed::of(t).unwrap();
            let expected = theirs
                .stroke(&path, &stroke, res_scale)
                .and_then(|e| e.transform(t));
            let Some(actual) =
                ours.outline(path.segments(), &stroke, res_scale, PathBuilder::new(), map)
            else {
                continue;
            };
            handled += 1;
            let same = match (&actual, &expected) {
                (Some(a), Some(e)) => same_bits(a, e),
                (None, None) => true,
                _ => false,
            };
            assert!(
                same,
                "case {case}: circle ({x}, {y}) r {r}, {stroke:?}, res {res_scale}"
            );
        }
        assert!(
            handled > cases * 99 / 100,
            "only {handled} of {cases} outlined here"
        );
    }

    /// Paths and styles the stroker treats otherwise are refused, so that the caller strokes
    /// them with it: partial arcs (a line in), round and square caps, bevel joins, a miter
    /// limit that makes bevels, a tiny circle whose cubics are nearly straight.
    #[test]
    fn other_paths_and_styles_are_refused() {
        let mut circle = ScenePath::new();
        circle.circle(100.5, 80.25, 6.0);
        let circle = build_path(&circle).unwrap();
        let mut ours = RingOutliner::default();
        let stroke = Stroke {
            width: 2.0,
            miter_limit: 10.0,
            ..Stroke::default()
        };
        assert!(ours
            .outline(
                circle.segments(),
                &stroke,
                1.0,
                PathBuilder::new(),
                Unskewed::default()
            )
            .is_some());
        for style in [
            Stroke {
                line_cap: LineCap::Round,
                ..stroke.clone()
            },
            Stroke {
                line_cap: LineCap::Square,
                ..stroke.clone()
            },
            Stroke {
                line_join: LineJoin::Bevel,
                ..stroke.clone()
            },
            Stroke {
                miter_limit: 1.0,
                ..stroke.clone()
            },
            Stroke {
                width: 0.0,
                ..stroke.clone()
            },
        ] {
            assert!(
                ours.outline(
                    circle.segments(),
                    &style,
                    1.0,
                    PathBuilder::new(),
                    Unskewed::default()
                )
                .is_none(),
                "{style:?}"
            );
        }
        let mut pie = ScenePath::new();
        pie.move_to(100.0, 80.0);
        pie.arc(100.0, 80.0, 20.0, 0.0, 1.0, false);
        pie.close();
        let pie = build_path(&pie).unwrap();
        assert!(ours
            .outline(
                pie.segments(),
                &stroke,
                1.0,
                PathBuilder::new(),
                Unskewed::default()
            )
            .is_none());
        let mut open = ScenePath::new();
        open.arc(100.0, 80.0, 20.0, 0.0, 6.0, false);
        let open = build_path(&open).unwrap();
        assert!(ours
            .outline(
                open.segments(),
                &stroke,
                1.0,
                PathBuilder::new(),
                Unskewed::default()
            )
            .is_none());
    }

    /// The sign shortcut of `sharp_angle` agrees with the scaled dot product it skips, on
    /// random pairs (many nearly at right angles, where it must give up) and lengths.
    #[test]
    fn the_dot_sign_shortcut_matches_the_scaled_product() {
        let mut next = xorshift(0x7f4a_7c15_9e37_79b9);
        let mut coord = |k: u64| {
            let m = (next(2_000_001) as f32 - 1_000_000.0) / 1_000_000.0;
            m * [1.0, 1e-3, 3.0, 1e4, 1e-6][(k % 5) as usize]
        };
        let (mut decided, mut left) = (0, 0);
        for case in 0..200_000u64 {
            let smaller = v(coord(case), coord(case / 5));
            let mut larger = v(coord(case / 25), coord(case / 125));
            if case % 3 == 0 {
                // Nearly perpendicular: the sign hangs on the last bits.
                let k = 1.0 + coord(case) * 1e-6;
                larger = v(-smaller.y * k, smaller.x);
            }
            let len = larger.dot(larger).max(smaller.dot(smaller));
            let full = match smaller.with_length(len) {
                Some(s) => s.dot(larger) > 0.0,
                None => false,
            };
            match dot_sign_of_scaled(smaller, larger) {
                Some(sharp) => {
                    decided += 1;
                    assert_eq!(sharp, full, "{case}: {smaller:?} {larger:?} {len}");
                }
                None => left += 1,
            }
        }
        assert!(
            decided > 50_000 && left > 1_000,
            "{decided} decided, {left} left"
        );
    }
}
