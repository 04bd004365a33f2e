//! Scales: the shared `Scale` machinery of core.scale and one [`ScaleType`] per scale type.
//!
//! The machinery is cut by stage: this file holds the scale's state, its data limits and
//! its value ↔ pixel mapping; `fit` sizes the box during layout (`update`, label sizes and
//! rotation, `fit`); `autoskip` thins the ticks that do not fit (`autoSkip`); `draw`
//! turns the laid-out scale into grid, border, title and label items.
//!
//! # Adding a scale type
//! 1. Add its defaults in `chart_spec::defaults` (`scale_type` table) so the type is
//!    registered and its option defaults resolve.
//! 2. Write a module here with a struct implementing [`ScaleType`]: `parse` (raw data →
//!    number), `determine_data_limits` (sets `core.min`/`core.max` from the
//!    [`DataLimits`]), `build_ticks`, `tick_label`, `configure` (after the base
//!    `configure`), `pixel_for_value`/`value_for_pixel`. Override `fit`/`draw` (return
//!    `true`) for scales that are not boxes along an edge (radial scales).
//! 3. Add it to [`create`].
//!
//! Geometry is `f64` like JavaScript; everything mirrors the Chart.js method of the same name.

mod autoskip;
pub mod category;
mod draw;
mod fit;
pub mod linear;
pub mod log;
pub mod radial_draw;
pub mod radial_geometry;
pub mod radial_linear;
pub mod tick_budget;
pub mod ticks;
pub mod time;

use crate::elements::align_pixel;
use crate::text::TextEngine;
use chart_spec::model::{Axis, Position, Raw, ScaleOptions, ScaleTypeOptions};
use chart_spec::values::Sides;

pub use draw::{LaidOutScale, OwnDrawing, ScaleDrawing};
pub use fit::LabelSizes;

/// A tick: a value and its label lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// The tick value (index for category scales).
    pub value: f64,
    /// Label lines; `None` drops the tick (`isNullOrUndef(label)`).
    pub label: Option<Vec<String>>,
    /// Major tick (time scales).
    pub major: bool,
}

impl Tick {
    /// A tick without label yet.
    pub fn new(value: f64) -> Self {
        Self {
            value,
            label: None,
            major: false,
        }
    }
}

/// Data limits a scale can ask the chart for (`getMinMax` over its datasets).
pub trait DataLimits {
    /// `getMinMax(canStack)` of the datasets bound to `scale_id`.
    fn min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64);
    /// Every parsed value of the datasets bound to the scale (time scales).
    fn all_values(&self, scale_id: &str, axis: Axis) -> Vec<f64>;
    /// `getMinMax` of the datasets alone, before a plugin's `afterDataLimits` widening
    /// ([`DataLimits::min_max`] includes it).
    fn datasets_min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64) {
        self.min_max(scale_id, axis, can_stack)
    }
    /// The `(min, max)` a plugin's `afterDataLimits` widens the scale to
    /// (chartjs-plugin-annotation's `adjustScaleRange`), if any.
    fn after_data_limits(&self, _scale_id: &str) -> Option<(f64, f64)> {
        None
    }
}

/// Behaviour of one scale type. `core` holds the shared state of core.scale.
pub trait ScaleType {
    /// `parse(raw, index)`: a data value to a number (`None` for null).
    fn parse(&mut self, core: &ScaleCore, raw: &Raw, index: Option<usize>) -> Option<f64>;
    /// `determineDataLimits`: sets `core.min`, `core.max`.
    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits);
    /// `buildTicks`.
    fn build_ticks(&mut self, core: &mut ScaleCore, text: &TextEngine) -> Vec<Tick>;
    /// `ticks.callback` (the default formatter of the type).
    fn tick_label(&self, core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>>;
    /// `configure`, called after the base configure.
    fn configure(&mut self, core: &mut ScaleCore);
    /// `getPixelForValue`.
    fn pixel_for_value(&self, core: &ScaleCore, value: f64) -> f64;
    /// `getValueForPixel`.
    fn value_for_pixel(&self, core: &ScaleCore, pixel: f64) -> f64;
    /// `getBasePixel`.
    fn base_pixel(&self, core: &ScaleCore) -> f64 {
        self.pixel_for_value(core, core.base_value())
    }
    /// `getLabelForValue`.
    #[expect(
        dead_code,
        reason = "Chart.js's tooltip text; no drawn element reads it yet, every scale keeps it"
    )]
    fn label_for_value(&self, core: &ScaleCore, value: f64) -> String;
    /// Category labels, when the scale has them.
    fn labels(&self) -> Option<&[Raw]> {
        None
    }
    /// The radial geometry of a `radialLinear` scale.
    fn radial(&self) -> Option<&radial_geometry::RadialGeometry> {
        None
    }
    /// Replaces [`Scale::update`] for scales laid out in the chart area (radial); true when
    /// it did.
    fn update_custom(&mut self, _core: &mut ScaleCore, _text: &TextEngine) -> bool {
        false
    }
    /// Whether the default tick callback formats numbers with `Intl.NumberFormat` and
    /// `ticks.format` (`Ticks.formatters.numeric`: linear, logarithmic, radialLinear).
    fn formats_numbers(&self) -> bool {
        false
    }
    /// What replaces the shared drawing ([`LaidOutScale::draw_layer`]) for scales laid out
    /// in the chart area (radial).
    fn drawing(&self) -> Option<radial_linear::RadialDrawing> {
        None
    }
}

