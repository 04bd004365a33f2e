//! The bundled third-party plugins the engine draws (chartjs-plugin-datalabels, chartjs-plugin-annotation, …), resolved
//! once per chart from the config and handed to the draw stages that run them.

use chart_spec::model::annotation::Annotations;
use chart_spec::model::{DataLabels, GradientSpec};
use chart_spec::resolve::{resolve_annotations, resolve_datalabels, resolve_gradients};
use chart_spec::Message;
use serde_json::{Map, Value};

/// Resolved options of the bundled plugins a chart uses.
#[derive(Debug, Clone, Default)]
pub struct Bundled {
    /// chartjs-plugin-datalabels; `None` when no label displays.
    pub datalabels: Option<DataLabels>,
    /// chartjs-plugin-annotation; `None` when nothing is annotated.
    pub annotation: Option<Annotations>,
    /// chartjs-plugin-gradient, one entry per gradient option.
    pub gradients: Vec<GradientSpec>,
}

impl Bundled {
    /// Resolves every bundled plugin's options from the config.
    pub fn resolve(config: &Map<String, Value>, messages: &mut Vec<Message>) -> Self {
        Self {
            datalabels: resolve_datalabels(config, messages),
            annotation: resolve_annotations(config, messages),
            gradients: resolve_gradients(config),
        }
    }
}
