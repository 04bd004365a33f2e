//! The arithmetic of Chart.js's `logarithmic` scale (scale.logarithmic.js): value parsing
//! (zeros and negatives), data limits, tick generation with minor ticks, the value → decimal
//! mapping and the `formatters.logarithmic` tick label rule.

/// `Math.log10` (V8 uses fdlibm's `log10`, which `libm` ports).
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// `Math.pow`.
fn pow10(e: f64) -> f64 {
    libm::pow(10.0, e)
}

use super::linear::parse_linear;
use super::{ticks, DataLimits, ScaleCore, ScaleType, Tick};
use crate::text::TextEngine;
use chart_spec::model::Raw;

fn log10_floor(v: f64) -> f64 {
    log10(v).floor()
}

/// `changeExponent(v, m)`: `10^(floor(log10 v) + m)`.
fn change_exponent(v: f64, m: f64) -> f64 {
    pow10(log10_floor(v) + m)
}

/// `isMajor`: a power of ten.
fn is_major(v: f64) -> bool {
    v / pow10(log10_floor(v)) == 1.0
}

/// JavaScript's `Math.round`.
fn js_round(v: f64) -> f64 {
    (v + 0.5).floor()
}

/// What `parse` of the logarithmic scale makes of a finite number: zero is remembered as
/// "has zero" and skipped, negatives are dropped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LogValue {
    /// A positive value.
    Value(f64),
    /// Zero (`_zero = true`, value `undefined`).
    Zero,
    /// Negative or not finite (`null`).
    Invalid,
}

/// `parse` of LogarithmicScale.
pub fn parse_log(value: f64) -> LogValue {
    if value == 0.0 {
        LogValue::Zero
    } else if value.is_finite() && value > 0.0 {
        LogValue::Value(value)
    } else {
        LogValue::Invalid
    }
}

/// Inputs of [`data_limits`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LogLimitInputs {
    /// `getMinMax(true)` over the parsed positive values (user `min`/`max` already applied).
    pub min: Option<f64>,
    /// Same, max.
    pub max: Option<f64>,
    /// Whether a zero was parsed, or `beginAtZero` is set.
    pub zero: bool,
    /// `_userMin` (the `min` option).
    pub user_min: Option<f64>,
    /// `_userMax`.
    pub user_max: Option<f64>,
    /// `_suggestedMin`.
    pub suggested_min: Option<f64>,
}

/// `determineDataLimits` + `handleTickRangeOptions` of LogarithmicScale: `(min, max)`.
pub fn data_limits(i: LogLimitInputs) -> (f64, f64) {
    let raw_min = i.min.filter(|v| v.is_finite());
    let mut min = raw_min.map(|v| v.max(0.0));
    let max = i.max.filter(|v| v.is_finite()).map(|v| v.max(0.0));
    if i.zero && min != i.suggested_min && i.user_min.is_none() {
        if let Some(m) = min {
            min = Some(if raw_min == Some(change_exponent(m, 0.0)) {
                change_exponent(m, -1.0)
            } else {
                change_exponent(m, 0.0)
            });
        }
    }
    // `null` compares as 0 in the checks below, as in JavaScript.
    let mut min = min.unwrap_or(0.0);
    let mut max = max.unwrap_or(0.0);
    let min_defined = i.user_min.is_some();
    let max_defined = i.user_max.is_some();
    if min == max {
        if min <= 0.0 {
            if !min_defined {
                min = 1.0;
            }
            if !max_defined {
                max = 10.0;
            }
        } else {
            if !min_defined {
                min = change_exponent(min, -1.0);
            }
            if !max_defined {
                max = change_exponent(max, 1.0);
            }
        }
    }
    if min <= 0.0 && !min_defined {
        min = change_exponent(max, -1.0);
    }
    if max <= 0.0 && !max_defined {
        max = change_exponent(min, 1.0);
    }
    (min, max)
}

/// One logarithmic tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogTick {
    /// The value.
    pub value: f64,
    /// A power of ten.
    pub major: bool,
    /// The leading digits of the value at the current exponent (1..=20): the formatter
    /// labels 1, 2, 3, 5, 10 and 15.
    pub significand: f64,
}

fn steps(min: f64, max: f64, range_exp: f64) -> f64 {
    let step = pow10(range_exp);
    (max / step).ceil() - (min / step).floor()
}

fn start_exp(min: f64, max: f64) -> f64 {
    let mut exp = log10_floor(max - min);
    // Bounded loops: NaN or infinite ranges would never settle.
    for _ in 0..400 {
        if steps(min, max, exp) > 10.0 {
            exp += 1.0;
        } else {
            break;
        }
    }
    for _ in 0..400 {
        if steps(min, max, exp) < 10.0 {
            exp -= 1.0;
        } else {
            break;
        }
    }
    exp.min(log10_floor(min))
}

