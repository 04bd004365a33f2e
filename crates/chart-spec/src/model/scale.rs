//! A scale, resolved: the options every scale has (`Chart.defaults.scale`: grid, border, title,
//! ticks) and, in [`ScaleTypeOptions`], those only the time and radial linear scales have.
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::kind::ScaleKind;
use super::raw::Raw;
use crate::color::Rgba;
use crate::time::{DateAdapter, DisplayFormats, TimeUnit};
use crate::values::{Corners, Font, Indexable, Sides};

/// An axis direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Axis {
    /// Horizontal.
    #[default]
    X,
    /// Vertical.
    Y,
    /// Radial.
    R,
}

impl Axis {
    /// `'x'`, `'y'` or `'r'`.
    pub fn as_str(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::R => "r",
        }
    }
}

/// A scale's `position`.
#[derive(Debug, Clone, PartialEq)]
pub enum Position {
    /// `'top'`.
    Top,
    /// `'bottom'`.
    Bottom,
    /// `'left'`.
    Left,
    /// `'right'`.
    Right,
    /// `'center'`.
    Center,
    /// `'chartArea'` (radial scales, legend).
    ChartArea,
    /// `{scaleId: value}`: crossing another scale at a value.
    AtValue(String, f64),
}

/// `display` of a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Display {
    /// Shown.
    Yes,
    /// Hidden.
    No,
    /// `'auto'`: shown when a visible dataset uses the scale.
    Auto,
}

/// Horizontal alignment `start`/`center`/`end` (`align` options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// `'start'`.
    Start,
    /// `'center'`.
    Center,
    /// `'end'`.
    End,
    /// `'inner'` (tick labels only).
    Inner,
}

/// `ticks.crossAlign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossAlign {
    /// `'near'` (default).
    Near,
    /// `'center'`.
    Center,
    /// `'far'`.
    Far,
}

/// Grid line options (`scales[id].grid`).
#[derive(Debug, Clone, PartialEq)]
pub struct GridOptions {
    /// `display`. Default: true.
    pub display: bool,
    /// `color`, per tick. Default: `Chart.defaults.borderColor`.
    pub color: Indexable<Rgba>,
    /// `lineWidth`, per tick. Default: 1.
    pub line_width: Indexable<f64>,
    /// `drawOnChartArea`. Default: true.
    pub draw_on_chart_area: bool,
    /// `drawTicks`. Default: true.
    pub draw_ticks: bool,
    /// `tickLength`. Default: 8.
    pub tick_length: f64,
    /// `tickWidth`, per tick. Default: `lineWidth`.
    pub tick_width: Indexable<f64>,
    /// `tickColor`, per tick. Default: `color`.
    pub tick_color: Indexable<Rgba>,
    /// `tickBorderDash`. Default: `[]`.
    pub tick_border_dash: Vec<f64>,
    /// `tickBorderDashOffset`. Default: 0.
    pub tick_border_dash_offset: f64,
    /// `offset`. Default: false (true for bar index scales).
    pub offset: bool,
    /// `z`. Default: -1.
    pub z: f64,
    /// `circular` (radial). Default: false.
    pub circular: bool,
}

/// Axis line options (`scales[id].border`).
#[derive(Debug, Clone, PartialEq)]
pub struct BorderOptions {
    /// `display`. Default: true.
    pub display: bool,
    /// `color`. Default: `Chart.defaults.borderColor`.
    pub color: Rgba,
    /// `width`. Default: 1.
    pub width: f64,
    /// `dash`. Default: `[]`.
    pub dash: Vec<f64>,
    /// `dashOffset`. Default: 0.
    pub dash_offset: f64,
    /// `z`. Default: 0.
    pub z: f64,
}

/// Axis title (`scales[id].title`).
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleTitleOptions {
    /// `display`. Default: false.
    pub display: bool,
    /// `text`, one entry per line. Default: `''`.
    pub text: Vec<String>,
    /// `align`. Default: center.
    pub align: Align,
    /// `color`. Default: `Chart.defaults.color`.
    pub color: Rgba,
    /// `font` as `drawTitle` uses it: over the chart's `options.font`, then `defaults.font`,
    /// when `title.font` is an object; `defaults.font` alone otherwise.
    pub font: Font,
    /// `font` resolved with the chart's `options.font` fallback (what `fit` measures).
    pub fit_font: Font,
    /// `padding`. Default: `{top: 4, bottom: 4}`.
    pub padding: Sides,
}

