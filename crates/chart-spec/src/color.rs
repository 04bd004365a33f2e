//! CSS colours as a browser canvas accepts them for `fillStyle`/`strokeStyle`.

/// A colour with straight alpha, 8 bits per channel (what a canvas stores).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha, 0 transparent, 255 opaque.
    pub a: u8,
}

impl Rgba {
    /// Fully transparent black, the canvas's initial pixel.
    pub const TRANSPARENT: Rgba = Rgba {
        r: 0,
        g: 0,
        b: 0,
        a: 0,
    };
    /// Opaque black, the canvas's default `fillStyle`.
    pub const BLACK: Rgba = Rgba {
        r: 0,
        g: 0,
        b: 0,
        a: 255,
    };
    /// Opaque white.
    pub const WHITE: Rgba = Rgba {
        r: 255,
        g: 255,
        b: 255,
        a: 255,
    };

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// True when nothing would be painted with this colour.
    pub fn is_transparent(&self) -> bool {
        self.a == 0
    }
}

/// Parses a CSS colour string; `None` when a canvas would ignore the assignment.
///
/// TODO(color owner): every syntax a canvas accepts (named, #rgb[a], #rrggbb[aa], rgb[a](),
/// hsl[a](), hwb(), `transparent`, case-insensitive, modern space syntax).
pub fn parse_color(s: &str) -> Option<Rgba> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("transparent") {
        return Some(Rgba::TRANSPARENT);
    }
    let hex = s.strip_prefix('#')?;
    let v = u32::from_str_radix(hex, 16).ok()?;
    match hex.len() {
        6 => Some(Rgba::rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)),
        _ => None,
    }
}
