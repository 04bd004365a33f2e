//! Format tokens: the two token languages ([`TokenStyle`]: moment's and date-fns's), each
//! adapter's default [`DisplayFormats`], and format strings split into fields and literals.

use super::unit::TimeUnit;

/// Which date library's format tokens `parser` and `displayFormats` strings use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenStyle {
    /// moment.js tokens (`YYYY-MM-DD`, `MMM D`, `hA`, `[Q]Q`): chartjs-adapter-moment, which
    /// the Chart.js fixtures use (their harness says so with `adapters.date.tokens`), and
    /// which a config's moment-only format strings select ([`TokenStyle::detect`]).
    Moment,
    /// date-fns tokens (`yyyy-MM-dd`, `MMM d`, `ha`, `qqq`): chartjs-adapter-date-fns, the
    /// adapter the service's browser engine loads. Default: a config that names no format
    /// gets date-fns's display formats (`h:mm aaaa` → "12:00 a.m.") and ISO-only parsing.
    #[default]
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

/// What a format token stands for, shared by both token languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Field {
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
pub(super) enum Tok {
    Lit(String),
    Field(Field, u8),
}

/// moment's locale formats of `en` (`L`, `LL`, `ll`, `LT`, …) expanded before tokenising.
pub(super) fn expand_moment_locale(fmt: &str) -> String {
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
pub(super) fn expand_date_fns_locale(fmt: &str) -> String {
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
pub(super) fn tokenize_moment(fmt: &str) -> Vec<Tok> {
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
pub(super) fn tokenize_date_fns(fmt: &str) -> Vec<Tok> {
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
