//! A dash pattern applied in runs that a stop can come between.
//!
//! tiny-skia's `Path::dash` (Skia's `SkDashPath::InternalFilter`) makes all the dashes of a
//! path in one call: up to the 1,000,000 the guard lets through (`guard::MAX_DASH_COUNT`),
//! about 0.4 s in a release build that no stop could cut short. Every chart's dash pattern
//! is far below [`RUN_DASHES`] and is still one call. A longer one is cut into pieces of
//! about that many dashes, each dashed by tiny-skia from the phase the pattern has reached
//! there, with the stop polled between them:
//! - Skia starts every contour at the pattern's offset, so a piece of whole contours dashes
//!   as the one call does, byte for byte (a piece past half its length ends at the next
//!   contour, so that only contours longer than half a piece are ever cut);
//! - a contour longer than a piece is cut at segment boundaries (a segment longer than a
//!   piece, into equal parts) and each part starts at the phase reached along the contour,
//!   measured here (lines exactly, curves by chords). A dash across a cut becomes two
//!   dashes end to end, and a cut closed contour is dashed as an open one (its first dash
//!   is not joined to its last), so such a hostile pattern draws nearly, not exactly, what
//!   one call would.

use tiny_skia::{Path, PathBuilder, PathSegment, Point, StrokeDash};

/// Dashes made in one tiny-skia call at most, about 25 ms in a release build.
const RUN_DASHES: f64 = 65_536.0;
/// Chords a curve is measured by, at most (and at least 4); about one per dash between.
const MAX_CHORDS: f64 = 256.0;

/// `path` dashed with the canvas dash `list` (an odd list repeated, as `setLineDash`
/// repeats it) from `offset`, as tiny-skia's `Path::dash` dashes it at `res_scale`; `None`
/// when the pattern is not drawable, nothing is left to draw, the dasher gives up, or `stop`
/// ended the work.
pub(super) fn dash(
    path: &Path,
    list: &[f32],
    offset: f32,
    res_scale: f32,
    stop: &dyn Fn() -> bool,
) -> Option<Path> {
    let mut even = list.to_vec();
    if even.len() % 2 == 1 {
        even.extend_from_within(..);
    }
    let pattern = StrokeDash::new(even.clone(), offset)?;
    let interval: f64 = even.iter().map(|&d| f64::from(d)).sum();
    let per_px = (even.len() / 2) as f64 / interval;
    let polygon: f64 = path.points().windows(2).map(|w| distance(w[0], w[1])).sum();
    // A count past any budget (infinite: from coordinates the guard let through whole)
    // is tiny-skia's to refuse.
    let estimate = polygon * per_px;
    if !estimate.is_finite() || estimate <= RUN_DASHES {
        return path.dash(&pattern, res_scale);
    }
    let mut pieces = Pieces {
        out: PathBuilder::new(),
        piece: PathBuilder::new(),
        phase: None,
        length: 0.0,
        run_length: RUN_DASHES / per_px,
        list: even,
        interval,
        offset: f64::from(offset),
        res_scale,
    };
    let (mut start, mut at) = (Point::zero(), Point::zero());
    // Distance along the current contour, and whether a cut fell inside it.
    let mut along = 0.0;
    let mut cut = false;
    for seg in path.segments() {
        let (part, length) = match seg {
            PathSegment::MoveTo(p) => {
                // A piece past half its length ends between contours, so that a contour
                // shorter than half a piece is never cut.
                let full = pieces.length >= pieces.run_length / 2.0;
                if (pieces.phase.is_some() || full) && !pieces.flush(stop) {
                    return None;
                }
                pieces.piece.move_to(p.x, p.y);
                (start, at, along, cut) = (p, p, 0.0, false);
                continue;
            }
            PathSegment::Close => {
                // A closed contour kept whole is dashed as Skia dashes it (its first dash
                // joined to its last); a cut one, or one whose closing line is longer than
                // a piece, as an open one.
                let closing = distance(at, start);
                if !cut && closing < pieces.run_length {
                    pieces.piece.close();
                    pieces.length += closing;
                    at = start;
                    continue;
                }
                (Part::Line(start), closing)
            }
            PathSegment::LineTo(p) => (Part::Line(p), distance(at, p)),
            PathSegment::QuadTo(c, p) => (Part::Quad(c, p), curve_length(&[at, c, p], per_px)),
            PathSegment::CubicTo(c1, c2, p) => (
                Part::Cubic(c1, c2, p),
                curve_length(&[at, c1, c2, p], per_px),
            ),
        };
        // A segment of more than a piece's dashes is cut into equal parts, and a piece ends
        // before a part that would take it past its length.
        // (At most 16 parts within the guard's million dashes; the clamp only bounds
        // the parts of a path that did not pass the guard.)
        let k = (length * per_px / RUN_DASHES).ceil().clamp(1.0, 1024.0);
        let mut from = at;
        for p in split(at, &part, k as usize) {
            if pieces.length > 0.0 && pieces.length + length / k > pieces.run_length {
                if !pieces.flush(stop) {
                    return None;
                }
                pieces.piece.move_to(from.x, from.y);
                // At a contour's start the new piece starts it whole.
                if along > 0.0 {
                    pieces.phase = Some(along);
                    cut = true;
                }
            }
            p.push(&mut pieces.piece);
            along += length / k;
            pieces.length += length / k;
            from = p.end();
        }
        at = part.end();
    }
    if !pieces.flush(stop) {
        return None;
    }
    pieces.out.finish()
}

