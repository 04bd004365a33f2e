//! Chart elements (points, bars, lines, arcs), what each dataset draws after its update
//! ([`dataset`]), and [`Ctx`], a canvas-2D-like writer of scene items, so drawing code reads
//! like the Chart.js canvas calls it reproduces.
//!
//! Geometry is computed in `f64` like JavaScript and converted to the scene's `f32` only when
//! an item is emitted.

pub mod arc;
pub mod bar;
pub(crate) mod bounds;
pub mod dataset;
pub mod geometry;
pub mod line;
pub mod point;

use crate::scene::{
    Item, ItemList, LineCap, LineJoin, Paint, Path, Shadow, Stroke, TextAlign, TextBaseline,
    TextDirection, TextItem, Transform,
};
use crate::text::TextEngine;
use chart_spec::values::Font;
use chart_spec::Rgba;

/// A chart area or clip rectangle, CSS px.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Area {
    /// Left edge.
    pub left: f64,
    /// Top edge.
    pub top: f64,
    /// Right edge.
    pub right: f64,
    /// Bottom edge.
    pub bottom: f64,
}

impl Area {
    /// `right - left`.
    pub fn width(&self) -> f64 {
        self.right - self.left
    }
    /// `bottom - top`.
    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

/// A path under construction in `f64`, converted to a scene [`Path`] on use.
#[derive(Debug, Clone, Default)]
pub struct P {
    path: Path,
}

impl P {
    /// `beginPath()`.
    pub fn new() -> Self {
        Self::default()
    }
    /// `moveTo`.
    pub fn move_to(&mut self, x: f64, y: f64) {
        self.path.move_to(x as f32, y as f32);
    }
    /// `lineTo`.
    pub fn line_to(&mut self, x: f64, y: f64) {
        self.path.line_to(x as f32, y as f32);
    }
    /// `bezierCurveTo`.
    pub fn cubic_to(&mut self, a: f64, b: f64, c: f64, d: f64, x: f64, y: f64) {
        self.path
            .cubic_to(a as f32, b as f32, c as f32, d as f32, x as f32, y as f32);
    }
    /// `arc`.
    pub fn arc(&mut self, x: f64, y: f64, r: f64, start: f64, end: f64, ccw: bool) {
        self.path
            .arc(x as f32, y as f32, r as f32, start as f32, end as f32, ccw);
    }
    /// `rect`.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64) {
        self.path.rect(x as f32, y as f32, w as f32, h as f32);
    }
    /// `closePath`.
    pub fn close(&mut self) {
        self.path.close();
    }
    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.path.is_empty()
    }
    /// The scene path.
    pub fn into_path(self) -> Path {
        self.path
    }
    /// The scene path holding no more room than its commands, as a copy of it would: what
    /// an item holds counts against the scene budget ([`Item::footprint`]), which must not
    /// depend on whether the path was moved or copied into it.
    fn into_exact_path(self) -> Path {
        let mut path = self.path;
        if path.cmds.capacity() != path.cmds.len() {
            path.cmds.shrink_to_fit();
        }
        path
    }
}

impl From<Path> for P {
    fn from(path: Path) -> Self {
        Self { path }
    }
}

/// Stroke style as the canvas state holds it.
#[derive(Debug, Clone)]
pub struct StrokeStyle {
    /// `lineWidth`.
    pub width: f64,
    /// `strokeStyle`.
    pub color: Rgba,
    /// `lineCap`.
    pub cap: LineCap,
    /// `lineJoin`.
    pub join: LineJoin,
    /// `setLineDash`.
    pub dash: Vec<f64>,
    /// `lineDashOffset`.
    pub dash_offset: f64,
}

impl StrokeStyle {
    /// A solid stroke of a width and colour with canvas defaults otherwise.
    pub fn new(width: f64, color: Rgba) -> Self {
        Self {
            width,
            color,
            cap: LineCap::Butt,
            join: LineJoin::Miter,
            dash: Vec::new(),
            dash_offset: 0.0,
        }
    }
    fn to_scene(&self) -> Stroke {
        Stroke {
            width: self.width as f32,
            cap: self.cap,
            join: self.join,
            miter_limit: 10.0,
            dash: self.dash.iter().map(|d| *d as f32).collect(),
            dash_offset: self.dash_offset as f32,
        }
    }
}