/// Creates the scale of `opts.kind`'s type (every registered type has one).
pub fn create(opts: &ScaleOptions, labels: &[Raw]) -> Box<dyn ScaleType> {
    match &opts.kind {
        ScaleTypeOptions::Category => Box::new(category::CategoryScale::new(
            opts.labels.clone().unwrap_or_else(|| labels.to_vec()),
        )),
        ScaleTypeOptions::Linear => Box::new(linear::LinearScale::default()),
        ScaleTypeOptions::Logarithmic => Box::new(log::LogScale::default()),
        ScaleTypeOptions::Time(_) => Box::new(time::TimeScale::new(opts, labels.to_vec(), false)),
        ScaleTypeOptions::TimeSeries(_) => {
            Box::new(time::TimeScale::new(opts, labels.to_vec(), true))
        }
        ScaleTypeOptions::RadialLinear(_) => {
            Box::new(radial_linear::RadialLinearScale::new(labels.to_vec()))
        }
    }
}

/// The shared state of a Chart.js `Scale`.
#[derive(Debug, Clone)]
pub struct ScaleCore {
    /// Resolved options.
    pub opts: ScaleOptions,
    /// Left edge.
    pub left: f64,
    /// Top edge.
    pub top: f64,
    /// Right edge.
    pub right: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// `maxWidth` given by the layout.
    pub max_width: f64,
    /// `maxHeight` given by the layout.
    pub max_height: f64,
    /// `_margins`.
    pub margins: Sides,
    /// `paddingLeft/Top/Right/Bottom`.
    pub padding: Sides,
    /// `labelRotation`, degrees.
    pub label_rotation: f64,
    /// Data minimum.
    pub min: f64,
    /// Data maximum.
    pub max: f64,
    /// `_range` after grace.
    pub range: (f64, f64),
    /// Ticks.
    pub ticks: Vec<Tick>,
    /// `_startPixel`.
    pub start_pixel: f64,
    /// `_endPixel`.
    pub end_pixel: f64,
    /// `_reversePixels`.
    pub reverse_pixels: bool,
    /// `_length`.
    pub length: f64,
    /// `_maxLength`.
    pub max_length: f64,
    /// `_userMin` etc. parsed.
    pub user_min: Option<f64>,
    /// `_userMax`.
    pub user_max: Option<f64>,
    /// `_suggestedMin`.
    pub suggested_min: Option<f64>,
    /// `_suggestedMax`.
    pub suggested_max: Option<f64>,
    /// `_isVisible()`.
    pub visible: bool,
    /// Chart canvas width.
    pub chart_width: f64,
    /// Chart canvas height.
    pub chart_height: f64,
    /// Device pixel ratio.
    pub dpr: f64,
    /// `_borderValue`.
    pub border_value: f64,
    label_sizes: Option<std::rc::Rc<LabelSizes>>,
    /// `start` of linear scales (after reverse).
    pub start: f64,
    /// `end`.
    pub end: f64,
    /// The exception Chart.js throws out of this scale's `update` (a `RangeError` of
    /// `Intl.NumberFormat`, time ticks too far apart): the chart then fails to build, and
    /// the message is reported as the browser reports it (`error.message`).
    pub thrown: Option<String>,
    /// What Chart.js `console.warn`s while updating this scale, each once.
    pub warnings: Vec<String>,
    /// The render's stop signal: the loops over ticks and labels end early once it fires
    /// (the scene is discarded then).
    pub cancel: chart_spec::Cancel,
    /// The ticks and labels all the render's scales may hold (`MAX_TOTAL_TICKS`), shared.
    pub budget: std::rc::Rc<tick_budget::TickBudget>,
    /// What this scale has charged to `budget`.
    ticks_counted: usize,
}

