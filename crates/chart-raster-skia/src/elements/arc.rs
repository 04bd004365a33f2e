//! The arc element of pie, doughnut and polar area charts (element.arc.js): its outline with
//! rounded corners, spacing and offset (`pathArc`), its fill repeated for full circles
//! (`drawArc`), its border with `borderAlign: 'inner'` clipping (`clipArc`) and `selfJoin`
//! clipping (`clipSelf`), turned into display-list items.

use super::geometry::ElementGeometry;
use super::{Ctx, StrokeStyle, P};
use crate::scene::{LineJoin, Paint, Path, PathCmd};
use chart_spec::model::{ArcCorners, ArcJoin, ArcOptions, SpacingMode};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// The geometry of one arc, CSS px and radians (0 = 3 o'clock, clockwise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArcGeometry {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// `startAngle`.
    pub start_angle: f64,
    /// `endAngle`.
    pub end_angle: f64,
    /// `circumference` (may exceed 2π: the arc is then filled once per full circle).
    pub circumference: f64,
    /// `innerRadius`.
    pub inner_radius: f64,
    /// `outerRadius`.
    pub outer_radius: f64,
}

/// What `pathArc` reads of an element.
struct PathParams<'a> {
    g: &'a ArcGeometry,
    o: &'a ArcOptions,
    pixel_margin: f64,
}

