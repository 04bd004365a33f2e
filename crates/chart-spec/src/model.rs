//! The resolved chart model: every option already looked up through Chart.js's scope chain
//! and typed. Engines draw from this only; raw JSON stays in [`crate::resolve`].
//!
//! Defaults documented on fields are Chart.js 4.5.1's.

use crate::color::Rgba;
use crate::values::{Font, Indexable, Padding};

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

/// A raw scalar from the data, before a scale parses it.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// Key absent (`undefined`).
    Undefined,
    /// `null`.
    Null,
    /// A number.
    Num(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// An array (floating bar `[start, end]`, multi-line label).
    Array(Vec<Raw>),
    /// An object (not meaningful as a scalar).
    Object,
}

impl Raw {
    /// `isNullOrUndef`.
    pub fn is_null_or_undef(&self) -> bool {
        matches!(self, Raw::Undefined | Raw::Null)
    }
    /// JavaScript `String(value)` (`"a,b"` for arrays).
    pub fn to_js_string(&self) -> String {
        match self {
            Raw::Undefined => "undefined".into(),
            Raw::Null => "null".into(),
            Raw::Num(n) => crate::values::js_number(*n),
            Raw::Str(s) => s.clone(),
            Raw::Bool(b) => b.to_string(),
            Raw::Array(a) => a
                .iter()
                .map(|r| match r {
                    Raw::Null | Raw::Undefined => String::new(),
                    r => r.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Raw::Object => "[object Object]".into(),
        }
    }
    /// Lines of a label as `renderText` draws it: arrays give one line each.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Raw::Array(a) => a
                .iter()
                .filter(|r| !r.is_null_or_undef())
                .map(Raw::to_js_string)
                .collect(),
            Raw::Undefined | Raw::Null => Vec::new(),
            r => vec![r.to_js_string()],
        }
    }
}

/// One data entry of a dataset, with `parsing` keys already applied.
#[derive(Debug, Clone, PartialEq)]
pub enum Datum {
    /// A number, string or `null`: the value of the index position (label from `labels`).
    Primitive(Raw),
    /// `[a, b]`: x and y (or floating bar start/end for bar charts).
    Array(Vec<Raw>),
    /// An object; `x`/`y` read with `xAxisKey`/`yAxisKey`, `r` with `rAxisKey`.
    Object {
        /// The x value.
        x: Raw,
        /// The y value.
        y: Raw,
        /// The bubble radius value.
        r: Raw,
    },
}

/// `fill` of a line dataset, decoded as `_decodeFill` in plugin.filler does.
#[derive(Debug, Clone, PartialEq)]
pub enum Fill {
    /// No fill.
    None,
    /// Fill to another dataset, absolute index.
    Dataset(usize),
    /// `'origin'` (also `true`).
    Origin,
    /// `'start'`.
    Start,
    /// `'end'`.
    End,
    /// `'stack'`.
    Stack,
    /// `'shape'`.
    Shape,
    /// `{value: v}`.
    Value(f64),
}

/// `fill` options object parts.
#[derive(Debug, Clone, PartialEq)]
pub struct FillSpec {
    /// The target.
    pub target: Fill,
    /// `fill.above`: colour above the target. Default: the line's `backgroundColor`.
    pub above: Option<Rgba>,
    /// `fill.below`: colour below the target. Default: the line's `backgroundColor`.
    pub below: Option<Rgba>,
}

/// `pointStyle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointStyle {
    /// `'circle'` (default).
    Circle,
    /// `'cross'`.
    Cross,
    /// `'crossRot'`.
    CrossRot,
    /// `'dash'`.
    Dash,
    /// `'line'`.
    Line,
    /// `'rect'`.
    Rect,
    /// `'rectRounded'`.
    RectRounded,
    /// `'rectRot'`.
    RectRot,
    /// `'star'`.
    Star,
    /// `'triangle'`.
    Triangle,
    /// `false`: nothing drawn.
    None,
    /// Any other string: Chart.js draws a circle-less path (only the default `ctx.arc` branch).
    Other,
}

/// Options of a point element (points of line, scatter and bubble datasets).
#[derive(Debug, Clone, PartialEq)]
pub struct PointOptions {
    /// `radius`. Default: 3.
    pub radius: f64,
    /// `pointStyle`. Default: circle.
    pub point_style: PointStyle,
    /// `rotation` in degrees. Default: 0.
    pub rotation: f64,
    /// `borderWidth`. Default: 1.
    pub border_width: f64,
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `rgba(0,0,0,0.1)`.
    pub border_color: Rgba,
    /// `hitRadius`. Default: 1.
    pub hit_radius: f64,
    /// `hoverRadius` (counts in `PointElement.size()`). Default: 4.
    pub hover_radius: f64,
}

