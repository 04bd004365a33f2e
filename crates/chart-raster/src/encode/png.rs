//! PNG files: which rows repeat, the `Up` filter, RGB packing, and the zlib stream of the
//! filtered rows (our deflate, or zlib-rs for `Small`).

use super::{deflate, EncodeError, PngCompression};
use crate::cores::{second_core, Busy, Lent};
use chart_spec::Bitmap;
use std::io::Write;
use std::ops::Range;

/// Whether every pixel of `data` (whole RGBA pixels) is opaque: by spans of 16 pixels
/// ([`opaque_span`]), then pixel by pixel.
fn opaque(data: &[u8]) -> bool {
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

/// What [`scan_rows`] finds: which rows and spans repeat the ones above, and whether the
/// image is opaque.
struct Scan {
    /// Per row, whether it repeats the row above byte for byte (its `Up` row is all zeros).
    repeats: Vec<bool>,
    /// Per row that differs from the row above, [`Scan::span_words`] words with a bit set
    /// for each whole span of 16 pixels equal to the span above (the first row's, and the
    /// bits of repeated rows, are unset).
    same_spans: Vec<u64>,
    span_words: usize,
    /// Whether every pixel is opaque.
    opaque: bool,
}

impl Scan {
    /// The scan of these rows then of the rows below them, scanned apart
    /// ([`scan_some_rows`]).
    fn append(&mut self, below: Scan) {
        self.repeats.extend_from_slice(&below.repeats);
        self.same_spans.extend_from_slice(&below.same_spans);
        self.opaque &= below.opaque;
    }
}

/// For each row, whether it repeats the row above byte for byte, and for a row that does
/// not, which of its spans of 16 pixels do (a curve or an arc crosses a row in a few
/// places: on the line chart 95% of the rows differ from the row above, most of their
/// spans do not); and whether every pixel is opaque, so the image can be written as RGB
/// (exactly: PNG's RGB decodes with alpha 255; charts on the default white background
/// always are, which drops a quarter of the bytes to deflate). A repeated row or span has
/// the alpha of the one above, so only the spans that differ are scanned for it. On the
/// benchmark's bar charts 70–77% of the rows repeat (backgrounds, bar bodies between grid
/// lines); on curves and arcs 5–20%.
///
/// The spans are compared here once, word by word (a `memcmp` call per span cost more
/// than the compare), and the filter ([`up_rgb`]) reads the bits.
fn scan_rows(data: &[u8], row_bytes: usize) -> Scan {
    scan_some_rows(data, row_bytes, 0..data.len() / row_bytes)
}

/// [`scan_rows`] in two halves at the same time, the lower one on the `second` thread,
/// joined: the same [`Scan`]. The scan reads every byte of the bitmap, most of it twice
/// (each row and the row above): on the line chart about a sixth of the encoder's time,
/// which one thread did before the deflate's halves could start.
fn scan_rows_on(data: &[u8], row_bytes: usize, second: Option<&Lent>) -> Scan {
    let height = data.len() / row_bytes;
    let Some(second) = second.filter(|_| height >= 2) else {
        return scan_rows(data, row_bytes);
    };
    let mid = height / 2;
    let (lower, mut upper) = second.join(
        || scan_some_rows(data, row_bytes, mid..height),
        || scan_some_rows(data, row_bytes, 0..mid),
    );
    // A panic there (none is known) is one here: the lower half again on this thread.
    let lower = lower.unwrap_or_else(|_| scan_some_rows(data, row_bytes, mid..height));
    upper.append(lower);
    upper
}

/// [`scan_rows`] of the rows `range` only: the first one is compared with the row above it
/// (none for row 0).
fn scan_some_rows(data: &[u8], row_bytes: usize, range: Range<usize>) -> Scan {
    let span_words = (row_bytes / SPAN).div_ceil(64).max(1);
    let mut scan = Scan {
        repeats: Vec::with_capacity(range.len()),
        same_spans: vec![0; range.len() * span_words],
        span_words,
        opaque: true,
    };
    let mut above: Option<&[u8]> = range
        .start
        .checked_sub(1)
        .and_then(|up| data.get(up * row_bytes..range.start * row_bytes));
    let lines = data
        .get(range.start * row_bytes..range.end * row_bytes)
        .unwrap_or_default()
        .chunks_exact(row_bytes);
    for (line, bits) in lines.zip(scan.same_spans.chunks_exact_mut(span_words)) {
        let Some(up) = above.replace(line) else {
            scan.repeats.push(false);
            scan.opaque = opaque(line);
            continue;
        };
        let same = up == line;
        scan.repeats.push(same);
        if same {
            continue;
        }
        let (spans, tail) = line.as_chunks::<SPAN>();
        let spans_up = up.as_chunks::<SPAN>().0;
        for ((spans, spans_up), bits) in spans.chunks(64).zip(spans_up.chunks(64)).zip(bits) {
            let mut word = 0;
            for (i, (span, span_up)) in spans.iter().zip(spans_up).enumerate() {
                if equal_spans(span, span_up) {
                    word |= 1 << i;
                } else if scan.opaque {
                    scan.opaque = opaque_span(span);
                }
            }
            *bits = word;
        }
        scan.opaque = scan.opaque && opaque(tail);
    }
    scan
}

/// Whether two spans are equal: their bytes' differences folded with OR, which the
/// compiler turns into a few vector instructions (no call, no branch per word).
#[inline(always)]
fn equal_spans(a: &[u8; SPAN], b: &[u8; SPAN]) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub(super) fn encode(bitmap: &Bitmap, compression: PngCompression) -> Result<Vec<u8>, EncodeError> {
    let err = |reason: String| EncodeError::Encoder {
        format: "png",
        reason,
    };
    let png_err = |e: png::EncodingError| err(e.to_string());
    let io_err = |e: std::io::Error| err(e.to_string());
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
    // The second thread, when one is lent, for the scan and then the deflate's halves.
    let _busy = Busy::enter();
    let second = (bitmap.data.len() / 4 >= SPLIT_MIN_PIXELS)
        .then(second_core)
        .flatten();
    let scan = scan_rows_on(&bitmap.data, width * 4, second.as_ref());
    let repeats = &scan.repeats;
    let (color, bpp) = if scan.opaque {
        (png::ColorType::Rgb, 3)
    } else {
        (png::ColorType::Rgba, 4)
    };
    let rows = Rows {
        data: &bitmap.data,
        width,
        bpp,
        repeats,
        same_spans: &scan.same_spans,
        span_words: scan.span_words,
    };
    let capacity = bitmap.data.len() / 32;
    let idat = match compression {
        PngCompression::Fast => own_deflate(&rows, deflate::Effort::Fast, capacity, second)?,
        PngCompression::Default => own_deflate(&rows, deflate::Effort::Default, capacity, second)?,
        PngCompression::Small => {
            // zlib-rs deflates on this thread alone.
            drop(second);
            let mut z = Zlib {
                z: flate2::write::ZlibEncoder::new(
                    Vec::with_capacity(capacity),
                    flate2::Compression::new(6),
                ),
                row: Vec::new(),
            };
            rows.filter(0..repeats.len(), &mut z).map_err(io_err)?;
            z.z.finish().map_err(io_err)?
        }
    };

    let mut out = Vec::with_capacity(idat.len() + 64);
    let mut enc = png::Encoder::new(&mut out, bitmap.width, bitmap.height);
    enc.set_color(color);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(png_err)?;
    // IDAT chunks hold at most 2^31 - 1 bytes.
    for part in idat.chunks(1 << 30) {
        writer
            .write_chunk(png::chunk::IDAT, part)
            .map_err(png_err)?;
    }
    writer.finish().map_err(png_err)?;
    Ok(out)
}

/// The rows of a bitmap as PNG writes them.
struct Rows<'a> {
    /// RGBA pixels, straight alpha.
    data: &'a [u8],
    width: usize,
    /// Bytes per pixel written: 3 (RGB) or 4 (RGBA).
    bpp: usize,
    /// Per row, whether it repeats the row above ([`scan_rows`]).
    repeats: &'a [bool],
    /// Per row, `span_words` words of bits: the spans equal to the span above
    /// ([`Scan::same_spans`]).
    same_spans: &'a [u64],
    span_words: usize,
}

