//! The legend plugin (plugin.legend): items from the datasets, rows/columns fitting, drawing.

use crate::controllers::LegendStyle;
use crate::elements::bar::add_rounded_rect_path;
use crate::elements::point::{draw_point, PointDraw};
use crate::elements::{render_text, Ctx, StrokeStyle, TextOpts, P};
use crate::layout::{BoxPos, BoxRect, LayoutBox};
use crate::plugins::{align_se, edge_box_pos, text_align};
use crate::scene::{TextAlign, TextBaseline};
use crate::text::TextEngine;
use chart_spec::model::{Align, BarRadius, LegendOptions, PointStyle, Position};
use chart_spec::values::Sides;
use chart_spec::Cancel;

/// One legend item (`generateLabels` output).
#[derive(Debug, Clone)]
pub struct LegendItem {
    /// The label as `String(text)` (an array label joined with commas, which is what
    /// Chart.js's `measureText(legendItem.text)` measures in `_fitRows` and `draw`).
    pub text: Option<String>,
    /// The lines of an array label (`typeof legendItem.text !== 'string'`): drawn one per
    /// line by `renderText`; a vertical legend sizes the item by `calculateItemSize`.
    pub lines: Option<Vec<String>>,
    /// Dataset hidden.
    pub hidden: bool,
    /// Box style.
    pub style: LegendStyle,
    /// `index`: the data index of an item of a doughnut, pie or polarArea legend (one item
    /// per label); `None` for a dataset's item.
    pub data_index: Option<usize>,
}

/// The `Legend` element.
pub struct LegendBox {
    /// Options.
    pub opts: LegendOptions,
    /// Items (already reversed when `reverse`).
    pub items: Vec<LegendItem>,
    rect: BoxRect,
    max_width: f64,
    max_height: f64,
    line_widths: Vec<f64>,
    column_sizes: Vec<(f64, f64)>,
    /// Polled per item while fitting: each item's text is shaped, and a legend of 1,000
    /// labels of 9,000 combining marks took 7 s with nothing polled.
    cancel: Cancel,
}

impl LegendBox {
    /// Where the layout placed the box.
    pub fn rect(&self) -> crate::layout::BoxRect {
        self.rect
    }

    /// A legend over items.
    pub fn new(opts: LegendOptions, mut items: Vec<LegendItem>, cancel: Cancel) -> Self {
        if opts.reverse {
            items.reverse();
        }
        Self {
            opts,
            items,
            rect: BoxRect::default(),
            max_width: 0.0,
            max_height: 0.0,
            line_widths: vec![0.0],
            column_sizes: Vec::new(),
            cancel,
        }
    }

    /// `getBoxSize`: (boxWidth, boxHeight, itemHeight).
    fn box_size(&self) -> (f64, f64, f64) {
        let l = &self.opts.labels;
        let fs = l.font.size;
        let mut bh = l.box_height.unwrap_or(fs);
        let mut bw = l.box_width;
        if l.use_point_style {
            bh = bh.min(fs);
            bw = l
                .point_style_width
                .filter(|w| *w != 0.0)
                .unwrap_or(bw.min(fs));
        }
        (bw, bh, fs.max(bh))
    }

    fn title_height(&self) -> f64 {
        let t = &self.opts.title;
        if t.display {
            t.font.line_height + t.padding.height()
        } else {
            0.0
        }
    }

    /// The label as a canvas receives it: a dataset without `label` passes `undefined`.
    fn text_of(item: &LegendItem, text: &TextEngine) -> String {
        match &item.text {
            Some(t) => t.clone(),
            None => text.undefined_text().to_string(),
        }
    }

    /// `calculateItemWidth` of a vertical legend: an array label is measured by its line
    /// with the most UTF-16 units (`reduce((a, b) => a.length > b.length ? a : b)`, ties go
    /// to the later line), not by its widest line.
    fn item_width_cols(
        item: &LegendItem,
        text: &TextEngine,
        font: &chart_spec::values::Font,
        bw: f64,
    ) -> f64 {
        let measured = match item.lines.as_deref() {
            Some([first, rest @ ..]) => rest
                .iter()
                .fold(first, |a, b| {
                    if a.encode_utf16().count() > b.encode_utf16().count() {
                        a
                    } else {
                        b
                    }
                })
                .clone(),
            _ => Self::text_of(item, text),
        };
        bw + font.size / 2.0 + f64::from(text.measure(&font.spec, &measured))
    }

