//! Scales: the shared `Scale` machinery of core.scale (update, fit, label rotation, auto-skip,
//! grid and label items, drawing) and one [`ScaleType`] per scale type.
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

pub mod category;
pub mod linear;
pub mod log;
pub mod radial_draw;
pub mod radial_geometry;
pub mod radial_linear;
pub mod ticks;
pub mod time;

use crate::elements::{align_pixel, render_text, Area, Ctx, StrokeStyle, TextOpts, P};
use crate::scene::{TextAlign, TextBaseline};
use crate::text::TextEngine;
use chart_spec::model::{Align, Axis, CrossAlign, Position, Raw, ScaleOptions};
use chart_spec::values::Font;
use std::f64::consts::FRAC_PI_2;

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
    /// Replaces [`Scale::draw_layer`] (radial); true when it did.
    fn draw_custom(&mut self, _core: &ScaleCore, _layer: ScaleLayer, _ctx: &mut Ctx<'_>) -> bool {
        false
    }
}

/// Creates the scale type for `kind`; `None` when not registered.
pub fn create(opts: &ScaleOptions, labels: &[Raw]) -> Option<Box<dyn ScaleType>> {
    match opts.kind.as_str() {
        "category" => Some(Box::new(category::CategoryScale::new(
            opts.labels.clone().unwrap_or_else(|| labels.to_vec()),
        ))),
        "linear" => Some(Box::new(linear::LinearScale::default())),
        "logarithmic" => Some(Box::new(log::LogScale::default())),
        "time" | "timeseries" => Some(Box::new(time::TimeScale::new(
            opts,
            labels.to_vec(),
            opts.kind == "timeseries",
        ))),
        "radialLinear" => Some(Box::new(radial_linear::RadialLinearScale::new(
            labels.to_vec(),
        ))),
        _ => None,
    }
}

/// Measured label sizes (`_computeLabelSizes`).
#[derive(Debug, Clone, Default)]
pub struct LabelSizes {
    /// First label (w, h).
    pub first: (f64, f64),
    /// Last label.
    pub last: (f64, f64),
    /// Widest label.
    pub widest: (f64, f64),
    /// Highest label.
    pub highest: (f64, f64),
    /// Every measured width.
    pub widths: Vec<f64>,
    /// Every measured height.
    pub heights: Vec<f64>,
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
    pub margins: [f64; 4],
    /// `paddingLeft/Top/Right/Bottom`.
    pub padding: [f64; 4],
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
    /// The chart's `options.font` (fallback of `getTitleHeight`).
    pub chart_font: Font,
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
}

impl ScaleCore {
    /// The render was cancelled: stop working on this scale.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
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
    pub fn new(
        opts: ScaleOptions,
        chart_width: f64,
        chart_height: f64,
        dpr: f64,
        chart_font: Font,
    ) -> Self {
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
            margins: [0.0; 4],
            padding: [0.0; 4],
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
            chart_font,
            border_value: 0.0,
            label_sizes: None,
            start: 0.0,
            end: 0.0,
            thrown: None,
            warnings: Vec::new(),
            cancel: chart_spec::Cancel::new(),
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
        let (mut min, mut max, min_def, max_def) = self.user_bounds();
        if min_def && max_def {
            return (min, max);
        }
        let (dmin, dmax) = data.min_max(self.id(), self.axis(), can_stack);
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

    /// `_tickSize()`.
    fn tick_size(&mut self, text: &TextEngine) -> f64 {
        let rot = self.label_rotation.to_radians();
        let cos = libm::cos(rot).abs();
        let sin = libm::sin(rot).abs();
        let pad = self.opts.ticks.auto_skip_padding;
        let ls = self.label_sizes(text);
        let w = ls.widest.0 + pad;
        let h = ls.highest.1 + pad;
        if self.is_horizontal() {
            if h * cos > w * sin {
                w / cos
            } else {
                h / sin
            }
        } else if h * sin < w * cos {
            h / cos
        } else {
            w / sin
        }
    }

    /// The font of tick `i`.
    pub fn tick_font(&self, i: usize) -> Font {
        self.opts.ticks.font.at(i)
    }

    /// `_getLabelSizes()` (cached).
    pub fn label_sizes(&mut self, text: &TextEngine) -> std::rc::Rc<LabelSizes> {
        if let Some(ls) = &self.label_sizes {
            return ls.clone();
        }
        let ticks: Vec<Tick> = match self.opts.ticks.sample_size {
            Some(n) if (n as usize) < self.ticks.len() => sample(&self.ticks, n as usize),
            _ => self.ticks.clone(),
        };
        let ls = std::rc::Rc::new(self.compute_label_sizes(&ticks, text));
        self.label_sizes = Some(ls.clone());
        ls
    }

    fn compute_label_sizes(&self, ticks: &[Tick], text: &TextEngine) -> LabelSizes {
        let length = ticks.len();
        let limit = ticks_limit(length, self.opts.ticks.max_ticks_limit);
        let increment = length.checked_div(limit).unwrap_or(1).max(1);
        let mut widths = Vec::new();
        let mut heights = Vec::new();
        let (mut widest, mut highest) = (0.0f64, 0.0f64);
        let mut i = 0;
        while i < length {
            if widths.len() % 1024 == 1023 && self.cancelled() {
                break;
            }
            let font = self.tick_font(i);
            let (mut w, mut h) = (0.0f64, 0.0f64);
            if let Some(lines) = &ticks[i].label {
                for l in lines {
                    w = w.max(f64::from(text.measure(&font.spec, l)));
                    h += font.line_height;
                }
            }
            widths.push(w);
            heights.push(h);
            widest = widest.max(w);
            highest = highest.max(h);
            i += increment;
        }
        let at = |idx: Option<usize>| -> (f64, f64) {
            match idx {
                Some(i) => (
                    widths.get(i).copied().unwrap_or(0.0),
                    heights.get(i).copied().unwrap_or(0.0),
                ),
                None => (0.0, 0.0),
            }
        };
        let wi = widths.iter().position(|w| *w == widest);
        let hi = heights.iter().position(|h| *h == highest);
        LabelSizes {
            first: at(Some(0)),
            last: at(length.checked_sub(1)),
            widest: at(wi),
            highest: at(hi),
            widths,
            heights,
        }
    }

    fn title_height(&self, font: &Font) -> f64 {
        let t = &self.opts.title;
        if !t.display {
            return 0.0;
        }
        t.text.len() as f64 * font.line_height + t.padding.height()
    }

    fn tick_mark_length(&self) -> f64 {
        if self.opts.grid.draw_ticks {
            self.opts.grid.tick_length
        } else {
            0.0
        }
    }
}

/// `getTicksLimit`.
fn ticks_limit(len: usize, max_ticks_limit: Option<f64>) -> usize {
    match max_ticks_limit {
        Some(m) if m > 0.0 => (m as usize).min(len),
        _ => len,
    }
}

/// `sample(arr, numItems)`.
fn sample(arr: &[Tick], n: usize) -> Vec<Tick> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let inc = arr.len() as f64 / n as f64;
    let mut i = 0.0;
    while i < arr.len() as f64 {
        out.push(arr[i.floor() as usize].clone());
        i += inc;
    }
    out
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

