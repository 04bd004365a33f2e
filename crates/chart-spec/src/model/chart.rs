//! [`Chart`]: the whole chart, resolved.

use super::annotation::Annotations;
use super::dataset::Dataset;
use super::kind::ChartKind;
use super::plugin::{
    DataLabels, DecimationOptions, FillerOptions, GradientSpec, LegendOptions, TitleOptions,
};
use super::raw::Raw;
use super::scale::{Axis, ScaleOptions};
use crate::color::Rgba;
use crate::values::{Font, Sides};

/// The whole chart, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// `type`; `None` when the config names none (Chart.js still builds the chart when
    /// every dataset names its own type).
    pub kind: Option<ChartKind>,
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
    pub layout_padding: Sides,
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
    pub decimation: DecimationOptions,
    /// chartjs-plugin-datalabels; `None` when the plugin is off or no label displays.
    pub datalabels: Option<DataLabels>,
    /// chartjs-plugin-annotation; `None` when the plugin is off or nothing is annotated.
    pub annotation: Option<Annotations>,
    /// chartjs-plugin-gradient, one entry per `dataset.gradient[key]`.
    pub gradients: Vec<GradientSpec>,
}
