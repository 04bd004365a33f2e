//! Chart.js plugins drawn by the engine: title, subtitle, legend, filler, decimation, and the
//! bundled chartjs-plugin-datalabels, chartjs-plugin-annotation and chartjs-plugin-gradient.
//! The colors plugin runs during option resolution (`chart_spec::resolve`), because it only
//! assigns colours.

pub mod annotation;
pub mod datalabels;
pub mod decimation;
pub mod filler;
pub mod gradient;
pub mod legend;
pub mod title;

use crate::elements::Ctx;
use crate::layout::BoxPos;
use crate::scene::TextAlign;
use chart_spec::model::{Align, LabelTextAlign, Position};

/// The point `align` picks between `start` and `end` (Chart.js `_alignStartEnd` in helpers).
pub(crate) fn align_se(align: Align, start: f64, end: f64) -> f64 {
    match align {
        Align::Start => start,
        Align::End => end,
        _ => (start + end) / 2.0,
    }
}

/// The canvas text alignment for an `align` option (Chart.js `_toLeftRightCenter`).
pub(crate) fn text_align(align: Align) -> TextAlign {
    match align {
        Align::Start => TextAlign::Left,
        Align::End => TextAlign::Right,
        _ => TextAlign::Center,
    }
}

/// Where a plugin label's lines are anchored in a text box at `x`, `w` wide, and the canvas
/// alignment they are drawn with: the plugins compute the anchor for the left-to-right
/// reading of `textAlign` (`textGeometry` in chartjs-plugin-datalabels,
/// `calculateTextAlignment` in chartjs-plugin-annotation) and hand the option to the canvas
/// unchanged, so `start`/`end` take their side from the canvas direction.
pub(crate) fn label_text_anchor(
    ctx: &Ctx<'_>,
    align: LabelTextAlign,
    x: f64,
    w: f64,
) -> (f64, TextAlign) {
    match align {
        LabelTextAlign::Start => (x, ctx.logical_align(false)),
        LabelTextAlign::Left => (x, TextAlign::Left),
        LabelTextAlign::Center => (x + w / 2.0, TextAlign::Center),
        LabelTextAlign::End => (x + w, ctx.logical_align(true)),
        LabelTextAlign::Right => (x + w, TextAlign::Right),
    }
}

/// The layout edge of a title or legend box: any position that is not an edge or
/// `'chartArea'` falls back to `'top'`, as `layouts.configure` does for these plugins.
pub(crate) fn edge_box_pos(position: &Position) -> BoxPos {
    match position {
        Position::Left => BoxPos::Left,
        Position::Right => BoxPos::Right,
        Position::Bottom => BoxPos::Bottom,
        Position::ChartArea => BoxPos::ChartArea,
        _ => BoxPos::Top,
    }
}
