//! Canvas shadows (`shadowColor`, `shadowBlur`, `shadowOffsetX/Y`), as the HTML canvas spec
//! describes them and Chrome's Skia draws them: the shape is drawn alone, its alpha is
//! offset, blurred by a Gaussian whose standard deviation is half of `shadowBlur`, tinted with
//! the shadow colour and composited (through the clip) before the shape itself.
//!
//! Offsets and blur are in bitmap pixels, not scaled by the transform (the spec's "shadow
//! offset ... not affected by the current transformation matrix"), so under Chart.js's
//! `scale(dpr)` they stay device pixels.
//!
//! Like Skia's blur, a standard deviation of 2 or more is three box blurs (the SVG
//! `feGaussianBlur` approximation, whose cost does not grow with the radius); smaller ones
//! use the Gaussian kernel itself. Hostile values are bounded: the blur's reach is capped
//! at the bitmap's size, and a shadow whose scratch area would pass [`MAX_SHADOW_PIXELS`]
//! is not drawn.

use super::clip::ClipStack;
use super::painter::Painter;
use crate::scene::{Item, Path, Shadow, Transform};

/// The most pixels a shadow's scratch bitmap may have (16 MB of RGBA, with as much again
/// for the blur): four times a 1,000 × 1,000 canvas.
pub(super) const MAX_SHADOW_PIXELS: usize = 4_000_000;

/// Standard deviations at or above this are blurred by three box blurs, as Skia does.
const BOX_SIGMA: f32 = 2.0;

