//! The pixelmatch comparison rule of the fixtures README: per-pixel YIQ colour distance with a
//! threshold, anti-aliased pixels detected and not counted, colours blended over white.
//!
//! Written from the algorithm of the `pixelmatch` npm package (v5), which Chart.js's image
//! tests use: a pixel differs when its squared YIQ distance exceeds `35215 · threshold²`
//! (35215 is the largest possible distance), unless it looks like anti-aliasing in either
//! image (a pixel between its darkest and brightest neighbour, where those neighbours sit in
//! flat areas of both images).

/// Largest squared YIQ distance between two colours.
const MAX_YIQ_DELTA: f64 = 35215.0;

/// Counts mismatched pixels between two straight-alpha RGBA8 images of the same size.
/// When `diff` is given (same size), writes a visual diff image into it: red for counted
/// differences, yellow for anti-aliasing, faded grey elsewhere.
pub fn pixelmatch(
    expected: &[u8],
    actual: &[u8],
    width: u32,
    height: u32,
    threshold: f64,
    mut diff: Option<&mut [u8]>,
) -> usize {
    let (w, h) = (width as usize, height as usize);
    let len = w * h * 4;
    if expected.len() < len || actual.len() < len {
        return w * h;
    }
    if let Some(d) = diff.as_deref() {
        if d.len() < len {
            diff = None;
        }
    }
    let max_delta = MAX_YIQ_DELTA * threshold * threshold;
    let mut count = 0;
    for y in 0..h {
        for x in 0..w {
            let pos = (y * w + x) * 4;
            let delta = color_delta(expected, actual, pos, pos, false);
            let out: [u8; 3] = if delta.abs() > max_delta {
                if antialiased(expected, x, y, w, h, actual)
                    || antialiased(actual, x, y, w, h, expected)
                {
                    [255, 255, 0]
                } else {
                    count += 1;
                    [255, 0, 0]
                }
            } else {
                let v = blend(
                    rgb_to_y(
                        expected[pos] as f64,
                        expected[pos + 1] as f64,
                        expected[pos + 2] as f64,
                    ),
                    0.1 * expected[pos + 3] as f64 / 255.0,
                )
                .clamp(0.0, 255.0) as u8;
                [v, v, v]
            };
            if let Some(d) = diff.as_deref_mut() {
                d[pos..pos + 3].copy_from_slice(&out);
                d[pos + 3] = 255;
            }
        }
    }
    count
}

fn rgb_to_y(r: f64, g: f64, b: f64) -> f64 {
    r * 0.298_895_31 + g * 0.586_622_47 + b * 0.114_482_23
}

fn rgb_to_i(r: f64, g: f64, b: f64) -> f64 {
    r * 0.595_977_99 - g * 0.274_176_10 - b * 0.321_801_89
}

fn rgb_to_q(r: f64, g: f64, b: f64) -> f64 {
    r * 0.211_470_17 - g * 0.522_617_11 + b * 0.311_146_94
}

/// Blends a channel value over white with the given alpha (0..=1).
fn blend(c: f64, a: f64) -> f64 {
    255.0 + (c - 255.0) * a
}

/// Squared YIQ distance between pixel `k` of `a` and pixel `m` of `b`, signed by which one is
/// brighter (negative when `a` is brighter); only the luma difference when `y_only`.
fn color_delta(a: &[u8], b: &[u8], k: usize, m: usize, y_only: bool) -> f64 {
    if a[k..k + 4] == b[m..m + 4] {
        return 0.0;
    }
    let over_white = |p: &[u8], i: usize| -> (f64, f64, f64) {
        let (r, g, bl, al) = (p[i] as f64, p[i + 1] as f64, p[i + 2] as f64, p[i + 3]);
        if al < 255 {
            let al = al as f64 / 255.0;
            (blend(r, al), blend(g, al), blend(bl, al))
        } else {
            (r, g, bl)
        }
    };
    let (r1, g1, b1) = over_white(a, k);
    let (r2, g2, b2) = over_white(b, m);
    let (y1, y2) = (rgb_to_y(r1, g1, b1), rgb_to_y(r2, g2, b2));
    let y = y1 - y2;
    if y_only {
        return y;
    }
    let i = rgb_to_i(r1, g1, b1) - rgb_to_i(r2, g2, b2);
    let q = rgb_to_q(r1, g1, b1) - rgb_to_q(r2, g2, b2);
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q;
    if y1 > y2 {
        -delta
    } else {
        delta
    }
}

/// The 3×3 neighbourhood bounds of a pixel, and whether it lies on the image border.
fn neighbourhood(x: usize, y: usize, w: usize, h: usize) -> (usize, usize, usize, usize, bool) {
    let (x0, y0) = (x.saturating_sub(1), y.saturating_sub(1));
    let (x2, y2) = ((x + 1).min(w - 1), (y + 1).min(h - 1));
    let edge = x == x0 || x == x2 || y == y0 || y == y2;
    (x0, y0, x2, y2, edge)
}

