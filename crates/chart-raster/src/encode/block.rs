//! One deflate block (RFC 1951, 3.2): the symbols the match finder chose, their Huffman
//! codes (each block its own, or the fixed ones when shorter), and the bits.

/// Deflate's longest match.
pub(super) const MAX_MATCH: usize = 258;
/// Symbols (literals and matches) per block: each block has its own codes, so they follow
/// the picture (the text of a legend, then a plot area), at the price of a code table each.
pub(super) const BLOCK_SYMBOLS: usize = 1 << 14;
/// Room for the symbols a step of the match finder adds past [`BLOCK_SYMBOLS`] (a run of
/// zeros: a literal, a run symbol and two matches).
const SLOTS: usize = BLOCK_SYMBOLS + 16;

/// Literal/length symbols: 256 literals, end of block, 29 lengths.
pub(super) const LITLEN_CODES: usize = 286;
/// Distance symbols.
pub(super) const DIST_CODES: usize = 30;
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
pub(super) const LENGTH_SYMBOL: [u8; 256] = {
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
/// two symbols per power of two. (What [`DIST_SYMBOL`] holds; the tests check one against
/// the other.)
#[cfg(test)]
fn dist_symbol(dist: usize) -> usize {
    let d = dist - 1;
    if d < 4 {
        d
    } else {
        let log = (usize::BITS - 1 - d.leading_zeros()) as usize;
        2 * log + ((d >> (log - 1)) & 1)
    }
}

/// The distance symbol of `d + 1` for `d` under 256, and of `(d >> 7) + 1` scaled back for
/// larger ones ([`match_symbol`]): a look-up instead of a count of leading zeros.
const DIST_SYMBOL: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        let d = if i < 256 { i } else { (i - 256) << 7 };
        // `dist_symbol(d + 1)`, written out for a const context.
        table[i] = if d < 4 {
            d as u8
        } else {
            let log = (usize::BITS - 1 - d.leading_zeros()) as usize;
            (2 * log + ((d >> (log - 1)) & 1)) as u8
        };
        i += 1;
    }
    table
};

/// A match as the block stores it: the literal/length symbol's index in [`Block::write`]'s
/// table (256 + length − 3), the distance symbol and the distance's extra bits, so that
/// writing it needs no arithmetic on lengths or distances.
#[inline(always)]
fn match_symbol(len: usize, dist: usize) -> (u32, usize) {
    let d = dist - 1;
    let ds = usize::from(DIST_SYMBOL[if d < 256 { d } else { 256 + (d >> 7) }]);
    let extra = d + 1 - usize::from(DIST_BASE[ds]);
    // The distance symbol is stored plus one: a literal's 0 there reads a code of no bits.
    let s = (256 + len - 3) as u32 | (ds as u32 + 1) << DIST_SHIFT | (extra as u32) << EXTRA_SHIFT;
    (s, ds)
}

/// Where a stored symbol keeps its distance symbol plus one (5 bits: 0 for a literal) and
/// its extra bits (13).
const DIST_SHIFT: u32 = 9;
const EXTRA_SHIFT: u32 = 14;
/// A stored symbol with this bit stands for `n` matches of 258 bytes at distance 1, `n` in
/// the bits from [`DIST_SHIFT`].
const RUN: u32 = 1 << 31;

/// The symbols of the block being gathered, with their frequencies.
pub(super) struct Block {
    /// Per symbol: a literal byte (under 256); a match ([`match_symbol`]); or [`RUN`] with
    /// the symbol of a 258-byte length and a count of such matches at distance 1 (a run of
    /// zeros is at most the input buffer long: the count fits).
    symbols: Box<[u32; SLOTS]>,
    /// Symbols in `symbols`.
    len: usize,
    /// Matches the run symbols stand for beyond one each: a block ends after
    /// [`BLOCK_SYMBOLS`] matches and literals, however they are stored.
    runs: usize,
    lit_freq: [u32; LITLEN_CODES],
    dist_freq: [u32; DIST_CODES],
}

impl Block {
    pub(super) fn new() -> Self {
        Self {
            symbols: Box::new([0; SLOTS]),
            len: 0,
            runs: 0,
            lit_freq: [0; LITLEN_CODES],
            dist_freq: [0; DIST_CODES],
        }
    }

    /// Whether the block has all its symbols.
    #[inline(always)]
    pub(super) fn full(&self) -> bool {
        self.len + self.runs >= BLOCK_SYMBOLS
    }

    #[inline(always)]
    pub(super) fn literal(&mut self, byte: u8) {
        let mut g = self.gather();
        g.literal(byte);
        g.done();
    }

