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
//!
//! Where the time goes, and what is done about it:
//! - axis-aligned rectangles in a solid colour (grid lines, ticks, bars, legend boxes) are
//!   filled by `rect.rs`, which computes the supersampler's coverage and the pipeline's blend
//!   bit for bit without running either;
//! - rectangle clips stay rectangles and build their mask only for other shapes (`clip.rs`);
//! - bitmap and mask buffers are reused between renders (`pool.rs`): fresh pages cost more
//!   kernel time than the drawing;
//! - glyphs are covered once per outline, transform and quarter-pixel phase, and kept as
//!   masks (`glyphs.rs`).

use crate::scene::{
    Item, LineCap, LineJoin, Paint, Path, PathCmd, Scene, Stroke, TextAlign, TextBaseline,
    TextItem, Transform,
};
use crate::text::TextEngine;
use crate::Error;
use chart_spec::{Bitmap, Rgba};

mod band;
mod clip;
mod coverage;
pub mod glyphs;
mod guard;
pub mod pool;
mod rect;

use clip::ClipStack;
use glyphs::GlyphCache;
use pool::Pool;

/// What renders keep for the renders after them: pixel buffers and glyph masks. One per
/// engine, shared by its renders.
#[derive(Default)]
pub struct Reuse {
    /// Bitmap and clip-mask buffers.
    pub buffers: Pool,
    /// Coverage masks of glyphs.
    pub glyphs: GlyphCache,
}

/// Rasterises a scene, with buffers and glyph masks from `reuse` (give the bitmap's data
/// back to `reuse.buffers` when done with it).
pub fn rasterize(
    scene: &Scene,
    text: &TextEngine,
    reuse: &Reuse,
    cancel: &chart_spec::Cancel,
) -> Result<Bitmap, Error> {
    rasterize_until(scene, text, reuse, &|| cancel.is_cancelled())
}

