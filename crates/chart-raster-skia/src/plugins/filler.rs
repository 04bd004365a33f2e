//! The filler plugin (plugin.filler): areas between a line and a target (another dataset,
//! the origin, the start or end of the scale, a value, the stack below, or the shape itself),
//! with `above`/`below` colours split along the target.

use crate::controllers::{ChartData, Controller};
use crate::elements::line::{is_between, Bounds, LineEl, LinePoint, Prop, Segment};
use crate::elements::{Area, Ctx, P};
use crate::scales::Scale;
use chart_spec::model::{Chart, ChartKind, Fill};
use chart_spec::Rgba;

/// A fill source (`meta.$filler`).
pub struct Source {
    /// Dataset index.
    pub index: usize,
    /// Dataset visible.
    pub visible: bool,
    /// The resolved target (`_resolveTarget`).
    pub fill: Fill,
    /// `line._loop ? 'angle' : axis`: what the fill follows.
    pub prop: Prop,
    /// The value scale id.
    pub v_id: Option<String>,
    /// The line (control points already updated).
    pub line: LineEl,
    /// `above` colour.
    pub above: Rgba,
    /// `below` colour.
    pub below: Rgba,
    /// Dataset clip area (`getDatasetClipArea`), `None` when clipping is disabled.
    pub clip: Option<Area>,
}

/// `afterDatasetsUpdate` + the control points of `beforeDraw`: every line's fill source with
/// its target resolved.
pub fn sources(
    chart: &Chart,
    data: &ChartData,
    ctrls: &mut [Box<dyn Controller>],
    scales: &[Scale],
    clips: &[Option<Area>],
) -> Vec<Option<Source>> {
    let propagate = chart.filler.as_ref().is_none_or(|f| f.propagate);
    let mut out: Vec<Option<Source>> = Vec::new();
    for (i, ds) in chart.datasets.iter().enumerate() {
        let meta = &data.metas[i];
        let src = ctrls[i].line().map(|line| {
            let o = line.options.clone();
            let bg = o.background_color;
            let mut line = line.clone();
            // Radar points carry their spoke angle (`getPointPositionForValue(...).angle`).
            if let Some(g) = scale(scales, meta.v_id()).and_then(|s| s.kind.radial()) {
                for (k, p) in line.points.iter_mut().enumerate() {
                    p.angle = g.point_position(k, 0.0, 0.0).2;
                }
            }
            Source {
                index: i,
                visible: meta.visible,
                fill: line.options.fill.target.clone(),
                prop: if line.loop_ {
                    Prop::Angle
                } else {
                    Prop::from(ds.index_axis)
                },
                v_id: meta.v_id().map(String::from),
                above: o.fill.above.unwrap_or(bg),
                below: o.fill.below.unwrap_or(bg),
                line,
                clip: clips.get(i).copied().flatten(),
            }
        });
        out.push(src);
    }
    // _resolveTarget
    let resolved: Vec<Fill> = (0..out.len())
        .map(|i| match &out[i] {
            Some(s) if s.fill != Fill::None => resolve_target(&out, i, propagate),
            Some(s) => s.fill.clone(),
            None => Fill::None,
        })
        .collect();
    for (s, f) in out.iter_mut().zip(resolved) {
        if let Some(s) = s {
            s.fill = f;
        }
    }
    out
}

fn resolve_target(sources: &[Option<Source>], index: usize, propagate: bool) -> Fill {
    let Some(source) = &sources[index] else {
        return Fill::None;
    };
    let mut fill = source.fill.clone();
    if !propagate {
        return fill;
    }
    let mut visited = vec![index];
    loop {
        match fill {
            Fill::None => return Fill::None,
            Fill::Dataset(t) => {
                if visited.contains(&t) {
                    return Fill::None;
                }
                let Some(Some(target)) = sources.get(t) else {
                    return Fill::None;
                };
                if target.visible {
                    return Fill::Dataset(t);
                }
                visited.push(t);
                fill = target.fill.clone();
            }
            other => return other,
        }
    }
}

enum Target {
    Line(LineEl),
    Shape,
    /// `simpleArc`: the circle of a value on a circular radial grid.
    Arc {
        x: f64,
        y: f64,
        r: f64,
    },
}

fn scale<'a>(scales: &'a [Scale], id: Option<&str>) -> Option<&'a Scale> {
    let id = id?;
    scales.iter().find(|s| s.core.id() == id)
}

