//! The HTTP service: routes, auth, headers and errors over the [`chart_raster`] facade. Takes a
//! bound listener and a shutdown future; the process (signals, logging set-up) belongs to the binary.
//!
//! Routes ([`Route`]): `POST|GET /render`, `POST|GET /chart` (QuickChart's request shape),
//! `GET /cache/<hash>`, `GET /examples`, `GET /health`, `GET /metrics` (Prometheus text
//! format), `GET /openapi.json` (an OpenAPI 3.1 document of all of them).
//! Every response carries `X-Powered-By: chart-raster/<version>` and `X-Request-Id`; every
//! error body is `{"error": "<message>"}`, including the answers to heads hyper would reject
//! itself (the `head_guard` module). One line per request goes to stderr.
#![warn(missing_docs)]

mod gallery;
mod head_guard;
mod headers;
// The hostile-request catalogue of this crate's tests and `cargo xtask loadtest --soak`:
// public for them, not an API.
#[doc(hidden)]
pub mod hostile;
mod js_literal;
pub mod log;
mod metrics;
mod openapi;
pub mod quickchart;
mod routes;

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
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

pub use head_guard::{MAX_HEADERS, MAX_HEAD_BYTES, MAX_TARGET_BYTES};
pub use headers::{messages_header, MAX_MESSAGES_HEADER_BYTES};
pub use metrics::METRICS_CONTENT_TYPE;
pub use openapi::document as openapi_document;
pub use routes::Route;

/// Largest accepted request body: 10 MiB. Larger bodies get 413.
pub const MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// Default of [`ServerConfig::body_read_timeout`] (`BODY_READ_TIMEOUT_SECONDS`): the longest a
/// client may take to send one request body, from its head to its last byte. 60 s lets a
/// full 10 MiB body through at about 175 KB/s; a client trickling a body a byte at a time
/// (slowloris on the body: hyper's `header_read_timeout` covers the head only) would
/// otherwise hold its connection, its task and the part already sent, up to 10 MiB, for ever.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(60);

/// Default of [`ServerConfig::response_write_timeout`] (`RESPONSE_WRITE_TIMEOUT_SECONDS`): the
/// longest the client may take none of its response while the server has more to send
/// (nginx's `send_timeout` is the same 60 s). Past it the connection is closed.
pub const DEFAULT_RESPONSE_WRITE_TIMEOUT: Duration = Duration::from_secs(60);

/// Default of [`ServerConfig::max_connections`] (`MAX_CONNECTIONS`): open client connections.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// `Cache-Control` of `/cache/<hash>` responses (one hour, the default TTL).
pub const CACHE_CONTROL_VALUE: &str = "public, max-age=3600";

/// How long a graceful shutdown waits, beyond `MAX_RENDER_TIME_SECONDS`, for responses to
/// be written (a client reading slowly) before it closes the remaining connections.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Why the server stopped with an error, or could not be configured.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The listener's address could not be read.
    #[error("listener: {0}")]
    Listener(#[source] std::io::Error),
    /// A setting (environment variable) is invalid.
    #[error("invalid setting {name}={value:?}: {reason}")]
    Config {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// Settings of the HTTP layer.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// When set, every route but `/health` and `/openapi.json` requires this key (as
    /// `Authorization: Bearer <key>`, `X-API-Key: <key>` or `?api_key=<key>`). Default: none.
    pub api_key: Option<String>,
    /// `TRUST_PROXY=1`: the service runs behind a proxy that sets `X-Forwarded-Proto`,
    /// `X-Forwarded-Host` and `Host`, and `X-Cache-Url` is built from them. Off by default:
    /// any client can send those headers, and a cache URL pointing at a host of the client's
    /// choosing must not come out of this service.
    pub trust_proxy: bool,
    /// `PUBLIC_URL`: the base of `X-Cache-Url` (e.g. `https://charts.example.com`), used
    /// as it is, whatever the request says. Default: none, and then (without `trust_proxy`)
    /// `http://<the address the client connected to>`.
    pub public_url: Option<String>,
    /// `LOG_FORMAT`: `text` (default) or `json`, one JSON object per line ([`log`]).
    pub log_format: log::LogFormat,
    /// `BODY_READ_TIMEOUT_SECONDS`: a request body not received in full within this time
    /// (counted from the end of its head) is answered 408 and its connection closed.
    /// Default: [`DEFAULT_BODY_READ_TIMEOUT`].
    pub body_read_timeout: Duration,
    /// `RESPONSE_WRITE_TIMEOUT_SECONDS`: a connection whose client reads none of the response
    /// for this long, while more is waiting to be sent, is closed (a client that asks for a
    /// large image and stops reading held its connection and the image for ever). The time
    /// runs between two writes that make progress, so slow readers are served. Default:
    /// [`DEFAULT_RESPONSE_WRITE_TIMEOUT`].
    pub response_write_timeout: Duration,
    /// `MAX_CONNECTIONS`: client connections open at once. One more is answered 503 and
    /// closed at once, so that clients holding connections open (slow heads and bodies, idle
    /// keep-alive, unread responses) cannot use up the process' file descriptors and memory.
    /// Default: [`DEFAULT_MAX_CONNECTIONS`].
    pub max_connections: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            api_key: None,
            trust_proxy: false,
            public_url: None,
            log_format: log::LogFormat::default(),
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            response_write_timeout: DEFAULT_RESPONSE_WRITE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
        }
    }
}

