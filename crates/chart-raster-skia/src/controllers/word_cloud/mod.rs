//! chartjs-chart-wordcloud 4.4.5's `wordCloud`: d3-cloud 1.2's placement replayed with the
//! plugin's own random stream (`rnd(seed)`: `s = (9301 s + 49297) mod 233280`, seeded by
//! `randomRotationSeed`, which the browser engine's page sets to 0), the words' rotations
//! drawn from it first (`WordElement.computeRotation`), then for each word by size: a random
//! start, a sprite (the word filled and stroked with `2 × padding` at `size + 1` px, one bit
//! per pixel with any coverage), and the archimedean spiral until the sprite fits the board of
//! placed words (32-bit mask words, shifted as d3-cloud shifts them, its quirks included).
//! Words that do not fit are retried in a board grown by `autoGrow`.
//!
//! Approximated: the sprites come from this engine's glyph outlines and anti-aliasing, so a
//! pixel at a glyph's edge may differ from Chromium's and, where it decides a collision, a
//! word may land at another point of its spiral.
//!
//! Hostile input: words are cut at `chart_spec`'s word budget, sprites past d3-cloud's
//! 2048 px canvas are skipped as d3-cloud skips them (and all sprites together are bounded
//! in pixels), the spiral stops where d3-cloud stops it (past the board's diagonal) or at
//! budgets of steps and of board cells read by the collision tests over all words and all
//! `autoGrow` tries, and the placement polls the [`Cancel`].

mod draw;

