//! The filler's drawing (`_drawfill`): each source's area between its line and the target
//! the update stage resolved ([`super::targets`]), with `above`/`below` colours split along
//! the target, from the sources' lines and targets only.

use super::{find_segment_end, Source, Target};
use crate::elements::line::{Bounds, LineEl, LinePoint, Prop, Segment};
use crate::elements::{Area, Ctx, P};
use chart_spec::model::Fill;
use chart_spec::Rgba;

/// `_drawfill` for the dataset `index`, when it has a fill.
pub fn draw_fill(ctx: &mut Ctx<'_>, sources: &[Option<Source>], index: usize, area: &Area) {
    let Some(Some(src)) = sources.get(index) else {
        return;
    };
    if src.fill == Fill::None {
        return;
    }
    let Some(target) = &src.target else {
        return;
    };
    if src.line.points.is_empty() {
        return;
    }
    ctx.clip_area(*area);
    // Radar (loop) lines fill by angle inside do_fill (`property === 'angle'`).
    do_fill(ctx, src, target, area);
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
