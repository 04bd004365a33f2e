//! The decimation plugin (plugin.decimation.js): thins large line datasets before drawing,
//! with Largest-Triangle-Three-Buckets (`lttb`) or per-pixel-column `min-max`.
//!
//! Chart.js only decimates when `options.plugins.decimation.enabled`, the dataset's index axis
//! is `x`, its controller supports decimation (line), its x scale is `linear` or `time`, the
//! chart has `parsing: false` and the visible point count exceeds `threshold`
//! (default `4 × chart.width`); [`should_decimate`] states those rules.

use chart_spec::model::{
    ChartKind, DecimationAlgorithm as Algorithm, DecimationOptions, ScaleKind,
};

/// A parsed `{x, y}` data point and its index in the dataset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataPoint {
    /// x value.
    pub x: f64,
    /// y value.
    pub y: f64,
    /// Index in the original data.
    pub index: usize,
}

/// Chart.js's preconditions for decimating one dataset (see the module docs); `count` is the
/// number of visible points.
pub fn should_decimate(
    opts: &DecimationOptions,
    index_axis_is_x: bool,
    is_line: bool,
    x_scale_type: ScaleKind,
    parsing: bool,
    count: usize,
    chart_width: f64,
) -> bool {
    let threshold = opts
        .threshold
        .filter(|&t| t > 0)
        .map_or(4.0 * chart_width, |t| t as f64);
    opts.enabled
        && index_axis_is_x
        && is_line
        && matches!(x_scale_type, ScaleKind::Linear | ScaleKind::Time)
        && !parsing
        && count as f64 > threshold
}

/// Decimates `data[start..start + count]` for a chart `available_width` px wide.
pub fn decimate(
    opts: &DecimationOptions,
    data: &[DataPoint],
    start: usize,
    count: usize,
    available_width: f64,
) -> Vec<DataPoint> {
    let end = (start + count).min(data.len());
    if start >= end {
        return Vec::new();
    }
    let count = end - start;
    match opts.algorithm {
        Algorithm::Lttb => lttb(data, start, count, available_width, opts.samples),
        Algorithm::MinMax => min_max(data, start, count, available_width),
    }
}

/// `lttbDecimation`.
fn lttb(
    data: &[DataPoint],
    start: usize,
    count: usize,
    available_width: f64,
    samples: Option<usize>,
) -> Vec<DataPoint> {
    let samples = samples
        .filter(|&s| s > 0)
        .unwrap_or(available_width.max(0.0) as usize);
    if samples >= count || samples < 3 {
        return data[start..start + count].to_vec();
    }
    let mut out = Vec::with_capacity(samples);
    let bucket = (count - 2) as f64 / (samples - 2) as f64;
    let end_index = start + count - 1;
    let mut a = start;
    out.push(data[a]);
    for i in 0..samples - 2 {
        let avg_start = ((i + 1) as f64 * bucket).floor() as usize + 1 + start;
        let avg_end = (((i + 2) as f64 * bucket).floor() as usize + 1).min(count) + start;
        let len = avg_end.saturating_sub(avg_start) as f64;
        let (mut ax, mut ay) = (0.0, 0.0);
        for p in &data[avg_start..avg_end.max(avg_start)] {
            ax += p.x;
            ay += p.y;
        }
        ax /= len;
        ay /= len;
        let range_from = (i as f64 * bucket).floor() as usize + 1 + start;
        let range_to = (((i + 1) as f64 * bucket).floor() as usize + 1).min(count) + start;
        let pa = data[a];
        let mut max_area = -1.0;
        let mut next_a = a;
        for (j, p) in data.iter().enumerate().take(range_to).skip(range_from) {
            let area = 0.5 * ((pa.x - ax) * (p.y - pa.y) - (pa.x - p.x) * (ay - pa.y)).abs();
            if area > max_area {
                max_area = area;
                next_a = j;
            }
        }
        out.push(data[next_a]);
        a = next_a;
    }
    out.push(data[end_index]);
    out
}

