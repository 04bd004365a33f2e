//! Drawing a laid-out scale (`Scale.draw` of core.scale): grid lines
//! (`_computeGridLineItems`), border, title and tick labels (`_computeLabelItems`), one
//! [`ScaleLayer`] at a time.

use super::radial_linear::RadialDrawing;
use super::{ScaleCore, ScaleLayer};
use crate::elements::{align_pixel, render_text, Area, Ctx, StrokeStyle, TextOpts, P};
use crate::scene::{TextAlign, TextBaseline};
use crate::text::TextEngine;
use chart_spec::model::{Align, Axis, CrossAlign, Position};
use chart_spec::values::Font;
use std::f64::consts::FRAC_PI_2;

/// A scale that draws itself instead of `Scale.draw` (chartjs-chart-geo's legend scales
/// override `draw`), from what its update laid out. Chart.js's `_layers` gives such a scale
/// one layer, at `ticks.z`, whether or not it is visible.
pub trait ScaleDrawing {
    /// The scale's `draw(chartArea)`.
    fn draw(&self, ctx: &mut Ctx<'_>);
}

/// A [`ScaleDrawing`] in the chart's draw order: the scale's index and its one layer's z.
pub struct OwnDrawing {
    /// The scale's index in the chart's scales.
    pub scale: usize,
    /// `ticks.z`.
    pub z: f64,
    /// What it draws.
    pub drawing: Box<dyn ScaleDrawing>,
}

/// A scale as the drawing reads it once the update is done: its state, the pixel of each
/// tick, the pixel of its `position: {id: value}` on the other scale, and a radial scale's
/// own drawing. Built by [`super::Scale::laid_out`]; nothing here calls back into the
/// scale's type, and the drawing's own bookkeeping (`_borderValue`, the label sizes cache)
/// changes this copy only.
pub struct LaidOutScale {
    /// The scale's state after layout and `configure()`.
    pub core: ScaleCore,
    /// `getPixelForTick(i)` of every tick.
    tick_pixels: Vec<f64>,
    /// The pixel of a `position: {id: value}` (`None`: another position, or no scale `id`).
    position_pixel: Option<f64>,
    /// The drawing of a radial linear scale, which replaces the shared one.
    radial: Option<RadialDrawing>,
    /// The tick labels are clipped to the label area (`_computeLabelArea`).
    clip_labels: bool,
}

impl LaidOutScale {
    /// The drawing's view of a scale.
    pub fn new(
        core: ScaleCore,
        tick_pixels: Vec<f64>,
        position_pixel: Option<f64>,
        radial: Option<RadialDrawing>,
    ) -> Self {
        Self {
            core,
            tick_pixels,
            position_pixel,
            radial,
            clip_labels: true,
        }
    }

    /// The same scale with its tick labels drawn unclipped: chartjs-chart-geo's legend
    /// scales override `_computeLabelArea` to return nothing.
    pub fn with_unclipped_labels(mut self) -> Self {
        self.clip_labels = false;
        self
    }

    /// A radial linear scale's `(xCenter, yCenter)` (`None`: not a radial scale).
    pub fn radial_center(&self) -> Option<(f64, f64)> {
        self.radial.as_ref().map(RadialDrawing::center)
    }

    /// `getPixelForTick(index)`, as the update left it (NaN past the last tick).
    fn pixel_for_tick(&self, index: usize) -> f64 {
        self.tick_pixels.get(index).copied().unwrap_or(f64::NAN)
    }

    fn title_args(&self, offset: f64, area: &Area) -> (f64, f64, Option<f64>, f64) {
        let c = &self.core;
        let (top, left, bottom, right) = (c.top, c.left, c.bottom, c.right);
        let align = c.opts.title.align;
        let (height, width) = (bottom - top, right - left);
        let align_se = |a: Align, s: f64, e: f64| match a {
            Align::Start => s,
            Align::End => e,
            _ => (s + e) / 2.0,
        };
        if c.is_horizontal() {
            let x = align_se(align, left, right);
            let y = match &c.opts.position {
                // The title of a `{id: value}` scale sits as though `chart.scales[id]` were
                // missing (pixel 0), where Chart.js puts it at that scale's pixel: kept as
                // the engine has always drawn it (a known difference, images unchanged).
                Position::AtValue(..) => height - offset,
                Position::Center => (area.bottom + area.top) / 2.0 + height - offset,
                Position::Top => top + offset,
                Position::Left => left + offset,
                Position::Right => right - offset,
                _ => bottom - offset,
            };
            (x, y, Some(right - left), 0.0)
        } else {
            let x = match &c.opts.position {
                Position::AtValue(..) => -width + offset,
                Position::Center => (area.left + area.right) / 2.0 - width + offset,
                Position::Top => top + offset,
                Position::Left => left + offset,
                Position::Right => right - offset,
                _ => bottom - offset,
            };
            let y = align_se(align, bottom, top);
            let rot = if c.opts.position == Position::Left {
                -FRAC_PI_2
            } else {
                FRAC_PI_2
            };
            (x, y, None, rot)
        }
    }

