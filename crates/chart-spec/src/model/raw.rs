//! [`Raw`]: a scalar of the config as Chart.js sees it (labels, parsed keys, annotation
//! positions), kept raw because Chart.js itself converts it late (`'' + value`, `parse`).

/// A raw scalar from the data, before a scale parses it.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// Key absent (`undefined`).
    Undefined,
    /// `null`.
    Null,
    /// A number.
    Num(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// An array (floating bar `[start, end]`, multi-line label).
    Array(Vec<Raw>),
    /// An object (not meaningful as a scalar).
    Object,
}

impl Raw {
    /// `isNullOrUndef`.
    pub fn is_null_or_undef(&self) -> bool {
        matches!(self, Raw::Undefined | Raw::Null)
    }
    /// JavaScript `String(value)` (`"a,b"` for arrays).
    pub fn to_js_string(&self) -> String {
        match self {
            Raw::Undefined => "undefined".into(),
            Raw::Null => "null".into(),
            Raw::Num(n) => crate::values::js_number(*n),
            Raw::Str(s) => s.clone(),
            Raw::Bool(b) => b.to_string(),
            Raw::Array(a) => a
                .iter()
                .map(|r| match r {
                    Raw::Null | Raw::Undefined => String::new(),
                    r => r.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Raw::Object => "[object Object]".into(),
        }
    }
    /// Lines of a label as `renderText` draws it: arrays give one line each.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Raw::Array(a) => a
                .iter()
                .filter(|r| !r.is_null_or_undef())
                .map(Raw::to_js_string)
                .collect(),
            Raw::Undefined | Raw::Null => Vec::new(),
            r => vec![r.to_js_string()],
        }
    }
}
