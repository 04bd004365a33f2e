//! The display list: what a chart draws, in CSS pixels, independent of any rasteriser.
//!
//! Items are painted in order, like calls on a canvas 2D context. Layout and scene building
//! never touch tiny-skia; the `raster` module turns a [`Scene`] into pixels, and an SVG or PDF
//! writer could consume the same list.

use chart_spec::font::FontSpec;
pub use chart_spec::model::TextDirection;
use chart_spec::{Cancel, Rgba};
use std::f32::consts::{PI, TAU};

/// A whole chart, ready to rasterise.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Canvas width in CSS px.
    pub width: f32,
    /// Canvas height in CSS px.
    pub height: f32,
    /// Device pixel ratio applied by the rasteriser (Chart.js scales the context by it).
    pub device_pixel_ratio: f32,
    /// Painted first over the whole canvas (the render's `backgroundColor`).
    pub background: Rgba,
    /// Drawing operations, in paint order.
    pub items: Vec<Item>,
}

impl Scene {
    /// The bytes its display list holds: the list's buffer and what its items hold
    /// ([`Item::footprint`]), what `MAX_SCENE_ITEMS` bounds.
    pub fn bytes(&self) -> usize {
        let owned: usize = self.items.iter().map(Item::footprint).sum();
        owned + (self.items.capacity() - self.items.len()) * ITEM_SLOT
    }
}

/// The display list while a chart is drawn: the one place items are added, so the
/// `MAX_SCENE_ITEMS` budget and the render's [`Cancel`] are kept here. Past the budget, or
/// once the render is cancelled, pushes are refused and [`ItemList::stopped`] tells the
/// drawing loops to end.
///
/// The budget bounds the list's memory: `MAX_SCENE_ITEMS` × [`ItemList::BYTES_PER_ITEM`]
/// bytes, against which every item counts its [`Item::footprint`] (its slot, its path's
/// commands, dashes, gradient stops, text and boxes) and the list its buffer, grown here so
/// that the old and the new buffer held together while it moves stay within it too. A
/// count of items did not bound it: an item is a path of any length (a radar of 100,000
/// labels with 1,000 ticks built 1,000 grid polygons of 100,000 points, 1.8 GB), and one
/// more item per 8 commands still let 16 million commands through (450 MB).
#[derive(Debug)]
pub struct ItemList {
    items: Vec<Item>,
    /// Bytes the items hold outside the list's buffer.
    heap: usize,
    max_bytes: usize,
    over: bool,
    cancel: Cancel,
    cancelled: bool,
}

impl ItemList {
    /// Pushes between polls of the [`Cancel`] (a poll is an atomic load, an item a path).
    const POLL_EVERY: usize = 64;
    /// Bytes of display list per item of `MAX_SCENE_ITEMS`: the default 2,000,000 items
    /// bound a scene to 256 MB. A scatter point is two items (fill and stroke) of 304
    /// bytes each (the item and its circle's 6 commands), so the 250,000 points of
    /// `MAX_POINTS` need 155 MB with the list's buffer, and a radar of 100,000 labels and
    /// points with its point labels 191 MB: 128 MB would refuse them.
    pub const BYTES_PER_ITEM: usize = 128;
    /// Lists expecting fewer items than this many more grow as they go
    /// ([`ItemList::reserve`] is for the tens of thousands); also the room reserved beyond
    /// the expected items.
    pub const RESERVE_FROM: usize = 256;

    /// A list of at most `max` items' worth of memory ([`Self::BYTES_PER_ITEM`] each),
    /// stopping when `cancel` fires.
    pub fn new(max: usize, cancel: Cancel) -> Self {
        Self {
            items: Vec::new(),
            heap: 0,
            max_bytes: max.saturating_mul(Self::BYTES_PER_ITEM),
            over: false,
            cancel,
            cancelled: false,
        }
    }

    /// A list without budget or cancel (tests, single elements).
    pub fn unbounded() -> Self {
        Self::new(usize::MAX, Cancel::new())
    }