/// `_findSegmentEnd`.
fn find_segment_end(start: usize, mut end: usize, points: &[LinePoint]) -> usize {
    while end > start {
        let p = points[end];
        if !p.x.is_nan() && !p.y.is_nan() {
            break;
        }
        end -= 1;
    }
    end
}

/// `_pointsFromSegments` + `_createBoundaryLine` for a horizontal or vertical boundary.
fn boundary_line(x: Option<f64>, y: Option<f64>, line: &LineEl) -> Option<LineEl> {
    let mut points = Vec::new();
    for s in line.segments() {
        let end = find_segment_end(s.start, s.end, &line.points);
        let (first, last) = (line.points[s.start], line.points[end]);
        if let Some(y) = y {
            points.push(LinePoint {
                x: first.x,
                y,
                ..LinePoint::default()
            });
            points.push(LinePoint {
                x: last.x,
                y,
                ..LinePoint::default()
            });
        } else if let Some(x) = x {
            points.push(LinePoint {
                x,
                y: first.y,
                ..LinePoint::default()
            });
            points.push(LinePoint {
                x,
                y: last.y,
                ..LinePoint::default()
            });
        }
    }
    if points.is_empty() {
        None
    } else {
        Some(LineEl::boundary(points, false))
    }
}

fn get_target(
    sources: &[Option<Source>],
    src: &Source,
    scales: &[Scale],
    data: &ChartData,
) -> Option<Target> {
    let vs = scale(scales, src.v_id.as_deref());
    match src.fill {
        Fill::None => None,
        Fill::Dataset(t) => {
            let s = sources.get(t)?.as_ref()?;
            if s.visible {
                Some(Target::Line(s.line.clone()))
            } else {
                None
            }
        }
        Fill::Shape => Some(Target::Shape),
        Fill::Stack => build_stack_line(sources, src, vs?, data).map(Target::Line),
        ref f if vs.and_then(|s| s.kind.radial()).is_some() => {
            // computeCircularBoundary
            let vs = vs?;
            let g = vs.kind.radial()?;
            let start = if g.reverse { g.max } else { g.min };
            let value = match f {
                Fill::Start => start,
                Fill::End => {
                    if g.reverse {
                        g.min
                    } else {
                        g.max
                    }
                }
                Fill::Value(v) => *v,
                _ => vs.core.base_value(),
            };
            if vs.core.opts.grid.circular {
                let (x, y, _) = g.point_position(0, g.distance_for_value(start), 0.0);
                return Some(Target::Arc {
                    x,
                    y,
                    r: g.distance_for_value(value),
                });
            }
            let d = g.distance_for_value(value);
            let points: Vec<LinePoint> = (0..g.label_count)
                .map(|i| {
                    let (x, y, angle) = g.point_position(i, d, 0.0);
                    LinePoint {
                        x,
                        y,
                        angle,
                        ..LinePoint::default()
                    }
                })
                .collect();
            if points.is_empty() {
                None
            } else {
                Some(Target::Line(LineEl::boundary(points, true)))
            }
        }
        ref f => {
            let vs = vs?;
            // _getTargetPixel
            let pixel = match f {
                Fill::Start => vs.core.bottom,
                Fill::End => vs.core.top,
                Fill::Value(v) => vs.pixel_for_value(*v),
                _ => vs.base_pixel(),
            };
            if !pixel.is_finite() {
                return None;
            }
            let horizontal = vs.core.is_horizontal();
            boundary_line(
                if horizontal { Some(pixel) } else { None },
                if horizontal { None } else { Some(pixel) },
                &src.line,
            )
            .map(Target::Line)
        }
    }
}

/// `_buildStackLine`.
fn build_stack_line(
    sources: &[Option<Source>],
    src: &Source,
    vs: &Scale,
    data: &ChartData,
) -> Option<LineEl> {
    // getLinesBelow: visible line datasets of the value scale before this one, nearest first.
    let mut below: Vec<LineEl> = Vec::new();
    for &i in &data.sorted_visible {
        let m = &data.metas[i];
        if m.id_for(vs.core.axis()) != Some(vs.core.id()) || m.kind != ChartKind::Line {
            continue;
        }
        if m.index == src.index {
            break;
        }
        if let Some(Some(s)) = sources.get(i) {
            below.insert(0, s.line.clone());
        }
    }
    if let Some(b) = boundary_line(None, Some(vs.core.bottom), &src.line) {
        below.push(b);
    }
    let mut points = Vec::new();
    for seg in src.line.segments() {
        let mut j = seg.start;
        while j <= seg.end {
            add_points_below(&mut points, &src.line.points[j], &below);
            j += 1;
        }
    }
    let mut l = LineEl::boundary(points, false);
    l.options.tension = 0.0;
    Some(l)
}

