//! The `radialLinear` scale (scale.radialLinear.js): linear ticks along the radius, point
//! labels around the chart, circular or polygonal grid and angle lines. It is laid out in the
//! chart area (`position: 'chartArea'`) rather than along an edge, so it replaces the shared
//! update and drawing of [`super::Scale`] ([`ScaleType::update_custom`],
//! [`ScaleType::drawing`]).

use super::linear::{build_linear_ticks, handle_tick_range, numeric_tick_label, parse_linear};
use super::radial_draw::{
    draw_background, draw_grid_lines, draw_point_labels, draw_tick_labels, LineStyle,
    PointLabelStyle, RadialTick, TickLabelStyle,
};
use super::radial_geometry::{LabelSize, PointLabelItem, RadialGeometry};
use super::{ticks, DataLimits, ScaleCore, ScaleLayer, ScaleType, Tick};
use crate::elements::Ctx;
use crate::text::TextEngine;
use chart_spec::model::RadialScaleOptions;
use chart_spec::model::{Axis, Display, Raw};
use chart_spec::values::Sides;

/// Point labels measured between two looks at the render's stop signal.
const POINT_LABELS_PER_POLL: usize = 64;

/// `radialLinear`.
pub struct RadialLinearScale {
    /// Centre, radius and angles, valid after layout.
    pub geom: RadialGeometry,
    labels: Vec<Raw>,
    point_labels: Vec<Vec<String>>,
    items: Vec<PointLabelItem>,
}

impl RadialLinearScale {
    /// A radial scale whose point labels are the chart's `labels`.
    pub fn new(labels: Vec<Raw>) -> Self {
        Self {
            geom: RadialGeometry::set_dimensions(0.0, 0.0, 0.0, 0.0, 0.0),
            labels,
            point_labels: Vec::new(),
            items: Vec::new(),
        }
    }

    fn radial(core: &ScaleCore) -> Option<&RadialScaleOptions> {
        core.opts.kind.radial()
    }

    /// `getTickBackdropHeight`.
    fn tick_backdrop_height(core: &ScaleCore) -> f64 {
        let t = &core.opts.ticks;
        if t.display && core.opts.display != Display::No {
            let p: &Sides = &t.backdrop_padding;
            t.font.first().size + p.top + p.bottom
        } else {
            0.0
        }
    }
}

impl ScaleType for RadialLinearScale {
    fn formats_numbers(&self) -> bool {
        true
    }

    fn parse(&mut self, _core: &ScaleCore, raw: &Raw, _index: Option<usize>) -> Option<f64> {
        parse_linear(raw)
    }

    fn determine_data_limits(&mut self, core: &mut ScaleCore, data: &dyn DataLimits) {
        // getMinMax(false) over the datasets on this scale; the radial controllers have no
        // other axis to filter by.
        let values = data.all_values(core.id(), Axis::R);
        let (dmin, dmax) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        let (umin, umax, min_def, max_def) = core.user_bounds();
        let (mut min, mut max) = (umin, umax);
        if !(min_def && max_def) {
            if !min_def {
                min = min.min(dmin);
            }
            if !max_def {
                max = max.max(dmax);
            }
            if max_def && min > max {
                min = max;
            }
            if min_def && min > max {
                max = min;
            }
        }
        core.min = if min.is_finite() { min } else { 0.0 };
        core.max = if max.is_finite() { max } else { 0.0 };
        handle_tick_range(core);
    }

    fn build_ticks(&mut self, core: &mut ScaleCore, _text: &TextEngine) -> Vec<Tick> {
        // getTickLimit with computeTickLimit = ceil(drawingArea / tickBackdropHeight).
        let mut max_ticks_limit = core.opts.ticks.max_ticks_limit.filter(|m| *m != 0.0);
        let mut max_ticks = match core.opts.ticks.step_size.filter(|s| *s != 0.0) {
            Some(step) => super::linear::step_tick_limit(core, step),
            None => {
                max_ticks_limit = Some(max_ticks_limit.unwrap_or(11.0));
                (self.geom.drawing_area / Self::tick_backdrop_height(core)).ceil()
            }
        };
        if let Some(m) = max_ticks_limit {
            max_ticks = m.min(max_ticks);
        }
        let max_digits = core.height / core.opts.ticks.font.first().line_height;
        build_linear_ticks(core, max_ticks.max(2.0), max_digits, false)
    }

    fn tick_label(&self, core: &ScaleCore, index: usize, ticks: &[Tick]) -> Option<Vec<String>> {
        numeric_tick_label(core, index, ticks)
    }

    fn configure(&mut self, _core: &mut ScaleCore) {}

