//! The update stage of one chart (`chart.update()` with animations off): build the scales
//! and controllers, parse the data, take the data limits, lay out the boxes
//! ([`crate::layout`]), configure the scales and update every dataset's elements. What comes
//! out is [`Updated`], laid-out values only: the public [`Layout`] (every position as
//! numbers), what the drawing of each scale reads ([`LaidOutScale`]), each dataset's elements
//! ([`DatasetElements`], taken from its controller) and what the plugins draw from (read off
//! the scales and controllers here, last: the filler's sources, the annotations' pixels, the
//! datalabels' anchors, the gradients). The scales, controllers and parsed data stay here.

use crate::controllers::{self, ChartData, Controller, Limits, Meta, PluginScale, UpdateCx};
use crate::elements::dataset::DatasetElements;
use crate::elements::Area;
use crate::layout::{
    self, BoxPos, DatasetLayout, Layout, LayoutBox, PlacedBox, ScaleLayout, TickLayout,
};
use crate::plugins::annotation::Prepared;
use crate::plugins::datalabels::{self, Origin};
use crate::plugins::filler;
use crate::plugins::gradient::{self, ScaleGradient};
use crate::plugins::legend::{LegendBox, LegendItem};
use crate::plugins::title::TitleBox;
use crate::scales::tick_budget::TickBudget;
use crate::scales::{self, LaidOutScale, OwnDrawing, Scale, ScaleCore};
use crate::text::TextEngine;
use chart_spec::model::{
    Axis, Chart, ChartKind, Clip, Display, Position, ScaleTypeOptions, Stacked,
};
use chart_spec::values::Sides;
use chart_spec::{Cancel, Message};
use std::collections::HashMap;
use std::rc::Rc;

/// A chart after its update, as the draw reads it: the [`Layout`], the laid-out scales, each
/// dataset's elements and what the plugins draw from. `'a` is the resolved chart, whose
/// element options the elements borrow.
pub struct Updated<'a> {
    /// Every position the drawing reads, as numbers. Element geometry is left out
    /// (`DatasetLayout::elements` empty): the drawing reads only the chart area and clip
    /// areas, and a render of 250,000 points need not describe each one a second time;
    /// [`Updated::into_layout_with_elements`] adds it.
    pub layout: Layout,
    /// What the drawing of each scale reads, in `scales` order.
    pub laid_out_scales: Vec<LaidOutScale>,
    /// The filler's sources with their targets, by dataset index (empty without the filler).
    pub fill_sources: Vec<Option<filler::Source>>,
    /// chartjs-plugin-gradient's gradients over their laid-out scales.
    pub gradients: Vec<ScaleGradient>,
    /// Every dataset's elements as its draw reads them, by dataset index.
    pub elements: Vec<DatasetElements<'a>>,
    /// The scales that draw themselves (chartjs-chart-geo's legends), each at its place in
    /// the draw order.
    pub own_drawings: Vec<OwnDrawing>,
    /// The visible datasets' indices sorted by `(order, index)`
    /// (`getSortedVisibleDatasetMetas`): the datasets are drawn in reverse.
    pub draw_order: Vec<usize>,
    /// Where each dataset's data labels are anchored (`getScaleOrigin`), by dataset index;
    /// empty without chartjs-plugin-datalabels.
    pub label_origins: Vec<Origin>,
    /// The legend box, placed.
    pub legend: Option<LegendBox>,
    /// The subtitle box, placed.
    pub subtitle: Option<TitleBox>,
    /// The title box, placed.
    pub title: Option<TitleBox>,
    /// What the scales computed for chartjs-plugin-annotation.
    pub prepared: Prepared,
}

struct ScaleBox<'a> {
    scale: &'a mut Scale,
}

