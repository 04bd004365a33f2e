//! The linear scale (scale.linearbase + scale.linear), with `generateTicks` and `niceNum`.

use super::{ticks, DataLimits, ScaleCore, ScaleType, Tick};
use crate::elements::js_round;
use crate::text::TextEngine;
use chart_spec::model::Raw;

/// `LinearScale`.
#[derive(Default)]
pub struct LinearScale {
    start_value: f64,
    end_value: f64,
    value_range: f64,
}

/// Parses a value as `LinearScaleBase.parse` does: `+raw`, null for null/undefined and
/// non-finite numbers.
pub fn parse_linear(raw: &Raw) -> Option<f64> {
    match raw {
        Raw::Undefined | Raw::Null => None,
        Raw::Num(n) => {
            if n.is_finite() {
                Some(*n)
            } else {
                None
            }
        }
        Raw::Str(s) => {
            let t = s.trim();
            Some(if t.is_empty() {
                0.0
            } else {
                t.parse::<f64>().unwrap_or(f64::NAN)
            })
        }
        Raw::Bool(b) => Some(f64::from(u8::from(*b))),
        Raw::Array(a) if a.is_empty() => Some(0.0),
        Raw::Array(a) if a.len() == 1 => parse_linear(&a[0]),
        _ => Some(f64::NAN),
    }
}

fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        v
    }
}

/// `handleTickRangeOptions`.
pub fn handle_tick_range(core: &mut ScaleCore) {
    let bz = core.opts.begin_at_zero;
    let (_, _, min_def, max_def) = core.user_bounds();
    let (mut min, mut max) = (core.min, core.max);
    if bz {
        let (ms, xs) = (sign(min), sign(max));
        if ms < 0.0 && xs < 0.0 {
            if !max_def {
                max = 0.0;
            }
        } else if ms > 0.0 && xs > 0.0 && !min_def {
            min = 0.0;
        }
    }
    if min == max {
        let offset = if max == 0.0 { 1.0 } else { (max * 0.05).abs() };
        if !max_def {
            max += offset;
        }
        if !bz && !min_def {
            min -= offset;
        }
    }
    core.min = min;
    core.max = max;
}

/// `niceNum`.
pub fn nice_num(range: f64) -> f64 {
    let rounded = js_round(range);
    let range = if (range - rounded).abs() < range / 1000.0 {
        rounded
    } else {
        range
    };
    let nice_range = libm::pow(10.0, libm::log10(range).floor());
    let fraction = range / nice_range;
    let nice_fraction = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice_fraction * nice_range
}

/// `_decimalPlaces`.
pub fn decimal_places(x: f64) -> u32 {
    if !x.is_finite() {
        return 0;
    }
    let mut e = 1.0;
    let mut p = 0;
    while js_round(x * e) / e != x && p < 400 {
        e *= 10.0;
        p += 1;
    }
    p
}

/// Inputs of `generateTicks`.
#[derive(Debug, Clone)]
pub struct TickGen {
    /// `maxTicks`.
    pub max_ticks: f64,
    /// `bounds === 'ticks'`.
    pub bounds_ticks: bool,
    /// User `min`.
    pub min: Option<f64>,
    /// User `max`.
    pub max: Option<f64>,
    /// `precision`.
    pub precision: Option<f64>,
    /// `stepSize`.
    pub step: Option<f64>,
    /// `count`.
    pub count: Option<f64>,
    /// `maxDigits`.
    pub max_digits: f64,
    /// Horizontal scale.
    pub horizontal: bool,
    /// `minRotation`.
    pub min_rotation: f64,
    /// `includeBounds`.
    pub include_bounds: bool,
}

fn relative_label_size(value: f64, min_spacing: f64, g: &TickGen) -> f64 {
    let rad = g.min_rotation.to_radians();
    let r = if g.horizontal {
        libm::sin(rad)
    } else {
        libm::cos(rad)
    };
    let ratio = if r == 0.0 || r.is_nan() { 0.001 } else { r };
    let length = 0.75 * min_spacing * chart_spec::values::js_number(value).len() as f64;
    (min_spacing / ratio).min(length)
}