    /// Appends an item, unless the budget is spent or the render cancelled.
    pub fn push(&mut self, item: Item) {
        if self.over || self.cancelled {
            return;
        }
        let (len, capacity) = (self.items.len(), self.items.capacity());
        // A full buffer doubles (as `Vec` grows) here, so that its size is known; the old
        // and the new buffer both exist while the items move.
        let grow = (len == capacity).then(|| (2 * capacity).max(4));
        let buffers = capacity + grow.unwrap_or(0);
        let heap = self.heap.saturating_add(item.footprint() - ITEM_SLOT);
        if heap.saturating_add(buffers.saturating_mul(ITEM_SLOT)) > self.max_bytes {
            self.over = true;
            return;
        }
        if len.is_multiple_of(Self::POLL_EVERY) && self.cancel.is_cancelled() {
            self.cancelled = true;
            return;
        }
        if let Some(grown) = grow {
            self.items.reserve_exact(grown - len);
        }
        self.heap = heap;
        self.items.push(item);
    }

    /// Makes room for `additional` more items at once, so that a list of tens of thousands
    /// of items (a scatter's points) is not moved to a buffer twice as large again and again
    /// while it grows. A hint only: nothing is reserved unless the old and the new buffer,
    /// and as many bytes again for what the new items hold, fit in half the budget, so that
    /// where the budget refuses a scene stays a matter of the items themselves; past the
    /// reserved room the list grows as before.
    pub fn reserve(&mut self, additional: usize) {
        let (len, capacity) = (self.items.len(), self.items.capacity());
        let want = len.saturating_add(additional);
        if want <= capacity || self.over || self.cancelled {
            return;
        }
        let slots = capacity.saturating_add(want).saturating_add(additional);
        if self.heap.saturating_add(slots.saturating_mul(ITEM_SLOT)) > self.max_bytes / 2 {
            return;
        }
        self.items.reserve_exact(want - len);
    }

    /// The bytes the list holds: its buffer and what its items hold beyond it.
    pub fn bytes(&self) -> usize {
        self.heap + self.items.capacity() * ITEM_SLOT
    }

    /// The budget was exceeded: an item was refused.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Nothing more will be added (budget spent or render cancelled): drawing loops end.
    pub fn stopped(&mut self) -> bool {
        if !self.cancelled && self.cancel.is_cancelled() {
            self.cancelled = true;
        }
        self.over || self.cancelled
    }

    /// The items, in paint order.
    pub fn into_items(self) -> Vec<Item> {
        self.items
    }
}

impl std::ops::Deref for ItemList {
    type Target = [Item];
    fn deref(&self) -> &[Item] {
        &self.items
    }
}

impl std::ops::DerefMut for ItemList {
    fn deref_mut(&mut self) -> &mut [Item] {
        &mut self.items
    }
}

/// One drawing operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `ctx.fill()` with the non-zero rule.
    Fill {
        /// The outline, in the coordinates `transform` maps to device pixels.
        path: Path,
        /// What fills it.
        paint: Paint,
        /// The context transform at the time of the call.
        transform: Transform,
    },
    /// `ctx.stroke()`.
    Stroke {
        /// The line, in the coordinates `transform` maps to device pixels.
        path: Path,
        /// What colours the stroke.
        paint: Paint,
        /// Width, caps, joins and dashes.
        stroke: Stroke,
        /// The context transform at the time of the call.
        transform: Transform,
    },
    /// `ctx.fillText()` (or `strokeText` when `stroke` is set). Boxed: the largest variant
    /// would otherwise set the size of every item (a scatter of 250,000 points is 500,000
    /// fills and strokes).
    Text(Box<TextItem>),
    /// `ctx.save(); ctx.clip(path)`: later items are clipped until the matching [`Item::PopClip`].
    PushClip {
        /// The clip region.
        path: Path,
        /// The context transform at the time of the call.
        transform: Transform,
    },
    /// `ctx.restore()` of the last [`Item::PushClip`].
    PopClip,
    /// A fill, stroke or text drawn while the context has a visible shadow
    /// (`shadowColor`, `shadowBlur`, `shadowOffsetX/Y`): the shadow is painted first, then
    /// `item`. Boxed like [`Item::Text`]; only fills, strokes and text are drawn inside.
    Shadowed {
        /// The shadow state of the context.
        shadow: Shadow,
        /// What casts it (and is drawn over it).
        item: Box<Item>,
    },
}

