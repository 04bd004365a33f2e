//! The legends of chartjs-chart-geo 4.3.6's colour and size scales (`LegendScale`,
//! `ColorScale._drawIndicator`, `SizeScale._drawIndicator`), laid out in the update and drawn
//! from those values.
//!
//! The plugin's legend is the scale itself: a `LinearScale` at `position: 'chartArea'` whose
//! `update` sizes it to the legend's `length` and `width` (`legendSize`), lays it out as a
//! scale on the `legend.align` side (ticks, labels, `fit`), and whose `draw` translates to
//! `computeLegendPosition` and draws the scale there (grid tick marks, border, labels), then
//! the indicator beside it: a bar of 1-px colour strips or `quantize` bins, or circles sized
//! as the bubbles at each tick with the tick marks drawn again.
//!
//! The scale keeps the box Chart.js's layout gave it before its own `update`
//! (`Object.assign(box, chartArea)`): a vertical legend keeps the chart area's `left`, a
//! horizontal one its `top`, so labels sit that far from the translated origin, as in the
//! browser.

use super::legend_draw::{GeoLegend, Indicator};
use crate::controllers::PluginScale;
use crate::elements::bounds::finite_in;
use crate::elements::Area;
use crate::layout::{ScaleLayout, TickLayout};
use crate::scales::{DataLimits, Scale, ScaleCore};
use crate::text::TextEngine;
use chart_spec::model::{
    Axis, Display, LegendAlign, LegendPlace, LegendScale, PointOptions, Position, ScaleOptions,
};
use chart_spec::Rgba;
use std::cell::RefCell;

/// Most strips or bins a colour bar is drawn with: the plugin loops once per pixel of the
/// bar, or once per `quantize` bin, which a hostile `quantize` makes endless.
const MAX_STRIPS: usize = 16_384;

/// The values of the dataset as the legend scale's data limits (`getMinMax`).
struct Values<'a>(&'a [f64]);

impl DataLimits for Values<'_> {
    fn min_max(&self, _scale_id: &str, _axis: Axis, _can_stack: bool) -> (f64, f64) {
        let finite = self.0.iter().copied().filter(|v| v.is_finite());
        (
            finite.clone().fold(f64::INFINITY, f64::min),
            finite.fold(f64::NEG_INFINITY, f64::max),
        )
    }
    fn all_values(&self, _scale_id: &str, _axis: Axis) -> Vec<f64> {
        self.0.iter().copied().filter(|v| v.is_finite()).collect()
    }
}

/// What a legend is built from besides its options.
pub(super) struct LegendInput<'a> {
    /// The chart's scale of the legend (`scales.color` or `scales.size`), resolved.
    pub scale: &'a Scale,
    /// The dataset's values.
    pub values: &'a [f64],
    /// The chart area.
    pub area: Area,
    /// Text measuring.
    pub text: &'a TextEngine,
}

/// How the indicator is drawn, from the normalised value (0 at the first tick, 1 at the last).
pub(super) enum Paint<'a> {
    /// `ColorScale.getColor`, and `quantize` (the bins of the bar).
    Color(&'a dyn Fn(f64) -> Rgba, f64),
    /// `SizeScale.getSizeImpl`, and the first point's options (`_model`).
    Size(&'a dyn Fn(f64) -> f64, &'a PointOptions),
}

