//! `Intl.NumberFormat` as Chromium prints numbers for a locale: grouping (including the
//! Indian lakh grouping and the minimum-grouping rule of es/pl), native digits (Arabic-Indic
//! for ar, Extended Arabic-Indic for fa), decimal and group separators, sign marks, and the
//! percent style; compact notation in [`format_compact`].
//!
//! The CLDR data is ICU4X's (`icu_decimal` with its compiled data), the data V8 takes from
//! ICU. ICU4X's stable crates carry no percent patterns, so where the percent sign goes is
//! the short table in `percent_affixes`, checked against Chromium 156 for every locale the
//! README lists.

mod compact;
mod currency;

pub use compact::format_compact;
pub use currency::{currency_digits, localize_currency};
pub use fixed_decimal::SignDisplay;

use fixed_decimal::{Decimal, SignedRoundingMode, UnsignedRoundingMode};
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::{DecimalFormatter, DecimalFormatterPreferences};
use icu_locale_core::Locale;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Formatters kept per thread and (locale, grouping); past this many the cache starts
/// again (locales come from requests). ICU4X's data handles are not `Send` without its
/// `sync` feature: a per-thread cache needs neither that nor a lock.
const MAX_FORMATTERS: usize = 64;

type Key = (String, bool);

thread_local! {
    static FORMATTERS: RefCell<HashMap<Key, Option<Rc<DecimalFormatter>>>> =
        RefCell::new(HashMap::new());
}

/// The value `make` builds for `key`, kept in a per-thread cache that starts again past
/// [`MAX_FORMATTERS`] entries (`None` is kept too: a tag that does not parse stays so).
fn cached<K: Eq + std::hash::Hash + Clone, V>(
    cache: &'static std::thread::LocalKey<RefCell<HashMap<K, Option<Rc<V>>>>>,
    key: K,
    make: impl FnOnce() -> Option<V>,
) -> Option<Rc<V>> {
    if let Some(f) = cache.with(|m| m.borrow().get(&key).cloned()) {
        return f;
    }
    let made = make().map(Rc::new);
    cache.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MAX_FORMATTERS {
            m.clear();
        }
        m.insert(key, made.clone());
    });
    made
}

/// The decimal formatter of a BCP 47 locale (`None` when the tag does not parse).
fn formatter(locale: &str, grouping: bool) -> Option<Rc<DecimalFormatter>> {
    cached(&FORMATTERS, (locale.to_string(), grouping), || {
        let loc = Locale::try_from_str(locale).ok()?;
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(if grouping {
            GroupingStrategy::Auto
        } else {
            GroupingStrategy::Never
        });
        DecimalFormatter::try_new(DecimalFormatterPreferences::from(&loc), options).ok()
    })
}

/// The digits `Intl.NumberFormat` keeps, as ECMA-402's `SetNumberFormatDigitOptions` settles
/// them (rounding half away from zero, `roundingMode: 'halfExpand'`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// `minimumFractionDigits`/`maximumFractionDigits`.
    Fraction {
        /// `minimumFractionDigits`.
        min: u32,
        /// `maximumFractionDigits`.
        max: u32,
    },
    /// `minimumSignificantDigits`/`maximumSignificantDigits` (they win over fraction digits
    /// under the default `roundingPriority: 'auto'`).
    Significant {
        /// `minimumSignificantDigits`.
        min: u32,
        /// `maximumSignificantDigits`.
        max: u32,
    },
    /// Compact notation given no digit options: no fraction digits or two significant
    /// digits, whichever keeps more (`roundingPriority: 'morePrecision'`): 1234 -> 1.2K,
    /// 15000 -> 15K, 123456 -> 123K.
    CompactDefault,
}

impl Rounding {
    /// Rounds `d` and pads it with the zeros the minimum digits ask for.
    fn apply(self, d: &mut Decimal) {
        let half = SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand);
        let magnitude = |d: &Decimal| {
            if d.absolute.is_zero() {
                0
            } else {
                d.absolute.nonzero_magnitude_start()
            }
        };
        // Digit counts are bounded by the caller (fraction ≤ 100, significant ≤ 21).
        let digits = |n: u32| n.min(100) as i16;
        match self {
            Rounding::Fraction { min, max } => {
                d.round_with_mode(-digits(max), half);
                d.absolute.trim_end();
                d.absolute.pad_end(-digits(min));
            }
            Rounding::Significant { min, max } => {
                d.round_with_mode(magnitude(d) - digits(max.max(1)) + 1, half);
                d.absolute.trim_end();
                d.absolute
                    .pad_end((magnitude(d) - digits(min.max(1)) + 1).min(0));
            }
            Rounding::CompactDefault => {
                d.round_with_mode((magnitude(d) - 1).min(0), half);
                d.absolute.trim_end();
            }
        }
    }
}

