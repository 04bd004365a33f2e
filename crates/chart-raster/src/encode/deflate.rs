//! A small deflate encoder (RFC 1951) in a zlib wrapper (RFC 1950), written for the PNG
//! data of charts.
//!
//! Why our own: after the `Up` filter, a chart's PNG data is mostly zeros (every row that
//! repeats the row above, every span of 16 pixels equal to the span above), with the rest
//! in short stretches: edges, text, anti-aliased curves. zlib at level 2 spent about 26 M
//! instructions on a 1600×1200 bar chart, most of them walking through those zeros. Here a
//! run of zeros costs a few word compares and becomes matches at distance 1, and a repeated
//! row ([`Deflater::write_zeros`]) is never even scanned.
//!
//! What it does, and what it leaves out:
//! - LZ77, greedy (no lazy matching): a run of zeros is a string of distance-1 matches
//!   (after one literal zero when the byte before is not zero); elsewhere a hash of the next
//!   4 bytes leads to the last [`CHAIN`] positions that began with the same hash, and the
//!   longest match of at least 4 bytes is taken. Positions inside short matches are hashed
//!   too. One candidate instead of 8 was 2–3% larger on the benchmark's charts and 1.4–1.8×
//!   larger on translucent radar fixtures (the diagonal edges of a row match the row above
//!   a few pixels over, behind other positions of the same hash), for 2–5% fewer
//!   instructions.
//! - Huffman: each block of [`BLOCK_SYMBOLS`] symbols gets its own length-limited codes
//!   (dynamic block) unless the fixed codes of the format come out smaller. No stored blocks:
//!   on data that does not compress (noise), literals cost about 8 bits each either way.
//! - Output: on the benchmark's 15 charts 2–8% under zlib level 2's bytes, 3% in all; zlib
//!   level 6 (`PNG_COMPRESSION=small`) between 6% under and 3% over, 2% under in all.
//!
//! The stream is valid for any input: it is tested against real inflaters (zlib-rs through
//! flate2, and the `png` crate's decoder) on random data, runs, and lengths at the limits
//! of the format.

use simd_adler32::Adler32;

/// Deflate's largest match distance and the history kept behind the next byte.
const WINDOW: usize = 32 * 1024;
/// Deflate's longest match.
const MAX_MATCH: usize = 258;
/// Bytes left unencoded at the end of the input until more arrive (or the stream ends): a
/// match starting before them can be as long as the format allows, and reading words of 8
/// bytes needs no bound check.
const LOOKAHEAD: usize = MAX_MATCH + 8;
/// The input buffer: history, then bytes not yet encoded. Full, it drops what lies more than
/// [`WINDOW`] behind the next byte (one copy of at most `WINDOW + LOOKAHEAD` bytes).
const BUFFER: usize = 16 * WINDOW;
/// log2 of the hash table's size (4-byte strings to their last position).
const HASH_BITS: u32 = 15;
/// Positions [`Deflater::longest_match`] tries per match.
const CHAIN: usize = 8;
/// A match this long ends the search.
const NICE_MATCH: usize = 64;
/// Positions inside a match up to this long are hashed too, so that later bytes can match
/// them. On scatter 10,000 (dense anti-aliased discs) 32 cost 20 M instructions more than 8
/// for 0.7% fewer bytes on the benchmark's charts; none saved 10 M more and cost 1.1%.
const HASH_INSIDE: usize = 8;
/// Symbols (literals and matches) per block: each block has its own codes, so they follow
/// the picture (the text of a legend, then a plot area), at the price of a code table each.
pub(super) const BLOCK_SYMBOLS: usize = 1 << 14;

/// Literal/length symbols: 256 literals, end of block, 29 lengths.
const LITLEN_CODES: usize = 286;
/// Distance symbols.
const DIST_CODES: usize = 30;
/// End of block.
const END_OF_BLOCK: usize = 256;
/// Huffman codes are at most this long (code lengths' own code: 7).
const MAX_BITS: u8 = 15;

