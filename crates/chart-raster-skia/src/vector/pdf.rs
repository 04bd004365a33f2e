//! The scene as a one-page PDF, written with krilla (which writes the PDF objects with
//! pdf-writer and subsets the fonts with subsetter, as typst does).
//!
//! The page is the canvas at 0.75 pt per CSS px. Fills and strokes are PDF paths with the
//! item's transform; canvas gradients become shadings in the item's user space (krilla adds
//! the soft mask a translucent stop needs); clips are clipping paths mapped to page space.
//!
//! Text is real PDF text: each run of glyphs from one face is shown with that face embedded
//! as a subset (only the glyphs used), placed at the positions the rasteriser draws them, so
//! pdftotext and a viewer's search and selection find it. A synthesized bold face is filled
//! and stroked (text render mode 2), a synthesized italic skewed by the same -1/4 Skia uses.
//! The text of an item is attached to its glyphs as one cluster (`/ActualText` where the
//! glyphs alone would not give it back), so spaces and ligatures come out as written.

use super::{dash_pattern, finite, place_text, strokes, PlacedText, VectorError, POLL_EVERY};
use crate::raster::guard;
use crate::scene::{
    Item, LineCap, LineJoin, Paint, Path, PathCmd, Scene, Stroke, TextItem, Transform,
};
use crate::text::TextEngine;
use chart_spec::Rgba;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{self, Fill, FillRule, SpreadMethod, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::Document;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// PDF points per CSS px (72 pt per inch, 96 px per inch).
const PT_PER_PX: f32 = 0.75;

/// Skia's fake italic: glyphs skewed by -1/4 (x moves right by a quarter of the height).
const FAKE_ITALIC_SKEW: f32 = 0.25;

/// Writes `scene` as a PDF document; `stop` is polled between items.
///
/// krilla deflates the page's whole content stream (zlib level 6) when the page is dropped:
/// one call, after the last poll of `stop`, that nothing can cut short (1.7 s of a 3.7 s
/// render of 200,000 radar points, release build, loaded machine). A render stopped while
/// the page is written drops its content instead of compressing it; `max_content`
/// (`MAX_PDF_CONTENT`: items, path points and glyphs, counted as they are written) bounds
/// the call for a page written to the end, so a deadline that falls in it is overrun by a
/// fraction of a second at most: the page is refused with [`VectorError::OverBudget`]
/// once it grows past it.
pub fn write(
    scene: &Scene,
    text: &TextEngine,
    stop: &dyn Fn() -> bool,
    max_content: usize,
) -> Result<Vec<u8>, VectorError> {
    let ok = |v: f32| v.is_finite() && v > 0.0;
    if !(ok(scene.width) && ok(scene.height)) {
        return Err(VectorError::Pdf(format!(
            "the page would be {}x{} px",
            scene.width, scene.height
        )));
    }
    let canvas = guard::Canvas {
        width: scene.width,
        height: scene.height,
    };
    let settings = PageSettings::from_wh(scene.width * PT_PER_PX, scene.height * PT_PER_PX)
        .ok_or_else(|| VectorError::Pdf("the page has no size".into()))?;
    let mut doc = Document::new();
    let (cancelled, content) = {
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        // krilla's page space is points, y down from the top left: one scale maps CSS px.
        surface.push_transform(&krilla::geom::Transform::from_scale(PT_PER_PX, PT_PER_PX));
        let mut w = Writer {
            surface: &mut surface,
            canvas,
            depth: 0,
            text,
            content: 0,
            dpr: if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
                scene.device_pixel_ratio
            } else {
                1.0
            },
        };
        if !scene.background.is_transparent() {
            let mut bg = Path::new();
            bg.rect(0.0, 0.0, scene.width, scene.height);
            w.fill(&bg, &Paint::Solid(scene.background), Transform::IDENTITY);
        }
        let mut cancelled = false;
        for (i, item) in scene.items.iter().enumerate() {
            if i % POLL_EVERY == 0 && (stop() || w.content > max_content) {
                cancelled = true;
                break;
            }
            w.item(item);
        }
        let content = w.content;
        // Every push has its pop (krilla requires it), also when cut short.
        for _ in 0..w.depth {
            w.surface.pop();
        }
        surface.pop();
        surface.finish();
        cancelled |= content > max_content || stop();
        if cancelled {
            // The page deflates its content stream when dropped: a new surface, finished
            // empty, replaces that stream, so a render cut short drops what it wrote
            // instead of compressing it (up to seconds of work nobody waits for).
            page.surface().finish();
        }
        page.finish();
        (cancelled, content)
    };
    if content > max_content {
        return Err(VectorError::OverBudget(max_content));
    }
    if cancelled || stop() {
        return Err(VectorError::Cancelled);
    }
    // Fonts are subset and the objects written here: milliseconds, even for the largest
    // page the budget lets through.
    doc.finish().map_err(|e| VectorError::Pdf(format!("{e:?}")))
}