impl Painter<'_> {
    /// Paints the shadow of `item` (a fill, stroke or text) under the current clip.
    pub(super) fn shadow(&mut self, shadow: &Shadow, item: &Item) {
        if !shadow.is_visible() || matches!(item, Item::Shadowed { .. }) {
            return;
        }
        let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
        let (ox, oy) = (finite(shadow.offset_x), finite(shadow.offset_y));
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        let blur = finite(shadow.blur).max(0.0);
        // Beyond the bitmap's size the spread only thins the shadow further; the reach (3σ)
        // is capped there, so the scratch area stays bounded whatever the blur.
        let sigma = (blur / 2.0).min(w.max(h));
        let reach = (3.0 * sigma).ceil();
        // The shape's device bounds, moved by the offset: a text's are not known here, the
        // bitmap stands for them.
        let bounds = item_bounds(item, self.base)
            .map(|[x0, y0, x1, y1]| [x0 + ox - 1.0, y0 + oy - 1.0, x1 + ox + 1.0, y1 + oy + 1.0])
            .unwrap_or([-reach, -reach, w + reach, h + reach]);
        // The scratch region: the shape's pixels that reach the bitmap through the blur.
        let x0 = (bounds[0] - reach).max(-reach).floor();
        let y0 = (bounds[1] - reach).max(-reach).floor();
        let x1 = (bounds[2] + reach).min(w + reach).ceil();
        let y1 = (bounds[3] + reach).min(h + reach).ceil();
        if !(x0 < x1 && y0 < y1) || x1 <= 0.0 || y1 <= 0.0 || x0 >= w || y0 >= h {
            return;
        }
        let (rw, rh) = ((x1 - x0) as usize, (y1 - y0) as usize);
        if rw.checked_mul(rh).is_none_or(|n| n > MAX_SHADOW_PIXELS) {
            return;
        }
        let Some(mut alpha) = self.shape_alpha(item, [x0, y0], [rw, rh], (ox, oy)) else {
            return;
        };
        if self.cancelled() {
            return;
        }
        blur_mask(&mut alpha, rw, rh, sigma);
        self.composite(&alpha, [x0 as i64, y0 as i64], [rw, rh], shadow.color);
    }

    /// The alpha (0..=1) of `item` drawn alone, moved by `offset`, over the `size` pixels
    /// from device `origin`.
    fn shape_alpha(
        &mut self,
        item: &Item,
        origin: [f32; 2],
        size: [usize; 2],
        offset: (f32, f32),
    ) -> Option<Vec<f32>> {
        let (rw, rh) = (size[0] as u32, size[1] as u32);
        let isize = tiny_skia::IntSize::from_wh(rw, rh)?;
        let data = self.pool.take_filled(size[0] * size[1] * 4, 0);
        let mut layer = tiny_skia::Pixmap::from_vec(data, isize)?;
        {
            let mut sub = Painter {
                pixmap: &mut layer,
                // The shape is needed whole: it is blurred before it is composited.
                rows: 0..rh,
                clips: ClipStack::new(rw, rh),
                scratch: None,
                pool: self.pool,
                glyphs: self.glyphs,
                base: Transform::translate(offset.0 - origin[0], offset.1 - origin[1])
                    .then(self.base),
                text: self.text,
                sprite: None,
                stop: self.stop,
                buffers: Default::default(),
                stamps: Default::default(),
            };
            sub.item(item);
            let Painter { clips, scratch, .. } = sub;
            clips.recycle(self.pool);
            if let Some(m) = scratch {
                self.pool.give_mask(m);
            }
        }
        let alpha = layer
            .data()
            .chunks_exact(4)
            .map(|px| f32::from(px[3]) / 255.0)
            .collect();
        self.pool.give(layer.take());
        Some(alpha)
    }

    /// Blends the shadow colour, covered by `alpha`, source-over onto the bitmap through the
    /// clip.
    fn composite(
        &mut self,
        alpha: &[f32],
        origin: [i64; 2],
        size: [usize; 2],
        color: chart_spec::Rgba,
    ) {
        let (pw, ph) = (self.pixmap.width() as i64, self.pixmap.height() as i64);
        let [rw, rh] = size;
        let cx0 = origin[0].max(0);
        let cy0 = origin[1].max(0);
        let cx1 = (origin[0] + rw as i64).min(pw);
        let cy1 = (origin[1] + rh as i64).min(ph);
        if cx0 >= cx1 || cy0 >= cy1 {
            return;
        }
        let bounds = [cx0 as f32, cy0 as f32, cx1 as f32, cy1 as f32];
        let Ok(clip) = self.clips.mask_for(Some(bounds), self.pool) else {
            return;
        };
        let clip = clip.map(|m| m.data());
        let ca = f32::from(color.a) / 255.0;
        let rgb = [color.r, color.g, color.b].map(f32::from);
        let stride = pw as usize;
        let pixels = self.pixmap.data_mut();
        for y in cy0..cy1 {
            let row = (y - origin[1]) as usize * rw;
            for x in cx0..cx1 {
                let a = alpha[row + (x - origin[0]) as usize];
                let i = y as usize * stride + x as usize;
                let cov = clip.map_or(1.0, |m| f32::from(m[i]) / 255.0);
                let sa = a * ca * cov;
                if sa <= 0.0 {
                    continue;
                }
                let px = &mut pixels[i * 4..i * 4 + 4];
                let keep = 1.0 - sa;
                for c in 0..3 {
                    let v = rgb[c] * sa + f32::from(px[c]) * keep;
                    px[c] = v.round().clamp(0.0, 255.0) as u8;
                }
                px[3] = (255.0 * sa + f32::from(px[3]) * keep)
                    .round()
                    .clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// Device bounds of a fill's or stroke's path (its points' hull, which holds its curves),
/// widened by a stroke's reach; `None` for text and empty paths.
pub(super) fn item_bounds(item: &Item, base: Transform) -> Option<[f32; 4]> {
    let (path, transform, pad) = match item {
        Item::Fill {
            path, transform, ..
        } => (path, transform, 0.0),
        Item::Stroke {
            path,
            stroke,
            transform,
            ..
        } => {
            let t = base.then(*transform);
            let scale = (t.a * t.a + t.b * t.b)
                .sqrt()
                .max((t.c * t.c + t.d * t.d).sqrt());
            let half = stroke.width.max(0.0) / 2.0 * stroke.miter_limit.max(1.5) * scale;
            (path, transform, half)
        }
        _ => return None,
    };
    let b = path_hull(path, base.then(*transform))?;
    let pad = if pad.is_finite() { pad } else { return None };
    Some([b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad])
}

fn path_hull(path: &Path, t: Transform) -> Option<[f32; 4]> {
    let mut b = [
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut add = |x: f32, y: f32| {
        let (x, y) = t.apply(x, y);
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    };
    for c in &path.cmds {
        c.for_each_point(&mut add);
    }
    b.iter().all(|v| v.is_finite()).then_some(b)
}

/// Blurs a `w × h` mask in place by a Gaussian of standard deviation `sigma`, rows then
/// columns; what falls outside the mask is lost (the region is sized to hold the spread).
pub(super) fn blur_mask(mask: &mut [f32], w: usize, h: usize, sigma: f32) {
    if sigma.is_nan() || sigma <= 0.0 || w == 0 || h == 0 || mask.len() != w * h {
        return;
    }
    let mut line = Vec::with_capacity(w.max(h));
    let mut tmp = Vec::with_capacity(w.max(h));
    for y in 0..h {
        line.clear();
        line.extend_from_slice(&mask[y * w..(y + 1) * w]);
        blur_line(&mut line, &mut tmp, sigma);
        mask[y * w..(y + 1) * w].copy_from_slice(&line);
    }
    for x in 0..w {
        line.clear();
        line.extend((0..h).map(|y| mask[y * w + x]));
        blur_line(&mut line, &mut tmp, sigma);
        for (y, v) in line.iter().enumerate() {
            mask[y * w + x] = *v;
        }
    }
}

/// One line of the separable blur.
fn blur_line(line: &mut [f32], tmp: &mut Vec<f32>, sigma: f32) {
    if sigma < BOX_SIGMA {
        gaussian_line(line, tmp, sigma);
        return;
    }
    // SVG feGaussianBlur: d = ⌊σ·3·√(2π)/4 + 0.5⌋; three centred boxes of d when d is odd,
    // else two of d (shifted left, then right) and one of d + 1.
    let d = (sigma * 3.0 * (2.0 * std::f32::consts::PI).sqrt() / 4.0 + 0.5).floor() as usize;
    if d == 0 {
        return;
    }
    if d % 2 == 1 {
        let r = d / 2;
        for _ in 0..3 {
            box_line(line, tmp, r, r);
        }
    } else {
        box_line(line, tmp, d / 2, d / 2 - 1);
        box_line(line, tmp, d / 2 - 1, d / 2);
        box_line(line, tmp, d / 2, d / 2);
    }
}

/// A box blur over `before` pixels before and `after` after each one (zero outside).
fn box_line(line: &mut [f32], tmp: &mut Vec<f32>, before: usize, after: usize) {
    let n = line.len();
    let scale = 1.0 / (before + after + 1) as f32;
    tmp.clear();
    tmp.extend_from_slice(line);
    // Running sum over tmp[i - before ..= i + after], in f64 so long lines keep precision.
    let mut sum: f64 = tmp[..after.min(n)].iter().map(|&v| f64::from(v)).sum();
    for (i, out) in line.iter_mut().enumerate() {
        if let Some(&v) = tmp.get(i + after) {
            sum += f64::from(v);
        }
        if i > before {
            sum -= f64::from(tmp[i - before - 1]);
        }
        *out = (sum as f32 * scale).max(0.0);
    }
}

/// A direct Gaussian kernel of radius ⌈3σ⌉, normalised.
fn gaussian_line(line: &mut [f32], tmp: &mut Vec<f32>, sigma: f32) {
    let r = (3.0 * sigma).ceil() as usize;
    let kernel: Vec<f32> = (0..=r)
        .map(|i| libm::expf(-((i * i) as f32) / (2.0 * sigma * sigma)))
        .collect();
    let total: f32 = kernel[0] + 2.0 * kernel[1..].iter().sum::<f32>();
    tmp.clear();
    tmp.extend_from_slice(line);
    let n = line.len();
    for (i, out) in line.iter_mut().enumerate() {
        let mut acc = tmp[i] * kernel[0];
        for (k, &kv) in kernel.iter().enumerate().skip(1) {
            if i >= k {
                acc += tmp[i - k] * kv;
            }
            if i + k < n {
                acc += tmp[i + k] * kv;
            }
        }
        *out = acc / total;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{px, scene};
    use super::super::{rasterize, Reuse};
    use super::*;
    use crate::scene::Paint;
    use crate::text::TextEngine;
    use chart_spec::Rgba;

    fn shadowed_square(shadow: Shadow, dpr: f32) -> chart_spec::Bitmap {
        let mut path = Path::new();
        path.rect(2.0, 2.0, 4.0, 4.0);
        let item = Item::Fill {
            path,
            paint: Paint::Solid(Rgba::rgb(255, 0, 0)),
            transform: Transform::IDENTITY,
        };
        let s = scene(
            vec![Item::Shadowed {
                shadow,
                item: Box::new(item),
            }],
            dpr,
        );
        let cancel = chart_spec::Cancel::new();
        rasterize(&s, &TextEngine::system(), &Reuse::default(), &cancel).unwrap()
    }

    /// An unblurred shadow is the shape moved by the offset, in the shadow colour, under the
    /// shape; the offset is in device pixels whatever the device pixel ratio.
    #[test]
    fn a_sharp_shadow_is_the_shape_moved_by_device_pixels() {
        let shadow = Shadow {
            color: Rgba::rgb(0, 0, 255),
            blur: 0.0,
            offset_x: 4.0,
            offset_y: 0.0,
        };
        let b = shadowed_square(shadow, 1.0);
        assert_eq!(px(&b, 3, 3), [255, 0, 0, 255]); // the shape over its shadow
        assert_eq!(px(&b, 7, 3), [0, 0, 255, 255]); // the shadow alone
        assert_eq!(px(&b, 11, 3), [0, 0, 0, 0]);
        // At dpr 2 the square covers device 4..12 and the shadow reaches 4 px past it.
        let b = shadowed_square(shadow, 2.0);
        assert_eq!(px(&b, 13, 6), [0, 0, 255, 255]);
        assert_eq!(px(&b, 17, 6), [0, 0, 0, 0]);
    }

    /// A blurred shadow is soft: partly covered around the shape.
    #[test]
    fn a_blurred_shadow_spreads_around_the_shape() {
        let shadow = Shadow {
            color: Rgba::rgb(0, 0, 0),
            blur: 4.0,
            offset_x: 0.0,
            offset_y: 0.0,
        };
        let b = shadowed_square(shadow, 1.0);
        let a = px(&b, 7, 4)[3];
        assert!(a > 0 && a < 255, "{a}");
        assert_eq!(px(&b, 4, 4), [255, 0, 0, 255]);
    }

    /// Hostile blur and offsets neither allocate past the budget nor loop: the render ends
    /// at once with the shape drawn.
    #[test]
    fn hostile_shadows_are_bounded() {
        for (blur, ox) in [
            (1e9, 0.0),
            (f32::INFINITY, f32::NAN),
            (1e30, 1e30),
            (0.0, -1e9),
        ] {
            let shadow = Shadow {
                color: Rgba::rgb(0, 0, 0),
                blur,
                offset_x: ox,
                offset_y: 0.0,
            };
            let started = std::time::Instant::now();
            let b = shadowed_square(shadow, 1.0);
            assert_eq!(px(&b, 4, 4), [255, 0, 0, 255]);
            assert!(started.elapsed().as_secs() < 5);
        }
    }

    #[test]
    fn box_blur_keeps_the_mass_and_spreads_it() {
        let mut m = vec![0.0f32; 41 * 41];
        m[20 * 41 + 20] = 1.0;
        blur_mask(&mut m, 41, 41, 3.0);
        let total: f32 = m.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
        // Symmetric about the centre, highest there.
        assert!((m[20 * 41 + 17] - m[20 * 41 + 23]).abs() < 1e-6);
        assert!(m[20 * 41 + 20] > m[20 * 41 + 22]);
        assert!(m[20 * 41 + 20] < 0.1);
    }

    #[test]
    fn small_sigma_uses_the_kernel() {
        let mut line = vec![0.0, 0.0, 1.0, 0.0, 0.0];
        let mut tmp = Vec::new();
        blur_line(&mut line, &mut tmp, 0.5);
        let s: f32 = line.iter().sum();
        assert!((s - 1.0).abs() < 1e-4);
        assert!(line[2] > 0.7 && line[1] > 0.0 && line[1] == line[3]);
    }

    #[test]
    fn even_box_widths_stay_centred() {
        // σ = 2.2 gives d = 4: two shifted boxes and one of 5 keep the centre.
        let mut line = vec![0.0f32; 31];
        line[15] = 1.0;
        let mut tmp = Vec::new();
        blur_line(&mut line, &mut tmp, 2.2);
        assert!((line[12] - line[18]).abs() < 1e-6);
    }
}
