use super::{currency_digits, localize_currency};
use crate::intl::compact::tests::unescape;
use crate::intl::Rounding;
use fixed_decimal::Decimal;

/// What Chromium 156 prints (`chromium.tsv`, written by `chromium.html` as the compact
/// table is): per locale, currency and fraction digits (the currency's own, or 0 as
/// Chart.js passes on an integer step), the values of the header line.
const CHROMIUM: &str = include_str!("chromium.tsv");

/// The (locale, currency) pairs where ICU4X's CLDR data names the currency otherwise than
/// Chromium's ICU, everything else being equal: Chromium writes the ISO code (`1234,50 USD`
/// in Italian, `1 235 JPY` in French, `EUR 1'234.50` in Swiss German), ICU4X the root
/// locale's symbol (`US$`, `JP¥`, `£`, `₹`, `R$`, `CN¥`, `€`). 21 of the 184 pairs.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("fr-FR", "JPY"),
    ("fr-FR", "CNY"),
    ("es-ES", "JPY"),
    ("es-ES", "GBP"),
    ("es-ES", "INR"),
    ("es-ES", "CNY"),
    ("es-ES", "BRL"),
    ("it-IT", "USD"),
    ("it-IT", "JPY"),
    ("it-IT", "INR"),
    ("it-IT", "BRL"),
    ("pl-PL", "USD"),
    ("pl-PL", "JPY"),
    ("pl-PL", "GBP"),
    ("pl-PL", "INR"),
    ("pl-PL", "CNY"),
    ("sv-SE", "JPY"),
    ("sv-SE", "GBP"),
    ("sv-SE", "INR"),
    ("sv-SE", "CNY"),
    ("de-CH", "EUR"),
];

#[test]
fn matches_chromium_for_the_listed_locales() {
    let mut lines = CHROMIUM.lines();
    let header = lines.next().expect("header");
    let values: Vec<&str> = header
        .split(" for v in ")
        .nth(1)
        .expect("values")
        .split(' ')
        .collect();
    let (mut checked, mut wrong) = (0, Vec::new());
    let mut differing: Vec<(String, String)> = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split('\t').collect();
        let (locale, currency, fd) = (cells[0], cells[1], cells[2]);
        assert_eq!(cells.len(), values.len() + 3, "{line}");
        let digits = match fd {
            "default" => currency_digits(locale, currency).expect("known currency"),
            d => d.parse().expect("digits"),
        };
        for (v, want) in values.iter().zip(&cells[3..]) {
            let mut d = Decimal::try_from_str(v).expect("a number");
            Rounding::Fraction {
                min: digits,
                max: digits,
            }
            .apply(&mut d);
            let got = localize_currency(&d.to_string(), locale, currency, true);
            let want = unescape(want);
            checked += 1;
            if got.as_deref() != Some(want.as_str()) {
                let pair = (locale.to_string(), currency.to_string());
                if !differing.contains(&pair) {
                    differing.push(pair);
                }
                wrong.push(format!("{locale} {currency} {fd} {v}: {got:?} != {want:?}"));
            }
        }
    }
    assert!(checked >= 23 * 8 * 2 * 4, "{checked}");
    let known: Vec<(String, String)> = KNOWN_DIFFERENCES
        .iter()
        .map(|(l, c)| (l.to_string(), c.to_string()))
        .collect();
    assert_eq!(
        differing,
        known,
        "{} of {checked} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn odd_codes_and_locales() {
    assert_eq!(
        localize_currency("12", "en-US", "usd", true).as_deref(),
        Some("$12")
    );
    assert_eq!(localize_currency("12", "en-US", "US", true), None);
    assert_eq!(localize_currency("12", "en-US", "U$D", true), None);
    assert_eq!(localize_currency("12", "not a locale!", "USD", true), None);
    assert_eq!(currency_digits("en-US", "JPY"), Some(0));
    assert_eq!(currency_digits("en-US", "USD"), Some(2));
}