    /// A match of `len` (3..=258) bytes at `dist` (1..=32768).
    #[inline(always)]
    pub(super) fn matched(&mut self, len: usize, dist: usize) {
        let mut g = self.gather();
        g.matched(len, dist);
        g.done();
    }

    /// The block borrowed for a loop that adds literals and matches, its count of symbols
    /// in a local until [`Gather::done`] (the loop over a literal-heavy image keeps it in
    /// a register instead of storing it at every literal).
    #[inline(always)]
    pub(super) fn gather(&mut self) -> Gather<'_> {
        Gather {
            len: self.len,
            limit: BLOCK_SYMBOLS - self.runs.min(BLOCK_SYMBOLS),
            symbols: &mut self.symbols[..],
            lit_freq: &mut self.lit_freq,
            dist_freq: &mut self.dist_freq,
            block_len: &mut self.len,
        }
    }

    /// `n` (at least 1) matches of 258 bytes at distance 1, as one symbol.
    pub(super) fn longest_zero_matches(&mut self, n: usize) {
        self.symbols[self.len] = RUN | (n as u32) << DIST_SHIFT | (256 + 255);
        self.len += 1;
        self.runs += n - 1;
        self.lit_freq[257 + 28] += n as u32;
        self.dist_freq[0] += n as u32;
    }

    /// Writes the block with whichever codes (its own or the fixed ones) make it shorter,
    /// and empties it for the next; returns how many literals it held.
    pub(super) fn write(&mut self, out: &mut BitWriter, last: bool) -> usize {
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
        out.put(u64::from(last), 1);
        let (lit_len, dist_len) = if fixed <= dynamic {
            out.put(1, 2);
            // All 288 symbols of the fixed code: its canonical codes count the two that
            // are never sent (286, 287) among the 8-bit ones.
            let lit: Vec<u8> = (0..288).map(fixed_lit_len).collect();
            (lit, vec![5; DIST_CODES])
        } else {
            out.put(2, 2);
            header.write(out);
            (lit_len, dist_len)
        };
        let lit_codes = canonical_codes(&lit_len);
        let dist_codes = canonical_codes(&dist_len);
        // Per block, each literal's code and each length's code with its extra bits (at
        // most 15 + 5 bits), with its bit count from bit 24, indexed by a stored symbol's
        // low 9 bits; each distance symbol's code, its length and its length with the
        // extra bits, as `code | length << 16 | total << 24`: one look-up each.
        let mut codes = [0u32; 512];
        for (b, c) in codes[..256].iter_mut().enumerate() {
            *c = u32::from(lit_codes[b]) | u32::from(lit_len[b]) << 24;
        }
        for (l, c) in codes[256..].iter_mut().enumerate() {
            let ls = usize::from(LENGTH_SYMBOL[l]);
            let (code, len) = (lit_codes[257 + ls], lit_len[257 + ls]);
            let extra = (l + 3 - usize::from(LENGTH_BASE[ls])) as u32;
            *c = (u32::from(code) | extra << len) | u32::from(len + LENGTH_EXTRA[ls]) << 24;
        }
        // Indexed by a stored symbol's distance symbol plus one: 0 (a literal) is no bits.
        let dists: [u32; 32] = std::array::from_fn(|i| match i.checked_sub(1) {
            Some(s) if s < DIST_CODES => {
                u32::from(dist_codes[s])
                    | u32::from(dist_len[s]) << 16
                    | u32::from(dist_len[s] + DIST_EXTRA[s]) << 24
            }
            _ => 0,
        });
        // Room for the block first (its bits counted above, and the extra bits of lengths
        // and distances), and for one more window of `put_plain`, so that the loop writes
        // whole words into a window of fixed size, with its state in registers.
        let extra: u64 = (self.lit_freq[257..].iter().zip(LENGTH_EXTRA))
            .map(|(&f, e)| u64::from(f) * u64::from(e))
            .chain(
                (self.dist_freq.iter().zip(DIST_EXTRA)).map(|(&f, e)| u64::from(f) * u64::from(e)),
            )
            .sum();
        let mut w = out.words(((dynamic.min(fixed) + extra) / 8) as usize + WINDOW);
        let mut symbols = &self.symbols[..self.len];
        while let Some(&s) = symbols.first() {
            if s & RUN != 0 {
                // `n` matches of length 258 (no extra bits) at distance 1: at most 15 + 15
                // bits each.
                let c = codes[(s & 511) as usize];
                let (c, c_len) = (u64::from(c & 0xFF_FFFF), c >> 24);
                let n = (s & !RUN) >> DIST_SHIFT;
                let d = dists[1];
                let one = c | u64::from(d & 0xFFFF) << c_len;
                for _ in 0..n {
                    w.put(one, c_len + (d >> 24));
                }
                symbols = &symbols[1..];
                continue;
            }
            let done = put_plain(&mut w, symbols, &codes, &dists);
            symbols = &symbols[done..];
        }
        w.put(
            u64::from(lit_codes[END_OF_BLOCK]),
            u32::from(lit_len[END_OF_BLOCK]),
        );
        w.done();
        let literals = self.lit_freq[..256].iter().map(|&f| f as usize).sum();
        self.clear();
        literals
    }

    /// Empties the block (its symbols and frequencies).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.runs = 0;
        self.lit_freq = [0; LITLEN_CODES];
        self.dist_freq = [0; DIST_CODES];
    }

    /// Whether the block holds no symbol and no frequency.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
            && self.runs == 0
            && self.lit_freq.iter().all(|&f| f == 0)
            && self.dist_freq.iter().all(|&f| f == 0)
    }
}

