//! The arithmetic of Chart.js's `time` and `timeseries` scales (scale.time.js,
//! scale.timeseries.js): data limits, tick generation, unit choice, major ticks, offsets,
//! the value → decimal mapping (linear in time, or by index through the lookup table of
//! `timeseries`) and tick labels. Calendar work is delegated to
//! [`chart_spec::time::DateAdapter`], as Chart.js delegates it to its date adapter.
//!
//! Everything here is pure: the scale box and text measuring come in as arguments, so the
//! algorithms can be tested without a chart.

use super::{DataLimits, ScaleCore, ScaleType, Tick};
use crate::text::TextEngine;
use chart_spec::model::TimeSource;
use chart_spec::model::{Raw, ScaleOptions};
use chart_spec::time::{DateAdapter, DisplayFormats, TimeUnit};
use chart_spec::values::js_number;

/// `INTERVALS` of scale.time: whether a unit is "common" (auto ticks may use it), its size in
/// ms and how many of it make the next unit.
fn interval(unit: TimeUnit) -> (bool, f64, Option<f64>) {
    match unit {
        TimeUnit::Millisecond => (true, 1.0, Some(1000.0)),
        TimeUnit::Second => (true, 1000.0, Some(60.0)),
        TimeUnit::Minute => (true, 60_000.0, Some(60.0)),
        TimeUnit::Hour => (true, 3_600_000.0, Some(24.0)),
        TimeUnit::Day => (true, 86_400_000.0, Some(30.0)),
        TimeUnit::Week => (false, 604_800_000.0, Some(4.0)),
        TimeUnit::Month => (true, 2.628e9, Some(12.0)),
        TimeUnit::Quarter => (false, 7.884e9, Some(4.0)),
        TimeUnit::Year => (true, 3.154e10, None),
    }
}

/// `ticks.source`. Default: `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TickSource {
    /// Ticks at "nice" unit boundaries.
    #[default]
    Auto,
    /// Ticks at the data's timestamps.
    Data,
    /// Ticks at the labels' timestamps.
    Labels,
}

/// `bounds`. Default for time scales: `data`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bounds {
    /// The scale spans the data.
    #[default]
    Data,
    /// The scale spans the ticks.
    Ticks,
}

/// The options of a time scale that its algorithms read (resolved).
#[derive(Debug, Clone, PartialEq)]
pub struct TimeOptions {
    /// `time.unit`. Default: `false` (chosen automatically).
    pub unit: Option<TimeUnit>,
    /// `time.minUnit`. Default: `'millisecond'`.
    pub min_unit: TimeUnit,
    /// `time.round`. Default: `false`.
    pub round: Option<TimeUnit>,
    /// `time.isoWeekday`: a number or `true` (= 1, Monday). Default: `false`.
    pub iso_weekday: Option<f64>,
    /// `time.parser` as a format string. Default: `false` (ISO / numbers).
    pub parser: Option<String>,
    /// `time.displayFormats` merged over the adapter's defaults.
    pub display_formats: DisplayFormats,
    /// `time.tooltipFormat`. Default: undefined.
    pub tooltip_format: Option<String>,
    /// `ticks.source`. Default: `'auto'`.
    pub source: TickSource,
    /// `ticks.stepSize`. Default: 1.
    pub step_size: f64,
    /// `ticks.major.enabled`. Default for time scales: false.
    pub major_enabled: bool,
    /// `ticks.autoSkip`. Default: true.
    pub auto_skip: bool,
    /// `bounds`. Default: `'data'`.
    pub bounds: Bounds,
    /// `offset`. Default: false (true for bar charts).
    pub offset: bool,
    /// `reverse`. Default: false.
    pub reverse: bool,
    /// True for `timeseries`: positions by index, through the lookup table.
    pub series: bool,
}

impl TimeOptions {
    /// The defaults of `TimeScale.defaults` with the adapter's display formats.
    pub fn new(adapter: &DateAdapter) -> Self {
        Self {
            unit: None,
            min_unit: TimeUnit::Millisecond,
            round: None,
            iso_weekday: None,
            parser: None,
            display_formats: adapter.formats(),
            tooltip_format: None,
            source: TickSource::Auto,
            step_size: 1.0,
            major_enabled: false,
            auto_skip: true,
            bounds: Bounds::Data,
            offset: false,
            reverse: false,
            series: false,
        }
    }
}

