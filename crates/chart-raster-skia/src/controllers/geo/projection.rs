//! d3-geo 3's raw projections that chartjs-chart-geo offers by name, and the plugin's fitting
//! of them into the chart area (`ProjectionScale.computeBounds` / `updateBounds`).
//!
//! A d3 projection maps (λ, φ) in radians through its raw function and then
//! `x = tx + k·x_raw`, `y = ty − k·y_raw`; fitting only chooses `k`, `tx` and `ty`, so it is
//! computed here from the raw bounds of the outline.

use chart_spec::model::GeoOptions;
use std::f64::consts::{FRAC_PI_2, PI};

/// The raw projections (d3-geo's `geo*Raw`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Raw {
    Mercator,
    TransverseMercator,
    EqualEarth,
    Equirectangular,
    NaturalEarth1,
    /// Conic equal-area with standard parallels (radians) and a rotation of λ (radians).
    ConicEqualArea {
        phi0: f64,
        phi1: f64,
        rotate: f64,
    },
    AzimuthalEqualArea,
    AzimuthalEquidistant,
    Orthographic,
    Stereographic,
    Gnomonic,
}

/// d3's `asin` and `acos` clamp their argument to −1..1.
fn asin(x: f64) -> f64 {
    libm::asin(x.clamp(-1.0, 1.0))
}

impl Raw {
    fn by_name(name: &str) -> Raw {
        let albers = Raw::ConicEqualArea {
            phi0: 29.5f64.to_radians(),
            phi1: 45.5f64.to_radians(),
            rotate: 96f64.to_radians(),
        };
        match name {
            "mercator" | "geoMercator" => Raw::Mercator,
            "transverseMercator" | "geoTransverseMercator" => Raw::TransverseMercator,
            "equalEarth" | "geoEqualEarth" => Raw::EqualEarth,
            "equirectangular" | "geoEquirectangular" => Raw::Equirectangular,
            "naturalEarth1" | "geoNaturalEarth1" => Raw::NaturalEarth1,
            "conicEqualArea"
            | "geoConicEqualArea"
            | "conicConformal"
            | "geoConicConformal"
            | "conicEquidistant"
            | "geoConicEquidistant" => Raw::ConicEqualArea {
                phi0: 0.0,
                phi1: FRAC_PI_2 / 1.5,
                rotate: 0.0,
            },
            "azimuthalEqualArea" | "geoAzimuthalEqualArea" => Raw::AzimuthalEqualArea,
            "azimuthalEquidistant" | "geoAzimuthalEquidistant" => Raw::AzimuthalEquidistant,
            "orthographic" | "geoOrthographic" => Raw::Orthographic,
            "stereographic" | "geoStereographic" => Raw::Stereographic,
            "gnomonic" | "geoGnomonic" => Raw::Gnomonic,
            // `albers`, `albersUsa` (the plugin's default) and unknown names (`lookup[...] ||
            // lookup.albersUsa`).
            _ => albers,
        }
    }

