//! The common case of [`crate::budget::parse_json`]: JSON text read straight into serde_json's
//! `Value`s, without serde's visitor machinery.
//!
//! A config of 10,000 points is mostly `{"x":…,"y":…}` objects of plain decimal numbers.
//! Through serde's `Deserializer` each one costs a visitor call per value, a `Vec` of entries
//! grown from nothing before the map is made at its size, and a number parser that handles
//! every exponent and overflow, besides the map itself (its allocations and the SipHash of
//! each key, which any `serde_json::Map` costs). Here one loop reads the text with an
//! explicit stack (so nothing recurses on the input's nesting), gathers the children of the
//! open containers on two shared stacks, and makes each array and map at its exact size when
//! it closes, in the order serde_json inserts them. It also counts what it builds, so that
//! `budget::parse_json_within` needs no separate scan of a plain text's bytes.
//!
//! It is a fast path, not a second JSON parser: it gives up (`None`) on anything but the
//! plain forms, and the caller then parses the whole text with serde_json, so a text is
//! either read here into exactly the value serde_json would build, or by serde_json itself,
//! errors included. Given up on: invalid JSON of any kind, strings with escapes or control
//! characters (read by serde_json one string at a time), numbers with an exponent, more
//! than 19 digits, a `-0`, or a value serde_json might round differently from here (those
//! are also read by serde_json one number at a time), and nesting past [`MAX_NESTING`].

use serde_json::{Map, Number, Value};

/// Open containers beyond which the text is left to serde_json (which allows 127).
const MAX_NESTING: usize = 100;

/// Powers of ten a decimal fraction is divided by, each exactly representable (up to 1e22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The largest significand converted to `f64` exactly: 2^53.
const EXACT_SIGNIFICAND: u64 = 1 << 53;

/// A decimal whose significand (past 2^53) converted to `f64` and then divided by its power
/// of ten rounds to another float than the decimal's correctly rounded one.
const TWICE_ROUNDED: (&str, u64, usize) = ("0.61358952548145421", 61_358_952_548_145_421, 17);

/// Whether serde_json makes a decimal's float as this reader does past 2^53: the significand
/// converted to `f64` (rounded), then one division, as its `f64_from_parts` does without its
/// `float_roundtrip` feature. With the feature it rounds correctly, which differs on some
/// such numbers: checked once on one of them, so that a build with the feature reads them
/// through serde_json. Numbers of 16 to 19 digits are what JavaScript writes for most
/// computed values (`0.1 + 0.2` is `0.30000000000000004`).
fn rounds_as_serde_json() -> bool {
    static SAME: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SAME.get_or_init(|| {
        let (text, significand, fraction) = TWICE_ROUNDED;
        serde_json::from_str::<f64>(text).ok() == Some(significand as f64 / POW10[fraction])
    })
}

/// One open container: where its children start on the shared stacks.
#[derive(Clone, Copy)]
enum Open {
    Array { values: usize },
    Object { values: usize, keys: usize },
}

/// What comes next in the text.
#[derive(Clone, Copy)]
enum Next {
    /// A value (or, just after `[`, the array's end).
    Value,
    /// A `,` or the end of the innermost open container.
    Separator,
}

/// How much [`parse_plain`] may build before it leaves the text to the caller's checks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    /// Values (scalars and containers, as `budget::scan_json` counts them).
    pub(crate) values: usize,
    /// Containers open at once.
    pub(crate) open: usize,
}

impl Bound {
    /// No bound but the nesting this reads.
    pub(crate) const NONE: Bound = Bound {
        values: usize::MAX,
        open: MAX_NESTING,
    };
}

/// Reads `text` as JSON into the `Value` serde_json builds of it, containers at their exact
/// sizes; `None` when the text is not in the plain forms this reads (see the module), or
/// holds more values or deeper nesting than `bound`: it stops as soon as it counts one value
/// more than the bound, so it never builds more.
pub(crate) fn parse_plain(text: &[u8], bound: Bound) -> Option<Value> {
    match Reader::new(text, bound).run(NO_PAUSE) {
        Stop::Done(v) => v,
        Stop::Paused | Stop::Closed => None,
    }
}

