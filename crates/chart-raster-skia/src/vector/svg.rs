//! The scene as a self-contained SVG 1.1 document.
//!
//! Each item becomes one element, in paint order: fills and strokes are `<path>`s with the
//! item's transform, gradients `<linearGradient>`/`<radialGradient>` in user space (canvas
//! gradients live in the coordinate space of the fill), clips nested `<g clip-path>` groups.
//!
//! Text is drawn as glyph outlines, the outlines the rasteriser fills, so the file needs no
//! font and looks the same in every viewer: each glyph (face, glyph, size) is one `<path>` in
//! `<defs>`, placed with `<use>`. Over the outlines, a `<text>` element with the same string,
//! font and advance width (`textLength`) and `fill-opacity="0"` keeps the text selectable,
//! searchable and readable by screen readers; it paints nothing.

use super::{dash_pattern, finite, place_text, strokes, PlacedText, VectorError, POLL_EVERY};
use crate::raster::guard;
use crate::scene::{
    Item, LineCap, LineJoin, Paint, Path, PathCmd, Scene, Stroke, TextDirection, TextItem,
    Transform,
};
use crate::text::{GlyphId, TextEngine};
use chart_spec::font::FontStyle;
use chart_spec::Rgba;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

/// Writes `scene` as an SVG document; `stop` is polled between items. The document may hold
/// at most `max_bytes` (`MAX_SVG_BYTES`): the written text is measured after each item, so
/// it stops within one item of the limit, before the document is assembled (a second copy).
pub fn write(
    scene: &Scene,
    text: &TextEngine,
    stop: &dyn Fn() -> bool,
    max_bytes: usize,
) -> Result<Vec<u8>, VectorError> {
    let (w, h) = (finite_or_zero(scene.width), finite_or_zero(scene.height));
    let mut out = Writer {
        body: String::new(),
        defs: String::new(),
        glyphs: HashMap::new(),
        ids: 0,
        depth: 0,
        canvas: guard::Canvas {
            width: w,
            height: h,
        },
        dpr: if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
            scene.device_pixel_ratio
        } else {
            1.0
        },
    };
    if !scene.background.is_transparent() {
        out.body.push_str("<rect width=\"100%\" height=\"100%\"");
        out.fill_attrs("fill", &Paint::Solid(scene.background), "");
        out.body.push_str("/>\n");
    }
    for (i, item) in scene.items.iter().enumerate() {
        if i % POLL_EVERY == 0 && stop() {
            return Err(VectorError::Cancelled);
        }
        out.item(item, text);
        if out.body.len().saturating_add(out.defs.len()) > max_bytes {
            return Err(VectorError::TooLarge(max_bytes));
        }
    }
    if stop() {
        return Err(VectorError::Cancelled);
    }
    for _ in 0..out.depth {
        out.body.push_str("</g>\n");
    }
    let mut doc = String::with_capacity(out.body.len() + out.defs.len() + 512);
    doc.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    doc.push_str(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" \
         xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\"",
    );
    let _ = writeln!(
        doc,
        " width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">",
        Num(w),
        Num(h),
        Num(w),
        Num(h)
    );
    if !out.defs.is_empty() {
        doc.push_str("<defs>\n");
        doc.push_str(&out.defs);
        doc.push_str("</defs>\n");
    }
    doc.push_str(&out.body);
    doc.push_str("</svg>\n");
    if doc.len() > max_bytes {
        return Err(VectorError::TooLarge(max_bytes));
    }
    Ok(doc.into_bytes())
}

/// A number as SVG writes it: at most three decimals (a thousandth of a CSS px), no exponent;
/// a non-finite value (none reaches here through the guard) as 0.
struct Num(f32);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = f64::from(self.0);
        if !v.is_finite() {
            return f.write_str("0");
        }
        let r = (v * 1000.0).round() / 1000.0;
        // `-0` and `0` alike.
        if r == 0.0 {
            return f.write_str("0");
        }
        write!(f, "{r}")
    }
}

fn finite_or_zero(v: f32) -> f32 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