    /// Grid line items (`_computeGridLineItems`).
    fn grid_items(&mut self, area: &Area) -> Vec<GridItem> {
        let dpr = self.core.dpr;
        let c = &self.core;
        let grid = &c.opts.grid;
        let offset = grid.offset;
        let horizontal = c.is_horizontal();
        let ticks_length = c.ticks.len() + usize::from(offset);
        let tl = c.tick_mark_length();
        let axis_width = if c.opts.border.display {
            c.opts.border.width
        } else {
            0.0
        };
        let ahw = axis_width / 2.0;
        let abv = |p: f64| align_pixel(dpr, p, axis_width);
        let (mut border_value, mut tx1, mut ty1, mut tx2, mut ty2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut x1, mut y1, mut x2, mut y2) = (0.0, 0.0, 0.0, 0.0);
        match &c.opts.position {
            Position::Top => {
                border_value = abv(c.bottom);
                ty1 = c.bottom - tl;
                ty2 = border_value - ahw;
                y1 = abv(area.top) + ahw;
                y2 = area.bottom;
            }
            Position::Bottom => {
                border_value = abv(c.top);
                y1 = area.top;
                y2 = abv(area.bottom) - ahw;
                ty1 = border_value + ahw;
                ty2 = c.top + tl;
            }
            Position::Left => {
                border_value = abv(c.right);
                tx1 = c.right - tl;
                tx2 = border_value - ahw;
                x1 = abv(area.left) + ahw;
                x2 = area.right;
            }
            Position::Right => {
                border_value = abv(c.left);
                x1 = area.left;
                x2 = abv(area.right) - ahw;
                tx1 = border_value + ahw;
                tx2 = c.left + tl;
            }
            pos => {
                if c.opts.axis == Axis::X {
                    match pos {
                        Position::Center => {
                            border_value = abv((area.top + area.bottom) / 2.0 + 0.5)
                        }
                        Position::AtValue(..) => {
                            border_value = abv(self.position_pixel.unwrap_or(f64::NAN))
                        }
                        _ => {}
                    }
                    y1 = area.top;
                    y2 = area.bottom;
                    ty1 = border_value + ahw;
                    ty2 = ty1 + tl;
                } else {
                    match pos {
                        Position::Center => border_value = abv((area.left + area.right) / 2.0),
                        Position::AtValue(..) => {
                            border_value = abv(self.position_pixel.unwrap_or(f64::NAN))
                        }
                        _ => {}
                    }
                    tx1 = border_value - ahw;
                    tx2 = tx1 - tl;
                    x1 = area.left;
                    x2 = area.right;
                }
            }
        }
        let limit = c
            .opts
            .ticks
            .max_ticks_limit
            .map(|m| m as usize)
            .unwrap_or(ticks_length)
            .max(1);
        let step = ((ticks_length as f64 / limit as f64).ceil() as usize).max(1);
        let mut items = Vec::new();
        let mut i = 0;
        while i < ticks_length {
            let lw = grid.line_width.at(i);
            let Some(line_value) = self.pixel_for_grid_line(i, offset) else {
                i += step;
                continue;
            };
            let aligned = align_pixel(dpr, line_value, lw);
            let (mut it_tx1, mut it_tx2, mut it_ty1, mut it_ty2) = (tx1, tx2, ty1, ty2);
            let (mut ix1, mut ix2, mut iy1, mut iy2) = (x1, x2, y1, y2);
            if horizontal {
                it_tx1 = aligned;
                it_tx2 = aligned;
                ix1 = aligned;
                ix2 = aligned;
            } else {
                it_ty1 = aligned;
                it_ty2 = aligned;
                iy1 = aligned;
                iy2 = aligned;
            }
            items.push(GridItem {
                tx1: it_tx1,
                ty1: it_ty1,
                tx2: it_tx2,
                ty2: it_ty2,
                x1: ix1,
                y1: iy1,
                x2: ix2,
                y2: iy2,
                width: lw,
                color: grid.color.at(i),
                tick_width: grid.tick_width.at(i),
                tick_color: grid.tick_color.at(i),
            });
            i += step;
        }
        self.core.border_value = border_value;
        items
    }

