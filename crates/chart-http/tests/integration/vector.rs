//! SVG and PDF through the service: content types, the cache, `/chart`, and the browser
//! engine's clear refusal. (The drawings themselves are compared with the PNG by the skia
//! crate's `vector` test, with rsvg-convert and pdftoppm.)

use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn svg_and_pdf_are_served_and_cached_with_their_content_type() {
    let s = Server::default().await;
    for (format, content_type, magic) in [
        ("svg", "image/svg+xml", &b"<?xml"[..]),
        ("pdf", "application/pdf", &b"%PDF-"[..]),
    ] {
        let req = json!({"chart": bar(), "width": 300, "height": 200, "format": format});
        let r = s.post_json("/render", &req).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.header("content-type"), Some(content_type));
        assert!(r.body.starts_with(magic), "{format}");
        assert_eq!(r.header("x-cache-hit"), Some("false"));
        let hash = r.header("x-cache-hash").unwrap().to_string();
        // The same request again comes from the cache, and so does /cache/<hash>.
        let again = s.post_json("/render", &req).await;
        assert_eq!(again.header("x-cache-hit"), Some("true"));
        assert_eq!(again.body, r.body);
        let cached = s.get(&format!("/cache/{hash}")).await;
        assert_eq!(cached.status, 200);
        assert_eq!(cached.header("content-type"), Some(content_type));
        assert_eq!(cached.body, r.body);
    }
    // The SVG is the CSS size: devicePixelRatio sizes bitmaps only.
    let r = s
        .get(&format!(
            "/render?format=svg&width=300&height=200&devicePixelRatio=3&chart={}",
            encode_uri_component(&bar().to_string())
        ))
        .await;
    let svg = String::from_utf8(r.body.to_vec()).unwrap();
    assert!(svg.contains("width=\"300\" height=\"200\" viewBox=\"0 0 300 200\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quickchart_urls_ask_for_svg_and_pdf_too() {
    let s = Server::default().await;
    let c = encode_uri_component("{type:'pie',data:{datasets:[{data:[1,2]}]}}");
    let r = s.get(&format!("/chart?c={c}&f=svg")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    let svg = String::from_utf8(r.body.to_vec()).unwrap();
    // QuickChart's 500 x 300 default, its transparent background (no background rect).
    assert!(svg.contains("viewBox=\"0 0 500 300\""));
    assert!(!svg.contains("<rect width=\"100%\""));
    let r = s
        .post_json("/chart", &json!({"c": "{type:'bar'}", "f": "pdf"}))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/pdf"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_engine_refuses_vector_formats_clearly() {
    let s = Server::default().await;
    for format in ["svg", "pdf"] {
        let req = json!({"chart": bar(), "format": format, "engine": "browser"});
        s.post_json("/render", &req).await.assert_error(
            400,
            &format!(
                "Invalid format: {format} is drawn by the skia engine only (the browser \
                 engine renders png, jpeg or webp); use engine \"skia\" for {format}"
            ),
        );
    }
}
