//! The HTTP service: routes, auth, headers and errors over the [`chart_raster`] facade. Takes a
//! bound listener and a shutdown future; the process (signals, logging set-up) belongs to the binary.
//!
//! Routes: `POST|GET /render`, `GET /cache/<hash>`, `GET /examples`, `GET /health`.
//! Every response carries `X-Powered-By: chart-raster/<version>`; every error body is
//! `{"error": "<message>"}`. One line per request goes to stderr.

mod gallery;
mod headers;

use bytes::Bytes;
use chart_raster::{RenderOptions, RenderResult, Service, ServiceError, VERSION};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tokio::net::TcpListener;

pub use headers::{messages_header, MAX_MESSAGES_HEADER_BYTES};

/// Largest accepted request body: 10 MiB. Larger bodies get 413.
pub const MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// `Cache-Control` of `/cache/<hash>` responses (one hour, the default TTL).
pub const CACHE_CONTROL_VALUE: &str = "public, max-age=3600";

/// Why the server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The listener's address could not be read.
    #[error("listener: {0}")]
    Listener(#[source] std::io::Error),
}

/// Settings of the HTTP layer.
#[derive(Debug, Clone, Default)]
pub struct ServerConfig {
    /// When set, `/render`, `/cache/<hash>` and `/examples` require this key (as
    /// `Authorization: Bearer <key>`, `X-API-Key: <key>` or `?api_key=<key>`). Default: none.
    pub api_key: Option<String>,
}

struct App {
    service: Service,
    /// SHA-256 of the key: comparing digests takes the same time whatever the key's length
    /// and wherever the first difference is.
    key_digest: Option<[u8; 32]>,
    gallery: Bytes,
}