/// Mirrors `generateTicks$1` of scale.linearbase.
pub fn generate_ticks(g: &TickGen, rmin: f64, rmax: f64) -> Vec<f64> {
    let mut ticks = Vec::new();
    let min_spacing_const = 1e-14;
    let unit = g.step.filter(|s| *s != 0.0).unwrap_or(1.0);
    let max_spaces = g.max_ticks - 1.0;
    let min_defined = g.min.is_some();
    let max_defined = g.max.is_some();
    let count_defined = g.count.is_some();
    let min_spacing = (rmax - rmin) / (g.max_digits + 1.0);
    let mut spacing = nice_num((rmax - rmin) / max_spaces / unit) * unit;
    if spacing < min_spacing_const && !min_defined && !max_defined {
        return vec![rmin, rmax];
    }
    let mut num_spaces = (rmax / spacing).ceil() - (rmin / spacing).floor();
    if num_spaces > max_spaces {
        spacing = nice_num(num_spaces * spacing / max_spaces / unit) * unit;
    }
    if let Some(p) = g.precision {
        let factor = libm::pow(10.0, p);
        spacing = (spacing * factor).ceil() / factor;
    }
    let (mut nice_min, mut nice_max) = if g.bounds_ticks {
        (
            (rmin / spacing).floor() * spacing,
            (rmax / spacing).ceil() * spacing,
        )
    } else {
        (rmin, rmax)
    };
    let (umin, umax) = (g.min.unwrap_or(f64::NAN), g.max.unwrap_or(f64::NAN));
    let almost_whole = |x: f64, eps: f64| {
        let r = js_round(x);
        r - eps <= x && r + eps >= x
    };
    if min_defined
        && max_defined
        && g.step.is_some_and(|s| s != 0.0)
        && almost_whole((umax - umin) / g.step.unwrap_or(1.0), spacing / 1000.0)
    {
        num_spaces = js_round(((umax - umin) / spacing).min(g.max_ticks));
        spacing = (umax - umin) / num_spaces;
        nice_min = umin;
        nice_max = umax;
    } else if count_defined {
        nice_min = if min_defined { umin } else { nice_min };
        nice_max = if max_defined { umax } else { nice_max };
        num_spaces = g.count.unwrap_or(2.0) - 1.0;
        spacing = (nice_max - nice_min) / num_spaces;
    } else {
        num_spaces = (nice_max - nice_min) / spacing;
        if (num_spaces - js_round(num_spaces)).abs() < spacing / 1000.0 {
            num_spaces = js_round(num_spaces);
        } else {
            num_spaces = num_spaces.ceil();
        }
    }
    let decimal_places = decimal_places(spacing).max(decimal_places(nice_min));
    let factor = libm::pow(
        10.0,
        match g.precision {
            Some(p) => p,
            None => f64::from(decimal_places),
        },
    );
    nice_min = js_round(nice_min * factor) / factor;
    nice_max = js_round(nice_max * factor) / factor;
    let mut j = 0.0;
    if min_defined {
        if g.include_bounds && nice_min != umin {
            ticks.push(umin);
            if nice_min < umin {
                j += 1.0;
            }
            if (js_round((nice_min + j * spacing) * factor) / factor - umin).abs()
                < relative_label_size(umin, min_spacing, g)
            {
                j += 1.0;
            }
        } else if nice_min < umin {
            j += 1.0;
        }
    }
    while j < num_spaces {
        let v = js_round((nice_min + j * spacing) * factor) / factor;
        if max_defined && v > umax {
            break;
        }
        ticks.push(v);
        j += 1.0;
        if ticks.len() > 100_000 {
            break;
        }
    }
    if max_defined && g.include_bounds && nice_max != umax {
        if !ticks.is_empty()
            && (ticks[ticks.len() - 1] - umax).abs() < relative_label_size(umax, min_spacing, g)
        {
            let n = ticks.len();
            ticks[n - 1] = umax;
        } else {
            ticks.push(umax);
        }
    } else if !max_defined || nice_max == umax {
        ticks.push(nice_max);
    }
    ticks
}