    /// `getPixelForGridLine`.
    fn pixel_for_grid_line(&self, index: usize, offset_grid: bool) -> Option<f64> {
        let length = self.core.ticks.len();
        if length == 0 {
            return None;
        }
        let valid = index.min(length - 1);
        let start = self.core.start_pixel;
        let end = self.core.end_pixel;
        let eps = 1e-6;
        let mut lv = self.pixel_for_tick(valid);
        if offset_grid {
            let off = if length == 1 {
                (lv - start).max(end - lv)
            } else if index == 0 {
                (self.pixel_for_tick(1) - lv) / 2.0
            } else {
                (lv - self.pixel_for_tick(valid - 1)) / 2.0
            };
            lv += if valid < index { off } else { -off };
            if lv < start - eps || lv > end + eps {
                return None;
            }
        }
        Some(lv)
    }

    /// `_getXAxisLabelAlignment`.
    fn x_label_align(&self) -> Option<TextAlign> {
        let c = &self.core;
        if c.label_rotation != 0.0 {
            return Some(if c.opts.position == Position::Top {
                TextAlign::Left
            } else {
                TextAlign::Right
            });
        }
        match c.opts.ticks.align {
            Align::Start => Some(TextAlign::Left),
            Align::End => Some(TextAlign::Right),
            Align::Inner => None,
            Align::Center => Some(TextAlign::Center),
        }
    }

