//! chartjs-chart-geo 4.3.6's `choropleth` and `bubbleMap`: d3-geo's projections written
//! again ([`projection`]), fitted as the plugin's `ProjectionScale` fits them
//! (`computeBounds`: `fitWidth(1000, outline)`, then `updateBounds` into the chart area), the
//! features filled with the colour scale's colour (d3-scale-chromatic's interpolators
//! ([`chromatic`]), `quantize`) and
//! the bubbles sized by the size scale (`mode: 'area'`), both normalised over the scale's
//! nice tick bounds as a Chart.js linear scale computes them.
//!
//! Approximated: d3-geo's adaptive resampling and antimeridian clipping are not applied
//! (edges are straight between projected positions; features crossing the antimeridian are
//! not cut), `albersUsa` is its lower-48 Albers projection without the Alaska and Hawaii
//! insets, and a `Sphere` outline is drawn as the projected globe's longitude/latitude frame.
//! The colour and size scales draw their legends (laid out in [`legend`], drawn in
//! [`legend_draw`]): the first dataset on a scale hands the scale over
//! ([`Controller::plugin_scales`]), and the chart draws it at the scale's place in its draw
//! order. The GeoJSON was read within the polygon and vertex budgets by `chart_spec`; every
//! projected number is checked before it becomes geometry.

mod chromatic;
mod chromatic_data;
mod draw;
mod legend;
mod legend_draw;
pub mod projection;

use self::draw::GeoElements;
use super::{Controller, LegendStyle, Meta, PluginScale, UpdateCx};
use crate::elements::dataset::DatasetElements;
use crate::elements::Area;
use crate::layout::ScaleLayout;
use crate::scales::Scale;
use chart_spec::model::{ChartKind, Dataset, Elements, GeoOptions, LegendScale, Raw};
use chart_spec::{Cancel, Rgba};
use legend::{LegendInput, Paint};
use projection::Projection;

/// How often the loops over features poll the render's [`Cancel`].
const CANCEL_EVERY: usize = 64;

fn options(ds: &Dataset) -> Option<&GeoOptions> {
    ds.kind.geo()
}

/// `ChoroplethController` / `BubbleMapController`.
#[derive(Default)]
pub struct GeoController {
    /// The fitted projection, after `update`.
    projection: Option<Projection>,
    /// Colour (choropleth) or radius (bubble map) per data index.
    colors: Vec<Rgba>,
    radii: Vec<f64>,
    /// The projection scale, and the colour or size scale with its legend when this is the
    /// first dataset on it.
    scales: Vec<PluginScale>,
    cancel: Cancel,
}

/// The nice bounds of a legend scale over `values`: chartjs-chart-geo's `LegendScale` is a
/// `LinearScale` with `bounds: 'ticks'`, sized by `LegendScale.update` in the chart area, so
/// its outer ticks, found as `LinearScaleBase.buildTicks` finds them, are the value range.
fn tick_bounds(values: &[f64], legend: &LegendScale, area: &Area) -> Option<(f64, f64)> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let data_min = finite.clone().fold(f64::INFINITY, f64::min);
    let data_max = finite.fold(f64::NEG_INFINITY, f64::max);
    // `getMinMax(true)`: a finite user `min`/`max` replaces the data's.
    let min = legend.min.unwrap_or(data_min);
    let max = legend.max.unwrap_or(data_max);
    if !min.is_finite() || !max.is_finite() || min > max {
        return None;
    }
    // `handleTickRangeOptions` (no beginAtZero on these scales): equal bounds open by 5%.
    let (min, max) = if min == max {
        let offset = if max == 0.0 { 1.0 } else { (max * 0.05).abs() };
        (
            if legend.min.is_some() {
                min
            } else {
                min - offset
            },
            if legend.max.is_some() {
                max
            } else {
                max + offset
            },
        )
    } else {
        (min, max)
    };
    // `LegendScale.update`: the box is the legend's length and width (fractions of the chart
    // area below 1), the indicator taken off across the scale; `computeTickLimit` then counts
    // ticks along it, `getTickLimit` caps them by `maxTicksLimit` and `buildTicks` keeps two.
    let (cw, ch) = (area.width().min(area.right), area.height().min(area.bottom));
    let factor = |v: f64, full: f64| if v < 1.0 { full * v } else { v };
    let along = if legend.horizontal() {
        cw.min(factor(legend.length, cw))
    } else {
        ch.min(factor(legend.length, ch))
    };
    let limit = crate::scales::linear::tick_limit_for_length(
        along.max(0.0),
        legend.horizontal(),
        legend.min_rotation,
        legend.tick_line_height,
    );
    let g = crate::scales::linear::TickGen {
        max_ticks: legend.max_ticks_limit.min(limit).max(2.0),
        bounds_ticks: true,
        min: legend.min,
        max: legend.max,
        precision: None,
        step: None,
        count: None,
        max_digits: 0.0,
        horizontal: legend.horizontal(),
        min_rotation: legend.min_rotation,
        include_bounds: true,
    };
    let ticks = crate::scales::linear::generate_ticks(&g, min, max);
    let lo = ticks.first().copied().unwrap_or(min).min(min);
    let hi = ticks.last().copied().unwrap_or(max).max(max);
    (hi > lo).then_some((lo, hi))
}

