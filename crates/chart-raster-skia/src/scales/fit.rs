//! Sizing a scale's box during layout: `update(maxWidth, maxHeight, margins)` of
//! core.scale with its steps (ticks, `_computeLabelSizes`, `calculateLabelRotation`, `fit`,
//! `_calculatePadding`).

use super::autoskip::{sample, ticks_limit};
use super::{ticks, Scale, ScaleCore, Tick};
use crate::text::TextEngine;
use chart_spec::model::{Align, Axis, Position, TimeSource};
use chart_spec::values::{Font, Sides};

/// Measured label sizes (`_computeLabelSizes`).
#[derive(Debug, Clone, Default)]
pub struct LabelSizes {
    /// First label (w, h).
    pub first: (f64, f64),
    /// Last label.
    pub last: (f64, f64),
    /// Widest label.
    pub widest: (f64, f64),
    /// Highest label.
    pub highest: (f64, f64),
    /// Every measured width.
    pub widths: Vec<f64>,
    /// Every measured height.
    pub heights: Vec<f64>,
}

impl ScaleCore {
    /// `_tickSize()`.
    pub(super) fn tick_size(&mut self, text: &TextEngine) -> f64 {
        let rot = self.label_rotation.to_radians();
        let cos = libm::cos(rot).abs();
        let sin = libm::sin(rot).abs();
        let pad = self.opts.ticks.auto_skip_padding;
        let ls = self.label_sizes(text);
        let w = ls.widest.0 + pad;
        let h = ls.highest.1 + pad;
        if self.is_horizontal() {
            if h * cos > w * sin {
                w / cos
            } else {
                h / sin
            }
        } else if h * sin < w * cos {
            h / cos
        } else {
            w / sin
        }
    }

    /// The font of tick `i`.
    pub fn tick_font(&self, i: usize) -> Font {
        self.opts.ticks.font.at(i)
    }

    /// `_getLabelSizes()` (cached).
    pub fn label_sizes(&mut self, text: &TextEngine) -> std::rc::Rc<LabelSizes> {
        if let Some(ls) = &self.label_sizes {
            return ls.clone();
        }
        let ticks: Vec<Tick> = match self.opts.ticks.sample_size {
            Some(n) if (n as usize) < self.ticks.len() => sample(&self.ticks, n as usize),
            _ => self.ticks.clone(),
        };
        let ls = std::rc::Rc::new(self.compute_label_sizes(&ticks, text));
        self.label_sizes = Some(ls.clone());
        ls
    }

    fn compute_label_sizes(&self, ticks: &[Tick], text: &TextEngine) -> LabelSizes {
        let length = ticks.len();
        let limit = ticks_limit(length, self.opts.ticks.max_ticks_limit);
        let increment = length.checked_div(limit).unwrap_or(1).max(1);
        let mut widths = Vec::new();
        let mut heights = Vec::new();
        let (mut widest, mut highest) = (0.0f64, 0.0f64);
        let mut i = 0;
        while i < length {
            if widths.len() % 1024 == 1023 && self.cancelled() {
                break;
            }
            let font = self.tick_font(i);
            let (mut w, mut h) = (0.0f64, 0.0f64);
            if let Some(lines) = &ticks[i].label {
                for l in lines {
                    w = w.max(f64::from(text.measure(&font.spec, l)));
                    h += font.line_height;
                }
            }
            widths.push(w);
            heights.push(h);
            widest = widest.max(w);
            highest = highest.max(h);
            i += increment;
        }
        let at = |idx: Option<usize>| -> (f64, f64) {
            match idx {
                Some(i) => (
                    widths.get(i).copied().unwrap_or(0.0),
                    heights.get(i).copied().unwrap_or(0.0),
                ),
                None => (0.0, 0.0),
            }
        };
        let wi = widths.iter().position(|w| *w == widest);
        let hi = heights.iter().position(|h| *h == highest);
        LabelSizes {
            first: at(Some(0)),
            last: at(length.checked_sub(1)),
            widest: at(wi),
            highest: at(hi),
            widths,
            heights,
        }
    }

    fn title_height(&self, font: &Font) -> f64 {
        let t = &self.opts.title;
        if !t.display {
            return 0.0;
        }
        t.text.len() as f64 * font.line_height + t.padding.height()
    }

    pub(super) fn tick_mark_length(&self) -> f64 {
        if self.opts.grid.draw_ticks {
            self.opts.grid.tick_length
        } else {
            0.0
        }
    }
}

