//! A dataset, resolved: its data, its controller's options (bar sizing, doughnut cutout and
//! circumference), the per-index element options and, for a bundled plugin chart type, that
//! type's options ([`super::plugin_chart`]).
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::element::{ArcOptions, BarOptions, LineOptions, PointOptions, Sides};
use super::kind::ChartKind;
use super::plugin_chart::PluginDataset;
use super::raw::Raw;
use super::scale::Axis;

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

/// The per-element options of a dataset, one entry per data index (at least one, so legend
/// styles exist for empty datasets).
#[derive(Debug, Clone, PartialEq)]
pub enum Elements {
    /// Bars.
    Bar(Vec<BarOptions>),
    /// Points.
    Point(Vec<PointOptions>),
    /// Arcs (doughnut, pie, polar area).
    Arc(Vec<ArcOptions>),
}

/// One dataset, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Position in `data.datasets`.
    pub index: usize,
    /// `dataset.type || config.type`.
    pub kind: ChartKind,
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
    /// Bar controller options, for bar datasets.
    pub bar: Option<BarDatasetOptions>,
    /// Line element options, for datasets with a line (line, radar).
    pub line: Option<LineOptions>,
    /// Per-data-index element options.
    pub elements: Elements,
    /// Doughnut/pie controller options and values, for those datasets.
    pub arc: Option<ArcDatasetOptions>,
    /// Options of a bundled plugin chart type (matrix, treemap).
    pub plugin: Option<PluginDataset>,
}

/// A length as a number or a `'N%'` string (`cutout`, `radius`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dim {
    /// Pixels (or, for `cutout`, a number of pixels turned into a fraction).
    Px(f64),
    /// A percentage, stored as N.
    Percent(f64),
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
