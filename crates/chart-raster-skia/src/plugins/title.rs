//! Title and subtitle plugins (plugin.title, plugin.subtitle): the `Title` box.

use crate::elements::{render_text, Ctx, TextOpts};
use crate::layout::{BoxPos, LayoutBox};
use crate::plugins::{align_se, edge_box_pos, text_align};
use crate::scene::TextBaseline;
use crate::text::TextEngine;
use chart_spec::model::{Position, TitleOptions};
use std::f64::consts::PI;

/// A `Title` element: a layout box drawing one or more centred lines.
pub struct TitleBox {
    /// Options.
    pub opts: TitleOptions,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    width: f64,
    height: f64,
}

impl TitleBox {
    /// A title box.
    pub fn new(opts: TitleOptions) -> Self {
        Self {
            opts,
            left: 0.0,
            top: 0.0,
            right: 0.0,
            bottom: 0.0,
            width: 0.0,
            height: 0.0,
        }
    }

    /// `Title.draw()`.
    pub fn draw(&self, ctx: &mut Ctx<'_>) {
        let o = &self.opts;
        if !o.display {
            return;
        }
        let lh = o.font.line_height;
        let offset = lh / 2.0 + o.padding.top;
        let (x, y, rot) = if self.is_horizontal() {
            (
                align_se(o.align, self.left, self.right),
                self.top + offset,
                0.0,
            )
        } else if o.position == Position::Left {
            (
                self.left + offset,
                align_se(o.align, self.bottom, self.top),
                -0.5 * PI,
            )
        } else {
            (
                self.right - offset,
                align_se(o.align, self.top, self.bottom),
                0.5 * PI,
            )
        };
        let mut t = TextOpts::new(o.color);
        t.translation = Some((x, y));
        // _drawArgs: maxWidth is the box's length along the text.
        t.max_width = Some(if self.is_horizontal() {
            self.right - self.left
        } else {
            self.bottom - self.top
        });
        t.rotation = rot;
        t.align = text_align(o.align);
        t.baseline = TextBaseline::Middle;
        render_text(ctx, &o.text, 0.0, 0.0, &o.font, &t);
    }
}

impl LayoutBox for TitleBox {
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
    fn update(&mut self, max_width: f64, max_height: f64, _m: [f64; 4], _t: &TextEngine) {
        self.left = 0.0;
        self.top = 0.0;
        if !self.opts.display {
            self.width = 0.0;
            self.height = 0.0;
            self.right = 0.0;
            self.bottom = 0.0;
            return;
        }
        self.width = max_width;
        self.right = max_width;
        self.height = max_height;
        self.bottom = max_height;
        let size =
            self.opts.text.len() as f64 * self.opts.font.line_height + self.opts.padding.height();
        if self.is_horizontal() {
            self.height = size;
        } else {
            self.width = size;
        }
    }
    fn width(&self) -> f64 {
        self.width
    }
    fn height(&self) -> f64 {
        self.height
    }
    fn set_dims(&mut self, left: f64, top: f64, width: f64, height: f64) {
        self.left = left;
        self.top = top;
        self.right = left + width;
        self.bottom = top + height;
        self.width = width;
        self.height = height;
    }
}