impl Scale {
    /// `update(maxWidth, maxHeight, margins)` of core.scale.
    pub fn update(&mut self, max_width: f64, max_height: f64, margins: Sides, text: &TextEngine) {
        let c = &mut self.core;
        c.max_width = max_width;
        c.max_height = max_height;
        c.margins = margins;
        c.ticks.clear();
        c.label_sizes = None;
        if c.cancelled() {
            return;
        }
        // `new Intl.NumberFormat(locale, ticks.format)` throws in the first label's
        // formatting, which ends the chart's update.
        if self.kind.formats_numbers() {
            if let Err(e) = ticks::check_format(&self.core.opts.ticks.format) {
                self.core.thrown = Some(e);
                return;
            }
        }
        if self.kind.update_custom(&mut self.core, text) {
            return;
        }
        let c = &mut self.core;
        // setDimensions
        if c.is_horizontal() {
            c.width = c.max_width;
            c.left = 0.0;
            c.right = c.width;
        } else {
            c.height = c.max_height;
            c.top = 0.0;
            c.bottom = c.height;
        }
        c.padding = Sides::default();
        c.max_length = if c.is_horizontal() {
            c.width + margins.left + margins.right
        } else {
            c.height + margins.top + margins.bottom
        };
        let ticks = self.kind.build_ticks(&mut self.core, text);
        // Before any per-tick work (labels, measuring, autoSkip): within MAX_TOTAL_TICKS.
        if !self.core.charge_ticks(ticks.len()) {
            return;
        }
        self.core.ticks = ticks;
        let sample_size = self.core.opts.ticks.sample_size;
        let sampling = matches!(sample_size, Some(n) if (n as usize) < self.core.ticks.len());
        // Each step below walks every tick (a category scale has one per label): a
        // cancelled render stops between them, and inside the longest.
        if self.core.cancelled() {
            return;
        }
        self.convert_ticks_to_labels();
        self.configure();
        self.calculate_label_rotation(text);
        if self.core.cancelled() {
            return;
        }
        let t = &self.core.opts.ticks;
        // `tickOpts.autoSkip || tickOpts.source === 'auto'`: a time scale's ticks.source
        // defaults to 'auto', so its labels are thinned even with autoSkip false.
        let time_source_auto =
            (self.core.opts.kind.time()).is_some_and(|o| o.source == TimeSource::Auto);
        if t.display && (t.auto_skip || time_source_auto) {
            let ticks = self.auto_skip(text);
            self.core.ticks = ticks;
            self.core.label_sizes = None;
        }
        if sampling {
            self.convert_ticks_to_labels();
        }
        if self.core.cancelled() {
            return;
        }
        self.fit(text);
    }

    fn convert_ticks_to_labels(&mut self) {
        let ticks = std::mem::take(&mut self.core.ticks);
        let mut out = Vec::with_capacity(ticks.len());
        for i in 0..ticks.len() {
            if i % 1024 == 1023 && self.core.cancelled() {
                break;
            }
            let mut t = ticks[i].clone();
            t.label = self.kind.tick_label(&self.core, i, &ticks);
            if t.label.is_some() {
                out.push(t);
            }
        }
        self.core.ticks = out;
    }

    fn calculate_label_rotation(&mut self, text: &TextEngine) {
        let num_ticks = ticks_limit(self.core.ticks.len(), self.core.opts.ticks.max_ticks_limit);
        let t = self.core.opts.ticks.clone();
        let min_rotation = t.min_rotation;
        let max_rotation = t.max_rotation;
        let mut rotation = min_rotation;
        if !self.core.visible
            || !t.display
            || min_rotation >= max_rotation
            || num_ticks <= 1
            || !self.core.is_horizontal()
        {
            self.core.label_rotation = min_rotation;
            return;
        }
        let ls = self.core.label_sizes(text);
        let max_label_width = ls.widest.0;
        let max_label_height = ls.highest.1;
        let c = &self.core;
        let max_width = (c.chart_width - max_label_width).max(0.0).min(c.max_width);
        let mut tick_width = if c.opts.offset {
            c.max_width / num_ticks as f64
        } else {
            max_width / (num_ticks as f64 - 1.0)
        };
        if max_label_width + 6.0 > tick_width {
            tick_width = max_width / (num_ticks as f64 - if c.opts.offset { 0.5 } else { 1.0 });
            let max_height = c.max_height
                - c.tick_mark_length()
                - t.padding
                - c.title_height(&c.opts.title.fit_font);
            let diag =
                (max_label_width * max_label_width + max_label_height * max_label_height).sqrt();
            let lim = |v: f64| v.clamp(-1.0, 1.0);
            let r = libm::asin(lim((ls.highest.1 + 6.0) / tick_width))
                .min(libm::asin(lim(max_height / diag)) - libm::asin(lim(max_label_height / diag)));
            rotation = r.to_degrees();
            rotation = min_rotation.max(max_rotation.min(rotation));
        }
        self.core.label_rotation = rotation;
    }

