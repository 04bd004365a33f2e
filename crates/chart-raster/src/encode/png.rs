//! PNG files: the `Up` filter (each row compared with the row above as it is filtered), RGB
//! packing when the image is opaque, and the zlib stream of the filtered rows (our deflate,
//! or zlib-rs for `Small`).

use super::{deflate, EncodeError, PngCompression};
use crate::cores::{second_core, Busy, Lent};
use chart_spec::Bitmap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether every pixel of `data` (whole RGBA pixels) is opaque: by spans of 16 pixels
/// ([`opaque_span`]), then pixel by pixel.
pub(super) fn opaque(data: &[u8]) -> bool {
    let (spans, rest) = data.as_chunks::<SPAN>();
    spans.iter().all(opaque_span) && rest.chunks_exact(4).all(|px| px[3] == 0xFF)
}

/// Whether the 16 pixels of a span are opaque: the bytes AND-ed with the colour bytes set,
/// which the compiler turns into a few vector instructions (no branch per pixel).
#[inline(always)]
fn opaque_span(span: &[u8; SPAN]) -> bool {
    let alpha_only = |i: usize| if i % 4 == 3 { 0 } else { 0xFF };
    let all = (span.iter().enumerate()).fold(0xFF, |acc, (i, &b)| acc & (b | alpha_only(i)));
    all == 0xFF
}

/// Bytes of a span of 16 RGBA pixels: the unit in which a row that differs from the row
/// above is compared with it.
const SPAN: usize = 64;

/// Whether two spans are equal: their bytes' differences folded with OR, which the
/// compiler turns into a few vector instructions (no call, no branch per word).
#[inline(always)]
fn equal_spans(a: &[u8; SPAN], b: &[u8; SPAN]) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub(super) fn encode(bitmap: &Bitmap, compression: PngCompression) -> Result<Vec<u8>, EncodeError> {
    let io_err = |e: std::io::Error| EncodeError::Encoder {
        format: "png",
        reason: e.to_string(),
    };
    // The image data: opaque bitmaps as RGB, every row filtered with `Up` (rows of a chart
    // mostly repeat the row above: backgrounds, bars, gaps between grid lines), deflated by
    // our encoder (`deflate.rs`), or zlib-rs at level 6 for `Small`.
    //
    // Measured on the 15 charts of `cargo xtask bench-peers` (1600×1200 bitmaps):
    // - RGB instead of RGBA: 12–20% fewer bytes at every level, and less to deflate;
    // - zlib-rs level 1 (`deflate_quick`, static Huffman codes only): 1.0–2.3× node-skia's
    //   bytes; level 2 (`deflate_fast`, dynamic codes) 0.6–0.93×; 3–6 buy 1–5% more;
    // - our encoder: 2–8% under level 2's bytes; on the bar chart with borders, 12.4 M
    //   instructions for the whole of this function against 29.9 M with level 2 (callgrind,
    //   release CLI),
    //   most of the difference the zeros of repeated rows and spans, which zlib walked
    //   through byte by byte;
    // - per-row adaptive filters (libpng's minimum-sum-of-absolute-differences choice among
    //   the five) came out between 13% smaller (polar area) and 9% larger (bar chart) than
    //   `Up` alone after deflate, for several times the filtering work: not taken;
    // - a palette (4 of the 15 charts have at most 256 colours) would be 15–35% smaller again
    //   but needs a colour count over every pixel: left for later.
    let width = bitmap.width as usize;
    let height = bitmap.height as usize;
    // The second thread, when one is lent, for the deflate's halves.
    let _busy = Busy::enter();
    let second = (bitmap.data.len() / 4 >= SPLIT_MIN_PIXELS)
        .then(second_core)
        .flatten();
    // Whether the image is opaque, so that it can be written as RGB (exactly: PNG's RGB
    // decodes with alpha 255; charts on the default white background always are, which
    // drops a quarter of the bytes to deflate), is learnt while the rows are filtered: a
    // row or span equal to the one above has its alpha, so only the first row is read
    // whole here (against the zeros above it, a span of transparent black would be
    // "equal"), and the filter reads the alpha of the spans that differ. A translucent one
    // stops the RGB attempt, and the rows are filtered again as RGBA: a chart on a
    // transparent background is found translucent here, on its first row.
    let mut bpp = if opaque(&bitmap.data[..width * 4]) {
        3
    } else {
        4
    };
    // Room for the stream: most charts' come out under a thirty-second of the bitmap (the
    // bar charts 0.7%, the line chart 2.9%, scatter 10,000 21%: it grows).
    let capacity = bitmap.data.len() / 32;
    let file = loop {
        let rows = Rows {
            data: &bitmap.data,
            width,
            height,
            bpp,
            translucent: AtomicBool::new(false),
        };
        // The stream is written after the file's first chunks, in the buffer that becomes
        // the file: no copy of the stream into another.
        let start = png_start((bitmap.width, bitmap.height), bpp, capacity);
        let file = match compression {
            PngCompression::Fast => {
                own_deflate(&rows, deflate::Effort::Fast, start, second.as_ref())?
            }
            PngCompression::Default => {
                own_deflate(&rows, deflate::Effort::Default, start, second.as_ref())?
            }
            PngCompression::Small => {
                // zlib-rs deflates on this thread alone.
                let mut z = Zlib {
                    z: flate2::write::ZlibEncoder::new(start, flate2::Compression::new(6)),
                    row: Vec::new(),
                };
                rows.filter(0..height, &mut z).map_err(io_err)?;
                z.z.finish().map_err(io_err)?
            }
        };
        if !rows.translucent.into_inner() {
            break file;
        }
        bpp = 4;
    };
    Ok(fitted(png_end(file)))
}