struct Writer<'a, 'b> {
    surface: &'a mut Surface<'b>,
    canvas: guard::Canvas,
    /// Clips pushed and not yet popped.
    depth: usize,
    text: &'a TextEngine,
    /// The drawing work written so far: items, path points and glyphs (`MAX_PDF_CONTENT`).
    content: usize,
    /// The scene's device pixel ratio: shadow offsets and blurs are in device px.
    dpr: f32,
}

impl Writer<'_, '_> {
    fn item(&mut self, item: &Item) {
        self.content += 1;
        match item {
            Item::Fill {
                path,
                paint,
                transform,
            } => self.fill(path, paint, *transform),
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
                let (Some(p), Some(s)) = (krilla_path(&path, None), pdf_stroke(&stroke, paint))
                else {
                    return;
                };
                self.surface.set_fill(None);
                self.surface.set_stroke(Some(s));
                self.surface.push_transform(&pdf_transform(*transform));
                self.surface.draw_path(&p);
                self.surface.pop();
                self.content += points(&path);
            }
            Item::Text(t) => self.text(t),
            Item::PushClip { path, transform } => {
                // The clip is mapped to page space here: a pushed transform would stay in
                // force for the items drawn inside the clip.
                let p = if finite(transform) {
                    let path = guard::path(path, *transform, self.canvas, 0.0, true);
                    krilla_path(&path, Some(*transform))
                } else {
                    None
                };
                // An empty clip hides everything: a speck off the page stands for it.
                let p = p.or_else(|| {
                    let mut speck = Path::new();
                    speck.rect(-10.0, -10.0, 1.0, 1.0);
                    krilla_path(&speck, None)
                });
                self.content += points(path);
                if let Some(p) = p {
                    self.surface.push_clip_path(&p, &FillRule::NonZero);
                    self.depth += 1;
                }
            }
            Item::PopClip => {
                if self.depth > 0 {
                    self.depth -= 1;
                    self.surface.pop();
                }
            }
            Item::Shadowed { shadow, item } => {
                // Scenes never nest shadows; a nested one is left out, as the rasteriser does.
                if matches!(**item, Item::Shadowed { .. }) {
                    return;
                }
                self.shadow(shadow, item);
                self.item(item);
            }
        }
    }

    /// The canvas shadow of `item`, under it. PDF has no blur filter: the shadow is the
    /// item's shape in the shadow colour, moved by the offset (device px / dpr, in page
    /// space, not turned by the item's transform, as on a canvas); a blurred shadow of a
    /// fill or stroke gets a halo of three wider strokes at a quarter of the colour's alpha,
    /// out to 2σ (σ = `shadowBlur` / 2): an approximation of the Gaussian's ramp, where the
    /// SVG writer blurs exactly.
    fn shadow(&mut self, shadow: &crate::scene::Shadow, item: &Item) {
        if !shadow.is_visible() {
            return;
        }
        let unit = |v: f32| if v.is_finite() { v } else { 0.0 };
        let (w, h) = (self.canvas.width, self.canvas.height);
        let sigma = (unit(shadow.blur).max(0.0) / 2.0 / self.dpr).min(w.max(h));
        let dx = unit(shadow.offset_x / self.dpr).clamp(-w, w);
        let dy = unit(shadow.offset_y / self.dpr).clamp(-h, h);
        let color = Paint::Solid(shadow.color);
        let halo = Paint::Solid(shadow.color.with_alpha_factor(0.25));
        self.surface
            .push_transform(&krilla::geom::Transform::from_translate(dx, dy));
        match item {
            Item::Fill {
                path, transform, ..
            } => {
                self.fill(path, &color, *transform);
                if sigma > 0.0 {
                    let scale = super::max_scale(*transform);
                    for k in 1..=3 {
                        let s = Stroke {
                            width: 4.0 * sigma * k as f32 / 3.0 / scale.max(1e-6),
                            join: LineJoin::Round,
                            ..Stroke::default()
                        };
                        self.item(&Item::Stroke {
                            path: path.clone(),
                            paint: halo.clone(),
                            stroke: s,
                            transform: *transform,
                        });
                    }
                }
            }
            Item::Stroke {
                path,
                stroke,
                transform,
                ..
            } => {
                let copy = |paint: &Paint, stroke: Stroke| Item::Stroke {
                    path: path.clone(),
                    paint: paint.clone(),
                    stroke,
                    transform: *transform,
                };
                self.item(&copy(&color, stroke.clone()));
                if sigma > 0.0 && strokes(stroke) {
                    let scale = super::max_scale(*transform).max(1e-6);
                    for k in 1..=3 {
                        let s = Stroke {
                            width: stroke.width + 4.0 * sigma * k as f32 / 3.0 / scale,
                            dash: Vec::new(),
                            ..stroke.clone()
                        };
                        self.item(&copy(&halo, s));
                    }
                }
            }
            Item::Text(t) => {
                let copy = TextItem {
                    paint: color.clone(),
                    stroke: t.stroke.as_ref().map(|(s, _)| (s.clone(), color.clone())),
                    ..(**t).clone()
                };
                self.text(&copy);
            }
            _ => {}
        }
        self.surface.pop();
    }

    fn fill(&mut self, path: &Path, paint: &Paint, transform: Transform) {
        if paint.is_invisible() || !finite(&transform) {
            return;
        }
        let path = guard::path(path, transform, self.canvas, 0.0, true);
        let (Some(p), Some(f)) = (krilla_path(&path, None), pdf_fill(paint)) else {
            return;
        };
        self.surface.set_stroke(None);
        self.surface.set_fill(Some(f));
        self.surface.push_transform(&pdf_transform(transform));
        self.surface.draw_path(&p);
        self.surface.pop();
        self.content += points(&path);
    }

    fn text(&mut self, item: &TextItem) {
        if item.paint.is_invisible() && item.stroke.is_none() {
            return;
        }
        if !(item.font.size.is_finite() && item.font.size > 0.0) {
            return;
        }
        let page = (self.canvas.width, self.canvas.height);
        let Some(placed) = place_text(item, self.text, page) else {
            return;
        };
        if let Some((stroke, paint)) = &item.stroke {
            if let Some(s) = strokes(stroke).then(|| pdf_stroke(stroke, paint)).flatten() {
                self.glyph_runs(item, &placed, None, Some(s));
            }
        }
        if let Some(f) = pdf_fill(&item.paint) {
            // A synthesized bold face: the outlines stroked too, as Skia's fake bold.
            let bold = (placed.line.embolden > 0.0)
                .then(|| {
                    let s = Stroke {
                        width: placed.line.embolden,
                        ..Stroke::default()
                    };
                    pdf_stroke(&s, &item.paint)
                })
                .flatten();
            self.glyph_runs(item, &placed, Some(f), bold);
        }
    }

    /// Shows the glyphs of a placed line, one `draw_glyphs` per run of glyphs from one face.
    fn glyph_runs(
        &mut self,
        item: &TextItem,
        placed: &PlacedText,
        fill: Option<Fill>,
        stroke: Option<paint::Stroke>,
    ) {
        let size = item.font.size;
        let glyphs: Vec<_> = placed.glyphs().collect();
        self.content += glyphs.len();
        let mut start = 0;
        // The item's text goes with the first run shown; the others carry none, so a line
        // set in two faces is not extracted twice.
        let mut text_shown = false;
        while start < glyphs.len() {
            let id = glyphs[start].id;
            let key = id.map(|g| (g.face, g.italic));
            let mut end = start + 1;
            while end < glyphs.len() && glyphs[end].id.map(|g| (g.face, g.italic)) == key {
                end += 1;
            }
            let run = &glyphs[start..end];
            let font = id.and_then(|g| font(self.text, g.face));
            if let (Some(font), Some(first)) = (font, run.first()) {
                let range = if text_shown { 0..0 } else { 0..item.text.len() };
                text_shown = true;
                let shown: Vec<KrillaGlyph> = run
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        // Advances from the positions the shaper gave (spaces have no
                        // glyph of their own here: their advance is in the gap).
                        let next = run.get(i + 1).map_or(g.x, |n| n.x);
                        KrillaGlyph {
                            glyph_id: GlyphId::new(u32::from(g.id.map_or(0, |k| k.glyph))),
                            text_range: range.clone(),
                            x_advance: (next - g.x) / size,
                            x_offset: 0.0,
                            y_offset: 0.0,
                            y_advance: 0.0,
                            location: None,
                        }
                    })
                    .collect();
                let mut t = item.transform;
                if key.is_some_and(|(_, italic)| italic) {
                    // Skewed about the baseline: x moves by a quarter of the height above it.
                    t = t.then(Transform {
                        a: 1.0,
                        b: 0.0,
                        c: -FAKE_ITALIC_SKEW,
                        d: 1.0,
                        e: FAKE_ITALIC_SKEW * placed.y,
                        f: 0.0,
                    });
                }
                self.surface.set_fill(fill.clone());
                self.surface.set_stroke(stroke.clone());
                self.surface.push_transform(&pdf_transform(t));
                self.surface.draw_glyphs(
                    Point::from_xy(placed.x + first.x, placed.y),
                    &shown,
                    font,
                    &item.text,
                    size,
                    false,
                );
                self.surface.pop();
            }
            start = end;
        }
    }
}

