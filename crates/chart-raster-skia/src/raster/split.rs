//! One bitmap drawn by two painters on two threads, each answerable for a band of rows: the
//! top one for rows `..s`, the bottom one for rows `s..`, in a bitmap of its own.
//!
//! Both draw every item in order. Our own fillers write only the painter's rows (the
//! supersampler walks its edges to the band's first row without blitting, see
//! `supersample::jump`; rectangles, rings and glyph masks cover row by row); what
//! tiny-skia's pipeline draws (gradients, hairlines, paths it clips) is drawn whole by
//! both, its rows outside the band left as scratch. Every blend reads and writes one pixel
//! only, and the coverage of a pixel row depends on nothing outside it (the supersampler's
//! rows are the whole walk's), so each band's rows come out as one painter would draw them,
//! whatever the other does: the image never depends on whether a second thread drew it.
//! An item whose device bounds miss a painter's band is skipped by that painter; a mask
//! that is composited later (a shadow's shape) is still drawn whole.
//!
//! Drawn for a consumer of its bands (`bands.rs`: the PNG encoder), the bottom painter
//! answers for the row above its band too, and each band goes to the consumer on its own
//! thread; no rows are copied.

use super::overdraw::is_cheap;
use super::shadow::item_bounds;
use crate::scene::{Item, Path, PathCmd, Scene, TextItem, Transform};

/// The second painter's thread when no long-lived one is lent ([`super::Threads::Two`]
/// without a lender, the tests): one started for the render, or none to be had (a process
/// limit): then both bands are drawn here, one after the other.
pub(super) struct Started;

impl crate::SecondThread for Started {
    fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut()) {
        let started = std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("raster-band".into())
                .spawn_scoped(scope, &mut *there);
            here();
            match spawned.map(|spawned| spawned.join()) {
                Ok(Ok(())) => true,
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
                Err(_) => false,
            }
        });
        if !started {
            there();
        }
    }
}

/// The first row of the bottom band of a `height`-row bitmap, where the two painters' work
/// is about even, or `None` when the scene is not worth two threads (with `must_pay`, also
/// when a second painter would not save more than it costs: [`pays`]). It depends on the
/// scene alone: the rows a painter writes never depend on timing.
///
/// The work of a row is guessed from the items' geometry (`RowWork`): a stroke weighs on
/// the rows each of its segments crosses (the edges it adds to the walk and the stroke's
/// width), a fill as wide as its outline is on each row plus its edges there, text from
/// its anchor and size; solid rectangles (a store per row) are left out.
pub(super) fn split_row(
    scene: &Scene,
    base: Transform,
    (width, height): (u32, u32),
    must_pay: bool,
) -> Option<u32> {
    /// The top band's thread also copies the bottom band's rows in at the end: it takes a
    /// little less of the drawing. (Drawn for a band consumer, nothing is copied and each
    /// thread encodes its own band; the share was not measured again for that.)
    const TOP_SHARE: f64 = 0.48;
    if !worth_splitting(width, height) {
        return None;
    }
    let mut work = RowWork::new(height as usize);
    for item in &scene.items {
        work.add_item(item, base);
    }
    let rows = work.rows();
    let total: f64 = rows.iter().sum();
    if must_pay && !pays(total, work.long_commands) {
        return None;
    }
    let s = if total > 0.0 && total.is_finite() {
        // The bottom painter also orders the long strokes' edges above its band (see
        // `RowWork::order`): the top band's share counts that too.
        let (mut seen, mut above) = (0.0, 0.0);
        rows.iter()
            .zip(work.order_rows())
            .position(|(v, o)| {
                seen += v;
                above += o;
                seen >= (total + above) * TOP_SHARE
            })
            .map_or(height / 2, |s| s as u32 + 1)
    } else {
        height / 2
    };
    // At least a few rows each: a band of none would leave a thread idle.
    Some(s.clamp(MIN_ROWS / 4, height - MIN_ROWS / 4))
}