/// JavaScript's `x | 0`: truncation to a 32-bit integer.
fn to_int32(x: f64) -> i64 {
    if !x.is_finite() {
        return 0;
    }
    let t = x.trunc();
    let m = t.rem_euclid(4_294_967_296.0);
    let m = if m >= 2_147_483_648.0 {
        m - 4_294_967_296.0
    } else {
        m
    };
    m as i64
}

/// `minMaxDecimation`: for each pixel column, the first and last points plus the minimum and
/// maximum (at the column's average x).
fn min_max(data: &[DataPoint], start: usize, count: usize, available_width: f64) -> Vec<DataPoint> {
    let end_index = start + count - 1;
    let x_min = data[start].x;
    let dx = data[end_index].x - x_min;
    let mut out = Vec::new();
    let mut avg_x = 0.0;
    let mut count_x = 0.0;
    let mut prev_x: Option<i64> = None;
    let (mut min_y, mut max_y) = (0.0, 0.0);
    let (mut min_i, mut max_i, mut start_i): (Option<usize>, Option<usize>, Option<usize>) =
        (None, None, None);
    for i in start..start + count {
        let p = data[i];
        let trunc_x = to_int32((p.x - x_min) / dx * available_width);
        if Some(trunc_x) == prev_x {
            if p.y < min_y {
                min_y = p.y;
                min_i = Some(i);
            } else if p.y > max_y {
                max_y = p.y;
                max_i = Some(i);
            }
            count_x += 1.0;
            avg_x = ((count_x - 1.0) * avg_x + p.x) / count_x;
        } else {
            let last = i.checked_sub(1);
            if let (Some(mi), Some(ma)) = (min_i, max_i) {
                let (i1, i2) = (mi.min(ma), mi.max(ma));
                for k in [i1, i2] {
                    if Some(k) != start_i && Some(k) != last {
                        out.push(DataPoint {
                            x: avg_x,
                            ..data[k]
                        });
                    }
                }
            }
            if let Some(l) = last {
                if i > 0 && Some(l) != start_i && l >= start {
                    out.push(data[l]);
                }
            }
            out.push(p);
            prev_x = Some(trunc_x);
            count_x = 0.0;
            min_y = p.y;
            max_y = p.y;
            min_i = Some(i);
            max_i = Some(i);
            start_i = Some(i);
        }
    }
    out
}

