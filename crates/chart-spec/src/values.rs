//! Small option value types shared by the resolved model: per-side and per-corner numbers,
//! fonts, indexable options, JavaScript-like number printing.

use crate::font::{FontSpec, FontStyle};
use crate::scopes::Scopes;
use serde_json::Value;

/// One number per side, what Chart.js's `toTRBL()` returns (`toPadding()` adds the width
/// and height, here [`Sides::width`] and [`Sides::height`]): paddings, a bar's per-side
/// `borderWidth`, a dataset's `clip`. Each side defaults to 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sides {
    /// Top, px.
    pub top: f64,
    /// Right, px.
    pub right: f64,
    /// Bottom, px.
    pub bottom: f64,
    /// Left, px.
    pub left: f64,
}

impl Sides {
    /// The same value on all sides.
    pub fn all(v: f64) -> Self {
        Self {
            top: v,
            right: v,
            bottom: v,
            left: v,
        }
    }
    /// `left + right`.
    pub fn width(&self) -> f64 {
        self.left + self.right
    }
    /// `top + bottom`.
    pub fn height(&self) -> f64 {
        self.top + self.bottom
    }
    /// `[top, right, bottom, left]`, for arithmetic over every side.
    pub fn to_array(self) -> [f64; 4] {
        [self.top, self.right, self.bottom, self.left]
    }
}

/// One side or corner as every per-side reader here takes it ([`to_padding`],
/// [`padding_from_scopes`], [`corners_of`]: Chart.js's `toTRBL`, `toPadding` and
/// `toTRBLCorners`, which read `+value[prop] || 0`): a value that is missing or not a number
/// is 0, and so is ±Infinity (which Chart.js keeps, and which no layout or drawing can use),
/// so a side is always a finite number.
fn side_number(v: Option<&Value>) -> f64 {
    v.map(crate::scopes::to_number)
        .filter(|n| n.is_finite())
        .unwrap_or(0.0)
}

/// One number per corner, what Chart.js's `toTRBLCorners()` returns: a bar's `borderRadius`,
/// a radial scale's point-label backdrop `borderRadius`. Each corner defaults to 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Corners {
    /// `topLeft`.
    pub top_left: f64,
    /// `topRight`.
    pub top_right: f64,
    /// `bottomLeft`.
    pub bottom_left: f64,
    /// `bottomRight`.
    pub bottom_right: f64,
}

impl Corners {
    /// The same radius on every corner.
    pub fn all(v: f64) -> Self {
        Self {
            top_left: v,
            top_right: v,
            bottom_left: v,
            bottom_right: v,
        }
    }
    /// `[topLeft, topRight, bottomLeft, bottomRight]`, for arithmetic over every corner.
    pub fn to_array(self) -> [f64; 4] {
        [
            self.top_left,
            self.top_right,
            self.bottom_left,
            self.bottom_right,
        ]
    }
}

/// Mirrors `toTRBLCorners` of an object in helpers.options: the `topLeft`, `topRight`,
/// `bottomLeft` and `bottomRight` members, each read by the one per-side rule (0 when missing
/// or not a finite number).
pub fn corners_of(m: &serde_json::Map<String, Value>) -> Corners {
    Corners {
        top_left: side_number(m.get("topLeft")),
        top_right: side_number(m.get("topRight")),
        bottom_left: side_number(m.get("bottomLeft")),
        bottom_right: side_number(m.get("bottomRight")),
    }
}

/// Mirrors `toPadding` and `toTRBL` in helpers.options: a number for all sides, or `{top,
/// right, bottom, left}` with `x`/`y` shorthands; each side read by the one per-side rule (0
/// when missing or not a finite number).
pub fn to_padding(v: Option<&Value>) -> Sides {
    match v {
        Some(Value::Object(m)) => {
            let side = |k: &str, short: &str| side_number(m.get(k).or_else(|| m.get(short)));
            Sides {
                top: side("top", "y"),
                right: side("right", "x"),
                bottom: side("bottom", "y"),
                left: side("left", "x"),
            }
        }
        other => Sides::all(side_number(other)),
    }
}

/// Resolved padding from scopes where the option may be a nested object in several scopes.
/// Chart.js resolves an object-valued option through a sub-resolver over every scope's object,
/// so `{top: 4}` in one scope and `{bottom: 4}` in another merge.
pub fn padding_from_scopes(scopes: &Scopes<'_>, key: &str) -> Sides {
    match scopes.get(key) {
        Some(Value::Object(_)) => {
            let c = scopes.child(key);
            let side = |k: &str, short: &str| side_number(c.get(k).or_else(|| c.get(short)));
            Sides {
                top: side("top", "y"),
                right: side("right", "x"),
                bottom: side("bottom", "y"),
                left: side("left", "x"),
            }
        }
        other => to_padding(other),
    }
}

