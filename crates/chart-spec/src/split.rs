//! A second thread for the request's prefix: the work done on a large body before any
//! drawing starts, its JSON parse ([`crate::budget::parse_json_split`]) and its cache key
//! ([`crate::RenderOptions::hash_with_core`]), done in two halves when a caller lends one.
//!
//! A 10,000-point chart's body is one array of some 300 KB between a few hundred bytes of
//! options, and a service that answers one request at a time has its second core idle while
//! it parses it (2.5–3 ms) and writes its canonical JSON into the key's hash (1 ms). Either
//! way the result is the one thread's, byte for byte: the same `Value` (containers at the
//! same exact sizes), the same refusals and errors, the same key. The caller decides whether
//! a second core is free ([`SecondCore`]); this crate has no threads of its own.
//!
//! How the parse is split: the text's middle is most likely inside that array, so the first
//! `,` after it that looks like one between two elements (a bounded look, `element_boundary`)
//! is taken for one. The lent thread reads the elements from there to the array's `]`, while
//! this thread reads the text from its start and pauses there. A guess proves itself: only
//! this thread knows what the text is at that `,` (a string's quote can only be told from
//! one that closes it by reading from the start), and it pauses only at a `,` that separates
//! two elements of an array, where the other thread's reading is exactly the one it would
//! have done. It then takes the other's elements over and reads on from their `]`. A wrong
//! guess (inside a string, an object, a small array), a fault or a budget met in the other
//! half, and this thread simply reads on from its pause alone, as it would have without the
//! other: the errors are its own.

use serde_json::Value;

use crate::parse::{parse_plain, Bound, Reader, Stop, NO_PAUSE};

/// Asked, when a request's body or config is large enough for a split to pay, whether a
/// second thread may take half of the work now: `Some` lends one, dropped when the work is
/// done (and with it what it holds: a count of busy threads, say). The results are the same
/// either way; the caller decides what the machine can spare. Default ([`no_second_core`]):
/// never.
pub type SecondCore = fn() -> Option<Box<dyn SecondThread>>;

/// A thread lent by a [`SecondCore`] (a long-lived one: starting a thread per request costs
/// more than the work it would share).
pub trait SecondThread {
    /// Runs `there` on the lent thread while `here` runs on this one, and returns once both
    /// are done; a panic in `there` is this thread's again. An implementation that runs
    /// neither, or only one, gives the same results, later.
    fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut());
}

/// The [`SecondCore`] that never lends one: everything on the calling thread.
pub fn no_second_core() -> Option<Box<dyn SecondThread>> {
    None
}

/// Bodies shorter than this are read on one thread: a lent thread's wake-up and the ask
/// itself (tens of µs) would cost more than half of their parse.
pub(crate) const SPLIT_MIN_BYTES: usize = 64 * 1024;

/// How far past the middle of the text [`element_boundary`] looks for a `,`.
const LOOK: usize = 4096;

/// How far past a `,"` [`element_boundary`] looks for the string's end, to tell an object's
/// next key (`,"y":`) from an array's next string element.
const KEY_LOOK: usize = 64;

/// [`parse_plain`] on two threads when `text` is long enough and `second_core` lends one:
/// the same `Option<Value>` (see the module docs), in about half the time when most of the
/// text is one array.
pub(crate) fn parse_plain_split(
    text: &[u8],
    bound: Bound,
    second_core: SecondCore,
) -> Option<Value> {
    let Some((mid, second)) = element_boundary(text).and_then(|mid| Some((mid, second_core()?)))
    else {
        return parse_plain(text, bound);
    };
    parse_plain_at(text, bound, mid, &*second)
}

/// [`parse_plain`] of `text` in two parts split at `mid` (a guess: anything), the part
/// after it read by `second`.
pub(crate) fn parse_plain_at(
    text: &[u8],
    bound: Bound,
    mid: usize,
    second: &dyn SecondThread,
) -> Option<Value> {
    let mut head = Reader::new(text, bound);
    let mut tail = Reader::part(text, mid.saturating_add(1), bound);
    let (mut head_stop, mut tail_stop) = (None, None);
    second.join(&mut || tail_stop = Some(tail.run(NO_PAUSE)), &mut || {
        head_stop = Some(head.run(mid))
    });
    let head_stop = match head_stop {
        Some(stop) => stop,
        // Not run: read here.
        None => head.run(mid),
    };
    match head_stop {
        Stop::Done(v) => v,
        Stop::Paused => {
            if matches!(tail_stop, Some(Stop::Closed)) {
                // Nothing changes when the two are over a budget: read on alone.
                let spliced = head.splice(tail);
                #[cfg(test)]
                tests::SPLICED.with(|n| n.set(n.get() + usize::from(spliced)));
                let _ = spliced;
            }
            match head.run(NO_PAUSE) {
                Stop::Done(v) => v,
                Stop::Paused | Stop::Closed => None,
            }
        }
        Stop::Closed => None,
    }
}

