//! Line element: segments (`_computeSegments`), Bézier control points
//! (`_updateBezierControlPoints`, `splineCurveMonotone`), stepped lines and the fast path of
//! element.line.

use super::point::in_area;
use super::{Area, Ctx, StrokeStyle, P};
use crate::math::squared;
use crate::scene::{LineCap, LineJoin};
use chart_spec::model::{Axis, CapStyle, JoinStyle, LineOptions, Stepped};

/// One point of a line (what a `PointElement` carries for the line).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LinePoint {
    /// x, px.
    pub x: f64,
    /// y, px.
    pub y: f64,
    /// Not drawn (null data, NaN pixel).
    pub skip: bool,
    /// Gap longer than `spanGaps` before this point.
    pub stop: bool,
    /// Control point before.
    pub cp1x: f64,
    /// Control point before.
    pub cp1y: f64,
    /// Control point after.
    pub cp2x: f64,
    /// Control point after.
    pub cp2y: f64,
    /// Angle of the point on a radial scale (radar lines), radians.
    pub angle: f64,
}

impl LinePoint {
    /// `point[axis]`.
    pub fn get(&self, axis: Axis) -> f64 {
        if axis == Axis::X {
            self.x
        } else {
            self.y
        }
    }
    fn set_cp1(&mut self, axis: Axis, v: f64) {
        if axis == Axis::X {
            self.cp1x = v
        } else {
            self.cp1y = v
        }
    }
    fn set_cp2(&mut self, axis: Axis, v: f64) {
        if axis == Axis::X {
            self.cp2x = v
        } else {
            self.cp2y = v
        }
    }
}

/// A run of points drawn as one subpath.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// First point index.
    pub start: usize,
    /// Last point index (may be < start for loops).
    pub end: usize,
    /// Closes back to the start.
    pub loop_: bool,
}

/// A line element.
#[derive(Debug, Clone)]
pub struct LineEl {
    /// The points.
    pub points: Vec<LinePoint>,
    /// Options.
    pub options: LineOptions,
    /// `_loop` (radar lines).
    pub loop_: bool,
    /// `_fullLoop`.
    pub full_loop: bool,
    /// `(start, count)` of the drawn points (`_drawStart`, `_drawCount`); all when `None`.
    pub draw_range: Option<(usize, usize)>,
    control_points_done: bool,
}

fn other(axis: Axis) -> Axis {
    if axis == Axis::X {
        Axis::Y
    } else {
        Axis::X
    }
}

fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        v
    }
}

impl LineEl {
    /// A line over points.
    pub fn new(points: Vec<LinePoint>, options: LineOptions) -> Self {
        Self {
            points,
            options,
            loop_: false,
            full_loop: false,
            draw_range: None,
            control_points_done: false,
        }
    }

    fn curved(&self) -> bool {
        self.options.tension != 0.0 || self.options.monotone
    }

    /// `_computeSegments`.
    pub fn segments(&self) -> Vec<Segment> {
        let points = &self.points;
        let count = points.len();
        if count == 0 {
            return Vec::new();
        }
        let span_gaps = self.options.span_gaps;
        let loop_ = self.loop_;
        // findStartAndEnd
        let mut start = 0usize;
        let mut end = count as isize - 1;
        if loop_ && span_gaps.is_none() {
            while start < count && !points[start].skip {
                start += 1;
            }
        }
        while start < count && points[start].skip {
            start += 1;
        }
        start %= count;
        if loop_ {
            end += start as isize;
        }
        while end > start as isize && points[(end as usize) % count].skip {
            end -= 1;
        }
        let end = (end.max(0) as usize) % count;
        if span_gaps == Some(f64::INFINITY) {
            return vec![Segment { start, end, loop_ }];
        }
        let max = if end < start { end + count } else { end };
        let complete_loop = self.full_loop && start == 0 && end == count - 1;
        solid_segments(points, start, max, complete_loop)
    }

    /// `updateControlPoints(chartArea, indexAxis)`.
    pub fn update_control_points(&mut self, area: &Area, index_axis: Axis) {
        if self.curved() && self.options.stepped == Stepped::No && !self.control_points_done {
            let lp = if self.options.span_gaps.is_some() {
                self.loop_
            } else {
                self.full_loop
            };
            update_bezier(&mut self.points, &self.options, area, lp, index_axis);
            self.control_points_done = true;
        }
    }

