//! [`DateAdapter`]: what a Chart.js date adapter does (`parse`, `format`, `add`, `diff`,
//! `startOf`, `endOf`) in one token style and time zone offset.

use super::calendar::{
    civil_from_days, days_from_civil, days_in_month, month_from_name, valid_civil,
    valid_or_end_of_day, weekday_from_name, Civil, MAX_TIME_MS,
};
use super::format::write_field;
use super::parse::{field_can_start, parse_field, Cursor, ParseState};
use super::token::{
    expand_date_fns_locale, expand_moment_locale, tokenize_date_fns, tokenize_moment,
    DisplayFormats, Tok, TokenStyle,
};
use super::unit::{TimeUnit, MS_DAY, MS_HOUR, MS_MINUTE, MS_SECOND, MS_WEEK};

/// A date adapter: calendar operations in one fixed time zone with one token style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DateAdapter {
    style: TokenStyle,
    /// Minutes east of UTC of the adapter's "local" time. Default: 0 (UTC, the fixtures' zone).
    offset_minutes: i32,
}

impl DateAdapter {
    /// An adapter in UTC.
    pub fn new(style: TokenStyle) -> Self {
        Self {
            style,
            offset_minutes: 0,
        }
    }

    /// The same adapter in a fixed time zone `offset_minutes` east of UTC.
    pub fn with_offset(self, offset_minutes: i32) -> Self {
        Self {
            offset_minutes,
            ..self
        }
    }

    /// The token style.
    pub fn style(&self) -> TokenStyle {
        self.style
    }

    /// The adapter's default display formats.
    pub fn formats(&self) -> DisplayFormats {
        DisplayFormats::defaults(self.style)
    }

    fn offset_ms(&self) -> f64 {
        f64::from(self.offset_minutes) * MS_MINUTE
    }

    /// Local broken-down time of a timestamp.
    pub fn civil(&self, time: f64) -> Civil {
        Civil::from_local_ms(time + self.offset_ms())
    }

    fn time_of_civil(&self, c: Civil) -> f64 {
        c.to_local_ms() - self.offset_ms()
    }

    /// `adapter.parse(value, format)` for a string: with a format in the adapter's token
    /// style, or ISO 8601 (and, for moment, a few `Date`-parseable forms) without one. `None`
    /// when invalid.
    pub fn parse(&self, value: &str, format: Option<&str>) -> Option<f64> {
        match format {
            Some(fmt) => self.parse_with_format(value, fmt),
            // chartjs-adapter-date-fns parses strings with `parseISO` only; moment falls back
            // to `new Date(string)` for the rest.
            None => self.parse_iso(value).or_else(|| match self.style {
                TokenStyle::Moment => self.parse_loose(value.trim()),
                TokenStyle::DateFns => None,
            }),
        }
    }