/// Serves until `shutdown` completes, then stops accepting, lets in-flight requests finish
/// and returns.
pub async fn serve(
    listener: TcpListener,
    service: Service,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> Result<(), Error> {
    let local = listener.local_addr().map_err(Error::Listener)?;
    let examples = chart_raster::examples::all().unwrap_or_else(|e| {
        eprintln!("chart-raster: skipping the examples gallery: {e}");
        Vec::new()
    });
    let app = Arc::new(App {
        service,
        key_digest: config
            .api_key
            .as_deref()
            .map(|k| Sha256::digest(k.as_bytes()).into()),
        gallery: Bytes::from(gallery::page(&examples, config.api_key.as_deref())),
    });
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _peer)) => stream,
                    Err(e) => {
                        // Out of file descriptors and the like: keep serving the others.
                        eprintln!("chart-raster: accept failed: {e}");
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let app = app.clone();
                let svc = hyper::service::service_fn(move |req| {
                    let app = app.clone();
                    async move { Ok::<_, Infallible>(handle(app, req, local).await) }
                });
                // A client that never finishes its headers (slowloris) is dropped after 30 s.
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(std::time::Duration::from_secs(30))
                    .serve_connection(TokioIo::new(stream), svc);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    // Client resets and half-read requests end here; nothing to report.
                    let _ = conn.await;
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

type Body = Full<Bytes>;

/// Runs the route in its own task so that a panic becomes a 500, never a dropped process or
/// connection, then stamps the common header and logs the request.
async fn handle(app: Arc<App>, req: Request<Incoming>, local: SocketAddr) -> Response<Body> {
    let start = Instant::now();
    let method = req.method().clone();
    // The query is left out of the log: it may hold the API key.
    let path = req.uri().path().to_string();
    let (mut resp, cache) = match tokio::spawn(route(app, req, local)).await {
        Ok(r) => r,
        Err(e) => {
            let msg = if e.is_panic() {
                "internal error: request handler panicked"
            } else {
                "internal error: request handler cancelled"
            };
            eprintln!("chart-raster: {method} {path}: {msg}");
            (error(StatusCode::INTERNAL_SERVER_ERROR, msg), None)
        }
    };
    if let Ok(v) = HeaderValue::from_str(&format!("chart-raster/{VERSION}")) {
        resp.headers_mut().insert("x-powered-by", v);
    }
    let cache = match cache {
        Some(true) => "hit",
        Some(false) => "miss",
        None => "-",
    };
    eprintln!(
        "{method} {path} {} {:.1}ms cache={cache}",
        resp.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    resp
}

/// The response and, for renders, whether it was a cache hit.
async fn route(
    app: Arc<App>,
    req: Request<Incoming>,
    local: SocketAddr,
) -> (Response<Body>, Option<bool>) {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    let get = method == Method::GET || method == Method::HEAD;
    match path.as_str() {
        "/health" => {
            if !get {
                return (method_not_allowed(), None);
            }
            let body = serde_json::to_vec(&app.service.health()).unwrap_or_default();
            (json(StatusCode::OK, body), None)
        }
        "/render" => {
            if !get && method != Method::POST {
                return (method_not_allowed(), None);
            }
            if !authorized(&app, &req) {
                return (unauthorized(), None);
            }
            render(&app, req, local).await
        }
        "/examples" => {
            if !get {
                return (method_not_allowed(), None);
            }
            if !authorized(&app, &req) {
                return (unauthorized(), None);
            }
            let mut r = Response::new(Full::new(app.gallery.clone()));
            r.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            (r, None)
        }
        p if p.starts_with("/cache/") => {
            if !get {
                return (method_not_allowed(), None);
            }
            if !authorized(&app, &req) {
                return (unauthorized(), None);
            }
            let hash = &p["/cache/".len()..];
            match app.service.cached(hash) {
                Some(img) => {
                    let mut r = Response::new(Full::new(img.bytes.clone()));
                    let h = r.headers_mut();
                    h.insert(
                        CONTENT_TYPE,
                        HeaderValue::from_static(img.format.content_type()),
                    );
                    h.insert(CONTENT_LENGTH, HeaderValue::from(img.bytes.len()));
                    h.insert(CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL_VALUE));
                    (r, Some(true))
                }
                None => (
                    error(
                        StatusCode::NOT_FOUND,
                        "Cache miss - image not found or expired",
                    ),
                    Some(false),
                ),
            }
        }
        _ => (error(StatusCode::NOT_FOUND, "Not found"), None),
    }
}

async fn render(
    app: &App,
    req: Request<Incoming>,
    local: SocketAddr,
) -> (Response<Body>, Option<bool>) {
    let base = cache_base_url(&req, local);
    let opts = if req.method() == Method::POST {
        let too_large = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n > MAX_BODY_BYTES as u64);
        if too_large {
            return (payload_too_large(), None);
        }
        let body = match Limited::new(req.into_body(), MAX_BODY_BYTES)
            .collect()
            .await
        {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                if e.is::<http_body_util::LengthLimitError>() {
                    return (payload_too_large(), None);
                }
                return (
                    error(
                        StatusCode::BAD_REQUEST,
                        &format!("Could not read the request body: {e}"),
                    ),
                    None,
                );
            }
        };
        RenderOptions::from_json_bytes(&body)
    } else {
        RenderOptions::from_query(query_pairs(req.uri().query().unwrap_or("")))
    };
    let opts = match opts {
        Ok(o) => o,
        Err(e) => return (error(StatusCode::BAD_REQUEST, &e.to_string()), None),
    };
    match app.service.render(opts).await {
        Ok(r) => {
            let cached = r.cached;
            (image_response(r, &base), Some(cached))
        }
        Err(e) => (service_error(&e), None),
    }
}

fn image_response(r: RenderResult, base: &str) -> Response<Body> {
    let len = r.bytes.len();
    let mut resp = Response::new(Full::new(r.bytes));
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(r.content_type));
    h.insert(CONTENT_LENGTH, HeaderValue::from(len));
    if let Ok(v) = HeaderValue::from_str(&r.hash) {
        h.insert("x-cache-hash", v);
    }
    if let Ok(v) = HeaderValue::from_str(&format!("{base}/cache/{}", r.hash)) {
        h.insert("x-cache-url", v);
    }
    h.insert(
        "x-cache-hit",
        HeaderValue::from_static(if r.cached { "true" } else { "false" }),
    );
    if !r.messages.is_empty() {
        if let Ok(v) = HeaderValue::from_str(&messages_header(&r.messages)) {
            h.insert("x-chart-messages", v);
        }
    }
    resp
}

