//! The byte scan that runs before serde_json (`budget::scan_json`): its count of values and
//! levels is exactly what serde_json builds of any valid JSON (random texts, random bytes,
//! every gallery example and fixture config, and mutations of them), it never panics, and the
//! exact-size parser after it (`budget::parse_json`) gives serde_json's own values and errors;
//! the budgets the scan enforces (`MAX_JSON_VALUES`, `MAX_JSON_DEPTH`) apply to bodies and to
//! the `chart` query parameter before anything is parsed.

use std::fmt;
use std::path::{Path, PathBuf};

use chart_spec::budget::{parse_json, parse_json_within, scan_json, JsonScan, JsonText};
use chart_spec::{Limits, RenderOptions, RequestError};
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// What serde_json itself meets while parsing a text: every value it builds (a duplicate
/// key's replaced value included) and the deepest container, counted by a visitor that
/// builds nothing. `None` when serde_json refuses the text.
fn serde_count(text: &[u8]) -> Option<(usize, usize)> {
    struct Count<'a> {
        values: &'a mut usize,
        deepest: &'a mut usize,
        level: usize,
    }
    impl Count<'_> {
        fn scalar<E>(self) -> Result<(), E> {
            *self.values += 1;
            Ok(())
        }
        fn child(&mut self) -> Count<'_> {
            Count {
                values: self.values,
                deepest: self.deepest,
                level: self.level + 1,
            }
        }
        fn container(&mut self) {
            *self.values += 1;
            *self.deepest = (*self.deepest).max(self.level + 1);
        }
    }
    impl<'de> DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            self.scalar()
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            self.scalar()
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            self.scalar()
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            self.scalar()
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            self.scalar()
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            self.scalar()
        }
        fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
            self.container();
            while seq.next_element_seed(self.child())?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
            self.container();
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(self.child())?;
            }
            Ok(())
        }
    }
    let (mut values, mut deepest) = (0, 0);
    let mut de = serde_json::Deserializer::from_slice(text);
    let seed = Count {
        values: &mut values,
        deepest: &mut deepest,
        level: 0,
    };
    seed.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some((values, deepest))
}

/// Values of a parsed `Value` and its deepest container (the outermost is level 1), walked
/// without recursion.
fn walk_count(v: &Value) -> (usize, usize) {
    let (mut values, mut deepest) = (0, 0);
    let mut stack = vec![(v, 1usize)];
    while let Some((v, level)) = stack.pop() {
        values += 1;
        match v {
            Value::Array(a) => {
                deepest = deepest.max(level);
                stack.extend(a.iter().map(|c| (c, level + 1)));
            }
            Value::Object(m) => {
                deepest = deepest.max(level);
                stack.extend(m.values().map(|c| (c, level + 1)));
            }
            _ => {}
        }
    }
    (values, deepest)
}

/// No budget in the way: the scan only counts.
fn unbounded() -> Limits {
    Limits {
        max_json_values: usize::MAX,
        max_json_depth: usize::MAX,
        ..Limits::default()
    }
}

fn scan(text: &[u8]) -> JsonScan {
    match scan_json(text, JsonText::ChartConfig, &unbounded()) {
        Ok(s) => s,
        Err(e) => panic!("refused without a budget: {e}"),
    }
}

