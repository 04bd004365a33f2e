//! Pixels: the only module that knows tiny-skia. Turns a [`Scene`] into a straight-alpha
//! [`Bitmap`] at the scene's device pixel ratio.
//!
//! tiny-skia is a port of Skia, the library Chrome's canvas draws with, so fills, strokes
//! (hairlines under one device pixel included), dashes and gradients follow the same rules.
//! Like Chart.js's `retinaScale`, the bitmap is `floor(size × dpr)` and every item is drawn
//! under a `scale(dpr)` base transform.
//!
//! Anti-aliasing stays tiny-skia's 4× supersampling (Skia's `SkScan_AntiPath`), although
//! today's Chrome covers edges analytically: Chart.js's reference images show the quarter-pixel
//! coverage steps of the supersampler (a bar edge at y = 105.81 covered 0.75, its clip and
//! even-odd border multiplying to 0.5625). An exact-area rasteriser for shapes lost three dev
//! fixtures while gaining none; it is kept for glyphs (`coverage.rs`), whose masks FreeType
//! covers by exact area.

use crate::scene::{
    Item, LineCap, LineJoin, Paint, Path, PathCmd, Scene, Stroke, TextAlign, TextBaseline,
    TextItem, Transform,
};
use crate::text::TextEngine;
use crate::Error;
use chart_spec::{Bitmap, Rgba};
use std::rc::Rc;

mod coverage;

/// Rasterises a scene.
pub fn rasterize(scene: &Scene, text: &TextEngine) -> Result<Bitmap, Error> {
    let dpr = if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
        scene.device_pixel_ratio
    } else {
        1.0
    };
    // Mirrors `retinaScale` in Chart.js helpers.dom: the device size is floored.
    let width = (scene.width * dpr).floor().max(0.0) as u32;
    let height = (scene.height * dpr).floor().max(0.0) as u32;
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(Error::BitmapSize { width, height })?;
    let bg = scene.background;
    if bg.a > 0 {
        pixmap.fill(tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a));
    }
    let base = Transform {
        a: dpr,
        b: 0.0,
        c: 0.0,
        d: dpr,
        e: 0.0,
        f: 0.0,
    };
    let mut painter = Painter {
        pixmap: &mut pixmap,
        clips: Vec::new(),
        clip_cache: Vec::new(),
        base,
        text,
        sprite: None,
    };
    for item in &scene.items {
        painter.item(item);
    }
    // Over an opaque background every pixel stays opaque: nothing to unpremultiply.
    Ok(to_bitmap(pixmap, bg.a == 255))
}

/// tiny-skia stores premultiplied alpha; a Bitmap is straight alpha.
fn to_bitmap(pixmap: tiny_skia::Pixmap, opaque: bool) -> Bitmap {
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut data = pixmap.take();
    if opaque {
        return Bitmap {
            width,
            height,
            data,
        };
    }
    for px in data.chunks_exact_mut(4) {
        let a = px[3];
        if a != 0 && a != 255 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            }
        }
    }
    Bitmap {
        width,
        height,
        data,
    }
}

struct Painter<'a> {
    pixmap: &'a mut tiny_skia::Pixmap,
    /// The clip stack.
    clips: Vec<Clip>,
    /// Masks built for earlier clips, reused when the same clip is pushed again on the same
    /// parent (Chart.js clips every dataset to the chart area).
    clip_cache: Vec<(
        Path,
        Transform,
        Option<usize>,
        Rc<tiny_skia::Mask>,
        Option<[f32; 4]>,
        Option<[f32; 4]>,
    )>,
    base: Transform,
    text: &'a TextEngine,
    /// The sprite image as a pixmap, made on first use.
    #[allow(dead_code)]
    sprite: Option<tiny_skia::Pixmap>,
}

fn ts(t: Transform) -> tiny_skia::Transform {
    tiny_skia::Transform::from_row(t.a, t.b, t.c, t.d, t.e, t.f)
}

fn color(c: Rgba) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)
}

fn build_path(path: &Path) -> Option<tiny_skia::Path> {
    let mut pb = tiny_skia::PathBuilder::with_capacity(path.cmds.len(), path.cmds.len() * 2);
    for cmd in &path.cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) => pb.move_to(x, y),
            PathCmd::LineTo(x, y) => pb.line_to(x, y),
            PathCmd::QuadTo(x1, y1, x, y) => pb.quad_to(x1, y1, x, y),
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => pb.cubic_to(x1, y1, x2, y2, x, y),
            PathCmd::Close => pb.close(),
        }
    }
    pb.finish()
}

fn stops(stops: &[(f32, Rgba)]) -> Vec<tiny_skia::GradientStop> {
    stops
        .iter()
        .map(|&(p, c)| tiny_skia::GradientStop::new(p.clamp(0.0, 1.0), color(c)))
        .collect()
}

/// The shader of a gradient with stops `s`, made by `make` from the tiny-skia stops: `None`
/// without stops, the colour of a single stop, and for a degenerate gradient (`make` gives
/// `None`) the last stop's colour, as canvas does.
fn gradient_shader(
    s: &[(f32, Rgba)],
    make: impl FnOnce(Vec<tiny_skia::GradientStop>) -> Option<tiny_skia::Shader<'static>>,
) -> Option<tiny_skia::Shader<'static>> {
    let last = s.last()?;
    if s.len() == 1 {
        return Some(tiny_skia::Shader::SolidColor(color(last.1)));
    }
    Some(make(stops(s)).unwrap_or(tiny_skia::Shader::SolidColor(color(last.1))))
}