    /// ISO 8601 as moment's `isoRegex` and date-fns's `parseISO` accept it: `YYYY`, `YYYY-MM`,
    /// `YYYY-MM-DD` or `YYYYMMDD`, then optionally `T` or a space and `HH`, `HH:mm`,
    /// `HH:mm:ss`, `HH:mm:ss.SSS` (`,` too), then optionally `Z` or `±HH:mm`/`±HHmm`/`±HH`.
    /// Without an offset the time is local.
    pub fn parse_iso(&self, s: &str) -> Option<f64> {
        let b = s.trim().as_bytes();
        let mut p = Cursor { b, i: 0 };
        let sign = if p.eat(b'+') {
            1
        } else if p.eat(b'-') {
            -1
        } else {
            1
        };
        let year_digits = if sign == -1 || b.first() == Some(&b'+') {
            6
        } else {
            4
        };
        let year = p.fixed_digits(year_digits)? as i64 * sign;
        let mut c = Civil {
            year,
            month: 1,
            day: 1,
            hour: 0,
            minute: 0,
            second: 0,
            millisecond: 0,
        };
        if p.eat(b'-') {
            c.month = p.fixed_digits(2)? as u32;
            if p.eat(b'-') {
                c.day = p.fixed_digits(2)? as u32;
            }
        } else if p.peek_digit() {
            c.month = p.fixed_digits(2)? as u32;
            c.day = p.fixed_digits(2)? as u32;
        }
        let mut offset: Option<f64> = None;
        if p.eat(b'T') || p.eat(b't') || (p.peek() == Some(b' ') && p.i + 1 < b.len()) {
            if p.peek() == Some(b' ') {
                p.i += 1;
            }
            c.hour = p.fixed_digits(2)? as u32;
            let colon = p.eat(b':');
            if colon || p.peek_digit() {
                c.minute = p.fixed_digits(2)? as u32;
                if (colon && p.eat(b':')) || (!colon && p.peek_digit()) {
                    c.second = p.fixed_digits(2)? as u32;
                    if p.eat(b'.') || p.eat(b',') {
                        let start = p.i;
                        let mut frac = 0.0;
                        let mut scale = 100.0;
                        while let Some(d) = p.digit() {
                            frac += f64::from(d) * scale;
                            scale /= 10.0;
                        }
                        if p.i == start {
                            return None;
                        }
                        c.millisecond = frac.floor() as u32;
                    }
                }
            }
            offset = p.zone()?;
        }
        if p.i != b.len() {
            return None;
        }
        if !valid_or_end_of_day(&c) {
            return None;
        }
        let local = c.to_local_ms();
        Some(match offset {
            Some(off) => local - off,
            None => local - self.offset_ms(),
        })
    }

    /// A few forms that `new Date(string)` accepts in Chromium, which moment falls back to for
    /// non-ISO strings: `Month D, YYYY [HH:mm[:ss]]`, `D Month YYYY`, `MM/DD/YYYY`.
    fn parse_loose(&self, s: &str) -> Option<f64> {
        let mut month = None;
        let mut nums: Vec<u32> = Vec::new();
        let mut time: Vec<u32> = Vec::new();
        let mut pm = None;
        for word in s.split([' ', ',', '/']) {
            if word.is_empty() {
                continue;
            }
            if let Some(m) = month_from_name(word) {
                month = Some(m);
            } else if word.contains(':') {
                for part in word.split(':') {
                    time.push(part.parse().ok()?);
                }
            } else if word.eq_ignore_ascii_case("am") || word.eq_ignore_ascii_case("pm") {
                pm = Some(word.eq_ignore_ascii_case("pm"));
            } else if weekday_from_name(word).is_some() {
            } else {
                nums.push(word.parse().ok()?);
            }
        }
        let (y, m, d) = match (month, nums.as_slice()) {
            (Some(m), [d, y]) if *d <= 31 => (*y, m, *d),
            (Some(m), [y, d]) if *y > 31 => (*y, m, *d),
            (None, [m, d, y]) => (*y, *m, *d),
            _ => return None,
        };
        let mut hour = *time.first().unwrap_or(&0);
        if let Some(pm) = pm {
            hour = hour % 12 + if pm { 12 } else { 0 };
        }
        let c = Civil {
            year: i64::from(y),
            month: m,
            day: d,
            hour,
            minute: *time.get(1).unwrap_or(&0),
            second: *time.get(2).unwrap_or(&0),
            millisecond: 0,
        };
        valid_civil(&c).then(|| self.time_of_civil(c))
    }