/// The canvas-like writer: a transform stack and the scene being built.
pub struct Ctx<'a> {
    /// Items are appended here (within the scene budget, until the render is cancelled).
    pub items: &'a mut ItemList,
    /// Text measuring.
    pub text: &'a TextEngine,
    pub(crate) transform: Transform,
    /// The shadow state (`shadowColor`, `shadowBlur`, `shadowOffsetX/Y`), when visible.
    shadow: Option<Shadow>,
    saved: Vec<(Transform, usize, Option<Shadow>)>,
    clips: usize,
    /// The canvas element's CSS `direction`, which the context's `direction = 'inherit'`
    /// (the default, never changed by Chart.js) follows. It is no part of the 2D state:
    /// `save`/`restore` leave it.
    direction: TextDirection,
}

impl<'a> Ctx<'a> {
    /// A writer appending to `items`.
    pub fn new(items: &'a mut ItemList, text: &'a TextEngine) -> Self {
        Self {
            items,
            text,
            transform: Transform::IDENTITY,
            shadow: None,
            saved: Vec::new(),
            clips: 0,
            direction: TextDirection::Ltr,
        }
    }

    /// Sets the canvas element's `direction` style (`overrideTextDirection` in Chart.js's
    /// helpers.rtl): text drawn afterwards is ordered with this base direction.
    pub fn set_direction(&mut self, direction: TextDirection) {
        self.direction = direction;
    }

    /// `textAlign = 'start'` (or `'end'` when `end`) as the canvas resolves it: the left
    /// side in a left-to-right canvas, the right side in a right-to-left one.
    pub fn logical_align(&self, end: bool) -> TextAlign {
        match (self.direction, end) {
            (TextDirection::Ltr, false) | (TextDirection::Rtl, true) => TextAlign::Left,
            _ => TextAlign::Right,
        }
    }

    /// The canvas's current text direction.
    pub fn direction(&self) -> TextDirection {
        self.direction
    }

    /// Nothing more will be drawn (the scene budget is spent or the render cancelled): long
    /// drawing loops poll this and end.
    pub fn stopped(&mut self) -> bool {
        self.items.stopped()
    }

    /// `ctx.save()`.
    pub fn save(&mut self) {
        self.saved.push((self.transform, self.clips, self.shadow));
    }

    /// Sets the canvas shadow state; an invisible shadow (`Shadow::is_visible`) is none.
    pub fn set_shadow(&mut self, shadow: Shadow) {
        self.shadow = shadow.is_visible().then_some(shadow);
    }

    /// Appends `item`, under the current shadow when there is one.
    fn push_shadowed(&mut self, item: Item) {
        match self.shadow {
            Some(shadow) => self.items.push(Item::Shadowed {
                shadow,
                item: Box::new(item),
            }),
            None => self.items.push(item),
        }
    }

    /// `ctx.restore()`: pops the transform and every clip pushed since the save.
    pub fn restore(&mut self) {
        if let Some((t, clips, shadow)) = self.saved.pop() {
            self.transform = t;
            self.shadow = shadow;
            while self.clips > clips {
                self.items.push(Item::PopClip);
                self.clips -= 1;
            }
        }
    }

    /// `ctx.translate`.
    pub fn translate(&mut self, x: f64, y: f64) {
        self.transform = self
            .transform
            .then(Transform::translate(x as f32, y as f32));
    }

    /// `ctx.rotate`.
    pub fn rotate(&mut self, angle: f64) {
        if angle != 0.0 {
            self.transform = self.transform.then(Transform::rotate(angle as f32));
        }
    }

    /// `ctx.clip()` with a path (inside a save/restore pair).
    pub fn clip(&mut self, p: P) {
        self.items.push(Item::PushClip {
            path: p.into_path(),
            transform: self.transform,
        });
        self.clips += 1;
    }

    /// `clipArea` in helpers.canvas: save, then clip to a rectangle.
    pub fn clip_area(&mut self, a: Area) {
        self.save();
        let mut p = P::new();
        p.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
        self.clip(p);
    }

    /// `unclipArea`.
    pub fn unclip_area(&mut self) {
        self.restore();
    }

    /// `ctx.fill()` with a colour.
    pub fn fill(&mut self, p: &P, color: Rgba) {
        self.fill_paint(p, Paint::Solid(color));
    }

    /// `ctx.fill()` with any paint.
    pub fn fill_paint(&mut self, p: &P, paint: Paint) {
        if p.is_empty() || paint.is_invisible() {
            return;
        }
        self.push_shadowed(Item::Fill {
            path: p.path.clone(),
            paint,
            transform: self.transform,
        });
    }

