//! Dataset controllers: parsing data against the scales, stacking and element geometry, as
//! Chart.js's `DatasetController` subclasses do; the elements they lay out draw themselves
//! (`elements::dataset`).
//!
//! # Adding a controller
//! 1. Register the type's defaults in `chart_spec::defaults` (`datasets.<type>` and
//!    `overrides.<type>`), so configs of that type resolve.
//! 2. Write a module here with a struct implementing [`Controller`]: `parse` (usually
//!    [`parse_default`]), `update` (element geometry from the scales, after layout) and
//!    `elements` (the laid-out elements the draw reads, `elements::dataset`).
//!    Override `max_overflow` when elements may overflow the chart area (`getMaxOverflow`),
//!    and `legend_style` for the legend's box.
//! 3. Add it to [`create`].
//!
//! The chart-wide state a controller reads is in [`ChartData`] (every dataset's [`Meta`] and
//! the stacks), which also answers the scales' [`DataLimits`] questions.

pub mod arc_layout;
pub mod bar;
mod bar_stacks;
pub mod bubble;
pub mod doughnut;
pub mod euler;
pub mod force_graph;
pub mod geo;
pub mod graph_tree;
mod legend_style;
pub mod line;
pub mod matrix;
pub mod polar_area;
pub mod radar;
pub mod sankey;
mod simplex_order;
pub mod treemap;
pub mod venn;
pub mod word_cloud;

pub use legend_style::LegendStyle;

use crate::elements::dataset::DatasetElements;
use crate::elements::Area;
use crate::scales::{DataLimits, Scale};
use chart_spec::model::{Axis, ChartKind, Dataset, Datum, Raw, Stacked};
use std::collections::HashMap;

/// A floating bar's parsed range (`_custom` of bar controllers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatBar {
    /// `barStart`.
    pub bar_start: f64,
    /// `barEnd`.
    pub bar_end: f64,
    /// `start` as given.
    pub start: f64,
    /// `end` as given.
    pub end: f64,
    /// `min`.
    pub min: f64,
    /// `max`.
    pub max: f64,
}

/// One parsed data entry (`meta._parsed[i]`). `None` is JavaScript `null`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Parsed {
    /// x.
    pub x: Option<f64>,
    /// y.
    pub y: Option<f64>,
    /// Floating bar range.
    pub float_bar: Option<FloatBar>,
    /// Bubble radius (`_custom`).
    pub radius: Option<f64>,
}

impl Parsed {
    /// `parsed[axis]`.
    pub fn get(&self, axis: Axis) -> Option<f64> {
        if axis == Axis::X {
            self.x
        } else {
            self.y
        }
    }
    fn set(&mut self, axis: Axis, v: Option<f64>) {
        if axis == Axis::X {
            self.x = v
        } else {
            self.y = v
        }
    }
}

/// A dataset's meta (`chart.getDatasetMeta(i)`).
#[derive(Debug, Clone)]
pub struct Meta {
    /// Dataset index.
    pub index: usize,
    /// Controller type.
    pub kind: ChartKind,
    /// `order`.
    pub order: f64,
    /// Visible (not `hidden`).
    pub visible: bool,
    /// `indexAxis`.
    pub index_axis: Axis,
    /// x scale id.
    pub x_id: Option<String>,
    /// y scale id.
    pub y_id: Option<String>,
    /// Parsed data.
    pub parsed: Vec<Parsed>,
    /// `_stacked` (`Some(Single)` for `'single'` mode).
    pub stacked: Option<Stacked>,
    /// `stack`.
    pub stack: Option<String>,
    /// `grouped` (bar datasets).
    pub grouped: bool,
    /// `dataset.xAxisID` as given.
    pub given_x_id: Option<String>,
    /// `dataset.yAxisID` as given.
    pub given_y_id: Option<String>,
}

