//! Drawing a treemap: each laid-out rectangle (`TreemapElement.draw`) with its group caption
//! or its labels, from the laid-out [`TreemapElements`].

use super::layout::{caption_fits, caption_padding, px_len};
use super::{Sq, TreeData, TreemapEl, CANCEL_EVERY};
use crate::elements::bounds::{bounded_font, finite_in, MAX_PX};
use crate::elements::dataset::PluginElements;
use crate::elements::{rect_path, Area, Ctx, P};
use crate::scene::{TextAlign, TextBaseline};
use chart_spec::model::{Raw, TreemapOptions};
use chart_spec::values::Font;
use chart_spec::{Cancel, Rgba};

/// The font of line `i`: one per line, the last one repeating (`None` without fonts).
fn font_at(fonts: &[Font], i: usize) -> Option<&Font> {
    fonts.get(i.min(fonts.len().saturating_sub(1)))
}

/// The colour of line `i`, the last one repeating; black without colours (`color: []`).
fn color_at(colors: &[Rgba], i: usize) -> Rgba {
    colors
        .get(i.min(colors.len().saturating_sub(1)))
        .copied()
        .unwrap_or(Rgba::rgb(0, 0, 0))
}

fn text_width(ctx: &Ctx<'_>, lines: &[String], fonts: &[Font]) -> (f64, f64) {
    let mut w: f64 = 0.0;
    let mut h = 0.0;
    for (i, l) in lines.iter().enumerate() {
        let Some(f) = font_at(fonts, i) else { break };
        w = w.max(ctx.measure(f, l));
        h += f.line_height;
    }
    (w, h)
}

fn calc_x(x: f64, w: f64, align: &str, padding: f64) -> (f64, TextAlign) {
    match align {
        "left" => (x + padding, TextAlign::Left),
        "right" => (x + w - padding, TextAlign::Right),
        _ => (x + w / 2.0, TextAlign::Center),
    }
}