    fn pixel_for_value(&self, _core: &ScaleCore, _value: f64) -> f64 {
        f64::NAN
    }

    fn value_for_pixel(&self, _core: &ScaleCore, _pixel: f64) -> f64 {
        f64::NAN
    }

    fn label_for_value(&self, core: &ScaleCore, value: f64) -> String {
        ticks::default_number(value, &core.opts.ticks.format)
    }

    fn radial(&self) -> Option<&RadialGeometry> {
        Some(&self.geom)
    }

    fn update_custom(&mut self, core: &mut ScaleCore, text: &TextEngine) -> bool {
        // setDimensions
        let backdrop = Self::tick_backdrop_height(core);
        self.geom = RadialGeometry::set_dimensions(
            core.left,
            core.top,
            core.max_width,
            core.max_height,
            backdrop,
        );
        core.width = core.max_width - backdrop;
        core.height = core.max_height - backdrop;
        core.right = core.left + core.max_width;
        core.bottom = core.top + core.max_height;
        let radial = Self::radial(core).cloned();
        self.geom.start_angle_deg = radial.as_ref().map_or(0.0, |r| r.start_angle);
        self.geom.reverse = core.opts.reverse;
        // buildTicks and labels
        let ticks = self.build_ticks(core, text);
        // Each point label is measured and placed like a tick: within MAX_TOTAL_TICKS.
        if !core.charge_ticks(ticks.len().max(self.labels.len())) {
            return true;
        }
        let mut labelled = Vec::with_capacity(ticks.len());
        for i in 0..ticks.len() {
            let mut t = ticks[i].clone();
            t.label = self.tick_label(core, i, &ticks);
            labelled.push(t);
        }
        core.ticks = labelled;
        self.geom.min = core.min;
        self.geom.max = core.max;
        // generateTickLabels: the point labels (`label || label === 0 ? label : ''`).
        self.point_labels = self
            .labels
            .iter()
            .map(|l| match l {
                Raw::Undefined | Raw::Null => vec![String::new()],
                Raw::Str(s) if s.is_empty() => vec![String::new()],
                Raw::Bool(false) => vec![String::new()],
                Raw::Num(n) if n.is_nan() => vec![String::new()],
                other => other.lines(),
            })
            .collect();
        self.geom.label_count = self.point_labels.len();
        // fit
        let pl = radial.as_ref().map(|r| &r.point_labels);
        let show_labels = pl.is_some_and(|p| p.display != Some(false));
        if core.opts.display != Display::No && show_labels {
            let Some(pl) = pl else { return true };
            let n = self.point_labels.len();
            let mut sizes: Vec<LabelSize> = Vec::with_capacity(n);
            for (i, lines) in self.point_labels.iter().enumerate() {
                // Shaping costs in proportion to the text: 50,000 labels of 2,000 characters
                // took 20 s here, long after the render's deadline (sweep seed 6, case 109).
                if i % POINT_LABELS_PER_POLL == 0 && core.cancelled() {
                    self.items.clear();
                    return true;
                }
                let font = pl.font.at(i);
                let w = lines
                    .iter()
                    .map(|l| f64::from(text.measure(&font.spec, l)))
                    .fold(0.0, f64::max);
                sizes.push(LabelSize {
                    w,
                    h: lines.len() as f64 * font.line_height,
                });
            }
            let paddings: Vec<f64> = (0..n).map(|i| pl.padding.at(i)).collect();
            self.items = self.geom.fit_with_point_labels(
                &sizes,
                &paddings,
                pl.center,
                backdrop / 2.0,
                pl.display.is_none(),
            );
        } else {
            self.geom.set_center_point(0.0, 0.0, 0.0, 0.0);
            self.items.clear();
        }
        true
    }

    fn drawing(&self) -> Option<RadialDrawing> {
        Some(RadialDrawing {
            geom: self.geom.clone(),
            point_labels: self.point_labels.clone(),
            items: self.items.clone(),
        })
    }
}

/// What the drawing of a radial linear scale reads once its update is done: the geometry,
/// the point labels and where they went (`_pointLabelItems`).
#[derive(Debug, Clone)]
pub struct RadialDrawing {
    geom: RadialGeometry,
    point_labels: Vec<Vec<String>>,
    items: Vec<PointLabelItem>,
}

impl RadialDrawing {
    /// `(xCenter, yCenter)`, the centre the update left.
    pub fn center(&self) -> (f64, f64) {
        (self.geom.x_center, self.geom.y_center)
    }