/// A font as Chart.js's `toFont()` resolves it, with the double-precision values layout uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Font {
    /// Size in px. Default: 12.
    pub size: f64,
    /// Line height in px. Default: 1.2 × size.
    pub line_height: f64,
    /// The font for measuring and drawing.
    pub spec: FontSpec,
}

impl Default for Font {
    fn default() -> Self {
        Self {
            size: 12.0,
            line_height: 14.4,
            spec: FontSpec::default(),
        }
    }
}

/// Mirrors `toLineHeight`: `normal`, a number, or a string with `px`, `em` or `%`.
pub fn to_line_height(v: Option<&Value>, size: f64) -> f64 {
    let s = match v {
        Some(Value::Number(n)) => n.as_f64().map(|f| f.to_string()).unwrap_or_default(),
        Some(Value::String(s)) => s.clone(),
        _ => return size * 1.2,
    };
    let s = s.trim();
    if s == "normal" {
        return size * 1.2;
    }
    let (num, unit) = match s.find(|c: char| !(c.is_ascii_digit() || c == '.')) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let Ok(value) = num.parse::<f64>() else {
        return size * 1.2;
    };
    if num.starts_with('.') || num.ends_with('.') {
        return size * 1.2;
    }
    match unit {
        "px" => value,
        "%" => size * value / 100.0,
        "" | "em" => size * value,
        _ => size * 1.2,
    }
}

fn font_weight(v: Option<&Value>) -> u16 {
    match v {
        Some(Value::Number(n)) => n
            .as_f64()
            .map(|f| f.clamp(1.0, 1000.0) as u16)
            .unwrap_or(400),
        Some(Value::String(s)) => match s.trim() {
            "bold" | "bolder" => 700,
            "lighter" => 300,
            "normal" => 400,
            other => other
                .parse::<f64>()
                .map(|f| f.clamp(1.0, 1000.0) as u16)
                .unwrap_or(400),
        },
        _ => 400,
    }
}

/// Mirrors `toFont(options, fallback)`: every field from the font scopes, else from
/// `fallback` (Chart.js's `defaults.font` unless the caller passes another).
pub fn to_font(font: &Scopes<'_>, fallback: &Scopes<'_>) -> Font {
    let pick = |k: &str| font.get(k).or_else(|| fallback.get(k));
    let mut size = match pick("size") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(12.0),
        Some(Value::String(s)) => parse_int_prefix(s).unwrap_or(12.0),
        _ => 12.0,
    };
    if !size.is_finite() || size < 0.0 {
        size = 12.0;
    }
    let style = match pick("style").and_then(Value::as_str) {
        Some("italic") => FontStyle::Italic,
        Some(s) if s.starts_with("oblique") => FontStyle::Oblique,
        _ => FontStyle::Normal,
    };
    let family = match pick("family") {
        Some(Value::String(s)) => crate::font::bounded_family(s).into_owned(),
        _ => crate::font::DEFAULT_FAMILY.to_string(),
    };
    let line_height = to_line_height(pick("lineHeight"), size);
    let weight = font_weight(pick("weight"));
    Font {
        size,
        line_height,
        spec: FontSpec {
            family,
            size: size as f32,
            style,
            weight,
            line_height: line_height as f32,
        },
    }
}

fn parse_int_prefix(s: &str) -> Option<f64> {
    let t = s.trim_start();
    let end = t
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+'))))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    t[..end].parse::<f64>().ok()
}

/// An option that may be an array: one value per data (or tick) index, wrapping
/// (`value[index % value.length]` in Chart.js's `_resolveArray`). Never empty: Chart.js
/// reads an empty array as no value, so the resolver falls back to the scalar option.
#[derive(Debug, Clone, PartialEq)]
pub struct Indexable<T> {
    first: T,
    rest: Vec<T>,
}

impl<T: Clone> Indexable<T> {
    /// A single value for every index.
    pub fn one(v: T) -> Self {
        Self {
            first: v,
            rest: Vec::new(),
        }
    }
    /// One value per index, or `None` when `values` is empty.
    pub fn from_values(values: Vec<T>) -> Option<Self> {
        let mut it = values.into_iter();
        let first = it.next()?;
        Some(Self {
            first,
            rest: it.collect(),
        })
    }
    /// The value at `i`, wrapping.
    pub fn at(&self, i: usize) -> T {
        match i % (self.rest.len() + 1) {
            0 => self.first.clone(),
            k => self.rest.get(k - 1).unwrap_or(&self.first).clone(),
        }
    }
    /// The first value.
    pub fn first(&self) -> T {
        self.first.clone()
    }
}

