//! `GET|POST /chart`: QuickChart's URLs and bodies against the real server and skia engine.

use crate::common::*;
use base64::Engine as _;
use serde_json::json;

const LITERAL: &str = "{type:'bar', data:{labels:['Q1','Q2','Q3',], datasets:[{label:'Users', data:[50,60,70],},],},}";

fn equivalent_json() -> serde_json::Value {
    json!({"type": "bar", "data": {"labels": ["Q1", "Q2", "Q3"],
        "datasets": [{"label": "Users", "data": [50, 60, 70]}]}})
}

fn messages(r: &Resp) -> Vec<String> {
    let Some(h) = r.header("x-chart-messages") else {
        return Vec::new();
    };
    let v: serde_json::Value = serde_json::from_str(h).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["message"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quickchart_url_renders_with_quickchart_defaults() {
    let s = Server::default().await;
    let r = s
        .get(&format!("/chart?c={}", encode_uri_component(LITERAL)))
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.header("content-type"), Some("image/png"));
    // 500 x 300 at devicePixelRatio 2.
    assert_eq!(png_size(&r.body), (1000, 600));
    assert!(messages(&r).is_empty(), "{:?}", messages(&r));

    // The same request as /render: same hash, served from the same cache entry.
    let hash = r.header("x-cache-hash").unwrap().to_string();
    let same = s
        .post_json(
            "/render",
            &json!({"chart": equivalent_json(), "width": 500, "height": 300,
                    "devicePixelRatio": 2, "backgroundColor": "transparent"}),
        )
        .await;
    assert_eq!(same.status, 200);
    assert_eq!(same.header("x-cache-hash"), Some(hash.as_str()));
    assert_eq!(same.header("x-cache-hit"), Some("true"));
    assert_eq!(same.body, r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_and_long_parameters() {
    let s = Server::default().await;
    let c = encode_uri_component(LITERAL);
    let short = s
        .get(&format!(
            "/chart?c={c}&w=200&h=100&devicePixelRatio=1&bkg=%23ff0000&f=jpg&v=4"
        ))
        .await;
    assert_eq!(short.status, 200, "{:?}", short.body);
    assert_eq!(short.header("content-type"), Some("image/jpeg"));
    assert_eq!(jpeg_size(&short.body), (200, 100));
    let long = s
        .get(&format!(
            "/chart?chart={c}&width=200&height=100&devicePixelRatio=1&backgroundColor=%23ff0000&format=jpeg&version=4"
        ))
        .await;
    assert_eq!(long.header("x-cache-hash"), short.header("x-cache-hash"));
    assert_eq!(long.header("x-cache-hit"), Some("true"));
    let webp = s.get(&format!("/chart?c={c}&w=50&h=40&f=webp")).await;
    assert_eq!(webp_size(&webp.body), (100, 80));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn functions_are_not_evaluated_and_are_reported() {
    let s = Server::default().await;
    let chart = "{type:'line', data:{labels:[1,2], datasets:[{data:[1,2]}]}, \
                 options:{scales:{y:{ticks:{callback: function(v) { return v + '%'; }}}}}}";
    let r = s
        .get(&format!(
            "/chart?c={}&w=100&h=80&v=2.9.4",
            encode_uri_component(chart)
        ))
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let m = messages(&r);
    assert!(
        m.iter().any(|m| m
            == "options.scales.y.ticks.callback: a JavaScript function is not evaluated; the option is left out"),
        "{m:?}"
    );
    assert!(m.iter().any(|m| m.contains("version 2.9.4")), "{m:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn base64_in_and_out() {
    let s = Server::default().await;
    let c = base64::engine::general_purpose::STANDARD.encode(LITERAL);
    // Unescaped in the query: its `+` arrive as spaces, and are put back.
    let r = s
        .get(&format!("/chart?c={c}&encoding=base64&w=60&h=40&f=base64"))
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    let text = std::str::from_utf8(&r.body).unwrap();
    let png = text
        .strip_prefix("data:image/png;base64,")
        .expect("a PNG data URL");
    let png = base64::engine::general_purpose::STANDARD
        .decode(png)
        .unwrap();
    assert_eq!(png_size(&png), (120, 80));
    // The cache holds the PNG itself.
    let cached = s
        .get(&format!("/cache/{}", r.header("x-cache-hash").unwrap()))
        .await;
    assert_eq!(cached.body, png);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_takes_the_same_fields() {
    let s = Server::default().await;
    let as_object = s
        .post_json(
            "/chart",
            &json!({"chart": equivalent_json(), "width": "120", "height": 90, "format": "png"}),
        )
        .await;
    assert_eq!(as_object.status, 200, "{:?}", as_object.body);
    assert_eq!(png_size(&as_object.body), (240, 180));
    let as_literal = s
        .post_json(
            "/chart",
            &json!({"c": LITERAL, "w": 120, "h": "90", "devicePixelRatio": 2}),
        )
        .await;
    assert_eq!(as_literal.status, 200);
    assert_eq!(
        as_literal.header("x-cache-hash"),
        as_object.header("x-cache-hash")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_not_supported_says_so() {
    let s = Server::default().await;
    let c = encode_uri_component(LITERAL);
    s.get(&format!("/chart?c={c}&f=gif")).await.assert_error(
        400,
        "Invalid format: gif (expected png, jpeg, webp, svg or pdf)",
    );
    s.get("/chart?w=10")
        .await
        .assert_error(400, "You are missing variable `c` or `chart`");
    let r = s.get("/chart?c=%7Btype%3A'bar'%2C").await;
    assert_eq!(r.status, 400);
    let r = s.get(&format!("/chart?c={c}&w=20000")).await;
    r.assert_error(
        400,
        "Invalid width: 20000 is over the limit of 10000 (MAX_WIDTH)",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quickchart_key_field_authenticates() {
    let s = Server::start(Options {
        api_key: Some("qc-key".into()),
        ..Options::default()
    })
    .await;
    let c = encode_uri_component(LITERAL);
    s.get(&format!("/chart?c={c}&w=20&h=20"))
        .await
        .assert_error(401, "Unauthorized");
    s.get(&format!("/chart?c={c}&w=20&h=20&key=nope"))
        .await
        .assert_error(401, "Unauthorized");
    // An invalid request from someone without the key learns nothing about it.
    s.get("/chart?f=svg")
        .await
        .assert_error(401, "Unauthorized");
    let r = s.get(&format!("/chart?c={c}&w=20&h=20&key=qc-key")).await;
    assert_eq!(r.status, 200);
    let r = s
        .post_json(
            "/chart",
            &json!({"c": LITERAL, "w": 20, "h": 20, "key": "qc-key"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let r = s
        .request(
            "GET",
            &format!("/chart?c={c}&w=20&h=20"),
            &[("x-api-key", "qc-key")],
            Vec::new(),
        )
        .await;
    assert_eq!(r.status, 200);
}