/// Whether a second painter saves more than it costs, from the guessed work of the whole
/// scene (`total`, in pixels blended) and the commands of its long paths (`long_commands`,
/// see [`RowWork::long_commands`]).
///
/// The painters share the blending and each skips whole the items that miss its band
/// (point markers), but each builds again the outline and edges of every long path that
/// crosses its band (those are what both do twice), and the split itself costs waking the
/// lent thread, a second bitmap's band and the copy of its rows (~0.3 ms for 800×600 at
/// dpr 2). Measured through the service with a core idle (2026-11-27: requests sent only
/// while the kernel counted no other runnable thread, one thread against two, medians of
/// 40 alternating pairs, 2–4 runs; guessed work in M pixels, guessed work per long-path
/// command): scatter 10,000 (9.9 M, 410 k) 0.70, scatter 1,000 (2.0 M, 83 k) 0.81,
/// area (3.2 M, 12.7 k) 0.79–0.81, line (2.7 M, 13.5 k) 0.81–0.94, radar (1.2 M, 7.6 k)
/// 0.86–0.88, polar area (1.1 M, 8.3 k) 0.93–0.98, pie (1.4 M, 16 k) 0.94–0.99, bar with
/// borders (2.2 M, 8.2 k) 0.92–1.01 of one thread's time; the bubble chart (0.9 M) 0.90–1.02
/// and the 10,000-point time series (7.9 M over 3,139 commands, 2.5 k) 1.02–1.05, slower:
/// its bottom painter could not jump the walk's list to its band (the sides of neighbouring
/// vertical runs share an x) and walked all of it from the top. Ordering the edges there
/// without their spans (`supersample::cover`, weighed in [`RowWork::order`]), each of its
/// painters draws in 2.6–2.9 ms against one thread's 4.2–4.5 (in-process, min of 20, the
/// split row moved from 630 to 710 of 1,200). Through the service with the client idling
/// 20 ms before each request, as bench-peers does, a lent core gained nothing while the
/// kernel woke it on the render's own CPU (13.5–14.0 against 12.9–13.1 ms); kept off that
/// CPU (`cores.rs`), one binary with and without `RASTER_THREADS=2` measured medians of
/// 10.7 against 11.4 ms (6 runs of 40 pairs, 20 ms idle) and 10.1–10.4 against 13.5–15.9
/// (4 runs, back to back, load 2.5–3): the least work per command is now below its 2.5 k
/// and above none of the others'.
/// The idle-core rule lends a core whenever the kernel counts one idle at that instant,
/// which a loaded service often does between two requests: with a million pixels of work
/// as the least, a soak of the bar chart with borders (`xtask loadtest --soak`) got 45%
/// fewer answers through; so the least is above that chart's and the pie's, whose gains
/// were within noise, giving up those of the radar and polar area charts.
///
/// A scene of point markers and few long paths (scatter 1,000: 2.0 M, 83 k per command)
/// pays at less work: its painters repeat almost nothing, and since each core goes on from
/// its band to encoding it (`bands.rs`), the split saves the encoder's own hand-off too.
fn pays(total: f64, long_commands: usize) -> bool {
    let per_command = |least: f64| total >= least * long_commands as f64;
    (total >= MIN_WORK && per_command(WORK_PER_COMMAND))
        || (total >= MIN_MARKER_WORK && per_command(MARKER_WORK_PER_COMMAND))
}

/// The least guessed work of a scene of markers and few long paths that pays.
const MIN_MARKER_WORK: f64 = 1_500_000.0;

/// The least guessed work per long-path command of such a scene.
const MARKER_WORK_PER_COMMAND: f64 = 50_000.0;

/// The least guessed work (pixels blended) that pays for a second painter.
const MIN_WORK: f64 = 2_500_000.0;

/// The least guessed work per command of the long paths that pays for building their
/// outlines and edges twice.
const WORK_PER_COMMAND: f64 = 1_500.0;

/// Fewer rows and the second thread costs more than it saves (a thread costs about 30 µs
/// to start and join).
const MIN_ROWS: u32 = 256;

/// Whether a `width × height` bitmap may be split at all (the engine's second core is
/// asked for only then). Not one larger than the pool keeps (32 MB, 2,900 × 2,900 px): the
/// second bitmap would double a huge render's memory (a bitmap may take 200 MB).
pub(super) fn worth_splitting(width: u32, height: u32) -> bool {
    let bytes = u64::from(width) * u64::from(height) * 4;
    height >= MIN_ROWS && width > 0 && bytes <= super::pool::MAX_BUFFER_BYTES as u64
}

/// The guessed work of each pixel row, as differences: row `y` does
/// `constant[..=y].sum() + slope[..=y].sum() · y` (in pixels blended).
struct RowWork {
    constant: Vec<f64>,
    slope: Vec<f64>,
    /// The ordering of the long strokes' edges on each row, as differences: what the
    /// bottom painter does on the rows above its band when the walk's list cannot be
    /// jumped there (neighbouring segments' sides at one x, as a time series' vertical
    /// runs have: see `supersample::cover`), the edges stepped and kept in order without
    /// their spans.
    order: Vec<f64>,
    /// A stroke's segments' rows being read (kept from item to item).
    segments: Vec<(f64, f64)>,
    /// A fill's contour being read (kept from item to item).
    contour: Vec<[f64; 2]>,
    /// The commands of the long paths weighed (not small, not cheap): what each painter
    /// whose band they cross outlines and walks again.
    long_commands: usize,
}