/// The pieces of a long path being dashed.
struct Pieces {
    /// The dashes so far.
    out: PathBuilder,
    /// The piece being gathered.
    piece: PathBuilder,
    /// Where along its contour the piece starts, when it starts inside one (then it holds
    /// that contour's rest only).
    phase: Option<f64>,
    /// The piece's length (px).
    length: f64,
    /// The length of about [`RUN_DASHES`] dashes.
    run_length: f64,
    list: Vec<f32>,
    interval: f64,
    offset: f64,
    res_scale: f32,
}

impl Pieces {
    /// Dashes the piece gathered into `out` and starts an empty one; `false` when `stop`
    /// asks to end.
    fn flush(&mut self, stop: &dyn Fn() -> bool) -> bool {
        let piece = std::mem::replace(&mut self.piece, PathBuilder::new());
        let phase = (self.offset + self.phase.take().unwrap_or(0.0)).rem_euclid(self.interval);
        self.length = 0.0;
        let dashed = piece.finish().and_then(|p| {
            let pattern = StrokeDash::new(self.list.clone(), phase as f32)?;
            p.dash(&pattern, self.res_scale)
        });
        if let Some(d) = dashed {
            self.out.push_path(&d);
        }
        !stop()
    }
}

/// A segment, or a part of one, from the current point.
#[derive(Clone, Copy)]
enum Part {
    Line(Point),
    Quad(Point, Point),
    Cubic(Point, Point, Point),
}

impl Part {
    fn push(&self, pb: &mut PathBuilder) {
        match *self {
            Part::Line(p) => pb.line_to(p.x, p.y),
            Part::Quad(c, p) => pb.quad_to(c.x, c.y, p.x, p.y),
            Part::Cubic(c1, c2, p) => pb.cubic_to(c1.x, c1.y, c2.x, c2.y, p.x, p.y),
        }
    }

    fn end(&self) -> Point {
        match *self {
            Part::Line(p) | Part::Quad(_, p) | Part::Cubic(_, _, p) => p,
        }
    }
}

fn distance(a: Point, b: Point) -> f64 {
    let (dx, dy) = (
        f64::from(b.x) - f64::from(a.x),
        f64::from(b.y) - f64::from(a.y),
    );
    (dx * dx + dy * dy).sqrt()
}

/// The point at `t` of the Bézier curve of control points `pts` (de Casteljau), in f64.
fn at_t(pts: &[Point], t: f64) -> (f64, f64) {
    // A line, quad or cubic: at most 4 points, kept on the stack (a curve is measured by up
    // to 256 of these).
    let mut xs = [(0.0, 0.0); 4];
    let n = pts.len().min(4);
    for (x, p) in xs.iter_mut().zip(&pts[..n]) {
        *x = (f64::from(p.x), f64::from(p.y));
    }
    for n in (1..n).rev() {
        for i in 0..n {
            let (a, b) = (xs[i], xs[i + 1]);
            xs[i] = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        }
    }
    xs[0]
}