    /// `update(maxWidth, maxHeight, margins)` of core.scale.
    pub fn update(
        &mut self,
        max_width: f64,
        max_height: f64,
        margins: [f64; 4],
        text: &TextEngine,
    ) {
        let c = &mut self.core;
        c.max_width = max_width;
        c.max_height = max_height;
        c.margins = margins;
        c.ticks.clear();
        c.label_sizes = None;
        // `new Intl.NumberFormat(locale, ticks.format)` throws in the first label's
        // formatting, which ends the chart's update.
        if self.kind.formats_numbers() {
            if let Err(e) = ticks::check_format(&self.core.opts.ticks.format) {
                self.core.thrown = Some(e);
                return;
            }
        }
        if self.kind.update_custom(&mut self.core, text) {
            return;
        }
        let c = &mut self.core;
        // setDimensions
        if c.is_horizontal() {
            c.width = c.max_width;
            c.left = 0.0;
            c.right = c.width;
        } else {
            c.height = c.max_height;
            c.top = 0.0;
            c.bottom = c.height;
        }
        c.padding = [0.0; 4];
        c.max_length = if c.is_horizontal() {
            c.width + margins[0] + margins[2]
        } else {
            c.height + margins[1] + margins[3]
        };
        let ticks = self.kind.build_ticks(&mut self.core, text);
        self.core.ticks = ticks;
        let sample_size = self.core.opts.ticks.sample_size;
        let sampling = matches!(sample_size, Some(n) if (n as usize) < self.core.ticks.len());
        // Each step below walks every tick (a category scale has one per label): a
        // cancelled render stops between them, and inside the longest.
        if self.core.cancelled() {
            return;
        }
        self.convert_ticks_to_labels();
        self.configure();
        self.calculate_label_rotation(text);
        if self.core.cancelled() {
            return;
        }
        let t = &self.core.opts.ticks;
        if t.display && t.auto_skip {
            let ticks = self.auto_skip(text);
            self.core.ticks = ticks;
            self.core.label_sizes = None;
        }
        if sampling {
            self.convert_ticks_to_labels();
        }
        if self.core.cancelled() {
            return;
        }
        self.fit(text);
    }

