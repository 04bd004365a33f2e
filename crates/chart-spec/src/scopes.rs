//! Option lookup through an ordered list of scopes, as Chart.js's resolver proxies do.
//!
//! A [`Scopes`] is what `getOptionScopes` returns in core.config.js: the objects searched,
//! first to last, for a key. A value is found in the first scope that defines the key
//! (`typeof value !== 'undefined'`; JSON `null` counts as defined, as in Chart.js). Nested
//! objects (`grid`, `ticks.font`) resolve through the same-named child of every scope, which
//! is what `createSubResolver` builds. Typed reads ([`Reader`]) turn values of the wrong type
//! into warnings and fall back to the next scope's value, never panicking.

use crate::color::{parse_color, Rgba};
use crate::message::Message;
use serde_json::{Map, Value};

/// An ordered list of option objects (raw JSON, borrowed).
#[derive(Debug, Clone, Default)]
pub struct Scopes<'a> {
    list: Vec<&'a Map<String, Value>>,
}

impl<'a> Scopes<'a> {
    /// Scopes from a list of objects, first wins.
    pub fn new(list: Vec<&'a Map<String, Value>>) -> Self {
        let mut s = Self { list: Vec::new() };
        for m in list {
            s.push(m);
        }
        s
    }

    /// Appends a scope (ignored when already present, like Chart.js's `Set` of scopes).
    pub fn push(&mut self, m: &'a Map<String, Value>) {
        if !self.list.iter().any(|x| std::ptr::eq(*x, m)) {
            self.list.push(m);
        }
    }

    /// Appends `parent[key]` when it is an object (Chart.js `addIfFound`, dotted keys allowed).
    pub fn push_key(&mut self, parent: &'a Map<String, Value>, key: &str) {
        if key.is_empty() {
            self.push(parent);
            return;
        }
        let mut cur = parent;
        for part in key.split('.') {
            match cur.get(part).and_then(Value::as_object) {
                Some(m) => cur = m,
                None => return,
            }
        }
        self.push(cur);
    }

    /// The first defined value of `key`.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.list.iter().find_map(|m| m.get(key))
    }

    /// Every defined value of `key`, in scope order.
    pub fn all(&self, key: &str) -> Vec<&'a Value> {
        self.list.iter().filter_map(|m| m.get(key)).collect()
    }

    /// The scopes of a nested object option (`createSubResolver`).
    pub fn child(&self, key: &str) -> Scopes<'a> {
        let mut s = Scopes::default();
        for m in &self.list {
            if let Some(c) = m.get(key).and_then(Value::as_object) {
                s.push(c);
            }
        }
        s
    }

    /// These scopes followed by `other`'s.
    pub fn chain(mut self, other: &Scopes<'a>) -> Scopes<'a> {
        for m in &other.list {
            self.push(m);
        }
        self
    }

    /// True when no scope is present.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Typed reads from [`Scopes`], collecting warnings for values of the wrong type.
pub struct Reader<'a, 'm> {
    /// The scopes read.
    pub scopes: Scopes<'a>,
    /// Where the option lives, for messages (`options.scales.x`).
    pub path: String,
    /// Warnings go here.
    pub messages: &'m mut Vec<Message>,
}

/// JavaScript truthiness of a JSON value.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// A digit count of `Intl.NumberFormat` options (`GetNumberOption`: `ToNumber`, then floor):
/// NaN and negative values become `u32::MAX`, so that every value Intl rejects with a
/// `RangeError` stays out of range for the engine to report.
pub fn intl_digits(v: &Value) -> u32 {
    let n = to_number(v);
    if n >= 0.0 {
        n.floor() as u32
    } else {
        u32::MAX
    }
}

/// JavaScript `+value` for a JSON value (`NaN` when not numeric).
pub fn to_number(v: &Value) -> f64 {
    match v {
        Value::Null => 0.0,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                0.0
            } else {
                t.parse::<f64>().unwrap_or(f64::NAN)
            }
        }
        Value::Array(a) if a.is_empty() => 0.0,
        Value::Array(a) if a.len() == 1 => to_number(&a[0]),
        _ => f64::NAN,
    }
}

