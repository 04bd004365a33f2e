//! CSS colours as a browser canvas accepts them for `fillStyle`/`strokeStyle`.
//!
//! Every syntax Chrome's canvas takes: the 148 named colours, `transparent`, `#rgb`, `#rgba`,
//! `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` with commas or the modern space/slash syntax,
//! numbers or percentages, `hsl()`/`hsla()`, `hwb()`, case-insensitive. Channels and alpha
//! are rounded to 8 bits half away from zero, as Blink does when it paints (`rgba(…, 0.5)`
//! has alpha 128, `rgb(127.5, …)` red 128).

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

    /// The same colour with its alpha multiplied by `factor` (0..=1), rounded like Blink.
    pub fn with_alpha_factor(self, factor: f32) -> Self {
        Rgba {
            a: unit_to_u8(self.a as f64 / 255.0 * factor as f64),
            ..self
        }
    }
}

/// Parses a CSS colour string; `None` when a canvas would ignore the assignment.
pub fn parse_color(s: &str) -> Option<Rgba> {
    let s = s.trim();
    if let Some(hex) = s.strip_prefix('#') {
        return parse_hex(hex);
    }
    let lower = s.to_ascii_lowercase();
    if lower == "transparent" {
        return Some(Rgba::TRANSPARENT);
    }
    if let Some(open) = lower.find('(') {
        let name = lower[..open].trim_end();
        let body = lower[open + 1..].strip_suffix(')')?;
        return match name {
            "rgb" | "rgba" => parse_rgb(body),
            "hsl" | "hsla" => parse_hsl(body),
            "hwb" => parse_hwb(body),
            _ => None,
        };
    }
    NAMED
        .binary_search_by(|(n, _)| (*n).cmp(lower.as_str()))
        .ok()
        .map(|i| {
            let v = NAMED[i].1;
            Rgba::rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
        })
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
    let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    match hex.len() {
        3 | 4 => {
            let d: Vec<u8> = (0..hex.len()).map(digit).collect::<Option<_>>()?;
            Some(Rgba {
                r: d[0] * 17,
                g: d[1] * 17,
                b: d[2] * 17,
                a: d.get(3).map_or(255, |a| a * 17),
            })
        }
        6 | 8 => Some(Rgba {
            r: pair(0)?,
            g: pair(2)?,
            b: pair(4)?,
            a: if hex.len() == 8 { pair(6)? } else { 255 },
        }),
        _ => None,
    }
}

/// One argument of a colour function.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Arg {
    Number(f64),
    Percent(f64),
    /// An angle, already in degrees.
    Degrees(f64),
    /// The modern `none` keyword (treated as zero).
    None,
}