/// Bytes of one item in a list (its enum slot).
const ITEM_SLOT: usize = std::mem::size_of::<Item>();

impl Item {
    /// The commands of the path the item holds (a shadowed item's), none for text.
    pub fn path_cmds(&self) -> usize {
        match self {
            Item::Fill { path, .. } | Item::Stroke { path, .. } | Item::PushClip { path, .. } => {
                path.cmds.len()
            }
            Item::Shadowed { item, .. } => item.path_cmds(),
            Item::Text(_) | Item::PopClip => 0,
        }
    }

    /// The bytes the item holds: its slot and what it owns (a path's commands as
    /// allocated, dashes, gradient stops, a text's box, string and font family, a shadowed
    /// item's box). What the scene budget counts.
    pub fn footprint(&self) -> usize {
        ITEM_SLOT + self.owned_bytes()
    }

    fn owned_bytes(&self) -> usize {
        let path = |p: &Path| p.cmds.capacity() * std::mem::size_of::<PathCmd>();
        let dash = |s: &Stroke| s.dash.capacity() * std::mem::size_of::<f32>();
        match self {
            Item::Fill { path: p, paint, .. } => path(p) + paint.owned_bytes(),
            Item::Stroke {
                path: p,
                paint,
                stroke,
                ..
            } => path(p) + paint.owned_bytes() + dash(stroke),
            Item::PushClip { path: p, .. } => path(p),
            Item::PopClip => 0,
            Item::Text(t) => {
                std::mem::size_of::<TextItem>()
                    + t.text.capacity()
                    + t.font.family.capacity()
                    + t.paint.owned_bytes()
                    + t.stroke
                        .as_ref()
                        .map_or(0, |(s, p)| dash(s) + p.owned_bytes())
            }
            // Only fills, strokes and text are shadowed: one level.
            Item::Shadowed { item, .. } => item.footprint(),
        }
    }
}

/// The canvas shadow state. As the HTML canvas spec says, the offset and the blur are in the
/// bitmap's pixels, untouched by the current transform (and so by Chart.js's `scale(dpr)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shadow {
    /// `shadowColor`.
    pub color: Rgba,
    /// `shadowBlur`: the Gaussian's standard deviation is half of it.
    pub blur: f32,
    /// `shadowOffsetX`, device px.
    pub offset_x: f32,
    /// `shadowOffsetY`, device px.
    pub offset_y: f32,
}

impl Shadow {
    /// The canvas draws shadows only when the colour is not transparent and the blur or an
    /// offset is non-zero (HTML spec, "Shadows"); a non-finite or negative value is ignored
    /// by the setters, as 0 here.
    pub fn is_visible(&self) -> bool {
        let set = |v: f32| v.is_finite() && v != 0.0;
        !self.color.is_transparent()
            && ((self.blur.is_finite() && self.blur > 0.0)
                || set(self.offset_x)
                || set(self.offset_y))
    }
}

/// How a shape is coloured.
#[derive(Debug, Clone, PartialEq)]
pub enum Paint {
    /// A plain colour.
    Solid(Rgba),
    /// `createLinearGradient(x0, y0, x1, y1)` with colour stops in 0..=1.
    LinearGradient {
        /// Start x.
        x0: f32,
        /// Start y.
        y0: f32,
        /// End x.
        x1: f32,
        /// End y.
        y1: f32,
        /// `(offset, colour)`, offsets in 0..=1.
        stops: Vec<(f32, Rgba)>,
    },
    /// `createRadialGradient(x0, y0, r0, x1, y1, r1)` with colour stops in 0..=1.
    RadialGradient {
        /// Start circle's centre x.
        x0: f32,
        /// Start circle's centre y.
        y0: f32,
        /// Start circle's radius.
        r0: f32,
        /// End circle's centre x.
        x1: f32,
        /// End circle's centre y.
        y1: f32,
        /// End circle's radius.
        r1: f32,
        /// `(offset, colour)`, offsets in 0..=1.
        stops: Vec<(f32, Rgba)>,
    },
}

