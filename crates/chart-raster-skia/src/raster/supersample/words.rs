//! A span's coverage added to the row in aligned blocks of sixteen bytes.
//!
//! The row is read and written again on each of a pixel row's four sub-scanlines, a few
//! edges apart. Written a byte at a time at the span's ends and a word at a time at
//! unaligned columns in between, the next wider read of the same bytes could find them
//! still in the store queue in several pieces, which a load cannot take its bytes from: it
//! waits for them to reach the cache (perf, line 3×50 through the service: the span adds
//! held 55% of the list walk's samples, most on the instructions after those loads). Every
//! access here is one whole aligned block, each load exactly a block an earlier store wrote,
//! and the flush reads and clears the row in the same blocks.

/// Bytes per block: every access to the row is one whole aligned block.
pub(super) const BLOCK: usize = 16;

/// `AlphaRuns::add` of one span on the row's bytes: `start` (clamped, when not 0) at
/// `first`, `max_value` (clamped) on the whole pixels `first + (start != 0)..z`, `stop`
/// (wrapping, when not 0) at `z`; the last column touched (`z`, or `z - 1` without `stop`)
/// within the row, the slack after it taking the last block's overhang.
///
/// All three as one saturating add per block: a pixel row's four sub-scanlines give a
/// pixel at most 64 each (a sub-scanline's spans cover distinct quarter columns, 16 each;
/// a whole pixel 64, or 63 on the last), so a pixel's sum is at most 256, where the clamp
/// (`t - (t >> 8)`) gives 255 as saturation does, and below which the clamp, the wrapping
/// add and saturation all add plainly. Debug builds check each block against the adds
/// one by one.
///
/// A span within two blocks from its first one's (a stroke outline's, mostly: on the time
/// series every span) is added as one window of both, its masks read once, without the
/// loop and its clamps (the slack after the row takes the second block past it).
#[inline(always)]
pub(super) fn add_span(acc: &mut [u8], first: usize, start: u8, z: usize, max_value: u8, stop: u8) {
    let a = first + usize::from(start != 0);
    let last = if stop != 0 { z } else { z - 1 };
    let mut b = first & !(BLOCK - 1);
    if last < b + WINDOW {
        let window = &mut acc[b..b + WINDOW];
        let mut bytes: [u8; WINDOW] = window.try_into().unwrap_or([0; WINDOW]);
        #[cfg(debug_assertions)]
        let expected: Vec<u8> = (0..2)
            .flat_map(|k| {
                let at = b + k * BLOCK;
                let block = bytes[k * BLOCK..(k + 1) * BLOCK]
                    .try_into()
                    .unwrap_or([0; BLOCK]);
                one_by_one(block, at, (first, start), (a, z, max_value), stop)
            })
            .collect();
        // Within the window: `a - b` and `z - b` at most its width, `first - b` below a block.
        let (below_a, below_z) = (below::<WINDOW>(a - b), below::<WINDOW>(z - b));
        let (at_z, at_first) = (at::<WINDOW>(z - b), at::<WINDOW>(first - b));
        for i in 0..WINDOW {
            let add =
                (max_value & below_z[i] & !below_a[i]) | (stop & at_z[i]) | (start & at_first[i]);
            bytes[i] = bytes[i].saturating_add(add);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(&bytes[..], &expected[..], "a pixel row summing past 256");
        window.copy_from_slice(&bytes);
        return;
    }
    let end = (last & !(BLOCK - 1)) + BLOCK;
    debug_assert!(end <= acc.len());
    while b < end {
        let block = &mut acc[b..b + BLOCK];
        let mut bytes: [u8; BLOCK] = block.try_into().unwrap_or([0; BLOCK]);
        #[cfg(debug_assertions)]
        let expected = one_by_one(bytes, b, (first, start), (a, z, max_value), stop);
        // Lane masks from tables (the whole pixels' lanes, the stop's, the start's), so
        // that the compiler adds all sixteen lanes at once.
        let (lo, hi) = (
            a.saturating_sub(b).min(BLOCK),
            z.saturating_sub(b).min(BLOCK),
        );
        let (below_lo, below_hi) = (below::<BLOCK>(lo), below::<BLOCK>(hi));
        let (at_z, at_first) = (
            at::<BLOCK>(z.wrapping_sub(b)),
            at::<BLOCK>(first.wrapping_sub(b)),
        );
        for i in 0..BLOCK {
            let add =
                (max_value & below_hi[i] & !below_lo[i]) | (stop & at_z[i]) | (start & at_first[i]);
            bytes[i] = bytes[i].saturating_add(add);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(bytes, expected, "a pixel row summing past 256");
        block.copy_from_slice(&bytes);
        b += BLOCK;
    }
}

/// Bytes of the two blocks [`add_span`] adds a short span to at once.
const WINDOW: usize = 2 * BLOCK;

/// 0xff in the first `N` lanes (a block or a window) below `n`, 0 in the others.
#[inline(always)]
fn below<const N: usize>(n: usize) -> [u8; N] {
    static EDGE: [u8; 2 * WINDOW] = {
        let mut t = [0; 2 * WINDOW];
        let mut i = 0;
        while i < WINDOW {
            t[i] = 0xff;
            i += 1;
        }
        t
    };
    let n = n.min(N);
    EDGE[WINDOW - n..WINDOW - n + N]
        .try_into()
        .unwrap_or([0; N])
}

/// 0xff in lane `p` only of the first `N` (a block or a window); none when `p` is past them.
#[inline(always)]
fn at<const N: usize>(p: usize) -> [u8; N] {
    static POINT: [u8; 2 * WINDOW + 1] = {
        let mut t = [0; 2 * WINDOW + 1];
        t[WINDOW] = 0xff;
        t
    };
    let p = p.min(N);
    POINT[WINDOW - p..WINDOW - p + N]
        .try_into()
        .unwrap_or([0; N])
}

/// The block at `b` after `AlphaRuns::add`'s byte adds, as tiny-skia makes them.
#[cfg(debug_assertions)]
fn one_by_one(
    mut bytes: [u8; BLOCK],
    b: usize,
    (first, start): (usize, u8),
    (a, z, max_value): (usize, usize, u8),
    stop: u8,
) -> [u8; BLOCK] {
    for (i, v) in bytes.iter_mut().enumerate() {
        let at = b + i;
        if at == first && start != 0 {
            *v = super::clamped_add(*v, start);
        } else if at >= a && at < z {
            *v = super::clamped_add(*v, max_value);
        } else if at == z && stop != 0 {
            *v = v.wrapping_add(stop);
        }
    }
    bytes
}

/// The row's columns `lo..=hi` widened to whole blocks (within the row and its slack).
#[inline(always)]
pub(super) fn block_range(lo: usize, hi: usize) -> (usize, usize) {
    (lo & !(BLOCK - 1), (hi & !(BLOCK - 1)) + BLOCK)
}

#[cfg(test)]
mod tests {
    use super::super::{clamped_add, SLACK};
    use super::*;

    /// A span added word by word as each byte alone, at every byte value and position, the
    /// bytes outside it kept.
    #[test]
    fn a_span_adds_as_each_byte_does() {
        let mut next = super::super::tests::xorshift(0x1234_5678_9abc_def1);
        let mut clamped = 0;
        for case in 0..20_000 {
            let len = 48;
            // What three sub-scanlines can have left (at most 192), and at the span's
            // first pixel at times exactly what makes the clamp show (256 in all).
            let mut acc: Vec<u8> = (0..len + SLACK).map(|_| next(193) as u8).collect();
            let first = next(len as u64 - 1) as usize;
            let start = [0, 16, 32, 48][next(4) as usize] as u8;
            let a = first + usize::from(start != 0);
            let z = (a + next((len - a) as u64) as usize).max(first + 1);
            let stop = if z < len {
                [0, 16, 32, 48][next(4) as usize]
            } else {
                0
            };
            let max_value = [63u8, 64][next(2) as usize];
            if case % 3 == 0 && start != 0 {
                acc[first] = 0u8.wrapping_sub(start);
            }
            let mut expected = acc.clone();
            if start != 0 {
                expected[first] = clamped_add(expected[first], start);
            }
            for v in &mut expected[a..z] {
                *v = clamped_add(*v, max_value);
            }
            if stop != 0 {
                expected[z] = expected[z].wrapping_add(stop);
            }
            add_span(&mut acc, first, start, z, max_value, stop);
            assert_eq!(acc, expected, "case {case}: {first} {start} {z} {stop}");
            clamped += usize::from(start != 0 && acc[first] == 255);
        }
        assert!(clamped > 1000, "only {clamped} clamped");
    }
}
