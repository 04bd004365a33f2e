//! The painter's side of stamps: each item drawn from its shape's mask when the plan
//! stamps it, and a mask covered on a shape's first use at a phase, by a painter of its own
//! with the exact fillers. Apart from `stamps.rs` so that the painter, which holds the
//! stamps, and the stamps, which draw with a painter, do not import each other.

use super::super::clip::ClipStack;
use super::super::painter::Painter;
use super::super::rect;
use super::{floor_bounded, Mask, Stamps, PHASES};
use crate::scene::{Item, Paint, PathCmd, Transform};

impl Painter<'_> {
    /// Draws item `index` of the scene: stamped when the plan says so and it can be,
    /// otherwise exactly.
    pub(in crate::raster) fn draw(&mut self, index: usize, item: &Item) {
        if let Some(shape) = self.stamps.shape_of(index) {
            if self.stamp(item, shape) {
                return;
            }
        }
        self.item(item);
    }

    /// Blends `shape`'s mask at the item's phase in the item's colour; `false` when the
    /// item is to be drawn exactly (no room for another mask, or the covering stopped).
    fn stamp(&mut self, item: &Item, shape: usize) -> bool {
        let (path, paint, transform) = match item {
            Item::Fill {
                path,
                paint,
                transform,
            }
            | Item::Stroke {
                path,
                paint,
                transform,
                ..
            } => (path, paint, transform),
            _ => return false,
        };
        let (Paint::Solid(c), Some(&PathCmd::MoveTo(x0, y0))) = (paint, path.cmds.first()) else {
            return false;
        };
        let color = rect::SolidColor::new(*c);
        if color.is_transparent() {
            return true; // as the exact fill, nothing to draw
        }
        // The first point's position in 1/16 px (the plan made it finite and bounded).
        let (ox, oy) = self.base.then(*transform).apply(x0, y0);
        let q = |v: f32| floor_bounded(f64::from(v) * PHASES as f64 + 0.5);
        let (qx, qy) = (q(ox), q(oy));
        let (ix, iy) = (qx.div_euclid(PHASES), qy.div_euclid(PHASES));
        let phase = (qy.rem_euclid(PHASES) * PHASES + qx.rem_euclid(PHASES)) as usize;
        let Some(s) = self.stamps.plan.shapes.get(shape) else {
            return false;
        };
        let [left, top, fw, fh] = s.frame;
        let (pw, ph) = (
            i64::from(self.pixmap.width()),
            i64::from(self.pixmap.height()),
        );
        // Rows and columns of the bitmap this painter may write that the frame meets.
        let (r0, r1) = (i64::from(self.rows.start), i64::from(self.rows.end).min(ph));
        let (fx0, fy0) = (ix + left, iy + top);
        if fx0 >= pw || fx0 + fw <= 0 || fy0 >= r1 || fy0 + fh <= r0 {
            return true; // nothing of it on this painter's rows
        }
        let mask = match self.stamps.mask(shape, phase) {
            Some(m) => m,
            None => match self.cover_stamp(shape, phase) {
                Some(m) => m,
                None => return false,
            },
        };
        let (mx0, my0) = (ix + mask.left, iy + mask.top);
        let (mx1, my1) = (mx0 + mask.width as i64, my0 + mask.height as i64);
        let (x0, x1) = (mx0.max(0), mx1.min(pw));
        let (y0, y1) = (my0.max(r0), my1.min(r1));
        if x0 >= x1 || y0 >= y1 {
            return true;
        }
        let bounds = [mx0 as f32, my0 as f32, mx1 as f32, my1 as f32];
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return true; // hidden by the clip
        };
        let clip = clip.map(|m| m.data());
        let stride = pw as usize;
        let pixels = self.pixmap.data_mut();
        let alpha = &self.stamps.alpha[mask.start..mask.start + mask.width * mask.height];
        for y in y0..y1 {
            let row = (y - my0) as usize * mask.width;
            let cov = &alpha[row + (x0 - mx0) as usize..row + (x1 - mx0) as usize];
            let y = y as usize;
            let (a, z) = (y * stride + x0 as usize, y * stride + x1 as usize);
            let clip_row = clip.map(|m| &m[a..z]);
            // As `fill_covered`: up to seven pixels more within the row for the last
            // group of eight.
            let room = (z + 7).min((y + 1) * stride).max(z);
            rect::blend_coverage(&mut pixels[a * 4..room * 4], cov, clip_row, color);
        }
        true
    }

    /// Covers `shape` at `phase` with the exact fillers, as the painter fills or strokes
    /// it in opaque white on a transparent layer of the shape's frame (where the stored
    /// alpha is the coverage itself: `div255(255·c) = c`), and keeps the mask trimmed to
    /// its ink. `None` when the budget is spent or the render was stopped.
    fn cover_stamp(&mut self, shape: usize, phase: usize) -> Option<Mask> {
        let s = self.stamps.plan.shapes.get(shape)?;
        let [left, top, fw, fh] = s.frame;
        let (w, h) = (fw as usize, fh as usize);
        if !self.stamps.has_room(w * h) {
            return None;
        }
        let size = tiny_skia::IntSize::from_wh(w as u32, h as u32)?;
        let mut layer = tiny_skia::Pixmap::from_vec(self.pool.take_filled(w * h * 4, 0), size)?;
        let (fx, fy) = (phase as i64 % PHASES, phase as i64 / PHASES);
        let [a, b, c, d] = s.linear;
        // The first point at its phase within the pixel (-left, -top) of the layer.
        let t = Transform {
            a,
            b,
            c,
            d,
            e: -left as f32 + fx as f32 / PHASES as f32,
            f: -top as f32 + fy as f32 / PHASES as f32,
        };
        let white = Paint::Solid(chart_spec::Rgba::rgb(255, 255, 255));
        {
            let mut sub = Painter {
                pixmap: &mut layer,
                rows: 0..h as u32,
                clips: ClipStack::new(w as u32, h as u32),
                scratch: None,
                pool: self.pool,
                glyphs: self.glyphs,
                base: Transform::IDENTITY,
                text: self.text,
                sprite: None,
                stop: self.stop,
                buffers: std::mem::take(&mut self.buffers),
                stamps: Stamps::default(),
            };
            match &s.stroke {
                Some(st) => sub.stroke(&s.user, &white, st, t),
                None => sub.fill(&s.user, &white, t),
            }
            let Painter {
                clips,
                scratch,
                buffers,
                ..
            } = sub;
            self.buffers = buffers;
            clips.recycle(self.pool);
            if let Some(m) = scratch {
                self.pool.give_mask(m);
            }
        }
        if self.cancelled() {
            self.pool.give(layer.take());
            return None;
        }
        // Trimmed to the rows and columns with ink.
        let data = layer.data();
        let at = |x: usize, y: usize| data[(y * w + x) * 4 + 3];
        let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
        for y in 0..h {
            for x in 0..w {
                if at(x, y) != 0 {
                    (x0, x1) = (x0.min(x), x1.max(x + 1));
                    (y0, y1) = (y0.min(y), y1.max(y + 1));
                }
            }
        }
        let (x0, y0) = (x0.min(x1), y0.min(y1));
        let mut alpha = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            alpha.extend((x0..x1).map(|x| at(x, y)));
        }
        self.pool.give(layer.take());
        let mask = Mask {
            left: left + x0 as i64,
            top: top + y0 as i64,
            width: x1 - x0,
            height: y1 - y0,
            start: 0,
        };
        self.stamps.keep(shape, phase, mask, &alpha)
    }
}
