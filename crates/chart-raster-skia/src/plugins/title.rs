//! Title and subtitle plugins (plugin.title, plugin.subtitle): the `Title` box.

use crate::elements::{render_text, Ctx, TextOpts};
use crate::layout::{BoxPos, BoxRect, LayoutBox};
use crate::plugins::{align_se, edge_box_pos, text_align};
use crate::scene::TextBaseline;
use crate::text::TextEngine;
use chart_spec::model::{Position, TitleOptions};
use chart_spec::values::Sides;
use std::f64::consts::PI;

/// A `Title` element: a layout box drawing one or more centred lines.
pub struct TitleBox {
    /// Options.
    pub opts: TitleOptions,
    rect: BoxRect,
}

impl TitleBox {
    /// Where the layout placed the box.
    pub fn rect(&self) -> crate::layout::BoxRect {
        self.rect
    }

    /// A title box.
    pub fn new(opts: TitleOptions) -> Self {
        Self {
            opts,
            rect: BoxRect::default(),
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
                align_se(o.align, self.rect.area.left, self.rect.area.right),
                self.rect.area.top + offset,
                0.0,
            )
        } else if o.position == Position::Left {
            (
                self.rect.area.left + offset,
                align_se(o.align, self.rect.area.bottom, self.rect.area.top),
                -0.5 * PI,
            )
        } else {
            (
                self.rect.area.right - offset,
                align_se(o.align, self.rect.area.top, self.rect.area.bottom),
                0.5 * PI,
            )
        };
        let mut t = TextOpts::new(o.color);
        t.translation = Some((x, y));
        // _drawArgs: maxWidth is the box's length along the text.
        t.max_width = Some(if self.is_horizontal() {
            self.rect.area.right - self.rect.area.left
        } else {
            self.rect.area.bottom - self.rect.area.top
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
    fn update(&mut self, max_width: f64, max_height: f64, _m: Sides, _t: &TextEngine) {
        self.rect.area.left = 0.0;
        self.rect.area.top = 0.0;
        if !self.opts.display {
            self.rect.width = 0.0;
            self.rect.height = 0.0;
            self.rect.area.right = 0.0;
            self.rect.area.bottom = 0.0;
            return;
        }
        self.rect.width = max_width;
        self.rect.area.right = max_width;
        self.rect.height = max_height;
        self.rect.area.bottom = max_height;
        let size =
            self.opts.text.len() as f64 * self.opts.font.line_height + self.opts.padding.height();
        if self.is_horizontal() {
            self.rect.height = size;
        } else {
            self.rect.width = size;
        }
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
