//! Line and scatter controllers (controller.line, controller.scatter).

use super::{parse_default, point_options, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::dataset::{DatasetElements, PointEl};
use crate::elements::line::{LineEl, LinePoint};
use crate::elements::point::point_size;
use crate::scales::Scale;
use crate::scales::Scale as ScaleT;
use chart_spec::model::{Dataset, Raw, Stacked};
use std::borrow::Cow;

/// `LineController`, or `ScatterController` when `scatter` is set.
pub struct LineController {
    scatter: bool,
    line: Option<LineEl>,
    points: Vec<(f64, f64, bool)>,
    draw_range: (usize, usize),
}

impl LineController {
    /// A line (or scatter) controller.
    pub fn new(scatter: bool) -> Self {
        Self {
            scatter,
            line: None,
            points: Vec::new(),
            draw_range: (0, 0),
        }
    }
}

impl Controller for LineController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
        parse_default(ds, meta, scales, chart_labels);
    }

    fn max_overflow(&self, ds: &Dataset, meta: &Meta) -> Option<f64> {
        self.overflow(
            ds,
            meta,
            ds.kind.line().map(|l| l.border_width).unwrap_or(0.0),
        )
    }

    fn layout_overflow(&self, ds: &Dataset, meta: &Meta) -> Option<f64> {
        self.overflow(ds, meta, 0.0)
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.update_points(ds, meta, cx);
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        // `_getStartAndCountOfVisiblePoints`: only the points in the drawn range are drawn.
        let (start, count) = self.draw_range;
        let points = (self.points.iter().enumerate())
            .map(|(i, &(x, y, skip))| {
                let o =
                    point_options(ds, i).filter(|_| !skip && i >= start && i < start + count)?;
                Some(PointEl {
                    x,
                    y,
                    options: Cow::Borrowed(o),
                })
            })
            .collect();
        DatasetElements::Line {
            line: self.line.take(),
            points,
        }
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, self.scatter, use_point_style)
    }
}

impl LineController {
    fn overflow(&self, ds: &Dataset, meta: &Meta, border: f64) -> Option<f64> {
        let n = meta.parsed.len();
        if self.scatter && !ds.show_line {
            // ScatterController.getMaxOverflow without a line: the largest half size of the
            // points' options. Indices past the last resolved entry read that entry, so the
            // entries of the first `n` indices are all there is to compare (one for options
            // shared by every point, Chart.js's `sharedOptions`): not one lookup per point.
            let mut max: f64 = 0.0;
            if let chart_spec::model::Elements::Point(opts) = ds.kind.elements() {
                for o in opts.iter().take(n) {
                    max = max.max(point_size(o) / 2.0);
                }
            }
            return if max > 0.0 { Some(max) } else { None };
        }
        if n == 0 {
            return Some(border);
        }
        let first = point_options(ds, 0).map(point_size).unwrap_or(0.0);
        let last = point_options(ds, n - 1).map(point_size).unwrap_or(0.0);
        Some(border.max(first).max(last) / 2.0)
    }

