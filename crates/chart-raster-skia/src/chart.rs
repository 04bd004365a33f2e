//! One chart, from config to scene, in two stages: [`update`] (resolved options → scales,
//! controllers, parsed data, boxes laid out ([`crate::layout`]), elements updated: an
//! [`Updated`] of laid-out values with its [`Layout`]) and `draw` (the display list in the
//! order Chart.js draws, `Chart.draw`, from those values alone).

mod update;

use crate::elements::Ctx;
use crate::layout::Layout;
use crate::plugins::filler;
use crate::scales::tick_budget::TickBudget;
use crate::scales::{LaidOutScale, OwnDrawing, ScaleLayer};
use crate::scene::{ItemList, Scene};
use crate::text::TextEngine;
use crate::Settings;
use chart_spec::model::annotation::DrawTime as AnnDrawTime;
use chart_spec::model::{Chart, FillDrawTime};
use chart_spec::{Cancel, ChartConfig, Message};
use std::rc::Rc;
use update::{update, Updated};

/// A budget of [`chart_spec::Limits`] a chart needed more of than allowed while its scene
/// was built (the scene is then cut short and the render refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// `max_scene_items`: display-list items.
    SceneItems,
    /// `max_total_ticks`: ticks and labels of all scales together.
    Ticks,
}

/// Builds the display list of a resolved chart within the render's `limits` (at most
/// `limits.max_scene_items` items, `limits.max_total_ticks` scale ticks and labels), with
/// the messages of its update and drawing, and which budget the chart went over if it did
/// (the scene is then cut short). Without a chart (it could not be built) the canvas stays
/// blank.
pub fn build_scene(
    chart: Option<&Chart>,
    settings: &Settings,
    text: &TextEngine,
    cancel: &Cancel,
    limits: &chart_spec::Limits,
) -> (Scene, Vec<Message>, Option<Over>) {
    let mut scene = Scene {
        width: settings.width,
        height: settings.height,
        device_pixel_ratio: settings.device_pixel_ratio,
        background: settings.background,
        items: Vec::new(),
    };
    let mut messages = Vec::new();
    let Some(chart) = chart else {
        return (scene, messages, None);
    };
    let dpr = f64::from(scene.device_pixel_ratio);
    let width = f64::from(settings.width);
    let height = f64::from(settings.height);
    let mut items = ItemList::new(limits.max_scene_items, cancel.clone());
    let ticks = Rc::new(TickBudget::new(limits.max_total_ticks));
    if let Some(updated) = update(
        chart,
        width,
        height,
        dpr,
        text,
        cancel,
        limits,
        &ticks,
        &mut messages,
    ) {
        draw(chart, updated, text, limits, &mut items, &mut messages);
    }
    let over = if ticks.is_over() {
        Some(Over::Ticks)
    } else {
        items.is_over().then_some(Over::SceneItems)
    };
    scene.items = items.into_items();
    (scene, messages, over)
}

/// The [`Layout`] of a chart config (the update stage alone, nothing drawn), with the
/// messages of resolving and updating it; `None` when the chart cannot be updated.
pub fn build_layout(
    config: &ChartConfig,
    settings: &Settings,
    text: &TextEngine,
    cancel: &Cancel,
    limits: &chart_spec::Limits,
) -> (Option<Layout>, Vec<Message>) {
    let (chart, mut messages) = match chart_spec::resolve_chart_within(config, limits) {
        Ok(v) => v,
        Err(m) => return (None, m),
    };
    let updated = update(
        &chart,
        f64::from(settings.width),
        f64::from(settings.height),
        f64::from(settings.device_pixel_ratio),
        text,
        cancel,
        limits,
        &Rc::new(TickBudget::new(limits.max_total_ticks)),
        &mut messages,
    );
    (updated.map(Updated::into_layout_with_elements), messages)
}

// The layout entry sits here, beside `build_scene`, rather than in lib.rs: it is the first
// half of the same path.
impl crate::Engine {
    /// The [`Layout`] of a chart config at the given canvas settings: the chart area, the
    /// boxes, every scale with its ticks and their pixels, and each element's geometry, as
    /// the drawing would use them (`serde` serializes it to JSON). `None` when the chart
    /// cannot be updated (the messages say why).
    pub fn layout(
        &self,
        config: &ChartConfig,
        settings: &Settings,
    ) -> (Option<Layout>, Vec<Message>) {
        build_layout(config, settings, &self.text, &Cancel::new(), &self.limits)
    }
}

