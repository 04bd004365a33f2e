//! The input budgets of [`Limits`] checked on a raw Chart.js config, before any engine sees it.
//!
//! [`check_chart`] is what makes an oversized or absurd request a 400 naming the limit instead
//! of a render that exhausts memory, time or the stack. It is written to the rules it enforces:
//!
//! - nothing recurses: the JSON is walked with an explicit stack of iterators, one frame per
//!   nesting level, so the stack is bounded by `MAX_JSON_DEPTH` and never by the input's size;
//! - the work is linear in the input: every JSON value is visited once by the generic walk,
//!   and the only other passes (the sankey node keys, an object-shaped treemap `tree`) read a
//!   part of the config once more;
//! - nothing is allocated in proportion to the input: the walk's stack is bounded by the depth
//!   budget, the sankey node set by the node budget (the scan stops as soon as it is exceeded);
//! - the counts that need no walk (datasets, data points, labels, annotations, sankey flows,
//!   treemap levels and array rows) are checked first, so a 5,000,000-point line chart is
//!   refused after reading one array length, not after walking the 5,000,000 values.
//!
//! One budget cannot wait for a parsed config: parsing itself costs memory, about a hundred
//! bytes per JSON value and more in small objects, so a 10 MiB body of numbers is hundreds of
//! megabytes of `serde_json::Value`s before any check above could run. [`scan_json`] counts
//! the values and the nesting of the raw text first, in one pass over its bytes that allocates
//! nothing, and refuses a text over `MAX_JSON_VALUES` or `MAX_JSON_DEPTH` before serde_json
//! sees it.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::error::{shorten, RequestError};
use crate::limits::{Limits, JSON_DEPTH_CEILING};
use crate::parse::{parse_plain, Bound};
use crate::split::{parse_plain_split, SecondCore};

/// What [`check_chart`] measured of a config that is within every budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measure {
    /// JSON values visited by the generic walk (each value exactly once, the config object
    /// included): the work done, in the input's own unit.
    pub values: usize,
    /// The deepest nesting met; the config object itself is level 1.
    pub depth: usize,
    /// Data points over all datasets.
    pub points: usize,
}

/// Where a JSON text sits in a request: what its nesting levels count from, and the field its
/// errors name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonText {
    /// A whole request body (`POST /render`). The body object is level 0, so its `chart`
    /// config is level 1, as [`check_chart`] counts; errors name the `request body`.
    RequestBody,
    /// A chart config alone (the `chart` query parameter, a config file): its outermost
    /// object is level 1; errors name `chart`.
    ChartConfig,
}

/// What [`scan_json`] counted in a text within the budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JsonScan {
    /// JSON values: scalars, arrays and objects, the outermost included, object keys not.
    /// Of valid JSON, exactly the values serde_json builds while parsing it (a duplicate key's
    /// earlier value included: it is built, then replaced).
    pub values: usize,
    /// The deepest nesting met, in the levels of [`JsonText`]; a scalar adds no level.
    pub depth: usize,
}

/// Where [`scan_json`] is in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lexeme {
    /// Between tokens: whitespace, or just after a structural byte.
    Between,
    /// Inside a number or a literal (`true`, `false`, `null`): already counted.
    Scalar,
    /// Inside a string.
    Text,
    /// Just after a backslash inside a string.
    Escape,
    /// After a string's closing quote: a value, unless the next byte that is not whitespace
    /// is `:`, which makes it an object key.
    AfterText,
}

/// The bytes that continue a number or literal in [`scan_json`]: all but whitespace, the
/// structural bytes and `"`.
const SCALAR_BYTE: [bool; 256] = {
    let mut t = [true; 256];
    let mut k = 0;
    let breaks = *b" \t\n\r{}[]:,\"";
    while k < breaks.len() {
        t[breaks[k] as usize] = false;
        k += 1;
    }
    t
};

