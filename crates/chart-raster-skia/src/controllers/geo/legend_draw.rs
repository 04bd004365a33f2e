//! Drawing a chartjs-chart-geo legend (`LegendScale.draw`) from what `legend.rs` laid out:
//! the scale's layers at the legend's position, then the colour strips or the size circles.
//! The chart draws it at its scale's place in the draw order (`ticks.z`), not with a dataset.

use crate::elements::point::{draw_point, PointDraw};
use crate::elements::{Area, Ctx, StrokeStyle, P};
use crate::scales::{LaidOutScale, ScaleDrawing, ScaleLayer};
use chart_spec::model::{PointOptions, Position};
use chart_spec::Rgba;
use std::cell::RefCell;

/// A legend ready to draw: the laid-out scale, where it goes, and its indicator.
pub(super) struct GeoLegend {
    /// The scale, laid out as the legend's `update` leaves it (the draw keeps its own
    /// bookkeeping in it, hence the cell).
    pub(super) scale: RefCell<LaidOutScale>,
    /// `computeLegendPosition`: the translation of the whole legend.
    pub(super) origin: (f64, f64),
    /// The chart area the scale draws against (`{...chartArea, bottom: height + 10, right:
    /// width}`).
    pub(super) area: Area,
    /// The translation from the scale to its indicator.
    pub(super) indicator_origin: (f64, f64),
    pub(super) indicator: Indicator,
}

/// What is drawn beside the scale.
pub(super) enum Indicator {
    /// `ColorScale`: filled rectangles (x, y, width, height, colour).
    Colors(Vec<(f64, f64, f64, f64, Rgba)>),
    /// `SizeScale`: the tick marks again (as `shift` to `2 × shift` across the scale), with
    /// the grid's dash, then a circle of each tick's size at `shift` across.
    Sizes {
        shift: f64,
        dash: (Vec<f64>, f64),
        circles: Vec<(f64, f64, f64)>,
        point: Box<PointOptions>,
    },
}

impl ScaleDrawing for GeoLegend {
    /// `LegendScale.draw`: the scale at its position, then the indicator.
    fn draw(&self, ctx: &mut Ctx<'_>) {
        let mut scale = self.scale.borrow_mut();
        ctx.save();
        ctx.translate(self.origin.0, self.origin.1);
        // `Scale.draw`: grid (tick marks here), border, labels.
        for layer in [ScaleLayer::Grid, ScaleLayer::Border, ScaleLayer::Labels] {
            scale.draw_layer(layer, ctx, &self.area);
        }
        ctx.translate(self.indicator_origin.0, self.indicator_origin.1);
        match &self.indicator {
            Indicator::Colors(strips) => {
                for &(x, y, w, h, c) in strips {
                    ctx.fill_rect(x, y, w, h, c);
                }
            }
            Indicator::Sizes {
                shift,
                dash,
                circles,
                point,
            } => {
                for m in scale.tick_marks(&self.area) {
                    if !scale.core.opts.grid.draw_ticks {
                        continue;
                    }
                    let mut p = P::new();
                    match scale.core.opts.position {
                        Position::Left => {
                            p.move_to(0.0, m.from.1);
                            p.line_to(*shift, m.to.1);
                        }
                        Position::Top => {
                            p.move_to(m.from.0, 0.0);
                            p.line_to(m.to.0, *shift);
                        }
                        Position::Bottom => {
                            p.move_to(m.from.0, *shift);
                            p.line_to(m.to.0, shift * 2.0);
                        }
                        _ => {
                            p.move_to(*shift, m.from.1);
                            p.line_to(shift * 2.0, m.to.1);
                        }
                    }
                    let mut style = StrokeStyle::new(m.width, m.color);
                    style.dash = dash.0.clone();
                    style.dash_offset = dash.1;
                    ctx.stroke(&p, &style);
                }
                for &(x, y, radius) in circles {
                    let mut d = PointDraw::from_options(point);
                    d.radius = radius;
                    // `drawPoint`: nothing for a radius that is not positive.
                    if radius > 0.0 && radius.is_finite() {
                        draw_point(ctx, &d, x, y, None);
                    }
                }
            }
        }
        ctx.restore();
    }
}