impl RowWork {
    /// A row's cost of one edge of the walk, in pixels blended.
    const EDGE: f64 = 16.0;
    /// A row's cost of one edge stepped and kept in order without its spans (the time
    /// series' bottom painter ordering the rows above its band: a third of its walk's
    /// edge steps, the spans and their blending left out).
    const ORDER: f64 = 9.0;
    /// Paths of at most this many commands (a circle, a rectangle) weigh by their bounds.
    const SMALL: usize = 8;

    fn new(height: usize) -> Self {
        Self {
            constant: vec![0.0; height + 1],
            slope: vec![0.0; height + 1],
            order: vec![0.0; height + 1],
            segments: Vec::new(),
            contour: Vec::new(),
            long_commands: 0,
        }
    }

    /// Adds `c + s·y` to every row `y` of `[y0, y1)` within the bitmap.
    fn add(&mut self, (y0, y1): (f64, f64), c: f64, s: f64) {
        let h = (self.constant.len() - 1) as f64;
        let (r0, r1) = (y0.max(0.0).floor(), y1.min(h).ceil());
        if !(r0 < r1 && c.is_finite() && s.is_finite()) {
            return;
        }
        let (r0, r1) = (r0 as usize, r1 as usize);
        self.constant[r0] += c;
        self.constant[r1] -= c;
        self.slope[r0] += s;
        self.slope[r1] -= s;
    }

    /// Adds `c` to the ordering work of every row of `[y0, y1)` within the bitmap.
    fn add_order(&mut self, (y0, y1): (f64, f64), c: f64) {
        let h = (self.order.len() - 1) as f64;
        let (r0, r1) = (y0.max(0.0).floor(), y1.min(h).ceil());
        if r0 < r1 && c.is_finite() {
            self.order[r0 as usize] += c;
            self.order[r1 as usize] -= c;
        }
    }