    fn use_fast_path(&self) -> bool {
        !self.loop_
            && self.options.tension == 0.0
            && !self.options.monotone
            && self.options.stepped == Stepped::No
            && self.options.border_dash.is_empty()
    }

    /// `pathSegment` / `fastPathSegment` for one segment; returns whether it loops.
    pub fn path_segment(
        &self,
        p: &mut P,
        seg: &Segment,
        start_end: Option<(usize, usize)>,
        move_first: bool,
        reverse: bool,
    ) -> bool {
        if self.use_fast_path() {
            self.fast_path_segment(p, seg, start_end, move_first, reverse);
            false
        } else {
            self.slow_path_segment(p, seg, start_end, move_first, reverse)
        }
    }

    fn path_vars(&self, seg: &Segment, start_end: Option<(usize, usize)>) -> (usize, usize, usize) {
        let count = self.points.len();
        let (ps, pe) = start_end.unwrap_or((0, count.saturating_sub(1)));
        let (ps, pe) = (ps as isize, pe as isize);
        let (ss, se) = (seg.start as isize, seg.end as isize);
        let start = ps.max(ss);
        let end = pe.min(se);
        let outside = (ps < ss && pe < ss) || (ps > se && pe > se);
        let ilen = if end < start && !outside {
            count as isize + end - start
        } else {
            end - start
        };
        (count, start.max(0) as usize, ilen.max(-1) as usize)
    }

    fn slow_path_segment(
        &self,
        p: &mut P,
        seg: &Segment,
        start_end: Option<(usize, usize)>,
        move_first: bool,
        reverse: bool,
    ) -> bool {
        let (count, start, ilen) = self.path_vars(seg, start_end);
        if ilen == usize::MAX {
            return seg.loop_;
        }
        let mut mv = move_first;
        let mut prev: Option<LinePoint> = None;
        for i in 0..=ilen {
            let idx = (start + if reverse { ilen - i } else { i }) % count;
            let point = self.points[idx];
            if point.skip {
                continue;
            }
            if mv {
                p.move_to(point.x, point.y);
                mv = false;
            } else {
                self.line_method(p, prev.as_ref(), &point, reverse);
            }
            prev = Some(point);
        }
        if seg.loop_ {
            let idx = (start + if reverse { ilen } else { 0 }) % count;
            let point = self.points[idx];
            self.line_method(p, prev.as_ref(), &point, reverse);
        }
        seg.loop_
    }

    fn line_method(&self, p: &mut P, prev: Option<&LinePoint>, target: &LinePoint, flip: bool) {
        let Some(prev) = prev else {
            p.line_to(target.x, target.y);
            return;
        };
        if self.options.stepped != Stepped::No {
            // _steppedLineTo
            match self.options.stepped {
                Stepped::Middle => {
                    let mid = (prev.x + target.x) / 2.0;
                    p.line_to(mid, prev.y);
                    p.line_to(mid, target.y);
                }
                s => {
                    if (s == Stepped::After) != flip {
                        p.line_to(prev.x, target.y);
                    } else {
                        p.line_to(target.x, prev.y);
                    }
                }
            }
            p.line_to(target.x, target.y);
        } else if self.curved() {
            // _bezierCurveTo
            if flip {
                p.cubic_to(
                    prev.cp1x,
                    prev.cp1y,
                    target.cp2x,
                    target.cp2y,
                    target.x,
                    target.y,
                );
            } else {
                p.cubic_to(
                    prev.cp2x,
                    prev.cp2y,
                    target.cp1x,
                    target.cp1y,
                    target.x,
                    target.y,
                );
            }
        } else {
            p.line_to(target.x, target.y);
        }
    }