/// Tick options (`scales[id].ticks`).
#[derive(Debug, Clone, PartialEq)]
pub struct TickOptions {
    /// `display`. Default: true.
    pub display: bool,
    /// `color`, per tick. Default: `Chart.defaults.color`.
    pub color: Indexable<Rgba>,
    /// `font`, per tick.
    pub font: Indexable<Font>,
    /// `padding`. Default: 3.
    pub padding: f64,
    /// `minRotation`. Default: 0.
    pub min_rotation: f64,
    /// `maxRotation`. Default: 50.
    pub max_rotation: f64,
    /// `mirror`. Default: false.
    pub mirror: bool,
    /// `autoSkip`. Default: true.
    pub auto_skip: bool,
    /// `autoSkipPadding`. Default: 3.
    pub auto_skip_padding: f64,
    /// `labelOffset`. Default: 0.
    pub label_offset: f64,
    /// `align`. Default: center.
    pub align: Align,
    /// `crossAlign`. Default: near.
    pub cross_align: CrossAlign,
    /// `maxTicksLimit`. Default: undefined (11 for linear scales).
    pub max_ticks_limit: Option<f64>,
    /// `stepSize`. Default: undefined.
    pub step_size: Option<f64>,
    /// `count`. Default: undefined.
    pub count: Option<f64>,
    /// `precision`. Default: undefined.
    pub precision: Option<f64>,
    /// `includeBounds`. Default: true.
    pub include_bounds: bool,
    /// `sampleSize`. Default: all ticks.
    pub sample_size: Option<f64>,
    /// `major.enabled`. Default: false.
    pub major_enabled: bool,
    /// `textStrokeColor`. Default: none.
    pub text_stroke_color: Option<Rgba>,
    /// `textStrokeWidth`. Default: 0.
    pub text_stroke_width: f64,
    /// `showLabelBackdrop`. Default: false.
    pub show_label_backdrop: bool,
    /// `backdropColor`. Default: `rgba(255, 255, 255, 0.75)`.
    pub backdrop_color: Rgba,
    /// `backdropPadding`. Default: 2.
    pub backdrop_padding: Sides,
    /// `format` (Intl.NumberFormat options) — only the parts we honour.
    pub format: NumberFormat,
    /// `z`. Default: 0.
    pub z: f64,
}

/// The subset of `Intl.NumberFormat` options honoured in tick labels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumberFormat {
    /// `minimumFractionDigits`.
    pub min_fraction: Option<u32>,
    /// `maximumFractionDigits`.
    pub max_fraction: Option<u32>,
    /// `style: 'percent'`.
    pub percent: bool,
    /// `style: 'currency'` with this `currency` (ISO 4217 code, `currencyDisplay: 'symbol'`).
    pub currency: Option<String>,
    /// `useGrouping` (default true).
    pub grouping: Option<bool>,
    /// `notation: 'compact'` etc. (unsupported values are reported).
    pub notation: Option<String>,
    /// `compactDisplay: 'long'` ("1.2 thousand"; the default `'short'` is "1.2K").
    pub compact_long: bool,
    /// `minimumSignificantDigits` (with compact notation).
    pub min_significant: Option<u32>,
    /// `maximumSignificantDigits` (with compact notation).
    pub max_significant: Option<u32>,
    /// `signDisplay` (with compact notation; `Auto` when not given).
    pub sign_display: crate::intl::SignDisplay,
    /// The chart's `options.locale` (BCP 47; empty means en-US).
    pub locale: String,
}

/// `stacked`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stacked {
    /// `false`.
    No,
    /// `true`.
    Yes,
    /// `'single'`.
    Single,
}

/// One scale, resolved (merged as `mergeScaleConfig` does, then resolved).
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleOptions {
    /// The key in `options.scales`.
    pub id: String,
    /// `axis`.
    pub axis: Axis,
    /// `type`, with the options only that type has. Default: category for x, linear for y,
    /// radialLinear for r.
    pub kind: ScaleTypeOptions,
    /// `position` (after `buildOrUpdateScales` corrected it).
    pub position: Position,
    /// `display`. Default: true.
    pub display: Display,
    /// `offset`. Default: false (true for bar index scales).
    pub offset: bool,
    /// `reverse`. Default: false.
    pub reverse: bool,
    /// `beginAtZero`. Default: false.
    pub begin_at_zero: bool,
    /// `bounds === 'ticks'`. Default: true.
    pub bounds_ticks: bool,
    /// `grace`: absolute or `Some(percent as fraction)`. Default: 0.
    pub grace: Grace,
    /// `min` (raw, parsed by the scale).
    pub min: Raw,
    /// `max`.
    pub max: Raw,
    /// `suggestedMin`.
    pub suggested_min: Raw,
    /// `suggestedMax`.
    pub suggested_max: Raw,
    /// `stacked`: `None` is undefined (stack when datasets set `stack`).
    pub stacked: Option<Stacked>,
    /// `weight`. Default: 0.
    pub weight: f64,
    /// `stack` (layout stacking of scales). Default: undefined.
    pub stack: Option<String>,
    /// `stackWeight`. Default: 1.
    pub stack_weight: f64,
    /// `fullSize`. Default: false.
    pub full_size: bool,
    /// `labels` of a category scale. Default: `data.labels`.
    pub labels: Option<Vec<Raw>>,
    /// `backgroundColor`. Default: none.
    pub background_color: Option<Rgba>,
    /// `alignToPixels`. Default: false.
    pub align_to_pixels: bool,
    /// `clip`. Default: true.
    pub clip: bool,
    /// `grid`.
    pub grid: GridOptions,
    /// `border`.
    pub border: BorderOptions,
    /// `title`.
    pub title: ScaleTitleOptions,
    /// `ticks`.
    pub ticks: TickOptions,
}