use self::draw::WordCloudElements;
use super::{Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::dataset::DatasetElements;
use crate::elements::Area;
use crate::scales::Scale;
use crate::text::TextEngine;
use chart_spec::model::{Dataset, DatasetKind, Raw, Word, WordCloudOptions};
use chart_spec::Cancel;

/// d3-cloud's sprite canvas side (`cw << 5`, `ch`).
const SPRITE_SIDE: i64 = 2048;
/// Spiral steps between two polls of the [`Cancel`].
const CANCEL_EVERY: u64 = 4096;
/// Spiral steps over all words and tries of one render (past it, words are left unplaced).
const MAX_STEPS: u64 = 2_000_000;
/// Board cells (32 pixels each) read by the collision tests over all words and tries of one
/// render (past it, words are left unplaced). A test reads the cells under the sprite until
/// the first collision, up to 64 × 2,048 for the largest sprite, so the steps alone did not
/// bound the work: 117 padded words of `Ws` read 590 million cells in 8 million steps over
/// four tries (hostile sweep seed 7 case 3, 1.3 s). The gallery's cloud reads 31,000.
const MAX_COLLISION_CELLS: u64 = 250_000_000;
/// Sprite pixels rasterised over all words of one render (past it, words are skipped).
const MAX_SPRITE_PIXELS: i64 = 40_000_000;

/// The plugin's `rnd(seed)`.
#[derive(Debug, Clone)]
struct Rnd(f64);

impl Rnd {
    fn next(&mut self) -> f64 {
        self.0 = (self.0 * 9301.0 + 49297.0) % 233_280.0;
        self.0 / 233_280.0
    }
}

/// JavaScript `ToInt32`.
fn to_i32(v: f64) -> i32 {
    if !v.is_finite() {
        return 0;
    }
    let m = v.trunc().rem_euclid(4_294_967_296.0);
    (m as u64 as u32) as i32
}

/// A word being placed (d3-cloud's datum).
#[derive(Debug, Clone, Default)]
struct Tag {
    index: usize,
    size: i32,
    rotate: f64,
    padding: f64,
    x: i64,
    y: i64,
    width: i64,
    x0: i64,
    x1: i64,
    y0: i64,
    y1: i64,
    sprite: Vec<u32>,
    has_text: bool,
}

/// A placed word: centre offset from the board's centre, and its rotation.
#[derive(Debug, Clone, Copy)]
struct Placed {
    index: usize,
    x: f64,
    y: f64,
    rotate: f64,
}

/// `WordElement.computeRotation`.
fn rotation(w: &Word, rnd: &mut Rnd) -> f64 {
    if w.rotation_steps <= 1.0 {
        return 0.0;
    }
    if w.min_rotation == w.max_rotation {
        return w.min_rotation;
    }
    let base = w
        .rotation_steps
        .min((rnd.next() * w.rotation_steps).floor())
        / (w.rotation_steps - 1.0);
    w.min_rotation + base * (w.max_rotation - w.min_rotation)
}

/// A word's sprite cell (`cloudSprite`'s first half): the measured width's anchor and the
/// cell size from the width and the rotation; `None` when the cell does not fit d3-cloud's
/// sprite canvas.
fn cell(text_engine: &TextEngine, w: &Word, text: &str, size: i32, rotate: f64) -> Option<Cell> {
    let mut spec = w.font.clone();
    spec.size = to_i32(f64::from(size + 1)) as f32;
    let width = f64::from(text_engine.measure(&spec, text));
    let anchor = -(width / 2.0).floor();
    let mut cw = width + 1.0;
    let mut ch = f64::from(size << 1);
    let rad = rotate * std::f64::consts::PI / 180.0;
    if rotate != 0.0 {
        let (sr, cr) = (libm::sin(rad), libm::cos(rad));
        let (wcr, wsr, hcr, hsr) = (cw * cr, cw * sr, ch * cr, ch * sr);
        cw = f64::from(((to_i32((wcr + hsr).abs().max((wcr - hsr).abs())) + 0x1f) >> 5) << 5);
        ch = f64::from(to_i32((wsr + hcr).abs().max((wsr - hcr).abs())));
    } else {
        cw = f64::from(((to_i32(cw) + 0x1f) >> 5) << 5);
    }
    let (cw, ch) = (cw as i64, ch as i64);
    if cw <= 0 || ch <= 0 || cw >= SPRITE_SIDE || ch >= SPRITE_SIDE {
        return None;
    }
    Some(Cell {
        cw,
        ch,
        anchor,
        spec,
    })
}

/// A measured sprite cell: `cw × ch` pixels (`cw` a multiple of 32), the text drawn at
/// `anchor` from its middle in the font `spec`.
#[derive(Debug, Clone)]
struct Cell {
    cw: i64,
    ch: i64,
    anchor: f64,
    spec: chart_spec::font::FontSpec,
}

/// A word's sprite (`cloudSprite`'s second half): the word filled and stroked into its cell,
/// one bit per covered pixel, the empty rows above it cut off as d3-cloud cuts them.
fn rasterise(
    text_engine: &TextEngine,
    text: &str,
    cell: &Cell,
    rotate: f64,
    padding: f64,
    cancel: &Cancel,
) -> Option<Sprite> {
    let Cell { cw, ch, anchor, .. } = *cell;
    // Grid-fitted like unrotated canvas text; rotated words keep the exact outlines.
    let scale = (rotate == 0.0).then_some(1.0);
    let shaped = text_engine.shape(&cell.spec, text, scale, false)?;
    let mut outline = crate::scene::Path::new();
    for g in &shaped.glyphs {
        outline
            .cmds
            .extend(g.path.cmds.iter().map(|c| c.map(|x, y| (x + g.x, y))));
    }
    let stroke = if padding != 0.0 {
        (2.0 * padding).clamp(0.0, 1_000.0) as f32
    } else {
        0.0
    };
    let mask = crate::raster::mask::covered(
        &outline,
        (
            (cw >> 1) as f32,
            (ch >> 1) as f32,
            rotate as f32,
            anchor as f32,
        ),
        stroke,
        cw as u32,
        ch as u32,
        &|| cancel.is_cancelled(),
    )
    .unwrap_or_else(|| vec![false; (cw * ch) as usize]);
    let w32 = cw >> 5;
    let x1 = cw >> 1;
    let mut y0 = -(ch >> 1);
    // The rows from the first with a covered pixel (`seen` is never reset: every later row
    // counts), as d3-cloud reads them.
    let mut h = (ch >> 1) - y0;
    let mut bits: Vec<u32> = Vec::new();
    let mut seen = 0u32;
    let mut seen_row: i64 = -1;
    let mut y = 0i64;
    let mut j = 0i64;
    while j < h {
        let mut row = vec![0u32; w32 as usize];
        for i in 0..cw {
            let covered = mask
                .get(((y + j) * cw + i) as usize)
                .copied()
                .unwrap_or(false);
            let m = if covered { 1u32 << (31 - (i % 32)) } else { 0 };
            row[(i >> 5) as usize] |= m;
            seen |= m;
        }
        if seen != 0 {
            seen_row = j;
            bits.extend(row);
            j += 1;
        } else {
            y0 += 1;
            h -= 1;
            y += 1;
        }
    }
    let y1 = y0 + seen_row;
    bits.truncate(((y1 - y0).max(0) * w32) as usize);
    Some(Sprite {
        width: cw,
        x0: -x1,
        x1,
        y0,
        y1,
        bits,
    })
}

/// A word's sprite as d3-cloud keeps it on its datum: the cell width, the extent around
/// the word's position and the bits.
#[derive(Debug, Clone)]
struct Sprite {
    width: i64,
    x0: i64,
    x1: i64,
    y0: i64,
    y1: i64,
    bits: Vec<u32>,
}

/// Where a word's sprite stands. d3-cloud makes every sprite again on each `autoGrow` try
/// (`stop` deletes them), but a sprite depends on the word alone (text, size, rotation,
/// padding), not on the board: here each is measured once and drawn at most once over all
/// the tries (a word of 10,000 combining marks took 0.25 s a sprite, nine times over).
#[derive(Debug, Clone, Default)]
enum SpriteState {
    /// Not measured yet.
    #[default]
    Unmeasured,
    /// No sprite: past d3-cloud's sprite canvas or the pixel budget, or nothing to shape
    /// (d3-cloud never places it).
    Skipped,
    /// Measured, not drawn: its cell was wider than every board tried so far, where no
    /// position could take it.
    Measured(Cell),
    /// Drawn.
    Drawn(Sprite),
}

/// The sprites of one layout's words, by word index, and what drawing them may still cost.
struct Sprites {
    states: Vec<SpriteState>,
    /// Sprite pixels left to draw (from [`MAX_SPRITE_PIXELS`]).
    pixels: i64,
    /// Sprites drawn so far.
    drawn: usize,
}

impl Sprites {
    fn new(words: usize) -> Self {
        Sprites {
            states: vec![SpriteState::Unmeasured; words],
            pixels: MAX_SPRITE_PIXELS,
            drawn: 0,
        }
    }

    /// `tag`'s sprite for a board `board_width` wide, measured and drawn on first need;
    /// `None` when the word has none. A cell wider than the board is not drawn: the
    /// placement's bounds test turns every position down before looking at a pixel (its
    /// extent `cw` is more than the board's width), so the tag gets the cell's extent and an
    /// empty sprite, and walks its spiral as it would have.
    fn sprite_of(
        &mut self,
        text_engine: &TextEngine,
        w: &Word,
        text: &str,
        tag: &mut Tag,
        board_width: f64,
        cancel: &Cancel,
    ) -> Option<()> {
        let state = self.states.get_mut(tag.index)?;
        if let SpriteState::Unmeasured = state {
            *state = match cell(text_engine, w, text, tag.size, tag.rotate) {
                Some(c) => SpriteState::Measured(c),
                None => SpriteState::Skipped,
            };
        }
        if let SpriteState::Measured(c) = state {
            if c.cw as f64 > board_width {
                tag.width = c.cw;
                tag.x1 = c.cw >> 1;
                tag.x0 = -tag.x1;
                tag.y1 = c.ch >> 1;
                tag.y0 = -tag.y1;
                tag.sprite = Vec::new();
                tag.has_text = true;
                return Some(());
            }
            self.pixels -= c.cw * c.ch;
            *state = if self.pixels < 0 {
                SpriteState::Skipped
            } else {
                self.drawn += 1;
                match rasterise(text_engine, text, c, tag.rotate, tag.padding, cancel) {
                    Some(s) => SpriteState::Drawn(s),
                    None => SpriteState::Skipped,
                }
            };
        }
        let SpriteState::Drawn(s) = state else {
            return None;
        };
        tag.width = s.width;
        tag.x0 = s.x0;
        tag.x1 = s.x1;
        tag.y0 = s.y0;
        tag.y1 = s.y1;
        tag.sprite.clone_from(&s.bits);
        tag.has_text = true;
        Some(())
    }
}

/// The board of placed words: `(size[0] >> 5) × size[1]` 32-bit words.
struct Board {
    cells: Vec<u32>,
    sw: i64,
}

impl Board {
    fn get(&self, i: i64) -> u32 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.cells.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The sprite row's 32-bit word `i` shifted to the board (d3-cloud's
    /// `(last << msx) | (sprite >>> sx)`, shift counts taken mod 32 as JavaScript does).
    fn shifted(last: u32, cur: Option<u32>, sx: i64) -> u32 {
        let msx = (32 - sx) & 31;
        last.wrapping_shl(msx as u32) | cur.map_or(0, |c| c.wrapping_shr((sx & 31) as u32))
    }

    /// `cloudCollide`, with the cells it read (it stops at the first collision).
    fn collides(&self, tag: &Tag) -> (bool, u64) {
        let mut read = 0u64;
        let hit = sprite_cells(tag, self.sw).any(|(k, v)| {
            read += 1;
            v & self.get(k) != 0
        });
        (hit, read)
    }

    /// The placing half of `place`: the sprite or-ed into the board.
    fn mark(&mut self, tag: &Tag) {
        for (k, v) in sprite_cells(tag, self.sw) {
            if let Ok(k) = usize::try_from(k) {
                if let Some(cell) = self.cells.get_mut(k) {
                    *cell |= v;
                }
            }
        }
    }
}

/// The board cells (of a board `sw` words wide) that `tag`'s sprite lies over at its
/// position, each with the sprite's bits shifted into it, row by row: what `cloudCollide`
/// tests and `place` or-s in, walked alike by both.
fn sprite_cells(tag: &Tag, sw: i64) -> impl Iterator<Item = (i64, u32)> + '_ {
    let w = tag.width >> 5;
    let lx = tag.x - (w << 4);
    let sx = lx & 0x7f;
    let h = tag.y1 - tag.y0;
    let first = (tag.y + tag.y0) * sw + (lx >> 5);
    (0..h).flat_map(move |j| {
        let row = first + j * sw;
        let mut last = 0u32;
        (0..=w).map(move |i| {
            let cur = (i < w).then(|| tag.sprite.get((j * w + i) as usize).copied().unwrap_or(0));
            let v = Board::shifted(last, cur, sx);
            if let Some(c) = cur {
                last = c;
            }
            (row + i, v)
        })
    })
}