/// The first `,` within [`LOOK`] bytes past the middle of `text` (at least
/// [`SPLIT_MIN_BYTES`] long) that is followed by what can only start an array's element: a
/// container, a number, a literal, or a string not followed by `:`. A guess, read without
/// knowing whether it is inside a string; bounded (at most [`LOOK`] bytes, each `,"` looked
/// past at most [`KEY_LOOK`] bytes further).
pub(crate) fn element_boundary(text: &[u8]) -> Option<usize> {
    if text.len() < SPLIT_MIN_BYTES {
        return None;
    }
    let end = (text.len() / 2).saturating_add(LOOK).min(text.len());
    let mut from = text.len() / 2;
    while from < end {
        let comma = from + memchr::memchr(b',', text.get(from..end)?)?;
        let value = skip_whitespace(text, comma + 1, end);
        match text.get(value) {
            Some(b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => return Some(comma),
            Some(b'"') if !is_key(text, value) => return Some(comma),
            _ => {}
        }
        from = comma + 1;
    }
    None
}

/// The first byte at or after `i` (before `end`) that is not JSON whitespace, or `end`.
fn skip_whitespace(text: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(text.get(i), Some(b' ' | b'\n' | b'\t' | b'\r')) {
        i += 1;
    }
    i
}

/// Whether the string whose opening quote is at `quote` is followed by `:`, or may be: its
/// end not found within [`KEY_LOOK`] bytes counts as a key (no guess there).
fn is_key(text: &[u8], quote: usize) -> bool {
    let end = quote.saturating_add(KEY_LOOK).min(text.len());
    let mut i = quote + 1;
    while i < end {
        match text.get(i) {
            Some(b'\\') => i += 2,
            Some(b'"') => {
                let after = skip_whitespace(text, i + 1, end);
                return after >= end || text.get(after) == Some(&b':');
            }
            _ => i += 1,
        }
    }
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    thread_local! {
        /// Splits whose halves were joined, on this thread.
        pub(crate) static SPLICED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    use crate::budget::{parse_json_split, parse_json_within, JsonText};
    use crate::limits::Limits;

    /// A lent thread for tests: a scoped thread of its own.
    pub(crate) struct Spawned;

    impl SecondThread for Spawned {
        fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut()) {
            std::thread::scope(|s| {
                s.spawn(there);
                here();
            });
        }
    }

    /// The halves one after the other on this thread, in either order, or `here` alone.
    enum InTurn {
        ThereFirst,
        HereFirst,
        HereOnly,
    }

    impl SecondThread for InTurn {
        fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut()) {
            match self {
                InTurn::ThereFirst => {
                    there();
                    here();
                }
                InTurn::HereFirst => {
                    here();
                    there();
                }
                InTurn::HereOnly => here(),
            }
        }
    }

    pub(crate) fn spawned() -> Option<Box<dyn SecondThread>> {
        Some(Box::new(Spawned))
    }

    /// Lends a "thread" that runs neither half there: `here` alone.
    pub(crate) fn here_only() -> Option<Box<dyn SecondThread>> {
        Some(Box::new(InTurn::HereOnly))
    }

    /// Lends a "thread" that runs both halves here, `there` first.
    pub(crate) fn there_first() -> Option<Box<dyn SecondThread>> {
        Some(Box::new(InTurn::ThereFirst))
    }

    pub(crate) fn below(state: &mut u64, n: u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state % n
    }

    /// JSON text of every form the reader meets: numbers of every shape, strings with
    /// brackets, quotes, escapes and unicode, literals, nested containers, repeated and
    /// escaped keys, whitespace between tokens.
    pub(crate) fn random_json(state: &mut u64, out: &mut String, depth: usize) {
        const NUMBERS: [&str; 14] = [
            "0",
            "-0",
            "12",
            "-3.25",
            "1e5",
            "1E-3",
            "-2.5e+7",
            "123456789012345678901234",
            "0.30000000000000004",
            "1767225600000.0",
            "18446744073709551615",
            "-9223372036854775808",
            "0.61358952548145421",
            "5.55",
        ];
        const STRINGS: [&str; 10] = [
            r#""""#,
            r#""a""#,
            r#""[1,2]""#,
            r#""},{\"x\":1""#,
            r#""back\\slash\\""#,
            r#""\u00e9\n\t\"""#,
            "\"é😀\"",
            r#"",\"y\":""#,
            r#""]]]}}}""#,
            r#""\ud83d\ude00""#,
        ];
        const KEYS: [&str; 6] = [
            r#""x""#,
            r#""y""#,
            r#""x""#,
            r#""\u0078""#,
            r#""é""#,
            r#""""#,
        ];
        let ws = |state: &mut u64, out: &mut String| {
            if below(state, 4) == 0 {
                out.push_str([" ", "\n", "\t ", "\r\n  "][below(state, 4) as usize]);
            }
        };
        ws(state, out);
        match below(state, if depth > 4 { 5 } else { 8 }) {
            0 | 1 => out.push_str(NUMBERS[below(state, NUMBERS.len() as u64) as usize]),
            2 => out.push_str(STRINGS[below(state, STRINGS.len() as u64) as usize]),
            3 => out.push_str(["true", "false", "null"][below(state, 3) as usize]),
            4 => out.push_str(&format!("{}.{}", below(state, 1 << 40), below(state, 1000))),
            5 | 6 => {
                out.push('{');
                for i in 0..below(state, 4) {
                    if i > 0 {
                        out.push(',');
                    }
                    ws(state, out);
                    out.push_str(KEYS[below(state, KEYS.len() as u64) as usize]);
                    ws(state, out);
                    out.push(':');
                    random_json(state, out, depth + 1);
                }
                ws(state, out);
                out.push('}');
            }
            _ => {
                out.push('[');
                for i in 0..below(state, 4) {
                    if i > 0 {
                        out.push(',');
                    }
                    random_json(state, out, depth + 1);
                }
                ws(state, out);
                out.push(']');
            }
        }
        ws(state, out);
    }

    /// A request body whose `data` holds `n` random elements, points `{"x":…,"y":…}` mostly.
    pub(crate) fn random_body(state: &mut u64, n: usize) -> String {
        let mut out = String::from(
            r#"{"chart":{"type":"line","data":{"labels":["a,b","c"],"datasets":[{"label":"s","data":["#,
        );
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            if below(state, 3) > 0 {
                out.push_str(&format!(
                    r#"{{"x":{}.0,"y":{}.{}}}"#,
                    1_767_225_600_000 + i * 60_000,
                    below(state, 10),
                    below(state, 100)
                ));
            } else {
                random_json(state, &mut out, 2);
            }
        }
        out.push_str(r#"],"pointRadius":0}]},"options":{"parsing":false}},"width":800}"#);
        out
    }

    /// The lengths and capacities of every array in `v`, in order (explicit stack).
    pub(crate) fn arrays(v: &Value) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(a) => {
                    out.push((a.len(), a.capacity()));
                    stack.extend(a.iter().rev());
                }
                Value::Object(m) => stack.extend(m.values().rev()),
                _ => {}
            }
        }
        out
    }

    /// The split reading at `mid` and the serial one agree on `text` within `bound`.
    fn check_at(text: &[u8], bound: Bound, mid: usize, second: &dyn SecondThread) {
        let serial = parse_plain(text, bound);
        let split = parse_plain_at(text, bound, mid, second);
        assert_eq!(
            split.as_ref().map(arrays),
            serial.as_ref().map(arrays),
            "{mid} {}",
            String::from_utf8_lossy(text)
        );
        assert_eq!(split, serial, "{mid} {}", String::from_utf8_lossy(text));
    }

    /// Every split point of random bodies, valid ones and ones with a fault or a budget met
    /// anywhere, through a real thread and the halves in turn.
    #[test]
    fn split_reading_is_the_serial_reading_wherever_the_split() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..120 {
            let body = random_body(&mut state, 3 + round % 11);
            let mut text = body.clone().into_bytes();
            // A fault in a third of the bodies: a byte replaced, dropped or added.
            if round % 3 == 1 {
                let at = below(&mut state, text.len() as u64) as usize;
                match below(&mut state, 3) {
                    0 => text[at] = b"{}[],:\"\\x1"[below(&mut state, 10) as usize],
                    1 => drop(text.remove(at)),
                    _ => text.insert(at, b"{}[],:\"\\ "[below(&mut state, 9) as usize]),
                }
            }
            let bounds = [
                Bound::NONE,
                Bound {
                    values: below(&mut state, 200) as usize,
                    open: 2 + below(&mut state, 6) as usize,
                },
                Bound {
                    values: usize::MAX,
                    open: 4 + below(&mut state, 3) as usize,
                },
            ];
            let ways: [&dyn SecondThread; 4] = [
                &Spawned,
                &InTurn::ThereFirst,
                &InTurn::HereFirst,
                &InTurn::HereOnly,
            ];
            for bound in bounds {
                for mid in 0..=text.len() + 1 {
                    check_at(&text, bound, mid, ways[mid % ways.len()]);
                }
            }
        }
        // Most points of a body are not between two elements of an array, some hundreds are.
        let n = SPLICED.with(std::cell::Cell::get);
        assert!(n > 300, "{n}");
    }

    /// The value budget met exactly, or missed by one, with the split anywhere: whatever
    /// the halves count, the split reading stops where the serial one does.
    #[test]
    fn value_budget_is_the_serial_one_across_the_halves() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..40 {
            let body = random_body(&mut state, 12);
            let text = body.as_bytes();
            let Some(v) = parse_plain(text, Bound::NONE) else {
                continue;
            };
            let values = crate::budget::scan_json(text, JsonText::RequestBody, &Limits::default())
                .unwrap()
                .values;
            assert!(values > 10, "{}", arrays(&v).len());
            for limit in [values - 1, values, values + 1] {
                let bound = Bound {
                    values: limit,
                    open: MAX_OPEN,
                };
                assert_eq!(parse_plain(text, bound).is_some(), limit >= values);
                for mid in 0..text.len() {
                    check_at(text, bound, mid, &InTurn::ThereFirst);
                }
            }
        }
    }

    const MAX_OPEN: usize = 100;

    /// Bodies of more than 64 KiB through `parse_json_split` on a real thread: the value,
    /// the refusal or the error of `parse_json_within`, with faults and budgets anywhere.
    #[test]
    fn large_bodies_split_as_they_parse_whole() {
        let mut state = 0x6a09_e667_f3bc_c908u64;
        let mut split_found = 0;
        for round in 0..40 {
            let body = random_body(&mut state, 2_600 + round * 37);
            let mut text = body.into_bytes();
            assert!(text.len() >= SPLIT_MIN_BYTES, "{}", text.len());
            if round % 4 == 1 {
                // A fault in either half.
                let at = below(&mut state, text.len() as u64) as usize;
                text[at] = b"{}[],:\"\\x"[below(&mut state, 9) as usize];
            }
            split_found += usize::from(element_boundary(&text).is_some());
            let whole = parse_json_within(&text, JsonText::RequestBody, &Limits::default());
            let values = crate::budget::scan_json(&text, JsonText::RequestBody, &Limits::default())
                .map_or(0, |s| s.values);
            let tight = Limits {
                max_json_values: values.saturating_sub(round % 2),
                ..Limits::default()
            };
            let shallow = Limits {
                max_json_depth: 3 + round % 4,
                ..Limits::default()
            };
            for limits in [Limits::default(), tight, shallow] {
                let whole = parse_json_within(&text, JsonText::RequestBody, &limits);
                let split = parse_json_split(&text, JsonText::RequestBody, &limits, spawned);
                let show =
                    |r: &Result<Result<Value, serde_json::Error>, crate::RequestError>| match r {
                        Ok(Ok(v)) => format!("{v} {:?}", arrays(v)),
                        Ok(Err(e)) => format!("invalid: {e}"),
                        Err(e) => format!("refused: {e}"),
                    };
                assert_eq!(show(&split), show(&whole), "round {round}");
            }
            drop(whole);
        }
        assert!(split_found >= 35, "{split_found}");
        // The spliced ones were on the threads of `parse_json_split` calls: on this one.
        let n = SPLICED.with(std::cell::Cell::get);
        assert!(n >= 40, "{n}");
    }

    /// The guess: past the middle, a `,` before an element, never before a key; nothing
    /// in short texts, or when the look finds none.
    #[test]
    fn element_boundary_skips_keys_and_gives_up_when_it_finds_none() {
        // `content` where the look starts: at the text's middle.
        let at_middle = |content: &str| {
            let pad = " ".repeat(SPLIT_MIN_BYTES);
            format!("{pad}{content}{}", &pad[content.len()..])
        };
        let text = at_middle(r#"{"x":1,"y":2},{"x":3,"y":4}]"#);
        let at = element_boundary(text.as_bytes()).unwrap();
        assert_eq!(&text[at..at + 2], ",{");
        let text = at_middle(r#""a","b":1, "c" ,"d"]"#);
        let at = element_boundary(text.as_bytes()).unwrap();
        assert_eq!(&text[at..at + 5], r#", "c""#);
        assert_eq!(element_boundary(b"[1,2,3]"), None);
        assert_eq!(
            element_boundary(at_middle(r#""a":"b","c":{}"#).as_bytes()),
            None
        );
        // A string longer than the key look is taken for a key, unread.
        let long = format!(r#"1,"{}"]"#, "x".repeat(100));
        assert_eq!(element_boundary(at_middle(&long).as_bytes()), None);
        // Any bytes: no panic.
        let mut state = 1u64;
        for _ in 0..50 {
            let noise: Vec<u8> = (0..SPLIT_MIN_BYTES + 100)
                .map(|_| b",\"\\: {[1"[below(&mut state, 8) as usize])
                .collect();
            let _ = element_boundary(&noise);
        }
    }
}
