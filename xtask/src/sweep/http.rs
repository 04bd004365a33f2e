//! `cargo xtask sweep --http`: the same hostile configs sent through the HTTP layer of an
//! in-process server, in the shapes the engine sweep does not reach: `GET /render` query
//! strings, `GET|POST /chart` with QuickChart's parameters and JavaScript object literals
//! (functions, template strings, comments, hex numbers, broken escapes), odd numbers in every
//! numeric parameter, broken percent-encoding, and odd headers. A case is reported when it is
//! answered 500, not answered within its deadline + 10 s, or when `/health` does not answer
//! right after it (the service died or jammed).

use super::Case;
use crate::compare::random::Rng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Numbers as a query string or a QuickChart body may spell them.
const NUMBERS: &[&str] = &[
    "1e308",
    "-1",
    "0",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    " 5",
    "5px",
    "",
    "1e-320",
    "99999999999999999999999",
    "4.5e3",
    "+7",
    "1_000",
    "%00",
    "2e9",
];

/// Percent-encodes everything but unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `chart` written as a JavaScript object literal: keys unquoted where they can be, some
/// strings in single quotes, and functions, arrows, template strings, comments, trailing
/// commas and hex numbers mixed in.
fn js_literal(rng: &mut Rng, chart: &Value) -> String {
    let mut out = String::new();
    // An explicit stack of what is left to write: nothing recurses on the config's depth.
    enum Step<'a> {
        Value(&'a Value),
        Text(String),
    }
    let mut todo = vec![Step::Value(chart)];
    while let Some(step) = todo.pop() {
        let v = match step {
            Step::Text(t) => {
                out.push_str(&t);
                continue;
            }
            Step::Value(v) => v,
        };
        match v {
            Value::Object(m) => {
                out.push('{');
                let mut parts = Vec::new();
                for (k, c) in m {
                    let ident = !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !k.starts_with(|c: char| c.is_ascii_digit());
                    let key = if ident {
                        k.clone()
                    } else {
                        Value::from(k.as_str()).to_string()
                    };
                    parts.push((key, c));
                }
                todo.push(Step::Text(if rng.chance(0.3) { ",}" } else { "}" }.into()));
                for (i, (key, c)) in parts.into_iter().enumerate().rev() {
                    todo.push(Step::Value(c));
                    let sep = if i > 0 { "," } else { "" };
                    todo.push(Step::Text(format!("{sep}{key}:")));
                }
                if rng.chance(0.1) {
                    out.push_str(&expression(rng));
                }
            }
            Value::Array(a) => {
                out.push('[');
                todo.push(Step::Text("]".into()));
                for (i, c) in a.iter().enumerate().rev() {
                    todo.push(Step::Value(c));
                    if i > 0 {
                        todo.push(Step::Text(",".into()));
                    }
                }
            }
            Value::String(s) if rng.chance(0.3) && !s.contains(['\'', '\\']) => {
                out.push_str(&format!("'{s}'"));
            }
            Value::Number(n) if rng.chance(0.05) && n.as_u64().is_some() => {
                out.push_str(&format!("0x{:x}", n.as_u64().unwrap_or(0)));
            }
            other => out.push_str(&other.to_string()),
        }
    }
    out
}

/// A member the converter must leave out (or break on): code, not data.
fn expression(rng: &mut Rng) -> String {
    rng.pick(&[
        "cb: function (v) { return v + '}' + \"]\" + `${v}`; },".to_string(),
        "f: (a, b) => ({a: [b]}),".to_string(),
        "t: `x${ {a: 1}.a }y`,".to_string(),
        "r: /[}\\]]/g,".to_string(),
        "c: /* } */ 1,".to_string(),
        "d: // }\n 2,".to_string(),
        "h: 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF,".to_string(),
        "n: NaN, i: -Infinity, u: undefined,".to_string(),
        "s: 'a\\x4', e: '\\u12',".to_string(),
        format!("deep: {}1{},", "[".repeat(70), "]".repeat(70)),
        format!("long: '{}',", "\\'".repeat(50_000)),
        format!("x: {}", "(".repeat(10_000)),
        "new Date(2020, 1, 1),".to_string(),
    ])
}