/// What the placement spent, over all words and `autoGrow` tries of one render, against
/// its budgets ([`MAX_STEPS`], [`MAX_COLLISION_CELLS`] by default).
#[derive(Debug, Clone, Copy)]
struct Work {
    steps: u64,
    cells: u64,
    max_steps: u64,
    max_cells: u64,
}

impl Work {
    fn new(max_steps: u64, max_cells: u64) -> Self {
        Work {
            steps: 0,
            cells: 0,
            max_steps,
            max_cells,
        }
    }

    fn is_spent(&self) -> bool {
        self.steps > self.max_steps || self.cells > self.max_cells
    }
}

/// `place(board, tag, bounds)` along the archimedean spiral.
fn place(
    board: &mut Board,
    tag: &mut Tag,
    bounds: Option<((i64, i64), (i64, i64))>,
    size: (f64, f64),
    rnd: &mut Rnd,
    work: &mut Work,
    cancel: &Cancel,
) -> bool {
    let (start_x, start_y) = (tag.x, tag.y);
    let max_delta = libm::sqrt(size.0 * size.0 + size.1 * size.1);
    let e = size.0 / size.1;
    let dt: f64 = if rnd.next() < 0.5 { 1.0 } else { -1.0 };
    let mut t = -dt;
    loop {
        work.steps += 1;
        if work.is_spent() || (work.steps.is_multiple_of(CANCEL_EVERY) && cancel.is_cancelled()) {
            return false;
        }
        t += dt;
        let tt = t * 0.1;
        let dx = to_i32(e * tt * libm::cos(tt));
        let dy = to_i32(tt * libm::sin(tt));
        if f64::from(dx.abs().min(dy.abs())) >= max_delta {
            return false;
        }
        tag.x = start_x + i64::from(dx);
        tag.y = start_y + i64::from(dy);
        if ((tag.x + tag.x0) as f64) < 0.0
            || ((tag.y + tag.y0) as f64) < 0.0
            || (tag.x + tag.x1) as f64 > size.0
            || (tag.y + tag.y1) as f64 > size.1
        {
            continue;
        }
        let overlaps = bounds.is_none_or(|(b0, b1)| {
            tag.x + tag.x1 > b0.0
                && tag.x + tag.x0 < b1.0
                && tag.y + tag.y1 > b0.1
                && tag.y + tag.y0 < b1.1
        });
        if overlaps {
            let (hit, read) = board.collides(tag);
            work.cells += read;
            if !hit {
                board.mark(tag);
                return true;
            }
        }
    }
}

