//! Drawing a choropleth or a bubble map: the outline, then each feature through the fitted
//! projection (`GeoFeature.draw`) or each bubble, from the laid-out [`GeoElements`].

use super::projection::{self, Projection};
use super::CANCEL_EVERY;
use crate::elements::dataset::PluginElements;
use crate::elements::point::draw_point_element;
use crate::elements::{Area, Ctx, StrokeStyle, P};
use chart_spec::model::{Elements, GeoOptions, GeoShape};
use chart_spec::{Cancel, Rgba};

/// What a choropleth or bubble map dataset draws: the fitted projection, each feature's
/// colour or each point's radius, and the dataset's options.
pub(super) struct GeoElements<'a> {
    pub(super) projection: Projection,
    pub(super) colors: Vec<Rgba>,
    pub(super) radii: Vec<f64>,
    /// A choropleth (features) rather than a bubble map (points).
    pub(super) choropleth: bool,
    pub(super) options: &'a GeoOptions,
    /// The point options of a bubble map.
    pub(super) elements: Elements<'a>,
    /// The render's stop signal.
    pub(super) cancel: Cancel,
}

impl GeoElements<'_> {
    /// The canvas path of a shape, through d3's projection stream (resampled rings, closed);
    /// `None` when nothing finite is left.
    fn path(&self, shape: &GeoShape, budget: &mut usize) -> Option<P> {
        let proj = &self.projection;
        let mut p = P::new();
        let mut any = false;
        let frame;
        let polygons: &[Vec<Vec<(f64, f64)>>] = if shape.sphere && shape.polygons.is_empty() {
            frame = vec![projection::sphere_frame()];
            &frame
        } else {
            &shape.polygons
        };
        for ring in polygons.iter().flatten() {
            let mut first = true;
            for (x, y) in proj.ring(ring, budget) {
                if !(x.is_finite() && y.is_finite() && x.abs() < 1e7 && y.abs() < 1e7) {
                    continue;
                }
                if first {
                    p.move_to(x, y);
                    first = false;
                } else {
                    p.line_to(x, y);
                }
                any = true;
            }
            if !first {
                p.close();
            }
        }
        any.then_some(p)
    }
}

impl PluginElements for GeoElements<'_> {
    /// The outline, then the features (choropleth) or the points (bubble map).
    fn draw(&self, ctx: &mut Ctx<'_>, area: &Area) {
        let o = self.options;
        if o.clip_map {
            ctx.clip_area(*area);
        }
        // A canvas ignores a line width of 0 and keeps 1.
        let width = |w: f64| {
            if w > 0.0 && w.is_finite() {
                w.min(1_000.0)
            } else {
                1.0
            }
        };
        let mut budget = Projection::resample_budget();
        if o.show_outline {
            if let Some(p) = self.path(&o.outline, &mut budget) {
                if let Some(bg) = o.outline_background {
                    ctx.fill(&p, bg);
                }
                ctx.stroke(
                    &p,
                    &StrokeStyle::new(width(o.outline_border_width), o.outline_border_color),
                );
            }
        }
        if self.choropleth {
            for (i, f) in o.features.iter().enumerate() {
                if i % CANCEL_EVERY == 0 && self.cancel.is_cancelled() {
                    break;
                }
                let Some(p) = f.as_ref().and_then(|f| self.path(f, &mut budget)) else {
                    continue;
                };
                let fill = self.colors.get(i).copied().unwrap_or(o.missing_color);
                ctx.fill(&p, fill);
                ctx.stroke(&p, &StrokeStyle::new(width(o.border_width), o.border_color));
            }
        } else if let Elements::Point(pts) = self.elements {
            let proj = &self.projection;
            for (i, pt) in o.points.iter().enumerate() {
                if i % CANCEL_EVERY == 0 && self.cancel.is_cancelled() {
                    break;
                }
                let (Some((lon, lat)), Some(po)) = (pt, Some(pts.at(i))) else {
                    continue;
                };
                let Some((x, y)) = proj.project(*lon, *lat) else {
                    continue;
                };
                let mut po = po.clone();
                po.radius = self.radii.get(i).copied().unwrap_or(o.missing_size);
                draw_point_element(ctx, &po, x, y, area);
            }
        }
        if o.clip_map {
            ctx.unclip_area();
        }
    }
}
