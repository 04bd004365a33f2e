//! `Chart.defaults` of Chart.js 4.5.1 core: the defaults every chart starts from (core.defaults,
//! font, layout). The tables under it live with their concept: `elements` in
//! [`super::element`], `datasets` in [`super::chart_type`], `plugins` in [`super::plugin`],
//! `scale` in [`super::scale`]; the lookup API in [`super`] merges them in.

use serde_json::{json, Value};
use std::sync::LazyLock;

/// `Chart.defaults`, its `elements`, `datasets`, `plugins` and `scale` left empty here (see the
/// module doc).
pub(super) static GLOBAL: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "backgroundColor": "rgba(0,0,0,0.1)",
        "borderColor": "rgba(0,0,0,0.1)",
        "color": "#666",
        "font": {
            "family": crate::font::DEFAULT_FAMILY,
            "size": 12,
            "style": "normal",
            "lineHeight": 1.2,
            "weight": null
        },
        "indexAxis": "x",
        "parsing": true,
        "showLine": true,
        "maintainAspectRatio": true,
        "responsive": true,
        "locale": "en-US",
        "layout": {
            "autoPadding": true,
            "padding": {"top": 0, "right": 0, "bottom": 0, "left": 0}
        },
        "elements": {},
        "datasets": {},
        "plugins": {},
        "scale": {}
    })
});
