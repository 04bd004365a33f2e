//! chartjs-plugin-gradient 0.6.1: a dataset colour option given as a gradient over a scale.
//!
//! Resolution wrote a stand-in colour per gradient into the dataset
//! ([`chart_spec::resolve::apply_gradient_sentinels`]), so every element, line, fill
//! and legend box that uses the option is drawn with it. Once the scales are laid out, the
//! update reads each gradient's stops off its scale (`getPixelStop`) into a
//! [`ScaleGradient`] ([`prepare`]) and recolours the legend items of data values
//! ([`recolor_legend`]); the drawing ([`repaint`], from those values only) repaints the
//! shapes: inside the chart area with the plugin's `createGradient` over the scale, outside
//! it (legend boxes) over the shape's own box, as the plugin's `updateLegendItems` does over
//! the legend hit box.
//!
//! Both lookups are by map (a stop's label among the scale's labels, an item's colour among
//! the gradients' stand-ins), so the work stays linear in labels and scene items.

use crate::controllers::ChartData;
use crate::plugins::legend::LegendItem;
use crate::scales::Scale;
use chart_spec::model::{Dataset, Datum, Raw};
use chart_spec::model::{GradientAxis, GradientSpec};
use chart_spec::Rgba;
use std::collections::HashMap;

mod repaint;

pub use repaint::{apply, ScaleGradient};

/// The colour stops of one gradient: `addColors` (stop clamped to 0..=1, sorted).
fn stops(g: &GradientSpec, scale: &Scale) -> Vec<(f32, Rgba)> {
    let mut out: Vec<(f64, Rgba)> = Vec::new();
    // The first index of each string label, built only when a stop names one.
    let mut by_label: Option<HashMap<&str, usize>> = None;
    for (value, color) in &g.colors {
        // `isNumber(value) ? parseFloat(value) : scale.parse(value)`.
        let v = match value.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Some(v),
            _ => scale.kind.labels().and_then(|labels| {
                let map = by_label.get_or_insert_with(|| {
                    let mut m = HashMap::new();
                    for (i, l) in labels.iter().enumerate() {
                        if let Raw::Str(s) = l {
                            m.entry(s.as_str()).or_insert(i);
                        }
                    }
                    m
                });
                map.get(value.as_str()).map(|&i| i as f64)
            }),
        };
        let Some(v) = v else { continue };
        let (pixel, stop) = match scale.kind.radial() {
            Some(r) => {
                let d = r.distance_for_value(v);
                (d, d / r.drawing_area)
            }
            None => {
                let p = scale.pixel_for_value(v);
                let s = scale.core.decimal_for_pixel(p);
                (p, if scale.core.opts.reverse { 1.0 - s } else { s })
            }
        };
        if pixel.is_finite() && stop.is_finite() {
            out.push((stop.clamp(0.0, 1.0), *color));
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out.into_iter().map(|(s, c)| (s as f32, c)).collect()
}

/// `getScale(meta, axis)`: the dataset's scale of the gradient's axis.
fn scale_of<'a>(g: &GradientSpec, scales: &'a [Scale], data: &ChartData) -> Option<&'a Scale> {
    let meta = data.metas.get(g.dataset)?;
    let id = match g.axis {
        GradientAxis::X => meta.x_id.as_deref(),
        GradientAxis::Y | GradientAxis::R => meta.y_id.as_deref(),
    }?;
    scales.iter().find(|s| s.core.id() == id)
}

/// `getPixelStop(scale, value).stop`: where a value falls on the scale, 0..1 (unclamped).
fn stop_of(scale: &Scale, v: f64) -> f64 {
    match scale.kind.radial() {
        Some(r) => r.distance_for_value(v) / r.drawing_area,
        None => {
            let s = scale.core.decimal_for_pixel(scale.pixel_for_value(v));
            if scale.core.opts.reverse {
                1.0 - s
            } else {
                s
            }
        }
    }
}

/// The plugin's `interpolate(percent, startColor, endColor)`: each channel mixed in linear
/// light (IEC 61966-2-1) by `percent` itself (the position on the scale, not between the
/// two stops: the plugin's own formula), alpha by `|end - start|`.
fn interpolate(percent: f64, start: Rgba, end: Rgba) -> Rgba {
    let from_srgb = |c: u8| {
        let s = f64::from(c) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            libm::pow((s + 0.055) / 1.055, 2.4)
        }
    };
    let to_srgb = |l: f64| {
        if l <= 0.003_130_8 {
            l * 12.92
        } else {
            libm::pow(l, 1.0 / 2.4) * 1.055 - 0.055
        }
    };
    // `Math.round`, then clamped as a canvas clamps `rgb()` channels.
    let channel = |a: u8, b: u8| {
        let (la, lb) = (from_srgb(a), from_srgb(b));
        let v = libm::floor(to_srgb(la + percent * (lb - la)) * 255.0 + 0.5);
        if v.is_nan() {
            0
        } else {
            v.clamp(0.0, 255.0) as u8
        }
    };
    let (sa, ea) = (f64::from(start.a) / 255.0, f64::from(end.a) / 255.0);
    let a = sa + percent * (ea - sa).abs();
    Rgba {
        r: channel(start.r, end.r),
        g: channel(start.g, end.g),
        b: channel(start.b, end.b),
        a: if a.is_nan() {
            0
        } else {
            (a.clamp(0.0, 1.0) * 255.0).round() as u8
        },
    }
}

