//! Drawing a tree, dendrogram or graph: the edges (`EdgeLine.draw`), then the nodes, from the
//! laid-out [`GraphElements`].

use super::CANCEL_EVERY;
use crate::elements::bounds::{bounded_dash, finite_in, MAX_PX};
use crate::elements::dataset::PluginElements;
use crate::elements::point::draw_point_element;
use crate::elements::{Area, Ctx, StrokeStyle, P};
use chart_spec::model::{Elements, GraphOptions};
use chart_spec::Cancel;

/// What a tree, dendrogram or graph dataset draws: its edges between the laid-out nodes,
/// the nodes, and the dataset's options.
pub(super) struct GraphElements<'a> {
    /// (source, target) data indices.
    pub(super) edges: Vec<(usize, usize)>,
    /// Node pixels: (x, y, angle).
    pub(super) points: Vec<Option<(f64, f64, f64)>>,
    pub(super) options: &'a GraphOptions,
    /// The nodes' point options.
    pub(super) elements: Elements<'a>,
    /// The render's stop signal.
    pub(super) cancel: Cancel,
}

impl PluginElements for GraphElements<'_> {
    /// The edges (`EdgeLine.draw`) within the chart area, then the nodes.
    fn draw(&self, ctx: &mut Ctx<'_>, area: &Area) {
        let o = self.options;
        if !self.edges.is_empty() {
            ctx.clip_area(*area);
            for (i, &(s, t)) in self.edges.iter().enumerate() {
                if i.is_multiple_of(CANCEL_EVERY) && self.cancel.is_cancelled() {
                    break;
                }
                let (Some(Some(from)), Some(Some(to))) = (self.points.get(s), self.points.get(t))
                else {
                    continue;
                };
                draw_edge(ctx, o, *from, *to);
            }
            ctx.unclip_area();
        }
        let Elements::Point(pts) = self.elements else {
            return;
        };
        for (i, p) in self.points.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && self.cancel.is_cancelled() {
                return;
            }
            let Some((x, y, _)) = p else {
                continue;
            };
            draw_point_element(ctx, pts.at(i), *x, *y, area);
        }
    }
}

/// `EdgeLine.draw` without intermediate points: a cubic with the orientation's control
/// offsets when `tension`, else a straight line; an arrow head when `directed`.
fn draw_edge(ctx: &mut Ctx<'_>, o: &GraphOptions, from: (f64, f64, f64), to: (f64, f64, f64)) {
    // A tension far from 0..1 only throws the control points off the canvas.
    let t = finite_in(o.tension, -10.0, 10.0, 0.0);
    let (fx, fy, tx, ty) = match o.orientation.as_str() {
        "vertical" => (0.0, (to.1 - from.1) * t, 0.0, (from.1 - to.1) * t),
        "radial" => {
            let h = libm::hypot(to.0 - from.0, to.1 - from.1) * t;
            let (fa, ta) = (from.2, to.2);
            (
                if fa.is_nan() { 0.0 } else { libm::cos(fa) * h },
                if fa.is_nan() { 0.0 } else { libm::sin(fa) * -h },
                if ta.is_nan() { 0.0 } else { libm::cos(ta) * -h },
                if ta.is_nan() { 0.0 } else { libm::sin(ta) * h },
            )
        }
        _ => ((to.0 - from.0) * t, 0.0, (from.0 - to.0) * t, 0.0),
    };
    let mut p = P::new();
    p.move_to(from.0, from.1);
    if t != 0.0 {
        p.cubic_to(from.0 + fx, from.1 + fy, to.0 + tx, to.1 + ty, to.0, to.1);
    } else {
        p.line_to(to.0, to.1);
    }
    let mut style = StrokeStyle::new(finite_in(o.edge_width, 0.0, MAX_PX, 3.0), o.edge_color);
    style.dash = bounded_dash(&o.edge_dash);
    ctx.stroke(&p, &style);
    if o.directed {
        let angle = if t != 0.0 {
            let (cx, cy) = (to.0 + tx, to.1 + ty);
            let f = 0.1;
            libm::atan2(
                to.1 - cy * (1.0 - f) - from.1 * f,
                to.0 - cx * (1.0 - f) - from.0 * f,
            )
        } else {
            libm::atan2(to.1 - from.1, to.0 - from.0)
        };
        let s = finite_in(o.arrow_size, -MAX_PX, MAX_PX, 15.0);
        ctx.save();
        ctx.translate(to.0, to.1);
        ctx.rotate(angle);
        ctx.translate(-finite_in(o.arrow_offset, -MAX_PX, MAX_PX, 5.0), 0.0);
        let mut a = P::new();
        a.move_to(0.0, 0.0);
        a.line_to(-s, -s / 2.0);
        a.line_to(-s * 0.9, 0.0);
        a.line_to(-s, s / 2.0);
        a.close();
        ctx.fill(&a, o.edge_color);
        ctx.restore();
    }
}