/// A tiny-skia paint for a scene paint; `None` when nothing would be drawn.
fn paint(p: &Paint) -> Option<tiny_skia::Paint<'static>> {
    if p.is_invisible() {
        return None;
    }
    let shader = match p {
        Paint::Solid(c) => tiny_skia::Shader::SolidColor(color(*c)),
        Paint::LinearGradient {
            x0,
            y0,
            x1,
            y1,
            stops: s,
        } => gradient_shader(s, |stops| {
            tiny_skia::LinearGradient::new(
                tiny_skia::Point::from_xy(*x0, *y0),
                tiny_skia::Point::from_xy(*x1, *y1),
                stops,
                tiny_skia::SpreadMode::Pad,
                tiny_skia::Transform::identity(),
            )
        })?,
        Paint::RadialGradient {
            x0,
            y0,
            x1,
            y1,
            r1,
            stops: s,
            ..
        } => gradient_shader(s, |stops| {
            // tiny-skia's two-point conical gradient has a zero start radius; Chart.js's
            // charts use radial gradients only from user configs, rarely with r0 > 0.
            tiny_skia::RadialGradient::new(
                tiny_skia::Point::from_xy(*x0, *y0),
                tiny_skia::Point::from_xy(*x1, *y1),
                *r1,
                stops,
                tiny_skia::SpreadMode::Pad,
                tiny_skia::Transform::identity(),
            )
        })?,
    };
    Some(tiny_skia::Paint {
        shader,
        anti_alias: true,
        ..tiny_skia::Paint::default()
    })
}

fn stroke_style(s: &Stroke) -> tiny_skia::Stroke {
    let dash = if s.dash.is_empty() || s.dash.iter().any(|d| !d.is_finite() || *d < 0.0) {
        None
    } else {
        // Canvas repeats an odd dash list to make it even (HTML `setLineDash`).
        let mut list = s.dash.clone();
        if list.len() % 2 == 1 {
            list.extend_from_within(..);
        }
        if list.iter().sum::<f32>() > 0.0 {
            tiny_skia::StrokeDash::new(list, s.dash_offset)
        } else {
            None
        }
    };
    tiny_skia::Stroke {
        width: s.width,
        miter_limit: s.miter_limit,
        line_cap: match s.cap {
            LineCap::Butt => tiny_skia::LineCap::Butt,
            LineCap::Round => tiny_skia::LineCap::Round,
            LineCap::Square => tiny_skia::LineCap::Square,
        },
        line_join: match s.join {
            LineJoin::Miter => tiny_skia::LineJoin::Miter,
            LineJoin::Round => tiny_skia::LineJoin::Round,
            LineJoin::Bevel => tiny_skia::LineJoin::Bevel,
        },
        dash,
    }
}

/// A paint defined in user space, mapped to device space (gradient end points).
fn device_paint(p: &Paint, t: Transform) -> Paint {
    match p {
        Paint::Solid(_) => p.clone(),
        Paint::LinearGradient {
            x0,
            y0,
            x1,
            y1,
            stops,
        } => {
            let (x0, y0) = t.apply(*x0, *y0);
            let (x1, y1) = t.apply(*x1, *y1);
            Paint::LinearGradient {
                x0,
                y0,
                x1,
                y1,
                stops: stops.clone(),
            }
        }
        Paint::RadialGradient {
            x0,
            y0,
            r0,
            x1,
            y1,
            r1,
            stops,
        } => {
            let s = (t.a * t.d - t.b * t.c).abs().sqrt();
            let (x0, y0) = t.apply(*x0, *y0);
            let (x1, y1) = t.apply(*x1, *y1);
            Paint::RadialGradient {
                x0,
                y0,
                r0: r0 * s,
                x1,
                y1,
                r1: r1 * s,
                stops: stops.clone(),
            }
        }
    }
}

/// The current clip mask; `Err` when the clip is empty and nothing is visible.
fn top_mask(clips: &[Clip]) -> Result<Option<&tiny_skia::Mask>, ()> {
    match clips.last() {
        None | Some(Clip::All) => Ok(None),
        Some(Clip::Mask(m, ..)) => Ok(Some(m)),
        // An empty clip: nothing is visible.
        Some(Clip::Nothing) => Err(()),
    }
}

/// One level of the clip stack.
#[derive(Clone)]
enum Clip {
    /// Everything visible (a clip that covers the whole bitmap).
    All,
    /// Coverage mask (shared: the same clip is often pushed many times), and for rectangular
    /// clips the device rectangle (x0, y0, x1, y1) where the mask is fully opaque: items
    /// inside it are drawn without the mask, which is the same result for less work.
    /// The last field is the clip's device rectangle when it is one (Skia intersects
    /// anti-aliased rectangular clips geometrically, `SkClipStack`).
    Mask(Rc<tiny_skia::Mask>, Option<[f32; 4]>, Option<[f32; 4]>),
    /// Nothing visible (an empty path).
    Nothing,
}

/// The mask of the current clip for drawing inside device `bounds`; `Err` when nothing
/// is visible.
fn mask_for(clips: &[Clip], bounds: Option<[f32; 4]>) -> Result<Option<&tiny_skia::Mask>, ()> {
    if let (Some(Clip::Mask(_, Some(inner), _)), Some(b)) = (clips.last(), bounds) {
        // Anti-aliased edges reach half a pixel further: compare whole pixels.
        if b[0].floor() >= inner[0]
            && b[1].floor() >= inner[1]
            && b[2].ceil() <= inner[2]
            && b[3].ceil() <= inner[3]
        {
            return Ok(None);
        }
    }
    top_mask(clips)
}

