//! Why a request is refused ([`RequestError`]): shared by the request's validation
//! ([`crate::request`]) and the input budgets ([`crate::budget`]), so neither imports the other
//! for it.

use crate::limits::MAX_PIXELS;

/// A short, single-line rendering of a string sent by a client (a value, a JSON key), for
/// error messages: control characters dropped, at most 40 characters, then `…`.
pub(crate) fn shorten(s: &str) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    if s.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// Why a request was rejected (HTTP 400). The messages are sent to clients as they are.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// The body is not valid JSON.
    #[error("Invalid JSON body: {0}")]
    InvalidJson(String),
    /// The body is JSON but not an object.
    #[error("Request body must be a JSON object, got {0}")]
    BodyNotObject(&'static str),
    /// No `chart` field (or `chart: null`).
    #[error("Missing chart parameter")]
    MissingChart,
    /// `chart` is a string (query string) that does not parse as JSON.
    #[error("Invalid chart parameter: not valid JSON: {0}")]
    ChartNotJson(String),
    /// `chart` is present but not an object.
    #[error("Invalid chart parameter: expected a JSON object (a Chart.js config), got {0}")]
    ChartNotObject(&'static str),
    /// A numeric field is not a number (or, in a query string, does not parse as one).
    #[error("Invalid {field}: expected a number, got {got}")]
    NotANumber {
        /// The request field.
        field: &'static str,
        /// What was sent, shortened.
        got: String,
    },
    /// A size is zero, negative, NaN or infinite.
    #[error("Invalid {field}: must be a positive finite number, got {value}")]
    NotPositive {
        /// The request field.
        field: &'static str,
        /// The value sent.
        value: f64,
    },
    /// A size is over its limit.
    #[error("Invalid {field}: {value} is over the limit of {max} ({constant})")]
    OverLimit {
        /// The request field.
        field: &'static str,
        /// The value sent.
        value: f64,
        /// The limit.
        max: f64,
        /// The name of the constant documenting the limit.
        constant: &'static str,
    },
    /// `width·dpr × height·dpr` is over [`MAX_PIXELS`], or under one pixel.
    #[error(
        "Invalid size: the bitmap would be {width}x{height} = {pixels} pixels; \
         it must be between 1 and {MAX_PIXELS} pixels (MAX_PIXELS)"
    )]
    BitmapSize {
        /// Device pixels.
        width: u64,
        /// Device pixels.
        height: u64,
        /// Their product.
        pixels: u64,
    },
    /// The bitmap is larger than the chosen format can store.
    #[error(
        "Invalid size: {format} images are limited to {max} pixels per side, \
         the bitmap would be {width}x{height}"
    )]
    FormatSideLimit {
        /// `jpeg` or `webp`.
        format: &'static str,
        /// Its side limit.
        max: u32,
        /// Device pixels.
        width: u64,
        /// Device pixels.
        height: u64,
    },
    /// `quality` is outside 0–100.
    #[error("Invalid quality: must be between 0 and 100, got {0}")]
    QualityRange(f64),
    /// `format` is not one of png, jpeg, webp, svg, pdf.
    #[error("Invalid format: {0} (expected png, jpeg, webp, svg or pdf)")]
    InvalidFormat(String),
    /// `format` svg or pdf with `engine: "browser"`: vector files are written from the skia
    /// engine's display list only.
    #[error(
        "Invalid format: {0} is drawn by the skia engine only (the browser engine renders \
         png, jpeg or webp); use engine \"skia\" for {0}"
    )]
    VectorNeedsSkia(&'static str),
    /// `engine` is not one of skia, browser.
    #[error("Invalid engine: {0}")]
    InvalidEngine(String),
    /// The chart config (or another field) needs more than an input budget of [`Limits`](crate::Limits)
    /// allows (see [`crate::budget::check_chart`]), e.g. `Invalid chart: 5000000 data points
    /// in dataset 0 is over the limit of 100000 (MAX_POINTS_PER_DATASET)`.
    #[error("Invalid {field}: {what} is over the limit of {max} ({variable})")]
    OverBudget {
        /// The request field: `chart`, or `backgroundColor` for its length.
        field: &'static str,
        /// The measured quantity and where it is, e.g. `5000000 data points in dataset 0`.
        what: String,
        /// The budget.
        max: usize,
        /// The environment variable that sets it, e.g. `MAX_POINTS_PER_DATASET`.
        variable: &'static str,
    },
    /// A string field (`backgroundColor`, `format`, `engine`) has another JSON type.
    #[error("Invalid {field}: expected a string, got {got}")]
    NotAString {
        /// The request field.
        field: &'static str,
        /// The JSON type sent.
        got: &'static str,
    },
}
