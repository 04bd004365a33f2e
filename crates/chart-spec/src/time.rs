//! Dates for Chart.js time scales: what a Chart.js date adapter does, without a date library.
//!
//! Chart.js delegates every calendar operation of its `time` and `timeseries` scales to a
//! date adapter (`parse`, `format`, `add`, `diff`, `startOf`, `endOf`). Two adapters matter:
//! `chartjs-adapter-moment` (the Chart.js image fixtures were rendered with it, so their
//! `parser` and `displayFormats` strings use moment tokens such as `YYYY-MM-DD`, `MMM D`) and
//! `chartjs-adapter-date-fns` (bundled by the browser engine of this service; its tokens differ:
//! `yyyy-MM-dd`, `MMM d`). [`DateAdapter`] implements both token styles, chosen by
//! [`TokenStyle`], with each adapter's default `displayFormats`.
//!
//! Time is milliseconds since the Unix epoch (`f64`, like a JavaScript `Date`). The "local"
//! time zone of the adapter is UTC by default, or any fixed offset ([`DateAdapter::with_offset`]).
//! Calendar arithmetic is proleptic Gregorian with English month and day names (en-US).
//!
//! No date crate: the adapters need a small, well-defined subset (fixed offsets, two token
//! languages with moment's and date-fns's exact quirks) that general date crates do not offer
//! in either token style, so the few hundred lines here are simpler than adapting one.

use std::fmt::Write as _;

/// Milliseconds in a second, minute, hour, day and week.
const MS_SECOND: f64 = 1000.0;
const MS_MINUTE: f64 = 60_000.0;
const MS_HOUR: f64 = 3_600_000.0;
const MS_DAY: f64 = 86_400_000.0;
const MS_WEEK: f64 = 604_800_000.0;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// A time unit of Chart.js's time scale (`UNITS` in scale.time), plus `isoWeek` for `startOf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimeUnit {
    /// `millisecond`.
    Millisecond,
    /// `second`.
    Second,
    /// `minute`.
    Minute,
    /// `hour`.
    Hour,
    /// `day`.
    Day,
    /// `week` (weeks start on Sunday, the en-US locale of both adapters).
    Week,
    /// `month`.
    Month,
    /// `quarter`.
    Quarter,
    /// `year`.
    Year,
}

impl TimeUnit {
    /// Every unit, smallest first (Chart.js's `UNITS` order).
    pub const ALL: [TimeUnit; 9] = [
        TimeUnit::Millisecond,
        TimeUnit::Second,
        TimeUnit::Minute,
        TimeUnit::Hour,
        TimeUnit::Day,
        TimeUnit::Week,
        TimeUnit::Month,
        TimeUnit::Quarter,
        TimeUnit::Year,
    ];

    /// Parses a Chart.js unit name (`"day"`, …). Unknown names give `None`.
    pub fn from_name(name: &str) -> Option<TimeUnit> {
        Some(match name {
            "millisecond" => TimeUnit::Millisecond,
            "second" => TimeUnit::Second,
            "minute" => TimeUnit::Minute,
            "hour" => TimeUnit::Hour,
            "day" => TimeUnit::Day,
            "week" | "isoWeek" => TimeUnit::Week,
            "month" => TimeUnit::Month,
            "quarter" => TimeUnit::Quarter,
            "year" => TimeUnit::Year,
            _ => return None,
        })
    }

    /// The Chart.js name of the unit.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Millisecond => "millisecond",
            TimeUnit::Second => "second",
            TimeUnit::Minute => "minute",
            TimeUnit::Hour => "hour",
            TimeUnit::Day => "day",
            TimeUnit::Week => "week",
            TimeUnit::Month => "month",
            TimeUnit::Quarter => "quarter",
            TimeUnit::Year => "year",
        }
    }

    /// Position in [`TimeUnit::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Which date library's format tokens `parser` and `displayFormats` strings use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenStyle {
    /// moment.js tokens (`YYYY-MM-DD`, `MMM D`, `hA`, `[Q]Q`): chartjs-adapter-moment, which
    /// the Chart.js fixtures use. Default, because Chart.js's own tests and docs use it.
    #[default]
    Moment,
    /// date-fns tokens (`yyyy-MM-dd`, `MMM d`, `ha`, `qqq`): chartjs-adapter-date-fns.
    DateFns,
}

