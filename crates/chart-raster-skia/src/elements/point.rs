//! Point element: `drawPoint` / `drawPointLegend` of helpers.canvas and `PointElement`.

use super::{Area, Ctx, StrokeStyle, P};
use chart_spec::model::{PointOptions, PointStyle};
use chart_spec::Rgba;
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, PI, TAU};

/// What `drawPointLegend` needs.
#[derive(Debug, Clone)]
pub struct PointDraw {
    /// `pointStyle`.
    pub style: PointStyle,
    /// `radius`.
    pub radius: f64,
    /// `rotation`, degrees.
    pub rotation: f64,
    /// `borderWidth`.
    pub border_width: f64,
    /// Fill colour.
    pub fill: Rgba,
    /// Stroke colour.
    pub stroke: Rgba,
    /// Stroke dash (legend items).
    pub dash: Vec<f64>,
    /// Dash offset.
    pub dash_offset: f64,
    /// Line cap/join (legend items).
    pub cap: crate::scene::LineCap,
    /// Line join.
    pub join: crate::scene::LineJoin,
}

impl PointDraw {
    /// From resolved point options.
    pub fn from_options(o: &PointOptions) -> Self {
        Self {
            style: o.point_style,
            radius: o.radius,
            rotation: o.rotation,
            border_width: o.border_width,
            fill: o.background_color,
            stroke: o.border_color,
            dash: Vec::new(),
            dash_offset: 0.0,
            cap: crate::scene::LineCap::Butt,
            join: crate::scene::LineJoin::Miter,
        }
    }
}

/// Mirrors `drawPointLegend(ctx, options, x, y, w)`; `w` is the legend's `pointStyleWidth`.
pub fn draw_point(ctx: &mut Ctx<'_>, o: &PointDraw, x: f64, y: f64, w: Option<f64>) {
    let radius = o.radius;
    let mut rad = o.rotation * PI / 180.0;
    if radius.is_nan() || radius <= 0.0 {
        return;
    }
    let w = w.filter(|w| *w != 0.0);
    // A circle is its start, four quarters and the close: room for them at once (the path
    // grew by a reallocation at its fifth command, once per point of a scatter chart).
    let mut p = match o.style {
        PointStyle::Circle | PointStyle::Other => P::from(crate::scene::Path {
            cmds: Vec::with_capacity(6),
        }),
        _ => P::new(),
    };
    let sin = libm::sin;
    let cos = libm::cos;
    match o.style {
        PointStyle::Triangle => {
            let width = w.map(|w| w / 2.0).unwrap_or(radius);
            p.move_to(x + sin(rad) * width, y - cos(rad) * radius);
            rad += 2.0 * PI / 3.0;
            p.line_to(x + sin(rad) * width, y - cos(rad) * radius);
            rad += 2.0 * PI / 3.0;
            p.line_to(x + sin(rad) * width, y - cos(rad) * radius);
            p.close();
        }
        PointStyle::RectRounded => {
            let corner = radius * 0.516;
            let size = radius - corner;
            let x_off = cos(rad + FRAC_PI_4) * size;
            let x_off_w = cos(rad + FRAC_PI_4) * w.map(|w| w / 2.0 - corner).unwrap_or(size);
            let y_off = sin(rad + FRAC_PI_4) * size;
            let y_off_w = sin(rad + FRAC_PI_4) * w.map(|w| w / 2.0 - corner).unwrap_or(size);
            p.arc(
                x - x_off_w,
                y - y_off,
                corner,
                rad - PI,
                rad - FRAC_PI_2,
                false,
            );
            p.arc(x + y_off_w, y - x_off, corner, rad - FRAC_PI_2, rad, false);
            p.arc(x + x_off_w, y + y_off, corner, rad, rad + FRAC_PI_2, false);
            p.arc(
                x - y_off_w,
                y + x_off,
                corner,
                rad + FRAC_PI_2,
                rad + PI,
                false,
            );
            p.close();
        }
        PointStyle::Rect if o.rotation == 0.0 => {
            let size = FRAC_1_SQRT_2 * radius;
            let width = w.map(|w| w / 2.0).unwrap_or(size);
            p.rect(x - width, y - size, 2.0 * width, 2.0 * size);
        }
        PointStyle::Rect | PointStyle::RectRot => {
            if o.style == PointStyle::Rect {
                rad += FRAC_PI_4;
            }
            let xw = cos(rad) * w.map(|w| w / 2.0).unwrap_or(radius);
            let xo = cos(rad) * radius;
            let yo = sin(rad) * radius;
            let yw = sin(rad) * w.map(|w| w / 2.0).unwrap_or(radius);
            p.move_to(x - xw, y - yo);
            p.line_to(x + yw, y - xo);
            p.line_to(x + xw, y + yo);
            p.line_to(x - yw, y + xo);
            p.close();
        }
        PointStyle::Cross | PointStyle::CrossRot | PointStyle::Star => {
            if o.style == PointStyle::CrossRot {
                rad += FRAC_PI_4;
            }
            let cross = |p: &mut P, rad: f64| {
                let xw = cos(rad) * w.map(|w| w / 2.0).unwrap_or(radius);
                let xo = cos(rad) * radius;
                let yo = sin(rad) * radius;
                let yw = sin(rad) * w.map(|w| w / 2.0).unwrap_or(radius);
                p.move_to(x - xw, y - yo);
                p.line_to(x + xw, y + yo);
                p.move_to(x + yw, y - xo);
                p.line_to(x - yw, y + xo);
            };
            cross(&mut p, rad);
            if o.style == PointStyle::Star {
                cross(&mut p, rad + FRAC_PI_4);
            }
        }
        PointStyle::Line => {
            let xo = w.map(|w| w / 2.0).unwrap_or(cos(rad) * radius);
            let yo = sin(rad) * radius;
            p.move_to(x - xo, y - yo);
            p.line_to(x + xo, y + yo);
        }
        PointStyle::Dash => {
            p.move_to(x, y);
            p.line_to(
                x + cos(rad) * w.map(|w| w / 2.0).unwrap_or(radius),
                y + sin(rad) * radius,
            );
        }
        PointStyle::None => {
            p.close();
        }
        PointStyle::Circle | PointStyle::Other => {
            match w {
                // ctx.ellipse(x, y, w / 2, radius, 0, 0, TAU) as cubic arcs.
                Some(w) => ellipse(&mut p, x, y, w / 2.0, radius),
                None => p.arc(x, y, radius, 0.0, TAU, false),
            }
            p.close();
        }
    }
    // `ctx.fill()` then, with a border, `ctx.stroke()` of the same path: the last use takes
    // the path, so a scatter point costs one copy of it rather than two.
    if o.border_width > 0.0 {
        ctx.fill(&p, o.fill);
        let mut s = StrokeStyle::new(o.border_width, o.stroke);
        s.dash = o.dash.clone();
        s.dash_offset = o.dash_offset;
        s.cap = o.cap;
        s.join = o.join;
        ctx.stroke_owned(p, &s);
    } else {
        ctx.fill_owned(p, o.fill);
    }
}