/// `file` in a buffer of about its size.
pub(super) fn fitted(file: Vec<u8>) -> Vec<u8> {
    // The buffer had room for a stream up to a thirty-second of the bitmap (240 KB for a
    // default chart whose PNG is 50 KB), and the file is kept as it is returned: a cache of
    // such files held several times the bytes it counts (a soak of the bar chart peaked at
    // 274–313 MiB of RSS with the room kept, 104–105 now). So a file well under its
    // buffer is copied into one of its size (a copy of the file, little beside encoding
    // it), and the buffer goes back to the allocator for the next encode.
    if file.capacity() - file.len() > file.len() / 4 {
        return file.as_slice().to_vec();
    }
    file
}

/// Bytes of a PNG file before its image data: the signature, the IHDR chunk, and the
/// IDAT chunk's length (filled in by [`png_end`]) and type.
const PNG_START: usize = 8 + (12 + 13) + 8;

/// The start of the PNG file of a `width × height` image written with `bpp` bytes per
/// pixel (3: RGB, 4: RGBA, 8 bits each, not interlaced), up to the IDAT chunk's data, in a
/// buffer with room for `capacity` bytes of it.
pub(super) fn png_start((width, height): (u32, u32), bpp: usize, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(PNG_START + capacity + 16);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    // Bit depth 8; colour type 2 (RGB) or 6 (RGBA); compression, filter and interlace
    // methods 0.
    ihdr[8] = 8;
    ihdr[9] = if bpp == 3 { 2 } else { 6 };
    chunk(&mut out, b"IHDR", &ihdr);
    // The IDAT chunk's length, known at the end.
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(b"IDAT");
    out
}

/// The PNG file from [`png_start`]'s bytes followed by the zlib stream: the IDAT chunk's
/// length and checksum, then IEND. A chunk holds at most 2^31 − 1 bytes: a longer stream
/// (only from a bitmap over `MAX_PIXELS`) is cut into chunks of 2^30.
pub(super) fn png_end(file: Vec<u8>) -> Vec<u8> {
    png_end_in_chunks(file, (1 << 31) - 1, 1 << 30)
}

/// [`png_end`] with a stream over `longest` bytes cut into chunks of `piece`.
fn png_end_in_chunks(mut file: Vec<u8>, longest: usize, piece: usize) -> Vec<u8> {
    let len = file.len() - PNG_START;
    match u32::try_from(len).ok().filter(|&n| n as usize <= longest) {
        Some(n) => {
            file[PNG_START - 8..PNG_START - 4].copy_from_slice(&n.to_be_bytes());
            let mut crc = flate2::Crc::new();
            crc.update(&file[PNG_START - 4..]);
            file.extend_from_slice(&crc.sum().to_be_bytes());
        }
        None => {
            let stream = file.split_off(PNG_START);
            file.truncate(PNG_START - 8);
            for part in stream.chunks(piece) {
                chunk(&mut file, b"IDAT", part);
            }
        }
    }
    chunk(&mut file, b"IEND", &[]);
    file
}

/// Appends a PNG chunk: its length, type, data and CRC-32 (of type and data).
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let len = u32::try_from(data.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

/// The rows of a bitmap as PNG writes them.
pub(super) struct Rows<'a> {
    /// RGBA pixels, straight alpha.
    pub(super) data: &'a [u8],
    pub(super) width: usize,
    pub(super) height: usize,
    /// Bytes per pixel written: 3 (RGB: the first row is opaque, and so far every pixel
    /// that differs from the pixel above) or 4 (RGBA).
    pub(super) bpp: usize,
    /// Set when a translucent pixel was found while writing RGB: the rows written are
    /// wrong, and the filtering stops (on both halves' threads).
    pub(super) translucent: AtomicBool,
}

