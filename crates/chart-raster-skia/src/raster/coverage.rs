//! Exact-area anti-aliasing for glyphs, the way FreeType's smooth rasteriser covers the
//! glyph masks Chrome draws text with.
//!
//! tiny-skia anti-aliases paths by 4× supersampling, which snaps every edge to a quarter
//! pixel; that is right for shapes (Skia's scan converter drew the reference images) but
//! not for text. Here each pixel's coverage is the exact area of the path inside it: edges
//! are flattened to lines and each line adds, per pixel row, its signed area to an
//! accumulation buffer whose running sum along the row is the winding-weighted coverage.
//! Interior pixels get the exact winding number, so `min(1, |sum|)` is the non-zero rule.

use crate::math::squared;
use tiny_skia::{Path, PathSegment};

/// Coverage of a path over a pixel-aligned box, 0..=1 per pixel.
pub struct Coverage {
    /// Left column of the box in the pixmap.
    pub x0: i32,
    /// Top row of the box in the pixmap.
    pub y0: i32,
    /// Box width in pixels.
    pub width: usize,
    /// Box height in pixels.
    pub height: usize,
    /// Accumulated signed areas, then (after [`Coverage::finish`]) coverage values.
    cells: Vec<f32>,
    stride: usize,
}

impl Coverage {
    /// The coverage of a device-space path, limited to a `width × height` pixmap.
    pub fn of_path(path: &Path, pix_width: u32, pix_height: u32) -> Option<Coverage> {
        let b = path.bounds();
        let x0 = (b.left().floor() as i64).clamp(0, pix_width as i64) as i32;
        let y0 = (b.top().floor() as i64).clamp(0, pix_height as i64) as i32;
        let x1 = (b.right().ceil() as i64).clamp(0, pix_width as i64) as i32;
        let y1 = (b.bottom().ceil() as i64).clamp(0, pix_height as i64) as i32;
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        let (width, height) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let stride = width + 2;
        let mut cov = Coverage {
            x0,
            y0,
            width,
            height,
            cells: vec![0.0; stride * height],
            stride,
        };
        let (ox, oy) = (x0 as f32, y0 as f32);
        let mut start = (0.0f32, 0.0f32);
        let mut last = (0.0f32, 0.0f32);
        for seg in path.segments() {
            match seg {
                PathSegment::MoveTo(p) => {
                    if last != start {
                        cov.line(last, start);
                    }
                    start = (p.x - ox, p.y - oy);
                    last = start;
                }
                PathSegment::LineTo(p) => {
                    let p = (p.x - ox, p.y - oy);
                    cov.line(last, p);
                    last = p;
                }
                PathSegment::QuadTo(c, p) => {
                    let c = (c.x - ox, c.y - oy);
                    let p = (p.x - ox, p.y - oy);
                    // As FreeType's smooth rasteriser (`gray_render_conic`) flattens the
                    // glyphs Chromium draws: chords up to 1/16 px inside the curve.
                    let n = freetype_steps(
                        (last.0 - 2.0 * c.0 + p.0)
                            .abs()
                            .max((last.1 - 2.0 * c.1 + p.1).abs()),
                    );
                    let mut prev = last;
                    for i in 1..=n {
                        let t = i as f32 / n as f32;
                        let u = 1.0 - t;
                        let q = (
                            u * u * last.0 + 2.0 * u * t * c.0 + t * t * p.0,
                            u * u * last.1 + 2.0 * u * t * c.1 + t * t * p.1,
                        );
                        cov.line(prev, q);
                        prev = q;
                    }
                    last = p;
                }
                PathSegment::CubicTo(c1, c2, p) => {
                    let c1 = (c1.x - ox, c1.y - oy);
                    let c2 = (c2.x - ox, c2.y - oy);
                    let p = (p.x - ox, p.y - oy);
                    // The second differences bound how far the curve strays from its chords.
                    let dd = |a: (f32, f32), b: (f32, f32), c: (f32, f32)| {
                        (squared(a.0 - 2.0 * b.0 + c.0) + squared(a.1 - 2.0 * b.1 + c.1)).sqrt()
                    };
                    let n = segments_for(3.0 * dd(last, c1, c2).max(dd(c1, c2, p)));
                    let mut prev = last;
                    for i in 1..=n {
                        let t = i as f32 / n as f32;
                        let u = 1.0 - t;
                        let (a, b, cc, d) =
                            (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                        let q = (
                            a * last.0 + b * c1.0 + cc * c2.0 + d * p.0,
                            a * last.1 + b * c1.1 + cc * c2.1 + d * p.1,
                        );
                        cov.line(prev, q);
                        prev = q;
                    }
                    last = p;
                }
                PathSegment::Close => {
                    if last != start {
                        cov.line(last, start);
                    }
                    last = start;
                }
            }
        }
        if last != start {
            cov.line(last, start);
        }
        cov.finish();
        Some(cov)
    }

    /// Adds one edge (box coordinates): for every row it crosses, the signed area it puts
    /// to its right within each pixel of the row.
    fn line(&mut self, a: (f32, f32), b: (f32, f32)) {
        if a.1 == b.1 || !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite())
        {
            return;
        }
        // Downward edges add, upward edges subtract (winding direction).
        let (dir, p, q) = if a.1 < b.1 { (1.0, a, b) } else { (-1.0, b, a) };
        let h = self.height as f32;
        let (top, bottom) = (p.1.max(0.0), q.1.min(h));
        if top >= bottom {
            return;
        }
        let dxdy = (q.0 - p.0) / (q.1 - p.1);
        let w = self.width as f32;
        let mut row = top.floor() as usize;
        let mut y = top;
        while y < bottom && row < self.height {
            let next = ((row + 1) as f32).min(bottom);
            let dy = next - y;
            // x at both ends of the piece; outside the box x clamps without changing the
            // coverage inside it (left of the box counts as left of every pixel).
            let xa = (p.0 + (y - p.1) * dxdy).clamp(0.0, w);
            let xb = (p.0 + (next - p.1) * dxdy).clamp(0.0, w);
            self.piece(row, xa.min(xb), xa.max(xb), dir * dy);
            y = next;
            row += 1;
        }
    }

