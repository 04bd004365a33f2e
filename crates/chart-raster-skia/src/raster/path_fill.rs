//! Filling a path or a stroke's outline: a solid colour through the exact fillers
//! (`rectilinear.rs` for straight rings, `supersample.rs` for everything else, `band.rs`
//! when tiny-skia must clip to the bitmap), on the path mapped to device space once; other
//! paints through tiny-skia.

use super::convert::{device_bounds, paint, ts};
use super::painter::Painter;
use super::rectilinear::Rectilinear;
use super::{band, rect, supersample};
use crate::scene::{Paint, Transform};

/// How [`Painter::fill_covered`] colours covered pixels.
enum Brush {
    Solid(rect::SolidColor),
}

impl Brush {
    fn is_invisible(&self) -> bool {
        matches!(self, Brush::Solid(c) if c.is_transparent())
    }
}

impl Painter<'_> {
    /// Fills `tp` (user space, mapped by `t`: a path or a stroke's outline) with the
    /// non-zero rule, as tiny-skia's `fill_path` would: a solid colour through the exact
    /// fillers (`fill_rectilinear`, `fill_covered`), on the path mapped to device space
    /// once for all of them, other paints by tiny-skia. The path's vectors are kept.
    pub(super) fn fill_path(&mut self, tp: tiny_skia::Path, p: &Paint, t: Transform) {
        // An invisible paint changes no pixel (tiny-skia draws nothing for it either).
        let Some(sp) = paint(p) else {
            self.buffers.keep(tp);
            return;
        };
        // The bounds tiny-skia's path picks its clip mask by.
        let bounds = device_bounds(&tp, t, 0.0);
        let Paint::Solid(c) = p else {
            if let Ok(mask) = self.clips.mask_for(bounds, self.pool) {
                self.pixmap
                    .fill_path(&tp, &sp, tiny_skia::FillRule::Winding, ts(t), mask);
            }
            self.buffers.keep(tp);
            return;
        };
        // As `fill_path` maps a path before filling it (nothing drawn when that fails). The
        // fallbacks below draw the mapped path with the identity, which `fill_path` does with
        // `tp` and `t` itself; a solid colour has no shader to map.
        let Some(dp) = tp.transform(ts(t)) else {
            return;
        };
        let drawn = self.fill_rectilinear(&dp, bounds, *c)
            || self.fill_covered(&dp, bounds, Brush::Solid(rect::SolidColor::new(*c)));
        if !drawn {
            if let Ok(mask) = self.clips.mask_for(bounds, self.pool) {
                self.pixmap.fill_path(
                    &dp,
                    &sp,
                    tiny_skia::FillRule::Winding,
                    tiny_skia::Transform::identity(),
                    mask,
                );
            }
        }
        self.buffers.keep(dp);
    }

    /// Fills a path (user space, mapped by `t`) in a solid colour exactly as `fill_path`
    /// does, minus its pipeline: `supersample.rs` covers the path (tiny-skia into the
    /// scratch mask when it has to be clipped to the bitmap, in bands for a huge path, see
    /// `band.rs`), and [`rect::blend_coverage`] blends it row by row. tiny-skia runs its
    /// chain of stages for every run of every scanline, which made a filled radar area cost
    /// more than all of a bar chart's bars, and its run-length rows and blitters made most
    /// of a scatter chart's drawing. `false` when tiny-skia is to draw it.
    fn fill_covered(
        &mut self,
        dp: &tiny_skia::Path,
        bounds: Option<[f32; 4]>,
        brush: Brush,
    ) -> bool {
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        if pw >= 8192 || ph >= 8192 {
            return false; // tiny-skia tiles such bitmaps
        }
        let Some(bounds) = bounds else {
            return false;
        };
        // The pixels the supersampler may cover (it covers the rounded-out bounds).
        let b = [
            bounds[0] - 1.0,
            bounds[1] - 1.0,
            bounds[2] + 1.0,
            bounds[3] + 1.0,
        ];
        let (x0, x1) = (floor_within(b[0], pw), ceil_within(b[2], pw));
        let (y0, y1) = (floor_within(b[1], ph), ceil_within(b[3], ph));
        // This painter's rows (a band of the bitmap when two draw it, see `mod.rs`).
        let rows = self.rows.clone();
        let (r0, r1) = (rows.start as usize, rows.end as usize);
        if x0 >= x1 || y0.max(r0) >= y1.min(r1) || brush.is_invisible() {
            return true; // nothing visible here
        }
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return true;
        };
        let stride = pw as usize;
        let pixels = self.pixmap.data_mut();
        let clip = clip.map(|m| m.data());
        let mut blend = |y: usize, x: usize, cov: &mut [u8]| {
            let (a, z) = (y * stride + x, y * stride + x + cov.len());
            let clip_row = clip.map(|m| &m[a..z]);
            // Up to seven pixels more, within the row, for a short row's last group of
            // eight (`blend_coverage` leaves them as they are).
            let room = (z + 7).min((y + 1) * stride).max(z);
            let px = &mut pixels[a * 4..room * 4];
            match &brush {
                Brush::Solid(color) => rect::blend_coverage(px, cov, clip_row, *color),
            }
        };
        // Our copy of the supersampler hands the rows over as it covers them, without the
        // scratch mask, and polls the stop itself every few dozen rows (no bands needed).
        if supersample::cover(dp, pw, ph, rows, self.stop, &mut blend).is_some() {
            return true;
        }
        // What it leaves (a path to clip to the bitmap) tiny-skia covers into the scratch
        // mask, all zero between uses, so the coverage lands as it is.
        if self.scratch.is_none() {
            self.scratch = self.pool.take_mask(pw, ph);
        }
        let Some(scratch) = self.scratch.as_mut() else {
            return false;
        };
        band::cover_rows(
            scratch,
            dp,
            tiny_skia::Transform::identity(),
            [x0, y0, x1, y1],
            band::Banding::DEFAULT,
            self.stop,
            // tiny-skia covers every row; this painter blends its own.
            |y, x, cov| {
                if (r0..r1).contains(&y) {
                    blend(y, x, cov)
                }
            },
        );
        true
    }

    /// Fills a small path of horizontal and vertical segments (a ring: a bar's border, a
    /// stroked rectangle's outline) in a solid colour exactly as `fill_path` would, through
    /// [`Rectilinear`]; a rectangle clip stays a rectangle. `false` when tiny-skia is to
    /// draw it (a curve, a slant, more edges than a few rectangles have).
    fn fill_rectilinear(
        &mut self,
        dp: &tiny_skia::Path,
        bounds: Option<[f32; 4]>,
        c: chart_spec::Rgba,
    ) -> bool {
        /// Paths with more verbs than a few rectangles have are not looked at.
        const MAX_VERBS: usize = 24;
        let verbs = dp.verbs();
        if verbs.len() > MAX_VERBS || verbs.iter().any(|v| is_curve(*v)) {
            return false;
        }
        let (pw, ph) = (self.pixmap.width(), self.pixmap.height());
        let Some(shape) = Rectilinear::of(dp, pw, ph) else {
            return false;
        };
        let Some(bounds) = bounds else {
            return false;
        };
        if let Ok(clip) = self.clips.rect_clip_for(bounds, self.pool) {
            let color = rect::SolidColor::new(c);
            let rows = self.rows.clone();
            shape.fill(self.pixmap.data_mut(), (pw, ph), rows, color, clip);
        }
        true
    }
}