/// Counts the JSON values of `text` and their nesting in one pass over its bytes, without
/// allocating and without building anything, and refuses the text if its values are over
/// `MAX_JSON_VALUES` or a container is nested deeper than `MAX_JSON_DEPTH` (at most
/// [`JSON_DEPTH_CEILING`], as in [`check_chart`]).
///
/// Run on the raw request before serde_json parses it, so the memory a request can make the
/// parser take is bounded by the value budget rather than by the body size. It is a counter,
/// not a validator: JSON is a sequence of strings (`"…"`, with `\` escaping the next byte),
/// structural bytes (`{}[]:,`), whitespace and scalar tokens (every other run of bytes), and
/// a value is an opening bracket, a scalar token, or a string not followed by `:`. Of valid
/// JSON that count is exact; invalid JSON is counted somehow and left to serde_json to
/// report, unless its count alone is over a budget. Either way serde_json builds no more
/// than counted: it stops at the first error, and the text before it is a valid prefix,
/// counted exactly. Any bytes are accepted without panic.
///
/// A values error reports the text's whole count (the scan goes on to the end: it costs
/// nothing but time linear in the text); a depth error stops at the first level too deep.
pub fn scan_json(text: &[u8], at: JsonText, limits: &Limits) -> Result<JsonScan, RequestError> {
    let field = match at {
        JsonText::RequestBody => "request body",
        JsonText::ChartConfig => "chart",
    };
    // The body object is level 0: one open container more than the config counts.
    let outer = usize::from(at == JsonText::RequestBody);
    let max_depth = limits.max_json_depth.min(JSON_DEPTH_CEILING);
    let mut values: usize = 0;
    let mut open: usize = 0;
    let mut deepest: usize = 0;
    let mut state = Lexeme::Between;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        i += 1;
        match state {
            Lexeme::Text => {
                // Inside a string only `"` and `\` matter: jump to the next of either
                // (a word cloud's 100 MB of words is mostly string bytes).
                match memchr::memchr2(b'"', b'\\', &text[i - 1..]) {
                    Some(k) => {
                        i += k;
                        state = if text[i - 1] == b'"' {
                            Lexeme::AfterText
                        } else {
                            Lexeme::Escape
                        };
                    }
                    None => i = text.len(),
                }
            }
            Lexeme::Escape => state = Lexeme::Text,
            // The rest of a number or literal changes nothing: skip the run (most bytes of a
            // config of 10,000 points are digits).
            Lexeme::Scalar if SCALAR_BYTE[usize::from(b)] => {
                while text.get(i).is_some_and(|&c| SCALAR_BYTE[usize::from(c)]) {
                    i += 1;
                }
            }
            Lexeme::Between | Lexeme::Scalar | Lexeme::AfterText => {
                let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
                if state == Lexeme::AfterText {
                    if ws {
                        continue;
                    }
                    if b != b':' {
                        values = values.saturating_add(1);
                    }
                }
                state = match b {
                    b'"' => Lexeme::Text,
                    b'{' | b'[' => {
                        values = values.saturating_add(1);
                        open = open.saturating_add(1);
                        let level = open.saturating_sub(outer);
                        if level > max_depth {
                            return Err(RequestError::OverBudget {
                                field,
                                what: format!("a value nested {level} levels deep"),
                                max: max_depth,
                                variable: "MAX_JSON_DEPTH",
                            });
                        }
                        deepest = deepest.max(level);
                        Lexeme::Between
                    }
                    b'}' | b']' => {
                        open = open.saturating_sub(1);
                        Lexeme::Between
                    }
                    b',' | b':' => Lexeme::Between,
                    _ if ws => Lexeme::Between,
                    _ if state == Lexeme::Scalar => Lexeme::Scalar,
                    _ => {
                        values = values.saturating_add(1);
                        Lexeme::Scalar
                    }
                };
            }
        }
    }
    if state == Lexeme::AfterText {
        values = values.saturating_add(1);
    }
    if values > limits.max_json_values {
        return Err(RequestError::OverBudget {
            field,
            what: format!("{values} JSON values"),
            max: limits.max_json_values,
            variable: "MAX_JSON_VALUES",
        });
    }
    Ok(JsonScan {
        values,
        depth: deepest,
    })
}

/// Parses JSON text as `serde_json::from_slice` does, into the same `Value`, but with every
/// array and object allocated at its exact size.
///
/// serde_json grows arrays and maps by doubling while it parses and keeps the slack: a map
/// of one key holds room for three (a hash table of four slots and three entries of some
/// 100 bytes), an array of one element room for four. In the small containers a config is
/// made of, that slack is most of the memory, up to 375 bytes per value for objects of one
/// key nested in each other; at exact sizes, about half. Run it after [`scan_json`], which
/// bounds the number of values. Like serde_json, it refuses nesting deeper than 127
/// containers, so its recursion is bounded.
///
/// Plain text (no escapes, no exponents, what configs are made of) is read by a loop of our
/// own straight into the same values (`parse::parse_plain`); any other text, invalid text
/// included, is left to serde_json, so the values and errors are serde_json's either way.
pub fn parse_json(text: &[u8]) -> Result<Value, serde_json::Error> {
    if let Some(v) = parse_plain(text, Bound::NONE) {
        return Ok(v);
    }
    parse_with_serde(text)
}