    fn convert_ticks_to_labels(&mut self) {
        let ticks = std::mem::take(&mut self.core.ticks);
        let mut out = Vec::with_capacity(ticks.len());
        for i in 0..ticks.len() {
            if i % 1024 == 1023 && self.core.cancelled() {
                break;
            }
            let mut t = ticks[i].clone();
            t.label = self.kind.tick_label(&self.core, i, &ticks);
            if t.label.is_some() {
                out.push(t);
            }
        }
        self.core.ticks = out;
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

    fn calculate_label_rotation(&mut self, text: &TextEngine) {
        let num_ticks = ticks_limit(self.core.ticks.len(), self.core.opts.ticks.max_ticks_limit);
        let t = self.core.opts.ticks.clone();
        let min_rotation = t.min_rotation;
        let max_rotation = t.max_rotation;
        let mut rotation = min_rotation;
        if !self.core.visible
            || !t.display
            || min_rotation >= max_rotation
            || num_ticks <= 1
            || !self.core.is_horizontal()
        {
            self.core.label_rotation = min_rotation;
            return;
        }
        let ls = self.core.label_sizes(text);
        let max_label_width = ls.widest.0;
        let max_label_height = ls.highest.1;
        let c = &self.core;
        let max_width = (c.chart_width - max_label_width).max(0.0).min(c.max_width);
        let mut tick_width = if c.opts.offset {
            c.max_width / num_ticks as f64
        } else {
            max_width / (num_ticks as f64 - 1.0)
        };
        if max_label_width + 6.0 > tick_width {
            tick_width = max_width / (num_ticks as f64 - if c.opts.offset { 0.5 } else { 1.0 });
            let max_height = c.max_height
                - c.tick_mark_length()
                - t.padding
                - c.title_height(&c.opts.title.fit_font);
            let diag =
                (max_label_width * max_label_width + max_label_height * max_label_height).sqrt();
            let lim = |v: f64| v.clamp(-1.0, 1.0);
            let r = libm::asin(lim((ls.highest.1 + 6.0) / tick_width))
                .min(libm::asin(lim(max_height / diag)) - libm::asin(lim(max_label_height / diag)));
            rotation = r.to_degrees();
            rotation = min_rotation.max(max_rotation.min(rotation));
        }
        self.core.label_rotation = rotation;
    }

    /// `fit()`.
    fn fit(&mut self, text: &TextEngine) {
        let horizontal = self.core.is_horizontal();
        let (mut min_w, mut min_h) = (0.0, 0.0);
        if self.core.visible {
            let c = &self.core;
            let title_h = c.title_height(&c.opts.title.fit_font);
            if horizontal {
                min_w = c.max_width;
                min_h = c.tick_mark_length() + title_h;
            } else {
                min_h = c.max_height;
                min_w = c.tick_mark_length() + title_h;
            }
            if c.opts.ticks.display && !c.ticks.is_empty() {
                let ls = self.core.label_sizes(text);
                let c = &self.core;
                let tick_padding = c.opts.ticks.padding * 2.0;
                let ang = c.label_rotation.to_radians();
                let cos = libm::cos(ang);
                let sin = libm::sin(ang);
                if horizontal {
                    let lh = if c.opts.ticks.mirror {
                        0.0
                    } else {
                        sin * ls.widest.0 + cos * ls.highest.1
                    };
                    min_h = c.max_height.min(min_h + lh + tick_padding);
                } else {
                    let lw = if c.opts.ticks.mirror {
                        0.0
                    } else {
                        cos * ls.widest.0 + sin * ls.highest.1
                    };
                    min_w = c.max_width.min(min_w + lw + tick_padding);
                }
                self.calculate_padding(&ls, sin, cos);
            }
        }
        let c = &mut self.core;
        // _handleMargins
        for k in 0..4 {
            c.margins[k] = c.padding[k].max(c.margins[k]);
        }
        if horizontal {
            c.width = c.chart_width - c.margins[0] - c.margins[2];
            c.length = c.width;
            c.height = min_h;
        } else {
            c.width = min_w;
            c.height = c.chart_height - c.margins[1] - c.margins[3];
            c.length = c.height;
        }
    }

    fn calculate_padding(&mut self, ls: &LabelSizes, sin: f64, cos: f64) {
        let c = &self.core;
        let align = c.opts.ticks.align;
        let padding = c.opts.ticks.padding;
        let rotated = c.label_rotation != 0.0;
        let below = c.opts.position != Position::Top && c.opts.axis == Axis::X;
        if c.is_horizontal() {
            let off_l = self.pixel_for_tick(0) - c.left;
            let off_r = c.right - self.pixel_for_tick(c.ticks.len().saturating_sub(1));
            let (mut pl, mut pr) = (0.0, 0.0);
            if rotated {
                if below {
                    pl = cos * ls.first.0;
                    pr = sin * ls.last.1;
                } else {
                    pl = sin * ls.first.1;
                    pr = cos * ls.last.0;
                }
            } else if align == Align::Start {
                pr = ls.last.0;
            } else if align == Align::End {
                pl = ls.first.0;
            } else if align != Align::Inner {
                pl = ls.first.0 / 2.0;
                pr = ls.last.0 / 2.0;
            }
            let w = c.width;
            let left = ((pl - off_l + padding) * w / (w - off_l)).max(0.0);
            let right = ((pr - off_r + padding) * w / (w - off_r)).max(0.0);
            let left = if left.is_nan() { 0.0 } else { left };
            let right = if right.is_nan() { 0.0 } else { right };
            self.core.padding[0] = left;
            self.core.padding[2] = right;
        } else {
            let (mut pt, mut pb) = (ls.last.1 / 2.0, ls.first.1 / 2.0);
            if align == Align::Start {
                pt = 0.0;
                pb = ls.first.1;
            } else if align == Align::End {
                pt = ls.last.1;
                pb = 0.0;
            }
            self.core.padding[1] = pt + padding;
            self.core.padding[3] = pb + padding;
        }
    }

    fn auto_skip(&mut self, text: &TextEngine) -> Vec<Tick> {
        let ticks = self.core.ticks.clone();
        // determineMaxTicks
        let tick_len = self.core.tick_size(text);
        let c = &self.core;
        let max_scale = c.length / tick_len + if c.opts.offset { 0.0 } else { 1.0 };
        let max_chart = c.max_length / tick_len;
        let determined = max_scale.min(max_chart).floor();
        let determined = if determined.is_nan() { 0.0 } else { determined };
        let limit = match c.opts.ticks.max_ticks_limit {
            Some(m) if m != 0.0 => m.min(determined),
            _ => determined,
        };
        let major: Vec<usize> = if c.opts.ticks.major_enabled {
            ticks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.major)
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        };
        let mut out = Vec::new();
        let nm = major.len();
        if nm as f64 > limit {
            // skipMajors
            let spacing = (nm as f64 / limit).ceil() as usize;
            let mut count = 0;
            let mut next = major.first().copied();
            for (i, t) in ticks.iter().enumerate() {
                if Some(i) == next {
                    out.push(t.clone());
                    count += 1;
                    next = major.get(count * spacing).copied();
                }
            }
            return out;
        }
        let spacing = calculate_spacing(&major, ticks.len(), limit);
        if nm > 0 {
            let first = major[0] as f64;
            let last = major[nm - 1] as f64;
            let avg = if nm > 1 {
                Some(((last - first) / (nm as f64 - 1.0) + 0.5).floor())
            } else {
                None
            };
            skip(
                &ticks,
                &mut out,
                spacing,
                Some(avg.map(|a| first - a).unwrap_or(0.0)),
                Some(first),
            );
            for w in major.windows(2) {
                skip(
                    &ticks,
                    &mut out,
                    spacing,
                    Some(w[0] as f64),
                    Some(w[1] as f64),
                );
            }
            skip(
                &ticks,
                &mut out,
                spacing,
                Some(last),
                Some(avg.map(|a| last + a).unwrap_or(ticks.len() as f64)),
            );
            return out;
        }
        skip(&ticks, &mut out, spacing, None, None);
        out
    }