impl LinearScale {
    fn tick_limit(&self, core: &mut ScaleCore) -> f64 {
        let mut max_ticks_limit = core.opts.ticks.max_ticks_limit;
        let mut max_ticks;
        match core.opts.ticks.step_size.filter(|s| *s != 0.0) {
            Some(step) => {
                max_ticks = step_tick_limit(core, step);
            }
            None => {
                max_ticks = compute_tick_limit(core);
                max_ticks_limit = Some(max_ticks_limit.filter(|m| *m != 0.0).unwrap_or(11.0));
            }
        }
        if let Some(m) = max_ticks_limit.filter(|m| *m != 0.0) {
            max_ticks = m.min(max_ticks);
        }
        max_ticks
    }
}

/// Chart.js's tick budget: `getTickLimit` never lets a `stepSize` ask for more ticks.
pub const MAX_STEP_TICKS: f64 = 1000.0;

/// The `stepSize` branch of `getTickLimit` (scale.linearbase): the ticks the step would
/// make, limited to 1000 with Chart.js's warning.
pub fn step_tick_limit(core: &mut ScaleCore, step: f64) -> f64 {
    let max_ticks = (core.max / step).ceil() - (core.min / step).floor() + 1.0;
    if max_ticks > MAX_STEP_TICKS {
        let msg = format!(
            "scales.{}.ticks.stepSize: {} would result generating up to {} ticks. Limiting to 1000.",
            core.id(),
            chart_spec::values::js_number(step),
            chart_spec::values::js_number(max_ticks)
        );
        core.warn(msg);
        return MAX_STEP_TICKS;
    }
    max_ticks
}

/// `LinearScale.computeTickLimit`.
/// The rest of `LinearScaleBase.buildTicks` once the tick limit is known, shared by the
/// linear and radialLinear scales: generate the ticks, let `bounds: 'ticks'` grow the scale to
/// them, and set the start and end (swapped when `reverse`).
pub fn build_linear_ticks(
    core: &mut ScaleCore,
    max_ticks: f64,
    max_digits: f64,
    horizontal: bool,
) -> Vec<Tick> {
    // Chart.js makes `count` ticks whatever the count (`generateTicks$1`: `numSpaces = count
    // - 1`), so `ticks.count: 1e9` hangs its page; here the ticks are cut to the 1000 that
    // `getTickLimit` allows a `stepSize`, with the same warning, before any is generated,
    // formatted or measured (100,000 of them took 0.7 s a scale, and scales are many).
    let count = match core.opts.ticks.count {
        Some(c) if c > MAX_STEP_TICKS => {
            let msg = format!(
                "scales.{}.ticks.count: {} would result generating up to {} ticks. Limiting to 1000.",
                core.id(),
                chart_spec::values::js_number(c),
                chart_spec::values::js_number(c)
            );
            core.warn(msg);
            Some(MAX_STEP_TICKS)
        }
        c => c,
    };
    let t = &core.opts.ticks;
    let g = TickGen {
        max_ticks,
        bounds_ticks: core.opts.bounds_ticks,
        min: parse_linear(&core.opts.min).filter(|v| !v.is_nan()),
        max: parse_linear(&core.opts.max).filter(|v| !v.is_nan()),
        precision: t.precision,
        step: t.step_size,
        count,
        max_digits,
        horizontal,
        min_rotation: t.min_rotation,
        include_bounds: t.include_bounds,
    };
    let (rmin, rmax) = core.range;
    let values = generate_ticks(&g, rmin, rmax);
    if core.opts.bounds_ticks {
        // _setMinAndMaxByKey over the ticks: the scale grows to the nice bounds.
        for v in values.iter().filter(|v| !v.is_nan()) {
            core.min = core.min.min(*v);
            core.max = core.max.max(*v);
        }
    }
    let mut ticks: Vec<Tick> = values.into_iter().map(Tick::new).collect();
    if core.opts.reverse {
        ticks.reverse();
        core.start = core.max;
        core.end = core.min;
    } else {
        core.start = core.min;
        core.end = core.max;
    }
    ticks
}

/// `LinearScaleBase.getLabelForValue` through `Ticks.formatters.numeric`.
pub fn numeric_tick_label(core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
    Some(vec![ticks::numeric(
        ticks[index].value,
        ticks,
        &core.opts.ticks.format,
    )])
}

