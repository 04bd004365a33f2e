//! Reading dates from text: the fields of a format string (`parse` with a format), ISO 8601
//! pieces, and fixed UTC offsets.

use super::calendar::MONTHS;
use super::token::Field;
use super::unit::{MS_HOUR, MS_MINUTE};

pub(super) struct Cursor<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

impl Cursor<'_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    pub(super) fn peek_digit(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }
    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn digit(&mut self) -> Option<u32> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            self.i += 1;
            Some(u32::from(c - b'0'))
        } else {
            None
        }
    }
    pub(super) fn fixed_digits(&mut self, n: usize) -> Option<u64> {
        let mut v = 0u64;
        for _ in 0..n {
            v = v * 10 + u64::from(self.digit()?);
        }
        Some(v)
    }
    /// `Z`, `±HH:mm`, `±HHmm`, `±HH` or nothing; the offset in ms east of UTC.
    pub(super) fn zone(&mut self) -> Option<Option<f64>> {
        if self.eat(b'Z') || self.eat(b'z') {
            return Some(Some(0.0));
        }
        let sign = if self.eat(b'+') {
            1.0
        } else if self.eat(b'-') {
            -1.0
        } else {
            return Some(None);
        };
        let h = self.fixed_digits(2)? as f64;
        self.eat(b':');
        let m = if self.peek_digit() {
            self.fixed_digits(2)? as f64
        } else {
            0.0
        };
        Some(Some(sign * (h * MS_HOUR + m * MS_MINUTE)))
    }
}

#[derive(Debug, Default)]
pub(super) struct ParseState {
    pub(super) year: Option<i64>,
    pub(super) month: Option<u32>,
    pub(super) day: Option<u32>,
    pub(super) day_of_year: Option<u32>,
    pub(super) hour: Option<u32>,
    pub(super) pm: Option<bool>,
    pub(super) minute: Option<u32>,
    pub(super) second: Option<u32>,
    pub(super) millisecond: Option<u32>,
    pub(super) zone_ms: Option<f64>,
    pub(super) unix_ms: Option<f64>,
}

pub(super) fn field_can_start(f: Field, c: u8) -> bool {
    match f {
        Field::Month | Field::Weekday => c.is_ascii_alphanumeric(),
        Field::Meridiem => c.is_ascii_alphabetic(),
        Field::Zone => c == b'+' || c == b'-' || c == b'Z' || c == b'G',
        Field::Year | Field::UnixSeconds | Field::UnixMillis => c.is_ascii_digit() || c == b'-',
        _ => c.is_ascii_digit(),
    }
}