impl TokenStyle {
    /// Reads `adapters.date.tokens` (`'moment'` or `'date-fns'`), chart-raster's own key for
    /// choosing the token language explicitly (the real adapters ignore unknown keys).
    pub fn from_name(name: &str) -> Option<TokenStyle> {
        match name {
            "moment" => Some(TokenStyle::Moment),
            "date-fns" | "datefns" | "date_fns" => Some(TokenStyle::DateFns),
            _ => None,
        }
    }

    /// Guesses the token language of the format strings a config uses (`parser`,
    /// `displayFormats`, `tooltipFormat`), when `adapters.date.tokens` does not say.
    ///
    /// The two languages are told apart by tokens that only make sense in one of them:
    /// `YYYY`, `D`/`DD` (day of month), `[literal]`, `A` are moment's (date-fns rejects `YYYY`
    /// and `D` without opt-in flags and has no `A` or brackets); `yyyy`, `d` (day of month
    /// alone, not moment's `ddd` weekday), `'literal'`, `EEE`, `aaaa`, `P`, `p` are date-fns's.
    /// `None` when no format decides (e.g. `'MMM'`, `'HH:mm'`: both read them the same).
    pub fn detect<'a>(formats: impl IntoIterator<Item = &'a str>) -> Option<TokenStyle> {
        let mut fns = false;
        for f in formats {
            let mut in_quote = false;
            let chars: Vec<char> = f.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                match c {
                    '\'' => {
                        in_quote = !in_quote;
                        fns = true;
                    }
                    _ if in_quote => {}
                    'Y' | 'D' | 'A' | '[' => return Some(TokenStyle::Moment),
                    'y' | 'E' | 'P' | 'p' => fns = true,
                    'd' => {
                        let run = chars[i..].iter().take_while(|&&x| x == 'd').count();
                        let prev_d = i > 0 && chars[i - 1] == 'd';
                        if !prev_d && run <= 2 && chars.get(i + run) != Some(&'o') {
                            fns = true;
                        }
                    }
                    _ => {}
                }
            }
        }
        fns.then_some(TokenStyle::DateFns)
    }
}

/// The `displayFormats` of a time scale: one format per unit plus `datetime` (tooltips).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayFormats {
    /// `datetime`.
    pub datetime: String,
    /// Indexed by [`TimeUnit::index`].
    pub units: [String; 9],
}

impl DisplayFormats {
    /// The defaults of the adapter for `style`: chartjs-adapter-moment 1.0.1's `FORMATS`
    /// (`'MMM D'` for days, `'ll'` for weeks, `'[Q]Q - YYYY'`…) or chartjs-adapter-date-fns
    /// 3.0.0's (`'MMM d'`, `'PP'`, `'qqq - yyyy'`…).
    pub fn defaults(style: TokenStyle) -> Self {
        let list: [&str; 10] = match style {
            TokenStyle::Moment => [
                "MMM D, YYYY, h:mm:ss a",
                "h:mm:ss.SSS a",
                "h:mm:ss a",
                "h:mm a",
                "hA",
                "MMM D",
                "ll",
                "MMM YYYY",
                "[Q]Q - YYYY",
                "YYYY",
            ],
            TokenStyle::DateFns => [
                "MMM d, yyyy, h:mm:ss aaaa",
                "h:mm:ss.SSS aaaa",
                "h:mm:ss aaaa",
                "h:mm aaaa",
                "ha",
                "MMM d",
                "PP",
                "MMM yyyy",
                "qqq - yyyy",
                "yyyy",
            ],
        };
        DisplayFormats {
            datetime: list[0].to_owned(),
            units: std::array::from_fn(|i| list[i + 1].to_owned()),
        }
    }

    /// The format of a unit.
    pub fn get(&self, unit: TimeUnit) -> &str {
        &self.units[unit.index()]
    }