impl Meta {
    /// The index axis scale id.
    pub fn i_id(&self) -> Option<&str> {
        if self.index_axis == Axis::X {
            self.x_id.as_deref()
        } else {
            self.y_id.as_deref()
        }
    }
    /// The value axis scale id.
    pub fn v_id(&self) -> Option<&str> {
        if self.index_axis == Axis::X {
            self.y_id.as_deref()
        } else {
            self.x_id.as_deref()
        }
    }
    /// The value axis.
    pub fn v_axis(&self) -> Axis {
        if self.index_axis == Axis::X {
            Axis::Y
        } else {
            Axis::X
        }
    }
    /// `dataset.xAxisID`/`yAxisID` as given (for the bar controller's `_getAxis`).
    pub fn given_axis_id(&self, axis: Axis) -> Option<String> {
        if axis == Axis::X {
            self.given_x_id.clone()
        } else {
            self.given_y_id.clone()
        }
    }
    /// The scale id bound for an axis.
    pub fn id_for(&self, axis: Axis) -> Option<&str> {
        if axis == Axis::X {
            self.x_id.as_deref()
        } else {
            self.y_id.as_deref()
        }
    }
}

/// One stack entry (`chart._stacks[key][indexValue]`).
#[derive(Debug, Clone, Default)]
pub struct StackEntry {
    /// Value per dataset index (`_visualValues`).
    pub values: HashMap<usize, Option<f64>>,
    /// The visible datasets among `values`, as (position in
    /// [`ChartData::sorted_visible`], dataset index), in that order: what `applyStack` walks.
    /// A dataset without a value here adds nothing, so walking these instead of every
    /// visible dataset gives the same sums without scanning datasets that have no point at
    /// this index value.
    pub members: Vec<(usize, usize)>,
    /// The value of each of [`StackEntry::members`], in the same order. `applyStack` walks
    /// every earlier member for each data point (datasets² × points: 1,000 stacked datasets of
    /// 250 points took 30 s when each step looked its value up in `values`); read in order,
    /// the same additions in the same order cost a few nanoseconds each.
    pub member_values: Vec<Option<f64>>,
    /// `_top`: last visible dataset with a positive value.
    pub top: Option<usize>,
    /// `_bottom`: last visible dataset with a negative value.
    pub bottom: Option<usize>,
}

/// Chart-wide dataset state shared by controllers and scales.
#[derive(Debug, Clone, Default)]
pub struct ChartData {
    /// Every dataset's meta, by dataset index.
    pub metas: Vec<Meta>,
    /// Visible dataset indices sorted by `(order, index)` (`getSortedVisibleDatasetMetas`).
    pub sorted_visible: Vec<usize>,
    /// Stacks by key then index value bits.
    pub stacks: HashMap<String, HashMap<u64, StackEntry>>,
    /// Scale ids with their axis and `stacked` option, in chart order.
    pub scales: Vec<(String, Axis, Option<Stacked>)>,
    /// `chart.options.indexAxis`.
    pub chart_index_axis: Axis,
    /// `_visualValues` changed by `minBarLength` during updates: (stack key, index value
    /// bits) → value by dataset index (a vector: `applyStack` reads it once per member).
    pub visual: std::cell::RefCell<HashMap<(String, u64), Vec<Option<f64>>>>,
    /// `computeMinSampleSize` of each index scale and bar type, by (scale id, type, the
    /// scale's pixel range and value range bits): Chart.js keeps the sorted values in
    /// `scale._cache.$bar` rather than gathering and sorting every dataset's values again for
    /// each dataset (1,000 bar datasets of 250 points: 1,000 sorts of 250,000 values).
    pub bar_min_size: std::cell::RefCell<HashMap<(String, ChartKind, [u64; 4]), f64>>,
    /// The bar slots (`_getStacks`) of each index scale and bar type, by (scale id, type),
    /// computed on first use: Chart.js walks every grouped dataset again for each dataset,
    /// and with `skipNull` for each data point (see `bar_stacks`).
    pub bar_stacks: std::cell::RefCell<HashMap<(String, ChartKind), bar_stacks::StackSlots>>,
    /// Position of each dataset in `sorted_visible`, by dataset index (set by
    /// [`ChartData::build_stacks`]).
    pub visible_position: Vec<Option<usize>>,
}

