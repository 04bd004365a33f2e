//! Tick label formatting: `Ticks.formatters.numeric` and `Intl.NumberFormat(locale)` (the
//! digits are rounded here; [`chart_spec::intl`] writes them the locale's way).

use super::Tick;
use chart_spec::model::NumberFormat;

/// The largest `minimumFractionDigits`/`maximumFractionDigits` `Intl.NumberFormat` accepts.
pub const MAX_FRACTION_DIGITS: u32 = 100;

/// The `RangeError` `new Intl.NumberFormat('en-US', format)` throws for digit options out of
/// range (`SetNumberFormatDigitOptions`), as V8 words it; `Ok` when it accepts them.
pub fn check_format(fmt: &NumberFormat) -> Result<(), String> {
    let out_of_range = |name: &str| Err(format!("{name} value is out of range."));
    if fmt.min_fraction.is_some_and(|d| d > MAX_FRACTION_DIGITS) {
        return out_of_range("minimumFractionDigits");
    }
    if fmt.max_fraction.is_some_and(|d| d > MAX_FRACTION_DIGITS) {
        return out_of_range("maximumFractionDigits");
    }
    if compact(fmt) && (fmt.min_significant.is_some() || fmt.max_significant.is_some()) {
        // DefaultNumberOption(mnsd, 1, 21) then (mxsd, mnsd, 21); fraction digits are not
        // looked at when significant digits win (roundingPriority 'auto').
        let min = fmt.min_significant.unwrap_or(1);
        if !(1..=MAX_SIGNIFICANT_DIGITS).contains(&min) {
            return out_of_range("minimumSignificantDigits");
        }
        if fmt
            .max_significant
            .is_some_and(|max| !(min..=MAX_SIGNIFICANT_DIGITS).contains(&max))
        {
            return out_of_range("maximumSignificantDigits");
        }
        return Ok(());
    }
    if let (Some(min), Some(max)) = (fmt.min_fraction, fmt.max_fraction) {
        if min > max {
            return out_of_range("maximumFractionDigits");
        }
    }
    Ok(())
}

/// The most significant digits `Intl.NumberFormat` accepts.
const MAX_SIGNIFICANT_DIGITS: u32 = 21;

/// `notation: 'compact'` as this crate formats it (not with `style: 'percent'`, reported).
fn compact(fmt: &NumberFormat) -> bool {
    fmt.notation.as_deref() == Some("compact") && !fmt.percent && fmt.currency.is_none()
}

/// The chart's `options.locale`, en-US (Chart.js's default in the browser engine) if unset.
fn locale_of(fmt: &NumberFormat) -> &str {
    if fmt.locale.is_empty() {
        "en-US"
    } else {
        &fmt.locale
    }
}

/// `Intl.NumberFormat(locale, {notation: 'compact', ...})`: the fraction digits `(min, max)`
/// when the options hold any (Chart.js's tick formatter always passes them), significant
/// digits winning over them as ECMA-402's `roundingPriority: 'auto'` has it.
fn format_compact(
    value: f64,
    fraction: Option<(u32, u32)>,
    fmt: &NumberFormat,
    locale: &str,
) -> String {
    use chart_spec::intl::Rounding;
    let rounding = if fmt.min_significant.is_some() || fmt.max_significant.is_some() {
        let min = fmt
            .min_significant
            .unwrap_or(1)
            .clamp(1, MAX_SIGNIFICANT_DIGITS);
        let max = fmt
            .max_significant
            .unwrap_or(MAX_SIGNIFICANT_DIGITS)
            .clamp(min, MAX_SIGNIFICANT_DIGITS);
        Rounding::Significant { min, max }
    } else if let Some((min, max)) = fraction {
        Rounding::Fraction { min, max }
    } else {
        Rounding::CompactDefault
    };
    let format = |locale| {
        chart_spec::intl::format_compact(
            value,
            locale,
            fmt.compact_long,
            rounding,
            fmt.grouping,
            fmt.sign_display,
        )
    };
    // A tag that does not parse formats as en-US, as the other styles do.
    format(locale)
        .or_else(|| format("en-US"))
        .unwrap_or_else(|| format_number(value, 0, 3, false, true))
}

