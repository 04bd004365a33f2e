//! The painter: draws each item of a scene on the bitmap, through the clip stack, with the
//! fast paths for what charts draw most (solid rectangles, large solid fills) and tiny-skia
//! for the rest.

use super::convert::{
    build_mapped_path_in, build_path_in, device_bounds, device_rect, device_space, is_hairline,
    paint, stroke_style, stroked_segment_rect, ts, Unskewed,
};
use super::{clip::ClipStack, dash, glyphs::GlyphCache, guard, hairline, pool::Pool, rect};
use crate::scene::{Item, Paint, Path, PathCmd, Stroke, Transform};
use crate::text::TextEngine;

/// Allocations that one item hands on to the next: a scatter chart draws thousands of small
/// paths, and building each in fresh vectors (the path, its device copy, the stroker's
/// working paths) cost as much in the allocator as its stroking.
#[derive(Default)]
pub(super) struct ItemBuffers {
    /// Emptied paths' vectors, built into again (a few at most).
    builders: Vec<tiny_skia::PathBuilder>,
    /// Keeps its working paths between strokes (`Path::stroke` makes a new one each time;
    /// every call starts from the same state, so the outline is the same).
    stroker: tiny_skia::PathStroker,
    /// The same outlines for point markers' borders, for less work (`ring_outline.rs`).
    rings: super::ring_outline::RingOutliner,
}

impl ItemBuffers {
    /// How many emptied paths are kept.
    const MAX_BUILDERS: usize = 4;

    /// `path` as a tiny-skia path, built in kept vectors.
    fn build(&mut self, path: &Path) -> Option<tiny_skia::Path> {
        build_path_in(self.builders.pop().unwrap_or_default(), path)
    }

    /// `path` mapped by `map` (as `Path::transform` maps it), built in kept vectors.
    fn build_mapped(&mut self, path: &Path, map: Unskewed) -> Option<tiny_skia::Path> {
        build_mapped_path_in(self.builders.pop().unwrap_or_default(), path, map)
    }

    /// Keeps `path`'s vectors for the next [`ItemBuffers::build`].
    pub(super) fn keep(&mut self, path: tiny_skia::Path) {
        if self.builders.len() < Self::MAX_BUILDERS {
            self.builders.push(path.clear());
        }
    }
}

pub(super) struct Painter<'a> {
    pub(super) pixmap: &'a mut tiny_skia::Pixmap,
    /// The pixel rows this painter is answerable for: all of them, or its band when two
    /// painters draw one bitmap (`mod.rs`). Our own fillers write these rows only;
    /// tiny-skia's pipeline may write the others too, which then hold nothing of use.
    pub(super) rows: std::ops::Range<u32>,
    pub(super) clips: ClipStack,
    /// A bitmap-sized coverage mask for solid path fills, all zero between uses.
    pub(super) scratch: Option<tiny_skia::Mask>,
    pub(super) pool: &'a Pool,
    pub(super) glyphs: &'a GlyphCache,
    pub(super) base: Transform,
    pub(super) text: &'a TextEngine,
    /// The sprite image as a pixmap, made on first use.
    #[allow(dead_code)]
    pub(super) sprite: Option<tiny_skia::Pixmap>,
    /// The render's stop signal, also polled between the stages of one item and the bands
    /// of a fill (a path of a quarter million curves takes seconds to stroke and fill).
    pub(super) stop: &'a dyn Fn() -> bool,
    pub(super) buffers: ItemBuffers,
    /// Masks of the shapes the scene draws many times (`stamps.rs`).
    pub(super) stamps: super::stamps::Stamps,
}