/// One d3-cloud run over a `size` board: the placed words and their bounds.
fn run_cloud(
    text_engine: &TextEngine,
    words: &Words<'_>,
    size: (f64, f64),
    rnd: &mut Rnd,
    sprites: &mut Sprites,
    work: &mut Work,
    cancel: &Cancel,
) -> Vec<Placed> {
    let (o, texts, rotations) = (words.o, words.texts, words.rotations);
    let sw = i64::from(to_i32(size.0) >> 5);
    let rows = size.1.max(0.0).ceil().min(1e6) as i64;
    let cells = (sw.max(0) * rows).min(64_000_000) as usize;
    let mut board = Board {
        cells: vec![0; cells],
        sw,
    };
    // Words by size, largest first (a stable sort, as V8's).
    let mut order: Vec<Tag> = o
        .words
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < texts.len())
        .map(|(i, w)| Tag {
            index: i,
            size: to_i32(w.size),
            rotate: rotations.get(i).copied().unwrap_or(0.0),
            padding: if w.padding.is_finite() {
                w.padding
            } else {
                0.0
            },
            ..Tag::default()
        })
        .collect();
    order.sort_by_key(|t| std::cmp::Reverse(t.size));
    let mut placed = Vec::new();
    let mut bounds: Option<((i64, i64), (i64, i64))> = None;
    for mut tag in order {
        if cancel.is_cancelled() {
            break;
        }
        tag.x = i64::from(to_i32(size.0 * (rnd.next() + 0.5)) >> 1);
        tag.y = i64::from(to_i32(size.1 * (rnd.next() + 0.5)) >> 1);
        let (Some(w), Some(text)) = (o.words.get(tag.index), texts.get(tag.index)) else {
            continue;
        };
        if tag.size <= 0
            || sprites
                .sprite_of(text_engine, w, text, &mut tag, size.0, cancel)
                .is_none()
            || !tag.has_text
        {
            continue;
        }
        if place(&mut board, &mut tag, bounds, size, rnd, work, cancel) {
            let (x0, y0, x1, y1) = (
                tag.x + tag.x0,
                tag.y + tag.y0,
                tag.x + tag.x1,
                tag.y + tag.y1,
            );
            bounds = Some(match bounds {
                None => ((x0, y0), (x1, y1)),
                Some((b0, b1)) => ((b0.0.min(x0), b0.1.min(y0)), (b1.0.max(x1), b1.1.max(y1))),
            });
            placed.push(Placed {
                index: tag.index,
                x: (tag.x - i64::from(to_i32(size.0) >> 1)) as f64,
                y: (tag.y - i64::from(to_i32(size.1) >> 1)) as f64,
                rotate: tag.rotate,
            });
        }
    }
    placed
}