/// Reads one field at the start of `s`; the bytes consumed, or `None` when it does not match.
pub(super) fn parse_field(f: Field, w: u8, s: &[u8], st: &mut ParseState) -> Option<usize> {
    let digits = |max: usize| -> Option<(u64, usize)> {
        let n = s
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if n == 0 {
            return None;
        }
        let v = std::str::from_utf8(&s[..n]).ok()?.parse().ok()?;
        Some((v, n))
    };
    let signed = |max: usize| -> Option<(i64, usize)> {
        let neg = s.first() == Some(&b'-');
        let (v, n) = {
            let rest = if neg { &s[1..] } else { s };
            let n = rest
                .iter()
                .take(max)
                .take_while(|c| c.is_ascii_digit())
                .count();
            if n == 0 {
                return None;
            }
            (
                std::str::from_utf8(&rest[..n]).ok()?.parse::<i64>().ok()?,
                n,
            )
        };
        Some((if neg { -v } else { v }, n + usize::from(neg)))
    };
    let suffix = |n: usize| -> usize {
        // An ordinal suffix (st, nd, rd, th) after a number.
        if s.len() >= n + 2 && s[n].is_ascii_alphabetic() && s[n + 1].is_ascii_alphabetic() {
            n + 2
        } else {
            n
        }
    };
    let w = usize::from(w);
    match f {
        Field::Year => {
            if w == 2 {
                let (v, n) = digits(2)?;
                // moment: 2-digit years > 68 are 19xx; date-fns resolves near "now" (same today).
                let v = v as i64;
                st.year = Some(if v > 68 { 1900 + v } else { 2000 + v });
                Some(n)
            } else {
                let (v, n) = signed(if w >= 4 { w.max(6) } else { 6 })?;
                st.year = Some(v);
                Some(n)
            }
        }
        Field::Quarter => {
            let start = usize::from(s.first() == Some(&b'Q'));
            let (v, n) = digits_at(s, start, 1)?;
            st.month = Some((v as u32 - 1) * 3 + 1);
            Some(start + n)
        }
        Field::Month | Field::MonthOrdinal => {
            if w >= 3 {
                let word: String = s
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .map(|&c| c as char)
                    .collect();
                let m = MONTHS.iter().position(|name| {
                    let lw = word.to_ascii_lowercase();
                    let ln = name.to_ascii_lowercase();
                    lw == ln || (lw.len() >= 3 && lw == ln[..3])
                })?;
                st.month = Some(m as u32 + 1);
                Some(word.len())
            } else {
                let (v, n) = digits(2)?;
                st.month = Some(v as u32);
                Some(if f == Field::MonthOrdinal {
                    suffix(n)
                } else {
                    n
                })
            }
        }
        Field::Day | Field::DayOrdinal => {
            let (v, n) = digits(2)?;
            st.day = Some(v as u32);
            Some(if f == Field::DayOrdinal { suffix(n) } else { n })
        }
        Field::DayOfYear => {
            let (v, n) = digits(3)?;
            st.day_of_year = Some(v as u32);
            Some(n)
        }
        Field::Weekday | Field::IsoWeekday | Field::WeekdayOrdinal => {
            // Parsed and ignored, as both libraries do without a week-based date.
            let n = s.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
            (n > 0).then_some(n)
        }
        Field::Week | Field::IsoWeek => {
            let (_, n) = digits(2)?;
            Some(suffix(n))
        }
        Field::Hour24 | Field::Hour24From1 => {
            let (v, n) = digits(2)?;
            st.hour = Some(if f == Field::Hour24From1 && v == 24 {
                0
            } else {
                v as u32
            });
            Some(n)
        }
        Field::Hour12 | Field::Hour12From0 => {
            let (v, n) = digits(2)?;
            st.hour = Some(v as u32);
            Some(n)
        }
        Field::Minute => {
            let (v, n) = digits(2)?;
            st.minute = Some(v as u32);
            Some(n)
        }
        Field::Second => {
            let (v, n) = digits(2)?;
            st.second = Some(v as u32);
            Some(n)
        }
        Field::Fraction => {
            let (_, n) = digits(if w <= 3 { 9 } else { w })?;
            let text = std::str::from_utf8(&s[..n]).ok()?;
            let frac: f64 = format!("0.{text}").parse().ok()?;
            st.millisecond = Some((frac * 1000.0).floor() as u32);
            Some(n)
        }
        Field::Meridiem => {
            let lower: Vec<u8> = s.iter().take(4).map(|c| c.to_ascii_lowercase()).collect();
            let (pm, n) = if lower.starts_with(b"a.m.") {
                (false, 4)
            } else if lower.starts_with(b"p.m.") {
                (true, 4)
            } else if lower.starts_with(b"am") {
                (false, 2)
            } else if lower.starts_with(b"pm") {
                (true, 2)
            } else if lower.starts_with(b"a") {
                (false, 1)
            } else if lower.starts_with(b"p") {
                (true, 1)
            } else {
                return None;
            };
            st.pm = Some(pm);
            Some(n)
        }
        Field::UnixSeconds | Field::UnixMillis => {
            let n = s
                .iter()
                .enumerate()
                .take_while(|(i, c)| c.is_ascii_digit() || *c == &b'.' || (*i == 0 && **c == b'-'))
                .count();
            let v: f64 = std::str::from_utf8(&s[..n]).ok()?.parse().ok()?;
            st.unix_ms = Some(if f == Field::UnixSeconds {
                v * 1000.0
            } else {
                v
            });
            Some(n)
        }
        Field::Zone => {
            let mut c = Cursor { b: s, i: 0 };
            if s.starts_with(b"GMT") || s.starts_with(b"UTC") {
                c.i = 3;
                if !matches!(c.peek(), Some(b'+') | Some(b'-')) {
                    st.zone_ms = Some(0.0);
                    return Some(3);
                }
            }
            let z = c.zone()??;
            st.zone_ms = Some(z);
            Some(c.i)
        }
    }
}

fn digits_at(s: &[u8], start: usize, max: usize) -> Option<(u64, usize)> {
    let rest = s.get(start..)?;
    let n = rest
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count();
    if n == 0 {
        return None;
    }
    Some((std::str::from_utf8(&rest[..n]).ok()?.parse().ok()?, n))
}

/// Parses a time zone setting into minutes east of UTC: `"UTC"`, `"Z"`, `"+05:30"`,
/// `"-0800"`, `"UTC+2"`. Named IANA zones other than UTC are not supported (`None`).
pub fn parse_fixed_offset(zone: &str) -> Option<i32> {
    let z = zone.trim();
    if z.eq_ignore_ascii_case("utc") || z.eq_ignore_ascii_case("gmt") || z == "Z" || z == "Etc/UTC"
    {
        return Some(0);
    }
    let z = z
        .strip_prefix("UTC")
        .or_else(|| z.strip_prefix("GMT"))
        .unwrap_or(z);
    let (sign, rest) = match z.as_bytes().first()? {
        b'+' => (1, &z[1..]),
        b'-' => (-1, &z[1..]),
        _ => return None,
    };
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) => (h.parse::<i32>().ok()?, m.parse::<i32>().ok()?),
        None if rest.len() == 4 => (rest[..2].parse().ok()?, rest[2..].parse().ok()?),
        None => (rest.parse().ok()?, 0),
    };
    if !(0..=18).contains(&h) || !(0..60).contains(&m) {
        return None;
    }
    Some(sign * (h * 60 + m))
}