    fn project(self, lambda: f64, phi: f64) -> (f64, f64) {
        match self {
            Raw::Mercator => (lambda, libm::log(libm::tan((FRAC_PI_2 + phi) / 2.0))),
            Raw::TransverseMercator => {
                // d3 rotates by [0, 0, 90] and swaps: [-y, x] of mercator's raw of the rotated
                // point; here directly: x = atanh(cos φ sin λ), y = atan2(tan φ, cos λ).
                let b = libm::cos(phi) * libm::sin(lambda);
                let x = 0.5 * libm::log((1.0 + b) / (1.0 - b));
                let y = libm::atan2(libm::tan(phi), libm::cos(lambda));
                (x, y)
            }
            Raw::EqualEarth => {
                const A1: f64 = 1.340264;
                const A2: f64 = -0.081106;
                const A3: f64 = 0.000893;
                const A4: f64 = 0.003796;
                let m = libm::sqrt(3.0) / 2.0;
                let l = asin(m * libm::sin(phi));
                let l2 = l * l;
                let l6 = l2 * l2 * l2;
                (
                    lambda * libm::cos(l)
                        / (m * (A1 + 3.0 * A2 * l2 + l6 * (7.0 * A3 + 9.0 * A4 * l2))),
                    l * (A1 + A2 * l2 + l6 * (A3 + A4 * l2)),
                )
            }
            Raw::Equirectangular => (lambda, phi),
            Raw::NaturalEarth1 => {
                let phi2 = phi * phi;
                let phi4 = phi2 * phi2;
                (
                    lambda
                        * (0.8707 - 0.131979 * phi2
                            + phi4 * (-0.013791 + phi4 * (0.003971 * phi2 - 0.001529 * phi4))),
                    phi * (1.007226
                        + phi2
                            * (0.015085 + phi4 * (-0.044475 + 0.028874 * phi2 - 0.005916 * phi4))),
                )
            }
            Raw::ConicEqualArea { phi0, phi1, rotate } => {
                let mut lam = lambda + rotate;
                if lam > PI {
                    lam -= 2.0 * PI;
                } else if lam < -PI {
                    lam += 2.0 * PI;
                }
                let sy0 = libm::sin(phi0);
                let n = (sy0 + libm::sin(phi1)) / 2.0;
                let c = 1.0 + sy0 * (2.0 * n - sy0);
                let r0 = libm::sqrt(c) / n;
                let r = libm::sqrt((c - 2.0 * n * libm::sin(phi)).max(0.0)) / n;
                let x = lam * n;
                (r * libm::sin(x), r0 - r * libm::cos(x))
            }
            Raw::AzimuthalEqualArea
            | Raw::AzimuthalEquidistant
            | Raw::Orthographic
            | Raw::Stereographic
            | Raw::Gnomonic => {
                let (cx, cy) = (libm::cos(lambda), libm::cos(phi));
                let k = cx * cy;
                let scale = match self {
                    Raw::AzimuthalEqualArea => libm::sqrt(2.0 / (1.0 + k)),
                    Raw::AzimuthalEquidistant => {
                        let c = libm::acos(k.clamp(-1.0, 1.0));
                        if c == 0.0 {
                            1.0
                        } else {
                            c / libm::sin(c)
                        }
                    }
                    Raw::Orthographic => 1.0,
                    Raw::Stereographic => 1.0 / (1.0 + k),
                    _ => 1.0 / k,
                };
                (scale * cy * libm::sin(lambda), scale * libm::sin(phi))
            }
        }
    }
}

/// A fitted projection: raw, then `x = tx + k·x_raw`, `y = ty − k·y_raw`.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    raw: Raw,
    k: f64,
    tx: f64,
    ty: f64,
}

/// Mercator's clip latitude (`atan(sinh(π))`), where d3's square clip extent cuts the globe.
const MERCATOR_LAT: f64 = 85.051_128_779_806_59;

/// The outline of the whole globe as a longitude/latitude frame (what a `Sphere` outline
/// becomes here).
pub fn sphere_frame() -> Vec<Vec<(f64, f64)>> {
    let mut ring = Vec::new();
    for i in 0..=36 {
        ring.push((-180.0 + 10.0 * f64::from(i), MERCATOR_LAT));
    }
    for i in 0..=36 {
        ring.push((180.0 - 10.0 * f64::from(i), -MERCATOR_LAT));
    }
    vec![ring]
}

/// d3-geo's `maxDepth` of adaptive resampling.
const MAX_DEPTH: u32 = 16;
/// d3-geo's `precision` default: δ² = 0.5 (px²).
const DELTA2: f64 = 0.5;
/// d3-geo's `epsilon`.
const EPSILON: f64 = 1e-6;
/// Projected positions one render may produce by resampling (each input position may
/// become up to 2^16): past it, segments stay straight.
const MAX_RESAMPLED: usize = 4_000_000;

/// A resampling end point: pixel position, λ and the unit vector of the point.
#[derive(Debug, Clone, Copy)]
struct Sample {
    x: f64,
    y: f64,
    lambda: f64,
    a: f64,
    b: f64,
    c: f64,
}