fn key_bits(v: Option<f64>) -> u64 {
    v.map(|f| if f == 0.0 { 0 } else { f.to_bits() })
        .unwrap_or(u64::MAX)
}

impl ChartData {
    /// `getStackKey`.
    pub fn stack_key(meta: &Meta) -> String {
        format!(
            "{}.{}.{}",
            meta.i_id().unwrap_or(""),
            meta.v_id().unwrap_or(""),
            meta.stack
                .clone()
                .unwrap_or_else(|| meta.kind.name().to_string())
        )
    }

    /// `updateStacks` for every stacked dataset, then `_top`/`_bottom`.
    pub fn build_stacks(&mut self) {
        self.stacks.clear();
        let order: Vec<usize> = (0..self.metas.len()).collect();
        for i in order {
            let meta = &self.metas[i];
            if meta.stacked.is_none() {
                continue;
            }
            let key = Self::stack_key(meta);
            let iaxis = meta.index_axis;
            let vaxis = meta.v_axis();
            let entries: Vec<(u64, Option<f64>)> = meta
                .parsed
                .iter()
                .map(|p| (key_bits(p.get(iaxis)), p.get(vaxis)))
                .collect();
            let sub = self.stacks.entry(key).or_default();
            for (k, v) in entries {
                sub.entry(k).or_default().values.insert(i, v);
            }
        }
        // Each entry's members in `sorted_visible` order (see `StackEntry::members`).
        let mut position = vec![None; self.metas.len()];
        for (pos, &i) in self.sorted_visible.iter().enumerate() {
            if let Some(slot) = position.get_mut(i) {
                *slot = Some(pos);
            }
        }
        for sub in self.stacks.values_mut() {
            for e in sub.values_mut() {
                e.members = e
                    .values
                    .keys()
                    .filter_map(|&i| Some((position.get(i).copied().flatten()?, i)))
                    .collect();
                e.members.sort_unstable();
                e.member_values = e
                    .members
                    .iter()
                    .map(|&(_, i)| e.values.get(&i).copied().flatten())
                    .collect();
            }
        }
        // getLastIndexInStack: visible metas of the value scale and type, last first. Chart.js
        // sets `_top`/`_bottom` in every dataset's `updateStacks`, so the last stacked dataset
        // of a key decides them: compute them once per key, for that dataset (not once per
        // dataset, which is quadratic in datasets).
        let mut last_of_key: HashMap<String, usize> = HashMap::new();
        for (i, meta) in self.metas.iter().enumerate() {
            if meta.stacked.is_some() {
                last_of_key.insert(Self::stack_key(meta), i);
            }
        }
        for (key, i) in last_of_key {
            let meta = &self.metas[i];
            let candidate: Vec<bool> = self
                .metas
                .iter()
                .map(|m| m.id_for(meta.v_axis()) == meta.v_id() && m.kind == meta.kind)
                .collect();
            if let Some(sub) = self.stacks.get_mut(&key) {
                for e in sub.values_mut() {
                    // The members are the visible datasets with a value here, in sorted
                    // order: the candidates without a value could never be chosen.
                    let last = |positive: bool| {
                        e.members.iter().rev().map(|&(_, j)| j).find(|&j| {
                            candidate.get(j).copied().unwrap_or(false)
                                && e.values.get(&j).copied().flatten().is_some_and(|v| {
                                    if positive {
                                        v > 0.0
                                    } else {
                                        v < 0.0
                                    }
                                })
                        })
                    };
                    e.top = last(true);
                    e.bottom = last(false);
                }
            }
        }
        self.visible_position = position;
    }

    /// The stack entry of a dataset's data point.
    pub fn stack_entry(&self, meta: &Meta, p: &Parsed) -> Option<&StackEntry> {
        self.stacks
            .get(&Self::stack_key(meta))?
            .get(&key_bits(p.get(meta.index_axis)))
    }

    /// `applyStack(stack, value, dsIndex, {mode})`: `None` is `undefined`.
    pub fn apply_stack(&self, meta: &Meta, p: &Parsed, single: bool, all: bool) -> Option<f64> {
        self.apply_stack_inner(meta, p, single, all, false)
    }