impl ServerConfig {
    /// `API_KEY`, `TRUST_PROXY` (`1`/`true` or `0`/`false`), `PUBLIC_URL` (`http://` or
    /// `https://`, no path), `BODY_READ_TIMEOUT_SECONDS`, `RESPONSE_WRITE_TIMEOUT_SECONDS` and
    /// `MAX_CONNECTIONS` (positive whole numbers), read through `var`. Empty values count as
    /// unset.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, Error> {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let trust_proxy = match get("TRUST_PROXY") {
            None => false,
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "1" | "true" => true,
                "0" | "false" => false,
                _ => {
                    return Err(Error::Config {
                        name: "TRUST_PROXY",
                        value: v,
                        reason: "expected 1 or 0",
                    })
                }
            },
        };
        let public_url = match get("PUBLIC_URL") {
            None => None,
            Some(v) => Some(public_url(&v).ok_or(Error::Config {
                name: "PUBLIC_URL",
                value: v.clone(),
                reason: "expected http:// or https:// and a host, with no path or query",
            })?),
        };
        let log_format = match get("LOG_FORMAT") {
            None => log::LogFormat::Text,
            Some(v) => log::LogFormat::parse(&v).ok_or(Error::Config {
                name: "LOG_FORMAT",
                value: v.clone(),
                reason: "expected text or json",
            })?,
        };
        let positive = |name: &'static str| -> Result<Option<u64>, Error> {
            get(name)
                .map(|v| match v.trim().parse::<u64>() {
                    Ok(n) if n > 0 => Ok(n),
                    _ => Err(Error::Config {
                        name,
                        value: v,
                        reason: "expected a positive whole number",
                    }),
                })
                .transpose()
        };
        let defaults = Self::default();
        Ok(Self {
            api_key: get("API_KEY"),
            trust_proxy,
            public_url,
            log_format,
            body_read_timeout: positive("BODY_READ_TIMEOUT_SECONDS")?
                .map_or(defaults.body_read_timeout, Duration::from_secs),
            response_write_timeout: positive("RESPONSE_WRITE_TIMEOUT_SECONDS")?
                .map_or(defaults.response_write_timeout, Duration::from_secs),
            max_connections: positive("MAX_CONNECTIONS")?.map_or(defaults.max_connections, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
        })
    }
}

/// A base URL fit for `X-Cache-Url`: scheme and authority only, trailing slash removed.
fn public_url(v: &str) -> Option<String> {
    let v = v.trim().trim_end_matches('/');
    let rest = v
        .strip_prefix("https://")
        .or_else(|| v.strip_prefix("http://"))?;
    (!rest.is_empty() && rest.bytes().all(host_byte)).then(|| v.to_string())
}

/// Bytes allowed in a host (and port) taken into a header value.
fn host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b".-:[]_".contains(&b)
}

/// Request ids: a random-looking prefix per process and a counter, 16 hex characters, so
/// ids from different runs do not collide in one log.
struct RequestIds {
    prefix: u32,
    next: AtomicU32,
}