/// Draws an updated chart in the order Chart.js does (`Chart.draw`): boxes and scales by
/// `z`, the datasets between, and the plugins' hooks.
fn draw(
    chart: &Chart,
    updated: Updated<'_>,
    text: &TextEngine,
    limits: &chart_spec::Limits,
    items: &mut ItemList,
    messages: &mut Vec<Message>,
) {
    let Updated {
        layout,
        mut laid_out_scales,
        gradients,
        fill_sources,
        elements,
        own_drawings,
        draw_order,
        label_origins,
        legend,
        subtitle,
        title,
        prepared,
    } = updated;
    let area = layout.chart_area;
    // Dataset clip areas (`getDatasetClipArea`), by dataset index.
    let clips: Vec<_> = layout.datasets.iter().map(|d| d.clip).collect();
    let (width, height) = (layout.width, layout.height);
    // Draw (`Chart.draw`).
    let mut ctx = Ctx::new(items, text);
    // `Chart.draw`: nothing is drawn on an empty canvas.
    if width <= 0.0 || height <= 0.0 {
        return;
    }
    let layers = sorted_layers(
        [legend.is_some(), subtitle.is_some(), title.is_some()],
        &laid_out_scales,
        &own_drawings,
    );

    // beforeDraw: fills for drawTime 'beforeDraw' (the update prepared the sources).
    let draw_time = chart.filler.as_ref().map(|f| f.draw_time);
    if draw_time == Some(FillDrawTime::BeforeDraw) {
        for &i in draw_order.iter().rev() {
            if ctx.stopped() {
                return;
            }
            filler::draw_fill(&mut ctx, &fill_sources, i, &area);
        }
    }
    let hole = prepared.hole;
    let annotate = |ctx: &mut Ctx<'_>, t: AnnDrawTime, scales: &[LaidOutScale]| {
        if let Some(a) = &chart.annotation {
            let sc = crate::plugins::annotation::Scales {
                list: scales,
                parsed: &prepared.parsed,
                pixels: &prepared.pixels,
                hole,
            };
            crate::plugins::annotation::draw(ctx, a, t, &sc, &area, limits);
        }
    };
    annotate(&mut ctx, AnnDrawTime::BeforeDraw, &laid_out_scales);

    let draw_layer = |ctx: &mut Ctx<'_>, layer: Layer, scales: &mut [LaidOutScale]| match layer {
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
        Layer::ScalePart(si, l) => scales[si].draw_layer(l, ctx, &area),
        Layer::Own(k) => own_drawings[k].drawing.draw(ctx),
    };
    let mut li = 0;
    while li < layers.len() && layers[li].0 <= 0.0 {
        draw_layer(&mut ctx, layers[li].2, &mut laid_out_scales);
        li += 1;
    }
    // _drawDatasets
    if draw_time == Some(FillDrawTime::BeforeDatasetsDraw) {
        for &i in draw_order.iter().rev() {
            if ctx.stopped() {
                return;
            }
            filler::draw_fill(&mut ctx, &fill_sources, i, &area);
        }
    }
    annotate(&mut ctx, AnnDrawTime::BeforeDatasetsDraw, &laid_out_scales);
    // The points' items, and room for what is drawn after them (annotations, labels,
    // scales above the datasets), in the display list at once.
    let points: usize = draw_order.iter().map(|&i| elements[i].items_hint()).sum();
    if points >= ItemList::RESERVE_FROM {
        ctx.items
            .reserve(points.saturating_add(ItemList::RESERVE_FROM));
    }
    for &i in draw_order.iter().rev() {
        if ctx.stopped() {
            return;
        }
        if draw_time == Some(FillDrawTime::BeforeDatasetDraw) {
            filler::draw_fill(&mut ctx, &fill_sources, i, &area);
        }
        annotate(&mut ctx, AnnDrawTime::BeforeDataset(i), &laid_out_scales);
        let clip = clips[i];
        if let Some(c) = clip {
            ctx.clip_area(c);
        }
        elements[i].draw(&mut ctx, &area);
        if clip.is_some() {
            ctx.unclip_area();
        }
    }
    // afterDatasetsDraw: annotation (registered on load) before datalabels.
    annotate(&mut ctx, AnnDrawTime::AfterDatasetsDraw, &laid_out_scales);
    if let Some(dl) = &chart.datalabels {
        use crate::plugins::datalabels as dlp;
        // The element geometry of each visible dataset (`chart.isDatasetVisible`).
        let els: Vec<_> = (layout.datasets.iter())
            .map(|d| d.visible.then(|| elements[d.index].geometry()))
            .collect();
        messages.extend(dlp::undrawn(dl, &els, &chart.datasets));
        let measure = |f: &chart_spec::values::Font, s: &str| f64::from(text.measure(&f.spec, s));
        dlp::draw(
            &mut ctx,
            &dlp::place(dl, &els, &label_origins, &area, &measure),
            &area,
        );
    }
    while li < layers.len() {
        draw_layer(&mut ctx, layers[li].2, &mut laid_out_scales);
        li += 1;
    }
    annotate(&mut ctx, AnnDrawTime::AfterDraw, &laid_out_scales);
    crate::plugins::gradient::apply(&mut ctx.items[..], &gradients, &area);
}

/// What one layer of `Chart.draw` draws: a box of the layout or one part of a scale.
#[derive(Clone, Copy)]
enum Layer {
    Legend,
    Subtitle,
    Title,
    ScalePart(usize, ScaleLayer),
    /// A scale that draws itself: its index in the own drawings.
    Own(usize),
}

/// `_getSortedLayers`: the legend, subtitle and title (when `present`, at z 0) and each
/// visible scale's layers, as (z, insertion index, layer) sorted by z, then insertion. A
/// scale that draws itself (`own`) has one layer at its z instead, visible or not (`_layers`
/// of a scale whose `draw` is overridden).
fn sorted_layers(
    present: [bool; 3],
    scales: &[LaidOutScale],
    own: &[OwnDrawing],
) -> Vec<(f64, usize, Layer)> {
    let mut layers: Vec<(f64, usize, Layer)> = Vec::new();
    let mut idx = 0;
    for (here, layer) in present
        .into_iter()
        .zip([Layer::Legend, Layer::Subtitle, Layer::Title])
    {
        if here {
            layers.push((0.0, idx, layer));
            idx += 1;
        }
    }
    for (si, s) in scales.iter().enumerate() {
        if let Some(k) = own.iter().position(|o| o.scale == si) {
            layers.push((own[k].z, idx, Layer::Own(k)));
            idx += 1;
            continue;
        }
        if !s.core.visible {
            // A hidden scale has one layer at ticks.z that draws nothing.
            continue;
        }
        for (z, l) in s.layers() {
            layers.push((z, idx, Layer::ScalePart(si, l)));
            idx += 1;
        }
    }
    layers.sort_by(|a, b| {
        a.0.partial_cmp(&b.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.1.cmp(&b.1))
    });
    layers
}
