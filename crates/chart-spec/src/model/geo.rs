//! chartjs-chart-geo 4.3.6 (`choropleth`, `bubbleMap`): the GeoJSON of the config as polygons
//! of longitude/latitude rings, and the projection, colour and size scale options the plugin
//! reads.

use crate::color::Rgba;
use crate::values::Sides;

/// A GeoJSON object reduced to what is filled and stroked: polygons (rings of
/// `(longitude, latitude)` in degrees, the first ring the outside), or the whole sphere.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GeoShape {
    /// `{type: 'Sphere'}` (the plugin's default outline).
    pub sphere: bool,
    /// Polygons, each a list of rings.
    pub polygons: Vec<Vec<Vec<(f64, f64)>>>,
}

/// The interpolators chartjs-chart-geo 4.3.6's colour scale looks up by name (its `lookup`
/// table of d3-scale-chromatic's `interpolate<Name>` functions), by d3's `<Name>`.
pub const GEO_INTERPOLATORS: [&str; 38] = [
    "Blues",
    "BrBG",
    "BuGn",
    "BuPu",
    "Cividis",
    "Cool",
    "CubehelixDefault",
    "GnBu",
    "Greens",
    "Greys",
    "Inferno",
    "Magma",
    "OrRd",
    "Oranges",
    "PRGn",
    "PiYG",
    "Plasma",
    "PuBu",
    "PuBuGn",
    "PuOr",
    "PuRd",
    "Purples",
    "Rainbow",
    "RdBu",
    "RdGy",
    "RdPu",
    "RdYlBu",
    "RdYlGn",
    "Reds",
    "Sinebow",
    "Spectral",
    "Turbo",
    "Viridis",
    "Warm",
    "YlGn",
    "YlGnBu",
    "YlOrBr",
    "YlOrRd",
];

/// chartjs-chart-geo dataset and scale options.
#[derive(Debug, Clone, PartialEq)]
pub struct GeoOptions {
    /// Per data index: the feature (choropleth) or `None`.
    pub features: Vec<Option<GeoShape>>,
    /// Per data index: `(longitude, latitude)` (bubble map; `x`/`y` when absent).
    pub points: Vec<Option<(f64, f64)>>,
    /// Per data index: `value` (`NaN` when missing).
    pub values: Vec<f64>,
    /// `outline` (default: the sphere).
    pub outline: GeoShape,
    /// `showOutline`. Default: choropleth false, bubble map true.
    pub show_outline: bool,
    /// `clipMap` is not `false`. Default: true.
    pub clip_map: bool,
    /// `scales.projection.projection`. Default: `'albersUsa'`.
    pub projection: String,
    /// `projectionScale`. Default: 1.
    pub projection_scale: f64,
    /// `projectionOffset`. Default: `[0, 0]`.
    pub projection_offset: (f64, f64),
    /// `padding` of the projection scale. Default: 0.
    pub padding: Sides,
    /// The colour scale's legend (`scales.color`), which decides its ticks.
    pub color_legend: LegendScale,
    /// The size scale's legend (`scales.size`), which decides its ticks.
    pub size_legend: LegendScale,
    /// `scales.color.quantize`. Default: 0.
    pub quantize: f64,
    /// `scales.color.interpolate`, as d3-scale-chromatic names the interpolator (one of
    /// [`GEO_INTERPOLATORS`]: `'blues'`, `'Blues'` and `'interpolateBlues'` are `Blues`).
    /// Default: `Blues`.
    pub interpolate: String,
    /// `scales.color.missing`. Default: transparent.
    pub missing_color: Rgba,
    /// `scales.size.range`. Default: `[2, 20]`.
    pub size_range: (f64, f64),
    /// `scales.size.mode` is `'area'`. Default: true.
    pub size_area: bool,
    /// `scales.size.missing`. Default: 1.
    pub missing_size: f64,
    /// A feature's `backgroundColor` as the request gives it (the dataset, `datasets.choropleth`,
    /// `elements.geoFeature`, the chart options): it replaces the colour scale's.
    pub background_color: Vec<Option<Rgba>>,
    /// Feature `borderColor`. Default: `Chart.defaults.borderColor`.
    pub border_color: Rgba,
    /// Feature `borderWidth`. Default: 0 (a canvas keeps 1).
    pub border_width: f64,
    /// `outlineBackgroundColor`. Default: none.
    pub outline_background: Option<Rgba>,
    /// `outlineBorderColor`. Default: `borderColor`.
    pub outline_border_color: Rgba,
    /// `outlineBorderWidth`. Default: 0 (a canvas keeps 1).
    pub outline_border_width: f64,
}