    fn parse_with_format(&self, value: &str, fmt: &str) -> Option<f64> {
        let tokens = match self.style {
            TokenStyle::Moment => tokenize_moment(&expand_moment_locale(fmt)),
            TokenStyle::DateFns => tokenize_date_fns(&expand_date_fns_locale(fmt)),
        };
        let strict = self.style == TokenStyle::DateFns;
        let mut st = ParseState::default();
        let b = value.as_bytes();
        let mut i = 0usize;
        for tok in &tokens {
            match tok {
                Tok::Lit(text) => {
                    if b[i..].starts_with(text.as_bytes()) {
                        i += text.len();
                    } else if strict {
                        return None;
                    }
                }
                Tok::Field(field, width) => {
                    if !strict {
                        // moment's forgiving mode skips characters that match no token.
                        while i < b.len() && !field_can_start(*field, b[i]) {
                            i += 1;
                        }
                    }
                    let used = parse_field(*field, *width, &b[i..], &mut st)?;
                    i += used;
                }
            }
        }
        if strict && i != b.len() {
            return None;
        }
        st.into_time(self)
    }

    /// `adapter.format(time, format)` with the adapter's token style.
    pub fn format(&self, time: f64, fmt: &str) -> String {
        // moment's "Invalid date" for what `new Date(time)` cannot hold (TimeClip).
        if !time.is_finite() || time.abs() > MAX_TIME_MS {
            return "Invalid date".to_owned();
        }
        let c = self.civil(time);
        let tokens = match self.style {
            TokenStyle::Moment => tokenize_moment(&expand_moment_locale(fmt)),
            TokenStyle::DateFns => tokenize_date_fns(&expand_date_fns_locale(fmt)),
        };
        let mut out = String::new();
        for tok in tokens {
            match tok {
                Tok::Lit(s) => out.push_str(&s),
                Tok::Field(f, w) => write_field(&mut out, f, w, &c, time, self.offset_minutes),
            }
        }
        out
    }

    /// `adapter.add(time, amount, unit)`: moment and date-fns round day and month amounts
    /// (moment's `absRound`), add months clamping the day to the month's end, and add the
    /// fixed-size units as milliseconds.
    pub fn add(&self, time: f64, amount: f64, unit: TimeUnit) -> f64 {
        let months = |n: f64| -> f64 {
            let n = abs_round(n);
            let c = self.civil(time);
            let total = c.year * 12 + i64::from(c.month) - 1 + n as i64;
            let year = total.div_euclid(12);
            let month = (total.rem_euclid(12) + 1) as u32;
            let day = c.day.min(days_in_month(year, month));
            self.time_of_civil(Civil {
                year,
                month,
                day,
                ..c
            })
        };
        match unit {
            TimeUnit::Millisecond => time + amount,
            TimeUnit::Second => time + amount * MS_SECOND,
            TimeUnit::Minute => time + amount * MS_MINUTE,
            TimeUnit::Hour => time + amount * MS_HOUR,
            // Fixed offset: a local day is always 24 h.
            TimeUnit::Day => time + abs_round(amount) * MS_DAY,
            TimeUnit::Week => time + abs_round(amount * 7.0) * MS_DAY,
            TimeUnit::Month => months(amount),
            TimeUnit::Quarter => months(amount * 3.0),
            TimeUnit::Year => months(amount * 12.0),
        }
    }

    /// `adapter.diff(max, min, unit)`: whole units from `min` to `max`, truncated towards zero
    /// (moment's `diff` without the float flag; date-fns's `differenceIn*`). Months, quarters
    /// and years use moment's `monthDiff` (fractional month by the surrounding month lengths).
    pub fn diff(&self, max: f64, min: f64, unit: TimeUnit) -> f64 {
        let delta = max - min;
        let v = match unit {
            TimeUnit::Millisecond => delta,
            TimeUnit::Second => delta / MS_SECOND,
            TimeUnit::Minute => delta / MS_MINUTE,
            TimeUnit::Hour => delta / MS_HOUR,
            TimeUnit::Day => delta / MS_DAY,
            TimeUnit::Week => delta / MS_WEEK,
            TimeUnit::Month => self.month_diff(max, min),
            TimeUnit::Quarter => self.month_diff(max, min) / 3.0,
            TimeUnit::Year => self.month_diff(max, min) / 12.0,
        };
        let t = v.trunc();
        if t == 0.0 {
            0.0
        } else {
            t
        }
    }

