//! QuickChart takes the chart as a JavaScript object literal (`{type:'bar', data:{...},}`):
//! unquoted keys, single quotes, trailing commas, comments, hex numbers, as JSON5 allows, and
//! functions. This turns such a text into strict JSON text in one forward pass over the
//! characters, with an explicit stack (nothing recurses on the input's nesting), so the
//! result can go through the same byte-level budgets (`scan_json`) and parser as a `/render`
//! body. Functions and other expressions are not evaluated: an object member holding one is
//! left out, an array element becomes `null`, and each is reported.

use std::fmt::Write;

/// Reports kept per config; the rest are counted in one last line.
const MAX_REPORTS: usize = 20;

/// The JSON text and what was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// Strict JSON, without whitespace.
    pub json: String,
    /// One line per expression not evaluated (and `NaN`/`Infinity` replaced).
    pub messages: Vec<String>,
}

/// Why the text is not a JavaScript object literal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid chart: not a JavaScript object literal: {reason} at character {at}")]
pub struct LiteralError {
    /// What is wrong.
    pub reason: &'static str,
    /// Character offset (0-based).
    pub at: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    Object,
    Array,
}

/// Where the scanner is, for messages: one segment per open container.
enum Segment {
    Key(String),
    Index(usize),
}

struct Writer {
    out: String,
    frames: Vec<Frame>,
    path: Vec<Segment>,
    /// In an object, before a member's key (after `{` or `,`).
    expect_key: bool,
    /// Output length before the current member's key: an expression value cuts back to it.
    member_start: usize,
    messages: Vec<String>,
    unreported: usize,
}

impl Writer {
    fn path(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                Segment::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Segment::Index(i) => {
                    let _ = write!(s, "[{i}]");
                }
            }
        }
        if s.is_empty() {
            s.push_str("chart");
        }
        shorten(&s, 120)
    }

    fn report(&mut self, what: &str) {
        if self.messages.len() < MAX_REPORTS {
            let line = format!("{}: {what}", self.path());
            self.messages.push(line);
        } else {
            self.unreported += 1;
        }
    }

    /// Drops a trailing comma before a closing bracket (`[1, 2,]`).
    fn close(&mut self, c: char) {
        if self.out.ends_with(',') {
            self.out.pop();
        }
        self.out.push(c);
        self.frames.pop();
        self.path.pop();
        self.expect_key = false;
    }

    fn comma(&mut self) {
        // A member left out may leave `{` or `,` last: no empty member.
        if !(self.out.ends_with(',') || self.out.ends_with('{') || self.out.ends_with('[')) {
            self.out.push(',');
        }
        match self.frames.last() {
            Some(Frame::Object) => self.expect_key = true,
            Some(Frame::Array) => {
                if let Some(Segment::Index(i)) = self.path.last_mut() {
                    *i += 1;
                }
            }
            None => {}
        }
    }

    /// A value that is not data: the member is cut, an array element becomes null.
    fn expression(&mut self, what: &str) {
        self.report(what);
        match self.frames.last() {
            Some(Frame::Object) => self.out.truncate(self.member_start),
            _ => self.out.push_str("null"),
        }
    }
}