/// Device bounds of a path under a transform, grown by `pad` device pixels.
fn device_bounds(p: &tiny_skia::Path, t: Transform, pad: f32) -> Option<[f32; 4]> {
    let b = p.bounds();
    let corners = [
        t.apply(b.left(), b.top()),
        t.apply(b.right(), b.top()),
        t.apply(b.left(), b.bottom()),
        t.apply(b.right(), b.bottom()),
    ];
    let min_x = corners.iter().map(|c| c.0).fold(f32::INFINITY, f32::min) - pad;
    let min_y = corners.iter().map(|c| c.1).fold(f32::INFINITY, f32::min) - pad;
    let max_x = corners
        .iter()
        .map(|c| c.0)
        .fold(f32::NEG_INFINITY, f32::max)
        + pad;
    let max_y = corners
        .iter()
        .map(|c| c.1)
        .fold(f32::NEG_INFINITY, f32::max)
        + pad;
    let r = [min_x, min_y, max_x, max_y];
    r.iter().all(|v| v.is_finite()).then_some(r)
}

/// The device rectangle (x0, y0, x1, y1) of a path that is an axis-aligned rectangle.
fn device_rect(path: &Path, t: Transform) -> Option<[f32; 4]> {
    if t.b != 0.0 || t.c != 0.0 {
        return None;
    }
    let pts: Vec<(f32, f32)> = match path.cmds.as_slice() {
        [PathCmd::MoveTo(x0, y0), PathCmd::LineTo(x1, y1), PathCmd::LineTo(x2, y2), PathCmd::LineTo(x3, y3), rest @ ..]
            if rest.iter().all(|c| matches!(c, PathCmd::Close)) =>
        {
            [(*x0, *y0), (*x1, *y1), (*x2, *y2), (*x3, *y3)]
                .iter()
                .map(|&(x, y)| t.apply(x, y))
                .collect()
        }
        _ => return None,
    };
    let axis_aligned = (0..4).all(|i| {
        let (a, b) = (pts[i], pts[(i + 1) % 4]);
        a.0 == b.0 || a.1 == b.1
    });
    if !axis_aligned {
        return None;
    }
    let min_x = pts.iter().map(|p| p.0).fold(f32::INFINITY, f32::min);
    let max_x = pts.iter().map(|p| p.0).fold(f32::NEG_INFINITY, f32::max);
    let min_y = pts.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
    let max_y = pts.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
    Some([min_x, min_y, max_x, max_y])
}

/// The device rectangle covered by stroking one axis-aligned, undashed segment with butt or
/// square caps (a grid line, a tick, a border): the outline the stroker would build.
fn stroked_segment_rect(path: &Path, stroke: &Stroke, t: Transform) -> Option<[f32; 4]> {
    if t.b != 0.0 || t.c != 0.0 || !stroke.dash.is_empty() || stroke.cap == LineCap::Round {
        return None;
    }
    // Strokes at most one device pixel wide are drawn as modulated hairlines by the stroker
    // (`treat_as_hairline`), not as filled outlines.
    if stroke.width * t.a.abs().max(t.d.abs()) <= 1.0 {
        return None;
    }
    let [PathCmd::MoveTo(ax, ay), PathCmd::LineTo(bx, by)] = path.cmds.as_slice() else {
        return None;
    };
    let ((x0, y0), (x1, y1)) = (t.apply(*ax, *ay), t.apply(*bx, *by));
    let (hx, hy) = (
        stroke.width * 0.5 * t.a.abs(),
        stroke.width * 0.5 * t.d.abs(),
    );
    let square = stroke.cap == LineCap::Square;
    let r = if x0 == x1 && y0 != y1 {
        let cap = if square { hy } else { 0.0 };
        [x0 - hx, y0.min(y1) - cap, x0 + hx, y0.max(y1) + cap]
    } else if y0 == y1 && x0 != x1 {
        let cap = if square { hx } else { 0.0 };
        [x0.min(x1) - cap, y0 - hy, x0.max(x1) + cap, y0 + hy]
    } else {
        return None;
    };
    r.iter().all(|v| v.is_finite()).then_some(r)
}

