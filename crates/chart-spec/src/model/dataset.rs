//! A dataset, resolved: its data, its [`DatasetKind`] (the type with its controller's options:
//! bar sizing, doughnut cutout and circumference, the line element, or a bundled plugin chart
//! type's options from [`super::plugin_chart`], with the per-index options of its data
//! elements).
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::element::{ArcOptions, BarOptions, LineOptions, PointOptions};
use super::geo::GeoOptions;
use super::kind::ChartKind;
use super::plugin_chart::{
    GraphOptions, MatrixOptions, SankeyOptions, TreemapOptions, VennOptions,
};
use super::raw::Raw;
use super::scale::Axis;
use super::word_cloud::WordCloudOptions;
use crate::values::{PerIndex, Sides};

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

/// The per-element options of a dataset, one entry per data index ([`PerIndex`]: at least
/// one, so legend styles exist for empty datasets), as its [`DatasetKind`] holds them: the
/// options of the controller's `dataElementType`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elements<'a> {
    /// Bars.
    Bar(&'a PerIndex<BarOptions>),
    /// Points.
    Point(&'a PerIndex<PointOptions>),
    /// Arcs (doughnut, pie, polar area).
    Arc(&'a PerIndex<ArcOptions>),
}

/// A dataset's type with what only that type has: its controller's options (bar sizing,
/// doughnut cutout and values), its line element, or a bundled plugin chart's options, and
/// the options of its data elements (bars for `bar`, arcs for doughnut, pie and polar area,
/// points for every other type, whose `dataElementType` Chart.js resolves as a point's). One
/// variant per [`ChartKind`], so a bar dataset cannot carry a line or points, nor a pie a
/// sankey.
#[derive(Debug, Clone, PartialEq)]
pub enum DatasetKind {
    /// `bar`, with its bars.
    Bar(BarDatasetOptions, PerIndex<BarOptions>),
    /// `line`: its line element and points.
    Line(LineOptions, PerIndex<PointOptions>),
    /// `scatter`: its line element (drawn when `showLine`) and points.
    Scatter(LineOptions, PerIndex<PointOptions>),
    /// `radar`: its line element and points.
    Radar(LineOptions, PerIndex<PointOptions>),
    /// `bubble`: its points.
    Bubble(PerIndex<PointOptions>),
    /// `doughnut`, with its arcs.
    Doughnut(ArcDatasetOptions, PerIndex<ArcOptions>),
    /// `pie`, with its arcs.
    Pie(ArcDatasetOptions, PerIndex<ArcOptions>),
    /// `polarArea`: its arcs.
    PolarArea(PerIndex<ArcOptions>),
    /// chartjs-chart-matrix.
    Matrix(MatrixOptions, PerIndex<PointOptions>),
    /// chartjs-chart-treemap.
    Treemap(Box<TreemapOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-sankey.
    Sankey(Box<SankeyOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-venn, Venn layout.
    Venn(VennOptions, PerIndex<PointOptions>),
    /// chartjs-chart-venn, Euler layout.
    Euler(VennOptions, PerIndex<PointOptions>),
    /// chartjs-chart-wordcloud.
    WordCloud(Box<WordCloudOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-geo, areas coloured by value.
    Choropleth(Box<GeoOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-geo, bubbles on a map.
    BubbleMap(Box<GeoOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-graph, tree layout.
    Tree(Box<GraphOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-graph, dendrogram layout.
    Dendrogram(Box<GraphOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-graph's misspelt `dendogram` alias.
    Dendogram(Box<GraphOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-graph, positions from the data.
    Graph(Box<GraphOptions>, PerIndex<PointOptions>),
    /// chartjs-chart-graph, positions from a force simulation.
    ForceDirectedGraph(Box<GraphOptions>, PerIndex<PointOptions>),
}

impl DatasetKind {
    /// The registered type.
    pub fn chart_kind(&self) -> ChartKind {
        match self {
            DatasetKind::Bar(..) => ChartKind::Bar,
            DatasetKind::Line(..) => ChartKind::Line,
            DatasetKind::Scatter(..) => ChartKind::Scatter,
            DatasetKind::Radar(..) => ChartKind::Radar,
            DatasetKind::Bubble(_) => ChartKind::Bubble,
            DatasetKind::Doughnut(..) => ChartKind::Doughnut,
            DatasetKind::Pie(..) => ChartKind::Pie,
            DatasetKind::PolarArea(_) => ChartKind::PolarArea,
            DatasetKind::Matrix(..) => ChartKind::Matrix,
            DatasetKind::Treemap(..) => ChartKind::Treemap,
            DatasetKind::Sankey(..) => ChartKind::Sankey,
            DatasetKind::Venn(..) => ChartKind::Venn,
            DatasetKind::Euler(..) => ChartKind::Euler,
            DatasetKind::WordCloud(..) => ChartKind::WordCloud,
            DatasetKind::Choropleth(..) => ChartKind::Choropleth,
            DatasetKind::BubbleMap(..) => ChartKind::BubbleMap,
            DatasetKind::Tree(..) => ChartKind::Tree,
            DatasetKind::Dendrogram(..) => ChartKind::Dendrogram,
            DatasetKind::Dendogram(..) => ChartKind::Dendogram,
            DatasetKind::Graph(..) => ChartKind::Graph,
            DatasetKind::ForceDirectedGraph(..) => ChartKind::ForceDirectedGraph,
        }
    }

    /// The bar controller's options (bar datasets).
    pub fn bar(&self) -> Option<&BarDatasetOptions> {
        match self {
            DatasetKind::Bar(b, _) => Some(b),
            _ => None,
        }
    }

    /// The line element's options (line, scatter and radar datasets: the types whose
    /// controller has a `datasetElementType` line, and scatter's `showLine`).
    pub fn line(&self) -> Option<&LineOptions> {
        match self {
            DatasetKind::Line(l, _) | DatasetKind::Scatter(l, _) | DatasetKind::Radar(l, _) => {
                Some(l)
            }
            _ => None,
        }
    }

    /// The doughnut controller's options and values (doughnut and pie datasets).
    pub fn arc(&self) -> Option<&ArcDatasetOptions> {
        match self {
            DatasetKind::Doughnut(a, _) | DatasetKind::Pie(a, _) => Some(a),
            _ => None,
        }
    }

    /// chartjs-chart-geo's options (choropleth and bubble map datasets).
    pub fn geo(&self) -> Option<&GeoOptions> {
        match self {
            DatasetKind::Choropleth(g, _) | DatasetKind::BubbleMap(g, _) => Some(g),
            _ => None,
        }
    }

    /// chartjs-chart-graph's options (tree, dendrogram and graph datasets).
    pub fn graph(&self) -> Option<&GraphOptions> {
        match self {
            DatasetKind::Tree(g, _)
            | DatasetKind::Dendrogram(g, _)
            | DatasetKind::Dendogram(g, _)
            | DatasetKind::Graph(g, _)
            | DatasetKind::ForceDirectedGraph(g, _) => Some(g),
            _ => None,
        }
    }

    /// chartjs-chart-venn's options (venn and euler datasets).
    pub fn venn(&self) -> Option<&VennOptions> {
        match self {
            DatasetKind::Venn(v, _) | DatasetKind::Euler(v, _) => Some(v),
            _ => None,
        }
    }

    /// The options of the dataset's data elements, one per index.
    pub fn elements(&self) -> Elements<'_> {
        match self {
            DatasetKind::Bar(_, e) => Elements::Bar(e),
            DatasetKind::Doughnut(_, e) | DatasetKind::Pie(_, e) | DatasetKind::PolarArea(e) => {
                Elements::Arc(e)
            }
            DatasetKind::Line(_, e)
            | DatasetKind::Scatter(_, e)
            | DatasetKind::Radar(_, e)
            | DatasetKind::Bubble(e)
            | DatasetKind::Matrix(_, e)
            | DatasetKind::Treemap(_, e)
            | DatasetKind::Sankey(_, e)
            | DatasetKind::Venn(_, e)
            | DatasetKind::Euler(_, e)
            | DatasetKind::WordCloud(_, e)
            | DatasetKind::Choropleth(_, e)
            | DatasetKind::BubbleMap(_, e)
            | DatasetKind::Tree(_, e)
            | DatasetKind::Dendrogram(_, e)
            | DatasetKind::Dendogram(_, e)
            | DatasetKind::Graph(_, e)
            | DatasetKind::ForceDirectedGraph(_, e) => Elements::Point(e),
        }
    }
}

/// One dataset, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Position in `data.datasets`.
    pub index: usize,
    /// `dataset.type || config.type`, with the options only that type has.
    pub kind: DatasetKind,
    /// `'' + dataset.label` (`"undefined"` when absent, as Chart.js stores it).
    pub label: Option<String>,
    /// The lines of an array `label` (a multi-line legend label, which Chart.js's legend
    /// sizes by `calculateLegendItemHeight`); `None` for any other label.
    pub label_lines: Option<Vec<String>>,
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
}

/// A length as a number or a `'N%'` string (`cutout`, `radius`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dim {
    /// Pixels (or, for `cutout`, a number of pixels turned into a fraction).
    Px(f64),
    /// A percentage, stored as N.
    Percent(f64),
}

impl Dim {
    /// `toPercentage(value, dimension)`: a fraction.
    pub fn to_percentage(self, dimension: f64) -> f64 {
        match self {
            Dim::Px(v) => v / dimension,
            Dim::Percent(p) => p / 100.0,
        }
    }

    /// `toDimension(value, dimension)`: pixels.
    pub fn to_dimension(self, dimension: f64) -> f64 {
        match self {
            Dim::Px(v) => v,
            Dim::Percent(p) => p / 100.0 * dimension,
        }
    }
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