    fn title_args(
        &self,
        offset: f64,
        scales: &[Scale],
        area: &Area,
    ) -> (f64, f64, Option<f64>, f64) {
        let c = &self.core;
        let (top, left, bottom, right) = (c.top, c.left, c.bottom, c.right);
        let align = c.opts.title.align;
        let (height, width) = (bottom - top, right - left);
        let align_se = |a: Align, s: f64, e: f64| match a {
            Align::Start => s,
            Align::End => e,
            _ => (s + e) / 2.0,
        };
        if c.is_horizontal() {
            let x = align_se(align, left, right);
            let y = match &c.opts.position {
                Position::AtValue(id, v) => {
                    scale_pixel(scales, id, *v).unwrap_or(0.0) + height - offset
                }
                Position::Center => (area.bottom + area.top) / 2.0 + height - offset,
                Position::Top => top + offset,
                Position::Left => left + offset,
                Position::Right => right - offset,
                _ => bottom - offset,
            };
            (x, y, Some(right - left), 0.0)
        } else {
            let x = match &c.opts.position {
                Position::AtValue(id, v) => {
                    scale_pixel(scales, id, *v).unwrap_or(0.0) - width + offset
                }
                Position::Center => (area.left + area.right) / 2.0 - width + offset,
                Position::Top => top + offset,
                Position::Left => left + offset,
                Position::Right => right - offset,
                _ => bottom - offset,
            };
            let y = align_se(align, bottom, top);
            let rot = if c.opts.position == Position::Left {
                -FRAC_PI_2
            } else {
                FRAC_PI_2
            };
            (x, y, None, rot)
        }
    }