/// One raw HTTP request made of a sweep case.
pub(super) fn request(rng: &mut Rng, case: &Case) -> Vec<u8> {
    let chart = &case.body["chart"];
    let num = |rng: &mut Rng| rng.pick(NUMBERS).to_string();
    let fmt = rng.pick(&["png", "jpg", "webp", "svg", "pdf", "base64", "gif", ""]);
    let (method, target, body): (&str, String, Vec<u8>) = match rng.int(0, 4) {
        0 => {
            let mut q = format!(
                "/render?chart={}&width={}&height={}&devicePixelRatio={}&format={fmt}",
                encode(&chart.to_string()),
                encode(&num(rng)),
                encode(&num(rng)),
                encode(&num(rng)),
            );
            if rng.chance(0.3) {
                q.push_str(&format!("&quality={}&width=2&chart=%7B", encode(&num(rng))));
            }
            if rng.chance(0.2) {
                q.push_str(rng.pick(&["&%zz=1", "&%", "&a=%C3%28", "&=&&", "&chart"]));
            }
            ("GET", q, Vec::new())
        }
        1 => {
            let lit = js_literal(rng, chart);
            let c = if rng.chance(0.2) {
                format!("{}&encoding=base64", base64(lit.as_bytes()))
            } else {
                encode(&lit)
            };
            let q = format!(
                "/chart?c={c}&w={}&h={}&devicePixelRatio={}&bkg={}&f={fmt}&v={}",
                encode(&num(rng)),
                encode(&num(rng)),
                encode(&num(rng)),
                encode(rng.pick(&["transparent", "#fff", "rgba(1e308,0,0,1)", "hsl(NaN)"])),
                rng.pick(&["2", "4", "2.9.4", ""]),
            );
            ("GET", q, Vec::new())
        }
        2 => {
            let lit = js_literal(rng, chart);
            let mut b = json!({"chart": lit, "w": num(rng), "h": num(rng),
                "devicePixelRatio": num(rng), "f": fmt, "quality": num(rng)});
            if rng.chance(0.3) {
                b["encoding"] = json!("base64");
                b["chart"] = json!(base64(lit.as_bytes()));
            }
            ("POST", "/chart".into(), b.to_string().into_bytes())
        }
        3 => {
            let mut b = case.body.clone();
            b["width"] = json!(num(rng));
            ("POST", "/chart".into(), b.to_string().into_bytes())
        }
        _ => ("POST", "/render".into(), case.body.to_string().into_bytes()),
    };
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: sweep\r\nConnection: close\r\n");
    for _ in 0..rng.int(0, 3) {
        let id_len = rng.int(0, 200) as usize;
        head.push_str(&rng.pick(&[
            format!("X-Request-Id: {}\r\n", "r".repeat(id_len)),
            "X-Request-Id: \u{e9}\u{202e}\r\n".to_string(),
            "Content-Type: text/plain; charset=utf-16\r\n".to_string(),
            "Authorization: Bearer \r\n".to_string(),
            "X-Forwarded-Host: a\r\nX-Forwarded-Proto: javascript\r\n".to_string(),
            "Accept-Encoding: gzip;q=1e308, br\r\n".to_string(),
            format!("X-Pad: {}\r\n", "p".repeat(8_000)),
        ]));
    }
    let chunked = !body.is_empty() && rng.chance(0.2);
    let mut wire = head.into_bytes();
    if chunked {
        wire.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
        for part in body.chunks(rng.int(1, 70_000) as usize) {
            wire.extend_from_slice(format!("{:x};ext=1\r\n", part.len()).as_bytes());
            wire.extend_from_slice(part);
            wire.extend_from_slice(b"\r\n");
        }
        wire.extend_from_slice(b"0\r\n\r\n");
    } else {
        if method == "POST" {
            wire.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
        }
        wire.extend_from_slice(b"\r\n");
        wire.extend_from_slice(&body);
    }
    wire
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Sends `wire` on a fresh connection; the status (0: no answer within `wait`) and the
/// first line of the body.
pub(super) async fn send(addr: SocketAddr, wire: &[u8], wait: Duration) -> (u16, String) {
    let go = async {
        let mut s = tokio::net::TcpStream::connect(addr).await?;
        // The server may answer and stop reading before all is sent.
        let _ = s.write_all(wire).await;
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        anyhow::Ok(out)
    };
    match tokio::time::timeout(wait, go).await {
        Ok(Ok(out)) => {
            let text = String::from_utf8_lossy(&out[..out.len().min(4096)]).into_owned();
            let status = text
                .split(' ')
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let body = text
                .split("\r\n\r\n")
                .nth(1)
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            (status, body)
        }
        _ => (0, String::new()),
    }
}

/// Runs `cases` HTTP cases made by `make` against an in-process server whose renders stop at
/// `deadline`; prints each reported case and the tally, and returns how many were reported.
pub(super) fn run(
    cases: std::ops::Range<u64>,
    seed: u64,
    deadline: Duration,
    make: impl Fn(u64) -> Case,
) -> anyhow::Result<u64> {
    use chart_raster::{Service, ServiceConfig};
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let service = Service::new(ServiceConfig {
            max_render_time: deadline,
            ..ServiceConfig::default()
        });
        let (addr, stop_tx, server) = crate::loadtest::serve_in_process(service).await?;
        let health = b"GET /health HTTP/1.1\r\nHost: sweep\r\nConnection: close\r\n\r\n";
        let mut tally = std::collections::BTreeMap::<u16, u64>::new();
        let mut reported = 0;
        let n = cases.end - cases.start;
        for i in cases {
            let case = make(i);
            let mut rng = Rng::for_case(seed ^ 0x4877_7770, i);
            let wire = request(&mut rng, &case);
            let started = Instant::now();
            let (status, body) = send(addr, &wire, deadline + Duration::from_secs(10)).await;
            let took = started.elapsed();
            *tally.entry(status).or_default() += 1;
            let (alive, _) = send(addr, health, Duration::from_secs(5)).await;
            if status == 500 || status == 0 || alive != 200 {
                reported += 1;
                let head =
                    String::from_utf8_lossy(&wire[..wire.len().min(160)]).replace("\r\n", " | ");
                println!(
                    "http case {i}: status {status} in {:.2}s, health {alive}: {} [{head}] {body}",
                    took.as_secs_f64(),
                    case.name
                );
            }
        }
        println!("{n} http cases: statuses {tally:?}, {reported} reported");
        let _ = stop_tx.send(());
        server.await??;
        anyhow::Ok(reported)
    })
}
