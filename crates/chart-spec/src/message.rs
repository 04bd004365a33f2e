//! Messages a render returns, as Chart.js would print them to the console.

use serde::{Deserialize, Serialize};

/// Console level of a [`Message`], as Chart.js would have used it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// `console.error`, or an exception thrown by `new Chart()`.
    Error,
    /// `console.warn`.
    Warn,
    /// `console.info`.
    Info,
    /// `console.log`.
    Log,
}

/// One problem or note about a chart config. Never an HTTP error: the image is still drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct Message {
    /// How serious it is.
    pub level: Level,
    /// The text, word for word where Chart.js has one.
    pub message: String,
}

impl Message {
    /// An error-level message.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            level: Level::Error,
            message: message.into(),
        }
    }
    /// A warn-level message.
    pub fn warn(message: impl Into<String>) -> Self {
        Self {
            level: Level::Warn,
            message: message.into(),
        }
    }
    /// An info-level message.
    pub fn info(message: impl Into<String>) -> Self {
        Self {
            level: Level::Info,
            message: message.into(),
        }
    }
}

/// The `console.warn`s Chart.js prints while it builds a chart from the whole config, beyond
/// those of one option's resolution:
/// - `toFont` (helpers.options): `Invalid font style specified: "<style>"` for every `font`
///   object whose `style` is not `normal`, `italic`, `initial`, `inherit`, `unset` or
///   `oblique [<angle>deg]` (Chart.js's `FONT_STYLE`); once per distinct style.
/// - `DatasetController.initialize`: the Filler warning for each dataset whose `fill` is set
///   while `options.plugins.filler` is `false`.
///
/// The walk visits each value of the (budget-checked) config once, with an explicit stack,
/// so nested input cannot recurse.
pub fn console_warnings(config: &serde_json::Map<String, serde_json::Value>) -> Vec<Message> {
    use serde_json::Value;
    let mut out = Vec::new();
    let mut styles: Vec<String> = Vec::new();
    let mut stack: Vec<&Value> = config.values().collect();
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                // Every object of the config is asked: one lookup per data point.
                if let Some(Value::Object(font)) = crate::fields::field(o, "font") {
                    let style = match font.get("style") {
                        Some(Value::String(s)) => Some(s.clone()),
                        Some(Value::Number(n)) => Some(n.to_string()),
                        _ => None,
                    };
                    if let Some(s) = style.filter(|s| !valid_font_style(s)) {
                        if !styles.contains(&s) {
                            styles.push(s);
                        }
                    }
                }
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    // The walk is last-in first-out; report in a stable order.
    styles.sort();
    for s in styles {
        out.push(Message::warn(format!(
            "Invalid font style specified: \"{s}\""
        )));
    }
    let options = config.get("options").and_then(Value::as_object);
    let filler_off = options
        .and_then(|o| o.get("plugins"))
        .and_then(|p| p.get("filler"))
        == Some(&Value::Bool(false));
    if filler_off {
        let chart_type = config.get("type").and_then(Value::as_str).unwrap_or("");
        let datasets = config
            .get("data")
            .and_then(|d| d.get("datasets"))
            .and_then(Value::as_array);
        for ds in datasets.into_iter().flatten() {
            let ty = ds.get("type").and_then(Value::as_str).unwrap_or(chart_type);
            let fill = ds
                .get("fill")
                .or_else(|| {
                    options
                        .and_then(|o| o.get("datasets"))
                        .and_then(|d| d.get(ty))
                        .and_then(|d| d.get("fill"))
                })
                .or_else(|| options.and_then(|o| o.get("fill")));
            if fill.is_some_and(truthy) {
                out.push(Message::warn(
                    "Tried to use the 'fill' option without the 'Filler' plugin enabled. \
                     Please import and register the 'Filler' plugin and make sure it is not \
                     disabled in the options",
                ));
            }
        }
    }
    out
}

/// JavaScript truthiness of a JSON value.
fn truthy(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// Chart.js's `FONT_STYLE`: `/^(normal|italic|initial|inherit|unset|(oblique( -?[0-9]?[0-9]deg)?))$/`.
fn valid_font_style(s: &str) -> bool {
    if matches!(
        s,
        "normal" | "italic" | "initial" | "inherit" | "unset" | "oblique"
    ) {
        return true;
    }
    let Some(angle) = s
        .strip_prefix("oblique ")
        .and_then(|r| r.strip_suffix("deg"))
    else {
        return false;
    };
    let digits = angle.strip_prefix('-').unwrap_or(angle);
    (1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn warnings(config: serde_json::Value) -> Vec<String> {
        let map = config.as_object().cloned().unwrap_or_default();
        console_warnings(&map)
            .into_iter()
            .map(|m| m.message)
            .collect()
    }

    #[test]
    fn invalid_font_styles_warn_once_each() {
        let w = warnings(json!({"type": "bar", "options": {
            "plugins": {"title": {"font": {"style": "bold"}}, "legend": {"labels": {"font": {"style": "bold"}}}},
            "scales": {"x": {"ticks": {"font": {"style": "oblique 10deg"}}},
                       "y": {"ticks": {"font": {"style": "Italic"}}}}}}));
        assert_eq!(
            w,
            vec![
                "Invalid font style specified: \"Italic\"",
                "Invalid font style specified: \"bold\""
            ]
        );
        assert!(valid_font_style("oblique -45deg"));
        assert!(!valid_font_style("oblique 145deg"));
        assert!(!valid_font_style("oblique deg"));
    }

    #[test]
    fn fill_without_the_filler_plugin_warns_per_dataset() {
        let cfg = |filler: serde_json::Value| {
            json!({"type": "line", "data": {"datasets": [
                {"data": [1], "fill": true}, {"data": [2]}, {"data": [3], "fill": "origin"}]},
                "options": {"plugins": {"filler": filler}}})
        };
        assert_eq!(warnings(cfg(json!(false))).len(), 2);
        assert!(warnings(cfg(json!({}))).is_empty());
    }
}