    /// `DatasetController.applyStack`: like [`ChartData::apply_stack`] over the stack's
    /// `_visualValues` (what elements are drawn from).
    pub fn apply_stack_visual(&self, meta: &Meta, p: &Parsed, single: bool) -> Option<f64> {
        self.apply_stack_inner(meta, p, single, false, true)
    }

    /// Records a `_visualValues` change (bar `minBarLength`).
    pub fn set_visual(&self, meta: &Meta, p: &Parsed, value: f64) {
        let mut visual = self.visual.borrow_mut();
        let slots = visual
            .entry((Self::stack_key(meta), key_bits(p.get(meta.index_axis))))
            .or_insert_with(|| vec![None; self.metas.len()]);
        if let Some(slot) = slots.get_mut(meta.index) {
            *slot = Some(value);
        }
    }

    fn apply_stack_inner(
        &self,
        meta: &Meta,
        p: &Parsed,
        single: bool,
        all: bool,
        visual: bool,
    ) -> Option<f64> {
        let mut value = p.get(meta.v_axis())?;
        let entry = self.stack_entry(meta, p)?;
        // `applyStack` walks every visible dataset in order and returns 0 when this one is
        // not among them (unless `all`).
        let found = self
            .visible_position
            .get(meta.index)
            .copied()
            .flatten()
            .is_some();
        if !found && !all {
            return Some(0.0);
        }
        let overrides = self.visual.borrow();
        let overrides = if visual && !overrides.is_empty() {
            overrides.get(&(Self::stack_key(meta), key_bits(p.get(meta.index_axis))))
        } else {
            None
        };
        for (&(_, k), &own) in entry.members.iter().zip(&entry.member_values) {
            if k == meta.index {
                if all {
                    continue;
                }
                break;
            }
            let other = match overrides.and_then(|o| o.get(k).copied().flatten()) {
                Some(v) => Some(v),
                None => own,
            };
            if let Some(other) = other {
                if other.is_finite() && (single || value == 0.0 || sign(value) == sign(other)) {
                    value += other;
                }
            }
        }
        Some(value)
    }

    /// `getMinMax(scale, canStack)` of one dataset, bars' floating ranges included.
    pub fn meta_min_max(
        &self,
        meta: &Meta,
        scale_id: &str,
        axis: Axis,
        can_stack: bool,
        other_bounds: (f64, f64),
    ) -> (f64, f64) {
        let other_axis = if axis == Axis::X { Axis::Y } else { Axis::X };
        let stack = can_stack && meta.visible && meta.stacked.is_some();
        let is_v = meta.id_for(axis) == Some(scale_id) && meta.v_axis() == axis;
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        // Without user bounds on the other scale (±∞) no value is outside them: the test
        // is left out of the loop over every point (a NaN compares false either way).
        let bounded = other_bounds != (f64::NEG_INFINITY, f64::INFINITY);
        let stack_v = stack && meta.v_axis() == axis;
        for p in &meta.parsed {
            let Some(v) = p.get(axis).filter(|v| v.is_finite()) else {
                continue;
            };
            if bounded {
                // `otherMin > otherValue`: null compares as 0 in JavaScript.
                let ov = p.get(other_axis).unwrap_or(0.0);
                if other_bounds.0 > ov || other_bounds.1 < ov {
                    continue;
                }
            }
            let mut value = v;
            if stack_v {
                // updateRangeFromParsed calls applyStack without a mode: ranges always use
                // sign-matching stacking, even for `stacked: 'single'`.
                value = self.apply_stack(meta, p, false, false).unwrap_or(f64::NAN);
            }
            min = min.min(value);
            max = max.max(value);
            if is_v {
                if let Some(fb) = p.float_bar {
                    min = min.min(fb.min);
                    max = max.max(fb.max);
                }
            }
        }
        (min, max)
    }
}

fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        v
    }
}

/// Scale data limits: the chart's datasets plus each scale's user bounds.
pub struct Limits<'a> {
    /// Datasets.
    pub data: &'a ChartData,
    /// User bounds per scale id: (min, max) with ±∞ when undefined.
    pub user_bounds: HashMap<String, (f64, f64)>,
}

