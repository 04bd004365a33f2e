//! The canonical JSON of a request, the text its cache key hashes: object keys in byte order
//! of their UTF-8 text at every depth, no whitespace, scalars exactly as `serde_json` writes
//! them.
//!
//! Written in one pass over the parsed config, straight into the hash, without building the
//! text or a sorted copy: an explicit stack of open containers (so nothing recurses on the
//! input's nesting), one list of key references shared by every open object (an object's
//! sorted entries sit above its parent's until it is closed), and output gathered into
//! blocks of a few KiB before the hash sees it rather than handed over token by token.

use serde_json::{Map, Number, Value};
use std::io::Write;

use crate::split::{SecondCore, SecondThread};

/// Output gathered before it is handed to the sink.
const BLOCK: usize = 8 * 1024;

/// Arrays shorter than this are written on one thread ([`CanonicalWriter::with_second_core`]):
/// a lent thread's wake-up and the ask itself (tens of µs) would cost more than half of
/// their writing (some 40 ns an element of `{"x":…,"y":…}`).
const SPLIT_MIN_ELEMENTS: usize = 4096;

/// The share of a split array's elements written by this thread, in 1/64ths: this thread
/// also hashes the other thread's text once it is written, so it takes fewer elements.
const HEAD_SHARE: usize = 26;

/// Writes canonical JSON into a sink in blocks of [`BLOCK`] bytes.
pub(crate) struct CanonicalWriter<W: Write> {
    sink: W,
    buf: Vec<u8>,
    /// What `buf` holds before it is handed to the sink: [`BLOCK`], or never for a writer
    /// whose output is `buf` itself ([`CanonicalWriter::in_memory`]).
    block: usize,
    /// Asked at the first array of [`SPLIT_MIN_ELEMENTS`] elements or more whether a
    /// second thread may write half of it.
    second_core: Option<SecondCore>,
}

/// One open container: where its next child is.
enum Open<'a> {
    /// An object whose sorted entries are `entries[next..end]` of the shared list.
    Object {
        start: usize,
        next: usize,
        end: usize,
    },
    /// An array and the rest of its elements; `bracket`: whether its end is written (not
    /// for a run of elements written apart, [`CanonicalWriter::elements`]).
    Array {
        rest: std::slice::Iter<'a, Value>,
        first: bool,
        bracket: bool,
    },
}

impl CanonicalWriter<std::io::Sink> {
    /// A writer whose output stays in its buffer ([`CanonicalWriter::into_text`]), made
    /// with room for `capacity` bytes: a part written on a lent thread, not copied block by
    /// block into a growing vector.
    fn in_memory(capacity: usize) -> Self {
        Self {
            buf: Vec::with_capacity(capacity),
            block: usize::MAX,
            ..Self::new(std::io::sink())
        }
    }

    /// The text written.
    fn into_text(self) -> Vec<u8> {
        self.buf
    }
}

impl<W: Write> CanonicalWriter<W> {
    pub(crate) fn new(sink: W) -> Self {
        Self {
            sink,
            buf: Vec::with_capacity(BLOCK + 256),
            block: BLOCK,
            second_core: None,
        }
    }

    /// A writer that asks `second_core` for a thread at the first large array (see
    /// [`SPLIT_MIN_ELEMENTS`]) and, lent one, writes part of that array's elements there
    /// into a buffer of their own, handed to the sink after the elements before them: the
    /// same bytes, in the same order.
    pub(crate) fn with_second_core(sink: W, second_core: SecondCore) -> Self {
        Self {
            second_core: Some(second_core),
            ..Self::new(sink)
        }
    }

    /// Hands what is left to the sink and returns it.
    pub(crate) fn finish(mut self) -> std::io::Result<W> {
        self.sink.write_all(&self.buf)?;
        Ok(self.sink)
    }

