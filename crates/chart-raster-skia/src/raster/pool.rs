//! Pixel and mask buffers kept between renders.
//!
//! A chart at the service's default size (800×600 at dpr 2) is a 7.7 MB bitmap, and every
//! clip mask another 1.9 MB. Freshly allocated, such buffers come from the kernel a page at a
//! time: measured here, ~2,900 page faults and ~7 ms of kernel time per render, more than
//! all the drawing. Reusing them takes the faults away. The pool is bounded, so a burst of
//! huge renders does not pin memory: buffers over [`MAX_BUFFER_BYTES`] are never kept, and
//! at most [`MAX_POOLED_BYTES`] are.

use std::sync::Mutex;

/// Buffers larger than this (a 2,900 × 2,900 bitmap) are freed, not kept.
pub const MAX_BUFFER_BYTES: usize = 32 << 20;
/// The pool keeps at most this many bytes in all.
pub const MAX_POOLED_BYTES: usize = 96 << 20;

/// Reusable pixel buffers and clip masks, shared by the renders of one engine.
#[derive(Default)]
pub struct Pool {
    inner: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    bytes: Vec<Vec<u8>>,
    masks: Vec<tiny_skia::Mask>,
}

impl Kept {
    fn total(&self) -> usize {
        let bytes: usize = self.bytes.iter().map(Vec::capacity).sum();
        let masks: usize = self.masks.iter().map(|m| m.data().len()).sum();
        bytes + masks
    }
}

impl Pool {
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // A render that panicked cannot leave the lists half-changed: every change is one
        // push or remove.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A kept buffer of at least `len` bytes' capacity (the smallest such, so large ones stay
    /// for large renders), with whatever it held.
    fn take_kept(&self, len: usize) -> Option<Vec<u8>> {
        let mut kept = self.lock();
        let best = kept
            .bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= len)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        best.map(|i| kept.bytes.swap_remove(i))
    }

    /// A buffer of `len` bytes, every one `value`: a kept one when one is large enough,
    /// else a new one.
    pub fn take_filled(&self, len: usize, value: u8) -> Vec<u8> {
        let mut buf = self.take_kept(len).unwrap_or_default();
        buf.clear();
        buf.resize(len, value);
        buf
    }

    /// A buffer of `len` bytes (a multiple of 4) holding `pixel` over and over: the bitmap
    /// with its background. Written once, in 32-byte stores: a kept buffer is only cut to
    /// length (clearing it first, as [`Pool::take_filled`] does, writes the 7.7 MB of a
    /// default bitmap twice when the background is not one byte repeated), and a new one
    /// comes zeroed from the allocator without a pass of its own.
    pub fn take_pixels(&self, len: usize, pixel: [u8; 4]) -> Vec<u8> {
        let mut buf = self.take_unfilled(len);
        fill_background(&mut buf, pixel);
        buf
    }

    /// A buffer of `len` bytes holding whatever it held (a kept one) or zeros: for a
    /// bitmap whose rows are written before they are read.
    pub fn take_unfilled(&self, len: usize) -> Vec<u8> {
        match self.take_kept(len) {
            Some(mut buf) => {
                buf.truncate(len);
                buf.resize(len, 0);
                buf
            }
            // Zeroed by the kernel page by page, not in a pass of its own.
            None => vec![0; len],
        }
    }

    /// A clear (all zero) `width × height` mask.
    pub fn take_mask(&self, width: u32, height: u32) -> Option<tiny_skia::Mask> {
        let kept = {
            let mut kept = self.lock();
            let i = kept
                .masks
                .iter()
                .position(|m| m.width() == width && m.height() == height);
            i.map(|i| kept.masks.swap_remove(i))
        };
        match kept {
            Some(mut m) => {
                m.clear();
                Some(m)
            }
            None => tiny_skia::Mask::new(width, height),
        }
    }

    /// Returns a buffer for later renders (or frees it, past the bounds).
    pub fn give(&self, buf: Vec<u8>) {
        let cap = buf.capacity();
        if cap == 0 || cap > MAX_BUFFER_BYTES {
            return;
        }
        let mut kept = self.lock();
        kept.bytes.push(buf);
        Self::trim(&mut kept);
    }

    /// Returns a mask for later renders (or frees it, past the bounds).
    pub fn give_mask(&self, mask: tiny_skia::Mask) {
        if mask.data().len() > MAX_BUFFER_BYTES {
            return;
        }
        let mut kept = self.lock();
        kept.masks.push(mask);
        Self::trim(&mut kept);
    }

    /// Over the budget, the oldest masks go first, then the smallest byte buffers.
    fn trim(kept: &mut Kept) {
        while kept.total() > MAX_POOLED_BYTES {
            if !kept.masks.is_empty() {
                kept.masks.remove(0);
                continue;
            }
            let smallest = kept
                .bytes
                .iter()
                .enumerate()
                .min_by_key(|(_, b)| b.capacity())
                .map(|(i, _)| i);
            match smallest {
                Some(i) => drop(kept.bytes.swap_remove(i)),
                None => break,
            }
        }
    }

    /// Bytes kept now.
    pub fn pooled_bytes(&self) -> usize {
        self.lock().total()
    }
}

