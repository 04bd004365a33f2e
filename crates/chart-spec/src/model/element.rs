//! The elements' options, resolved per data index: point, bar, line (with its `fill`) and arc
//! (`Chart.defaults.elements.*` and the dataset options routed to them).
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use crate::color::Rgba;
use crate::values::{Corners, Sides};

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
    Corners(Corners),
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

/// `spacingMode` of arcs: how `spacing` trims each arc. Chart.js 4.5.1 has no such option
/// and always trims by the proportional rule of its `pathArc`, so that is the default; the
/// option (from Chart.js after 4.5.1, whose image fixtures use it) chooses another rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpacingMode {
    /// `'angular'`: the same angle at every radius (the default after 4.5.1).
    Angular,
    /// `'proportional'`: an angle proportional to the arc's own sweep (Chart.js 4.5.1's
    /// `pathArc`: `spacingOffset = (alpha - alpha * r / (r + spacing)) / 2`).
    #[default]
    Proportional,
    /// `'parallel'`: gaps of constant width.
    Parallel,
}

/// `borderRadius` of an arc, per corner (`toRadiusCorners`): a number sets all four.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArcCorners {
    /// `outerStart`.
    pub outer_start: f64,
    /// `outerEnd`.
    pub outer_end: f64,
    /// `innerStart`.
    pub inner_start: f64,
    /// `innerEnd`.
    pub inner_end: f64,
}

impl ArcCorners {
    /// The same radius on every corner.
    pub fn all(r: f64) -> Self {
        Self {
            outer_start: r,
            outer_end: r,
            inner_start: r,
            inner_end: r,
        }
    }

    /// No corner is rounded.
    pub fn is_zero(&self) -> bool {
        self.outer_start == 0.0
            && self.outer_end == 0.0
            && self.inner_start == 0.0
            && self.inner_end == 0.0
    }
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
    /// `borderRadius`. Default: 0.
    pub border_radius: ArcCorners,
    /// `offset`. Default: 0.
    pub offset: f64,
    /// `spacing`. Default: 0.
    pub spacing: f64,
    /// `spacingMode`: `'proportional'` (default: Chart.js 4.5.1's only rule), `'angular'` or
    /// `'parallel'`.
    pub spacing_mode: SpacingMode,
    /// `angle` (polar area), degrees. Default: undefined.
    pub angle: Option<f64>,
    /// `circular`. Default: true.
    pub circular: bool,
    /// `selfJoin`. Default: false.
    pub self_join: bool,
}

/// `ArcElement.defaults` (with `Chart.defaults.backgroundColor`).
impl Default for ArcOptions {
    fn default() -> Self {
        Self {
            background_color: Rgba {
                r: 0,
                g: 0,
                b: 0,
                a: 26,
            },
            border_color: Rgba::WHITE,
            border_width: 2.0,
            border_align_inner: false,
            border_join: None,
            border_dash: Vec::new(),
            border_dash_offset: 0.0,
            border_radius: ArcCorners::default(),
            offset: 0.0,
            spacing: 0.0,
            spacing_mode: SpacingMode::Proportional,
            angle: None,
            circular: true,
            self_join: false,
        }
    }
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