/// Formats like `new Intl.NumberFormat('en-US', {minimumFractionDigits, maximumFractionDigits,
/// notation}).format(v)`: grouping commas, half-away-from-zero rounding of the exact value.
pub fn format_number(
    v: f64,
    min_fraction: u32,
    max_fraction: u32,
    scientific: bool,
    grouping: bool,
) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.into();
    }
    // Intl rejects more than 100 digits (see `check_format`); a chart asking for them never
    // gets here, but the formatter stays bounded on its own.
    let min_fraction = min_fraction.min(MAX_FRACTION_DIGITS);
    let max_fraction = max_fraction.max(min_fraction).min(MAX_FRACTION_DIGITS);
    if scientific {
        if v == 0.0 {
            return "0E0".into();
        }
        let mut exp = libm::log10(v.abs()).floor() as i32;
        let mut mant = mantissa(v, exp);
        let mut s = round_decimal(mant.abs(), max_fraction);
        if s.starts_with("10") {
            exp += 1;
            mant = mantissa(v, exp);
            s = round_decimal(mant.abs(), max_fraction);
        }
        let s = trim_fraction(&s, min_fraction);
        let sign = if v < 0.0 { "-" } else { "" };
        return format!("{sign}{s}E{exp}");
    }
    let s = round_decimal(v.abs(), max_fraction);
    let s = trim_fraction(&s, min_fraction);
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let int = if grouping { group(&int) } else { int };
    let negative = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    let sign = if negative { "-" } else { "" };
    match frac {
        Some(f) => format!("{sign}{int}.{f}"),
        None => format!("{sign}{int}"),
    }
}

/// `v / 10^exp`. For a subnormal `v` (5e-324 has `exp` -324) `10^exp` underflows to zero
/// and the quotient would be infinite, so both are scaled by 10^16 first (found by fuzzing:
/// a scale with `max: 5e-324` panicked in `round_decimal`).
fn mantissa(v: f64, exp: i32) -> f64 {
    if exp < -300 {
        (v * 1e16) / libm::pow(10.0, f64::from(exp + 16))
    } else {
        v / libm::pow(10.0, f64::from(exp))
    }
}

/// Rounds the exact binary value of `v` (≥ 0) to `digits` decimals, half away from zero.
fn round_decimal(v: f64, digits: u32) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    // 40 extra digits show the exact binary expansion far enough to decide the rounding.
    let exact = format!("{:.*}", digits as usize + 40, v);
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let keep = frac.get(..digits as usize).unwrap_or(frac);
    let rest = frac.get(digits as usize..).unwrap_or("");
    let mut digits_vec: Vec<u8> = int.bytes().chain(keep.bytes()).map(|b| b - b'0').collect();
    if rest.as_bytes().first().is_some_and(|d| *d >= b'5') {
        let mut i = digits_vec.len();
        loop {
            if i == 0 {
                digits_vec.insert(0, 1);
                break;
            }
            i -= 1;
            if digits_vec[i] == 9 {
                digits_vec[i] = 0;
            } else {
                digits_vec[i] += 1;
                break;
            }
        }
    }
    let s: String = digits_vec.iter().map(|d| (d + b'0') as char).collect();
    let split = s.len().saturating_sub(digits as usize);
    let (i, f) = s.split_at(split);
    let i = if i.is_empty() { "0" } else { i };
    if digits == 0 {
        i.to_string()
    } else {
        format!("{i}.{f}")
    }
}

fn trim_fraction(s: &str, min_fraction: u32) -> String {
    let Some((i, f)) = s.split_once('.') else {
        return s.to_string();
    };
    let mut f = f.to_string();
    while f.len() > min_fraction as usize && f.ends_with('0') {
        f.pop();
    }
    if f.is_empty() {
        i.to_string()
    } else {
        format!("{i}.{f}")
    }
}

fn group(int: &str) -> String {
    let b = int.as_bytes();
    let mut out = String::new();
    for (i, c) in b.iter().enumerate() {
        if i > 0 && (b.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c as char);
    }
    out
}

/// Mirrors `Ticks.formatters.numeric(tickValue, index, ticks)` with the en-US locale.
pub fn numeric(value: f64, ticks: &[Tick], fmt: &NumberFormat) -> String {
    if value == 0.0 {
        return "0".into();
    }
    let mut scientific = false;
    let mut delta = value;
    if ticks.len() > 1 {
        let max_tick = ticks[0].value.abs().max(ticks[ticks.len() - 1].value.abs());
        if !(1e-4..=1e15).contains(&max_tick) {
            scientific = true;
        }
        // calculateDelta
        delta = if ticks.len() > 3 {
            ticks[2].value - ticks[1].value
        } else {
            ticks[1].value - ticks[0].value
        };
        if delta.abs() >= 1.0 && value != value.floor() {
            delta = value - value.floor();
        }
    }
    let log_delta = libm::log10(delta.abs());
    let num_decimal = if log_delta.is_nan() {
        1
    } else {
        (-log_delta.floor()).clamp(0.0, 20.0) as u32
    };
    apply_format(value, num_decimal, num_decimal, scientific, fmt)
}