    /// moment's `monthDiff(a = max, b = min)`, negated: months from `min` to `max`.
    fn month_diff(&self, a: f64, b: f64) -> f64 {
        if self.civil(b).day < self.civil(a).day {
            return -self.month_diff(b, a);
        }
        let ca = self.civil(a);
        let cb = self.civil(b);
        let whole = (cb.year - ca.year) * 12 + i64::from(cb.month) - i64::from(ca.month);
        let whole = whole as f64;
        let anchor = self.add(a, whole, TimeUnit::Month);
        let adjust = if b - anchor < 0.0 {
            let anchor2 = self.add(a, whole - 1.0, TimeUnit::Month);
            (b - anchor) / (anchor - anchor2)
        } else {
            let anchor2 = self.add(a, whole + 1.0, TimeUnit::Month);
            (b - anchor) / (anchor2 - anchor)
        };
        let r = -(whole + adjust);
        if r == 0.0 {
            0.0
        } else {
            r
        }
    }

    /// `adapter.startOf(time, unit)`: the first millisecond of the local unit containing
    /// `time`. Weeks start on Sunday (en-US).
    pub fn start_of(&self, time: f64, unit: TimeUnit) -> f64 {
        let c = self.civil(time);
        let z = Civil {
            millisecond: 0,
            ..c
        };
        let r = match unit {
            TimeUnit::Millisecond => return time.floor(),
            TimeUnit::Second => z,
            TimeUnit::Minute => Civil { second: 0, ..z },
            TimeUnit::Hour => Civil {
                minute: 0,
                second: 0,
                ..z
            },
            TimeUnit::Day | TimeUnit::Week => Civil {
                hour: 0,
                minute: 0,
                second: 0,
                ..z
            },
            TimeUnit::Month => Civil {
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
                ..z
            },
            TimeUnit::Quarter => Civil {
                month: (c.month - 1) / 3 * 3 + 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
                ..z
            },
            TimeUnit::Year => Civil {
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
                ..z
            },
        };
        let t = self.time_of_civil(r);
        if unit == TimeUnit::Week {
            t - f64::from(c.weekday()) * MS_DAY
        } else {
            t
        }
    }

    /// `adapter.startOf(time, 'isoWeek', weekday)` as chartjs-adapter-moment does it: the
    /// ISO weekday `weekday` (clamped to 0..=6, Monday = 1, 0 = the Sunday before Monday) of
    /// the ISO week containing `time`, at the start of the day. (date-fns uses
    /// `startOfWeek(time, {weekStartsOn: weekday})`, which differs on days before `weekday`.)
    pub fn start_of_iso_week(&self, time: f64, weekday: f64) -> f64 {
        let wd = weekday.clamp(0.0, 6.0).trunc() as i64;
        let day = self.start_of(time, TimeUnit::Day);
        let current = i64::from(self.civil(time).weekday());
        match self.style {
            TokenStyle::Moment => {
                let iso = if current == 0 { 7 } else { current };
                day + (wd - iso) as f64 * MS_DAY
            }
            TokenStyle::DateFns => {
                let back = (current - wd).rem_euclid(7);
                day - back as f64 * MS_DAY
            }
        }
    }

    /// `adapter.endOf(time, unit)`: the last millisecond of the unit containing `time`.
    pub fn end_of(&self, time: f64, unit: TimeUnit) -> f64 {
        let start = self.start_of(time, unit);
        self.add(start, 1.0, unit) - 1.0
    }
}

/// moment's `absRound`: rounds half away from zero.
fn abs_round(n: f64) -> f64 {
    if n < 0.0 {
        -((-n).round())
    } else {
        n.round()
    }
}

/// "Now", only for formats without a year (Chart.js falls back to `Date.now()` likewise).
pub(super) fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
}