    /// `calculateItemHeight`: an array label is `lineHeight * lines`, a missing label 0.
    fn item_height_cols(item: &LegendItem, ih: f64, line_height: f64) -> f64 {
        match (&item.lines, &item.text) {
            (Some(lines), _) => line_height * lines.len() as f64,
            (None, Some(_)) => ih,
            (None, None) => 0.0,
        }
    }

    fn fit(&mut self, text: &TextEngine) {
        if !self.opts.display {
            self.rect.width = 0.0;
            self.rect.height = 0.0;
            return;
        }
        let font = self.opts.labels.font.clone();
        let fs = font.size;
        let th = self.title_height();
        let (bw, _bh, ih) = self.box_size();
        let pad = self.opts.labels.padding;
        let (w, h);
        if self.is_horizontal() {
            w = self.max_width;
            // _fitRows
            self.line_widths = vec![0.0];
            let lh = ih + pad;
            let mut total = th;
            for (i, it) in self.items.iter().enumerate() {
                if self.cancel.is_cancelled() {
                    break;
                }
                let iw =
                    bw + fs / 2.0 + f64::from(text.measure(&font.spec, &Self::text_of(it, text)));
                let last = *self.line_widths.last().unwrap_or(&0.0);
                if i == 0 || last + iw + 2.0 * pad > self.max_width {
                    total += lh;
                    let n = self.line_widths.len();
                    let k = if i > 0 { n } else { n - 1 };
                    if k == n {
                        self.line_widths.push(0.0);
                    } else {
                        self.line_widths[k] = 0.0;
                    }
                }
                if let Some(l) = self.line_widths.last_mut() {
                    *l += iw + pad;
                }
            }
            h = total + 10.0;
        } else {
            h = self.max_height;
            // _fitCols
            self.column_sizes.clear();
            let limit = self.max_height - th;
            let mut total_w = pad;
            let (mut cw, mut ch) = (0.0f64, 0.0f64);
            for (i, it) in self.items.iter().enumerate() {
                if self.cancel.is_cancelled() {
                    break;
                }
                let iw = Self::item_width_cols(it, text, &font, bw);
                let iht = Self::item_height_cols(it, ih, font.line_height);
                if i > 0 && ch + iht + 2.0 * pad > limit {
                    total_w += cw + pad;
                    self.column_sizes.push((cw, ch));
                    cw = 0.0;
                    ch = 0.0;
                }
                cw = cw.max(iw);
                ch += iht + pad;
            }
            total_w += cw;
            self.column_sizes.push((cw, ch));
            w = total_w + 10.0;
        }
        self.rect.width = w.min(
            self.opts
                .max_width
                .filter(|m| *m != 0.0)
                .unwrap_or(self.max_width),
        );
        self.rect.height = h.min(
            self.opts
                .max_height
                .filter(|m| *m != 0.0)
                .unwrap_or(self.max_height),
        );
    }

    /// `Legend.draw()`.
    pub fn draw(&self, ctx: &mut Ctx<'_>) {
        if !self.opts.display {
            return;
        }
        ctx.clip_area(self.rect.area);
        self.draw_inner(ctx);
        ctx.unclip_area();
    }