/// `v.floor().clamp(0, max)` as an index, without the libm call (`floorf` is a function
/// call on x86-64 without SSE 4.1, four per small path): clamped first, `v` is not
/// negative, where truncation is the floor. `max` is below 8192, so every clamped whole
/// number is exact.
fn floor_within(v: f32, max: u32) -> usize {
    v.clamp(0.0, max as f32) as usize
}

/// `v.ceil().clamp(0, max)` as an index, as [`floor_within`].
fn ceil_within(v: f32, max: u32) -> usize {
    let v = v.clamp(0.0, max as f32);
    let i = v as usize;
    if (i as f32) < v {
        i + 1
    } else {
        i
    }
}

/// A curve has no place in a rectilinear path.
fn is_curve(v: tiny_skia_path::PathVerb) -> bool {
    matches!(
        v,
        tiny_skia_path::PathVerb::Quad | tiny_skia_path::PathVerb::Cubic
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::painter::tests::xorshift;

    /// The index forms of floor and ceil agree with `f32::floor`/`ceil` then `clamp` on
    /// whole, fractional, negative, huge and non-finite values.
    #[test]
    fn floor_and_ceil_within_match_libm() {
        let max = 1600u32;
        let mut next = xorshift(0x853c_49e6_748f_ea9b);
        let mut values = vec![
            0.0,
            -0.0,
            -0.5,
            0.25,
            1.0,
            1599.5,
            1600.0,
            1600.25,
            -1e30,
            1e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ];
        values.extend((0..20_000).map(|_| next(4_000_000) as f32 / 1000.0 - 1000.0));
        for v in values {
            let floor = v.floor().clamp(0.0, max as f32) as usize;
            let ceil = v.ceil().clamp(0.0, max as f32) as usize;
            assert_eq!(floor_within(v, max), floor, "floor {v}");
            assert_eq!(ceil_within(v, max), ceil, "ceil {v}");
        }
    }
}