    /// `RadialLinearScale.drawBackground`, `drawGrid` (grid circles or polygons, angle lines
    /// and point labels) and `drawLabels`, for one layer.
    pub fn draw(&self, core: &ScaleCore, layer: ScaleLayer, ctx: &mut Ctx<'_>) {
        let Some(radial) = RadialLinearScale::radial(core) else {
            return;
        };
        let g = &self.geom;
        let o = &core.opts;
        match layer {
            ScaleLayer::Grid => {
                draw_background(g, o.background_color, o.grid.circular, core.max, ctx.items);
                if radial.point_labels.display != Some(false) {
                    let styles: Vec<PointLabelStyle> = (0..self.point_labels.len())
                        .map(|i| {
                            let pl = &radial.point_labels;
                            PointLabelStyle {
                                font: pl.font.at(i).spec,
                                color: pl.color.at(i),
                                backdrop_color: pl.backdrop_color,
                                backdrop_padding: pl.backdrop_padding,
                                border_radius: pl.border_radius,
                            }
                        })
                        .collect();
                    let direction = ctx.direction();
                    draw_point_labels(
                        &self.point_labels,
                        &self.items,
                        &styles,
                        direction,
                        ctx.items,
                    );
                }
                let ticks: Vec<RadialTick> = core
                    .ticks
                    .iter()
                    .map(|t| RadialTick {
                        value: t.value,
                        label: t.label.clone().unwrap_or_default(),
                    })
                    .collect();
                let grid_styles: Vec<LineStyle> = (0..ticks.len())
                    .map(|i| LineStyle {
                        color: o.grid.color.at(i),
                        width: o.grid.line_width.at(i),
                        dash: o.border.dash.iter().map(|d| *d as f32).collect(),
                        dash_offset: o.border.dash_offset as f32,
                    })
                    .collect();
                let al = &radial.angle_lines;
                let angle_styles: Vec<LineStyle> = (0..self.point_labels.len())
                    .map(|i| LineStyle {
                        color: al.color.at(i),
                        width: al.line_width.at(i),
                        dash: al.border_dash.iter().map(|d| *d as f32).collect(),
                        dash_offset: al.border_dash_offset as f32,
                    })
                    .collect();
                draw_grid_lines(
                    g,
                    &ticks,
                    o.grid
                        .display
                        .then_some((&grid_styles[..], o.grid.circular)),
                    al.display.then_some(&angle_styles[..]),
                    ctx.items,
                );
            }
            ScaleLayer::Border => {}
            ScaleLayer::Labels => {
                if !o.ticks.display {
                    return;
                }
                let ticks: Vec<RadialTick> = core
                    .ticks
                    .iter()
                    .map(|t| RadialTick {
                        value: t.value,
                        label: t.label.clone().unwrap_or_default(),
                    })
                    .collect();
                let t = &o.ticks;
                let styles: Vec<TickLabelStyle> = (0..ticks.len())
                    .map(|i| TickLabelStyle {
                        font: t.font.at(i).spec,
                        color: t.color.at(i),
                        show_backdrop: t.show_label_backdrop,
                        backdrop_color: t.backdrop_color,
                        backdrop_padding: t.backdrop_padding,
                        stroke: t.text_stroke_color.map(|c| (c, t.text_stroke_width)),
                    })
                    .collect();
                let text = ctx.text;
                draw_tick_labels(
                    g,
                    &ticks,
                    &styles,
                    &|f, s| f64::from(text.measure(f, s)),
                    ctx.direction(),
                    ctx.items,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A stopped render measures no point label: each one is shaped, and a chart may hold
    /// 50,000 long ones.
    #[test]
    fn point_labels_are_not_measured_once_the_render_is_stopped() {
        let labels: Vec<Value> = (0..200).map(|i| json!(format!("label {i}"))).collect();
        let config = json!({"type": "radar", "data": {"labels": labels,
            "datasets": [{"data": [1, 2, 3]}]}});
        let (chart, _) = chart_spec::resolve::resolve_chart(config.as_object().unwrap()).unwrap();
        let opts = chart.scales.into_iter().find(|s| s.id == "r").unwrap();
        let text = TextEngine::system();
        let laid_out = |stopped: bool| {
            let mut core = ScaleCore::new(opts.clone(), 400.0, 300.0, 1.0);
            (core.max_width, core.max_height) = (400.0, 300.0);
            if stopped {
                core.cancel.cancel();
            }
            let mut scale = RadialLinearScale::new(chart.labels.clone());
            assert!(scale.update_custom(&mut core, &text));
            scale.items.len()
        };
        assert_eq!(laid_out(false), 200);
        assert_eq!(laid_out(true), 0);
    }
}