/// `grace`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grace {
    /// A value in scale units.
    Value(f64),
    /// `'10%'`: fraction of the half range.
    Percent(f64),
}

/// `ticks.source` of time scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeSource {
    /// `'auto'` (default).
    #[default]
    Auto,
    /// `'data'`.
    Data,
    /// `'labels'`.
    Labels,
}

/// Options of `time` and `timeseries` scales.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeScaleOptions {
    /// The date adapter (token style from `adapters.date.tokens` or the formats, zone from
    /// `adapters.date.zone`/`timeZone` as a fixed offset; UTC by default).
    pub adapter: DateAdapter,
    /// `time.parser` (a format string). Default: false.
    pub parser: Option<String>,
    /// `time.unit`. Default: false.
    pub unit: Option<TimeUnit>,
    /// `time.minUnit`. Default: `'millisecond'`.
    pub min_unit: TimeUnit,
    /// `time.round`. Default: false.
    pub round: Option<TimeUnit>,
    /// `time.isoWeekday` (`true` = 1). Default: false.
    pub iso_weekday: Option<f64>,
    /// `time.displayFormats` over the adapter's defaults.
    pub display_formats: DisplayFormats,
    /// `time.tooltipFormat`. Default: undefined.
    pub tooltip_format: Option<String>,
    /// `ticks.source`. Default: `'auto'`.
    pub source: TimeSource,
}

/// `pointLabels` options of the radial scale.
#[derive(Debug, Clone, PartialEq)]
pub struct PointLabelOptions {
    /// `display`: `Some(true)`, `Some(false)` or `None` for `'auto'`. Default: true
    /// (false for polar area charts).
    pub display: Option<bool>,
    /// `font` (size 10 by default).
    pub font: Indexable<Font>,
    /// `color`. Default: `Chart.defaults.color`.
    pub color: Indexable<Rgba>,
    /// `padding`. Default: 5.
    pub padding: Indexable<f64>,
    /// `backdropColor`. Default: undefined.
    pub backdrop_color: Option<Rgba>,
    /// `backdropPadding`. Default: 2.
    pub backdrop_padding: Sides,
    /// `borderRadius` of the backdrop. Default: 0.
    pub border_radius: Corners,
    /// `centerPointLabels`. Default: false.
    pub center: bool,
}

/// `angleLines` options of the radial scale (falling back to `grid`).
#[derive(Debug, Clone, PartialEq)]
pub struct AngleLineOptions {
    /// `display`. Default: true (false for polar area charts).
    pub display: bool,
    /// `color`. Default: `Chart.defaults.borderColor`.
    pub color: Indexable<Rgba>,
    /// `lineWidth`. Default: 1.
    pub line_width: Indexable<f64>,
    /// `borderDash`. Default: `[]`.
    pub border_dash: Vec<f64>,
    /// `borderDashOffset`. Default: 0.
    pub border_dash_offset: f64,
}

/// Options of the `radialLinear` scale beyond the common ones.
#[derive(Debug, Clone, PartialEq)]
pub struct RadialScaleOptions {
    /// `startAngle`, degrees. Default: 0.
    pub start_angle: f64,
    /// `angleLines`.
    pub angle_lines: AngleLineOptions,
    /// `pointLabels`.
    pub point_labels: PointLabelOptions,
}

/// A scale's registered type ([`ScaleKind`]) with the options only that type has, as
/// [`super::DatasetKind`] is to [`super::ChartKind`]: a time scale cannot be without its
/// `time` options, and no other type carries them.
#[derive(Debug, Clone, PartialEq)]
pub enum ScaleTypeOptions {
    /// `category`.
    Category,
    /// `linear`.
    Linear,
    /// `logarithmic`.
    Logarithmic,
    /// `time`.
    Time(TimeScaleOptions),
    /// `timeseries`: a time scale whose ticks are spaced by index.
    TimeSeries(TimeScaleOptions),
    /// `radialLinear`.
    RadialLinear(RadialScaleOptions),
}

impl ScaleTypeOptions {
    /// The registered type.
    pub fn scale_kind(&self) -> ScaleKind {
        match self {
            ScaleTypeOptions::Category => ScaleKind::Category,
            ScaleTypeOptions::Linear => ScaleKind::Linear,
            ScaleTypeOptions::Logarithmic => ScaleKind::Logarithmic,
            ScaleTypeOptions::Time(_) => ScaleKind::Time,
            ScaleTypeOptions::TimeSeries(_) => ScaleKind::TimeSeries,
            ScaleTypeOptions::RadialLinear(_) => ScaleKind::RadialLinear,
        }
    }

    /// The `time` options of a `time` or `timeseries` scale.
    pub fn time(&self) -> Option<&TimeScaleOptions> {
        match self {
            ScaleTypeOptions::Time(t) | ScaleTypeOptions::TimeSeries(t) => Some(t),
            _ => None,
        }
    }

    /// The options of a `radialLinear` scale.
    pub fn radial(&self) -> Option<&RadialScaleOptions> {
        match self {
            ScaleTypeOptions::RadialLinear(r) => Some(r),
            _ => None,
        }
    }
}