impl Paint {
    /// Bytes of its gradient's stops.
    fn owned_bytes(&self) -> usize {
        match self {
            Paint::Solid(_) => 0,
            Paint::LinearGradient { stops, .. } | Paint::RadialGradient { stops, .. } => {
                stops.capacity() * std::mem::size_of::<(f32, Rgba)>()
            }
        }
    }

    /// True when painting with it changes no pixel.
    pub fn is_invisible(&self) -> bool {
        match self {
            Paint::Solid(c) => c.is_transparent(),
            Paint::LinearGradient { stops, .. } | Paint::RadialGradient { stops, .. } => {
                stops.iter().all(|(_, c)| c.is_transparent())
            }
        }
    }
}

/// `lineCap`. Canvas default: butt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineCap {
    /// `butt`.
    #[default]
    Butt,
    /// `round`.
    Round,
    /// `square`.
    Square,
}

/// `lineJoin`. Canvas default: miter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineJoin {
    /// `miter`.
    #[default]
    Miter,
    /// `round`.
    Round,
    /// `bevel`.
    Bevel,
}

/// Stroke parameters of the canvas context.
#[derive(Debug, Clone, PartialEq)]
pub struct Stroke {
    /// `lineWidth`, CSS px. Canvas default: 1.
    pub width: f32,
    /// `lineCap`.
    pub cap: LineCap,
    /// `lineJoin`.
    pub join: LineJoin,
    /// `miterLimit`. Canvas default: 10.
    pub miter_limit: f32,
    /// `setLineDash()`; empty is solid.
    pub dash: Vec<f32>,
    /// `lineDashOffset`.
    pub dash_offset: f32,
}

impl Default for Stroke {
    fn default() -> Self {
        Self {
            width: 1.0,
            cap: LineCap::Butt,
            join: LineJoin::Miter,
            miter_limit: 10.0,
            dash: Vec::new(),
            dash_offset: 0.0,
        }
    }
}

/// `textAlign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextAlign {
    /// `left` (and `start` in a left-to-right canvas).
    #[default]
    Left,
    /// `center`.
    Center,
    /// `right` (and `end`).
    Right,
}

/// `textBaseline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextBaseline {
    /// `top`.
    Top,
    /// `hanging`.
    Hanging,
    /// `middle`.
    Middle,
    /// `alphabetic` (canvas default).
    #[default]
    Alphabetic,
    /// `ideographic`.
    Ideographic,
    /// `bottom`.
    Bottom,
}

/// One `fillText` call.
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    /// The string, one line.
    pub text: String,
    /// Anchor x, CSS px, in the item's coordinate space.
    pub x: f32,
    /// Anchor y, CSS px, in the item's coordinate space.
    pub y: f32,
    /// The font.
    pub font: FontSpec,
    /// Fill colour.
    pub paint: Paint,
    /// Horizontal anchoring.
    pub align: TextAlign,
    /// Vertical anchoring.
    pub baseline: TextBaseline,
    /// The canvas `direction` it was drawn with: the base direction of the bidirectional
    /// algorithm for the line. `align` is already a side (`start`/`end` are resolved by
    /// the drawer), so this only orders the line.
    pub direction: TextDirection,
    /// The context transform at the time of the call (rotation of tick labels, …).
    pub transform: Transform,
    /// `strokeText` with this stroke and colour before the fill, when set.
    pub stroke: Option<(Stroke, Paint)>,
}

