//! Pixels: the only module that knows tiny-skia. Turns a [`Scene`] into a straight-alpha
//! [`Bitmap`] at the scene's device pixel ratio.
//!
//! tiny-skia is a port of Skia, the library Chrome's canvas draws with, so fills, strokes
//! (hairlines under one device pixel included), dashes and gradients follow the same rules.
//! Like Chart.js's `retinaScale`, the bitmap is `floor(size × dpr)` and every item is drawn
//! under a `scale(dpr)` base transform.
//!
//! Anti-aliasing stays tiny-skia's 4× supersampling (Skia's `SkScan_AntiPath`), although
//! today's Chrome covers edges analytically: Chart.js's reference images show the quarter-pixel
//! coverage steps of the supersampler (a bar edge at y = 105.81 covered 0.75, its clip and
//! even-odd border multiplying to 0.5625). An exact-area rasteriser for shapes lost three dev
//! fixtures while gaining none; it is kept for glyphs (`coverage.rs`), whose masks FreeType
//! covers by exact area.
//!
//! Where the time goes, and what is done about it:
//! - axis-aligned rectangles in a solid colour (grid lines, ticks, bars, legend boxes) are
//!   filled by `rect.rs`, which computes the supersampler's coverage and the pipeline's blend
//!   bit for bit without running either;
//! - rectangle clips stay rectangles and build their mask only for other shapes (`clip.rs`);
//! - bitmap and mask buffers are reused between renders (`pool.rs`): fresh pages cost more
//!   kernel time than the drawing;
//! - glyphs are covered once per outline, transform and quarter-pixel phase, and kept as
//!   masks (`glyphs.rs`);
//! - a small shape the scene draws hundreds of times (a scatter chart's markers) is covered
//!   once per 1/16 px phase and blended from that mask wherever it stands (`stamps.rs`),
//!   moving it by at most 1/32 px; shapes drawn fewer times are drawn exactly;
//! - solid fills and stroke outlines are covered by `supersample.rs`, our copy of the
//!   supersampler that hands each row's coverage straight to the blend (tiny-skia's
//!   run-length rows, blitter stages and a bitmap-sized mask pass cost most of a scatter or
//!   time-series chart's drawing); a path that must be clipped to the bitmap is covered by
//!   tiny-skia into a scratch mask, a huge one in bands that a cancel can stop between
//!   (`band.rs`).
//!
//! The stages of a render, one file each: this module makes the bitmap and walks the items;
//! `painter.rs` draws each item (fills, strokes, clips) through the fast paths above or
//! tiny-skia, `path_fill.rs` filling paths and stroke outlines for it (each path mapped to
//! device space once, built in vectors an earlier item left); `text_items.rs` draws text; `convert.rs` turns scene types into tiny-skia's and
//! works out the device geometry the painter decides by; `guard.rs` makes every path and
//! stroke safe to hand to tiny-skia.

use crate::scene::{Scene, Transform};
use crate::text::TextEngine;
use crate::Error;
use chart_spec::Bitmap;
use std::ops::Range;
use std::sync::Arc;

mod band;
mod bands;
mod clip;
mod convert;
mod coverage;
mod dash;
mod edges;
pub mod glyphs;
pub(crate) mod guard;
mod hairline;
pub(crate) mod mask;
mod overdraw;
mod painter;
mod path_fill;
pub mod pool;
mod rect;
mod rectilinear;
mod ring_outline;
mod shadow;
mod split;
mod stamps;
mod supersample;
mod text_items;

pub use bands::{BandPixels, Drawn};
use clip::ClipStack;
use glyphs::GlyphCache;
pub(crate) use overdraw::painted_bitmaps;
use painter::Painter;
use pool::Pool;

/// What renders keep for the renders after them: pixel buffers and glyph masks. One per
/// engine, shared by its renders.
#[derive(Default)]
pub struct Reuse {
    /// Bitmap and clip-mask buffers.
    pub buffers: Pool,
    /// Coverage masks of glyphs.
    pub glyphs: GlyphCache,
}

