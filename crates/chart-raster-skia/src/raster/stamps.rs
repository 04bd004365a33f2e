//! Stamps: the coverage mask of a small shape that a scene draws many times, covered once
//! per sub-pixel phase and blended wherever the shape stands.
//!
//! Chart.js draws every point of a scatter or bubble chart on its own (`drawPoint` in
//! helpers.canvas: `ctx.beginPath()`, `ctx.arc` or the point style's path, `fill()`,
//! `stroke()`), so 10,000 points are 20,000 paths, each outlined, turned into edges and
//! supersampled from scratch: most of such a chart's drawing. As Skia's glyph cache keeps a
//! glyph's mask per quarter-pixel position, a shape that recurs at least [`MIN_REPEATS`]
//! times in one scene is covered once per phase (where its first point falls within its
//! pixel, quantised to 1/16 px) by the exact fillers, and each occurrence blends that mask
//! in its own colour, as the exact fill blends its coverage (`rect::blend_coverage`, the
//! same formulas and clip mask). A stamped shape moves by at most 1/32 px and its outline
//! by at most 1/512 px (the key rounds it to 1/256 px), so its pixels differ from the exact
//! ones by a few levels at the edges; a shape drawn fewer times is drawn exactly, which
//! leaves every chart of a few hundred points as it was.
//!
//! Which shapes are stamped is decided once per scene from the whole display list
//! ([`Plan::of`]), before any painter draws, and a mask depends only on its shape and
//! phase: the pixels are the same whichever painter draws which band, on one thread or two.

use super::convert::is_hairline;
use super::guard;
use crate::scene::{Item, LineCap, LineJoin, Paint, Path, PathCmd, Stroke, Transform};
use std::collections::HashMap;
use std::sync::Arc;

/// A shape is stamped when the scene draws it at least this often: as many occurrences
/// as there are phases, so that covering a mask for each phase costs no more than drawing
/// the shape exactly each time.
pub(super) const MIN_REPEATS: u32 = (PHASES * PHASES) as u32;
/// Phases per pixel in x and in y (positions quantised to 1/16 px: a stamp moves a shape
/// at most 1/32 px).
const PHASES: i64 = 16;
/// Key units per device pixel: the shape's geometry relative to its first point, rounded
/// to 1/256 px, so that markers at different positions (whose offsets differ by float
/// noise) share a key.
const UNITS: f32 = 256.0;
/// The largest shape stamped, device pixels wide and high (a point marker is a few).
const MAX_SIDE: f32 = 64.0;
/// How far at most a stamped stroke's ink reaches from its path, device pixels.
const MAX_REACH: f32 = 32.0;
/// Path commands of a stamped shape at most (a circle has 6, a star marker 8).
const MAX_CMDS: usize = 32;
/// Distinct shapes counted per scene at most: later new shapes are drawn exactly (a
/// hostile list of a million different markers would otherwise hold a million keys).
const MAX_KEYS: usize = 1024;
/// Bytes of masks (and their tables) kept per painter at most; past it, shapes whose
/// phase has no mask yet are drawn exactly.
const BUDGET: usize = 4 << 20;
/// No shape, or no mask yet.
const NONE: u32 = u32::MAX;
/// Words of a key at most: the stroke's header and the linear map, then a verb and up to
/// three points per command.
const KEY_WORDS: usize = 9 + MAX_CMDS * 7;

/// Which items of a scene are stamped, and the shapes they stamp.
#[derive(Default)]
pub(super) struct Plan {
    /// The shape of each item (an index in `shapes`), [`NONE`] when drawn exactly; empty
    /// when nothing is stamped.
    of_item: Vec<u32>,
    shapes: Vec<Shape>,
}

/// A shape as it is stamped: its path in a user space that its linear map takes to device
/// space, with its first point at the origin.
struct Shape {
    /// The path: the keyed device geometry mapped back by the inverse of `linear`.
    user: Path,
    /// `None` for a fill.
    stroke: Option<Stroke>,
    /// The linear part of the device transform, `[a, b, c, d]`.
    linear: [f32; 4],
    /// The mask's frame around the pixel of the shape's first point: left and top offsets,
    /// width and height (room for the ink, its anti-aliasing and any phase).
    frame: [i64; 4],
}