/// The plugin's `ProjectionScale` as `chart.scales.projection` reports it: a scale at
/// `position: 'chartArea'` that draws nothing and has no ticks. The layout assigns it the
/// chart area, then its `update(chartArea.w, chartArea.h)` (`setDimensions`) moves the side
/// along its axis to 0: along x `left: 0, right: w`, along y `top: 0, bottom: h`.
fn projection_scale(scale: &Scale, area: &Area) -> PluginScale {
    let c = &scale.core;
    let rect = if c.is_horizontal() {
        Area {
            left: 0.0,
            right: area.width(),
            ..*area
        }
    } else {
        Area {
            top: 0.0,
            bottom: area.height(),
            ..*area
        }
    };
    PluginScale {
        layout: ScaleLayout {
            id: c.id().to_string(),
            axis: if c.is_horizontal() { "x" } else { "y" }.to_string(),
            visible: false,
            rect,
            ticks: Vec::new(),
        },
        z: c.opts.ticks.z,
        drawing: None,
    }
}

/// `SizeScale.getSizeImpl`: the radius at a normalised value, by area (`mode: 'area'`) or by
/// radius between `range`.
fn size_for(o: &GeoOptions, t: f64) -> f64 {
    let (r0, r1) = o.size_range;
    if o.size_area {
        let (a0, a1) = (
            r0 * r0 * std::f64::consts::PI,
            r1 * r1 * std::f64::consts::PI,
        );
        ((t * (a1 - a0) + a0) / std::f64::consts::PI)
            .max(0.0)
            .sqrt()
    } else {
        t * (r1 - r0) + r0
    }
}

/// `quantize(v, steps)` of the colour scale, its bin edges accumulated once per update.
///
/// The plugin walks the edges one by one for every value, adding `1 / steps` each time:
/// within [`MAX_QUANTIZE_WALK`] bins that is up to 4,096 rounds for each of up to 250,000
/// values (a second of work that no stop could cut short). The edges are the same for every
/// value, so they are accumulated once, as the plugin's walk accumulates them (the same
/// rounding), and each value finds the first edge past it by binary search.
struct Quantizer {
    per: f64,
    /// The walk's edges `0, per, per + per, …` while under 1; empty past
    /// [`MAX_QUANTIZE_WALK`] bins (a continuous ramp to the eye), where the first edge past
    /// a value is computed instead of accumulated.
    edges: Vec<f64>,
}

impl Quantizer {
    fn new(steps: f64) -> Self {
        let per = 1.0 / steps;
        let mut edges = Vec::new();
        if steps <= MAX_QUANTIZE_WALK {
            // At most `steps` + 1 edges (steps ≥ 1/4096 of 1 apart).
            let mut acc = 0.0;
            while acc < 1.0 && edges.len() <= MAX_QUANTIZE_WALK as usize {
                edges.push(acc);
                acc += per;
            }
        }
        Quantizer { per, edges }
    }

    fn quantize(&self, v: f64) -> f64 {
        let per = self.per;
        if v <= per {
            return 0.0;
        }
        if v >= 1.0 - per {
            return 1.0;
        }
        if self.edges.is_empty() {
            return ((v / per).floor() + 1.0) * per - per / 2.0;
        }
        // The walk's answer: the first edge past `v` (none for NaN: `v` itself).
        match self.edges.get(self.edges.partition_point(|&e| e <= v)) {
            Some(&e) if v < e => e - per / 2.0,
            _ => v,
        }
    }
}

/// Most bins [`Quantizer`] accumulates edge by edge as the plugin does.
const MAX_QUANTIZE_WALK: f64 = 4_096.0;

impl Controller for GeoController {
    fn parse(&mut self, _ds: &Dataset, meta: &mut Meta, _scales: &mut [Scale], _labels: &[Raw]) {
        // The values go to the plugin's own colour and size scales, not the chart's axes.
        meta.parsed.clear();
    }

