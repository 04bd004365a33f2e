//! A small deflate encoder (RFC 1951) in a zlib wrapper (RFC 1950), written for the PNG
//! data of charts.
//!
//! Why our own: after the `Up` filter, a chart's PNG data is mostly zeros (every row that
//! repeats the row above, every span of 16 pixels equal to the span above), with the rest
//! in short stretches: edges, text, anti-aliased curves. zlib at level 2 spent about 26 M
//! instructions on a 1600×1200 bar chart, most of them walking through those zeros. Here a
//! run of zeros costs a few word compares and becomes matches at distance 1, and a repeated
//! row (zeros after its filter byte, said so to [`Deflater::write_with`]) is never even
//! scanned.
//!
//! What it does, and what it leaves out:
//! - LZ77, greedy (no lazy matching): a run of zeros is a string of distance-1 matches
//!   (after one literal zero when the byte before is not zero); elsewhere a hash of the next
//!   4 bytes leads to the last positions that began with the same hash (2 with
//!   [`Effort::Default`], 1 with [`Effort::Fast`]), and the longest match of at least 4
//!   bytes is taken. One candidate instead of 8 was 3% larger on the benchmark's charts
//!   and up to 1.6× larger on translucent fixtures (the diagonal edges of a row match the
//!   row above a few pixels over, behind other positions of the same hash), for 0–5% fewer
//!   instructions; in time per encode (what the service waits for: each candidate is a
//!   branch that goes either way at random and a read of the history), each position
//!   fewer saves more than its instructions say ([`Effort`]).
//! - Huffman (`block.rs`): each block of `BLOCK_SYMBOLS` symbols gets its own
//!   length-limited codes (dynamic block) unless the fixed codes of the format come out
//!   smaller. No stored blocks: on data that does not compress (noise), literals cost about
//!   8 bits each either way.
//! - Parts: a stream can be deflated in parts at the same time ([`Deflater::continuation`],
//!   [`Part::join`]): each part's matches stay within it, the first ends on a byte boundary
//!   with an empty stored block (zlib's sync flush), and the checksums combine.
//! - Output: on the benchmark's 15 charts 2–8% under zlib level 2's bytes, 3% in all; zlib
//!   level 6 (`PNG_COMPRESSION=small`) between 6% under and 3% over, 2% under in all.
//!
//! The stream is valid for any input: it is tested against real inflaters (zlib-rs through
//! flate2, and the `png` crate's decoder) on random data, runs, and lengths at the limits
//! of the format.

use super::block::{BitWriter, Block, BLOCK_SYMBOLS, MAX_MATCH};
use simd_adler32::Adler32;

/// Deflate's largest match distance and the history kept behind the next byte.
const WINDOW: usize = 32 * 1024;
/// Bytes left unencoded at the end of the input until more arrive (or the stream ends): a
/// match starting before them can be as long as the format allows, and reading words of 8
/// bytes needs no bound check.
const LOOKAHEAD: usize = MAX_MATCH + 16;
/// The input buffer: history, then bytes not yet encoded. Full, it drops what lies more than
/// [`WINDOW`] behind the next byte (one copy of at most `WINDOW + LOOKAHEAD` bytes).
///
/// Four windows (128 KiB) rather than sixteen: with the hash tables (384 KiB) it stays in a
/// core's L2 (1 MiB here) while the rows stream through, for a third more bytes copied by
/// the slides. The same bytes; time per encode on one thread (the minimum of 4 alternating
/// runs of 30 encodes, 2026-11-27): line 0.95–0.985, area 0.98–0.995, time series 0.98–0.99,
/// scatter 1,000 0.99, scatter 10,000 1.00; two windows were 1–4% slower than four.
const BUFFER: usize = 4 * WINDOW;
/// Zero bytes kept after the input's end when the stream ends, so that the last matches
/// read whole words like the others (what they read there is never taken).
const SLACK: usize = 16;
/// Zeros are written in pieces of this many bytes (see [`Deflater::grow`]).
const PIECE: usize = 1024;
/// log2 of the hash table's size (4-byte strings to their last position): a 256 KiB table,
/// cleared for every stream and held by each half's thread. Against 15 bits: fewer strings
/// share a slot on dense anti-aliased images, so fewer candidates fail their compare:
/// 9% less time per encode on scatter 10,000 (2–4% on scatter 1,000, the others within
/// 1%) for 0.3% fewer bytes there. Earlier, 16 bits had cut the service's cache-miss
/// capacity under load by about 15% (`cargo xtask loadtest --soak`, bar chart with
/// borders: 459–485 req/s against 530–608 at 15 bits, the same run), measured while every
/// stream's tables were new pages faulted in one by one; with the tables kept ([`Spare`])
/// the capacity is the same either way (2026-11-27, alternating runs: medians 546 and 546
/// req/s).
const HASH_BITS: u32 = 16;