/// A 2D affine transform, canvas order: `[a c e; b d f; 0 0 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// Horizontal scale.
    pub a: f32,
    /// Vertical skew.
    pub b: f32,
    /// Horizontal skew.
    pub c: f32,
    /// Vertical scale.
    pub d: f32,
    /// Horizontal translation.
    pub e: f32,
    /// Vertical translation.
    pub f: f32,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No transformation.
    pub const IDENTITY: Transform = Transform {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    /// A translation.
    pub fn translate(x: f32, y: f32) -> Self {
        Transform {
            e: x,
            f: y,
            ..Self::IDENTITY
        }
    }

    /// A scale by `s` on both axes (a device pixel ratio).
    pub fn scale(s: f32) -> Self {
        Transform {
            a: s,
            d: s,
            ..Self::IDENTITY
        }
    }

    /// A rotation by `angle` radians (clockwise on screen, as `ctx.rotate`).
    pub fn rotate(angle: f32) -> Self {
        let (s, c) = (libm::sinf(angle), libm::cosf(angle));
        Transform {
            a: c,
            b: s,
            c: -s,
            d: c,
            e: 0.0,
            f: 0.0,
        }
    }

    /// `self` then `next` in canvas order: like `ctx.transform(next)` after `self`.
    pub fn then(self, next: Transform) -> Transform {
        let m = self;
        Transform {
            a: m.a * next.a + m.c * next.b,
            b: m.b * next.a + m.d * next.b,
            c: m.a * next.c + m.c * next.d,
            d: m.b * next.c + m.d * next.d,
            e: m.a * next.e + m.c * next.f + m.e,
            f: m.b * next.e + m.d * next.f + m.f,
        }
    }

    /// Maps a point.
    pub fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.a * x + self.c * y + self.e,
            self.b * x + self.d * y + self.f,
        )
    }
}

/// One path command, CSS px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathCmd {
    /// Start a subpath.
    MoveTo(f32, f32),
    /// Straight segment.
    LineTo(f32, f32),
    /// Quadratic Bézier (control, end).
    QuadTo(f32, f32, f32, f32),
    /// Cubic Bézier (control 1, control 2, end).
    CubicTo(f32, f32, f32, f32, f32, f32),
    /// Close the subpath.
    Close,
}

impl PathCmd {
    /// Calls `f` with every point of the command, control points included, in order (the
    /// hull of these points contains the segment).
    pub fn for_each_point(&self, mut f: impl FnMut(f32, f32)) {
        match *self {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => f(x, y),
            PathCmd::QuadTo(a, b, x, y) => {
                f(a, b);
                f(x, y);
            }
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                f(a, b);
                f(c, d);
                f(x, y);
            }
            PathCmd::Close => {}
        }
    }

    /// The command with every point mapped by `f`.
    pub fn map(self, f: impl Fn(f32, f32) -> (f32, f32)) -> PathCmd {
        match self {
            PathCmd::MoveTo(x, y) => {
                let (x, y) = f(x, y);
                PathCmd::MoveTo(x, y)
            }
            PathCmd::LineTo(x, y) => {
                let (x, y) = f(x, y);
                PathCmd::LineTo(x, y)
            }
            PathCmd::QuadTo(x1, y1, x, y) => {
                let (x1, y1) = f(x1, y1);
                let (x, y) = f(x, y);
                PathCmd::QuadTo(x1, y1, x, y)
            }
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                let (x1, y1) = f(x1, y1);
                let (x2, y2) = f(x2, y2);
                let (x, y) = f(x, y);
                PathCmd::CubicTo(x1, y1, x2, y2, x, y)
            }
            PathCmd::Close => PathCmd::Close,
        }
    }
}

/// A canvas-like path builder. Arcs are turned into cubic Béziers here, so the scene only
/// holds lines and curves.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    /// The commands, in order.
    pub cmds: Vec<PathCmd>,
}

impl Path {
    /// An empty path (`ctx.beginPath()`).
    pub fn new() -> Self {
        Self::default()
    }

    /// True when no command was added.
    pub fn is_empty(&self) -> bool {
        self.cmds.is_empty()
    }

    fn has_current_point(&self) -> bool {
        !self.cmds.is_empty()
    }

    /// `ctx.moveTo`.
    pub fn move_to(&mut self, x: f32, y: f32) -> &mut Self {
        self.cmds.push(PathCmd::MoveTo(x, y));
        self
    }

    /// `ctx.lineTo`; starts a subpath when there is no current point, as canvas does.
    pub fn line_to(&mut self, x: f32, y: f32) -> &mut Self {
        if self.has_current_point() {
            self.cmds.push(PathCmd::LineTo(x, y));
        } else {
            self.cmds.push(PathCmd::MoveTo(x, y));
        }
        self
    }

    /// `ctx.quadraticCurveTo`.
    pub fn quad_to(&mut self, cx: f32, cy: f32, x: f32, y: f32) -> &mut Self {
        if !self.has_current_point() {
            self.cmds.push(PathCmd::MoveTo(cx, cy));
        }
        self.cmds.push(PathCmd::QuadTo(cx, cy, x, y));
        self
    }