impl Rows<'_> {
    /// Rows `range`, each as its filter byte and `Up`-filtered pixels, into `sink`.
    ///
    /// One row at a time: a whole filtered copy would be as large as the bitmap. `Up` is
    /// taken on the RGBA rows (`up_rgb`, by spans of 16 pixels), then packed to RGB: the
    /// filter works byte by byte, so the RGB of the RGBA difference is the difference of
    /// the RGBs. The first row's "row above" is zeros, as the PNG spec defines it. A
    /// repeated row is written as the all-zero `Up` row without being read again.
    fn filter(&self, range: Range<usize>, sink: &mut impl Sink) -> std::io::Result<()> {
        let line_bytes = self.width * 4;
        let stride = self.width * self.bpp;
        let zeros = vec![0u8; line_bytes];
        let mut prev: &[u8] = match range.start.checked_sub(1) {
            Some(above) => &self.data[above * line_bytes..range.start * line_bytes],
            None => &zeros,
        };
        let words = self.span_words;
        let lines =
            self.data[range.start * line_bytes..range.end * line_bytes].chunks_exact(line_bytes);
        let spans = self.same_spans[range.start * words..].chunks_exact(words);
        for ((line, &same), same_spans) in lines.zip(&self.repeats[range]).zip(spans) {
            if same {
                sink.write(&[2])?;
                sink.write_zeros(stride)?;
                continue;
            }
            sink.write_with(stride + 1, |row| {
                row[0] = 2; // filter type Up
                if self.bpp == 4 {
                    for ((d, c), up) in row[1..].iter_mut().zip(line).zip(prev) {
                        *d = c.wrapping_sub(*up);
                    }
                } else {
                    up_rgb(line, prev, same_spans, &mut row[1..]);
                }
            })?;
            prev = line;
        }
        Ok(())
    }
}