/// `s` for a message: control characters dropped, at most `max` characters, then `…`.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Converts `src` (a JavaScript object literal or JSON) to strict JSON text.
///
/// Conversion stops at the first array or object nested deeper than `max_depth` (the config
/// object is level 1): the JSON written up to and including its bracket is returned, and
/// `scan_json` then names the `MAX_JSON_DEPTH` limit exactly as it does for a JSON config.
/// Without the stop, 10 MiB of `[` held a frame and a path segment per level (about 500 MB
/// at the peak) before the depth was checked.
pub fn to_json(src: &str, max_depth: usize) -> Result<Converted, LiteralError> {
    let chars: Vec<char> = src.chars().collect();
    let mut w = Writer {
        out: String::with_capacity(src.len()),
        frames: Vec::new(),
        path: Vec::new(),
        expect_key: false,
        member_start: 0,
        messages: Vec::new(),
        unreported: 0,
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ';' {
            i += 1;
            continue;
        }
        if c == '/' && matches!(chars.get(i + 1), Some('/') | Some('*')) {
            i = skip_comment(&chars, i)?;
            continue;
        }
        if w.expect_key && w.frames.last() == Some(&Frame::Object) && c != '}' {
            w.member_start = w.out.len();
            let (key, next) = if c == '"' || c == '\'' {
                read_string(&chars, i)?
            } else if is_ident(c) || c == '-' || c == '+' || c == '.' {
                let end = chars[i..]
                    .iter()
                    .position(|&c| !(is_ident(c) || c == '-' || c == '+' || c == '.'))
                    .map_or(chars.len(), |p| i + p);
                (chars[i..end].iter().collect(), end)
            } else {
                return Err(LiteralError {
                    reason: "expected a key",
                    at: i,
                });
            };
            push_json_string(&mut w.out, &key);
            if let Some(Segment::Key(k)) = w.path.last_mut() {
                *k = key;
            }
            w.expect_key = false;
            i = next;
            continue;
        }
        match c {
            '{' | '[' => {
                w.out.push(c);
                if w.frames.len() >= max_depth {
                    break;
                }
                if c == '{' {
                    w.frames.push(Frame::Object);
                    w.path.push(Segment::Key(String::new()));
                    w.expect_key = true;
                } else {
                    w.frames.push(Frame::Array);
                    w.path.push(Segment::Index(0));
                }
                i += 1;
            }
            '}' | ']' => {
                w.close(c);
                i += 1;
            }
            ':' => {
                w.out.push(':');
                i += 1;
            }
            ',' => {
                w.comma();
                i += 1;
            }
            '"' | '\'' => {
                let (s, next) = read_string(&chars, i)?;
                push_json_string(&mut w.out, &s);
                i = next;
            }
            c if c.is_ascii_digit() || c == '.' || c == '+' || c == '-' => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| !(is_ident(c) || c == '.' || c == '+' || c == '-'))
                    .map_or(chars.len(), |p| i + p);
                let token: String = chars[i..end].iter().collect();
                match number(&token) {
                    Some(Num::Json(n)) => w.out.push_str(&n),
                    Some(Num::NotFinite) => {
                        w.report(&format!("{token} has no JSON number; it is null"));
                        w.out.push_str("null");
                    }
                    None => {
                        return Err(LiteralError {
                            reason: "invalid number",
                            at: i,
                        })
                    }
                }
                i = end;
            }
            c if is_ident_start(c) => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| !is_ident(c))
                    .map_or(chars.len(), |p| i + p);
                let word: String = chars[i..end].iter().collect();
                let after = chars[end..].iter().find(|c| !c.is_whitespace()).copied();
                let ends_value = matches!(after, None | Some(',') | Some('}') | Some(']'));
                match word.as_str() {
                    "true" | "false" | "null" if ends_value => {
                        w.out.push_str(&word);
                        i = end;
                    }
                    "undefined" if ends_value => {
                        w.out.push_str("null");
                        i = end;
                    }
                    "NaN" | "Infinity" if ends_value => {
                        w.report(&format!("{word} has no JSON number; it is null"));
                        w.out.push_str("null");
                        i = end;
                    }
                    _ => {
                        let rest = chars[end..]
                            .iter()
                            .position(|c| !c.is_whitespace())
                            .map_or(&[][..], |p| &chars[end + p..]);
                        let what = if word == "function" || rest.starts_with(&['=', '>']) {
                            "a JavaScript function is not evaluated; the option is left out"
                        } else {
                            "a JavaScript expression is not evaluated; the option is left out"
                        };
                        w.expression(what);
                        i = skip_expression(&chars, i)?;
                    }
                }
            }
            '(' | '`' => {
                let what = if c == '(' {
                    "a JavaScript function is not evaluated; the option is left out"
                } else {
                    "a JavaScript template string is not evaluated; the option is left out"
                };
                w.expression(what);
                i = skip_expression(&chars, i)?;
            }
            _ => {
                return Err(LiteralError {
                    reason: "unexpected character",
                    at: i,
                })
            }
        }
    }
    if w.unreported > 0 {
        w.messages.push(format!(
            "{} more JavaScript expressions are not evaluated",
            w.unreported
        ));
    }
    Ok(Converted {
        json: w.out,
        messages: w.messages,
    })
}

/// Past a `//` or `/* */` comment starting at `i`.
fn skip_comment(chars: &[char], i: usize) -> Result<usize, LiteralError> {
    if chars.get(i + 1) == Some(&'/') {
        let end = chars[i..].iter().position(|&c| c == '\n');
        return Ok(end.map_or(chars.len(), |p| i + p + 1));
    }
    let mut j = i + 2;
    while j + 1 < chars.len() {
        if chars[j] == '*' && chars[j + 1] == '/' {
            return Ok(j + 2);
        }
        j += 1;
    }
    Err(LiteralError {
        reason: "unterminated comment",
        at: i,
    })
}