impl Painter<'_> {
    pub(super) fn item(&mut self, item: &Item) {
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
            Item::Shadowed { shadow, item } => {
                // The shadow first, then the shape over it (canvas order). Scenes never nest
                // shadows; a nested one is not drawn rather than recursed into.
                if !matches!(**item, Item::Shadowed { .. }) {
                    self.shadow(shadow, item);
                    self.item(item);
                }
            }
        }
    }

    /// The render was cancelled: the item being drawn is abandoned.
    pub(super) fn cancelled(&self) -> bool {
        (self.stop)()
    }

    /// The canvas in device pixels, for [`guard`].
    pub(super) fn canvas(&self) -> guard::Canvas {
        guard::Canvas {
            width: self.pixmap.width() as f32,
            height: self.pixmap.height() as f32,
        }
    }

    pub(super) fn fill(&mut self, path: &Path, p: &Paint, t: Transform) {
        let path = &*guard::path(path, t, self.canvas(), 0.0, true);
        if let Some(r) = device_rect(path, t) {
            self.fill_device_rect(r, p, t);
            return;
        }
        // A solid colour under a transform without skew is filled from the path built in
        // device space at once (`fill_path` then maps nothing). Its bounds are the same
        // numbers as the user-space bounds mapped: such a map is monotonic in x and in y.
        let device = in_device_space(p, t);
        let built = match device {
            Some(map) => self.buffers.build_mapped(path, map),
            None => self.buffers.build(path),
        };
        let Some(tp) = built else {
            return;
        };
        if self.cancelled() {
            return;
        }
        if device.is_some() {
            self.touch(&tp, 1.0);
        }
        self.fill_path(tp, p, device.map_or(t, |_| Transform::IDENTITY));
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
                    let rows = self.rows.clone();
                    rect::fill(self.pixmap.data_mut(), (pw, ph), rows, r, color, clip);
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

    pub(super) fn stroke(&mut self, path: &Path, p: &Paint, stroke: &Stroke, t: Transform) {
        // Canvas ignores a lineWidth of 0, negative or NaN; Chart.js skips such strokes.
        if !stroke.width.is_finite() || stroke.width <= 0.0 {
            return;
        }
        let stroke = &guard::stroke(stroke, path, t);
        let reach = guard::stroke_reach(stroke, t);
        let path = &*guard::path(path, t, self.canvas(), reach, false);
        if self.ring_from_scene(path, p, stroke, t) {
            return;
        }
        let Some(tp) = self.buffers.build(path) else {
            return;
        };
        let Some(sp) = paint(p) else {
            self.buffers.keep(tp);
            return;
        };
        if let Some(r) = stroked_segment_rect(path, stroke, t) {
            self.buffers.keep(tp);
            self.fill_device_rect(r, p, t);
            return;
        }
        let mut st = stroke_style(stroke);
        // The dash pattern first, as `stroke_path` applies it, in runs a stop can come
        // between (`dash.rs`: up to a million dashes were one 0.4 s call).
        let res_scale = tiny_skia::PathStroker::compute_resolution_scale(&ts(t));
        let dashed;
        let src = match st.dash.take() {
            Some(_) => {
                match dash::dash(&tp, &stroke.dash, stroke.dash_offset, res_scale, self.stop) {
                    Some(p) => {
                        dashed = p;
                        &dashed
                    }
                    None => return, // tiny-skia draws nothing when the dasher gives up
                }
            }
            None => &tp,
        };
        if is_hairline(stroke.width, t) {
            // Joins reach at most miter-limit half-widths out (square caps √2). The scale is
            // the guard's (the longer mapped unit axis); tiny-skia's hairline test above is
            // its own cruder length (`max + min / 2`), which `is_hairline` has to match.
            let scale = guard::max_scale(t);
            let pad = stroke.width * 0.5 * stroke.miter_limit.max(1.5) * scale + 1.0;
            if let Ok(mask) = self.clips.mask_for(device_bounds(&tp, t, pad), self.pool) {
                // One tiny-skia call cannot be stopped, and a long hairline takes seconds to
                // minutes (found by `cargo xtask sweep`: a map outline of 50,000 rings under
                // a clip, 20 s; a dashed or curved line of 99,000 points, 30-115 s): it is
                // drawn in runs with the stop polled between them.
                let cut = hairline::Cut::DEFAULT;
                hairline::stroke(self.pixmap, src, &sp, &st, ts(t), mask, cut, self.stop);
            }
            self.buffers.keep(tp);
            return;
        }
        // A thick stroke, as `stroke_path` draws it (dash, outline, fill), by hand: the
        // outline's own bounds tell whether the clip can be left out, where the miter-limit
        // bound above would reach far past a dataset's line and always need the clip mask.
        if self.cancelled() {
            return;
        }
        let into = self.buffers.builders.pop().unwrap_or_default();
        // A marker's border outline is written in device space at once, as a fill's path is.
        let device = in_device_space(p, t);
        let map = device.unwrap_or_default();
        let (outline, t) =
            match self
                .buffers
                .rings
                .outline(src.segments(), &st, res_scale, into, map)
            {
                Some(outline) => (outline, device.map_or(t, |_| Transform::IDENTITY)),
                None => (self.buffers.stroker.stroke(src, &st, res_scale), t),
            };
        self.buffers.keep(tp);
        let Some(outline) = outline else {
            return;
        };
        if self.cancelled() {
            return;
        }
        // The outline is filled as a path is: a rectangle's (a node's or a legend box's
        // border) is a ring, a solid one is covered by our supersampler (a huge one in bands
        // that a cancel can stop between).
        self.fill_path(outline, p, t);
    }

    /// A point marker's border (a solid, undashed, thick stroke of a closed run of cubics
    /// under a transform without skew) outlined by `ring_outline.rs` straight from the
    /// scene path, as [`Painter::stroke`] would outline it from the tiny-skia path built
    /// from it: the path the outliner accepts (a move, an optional line, cubics, one close)
    /// is one that `PathBuilder` builds unchanged, and every test `stroke` makes before
    /// outlining passes for it (visible paint, not one straight segment, no dash, not a
    /// hairline). `false` when the stroke is to go the general way; what it would draw
    /// then is what is drawn here (a scatter chart's 10,000 borders no longer build a
    /// source path each).
    fn ring_from_scene(&mut self, path: &Path, p: &Paint, stroke: &Stroke, t: Transform) -> bool {
        let Some(map) = in_device_space(p, t) else {
            return false;
        };
        if p.is_invisible() || is_hairline(stroke.width, t) || self.cancelled() {
            return false;
        }
        let st = stroke_style(stroke);
        let res_scale = tiny_skia::PathStroker::compute_resolution_scale(&ts(t));
        let into = self.buffers.builders.pop().unwrap_or_default();
        let segments = path.cmds.iter().map(|cmd| {
            let p = |x: f32, y: f32| tiny_skia::Point::from_xy(x, y);
            match *cmd {
                PathCmd::MoveTo(x, y) => tiny_skia::PathSegment::MoveTo(p(x, y)),
                PathCmd::LineTo(x, y) => tiny_skia::PathSegment::LineTo(p(x, y)),
                PathCmd::QuadTo(a, b, x, y) => tiny_skia::PathSegment::QuadTo(p(a, b), p(x, y)),
                PathCmd::CubicTo(a, b, c, d, x, y) => {
                    tiny_skia::PathSegment::CubicTo(p(a, b), p(c, d), p(x, y))
                }
                PathCmd::Close => tiny_skia::PathSegment::Close,
            }
        });
        let Some(outline) = self
            .buffers
            .rings
            .outline(segments, &st, res_scale, into, map)
        else {
            return false;
        };
        if let Some(outline) = outline {
            if !self.cancelled() {
                self.touch(&outline, 0.0);
                self.fill_path(outline, p, Transform::IDENTITY);
            }
        }
        true
    }

    /// [`rect::touch_rows`] over a device-space path's bounds (the supersampler covers the
    /// rows and columns from their floor to below their ceiling), widened by `reach`: a
    /// fill reaches a pixel further, where a marker's border (stroked next, from its rows)
    /// usually ends, so that the border's rows are read in the same go.
    fn touch(&self, dp: &tiny_skia::Path, reach: f32) {
        let b = dp.bounds();
        let size = (self.pixmap.width(), self.pixmap.height());
        let box_ = [
            b.left() - reach,
            b.top() - reach,
            b.right() + reach,
            b.bottom() + reach,
        ];
        rect::touch_rows(self.pixmap.data(), size, box_);
    }

    pub(super) fn push_clip(&mut self, path: &Path, transform: Transform) {
        let t = self.base.then(transform);
        let path = guard::path(path, t, self.canvas(), 0.0, true);
        self.clips.push(&path, t, self.pool);
    }
}