/// The krilla font of a catalogue face, parsed once per process (faces are numbered by the
/// process-wide catalogue, and parsing hashes the whole file, megabytes for a CJK face).
fn font(text: &TextEngine, face: usize) -> Option<Font> {
    static FONTS: OnceLock<Mutex<HashMap<usize, Option<Font>>>> = OnceLock::new();
    let fonts = FONTS.get_or_init(Default::default);
    let lock = || fonts.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = lock().get(&face) {
        return f.clone();
    }
    let font = text.face_data(face).and_then(|(data, index)| {
        let data: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(data);
        Font::new(data.into(), index)
    });
    lock().insert(face, font.clone());
    font
}

fn pdf_transform(t: Transform) -> krilla::geom::Transform {
    krilla::geom::Transform::from_row(t.a, t.b, t.c, t.d, t.e, t.f)
}

/// The path for krilla, its points mapped by `t` when given; `None` when empty.
fn krilla_path(path: &Path, t: Option<Transform>) -> Option<krilla::geom::Path> {
    let map = |x: f32, y: f32| t.map_or((x, y), |t| t.apply(x, y));
    let mut b = PathBuilder::new();
    for cmd in &path.cmds {
        match cmd.map(map) {
            PathCmd::MoveTo(x, y) => b.move_to(x, y),
            PathCmd::LineTo(x, y) => b.line_to(x, y),
            PathCmd::QuadTo(a, c, x, y) => b.quad_to(a, c, x, y),
            PathCmd::CubicTo(a, c, d, e, x, y) => b.cubic_to(a, c, d, e, x, y),
            PathCmd::Close => b.close(),
        }
    }
    b.finish()
}