/// How hard the match finder looks: what `PNG_COMPRESSION`'s `fast` and `default` trade.
///
/// Measured on the 15 charts of `cargo xtask bench-peers` (bytes, callgrind instructions
/// of `encode::png`, and time per encode on one thread): what is left after the search is
/// the work per byte that every mode does (the rows' passes, the symbols, the bits), so
/// the search's knobs move the instructions by a few percent each, but the time by more:
/// a candidate that fails is a mispredicted branch and a read of the history. Chains of 4
/// positions, a nice length of 32 and the positions inside matches of up to 8 bytes hashed
/// (`default` until 2026-11-27) were 1.9% smaller on the benchmark's charts (3.1% on the
/// Chart.js fixtures, at most 1.20× on one translucent radar fixture) than `Default` now,
/// and took 4–18% more time per encode (line 1.07×, area 1.08×, radar 1.10×, scatter
/// 1,000 1.04×, scatter 10,000 1.18×). Chains of 2 with nice 8 were as fast for 0.2% more
/// bytes; with nice 16 and positions inside matches of up to 4 bytes hashed, 0.4% smaller
/// and 0–5% slower.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effort {
    /// One position per hash, a match of 16 bytes ends the search, nothing hashed inside
    /// matches: 1.1% more bytes than `Default` on the benchmark's charts (3.7% on the
    /// Chart.js fixtures, 1.7% on the plugin fixtures, at most 1.34× on a gradient plugin
    /// fixture) for 0–9% less time per encode (scatter 10,000: 26%). Literals skipped
    /// after 8 in a row (as LZ4 does) came out 5% larger and slower on most charts: fewer
    /// matches are more literals, and a literal costs more than a longer search.
    Fast,
    /// Chains of 2 positions (1 after a block of mostly literals: [`LITERAL_HEAVY`]), a
    /// match of 16 bytes ends the search, nothing hashed inside matches. On scatter 10,000
    /// (dense anti-aliased discs) hashing inside matches of up to 32 bytes cost 20 M
    /// instructions more than 8 for 0.7% fewer bytes.
    Default,
}

/// A zlib stream being written: bytes go in with [`Deflater::write`] and
/// [`Deflater::write_with`], the stream comes out of [`Deflater::finish`].
pub(super) struct Deflater {
    /// History (up to [`WINDOW`] bytes before `pos`) and input not yet encoded, up to
    /// `end`; what lies beyond (zeros, or bytes a slide left) is read by word compares
    /// but never matched.
    buf: Vec<u8>,
    /// The end of the input in `buf`.
    end: usize,
    /// The next byte to encode, in `buf`.
    pos: usize,
    /// Stream offset of `buf[0]` (wrapping: only differences of offsets are used).
    base: u32,
    /// The zeros that ended the last bytes written ([`Deflater::write_with`]), in `buf`
    /// (empty when gone).
    zeros: std::ops::Range<usize>,
    /// The hash chains: hash of 4 bytes → stream offset of the last position that began
    /// with them, and stream offset (modulo [`WINDOW`]) → the previous position with the
    /// same hash.
    chains: Box<Chains>,
    block: Block,
    bits: BitWriter,
    adler: Adler32,
    /// Bytes written so far (for [`Part::join`]'s checksum).
    written: u64,
    effort: Effort,
    /// Whether the last full block was more than [`LITERAL_HEAVY`] literals: then
    /// [`Effort::Default`] tries one position per hash, as [`Effort::Fast`] does.
    literal_heavy: bool,
}

/// A match this long ends the search, in every [`Effort`].
const NICE: usize = 16;

/// Literals in a block of [`BLOCK_SYMBOLS`] above which the next block's match finder
/// tries one position per hash instead of two (three quarters).
///
/// Where most positions find no match (dense anti-aliased discs: scatter 10,000 is 87%
/// literals), the second position of a chain is one more history read and branch per
/// literal for few matches: one position took 9% less time per encode there (3% on
/// scatter 1,000) for 1.4% (0.5%) more bytes. The other benchmark charts never cross it
/// (the same bytes), nor do the Chart.js fixtures; the plugin and gallery images come
/// out 0.05% and 0.01% larger. Decided per block from the last one, so the same data
/// gives the same bytes.
const LITERAL_HEAVY: usize = BLOCK_SYMBOLS / 4 * 3;

/// The match finder's tables. A stale or colliding entry only costs a compare: a match is
/// taken after its bytes are checked.
struct Chains {
    head: [u32; 1 << HASH_BITS],
    prev: [u32; WINDOW],
}

