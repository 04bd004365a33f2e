//! The catalogue of hostile requests: issue 9's table (requests that once took the service
//! down) and their relatives, each with its designed answer. One list for two users: the
//! integration test `hostile` (each case against a real server, one at a time and two at
//! once) and `cargo xtask loadtest --soak` (the cases marked [`Case::soak`] mixed into a
//! load at twice the cache-miss capacity).
//!
//! Building the list allocates the large bodies (tens of MB in all): call it once.

use serde_json::{json, Value};

/// How a case is sent.
pub enum Send {
    /// `POST /render` with this JSON request.
    Post(Value),
    /// `POST /render` with these bytes as the body.
    Body(Vec<u8>),
    /// These bytes on a fresh connection (the server closes it).
    Raw(Vec<u8>),
    /// `POST /render` with extra headers.
    Headers(Value, Vec<(&'static str, &'static str)>),
}

/// The designed answer.
pub struct Expect {
    /// The status.
    pub status: u16,
    /// The error message (or, for 200, the X-Cache-Url) must contain this.
    pub contains: Option<&'static str>,
    /// For 200: X-Chart-Messages must be present (Chart.js would warn or throw).
    pub messages: bool,
    /// For 200: X-Cache-Url must not contain this.
    pub not_contains: Option<&'static str>,
}

fn status(status: u16) -> Expect {
    Expect {
        status,
        contains: None,
        messages: false,
        not_contains: None,
    }
}

fn limit(status: u16, variable: &'static str) -> Expect {
    Expect {
        contains: Some(variable),
        ..self::status(status)
    }
}

/// One hostile request.
pub struct Case {
    /// What it is, for reports.
    pub name: &'static str,
    /// How it is sent.
    pub send: Send,
    /// Its designed answer.
    pub expect: Expect,
    /// Part of the soak's hostile mix: answered without drawing (refused by a budget or
    /// before routing) or drawn quickly, so the soak measures the defences under load rather
    /// than a few slow charts.
    pub soak: bool,
}

fn post(name: &'static str, chart: Value, expect: Expect) -> Case {
    Case {
        name,
        send: Send::Post(json!({"chart": chart, "width": 400, "height": 300})),
        expect,
        soak: false,
    }
}

fn sankey_chain(nodes: usize) -> Value {
    let flows: Vec<Value> = (0..nodes - 1)
        .map(|i| json!({"from": format!("n{i}"), "to": format!("n{}", i + 1), "flow": 1}))
        .collect();
    json!({"type": "sankey", "data": {"datasets": [{"data": flows}]}})
}

fn treemap_groups(depth: usize, rows: usize) -> Value {
    let groups: Vec<String> = (0..depth).map(|g| format!("g{g}")).collect();
    let tree: Vec<Value> = (0..rows)
        .map(|r| {
            let mut row = serde_json::Map::new();
            for (g, name) in groups.iter().enumerate() {
                row.insert(name.clone(), json!(format!("{}", (r + g) % 7)));
            }
            row.insert("v".into(), json!(r + 1));
            Value::Object(row)
        })
        .collect();
    json!({"type": "treemap", "data": {"datasets": [{"tree": tree, "key": "v", "groups": groups}]}})
}