/// Where the filtered rows go: our deflate encoder, or zlib-rs at level 6 (`Small`).
trait Sink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<()>;
    /// `n` zero bytes.
    fn write_zeros(&mut self, n: usize) -> std::io::Result<()>;
    /// `n` bytes that `fill` writes.
    fn write_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) -> std::io::Result<()>;
}

impl Sink for deflate::Deflater {
    fn write(&mut self, data: &[u8]) -> std::io::Result<()> {
        deflate::Deflater::write(self, data);
        Ok(())
    }

    fn write_zeros(&mut self, n: usize) -> std::io::Result<()> {
        deflate::Deflater::write_zeros(self, n);
        Ok(())
    }

    fn write_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) -> std::io::Result<()> {
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
    fn write(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.z.write_all(data)
    }

    fn write_zeros(&mut self, mut n: usize) -> std::io::Result<()> {
        const ZEROS: [u8; 4096] = [0; 4096];
        while n > 0 {
            let k = n.min(ZEROS.len());
            self.z.write_all(&ZEROS[..k])?;
            n -= k;
        }
        Ok(())
    }

    fn write_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) -> std::io::Result<()> {
        self.row.resize(n, 0);
        fill(&mut self.row);
        self.z.write_all(&self.row)
    }
}

/// The zlib stream of the rows with our deflate encoder. An image of at least
/// [`SPLIT_MIN_PIXELS`] is deflated as two halves joined into one stream ([`split_row`]),
/// always, so that the same pixels give the same bytes whatever the machine is doing; the
/// second half runs on the `second` thread at the same time when [`second_core`] lent one
/// (an idle core), else after the first on this thread.
fn own_deflate(
    rows: &Rows,
    effort: deflate::Effort,
    capacity: usize,
    second: Option<Lent>,
) -> Result<Vec<u8>, EncodeError> {
    match split_row(rows) {
        Some(mid) => in_two(rows, effort, capacity, mid, second),
        None => Ok(in_one(rows, effort, capacity)),
    }
}

