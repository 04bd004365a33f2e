//! What the skia engine does not draw yet, said in the render's messages.
//!
//! The service bundles Chart.js plugins that the browser engine runs for real. A config that
//! uses one of them still renders with the skia engine — the parts it understands — and these
//! messages say what was left out, so nobody mistakes a missing annotation for a bug in their
//! config. They are found from the config as written, because a chart whose type does not
//! resolve still gets them.

use crate::message::Message;
use serde_json::{Map, Value};

// Bundled plugins drawn or honoured, hence without a message here:
// - chartjs-plugin-datalabels and chartjs-plugin-annotation (the skia engine's
//   plugins::datalabels, plugins::annotation); what they leave out is said where their
//   options are resolved (resolve::datalabels, resolve::annotation).
// - chartjs-plugin-gradient (the skia engine's plugins::gradient).
// - chartjs-plugin-zoom draws nothing in a still image: its `start` hook only installs input
//   handlers, and its one drawing (the drag rectangle) needs a drag. The initial view is the
//   scales' min/max, which the core honours.

/// Chart types that come from bundled plugins: (type, npm package).
/// (Every bundled chart type is drawn now: wordCloud, choropleth, bubbleMap, graph,
/// forceDirectedGraph, tree, dendrogram, venn, euler, matrix, sankey, treemap.)
const PLUGIN_TYPES: &[(&str, &str)] = &[];

/// Messages for every bundled-plugin feature in `config` that this engine leaves out.
pub fn unsupported(config: &Map<String, Value>) -> Vec<Message> {
    let mut out = Vec::new();
    let mut types: Vec<&str> = config
        .get("type")
        .and_then(Value::as_str)
        .into_iter()
        .collect();
    let datasets = config
        .get("data")
        .and_then(|d| d.get("datasets"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    types.extend(
        datasets
            .iter()
            .filter_map(|d| d.get("type").and_then(Value::as_str)),
    );
    for (ty, package) in PLUGIN_TYPES {
        if types.contains(ty) {
            out.push(skipped(&format!("the \"{ty}\" chart type of {package}")));
        }
    }
    out
}

fn skipped(what: &str) -> Message {
    Message::warn(format!(
        "the skia engine does not draw {what} yet; render with engine \"browser\" for it"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(v: Value) -> Vec<String> {
        let Value::Object(m) = v else {
            panic!("object expected")
        };
        unsupported(&m).into_iter().map(|m| m.message).collect()
    }

    #[test]
    fn core_charts_have_no_messages() {
        assert!(messages(json!({"type": "bar", "data": {"datasets": [{"data": [1]}]}})).is_empty());
        assert!(
            messages(json!({"type": "bar", "options": {"plugins": {"datalabels": false}}}))
                .is_empty()
        );
    }

    #[test]
    fn drawn_plugin_types_have_no_messages() {
        for t in [
            "matrix",
            "treemap",
            "sankey",
            "venn",
            "tree",
            "dendrogram",
            "graph",
            "forceDirectedGraph",
        ] {
            assert!(messages(json!({"type": t})).is_empty(), "{t}");
        }
    }

    #[test]
    fn plugin_features_are_named() {
        // Drawn: every bundled chart type, datalabels, annotation and gradient; zoom draws
        // nothing.
        let m = messages(json!({
            "type": "wordCloud",
            "data": {"datasets": [{"data": [], "datalabels": {"color": "red"}, "gradient": {}}]},
            "options": {"plugins": {"annotation": {"annotations": {}}, "zoom": {}}}
        }));
        assert!(m.is_empty(), "{m:?}");
        for t in [
            "euler",
            "choropleth",
            "bubbleMap",
            "forceDirectedGraph",
            "graph",
        ] {
            assert!(messages(json!({"type": t})).is_empty(), "{t}");
        }
    }
}