/// The content a path writes: each command's points (`PathCmd::for_each_point`: one per
/// move and line, two per quad, three per cubic), and one for a close, an operator without
/// points.
fn points(path: &Path) -> usize {
    (path.cmds.iter())
        .map(|c| {
            let mut n = 0;
            c.for_each_point(|_, _| n += 1);
            n.max(1)
        })
        .sum()
}

fn opacity(c: Rgba) -> NormalizedF32 {
    NormalizedF32::new(f32::from(c.a) / 255.0).unwrap_or(NormalizedF32::ONE)
}

/// A scene paint as krilla's paint and opacity; `None` when it paints nothing (a canvas
/// gradient whose points coincide, or a broken one).
fn pdf_paint(p: &Paint) -> Option<(paint::Paint, NormalizedF32)> {
    let stops = |stops: &[(f32, Rgba)]| -> Vec<paint::Stop> {
        let mut last = 0.0f32;
        stops
            .iter()
            .filter(|(o, _)| o.is_finite())
            .map(|(o, c)| {
                // Canvas keeps stops sorted by offset within 0..=1.
                last = o.clamp(last, 1.0);
                paint::Stop {
                    offset: NormalizedF32::new(last).unwrap_or(NormalizedF32::ZERO),
                    color: rgb::Color::new(c.r, c.g, c.b).into(),
                    opacity: opacity(*c),
                }
            })
            .collect()
    };
    match *p {
        Paint::Solid(c) => Some((rgb::Color::new(c.r, c.g, c.b).into(), opacity(c))),
        Paint::LinearGradient {
            x0,
            y0,
            x1,
            y1,
            stops: ref s,
        } => {
            if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) || (x0 == x1 && y0 == y1) {
                return None;
            }
            let g = paint::LinearGradient {
                x1: x0,
                y1: y0,
                x2: x1,
                y2: y1,
                transform: krilla::geom::Transform::identity(),
                spread_method: SpreadMethod::Pad,
                stops: stops(s),
                anti_alias: false,
            };
            Some((g.into(), NormalizedF32::ONE))
        }
        Paint::RadialGradient {
            x0,
            y0,
            r0,
            x1,
            y1,
            r1,
            stops: ref s,
        } => {
            let all_finite = [x0, y0, r0, x1, y1, r1].iter().all(|v| v.is_finite());
            if !all_finite || r0 < 0.0 || r1 <= 0.0 || (x0 == x1 && y0 == y1 && r0 == r1) {
                return None;
            }
            let g = paint::RadialGradient {
                fx: x0,
                fy: y0,
                fr: r0,
                cx: x1,
                cy: y1,
                cr: r1,
                transform: krilla::geom::Transform::identity(),
                spread_method: SpreadMethod::Pad,
                stops: stops(s),
                anti_alias: false,
            };
            Some((g.into(), NormalizedF32::ONE))
        }
    }
}

