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
