//! Scene items as tiny-skia types: transforms, colours, paths, paints and stroke styles, and
//! the device-space geometry the painter decides by (bounds, axis-aligned rectangles,
//! hairlines).

use crate::scene::{LineCap, LineJoin, Paint, Path, PathCmd, Stroke, Transform};
use chart_spec::Rgba;

pub(super) fn ts(t: Transform) -> tiny_skia::Transform {
    tiny_skia::Transform::from_row(t.a, t.b, t.c, t.d, t.e, t.f)
}

pub(super) fn color(c: Rgba) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)
}

pub(super) fn build_path(path: &Path) -> Option<tiny_skia::Path> {
    let pb = tiny_skia::PathBuilder::with_capacity(path.cmds.len(), path.cmds.len() * 2);
    build_path_in(pb, path)
}

/// [`build_path`] in the vectors of an empty builder `pb` (kept from an earlier path).
pub(super) fn build_path_in(pb: tiny_skia::PathBuilder, path: &Path) -> Option<tiny_skia::Path> {
    build_with(pb, path, |x, y| (x, y))
}

/// [`build_path_in`] with every point mapped by `map`: the same path as building it and
/// then mapping it with `Path::transform`, bounds included, for one pass over the points
/// (a scatter chart's markers are filled in device space this way).
pub(super) fn build_mapped_path_in(
    pb: tiny_skia::PathBuilder,
    path: &Path,
    map: Unskewed,
) -> Option<tiny_skia::Path> {
    build_with(pb, path, |x, y| map.apply(x, y))
}

/// A map without skew, applied to a point as tiny-skia's `Transform::map_point` applies it
/// (nothing for the identity, else `x·sx + tx` and `y·sy + ty`; its translation-only case
/// computes the same numbers), the case picked once for a whole path.
#[derive(Clone, Copy)]
pub(super) struct Unskewed {
    sx: f32,
    sy: f32,
    tx: f32,
    ty: f32,
    identity: bool,
}

impl Default for Unskewed {
    fn default() -> Self {
        Unskewed {
            sx: 1.0,
            sy: 1.0,
            tx: 0.0,
            ty: 0.0,
            identity: true,
        }
    }
}

impl Unskewed {
    /// `t` when it has no skew (tiny-skia's `has_skew` is false).
    pub(super) fn of(t: tiny_skia::Transform) -> Option<Unskewed> {
        (t.kx == 0.0 && t.ky == 0.0).then_some(Unskewed {
            sx: t.sx,
            sy: t.sy,
            tx: t.tx,
            ty: t.ty,
            identity: t.is_identity(),
        })
    }

    /// The point mapped.
    #[inline(always)]
    pub(super) fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        if self.identity {
            (x, y)
        } else {
            (x * self.sx + self.tx, y * self.sy + self.ty)
        }
    }
}

fn build_with(
    mut pb: tiny_skia::PathBuilder,
    path: &Path,
    f: impl Fn(f32, f32) -> (f32, f32),
) -> Option<tiny_skia::Path> {
    for cmd in &path.cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) => {
                let (x, y) = f(x, y);
                pb.move_to(x, y);
            }
            PathCmd::LineTo(x, y) => {
                let (x, y) = f(x, y);
                pb.line_to(x, y);
            }
            PathCmd::QuadTo(x1, y1, x, y) => {
                let ((x1, y1), (x, y)) = (f(x1, y1), f(x, y));
                pb.quad_to(x1, y1, x, y);
            }
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                let ((x1, y1), (x2, y2), (x, y)) = (f(x1, y1), f(x2, y2), f(x, y));
                pb.cubic_to(x1, y1, x2, y2, x, y);
            }
            PathCmd::Close => pb.close(),
        }
    }
    pb.finish()
}

pub(super) fn stops(stops: &[(f32, Rgba)]) -> Vec<tiny_skia::GradientStop> {
    stops
        .iter()
        .map(|&(p, c)| tiny_skia::GradientStop::new(p.clamp(0.0, 1.0), color(c)))
        .collect()
}