/// Past a JavaScript expression starting at `i`: up to the `,`, `}` or `]` that ends the
/// value, skipping strings, comments and balanced brackets (a function body, a call).
fn skip_expression(chars: &[char], mut i: usize) -> Result<usize, LiteralError> {
    let start = i;
    let unbalanced = LiteralError {
        reason: "unbalanced brackets in an expression",
        at: start,
    };
    // The closing brackets expected, innermost last.
    let mut open: Vec<char> = Vec::new();
    while i < chars.len() {
        match chars[i] {
            '"' | '\'' | '`' => {
                i = skip_quoted(chars, i)?;
                continue;
            }
            '/' if matches!(chars.get(i + 1), Some('/') | Some('*')) => {
                i = skip_comment(chars, i)?;
                continue;
            }
            '(' => open.push(')'),
            '[' => open.push(']'),
            '{' => open.push('}'),
            c @ (')' | ']' | '}') => match open.pop() {
                None => return Ok(i),
                Some(expected) if expected == c => {}
                Some(_) => return Err(unbalanced),
            },
            ',' if open.is_empty() => return Ok(i),
            _ => {}
        }
        i += 1;
    }
    if open.is_empty() {
        Ok(i)
    } else {
        Err(unbalanced)
    }
}

/// Past a quoted run (any of `'`, `"`, backtick) starting at `i`, escapes honoured.
fn skip_quoted(chars: &[char], i: usize) -> Result<usize, LiteralError> {
    let quote = chars[i];
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return Ok(j + 1),
            _ => j += 1,
        }
    }
    Err(LiteralError {
        reason: "unterminated string",
        at: i,
    })
}

