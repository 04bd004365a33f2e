//! d3-scale-chromatic 3.1.0's continuous interpolators, which chartjs-chart-geo 4.3.6's
//! `ColorScale` looks up by its `interpolate` name (chart-spec resolves the name to d3's, as
//! `chart_spec::model::GEO_INTERPOLATORS` lists them). Each returns the colour d3 formats:
//! channels rounded and clamped to 0..=255 as d3-color's `formatRgb` does. The schemes'
//! data is d3's ([`super::chromatic_data`]); the interpolation below is written after
//! d3-interpolate's `interpolateRgbBasis` and `interpolateCubehelixLong` and d3-color's
//! `cubehelix`.

use super::chromatic_data::{BASIS, DISCRETE};
use chart_spec::Rgba;
use std::f64::consts::PI;

/// The colour of the interpolator `name` (one of `GEO_INTERPOLATORS`) at `t`; `t` outside
/// 0..1 is handled as each d3 interpolator handles it (clamped, wrapped or extrapolated).
/// A name not in the list (chart-spec never passes one) colours as `Blues`, the plugin's
/// fallback.
pub(super) fn color(name: &str, t: f64) -> Rgba {
    if let Some((_, scheme)) = BASIS.iter().find(|(n, _)| *n == name) {
        return rgb_basis(scheme, t);
    }
    if let Some((_, scheme)) = DISCRETE.iter().find(|(n, _)| *n == name) {
        // `ramp(range)`: the colour at `floor(t * n)`, clamped to the scheme.
        let n = scheme.len() / 6;
        let i = (t * n as f64).floor().clamp(0.0, (n - 1) as f64);
        let [r, g, b] = hex(scheme, if i.is_nan() { 0 } else { i as usize });
        return rgb(r, g, b);
    }
    match name {
        "Cividis" => {
            let t = t.clamp(0.0, 1.0);
            rgb(
                -4.54 - t * (35.34 - t * (2381.73 - t * (6402.7 - t * (7024.72 - t * 2710.57)))),
                32.49 + t * (170.73 + t * (52.82 - t * (131.46 - t * (176.58 - t * 67.37)))),
                81.24 + t * (442.36 - t * (2482.43 - t * (6167.24 - t * (6614.94 - t * 2475.67)))),
            )
        }
        "Turbo" => {
            let t = t.clamp(0.0, 1.0);
            rgb(
                34.61
                    + t * (1172.33
                        - t * (10793.56 - t * (33300.12 - t * (38394.49 - t * 14825.05)))),
                23.31 + t * (557.33 + t * (1225.33 - t * (3574.96 - t * (1073.77 + t * 707.56)))),
                27.2 + t * (3211.1 - t * (15327.97 - t * (27814.0 - t * (22569.18 - t * 6838.66)))),
            )
        }
        // `interpolateCubehelixLong(cubehelix(h0, s0, l0), cubehelix(h1, s1, l1))`: each of
        // hue, saturation and lightness linear in `t`, the hue the long way round.
        "CubehelixDefault" => cubehelix_long((300.0, 0.5, 0.0), (-240.0, 0.5, 1.0), t),
        "Warm" => cubehelix_long((-100.0, 0.75, 0.35), (80.0, 1.5, 0.8), t),
        "Cool" => cubehelix_long((260.0, 0.75, 0.35), (80.0, 1.5, 0.8), t),
        // `interpolateRainbow`: cyclical, `t` wrapped into 0..1 first.
        "Rainbow" => {
            let t = if !(0.0..=1.0).contains(&t) {
                t - t.floor()
            } else {
                t
            };
            let ts = (t - 0.5).abs();
            cubehelix(360.0 * t - 100.0, 1.5 - 1.5 * ts, 0.8 - 0.9 * ts)
        }
        // `interpolateSinebow`: three squared sines a third of a turn apart.
        "Sinebow" => {
            let t = (0.5 - t) * PI;
            let sq = |a: f64| {
                let x = libm::sin(a);
                255.0 * x * x
            };
            rgb(sq(t), sq(t + PI / 3.0), sq(t + PI * 2.0 / 3.0))
        }
        _ => rgb_basis(BASIS[0].1, t),
    }
}

/// d3-color's `formatRgb` of channels: `Math.round`, `NaN` to 0, clamped to 0..=255.
fn rgb(r: f64, g: f64, b: f64) -> Rgba {
    let c = |v: f64| {
        if v.is_nan() {
            0
        } else {
            v.round().clamp(0.0, 255.0) as u8
        }
    };
    Rgba::rgb(c(r), c(g), c(b))
}

/// The colour at index `i` of a scheme written as six hex digits a colour.
fn hex(scheme: &str, i: usize) -> [f64; 3] {
    let byte = |k: usize| {
        scheme
            .get(i * 6 + k * 2..i * 6 + k * 2 + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, f64::from)
    };
    [byte(0), byte(1), byte(2)]
}