    /// `_getYAxisLabelAlignment(tl)`.
    fn y_label_align(&mut self, tl: f64, text: &TextEngine) -> (TextAlign, f64) {
        let widest = self.core.label_sizes(text).widest.0;
        let c = &self.core;
        let t = &c.opts.ticks;
        let tp = tl + t.padding;
        match c.opts.position {
            Position::Left => {
                if t.mirror {
                    let x = c.right + t.padding;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Left, x),
                        CrossAlign::Center => (TextAlign::Center, x + widest / 2.0),
                        CrossAlign::Far => (TextAlign::Right, x + widest),
                    }
                } else {
                    let x = c.right - tp;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Right, x),
                        CrossAlign::Center => (TextAlign::Center, x - widest / 2.0),
                        CrossAlign::Far => (TextAlign::Left, c.left),
                    }
                }
            }
            Position::Right => {
                if t.mirror {
                    let x = c.left + t.padding;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Right, x),
                        CrossAlign::Center => (TextAlign::Center, x - widest / 2.0),
                        CrossAlign::Far => (TextAlign::Left, x - widest),
                    }
                } else {
                    let x = c.left + tp;
                    match t.cross_align {
                        CrossAlign::Near => (TextAlign::Left, x),
                        CrossAlign::Center => (TextAlign::Center, x + widest / 2.0),
                        CrossAlign::Far => (TextAlign::Right, c.right),
                    }
                }
            }
            _ => (TextAlign::Right, f64::NAN),
        }
    }

    /// `_computeLabelItems`.
    fn label_items(&mut self, area: &Area, text: &TextEngine) -> Vec<LabelItem> {
        let tl = self.core.tick_mark_length();
        let ls = self.core.label_sizes(text);
        let c = self.core.clone();
        let t = &c.opts.ticks;
        let axis = c.opts.axis;
        let horizontal = c.is_horizontal();
        let tick_and_padding = tl + t.padding;
        let h_tick_and_padding = if t.mirror {
            -t.padding
        } else {
            tick_and_padding
        };
        let rotation = -c.label_rotation.to_radians();
        let mut baseline = TextBaseline::Middle;
        let (mut x, mut y) = (0.0, 0.0);
        let text_align: Option<TextAlign>;
        match &c.opts.position {
            Position::Top => {
                y = c.bottom - h_tick_and_padding;
                text_align = self.x_label_align();
            }
            Position::Bottom => {
                y = c.top + h_tick_and_padding;
                text_align = self.x_label_align();
            }
            Position::Left | Position::Right => {
                let (a, xx) = self.y_label_align(tl, text);
                text_align = Some(a);
                x = xx;
            }
            pos => {
                if axis == Axis::X {
                    match pos {
                        Position::Center => y = (area.top + area.bottom) / 2.0 + tick_and_padding,
                        Position::AtValue(..) => {
                            y = self.position_pixel.unwrap_or(f64::NAN) + tick_and_padding
                        }
                        _ => {}
                    }
                    text_align = self.x_label_align();
                } else {
                    match pos {
                        Position::Center => x = (area.left + area.right) / 2.0 - tick_and_padding,
                        Position::AtValue(..) => x = self.position_pixel.unwrap_or(f64::NAN),
                        _ => {}
                    }
                    text_align = Some(self.y_label_align(tl, text).0);
                }
            }
        }
        if axis == Axis::Y {
            if t.align == Align::Start {
                baseline = TextBaseline::Top;
            } else if t.align == Align::End {
                baseline = TextBaseline::Bottom;
            }
        }
        let n = c.ticks.len();
        let mut items = Vec::new();
        for i in 0..n {
            let lines = c.ticks[i].label.clone().unwrap_or_default();
            let pixel = self.pixel_for_tick(i) + t.label_offset;
            let font = c.tick_font(i);
            let lh = font.line_height;
            let line_count = lines.len().max(1) as f64;
            let half = line_count / 2.0;
            let mut align = text_align.unwrap_or(TextAlign::Center);
            let text_offset;
            if horizontal {
                x = pixel;
                if text_align.is_none() {
                    align = if i == n - 1 {
                        if !c.opts.reverse {
                            TextAlign::Right
                        } else {
                            TextAlign::Left
                        }
                    } else if i == 0 {
                        if !c.opts.reverse {
                            TextAlign::Left
                        } else {
                            TextAlign::Right
                        }
                    } else {
                        TextAlign::Center
                    };
                }
                let mut off = if c.opts.position == Position::Top {
                    if t.cross_align == CrossAlign::Near || rotation != 0.0 {
                        -line_count * lh + lh / 2.0
                    } else if t.cross_align == CrossAlign::Center {
                        -ls.highest.1 / 2.0 - half * lh + lh
                    } else {
                        -ls.highest.1 + lh / 2.0
                    }
                } else if t.cross_align == CrossAlign::Near || rotation != 0.0 {
                    lh / 2.0
                } else if t.cross_align == CrossAlign::Center {
                    ls.highest.1 / 2.0 - half * lh
                } else {
                    ls.highest.1 - line_count * lh
                };
                if t.mirror {
                    off = -off;
                }
                text_offset = off;
                if rotation != 0.0 && !t.show_label_backdrop {
                    x += lh / 2.0 * libm::sin(rotation);
                }
            } else {
                y = pixel;
                text_offset = (1.0 - line_count) * lh / 2.0;
            }
            let backdrop = if t.show_label_backdrop {
                let p = t.backdrop_padding;
                let height = ls.heights.get(i).copied().unwrap_or(0.0);
                let width = ls.widths.get(i).copied().unwrap_or(0.0);
                let mut top = text_offset - p.top;
                let mut left = -p.left;
                match baseline {
                    TextBaseline::Middle => top -= height / 2.0,
                    TextBaseline::Bottom => top -= height,
                    _ => {}
                }
                match text_align {
                    Some(TextAlign::Center) => left -= width / 2.0,
                    Some(TextAlign::Right) => left -= width,
                    None => {
                        if i == n - 1 {
                            left -= width;
                        } else if i > 0 {
                            left -= width / 2.0;
                        }
                    }
                    _ => {}
                }
                Some((
                    left,
                    top,
                    width + p.width(),
                    height + p.height(),
                    t.backdrop_color,
                ))
            } else {
                None
            };
            items.push(LabelItem {
                lines,
                font,
                text_offset,
                rotation,
                color: t.color.at(i),
                stroke: match t.text_stroke_color {
                    Some(sc) if t.text_stroke_width > 0.0 => Some((t.text_stroke_width, sc)),
                    _ => None,
                },
                align,
                baseline,
                x,
                y,
                backdrop,
            });
        }
        items
    }

    /// The tick marks of `_gridLineItems` over `area` (`tx1, ty1, tx2, ty2`) with their grid
    /// line's width and colour: chartjs-chart-geo's size legend strokes them again beside its
    /// circles.
    pub fn tick_marks(&mut self, area: &Area) -> Vec<TickMark> {
        (self.grid_items(area).into_iter())
            .map(|it| TickMark {
                from: (it.tx1, it.ty1),
                to: (it.tx2, it.ty2),
                width: it.width,
                color: it.color,
            })
            .collect()
    }

    /// The draw layers of the scale: `(z, part)`; see `_layers()`.
    pub fn layers(&self) -> Vec<(f64, ScaleLayer)> {
        let o = &self.core.opts;
        vec![
            (o.grid.z, ScaleLayer::Grid),
            (o.border.z, ScaleLayer::Border),
            (o.ticks.z, ScaleLayer::Labels),
        ]
    }

    /// Draws one layer of the scale.
    pub fn draw_layer(&mut self, layer: ScaleLayer, ctx: &mut Ctx<'_>, area: &Area) {
        if !self.core.visible {
            return;
        }
        if let Some(r) = &self.radial {
            r.draw(&self.core, layer, ctx);
            return;
        }
        match layer {
            ScaleLayer::Grid => {
                if let Some(bg) = self.core.opts.background_color {
                    let c = &self.core;
                    ctx.fill_rect(c.left, c.top, c.width, c.height, bg);
                }
                let items = self.grid_items(area);
                let grid = self.core.opts.grid.clone();
                let border_dash = self.core.opts.border.dash.clone();
                let border_dash_offset = self.core.opts.border.dash_offset;
                if grid.display {
                    for it in &items {
                        if grid.draw_on_chart_area {
                            line(
                                ctx,
                                it.x1,
                                it.y1,
                                it.x2,
                                it.y2,
                                it.width,
                                it.color,
                                // Grid lines take `border.dash` (`_computeGridLineItems`).
                                &border_dash,
                                border_dash_offset,
                            );
                        }
                        if grid.draw_ticks {
                            line(
                                ctx,
                                it.tx1,
                                it.ty1,
                                it.tx2,
                                it.ty2,
                                it.tick_width,
                                it.tick_color,
                                &grid.tick_border_dash,
                                grid.tick_border_dash_offset,
                            );
                        }
                    }
                }
                self.draw_title(ctx, area);
            }
            ScaleLayer::Border => {
                // The border value is computed with the grid items.
                let _ = self.grid_items(area);
                self.draw_border(ctx);
            }
            ScaleLayer::Labels => self.draw_labels(ctx, area),
        }
    }

    fn draw_border(&mut self, ctx: &mut Ctx<'_>) {
        let c = &self.core;
        let b = &c.opts.border;
        let axis_width = if b.display { b.width } else { 0.0 };
        if axis_width == 0.0 {
            return;
        }
        let last_lw = c.opts.grid.line_width.at(0);
        let bv = c.border_value;
        let (x1, x2, y1, y2);
        if c.is_horizontal() {
            x1 = align_pixel(c.dpr, c.left, axis_width) - axis_width / 2.0;
            x2 = align_pixel(c.dpr, c.right, last_lw) + last_lw / 2.0;
            y1 = bv;
            y2 = bv;
        } else {
            y1 = align_pixel(c.dpr, c.top, axis_width) - axis_width / 2.0;
            y2 = align_pixel(c.dpr, c.bottom, last_lw) + last_lw / 2.0;
            x1 = bv;
            x2 = bv;
        }
        // drawBorder does not set the dash (border.dash is used by grid lines in 4.x? no:
        // the stroke uses the context's default solid line).
        line(ctx, x1, y1, x2, y2, b.width, b.color, &[], 0.0);
    }

    fn draw_title(&self, ctx: &mut Ctx<'_>, area: &Area) {
        let c = &self.core;
        let t = &c.opts.title;
        if !t.display {
            return;
        }
        let font = &t.font;
        let mut offset = font.line_height / 2.0;
        let pos = &c.opts.position;
        if matches!(
            pos,
            Position::Bottom | Position::Center | Position::AtValue(..)
        ) {
            offset += t.padding.bottom;
            if t.text.len() > 1 {
                offset += font.line_height * (t.text.len() as f64 - 1.0);
            }
        } else {
            offset += t.padding.top;
        }
        let (tx, ty, max_w, rot) = self.title_args(offset, area);
        // titleAlign(align, position, reverse)
        let mut a = match t.align {
            Align::Start => TextAlign::Left,
            Align::End => TextAlign::Right,
            _ => TextAlign::Center,
        };
        let reverse = c.opts.reverse;
        if (reverse && *pos != Position::Right) || (!reverse && *pos == Position::Right) {
            a = match a {
                TextAlign::Left => TextAlign::Right,
                TextAlign::Right => TextAlign::Left,
                x => x,
            };
        }
        let mut o = TextOpts::new(t.color);
        o.translation = Some((tx, ty));
        o.max_width = max_w;
        o.rotation = rot;
        o.align = a;
        o.baseline = TextBaseline::Middle;
        render_text(ctx, &t.text, 0.0, 0.0, font, &o);
    }

    fn draw_labels(&mut self, ctx: &mut Ctx<'_>, area: &Area) {
        if !self.core.opts.ticks.display {
            return;
        }
        // _computeLabelArea
        let c = &self.core;
        let clip = if c.opts.ticks.mirror || !self.clip_labels {
            None
        } else {
            match c.opts.position {
                Position::Left | Position::Right => Some(Area {
                    left: c.left,
                    top: 0.0,
                    right: c.right,
                    bottom: c.chart_height,
                }),
                Position::Top | Position::Bottom => Some(Area {
                    left: 0.0,
                    top: c.top,
                    right: c.chart_width,
                    bottom: c.bottom,
                }),
                _ => None,
            }
        };
        if let Some(a) = clip {
            ctx.clip_area(a);
        }
        let items = self.label_items(area, ctx.text);
        for it in items {
            let mut o = TextOpts::new(it.color);
            o.translation = Some((it.x, it.y));
            o.rotation = it.rotation;
            o.align = it.align;
            o.baseline = it.baseline;
            o.stroke = it.stroke;
            o.backdrop = it.backdrop;
            render_text(ctx, &it.lines, 0.0, it.text_offset, &it.font, &o);
        }
        if clip.is_some() {
            ctx.unclip_area();
        }
    }
}