impl Projection {
    fn at(raw: Raw, k: f64, tx: f64, ty: f64) -> Self {
        Projection { raw, k, tx, ty }
    }

    /// `projectTransform`: radians to pixels.
    fn transform(&self, lambda: f64, phi: f64) -> (f64, f64) {
        let (x, y) = self.raw.project(lambda, phi);
        (self.tx + self.k * x, self.ty - self.k * y)
    }

    fn sample(&self, lambda: f64, phi: f64) -> Sample {
        let (x, y) = self.transform(lambda, phi);
        let cp = libm::cos(phi);
        Sample {
            x,
            y,
            lambda,
            a: cp * libm::cos(lambda),
            b: cp * libm::sin(lambda),
            c: libm::sin(phi),
        }
    }

    /// `resampleLineTo` from `s0` to `s1` (exclusive of both), pushing the inserted points in
    /// order: the great-circle midpoint is inserted while the projected segment is not flat
    /// to within δ, up to 16 levels. An explicit stack replaces d3's recursion.
    fn resample_line(&self, s0: Sample, s1: Sample, out: &mut Vec<(f64, f64)>, budget: &mut usize) {
        enum Task {
            Segment(Sample, Sample, u32),
            Emit(f64, f64),
        }
        let mut stack = vec![Task::Segment(s0, s1, MAX_DEPTH)];
        while let Some(task) = stack.pop() {
            let (p0, p1, depth) = match task {
                Task::Emit(x, y) => {
                    out.push((x, y));
                    continue;
                }
                Task::Segment(p0, p1, depth) => (p0, p1, depth),
            };
            let dx = p1.x - p0.x;
            let dy = p1.y - p0.y;
            let d2 = dx * dx + dy * dy;
            if !(d2 > 4.0 * DELTA2 && depth > 0) || *budget == 0 {
                continue;
            }
            let depth = depth - 1;
            let (a, b, c) = (p0.a + p1.a, p0.b + p1.b, p0.c + p1.c);
            let m = libm::sqrt(a * a + b * b + c * c);
            let c = c / m;
            let phi2 = asin(c);
            let lambda2 =
                if ((c.abs() - 1.0).abs() < EPSILON) || (p0.lambda - p1.lambda).abs() < EPSILON {
                    (p0.lambda + p1.lambda) / 2.0
                } else {
                    libm::atan2(b, a)
                };
            let (x2, y2) = self.transform(lambda2, phi2);
            let dx2 = x2 - p0.x;
            let dy2 = y2 - p0.y;
            let dz = dy * dx2 - dx * dy2;
            if dz * dz / d2 > DELTA2
                || ((dx * dx2 + dy * dy2) / d2 - 0.5).abs() > 0.3
                || p0.a * p1.a + p0.b * p1.b + p0.c * p1.c < COS_MIN_DISTANCE
            {
                *budget -= 1;
                let mid = Sample {
                    x: x2,
                    y: y2,
                    lambda: lambda2,
                    a: a / m,
                    b: b / m,
                    c,
                };
                stack.push(Task::Segment(mid, p1, depth));
                stack.push(Task::Emit(x2, y2));
                stack.push(Task::Segment(p0, mid, depth));
            }
        }
    }

    /// One polygon ring through d3's projection stream: the closing position dropped
    /// (`streamLine(ring, stream, 1)`), each segment resampled, the ring closed back to its
    /// first position. Positions in degrees; the answer in pixels.
    pub fn ring(&self, ring: &[(f64, f64)], budget: &mut usize) -> Vec<(f64, f64)> {
        let mut out = Vec::with_capacity(ring.len());
        let n = ring.len().saturating_sub(1);
        let mut first: Option<Sample> = None;
        let mut prev: Option<Sample> = None;
        for &(lon, lat) in &ring[..n] {
            let s = self.sample(lon.to_radians(), lat.to_radians());
            if let Some(p) = prev {
                self.resample_line(p, s, &mut out, budget);
            }
            out.push((s.x, s.y));
            first.get_or_insert(s);
            prev = Some(s);
        }
        if let (Some(p), Some(f)) = (prev, first) {
            self.resample_line(p, f, &mut out, budget);
        }
        out
    }