/// One tick: a timestamp and whether it starts a major unit.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeTick {
    /// ms since the epoch.
    pub value: f64,
    /// `tick.major`.
    pub major: bool,
}

/// A raw data or label value of a time scale, before `parse`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawTime<'a> {
    /// A number: milliseconds.
    Number(f64),
    /// A string for the adapter.
    Text(&'a str),
}

/// `parse(scale, input)` of scale.time: numbers are ms; strings go through the adapter with
/// `time.parser`; then `time.round` (or the ISO week start for `round: 'week'` with
/// `isoWeekday`).
pub fn parse_time(adapter: &DateAdapter, opts: &TimeOptions, raw: RawTime<'_>) -> Option<f64> {
    let value = match raw {
        RawTime::Number(n) if n.is_finite() => n,
        RawTime::Number(_) => return None,
        RawTime::Text(s) => adapter.parse(s, opts.parser.as_deref())?,
    };
    Some(match opts.round {
        Some(TimeUnit::Week) if opts.iso_weekday.is_some() => {
            adapter.start_of_iso_week(value, opts.iso_weekday.unwrap_or(1.0))
        }
        Some(unit) => adapter.start_of(value, unit),
        None => value,
    })
}

/// `determineUnitForAutoTicks`: the smallest common unit from `min_unit` whose tick count over
/// `[min, max]` fits `capacity`.
pub fn determine_unit_for_auto_ticks(
    min_unit: TimeUnit,
    min: f64,
    max: f64,
    capacity: f64,
) -> TimeUnit {
    let units = &TimeUnit::ALL;
    for &u in &units[min_unit.index()..units.len() - 1] {
        let (common, size, steps) = interval(u);
        let factor = steps.unwrap_or(9_007_199_254_740_991.0);
        if common && ((max - min) / (factor * size)).ceil() <= capacity {
            return u;
        }
    }
    TimeUnit::Year
}

/// `determineUnitForFormatting`: the largest common unit with at least `num_ticks - 1` whole
/// units between `min` and `max`.
pub fn determine_unit_for_formatting(
    adapter: &DateAdapter,
    num_ticks: usize,
    min_unit: TimeUnit,
    min: f64,
    max: f64,
) -> TimeUnit {
    for &u in TimeUnit::ALL[min_unit.index()..].iter().rev() {
        let (common, _, _) = interval(u);
        if common && adapter.diff(max, min, u) >= num_ticks as f64 - 1.0 {
            return u;
        }
    }
    min_unit
}

/// `determineMajorUnit`: the next common unit above `unit`.
pub fn determine_major_unit(unit: TimeUnit) -> Option<TimeUnit> {
    TimeUnit::ALL[unit.index() + 1..]
        .iter()
        .copied()
        .find(|&u| interval(u).0)
}