/// Checks the scan against serde_json on one text: never a panic; of valid JSON, the same
/// counts, accepted at exactly those budgets, refused one under either. Returns whether the
/// text was valid.
fn agrees(text: &[u8]) -> bool {
    // The exact-size parser builds the same value as serde_json, or fails with its error.
    match (parse_json(text), serde_json::from_slice::<Value>(text)) {
        // (`Map`'s equality ignores key order; the text shows it.)
        (Ok(ours), Ok(theirs)) => assert_eq!(ours.to_string(), theirs.to_string()),
        (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string()),
        (ours, theirs) => panic!(
            "parse_json {ours:?} vs serde_json {theirs:?} on {}",
            String::from_utf8_lossy(text)
        ),
    }
    let counted = scan(text);
    // The one-pass reading refuses and reads as the scan and the parser apart, at the text's
    // own budgets, one under them, and without any.
    for limits in [
        unbounded(),
        Limits {
            max_json_values: counted.values,
            max_json_depth: counted.depth.max(1),
            ..Limits::default()
        },
        Limits {
            max_json_values: counted.values.saturating_sub(1),
            max_json_depth: counted.depth.max(1),
            ..Limits::default()
        },
        Limits {
            max_json_values: counted.values,
            max_json_depth: counted.depth.saturating_sub(1),
            ..Limits::default()
        },
    ] {
        for at in [JsonText::ChartConfig, JsonText::RequestBody] {
            let apart = scan_json(text, at, &limits).map(|_| parse_json(text));
            let one_pass = parse_json_within(text, at, &limits);
            assert_eq!(
                format!("{:?}", one_pass.map(|r| r.map(|v| v.to_string()))),
                format!("{:?}", apart.map(|r| r.map(|v| v.to_string()))),
                "{at:?} within {} values, {} levels: {}",
                limits.max_json_values,
                limits.max_json_depth,
                String::from_utf8_lossy(text)
            );
        }
    }
    // Counted as a body, the same values, one level less.
    let as_body = scan_json(text, JsonText::RequestBody, &unbounded()).unwrap();
    assert_eq!(as_body.values, counted.values);
    assert_eq!(as_body.depth, counted.depth.saturating_sub(1));
    let Some((values, deepest)) = serde_count(text) else {
        return false;
    };
    let shown = String::from_utf8_lossy(text);
    assert_eq!(
        (counted.values, counted.depth),
        (values, deepest),
        "scan vs serde_json on {shown}"
    );
    let exact = Limits {
        max_json_values: values,
        max_json_depth: deepest.max(1),
        ..Limits::default()
    };
    assert!(
        scan_json(text, JsonText::ChartConfig, &exact).is_ok(),
        "refused at its own counts: {shown}"
    );
    let fewer = Limits {
        max_json_values: values - 1,
        ..exact
    };
    assert!(
        scan_json(text, JsonText::ChartConfig, &fewer).is_err(),
        "{shown}"
    );
    if deepest > 1 {
        let shallower = Limits {
            max_json_depth: deepest - 1,
            ..exact
        };
        assert!(
            scan_json(text, JsonText::ChartConfig, &shallower).is_err(),
            "{shown}"
        );
    }
    true
}

/// A small deterministic generator (xorshift64*): the tests need no seed from outside and
/// always run the same cases.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

fn whitespace(rng: &mut Rng, out: &mut String) {
    for _ in 0..rng.below(3) {
        out.push(rng.pick(&[' ', '\t', '\n', '\r']));
    }
}

/// A random JSON string: escapes of every kind (a quote and a backslash among them),
/// surrogate pairs, raw multi-byte UTF-8, and bytes that look structural.
fn string(rng: &mut Rng, out: &mut String) {
    const PIECES: [&str; 16] = [
        "a",
        "\\\"",
        "\\\\",
        "\\/",
        "\\n",
        "\\u0041",
        "\\ud83d\\ude00",
        "é",
        "😀",
        "{",
        "]",
        ":",
        ",",
        " ",
        "\\\\\\\"",
        "true",
    ];
    out.push('"');
    for _ in 0..rng.below(5) {
        out.push_str(rng.pick(&PIECES));
    }
    out.push('"');
}

/// A random valid JSON text of at most `depth` levels, with whitespace anywhere it may be.
/// Object keys come from a small set: unless `distinct`, some objects repeat a key.
fn value(rng: &mut Rng, depth: usize, distinct: bool, out: &mut String) {
    whitespace(rng, out);
    let kinds = if depth == 0 { 6 } else { 8 };
    match rng.below(kinds) {
        0 => out.push_str("null"),
        1 => out.push_str(rng.pick(&["true", "false"])),
        2 => out.push_str(rng.pick(&["0", "-0", "12", "-3.25", "1e5", "2.5E-3", "1E+2", "-0.0"])),
        3..=5 => string(rng, out),
        6 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                value(rng, depth - 1, distinct, out);
            }
            whitespace(rng, out);
            out.push(']');
        }
        _ => {
            const KEYS: [&str; 5] = ["\"a\"", "\"b\"", "\"\\\"k\"", "\"\"", "\"x:\""];
            out.push('{');
            let members = rng.below(4);
            for (i, &own) in KEYS.iter().enumerate().take(members) {
                if i > 0 {
                    out.push(',');
                }
                whitespace(rng, out);
                out.push_str(if distinct { own } else { rng.pick(&KEYS) });
                whitespace(rng, out);
                out.push(':');
                value(rng, depth - 1, distinct, out);
            }
            whitespace(rng, out);
            out.push('}');
        }
    }
    whitespace(rng, out);
}