impl RequestIds {
    fn new() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let seed = Sha256::digest(format!("{nanos}/{}", std::process::id()));
        Self {
            prefix: u32::from_be_bytes([seed[0], seed[1], seed[2], seed[3]]),
            next: AtomicU32::new(0),
        }
    }

    fn next(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{:08x}{n:08x}", self.prefix)
    }
}

struct App {
    service: Service,
    /// SHA-256 of the key: comparing digests takes the same time whatever the key's length
    /// and wherever the first difference is.
    key_digest: Option<[u8; 32]>,
    gallery: Bytes,
    trust_proxy: bool,
    public_url: Option<String>,
    ids: RequestIds,
    http_metrics: metrics::HttpMetrics,
    log: log::LogFormat,
    body_read_timeout: Duration,
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
    let log = config.log_format;
    let examples = chart_raster::examples::all().unwrap_or_else(|e| {
        let msg = format!("skipping the examples gallery: {e}");
        log.emit(
            log::Level::Warn,
            || format!("chart-raster: {msg}"),
            &msg,
            None,
            &[],
        );
        Vec::new()
    });
    let app = Arc::new(App {
        service,
        key_digest: config
            .api_key
            .as_deref()
            .map(|k| Sha256::digest(k.as_bytes()).into()),
        gallery: Bytes::from(gallery::page(&examples, config.api_key.as_deref())),
        trust_proxy: config.trust_proxy,
        public_url: config.public_url,
        ids: RequestIds::new(),
        http_metrics: metrics::HttpMetrics::default(),
        log,
        body_read_timeout: config.body_read_timeout,
    });
    let connections = Arc::new(tokio::sync::Semaphore::new(
        config
            .max_connections
            .min(tokio::sync::Semaphore::MAX_PERMITS),
    ));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _peer)) => stream,
                    Err(e) => {
                        // Out of file descriptors and the like: keep serving the others.
                        let msg = format!("accept failed: {e}");
                        log.emit(log::Level::Error, || format!("chart-raster: {msg}"), &msg, None, &[]);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                // One permit per open connection, given back when the connection ends.
                let Ok(permit) = connections.clone().try_acquire_owned() else {
                    tokio::spawn(refuse_connection(stream, app.clone()));
                    continue;
                };
                // The address this client reached us at: the base of X-Cache-Url when no
                // public URL is configured and proxies are not trusted.
                let local = stream.local_addr().unwrap_or(local);
                let respond: head_guard::Respond = {
                    let app = app.clone();
                    Box::new(move |rejection| app.rejected_head(&rejection))
                };
                let io = TokioIo::new(head_guard::GuardedStream::new(
                    stream,
                    respond,
                    config.response_write_timeout,
                ));
                let app = app.clone();
                let svc = hyper::service::service_fn(move |req| {
                    let app = app.clone();
                    async move { Ok::<_, Infallible>(handle(app, req, local).await) }
                });
                // A client that never finishes its headers (slowloris) is dropped after 30 s.
                // hyper drops a request's future when its client closes the connection
                // (half-close is off), which withdraws the request from its render.
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(30))
                    .max_headers(MAX_HEADERS)
                    .serve_connection(io, svc);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    // Client resets and half-read requests end here; nothing to report.
                    let _ = conn.await;
                    drop(permit);
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    // Queued renders are answered 503 now; running ones end by their deadline at the latest.
    app.service.begin_shutdown();
    let limit = app.service.config().max_render_time + SHUTDOWN_GRACE;
    if tokio::time::timeout(limit, graceful.shutdown())
        .await
        .is_err()
    {
        let msg = format!(
            "connections still open {} s after shutdown began; closing them",
            limit.as_secs()
        );
        log.emit(
            log::Level::Warn,
            || format!("chart-raster: {msg}"),
            &msg,
            None,
            &[],
        );
    }
    Ok(())
}

type Body = Full<Bytes>;