    /// Adds the contribution of an edge piece spanning `[xl, xr]` over a row with signed
    /// height `d`: pixel c gets `d ·` the mean over the piece of the part of `[c, c+1]`
    /// right of the edge; stored as differences between neighbouring columns.
    fn piece(&mut self, row: usize, xl: f32, xr: f32, d: f32) {
        let base = row * self.stride;
        let c0 = xl.floor() as usize;
        let c1 = (xr.ceil() as usize).max(c0 + 1);
        let mut prev = 0.0;
        for c in c0..=c1.min(self.width) {
            let s = d * right_fraction(c as f32, xl, xr);
            self.cells[base + c] += s - prev;
            prev = s;
        }
    }

    /// Turns accumulated areas into coverage (non-zero rule).
    fn finish(&mut self) {
        for row in 0..self.height {
            let base = row * self.stride;
            let mut acc = 0.0f32;
            for c in 0..self.width {
                acc += self.cells[base + c];
                self.cells[base + c] = acc.abs().min(1.0);
            }
        }
    }

    /// Coverage of a pixel of the box, 0..=1.
    pub fn at(&self, x: usize, y: usize) -> f32 {
        self.cells[y * self.stride + x]
    }
}

/// Mean over x in `[xl, xr]` of the part of the pixel `[c, c+1]` lying right of x.
fn right_fraction(c: f32, xl: f32, xr: f32) -> f32 {
    let f = |x: f32| (c + 1.0 - x).clamp(0.0, 1.0);
    if xr - xl < 1e-6 {
        return f(0.5 * (xl + xr));
    }
    // ∫ clamp(c+1-x, 0, 1) dx over [xl, xr]: 1 left of c, a ramp over the pixel, 0 after.
    let full = (xr.min(c) - xl).max(0.0);
    let (lo, hi) = (xl.max(c), xr.min(c + 1.0));
    let ramp = if hi > lo {
        0.5 * (squared(c + 1.0 - lo) - squared(c + 1.0 - hi))
    } else {
        0.0
    };
    (full + ramp) / (xr - xl)
}