#[test]
fn small_texts_count_exactly() {
    let cases: [(&str, usize, usize); 14] = [
        ("", 0, 0),
        ("1", 1, 0),
        ("\"a\"", 1, 0),
        ("  \"a\"  ", 1, 0),
        ("[]", 1, 1),
        ("{}", 1, 1),
        ("[1,2,3]", 4, 1),
        ("[true,false,null,-1.5e3]", 5, 1),
        (r#"{"a":1,"b":"x"}"#, 3, 1),
        (r#"{ "a" : "b" , "c" :[ "d" ] }"#, 4, 2),
        (r#"["a\"b", "c\\", "\\\"", "]"]"#, 5, 1),
        (r#"{"\":":{":":[[{}]]}}"#, 5, 5),
        ("[[[[]]],[]]", 5, 4),
        (r#"{"a":1,"a":2}"#, 3, 1),
    ];
    for (text, values, depth) in cases {
        assert_eq!(scan(text.as_bytes()), JsonScan { values, depth }, "{text}");
        if !text.is_empty() {
            assert!(agrees(text.as_bytes()), "{text}");
        }
    }
    // A duplicate key's first value is built, then replaced: serde_json's `Value` keeps two
    // values of the three the scan (and the parser) meets.
    let dup = serde_json::from_str::<Value>(r#"{"a":1,"a":2}"#).unwrap();
    assert_eq!(walk_count(&dup), (2, 1));
}

#[test]
fn random_valid_json_counts_as_serde_json_parses_it() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut valid = 0;
    for case in 0..3_000 {
        let distinct = case % 2 == 0;
        let mut text = String::new();
        value(&mut rng, 6, distinct, &mut text);
        assert!(agrees(text.as_bytes()), "not valid JSON: {text}");
        valid += 1;
        // The parsed `Value` keeps only the last of repeated keys' values; without repeated
        // keys, it holds every value the scan counted.
        let v: Value = serde_json::from_str(&text).unwrap();
        let counted = scan(text.as_bytes());
        let parsed = walk_count(&v);
        if distinct {
            assert_eq!((counted.values, counted.depth), parsed, "{text}");
        } else {
            assert!(
                counted.values >= parsed.0 && counted.depth >= parsed.1,
                "{text}"
            );
        }
    }
    assert_eq!(valid, 3_000);
}

#[test]
fn random_bytes_never_panic_and_count_as_serde_json_where_valid() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    const JSONISH: &[u8] = b"{}[]\":,\\ \t\n\r0123456789-+.eEtruefalsn\x00\x7f\xc3\xa9\xff";
    let mut valid = 0;
    for case in 0..20_000 {
        let len = rng.below(64);
        let text: Vec<u8> = (0..len)
            .map(|_| {
                if case % 4 == 0 {
                    rng.next_u64() as u8
                } else {
                    rng.pick(JSONISH)
                }
            })
            .collect();
        if agrees(&text) {
            valid += 1;
        }
        // Tight budgets on arbitrary bytes: an answer, never a panic.
        let tight = Limits {
            max_json_values: 2,
            max_json_depth: 1,
            ..Limits::default()
        };
        let _ = scan_json(&text, JsonText::RequestBody, &tight);
    }
    // Some of them must have been JSON, or the comparison above tested nothing.
    assert!(valid > 100, "{valid}");
}

/// `fixtures/examples/*.json`, and every config of the Chart.js and plugin fixtures
/// (`../shared/*-fixtures/dev/**.json` from the repository root, or the nearest ancestor that
/// has `shared/`).
fn fixture_files() -> Vec<PathBuf> {
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                collect(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    collect(&root.join("fixtures/examples"), &mut files);
    if let Some(shared) = root
        .ancestors()
        .map(|a| a.join("shared"))
        .find(|p| p.is_dir())
    {
        for kind in ["chartjs-fixtures", "plugin-fixtures"] {
            collect(&shared.join(kind).join("dev"), &mut files);
        }
    }
    files.sort();
    files
}

#[test]
fn every_example_and_fixture_counts_as_parsed_and_is_within_budget() {
    let files = fixture_files();
    // The gallery examples are in the repository, so this always tests something.
    assert!(files.len() >= 30, "{}", files.len());
    let mut rng = Rng(0x243F_6A88_85A3_08D3);
    for path in &files {
        let text = std::fs::read(path).unwrap();
        let shown = path.display();
        assert!(agrees(&text), "{shown} is not valid JSON");
        let v: Value = serde_json::from_slice(&text).unwrap();
        let counted = scan(&text);
        assert_eq!(
            (counted.values, counted.depth),
            walk_count(&v),
            "{shown}: scan vs the parsed value"
        );
        // Its config, sent as a body and as the `chart` query parameter, is accepted by the
        // default budgets.
        let config = &v["config"];
        if config.is_object() {
            let body = serde_json::to_vec(&serde_json::json!({ "chart": config })).unwrap();
            let defaults = Limits::default();
            let scanned = scan_json(&body, JsonText::RequestBody, &defaults)
                .unwrap_or_else(|e| panic!("{shown}: {e}"));
            // One value more than the config (the body object), the same levels.
            let (values, depth) = walk_count(config);
            assert_eq!(
                (scanned.values, scanned.depth),
                (values + 1, depth),
                "{shown}"
            );
            RenderOptions::from_json_bytes(&body).unwrap_or_else(|e| panic!("{shown}: {e}"));
            let text = config.to_string();
            RenderOptions::from_query([("chart", text.as_str())])
                .unwrap_or_else(|e| panic!("{shown}: {e}"));
        }
        // Damaged copies: a byte deleted, replaced or inserted at a random place.
        for _ in 0..3 {
            let mut bad = text.clone();
            let at = rng.below(bad.len().max(1));
            let b = rng.pick(b"{}[]\":,\\ 0a\xff");
            match rng.below(3) {
                0 if !bad.is_empty() => {
                    bad.remove(at);
                }
                1 if !bad.is_empty() => bad[at] = b,
                _ => bad.insert(at.min(bad.len()), b),
            }
            agrees(&bad);
        }
    }
}

fn over_budget(e: RequestError) -> (String, usize, &'static str) {
    match e {
        RequestError::OverBudget {
            field,
            max,
            variable,
            ..
        } => (field.to_string(), max, variable),
        other => panic!("not a budget error: {other}"),
    }
}

#[test]
fn the_value_budget_applies_to_bodies_and_query_strings_before_parsing() {
    let l = Limits {
        max_json_values: 10,
        ..Limits::default()
    };
    // The body object, `chart`, `"bar"`, `data`, `datasets`, the dataset, `data`: 7 values,
    // then the numbers.
    let body = |n: usize| {
        let data: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        format!(
            r#"{{"chart":{{"type":"bar","data":{{"datasets":[{{"data":[{}]}}]}}}}}}"#,
            data.join(",")
        )
    };
    assert!(RenderOptions::from_json_bytes_with_limits(body(3).as_bytes(), &l).is_ok());
    assert_eq!(
        RenderOptions::from_json_bytes_with_limits(body(4).as_bytes(), &l)
            .unwrap_err()
            .to_string(),
        "Invalid request body: 11 JSON values is over the limit of 10 (MAX_JSON_VALUES)"
    );
    // Every field of the body counts, the ones the service ignores too: serde_json builds
    // them all.
    let padded = body(3).replacen('{', r#"{"unused":[],"#, 1);
    assert_eq!(
        over_budget(RenderOptions::from_json_bytes_with_limits(padded.as_bytes(), &l).unwrap_err()),
        ("request body".into(), 10, "MAX_JSON_VALUES")
    );
    // The `chart` parameter is the config alone: no body object.
    let chart = |n: usize| {
        let data: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        format!(
            r#"{{"type":"bar","data":{{"datasets":[{{"data":[{}]}}]}}}}"#,
            data.join(",")
        )
    };
    assert!(RenderOptions::from_query_with_limits([("chart", chart(4))], &l).is_ok());
    assert_eq!(
        RenderOptions::from_query_with_limits([("chart", chart(5))], &l)
            .unwrap_err()
            .to_string(),
        "Invalid chart: 11 JSON values is over the limit of 10 (MAX_JSON_VALUES)"
    );
    // A config built in code is held to the same budget by `check_chart`.
    let built: Value = serde_json::from_str(&chart(5)).unwrap();
    assert_eq!(
        RenderOptions::from_json_with_limits(&serde_json::json!({ "chart": built }), &l)
            .unwrap_err()
            .to_string(),
        "Invalid chart: 11 JSON values is over the limit of 10 (MAX_JSON_VALUES)"
    );
    // Invalid JSON within the budgets is left to serde_json to name.
    assert!(matches!(
        RenderOptions::from_json_bytes_with_limits(b"{\"chart\":{", &l),
        Err(RequestError::InvalidJson(_))
    ));
    assert!(matches!(
        RenderOptions::from_query_with_limits([("chart", "{\"a\":")], &l),
        Err(RequestError::ChartNotJson(_))
    ));
}

#[test]
fn the_depth_budget_applies_before_parsing() {
    let l = Limits::default();
    // The config is level 1 in a body as alone; 63 arrays under `x` reach level 64.
    let config = |arrays: usize| {
        format!(
            r#"{{"options":{{"x":{}{}}}}}"#,
            "[".repeat(arrays - 1),
            "]".repeat(arrays - 1)
        )
    };
    let body = |arrays: usize| format!(r#"{{"chart":{}}}"#, config(arrays));
    assert_eq!(
        scan_json(body(63).as_bytes(), JsonText::RequestBody, &l)
            .unwrap()
            .depth,
        64
    );
    assert!(RenderOptions::from_json_bytes(body(63).as_bytes()).is_ok());
    assert_eq!(
        RenderOptions::from_json_bytes(body(64).as_bytes())
            .unwrap_err()
            .to_string(),
        "Invalid request body: a value nested 65 levels deep is over the limit of 64 \
         (MAX_JSON_DEPTH)"
    );
    assert!(RenderOptions::from_query([("chart", config(63))]).is_ok());
    assert_eq!(
        RenderOptions::from_query([("chart", config(64))])
            .unwrap_err()
            .to_string(),
        "Invalid chart: a value nested 65 levels deep is over the limit of 64 (MAX_JSON_DEPTH)"
    );
    // The exact-size parser recurses like serde_json's, and stops where it does.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(
        parse_json(deep.as_bytes()).unwrap_err().to_string(),
        "recursion limit exceeded at line 1 column 128"
    );
    assert!(parse_json(format!("{}{}", "[".repeat(127), "]".repeat(127)).as_bytes()).is_ok());
    // Unbalanced brackets are counted too: 10,000 unclosed arrays are refused by the scan,
    // not handed to serde_json.
    let open = format!(r#"{{"chart":{{"x":{}"#, "[".repeat(10_000));
    assert_eq!(
        over_budget(RenderOptions::from_json_bytes(open.as_bytes()).unwrap_err()),
        ("request body".into(), 64, "MAX_JSON_DEPTH")
    );
}

/// Peak resident memory of this process (`VmHWM`), and its current one (`VmRSS`), in KiB.
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|r| r.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// A body of about 10 MiB: `{"chart":{"options":{"x":[<item>,<item>,…]}}}`.
fn ten_mib_of(item: &str) -> (String, usize) {
    super::budget::ten_mib_body(r#"{"chart":{"options":{"x":["#, item, "]}}}")
}

/// Not a test: the figures in the README. Run one case per process, alone, e.g.
/// `RSS_CASE=numbers RSS_PATH=serde cargo test -p chart-spec --test integration --
/// --ignored --exact json_scan::peak_memory_of_parsing --nocapture`.
///
/// `RSS_PATH` is `serde` (what the service did before the scan: parse the whole body),
/// `request` (`RenderOptions::from_json_bytes_with_limits`, scan first), `hash`
/// (`RenderOptions::hash` of the parsed request) or `copy` (`RenderOptions::to_json`: one
/// copy of it, which hashing used to make twice). `RSS_CASE` is the item the body repeats:
/// `numbers` (`1`), `arrays` (`[1]`), `objects` (`{"a":1}`), `points` (`{"x":1,"y":2}`),
/// `strings` (`"ab"`), `chains` (7 objects of one key in each other), `long-chains` (60 of
/// them), `nested` (7 arrays of one element in each other). `RSS_ITEMS` caps the items
/// (default: as many as fit in 10 MiB), `MAX_JSON_VALUES` sets the budget. The peak is read
/// from `/proc/self/status` after resetting it through `/proc/self/clear_refs`.
#[test]
#[ignore = "a measurement, run by hand"]
fn peak_memory_of_parsing() {
    let case = std::env::var("RSS_CASE").unwrap_or_else(|_| "numbers".into());
    let long_chain = format!("{}1{}", r#"{"a":"#.repeat(60), "}".repeat(60));
    let item = match case.as_str() {
        "numbers" => "1",
        "arrays" => "[1]",
        "objects" => r#"{"a":1}"#,
        "points" => r#"{"x":1,"y":2}"#,
        "strings" => r#""ab""#,
        "chains" => r#"{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}"#,
        "nested" => "[[[[[[[1]]]]]]]",
        "long-chains" => long_chain.as_str(),
        other => panic!("unknown RSS_CASE {other}"),
    };
    let (mut body, mut n) = ten_mib_of(item);
    if let Some(cap) = std::env::var("RSS_ITEMS").ok().and_then(|s| s.parse().ok()) {
        if cap < n {
            n = cap;
            let mut items = vec![item; n].join(",");
            items.insert_str(0, r#"{"chart":{"options":{"x":["#);
            items.push_str("]}}}");
            body = items;
        }
    }
    let limits = Limits::from_vars(|k| std::env::var(k).ok()).unwrap();
    let values = scan(body.as_bytes()).values;
    let path = std::env::var("RSS_PATH").unwrap_or_else(|_| "request".into());
    // For the hashing paths, the request is parsed before the measurement starts.
    let parsed = matches!(path.as_str(), "hash" | "copy")
        .then(|| RenderOptions::from_json_bytes_with_limits(body.as_bytes(), &limits).unwrap());
    std::fs::write("/proc/self/clear_refs", "5").expect("resetting VmHWM");
    let (_, before) = rss_kib();
    let start = std::time::Instant::now();
    let outcome = match (path.as_str(), &parsed) {
        // The cache key, streamed.
        (_, Some(o)) if path == "hash" => format!("hash {}", o.hash()),
        // One copy of the request as a `Value`: what hashing cost twice over before it was
        // streamed (`to_json`, then a sorted copy of it, then its text).
        (_, Some(o)) => format!(
            "copied, {} keys",
            o.to_json().as_object().map_or(0, Map::len)
        ),
        ("serde", _) => {
            let v: Value = serde_json::from_slice(body.as_bytes()).unwrap();
            format!("parsed, {} values", walk_count(&v).0)
        }
        (_, _) => match RenderOptions::from_json_bytes_with_limits(body.as_bytes(), &limits) {
            Ok(o) => format!("admitted, config of {} keys", o.chart.len()),
            Err(e) => format!("refused: {e}"),
        },
    };
    let took = start.elapsed();
    let (peak, _) = rss_kib();
    let grew = peak.saturating_sub(before);
    println!(
        "RSS case={case} path={path} body={} bytes values={values} (items {n}): \
         peak grew by {grew} KiB ({:.1} MiB, {:.1} bytes per value) in {took:?}; {outcome}",
        body.len(),
        grew as f64 / 1024.0,
        grew as f64 * 1024.0 / values as f64,
    );
}

#[test]
fn parsed_arrays_keep_no_spare_room() {
    // serde_json grows an array to room for 4 and keeps it; each spare slot is a whole
    // `Value`, so in configs made of small arrays the slack was most of the memory.
    let grown: Value = serde_json::from_str("[[1],[1,2,3,4,5]]").unwrap();
    assert_eq!(grown[0].as_array().unwrap().capacity(), 4);
    let exact = parse_json(b"[[1],[1,2,3,4,5]]").unwrap();
    assert_eq!(exact.as_array().unwrap().capacity(), 2);
    assert_eq!(exact[0].as_array().unwrap().capacity(), 1);
    assert_eq!(exact[1].as_array().unwrap().capacity(), 5);
    // The request paths parse with it.
    let body = RenderOptions::from_json_bytes(br#"{"chart":{"options":{"x":[1]}}}"#).unwrap();
    assert_eq!(body.chart["options"]["x"].as_array().unwrap().capacity(), 1);
    let query = RenderOptions::from_query([("chart", r#"{"options":{"x":[1]}}"#)]).unwrap();
    assert_eq!(
        query.chart["options"]["x"].as_array().unwrap().capacity(),
        1
    );
}
