use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_chart() {
    let s = Server::default().await;
    s.post_json("/render", &json!({"width": 100}))
        .await
        .assert_error(400, "Missing chart parameter");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_names_the_problem() {
    let s = Server::default().await;
    s.request("POST", "/render", &[], b"{\"chart\": {\"type\": }".to_vec())
        .await
        .assert_error(400, "Invalid JSON body: expected value at line 1 column 20");
    s.request("POST", "/render", &[], Vec::new())
        .await
        .assert_error(
            400,
            "Invalid JSON body: EOF while parsing a value at line 1 column 0",
        );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_options() {
    let s = Server::default().await;
    let cases = [
        (json!({"chart": [1]}), "Invalid chart parameter: expected a JSON object (a Chart.js config), got an array"),
        (json!({"chart": {}, "engine": "cairo"}), "Invalid engine: cairo"),
        (json!({"chart": {}, "format": "gif"}), "Invalid format: gif (expected png, jpeg or webp)"),
        (json!({"chart": {}, "width": -1}), "Invalid width: must be a positive finite number, got -1"),
        (json!({"chart": {}, "width": 10001}), "Invalid width: 10001 is over the limit of 10000 (MAX_WIDTH)"),
        (json!({"chart": {}, "height": 10001}), "Invalid height: 10001 is over the limit of 10000 (MAX_HEIGHT)"),
        (json!({"chart": {}, "devicePixelRatio": 10.5}), "Invalid devicePixelRatio: 10.5 is over the limit of 10 (MAX_DEVICE_PIXEL_RATIO)"),
        (json!({"chart": {}, "quality": 101}), "Invalid quality: must be between 0 and 100, got 101"),
        (json!({"chart": {}, "width": 8000, "height": 8000, "devicePixelRatio": 1}),
            "Invalid size: the bitmap would be 8000x8000 = 64000000 pixels; it must be between 1 and 50000000 pixels (MAX_PIXELS)"),
    ];
    for (req, msg) in cases {
        s.post_json("/render", &req).await.assert_error(400, msg);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_path_and_wrong_method() {
    let s = Server::default().await;
    s.get("/nope").await.assert_error(404, "Not found");
    s.get("/").await.assert_error(404, "Not found");
    for m in ["PUT", "DELETE", "PATCH"] {
        s.request(m, "/render", &[], Vec::new())
            .await
            .assert_error(405, "Method not allowed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_over_10_mib_is_413() {
    let s = Server::default().await;
    let resp = raw(
        s.addr,
        format!(
            "POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            10 * 1024 * 1024 + 1
        )
        .as_bytes(),
    )
    .await;
    assert!(resp.starts_with("HTTP/1.1 413"), "{resp}");
    assert!(resp.contains("x-powered-by: chart-raster/"), "{resp}");
    assert!(
        resp.ends_with(
            "{\"error\":\"Request body too large: the limit is 10485760 bytes (10 MiB)\"}"
        ),
        "{resp}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chunked_body_over_10_mib_is_413() {
    let s = Server::default().await;
    // A padded but valid JSON body of 10 MiB + 2 bytes, sent without Content-Length.
    let mut body = vec![b' '; 10 * 1024 * 1024];
    body.extend_from_slice(b"{}");
    let r = s
        .request("POST", "/render", &[("transfer-encoding", "chunked")], body)
        .await;
    r.assert_error(
        413,
        "Request body too large: the limit is 10485760 bytes (10 MiB)",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_just_under_the_limit_is_read() {
    let s = Server::default().await;
    let mut body = serde_json::to_vec(&json!({"chart": {}, "width": 10, "height": 10})).unwrap();
    body.resize(10 * 1024 * 1024, b' ');
    let r = s.request("POST", "/render", &[], body).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_panic_is_a_500_and_the_server_lives_on() {
    let s = Server::with_test_renderer().await;
    s.post_json(
        "/render",
        &json!({"chart": {"test": "panic"}, "width": 10, "height": 10}),
    )
    .await
    .assert_error(500, "internal error: render panicked: boom");
    s.post_json(
        "/render",
        &json!({"chart": {"test": "fail"}, "width": 10, "height": 10}),
    )
    .await
    .assert_error(500, "render failed: the engine gave up");
    assert_eq!(s.get("/health").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_engine_unavailable_is_503() {
    let s = Server::default().await;
    let r = s
        .post_json("/render", &json!({"chart": bar(), "engine": "browser"}))
        .await;
    assert_eq!(r.status, 503, "{:?}", r.body);
    assert_powered_by(&r);
    let v = r.json();
    let msg = v["error"].as_str().unwrap();
    assert!(msg.starts_with("browser engine unavailable: "), "{msg}");
    assert_eq!(v.as_object().unwrap().len(), 1);
}