/// `sliceTextToFitWidth`: the longest prefix that fits with `...`.
fn slice_to_fit(ctx: &Ctx<'_>, text: &str, width: f64, font: &Font) -> String {
    let ell = ctx.measure(font, "...");
    if ell >= width {
        return String::new();
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut lo, mut hi) = (1usize, chars.len());
    while lo <= hi {
        let mid = (lo + hi) / 2;
        let s: String = chars[..mid].iter().collect();
        if ctx.measure(font, &s) + ell > width {
            if mid == 0 {
                break;
            }
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    let s: String = chars[..lo.saturating_sub(1)].iter().collect();
    if s.is_empty() {
        s
    } else {
        s + "..."
    }
}

/// `drawCaption`.
fn draw_caption(ctx: &mut Ctx<'_>, r: (f64, f64, f64, f64), o: &TreemapOptions, sq: &Sq) {
    let c = &o.captions;
    let Some(font) = c.fonts.first() else { return };
    let font = &*bounded_font(font);
    let padding = caption_padding(o);
    let (x, y, w, h) = r;
    if font.line_height > h {
        return;
    }
    let mut text = c
        .text
        .as_ref()
        .and_then(|t| t.first().cloned())
        .or_else(|| sq.g.clone())
        .unwrap_or_default();
    if text.is_empty() {
        return;
    }
    if ctx.measure(font, &text) + 2.0 * padding > w {
        text = slice_to_fit(ctx, &text, w - 2.0 * padding, font);
    }
    let default_align = if o.rtl { "right" } else { "left" };
    let (tx, align) = calc_x(x, w, c.align.as_deref().unwrap_or(default_align), padding);
    let ty = if o.display_mode == "headerBoxes" {
        y + h / 2.0
    } else {
        y + padding + px_len(o.spacing) + font.line_height / 2.0
    };
    ctx.fill_text(
        &text,
        tx,
        ty,
        font,
        color_at(&c.colors, 0),
        align,
        TextBaseline::Middle,
        None,
    );
}

/// The default `labels.formatter`: group and value, label and value, or the value.
fn label_lines(o: &TreemapOptions, sq: &Sq) -> Vec<String> {
    if let Some(t) = &o.labels.text {
        return t.clone();
    }
    let v = Raw::Num(sq.v).to_js_string();
    if let Some(g) = &sq.g {
        return vec![g.clone(), v];
    }
    let label = match &sq.data {
        TreeData::Leaf { label, .. } => label.as_deref(),
        TreeData::Group { .. } => None,
    };
    match label {
        Some(l) => vec![l.to_string(), v],
        None => vec![v],
    }
}

/// `drawLabel`.
fn draw_label(ctx: &mut Ctx<'_>, r: (f64, f64, f64, f64), o: &TreemapOptions, sq: &Sq) {
    let l = &o.labels;
    let lines = label_lines(o, sq);
    if lines.is_empty() || lines.iter().all(String::is_empty) && lines.len() == 1 {
        return;
    }
    let (x, y, w, h) = r;
    let padding = finite_in(l.padding, -MAX_PX, MAX_PX, 3.0);
    let mut fonts: Vec<Font> = l
        .fonts
        .iter()
        .map(|f| bounded_font(f).into_owned())
        .collect();
    let (mut lw, mut lh) = text_width(ctx, &lines, &fonts);
    match l.overflow.as_str() {
        "hidden" if lw + padding * 2.0 > w || lh + padding * 2.0 > h => return,
        "fit" => {
            let ratio = (w / (lw + padding * 2.0)).min(h / (lh + padding * 2.0));
            // A negative or NaN ratio (padding larger than the box) shrinks to nothing.
            let ratio = finite_in(ratio, 0.0, 1.0, 0.0);
            if ratio < 1.0 {
                lw *= ratio;
                lh *= ratio;
                // `toFonts`: sizes floored, line heights back to the default 1.2.
                fonts = fonts
                    .iter()
                    .map(|f| {
                        let size = (f.size * ratio).floor();
                        let mut spec = f.spec.clone();
                        spec.size = size as f32;
                        spec.line_height = (size * 1.2) as f32;
                        Font {
                            size,
                            line_height: size * 1.2,
                            spec,
                        }
                    })
                    .collect();
            }
        }
        _ => {}
    }
    let _ = lw;
    let (tx, align) = calc_x(x, w, l.align.as_deref().unwrap_or("center"), padding);
    let ty = match l.position.as_str() {
        "top" => y + padding,
        "bottom" => y + h - padding - lh,
        _ => y + (h - lh) / 2.0 + padding,
    };
    let mut off = 0.0;
    for (i, line) in lines.iter().enumerate() {
        let Some(f) = font_at(&fonts, i) else { break };
        let c = color_at(&l.colors, i);
        ctx.fill_text(
            line,
            tx,
            ty + f.line_height / 2.0 + off,
            f,
            c,
            align,
            TextBaseline::Middle,
            None,
        );
        off += f.line_height;
    }
}

/// `TreemapElement.draw`.
fn draw_el(ctx: &mut Ctx<'_>, el: &TreemapEl, o: &TreemapOptions) {
    let (w, h) = (el.width, el.height);
    let lim = |v: f64, m: f64| v.min(m).max(0.0);
    let [t, r, b, l] = o.border_width.to_array().map(px_len);
    let (t, r, b, l) = (
        lim(t, h / 2.0),
        lim(r, w / 2.0),
        lim(b, h / 2.0),
        lim(l, w / 2.0),
    );
    let max_r = (w / 2.0).min(h / 2.0);
    let rad = o.border_radius.to_array().map(|v| lim(px_len(v), max_r));
    let inner_rad = [
        (rad[0] - t.max(l)).max(0.0),
        (rad[1] - t.max(r)).max(0.0),
        (rad[2] - b.max(l)).max(0.0),
        (rad[3] - b.max(r)).max(0.0),
    ];
    let (ix, iy, iw, ih) = (el.x + l, el.y + t, w - l - r, h - t - b);
    let rounded = rad.iter().any(|v| *v != 0.0);
    let radius = |r: [f64; 4]| if rounded { r } else { [0.0; 4] };
    ctx.save();
    if iw != w || ih != h {
        let mut outer = P::new();
        rect_path(&mut outer, el.x, el.y, w, h, radius(rad), false);
        ctx.clip(outer.clone());
        rect_path(&mut outer, ix, iy, iw, ih, radius(inner_rad), true);
        ctx.fill(&outer, o.border_color);
    }
    let mut inner = P::new();
    rect_path(&mut inner, ix, iy, iw, ih, radius(inner_rad), false);
    ctx.fill(&inner, o.background_color);
    // drawDivider: a line across the middle of a group with children.
    if o.dividers {
        if let TreeData::Group { children, .. } = &el.sq.data {
            if !children.is_empty() {
                let mut p = P::new();
                if iw > ih {
                    p.move_to(ix + iw / 2.0, iy);
                    p.line_to(ix + iw / 2.0, iy + ih);
                } else {
                    p.move_to(ix, iy + ih / 2.0);
                    p.line_to(ix + iw, iy + ih / 2.0);
                }
                let mut st =
                    crate::elements::StrokeStyle::new(px_len(o.divider_width), o.divider_color);
                st.dash = crate::elements::bounds::bounded_dash(&o.divider_dash);
                st.dash_offset = crate::elements::bounds::finite_in(
                    o.divider_dash_offset,
                    -crate::elements::bounds::MAX_PX,
                    crate::elements::bounds::MAX_PX,
                    0.0,
                );
                st.cap = match o.divider_cap {
                    chart_spec::model::CapStyle::Butt => crate::scene::LineCap::Butt,
                    chart_spec::model::CapStyle::Round => crate::scene::LineCap::Round,
                    chart_spec::model::CapStyle::Square => crate::scene::LineCap::Square,
                };
                ctx.stroke(&p, &st);
            }
        }
    }
    // drawText: clipped to the inner rectangle.
    ctx.save();
    let mut clip = P::new();
    clip.rect(ix, iy, iw, ih);
    ctx.clip(clip);
    let is_leaf = el.sq.l.is_none() || el.sq.is_leaf;
    let r = (ix, iy, iw, ih);
    if is_leaf && o.labels.display {
        draw_label(ctx, r, o, &el.sq);
    } else if !is_leaf && caption_fits(&o.display_mode, iw, ih, o) {
        draw_caption(ctx, r, o, &el.sq);
    }
    ctx.restore();
    ctx.restore();
}

/// What a treemap dataset draws: its laid-out rectangles with the dataset's options.
pub(super) struct TreemapElements<'a> {
    pub(super) rects: Vec<TreemapEl>,
    pub(super) options: &'a TreemapOptions,
    /// The render's stop signal.
    pub(super) cancel: Cancel,
}

impl PluginElements for TreemapElements<'_> {
    fn draw(&self, ctx: &mut Ctx<'_>, area: &Area) {
        let o = self.options;
        ctx.clip_area(*area);
        for (i, el) in self.rects.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && self.cancel.is_cancelled() {
                break;
            }
            if !el.hidden && el.width.is_finite() && el.height.is_finite() {
                draw_el(ctx, el, o);
            }
        }
        ctx.unclip_area();
    }
}