impl Plan {
    /// Counts the shapes of the eligible items of `items` (drawn under `base`): those
    /// drawn at least [`MIN_REPEATS`] times are stamped.
    pub(super) fn of(items: &[Item], base: Transform) -> Plan {
        if items.len() < MIN_REPEATS as usize {
            return Plan::default();
        }
        let mut ids: HashMap<Box<[i32]>, u32> = HashMap::new();
        let mut counts: Vec<u32> = Vec::new();
        let mut of_item = vec![NONE; items.len()];
        let mut keyer = Keyer::new();
        // The last key of each kind and its shape: a chart draws a point's fill and stroke
        // one after the other, point after point, so most keys are the one before but one
        // (compared, not hashed).
        let mut last: [(Vec<i32>, u32); 2] = Default::default();
        for (slot, item) in of_item.iter_mut().zip(items) {
            let Some(key) = keyer.key(item, base) else {
                continue;
            };
            let kind = usize::from(key[0] != 0);
            let (last_key, last_id) = &mut last[kind];
            let id = if !last_key.is_empty() && last_key[..] == *key {
                *last_id
            } else {
                let id = match ids.get(key) {
                    Some(&id) => id,
                    None if ids.len() < MAX_KEYS => {
                        let id = ids.len() as u32;
                        ids.insert(key.into(), id);
                        counts.push(0);
                        id
                    }
                    None => continue,
                };
                last_key.clear();
                last_key.extend_from_slice(key);
                *last_id = id;
                id
            };
            counts[id as usize] += 1;
            *slot = id;
        }
        // Shapes numbered in the order of their first item (the map's order is random).
        let mut keys: Vec<Option<&[i32]>> = vec![None; counts.len()];
        for (k, &id) in &ids {
            keys[id as usize] = Some(k);
        }
        let mut shapes = Vec::new();
        let mut stamped = vec![NONE; counts.len()];
        for (id, k) in keys.iter().enumerate() {
            if counts[id] < MIN_REPEATS {
                continue;
            }
            if let Some(shape) = k.and_then(Shape::decode) {
                stamped[id] = shapes.len() as u32;
                shapes.push(shape);
            }
        }
        if shapes.is_empty() {
            return Plan::default();
        }
        for s in &mut of_item {
            if *s != NONE {
                *s = stamped[*s as usize];
            }
        }
        Plan { of_item, shapes }
    }

    /// How many shapes are stamped.
    #[cfg(test)]
    pub(super) fn shapes(&self) -> usize {
        self.shapes.len()
    }
}

/// Where a key's path words start in [`Keyer::buf`]: after the longest header (a stroke's
/// five words) and the linear map's four.
const PATH_AT: usize = 9;

/// Makes the keys of a scene's items one after the other. A scatter chart's items share
/// their transform and stroke, and a point's border has its fill's path: what depends only
/// on those is worked out when they change, not per item (the plan's counting was once as
/// costly as a third of the stamped drawing).
struct Keyer<'a> {
    /// The key being made: its header ends at [`PATH_AT`], where its path words start
    /// (kept from item to item while the path and linear map stay the same).
    buf: [i32; KEY_WORDS],
    /// The last linear map's bits, and whether it is invertible.
    linear: Option<([u32; 4], bool)>,
    /// The last stroke's width and miter limit and the linear map's bits, and whether such
    /// a stroke is stamped (not a hairline, within reach).
    stroke: Option<([u32; 6], bool)>,
    /// The last path's commands and linear map's bits, how many words they make (in `buf`
    /// from [`PATH_AT`]), and whether within a stamp's size.
    path: Option<(&'a [PathCmd], [u32; 4], usize, bool)>,
}

