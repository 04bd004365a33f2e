//! A long hairline cut into runs that a stop can come between.
//!
//! One tiny-skia `stroke_path` call cannot be stopped, and an anti-aliased hairline costs
//! about a microsecond per pixel of its length: the 99,000-point line of a hostile request
//! (a `borderWidth` under one device pixel, `tension`, `stepped` or `borderDash`, which keep
//! Chart.js off its fast path) ran for 30 s to two minutes in one call. A hairline is drawn
//! segment by segment, each segment from the end of the one before, so a path cut at any
//! segment boundary and drawn run by run paints what the whole path paints, as long as the
//! caps stay where they were: tiny-skia (as Skia's `SkScan_Hairline`) lengthens the first
//! segment of a subpath backwards and the last one forwards for a round or square cap,
//! and a closing segment then runs back to the lengthened start. [`runs`] writes those
//! lengthened segments out, so that every run is drawn with butt caps.

use tiny_skia::{IntRect, Pixmap, Point};
use tiny_skia::{LineCap, Mask, Paint, Path, PathBuilder, PathSegment};
use tiny_skia::{Stroke, Transform};

/// Where a long hairline is cut: a run ends at the first segment boundary past `verbs`
/// verbs or past `pixels` device pixels of length (the control polygon, each segment
/// counted at most a bitmap diagonal: the hairliner clips segments to the bitmap first).
#[derive(Clone, Copy, Debug)]
pub(super) struct Cut {
    pub verbs: usize,
    pub pixels: f32,
}

impl Cut {
    /// Runs of about 0.2 s in a release build: an anti-aliased hairline costs about 0.2 µs
    /// per pixel of length, and a run of 8,192 segments across a chart took 0.9 s.
    pub const DEFAULT: Cut = Cut {
        verbs: 8192,
        pixels: 1_000_000.0,
    };
}

/// Strokes `path` under `t` with `st`, a stroke tiny-skia draws as a hairline, painting what
/// `pixmap.stroke_path` paints once the dash pattern is applied (the caller applies it:
/// `dash.rs`; `st`'s own pattern is not). A path longer than `cut` is drawn in device
/// space in [`runs`], with `stop` polled before each.
#[allow(clippy::too_many_arguments)]
pub(super) fn stroke(
    pixmap: &mut Pixmap,
    path: &Path,
    paint: &Paint<'static>,
    st: &Stroke,
    t: Transform,
    mask: Option<&Mask>,
    cut: Cut,
    stop: &dyn Fn() -> bool,
) {
    let Some(device) = path.clone().transform(t) else {
        return;
    };
    let diagonal = libm::hypotf(pixmap.width() as f32, pixmap.height() as f32);
    if path.verbs().len() < cut.verbs && length(&device, diagonal, cut.pixels) < cut.pixels {
        let st = Stroke {
            dash: None,
            ..st.clone()
        };
        pixmap.stroke_path(path, paint, &st, t, mask);
        return;
    }
    // The bounds the hairliner culls and clips by: the path's, a pixel out for butt caps and
    // two for the others.
    let (w, cap) = (st.width, st.line_cap);
    let out = if cap == LineCap::Butt { 1.0 } else { 2.0 };
    let Some(bounds) = device.bounds().outset(out, out).and_then(|r| r.round_out()) else {
        return; // tiny-skia draws nothing either
    };
    let reaching_out = !within_one_tile(bounds, pixmap.width(), pixmap.height());
    // The runs are drawn untransformed, so their width is the coverage tiny-skia gives the
    // hairline under `t` (`treat_as_hairline`: the mean of both mapped unit axes, each
    // measured as `max + min / 2`); a width drawn under the identity is its own coverage.
    let fast_len = |x: f32, y: f32| {
        let (x, y) = (x.abs(), y.abs());
        x.max(y) + x.min(y) * 0.5
    };
    let coverage = (fast_len(t.sx * w, t.ky * w) + fast_len(t.kx * w, t.sy * w)) * 0.5;
    if coverage <= 0.0 {
        return; // an alpha scaled to nothing
    }
    // A bitmap over 8,191 pixels a side is drawn in tiles, and a cap is then added in each
    // tile's coordinates, which round differently: there the subpaths are kept whole, with
    // their caps, unless they have none.
    let tiled = pixmap.width().max(pixmap.height()) > TILE as u32;
    let (runs, cap) = if tiled && cap != LineCap::Butt {
        (subpath_runs(&device, cut, diagonal, reaching_out), cap)
    } else {
        (
            runs(&device, cap, cut, diagonal, reaching_out),
            LineCap::Butt,
        )
    };
    let st = Stroke {
        width: coverage,
        line_cap: cap,
        dash: None,
        ..st.clone()
    };
    let mut paint = paint.clone();
    paint.shader.transform(t);
    for run in runs {
        if stop() {
            return;
        }
        pixmap.stroke_path(&run, &paint, &st, Transform::identity(), mask);
    }
}