impl Chains {
    /// Records that the 4 bytes at stream offset `here` are `word`; returns the offset of
    /// the last position that began with the same hash.
    #[inline(always)]
    fn insert(&mut self, here: u32, word: u32) -> u32 {
        let slot = (word.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize;
        let last = self.head[slot];
        self.head[slot] = here;
        self.prev[here as usize % WINDOW] = last;
        last
    }
}

/// The tables, input buffers and blocks of finished streams, kept for the next ones.
///
/// Why: fresh from the allocator, the tables' pages were often pages it had given back to
/// the OS. Reading a slot before writing it maps the kernel's shared zero page, and the
/// write that follows copies it and flushes the TLB of every core running one of the
/// process's threads (an inter-processor interrupt, slow in a VM): `perf` on the service
/// rendering the line chart found 10% of its CPU time in those faults, every one in
/// [`Deflater::encode`]. Kept tables are cleared with stores to pages already mapped.
/// The block's symbols (64 KiB, 16 pages written for the first time by each stream) were
/// most of the faults left there: about 30 a request on the line chart of 70 in all
/// (`perf record -e page-faults` on the service), so they are kept too.
///
/// At most [`SPARES`] are kept (two renders at once, two halves each: 2.3 MiB at most); a
/// stream dropped unfinished (an error) frees its own.
struct Spare;

/// How many finished streams' tables and buffers [`Spare`] keeps.
const SPARES: usize = 4;

/// What a stream keeps for the next one ([`Spare`]).
struct Kept {
    chains: Box<Chains>,
    buf: Vec<u8>,
    block: Block,
}

/// Tables, buffers and blocks of finished streams (see [`Spare`]).
static SPARES_KEPT: std::sync::Mutex<Vec<Kept>> = std::sync::Mutex::new(Vec::new());

impl Spare {
    /// Cleared tables, an empty buffer (with room for [`BUFFER`] bytes and the slack) and
    /// an empty block: kept ones when there are, else new ones.
    fn take() -> Kept {
        let kept = SPARES_KEPT.lock().ok().and_then(|mut kept| kept.pop());
        match kept {
            Some(Kept {
                mut chains,
                mut buf,
                mut block,
            }) => {
                // In pieces of 1 KiB, as in `grow`: not one `rep stosb`.
                for piece in chains.head.chunks_mut(PIECE / 4) {
                    piece.fill(0);
                }
                for piece in chains.prev.chunks_mut(PIECE / 4) {
                    piece.fill(0);
                }
                buf.clear();
                block.clear();
                Kept { chains, buf, block }
            }
            None => Kept {
                chains: Box::new(Chains {
                    head: [0; 1 << HASH_BITS],
                    prev: [0; WINDOW],
                }),
                buf: Vec::with_capacity(BUFFER + SLACK),
                block: Block::new(),
            },
        }
    }

    /// Keeps a finished stream's tables, buffer and block, unless [`SPARES`] are kept
    /// already.
    fn give(spare: Kept) {
        if let Ok(mut kept) = SPARES_KEPT.lock() {
            if kept.len() < SPARES {
                kept.push(spare);
            }
        }
    }
}

impl Deflater {
    /// A stream written after the bytes already in `out` (a PNG file's first chunks), which
    /// it keeps: its capacity is the room for the stream.
    pub(super) fn new(effort: Effort, mut out: Vec<u8>) -> Self {
        // zlib header: deflate with a 32 KiB window, no dictionary, "fast" compression; the
        // two bytes are a multiple of 31 as RFC 1950 asks.
        out.extend_from_slice(&[0x78, 0x5E]);
        Self::writing_to(effort, out)
    }

    /// The deflate blocks of a part of a stream that another [`Deflater`] began: no zlib
    /// header, and its matches reach no further back than its own first byte, so that it
    /// can be encoded at the same time as the part before it ([`Part::join`]).
    pub(super) fn continuation(effort: Effort, capacity: usize) -> Self {
        Self::writing_to(effort, Vec::with_capacity(capacity))
    }

    fn writing_to(effort: Effort, out: Vec<u8>) -> Self {
        let Kept { chains, buf, block } = Spare::take();
        Self {
            buf,
            end: 0,
            pos: 0,
            base: 0,
            zeros: 0..0,
            chains,
            block,
            bits: BitWriter::new(out),
            adler: Adler32::new(),
            written: 0,
            effort,
            literal_heavy: false,
        }
    }

    /// Appends bytes to the stream.
    pub(super) fn write(&mut self, mut data: &[u8]) {
        self.adler.write(data);
        self.written += data.len() as u64;
        while !data.is_empty() {
            let n = self.make_room(data.len());
            let start = self.end;
            self.buf[start..start + n].copy_from_slice(&data[..n]);
            data = &data[n..];
            self.end += n;
            self.encode(self.end, self.end.saturating_sub(LOOKAHEAD));
        }
    }

