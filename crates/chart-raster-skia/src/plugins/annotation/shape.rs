//! The canvas shapes annotations are drawn with: boxes with rounded corners, ellipses, arrow
//! heads, and their stroke styles.

use super::geometry::Bounds;
use crate::elements::{Ctx, StrokeStyle, P};
use chart_spec::model::annotation::{ArrowHead, Shape};
use chart_spec::Rgba;
use std::f64::consts::{FRAC_PI_2, PI};

pub(super) fn stroke_style(s: &Shape) -> StrokeStyle {
    let mut st = StrokeStyle::new(s.border_width, s.border_color);
    st.dash = s.border_dash.clone();
    st.dash_offset = s.border_dash_offset;
    st
}

/// `translate(ctx, center, rotation)`: rotation about a point.
pub(super) fn rotate_about(ctx: &mut Ctx<'_>, (x, y): (f64, f64), deg: f64) {
    if deg != 0.0 && !deg.is_nan() {
        ctx.translate(x, y);
        ctx.rotate(deg.to_radians());
        ctx.translate(-x, -y);
    }
}

/// A rounded rectangle with one radius, clamped to half the shorter side
/// (`addRoundedRectPath` with `clampAll`).
pub(super) fn rounded_rect(p: &mut P, b: &Bounds, radius: f64) {
    let (w, h) = (b.width(), b.height());
    let r = radius.clamp(0.0, (w.min(h) / 2.0).max(0.0));
    if r <= 0.0 || r.is_nan() {
        p.rect(b.x, b.y, w, h);
        return;
    }
    let (x, y) = (b.x, b.y);
    p.move_to(x + r, y);
    p.line_to(x + w - r, y);
    p.arc(x + w - r, y + r, r, -FRAC_PI_2, 0.0, false);
    p.line_to(x + w, y + h - r);
    p.arc(x + w - r, y + h - r, r, 0.0, FRAC_PI_2, false);
    p.line_to(x + r, y + h);
    p.arc(x + r, y + h - r, r, FRAC_PI_2, PI, false);
    p.line_to(x, y + r);
    p.arc(x + r, y + r, r, PI, PI + FRAC_PI_2, false);
    p.close();
}

/// `drawBox`: fill, then the border when it has a width.
pub(super) fn draw_box(ctx: &mut Ctx<'_>, b: &Bounds, shape: &Shape, background: Rgba) {
    let mut p = P::new();
    rounded_rect(&mut p, b, shape.border_radius);
    ctx.fill(&p, background);
    if shape.border_width > 0.0 {
        ctx.stroke(&p, &stroke_style(shape));
    }
}

/// A 4-cubic ellipse (`ctx.ellipse`) of radii `rx`, `ry`.
pub(super) fn ellipse(p: &mut P, cx: f64, cy: f64, rx: f64, ry: f64) {
    const K: f64 = 0.552_284_749_830_793_4;
    let (kx, ky) = (rx * K, ry * K);
    p.move_to(cx + rx, cy);
    p.cubic_to(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
    p.cubic_to(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
    p.cubic_to(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
    p.cubic_to(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
    p.close();
}

/// `drawArrowHead(ctx, offset, adjust, arrowOpts)` in the line's frame.
pub(super) fn draw_arrow_head(
    ctx: &mut Ctx<'_>,
    offset: f64,
    adjust: f64,
    head: Option<&ArrowHead>,
    line: &Shape,
) {
    let Some(h) = head else { return };
    let x = (offset - h.length).abs() + adjust;
    let mut p = P::new();
    p.move_to(x, -h.width);
    p.line_to(offset + adjust, 0.0);
    p.line_to(x, h.width);
    // `setBorderStyle` leaves the line's stroke when the head has no border width.
    let shape = if h.shape.border_width > 0.0 {
        &h.shape
    } else {
        line
    };
    if h.fill {
        p.close();
        ctx.fill(&p, h.background_color.unwrap_or(h.shape.border_color));
    }
    ctx.stroke(&p, &stroke_style(shape));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::PathCmd;

    #[test]
    fn rounded_rect_clamps_the_radius() {
        let mut p = P::new();
        let b = Bounds {
            x: 0.0,
            y: 0.0,
            x2: 10.0,
            y2: 4.0,
        };
        rounded_rect(&mut p, &b, 100.0);
        let path = p.into_path();
        // Radius 2 (half the height): the first edge starts 2 px in.
        assert_eq!(path.cmds.first(), Some(&PathCmd::MoveTo(2.0, 0.0)));
    }
}