impl<'a> Keyer<'a> {
    fn new() -> Keyer<'a> {
        Keyer {
            buf: [0; KEY_WORDS],
            linear: None,
            stroke: None,
            path: None,
        }
    }

    /// The key of an eligible item: its kind (fill, or stroke and its parameters), the
    /// linear part of its device transform, and its commands with their points in device
    /// space relative to the first, in 1/256 px. `None` when the item is drawn exactly:
    /// not a fill or a stroke of a solid colour (shadowed items never are), a dashed or
    /// hairline stroke, a path not starting with a move, too long or too large, anything
    /// not finite.
    fn key(&mut self, item: &'a Item, base: Transform) -> Option<&[i32]> {
        let (path, paint, stroke, transform) = match item {
            Item::Fill {
                path,
                paint,
                transform,
            } => (path, paint, None, transform),
            Item::Stroke {
                path,
                paint,
                stroke,
                transform,
            } => (path, paint, Some(stroke), transform),
            _ => return None,
        };
        if !matches!(paint, Paint::Solid(_)) {
            return None;
        }
        let t = base.then(*transform);
        let linear = [t.a, t.b, t.c, t.d];
        let bits = linear.map(f32::to_bits);
        let invertible = match self.linear {
            Some((b, ok)) if b == bits => ok,
            _ => {
                let ok = invert(linear).is_some();
                self.linear = Some((bits, ok));
                ok
            }
        };
        if !(invertible && t.e.is_finite() && t.f.is_finite()) {
            return None;
        }
        let cmds = &path.cmds[..];
        if cmds.len() < 2 || cmds.len() > MAX_CMDS {
            return None;
        }
        let PathCmd::MoveTo(x0, y0) = cmds[0] else {
            return None;
        };
        let (ox, oy) = t.apply(x0, y0);
        if !(ox.abs() < guard::UNTOUCHED && oy.abs() < guard::UNTOUCHED) {
            return None;
        }
        let start = match stroke {
            None => {
                self.buf[PATH_AT - 5] = 0;
                PATH_AT - 5
            }
            Some(s) => {
                if !s.dash.is_empty() {
                    return None;
                }
                let (w, m) = (s.width.to_bits(), s.miter_limit.to_bits());
                let sb = [w, m, bits[0], bits[1], bits[2], bits[3]];
                let stamped = match self.stroke {
                    Some((b, ok)) if b == sb => ok,
                    _ => {
                        let ok = stroke_stamped(s, t);
                        self.stroke = Some((sb, ok));
                        ok
                    }
                };
                if !stamped {
                    return None;
                }
                self.buf[..PATH_AT - 4].copy_from_slice(&[
                    1,
                    w as i32,
                    cap_code(s.cap),
                    join_code(s.join),
                    m as i32,
                ]);
                0
            }
        };
        self.buf[PATH_AT - 4..PATH_AT].copy_from_slice(&bits.map(|b| b as i32));
        let n = match self.path {
            Some((p, b, n, ok)) if b == bits && same_cmds(p, cmds) => ok.then_some(n)?,
            _ => {
                let words = path_words(&mut self.buf[PATH_AT..], cmds, linear);
                self.path = Some((cmds, bits, words.unwrap_or(0), words.is_some()));
                words?
            }
        };
        self.buf.get(start..PATH_AT + n)
    }
}

/// Whether a stroke under `t` is stamped: solid (checked by the caller), of a finite
/// positive width, not a hairline, its miter limit and reach within bounds.
fn stroke_stamped(s: &Stroke, t: Transform) -> bool {
    let plain = s.width.is_finite()
        && s.width > 0.0
        && (0.0..=100.0).contains(&s.miter_limit)
        && !is_hairline(s.width, t);
    // Not NaN, and not so far that the mask grows past a marker's size.
    let reach = guard::stroke_reach(s, t);
    plain && reach.is_finite() && reach <= MAX_REACH
}

/// Whether two commands are the same, bit for bit.
fn same_cmds(a: &[PathCmd], b: &[PathCmd]) -> bool {
    use PathCmd::*;
    let same = |x: &[f32], y: &[f32]| x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits());
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (MoveTo(x, y), MoveTo(u, v)) | (LineTo(x, y), LineTo(u, v)) => {
                x.to_bits() == u.to_bits() && y.to_bits() == v.to_bits()
            }
            (QuadTo(x1, y1, x, y), QuadTo(u1, v1, u, v)) => {
                same(&[*x1, *y1, *x, *y], &[*u1, *v1, *u, *v])
            }
            (CubicTo(x1, y1, x2, y2, x, y), CubicTo(u1, v1, u2, v2, u, v)) => {
                same(&[*x1, *y1, *x2, *y2, *x, *y], &[*u1, *v1, *u2, *v2, *u, *v])
            }
            (Close, Close) => true,
            _ => false,
        })
}