impl ScaleCore {
    /// The render was cancelled, or its scales went over their tick budget: stop working on
    /// this scale.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_cancelled() || self.budget.is_over()
    }

    /// Charges `n` ticks or labels held by this scale to the render's tick budget (its
    /// largest need counts, once); false when the scales need more than the budget, and
    /// the scale then stops.
    pub fn charge_ticks(&mut self, n: usize) -> bool {
        self.budget.charge(&mut self.ticks_counted, n)
    }

    /// Records a `console.warn` once (layout updates a scale several times).
    pub fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }
}

/// A scale: shared state and its type.
pub struct Scale {
    /// Shared state.
    pub core: ScaleCore,
    /// The type's behaviour.
    pub kind: Box<dyn ScaleType>,
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

impl ScaleCore {
    /// A fresh scale for the chart size.
    pub fn new(opts: ScaleOptions, chart_width: f64, chart_height: f64, dpr: f64) -> Self {
        Self {
            opts,
            left: 0.0,
            top: 0.0,
            right: 0.0,
            bottom: 0.0,
            width: 0.0,
            height: 0.0,
            max_width: 0.0,
            max_height: 0.0,
            margins: Sides::default(),
            padding: Sides::default(),
            label_rotation: 0.0,
            min: 0.0,
            max: 0.0,
            range: (0.0, 0.0),
            ticks: Vec::new(),
            start_pixel: 0.0,
            end_pixel: 0.0,
            reverse_pixels: false,
            length: 0.0,
            max_length: 0.0,
            user_min: None,
            user_max: None,
            suggested_min: None,
            suggested_max: None,
            visible: true,
            chart_width,
            chart_height,
            dpr,
            border_value: 0.0,
            label_sizes: None,
            start: 0.0,
            end: 0.0,
            thrown: None,
            warnings: Vec::new(),
            cancel: chart_spec::Cancel::new(),
            budget: std::rc::Rc::default(),
            ticks_counted: 0,
        }
    }

    /// `id`.
    pub fn id(&self) -> &str {
        &self.opts.id
    }

    /// `axis`.
    pub fn axis(&self) -> Axis {
        self.opts.axis
    }

    /// `isHorizontal()`.
    pub fn is_horizontal(&self) -> bool {
        matches!(self.opts.position, Position::Top | Position::Bottom) || self.opts.axis == Axis::X
    }

    /// `getUserBounds()`: (min, max, minDefined, maxDefined).
    pub fn user_bounds(&self) -> (f64, f64, bool, bool) {
        let umin = finite(self.user_min);
        let umax = finite(self.user_max);
        let smin = finite(self.suggested_min);
        let smax = finite(self.suggested_max);
        let min = umin.or(smin).unwrap_or(f64::INFINITY);
        let max = umax.or(smax).unwrap_or(f64::NEG_INFINITY);
        (min, max, umin.is_some(), umax.is_some())
    }

    /// `getMinMax(canStack)` with the user bounds applied.
    pub fn get_min_max(&self, data: &dyn DataLimits, can_stack: bool) -> (f64, f64) {
        self.min_max_of(|| data.min_max(self.id(), self.axis(), can_stack))
    }

    /// [`ScaleCore::get_min_max`] over the datasets alone, before any plugin's
    /// `afterDataLimits` widening ([`DataLimits::datasets_min_max`]).
    pub fn get_datasets_min_max(&self, data: &dyn DataLimits, can_stack: bool) -> (f64, f64) {
        self.min_max_of(|| data.datasets_min_max(self.id(), self.axis(), can_stack))
    }

    fn min_max_of(&self, data_min_max: impl FnOnce() -> (f64, f64)) -> (f64, f64) {
        let (mut min, mut max, min_def, max_def) = self.user_bounds();
        if min_def && max_def {
            return (min, max);
        }
        let (dmin, dmax) = data_min_max();
        if !min_def {
            min = min.min(dmin);
        }
        if !max_def {
            max = max.max(dmax);
        }
        if max_def && min > max {
            min = max;
        }
        if min_def && min > max {
            max = min;
        }
        let fmin = if min.is_finite() {
            min
        } else if max.is_finite() {
            max
        } else {
            min
        };
        let fmax = if max.is_finite() {
            max
        } else if min.is_finite() {
            min
        } else {
            max
        };
        (fmin, fmax)
    }

