//! The category scale (scale.category).

use super::{DataLimits, ScaleCore, ScaleType, Tick};
use crate::text::TextEngine;
use chart_spec::model::Raw;
use std::collections::HashMap;

/// `CategoryScale`: values are label indices.
pub struct CategoryScale {
    labels: Vec<Raw>,
    /// Where each label value is first and last found, built at the first lookup: Chart.js
    /// scans the labels (`indexOf`, `lastIndexOf`) for every value it parses, and a
    /// dataset of 100,000 keys (`data: {k0: 1, ...}`, each key a new label) took 100,000
    /// scans of up to 100,000 labels: over 10 s without polling the stop (found by
    /// `cargo xtask sweep`, seed 4).
    found: Option<HashMap<LabelKey, (usize, usize)>>,
    start_value: f64,
    value_range: f64,
}

/// A label value as `==` on [`Raw`] compares it: numbers by value (`-0` is `0`), arrays
/// element by element. `None` for a value holding NaN, which equals nothing.
#[derive(Hash, PartialEq, Eq)]
enum LabelKey {
    Undefined,
    Null,
    Num(u64),
    Str(String),
    Bool(bool),
    Array(Vec<LabelKey>),
    Object,
}

impl LabelKey {
    fn of(raw: &Raw) -> Option<LabelKey> {
        Some(match raw {
            Raw::Undefined => LabelKey::Undefined,
            Raw::Null => LabelKey::Null,
            Raw::Num(n) if n.is_nan() => return None,
            Raw::Num(n) => LabelKey::Num(if *n == 0.0 { 0 } else { n.to_bits() }),
            Raw::Str(s) => LabelKey::Str(s.clone()),
            Raw::Bool(b) => LabelKey::Bool(*b),
            Raw::Array(a) => LabelKey::Array(a.iter().map(LabelKey::of).collect::<Option<_>>()?),
            Raw::Object => LabelKey::Object,
        })
    }
}

impl CategoryScale {
    /// A category scale over labels (`options.labels` or `data.labels`).
    pub fn new(labels: Vec<Raw>) -> Self {
        Self {
            labels,
            found: None,
            start_value: 0.0,
            value_range: 0.0,
        }
    }

    /// `findOrAddLabel` + `addIfString`.
    fn find_or_add(&mut self, raw: &Raw, index: f64) -> f64 {
        let labels = &self.labels;
        let found = self.found.get_or_insert_with(|| {
            let mut found = HashMap::new();
            for (i, l) in labels.iter().enumerate() {
                if let Some(k) = LabelKey::of(l) {
                    found.entry(k).or_insert((i, i)).1 = i;
                }
            }
            found
        });
        let key = LabelKey::of(raw);
        match key.as_ref().and_then(|k| found.get(k)) {
            None => {
                if let (Raw::Str(_), Some(k)) = (raw, key) {
                    found.insert(k, (self.labels.len(), self.labels.len()));
                    self.labels.push(raw.clone());
                    (self.labels.len() - 1) as f64
                } else {
                    index
                }
            }
            Some(&(first, last)) => {
                if first != last {
                    index
                } else {
                    first as f64
                }
            }
        }
    }
}