/// Answers a connection over `MAX_CONNECTIONS` with a JSON 503 and closes it, without
/// reading its request: the answer is written at once (it fits any socket buffer), and a
/// client that does not take it within a second is dropped.
async fn refuse_connection(mut stream: tokio::net::TcpStream, app: Arc<App>) {
    use tokio::io::AsyncWriteExt;
    let id = app.ids.next();
    app.http_metrics.count("other", 503);
    let body = serde_json::json!({
        "error": "too many open connections (MAX_CONNECTIONS); retry later"
    })
    .to_string();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\
         x-powered-by: chart-raster/{VERSION}\r\nx-request-id: {id}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(head.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}

impl App {
    /// The raw response to a head the guard rejected (the connection closes after it).
    fn rejected_head(&self, rejection: &head_guard::Rejection) -> Vec<u8> {
        let id = self.ids.next();
        self.http_metrics.count("other", rejection.status);
        self.log.emit(
            log::Level::Info,
            || {
                format!(
                    "- - {} 0.0ms cache=- id={id} ({})",
                    rejection.status, rejection.message
                )
            },
            &rejection.message,
            Some(&id),
            &[("status", rejection.status.into())],
        );
        let body = serde_json::json!({ "error": rejection.message }).to_string();
        let reason = StatusCode::from_u16(rejection.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Bad Request");
        format!(
            "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\nx-powered-by: chart-raster/{VERSION}\r\nx-request-id: {id}\r\n\r\n{body}",
            rejection.status,
            body.len()
        )
        .into_bytes()
    }
}

/// Longest `X-Request-Id` taken from a request.
pub const MAX_REQUEST_ID_BYTES: usize = 128;

/// The request's own `X-Request-Id`, when it is one we can echo and log as it is: 1 to
/// [`MAX_REQUEST_ID_BYTES`] bytes of letters, digits and `-_.:` (a UUID, a trace id). Anything
/// else is replaced by a generated id rather than copied into headers and logs.
fn client_request_id(req: &Request<Incoming>) -> Option<String> {
    let v = req.headers().get("x-request-id")?.to_str().ok()?.trim();
    let ok = !v.is_empty()
        && v.len() <= MAX_REQUEST_ID_BYTES
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b));
    ok.then(|| v.to_string())
}

/// Aborts a task when dropped: the route task must not outlive its request, or a client that
/// disconnected would keep its render wanted.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs the route in its own task so that a panic becomes a 500, never a dropped process or
/// connection, then stamps the common headers and logs the request.
async fn handle(app: Arc<App>, req: Request<Incoming>, local: SocketAddr) -> Response<Body> {
    let start = Instant::now();
    // A proxy or client that already tracks the request names it; otherwise we do.
    let id = client_request_id(&req).unwrap_or_else(|| app.ids.next());
    let method = req.method().clone();
    // The query is left out of the log: it may hold the API key.
    let path = req.uri().path().to_string();
    let task = tokio::spawn(route(app.clone(), req, local, id.clone()));
    let _abort = AbortOnDrop(task.abort_handle());
    let (mut resp, cache) = match task.await {
        Ok(r) => r,
        Err(e) => {
            let detail = if e.is_panic() {
                format!("request handler panicked: {}", panic_text(&*e.into_panic()))
            } else {
                "request handler cancelled".into()
            };
            app.log.emit(
                log::Level::Error,
                || format!("chart-raster: request {id}: {method} {path}: {detail}"),
                &detail,
                Some(&id),
                &[
                    ("method", method.as_str().into()),
                    ("path", path.as_str().into()),
                ],
            );
            (internal_error(&id), None)
        }
    };
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("chart-raster/{VERSION}")) {
        h.insert("x-powered-by", v);
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        h.insert("x-request-id", v);
    }
    app.http_metrics
        .count(metrics::route_label(&path), resp.status().as_u16());
    let cache = match cache {
        Some(true) => "hit",
        Some(false) => "miss",
        None => "-",
    };
    let (status, ms) = (
        resp.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0,
    );
    app.log.emit(
        log::Level::Info,
        || format!("{method} {path} {status} {ms:.1}ms cache={cache} id={id}"),
        "request",
        Some(&id),
        &[
            ("method", method.as_str().into()),
            ("path", path.as_str().into()),
            ("status", status.into()),
            ("duration_ms", ((ms * 10.0).round() / 10.0).into()),
            ("cache", cache.into()),
        ],
    );
    resp
}