impl<'a, 'm> Reader<'a, 'm> {
    /// A reader.
    pub fn new(
        scopes: Scopes<'a>,
        path: impl Into<String>,
        messages: &'m mut Vec<Message>,
    ) -> Self {
        Self {
            scopes,
            path: path.into(),
            messages,
        }
    }

    fn warn(&mut self, key: &str, v: &Value, expected: &str) {
        self.messages.push(Message::warn(format!(
            "{}.{key}: expected {expected}, got {v}; using the default",
            self.path
        )));
    }

    /// Raw value.
    pub fn raw(&self, key: &str) -> Option<&'a Value> {
        self.scopes.get(key)
    }

    /// A number; strings holding numbers are accepted as Chart.js coerces them.
    pub fn num(&mut self, key: &str) -> Option<f64> {
        let vals: Vec<&'a Value> = self.scopes.all(key);
        for v in vals {
            match v {
                Value::Number(n) => return n.as_f64(),
                Value::Null => return None,
                Value::String(s) if s.trim().parse::<f64>().is_ok() => {
                    return s.trim().parse::<f64>().ok()
                }
                other => self.warn(key, other, "a number"),
            }
        }
        None
    }

    /// A number with a default.
    pub fn num_or(&mut self, key: &str, default: f64) -> f64 {
        self.num(key).unwrap_or(default)
    }

    /// A boolean (JavaScript truthiness for non-booleans, as Chart.js tests them).
    pub fn bool_or(&mut self, key: &str, default: bool) -> bool {
        match self.scopes.get(key) {
            Some(Value::Bool(b)) => *b,
            Some(Value::Null) | None => default,
            Some(v) => truthy(v),
        }
    }

    /// A string.
    pub fn str(&mut self, key: &str) -> Option<&'a str> {
        let vals: Vec<&'a Value> = self.scopes.all(key);
        for v in vals {
            match v {
                Value::String(s) => return Some(s.as_str()),
                Value::Null => return None,
                other => self.warn(key, other, "a string"),
            }
        }
        None
    }

    /// A colour; invalid strings are ignored by a canvas, so they warn and fall through.
    pub fn color(&mut self, key: &str) -> Option<Rgba> {
        let vals: Vec<&'a Value> = self.scopes.all(key);
        for v in vals {
            match v {
                // '' is Chart.js's own "no colour" (e.g. `ticks.textStrokeColor`).
                Value::String(s) if s.is_empty() => return None,
                Value::String(s) => match parse_color(s) {
                    Some(c) => return Some(c),
                    None => {
                        self.warn(key, v, "a CSS colour");
                    }
                },
                Value::Null => return None,
                other => self.warn(key, other, "a CSS colour"),
            }
        }
        None
    }

    /// A child reader for a nested object option.
    pub fn child(&mut self, key: &str) -> Reader<'a, '_> {
        Reader {
            scopes: self.scopes.child(key),
            path: format!("{}.{key}", self.path),
            messages: self.messages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn first_scope_wins_and_children_merge() {
        let a = json!({"x": 1, "grid": {"color": "red"}});
        let b = json!({"x": 2, "y": 3, "grid": {"lineWidth": 2, "color": "blue"}});
        let s = Scopes::new(vec![a.as_object().unwrap(), b.as_object().unwrap()]);
        assert_eq!(s.get("x"), Some(&json!(1)));
        assert_eq!(s.get("y"), Some(&json!(3)));
        let g = s.child("grid");
        assert_eq!(g.get("color"), Some(&json!("red")));
        assert_eq!(g.get("lineWidth"), Some(&json!(2)));
    }

    #[test]
    fn wrong_types_warn_and_fall_through() {
        let a = json!({"size": "big"});
        let b = json!({"size": 14});
        let mut msgs = Vec::new();
        let mut r = Reader::new(
            Scopes::new(vec![a.as_object().unwrap(), b.as_object().unwrap()]),
            "font",
            &mut msgs,
        );
        assert_eq!(r.num("size"), Some(14.0));
        assert_eq!(msgs.len(), 1);
    }
}