impl LayoutBox for ScaleBox<'_> {
    fn pos(&self) -> BoxPos {
        match self.scale.core.opts.position {
            Position::Left => BoxPos::Left,
            Position::Right => BoxPos::Right,
            Position::Top => BoxPos::Top,
            Position::Bottom => BoxPos::Bottom,
            Position::ChartArea => BoxPos::ChartArea,
            _ => BoxPos::Dynamic,
        }
    }
    fn weight(&self) -> f64 {
        self.scale.core.opts.weight
    }
    fn full_size(&self) -> bool {
        self.scale.core.opts.full_size
    }
    fn is_horizontal(&self) -> bool {
        self.scale.core.is_horizontal()
    }
    fn axis(&self) -> Option<Axis> {
        Some(self.scale.core.axis())
    }
    fn stack(&self) -> (Option<String>, f64) {
        (
            self.scale.core.opts.stack.clone(),
            self.scale.core.opts.stack_weight,
        )
    }
    fn displayed(&self) -> bool {
        // `options.display === false`: 'auto' counts as displayed here.
        self.scale.core.opts.display != Display::No
    }
    fn update(&mut self, max_width: f64, max_height: f64, margins: Sides, text: &TextEngine) {
        self.scale.update(max_width, max_height, margins, text);
    }
    fn padding(&self) -> Option<Sides> {
        Some(self.scale.core.padding)
    }
    fn width(&self) -> f64 {
        self.scale.core.width
    }
    fn height(&self) -> f64 {
        self.scale.core.height
    }
    fn set_dims(&mut self, left: f64, top: f64, width: f64, height: f64) {
        let c = &mut self.scale.core;
        c.left = left;
        c.top = top;
        c.right = left + width;
        c.bottom = top + height;
        c.width = width;
        c.height = height;
    }
}

/// The scale clip (`scaleClip`) of one axis: (start, end) overflow.
fn scale_clip(s: Option<&Scale>, overflow: f64) -> (f64, f64) {
    let Some(s) = s else {
        return (overflow, overflow);
    };
    let o = &s.core.opts;
    let min = if o.min.is_null_or_undef() && !matches!(o.min, chart_spec::model::Raw::Null) {
        overflow
    } else {
        0.0
    };
    let max = if o.max.is_null_or_undef() && !matches!(o.max, chart_spec::model::Raw::Null) {
        overflow
    } else {
        0.0
    };
    if o.reverse {
        (max, min)
    } else {
        (min, max)
    }
}