/// The response and, for renders, whether it was a cache hit.
async fn route(
    app: Arc<App>,
    req: Request<Incoming>,
    local: SocketAddr,
    id: String,
) -> (Response<Body>, Option<bool>) {
    let Some(route) = Route::of(req.uri().path()) else {
        return (error(StatusCode::NOT_FOUND, "Not found"), None);
    };
    if !route.allows(req.method()) {
        return (method_not_allowed(), None);
    }
    // `/chart` may carry the key in its own `key` field (QuickChart's); it checks once the
    // request is read.
    let authorized = authorized(&app, &req);
    if route.needs_key() && !authorized && route != Route::Chart {
        return (unauthorized(), None);
    }
    match route {
        Route::Health => {
            let body = serde_json::to_vec(&app.service.health()).unwrap_or_default();
            (json(StatusCode::OK, body), None)
        }
        Route::Metrics => {
            let text = metrics::render(&app.service.metrics(), &app.http_metrics);
            (text_response(text, METRICS_CONTENT_TYPE), None)
        }
        Route::OpenApi => {
            let body = serde_json::to_vec_pretty(&openapi::document()).unwrap_or_default();
            (json(StatusCode::OK, body), None)
        }
        Route::Render => render(&app, req, local, &id).await,
        Route::Chart => chart(&app, req, local, &id, authorized).await,
        Route::Examples => {
            let mut r = Response::new(Full::new(app.gallery.clone()));
            r.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            if app.key_digest.is_some() {
                // The page embeds the key: no cache, shared or private, may keep it.
                r.headers_mut()
                    .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            }
            (r, None)
        }
        Route::Cache => {
            let hash = req.uri().path().strip_prefix("/cache/").unwrap_or_default();
            match app.service.cached(hash).await {
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
    }
}

/// A POST body, at most [`MAX_BODY_BYTES`], received within `timeout`; the error response
/// otherwise (408 for a body too slow, with the connection closed after it).
async fn read_body(req: Request<Incoming>, timeout: Duration) -> Result<Bytes, Response<Body>> {
    let too_large = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > MAX_BODY_BYTES as u64);
    if too_large {
        return Err(payload_too_large());
    }
    let read = Limited::new(req.into_body(), MAX_BODY_BYTES).collect();
    let Ok(read) = tokio::time::timeout(timeout, read).await else {
        let mut r = error(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "Request body not received within {} s (BODY_READ_TIMEOUT_SECONDS)",
                timeout.as_secs()
            ),
        );
        r.headers_mut()
            .insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
        return Err(r);
    };
    match read {
        Ok(b) => Ok(b.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(payload_too_large()),
        Err(e) => Err(error(
            StatusCode::BAD_REQUEST,
            &format!("Could not read the request body: {e}"),
        )),
    }
}

async fn render(
    app: &App,
    req: Request<Incoming>,
    local: SocketAddr,
    id: &str,
) -> (Response<Body>, Option<bool>) {
    // MAX_RENDER_TIME_SECONDS counts from the request read (its body has its own limit, a
    // slow uplink is not the service's time): parsing, the queue and the drawing together,
    // so a client waits at most that long for its image once sent (before, the queue and the
    // drawing had the limit each, and parsing none).
    let mut received = Instant::now();
    let base = app.cache_base_url(&req, local);
    let limits = &app.service.config().limits;
    let opts = if req.method() == Method::POST {
        let body = match read_body(req, app.body_read_timeout).await {
            Ok(b) => b,
            Err(r) => return (r, None),
        };
        received = Instant::now();
        // A large body is parsed on two threads when a core is idle.
        RenderOptions::from_json_bytes_with_core(&body, limits, chart_raster::prefix_core)
    } else {
        RenderOptions::from_query_with_limits(query_pairs(req.uri().query().unwrap_or("")), limits)
    };
    let opts = match opts {
        Ok(o) => o,
        Err(e) => return (error(StatusCode::BAD_REQUEST, &e.to_string()), None),
    };
    match app.service.render_received(opts, Some(received)).await {
        Ok(r) => {
            let cached = r.cached;
            (image_response(r, &base), Some(cached))
        }
        Err(e) => (service_error(&e, id, app.log), None),
    }
}

/// `GET|POST /chart`: QuickChart's request shape ([`quickchart`]), rendered as `/render`
/// would render the same options.
async fn chart(
    app: &App,
    req: Request<Incoming>,
    local: SocketAddr,
    id: &str,
    authorized: bool,
) -> (Response<Body>, Option<bool>) {
    // As in `render`: the limit counts from the request read.
    let mut received = Instant::now();
    let base = app.cache_base_url(&req, local);
    let limits = &app.service.config().limits;
    let parsed = if req.method() == Method::POST {
        let body = match read_body(req, app.body_read_timeout).await {
            Ok(b) => b,
            Err(r) => return (r, None),
        };
        received = Instant::now();
        quickchart::from_body(&body, limits)
    } else {
        quickchart::from_query(query_pairs(req.uri().query().unwrap_or("")), limits)
    };
    let key_ok = |key: &Option<String>| {
        authorized
            || app.key_digest.as_ref().is_some_and(|expected| {
                key.as_deref()
                    .is_some_and(|k| digest_eq(&Sha256::digest(k.as_bytes()).into(), expected))
            })
    };
    let parsed = match parsed {
        Ok(p) if key_ok(&p.key) => p,
        // Unauthenticated callers learn nothing about their request.
        _ if !authorized && app.key_digest.is_some() => return (unauthorized(), None),
        Ok(_) => return (unauthorized(), None),
        Err(e) => return (error(StatusCode::BAD_REQUEST, &e), None),
    };
    match app
        .service
        .render_received(parsed.opts, Some(received))
        .await
    {
        Ok(mut r) => {
            let cached = r.cached;
            let mut messages = parsed.messages;
            messages.append(&mut r.messages);
            r.messages = messages;
            if parsed.base64 {
                let mut resp = image_response(r.clone(), &base);
                let text = quickchart::data_url(r.content_type, &r.bytes);
                resp.headers_mut().remove(CONTENT_LENGTH);
                resp.headers_mut().insert(
                    CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                );
                *resp.body_mut() = Full::new(Bytes::from(text));
                (resp, Some(cached))
            } else {
                (image_response(r, &base), Some(cached))
            }
        }
        Err(e) => (service_error(&e, id, app.log), None),
    }
}

/// A 200 with a text body.
fn text_response(text: String, content_type: &'static str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(text)));
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
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

impl App {
    /// The base of `X-Cache-Url`: `PUBLIC_URL` when set; with `TRUST_PROXY`,
    /// `<X-Forwarded-Proto>://<X-Forwarded-Host or Host>` (the first value of each, as the
    /// proxy nearest to us appends); otherwise `http://<the address the client reached>`,
    /// since the request's own headers are whatever the client chose to send.
    fn cache_base_url(&self, req: &Request<Incoming>, local: SocketAddr) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        if !self.trust_proxy {
            return format!("http://{local}");
        }
        let first = |name| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        let scheme = match first("x-forwarded-proto") {
            Some(p) if p.eq_ignore_ascii_case("https") => "https",
            _ => "http",
        };
        let host = first("x-forwarded-host")
            .or_else(|| first(HOST.as_str()))
            .filter(|h| h.bytes().all(host_byte))
            .map_or_else(|| local.to_string(), str::to_string);
        format!("{scheme}://{host}")
    }
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

fn service_error(e: &ServiceError, id: &str, log: log::LogFormat) -> Response<Body> {
    let log_error = |e: &ServiceError| {
        let msg = e.to_string();
        log.emit(
            log::Level::Error,
            || format!("chart-raster: request {id}: {msg}"),
            &msg,
            Some(id),
            &[],
        );
    };
    let status = match e {
        ServiceError::Request(_) | ServiceError::Rejected(_) => StatusCode::BAD_REQUEST,
        ServiceError::BrowserUnavailable(_)
        | ServiceError::Busy { .. }
        | ServiceError::QueueMemory { .. }
        | ServiceError::ShuttingDown
        | ServiceError::QueueTimeout(_) => StatusCode::SERVICE_UNAVAILABLE,
        ServiceError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
        ServiceError::Render(_) | ServiceError::Encode(_) => {
            log_error(e);
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("{e} (request id {id})"),
            );
        }
        ServiceError::Internal(_) | ServiceError::Config { .. } => {
            // A bug (a panic, most likely): the detail goes to the log only.
            log_error(e);
            return internal_error(id);
        }
    };
    let mut r = error(status, &e.to_string());
    if let Some(secs) = e.retry_after() {
        r.headers_mut()
            .insert(hyper::header::RETRY_AFTER, HeaderValue::from(secs));
    }
    r
}

/// The 500 of a bug: generic, with the request id that finds the detail in the log.
fn internal_error(id: &str) -> Response<Body> {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        &format!("internal error (request id {id})"),
    )
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