    fn update(&mut self, ds: &Dataset, _meta: &Meta, cx: &UpdateCx<'_>) {
        self.cancel = cx.cancel.clone();
        let Some(o) = options(ds) else { return };
        let frame = projection::sphere_frame();
        let outline: Vec<&[(f64, f64)]> = if o.outline.polygons.is_empty() {
            frame.iter().map(Vec::as_slice).collect()
        } else {
            o.outline
                .polygons
                .iter()
                .flatten()
                .map(Vec::as_slice)
                .collect()
        };
        self.projection = Projection::fitted(o, &outline, cx.area);
        // A bubble map spreads sizes over the size scale, a choropleth colours over the colour
        // scale.
        let legend = if ds.kind.chart_kind() == ChartKind::BubbleMap {
            &o.size_legend
        } else {
            &o.color_legend
        };
        // The colour (size) scale is one scale of the chart: `getMinMax` runs over every
        // visible dataset on it, and the scale draws one legend, in its own place of the
        // chart's draw order. Here the choropleths (bubble maps) share it, and the first of
        // them (the first of all when none is visible: the scale is still drawn, over no
        // values) lays the scale out and hands it over (`plugin_scale`).
        let kind = ds.kind.chart_kind();
        let of_kind = || cx.datasets.iter().filter(|d| d.kind.chart_kind() == kind);
        let sharing: Vec<&Dataset> = of_kind().filter(|d| !d.hidden).collect();
        let values: Vec<f64> = sharing
            .iter()
            .filter_map(|d| options(d))
            .flat_map(|o| o.values.iter().copied())
            .collect();
        let draws_legend = sharing
            .first()
            .copied()
            .or_else(|| of_kind().next())
            .is_none_or(|d| d.index == ds.index);
        let bounds = tick_bounds(&values, legend, &cx.area);
        let normalized = |v: f64| match bounds {
            Some((lo, hi)) if v.is_finite() => Some((v - lo) / (hi - lo)),
            _ => None,
        };
        let bins = (o.quantize > 0.0).then(|| Quantizer::new(o.quantize));
        let color =
            |t: f64| chromatic::color(&o.interpolate, bins.as_ref().map_or(t, |b| b.quantize(t)));
        // The scale's colour is only the plugin's default for `elements.geoFeature`
        // (a scriptable `backgroundColor` in the choropleth's overrides): a colour the user
        // gives the dataset, `datasets.choropleth`, `elements.geoFeature` or the chart's
        // options comes first in Chart.js's option scopes and replaces it.
        self.colors = o
            .values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let given = o.background_color.get(i).copied().flatten();
                given.unwrap_or_else(|| normalized(v).map_or(o.missing_color, color))
            })
            .collect();
        self.radii = o
            .values
            .iter()
            .map(|&v| normalized(v).map_or(o.missing_size, |t| size_for(o, t)))
            .map(|r| crate::elements::bounds::finite_in(r, 0.0, 10_000.0, 0.0))
            .collect();
        let size = |t: f64| size_for(o, t);
        // The size legend's circles take the point options of the last bubble map updated
        // (each `BubbleMapController.updateElements` sets `rScale._model` to its first
        // element's options; hidden datasets are updated too).
        let styled = cx
            .datasets
            .iter()
            .rfind(|d| d.kind.chart_kind() == kind)
            .unwrap_or(ds);
        let (id, paint) = if kind == ChartKind::BubbleMap {
            match styled.kind.elements() {
                Elements::Point(pts) => ("size", Some(Paint::Size(&size, pts.at(0)))),
                _ => ("size", None),
            }
        } else {
            ("color", Some(Paint::Color(&color, o.quantize)))
        };
        self.scales = cx
            .scale(Some("projection"))
            .map(|s| projection_scale(s, &cx.area))
            .into_iter()
            .collect();
        self.scales.extend(match (cx.scale(Some(id)), paint) {
            (Some(scale), Some(paint)) if draws_legend => legend::lay_out(
                legend,
                &LegendInput {
                    scale,
                    values: &values,
                    area: cx.area,
                    text: cx.text,
                },
                paint,
            ),
            _ => None,
        });
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        match (options(ds), self.projection.take()) {
            (Some(options), Some(projection)) => DatasetElements::Plugin(Box::new(GeoElements {
                projection,
                colors: std::mem::take(&mut self.colors),
                radii: std::mem::take(&mut self.radii),
                choropleth: ds.kind.chart_kind() == ChartKind::Choropleth,
                options,
                elements: ds.kind.elements(),
                cancel: self.cancel.clone(),
            })),
            _ => DatasetElements::Empty,
        }
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, true, use_point_style)
    }

    fn plugin_scales(&mut self) -> Vec<PluginScale> {
        self.scales.drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plugin's walk over the bin edges, for every value.
    fn walked(v: f64, steps: f64) -> f64 {
        let per = 1.0 / steps;
        if v <= per {
            return 0.0;
        }
        if v >= 1.0 - per {
            return 1.0;
        }
        let mut acc = 0.0;
        while acc < 1.0 {
            if v < acc {
                return acc - per / 2.0;
            }
            acc += per;
        }
        v
    }

    #[test]
    fn quantize_matches_the_plugin() {
        let q = |v, steps| Quantizer::new(steps).quantize(v);
        assert_eq!(q(0.1, 5.0), 0.0);
        assert_eq!(q(0.9, 5.0), 1.0);
        assert!((q(0.525, 5.0) - 0.5).abs() < 1e-9);
        // A hostile bin count answers at once, as the middle of the bin of `v`.
        assert!((q(0.3, 1e15) - 0.3).abs() < 1e-12);
        // Walked and computed edges agree to rounding at the switch.
        assert!((q(0.3, 4096.0) - q(0.3, 4096.0 + 1e-9)).abs() < 1e-9);
        // Looked up in the accumulated edges, every value lands where the walk lands, bit
        // for bit, edges themselves included.
        for steps in [1.5, 3.0, 7.0, 10.0, 97.0, 1000.0, 4096.0] {
            let bins = Quantizer::new(steps);
            for k in 0..=2_000 {
                let v = f64::from(k) / 2_000.0;
                assert_eq!(
                    bins.quantize(v).to_bits(),
                    walked(v, steps).to_bits(),
                    "{v} {steps}"
                );
            }
            for &e in &bins.edges {
                assert_eq!(bins.quantize(e).to_bits(), walked(e, steps).to_bits());
            }
            assert!(bins.quantize(f64::NAN).is_nan());
        }
    }

    /// The edges are accumulated once, at most 4,097 of them however many values look them
    /// up (the walk per value made 250,000 values × 4,096 bins a second of work that polled
    /// no stop).
    #[test]
    fn quantize_bins_are_accumulated_once_and_bounded() {
        assert_eq!(Quantizer::new(4096.0).edges.len(), 4096);
        assert!(Quantizer::new(4096.0 - 1e-9).edges.len() <= 4097);
        assert_eq!(Quantizer::new(5.0).edges.len(), 5);
        assert!(Quantizer::new(1e15).edges.is_empty());
        assert!(Quantizer::new(f64::INFINITY).edges.is_empty());
    }

    fn legend(horizontal: bool, length: f64) -> LegendScale {
        use chart_spec::model::{LegendAlign, LegendPlace};
        let align = if horizontal {
            LegendAlign::Bottom
        } else {
            LegendAlign::Right
        };
        LegendScale {
            length,
            ..super::legend::tests::legend(align, LegendPlace::BottomRight)
        }
    }

    #[test]
    fn legend_ticks_follow_the_legend_size_as_chart_js_computes_them() {
        let area = Area {
            left: 10.0,
            top: 10.0,
            right: 790.0,
            bottom: 490.0,
        };
        let values = [12.0, 41.0, 20.0, 33.0, 27.0];
        // Read from Chart.js 4.5.1 with chartjs-chart-geo 4.3.6 in Chromium (`cargo xtask
        // compare`: the colour scale's ticks, and the same colours): the default colour
        // legend (vertical, 100 px: 7 ticks at most) steps by 10 from 10 to 50, `legend:
        // {length: 300}` (11) by 5 from 10 to 45, `length: 50` (4) by 20 from 0 to 60 (which
        // autoskip then thins to 0 and 40), and `align: 'bottom', length: 0.5` with
        // `maxTicksLimit: 4` by 20 from 0 to 60.
        assert_eq!(
            tick_bounds(&values, &legend(false, 100.0), &area),
            Some((10.0, 50.0))
        );
        assert_eq!(
            tick_bounds(&values, &legend(false, 300.0), &area),
            Some((10.0, 45.0))
        );
        assert_eq!(
            tick_bounds(&values, &legend(false, 50.0), &area),
            Some((0.0, 60.0))
        );
        let mut capped = legend(true, 0.5);
        capped.max_ticks_limit = 4.0;
        assert_eq!(tick_bounds(&values, &capped, &area), Some((0.0, 60.0)));
        // The gallery's choropleth and bubble map (size legend: horizontal, 90 px, 3 ticks).
        assert_eq!(
            tick_bounds(&[45.0, 340.0, 120.0], &legend(false, 100.0), &area),
            Some((0.0, 400.0))
        );
        assert_eq!(
            tick_bounds(&[20.0, 90.0], &legend(true, 90.0), &area),
            Some((0.0, 100.0))
        );
        // A user `min`/`max` bounds the range; nothing finite gives no range.
        let mut fixed = legend(false, 100.0);
        (fixed.min, fixed.max) = (Some(0.0), Some(1000.0));
        assert_eq!(tick_bounds(&values, &fixed, &area), Some((0.0, 1000.0)));
        assert_eq!(tick_bounds(&[f64::NAN], &legend(true, 90.0), &area), None);
        // Hostile sizes and values still give a finite range.
        let wide = tick_bounds(&[f64::INFINITY, 1e308, -1e308], &legend(true, 1e300), &area);
        assert!(wide.is_some_and(|(lo, hi)| lo.is_finite() && hi.is_finite()));
    }
}