/// [`scan_json`], then [`parse_json`]: the same refusals, values and errors, in one pass over
/// the text when it is plain (see [`parse_json`]). The outer `Err` is a budget's
/// ([`scan_json`]'s), the inner one the text's (serde_json's).
///
/// The plain reading counts the values and the nesting as it builds them and stops one value
/// past `MAX_JSON_VALUES` or one level past `MAX_JSON_DEPTH`, so it builds no more than the
/// scan admits; when it stops or meets anything else, the text is scanned and then parsed
/// by serde_json, as by the two functions apart, and refused or read by them.
///
/// A text long enough to hold more values than `MAX_JSON_VALUES` is scanned first all the
/// same: valid JSON of `n` bytes holds at most `(n + 1) / 2` values (`[1,1,…]`), so only such
/// a text can be refused for its values, and the scan refuses it without allocating (the
/// 10 MiB body of 5,000,000 numbers: +0.2 MiB, where reading it up to the budget would build
/// some 100 MiB first). A shorter one can only be refused for its depth or its syntax,
/// after what comes before the fault was read (at most the values the budget admits).
pub fn parse_json_within(
    text: &[u8],
    at: JsonText,
    limits: &Limits,
) -> Result<Result<Value, serde_json::Error>, RequestError> {
    parse_json_on(text, at, limits, None)
}

/// [`parse_json_within`], its plain reading on two threads when the text is long (64 KiB or
/// more) and `second_core` lends a thread (see [`crate::split`]): the same value, refusals
/// and errors, in about half the time when the text is mostly one array (a dataset's
/// `data`). `second_core` is asked only for such a text.
pub fn parse_json_split(
    text: &[u8],
    at: JsonText,
    limits: &Limits,
    second_core: SecondCore,
) -> Result<Result<Value, serde_json::Error>, RequestError> {
    parse_json_on(text, at, limits, Some(second_core))
}

/// [`parse_json_within`], on two threads when `second_core` is given and lends one.
fn parse_json_on(
    text: &[u8],
    at: JsonText,
    limits: &Limits,
    second_core: Option<SecondCore>,
) -> Result<Result<Value, serde_json::Error>, RequestError> {
    let bound = Bound {
        values: limits.max_json_values,
        open: limits
            .max_json_depth
            .min(JSON_DEPTH_CEILING)
            .saturating_add(usize::from(at == JsonText::RequestBody)),
    };
    let may_be_over = text.len().div_ceil(2) > limits.max_json_values;
    if may_be_over {
        scan_json(text, at, limits)?;
    }
    let plain = match second_core {
        Some(second_core) => parse_plain_split(text, bound, second_core),
        None => parse_plain(text, bound),
    };
    if let Some(v) = plain {
        return Ok(Ok(v));
    }
    if !may_be_over {
        scan_json(text, at, limits)?;
    }
    Ok(parse_with_serde(text))
}

/// [`parse_json`] through serde_json's deserializer.
fn parse_with_serde(text: &[u8]) -> Result<Value, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_slice(text);
    let v = ExactValue.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// A `Value` built by [`parse_json`]: containers at their exact sizes.
struct ExactValue;