/// Per-side values (`borderWidth` of bars).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sides {
    /// Top.
    pub top: f64,
    /// Right.
    pub right: f64,
    /// Bottom.
    pub bottom: f64,
    /// Left.
    pub left: f64,
}

/// A bar's `borderWidth`: one number or an object of sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarBorderWidth {
    /// One number for every side.
    All(f64),
    /// `{top, right, bottom, left}`; missing sides are 0.
    Sides(Sides),
}

/// Corner radii (`borderRadius` of bars).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarRadius {
    /// One number for every corner.
    All(f64),
    /// `{topLeft, topRight, bottomLeft, bottomRight}`; missing corners are 0.
    Corners {
        /// Top left.
        top_left: f64,
        /// Top right.
        top_right: f64,
        /// Bottom left.
        bottom_left: f64,
        /// Bottom right.
        bottom_right: f64,
    },
}

/// `borderSkipped`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BorderSkipped {
    /// `false`/falsy: draw every side.
    None,
    /// `true`: skip every side.
    All,
    /// `'start'` (default).
    Start,
    /// `'end'`.
    End,
    /// `'middle'`.
    Middle,
    /// `'bottom'`.
    Bottom,
    /// `'left'`.
    Left,
    /// `'top'`.
    Top,
    /// `'right'`.
    Right,
}

/// Options of a bar element.
#[derive(Debug, Clone, PartialEq)]
pub struct BarOptions {
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `rgba(0,0,0,0.1)`.
    pub border_color: Rgba,
    /// `borderWidth`. Default: 0.
    pub border_width: BarBorderWidth,
    /// `borderRadius`. Default: 0.
    pub border_radius: BarRadius,
    /// `borderSkipped`. Default: `'start'`.
    pub border_skipped: BorderSkipped,
    /// `inflateAmount`: `None` is `'auto'` (default).
    pub inflate_amount: Option<f64>,
    /// `pointStyle` (legend only). Default: undefined.
    pub point_style: Option<PointStyle>,
    /// `rotation` (legend only). Default: undefined.
    pub rotation: f64,
}

/// Line `borderCapStyle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CapStyle {
    /// `butt` (default).
    #[default]
    Butt,
    /// `round`.
    Round,
    /// `square`.
    Square,
}

/// Line `borderJoinStyle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JoinStyle {
    /// `miter` (default).
    #[default]
    Miter,
    /// `round`.
    Round,
    /// `bevel`.
    Bevel,
}

/// `stepped`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stepped {
    /// `false` (default).
    No,
    /// `true` or `'before'`.
    Before,
    /// `'after'`.
    After,
    /// `'middle'`.
    Middle,
}

/// Options of a line element (the dataset element of line datasets).
#[derive(Debug, Clone, PartialEq)]
pub struct LineOptions {
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `rgba(0,0,0,0.1)`.
    pub border_color: Rgba,
    /// `borderWidth`. Default: 3.
    pub border_width: f64,
    /// `borderDash`. Default: `[]`.
    pub border_dash: Vec<f64>,
    /// `borderDashOffset`. Default: 0.
    pub border_dash_offset: f64,
    /// `borderCapStyle`. Default: butt.
    pub cap: CapStyle,
    /// `borderJoinStyle`. Default: miter.
    pub join: JoinStyle,
    /// `tension`. Default: 0.
    pub tension: f64,
    /// `cubicInterpolationMode === 'monotone'`. Default: false.
    pub monotone: bool,
    /// `capBezierPoints`. Default: true.
    pub cap_bezier_points: bool,
    /// `stepped`. Default: false.
    pub stepped: Stepped,
    /// `spanGaps`: `None` false, `Some(f64::INFINITY)` true, or a maximum gap. Default: false.
    pub span_gaps: Option<f64>,
    /// `fill` (filler plugin). Default: false.
    pub fill: FillSpec,
}

/// `clip` of a dataset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Clip {
    /// `false`: no clipping.
    Disabled,
    /// Allowed overflow per side, px.
    Sides(Sides),
}

/// `barThickness`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarThickness {
    /// `'flex'`.
    Flex,
    /// A number of px.
    Px(f64),
}

/// Dataset-level options of a bar dataset (read by the controller, not by elements).
#[derive(Debug, Clone, PartialEq)]
pub struct BarDatasetOptions {
    /// `barPercentage`. Default: 0.9.
    pub bar_percentage: f64,
    /// `categoryPercentage`. Default: 0.8.
    pub category_percentage: f64,
    /// `barThickness`. Default: undefined.
    pub bar_thickness: Option<BarThickness>,
    /// `maxBarThickness`. Default: Infinity.
    pub max_bar_thickness: f64,
    /// `minBarLength`. Default: 0.
    pub min_bar_length: f64,
    /// `grouped`. Default: true.
    pub grouped: bool,
    /// `skipNull`. Default: false.
    pub skip_null: bool,
    /// `base`: value the bars start from. Default: the value scale's base value.
    pub base: Option<f64>,
}