    /// `ctx.fill()` with a colour of a path not used afterwards: the path moves into the
    /// item rather than being copied (a point marker's, once per point of a scatter chart).
    pub fn fill_owned(&mut self, p: P, color: Rgba) {
        let paint = Paint::Solid(color);
        if p.is_empty() || paint.is_invisible() {
            return;
        }
        self.push_shadowed(Item::Fill {
            path: p.into_exact_path(),
            paint,
            transform: self.transform,
        });
    }

    /// `ctx.stroke()`.
    pub fn stroke(&mut self, p: &P, style: &StrokeStyle) {
        if Self::strokes(p, style) {
            self.push_stroke(p.path.clone(), style);
        }
    }

    /// `ctx.stroke()` of a path not used afterwards: it moves into the item (see
    /// [`Ctx::fill_owned`]).
    pub fn stroke_owned(&mut self, p: P, style: &StrokeStyle) {
        if Self::strokes(&p, style) {
            self.push_stroke(p.into_exact_path(), style);
        }
    }

    /// A stroke of `style` along `p` paints something.
    fn strokes(p: &P, style: &StrokeStyle) -> bool {
        !(p.is_empty()
            || style.color.is_transparent()
            || style.width.is_nan()
            || style.width <= 0.0)
    }

    fn push_stroke(&mut self, path: Path, style: &StrokeStyle) {
        self.push_shadowed(Item::Stroke {
            path,
            paint: Paint::Solid(style.color),
            stroke: style.to_scene(),
            transform: self.transform,
        });
    }

    /// `ctx.fillRect`.
    pub fn fill_rect(&mut self, x: f64, y: f64, w: f64, h: f64, color: Rgba) {
        let mut p = P::new();
        p.rect(x, y, w, h);
        self.fill(&p, color);
    }

    /// `ctx.measureText(s).width`.
    pub fn measure(&self, font: &Font, s: &str) -> f64 {
        f64::from(self.text.measure(&font.spec, s))
    }

    /// `ctx.fillText` (and `strokeText` first when a stroke is given).
    #[allow(clippy::too_many_arguments)]
    pub fn fill_text(
        &mut self,
        s: &str,
        x: f64,
        y: f64,
        font: &Font,
        color: Rgba,
        align: TextAlign,
        baseline: TextBaseline,
        stroke: Option<(f64, Rgba)>,
    ) {
        self.push_shadowed(Item::Text(Box::new(TextItem {
            text: s.to_string(),
            x: x as f32,
            y: y as f32,
            font: font.spec.clone(),
            paint: Paint::Solid(color),
            align,
            baseline,
            direction: self.direction,
            transform: self.transform,
            stroke: stroke.map(|(w, c)| (StrokeStyle::new(w, c).to_scene(), Paint::Solid(c))),
        })));
    }
}

/// Options of `renderText` (helpers.canvas).
#[derive(Debug, Clone)]
pub struct TextOpts {
    /// `translation`.
    pub translation: Option<(f64, f64)>,
    /// `rotation`, radians.
    pub rotation: f64,
    /// Fill colour.
    pub color: Rgba,
    /// `textAlign`.
    pub align: TextAlign,
    /// `textBaseline`.
    pub baseline: TextBaseline,
    /// `strokeWidth`/`strokeColor`.
    pub stroke: Option<(f64, Rgba)>,
    /// `strikethrough` (hidden legend items).
    pub strikethrough: bool,
    /// Backdrop rectangle `(left, top, width, height, colour)`.
    pub backdrop: Option<(f64, f64, f64, f64, Rgba)>,
    /// `maxWidth` of `fillText`: wider text is condensed horizontally to fit.
    pub max_width: Option<f64>,
}

impl TextOpts {
    /// Plain text of a colour, left/alphabetic like a fresh canvas.
    pub fn new(color: Rgba) -> Self {
        Self {
            translation: None,
            rotation: 0.0,
            color,
            align: TextAlign::Left,
            baseline: TextBaseline::Alphabetic,
            stroke: None,
            strikethrough: false,
            backdrop: None,
            max_width: None,
        }
    }
}

