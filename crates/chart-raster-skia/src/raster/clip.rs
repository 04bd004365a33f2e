//! The clip stack of a render.
//!
//! Chart.js clips each dataset to the chart area, so the same rectangle is pushed again and
//! again: clips are cached per (path, transform, parent). A rectangle stays a rectangle
//! (rectangles within rectangles are intersected geometrically, as Skia's `SkClipStack`
//! does with anti-aliased rectangles), and its coverage mask is built only when something
//! other than a rectangle is drawn under it: rectangles under a rectangle clip compute the
//! mask's values on the fly ([`super::rect::Clip::Rect`]), so a bar chart builds no mask.

use super::convert::{build_path, device_rect, ts};
use super::{pool::Pool, rect};
use crate::scene::{Path, Transform};
use std::cell::OnceCell;
use std::rc::Rc;

/// A clip that hides part of the bitmap.
pub(super) struct Region {
    /// The device rectangle (x0, y0, x1, y1) when the clip is one.
    rect: Option<[f32; 4]>,
    /// The whole device pixels where the clip is fully opaque: items inside are drawn
    /// without it, which is the same result for less work.
    inner: Option<[f32; 4]>,
    /// The coverage mask; built on first use for rectangles.
    mask: OnceCell<tiny_skia::Mask>,
}

impl Region {
    /// A rectangle clip: a non-empty, finite device rectangle.
    fn rect(r: [f32; 4]) -> Self {
        let i = [r[0].ceil(), r[1].ceil(), r[2].floor(), r[3].floor()];
        Self {
            rect: Some(r),
            inner: (i[0] < i[2] && i[1] < i[3]).then_some(i),
            mask: OnceCell::new(),
        }
    }

    /// The coverage mask, built now if this is a rectangle that has none yet.
    fn mask(&self, pool: &Pool, w: u32, h: u32) -> Option<&tiny_skia::Mask> {
        if let Some(m) = self.mask.get() {
            return Some(m);
        }
        let r = self.rect?;
        let mut m = pool.take_mask(w, h)?;
        if rect::supported(r, w, h) {
            rect::cover_mask(m.data_mut(), w, h, r);
        } else if let Some(rr) = tiny_skia::Rect::from_ltrb(r[0], r[1], r[2], r[3]) {
            m.fill_path(
                &tiny_skia::PathBuilder::from_rect(rr),
                tiny_skia::FillRule::Winding,
                true,
                tiny_skia::Transform::identity(),
            );
        }
        Some(self.mask.get_or_init(|| m))
    }

    /// Whether device `bounds` lie where the clip is fully opaque.
    fn contains(&self, bounds: Option<[f32; 4]>) -> bool {
        let (Some(inner), Some(b)) = (self.inner, bounds) else {
            return false;
        };
        // Anti-aliased edges reach half a pixel further: compare whole pixels.
        b[0].floor() >= inner[0]
            && b[1].floor() >= inner[1]
            && b[2].ceil() <= inner[2]
            && b[3].ceil() <= inner[3]
    }
}

/// One level of the clip stack.
#[derive(Clone)]
enum Clip {
    /// Everything visible (no clip, or one around the whole bitmap).
    All,
    /// Part visible (shared: the same clip is often pushed many times).
    Region(Rc<Region>),
    /// Nothing visible (an empty path or an empty intersection).
    Nothing,
}

/// What hides part of a drawing; `Err(Hidden)` from the look-ups when all of it is hidden.
#[derive(Debug)]
pub(super) struct Hidden;

/// Clips nested deeper than this hide everything drawn inside them.
const MAX_DEPTH: usize = 32;
/// Clips kept for reuse per render.
const MAX_CACHED: usize = 64;

/// The clip stack, with the clips built so far.
pub(super) struct ClipStack {
    stack: Vec<Clip>,
    /// Clips built earlier, by path, transform and parent (the parent's address: every
    /// region on the stack is kept alive here, so an address is never reused).
    cache: Vec<(Path, Transform, Option<usize>, Rc<Region>)>,
    width: u32,
    height: u32,
}

impl ClipStack {
    pub(super) fn new(width: u32, height: u32) -> Self {
        Self {
            stack: Vec::new(),
            cache: Vec::new(),
            width,
            height,
        }
    }

    /// The clip mask for drawing inside device `bounds` (`None` when nothing there is
    /// clipped).
    pub(super) fn mask_for(
        &self,
        bounds: Option<[f32; 4]>,
        pool: &Pool,
    ) -> Result<Option<&tiny_skia::Mask>, Hidden> {
        match self.stack.last() {
            None | Some(Clip::All) => Ok(None),
            Some(Clip::Nothing) => Err(Hidden),
            Some(Clip::Region(r)) if r.contains(bounds) => Ok(None),
            Some(Clip::Region(r)) => Ok(r.mask(pool, self.width, self.height)),
        }
    }

