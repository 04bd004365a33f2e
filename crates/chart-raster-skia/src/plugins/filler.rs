//! The filler plugin (plugin.filler): areas under and between lines.

use crate::controllers::{ChartData, Controller};
use crate::elements::{Area, Ctx};
use crate::scales::Scale;
use chart_spec::model::Chart;

/// A fill source (`meta.$filler`).
pub struct Source {
    /// Dataset index.
    pub index: usize,
}

/// `afterDatasetsUpdate`: the fill sources with resolved targets.
pub fn sources(
    _chart: &Chart,
    _data: &ChartData,
    _ctrls: &mut [Box<dyn Controller>],
    _scales: &[Scale],
) -> Vec<Source> {
    Vec::new()
}

/// `_drawfill` for the dataset `index`, when it has a fill.
pub fn draw_fill(
    _ctx: &mut Ctx<'_>,
    _sources: &mut [Source],
    _index: usize,
    _scales: &[Scale],
    _area: &Area,
) {
}