/// Mirrors `renderText` in helpers.canvas: one `fillText` per line, `lineHeight` apart.
pub fn render_text(ctx: &mut Ctx<'_>, lines: &[String], x: f64, y: f64, font: &Font, o: &TextOpts) {
    ctx.save();
    if let Some((tx, ty)) = o.translation {
        ctx.translate(tx, ty);
    }
    ctx.rotate(o.rotation);
    let mut y = y;
    for line in lines {
        if let Some((l, t, w, h, c)) = o.backdrop {
            ctx.fill_rect(l, t, w, h, c);
        }
        let saved = ctx.transform;
        if let Some(mw) = o.max_width {
            // fillText(text, x, y, maxWidth): a canvas scales wider text horizontally about
            // the anchor.
            let w = ctx.measure(font, line);
            if w > mw && mw > 0.0 && ctx.text.honours_max_width() {
                let s = mw / w;
                ctx.transform = ctx
                    .transform
                    .then(Transform::translate(x as f32, y as f32))
                    .then(Transform {
                        a: s as f32,
                        b: 0.0,
                        c: 0.0,
                        d: 1.0,
                        e: 0.0,
                        f: 0.0,
                    })
                    .then(Transform::translate(-x as f32, -y as f32));
            }
        }
        ctx.fill_text(line, x, y, font, o.color, o.align, o.baseline, o.stroke);
        ctx.transform = saved;
        if o.strikethrough {
            decorate_strikethrough(ctx, x, y, line, font, o);
        }
        y += font.line_height;
    }
    ctx.restore();
}

/// `decorateText` with `strikethrough`: a 2px line through the middle of the text's box.
/// The ink box is approximated from the advance width and the font size (ascent ≈ 0.7 size
/// above the baseline for Latin text).
fn decorate_strikethrough(
    ctx: &mut Ctx<'_>,
    x: f64,
    y: f64,
    line: &str,
    font: &Font,
    o: &TextOpts,
) {
    let w = ctx.measure(font, line);
    let left = match o.align {
        TextAlign::Left => x,
        TextAlign::Center => x - w / 2.0,
        TextAlign::Right => x - w,
    };
    let (asc, desc) = (font.size * 0.716, 0.0);
    let (top, bottom) = match o.baseline {
        TextBaseline::Middle => (y - (asc + desc) / 2.0, y + (asc + desc) / 2.0),
        TextBaseline::Top | TextBaseline::Hanging => (y, y + asc),
        _ => (y - asc, y + desc),
    };
    let yd = (top + bottom) / 2.0;
    let mut p = P::new();
    p.move_to(left, yd);
    p.line_to(left + w, yd);
    ctx.stroke(&p, &StrokeStyle::new(2.0, o.color));
}

/// Appends `addRoundedRectPath` of helpers.canvas, or a plain rectangle without radius;
/// `reverse` walks it the other way round, so that inside another rectangle it makes an
/// even-odd hole under the non-zero rule.
pub fn rect_path(p: &mut P, x: f64, y: f64, w: f64, h: f64, r: [f64; 4], reverse: bool) {
    use std::f64::consts::{FRAC_PI_2, PI};
    let [tl, tr, bl, br] = r;
    if !reverse {
        if r.iter().all(|v| *v == 0.0) {
            p.rect(x, y, w, h);
            return;
        }
        crate::elements::bar::add_rounded_rect_path(p, x, y, w, h, tl, tr, bl, br);
        p.close();
        return;
    }
    if r.iter().all(|v| *v == 0.0) {
        // `rect()` runs clockwise on screen; the hole runs counter-clockwise.
        p.move_to(x, y);
        p.line_to(x, y + h);
        p.line_to(x + w, y + h);
        p.line_to(x + w, y);
        p.close();
        return;
    }
    // `addRoundedRectPath` runs counter-clockwise on screen; the hole runs clockwise: top
    // edge left to right, then down the right side.
    p.move_to(x + tl, y);
    p.line_to(x + w - tr, y);
    if tr > 0.0 {
        p.arc(x + w - tr, y + tr, tr, -FRAC_PI_2, 0.0, false);
    }
    p.line_to(x + w, y + h - br);
    if br > 0.0 {
        p.arc(x + w - br, y + h - br, br, 0.0, FRAC_PI_2, false);
    }
    p.line_to(x + bl, y + h);
    if bl > 0.0 {
        p.arc(x + bl, y + h - bl, bl, FRAC_PI_2, PI, false);
    }
    p.line_to(x, y + tl);
    if tl > 0.0 {
        p.arc(x + tl, y + tl, tl, PI, 1.5 * PI, false);
    }
    p.close();
}

/// Mirrors `_alignPixel` in helpers.canvas: snaps a line of `width` to device pixels.
pub fn align_pixel(dpr: f64, pixel: f64, width: f64) -> f64 {
    let half = if width != 0.0 {
        (width / 2.0).max(0.5)
    } else {
        0.0
    };
    js_round((pixel - half) * dpr) / dpr + half
}

/// JavaScript `Math.round`: halves round towards +∞.
pub fn js_round(v: f64) -> f64 {
    (v + 0.5).floor()
}
