//! The proleptic Gregorian calendar: civil dates from and to days since the epoch, leap
//! years, ISO and locale (en-US) weeks, English month and weekday names.

use super::unit::{MS_DAY, MS_HOUR, MS_MINUTE, MS_SECOND};

pub(super) const MONTHS: [&str; 12] = [
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
pub(super) const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The largest magnitude of a JS `Date` value: 100,000,000 days either side of the epoch
/// (ECMAScript TimeClip; `new Date(8.64e15 + 1)` is an Invalid Date).
pub const MAX_TIME_MS: f64 = 8.64e15;

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

pub(super) fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Civil {
    /// Local milliseconds (epoch-based, without the zone offset applied).
    pub(super) fn to_local_ms(self) -> f64 {
        let days = days_from_civil(self.year, self.month, self.day) as f64;
        days * MS_DAY
            + f64::from(self.hour) * MS_HOUR
            + f64::from(self.minute) * MS_MINUTE
            + f64::from(self.second) * MS_SECOND
            + f64::from(self.millisecond)
    }

    pub(super) fn from_local_ms(ms: f64) -> Civil {
        // Beyond JS's date range (TimeClip) the day count would overflow the civil arithmetic
        // (a `1e308` timestamp, found by fuzzing); such times format as "Invalid date", and
        // other callers get the range's end instead of an overflow.
        let ms = ms.floor().clamp(-MAX_TIME_MS, MAX_TIME_MS);
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

/// A valid date, or 24:00:00 (ISO 8601's end of day, which both libraries accept).
pub(super) fn valid_or_end_of_day(c: &Civil) -> bool {
    valid_civil(c) || (c.hour == 24 && c.minute == 0 && c.second == 0)
}

pub(super) fn valid_civil(c: &Civil) -> bool {
    (1..=12).contains(&c.month)
        && c.day >= 1
        && c.day <= days_in_month(c.year, c.month)
        && c.hour < 24
        && c.minute < 60
        && c.second < 60
}

pub(super) fn month_from_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.to_ascii_lowercase().starts_with(&w))
        .map(|i| i as u32 + 1)
}

pub(super) fn weekday_from_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 2 {
        return None;
    }
    WEEKDAYS
        .iter()
        .position(|d| d.to_ascii_lowercase().starts_with(&w))
        .map(|i| i as u32)
}

/// Week of the year in the en-US locale (weeks start Sunday; week 1 contains January 1).
pub(super) fn locale_week(c: &Civil) -> (i64, u32) {
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
pub(super) fn iso_week(c: &Civil) -> (i64, u32) {
    let days = days_from_civil(c.year, c.month, c.day);
    let iso_wd = (days + 3).rem_euclid(7); // 0 = Monday
    let thursday = days - iso_wd + 3;
    let (year, _, _) = civil_from_days(thursday);
    let jan1 = days_from_civil(year, 1, 1);
    (year, ((thursday - jan1) / 7 + 1) as u32)
}