    /// Replaces the format of the unit named `key` (or `datetime`); false for unknown keys.
    pub fn set(&mut self, key: &str, format: &str) -> bool {
        if key == "datetime" {
            self.datetime = format.to_owned();
            return true;
        }
        match TimeUnit::from_name(key) {
            Some(u) => {
                self.units[u.index()] = format.to_owned();
                true
            }
            None => false,
        }
    }
}

/// Broken-down local time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// Full year (proleptic Gregorian, may be ≤ 0).
    pub year: i64,
    /// 1..=12.
    pub month: u32,
    /// 1..=31.
    pub day: u32,
    /// 0..=23.
    pub hour: u32,
    /// 0..=59.
    pub minute: u32,
    /// 0..=59.
    pub second: u32,
    /// 0..=999.
    pub millisecond: u32,
}

/// Days since 1970-01-01 of a civil date (Gregorian, valid for any year).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Civil {
    /// Local milliseconds (epoch-based, without the zone offset applied).
    fn to_local_ms(self) -> f64 {
        let days = days_from_civil(self.year, self.month, self.day) as f64;
        days * MS_DAY
            + f64::from(self.hour) * MS_HOUR
            + f64::from(self.minute) * MS_MINUTE
            + f64::from(self.second) * MS_SECOND
            + f64::from(self.millisecond)
    }

    fn from_local_ms(ms: f64) -> Civil {
        let ms = ms.floor();
        let days = (ms / MS_DAY).floor();
        let rem = (ms - days * MS_DAY) as i64;
        let (year, month, day) = civil_from_days(days as i64);
        Civil {
            year,
            month,
            day,
            hour: (rem / 3_600_000) as u32,
            minute: (rem / 60_000 % 60) as u32,
            second: (rem / 1000 % 60) as u32,
            millisecond: (rem % 1000) as u32,
        }
    }

    /// Day of week, 0 = Sunday.
    pub fn weekday(&self) -> u32 {
        (days_from_civil(self.year, self.month, self.day) + 4).rem_euclid(7) as u32
    }

    /// Day of the year, 1-based.
    pub fn day_of_year(&self) -> u32 {
        (days_from_civil(self.year, self.month, self.day) - days_from_civil(self.year, 1, 1)) as u32
            + 1
    }
}

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
    /// style, or ISO 8601 (and a few `Date`-parseable forms) without one. `None` when invalid.
    pub fn parse(&self, value: &str, format: Option<&str>) -> Option<f64> {
        match format {
            Some(fmt) => self.parse_with_format(value, fmt),
            None => self
                .parse_iso(value)
                .or_else(|| self.parse_loose(value.trim())),
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
        if !time.is_finite() {
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

/// A valid date, or 24:00:00 (ISO 8601's end of day, which both libraries accept).
fn valid_or_end_of_day(c: &Civil) -> bool {
    valid_civil(c) || (c.hour == 24 && c.minute == 0 && c.second == 0)
}

fn valid_civil(c: &Civil) -> bool {
    (1..=12).contains(&c.month)
        && c.day >= 1
        && c.day <= days_in_month(c.year, c.month)
        && c.hour < 24
        && c.minute < 60
        && c.second < 60
}

fn month_from_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.to_ascii_lowercase().starts_with(&w))
        .map(|i| i as u32 + 1)
}

fn weekday_from_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 2 {
        return None;
    }
    WEEKDAYS
        .iter()
        .position(|d| d.to_ascii_lowercase().starts_with(&w))
        .map(|i| i as u32)
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn peek_digit(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn digit(&mut self) -> Option<u32> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            self.i += 1;
            Some(u32::from(c - b'0'))
        } else {
            None
        }
    }
    fn fixed_digits(&mut self, n: usize) -> Option<u64> {
        let mut v = 0u64;
        for _ in 0..n {
            v = v * 10 + u64::from(self.digit()?);
        }
        Some(v)
    }
    /// `Z`, `±HH:mm`, `±HHmm`, `±HH` or nothing; the offset in ms east of UTC.
    fn zone(&mut self) -> Option<Option<f64>> {
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

/// What a format token stands for, shared by both token languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    /// Year; width 2 = two digits, otherwise at least `width` digits.
    Year,
    /// Quarter number (`Q`); width 3 = `Q1`, 4 = `1st quarter`.
    Quarter,
    /// Month: width 1–2 numeric, 3 = `Jan`, 4 = `January`, 5 = `J`.
    Month,
    /// Month as ordinal (`Mo`).
    MonthOrdinal,
    /// Day of month, width 1–2.
    Day,
    /// Day of month ordinal (`Do` / `do`).
    DayOrdinal,
    /// Day of year, width 1–3.
    DayOfYear,
    /// Weekday: 1 = number (0 Sunday), 2 = `Su`, 3 = `Sun`, 4 = `Sunday`, 5 = `S`.
    Weekday,
    /// ISO weekday number (1 Monday … 7 Sunday).
    IsoWeekday,
    /// Weekday ordinal (`do` in moment).
    WeekdayOrdinal,
    /// Week of year (locale: weeks start Sunday, week 1 contains Jan 1).
    Week,
    /// ISO week of year.
    IsoWeek,
    /// Hour 0–23.
    Hour24,
    /// Hour 1–24 (`k`).
    Hour24From1,
    /// Hour 1–12.
    Hour12,
    /// Hour 0–11 (`K` in date-fns).
    Hour12From0,
    /// Minute.
    Minute,
    /// Second.
    Second,
    /// Fraction of a second with `width` digits.
    Fraction,
    /// Meridiem: 0 = `am` lowercase, 1 = `AM` uppercase, 2 = `a.m.`, 3 = `a`/`p`.
    Meridiem,
    /// Unix seconds (`X`).
    UnixSeconds,
    /// Unix milliseconds (`x`).
    UnixMillis,
    /// Zone offset: 1 = `+00:00`, 2 = `+0000`, 3 = `GMT+0`.
    Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Lit(String),
    Field(Field, u8),
}