/// Runs the update of `chart` on a `width` × `height` canvas. `None` when nothing is to be
/// drawn: a type is not registered, a scale's update threw (the messages say why), the
/// scales needed more ticks and labels than `ticks` allows, or the render was cancelled.
pub fn update<'a>(
    chart: &'a Chart,
    width: f64,
    height: f64,
    dpr: f64,
    text: &TextEngine,
    cancel: &Cancel,
    limits: &chart_spec::Limits,
    ticks: &Rc<TickBudget>,
    messages: &mut Vec<Message>,
) -> Option<Updated<'a>> {
    // Scales (`buildOrUpdateScales`).
    let mut scales = build_scales(chart, width, height, dpr, cancel, ticks);
    if ticks.is_over() {
        return None;
    }
    // Controllers and metas (`buildOrUpdateControllers`), then parsing.
    let (mut data, mut ctrls) = build_controllers(chart, limits);
    for (i, ds) in chart.datasets.iter().enumerate() {
        if cancel.is_cancelled() {
            return None;
        }
        let mut meta = data.metas[i].clone();
        ctrls[i].parse(ds, &mut meta, &mut scales, &chart.labels);
        messages.extend(ctrls[i].take_messages());
        data.metas[i] = meta;
    }
    if cancel.is_cancelled() {
        return None;
    }
    crate::plugins::decimation::apply(chart, &mut data.metas, &scales, width);
    if cancel.is_cancelled() {
        return None;
    }
    let mut sorted: Vec<usize> = (0..data.metas.len()).collect();
    sorted.sort_by(|&a, &b| {
        let (ma, mb) = (&data.metas[a], &data.metas[b]);
        ma.order
            .partial_cmp(&mb.order)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(ma.index.cmp(&mb.index))
    });
    let all_sorted = sorted.clone();
    data.sorted_visible = sorted
        .into_iter()
        .filter(|&i| data.metas[i].visible)
        .collect();
    data.build_stacks();

    // Data limits (`_dataLimitsCached` on the first update) and visibility.
    let user_bounds: HashMap<String, (f64, f64)> = scales
        .iter()
        .map(|s| {
            let (min, max, md, xd) = s.core.user_bounds();
            (
                s.core.id().to_string(),
                (
                    if md { min } else { f64::NEG_INFINITY },
                    if xd { max } else { f64::INFINITY },
                ),
            )
        })
        .collect();
    // chartjs-plugin-annotation's adjustScaleRange (afterDataLimits).
    let prepared = chart
        .annotation
        .as_ref()
        .map(|a| crate::plugins::annotation::prepare(a, &mut scales))
        .unwrap_or_default();
    {
        let limits = Limits {
            data: &data,
            user_bounds,
        };
        let limits = crate::plugins::annotation::Widened {
            inner: &limits,
            extents: &prepared.extents,
        };
        for s in scales.iter_mut() {
            s.core.visible = match s.core.opts.display {
                Display::Yes => true,
                Display::No => false,
                Display::Auto => data
                    .sorted_visible
                    .iter()
                    .any(|&i| data.metas[i].id_for(s.core.axis()) == Some(s.core.id())),
            };
            s.data_limits(&limits);
        }
    }

    // Max overflow (autoPadding).
    let mut min_padding: f64 = 0.0;
    let mut overflows = Vec::new();
    for (i, ds) in chart.datasets.iter().enumerate() {
        let o = ctrls[i].max_overflow(ds, &data.metas[i]);
        let lo = ctrls[i].layout_overflow(ds, &data.metas[i]);
        min_padding = min_padding.max(lo.unwrap_or(0.0));
        overflows.push(o);
    }
    if !chart.auto_padding {
        min_padding = 0.0;
    }

    // Layout boxes: legend, subtitle, title (plugin start order), then scales.
    let mut legend = chart.legend.as_ref().map(|lo| {
        let items = legend_items(chart, lo, &ctrls, &all_sorted);
        LegendBox::new(lo.clone(), items, cancel.clone())
    });
    let mut subtitle = chart.subtitle.as_ref().map(|t| TitleBox::new(t.clone()));
    let mut title = chart.title.as_ref().map(|t| TitleBox::new(t.clone()));
    let area = {
        let mut boxes: Vec<&mut dyn LayoutBox> = Vec::new();
        if let Some(l) = legend.as_mut() {
            boxes.push(l);
        }
        if let Some(t) = subtitle.as_mut() {
            boxes.push(t);
        }
        if let Some(t) = title.as_mut() {
            boxes.push(t);
        }
        let mut sboxes: Vec<ScaleBox<'_>> =
            scales.iter_mut().map(|s| ScaleBox { scale: s }).collect();
        for b in sboxes.iter_mut() {
            boxes.push(b);
        }
        layout::update(
            &mut boxes,
            width,
            height,
            chart.layout_padding,
            min_padding,
            text,
        )
    };
    if cancel.is_cancelled() || ticks.is_over() {
        return None;
    }
    for s in scales.iter_mut() {
        messages.extend(s.core.warnings.drain(..).map(Message::warn));
    }
    // An exception out of a scale's update ends `chart.update()` before anything is drawn:
    // the canvas stays blank and the browser reports the exception's message.
    if let Some(thrown) = scales.iter().find_map(|s| s.core.thrown.clone()) {
        messages.push(Message::error(thrown));
        return None;
    }
    // `box.configure()` after layout: pixel ranges from the final positions.
    for s in scales.iter_mut() {
        s.configure();
    }

    // Dataset updates.
    {
        let cx = UpdateCx {
            scales: &scales,
            data: &data,
            area,
            dpr,
            datasets: &chart.datasets,
            cancel,
            limits,
            text,
        };
        for (i, ds) in chart.datasets.iter().enumerate() {
            if cancel.is_cancelled() {
                return None;
            }
            ctrls[i].update(ds, &data.metas[i], &cx);
        }
    }
    // The scales the controllers laid out themselves, by their index in `scales`.
    let mut plugin_scales: Vec<(usize, PluginScale)> = Vec::new();
    for c in ctrls.iter_mut() {
        for p in c.plugin_scales() {
            let at = scales.iter().position(|s| s.core.id() == p.layout.id);
            if let Some(si) = at.filter(|si| !plugin_scales.iter().any(|(i, _)| i == si)) {
                plugin_scales.push((si, p));
            }
        }
    }
    // Dataset clip areas (`getDatasetClipArea`).
    let clips: Vec<Option<Area>> = chart
        .datasets
        .iter()
        .enumerate()
        .map(|(i, ds)| {
            dataset_clip(
                ds.clip,
                overflows[i],
                &data.metas[i],
                &scales,
                &area,
                width,
                height,
            )
        })
        .collect();
    let layout = snapshot(
        width,
        height,
        area,
        [
            ("legend", legend.as_ref().map(LegendBox::rect)),
            ("subtitle", subtitle.as_ref().map(TitleBox::rect)),
            ("title", title.as_ref().map(TitleBox::rect)),
        ],
        &scales,
        &data,
        chart,
        &clips,
    );
    let mut layout = layout;
    let own_drawings = (plugin_scales.into_iter())
        .filter_map(|(si, p)| {
            if let Some(l) = layout.scales.get_mut(si) {
                *l = p.layout;
            }
            Some(OwnDrawing {
                scale: si,
                z: p.z,
                drawing: p.drawing?,
            })
        })
        .collect();
    let laid_out_scales: Vec<LaidOutScale> = (0..scales.len())
        .map(|i| Scale::laid_out(&scales, i))
        .collect();
    let mut prepared = prepared;
    if let Some(a) = &chart.annotation {
        let parsed = &prepared.parsed;
        prepared.pixels =
            crate::plugins::annotation::pixels(a, &scales, parsed, limits.max_annotations);
    }
    // The gradient plugin's `afterUpdate`: legend items of data values take their colour.
    if let Some(l) = legend.as_mut().filter(|_| !chart.gradients.is_empty()) {
        let (specs, ds) = (&chart.gradients, &chart.datasets);
        gradient::recolor_legend(&mut l.items, specs, &scales, &data, ds);
    }
    let gradients = gradient::prepare(&chart.gradients, &scales, &data);
    // The elements each dataset draws, taken from its controller.
    let mut elements: Vec<DatasetElements<'a>> = (chart.datasets.iter().enumerate())
        .map(|(i, ds)| ctrls[i].elements(ds, &data.metas[i]))
        .collect();
    // The lines' control points (`updateControlPoints`, in the filler's `beforeDraw` or the
    // line's own draw, with the chart area), before anything is drawn.
    for &i in data.sorted_visible.iter().rev() {
        if cancel.is_cancelled() {
            return None;
        }
        if let Some(l) = elements[i].line_mut() {
            l.update_control_points(&area, data.metas[i].index_axis);
        }
    }
    // The filler's `beforeDraw`: each line's fill source and what it fills to.
    // A line that does not fill is no source, and a line only fills to another when it
    // fills itself (`_resolveTarget` starts from the source's own `fill`): when no line
    // fills, nothing is filled, and the sources (each a copy of its line, 10,000 points of
    // a time series) are not made.
    let fills = (elements.iter().filter_map(DatasetElements::line))
        .any(|l| l.options.fill.target != chart_spec::model::Fill::None);
    let fill_sources = if chart.filler.is_some() && fills {
        let clips: Vec<_> = layout.datasets.iter().map(|d| d.clip).collect();
        let mut sources = filler::sources(chart, &data, &elements, &scales, &clips);
        filler::targets(&mut sources, &scales, &data, cancel);
        sources
    } else {
        Vec::new()
    };
    prepared.hole = crate::plugins::annotation::doughnut_hole(&elements, &data, &chart.datasets);
    let label_origins = if chart.datalabels.is_some() {
        (data.metas.iter())
            .map(|meta| {
                let id = meta.v_id().or(meta.y_id.as_deref());
                let v = laid_out_scales.iter().find(|s| Some(s.core.id()) == id);
                let horizontal_bar = meta.index_axis == Axis::Y && meta.kind == ChartKind::Bar;
                datalabels::origin(v, horizontal_bar)
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(Updated {
        layout,
        laid_out_scales,
        gradients,
        fill_sources,
        elements,
        own_drawings,
        draw_order: data.sorted_visible,
        label_origins,
        legend,
        subtitle,
        title,
        prepared,
    })
}

/// The scales of `options.scales` (`buildOrUpdateScales`), each initialised with its user
/// bounds (resolution already refused unregistered types).
fn build_scales(
    chart: &Chart,
    width: f64,
    height: f64,
    dpr: f64,
    cancel: &Cancel,
    budget: &Rc<TickBudget>,
) -> Vec<Scale> {
    let mut scales: Vec<Scale> = Vec::new();
    for so in &chart.scales {
        // getLabels(): `options.labels || (isHorizontal() ? data.xLabels : data.yLabels) ||
        // data.labels`.
        let horizontal =
            matches!(so.position, Position::Top | Position::Bottom) || so.axis == Axis::X;
        let labels = if horizontal {
            chart.x_labels.as_ref()
        } else {
            chart.y_labels.as_ref()
        }
        .unwrap_or(&chart.labels);
        let mut core = ScaleCore::new(so.clone(), width, height, dpr);
        core.cancel = cancel.clone();
        core.budget = budget.clone();
        // The labels a scale copies count against MAX_TOTAL_TICKS before it copies them.
        let held = match &so.kind {
            ScaleTypeOptions::Category => so.labels.as_ref().map_or(labels.len(), Vec::len),
            ScaleTypeOptions::Time(_)
            | ScaleTypeOptions::TimeSeries(_)
            | ScaleTypeOptions::RadialLinear(_) => labels.len(),
            ScaleTypeOptions::Linear | ScaleTypeOptions::Logarithmic => 0,
        };
        if !core.charge_ticks(held) {
            break;
        }
        let mut s = Scale::new(core, scales::create(so, labels));
        s.init();
        scales.push(s);
    }
    scales
}

/// One controller and one meta per dataset (`buildOrUpdateControllers`): scale ids, order,
/// visibility and stacking.
fn build_controllers(
    chart: &Chart,
    limits: &chart_spec::Limits,
) -> (ChartData, Vec<Box<dyn Controller>>) {
    let first_id = |axis: Axis| -> Option<String> {
        chart
            .scales
            .iter()
            .find(|s| s.axis == axis)
            .map(|s| s.id.clone())
    };
    let mut data = ChartData {
        scales: chart
            .scales
            .iter()
            .map(|s| (s.id.clone(), s.axis, s.stacked))
            .collect(),
        chart_index_axis: chart
            .datasets
            .first()
            .map(|_| chart_index_axis(chart))
            .unwrap_or(Axis::X),
        ..ChartData::default()
    };
    let mut ctrls: Vec<Box<dyn Controller>> = Vec::new();
    for ds in &chart.datasets {
        let c = controllers::create(ds.kind.chart_kind(), limits);
        let x_id = ds.x_axis_id.clone().or_else(|| first_id(Axis::X));
        let y_id = ds.y_axis_id.clone().or_else(|| first_id(Axis::Y));
        let mut meta = Meta {
            index: ds.index,
            kind: ds.kind.chart_kind(),
            order: ds.order,
            visible: !ds.hidden,
            index_axis: ds.index_axis,
            x_id,
            y_id,
            parsed: Vec::new(),
            stacked: None,
            stack: ds.stack.clone(),
            grouped: ds.kind.bar().is_none_or(|b| b.grouped),
            given_x_id: ds.x_axis_id.clone(),
            given_y_id: ds.y_axis_id.clone(),
        };
        // isStacked(vScale, meta)
        let v_stacked = meta
            .v_id()
            .and_then(|id| chart.scales.iter().find(|s| s.id == id))
            .and_then(|s| s.stacked);
        meta.stacked = match v_stacked {
            Some(Stacked::Yes) => Some(Stacked::Yes),
            Some(Stacked::Single) => Some(Stacked::Single),
            Some(Stacked::No) => None,
            None => meta.stack.as_ref().map(|_| Stacked::Yes),
        };
        data.metas.push(meta);
        ctrls.push(c);
    }
    (data, ctrls)
}

/// The legend's items (`generateLabels`): one per dataset in drawing order, or one per label
/// for doughnut, pie and polarArea charts.
fn legend_items(
    chart: &Chart,
    lo: &chart_spec::model::LegendOptions,
    ctrls: &[Box<dyn Controller>],
    all_sorted: &[usize],
) -> Vec<LegendItem> {
    if matches!(
        chart.kind,
        Some(ChartKind::Doughnut | ChartKind::Pie | ChartKind::PolarArea)
    ) {
        // The doughnut/pie/polarArea overrides of `generateLabels`: one item per label,
        // styled like dataset 0's element at that index.
        match chart.datasets.first() {
            Some(ds0) if !chart.labels.is_empty() => chart
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let mut style = crate::controllers::LegendStyle::of_arc(ds0, i);
                    style.point_style = lo.labels.point_style;
                    LegendItem {
                        text: match l {
                            chart_spec::model::Raw::Undefined => None,
                            l => Some(l.to_js_string()),
                        },
                        lines: match l {
                            chart_spec::model::Raw::Array(_) => Some(l.lines()),
                            _ => None,
                        },
                        hidden: false,
                        style,
                        data_index: Some(i),
                    }
                })
                .collect(),
            _ => Vec::new(),
        }
    } else {
        all_sorted
            .iter()
            .map(|&i| {
                let ds = &chart.datasets[i];
                LegendItem {
                    text: ds.label.clone(),
                    lines: ds.label_lines.clone(),
                    hidden: ds.hidden,
                    style: ctrls[i].legend_style(ds, lo.labels.use_point_style),
                    data_index: None,
                }
            })
            .collect()
    }
}