/// `generateTicks` of scale.logarithmic: ticks from `min` (or the `min` option) up to `max`
/// (or the `max` option), 1–9 then 10, 15, 20 significands per decade.
pub fn generate_ticks(
    user_min: Option<f64>,
    user_max: Option<f64>,
    min: f64,
    max: f64,
) -> Vec<LogTick> {
    let min = user_min.filter(|v| v.is_finite()).unwrap_or(min);
    let mut ticks = Vec::new();
    if !(min.is_finite() && max.is_finite()) || min <= 0.0 {
        return ticks;
    }
    let min_exp = log10_floor(min);
    let mut exp = start_exp(min, max);
    let mut precision = if exp < 0.0 { pow10(exp.abs()) } else { 1.0 };
    let step_size = pow10(exp);
    let base = if min_exp > exp { pow10(min_exp) } else { 0.0 };
    let start = js_round((min - base) * precision) / precision;
    let offset = ((min - base) / step_size / 10.0).floor() * step_size * 10.0;
    let mut significand = ((start - offset) / pow10(exp)).floor();
    let mut value = user_min.filter(|v| v.is_finite()).unwrap_or_else(|| {
        js_round((base + offset + significand * pow10(exp)) * precision) / precision
    });
    // A scale spans at most a few hundred decades of f64; the guard only stops runaway loops.
    let mut guard = 0;
    while value < max && guard < 10_000 {
        guard += 1;
        ticks.push(LogTick {
            value,
            major: is_major(value),
            significand,
        });
        if significand >= 10.0 {
            significand = if significand < 15.0 { 15.0 } else { 20.0 };
        } else {
            significand += 1.0;
        }
        if significand >= 20.0 {
            exp += 1.0;
            significand = 2.0;
            precision = if exp >= 0.0 { 1.0 } else { precision };
        }
        value = js_round((base + offset + significand * pow10(exp)) * precision) / precision;
    }
    let last = user_max.filter(|v| v.is_finite()).unwrap_or(value);
    ticks.push(LogTick {
        value: last,
        major: is_major(last),
        significand,
    });
    ticks
}

/// `formatters.logarithmic`: labels only the ticks whose significand is 1, 2, 3, 5, 10 or 15,
/// and every tick in the last fifth; the label text is `formatters.numeric`'s, given by
/// `numeric(index)`.
pub fn format_log_tick(
    ticks: &[LogTick],
    index: usize,
    numeric: impl FnOnce(usize) -> String,
) -> String {
    let Some(t) = ticks.get(index) else {
        return String::new();
    };
    if t.value == 0.0 {
        return "0".to_owned();
    }
    let remain = if t.significand != 0.0 {
        t.significand
    } else {
        t.value / pow10(log10(t.value).floor())
    };
    if [1.0, 2.0, 3.0, 5.0, 10.0, 15.0].contains(&remain) || index as f64 > 0.8 * ticks.len() as f64
    {
        numeric(index)
    } else {
        String::new()
    }
}

/// The `logarithmic` scale type.
#[derive(Default)]
pub struct LogScale {
    zero: bool,
    ticks: Vec<LogTick>,
    start_value: f64,
    value_range: f64,
}

impl ScaleType for LogScale {
    fn formats_numbers(&self) -> bool {
        true
    }

