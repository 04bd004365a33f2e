//! A dataset, resolved: its data, its [`DatasetKind`] (the type with its controller's options:
//! bar sizing, doughnut cutout and circumference, the line element, or a bundled plugin chart
//! type's options from [`super::plugin_chart`]) and the per-index element options.
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
/// one, so legend styles exist for empty datasets).
#[derive(Debug, Clone, PartialEq)]
pub enum Elements {
    /// Bars.
    Bar(PerIndex<BarOptions>),
    /// Points.
    Point(PerIndex<PointOptions>),
    /// Arcs (doughnut, pie, polar area).
    Arc(PerIndex<ArcOptions>),
}

/// A dataset's type with what only that type has: its controller's options (bar sizing,
/// doughnut cutout and values), its line element, or a bundled plugin chart's options. One
/// variant per [`ChartKind`], so a bar dataset cannot carry a line, nor a pie a sankey.
#[derive(Debug, Clone, PartialEq)]
pub enum DatasetKind {
    /// `bar`.
    Bar(BarDatasetOptions),
    /// `line`: its line element.
    Line(LineOptions),
    /// `scatter`: its line element (drawn when `showLine`).
    Scatter(LineOptions),
    /// `radar`: its line element.
    Radar(LineOptions),
    /// `bubble`.
    Bubble,
    /// `doughnut`.
    Doughnut(ArcDatasetOptions),
    /// `pie`.
    Pie(ArcDatasetOptions),
    /// `polarArea`.
    PolarArea,
    /// chartjs-chart-matrix.
    Matrix(MatrixOptions),
    /// chartjs-chart-treemap.
    Treemap(Box<TreemapOptions>),
    /// chartjs-chart-sankey.
    Sankey(Box<SankeyOptions>),
    /// chartjs-chart-venn, Venn layout.
    Venn(VennOptions),
    /// chartjs-chart-venn, Euler layout.
    Euler(VennOptions),
    /// chartjs-chart-wordcloud.
    WordCloud(Box<WordCloudOptions>),
    /// chartjs-chart-geo, areas coloured by value.
    Choropleth(Box<GeoOptions>),
    /// chartjs-chart-geo, bubbles on a map.
    BubbleMap(Box<GeoOptions>),
    /// chartjs-chart-graph, tree layout.
    Tree(Box<GraphOptions>),
    /// chartjs-chart-graph, dendrogram layout.
    Dendrogram(Box<GraphOptions>),
    /// chartjs-chart-graph's misspelt `dendogram` alias.
    Dendogram(Box<GraphOptions>),
    /// chartjs-chart-graph, positions from the data.
    Graph(Box<GraphOptions>),
    /// chartjs-chart-graph, positions from a force simulation.
    ForceDirectedGraph(Box<GraphOptions>),
}

impl DatasetKind {
    /// The registered type.
    pub fn chart_kind(&self) -> ChartKind {
        match self {
            DatasetKind::Bar(_) => ChartKind::Bar,
            DatasetKind::Line(_) => ChartKind::Line,
            DatasetKind::Scatter(_) => ChartKind::Scatter,
            DatasetKind::Radar(_) => ChartKind::Radar,
            DatasetKind::Bubble => ChartKind::Bubble,
            DatasetKind::Doughnut(_) => ChartKind::Doughnut,
            DatasetKind::Pie(_) => ChartKind::Pie,
            DatasetKind::PolarArea => ChartKind::PolarArea,
            DatasetKind::Matrix(_) => ChartKind::Matrix,
            DatasetKind::Treemap(_) => ChartKind::Treemap,
            DatasetKind::Sankey(_) => ChartKind::Sankey,
            DatasetKind::Venn(_) => ChartKind::Venn,
            DatasetKind::Euler(_) => ChartKind::Euler,
            DatasetKind::WordCloud(_) => ChartKind::WordCloud,
            DatasetKind::Choropleth(_) => ChartKind::Choropleth,
            DatasetKind::BubbleMap(_) => ChartKind::BubbleMap,
            DatasetKind::Tree(_) => ChartKind::Tree,
            DatasetKind::Dendrogram(_) => ChartKind::Dendrogram,
            DatasetKind::Dendogram(_) => ChartKind::Dendogram,
            DatasetKind::Graph(_) => ChartKind::Graph,
            DatasetKind::ForceDirectedGraph(_) => ChartKind::ForceDirectedGraph,
        }
    }

    /// The bar controller's options (bar datasets).
    pub fn bar(&self) -> Option<&BarDatasetOptions> {
        match self {
            DatasetKind::Bar(b) => Some(b),
            _ => None,
        }
    }

    /// The line element's options (line, scatter and radar datasets: the types whose
    /// controller has a `datasetElementType` line, and scatter's `showLine`).
    pub fn line(&self) -> Option<&LineOptions> {
        match self {
            DatasetKind::Line(l) | DatasetKind::Scatter(l) | DatasetKind::Radar(l) => Some(l),
            _ => None,
        }
    }

    /// The doughnut controller's options and values (doughnut and pie datasets).
    pub fn arc(&self) -> Option<&ArcDatasetOptions> {
        match self {
            DatasetKind::Doughnut(a) | DatasetKind::Pie(a) => Some(a),
            _ => None,
        }
    }

    /// chartjs-chart-geo's options (choropleth and bubble map datasets).
    pub fn geo(&self) -> Option<&GeoOptions> {
        match self {
            DatasetKind::Choropleth(g) | DatasetKind::BubbleMap(g) => Some(g),
            _ => None,
        }
    }

    /// chartjs-chart-graph's options (tree, dendrogram and graph datasets).
    pub fn graph(&self) -> Option<&GraphOptions> {
        match self {
            DatasetKind::Tree(g)
            | DatasetKind::Dendrogram(g)
            | DatasetKind::Dendogram(g)
            | DatasetKind::Graph(g)
            | DatasetKind::ForceDirectedGraph(g) => Some(g),
            _ => None,
        }
    }

    /// chartjs-chart-venn's options (venn and euler datasets).
    pub fn venn(&self) -> Option<&VennOptions> {
        match self {
            DatasetKind::Venn(v) | DatasetKind::Euler(v) => Some(v),
            _ => None,
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
    /// Per-data-index element options.
    pub elements: Elements,
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