    /// `fit()`.
    fn fit(&mut self, text: &TextEngine) {
        let horizontal = self.core.is_horizontal();
        let (mut min_w, mut min_h) = (0.0, 0.0);
        if self.core.visible {
            let c = &self.core;
            let title_h = c.title_height(&c.opts.title.fit_font);
            if horizontal {
                min_w = c.max_width;
                min_h = c.tick_mark_length() + title_h;
            } else {
                min_h = c.max_height;
                min_w = c.tick_mark_length() + title_h;
            }
            if c.opts.ticks.display && !c.ticks.is_empty() {
                let ls = self.core.label_sizes(text);
                let c = &self.core;
                let tick_padding = c.opts.ticks.padding * 2.0;
                let ang = c.label_rotation.to_radians();
                let cos = libm::cos(ang);
                let sin = libm::sin(ang);
                if horizontal {
                    let lh = if c.opts.ticks.mirror {
                        0.0
                    } else {
                        sin * ls.widest.0 + cos * ls.highest.1
                    };
                    min_h = c.max_height.min(min_h + lh + tick_padding);
                } else {
                    let lw = if c.opts.ticks.mirror {
                        0.0
                    } else {
                        cos * ls.widest.0 + sin * ls.highest.1
                    };
                    min_w = c.max_width.min(min_w + lw + tick_padding);
                }
                self.calculate_padding(&ls, sin, cos);
            }
        }
        let c = &mut self.core;
        // _handleMargins
        let (m, p) = (&mut c.margins, c.padding);
        m.left = p.left.max(m.left);
        m.top = p.top.max(m.top);
        m.right = p.right.max(m.right);
        m.bottom = p.bottom.max(m.bottom);
        if horizontal {
            c.width = c.chart_width - c.margins.left - c.margins.right;
            c.length = c.width;
            c.height = min_h;
        } else {
            c.width = min_w;
            c.height = c.chart_height - c.margins.top - c.margins.bottom;
            c.length = c.height;
        }
    }

    fn calculate_padding(&mut self, ls: &LabelSizes, sin: f64, cos: f64) {
        let c = &self.core;
        let align = c.opts.ticks.align;
        let padding = c.opts.ticks.padding;
        let rotated = c.label_rotation != 0.0;
        let below = c.opts.position != Position::Top && c.opts.axis == Axis::X;
        if c.is_horizontal() {
            let off_l = self.pixel_for_tick(0) - c.left;
            let off_r = c.right - self.pixel_for_tick(c.ticks.len().saturating_sub(1));
            let (mut pl, mut pr) = (0.0, 0.0);
            if rotated {
                if below {
                    pl = cos * ls.first.0;
                    pr = sin * ls.last.1;
                } else {
                    pl = sin * ls.first.1;
                    pr = cos * ls.last.0;
                }
            } else if align == Align::Start {
                pr = ls.last.0;
            } else if align == Align::End {
                pl = ls.first.0;
            } else if align != Align::Inner {
                pl = ls.first.0 / 2.0;
                pr = ls.last.0 / 2.0;
            }
            let w = c.width;
            let left = ((pl - off_l + padding) * w / (w - off_l)).max(0.0);
            let right = ((pr - off_r + padding) * w / (w - off_r)).max(0.0);
            let left = if left.is_nan() { 0.0 } else { left };
            let right = if right.is_nan() { 0.0 } else { right };
            self.core.padding.left = left;
            self.core.padding.right = right;
        } else {
            let (mut pt, mut pb) = (ls.last.1 / 2.0, ls.first.1 / 2.0);
            if align == Align::Start {
                pt = 0.0;
                pb = ls.first.1;
            } else if align == Align::End {
                pt = ls.last.1;
                pb = 0.0;
            }
            self.core.padding.top = pt + padding;
            self.core.padding.bottom = pb + padding;
        }
    }
}