fn parse_number(s: &str) -> Option<f64> {
    // CSS numbers: no hex, no "inf"/"nan", digits required.
    if s.is_empty() || !s.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if !s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e'))
    {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn parse_arg(s: &str) -> Option<Arg> {
    if s == "none" {
        return Some(Arg::None);
    }
    if let Some(p) = s.strip_suffix('%') {
        return parse_number(p).map(Arg::Percent);
    }
    for (unit, to_deg) in [
        ("deg", 1.0),
        ("grad", 0.9),
        ("rad", 180.0 / std::f64::consts::PI),
        ("turn", 360.0),
    ] {
        if let Some(v) = s.strip_suffix(unit) {
            return parse_number(v).map(|v| Arg::Degrees(v * to_deg));
        }
    }
    parse_number(s).map(Arg::Number)
}

/// Splits a function body into its (three) components and optional alpha, accepting the
/// legacy comma syntax and the modern `a b c / alpha` syntax.
fn split_args(body: &str) -> Option<(Vec<Arg>, Option<Arg>)> {
    let body = body.trim();
    let (main, alpha): (Vec<&str>, Option<&str>) = if body.contains(',') {
        if body.contains('/') {
            return None;
        }
        let parts: Vec<&str> = body.split(',').map(str::trim).collect();
        match parts.len() {
            3 => (parts, None),
            4 => (parts[..3].to_vec(), Some(parts[3])),
            _ => return None,
        }
    } else {
        let (m, a) = match body.split_once('/') {
            Some((m, a)) => (m, Some(a.trim())),
            None => (body, None),
        };
        let parts: Vec<&str> = m.split_whitespace().collect();
        if parts.len() != 3 {
            return None;
        }
        (parts, a)
    };
    let main = main
        .into_iter()
        .map(parse_arg)
        .collect::<Option<Vec<_>>>()?;
    let alpha = match alpha {
        Some(a) => Some(parse_arg(a)?),
        None => None,
    };
    Some((main, alpha))
}

/// Rounds a 0..=1 value to 0..=255 half away from zero (Blink's `lroundf(255 * f)`).
fn unit_to_u8(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn alpha_value(a: Option<Arg>) -> Option<u8> {
    Some(match a {
        None => 255,
        Some(Arg::Number(v)) => unit_to_u8(v),
        Some(Arg::Percent(p)) => unit_to_u8(p / 100.0),
        Some(Arg::None) => 0,
        Some(Arg::Degrees(_)) => return None,
    })
}

fn parse_rgb(body: &str) -> Option<Rgba> {
    let (main, alpha) = split_args(body)?;
    let mut ch = [0u8; 3];
    for (c, arg) in ch.iter_mut().zip(&main) {
        *c = match *arg {
            Arg::Number(v) => v.clamp(0.0, 255.0).round() as u8,
            Arg::Percent(p) => unit_to_u8(p / 100.0),
            Arg::None => 0,
            Arg::Degrees(_) => return None,
        };
    }
    Some(Rgba {
        r: ch[0],
        g: ch[1],
        b: ch[2],
        a: alpha_value(alpha)?,
    })
}

fn hue(arg: Arg) -> Option<f64> {
    match arg {
        Arg::Number(v) | Arg::Degrees(v) => Some(v.rem_euclid(360.0)),
        Arg::None => Some(0.0),
        Arg::Percent(_) => None,
    }
}

/// A percentage (or, in the modern syntax, a bare number meaning percent) as 0..=1.
fn fraction(arg: Arg) -> Option<f64> {
    match arg {
        Arg::Percent(p) | Arg::Number(p) => Some((p / 100.0).clamp(0.0, 1.0)),
        Arg::None => Some(0.0),
        Arg::Degrees(_) => None,
    }
}

/// HSL to RGB in 0..=1 (CSS Color 4, §7.1 sample code).
fn hsl_to_rgb(h: f64, s: f64, l: f64) -> [f64; 3] {
    let f = |n: f64| {
        let k = (n + h / 30.0) % 12.0;
        let a = s * l.min(1.0 - l);
        l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    };
    [f(0.0), f(8.0), f(4.0)]
}

fn parse_hsl(body: &str) -> Option<Rgba> {
    let (main, alpha) = split_args(body)?;
    let rgb = hsl_to_rgb(hue(main[0])?, fraction(main[1])?, fraction(main[2])?);
    Some(Rgba {
        r: unit_to_u8(rgb[0]),
        g: unit_to_u8(rgb[1]),
        b: unit_to_u8(rgb[2]),
        a: alpha_value(alpha)?,
    })
}

fn parse_hwb(body: &str) -> Option<Rgba> {
    if body.contains(',') {
        return None;
    }
    let (main, alpha) = split_args(body)?;
    let (h, w, b) = (hue(main[0])?, fraction(main[1])?, fraction(main[2])?);
    let rgb = if w + b >= 1.0 {
        let g = w / (w + b);
        [g, g, g]
    } else {
        hsl_to_rgb(h, 1.0, 0.5).map(|c| c * (1.0 - w - b) + w)
    };
    Some(Rgba {
        r: unit_to_u8(rgb[0]),
        g: unit_to_u8(rgb[1]),
        b: unit_to_u8(rgb[2]),
        a: alpha_value(alpha)?,
    })
}

/// The CSS named colours, sorted by name (values as Chrome reports them).
const NAMED: &[(&str, u32)] = &[
    ("aliceblue", 0xf0f8ff),
    ("antiquewhite", 0xfaebd7),
    ("aqua", 0x00ffff),
    ("aquamarine", 0x7fffd4),
    ("azure", 0xf0ffff),
    ("beige", 0xf5f5dc),
    ("bisque", 0xffe4c4),
    ("black", 0x000000),
    ("blanchedalmond", 0xffebcd),
    ("blue", 0x0000ff),
    ("blueviolet", 0x8a2be2),
    ("brown", 0xa52a2a),
    ("burlywood", 0xdeb887),
    ("cadetblue", 0x5f9ea0),
    ("chartreuse", 0x7fff00),
    ("chocolate", 0xd2691e),
    ("coral", 0xff7f50),
    ("cornflowerblue", 0x6495ed),
    ("cornsilk", 0xfff8dc),
    ("crimson", 0xdc143c),
    ("cyan", 0x00ffff),
    ("darkblue", 0x00008b),
    ("darkcyan", 0x008b8b),
    ("darkgoldenrod", 0xb8860b),
    ("darkgray", 0xa9a9a9),
    ("darkgreen", 0x006400),
    ("darkgrey", 0xa9a9a9),
    ("darkkhaki", 0xbdb76b),
    ("darkmagenta", 0x8b008b),
    ("darkolivegreen", 0x556b2f),
    ("darkorange", 0xff8c00),
    ("darkorchid", 0x9932cc),
    ("darkred", 0x8b0000),
    ("darksalmon", 0xe9967a),
    ("darkseagreen", 0x8fbc8f),
    ("darkslateblue", 0x483d8b),
    ("darkslategray", 0x2f4f4f),
    ("darkslategrey", 0x2f4f4f),
    ("darkturquoise", 0x00ced1),
    ("darkviolet", 0x9400d3),
    ("deeppink", 0xff1493),
    ("deepskyblue", 0x00bfff),
    ("dimgray", 0x696969),
    ("dimgrey", 0x696969),
    ("dodgerblue", 0x1e90ff),
    ("firebrick", 0xb22222),
    ("floralwhite", 0xfffaf0),
    ("forestgreen", 0x228b22),
    ("fuchsia", 0xff00ff),
    ("gainsboro", 0xdcdcdc),
    ("ghostwhite", 0xf8f8ff),
    ("gold", 0xffd700),
    ("goldenrod", 0xdaa520),
    ("gray", 0x808080),
    ("green", 0x008000),
    ("greenyellow", 0xadff2f),
    ("grey", 0x808080),
    ("honeydew", 0xf0fff0),
    ("hotpink", 0xff69b4),
    ("indianred", 0xcd5c5c),
    ("indigo", 0x4b0082),
    ("ivory", 0xfffff0),
    ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa),
    ("lavenderblush", 0xfff0f5),
    ("lawngreen", 0x7cfc00),
    ("lemonchiffon", 0xfffacd),
    ("lightblue", 0xadd8e6),
    ("lightcoral", 0xf08080),
    ("lightcyan", 0xe0ffff),
    ("lightgoldenrodyellow", 0xfafad2),
    ("lightgray", 0xd3d3d3),
    ("lightgreen", 0x90ee90),
    ("lightgrey", 0xd3d3d3),
    ("lightpink", 0xffb6c1),
    ("lightsalmon", 0xffa07a),
    ("lightseagreen", 0x20b2aa),
    ("lightskyblue", 0x87cefa),
    ("lightslategray", 0x778899),
    ("lightslategrey", 0x778899),
    ("lightsteelblue", 0xb0c4de),
    ("lightyellow", 0xffffe0),
    ("lime", 0x00ff00),
    ("limegreen", 0x32cd32),
    ("linen", 0xfaf0e6),
    ("magenta", 0xff00ff),
    ("maroon", 0x800000),
    ("mediumaquamarine", 0x66cdaa),
    ("mediumblue", 0x0000cd),
    ("mediumorchid", 0xba55d3),
    ("mediumpurple", 0x9370db),
    ("mediumseagreen", 0x3cb371),
    ("mediumslateblue", 0x7b68ee),
    ("mediumspringgreen", 0x00fa9a),
    ("mediumturquoise", 0x48d1cc),
    ("mediumvioletred", 0xc71585),
    ("midnightblue", 0x191970),
    ("mintcream", 0xf5fffa),
    ("mistyrose", 0xffe4e1),
    ("moccasin", 0xffe4b5),
    ("navajowhite", 0xffdead),
    ("navy", 0x000080),
    ("oldlace", 0xfdf5e6),
    ("olive", 0x808000),
    ("olivedrab", 0x6b8e23),
    ("orange", 0xffa500),
    ("orangered", 0xff4500),
    ("orchid", 0xda70d6),
    ("palegoldenrod", 0xeee8aa),
    ("palegreen", 0x98fb98),
    ("paleturquoise", 0xafeeee),
    ("palevioletred", 0xdb7093),
    ("papayawhip", 0xffefd5),
    ("peachpuff", 0xffdab9),
    ("peru", 0xcd853f),
    ("pink", 0xffc0cb),
    ("plum", 0xdda0dd),
    ("powderblue", 0xb0e0e6),
    ("purple", 0x800080),
    ("rebeccapurple", 0x663399),
    ("red", 0xff0000),
    ("rosybrown", 0xbc8f8f),
    ("royalblue", 0x4169e1),
    ("saddlebrown", 0x8b4513),
    ("salmon", 0xfa8072),
    ("sandybrown", 0xf4a460),
    ("seagreen", 0x2e8b57),
    ("seashell", 0xfff5ee),
    ("sienna", 0xa0522d),
    ("silver", 0xc0c0c0),
    ("skyblue", 0x87ceeb),
    ("slateblue", 0x6a5acd),
    ("slategray", 0x708090),
    ("slategrey", 0x708090),
    ("snow", 0xfffafa),
    ("springgreen", 0x00ff7f),
    ("steelblue", 0x4682b4),
    ("tan", 0xd2b48c),
    ("teal", 0x008080),
    ("thistle", 0xd8bfd8),
    ("tomato", 0xff6347),
    ("turquoise", 0x40e0d0),
    ("violet", 0xee82ee),
    ("wheat", 0xf5deb3),
    ("white", 0xffffff),
    ("whitesmoke", 0xf5f5f5),
    ("yellow", 0xffff00),
    ("yellowgreen", 0x9acd32),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> (u8, u8, u8, u8) {
        let v = parse_color(s).unwrap_or_else(|| panic!("{s:?} did not parse"));
        (v.r, v.g, v.b, v.a)
    }

    #[test]
    fn named_table_is_sorted_and_complete() {
        assert_eq!(NAMED.len(), 148);
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(c("RebeccaPurple"), (0x66, 0x33, 0x99, 255));
        assert_eq!(c("grey"), (128, 128, 128, 255));
        assert_eq!(c("transparent"), (0, 0, 0, 0));
        assert_eq!(parse_color("notacolor"), None);
    }

    #[test]
    fn hex_forms() {
        assert_eq!(c("#AbC"), (170, 187, 204, 255));
        assert_eq!(c("#abcd"), (170, 187, 204, 221));
        assert_eq!(c("#ff6384"), (255, 99, 132, 255));
        assert_eq!(c("#0000007f"), (0, 0, 0, 127));
        assert_eq!(parse_color("#12345"), None);
        assert_eq!(parse_color("#ggg"), None);
    }

    /// Expected values read back from Chromium's canvas (fillRect + getImageData).
    #[test]
    fn functions_match_chromium() {
        assert_eq!(c("rgba(0,0,0,0.5)"), (0, 0, 0, 128));
        assert_eq!(c("rgba(0,0,0,0.1)"), (0, 0, 0, 26));
        assert_eq!(c("rgba(0,0,0,0.3)"), (0, 0, 0, 77));
        assert_eq!(c("rgba(0,0,0,0.002)"), (0, 0, 0, 1));
        assert_eq!(c("rgba(0,0,0,0.998)"), (0, 0, 0, 254));
        assert_eq!(c("rgba(0,0,0,50%)"), (0, 0, 0, 128));
        assert_eq!(c("rgb(50% 20% 10.5%)"), (128, 51, 27, 255));
        assert_eq!(c("rgb(127.5, 0.5, 254.5)"), (128, 1, 255, 255));
        assert_eq!(c("rgb(12.3%,0%,100%)"), (31, 0, 255, 255));
        assert_eq!(c("hsl(120, 50%, 50%)"), (64, 191, 64, 255));
        assert_eq!(c("hsl(200 30% 40%)"), (71, 112, 133, 255));
        assert_eq!(c("hsl(33.3deg, 77%, 41%)"), (185, 113, 24, 255));
        assert_eq!(c("hsla(0.5turn, 60%, 70%, 0.5)"), (133, 224, 224, 128));
        assert_eq!(c("hwb(200 20% 30%)"), (51, 136, 179, 255));
        assert_eq!(c("hwb(90 60% 60%)"), (128, 128, 128, 255));
        assert_eq!(c("hsl(1rad 50% 50%)"), (191, 186, 64, 255));
        assert_eq!(c("rgb(300,-5,0)"), (255, 0, 0, 255));
        assert_eq!(c("RGB(1,2,3)"), (1, 2, 3, 255));
        assert_eq!(c("hsl(210, 20%, 45.7%)"), (93, 117, 140, 255));
        assert_eq!(c("rgb(1 2 3 / 0.25)"), (1, 2, 3, 64));
        assert_eq!(c(" rgba(54, 162, 235, 0.2) "), (54, 162, 235, 51));
    }

    #[test]
    fn rejects_malformed_functions() {
        for s in [
            "rgb(1,2)",
            "rgb(1,2,3,4,5)",
            "rgb(1 2, 3)",
            "rgb(1,2,3",
            "rgb(a,b,c)",
            "hwb(1, 2%, 3%)",
            "foo(1,2,3)",
            "rgb(1, 2, 3 / 1)",
        ] {
            assert_eq!(parse_color(s), None, "{s}");
        }
    }
}