impl DataLimits for Limits<'_> {
    fn min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64) {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for &i in &self.data.sorted_visible {
            let meta = &self.data.metas[i];
            if meta.id_for(axis) != Some(scale_id) {
                continue;
            }
            let other_axis = if axis == Axis::X { Axis::Y } else { Axis::X };
            let other = meta
                .id_for(other_axis)
                .and_then(|id| self.user_bounds.get(id))
                .copied()
                .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
            let (a, b) = self
                .data
                .meta_min_max(meta, scale_id, axis, can_stack, other);
            min = min.min(a);
            max = max.max(b);
        }
        (min, max)
    }

    fn all_values(&self, scale_id: &str, axis: Axis) -> Vec<f64> {
        let mut out = Vec::new();
        for &i in &self.data.sorted_visible {
            let meta = &self.data.metas[i];
            if meta.id_for(axis) != Some(scale_id) {
                continue;
            }
            out.extend(
                meta.parsed
                    .iter()
                    .filter_map(|p| p.get(axis))
                    .filter(|v| v.is_finite()),
            );
        }
        out
    }
}

/// What a controller needs after layout.
pub struct UpdateCx<'a> {
    /// The scales.
    pub scales: &'a [Scale],
    /// Datasets state.
    pub data: &'a ChartData,
    /// Chart area.
    pub area: Area,
    /// Device pixel ratio.
    pub dpr: f64,
    /// Every dataset, resolved (ring weights and rotations of the other doughnut datasets).
    pub datasets: &'a [chart_spec::model::Dataset],
    /// The render's stop signal: loops over user data poll it and stop early once it fires.
    pub cancel: &'a chart_spec::Cancel,
    /// The render's budgets (the engine's [`chart_spec::Limits`]): controllers cut input at
    /// them.
    pub limits: &'a chart_spec::Limits,
    /// Text measuring (the word cloud places its words by their shapes).
    pub text: &'a crate::text::TextEngine,
}

impl UpdateCx<'_> {
    /// A scale by id.
    pub fn scale(&self, id: Option<&str>) -> Option<&Scale> {
        let id = id?;
        self.scales.iter().find(|s| s.core.id() == id)
    }
}

/// The point options of a dataset at index `i` (the last one for shorter lists).
pub fn point_options(ds: &Dataset, i: usize) -> Option<&chart_spec::model::PointOptions> {
    match ds.kind.elements() {
        chart_spec::model::Elements::Point(p) => Some(p.at(i)),
        _ => None,
    }
}

/// The arc options of a dataset at index `i` (the last one for shorter lists).
pub fn arc_options(ds: &Dataset, i: usize) -> Option<&chart_spec::model::ArcOptions> {
    match ds.kind.elements() {
        chart_spec::model::Elements::Arc(a) => Some(a.at(i)),
        _ => None,
    }
}

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

/// A scale of the chart that a plugin's controller lays out, and that draws itself if it
/// draws (chartjs-chart-geo's colour and size scales: their legends; its projection scale
/// draws nothing), handed over after the update.
pub struct PluginScale {
    /// What Chart.js reports as `chart.scales[id]` after its layout, in place of the hidden
    /// scale that stands for it in the chart's layout.
    pub layout: crate::layout::ScaleLayout,
    /// `ticks.z`: the z of the scale's one layer in the chart's draw order.
    pub z: f64,
    /// The scale's drawing, at that place (`None`: it draws nothing).
    pub drawing: Option<Box<dyn crate::scales::ScaleDrawing>>,
}

