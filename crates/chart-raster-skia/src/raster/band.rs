//! Path coverage in horizontal bands, so that one huge fill can be stopped part-way.
//!
//! tiny-skia covers a path in one call that cannot be interrupted: a 250,000-point line with
//! `tension` and `fill` is one path of a quarter million curves and takes over a second. Here
//! such a path is covered band by band (a few dozen device rows each), with the render's stop
//! signal polled between bands.
//!
//! Each band is covered by tiny-skia itself, from a path that gives exactly the full path's
//! coverage on the band's rows: the scanline walk (`walk_edges` in tiny-skia's `scan/path.rs`)
//! covers a row from the edges crossing it only, so a run of segments lying wholly above or
//! below the band (with a margin) can be replaced by the chord joining its ends, which lies on
//! the same side (a curve stays in the hull of its control points). Kept segments are the
//! original ones, in their order, so their edges are built and sorted the same way, and two
//! zero-length subpaths at the corners of the original bounds keep the bounds, which decide
//! the walked rows, the blitter's span and whether tiny-skia's edge clipper runs. The rows
//! outside the band (covered by the chords) are thrown away.
//!
//! The one thing a chord can change inside the band is the order of two edges that are
//! exactly level with each other since before the band (coincident collinear edges, where
//! tiny-skia's insertion of a new edge among ties depends on the rightmost edge active at that
//! row); the unit tests, coincident vertical edges included, find no pixel where this shows.

use super::rect;
use tiny_skia::{Mask, Path, PathBuilder, PathSegment, Point};

/// When to cut a fill into bands.
#[derive(Debug, Clone, Copy)]
pub(super) struct Banding {
    /// Paths with fewer verbs are covered in one call: they are quick, and the extra passes
    /// would cost more than they save.
    pub min_verbs: usize,
    /// Device rows per band.
    pub rows: usize,
}

impl Banding {
    /// A path of 8,192 verbs covers in a few milliseconds; bands of 48 rows cut a 1,200-row
    /// bitmap into 25 pieces, each well under the 100 ms a cancelled render may take to stop.
    pub(super) const DEFAULT: Banding = Banding {
        min_verbs: 8192,
        rows: 48,
    };
}

/// How far (device px) past a band a segment may reach and still be drawn with it: the
/// supersampler rounds edge ends to a quarter pixel, so one pixel would do.
const MARGIN: f32 = 2.0;

/// Covers `path`, mapped by `t`, with tiny-skia's anti-aliased non-zero fill into `scratch`
/// (all zero on entry) and hands each row's covered stretch within the pixel box
/// `[x0, y0, x1, y1)` to `row(y, x, coverage)`, where `x` is the stretch's first column; the
/// box must hold everything the path can cover. `scratch` is all zero again on return.
/// `stop` is polled between bands: `false` when it stopped the fill (rows handed over until
/// then stay handed over).
pub(super) fn cover_rows(
    scratch: &mut Mask,
    path: &Path,
    t: tiny_skia::Transform,
    area: [usize; 4],
    banding: Banding,
    stop: &dyn Fn() -> bool,
    mut row: impl FnMut(usize, usize, &mut [u8]),
) -> bool {
    let [x0, y0, x1, y1] = area;
    let banded = (path.verbs().len() >= banding.min_verbs && y1 - y0 > banding.rows)
        .then(|| path.clone().transform(t))
        .flatten()
        .and_then(|device| Bands::new(&device, y0, y1, banding.rows));
    let Some(bands) = banded else {
        scratch.fill_path(path, tiny_skia::FillRule::Winding, true, t);
        drain(scratch, [x0, y0, x1, y1], y0..y1, &mut row);
        return true;
    };
    for k in 0..bands.count {
        if stop() {
            return false;
        }
        let (by0, by1) = (y0 + k * bands.rows, (y0 + (k + 1) * bands.rows).min(y1));
        let Some(p) = bands.path(k) else {
            continue;
        };
        scratch.fill_path(
            &p,
            tiny_skia::FillRule::Winding,
            true,
            tiny_skia::Transform::identity(),
        );
        drain(scratch, [x0, y0, x1, y1], by0..by1, &mut row);
        // What the chords covered outside the band.
        drain(scratch, [x0, y0, x1, y1], y0..by0, &mut |_, _, _| {});
        drain(scratch, [x0, y0, x1, y1], by1..y1, &mut |_, _, _| {});
    }
    true
}