    fn fast_path_segment(
        &self,
        p: &mut P,
        seg: &Segment,
        start_end: Option<(usize, usize)>,
        move_first: bool,
        reverse: bool,
    ) {
        let (count, start, ilen) = self.path_vars(seg, start_end);
        if ilen == usize::MAX || count == 0 {
            return;
        }
        let idx = |i: usize| (start + if reverse { ilen - i } else { i }) % count;
        if move_first {
            let pt = self.points[idx(0)];
            p.move_to(pt.x, pt.y);
        }
        let mut avg_x = 0.0;
        let mut count_x = 0.0;
        let mut prev_x: Option<i64> = None;
        let (mut min_y, mut max_y, mut last_y) = (f64::NAN, f64::NAN, f64::NAN);
        let draw_x = |p: &mut P, avg_x: f64, min_y: f64, max_y: f64, last_y: f64| {
            if min_y != max_y && !(min_y.is_nan() && max_y.is_nan()) {
                p.line_to(avg_x, max_y);
                p.line_to(avg_x, min_y);
                p.line_to(avg_x, last_y);
            }
        };
        for i in 0..=ilen {
            let pt = self.points[idx(i)];
            if pt.skip {
                continue;
            }
            let (x, y) = (pt.x, pt.y);
            // `x | 0`: truncation to a 32-bit integer.
            let trunc = if x.is_finite() { x.trunc() as i64 } else { 0 };
            if prev_x == Some(trunc) {
                if y < min_y {
                    min_y = y;
                } else if y > max_y {
                    max_y = y;
                }
                count_x += 1.0;
                avg_x = ((count_x - 1.0) * avg_x + x) / count_x;
            } else {
                draw_x(p, avg_x, min_y, max_y, last_y);
                p.line_to(x, y);
                prev_x = Some(trunc);
                count_x = 0.0;
                min_y = y;
                max_y = y;
            }
            last_y = y;
        }
        draw_x(p, avg_x, min_y, max_y, last_y);
    }

    /// `path(ctx, start, count)`: every segment into one path; true when it loops.
    pub fn path(&self, p: &mut P) -> bool {
        let mut lp = self.loop_;
        let range = self
            .draw_range
            .map(|(start, count)| (start, (start + count).saturating_sub(1)));
        for seg in self.segments() {
            lp &= self.path_segment(p, &seg, range, true, false);
        }
        lp
    }

    /// `LineElement.draw`: strokes the whole line (Path2D cache branch).
    pub fn draw(&self, ctx: &mut Ctx<'_>) {
        if self.points.is_empty() || self.options.border_width == 0.0 {
            return;
        }
        let mut p = P::new();
        if self.path(&mut p) {
            p.close();
        }
        let o = &self.options;
        let style = StrokeStyle {
            width: o.border_width,
            color: o.border_color,
            cap: match o.cap {
                CapStyle::Butt => LineCap::Butt,
                CapStyle::Round => LineCap::Round,
                CapStyle::Square => LineCap::Square,
            },
            join: match o.join {
                JoinStyle::Miter => LineJoin::Miter,
                JoinStyle::Round => LineJoin::Round,
                JoinStyle::Bevel => LineJoin::Bevel,
            },
            dash: o.border_dash.clone(),
            dash_offset: o.border_dash_offset,
        };
        ctx.save();
        ctx.stroke(&p, &style);
        ctx.restore();
    }
}

/// `solidSegments`.
fn solid_segments(points: &[LinePoint], start: usize, max: usize, lp: bool) -> Vec<Segment> {
    let count = points.len();
    let mut result = Vec::new();
    let mut start = Some(start);
    let mut last: Option<usize> = start;
    let mut prev = points[start.unwrap_or(0)];
    let mut lp = lp;
    let s0 = start.unwrap_or(0);
    for end in (s0 + 1)..=max {
        let cur = points[end % count];
        if cur.skip || cur.stop {
            if !prev.skip {
                lp = false;
                result.push(Segment {
                    start: start.unwrap_or(0) % count,
                    end: (end - 1) % count,
                    loop_: lp,
                });
                let v = if cur.stop { Some(end) } else { None };
                start = v;
                last = v;
            }
        } else {
            last = Some(end);
            if prev.skip {
                start = Some(end);
            }
        }
        prev = cur;
    }
    if let Some(last) = last {
        result.push(Segment {
            start: start.unwrap_or(0) % count,
            end: last % count,
            loop_: lp,
        });
    }
    result
}

fn distance(a: &LinePoint, b: &LinePoint) -> f64 {
    (squared(b.x - a.x) + squared(b.y - a.y)).sqrt()
}

/// `splineCurve(first, middle, after, t)`: (previous cp, next cp).
fn spline_curve(
    first: &LinePoint,
    mid: &LinePoint,
    after: &LinePoint,
    t: f64,
) -> ((f64, f64), (f64, f64)) {
    let previous = if first.skip { mid } else { first };
    let current = mid;
    let next = if after.skip { mid } else { after };
    let d01 = distance(current, previous);
    let d12 = distance(next, current);
    let mut s01 = d01 / (d01 + d12);
    let mut s12 = d12 / (d01 + d12);
    if s01.is_nan() {
        s01 = 0.0;
    }
    if s12.is_nan() {
        s12 = 0.0;
    }
    let fa = t * s01;
    let fb = t * s12;
    (
        (
            current.x - fa * (next.x - previous.x),
            current.y - fa * (next.y - previous.y),
        ),
        (
            current.x + fb * (next.x - previous.x),
            current.y + fb * (next.y - previous.y),
        ),
    )
}

