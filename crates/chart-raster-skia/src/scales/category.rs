//! The category scale (scale.category).

use super::{DataLimits, ScaleCore, ScaleType, Tick};
use crate::text::TextEngine;
use chart_spec::model::Raw;

/// `CategoryScale`: values are label indices.
pub struct CategoryScale {
    labels: Vec<Raw>,
    start_value: f64,
    value_range: f64,
}

impl CategoryScale {
    /// A category scale over labels (`options.labels` or `data.labels`).
    pub fn new(labels: Vec<Raw>) -> Self {
        Self {
            labels,
            start_value: 0.0,
            value_range: 0.0,
        }
    }

    /// `findOrAddLabel` + `addIfString`.
    fn find_or_add(&mut self, raw: &Raw, index: f64) -> f64 {
        let first = self.labels.iter().position(|l| l == raw);
        match first {
            None => {
                if let Raw::Str(_) = raw {
                    self.labels.push(raw.clone());
                    (self.labels.len() - 1) as f64
                } else {
                    index
                }
            }
            Some(first) => {
                let last = self.labels.iter().rposition(|l| l == raw).unwrap_or(first);
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
