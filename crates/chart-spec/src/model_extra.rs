//! Resolved options of the arc and radial chart types and of the logarithmic, time and radial
//! scales (the part of the resolved model [`crate::model`] that issue 5 adds).
//!
//! Defaults documented on fields are Chart.js 4.5.1's.

use crate::color::Rgba;
use crate::time::{DateAdapter, DisplayFormats, TimeUnit};
use crate::values::{Font, Indexable, Padding};

/// A length as a number or a `'N%'` string (`cutout`, `radius`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dim {
    /// Pixels (or, for `cutout`, a number of pixels turned into a fraction).
    Px(f64),
    /// A percentage, stored as N.
    Percent(f64),
}

/// `borderJoinStyle` of arcs: undefined means round for inner borders, bevel otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArcJoin {
    /// `'round'`.
    Round,
    /// `'bevel'`.
    Bevel,
    /// `'miter'`.
    Miter,
}

/// `spacingMode` of arcs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpacingMode {
    /// `'angular'`.
    #[default]
    Angular,
    /// `'proportional'`.
    Proportional,
    /// `'parallel'`.
    Parallel,
}

/// Options of an arc element at one data index.
#[derive(Debug, Clone, PartialEq)]
pub struct ArcOptions {
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `'#fff'`.
    pub border_color: Rgba,
    /// `borderWidth`. Default: 2.
    pub border_width: f64,
    /// `borderAlign === 'inner'`. Default: `'center'`.
    pub border_align_inner: bool,
    /// `borderJoinStyle`. Default: undefined.
    pub border_join: Option<ArcJoin>,
    /// `borderDash` (not indexable). Default: `[]`.
    pub border_dash: Vec<f64>,
    /// `borderDashOffset`. Default: 0.
    pub border_dash_offset: f64,
    /// `borderRadius` as (outerStart, outerEnd, innerStart, innerEnd). Default: 0.
    pub border_radius: [f64; 4],
    /// `offset`. Default: 0.
    pub offset: f64,
    /// `spacing`. Default: 0.
    pub spacing: f64,
    /// `spacingMode`: `'angular'` (default), `'proportional'` (polar area default) or
    /// `'parallel'`.
    pub spacing_mode: SpacingMode,
    /// `angle` (polar area), degrees. Default: undefined.
    pub angle: Option<f64>,
    /// `circular`. Default: true.
    pub circular: bool,
    /// `selfJoin`. Default: false.
    pub self_join: bool,
}

/// Dataset-level options of doughnut and pie datasets (the controller's `this.options`).
#[derive(Debug, Clone, PartialEq)]
pub struct ArcDatasetOptions {
    /// `cutout`. Default: `'50%'` (doughnut), 0 (pie).
    pub cutout: Dim,
    /// `radius`. Default: `'100%'`.
    pub radius: Dim,
    /// `rotation`, degrees. Default: 0.
    pub rotation: f64,
    /// `circumference`, degrees. Default: 360.
    pub circumference: f64,
    /// `spacing`. Default: 0.
    pub spacing: f64,
    /// `weight`. Default: 1.
    pub weight: f64,
    /// Parsed values (`+data[i]`, or `+data[i][parsing.key ?? 'value']` for objects).
    pub values: Vec<Option<f64>>,
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
    pub backdrop_padding: Padding,
    /// `borderRadius` of the backdrop (tl, tr, bl, br). Default: 0.
    pub border_radius: [f64; 4],
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

/// Type-specific scale options; `None` members for other scale types.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScaleExtra {
    /// For `time` and `timeseries`.
    pub time: Option<TimeScaleOptions>,
    /// For `radialLinear`.
    pub radial: Option<RadialScaleOptions>,
}

/// `options.plugins.decimation`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DecimationOptions {
    /// `enabled`. Default: false.
    pub enabled: bool,
    /// `algorithm === 'lttb'` (else `'min-max'`, the default).
    pub lttb: bool,
    /// `samples`. Default: the chart width.
    pub samples: Option<f64>,
    /// `threshold`. Default: 4 × the chart width.
    pub threshold: Option<f64>,
}