    /// Each row's ordering work (see [`RowWork::order`]).
    fn order_rows(&self) -> impl Iterator<Item = f64> + '_ {
        let n = self.order.len() - 1;
        self.order[..n].iter().scan(0.0, |o, d| {
            *o += d;
            Some(f64::max(*o, 0.0))
        })
    }

    /// Each row's work (none below 0: a self-crossing fill's widths may cancel).
    fn rows(&self) -> Vec<f64> {
        let (mut c, mut s) = (0.0, 0.0);
        let n = self.constant.len() - 1;
        (0..n)
            .map(|y| {
                c += self.constant[y];
                s += self.slope[y];
                (c + s * (y as f64 + 0.5)).max(0.0)
            })
            .collect()
    }

    fn add_item(&mut self, item: &Item, base: Transform) {
        let item = match item {
            Item::Shadowed { item, .. } => &**item,
            other => other,
        };
        let (path, t, pad) = match item {
            Item::Fill {
                path, transform, ..
            } => (path, base.then(*transform), 0.0),
            Item::Stroke {
                path,
                transform,
                stroke,
                ..
            } => {
                let t = base.then(*transform);
                let pad = f64::from(stroke.width.abs() * 0.5 * super::guard::max_scale(t)) + 1.0;
                (path, t, pad)
            }
            Item::Text(text) => return self.add_text(text, base),
            _ => return,
        };
        match Self::small_box(path, t) {
            Some(b) => self.add_small(b, pad),
            None if !is_cheap(item, t) => {
                self.long_commands += path.cmds.len();
                match item {
                    Item::Fill { .. } => self.add_fill(path, t),
                    _ => self.add_stroke(path, t, pad),
                }
            }
            None => {}
        }
    }

    /// The device bounds of a small path (a point marker, a short rectangle: a few
    /// commands, a few rows); `None` for any other path.
    fn small_box(path: &Path, t: Transform) -> Option<[f64; 4]> {
        /// Rows of a small path at most.
        const ROWS: f64 = 64.0;
        if path.cmds.len() > Self::SMALL {
            return None;
        }
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        for cmd in &path.cmds {
            cmd.for_each_point(|x, y| {
                if let Some([x, y]) = device(t, x, y) {
                    b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
            });
        }
        (b[3] - b[1] <= ROWS).then_some(b)
    }

    /// A small path's bounds `b` grown by `pad`, as wide on every row, with two edges.
    fn add_small(&mut self, b: [f64; 4], pad: f64) {
        let wide = b[2] - b[0] + 2.0 * pad;
        self.add((b[1] - pad, b[3] + pad), wide + 2.0 * Self::EDGE, 0.0);
    }

    /// A stroke: each segment weighs on the rows its points span (grown by `pad`), with two
    /// edges and the stroke's width on each, and its length across them. A stroke with
    /// vertical runs (a dense time series, Chart.js drawing each pixel column's values as
    /// one run) also weighs with its edges' ordering ([`RowWork::order`]): the sides of
    /// runs at one x are what keeps the bottom painter from jumping to its band.
    fn add_stroke(&mut self, path: &Path, t: Transform, pad: f64) {
        let mut rows = std::mem::take(&mut self.segments);
        rows.clear();
        let mut vertical = 0usize;
        let mut segment = |hull: [f64; 4], line: bool| {
            let (top, bottom) = (hull[1] - pad, hull[3] + pad);
            let across = (hull[2] - hull[0]) / (bottom - top).max(1.0);
            self.add((top, bottom), 2.0 * Self::EDGE + 2.0 * pad + across, 0.0);
            rows.push((top, bottom));
            vertical += usize::from(line && hull[0] == hull[2] && hull[1] < hull[3]);
        };
        let (mut start, mut current) = (None, None);
        for cmd in &path.cmds {
            let end = match *cmd {
                PathCmd::MoveTo(x, y) => {
                    start = device(t, x, y);
                    current = start;
                    continue;
                }
                PathCmd::Close => start,
                _ => cmd_end(cmd).and_then(|(x, y)| device(t, x, y)),
            };
            if let (Some(a), Some(b)) = (current, end) {
                let mut hull = [
                    a[0].min(b[0]),
                    a[1].min(b[1]),
                    a[0].max(b[0]),
                    a[1].max(b[1]),
                ];
                cmd.for_each_point(|x, y| {
                    if let Some([x, y]) = device(t, x, y) {
                        hull = [
                            hull[0].min(x),
                            hull[1].min(y),
                            hull[2].max(x),
                            hull[3].max(y),
                        ];
                    }
                });
                segment(hull, matches!(cmd, PathCmd::LineTo(..) | PathCmd::Close));
            }
            current = end;
        }
        if vertical >= 2 {
            for &r in &rows {
                self.add_order(r, 2.0 * Self::ORDER);
            }
        }
        self.segments = rows;
    }

    /// A fill: on each row, the width its contours' chords enclose (the signed sum of the
    /// crossing chords' x, each contour oriented by its area) and an edge per chord.
    fn add_fill(&mut self, path: &Path, t: Transform) {
        let mut contour = std::mem::take(&mut self.contour);
        contour.clear();
        for cmd in &path.cmds {
            match *cmd {
                PathCmd::MoveTo(x, y) => {
                    self.add_polygon(&contour);
                    contour.clear();
                    contour.extend(device(t, x, y));
                }
                PathCmd::Close => {
                    self.add_polygon(&contour);
                    // A segment after a close starts from the contour's first point.
                    contour.truncate(1);
                }
                _ => contour.extend(cmd_end(cmd).and_then(|(x, y)| device(t, x, y))),
            }
        }
        self.add_polygon(&contour);
        self.contour = contour;
    }

    /// A closed polygon's rows: its width on each and an edge per side.
    fn add_polygon(&mut self, points: &[[f64; 2]]) {
        if points.len() < 3 {
            return;
        }
        let sides = || points.iter().zip(points.iter().cycle().skip(1));
        let area: f64 = sides().map(|(a, b)| a[0] * b[1] - b[0] * a[1]).sum();
        let o = if area < 0.0 { -1.0 } else { 1.0 };
        for (&[x0, y0], &[x1, y1]) in sides() {
            if y0 == y1 {
                continue;
            }
            // x on the side at row y is `x0 + (y - y0)·k`; downward sides count as right.
            let dir = if y1 > y0 { o } else { -o };
            let k = (x1 - x0) / (y1 - y0);
            let rows = (y0.min(y1), y0.max(y1));
            self.add(rows, dir * (x0 - y0 * k) + Self::EDGE, dir * k);
        }
    }

    /// A line of text, guessed from its anchor and font size (a glyph about 0.6 em wide,
    /// the line within an em of the anchor).
    fn add_text(&mut self, text: &TextItem, base: Transform) {
        let t = base.then(text.transform);
        let (_, y) = t.apply(text.x, text.y);
        let em = f64::from(text.font.size * super::guard::max_scale(t));
        if !(em.is_finite() && y.is_finite()) {
            return;
        }
        let y = f64::from(y);
        let wide = text.text.chars().count() as f64 * 0.6 * em;
        self.add((y - em, y + em), wide, 0.0);
    }
}