fn update_bezier(all: &mut [LinePoint], o: &LineOptions, area: &Area, lp: bool, index_axis: Axis) {
    // Only drawn points count when spanGaps is set.
    let idx: Vec<usize> = if o.span_gaps.is_some() {
        (0..all.len()).filter(|i| !all[*i].skip).collect()
    } else {
        (0..all.len()).collect()
    };
    let mut pts: Vec<LinePoint> = idx.iter().map(|i| all[*i]).collect();
    if o.monotone {
        spline_curve_monotone(&mut pts, index_axis);
    } else {
        let n = pts.len();
        if n > 0 {
            let mut prev = if lp { pts[n - 1] } else { pts[0] };
            for i in 0..n {
                let point = pts[i];
                let next_i = (i + 1).min(n - if lp { 0 } else { 1 }) % n;
                let next = pts[next_i];
                let (a, b) = spline_curve(&prev, &point, &next, o.tension);
                pts[i].cp1x = a.0;
                pts[i].cp1y = a.1;
                pts[i].cp2x = b.0;
                pts[i].cp2y = b.1;
                prev = pts[i];
            }
        }
    }
    if o.cap_bezier_points {
        cap_bezier_points(&mut pts, area);
    }
    for (k, i) in idx.iter().enumerate() {
        all[*i] = pts[k];
    }
}

fn spline_curve_monotone(points: &mut [LinePoint], index_axis: Axis) {
    let value_axis = other(index_axis);
    let n = points.len();
    let get = |points: &[LinePoint], i: usize| -> Option<LinePoint> {
        if i < points.len() && !points[i].skip {
            Some(points[i])
        } else {
            None
        }
    };
    let mut delta_k = vec![0.0; n];
    let mut m_k = vec![f64::NAN; n];
    let mut before: Option<LinePoint>;
    let mut current: Option<LinePoint> = None;
    let mut after = get(points, 0);
    for i in 0..n {
        before = current;
        current = after;
        after = get(points, i + 1);
        let Some(cur) = current else { continue };
        if let Some(a) = after {
            let sd = a.get(index_axis) - cur.get(index_axis);
            delta_k[i] = if sd != 0.0 {
                (a.get(value_axis) - cur.get(value_axis)) / sd
            } else {
                0.0
            };
        }
        m_k[i] = if before.is_none() {
            delta_k[i]
        } else if after.is_none() {
            delta_k[i - 1]
        } else if sign(delta_k[i - 1]) != sign(delta_k[i]) {
            0.0
        } else {
            (delta_k[i - 1] + delta_k[i]) / 2.0
        };
    }
    // monotoneAdjust
    let mut pa = get(points, 0);
    for i in 0..n.saturating_sub(1) {
        let pc = pa;
        pa = get(points, i + 1);
        if pc.is_none() || pa.is_none() {
            continue;
        }
        if delta_k[i].abs() < f64::EPSILON {
            m_k[i] = 0.0;
            m_k[i + 1] = 0.0;
            continue;
        }
        let alpha = m_k[i] / delta_k[i];
        let beta = m_k[i + 1] / delta_k[i];
        let sq = squared(alpha) + squared(beta);
        if sq <= 9.0 {
            continue;
        }
        let tau = 3.0 / sq.sqrt();
        m_k[i] = alpha * tau * delta_k[i];
        m_k[i + 1] = beta * tau * delta_k[i];
    }
    // monotoneCompute
    let mut current: Option<LinePoint> = None;
    let mut after = get(points, 0);
    for i in 0..n {
        let before = current;
        current = after;
        after = get(points, i + 1);
        let Some(cur) = current else { continue };
        let ip = cur.get(index_axis);
        let vp = cur.get(value_axis);
        if let Some(b) = before {
            let delta = (ip - b.get(index_axis)) / 3.0;
            points[i].set_cp1(index_axis, ip - delta);
            points[i].set_cp1(value_axis, vp - delta * m_k[i]);
        }
        if let Some(a) = after {
            let delta = (a.get(index_axis) - ip) / 3.0;
            points[i].set_cp2(index_axis, ip + delta);
            points[i].set_cp2(value_axis, vp + delta * m_k[i]);
        }
        current = Some(points[i]);
    }
}