impl Updated<'_> {
    /// The whole [`Layout`], each element's geometry included (what `Engine::layout` and
    /// the layout oracle compare with Chart.js's `getDatasetMeta(i).data`).
    pub fn into_layout_with_elements(self) -> Layout {
        let mut layout = self.layout;
        for d in &mut layout.datasets {
            d.elements = (self.elements.get(d.index))
                .map(DatasetElements::geometry)
                .unwrap_or_default();
        }
        layout
    }
}

/// The public numbers of an updated chart, element geometry left out.
#[allow(clippy::too_many_arguments)]
fn snapshot(
    width: f64,
    height: f64,
    chart_area: Area,
    boxes: [(&str, Option<crate::layout::BoxRect>); 3],
    scales: &[Scale],
    data: &ChartData,
    chart: &Chart,
    clips: &[Option<Area>],
) -> Layout {
    let boxes = boxes
        .into_iter()
        .filter_map(|(kind, r)| {
            r.map(|r| PlacedBox {
                kind: kind.to_string(),
                rect: r.area,
            })
        })
        .collect();
    let scales = scales
        .iter()
        .map(|s| {
            let c = &s.core;
            ScaleLayout {
                id: c.id().to_string(),
                axis: match c.axis() {
                    Axis::X => "x",
                    Axis::Y => "y",
                    _ => "r",
                }
                .to_string(),
                visible: c.visible,
                rect: Area {
                    left: c.left,
                    top: c.top,
                    right: c.right,
                    bottom: c.bottom,
                },
                ticks: c
                    .ticks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| TickLayout {
                        value: t.value,
                        label: t.label.clone(),
                        pixel: s.pixel_for_tick(i),
                    })
                    .collect(),
            }
        })
        .collect();
    let datasets = (0..chart.datasets.len())
        .map(|i| DatasetLayout {
            index: i,
            visible: data.metas[i].visible,
            clip: clips.get(i).copied().flatten(),
            // Filled only for `Engine::layout` (`Updated::into_layout_with_elements`).
            elements: Vec::new(),
        })
        .collect();
    Layout {
        width,
        height,
        chart_area,
        boxes,
        scales,
        datasets,
    }
}

