//! The structure-aware input format: the bytes pick a real chart config and then drive a
//! program of mutations on it, so that AFL's coverage guidance steers config edits rather
//! than JSON syntax.
//!
//! Layout of one input: a little-endian `u16` seed word (low 14 bits: the seed, modulo the
//! number of seeds; top 2 bits: the output format of the render target), then up to
//! [`MAX_OPS`] operations. Each operation is an opcode byte followed by the argument bytes it
//! reads; a program that runs out of bytes simply stops. Every operation is bounded: node
//! selection walks at most [`MAX_WALK`] nodes and the document never grows past
//! [`WEIGHT_BUDGET`] (nodes plus string length / 256), so an input cannot make the mutator
//! itself slow or large.
//!
//! The seeds are plain config objects, one `*.json` file each, in the directory named by
//! `CHART_FUZZ_SEEDS`; `cargo xtask fuzz` fills it from every gallery example and every
//! Chart.js and plugin fixture (sorted by name, so a finding replays with the same seeds).

use serde_json::{Map, Number, Value};
use std::path::Path;

/// Operations in one program.
pub const MAX_OPS: usize = 48;
/// Nodes a selection walk visits.
pub const MAX_WALK: usize = 50_000;
/// Weight of a mutated document: one per node plus one per 256 bytes of string.
pub const WEIGHT_BUDGET: usize = 60_000;

/// The seed configs, in file-name order.
pub struct Seeds {
    configs: Vec<(String, Value)>,
}

impl Seeds {
    /// Every `*.json` file of `dir` holding an object (files that do not parse are skipped).
    pub fn load(dir: &Path) -> std::io::Result<Self> {
        let mut names: Vec<_> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        let mut configs = Vec::new();
        for p in names {
            let text = std::fs::read(&p)?;
            if let Ok(v @ Value::Object(_)) = serde_json::from_slice::<Value>(&text) {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                configs.push((name, v));
            }
        }
        Ok(Self { configs })
    }

    /// [`Seeds::load`] of `$CHART_FUZZ_SEEDS`; exits with a message when it is unset or
    /// empty (a setup error, not a finding).
    pub fn from_env() -> Self {
        let Some(dir) = std::env::var_os("CHART_FUZZ_SEEDS") else {
            eprintln!("CHART_FUZZ_SEEDS is not set (cargo xtask fuzz sets it)");
            std::process::exit(2);
        };
        match Self::load(Path::new(&dir)) {
            Ok(s) if !s.configs.is_empty() => s,
            Ok(_) => {
                eprintln!("no seed configs in {}", Path::new(&dir).display());
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("reading {}: {e}", Path::new(&dir).display());
                std::process::exit(2);
            }
        }
    }

    /// Number of seeds.
    pub fn len(&self) -> usize {
        self.configs.len()
    }

    /// No seeds.
    pub fn is_empty(&self) -> bool {
        self.configs.is_empty()
    }

    /// The file name of seed `i` (modulo the count).
    pub fn name(&self, i: usize) -> &str {
        self.pick(i).map_or("", |(n, _)| n.as_str())
    }

    fn pick(&self, i: usize) -> Option<&(String, Value)> {
        if self.configs.is_empty() {
            None
        } else {
            self.configs.get(i % self.configs.len())
        }
    }
}

/// One mutated config: the seed word (see [`crate::format_of`]), the seed's index and the
/// document.
pub struct Mutated {
    /// The first two input bytes.
    pub word: u16,
    /// The seed it started from.
    pub seed: usize,
    /// The mutated config (always an object).
    pub config: Map<String, Value>,
}

/// Decodes an input: picks the seed, runs the program. `None` for inputs under two bytes.
pub fn mutate(seeds: &Seeds, data: &[u8]) -> Option<Mutated> {
    let mut r = Reader { data, pos: 0 };
    let word = r.u16()?;
    let seed = usize::from(word & 0x3fff) % seeds.len().max(1);
    let (_, start) = seeds.pick(seed)?;
    let mut m = Mutator {
        doc: start.clone(),
        weight: weight(start),
        seeds,
    };
    for _ in 0..MAX_OPS {
        let Some(op) = r.u8() else { break };
        if m.apply(op, &mut r).is_none() {
            break;
        }
    }
    match m.doc {
        Value::Object(config) => Some(Mutated { word, seed, config }),
        _ => None,
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> Option<u8> {
        let b = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    fn u16(&mut self) -> Option<u16> {
        let lo = self.u8()?;
        let hi = self.u8()?;
        Some(u16::from_le_bytes([lo, hi]))
    }

    /// An element of `table` chosen by the next byte.
    fn pick<'t, T>(&mut self, table: &'t [T]) -> Option<&'t T> {
        let b = usize::from(self.u8()?);
        table.get(b % table.len().max(1))
    }
}