/// The path words of a key into `words`: each command's verb and its points' offsets from
/// the first point, mapped by the linear part `m` (the same numbers as the mapped points'
/// differences, but for float noise, which the rounding takes out), in 1/256 px. How many,
/// or `None` when a point is not finite or the shape is larger than a stamp.
fn path_words(words: &mut [i32], cmds: &[PathCmd], m: [f32; 4]) -> Option<usize> {
    let Some(&PathCmd::MoveTo(x0, y0)) = cmds.first() else {
        return None;
    };
    let [a, b, c, d] = m;
    let (mut lo, mut hi) = ([i32::MAX; 2], [i32::MIN; 2]);
    let mut n = 0;
    let mut put = |words: &mut [i32], n: &mut usize, x: f32, y: f32| -> Option<()> {
        let (ux, uy) = (x - x0, y - y0);
        let (rx, ry) = (a * ux + c * uy, b * ux + d * uy);
        // Also false for NaN.
        if !(rx.abs() <= MAX_SIDE && ry.abs() <= MAX_SIDE) {
            return None;
        }
        let (qx, qy) = (units(rx), units(ry));
        lo = [lo[0].min(qx), lo[1].min(qy)];
        hi = [hi[0].max(qx), hi[1].max(qy)];
        words.get_mut(*n..*n + 2)?.copy_from_slice(&[qx, qy]);
        *n += 2;
        Some(())
    };
    for cmd in cmds {
        let verb = match cmd {
            PathCmd::MoveTo(..) => -1,
            PathCmd::LineTo(..) => -2,
            PathCmd::QuadTo(..) => -3,
            PathCmd::CubicTo(..) => -4,
            PathCmd::Close => -5,
        };
        *words.get_mut(n)? = verb;
        n += 1;
        match *cmd {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => put(words, &mut n, x, y)?,
            PathCmd::QuadTo(x1, y1, x, y) => {
                put(words, &mut n, x1, y1)?;
                put(words, &mut n, x, y)?;
            }
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                put(words, &mut n, x1, y1)?;
                put(words, &mut n, x2, y2)?;
                put(words, &mut n, x, y)?;
            }
            PathCmd::Close => {}
        }
    }
    let side = (MAX_SIDE * UNITS) as i32;
    (hi[0] - lo[0] <= side && hi[1] - lo[1] <= side).then_some(n)
}

/// A device offset (at most [`MAX_SIDE`] in size) in key units, rounded to the nearest
/// (without the libm call of `round`).
fn units(v: f32) -> i32 {
    // Exact in f32: below 2^16, a multiple of 1/256 is represented as it is.
    const BIAS: f32 = 32_768.0;
    (v * UNITS + (0.5 + BIAS)) as i32 - BIAS as i32
}

/// `v.floor()` for `v` above -2^23 (a position within the guard's bounds in 1/16 px),
/// without the libm call of `floor`: truncation is the floor of a positive number.
fn floor_bounded(v: f64) -> i64 {
    const BIAS: f64 = (1u64 << 23) as f64;
    (v + BIAS) as i64 - BIAS as i64
}

fn cap_code(c: LineCap) -> i32 {
    match c {
        LineCap::Butt => 0,
        LineCap::Round => 1,
        LineCap::Square => 2,
    }
}

fn join_code(j: LineJoin) -> i32 {
    match j {
        LineJoin::Miter => 0,
        LineJoin::Round => 1,
        LineJoin::Bevel => 2,
    }
}

/// The inverse of the linear map `[a, b, c, d]`, `None` when it has none worth the name
/// (not finite, or flattening a pixel to nothing).
fn invert(m: [f32; 4]) -> Option<[f64; 4]> {
    let [a, b, c, d] = m.map(f64::from);
    let det = a * d - b * c;
    if !(det.is_finite() && det.abs() > 1e-12) {
        return None;
    }
    let inv = [d / det, -b / det, -c / det, a / det];
    inv.iter().all(|v| v.is_finite()).then_some(inv)
}

