//! The canvas shapes annotations are drawn with: boxes with rounded corners, ellipses, arrow
//! heads, and their stroke styles.

use super::geometry::Bounds;
use crate::elements::{Ctx, StrokeStyle, P};
use crate::scene::Shadow;
use chart_spec::model::annotation::{ArrowHead, Shape};
use chart_spec::Rgba;
use std::f64::consts::{FRAC_PI_2, PI};

pub(super) fn stroke_style(s: &Shape) -> StrokeStyle {
    let mut st = StrokeStyle::new(s.border_width, s.border_color);
    st.dash = s.border_dash.clone();
    st.dash_offset = s.border_dash_offset;
    st
}

/// `setShadowStyle` with `color` as `shadowColor` (the shape's `backgroundShadowColor`
/// before a fill, `borderShadowColor` before a stroke).
pub(super) fn set_shadow(ctx: &mut Ctx<'_>, s: &Shape, color: Rgba) {
    let sh = &s.shadow;
    ctx.set_shadow(Shadow {
        color,
        blur: sh.blur as f32,
        offset_x: sh.offset_x as f32,
        offset_y: sh.offset_y as f32,
    });
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
    // `addRoundedRectPath` of Chart.js: counter-clockwise from the top edge's left end,
    // which is where a dash pattern starts.
    let (x, y) = (b.x, b.y);
    p.arc(x + r, y + r, r, 1.5 * PI, PI, true);
    p.line_to(x, y + h - r);
    p.arc(x + r, y + h - r, r, PI, FRAC_PI_2, true);
    p.line_to(x + w - r, y + h);
    p.arc(x + w - r, y + h - r, r, FRAC_PI_2, 0.0, true);
    p.line_to(x + w, y + r);
    p.arc(x + w - r, y + r, r, 0.0, -FRAC_PI_2, true);
    p.line_to(x + r, y);
    p.close();
}

/// `drawBox`: fill, then the border when it has a width, each with its shadow.
pub(super) fn draw_box(ctx: &mut Ctx<'_>, b: &Bounds, shape: &Shape, background: Rgba) {
    let mut p = P::new();
    rounded_rect(&mut p, b, shape.border_radius);
    ctx.save();
    set_shadow(ctx, shape, shape.shadow.background_color);
    ctx.fill(&p, background);
    if shape.border_width > 0.0 {
        set_shadow(ctx, shape, shape.shadow.border_color);
        ctx.stroke(&p, &stroke_style(shape));
    }
    ctx.restore();
}

/// The ellipse annotation's path, 4 cubics of horizontal radius `rx` and vertical `ry`:
/// the plugin draws `ctx.ellipse(cx, cy, ry, rx, PI / 2, 0, 2 * PI)`, so the path starts at
/// the bottom and runs clockwise on screen (left, top, right), which is where a dash
/// pattern starts.
pub(super) fn ellipse(p: &mut P, cx: f64, cy: f64, rx: f64, ry: f64) {
    const K: f64 = 0.552_284_749_830_793_4;
    let (kx, ky) = (rx * K, ry * K);
    p.move_to(cx, cy + ry);
    p.cubic_to(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
    p.cubic_to(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
    p.cubic_to(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
    p.cubic_to(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
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
    // `setShadowStyle(ctx, arrowOpts)`: the head's shadow options (falling back to the
    // line's); a filled head's stroke casts none.
    set_shadow(ctx, &h.shape, h.shape.shadow.background_color);
    if h.fill {
        p.close();
        ctx.fill(&p, h.background_color.unwrap_or(h.shape.border_color));
        set_shadow(ctx, &h.shape, Rgba::TRANSPARENT);
    } else {
        set_shadow(ctx, &h.shape, h.shape.shadow.border_color);
    }
    ctx.stroke(&p, &stroke_style(shape));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::PathCmd;

    /// The plugin's `ellipse(..., PI / 2, 0, 2 * PI)` starts at the bottom and goes left
    /// first: a dash pattern starts there.
    #[test]
    fn the_ellipse_starts_at_the_bottom_going_left() {
        let mut p = P::new();
        ellipse(&mut p, 10.0, 10.0, 4.0, 2.0);
        let path = p.into_path();
        assert_eq!(path.cmds.first(), Some(&PathCmd::MoveTo(10.0, 12.0)));
        assert!(
            matches!(path.cmds.get(1), Some(&PathCmd::CubicTo(.., x, y)) if x == 6.0 && y == 10.0)
        );
    }

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
        // Counter-clockwise like `addRoundedRectPath` (a dash starts there): the first arc
        // turns down the left side.
        assert!(
            matches!(path.cmds.get(1), Some(&PathCmd::CubicTo(.., x, y)) if x.abs() < 1e-5 && (y - 2.0).abs() < 1e-5),
            "{:?}",
            path.cmds.get(1)
        );
    }
}