/// The words of one layout: their options, texts and rotations, by index.
struct Words<'a> {
    o: &'a WordCloudOptions,
    texts: &'a [String],
    rotations: &'a [f64],
}

/// d3-cloud's runs on a `board` (width, height) grown by `autoGrow` while fewer than
/// `wanted` words are placed: up to `maxTries` (at most 8) more boards, each `scalingFactor`
/// larger. The sprites and the `work` budgets are shared by every try; once a budget is
/// spent, the try that spent it is the layout.
fn grow_and_place(
    text_engine: &TextEngine,
    words: &Words<'_>,
    board: (f64, f64),
    wanted: usize,
    rnd: &mut Rnd,
    work: &mut Work,
    cancel: &Cancel,
) -> Vec<Placed> {
    let o = words.o;
    let mut factor = 1.0;
    let mut sprites = Sprites::new(o.words.len());
    let mut tries = if o.max_tries.is_finite() {
        o.max_tries.clamp(0.0, 8.0) as u32
    } else {
        0
    };
    loop {
        let placed = run_cloud(
            text_engine,
            words,
            (board.0 * factor, board.1 * factor),
            rnd,
            &mut sprites,
            work,
            cancel,
        );
        // A spent budget ends the tries: a further one would place nothing.
        if placed.len() < wanted && tries > 0 && !cancel.is_cancelled() && !work.is_spent() {
            tries -= 1;
            factor *= if o.scaling_factor.is_finite() {
                o.scaling_factor.clamp(0.1, 10.0)
            } else {
                1.2
            };
            continue;
        }
        break placed;
    }
}

fn options(ds: &Dataset) -> Option<&WordCloudOptions> {
    match &ds.kind {
        DatasetKind::WordCloud(o, _) => Some(o),
        _ => None,
    }
}

