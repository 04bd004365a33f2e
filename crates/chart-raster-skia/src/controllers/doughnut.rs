//! The doughnut and pie controllers (controller.doughnut.js, controller.pie.js): rings of arcs
//! sized by value, one ring per visible dataset.

use super::arc_layout::{layout_ring, RingInput};
use super::{arc_options, Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::arc::ArcGeometry;
use crate::elements::dataset::{ArcEl, DatasetElements};
use crate::scales::Scale;
use chart_spec::model::{self as mx, Dim};
use chart_spec::model::{Dataset, Elements, Raw};

/// Doughnut or pie datasets.
#[derive(Debug, Default)]
pub struct DoughnutController {
    arcs: Vec<ArcGeometry>,
}

/// `ds`'s ring as the layout reads it; without its values and per-index options unless
/// `full` (the ring laid out, and the first visible one whose border widths every ring
/// reads): the other rings give their weights and angles only.
fn ring_input(ds: &Dataset, visible: bool, same_type: bool, full: bool) -> RingInput {
    let Some(a) = ds.kind.arc() else {
        // Another controller's dataset in a mixed chart: weight 1, its elements' border
        // widths count in `getMaxBorderWidth` when it is the first visible dataset.
        let border_widths = match ds.kind.elements() {
            _ if !full => Vec::new(),
            Elements::Point(p) => p.iter().map(|o| o.border_width).collect(),
            Elements::Arc(a) => a.iter().map(|o| o.border_width).collect(),
            Elements::Bar(_) => Vec::new(),
        };
        return RingInput {
            values: Vec::new(),
            visible,
            same_type: false,
            weight: 1.0,
            rotation: 0.0,
            circumference: 360.0,
            cutout: Dim::Percent(50.0),
            radius: Dim::Percent(100.0),
            spacing: 0.0,
            offsets: Vec::new(),
            border_widths,
        };
    };
    let n = if full { a.values.len() } else { 0 };
    let opts: Vec<&mx::ArcOptions> = (0..n).filter_map(|i| arc_options(ds, i)).collect();
    RingInput {
        values: if full { a.values.clone() } else { Vec::new() },
        visible,
        same_type,
        weight: a.weight,
        rotation: a.rotation,
        circumference: a.circumference,
        cutout: a.cutout,
        radius: a.radius,
        spacing: a.spacing,
        offsets: opts.iter().map(|o| o.offset).collect(),
        border_widths: opts
            .iter()
            .map(|o| {
                if o.border_align_inner {
                    0.0
                } else {
                    o.border_width
                }
            })
            .collect(),
    }
}

impl Controller for DoughnutController {
    fn parse(
        &mut self,
        ds: &Dataset,
        meta: &mut Meta,
        _scales: &mut [Scale],
        _chart_labels: &[Raw],
    ) {
        meta.parsed = ds
            .kind
            .arc()
            .map(|a| {
                a.values
                    .iter()
                    .map(|v| Parsed {
                        y: *v,
                        ..Parsed::default()
                    })
                    .collect()
            })
            .unwrap_or_default();
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        // Every dataset of the chart takes part: ring weights count all visible datasets,
        // rotation extents those of the same type.
        let visible = |d: &Dataset| cx.data.metas.get(d.index).is_some_and(|m| m.visible);
        let first_visible = cx.datasets.iter().position(&visible);
        let inputs: Vec<RingInput> = cx
            .datasets
            .iter()
            .enumerate()
            .map(|(k, d)| {
                let full = d.index == meta.index || Some(k) == first_visible;
                let same_type = d.kind.chart_kind() == ds.kind.chart_kind();
                ring_input(d, visible(d), same_type, full)
            })
            .collect();
        self.arcs = cx
            .datasets
            .iter()
            .position(|d| d.index == meta.index)
            .map(|p| layout_ring(cx.area, &inputs, &[], p))
            .unwrap_or_default();
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        let arcs = std::mem::take(&mut self.arcs);
        DatasetElements::Arcs(
            (arcs.into_iter().enumerate())
                .map(|(i, geometry)| ArcEl {
                    options: arc_options(ds, i),
                    geometry,
                })
                .collect(),
        )
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::of_arc(ds, 0)
    }
}
