//! `X-Chart-Messages`: the render's messages as a JSON array that is safe as a header value.

use chart_raster::{Level, Message};

/// Largest `X-Chart-Messages` value. Proxies commonly reject header blocks over 8–16 KiB.
pub const MAX_MESSAGES_HEADER_BYTES: usize = 8 * 1024;

/// Longest single message kept whole, in characters.
const MAX_MESSAGE_CHARS: usize = 1000;

/// Room kept for the final "cut" message.
const CUT_NOTE_ROOM: usize = 200;

fn level(l: Level) -> &'static str {
    match l {
        Level::Error => "error",
        Level::Warn => "warn",
        Level::Info => "info",
        Level::Log => "log",
    }
}

/// A JSON string literal using only printable ASCII: control characters and everything
/// beyond ASCII are written as `\uXXXX` (surrogate pairs above the BMP), so the value has no
/// raw newline and no byte a header cannot carry; `JSON.parse` restores the text exactly.
fn ascii_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

fn entry(m: &Message) -> String {
    let text: String = if m.message.chars().count() > MAX_MESSAGE_CHARS {
        let mut t: String = m.message.chars().take(MAX_MESSAGE_CHARS).collect();
        t.push_str("...");
        t
    } else {
        m.message.clone()
    };
    let mut out = format!("{{\"level\":\"{}\",\"message\":", level(m.level));
    ascii_json_string(&text, &mut out);
    out.push('}');
    out
}

/// The header value: `[{"level":"warn","message":"..."},...]`, printable ASCII only, at most
/// [`MAX_MESSAGES_HEADER_BYTES`]. When messages do not fit, the ones that do are kept and a
/// final warn message says how many were cut.
pub fn messages_header(messages: &[Message]) -> String {
    let mut out = String::from("[");
    let budget = MAX_MESSAGES_HEADER_BYTES - CUT_NOTE_ROOM;
    let mut kept = 0;
    for m in messages {
        let e = entry(m);
        // +1 for the comma, +1 for the closing bracket.
        if out.len() + e.len() + 2 > budget {
            break;
        }
        if kept > 0 {
            out.push(',');
        }
        out.push_str(&e);
        kept += 1;
    }
    let cut = messages.len() - kept;
    if cut > 0 {
        if kept > 0 {
            out.push(',');
        }
        out.push_str(&entry(&Message::warn(format!(
            "{cut} more message(s) cut: X-Chart-Messages is limited to \
             {MAX_MESSAGES_HEADER_BYTES} bytes"
        ))));
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_to_printable_ascii() {
        let h = messages_header(&[Message::error("a\"b\\c\nd€😀\u{1}")]);
        assert_eq!(
            h,
            r#"[{"level":"error","message":"a\"b\\c\nd\u20ac\ud83d\ude00\u0001"}]"#
        );
        let back: serde_json::Value = serde_json::from_str(&h).unwrap();
        assert_eq!(back[0]["message"], "a\"b\\c\nd€😀\u{1}");
    }

    #[test]
    fn cut_at_the_cap_with_a_final_note() {
        let many: Vec<Message> = (0..500)
            .map(|i| Message::warn(format!("message number {i} about something")))
            .collect();
        let h = messages_header(&many);
        assert!(h.len() <= MAX_MESSAGES_HEADER_BYTES, "{}", h.len());
        let v: Vec<serde_json::Value> = serde_json::from_str(&h).unwrap();
        let last = v.last().unwrap()["message"].as_str().unwrap();
        assert!(last.contains("more message(s) cut"), "{last}");
        assert_eq!(v[0]["message"], "message number 0 about something");
    }

    #[test]
    fn one_huge_message_is_shortened() {
        let h = messages_header(&[Message::info("x".repeat(100_000))]);
        assert!(h.len() <= MAX_MESSAGES_HEADER_BYTES);
        let v: Vec<serde_json::Value> = serde_json::from_str(&h).unwrap();
        assert_eq!(v.len(), 1);
        assert!(v[0]["message"].as_str().unwrap().ends_with("..."));
    }
}