/// Rewrites a number written the en-US way without grouping (`-1234.50`: ASCII digits, a
/// `.`, an optional leading `-`; already rounded to the digits wanted) as
/// `Intl.NumberFormat(locale)` prints it. Anything else (`NaN`, `∞`, exponents, a locale
/// that does not parse) is returned as given.
pub fn localize_decimal(ascii: &str, locale: &str, grouping: bool) -> String {
    let plain = ascii.strip_prefix('-').unwrap_or(ascii);
    if plain.is_empty() || !plain.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return ascii.to_string();
    }
    // Bounded by the caller (at most 100 fraction digits, f64 magnitudes), but a string of
    // any length must not reach the parser unbounded.
    if ascii.len() > 512 {
        return ascii.to_string();
    }
    let (Some(f), Ok(d)) = (formatter(locale, grouping), Decimal::try_from_str(ascii)) else {
        return ascii.to_string();
    };
    f.format(&d).to_string()
}

/// `Intl.NumberFormat(locale, {style: 'percent'})` of a number already multiplied by 100
/// and rounded, written as for [`localize_decimal`].
pub fn localize_percent(ascii: &str, locale: &str, grouping: bool) -> String {
    let number = localize_decimal(ascii, locale, grouping);
    let (prefix, suffix) = percent_affixes(locale);
    // The sign (and the bidi marks before it) stays in front of the percent prefix:
    // "-%26" in Turkish, "؜-٢٦٪؜" in Arabic.
    let digits_at = number
        .char_indices()
        .find(|(_, c)| c.is_numeric())
        .map_or(0, |(i, _)| i);
    let (sign, digits) = number.split_at(digits_at);
    format!("{sign}{prefix}{digits}{suffix}")
}