    /// `getBaseValue()`.
    pub fn base_value(&self) -> f64 {
        let (min, max) = (self.min, self.max);
        if min < 0.0 && max < 0.0 {
            max
        } else if min > 0.0 && max > 0.0 {
            min
        } else {
            0.0
        }
    }

    /// `getPixelForDecimal`.
    pub fn pixel_for_decimal(&self, decimal: f64) -> f64 {
        let d = if self.reverse_pixels {
            1.0 - decimal
        } else {
            decimal
        };
        let pixel = self.start_pixel + d * self.length;
        let pixel = if self.opts.align_to_pixels {
            align_pixel(self.dpr, pixel, 0.0)
        } else {
            pixel
        };
        // _int16Range
        pixel.clamp(-32768.0, 32767.0)
    }

    /// `getDecimalForPixel`.
    pub fn decimal_for_pixel(&self, pixel: f64) -> f64 {
        let d = (pixel - self.start_pixel) / self.length;
        if self.reverse_pixels {
            1.0 - d
        } else {
            d
        }
    }
}

impl Scale {
    /// A scale of a registered type.
    pub fn new(core: ScaleCore, kind: Box<dyn ScaleType>) -> Self {
        Self { core, kind }
    }

    /// `init`: parses the user bounds.
    pub fn init(&mut self) {
        let o = self.core.opts.clone();
        self.core.user_min = self.kind.parse(&self.core, &o.min, None);
        self.core.user_max = self.kind.parse(&self.core, &o.max, None);
        self.core.suggested_min = self.kind.parse(&self.core, &o.suggested_min, None);
        self.core.suggested_max = self.kind.parse(&self.core, &o.suggested_max, None);
    }

    /// `determineDataLimits` + `_addGrace`, done once before layout (`_dataLimitsCached`).
    pub fn data_limits(&mut self, data: &dyn DataLimits) {
        self.kind.determine_data_limits(&mut self.core, data);
        let (min, max) = (self.core.min, self.core.max);
        let change = match self.core.opts.grace {
            chart_spec::model::Grace::Value(v) => v,
            chart_spec::model::Grace::Percent(p) => p * (max - min) / 2.0,
        };
        let bz = self.core.opts.begin_at_zero;
        let keep = |v: f64, add: f64| if bz && v == 0.0 { 0.0 } else { v + add };
        self.core.range = (keep(min, -change.abs()), keep(max, change));
    }

    /// `getPixelForValue`.
    pub fn pixel_for_value(&self, v: f64) -> f64 {
        self.kind.pixel_for_value(&self.core, v)
    }

    /// `getPixelForTick`.
    pub fn pixel_for_tick(&self, index: usize) -> f64 {
        match self.core.ticks.get(index) {
            Some(t) => self.pixel_for_value(t.value),
            None => f64::NAN,
        }
    }

    /// `getBasePixel`.
    pub fn base_pixel(&self) -> f64 {
        self.kind.base_pixel(&self.core)
    }

    /// `configure()`.
    pub fn configure(&mut self) {
        let c = &mut self.core;
        let mut reverse = c.opts.reverse;
        let (start, end) = if c.is_horizontal() {
            (c.left, c.right)
        } else {
            reverse = !reverse;
            (c.top, c.bottom)
        };
        c.start_pixel = start;
        c.end_pixel = end;
        c.reverse_pixels = reverse;
        c.length = end - start;
        self.kind.configure(&mut self.core);
    }
}

impl Scale {
    /// What the drawing reads of scale `index` of `scales` once the update is done (state,
    /// tick pixels, the pixel of a `position: {id: value}`), so that drawing never calls
    /// back into the scale's type.
    pub fn laid_out(scales: &[Scale], index: usize) -> LaidOutScale {
        let me = &scales[index];
        // `position: {id: value}`: the pixel of `value` on the other scale `id`
        // (`chart.scales[id].getPixelForValue(value)`).
        let position_pixel = match &me.core.opts.position {
            Position::AtValue(id, v) => scales
                .iter()
                .enumerate()
                .find(|(j, s)| *j != index && s.core.id() == id)
                .map(|(_, s)| s.pixel_for_value(*v)),
            _ => None,
        };
        LaidOutScale::new(
            me.core.clone(),
            (0..me.core.ticks.len())
                .map(|i| me.pixel_for_tick(i))
                .collect(),
            position_pixel,
            me.kind.drawing(),
        )
    }
}

/// One drawable part of a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaleLayer {
    /// Background, grid lines and title (z = `grid.z`, default -1).
    Grid,
    /// Axis line (z = `border.z`, default 0).
    Border,
    /// Tick labels (z = `ticks.z`, default 0).
    Labels,
}