/// How many threads may draw one bitmap. The pixels are the same either way.
#[derive(Debug, Clone, Copy)]
pub enum Threads {
    /// The calling thread alone.
    One,
    /// The calling thread and one more, each drawing a band of rows (`split.rs`), whenever
    /// the bitmap is large enough, even where that costs time: the thread the function
    /// lends, or one started for the render when it lends none.
    Two(crate::SecondCore),
    /// As [`Threads::Two`] when the function lends a second core and two painters save
    /// time on the scene (`split.rs`); it is asked only for a bitmap large enough, just
    /// before the drawing, and what it returns is held until the drawing ends.
    Lent(crate::SecondCore),
}

/// Rasterises a scene on this thread, with buffers and glyph masks from `reuse` (give the
/// bitmap's data back to `reuse.buffers` when done with it).
pub fn rasterize(
    scene: &Scene,
    text: &TextEngine,
    reuse: &Reuse,
    cancel: &chart_spec::Cancel,
) -> Result<Bitmap, Error> {
    rasterize_on(scene, text, reuse, cancel, Threads::One)
}

/// [`rasterize`] on as many `threads`; the same pixels either way.
pub fn rasterize_on(
    scene: &Scene,
    text: &TextEngine,
    reuse: &Reuse,
    cancel: &chart_spec::Cancel,
    threads: Threads,
) -> Result<Bitmap, Error> {
    let split = match threads {
        Threads::One => Split::None,
        Threads::Two(lend) => Split::Balanced {
            lend,
            must_pay: false,
        },
        Threads::Lent(lend) => Split::Balanced {
            lend,
            must_pay: true,
        },
    };
    rasterize_until(scene, text, reuse, &|| cancel.is_cancelled(), split)
}

/// [`rasterize_on`] for a `consumer` of the bitmap's rows: when the scene says two painters
/// pay, each band goes to it on the thread that drew it, as soon as it is drawn (with a
/// second thread when `threads` lends one, else both on this one); otherwise the bitmap
/// is drawn whole, as [`rasterize_on`] draws it.
pub fn rasterize_bands<'a, C: crate::BandConsumer>(
    scene: &Scene,
    text: &TextEngine,
    reuse: &'a Reuse,
    cancel: &chart_spec::Cancel,
    threads: Threads,
    consumer: &C,
) -> Result<Drawn<'a, C::Part>, Error> {
    let stop = || cancel.is_cancelled();
    bands::rasterize_bands_until(scene, text, reuse, &stop, threads, consumer)
}

/// Where the bitmap's rows are split between two threads.
#[derive(Debug, Clone, Copy)]
enum Split {
    /// Not split: one thread.
    None,
    /// Where the two halves' work is about even ([`split::split_row`]), if worth it, on the
    /// thread `lend` lends; with `must_pay`, only when it lends one and the split pays.
    Balanced {
        lend: crate::SecondCore,
        must_pay: bool,
    },
    /// At this row (tests: any row must give the same pixels).
    #[cfg(test)]
    At(u32),
}

/// The stop signal, polled by every painter (on either thread).
type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// A scene's bitmap: its size, its background, the device transform.
struct Canvas {
    width: u32,
    height: u32,
    size: tiny_skia::IntSize,
    /// Bytes of the bitmap.
    len: usize,
    /// The background as the bitmap stores it (premultiplied).
    fill: [u8; 4],
    /// The device transform: `scale(dpr)`.
    base: Transform,
    /// Whether the background is opaque: every pixel drawn over it stays so.
    opaque: bool,
}