/// `LegendScale.update` then what its `draw` reads, as the chart's scale that draws it;
/// `None` when the legend is hidden or its sizes are not finite.
pub(super) fn lay_out(
    legend: &LegendScale,
    input: &LegendInput<'_>,
    paint: Paint<'_>,
) -> Option<PluginScale> {
    if !legend.display {
        return None;
    }
    let area = input.area;
    let horizontal = legend.horizontal();
    let mut opts: ScaleOptions = input.scale.core.opts.clone();
    opts.display = Display::Yes;
    // `options.position = legend.align` around `super.update` and `super.draw`.
    opts.position = match legend.align {
        LegendAlign::Left => Position::Left,
        LegendAlign::Right => Position::Right,
        LegendAlign::Top => Position::Top,
        LegendAlign::Bottom => Position::Bottom,
    };
    opts.axis = if horizontal { Axis::X } else { Axis::Y };
    // `baseDefaults.grid.drawOnChartArea`.
    opts.grid.draw_on_chart_area = false;
    let c = &input.scale.core;
    let mut core = ScaleCore::new(opts, c.chart_width, c.chart_height, c.dpr);
    core.cancel = c.cancel.clone();
    core.budget = c.budget.clone();
    let kind = crate::scales::create(&core.opts, &[]);
    let mut scale = Scale::new(core, kind);
    scale.init();
    scale.core.visible = true;
    scale.data_limits(&Values(input.values));
    // The layout's chart-area boxes: `Object.assign(box, chartArea)`, then
    // `update(chartArea.w, chartArea.h)`.
    let (cw_full, ch_full) = (area.width(), area.height());
    let s = &mut scale.core;
    (s.left, s.top, s.right, s.bottom) = (area.left, area.top, area.right, area.bottom);
    // `LegendScale.update`.
    let ch = ch_full.min(s.bottom);
    let cw = cw_full.min(s.right);
    let factor = |v: f64, full: f64| if v < 1.0 { full * v } else { v };
    let iw = legend.indicator_width;
    let w = cw.min(factor(
        if horizontal {
            legend.length
        } else {
            legend.width
        },
        cw,
    )) - if horizontal { 0.0 } else { iw };
    let h = ch.min(factor(
        if horizontal {
            legend.width
        } else {
            legend.length
        },
        ch,
    )) - if horizontal { iw } else { 0.0 };
    if !(w.is_finite() && h.is_finite()) {
        return None;
    }
    (s.bottom, s.height, s.right, s.width) = (h, h, w, w);
    scale.update(w, h, chart_spec::values::Sides::all(0.0), input.text);
    scale.core.height = scale.core.height.min(h);
    scale.core.width = scale.core.width.min(w);
    // `Chart._updateLayout` configures every box again once the layout is done.
    scale.configure();
    let (width, height) = (scale.core.width, scale.core.height);
    let origin = position(legend, &area, width, height, (w, h));
    let indicator_origin = match legend.align {
        LegendAlign::Left => (w, 0.0),
        LegendAlign::Top => (0.0, h),
        LegendAlign::Bottom => (0.0, -iw),
        LegendAlign::Right => (-iw, 0.0),
    };
    // `_getNormalizedValue`: over the scale's range (`_startValue`, `_valueRange`).
    let (start, end) = (scale.core.start, scale.core.end);
    let normalized = |v: f64| (v - start) / (end - start);
    let indicator = match paint {
        Paint::Color(color, quantize) => Indicator::Colors(color_strips(
            horizontal,
            if horizontal { width } else { height },
            iw,
            scale.core.reverse_pixels,
            quantize,
            color,
        )),
        Paint::Size(size, point) => {
            let shift = iw / 2.0;
            let circles = (0..scale.core.ticks.len())
                .map(|i| {
                    let p = scale.pixel_for_tick(i);
                    // Bounded as the bubbles' radii are.
                    let r = finite_in(
                        size(normalized(scale.core.ticks[i].value)),
                        0.0,
                        10_000.0,
                        0.0,
                    );
                    if horizontal {
                        (p, shift, r)
                    } else {
                        (shift, p, r)
                    }
                })
                .collect();
            let b = &scale.core.opts.border;
            Indicator::Sizes {
                shift,
                dash: (b.dash.clone(), b.dash_offset),
                circles,
                point: Box::new(point.clone()),
            }
        }
    };
    let laid_out = Scale::laid_out(std::slice::from_ref(&scale), 0).with_unclipped_labels();
    let c = &laid_out.core;
    // `chart.scales[id]` is this scale: the box its `update` left (a vertical legend at the
    // chart area's `left` and `top: 0`, a horizontal one at `left: 0` and the chart area's
    // `top`, `right`/`bottom` the legend's size) and its ticks in the legend's own frame,
    // with the `axis: 'r'` of `LegendScale.init`.
    let layout = ScaleLayout {
        id: input.scale.core.id().to_string(),
        axis: "r".to_string(),
        visible: true,
        rect: Area {
            left: c.left,
            top: c.top,
            right: c.right,
            bottom: c.bottom,
        },
        ticks: (c.ticks.iter().enumerate())
            .map(|(i, t)| TickLayout {
                value: t.value,
                label: t.label.clone(),
                pixel: scale.pixel_for_tick(i),
            })
            .collect(),
    };
    Some(PluginScale {
        layout,
        z: legend.z,
        drawing: Some(Box::new(GeoLegend {
            scale: RefCell::new(laid_out),
            origin,
            area: Area {
                bottom: height + 10.0,
                right: width,
                ..area
            },
            indicator_origin,
            indicator,
        })),
    })
}

