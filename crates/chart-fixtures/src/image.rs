//! PNG reading and writing, and the side-by-side strip of a failure report.

use crate::{Error, Result};
use chart_raster_skia::text::sprite::decode_png;
use chart_spec::Bitmap;
use std::path::Path;

/// Reads any 8-bit PNG as straight RGBA8 (the sprite font's decoder).
pub fn read_png(path: &Path) -> Result<Bitmap> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let (data, width, height) = decode_png(&bytes).map_err(|source| Error::PngDecode {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Bitmap {
        width,
        height,
        data,
    })
}

/// Writes an RGBA8 PNG at png's fast compression (these are inspection images, not output).
pub fn write_png(path: &Path, bitmap: &Bitmap) -> Result<()> {
    let encode = |source| Error::PngEncode {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), bitmap.width, bitmap.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    enc.write_header()
        .map_err(encode)?
        .write_image_data(&bitmap.data)
        .map_err(encode)
}

/// The images left to right, top-aligned, on a transparent strip (resvg's harness shows a
/// failing reference test the same way).
pub fn side_by_side(images: &[&Bitmap]) -> Bitmap {
    let width = images.iter().map(|b| b.width).sum();
    let height = images.iter().map(|b| b.height).max().unwrap_or(0);
    let mut out = Bitmap::new(width, height);
    let mut x0 = 0usize;
    for img in images {
        let row_bytes = img.width as usize * 4;
        for y in 0..img.height as usize {
            let (Some(src), Some(dst)) = (
                img.data.get(y * row_bytes..(y + 1) * row_bytes),
                out.data.get_mut(
                    (y * width as usize + x0) * 4..(y * width as usize + x0) * 4 + row_bytes,
                ),
            ) else {
                break;
            };
            dst.copy_from_slice(src);
        }
        x0 += img.width as usize;
    }
    out
}

/// The bitmap composited over opaque white, the way pixelmatch sees it: fixture canvases start
/// transparent, and a transparent strip reads badly in most image viewers.
pub fn over_white(bitmap: &Bitmap) -> Bitmap {
    let data = bitmap
        .data
        .chunks_exact(4)
        .flat_map(|p| {
            let a = u16::from(p[3]);
            let blend = |c: u8| ((u16::from(c) * a + 255 * (255 - a) + 127) / 255) as u8;
            [blend(p[0]), blend(p[1]), blend(p[2]), 255]
        })
        .collect();
    Bitmap {
        width: bitmap.width,
        height: bitmap.height,
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_places_images_left_to_right() {
        let mut a = Bitmap::new(1, 2);
        a.data.copy_from_slice(&[1, 1, 1, 255, 2, 2, 2, 255]);
        let mut b = Bitmap::new(2, 1);
        b.data.copy_from_slice(&[3, 3, 3, 255, 4, 4, 4, 255]);
        let s = side_by_side(&[&a, &b]);
        assert_eq!((s.width, s.height), (3, 2));
        assert_eq!(&s.data[..12], &[1, 1, 1, 255, 3, 3, 3, 255, 4, 4, 4, 255]);
        assert_eq!(&s.data[12..16], &[2, 2, 2, 255]);
        assert_eq!(&s.data[16..], &[0; 8]);
    }

    #[test]
    fn over_white_blends_by_alpha() {
        let b = Bitmap {
            width: 3,
            height: 1,
            data: vec![0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 128],
        };
        assert_eq!(
            over_white(&b).data,
            vec![255, 255, 255, 255, 0, 0, 0, 255, 127, 127, 127, 255]
        );
    }
}