/// `interpolateRgbBasis(scheme)(t)`: each channel a uniform cubic B-spline through the
/// colours (d3-interpolate's `basis`), `t` clamped to 0..1, the ends extended by reflection.
fn rgb_basis(scheme: &str, t: f64) -> Rgba {
    let n = scheme.len() / 6 - 1;
    let (t, i) = if t.is_nan() || t <= 0.0 {
        (0.0, 0)
    } else if t >= 1.0 {
        (1.0, n - 1)
    } else {
        (t, (t * n as f64).floor() as usize)
    };
    let (c1, c2) = (hex(scheme, i), hex(scheme, i + 1));
    let c0 = (i > 0).then(|| hex(scheme, i - 1));
    let c3 = (i < n - 1).then(|| hex(scheme, i + 2));
    let t1 = (t - i as f64 / n as f64) * n as f64;
    let (t2, t3) = (t1 * t1, t1 * t1 * t1);
    let channel = |c: usize| {
        let (v1, v2) = (c1[c], c2[c]);
        let v0 = c0.map_or(2.0 * v1 - v2, |p| p[c]);
        let v3 = c3.map_or(2.0 * v2 - v1, |p| p[c]);
        ((1.0 - 3.0 * t1 + 3.0 * t2 - t3) * v0
            + (4.0 - 6.0 * t2 + 3.0 * t3) * v1
            + (1.0 + 3.0 * t1 + 3.0 * t2 - 3.0 * t3) * v2
            + t3 * v3)
            / 6.0
    };
    rgb(channel(0), channel(1), channel(2))
}

/// `interpolateCubehelixLong(a, b)(t)` of cubehelix colours `(h, s, l)`: no clamping of
/// `t` (d3 extrapolates; `formatRgb` clamps the channels).
fn cubehelix_long(a: (f64, f64, f64), b: (f64, f64, f64), t: f64) -> Rgba {
    let lerp = |x: f64, y: f64| if y - x != 0.0 { x + t * (y - x) } else { x };
    cubehelix(lerp(a.0, b.0), lerp(a.1, b.1), lerp(a.2, b.2))
}

/// d3-color's `Cubehelix.rgb()`: Green's cubehelix, hue in degrees.
fn cubehelix(h: f64, s: f64, l: f64) -> Rgba {
    const A: f64 = -0.14861;
    const B: f64 = 1.78277;
    const C: f64 = -0.29227;
    const D: f64 = -0.90649;
    const E: f64 = 1.97294;
    let h = if h.is_nan() {
        0.0
    } else {
        (h + 120.0) * (PI / 180.0)
    };
    let a = if s.is_nan() { 0.0 } else { s * l * (1.0 - l) };
    let (cosh, sinh) = (libm::cos(h), libm::sin(h));
    rgb(
        255.0 * (l + a * (A * cosh + B * sinh)),
        255.0 * (l + a * (C * cosh + D * sinh)),
        255.0 * (l + a * (E * cosh)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_chart_spec_accepts_has_its_own_interpolator() {
        // No name falls through to the Blues fallback but Blues itself.
        let probe = [0.0, 0.3, 0.7, 1.0];
        let blues: Vec<Rgba> = probe.iter().map(|&t| color("Blues", t)).collect();
        for name in chart_spec::model::GEO_INTERPOLATORS {
            let got: Vec<Rgba> = probe.iter().map(|&t| color(name, t)).collect();
            assert_eq!(got == blues, name == "Blues", "{name}");
        }
    }

    #[test]
    fn interpolators_give_d3s_colours() {
        // Values printed by d3-scale-chromatic 3.1.0 (node, `interpolateX(t)`).
        let cases = [
            ("Blues", 0.0, (247, 251, 255)),
            ("Blues", 1.0, (8, 48, 107)),
            ("Blues", 0.5, (109, 174, 213)),
            ("Reds", 0.25, (252, 186, 161)),
            ("RdBu", 0.5, (242, 239, 238)),
            ("YlOrRd", 0.3, (254, 201, 101)),
            ("Spectral", -0.2, (158, 1, 66)),
            ("Viridis", 0.5, (33, 145, 140)),
            ("Magma", 1.0, (252, 253, 191)),
            ("Cividis", 0.5, (127, 124, 117)),
            ("Turbo", 0.5, (149, 251, 81)),
            ("CubehelixDefault", 0.5, (160, 121, 73)),
            ("CubehelixDefault", 1.3, (246, 255, 255)),
            ("Warm", 0.2, (191, 60, 175)),
            ("Cool", 0.8, (82, 246, 103)),
            ("Rainbow", 0.0, (110, 64, 170)),
            ("Rainbow", 1.25, (255, 94, 99)),
            ("Sinebow", 0.1, (231, 141, 11)),
        ];
        for (name, t, (r, g, b)) in cases {
            assert_eq!(color(name, t), Rgba::rgb(r, g, b), "{name} at {t}");
        }
    }
}