/// `computeLegendPosition`.
fn position(
    legend: &LegendScale,
    area: &Area,
    width: f64,
    height: f64,
    size: (f64, f64),
) -> (f64, f64) {
    let iw = legend.indicator_width;
    let horizontal = legend.horizontal();
    let w = if legend.align == LegendAlign::Left {
        size.0
    } else {
        width
    } + if horizontal { iw } else { 0.0 };
    let h = if legend.align == LegendAlign::Top {
        size.1
    } else {
        height
    } + if horizontal { 0.0 } else { iw };
    // `computeLegendMargin`: the indicator's side takes its width too.
    let m = &legend.margin;
    let left = m.left
        + if legend.align == LegendAlign::Right {
            iw
        } else {
            0.0
        };
    let top = m.top
        + if legend.align == LegendAlign::Bottom {
            iw
        } else {
            0.0
        };
    let right = m.right
        + if legend.align == LegendAlign::Left {
            iw
        } else {
            0.0
        };
    let bottom = m.bottom
        + if legend.align == LegendAlign::Top {
            iw
        } else {
            0.0
        };
    match legend.position {
        LegendPlace::TopLeft => (left, top),
        LegendPlace::Top => ((area.right - w) / 2.0, top),
        LegendPlace::Left => (left, (area.bottom - h) / 2.0),
        LegendPlace::TopRight => (area.right - w - right, top),
        LegendPlace::BottomRight => (area.right - w - right, area.bottom - h - bottom),
        LegendPlace::Bottom => ((area.right - w) / 2.0, area.bottom - h - bottom),
        LegendPlace::BottomLeft => (left, area.bottom - h - bottom),
        LegendPlace::Right => (area.right - w - right, (area.bottom - h) / 2.0),
        LegendPlace::At(x, y) => (x, y),
    }
}