struct Writer {
    /// The drawing, in paint order.
    body: String,
    /// Glyph outlines, written once each.
    defs: String,
    /// The `<defs>` id of each glyph outline written.
    glyphs: HashMap<GlyphId, usize>,
    /// The last id given to a gradient, clip path or glyph.
    ids: usize,
    /// Clip groups open.
    depth: usize,
    /// The page, for the guard.
    canvas: guard::Canvas,
    /// The scene's device pixel ratio: canvas shadows are in device pixels.
    dpr: f32,
}

impl Writer {
    fn next_id(&mut self) -> usize {
        self.ids += 1;
        self.ids
    }

    fn item(&mut self, item: &Item, text: &TextEngine) {
        match item {
            Item::Fill {
                path,
                paint,
                transform,
            } => {
                if paint.is_invisible() || !finite(transform) {
                    return;
                }
                let path = guard::path(path, *transform, self.canvas, 0.0, true);
                let Some(paint_ref) = self.paint(paint) else {
                    return;
                };
                self.body.push_str("<path");
                self.transform_attr(transform);
                self.fill_attrs("fill", paint, &paint_ref);
                self.path_attr(&path);
                self.body.push_str("/>\n");
            }
            Item::Stroke {
                path,
                paint,
                stroke,
                transform,
            } => {
                if paint.is_invisible() || !strokes(stroke) || !finite(transform) {
                    return;
                }
                let stroke = guard::stroke(stroke, path, *transform);
                let reach = guard::stroke_reach(&stroke, *transform);
                let path = guard::path(path, *transform, self.canvas, reach, false);
                let Some(paint_ref) = self.paint(paint) else {
                    return;
                };
                self.body.push_str("<path fill=\"none\"");
                self.transform_attr(transform);
                self.fill_attrs("stroke", paint, &paint_ref);
                self.stroke_attrs(&stroke);
                self.path_attr(&path);
                self.body.push_str("/>\n");
            }
            Item::Text(t) => self.text(t, text),
            Item::PushClip { path, transform } => {
                let id = self.next_id();
                let path: Cow<'_, Path> = if finite(transform) {
                    guard::path(path, *transform, self.canvas, 0.0, true)
                } else {
                    // A broken transform clips everything away, as the rasteriser's empty
                    // guarded path does.
                    Cow::Owned(Path::new())
                };
                let _ = write!(self.body, "<clipPath id=\"c{id}\"><path");
                if finite(transform) {
                    self.transform_attr(transform);
                }
                self.path_attr(&path);
                let _ = writeln!(self.body, "/></clipPath>\n<g clip-path=\"url(#c{id})\">");
                self.depth += 1;
            }
            Item::PopClip => {
                // A restore without a save changes nothing on a canvas.
                if self.depth > 0 {
                    self.depth -= 1;
                    self.body.push_str("</g>\n");
                }
            }
            Item::Shadowed { shadow, item } => {
                // Scenes never nest shadows; a nested one is left out, as the rasteriser does.
                if matches!(**item, Item::Shadowed { .. }) {
                    return;
                }
                self.shadow(shadow, item, text);
                self.item(item, text);
            }
        }
    }

    /// The canvas shadow of `item`: a copy of it in a group whose filter blurs its alpha
    /// (σ = `shadowBlur` / 2), moves it and floods it with the shadow colour. The group has
    /// no transform, so the blur and the offset are in page units (device px / dpr), not
    /// turned by the item's transform, as on a canvas.
    fn shadow(&mut self, shadow: &crate::scene::Shadow, item: &Item, text: &TextEngine) {
        if !shadow.is_visible() {
            return;
        }
        let unit = |v: f32| if v.is_finite() { v } else { 0.0 };
        let (w, h) = (self.canvas.width, self.canvas.height);
        // The blur's reach is capped at the page's size, like the rasteriser's.
        let sigma = (unit(shadow.blur).max(0.0) / 2.0 / self.dpr).min(w.max(h));
        let dx = unit(shadow.offset_x / self.dpr).clamp(-w, w);
        let dy = unit(shadow.offset_y / self.dpr).clamp(-h, h);
        let id = self.next_id();
        let c = shadow.color;
        let _ = writeln!(
            self.body,
            "<filter id=\"s{id}\" filterUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" \
             width=\"{}\" height=\"{}\"><feGaussianBlur in=\"SourceAlpha\" \
             stdDeviation=\"{}\"/><feOffset dx=\"{}\" dy=\"{}\" result=\"o\"/>\
             <feFlood flood-color=\"{}\" flood-opacity=\"{}\"/>\
             <feComposite in2=\"o\" operator=\"in\"/></filter>\n<g filter=\"url(#s{id})\">",
            Num(w),
            Num(h),
            Num(sigma),
            Num(dx),
            Num(dy),
            Hex(c),
            Num(alpha(c))
        );
        self.item(item, text);
        self.body.push_str("</g>\n");
    }

    /// Writes a gradient's definition and returns what `fill`/`stroke` refers to: a colour
    /// (empty: written by `fill_attrs`) or `url(#gN)`. `None` when the paint draws nothing
    /// (a canvas gradient whose two points coincide paints nothing).
    fn paint(&mut self, paint: &Paint) -> Option<String> {
        let stops = match paint {
            Paint::Solid(_) => return Some(String::new()),
            Paint::LinearGradient { stops, .. } | Paint::RadialGradient { stops, .. } => stops,
        };
        let id = self.next_id();
        match *paint {
            Paint::LinearGradient { x0, y0, x1, y1, .. } => {
                if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) || (x0 == x1 && y0 == y1) {
                    return None;
                }
                let _ = write!(
                    self.body,
                    "<linearGradient id=\"g{id}\" gradientUnits=\"userSpaceOnUse\" \
                     x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">",
                    Num(x0),
                    Num(y0),
                    Num(x1),
                    Num(y1)
                );
            }
            Paint::RadialGradient {
                x0,
                y0,
                r0,
                x1,
                y1,
                r1,
                ..
            } => {
                let all_finite = [x0, y0, r0, x1, y1, r1].iter().all(|v| v.is_finite());
                if !all_finite || r0 < 0.0 || r1 <= 0.0 || (x0 == x1 && y0 == y1 && r0 == r1) {
                    return None;
                }
                let _ = write!(
                    self.body,
                    "<radialGradient id=\"g{id}\" gradientUnits=\"userSpaceOnUse\" \
                     cx=\"{}\" cy=\"{}\" r=\"{}\" fx=\"{}\" fy=\"{}\" fr=\"{}\">",
                    Num(x1),
                    Num(y1),
                    Num(r1),
                    Num(x0),
                    Num(y0),
                    Num(r0)
                );
            }
            Paint::Solid(_) => {}
        }
        let mut last = 0.0f32;
        for (offset, c) in stops {
            if !offset.is_finite() {
                continue;
            }
            // Canvas keeps stops sorted by offset within 0..=1.
            last = offset.clamp(last, 1.0);
            let _ = write!(
                self.body,
                "<stop offset=\"{}\" stop-color=\"{}\"",
                Num(last),
                Hex(*c)
            );
            if c.a != 255 {
                let _ = write!(self.body, " stop-opacity=\"{}\"", Num(alpha(*c)));
            }
            self.body.push_str("/>");
        }
        let tag = match paint {
            Paint::RadialGradient { .. } => "radialGradient",
            _ => "linearGradient",
        };
        let _ = writeln!(self.body, "</{tag}>");
        Some(format!("url(#g{id})"))
    }

    /// ` fill="…"` (or `stroke`), with its opacity for a translucent colour.
    fn fill_attrs(&mut self, attr: &str, paint: &Paint, paint_ref: &str) {
        match paint {
            Paint::Solid(c) => {
                let _ = write!(self.body, " {attr}=\"{}\"", Hex(*c));
                if c.a != 255 {
                    let _ = write!(self.body, " {attr}-opacity=\"{}\"", Num(alpha(*c)));
                }
            }
            _ => {
                let _ = write!(self.body, " {attr}=\"{paint_ref}\"");
            }
        }
    }

    fn stroke_attrs(&mut self, s: &Stroke) {
        let _ = write!(self.body, " stroke-width=\"{}\"", Num(s.width));
        match s.cap {
            LineCap::Butt => {}
            LineCap::Round => self.body.push_str(" stroke-linecap=\"round\""),
            LineCap::Square => self.body.push_str(" stroke-linecap=\"square\""),
        }
        match s.join {
            LineJoin::Miter => {
                // SVG's default miter limit is 4, the canvas's 10.
                let _ = write!(
                    self.body,
                    " stroke-miterlimit=\"{}\"",
                    Num(s.miter_limit.max(1.0))
                );
            }
            LineJoin::Round => self.body.push_str(" stroke-linejoin=\"round\""),
            LineJoin::Bevel => self.body.push_str(" stroke-linejoin=\"bevel\""),
        }
        if let Some(dash) = dash_pattern(s) {
            self.body.push_str(" stroke-dasharray=\"");
            for (i, d) in dash.iter().enumerate() {
                if i > 0 {
                    self.body.push(' ');
                }
                let _ = write!(self.body, "{}", Num(*d));
            }
            self.body.push('"');
            if s.dash_offset.is_finite() && s.dash_offset != 0.0 {
                let _ = write!(self.body, " stroke-dashoffset=\"{}\"", Num(s.dash_offset));
            }
        }
    }

    fn transform_attr(&mut self, t: &Transform) {
        if *t == Transform::IDENTITY {
            return;
        }
        let _ = write!(
            self.body,
            " transform=\"matrix({} {} {} {} {} {})\"",
            Num6(t.a),
            Num6(t.b),
            Num6(t.c),
            Num6(t.d),
            Num(t.e),
            Num(t.f)
        );
    }

    fn path_attr(&mut self, path: &Path) {
        self.body.push_str(" d=\"");
        path_data(&mut self.body, path, (0.0, 0.0));
        self.body.push('"');
    }

    fn text(&mut self, item: &TextItem, engine: &TextEngine) {
        if item.paint.is_invisible() && item.stroke.is_none() {
            return;
        }
        let page = (self.canvas.width, self.canvas.height);
        let Some(placed) = place_text(item, engine, page) else {
            return;
        };
        self.body.push_str("<g");
        self.transform_attr(&item.transform);
        self.body.push_str(">\n");
        // strokeText first, then fillText, as the scene's item says.
        if let Some((stroke, paint)) = &item.stroke {
            if strokes(stroke) && !paint.is_invisible() {
                if let Some(paint_ref) = self.paint(paint) {
                    self.body.push_str("<g fill=\"none\"");
                    self.fill_attrs("stroke", paint, &paint_ref);
                    self.stroke_attrs(stroke);
                    self.body.push('>');
                    self.glyphs(&placed, paint);
                    self.body.push_str("</g>\n");
                }
            }
        }
        if !item.paint.is_invisible() {
            if let Some(paint_ref) = self.paint(&item.paint) {
                self.body.push_str("<g");
                self.fill_attrs("fill", &item.paint, &paint_ref);
                // A synthesized bold face: the outline stroked as well, as Skia's fake bold.
                if placed.line.embolden > 0.0 {
                    self.fill_attrs("stroke", &item.paint, &paint_ref);
                    let _ = write!(
                        self.body,
                        " stroke-width=\"{}\" stroke-miterlimit=\"10\"",
                        Num(placed.line.embolden)
                    );
                }
                self.body.push('>');
                self.glyphs(&placed, &item.paint);
                self.body.push_str("</g>\n");
            }
        }
        self.hidden_text(item, &placed);
        self.body.push_str("</g>\n");
    }

    /// The glyph outlines of a line. With a solid paint each glyph is a `<use>` of its
    /// outline; a gradient is laid over the item's coordinate space, which a `<use>` would
    /// shift glyph by glyph, so gradient text is one path of all its outlines.
    fn glyphs(&mut self, placed: &PlacedText, paint: &Paint) {
        if !matches!(paint, Paint::Solid(_)) {
            self.body.push_str("<path d=\"");
            for g in placed.glyphs() {
                path_data(&mut self.body, &g.path, (placed.x + g.x, placed.y));
            }
            self.body.push_str("\"/>");
            return;
        }
        for g in placed.glyphs() {
            let id = match g.id.and_then(|k| self.glyphs.get(&k).copied()) {
                Some(id) => id,
                None => {
                    let id = self.next_id();
                    let _ = write!(self.defs, "<path id=\"t{id}\" d=\"");
                    path_data(&mut self.defs, &g.path, (0.0, 0.0));
                    self.defs.push_str("\"/>\n");
                    if let Some(k) = g.id {
                        self.glyphs.insert(k, id);
                    }
                    id
                }
            };
            let _ = write!(
                self.body,
                "<use xlink:href=\"#t{id}\" x=\"{}\" y=\"{}\"/>",
                Num(placed.x + g.x),
                Num(placed.y)
            );
        }
    }

    /// The invisible `<text>` over the outlines (see the module docs).
    fn hidden_text(&mut self, item: &TextItem, placed: &PlacedText) {
        let f = &item.font;
        self.body
            .push_str("<text fill-opacity=\"0\" xml:space=\"preserve\" font-family=\"");
        escape(&mut self.body, &f.family);
        let _ = write!(
            self.body,
            "\" font-size=\"{}\" x=\"{}\" y=\"{}\"",
            Num(f.size),
            Num(placed.x),
            Num(placed.y)
        );
        if f.weight != 400 {
            let _ = write!(self.body, " font-weight=\"{}\"", f.weight);
        }
        match f.style {
            FontStyle::Normal => {}
            FontStyle::Italic => self.body.push_str(" font-style=\"italic\""),
            FontStyle::Oblique => self.body.push_str(" font-style=\"oblique\""),
        }
        if item.direction == TextDirection::Rtl {
            // The line's base direction, for the order a reader copies it in; its end (the
            // visual left) stays on `x`, where the outlines start.
            self.body.push_str(" direction=\"rtl\" text-anchor=\"end\"");
        }
        if placed.line.width.is_finite() && placed.line.width > 0.0 {
            let _ = write!(
                self.body,
                " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
                Num(placed.line.width)
            );
        }
        self.body.push('>');
        escape(&mut self.body, &item.text);
        self.body.push_str("</text>\n");
    }
}