/// Options resolved for each data index of a dataset (`resolveDataElementOptions` at every
/// index). Never empty: an empty dataset still has the options of index 0, which its legend
/// item is styled with. An index past the last entry reads the last one.
#[derive(Debug, Clone, PartialEq)]
pub struct PerIndex<T> {
    items: Vec<T>,
}

impl<T> PerIndex<T> {
    /// The options of indices `0..values.len()`, or `None` when `values` is empty.
    pub fn new(values: Vec<T>) -> Option<Self> {
        (!values.is_empty()).then_some(Self { items: values })
    }
    /// The options of index 0 followed by those of the next indices, in order.
    pub fn with_first(first: T, rest: impl IntoIterator<Item = T>) -> Self {
        let mut items = vec![first];
        items.extend(rest);
        Self { items }
    }
    /// The options at index `i` (the last entry's past the end).
    pub fn at(&self, i: usize) -> &T {
        let last = self.items.len() - 1;
        &self.items[i.min(last)]
    }
    /// The options of index 0.
    pub fn first(&self) -> &T {
        &self.items[0]
    }
    /// Every entry, by index.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
    /// How many entries there are (at least one).
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Never: the list always holds index 0 (for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// JavaScript's `String(number)`: integers without a fraction, shortest round-trip digits,
/// exponent form outside `[1e-7, 1e21)`.
pub fn js_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if (1e-7..1e21).contains(&a) {
        let s = format!("{v}");
        return s;
    }
    // Exponent form: shortest digits from `{:e}` (Rust gives e.g. "1e21", "1.5e-8").
    let s = format!("{v:e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let sign = if e.starts_with('-') { "" } else { "+" };
            format!("{m}e{sign}{e}")
        }
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexable_is_never_empty_and_wraps() {
        assert_eq!(Indexable::<f64>::from_values(Vec::new()), None);
        let ix = Indexable::from_values(vec![1.0, 2.0, 3.0]).expect("non-empty");
        let got: Vec<f64> = (0..7).map(|i| ix.at(i)).collect();
        assert_eq!(got, vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0]);
        assert_eq!(ix.first(), 1.0);
        assert_eq!(Indexable::one(5.0).at(usize::MAX), 5.0);
    }

    #[test]
    fn corners_read_as_to_trbl_corners() {
        let v = json!({"topLeft": 2, "bottomRight": "3", "topRight": "x"});
        let c = corners_of(v.as_object().expect("object"));
        assert_eq!(c.to_array(), [2.0, 0.0, 0.0, 3.0]);
    }

    #[test]
    fn per_index_is_never_empty_and_reads_the_last_past_the_end() {
        assert_eq!(PerIndex::<f64>::new(Vec::new()), None);
        let p = PerIndex::new(vec![1.0, 2.0]).expect("non-empty");
        assert_eq!((*p.at(0), *p.at(1), *p.at(7)), (1.0, 2.0, 2.0));
        assert_eq!((*p.first(), p.len(), p.is_empty()), (1.0, 2, false));
    }
    use serde_json::json;

    #[test]
    fn padding_forms() {
        assert_eq!(to_padding(Some(&json!(5))), Sides::all(5.0));
        let p = to_padding(Some(&json!({"x": 2, "top": 3})));
        assert_eq!((p.top, p.right, p.bottom, p.left), (3.0, 2.0, 0.0, 2.0));
        assert_eq!(to_padding(Some(&json!("abc"))), Sides::all(0.0));
        // Not finite is 0, whichever the form.
        assert_eq!(to_padding(Some(&json!("Infinity"))), Sides::all(0.0));
        let p = to_padding(Some(&json!({"left": "-Infinity", "top": 1})));
        assert_eq!((p.top, p.left), (1.0, 0.0));
    }

    #[test]
    fn line_heights() {
        assert!((to_line_height(Some(&json!(1.2)), 12.0) - 14.4).abs() < 1e-12);
        assert_eq!(to_line_height(Some(&json!("20px")), 12.0), 20.0);
        assert_eq!(to_line_height(Some(&json!("150%")), 10.0), 15.0);
        assert_eq!(to_line_height(Some(&json!("2em")), 10.0), 20.0);
        assert!((to_line_height(Some(&json!("bad")), 10.0) - 12.0).abs() < 1e-12);
    }

    #[test]
    fn js_numbers() {
        assert_eq!(js_number(1.0), "1");
        assert_eq!(js_number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(js_number(-2.5), "-2.5");
        assert_eq!(js_number(1e21), "1e+21");
    }
}
