//! The layout of the live Chart.js chart, read from the chart object right after it drew:
//! the oracle `cargo xtask compare` holds the skia engine's `Layout` against, so a wrong
//! layout shows as a number rather than as pixels.

use serde::Deserialize;

/// Elements read per dataset: the oracle is a tool, but a config with a million points must
/// not turn the answer into hundreds of megabytes of JSON.
pub const MAX_ELEMENTS: usize = 10_000;

/// A box as Chart.js keeps it (`left`, `top`, `right`, `bottom`); `None` where Chart.js has no
/// finite number.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct Rect {
    /// `left`.
    pub left: Option<f64>,
    /// `top`.
    pub top: Option<f64>,
    /// `right`.
    pub right: Option<f64>,
    /// `bottom`.
    pub bottom: Option<f64>,
}

/// What Chart.js computed for one chart.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct ChartLayout {
    /// `chart.chartArea`.
    pub chart_area: Rect,
    /// `chart.scales`, in their insertion order.
    pub scales: Vec<ScaleLayout>,
    /// `chart.getDatasetMeta(i)` for every dataset.
    pub datasets: Vec<DatasetLayout>,
}

/// One scale of `chart.scales`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct ScaleLayout {
    /// `scale.id`.
    pub id: String,
    /// `scale.axis`.
    pub axis: String,
    /// The scale's box.
    pub rect: Rect,
    /// `scale.ticks`, each with `getPixelForTick(i)`.
    pub ticks: Vec<Tick>,
}

/// One tick.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct Tick {
    /// `tick.value`.
    pub value: Option<f64>,
    /// `scale.getPixelForTick(i)`.
    pub pixel: Option<f64>,
}

/// One dataset's meta.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct DatasetLayout {
    /// `chart.isDatasetVisible(i)`.
    pub visible: bool,
    /// `meta.data[j]`'s `x` and `y` (at most [`MAX_ELEMENTS`]); `None` for a hole.
    pub elements: Vec<Option<Point>>,
}

/// An element's position.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
pub struct Point {
    /// `element.x`.
    pub x: Option<f64>,
    /// `element.y`.
    pub y: Option<f64>,
}

/// The page function that reads a [`ChartLayout`] from a chart (`R.readLayout(chart)`),
/// installed with the render script.
pub(crate) const READ_LAYOUT_JS: &str = r#"
const readLayout = (chart, maxElements) => {
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const rect = (b) => (b ? { left: num(b.left), top: num(b.top), right: num(b.right), bottom: num(b.bottom) } : {});
  const scales = Object.values(chart.scales || {}).map((s) => ({
    id: String(s.id),
    axis: String(s.axis),
    rect: rect(s),
    ticks: (Array.isArray(s.ticks) ? s.ticks : []).slice(0, maxElements).map((t, i) => ({
      value: num(t && t.value),
      pixel: num(s.getPixelForTick(i)),
    })),
  }));
  const n = chart.data && Array.isArray(chart.data.datasets) ? chart.data.datasets.length : 0;
  const datasets = [];
  for (let i = 0; i < n; i++) {
    const meta = chart.getDatasetMeta(i);
    const data = Array.isArray(meta.data) ? meta.data.slice(0, maxElements) : [];
    datasets.push({
      visible: chart.isDatasetVisible(i),
      elements: data.map((e) => (e ? { x: num(e.x), y: num(e.y) } : null)),
    });
  }
  return { chart_area: rect(chart.chartArea), scales, datasets };
};
"#;
