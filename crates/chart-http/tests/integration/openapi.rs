//! `GET /openapi.json` against the routes the server really has: every route is documented,
//! every documented operation exists and answers with a documented status.

use crate::common::*;
use chart_http::Route;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, _) in item.as_object().expect("path item") {
            assert!(METHODS.contains(&method.as_str()), "{path}: {method}");
            ops.insert((path.clone(), method.to_uppercase()));
        }
    }
    ops
}

/// Every `$ref` in the document points at something in it.
fn assert_refs_resolve(doc: &Value) {
    let mut stack = vec![doc];
    let mut refs = 0;
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    let pointer = r.strip_prefix('#').expect("local $ref");
                    assert!(doc.pointer(pointer).is_some(), "dangling $ref {r}");
                    refs += 1;
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    assert!(refs > 10, "only {refs} $refs: is the document whole?");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_matches_the_router() {
    let s = Server::with_test_renderer().await;
    let r = s.get("/openapi.json").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let doc = r.json();
    assert_eq!(doc, chart_http::openapi_document());
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_refs_resolve(&doc);

    let documented = operations(&doc);
    let routed: BTreeSet<(String, String)> = Route::ALL
        .iter()
        .flat_map(|r| {
            r.methods()
                .iter()
                .map(move |m| (r.template().to_string(), m.to_string()))
        })
        .collect();
    assert_eq!(documented, routed, "documented vs routed operations");
}

/// A request that the operation should accept (a valid chart where one is needed).
fn request_for(path: &str, method: &str) -> (String, Vec<u8>) {
    let chart = json!({"type": "bar", "data": {"datasets": [{"data": [1]}]}});
    let chart_q = encode_uri_component(&chart.to_string());
    match (path, method) {
        ("/render", "GET") => (
            format!("/render?chart={chart_q}&width=20&height=20"),
            vec![],
        ),
        ("/render", "POST") => (
            "/render".into(),
            serde_json::to_vec(&json!({"chart": chart, "width": 20, "height": 20})).unwrap(),
        ),
        ("/chart", "GET") => (format!("/chart?c={chart_q}&w=20&h=20"), vec![]),
        ("/chart", "POST") => (
            "/chart".into(),
            serde_json::to_vec(&json!({"chart": chart, "w": 20, "h": 20})).unwrap(),
        ),
        (p, _) => (p.replace("{hash}", "0123456789abcdef"), vec![]),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_operation_answers_as_documented() {
    let s = Server::with_test_renderer().await;
    let doc = chart_http::openapi_document();
    for (path, method) in operations(&doc) {
        let (target, body) = request_for(&path, &method);
        let r = s.request(&method, &target, &[], body).await;
        let documented = &doc["paths"][&path][method.to_lowercase()]["responses"];
        assert!(
            documented.get(r.status.as_str()).is_some(),
            "{method} {target}: {} is not a documented status ({:?})",
            r.status,
            r.body
        );
        assert_ne!(r.status, 405, "{method} {path}");
        if r.status == 404 {
            // Only the cache's own miss, never the router's "Not found".
            r.assert_error(404, "Cache miss - image not found or expired");
        }
        assert_powered_by(&r);
        // And a method the path does not document is refused.
        let r = s.request("DELETE", &target, &[], Vec::new()).await;
        r.assert_error(405, "Method not allowed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_is_public_when_a_key_is_set() {
    let s = Server::start(Options {
        api_key: Some("k".into()),
        ..Options::default()
    })
    .await;
    assert_eq!(s.get("/openapi.json").await.status, 200);
    s.get("/metrics").await.assert_error(401, "Unauthorized");
}
