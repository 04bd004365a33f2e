use super::{format_compact, Rounding, SignDisplay};

/// What Chromium 156 prints (`chromium.tsv`: one row per locale and variant, the values
/// in its header line; invisible marks written `\u{…}`). `chromium.html` wrote it:
/// `chromium --headless --dump-dom chromium.html`, the text between BEGIN and END.
const CHROMIUM: &str = include_str!("chromium.tsv");

/// The `Intl.NumberFormat` options of each variant of `chromium.tsv`, as (long, rounding,
/// signDisplay).
fn variant(name: &str) -> (bool, Rounding, SignDisplay) {
    let fd = |min, max| Rounding::Fraction { min, max };
    let sd = |min, max| Rounding::Significant { min, max };
    match name {
        "short" => (false, Rounding::CompactDefault, SignDisplay::Auto),
        "long" => (true, Rounding::CompactDefault, SignDisplay::Auto),
        "short-fd0" => (false, fd(0, 0), SignDisplay::Auto),
        "long-fd1" => (true, fd(1, 1), SignDisplay::Auto),
        "short-sd3" => (false, sd(1, 3), SignDisplay::Auto),
        // Significant digits win over fraction digits (roundingPriority 'auto').
        "short-sd3-fd0" => (false, sd(3, 3), SignDisplay::Auto),
        "short-always" => (false, fd(0, 1), SignDisplay::Always),
        "long-exceptZero" => (true, Rounding::CompactDefault, SignDisplay::ExceptZero),
        _ => panic!("unknown variant {name}"),
    }
}

/// `\u{hex}` escapes back to characters.
pub(in crate::intl) fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').expect("closed escape") + at;
        let code = u32::from_str_radix(&rest[at + 3..end], 16).expect("hex");
        out.push(char::from_u32(code).expect("a character"));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn matches_chromium_for_the_listed_locales() {
    let mut lines = CHROMIUM.lines();
    let header = lines.next().expect("header");
    let values: Vec<f64> = header
        .split(" for v in ")
        .nth(1)
        .expect("values")
        .split(' ')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split('\t').collect();
        let (locale, name) = (cells[0], cells[1]);
        let (long, rounding, sign) = variant(name);
        assert_eq!(cells.len(), values.len() + 2, "{line}");
        for (v, want) in values.iter().zip(&cells[2..]) {
            let got = format_compact(*v, locale, long, rounding, None, sign);
            let want = unescape(want);
            if got.as_deref() != Some(want.as_str()) {
                wrong.push(format!("{locale} {name} {v}: {got:?} != {want:?}"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 23 * 8 * 18, "{checked}");
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn grouping_option_and_odd_input() {
    let short = |v, g| {
        format_compact(
            v,
            "en-US",
            false,
            Rounding::CompactDefault,
            g,
            SignDisplay::Auto,
        )
    };
    // useGrouping: true is 'always', where compact's default 'min2' leaves 1000T alone.
    assert_eq!(short(1e15, Some(true)).as_deref(), Some("1,000T"));
    assert_eq!(short(1e15, None).as_deref(), Some("1000T"));
    assert_eq!(short(f64::NAN, None), None);
    assert_eq!(short(f64::INFINITY, None), None);
    assert_eq!(short(f64::MAX, None).map(|s| s.ends_with('T')), Some(true));
    // Two significant digits however small (Intl prints the 300-odd zeros too).
    let tiny = short(5e-324, None).unwrap_or_default();
    assert!(
        tiny.starts_with("0.000") && tiny.ends_with('5') && tiny.len() < 400,
        "{tiny}"
    );
    assert_eq!(
        format_compact(
            1.0,
            "not a locale!",
            false,
            Rounding::CompactDefault,
            None,
            SignDisplay::Auto
        ),
        None
    );
}