/// `getInterpolatedColorByValue`: the colour of `value` among `stops` (sorted), `None` when
/// the value is below the first stop or not a number.
fn color_for_value(stops: &[(f32, Rgba)], percent: f64) -> Option<Rgba> {
    let (mut start, mut end) = (None, None);
    for &(stop, color) in stops {
        let stop = f64::from(stop);
        if stop == percent {
            return Some(color);
        }
        if stop < percent {
            start = Some(color);
        } else if stop > percent && end.is_none() {
            end = Some(color);
        }
    }
    match (start, end) {
        (start, None) => start,
        // Below the first stop the plugin reads `startColor.color` of undefined and throws;
        // nothing is recoloured here.
        (None, Some(_)) => None,
        (Some(s), Some(e)) => Some(interpolate(percent, s, e)),
    }
}

/// `updateLegendItems` for legends of one item per data index (doughnut, pie, polarArea):
/// for dataset `i` whose legend item `i` is not its own dataset item, every such item gets
/// the solid colour of its data value on the gradient (`applyGradientToLegendByDataIndex`),
/// fill from `backgroundColor`, stroke from `borderColor`. Dataset items keep the gradient
/// over their box ([`apply`]).
pub fn recolor_legend(
    items: &mut [LegendItem],
    specs: &[GradientSpec],
    scales: &[Scale],
    data: &ChartData,
    datasets: &[Dataset],
) {
    for (i, ds) in datasets.iter().enumerate() {
        // `legend.legendItems[i]`: past the last item the plugin throws; nothing more here.
        let Some(item) = items.get(i) else { break };
        if item.data_index.is_none() {
            continue;
        }
        for (key, fill) in [("backgroundColor", true), ("borderColor", false)] {
            // `getGradientData`: the first gradient of this option and dataset.
            let Some(g) = specs.iter().find(|g| g.dataset == i && g.key == key) else {
                continue;
            };
            let Some(scale) = scale_of(g, scales, data) else {
                continue;
            };
            let st = stops(g, scale);
            if st.is_empty() {
                continue;
            }
            for item in items.iter_mut() {
                let value = item.data_index.and_then(|k| match ds.data.get(k) {
                    Some(Datum::Primitive(Raw::Num(n))) => Some(*n),
                    Some(Datum::Primitive(Raw::Str(s))) => s.trim().parse::<f64>().ok(),
                    _ => None,
                });
                let Some(v) = value.filter(|v| v.is_finite()) else {
                    continue;
                };
                if let Some(c) = color_for_value(&st, stop_of(scale, v)) {
                    if fill {
                        item.style.fill = c;
                    } else {
                        item.style.stroke = c;
                    }
                }
            }
        }
    }
}

/// The plugin's gradients once the scales are laid out: each spec whose dataset has the
/// scale of its axis and whose colours give at least one stop, with what the repaint reads.
pub fn prepare(specs: &[GradientSpec], scales: &[Scale], data: &ChartData) -> Vec<ScaleGradient> {
    specs
        .iter()
        .filter_map(|g| {
            let s = scale_of(g, scales, data)?;
            let stops = stops(g, s);
            if stops.is_empty() {
                return None;
            }
            let c = &s.core;
            let radial = s
                .kind
                .radial()
                .map(|r| (r.x_center, r.y_center, r.drawing_area));
            Some(ScaleGradient {
                sentinel: g.sentinel,
                axis: g.axis,
                stops,
                scale_box: (c.left, c.top, c.right, c.bottom),
                radial,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plugin mixes in linear light by the value's position on the scale: 15 on a
    /// 0..80 scale between red (0) and yellow (50) is rgb(255, 120, 0), as Chrome draws it.
    #[test]
    fn legend_colours_interpolate_like_the_plugin() {
        let red = Rgba::rgb(255, 0, 0);
        let yellow = Rgba::rgb(255, 255, 0);
        let green = Rgba::rgb(0, 128, 0);
        let stops = [(0.0, red), (0.625, yellow), (1.0, green)];
        assert_eq!(
            color_for_value(&stops, 0.1875),
            Some(Rgba::rgb(255, 120, 0))
        );
        assert_eq!(color_for_value(&stops, 0.625), Some(yellow));
        assert_eq!(color_for_value(&stops, 1.5), Some(green));
        assert_eq!(color_for_value(&stops[1..], 0.1), None);
        assert_eq!(color_for_value(&stops, f64::NAN), None);
    }
}
