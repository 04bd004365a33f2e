//! The Chart.js test harness's bitmap font (fixtures README, "Sprite text").
//!
//! The harness replaces `measureText` and `fillText` with a sprite: widths come from a table
//! whatever the font, and `fillText` copies cells of `characters.png`. This backend exists only
//! so the fixtures can be compared; it is never part of the service.

use std::path::Path;

/// Why the sprite could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SpriteError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// `characters.png` is not a PNG we can decode.
    #[error("cannot decode the sprite image: {0}")]
    Png(#[from] png::DecodingError),
    /// `sprite.json` lacks a field or has a wrong type.
    #[error("bad sprite.json: {0}")]
    Json(String),
}

/// The harness's sprite font.
#[derive(Debug, Clone)]
pub struct SpriteFont {
    /// Advance of each character from `first_char_code`.
    pub widths: Vec<f32>,
    /// Code of `widths[0]` (32).
    pub first_char_code: u32,
    /// Cell size in the image.
    pub cell_width: u32,
    /// Cell size in the image.
    pub cell_height: u32,
    /// Height of a drawn cell (16).
    pub font_height: u32,
    /// Image width in pixels.
    pub image_width: u32,
    /// Image height in pixels.
    pub image_height: u32,
    /// Image pixels, straight-alpha RGBA8.
    pub image: Vec<u8>,
}

/// The text of `key`'s value in `sprite.json`, a flat object of numbers and one array of
/// numbers (the harness's fixed file, so no general JSON reader: the engine has none).
fn field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let quoted = format!("\"{key}\"");
    let at = json.find(&quoted)? + quoted.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = if rest.starts_with('[') {
        rest.find(']')? + 1
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim())
}

/// One character cell to copy: source rectangle in the image, destination x offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpriteCell {
    /// Source x in the image.
    pub sx: u32,
    /// Source y in the image.
    pub sy: u32,
    /// Width of the cell (the character's width).
    pub width: u32,
    /// Destination x relative to the start of the string.
    pub dx: f32,
}

impl SpriteFont {
    /// Loads `sprite.json` and `characters.png` from a folder.
    pub fn load(dir: &Path) -> Result<Self, SpriteError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|source| SpriteError::Read {
                path: path.display().to_string(),
                source,
            })
        };
        let bytes = read("sprite.json")?;
        let json = std::str::from_utf8(&bytes)
            .map_err(|e| SpriteError::Json(format!("not UTF-8: {e}")))?;
        let num = |key: &str| {
            field(json, key)
                .and_then(|v| v.parse::<u64>().ok())
                .map(|v| v as u32)
                .ok_or_else(|| SpriteError::Json(format!("missing number `{key}`")))
        };
        let widths: Vec<f32> = field(json, "widths")
            .and_then(|w| w.strip_prefix('[')?.strip_suffix(']'))
            .ok_or_else(|| SpriteError::Json("missing array `widths`".into()))?
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| v.parse::<f64>().unwrap_or(0.0) as f32)
            .collect();
        if widths.is_empty() {
            return Err(SpriteError::Json("empty `widths`".into()));
        }
        let (image, image_width, image_height) = decode_png(&read("characters.png")?)?;
        Ok(SpriteFont {
            widths,
            first_char_code: num("firstCharCode")?,
            cell_width: num("cellWidth")?,
            cell_height: num("cellHeight")?,
            font_height: num("fontHeight")?,
            image_width,
            image_height,
            image,
        })
    }

    fn index(&self, unit: u16) -> usize {
        // The harness clamps the index to the last entry (223).
        (u32::from(unit).saturating_sub(self.first_char_code) as usize).min(self.widths.len() - 1)
    }

    /// `measureText(s).width`: the table widths of the UTF-16 code units.
    pub fn measure(&self, text: &str) -> f32 {
        text.encode_utf16()
            .map(|u| self.widths[self.index(u)])
            .sum()
    }

    /// The cells `fillText` copies, left to right from x = 0.
    pub fn cells(&self, text: &str) -> Vec<SpriteCell> {
        let mut dx = 0.0;
        let mut out = Vec::new();
        for unit in text.encode_utf16() {
            let w = self.widths[self.index(unit)];
            // The cell position uses `code - 32` without the clamp of the widths table.
            let i = u32::from(unit).saturating_sub(32);
            let col = (i % 15).min(14);
            let row = (i / 15).min(14);
            out.push(SpriteCell {
                sx: col * self.cell_width,
                sy: row * self.cell_height,
                width: w as u32,
                dx,
            });
            dx += w;
        }
        out
    }
}

/// Decodes any 8-bit PNG to straight RGBA8: (pixels, width, height). Public for the
/// image-fixture harness (`chart-fixtures`), which reads the reference images the same way.
pub fn decode_png(bytes: &[u8]) -> Result<(Vec<u8>, u32, u32), png::DecodingError> {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let (w, h) = (info.width, info.height);
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        _ => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
    };
    Ok((rgba, w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font() -> SpriteFont {
        SpriteFont {
            widths: (0..224).map(|i| (i % 7 + 3) as f32).collect(),
            first_char_code: 32,
            cell_width: 17,
            cell_height: 17,
            font_height: 16,
            image_width: 1,
            image_height: 1,
            image: vec![0; 4],
        }
    }

    #[test]
    fn measure_sums_table_widths_and_clamps() {
        let f = font();
        // ' ' → index 0 (3), 'A' (65) → index 33 (33 % 7 + 3 = 8).
        assert_eq!(f.measure(" A"), 11.0);
        // U+4E00 clamps to index 223 (223 % 7 + 3 = 9).
        assert_eq!(f.measure("\u{4e00}"), 9.0);
    }

    #[test]
    fn cells_follow_grid() {
        let f = font();
        let cells = f.cells("A!");
        // 'A' → i = 33 → col 3, row 2.
        assert_eq!((cells[0].sx, cells[0].sy), (51, 34));
        assert_eq!(cells[1].dx, 8.0);
    }

    #[test]
    fn fields_of_the_sprite_json_are_read() {
        let json = r#"{"imageWidth":256, "cellWidth" : 17,"widths":[4, 6],"fontHeight":16}"#;
        assert_eq!(field(json, "cellWidth"), Some("17"));
        assert_eq!(field(json, "widths"), Some("[4, 6]"));
        assert_eq!(field(json, "fontHeight"), Some("16"));
        assert_eq!(field(json, "Width"), None);
    }
}
