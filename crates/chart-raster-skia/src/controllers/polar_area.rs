//! The polar area controller (controller.polarArea.js): one arc per data index, equal angles
//! (or the `angle` option), radius from the radial scale.

use super::arc_layout::{layout_polar, PolarInput};
use super::doughnut::{arc_element_options, arc_geometry_of, arc_legend_style, arc_opts};
use super::{parse_on, Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::arc::{draw_arc, ArcGeometry};
use crate::elements::geometry::ElementGeometry;
use crate::elements::{Area, Ctx};
use crate::scales::Scale;
use chart_spec::model::{Axis, Dataset, Datum, Raw};

/// The id of the chart's first radial scale (`r` by default).
pub fn radial_scale_id(scales: &[Scale]) -> Option<String> {
    scales
        .iter()
        .find(|s| s.core.axis() == Axis::R)
        .map(|s| s.core.id().to_string())
}

/// Parses radial data (`_parseObjectDataRadialScale`: primitives, or the `r` key of objects)
/// into `parsed.y`, bound to the radial scale as `y_id` so the scale finds its values.
pub fn parse_radial(ds: &Dataset, meta: &mut Meta, scales: &mut [Scale]) {
    let rid = radial_scale_id(scales);
    meta.y_id = rid.clone();
    meta.parsed = ds
        .data
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let raw = match d {
                Datum::Primitive(r) => r.clone(),
                Datum::Object { r, .. } => r.clone(),
                Datum::Array(_) => Raw::Object,
            };
            Parsed {
                y: parse_on(scales, rid.as_deref(), &raw, Some(i)),
                ..Parsed::default()
            }
        })
        .collect();
}

/// Polar area datasets.
#[derive(Debug, Default)]
pub struct PolarAreaController {
    arcs: Vec<ArcGeometry>,
}

impl Controller for PolarAreaController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], _labels: &[Raw]) {
        parse_radial(ds, meta, scales);
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        let Some(g) = cx.scale(meta.y_id.as_deref()).and_then(|s| s.kind.radial()) else {
            self.arcs.clear();
            return;
        };
        let input = PolarInput {
            values: meta.parsed.iter().map(|p| p.y).collect(),
            angles: (0..meta.parsed.len())
                .map(|i| arc_opts(ds, i).and_then(|o| o.angle))
                .collect(),
        };
        self.arcs = layout_polar(
            &input,
            &[],
            (g.x_center, g.y_center),
            g.index_angle(0),
            |v| g.distance_for_value(v),
        );
    }

    fn draw(&mut self, ctx: &mut Ctx<'_>, ds: &Dataset, _meta: &Meta, _area: &Area) {
        for (i, g) in self.arcs.iter().enumerate() {
            if g.outer_radius.is_nan() {
                continue;
            }
            if let Some(o) = arc_opts(ds, i) {
                draw_arc(ctx, g, &arc_element_options(o));
            }
        }
    }

    fn element_geometry(&self, _ds: &Dataset, _meta: &Meta) -> Vec<Option<ElementGeometry>> {
        arc_geometry_of(&self.arcs)
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        arc_legend_style(ds, 0)
    }
}