    /// `geoPath(projection).bounds` of rings: (x0, y0, x1, y1) of the finite positions.
    fn bounds(&self, rings: &[&[(f64, f64)]]) -> Option<(f64, f64, f64, f64)> {
        let mut budget = MAX_RESAMPLED;
        let (mut x0, mut y0, mut x1, mut y1) = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for r in rings {
            for (x, y) in self.ring(r, &mut budget) {
                if x.is_finite() && y.is_finite() {
                    x0 = x0.min(x);
                    x1 = x1.max(x);
                    y0 = y0.min(y);
                    y1 = y1.max(y);
                }
            }
        }
        (x1 >= x0 && y1 >= y0).then_some((x0, y0, x1, y1))
    }

    /// `computeBounds(outline)` then `updateBounds()` into `area`; `None` when the outline
    /// projects to nothing finite.
    pub fn fitted(
        o: &GeoOptions,
        outline: &[&[(f64, f64)]],
        area: crate::elements::Area,
    ) -> Option<Self> {
        let raw = Raw::by_name(&o.projection);
        // fitWidth(1000, outline): bounds at scale 150 and translate 0.
        let (bx0, by0, bx1, _) = Projection::at(raw, 150.0, 0.0, 0.0).bounds(outline)?;
        let kf = 1000.0 / (bx1 - bx0);
        let ref_scale = 150.0 * kf;
        let ref_x = (1000.0 - kf * (bx1 + bx0)) / 2.0;
        let ref_y = -kf * by0;
        // geoPath(projection).bounds(outline), rounded up.
        let (x0, y0, x1, y1) = Projection::at(raw, ref_scale, ref_x, ref_y).bounds(outline)?;
        let width = (x1 - x0).ceil();
        let height = (y1 - y0).ceil();
        let [pt, pr, pb, pl] = o.padding.to_array();
        let chart_w = area.right - area.left - pl - pr;
        let chart_h = area.bottom - area.top - pt - pb;
        let scale = (chart_w / width).min(chart_h / height);
        let x = (chart_w - width * scale) * 0.5 + area.left + pl;
        let y = (chart_h - height * scale) * 0.5 + area.top + pt;
        let p = Projection::at(
            raw,
            ref_scale * scale * o.projection_scale,
            scale * ref_x + x + o.projection_offset.0,
            scale * ref_y + y + o.projection_offset.1,
        );
        (p.k.is_finite() && p.tx.is_finite() && p.ty.is_finite() && p.k.abs() < 1e9).then_some(p)
    }

    /// A longitude/latitude in degrees to pixels (a point, not resampled); `None` when not
    /// finite or absurdly far.
    pub fn project(&self, lon: f64, lat: f64) -> Option<(f64, f64)> {
        let (px, py) = self.transform(lon.to_radians(), lat.to_radians());
        (px.is_finite() && py.is_finite() && px.abs() < 1e7 && py.abs() < 1e7).then_some((px, py))
    }

    /// The resampling budget of one render.
    pub fn resample_budget() -> usize {
        MAX_RESAMPLED
    }
}

/// d3-geo's `cosMinDistance`: cos 30°.
const COS_MIN_DISTANCE: f64 = 0.866_025_403_784_438_7;

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_4;

    #[test]
    fn mercator_and_equal_earth_follow_d3() {
        // geoMercatorRaw(0, π/4) = [0, ln(tan(3π/8))].
        let (x, y) = Raw::Mercator.project(0.0, FRAC_PI_4);
        assert_eq!(x, 0.0);
        assert!((y - 0.881_373_587_019_543).abs() < 1e-12);
        // The equal-earth equator at λ = π: x = π / (M·A1).
        let (x, y) = Raw::EqualEarth.project(PI, 0.0);
        assert!((x - PI / (libm::sqrt(3.0) / 2.0 * 1.340264)).abs() < 1e-12);
        assert_eq!(y, 0.0);
    }
}
