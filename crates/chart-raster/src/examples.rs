//! The example charts of `fixtures/examples/`, built into the library (see `build.rs`): the
//! `/examples` gallery and `chart-raster examples` render them.

use serde_json::{Map, Value};

include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// One example chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// File stem, used for output file names (`bar-basic`).
    pub name: &'static str,
    /// What it shows.
    pub title: String,
    /// The Chart.js config.
    pub config: Map<String, Value>,
    /// CSS pixels.
    pub width: f64,
    /// CSS pixels.
    pub height: f64,
}

/// An example file that does not have the `{title, config, width, height}` shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("example {name}: {reason}")]
pub struct ExampleError {
    /// File stem.
    pub name: &'static str,
    /// What is wrong.
    pub reason: String,
}

fn parse(name: &'static str, text: &str) -> Result<Example, ExampleError> {
    let err = |reason: String| ExampleError { name, reason };
    let v: Value = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
    let title = v["title"]
        .as_str()
        .ok_or_else(|| err("missing string `title`".into()))?
        .to_string();
    let config = v["config"]
        .as_object()
        .ok_or_else(|| err("missing object `config`".into()))?
        .clone();
    let width = v["width"]
        .as_f64()
        .ok_or_else(|| err("missing number `width`".into()))?;
    let height = v["height"]
        .as_f64()
        .ok_or_else(|| err("missing number `height`".into()))?;
    Ok(Example {
        name,
        title,
        config,
        width,
        height,
    })
}

/// Every example, sorted by name.
pub fn all() -> Result<Vec<Example>, ExampleError> {
    EXAMPLES.iter().map(|(n, t)| parse(n, t)).collect()
}

/// How many examples are built in.
pub fn count() -> usize {
    EXAMPLES.len()
}
