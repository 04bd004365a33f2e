use crate::common::*;
use serde_json::json;

async fn keyed() -> Server {
    Server::start(Options {
        api_key: Some("s3cr\"et</script>".into()),
        ..Options::default()
    })
    .await
}

const KEY: &str = "s3cr\"et</script>";
const KEY_Q: &str = "s3cr%22et%3C%2Fscript%3E";

fn body() -> Vec<u8> {
    serde_json::to_vec(&json!({"chart": bar(), "width": 100, "height": 100})).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_or_wrong_key_is_401() {
    let s = keyed().await;
    let bad: &[&[(&str, &str)]] = &[
        &[],
        &[("authorization", "Bearer nope")],
        &[("authorization", "Basic czNjcg==")],
        &[("x-api-key", "nope")],
        &[("x-api-key", "s3cr\"et</script")],
    ];
    for h in bad {
        s.request("POST", "/render", h, body())
            .await
            .assert_error(401, "Unauthorized");
    }
    s.request("POST", "/render?api_key=nope", &[], body())
        .await
        .assert_error(401, "Unauthorized");
    s.get("/examples").await.assert_error(401, "Unauthorized");
    s.get("/cache/0123456789abcdef")
        .await
        .assert_error(401, "Unauthorized");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_key_location_is_accepted() {
    let s = keyed().await;
    let bearer = format!("Bearer {KEY}");
    let lower = format!("bearer {KEY}");
    let ok: &[&[(&str, &str)]] = &[
        &[("authorization", &bearer)],
        &[("authorization", &lower)],
        &[("x-api-key", KEY)],
    ];
    for h in ok {
        let r = s.request("POST", "/render", h, body()).await;
        assert_eq!(r.status, 200, "{h:?}: {:?}", r.body);
    }
    let r = s
        .request("POST", &format!("/render?api_key={KEY_Q}"), &[], body())
        .await;
    assert_eq!(r.status, 200);
    // GET with the key in the query next to the chart.
    let chart = encode_uri_component(&serde_json::to_string(&bar()).unwrap());
    let r = s
        .get(&format!(
            "/render?chart={chart}&width=50&height=50&api_key={KEY_Q}"
        ))
        .await;
    assert_eq!(r.status, 200);
    // /cache needs it too.
    let hash = r.header("x-cache-hash").unwrap();
    let c = s
        .request(
            "GET",
            &format!("/cache/{hash}"),
            &[("x-api-key", KEY)],
            vec![],
        )
        .await;
    assert_eq!(c.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_never_needs_the_key() {
    let s = keyed().await;
    assert_eq!(s.get("/health").await.status, 200);
    let r = s
        .request(
            "GET",
            "/health",
            &[("authorization", "Bearer wrong")],
            vec![],
        )
        .await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_embeds_the_key_escaped() {
    let s = keyed().await;
    let r = s
        .request("GET", "/examples", &[("x-api-key", KEY)], vec![])
        .await;
    assert_eq!(r.status, 200);
    let html = std::str::from_utf8(&r.body).unwrap();
    assert!(html.contains(r#""apiKey":"s3cr\"et\u003c/script\u003e""#));
    assert!(
        !html.contains(KEY),
        "the raw key would close the script element"
    );
    assert_eq!(r.header("cache-control"), Some("no-store"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_is_off_by_default() {
    let s = Server::default().await;
    let r = s.request("POST", "/render", &[], body()).await;
    assert_eq!(r.status, 200);
    let g = s.get("/examples").await;
    assert_eq!(g.status, 200);
    // Without a key the page holds nothing secret.
    assert_eq!(g.header("cache-control"), None);
}