/// [`rasterize`] with the stop signal as a function (tests count its polls).
fn rasterize_until(
    scene: &Scene,
    text: &TextEngine,
    reuse: &Reuse,
    stop: &dyn Fn() -> bool,
) -> Result<Bitmap, Error> {
    let pool = &reuse.buffers;
    let dpr = if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
        scene.device_pixel_ratio
    } else {
        1.0
    };
    // Mirrors `retinaScale` in Chart.js helpers.dom: the device size is floored.
    let width = (scene.width * dpr).floor().max(0.0) as u32;
    let height = (scene.height * dpr).floor().max(0.0) as u32;
    let size_error = || Error::BitmapSize { width, height };
    let size = tiny_skia::IntSize::from_wh(width, height).ok_or_else(size_error)?;
    let len = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(4))
        .ok_or_else(size_error)?;
    // The background is written with the buffer, in one pass (what `Pixmap::fill` would
    // store: the colour premultiplied).
    let bg = scene.background;
    let fill = tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a)
        .premultiply()
        .to_color_u8();
    let fill = [fill.red(), fill.green(), fill.blue(), fill.alpha()];
    let data = if fill.iter().all(|&v| v == fill[0]) {
        pool.take_filled(len, fill[0])
    } else {
        let mut data = pool.take_filled(len, 0);
        for px in data.chunks_exact_mut(4) {
            px.copy_from_slice(&fill);
        }
        data
    };
    let mut pixmap = tiny_skia::Pixmap::from_vec(data, size).ok_or_else(size_error)?;
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
        clips: ClipStack::new(width, height),
        scratch: None,
        pool,
        glyphs: &reuse.glyphs,
        base,
        text,
        sprite: None,
        stop,
    };
    // Polled between items, and within an item between its stages and the bands of a huge
    // fill (`band.rs`): a cancelled render stops within a fraction of one item.
    let mut cancelled = false;
    for item in &scene.items {
        if stop() {
            cancelled = true;
            break;
        }
        painter.item(item);
    }
    // An item the stop cut short leaves a half-drawn image, even when it was the last.
    cancelled = cancelled || stop();
    painter.clips.recycle(pool);
    if let Some(m) = painter.scratch.take() {
        pool.give_mask(m);
    }
    if cancelled {
        pool.give(pixmap.take());
        return Err(Error::Cancelled);
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

/// How [`Painter::fill_covered`] colours covered pixels.
enum Brush {
    Solid(rect::SolidColor),
}

impl Brush {
    /// The brush of a paint; `None` when only tiny-skia draws it.
    fn of(p: &Paint) -> Option<Brush> {
        match p {
            Paint::Solid(c) => Some(Brush::Solid(rect::SolidColor::new(*c))),
            _ => None,
        }
    }

    fn is_invisible(&self) -> bool {
        matches!(self, Brush::Solid(c) if c.is_transparent())
    }
}

struct Painter<'a> {
    pixmap: &'a mut tiny_skia::Pixmap,
    clips: ClipStack,
    /// A bitmap-sized coverage mask for solid path fills, all zero between uses.
    scratch: Option<tiny_skia::Mask>,
    pool: &'a Pool,
    glyphs: &'a GlyphCache,
    base: Transform,
    text: &'a TextEngine,
    /// The sprite image as a pixmap, made on first use.
    #[allow(dead_code)]
    sprite: Option<tiny_skia::Pixmap>,
    /// The render's stop signal, also polled between the stages of one item and the bands
    /// of a fill (a path of a quarter million curves takes seconds to stroke and fill).
    stop: &'a dyn Fn() -> bool,
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

/// Whether tiny-skia draws a stroke of `width` under `t` as a modulated hairline (its
/// `treat_as_hairline`: both unit axes of the stroke map to at most one device pixel,
/// measured as `max + min / 2` of the mapped vector's components).
fn is_hairline(width: f32, t: Transform) -> bool {
    let fast_len = |x: f32, y: f32| {
        let (x, y) = (x.abs(), y.abs());
        x.max(y) + x.min(y) * 0.5
    };
    width == 0.0
        || (fast_len(t.a * width, t.b * width) <= 1.0 && fast_len(t.c * width, t.d * width) <= 1.0)
}

/// Appends a glyph's outline to `path`, mapped by `t` (its origin lands on `(t.e, t.f)`).
fn glyph_outline(path: &mut Path, glyph: &crate::text::ShapedGlyph, t: Transform) {
    path.cmds.extend(
        glyph
            .path
            .cmds
            .iter()
            .map(|cmd| cmd.map(|x, y| t.apply(x, y))),
    );
}

/// A paint whose shader is mapped by `t`, for drawing in device space with the identity
/// transform (what `fill_path` does itself when given `t`).
fn device_space(mut sp: tiny_skia::Paint<'static>, t: Transform) -> tiny_skia::Paint<'static> {
    sp.shader.transform(ts(t));
    sp
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

    /// The render was cancelled: the item being drawn is abandoned.
    fn cancelled(&self) -> bool {
        (self.stop)()
    }

    /// The canvas in device pixels, for [`guard`].
    fn canvas(&self) -> guard::Canvas {
        guard::Canvas {
            width: self.pixmap.width() as f32,
            height: self.pixmap.height() as f32,
        }
    }

    fn fill(&mut self, path: &Path, p: &Paint, t: Transform) {
        let path = &*guard::path(path, t, self.canvas(), 0.0, true);
        if let Some(r) = device_rect(path, t) {
            self.fill_device_rect(r, p, t);
            return;
        }
        let Some(tp) = build_path(path) else {
            return;
        };
        if self.cancelled() {
            return;
        }
        if let Some(brush) = Brush::of(p) {
            if self.fill_covered(&tp, brush, t) {
                return;
            }
        }
        let Some(sp) = paint(p) else {
            return;
        };
        let Ok(mask) = self.clips.mask_for(device_bounds(&tp, t, 0.0), self.pool) else {
            return;
        };
        self.pixmap
            .fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), mask);
    }

    /// Fills a large path (user space, mapped by `t`) in a solid colour exactly as
    /// `fill_path` does, minus its pipeline: the supersampler covers the path into the
    /// scratch mask (in bands for a huge path, see `band.rs`), and [`rect::blend_coverage`]
    /// blends it row by row. tiny-skia runs its chain of stages for
    /// every run of every scanline, which made a filled radar area cost more than all of a
    /// bar chart's bars. Small shapes (a point) are left to tiny-skia: for them the extra
    /// pass over the mask costs more than the stages. `false` when tiny-skia is to draw it.
    fn fill_covered(&mut self, tp: &tiny_skia::Path, brush: Brush, t: Transform) -> bool {
        /// Bounds smaller than this many pixels stay with tiny-skia.
        const MIN_AREA: usize = 64 * 64;
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        if pw >= 8192 || ph >= 8192 {
            return false; // tiny-skia tiles such bitmaps
        }
        let Some(bounds) = device_bounds(tp, t, 0.0) else {
            return false;
        };
        // The pixels the supersampler may cover (it covers the rounded-out bounds).
        let b = [
            bounds[0] - 1.0,
            bounds[1] - 1.0,
            bounds[2] + 1.0,
            bounds[3] + 1.0,
        ];
        let x0 = b[0].floor().clamp(0.0, pw as f32) as usize;
        let x1 = b[2].ceil().clamp(0.0, pw as f32) as usize;
        let y0 = b[1].floor().clamp(0.0, ph as f32) as usize;
        let y1 = b[3].ceil().clamp(0.0, ph as f32) as usize;
        if x0 >= x1 || y0 >= y1 || brush.is_invisible() {
            return true; // nothing visible
        }
        if (x1 - x0) * (y1 - y0) < MIN_AREA {
            return false;
        }
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return true;
        };
        if self.scratch.is_none() {
            self.scratch = self.pool.take_mask(pw, ph);
        }
        let Some(scratch) = self.scratch.as_mut() else {
            return false;
        };
        let stride = pw as usize;
        let pixels = self.pixmap.data_mut();
        let clip = clip.map(|m| m.data());
        // The scratch mask is all zero between uses, so the coverage lands as it is.
        band::cover_rows(
            scratch,
            tp,
            ts(t),
            [x0, y0, x1, y1],
            band::Banding::DEFAULT,
            self.stop,
            |y, x, cov| {
                let (a, z) = (y * stride + x, y * stride + x + cov.len());
                let clip_row = clip.map(|m| &m[a..z]);
                let px = &mut pixels[a * 4..z * 4];
                match &brush {
                    Brush::Solid(color) => rect::blend_coverage(px, cov, clip_row, *color),
                }
            },
        );
        true
    }

    /// Fills a device-space rectangle exactly as the supersampling path filler would, for a
    /// fraction of the work. Grid lines, ticks, bars and legend boxes are such rectangles,
    /// and they made up most of a render's time. A solid colour is drawn by [`rect::fill`].
    /// Other paints draw the whole pixels inside as one plain blit and send only the
    /// fractional border strips through the path filler: a pixel's coverage depends only on
    /// the part of the rectangle inside that pixel, so cutting along whole-pixel lines
    /// changes no pixel. `p` is in the user space that `t` maps to device space.
    fn fill_device_rect(&mut self, r: [f32; 4], p: &Paint, t: Transform) {
        let [x0, y0, x1, y1] = r;
        if !(x0 < x1 && y0 < y1) {
            return;
        }
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        if let Paint::Solid(c) = p {
            if c.a == 0 {
                return;
            }
            if rect::supported(r, pw, ph) {
                if let Ok(clip) = self.clips.rect_clip_for(r, self.pool) {
                    let color = rect::SolidColor::new(*c);
                    rect::fill(self.pixmap.data_mut(), pw, ph, r, color, clip);
                }
                return;
            }
        }
        let Some(sp) = paint(p) else {
            return;
        };
        let sp = &device_space(sp, t);
        // The blit takes whole pixels on the bitmap only (tiny-skia shifts a rectangle that
        // starts above or left of the bitmap instead of cutting it).
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        let (ix0, iy0) = (x0.ceil().max(0.0), y0.ceil().max(0.0));
        let (ix1, iy1) = (x1.floor().min(w), y1.floor().min(h));
        let mut strips = Vec::with_capacity(4);
        if ix0 < ix1 && iy0 < iy1 {
            if let Ok(mask) = self.clips.mask_for(Some([ix0, iy0, ix1, iy1]), self.pool) {
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
        let Ok(mask) = self.clips.mask_for(Some(r), self.pool) else {
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
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        if let Some(mask) = glyphs::GlyphMask::cover_within(path, pw, ph) {
            self.blit_mask(&mask, (0, 0), c);
        }
    }

    fn stroke(&mut self, path: &Path, p: &Paint, stroke: &Stroke, t: Transform) {
        // Canvas ignores a lineWidth of 0, negative or NaN; Chart.js skips such strokes.
        if !stroke.width.is_finite() || stroke.width <= 0.0 {
            return;
        }
        let stroke = &guard::stroke(stroke, path, t);
        let reach = guard::stroke_reach(stroke, t);
        let path = &*guard::path(path, t, self.canvas(), reach, false);
        let Some(tp) = build_path(path) else {
            return;
        };
        let Some(sp) = paint(p) else {
            return;
        };
        if let Some(r) = stroked_segment_rect(path, stroke, t) {
            self.fill_device_rect(r, p, t);
            return;
        }
        let st = stroke_style(stroke);
        if is_hairline(stroke.width, t) {
            // Joins reach at most miter-limit half-widths out (square caps √2).
            let scale = (t.a * t.a + t.b * t.b)
                .sqrt()
                .max((t.c * t.c + t.d * t.d).sqrt());
            let pad = stroke.width * 0.5 * stroke.miter_limit.max(1.5) * scale + 1.0;
            let Ok(mask) = self.clips.mask_for(device_bounds(&tp, t, pad), self.pool) else {
                return;
            };
            self.pixmap.stroke_path(&tp, &sp, &st, ts(t), mask);
            return;
        }
        // A thick stroke, as `stroke_path` draws it (dash, outline, fill), by hand: the
        // outline's own bounds tell whether the clip can be left out, where the miter-limit
        // bound above would reach far past a dataset's line and always need the clip mask.
        let res_scale = tiny_skia::PathStroker::compute_resolution_scale(&ts(t));
        let dashed;
        let src = match &st.dash {
            Some(d) => match tp.dash(d, res_scale) {
                Some(p) => {
                    dashed = p;
                    &dashed
                }
                None => return,
            },
            None => &tp,
        };
        if self.cancelled() {
            return;
        }
        let Some(outline) = src.stroke(&st, res_scale) else {
            return;
        };
        if self.cancelled() {
            return;
        }
        // A huge outline is filled in bands that a cancel can stop between.
        if outline.verbs().len() >= band::Banding::DEFAULT.min_verbs {
            if let Some(brush) = Brush::of(p) {
                if self.fill_covered(&outline, brush, t) {
                    return;
                }
            }
        }
        let Ok(mask) = self
            .clips
            .mask_for(device_bounds(&outline, t, 0.0), self.pool)
        else {
            return;
        };
        self.pixmap
            .fill_path(&outline, &sp, tiny_skia::FillRule::Winding, ts(t), mask);
    }

    fn push_clip(&mut self, path: &Path, transform: Transform) {
        let t = self.base.then(transform);
        let path = guard::path(path, t, self.canvas(), 0.0, true);
        self.clips.push(&path, t, self.pool);
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
        // Skia's glyph placement (subpixel positioning rounds `v + 1/8` down to a multiple
        // of 1/4): unrotated text has its baseline on whole device pixels and each glyph
        // origin on a quarter pixel; under a rotation both coordinates take quarter pixels
        // (`SkGlyphPositionRoundingSpec` for no axis alignment).
        let quarter = |v: f32| ((v + 0.125) * 4.0).floor() / 4.0;
        let snap = |glyph_x: f32| {
            let (x, y) = t.apply(ox + glyph_x, oy);
            if axis_aligned {
                (quarter(x), (y + 0.5).floor())
            } else {
                (quarter(x), quarter(y))
            }
        };
        // Glyphs over this many device pixels per em are covered afresh each time: large
        // text is rare, and its masks would crowd the cache.
        const MAX_CACHED_EM: f32 = 96.0;
        let dev_scale = (t.a * t.d - t.b * t.c).abs().sqrt();
        let em = item.font.size * dev_scale;
        let cacheable = em.is_finite() && em <= MAX_CACHED_EM;
        if cacheable && item.stroke.is_none() && line.embolden == 0.0 {
            if let Paint::Solid(c) = item.paint {
                if line.glyphs.iter().all(|g| g.id.is_some()) {
                    self.glyph_masks(&line, snap, t, c);
                    return;
                }
            }
        }
        // Glyphs whose origin is farther than a few ems (plus the stroke) off the bitmap
        // cannot reach it: a long string's outlines past the edge are left out of the path.
        let reach = 4.0 * em
            + item
                .stroke
                .as_ref()
                .map_or(0.0, |(s, _)| s.width * dev_scale);
        let guard::Canvas {
            width: pw,
            height: ph,
        } = self.canvas();
        let mut path = Path::new();
        for glyph in &line.glyphs {
            let (x, y) = snap(glyph.x);
            if reach.is_finite()
                && !(x >= -reach && x <= pw + reach && y >= -reach && y <= ph + reach)
            {
                continue;
            }
            glyph_outline(&mut path, glyph, Transform { e: x, f: y, ..t });
        }
        // The path is in device space now.
        let device = Transform::IDENTITY;
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
            (Paint::Solid(c), Some(dp)) => self.fill_exact(&dp, *c),
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

    /// Draws glyphs from their cached masks (see [`glyphs`]), each origin placed by `snap`
    /// on quarter pixels, the outline mapped by the linear part of `t`.
    fn glyph_masks(
        &mut self,
        line: &crate::text::ShapedLine,
        snap: impl Fn(f32) -> (f32, f32),
        t: Transform,
        c: Rgba,
    ) {
        if c.a == 0 {
            return;
        }
        for glyph in &line.glyphs {
            let Some(id) = glyph.id else {
                continue;
            };
            let (x, y) = snap(glyph.x);
            let (ix, iy) = (x.floor(), y.floor());
            if !(ix.abs() < 1.0e7 && iy.abs() < 1.0e7) {
                continue;
            }
            let phase = (((x - ix) * 4.0) as u8, ((y - iy) * 4.0) as u8);
            let key = glyphs::MaskKey {
                glyph: id,
                matrix: [t.a, t.b, t.c, t.d].map(f32::to_bits),
                phase,
            };
            let mask = self.glyphs.get(key, || {
                // The outline in device pixels, its origin at the phase within pixel (0, 0).
                let (dx, dy) = (f32::from(phase.0) / 4.0, f32::from(phase.1) / 4.0);
                let mut path = Path::new();
                glyph_outline(&mut path, glyph, Transform { e: dx, f: dy, ..t });
                build_path(&path)
                    .map_or_else(glyphs::GlyphMask::empty, |p| glyphs::GlyphMask::cover(&p))
            });
            self.blit_mask(&mask, (ix as i32, iy as i32), c);
        }
    }

    /// Blends `color` through a coverage mask placed at `origin`, clipped.
    fn blit_mask(&mut self, mask: &glyphs::GlyphMask, origin: (i32, i32), color: Rgba) {
        let (gx, gy) = (origin.0 + mask.left, origin.1 + mask.top);
        let bounds = [
            gx as f32,
            gy as f32,
            (gx + mask.width as i32) as f32,
            (gy + mask.height as i32) as f32,
        ];
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return;
        };
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        let clip = clip.map(|m| m.data());
        glyphs::blit(self.pixmap.data_mut(), pw, ph, mask, (gx, gy), color, clip);
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
            let Ok(mask) = self.clips.mask_for(None, self.pool) else {
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
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        assert_eq!((b.width, b.height), (40, 20));
        assert_eq!(px(&b, 9, 9), [255, 0, 0, 255]);
        assert_eq!(px(&b, 10, 10), [0, 0, 0, 0]);
    }

    /// Solid path fills (large ones go through the scratch mask) and strokes against
    /// tiny-skia's own `fill_path` and `stroke_path`, with and without a clip.
    #[test]
    fn solid_paths_match_tiny_skia() {
        let (w, h) = (160u32, 120u32);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let text = TextEngine::system();
        let reuse = Reuse::default();
        for case in 0..400 {
            let mut coord = |max: u32| next(1000) as f32 / 1000.0 * (max as f32 + 10.0) - 5.0;
            let mut path = Path::new();
            path.cmds.push(PathCmd::MoveTo(coord(w), coord(h)));
            for _ in 0..2 + case % 4 {
                path.cmds.push(match case % 3 {
                    0 => PathCmd::LineTo(coord(w), coord(h)),
                    1 => PathCmd::QuadTo(coord(w), coord(h), coord(w), coord(h)),
                    _ => {
                        PathCmd::CubicTo(coord(w), coord(h), coord(w), coord(h), coord(w), coord(h))
                    }
                });
            }
            path.cmds.push(PathCmd::Close);
            let mut clip = Path::new();
            clip.move_to(8.0, 4.0);
            clip.line_to(154.5, 25.25);
            clip.line_to(39.75, 112.0);
            clip.close();
            let alpha = if case % 2 == 0 {
                255
            } else {
                40 + next(200) as u8
            };
            let c = Rgba {
                r: next(256) as u8,
                g: next(256) as u8,
                b: next(256) as u8,
                a: alpha,
            };
            let clipped = case % 4 >= 2;
            let t = if case % 5 == 0 {
                Transform {
                    a: 1.5,
                    b: 0.0,
                    c: 0.0,
                    d: 1.25,
                    e: -3.0,
                    f: 2.5,
                }
            } else {
                Transform::IDENTITY
            };
            let stroke = (case % 7 == 3).then(|| Stroke {
                width: 1.0 + next(50) as f32 / 10.0,
                ..Stroke::default()
            });

            let mut background = tiny_skia::Pixmap::new(w, h).unwrap();
            for px in background.data_mut().chunks_exact_mut(4) {
                let a = next(256) as u8;
                for v in &mut px[..3] {
                    *v = next(u64::from(a) + 1) as u8;
                }
                px[3] = a;
            }
            let mut expected = background.clone();
            let mask = clipped.then(|| {
                let mut m = tiny_skia::Mask::new(w, h).unwrap();
                let cp = build_path(&clip).unwrap();
                m.fill_path(
                    &cp,
                    tiny_skia::FillRule::Winding,
                    true,
                    tiny_skia::Transform::identity(),
                );
                m
            });
            let sp = paint(&Paint::Solid(c)).unwrap();
            let tp = build_path(&path).unwrap();
            match &stroke {
                Some(s) => expected.stroke_path(&tp, &sp, &stroke_style(s), ts(t), mask.as_ref()),
                None => {
                    expected.fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), mask.as_ref())
                }
            }

            let mut actual = background.clone();
            let mut painter = Painter {
                pixmap: &mut actual,
                clips: ClipStack::new(w, h),
                scratch: None,
                pool: &reuse.buffers,
                glyphs: &reuse.glyphs,
                base: Transform::IDENTITY,
                text: &text,
                sprite: None,
                stop: &|| false,
            };
            if clipped {
                painter.push_clip(&clip, Transform::IDENTITY);
            }
            match &stroke {
                Some(s) => painter.stroke(&path, &Paint::Solid(c), s, t),
                None => painter.fill(&path, &Paint::Solid(c), t),
            }
            assert!(
                actual.data() == expected.data(),
                "case {case}: colour {c:?}, clipped {clipped}, stroke {stroke:?}, {:?}",
                path.cmds
            );
        }
    }

    /// A render cancelled while it fills one huge path (a dense line with `tension` and
    /// `fill`, one item of tens of thousands of curves) stops between two bands of that
    /// fill and returns `Cancelled`; drawn in one piece, the fill would end the render.
    #[test]
    fn a_cancel_stops_a_huge_fill_part_way() {
        let mut path = Path::new();
        path.move_to(0.0, 300.0);
        let n = 20_000;
        for i in 0..n {
            let (x0, x1) = (
                i as f32 * 400.0 / n as f32,
                (i + 1) as f32 * 400.0 / n as f32,
            );
            let y = 40.0 + ((i * 37) % 200) as f32;
            path.cubic_to(x0 + 0.005, y - 10.0, x1 - 0.005, y + 10.0, x1, y);
        }
        path.line_to(400.0, 300.0);
        path.close();
        let mut s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba::rgb(54, 162, 235)),
                transform: Transform::IDENTITY,
            }],
            2.0,
        );
        (s.width, s.height) = (400.0, 300.0);
        let polls = std::cell::Cell::new(0);
        // Raised at the 4th poll: before the item, before its fill, before band 0, now.
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() >= 4
        };
        let result = rasterize_until(&s, &TextEngine::system(), &Reuse::default(), &stop);
        assert!(
            matches!(result, Err(Error::Cancelled)),
            "the fill ran to its end ({} polls)",
            polls.get()
        );
        assert_eq!(polls.get(), 5, "polled after the stop was raised");
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
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
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
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
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
            Item::Text(Box::new(TextItem {
                text: " ".into(),
                x,
                y: 20.0,
                font: chart_spec::font::FontSpec::default(),
                paint: Paint::Solid(Rgba::BLACK),
                align: TextAlign::Left,
                baseline,
                transform: Transform::IDENTITY,
                stroke: None,
            }))
        };
        let mut s = scene(vec![item(10.5, TextBaseline::Bottom)], 1.0);
        s.width = 40.0;
        s.height = 40.0;
        let b = rasterize(
            &s,
            &TextEngine::Sprite(sprite.clone()),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        // x 10.5..14.5 fills pixels 11..15 (SkScan::FillRect rounds half up), y 20..36.
        assert_eq!(px(&b, 10, 25)[3], 0);
        assert_eq!(px(&b, 11, 25), [255, 0, 0, 255]);
        assert_eq!(px(&b, 14, 25)[3], 255);
        assert_eq!(px(&b, 15, 25)[3], 0);
        assert_eq!(px(&b, 12, 19)[3], 0);
        assert_eq!(px(&b, 12, 35)[3], 255);
        // `middle` lifts the cell by 8: y 12..28.
        s.items = vec![item(10.0, TextBaseline::Middle)];
        let b = rasterize(
            &s,
            &TextEngine::Sprite(sprite),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
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
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        let p = px(&b, 3, 3);
        assert_eq!(p[3], 128);
        assert!((p[0] as i32 - 54).abs() <= 1 && (p[2] as i32 - 235).abs() <= 1);
    }

    #[test]
    fn text_draws_ink() {
        let item = Item::Text(Box::new(TextItem {
            text: "Hi".into(),
            x: 2.0,
            y: 5.0,
            font: chart_spec::font::FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Left,
            baseline: TextBaseline::Middle,
            transform: Transform::IDENTITY,
            stroke: None,
        }));
        let b = rasterize(
            &scene(vec![item], 1.0),
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        let ink = b.data.chunks_exact(4).filter(|p| p[3] > 128).count();
        assert!(ink > 10, "only {ink} inked pixels");
    }
}