    pub(crate) fn raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.spill()
    }

    fn spill(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= self.block {
            self.sink.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// A string as serde_json writes it: `"`, `\` and the control characters below U+0020
    /// escaped, everything else as is. Strings without any of those (nearly all) are copied
    /// without going through serde_json's escaper.
    pub(crate) fn string(&mut self, s: &str) -> std::io::Result<()> {
        if needs_escape(s.as_bytes()) {
            serde_json::to_writer(&mut self.buf, s)?;
        } else if s.len() >= self.block {
            // A long string goes to the sink as it is, not through the buffer.
            self.buf.push(b'"');
            self.sink.write_all(&self.buf)?;
            self.sink.write_all(s.as_bytes())?;
            self.buf.clear();
            self.buf.push(b'"');
        } else {
            self.buf.push(b'"');
            self.buf.extend_from_slice(s.as_bytes());
            self.buf.push(b'"');
        }
        self.spill()
    }

    /// A scalar (a container is written by [`CanonicalWriter::object`]).
    pub(crate) fn scalar(&mut self, v: &Value) -> std::io::Result<()> {
        match v {
            Value::Null => self.buf.extend_from_slice(b"null"),
            Value::Bool(true) => self.buf.extend_from_slice(b"true"),
            Value::Bool(false) => self.buf.extend_from_slice(b"false"),
            Value::String(s) => return self.string(s),
            Value::Number(n) => self.number(n),
            // A container is not a scalar; written whole all the same.
            other => serde_json::to_writer(&mut self.buf, other)?,
        }
        self.spill()
    }

    /// A number with serde_json's digits: its writer formats integers with itoa and floats
    /// (always finite in a `Number`) with zmij's shortest form, and so does this, without
    /// going through serde's serializer for each of a config's thousands of numbers.
    fn number(&mut self, n: &Number) {
        if let Some(u) = n.as_u64() {
            self.buf
                .extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
        } else if let Some(i) = n.as_i64() {
            self.buf
                .extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
        } else if let Some(f) = n.as_f64() {
            if !whole_float(f, &mut self.buf) {
                self.buf
                    .extend_from_slice(zmij::Buffer::new().format_finite(f).as_bytes());
            }
        }
    }

    /// An object of the config and everything in it, keys sorted at every depth.
    pub(crate) fn object(&mut self, root: &Map<String, Value>) -> std::io::Result<()> {
        let mut entries: Vec<(&str, &Value)> = Vec::new();
        let mut stack: Vec<Open<'_>> = Vec::new();
        self.open_object(root, &mut entries, &mut stack)?;
        self.write_open(entries, stack)
    }

    /// Elements of an array, `,` between them, without the brackets.
    fn elements(&mut self, items: &[Value]) -> std::io::Result<()> {
        let stack = vec![Open::Array {
            rest: items.iter(),
            first: true,
            bracket: false,
        }];
        self.write_open(Vec::new(), stack)
    }

    /// Writes the rest of the open containers of `stack`.
    fn write_open<'a>(
        &mut self,
        mut entries: Vec<(&'a str, &'a Value)>,
        mut stack: Vec<Open<'a>>,
    ) -> std::io::Result<()> {
        while let Some(top) = stack.last_mut() {
            let child = match top {
                Open::Object { start, next, end } => {
                    if *next == *end {
                        entries.truncate(*start);
                        stack.pop();
                        self.raw(b"}")?;
                        continue;
                    }
                    let (key, value) = entries[*next];
                    if *next > *start {
                        self.buf.push(b',');
                    }
                    *next += 1;
                    self.string(key)?;
                    self.buf.push(b':');
                    value
                }
                Open::Array {
                    rest,
                    first,
                    bracket,
                } => {
                    let Some(value) = rest.next() else {
                        let bracket = *bracket;
                        stack.pop();
                        if bracket {
                            self.raw(b"]")?;
                        }
                        continue;
                    };
                    if !std::mem::replace(first, false) {
                        self.buf.push(b',');
                    }
                    value
                }
            };
            match child {
                Value::Object(m) => {
                    if !self.flat_object(m)? {
                        self.open_object(m, &mut entries, &mut stack)?;
                    }
                }
                Value::Array(a) => {
                    if a.len() >= SPLIT_MIN_ELEMENTS {
                        // One ask per writer, at its first large array.
                        if let Some(second) = self.second_core.take().and_then(|ask| ask()) {
                            self.split_array(a, &*second)?;
                            continue;
                        }
                    }
                    self.buf.push(b'[');
                    stack.push(Open::Array {
                        rest: a.iter(),
                        first: true,
                        bracket: true,
                    });
                }
                scalar => self.scalar(scalar)?,
            }
        }
        Ok(())
    }

    /// A large array, its first [`HEAD_SHARE`] 64ths of elements written by this thread
    /// into the sink while `second` writes the others into a buffer, handed to the sink
    /// after them.
    fn split_array(&mut self, a: &[Value], second: &dyn SecondThread) -> std::io::Result<()> {
        let (head, tail) = a.split_at(a.len() / 64 * HEAD_SHARE);
        // Room for the part's text: 40 bytes an element is more than a time series' point
        // takes (a dataset's other elements grow the buffer); pages never written cost no
        // memory.
        let room = tail.len().saturating_mul(40).min(64 << 20);
        let write_tail = || {
            let mut w = CanonicalWriter::in_memory(room);
            w.elements(tail).map(|()| w.into_text())
        };
        let mut tail_text = None;
        let mut head_done = Ok(());
        self.buf.push(b'[');
        second.join(&mut || tail_text = Some(write_tail()), &mut || {
            head_done = self.elements(head)
        });
        head_done?;
        // Not written there (a lent thread that did not run it): written here.
        let tail_text = match tail_text {
            Some(text) => text?,
            None => write_tail()?,
        };
        if !head.is_empty() && !tail.is_empty() {
            self.buf.push(b',');
        }
        self.sink.write_all(&self.buf)?;
        self.buf.clear();
        self.sink.write_all(&tail_text)?;
        self.raw(b"]")
    }

    /// Writes an object of a few scalars whose keys are already in order (a data point,
    /// `{"x":…,"y":…}`) at once, without its entries on the shared list and a frame on the
    /// stack, and returns whether it did; any other object is left to the stack.
    fn flat_object(&mut self, m: &Map<String, Value>) -> std::io::Result<bool> {
        if m.len() > 8 {
            return Ok(false);
        }
        let mut last: Option<&str> = None;
        for (k, v) in m {
            if v.is_object() || v.is_array() || last.is_some_and(|l| l >= k.as_str()) {
                return Ok(false);
            }
            last = Some(k);
        }
        self.buf.push(b'{');
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.string(k)?;
            self.buf.push(b':');
            self.scalar(v)?;
        }
        self.raw(b"}")?;
        Ok(true)
    }

    fn open_object<'a>(
        &mut self,
        m: &'a Map<String, Value>,
        entries: &mut Vec<(&'a str, &'a Value)>,
        stack: &mut Vec<Open<'a>>,
    ) -> std::io::Result<()> {
        self.buf.push(b'{');
        let start = entries.len();
        entries.extend(m.iter().map(|(k, v)| (k.as_str(), v)));
        // Keys are unique, so an unstable sort gives the one order; configs mostly come
        // sorted or nearly (`{"x": .., "y": ..}`), which the sort checks in one pass.
        let own = &mut entries[start..];
        if !own.is_sorted_by(|a, b| a.0 <= b.0) {
            own.sort_unstable_by(|a, b| a.0.cmp(b.0));
        }
        stack.push(Open::Object {
            start,
            next: start,
            end: entries.len(),
        });
        Ok(())
    }
}