/// A transform's linear part: more decimals, a rotation's sine needs them.
struct Num6(f32);

impl std::fmt::Display for Num6 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = f64::from(self.0);
        if !v.is_finite() {
            return f.write_str("0");
        }
        let r = (v * 1e6).round() / 1e6;
        if r == 0.0 {
            return f.write_str("0");
        }
        write!(f, "{r}")
    }
}

/// `#rrggbb`.
struct Hex(Rgba);

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0.r, self.0.g, self.0.b)
    }
}

fn alpha(c: Rgba) -> f32 {
    f32::from(c.a) / 255.0
}

/// Appends path data, each point shifted by `(dx, dy)`.
fn path_data(out: &mut String, path: &Path, (dx, dy): (f32, f32)) {
    for cmd in &path.cmds {
        let _ = match *cmd {
            PathCmd::MoveTo(x, y) => write!(out, "M{} {}", Num(x + dx), Num(y + dy)),
            PathCmd::LineTo(x, y) => write!(out, "L{} {}", Num(x + dx), Num(y + dy)),
            PathCmd::QuadTo(a, b, x, y) => write!(
                out,
                "Q{} {} {} {}",
                Num(a + dx),
                Num(b + dy),
                Num(x + dx),
                Num(y + dy)
            ),
            PathCmd::CubicTo(a, b, c, d, x, y) => write!(
                out,
                "C{} {} {} {} {} {}",
                Num(a + dx),
                Num(b + dy),
                Num(c + dx),
                Num(d + dy),
                Num(x + dx),
                Num(y + dy)
            ),
            PathCmd::Close => write!(out, "Z"),
        };
    }
}

