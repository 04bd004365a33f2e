//! The server's log lines, on stderr: `LOG_FORMAT=text` (default) writes them as they always
//! were, one readable line each; `LOG_FORMAT=json` writes one JSON object per line, for log
//! collectors: `{"ts": <unix seconds>, "level": "info"|"warn"|"error", "msg": …,
//! "request_id": …, …}`, with `request_id` on every line about a request (its
//! `X-Request-Id`), and the request line's fields (`method`, `path`, `status`,
//! `duration_ms`, `cache`) as their own keys.
//!
//! Written with serde_json, already a dependency, rather than tracing and tracing-subscriber:
//! the server has a handful of log sites, all in this crate and the CLI, and each line is
//! written whole with one `eprintln!` (no interleaving between threads).

use serde_json::{Map, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// How log lines are written (`LOG_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One readable line (default).
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// The level of a log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Normal operation: requests, start, stop.
    Info,
    /// Something was skipped or cut short.
    Warn,
    /// A failure: a 500, a failed accept.
    Error,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

impl LogFormat {
    /// Parses `LOG_FORMAT`: `text` or `json`, any case.
    pub fn parse(v: &str) -> Option<Self> {
        match v.trim().to_ascii_lowercase().as_str() {
            "text" => Some(LogFormat::Text),
            "json" => Some(LogFormat::Json),
            _ => None,
        }
    }

    /// Writes one line to stderr: `text` in the text format; otherwise the JSON object of
    /// `level`, `message`, `request_id` (when the line is about a request) and `fields`.
    pub fn emit(
        self,
        level: Level,
        text: impl FnOnce() -> String,
        message: &str,
        request_id: Option<&str>,
        fields: &[(&str, Value)],
    ) {
        match self {
            LogFormat::Text => eprintln!("{}", text()),
            LogFormat::Json => eprintln!("{}", json_line(level, message, request_id, fields)),
        }
    }
}

/// The JSON object of one line, as text (no newline).
pub fn json_line(
    level: Level,
    message: &str,
    request_id: Option<&str>,
    fields: &[(&str, Value)],
) -> String {
    let mut m = Map::new();
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    // Milliseconds are enough, and keep the number short.
    m.insert("ts".into(), Value::from((ts * 1000.0).round() / 1000.0));
    m.insert("level".into(), Value::from(level.as_str()));
    m.insert("msg".into(), Value::from(message));
    if let Some(id) = request_id {
        m.insert("request_id".into(), Value::from(id));
    }
    for (k, v) in fields {
        m.insert((*k).to_string(), v.clone());
    }
    Value::Object(m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_line_is_one_object_with_the_request_id() {
        let line = json_line(
            Level::Info,
            "say \"hi\"\nthere",
            Some("abc-1"),
            &[("status", Value::from(200))],
        );
        assert!(!line.contains('\n'));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["level"], "info");
        assert_eq!(v["msg"], "say \"hi\"\nthere");
        assert_eq!(v["request_id"], "abc-1");
        assert_eq!(v["status"], 200);
        assert!(v["ts"].as_f64().unwrap() > 1.7e9);
        let v: Value = serde_json::from_str(&json_line(Level::Warn, "x", None, &[])).unwrap();
        assert!(v.get("request_id").is_none());
    }

    #[test]
    fn parses_the_two_formats() {
        assert_eq!(LogFormat::parse(" JSON "), Some(LogFormat::Json));
        assert_eq!(LogFormat::parse("text"), Some(LogFormat::Text));
        assert_eq!(LogFormat::parse("yaml"), None);
    }
}