/// Hands the covered stretch of each row of `rows` within the box to `row` and clears it.
fn drain(
    scratch: &mut Mask,
    [x0, _, x1, _]: [usize; 4],
    rows: std::ops::Range<usize>,
    row: &mut dyn FnMut(usize, usize, &mut [u8]),
) {
    let stride = scratch.width() as usize;
    let data = scratch.data_mut();
    for y in rows {
        let Some(cov) = data.get_mut(y * stride + x0..y * stride + x1) else {
            continue;
        };
        // A curve's bounds are mostly empty: only the covered stretch of a row is visited.
        let Some((first, last)) = rect::covered(cov) else {
            continue;
        };
        let stretch = &mut cov[first..=last];
        row(y, x0 + first, stretch);
        stretch.fill(0);
    }
}

/// The kind of a segment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Line,
    Quad,
    Cubic,
}

/// One segment of a device-space path, the closing line of a subpath included.
#[derive(Clone, Copy)]
struct Segment {
    /// Index of its subpath in [`Bands::starts`].
    subpath: u32,
    /// Line, quad or cubic (the closing line is a line).
    kind: Kind,
    /// The start point, then the control and end points (as many as the verb has).
    pts: [Point; 4],
}

impl Segment {
    fn end(&self) -> Point {
        match self.kind {
            Kind::Line => self.pts[1],
            Kind::Quad => self.pts[2],
            Kind::Cubic => self.pts[3],
        }
    }

    /// The lowest and highest y of its control points (the curve lies between).
    fn y_range(&self) -> (f32, f32) {
        let n = match self.kind {
            Kind::Line => 2,
            Kind::Quad => 3,
            Kind::Cubic => 4,
        };
        let ys = self.pts[..n].iter().map(|p| p.y);
        (
            ys.clone().fold(f32::INFINITY, f32::min),
            ys.fold(f32::NEG_INFINITY, f32::max),
        )
    }
}

/// A device-space path cut into the segments each band needs.
struct Bands {
    segments: Vec<Segment>,
    /// The first point of each subpath.
    starts: Vec<Point>,
    /// For each band, the segments reaching it, in path order.
    kept: Vec<Vec<u32>>,
    /// The original bounds (left, top, right, bottom).
    bounds: [f32; 4],
    /// The device row band 0 starts at.
    y0: usize,
    count: usize,
    rows: usize,
}

impl Bands {
    /// Bands of `rows` device rows from row `y0` to `y1`; `None` when the path has a
    /// non-finite point (the caller covers it in one call).
    fn new(path: &Path, y0: usize, y1: usize, rows: usize) -> Option<Bands> {
        let rows = rows.max(1);
        let count = (y1 - y0).div_ceil(rows);
        let b = path.bounds();
        let mut bands = Bands {
            segments: Vec::with_capacity(path.verbs().len()),
            starts: Vec::new(),
            kept: vec![Vec::new(); count],
            bounds: [b.left(), b.top(), b.right(), b.bottom()],
            y0,
            count,
            rows,
        };
        // The same walk as tiny-skia's edge iterator (`PathEdgeIter`): a subpath with
        // segments gets its closing line at its `Close`, at the next move or at the end.
        let (mut start, mut last) = (Point::zero(), Point::zero());
        let mut needs_close = false;
        for seg in path.segments() {
            let (kind, pts) = match seg {
                PathSegment::MoveTo(p) => {
                    if needs_close {
                        bands.push_close(start, last);
                        needs_close = false;
                    }
                    (start, last) = (p, p);
                    bands.starts.push(p);
                    continue;
                }
                PathSegment::Close => {
                    if needs_close {
                        bands.push_close(start, last);
                        needs_close = false;
                    }
                    continue;
                }
                PathSegment::LineTo(p) => (Kind::Line, [last, p, p, p]),
                PathSegment::QuadTo(c, p) => (Kind::Quad, [last, c, p, p]),
                PathSegment::CubicTo(c1, c2, p) => (Kind::Cubic, [last, c1, c2, p]),
            };
            let seg = Segment {
                subpath: u32::try_from(bands.starts.len().checked_sub(1)?).ok()?,
                kind,
                pts,
            };
            last = seg.end();
            needs_close = true;
            bands.push(seg)?;
        }
        if needs_close {
            bands.push_close(start, last);
        }
        Some(bands)
    }