    /// Grid line items (`_computeGridLineItems`).
    fn grid_items(
        &mut self,
        area: &Area,
        scales_pixels: &dyn Fn(&str, f64) -> Option<f64>,
    ) -> Vec<GridItem> {
        let dpr = self.core.dpr;
        let c = &self.core;
        let grid = &c.opts.grid;
        let offset = grid.offset;
        let horizontal = c.is_horizontal();
        let ticks_length = c.ticks.len() + usize::from(offset);
        let tl = c.tick_mark_length();
        let axis_width = if c.opts.border.display {
            c.opts.border.width
        } else {
            0.0
        };
        let ahw = axis_width / 2.0;
        let abv = |p: f64| align_pixel(dpr, p, axis_width);
        let (mut border_value, mut tx1, mut ty1, mut tx2, mut ty2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut x1, mut y1, mut x2, mut y2) = (0.0, 0.0, 0.0, 0.0);
        match &c.opts.position {
            Position::Top => {
                border_value = abv(c.bottom);
                ty1 = c.bottom - tl;
                ty2 = border_value - ahw;
                y1 = abv(area.top) + ahw;
                y2 = area.bottom;
            }
            Position::Bottom => {
                border_value = abv(c.top);
                y1 = area.top;
                y2 = abv(area.bottom) - ahw;
                ty1 = border_value + ahw;
                ty2 = c.top + tl;
            }
            Position::Left => {
                border_value = abv(c.right);
                tx1 = c.right - tl;
                tx2 = border_value - ahw;
                x1 = abv(area.left) + ahw;
                x2 = area.right;
            }
            Position::Right => {
                border_value = abv(c.left);
                x1 = area.left;
                x2 = abv(area.right) - ahw;
                tx1 = border_value + ahw;
                tx2 = c.left + tl;
            }
            pos => {
                if c.opts.axis == Axis::X {
                    match pos {
                        Position::Center => {
                            border_value = abv((area.top + area.bottom) / 2.0 + 0.5)
                        }
                        Position::AtValue(id, v) => {
                            border_value = abv(scales_pixels(id, *v).unwrap_or(f64::NAN))
                        }
                        _ => {}
                    }
                    y1 = area.top;
                    y2 = area.bottom;
                    ty1 = border_value + ahw;
                    ty2 = ty1 + tl;
                } else {
                    match pos {
                        Position::Center => border_value = abv((area.left + area.right) / 2.0),
                        Position::AtValue(id, v) => {
                            border_value = abv(scales_pixels(id, *v).unwrap_or(f64::NAN))
                        }
                        _ => {}
                    }
                    tx1 = border_value - ahw;
                    tx2 = tx1 - tl;
                    x1 = area.left;
                    x2 = area.right;
                }
            }
        }
        let limit = c
            .opts
            .ticks
            .max_ticks_limit
            .map(|m| m as usize)
            .unwrap_or(ticks_length)
            .max(1);
        let step = ((ticks_length as f64 / limit as f64).ceil() as usize).max(1);
        let mut items = Vec::new();
        let mut i = 0;
        while i < ticks_length {
            let lw = grid.line_width.at(i);
            let Some(line_value) = self.pixel_for_grid_line(i, offset) else {
                i += step;
                continue;
            };
            let aligned = align_pixel(dpr, line_value, lw);
            let (mut it_tx1, mut it_tx2, mut it_ty1, mut it_ty2) = (tx1, tx2, ty1, ty2);
            let (mut ix1, mut ix2, mut iy1, mut iy2) = (x1, x2, y1, y2);
            if horizontal {
                it_tx1 = aligned;
                it_tx2 = aligned;
                ix1 = aligned;
                ix2 = aligned;
            } else {
                it_ty1 = aligned;
                it_ty2 = aligned;
                iy1 = aligned;
                iy2 = aligned;
            }
            items.push(GridItem {
                tx1: it_tx1,
                ty1: it_ty1,
                tx2: it_tx2,
                ty2: it_ty2,
                x1: ix1,
                y1: iy1,
                x2: ix2,
                y2: iy2,
                width: lw,
                color: grid.color.at(i),
                tick_width: grid.tick_width.at(i),
                tick_color: grid.tick_color.at(i),
            });
            i += step;
        }
        self.core.border_value = border_value;
        items
    }

    /// `getPixelForGridLine`.
    fn pixel_for_grid_line(&self, index: usize, offset_grid: bool) -> Option<f64> {
        let length = self.core.ticks.len();
        if length == 0 {
            return None;
        }
        let valid = index.min(length - 1);
        let start = self.core.start_pixel;
        let end = self.core.end_pixel;
        let eps = 1e-6;
        let mut lv = self.pixel_for_tick(valid);
        if offset_grid {
            let off = if length == 1 {
                (lv - start).max(end - lv)
            } else if index == 0 {
                (self.pixel_for_tick(1) - lv) / 2.0
            } else {
                (lv - self.pixel_for_tick(valid - 1)) / 2.0
            };
            lv += if valid < index { off } else { -off };
            if lv < start - eps || lv > end + eps {
                return None;
            }
        }
        Some(lv)
    }

    /// `_getXAxisLabelAlignment`.
    fn x_label_align(&self) -> Option<TextAlign> {
        let c = &self.core;
        if c.label_rotation != 0.0 {
            return Some(if c.opts.position == Position::Top {
                TextAlign::Left
            } else {
                TextAlign::Right
            });
        }
        match c.opts.ticks.align {
            Align::Start => Some(TextAlign::Left),
            Align::End => Some(TextAlign::Right),
            Align::Inner => None,
            Align::Center => Some(TextAlign::Center),
        }
    }