/// Smallest length of each length symbol (257..=285), and its extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Smallest distance of each distance symbol, and its extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which the code lengths' code lengths are written (RFC 1951, 3.2.7).
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The length symbol (0..29, i.e. symbol 257 + it) of each match length − 3.
const LENGTH_SYMBOL: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut code = 0;
    while code < 28 {
        let mut l = LENGTH_BASE[code] as usize;
        while l < LENGTH_BASE[code] as usize + (1 << LENGTH_EXTRA[code]) && l <= 257 {
            table[l - 3] = code as u8;
            l += 1;
        }
        code += 1;
    }
    // 258 has a symbol of its own (285), shorter than 284 with all extra bits set.
    table[255] = 28;
    table
};

/// The distance symbol of a distance (1..=32768): the first four are their own symbol, then
/// two symbols per power of two.
fn dist_symbol(dist: usize) -> usize {
    let d = dist - 1;
    if d < 4 {
        d
    } else {
        let log = (usize::BITS - 1 - d.leading_zeros()) as usize;
        2 * log + ((d >> (log - 1)) & 1)
    }
}

/// A zlib stream being written: bytes go in with [`Deflater::write`] and
/// [`Deflater::write_zeros`], the stream comes out of [`Deflater::finish`].
pub(super) struct Deflater {
    /// History (up to [`WINDOW`] bytes before `pos`) and input not yet encoded.
    buf: Vec<u8>,
    /// The next byte to encode, in `buf`.
    pos: usize,
    /// Stream offset of `buf[0]` (wrapping: only differences of offsets are used).
    base: u32,
    /// The last bytes written by [`Deflater::write_zeros`], in `buf` (empty when gone).
    zeros: std::ops::Range<usize>,
    /// Hash of 4 bytes → stream offset of the last position that began with them. A stale
    /// or colliding entry only costs a compare: a match is taken after its bytes are checked.
    head: Vec<u32>,
    /// Stream offset (modulo [`WINDOW`]) → the previous position with the same hash: the
    /// chains [`Deflater::longest_match`] walks.
    prev: Vec<u32>,
    /// The block's symbols: a literal byte, `distance << 16 | length` for a match, or
    /// `n << 16` (a length of 0, which no match has) for `n` matches of 258 bytes at
    /// distance 1. A run of zeros is at most the buffer long: `n` fits.
    symbols: Vec<u32>,
    /// Matches the run symbols of the block stand for beyond one each: a block ends after
    /// [`BLOCK_SYMBOLS`] matches and literals, however they are stored.
    runs: usize,
    lit_freq: [u32; LITLEN_CODES],
    dist_freq: [u32; DIST_CODES],
    bits: BitWriter,
    adler: Adler32,
}

impl Deflater {
    /// A stream whose output is expected to be about `capacity` bytes.
    pub(super) fn new(capacity: usize) -> Self {
        let mut bits = BitWriter {
            out: Vec::with_capacity(capacity),
            acc: 0,
            n: 0,
        };
        // zlib header: deflate with a 32 KiB window, no dictionary, "fast" compression; the
        // two bytes are a multiple of 31 as RFC 1950 asks.
        bits.out.extend_from_slice(&[0x78, 0x5E]);
        Self {
            buf: Vec::with_capacity(BUFFER),
            pos: 0,
            base: 0,
            zeros: 0..0,
            head: vec![0; 1 << HASH_BITS],
            prev: vec![0; WINDOW],
            symbols: Vec::with_capacity(BLOCK_SYMBOLS + MAX_MATCH),
            runs: 0,
            lit_freq: [0; LITLEN_CODES],
            dist_freq: [0; DIST_CODES],
            bits,
            adler: Adler32::new(),
        }
    }

    /// Appends bytes to the stream.
    pub(super) fn write(&mut self, mut data: &[u8]) {
        self.adler.write(data);
        while !data.is_empty() {
            let n = self.make_room(data.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
            self.encode(false);
        }
    }

    /// Appends `n` zero bytes to the stream (a PNG row that repeats the row above, after
    /// its filter byte), without a buffer of zeros from the caller.
    pub(super) fn write_zeros(&mut self, mut n: usize) {
        /// Zeros are copied in pieces under glibc's threshold for `rep stosb`, whose every
        /// byte callgrind counts as an instruction (no faster either way).
        const PIECE: usize = 1024;
        self.adler = zeros_adler(&self.adler, n);
        while n > 0 {
            let k = self.make_room(n);
            let start = self.buf.len();
            for piece in (0..k).step_by(PIECE) {
                let m = PIECE.min(k - piece);
                self.buf.extend_from_slice(&[0; PIECE][..m]);
            }
            // Known to be zeros: the run that reaches them does not scan them again.
            if self.zeros.end != start {
                self.zeros.start = start;
            }
            self.zeros.end = start + k;
            n -= k;
            self.encode(false);
        }
    }

    /// Ends the stream: the last block, then the checksum of everything written.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.encode(true);
        self.flush_block(true);
        let mut out = self.bits.finish();
        out.extend_from_slice(&self.adler.finish().to_be_bytes());
        out
    }