fn add_points_below(points: &mut Vec<LinePoint>, sp: &LinePoint, below: &[LineEl]) {
    let mut postponed = Vec::new();
    for line in below {
        let Some((first, last, point)) = find_point(line, sp) else {
            continue;
        };
        if first && last {
            continue;
        }
        if first {
            postponed.insert(0, point);
        } else {
            points.push(point);
            if !last {
                break;
            }
        }
    }
    points.extend(postponed);
}

fn find_point(line: &LineEl, sp: &LinePoint) -> Option<(bool, bool, LinePoint)> {
    let (x, y) = line.interpolate(sp.x, Prop::X)?;
    let mut first = false;
    let mut last = false;
    for s in line.segments() {
        let fv = line.points[s.start].x;
        let lv = line.points[s.end].x;
        if is_between(x, fv, lv) {
            first = x == fv;
            last = x == lv;
            break;
        }
    }
    Some((
        first,
        last,
        LinePoint {
            x,
            y,
            ..LinePoint::default()
        },
    ))
}

/// `_drawfill` for the dataset `index`, when it has a fill.
pub fn draw_fill(
    ctx: &mut Ctx<'_>,
    sources: &[Option<Source>],
    index: usize,
    scales: &[Scale],
    area: &Area,
    data: &ChartData,
) {
    let Some(Some(src)) = sources.get(index) else {
        return;
    };
    if src.fill == Fill::None {
        return;
    }
    let Some(target) = get_target(sources, src, scales, data) else {
        return;
    };
    if src.line.points.is_empty() {
        return;
    }
    ctx.clip_area(*area);
    // Radar (loop) lines fill by angle inside do_fill (`property === 'angle'`).
    do_fill(ctx, src, &target, area);
    ctx.unclip_area();
}

fn do_fill(ctx: &mut Ctx<'_>, src: &Source, target: &Target, area: &Area) {
    let property = src.prop;
    ctx.save();
    let mut color = src.below;
    if src.below != src.above {
        if let Target::Line(t) = target {
            if property == Prop::X {
                clip_vertical(ctx, t, area.top);
                fill(ctx, src, target, src.above, property, area);
                ctx.restore();
                ctx.save();
                clip_vertical(ctx, t, area.bottom);
            } else if property == Prop::Y {
                clip_horizontal(ctx, t, area.left);
                fill(ctx, src, target, src.below, property, area);
                ctx.restore();
                ctx.save();
                clip_horizontal(ctx, t, area.right);
                color = src.above;
            }
        }
    }
    fill(ctx, src, target, color, property, area);
    ctx.restore();
}

/// `_clipVertical`: clips to the area between the line and the horizontal line at `clip_y`.
fn clip_vertical(ctx: &mut Ctx<'_>, target: &LineEl, clip_y: f64) {
    clip_to_edge(ctx, target, |x, _| (x, clip_y));
}

/// `_clipHorizontal`: clips to the area between the line and the vertical line at `clip_x`.
fn clip_horizontal(ctx: &mut Ctx<'_>, target: &LineEl, clip_x: f64) {
    clip_to_edge(ctx, target, |_, y| (clip_x, y));
}

/// The path both Chart.js clip helpers build: each segment of the line, joined to the next
/// and closed through `edge(x, y)`, the point's projection on the clipping edge.
fn clip_to_edge(ctx: &mut Ctx<'_>, target: &LineEl, edge: impl Fn(f64, f64) -> (f64, f64)) {
    let mut p = P::new();
    let mut first = true;
    let mut line_loop = false;
    for seg in target.segments() {
        let fp = target.points[seg.start];
        let lp = target.points[find_segment_end(seg.start, seg.end, &target.points)];
        if first {
            p.move_to(fp.x, fp.y);
            first = false;
        } else {
            let (ex, ey) = edge(fp.x, fp.y);
            p.line_to(ex, ey);
            p.line_to(fp.x, fp.y);
        }
        line_loop = target.path_segment(&mut p, &seg, None, line_loop, false);
        if line_loop {
            p.close();
        } else {
            let (ex, ey) = edge(lp.x, lp.y);
            p.line_to(ex, ey);
        }
    }
    if let Some(f) = target.first_point() {
        let (ex, ey) = edge(f.x, f.y);
        p.line_to(ex, ey);
    }
    p.close();
    ctx.clip(p);
}

