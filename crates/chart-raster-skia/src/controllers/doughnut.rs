//! The doughnut and pie controllers (controller.doughnut.js, controller.pie.js): rings of arcs
//! sized by value, one ring per visible dataset.

use super::arc_layout::{layout_rings, Area as LayoutArea, Dim as LayoutDim, RingInput};
use super::{Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::arc::{draw_arc, ArcCorners, ArcGeometry, ArcOptions, BorderAlign};
use crate::elements::geometry::ElementGeometry;
use crate::elements::{Area, Ctx};
use crate::scales::Scale;
use crate::scene::{LineCap, LineJoin, Paint};
use chart_spec::model::{self as mx, ArcJoin, Dim};
use chart_spec::model::{Dataset, Elements, Raw};

/// Element options of an arc as the element draws them.
pub fn arc_element_options(o: &mx::ArcOptions) -> ArcOptions {
    ArcOptions {
        background: Paint::Solid(o.background_color),
        border_color: o.border_color,
        border_width: o.border_width,
        border_align: if o.border_align_inner {
            BorderAlign::Inner
        } else {
            BorderAlign::Center
        },
        border_join: o.border_join.map(|j| match j {
            ArcJoin::Round => LineJoin::Round,
            ArcJoin::Bevel => LineJoin::Bevel,
            ArcJoin::Miter => LineJoin::Miter,
        }),
        border_dash: o.border_dash.clone(),
        border_dash_offset: o.border_dash_offset,
        border_radius: ArcCorners {
            outer_start: o.border_radius[0],
            outer_end: o.border_radius[1],
            inner_start: o.border_radius[2],
            inner_end: o.border_radius[3],
        },
        offset: o.offset,
        spacing: o.spacing,
        spacing_mode: o.spacing_mode,
        circular: o.circular,
        self_join: o.self_join,
    }
}

/// The arc options of a dataset at index `i` (the last one for shorter lists).
pub fn arc_opts(ds: &Dataset, i: usize) -> Option<&mx::ArcOptions> {
    match &ds.elements {
        Elements::Arc(a) => a.get(i.min(a.len().saturating_sub(1))),
        _ => None,
    }
}

/// The legend box style of arc element `i` (`getStyle(i)`).
pub fn arc_legend_style(ds: &Dataset, i: usize) -> LegendStyle {
    let o = arc_opts(ds, i);
    LegendStyle {
        fill: o.map_or(chart_spec::Rgba::TRANSPARENT, |o| o.background_color),
        stroke: o.map_or(chart_spec::Rgba::WHITE, |o| o.border_color),
        line_width: o.map_or(2.0, |o| o.border_width),
        cap: LineCap::Butt,
        dash: o.map(|o| o.border_dash.clone()).unwrap_or_default(),
        dash_offset: o.map_or(0.0, |o| o.border_dash_offset),
        join: match o.and_then(|o| o.border_join) {
            Some(ArcJoin::Round) => LineJoin::Round,
            Some(ArcJoin::Miter) => LineJoin::Miter,
            _ => LineJoin::Bevel,
        },
        point_style: None,
        rotation: 0.0,
        border_radius: None,
    }
}

/// The geometry of arc elements: an arc the layout skipped (NaN radius) has none.
pub fn arc_geometry_of(arcs: &[ArcGeometry]) -> Vec<Option<ElementGeometry>> {
    arcs.iter()
        .map(|g| {
            (!g.outer_radius.is_nan()).then_some(ElementGeometry::Arc {
                x: g.x,
                y: g.y,
                start_angle: g.start_angle,
                end_angle: g.end_angle,
                inner_radius: g.inner_radius,
                outer_radius: g.outer_radius,
            })
        })
        .collect()
}

fn layout_dim(d: Dim) -> LayoutDim {
    match d {
        Dim::Px(v) => LayoutDim::Px(v),
        Dim::Percent(p) => LayoutDim::Percent(p),
    }
}

/// Doughnut or pie datasets.
#[derive(Debug, Default)]
pub struct DoughnutController {
    arcs: Vec<ArcGeometry>,
}

fn ring_input(ds: &Dataset, visible: bool, same_type: bool) -> RingInput {
    let Some(a) = ds.arc.as_ref() else {
        // Another controller's dataset in a mixed chart: weight 1, its elements' border
        // widths count in `getMaxBorderWidth` when it is the first visible dataset.
        let border_widths = match &ds.elements {
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
            cutout: LayoutDim::Percent(50.0),
            radius: LayoutDim::Percent(100.0),
            spacing: 0.0,
            offsets: Vec::new(),
            border_widths,
        };
    };
    let n = a.values.len();
    let opts: Vec<&mx::ArcOptions> = (0..n).filter_map(|i| arc_opts(ds, i)).collect();
    RingInput {
        values: a.values.clone(),
        visible,
        same_type,
        weight: a.weight,
        rotation: a.rotation,
        circumference: a.circumference,
        cutout: layout_dim(a.cutout),
        radius: layout_dim(a.radius),
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
            .arc
            .as_ref()
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
        let rings: Vec<(usize, RingInput)> = cx
            .datasets
            .iter()
            .map(|d| {
                let visible = cx.data.metas.get(d.index).is_some_and(|m| m.visible);
                (d.index, ring_input(d, visible, d.kind == ds.kind))
            })
            .collect();
        let inputs: Vec<RingInput> = rings.iter().map(|(_, r)| r.clone()).collect();
        let area = LayoutArea {
            left: cx.area.left,
            top: cx.area.top,
            right: cx.area.right,
            bottom: cx.area.bottom,
        };
        let all = layout_rings(area, &inputs, &[]);
        self.arcs = rings
            .iter()
            .position(|(i, _)| *i == meta.index)
            .and_then(|p| all.get(p).cloned())
            .unwrap_or_default();
    }

    fn draw(&mut self, ctx: &mut Ctx<'_>, ds: &Dataset, _meta: &Meta, _area: &Area) {
        for (i, g) in self.arcs.iter().enumerate() {
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
