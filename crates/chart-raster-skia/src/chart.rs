//! One chart, from config to scene: resolve options, lay out boxes and scales, then ask each
//! element to draw itself. TODO(core owner): everything of issue 3.

use crate::scene::Scene;
use crate::text::TextEngine;
use crate::Settings;
use chart_spec::Message;
use serde_json::{Map, Value};

/// Builds the display list of a chart.
pub fn build_scene(
    _config: &Map<String, Value>,
    settings: &Settings,
    _text: &TextEngine,
) -> (Scene, Vec<Message>) {
    let scene = Scene {
        width: settings.width,
        height: settings.height,
        device_pixel_ratio: settings.device_pixel_ratio,
        background: settings.background,
        items: Vec::new(),
    };
    (scene, Vec::new())
}
