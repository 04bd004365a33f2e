//! The polar area controller (controller.polarArea.js): one arc per data index, equal angles
//! (or the `angle` option), radius from the radial scale.

use super::arc_layout::{layout_polar, PolarInput};
use super::{arc_options, parse_radial, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::arc::ArcGeometry;
use crate::elements::dataset::{ArcEl, DatasetElements};
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

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        let arcs = std::mem::take(&mut self.arcs);
        DatasetElements::Arcs(
            (arcs.into_iter().enumerate())
                .map(|(i, geometry)| ArcEl {
                    // The layout skipped the arc (`NaN` radius): nothing is drawn.
                    options: arc_options(ds, i).filter(|_| !geometry.outer_radius.is_nan()),
                    geometry,
                })
                .collect(),
        )
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::of_arc(ds, 0)
    }
}