impl Rows<'_> {
    /// Rows `range`, each as its filter byte and `Up`-filtered pixels, into `sink`; as
    /// RGB, only until a translucent pixel turns up ([`Rows::translucent`]).
    ///
    /// One row at a time, compared with the row above and filtered in the same pass (rows
    /// and spans that repeat the ones above are most of a chart: backgrounds, bars, gaps
    /// between grid lines; on the line chart 95% of the rows differ from the row above,
    /// but most of their spans of 16 pixels do not). A whole filtered copy would be as
    /// large as the bitmap. `Up` is taken on the RGBA rows ([`up_rgb`], by spans of 16
    /// pixels), then packed to RGB: the filter works byte by byte, so the RGB of the RGBA
    /// difference is the difference of the RGBs. The first row's "row above" is zeros, as
    /// the PNG spec defines it. A row equal to the row above is handed over as the zeros
    /// it is ([`Sink::write_with`]).
    pub(super) fn filter(&self, range: Range<usize>, sink: &mut impl Sink) -> std::io::Result<()> {
        let line_bytes = self.width * 4;
        let stride = self.width * self.bpp;
        let zeros;
        let mut prev: &[u8] = match range.start.checked_sub(1) {
            Some(above) => &self.data[above * line_bytes..range.start * line_bytes],
            None => {
                zeros = vec![0u8; line_bytes];
                &zeros
            }
        };
        let lines =
            self.data[range.start * line_bytes..range.end * line_bytes].chunks_exact(line_bytes);
        // Whether the last row repeated the row above: then this one is compared whole
        // first (`memcmp`), as rows repeat in long runs (a bar chart's backgrounds and bar
        // bodies), where the span by span filter would read each span for its zeros.
        let mut repeating = false;
        for line in lines {
            let mut opaque = true;
            sink.write_with(stride + 1, |row| {
                row[0] = 2; // filter type Up
                if repeating && line == prev {
                    // In pieces under glibc's threshold for `rep stosb`, whose every byte
                    // callgrind counts as an instruction (no faster either way).
                    for piece in row[1..].chunks_mut(1024) {
                        piece.fill(0);
                    }
                    return 1;
                }
                // The row's bytes up to the end of its last difference from the row above:
                // the zeros after it (often most of the row: a curve crosses it in a few
                // places) are summed and skipped by the deflater without being read.
                let end = if self.bpp == 4 {
                    if up_rgba(line, prev, &mut row[1..]) {
                        row.len() - 1
                    } else {
                        0
                    }
                } else {
                    let end;
                    (end, opaque) = up_rgb(line, prev, &mut row[1..]);
                    end
                };
                repeating = end == 0;
                1 + end
            })?;
            if !opaque {
                self.translucent.store(true, Ordering::Relaxed);
            }
            if self.bpp == 3 && self.translucent.load(Ordering::Relaxed) {
                return Ok(());
            }
            prev = line;
        }
        Ok(())
    }
}

/// Where the filtered rows go: our deflate encoder, or zlib-rs at level 6 (`Small`).
pub(super) trait Sink {
    /// `n` bytes that `fill` writes; `fill` returns how many of them, from the first, may
    /// be other than zero (the rest are zeros).
    fn write_with(
        &mut self,
        n: usize,
        fill: impl FnOnce(&mut [u8]) -> usize,
    ) -> std::io::Result<()>;
}

impl Sink for deflate::Deflater {
    fn write_with(
        &mut self,
        n: usize,
        fill: impl FnOnce(&mut [u8]) -> usize,
    ) -> std::io::Result<()> {
        deflate::Deflater::write_with(self, n, fill);
        Ok(())
    }
}

/// zlib-rs's encoder as a [`Sink`], with a row kept for [`Sink::write_with`].
struct Zlib {
    z: flate2::write::ZlibEncoder<Vec<u8>>,
    row: Vec<u8>,
}

impl Sink for Zlib {
    fn write_with(
        &mut self,
        n: usize,
        fill: impl FnOnce(&mut [u8]) -> usize,
    ) -> std::io::Result<()> {
        self.row.resize(n, 0);
        fill(&mut self.row);
        self.z.write_all(&self.row)
    }
}

/// `start` followed by the zlib stream of the rows with our deflate encoder. An image of
/// at least [`SPLIT_MIN_PIXELS`] is deflated as two halves joined into one stream
/// ([`split_row`]), always, so that the same pixels give the same bytes whatever the
/// machine is doing; the second half runs on the `second` thread at the same time when
/// [`second_core`] lent one (an idle core), else after the first on this thread.
fn own_deflate(
    rows: &Rows,
    effort: deflate::Effort,
    start: Vec<u8>,
    second: Option<&Lent>,
) -> Result<Vec<u8>, EncodeError> {
    match split_row(rows) {
        Some(mid) => in_two(rows, effort, start, mid, second),
        None => Ok(in_one(rows, effort, start)),
    }
}

fn in_one(rows: &Rows, effort: deflate::Effort, start: Vec<u8>) -> Vec<u8> {
    let mut d = deflate::Deflater::new(effort, start);
    // Infallible: the deflater takes every byte.
    let _ = rows.filter(0..rows.height, &mut d);
    d.finish()
}

