//! A bitmap drawn for a [`BandConsumer`]: when the scene says two painters pay
//! (`split.rs`), its two bands are handed over as soon as each is drawn, on the thread that
//! drew it, so that the next stage (the PNG encoder) starts on each band there.
//!
//! Where the bands split depends on the scene alone, never on whether a second thread was
//! lent: without one, the bitmap is drawn whole by one painter and its two bands handed
//! over one after the other on this thread (or the bottom one on a thread lent once the
//! drawing is done). So what the consumer makes of the bands (the bytes of a PNG) is the
//! same either way.
//!
//! The bottom band's painter draws the row above its band too (a split one row higher
//! draws the same pixels, see `split.rs`), and hands it over with the band: a filter that
//! reads the row above (PNG's `Up`) needs no pixel of the other thread's bitmap.

use super::{pool, split, unpremultiply, Canvas, Job, Reuse, Split, Stop, Threads};
use crate::scene::Scene;
use crate::text::TextEngine;
use crate::{Band, BandConsumer, Error, SecondThread};
use chart_spec::Bitmap;
use std::ops::Range;
use std::sync::Arc;

/// A bitmap drawn for a [`BandConsumer`] ([`super::rasterize_bands`]).
pub enum Drawn<'a, P> {
    /// Drawn whole, as [`super::rasterize_on`] draws it, and not handed over: the scene is
    /// not split (too small, or two painters would not pay). Give it back with
    /// [`crate::Engine::recycle`] when done.
    Whole(Bitmap),
    /// Drawn in two bands, each handed to the consumer on the thread that drew it: what it
    /// made of the top band and of the bottom one, and the pixels, kept until dropped.
    Bands([P; 2], BandPixels<'a>),
}

/// The pixels of a bitmap drawn in two bands, in the bitmaps they were drawn in (the
/// bottom band in a bitmap of its own when a second thread drew it). Dropped, their buffers
/// go back to the pool for the next render.
pub struct BandPixels<'a> {
    pool: &'a pool::Pool,
    width: u32,
    height: u32,
    /// The bottom band's first row.
    split: u32,
    /// The top band's bitmap (the whole bitmap when one thread drew both bands).
    top: Vec<u8>,
    /// The bottom band's bitmap, when a second thread drew it (rows from `split` on).
    bottom: Option<Vec<u8>>,
}

impl BandPixels<'_> {
    /// The first row of the bottom band.
    pub fn split(&self) -> u32 {
        self.split
    }

    /// The whole bitmap, straight alpha: the bottom band's rows copied in when it was drawn
    /// apart (for a consumer that wants the bitmap after all).
    pub fn into_bitmap(mut self) -> Bitmap {
        let from = self.split as usize * self.width as usize * 4;
        let mut data = std::mem::take(&mut self.top);
        if let Some(bottom) = &self.bottom {
            data[from..].copy_from_slice(&bottom[from..]);
        }
        Bitmap {
            width: self.width,
            height: self.height,
            data,
        }
    }
}

impl Drop for BandPixels<'_> {
    fn drop(&mut self) {
        self.pool.give(std::mem::take(&mut self.top));
        if let Some(bottom) = self.bottom.take() {
            self.pool.give(bottom);
        }
    }
}

/// [`super::rasterize_bands`] with the stop signal as a function.
pub(super) fn rasterize_bands_until<'a, C: BandConsumer>(
    scene: &Scene,
    text: &TextEngine,
    reuse: &'a Reuse,
    stop: Stop<'_>,
    threads: Threads,
    consumer: &C,
) -> Result<Drawn<'a, C::Part>, Error> {
    let canvas = Canvas::of(scene)?;
    let (width, height) = (canvas.width, canvas.height);
    // Worked out whether or not a core is lent (the bands' rows must not depend on it):
    // the rule of a lent core, two painters where they pay.
    let split = split::worth_splitting(width, height)
        .then(|| split::split_row(scene, canvas.base, (width, height), true))
        .flatten();
    let Some(s) = split else {
        // Drawn as without a consumer; told to split always, on two threads all the same.
        let split = match threads {
            Threads::Two(lend) => Split::Balanced {
                lend,
                must_pay: false,
            },
            Threads::One | Threads::Lent(_) => Split::None,
        };
        return super::rasterize_until(scene, text, reuse, stop, split).map(Drawn::Whole);
    };
    let lent = match threads {
        Threads::One => None,
        Threads::Two(lend) | Threads::Lent(lend) => lend(),
    };
    let thread: Option<&dyn SecondThread> = match threads {
        Threads::Two(_) => Some(lent.as_deref().unwrap_or(&split::Started)),
        Threads::One | Threads::Lent(_) => lent.as_deref(),
    };
    let job = Job {
        scene,
        base: canvas.base,
        text,
        reuse,
        stop,
        plan: Arc::new(super::stamps::Plan::of(&scene.items, canvas.base)),
    };
    // Refused a core for the drawing, the render may find one idle for the encode (as the
    // encoder asks for one for its second half when it encodes a bitmap drawn whole).
    let retry = match (threads, thread) {
        (Threads::Lent(lend), None) => Some(lend),
        _ => None,
    };
    let drawn = draw_bands(&job, &reuse.buffers, &canvas, s, (thread, retry), consumer);
    drop(lent);
    drawn
}