/// `WordCloudController`.
#[derive(Default)]
pub struct WordCloudController {
    labels: Vec<String>,
    area: Option<Area>,
    cancel: Cancel,
    /// The placed words after `update`.
    placed: Vec<Placed>,
    /// Each word's text (its label).
    texts: Vec<String>,
}

impl WordCloudController {
    /// d3-cloud's placement of the words on the board (`autoGrow`: a larger board while
    /// words are left over).
    fn lay_out_words(&mut self, ds: &Dataset, cx: &UpdateCx<'_>) {
        let (Some(o), Some(area)) = (options(ds), self.area) else {
            return;
        };
        let (w, h) = (area.right - area.left, area.bottom - area.top);
        if !(w > 0.0 && h > 0.0) {
            return;
        }
        let texts: Vec<String> = (0..o.words.len())
            .map(|i| {
                self.labels
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| "undefined".into())
            })
            .collect();
        let mut rnd = Rnd(if o.seed.is_finite() { o.seed } else { 0.0 });
        let rotations: Vec<f64> = o
            .words
            .iter()
            .map(|word| match word.rotate {
                Some(r) => r,
                None => rotation(word, &mut rnd),
            })
            .collect();
        let mut work = Work::new(MAX_STEPS, MAX_COLLISION_CELLS);
        let wanted = self.labels.len().min(o.words.len());
        let (words, board) = (
            Words {
                o,
                texts: &texts,
                rotations: &rotations,
            },
            (w, h),
        );
        self.placed = grow_and_place(
            cx.text,
            &words,
            board,
            wanted,
            &mut rnd,
            &mut work,
            &self.cancel,
        );
        self.texts = texts;
    }
}

impl Controller for WordCloudController {
    fn parse(&mut self, _ds: &Dataset, meta: &mut Meta, _scales: &mut [Scale], labels: &[Raw]) {
        meta.parsed.clear();
        self.labels = labels.iter().map(Raw::to_js_string).collect();
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.cancel = cx.cancel.clone();
        self.area = match (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) {
            (Some(xs), Some(ys)) => Some(Area {
                left: xs.core.left,
                right: xs.core.right,
                top: ys.core.top,
                bottom: ys.core.bottom,
            }),
            _ => Some(cx.area),
        };
        // The placement (d3-cloud's layout, run by the plugin at draw time) measures the
        // words: done here, for the datasets that are drawn.
        if meta.visible {
            self.lay_out_words(ds, cx);
        }
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        match (options(ds), self.area) {
            (Some(options), Some(area)) => DatasetElements::Plugin(Box::new(WordCloudElements {
                placed: std::mem::take(&mut self.placed),
                texts: std::mem::take(&mut self.texts),
                area,
                options,
            })),
            _ => DatasetElements::Empty,
        }
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, false, use_point_style)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_stream_and_int32_follow_javascript() {
        let mut r = Rnd(0.0);
        assert_eq!(r.next(), 49297.0 / 233_280.0);
        assert_eq!(to_i32(-1.5), -1);
        assert_eq!(to_i32(4_294_967_296.0 + 5.0), 5);
        assert_eq!(to_i32(f64::NAN), 0);
        // `last << 32` is `last << 0` in JavaScript: d3-cloud ors the previous word again.
        assert_eq!(Board::shifted(0b1, Some(0), 0), 0b1);
        assert_eq!(Board::shifted(0, Some(0x8000_0000), 4), 0x0800_0000);
    }

    fn word(size: f64, padding: f64) -> Word {
        Word {
            size,
            color: chart_spec::Rgba::BLACK,
            font: chart_spec::font::FontSpec::default(),
            layout_weight: "1".into(),
            style: "normal".into(),
            rotate: Some(0.0),
            min_rotation: -90.0,
            max_rotation: 0.0,
            rotation_steps: 2.0,
            padding,
            stroke: None,
        }
    }