/// The value of the string literal starting at `i` (quote `'` or `"`), and the index after it.
/// Escapes as JavaScript reads them: `\'`, `\xHH`, `\uHHHH`, `\0`, `\v`, a line continuation,
/// and any other character escaping itself.
fn read_string(chars: &[char], i: usize) -> Result<(String, usize), LiteralError> {
    let quote = chars[i];
    let mut s = String::new();
    let mut j = i + 1;
    let unterminated = LiteralError {
        reason: "unterminated string",
        at: i,
    };
    while j < chars.len() {
        let c = chars[j];
        if c == quote {
            return Ok((s, j + 1));
        }
        if c != '\\' {
            s.push(c);
            j += 1;
            continue;
        }
        let Some(&e) = chars.get(j + 1) else {
            return Err(unterminated);
        };
        j += 2;
        let hex = |from: usize, n: usize| -> Option<u32> {
            let digits: String = chars.get(from..from + n)?.iter().collect();
            u32::from_str_radix(&digits, 16).ok()
        };
        match e {
            'n' => s.push('\n'),
            't' => s.push('\t'),
            'r' => s.push('\r'),
            'b' => s.push('\u{8}'),
            'f' => s.push('\u{c}'),
            'v' => s.push('\u{b}'),
            '0' => s.push('\0'),
            'x' => {
                let v = hex(j, 2).ok_or(LiteralError {
                    reason: "invalid \\x escape",
                    at: j,
                })?;
                s.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                j += 2;
            }
            'u' => {
                let v = hex(j, 4).ok_or(LiteralError {
                    reason: "invalid \\u escape",
                    at: j,
                })?;
                j += 4;
                // A surrogate pair is two escapes.
                let c = if (0xD800..0xDC00).contains(&v)
                    && chars.get(j) == Some(&'\\')
                    && chars.get(j + 1) == Some(&'u')
                {
                    match hex(j + 2, 4) {
                        Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                            j += 6;
                            char::from_u32(0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(v)
                };
                s.push(c.unwrap_or('\u{fffd}'));
            }
            '\r' => {
                if chars.get(j) == Some(&'\n') {
                    j += 1;
                }
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            other => s.push(other),
        }
    }
    Err(unterminated)
}

/// `s` as a JSON string literal.
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

enum Num {
    Json(String),
    NotFinite,
}

/// A JSON5 number token (`+1`, `.5`, `5.`, `0x1F`, `-Infinity`) as JSON number text.
fn number(token: &str) -> Option<Num> {
    let (negative, body) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if body == "Infinity" || body == "NaN" {
        return Some(Num::NotFinite);
    }
    let sign = if negative { "-" } else { "" };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let v = u128::from_str_radix(hex, 16).ok()?;
        return Some(Num::Json(format!("{sign}{v}")));
    }
    if !body
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    if body.contains(|c: char| !(c.is_ascii_digit() || "eE.+-".contains(c))) {
        return None;
    }
    let v: f64 = body.parse().ok()?;
    if !v.is_finite() {
        return Some(Num::NotFinite);
    }
    // JSON wants a digit on both sides of the point: `.5` -> `0.5`, `5.` -> `5`, `5.e3` -> `5e3`.
    let mut s = String::with_capacity(body.len() + 2);
    s.push_str(sign);
    if body.starts_with('.') {
        s.push('0');
    }
    let b = body.as_bytes();
    for (k, &ch) in b.iter().enumerate() {
        let next_is_digit = b.get(k + 1).is_some_and(u8::is_ascii_digit);
        if ch == b'.' && !next_is_digit {
            continue;
        }
        s.push(ch as char);
    }
    Some(Num::Json(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(src: &str) -> String {
        to_json(src, 64).unwrap().json
    }

    #[test]
    fn json_passes_through() {
        let src = r#"{"type": "bar", "data": {"labels": ["a", "b\"c"], "datasets": [{"data": [1, -2.5e3, null, true]}]}}"#;
        let a: serde_json::Value = serde_json::from_str(src).unwrap();
        let b: serde_json::Value = serde_json::from_str(&json(src)).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn javascript_literals_become_json() {
        assert_eq!(
            json("{type:'bar', data:{labels:['Q1','it\\'s',\"x\"], datasets:[{data:[1,2,],},],},}"),
            r#"{"type":"bar","data":{"labels":["Q1","it's","x"],"datasets":[{"data":[1,2]}]}}"#
        );
        assert_eq!(
            json("{a: 0x1F, b: +1, c: .5, d: 5., e: -.25e1, f: undefined, $g_1: '\\x41\\u00e9'}"),
            r#"{"a":31,"b":1,"c":0.5,"d":5,"e":-0.25e1,"f":null,"$g_1":"Aé"}"#
        );
        assert_eq!(
            json("// a chart\n{ /* kind */ type: 'line' }"),
            r#"{"type":"line"}"#
        );
    }

    #[test]
    fn functions_are_left_out_and_reported() {
        let c = to_json(
            "{type:'bar', options:{plugins:{tooltip:{callbacks:{label: function(ctx) { return ctx.raw + '}'; }, title: (items) => items[0].label}}}, \
             scales: {y: {ticks: {callback: v => v + '%'}}}}, data: {datasets: [{data: [1, Math.PI, 3]}]}}",
            64,
        )
        .unwrap();
        assert_eq!(
            c.json,
            r#"{"type":"bar","options":{"plugins":{"tooltip":{"callbacks":{}}},"scales":{"y":{"ticks":{}}}},"data":{"datasets":[{"data":[1,null,3]}]}}"#
        );
        assert_eq!(
            c.messages,
            vec![
                "options.plugins.tooltip.callbacks.label: a JavaScript function is not evaluated; the option is left out",
                "options.plugins.tooltip.callbacks.title: a JavaScript function is not evaluated; the option is left out",
                "options.scales.y.ticks.callback: a JavaScript function is not evaluated; the option is left out",
                "data.datasets[0].data[1]: a JavaScript expression is not evaluated; the option is left out",
            ]
        );
    }

    #[test]
    fn not_finite_numbers_become_null() {
        let c = to_json("{data: [NaN, -Infinity, 1e999]}", 64).unwrap();
        assert_eq!(c.json, r#"{"data":[null,null,null]}"#);
        assert_eq!(c.messages.len(), 3);
    }

    #[test]
    fn reports_are_bounded() {
        let src = format!("[{}]", vec!["f()"; 100].join(","));
        let c = to_json(&src, 64).unwrap();
        assert_eq!(c.messages.len(), MAX_REPORTS + 1);
        assert!(c.messages[MAX_REPORTS].starts_with("80 more"));
    }

    #[test]
    fn broken_literals_are_errors() {
        for bad in [
            "{a: 'x",
            "{a: 1 /* x",
            "{a: f(1}",
            "{a: 1x}",
            "{#: 1}",
            "{a: @}",
        ] {
            assert!(to_json(bad, 64).is_err(), "{bad}");
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let src = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert_eq!(to_json(&src, usize::MAX).unwrap().json, src);
    }

    #[test]
    fn conversion_stops_past_the_depth_limit() {
        // 10 MiB of `[` used to cost about 500 MB before the depth was checked.
        let src = "[".repeat(10 << 20);
        let c = to_json(&src, 64).unwrap();
        assert_eq!(c.json, "[".repeat(65));
        // The limit itself is still converted, and so is a deep but closed text.
        let ok = format!("{{a:{}1{}}}", "[".repeat(63), "]".repeat(63));
        assert_eq!(
            to_json(&ok, 64).unwrap().json,
            format!("{{\"a\":{}1{}}}", "[".repeat(63), "]".repeat(63))
        );
    }
}
