//! A PNG encoded band by band: each band of rows filtered and deflated as one part of the
//! zlib stream, on the thread that drew it, as soon as it is drawn.
//!
//! When the skia engine draws a bitmap in two bands (`raster/split.rs`: the top one here,
//! the bottom one on a lent core, in a bitmap of its own), each thread goes on from its
//! band to that band's half of the PNG: no copy of the bottom band's rows into one bitmap,
//! no second ask for a core, no sample of the rows to choose where the encoder splits (the
//! drawing's split row is the encoder's). The halves are joined as [`super::png`] joins its
//! own two (the first ends with an empty stored block, the second's matches reach back no
//! further than its own first row, the Adler-32s combined).
//!
//! Each band comes with the row above it (the bottom band's painter draws that row too,
//! the same pixels as the top band's), so every row is `Up`-filtered against the row
//! above as in the whole bitmap's encode: the filtered rows are the same bytes, and only
//! where the stream is cut in two differs.
//!
//! The bytes depend on the pixels and the split row alone, never on whether the bands
//! were drawn on one thread or two: the engine splits the encode at the row its scene
//! says ([`Half`]s encoded one after the other on one thread when no core is lent).

use super::png::{fitted, opaque, png_end, png_start, Rows};
use super::{deflate, PngCompression};
use std::ops::Range;
use std::sync::atomic::AtomicBool;

/// One band's part of a PNG file: the signature, the first chunks and the zlib header
/// before the top band's deflate blocks.
pub(crate) struct Half {
    part: deflate::Part,
    /// The rows it holds.
    rows: Range<u32>,
    /// The image's size.
    size: (u32, u32),
    /// Bytes per pixel written (3: RGB, 4: RGBA).
    bpp: usize,
    /// A translucent pixel turned up while its rows were written as RGB: the part is
    /// wrong (see [`join`]).
    translucent: bool,
}

/// How a band is deflated: our encoder's effort, `None` for a mode that is not encoded in
/// bands (`Small`: zlib-rs deflates the whole image on one thread).
pub(crate) fn effort(compression: PngCompression) -> Option<deflate::Effort> {
    match compression {
        PngCompression::Fast => Some(deflate::Effort::Fast),
        PngCompression::Default => Some(deflate::Effort::Default),
        PngCompression::Small => None,
    }
}

/// Filters and deflates rows `rows` of a `size` image, given as straight-alpha RGBA
/// `pixels` of rows `rows.start - 1` (the row above the band; none for the top band) to
/// `rows.end`, into that band's part of the file. `opaque`: every pixel of the image is
/// opaque (its background is), so it is written as RGB (should a translucent pixel turn up
/// all the same, [`join`] says so); otherwise as RGBA.
///
/// The part written is the same whichever thread writes it and whenever: the bands can be
/// encoded at the same time.
pub(crate) fn half(
    size: (u32, u32),
    rows: Range<u32>,
    pixels: &[u8],
    opaque_image: bool,
    effort: deflate::Effort,
) -> Half {
    let (width, height) = (size.0 as usize, size.1 as usize);
    let bpp = if opaque_image { 3 } else { 4 };
    let first = rows.start.saturating_sub(1);
    let band = Rows {
        data: pixels,
        width,
        height: (rows.end - first) as usize,
        bpp,
        translucent: AtomicBool::new(false),
    };
    let within = (rows.start - first) as usize..(rows.end - first) as usize;
    // Room for the stream as the whole image's encode makes (a thirty-second of the
    // bitmap), for the top band's buffer: the bottom one's is copied after it.
    let capacity = width * height * 4 / 32;
    let last = rows.end as usize == height;
    let mut d = match rows.start {
        0 => deflate::Deflater::new(effort, png_start(size, bpp, capacity)),
        _ => deflate::Deflater::continuation(effort, capacity / 2),
    };
    // Infallible: the deflater takes every byte.
    let _ = band.filter(within, &mut d);
    // The first row's pixels that equal the zeros "above" it (transparent black) are not
    // read by the filter: read here, as the whole image's encode does.
    let top_translucent = rows.start == 0 && bpp == 3 && !opaque(&pixels[..width * 4]);
    Half {
        part: d.finish_part(last),
        rows,
        size,
        bpp,
        translucent: band.translucent.into_inner() || top_translucent,
    }
}

/// The PNG file of the two halves of an image, `top` then `bottom`; `None` when they are
/// not the image's two bands, in order, written alike, or when a translucent pixel turned
/// up in rows written as RGB: then the image is encoded whole instead.
pub(crate) fn join(top: Half, bottom: Half) -> Option<Vec<u8>> {
    let fits = top.rows.start == 0
        && top.rows.end == bottom.rows.start
        && bottom.rows.end == top.size.1
        && top.size == bottom.size
        && top.bpp == bottom.bpp
        && !(top.translucent || bottom.translucent);
    fits.then(|| fitted(png_end(top.part.join(bottom.part).into_stream())))
}

#[cfg(test)]
mod tests {
    use super::super::deflate::tests::{inflate, Noise};
    use super::super::png::tests::decode_png;
    use super::*;
    use crate::cores::Lent;
    use chart_spec::Bitmap;