/// A `pause` of [`Reader::run`] that is never met.
pub(crate) const NO_PAUSE: usize = usize::MAX;

/// The reading of one text by [`parse_plain`]'s loop, which can stop between two elements
/// of an array and go on later: `split` reads the rest of that array on another thread
/// meanwhile ([`Reader::part`]) and hands its elements over ([`Reader::splice`]).
pub(crate) struct Reader<'a> {
    text: &'a [u8],
    /// Where the reading began, and where it is.
    start: usize,
    pos: usize,
    /// The open containers.
    stack: Vec<Open>,
    /// The children of the open containers, in order.
    values: Vec<Value>,
    /// The keys of the open objects, in order.
    keys: Vec<Key>,
    shapes: Shapes,
    next: Next,
    /// Values built so far.
    built: usize,
    /// The deepest container met so far, empty ones included, in open containers (the one
    /// met included).
    deepest: usize,
    bound: Bound,
    /// A reader of one part of an array ([`Reader::part`]): it stops at the array's `]`.
    part: bool,
}

/// Where [`Reader::run`] stopped.
pub(crate) enum Stop {
    /// At the end of the text: its value, `None` as in [`parse_plain`].
    Done(Option<Value>),
    /// At the `pause` asked for, a `,` between two elements of an array.
    Paused,
    /// A part reader, at its array's `]`: the elements before it read.
    Closed,
}

impl<'a> Reader<'a> {
    /// A reader of the whole text.
    pub(crate) fn new(text: &'a [u8], bound: Bound) -> Self {
        Reader::at(text, 0, bound, Vec::new(), Next::Value, false)
    }

    /// A reader of the elements of an array from `pos`, just after a `,` between two of
    /// them, to the array's `]`, where it stops ([`Stop::Closed`]). `bound` is the whole
    /// text's: it builds no more values than the text may hold, and counts its nesting from
    /// the array's (level 1), for [`Reader::splice`] to check against the whole text's.
    pub(crate) fn part(text: &'a [u8], pos: usize, bound: Bound) -> Self {
        let array = vec![Open::Array { values: 0 }];
        Reader::at(text, pos, bound, array, Next::Value, true)
    }

    fn at(
        text: &'a [u8],
        pos: usize,
        bound: Bound,
        stack: Vec<Open>,
        next: Next,
        part: bool,
    ) -> Self {
        // Room for a value every 32 bytes of text (a point `{"x":…,"y":…}` is about that),
        // so the stack that becomes a 10,000-point dataset's array is not copied over and
        // over while it grows (1.2M instructions of 23M): a `Value` is 72 bytes, so 2.25
        // bytes per byte of text, at most 9 MiB (2^17 values; the pages a text of long
        // strings never touches cost no memory).
        let room = (text.len().saturating_sub(pos) / 32)
            .min(bound.values)
            .min(1 << 17);
        Reader {
            text,
            start: pos,
            pos,
            deepest: stack.len(),
            stack,
            values: Vec::with_capacity(room),
            keys: Vec::new(),
            shapes: Shapes::default(),
            next,
            built: 0,
            bound: Bound {
                values: bound.values,
                open: bound.open.min(MAX_NESTING),
            },
            part,
        }
    }

    /// Reads on until the end of the text, or until `pause` ([`NO_PAUSE`] for none) when
    /// it is the position of a `,` between two elements of an array, or, for a part
    /// reader, the `]` of its array.
    pub(crate) fn run(&mut self, pause: usize) -> Stop {
        // The loop works on locals (taken, then put back), as it did before it could stop.
        let mut stack = std::mem::take(&mut self.stack);
        let mut values = std::mem::take(&mut self.values);
        let mut keys = std::mem::take(&mut self.keys);
        let mut shapes = std::mem::take(&mut self.shapes);
        let mut at = Position {
            pos: self.pos,
            next: self.next,
            built: self.built,
            deepest: self.deepest,
        };
        let stop = read(
            self.text,
            (self.bound, self.part, pause),
            &mut at,
            (&mut stack, &mut values, &mut keys, &mut shapes),
        )
        .unwrap_or(Stop::Done(None));
        (self.stack, self.values, self.keys, self.shapes) = (stack, values, keys, shapes);
        (self.pos, self.next, self.built, self.deepest) = (at.pos, at.next, at.built, at.deepest);
        stop
    }

