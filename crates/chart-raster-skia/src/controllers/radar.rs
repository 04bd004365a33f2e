//! The radar controller (controller.radar.js): a closed line through one point per label,
//! placed on the radial scale's spokes.

use super::{parse_radial, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::geometry::ElementGeometry;
use crate::elements::line::{LineEl, LinePoint};
use crate::elements::point::draw_point_element;
use crate::elements::{Area, Ctx};
use crate::scales::Scale;
use chart_spec::model::{Dataset, Elements, Raw};

/// Radar datasets.
#[derive(Default)]
pub struct RadarController {
    line: Option<LineEl>,
    points: Vec<(f64, f64, bool)>,
}

impl Controller for RadarController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], _labels: &[Raw]) {
        parse_radial(ds, meta, scales);
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.points.clear();
        self.line = None;
        let Some(g) = cx.scale(meta.y_id.as_deref()).and_then(|s| s.kind.radial()) else {
            return;
        };
        let mut lps = Vec::with_capacity(meta.parsed.len());
        for (i, p) in meta.parsed.iter().enumerate() {
            // getPointPositionForValue: null gives a NaN distance, hence a skipped point.
            let d = p.y.map_or(f64::NAN, |v| g.distance_for_value(v));
            let (x, y, _) = g.point_position(i, d, 0.0);
            let skip = x.is_nan() || y.is_nan();
            self.points.push((x, y, skip));
            lps.push(LinePoint {
                x,
                y,
                skip,
                ..LinePoint::default()
            });
        }
        if let Some(lo) = ds.kind.line() {
            let mut lo = lo.clone();
            if !ds.show_line {
                lo.border_width = 0.0;
            }
            let n = lps.len();
            let mut line = LineEl::new(lps, lo);
            line.loop_ = true;
            line.full_loop = g.label_count == n;
            self.line = Some(line);
        }
    }

    fn draw(&mut self, ctx: &mut Ctx<'_>, ds: &Dataset, meta: &Meta, area: &Area) {
        if let Some(line) = self.line.as_mut() {
            line.update_control_points(area, meta.index_axis);
            line.draw(ctx);
        }
        let Elements::Point(opts) = &ds.elements else {
            return;
        };
        for (i, (x, y, skip)) in self.points.iter().enumerate() {
            if *skip {
                continue;
            }
            draw_point_element(ctx, opts.at(i), *x, *y, area);
        }
    }

    fn element_geometry(&self, ds: &Dataset, _meta: &Meta) -> Vec<Option<ElementGeometry>> {
        let Elements::Point(opts) = &ds.elements else {
            return Vec::new();
        };
        (self.points.iter().enumerate())
            .map(|(i, &(x, y, skip))| {
                if skip {
                    return None;
                }
                let o = opts.at(i);
                Some(ElementGeometry::Point {
                    x,
                    y,
                    radius: o.radius,
                })
            })
            .collect()
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, false, use_point_style)
    }

    fn line(&mut self) -> Option<&mut LineEl> {
        self.line.as_mut()
    }
}