impl Shape {
    /// The shape a key (made by [`Keyer::key`]) stands for.
    fn decode(key: &[i32]) -> Option<Shape> {
        let f = |v: i32| f32::from_bits(v as u32);
        let (stroke, rest) = match *key.first()? {
            0 => (None, key.get(1..)?),
            _ => {
                let h = key.get(1..5)?;
                let cap = [LineCap::Butt, LineCap::Round, LineCap::Square][h[1] as usize];
                let join = [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel][h[2] as usize];
                let s = Stroke {
                    width: f(h[0]),
                    cap,
                    join,
                    miter_limit: f(h[3]),
                    ..Stroke::default()
                };
                (Some(s), key.get(5..)?)
            }
        };
        let linear = [f(rest[0]), f(rest[1]), f(rest[2]), f(rest[3])];
        let inv = invert(linear)?;
        let mut words = rest.get(4..)?.iter().copied();
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        // A keyed device offset mapped back to user space.
        let mut point = |words: &mut dyn Iterator<Item = i32>| -> Option<(f32, f32)> {
            let (x, y) = (words.next()? as f32 / UNITS, words.next()? as f32 / UNITS);
            lo = [lo[0].min(x), lo[1].min(y)];
            hi = [hi[0].max(x), hi[1].max(y)];
            let (x, y) = (f64::from(x), f64::from(y));
            Some((
                (inv[0] * x + inv[2] * y) as f32,
                (inv[1] * x + inv[3] * y) as f32,
            ))
        };
        let mut user = Path::new();
        while let Some(verb) = words.next() {
            let cmd = match verb {
                -1 => {
                    let (x, y) = point(&mut words)?;
                    PathCmd::MoveTo(x, y)
                }
                -2 => {
                    let (x, y) = point(&mut words)?;
                    PathCmd::LineTo(x, y)
                }
                -3 => {
                    let (x1, y1) = point(&mut words)?;
                    let (x, y) = point(&mut words)?;
                    PathCmd::QuadTo(x1, y1, x, y)
                }
                -4 => {
                    let (x1, y1) = point(&mut words)?;
                    let (x2, y2) = point(&mut words)?;
                    let (x, y) = point(&mut words)?;
                    PathCmd::CubicTo(x1, y1, x2, y2, x, y)
                }
                -5 => PathCmd::Close,
                _ => return None,
            };
            user.cmds.push(cmd);
        }
        // Room for the ink (a stroke's reach has a pixel of anti-aliasing in it), the
        // supersampler's rounding out, and a phase of up to 15/16 px.
        let reach = match &stroke {
            Some(s) => {
                let [a, b, c, d] = linear;
                let t = Transform {
                    a,
                    b,
                    c,
                    d,
                    e: 0.0,
                    f: 0.0,
                };
                guard::stroke_reach(s, t)
            }
            None => 1.0,
        };
        if !(lo[0].is_finite() && lo[1].is_finite() && reach.is_finite()) {
            return None;
        }
        let left = (lo[0] - reach).floor() as i64 - 2;
        let top = (lo[1] - reach).floor() as i64 - 2;
        let right = (hi[0] + reach).ceil() as i64 + 3;
        let bottom = (hi[1] + reach).ceil() as i64 + 3;
        Some(Shape {
            user,
            stroke,
            linear,
            frame: [left, top, right - left, bottom - top],
        })
    }
}

/// One painter's stamps: the scene's plan and the masks covered so far.
#[derive(Default)]
pub(super) struct Stamps {
    plan: Arc<Plan>,
    /// Per shape, its masks by phase (an index in `masks`, [`NONE`] when not covered yet),
    /// made on the shape's first use.
    tables: Vec<Option<Box<[u32; 256]>>>,
    masks: Vec<Mask>,
    /// The masks' coverage, one after the other.
    alpha: Vec<u8>,
    /// Bytes held by the tables, masks and coverage.
    bytes: usize,
}

/// A shape's coverage at one phase, 0..=255 per pixel, placed relative to the pixel of
/// the shape's first point.
#[derive(Clone, Copy)]
struct Mask {
    left: i64,
    top: i64,
    width: usize,
    height: usize,
    /// Where its rows start in [`Stamps::alpha`].
    start: usize,
}

impl Stamps {
    pub(super) fn new(plan: Arc<Plan>) -> Stamps {
        let tables = (0..plan.shapes.len()).map(|_| None).collect();
        Stamps {
            plan,
            tables,
            ..Stamps::default()
        }
    }

    /// The shape item `index` stamps, if any.
    fn shape_of(&self, index: usize) -> Option<usize> {
        match self.plan.of_item.get(index) {
            Some(&s) if s != NONE => Some(s as usize),
            _ => None,
        }
    }

    /// The mask of `shape` at `phase`, if covered.
    fn mask(&self, shape: usize, phase: usize) -> Option<Mask> {
        let table = self.tables.get(shape)?.as_ref()?;
        let i = *table.get(phase)?;
        self.masks.get(i as usize).copied()
    }

    /// Whether another mask of `len` bytes fits the budget.
    fn has_room(&self, len: usize) -> bool {
        self.bytes + len + std::mem::size_of::<[u32; 256]>() <= BUDGET
    }

    /// Keeps `mask`'s coverage `alpha` as `shape`'s at `phase`.
    fn keep(&mut self, shape: usize, phase: usize, mut mask: Mask, alpha: &[u8]) -> Option<Mask> {
        let slot = self.tables.get_mut(shape)?;
        let table = match slot {
            Some(t) => t,
            None => {
                self.bytes += std::mem::size_of::<[u32; 256]>();
                slot.insert(Box::new([NONE; 256]))
            }
        };
        mask.start = self.alpha.len();
        self.alpha.extend_from_slice(alpha);
        *table.get_mut(phase)? = self.masks.len() as u32;
        self.masks.push(mask);
        self.bytes += alpha.len() + std::mem::size_of::<Mask>();
        Some(mask)
    }
}

mod draw;

#[cfg(test)]
mod tests;