/// `path` as paths each as long as `cut` (the last one shorter; `diagonal`: the bitmap's)
/// that, stroked one after the other as hairlines with butt caps, paint what `path` stroked
/// as a hairline with `cap` paints. `reaching_out`: whether `path` reaches past the bitmap (or its tile); each
/// run then does too, through a segment far off it: the hairliner clips segments only for
/// a path that does, and a clipped curve is drawn a little differently from an unclipped
/// one (found by `runs_paint_what_one_hairline_paints`).
pub(super) fn runs(
    path: &Path,
    cap: LineCap,
    cut: Cut,
    diagonal: f32,
    reaching_out: bool,
) -> Vec<Path> {
    let mut out = Vec::new();
    let mut run = Run::new(reaching_out);
    // What the hairliner tracks: where the subpath started (moved by a start cap), where the
    // pen is (never moved by a cap), and the verb before this one.
    let (mut first, mut last) = (Point::zero(), Point::zero());
    let mut prev = Verb::Move;
    let mut segments = path.segments().peekable();
    while let Some(segment) = segments.next() {
        let next = segments.peek().map(Verb::of);
        let verb = Verb::of(&segment);
        let mut seg = [last; 4];
        let n = match segment {
            PathSegment::MoveTo(p) => {
                first = p;
                last = p;
                prev = Verb::Move;
                continue;
            }
            PathSegment::LineTo(p) => {
                seg[1] = p;
                2
            }
            PathSegment::QuadTo(p1, p) => {
                seg[1..3].copy_from_slice(&[p1, p]);
                3
            }
            PathSegment::CubicTo(p1, p2, p) => {
                seg[1..4].copy_from_slice(&[p1, p2, p]);
                4
            }
            PathSegment::Close => {
                seg[1] = first;
                2
            }
        };
        let end = seg[n - 1];
        let seg = &mut seg[..n];
        // A closing segment gets caps only when it closes an empty subpath (a dot).
        if cap != LineCap::Butt && (verb != Verb::Close || prev == Verb::Move) {
            extend(cap, prev, next, seg);
        }
        run.push(seg);
        run.length += polygon(seg).min(diagonal);
        if verb != Verb::Close {
            if prev == Verb::Move && cap != LineCap::Butt {
                // The hairliner closes to where the start cap moved the first point.
                first = seg[0];
            }
            last = end;
        }
        prev = verb;
        if run.pb.len() >= cut.verbs || run.length >= cut.pixels {
            out.extend(run.take());
        }
    }
    out.extend(run.take());
    out
}

/// A path verb, as the hairliner looks at the verbs around a segment.
#[derive(Clone, Copy, PartialEq)]
enum Verb {
    Move,
    Segment,
    Close,
}

impl Verb {
    fn of(s: &PathSegment) -> Verb {
        match s {
            PathSegment::MoveTo(_) => Verb::Move,
            PathSegment::Close => Verb::Close,
            _ => Verb::Segment,
        }
    }
}

/// Whether `bounds` lie inside one of the tiles tiny-skia draws a `width` × `height` bitmap
/// in (the whole bitmap up to 8,191 pixels a side: `DrawTiler`).
fn within_one_tile(bounds: IntRect, width: u32, height: u32) -> bool {
    let tile = |start: i32, size: u32| {
        let k = start.div_euclid(TILE) * TILE;
        (k, (size as i32 - k).clamp(0, TILE) as u32)
    };
    let ((x, w), (y, h)) = (tile(bounds.x(), width), tile(bounds.y(), height));
    bounds.x() >= 0
        && bounds.y() >= 0
        && IntRect::from_xywh(x, y, w, h).is_some_and(|t| t.contains(&bounds))
}