/// Whether a pixel of `img` looks anti-aliased: at most two neighbours equal to it, and both
/// its darkest and its brightest neighbour sit in flat areas (three or more identical
/// neighbours) of both images.
fn antialiased(img: &[u8], x1: usize, y1: usize, w: usize, h: usize, other: &[u8]) -> bool {
    let (x0, y0, x2, y2, edge) = neighbourhood(x1, y1, w, h);
    let pos = (y1 * w + x1) * 4;
    let mut zeroes = usize::from(edge);
    let (mut min, mut max) = (0.0f64, 0.0f64);
    let (mut min_at, mut max_at) = ((0, 0), (0, 0));
    for x in x0..=x2 {
        for y in y0..=y2 {
            if x == x1 && y == y1 {
                continue;
            }
            let delta = color_delta(img, img, pos, (y * w + x) * 4, true);
            if delta == 0.0 {
                zeroes += 1;
                if zeroes > 2 {
                    return false;
                }
            } else if delta < min {
                min = delta;
                min_at = (x, y);
            } else if delta > max {
                max = delta;
                max_at = (x, y);
            }
        }
    }
    if min == 0.0 || max == 0.0 {
        return false;
    }
    (many_siblings(img, min_at.0, min_at.1, w, h) && many_siblings(other, min_at.0, min_at.1, w, h))
        || (many_siblings(img, max_at.0, max_at.1, w, h)
            && many_siblings(other, max_at.0, max_at.1, w, h))
}

/// Whether a pixel has three or more identical neighbours (border pixels count one extra).
fn many_siblings(img: &[u8], x1: usize, y1: usize, w: usize, h: usize) -> bool {
    let (x0, y0, x2, y2, edge) = neighbourhood(x1, y1, w, h);
    let pos = (y1 * w + x1) * 4;
    let mut zeroes = usize::from(edge);
    for x in x0..=x2 {
        for y in y0..=y2 {
            if x == x1 && y == y1 {
                continue;
            }
            let p = (y * w + x) * 4;
            if img[pos..pos + 4] == img[p..p + 4] {
                zeroes += 1;
                if zeroes > 2 {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(w: usize, h: usize, px: [u8; 4]) -> Vec<u8> {
        px.iter().copied().cycle().take(w * h * 4).collect()
    }

    #[test]
    fn identical_images_match() {
        let a = solid(4, 4, [10, 20, 30, 255]);
        assert_eq!(pixelmatch(&a, &a, 4, 4, 0.1, None), 0);
    }

    #[test]
    fn threshold_separates_small_from_large_differences() {
        let a = solid(5, 5, [100, 100, 100, 255]);
        let mut b = a.clone();
        // Centre pixel a little brighter: below the threshold.
        b[48..51].copy_from_slice(&[104, 104, 104]);
        assert_eq!(pixelmatch(&a, &b, 5, 5, 0.1, None), 0);
        // Much brighter: counted (an isolated dot is not anti-aliasing).
        b[48..51].copy_from_slice(&[250, 250, 250]);
        let mut diff = vec![0; 100];
        assert_eq!(pixelmatch(&a, &b, 5, 5, 0.1, Some(&mut diff)), 1);
        assert_eq!(&diff[48..52], &[255, 0, 0, 255]);
    }

    #[test]
    fn transparent_is_white() {
        let a = solid(3, 3, [0, 0, 0, 0]);
        let b = solid(3, 3, [255, 255, 255, 255]);
        assert_eq!(pixelmatch(&a, &b, 3, 3, 0.0, None), 0);
    }

    #[test]
    fn antialiased_edge_is_not_counted() {
        // A black | white edge; the actual image has a grey column between them, the
        // expected one a slightly different grey: the grey pixels are anti-aliasing.
        let (w, h) = (6, 6);
        let mut a = solid(w, h, [255, 255, 255, 255]);
        let mut b = a.clone();
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) * 4;
                let v = match x {
                    0..=2 => 0,
                    3 => 0,
                    _ => 255,
                };
                a[i..i + 3].copy_from_slice(&[v, v, v]);
                let v = if x == 3 { 128 } else { v };
                b[i..i + 3].copy_from_slice(&[v, v, v]);
            }
        }
        assert_eq!(pixelmatch(&a, &b, w as u32, h as u32, 0.1, None), 0);
        // With anti-aliasing detection off, the same change is a difference in a flat area.
        let flat = solid(w, h, [0, 0, 0, 255]);
        let mut c = flat.clone();
        let i = (2 * w + 2) * 4;
        c[i..i + 3].copy_from_slice(&[128, 128, 128]);
        assert_eq!(pixelmatch(&flat, &c, w as u32, h as u32, 0.1, None), 1);
    }
}