/// Where CLDR's percent pattern puts the percent sign for a locale (its `percentFormats`,
/// the sign localised), as (before the number, after it).
fn percent_affixes(locale: &str) -> (&'static str, &'static str) {
    let mut parts = locale.split(['-', '_']);
    let language = parts.next().unwrap_or("").to_ascii_lowercase();
    let region = parts
        .find(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_alphabetic()))
        .map(str::to_ascii_uppercase);
    match (language.as_str(), region.as_deref()) {
        ("de", Some("CH" | "LI")) => ("", "%"),
        ("de" | "fr" | "es" | "ru" | "sv" | "nb" | "no" | "fi" | "cs" | "sk" | "uk", _) => {
            ("", "\u{a0}%")
        }
        ("tr", _) => ("%", ""),
        ("ar", _) => ("", "\u{66a}\u{61c}"),
        ("fa", _) => ("", "\u{66a}"),
        _ => ("", "%"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Chromium 156 prints for -12345678.5, 1234 and 12345 (`Intl.NumberFormat(l)`)
    /// and for -0.256 with `style: 'percent'`.
    #[test]
    fn matches_chromium_for_the_listed_locales() {
        let cases: &[(&str, &str, &str, &str, &str)] = &[
            ("en-US", "-12,345,678.5", "1,234", "12,345", "-26%"),
            ("en-GB", "-12,345,678.5", "1,234", "12,345", "-26%"),
            ("en-IN", "-1,23,45,678.5", "1,234", "12,345", "-26%"),
            ("de-DE", "-12.345.678,5", "1.234", "12.345", "-26\u{a0}%"),
            ("fr-FR", "-12\u{202f}345\u{202f}678,5", "1\u{202f}234", "12\u{202f}345", "-26\u{a0}%"),
            ("es-ES", "-12.345.678,5", "1234", "12.345", "-26\u{a0}%"),
            ("it-IT", "-12.345.678,5", "1234", "12.345", "-26%"),
            ("nl-NL", "-12.345.678,5", "1.234", "12.345", "-26%"),
            ("pt-BR", "-12.345.678,5", "1.234", "12.345", "-26%"),
            ("ru-RU", "-12\u{a0}345\u{a0}678,5", "1\u{a0}234", "12\u{a0}345", "-26\u{a0}%"),
            ("pl-PL", "-12\u{a0}345\u{a0}678,5", "1234", "12\u{a0}345", "-26%"),
            ("sv-SE", "\u{2212}12\u{a0}345\u{a0}678,5", "1\u{a0}234", "12\u{a0}345", "\u{2212}26\u{a0}%"),
            ("de-CH", "-12'345'678.5", "1'234", "12'345", "-26%"),
            ("ja-JP", "-12,345,678.5", "1,234", "12,345", "-26%"),
            ("zh-CN", "-12,345,678.5", "1,234", "12,345", "-26%"),
            ("ko-KR", "-12,345,678.5", "1,234", "12,345", "-26%"),
            (
                "ar-EG",
                "\u{61c}-\u{661}\u{662}\u{66c}\u{663}\u{664}\u{665}\u{66c}\u{666}\u{667}\u{668}\u{66b}\u{665}",
                "\u{661}\u{66c}\u{662}\u{663}\u{664}",
                "\u{661}\u{662}\u{66c}\u{663}\u{664}\u{665}",
                "\u{61c}-\u{662}\u{666}\u{66a}\u{61c}",
            ),
            (
                "ar-SA",
                "\u{61c}-\u{661}\u{662}\u{66c}\u{663}\u{664}\u{665}\u{66c}\u{666}\u{667}\u{668}\u{66b}\u{665}",
                "\u{661}\u{66c}\u{662}\u{663}\u{664}",
                "\u{661}\u{662}\u{66c}\u{663}\u{664}\u{665}",
                "\u{61c}-\u{662}\u{666}\u{66a}\u{61c}",
            ),
            (
                "fa-IR",
                "\u{200e}\u{2212}\u{6f1}\u{6f2}\u{66c}\u{6f3}\u{6f4}\u{6f5}\u{66c}\u{6f6}\u{6f7}\u{6f8}\u{66b}\u{6f5}",
                "\u{6f1}\u{66c}\u{6f2}\u{6f3}\u{6f4}",
                "\u{6f1}\u{6f2}\u{66c}\u{6f3}\u{6f4}\u{6f5}",
                "\u{200e}\u{2212}\u{6f2}\u{6f6}\u{66a}",
            ),
            ("he-IL", "\u{200e}-12,345,678.5", "1,234", "12,345", "\u{200e}-26%"),
            ("hi-IN", "-1,23,45,678.5", "1,234", "12,345", "-26%"),
            ("th-TH", "-12,345,678.5", "1,234", "12,345", "-26%"),
            ("tr-TR", "-12.345.678,5", "1.234", "12.345", "-%26"),
        ];
        for &(locale, big, thousand, ten_thousand, percent) in cases {
            assert_eq!(
                localize_decimal("-12345678.5", locale, true),
                big,
                "{locale}"
            );
            assert_eq!(localize_decimal("1234", locale, true), thousand, "{locale}");
            assert_eq!(
                localize_decimal("12345", locale, true),
                ten_thousand,
                "{locale}"
            );
            assert_eq!(localize_percent("-26", locale, true), percent, "{locale}");
        }
    }

    #[test]
    fn trailing_zeros_grouping_off_and_odd_input() {
        assert_eq!(localize_decimal("1234.50", "de-DE", true), "1.234,50");
        assert_eq!(localize_decimal("1234.50", "de-DE", false), "1234,50");
        assert_eq!(localize_decimal("NaN", "de-DE", true), "NaN");
        assert_eq!(localize_decimal("-∞", "ar-EG", true), "-∞");
        assert_eq!(localize_decimal("1.5E-7", "de-DE", true), "1.5E-7");
        assert_eq!(localize_decimal("12", "not a locale!", true), "12");
        assert_eq!(localize_decimal("", "en-US", true), "");
        assert_eq!(localize_decimal("-", "en-US", true), "-");
        assert_eq!(localize_decimal("1..2", "en-US", true), "1..2");
    }

    #[test]
    fn formatter_cache_is_bounded() {
        for i in 0..200 {
            localize_decimal("1", &format!("en-x-{i:05}"), true);
        }
        let n = FORMATTERS.with(|m| m.borrow().len());
        assert!(n <= MAX_FORMATTERS, "{n}");
    }
}