fn pdf_fill(p: &Paint) -> Option<Fill> {
    if p.is_invisible() {
        return None;
    }
    let (paint, opacity) = pdf_paint(p)?;
    Some(Fill {
        paint,
        opacity,
        rule: FillRule::NonZero,
    })
}

fn pdf_stroke(s: &Stroke, p: &Paint) -> Option<paint::Stroke> {
    if p.is_invisible() {
        return None;
    }
    let (paint, opacity) = pdf_paint(p)?;
    Some(paint::Stroke {
        paint,
        width: s.width,
        miter_limit: s.miter_limit.max(1.0),
        line_cap: match s.cap {
            LineCap::Butt => paint::LineCap::Butt,
            LineCap::Round => paint::LineCap::Round,
            LineCap::Square => paint::LineCap::Square,
        },
        line_join: match s.join {
            LineJoin::Miter => paint::LineJoin::Miter,
            LineJoin::Round => paint::LineJoin::Round,
            LineJoin::Bevel => paint::LineJoin::Bevel,
        },
        opacity,
        dash: dash_pattern(s).map(|array| StrokeDash {
            array,
            offset: if s.dash_offset.is_finite() {
                s.dash_offset
            } else {
                0.0
            },
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{TextAlign, TextBaseline};

    fn pdf(items: Vec<Item>) -> Vec<u8> {
        let scene = Scene {
            width: 200.0,
            height: 100.0,
            device_pixel_ratio: 2.0,
            background: Rgba::WHITE,
            items,
        };
        write(&scene, &TextEngine::system(), &|| false, MAX_CONTENT).unwrap()
    }

    const MAX_CONTENT: usize = chart_spec::Limits::DEFAULT_MAX_PDF_CONTENT;

    #[test]
    fn a_page_of_the_canvas_size_in_points() {
        let out = pdf(vec![Item::PopClip]);
        assert!(out.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("/MediaBox[0 0 150 75]"), "{text}");
    }

    #[test]
    fn unbalanced_clips_and_broken_items_still_make_a_document() {
        let mut p = Path::new();
        p.rect(0.0, 0.0, 10.0, 10.0);
        let out = pdf(vec![
            Item::PushClip {
                path: p.clone(),
                transform: Transform::IDENTITY,
            },
            Item::PushClip {
                path: Path::new(),
                transform: Transform {
                    a: f32::NAN,
                    ..Transform::IDENTITY
                },
            },
            Item::Fill {
                path: p,
                paint: Paint::LinearGradient {
                    x0: 1.0,
                    y0: 1.0,
                    x1: 1.0,
                    y1: 1.0,
                    stops: vec![(0.0, Rgba::BLACK)],
                },
                transform: Transform::IDENTITY,
            },
            Item::Text(Box::new(TextItem {
                text: "x".repeat(10_000),
                x: 0.0,
                y: 50.0,
                font: chart_spec::font::FontSpec::default(),
                paint: Paint::Solid(Rgba::BLACK),
                align: TextAlign::Left,
                baseline: TextBaseline::Alphabetic,
                direction: Default::default(),
                transform: Transform::IDENTITY,
                stroke: None,
            })),
        ]);
        assert!(out.starts_with(b"%PDF-"));
        // 10,000 letters, of which the page shows a few dozen: the file stays small.
        assert!(out.len() < 60_000, "{} bytes", out.len());
    }

    #[test]
    fn shadows_are_drawn_under_their_item() {
        let mut p = Path::new();
        p.rect(10.0, 10.0, 20.0, 20.0);
        let item = |shadowed: bool| {
            let fill = Item::Fill {
                path: p.clone(),
                paint: Paint::Solid(Rgba::rgb(255, 0, 0)),
                transform: Transform::IDENTITY,
            };
            if !shadowed {
                return fill;
            }
            Item::Shadowed {
                shadow: crate::scene::Shadow {
                    color: Rgba::rgb(0, 0, 255),
                    blur: 6.0,
                    offset_x: 8.0,
                    offset_y: 8.0,
                },
                item: Box::new(fill),
            }
        };
        let plain = pdf(vec![item(false)]);
        let shadowed = pdf(vec![item(true)]);
        assert!(shadowed.starts_with(b"%PDF-"));
        // The shadow's copy and halo make the page's content longer.
        assert!(
            shadowed.len() > plain.len() + 50,
            "{} vs {}",
            shadowed.len(),
            plain.len()
        );
    }

    #[test]
    fn a_cancelled_write_stops() {
        let scene = Scene {
            width: 10.0,
            height: 10.0,
            device_pixel_ratio: 1.0,
            background: Rgba::WHITE,
            items: vec![Item::PopClip],
        };
        let r = write(&scene, &TextEngine::system(), &|| true, MAX_CONTENT);
        assert!(matches!(r, Err(VectorError::Cancelled)));
    }

    /// `n` strokes of a 50-point zigzag across a 400x300 page: 51 units of content each.
    fn zigzags(n: usize) -> Scene {
        let items = (0..n)
            .map(|i| {
                let mut p = Path::new();
                p.move_to(0.0, (i % 300) as f32);
                for k in 1..50 {
                    p.line_to(k as f32 * 8.0, ((i * 7 + k * 13) % 300) as f32);
                }
                Item::Stroke {
                    path: p,
                    paint: Paint::Solid(Rgba::BLACK),
                    stroke: Stroke::default(),
                    transform: Transform::IDENTITY,
                }
            })
            .collect();
        Scene {
            width: 400.0,
            height: 300.0,
            device_pixel_ratio: 1.0,
            background: Rgba::WHITE,
            items,
        }
    }

    #[test]
    fn a_page_over_its_content_budget_is_refused() {
        let scene = zigzags(200);
        let text = TextEngine::system();
        // 200 items of 50 points each, and the background's rectangle (5 points).
        assert!(write(&scene, &text, &|| false, 200 * 51 + 5).is_ok());
        let r = write(&scene, &text, &|| false, 200 * 51 + 4).err();
        assert!(matches!(r, Some(VectorError::OverBudget(10_204))), "{r:?}");
        // A page far over it stops being written at the next poll.
        let polls = std::cell::Cell::new(0);
        let r = write(
            &zigzags(20_000),
            &text,
            &|| {
                polls.set(polls.get() + 1);
                false
            },
            1_000,
        )
        .err();
        assert!(matches!(r, Some(VectorError::OverBudget(1_000))), "{r:?}");
        assert!(polls.get() <= 2, "{} polls", polls.get());
    }

    #[test]
    fn a_deadline_after_the_last_poll_is_not_overrun_by_the_compression() {
        // The deadline passes just after the writer's last poll among the items, the worst
        // moment: krilla would then deflate the page of 20,000 strokes (about a million
        // points) in one call that cannot be stopped, about a third of the work of writing
        // it. Measured loosely: what runs after the deadline must be far less than what ran
        // before it (the 32 items after the last poll are 0.2% of it; the old code ran twice
        // as long after it as before). A quarter leaves room for a loaded machine.
        let scene = zigzags(20_000);
        let last_poll = (scene.items.len() - 1) / POLL_EVERY;
        let start = std::time::Instant::now();
        let polls = std::cell::Cell::new(0);
        let deadline = std::cell::Cell::new(None);
        let stop = || {
            polls.set(polls.get() + 1);
            if polls.get() == last_poll + 1 {
                deadline.set(Some(std::time::Instant::now()));
            }
            deadline.get().is_some()
        };
        let r = write(&scene, &TextEngine::system(), &stop, usize::MAX).err();
        let end = std::time::Instant::now();
        assert!(matches!(r, Some(VectorError::Cancelled)), "{r:?}");
        let deadline = deadline.get().expect("the deadline passed while writing");
        let (before, after) = (deadline - start, end - deadline);
        assert!(
            after < before / 4,
            "{after:?} after the deadline, {before:?} before it"
        );
    }
}
