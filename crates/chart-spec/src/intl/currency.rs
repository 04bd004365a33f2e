//! `Intl.NumberFormat(locale, {style: 'currency', currency})` as Chromium prints it:
//! `$1,234.50`, `1.234,50 €`, `US$ 1.234,50`, `€ -1.234,50`, `١٬٢٣٤٫٥٠ US$`.
//!
//! CLDR's currency patterns and symbols are ICU4X's (`icu_experimental`'s
//! `CurrencyFormatter`, compiled data). That formatter always rounds to the currency's own
//! digits, where Intl takes the fraction digits it is given, and Chart.js gives the ones of
//! the tick step (`$1,000` on a 500 step, not `$1,000.00`). So the formatter writes 1 and
//! -1 once per locale and currency, the text around its number is kept (symbol, spacing,
//! bidi marks, where the sign goes), and the number rounded here is put in its place.

use super::{cached, formatter, localize_decimal};
use fixed_decimal::Decimal;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::currency::CurrencyType;
use icu_locale_core::Locale;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The text CLDR puts around a currency amount in one locale.
#[derive(Debug)]
struct Affixes {
    /// Before and after a positive amount.
    positive: (String, String),
    /// Before and after a negative amount (the minus sign and marks included).
    negative: (String, String),
    /// The currency's own fraction digits (JPY 0, USD 2): Intl's default for the style.
    digits: u32,
}

type Key = (String, String);

thread_local! {
    static AFFIXES: RefCell<HashMap<Key, Option<Rc<Affixes>>>> = RefCell::new(HashMap::new());
}

/// The most fraction digits a currency has (CLDR: 4, the Chilean unit of account).
const MAX_CURRENCY_DIGITS: u32 = 4;

fn affixes(locale: &str, currency: &str) -> Option<Rc<Affixes>> {
    // Intl accepts any three ASCII letters, in either case.
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let code = currency.to_ascii_uppercase();
    cached(&AFFIXES, (locale.to_string(), code.clone()), || {
        let loc = Locale::try_from_str(locale).ok()?;
        let currency: CurrencyType = code.parse().ok()?;
        let f =
            CurrencyFormatter::try_new_symbol((&loc).into(), currency, Default::default()).ok()?;
        let positive = f.format_fixed_decimal(&Decimal::from(1)).to_string();
        let negative = f.format_fixed_decimal(&Decimal::from(-1)).to_string();
        // The amount is 1 written with the currency's digits ("1.00", "١٫٠٠", "1"): the
        // longest such number the sample holds.
        let decimal = formatter(locale, true)?;
        let (digits, one) = (0..=MAX_CURRENCY_DIGITS).rev().find_map(|k| {
            let mut one = Decimal::from(1);
            one.absolute.pad_end(-(k as i16));
            let one = decimal.format(&one).to_string();
            positive.contains(&one).then_some((k, one))
        })?;
        let split = |s: &str| {
            let at = s.find(&one)?;
            Some((s[..at].to_string(), s[at + one.len()..].to_string()))
        };
        Some(Affixes {
            positive: split(&positive)?,
            negative: split(&negative)?,
            digits,
        })
    })
}

/// The fraction digits `style: 'currency'` uses by default for a currency (`None` when the
/// locale or the currency code is not known).
pub fn currency_digits(locale: &str, currency: &str) -> Option<u32> {
    affixes(locale, currency).map(|a| a.digits)
}

/// `Intl.NumberFormat(locale, {style: 'currency', currency})` of a number already rounded,
/// written as for [`localize_decimal`] (`-1234.50`). `None` when the locale or the currency
/// code is not known.
pub fn localize_currency(
    ascii: &str,
    locale: &str,
    currency: &str,
    grouping: bool,
) -> Option<String> {
    let a = affixes(locale, currency)?;
    let (sign, plain) = match ascii.strip_prefix('-') {
        Some(p) => (&a.negative, p),
        None => (&a.positive, ascii),
    };
    let number = localize_decimal(plain, locale, grouping);
    Some(format!("{}{number}{}", sign.0, sign.1))
}

#[cfg(test)]
mod tests;