fn compute_tick_limit(core: &ScaleCore) -> f64 {
    let horizontal = core.is_horizontal();
    let length = if horizontal { core.width } else { core.height };
    tick_limit_for_length(
        length,
        horizontal,
        core.opts.ticks.min_rotation,
        core.tick_font(0).line_height,
    )
}

/// `LinearScale.computeTickLimit` for a scale `length` px long: one tick per 40 px, or per
/// tick-font line when labels stack closer (vertical scales, or rotated labels).
pub fn tick_limit_for_length(
    length: f64,
    horizontal: bool,
    min_rotation_deg: f64,
    line_height: f64,
) -> f64 {
    let min_rot = min_rotation_deg.to_radians();
    let r = if horizontal {
        libm::sin(min_rot)
    } else {
        libm::cos(min_rot)
    };
    let ratio = if r == 0.0 || r.is_nan() { 0.001 } else { r };
    (length / 40f64.min(line_height / ratio)).ceil()
}

impl ScaleType for LinearScale {
    fn formats_numbers(&self) -> bool {
        true
    }

    fn parse(&mut self, _core: &ScaleCore, raw: &Raw, _index: Option<usize>) -> Option<f64> {
        parse_linear(raw)
    }

    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits) {
        let (min, max) = core.get_min_max(data, true);
        core.min = if min.is_finite() { min } else { 0.0 };
        core.max = if max.is_finite() { max } else { 1.0 };
        handle_tick_range(core);
    }

    fn build_ticks(&mut self, core: &mut ScaleCore, _text: &TextEngine) -> Vec<Tick> {
        let max_ticks = self.tick_limit(core).max(2.0);
        let max_digits = {
            let lh = core.tick_font(0).line_height;
            (if core.is_horizontal() {
                core.width
            } else {
                core.height
            }) / lh
        };
        let horizontal = core.is_horizontal();
        build_linear_ticks(core, max_ticks, max_digits, horizontal)
    }

    fn tick_label(&self, core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
        numeric_tick_label(core, index, ticks)
    }

    fn configure(&mut self, core: &mut ScaleCore) {
        let (mut start, mut end) = (core.min, core.max);
        if core.opts.offset && !core.ticks.is_empty() {
            let offset = (end - start) / (core.ticks.len() as f64 - 1.0).max(1.0) / 2.0;
            start -= offset;
            end += offset;
        }
        self.start_value = start;
        self.end_value = end;
        self.value_range = end - start;
    }

    fn pixel_for_value(&self, core: &ScaleCore, value: f64) -> f64 {
        if value.is_nan() {
            return f64::NAN;
        }
        core.pixel_for_decimal((value - self.start_value) / self.value_range)
    }

    fn value_for_pixel(&self, core: &ScaleCore, pixel: f64) -> f64 {
        self.start_value + core.decimal_for_pixel(pixel) * self.value_range
    }

    fn label_for_value(&self, core: &ScaleCore, value: f64) -> String {
        ticks::default_number(value, &core.opts.ticks.format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(max_ticks: f64) -> TickGen {
        TickGen {
            max_ticks,
            bounds_ticks: true,
            min: None,
            max: None,
            precision: None,
            step: None,
            count: None,
            max_digits: 20.0,
            horizontal: false,
            min_rotation: 0.0,
            include_bounds: true,
        }
    }

    #[test]
    fn nice_ticks() {
        assert_eq!(
            generate_ticks(&gen(11.0), 0.0, 10.0),
            vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
        );
        assert_eq!(
            generate_ticks(&gen(6.0), 0.0, 100.0),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            generate_ticks(&gen(11.0), -3.0, 17.0),
            // 11 spaces of 2 exceed the 10 allowed, so the spacing grows to niceNum(2.2) = 5.
            vec![-5.0, 0.0, 5.0, 10.0, 15.0, 20.0]
        );
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal_places(0.1), 1);
        assert_eq!(decimal_places(25.0), 0);
        assert_eq!(nice_num(7.3), 10.0);
        assert_eq!(nice_num(1.5), 2.0);
    }
}