/// A paint whose shader is mapped by `t`, for drawing in device space with the identity
/// transform (what `fill_path` does itself when given `t`).
fn device_space(mut sp: tiny_skia::Paint<'static>, t: Transform) -> tiny_skia::Paint<'static> {
    sp.shader.transform(ts(t));
    sp
}

/// Where a rectangular clip (within its parent) leaves the mask fully opaque: the whole
/// device pixels inside the rectangle.
fn inner_rect(path: &Path, t: Transform, parent: &Clip) -> Option<[f32; 4]> {
    let r = device_rect(path, t)?;
    let mut inner = [r[0].ceil(), r[1].ceil(), r[2].floor(), r[3].floor()];
    match parent {
        Clip::All => {}
        Clip::Mask(_, Some(p), _) => {
            inner = [
                inner[0].max(p[0]),
                inner[1].max(p[1]),
                inner[2].min(p[2]),
                inner[3].min(p[3]),
            ];
        }
        _ => return None,
    }
    (inner[0] < inner[2] && inner[1] < inner[3]).then_some(inner)
}

/// Whether a clip path is an axis-aligned rectangle containing the whole bitmap.
fn covers_bitmap(path: &Path, t: Transform, w: u32, h: u32) -> bool {
    device_rect(path, t)
        .is_some_and(|r| r[0] <= 0.0 && r[1] <= 0.0 && r[2] >= w as f32 && r[3] >= h as f32)
}

impl Painter<'_> {
    fn item(&mut self, item: &Item) {
        match item {
            Item::Fill {
                path,
                paint: p,
                transform,
            } => {
                let t = self.base.then(*transform);
                self.fill(path, p, t);
            }
            Item::Stroke {
                path,
                paint: p,
                stroke,
                transform,
            } => {
                let t = self.base.then(*transform);
                self.stroke(path, p, stroke, t);
            }
            Item::Text(t) => self.text(t),
            Item::PushClip { path, transform } => self.push_clip(path, *transform),
            Item::PopClip => {
                self.clips.pop();
            }
        }
    }

    fn fill(&mut self, path: &Path, p: &Paint, t: Transform) {
        let Some(tp) = build_path(path) else {
            return;
        };
        let Some(sp) = paint(p) else {
            return;
        };
        // Gradients are defined in the user space of the path: `fill_path` maps the shader
        // with the path's transform (mapping it here too would apply it twice).
        if let Some(r) = device_rect(path, t) {
            self.fill_device_rect(r, &device_space(sp, t));
            return;
        }
        let Ok(mask) = mask_for(&self.clips, device_bounds(&tp, t, 0.0)) else {
            return;
        };
        self.pixmap
            .fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), mask);
    }

    /// Fills a device-space rectangle exactly as the supersampling path filler would, for a
    /// fraction of the work: the whole pixels inside it are one plain blit, and only the
    /// fractional border strips go through the path filler. A pixel's coverage depends only on
    /// the part of the rectangle inside that pixel, so cutting along whole-pixel lines changes
    /// no pixel. Grid lines, ticks, bars and legend boxes are such rectangles, and before this
    /// they made up most of a render's time.
    fn fill_device_rect(&mut self, r: [f32; 4], sp: &tiny_skia::Paint<'_>) {
        let [x0, y0, x1, y1] = r;
        if !(x0 < x1 && y0 < y1) {
            return;
        }
        // The blit takes whole pixels on the bitmap only (tiny-skia shifts a rectangle that
        // starts above or left of the bitmap instead of cutting it).
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        let (ix0, iy0) = (x0.ceil().max(0.0), y0.ceil().max(0.0));
        let (ix1, iy1) = (x1.floor().min(w), y1.floor().min(h));
        let mut strips = Vec::with_capacity(4);
        if ix0 < ix1 && iy0 < iy1 {
            if let Ok(mask) = mask_for(&self.clips, Some([ix0, iy0, ix1, iy1])) {
                let mut solid = sp.clone();
                solid.anti_alias = false;
                if let Some(inner) = tiny_skia::Rect::from_ltrb(ix0, iy0, ix1, iy1) {
                    self.pixmap
                        .fill_rect(inner, &solid, tiny_skia::Transform::identity(), mask);
                }
            }
            strips.extend([
                [x0, y0, x1, iy0],
                [x0, iy1, x1, y1],
                [x0, iy0, ix0, iy1],
                [ix1, iy0, x1, iy1],
            ]);
        } else {
            strips.push(r);
        }
        // One path for all the strips: they never overlap, so each pixel's coverage is the
        // same as with separate fills, and the path filler's per-call set-up (zeroed run
        // buffers as wide as the bitmap) is paid once.
        let mut pb = tiny_skia::PathBuilder::new();
        for [l, t, rr, b] in strips {
            if l < rr && t < b {
                if let Some(rect) = tiny_skia::Rect::from_ltrb(l, t, rr, b) {
                    pb.push_rect(rect);
                }
            }
        }
        let Some(border) = pb.finish() else {
            return; // every edge was on a pixel boundary
        };
        let Ok(mask) = mask_for(&self.clips, Some(r)) else {
            return;
        };
        self.pixmap.fill_path(
            &border,
            sp,
            tiny_skia::FillRule::Winding,
            tiny_skia::Transform::identity(),
            mask,
        );
    }

    /// Fills a device-space path with a solid colour at exact-area coverage, clipped.
    fn fill_exact(&mut self, path: &tiny_skia::Path, c: Rgba) {
        if c.a == 0 {
            return;
        }
        let b = path.bounds();
        let bounds = Some([b.left(), b.top(), b.right(), b.bottom()]);
        let Ok(mask) = mask_for(&self.clips, bounds) else {
            return;
        };
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        let Some(cov) = coverage::Coverage::of_path(path, pw, ph) else {
            return;
        };
        let a = c.a as f32 / 255.0;
        let src = [c.r as f32 * a, c.g as f32 * a, c.b as f32 * a, c.a as f32];
        let data = self.pixmap.data_mut();
        for y in 0..cov.height {
            let py = cov.y0 as usize + y;
            for x in 0..cov.width {
                // Coverage is kept to 8 bits like a glyph mask.
                let mut k = (cov.at(x, y) * 255.0).round() / 255.0;
                if k <= 0.0 {
                    continue;
                }
                let i = py * pw as usize + cov.x0 as usize + x;
                if let Some(m) = mask {
                    k *= m.data()[i] as f32 / 255.0;
                    if k <= 0.0 {
                        continue;
                    }
                }
                // Source-over with coverage on premultiplied pixels.
                let keep = 1.0 - a * k;
                let d = &mut data[i * 4..i * 4 + 4];
                for (ch, s) in d.iter_mut().zip(src) {
                    *ch = (s * k + *ch as f32 * keep).round().clamp(0.0, 255.0) as u8;
                }
            }
        }
    }

    fn stroke(&mut self, path: &Path, p: &Paint, stroke: &Stroke, t: Transform) {
        // Canvas ignores a lineWidth of 0, negative or NaN; Chart.js skips such strokes.
        if !stroke.width.is_finite() || stroke.width <= 0.0 {
            return;
        }
        let Some(tp) = build_path(path) else {
            return;
        };
        let Some(sp) = paint(p) else {
            return;
        };
        if let Some(r) = stroked_segment_rect(path, stroke, t) {
            self.fill_device_rect(r, &device_space(sp, t));
            return;
        }
        let st = stroke_style(stroke);
        // Joins reach at most miter-limit half-widths out (square caps √2).
        let scale = (t.a * t.a + t.b * t.b)
            .sqrt()
            .max((t.c * t.c + t.d * t.d).sqrt());
        let pad = stroke.width * 0.5 * stroke.miter_limit.max(1.5) * scale + 1.0;
        let Ok(mask) = mask_for(&self.clips, device_bounds(&tp, t, pad)) else {
            return;
        };
        self.pixmap.stroke_path(&tp, &sp, &st, ts(t), mask);
    }

    fn push_clip(&mut self, path: &Path, transform: Transform) {
        let t = self.base.then(transform);
        let (w, h) = (self.pixmap.width(), self.pixmap.height());
        let parent = self.clips.last().cloned().unwrap_or(Clip::All);
        let next = match parent {
            Clip::Nothing => Clip::Nothing,
            // A clip around the whole bitmap changes nothing: no mask to build.
            _ if covers_bitmap(path, t, w, h) => parent,
            _ => {
                let parent_key = match &parent {
                    Clip::Mask(m, ..) => Some(Rc::as_ptr(m) as usize),
                    _ => None,
                };
                let cached = self
                    .clip_cache
                    .iter()
                    .find(|(p, ct, pk, ..)| *pk == parent_key && *ct == t && p == path);
                match cached {
                    Some((.., m, inner, rect)) => Clip::Mask(m.clone(), *inner, *rect),
                    None => match build_path(path) {
                        None => Clip::Nothing,
                        Some(p) => {
                            // A rectangle within a rectangle: intersect the rectangles and
                            // cover the result once, as Skia's clip stack does.
                            let rect = match (device_rect(path, t), &parent) {
                                (Some(r), Clip::All) => Some(r),
                                (Some(r), Clip::Mask(_, _, Some(q))) => Some([
                                    r[0].max(q[0]),
                                    r[1].max(q[1]),
                                    r[2].min(q[2]),
                                    r[3].min(q[3]),
                                ]),
                                _ => None,
                            };
                            let rect_path = rect.map(|r| {
                                tiny_skia::Rect::from_ltrb(r[0], r[1], r[2], r[3])
                                    .map(tiny_skia::PathBuilder::from_rect)
                            });
                            let mask = match (&rect_path, &parent) {
                                // An empty intersection leaves nothing visible.
                                (Some(None), _) => None,
                                (Some(Some(rp)), _) => tiny_skia::Mask::new(w, h).map(|mut m| {
                                    m.fill_path(
                                        rp,
                                        tiny_skia::FillRule::Winding,
                                        true,
                                        tiny_skia::Transform::identity(),
                                    );
                                    m
                                }),
                                (None, Clip::Mask(prev, ..)) => {
                                    let mut m = (**prev).clone();
                                    m.intersect_path(&p, tiny_skia::FillRule::Winding, true, ts(t));
                                    Some(m)
                                }
                                (None, _) => tiny_skia::Mask::new(w, h).map(|mut m| {
                                    m.fill_path(&p, tiny_skia::FillRule::Winding, true, ts(t));
                                    m
                                }),
                            };
                            let rect = rect.filter(|_| !matches!(rect_path, Some(None)));
                            match mask {
                                Some(m) => {
                                    let m = Rc::new(m);
                                    let inner = match rect {
                                        Some(r) => {
                                            let i = [
                                                r[0].ceil(),
                                                r[1].ceil(),
                                                r[2].floor(),
                                                r[3].floor(),
                                            ];
                                            (i[0] < i[2] && i[1] < i[3]).then_some(i)
                                        }
                                        None => inner_rect(path, t, &parent),
                                    };
                                    // Every mask on the stack comes from this cache, which
                                    // keeps it alive: a parent's address is never reused.
                                    self.clip_cache.push((
                                        path.clone(),
                                        t,
                                        parent_key,
                                        m.clone(),
                                        inner,
                                        rect,
                                    ));
                                    Clip::Mask(m, inner, rect)
                                }
                                None => Clip::Nothing,
                            }
                        }
                    },
                }
            }
        };
        self.clips.push(next);
    }

    fn text(&mut self, item: &TextItem) {
        if item.text.is_empty() {
            return;
        }
        match self.text {
            TextEngine::System(_) => self.outline_text(item),
            #[cfg(feature = "sprite-text")]
            TextEngine::Sprite(sprite) => self.sprite_text(item, sprite),
        }
    }

    fn outline_text(&mut self, item: &TextItem) {
        let t = self.base.then(item.transform);
        let axis_aligned = t.b == 0.0 && t.c == 0.0 && t.a > 0.0 && t.d > 0.0;
        let hint = axis_aligned.then_some(t.d);
        let Some(line) = self.text.shape(&item.font, &item.text, hint) else {
            return;
        };
        let dx = match item.align {
            TextAlign::Left => 0.0,
            TextAlign::Center => -line.width / 2.0,
            TextAlign::Right => -line.width,
        };
        let b = line.baselines;
        let dy = -match item.baseline {
            TextBaseline::Alphabetic => 0.0,
            TextBaseline::Top => b.top,
            TextBaseline::Hanging => b.hanging,
            TextBaseline::Middle => b.middle,
            TextBaseline::Ideographic => b.ideographic,
            TextBaseline::Bottom => b.bottom,
        };
        let (ox, oy) = (item.x + dx, item.y + dy);
        // Skia's glyph placement for unrotated text: the baseline snaps to whole device
        // pixels and each glyph origin to a quarter pixel (subpixel positioning rounds
        // `x + 1/8` down to a multiple of 1/4). Rotated text is placed exactly.
        let mut path = Path::new();
        for glyph in &line.glyphs {
            let (gt, scale_x, scale_y) = if axis_aligned {
                let (x, y) = t.apply(ox + glyph.x, oy);
                let x = ((x + 0.125) * 4.0).floor() / 4.0;
                let y = (y + 0.5).floor();
                (Transform::translate(x, y), t.a, t.d)
            } else {
                (t.then(Transform::translate(ox + glyph.x, oy)), 1.0, 1.0)
            };
            for cmd in &glyph.path.cmds {
                let m = |x: f32, y: f32| gt.apply(x * scale_x, y * scale_y);
                path.cmds.push(match *cmd {
                    PathCmd::MoveTo(x, y) => {
                        let (x, y) = m(x, y);
                        PathCmd::MoveTo(x, y)
                    }
                    PathCmd::LineTo(x, y) => {
                        let (x, y) = m(x, y);
                        PathCmd::LineTo(x, y)
                    }
                    PathCmd::QuadTo(x1, y1, x, y) => {
                        let (x1, y1) = m(x1, y1);
                        let (x, y) = m(x, y);
                        PathCmd::QuadTo(x1, y1, x, y)
                    }
                    PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                        let (x1, y1) = m(x1, y1);
                        let (x2, y2) = m(x2, y2);
                        let (x, y) = m(x, y);
                        PathCmd::CubicTo(x1, y1, x2, y2, x, y)
                    }
                    PathCmd::Close => PathCmd::Close,
                });
            }
        }
        // The path is in device space now.
        let device = Transform::IDENTITY;
        let dev_scale = (t.a * t.d - t.b * t.c).abs().sqrt();
        if let Some((stroke, p)) = &item.stroke {
            let s = Stroke {
                width: stroke.width * dev_scale,
                dash: stroke.dash.iter().map(|d| d * dev_scale).collect(),
                dash_offset: stroke.dash_offset * dev_scale,
                ..stroke.clone()
            };
            self.stroke(&path, &device_paint(p, t), &s, device);
        }
        let fill = device_paint(&item.paint, t);
        match (&fill, build_path(&path)) {
            // Glyphs are covered by exact area, as FreeType's smooth rasteriser makes
            // Chrome's glyph masks (shapes keep Skia's supersampling, see the module docs).
            // Against Chromium's Chart.js renders this cut text mismatches by 10–25%.
            (Paint::Solid(c), Some(dp)) if std::env::var("NOEXACT").is_err() => {
                self.fill_exact(&dp, *c)
            }
            _ => self.fill(&path, &fill, device),
        }
        if line.embolden > 0.0 {
            let s = Stroke {
                width: line.embolden * dev_scale,
                ..Stroke::default()
            };
            self.stroke(&path, &fill, &s, device);
        }
    }

    /// The harness's `fillText` (fixtures README, "Sprite text"): cells of the sprite image
    /// copied with `drawImage` at the shifted position, fill colour ignored.
    #[cfg(feature = "sprite-text")]
    fn sprite_text(&mut self, item: &TextItem, sprite: &crate::text::sprite::SpriteFont) {
        if self.sprite.is_none() {
            let mut data = sprite.image.clone();
            for px in data.chunks_exact_mut(4) {
                let a = px[3] as u32;
                for c in &mut px[..3] {
                    *c = ((*c as u32 * a + 127) / 255) as u8;
                }
            }
            self.sprite = tiny_skia::IntSize::from_wh(sprite.image_width, sprite.image_height)
                .and_then(|size| tiny_skia::Pixmap::from_vec(data, size));
        }
        let Some(image) = self.sprite.take() else {
            return;
        };
        let width = sprite.measure(&item.text);
        let mut x = item.x;
        match item.align {
            TextAlign::Left => {}
            TextAlign::Center => x -= width / 2.0,
            TextAlign::Right => x -= width,
        }
        let fh = sprite.font_height as f32;
        let y = item.y
            - match item.baseline {
                TextBaseline::Top | TextBaseline::Hanging => fh,
                TextBaseline::Middle | TextBaseline::Alphabetic | TextBaseline::Ideographic => {
                    fh / 2.0
                }
                TextBaseline::Bottom => 0.0,
            };
        let t = self.base.then(item.transform);
        // Blink draws images without anti-aliased edges while the transform keeps rectangles
        // rectangles (scales, quarter turns), unless a cell would be under a device pixel
        // (`ShouldDrawImageAntialiased`).
        // Skia snaps the sine and cosine of a rotation to zero when nearly zero
        // (`SkScalarSinSnapToZero`), so a quarter turn keeps rectangles.
        let zero = |v: f32| v.abs() <= 1.0 / 4096.0;
        let rect_stays_rect = (zero(t.b) && zero(t.c)) || (zero(t.a) && zero(t.d));
        let (expand_w, expand_h) = if zero(t.b) && zero(t.c) {
            (t.a.abs(), t.d.abs())
        } else {
            (t.b.abs(), t.c.abs())
        };
        for cell in sprite.cells(&item.text) {
            if cell.width == 0 {
                continue;
            }
            let (dx, dy) = (x + cell.dx, y);
            let aa = !rect_stays_rect || cell.width as f32 * expand_w < 1.0 || fh * expand_h < 1.0;
            let Some(dest) =
                tiny_skia::Rect::from_xywh(dx, dy, cell.width as f32, sprite.font_height as f32)
            else {
                continue;
            };
            // Skia filters bilinearly unless the whole mapping is an integer translation;
            // tiny-skia also drops to nearest for fractional translations, so a translation
            // gets a negligible scale (1e-6 of a pixel over a cell) to keep it bilinear.
            let (ddx, ddy) = t.apply(dx, dy);
            let translate_only = t.b == 0.0 && t.c == 0.0 && t.a == 1.0 && t.d == 1.0;
            let fractional = ddx.fract() != 0.0 || ddy.fract() != 0.0;
            // The pattern is the whole sprite sheet: Blink draws with Skia's fast source-rect
            // constraint, so filtering at a cell's edge reads the sheet's neighbouring pixels.
            // Skia's bitmap sampler (`SkBitmapProcState`, which drew Chart.js's reference
            // images) filters with 4-bit sub-pixel weights: the sampling phase is truncated
            // to 1/16 px. Shifting the pattern by the truncated part reproduces its blend;
            // with exact phases the sprite text of the time-scale cases was 8 levels off.
            let truncate_phase = |d: f32| {
                let f = (-d).rem_euclid(1.0);
                f - (f * 16.0).floor() / 16.0
            };
            let (ax, ay) = if translate_only {
                (truncate_phase(ddx), truncate_phase(ddy))
            } else {
                (0.0, 0.0)
            };
            let mut pattern_ts = tiny_skia::Transform::from_translate(
                dx - cell.sx as f32 + ax,
                dy - cell.sy as f32 + ay,
            );
            if translate_only && fractional {
                pattern_ts = pattern_ts.pre_scale(1.0 + 1e-6, 1.0 + 1e-6);
            }
            // Without anti-aliasing Skia fills the device rectangle with its edges rounded
            // half up (`SkScan::FillRect` after `SkRect::round`); draw that pixel rectangle
            // in device space, the pattern carrying the transform.
            let (dest, draw_ts, pattern_ts) = if aa {
                (dest, ts(t), pattern_ts)
            } else {
                let (x0, y0) = t.apply(dest.left(), dest.top());
                let (x1, y1) = t.apply(dest.right(), dest.bottom());
                let round = |v: f32| (v + 0.5).floor();
                let Some(r) = tiny_skia::Rect::from_ltrb(
                    round(x0.min(x1)),
                    round(y0.min(y1)),
                    round(x0.max(x1)),
                    round(y0.max(y1)),
                ) else {
                    continue;
                };
                (
                    r,
                    tiny_skia::Transform::identity(),
                    ts(t).pre_concat(pattern_ts),
                )
            };
            let pattern = tiny_skia::Pattern::new(
                image.as_ref(),
                tiny_skia::SpreadMode::Pad,
                tiny_skia::FilterQuality::Bilinear,
                1.0,
                pattern_ts,
            );
            let p = tiny_skia::Paint {
                shader: pattern,
                anti_alias: aa,
                ..tiny_skia::Paint::default()
            };
            let Ok(mask) = top_mask(&self.clips) else {
                break;
            };
            self.pixmap.fill_rect(dest, &p, draw_ts, mask);
        }
        self.sprite = Some(image);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(items: Vec<Item>, dpr: f32) -> Scene {
        Scene {
            width: 20.0,
            height: 10.0,
            device_pixel_ratio: dpr,
            background: Rgba::TRANSPARENT,
            items,
        }
    }

    fn px(b: &Bitmap, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * b.width + x) * 4) as usize;
        [b.data[i], b.data[i + 1], b.data[i + 2], b.data[i + 3]]
    }

    #[test]
    fn fills_at_device_pixel_ratio() {
        let mut path = Path::new();
        path.rect(0.0, 0.0, 5.0, 5.0);
        let s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba::rgb(255, 0, 0)),
                transform: Transform::IDENTITY,
            }],
            2.0,
        );
        let b = rasterize(&s, &TextEngine::system()).unwrap();
        assert_eq!((b.width, b.height), (40, 20));
        assert_eq!(px(&b, 9, 9), [255, 0, 0, 255]);
        assert_eq!(px(&b, 10, 10), [0, 0, 0, 0]);
    }

    #[test]
    fn clip_limits_and_pops() {
        let mut clip = Path::new();
        clip.rect(0.0, 0.0, 10.0, 10.0);
        let mut full = Path::new();
        full.rect(0.0, 0.0, 20.0, 10.0);
        let red = Paint::Solid(Rgba::rgb(255, 0, 0));
        let s = scene(
            vec![
                Item::PushClip {
                    path: clip,
                    transform: Transform::IDENTITY,
                },
                Item::Fill {
                    path: full.clone(),
                    paint: red.clone(),
                    transform: Transform::IDENTITY,
                },
                Item::PopClip,
            ],
            1.0,
        );
        let b = rasterize(&s, &TextEngine::system()).unwrap();
        assert_eq!(px(&b, 5, 5), [255, 0, 0, 255]);
        assert_eq!(px(&b, 15, 5)[3], 0);
    }

    #[test]
    fn repeated_and_nested_clips() {
        let rect = |x: f32, y: f32, w: f32, h: f32| {
            let mut p = Path::new();
            p.rect(x, y, w, h);
            p
        };
        let clip = |p: Path| Item::PushClip {
            path: p,
            transform: Transform::IDENTITY,
        };
        let fill = |c: Rgba| Item::Fill {
            path: rect(0.0, 0.0, 20.0, 10.0),
            paint: Paint::Solid(c),
            transform: Transform::IDENTITY,
        };
        let (red, blue) = (Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255));
        let s = scene(
            vec![
                // A clip around the whole canvas changes nothing.
                clip(rect(-5.0, -5.0, 40.0, 40.0)),
                clip(rect(0.0, 0.0, 10.0, 10.0)),
                fill(red),
                Item::PopClip,
                // The same clip again (cached), then a nested one.
                clip(rect(0.0, 0.0, 10.0, 10.0)),
                clip(rect(5.0, 0.0, 10.0, 10.0)),
                fill(blue),
                Item::PopClip,
                Item::PopClip,
                Item::PopClip,
            ],
            1.0,
        );
        let b = rasterize(&s, &TextEngine::system()).unwrap();
        assert_eq!(px(&b, 2, 5), [255, 0, 0, 255]);
        assert_eq!(px(&b, 7, 5), [0, 0, 255, 255]);
        assert_eq!(px(&b, 12, 5)[3], 0);
    }

    #[cfg(feature = "sprite-text")]
    #[test]
    fn sprite_cells_round_half_up_and_shift_by_baseline() {
        use crate::text::sprite::SpriteFont;
        // A 34×34 sheet of opaque red: every cell is a solid block.
        let sprite = SpriteFont {
            widths: vec![4.0; 224],
            first_char_code: 32,
            cell_width: 17,
            cell_height: 17,
            font_height: 16,
            image_width: 34,
            image_height: 34,
            image: [255, 0, 0, 255].repeat(34 * 34),
        };
        let item = |x: f32, baseline| {
            Item::Text(TextItem {
                text: " ".into(),
                x,
                y: 20.0,
                font: chart_spec::font::FontSpec::default(),
                paint: Paint::Solid(Rgba::BLACK),
                align: TextAlign::Left,
                baseline,
                transform: Transform::IDENTITY,
                stroke: None,
            })
        };
        let mut s = scene(vec![item(10.5, TextBaseline::Bottom)], 1.0);
        s.width = 40.0;
        s.height = 40.0;
        let b = rasterize(&s, &TextEngine::Sprite(sprite.clone())).unwrap();
        // x 10.5..14.5 fills pixels 11..15 (SkScan::FillRect rounds half up), y 20..36.
        assert_eq!(px(&b, 10, 25)[3], 0);
        assert_eq!(px(&b, 11, 25), [255, 0, 0, 255]);
        assert_eq!(px(&b, 14, 25)[3], 255);
        assert_eq!(px(&b, 15, 25)[3], 0);
        assert_eq!(px(&b, 12, 19)[3], 0);
        assert_eq!(px(&b, 12, 35)[3], 255);
        // `middle` lifts the cell by 8: y 12..28.
        s.items = vec![item(10.0, TextBaseline::Middle)];
        let b = rasterize(&s, &TextEngine::Sprite(sprite)).unwrap();
        assert_eq!(px(&b, 12, 12)[3], 255);
        assert_eq!(px(&b, 12, 11)[3], 0);
        assert_eq!(px(&b, 12, 28)[3], 0);
    }

    #[test]
    fn half_transparent_fill_is_straight_alpha() {
        let mut path = Path::new();
        path.rect(0.0, 0.0, 20.0, 10.0);
        let s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba {
                    r: 54,
                    g: 162,
                    b: 235,
                    a: 128,
                }),
                transform: Transform::IDENTITY,
            }],
            1.0,
        );
        let b = rasterize(&s, &TextEngine::system()).unwrap();
        let p = px(&b, 3, 3);
        assert_eq!(p[3], 128);
        assert!((p[0] as i32 - 54).abs() <= 1 && (p[2] as i32 - 235).abs() <= 1);
    }

    #[test]
    fn text_draws_ink() {
        let item = Item::Text(TextItem {
            text: "Hi".into(),
            x: 2.0,
            y: 5.0,
            font: chart_spec::font::FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Left,
            baseline: TextBaseline::Middle,
            transform: Transform::IDENTITY,
            stroke: None,
        });
        let b = rasterize(&scene(vec![item], 1.0), &TextEngine::system()).unwrap();
        let ink = b.data.chunks_exact(4).filter(|p| p[3] > 128).count();
        assert!(ink > 10, "only {ink} inked pixels");
    }
}