fn in_one(rows: &Rows, effort: deflate::Effort, capacity: usize) -> Vec<u8> {
    let mut d = deflate::Deflater::new(effort, capacity);
    // Infallible: the deflater takes every byte.
    let _ = rows.filter(0..rows.repeats.len(), &mut d);
    d.finish()
}

/// Rows `..mid` and rows `mid..` deflated as two parts joined into one stream (the second
/// half's matches start from its own first row): at the same time on the `second` thread
/// when one is lent, one after the other here otherwise. The bytes are the same.
fn in_two(
    rows: &Rows,
    effort: deflate::Effort,
    capacity: usize,
    mid: usize,
    second: Option<Lent>,
) -> Result<Vec<u8>, EncodeError> {
    let height = rows.repeats.len();
    let head = || {
        let mut d = deflate::Deflater::new(effort, capacity / 2);
        let _ = rows.filter(0..mid, &mut d);
        d.finish_part(false)
    };
    let tail = || {
        let mut d = deflate::Deflater::continuation(effort, capacity / 2);
        let _ = rows.filter(mid..height, &mut d);
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
/// than [`SPLIT_MIN_PIXELS`]). It depends on the pixels alone. The halves hold as many
/// rows that differ from the row above each (repeated rows cost next to nothing).
fn split_row(rows: &Rows) -> Option<usize> {
    if rows.data.len() / 4 < SPLIT_MIN_PIXELS {
        return None;
    }
    let differing = rows.repeats.iter().filter(|&&same| !same).count();
    let mut seen = 0;
    let mid = rows.repeats.iter().position(|&same| {
        seen += usize::from(!same);
        seen > differing / 2
    });
    mid.filter(|&mid| mid > 0)
}

/// The `Up` filter of an RGBA row against the row above, packed to RGB into `out`. The
/// spans of 16 pixels whose bit is set in `same_spans` (equal to the span above:
/// [`scan_rows`]) are written as zeros without being read.
fn up_rgb(line: &[u8], above: &[u8], same_spans: &[u64], out: &mut [u8]) {
    let (spans, tail) = line.as_chunks::<SPAN>();
    let (spans_above, tail_above) = above.as_chunks::<SPAN>();
    let (outs, out_tail) = out.as_chunks_mut::<48>();
    let groups = spans
        .chunks(64)
        .zip(spans_above.chunks(64))
        .zip(outs.chunks_mut(64));
    for (((spans, spans_above), outs), &same) in groups.zip(same_spans) {
        let mut same = same;
        for ((span, span_above), o) in spans.iter().zip(spans_above).zip(outs) {
            if same & 1 != 0 {
                *o = [0; 48];
            } else {
                up_span(span, span_above, o);
            }
            same >>= 1;
        }
    }
    // Under 16 pixels left.
    let mut d = [0u8; SPAN];
    let d = &mut d[..tail.len()];
    for ((d, c), up) in d.iter_mut().zip(tail).zip(tail_above) {
        *d = c.wrapping_sub(*up);
    }
    pack_rgb(d, out_tail);
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
pub(super) mod tests {
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
    fn decode_png(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
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

    fn decode_png_raw(bytes: Vec<u8>) -> (u32, u32, png::ColorType, Vec<u8>) {
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
    fn a_scan_in_two_halves_is_the_scan_in_one() {
        // Opaque and translucent images of chart-like rows (repeated rows, spans changed),
        // an odd and an even number of rows, on the lent thread and split at every row.
        let lent = crate::cores::Lent::forced().expect("a worker thread");
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        let mut next = move || noise.next();
        for (width, height, translucent_at) in [(40, 7, None), (70, 12, Some(5)), (16, 1, None)] {
            let row_bytes = width * 4;
            let mut data = vec![0xFF; row_bytes * height];
            for y in 1..height {
                let (above, line) = data.split_at_mut(y * row_bytes);
                line[..row_bytes].copy_from_slice(&above[(y - 1) * row_bytes..]);
                if next() % 3 != 0 {
                    let at = (next() as usize % row_bytes) & !3;
                    line[at] = next() as u8;
                }
            }
            if let Some(y) = translucent_at {
                data[y * row_bytes + 3] = 0x80;
            }
            let whole = scan_rows(&data, row_bytes);
            let check = |scan: Scan, how: &str| {
                assert_eq!(
                    scan.repeats, whole.repeats,
                    "{width}×{height} {how}: repeats"
                );
                assert_eq!(
                    scan.same_spans, whole.same_spans,
                    "{width}×{height} {how}: spans"
                );
                assert_eq!(scan.opaque, whole.opaque, "{width}×{height} {how}: opaque");
            };
            check(
                scan_rows_on(&data, row_bytes, Some(&lent)),
                "on two threads",
            );
            for mid in 0..=height {
                let mut upper = scan_some_rows(&data, row_bytes, 0..mid);
                upper.append(scan_some_rows(&data, row_bytes, mid..height));
                check(upper, &format!("split at {mid}"));
            }
        }
    }

    #[test]
    fn an_image_split_at_any_row_inflates_to_the_same_rows() {
        // Opaque (RGB) and transparent (RGBA); the split at the first rows, a repeated row,
        // a row that differs, the middle and the last row.
        for background in [chart_spec::Rgba::WHITE, chart_spec::Rgba::TRANSPARENT] {
            let bmp = rendered_bar_chart(background);
            let width = bmp.width as usize;
            let scan = scan_rows(&bmp.data, width * 4);
            let repeats = &scan.repeats;
            let rows = Rows {
                data: &bmp.data,
                width,
                bpp: if scan.opaque { 3 } else { 4 },
                repeats,
                same_spans: &scan.same_spans,
                span_words: scan.span_words,
            };
            let h = repeats.len();
            let repeated = repeats.iter().rposition(|&r| r).unwrap();
            let differing = repeats.iter().rposition(|&r| !r).unwrap();
            for effort in [deflate::Effort::Fast, deflate::Effort::Default] {
                let whole = inflate(&in_one(&rows, effort, 0));
                assert_eq!(whole.len(), h * (1 + width * rows.bpp));
                for mid in [1, 2, repeated, differing, h / 2, h - 1] {
                    let split = in_two(&rows, effort, 0, mid, None).unwrap();
                    assert!(
                        inflate(&split) == whole,
                        "{effort:?}, {background:?}, split at row {mid} of {h}"
                    );
                    // On a second thread or after the first half here: the same bytes, so
                    // the same pixels give the same PNG whatever the machine is doing.
                    let threaded = in_two(&rows, effort, 0, mid, Lent::forced());
                    assert!(
                        threaded.unwrap() == split,
                        "{effort:?}, {background:?}, split at row {mid} of {h}: bytes differ"
                    );
                }
            }
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
        // row above and some differ in one byte only.
        for n in 0..=40usize {
            for changed in [None, Some(0), Some(17 * 4 + 2), Some(n * 4)] {
                let above: Vec<u8> = (0..n * 4).map(|i| (i * 7 + 3) as u8).collect();
                let mut line = above.clone();
                if let Some(at) = changed.filter(|&at| at < line.len()) {
                    line[at] = line[at].wrapping_add(200);
                }
                let mut out = vec![0xEE; n * 3];
                let two_rows = [&above[..], &line[..]].concat();
                let scan = scan_rows(&two_rows, (n * 4).max(4));
                let same_spans = scan.same_spans.get(scan.span_words..).unwrap_or(&[0]);
                // The bits say which spans are equal; `up_rgb` trusts them. (A row that
                // repeats the row above has no bits: it is never filtered.)
                let equal = (0..n / 16)
                    .filter(|&i| line[64 * i..64 * i + 64] == above[64 * i..64 * i + 64]);
                if changed.is_some_and(|at| at < n * 4) {
                    assert_eq!(
                        equal.map(|i| 1u64 << i).sum::<u64>(),
                        same_spans[0],
                        "{n} pixels, changed {changed:?}"
                    );
                }
                up_rgb(&line, &above, same_spans, &mut out);
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
        // a word of bits, opaque and translucent; over SPLIT_MIN_PIXELS too.
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