fn limit(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// `parseBorderRadius` of element.arc: each corner limited by half the thickness and by the
/// angular room at its radius.
fn parse_border_radius(
    o: &ArcCorners,
    inner_radius: f64,
    outer_radius: f64,
    angle_delta: f64,
) -> ArcCorners {
    let half_thickness = (outer_radius - inner_radius) / 2.0;
    let inner_limit = half_thickness.min(angle_delta * inner_radius / 2.0);
    let outer = |val: f64| {
        let arc_limit = (outer_radius - half_thickness.min(val)) * angle_delta / 2.0;
        limit(val, 0.0, half_thickness.min(arc_limit))
    };
    ArcCorners {
        outer_start: outer(o.outer_start),
        outer_end: outer(o.outer_end),
        inner_start: limit(o.inner_start, 0.0, inner_limit),
        inner_end: limit(o.inner_end, 0.0, inner_limit),
    }
}

fn xy(r: f64, theta: f64, x: f64, y: f64) -> (f64, f64) {
    (x + r * libm::cos(theta), y + r * libm::sin(theta))
}

fn arc(p: &mut Path, x: f64, y: f64, r: f64, a0: f64, a1: f64, ccw: bool) {
    p.arc(x as f32, y as f32, r as f32, a0 as f32, a1 as f32, ccw);
}

/// A rounded corner of `pathArc`: when `radius > 0`, the arc of that radius from `a0` to `a1`
/// around the point at `(r, theta)` from the centre; a zero radius draws nothing.
fn corner(p: &mut Path, centre: (f64, f64), at: (f64, f64), radius: f64, a0: f64, a1: f64) {
    if radius > 0.0 {
        let (cx, cy) = xy(at.0, at.1, centre.0, centre.1);
        arc(p, cx, cy, radius, a0, a1, false);
    }
}

/// `pathFullCircle`: a whole ring (or disc) as two separate circles, so a self-joined full
/// circle has no seam.
fn path_full_circle(pp: &PathParams<'_>, offset: f64, spacing: f64) -> Path {
    let g = pp.g;
    let outer = (g.outer_radius + spacing + offset - pp.pixel_margin).max(0.0);
    let inner = if g.inner_radius > 0.0 {
        g.inner_radius + spacing + offset + pp.pixel_margin
    } else {
        0.0
    };
    let mut p = Path::new();
    arc(
        &mut p,
        g.x,
        g.y,
        outer,
        g.start_angle,
        g.start_angle + TAU,
        false,
    );
    if inner > 0.0 {
        p.move_to(
            (g.x + libm::cos(g.start_angle) * inner) as f32,
            (g.y + libm::sin(g.start_angle) * inner) as f32,
        );
        arc(
            &mut p,
            g.x,
            g.y,
            inner,
            g.start_angle + TAU,
            g.start_angle,
            true,
        );
    }
    p.close();
    p
}

/// `pathArc`: the outline of the arc from its start angle to `end`, as one closed subpath.
/// Each side is trimmed by the `spacingMode`: `'proportional'` is Chart.js 4.5.1's `pathArc`
/// (its only rule, so the default: the half gap `spacing` takes `alpha * spacing / (2 (r +
/// spacing))` of the sweep, r the mean radius without spacing); `'angular'` (the same angle
/// at every radius) and `'parallel'` (gaps of constant width) are the rules of the later
/// Chart.js that drew the image fixtures.
fn path_arc(pp: &PathParams<'_>, offset: f64, spacing: f64, end: f64) -> Path {
    let g = pp.g;
    let (x, y, start) = (g.x, g.y, g.start_angle);
    let pixel_margin = pp.pixel_margin;
    let inner_r = g.inner_radius;
    let alpha = end - start;
    if pp.o.circular && pp.o.self_join && alpha.abs() >= TAU - 1e-4 {
        return path_full_circle(pp, offset, spacing);
    }
    let outer_radius = (g.outer_radius + spacing + offset - pixel_margin).max(0.0);
    let mut inner_radius = if inner_r > 0.0 {
        inner_r + spacing + offset + pixel_margin
    } else {
        0.0
    };
    let beta = if outer_radius > 0.0 {
        (alpha * outer_radius - offset / PI).max(0.001) / outer_radius
    } else {
        0.001
    };
    let angle_offset = (alpha - beta) / 2.0;
    let (mut outer_spacing, mut inner_spacing) = (0.0, 0.0);
    if spacing != 0.0 {
        let no_spacing_inner = if inner_r > 0.0 {
            inner_r - spacing
        } else {
            0.0
        };
        let no_spacing_outer = if outer_radius > 0.0 {
            outer_radius - spacing
        } else {
            0.0
        };
        let avg = (no_spacing_inner + no_spacing_outer) / 2.0;
        let proportional = {
            let adjusted = if avg != 0.0 {
                alpha * avg / (avg + spacing)
            } else {
                alpha
            };
            (alpha - adjusted) / 2.0
        };
        let angular = if avg > 0.0 {
            libm::asin((spacing / avg).min(1.0))
        } else {
            0.0
        };
        let max_offset = (beta / 2.0 - 0.001).max(0.0);
        let max_offset_sin = libm::sin(max_offset);
        match pp.o.spacing_mode {
            SpacingMode::Parallel => {
                if inner_radius == 0.0 && max_offset_sin > 0.0 {
                    let min_inner = spacing / max_offset_sin;
                    let max_inner = (outer_radius - 0.001).max(0.0);
                    inner_radius = min_inner.min(max_inner);
                }
                let bound = |r: f64| {
                    if r > 0.0 {
                        r * max_offset_sin
                    } else {
                        f64::INFINITY
                    }
                };
                let par = spacing.min(bound(outer_radius).min(bound(inner_radius)));
                outer_spacing = if outer_radius > 0.0 {
                    libm::asin((par / outer_radius).min(1.0))
                } else {
                    max_offset.min(angular)
                };
                inner_spacing = if inner_radius > 0.0 {
                    libm::asin((par / inner_radius).min(1.0))
                } else {
                    outer_spacing
                };
            }
            SpacingMode::Proportional => {
                outer_spacing = max_offset.min(proportional);
                inner_spacing = outer_spacing;
            }
            SpacingMode::Angular => {
                outer_spacing = max_offset.min(angular);
                inner_spacing = outer_spacing;
            }
        }
    }
    let outer_start_angle = start + angle_offset + outer_spacing;
    let outer_end_angle = end - angle_offset - outer_spacing;
    let inner_start_angle = start + angle_offset + inner_spacing;
    let inner_end_angle = end - angle_offset - inner_spacing;
    let angle_delta =
        (outer_end_angle - outer_start_angle).min(inner_end_angle - inner_start_angle);
    let c = parse_border_radius(&pp.o.border_radius, inner_radius, outer_radius, angle_delta);
    let outer_start_r = outer_radius - c.outer_start;
    let outer_end_r = outer_radius - c.outer_end;
    let outer_start_a = outer_start_angle + c.outer_start / outer_start_r;
    let outer_end_a = outer_end_angle - c.outer_end / outer_end_r;
    let inner_start_r = inner_radius + c.inner_start;
    let inner_end_r = inner_radius + c.inner_end;
    let inner_start_a = inner_start_angle + c.inner_start / inner_start_r;
    let inner_end_a = inner_end_angle - c.inner_end / inner_end_r;

    let mut p = Path::new();
    if pp.o.circular {
        let outer_mid = (outer_start_a + outer_end_a) / 2.0;
        arc(&mut p, x, y, outer_radius, outer_start_a, outer_mid, false);
        arc(&mut p, x, y, outer_radius, outer_mid, outer_end_a, false);
        corner(
            &mut p,
            (x, y),
            (outer_end_r, outer_end_a),
            c.outer_end,
            outer_end_a,
            outer_end_angle + FRAC_PI_2,
        );
        let (p4x, p4y) = xy(inner_end_r, inner_end_angle, x, y);
        p.line_to(p4x as f32, p4y as f32);
        corner(
            &mut p,
            (x, y),
            (inner_end_r, inner_end_a),
            c.inner_end,
            inner_end_angle + FRAC_PI_2,
            inner_end_a + PI,
        );
        // With no inner radius the angles below are NaN (0 / 0) and the canvas ignores the
        // arcs: the outline just passes through the centre (point 4 above is the centre).
        if inner_radius > 0.0 {
            let a_end = inner_end_angle - c.inner_end / inner_radius;
            let a_start = inner_start_angle + c.inner_start / inner_radius;
            let inner_mid = (a_end + a_start) / 2.0;
            arc(&mut p, x, y, inner_radius, a_end, inner_mid, true);
            arc(&mut p, x, y, inner_radius, inner_mid, a_start, true);
        }
        corner(
            &mut p,
            (x, y),
            (inner_start_r, inner_start_a),
            c.inner_start,
            inner_start_a + PI,
            inner_start_angle - FRAC_PI_2,
        );
        let (p8x, p8y) = xy(outer_start_r, outer_start_angle, x, y);
        p.line_to(p8x as f32, p8y as f32);
        corner(
            &mut p,
            (x, y),
            (outer_start_r, outer_start_a),
            c.outer_start,
            outer_start_angle - FRAC_PI_2,
            outer_start_a,
        );
    } else {
        p.move_to(x as f32, y as f32);
        let (sx, sy) = xy(outer_radius, outer_start_a, x, y);
        p.line_to(sx as f32, sy as f32);
        let (ex, ey) = xy(outer_radius, outer_end_a, x, y);
        p.line_to(ex as f32, ey as f32);
    }
    p.close();
    p
}

/// Drops the commands a canvas would ignore: `arc`/`lineTo` calls with non-finite
/// arguments (zero radii give 0/0 angles in `pathArc`, as in Chart.js) are no-ops there.
fn finite_only(p: Path) -> Path {
    let mut out = Path::new();
    for cmd in p.cmds {
        let ok = match cmd {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => x.is_finite() && y.is_finite(),
            PathCmd::QuadTo(a, b, x, y) => [a, b, x, y].iter().all(|v| v.is_finite()),
            PathCmd::CubicTo(a, b, c, d, x, y) => [a, b, c, d, x, y].iter().all(|v| v.is_finite()),
            PathCmd::Close => true,
        };
        if !ok {
            continue;
        }
        match cmd {
            PathCmd::LineTo(x, y) => {
                out.line_to(x, y);
            }
            PathCmd::CubicTo(a, b, c, d, x, y) if out.is_empty() => {
                out.move_to(a, b);
                out.cubic_to(a, b, c, d, x, y);
            }
            PathCmd::Close => {
                out.close();
            }
            other => out.cmds.push(other),
        }
    }
    out
}

/// `_normalizeAngle`: into [0, 2π).
fn normalize_angle(a: f64) -> f64 {
    (a % TAU + TAU) % TAU
}

/// A rectangle far larger than any canvas, wound counter-clockwise. Chart.js clips with the
/// even-odd rule against `ctx.rect(0, 0, width, height)`; the display list clips non-zero, so
/// the hole is made by winding the rectangle against the (clockwise) shape instead.
fn push_outer_rect_ccw(p: &mut Path) {
    let (lo, hi) = (-100_000.0f32, 100_000.0f32);
    p.move_to(lo, lo);
    p.line_to(lo, hi);
    p.line_to(hi, hi);
    p.line_to(hi, lo);
    p.close();
}

/// `clipSelf`: hides the part of a wide arc's border that would overlap itself at the centre.
fn clip_self(g: &ArcGeometry, o: &ArcOptions, end_angle: f64) -> Path {
    let (x, y) = (g.x, g.y);
    let bw = o.border_width;
    let start = g.start_angle;
    let outer_clip = (bw / g.outer_radius).min(normalize_angle(start - end_angle));
    let mut p = Path::new();
    arc(
        &mut p,
        x,
        y,
        g.outer_radius - bw / 2.0,
        start + outer_clip / 2.0,
        end_angle - outer_clip / 2.0,
        false,
    );
    if g.inner_radius > 0.0 {
        let inner_clip = (bw / g.inner_radius).min(normalize_angle(start - end_angle));
        arc(
            &mut p,
            x,
            y,
            g.inner_radius + bw / 2.0,
            end_angle - inner_clip / 2.0,
            start + inner_clip / 2.0,
            true,
        );
    } else {
        let clip_width = (bw / 2.0).min(g.outer_radius * normalize_angle(start - end_angle));
        match join(o) {
            Some(LineJoin::Round) => arc(
                &mut p,
                x,
                y,
                clip_width,
                end_angle - PI / 2.0,
                start + PI / 2.0,
                true,
            ),
            Some(LineJoin::Bevel) => {
                let r = 2.0 * clip_width * clip_width;
                let ex = -r * libm::cos(end_angle + PI / 2.0) + x;
                let ey = -r * libm::sin(end_angle + PI / 2.0) + y;
                let sx = r * libm::cos(start + PI / 2.0) + x;
                let sy = r * libm::sin(start + PI / 2.0) + y;
                p.line_to(ex as f32, ey as f32);
                p.line_to(sx as f32, sy as f32);
            }
            _ => {}
        }
    }
    p.close();
    push_outer_rect_ccw(&mut p);
    p
}

/// `clipArc`: the arc's own shape (slightly enlarged) for inner borders.
fn clip_arc(g: &ArcGeometry, pixel_margin: f64, end_angle: f64) -> Path {
    let (x, y) = (g.x, g.y);
    let mut angle_margin = pixel_margin / g.outer_radius;
    let mut p = Path::new();
    arc(
        &mut p,
        x,
        y,
        g.outer_radius,
        g.start_angle - angle_margin,
        end_angle + angle_margin,
        false,
    );
    if g.inner_radius > pixel_margin {
        angle_margin = pixel_margin / g.inner_radius;
        arc(
            &mut p,
            x,
            y,
            g.inner_radius,
            end_angle + angle_margin,
            g.start_angle - angle_margin,
            true,
        );
    } else {
        arc(
            &mut p,
            x,
            y,
            pixel_margin,
            end_angle + FRAC_PI_2,
            g.start_angle - FRAC_PI_2,
            false,
        );
    }
    p.close();
    p
}

/// `ArcElement.draw`: the arc's fill and border, drawn on `ctx`.
pub fn draw_arc(ctx: &mut Ctx<'_>, g: &ArcGeometry, o: &ArcOptions) {
    let offset = o.offset / 4.0;
    let spacing = o.spacing / 2.0;
    let pixel_margin = if o.border_align_inner { 0.33 } else { 0.0 };
    let circumference = g.circumference;
    // `Math.floor(circumference / TAU)` fills of the same path. Painting one colour over
    // itself with source-over reaches its 8-bit fixed point within 255 fills (each fill moves
    // every channel monotonically, by at least one step until it stops), so more change no
    // pixel: a huge circumference (1e300 radians) costs no more than 256 fills.
    const MAX_FULL_CIRCLES: f64 = 256.0;
    let full_circles = if circumference > TAU {
        (circumference / TAU).floor().min(MAX_FULL_CIRCLES) as usize
    } else {
        0
    };
    if circumference == 0.0 || g.inner_radius < 0.0 || g.outer_radius < 0.0 {
        return;
    }
    // Values no canvas could show (a user's `offset: 1e308`) would only feed the rasteriser
    // coordinates it cannot handle; Chart.js draws nothing visible for them either.
    const LIMIT: f64 = 1e7;
    let sane = |v: f64| v.is_nan() || v.abs() < LIMIT;
    if ![
        g.x,
        g.y,
        g.inner_radius,
        g.outer_radius,
        o.offset,
        o.spacing,
        o.border_width,
    ]
    .into_iter()
    .all(sane)
    {
        return;
    }
    ctx.save();
    let half_angle = (g.start_angle + g.end_angle) / 2.0;
    ctx.translate(
        libm::cos(half_angle) * offset,
        libm::sin(half_angle) * offset,
    );
    let fix = 1.0
        - libm::sin(PI.min(if circumference.is_nan() {
            0.0
        } else {
            circumference
        }));
    let radius_offset = offset * fix;
    let pp = PathParams { g, o, pixel_margin };

    let arc_path = |end: f64| P::from(finite_only(path_arc(&pp, radius_offset, spacing, end)));
    // Both drawArc and drawBorder paint the whole circles first, then the rest of the arc,
    // which ends at `start + circumference % TAU || TAU` when there were whole circles.
    let end_angle = if full_circles > 0 && !circumference.is_nan() {
        g.start_angle + nonzero_rem(circumference)
    } else {
        g.end_angle
    };

    // drawArc
    if full_circles > 0 {
        let path = arc_path(g.end_angle);
        for _ in 0..full_circles {
            ctx.fill_paint(&path, Paint::Solid(o.background_color));
        }
    }
    ctx.fill_paint(&arc_path(end_angle), Paint::Solid(o.background_color));

    // drawBorder
    if o.border_width == 0.0 || o.border_width.is_nan() {
        ctx.restore();
        return;
    }
    let inner = o.border_align_inner;
    let style = StrokeStyle {
        width: if inner {
            o.border_width * 2.0
        } else {
            o.border_width
        },
        color: o.border_color,
        cap: crate::scene::LineCap::Butt,
        join: join(o).unwrap_or(if inner {
            LineJoin::Round
        } else {
            LineJoin::Bevel
        }),
        dash: o.border_dash.clone(),
        dash_offset: o.border_dash_offset,
    };
    if full_circles > 0 {
        let path = arc_path(g.end_angle);
        for _ in 0..full_circles {
            ctx.stroke(&path, &style);
        }
    }
    if inner {
        ctx.clip(P::from(finite_only(clip_arc(g, pixel_margin, end_angle))));
    }
    // A whole ring needs no self clip (its outline is two separate circles).
    let full_circle = (g.end_angle - g.start_angle).abs() >= TAU - 1e-4;
    let skip_self_clip = full_circle && g.inner_radius > 0.0;
    if !skip_self_clip
        && o.self_join
        && end_angle - g.start_angle >= PI
        && o.border_radius.is_zero()
        && join(o) != Some(LineJoin::Miter)
    {
        ctx.clip(P::from(finite_only(clip_self(g, o, end_angle))));
    }
    if full_circles == 0 {
        ctx.stroke(&arc_path(end_angle), &style);
    }
    ctx.restore();
}

/// `circumference % TAU || TAU`.
fn nonzero_rem(c: f64) -> f64 {
    let r = c % TAU;
    if r == 0.0 {
        TAU
    } else {
        r
    }
}

/// `borderJoinStyle` as the scene's join.
fn join(o: &ArcOptions) -> Option<LineJoin> {
    o.border_join.map(|j| match j {
        ArcJoin::Round => LineJoin::Round,
        ArcJoin::Bevel => LineJoin::Bevel,
        ArcJoin::Miter => LineJoin::Miter,
    })
}

impl ArcGeometry {
    /// The element's geometry as plugins and the layout read it: `None` for an arc the layout
    /// skipped (NaN radius).
    pub fn element_geometry(&self) -> Option<ElementGeometry> {
        (!self.outer_radius.is_nan()).then_some(ElementGeometry::Arc {
            x: self.x,
            y: self.y,
            start_angle: self.start_angle,
            end_angle: self.end_angle,
            inner_radius: self.inner_radius,
            outer_radius: self.outer_radius,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Item, PathCmd};
    use crate::text::TextEngine;

    fn geometry(start: f64, end: f64, inner: f64) -> ArcGeometry {
        ArcGeometry {
            x: 100.0,
            y: 100.0,
            start_angle: start,
            end_angle: end,
            circumference: end - start,
            inner_radius: inner,
            outer_radius: 50.0,
        }
    }

    fn draw(g: &ArcGeometry, o: &ArcOptions) -> Vec<Item> {
        let mut items = crate::scene::ItemList::unbounded();
        let text = TextEngine::system();
        let mut ctx = Ctx::new(&mut items, &text);
        draw_arc(&mut ctx, g, o);
        items.into_items()
    }

    #[test]
    fn quarter_doughnut_has_fill_and_border() {
        let items = draw(&geometry(0.0, FRAC_PI_2, 25.0), &ArcOptions::default());
        assert_eq!(items.len(), 2);
        let Item::Fill { path, .. } = &items[0] else {
            panic!("fill first");
        };
        // Starts on the outer circle at angle 0.
        assert_eq!(path.cmds[0], PathCmd::MoveTo(150.0, 100.0));
        assert_eq!(path.cmds.last(), Some(&PathCmd::Close));
    }

    /// The angle of the first point of an arc's fill (its outer start corner).
    fn start_angle_of_fill(o: &ArcOptions, g: &ArcGeometry) -> f64 {
        let items = draw(g, o);
        let Some(Item::Fill { path, .. }) = items.first() else {
            panic!("fill first");
        };
        let PathCmd::MoveTo(x, y) = path.cmds[0] else {
            panic!("starts with a move");
        };
        libm::atan2(f64::from(y) - g.y, f64::from(x) - g.x)
    }

    /// Issue 17: `spacing` trims each arc by Chart.js 4.5.1's `pathArc` rule unless a
    /// `spacingMode` says otherwise: half the spacing on each side, `(alpha - alpha * r / (r +
    /// s)) / 2` of the sweep with `r` the mean radius without spacing. `spacing: 8` on a
    /// 1-radian arc (outer 50, inner 25) trims 0.0506 rad; the angular rule of later
    /// Chart.js, used before, trimmed asin(4 / 35.5) = 0.113 rad, gaps twice as wide.
    #[test]
    fn spacing_trims_by_the_proportional_rule_of_chartjs_4_5_1() {
        let g = geometry(0.0, 1.0, 25.0);
        let o = ArcOptions {
            spacing: 8.0,
            border_width: 0.0,
            ..ArcOptions::default()
        };
        let (s, r) = (4.0, (25.0 - 4.0 + 50.0) / 2.0);
        let expected = (1.0 - r / (r + s)) / 2.0;
        let got = start_angle_of_fill(&o, &g);
        assert!((got - expected).abs() < 1e-5, "{got} vs {expected}");
        let angular = ArcOptions {
            spacing_mode: SpacingMode::Angular,
            ..o
        };
        let got = start_angle_of_fill(&angular, &g);
        assert!((got - libm::asin(s / r)).abs() < 1e-5, "{got}");
    }

    #[test]
    fn inner_border_is_clipped() {
        let o = ArcOptions {
            border_align_inner: true,
            ..ArcOptions::default()
        };
        let items = draw(&geometry(0.0, 1.0, 0.0), &o);
        assert!(matches!(items[1], Item::PushClip { .. }));
        let Item::Stroke { stroke, .. } = &items[2] else {
            panic!("stroke after clip");
        };
        assert_eq!(stroke.width, 4.0);
        assert_eq!(stroke.join, LineJoin::Round);
        assert_eq!(items[3], Item::PopClip);
    }

    #[test]
    fn corner_radius_limits() {
        let c = parse_border_radius(&ArcCorners::all(100.0), 20.0, 50.0, 1.0);
        assert_eq!(c.outer_start, 15.0);
        assert_eq!(c.inner_start, 10.0);
    }

    #[test]
    fn absurd_circumferences_fill_a_bounded_number_of_times() {
        let mut g = geometry(0.0, 1.0, 0.0);
        g.circumference = 1e300;
        g.end_angle = 1e300;
        let items = draw(&g, &ArcOptions::default());
        assert!(items.len() <= 2 * 256 + 4, "{}", items.len());
        g.circumference = f64::INFINITY;
        g.end_angle = f64::INFINITY;
        assert!(draw(&g, &ArcOptions::default()).len() <= 2 * 256 + 4);
    }

    #[test]
    fn overfull_circle_fills_twice() {
        let mut g = geometry(0.0, 3.0 * PI, 0.0);
        g.circumference = 3.0 * PI;
        let o = ArcOptions {
            border_width: 0.0,
            ..ArcOptions::default()
        };
        assert_eq!(draw(&g, &o).len(), 2);
    }
}