/// `(x, y)` mapped by `t`, when finite.
fn device(t: Transform, x: f32, y: f32) -> Option<[f64; 2]> {
    let (x, y) = t.apply(x, y);
    (x.is_finite() && y.is_finite()).then(|| [f64::from(x), f64::from(y)])
}

/// Where a drawing command ends (`None` for a move or a close).
fn cmd_end(cmd: &PathCmd) -> Option<(f32, f32)> {
    match *cmd {
        PathCmd::LineTo(x, y)
        | PathCmd::QuadTo(_, _, x, y)
        | PathCmd::CubicTo(_, _, _, _, x, y) => Some((x, y)),
        PathCmd::MoveTo(..) | PathCmd::Close => None,
    }
}

/// Whether `item` (under the device transform `base`) certainly draws nothing on the pixel
/// rows `rows`: a fill's or stroke's device bounds (grown by what the stroke's joins and
/// caps reach, see `shadow.rs`) and two pixels of anti-aliasing miss them. Other items
/// (text, clips, shadows, whose blur reaches past the shape) are never skipped.
pub(super) fn misses(item: &Item, base: Transform, rows: &std::ops::Range<u32>) -> bool {
    if let Item::Stroke { stroke, .. } = item {
        // The bounds take a miter limit of 1.5 for one that is not a number, where the
        // guard draws with the canvas default.
        if !stroke.miter_limit.is_finite() {
            return false;
        }
    }
    let Some([_, y0, _, y1]) = item_bounds(item, base) else {
        return false; // text, clips, shadows, nothing finite: left to the painter
    };
    y1 + 2.0 < rows.start as f32 || y0 - 2.0 > rows.end as f32
}

#[cfg(test)]
mod tests {
    use super::super::bands::{draw_bands, Drawn};
    use super::super::{rasterize_until, Canvas, Job, Reuse, Split};
    use crate::raster::painter::tests::xorshift;
    use crate::scene::{
        Item, LineCap, LineJoin, Paint, Path, Scene, Shadow, Stroke, TextAlign, TextBaseline,
        TextItem, Transform,
    };
    use crate::text::TextEngine;
    use chart_spec::Rgba;