    /// The clip for filling the device rectangle `bounds`: a rectangle clip stays one.
    pub(super) fn rect_clip_for(
        &self,
        bounds: [f32; 4],
        pool: &Pool,
    ) -> Result<rect::Clip<'_>, Hidden> {
        match self.stack.last() {
            Some(Clip::Region(r)) if !r.contains(Some(bounds)) => match r.rect {
                Some(c) => Ok(rect::Clip::Rect(c)),
                None => Ok(r
                    .mask(pool, self.width, self.height)
                    .map_or(rect::Clip::None, |m| rect::Clip::Mask(m.data()))),
            },
            _ => self
                .mask_for(Some(bounds), pool)
                .map(|m| m.map_or(rect::Clip::None, |m| rect::Clip::Mask(m.data()))),
        }
    }

    pub(super) fn pop(&mut self) {
        self.stack.pop();
    }

    /// Pushes the intersection of the current clip with `path` under the device transform
    /// `t`.
    pub(super) fn push(&mut self, path: &Path, t: Transform, pool: &Pool) {
        let parent = self.stack.last().cloned().unwrap_or(Clip::All);
        let next = match &parent {
            Clip::Nothing => Clip::Nothing,
            // Each level may hold a bitmap-sized mask: a display list nesting clips deeper
            // than any chart does (Chart.js nests three or four) draws nothing more.
            _ if self.stack.len() >= MAX_DEPTH => Clip::Nothing,
            // A clip around the whole bitmap changes nothing.
            _ if self.covers_bitmap(path, t) => parent,
            Clip::All | Clip::Region(_) => {
                let parent_region = match &parent {
                    Clip::Region(r) => Some(r),
                    _ => None,
                };
                let parent_key = parent_region.map(|r| Rc::as_ptr(r) as usize);
                let cached = self
                    .cache
                    .iter()
                    .find(|(p, ct, pk, _)| *pk == parent_key && *ct == t && p == path);
                match cached {
                    Some((.., r)) => Clip::Region(r.clone()),
                    None => match self.build(path, t, parent_region, pool) {
                        Some(region) => {
                            let region = Rc::new(region);
                            // Only the first clips are kept (and so stay alive, their
                            // addresses never reused while they key the cache): a chart
                            // repeats a few clips, a hostile list would fill memory.
                            if self.cache.len() < MAX_CACHED {
                                self.cache
                                    .push((path.clone(), t, parent_key, region.clone()));
                            }
                            Clip::Region(region)
                        }
                        None => Clip::Nothing,
                    },
                }
            }
        };
        self.stack.push(next);
    }

    /// The region of `path` within `parent`; `None` when nothing is visible.
    fn build(
        &self,
        path: &Path,
        t: Transform,
        parent: Option<&Rc<Region>>,
        pool: &Pool,
    ) -> Option<Region> {
        let (w, h) = (self.width, self.height);
        let p = build_path(path)?;
        let rect = match (device_rect(path, t), parent.map(|r| r.rect)) {
            (Some(r), None) => Some(r),
            (Some(r), Some(Some(q))) => Some([
                r[0].max(q[0]),
                r[1].max(q[1]),
                r[2].min(q[2]),
                r[3].min(q[3]),
            ]),
            _ => None,
        };
        if let Some(r) = rect {
            // An empty intersection leaves nothing visible.
            let visible = r.iter().all(|v| v.is_finite()) && r[0] < r[2] && r[1] < r[3];
            return visible.then(|| Region::rect(r));
        }
        let mut m = pool.take_mask(w, h)?;
        match parent {
            Some(parent) => {
                m.data_mut()
                    .copy_from_slice(parent.mask(pool, w, h)?.data());
                m.intersect_path(&p, tiny_skia::FillRule::Winding, true, ts(t));
            }
            None => m.fill_path(&p, tiny_skia::FillRule::Winding, true, ts(t)),
        }
        Some(Region {
            rect: None,
            inner: None,
            mask: OnceCell::from(m),
        })
    }

    /// Whether a clip path is an axis-aligned rectangle containing the whole bitmap.
    fn covers_bitmap(&self, path: &Path, t: Transform) -> bool {
        let (w, h) = (self.width as f32, self.height as f32);
        device_rect(path, t).is_some_and(|r| r[0] <= 0.0 && r[1] <= 0.0 && r[2] >= w && r[3] >= h)
    }

    /// Returns the masks built during the render to the pool.
    pub(super) fn recycle(mut self, pool: &Pool) {
        self.stack.clear();
        for (.., region) in self.cache.drain(..) {
            if let Some(mut region) = Rc::into_inner(region) {
                if let Some(m) = region.mask.take() {
                    pool.give_mask(m);
                }
            }
        }
    }
}