    /// A chart-like image: rows made from the row above with a few pixels or a stretch
    /// changed, some repeated whole, now and then a new one; opaque or not.
    fn image(noise: &mut Noise, (w, h): (usize, usize), opaque: bool) -> Bitmap {
        let mut data = Vec::with_capacity(w * h * 4);
        let mut row: Vec<u8> = (0..w * 4).map(|_| noise.next() as u8).collect();
        for _ in 0..h {
            match noise.next() % 5 {
                0 | 1 => {}
                2 => {
                    let at = (noise.next() as usize) % (w * 4);
                    row[at] = noise.next() as u8;
                }
                3 => {
                    let start = (noise.next() as usize) % (w * 4);
                    let len = (noise.next() as usize) % 300;
                    for b in row.iter_mut().skip(start).take(len) {
                        *b = b.wrapping_add(noise.next() as u8 % 3);
                    }
                }
                _ => row.iter_mut().for_each(|b| *b = noise.next() as u8),
            }
            if opaque {
                row.iter_mut().skip(3).step_by(4).for_each(|a| *a = 255);
            }
            data.extend_from_slice(&row);
        }
        Bitmap {
            width: w as u32,
            height: h as u32,
            data,
        }
    }

    /// The file of `bmp` encoded in two bands split at row `s`: the bottom band on the
    /// `second` thread while the top one is encoded here, or after it.
    fn in_bands(
        bmp: &Bitmap,
        s: u32,
        effort: deflate::Effort,
        second: Option<&Lent>,
    ) -> Option<Vec<u8>> {
        let size = (bmp.width, bmp.height);
        let opaque = super::opaque(&bmp.data);
        let line = bmp.width as usize * 4;
        let top = || half(size, 0..s, &bmp.data[..s as usize * line], opaque, effort);
        let bottom = || {
            let pixels = &bmp.data[(s as usize - 1) * line..];
            half(size, s..bmp.height, pixels, opaque, effort)
        };
        match second {
            None => join(top(), bottom()),
            Some(second) => {
                let (bottom, top) = second.join(bottom, top);
                join(top, bottom.ok()?)
            }
        }
    }

    /// Random images split at random rows and at the ends: the file decodes to the image's
    /// pixels, its filtered rows are the whole image's encode's, and the bytes are the
    /// same whether the bands were encoded on one thread or two.
    #[test]
    fn bands_encode_the_image_on_one_thread_or_two_alike() {
        let mut noise = Noise(0x2545_F491_4F6C_DD1D);
        for (w, h) in [
            (1usize, 2usize),
            (17, 40),
            (300, 257),
            (700, 400),
            (33_000, 3),
        ] {
            for opaque in [true, false] {
                let bmp = image(&mut noise, (w, h), opaque);
                let whole = crate::encode::encode_png(&bmp, PngCompression::Default).unwrap();
                let mut splits = vec![1, h as u32 - 1];
                splits.extend((0..3).map(|_| 1 + (noise.next() % (h as u64 - 1)) as u32));
                for s in splits {
                    for effort in [deflate::Effort::Fast, deflate::Effort::Default] {
                        let what = format!("{w}x{h} opaque {opaque} split at {s} {effort:?}");
                        let one = in_bands(&bmp, s, effort, None).expect(&what);
                        let two = in_bands(&bmp, s, effort, Lent::forced().as_ref());
                        assert!(two.as_ref() == Some(&one), "{what}: bytes differ");
                        let (dw, dh, pixels) = decode_png(one.clone());
                        assert_eq!((dw, dh), (w as u32, h as u32), "{what}");
                        assert!(pixels == bmp.data, "{what}: pixels differ");
                        // The same filtered rows as the whole image's stream.
                        assert!(
                            inflate(idat(&one)) == inflate(idat(&whole)),
                            "{what}: filtered rows differ"
                        );
                    }
                }
            }
        }
    }

    /// The zlib stream of a PNG file of one IDAT chunk.
    fn idat(file: &[u8]) -> &[u8] {
        let at = file
            .windows(4)
            .position(|w| w == b"IDAT")
            .expect("an IDAT chunk");
        let len = u32::from_be_bytes(file[at - 4..at].try_into().unwrap()) as usize;
        &file[at + 4..at + 4 + len]
    }

    /// Said opaque, an image with a translucent pixel in either band is not joined (the
    /// caller encodes it whole); nor are halves that are not one image's two bands.
    #[test]
    fn halves_that_do_not_make_the_image_are_not_joined() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        let bmp = image(&mut noise, (64, 300), true);
        let (size, line) = ((64, 300), 64 * 4);
        let effort = deflate::Effort::Default;
        let bands = |data: &[u8], s: u32| {
            let top = half(size, 0..s, &data[..s as usize * line], true, effort);
            let bottom = half(size, s..300, &data[(s as usize - 1) * line..], true, effort);
            (top, bottom)
        };
        for (y, x) in [(0, 0), (20, 7), (100, 3), (101, 63), (299, 10)] {
            let mut data = bmp.data.clone();
            data[(y * 64 + x) * 4 + 3] = 200;
            let (top, bottom) = bands(&data, 101);
            assert!(
                join(top, bottom).is_none(),
                "translucent pixel at ({x}, {y})"
            );
        }
        let (top, bottom) = bands(&bmp.data, 101);
        assert!(join(top, bottom).is_some());
        let (top, bottom) = bands(&bmp.data, 101);
        assert!(join(bottom, top).is_none(), "the bands swapped");
        let top = half(size, 0..100, &bmp.data[..100 * line], true, effort);
        let (_, bottom) = bands(&bmp.data, 101);
        assert!(join(top, bottom).is_none(), "a row left out");
    }
}