/// `start`, then rows `..mid` and rows `mid..` deflated as two parts joined into one
/// stream (the second half's matches start from its own first row): at the same time on
/// the `second` thread when one is lent, one after the other here otherwise. The bytes are
/// the same. The second part is copied after the first, in `start`'s buffer (its room is
/// for both).
fn in_two(
    rows: &Rows,
    effort: deflate::Effort,
    start: Vec<u8>,
    mid: usize,
    second: Option<&Lent>,
) -> Result<Vec<u8>, EncodeError> {
    let room = start.capacity() - start.len();
    let head = || {
        let mut d = deflate::Deflater::new(effort, start);
        let _ = rows.filter(0..mid, &mut d);
        d.finish_part(false)
    };
    let tail = || {
        let mut d = deflate::Deflater::continuation(effort, room / 2);
        let _ = rows.filter(mid..rows.height, &mut d);
        d.finish_part(true)
    };
    let Some(second) = second else {
        return Ok(head().join(tail()).into_stream());
    };
    let (second, first) = second.join(tail, head);
    let second = second.map_err(|_| EncodeError::Encoder {
        format: "png",
        reason: "the second deflate thread failed".into(),
    })?;
    Ok(first.join(second).into_stream())
}

/// Images of fewer pixels are deflated in one part on one thread: handing the second half
/// over costs some 10–50 µs (waking the lent thread, the rows read from another core's
/// cache), and on a chart of 600×400 device pixels the second half is ~0.5 ms.
const SPLIT_MIN_PIXELS: usize = 1 << 18;

/// The first row of the second half, or `None` for an image deflated in one part (fewer
/// than [`SPLIT_MIN_PIXELS`], or a single row). It depends on the pixels alone, so the
/// same chart always gives the same bytes: the halves hold about as much work each by a
/// sample of the rows ([`SAMPLE_ROWS`]), each counted as [`ROW_WEIGHT`] plus its spans that
/// differ from the span above. (Until 2026-11-27 every row was compared first, a pass over
/// the bitmap of its own before either half began, and the halves held as many rows that
/// differ from the row above; the filter now compares them as it goes.)
fn split_row(rows: &Rows) -> Option<usize> {
    if rows.data.len() / 4 < SPLIT_MIN_PIXELS || rows.height < 2 {
        return None;
    }
    let line_bytes = rows.width * 4;
    let row = |y: usize| &rows.data[y * line_bytes..(y + 1) * line_bytes];
    let weights: Vec<(usize, usize)> = (1..rows.height)
        .step_by(SAMPLE_ROWS)
        .map(|y| {
            let spans = row(y).as_chunks::<SPAN>().0;
            let above = row(y - 1).as_chunks::<SPAN>().0;
            let differ = (spans.iter().zip(above))
                .filter(|(a, b)| !equal_spans(a, b))
                .count();
            (y, ROW_WEIGHT + differ)
        })
        .collect();
    let total: usize = weights.iter().map(|&(_, w)| w).sum();
    let mut seen = 0;
    let mid = weights.iter().find_map(|&(y, w)| {
        seen += w;
        (2 * seen >= total).then_some(y)
    });
    Some(mid.unwrap_or(rows.height / 2).clamp(1, rows.height - 1))
}

/// One row in this many is compared with the row above to choose the split
/// ([`split_row`]): an eighth of the scan that chose it before.
const SAMPLE_ROWS: usize = 16;

/// What a row costs the encoder beside its spans that differ from the spans above, in
/// such spans: reading it and the row above, its zeros.
const ROW_WEIGHT: usize = 8;

/// The `Up` filter of an RGBA row against the row above, into `out`; whether any byte
/// differs.
fn up_rgba(line: &[u8], above: &[u8], out: &mut [u8]) -> bool {
    let mut any = 0;
    for ((d, c), up) in out.iter_mut().zip(line).zip(above) {
        *d = c.wrapping_sub(*up);
        any |= *d;
    }
    any != 0
}

/// The `Up` filter of an RGBA row against the row above, packed to RGB into `out`: how
/// many bytes of `out` lead up to the end of the last span that differs (0 when none
/// does: the rest are zeros), and whether every pixel that differs from the pixel above
/// (by spans of 16 pixels) is opaque. A span equal to the span above is written as zeros.
fn up_rgb(line: &[u8], above: &[u8], out: &mut [u8]) -> (usize, bool) {
    let (spans, tail) = line.as_chunks::<SPAN>();
    let (spans_above, tail_above) = above.as_chunks::<SPAN>();
    let (outs, out_tail) = out.as_chunks_mut::<48>();
    let (mut end, mut opaque) = (0, true);
    for (i, ((span, span_above), o)) in spans.iter().zip(spans_above).zip(outs).enumerate() {
        if equal_spans(span, span_above) {
            *o = [0; 48];
        } else {
            up_span(span, span_above, o);
            end = 48 * (i + 1);
            opaque &= opaque_span(span);
        }
    }
    // Under 16 pixels left.
    let mut d = [0u8; SPAN];
    let d = &mut d[..tail.len()];
    let mut any = 0;
    for ((d, c), up) in d.iter_mut().zip(tail).zip(tail_above) {
        *d = c.wrapping_sub(*up);
        any |= *d;
    }
    pack_rgb(d, out_tail);
    if any != 0 {
        end = out.len();
        opaque &= self::opaque(tail);
    }
    (end, opaque)
}

