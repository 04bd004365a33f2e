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

/// Characters of the longest family name kept. Fonts are matched by whole names (fontconfig
/// and Chromium), and no installed font has a name anywhere near this long, so a longer
/// name matches nothing: dropping it draws the same.
const MAX_FAMILY_NAME: usize = 255;

/// Characters of a family list kept: its whole families, in order, while they fit. Real
/// lists are tens of characters (the default is 52). Every copy of a font holds its list
/// (each data label's options, each text item of the scene), so a hostile list of the
/// 10,000 characters a string may have, under 50,000 data labels, held 1.6 GB.
const MAX_FAMILY_LIST: usize = 512;

/// A CSS `font-family` list as the engines may hold it: unchanged (borrowed) when it is
/// short, else without its names longer than 255 characters (they match no font) and cut
/// after its last whole family within 512 characters (only a hostile list gets there: a
/// family past the cut is not tried).
pub fn bounded_family(list: &str) -> std::borrow::Cow<'_, str> {
    if list.len() <= MAX_FAMILY_LIST {
        return list.into();
    }
    let mut out = String::new();
    for name in list.split(',') {
        let bare = name.trim().trim_matches(|c| c == '\'' || c == '"').trim();
        if bare.chars().count() > MAX_FAMILY_NAME {
            continue;
        }
        let added = name.chars().count() + usize::from(!out.is_empty());
        if out.chars().count() + added > MAX_FAMILY_LIST {
            break;
        }
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(name);
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_lists_are_bounded() {
        // A real list is kept as it is.
        assert!(matches!(
            bounded_family(DEFAULT_FAMILY),
            std::borrow::Cow::Borrowed(_)
        ));
        // A name no font can have is dropped; the families around it stay.
        let long = format!("'{}', Arial, sans-serif", "W".repeat(10_000));
        assert_eq!(bounded_family(&long), " Arial, sans-serif");
        assert_eq!(bounded_family(&"W".repeat(10_000)), "");
        // A list of many short names is cut after its last whole family within the bound.
        let many = vec!["abcd"; 3_000].join(", ");
        let cut = bounded_family(&many);
        assert!(cut.chars().count() <= MAX_FAMILY_LIST, "{}", cut.len());
        assert!(cut.starts_with("abcd, abcd") && cut.ends_with("abcd"));
        assert_eq!(cut.split(',').count(), 1 + (MAX_FAMILY_LIST - 4) / 6);
    }
}