    /// `ctx.bezierCurveTo`.
    pub fn cubic_to(
        &mut self,
        c1x: f32,
        c1y: f32,
        c2x: f32,
        c2y: f32,
        x: f32,
        y: f32,
    ) -> &mut Self {
        if !self.has_current_point() {
            self.cmds.push(PathCmd::MoveTo(c1x, c1y));
        }
        self.cmds.push(PathCmd::CubicTo(c1x, c1y, c2x, c2y, x, y));
        self
    }

    /// `ctx.closePath`.
    pub fn close(&mut self) -> &mut Self {
        if self.has_current_point() {
            self.cmds.push(PathCmd::Close);
        }
        self
    }

    /// `ctx.rect`: a closed subpath, clockwise from the top-left corner.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32) -> &mut Self {
        self.cmds.push(PathCmd::MoveTo(x, y));
        self.cmds.push(PathCmd::LineTo(x + w, y));
        self.cmds.push(PathCmd::LineTo(x + w, y + h));
        self.cmds.push(PathCmd::LineTo(x, y + h));
        self.cmds.push(PathCmd::Close);
        self
    }

    /// `ctx.arc(x, y, r, start, end, counterclockwise)` with the canvas rules: a line from the
    /// current point to the arc's start, and a full circle when the sweep reaches 2π.
    pub fn arc(&mut self, x: f32, y: f32, r: f32, start: f32, end: f32, ccw: bool) -> &mut Self {
        let r = r.max(0.0);
        let sweep = arc_sweep(start, end, ccw);
        // Every point marker is a full circle from 0: its sines and cosines, the most of
        // building its path, are worked out once (the same values, so the same path).
        let computed;
        let unit = if start.to_bits() == 0 && sweep == TAU {
            full_circle()
        } else {
            computed = UnitArc::new(start, sweep);
            &computed
        };
        let (c, s) = unit.ends[0];
        self.line_to(x + r * c, y + r * s);
        if r == 0.0 || sweep == 0.0 {
            return self;
        }
        let k = unit.k;
        for w in unit.ends[..=unit.pieces].windows(2) {
            let ((c0, s0), (c1, s1)) = (w[0], w[1]);
            self.cmds.push(PathCmd::CubicTo(
                x + r * (c0 - k * s0),
                y + r * (s0 + k * c0),
                x + r * (c1 + k * s1),
                y + r * (s1 - k * c1),
                x + r * c1,
                y + r * s1,
            ));
        }
        self
    }

    /// `ctx.ellipse` without rotation is not needed by Chart.js core; circles use [`Path::arc`].
    /// A full circle as its own closed subpath.
    pub fn circle(&mut self, x: f32, y: f32, r: f32) -> &mut Self {
        self.cmds.push(PathCmd::MoveTo(x + r, y));
        self.arc(x, y, r, 0.0, TAU, false);
        self.close()
    }
}

/// An arc on the unit circle as [`Path::arc`] draws it: pieces of at most 90° (so the cubic
/// approximation error stays tiny), the cosine and sine of each piece's ends, and the
/// handle length `k` of every piece.
struct UnitArc {
    pieces: usize,
    k: f32,
    /// `(cos, sin)` of the start and of each piece's end angle (`pieces + 1` used).
    ends: [(f32, f32); UnitArc::MAX_PIECES + 1],
}

impl UnitArc {
    /// A sweep is at most 2π ([`arc_sweep`]), and 2π / (π/2) is exactly 4 in `f32`.
    const MAX_PIECES: usize = 4;

    fn new(start: f32, sweep: f32) -> UnitArc {
        let n = ((sweep.abs() / (PI / 2.0)).ceil().max(1.0) as usize).min(Self::MAX_PIECES);
        let step = sweep / n as f32;
        let mut ends = [(0.0, 0.0); Self::MAX_PIECES + 1];
        let mut a = start;
        for (i, end) in ends.iter_mut().take(n + 1).enumerate() {
            if i > 0 {
                a += step;
            }
            *end = (libm::cosf(a), libm::sinf(a));
        }
        UnitArc {
            pieces: n,
            k: 4.0 / 3.0 * libm::tanf(step / 4.0),
            ends,
        }
    }
}

