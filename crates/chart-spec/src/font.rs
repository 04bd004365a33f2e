//! Canvas fonts, as Chart.js builds them with `toFont()` (helpers.options).

/// `font.style`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FontStyle {
    /// `normal` (Chart.js default).
    #[default]
    Normal,
    /// `italic`.
    Italic,
    /// `oblique`.
    Oblique,
}

/// A fully resolved font: what Chart.js's `toFont()` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct FontSpec {
    /// CSS family list. Default: `"'Helvetica Neue', 'Helvetica', 'Arial', sans-serif"`.
    pub family: String,
    /// Size in CSS px. Default: 12.
    pub size: f32,
    /// Style. Default: normal.
    pub style: FontStyle,
    /// Numeric weight (normal = 400, bold = 700). Default: 400.
    pub weight: u16,
    /// Line height in px (`lineHeight` × size when unitless). Default: 1.2 × size.
    pub line_height: f32,
}

/// Chart.js's `Chart.defaults.font.family`.
pub const DEFAULT_FAMILY: &str = "'Helvetica Neue', 'Helvetica', 'Arial', sans-serif";

impl Default for FontSpec {
    fn default() -> Self {
        Self {
            family: DEFAULT_FAMILY.to_string(),
            size: 12.0,
            style: FontStyle::Normal,
            weight: 400,
            line_height: 14.4,
        }
    }
}