/// `beforeElementsUpdate` of the decimation plugin over the parsed datasets: each line
/// dataset that qualifies (see [`should_decimate`]) has its parsed points replaced by the
/// decimated ones, as Chart.js swaps `dataset.data` for `dataset._decimated`.
pub fn apply(
    chart: &chart_spec::model::Chart,
    metas: &mut [crate::controllers::Meta],
    scales: &[crate::scales::Scale],
    chart_width: f64,
) {
    let opts = chart.decimation;
    if !opts.enabled {
        return;
    }
    for (ds, meta) in chart.datasets.iter().zip(metas.iter_mut()) {
        let Some(xs) = scales
            .iter()
            .find(|s| Some(s.core.id()) == meta.x_id.as_deref())
        else {
            continue;
        };
        let points: Vec<DataPoint> = meta
            .parsed
            .iter()
            .enumerate()
            .map(|(index, p)| DataPoint {
                x: p.x.unwrap_or(f64::NAN),
                y: p.y.unwrap_or(f64::NAN),
                index,
            })
            .collect();
        // getStartAndCountOfVisiblePointsSimplified: the x scale's user bounds.
        let (umin, umax, min_def, max_def) = xs.core.user_bounds();
        let n = points.len();
        let lookup = |v: f64| points.iter().take_while(|p| p.x < v).count();
        let start = if min_def && n > 0 {
            lookup(umin).saturating_sub(1).min(n - 1)
        } else {
            0
        };
        let count = if max_def {
            (lookup(umax) + 1).clamp(start, n) - start
        } else {
            n - start
        };
        if !should_decimate(
            &opts,
            meta.index_axis == chart_spec::model::Axis::X,
            ds.kind.chart_kind() == ChartKind::Line,
            xs.core.opts.kind.scale_kind(),
            ds.parsing,
            count,
            chart_width,
        ) {
            continue;
        }
        let kept = decimate(&opts, &points, start, count, chart_width);
        meta.parsed = kept
            .iter()
            .map(|p| crate::controllers::Parsed {
                x: Some(p.x),
                ..meta.parsed[p.index]
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(n: usize) -> Vec<DataPoint> {
        (0..n)
            .map(|i| DataPoint {
                x: i as f64,
                y: libm::sin(i as f64 / 10.0) * 100.0,
                index: i,
            })
            .collect()
    }

    #[test]
    fn lttb_keeps_ends_and_sample_count() {
        let d = series(10_000);
        let opts = DecimationOptions {
            enabled: true,
            algorithm: Algorithm::Lttb,
            samples: Some(500),
            threshold: None,
        };
        let out = decimate(&opts, &d, 0, d.len(), 800.0);
        assert_eq!(out.len(), 500);
        assert_eq!(out[0].index, 0);
        assert_eq!(out[499].index, 9_999);
        assert!(out.windows(2).all(|w| w[0].index < w[1].index));
    }

    #[test]
    fn min_max_keeps_extremes() {
        let d = series(10_000);
        let opts = DecimationOptions {
            enabled: true,
            ..Default::default()
        };
        let out = decimate(&opts, &d, 0, d.len(), 100.0);
        assert!(out.len() < 1000 && out.len() > 100);
        let max = out.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        assert!(max > 99.9);
    }

    #[test]
    fn preconditions() {
        let o = DecimationOptions {
            enabled: true,
            ..Default::default()
        };
        assert!(should_decimate(
            &o,
            true,
            true,
            ScaleKind::Linear,
            false,
            5000,
            800.0
        ));
        assert!(!should_decimate(
            &o,
            true,
            true,
            ScaleKind::Linear,
            true,
            5000,
            800.0
        ));
        assert!(!should_decimate(
            &o,
            true,
            true,
            ScaleKind::Category,
            false,
            5000,
            800.0
        ));
        assert!(!should_decimate(
            &o,
            true,
            true,
            ScaleKind::Linear,
            false,
            3000,
            800.0
        ));
    }

    fn line_cmds(decimation: serde_json::Value) -> usize {
        let data: Vec<serde_json::Value> = (0..10_000)
            .map(|i| serde_json::json!({"x": i, "y": libm::sin(f64::from(i) / 50.0)}))
            .collect();
        let cfg = serde_json::json!({
            "type": "line",
            "data": {"datasets": [{"data": data, "pointRadius": 0}]},
            "options": {
                "parsing": false,
                "animation": false,
                "scales": {"x": {"type": "linear"}},
                "plugins": {"decimation": decimation, "legend": false}
            }
        });
        let engine = crate::Engine::new();
        let settings = crate::Settings {
            width: 400.0,
            height: 300.0,
            device_pixel_ratio: 1.0,
            background: chart_spec::Rgba::WHITE,
        };
        let map = cfg.as_object().cloned().unwrap_or_default();
        let (scene, _) = engine.scene(&map, &settings);
        scene
            .items
            .iter()
            .filter_map(|it| match it {
                crate::scene::Item::Stroke { path, .. } => Some(path.cmds.len()),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn decimation_thins_the_drawn_line() {
        let full = line_cmds(serde_json::json!({"enabled": false}));
        let lttb =
            line_cmds(serde_json::json!({"enabled": true, "algorithm": "lttb", "samples": 100}));
        let minmax = line_cmds(serde_json::json!({"enabled": true}));
        // The undecimated line is already merged per pixel column by the line's fast path.
        assert!(full > 1_000, "undecimated line ({full})");
        // 100 points (a moveTo and 99 lineTo) plus at most one closing command.
        assert!(
            (100..=101).contains(&lttb),
            "lttb keeps `samples` points ({lttb})"
        );
        assert!(
            minmax > 400 && minmax <= full,
            "min-max keeps a few per column ({minmax})"
        );
    }
}