/// A dataset controller.
pub trait Controller {
    /// Parses the dataset's data into `meta.parsed` with the scales' `parse`.
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]);
    /// `getMaxOverflow()`: `None` is `false`.
    fn max_overflow(&self, _ds: &Dataset, _meta: &Meta) -> Option<f64> {
        None
    }
    /// `getMaxOverflow()` as the first update sees it, before layout (`autoPadding`): the
    /// line element has no options yet then, so its border does not count.
    fn layout_overflow(&self, ds: &Dataset, meta: &Meta) -> Option<f64> {
        self.max_overflow(ds, meta)
    }
    /// Computes element geometry (`update('none')`).
    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>);
    /// The dataset's elements as the draw reads them (`meta.data`, `meta.dataset`), taken
    /// once after `update`: the drawing asks the controller nothing more.
    fn elements<'a>(&mut self, ds: &'a Dataset, meta: &Meta) -> DatasetElements<'a>;
    /// The legend style.
    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle;
    /// Messages of `parse` (e.g. input cut at a budget), taken once.
    fn take_messages(&mut self) -> Vec<chart_spec::Message> {
        Vec::new()
    }
    /// The scales this controller laid out for the chart (see [`PluginScale`]), taken once
    /// after `update`; the first controller to hand over a scale is the one kept.
    fn plugin_scales(&mut self) -> Vec<PluginScale> {
        Vec::new()
    }
}

/// The controller for a dataset type (every registered type has one), keeping to the
/// render's `limits`.
pub fn create(kind: ChartKind, limits: &chart_spec::Limits) -> Box<dyn Controller> {
    match kind {
        ChartKind::Bar => Box::new(bar::BarController::default()),
        ChartKind::Line => Box::new(line::LineController::new(false)),
        ChartKind::Scatter => Box::new(line::LineController::new(true)),
        ChartKind::Bubble => Box::new(bubble::BubbleController::default()),
        ChartKind::Doughnut | ChartKind::Pie => Box::new(doughnut::DoughnutController::default()),
        ChartKind::PolarArea => Box::new(polar_area::PolarAreaController::default()),
        ChartKind::Radar => Box::new(radar::RadarController::default()),
        ChartKind::Matrix => Box::new(matrix::MatrixController::default()),
        ChartKind::Treemap => Box::new(treemap::TreemapController::new(limits)),
        ChartKind::Sankey => Box::new(sankey::SankeyController::new(limits)),
        ChartKind::Venn | ChartKind::Euler => Box::new(venn::VennController::default()),
        ChartKind::Choropleth | ChartKind::BubbleMap => Box::new(geo::GeoController::default()),
        ChartKind::WordCloud => Box::new(word_cloud::WordCloudController::default()),
        ChartKind::Tree
        | ChartKind::Dendrogram
        | ChartKind::Dendogram
        | ChartKind::Graph
        | ChartKind::ForceDirectedGraph => Box::new(graph_tree::GraphTreeController::new(limits)),
    }
}

fn scale_mut<'a>(scales: &'a mut [Scale], id: Option<&str>) -> Option<&'a mut Scale> {
    let id = id?;
    scales.iter_mut().find(|s| s.core.id() == id)
}

/// The position in `scales` of the scale of id `id`, once for a dataset's values rather
/// than per value ([`parse_at`]).
fn scale_index(scales: &[Scale], id: Option<&str>) -> Option<usize> {
    let id = id?;
    scales.iter().position(|s| s.core.id() == id)
}

/// [`parse_on`] with the scale found by [`scale_index`].
fn parse_at(scales: &mut [Scale], at: Option<usize>, raw: &Raw, index: usize) -> Option<f64> {
    match at.and_then(|k| scales.get_mut(k)) {
        Some(s) => s.kind.parse(&s.core, raw, Some(index)),
        None => crate::scales::linear::parse_linear(raw),
    }
}

/// `scale.parse(raw, index)`, or `+raw`-like parsing when the scale is missing.
pub fn parse_on(
    scales: &mut [Scale],
    id: Option<&str>,
    raw: &Raw,
    index: Option<usize>,
) -> Option<f64> {
    match scale_mut(scales, id) {
        // Disjoint borrows: no copy of the scale state per data value (10,000-point series).
        Some(s) => s.kind.parse(&s.core, raw, index),
        None => crate::scales::linear::parse_linear(raw),
    }
}