/// Applies user `ticks.format` over the computed digits.
pub fn apply_format(
    value: f64,
    min: u32,
    max: u32,
    scientific: bool,
    fmt: &NumberFormat,
) -> String {
    let (mut min, mut max) = (min, max);
    if let Some(m) = fmt.min_fraction {
        min = m;
        if max < m {
            max = m;
        }
    }
    if let Some(m) = fmt.max_fraction {
        max = m;
        if min > m {
            min = m;
        }
    }
    let grouping = fmt.grouping.unwrap_or(true);
    let locale = locale_of(fmt);
    // The user's `notation` replaces the 'scientific' Chart.js picks (Object.assign).
    if compact(fmt) {
        let min = min.min(MAX_FRACTION_DIGITS);
        return format_compact(
            value,
            Some((min, max.clamp(min, MAX_FRACTION_DIGITS))),
            fmt,
            locale,
        );
    }
    if let Some(currency) = &fmt.currency {
        let ascii = format_number(value, min, max, false, false);
        // A code ICU4X does not know prints the plain number (Intl would throw).
        return chart_spec::intl::localize_currency(&ascii, locale, currency, grouping)
            .unwrap_or_else(|| chart_spec::intl::localize_decimal(&ascii, locale, grouping));
    }
    if fmt.percent {
        // style: 'percent' defaults to 0 fraction digits unless given.
        let min = fmt.min_fraction.unwrap_or(0);
        let max = fmt.max_fraction.unwrap_or(min);
        let ascii = format_number(value * 100.0, min, max, false, false);
        return chart_spec::intl::localize_percent(&ascii, locale, grouping);
    }
    // en-US (Chart.js's default) is what `format_number` writes itself, with no lookup.
    if scientific || locale == "en-US" {
        return format_number(value, min, max, scientific, grouping);
    }
    let ascii = format_number(value, min, max, false, false);
    chart_spec::intl::localize_decimal(&ascii, locale, grouping)
}