/// One step of a path into a document.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// The kind of node an operation applies to.
#[derive(Clone, Copy)]
enum Want {
    NotRoot,
    Number,
    String,
    Array,
    NonEmptyArray,
    Object,
}

impl Want {
    fn accepts(self, v: &Value, depth: usize) -> bool {
        match self {
            Want::NotRoot => depth > 0,
            Want::Number => v.is_number(),
            Want::String => v.is_string(),
            Want::Array => v.is_array(),
            Want::NonEmptyArray => v.as_array().is_some_and(|a| !a.is_empty()),
            Want::Object => v.is_object(),
        }
    }
}

/// Pre-order walk of at most [`MAX_WALK`] nodes: the number of nodes `want` accepts, and the
/// path of the `nth` of them when `nth` is given and in range.
fn find(root: &Value, want: Want, nth: Option<usize>) -> (usize, Option<Vec<Seg>>) {
    enum Step<'a> {
        Key(&'a str),
        Index(usize),
    }
    let mut stack: Vec<(&Value, usize, Option<Step>)> = vec![(root, 0, None)];
    let mut path: Vec<Step> = Vec::new();
    let mut count = 0;
    let mut visited = 0;
    while let Some((v, parent_len, step)) = stack.pop() {
        visited += 1;
        if visited > MAX_WALK {
            break;
        }
        path.truncate(parent_len);
        if let Some(s) = step {
            path.push(s);
        }
        if want.accepts(v, path.len()) {
            if nth == Some(count) {
                let owned = path
                    .iter()
                    .map(|s| match s {
                        Step::Key(k) => Seg::Key((*k).to_string()),
                        Step::Index(i) => Seg::Index(*i),
                    })
                    .collect();
                return (count + 1, Some(owned));
            }
            count += 1;
        }
        let len = path.len();
        match v {
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate().rev() {
                    stack.push((c, len, Some(Step::Index(i))));
                }
            }
            Value::Object(o) => {
                // Reverse insertion order on the stack: visited in document order.
                let children: Vec<_> = o.iter().collect();
                for (k, c) in children.into_iter().rev() {
                    stack.push((c, len, Some(Step::Key(k))));
                }
            }
            _ => {}
        }
    }
    (count, None)
}

/// The path of one node of the kind `want`, chosen by `sel` among all of them.
fn select(root: &Value, want: Want, sel: u16) -> Option<Vec<Seg>> {
    let (count, _) = find(root, want, None);
    if count == 0 {
        return None;
    }
    find(root, want, Some(usize::from(sel) % count)).1
}