impl<'de> serde::de::DeserializeSeed<'de> for ExactValue {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ExactValue {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        // As serde_json's own visitor: JSON text never holds a non-finite number.
        Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(ExactValue)? {
            items.push(v);
        }
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Collected first, so the map is allocated once at its size; inserted in order, so a
        // repeated key keeps its first place and its last value, as in serde_json.
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ExactValue)?;
            entries.push((k, v));
        }
        let mut out = Map::with_capacity(entries.len());
        for (k, v) in entries {
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// The error of one budget: `what` is the measured quantity with its place in the config.
fn over(what: String, max: usize, variable: &'static str) -> RequestError {
    RequestError::OverBudget {
        field: "chart",
        what,
        max,
        variable,
    }
}

/// Entries of a data-like value: an array's elements or an object map's keys (Chart.js
/// parses `data: {a: 1, b: 2}` as one point per key). Anything else has none.
fn entries(v: Option<&Value>) -> usize {
    match v {
        Some(Value::Array(a)) => a.len(),
        Some(Value::Object(m)) => m.len(),
        _ => 0,
    }
}

/// Checks a raw Chart.js config against every input budget of `limits`.
///
/// Budgets, in the order they are checked: datasets (`data.datasets`), data points per
/// dataset (entries of `data`, and of `edges` for graphs) and in total, label entries (`data.labels`, `data.xLabels`, `data.yLabels` and
/// every scale's `labels`), annotations (`options.plugins.annotation.annotations`, array or
/// object map), sankey flows, treemap levels (`groups`) and rectangles; then, in one walk of
/// the whole config, the nesting depth and the characters of every string (object keys
/// included), and the count of JSON values; then the distinct sankey nodes and the rows of object-shaped treemap trees.
pub fn check_chart(chart: &Map<String, Value>, limits: &Limits) -> Result<Measure, RequestError> {
    let points = check_counts(chart, limits)?;
    let (values, depth) = walk(chart, limits)?;
    // Already met by any config parsed through `scan_json`; checked again for configs built
    // in code (the CLI's, the service's own callers).
    if values > limits.max_json_values {
        return Err(over(
            format!("{values} JSON values"),
            limits.max_json_values,
            "MAX_JSON_VALUES",
        ));
    }
    check_structures(chart, limits)?;
    Ok(Measure {
        values,
        depth,
        points,
    })
}

/// The chart type a dataset is drawn with: its own `type`, else the config's.
fn dataset_type<'a>(chart: &'a Map<String, Value>, ds: &'a Map<String, Value>) -> &'a str {
    ds.get("type")
        .and_then(Value::as_str)
        .or_else(|| chart.get("type").and_then(Value::as_str))
        .unwrap_or("")
}

fn datasets(chart: &Map<String, Value>) -> &[Value] {
    match chart.get("data").and_then(|d| d.get("datasets")) {
        Some(Value::Array(a)) => a,
        _ => &[],
    }
}

/// The budgets read from lengths alone: no walk, O(datasets + scales) work. Returns the total
/// of data points.
fn check_counts(chart: &Map<String, Value>, limits: &Limits) -> Result<usize, RequestError> {
    let data = chart.get("data");
    let sets = datasets(chart);
    if sets.len() > limits.max_datasets {
        return Err(over(
            format!("{} datasets", sets.len()),
            limits.max_datasets,
            "MAX_DATASETS",
        ));
    }
    let mut total: usize = 0;
    let mut treemap_rects: usize = 0;
    for (i, ds) in sets.iter().enumerate() {
        let Some(ds) = ds.as_object() else { continue };
        // chartjs-chart-graph datasets also list their `edges` beside the nodes in `data`.
        let edges = entries(ds.get("edges").filter(|e| e.is_array()));
        let data_len = entries(ds.get("data"));
        let n = data_len.saturating_add(edges);
        if n > limits.max_points_per_dataset {
            return Err(over(
                format!("{n} data points in dataset {i}"),
                limits.max_points_per_dataset,
                "MAX_POINTS_PER_DATASET",
            ));
        }
        total = total.saturating_add(n);
        match dataset_type(chart, ds) {
            // chartjs-chart-sankey: one flow per `data` element.
            "sankey" if data_len > limits.max_sankey_flows => {
                return Err(over(
                    format!("{data_len} sankey flows in dataset {i}"),
                    limits.max_sankey_flows,
                    "MAX_SANKEY_FLOWS",
                ));
            }
            "treemap" => {
                let levels = entries(ds.get("groups"));
                if levels > limits.max_treemap_depth {
                    return Err(over(
                        format!("{levels} treemap levels (groups) in dataset {i}"),
                        limits.max_treemap_depth,
                        "MAX_TREEMAP_DEPTH",
                    ));
                }
                // chartjs-chart-treemap reads `tree`, else `data`. An object tree's rows are
                // counted once the walk has bounded its depth (`check_structures`).
                if let Some(Value::Array(rows)) = ds.get("tree").or_else(|| ds.get("data")) {
                    treemap_rects = add_treemap_rects(treemap_rects, rows.len(), levels, limits)?;
                }
            }
            _ => {}
        }
    }
    if total > limits.max_points {
        return Err(over(
            format!("{total} data points over all datasets"),
            limits.max_points,
            "MAX_POINTS",
        ));
    }
    for key in ["labels", "xLabels", "yLabels"] {
        let n = entries(data.and_then(|d| d.get(key)).filter(|v| v.is_array()));
        if n > limits.max_labels {
            return Err(over(
                format!("{n} entries in data.{key}"),
                limits.max_labels,
                "MAX_LABELS",
            ));
        }
    }
    let options = chart.get("options");
    if let Some(Value::Object(scales)) = options.and_then(|o| o.get("scales")) {
        for (id, scale) in scales {
            let n = entries(scale.get("labels").filter(|v| v.is_array()));
            if n > limits.max_labels {
                return Err(over(
                    format!("{n} entries in options.scales.{}.labels", shorten(id)),
                    limits.max_labels,
                    "MAX_LABELS",
                ));
            }
        }
    }
    // chartjs-plugin-annotation 3 reads only `options.plugins.annotation.annotations` (an
    // array, or an object whose keys are the annotations' ids); it has no per-scale or
    // per-dataset annotations.
    let annotations = entries(
        options
            .and_then(|o| o.get("plugins"))
            .and_then(|p| p.get("annotation"))
            .and_then(|a| a.get("annotations")),
    );
    if annotations > limits.max_annotations {
        return Err(over(
            format!("{annotations} annotations"),
            limits.max_annotations,
            "MAX_ANNOTATIONS",
        ));
    }
    Ok(total)
}

/// Adds one treemap's rectangles to the running total: each of its `levels` groupings and
/// its leaves make at most one rectangle per row, so `rows × (levels + 1)` bounds them.
fn add_treemap_rects(
    total: usize,
    rows: usize,
    levels: usize,
    limits: &Limits,
) -> Result<usize, RequestError> {
    let total = total.saturating_add(rows.saturating_mul(levels.saturating_add(1)));
    if total > limits.max_treemap_leaves {
        return Err(over(
            format!("{total} treemap rectangles (rows × (groups + 1), over all datasets)"),
            limits.max_treemap_leaves,
            "MAX_TREEMAP_LEAVES",
        ));
    }
    Ok(total)
}

/// One open container of the walk: the rest of its children.
enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(serde_json::map::Iter<'a>),
}

/// Characters of one string of the request `field`, checked against `MAX_TEXT_CHARS`.
/// Counting is skipped when the UTF-8 length is already within the budget (a character is at
/// least one byte).
pub(crate) fn check_text(
    s: &str,
    field: &'static str,
    limits: &Limits,
) -> Result<(), RequestError> {
    if s.len() <= limits.max_text_chars {
        return Ok(());
    }
    let chars = s.chars().count();
    if chars > limits.max_text_chars {
        return Err(RequestError::OverBudget {
            field,
            what: format!("a string of {chars} characters"),
            max: limits.max_text_chars,
            variable: "MAX_TEXT_CHARS",
        });
    }
    Ok(())
}

/// Walks every value of the config once, depth first with an explicit stack (one frame per
/// open container, so at most `MAX_JSON_DEPTH` frames), checking the nesting depth and every
/// string, keys included. Returns the values visited and the deepest level met.
fn walk(chart: &Map<String, Value>, limits: &Limits) -> Result<(usize, usize), RequestError> {
    // Also for budgets built in code rather than by `Limits::from_vars`: what follows the
    // check (copying, hashing, resolving the config) recurses on the JSON's nesting.
    let max_depth = limits.max_json_depth.min(JSON_DEPTH_CEILING);
    if max_depth == 0 {
        return Err(over(
            "a value nested 1 level deep".into(),
            max_depth,
            "MAX_JSON_DEPTH",
        ));
    }
    let mut stack: Vec<Frame<'_>> = Vec::with_capacity(max_depth.min(64));
    stack.push(Frame::Object(chart.iter()));
    let (mut values, mut deepest) = (1usize, 1usize);
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Frame::Array(it) => it.next(),
            Frame::Object(it) => match it.next() {
                Some((k, v)) => {
                    check_text(k, "chart", limits)?;
                    Some(v)
                }
                None => None,
            },
        };
        let Some(v) = next else {
            stack.pop();
            continue;
        };
        values += 1;
        let frame = match v {
            Value::String(s) => {
                check_text(s, "chart", limits)?;
                continue;
            }
            Value::Array(a) => Frame::Array(a.iter()),
            Value::Object(m) => Frame::Object(m.iter()),
            Value::Null | Value::Bool(_) | Value::Number(_) => continue,
        };
        let depth = stack.len() + 1;
        if depth > max_depth {
            return Err(over(
                format!("a value nested {depth} levels deep"),
                max_depth,
                "MAX_JSON_DEPTH",
            ));
        }
        deepest = deepest.max(depth);
        stack.push(frame);
    }
    Ok((values, deepest))
}