impl ScaleType for CategoryScale {
    fn parse(&mut self, _core: &ScaleCore, raw: &Raw, index: Option<usize>) -> Option<f64> {
        if raw.is_null_or_undef() {
            return None;
        }
        let idx = match index {
            Some(i) if self.labels.get(i) == Some(raw) => i as f64,
            _ => {
                // valueOrDefault(index, raw): without an index the raw value itself.
                let fallback = match (index, raw) {
                    (Some(i), _) => i as f64,
                    (None, Raw::Num(n)) => *n,
                    (None, Raw::Str(s)) => s.trim().parse::<f64>().unwrap_or(f64::NAN),
                    _ => f64::NAN,
                };
                self.find_or_add(raw, fallback)
            }
        };
        // validIndex: round and clamp to the labels.
        let max = self.labels.len() as f64 - 1.0;
        if idx.is_nan() {
            return Some(f64::NAN);
        }
        Some((idx + 0.5).floor().min(max).max(0.0))
    }

    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits) {
        let (_, _, min_def, max_def) = core.user_bounds();
        let (mut min, mut max) = core.get_min_max(data, true);
        if core.opts.bounds_ticks {
            if !min_def {
                min = 0.0;
            }
            if !max_def {
                max = self.labels.len() as f64 - 1.0;
            }
        }
        core.min = min;
        core.max = max;
    }

    fn build_ticks(&mut self, core: &mut ScaleCore, _text: &TextEngine) -> Vec<Tick> {
        let (min, max) = (core.min, core.max);
        let offset = core.opts.offset;
        let n = self.labels.len() as f64;
        let count = if min == 0.0 && max == n - 1.0 {
            n
        } else {
            // labels.slice(min, max + 1)
            let s = min.max(0.0).min(n);
            let e = (max + 1.0).max(0.0).min(n);
            (e - s).max(0.0)
        };
        self.value_range = (count - if offset { 0.0 } else { 1.0 }).max(1.0);
        self.start_value = min - if offset { 0.5 } else { 0.0 };
        let mut ticks = Vec::new();
        let mut v = min;
        while v <= max {
            if ticks.len() % 4096 == 4095 && core.cancelled() {
                break;
            }
            ticks.push(Tick::new(v));
            v += 1.0;
        }
        ticks
    }

    fn tick_label(&self, _core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
        let v = ticks[index].value;
        if v >= 0.0 && (v as usize) < self.labels.len() && v.fract() == 0.0 {
            match &self.labels[v as usize] {
                Raw::Null | Raw::Undefined => None,
                r => Some(r.lines()),
            }
        } else {
            Some(vec![chart_spec::values::js_number(v)])
        }
    }

    fn configure(&mut self, core: &mut ScaleCore) {
        if !core.is_horizontal() {
            core.reverse_pixels = !core.reverse_pixels;
        }
    }

    fn pixel_for_value(&self, core: &ScaleCore, value: f64) -> f64 {
        if value.is_nan() {
            return f64::NAN;
        }
        core.pixel_for_decimal((value - self.start_value) / self.value_range)
    }

    fn value_for_pixel(&self, core: &ScaleCore, pixel: f64) -> f64 {
        (self.start_value + core.decimal_for_pixel(pixel) * self.value_range + 0.5).floor()
    }

    fn base_pixel(&self, core: &ScaleCore) -> f64 {
        core.bottom
    }

    fn label_for_value(&self, _core: &ScaleCore, value: f64) -> String {
        if value >= 0.0 && (value as usize) < self.labels.len() {
            self.labels[value as usize].to_js_string()
        } else {
            chart_spec::values::js_number(value)
        }
    }

    fn labels(&self) -> Option<&[Raw]> {
        Some(&self.labels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chart.js's `findOrAddLabel` + `addIfString` as written: two scans of the labels.
    fn scanned(labels: &mut Vec<Raw>, raw: &Raw, index: f64) -> f64 {
        match labels.iter().position(|l| l == raw) {
            None if matches!(raw, Raw::Str(_)) => {
                labels.push(raw.clone());
                (labels.len() - 1) as f64
            }
            None => index,
            Some(first) if labels.iter().rposition(|l| l == raw) == Some(first) => first as f64,
            Some(_) => index,
        }
    }

    /// The looked-up labels answer as the scans do, for strings, numbers (-0, NaN), booleans,
    /// nulls, arrays and duplicates, as values are added.
    #[test]
    fn lookups_answer_as_the_scans() {
        let pool = [
            Raw::Str("a".into()),
            Raw::Str("b".into()),
            Raw::Str(String::new()),
            Raw::Num(0.0),
            Raw::Num(-0.0),
            Raw::Num(1.5),
            Raw::Num(f64::NAN),
            Raw::Bool(true),
            Raw::Null,
            Raw::Undefined,
            Raw::Object,
            Raw::Array(vec![Raw::Str("a".into()), Raw::Num(1.0)]),
            Raw::Array(vec![Raw::Num(f64::NAN)]),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for case in 0..300 {
            let labels: Vec<Raw> = (0..next(12))
                .map(|_| pool[next(pool.len())].clone())
                .collect();
            let mut scale = CategoryScale::new(labels.clone());
            let mut reference = labels;
            for k in 0..20 {
                let raw = if next(3) == 0 {
                    Raw::Str(format!("new{}", next(4)))
                } else {
                    pool[next(pool.len())].clone()
                };
                let index = k as f64;
                let (got, want) = (
                    scale.find_or_add(&raw, index),
                    scanned(&mut reference, &raw, index),
                );
                assert!(
                    got == want || (got.is_nan() && want.is_nan()),
                    "case {case}, value {k} {raw:?}: {got} vs {want}"
                );
                // By their text: a NaN is not `==` to itself.
                assert_eq!(
                    format!("{:?}", scale.labels),
                    format!("{reference:?}"),
                    "case {case}"
                );
            }
        }
    }

    /// 100,000 new string values (a dataset `data: {k0: 1, ...}`), each a new label: linear
    /// (they took over 10 s).
    #[test]
    fn many_new_labels_are_added_in_linear_time() {
        let mut scale = CategoryScale::new(vec![Raw::Str("k0".into())]);
        let started = std::time::Instant::now();
        for i in 0..100_000 {
            let v = scale.find_or_add(&Raw::Str(format!("k{i}")), i as f64);
            assert_eq!(v, i as f64);
        }
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{:?}",
            started.elapsed()
        );
    }
}