/// The `Up` filter of a span of 16 RGBA pixels, packed to RGB: the differences taken 16
/// bytes at a time, then each pixel stored as 4 bytes 3 apart, its alpha overwritten by
/// the next pixel's red (the last pixel as 3 bytes): 45 instructions a span where
/// [`pack_rgb`]'s shifts took about 80.
#[inline(always)]
fn up_span(span: &[u8; SPAN], above: &[u8; SPAN], out: &mut [u8; 48]) {
    let mut d = [0u8; SPAN];
    for ((d, c), up) in d.iter_mut().zip(span).zip(above) {
        *d = c.wrapping_sub(*up);
    }
    for i in 0..15 {
        out[3 * i..3 * i + 4].copy_from_slice(&d[4 * i..4 * i + 4]);
    }
    out[45..48].copy_from_slice(&d[60..63]);
}

/// Drops every fourth byte: RGBA pixels to RGB. Four pixels at a time through two
/// little-endian words (a byte at a time took 7 instructions a pixel, a third of encoding).
fn pack_rgb(rgba: &[u8], rgb: &mut [u8]) {
    let (quads, tail) = rgba.as_chunks::<16>();
    let (triples, rest) = rgb.as_chunks_mut::<12>();
    for (s, d) in quads.iter().zip(triples.iter_mut()) {
        let [a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7] = *s;
        // Two pixels per word: RGB of the first in bytes 0–2, of the second in 3–5.
        let pair = |w: u64| (w & 0xFF_FFFF) | ((w >> 8) & 0xFFFF_FF00_0000);
        let lo = pair(u64::from_le_bytes([a0, a1, a2, a3, a4, a5, a6, a7]));
        let hi = pair(u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]));
        let [c0, c1, c2, c3, c4, c5, c6, c7] = (lo | (hi << 48)).to_le_bytes();
        let [c8, c9, c10, c11] = ((hi >> 16) as u32).to_le_bytes();
        *d = [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11];
    }
    for (s, d) in tail.chunks_exact(4).zip(rest.chunks_exact_mut(3)) {
        d.copy_from_slice(&s[..3]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::deflate::tests::{inflate, Noise};
    use super::*;
    use crate::encode::encode_png;

    pub(in crate::encode) fn solid(w: u32, h: u32, px: [u8; 4]) -> Bitmap {
        Bitmap {
            width: w,
            height: h,
            data: px
                .iter()
                .copied()
                .cycle()
                .take((w * h * 4) as usize)
                .collect(),
        }
    }

    /// Decoded size and pixels, RGB expanded to RGBA with alpha 255 (what PNG's RGB means).
    pub(crate) fn decode_png(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
        let (w, h, color, data) = decode_png_raw(bytes);
        let data = match color {
            png::ColorType::Rgba => data,
            png::ColorType::Rgb => data
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            other => panic!("unexpected colour type {other:?}"),
        };
        (w, h, data)
    }

    pub(in crate::encode) fn decode_png_raw(bytes: Vec<u8>) -> (u32, u32, png::ColorType, Vec<u8>) {
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, info.color_type, buf)
    }

    const MODES: [PngCompression; 3] = [
        PngCompression::Fast,
        PngCompression::Default,
        PngCompression::Small,
    ];

    /// A bar chart drawn by the engine: what the encoder really gets.
    pub(in crate::encode) fn rendered_bar_chart(background: chart_spec::Rgba) -> Bitmap {
        let config = serde_json::json!({
            "type": "bar",
            "data": {"labels": ["a", "b", "c", "d"], "datasets": [
                {"label": "x", "data": [3, 7, 2, 5], "borderWidth": 2,
                 "backgroundColor": "rgba(54, 162, 235, 0.6)"}]},
            "options": {"plugins": {"title": {"display": true, "text": "encode"}}}
        });
        rendered(config, (200.0, 150.0), background)
    }

    /// The chart of `config` drawn at `size` CSS pixels, device pixel ratio 2.
    fn rendered(
        config: serde_json::Value,
        (width, height): (f32, f32),
        background: chart_spec::Rgba,
    ) -> Bitmap {
        let serde_json::Value::Object(config) = config else {
            unreachable!("a JSON object literal")
        };
        let settings = chart_raster_skia::Settings {
            width,
            height,
            device_pixel_ratio: 2.0,
            background,
        };
        chart_raster_skia::Engine::new()
            .render_chart(&config, &settings)
            .unwrap()
            .bitmap
    }

    #[test]
    fn rendered_charts_round_trip_byte_exact_in_every_mode() {
        // Opaque (white background): written as RGB. Transparent background: RGBA, with the
        // straight-alpha pixels kept exactly.
        for (background, color) in [
            (chart_spec::Rgba::WHITE, png::ColorType::Rgb),
            (chart_spec::Rgba::TRANSPARENT, png::ColorType::Rgba),
        ] {
            let bmp = rendered_bar_chart(background);
            for mode in MODES {
                let bytes = encode_png(&bmp, mode).unwrap();
                let (w, h, got, _) = decode_png_raw(bytes.clone());
                assert_eq!((w, h, got), (bmp.width, bmp.height, color), "{mode:?}");
                let (_, _, data) = decode_png(bytes);
                assert!(data == bmp.data, "{mode:?} {color:?}: pixels differ");
            }
        }
    }

    #[test]
    fn fast_is_another_encoder_of_the_same_pixels() {
        let bmp = rendered_bar_chart(chart_spec::Rgba::WHITE);
        let [fast, default, _] = MODES.map(|m| encode_png(&bmp, m).unwrap());
        assert_ne!(fast, default);
        assert_eq!(decode_png(fast).2, bmp.data);
        assert_eq!(
            crate::encode::encode(&bmp, chart_spec::ImageFormat::Png, 90).unwrap(),
            default,
            "encode uses the default mode"
        );
    }

    #[test]
    fn a_translucent_pixel_in_either_half_keeps_the_alpha_channel() {
        // Over SPLIT_MIN_PIXELS (two halves), rows made from the row above with a few
        // pixels changed; one translucent pixel in a span that differs from the span above
        // in the first half, in the second half's first row, in its last row, or a
        // transparent black span on the first row (equal to the zeros "above" it), on the
        // lent thread or not.
        let (w, h) = (700usize, 400usize);
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        let mut data = vec![0xFF; w * h * 4];
        for y in 1..h {
            let (above, line) = data.split_at_mut(y * w * 4);
            line[..w * 4].copy_from_slice(&above[(y - 1) * w * 4..]);
            let at = (noise.next() as usize % (w * 4)) & !3;
            line[at] = noise.next() as u8;
        }
        let opaque = Bitmap {
            width: w as u32,
            height: h as u32,
            data,
        };
        let mid = split_row(&Rows {
            data: &opaque.data,
            width: w,
            height: h,
            bpp: 3,
            translucent: AtomicBool::new(false),
        })
        .expect("split in two");
        let translucent_at = |y: usize, x: usize, px: [u8; 4]| {
            let mut bmp = opaque.clone();
            bmp.data[(y * w + x) * 4..][..4].copy_from_slice(&px);
            bmp
        };
        let mut black_span = opaque.clone();
        black_span.data[16 * 4..32 * 4].fill(0);
        let cases = [
            ("none", opaque.clone(), png::ColorType::Rgb),
            (
                "first half",
                translucent_at(mid / 2, 333, [9, 9, 9, 254]),
                png::ColorType::Rgba,
            ),
            (
                "second half's first row",
                translucent_at(mid, 5, [1, 2, 3, 0]),
                png::ColorType::Rgba,
            ),
            (
                "last row",
                translucent_at(h - 1, w - 1, [1, 2, 3, 7]),
                png::ColorType::Rgba,
            ),
            (
                "transparent black on row 0",
                black_span,
                png::ColorType::Rgba,
            ),
        ];
        for (what, bmp, want) in cases {
            for second in [None, Lent::forced()] {
                for effort in [deflate::Effort::Fast, deflate::Effort::Default] {
                    let rows = |bpp| Rows {
                        data: &bmp.data,
                        width: w,
                        height: h,
                        bpp,
                        translucent: AtomicBool::new(false),
                    };
                    let rgb = rows(3);
                    let _ = own_deflate(&rgb, effort, Vec::new(), second.as_ref()).unwrap();
                    assert_eq!(
                        rgb.translucent.into_inner(),
                        want == png::ColorType::Rgba && what != "transparent black on row 0",
                        "{what}: found translucent"
                    );
                }
            }
            for mode in MODES {
                let bytes = encode_png(&bmp, mode).unwrap();
                let (_, _, color, _) = decode_png_raw(bytes.clone());
                assert_eq!(color, want, "{what} {mode:?}");
                assert!(
                    decode_png(bytes).2 == bmp.data,
                    "{what} {mode:?}: pixels differ"
                );
            }
        }
    }

    #[test]
    fn an_image_split_at_any_row_inflates_to_the_same_rows() {
        // Opaque (RGB) and transparent (RGBA); the split at the first rows, a repeated row,
        // a row that differs, the middle and the last row.
        for background in [chart_spec::Rgba::WHITE, chart_spec::Rgba::TRANSPARENT] {
            let bmp = rendered_bar_chart(background);
            let (width, h) = (bmp.width as usize, bmp.height as usize);
            let rows = Rows {
                data: &bmp.data,
                width,
                height: h,
                bpp: if opaque(&bmp.data) { 3 } else { 4 },
                translucent: AtomicBool::new(false),
            };
            let line = |y: usize| &bmp.data[y * width * 4..(y + 1) * width * 4];
            let repeated = (1..h).rfind(|&y| line(y) == line(y - 1)).unwrap();
            let differing = (1..h).rfind(|&y| line(y) != line(y - 1)).unwrap();
            for effort in [deflate::Effort::Fast, deflate::Effort::Default] {
                let whole = inflate(&in_one(&rows, effort, Vec::new()));
                assert_eq!(whole.len(), h * (1 + width * rows.bpp));
                for mid in [1, 2, repeated, differing, h / 2, h - 1] {
                    let split = in_two(&rows, effort, Vec::new(), mid, None).unwrap();
                    assert!(
                        inflate(&split) == whole,
                        "{effort:?}, {background:?}, split at row {mid} of {h}"
                    );
                    // On a second thread or after the first half here: the same bytes, so
                    // the same pixels give the same PNG whatever the machine is doing.
                    let threaded = in_two(&rows, effort, Vec::new(), mid, Lent::forced().as_ref());
                    assert!(
                        threaded.unwrap() == split,
                        "{effort:?}, {background:?}, split at row {mid} of {h}: bytes differ"
                    );
                }
            }
            assert!(!rows.translucent.into_inner());
        }
    }

    #[test]
    fn a_large_image_round_trips_whether_split_or_not() {
        // Over SPLIT_MIN_PIXELS: split in two when the machine has a second core free.
        let config = serde_json::json!({
            "type": "line",
            "data": {"labels": ["a", "b", "c", "d", "e"], "datasets": [
                {"label": "x", "data": [3, 7, 2, 5, 4], "fill": true, "tension": 0.4}]}
        });
        let bmp = rendered(config, (400.0, 350.0), chart_spec::Rgba::WHITE);
        assert!(bmp.data.len() / 4 >= SPLIT_MIN_PIXELS);
        for mode in MODES {
            let (_, _, data) = decode_png(encode_png(&bmp, mode).unwrap());
            assert!(data == bmp.data, "{mode:?}: pixels differ");
        }
    }

    #[test]
    fn one_translucent_pixel_anywhere_keeps_the_alpha_channel() {
        // At the start, in the middle of a row (an odd pixel: the second half of a word of
        // the opacity scan), on the last pixel of a row and at the very end; each of these
        // rows differs from the row above, so the rows after it repeat it.
        for at in [0usize, 4095, 4099, 9_999] {
            let mut bmp = solid(100, 100, [1, 2, 3, 255]);
            bmp.data[at * 4 + 3] = 254;
            let bytes = encode_png(&bmp, PngCompression::Default).unwrap();
            let (_, _, color, _) = decode_png_raw(bytes.clone());
            assert_eq!(color, png::ColorType::Rgba, "translucent pixel {at}");
            assert_eq!(decode_png(bytes).2, bmp.data);
        }
        let opaque = solid(100, 100, [1, 2, 3, 255]);
        let (_, _, color, _) =
            decode_png_raw(encode_png(&opaque, PngCompression::Default).unwrap());
        assert_eq!(color, png::ColorType::Rgb);
    }

    #[test]
    fn a_stream_longer_than_a_chunk_is_cut_into_chunks() {
        // The cut that only a stream over 2^31 − 1 bytes needs, at a few bytes: the same
        // pixels, the stream in 1-byte, 7-byte and 1,000-byte IDAT chunks.
        let bmp = rendered_bar_chart(chart_spec::Rgba::WHITE);
        let rows = Rows {
            data: &bmp.data,
            width: bmp.width as usize,
            height: bmp.height as usize,
            bpp: 3,
            translucent: AtomicBool::new(false),
        };
        let file = |limit: usize, piece: usize| {
            let start = png_start((bmp.width, bmp.height), 3, 0);
            let file = in_one(&rows, deflate::Effort::Default, start);
            png_end_in_chunks(file, limit, piece)
        };
        let whole = file(usize::MAX, 1);
        assert_eq!(decode_png(whole.clone()).2, bmp.data);
        for piece in [1, 7, 1000] {
            let cut = file(100, piece);
            let idats = cut.windows(4).filter(|w| w == b"IDAT").count();
            assert_eq!(idats, (whole.len() - PNG_START - 16).div_ceil(piece));
            assert_eq!(decode_png(cut).2, bmp.data, "chunks of {piece}");
        }
    }

    /// The file comes back in a buffer of about its size: a cache keeps it as it is, and
    /// counts its length (the encoder's buffer has room for a stream up to a thirty-second
    /// of the bitmap, several times a chart's PNG).
    #[test]
    fn the_file_holds_no_room_beyond_its_bytes() {
        let bitmap = rendered_bar_chart(chart_spec::Rgba::WHITE);
        for mode in [
            PngCompression::Fast,
            PngCompression::Default,
            PngCompression::Small,
        ] {
            let file = encode(&bitmap, mode).unwrap();
            assert!(
                file.capacity() - file.len() <= file.len() / 4,
                "{mode:?}: {} bytes in a buffer of {}",
                file.len(),
                file.capacity()
            );
        }
    }

    #[test]
    fn png_round_trips() {
        let bmp = solid(7, 5, [10, 20, 30, 128]);
        let (w, h, data) = decode_png(encode_png(&bmp, PngCompression::Default).unwrap());
        assert_eq!((w, h), (7, 5));
        assert_eq!(data, bmp.data);
        // Rows that differ from the row above in every byte, wrapping around 0 and 255 (the
        // `Up` filter's subtraction), and a single-row image; translucent (RGBA) and opaque
        // (RGB) pixels.
        for (w, h, opaque) in [
            (13u32, 11u32, false),
            (9, 1, false),
            (13, 11, true),
            (9, 1, true),
        ] {
            let data = (0..w * h * 4)
                .map(|i| {
                    if opaque && i % 4 == 3 {
                        255
                    } else {
                        (i.wrapping_mul(2_654_435_761) >> 13) as u8
                    }
                })
                .collect();
            let bmp = Bitmap {
                width: w,
                height: h,
                data,
            };
            let (dw, dh, decoded) = decode_png(encode_png(&bmp, PngCompression::Default).unwrap());
            assert_eq!((dw, dh), (w, h));
            assert_eq!(decoded, bmp.data);
        }
    }

    #[test]
    fn up_rgb_is_the_byte_difference_packed_at_every_width() {
        // Rows of up to 40 pixels (two 16-pixel spans and a tail) where some spans equal the
        // row above and some differ in one byte only; opaque but for the second span.
        for n in 0..=40usize {
            for changed in [None, Some(0), Some(17 * 4 + 2), Some(n * 4)] {
                let above: Vec<u8> = (0..n * 4)
                    .map(|i| match i % 4 == 3 && !(64..128).contains(&i) {
                        true => 255,
                        false => (i * 7 + 3) as u8,
                    })
                    .collect();
                let mut line = above.clone();
                if let Some(at) = changed.filter(|&at| at < line.len()) {
                    line[at] = line[at].wrapping_add(200);
                }
                let mut out = vec![0xEE; n * 3];
                let (end, opaque) = up_rgb(&line, &above, &mut out);
                // The end of the last span (16 pixels, or the tail) that differs.
                let want_end = match changed.filter(|&at| at < n * 4) {
                    None => 0,
                    Some(at) if at >= n / 16 * 64 => n * 3,
                    Some(at) => (at / 64 + 1) * 48,
                };
                assert_eq!(end, want_end, "{n} pixels, changed {changed:?}");
                // Each span that differs (16 pixels, or the tail) is checked whole.
                let spans = (0..n / 16).map(|i| 64 * i..64 * i + 64);
                let translucent = spans
                    .chain(std::iter::once(n / 16 * 64..n * 4))
                    .filter(|r| line[r.clone()] != above[r.clone()])
                    .any(|r| line[r].iter().skip(3).step_by(4).any(|&a| a != 255));
                assert_eq!(opaque, !translucent, "{n} pixels, changed {changed:?}");
                let expected: Vec<u8> = (0..n * 4)
                    .filter(|i| i % 4 != 3)
                    .map(|i| line[i].wrapping_sub(above[i]))
                    .collect();
                assert_eq!(out, expected, "{n} pixels, changed {changed:?}");
            }
        }
    }

    #[test]
    fn random_images_round_trip_in_every_mode() {
        // Rows made from the row above with a few pixels or spans changed (as a chart's
        // are), whole rows repeated, widths around the 16-pixel spans and the 64 spans of
        // a word of bits, opaque and translucent; over SPLIT_MIN_PIXELS too, and rows longer
        // than the deflater's buffer holds beside its history.
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        let mut next = move || noise.next();
        for (w, h) in [
            (1usize, 9usize),
            (15, 7),
            (16, 5),
            (17, 33),
            (100, 40),
            (1030, 30),
            (700, 400),
            (33_000, 3),
        ] {
            for opaque in [true, false] {
                let mut data = Vec::with_capacity(w * h * 4);
                let mut row: Vec<u8> = (0..w * 4).map(|_| next() as u8).collect();
                for _ in 0..h {
                    match next() % 4 {
                        0 => {}
                        1 => {
                            let at = (next() as usize) % (w * 4);
                            row[at] = next() as u8;
                        }
                        2 => {
                            let start = (next() as usize) % (w * 4);
                            let len = (next() as usize) % 200;
                            for b in row.iter_mut().skip(start).take(len) {
                                *b = b.wrapping_add(next() as u8 % 3);
                            }
                        }
                        _ => row.iter_mut().for_each(|b| *b = next() as u8),
                    }
                    if opaque {
                        row.iter_mut().skip(3).step_by(4).for_each(|a| *a = 255);
                    }
                    data.extend_from_slice(&row);
                }
                let bmp = Bitmap {
                    width: w as u32,
                    height: h as u32,
                    data,
                };
                for mode in MODES {
                    let bytes = encode_png(&bmp, mode).unwrap();
                    let (_, _, color, _) = decode_png_raw(bytes.clone());
                    let want = if opaque {
                        png::ColorType::Rgb
                    } else {
                        png::ColorType::Rgba
                    };
                    assert_eq!(color, want, "{w}x{h} {mode:?}");
                    assert!(
                        decode_png(bytes).2 == bmp.data,
                        "{w}x{h} opaque {opaque} {mode:?}: pixels differ"
                    );
                }
            }
        }
    }

    #[test]
    fn pack_rgb_drops_alpha_at_every_width() {
        for n in 0..=9usize {
            let rgba: Vec<u8> = (0..n * 4).map(|i| i as u8).collect();
            let mut rgb = vec![0xEE; n * 3];
            pack_rgb(&rgba, &mut rgb);
            let expected: Vec<u8> = (0..n * 4).filter(|i| i % 4 != 3).map(|i| i as u8).collect();
            assert_eq!(rgb, expected, "{n} pixels");
        }
    }
}