/// The full circle from 0 (a point marker's), worked out once.
fn full_circle() -> &'static UnitArc {
    static FULL: std::sync::OnceLock<UnitArc> = std::sync::OnceLock::new();
    FULL.get_or_init(|| UnitArc::new(0.0, TAU))
}

/// The signed sweep of a canvas arc (HTML spec: "ellipse method" steps).
fn arc_sweep(start: f32, end: f32, ccw: bool) -> f32 {
    let diff = end - start;
    if !ccw {
        if diff >= TAU {
            TAU
        } else {
            let d = diff.rem_euclid(TAU);
            if d == 0.0 && diff != 0.0 {
                TAU
            } else {
                d
            }
        }
    } else if -diff >= TAU {
        -TAU
    } else {
        let d = (-diff).rem_euclid(TAU);
        -(if d == 0.0 && diff != 0.0 { TAU } else { d })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_circle_sweep() {
        assert_eq!(arc_sweep(0.0, TAU, false), TAU);
        assert_eq!(arc_sweep(0.0, -TAU, true), -TAU);
        assert!((arc_sweep(0.0, PI / 2.0, false) - PI / 2.0).abs() < 1e-6);
        // Counter-clockwise from 0 to π/2 goes the long way round.
        assert!((arc_sweep(0.0, PI / 2.0, true) + 1.5 * PI).abs() < 1e-5);
    }

    /// The arc's pieces computed angle by angle, each end's sine and cosine taken where
    /// the piece uses it.
    fn reference_arc(p: &mut Path, x: f32, y: f32, r: f32, start: f32, end: f32) {
        let r = r.max(0.0);
        let sweep = arc_sweep(start, end, false);
        p.line_to(x + r * libm::cosf(start), y + r * libm::sinf(start));
        if r == 0.0 || sweep == 0.0 {
            return;
        }
        let n = (sweep.abs() / (PI / 2.0)).ceil().max(1.0) as usize;
        let step = sweep / n as f32;
        let k = 4.0 / 3.0 * libm::tanf(step / 4.0);
        let mut a0 = start;
        for _ in 0..n {
            let a1 = a0 + step;
            let (c0, s0) = (libm::cosf(a0), libm::sinf(a0));
            let (c1, s1) = (libm::cosf(a1), libm::sinf(a1));
            p.cmds.push(PathCmd::CubicTo(
                x + r * (c0 - k * s0),
                y + r * (s0 + k * c0),
                x + r * (c1 + k * s1),
                y + r * (s1 - k * c1),
                x + r * c1,
                y + r * s1,
            ));
            a0 = a1;
        }
    }

    /// Full circles from 0 (whose unit points are kept) and other arcs, at many centres and
    /// radii: bit for bit the path computed piece by piece.
    #[test]
    fn arcs_match_their_piecewise_computation() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 1_000_000) as f32 / 1000.0
        };
        for case in 0..2000 {
            let (x, y, r) = (next() - 100.0, next(), next() / 50.0);
            let (start, end) = if case % 2 == 0 {
                (0.0, TAU)
            } else {
                (next() / 100.0 - 5.0, next() / 100.0 - 5.0)
            };
            let (mut ours, mut theirs) = (Path::new(), Path::new());
            ours.arc(x, y, r, start, end, false);
            reference_arc(&mut theirs, x, y, r, start, end);
            let bits = |p: &Path| {
                format!(
                    "{:?}",
                    p.cmds
                        .iter()
                        .map(|c| {
                            let mut v = Vec::new();
                            c.for_each_point(|x, y| v.extend([x.to_bits(), y.to_bits()]));
                            v
                        })
                        .collect::<Vec<_>>()
                )
            };
            assert_eq!(
                bits(&ours),
                bits(&theirs),
                "arc ({x}, {y}) r {r} {start}..{end}"
            );
        }
    }

    #[test]
    fn arc_ends_on_circle() {
        let mut p = Path::new();
        p.arc(10.0, 10.0, 5.0, 0.0, PI, false);
        match p.cmds.last() {
            Some(PathCmd::CubicTo(.., x, y)) => {
                assert!((x - 5.0).abs() < 1e-4 && (y - 10.0).abs() < 1e-4);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn item_list_keeps_its_budget_and_cancel() {
        let mut l = ItemList::new(100, Cancel::new());
        for _ in 0..100 {
            l.push(Item::PopClip);
        }
        assert!(l.is_over() && l.stopped());
        assert!(l.len() < 100, "{}", l.len());
        let cancel = Cancel::new();
        let mut l = ItemList::new(10, cancel.clone());
        l.push(Item::PopClip);
        assert!(!l.stopped());
        cancel.cancel();
        assert!(l.stopped());
        l.push(Item::PopClip);
        assert_eq!(l.into_items().len(), 1);
    }

    fn line(points: usize) -> Item {
        let mut p = Path::new();
        p.move_to(0.0, 0.0);
        for i in 1..points {
            p.line_to(i as f32, (i % 2) as f32);
        }
        p.cmds.shrink_to_fit();
        Item::Stroke {
            path: p,
            paint: Paint::Solid(Rgba::BLACK),
            stroke: Stroke::default(),
            transform: Transform::IDENTITY,
        }
    }

    /// The budget is the list's memory: items count their bytes, long paths by their
    /// commands, and the list its buffer, so that no list holds more than the budget.
    #[test]
    fn item_list_keeps_its_memory_within_the_budget() {
        let slot = std::mem::size_of::<Item>();
        let cmd = std::mem::size_of::<PathCmd>();
        assert_eq!(line(800).footprint(), slot + 800 * cmd);
        let budget = 10_000 * ItemList::BYTES_PER_ITEM;
        // One path of as many commands as the budget holds bytes / 28 is refused alone
        // (the old count, an item per 8 commands, took it as 1 / 28 of its 10,000 items).
        let mut l = ItemList::new(10_000, Cancel::new());
        l.push(line(budget / cmd));
        assert!(l.is_over() && l.is_empty());
        // Paths of 1,000 commands until the budget is spent: the list never holds more.
        let mut l = ItemList::new(10_000, Cancel::new());
        let mut pushed = 0;
        while !l.stopped() {
            l.push(line(1_000));
            pushed += 1;
            assert!(l.bytes() <= budget, "{} > {budget}", l.bytes());
        }
        assert!(l.is_over());
        assert_eq!(l.len(), pushed - 1);
        assert!(l.bytes() + slot + 1_000 * cmd > budget / 2, "{}", l.bytes());
        // Short items up to the budget: the buffer's growth counts, old and new buffers.
        let mut l = ItemList::new(10_000, Cancel::new());
        while !l.stopped() {
            l.push(Item::PopClip);
            assert!(l.bytes() <= budget);
        }
        assert!(l.len() > budget / slot / 4, "{}", l.len());
        // A shadowed item counts its box and its path; text its box, string and family.
        let shadowed = Item::Shadowed {
            shadow: Shadow {
                color: Rgba::BLACK,
                blur: 1.0,
                offset_x: 0.0,
                offset_y: 0.0,
            },
            item: Box::new(line(80)),
        };
        assert_eq!(shadowed.path_cmds(), 80);
        assert_eq!(shadowed.footprint(), 2 * slot + 80 * cmd);
        let text = Item::Text(Box::new(TextItem {
            text: "x".repeat(1_000),
            x: 0.0,
            y: 0.0,
            font: FontSpec::default(),
            paint: Paint::Solid(Rgba::BLACK),
            align: TextAlign::Left,
            baseline: TextBaseline::Top,
            direction: TextDirection::default(),
            transform: Transform::IDENTITY,
            stroke: None,
        }));
        let family = FontSpec::default().family.len();
        assert_eq!(
            text.footprint(),
            slot + std::mem::size_of::<TextItem>() + 1_000 + family
        );
    }

    #[test]
    fn transform_composition() {
        let t = Transform::translate(10.0, 0.0).then(Transform::rotate(PI / 2.0));
        let (x, y) = t.apply(1.0, 0.0);
        assert!((x - 10.0).abs() < 1e-5 && (y - 1.0).abs() < 1e-5);
    }
}
