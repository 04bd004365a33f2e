//! Writing a date's fields as text (`format`): numbers, padded numbers, ordinals, names.

use super::calendar::{iso_week, locale_week, Civil, MONTHS, WEEKDAYS};
use super::token::Field;
use std::fmt::Write as _;

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

pub(super) fn write_field(
    out: &mut String,
    f: Field,
    w: u8,
    c: &Civil,
    time: f64,
    offset_minutes: i32,
) {
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