/// `_lookup`: the bracketing indices `lo`, `hi` of `value` in a sorted table.
fn lookup(len: usize, lt: impl Fn(usize) -> bool) -> (usize, usize) {
    let mut lo = 0usize;
    let mut hi = len.saturating_sub(1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if lt(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

/// Sorts and removes duplicates (`normalize` of scale.time).
pub fn normalize(mut values: Vec<f64>) -> Vec<f64> {
    values.retain(|v| v.is_finite());
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
}

/// `_filterBetween` of sorted values, inclusive.
fn filter_between(values: &[f64], min: f64, max: f64) -> Vec<f64> {
    values
        .iter()
        .copied()
        .skip_while(|&v| v < min)
        .take_while(|&v| v <= max)
        .collect()
}

/// The state a time scale keeps between layout steps (`_unit`, `_majorUnit`, `_offsets`,
/// the `timeseries` `_table`).
#[derive(Debug, Clone, PartialEq)]
pub struct TimeScaleState {
    /// `this.min`.
    pub min: f64,
    /// `this.max`.
    pub max: f64,
    /// `this._unit`. Chart.js starts with `'day'`.
    pub unit: TimeUnit,
    /// `this._majorUnit`.
    pub major_unit: Option<TimeUnit>,
    /// `_offsets.start`, `_offsets.end`, `_offsets.factor`.
    pub offsets: (f64, f64, f64),
    /// `timeseries` lookup table of `(time, pos)`.
    table: Vec<(f64, f64)>,
    min_pos: f64,
    table_range: f64,
}

/// Everything `buildTicks` needs from the chart besides options.
pub struct TickInputs<'a> {
    /// Sorted unique parsed data timestamps of the visible datasets on this axis.
    pub data: &'a [f64],
    /// Sorted unique parsed label timestamps.
    pub labels: &'a [f64],
    /// Parsed `min` option.
    pub user_min: Option<f64>,
    /// Parsed `max` option.
    pub user_max: Option<f64>,
}

impl TimeScaleState {
    /// `determineDataLimits` of scale.time. `data_min_max` is `getMinMax(false)` over the
    /// parsed data (±∞ when none); `now` stands in for `Date.now()` when nothing gives limits.
    pub fn determine_data_limits(
        adapter: &DateAdapter,
        opts: &TimeOptions,
        inputs: &TickInputs<'_>,
        data_min_max: (f64, f64),
        now: f64,
    ) -> Self {
        let unit = opts.unit.unwrap_or(TimeUnit::Day);
        let mut min = inputs.user_min.unwrap_or(f64::INFINITY);
        let mut max = inputs.user_max.unwrap_or(f64::NEG_INFINITY);
        let min_defined = inputs.user_min.is_some();
        let max_defined = inputs.user_max.is_some();
        let mut apply = |bmin: f64, bmax: f64| {
            if !min_defined && !bmin.is_nan() {
                min = min.min(bmin);
            }
            if !max_defined && !bmax.is_nan() {
                max = max.max(bmax);
            }
        };
        if !min_defined || !max_defined {
            let (lmin, lmax) = match (inputs.labels.first(), inputs.labels.last()) {
                (Some(&a), Some(&b)) => (a, b),
                _ => (f64::INFINITY, f64::NEG_INFINITY),
            };
            apply(lmin, lmax);
            if opts.bounds != Bounds::Ticks || opts.source != TickSource::Labels {
                apply(data_min_max.0, data_min_max.1);
            }
        }
        let min = if min.is_finite() {
            min
        } else {
            adapter.start_of(now, unit)
        };
        let max = if max.is_finite() {
            max
        } else {
            adapter.end_of(now, unit) + 1.0
        };
        TimeScaleState {
            min: min.min(max - 1.0),
            max: (min + 1.0).max(max),
            unit: TimeUnit::Day,
            major_unit: None,
            offsets: (0.0, 0.0, 1.0),
            table: Vec::new(),
            min_pos: 0.0,
            table_range: 1.0,
        }
    }

    /// `_generate` of scale.time (ticks at unit boundaries, or at the data with
    /// `source: 'data'`) and of scale.timeseries (the data plus min and max).
    fn generate(
        &self,
        adapter: &DateAdapter,
        opts: &TimeOptions,
        inputs: &TickInputs<'_>,
        capacity: &mut dyn FnMut(f64) -> f64,
    ) -> Result<Vec<f64>, String> {
        let (min, max) = (self.min, self.max);
        if opts.series {
            let mut ts = inputs.data.to_vec();
            if ts.is_empty() || !ts.contains(&min) {
                ts.insert(0, min);
            }
            if !ts.contains(&max) || ts.len() == 1 {
                ts.push(max);
            }
            ts.sort_by(f64::total_cmp);
            return Ok(ts);
        }
        let minor = match opts.unit {
            Some(u) => u,
            None => determine_unit_for_auto_ticks(opts.min_unit, min, max, capacity(min)),
        };
        let step = opts.step_size;
        let weekday = if minor == TimeUnit::Week {
            opts.iso_weekday
        } else {
            None
        };
        let mut first = min;
        if let Some(wd) = weekday {
            first = adapter.start_of_iso_week(first, wd);
        }
        first = adapter.start_of(
            first,
            if weekday.is_some() {
                TimeUnit::Day
            } else {
                minor
            },
        );
        if adapter.diff(max, min, minor) > 100_000.0 * step {
            return Err(format!(
                "{} and {} are too far apart with stepSize of {} {}",
                js_number(min),
                js_number(max),
                js_number(step),
                minor.name()
            ));
        }
        let data = (opts.source == TickSource::Data).then_some(inputs.data);
        let mut ticks: Vec<f64> = Vec::new();
        let mut add = |t: f64| match data {
            None => ticks.push(t),
            Some(ts) if !ts.is_empty() => {
                let (lo, hi) = lookup(ts.len(), |i| ts[i] < t);
                ticks.push(if ts[lo] >= t { ts[lo] } else { ts[hi] });
            }
            Some(_) => {}
        };
        let mut time = first;
        let mut count = 0usize;
        while time < max {
            add(time);
            let next = adapter.add(time, step, minor);
            if next <= time {
                // A zero or negative step would never end (Chart.js would hang).
                break;
            }
            time = next;
            count += 1;
        }
        if time == max || opts.bounds == Bounds::Ticks || count == 1 {
            add(time);
        }
        Ok(normalize(ticks))
    }

    /// `buildTicks` of scale.time: the tick timestamps, the display unit, the major unit and
    /// the offsets. `capacity(example_time)` is `_getLabelCapacity`: how many labels formatted
    /// like `example_time` fit the scale (see [`TimeScaleState::capacity_label`]).
    pub fn build_ticks(
        &mut self,
        adapter: &DateAdapter,
        opts: &TimeOptions,
        inputs: &TickInputs<'_>,
        capacity: &mut dyn FnMut(f64) -> f64,
    ) -> Result<Vec<TimeTick>, String> {
        let timestamps = if opts.source == TickSource::Labels {
            inputs.labels.to_vec()
        } else {
            self.generate(adapter, opts, inputs, capacity)?
        };
        if opts.bounds == Bounds::Ticks && !timestamps.is_empty() {
            // `this._userMin || timestamps[0]`: a user bound of 0 counts as unset.
            self.min = inputs
                .user_min
                .filter(|&v| v != 0.0)
                .unwrap_or(timestamps[0]);
            self.max = inputs
                .user_max
                .filter(|&v| v != 0.0)
                .unwrap_or(timestamps[timestamps.len() - 1]);
        }
        let mut ticks = filter_between(&timestamps, self.min, self.max);
        self.unit = match opts.unit {
            Some(u) => u,
            None if opts.auto_skip => {
                determine_unit_for_auto_ticks(opts.min_unit, self.min, self.max, capacity(self.min))
            }
            None => determine_unit_for_formatting(
                adapter,
                ticks.len(),
                opts.min_unit,
                self.min,
                self.max,
            ),
        };
        self.major_unit = if !opts.major_enabled || self.unit == TimeUnit::Year {
            None
        } else {
            determine_major_unit(self.unit)
        };
        let table_ts = if opts.series {
            // timeseries `_generate` inserts min and max into the cached data timestamps
            // array itself (JavaScript aliasing), so the lookup table sees them too.
            let data = if opts.source == TickSource::Labels {
                inputs.data.to_vec()
            } else {
                timestamps
            };
            self.timestamps_for_table(&TickInputs {
                data: &data,
                ..*inputs
            })
        } else {
            timestamps
        };
        self.init_offsets(opts, &table_ts);
        if opts.reverse {
            ticks.reverse();
        }
        Ok(self.ticks_from_timestamps(adapter, &ticks))
    }

    /// `_getTimestampsForTable` of scale.timeseries: data and labels merged.
    fn timestamps_for_table(&self, inputs: &TickInputs<'_>) -> Vec<f64> {
        if !inputs.data.is_empty() && !inputs.labels.is_empty() {
            normalize([inputs.data, inputs.labels].concat())
        } else if !inputs.data.is_empty() {
            inputs.data.to_vec()
        } else {
            inputs.labels.to_vec()
        }
    }

    /// `ticksFromTimestamps` + `setMajorTicks`.
    fn ticks_from_timestamps(&self, adapter: &DateAdapter, values: &[f64]) -> Vec<TimeTick> {
        let mut ticks: Vec<TimeTick> = values
            .iter()
            .map(|&value| TimeTick {
                value,
                major: false,
            })
            .collect();
        let (Some(major), Some(first), Some(last)) = (self.major_unit, ticks.first(), ticks.last())
        else {
            return ticks;
        };
        let last = last.value;
        let mut t = adapter.start_of(first.value, major);
        while t <= last {
            if let Some(i) = values.iter().position(|&v| v == t) {
                ticks[i].major = true;
            }
            let next = adapter.add(t, 1.0, major);
            if next <= t {
                break;
            }
            t = next;
        }
        ticks
    }

    /// `initOffsets` (and, for timeseries, building the lookup table first).
    pub fn init_offsets(&mut self, opts: &TimeOptions, timestamps: &[f64]) {
        if opts.series {
            self.table = build_lookup_table(timestamps, self.min, self.max);
            self.min_pos = interpolate(&self.table, self.min, false);
            self.table_range = interpolate(&self.table, self.max, false) - self.min_pos;
        }
        let (mut start, mut end) = (0.0, 0.0);
        if opts.offset && !timestamps.is_empty() {
            let n = timestamps.len();
            let first = self.decimal_for_value(timestamps[0]);
            start = if n == 1 {
                1.0 - first
            } else {
                (self.decimal_for_value(timestamps[1]) - first) / 2.0
            };
            let last = self.decimal_for_value(timestamps[n - 1]);
            end = if n == 1 {
                last
            } else {
                (last - self.decimal_for_value(timestamps[n - 2])) / 2.0
            };
        }
        let limit = if timestamps.len() < 3 { 0.5 } else { 0.25 };
        let start = start.clamp(0.0, limit);
        let end = end.clamp(0.0, limit);
        self.offsets = (start, end, 1.0 / (start + 1.0 + end));
    }

    /// `getDecimalForValue`: linear in time, or through the timeseries table.
    pub fn decimal_for_value(&self, value: f64) -> f64 {
        if self.table.is_empty() {
            (value - self.min) / (self.max - self.min)
        } else {
            (interpolate(&self.table, value, false) - self.min_pos) / self.table_range
        }
    }

    /// The decimal of `getPixelForValue` before `getPixelForDecimal` (offsets applied):
    /// `(offsets.start + pos) * offsets.factor`.
    pub fn offset_decimal_for_value(&self, value: f64) -> f64 {
        let (start, _, factor) = self.offsets;
        (start + self.decimal_for_value(value)) * factor
    }

    /// `_tickFormatFunction` without a callback: the major unit's format on major ticks,
    /// else the unit's; `format` overrides both.
    pub fn tick_label(
        &self,
        adapter: &DateAdapter,
        opts: &TimeOptions,
        ticks: &[TimeTick],
        index: usize,
        format: Option<&str>,
    ) -> String {
        let value = ticks.get(index).map_or(f64::NAN, |t| t.value);
        let fmt = format.unwrap_or_else(|| {
            let major = self.major_unit.is_some() && ticks.get(index).is_some_and(|t| t.major);
            match (major, self.major_unit) {
                (true, Some(mu)) => opts.display_formats.get(mu),
                _ => opts.display_formats.get(self.unit),
            }
        });
        adapter.format(value, fmt)
    }

    /// The example label `_getLabelCapacity` measures: `example` formatted with the format of
    /// `time.unit`, or the millisecond format when no unit is set.
    pub fn capacity_label(
        &self,
        adapter: &DateAdapter,
        opts: &TimeOptions,
        example: f64,
    ) -> String {
        let fmt = match opts.unit {
            Some(u) => opts.display_formats.get(u),
            None => opts.display_formats.get(TimeUnit::Millisecond),
        };
        let ticks = self.ticks_from_timestamps(adapter, &[example]);
        self.tick_label(adapter, opts, &ticks, 0, Some(fmt))
    }

    /// `getLabelForValue` (tooltips): `tooltipFormat` or the `datetime` format.
    pub fn label_for_value(&self, adapter: &DateAdapter, opts: &TimeOptions, value: f64) -> String {
        let fmt = opts
            .tooltip_format
            .as_deref()
            .unwrap_or(&opts.display_formats.datetime);
        adapter.format(value, fmt)
    }
}

/// `_getLabelCapacity`'s arithmetic: labels of width `label_width` and font size `font_size`
/// rotated by `rotation_deg` (maxRotation for horizontal scales, minRotation for vertical),
/// fitted along a scale of `length` px. At least 1.
pub fn label_capacity(
    label_width: f64,
    font_size: f64,
    rotation_deg: f64,
    horizontal: bool,
    length: f64,
) -> f64 {
    let angle = rotation_deg.to_radians();
    let (sin, cos) = (libm::sin(angle), libm::cos(angle));
    let w = label_width * cos + font_size * sin;
    let h = label_width * sin + font_size * cos;
    let capacity = (if horizontal { length / w } else { length / h }).floor() - 1.0;
    if capacity > 0.0 {
        capacity
    } else {
        1.0
    }
}

/// `buildLookupTable` of scale.timeseries: `(time, pos)` pairs where positions are spread by
/// index; points in the middle of a linear run are left out.
fn build_lookup_table(timestamps: &[f64], min: f64, max: f64) -> Vec<(f64, f64)> {
    let items: Vec<f64> = timestamps
        .iter()
        .copied()
        .filter(|&t| t >= min && t <= max)
        .collect();
    if items.len() < 2 {
        return vec![(min, 0.0), (max, 1.0)];
    }
    let n = items.len();
    let mut table = Vec::new();
    for i in 0..n {
        let curr = items[i];
        // `Math.round((next + prev) / 2) !== curr`, with undefined neighbours giving NaN.
        let keep = match (i.checked_sub(1).map(|p| items[p]), items.get(i + 1)) {
            (Some(prev), Some(&next)) => js_round((next + prev) / 2.0) != curr,
            _ => true,
        };
        if keep {
            table.push((curr, i as f64 / (n - 1) as f64));
        }
    }
    table
}

/// JavaScript's `Math.round` (halves round up).
fn js_round(v: f64) -> f64 {
    (v + 0.5).floor()
}

/// `interpolate(table, val, reverse)` of scale.timeseries.
fn interpolate(table: &[(f64, f64)], val: f64, reverse: bool) -> f64 {
    if table.is_empty() {
        return 0.0;
    }
    let key = |e: &(f64, f64)| if reverse { e.1 } else { e.0 };
    let target = |e: &(f64, f64)| if reverse { e.0 } else { e.1 };
    let (mut lo, mut hi) = (0, table.len() - 1);
    if val >= key(&table[lo]) && val <= key(&table[hi]) {
        (lo, hi) = lookup(table.len(), |i| key(&table[i]) < val);
    }
    let (ps, pt) = (key(&table[lo]), target(&table[lo]));
    let (ns, nt) = (key(&table[hi]), target(&table[hi]));
    let span = ns - ps;
    if span != 0.0 {
        pt + (nt - pt) * (val - ps) / span
    } else {
        pt
    }
}

/// The `time` and `timeseries` scale types.
pub struct TimeScale {
    adapter: DateAdapter,
    opts: TimeOptions,
    state: TimeScaleState,
    labels: Vec<Raw>,
    data: Vec<f64>,
    label_ts: Vec<f64>,
    ticks: Vec<TimeTick>,
    /// `_generate` refused the range (Chart.js throws); reported once.
    pub error: Option<String>,
}

impl TimeScale {
    /// A time scale (`series` for `timeseries`) with the chart's labels.
    pub fn new(opts: &ScaleOptions, labels: Vec<Raw>, series: bool) -> Self {
        let t = opts.kind.time().cloned();
        let adapter = t.as_ref().map(|t| t.adapter).unwrap_or_default();
        let mut o = TimeOptions::new(&adapter);
        if let Some(t) = t {
            o.unit = t.unit;
            o.min_unit = t.min_unit;
            o.round = t.round;
            o.iso_weekday = t.iso_weekday;
            o.parser = t.parser;
            o.display_formats = t.display_formats;
            o.tooltip_format = t.tooltip_format;
            o.source = match t.source {
                TimeSource::Auto => TickSource::Auto,
                TimeSource::Data => TickSource::Data,
                TimeSource::Labels => TickSource::Labels,
            };
        }
        o.step_size = opts.ticks.step_size.filter(|s| *s > 0.0).unwrap_or(1.0);
        o.major_enabled = opts.ticks.major_enabled;
        o.auto_skip = opts.ticks.auto_skip;
        o.bounds = if opts.bounds_ticks {
            Bounds::Ticks
        } else {
            Bounds::Data
        };
        o.offset = opts.offset;
        o.reverse = opts.reverse;
        o.series = series;
        let state = TimeScaleState::determine_data_limits(
            &adapter,
            &o,
            &TickInputs {
                data: &[],
                labels: &[],
                user_min: Some(0.0),
                user_max: Some(1.0),
            },
            (f64::INFINITY, f64::NEG_INFINITY),
            0.0,
        );
        Self {
            adapter,
            opts: o,
            state,
            labels,
            data: Vec::new(),
            label_ts: Vec::new(),
            ticks: Vec::new(),
            error: None,
        }
    }

    fn parse_raw(&self, raw: &Raw) -> Option<f64> {
        match raw {
            Raw::Num(n) => parse_time(&self.adapter, &self.opts, RawTime::Number(*n)),
            Raw::Str(s) => parse_time(&self.adapter, &self.opts, RawTime::Text(s)),
            _ => None,
        }
    }
}

impl ScaleType for TimeScale {
    fn parse(&mut self, _core: &ScaleCore, raw: &Raw, _index: Option<usize>) -> Option<f64> {
        self.parse_raw(raw)
    }

    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits) {
        let labels = core
            .opts
            .labels
            .clone()
            .unwrap_or_else(|| self.labels.clone());
        self.label_ts = normalize(labels.iter().filter_map(|l| self.parse_raw(l)).collect());
        self.data = normalize(data.all_values(core.id(), core.axis()));
        let (min, max, min_def, max_def) = core.user_bounds();
        let data_min_max = if min_def && max_def {
            (f64::INFINITY, f64::NEG_INFINITY)
        } else {
            core.get_min_max(data, false)
        };
        let inputs = TickInputs {
            data: &self.data,
            labels: &self.label_ts,
            user_min: min_def.then_some(min),
            user_max: max_def.then_some(max),
        };
        self.state = TimeScaleState::determine_data_limits(
            &self.adapter,
            &self.opts,
            &inputs,
            data_min_max,
            now_ms(),
        );
        core.min = self.state.min;
        core.max = self.state.max;
    }

    fn build_ticks(&mut self, core: &mut ScaleCore, text: &TextEngine) -> Vec<Tick> {
        let (umin, umax, min_def, max_def) = core.user_bounds();
        let inputs = TickInputs {
            data: &self.data,
            labels: &self.label_ts,
            user_min: min_def.then_some(umin),
            user_max: max_def.then_some(umax),
        };
        let horizontal = core.is_horizontal();
        let length = if horizontal { core.width } else { core.height };
        let font = core.tick_font(0);
        let rotation = if horizontal {
            core.opts.ticks.max_rotation
        } else {
            core.opts.ticks.min_rotation
        };
        let probe = self.state.clone();
        let (adapter, opts) = (self.adapter, self.opts.clone());
        let mut capacity = |example: f64| {
            let label = probe.capacity_label(&adapter, &opts, example);
            let w = f64::from(text.measure(&font.spec, &label));
            label_capacity(w, font.size, rotation, horizontal, length)
        };
        match self
            .state
            .build_ticks(&self.adapter, &self.opts, &inputs, &mut capacity)
        {
            Ok(t) => {
                self.ticks = t;
                self.error = None;
            }
            Err(e) => {
                self.ticks.clear();
                core.thrown = Some(e.clone());
                self.error = Some(e);
            }
        }
        core.min = self.state.min;
        core.max = self.state.max;
        self.ticks
            .iter()
            .map(|t| Tick {
                value: t.value,
                label: None,
                major: t.major,
            })
            .collect()
    }

    fn tick_label(&self, _core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
        let tt: Vec<TimeTick> = ticks
            .iter()
            .map(|t| TimeTick {
                value: t.value,
                major: t.major,
            })
            .collect();
        Some(vec![self.state.tick_label(
            &self.adapter,
            &self.opts,
            &tt,
            index,
            None,
        )])
    }

    fn configure(&mut self, _core: &mut ScaleCore) {}

    fn pixel_for_value(&self, core: &ScaleCore, value: f64) -> f64 {
        if value.is_nan() {
            return f64::NAN;
        }
        core.pixel_for_decimal(self.state.offset_decimal_for_value(value))
    }

    fn value_for_pixel(&self, core: &ScaleCore, pixel: f64) -> f64 {
        let (_, end, factor) = self.state.offsets;
        let pos = core.decimal_for_pixel(pixel) / factor - end;
        self.state.min + pos * (self.state.max - self.state.min)
    }

    fn label_for_value(&self, _core: &ScaleCore, value: f64) -> String {
        self.state.label_for_value(&self.adapter, &self.opts, value)
    }

    fn labels(&self) -> Option<&[Raw]> {
        Some(&self.labels)
    }
}

/// `Date.now()`, for scales without any data.
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_spec::time::TokenStyle;

    fn year(y: &str) -> f64 {
        DateAdapter::default().parse(y, None).unwrap_or(f64::NAN)
    }

    #[test]
    fn unit_choice() {
        let day = 86_400_000.0;
        assert_eq!(
            determine_unit_for_auto_ticks(TimeUnit::Millisecond, 0.0, 10.0 * day, 5.0),
            TimeUnit::Day
        );
        assert_eq!(
            determine_unit_for_auto_ticks(TimeUnit::Millisecond, 0.0, 60.0 * day, 1.0),
            TimeUnit::Month
        );
        assert_eq!(determine_major_unit(TimeUnit::Day), Some(TimeUnit::Month));
        assert_eq!(determine_major_unit(TimeUnit::Year), None);
        let a = DateAdapter::default();
        assert_eq!(
            determine_unit_for_formatting(&a, 5, TimeUnit::Millisecond, year("2017"), year("2025")),
            TimeUnit::Year
        );
    }

    #[test]
    fn auto_ticks_by_year_with_labels() {
        let a = DateAdapter::new(TokenStyle::Moment);
        let mut opts = TimeOptions::new(&a);
        opts.unit = Some(TimeUnit::Year);
        let labels: Vec<f64> = ["2017", "2019", "2020", "2025"]
            .iter()
            .map(|s| year(s))
            .collect();
        let inputs = TickInputs {
            data: &[],
            labels: &labels,
            user_min: None,
            user_max: None,
        };
        let mut st = TimeScaleState::determine_data_limits(
            &a,
            &opts,
            &inputs,
            (f64::INFINITY, f64::NEG_INFINITY),
            0.0,
        );
        let ticks = st
            .build_ticks(&a, &opts, &inputs, &mut |_| 10.0)
            .unwrap_or_default();
        assert_eq!(ticks.len(), 9);
        assert_eq!(st.tick_label(&a, &opts, &ticks, 0, None), "2017");
        assert_eq!(st.tick_label(&a, &opts, &ticks, 8, None), "2025");
        assert!((st.decimal_for_value(year("2017"))).abs() < 1e-12);
    }

    #[test]
    fn timeseries_table_spreads_by_index() {
        let a = DateAdapter::default();
        let mut opts = TimeOptions::new(&a);
        opts.series = true;
        opts.source = TickSource::Data;
        let labels: Vec<f64> = ["2017", "2019", "2020", "2025", "2042"]
            .iter()
            .map(|s| year(s))
            .collect();
        let inputs = TickInputs {
            data: &[],
            labels: &labels,
            user_min: None,
            user_max: None,
        };
        let mut st = TimeScaleState::determine_data_limits(
            &a,
            &opts,
            &inputs,
            (f64::INFINITY, f64::NEG_INFINITY),
            0.0,
        );
        st.build_ticks(&a, &opts, &inputs, &mut |_| 10.0)
            .unwrap_or_default();
        assert!((st.decimal_for_value(year("2019")) - 0.25).abs() < 1e-9);
        assert!((st.decimal_for_value(year("2025")) - 0.75).abs() < 1e-9);
    }

    #[test]
    fn offsets_for_one_tick() {
        let a = DateAdapter::default();
        let mut opts = TimeOptions::new(&a);
        opts.offset = true;
        let mut st = TimeScaleState::determine_data_limits(
            &a,
            &opts,
            &TickInputs {
                data: &[],
                labels: &[],
                user_min: Some(0.0),
                user_max: Some(10.0),
            },
            (f64::INFINITY, f64::NEG_INFINITY),
            0.0,
        );
        st.init_offsets(&opts, &[5.0]);
        assert_eq!(st.offsets, (0.5, 0.5, 0.5));
    }

    #[test]
    fn capacity() {
        assert_eq!(label_capacity(50.0, 12.0, 0.0, true, 500.0), 9.0);
        assert_eq!(label_capacity(500.0, 12.0, 0.0, true, 100.0), 1.0);
    }
}
