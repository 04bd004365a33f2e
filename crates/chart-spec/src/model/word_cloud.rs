//! chartjs-chart-wordcloud 4.4.5 (`wordCloud`): each word's options as the `word` element
//! resolves them, and the controller's layout options. The words' texts are the chart's
//! labels, which the engine reads itself.

use crate::color::Rgba;
use crate::font::FontSpec;

/// One word (`WordElement` options at an index, with its label).
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// `size`: the font size in px. Default: the data value (`parsed.y`).
    pub size: f64,
    /// `color`. Default: `Chart.defaults.color`.
    pub color: Rgba,
    /// Family, style and weight (`font.*` routes); `spec.size` is unused.
    pub font: FontSpec,
    /// The weight as d3-cloud's font string reads it (`weight ?? 1`).
    pub layout_weight: String,
    /// The style as a CSS keyword (`normal`, `italic`).
    pub style: String,
    /// `rotate` (degrees) when given; else drawn from `minRotation`..`maxRotation`.
    pub rotate: Option<f64>,
    /// `minRotation`. Default: -90.
    pub min_rotation: f64,
    /// `maxRotation`. Default: 0.
    pub max_rotation: f64,
    /// `rotationSteps`. Default: 2.
    pub rotation_steps: f64,
    /// `padding`. Default: 1.
    pub padding: f64,
    /// `strokeStyle` and `strokeWidth`, when a stroke is given.
    pub stroke: Option<(Rgba, Option<f64>)>,
}

/// chartjs-chart-wordcloud dataset options.
#[derive(Debug, Clone, PartialEq)]
pub struct WordCloudOptions {
    /// The words, in data order.
    pub words: Vec<Word>,
    /// `randomRotationSeed` as the seed of the plugin's `rnd` (a string is the sum of its
    /// characters' codes). Default: 0 (the browser engine's page seeds it so).
    pub seed: f64,
    /// `fit`. Default: false.
    pub fit: bool,
    /// `autoGrow.maxTries`. Default: 3.
    pub max_tries: f64,
    /// `autoGrow.scalingFactor` when a number. Default: 1.2.
    pub scaling_factor: f64,
}