fn cap_bezier_points(points: &mut [LinePoint], area: &Area) {
    let n = points.len();
    if n == 0 {
        return;
    }
    let inside = |p: &LinePoint| in_area(p.x, p.y, area, 0.5);
    let mut in_area_cur = false;
    let mut in_next = inside(&points[0]);
    for i in 0..n {
        let in_prev = in_area_cur;
        in_area_cur = in_next;
        in_next = i < n - 1 && inside(&points[i + 1]);
        if !in_area_cur {
            continue;
        }
        let p = &mut points[i];
        if in_prev {
            p.cp1x = p.cp1x.min(area.right).max(area.left);
            p.cp1y = p.cp1y.min(area.bottom).max(area.top);
        }
        if in_next {
            p.cp2x = p.cp2x.min(area.right).max(area.left);
            p.cp2y = p.cp2y.min(area.bottom).max(area.top);
        }
    }
}

/// `{property, start, end}` bounds of `_boundSegment` (x or y only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Start value.
    pub start: f64,
    /// End value.
    pub end: f64,
}

/// The property a fill or bound follows (`property` in helpers.segment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prop {
    /// `'x'`.
    X,
    /// `'y'`.
    Y,
    /// `'angle'` (radial lines).
    Angle,
}

impl From<Axis> for Prop {
    fn from(a: Axis) -> Self {
        if a == Axis::X {
            Prop::X
        } else {
            Prop::Y
        }
    }
}

const TAU: f64 = std::f64::consts::TAU;

/// `_normalizeAngle`.
pub fn normalize_angle(a: f64) -> f64 {
    (a % TAU + TAU) % TAU
}

/// `_angleBetween(angle, start, end)`.
fn angle_between(angle: f64, start: f64, end: f64) -> bool {
    let a = normalize_angle(angle);
    let s = normalize_angle(start);
    let e = normalize_angle(end);
    let to_start = normalize_angle(s - a);
    let to_end = normalize_angle(e - a);
    let start_to = normalize_angle(a - s);
    let end_to = normalize_angle(a - e);
    a == s || a == e || (to_start > to_end && start_to < end_to)
}

impl Prop {
    /// `point[property]`.
    pub fn of(self, p: &LinePoint) -> f64 {
        match self {
            Prop::X => p.x,
            Prop::Y => p.y,
            Prop::Angle => p.angle,
        }
    }
    /// `propertyFn(property).between`.
    pub fn between(self, v: f64, a: f64, b: f64) -> bool {
        match self {
            Prop::Angle => angle_between(v, a, b),
            _ => is_between(v, a, b),
        }
    }
    /// `propertyFn(property).compare`.
    pub fn compare(self, a: f64, b: f64) -> f64 {
        match self {
            Prop::Angle => (a - b + TAU + std::f64::consts::PI) % TAU - std::f64::consts::PI,
            _ => a - b,
        }
    }
    /// `propertyFn(property).normalize`.
    pub fn normalize(self, v: f64) -> f64 {
        match self {
            Prop::Angle => normalize_angle(v),
            _ => v,
        }
    }
}

/// `_isBetween(value, start, end)` with Chart.js's 1e-6 epsilon.
pub fn is_between(v: f64, a: f64, b: f64) -> bool {
    v >= a.min(b) - 1e-6 && v <= a.max(b) + 1e-6
}

impl LineEl {
    /// A line from plain points (the filler's boundary and stack lines), `tension: 0`.
    pub fn boundary(points: Vec<LinePoint>, loop_: bool) -> Self {
        let options = LineOptions {
            background_color: chart_spec::Rgba::TRANSPARENT,
            border_color: chart_spec::Rgba::TRANSPARENT,
            border_width: 0.0,
            border_dash: Vec::new(),
            border_dash_offset: 0.0,
            cap: CapStyle::Butt,
            join: JoinStyle::Miter,
            tension: 0.0,
            monotone: false,
            cap_bezier_points: false,
            stepped: Stepped::No,
            span_gaps: None,
            fill: chart_spec::model::FillSpec {
                target: chart_spec::model::Fill::None,
                above: None,
                below: None,
            },
        };
        let mut l = LineEl::new(points, options);
        l.loop_ = loop_;
        l.full_loop = loop_;
        l
    }