/// `<scheme>://<Host>`: the Host header as sent (or the listening address without one), over
/// `X-Forwarded-Proto` when a proxy says it terminated TLS.
fn cache_base_url(req: &Request<Incoming>, local: SocketAddr) -> String {
    let scheme = match req
        .headers()
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some(p) if p.eq_ignore_ascii_case("https") => "https",
        _ => "http",
    };
    let host = req
        .headers()
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]_".contains(&b))
        })
        .map(str::to_string)
        .unwrap_or_else(|| local.to_string());
    format!("{scheme}://{host}")
}

fn authorized(app: &App, req: &Request<Incoming>) -> bool {
    let Some(expected) = &app.key_digest else {
        return true;
    };
    let h = req.headers();
    let bearer = h
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, rest) = v.trim().split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| rest.trim().to_string())
        });
    let header = h
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_string());
    let query = query_pairs(req.uri().query().unwrap_or(""))
        .into_iter()
        .find(|(k, _)| k == "api_key")
        .map(|(_, v)| v);
    [bearer, header, query]
        .into_iter()
        .flatten()
        .any(|k| digest_eq(&Sha256::digest(k.as_bytes()).into(), expected))
}

/// Compares two digests without an early exit.
fn digest_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Splits `a=1&b=2` and percent-decodes the pieces (`+` is a space, as in HTML forms).
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// Percent-decoding of one query component; `+` is a space (a literal plus arrives as `%2B`).
/// Invalid escapes are kept as they are and invalid UTF-8 is replaced, never rejected.
fn percent_decode(s: &str) -> String {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let h = bytes.get(i + 1).copied().and_then(hex);
                let l = bytes.get(i + 2).copied().and_then(hex);
                if let (Some(h), Some(l)) = (h, l) {
                    out.push(h * 16 + l);
                    i += 3;
                    continue;
                }
                out.push(b'%');
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn service_error(e: &ServiceError) -> Response<Body> {
    let status = match e {
        ServiceError::Request(_) => StatusCode::BAD_REQUEST,
        ServiceError::BrowserUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        ServiceError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
        ServiceError::Render(_)
        | ServiceError::Encode(_)
        | ServiceError::Internal(_)
        | ServiceError::Config { .. } => {
            eprintln!("chart-raster: render failed: {e}");
            StatusCode::INTERNAL_SERVER_ERROR
        }
    };
    error(status, &e.to_string())
}

fn json(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

fn error(status: StatusCode, message: &str) -> Response<Body> {
    let body = serde_json::to_vec(&serde_json::json!({ "error": message })).unwrap_or_default();
    json(status, body)
}

fn method_not_allowed() -> Response<Body> {
    error(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
}

fn unauthorized() -> Response<Body> {
    let mut r = error(StatusCode::UNAUTHORIZED, "Unauthorized");
    r.headers_mut()
        .insert("www-authenticate", HeaderValue::from_static("Bearer"));
    r
}

fn payload_too_large() -> Response<Body> {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("Request body too large: the limit is {MAX_BODY_BYTES} bytes (10 MiB)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_is_percent_decoded() {
        assert_eq!(
            query_pairs("chart=%7B%22a%22%3A1%7D&x=a+b&e=%E2%82%AC&bad=%zz&k"),
            vec![
                ("chart".into(), "{\"a\":1}".into()),
                ("x".into(), "a b".into()),
                ("e".into(), "€".into()),
                ("bad".into(), "%zz".into()),
                ("k".into(), "".into()),
            ]
        );
    }

    #[test]
    fn digests_compare() {
        let a: [u8; 32] = Sha256::digest(b"k1").into();
        let b: [u8; 32] = Sha256::digest(b"k2").into();
        assert!(digest_eq(&a, &a));
        assert!(!digest_eq(&a, &b));
    }
}