    /// Makes room in the buffer for up to `want` bytes, dropping history more than
    /// [`WINDOW`] behind the next byte when it is full; returns how many fit.
    fn make_room(&mut self, want: usize) -> usize {
        if self.buf.len() == BUFFER {
            let drop = self.pos - WINDOW.min(self.pos);
            self.buf.copy_within(drop.., 0);
            self.buf.truncate(self.buf.len() - drop);
            self.pos -= drop;
            self.base = self.base.wrapping_add(drop as u32);
            self.zeros = self.zeros.start.saturating_sub(drop)..self.zeros.end.saturating_sub(drop);
        }
        want.min(BUFFER - self.buf.len())
    }

    /// Encodes the buffered input, all of it when `last`, else all but [`LOOKAHEAD`] bytes.
    fn encode(&mut self, last: bool) {
        let end = self.buf.len();
        let stop = if last {
            end
        } else {
            end.saturating_sub(LOOKAHEAD)
        };
        while self.pos < stop {
            if self.symbols.len() + self.runs >= BLOCK_SYMBOLS {
                self.flush_block(false);
            }
            let p = self.pos;
            let Some(word) = self.buf.get(p..p + 4) else {
                // The last bytes of the stream: too few for a match.
                self.literal(self.buf[p]);
                self.pos += 1;
                continue;
            };
            let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            if word == 0 {
                self.zero_run(end);
                continue;
            }
            let (len, dist) = self.longest_match(p, word, end);
            if len >= 4 {
                self.matched(len, dist);
                if len <= HASH_INSIDE {
                    for q in p + 1..(p + len).min(end - 3) {
                        let b = &self.buf[q..q + 4];
                        self.insert(q, u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                    }
                }
                self.pos += len;
                continue;
            }
            self.literal(self.buf[p]);
            self.pos += 1;
        }
    }

    /// Records that the 4 bytes at `p` (buffer index) are `word`; returns the stream offset
    /// of the last position that began with the same hash.
    fn insert(&mut self, p: usize, word: u32) -> u32 {
        let slot = hash(word);
        let here = self.base.wrapping_add(p as u32);
        let last = self.head[slot];
        self.head[slot] = here;
        self.prev[here as usize % WINDOW] = last;
        last
    }

    /// The longest earlier match for the bytes at `p` among the last [`CHAIN`] positions
    /// that began with the same hash: (length, distance), or a length under 4 when none.
    #[inline]
    fn longest_match(&mut self, p: usize, word: u32, end: usize) -> (usize, usize) {
        let here = self.base.wrapping_add(p as u32);
        let mut candidate = self.insert(p, word);
        let max = MAX_MATCH.min(end - p);
        let (mut best, mut best_dist) = (0, 0);
        for _ in 0..CHAIN {
            let dist = here.wrapping_sub(candidate) as usize;
            if !(1..=WINDOW.min(p)).contains(&dist) {
                break;
            }
            let c = p - dist;
            // A longer match must agree on the byte after the best so far.
            if read_u32(&self.buf, c) == word
                && (best < 4 || best >= max || self.buf[c + best] == self.buf[p + best])
            {
                let len = common_prefix(&self.buf, c, p, max);
                if len > best {
                    (best, best_dist) = (len, dist);
                    if len >= NICE_MATCH {
                        break;
                    }
                }
            }
            let next = self.prev[candidate as usize % WINDOW];
            // Links only go further back; one that does not is stale (its slot was reused).
            if here.wrapping_sub(next) as usize <= dist {
                break;
            }
            candidate = next;
        }
        (best, best_dist)
    }

    /// At least four zeros at `pos`: a literal zero unless the byte before is one, then
    /// matches at distance 1 to the end of the run (or of the buffered input).
    fn zero_run(&mut self, end: usize) {
        if self.pos == 0 || self.buf[self.pos - 1] != 0 {
            self.literal(0);
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
            self.symbols.push((longest as u32) << 16);
            self.runs += longest - 1;
            self.lit_freq[257 + 28] += longest as u32;
            self.dist_freq[0] += longest as u32;
            self.pos += longest * MAX_MATCH;
            run -= longest * MAX_MATCH;
        }
        while run >= 3 {
            // A remainder of 1 or 2 would be literals: end on a shorter match instead.
            let mut len = run.min(MAX_MATCH);
            if (1..3).contains(&(run - len)) {
                len = run - 3;
            }
            self.matched(len, 1);
            self.pos += len;
            run -= len;
        }
    }

    fn literal(&mut self, byte: u8) {
        self.symbols.push(u32::from(byte));
        self.lit_freq[usize::from(byte)] += 1;
    }

    fn matched(&mut self, len: usize, dist: usize) {
        self.symbols.push((dist as u32) << 16 | len as u32);
        self.lit_freq[257 + usize::from(LENGTH_SYMBOL[len - 3])] += 1;
        self.dist_freq[dist_symbol(dist)] += 1;
    }

    /// Writes the block of the symbols gathered so far, with whichever codes (its own or
    /// the fixed ones) make it shorter, and starts the next.
    fn flush_block(&mut self, last: bool) {
        self.lit_freq[END_OF_BLOCK] += 1;
        let lit_len = code_lengths(&self.lit_freq, MAX_BITS);
        let dist_len = code_lengths(&self.dist_freq, MAX_BITS);
        let header = DynamicHeader::new(&lit_len, &dist_len);
        // Bits of the data with each code set (the extra bits are the same in both).
        let cost = |lit: &dyn Fn(usize) -> u8, dist: &dyn Fn(usize) -> u8| -> u64 {
            let l: u64 = (self.lit_freq.iter().enumerate())
                .map(|(s, &f)| u64::from(f) * u64::from(lit(s)))
                .sum();
            let d: u64 = (self.dist_freq.iter().enumerate())
                .map(|(s, &f)| u64::from(f) * u64::from(dist(s)))
                .sum();
            l + d
        };
        let dynamic = header.bits() + cost(&|s| lit_len[s], &|s| dist_len[s]);
        let fixed = cost(&fixed_lit_len, &|_| 5);
        let bits = &mut self.bits;
        bits.put(u64::from(last), 1);
        let (lit_len, dist_len) = if fixed <= dynamic {
            bits.put(1, 2);
            // All 288 symbols of the fixed code: its canonical codes count the two that
            // are never sent (286, 287) among the 8-bit ones.
            let lit: Vec<u8> = (0..288).map(fixed_lit_len).collect();
            (lit, vec![5; DIST_CODES])
        } else {
            bits.put(2, 2);
            header.write(bits);
            (lit_len, dist_len)
        };
        let lit_codes = canonical_codes(&lit_len);
        let dist_codes = canonical_codes(&dist_len);
        // Per block, each literal's code and each length's code with its extra bits, as
        // `bits | count << 24`: one look-up per literal or length.
        let packed = |bits: u64, count: u8| bits as u32 | u32::from(count) << 24;
        let literals: [u32; 256] =
            std::array::from_fn(|b| packed(u64::from(lit_codes[b]), lit_len[b]));
        let lengths: [u32; 256] = std::array::from_fn(|l| {
            let ls = usize::from(LENGTH_SYMBOL[l]);
            let (code, n) = (lit_codes[257 + ls], lit_len[257 + ls]);
            let extra = (l + 3 - usize::from(LENGTH_BASE[ls])) as u64;
            packed(u64::from(code) | extra << n, n + LENGTH_EXTRA[ls])
        });
        let put = |bits: &mut BitWriter, p: u32| bits.put(u64::from(p & 0xFF_FFFF), p >> 24);
        for &s in &self.symbols {
            let dist = (s >> 16) as usize;
            if dist == 0 {
                put(bits, literals[(s & 0xFF) as usize]);
                continue;
            }
            if s & 0xFFFF == 0 {
                // `dist` matches of length 258 (no extra bits) at distance 1: at most
                // 15 + 15 bits each.
                let n = lengths[255] >> 24;
                let one = (lengths[255] & 0xFF_FFFF) | u32::from(dist_codes[0]) << n;
                for _ in 0..dist {
                    bits.put(u64::from(one), n + u32::from(dist_len[0]));
                }
                continue;
            }
            // A distance's code with its extra bits in one write: at most 15 + 13 bits.
            put(bits, lengths[(s - 3) as u8 as usize]);
            let ds = dist_symbol(dist);
            let (code, n) = (dist_codes[ds], dist_len[ds]);
            let extra = (dist - usize::from(DIST_BASE[ds])) as u64;
            bits.put(u64::from(code) | extra << n, u32::from(n + DIST_EXTRA[ds]));
        }
        bits.put(
            u64::from(lit_codes[END_OF_BLOCK]),
            u32::from(lit_len[END_OF_BLOCK]),
        );
        self.symbols.clear();
        self.runs = 0;
        self.lit_freq = [0; LITLEN_CODES];
        self.dist_freq = [0; DIST_CODES];
    }
}

/// The 4 bytes at `at`, little-endian (a word compare, not a call to `memcmp`).
fn read_u32(buf: &[u8], at: usize) -> u32 {
    let b = &buf[at..at + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Multiplicative hash of 4 bytes to [`HASH_BITS`] bits.
fn hash(word: u32) -> usize {
    (word.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many bytes at `a` and at `b` (`a < b`) are equal, at most `max`, with `b + max` within
/// `buf`. A word of 8 bytes at a time, then byte by byte.
fn common_prefix(buf: &[u8], a: usize, b: usize, max: usize) -> usize {
    let (x, y) = (&buf[a..a + max], &buf[b..b + max]);
    let mut n = 0;
    for (wx, wy) in x.as_chunks::<8>().0.iter().zip(y.as_chunks::<8>().0) {
        let diff = u64::from_le_bytes(*wx) ^ u64::from_le_bytes(*wy);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + x[n..]
        .iter()
        .zip(&y[n..])
        .take_while(|(p, q)| p == q)
        .count()
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

/// The Adler-32 of the data so far followed by `n` zero bytes: a zero leaves the first sum
/// as it is and adds it to the second, so `n` of them add `n` times it.
fn zeros_adler(adler: &Adler32, n: usize) -> Adler32 {
    const MOD: u64 = 65521;
    let sum = adler.finish();
    let a = u64::from(sum & 0xFFFF);
    let b = (u64::from(sum >> 16) + (n as u64 % MOD) * a) % MOD;
    Adler32::from_checksum(((b as u32) << 16) | a as u32)
}

/// The fixed code's lengths of literal/length symbols (RFC 1951, 3.2.6).
fn fixed_lit_len(symbol: usize) -> u8 {
    match symbol {
        0..=143 => 8,
        144..=255 => 9,
        256..=279 => 7,
        _ => 8,
    }
}

/// Huffman code lengths for the frequencies, none over `limit` bits. Unused symbols get 0,
/// except that at least two symbols always get a code: a code of one symbol (or none) would
/// be incomplete, which inflaters reject or treat specially.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut used: Vec<(u32, usize)> = (freq.iter().enumerate())
        .filter(|(_, &f)| f > 0)
        .map(|(s, &f)| (f, s))
        .collect();
    for (s, &f) in freq.iter().enumerate() {
        if used.len() >= 2 {
            break;
        }
        if f == 0 {
            used.push((0, s));
        }
    }
    // Least frequent first; equal frequencies by symbol, so the result is deterministic.
    used.sort_unstable();
    let n = used.len();
    // Huffman's tree built with two queues: the sorted leaves, and the inner nodes, which
    // are made in order of weight. Nodes 0..n are the leaves, n.. the inner nodes.
    let mut weight: Vec<u64> = used.iter().map(|&(f, _)| u64::from(f)).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0, n);
    for node in n..2 * n - 1 {
        let mut pick = || {
            if leaf < n && (inner >= node || weight[leaf] <= weight[inner]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (pick(), pick());
        parent[a] = node;
        parent[b] = node;
        weight.push(weight[a] + weight[b]);
    }
    // Depths, from the root down (a parent's index is above its children's).
    let mut depth = vec![0usize; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // Count codes per length, those over the limit at the limit, then restore Kraft's
    // equality: each step takes one code off the longest length and splits a shorter code
    // in two (the adjustment zlib and miniz make; rarely needed on image data).
    let limit = usize::from(limit);
    let mut count = vec![0usize; limit + 1];
    for &d in &depth[..n] {
        count[d.min(limit)] += 1;
    }
    let mut kraft: usize = (1..=limit).map(|l| count[l] << (limit - l)).sum();
    while kraft > 1 << limit {
        count[limit] -= 1;
        if let Some(l) = (1..limit).rev().find(|&l| count[l] > 0) {
            count[l] -= 1;
            count[l + 1] += 2;
        }
        kraft -= 1;
    }
    // The longest codes to the least frequent symbols.
    let mut lengths = vec![0u8; freq.len()];
    let mut symbols = used.iter().map(|&(_, s)| s);
    for l in (1..=limit).rev() {
        for s in symbols.by_ref().take(count[l]) {
            lengths[s] = l as u8;
        }
    }
    lengths
}

/// The canonical code of each symbol (RFC 1951, 3.2.2), bit-reversed: deflate sends codes
/// from their first bit, the bit writer from the lowest.
fn canonical_codes(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for l in 1..16 {
        code = (code + count[l - 1]) << 1;
        next[l] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// The header of a dynamic block: how many codes of each set are sent, and their lengths,
/// run-length coded (symbols 16–18) with a Huffman code of their own.
struct DynamicHeader {
    hlit: usize,
    hdist: usize,
    /// Code-length symbols and their extra bits' value.
    runs: Vec<(u8, u8)>,
    clen_len: Vec<u8>,
    /// Code-length code lengths sent (trailing zeros of `CLEN_ORDER` dropped, at least 4).
    hclen: usize,
}

impl DynamicHeader {
    fn new(lit_len: &[u8], dist_len: &[u8]) -> Self {
        let used = |l: &[u8], min: usize| {
            l.iter()
                .rposition(|&x| x != 0)
                .map_or(min, |i| (i + 1).max(min))
        };
        let hlit = used(lit_len, 257);
        let hdist = used(dist_len, 1);
        let all: Vec<u8> = lit_len[..hlit]
            .iter()
            .chain(&dist_len[..hdist])
            .copied()
            .collect();
        let mut runs = Vec::new();
        let mut i = 0;
        while i < all.len() {
            let v = all[i];
            let mut run = all[i..].iter().take_while(|&&x| x == v).count();
            i += run;
            if v == 0 {
                while run >= 11 {
                    let k = run.min(138);
                    runs.push((18, (k - 11) as u8));
                    run -= k;
                }
                if run >= 3 {
                    runs.push((17, (run - 3) as u8));
                    run = 0;
                }
            } else {
                runs.push((v, 0));
                run -= 1;
                while run >= 3 {
                    let k = run.min(6);
                    runs.push((16, (k - 3) as u8));
                    run -= k;
                }
            }
            runs.extend(std::iter::repeat_n((v, 0), run));
        }
        let mut freq = [0u32; 19];
        for &(s, _) in &runs {
            freq[usize::from(s)] += 1;
        }
        let clen_len = code_lengths(&freq, 7);
        let hclen = CLEN_ORDER
            .iter()
            .rposition(|&s| clen_len[s] != 0)
            .map_or(4, |i| (i + 1).max(4));
        Self {
            hlit,
            hdist,
            runs,
            clen_len,
            hclen,
        }
    }

    /// Bits of the header, block type excluded.
    fn bits(&self) -> u64 {
        let runs: u64 = (self.runs.iter())
            .map(|&(s, _)| u64::from(self.clen_len[usize::from(s)]) + u64::from(clen_extra(s)))
            .sum();
        5 + 5 + 4 + 3 * self.hclen as u64 + runs
    }

    fn write(&self, bits: &mut BitWriter) {
        bits.put((self.hlit - 257) as u64, 5);
        bits.put((self.hdist - 1) as u64, 5);
        bits.put((self.hclen - 4) as u64, 4);
        for &s in &CLEN_ORDER[..self.hclen] {
            bits.put(u64::from(self.clen_len[s]), 3);
        }
        let codes = canonical_codes(&self.clen_len);
        for &(s, extra) in &self.runs {
            let s = usize::from(s);
            bits.put(u64::from(codes[s]), u32::from(self.clen_len[s]));
            bits.put(u64::from(extra), u32::from(clen_extra(s as u8)));
        }
    }
}

/// Extra bits of a code-length symbol: 16 repeats the last length 3–6 times, 17 writes 3–10
/// zeros, 18 writes 11–138.
fn clen_extra(symbol: u8) -> u8 {
    match symbol {
        16 => 2,
        17 => 3,
        18 => 7,
        _ => 0,
    }
}

/// Bits into bytes, lowest bit first (deflate's order).
struct BitWriter {
    out: Vec<u8>,
    /// Bits not yet written, from the lowest; `n` of them.
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Appends the low `count` bits of `value` (`count` ≤ 32, no higher bit set).
    fn put(&mut self, value: u64, count: u32) {
        self.acc |= value << self.n;
        self.n += count;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// The bytes, the last one padded with zero bits.
    fn finish(mut self) -> Vec<u8> {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Inflates with zlib-rs (through flate2), which also checks the Adler-32.
    fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    /// A piece of input, written with `write` or `write_zeros`.
    enum Piece {
        Bytes(Vec<u8>),
        Zeros(usize),
    }

    fn deflate(pieces: &[Piece]) -> (Vec<u8>, Vec<u8>) {
        let mut d = Deflater::new(0);
        let mut all = Vec::new();
        for p in pieces {
            match p {
                Piece::Bytes(b) => {
                    d.write(b);
                    all.extend_from_slice(b);
                }
                Piece::Zeros(n) => {
                    d.write_zeros(*n);
                    all.resize(all.len() + n, 0);
                }
            }
        }
        (d.finish(), all)
    }

    fn round_trip(pieces: &[Piece], what: &str) -> usize {
        let (stream, input) = deflate(pieces);
        assert!(inflate(&stream) == input, "{what}: inflated data differs");
        stream.len()
    }

    /// xorshift64: a deterministic stream of bytes.
    struct Noise(u64);

    impl Noise {
        fn next(&mut self) -> u64 {
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
        // after a longest match), after a zero, after a non-zero byte and at the start.
        for n in (0..=9)
            .chain(250..=270)
            .chain(510..=530)
            .chain([4800, 4801, 70_000])
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
                    &format!("write_zeros({n})"),
                );
            }
        }
    }

    #[test]
    fn random_data_round_trips_in_any_pieces() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        // Noise over 2, 16 and 256 values (all literals, many short matches), periodic rows
        // like a chart's, and pieces of random sizes, over several buffer slides (the buffer
        // holds 512 KiB) and blocks.
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
    fn code_lengths_are_complete_and_within_the_limit() {
        // Kraft's sum in units of 2^-15: exactly 2^15 for a complete code.
        let kraft = |l: &[u8]| -> u32 {
            l.iter()
                .filter(|&&x| x > 0)
                .map(|&x| 1u32 << (15 - x))
                .sum()
        };
        // Fibonacci frequencies make the deepest Huffman tree: 30 symbols would need 29
        // bits, 19 need 18.
        let mut fib = vec![1u32, 1];
        while fib.len() < 30 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        for (freq, limit) in [(&fib[..], 15u8), (&fib[..19], 7), (&fib[..8], 15)] {
            let l = code_lengths(freq, limit);
            assert!(l.iter().all(|&x| (1..=limit).contains(&x)), "{l:?}");
            assert_eq!(kraft(&l), 1 << 15, "{l:?}");
            // More frequent symbols never get longer codes.
            for w in 0..freq.len() - 1 {
                assert!(l[w] >= l[w + 1], "{l:?}");
            }
        }
        // Fewer than two symbols used: two one-bit codes all the same.
        for freq in [[0u32, 0, 0], [0, 5, 0]] {
            let l = code_lengths(&freq, 15);
            assert_eq!(l.iter().filter(|&&x| x == 1).count(), 2, "{freq:?} {l:?}");
            assert!(freq[1] == 0 || l[1] == 1);
        }
    }

    #[test]
    fn symbols_of_lengths_and_distances_match_the_format() {
        for len in 3..=258 {
            let s = usize::from(LENGTH_SYMBOL[len - 3]);
            let base = usize::from(LENGTH_BASE[s]);
            assert!(
                base <= len && len - base < 1 << LENGTH_EXTRA[s],
                "length {len}"
            );
        }
        assert_eq!(LENGTH_SYMBOL[255], 28);
        for dist in 1..=WINDOW {
            let s = dist_symbol(dist);
            let base = usize::from(DIST_BASE[s]);
            assert!(
                base <= dist && dist - base < 1 << DIST_EXTRA[s],
                "distance {dist}"
            );
        }
    }
}