/// moment's locale formats of `en` (`L`, `LL`, `ll`, `LT`, …) expanded before tokenising.
fn expand_moment_locale(fmt: &str) -> String {
    // Longest first so `LLLL` is not read as `LL` + `LL`.
    const TABLE: [(&str, &str); 10] = [
        ("LLLL", "dddd, MMMM D, YYYY h:mm A"),
        ("llll", "ddd, MMM D, YYYY h:mm A"),
        ("LLL", "MMMM D, YYYY h:mm A"),
        ("lll", "MMM D, YYYY h:mm A"),
        ("LTS", "h:mm:ss A"),
        ("LL", "MMMM D, YYYY"),
        ("ll", "MMM D, YYYY"),
        ("LT", "h:mm A"),
        ("L", "MM/DD/YYYY"),
        ("l", "M/D/YYYY"),
    ];
    let mut out = String::new();
    let mut rest = fmt;
    'outer: while !rest.is_empty() {
        if rest.starts_with('[') {
            if let Some(end) = rest.find(']') {
                out.push_str(&rest[..=end]);
                rest = &rest[end + 1..];
                continue;
            }
        }
        for (k, v) in TABLE {
            if rest.starts_with(k) {
                out.push_str(v);
                rest = &rest[k.len()..];
                continue 'outer;
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out
}

/// date-fns's en-US long formats (`P`, `PP`, `p`, `PPpp`, …) expanded before tokenising.
fn expand_date_fns_locale(fmt: &str) -> String {
    let date = |n: usize| match n {
        1 => "MM/dd/yyyy",
        2 => "MMM d, y",
        3 => "MMMM do, y",
        _ => "EEEE, MMMM do, y",
    };
    let time = |n: usize| match n {
        1 => "h:mm a",
        2 => "h:mm:ss a",
        3 => "h:mm:ss a z",
        _ => "h:mm:ss a zzzz",
    };
    let b: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '\'' {
            // Quoted literal: copy through to the closing quote.
            out.push('\'');
            i += 1;
            while i < b.len() {
                out.push(b[i]);
                if b[i] == '\'' {
                    if b.get(i + 1) == Some(&'\'') {
                        out.push('\'');
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        if b[i] == 'P' || b[i] == 'p' {
            let c = b[i];
            let mut n = 0;
            while i < b.len() && b[i] == c {
                n += 1;
                i += 1;
            }
            if c == 'P' && i < b.len() && b[i] == 'p' {
                let mut m = 0;
                while i < b.len() && b[i] == 'p' {
                    m += 1;
                    i += 1;
                }
                // en-US dateTime: medium/short "{{date}}, {{time}}", full/long "… 'at' …".
                let join = if n >= 3 { " 'at' " } else { ", " };
                out.push_str(date(n));
                out.push_str(join);
                out.push_str(time(m));
            } else if c == 'P' {
                out.push_str(date(n));
            } else {
                out.push_str(time(n));
            }
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

fn push_lit(toks: &mut Vec<Tok>, s: &str) {
    if let Some(Tok::Lit(prev)) = toks.last_mut() {
        prev.push_str(s);
    } else {
        toks.push(Tok::Lit(s.to_owned()));
    }
}

/// Splits a moment format into fields and literals (`[...]` escapes).
fn tokenize_moment(fmt: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '[' {
            if let Some(end) = chars[i + 1..].iter().position(|&c| c == ']') {
                let lit: String = chars[i + 1..i + 1 + end].iter().collect();
                push_lit(&mut toks, &lit);
                i += end + 2;
                continue;
            }
        }
        let mut n = 1;
        while i + n < chars.len() && chars[i + n] == ch {
            n += 1;
        }
        let next_o = chars.get(i + n) == Some(&'o');
        let w = n.min(255) as u8;
        let field = match ch {
            'Y' if n == 2 => Some((Field::Year, 2)),
            'Y' => Some((Field::Year, w)),
            'Q' if next_o => Some((Field::Quarter, 6)),
            'Q' => Some((Field::Quarter, 1)),
            'M' if next_o && n == 1 => Some((Field::MonthOrdinal, 1)),
            'M' => Some((Field::Month, w.min(4))),
            'D' if next_o && n == 1 => Some((Field::DayOrdinal, 1)),
            'D' if n <= 2 => Some((Field::Day, w)),
            'D' => Some((Field::DayOfYear, if n == 3 { 1 } else { 3 })),
            'd' if next_o && n == 1 => Some((Field::WeekdayOrdinal, 1)),
            'd' => Some((Field::Weekday, w.min(4))),
            'E' => Some((Field::IsoWeekday, 1)),
            'e' => Some((Field::Weekday, 1)),
            'w' => Some((Field::Week, w.min(2))),
            'W' => Some((Field::IsoWeek, w.min(2))),
            'H' => Some((Field::Hour24, w.min(2))),
            'h' => Some((Field::Hour12, w.min(2))),
            'k' => Some((Field::Hour24From1, w.min(2))),
            'm' => Some((Field::Minute, w.min(2))),
            's' => Some((Field::Second, w.min(2))),
            'S' => Some((Field::Fraction, w.min(9))),
            'a' => Some((Field::Meridiem, 0)),
            'A' => Some((Field::Meridiem, 1)),
            'X' => Some((Field::UnixSeconds, 1)),
            'x' => Some((Field::UnixMillis, 1)),
            'Z' => Some((Field::Zone, w.min(2))),
            _ => None,
        };
        match field {
            Some((f, width)) => {
                // Meridiem and zone tokens are single letters; repeated letters repeat them.
                let (f, width, used) = match ch {
                    'a' | 'A' | 'X' | 'x' | 'E' | 'e' => (f, width, 1),
                    'Z' => (f, width, n.min(2)),
                    'Q' => (f, width, 1),
                    _ => (f, width, n),
                };
                toks.push(Tok::Field(f, width));
                i += used;
                if next_o
                    && matches!(
                        f,
                        Field::MonthOrdinal | Field::DayOrdinal | Field::WeekdayOrdinal
                    )
                    || (f == Field::Quarter && width == 6)
                {
                    i += 1;
                    if f == Field::Quarter {
                        if let Some(Tok::Field(_, w)) = toks.last_mut() {
                            *w = 6;
                        }
                    }
                }
            }
            None => {
                let lit: String = std::iter::repeat_n(ch, n).collect();
                push_lit(&mut toks, &lit);
                i += n;
            }
        }
    }
    toks
}

/// Splits a date-fns format into fields and literals (`'...'` escapes, `''` a quote).
fn tokenize_date_fns(fmt: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '\'' {
            if chars.get(i + 1) == Some(&'\'') {
                push_lit(&mut toks, "'");
                i += 2;
                continue;
            }
            let mut lit = String::new();
            i += 1;
            while i < chars.len() {
                if chars[i] == '\'' {
                    if chars.get(i + 1) == Some(&'\'') {
                        lit.push('\'');
                        i += 2;
                        continue;
                    }
                    break;
                }
                lit.push(chars[i]);
                i += 1;
            }
            i += 1;
            push_lit(&mut toks, &lit);
            continue;
        }
        let mut n = 1;
        while i + n < chars.len() && chars[i + n] == ch {
            n += 1;
        }
        let next_o = chars.get(i + n) == Some(&'o');
        let w = n.min(255) as u8;
        let field = match ch {
            'y' | 'u' | 'Y' | 'R' if next_o => Some((Field::Year, 1)),
            'y' | 'u' | 'Y' | 'R' if n == 2 => Some((Field::Year, 2)),
            'y' | 'u' | 'Y' | 'R' => Some((Field::Year, w)),
            'Q' | 'q' if next_o => Some((Field::Quarter, 6)),
            'Q' | 'q' if n >= 3 => Some((Field::Quarter, w.min(4))),
            'Q' | 'q' => Some((Field::Quarter, if n == 2 { 2 } else { 1 })),
            'M' | 'L' if next_o => Some((Field::MonthOrdinal, 1)),
            'M' | 'L' => Some((Field::Month, w.min(5))),
            'w' if next_o => Some((Field::Week, 1)),
            'w' => Some((Field::Week, w.min(2))),
            'I' => Some((Field::IsoWeek, w.min(2))),
            'd' if next_o => Some((Field::DayOrdinal, 1)),
            'd' => Some((Field::Day, w.min(2))),
            'D' => Some((Field::DayOfYear, w.min(3))),
            'E' => Some((Field::Weekday, if n <= 3 { 3 } else { w.min(6) })),
            'i' | 'e' | 'c' if n <= 2 => Some((Field::IsoWeekday, w)),
            'i' | 'e' | 'c' => Some((Field::Weekday, w.min(6))),
            'a' | 'b' | 'B' => Some((
                Field::Meridiem,
                match n {
                    1..=2 => 1,
                    3 => 0,
                    4 => 2,
                    _ => 3,
                },
            )),
            'h' => Some((Field::Hour12, w.min(2))),
            'H' => Some((Field::Hour24, w.min(2))),
            'K' => Some((Field::Hour12From0, w.min(2))),
            'k' => Some((Field::Hour24From1, w.min(2))),
            'm' => Some((Field::Minute, w.min(2))),
            's' => Some((Field::Second, w.min(2))),
            'S' => Some((Field::Fraction, w.min(9))),
            'X' | 'x' => Some((Field::Zone, if n >= 2 { 2 } else { 1 })),
            'O' | 'z' => Some((Field::Zone, 3)),
            't' => Some((Field::UnixSeconds, 1)),
            'T' => Some((Field::UnixMillis, 1)),
            _ => None,
        };
        match field {
            Some((f, width)) => {
                toks.push(Tok::Field(f, width));
                i += n;
                let ordinal_field = matches!(
                    f,
                    Field::MonthOrdinal | Field::DayOrdinal | Field::Week | Field::Quarter
                );
                if next_o && (ordinal_field || ch == 'y') {
                    i += 1;
                    if f == Field::Week {
                        if let Some(Tok::Field(_, w)) = toks.last_mut() {
                            *w = 6;
                        }
                    }
                }
            }
            None => {
                let lit: String = std::iter::repeat_n(ch, n).collect();
                push_lit(&mut toks, &lit);
                i += n;
            }
        }
    }
    toks
}

fn ordinal(n: i64) -> String {
    let suffix = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn pad(out: &mut String, v: i64, width: usize) {
    if v < 0 {
        let _ = write!(out, "-{:0width$}", -v, width = width);
    } else {
        let _ = write!(out, "{v:0width$}");
    }
}

/// Week of the year in the en-US locale (weeks start Sunday; week 1 contains January 1).
fn locale_week(c: &Civil) -> (i64, u32) {
    let days = days_from_civil(c.year, c.month, c.day);
    let week_start = days - i64::from(c.weekday());
    // The week containing Jan 1 of the year of the week's Saturday is week 1.
    let sat = week_start + 6;
    let (year, _, _) = civil_from_days(sat);
    let jan1 = days_from_civil(year, 1, 1);
    let jan1_wd = (jan1 + 4).rem_euclid(7);
    let first_week_start = jan1 - jan1_wd;
    (year, ((week_start - first_week_start) / 7 + 1) as u32)
}

/// ISO week of the year (weeks start Monday; week 1 contains January 4).
fn iso_week(c: &Civil) -> (i64, u32) {
    let days = days_from_civil(c.year, c.month, c.day);
    let iso_wd = (days + 3).rem_euclid(7); // 0 = Monday
    let thursday = days - iso_wd + 3;
    let (year, _, _) = civil_from_days(thursday);
    let jan1 = days_from_civil(year, 1, 1);
    (year, ((thursday - jan1) / 7 + 1) as u32)
}

fn write_field(out: &mut String, f: Field, w: u8, c: &Civil, time: f64, offset_minutes: i32) {
    let w = usize::from(w);
    match f {
        Field::Year => {
            if w == 2 {
                pad(out, c.year.rem_euclid(100), 2);
            } else {
                pad(out, c.year, w.max(1));
            }
        }
        Field::Quarter => {
            let q = i64::from((c.month - 1) / 3 + 1);
            match w {
                6 => out.push_str(&ordinal(q)),
                3 => {
                    let _ = write!(out, "Q{q}");
                }
                4 => {
                    let _ = write!(out, "{} quarter", ordinal(q));
                }
                2 => pad(out, q, 2),
                _ => {
                    let _ = write!(out, "{q}");
                }
            }
        }
        Field::Month => {
            let name = MONTHS[(c.month - 1) as usize];
            match w {
                1 | 2 => pad(out, i64::from(c.month), w),
                3 => out.push_str(&name[..3]),
                4 => out.push_str(name),
                _ => out.push_str(&name[..1]),
            }
        }
        Field::MonthOrdinal => out.push_str(&ordinal(i64::from(c.month))),
        Field::Day => pad(out, i64::from(c.day), w),
        Field::DayOrdinal => out.push_str(&ordinal(i64::from(c.day))),
        Field::DayOfYear => pad(out, i64::from(c.day_of_year()), w),
        Field::Weekday => {
            let wd = c.weekday() as usize;
            let name = WEEKDAYS[wd];
            match w {
                1 => {
                    let _ = write!(out, "{wd}");
                }
                2 | 6 => out.push_str(&name[..2]),
                3 => out.push_str(&name[..3]),
                4 => out.push_str(name),
                _ => out.push_str(&name[..1]),
            }
        }
        Field::IsoWeekday => {
            let wd = c.weekday();
            pad(out, i64::from(if wd == 0 { 7 } else { wd }), w.max(1));
        }
        Field::WeekdayOrdinal => out.push_str(&ordinal(i64::from(c.weekday()))),
        Field::Week => {
            let (_, wk) = locale_week(c);
            if w == 6 {
                out.push_str(&ordinal(i64::from(wk)));
            } else {
                pad(out, i64::from(wk), w);
            }
        }
        Field::IsoWeek => {
            let (_, wk) = iso_week(c);
            pad(out, i64::from(wk), w);
        }
        Field::Hour24 => pad(out, i64::from(c.hour), w),
        Field::Hour24From1 => pad(out, i64::from(if c.hour == 0 { 24 } else { c.hour }), w),
        Field::Hour12 => {
            let h = c.hour % 12;
            pad(out, i64::from(if h == 0 { 12 } else { h }), w);
        }
        Field::Hour12From0 => pad(out, i64::from(c.hour % 12), w),
        Field::Minute => pad(out, i64::from(c.minute), w),
        Field::Second => pad(out, i64::from(c.second), w),
        Field::Fraction => {
            let ms = format!("{:03}", c.millisecond);
            let mut s: String = ms.chars().take(w).collect();
            while s.len() < w {
                s.push('0');
            }
            out.push_str(&s);
        }
        Field::Meridiem => {
            let pm = c.hour >= 12;
            out.push_str(match (w, pm) {
                (0, false) => "am",
                (0, true) => "pm",
                (1, false) => "AM",
                (1, true) => "PM",
                (2, false) => "a.m.",
                (2, true) => "p.m.",
                (_, false) => "a",
                (_, true) => "p",
            });
        }
        Field::UnixSeconds => {
            let _ = write!(out, "{}", (time / 1000.0).floor() as i64);
        }
        Field::UnixMillis => {
            let _ = write!(out, "{}", time.floor() as i64);
        }
        Field::Zone => {
            let sign = if offset_minutes < 0 { '-' } else { '+' };
            let a = offset_minutes.unsigned_abs();
            match w {
                3 => {
                    if a == 0 {
                        out.push_str("GMT");
                    } else if a.is_multiple_of(60) {
                        let _ = write!(out, "GMT{sign}{}", a / 60);
                    } else {
                        let _ = write!(out, "GMT{sign}{}:{:02}", a / 60, a % 60);
                    }
                }
                2 => {
                    let _ = write!(out, "{sign}{:02}{:02}", a / 60, a % 60);
                }
                _ => {
                    let _ = write!(out, "{sign}{:02}:{:02}", a / 60, a % 60);
                }
            }
        }
    }
}

#[derive(Debug, Default)]
struct ParseState {
    year: Option<i64>,
    month: Option<u32>,
    day: Option<u32>,
    day_of_year: Option<u32>,
    hour: Option<u32>,
    pm: Option<bool>,
    minute: Option<u32>,
    second: Option<u32>,
    millisecond: Option<u32>,
    zone_ms: Option<f64>,
    unix_ms: Option<f64>,
}

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

/// "Now", only for formats without a year (Chart.js falls back to `Date.now()` likewise).
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
}

fn field_can_start(f: Field, c: u8) -> bool {
    match f {
        Field::Month | Field::Weekday => c.is_ascii_alphanumeric(),
        Field::Meridiem => c.is_ascii_alphabetic(),
        Field::Zone => c == b'+' || c == b'-' || c == b'Z' || c == b'G',
        Field::Year | Field::UnixSeconds | Field::UnixMillis => c.is_ascii_digit() || c == b'-',
        _ => c.is_ascii_digit(),
    }
}

/// Reads one field at the start of `s`; the bytes consumed, or `None` when it does not match.
fn parse_field(f: Field, w: u8, s: &[u8], st: &mut ParseState) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            a.parse("March 1, 2020", None),
            Some(utc(2020, 3, 1, 0, 0, 0))
        );
    }

    #[test]
    fn fixed_offset_is_local_time() {
        let a = DateAdapter::default().with_offset(120);
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

#[cfg(test)]
mod detect_tests {
    use super::TokenStyle;

    #[test]
    fn detects_token_language() {
        assert_eq!(TokenStyle::detect(["YYYY-MM-DD"]), Some(TokenStyle::Moment));
        assert_eq!(TokenStyle::detect(["MMM D"]), Some(TokenStyle::Moment));
        assert_eq!(TokenStyle::detect(["ddd, MMM D"]), Some(TokenStyle::Moment));
        assert_eq!(
            TokenStyle::detect(["yyyy-MM-dd"]),
            Some(TokenStyle::DateFns)
        );
        assert_eq!(TokenStyle::detect(["MMM d"]), Some(TokenStyle::DateFns));
        assert_eq!(TokenStyle::detect(["[day] d"]), Some(TokenStyle::Moment));
        assert_eq!(
            TokenStyle::detect(["d 'of' MMMM"]),
            Some(TokenStyle::DateFns)
        );
        assert_eq!(TokenStyle::detect(["HH:mm", "MMM"]), None);
        assert_eq!(TokenStyle::from_name("date-fns"), Some(TokenStyle::DateFns));
    }
}