/// What decides the ticks of one of chartjs-chart-geo's legend scales (`ColorScale`,
/// `SizeScale`, both `LinearScale`s): with `bounds: 'ticks'` the outer ticks are the value
/// range that colours and radii are spread over, so the tick count changes the picture even
/// when the legend is not drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendScale {
    /// `display` of the scale is not false: the legend is drawn. Default: true.
    pub display: bool,
    /// `legend.align`: the side of the bar the ticks are on (`'top'` and `'bottom'` make the
    /// scale horizontal). Default: colour `'right'`, size `'bottom'`.
    pub align: LegendAlign,
    /// `legend.position`: where the legend sits in the chart area. Default: `'bottom-right'`.
    pub position: LegendPlace,
    /// `legend.margin` from the chart area's edges, px (a number for every side). Default: 8.
    pub margin: Sides,
    /// `legend.length`: px, or a fraction of the chart area below 1. Default: colour 100,
    /// size 90.
    pub length: f64,
    /// `legend.width`: px, or a fraction below 1. Default: colour 50, size 70.
    pub width: f64,
    /// `legend.indicatorWidth`. Default: colour 10, size 42.
    pub indicator_width: f64,
    /// The tick font's line height in px. Default: 12 × 1.2.
    pub tick_line_height: f64,
    /// `ticks.minRotation` in degrees. Default: 0.
    pub min_rotation: f64,
    /// `ticks.maxTicksLimit`. Default: 11 (`getTickLimit`'s `maxTicksLimit || 11`).
    pub max_ticks_limit: f64,
    /// `min` when a finite number. Default: the smallest value.
    pub min: Option<f64>,
    /// `max` when a finite number. Default: the largest value.
    pub max: Option<f64>,
    /// `ticks.z`: where the legend sits in the chart's draw order. The scale overrides
    /// `draw`, so Chart.js's `_layers` gives it one layer at `ticks.z || 0`, drawn after the
    /// datasets when above 0, before them otherwise. Default: 1 (the plugin's `baseDefaults`).
    pub z: f64,
}

impl LegendScale {
    /// `isHorizontal()` of the legend scale: `legend.align` is `'top'` or `'bottom'`.
    pub fn horizontal(&self) -> bool {
        matches!(self.align, LegendAlign::Top | LegendAlign::Bottom)
    }
}

/// `legend.align` of a chartjs-chart-geo legend scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendAlign {
    /// `'left'`: a vertical scale, ticks left of the bar.
    Left,
    /// `'right'`: a vertical scale, ticks right of the bar.
    Right,
    /// `'top'`: a horizontal scale, ticks above the bar.
    Top,
    /// `'bottom'`: a horizontal scale, ticks below the bar.
    Bottom,
}

/// `legend.position` of a chartjs-chart-geo legend scale (`computeLegendPosition`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LegendPlace {
    /// `'top-left'`.
    TopLeft,
    /// `'top'`.
    Top,
    /// `'left'`.
    Left,
    /// `'top-right'`.
    TopRight,
    /// `'bottom-right'`.
    BottomRight,
    /// `'bottom'`.
    Bottom,
    /// `'bottom-left'`.
    BottomLeft,
    /// `'right'`, and any other string (the plugin's `default` branch).
    Right,
    /// `{x, y}`: the legend's top-left corner on the canvas, px.
    At(f64, f64),
}