fn ellipse(p: &mut P, x: f64, y: f64, rx: f64, ry: f64) {
    let k = 0.552_284_749_830_793_6;
    p.move_to(x + rx, y);
    p.cubic_to(x + rx, y + ry * k, x + rx * k, y + ry, x, y + ry);
    p.cubic_to(x - rx * k, y + ry, x - rx, y + ry * k, x - rx, y);
    p.cubic_to(x - rx, y - ry * k, x - rx * k, y - ry, x, y - ry);
    p.cubic_to(x + rx * k, y - ry, x + rx, y - ry * k, x + rx, y);
}

/// `PointElement.size()`: the diameter including the border.
pub fn point_size(o: &PointOptions) -> f64 {
    // `radius = Math.max(radius, radius && options.hoverRadius || 0)`.
    let mut radius = if o.radius.is_nan() { 0.0 } else { o.radius };
    if radius != 0.0 {
        radius = radius.max(if o.hover_radius.is_nan() {
            0.0
        } else {
            o.hover_radius
        });
    }
    let border = if radius != 0.0 && !o.border_width.is_nan() {
        o.border_width
    } else {
        0.0
    };
    (radius + border) * 2.0
}

/// `_isPointInArea(point, area, margin)` with Chart.js's default 0.5 margin.
pub fn in_area(x: f64, y: f64, area: &Area, margin: f64) -> bool {
    x > area.left - margin
        && x < area.right + margin
        && y > area.top - margin
        && y < area.bottom + margin
}

/// `PointElement.draw(ctx, area)`: skipped points, zero radius and points outside the area
/// (plus a 1px margin) are not drawn.
pub fn draw_point_element(ctx: &mut Ctx<'_>, o: &PointOptions, x: f64, y: f64, area: &Area) {
    if o.radius < 0.1 || !in_area(x, y, area, point_size(o) / 2.0) {
        return;
    }
    draw_point(ctx, &PointDraw::from_options(o), x, y, None);
}