    /// Appends `n` bytes that `fill` writes, straight into the input buffer (a PNG row,
    /// filtered where it will be deflated: no copy). `fill` returns how many of them, from
    /// the first, may be other than zero: the zeros after them (a row that repeats the row
    /// above, after its filter byte) are summed without being read ([`zeros_adler`]), and
    /// the run that reaches them does not scan them again.
    pub(super) fn write_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8]) -> usize) {
        if n > BUFFER - WINDOW - LOOKAHEAD {
            // Longer than the buffer holds beside its history: through a copy.
            let mut data = vec![0; n];
            fill(&mut data);
            return self.write(&data);
        }
        if self.end + n > BUFFER {
            // Encoding stops `LOOKAHEAD` bytes before the end, so after the slide at most
            // `WINDOW + LOOKAHEAD` bytes are left: `n` fit.
            self.slide();
        }
        let start = self.end;
        self.grow(start + n + SLACK);
        let data = &mut self.buf[start..start + n];
        let bytes = fill(data).min(n);
        self.adler.write(&data[..bytes]);
        if bytes < n {
            self.adler = zeros_adler(&self.adler, n - bytes);
            self.zeros = start + bytes..start + n;
        }
        self.written += n as u64;
        self.end += n;
        self.encode(self.end, self.end.saturating_sub(LOOKAHEAD));
    }

    /// Ends the stream: the last block, then the checksum of everything written.
    pub(super) fn finish(self) -> Vec<u8> {
        let part = self.finish_part(true);
        let mut out = part.bytes;
        out.extend_from_slice(&part.adler.to_be_bytes());
        out
    }

    /// Ends a part of a stream: its blocks, the last one final when `last`, else followed
    /// by an empty stored block that ends it on a byte boundary (zlib's sync flush), so
    /// that the next part's blocks can follow it byte for byte.
    pub(super) fn finish_part(mut self, last: bool) -> Part {
        let end = self.end;
        self.grow(end + SLACK);
        self.buf[end..end + SLACK].fill(0);
        self.encode(end, end);
        self.block.write(&mut self.bits, last);
        if !last {
            // BFINAL 0, BTYPE 00 (stored), then LEN 0 and its complement from a byte
            // boundary.
            self.bits.put(0, 3);
            self.bits.align();
            self.bits.put(0xFFFF_0000, 32);
        }
        Spare::give(Kept {
            chains: self.chains,
            buf: self.buf,
            block: self.block,
        });
        Part {
            bytes: self.bits.finish(),
            adler: self.adler.finish(),
            len: self.written,
        }
    }

    /// Makes room in the buffer for up to `want` bytes, dropping history more than
    /// [`WINDOW`] behind the next byte when it is full; returns how many fit (the buffer
    /// is at least that long).
    fn make_room(&mut self, want: usize) -> usize {
        if self.end == BUFFER {
            self.slide();
        }
        let n = want.min(BUFFER - self.end);
        self.grow(self.end + n + SLACK);
        n
    }

    /// Drops the history more than [`WINDOW`] behind the next byte.
    fn slide(&mut self) {
        let drop = self.pos - WINDOW.min(self.pos);
        self.buf.copy_within(drop..self.end, 0);
        self.end -= drop;
        self.pos -= drop;
        self.base = self.base.wrapping_add(drop as u32);
        self.zeros = self.zeros.start.saturating_sub(drop)..self.zeros.end.saturating_sub(drop);
    }

    /// Makes the buffer at least `len` bytes long (at most `BUFFER + SLACK`): it grows
    /// once, by zeros in pieces under glibc's threshold for `rep stosb`, whose every byte
    /// callgrind counts as an instruction (no faster either way), and keeps its length. It
    /// always reaches `SLACK` bytes past the input's end.
    fn grow(&mut self, len: usize) {
        let len = len.next_multiple_of(PIECE).min(BUFFER + SLACK);
        while self.buf.len() < len {
            let n = PIECE.min(len - self.buf.len());
            self.buf.extend_from_slice(&[0; PIECE][..n]);
        }
    }

    /// Encodes the buffered input up to `stop`; the input ends at `end` (the buffer holds
    /// at least [`SLACK`] bytes more, read but never matched).
    fn encode(&mut self, end: usize, stop: usize) {
        while self.pos < stop {
            if self.block.full() {
                let literals = self.block.write(&mut self.bits, false);
                self.literal_heavy = literals > LITERAL_HEAVY;
            }
            let p = self.pos;
            if p + 4 > end {
                // The last bytes of the stream: too few for a match.
                self.block.literal(self.buf[p]);
                self.pos += 1;
                continue;
            }
            if read_u32(&self.buf, p) == 0 {
                self.zero_run(end);
                continue;
            }
            let stop = stop.min(end - 3);
            self.pos = match self.effort {
                Effort::Fast => self.matches::<1>(end, stop),
                Effort::Default if self.literal_heavy => self.matches::<1>(end, stop),
                Effort::Default => self.matches::<2>(end, stop),
            };
        }
    }

    /// Greedy LZ77 from `pos` until `stop` (at most `end - 3`), a run of zeros, or the end
    /// of the block: at each position the longest earlier match of at least 4 bytes, else
    /// a literal. Returns the next position.
    ///
    /// The loop on its own, with the buffer, the tables and the block borrowed once: it
    /// is where the literal-heavy charts spend their time (about 1.1 M literals on scatter
    /// 10,000).
    ///
    /// `CHAIN` positions of a hash chain are tried per match ([`Effort`]), a match of
    /// [`NICE`] bytes ends the search; positions inside a match are not hashed.
    fn matches<const CHAIN: usize>(&mut self, end: usize, stop: usize) -> usize {
        let Self {
            buf,
            pos,
            base,
            chains,
            block,
            ..
        } = self;
        // Cut at what the loop reads (words up to `SLACK` bytes past the input's end), so
        // that the compiler drops the bound checks of reads below `stop`.
        let buf: &[u8] = &buf[..end + SLACK];
        // The last position with 4 bytes of input (`end - 3`), said against the slice's
        // length, so that the reads of positions below it need no bound check.
        let stop = stop.min(buf.len().saturating_sub(SLACK + 3));
        let base = *base;
        let mut p = *pos;
        let mut block = block.gather();
        while p < stop && !block.full() {
            let word = read_u32(buf, p);
            if word == 0 {
                break;
            }
            let (len, dist) = longest_match(buf, chains, (base, p), word, (CHAIN, NICE), end);
            if len >= 4 {
                block.matched(len, dist);
                p += len;
            } else {
                block.literal(buf[p]);
                p += 1;
            }
        }
        block.done();
        p
    }

    /// At least four zeros at `pos`: a literal zero unless the byte before is one, then
    /// matches at distance 1 to the end of the run (or of the buffered input).
    fn zero_run(&mut self, end: usize) {
        if self.pos == 0 || self.buf[self.pos - 1] != 0 {
            self.block.literal(0);
            self.pos += 1;
        }
        let known = if self.zeros.contains(&self.pos) {
            self.zeros.end.min(end) - self.pos
        } else {
            0
        };
        let mut run = known + zeros_at(&self.buf[self.pos + known..end]);
        // The longest matches first, as one symbol: a repeated row of a 1600-pixel chart is
        // 18 of them.
        let mut longest = run / MAX_MATCH;
        if longest > 0 && (1..3).contains(&(run % MAX_MATCH)) {
            longest -= 1;
        }
        if longest > 0 {
            self.block.longest_zero_matches(longest);
            self.pos += longest * MAX_MATCH;
            run -= longest * MAX_MATCH;
        }
        while run >= 3 {
            // A remainder of 1 or 2 would be literals: end on a shorter match instead.
            let mut len = run.min(MAX_MATCH);
            if (1..3).contains(&(run - len)) {
                len = run - 3;
            }
            self.block.matched(len, 1);
            self.pos += len;
            run -= len;
        }
    }
}