/// The shader of a gradient with stops `s`, made by `make` from the tiny-skia stops: `None`
/// without stops, the colour of a single stop, and for a degenerate gradient (`make` gives
/// `None`) the last stop's colour, as canvas does.
pub(super) fn gradient_shader(
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
pub(super) fn paint(p: &Paint) -> Option<tiny_skia::Paint<'static>> {
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

pub(super) fn stroke_style(s: &Stroke) -> tiny_skia::Stroke {
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
pub(super) fn device_paint(p: &Paint, t: Transform) -> Paint {
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
pub(super) fn device_bounds(p: &tiny_skia::Path, t: Transform, pad: f32) -> Option<[f32; 4]> {
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
pub(super) fn device_rect(path: &Path, t: Transform) -> Option<[f32; 4]> {
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
pub(super) fn stroked_segment_rect(path: &Path, stroke: &Stroke, t: Transform) -> Option<[f32; 4]> {
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
pub(super) fn is_hairline(width: f32, t: Transform) -> bool {
    let fast_len = |x: f32, y: f32| {
        let (x, y) = (x.abs(), y.abs());
        x.max(y) + x.min(y) * 0.5
    };
    width == 0.0
        || (fast_len(t.a * width, t.b * width) <= 1.0 && fast_len(t.c * width, t.d * width) <= 1.0)
}

/// A paint whose shader is mapped by `t`, for drawing in device space with the identity
/// transform (what `fill_path` does itself when given `t`).
pub(super) fn device_space(
    mut sp: tiny_skia::Paint<'static>,
    t: Transform,
) -> tiny_skia::Paint<'static> {
    sp.shader.transform(ts(t));
    sp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::painter::tests::xorshift;

    /// A path built mapped has the same verbs, point bits and bounds as the path built and
    /// then transformed, under identity, translations, scales (negative and zero ones too).
    #[test]
    fn building_mapped_is_building_then_transforming() {
        let mut next = xorshift(0xbb67_ae85_84ca_a73b);
        let mut coord = move || next(200_001) as f32 / 100.0 - 1000.0;
        for case in 0..2_000 {
            let mut path = Path::new();
            path.move_to(coord(), coord())
                .line_to(coord(), -0.0)
                .quad_to(coord(), coord(), 0.0, coord())
                .cubic_to(coord(), coord(), coord(), coord(), coord(), coord())
                .close()
                .circle(coord(), coord(), coord().abs());
            let t = match case % 6 {
                0 => tiny_skia::Transform::identity(),
                1 => tiny_skia::Transform::from_translate(coord(), coord()),
                2 => tiny_skia::Transform::from_scale(2.0, 2.0),
                3 => tiny_skia::Transform::from_row(coord(), 0.0, -0.0, coord(), coord(), coord()),
                4 => tiny_skia::Transform::from_row(-1.0, 0.0, 0.0, 0.0, 0.0, coord()),
                _ => tiny_skia::Transform::from_row(1.0, 0.0, 0.0, 1.0, -0.0, 0.0),
            };
            let map = Unskewed::of(t).expect("no skew");
            let expected = build_path(&path).and_then(|p| p.transform(t));
            let actual = build_mapped_path_in(tiny_skia::PathBuilder::new(), &path, map);
            let bits = |p: &tiny_skia::Path| {
                let b = p.bounds();
                let pts: Vec<(u32, u32)> = (p.points().iter())
                    .map(|q| (q.x.to_bits(), q.y.to_bits()))
                    .collect();
                (
                    pts,
                    p.verbs().to_vec(),
                    [b.left(), b.top(), b.right(), b.bottom()].map(f32::to_bits),
                )
            };
            assert_eq!(
                actual.as_ref().map(bits),
                expected.as_ref().map(bits),
                "case {case}"
            );
        }
        let skewed = tiny_skia::Transform::from_row(1.0, 0.5, 0.0, 1.0, 0.0, 0.0);
        assert!(Unskewed::of(skewed).is_none());
    }
}