/// Appends `s` as XML character data or attribute text: markup characters escaped, and the
/// characters XML 1.0 does not allow (C0 controls but tab, newline and return) left out.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{TextAlign, TextBaseline};

    const MAX_BYTES: usize = chart_spec::Limits::DEFAULT_MAX_SVG_BYTES;

    fn scene(items: Vec<Item>) -> Scene {
        Scene {
            width: 100.0,
            height: 50.0,
            device_pixel_ratio: 1.0,
            background: Rgba::WHITE,
            items,
        }
    }

    fn svg(items: Vec<Item>) -> String {
        String::from_utf8(
            write(&scene(items), &TextEngine::system(), &|| false, MAX_BYTES).unwrap(),
        )
        .unwrap()
    }

    fn rect() -> Path {
        let mut p = Path::new();
        p.rect(10.0, 10.0, 20.0, 5.5);
        p
    }

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(Num(1.0).to_string(), "1");
        assert_eq!(Num(0.1).to_string(), "0.1");
        assert_eq!(Num(-0.0004).to_string(), "0");
        assert_eq!(Num(2.12345).to_string(), "2.123");
        assert_eq!(Num(f32::NAN).to_string(), "0");
        assert_eq!(Num(1e20).to_string(), "100000002004087730000");
    }

    #[test]
    fn fills_strokes_and_clips_are_elements() {
        let out = svg(vec![
            Item::PushClip {
                path: rect(),
                transform: Transform::IDENTITY,
            },
            Item::Fill {
                path: rect(),
                paint: Paint::Solid(Rgba {
                    r: 255,
                    g: 0,
                    b: 16,
                    a: 128,
                }),
                transform: Transform::translate(1.0, 2.0),
            },
            Item::Stroke {
                path: rect(),
                paint: Paint::Solid(Rgba::BLACK),
                stroke: Stroke {
                    width: 2.0,
                    dash: vec![3.0],
                    cap: LineCap::Round,
                    ..Stroke::default()
                },
                transform: Transform::IDENTITY,
            },
            Item::PopClip,
            Item::PopClip,
        ]);
        assert!(out.contains("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"));
        assert!(out.contains("<clipPath id=\"c1\"><path d=\"M10 10L30 10L30 15.5L10 15.5Z\"/>"));
        assert!(out.contains(
            "<path transform=\"matrix(1 0 0 1 1 2)\" fill=\"#ff0010\" fill-opacity=\"0.502\""
        ));
        assert!(out.contains("stroke-dasharray=\"3 3\""));
        assert!(out.contains("stroke-linecap=\"round\""));
        // One group opened, one closed: the extra restore is ignored.
        assert_eq!(
            out.matches("<g clip-path").count(),
            out.matches("</g>").count()
        );
    }

    /// A shadowed fill is written twice: first in a group whose filter blurs, moves and
    /// tints its alpha (offset and blur in page units, untouched by the item's transform),
    /// then plainly.
    #[test]
    fn shadows_are_filtered_copies_under_the_item() {
        let out = svg(vec![Item::Shadowed {
            shadow: crate::scene::Shadow {
                color: Rgba::rgb(0, 0, 255),
                blur: 6.0,
                offset_x: 4.0,
                offset_y: -2.0,
            },
            item: Box::new(Item::Fill {
                path: rect(),
                paint: Paint::Solid(Rgba::BLACK),
                transform: Transform::rotate(1.0),
            }),
        }]);
        assert!(out.contains("stdDeviation=\"3\""), "{out}");
        assert!(out.contains("<feOffset dx=\"4\" dy=\"-2\""), "{out}");
        assert!(out.contains("flood-color=\"#0000ff\""), "{out}");
        assert_eq!(out.matches("<path transform").count(), 2, "{out}");
        assert!(out.find("filter=\"url(#s").unwrap() < out.rfind("<path transform").unwrap());
    }

    #[test]
    fn gradients_are_defined_in_user_space() {
        let out = svg(vec![Item::Fill {
            path: rect(),
            paint: Paint::LinearGradient {
                x0: 0.0,
                y0: 0.0,
                x1: 100.0,
                y1: 0.0,
                stops: vec![(0.0, Rgba::BLACK), (1.0, Rgba::TRANSPARENT)],
            },
            transform: Transform::IDENTITY,
        }]);
        assert!(out.contains("<linearGradient id=\"g1\" gradientUnits=\"userSpaceOnUse\""));
        assert!(out.contains("stop-opacity=\"0\""));
        assert!(out.contains("fill=\"url(#g1)\""));
    }

    #[test]
    fn text_is_outlines_with_hidden_selectable_text() {
        let item = Item::Text(Box::new(TextItem {
            text: "A&B <C>".into(),
            x: 50.0,
            y: 25.0,
            font: chart_spec::font::FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Center,
            baseline: TextBaseline::Middle,
            direction: Default::default(),
            transform: Transform::IDENTITY,
            stroke: None,
        }));
        let rtl = match &item {
            Item::Text(t) => Item::Text(Box::new(TextItem {
                direction: crate::scene::TextDirection::Rtl,
                ..(**t).clone()
            })),
            _ => unreachable!(),
        };
        assert!(!svg(vec![item.clone()]).contains("direction="));
        assert!(svg(vec![rtl]).contains(" direction=\"rtl\" text-anchor=\"end\""));
        let out = svg(vec![item.clone(), item]);
        assert!(out.contains(">A&amp;B &lt;C&gt;</text>"));
        // Six glyphs with ink (the spaces have none), drawn twice, defined once.
        assert_eq!(out.matches("<use ").count(), 12);
        assert_eq!(out.matches("<path id=\"t").count(), 6);
    }

    #[test]
    fn huge_and_broken_geometry_stays_near_the_page() {
        let mut p = Path::new();
        p.move_to(f32::NAN, 0.0)
            .line_to(1e30, 5.0)
            .line_to(5.0, 1e30);
        let out = svg(vec![Item::Fill {
            path: p,
            paint: Paint::Solid(Rgba::BLACK),
            transform: Transform::IDENTITY,
        }]);
        assert!(!out.contains("NaN") && !out.contains("inf"));
        assert!(out.len() < 2000, "{out}");
    }

    #[test]
    fn a_cancelled_write_stops() {
        let r = write(
            &scene(vec![Item::PopClip]),
            &TextEngine::system(),
            &|| true,
            MAX_BYTES,
        );
        assert!(matches!(r, Err(VectorError::Cancelled)));
    }

    #[test]
    fn a_document_over_its_byte_budget_is_refused() {
        // 2,000 rectangles of a dozen points each: about 150 KB of path data.
        let items: Vec<Item> = (0..2_000)
            .map(|i| {
                let mut p = Path::new();
                let x = (i % 100) as f32 * 7.125;
                p.move_to(x, 1.5)
                    .line_to(x + 3.25, 1.5)
                    .line_to(x + 3.25, 90.75);
                p.line_to(x, 90.75).close();
                Item::Fill {
                    path: p,
                    paint: Paint::Solid(Rgba::BLACK),
                    transform: Transform::IDENTITY,
                }
            })
            .collect();
        let whole = write(
            &scene(items.clone()),
            &TextEngine::system(),
            &|| false,
            MAX_BYTES,
        )
        .unwrap()
        .len();
        assert!(whole > 50_000, "{whole}");
        // Just enough, then one byte short of the whole document.
        assert!(write(
            &scene(items.clone()),
            &TextEngine::system(),
            &|| false,
            whole
        )
        .is_ok());
        let short = write(
            &scene(items.clone()),
            &TextEngine::system(),
            &|| false,
            whole - 1,
        );
        assert!(matches!(short, Err(VectorError::TooLarge(m)) if m == whole - 1));
        // A small budget stops the writing early, not after the whole scene: the stop signal
        // (polled every POLL_EVERY items) is asked once, where the whole scene asks it 33
        // times.
        let polls = std::cell::Cell::new(0);
        let count = || {
            polls.set(polls.get() + 1);
            false
        };
        let small = write(&scene(items), &TextEngine::system(), &count, 1_000);
        assert!(matches!(small, Err(VectorError::TooLarge(1_000))));
        assert_eq!(polls.get(), 1);
    }
}
