use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_render_png_with_every_header() {
    let s = Server::default().await;
    let r = s
        .post_json(
            "/render",
            &json!({"chart": bar(), "width": 300, "height": 200}),
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.header("content-type"), Some("image/png"));
    assert_eq!(
        r.header("content-length"),
        Some(r.body.len().to_string().as_str())
    );
    assert_eq!(
        png_size(&r.body),
        (600, 400),
        "default devicePixelRatio is 2"
    );
    let hash = r.header("x-cache-hash").unwrap().to_string();
    assert_eq!(hash.len(), 16);
    assert!(hash
        .bytes()
        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    assert_eq!(
        r.header("x-cache-url"),
        Some(format!("http://{}/cache/{hash}", s.addr).as_str())
    );
    assert_eq!(r.header("x-cache-hit"), Some("false"));
    assert_powered_by(&r);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_give_1600_by_1200() {
    let s = Server::default().await;
    let r = s.post_json("/render", &json!({"chart": bar()})).await;
    assert_eq!(r.status, 200);
    assert_eq!(png_size(&r.body), (1600, 1200));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jpeg_and_webp_formats() {
    let s = Server::default().await;
    let base = json!({"chart": bar(), "width": 320, "height": 240, "devicePixelRatio": 1});
    let mut req = base.clone();
    req["format"] = json!("jpeg");
    req["quality"] = json!(60);
    let r = s.post_json("/render", &req).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/jpeg"));
    assert_eq!(jpeg_size(&r.body), (320, 240));

    req["format"] = json!("webp");
    let r = s.post_json("/render", &req).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/webp"));
    assert_eq!(webp_size(&r.body), (320, 240));

    // Transparent backgrounds keep alpha in WebP (VP8X) and are flattened in JPEG.
    req["backgroundColor"] = json!("transparent");
    let r = s.post_json("/render", &req).await;
    assert_eq!(r.status, 200);
    assert_eq!(webp_size(&r.body), (320, 240));
    req["format"] = json!("jpeg");
    let r = s.post_json("/render", &req).await;
    assert_eq!(r.status, 200);
    assert_eq!(jpeg_size(&r.body), (320, 240));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quality_changes_the_jpeg() {
    let s = Server::with_test_renderer().await;
    let mut req = json!({"chart": {"type": "bar"}, "width": 200, "height": 100,
        "format": "jpeg", "quality": 10});
    let low = s.post_json("/render", &req).await;
    req["quality"] = json!(100);
    let high = s.post_json("/render", &req).await;
    assert_eq!((low.status.as_u16(), high.status.as_u16()), (200, 200));
    assert_ne!(low.header("x-cache-hash"), high.header("x-cache-hash"));
    assert!(high.body.len() > low.body.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_render_coerces_the_query() {
    let s = Server::default().await;
    let chart = serde_json::to_string(&bar()).unwrap();
    let path = format!(
        "/render?chart={}&width=300&height=150&devicePixelRatio=1&format=png&backgroundColor=%23ff0000",
        encode_uri_component(&chart)
    );
    let r = s.get(&path).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(png_size(&r.body), (300, 150));
    // The same request as a POST has the same hash and is a cache hit.
    let p = s
        .post_json(
            "/render",
            &json!({"chart": bar(), "width": 300, "height": 150, "devicePixelRatio": 1,
                "backgroundColor": "#ff0000"}),
        )
        .await;
    assert_eq!(p.header("x-cache-hash"), r.header("x-cache-hash"));
    assert_eq!(p.header("x-cache-hit"), Some("true"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_render_errors() {
    let s = Server::default().await;
    s.get("/render?width=100")
        .await
        .assert_error(400, "Missing chart parameter");
    s.get("/render?chart=%7B%22type%22%3A1&width=100")
        .await
        .assert_error(
        400,
        "Invalid chart parameter: not valid JSON: EOF while parsing an object at line 1 column 9",
    );
    s.get("/render?chart=%7B%7D&width=abc")
        .await
        .assert_error(400, "Invalid width: expected a number, got \"abc\"");
    s.get("/render?chart=%7B%7D&engine=gpu")
        .await
        .assert_error(400, "Invalid engine: gpu");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_header_is_ascii_json() {
    let s = Server::with_test_renderer().await;
    let r = s
        .post_json(
            "/render",
            &json!({"chart": {"messages": ["line one\nline two", "ünïcödé 中文"]},
                "width": 10, "height": 10}),
        )
        .await;
    assert_eq!(r.status, 200);
    let raw = r.headers.get("x-chart-messages").unwrap().as_bytes();
    assert!(raw.iter().all(|b| (0x20..0x7f).contains(b)), "{raw:?}");
    let v: serde_json::Value = serde_json::from_slice(raw).unwrap();
    assert_eq!(
        v,
        json!([
            {"level": "warn", "message": "line one\nline two"},
            {"level": "warn", "message": "ünïcödé 中文"}
        ])
    );
    // No messages: no header.
    let r = s
        .post_json("/render", &json!({"chart": {}, "width": 10, "height": 10}))
        .await;
    assert_eq!(r.status, 200);
    assert!(r.header("x-chart-messages").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_header_is_capped() {
    let s = Server::with_test_renderer().await;
    let many: Vec<String> = (0..2000).map(|i| format!("message {i}")).collect();
    let r = s
        .post_json(
            "/render",
            &json!({"chart": {"messages": many}, "width": 10, "height": 10}),
        )
        .await;
    assert_eq!(r.status, 200);
    let h = r.header("x-chart-messages").unwrap();
    assert!(h.len() <= chart_http::MAX_MESSAGES_HEADER_BYTES);
    let v: Vec<serde_json::Value> = serde_json::from_str(h).unwrap();
    assert!(v.len() > 10 && v.len() < 2000);
    assert!(v.last().unwrap()["message"]
        .as_str()
        .unwrap()
        .contains("more message(s) cut"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_public_and_complete() {
    let s = Server::start(Options {
        api_key: Some("k".into()),
        ..Options::default()
    })
    .await;
    let r = s.get("/health").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_powered_by(&r);
    let v = r.json();
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(
        v,
        json!({
            "status": "ok",
            "version": env!("CARGO_PKG_VERSION"),
            "renderer": {
                "browserConnected": false,
                "concurrency": {"max": cores, "active": 0, "pending": 0, "maxPending": 4 * cores},
                "activePages": 0,
                "pageTimeoutSeconds": v["renderer"]["pageTimeoutSeconds"],
            },
            "cache": {"size": 0, "maxEntries": 1000, "ttlSeconds": 3600, "backend": "memory", "connected": true}
        })
    );
    assert!(v["renderer"]["pageTimeoutSeconds"].is_u64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_page_lists_every_example() {
    let s = Server::default().await;
    let r = s.get("/examples").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    assert_powered_by(&r);
    let html = std::str::from_utf8(&r.body).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    let examples = chart_raster::examples::all().unwrap();
    assert!(examples.len() >= 30, "{} examples", examples.len());
    for e in &examples {
        assert!(
            html.contains(&format!("\"name\":\"{}\"", e.name)),
            "{}",
            e.name
        );
    }
    assert!(html.contains("fetch(\"/render\""));
    assert!(html.contains("\"apiKey\":null"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_engine_renders_when_chromium_is_available() {
    let mut opts = Options::default();
    opts.config.browser = chart_raster::browser::BrowserConfig::from_env();
    let s = Server::start(opts).await;
    let req = json!({"chart": bar(), "width": 200, "height": 100, "devicePixelRatio": 1,
        "engine": "browser"});
    let r = s.post_json("/render", &req).await;
    if r.status == 503 {
        let v = r.json();
        // CI sets this where Chromium must work: there a 503 is a failure, not a skip.
        assert!(
            std::env::var_os("CHART_RASTER_REQUIRE_BROWSER").is_none(),
            "browser engine unavailable and CHART_RASTER_REQUIRE_BROWSER is set: {}",
            v["error"]
        );
        eprintln!(
            "skipping browser_engine_renders_when_chromium_is_available: {}",
            v["error"]
        );
        return;
    }
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(png_size(&r.body), (200, 100));
    // The engine is part of the hash: the same request on skia is another entry.
    let mut skia = req.clone();
    skia["engine"] = json!("skia");
    let k = s.post_json("/render", &skia).await;
    assert_eq!(k.status, 200);
    assert_ne!(k.header("x-cache-hash"), r.header("x-cache-hash"));
    s.service.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_url_ignores_client_headers_unless_proxies_are_trusted() {
    let spoof = [
        ("host", "evil.example"),
        ("x-forwarded-proto", "https"),
        ("x-forwarded-host", "evil.example"),
    ];
    let req = serde_json::to_vec(&json!({"chart": bar(), "width": 20, "height": 20})).unwrap();
    let url = |s: &Server| {
        let s_addr = s.addr;
        let req = req.clone();
        async move {
            let r = request(s_addr, "POST", "/render", &spoof, req).await;
            assert_eq!(r.status, 200);
            let hash = r.header("x-cache-hash").unwrap().to_string();
            let url = r.header("x-cache-url").unwrap().to_string();
            url.strip_suffix(&format!("/cache/{hash}"))
                .unwrap()
                .to_string()
        }
    };
    let plain = Server::default().await;
    assert_eq!(url(&plain).await, format!("http://{}", plain.addr));
    let trusting = Server::start(Options {
        trust_proxy: true,
        ..Options::default()
    })
    .await;
    assert_eq!(url(&trusting).await, "https://evil.example");
    let public = Server::start(Options {
        trust_proxy: true,
        public_url: Some("https://charts.example.com".into()),
        ..Options::default()
    })
    .await;
    assert_eq!(url(&public).await, "https://charts.example.com");
}

#[test]
fn server_settings_come_from_the_environment() {
    use chart_http::ServerConfig;
    let vars = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let c = ServerConfig::from_vars(vars(&[
        ("TRUST_PROXY", "1"),
        ("PUBLIC_URL", "https://c.example:8443/"),
        ("API_KEY", "k"),
        ("BODY_READ_TIMEOUT_SECONDS", "5"),
        ("RESPONSE_WRITE_TIMEOUT_SECONDS", "7"),
        ("MAX_CONNECTIONS", "64"),
    ]))
    .unwrap();
    assert!(c.trust_proxy);
    assert_eq!(c.body_read_timeout, std::time::Duration::from_secs(5));
    assert_eq!(c.response_write_timeout, std::time::Duration::from_secs(7));
    assert_eq!(c.max_connections, 64);
    assert_eq!(c.public_url.as_deref(), Some("https://c.example:8443"));
    assert_eq!(c.api_key.as_deref(), Some("k"));
    let d = ServerConfig::from_vars(vars(&[])).unwrap();
    assert!(!d.trust_proxy && d.public_url.is_none() && d.api_key.is_none());
    assert_eq!(d.body_read_timeout, chart_http::DEFAULT_BODY_READ_TIMEOUT);
    assert_eq!(
        d.response_write_timeout,
        chart_http::DEFAULT_RESPONSE_WRITE_TIMEOUT
    );
    assert_eq!(d.max_connections, chart_http::DEFAULT_MAX_CONNECTIONS);
    for bad in [
        &[("TRUST_PROXY", "yes")][..],
        &[("PUBLIC_URL", "ftp://x")],
        &[("PUBLIC_URL", "https://x/path")],
        &[("BODY_READ_TIMEOUT_SECONDS", "0")],
        &[("RESPONSE_WRITE_TIMEOUT_SECONDS", "x")],
        &[("MAX_CONNECTIONS", "-1")],
    ] {
        assert!(ServerConfig::from_vars(vars(bad)).is_err(), "{bad:?}");
    }
}