    fn update_points(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.points.clear();
        self.line = None;
        let (Some(i_scale), Some(v_scale)) = (cx.scale(meta.i_id()), cx.scale(meta.v_id())) else {
            return;
        };
        let iaxis = i_scale.core.axis();
        let vaxis = v_scale.core.axis();
        let max_gap = ds
            .kind
            .line()
            .and_then(|l| l.span_gaps)
            .filter(|g| g.is_finite())
            .unwrap_or(f64::INFINITY);
        // One point each: sized once rather than grown (10,000 points grew them 26 times,
        // copying as they went).
        self.points.reserve(meta.parsed.len());
        let mut lps = Vec::with_capacity(meta.parsed.len());
        let mut prev_i: Option<f64> = None;
        for (i, p) in meta.parsed.iter().enumerate() {
            // A cancelled render is discarded: stop with what is there.
            if i % 4096 == 4095 && cx.cancel.is_cancelled() {
                return;
            }
            let ip = p
                .get(iaxis)
                .map(|v| i_scale.pixel_for_value(v))
                .unwrap_or(f64::NAN);
            let null_data = p.get(vaxis).is_none();
            let vp = if null_data {
                v_scale.base_pixel()
            } else {
                let v = if meta.stacked.is_some() {
                    cx.data
                        .apply_stack(meta, p, meta.stacked == Some(Stacked::Single), false)
                        .unwrap_or(f64::NAN)
                } else {
                    p.get(vaxis).unwrap_or(f64::NAN)
                };
                v_scale.pixel_for_value(v)
            };
            let skip = ip.is_nan() || vp.is_nan() || null_data;
            // `Math.abs(parsed[iAxis] - prevParsed[iAxis]) > maxGapLength` (null is 0).
            let cur_i = p.get(iaxis).unwrap_or(0.0);
            let stop = i > 0 && (cur_i - prev_i.unwrap_or(0.0)).abs() > max_gap;
            prev_i = Some(cur_i);
            let (x, y) = if iaxis == chart_spec::model::Axis::X {
                (ip, vp)
            } else {
                (vp, ip)
            };
            self.points.push((x, y, skip));
            lps.push(LinePoint {
                x,
                y,
                skip,
                stop,
                ..LinePoint::default()
            });
        }
        self.draw_range = visible_range(meta, i_scale, ds);
        let has_line = if self.scatter { ds.show_line } else { true };
        if has_line {
            if let Some(lo) = ds.kind.line() {
                // The scatter controller's `fill: false` default is resolved in the options;
                // an explicit `fill` on a scatter line fills like a line chart.
                let mut l = LineEl::new(lps, lo.clone());
                l.draw_range = Some(self.draw_range);
                self.line = Some(l);
            }
        }
    }
}

/// `_getStartAndCountOfVisiblePoints` with animations disabled: for data sorted along the
/// index axis, only the points from the one before the user `min` to the one after the user
/// `max` are drawn.
fn visible_range(meta: &Meta, i_scale: &ScaleT, ds: &Dataset) -> (usize, usize) {
    let n = meta.parsed.len();
    let iaxis = i_scale.core.axis();
    let vaxis = if iaxis == chart_spec::model::Axis::X {
        chart_spec::model::Axis::Y
    } else {
        chart_spec::model::Axis::X
    };
    // meta._sorted: no null index values and never decreasing.
    let mut sorted = true;
    let mut prev: Option<f64> = None;
    for p in &meta.parsed {
        match p.get(iaxis) {
            None => {
                sorted = false;
                break;
            }
            Some(v) => {
                if prev.is_some_and(|pv| v < pv) {
                    sorted = false;
                    break;
                }
                prev = Some(v);
            }
        }
    }
    if !sorted || n == 0 {
        return (0, n);
    }
    let span_gaps = ds.kind.line().and_then(|l| l.span_gaps).is_some();
    let (min, max, min_def, max_def) = i_scale.core.user_bounds();
    let val = |i: usize| meta.parsed[i].get(iaxis).unwrap_or(0.0);
    // _lookup: `lo` is the last index whose value is below `value` (0 when none).
    let lookup = |value: f64, last: bool| -> (usize, usize) {
        let (mut lo, mut hi) = (0usize, n - 1);
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1;
            let below = if last {
                val(mid) < value || (val(mid) == value && mid + 1 < n && val(mid + 1) == value)
            } else {
                val(mid) < value
            };
            if below {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo, hi)
    };
    let mut start = 0usize;
    if min_def {
        start = lookup(min, false).0.min(n);
        if span_gaps {
            let d = (0..=start.min(n - 1))
                .rev()
                .position(|i| meta.parsed[i].get(vaxis).is_some());
            start -= d.unwrap_or(0);
        }
        start = start.min(n - 1);
    }
    let count = if max_def {
        let mut end = lookup(max, true).1 + 1;
        if span_gaps {
            let d = (end.saturating_sub(1)..n).position(|i| meta.parsed[i].get(vaxis).is_some());
            end += d.unwrap_or(0);
        }
        end.clamp(start, n) - start
    } else {
        n - start
    };
    (start, count)
}