/// A curve's length by chords, about one per dash along its control polygon (4 to
/// [`MAX_CHORDS`]).
fn curve_length(pts: &[Point], per_px: f64) -> f64 {
    let polygon: f64 = pts.windows(2).map(|w| distance(w[0], w[1])).sum();
    let n = (polygon * per_px).ceil().clamp(4.0, MAX_CHORDS) as usize;
    let mut last = at_t(pts, 0.0);
    let mut length = 0.0;
    for i in 1..=n {
        let p = at_t(pts, i as f64 / n as f64);
        let (dx, dy) = (p.0 - last.0, p.1 - last.1);
        length += (dx * dx + dy * dy).sqrt();
        last = p;
    }
    length
}

/// The control points of the part of the curve `pts` between `t0` and `t1` (de Casteljau:
/// the part after `t0`, then of that the part before the matching parameter).
fn sub_curve(pts: &[Point], t0: f64, t1: f64) -> Vec<(f64, f64)> {
    let lerp =
        |a: (f64, f64), b: (f64, f64), t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let n = pts.len();
    let mut level: Vec<(f64, f64)> = pts
        .iter()
        .map(|p| (f64::from(p.x), f64::from(p.y)))
        .collect();
    // The part after t0: the last point of each level, back to front.
    let mut right = vec![level[n - 1]];
    for k in 1..n {
        for i in 0..n - k {
            level[i] = lerp(level[i], level[i + 1], t0);
        }
        right.push(level[n - k - 1]);
    }
    right.reverse();
    // Of that, the part before `t1`: the first point of each level.
    let u = if t0 < 1.0 {
        (t1 - t0) / (1.0 - t0)
    } else {
        1.0
    };
    let mut left = vec![right[0]];
    for k in 1..n {
        for i in 0..n - k {
            right[i] = lerp(right[i], right[i + 1], u);
        }
        left.push(right[0]);
    }
    left
}

