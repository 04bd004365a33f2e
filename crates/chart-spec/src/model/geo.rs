//! chartjs-chart-geo 4.3.6 (`choropleth`, `bubbleMap`): the GeoJSON of the config as polygons
//! of longitude/latitude rings, and the projection, colour and size scale options the plugin
//! reads.

use crate::color::Rgba;

/// A GeoJSON object reduced to what is filled and stroked: polygons (rings of
/// `(longitude, latitude)` in degrees, the first ring the outside), or the whole sphere.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GeoShape {
    /// `{type: 'Sphere'}` (the plugin's default outline).
    pub sphere: bool,
    /// Polygons, each a list of rings.
    pub polygons: Vec<Vec<Vec<(f64, f64)>>>,
}

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
    /// `padding` of the projection scale (top, right, bottom, left). Default: 0.
    pub padding: [f64; 4],
    /// `scales.color.quantize`. Default: 0.
    pub quantize: f64,
    /// `scales.color.interpolate` when a name. Default: `'blues'`.
    pub interpolate: String,
    /// `scales.color.missing`. Default: transparent.
    pub missing_color: Rgba,
    /// `scales.size.range`. Default: `[2, 20]`.
    pub size_range: (f64, f64),
    /// `scales.size.mode` is `'area'`. Default: true.
    pub size_area: bool,
    /// `scales.size.missing`. Default: 1.
    pub missing_size: f64,
    /// Feature (and bubble) `backgroundColor` when given.
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