    /// `_boundSegment(segment, points, bounds)` for an x/y property.
    pub fn bound_segment(&self, seg: &Segment, prop: Prop, bounds: Option<Bounds>) -> Vec<Segment> {
        let Some(b) = bounds else { return vec![*seg] };
        let points = &self.points;
        let count = points.len();
        if count == 0 {
            return Vec::new();
        }
        // getSegment
        let (mut start, mut end, lp) = (seg.start, seg.end, seg.loop_);
        if lp {
            start += count;
            end += count;
            for _ in 0..count {
                if !prop.between(
                    prop.normalize(prop.of(&points[start % count])),
                    b.start,
                    b.end,
                ) {
                    break;
                }
                start -= 1;
                end -= 1;
            }
            start %= count;
            end %= count;
        }
        if end < start {
            end += count;
        }
        let mut result = Vec::new();
        let mut inside;
        let mut sub_start: Option<usize> = None;
        let mut prev_value: Option<f64> = None;
        let mut prev = start;
        let normalize = |s: usize, e: usize| Segment {
            start: s % count,
            end: e % count,
            loop_: lp && (e - s + 1).is_multiple_of(count),
        };
        for i in start..=end {
            let point = points[i % count];
            if point.skip {
                continue;
            }
            let value = prop.normalize(prop.of(&point));
            if Some(value) == prev_value {
                continue;
            }
            inside = prop.between(value, b.start, b.end);
            let start_is_before = || match prev_value {
                Some(pv) => prop.between(b.start, pv, value) && prop.compare(b.start, pv) != 0.0,
                None => false,
            };
            let end_is_before = || {
                prop.compare(b.end, value) == 0.0
                    || match prev_value {
                        Some(pv) => prop.between(b.end, pv, value),
                        None => false,
                    }
            };
            if sub_start.is_none() && (inside || start_is_before()) {
                sub_start = Some(if prop.compare(value, b.start) == 0.0 {
                    i
                } else {
                    prev
                });
            }
            if let Some(ss) = sub_start {
                if !inside || end_is_before() {
                    result.push(normalize(ss, i));
                    sub_start = None;
                }
            }
            prev = i;
            prev_value = Some(value);
        }
        if let Some(ss) = sub_start {
            result.push(normalize(ss, end));
        }
        result
    }

    /// `_boundSegments(line, bounds)`.
    pub fn bound_segments(&self, prop: Prop, bounds: Option<Bounds>) -> Vec<Segment> {
        self.segments()
            .iter()
            .flat_map(|s| self.bound_segment(s, prop, bounds))
            .collect()
    }

    /// `LineElement.interpolate(point, property)`: the first interpolated point.
    pub fn interpolate(&self, value: f64, prop: Prop) -> Option<(f64, f64)> {
        let segs = self.bound_segments(
            prop,
            Some(Bounds {
                start: value,
                end: value,
            }),
        );
        let seg = segs.first()?;
        let p1 = self.points[seg.start];
        let p2 = self.points[seg.end];
        if seg.start == seg.end {
            return Some((p1.x, p1.y));
        }
        let t = ((value - prop.of(&p1)) / (prop.of(&p2) - prop.of(&p1))).abs();
        let (x, y) = if self.options.stepped != Stepped::No {
            let y = match self.options.stepped {
                Stepped::Middle => {
                    if t < 0.5 {
                        p1.y
                    } else {
                        p2.y
                    }
                }
                Stepped::After => {
                    if t < 1.0 {
                        p1.y
                    } else {
                        p2.y
                    }
                }
                _ => {
                    if t > 0.0 {
                        p2.y
                    } else {
                        p1.y
                    }
                }
            };
            (p1.x + t * (p2.x - p1.x), y)
        } else if self.curved() {
            let lerp =
                |a: (f64, f64), b: (f64, f64)| (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            let (a0, c1, c2, a3) = (
                (p1.x, p1.y),
                (p1.cp2x, p1.cp2y),
                (p2.cp1x, p2.cp1y),
                (p2.x, p2.y),
            );
            let a = lerp(a0, c1);
            let b = lerp(c1, c2);
            let c = lerp(c2, a3);
            let d = lerp(a, b);
            let e = lerp(b, c);
            lerp(d, e)
        } else {
            (p1.x + t * (p2.x - p1.x), p1.y + t * (p2.y - p1.y))
        };
        // `interpolated[property] = point[property]`.
        Some(match prop {
            Prop::X => (value, y),
            Prop::Y => (x, value),
            Prop::Angle => (x, y),
        })
    }

    /// `first()`: the first point of the first segment.
    pub fn first_point(&self) -> Option<LinePoint> {
        self.segments().first().map(|s| self.points[s.start])
    }
}