fn get_bounds(prop: Prop, first: &LinePoint, last: &LinePoint, lp: bool) -> Option<Bounds> {
    if lp {
        return None;
    }
    Some(Bounds {
        start: prop.normalize(prop.of(first)),
        end: prop.normalize(prop.of(last)),
    })
}

struct Part {
    source: Segment,
    target: Option<Segment>,
    /// The bounds of the source segment, for arc targets.
    bounds: Option<Bounds>,
    start: f64,
    end: f64,
}

/// `_segments(line, target, property)`.
fn segments(line: &LineEl, target: &Target, axis: Prop) -> Vec<Part> {
    let mut parts = Vec::new();
    for seg in line.segments() {
        let end = find_segment_end(seg.start, seg.end, &line.points);
        let bounds = get_bounds(axis, &line.points[seg.start], &line.points[end], seg.loop_);
        let Target::Line(t) = target else {
            parts.push(Part {
                source: seg,
                target: None,
                bounds,
                start: axis.of(&line.points[seg.start]),
                end: axis.of(&line.points[end]),
            });
            continue;
        };
        for tgt in t.bound_segments(axis, bounds) {
            let sub = get_bounds(axis, &t.points[tgt.start], &t.points[tgt.end], tgt.loop_);
            for fs in line.bound_segment(&seg, axis, sub) {
                let edge = |f: fn(f64, f64) -> f64, pick: fn(&Bounds) -> f64| match (bounds, sub) {
                    (Some(a), Some(b)) => f(pick(&a), pick(&b)),
                    (Some(a), None) => pick(&a),
                    (None, Some(b)) => pick(&b),
                    (None, None) => 0.0,
                };
                parts.push(Part {
                    source: fs,
                    target: Some(tgt),
                    bounds,
                    start: edge(f64::max, |b| b.start),
                    end: edge(f64::min, |b| b.end),
                });
            }
        }
    }
    parts
}

fn fill(ctx: &mut Ctx<'_>, src: &Source, target: &Target, color: Rgba, axis: Prop, area: &Area) {
    let line = &src.line;
    for part in segments(line, target, axis) {
        ctx.save();
        let not_shape = !matches!(target, Target::Shape);
        // clipBounds: only x and y bounds clip.
        if not_shape && axis != Prop::Angle {
            let (s, e) = (part.start, part.end);
            let (mut l, mut t, mut r, mut b) = if axis == Prop::X {
                (s, area.top, e, area.bottom)
            } else {
                (area.left, s, area.right, e)
            };
            if let Some(c) = src.clip {
                l = l.max(c.left);
                r = r.min(c.right);
                t = t.max(c.top);
                b = b.min(c.bottom);
            }
            let mut p = P::new();
            p.rect(l, t, r - l, b - t);
            ctx.clip(p);
        }
        let mut p = P::new();
        let line_loop = line.path_segment(&mut p, &part.source, None, true, false);
        let mut lp = false;
        if let Target::Arc { x, y, r } = *target {
            // simpleArc: interpolate at the angles, path along the circle backwards.
            let at = |a: f64| (x + libm::cos(a) * r, y + libm::sin(a) * r);
            if line_loop {
                p.close();
            } else {
                let (px, py) = at(part.end);
                p.line_to(px, py);
            }
            let (bs, be) = part
                .bounds
                .map(|b| (b.start, b.end))
                .unwrap_or((0.0, std::f64::consts::TAU));
            p.arc(x, y, r, be, bs, true);
            if !line_loop {
                let (px, py) = at(part.start);
                p.line_to(px, py);
            }
        }
        if let (Target::Line(t), Some(tgt)) = (target, part.target) {
            if line_loop {
                p.close();
            } else if let Some((x, y)) = t.interpolate(part.end, axis) {
                p.line_to(x, y);
            }
            let target_loop = t.path_segment(&mut p, &tgt, None, line_loop, true);
            lp = line_loop && target_loop;
            if !lp {
                if let Some((x, y)) = t.interpolate(part.start, axis) {
                    p.line_to(x, y);
                }
            }
        }
        p.close();
        let _ = lp;
        ctx.fill(&p, color);
        ctx.restore();
    }
}