/// The per-element options of a dataset, one entry per data index (at least one, so legend
/// styles exist for empty datasets).
#[derive(Debug, Clone, PartialEq)]
pub enum Elements {
    /// Bars.
    Bar(Vec<BarOptions>),
    /// Points.
    Point(Vec<PointOptions>),
    /// Arcs (doughnut, pie, polar area).
    Arc(Vec<crate::model_extra::ArcOptions>),
}

/// One dataset, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Position in `data.datasets`.
    pub index: usize,
    /// `dataset.type || config.type`.
    pub kind: String,
    /// `'' + dataset.label` (`"undefined"` when absent, as Chart.js stores it).
    pub label: Option<String>,
    /// `order`. Default: 0.
    pub order: f64,
    /// `hidden`. Default: false.
    pub hidden: bool,
    /// `stack`. Default: undefined.
    pub stack: Option<String>,
    /// `xAxisID`.
    pub x_axis_id: Option<String>,
    /// `yAxisID`.
    pub y_axis_id: Option<String>,
    /// `indexAxis`. Default: `'x'` (per chart type).
    pub index_axis: Axis,
    /// `parsing: false`: data already in the `{x, y}` internal format.
    pub parsing: bool,
    /// The data.
    pub data: Vec<Datum>,
    /// `showLine`. Default: true (false for scatter).
    pub show_line: bool,
    /// `clip`. Default: derived from the scales (`undefined`).
    pub clip: Option<Clip>,
    /// `drawActiveElementsOnTop`. Default: true.
    pub draw_active_on_top: bool,
    /// Bar controller options, for bar datasets.
    pub bar: Option<BarDatasetOptions>,
    /// Line element options, for datasets with a line (line, radar).
    pub line: Option<LineOptions>,
    /// Per-data-index element options.
    pub elements: Elements,
    /// Doughnut/pie controller options and values, for those datasets.
    pub arc: Option<crate::model_extra::ArcDatasetOptions>,
    /// Options of a bundled plugin chart type (matrix, treemap).
    pub plugin: Option<crate::charts_model::PluginDataset>,
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
    /// `font` resolved with `defaults.font` as fallback (what `drawTitle` uses).
    pub font: Font,
    /// `font` resolved with the chart's `options.font` fallback (what `fit` measures).
    pub fit_font: Font,
    /// `padding`. Default: `{top: 4, bottom: 4}`.
    pub padding: Padding,
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
    pub backdrop_padding: Padding,
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
    /// `useGrouping` (default true).
    pub grouping: Option<bool>,
    /// `notation: 'compact'` etc. (unsupported values are reported).
    pub notation: Option<String>,
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
    /// `type` (category, linear, ...).
    pub kind: String,
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
    /// Options of the time and radial scale types.
    pub extra: crate::model_extra::ScaleExtra,
}

/// `grace`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grace {
    /// A value in scale units.
    Value(f64),
    /// `'10%'`: fraction of the half range.
    Percent(f64),
}

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
    pub padding: Padding,
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
    pub padding: Padding,
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
    /// `labels`.
    pub labels: LegendLabelOptions,
    /// `title`.
    pub title: LegendTitleOptions,
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

/// The whole chart, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// `type`.
    pub kind: String,
    /// `data.labels`.
    pub labels: Vec<Raw>,
    /// `data.xLabels`.
    pub x_labels: Option<Vec<Raw>>,
    /// `data.yLabels`.
    pub y_labels: Option<Vec<Raw>>,
    /// The datasets, in config order.
    pub datasets: Vec<Dataset>,
    /// `options.indexAxis` (chart level). Default: `'x'`.
    pub index_axis: Axis,
    /// The scales, in `options.scales` key order after merging.
    pub scales: Vec<ScaleOptions>,
    /// `layout.padding`. Default: 0.
    pub layout_padding: Padding,
    /// `layout.autoPadding`. Default: true.
    pub auto_padding: bool,
    /// `options.font` merged over `Chart.defaults.font`.
    pub font: Font,
    /// `options.color`. Default: `#666`.
    pub color: Rgba,
    /// `locale`. Default: en-US.
    pub locale: String,
    /// Title plugin, `None` when plugins or the title are disabled.
    pub title: Option<TitleOptions>,
    /// Subtitle plugin.
    pub subtitle: Option<TitleOptions>,
    /// Legend plugin.
    pub legend: Option<LegendOptions>,
    /// Filler plugin.
    pub filler: Option<FillerOptions>,
    /// `devicePixelRatio` option, when set.
    pub device_pixel_ratio: Option<f64>,
    /// Decimation plugin.
    pub decimation: crate::model_extra::DecimationOptions,
}