/// Writes `pixel` over whole pixels `buf`, in 32-byte stores (a bitmap's background).
pub(super) fn fill_background(buf: &mut [u8], pixel: [u8; 4]) {
    let mut pattern = [0u8; 32];
    for p in pattern.chunks_exact_mut(4) {
        p.copy_from_slice(&pixel);
    }
    let mut chunks = buf.chunks_exact_mut(pattern.len());
    for c in &mut chunks {
        c.copy_from_slice(&pattern);
    }
    // Whole pixels, so the tail starts on a pixel as the pattern does.
    for (b, p) in chunks.into_remainder().iter_mut().zip(pattern) {
        *b = p;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reuses_a_returned_buffer() {
        let pool = Pool::default();
        let a = pool.take_filled(1000, 7);
        let ptr = a.as_ptr();
        pool.give(a);
        assert_eq!(pool.pooled_bytes(), 1000);
        let b = pool.take_filled(800, 1);
        assert_eq!(b.as_ptr(), ptr, "the kept buffer is handed out again");
        assert!(b.len() == 800 && b.iter().all(|&v| v == 1));
        assert_eq!(pool.pooled_bytes(), 0);
        // Too small for the next request: a new buffer, filled all the same.
        pool.give(b);
        let c = pool.take_filled(2000, 0);
        assert!(c.len() == 2000 && c.iter().all(|&v| v == 0));
        assert_eq!(pool.pooled_bytes(), 1000, "the small one is still kept");
    }

    #[test]
    fn pixels_fill_every_byte_of_kept_and_new_buffers() {
        let pool = Pool::default();
        let px = [1, 2, 3, 4];
        for len in [0, 4, 28, 32, 36, 1000, 4004] {
            let b = pool.take_pixels(len, px);
            assert_eq!(b.len(), len);
            assert!(b.chunks_exact(4).all(|c| c == px), "{len} bytes");
            // Returned dirty, handed out again for a shorter and a longer request.
            let mut b = b;
            b.iter_mut().for_each(|v| *v = 9);
            pool.give(b);
        }
        let b = pool.take_pixels(4000, [7, 7, 7, 7]);
        assert!(b.len() == 4000 && b.iter().all(|&v| v == 7));
    }

    #[test]
    fn masks_come_back_clear() {
        let pool = Pool::default();
        let mut m = pool.take_mask(4, 3).unwrap();
        m.data_mut().fill(200);
        pool.give_mask(m);
        let m = pool.take_mask(4, 3).unwrap();
        assert!(m.data().iter().all(|&v| v == 0));
        assert!(pool.take_mask(0, 3).is_none(), "an empty mask is refused");
    }

    #[test]
    fn stays_within_its_bounds() {
        let pool = Pool::default();
        pool.give(Vec::with_capacity(MAX_BUFFER_BYTES + 1));
        assert_eq!(pool.pooled_bytes(), 0, "an oversized buffer is freed");
        for _ in 0..5 {
            pool.give(Vec::with_capacity(MAX_BUFFER_BYTES));
        }
        assert_eq!(pool.pooled_bytes(), 3 * MAX_BUFFER_BYTES);
        pool.give_mask(tiny_skia::Mask::new(100, 100).unwrap());
        assert!(pool.pooled_bytes() <= MAX_POOLED_BYTES);
    }
}