/// Writes `f` as zmij writes it when it is a whole number from 1 to 2^53 in magnitude (a
/// timestamp in milliseconds, a count), and returns whether it did: its digits and `.0`,
/// zmij's fixed notation for whole floats below 1e16 (`1234e7` is `12340000000.0`).
///
/// The shortest digits of such a number are the integer's (below 2^53 the doubles are at
/// most 1 apart, so no decimal with fewer significant digits rounds to it), and itoa
/// writes them in half the time zmij takes with its general algorithm: a 10,000-point time
/// series holds 10,000 of them. Other floats are left
/// to zmij: a decimal path (at most 8 significant digits, checked exactly) measured slower
/// than zmij, its result's length depending on a longer chain of operations.
fn whole_float(f: f64, out: &mut Vec<u8>) -> bool {
    const TWO_TO_THE_53: f64 = 9_007_199_254_740_992.0;
    let a = f.abs();
    // Also refuses 0 (zmij writes `-0.0` for -0) and NaN.
    if !(1.0..=TWO_TO_THE_53).contains(&a) {
        return false;
    }
    let n = a as i64;
    if n as f64 != a {
        return false;
    }
    if f.is_sign_negative() {
        out.push(b'-');
    }
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    out.extend_from_slice(b".0");
    true
}

/// Whether serde_json escapes any byte of a string: `"`, `\\` or a control character below
/// U+0020. Long strings are checked 32 bytes at a time without stopping early inside a
/// chunk, which the compiler turns into vector compares (a word cloud's 100 MB of words are
/// all checked).
fn needs_escape(bytes: &[u8]) -> bool {
    let escaped = |b: u8| (b < 0x20) | (b == b'"') | (b == b'\\');
    if bytes.len() < 32 {
        // Keys and short values: a plain loop costs less than setting up the chunks.
        return bytes.iter().any(|&b| escaped(b));
    }
    bytes
        .chunks(32)
        .any(|chunk| chunk.iter().fold(false, |hit, &b| hit | escaped(b)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// The canonical form as it was first written, by building a sorted copy.
    pub(crate) fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = Map::with_capacity(m.len());
                for k in keys {
                    out.insert(k.clone(), sorted(&m[k]));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }

    fn written(m: &Map<String, Value>) -> String {
        let mut w = CanonicalWriter::new(Vec::new());
        w.object(m).unwrap();
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    /// A small deterministic generator (xorshift) of nested values with every kind of
    /// scalar, keys that sort differently as bytes and as characters, and strings that
    /// need escapes.
    fn below(state: &mut u64, n: u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state % n
    }

    fn random_value(state: &mut u64, depth: usize) -> Value {
        let mut next = |n: u64| below(state, n);
        const TEXT: [&str; 10] = [
            "",
            "a",
            "B",
            "é",
            "\u{0}",
            "x\"y",
            "back\\slash",
            "tab\tnew\nline",
            "\u{7f}",
            "😀",
        ];
        match next(if depth > 5 { 6 } else { 9 }) {
            0 => Value::Null,
            1 => Value::Bool(next(2) == 0),
            2 => json!(next(1 << 40) as i64 - (1 << 39)),
            3 => json!(next(1 << 20) as f64 / 7.0 - 1e5),
            4 => json!(u64::MAX - next(3)),
            5 => json!(TEXT[next(10) as usize]),
            6 | 7 => {
                let n = next(5);
                let mut m = Map::new();
                for _ in 0..n {
                    let k = format!("{}{}", TEXT[below(state, 10) as usize], below(state, 4));
                    m.insert(k, random_value(state, depth + 1));
                }
                Value::Object(m)
            }
            _ => {
                let n = next(5);
                Value::Array((0..n).map(|_| random_value(state, depth + 1)).collect())
            }
        }
    }

    #[test]
    fn random_configs_are_written_as_the_sorted_copy() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000 {
            let mut m = Map::new();
            for i in 0..3 {
                m.insert(format!("k{i}"), random_value(&mut state, 0));
            }
            let reference = serde_json::to_string(&sorted(&Value::Object(m.clone()))).unwrap();
            assert_eq!(written(&m), reference);
        }
    }

    #[test]
    fn numbers_of_every_magnitude_have_serde_json_digits() {
        let mut state = 0x6a09_e667_f3bc_c908u64;
        let mut numbers = vec![
            json!(0),
            json!(-1),
            json!(i64::MIN),
            json!(u64::MAX),
            json!(-0.0),
            json!(1e21),
            json!(1e-7),
            json!(f64::MAX),
            json!(f64::MIN_POSITIVE),
            json!(5e-324),
        ];
        for _ in 0..5_000 {
            let bits = below(&mut state, u64::MAX);
            if let Some(n) = serde_json::Number::from_f64(f64::from_bits(bits)) {
                numbers.push(Value::Number(n));
            }
            numbers.push(json!(bits));
            numbers.push(json!(bits as i64));
        }
        let mut m = Map::new();
        m.insert("n".into(), Value::Array(numbers));
        let reference = serde_json::to_string(&Value::Object(m.clone())).unwrap();
        assert_eq!(written(&m), reference);
    }

    /// What [`whole_float`] writes of `f`, if it writes it.
    fn whole(f: f64) -> Option<String> {
        let mut out = Vec::new();
        whole_float(f, &mut out).then(|| String::from_utf8(out).unwrap())
    }

    #[test]
    fn whole_floats_have_zmij_digits() {
        let zmij = |f: f64| zmij::Buffer::new().format_finite(f).to_owned();
        let mut state = 0x510e_527f_ade6_82d1u64;
        let mut written = 0;
        let mut check = |f: f64| {
            for f in [f, -f] {
                if let Some(ours) = whole(f) {
                    assert_eq!(ours, zmij(f), "{f:e}");
                    written += 1;
                }
            }
        };
        // Whole numbers of every length, their neighbouring doubles, the range's ends.
        for _ in 0..100_000 {
            let digits = 1 + below(&mut state, 17) as u32;
            let f = below(&mut state, 10u64.pow(digits)) as f64;
            check(f);
            check(f64::from_bits(f.to_bits() + 1));
            check(f64::from_bits(f.to_bits().saturating_sub(1)));
        }
        for i in 0..64 {
            let p = (1u64 << i) as f64;
            let ten = 10u64.pow(i as u32 / 4) as f64;
            for f in [p, p - 1.0, p + 1.0, ten, 1.5, 0.5] {
                check(f);
                check(f64::from_bits(f.to_bits() + 1));
                check(f64::from_bits(f.to_bits().saturating_sub(1)));
            }
        }
        assert!(written > 150_000, "{written}");
        assert_eq!(whole(0.0), None);
        assert_eq!(whole(-0.0), None);
        assert_eq!(whole(0.5), None);
        assert_eq!(whole(1.5), None);
        assert_eq!(whole(9_007_199_254_740_994.0), None);
        assert_eq!(whole(-7.0).as_deref(), Some("-7.0"));
        assert_eq!(
            whole(9_007_199_254_740_992.0).as_deref(),
            Some("9007199254740992.0")
        );
        assert_eq!(whole(1767225600000.0).as_deref(), Some("1767225600000.0"));
    }

    #[test]
    fn large_configs_cross_blocks_and_deep_ones_do_not_recurse() {
        let points: Vec<Value> = (0..5_000)
            .map(|i| json!({"y": f64::from(i) * 0.1, "x": i}))
            .collect();
        let Value::Object(m) = json!({"data": {"datasets": [{"data": points}]}, "type": "line"})
        else {
            unreachable!()
        };
        let reference = serde_json::to_string(&sorted(&Value::Object(m.clone()))).unwrap();
        assert!(reference.len() > 10 * BLOCK);
        assert_eq!(written(&m), reference);
        // Points already in key order, written by `flat_object`, with strings and literals.
        let points: Vec<Value> = (0..5_000)
            .map(|i| json!({"a": null, "x": i, "y": f64::from(i) * 0.1, "z": format!("p\"{i}")}))
            .collect();
        let Value::Object(m) = json!({"data": points, "e": {}, "f": {"b": true, "a": false}})
        else {
            unreachable!()
        };
        let reference = serde_json::to_string(&sorted(&Value::Object(m.clone()))).unwrap();
        assert_eq!(written(&m), reference);
        // Strings longer than a block, with and without escapes, among short ones.
        let long = "w".repeat(3 * BLOCK + 5);
        let escaped = format!("{}\"{}", "a".repeat(BLOCK), "\u{1}".repeat(40));
        let Value::Object(m) = json!({"labels": ["a", long, "b\\", escaped, long], "z": 1}) else {
            unreachable!()
        };
        let reference = serde_json::to_string(&sorted(&Value::Object(m.clone()))).unwrap();
        assert_eq!(written(&m), reference);
        let mut deep = json!(1);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        let mut m = Map::new();
        m.insert("d".into(), deep);
        let text = written(&m);
        assert_eq!(text.len(), "{\"d\":1}".len() + 2 * 100_000);
        // A tree this deep must not be dropped recursively either.
        let mut stack = vec![m.remove("d").unwrap()];
        while let Some(v) = stack.pop() {
            if let Value::Array(a) = v {
                stack.extend(a);
            }
        }
    }

    /// What [`CanonicalWriter::with_second_core`] writes of `m`.
    fn written_split(m: &Map<String, Value>, second_core: SecondCore) -> String {
        let mut w = CanonicalWriter::with_second_core(Vec::new(), second_core);
        w.object(m).unwrap();
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    /// Large arrays of random elements (nested containers, unsorted keys, escapes, strings
    /// longer than a block) at random places, written in two parts: the one thread's bytes,
    /// whatever the lent thread does (runs there, runs here first, does not run).
    #[test]
    fn split_arrays_are_written_as_on_one_thread() {
        use crate::split::tests::{here_only, spawned, there_first};
        let mut state = 0x3c6e_f372_fe94_f82bu64;
        let long = Value::String("l\"o".repeat(BLOCK));
        for round in 0..12 {
            let n = SPLIT_MIN_ELEMENTS + round * 97 - 3 * usize::from(round == 0);
            let items: Vec<Value> = (0..n)
                .map(|i| match i % 5 {
                    0 => random_value(&mut state, 0),
                    1 if i % 1000 == 1 => long.clone(),
                    _ => json!({"y": i as f64 * 0.1, "x": 1_767_225_600_000.0 + i as f64}),
                })
                .collect();
            let big = Value::Array(items);
            let mut m = Map::new();
            m.insert("type".into(), json!("line"));
            match round % 3 {
                0 => m.insert("data".into(), json!({"datasets": [{"z": 1, "data": big}]})),
                1 => m.insert("a".into(), json!([[1, big.clone()], big])),
                _ => m.insert("labels".into(), big),
            };
            m.insert("options".into(), random_value(&mut state, 0));
            let serial = written(&m);
            assert_eq!(
                serial,
                serde_json::to_string(&sorted(&Value::Object(m.clone()))).unwrap()
            );
            for second_core in [spawned as SecondCore, here_only, there_first] {
                assert_eq!(written_split(&m, second_core), serial, "round {round}");
            }
        }
    }

    /// Only an array of [`SPLIT_MIN_ELEMENTS`] elements or more asks for the thread, and
    /// only the first.
    #[test]
    fn only_the_first_large_array_asks() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static ASKED: AtomicUsize = AtomicUsize::new(0);
        fn counting() -> Option<Box<dyn SecondThread>> {
            ASKED.fetch_add(1, Ordering::Relaxed);
            crate::split::tests::spawned()
        }
        let small = json!({"a": vec![1; SPLIT_MIN_ELEMENTS - 1]});
        let Value::Object(m) = small else {
            unreachable!()
        };
        assert_eq!(written_split(&m, counting), written(&m));
        assert_eq!(ASKED.load(Ordering::Relaxed), 0);
        let two = json!({"a": vec![1; SPLIT_MIN_ELEMENTS], "b": vec![2.5; 2 * SPLIT_MIN_ELEMENTS]});
        let Value::Object(m) = two else {
            unreachable!()
        };
        assert_eq!(written_split(&m, counting), written(&m));
        assert_eq!(ASKED.load(Ordering::Relaxed), 1);
    }
}