/// `path` cut into paths of whole subpaths, each as long as `cut` but the last (a longer
/// subpath stays whole), each reaching out of the bitmap when `reaching_out`.
fn subpath_runs(path: &Path, cut: Cut, diagonal: f32, reaching_out: bool) -> Vec<Path> {
    let mut out = Vec::new();
    let mut run = Run::new(reaching_out);
    let (mut first, mut last) = (Point::zero(), Point::zero());
    for segment in path.segments() {
        if let PathSegment::MoveTo(p) = segment {
            if run.pb.len() >= cut.verbs || run.length >= cut.pixels {
                out.extend(run.take());
            }
            run.pb.move_to(p.x, p.y);
            (first, last) = (p, p);
            continue;
        }
        let pb = &mut run.pb;
        let end = match segment {
            PathSegment::LineTo(p) => {
                pb.line_to(p.x, p.y);
                [last, p, p, p]
            }
            PathSegment::QuadTo(p1, p) => {
                pb.quad_to(p1.x, p1.y, p.x, p.y);
                [last, p1, p, p]
            }
            PathSegment::CubicTo(p1, p2, p) => {
                pb.cubic_to(p1.x, p1.y, p2.x, p2.y, p.x, p.y);
                [last, p1, p2, p]
            }
            _ => {
                pb.close();
                [last, first, first, first]
            }
        };
        run.length += polygon(&end).min(diagonal);
        last = end[3];
    }
    out.extend(run.take());
    out
}

