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
        (json!({"chart": {}, "format": "gif"}), "Invalid format: gif (expected png, jpeg, webp, svg or pdf)"),
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
async fn engine_panic_is_a_generic_500_with_the_request_id() {
    let s = Server::with_test_renderer().await;
    let r = s
        .post_json(
            "/render",
            &json!({"chart": {"test": "panic"}, "width": 10, "height": 10}),
        )
        .await;
    let id = r.header("x-request-id").unwrap().to_string();
    // The panic's text stays in the log; the client learns only where to look.
    r.assert_error(500, &format!("internal error (request id {id})"));
    assert!(!String::from_utf8_lossy(&r.body).contains("boom"));
    let f = s
        .post_json(
            "/render",
            &json!({"chart": {"test": "fail"}, "width": 10, "height": 10}),
        )
        .await;
    let id2 = f.header("x-request-id").unwrap().to_string();
    assert_ne!(id, id2, "every request has its own id");
    f.assert_error(
        500,
        &format!("render failed: the engine gave up (request id {id2})"),
    );
    assert_eq!(s.get("/health").await.status, 200);
    assert_eq!(s.service.health().renderer.concurrency.active, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_exceeded_during_the_render_is_400() {
    let s = Server::with_test_renderer().await;
    s.post_json(
        "/render",
        &json!({"chart": {"test": "limit"}, "width": 10, "height": 10}),
    )
    .await
    .assert_error(
        400,
        "the chart needs more widgets than the limit of 3 (MAX_WIDGETS)",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bitmap_of_zero_pixels_is_400() {
    let s = Server::default().await;
    // 0.4 CSS px at dpr 2 is 0.8 device px: the engine floors it to 0 (as Chart.js's
    // retinaScale does), a client error either way.
    let r = s
        .post_json("/render", &json!({"chart": bar(), "width": 0.4}))
        .await;
    assert_eq!(r.status, 400, "{:?}", r.body);
    let msg = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        msg.starts_with("Invalid size: the bitmap would be 0x1200"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_megabyte_query_string_is_414_json() {
    let s = Server::default().await;
    let raw_resp = raw(
        s.addr,
        format!(
            "GET /render?chart={} HTTP/1.1\r\nHost: x\r\n\r\n",
            "a".repeat(1 << 20)
        )
        .as_bytes(),
    )
    .await;
    assert_raw_error(
        &raw_resp,
        414,
        "URI too long: the request target is limited to 65534 bytes; send large charts with \
         POST /render",
    );
    // Just under the limit, hyper takes it (and the chart, being nonsense, is a 400).
    let target = format!("/render?chart={}", "a".repeat(65_534 - 14));
    assert_eq!(target.len(), 65_534);
    let r = s.get(&target).await;
    assert_eq!(r.status, 400, "{:?}", r.body);
    assert_powered_by(&r);
    assert_eq!(s.get("/health").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_heads_are_431_json() {
    let s = Server::default().await;
    let msg = "Request header fields too large: a request head is limited to 131072 bytes \
               and 100 fields";
    let big = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "b".repeat(200_000)
    );
    assert_raw_error(&raw(s.addr, big.as_bytes()).await, 431, msg);
    // Far past hyper's own buffer (about 400 KB), still ours.
    let huge = format!(
        "GET /health HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "b".repeat(4 << 20)
    );
    assert_raw_error(&raw(s.addr, huge.as_bytes()).await, 431, msg);
    let mut many = String::from("GET /health HTTP/1.1\r\nHost: x\r\n");
    for i in 0..120 {
        many.push_str(&format!("X-{i}: 1\r\n"));
    }
    many.push_str("\r\n");
    assert_raw_error(&raw(s.addr, many.as_bytes()).await, 431, msg);
    assert_eq!(s.get("/health").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_are_400_json() {
    let s = Server::default().await;
    for (req, why) in [
        ("GET /health HTTP/9.9\r\n\r\n", "invalid HTTP version"),
        (
            "GET /health HTTP/1.1\r\nBad Header: 1\r\n\r\n",
            "invalid header name",
        ),
        (
            "POST /render HTTP/1.1\r\nContent-Length: 12x\r\n\r\n",
            "invalid Content-Length",
        ),
        (
            "POST /render HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            "a request's Transfer-Encoding must end with chunked",
        ),
    ] {
        let resp = raw(s.addr, req.as_bytes()).await;
        assert_raw_error(&resp, 400, &format!("Malformed HTTP request: {why}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_survives_bodies_the_guard_follows() {
    let s = Server::default().await;
    // A body that looks like an absurd head, then a chunked one, then a plain GET, all on
    // one connection: the guard counts bodies and never mistakes them for heads.
    let fake_head = format!("GET /{} HTTP/1.1\r\n", "x".repeat(300_000));
    let body1 = serde_json::to_vec(&json!({"chart": bar(), "width": 20, "height": 20,
        "backgroundColor": "white", "devicePixelRatio": 1}))
    .unwrap();
    let mut padded = body1.clone();
    padded.extend_from_slice(b"  ");
    padded.extend(std::iter::repeat_n(b' ', 10));
    let mut wire = Vec::new();
    wire.extend_from_slice(
        format!(
            "POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            fake_head.len()
        )
        .as_bytes(),
    );
    wire.extend_from_slice(fake_head.as_bytes());
    wire.extend_from_slice(
        b"POST /render HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    wire.extend_from_slice(format!("{:x};e=1\r\n", padded.len()).as_bytes());
    wire.extend_from_slice(&padded);
    wire.extend_from_slice(b"\r\n0\r\n\r\n");
    wire.extend_from_slice(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let out = raw(s.addr, &wire).await;
    let statuses: Vec<&str> = out
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &out[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["400", "200", "200"], "{out}");
    assert!(out.contains("\"status\":\"ok\""), "{out}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_configured_budgets_apply_to_post_and_get() {
    let mut config = Options::default().config;
    config.limits.max_points = 3;
    let s = Server::start(Options {
        config,
        ..Options::default()
    })
    .await;
    let chart = json!({"type": "bar", "data": {"datasets": [{"data": [1, 2, 3, 4]}]}});
    let r = s.post_json("/render", &json!({"chart": chart})).await;
    assert_eq!(r.status, 400, "{:?}", r.body);
    let msg = r.json()["error"].as_str().unwrap().to_string();
    assert!(msg.contains("MAX_POINTS"), "{msg}");
    let q = format!("/render?chart={}", encode_uri_component(&chart.to_string()));
    let g = s.get(&q).await;
    assert_eq!(g.status, 400);
    assert_eq!(g.json()["error"].as_str(), Some(msg.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_id_from_the_client_is_kept_and_echoed() {
    let s = Server::with_test_renderer().await;
    let body = || {
        serde_json::to_vec(&json!({"chart": {"test": "fail"}, "width": 10, "height": 10})).unwrap()
    };
    let theirs = "3f2a9c0d-1e4b-5a67-8f90-abcdef012345";
    let r = s
        .request("POST", "/render", &[("x-request-id", theirs)], body())
        .await;
    assert_eq!(r.header("x-request-id"), Some(theirs));
    assert_eq!(r.status, 500);
    assert_eq!(
        r.json(),
        json!({"error": format!("render failed: the engine gave up (request id {theirs})")})
    );
    let r = s
        .request(
            "GET",
            "/health",
            &[("x-request-id", "trace:0001")],
            Vec::new(),
        )
        .await;
    assert_eq!(r.header("x-request-id"), Some("trace:0001"));
    // Ids we would not copy into headers and logs as they are get replaced by our own.
    let long = "a".repeat(chart_http::MAX_REQUEST_ID_BYTES + 1);
    for bad in ["has space", "quote\"d", "semi;colon", long.as_str()] {
        let r = s
            .request("GET", "/health", &[("x-request-id", bad)], Vec::new())
            .await;
        assert_powered_by(&r);
        assert_ne!(r.header("x-request-id"), Some(bad));
    }
}