/// Draws the bitmap in bands split at row `s` (within `1..height`), the bottom one on
/// `thread` when there is one, else the whole bitmap here, and hands each band to
/// `consumer` ([`Band`]): drawn here, the bottom band on the thread that `retry` lends
/// then, if it lends one.
pub(super) fn draw_bands<'a, C: BandConsumer>(
    job: &Job<'_>,
    pool: &'a pool::Pool,
    canvas: &Canvas,
    s: u32,
    (thread, retry): (Option<&dyn SecondThread>, Option<crate::SecondCore>),
    consumer: &C,
) -> Result<Drawn<'a, C::Part>, Error> {
    let (width, height) = (canvas.width, canvas.height);
    let s = s.clamp(1, height.saturating_sub(1).max(1));
    let line = width as usize * 4;
    // The band's rows after the row above it.
    let band = |data: &[u8], rows: Range<u32>| {
        let from = rows.start.saturating_sub(1) as usize * line;
        let pixels = &data[from..rows.end as usize * line];
        consumer.band(Band {
            width,
            height,
            rows,
            pixels,
            opaque: canvas.opaque,
        })
    };
    let Some(thread) = thread else {
        let mut pixmap = canvas.pixmap(pool.take_pixels(canvas.len, canvas.fill))?;
        if !job.draw(&mut pixmap, 0..height) {
            pool.give(pixmap.take());
            return Err(Error::Cancelled);
        }
        let mut data = pixmap.take();
        if !canvas.opaque {
            unpremultiply(&mut data);
        }
        let lent = retry.and_then(|lend| lend());
        let parts = match lent.as_deref() {
            None => [band(&data, 0..s), band(&data, s..height)],
            Some(thread) => {
                let (mut top, mut bottom) = (None, None);
                thread.join(&mut || bottom = Some(band(&data, s..height)), &mut || {
                    top = Some(band(&data, 0..s))
                });
                // Both have run once the join returns; here again should one not have.
                let top = top.unwrap_or_else(|| band(&data, 0..s));
                [top, bottom.unwrap_or_else(|| band(&data, s..height))]
            }
        };
        drop(lent);
        return Ok(Drawn::Bands(
            parts,
            BandPixels {
                pool,
                width,
                height,
                split: s,
                top: data,
                bottom: None,
            },
        ));
    };
    // The top band's bitmap holds the background above the split only; the bottom one's
    // band, from the row above it, is filled on its own thread.
    let mut top = pool.take_unfilled(canvas.len);
    pool::fill_background(&mut top[..s as usize * line], canvas.fill);
    let mut top = canvas.pixmap(top)?;
    let mut bottom = canvas.pixmap(pool.take_unfilled(canvas.len))?;
    let (mut top_part, mut bottom_part) = (None, None);
    // Each painter unpremultiplies its own rows (the row above the bottom band in its own
    // bitmap) before handing them over.
    let finish = |pixmap: &mut tiny_skia::Pixmap, rows: Range<u32>| {
        let data = pixmap.data_mut();
        if !canvas.opaque {
            let from = rows.start.saturating_sub(1) as usize * line;
            unpremultiply(&mut data[from..rows.end as usize * line]);
        }
        band(data, rows)
    };
    thread.join(
        &mut || {
            let above = (s - 1) as usize * line;
            pool::fill_background(&mut bottom.data_mut()[above..], canvas.fill);
            if job.draw(&mut bottom, s - 1..height) && !(job.stop)() {
                bottom_part = Some(finish(&mut bottom, s..height));
            }
        },
        &mut || {
            if job.draw(&mut top, 0..s) && !(job.stop)() {
                top_part = Some(finish(&mut top, 0..s));
            }
        },
    );
    let pixels = BandPixels {
        pool,
        width,
        height,
        split: s,
        top: top.take(),
        bottom: Some(bottom.take()),
    };
    match (top_part, bottom_part) {
        (Some(top), Some(bottom)) => Ok(Drawn::Bands([top, bottom], pixels)),
        // Cut short by the stop: the pixels go back to the pool.
        _ => Err(Error::Cancelled),
    }
}
