//! Options of the plugins the engine draws: the core title, legend, filler and decimation
//! plugins, and the bundled chartjs-plugin-datalabels 2.2.0 and chartjs-plugin-gradient 0.6.1.
//! Annotation options are in [`super::annotation`].
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::element::PointStyle;
use super::scale::{Align, Position};
use crate::color::Rgba;
use crate::values::{Font, Sides};

/// Title and subtitle plugin options.
#[derive(Debug, Clone, PartialEq)]
pub struct TitleOptions {
    /// `display`. Default: false.
    pub display: bool,
    /// `text`, one entry per line. Default: `''`.
    pub text: Vec<String>,
    /// `align`. Default: center.
    pub align: Align,
    /// `position`. Default: top.
    pub position: Position,
    /// `color`. Default: `Chart.defaults.color`.
    pub color: Rgba,
    /// `font`. Default: bold (title), normal (subtitle).
    pub font: Font,
    /// `padding`. Default: 10 (title), 0 (subtitle).
    pub padding: Sides,
    /// `fullSize`. Default: true.
    pub full_size: bool,
    /// `weight`. Default: 2000 (title), 1500 (subtitle).
    pub weight: f64,
}

/// Legend labels options.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendLabelOptions {
    /// `boxWidth`. Default: 40.
    pub box_width: f64,
    /// `boxHeight`. Default: font size.
    pub box_height: Option<f64>,
    /// `color`. Default: the chart's `options.color`.
    pub color: Rgba,
    /// `font`.
    pub font: Font,
    /// `padding`. Default: 10.
    pub padding: f64,
    /// `pointStyle`. Default: the dataset's.
    pub point_style: Option<PointStyle>,
    /// `pointStyleWidth`. Default: undefined.
    pub point_style_width: Option<f64>,
    /// `usePointStyle`. Default: false.
    pub use_point_style: bool,
    /// `useBorderRadius`. Default: false.
    pub use_border_radius: bool,
    /// `borderRadius`. Default: undefined.
    pub border_radius: Option<f64>,
    /// `textAlign`. Default: undefined (left).
    pub text_align: Option<Align>,
}

/// Legend title options.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendTitleOptions {
    /// `display`. Default: false.
    pub display: bool,
    /// `text`. Default: `''`.
    pub text: String,
    /// `color`. Default: the chart's `options.color`.
    pub color: Rgba,
    /// `font`.
    pub font: Font,
    /// `padding`. Default: 0.
    pub padding: Sides,
    /// `position`: start/center/end. Default: center.
    pub position: Align,
}

/// Legend plugin options.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendOptions {
    /// `display`. Default: true.
    pub display: bool,
    /// `position`. Default: top.
    pub position: Position,
    /// `align`. Default: center.
    pub align: Align,
    /// `fullSize`. Default: true.
    pub full_size: bool,
    /// `reverse`. Default: false.
    pub reverse: bool,
    /// `weight`. Default: 1000.
    pub weight: f64,
    /// `maxWidth`. Default: undefined.
    pub max_width: Option<f64>,
    /// `maxHeight`. Default: undefined.
    pub max_height: Option<f64>,
    /// `rtl`. Default: false.
    pub rtl: bool,
    /// `textDirection`: the canvas direction the items are drawn with (`'ltr'` or `'rtl'`;
    /// anything else leaves the canvas as it is). Default: undefined.
    pub text_direction: Option<TextDirection>,
    /// `labels`.
    pub labels: LegendLabelOptions,
    /// `title`.
    pub title: LegendTitleOptions,
}

/// A canvas text direction (CSS `direction`): the base direction of the bidirectional
/// algorithm for each line drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextDirection {
    /// `ltr` (what the browser page's canvas inherits).
    #[default]
    Ltr,
    /// `rtl`.
    Rtl,
}

/// Filler plugin options.
#[derive(Debug, Clone, PartialEq)]
pub struct FillerOptions {
    /// `propagate`. Default: true.
    pub propagate: bool,
    /// `drawTime`. Default: `'beforeDatasetDraw'`.
    pub draw_time: FillDrawTime,
}

/// `drawTime` of the filler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillDrawTime {
    /// `beforeDraw`.
    BeforeDraw,
    /// `beforeDatasetsDraw`.
    BeforeDatasetsDraw,
    /// `beforeDatasetDraw` (default).
    BeforeDatasetDraw,
}

/// `algorithm` of the decimation plugin. Default: `'min-max'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecimationAlgorithm {
    /// Per-pixel min and max (shape-preserving, more points).
    #[default]
    MinMax,
    /// `'lttb'`: Largest-Triangle-Three-Buckets down to `samples` points.
    Lttb,
}

/// `options.plugins.decimation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecimationOptions {
    /// `enabled`. Default: false.
    pub enabled: bool,
    /// `algorithm`. Default: `'min-max'`.
    pub algorithm: DecimationAlgorithm,
    /// `samples` (lttb), a positive number truncated to a count. Default: the chart width.
    pub samples: Option<usize>,
    /// `threshold`, a positive number truncated to a count. Default: 4 × the chart width.
    pub threshold: Option<usize>,
}