/// `formatNumber(value, locale, format)` with the Intl defaults (max 3 fraction digits):
/// linear `getLabelForValue`.
pub fn default_number(value: f64, fmt: &NumberFormat) -> String {
    if compact(fmt) {
        // Compact notation's defaults are 0 fraction digits both ways, and with none given
        // its own rounding (1234 -> "1.2K").
        let fraction = match (fmt.min_fraction, fmt.max_fraction) {
            (None, None) => None,
            (min, max) => {
                let min = min.unwrap_or(0).min(MAX_FRACTION_DIGITS);
                Some((min, max.unwrap_or(min).clamp(min, MAX_FRACTION_DIGITS)))
            }
        };
        let locale = locale_of(fmt);
        return format_compact(value, fraction, fmt, locale);
    }
    if let Some(currency) = &fmt.currency {
        // style: 'currency' defaults to the currency's own digits (2 for USD, 0 for JPY).
        let locale = locale_of(fmt);
        let d = chart_spec::intl::currency_digits(locale, currency).unwrap_or(2);
        return apply_format(value, d, d, false, fmt);
    }
    apply_format(value, 0, 3, false, fmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticks(v: &[f64]) -> Vec<Tick> {
        v.iter().map(|x| Tick::new(*x)).collect()
    }

    /// Issue 12: ticks are formatted with `Intl.NumberFormat(options.locale, …)`.
    #[test]
    fn numeric_follows_the_chart_locale() {
        let fmt = |locale: &str| NumberFormat {
            locale: locale.into(),
            ..NumberFormat::default()
        };
        let t = ticks(&[0.0, 5e6, 1e7]);
        assert_eq!(numeric(1e7, &t, &fmt("en-IN")), "1,00,00,000");
        assert_eq!(numeric(1e7, &t, &fmt("de-DE")), "10.000.000");
        assert_eq!(
            numeric(5e6, &t, &fmt("ar-EG")),
            "\u{665}\u{66c}\u{660}\u{660}\u{660}\u{66c}\u{660}\u{660}\u{660}"
        );
        let t = ticks(&[0.0, 0.5, 1.0, 1.5]);
        assert_eq!(numeric(1.5, &t, &fmt("fr-FR")), "1,5");
        let pct = NumberFormat {
            percent: true,
            ..fmt("tr-TR")
        };
        assert_eq!(numeric(0.5, &t, &pct), "%50");
    }

    /// Chart.js merges its own fraction digits (from the tick step) into `ticks.format`, and
    /// compact notation then rounds the significand to them: on a 500 step 1500 is "2K" in
    /// Chromium (Intl's compact default would say "1.5K").
    #[test]
    fn compact_ticks_take_chartjs_fraction_digits() {
        let fmt = |locale: &str, long| NumberFormat {
            locale: locale.into(),
            notation: Some("compact".into()),
            compact_long: long,
            ..NumberFormat::default()
        };
        let t = ticks(&[0.0, 500.0, 1000.0, 1500.0, 2000.0]);
        assert_eq!(numeric(1500.0, &t, &fmt("en-US", false)), "2K");
        assert_eq!(numeric(1000.0, &t, &fmt("de-DE", false)), "1000");
        assert_eq!(numeric(1500.0, &t, &fmt("en-US", true)), "2 thousand");
        let t = ticks(&[0.0, 2.5e6, 5e6, 7.5e6]);
        assert_eq!(numeric(7.5e6, &t, &fmt("ja-JP", false)), "750万");
        assert_eq!(numeric(7.5e6, &t, &fmt("hi-IN", false)), "75\u{a0}लाख");
        let sd = NumberFormat {
            max_significant: Some(2),
            ..fmt("en-US", false)
        };
        assert_eq!(numeric(7.5e6, &t, &sd), "7.5M");
        // getLabelForValue: no fraction digits given, compact's own two significant digits.
        assert_eq!(default_number(1234.0, &fmt("en-US", false)), "1.2K");
        assert_eq!(
            check_format(&NumberFormat {
                min_significant: Some(0),
                ..sd.clone()
            }),
            Err("minimumSignificantDigits value is out of range.".into())
        );
        assert_eq!(
            check_format(&NumberFormat {
                max_significant: Some(22),
                ..sd
            }),
            Err("maximumSignificantDigits value is out of range.".into())
        );
    }

    /// `style: 'currency'` takes Chart.js's fraction digits on ticks ("$1,000" on a 500
    /// step) and the currency's own elsewhere (getLabelForValue: "$1,234.50", "￥1,235").
    #[test]
    fn currency_ticks_take_chartjs_fraction_digits() {
        let fmt = |locale: &str, currency: &str| NumberFormat {
            locale: locale.into(),
            currency: Some(currency.into()),
            ..NumberFormat::default()
        };
        let t = ticks(&[0.0, 500.0, 1000.0, 1500.0]);
        assert_eq!(numeric(1500.0, &t, &fmt("en-US", "USD")), "$1,500");
        assert_eq!(numeric(1500.0, &t, &fmt("de-DE", "EUR")), "1.500\u{a0}€");
        let t = ticks(&[-1.0, -0.5, 0.0, 0.5]);
        assert_eq!(numeric(-0.5, &t, &fmt("nl-NL", "EUR")), "€\u{a0}-0,5");
        assert_eq!(default_number(1234.5, &fmt("en-US", "USD")), "$1,234.50");
        assert_eq!(default_number(1234.5, &fmt("ja-JP", "JPY")), "￥1,235");
        // A code no CLDR data has is written as the code, as in Chromium.
        assert_eq!(default_number(12.0, &fmt("en-US", "XQQ")), "XQQ\u{a0}12.00");
    }

    #[test]
    fn numeric_like_chartjs() {
        let t = ticks(&[0.0, 0.5, 1.0, 1.5]);
        assert_eq!(numeric(0.5, &t, &NumberFormat::default()), "0.5");
        assert_eq!(numeric(1.0, &t, &NumberFormat::default()), "1.0");
        let t = ticks(&[0.0, 2000.0, 4000.0]);
        assert_eq!(numeric(4000.0, &t, &NumberFormat::default()), "4,000");
        let t = ticks(&[-10.0, -5.0, 0.0]);
        assert_eq!(numeric(-5.0, &t, &NumberFormat::default()), "-5");
    }

    #[test]
    fn digit_options_out_of_range_throw() {
        let fmt = |min, max| NumberFormat {
            min_fraction: min,
            max_fraction: max,
            ..NumberFormat::default()
        };
        assert_eq!(check_format(&fmt(None, Some(100))), Ok(()));
        assert_eq!(
            check_format(&fmt(None, Some(2_000_000_000))),
            Err("maximumFractionDigits value is out of range.".into())
        );
        assert_eq!(
            check_format(&fmt(Some(u32::MAX), None)),
            Err("minimumFractionDigits value is out of range.".into())
        );
        assert!(check_format(&fmt(Some(3), Some(2))).is_err());
        // The formatter itself never allocates for absurd digits.
        assert_eq!(format_number(1.5, 0, u32::MAX, false, true), "1.5");
    }

    #[test]
    fn rounding_half_away() {
        assert_eq!(format_number(2.5, 0, 0, false, true), "3");
        assert_eq!(format_number(0.125, 2, 2, false, true), "0.13");
        assert_eq!(
            format_number(1234567.891, 0, 3, false, true),
            "1,234,567.891"
        );
        assert_eq!(format_number(0.00001, 5, 5, true, true), "1.00000E-5");
        // Subnormals: 10^-324 underflows, the mantissa must not become infinite.
        assert_eq!(format_number(5e-324, 0, 3, true, true), "4.941E-324");
        assert_eq!(format_number(-1e-310, 0, 2, true, true), "-1E-310");
    }
}
