//! Options of chartjs-plugin-annotation 3.1.0 (`options.plugins.annotation`), resolved as the
//! plugin's element defaults, `common` and each annotation merge (`beforeUpdate`,
//! `resolveAnnotationOptions`). Positions stay raw values: the engine parses them against its
//! scales (`scaleValue` in the plugin).
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::element::PointStyle;
use super::plugin::LabelTextAlign;
use super::raw::Raw;
use crate::color::Rgba;
use crate::values::{Font, Sides};

/// The annotation types drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnnotationKind {
    /// `'line'` (default type).
    Line,
    /// `'box'`.
    Box,
    /// `'label'`.
    Label,
    /// `'point'`.
    Point,
    /// `'ellipse'`.
    Ellipse,
    /// `'polygon'`.
    Polygon,
    /// `'doughnutLabel'`: text in the hole of the innermost doughnut.
    DoughnutLabel,
}

/// `drawTime`: the chart hook an annotation draws in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawTime {
    /// `'beforeDraw'`.
    BeforeDraw,
    /// `'beforeDatasetsDraw'`.
    BeforeDatasetsDraw,
    /// `'afterDatasetsDraw'` (default).
    AfterDatasetsDraw,
    /// `'afterDraw'`.
    AfterDraw,
    /// A dataset index: drawn before that dataset (`beforeDatasetDraw`).
    BeforeDataset(usize),
}

/// A label position along one axis: `'start'`, `'center'`, `'end'` or a percentage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelPos {
    /// `'start'`.
    Start,
    /// `'center'` (default).
    Center,
    /// `'end'`.
    End,
    /// `'N%'`, as a 0..=1 fraction.
    Percent(f64),
}

impl LabelPos {
    /// `getRelativePosition(size, position)`.
    pub fn relative(self, size: f64) -> f64 {
        match self {
            LabelPos::Start => 0.0,
            LabelPos::End => size,
            LabelPos::Percent(p) => p * size,
            LabelPos::Center => size / 2.0,
        }
    }
}

/// One coordinate of a line's `controlPoint`: px, a percentage of the line's length, or
/// anything else (which the plugin's `getSize` turns into the whole length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ControlOffset {
    /// A number of px.
    Px(f64),
    /// `'N%'` as a fraction (may be negative).
    Percent(f64),
    /// Neither: the line's length.
    Length,
}

impl ControlOffset {
    /// `getSize(size, value, false)`.
    pub fn size(self, length: f64) -> f64 {
        match self {
            ControlOffset::Px(v) => v,
            ControlOffset::Percent(p) => p * length,
            ControlOffset::Length => length,
        }
    }
}

/// Border and fill shared by every annotation shape and label box.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// `backgroundColor`. Default: `Chart.defaults.color` for box, ellipse, point, polygon.
    pub background_color: Rgba,
    /// `borderColor`. Default: `Chart.defaults.color` (`#666`).
    pub border_color: Rgba,
    /// `borderWidth`. Default: 2 (line), 1 (box, ellipse, point, polygon), 0 (labels).
    pub border_width: f64,
    /// `borderDash`. Default: `[]`.
    pub border_dash: Vec<f64>,
    /// `borderDashOffset`. Default: 0.
    pub border_dash_offset: f64,
    /// `borderRadius` (one value for every corner). Default: 0 (6 for line labels).
    pub border_radius: f64,
    /// The canvas shadow of the fill and of the border (`setShadowStyle`).
    pub shadow: ShapeShadow,
}

/// `backgroundShadowColor`, `borderShadowColor`, `shadowBlur`, `shadowOffsetX/Y`: the
/// canvas shadow the plugin sets before filling (background colour) and stroking (border
/// colour) a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeShadow {
    /// `backgroundShadowColor`. Default: transparent.
    pub background_color: Rgba,
    /// `borderShadowColor`. Default: transparent.
    pub border_color: Rgba,
    /// `shadowBlur`. Default: 0.
    pub blur: f64,
    /// `shadowOffsetX`. Default: 0.
    pub offset_x: f64,
    /// `shadowOffsetY`. Default: 0.
    pub offset_y: f64,
}

/// One arrow head of a line (`arrowHeads.start` / `arrowHeads.end`), its options falling
/// back to `arrowHeads`, then to the line's.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrowHead {
    /// `fill`: a closed, filled head. Default: false.
    pub fill: bool,
    /// `length` along the line, px. Default: 12.
    pub length: f64,
    /// `width`: half the head's opening, px. Default: 6.
    pub width: f64,
    /// `backgroundColor` (fill), else the border colour.
    pub background_color: Option<Rgba>,
    /// Border.
    pub shape: Shape,
}

/// `callout` of a label: a pointer from the label's side to the point it labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Callout {
    /// `position`: `None` is `'auto'` (the side nearest the point); else 0 left, 1 bottom,
    /// 2 top, 3 right.
    pub position: Option<usize>,
    /// `margin` between the label and the callout, px. Default: 5.
    pub margin: f64,
    /// `side`: length of the stub along the label, px. Default: 5.
    pub side: f64,
    /// `start` along the side, px or a 0..=1 fraction when a percentage. Default: `'50%'`.
    pub start: LabelSize,
    /// Stroke.
    pub shape: Shape,
}