    /// `_getYAxisLabelAlignment(tl)`.
    fn y_label_align(&mut self, tl: f64, text: &TextEngine) -> (TextAlign, f64) {
        let widest = self.core.label_sizes(text).widest.0;
        let c = &self.core;
        let t = &c.opts.ticks;
        let tp = tl + t.padding;
        match c.opts.position {
            Position::Left => {
                if t.mirror {
                    let x = c.right + t.padding;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Left, x),
                        CrossAlign::Center => (TextAlign::Center, x + widest / 2.0),
                        CrossAlign::Far => (TextAlign::Right, x + widest),
                    }
                } else {
                    let x = c.right - tp;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Right, x),
                        CrossAlign::Center => (TextAlign::Center, x - widest / 2.0),
                        CrossAlign::Far => (TextAlign::Left, c.left),
                    }
                }
            }
            Position::Right => {
                if t.mirror {
                    let x = c.left + t.padding;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Right, x),
                        CrossAlign::Center => (TextAlign::Center, x - widest / 2.0),
                        CrossAlign::Far => (TextAlign::Left, x - widest),
                    }
                } else {
                    let x = c.left + tp;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Left, x),
                        CrossAlign::Center => (TextAlign::Center, x + widest / 2.0),
                        CrossAlign::Far => (TextAlign::Right, c.right),
                    }
                }
            }
            _ => (TextAlign::Right, f64::NAN),
        }
    }

    /// `_computeLabelItems`.
    fn label_items(
        &mut self,
        area: &Area,
        scales_pixels: &dyn Fn(&str, f64) -> Option<f64>,
        text: &TextEngine,
    ) -> Vec<LabelItem> {
        let tl = self.core.tick_mark_length();
        let ls = self.core.label_sizes(text);
        let c = self.core.clone();
        let t = &c.opts.ticks;
        let axis = c.opts.axis;
        let horizontal = c.is_horizontal();
        let tick_and_padding = tl + t.padding;
        let h_tick_and_padding = if t.mirror {
            -t.padding
        } else {
            tick_and_padding
        };
        let rotation = -c.label_rotation.to_radians();
        let mut baseline = TextBaseline::Middle;
        let (mut x, mut y) = (0.0, 0.0);
        let text_align: Option<TextAlign>;
        match &c.opts.position {
            Position::Top => {
                y = c.bottom - h_tick_and_padding;
                text_align = self.x_label_align();
            }
            Position::Bottom => {
                y = c.top + h_tick_and_padding;
                text_align = self.x_label_align();
            }
            Position::Left | Position::Right => {
                let (a, xx) = self.y_label_align(tl, text);
                text_align = Some(a);
                x = xx;
            }
            pos => {
                if axis == Axis::X {
                    match pos {
                        Position::Center => y = (area.top + area.bottom) / 2.0 + tick_and_padding,
                        Position::AtValue(id, v) => {
                            y = scales_pixels(id, *v).unwrap_or(f64::NAN) + tick_and_padding
                        }
                        _ => {}
                    }
                    text_align = self.x_label_align();
                } else {
                    match pos {
                        Position::Center => x = (area.left + area.right) / 2.0 - tick_and_padding,
                        Position::AtValue(id, v) => x = scales_pixels(id, *v).unwrap_or(f64::NAN),
                        _ => {}
                    }
                    text_align = Some(self.y_label_align(tl, text).0);
                }
            }
        }
        if axis == Axis::Y {
            if t.align == Align::Start {
                baseline = TextBaseline::Top;
            } else if t.align == Align::End {
                baseline = TextBaseline::Bottom;
            }
        }
        let n = c.ticks.len();
        let mut items = Vec::new();
        for i in 0..n {
            let lines = c.ticks[i].label.clone().unwrap_or_default();
            let pixel = self.pixel_for_tick(i) + t.label_offset;
            let font = c.tick_font(i);
            let lh = font.line_height;
            let line_count = lines.len().max(1) as f64;
            let half = line_count / 2.0;
            let mut align = text_align.unwrap_or(TextAlign::Center);
            let text_offset;
            if horizontal {
                x = pixel;
                if text_align.is_none() {
                    align = if i == n - 1 {
                        if !c.opts.reverse {
                            TextAlign::Right
                        } else {
                            TextAlign::Left
                        }
                    } else if i == 0 {
                        if !c.opts.reverse {
                            TextAlign::Left
                        } else {
                            TextAlign::Right
                        }
                    } else {
                        TextAlign::Center
                    };
                }
                let mut off = if c.opts.position == Position::Top {
                    if t.cross_align == CrossAlign::Near || rotation != 0.0 {
                        -line_count * lh + lh / 2.0
                    } else if t.cross_align == CrossAlign::Center {
                        -ls.highest.1 / 2.0 - half * lh + lh
                    } else {
                        -ls.highest.1 + lh / 2.0
                    }
                } else if t.cross_align == CrossAlign::Near || rotation != 0.0 {
                    lh / 2.0
                } else if t.cross_align == CrossAlign::Center {
                    ls.highest.1 / 2.0 - half * lh
                } else {
                    ls.highest.1 - line_count * lh
                };
                if t.mirror {
                    off = -off;
                }
                text_offset = off;
                if rotation != 0.0 && !t.show_label_backdrop {
                    x += lh / 2.0 * libm::sin(rotation);
                }
            } else {
                y = pixel;
                text_offset = (1.0 - line_count) * lh / 2.0;
            }
            let backdrop = if t.show_label_backdrop {
                let p = t.backdrop_padding;
                let height = ls.heights.get(i).copied().unwrap_or(0.0);
                let width = ls.widths.get(i).copied().unwrap_or(0.0);
                let mut top = text_offset - p.top;
                let mut left = -p.left;
                match baseline {
                    TextBaseline::Middle => top -= height / 2.0,
                    TextBaseline::Bottom => top -= height,
                    _ => {}
                }
                match text_align {
                    Some(TextAlign::Center) => left -= width / 2.0,
                    Some(TextAlign::Right) => left -= width,
                    None => {
                        if i == n - 1 {
                            left -= width;
                        } else if i > 0 {
                            left -= width / 2.0;
                        }
                    }
                    _ => {}
                }
                Some((
                    left,
                    top,
                    width + p.width(),
                    height + p.height(),
                    t.backdrop_color,
                ))
            } else {
                None
            };
            items.push(LabelItem {
                lines,
                font,
                text_offset,
                rotation,
                color: t.color.at(i),
                stroke: match t.text_stroke_color {
                    Some(sc) if t.text_stroke_width > 0.0 => Some((t.text_stroke_width, sc)),
                    _ => None,
                },
                align,
                baseline,
                x,
                y,
                backdrop,
            });
        }
        items
    }

    /// The draw layers of the scale: `(z, part)`; see `_layers()`.
    pub fn layers(&self) -> Vec<(f64, ScaleLayer)> {
        let o = &self.core.opts;
        vec![
            (o.grid.z, ScaleLayer::Grid),
            (o.border.z, ScaleLayer::Border),
            (o.ticks.z, ScaleLayer::Labels),
        ]
    }

    /// Draws one layer of the scale.
    pub fn draw_layer(
        &mut self,
        layer: ScaleLayer,
        ctx: &mut Ctx<'_>,
        area: &Area,
        scales_pixels: &dyn Fn(&str, f64) -> Option<f64>,
        scales: &[Scale],
    ) {
        if !self.core.visible {
            return;
        }
        if self.kind.draw_custom(&self.core, layer, ctx) {
            return;
        }
        match layer {
            ScaleLayer::Grid => {
                if let Some(bg) = self.core.opts.background_color {
                    let c = &self.core;
                    ctx.fill_rect(c.left, c.top, c.width, c.height, bg);
                }
                let items = self.grid_items(area, scales_pixels);
                let grid = self.core.opts.grid.clone();
                let border_dash = self.core.opts.border.dash.clone();
                let border_dash_offset = self.core.opts.border.dash_offset;
                if grid.display {
                    for it in &items {
                        if grid.draw_on_chart_area {
                            line(
                                ctx,
                                it.x1,
                                it.y1,
                                it.x2,
                                it.y2,
                                it.width,
                                it.color,
                                // Grid lines take `border.dash` (`_computeGridLineItems`).
                                &border_dash,
                                border_dash_offset,
                            );
                        }
                        if grid.draw_ticks {
                            line(
                                ctx,
                                it.tx1,
                                it.ty1,
                                it.tx2,
                                it.ty2,
                                it.tick_width,
                                it.tick_color,
                                &grid.tick_border_dash,
                                grid.tick_border_dash_offset,
                            );
                        }
                    }
                }
                self.draw_title(ctx, area, scales);
            }
            ScaleLayer::Border => {
                // The border value is computed with the grid items.
                let _ = self.grid_items(area, scales_pixels);
                self.draw_border(ctx);
            }
            ScaleLayer::Labels => self.draw_labels(ctx, area, scales_pixels),
        }
    }

    fn draw_border(&mut self, ctx: &mut Ctx<'_>) {
        let c = &self.core;
        let b = &c.opts.border;
        let axis_width = if b.display { b.width } else { 0.0 };
        if axis_width == 0.0 {
            return;
        }
        let last_lw = c.opts.grid.line_width.at(0);
        let bv = c.border_value;
        let (x1, x2, y1, y2);
        if c.is_horizontal() {
            x1 = align_pixel(c.dpr, c.left, axis_width) - axis_width / 2.0;
            x2 = align_pixel(c.dpr, c.right, last_lw) + last_lw / 2.0;
            y1 = bv;
            y2 = bv;
        } else {
            y1 = align_pixel(c.dpr, c.top, axis_width) - axis_width / 2.0;
            y2 = align_pixel(c.dpr, c.bottom, last_lw) + last_lw / 2.0;
            x1 = bv;
            x2 = bv;
        }
        // drawBorder does not set the dash (border.dash is used by grid lines in 4.x? no:
        // the stroke uses the context's default solid line).
        line(ctx, x1, y1, x2, y2, b.width, b.color, &[], 0.0);
    }

    fn draw_title(&self, ctx: &mut Ctx<'_>, area: &Area, scales: &[Scale]) {
        let c = &self.core;
        let t = &c.opts.title;
        if !t.display {
            return;
        }
        let font = &t.font;
        let mut offset = font.line_height / 2.0;
        let pos = &c.opts.position;
        if matches!(
            pos,
            Position::Bottom | Position::Center | Position::AtValue(..)
        ) {
            offset += t.padding.bottom;
            if t.text.len() > 1 {
                offset += font.line_height * (t.text.len() as f64 - 1.0);
            }
        } else {
            offset += t.padding.top;
        }
        let (tx, ty, max_w, rot) = self.title_args(offset, scales, area);
        // titleAlign(align, position, reverse)
        let mut a = match t.align {
            Align::Start => TextAlign::Left,
            Align::End => TextAlign::Right,
            _ => TextAlign::Center,
        };
        let reverse = c.opts.reverse;
        if (reverse && *pos != Position::Right) || (!reverse && *pos == Position::Right) {
            a = match a {
                TextAlign::Left => TextAlign::Right,
                TextAlign::Right => TextAlign::Left,
                x => x,
            };
        }
        let mut o = TextOpts::new(t.color);
        o.translation = Some((tx, ty));
        o.max_width = max_w;
        o.rotation = rot;
        o.align = a;
        o.baseline = TextBaseline::Middle;
        render_text(ctx, &t.text, 0.0, 0.0, font, &o);
    }

    fn draw_labels(
        &mut self,
        ctx: &mut Ctx<'_>,
        area: &Area,
        scales_pixels: &dyn Fn(&str, f64) -> Option<f64>,
    ) {
        if !self.core.opts.ticks.display {
            return;
        }
        // _computeLabelArea
        let c = &self.core;
        let clip = if c.opts.ticks.mirror {
            None
        } else {
            match c.opts.position {
                Position::Left | Position::Right => Some(Area {
                    left: c.left,
                    top: 0.0,
                    right: c.right,
                    bottom: c.chart_height,
                }),
                Position::Top | Position::Bottom => Some(Area {
                    left: 0.0,
                    top: c.top,
                    right: c.chart_width,
                    bottom: c.bottom,
                }),
                _ => None,
            }
        };
        if let Some(a) = clip {
            ctx.clip_area(a);
        }
        let items = self.label_items(area, scales_pixels, ctx.text);
        for it in items {
            let mut o = TextOpts::new(it.color);
            o.translation = Some((it.x, it.y));
            o.rotation = it.rotation;
            o.align = it.align;
            o.baseline = it.baseline;
            o.stroke = it.stroke;
            o.backdrop = it.backdrop;
            render_text(ctx, &it.lines, 0.0, it.text_offset, &it.font, &o);
        }
        if clip.is_some() {
            ctx.unclip_area();
        }
    }
}