/// The parsed fields as a time: missing ones take their defaults (the current year, January,
/// the 1st, midnight), a zone in the text wins over the adapter's offset.
impl ParseState {
    fn into_time(self, adapter: &DateAdapter) -> Option<f64> {
        if let Some(ms) = self.unix_ms {
            return Some(ms);
        }
        let mut hour = self.hour.unwrap_or(0);
        if let Some(pm) = self.pm {
            if hour <= 12 {
                hour = hour % 12 + if pm { 12 } else { 0 };
            }
        }
        let year = self.year.unwrap_or_else(|| adapter.civil(now_ms()).year);
        let (month, day) = match (self.month, self.day, self.day_of_year) {
            (None, None, Some(doy)) => {
                let (_, m, d) = civil_from_days(days_from_civil(year, 1, 1) + i64::from(doy) - 1);
                (m, d)
            }
            (m, d, _) => (m.unwrap_or(1), d.unwrap_or(1)),
        };
        let c = Civil {
            year,
            month,
            day,
            hour,
            minute: self.minute.unwrap_or(0),
            second: self.second.unwrap_or(0),
            millisecond: self.millisecond.unwrap_or(0),
        };
        if !valid_or_end_of_day(&c) {
            return None;
        }
        let local = c.to_local_ms();
        Some(match self.zone_ms {
            Some(z) => local - z,
            None => local - adapter.offset_ms(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_fixed_offset;

    fn utc(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> f64 {
        DateAdapter::default().time_of_civil(Civil {
            year: y,
            month: mo,
            day: d,
            hour: h,
            minute: mi,
            second: s,
            millisecond: 0,
        })
    }

    #[test]
    fn times_past_the_js_date_range_are_invalid_dates() {
        let a = DateAdapter::default();
        assert_eq!(a.format(1e308, "yyyy-MM-dd"), "Invalid date");
        assert_eq!(a.format(-1e308, "yyyy-MM-dd"), "Invalid date");
        // The civil conversion clamps instead of overflowing (it panicked in debug builds).
        assert!(a.civil(1e308).year > 200_000);
        assert!(a.civil(-1e308).year < -200_000);
    }

    #[test]
    fn civil_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        for d in [-800_000i64, -1, 0, 59, 10_000, 800_000] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
        assert_eq!(utc(2015, 1, 1, 0, 0, 0), 1_420_070_400_000.0);
    }

    #[test]
    fn iso_parsing() {
        let a = DateAdapter::default();
        assert_eq!(
            a.parse("2015-01-01T12:00:00", None),
            Some(utc(2015, 1, 1, 12, 0, 0))
        );
        assert_eq!(
            a.parse("2015-01-07T03:00", None),
            Some(utc(2015, 1, 7, 3, 0, 0))
        );
        assert_eq!(a.parse("2021-03-24", None), Some(utc(2021, 3, 24, 0, 0, 0)));
        assert_eq!(a.parse("2017", None), Some(utc(2017, 1, 1, 0, 0, 0)));
        assert_eq!(
            a.parse("2015-01-01T12:00:00+02:00", None),
            Some(utc(2015, 1, 1, 10, 0, 0))
        );
        assert_eq!(
            a.parse("2015-01-01 12:00:00.5Z", None),
            Some(utc(2015, 1, 1, 12, 0, 0) + 500.0)
        );
        assert_eq!(a.parse("2015-13-01", None), None);
        assert_eq!(a.parse("hello", None), None);
        // moment falls back to `new Date(string)`; date-fns's `parseISO` does not.
        assert_eq!(
            DateAdapter::new(TokenStyle::Moment).parse("March 1, 2020", None),
            Some(utc(2020, 3, 1, 0, 0, 0))
        );
        assert_eq!(a.parse("March 1, 2020", None), None);
    }

    /// Without a format in the config, the display formats are chartjs-adapter-date-fns's,
    /// the service's adapter (issue 17): `h:mm aaaa` reads "12:00 a.m.", moment's `h:mm a`
    /// "12:00 am".
    #[test]
    fn the_default_formats_are_date_fns() {
        let a = DateAdapter::default();
        assert_eq!(a.style(), TokenStyle::DateFns);
        let midnight = utc(2024, 3, 6, 0, 0, 0);
        let f = a.formats();
        assert_eq!(a.format(midnight, f.get(TimeUnit::Minute)), "12:00 a.m.");
        assert_eq!(
            a.format(midnight, f.get(TimeUnit::Millisecond)),
            "12:00:00.000 a.m."
        );
        assert_eq!(
            a.format(midnight + 13.0 * MS_HOUR, f.get(TimeUnit::Hour)),
            "1PM"
        );
        let m = DateAdapter::new(TokenStyle::Moment);
        assert_eq!(
            m.format(midnight, m.formats().get(TimeUnit::Minute)),
            "12:00 am"
        );
    }

    #[test]
    fn fixed_offset_is_local_time() {
        let a = DateAdapter::new(TokenStyle::Moment).with_offset(120);
        assert_eq!(
            a.parse("2015-01-01T12:00:00", None),
            Some(utc(2015, 1, 1, 10, 0, 0))
        );
        assert_eq!(
            a.format(utc(2015, 1, 1, 23, 0, 0), "YYYY-MM-DD HH:mm Z"),
            "2015-01-02 01:00 +02:00"
        );
        assert_eq!(
            a.start_of(utc(2015, 1, 1, 23, 0, 0), TimeUnit::Day),
            utc(2015, 1, 1, 22, 0, 0)
        );
        assert_eq!(parse_fixed_offset("+05:30"), Some(330));
        assert_eq!(parse_fixed_offset("UTC-8"), Some(-480));
        assert_eq!(parse_fixed_offset("Europe/Paris"), None);
    }

    #[test]
    fn moment_format_parsing() {
        let a = DateAdapter::new(TokenStyle::Moment);
        assert_eq!(
            a.parse("2017", Some("YYYY")),
            Some(utc(2017, 1, 1, 0, 0, 0))
        );
        assert_eq!(
            a.parse("03/24/2021 14:05", Some("MM/DD/YYYY HH:mm")),
            Some(utc(2021, 3, 24, 14, 5, 0))
        );
        assert_eq!(
            a.parse("Mar 4 2021 2pm", Some("MMM D YYYY ha")),
            Some(utc(2021, 3, 4, 14, 0, 0))
        );
        assert_eq!(
            a.parse("1420070400", Some("X")),
            Some(utc(2015, 1, 1, 0, 0, 0))
        );
        assert_eq!(a.parse("2021-02-30", Some("YYYY-MM-DD")), None);
    }

    #[test]
    fn date_fns_format_parsing() {
        let a = DateAdapter::new(TokenStyle::DateFns);
        assert_eq!(
            a.parse("2017", Some("yyyy")),
            Some(utc(2017, 1, 1, 0, 0, 0))
        );
        assert_eq!(
            a.parse("24.03.2021", Some("dd.MM.yyyy")),
            Some(utc(2021, 3, 24, 0, 0, 0))
        );
        assert_eq!(
            a.parse("24-03-2021", Some("dd.MM.yyyy")),
            None,
            "date-fns is strict"
        );
        assert_eq!(
            a.parse("Mar 4, 2021 2:30 PM", Some("MMM d, yyyy h:mm a")),
            Some(utc(2021, 3, 4, 14, 30, 0))
        );
    }

    #[test]
    fn moment_default_formats() {
        let a = DateAdapter::new(TokenStyle::Moment);
        let f = a.formats();
        let t = utc(2015, 1, 4, 13, 5, 9) + 42.0;
        assert_eq!(a.format(t, &f.datetime), "Jan 4, 2015, 1:05:09 pm");
        assert_eq!(a.format(t, f.get(TimeUnit::Millisecond)), "1:05:09.042 pm");
        assert_eq!(a.format(t, f.get(TimeUnit::Hour)), "1PM");
        assert_eq!(a.format(t, f.get(TimeUnit::Day)), "Jan 4");
        assert_eq!(a.format(t, f.get(TimeUnit::Week)), "Jan 4, 2015");
        assert_eq!(a.format(t, f.get(TimeUnit::Month)), "Jan 2015");
        assert_eq!(a.format(t, f.get(TimeUnit::Quarter)), "Q1 - 2015");
        assert_eq!(a.format(t, f.get(TimeUnit::Year)), "2015");
        assert_eq!(
            a.format(t, "dddd Do MMMM [at] HH:mm"),
            "Sunday 4th January at 13:05"
        );
        assert_eq!(a.format(utc(2015, 1, 1, 0, 30, 0), "hA"), "12AM");
    }

    #[test]
    fn date_fns_default_formats() {
        let a = DateAdapter::new(TokenStyle::DateFns);
        let f = a.formats();
        let t = utc(2015, 1, 4, 13, 5, 9) + 42.0;
        assert_eq!(a.format(t, &f.datetime), "Jan 4, 2015, 1:05:09 p.m.");
        assert_eq!(a.format(t, f.get(TimeUnit::Hour)), "1PM");
        assert_eq!(a.format(t, f.get(TimeUnit::Day)), "Jan 4");
        assert_eq!(a.format(t, f.get(TimeUnit::Week)), "Jan 4, 2015");
        assert_eq!(a.format(t, f.get(TimeUnit::Quarter)), "Q1 - 2015");
        assert_eq!(
            a.format(t, "EEEE do MMMM 'at' HH:mm"),
            "Sunday 4th January at 13:05"
        );
        assert_eq!(a.format(t, "PPpp"), "Jan 4, 2015, 1:05:09 PM");
    }

    #[test]
    fn start_end_add_diff() {
        let a = DateAdapter::default();
        let t = utc(2015, 2, 21, 1, 30, 0); // a Saturday
        assert_eq!(a.start_of(t, TimeUnit::Week), utc(2015, 2, 15, 0, 0, 0));
        assert_eq!(a.start_of(t, TimeUnit::Quarter), utc(2015, 1, 1, 0, 0, 0));
        assert_eq!(a.start_of_iso_week(t, 1.0), utc(2015, 2, 16, 0, 0, 0));
        assert_eq!(a.end_of(t, TimeUnit::Month), utc(2015, 3, 1, 0, 0, 0) - 1.0);
        assert_eq!(
            a.add(utc(2015, 1, 31, 0, 0, 0), 1.0, TimeUnit::Month),
            utc(2015, 2, 28, 0, 0, 0)
        );
        assert_eq!(a.add(t, -1.0, TimeUnit::Year), utc(2014, 2, 21, 1, 30, 0));
        assert_eq!(
            a.diff(
                utc(2016, 1, 1, 0, 0, 0),
                utc(2015, 1, 2, 0, 0, 0),
                TimeUnit::Year
            ),
            0.0
        );
        assert_eq!(
            a.diff(
                utc(2016, 1, 2, 0, 0, 0),
                utc(2015, 1, 2, 0, 0, 0),
                TimeUnit::Year
            ),
            1.0
        );
        assert_eq!(
            a.diff(
                utc(2015, 3, 1, 0, 0, 0),
                utc(2015, 1, 31, 0, 0, 0),
                TimeUnit::Month
            ),
            1.0
        );
        assert_eq!(
            a.diff(
                utc(2015, 1, 1, 0, 0, 0),
                utc(2015, 3, 1, 0, 0, 0),
                TimeUnit::Month
            ),
            -2.0
        );
        assert_eq!(a.diff(t, t - 36.0 * MS_HOUR, TimeUnit::Day), 1.0);
    }

    #[test]
    fn locale_formats_and_weeks() {
        let a = DateAdapter::new(TokenStyle::Moment);
        let t = utc(2021, 1, 3, 0, 0, 0); // Sunday
        assert_eq!(a.format(t, "w W"), "2 53");
        assert_eq!(a.format(t, "L LT"), "01/03/2021 12:00 AM");
    }
}
