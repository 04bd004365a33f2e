//! Time units (`millisecond` … `year`) and their lengths in milliseconds.

/// Milliseconds in a second, minute, hour, day and week.
pub(super) const MS_SECOND: f64 = 1000.0;
pub(super) const MS_MINUTE: f64 = 60_000.0;
pub(super) const MS_HOUR: f64 = 3_600_000.0;
pub(super) const MS_DAY: f64 = 86_400_000.0;
pub(super) const MS_WEEK: f64 = 604_800_000.0;

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
