//! Matrix controller of chartjs-chart-matrix 3.1.0: one rectangle per data point, centred (or
//! anchored) on the point's pixel, `width` × `height` CSS px.
//!
//! Sizes, borders and radii come from user options: they are clamped to finite pixel lengths
//! before they become geometry.

use super::{parse_default, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::bounds::{finite_in, MAX_PX};
use crate::elements::dataset::{DatasetElements, PluginElements};
use crate::elements::geometry::ElementGeometry;
use crate::elements::{Area, Ctx, P};
use crate::scales::Scale;
use chart_spec::model::{Dataset, Raw};
use chart_spec::model::{DatasetKind, MatrixRect};
use chart_spec::Cancel;

/// How often the loops over data poll the render's [`Cancel`].
const CANCEL_EVERY: usize = 256;

/// A laid-out rectangle: left, top, width, height and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixEl {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Options.
    pub options: MatrixRect,
}

/// `MatrixController`.
#[derive(Default)]
pub struct MatrixController {
    /// The elements after `update`.
    pub rects: Vec<MatrixEl>,
    /// The render's stop signal, kept from `update` for `draw`.
    cancel: Cancel,
}

fn options(ds: &Dataset) -> &[MatrixRect] {
    match &ds.kind {
        DatasetKind::Matrix(m, _) => &m.rects,
        _ => &[],
    }
}

/// `resolveX` of the plugin.
fn resolve_x(anchor: &str, x: f64, width: f64) -> f64 {
    match anchor {
        "left" | "start" => x,
        "right" | "end" => x - width,
        _ => x - width / 2.0,
    }
}

/// `resolveY` of the plugin.
fn resolve_y(anchor: &str, y: f64, height: f64) -> f64 {
    match anchor {
        "top" | "start" => y,
        "bottom" | "end" => y - height,
        _ => y - height / 2.0,
    }
}

/// Appends `addRoundedRectPath` of helpers.canvas, or a plain rectangle without radius;
/// `reverse` walks it the other way round, so that inside another rectangle it makes an
/// even-odd hole under the non-zero rule.
pub fn rect_path(p: &mut P, x: f64, y: f64, w: f64, h: f64, r: [f64; 4], reverse: bool) {
    use std::f64::consts::{FRAC_PI_2, PI};
    let [tl, tr, bl, br] = r;
    if !reverse {
        if r.iter().all(|v| *v == 0.0) {
            p.rect(x, y, w, h);
            return;
        }
        crate::elements::bar::add_rounded_rect_path(p, x, y, w, h, tl, tr, bl, br);
        p.close();
        return;
    }
    if r.iter().all(|v| *v == 0.0) {
        // `rect()` runs clockwise on screen; the hole runs counter-clockwise.
        p.move_to(x, y);
        p.line_to(x, y + h);
        p.line_to(x + w, y + h);
        p.line_to(x + w, y);
        p.close();
        return;
    }
    // `addRoundedRectPath` runs counter-clockwise on screen; the hole runs clockwise: top
    // edge left to right, then down the right side.
    p.move_to(x + tl, y);
    p.line_to(x + w - tr, y);
    if tr > 0.0 {
        p.arc(x + w - tr, y + tr, tr, -FRAC_PI_2, 0.0, false);
    }
    p.line_to(x + w, y + h - br);
    if br > 0.0 {
        p.arc(x + w - br, y + h - br, br, 0.0, FRAC_PI_2, false);
    }
    p.line_to(x + bl, y + h);
    if bl > 0.0 {
        p.arc(x + bl, y + h - bl, bl, FRAC_PI_2, PI, false);
    }
    p.line_to(x, y + tl);
    if tl > 0.0 {
        p.arc(x + tl, y + tl, tl, PI, 1.5 * PI, false);
    }
    p.close();
}

