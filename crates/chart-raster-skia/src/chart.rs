//! One chart, from config to scene: resolve options (`chart_spec`), build scales and
//! controllers, parse data, lay out boxes ([`crate::layout`]), update elements, then emit the
//! display list in the order Chart.js draws (`Chart.draw`).

use crate::controllers::{self, ChartData, Controller, Limits, Meta, UpdateCx};
use crate::elements::{Area, Ctx};
use crate::layout::{self, BoxPos, LayoutBox};
use crate::plugins::filler;
use crate::plugins::legend::{LegendBox, LegendItem};
use crate::plugins::title::TitleBox;
use crate::scales::{self, Scale, ScaleCore, ScaleLayer};
use crate::scene::{ItemList, Scene};
use crate::text::TextEngine;
use crate::Settings;
use chart_spec::model::annotation::DrawTime as AnnDrawTime;
use chart_spec::model::{Axis, Chart, Clip, Display, FillDrawTime, Position, Stacked};
use chart_spec::{Cancel, Message};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Builds the display list of a chart within the render's `limits` (at most
/// `limits.max_scene_items` items); the flag is true when the chart needed more items (the
/// scene is then cut short).
pub fn build_scene(
    config: &Map<String, Value>,
    settings: &Settings,
    text: &TextEngine,
    cancel: &Cancel,
    limits: &chart_spec::Limits,
) -> (Scene, Vec<Message>, bool) {
    let mut scene = Scene {
        width: settings.width,
        height: settings.height,
        device_pixel_ratio: settings.device_pixel_ratio,
        background: settings.background,
        items: Vec::new(),
    };
    let (chart, mut messages) = match chart_spec::resolve_chart(config) {
        Ok(v) => v,
        Err(m) => return (scene, m, false),
    };
    // The request's device pixel ratio sets the bitmap size, in both engines (the browser
    // engine overwrites `options.devicePixelRatio` too): letting the config choose it would
    // step around the service's bitmap-size limits.
    if let Some(dpr) = chart.device_pixel_ratio {
        if dpr != f64::from(settings.device_pixel_ratio) {
            messages.push(Message::info(format!(
                "options.devicePixelRatio ({dpr}) is ignored: the render's devicePixelRatio ({}) applies",
                settings.device_pixel_ratio
            )));
        }
    }
    let dpr = f64::from(scene.device_pixel_ratio);
    let width = f64::from(settings.width);
    let height = f64::from(settings.height);
    let bundled = crate::plugins::bundled::Bundled::resolve(config, &mut messages);
    let mut items = ItemList::new(limits.max_scene_items, cancel.clone());
    draw_chart(
        &chart,
        &bundled,
        width,
        height,
        dpr,
        text,
        cancel,
        limits,
        &mut items,
        &mut messages,
    );
    let over = items.is_over();
    scene.items = items.into_items();
    (scene, messages, over)
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
    fn update(&mut self, max_width: f64, max_height: f64, margins: [f64; 4], text: &TextEngine) {
        self.scale.update(max_width, max_height, margins, text);
    }
    fn padding(&self) -> Option<[f64; 4]> {
        let p = self.scale.core.padding;
        Some([p[0], p[1], p[2], p[3]])
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

#[allow(clippy::too_many_lines)]
fn draw_chart(
    chart: &Chart,
    bundled: &crate::plugins::bundled::Bundled,
    width: f64,
    height: f64,
    dpr: f64,
    text: &TextEngine,
    cancel: &Cancel,
    limits: &chart_spec::Limits,
    items: &mut ItemList,
    messages: &mut Vec<Message>,
) {
    // Scales (`buildOrUpdateScales`).
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
        let Some(kind) = scales::create(so, labels) else {
            messages.push(Message::error(format!(
                "\"{}\" is not a registered scale.",
                so.kind
            )));
            return;
        };
        let mut s = Scale::new(
            ScaleCore::new(so.clone(), width, height, dpr, chart.font.clone()),
            kind,
        );
        s.core.cancel = cancel.clone();
        s.init();
        scales.push(s);
    }
    let first_id = |axis: Axis| -> Option<String> {
        chart
            .scales
            .iter()
            .find(|s| s.axis == axis)
            .map(|s| s.id.clone())
    };
    // Controllers and metas (`buildOrUpdateControllers`), then parsing.
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
        let Some(c) = controllers::create(&ds.kind, limits) else {
            messages.push(Message::error(format!(
                "\"{}\" is not a registered controller.",
                ds.kind
            )));
            return;
        };
        let x_id = ds.x_axis_id.clone().or_else(|| first_id(Axis::X));
        let y_id = ds.y_axis_id.clone().or_else(|| first_id(Axis::Y));
        let mut meta = Meta {
            index: ds.index,
            kind: ds.kind.clone(),
            order: ds.order,
            visible: !ds.hidden,
            index_axis: ds.index_axis,
            x_id,
            y_id,
            parsed: Vec::new(),
            stacked: None,
            stack: ds.stack.clone(),
            grouped: ds.bar.as_ref().is_none_or(|b| b.grouped),
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
    for (i, ds) in chart.datasets.iter().enumerate() {
        if cancel.is_cancelled() {
            return;
        }
        let mut meta = data.metas[i].clone();
        ctrls[i].parse(ds, &mut meta, &mut scales, &chart.labels);
        messages.extend(ctrls[i].take_messages());
        data.metas[i] = meta;
    }
    if cancel.is_cancelled() {
        return;
    }
    crate::plugins::decimation::apply(chart, &mut data.metas, &scales, width);
    if cancel.is_cancelled() {
        return;
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
    let prepared = bundled
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
        let items = if matches!(chart.kind.as_str(), "doughnut" | "pie" | "polarArea") {
            // The doughnut/pie/polarArea overrides of `generateLabels`: one item per label,
            // styled like dataset 0's element at that index.
            match chart.datasets.first() {
                Some(ds0) if !chart.labels.is_empty() => chart
                    .labels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let mut style = crate::controllers::doughnut::arc_legend_style(ds0, i);
                        style.point_style = lo.labels.point_style;
                        LegendItem {
                            text: match l {
                                chart_spec::model::Raw::Undefined => None,
                                l => Some(l.to_js_string()),
                            },
                            hidden: false,
                            style,
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
                        hidden: ds.hidden,
                        style: ctrls[i].legend_style(ds, lo.labels.use_point_style),
                    }
                })
                .collect()
        };
        LegendBox::new(lo.clone(), items)
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
    if cancel.is_cancelled() {
        return;
    }
    for s in scales.iter_mut() {
        messages.extend(s.core.warnings.drain(..).map(Message::warn));
    }
    // An exception out of a scale's update ends `chart.update()` before anything is drawn:
    // the canvas stays blank and the browser reports the exception's message.
    if let Some(thrown) = scales.iter().find_map(|s| s.core.thrown.clone()) {
        messages.push(Message::error(thrown));
        return;
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
        };
        for (i, ds) in chart.datasets.iter().enumerate() {
            if cancel.is_cancelled() {
                return;
            }
            ctrls[i].update(ds, &data.metas[i], &cx);
        }
    }

    // Draw (`Chart.draw`).
    let mut ctx = Ctx::new(items, text);
    // `Chart.draw`: nothing is drawn on an empty canvas.
    if width <= 0.0 || height <= 0.0 {
        return;
    }
    // Layers: (z, insertion index, what).
    #[derive(Clone, Copy)]
    enum Layer {
        Legend,
        Subtitle,
        Title,
        Scale(usize, ScaleLayer),
    }
    let mut layers: Vec<(f64, usize, Layer)> = Vec::new();
    let mut idx = 0;
    if legend.is_some() {
        layers.push((0.0, idx, Layer::Legend));
        idx += 1;
    }
    if subtitle.is_some() {
        layers.push((0.0, idx, Layer::Subtitle));
        idx += 1;
    }
    if title.is_some() {
        layers.push((0.0, idx, Layer::Title));
        idx += 1;
    }
    for (si, s) in scales.iter().enumerate() {
        if !s.core.visible {
            // A hidden scale has one layer at ticks.z that draws nothing.
            continue;
        }
        for (z, l) in s.layers() {
            layers.push((z, idx, Layer::Scale(si, l)));
            idx += 1;
        }
    }
    layers.sort_by(|a, b| {
        a.0.partial_cmp(&b.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.1.cmp(&b.1))
    });

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
    // beforeDraw: the filler updates every line's control points, and fills for drawTime
    // 'beforeDraw'.
    let draw_time = chart.filler.as_ref().map(|f| f.draw_time);
    let fill_sources = if chart.filler.is_some() {
        for &i in data.sorted_visible.iter().rev() {
            if cancel.is_cancelled() {
                return;
            }
            if let Some(l) = ctrls[i].line() {
                l.update_control_points(&area, data.metas[i].index_axis);
            }
        }
        filler::sources(chart, &data, &mut ctrls, &scales, &clips)
    } else {
        Vec::new()
    };
    if draw_time == Some(FillDrawTime::BeforeDraw) {
        for &i in data.sorted_visible.iter().rev() {
            if ctx.stopped() {
                return;
            }
            filler::draw_fill(&mut ctx, &fill_sources, i, &scales, &area, &data);
        }
    }
    let hole = crate::plugins::annotation::doughnut_hole(&ctrls, &data, &chart.datasets);
    let annotate = |ctx: &mut Ctx<'_>, t: AnnDrawTime, scales: &[Scale]| {
        if let Some(a) = &bundled.annotation {
            let sc = crate::plugins::annotation::Scales {
                list: scales,
                parsed: &prepared.parsed,
                hole,
            };
            crate::plugins::annotation::draw(ctx, a, t, &sc, &area, limits);
        }
    };
    annotate(&mut ctx, AnnDrawTime::BeforeDraw, &scales);

    let draw_layer = |ctx: &mut Ctx<'_>, layer: Layer, scales: &mut Vec<Scale>| match layer {
        Layer::Legend => {
            if let Some(l) = &legend {
                l.draw(ctx);
            }
        }
        Layer::Subtitle => {
            if let Some(t) = &subtitle {
                t.draw(ctx);
            }
        }
        Layer::Title => {
            if let Some(t) = &title {
                t.draw(ctx);
            }
        }
        Layer::Scale(si, l) => {
            let snapshot: Vec<(String, Scale)> = Vec::new();
            let _ = snapshot;
            let (before, rest) = scales.split_at_mut(si);
            let (me, after) = rest.split_at_mut(1);
            let others: Vec<&Scale> = before.iter().chain(after.iter()).collect();
            let pix = |id: &str, v: f64| -> Option<f64> {
                others
                    .iter()
                    .find(|s| s.core.id() == id)
                    .map(|s| s.pixel_for_value(v))
            };
            me[0].draw_layer(l, ctx, &area, &pix, &[]);
        }
    };
    let mut li = 0;
    while li < layers.len() && layers[li].0 <= 0.0 {
        draw_layer(&mut ctx, layers[li].2, &mut scales);
        li += 1;
    }
    // _drawDatasets
    if draw_time == Some(FillDrawTime::BeforeDatasetsDraw) {
        for &i in data.sorted_visible.iter().rev() {
            if ctx.stopped() {
                return;
            }
            filler::draw_fill(&mut ctx, &fill_sources, i, &scales, &area, &data);
        }
    }
    annotate(&mut ctx, AnnDrawTime::BeforeDatasetsDraw, &scales);
    for &i in data.sorted_visible.iter().rev() {
        if ctx.stopped() {
            return;
        }
        let ds = &chart.datasets[i];
        let meta = &data.metas[i];
        if draw_time == Some(FillDrawTime::BeforeDatasetDraw) {
            filler::draw_fill(&mut ctx, &fill_sources, i, &scales, &area, &data);
        }
        annotate(&mut ctx, AnnDrawTime::BeforeDataset(i), &scales);
        let clip = clips[i];
        if let Some(c) = clip {
            ctx.clip_area(c);
        }
        ctrls[i].draw(&mut ctx, ds, meta, &area);
        if clip.is_some() {
            ctx.unclip_area();
        }
    }
    // afterDatasetsDraw: annotation (registered on load) before datalabels.
    annotate(&mut ctx, AnnDrawTime::AfterDatasetsDraw, &scales);
    if let Some(dl) = &bundled.datalabels {
        use crate::plugins::datalabels as dlp;
        let (els, origins) = dlp::collect(&ctrls, &data, &scales, &chart.datasets);
        messages.extend(dlp::undrawn(dl, &els, &chart.datasets));
        let measure = |f: &chart_spec::values::Font, s: &str| f64::from(text.measure(&f.spec, s));
        dlp::draw(
            &mut ctx,
            &dlp::place(dl, &els, &origins, &area, &measure),
            &area,
        );
    }
    while li < layers.len() {
        draw_layer(&mut ctx, layers[li].2, &mut scales);
        li += 1;
    }
    annotate(&mut ctx, AnnDrawTime::AfterDraw, &scales);
    crate::plugins::gradient::apply(
        &mut ctx.items[..],
        &bundled.gradients,
        &scales,
        &data,
        &area,
    );
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