/// The longest earlier match for the bytes at `p` (buffer index; `word` is their first 4)
/// among the last [`CHAIN`] positions that began with the same hash, after recording `p`
/// as the newest: (length, distance), or a length under 4 when none.
///
/// Most positions of a literal-heavy image find no candidate with the same 4 bytes: this
/// part walks the chain to the first one that has them (or gives up) with nothing else
/// live, and [`longest_from`] compares lengths from there.
#[inline(always)]
fn longest_match(
    buf: &[u8],
    chains: &mut Chains,
    (base, p): (u32, usize),
    word: u32,
    (chain, nice): (usize, usize),
    end: usize,
) -> (usize, usize) {
    let here = base.wrapping_add(p as u32);
    let mut candidate = chains.insert(here, word);
    let reach = WINDOW.min(p);
    let mut dist = here.wrapping_sub(candidate) as usize;
    let mut tries = chain;
    while dist.wrapping_sub(1) < reach {
        if read_u32(buf, p - dist) == word {
            return longest_from(buf, chains, (here, p), dist, (tries, nice), end);
        }
        tries -= 1;
        let next = chains.prev[candidate as usize % WINDOW];
        // Links only go further back; one that does not is stale (its slot was reused).
        let next_dist = here.wrapping_sub(next) as usize;
        if tries == 0 || next_dist <= dist {
            break;
        }
        (candidate, dist) = (next, next_dist);
    }
    (0, 0)
}

/// [`longest_match`] from the first candidate whose 4 bytes agree, `dist` back from `p`
/// (stream offset `here`), with `tries` positions of the chain left (this one included).
#[inline(always)]
fn longest_from(
    buf: &[u8],
    chains: &Chains,
    (here, p): (u32, usize),
    mut dist: usize,
    (tries, nice): (usize, usize),
    end: usize,
) -> (usize, usize) {
    let max = MAX_MATCH.min(end - p);
    let reach = WINDOW.min(p);
    let word = read_u32(buf, p);
    let (mut best, mut best_dist) = (0, 0);
    for _ in 0..tries {
        let c = p - dist;
        // A longer match must agree on the byte after the best so far.
        if read_u32(buf, c) == word && (best < 4 || best >= max || buf[c + best] == buf[p + best]) {
            let len = common_prefix(buf, c, p, max);
            if len > best {
                (best, best_dist) = (len, dist);
                if len >= nice {
                    break;
                }
            }
        }
        let next = chains.prev[here.wrapping_sub(dist as u32) as usize % WINDOW];
        let next_dist = here.wrapping_sub(next) as usize;
        if next_dist <= dist || next_dist > reach {
            break;
        }
        dist = next_dist;
    }
    (best, best_dist)
}