/// A size in px or a fraction of some length (`getSize` with a positive percentage).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelSize {
    /// px.
    Px(f64),
    /// Fraction, clamped to 0..=1.
    Fraction(f64),
    /// Anything else: the whole length.
    Whole,
}

impl LabelSize {
    /// `getSize(size, value)`.
    pub fn of(self, size: f64) -> f64 {
        match self {
            LabelSize::Px(v) => v,
            LabelSize::Fraction(f) => f * size,
            LabelSize::Whole => size,
        }
    }
}

/// The text of a label annotation or of a line/box/ellipse's `label`.
#[derive(Debug, Clone, PartialEq)]
pub struct AnnotationLabel {
    /// `display`. Default: false for sub-labels, true for `type: 'label'`.
    pub display: bool,
    /// `content` lines (an array gives several); empty: nothing drawn.
    pub content: Vec<String>,
    /// Frame.
    pub shape: Shape,
    /// `color` per line (the last repeats). Default: `'black'` (`'#fff'` on lines).
    pub colors: Vec<Rgba>,
    /// `font` per line (the last repeats). Default weight: bold for sub-labels.
    pub fonts: Vec<Font>,
    /// `padding`. Default: 6.
    pub padding: Sides,
    /// `position` as (x, y). Default: `'center'`.
    pub position: (LabelPos, LabelPos),
    /// Raw `position` when a plain string (line labels read `'start'`/`'end'`/percent).
    pub line_position: LabelPos,
    /// `xAdjust`. Default: 0.
    pub x_adjust: f64,
    /// `yAdjust`. Default: 0.
    pub y_adjust: f64,
    /// `rotation` in degrees; `None` is `'auto'` (line labels only). Default: 0.
    pub rotation: Option<f64>,
    /// `textAlign`. Default: start (center on lines and label annotations).
    pub text_align: LabelTextAlign,
    /// `textStrokeWidth`. Default: 0.
    pub text_stroke_width: f64,
    /// `textStrokeColor`. Default: none.
    pub text_stroke_color: Option<Rgba>,
    /// `callout`, when displayed (label annotations and line labels).
    pub callout: Option<Callout>,
    /// `drawTime`, falling back to the annotation's.
    pub draw_time: DrawTime,
    /// `z`, falling back to the annotation's.
    pub z: f64,
}

/// One annotation, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// `id` (key in `annotations`) when given as an object.
    pub id: Option<String>,
    /// `type`.
    pub kind: AnnotationKind,
    /// `drawTime`. Default: `'afterDatasetsDraw'`.
    pub draw_time: DrawTime,
    /// `z`. Default: 0.
    pub z: f64,
    /// `adjustScaleRange`. Default: true.
    pub adjust_scale_range: bool,
    /// `scaleID` (lines).
    pub scale_id: Option<String>,
    /// `value` (lines).
    pub value: Raw,
    /// `endValue` (lines).
    pub end_value: Raw,
    /// `xScaleID`.
    pub x_scale_id: Option<String>,
    /// `yScaleID`.
    pub y_scale_id: Option<String>,
    /// `xMin`.
    pub x_min: Raw,
    /// `xMax`.
    pub x_max: Raw,
    /// `yMin`.
    pub y_min: Raw,
    /// `yMax`.
    pub y_max: Raw,
    /// `xValue` (label, point, polygon).
    pub x_value: Raw,
    /// `yValue`.
    pub y_value: Raw,
    /// `xAdjust` (label, point, polygon). Default: 0.
    pub x_adjust: f64,
    /// `yAdjust`. Default: 0.
    pub y_adjust: f64,
    /// `radius` (point, polygon). Default: 10.
    pub radius: f64,
    /// `pointStyle` (point). Default: `'circle'`.
    pub point_style: PointStyle,
    /// `autoFit` (doughnutLabel): shrink the text to fit the hole. Default: true.
    pub auto_fit: bool,
    /// `spacing` (doughnutLabel) between the hole's edge and the background. Default: 1.
    pub spacing: f64,
    /// `sides` (polygon), as JS's `Number(sides)` (NaN when not a number). Default: 3.
    pub sides: f64,
    /// `rotation`, degrees. Default: 0.
    pub rotation: f64,
    /// Fill and border.
    pub shape: Shape,
    /// `curve` (lines): a quadratic curve through `controlPoint`. Default: false.
    pub curve: bool,
    /// `controlPoint` as (x, y) offsets from the line's centre, before rotation to the
    /// line. Default: `{y: '-50%'}`.
    pub control_point: (ControlOffset, ControlOffset),
    /// Line arrow heads at the start and the end, when displayed.
    pub arrow_heads: [Option<ArrowHead>; 2],
    /// The label: the annotation itself for `type: 'label'`, else `label`.
    pub label: AnnotationLabel,
}

/// chartjs-plugin-annotation, resolved.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Annotations {
    /// `clip`: clip to the chart area. Default: true.
    pub clip: bool,
    /// The displayed annotations, in config order.
    pub list: Vec<Annotation>,
}