impl Canvas {
    fn of(scene: &Scene) -> Result<Canvas, Error> {
        let dpr = if scene.device_pixel_ratio.is_finite() && scene.device_pixel_ratio > 0.0 {
            scene.device_pixel_ratio
        } else {
            1.0
        };
        // Mirrors `retinaScale` in Chart.js helpers.dom: the device size is floored.
        let width = (scene.width * dpr).floor().max(0.0) as u32;
        let height = (scene.height * dpr).floor().max(0.0) as u32;
        let size_error = || Error::BitmapSize { width, height };
        let size = tiny_skia::IntSize::from_wh(width, height).ok_or_else(size_error)?;
        let len = (width as usize)
            .checked_mul(height as usize)
            .and_then(|n| n.checked_mul(4))
            .ok_or_else(size_error)?;
        // The background is written with the buffer, in one pass (what `Pixmap::fill` would
        // store: the colour premultiplied).
        let bg = scene.background;
        let fill = tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a)
            .premultiply()
            .to_color_u8();
        Ok(Canvas {
            width,
            height,
            size,
            len,
            fill: [fill.red(), fill.green(), fill.blue(), fill.alpha()],
            base: Transform::scale(dpr),
            opaque: bg.a == 255,
        })
    }

    /// A pixmap of `data` (this canvas's size).
    fn pixmap(&self, data: Vec<u8>) -> Result<tiny_skia::Pixmap, Error> {
        tiny_skia::Pixmap::from_vec(data, self.size).ok_or(Error::BitmapSize {
            width: self.width,
            height: self.height,
        })
    }
}

/// [`rasterize_on`] with the stop signal as a function (tests count its polls).
fn rasterize_until(
    scene: &Scene,
    text: &TextEngine,
    reuse: &Reuse,
    stop: Stop<'_>,
    split: Split,
) -> Result<Bitmap, Error> {
    let pool = &reuse.buffers;
    let canvas = Canvas::of(scene)?;
    let Canvas {
        width,
        height,
        len,
        fill,
        base,
        ..
    } = canvas;
    let job = Job {
        scene,
        base,
        text,
        reuse,
        stop,
        plan: Arc::new(stamps::Plan::of(&scene.items, base)),
    };
    // The lent second thread: asked for before the split row is worked out, which a render
    // under load does not need.
    let mut lent = None;
    let split = match split {
        Split::None => None,
        Split::Balanced { .. } if !split::worth_splitting(width, height) => None,
        Split::Balanced { lend, must_pay } => {
            lent = lend();
            match lent {
                None if must_pay => None,
                // A lent core only when the split pays; told to split, whenever it may.
                _ => split::split_row(scene, base, (width, height), must_pay),
            }
        }
        #[cfg(test)]
        Split::At(s) => Some(s.min(height)),
    };
    if split.is_none() {
        lent = None; // not held while this thread draws alone
    }
    // A second bitmap for the bottom band, its rows above scratch (its band is filled on
    // its own thread). The first one's rows from `s` on are copied in from it at the end:
    // the background only above.
    let second = match split {
        Some(s) => Some((s, canvas.pixmap(pool.take_unfilled(len))?)),
        None => None,
    };
    let data = match &second {
        Some((s, _)) => {
            let mut data = pool.take_unfilled(len);
            pool::fill_background(&mut data[..*s as usize * width as usize * 4], fill);
            data
        }
        None => pool.take_pixels(len, fill),
    };
    let mut pixmap = canvas.pixmap(data)?;
    let drawn = match second {
        None => job.draw(&mut pixmap, 0..height),
        Some((s, second)) => {
            let thread = lent.as_deref().unwrap_or(&split::Started);
            job.draw_split(&mut pixmap, second, s, fill, thread)
        }
    };
    drop(lent);
    if !drawn {
        pool.give(pixmap.take());
        return Err(Error::Cancelled);
    }
    // Over an opaque background every pixel stays opaque: nothing to unpremultiply.
    Ok(to_bitmap(pixmap, canvas.opaque))
}

/// What every painter of one render draws from.
struct Job<'a> {
    scene: &'a Scene,
    base: Transform,
    text: &'a TextEngine,
    reuse: &'a Reuse,
    stop: Stop<'a>,
    /// Which items are stamped: made once from the whole scene, before any painter draws,
    /// and shared by the painters (so the same shapes are stamped on one thread or two).
    plan: Arc<stamps::Plan>,
}