    fn push_close(&mut self, start: Point, last: Point) {
        let Some(subpath) = self.starts.len().checked_sub(1) else {
            return;
        };
        let seg = Segment {
            subpath: subpath as u32,
            kind: Kind::Line,
            pts: [last, start, start, start],
        };
        // A closing line's points are points of the path, already known to be finite.
        let _ = self.push(seg);
    }

    /// Files a segment under the bands it may reach; `None` for a non-finite point.
    fn push(&mut self, seg: Segment) -> Option<()> {
        let (lo, hi) = seg.y_range();
        if !(lo.is_finite() && hi.is_finite()) {
            return None;
        }
        let index = u32::try_from(self.segments.len()).ok()?;
        let top = self.y0 as f32;
        let band = |y: f32| {
            let b = ((y - top) / self.rows as f32).floor();
            b.clamp(0.0, (self.count - 1) as f32) as usize
        };
        let (first, last) = (band(lo - MARGIN), band(hi + MARGIN));
        for list in &mut self.kept[first..=last] {
            list.push(index);
        }
        self.segments.push(seg);
        Some(())
    }

    /// The path for band `k`: the segments reaching it, each run of others replaced by its
    /// chord, and the original bounds. `None` when nothing reaches the band.
    fn path(&self, k: usize) -> Option<Path> {
        let kept = self.kept.get(k)?;
        if kept.is_empty() {
            return None;
        }
        let mut pb = PathBuilder::with_capacity(kept.len() + 8, kept.len() * 3 + 8);
        let [l, t, r, b] = self.bounds;
        for (x, y) in [(l, t), (r, b)] {
            pb.move_to(x, y);
            pb.line_to(x, y);
        }
        let mut subpath = None;
        let mut cur = Point::zero();
        for &i in kept {
            let seg = self.segments.get(i as usize)?;
            if subpath != Some(seg.subpath) {
                subpath = Some(seg.subpath);
                cur = *self.starts.get(seg.subpath as usize)?;
                pb.move_to(cur.x, cur.y);
            }
            let [p0, p1, p2, p3] = seg.pts;
            if cur != p0 {
                // The chord of the run left out, on the run's side of the band.
                pb.line_to(p0.x, p0.y);
            }
            match seg.kind {
                Kind::Line => pb.line_to(p1.x, p1.y),
                Kind::Quad => pb.quad_to(p1.x, p1.y, p2.x, p2.y),
                Kind::Cubic => pb.cubic_to(p1.x, p1.y, p2.x, p2.y, p3.x, p3.y),
            }
            cur = seg.end();
        }
        // Each subpath closes itself (the fill's implicit close): from the last kept
        // segment, that is the chord of the segments after it and of its closing line.
        pb.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A xorshift generator: the same cases on every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn coord(&mut self, max: u32) -> f32 {
            // Some points off the mask, so that tiny-skia's edge clipper runs too.
            self.below(100_000) as f32 / 100_000.0 * (max as f32 + 40.0) - 20.0
        }
    }

    /// A random path of `n` segments in a few subpaths: lines, quads and cubics, zigzags
    /// across many rows, and coincident vertical edges running both ways.
    fn random_path(rng: &mut Rng, n: usize, w: u32, h: u32) -> Path {
        let mut pb = PathBuilder::new();
        let mut cur = (rng.coord(w), rng.coord(h));
        pb.move_to(cur.0, cur.1);
        for i in 0..n {
            match rng.below(12) {
                0 => {
                    if rng.below(2) == 0 {
                        pb.close();
                    }
                    cur = (rng.coord(w), rng.coord(h));
                    pb.move_to(cur.0, cur.1);
                }
                1 | 2 => {
                    // Down and back up the same column, or a shared vertical run.
                    let y = rng.coord(h);
                    pb.line_to(cur.0, y);
                    pb.line_to(cur.0, cur.1);
                }
                3 | 4 => {
                    let (x, y) = (rng.coord(w), rng.coord(h));
                    pb.quad_to(rng.coord(w), rng.coord(h), x, y);
                    cur = (x, y);
                }
                5 | 6 => {
                    let (x, y) = (rng.coord(w), rng.coord(h));
                    pb.cubic_to(rng.coord(w), rng.coord(h), rng.coord(w), rng.coord(h), x, y);
                    cur = (x, y);
                }
                _ => {
                    // A small step, as a dense line chart makes.
                    let x = (cur.0 + (i % 5) as f32 * 0.7 - 1.4).clamp(-20.0, w as f32 + 20.0);
                    let y = (cur.1 + rng.below(41) as f32 - 20.0).clamp(-20.0, h as f32 + 20.0);
                    pb.line_to(x, y);
                    cur = (x, y);
                }
            }
        }
        pb.finish().expect("a path")
    }