/// The budgets that need a scan of one part of the config: distinct sankey nodes, and the
/// rows of treemap trees given as nested objects. Run after [`walk`], so every nesting they
/// meet is within `MAX_JSON_DEPTH`.
fn check_structures(chart: &Map<String, Value>, limits: &Limits) -> Result<(), RequestError> {
    let mut treemap_rects: usize = 0;
    for (i, ds) in datasets(chart).iter().enumerate() {
        let Some(ds) = ds.as_object() else { continue };
        match dataset_type(chart, ds) {
            "sankey" => check_sankey_nodes(i, ds, limits)?,
            "treemap" => {
                let levels = entries(ds.get("groups"));
                let rows = match ds.get("tree").or_else(|| ds.get("data")) {
                    Some(Value::Array(rows)) => rows.len(),
                    Some(Value::Object(tree)) => {
                        let key = ds.get("key").and_then(Value::as_str).unwrap_or("");
                        object_tree_rows(tree, key)
                    }
                    _ => 0,
                };
                treemap_rects = add_treemap_rects(treemap_rects, rows, levels, limits)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The rows chartjs-chart-treemap's `normalizeTreeToArray` makes of an object tree: one per
/// nested object (below the root) that holds `key`; other objects are descended into.
/// Iterative, with one frame per level.
fn object_tree_rows(tree: &Map<String, Value>, key: &str) -> usize {
    let mut rows = 0usize;
    let mut stack: Vec<serde_json::map::Values<'_>> = vec![tree.values()];
    while let Some(top) = stack.last_mut() {
        let Some(child) = top.next() else {
            stack.pop();
            continue;
        };
        let Some(obj) = child.as_object() else {
            continue;
        };
        if obj.contains_key(key) {
            rows += 1;
        } else {
            stack.push(obj.values());
        }
    }
    rows
}

/// A sankey node's identity: the JavaScript string of its `from`/`to` value, as the sankey
/// controller keys its node map. Arrays and objects (absurd keys) are each counted as a node
/// of their own rather than stringified, which would allocate in proportion to them.
#[derive(Hash, PartialEq, Eq)]
enum NodeKey<'a> {
    Text(Cow<'a, str>),
    Value(*const Value),
}

fn node_key(v: &Value) -> NodeKey<'_> {
    NodeKey::Text(match v {
        Value::String(s) => Cow::Borrowed(s.as_str()),
        Value::Number(n) => Cow::Owned(crate::values::js_number(n.as_f64().unwrap_or(f64::NAN))),
        Value::Bool(true) => Cow::Borrowed("true"),
        Value::Bool(false) => Cow::Borrowed("false"),
        Value::Null => Cow::Borrowed("null"),
        Value::Array(_) | Value::Object(_) => return NodeKey::Value(std::ptr::from_ref(v)),
    })
}

/// Distinct `from`/`to` keys of one sankey dataset (renamed by the dataset's `parsing`, as
/// chartjs-chart-sankey reads them). The set holds at most `MAX_SANKEY_NODES + 1` keys: the
/// scan stops as soon as the budget is exceeded.
fn check_sankey_nodes(
    index: usize,
    ds: &Map<String, Value>,
    limits: &Limits,
) -> Result<(), RequestError> {
    let Some(Value::Array(flows)) = ds.get("data") else {
        return Ok(());
    };
    let parsing = ds.get("parsing").and_then(Value::as_object);
    let key = |name: &'static str| {
        parsing
            .and_then(|p| p.get(name))
            .and_then(Value::as_str)
            .unwrap_or(name)
    };
    let (from, to) = (key("from"), key("to"));
    let max = limits.max_sankey_nodes;
    let mut nodes: HashSet<NodeKey<'_>> = HashSet::with_capacity(flows.len().min(max) + 1);
    for flow in flows {
        let Some(flow) = flow.as_object() else {
            continue;
        };
        // The controller skips flows missing either end.
        let (Some(f), Some(t)) = (flow.get(from), flow.get(to)) else {
            continue;
        };
        nodes.insert(node_key(f));
        nodes.insert(node_key(t));
        if nodes.len() > max {
            return Err(over(
                format!(
                    "at least {} sankey nodes (distinct from/to keys) in dataset {index}",
                    nodes.len()
                ),
                max,
                "MAX_SANKEY_NODES",
            ));
        }
    }
    Ok(())
}