/// The map to device space when a path under `t` painted with `p` is built there at once:
/// a solid colour (no shader to map) and a transform without skew (under which the mapped
/// path's bounds are the mapped bounds, the ones `fill_path` picks its clip by).
fn in_device_space(p: &Paint, t: Transform) -> Option<Unskewed> {
    Unskewed::of(ts(t)).filter(|_| matches!(p, Paint::Solid(_)))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::raster::clip::ClipStack;
    use crate::raster::convert::build_path;
    use crate::raster::Reuse;
    use crate::scene::PathCmd;
    use crate::text::TextEngine;
    use chart_spec::Rgba;

    /// A painter over `pixmap` with no clip, no sprite text, the identity transform and no
    /// stop: the painting alone, as the tests compare it with tiny-skia's.
    fn bare_painter<'a>(
        pixmap: &'a mut tiny_skia::Pixmap,
        reuse: &'a Reuse,
        text: &'a TextEngine,
    ) -> Painter<'a> {
        let (w, h) = (pixmap.width(), pixmap.height());
        Painter {
            pixmap,
            rows: 0..h,
            clips: ClipStack::new(w, h),
            scratch: None,
            pool: &reuse.buffers,
            glyphs: &reuse.glyphs,
            base: Transform::IDENTITY,
            text,
            sprite: None,
            stop: &|| false,
            buffers: ItemBuffers::default(),
            stamps: Default::default(),
        }
    }

    /// `path` filled (or stroked with `stroke`) in `c` over `background`, through `clip` if
    /// any, by tiny-skia's own `fill_path`/`stroke_path` and by the painter: (theirs, ours).
    #[allow(clippy::too_many_arguments)]
    fn draw_both(
        background: &tiny_skia::Pixmap,
        path: &Path,
        c: Rgba,
        stroke: Option<&Stroke>,
        t: Transform,
        clip: Option<&Path>,
        reuse: &Reuse,
        text: &TextEngine,
    ) -> (tiny_skia::Pixmap, tiny_skia::Pixmap) {
        let (w, h) = (background.width(), background.height());
        let mut expected = background.clone();
        let mask = clip.map(|clip| {
            let mut m = tiny_skia::Mask::new(w, h).unwrap();
            let cp = build_path(clip).unwrap();
            m.fill_path(
                &cp,
                tiny_skia::FillRule::Winding,
                true,
                tiny_skia::Transform::identity(),
            );
            m
        });
        let sp = paint(&Paint::Solid(c)).unwrap();
        let tp = build_path(path).unwrap();
        match stroke {
            Some(s) => expected.stroke_path(&tp, &sp, &stroke_style(s), ts(t), mask.as_ref()),
            None => {
                expected.fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), mask.as_ref())
            }
        }
        let mut actual = background.clone();
        let mut painter = bare_painter(&mut actual, reuse, text);
        if let Some(clip) = clip {
            painter.push_clip(clip, Transform::IDENTITY);
        }
        match stroke {
            Some(s) => painter.stroke(path, &Paint::Solid(c), s, t),
            None => painter.fill(path, &Paint::Solid(c), t),
        }
        (expected, actual)
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
            let clip = clipped.then_some(&clip);
            let (expected, actual) = draw_both(
                &background,
                &path,
                c,
                stroke.as_ref(),
                t,
                clip,
                &reuse,
                &text,
            );
            assert!(
                actual.data() == expected.data(),
                "case {case}: colour {c:?}, clipped {clipped}, stroke {stroke:?}, {:?}",
                path.cmds
            );
        }
    }

    /// A small deterministic generator: `next(n)` is below `n`.
    pub(in crate::raster) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// `path` stroked over `background` by a painter whose stop fires at its second poll.
    fn stopped_at_second_poll(
        background: &tiny_skia::Pixmap,
        path: &Path,
        c: Rgba,
        stroke: &Stroke,
        reuse: &Reuse,
        text: &TextEngine,
    ) -> tiny_skia::Pixmap {
        let polls = std::cell::Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 1
        };
        let mut cut = background.clone();
        let mut painter = bare_painter(&mut cut, reuse, text);
        painter.stop = &stop;
        painter.stroke(path, &Paint::Solid(c), stroke, Transform::IDENTITY);
        cut
    }

    /// A hairline path of thousands of subpaths (lines, curves, closed rings, every cap),
    /// stroked in runs of subpaths so that a stop can cut it: byte for byte what tiny-skia's
    /// `stroke_path` draws in one call, with and without a clip; and a stop that fires after
    /// the first run leaves the rest undrawn.
    #[test]
    fn a_hairline_of_many_subpaths_matches_tiny_skia_and_stops() {
        use crate::scene::LineCap;
        let (w, h) = (96u32, 80u32);
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let mut below = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move |n: u64| below(n) as f32 / 10.0;
        let mut path = Path::new();
        for ring in 0..4000 {
            path.move_to(next(1000) - 5.0, next(850) - 5.0);
            path.line_to(next(1000) - 5.0, next(850) - 5.0);
            if ring % 3 == 0 {
                path.quad_to(next(960), next(800), next(960), next(800));
            }
            if ring % 2 == 0 {
                path.close();
            }
        }
        let mut clip = Path::new();
        clip.move_to(10.0, 3.0);
        clip.line_to(90.5, 30.25);
        clip.line_to(5.75, 74.0);
        clip.close();
        let background = tiny_skia::Pixmap::new(w, h).unwrap();
        let c = Rgba {
            r: 200,
            g: 40,
            b: 90,
            a: 160,
        };
        for (k, cap) in [LineCap::Butt, LineCap::Square, LineCap::Round]
            .into_iter()
            .enumerate()
        {
            let stroke = Stroke {
                width: 0.5,
                cap,
                ..Stroke::default()
            };
            let clip = (k != 1).then_some(&clip);
            let (expected, actual) = draw_both(
                &background,
                &path,
                c,
                Some(&stroke),
                Transform::IDENTITY,
                clip,
                &reuse,
                &text,
            );
            assert!(expected.data() == actual.data(), "cap {cap:?}");
        }
        // Stopped after the first run: some pixels drawn, fewer than by the whole path.
        let thin = Stroke {
            width: 0.5,
            ..Stroke::default()
        };
        let cut = stopped_at_second_poll(&background, &path, c, &thin, &reuse, &text);
        let painted = |p: &tiny_skia::Pixmap| p.pixels().iter().filter(|px| px.alpha() > 0).count();
        let (whole, _) = draw_both(
            &background,
            &path,
            c,
            Some(&Stroke {
                width: 0.5,
                ..Stroke::default()
            }),
            Transform::IDENTITY,
            None,
            &reuse,
            &text,
        );
        assert!(painted(&cut) > 0 && painted(&cut) < painted(&whole));
    }

    /// One long hairline (a line of 20,000 points: one subpath, as a curved, stepped or
    /// dashed dataset line is, which Chart.js draws without its fast path), solid with round
    /// caps or dashed: a stop that fires after the first poll leaves most of it undrawn. One
    /// tiny-skia call drew it whole (99,000 points: 30 s to two minutes).
    #[test]
    fn a_long_hairline_of_one_subpath_stops() {
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let mut path = Path::new();
        path.move_to(0.0, 0.0);
        for i in 1..20_000 {
            path.line_to(i as f32 * 0.005, if i % 2 == 1 { 40.0 } else { 2.0 });
        }
        let c = Rgba {
            r: 0,
            g: 0,
            b: 0,
            a: 255,
        };
        let painted = |p: &tiny_skia::Pixmap| p.pixels().iter().filter(|px| px.alpha() > 0).count();
        for stroke in [
            Stroke {
                width: 0.5,
                cap: crate::scene::LineCap::Round,
                ..Stroke::default()
            },
            Stroke {
                width: 0.5,
                dash: vec![4.0, 4.0],
                ..Stroke::default()
            },
        ] {
            let background = tiny_skia::Pixmap::new(100, 50).unwrap();
            let (whole, _) = draw_both(
                &background,
                &path,
                c,
                Some(&stroke),
                Transform::IDENTITY,
                None,
                &reuse,
                &text,
            );
            let cut = stopped_at_second_poll(&background, &path, c, &stroke, &reuse, &text);
            assert!(
                painted(&cut) < painted(&whole) / 2,
                "{stroke:?}: {} of {} pixels",
                painted(&cut),
                painted(&whole)
            );
        }
    }

    /// One painter drawing a long run of items (fills and strokes of circles, polylines
    /// and rectangles, some dashed, some under a transform), each built in the vectors the
    /// one before left and stroked by the kept stroker: byte for byte what tiny-skia draws
    /// item by item with fresh paths.
    #[test]
    fn items_in_kept_buffers_match_tiny_skia() {
        let (w, h) = (80u32, 60u32);
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let mut next = xorshift(0x51_7cc1_b727_220a);
        let mut expected = tiny_skia::Pixmap::new(w, h).unwrap();
        expected.fill(tiny_skia::Color::WHITE);
        let mut actual = expected.clone();
        let mut painter = bare_painter(&mut actual, &reuse, &text);
        for case in 0..600 {
            let mut coord = |max: u32| next(max as u64 * 100) as f32 / 100.0;
            let mut path = Path::new();
            match case % 3 {
                0 => {
                    let r = 0.5 + coord(8);
                    path.circle(coord(w), coord(h), r);
                }
                1 => {
                    path.move_to(coord(w), coord(h));
                    for _ in 0..1 + case % 5 {
                        path.line_to(coord(w), coord(h));
                    }
                }
                _ => {
                    path.rect(coord(w), coord(h), coord(20), coord(20));
                }
            }
            let c = Rgba {
                r: next(256) as u8,
                g: next(256) as u8,
                b: next(256) as u8,
                a: 1 + next(255) as u8,
            };
            let t = if case % 4 == 1 {
                Transform {
                    a: 0.5,
                    b: 0.0,
                    c: 0.0,
                    d: 0.5,
                    e: 3.0,
                    f: 2.0,
                }
            } else {
                Transform::IDENTITY
            };
            let stroke = (case % 2 == 1).then(|| Stroke {
                width: 0.5 + next(40) as f32 / 10.0,
                dash: if case % 10 == 3 {
                    vec![3.0, 2.0]
                } else {
                    Vec::new()
                },
                ..Stroke::default()
            });
            let sp = paint(&Paint::Solid(c)).unwrap();
            let tp = build_path(&path).unwrap();
            match &stroke {
                Some(s) => {
                    expected.stroke_path(&tp, &sp, &stroke_style(s), ts(t), None);
                    painter.stroke(&path, &Paint::Solid(c), s, t);
                }
                None => {
                    expected.fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), None);
                    painter.fill(&path, &Paint::Solid(c), t);
                }
            }
        }
        drop(painter);
        assert!(actual.data() == expected.data());
    }

    /// Scatter points (small filled and stroked circles at any sub-pixel position, some
    /// under a clip or half off the bitmap) go through the coverage mask like large fills:
    /// still byte for byte what tiny-skia's `fill_path` and `stroke_path` draw.
    #[test]
    fn small_shapes_match_tiny_skia() {
        let (w, h) = (64u32, 48u32);
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for case in 0..300 {
            let x = next(7000) as f32 / 100.0 - 3.0;
            let y = next(5200) as f32 / 100.0 - 2.0;
            let r = 1.0 + next(900) as f32 / 100.0;
            let mut path = Path::new();
            path.circle(x, y, r);
            let c = Rgba {
                r: next(256) as u8,
                g: next(256) as u8,
                b: next(256) as u8,
                a: if case % 3 == 0 {
                    255
                } else {
                    1 + next(255) as u8
                },
            };
            let stroke = (case % 2 == 1).then(|| Stroke {
                width: 0.5 + next(40) as f32 / 10.0,
                ..Stroke::default()
            });
            let t = if case % 4 == 0 {
                Transform::IDENTITY
            } else {
                Transform {
                    a: 2.0,
                    b: 0.0,
                    c: 0.0,
                    d: 2.0,
                    e: -30.0,
                    f: -20.0,
                }
            };
            let clipped = case % 5 == 2;
            let mut clip = Path::new();
            clip.move_to(10.0, 3.0);
            clip.line_to(60.5, 20.25);
            clip.line_to(5.75, 44.0);
            clip.close();
            let mut background = tiny_skia::Pixmap::new(w, h).unwrap();
            background.fill(tiny_skia::Color::from_rgba8(
                30,
                60,
                90,
                (case * 7 % 256) as u8,
            ));
            let clip = clipped.then_some(&clip);
            let (expected, actual) = draw_both(
                &background,
                &path,
                c,
                stroke.as_ref(),
                t,
                clip,
                &reuse,
                &text,
            );
            assert!(
                actual.data() == expected.data(),
                "case {case}: circle ({x}, {y}) r {r}, colour {c:?}, stroke {stroke:?}, clipped {clipped}"
            );
        }
    }

    /// Strokes around one device pixel wide, under rotations and skews, against tiny-skia's
    /// `stroke_path`: `is_hairline` must make tiny-skia's own choice (`treat_as_hairline`)
    /// between a modulated hairline and a filled outline, or one side draws the other way.
    #[test]
    fn hairline_choice_matches_tiny_skia() {
        let (w, h) = (90u32, 70u32);
        let text = TextEngine::system();
        let reuse = Reuse::default();
        let mut path = Path::new();
        path.move_to(5.0, 8.0)
            .line_to(60.0, 20.0)
            .line_to(20.0, 50.0)
            .cubic_to(40.0, 70.0, 70.0, 10.0, 80.0, 60.0);
        let transforms = [
            (1.0, 0.0, 0.0, 1.0),
            (2.0, 0.0, 0.0, 2.0),
            (0.8, 0.6, -0.6, 0.8),
            (1.2, 0.9, -0.9, 1.2),
            (0.5, 0.0, 0.7, 0.9),
        ];
        for (i, &(a, b, c, d)) in transforms.iter().enumerate() {
            let t = Transform {
                a,
                b,
                c,
                d,
                e: 3.0,
                f: 2.0,
            };
            for k in 0..24 {
                let s = Stroke {
                    width: 0.3 + k as f32 * 0.05,
                    ..Stroke::default()
                };
                let colour = Paint::Solid(Rgba {
                    r: 200,
                    g: 30,
                    b: 90,
                    a: 180,
                });
                let mut expected = tiny_skia::Pixmap::new(w, h).unwrap();
                let tp = build_path(&path).unwrap();
                let sp = paint(&colour).unwrap();
                expected.stroke_path(&tp, &sp, &stroke_style(&s), ts(t), None);
                let mut actual = tiny_skia::Pixmap::new(w, h).unwrap();
                let mut painter = bare_painter(&mut actual, &reuse, &text);
                painter.stroke(&path, &colour, &s, t);
                assert!(
                    actual.data() == expected.data(),
                    "transform {i}, width {}: hairline here {}",
                    s.width,
                    is_hairline(s.width, t)
                );
            }
        }
    }
}