    fn draw_inner(&self, ctx: &mut Ctx<'_>) {
        let lo = &self.opts.labels;
        let font = lo.font.clone();
        let pad = lo.padding;
        let fs = font.size;
        let half = fs / 2.0;
        self.draw_title(ctx);
        let (bw, bh, ih) = self.box_size();
        let horizontal = self.is_horizontal();
        let th = self.title_height();
        let align = self.opts.align;
        let (mut cx, mut cy) = if horizontal {
            (
                align_se(
                    align,
                    self.rect.area.left + pad,
                    self.rect.area.right - self.line_widths[0],
                ),
                self.rect.area.top + pad + th,
            )
        } else {
            (
                self.rect.area.left + pad,
                align_se(
                    align,
                    self.rect.area.top + th + pad,
                    self.rect.area.bottom - self.column_sizes.first().map(|c| c.1).unwrap_or(0.0),
                ),
            )
        };
        // `overrideTextDirection(ctx, opts.textDirection)` sets the canvas's CSS direction;
        // `restoreTextDirection(ctx, opts.textDirection)` is handed the option string, not
        // the saved style, so it sets nothing valid back: whatever is drawn after the items
        // (subtitle, title, scales, datasets, plugins' labels) keeps this direction.
        if let Some(d) = self.opts.text_direction {
            ctx.set_direction(d);
        }
        let mut line = 0usize;
        let lh = ih + pad;
        for (i, it) in self.items.iter().enumerate() {
            if ctx.stopped() {
                break;
            }
            let txt = Self::text_of(it, ctx.text);
            let tw = ctx.measure(&font, &txt);
            let width = bw + half + tw;
            let mut x = cx;
            let mut y = cy;
            if horizontal {
                if i > 0 && x + width + pad > self.rect.area.right {
                    cy += lh;
                    y = cy;
                    line += 1;
                    cx = align_se(
                        align,
                        self.rect.area.left + pad,
                        self.rect.area.right - self.line_widths.get(line).copied().unwrap_or(0.0),
                    );
                    x = cx;
                }
            } else if i > 0 && y + lh > self.rect.area.bottom {
                cx = x + self.column_sizes.get(line).map(|c| c.0).unwrap_or(0.0) + pad;
                x = cx;
                line += 1;
                cy = align_se(
                    align,
                    self.rect.area.top + th + pad,
                    self.rect.area.bottom - self.column_sizes.get(line).map(|c| c.1).unwrap_or(0.0),
                );
                y = cy;
            }
            // getRtlAdapter(rtl, this.left, this.width)
            let rtl = self.opts.rtl;
            let rx = |v: f64| {
                if rtl {
                    self.rect.area.left + self.rect.area.left + self.rect.width - v
                } else {
                    v
                }
            };
            self.draw_box(ctx, rx(x), y, &it.style, bw, bh, fs, rtl);
            // `rtlHelper.textAlign(legendItem.textAlign)`, then `_textX` of that (already
            // flipped) alignment, as Chart.js does.
            let eff: Option<TextAlign> = match (lo.text_align, rtl) {
                (Some(Align::Center), _) => Some(TextAlign::Center),
                (Some(Align::End), false) => Some(TextAlign::Right),
                (Some(_), false) => Some(TextAlign::Left),
                (None, false) => None,
                (Some(Align::End), true) => Some(TextAlign::Left),
                (_, true) => Some(TextAlign::Right),
            };
            let (l, r) = (
                x + bw + half,
                if horizontal {
                    x + width
                } else {
                    self.rect.area.right
                },
            );
            let check = if rtl {
                TextAlign::Left
            } else {
                TextAlign::Right
            };
            let tx = if eff == Some(check) {
                r
            } else if eff == Some(TextAlign::Center) {
                (l + r) / 2.0
            } else {
                l
            };
            let tx = rx(tx);
            let mut o = TextOpts::new(lo.color);
            o.align = eff.unwrap_or(TextAlign::Left);
            o.baseline = TextBaseline::Middle;
            o.strikethrough = it.hidden;
            // `renderText` draws an array label one line per `lineHeight` below the first.
            let lines = it.lines.clone().unwrap_or_else(|| vec![txt]);
            render_text(ctx, &lines, tx, y + ih / 2.0, &font, &o);
            if horizontal {
                cx += width + pad;
            } else if it.lines.is_some() || it.text.is_none() {
                // `calculateLegendItemHeight` of a non-string label (none: no lines).
                cy += Self::item_height_cols(it, ih, font.line_height) + pad;
            } else {
                cy += lh;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_box(
        &self,
        ctx: &mut Ctx<'_>,
        x: f64,
        y: f64,
        s: &LegendStyle,
        bw: f64,
        bh: f64,
        fs: f64,
        rtl: bool,
    ) {
        if bw.is_nan() || bw <= 0.0 || bh.is_nan() || bh < 0.0 {
            return;
        }
        let lo = &self.opts.labels;
        ctx.save();
        let lw = s.line_width;
        if lo.use_point_style {
            let style = lo
                .point_style
                .or(s.point_style)
                .unwrap_or(PointStyle::Circle);
            let d = PointDraw {
                style,
                radius: bh * std::f64::consts::SQRT_2 / 2.0,
                rotation: s.rotation,
                border_width: lw,
                fill: s.fill,
                stroke: s.stroke,
                dash: s.dash.clone(),
                dash_offset: s.dash_offset,
                cap: s.cap,
                join: s.join,
            };
            let w = lo.point_style_width.filter(|w| *w != 0.0).map(|_| bw);
            let cx = if rtl { x - bw / 2.0 } else { x + bw / 2.0 };
            draw_point(ctx, &d, cx, y + fs / 2.0, w);
        } else {
            let yt = y + ((fs - bh) / 2.0).max(0.0);
            let x = if rtl { x - bw } else { x };
            let radius = if lo.use_border_radius {
                match lo.border_radius {
                    Some(r) if r != 0.0 => Some(BarRadius::All(r)),
                    _ => s.border_radius,
                }
            } else {
                None
            };
            let (tl, tr, bl, br) = match radius {
                Some(BarRadius::All(r)) => (r, r, r, r),
                Some(BarRadius::Corners(c)) => {
                    (c.top_left, c.top_right, c.bottom_left, c.bottom_right)
                }
                None => (0.0, 0.0, 0.0, 0.0),
            };
            let mut p = P::new();
            if tl != 0.0 || tr != 0.0 || bl != 0.0 || br != 0.0 {
                add_rounded_rect_path(&mut p, x, yt, bw, bh, tl, tr, bl, br);
            } else {
                p.rect(x, yt, bw, bh);
            }
            ctx.fill(&p, s.fill);
            if lw != 0.0 {
                let mut st = StrokeStyle::new(lw, s.stroke);
                st.cap = s.cap;
                st.join = s.join;
                st.dash = s.dash.clone();
                st.dash_offset = s.dash_offset;
                ctx.stroke(&p, &st);
            }
        }
        ctx.restore();
    }

    fn draw_title(&self, ctx: &mut Ctx<'_>) {
        let t = &self.opts.title;
        if !t.display {
            return;
        }
        let half = t.font.size / 2.0;
        let tp = t.padding.top + half;
        let mut left = self.rect.area.left;
        let mut max_width = self.rect.width;
        let y;
        if self.is_horizontal() {
            max_width = self
                .line_widths
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            y = self.rect.area.top + tp;
            left = align_se(self.opts.align, left, self.rect.area.right - max_width);
        } else {
            let mh = self.column_sizes.iter().map(|c| c.1).fold(0.0, f64::max);
            y = tp
                + align_se(
                    self.opts.align,
                    self.rect.area.top,
                    self.rect.area.bottom - mh - self.opts.labels.padding - self.title_height(),
                );
        }
        let x = align_se(t.position, left, left + max_width);
        let mut o = TextOpts::new(t.color);
        // `rtlHelper.textAlign(_toLeftRightCenter(position))`: rtl flips the alignment only;
        // Chart.js does not pass `x` through `rtlHelper.x` here, so the anchor stays put.
        o.align = match (text_align(t.position), self.opts.rtl) {
            (TextAlign::Left, true) => TextAlign::Right,
            (TextAlign::Right, true) => TextAlign::Left,
            (a, _) => a,
        };
        o.baseline = TextBaseline::Middle;
        render_text(ctx, std::slice::from_ref(&t.text), x, y, &t.font, &o);
    }
}

impl LayoutBox for LegendBox {
    fn pos(&self) -> BoxPos {
        edge_box_pos(&self.opts.position)
    }
    fn weight(&self) -> f64 {
        self.opts.weight
    }
    fn full_size(&self) -> bool {
        self.opts.full_size
    }
    fn is_horizontal(&self) -> bool {
        matches!(self.opts.position, Position::Top | Position::Bottom)
    }
    fn displayed(&self) -> bool {
        self.opts.display
    }
    fn update(&mut self, max_width: f64, max_height: f64, margins: Sides, text: &TextEngine) {
        self.max_width = max_width;
        self.max_height = max_height;
        if self.is_horizontal() {
            self.rect.width = max_width;
            self.rect.area.left = margins.left;
            self.rect.area.right = self.rect.width;
        } else {
            self.rect.height = max_height;
            self.rect.area.top = margins.top;
            self.rect.area.bottom = self.rect.height;
        }
        self.fit(text);
    }
    fn width(&self) -> f64 {
        self.rect.width
    }
    fn height(&self) -> f64 {
        self.rect.height
    }
    fn set_dims(&mut self, left: f64, top: f64, width: f64, height: f64) {
        self.rect.set_dims(left, top, width, height);
    }
}