    fn parse(&mut self, _core: &ScaleCore, raw: &Raw, _index: Option<usize>) -> Option<f64> {
        match parse_linear(raw).map(parse_log) {
            Some(LogValue::Value(v)) => Some(v),
            Some(LogValue::Zero) => {
                self.zero = true;
                None
            }
            _ => None,
        }
    }

    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits) {
        // The datasets' limits first: chartjs-plugin-annotation widens the scale after
        // determineDataLimits (its afterDataLimits hook), so the zero rule below (a bar
        // chart's beginAtZero moves the minimum to its decade) must not see the
        // annotations' values.
        let (min, max) = core.get_datasets_min_max(data, true);
        let (umin, umax, min_def, max_def) = core.user_bounds();
        let inputs = LogLimitInputs {
            min: Some(min).filter(|v| v.is_finite()),
            max: Some(max).filter(|v| v.is_finite()),
            zero: self.zero || core.opts.begin_at_zero,
            user_min: min_def.then_some(umin),
            user_max: max_def.then_some(umax),
            suggested_min: core.suggested_min,
        };
        let (mut min, mut max) = data_limits(inputs);
        // adjustScaleRange: min/max become min(scale.min, annotations) and max(...), then
        // handleTickRangeOptions runs again (data_limits without the zero rule).
        if let Some((lo, hi)) = data.after_data_limits(core.id()) {
            let (wmin, wmax) = (min.min(lo), max.max(hi));
            if wmin != min || wmax != max {
                (min, max) = data_limits(LogLimitInputs {
                    min: Some(wmin).filter(|v| v.is_finite()),
                    max: Some(wmax).filter(|v| v.is_finite()),
                    zero: false,
                    ..inputs
                });
            }
        }
        core.min = min;
        core.max = max;
    }

    fn build_ticks(&mut self, core: &mut ScaleCore, _text: &TextEngine) -> Vec<Tick> {
        let (umin, umax, min_def, max_def) = core.user_bounds();
        self.ticks = generate_ticks(
            min_def.then_some(umin),
            max_def.then_some(umax),
            core.min,
            core.max,
        );
        if core.opts.bounds_ticks {
            for t in self.ticks.iter().filter(|t| !t.value.is_nan()) {
                core.min = core.min.min(t.value);
                core.max = core.max.max(t.value);
            }
        }
        let mut ticks: Vec<Tick> = self
            .ticks
            .iter()
            .map(|t| Tick {
                value: t.value,
                label: None,
                major: t.major,
            })
            .collect();
        if core.opts.reverse {
            ticks.reverse();
            self.ticks.reverse();
            core.start = core.max;
            core.end = core.min;
        } else {
            core.start = core.min;
            core.end = core.max;
        }
        ticks
    }

    fn tick_label(&self, core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
        let log_ticks: Vec<LogTick> = ticks
            .iter()
            .enumerate()
            .map(|(i, t)| LogTick {
                value: t.value,
                major: t.major,
                significand: self
                    .ticks
                    .get(i)
                    .filter(|lt| lt.value == t.value)
                    .map_or(0.0, |lt| lt.significand),
            })
            .collect();
        Some(vec![format_log_tick(&log_ticks, index, |i| {
            ticks::numeric(ticks[i].value, ticks, &core.opts.ticks.format)
        })])
    }

    fn configure(&mut self, core: &mut ScaleCore) {
        self.start_value = log10(core.min);
        self.value_range = log10(core.max) - log10(core.min);
    }

    fn pixel_for_value(&self, core: &ScaleCore, value: f64) -> f64 {
        let v = if value == 0.0 { core.min } else { value };
        if v.is_nan() {
            return f64::NAN;
        }
        let d = if v == core.min {
            0.0
        } else {
            (log10(v) - self.start_value) / self.value_range
        };
        core.pixel_for_decimal(d)
    }

    fn value_for_pixel(&self, core: &ScaleCore, pixel: f64) -> f64 {
        pow10(self.start_value + core.decimal_for_pixel(pixel) * self.value_range)
    }

    fn label_for_value(&self, core: &ScaleCore, value: f64) -> String {
        ticks::default_number(value, &core.opts.ticks.format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(t: &[LogTick]) -> Vec<f64> {
        t.iter().map(|t| t.value).collect()
    }

    #[test]
    fn limits_with_zero() {
        let (min, max) = data_limits(LogLimitInputs {
            min: Some(5.0),
            max: Some(800.0),
            zero: true,
            ..Default::default()
        });
        assert_eq!((min, max), (1.0, 800.0));
        let (min, max) = data_limits(LogLimitInputs {
            min: Some(10.0),
            max: Some(800.0),
            zero: true,
            ..Default::default()
        });
        assert_eq!((min, max), (1.0, 800.0));
        let (min, max) = data_limits(LogLimitInputs::default());
        assert_eq!((min, max), (1.0, 10.0));
    }

    #[test]
    fn ticks_one_to_thousand() {
        let t = generate_ticks(None, None, 1.0, 1000.0);
        let v = values(&t);
        assert_eq!(
            &v[..10],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
        );
        assert_eq!((v[10], v[11]), (15.0, 20.0));
        assert_eq!(*v.last().unwrap_or(&0.0), 1000.0);
        assert!(t[0].major && t[9].major && !t[1].major);
    }

    #[test]
    fn ticks_small_range() {
        let v = values(&generate_ticks(None, None, 0.1, 0.5));
        assert_eq!(v.first(), Some(&0.1));
        assert_eq!(v.last(), Some(&0.5));
        assert!(v.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn user_bounds() {
        let v = values(&generate_ticks(Some(7.0), Some(33.0), 7.0, 33.0));
        assert_eq!(v.first(), Some(&7.0));
        assert_eq!(v.last(), Some(&33.0));
    }

    #[test]
    fn formatter_skips_minor() {
        let t = generate_ticks(None, None, 1.0, 1000.0);
        let label = |i| format_log_tick(&t, i, |i| format!("{}", t[i].value));
        assert_eq!(label(0), "1");
        assert_eq!(label(3), "");
        assert_eq!(label(4), "5");
    }
}