/// A tick mark of a scale's grid, with the width and colour of its grid line.
#[derive(Debug, Clone, PartialEq)]
pub struct TickMark {
    /// `(tx1, ty1)`.
    pub from: (f64, f64),
    /// `(tx2, ty2)`.
    pub to: (f64, f64),
    /// The grid line's `lineWidth`.
    pub width: f64,
    /// The grid line's `color`.
    pub color: chart_spec::Rgba,
}

#[derive(Debug, Clone)]
struct GridItem {
    tx1: f64,
    ty1: f64,
    tx2: f64,
    ty2: f64,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    width: f64,
    color: chart_spec::Rgba,
    tick_width: f64,
    tick_color: chart_spec::Rgba,
}

#[derive(Debug, Clone)]
struct LabelItem {
    lines: Vec<String>,
    font: Font,
    text_offset: f64,
    rotation: f64,
    color: chart_spec::Rgba,
    stroke: Option<(f64, chart_spec::Rgba)>,
    align: TextAlign,
    baseline: TextBaseline,
    x: f64,
    y: f64,
    backdrop: Option<(f64, f64, f64, f64, chart_spec::Rgba)>,
}

#[allow(clippy::too_many_arguments)]
fn line(
    ctx: &mut Ctx<'_>,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    width: f64,
    color: chart_spec::Rgba,
    dash: &[f64],
    dash_offset: f64,
) {
    if width == 0.0 || color.is_transparent() {
        return;
    }
    ctx.save();
    let mut p = P::new();
    p.move_to(x1, y1);
    p.line_to(x2, y2);
    let mut s = StrokeStyle::new(width, color);
    s.dash = dash.to_vec();
    s.dash_offset = dash_offset;
    ctx.stroke(&p, &s);
    ctx.restore();
}