    /// The `autoGrow` tries of `lay_out_words` over an 800 × 600 board growing by 1.2:
    /// what was placed in each, and how many sprites were drawn in all.
    fn tries(words: Vec<Word>, texts: &[String], tries: usize) -> (Vec<usize>, usize) {
        let text = TextEngine::system();
        let o = WordCloudOptions {
            words,
            seed: 0.0,
            fit: false,
            max_tries: tries as f64,
            scaling_factor: 1.2,
        };
        let rotations = vec![0.0; texts.len()];
        let mut rnd = Rnd(0.0);
        let mut sprites = Sprites::new(texts.len());
        let mut work = Work::new(MAX_STEPS, MAX_COLLISION_CELLS);
        let mut factor = 1.0;
        let mut placed = Vec::new();
        for _ in 0..=tries {
            let size = (800.0 * factor, 600.0 * factor);
            let cancel = Cancel::new();
            let words = Words {
                o: &o,
                texts,
                rotations: &rotations,
            };
            let p = run_cloud(
                &text,
                &words,
                size,
                &mut rnd,
                &mut sprites,
                &mut work,
                &cancel,
            );
            placed.push(p.len());
            factor *= 1.2;
        }
        (placed, sprites.drawn)
    }

    /// A sprite depends on the word, not the board: each `autoGrow` try reuses it (d3-cloud
    /// drew every sprite again on each try: a word of 10,000 combining marks at 500 px with
    /// `padding: 86`, too tall for the board, cost 0.25 s a try, nine tries at most).
    #[test]
    fn the_tries_of_autogrow_draw_each_sprite_once() {
        let texts = vec![format!("a{}", "\u{301}".repeat(9_999)), "b".into()];
        let (placed, drawn) = tries(vec![word(500.0, 86.0), word(20.0, 1.0)], &texts, 3);
        assert_eq!(drawn, 2);
        // The tall word (its marks stacked above it) fits the fourth board only, 1,037 px
        // high; the small one fits every board.
        assert_eq!(placed, vec![1, 1, 1, 2]);
    }

    /// A word wider than the board (here 10,000 letters at 30 px, about 20,000 px, past
    /// d3-cloud's sprite canvas, and a 1,700 px one on a 800-1,382 px board) is measured,
    /// never drawn: no position could take it.
    #[test]
    fn a_word_wider_than_every_board_is_never_drawn() {
        let texts = vec!["W".repeat(10_000), "W".repeat(60), "b".into()];
        let words = vec![word(30.0, 86.0), word(30.0, 86.0), word(20.0, 1.0)];
        let (placed, drawn) = tries(words, &texts, 3);
        assert_eq!(drawn, 1);
        assert_eq!(placed, vec![1, 1, 1, 1]);
    }

    /// The placement's budgets hold over all the `autoGrow` tries of a render, not each try
    /// (hostile sweep seed 7 case 3: 117 padded words walked 2 million steps and read up to
    /// 440 million board cells in each of four tries, 1.3 s): words that cannot fit walk
    /// their spirals until the budget shared by every try is spent, then nothing more is
    /// tried.
    #[test]
    fn the_placement_budgets_hold_over_all_tries() {
        let text = TextEngine::system();
        let words: Vec<Word> = (0..40).map(|_| word(60.0, 100.0)).collect();
        let texts: Vec<String> = (0..40).map(|i| format!("WWW{i}")).collect();
        let o = WordCloudOptions {
            words,
            seed: 0.0,
            fit: false,
            max_tries: 3.0,
            scaling_factor: 1.2,
        };
        let rotations = vec![0.0; texts.len()];
        let words = Words {
            o: &o,
            texts: &texts,
            rotations: &rotations,
        };
        let run = |work: &mut Work| {
            let mut rnd = Rnd(0.0);
            let cancel = Cancel::new();
            grow_and_place(&text, &words, (800.0, 600.0), 40, &mut rnd, work, &cancel).len()
        };
        // Steps: the budget is spent in the first try, whose layout is kept (one word);
        // later tries are not started.
        let mut work = Work::new(100_000, u64::MAX);
        let placed = run(&mut work);
        assert!((1..40).contains(&placed), "{placed}");
        assert!(work.steps > 100_000, "{work:?}");
        assert!(work.steps <= 100_000 + 4 * 40, "{work:?}");
        // Board cells read: the budget stops the walk, within one test's cells of it.
        let mut work = Work::new(u64::MAX / 2, 200_000);
        run(&mut work);
        assert!(work.cells > 200_000, "{work:?}");
        assert!(work.cells <= 200_000 + 64 * 2_048, "{work:?}");
        let unbounded = {
            let mut w = Work::new(u64::MAX / 2, u64::MAX / 2);
            run(&mut w);
            w
        };
        assert!(unbounded.cells > work.cells && unbounded.steps > work.steps);
    }
}
