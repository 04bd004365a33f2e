//! `Intl.NumberFormat(locale, {notation: 'compact', compactDisplay})` as Chromium prints it:
//! "1.2K", "1,2 Mio.", "1.5万", "10 लाख", "١٫٥ مليون".
//!
//! CLDR's compact patterns and plural rules are ICU4X's (`icu_decimal`'s
//! `CompactDecimalFormatter`, compiled data). Its own `format` rounds half to even and always
//! to two significant digits, where ECMA-402 rounds half away from zero and lets the
//! fraction or significant digits a caller gives win (Chart.js always gives fraction digits,
//! so a tick of 1500 on a 500 step reads "2K" in the browser). So the significand is rounded
//! here, as ICU's `CompactHandler` does (scale by the magnitude's exponent, round, and move
//! to the next exponent when rounding carried into it), and handed to ICU4X's
//! `format_with_exponent`, which picks the pattern and plural form and writes the digits.

use super::{cached, Rounding};
use fixed_decimal::{Decimal, SignDisplay};
use icu_decimal::options::{CompactDecimalFormatterOptions, GroupingStrategy};
use icu_decimal::preferences::CompactDecimalFormatterPreferences;
use icu_decimal::CompactDecimalFormatter;
use icu_locale_core::Locale;
use icu_plurals::{PluralCategory, PluralRules};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Key = (String, bool, Option<bool>);

thread_local! {
    static FORMATTERS: RefCell<HashMap<Key, Option<Rc<CompactDecimalFormatter>>>> =
        RefCell::new(HashMap::new());
    static PLURALS: RefCell<HashMap<String, Option<Rc<PluralRules>>>> =
        RefCell::new(HashMap::new());
}

/// The cardinal plural rules of a BCP 47 locale.
fn plural_rules(locale: &str) -> Option<Rc<PluralRules>> {
    cached(&PLURALS, locale.to_string(), || {
        let loc = Locale::try_from_str(locale).ok()?;
        PluralRules::try_new_cardinal((&loc).into()).ok()
    })
}

/// The compact formatter of a BCP 47 locale, `long` for `compactDisplay: 'long'`.
/// `useGrouping` defaults to `'min2'` with compact notation (ECMA-402), `true` is `'always'`.
fn formatter(
    locale: &str,
    long: bool,
    grouping: Option<bool>,
) -> Option<Rc<CompactDecimalFormatter>> {
    cached(&FORMATTERS, (locale.to_string(), long, grouping), || {
        let loc = Locale::try_from_str(locale).ok()?;
        let mut options = CompactDecimalFormatterOptions::default();
        options.grouping_strategy = Some(match grouping {
            None => GroupingStrategy::Min2,
            Some(true) => GroupingStrategy::Always,
            Some(false) => GroupingStrategy::Never,
        });
        let prefs = CompactDecimalFormatterPreferences::from(&loc);
        if long {
            CompactDecimalFormatter::try_new_long(prefs, options).ok()
        } else {
            CompactDecimalFormatter::try_new_short(prefs, options).ok()
        }
    })
}

/// `new Intl.NumberFormat(locale, {notation: 'compact', compactDisplay, signDisplay, …digits})
/// .format(value)`. `None` when the locale does not parse or the value is not finite (the
/// caller writes `NaN`/`∞` itself).
pub fn format_compact(
    value: f64,
    locale: &str,
    long: bool,
    rounding: Rounding,
    grouping: Option<bool>,
    sign: SignDisplay,
) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let f = formatter(locale, long, grouping)?;
    // Rust writes an f64 as its shortest round-trip decimal without an exponent, the digits
    // ICU's DecimalQuantity starts from (at most ~330 characters for f64's range).
    let exact = Decimal::try_from_str(&format!("{value}")).ok()?;
    let magnitude = if exact.absolute.is_zero() {
        0
    } else {
        exact.absolute.nonzero_magnitude_start()
    };
    let mut exponent = f.compact_exponent_for_magnitude(magnitude);
    let mut significand = scaled(&exact, exponent, rounding);
    // Rounding carried into the next power of ten (999999 -> "1000K"): ICU then takes that
    // magnitude's exponent and rounds again ("1M").
    if !significand.absolute.is_zero()
        && significand.absolute.nonzero_magnitude_start() + i16::from(exponent) > magnitude
    {
        let next = f.compact_exponent_for_magnitude(magnitude + 1);
        if next != exponent {
            exponent = next;
            significand = scaled(&exact, exponent, rounding);
        }
    }
    significand.apply_sign_display(sign);
    let out = f
        .format_with_exponent(&significand, exponent)
        .ok()?
        .to_string();
    // A significand of 1 shown with fraction digits ("1,0"): ICU4X keeps CLDR's digitless
    // forms ("mille") for the exact operands of 1, where ICU takes them whenever the value is
    // 1 and the locale's plural rules call it "one" (French "1,0" is one: "mille"; Italian
    // "1,0" is other: "1,0 mila").
    let mut one = significand.clone();
    one.absolute.trim_end();
    if one.absolute == fixed_decimal::UnsignedDecimal::from(1u32)
        && one != significand
        && plural_rules(locale)?.category_for(&significand.absolute) == PluralCategory::One
    {
        let word = f.format_with_exponent(&one, exponent).ok()?.to_string();
        if !word.chars().any(char::is_numeric) {
            return Some(word);
        }
    }
    Some(out)
}

/// `value / 10^exponent` rounded as `rounding` says.
fn scaled(value: &Decimal, exponent: u8, rounding: Rounding) -> Decimal {
    let mut d = value.clone();
    d.multiply_pow10(-i16::from(exponent));
    rounding.apply(&mut d);
    d
}

#[cfg(test)]
pub(super) mod tests;