/// The 4 bytes at `at`, little-endian (a word compare, not a call to `memcmp`).
#[inline(always)]
fn read_u32(buf: &[u8], at: usize) -> u32 {
    let b = &buf[at..at + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// How many bytes at `a` and at `b` (`a < b`) are equal, at most `max`. Compares 16 bytes
/// at a time, reading up to 15 bytes past `b + max` (the buffer always has them:
/// [`LOOKAHEAD`], [`SLACK`]); the two slices are cut once, so the loop has no bound check.
#[inline(always)]
fn common_prefix(buf: &[u8], a: usize, b: usize, max: usize) -> usize {
    let len = max.next_multiple_of(8);
    let (x, y) = (&buf[a..a + len], &buf[b..b + len]);
    for (i, (wx, wy)) in (x.as_chunks::<8>().0.iter())
        .zip(y.as_chunks::<8>().0)
        .enumerate()
    {
        let diff = u64::from_le_bytes(*wx) ^ u64::from_le_bytes(*wy);
        if diff != 0 {
            return (8 * i + (diff.trailing_zeros() / 8) as usize).min(max);
        }
    }
    max
}

/// Leading zero bytes of `data`: 32 bytes at a time (four words OR-ed: the runs between
/// a chart's edges are long), then a word at a time.
fn zeros_at(data: &[u8]) -> usize {
    let mut n = 0;
    for block in data.as_chunks::<32>().0 {
        let w = |i: usize| u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap_or([1; 8]));
        if w(0) | w(1) | w(2) | w(3) != 0 {
            break;
        }
        n += 32;
    }
    for w in data[n..].as_chunks::<8>().0 {
        let w = u64::from_le_bytes(*w);
        if w != 0 {
            return n + (w.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + data[n..].iter().take_while(|&&b| b == 0).count()
}

/// A piece of a zlib stream ([`Deflater::finish_part`]).
pub(super) struct Part {
    /// Its bytes: if it is the first part, what came before the stream and the zlib header;
    /// whole deflate blocks, ending on a byte boundary.
    bytes: Vec<u8>,
    /// The Adler-32 of its data alone.
    adler: u32,
    /// Bytes of data.
    len: u64,
}

impl Part {
    /// The stream of `self` then `next`, with the checksum of both parts' data: deflate
    /// blocks follow each other whatever they hold, so the blocks of parts encoded apart
    /// make one stream.
    pub(super) fn join(self, next: Part) -> Part {
        let mut bytes = self.bytes;
        bytes.extend_from_slice(&next.bytes);
        Part {
            bytes,
            adler: adler_concat(self.adler, next.adler, next.len),
            len: self.len + next.len,
        }
    }

    /// The whole zlib stream: the parts' bytes and the checksum.
    pub(super) fn into_stream(self) -> Vec<u8> {
        let mut out = self.bytes;
        out.extend_from_slice(&self.adler.to_be_bytes());
        out
    }
}

/// The Adler-32 of data X then Y from theirs and Y's length: the first sum (1 + the bytes)
/// of XY is `a_x + a_y − 1`; each of Y's `len_y` running sums in the second sum is larger
/// by X's bytes, `a_x − 1`.
fn adler_concat(x: u32, y: u32, len_y: u64) -> u32 {
    const MOD: u64 = 65521;
    let (ax, bx) = (u64::from(x & 0xFFFF), u64::from(x >> 16));
    let (ay, by) = (u64::from(y & 0xFFFF), u64::from(y >> 16));
    let a = (ax + ay + MOD - 1) % MOD;
    let b = (bx + by + (len_y % MOD) * ((ax + MOD - 1) % MOD)) % MOD;
    ((b as u32) << 16) | a as u32
}

/// The Adler-32 of the data so far followed by `n` zero bytes: a zero leaves the first sum
/// as it is and adds it to the second, so `n` of them add `n` times it.
fn zeros_adler(adler: &Adler32, n: usize) -> Adler32 {
    const MOD: u64 = 65521;
    let sum = adler.finish();
    let a = u64::from(sum & 0xFFFF);
    let b = (u64::from(sum >> 16) + (n as u64 % MOD) * a) % MOD;
    Adler32::from_checksum(((b as u32) << 16) | a as u32)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::Read;

    /// Inflates with zlib-rs (through flate2), which also checks the Adler-32.
    pub(in crate::encode) fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    /// A piece of input, written with `write`, or zeros said to be zeros to `write_with`.
    enum Piece {
        Bytes(Vec<u8>),
        Zeros(usize),
    }

    /// Writes the pieces to `d` and appends them to `all`.
    fn feed(d: &mut Deflater, pieces: &[Piece], all: &mut Vec<u8>) {
        for p in pieces {
            match p {
                Piece::Bytes(b) => {
                    d.write(b);
                    all.extend_from_slice(b);
                }
                Piece::Zeros(n) => {
                    d.write_with(*n, |b| {
                        b.fill(0);
                        0
                    });
                    all.resize(all.len() + n, 0);
                }
            }
        }
    }

    /// The stream of the pieces in parts starting at the given pieces, each part deflated
    /// on its own and joined (one part when `starts` is empty), and the input.
    fn deflate_in_parts(effort: Effort, pieces: &[Piece], starts: &[usize]) -> (Vec<u8>, Vec<u8>) {
        let mut all = Vec::new();
        let mut d = Deflater::new(effort, Vec::new());
        let mut from = 0;
        let mut joined: Option<Part> = None;
        for &start in starts {
            feed(&mut d, &pieces[from..start], &mut all);
            let part = std::mem::replace(&mut d, Deflater::continuation(effort, 0));
            let part = part.finish_part(false);
            joined = Some(match joined {
                Some(j) => j.join(part),
                None => part,
            });
            from = start;
        }
        feed(&mut d, &pieces[from..], &mut all);
        let stream = match joined {
            Some(j) => j.join(d.finish_part(true)).into_stream(),
            None => d.finish(),
        };
        (stream, all)
    }

    /// Round trip in both efforts, whole and in two parts split at the middle piece;
    /// returns the default effort's bytes.
    fn round_trip(pieces: &[Piece], what: &str) -> usize {
        let mut len = 0;
        for effort in [Effort::Fast, Effort::Default] {
            for starts in [&[][..], &[pieces.len() / 2]] {
                let (stream, input) = deflate_in_parts(effort, pieces, starts);
                assert!(
                    inflate(&stream) == input,
                    "{what}, {effort:?}, parts at {starts:?}: inflated data differs"
                );
                if effort == Effort::Default && starts.is_empty() {
                    len = stream.len();
                }
            }
        }
        len
    }

    /// xorshift64: a deterministic stream of bytes (the encoder's tests' random input).
    pub(in crate::encode) struct Noise(pub(in crate::encode) u64);

    impl Noise {
        pub(in crate::encode) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn bytes(&mut self, n: usize, alphabet: u64) -> Vec<u8> {
            (0..n).map(|_| (self.next() % alphabet) as u8).collect()
        }
    }

    #[test]
    fn short_and_empty_inputs_round_trip() {
        for n in 0..=20 {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 % 5) as u8).collect();
            round_trip(&[Piece::Bytes(data)], &format!("{n} bytes"));
            round_trip(&[Piece::Zeros(n)], &format!("{n} zeros"));
        }
        // Short enough for the fixed codes, with literals of all four code lengths (7 to 9
        // bits: every byte, then matches).
        let every_byte: Vec<u8> = (0..=255).chain(0..=255).collect();
        round_trip(&[Piece::Bytes(every_byte)], "every byte twice");
        round_trip(&[], "nothing");
    }

    #[test]
    fn runs_of_every_length_near_the_match_limits_round_trip() {
        // Runs of zeros and of another byte around multiples of 258 (a remainder of 1 or 2
        // after a longest match), after a zero, after a non-zero byte and at the start; known
        // zeros longer than the buffer holds beside its history (written through a copy).
        for n in (0..=9)
            .chain(250..=270)
            .chain(510..=530)
            .chain([4800, 4801, 70_000, BUFFER + 1])
        {
            for lead in [None, Some(0u8), Some(7)] {
                let mut bytes: Vec<u8> = lead.into_iter().collect();
                bytes.resize(bytes.len() + n, 0);
                bytes.push(9);
                round_trip(&[Piece::Bytes(bytes)], &format!("{n} zeros after {lead:?}"));
                let mut ones: Vec<u8> = lead.into_iter().collect();
                ones.resize(ones.len() + n, 1);
                round_trip(&[Piece::Bytes(ones)], &format!("{n} ones after {lead:?}"));
                let lead: Vec<u8> = lead.into_iter().collect();
                round_trip(
                    &[Piece::Bytes(lead), Piece::Zeros(n), Piece::Bytes(vec![5])],
                    &format!("{n} known zeros"),
                );
            }
        }
    }

    #[test]
    fn random_data_round_trips_in_any_pieces() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        // Noise over 2, 16 and 256 values (all literals, many short matches), periodic rows
        // like a chart's, and pieces of random sizes, over several buffer slides (the buffer
        // holds 128 KiB) and blocks.
        for alphabet in [2, 16, 256] {
            let data = noise.bytes(600_000, alphabet);
            round_trip(&[Piece::Bytes(data)], &format!("noise over {alphabet}"));
        }
        let row: Vec<u8> = noise.bytes(4801, 4);
        let rows: Vec<Piece> = (0..200)
            .map(|i| {
                if i % 3 == 0 {
                    Piece::Zeros(4801)
                } else {
                    Piece::Bytes(row.clone())
                }
            })
            .collect();
        round_trip(&rows, "repeated rows");
        let mut pieces = Vec::new();
        for _ in 0..400 {
            let n = (noise.next() % 3000) as usize;
            pieces.push(if noise.next().is_multiple_of(2) {
                Piece::Zeros(n)
            } else {
                let alphabet = 1 + noise.next() % 255;
                Piece::Bytes(noise.bytes(n, alphabet))
            });
        }
        round_trip(&pieces, "random pieces");
    }

    #[test]
    fn zeros_cost_a_few_bits_per_match() {
        // 1,000 rows of 4,801 zeros: a literal and 19 matches of distance 1 per row at most,
        // a few bits each once the block's codes favour them.
        let rows: Vec<Piece> = (0..1000)
            .flat_map(|_| [Piece::Bytes(vec![2]), Piece::Zeros(4800)])
            .collect();
        let len = round_trip(&rows, "zero rows");
        assert!(len < 1000 * 8, "{len} bytes for 1,000 zero rows");
    }

    #[test]
    fn parts_deflated_apart_join_into_one_stream() {
        let mut noise = Noise(0x2545_F491_4F6C_DD1D);
        // Rows like a chart's: repeated rows (zeros), a few distinct rows, runs ending
        // right at a part's end; parts that are empty, one byte, or many blocks long.
        let row = noise.bytes(4801, 6);
        let mut pieces = vec![Piece::Bytes(vec![])];
        for i in 0..120 {
            pieces.push(match i % 4 {
                0 => Piece::Zeros(4801),
                1 => Piece::Bytes(row.clone()),
                2 => {
                    let n = 1 + (noise.next() % 5000) as usize;
                    Piece::Bytes(noise.bytes(n, 256))
                }
                _ => Piece::Bytes(vec![0; 300]),
            });
        }
        pieces.push(Piece::Bytes(vec![7]));
        let n = pieces.len();
        for starts in [
            vec![0],
            vec![1],
            vec![n - 1],
            vec![n],
            vec![1, 2],
            vec![3, 60, 61, n - 1],
            (1..n).step_by(7).collect(),
        ] {
            for effort in [Effort::Fast, Effort::Default] {
                let (stream, input) = deflate_in_parts(effort, &pieces, &starts);
                assert!(
                    inflate(&stream) == input,
                    "{effort:?}, parts at {starts:?}: inflated data differs"
                );
            }
        }
    }

    #[test]
    fn kept_tables_buffers_and_blocks_come_back_cleared() {
        // A finished stream's tables and buffer as dirty as can be; a stream's matches would
        // depend on what a stale table entry points at.
        let mut chains = Box::new(Chains {
            head: [7; 1 << HASH_BITS],
            prev: [9; WINDOW],
        });
        chains.head[12_345] = 1;
        let mut block = Block::new();
        block.literal(3);
        block.matched(7, 300);
        block.longest_zero_matches(5);
        Spare::give(Kept {
            chains,
            buf: vec![5; BUFFER + SLACK],
            block,
        });
        // Other tests take and give at the same time: whichever come out must be clean.
        let taken: Vec<_> = (0..=SPARES).map(|_| Spare::take()).collect();
        for Kept { chains, buf, block } in &taken {
            assert!(
                chains.head.iter().all(|&h| h == 0),
                "a head was not cleared"
            );
            assert!(
                chains.prev.iter().all(|&p| p == 0),
                "a chain link was not cleared"
            );
            assert!(buf.is_empty() && buf.capacity() >= BUFFER + SLACK);
            assert!(block.is_empty(), "a block kept its symbols");
        }
        for kept in taken {
            Spare::give(kept);
        }
    }

    #[test]
    fn the_checksum_of_joined_parts_is_that_of_the_whole() {
        let mut noise = Noise(0xD1B5_4A32_D192_ED03);
        let data = noise.bytes(300_000, 256);
        for cut in [0, 1, 2, 65_520, 65_521, 65_522, 150_000, 299_999, 300_000] {
            let (x, y) = data.split_at(cut);
            let sum = |d: &[u8]| {
                let mut a = Adler32::new();
                a.write(d);
                a.finish()
            };
            assert_eq!(
                adler_concat(sum(x), sum(y), y.len() as u64),
                sum(&data),
                "cut at {cut}"
            );
        }
        // Zeros after data: the shortcut of write_with's known zeros.
        let mut a = Adler32::new();
        a.write(&data[..1000]);
        let mut b = Adler32::new();
        b.write(&data[..1000]);
        b.write(&[0; 70_000]);
        assert_eq!(zeros_adler(&a, 70_000).finish(), b.finish());
    }
}