/// `chart.options.indexAxis`.
fn chart_index_axis(chart: &Chart) -> Axis {
    chart.index_axis
}

/// `getDatasetClipArea(chart, meta)` with `meta._clip` from `toClip(options.clip ??
/// defaultClip(xScale, yScale, getMaxOverflow()))`; `None` when clipping is disabled.
fn dataset_clip(
    clip: Option<Clip>,
    overflow: Option<f64>,
    meta: &Meta,
    scales: &[Scale],
    area: &Area,
    width: f64,
    height: f64,
) -> Option<Area> {
    let xs = scales
        .iter()
        .find(|s| Some(s.core.id()) == meta.x_id.as_deref());
    let ys = scales
        .iter()
        .find(|s| Some(s.core.id()) == meta.y_id.as_deref());
    let (l, t, r, b) = match clip {
        Some(Clip::Disabled) => return None,
        Some(Clip::Sides(s)) => (s.left, s.top, s.right, s.bottom),
        None => {
            let o = overflow?;
            let (xl, xr) = scale_clip(xs, o);
            let (yb, yt) = scale_clip(ys, o);
            (xl, yt, xr, yb)
        }
    };
    let _ = (width, height);
    let pick = |s: Option<&Scale>, f: fn(&ScaleCore) -> f64, a: f64| match (xs.and(ys), s) {
        (Some(_), Some(s)) if s.core.opts.clip => f(&s.core),
        _ => a,
    };
    let (al, ar) = (
        pick(xs, |c| c.left, area.left),
        pick(xs, |c| c.right, area.right),
    );
    let (at, ab) = (
        pick(ys, |c| c.top, area.top),
        pick(ys, |c| c.bottom, area.bottom),
    );
    Some(Area {
        left: al - l,
        top: at - t,
        right: ar + r,
        bottom: ab + b,
    })
}