/// The length of a segment's control polygon (start point first).
fn polygon(seg: &[Point]) -> f32 {
    seg.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// How long `path` is drawn, as [`Cut`] measures it; counting stops past `enough`.
fn length(path: &Path, diagonal: f32, enough: f32) -> f32 {
    let (mut first, mut last, mut total) = (Point::zero(), Point::zero(), 0.0);
    for segment in path.segments() {
        let seg = match segment {
            PathSegment::MoveTo(p) => {
                (first, last) = (p, p);
                continue;
            }
            PathSegment::LineTo(p) => [last, p, p, p],
            PathSegment::QuadTo(p1, p) => [last, p1, p, p],
            PathSegment::CubicTo(p1, p2, p) => [last, p1, p2, p],
            PathSegment::Close => [last, first, first, first],
        };
        total += polygon(&seg).min(diagonal);
        last = seg[3];
        if total >= enough {
            break;
        }
    }
    total
}

/// The run being built and where its pen is.
struct Run {
    pb: PathBuilder,
    pen: Option<Point>,
    /// Device pixels of length so far, as [`Cut`] measures it.
    length: f32,
    /// Whether each run is given a segment far off the bitmap (see [`runs`]).
    reaching_out: bool,
}

/// The side of the tiles tiny-skia draws a large bitmap in (`DrawTiler`).
const TILE: i32 = 8191;

/// Where the segment that keeps a run from lying inside the bitmap is: off every tile
/// (and past the fixed-point range tiny-skia clips lines to first, once a tile's offset is
/// taken off), so it paints nothing.
const FAR: f32 = -16_384.0;

impl Run {
    fn new(reaching_out: bool) -> Run {
        Run {
            pb: PathBuilder::new(),
            pen: None,
            length: 0.0,
            reaching_out,
        }
    }

    /// Appends the segment `seg` (start point first), moving to its start when the pen is
    /// elsewhere.
    fn push(&mut self, seg: &[Point]) {
        if self.pen != Some(seg[0]) {
            self.pb.move_to(seg[0].x, seg[0].y);
        }
        match seg {
            [_, a] => self.pb.line_to(a.x, a.y),
            [_, a, b] => self.pb.quad_to(a.x, a.y, b.x, b.y),
            [_, a, b, c] => self.pb.cubic_to(a.x, a.y, b.x, b.y, c.x, c.y),
            _ => {}
        }
        self.pen = seg.last().copied();
    }

    /// The finished run; the next one starts with a move.
    fn take(&mut self) -> Option<Path> {
        self.pen = None;
        self.length = 0.0;
        if self.reaching_out {
            self.pb.move_to(FAR, FAR);
            self.pb.line_to(FAR - 1.0, FAR);
        }
        std::mem::take(&mut self.pb).finish()
    }
}

/// Lengthens a segment (its start point, control points, end point) for a round or square
/// cap as the hairliner does: the start backwards when it follows a move, the end forwards
/// when a move, a close or nothing follows; along the tangent from the nearest point that
/// differs (horizontally when all coincide), moving the coinciding points with the end.
/// Half a pixel for a square cap; π/8 for a round one, the area of half a unit circle.
fn extend(cap: LineCap, prev: Verb, next: Option<Verb>, seg: &mut [Point]) {
    let by = if cap == LineCap::Square {
        0.5
    } else {
        std::f32::consts::PI / 8.0
    };
    let n = seg.len();
    if prev == Verb::Move {
        let tangent = (1..n)
            .map(|k| (k, seg[0] - seg[k]))
            .find(|(_, t)| !t.is_zero());
        // All points coincide: only the start moves, to the right.
        let (moved, dir) = tangent.map_or((1, Point::from_xy(1.0, 0.0)), |(k, mut t)| {
            t.normalize();
            (k, t)
        });
        for q in &mut seg[..moved] {
            q.x += dir.x * by;
            q.y += dir.y * by;
        }
    }
    if matches!(next, Some(Verb::Move) | Some(Verb::Close) | None) {
        let tangent = (0..n - 1)
            .rev()
            .map(|k| (k, seg[n - 1] - seg[k]))
            .find(|(_, t)| !t.is_zero());
        // All points coincide: only the end moves, to the left.
        let (from, dir) = tangent.map_or((n - 1, Point::from_xy(-1.0, 0.0)), |(k, mut t)| {
            t.normalize();
            (k + 1, t)
        });
        for q in &mut seg[from..] {
            q.x += dir.x * by;
            q.y += dir.y * by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::painter::tests::xorshift;

    /// Random paths of a few subpaths (lines, quads, cubics, repeated points, coinciding
    /// control points, closes, empty subpaths closed to a dot) stroked as hairlines with
    /// every cap, with and without a dash pattern, a mask and a transform (scaled, skewed,
    /// rotated): cut into runs as short as one verb, they paint byte for byte what one
    /// `stroke_path` call paints.
    #[test]
    fn runs_paint_what_one_hairline_paints() {
        let (w, h) = (64u32, 48u32);
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut mask = Mask::new(w, h).unwrap();
        let mut pb = PathBuilder::new();
        pb.move_to(6.0, 2.0);
        pb.line_to(60.5, 20.25);
        pb.line_to(3.75, 44.0);
        pb.close();
        mask.fill_path(
            &pb.finish().unwrap(),
            tiny_skia::FillRule::Winding,
            true,
            Transform::identity(),
        );
        let transforms = [
            Transform::identity(),
            Transform::from_row(0.5, 0.0, 0.0, 0.5, 3.0, -2.0),
            Transform::from_row(0.6, 0.25, -0.3, 0.45, 10.0, 4.0),
            Transform::from_row(1.5, 0.0, 0.0, 1.5, -8.0, -5.0),
        ];
        // A small bitmap, and one tiny-skia draws in tiles of 8,191 pixels, the paths
        // around the tiles' edge.
        let bitmaps = [(w, h, 0.0), (8400, 40, 8140.0)];
        for case in 0..1200u64 {
            let (w, h, x0) = bitmaps[usize::from(case % 10 == 9)];
            // Most paths cross the bitmap's edges; some lie inside it.
            let inside = case % 6 == 5;
            let mut coord = |max: u32, from: f32| {
                let max = if x0 > 0.0 && from > 0.0 { 120 } else { max };
                if inside {
                    from + 3.0 + next(u64::from(max - 6) * 10) as f32 / 10.0
                } else {
                    from + next(u64::from(max) * 20 + 400) as f32 / 10.0 - 20.0
                }
            };
            let mut pb = PathBuilder::new();
            for _ in 0..1 + case % 3 {
                let (x, y) = (coord(w, x0), coord(h, 0.0));
                pb.move_to(x, y);
                for k in 0..case % 9 {
                    let (a, b) = (coord(w, x0), coord(h, 0.0));
                    match (case + k) % 6 {
                        0 | 1 => pb.line_to(a, b),
                        2 => pb.line_to(x, y), // back to the start
                        3 => pb.quad_to(a, b, coord(w, x0), coord(h, 0.0)),
                        4 => pb.cubic_to(x, y, a, b, coord(w, x0), coord(h, 0.0)), // control on start
                        _ => pb.cubic_to(
                            a,
                            b,
                            coord(w, x0),
                            coord(h, 0.0),
                            coord(w, x0),
                            coord(h, 0.0),
                        ),
                    }
                }
                if case % 4 < 2 {
                    pb.close();
                }
            }
            let Some(path) = pb.finish() else {
                continue;
            };
            let cap = [LineCap::Butt, LineCap::Round, LineCap::Square][(case % 3) as usize];
            // Transforms move the paths away from a tile's edge: identity there.
            let t = if x0 > 0.0 || inside {
                Transform::identity()
            } else {
                transforms[(case / 3 % 4) as usize]
            };
            let (list, offset) = ([3.0, 2.5], case as f32 % 4.0);
            let dash = (case % 5 == 4)
                .then(|| tiny_skia::StrokeDash::new(list.to_vec(), offset))
                .flatten();
            let st = Stroke {
                // A hairline: each mapped unit axis at most one pixel (`max + min / 2`).
                width: [0.5, 1.0, 0.25][(case % 3) as usize]
                    / (1.5 * t.sx.abs().max(t.sy.abs()).max(t.kx.abs()).max(t.ky.abs())),
                line_cap: cap,
                dash,
                ..Stroke::default()
            };
            let mut paint = Paint::default();
            paint.set_color_rgba8(20, 90, 200, [255, 130][(case % 2) as usize]);
            let mask = (case % 7 < 3 && x0 == 0.0).then_some(&mask);
            let mut expected = Pixmap::new(w, h).unwrap();
            expected.fill(tiny_skia::Color::from_rgba8(250, 240, 10, 90));
            let mut actual = expected.clone();
            expected.stroke_path(&path, &paint, &st, t, mask);
            let verbs = 1 + (case % 7) as usize;
            let cut = Cut {
                verbs,
                pixels: [f32::INFINITY, 30.0, 200.0][(case % 11 % 3) as usize],
            };
            // The pattern first, as the painter applies it.
            let dashed = match st.dash {
                Some(_) => {
                    let res = tiny_skia::PathStroker::compute_resolution_scale(&t);
                    crate::raster::dash::dash(&path, &list, offset, res, &|| false)
                }
                None => Some(path.clone()),
            };
            let undashed = Stroke {
                dash: None,
                ..st.clone()
            };
            if let Some(dashed) = dashed {
                stroke(
                    &mut actual,
                    &dashed,
                    &paint,
                    &undashed,
                    t,
                    mask,
                    cut,
                    &|| false,
                );
            }
            assert!(
                actual.data() == expected.data(),
                "case {case}: cap {cap:?}, {t:?}, runs of {verbs}: {path:?}"
            );
        }
    }

    /// A stop that fires after the first run leaves the rest of a long dashed hairline
    /// undrawn (the dash and the hairline were one call before).
    #[test]
    fn a_dashed_hairline_stops_between_runs() {
        let mut pb = PathBuilder::new();
        pb.move_to(0.0, 0.0);
        for i in 1..2000 {
            pb.line_to(i as f32 * 0.05, if i % 2 == 1 { 40.0 } else { 2.0 });
        }
        let path = pb.finish().unwrap();
        let st = Stroke {
            width: 0.5,
            dash: tiny_skia::StrokeDash::new(vec![4.0, 4.0], 0.0),
            ..Stroke::default()
        };
        let mut paint = Paint::default();
        paint.set_color_rgba8(0, 0, 0, 255);
        let painted = |p: &Pixmap| p.pixels().iter().filter(|px| px.alpha() > 0).count();
        let mut whole = Pixmap::new(100, 50).unwrap();
        let t = Transform::identity();
        whole.stroke_path(&path, &paint, &st, t, None);
        let polls = std::cell::Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 1 // after the first run
        };
        let mut cut = Pixmap::new(100, 50).unwrap();
        let runs = Cut {
            verbs: 100,
            pixels: f32::INFINITY,
        };
        let dashed = crate::raster::dash::dash(&path, &[4.0, 4.0], 0.0, 1.0, &|| false).unwrap();
        let st = Stroke { dash: None, ..st };
        stroke(&mut cut, &dashed, &paint, &st, t, None, runs, &stop);
        assert!(painted(&cut) > 0 && painted(&cut) < painted(&whole) / 2);
    }
}