/// `display` of one label: `true` or `'auto'` (hidden when it overlaps another label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelDisplay {
    /// Always drawn.
    Yes,
    /// `'auto'`: hidden when it overlaps a label drawn after it.
    Auto,
}

/// `align`: where the label sits relative to its anchor point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelAlign {
    /// `'center'` (default).
    Center,
    /// `'start'`: towards the element's origin.
    Start,
    /// `'end'`: away from the origin.
    End,
    /// `'top'`.
    Top,
    /// `'bottom'`.
    Bottom,
    /// `'left'`.
    Left,
    /// `'right'`.
    Right,
    /// A number: clockwise angle in degrees.
    Angle(f64),
}

/// `anchor`: the point of the element a label is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelAnchor {
    /// `'center'` (default).
    Center,
    /// `'start'`.
    Start,
    /// `'end'`.
    End,
}

/// `textAlign` of a plugin's label (chartjs-plugin-datalabels, chartjs-plugin-annotation),
/// handed to the canvas as it is: `start` and `end` take their side from the canvas
/// direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelTextAlign {
    /// `'start'` (and any unknown value).
    Start,
    /// `'left'`.
    Left,
    /// `'center'`.
    Center,
    /// `'end'`.
    End,
    /// `'right'`.
    Right,
}

impl LabelTextAlign {
    /// Reads a `textAlign` option; anything not a canvas keyword is `start`.
    pub fn parse(v: Option<&str>) -> Self {
        match v {
            Some("left") => Self::Left,
            Some("center") => Self::Center,
            Some("end") => Self::End,
            Some("right") => Self::Right,
            _ => Self::Start,
        }
    }
}

/// The resolved options of one data label (`Label._modelize` in chartjs-plugin-datalabels).
#[derive(Debug, Clone, PartialEq)]
pub struct LabelOptions {
    /// `display`. Default: `true` in the plugin, `false` as the service registers it.
    pub display: LabelDisplay,
    /// `align`. Default: `'center'`.
    pub align: LabelAlign,
    /// `anchor`. Default: `'center'`.
    pub anchor: LabelAnchor,
    /// `backgroundColor`. Default: `null` (no frame fill).
    pub background_color: Option<Rgba>,
    /// `borderColor`. Default: `null`.
    pub border_color: Option<Rgba>,
    /// `borderRadius`. Default: 0.
    pub border_radius: f64,
    /// `borderWidth`. Default: 0.
    pub border_width: f64,
    /// `clamp`: keep the anchor inside the chart area. Default: false.
    pub clamp: bool,
    /// `clip`: clip the label to the chart area. Default: false.
    pub clip: bool,
    /// `color`; `None` draws no text fill. Default: `Chart.defaults.color` (`#666`).
    pub color: Option<Rgba>,
    /// `font` over `Chart.defaults.font` (not `options.font`). Default line height: 1.2.
    pub font: Font,
    /// `offset`, px. Default: 4.
    pub offset: f64,
    /// `opacity`. Default: 1.
    pub opacity: f64,
    /// `padding`. Default: 4 on every side.
    pub padding: Sides,
    /// `rotation`, converted to radians. Default: 0.
    pub rotation: f64,
    /// `textAlign`. Default: `'start'`.
    pub text_align: LabelTextAlign,
    /// `textStrokeColor`. Default: `color`.
    pub text_stroke_color: Option<Rgba>,
    /// `textStrokeWidth`. Default: 0.
    pub text_stroke_width: f64,
}

/// One label to place on the element `index` of dataset `dataset`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataLabel {
    /// Dataset index.
    pub dataset: usize,
    /// Data index.
    pub index: usize,
    /// Text lines (the value through the default formatter, split at `\n`).
    pub lines: Vec<String>,
    /// Options.
    pub options: LabelOptions,
}

/// Every data label of a chart, in dataset then data order; per element several labels
/// when `labels` names more than one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataLabels {
    /// The labels whose `display` resolved truthy and whose text is not empty.
    pub labels: Vec<DataLabel>,
}

/// `axis` of a chartjs-plugin-gradient option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GradientAxis {
    /// `'x'`: left to right over the x scale.
    X,
    /// `'y'`: bottom to top over the y scale.
    Y,
    /// `'r'`: radial from the radial scale's centre.
    R,
}

/// One `dataset.gradient[key]` of chartjs-plugin-gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct GradientSpec {
    /// Dataset index.
    pub dataset: usize,
    /// The dataset option replaced (`backgroundColor`, `borderColor`, …).
    pub key: String,
    /// `axis`.
    pub axis: GradientAxis,
    /// `colors`: (value as written, colour), in key order; the engine places them on the
    /// scale.
    pub colors: Vec<(String, Rgba)>,
    /// The stand-in colour written into the dataset during resolution; the engine repaints
    /// every shape of this colour with the gradient.
    pub sentinel: Rgba,
}