/// How many chords flatten a curve to within 0.02 px: a quadratic with control-polygon
/// second difference `dd` strays `dd / (4 n²)` from its n chords (a cubic's bound uses
/// three times its largest second difference).
/// FreeType's steps for a quadratic curve whose second difference is `dd` px on its larger
/// axis (four times its distance from the chord): `2^k` equal steps, the fewest that bring
/// it to 1/4 px, each halving quartering it.
fn freetype_steps(dd: f32) -> usize {
    let mut d = if dd.is_finite() { dd } else { 0.0 };
    let mut n = 1;
    while d > 0.25 && n < 1 << 16 {
        d /= 4.0;
        n *= 2;
    }
    n
}

fn segments_for(dd: f32) -> usize {
    if !dd.is_finite() {
        return 1;
    }
    ((dd / (4.0 * 0.02)).sqrt().ceil() as usize).clamp(1, 512)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Path {
        tiny_skia::PathBuilder::from_rect(tiny_skia::Rect::from_xywh(x, y, w, h).unwrap())
    }

    #[test]
    fn rect_edges_have_exact_area() {
        let c = Coverage::of_path(&rect(2.12, 1.0, 3.0, 2.5), 10, 10).unwrap();
        assert_eq!((c.x0, c.y0), (2, 1));
        assert!((c.at(0, 0) - 0.88).abs() < 1e-4, "{}", c.at(0, 0));
        assert!((c.at(1, 0) - 1.0).abs() < 1e-6);
        assert!((c.at(3, 0) - 0.12).abs() < 1e-4);
        assert!((c.at(0, 2) - 0.44).abs() < 1e-4);
    }

    #[test]
    fn hole_and_overlap_follow_non_zero() {
        // Outer clockwise, inner counter-clockwise: a hole.
        let mut pb = tiny_skia::PathBuilder::new();
        pb.push_rect(tiny_skia::Rect::from_xywh(0.0, 0.0, 6.0, 6.0).unwrap());
        pb.move_to(2.0, 2.0);
        pb.line_to(2.0, 4.0);
        pb.line_to(4.0, 4.0);
        pb.line_to(4.0, 2.0);
        pb.close();
        let c = Coverage::of_path(&pb.finish().unwrap(), 10, 10).unwrap();
        assert_eq!(c.at(3, 3), 0.0);
        assert_eq!(c.at(1, 1), 1.0);
        // Same direction twice: still fully covered, not 2.
        let mut pb = tiny_skia::PathBuilder::new();
        pb.push_rect(tiny_skia::Rect::from_xywh(0.0, 0.0, 4.0, 4.0).unwrap());
        pb.push_rect(tiny_skia::Rect::from_xywh(1.0, 1.0, 2.0, 2.0).unwrap());
        let c = Coverage::of_path(&pb.finish().unwrap(), 10, 10).unwrap();
        assert_eq!(c.at(2, 2), 1.0);
    }

    #[test]
    fn diagonal_half_pixel() {
        // A right triangle over one pixel: half covered.
        let mut pb = tiny_skia::PathBuilder::new();
        pb.move_to(0.0, 0.0);
        pb.line_to(1.0, 1.0);
        pb.line_to(0.0, 1.0);
        pb.close();
        let c = Coverage::of_path(&pb.finish().unwrap(), 4, 4).unwrap();
        assert!((c.at(0, 0) - 0.5).abs() < 1e-5);
    }

    /// A circle's area, less what FreeType's flattening leaves outside its chords.
    #[test]
    fn circle_area() {
        let mut pb = tiny_skia::PathBuilder::new();
        pb.push_circle(10.0, 10.0, 5.0);
        let c = Coverage::of_path(&pb.finish().unwrap(), 20, 20).unwrap();
        let mut total = 0.0;
        for y in 0..c.height {
            for x in 0..c.width {
                total += c.at(x, y);
            }
        }
        // FreeType's chords lie inside the curve by at most 1/16 px.
        let area = std::f32::consts::PI * 25.0;
        let perimeter = std::f32::consts::PI * 10.0;
        assert!(total < area && total > area - perimeter / 16.0, "{total}");
    }
}