/// Symbols [`put_plain`] writes into one window: at most 48 bits (6 bytes) each.
const CHUNK: usize = 64;
/// Bytes of [`put_plain`]'s window: its symbols' whole bytes (at most 6 × [`CHUNK`], under
/// 512) and the word written at the last one.
const WINDOW: usize = 512 + 8;

/// Writes literals and matches from the start of `symbols`, up to [`CHUNK`] of them or to
/// the first run symbol; returns how many it wrote.
///
/// Into a window of fixed size at the writer's position, at offsets masked to it (a no-op:
/// they stay under 512), so that each word's store needs no bound check. A literal, or a
/// length and its distance (code and extra bits: at most 20 + 28 bits), is one write,
/// without a branch between the two, which alternate unpredictably on anti-aliased edges:
/// a literal's distance symbol reads as 0, a code of no bits ([`match_symbol`]).
#[inline(always)]
fn put_plain(w: &mut Words, symbols: &[u32], codes: &[u32; 512], dists: &[u32; 32]) -> usize {
    let win: &mut [u8; WINDOW] = match w.out.get_mut(w.at..w.at + WINDOW) {
        Some(win) => win
            .try_into()
            .unwrap_or_else(|_| unreachable!("a slice of WINDOW")),
        None => unreachable!("Block::write makes room for a window past the block"),
    };
    let (mut acc, mut n, mut o) = (w.acc, w.n, 0usize);
    let mut done = 0;
    for &s in &symbols[..symbols.len().min(CHUNK)] {
        if s & RUN != 0 {
            break;
        }
        let c = codes[(s & 511) as usize];
        let d = dists[((s >> DIST_SHIFT) & 31) as usize];
        let dist = u64::from(d & 0xFFFF) | u64::from(s >> EXTRA_SHIFT) << ((d >> 16) & 0xFF);
        let c_len = c >> 24;
        acc |= (u64::from(c & 0xFF_FFFF) | dist << c_len) << n;
        n += c_len + (d >> 24);
        let at = o & 511;
        win[at..at + 8].copy_from_slice(&acc.to_le_bytes());
        o += (n / 8) as usize;
        acc >>= n & 56;
        n %= 8;
        done += 1;
    }
    (w.at, w.acc, w.n) = (w.at + o, acc, n);
    done
}

/// A [`Block`] being filled by a loop ([`Block::gather`]).
pub(super) struct Gather<'a> {
    len: usize,
    /// `len` at which the block is full.
    limit: usize,
    symbols: &'a mut [u32],
    lit_freq: &'a mut [u32; LITLEN_CODES],
    dist_freq: &'a mut [u32; DIST_CODES],
    block_len: &'a mut usize,
}

