//! Drawing a matrix chart: each laid-out rectangle (`MatrixElement.draw`), from the laid-out
//! [`MatrixElements`].

use super::{MatrixEl, CANCEL_EVERY};
use crate::elements::bounds::finite_in;
use crate::elements::dataset::PluginElements;
use crate::elements::geometry::ElementGeometry;
use crate::elements::{rect_path, Area, Ctx, P};
use chart_spec::Cancel;

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
pub(super) struct MatrixElements {
    pub(super) rects: Vec<MatrixEl>,
    /// The render's stop signal.
    pub(super) cancel: Cancel,
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