/// `MatrixElement.draw`: the border is the outer rectangle minus the inner one (even-odd),
/// then the inner rectangle is filled with the background.
fn draw_rect(ctx: &mut Ctx<'_>, el: &MatrixEl) {
    let o = &el.options;
    let (w, h) = (el.width, el.height);
    let lim = |v: f64, max: f64| finite_in(v, 0.0, max.max(0.0), 0.0);
    let [t, r, b, l] = o.border_width.to_array();
    let (t, r, b, l) = (
        lim(t, h / 2.0),
        lim(r, w / 2.0),
        lim(b, h / 2.0),
        lim(l, w / 2.0),
    );
    let (ix, iy, iw, ih) = (el.x + l, el.y + t, w - l - r, h - t - b);
    // Radii past half the rectangle are what the plugin would draw as a pill; beyond that
    // they only make arcs that leave the canvas.
    let half = (w.abs() / 2.0).min(h.abs() / 2.0);
    let radius = o.border_radius.to_array().map(|r| lim(r, half));
    if iw != w || ih != h {
        let mut outer = P::new();
        rect_path(&mut outer, el.x, el.y, w, h, radius, false);
        // The plugin fills the outer+inner path with the background (non-zero: the outer
        // shape) and then even-odd with the border colour.
        ctx.fill(&outer, o.background_color);
        rect_path(&mut outer, ix, iy, iw, ih, radius, true);
        ctx.fill(&outer, o.border_color);
    } else {
        let mut p = P::new();
        rect_path(&mut p, ix, iy, iw, ih, radius, false);
        ctx.fill(&p, o.background_color);
    }
}

/// What a matrix dataset draws: its laid-out rectangles.
struct MatrixElements {
    rects: Vec<MatrixEl>,
    /// The render's stop signal.
    cancel: Cancel,
}

impl PluginElements for MatrixElements {
    fn draw(&self, ctx: &mut Ctx<'_>, _area: &Area) {
        for (i, el) in self.rects.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && self.cancel.is_cancelled() {
                return;
            }
            if el.x.is_finite() && el.y.is_finite() {
                draw_rect(ctx, el);
            }
        }
    }

    fn geometry(&self) -> Vec<Option<ElementGeometry>> {
        (self.rects.iter())
            .map(|r| {
                (r.x.is_finite() && r.y.is_finite()).then_some(ElementGeometry::Rect {
                    x: r.x,
                    y: r.y,
                    width: r.width,
                    height: r.height,
                })
            })
            .collect()
    }
}

impl Controller for MatrixController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
        parse_default(ds, meta, scales, chart_labels);
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.rects.clear();
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        self.cancel = cx.cancel.clone();
        let opts = options(ds);
        for (i, p) in meta.parsed.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && cx.cancel.is_cancelled() {
                return;
            }
            let Some(o) = opts.get(i) else { continue };
            let x = p.x.map(|v| xs.pixel_for_value(v)).unwrap_or(f64::NAN);
            let y = p.y.map(|v| ys.pixel_for_value(v)).unwrap_or(f64::NAN);
            let width = finite_in(o.width, -MAX_PX, MAX_PX, 20.0);
            let height = finite_in(o.height, -MAX_PX, MAX_PX, 20.0);
            self.rects.push(MatrixEl {
                x: resolve_x(&o.anchor_x, x, width),
                y: resolve_y(&o.anchor_y, y, height),
                width,
                height,
                options: o.clone(),
            });
        }
    }

    fn elements<'a>(&mut self, _ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        DatasetElements::Plugin(Box::new(MatrixElements {
            rects: std::mem::take(&mut self.rects),
            cancel: self.cancel.clone(),
        }))
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::rect_element_box(
            options(ds)
                .first()
                .map(|o| (o.background_color, o.border_color, o.border_width)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_place_the_rectangle() {
        assert_eq!(resolve_x("center", 100.0, 20.0), 90.0);
        assert_eq!(resolve_x("start", 100.0, 20.0), 100.0);
        assert_eq!(resolve_x("right", 100.0, 20.0), 80.0);
        assert_eq!(resolve_y("bottom", 50.0, 10.0), 40.0);
        assert_eq!(resolve_y("top", 50.0, 10.0), 50.0);
    }
}
