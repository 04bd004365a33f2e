//! `autoSkip` of core.scale.autoskip.js: which ticks stay when their labels do not fit
//! (`determineMaxTicks`, `skipMajors`, `calculateSpacing`, `skip`).

use super::{Scale, Tick};
use crate::text::TextEngine;

/// `getTicksLimit`.
pub(super) fn ticks_limit(len: usize, max_ticks_limit: Option<f64>) -> usize {
    match max_ticks_limit {
        Some(m) if m > 0.0 => (m as usize).min(len),
        _ => len,
    }
}

/// `sample(arr, numItems)`.
pub(super) fn sample(arr: &[Tick], n: usize) -> Vec<Tick> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let inc = arr.len() as f64 / n as f64;
    let mut i = 0.0;
    while i < arr.len() as f64 {
        out.push(arr[i.floor() as usize].clone());
        i += inc;
    }
    out
}

impl Scale {
    pub(super) fn auto_skip(&mut self, text: &TextEngine) -> Vec<Tick> {
        let ticks = self.core.ticks.clone();
        // determineMaxTicks
        let tick_len = self.core.tick_size(text);
        let c = &self.core;
        let max_scale = c.length / tick_len + if c.opts.offset { 0.0 } else { 1.0 };
        let max_chart = c.max_length / tick_len;
        let determined = max_scale.min(max_chart).floor();
        let determined = if determined.is_nan() { 0.0 } else { determined };
        let limit = match c.opts.ticks.max_ticks_limit {
            Some(m) if m != 0.0 => m.min(determined),
            _ => determined,
        };
        let major: Vec<usize> = if c.opts.ticks.major_enabled {
            ticks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.major)
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        };
        let mut out = Vec::new();
        let nm = major.len();
        if nm as f64 > limit {
            // skipMajors
            let spacing = (nm as f64 / limit).ceil() as usize;
            let mut count = 0;
            let mut next = major.first().copied();
            for (i, t) in ticks.iter().enumerate() {
                if Some(i) == next {
                    out.push(t.clone());
                    count += 1;
                    next = major.get(count * spacing).copied();
                }
            }
            return out;
        }
        let spacing = calculate_spacing(&major, ticks.len(), limit);
        if nm > 0 {
            let first = major[0] as f64;
            let last = major[nm - 1] as f64;
            let avg = if nm > 1 {
                Some(((last - first) / (nm as f64 - 1.0) + 0.5).floor())
            } else {
                None
            };
            skip(
                &ticks,
                &mut out,
                spacing,
                Some(avg.map(|a| first - a).unwrap_or(0.0)),
                Some(first),
            );
            for w in major.windows(2) {
                skip(
                    &ticks,
                    &mut out,
                    spacing,
                    Some(w[0] as f64),
                    Some(w[1] as f64),
                );
            }
            skip(
                &ticks,
                &mut out,
                spacing,
                Some(last),
                Some(avg.map(|a| last + a).unwrap_or(ticks.len() as f64)),
            );
            return out;
        }
        skip(&ticks, &mut out, spacing, None, None);
        out
    }
}

/// `calculateSpacing`.
fn calculate_spacing(major: &[usize], ticks_len: usize, limit: f64) -> f64 {
    let spacing = ticks_len as f64 / limit;
    let even = if major.len() < 2 {
        None
    } else {
        let d = major[1] as isize - major[0] as isize;
        let first = major[0] as isize;
        // getEvenSpacing compares with arr[0] as the initial diff, as Chart.js does.
        let mut ok = true;
        for w in major.windows(2) {
            if w[1] as isize - w[0] as isize != first {
                ok = false;
                break;
            }
        }
        let _ = d;
        if ok {
            Some(first)
        } else {
            None
        }
    };
    let Some(even) = even.filter(|e| *e != 0) else {
        return spacing.max(1.0);
    };
    let factors = factorize(even as f64);
    for f in factors.iter().take(factors.len().saturating_sub(1)) {
        if *f > spacing {
            return *f;
        }
    }
    spacing.max(1.0)
}

/// `_factorize`.
fn factorize(value: f64) -> Vec<f64> {
    let mut result = Vec::new();
    let sqrt = value.sqrt();
    let mut i = 1.0;
    while i < sqrt {
        if value % i == 0.0 {
            result.push(i);
            result.push(value / i);
        }
        i += 1.0;
    }
    if sqrt == sqrt.trunc() {
        result.push(sqrt);
    }
    result.sort_by(|a, b| a.total_cmp(b));
    result.pop();
    result
}

/// `skip(ticks, newTicks, spacing, majorStart, majorEnd)`.
fn skip(
    ticks: &[Tick],
    out: &mut Vec<Tick>,
    spacing: f64,
    major_start: Option<f64>,
    major_end: Option<f64>,
) {
    let start = major_start.unwrap_or(0.0);
    let end = major_end
        .unwrap_or(ticks.len() as f64)
        .min(ticks.len() as f64);
    let mut count = 0.0;
    let mut spacing = spacing.ceil();
    if let Some(me) = major_end.filter(|m| *m != 0.0) {
        let length = me - major_start.unwrap_or(0.0);
        spacing = length / (length / spacing).floor();
    }
    let mut next = start;
    while next < 0.0 {
        count += 1.0;
        next = (start + count * spacing + 0.5).floor();
    }
    let mut i = start.max(0.0);
    while i < end {
        if i == next {
            out.push(ticks[i as usize].clone());
            count += 1.0;
            next = (start + count * spacing + 0.5).floor();
        }
        i += 1.0;
    }
}
