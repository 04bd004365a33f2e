//! The polar area controller (controller.polarArea.js): one arc per data index, equal angles
//! (or the `angle` option), radius from the radial scale.

use super::arc_layout::{layout_polar, PolarInput};
use super::{arc_options, parse_radial, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::arc::{draw_arc, ArcGeometry};
use crate::elements::geometry::ElementGeometry;
use crate::elements::{Area, Ctx};
use crate::scales::Scale;
use chart_spec::model::{Dataset, Raw};

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
                .map(|i| arc_options(ds, i).and_then(|o| o.angle))
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
            if let Some(o) = arc_options(ds, i) {
                draw_arc(ctx, g, o);
            }
        }
    }

    fn element_geometry(&self, _ds: &Dataset, _meta: &Meta) -> Vec<Option<ElementGeometry>> {
        self.arcs
            .iter()
            .map(ArcGeometry::element_geometry)
            .collect()
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::of_arc(ds, 0)
    }
}