impl Gather<'_> {
    /// [`Block::full`].
    #[inline(always)]
    pub(super) fn full(&self) -> bool {
        self.len >= self.limit
    }

    /// A literal byte.
    #[inline(always)]
    pub(super) fn literal(&mut self, byte: u8) {
        self.symbols[self.len] = u32::from(byte);
        self.len += 1;
        self.lit_freq[usize::from(byte)] += 1;
    }

    /// A match of `len` (3..=258) bytes at `dist` (1..=32768).
    #[inline(always)]
    pub(super) fn matched(&mut self, len: usize, dist: usize) {
        let (s, ds) = match_symbol(len, dist);
        self.symbols[self.len] = s;
        self.len += 1;
        self.lit_freq[257 + usize::from(LENGTH_SYMBOL[len - 3])] += 1;
        self.dist_freq[ds] += 1;
    }

    /// Hands the count of symbols back.
    #[inline(always)]
    pub(super) fn done(self) {
        *self.block_len = self.len;
    }
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
pub(super) fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    // (frequency, symbol) as one integer, so that sorting them is sorting integers.
    let key = |f: u32, s: usize| u64::from(f) << 32 | s as u64;
    let mut used: Vec<u64> = (freq.iter().enumerate())
        .filter(|(_, &f)| f > 0)
        .map(|(s, &f)| key(f, s))
        .collect();
    for (s, &f) in freq.iter().enumerate() {
        if used.len() >= 2 {
            break;
        }
        if f == 0 {
            used.push(key(0, s));
        }
    }
    // Least frequent first; equal frequencies by symbol, so the result is deterministic.
    used.sort_unstable();
    let used: Vec<(u32, usize)> = (used.iter())
        .map(|&k| ((k >> 32) as u32, (k & 0xFFFF_FFFF) as usize))
        .collect();
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
pub(super) struct BitWriter {
    /// The bytes written (`used` of them), then zeros: room made ahead in pieces
    /// ([`BitWriter::words`]).
    out: Vec<u8>,
    used: usize,
    /// Bits not yet written, from the lowest: `n` (under 8) of them in `acc`.
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Bits appended to `out`.
    pub(super) fn new(out: Vec<u8>) -> Self {
        Self {
            used: out.len(),
            out,
            acc: 0,
            n: 0,
        }
    }

    /// Appends the low `count` bits of `value` (`count` ≤ 32, no higher bit set).
    pub(super) fn put(&mut self, value: u64, count: u32) {
        let mut w = self.words(8);
        w.put(value, count);
        w.done();
    }

    /// The writer's state as a [`Words`] with room for `bytes` more bytes.
    fn words(&mut self, bytes: usize) -> Words<'_> {
        /// Zeros are added in pieces under glibc's threshold for `rep stosb`, whose every
        /// byte callgrind counts as an instruction.
        const PIECE: usize = 1024;
        while self.out.len() < self.used + bytes + 8 {
            self.out.extend_from_slice(&[0; PIECE]);
        }
        let Self { out, used, acc, n } = self;
        Words {
            at: *used,
            acc: *acc,
            n: *n,
            out: &mut out[..],
            state: (used, acc, n),
        }
    }

    /// Pads with zero bits to a byte boundary and writes out the whole bytes.
    pub(super) fn align(&mut self) {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.truncate(self.used);
        (self.out).extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.used = self.out.len();
        (self.acc, self.n) = (0, 0);
    }

    /// The bytes, the last one padded with zero bits.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.align();
        self.out
    }
}

/// A [`BitWriter`]'s state in locals, writing whole words into room made ahead: what a loop
/// over symbols keeps in registers.
struct Words<'a> {
    /// The next byte to write in `out`.
    at: usize,
    acc: u64,
    n: u32,
    out: &'a mut [u8],
    /// Where the state goes back ([`Words::done`]).
    state: (&'a mut usize, &'a mut u64, &'a mut u32),
}

impl Words<'_> {
    /// Appends the low `count` bits of `value` (`count` ≤ 56, no higher bit set).
    ///
    /// Without a branch: the bits are stored as a whole word every time and the position
    /// moves by the whole bytes they fill, leaving under 8 bits in `acc` (a branch on a
    /// full word went either way at random on literal-heavy images).
    #[inline(always)]
    fn put(&mut self, value: u64, count: u32) {
        self.acc |= value << self.n;
        self.n += count;
        self.out[self.at..self.at + 8].copy_from_slice(&self.acc.to_le_bytes());
        let bytes = self.n / 8;
        self.at += bytes as usize;
        self.acc >>= 8 * bytes;
        self.n %= 8;
    }

    /// Hands the state back.
    fn done(self) {
        (*self.state.0, *self.state.1, *self.state.2) = (self.at, self.acc, self.n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for dist in 1..=32 * 1024 {
            let s = dist_symbol(dist);
            let (stored, ds) = match_symbol(3, dist);
            assert_eq!(ds, s, "distance {dist}");
            assert_eq!(
                usize::from(DIST_BASE[s]) + (stored >> EXTRA_SHIFT) as usize,
                dist,
                "distance {dist}"
            );
            let base = usize::from(DIST_BASE[s]);
            assert!(
                base <= dist && dist - base < 1 << DIST_EXTRA[s],
                "distance {dist}"
            );
        }
    }
}