/// `part` (from `from`) cut into `k` equal parts: a line by length, a curve by parameter.
fn split(from: Point, part: &Part, k: usize) -> Vec<Part> {
    if k <= 1 {
        return vec![*part];
    }
    let pt = |(x, y): (f64, f64)| Point::from_xy(x as f32, y as f32);
    let end = part.end();
    (1..=k)
        .map(|i| {
            let (t0, t1) = ((i - 1) as f64 / k as f64, i as f64 / k as f64);
            // The last part ends exactly where the segment does.
            let last = i == k;
            match *part {
                Part::Line(p) => Part::Line(if last { p } else { pt(at_t(&[from, p], t1)) }),
                Part::Quad(c, p) => {
                    let s = sub_curve(&[from, c, p], t0, t1);
                    Part::Quad(pt(s[1]), if last { end } else { pt(s[2]) })
                }
                Part::Cubic(c1, c2, p) => {
                    let s = sub_curve(&[from, c1, c2, p], t0, t1);
                    Part::Cubic(pt(s[1]), pt(s[2]), if last { end } else { pt(s[3]) })
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verbs_and_points(p: &Path) -> (Vec<PathSegment>, Vec<Point>) {
        (p.segments().collect(), p.points().to_vec())
    }

    fn moves(p: &Path) -> usize {
        p.segments()
            .filter(|s| matches!(s, PathSegment::MoveTo(_)))
            .count()
    }

    /// A chart's pattern is one tiny-skia call, as before, and asks no stop.
    #[test]
    fn a_short_pattern_is_one_call() {
        let mut pb = PathBuilder::new();
        pb.move_to(1.0, 2.0);
        pb.line_to(300.0, 40.0);
        pb.quad_to(500.0, 10.0, 600.0, 300.0);
        pb.close();
        let path = pb.finish().unwrap();
        let never = || -> bool { panic!("asked") };
        for (list, offset) in [
            (vec![5.0, 3.0], 0.0),
            (vec![4.0], 2.5),
            (vec![1.0, 2.0, 3.0], -7.0),
        ] {
            let mut even = list.clone();
            if even.len() % 2 == 1 {
                even.extend_from_within(..);
            }
            let theirs = path
                .dash(&StrokeDash::new(even, offset).unwrap(), 1.0)
                .unwrap();
            let ours = dash(&path, &list, offset, 1.0, &never).unwrap();
            assert_eq!(verbs_and_points(&ours), verbs_and_points(&theirs));
        }
    }

    /// Many short contours (a grid, a dataset's many lines) over the run size are dashed in
    /// pieces of whole contours: byte for byte what the one call makes.
    #[test]
    fn whole_contours_in_runs_dash_as_one_call() {
        let mut pb = PathBuilder::new();
        for i in 0..3_000 {
            let (x, y) = ((i % 50) as f32 * 20.0, (i / 50) as f32 * 7.0);
            pb.move_to(x, y);
            pb.line_to(x + 15.0, y + 3.0);
            if i % 3 == 0 {
                pb.quad_to(x + 30.0, y, x + 12.0, y + 6.0);
            }
            if i % 2 == 0 {
                pb.close();
            }
        }
        let path = pb.finish().unwrap();
        let list = [0.25, 0.125];
        let polls = std::cell::Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            false
        };
        let theirs = path.dash(&StrokeDash::new(list.to_vec(), 0.1).unwrap(), 1.0);
        let ours = dash(&path, &list, 0.1, 1.0, &stop);
        assert!(polls.get() > 2, "{}", polls.get());
        assert_eq!(
            verbs_and_points(&ours.unwrap()),
            verbs_and_points(&theirs.unwrap())
        );
    }

    /// A line of a million dashes (the most the guard lets through) is dashed in pieces with
    /// the stop polled between them, and a stop already set ends the work after the first:
    /// one tiny-skia call made them all, about 0.4 s that nothing could cut short.
    #[test]
    fn a_million_dashes_stop_between_pieces() {
        let mut pb = PathBuilder::new();
        pb.move_to(0.0, 5.0);
        pb.line_to(1_000_000.0, 5.0);
        let path = pb.finish().unwrap();
        let polls = std::cell::Cell::new(0);
        let count = || {
            polls.set(polls.get() + 1);
            false
        };
        let ours = dash(&path, &[0.5, 0.5], 0.0, 1.0, &count).unwrap();
        assert!(polls.get() >= 15, "{}", polls.get());
        let set = || true;
        assert!(dash(&path, &[0.5, 0.5], 0.0, 1.0, &set).is_none());
        // Nearly what the one call makes: the same extent, a dash cut in two at most at
        // each piece's end.
        let theirs = path
            .dash(&StrokeDash::new(vec![0.5, 0.5], 0.0).unwrap(), 1.0)
            .unwrap();
        assert!(
            moves(&ours).abs_diff(moves(&theirs)) <= polls.get(),
            "{} {}",
            moves(&ours),
            moves(&theirs)
        );
        assert!((ours.bounds().right() - theirs.bounds().right()).abs() <= 1.0);
        assert!((ours.bounds().left() - theirs.bounds().left()).abs() <= 1.0);
    }

    /// A long curve is cut by parameter, its parts measured by chords: the dashes go on
    /// along it in phase, nearly where the one call puts them.
    #[test]
    fn a_long_curve_is_cut_in_phase() {
        let mut pb = PathBuilder::new();
        pb.move_to(0.0, 0.0);
        pb.cubic_to(100_000.0, 200_000.0, 200_000.0, -200_000.0, 300_000.0, 0.0);
        let path = pb.finish().unwrap();
        let list = [3.0, 2.0];
        let ours = dash(&path, &list, 0.0, 1.0, &|| false).unwrap();
        let theirs = path
            .dash(&StrokeDash::new(list.to_vec(), 0.0).unwrap(), 1.0)
            .unwrap();
        let (a, b) = (moves(&ours) as f64, moves(&theirs) as f64);
        assert!((a - b).abs() / b < 0.001, "{a} {b}");
        let (ob, tb) = (ours.bounds(), theirs.bounds());
        assert!((ob.top() - tb.top()).abs() < 2.0 && (ob.bottom() - tb.bottom()).abs() < 2.0);
    }
}