/// The labels an index scale parses against (`iScale.getLabels()`), as far as a dataset of
/// `points` entries reads them (entry `i` reads label `i`). Only that prefix is copied:
/// copying every label for every dataset was datasets × labels work.
pub fn scale_labels(
    scales: &[Scale],
    id: Option<&str>,
    chart_labels: &[Raw],
    points: usize,
) -> Vec<Raw> {
    let prefix = |l: &[Raw]| l[..l.len().min(points)].to_vec();
    id.and_then(|id| scales.iter().find(|s| s.core.id() == id))
        .and_then(|s| {
            s.kind
                .labels()
                .map(prefix)
                .or_else(|| s.core.opts.labels.as_deref().map(prefix))
        })
        .unwrap_or_else(|| prefix(chart_labels))
}

fn raw_num(r: &Raw) -> Option<f64> {
    match r {
        Raw::Null | Raw::Undefined => None,
        Raw::Num(n) => Some(*n),
        other => crate::scales::linear::parse_linear(other),
    }
}

/// `DatasetController.parse` with the default `parsePrimitiveData`, `parseArrayData` and
/// `parseObjectData` (line, scatter, bubble).
pub fn parse_default(ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
    let iaxis = meta.index_axis;
    let vaxis = meta.v_axis();
    let (iid, vid) = (meta.i_id().map(String::from), meta.v_id().map(String::from));
    let (xid, yid) = (meta.x_id.clone(), meta.y_id.clone());
    let labels = scale_labels(scales, iid.as_deref(), chart_labels, ds.data.len());
    let single = iid == vid;
    // Each scale is found once for the dataset, not once per value, and values are parsed
    // where they are, not copied.
    let (xs, ys) = (
        scale_index(scales, xid.as_deref()),
        scale_index(scales, yid.as_deref()),
    );
    let (is, vs) = (
        scale_index(scales, iid.as_deref()),
        scale_index(scales, vid.as_deref()),
    );
    let (object, undefined) = (Raw::Object, Raw::Undefined);
    meta.parsed.clear();
    meta.parsed.reserve_exact(ds.data.len());
    // The shape of the first entry decides the parser, as in Chart.js.
    let first = ds.data.first();
    for (i, d) in ds.data.iter().enumerate() {
        let mut p = Parsed::default();
        if !ds.parsing {
            if let Datum::Object { x, y, .. } = d {
                p.x = raw_num(x);
                p.y = raw_num(y);
            }
            meta.parsed.push(p);
            continue;
        }
        match (first, d) {
            (Some(Datum::Array(_)), Datum::Array(a)) => {
                let a0 = a.first().cloned().unwrap_or(Raw::Undefined);
                let a1 = a.get(1).cloned().unwrap_or(Raw::Undefined);
                p.x = parse_at(scales, xs, &a0, i);
                p.y = parse_at(scales, ys, &a1, i);
            }
            (Some(Datum::Object { .. }), Datum::Object { x, y, .. }) => {
                p.x = parse_at(scales, xs, x, i);
                p.y = parse_at(scales, ys, y, i);
            }
            (Some(Datum::Array(_)), _) | (Some(Datum::Object { .. }), _) => {
                // A different shape than the first entry: Chart.js reads missing keys.
                p.x = None;
                p.y = None;
            }
            (_, d) => {
                let raw = match d {
                    Datum::Primitive(r) => r,
                    _ => &object,
                };
                let label = labels.get(i).unwrap_or(&undefined);
                let iv = if single {
                    Some(1.0)
                } else {
                    parse_at(scales, is, label, i)
                };
                p.set(iaxis, iv);
                p.set(vaxis, parse_at(scales, vs, raw, i));
            }
        }
        meta.parsed.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dataset copies only the labels its entries read: with 1,000 datasets of 12 points
    /// over 30,000 labels, copying them all was 30 million string copies.
    #[test]
    fn a_dataset_copies_only_the_labels_it_reads() {
        let labels: Vec<Raw> = (0..30_000).map(|i| Raw::Num(f64::from(i))).collect();
        let read = scale_labels(&[], None, &labels, 12);
        assert_eq!(read.len(), 12);
        assert!(matches!(read[11], Raw::Num(n) if n == 11.0));
        assert_eq!(scale_labels(&[], None, &labels[..5], 12).len(), 5);
    }
}