    /// Takes over the elements `part` read from this reader's pause to its array's `]`,
    /// where this one goes on: the reading is then the one that would have read them itself
    /// ([`Shapes`] aside, which makes the same maps either way). Nothing is done (`false`)
    /// unless this reader is paused and `part` closed, or when the two together are over
    /// this reader's bounds (the reading would have stopped in them): this reader then goes
    /// on from its pause by itself.
    pub(crate) fn splice(&mut self, mut part: Reader<'_>) -> bool {
        let paused = matches!(self.next, Next::Separator)
            && matches!(self.stack.last(), Some(Open::Array { .. }))
            && self.text.get(self.pos) == Some(&b',')
            && std::ptr::eq(part.text, self.text)
            && part.part
            && part.start == self.pos + 1
            && part.text.get(part.pos) == Some(&b']');
        if !paused {
            return false;
        }
        // The part's level 1 is this reader's innermost open array.
        let deepest = (self.stack.len() - 1).saturating_add(part.deepest);
        let built = self.built.saturating_add(part.built);
        if built > self.bound.values || deepest > self.bound.open {
            return false;
        }
        self.values.append(&mut part.values);
        self.built = built;
        self.deepest = self.deepest.max(deepest);
        self.pos = part.pos;
        true
    }
}

/// Where [`read`] is: what it must hand back when it stops.
struct Position {
    pos: usize,
    next: Next,
    built: usize,
    deepest: usize,
}

/// The loop of [`Reader::run`]. `None` is [`Stop::Done`]`(None)`.
#[allow(clippy::type_complexity)] // The reader's fields, passed apart so the loop keeps them in locals.
fn read(
    text: &[u8],
    (bound, part, pause): (Bound, bool, usize),
    at: &mut Position,
    (stack, values, keys, shapes): (&mut Vec<Open>, &mut Vec<Value>, &mut Vec<Key>, &mut Shapes),
) -> Option<Stop> {
    let max_open = bound.open;
    let mut built = at.built;
    let mut deepest = at.deepest;
    let mut p = Plain { text, pos: at.pos };
    let mut next = at.next;
    loop {
        p.skip_whitespace();
        let done = match next {
            Next::Value => {
                let b = p.peek()?;
                match b {
                    b'[' | b'{' => {
                        p.pos += 1;
                        if stack.len() >= max_open {
                            return None;
                        }
                        deepest = deepest.max(stack.len() + 1);
                        p.skip_whitespace();
                        let close = if b == b'[' { b']' } else { b'}' };
                        if p.peek()? == close {
                            p.pos += 1;
                            if b == b'[' {
                                Value::Array(Vec::new())
                            } else {
                                Value::Object(Map::new())
                            }
                        } else if b == b'[' {
                            stack.push(Open::Array {
                                values: values.len(),
                            });
                            continue;
                        } else {
                            stack.push(Open::Object {
                                values: values.len(),
                                keys: keys.len(),
                            });
                            keys.push(p.key()?);
                            continue;
                        }
                    }
                    b'"' => Value::String(p.string()?),
                    b'-' | b'0'..=b'9' => p.number()?,
                    b't' => p.literal(b"true", Value::Bool(true))?,
                    b'f' => p.literal(b"false", Value::Bool(false))?,
                    b'n' => p.literal(b"null", Value::Null)?,
                    _ => return None,
                }
            }
            Next::Separator => {
                if p.pos == pause
                    && p.peek() == Some(b',')
                    && matches!(stack.last(), Some(Open::Array { .. }))
                {
                    *at = Position {
                        pos: p.pos,
                        next,
                        built,
                        deepest,
                    };
                    return Some(Stop::Paused);
                }
                let b = p.peek()?;
                p.pos += 1;
                match (b, stack.last().copied()?) {
                    (b',', Open::Array { .. }) => {
                        next = Next::Value;
                        continue;
                    }
                    (b',', Open::Object { .. }) => {
                        p.skip_whitespace();
                        keys.push(p.key()?);
                        next = Next::Value;
                        continue;
                    }
                    (b']', Open::Array { .. }) if part && stack.len() == 1 => {
                        // A part's array ends here: its elements stay on `values`.
                        *at = Position {
                            pos: p.pos - 1,
                            next,
                            built,
                            deepest,
                        };
                        return Some(Stop::Closed);
                    }
                    (b']', Open::Array { values: start }) => {
                        stack.pop();
                        Value::Array(take_elements(values, start))
                    }
                    (
                        b'}',
                        Open::Object {
                            values: start,
                            keys: first,
                        },
                    ) => {
                        stack.pop();
                        let m = shapes.object(text, &mut keys[first..], values.drain(start..))?;
                        keys.truncate(first);
                        Value::Object(m)
                    }
                    _ => return None,
                }
            }
        };
        built += 1;
        if built > bound.values {
            return None;
        }
        if stack.is_empty() {
            p.skip_whitespace();
            return Some(Stop::Done((p.pos == text.len()).then_some(done)));
        }
        values.push(done);
        next = Next::Separator;
    }
}

