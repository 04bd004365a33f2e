//! Chart.js plugins drawn by the engine: title, subtitle, legend, filler, decimation, and the
//! bundled chartjs-plugin-datalabels, chartjs-plugin-annotation and chartjs-plugin-gradient.
//! The colors plugin runs during option resolution (`chart_spec::resolve`), because it only
//! assigns colours.

pub mod annotation;
pub mod bundled;
pub mod datalabels;
pub mod decimation;
pub mod filler;
pub mod gradient;
pub mod legend;
pub mod title;