impl Job<'_> {
    /// Draws the scene's items on `pixmap`, answerable for the pixel `rows` (see
    /// [`Painter::rows`]); `false` when the stop cut it short.
    fn draw(&self, pixmap: &mut tiny_skia::Pixmap, rows: Range<u32>) -> bool {
        let pool = &self.reuse.buffers;
        let (width, height) = (pixmap.width(), pixmap.height());
        let band = rows != (0..height);
        let mut painter = Painter {
            pixmap,
            rows: rows.clone(),
            clips: ClipStack::new(width, height),
            scratch: None,
            pool,
            glyphs: &self.reuse.glyphs,
            base: self.base,
            text: self.text,
            sprite: None,
            stop: self.stop,
            buffers: Default::default(),
            stamps: stamps::Stamps::new(Arc::clone(&self.plan)),
        };
        // Polled between items, and within an item between its stages and the bands of a
        // huge fill (`band.rs`): a cancelled render stops within a fraction of one item.
        let mut cancelled = false;
        for (index, item) in self.scene.items.iter().enumerate() {
            if (self.stop)() {
                cancelled = true;
                break;
            }
            if band && split::misses(item, self.base, &rows) {
                continue;
            }
            painter.draw(index, item);
        }
        // An item the stop cut short leaves a half-drawn image, even when it was the last.
        cancelled = cancelled || (self.stop)();
        painter.clips.recycle(pool);
        if let Some(m) = painter.scratch.take() {
            pool.give_mask(m);
        }
        !cancelled
    }

    /// Draws rows `..s` on `pixmap` here and rows `s..` on `second` on `thread`, then
    /// copies those into `pixmap` (`split.rs`). A panic on the other thread is this
    /// thread's again.
    fn draw_split(
        &self,
        pixmap: &mut tiny_skia::Pixmap,
        mut second: tiny_skia::Pixmap,
        s: u32,
        fill: [u8; 4],
        thread: &dyn crate::SecondThread,
    ) -> bool {
        let height = pixmap.height();
        let from = s as usize * pixmap.width() as usize * 4;
        let (mut top, mut bottom) = (false, false);
        thread.join(
            &mut || {
                pool::fill_background(&mut second.data_mut()[from..], fill);
                bottom = self.draw(&mut second, s..height);
            },
            &mut || top = self.draw(pixmap, 0..s),
        );
        pixmap.data_mut()[from..].copy_from_slice(&second.data()[from..]);
        self.reuse.buffers.give(second.take());
        top && bottom
    }
}

/// tiny-skia stores premultiplied alpha; a Bitmap is straight alpha.
fn to_bitmap(pixmap: tiny_skia::Pixmap, opaque: bool) -> Bitmap {
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut data = pixmap.take();
    if !opaque {
        unpremultiply(&mut data);
    }
    Bitmap {
        width,
        height,
        data,
    }
}