    /// A random scene of what charts draw and what they could: fills and strokes (curves,
    /// circles, long polylines, rectangles, rings), hairlines, dashes, gradients (tiny-skia's
    /// pipeline), rectangle and path clips, text (straight and rotated), shadows, items
    /// partly or wholly outside the canvas.
    fn random_scene(seed: u64) -> Scene {
        let mut next = xorshift(seed);
        let (w, h) = (200.0f32, 150.0f32);
        let coord = |max: f32, next: &mut dyn FnMut(u64) -> u64| {
            next((max * 1.2 * 64.0) as u64) as f32 / 64.0 - max * 0.1
        };
        let mut items = Vec::new();
        let mut clips = 0;
        for k in 0..40 {
            let colour = Rgba {
                r: next(256) as u8,
                g: next(256) as u8,
                b: next(256) as u8,
                a: if k % 3 == 0 { 255 } else { 1 + next(255) as u8 },
            };
            let mut path = Path::new();
            match next(6) {
                0 => {
                    let (x, y) = (coord(w, &mut next), coord(h, &mut next));
                    path.rect(x, y, coord(60.0, &mut next), coord(60.0, &mut next));
                }
                1 => {
                    let (x, y) = (coord(w, &mut next), coord(h, &mut next));
                    path.circle(x, y, 0.5 + coord(40.0, &mut next).abs());
                }
                2 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    for _ in 0..2 + next(60) {
                        path.line_to(coord(w, &mut next), coord(h, &mut next));
                    }
                }
                3 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    for _ in 0..1 + next(20) {
                        let (c1, c2) = (coord(w, &mut next), coord(h, &mut next));
                        let (c3, c4) = (coord(w, &mut next), coord(h, &mut next));
                        path.cubic_to(c1, c2, c3, c4, coord(w, &mut next), coord(h, &mut next));
                    }
                    path.close();
                }
                4 => {
                    path.move_to(coord(w, &mut next), coord(h, &mut next));
                    let (c1, c2) = (coord(w, &mut next), coord(h, &mut next));
                    path.quad_to(c1, c2, coord(w, &mut next), coord(h, &mut next));
                    path.line_to(coord(w, &mut next), coord(h, &mut next));
                    path.close();
                }
                _ => {
                    // Bars on whole and half pixels, sharing sides.
                    let x = next(180) as f32 / 2.0;
                    path.rect(x, next(100) as f32, 10.0, 40.0);
                    path.rect(x + 10.0, next(100) as f32 / 4.0, 10.0, 60.0);
                }
            }
            let paint = if k % 7 == 5 {
                Paint::LinearGradient {
                    x0: 0.0,
                    y0: 0.0,
                    x1: w,
                    y1: h,
                    stops: vec![(0.0, colour), (1.0, Rgba::rgb(10, 200, 30))],
                }
            } else {
                Paint::Solid(colour)
            };
            let transform = if k % 9 == 4 {
                Transform::rotate(0.3).then(Transform::translate(5.0, -3.0))
            } else {
                Transform::IDENTITY
            };
            let item = if next(2) == 0 {
                Item::Fill {
                    path,
                    paint,
                    transform,
                }
            } else {
                Item::Stroke {
                    path,
                    paint,
                    stroke: Stroke {
                        width: [0.3, 0.5, 1.0, 1.5, 3.0, 7.0][next(6) as usize],
                        cap: [LineCap::Butt, LineCap::Round, LineCap::Square][next(3) as usize],
                        join: [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel][next(3) as usize],
                        dash: if k % 5 == 2 {
                            vec![4.0, 2.0]
                        } else {
                            Vec::new()
                        },
                        ..Stroke::default()
                    },
                    transform,
                }
            };
            let item = if k % 11 == 7 {
                Item::Shadowed {
                    shadow: Shadow {
                        color: Rgba {
                            a: 120,
                            ..Rgba::BLACK
                        },
                        blur: next(12) as f32,
                        offset_x: 2.0,
                        offset_y: next(30) as f32 - 10.0,
                    },
                    item: Box::new(item),
                }
            } else {
                item
            };
            items.push(item);
            if k % 8 == 3 {
                let mut clip = Path::new();
                if next(2) == 0 {
                    clip.rect(coord(w, &mut next), coord(h, &mut next), 90.0, 70.0);
                } else {
                    clip.circle(coord(w, &mut next), coord(h, &mut next), 50.0);
                }
                items.push(Item::PushClip {
                    path: clip,
                    transform: Transform::IDENTITY,
                });
                clips += 1;
            }
            if k % 6 == 1 {
                items.push(Item::Text(Box::new(TextItem {
                    text: "Bands 12,345".into(),
                    x: coord(w, &mut next),
                    y: coord(h, &mut next),
                    font: chart_spec::font::FontSpec {
                        size: 8.0 + next(20) as f32,
                        ..Default::default()
                    },
                    paint: Paint::Solid(colour),
                    align: TextAlign::Left,
                    baseline: TextBaseline::Middle,
                    direction: Default::default(),
                    transform: if k % 4 == 1 {
                        Transform::rotate(-0.7)
                    } else {
                        Transform::IDENTITY
                    },
                    stroke: None,
                })));
            }
            if k % 10 == 9 && clips > 0 {
                items.push(Item::PopClip);
                clips -= 1;
            }
        }
        Scene {
            width: w,
            height: h,
            device_pixel_ratio: 2.0,
            background: if seed.is_multiple_of(2) {
                Rgba::WHITE
            } else {
                Rgba::TRANSPARENT
            },
            items,
        }
    }

    /// The device transform of a chart drawn at dpr 2.
    fn at_dpr_2() -> Transform {
        Transform::scale(2.0)
    }

    /// A chart of `width × height` CSS pixels at dpr 2 on white.
    fn white_scene(width: f32, height: f32, items: Vec<Item>) -> Scene {
        Scene {
            width,
            height,
            device_pixel_ratio: 2.0,
            background: Rgba::WHITE,
            items,
        }
    }

    /// The split row follows where the work is: below the middle for a triangle standing
    /// on its base, above it for a zigzag line in the top third (its bounds alone would say
    /// the same for both), and the middle for nothing to draw.
    #[test]
    fn the_split_row_halves_the_guessed_work() {
        let base = at_dpr_2();
        let scene = |items: Vec<Item>| white_scene(400.0, 300.0, items);
        let mut triangle = Path::new();
        triangle.move_to(200.0, 0.0);
        triangle.line_to(400.0, 300.0);
        triangle.line_to(0.0, 300.0);
        triangle.close();
        let fill = Item::Fill {
            path: triangle,
            paint: Paint::Solid(Rgba::BLACK),
            transform: Transform::IDENTITY,
        };
        let s = super::split_row(&scene(vec![fill]), base, (800, 600), false).unwrap();
        // Half the triangle's area lies below 1 - 1/√2 of its height from its base.
        assert!((400..460).contains(&s), "{s}");
        let mut zigzag = Path::new();
        zigzag.move_to(0.0, 0.0);
        for i in 1..40 {
            zigzag.line_to(i as f32 * 10.0, if i % 2 == 1 { 100.0 } else { 0.0 });
        }
        zigzag.move_to(0.0, 299.0);
        zigzag.line_to(400.0, 299.0);
        let stroke = Item::Stroke {
            path: zigzag,
            paint: Paint::Solid(Rgba::BLACK),
            stroke: Stroke::default(),
            transform: Transform::IDENTITY,
        };
        let s = super::split_row(&scene(vec![stroke]), base, (800, 600), false).unwrap();
        assert!(s < 200, "{s}");
        assert_eq!(
            super::split_row(&scene(Vec::new()), base, (800, 600), false),
            Some(300)
        );
        assert_eq!(
            super::split_row(&scene(Vec::new()), base, (800, 200), false),
            None
        );
        // Past what the pool keeps, no second bitmap.
        assert!(super::worth_splitting(2896, 2896) && !super::worth_splitting(2897, 2897));
    }

    /// A sawtooth time series as Chart.js's fast path draws 10,000 points on 800 px: in
    /// each pixel column a run from the lowest to the highest value, then to the last one;
    /// the runs vertical, or each point `lean` px right of the one before.
    fn series(lean: f32) -> Path {
        let mut series = Path::new();
        series.move_to(0.0, 500.0);
        let mut next = xorshift(0x1f83_d9ab_fb41_bd6b);
        for c in 0..780 {
            let y =
                |next: &mut dyn FnMut(u64) -> u64| (550 - (c % 97) * 5) as f32 - next(60) as f32;
            for (k, dx) in [0.0, 0.0, 0.0, 1.0].into_iter().enumerate() {
                let x = c as f32 + dx + lean * (4 * c + k) as f32;
                series.line_to(x, y(&mut next));
            }
        }
        series
    }

    /// A stroke of vertical runs, whose bottom painter orders the edges above its band,
    /// leaves it fewer rows than the same stroke leaning a little (jumped to its band).
    #[test]
    fn vertical_runs_move_the_split_row_down() {
        let base = at_dpr_2();
        let row = |path: Path| {
            let item = Item::Stroke {
                path,
                paint: Paint::Solid(Rgba::BLACK),
                stroke: Stroke::default(),
                transform: Transform::IDENTITY,
            };
            super::split_row(
                &white_scene(800.0, 600.0, vec![item]),
                base,
                (1600, 1200),
                false,
            )
            .unwrap()
        };
        let (vertical, leaning) = (row(series(0.0)), row(series(0.01)));
        assert!(vertical > leaning + 40, "{vertical} against {leaning}");
    }

    /// A lent core is taken only where two painters save time (`pays`): a scene of many
    /// point markers (fewer with no long path), of a few long curves swinging over the chart (a line chart) or of a
    /// time series' vertical runs, not one of too few markers nor a stroke of many short
    /// segments for its work; told to split, every scene large enough is.
    #[test]
    fn a_lent_core_is_taken_where_the_work_outweighs_the_long_paths() {
        let base = at_dpr_2();
        let scene = |items: Vec<Item>| white_scene(800.0, 600.0, items);
        let markers = |n: usize| -> Vec<Item> {
            (0..n)
                .map(|i| {
                    let mut disc = Path::new();
                    disc.circle(
                        (i * 37 % 780) as f32 + 10.0,
                        (i * 53 % 580) as f32 + 10.0,
                        3.0,
                    );
                    Item::Fill {
                        path: disc,
                        paint: Paint::Solid(Rgba::BLACK),
                        transform: Transform::IDENTITY,
                    }
                })
                .collect()
        };
        let row = |items: Vec<Item>, must_pay: bool| {
            super::split_row(&scene(items), base, (1600, 1200), must_pay)
        };
        assert!(row(markers(5_000), true).is_some());
        // Fewer markers and no long path: less work pays (see `pays`), not too little.
        assert!(row(markers(3_000), true).is_some());
        assert_eq!(row(markers(2_000), true), None);
        assert_eq!(row(markers(50), true), None);
        assert!(row(markers(50), false).is_some());
        let stroke = |path: Path| Item::Stroke {
            path,
            paint: Paint::Solid(Rgba::BLACK),
            stroke: Stroke::default(),
            transform: Transform::IDENTITY,
        };
        // A narrow zigzag stroke down the chart, row after row, in many short segments.
        let mut zigzag = Path::new();
        zigzag.move_to(0.0, 0.0);
        for i in 1..20_000 {
            zigzag.line_to((i % 2 * 20) as f32, i as f32 * 0.03);
        }
        assert_eq!(row(vec![stroke(zigzag.clone())], true), None);
        assert!(row(vec![stroke(zigzag)], false).is_some());
        // A time series as Chart.js's fast path draws 10,000 points (its bottom painter
        // orders the edges above its band: see `RowWork::order`).
        assert!(row(vec![stroke(series(0.0))], true).is_some());
        // Three lines of 50 curves each between the top and the bottom of the chart.
        let lines = (0..3)
            .map(|k| {
                let mut line = Path::new();
                line.move_to(0.0, 300.0);
                for i in 1..=50 {
                    let (x, y) = (i as f32 * 16.0, if (i + k) % 2 == 0 { 50.0 } else { 550.0 });
                    line.cubic_to(x - 10.0, 300.0, x - 6.0, y, x, y);
                }
                Item::Stroke {
                    path: line,
                    paint: Paint::Solid(Rgba::BLACK),
                    stroke: Stroke {
                        width: 3.0,
                        ..Stroke::default()
                    },
                    transform: Transform::IDENTITY,
                }
            })
            .collect();
        assert!(row(lines, true).is_some());
    }

    /// Random scenes drawn by two painters split at rows across the bitmap (the top, the
    /// bottom, anywhere, and where [`super::split_row`] puts it): byte for byte what one
    /// painter draws.
    #[test]
    fn two_painters_draw_what_one_draws() {
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let stop = || false;
        let mut next = xorshift(0x1f83_d9ab_fb41_bd6b);
        for seed in 1..=16u64 {
            let scene = random_scene(seed * 0x9e37_79b9);
            let one = rasterize_until(&scene, &text, &reuse, &stop, Split::None).unwrap();
            let mut splits = vec![0, 1, 299, 300, 1 + next(298) as u32, 1 + next(298) as u32];
            let base = Transform::scale(2.0);
            splits.extend(super::split_row(&scene, base, (400, 300), false));
            for s in splits {
                let two = rasterize_until(&scene, &text, &reuse, &stop, Split::At(s)).unwrap();
                if let Some(i) = (0..one.data.len()).find(|&i| one.data[i] != two.data[i]) {
                    panic!(
                        "scene {seed} split at row {s}: pixel ({}, {}) differs",
                        i / 4 % 400,
                        i / 4 / 400
                    );
                }
                reuse.buffers.give(two.data);
            }
            reuse.buffers.give(one.data);
        }
    }

    /// Random scenes drawn in two bands for a consumer, split at rows across the bitmap, on
    /// one thread and on two, and handed over on two after one drew them: each band handed over, with the row above it, holds what one
    /// painter draws there (straight alpha), and the bands make the bitmap.
    #[test]
    fn bands_handed_over_hold_what_one_painter_draws() {
        struct Copied;
        impl crate::BandConsumer for Copied {
            type Part = (std::ops::Range<u32>, Vec<u8>);
            fn band(&self, band: crate::Band<'_>) -> Self::Part {
                assert_eq!((band.width, band.height), (400, 300));
                (band.rows, band.pixels.to_vec())
            }
        }
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let stop = || false;
        let mut next = xorshift(0x5851_f42d_4c95_7f2d);
        let line = 400 * 4;
        for seed in 1..=8u64 {
            let scene = random_scene(seed * 0x9e37_79b9);
            let one = rasterize_until(&scene, &text, &reuse, &stop, Split::None).unwrap();
            let canvas = Canvas::of(&scene).unwrap();
            let job = Job {
                scene: &scene,
                base: canvas.base,
                text: &text,
                reuse: &reuse,
                stop: &stop,
                plan: std::sync::Arc::new(crate::raster::stamps::Plan::of(
                    &scene.items,
                    canvas.base,
                )),
            };
            for s in [1, 299, 1 + next(298) as u32] {
                let started = Some(&super::Started as &dyn crate::SecondThread);
                let lend: crate::SecondCore = || Some(Box::new(super::Started));
                for thread in [(None, None), (started, None), (None, Some(lend))] {
                    let drawn = draw_bands(&job, &reuse.buffers, &canvas, s, thread, &Copied);
                    let Ok(Drawn::Bands([top, bottom], pixels)) = drawn else {
                        panic!("scene {seed} split at row {s}: not drawn in bands");
                    };
                    let what = format!("scene {seed} split at row {s}, {:?}", thread.0.is_some());
                    assert_eq!((top.0, bottom.0), (0..s, s..300), "{what}");
                    let s = s as usize;
                    assert!(top.1 == one.data[..s * line], "{what}: top band");
                    assert!(
                        bottom.1 == one.data[(s - 1) * line..],
                        "{what}: bottom band"
                    );
                    assert_eq!(pixels.split() as usize, s);
                    assert!(pixels.into_bitmap().data == one.data, "{what}: the bitmap");
                }
            }
            reuse.buffers.give(one.data);
        }
    }
}
