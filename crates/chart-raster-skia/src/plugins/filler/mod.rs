//! The filler plugin (plugin.filler): areas between a line and a target (another dataset,
//! the origin, the start or end of the scale, a value, the stack below, or the shape itself),
//! with `above`/`below` colours split along the target. This module reads the controllers'
//! lines and the scales: each line's [`Source`] ([`sources`]) and what its fill reaches
//! ([`targets`]); [`draw`] draws from those alone.

use crate::controllers::ChartData;
use crate::elements::dataset::DatasetElements;
use crate::elements::line::{is_between, LineEl, LinePoint, Prop};
use crate::elements::Area;
use crate::scales::Scale;
use chart_spec::model::{Chart, ChartKind, Fill};
use chart_spec::{Cancel, Rgba};

mod draw;

pub use draw::draw_fill;

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
    /// What the fill reaches (`_getTarget`), set by [`targets`] for visible datasets.
    target: Option<Target>,
}

/// `afterDatasetsUpdate` + the control points of `beforeDraw`: every line's fill source with
/// its target resolved.
pub fn sources(
    chart: &Chart,
    data: &ChartData,
    elements: &[DatasetElements<'_>],
    scales: &[Scale],
    clips: &[Option<Area>],
) -> Vec<Option<Source>> {
    let propagate = chart.filler.as_ref().is_none_or(|f| f.propagate);
    let mut out: Vec<Option<Source>> = Vec::new();
    for (i, ds) in chart.datasets.iter().enumerate() {
        let meta = &data.metas[i];
        let src = elements.get(i).and_then(DatasetElements::line).map(|line| {
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
                target: None,
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

/// `_getTarget`: what a source's fill reaches.
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

/// `_getTarget` of every visible dataset's source (the datasets [`draw_fill`] draws), once
/// the sources' targets are resolved and their lines' control points updated; stops early
/// when the render is cancelled.
pub fn targets(
    sources: &mut [Option<Source>],
    scales: &[Scale],
    data: &ChartData,
    cancel: &Cancel,
) {
    let mut found = Vec::with_capacity(data.sorted_visible.len());
    for &i in &data.sorted_visible {
        if cancel.is_cancelled() {
            break;
        }
        let Some(Some(src)) = sources.get(i) else {
            continue;
        };
        if src.fill != Fill::None {
            found.push((i, get_target(sources, src, scales, data)));
        }
    }
    for (i, t) in found {
        if let Some(Some(src)) = sources.get_mut(i) {
            src.target = t;
        }
    }
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