/// Premultiplied RGBA pixels to straight alpha, in place.
fn unpremultiply(data: &mut [u8]) {
    for px in data.chunks_exact_mut(4) {
        let a = px[3];
        if a != 0 && a != 255 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Item, Paint, Path};
    use chart_spec::Rgba;

    pub(super) fn scene(items: Vec<Item>, dpr: f32) -> Scene {
        Scene {
            width: 20.0,
            height: 10.0,
            device_pixel_ratio: dpr,
            background: Rgba::TRANSPARENT,
            items,
        }
    }

    pub(super) fn px(b: &Bitmap, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * b.width + x) * 4) as usize;
        [b.data[i], b.data[i + 1], b.data[i + 2], b.data[i + 3]]
    }

    #[test]
    fn fills_at_device_pixel_ratio() {
        let mut path = Path::new();
        path.rect(0.0, 0.0, 5.0, 5.0);
        let s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba::rgb(255, 0, 0)),
                transform: Transform::IDENTITY,
            }],
            2.0,
        );
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        assert_eq!((b.width, b.height), (40, 20));
        assert_eq!(px(&b, 9, 9), [255, 0, 0, 255]);
        assert_eq!(px(&b, 10, 10), [0, 0, 0, 0]);
    }

    /// A render cancelled while it fills one huge path (a dense line with `tension` and
    /// `fill`, one item of tens of thousands of curves) stops between two bands of that
    /// fill and returns `Cancelled`; drawn in one piece, the fill would end the render.
    #[test]
    fn a_cancel_stops_a_huge_fill_part_way() {
        let mut path = Path::new();
        path.move_to(0.0, 300.0);
        let n = 20_000;
        for i in 0..n {
            let (x0, x1) = (
                i as f32 * 400.0 / n as f32,
                (i + 1) as f32 * 400.0 / n as f32,
            );
            let y = 40.0 + ((i * 37) % 200) as f32;
            path.cubic_to(x0 + 0.005, y - 10.0, x1 - 0.005, y + 10.0, x1, y);
        }
        path.line_to(400.0, 300.0);
        path.close();
        let mut s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba::rgb(54, 162, 235)),
                transform: Transform::IDENTITY,
            }],
            2.0,
        );
        (s.width, s.height) = (400.0, 300.0);
        let polls = std::sync::atomic::AtomicUsize::new(0);
        let count = || polls.load(std::sync::atomic::Ordering::Relaxed);
        // Raised at the 4th poll: before the item, before its fill, before band 0, now.
        let stop = || polls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 >= 4;
        let text = TextEngine::system();
        let result = rasterize_until(&s, &text, &Reuse::default(), &stop, Split::None);
        assert!(
            matches!(result, Err(Error::Cancelled)),
            "the fill ran to its end ({} polls)",
            count()
        );
        assert_eq!(count(), 5, "polled after the stop was raised");
    }

    #[test]
    fn clip_limits_and_pops() {
        let mut clip = Path::new();
        clip.rect(0.0, 0.0, 10.0, 10.0);
        let mut full = Path::new();
        full.rect(0.0, 0.0, 20.0, 10.0);
        let red = Paint::Solid(Rgba::rgb(255, 0, 0));
        let s = scene(
            vec![
                Item::PushClip {
                    path: clip,
                    transform: Transform::IDENTITY,
                },
                Item::Fill {
                    path: full.clone(),
                    paint: red.clone(),
                    transform: Transform::IDENTITY,
                },
                Item::PopClip,
            ],
            1.0,
        );
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        assert_eq!(px(&b, 5, 5), [255, 0, 0, 255]);
        assert_eq!(px(&b, 15, 5)[3], 0);
    }

    #[test]
    fn repeated_and_nested_clips() {
        let rect = |x: f32, y: f32, w: f32, h: f32| {
            let mut p = Path::new();
            p.rect(x, y, w, h);
            p
        };
        let clip = |p: Path| Item::PushClip {
            path: p,
            transform: Transform::IDENTITY,
        };
        let fill = |c: Rgba| Item::Fill {
            path: rect(0.0, 0.0, 20.0, 10.0),
            paint: Paint::Solid(c),
            transform: Transform::IDENTITY,
        };
        let (red, blue) = (Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255));
        let s = scene(
            vec![
                // A clip around the whole canvas changes nothing.
                clip(rect(-5.0, -5.0, 40.0, 40.0)),
                clip(rect(0.0, 0.0, 10.0, 10.0)),
                fill(red),
                Item::PopClip,
                // The same clip again (cached), then a nested one.
                clip(rect(0.0, 0.0, 10.0, 10.0)),
                clip(rect(5.0, 0.0, 10.0, 10.0)),
                fill(blue),
                Item::PopClip,
                Item::PopClip,
                Item::PopClip,
            ],
            1.0,
        );
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        assert_eq!(px(&b, 2, 5), [255, 0, 0, 255]);
        assert_eq!(px(&b, 7, 5), [0, 0, 255, 255]);
        assert_eq!(px(&b, 12, 5)[3], 0);
    }

    #[test]
    fn half_transparent_fill_is_straight_alpha() {
        let mut path = Path::new();
        path.rect(0.0, 0.0, 20.0, 10.0);
        let s = scene(
            vec![Item::Fill {
                path,
                paint: Paint::Solid(Rgba {
                    r: 54,
                    g: 162,
                    b: 235,
                    a: 128,
                }),
                transform: Transform::IDENTITY,
            }],
            1.0,
        );
        let b = rasterize(
            &s,
            &TextEngine::system(),
            &Reuse::default(),
            &chart_spec::Cancel::new(),
        )
        .unwrap();
        let p = px(&b, 3, 3);
        assert_eq!(p[3], 128);
        assert!((p[0] as i32 - 54).abs() <= 1 && (p[2] as i32 - 235).abs() <= 1);
    }
}