    /// Coverage through [`cover_rows`] as a full mask, and whether the scratch was left zero.
    fn banded(path: &Path, t: tiny_skia::Transform, w: u32, h: u32, banding: Banding) -> Vec<u8> {
        let mut scratch = Mask::new(w, h).unwrap();
        let mut out = vec![0u8; (w * h) as usize];
        let done = cover_rows(
            &mut scratch,
            path,
            t,
            [0, 0, w as usize, h as usize],
            banding,
            &|| false,
            |y, x, cov| {
                let a = y * w as usize + x;
                out[a..a + cov.len()].copy_from_slice(cov);
            },
        );
        assert!(done);
        assert!(scratch.data().iter().all(|&v| v == 0), "scratch left dirty");
        out
    }

    #[test]
    fn bands_cover_exactly_as_one_fill() {
        let (w, h) = (120u32, 90u32);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..300 {
            let path = random_path(&mut rng, 10 + case % 60, w, h);
            let t = match case % 4 {
                0 => tiny_skia::Transform::from_row(1.25, 0.0, 0.0, 0.75, 3.5, -2.25),
                1 => tiny_skia::Transform::from_row(0.9, 0.3, -0.2, 1.1, 4.0, 1.0),
                _ => tiny_skia::Transform::identity(),
            };
            let mut expected = Mask::new(w, h).unwrap();
            expected.fill_path(&path, tiny_skia::FillRule::Winding, true, t);
            let banding = Banding {
                min_verbs: 0,
                rows: 1 + case % 13,
            };
            let actual = banded(&path, t, w, h, banding);
            if let Some(i) = (0..actual.len()).find(|&i| actual[i] != expected.data()[i]) {
                panic!(
                    "case {case} ({banding:?}): pixel ({}, {}) is {}, one fill gives {}",
                    i % w as usize,
                    i / w as usize,
                    actual[i],
                    expected.data()[i]
                );
            }
        }
    }

    #[test]
    fn small_paths_are_one_fill() {
        let mut rng = Rng(7);
        let path = random_path(&mut rng, 40, 60, 60);
        let mut expected = Mask::new(60, 60).unwrap();
        let t = tiny_skia::Transform::identity();
        expected.fill_path(&path, tiny_skia::FillRule::Winding, true, t);
        assert_eq!(banded(&path, t, 60, 60, Banding::DEFAULT), expected.data());
    }

    /// A stop raised between bands ends the fill there: rows of later bands are never
    /// handed over, and the scratch mask is left clean for the next fill.
    #[test]
    fn a_stop_ends_the_fill_between_bands() {
        let (w, h) = (100u32, 100u32);
        let mut pb = PathBuilder::new();
        pb.move_to(0.0, 100.0);
        for i in 0..=400 {
            let x = i as f32 / 4.0;
            pb.line_to(x, 5.0 + (i % 9) as f32 * 10.0);
        }
        pb.line_to(100.0, 100.0);
        let path = pb.finish().unwrap();
        let polls = Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 3
        };
        let mut scratch = Mask::new(w, h).unwrap();
        let lowest = Cell::new(0);
        let banding = Banding {
            min_verbs: 0,
            rows: 10,
        };
        let done = cover_rows(
            &mut scratch,
            &path,
            tiny_skia::Transform::identity(),
            [0, 0, 100, 100],
            banding,
            &stop,
            |y, _, _| lowest.set(lowest.get().max(y)),
        );
        assert!(!done, "the fill ran to its end");
        assert_eq!(polls.get(), 4, "the fill went on after the stop");
        assert!(
            lowest.get() < 30,
            "row {} is past the third band",
            lowest.get()
        );
        assert!(lowest.get() >= 20, "the third band was not drawn");
        assert!(scratch.data().iter().all(|&v| v == 0), "scratch left dirty");
    }
}