/// The text and where the reading is.
struct Plain<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Plain<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// JSON's whitespace, as serde_json skips it.
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// An object key and its `:`.
    fn key(&mut self) -> Option<Key> {
        if self.peek()? != b'"' {
            return None;
        }
        let key = self.raw_string()?;
        self.skip_whitespace();
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        Some(key)
    }

    /// A string value at its opening quote.
    fn string(&mut self) -> Option<String> {
        match self.raw_string()? {
            Key::Plain { start, end } => std::str::from_utf8(self.text.get(start..end)?)
                .ok()
                .map(str::to_owned),
            Key::Decoded(s) => Some(s),
        }
    }

    /// A string at its opening quote. One without escapes or control characters is its bytes
    /// as they are (checked as UTF-8 when made a `String`); any other is read by serde_json
    /// (its escapes are serde_json's to decode).
    fn raw_string(&mut self) -> Option<Key> {
        let start = self.pos;
        let body = start + 1;
        // Keys and most values are short: their first bytes are looked at one by one before
        // handing a longer string to memchr.
        let mut end = body;
        while end < body + 16 {
            match *self.text.get(end)? {
                b'"' | b'\\' => break,
                _ => end += 1,
            }
        }
        if end == body + 16 {
            end += memchr::memchr2(b'"', b'\\', self.text.get(end..)?)?;
        }
        let raw = self.text.get(body..end)?;
        if self.text.get(end) == Some(&b'"') && !raw.iter().any(|&b| b < 0x20) {
            self.pos = end + 1;
            return Some(Key::Plain { start: body, end });
        }
        // The closing quote: the first `"` not escaped by a `\`.
        let mut i = end;
        loop {
            match *self.text.get(i)? {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        self.pos = i + 1;
        serde_json::from_slice(self.text.get(start..=i)?)
            .ok()
            .map(Key::Decoded)
    }

    /// `true`, `false` or `null`.
    fn literal(&mut self, word: &[u8], v: Value) -> Option<Value> {
        let end = self.pos + word.len();
        (self.text.get(self.pos..end)? == word).then(|| {
            self.pos = end;
            v
        })
    }

    /// A number. Integers, and decimals of at most 19 digits and 22 fraction digits, are
    /// made here as serde_json makes them (its `f64_from_parts`: the significand converted
    /// to `f64`, one division by an exact power of ten; up to 2^53 the conversion is exact
    /// and the result correctly rounded, as any parser gives it, past it only while
    /// [`rounds_as_serde_json`]); any other number token is read by serde_json.
    fn number(&mut self) -> Option<Value> {
        let start = self.pos;
        let t = self.text;
        let negative = t[start] == b'-';
        let int_start = start + usize::from(negative);
        // Digits are read and summed in one pass; past 19 of them the sum has wrapped and the
        // token goes to serde_json anyway.
        let mut significand = 0u64;
        let int_end = digits(t, int_start, &mut significand);
        let (mut end, mut fraction) = (int_end, 0);
        let dot = t.get(int_end) == Some(&b'.');
        if dot {
            end = digits(t, int_end + 1, &mut significand);
            fraction = end - int_end - 1;
        }
        let leading_zero = t.get(int_start) == Some(&b'0') && int_end - int_start > 1;
        let plain = int_end > int_start
            && !leading_zero
            && (!dot || fraction > 0)
            && !matches!(t.get(end), Some(b'e' | b'E' | b'+' | b'-' | b'.'))
            && int_end - int_start + fraction <= 19;
        if !plain {
            return self.number_token();
        }
        let n = if fraction == 0 {
            if !negative {
                Number::from(significand)
            } else if significand == 0 || significand > i64::MAX as u64 {
                // `-0` is serde_json's float -0.0; larger ones its overflow to a float.
                return self.number_token();
            } else {
                Number::from(-(significand as i64))
            }
        } else {
            if fraction >= POW10.len()
                || (significand > EXACT_SIGNIFICAND && !rounds_as_serde_json())
            {
                return self.number_token();
            }
            let f = significand as f64 / POW10[fraction];
            Number::from_f64(if negative { -f } else { f })?
        };
        self.pos = end;
        Some(Value::Number(n))
    }

    /// A number token read by serde_json: the run of bytes a number can hold.
    fn number_token(&mut self) -> Option<Value> {
        let start = self.pos;
        let mut end = start;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.text.get(end) {
            end += 1;
        }
        self.pos = end;
        match serde_json::from_slice(&self.text[start..end]).ok()? {
            v @ Value::Number(_) => Some(v),
            _ => None,
        }
    }
}

/// An object key as read, before its object is made.
enum Key {
    /// The text's bytes `start..end` (between the quotes): no escapes, no control characters.
    Plain { start: usize, end: usize },
    /// A key with escapes, as serde_json decodes it.
    Decoded(String),
}

/// The keys of the last objects read, so that a run of objects with the same keys (a
/// dataset's 10,000 `{"x":…,"y":…}` points) makes each map as a copy of a template's keys
/// and hash table rather than by hashing and inserting every key anew: per point, two SipHash
/// runs, two table probes and two UTF-8 checks become two byte comparisons.
#[derive(Default)]
struct Shapes {
    /// The keys of the last shape met twice in a row, in order, distinct, with `null` values;
    /// empty before that.
    template: Map<String, Value>,
    /// The byte ranges of the keys of the last object made without the template (empty
    /// when it had escaped or repeated keys).
    last: Vec<(usize, usize)>,
}

impl Shapes {
    /// The map of an object that closes: `keys` and `values` in the text's order, as many
    /// of each. `None` when a key is not UTF-8.
    fn object(
        &mut self,
        text: &[u8],
        keys: &mut [Key],
        values: impl Iterator<Item = Value>,
    ) -> Option<Map<String, Value>> {
        let n = keys.len();
        let mut m = Map::with_capacity(n);
        let same_keys = n == self.template.len()
            && self.template.keys().zip(keys.iter()).all(|(t, k)| match k {
                Key::Plain { start, end } => text.get(*start..*end) == Some(t.as_bytes()),
                Key::Decoded(_) => false,
            });
        if same_keys {
            // Distinct keys in the same order: what inserting them one by one would make.
            // `clone_from` keeps `m`'s table and entries, allocated at the exact size.
            m.clone_from(&self.template);
            for (slot, v) in m.values_mut().zip(values) {
                *slot = v;
            }
            return Some(m);
        }
        // Inserted in order, so a repeated key keeps its first place and its last value, as
        // in serde_json.
        for (k, v) in keys.iter_mut().zip(values) {
            let k = match k {
                Key::Plain { start, end } => std::str::from_utf8(text.get(*start..*end)?)
                    .ok()?
                    .to_owned(),
                Key::Decoded(s) => std::mem::take(s),
            };
            m.insert(k, v);
        }
        self.learn(text, keys, &m);
        Some(m)
    }

    /// Makes the keys of `m` the template when the object before it had the same ones: a
    /// config's one-off objects (its options, its datasets) cost a comparison each, not a
    /// copy of their keys.
    fn learn(&mut self, text: &[u8], keys: &[Key], m: &Map<String, Value>) {
        let plain = |k: &Key| match k {
            Key::Plain { start, end } => Some((*start, *end)),
            Key::Decoded(_) => None,
        };
        let repeated = m.len() != keys.len();
        let same_as_last = !repeated
            && self.last.len() == keys.len()
            && self.last.iter().zip(keys).all(|(&(a, b), k)| {
                plain(k).is_some_and(|(c, d)| text.get(a..b) == text.get(c..d))
            });
        self.last.clear();
        if same_as_last {
            self.template = m.keys().map(|k| (k.clone(), Value::Null)).collect();
        } else if !repeated {
            for k in keys {
                let Some(range) = plain(k) else {
                    self.last.clear();
                    return;
                };
                self.last.push(range);
            }
        }
    }
}

/// The elements of an array that closes: `values[start..]`, in a vector of their exact size.
/// A large array takes the stack's own buffer (what is below it moves to a new one), shrunk
/// to fit as serde_json's arrays were, rather than a copy: the copy would hold a 10,000-point
/// array twice at its peak.
fn take_elements(values: &mut Vec<Value>, start: usize) -> Vec<Value> {
    let len = values.len() - start;
    if len < 64 || len < start {
        return values.drain(start..).collect();
    }
    let mut all = std::mem::take(values);
    values.extend(all.drain(..start));
    all.shrink_to_fit();
    all
}

/// The end of the run of ASCII digits from `i`, each added to `sum` as the next decimal
/// digit (wrapping: the caller uses sums of at most 19 digits). Kept out of line: inlined
/// into the reading loop, its counters lived on the stack (18 instructions a digit, not 6).
#[inline(never)]
fn digits(t: &[u8], i: usize, sum: &mut u64) -> usize {
    let rest = t.get(i..).unwrap_or_default();
    let mut s = *sum;
    let mut n = 0;
    for &b in rest {
        let d = b.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        s = s.wrapping_mul(10).wrapping_add(u64::from(d));
        n += 1;
    }
    *sum = s;
    i + n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json builds of a text, for comparison as text (key order shows).
    fn serde(text: &str) -> String {
        serde_json::from_str::<Value>(text).unwrap().to_string()
    }

    #[test]
    fn plain_configs_are_read_here_as_serde_json_reads_them() {
        for text in [
            r#"{"type":"line","data":{"datasets":[{"data":[{"x":1767225600000.0,"y":0.49},{"x":-54.3,"y":-72.83}]}]}}"#,
            r#" { "a" : [ 1 , -2 , 0 , 0.0 , -0.0 , 18446744073709551615 , -9223372036854775807 ] } "#,
            r#"{"a":[],"b":{},"c":[[]],"d":[{}],"e":true,"f":false,"g":null,"h":"é😀"}"#,
            r#"{"k":1,"k":2,"j":3}"#,
            r#"[0.1,0.2,0.30000000000000004,9007199254740.992,123456789012345.6,1e3,2E-2,"a\"b\u00e9\n"]"#,
            r#"[-0,-9223372036854775808,12345678901234567890,0.12345678901234567890123]"#,
            "1.5",
            "\"x\"",
        ] {
            let ours = parse_plain(text.as_bytes(), Bound::NONE)
                .unwrap_or_else(|| panic!("gave up on {text}"));
            assert_eq!(ours.to_string(), serde(text), "{text}");
        }
    }

    /// Objects made from the template of the ones before them, and those that must not be:
    /// other keys, other orders, repeated keys, escaped keys equal to the template's once
    /// decoded, keys that are not UTF-8, nested objects of the same keys.
    #[test]
    fn repeated_shapes_are_read_as_serde_json_reads_them() {
        for text in [
            r#"[{"x":1,"y":2},{"x":3,"y":4},{"x":5,"y":6},{"y":7,"x":8},{"x":9,"y":10}]"#,
            r#"[{"x":1,"y":2},{"x":3,"y":4},{"x":5,"x":6},{"x":7,"y":8},{"x":9}]"#,
            r#"[{"x":1,"x":2},{"x":3,"x":4},{"x":5,"x":6}]"#,
            r#"[{"x":1},{"x":2},{"x":3},{"x":4},{"x":5},{"x":6}]"#,
            r#"[{"x":{"x":{"x":1}}},{"x":{"x":2}},{"x":[{"x":3},{"x":4}]}]"#,
            r#"[{"x":1,"y":2},{"x":3,"y":4},{"x":5,"y":6,"z":7},{"x":8},{"x":9,"y":10}]"#,
            r#"[{"a":1,"b":2},{"c":3,"d":4},{"a":5,"b":6},{"c":7,"d":8},{"c":9,"d":10}]"#,
            r#"[{"":1},{"":2},{"":3,"é":4},{"":5,"é":6},{"":7,"é":8}]"#,
        ] {
            let ours = parse_plain(text.as_bytes(), Bound::NONE)
                .unwrap_or_else(|| panic!("gave up on {text}"));
            assert_eq!(ours.to_string(), serde(text), "{text}");
            assert_eq!(ours, serde_json::from_str::<Value>(text).unwrap(), "{text}");
        }
        // A key that is not UTF-8 after a template of the same length: given up on.
        let mut text = br#"[{"x":1},{"x":2},{"x":3}]"#.to_vec();
        text[19] = 0xff;
        assert_eq!(parse_plain(&text, Bound::NONE), None);
        assert!(serde_json::from_slice::<Value>(&text).is_err());
    }

    /// Numbers of every shape: signs, leading zeros, 0 to 22 integer digits, 0 to 25
    /// fraction digits, exponents; read here, through the token path, or refused, always as
    /// serde_json reads them (floats compared by their shortest text, so bit for bit).
    #[test]
    fn random_numbers_are_serde_json_numbers() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut text = String::new();
        for _ in 0..20_000 {
            text.clear();
            text.push('[');
            if next(3) == 0 {
                text.push('-');
            }
            for _ in 0..next(23) {
                text.push(char::from(b'0' + next(10) as u8));
            }
            if next(2) == 0 {
                text.push('.');
                for _ in 0..next(26) {
                    text.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(8) == 0 {
                text.push_str(["e", "E-", "e+"][next(3) as usize]);
                text.push_str(&next(400).to_string());
            }
            text.push(']');
            let theirs = serde_json::from_str::<Value>(&text)
                .ok()
                .map(|v| v.to_string());
            let ours = parse_plain(text.as_bytes(), Bound::NONE).map(|v| v.to_string());
            match theirs {
                Some(t) => assert_eq!(ours, Some(t), "{text}"),
                None => assert_eq!(ours, None, "{text}"),
            }
        }
    }

    #[test]
    fn decimals_past_two_to_the_53_round_as_serde_json() {
        let (text, significand, fraction) = TWICE_ROUNDED;
        let twice = significand as f64 / POW10[fraction];
        // The example is one where the two roundings differ (else it proves nothing) ...
        assert_ne!(Some(twice), text.parse::<f64>().ok());
        // ... and this build's serde_json rounds twice, so such numbers are read here.
        assert!(rounds_as_serde_json());
        for text in [
            text,
            "0.30000000000000004",
            "-0.9400000000000001",
            "1767225600000.0001",
        ] {
            let ours = parse_plain(text.as_bytes(), Bound::NONE).map(|v| v.to_string());
            assert_eq!(ours, Some(serde(text)), "{text}");
        }
    }

    #[test]
    fn gives_up_on_invalid_text_and_deep_nesting() {
        for text in [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[-]",
            "[1e]",
            "[tru]",
            "[\"a\u{1}\"]",
            "{\"a\" 1}",
            "{1:2}",
            "[1] x",
            "[\"a",
            "[\"a\\",
            "[1 2]",
            "{\"a\":}",
            "]",
            "nul",
            "[1.5.5]",
            "[1-2]",
            "[+1]",
            "[1e999]",
        ] {
            assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
            assert_eq!(parse_plain(text.as_bytes(), Bound::NONE), None, "{text}");
        }
        assert_eq!(parse_plain(&[b'[', 0xff, b']'], Bound::NONE), None);
        assert_eq!(parse_plain(b"[\"\xff\"]", Bound::NONE), None);
        let deep = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        assert_eq!(parse_plain(deep.as_bytes(), Bound::NONE), None);
        let within = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
        assert_eq!(
            parse_plain(within.as_bytes(), Bound::NONE).map(|v| v.to_string()),
            Some(within)
        );
    }
}