fn get<'a>(root: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    let mut v = root;
    for s in path {
        v = match (s, v) {
            (Seg::Key(k), Value::Object(o)) => o.get(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

fn get_mut<'a>(root: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    let mut v = root;
    for s in path {
        v = match (s, v) {
            (Seg::Key(k), Value::Object(o)) => o.get_mut(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

/// Nodes plus string bytes / 256, counted without recursion (stops past the budget).
fn weight(v: &Value) -> usize {
    let mut stack = vec![v];
    let mut w = 0usize;
    while let Some(v) = stack.pop() {
        w += 1;
        if w > WEIGHT_BUDGET * 2 {
            break;
        }
        match v {
            Value::String(s) => w += s.len() / 256,
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(o) => {
                w += o.keys().map(|k| k.len() / 256).sum::<usize>();
                stack.extend(o.values());
            }
            _ => {}
        }
    }
    w
}

struct Mutator<'s> {
    doc: Value,
    weight: usize,
    seeds: &'s Seeds,
}

/// Operations, by opcode modulo their count.
const OPS: usize = 15;

impl Mutator<'_> {
    /// Runs one operation; `None` once the program ran out of bytes.
    fn apply(&mut self, op: u8, r: &mut Reader) -> Option<()> {
        match usize::from(op) % OPS {
            // A number becomes an extreme.
            0 => {
                let path = select(&self.doc, Want::Number, r.u16()?);
                let v = r.pick(EXTREMES)?.value();
                if let Some(path) = path {
                    self.replace(&path, v);
                }
            }
            // A value of another type.
            1 => {
                let path = select(&self.doc, Want::NotRoot, r.u16()?);
                let k = r.u8()?;
                if let Some(path) = path {
                    if let Some(old) = get(&self.doc, &path) {
                        let v = swap_type(old, k);
                        self.replace(&path, v);
                    }
                }
            }
            // Delete a key or an array element.
            2 => {
                if let Some(path) = select(&self.doc, Want::NotRoot, r.u16()?) {
                    self.remove(&path);
                }
            }
            // Copy a key's value to another (known) key of the same object.
            3 => {
                let path = select(&self.doc, Want::Object, r.u16()?);
                let from = r.u8()?;
                let to = r.pick(KEYS)?;
                if let Some(path) = path {
                    let copy = get(&self.doc, &path)
                        .and_then(Value::as_object)
                        .filter(|o| !o.is_empty())
                        .and_then(|o| o.values().nth(usize::from(from) % o.len()))
                        .cloned();
                    if let Some(copy) = copy {
                        let mut to_path = path;
                        to_path.push(Seg::Key((*to).to_string()));
                        self.set(&to_path, copy);
                    }
                }
            }
            // Set a known option key to an interesting value.
            4 => {
                let path = select(&self.doc, Want::Object, r.u16()?);
                let key = r.pick(KEYS)?;
                let v = value(r)?;
                if let Some(mut path) = path {
                    path.push(Seg::Key((*key).to_string()));
                    self.set(&path, v);
                }
            }
            // `type` of the chart (even selector) or of an object inside it (a dataset, a
            // scale, an annotation: odd selector), set to every chart and plugin type.
            5 => {
                let sel = r.u16()?;
                let ty = r.pick(CHART_TYPES)?;
                let mut path = if sel % 2 == 0 {
                    Some(Vec::new())
                } else {
                    select(&self.doc, Want::Object, sel / 2)
                };
                if let Some(path) = path.as_mut() {
                    path.push(Seg::Key("type".into()));
                    self.set(path, Value::String((*ty).to_string()));
                }
            }
            // Repeat an array element k times, within the weight budget.
            6 => {
                let path = select(&self.doc, Want::NonEmptyArray, r.u16()?);
                let which = r.u8()?;
                let k = *r.pick(COUNTS)?;
                if let Some(path) = path {
                    self.repeat(&path, usize::from(which), k);
                }
            }
            // Nest a value d levels deep in arrays or objects.
            7 => {
                let path = select(&self.doc, Want::NotRoot, r.u16()?);
                let d = *r.pick(DEPTHS)?;
                let in_objects = r.u8()? % 2 == 0;
                if let Some(path) = path {
                    if let Some(mut v) = get(&self.doc, &path).cloned() {
                        for _ in 0..d {
                            v = if in_objects {
                                let mut o = Map::new();
                                o.insert("data".into(), v);
                                Value::Object(o)
                            } else {
                                Value::Array(vec![v])
                            };
                        }
                        self.replace(&path, v);
                    }
                }
            }
            // A long or unusual string.
            8 => {
                let want = if r.u8()? % 2 == 0 {
                    Want::String
                } else {
                    Want::NotRoot
                };
                let path = select(&self.doc, want, r.u16()?);
                let s = string(r)?;
                if let Some(path) = path {
                    self.replace(&path, Value::String(s));
                }
            }
            // Graft a subtree of another seed in place of a node.
            9 => {
                let path = select(&self.doc, Want::NotRoot, r.u16()?);
                let other = usize::from(r.u16()?);
                let sel = r.u16()?;
                if let (Some(path), Some((_, seed))) = (path, self.seeds.pick(other)) {
                    if let Some(from) = select(seed, Want::NotRoot, sel) {
                        if let Some(v) = get(seed, &from).cloned() {
                            self.replace(&path, v);
                        }
                    }
                }
            }
            // Swap in the same-named key of another seed (e.g. its whole `data` or
            // `options`), which keeps the structure plausible.
            10 => {
                let other = usize::from(r.u16()?);
                let key = r.pick(TOP_KEYS)?;
                if let Some((_, seed)) = self.seeds.pick(other) {
                    let path = [Seg::Key((*key).to_string())];
                    match get(seed, &path).cloned() {
                        Some(v) => self.set(&path, v),
                        None => self.remove(&path),
                    }
                }
            }
            // Copy one node of the document over another.
            11 => {
                let from = select(&self.doc, Want::NotRoot, r.u16()?);
                let to = select(&self.doc, Want::NotRoot, r.u16()?);
                if let (Some(from), Some(to)) = (from, to) {
                    if let Some(v) = get(&self.doc, &from).cloned() {
                        self.replace(&to, v);
                    }
                }
            }
            // Arithmetic on a number.
            12 => {
                let path = select(&self.doc, Want::Number, r.u16()?);
                let k = r.u8()?;
                if let Some(path) = path {
                    if let Some(x) = get(&self.doc, &path).and_then(Value::as_f64) {
                        let y = match k % 8 {
                            0 => -x,
                            1 => x * 1e6,
                            2 => x / 1e6,
                            3 => x + 0.5,
                            4 => x - 1.0,
                            5 => x * x,
                            6 => 1.0 / x,
                            _ => x.trunc(),
                        };
                        self.replace(&path, num(y));
                    }
                }
            }
            // Reorder or cut an array.
            13 => {
                let path = select(&self.doc, Want::Array, r.u16()?);
                let k = r.u8()?;
                let slot = match path {
                    Some(p) => get_mut(&mut self.doc, &p),
                    None => None,
                };
                // Weight only shrinks here; the running total stays an upper bound.
                if let Some(Value::Array(a)) = slot {
                    match k % 4 {
                        0 => a.reverse(),
                        1 if !a.is_empty() => {
                            let n = usize::from(k / 4) % a.len();
                            a.rotate_left(n);
                        }
                        2 => a.truncate(usize::from(k / 4)),
                        _ => a.clear(),
                    }
                }
            }
            // Set an option path that steers whole code paths (scale types, index axis,
            // fraction digits, dataset trees and groups...), creating the objects on the way.
            _ => {
                let dotted = r.pick(OPTION_PATHS)?;
                let v = value(r)?;
                let path: Vec<Seg> = dotted
                    .split('.')
                    .map(|s| match s.parse::<usize>() {
                        Ok(i) => Seg::Index(i),
                        Err(_) => Seg::Key(s.to_string()),
                    })
                    .collect();
                self.set(&path, v);
            }
        }
        Some(())
    }

    /// Replaces the node at `path` (never the root) if the budget allows.
    fn replace(&mut self, path: &[Seg], v: Value) {
        if path.is_empty() {
            return;
        }
        let added = weight(&v);
        let Some(slot) = get_mut(&mut self.doc, path) else {
            return;
        };
        let removed = weight(slot);
        let next = self.weight.saturating_sub(removed) + added;
        if next <= WEIGHT_BUDGET {
            *slot = v;
            self.weight = next;
        }
    }

    /// Sets `path`, creating objects on the way (a non-object in the way is replaced by an
    /// object; an array index past the end is skipped).
    fn set(&mut self, path: &[Seg], v: Value) {
        let added = weight(&v);
        if self.weight + added > WEIGHT_BUDGET {
            return;
        }
        let mut cur = &mut self.doc;
        for (i, s) in path.iter().enumerate() {
            let last = i + 1 == path.len();
            cur = match s {
                Seg::Key(k) => {
                    if !cur.is_object() {
                        *cur = Value::Object(Map::new());
                    }
                    let Value::Object(o) = cur else { return };
                    if last {
                        let removed = o.get(k).map_or(0, weight);
                        o.insert(k.clone(), v);
                        self.weight = self.weight.saturating_sub(removed) + added;
                        return;
                    }
                    o.entry(k.clone())
                        .or_insert_with(|| Value::Object(Map::new()))
                }
                Seg::Index(n) => {
                    let Value::Array(a) = cur else { return };
                    let Some(slot) = a.get_mut(*n) else { return };
                    if last {
                        let removed = weight(slot);
                        *slot = v;
                        self.weight = self.weight.saturating_sub(removed) + added;
                        return;
                    }
                    slot
                }
            };
        }
    }

    fn remove(&mut self, path: &[Seg]) {
        let Some((last, parent)) = path.split_last() else {
            return;
        };
        let removed = match (get_mut(&mut self.doc, parent), last) {
            (Some(Value::Object(o)), Seg::Key(k)) => o.shift_remove(k),
            (Some(Value::Array(a)), Seg::Index(i)) if *i < a.len() => Some(a.remove(*i)),
            _ => None,
        };
        if let Some(v) = removed {
            self.weight = self.weight.saturating_sub(weight(&v));
        }
    }

    fn repeat(&mut self, path: &[Seg], which: usize, k: usize) {
        let Some(Value::Array(a)) = get_mut(&mut self.doc, path) else {
            return;
        };
        if a.is_empty() {
            return;
        }
        let i = which % a.len();
        let elem = a[i].clone();
        let each = weight(&elem).max(1);
        let k = k.min(WEIGHT_BUDGET.saturating_sub(self.weight) / each);
        // Inserted next to the original, so that neighbours (labels, flows) stay aligned.
        let tail = a.split_off(i + 1);
        a.extend(std::iter::repeat_n(elem, k));
        a.extend(tail);
        self.weight += k * each;
    }
}

fn num(x: f64) -> Value {
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// Numbers at the edges: the largest and smallest doubles, signed zero, 2^53 (the end of
/// exact integers), integer-type edges, huge counts.
#[derive(Clone, Copy)]
enum Extreme {
    F(f64),
    U(u64),
    I(i64),
}

impl Extreme {
    fn value(self) -> Value {
        match self {
            Extreme::F(x) => num(x),
            Extreme::U(x) => Value::from(x),
            Extreme::I(x) => Value::from(x),
        }
    }
}

const EXTREMES: &[Extreme] = &[
    Extreme::F(1e308),
    Extreme::F(-1e308),
    Extreme::F(f64::MAX),
    Extreme::F(f64::MIN),
    Extreme::F(0.0),
    Extreme::F(-0.0),
    Extreme::F(1e-308),
    Extreme::F(-1e-308),
    Extreme::F(5e-324),
    Extreme::U(1 << 53),
    Extreme::U((1 << 53) + 1),
    Extreme::F(-9_007_199_254_740_992.0),
    Extreme::U(u64::MAX),
    Extreme::I(i64::MIN),
    Extreme::U(u32::MAX as u64),
    Extreme::U(1 << 31),
    Extreme::F(1e9),
    Extreme::F(-1e9),
    Extreme::F(1e15),
    Extreme::F(1e21),
    Extreme::F(1e6),
    Extreme::F(1e-7),
    Extreme::F(0.1),
    Extreme::F(0.5),
    Extreme::F(-0.5),
    Extreme::I(-1),
    Extreme::U(1),
    Extreme::U(2),
    Extreme::U(100),
    Extreme::U(101),
    Extreme::U(1000),
    Extreme::U(100_000),
];

/// Repeat counts: small, at the budgets of the render targets, past them.
const COUNTS: &[usize] = &[
    1, 2, 3, 10, 100, 999, 1000, 1001, 4000, 4001, 8001, 20_000, 50_000,
];

/// Nesting depths: shallow, around the JSON depth budget (64), near serde_json's 128.
const DEPTHS: &[usize] = &[1, 2, 3, 8, 33, 63, 64, 65, 100, 120];

/// `old` as another JSON type, chosen by `k`.
fn swap_type(old: &Value, k: u8) -> Value {
    match k % 12 {
        0 => Value::Null,
        1 => Value::Bool(true),
        2 => Value::Bool(false),
        3 => Value::from(0),
        4 => Value::String(String::new()),
        5 => Value::Array(Vec::new()),
        6 => Value::Object(Map::new()),
        7 => Value::Array(vec![old.clone()]),
        8 => {
            let mut o = Map::new();
            o.insert("x".into(), old.clone());
            Value::Object(o)
        }
        // A number or other scalar as its text ("12" instead of 12, as many APIs send).
        9 => Value::String(match old {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }),
        // A string as a number when it is one, otherwise 1.
        10 => match old {
            Value::String(s) => s.trim().parse::<f64>().map_or(Value::from(1), num),
            Value::Bool(b) => Value::from(u8::from(*b)),
            _ => Value::from(1),
        },
        _ => Value::Array(vec![Value::Null, old.clone(), Value::Null]),
    }
}

/// An interesting value for an option, chosen by the next bytes.
fn value(r: &mut Reader) -> Option<Value> {
    Some(match r.u8()? % 8 {
        0 | 1 => r.pick(EXTREMES)?.value(),
        2 => Value::String((*r.pick(WORDS)?).to_string()),
        3 => Value::String(string(r)?),
        4 => swap_type(&Value::Null, r.u8()?),
        5 => Value::Bool(r.u8()? % 2 == 0),
        6 => {
            // A short numeric array: [extreme, extreme, ...].
            let n = usize::from(r.u8()? % 6);
            let mut a = Vec::with_capacity(n);
            for _ in 0..n {
                a.push(r.pick(EXTREMES)?.value());
            }
            Value::Array(a)
        }
        _ => {
            let mut o = Map::new();
            o.insert((*r.pick(KEYS)?).to_string(), r.pick(EXTREMES)?.value());
            Value::Object(o)
        }
    })
}

/// A long or unusual string, chosen by the next bytes.
fn string(r: &mut Reader) -> Option<String> {
    let piece = *r.pick(STRINGS)?;
    let times = *r.pick(&[1usize, 2, 16, 300, 4000, 40_000])?;
    let mut s = String::with_capacity(piece.len().saturating_mul(times).min(1 << 20));
    for _ in 0..times {
        if s.len() + piece.len() > (1 << 20) {
            break;
        }
        s.push_str(piece);
    }
    Some(s)
}

/// Pieces of strings: empty, control characters, RTL and combining marks, emoji sequences,
/// astral and non-characters, CJK, numbers and colours in text, CSS edge cases, dates.
const STRINGS: &[&str] = &[
    "",
    " ",
    "W",
    "\u{0}",
    "\n",
    "\t",
    "\r\n",
    "a\nb",
    "\u{202E}abc",
    "\u{05D0}\u{05D1}\u{0627}",
    "e\u{301}\u{302}\u{303}\u{304}",
    "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
    "\u{1F600}",
    "\u{FFFD}",
    "\u{FFFF}",
    "\u{10FFFF}",
    "\u{FEFF}",
    "\u{200B}",
    "\u{6F22}\u{5B57}",
    "\u{0E01}\u{0E34}\u{0E4D}",
    "1e308",
    "-1e308",
    "NaN",
    "Infinity",
    "-0",
    "0x10",
    "12px",
    "100%",
    "#",
    "#zzz",
    "#12345678",
    "rgba(1e308,-1e308,0,2)",
    "hsl(1e308deg 100% 50%)",
    "rgb(",
    "transparent",
    "bold 1e9px serif",
    "2020-13-45",
    "2020-01-01T00:00:00Z",
    "999999-12-31",
    "%s%d{0}",
    "'\"\\",
];

/// Option values that select code paths.
const WORDS: &[&str] = &[
    "x",
    "y",
    "r",
    "start",
    "end",
    "center",
    "origin",
    "stack",
    "shape",
    "-1",
    "+2",
    "linear",
    "logarithmic",
    "category",
    "time",
    "timeseries",
    "radialLinear",
    "auto",
    "data",
    "ticks",
    "flex",
    "circle",
    "rect",
    "rectRot",
    "star",
    "cross",
    "dash",
    "line",
    "triangle",
    "min",
    "max",
    "top",
    "bottom",
    "left",
    "right",
    "chartArea",
    "left-to-right",
    "horizontal",
    "vertical",
    "radial",
    "-100%",
    "50%",
    "1000%",
    "millisecond",
    "day",
    "year",
    "lttb",
    "min-max",
    "from",
    "to",
    "gradient",
    "justify",
    "value",
    "label",
    "box",
    "ellipse",
    "point",
    "polygon",
    "arrow",
    "equalEarth",
    "mercator",
];

/// Every chart type the engine knows, Chart.js's and the plugins', plus a misspelt one.
pub const CHART_TYPES: &[&str] = &[
    "bar",
    "line",
    "pie",
    "doughnut",
    "polarArea",
    "radar",
    "scatter",
    "bubble",
    "sankey",
    "treemap",
    "matrix",
    "wordCloud",
    "choropleth",
    "bubbleMap",
    "graph",
    "forceDirectedGraph",
    "tree",
    "dendrogram",
    "dendogram",
    "venn",
    "euler",
    "nope",
];

const TOP_KEYS: &[&str] = &["type", "data", "options", "plugins"];

/// Option names of Chart.js and the plugins (keys of `options`, scales, datasets, elements).
const KEYS: &[&str] = &[
    "type",
    "data",
    "datasets",
    "labels",
    "label",
    "options",
    "scales",
    "x",
    "y",
    "r",
    "ticks",
    "grid",
    "border",
    "min",
    "max",
    "suggestedMin",
    "suggestedMax",
    "beginAtZero",
    "stacked",
    "stack",
    "reverse",
    "offset",
    "grace",
    "stepSize",
    "count",
    "maxTicksLimit",
    "precision",
    "format",
    "maximumFractionDigits",
    "minimumFractionDigits",
    "autoSkip",
    "autoSkipPadding",
    "maxRotation",
    "minRotation",
    "padding",
    "display",
    "position",
    "axis",
    "indexAxis",
    "parsing",
    "normalized",
    "xAxisKey",
    "yAxisKey",
    "backgroundColor",
    "borderColor",
    "borderWidth",
    "borderRadius",
    "borderSkipped",
    "borderDash",
    "barPercentage",
    "categoryPercentage",
    "barThickness",
    "maxBarThickness",
    "minBarLength",
    "base",
    "fill",
    "tension",
    "cubicInterpolationMode",
    "stepped",
    "spanGaps",
    "showLine",
    "pointRadius",
    "pointStyle",
    "pointRotation",
    "radius",
    "rotation",
    "circumference",
    "cutout",
    "spacing",
    "hoverOffset",
    "offset",
    "weight",
    "order",
    "hidden",
    "clip",
    "plugins",
    "legend",
    "title",
    "subtitle",
    "text",
    "font",
    "size",
    "lineHeight",
    "family",
    "style",
    "color",
    "layout",
    "maintainAspectRatio",
    "aspectRatio",
    "elements",
    "point",
    "line",
    "bar",
    "arc",
    "decimation",
    "enabled",
    "algorithm",
    "samples",
    "threshold",
    "annotation",
    "annotations",
    "datalabels",
    "align",
    "anchor",
    "clamp",
    "gradient",
    "zoom",
    "limits",
    "time",
    "unit",
    "displayFormats",
    "round",
    "bounds",
    "source",
    "angleLines",
    "pointLabels",
    "startAngle",
    "circular",
    "lineWidth",
    "tickLength",
    "z",
    "from",
    "to",
    "flow",
    "nodePadding",
    "nodeWidth",
    "priority",
    "column",
    "colorFrom",
    "colorTo",
    "colorMode",
    "tree",
    "key",
    "groups",
    "sumKeys",
    "captions",
    "width",
    "height",
    "anchorX",
    "anchorY",
    "fit",
    "rotate",
    "rotationSteps",
    "outline",
    "showOutline",
    "projection",
    "feature",
    "features",
    "value",
    "geometry",
    "coordinates",
    "edges",
    "source",
    "target",
    "parent",
    "parentIds",
    "directed",
    "orientation",
    "sets",
    "values",
    "xMin",
    "xMax",
    "yMin",
    "yMax",
    "content",
    "v",
];

/// Option paths that steer whole code paths of the engine.
const OPTION_PATHS: &[&str] = &[
    "type",
    "options.indexAxis",
    "options.scales.x.type",
    "options.scales.y.type",
    "options.scales.r.type",
    "options.scales.x.min",
    "options.scales.x.max",
    "options.scales.y.min",
    "options.scales.y.max",
    "options.scales.y.stacked",
    "options.scales.x.stacked",
    "options.scales.y.ticks.stepSize",
    "options.scales.y.ticks.count",
    "options.scales.y.ticks.precision",
    "options.scales.x.ticks.maxTicksLimit",
    "options.scales.y.ticks.format.maximumFractionDigits",
    "options.scales.y.ticks.format.minimumFractionDigits",
    "options.scales.y.ticks.format.style",
    "options.scales.y.grace",
    "options.scales.x.time.unit",
    "options.scales.x.time.stepSize",
    "options.scales.x.offset",
    "options.scales.r.min",
    "options.scales.r.max",
    "options.scales.r.startAngle",
    "options.rotation",
    "options.circumference",
    "options.cutout",
    "options.radius",
    "options.layout.padding",
    "options.aspectRatio",
    "options.plugins.title.display",
    "options.plugins.title.text",
    "options.plugins.title.font.size",
    "options.plugins.legend.position",
    "options.plugins.legend.labels.boxWidth",
    "options.plugins.decimation.enabled",
    "options.plugins.decimation.samples",
    "options.plugins.datalabels.display",
    "options.plugins.datalabels.font.size",
    "options.plugins.annotation.annotations.a.type",
    "options.plugins.annotation.annotations.a.xMin",
    "options.plugins.annotation.annotations.a.yMax",
    "options.elements.point.radius",
    "options.elements.line.tension",
    "options.elements.arc.borderWidth",
    "options.elements.bar.borderRadius",
    "data.labels",
    "data.datasets.0.data",
    "data.datasets.0.type",
    "data.datasets.0.label",
    "data.datasets.0.pointRadius",
    "data.datasets.0.borderWidth",
    "data.datasets.0.borderRadius",
    "data.datasets.0.tension",
    "data.datasets.0.tree",
    "data.datasets.0.key",
    "data.datasets.0.groups",
    "data.datasets.0.spacing",
    "data.datasets.0.width",
    "data.datasets.0.height",
    "data.datasets.0.nodePadding",
    "data.datasets.0.size",
    "data.datasets.1.data",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn seeds() -> Seeds {
        Seeds {
            configs: vec![
                (
                    "a.json".into(),
                    json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [1, 2]}]}}),
                ),
                (
                    "b.json".into(),
                    json!({"type": "pie", "data": {"datasets": [{"data": [3]}]}, "options": {"cutout": "50%"}}),
                ),
            ],
        }
    }

    #[test]
    fn the_seed_word_picks_the_seed() {
        let s = seeds();
        let m = mutate(&s, &[1, 0]).unwrap();
        assert_eq!(m.seed, 1);
        assert_eq!(m.config["type"], "pie");
        assert!(mutate(&s, &[0]).is_none());
    }

    #[test]
    fn an_extreme_replaces_a_number() {
        let s = seeds();
        // op 0, selector 1 (the second number: 2), extreme 0 (1e308).
        let m = mutate(&s, &[0, 0, 0, 1, 0, 0]).unwrap();
        assert_eq!(m.config["data"]["datasets"][0]["data"], json!([1, 1e308]));
    }

    #[test]
    fn repeats_stay_within_the_budget() {
        let s = seeds();
        // op 6 on the labels array (selector 0), element 0, the largest count, many times.
        let mut prog = vec![0, 0];
        for _ in 0..MAX_OPS {
            prog.extend([6, 0, 0, 0, (COUNTS.len() - 1) as u8]);
        }
        let m = mutate(&s, &prog).unwrap();
        assert!(weight(&Value::Object(m.config)) <= WEIGHT_BUDGET + 64);
    }

    #[test]
    fn option_paths_are_created() {
        let s = seeds();
        let i = OPTION_PATHS
            .iter()
            .position(|p| *p == "options.scales.y.ticks.format.maximumFractionDigits")
            .unwrap() as u8;
        // op 14 (option path), the path, value kind 0 (extreme), extreme 16 (1e9).
        let m = mutate(&s, &[0, 0, 14, i, 0, 16]).unwrap();
        assert_eq!(
            m.config["options"]["scales"]["y"]["ticks"]["format"]["maximumFractionDigits"],
            json!(1e9)
        );
    }

    #[test]
    fn every_input_decodes_without_panicking() {
        let s = seeds();
        // A cheap deterministic sweep over programs.
        let mut x: u32 = 1;
        for _ in 0..300 {
            let mut prog = Vec::new();
            for _ in 0..64 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                prog.push(x as u8);
            }
            let _ = mutate(&s, &prog);
        }
    }
}