/// A `POST /render` body of a line chart with `n` zero points, written directly (a
/// `serde_json::Value` of millions of numbers would cost the test itself hundreds of MB).
fn line_points_body(n: usize) -> Vec<u8> {
    let mut b = String::with_capacity(n * 2 + 200);
    b.push_str(r#"{"width":400,"height":300,"chart":{"type":"line","data":{"datasets":[{"pointRadius":0,"data":["#);
    for i in 0..n {
        b.push_str(if i == 0 { "0" } else { ",0" });
    }
    b.push_str("]}]}}}");
    b.into_bytes()
}

/// The cases of the soak's hostile mix (see [`Case::soak`]).
const SOAK: [&str; 12] = [
    "sankey chain of 20,000 nodes",
    "treemap with 300 nested groups x 300 rows",
    "line with 5,000,000 points",
    "5 MB title",
    "width 0.4",
    "pie whose sum overflows",
    "borderWidth 1e300",
    "radar above scales.r.max, title without text",
    "config nested 10,000 deep",
    "1 MB query string",
    "1 MB header",
    "body over 10 MiB",
];

/// A small valid bar chart.
fn bar() -> Value {
    json!({
        "type": "bar",
        "data": {"labels": ["a", "b", "c"], "datasets": [{"label": "n", "data": [1, 3, 2]}]}
    })
}

/// Every case.
pub fn cases() -> Vec<Case> {
    let mut cases = all();
    for c in &mut cases {
        c.soak = SOAK.contains(&c.name);
    }
    cases
}

fn all() -> Vec<Case> {
    let bar = bar();
    vec![
        // The issue's table.
        post(
            "sankey chain of 20,000 nodes",
            sankey_chain(20_000),
            limit(400, "MAX_SANKEY_NODES"),
        ),
        // Within MAX_SANKEY_NODES, but its 5,000 columns are 0.16 px apart: every node and
        // flow (a gradient band as tall as the chart) lies on the ones before, and the scene
        // would paint its bitmap about 330 times over (70 million pixels of gradient; 9 s in
        // a release build, a minute in a debug one). Refused before it is drawn.
        post(
            "sankey chain of 5,000 nodes",
            sankey_chain(5_000),
            limit(400, "MAX_OVERDRAW"),
        ),
        // A shorter chain is still drawn (100 nodes, about 6 bitmaps: a 500-node chain,
        // about 31, took 12 s in a debug build on a loaded machine, too near the suite's
        // 15 s limit when two run at once).
        post("sankey chain of 100 nodes", sankey_chain(100), status(200)),
        post(
            "doughnut with -1e308",
            json!({"type": "doughnut", "data": {"labels": ["a", "b", "c"],
                   "datasets": [{"data": [-1e308, 1, 2]}]}}),
            status(200),
        ),
        post(
            "pie whose sum overflows",
            json!({"type": "pie", "data": {"datasets": [{"data": [1e308, 1e308, 1]}]}}),
            status(200),
        ),
        post(
            "polar area with 1e308 and -1e308",
            json!({"type": "polarArea", "data": {"datasets": [{"data": [1e308, -1e308, 5]}]}}),
            status(200),
        ),
        post(
            "treemap with 300 nested groups x 300 rows",
            treemap_groups(300, 300),
            limit(400, "MAX_TREEMAP_DEPTH"),
        ),
        post(
            "treemap with 16 nested groups x 300 rows",
            treemap_groups(16, 300),
            status(200),
        ),
        Case {
            name: "line with 5,000,000 points",
            soak: false,
            send: Send::Body(line_points_body(5_000_000)),
            // Refused while parsing, before the values are built.
            expect: limit(400, "MAX_JSON_VALUES"),
        },
        Case {
            name: "line with 100,000 points",
            soak: false,
            send: Send::Body(line_points_body(100_000)),
            expect: status(200),
        },
        post(
            "5 MB title",
            json!({"type": "bar", "data": bar["data"],
                   "options": {"plugins": {"title": {"display": true,
                                                    "text": "x".repeat(5_000_000)}}}}),
            limit(400, "MAX_TEXT_CHARS"),
        ),
        post(
            "5 MB label",
            json!({"type": "bar", "data": {"labels": ["y".repeat(5_000_000)],
                   "datasets": [{"data": [1]}]}}),
            limit(400, "MAX_TEXT_CHARS"),
        ),
        post(
            "maximumFractionDigits 2e9",
            json!({"type": "bar", "data": bar["data"], "options": {"scales": {"y": {"ticks":
                   {"format": {"maximumFractionDigits": 2e9}}}}}}),
            Expect {
                messages: true,
                ..status(200)
            },
        ),
        post(
            "pointRadius 1e9",
            json!({"type": "line", "data": {"labels": ["a", "b"],
                   "datasets": [{"data": [1, 2], "pointRadius": 1e9}]}}),
            status(200),
        ),
        post(
            "borderWidth 1e300",
            json!({"type": "bar", "data": {"labels": ["a"],
                   "datasets": [{"data": [1], "borderWidth": 1e300}]}}),
            status(200),
        ),
        post(
            "treemap labels.color []",
            json!({"type": "treemap", "data": {"datasets": [{"tree": [1, 2, 3],
                   "labels": {"display": true, "color": []}}]}}),
            status(200),
        ),
        post(
            "treemap data containing {}",
            json!({"type": "treemap", "data": {"datasets": [{"tree": [{}, 1, 2]}]}}),
            status(200),
        ),
        post(
            "treemap sort over mixed values",
            json!({"type": "treemap", "data": {"datasets": [{"key": "v",
                   "tree": [{"v": 3}, {"v": "x"}, {"v": null}, {"v": 1}, {}, {"v": 2}]}]}}),
            status(200),
        ),
        post(
            "radar above scales.r.max, title without text",
            json!({"type": "radar", "data": {"labels": ["a", "b", "c"],
                   "datasets": [{"data": [1, 50, 3]}]},
                   "options": {"scales": {"r": {"max": 10}},
                               "plugins": {"title": {"display": true}}}}),
            status(200),
        ),
        Case {
            name: "width 0.4",
            soak: false,
            send: Send::Post(json!({"chart": bar, "width": 0.4})),
            expect: limit(400, "Invalid size"),
        },
        Case {
            name: "1 MB query string",
            soak: false,
            send: Send::Raw(
                format!(
                    "GET /render?chart={} HTTP/1.1\r\nHost: x\r\n\r\n",
                    "a".repeat(1 << 20)
                )
                .into_bytes(),
            ),
            expect: limit(414, "URI too long"),
        },
        Case {
            name: "1 MB header",
            soak: false,
            send: Send::Raw(
                format!(
                    "GET /health HTTP/1.1\r\nHost: x\r\nX-A: {}\r\n\r\n",
                    "a".repeat(1 << 20)
                )
                .into_bytes(),
            ),
            expect: limit(431, "Request header fields too large"),
        },
        Case {
            name: "body over 10 MiB",
            soak: false,
            send: Send::Raw(
                format!(
                    "POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
                    11 << 20
                )
                .into_bytes(),
            ),
            expect: limit(413, "Request body too large"),
        },
        Case {
            name: "X-Forwarded-* and Host from the client",
            soak: false,
            send: Send::Headers(
                json!({"chart": bar, "width": 50, "height": 50}),
                vec![
                    ("host", "evil.example"),
                    ("x-forwarded-host", "evil.example"),
                    ("x-forwarded-proto", "https"),
                ],
            ),
            expect: Expect {
                contains: Some("http://127.0.0.1:"),
                not_contains: Some("evil"),
                ..status(200)
            },
        },
        Case {
            name: "config nested 10,000 deep",
            soak: false,
            send: Send::Body(
                format!(
                    "{{\"chart\":{}1{}}}",
                    "{\"a\":".repeat(10_000),
                    "}".repeat(10_000)
                )
                .into_bytes(),
            ),
            expect: status(400),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_soak_case_exists() {
        let cases = cases();
        for name in SOAK {
            assert!(cases.iter().any(|c| c.name == name), "{name}");
        }
        assert_eq!(cases.iter().filter(|c| c.soak).count(), SOAK.len());
    }
}