/// The pixel of `value` on the scale `id` (for `position: {id: value}`).
pub fn scale_pixel(scales: &[Scale], id: &str, value: f64) -> Option<f64> {
    scales
        .iter()
        .find(|s| s.core.id() == id)
        .map(|s| s.pixel_for_value(value))
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

#[derive(Debug, Clone)]
struct GridItem {
    tx1: f64,
    ty1: f64,
    tx2: f64,
    ty2: f64,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    width: f64,
    color: chart_spec::Rgba,
    tick_width: f64,
    tick_color: chart_spec::Rgba,
}

#[derive(Debug, Clone)]
struct LabelItem {
    lines: Vec<String>,
    font: Font,
    text_offset: f64,
    rotation: f64,
    color: chart_spec::Rgba,
    stroke: Option<(f64, chart_spec::Rgba)>,
    align: TextAlign,
    baseline: TextBaseline,
    x: f64,
    y: f64,
    backdrop: Option<(f64, f64, f64, f64, chart_spec::Rgba)>,
}

#[allow(clippy::too_many_arguments)]
fn line(
    ctx: &mut Ctx<'_>,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    width: f64,
    color: chart_spec::Rgba,
    dash: &[f64],
    dash_offset: f64,
) {
    if width == 0.0 || color.is_transparent() {
        return;
    }
    ctx.save();
    let mut p = P::new();
    p.move_to(x1, y1);
    p.line_to(x2, y2);
    let mut s = StrokeStyle::new(width, color);
    s.dash = dash.to_vec();
    s.dash_offset = dash_offset;
    ctx.stroke(&p, &s);
    ctx.restore();
}

/// `calculateSpacing`.
fn calculate_spacing(major: &[usize], ticks_len: usize, limit: f64) -> f64 {
    let spacing = ticks_len as f64 / limit;
    let even = if major.len() < 2 {
        None
    } else {
        let d = major[1] as isize - major[0] as isize;
        let first = major[0] as isize;
        // getEvenSpacing compares with arr[0] as the initial diff, as Chart.js does.
        let mut ok = true;
        for w in major.windows(2) {
            if w[1] as isize - w[0] as isize != first {
                ok = false;
                break;
            }
        }
        let _ = d;
        if ok {
            Some(first)
        } else {
            None
        }
    };
    let Some(even) = even.filter(|e| *e != 0) else {
        return spacing.max(1.0);
    };
    let factors = factorize(even as f64);
    for f in factors.iter().take(factors.len().saturating_sub(1)) {
        if *f > spacing {
            return *f;
        }
    }
    spacing.max(1.0)
}

/// `_factorize`.
fn factorize(value: f64) -> Vec<f64> {
    let mut result = Vec::new();
    let sqrt = value.sqrt();
    let mut i = 1.0;
    while i < sqrt {
        if value % i == 0.0 {
            result.push(i);
            result.push(value / i);
        }
        i += 1.0;
    }
    if sqrt == sqrt.trunc() {
        result.push(sqrt);
    }
    result.sort_by(|a, b| a.total_cmp(b));
    result.pop();
    result
}

/// `skip(ticks, newTicks, spacing, majorStart, majorEnd)`.
fn skip(
    ticks: &[Tick],
    out: &mut Vec<Tick>,
    spacing: f64,
    major_start: Option<f64>,
    major_end: Option<f64>,
) {
    let start = major_start.unwrap_or(0.0);
    let end = major_end
        .unwrap_or(ticks.len() as f64)
        .min(ticks.len() as f64);
    let mut count = 0.0;
    let mut spacing = spacing.ceil();
    if let Some(me) = major_end.filter(|m| *m != 0.0) {
        let length = me - major_start.unwrap_or(0.0);
        spacing = length / (length / spacing).floor();
    }
    let mut next = start;
    while next < 0.0 {
        count += 1.0;
        next = (start + count * spacing + 0.5).floor();
    }
    let mut i = start.max(0.0);
    while i < end {
        if i == next {
            out.push(ticks[i as usize].clone());
            count += 1.0;
            next = (start + count * spacing + 0.5).floor();
        }
        i += 1.0;
    }
}