/// `ColorScale._drawIndicator`: a 1-px strip per pixel along the bar (its colour from the
/// strip's middle), or one rectangle per `quantize` bin, `iw` across; mirrored when the
/// scale's pixels run backwards (a vertical scale's do). At most [`MAX_STRIPS`].
fn color_strips(
    horizontal: bool,
    length: f64,
    iw: f64,
    reverse: bool,
    quantize: f64,
    color: &dyn Fn(f64) -> Rgba,
) -> Vec<(f64, f64, f64, f64, Rgba)> {
    let mut out = Vec::new();
    if !length.is_finite() {
        return out;
    }
    // Along the bar: (offset, size, normalised value), accumulated as the plugin's loop.
    let step = if quantize > 0.0 {
        length / quantize
    } else {
        1.0
    };
    let mut i = 0.0;
    while i < length && out.len() < MAX_STRIPS && step > 0.0 {
        let (at, v) = if quantize > 0.0 {
            let at = if reverse { length - step - i } else { i };
            (at, (i + step / 2.0) / length)
        } else {
            let at = if reverse { length - 1.0 - i } else { i };
            (at, (i + 0.5) / length)
        };
        let c = color(v);
        out.push(if horizontal {
            (at, 0.0, step, iw, c)
        } else {
            (0.0, at, iw, step, c)
        });
        i += step;
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::{color_strips, position, MAX_STRIPS};
    use crate::elements::Area;
    use chart_spec::model::{LegendAlign, LegendPlace, LegendScale};
    use chart_spec::values::Sides;
    use chart_spec::Rgba;

    /// A legend with the colour scale's defaults but `align` and `position`.
    pub(in crate::controllers::geo) fn legend(
        align: LegendAlign,
        place: LegendPlace,
    ) -> LegendScale {
        LegendScale {
            display: true,
            align,
            position: place,
            margin: Sides::all(8.0),
            length: 100.0,
            width: 50.0,
            indicator_width: 10.0,
            tick_line_height: 14.4,
            min_rotation: 0.0,
            max_ticks_limit: 11.0,
            min: None,
            max: None,
            z: 1.0,
        }
    }

    const AREA: Area = Area {
        left: 0.0,
        top: 50.0,
        right: 800.0,
        bottom: 500.0,
    };

    /// `computeLegendPosition`: the indicator's width joins the legend across a horizontal
    /// scale and along a vertical one, and the margin on the indicator's side.
    #[test]
    fn legends_are_placed_as_the_plugin_places_them() {
        let right = legend(LegendAlign::Right, LegendPlace::BottomRight);
        // A vertical legend 40 × 100 (its scale 40 wide): 800 - 40 - 8, 500 - 110 - 8.
        assert_eq!(
            position(&right, &AREA, 40.0, 100.0, (40.0, 100.0)),
            (752.0, 382.0)
        );
        let bottom = legend(LegendAlign::Bottom, LegendPlace::TopLeft);
        // The bottom-aligned bar takes the indicator into the top margin.
        assert_eq!(
            position(&bottom, &AREA, 90.0, 28.0, (90.0, 28.0)),
            (8.0, 18.0)
        );
        let centred = legend(LegendAlign::Bottom, LegendPlace::Bottom);
        assert_eq!(position(&centred, &AREA, 90.0, 28.0, (90.0, 28.0)).0, 350.0);
        let at = legend(LegendAlign::Left, LegendPlace::At(3.0, 4.0));
        assert_eq!(position(&at, &AREA, 40.0, 100.0, (40.0, 100.0)), (3.0, 4.0));
    }

    /// `ColorScale._drawIndicator`: one strip per pixel with the colour of its middle, or
    /// one rectangle per bin, mirrored on a reversed (vertical) scale; a hostile `quantize`
    /// stops at the strip budget.
    #[test]
    fn colour_bars_are_strips_or_bins() {
        let grey = |v: f64| {
            let c = (v * 255.0).round() as u8;
            Rgba::rgb(c, c, c)
        };
        let strips = color_strips(true, 4.0, 10.0, false, 0.0, &grey);
        assert_eq!(strips.len(), 4);
        assert_eq!(strips[0], (0.0, 0.0, 1.0, 10.0, grey(0.125)));
        let reversed = color_strips(false, 4.0, 10.0, true, 0.0, &grey);
        assert_eq!(reversed[0], (0.0, 3.0, 10.0, 1.0, grey(0.125)));
        let bins = color_strips(false, 100.0, 10.0, true, 4.0, &grey);
        assert_eq!(bins.len(), 4);
        assert_eq!(bins[0], (0.0, 75.0, 10.0, 25.0, grey(0.125)));
        assert_eq!(
            color_strips(true, 100.0, 10.0, false, 1e12, &grey).len(),
            MAX_STRIPS
        );
        assert!(color_strips(true, f64::NAN, 10.0, false, 0.0, &grey).is_empty());
        assert!(color_strips(true, -5.0, 10.0, false, 0.0, &grey).is_empty());
    }
}
