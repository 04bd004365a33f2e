//! A real server on 127.0.0.1:0 and a small HTTP/1.1 client (hyper's connection API).

use bytes::Bytes;
use chart_http::ServerConfig;
use chart_raster::cache::ManualClock;
use chart_raster::spec::{Bitmap, Cancel, Message, RenderOptions, Rendered};
use chart_raster::{BlockingRenderer, RenderFailure, Service, ServiceConfig};
use http_body_util::{BodyExt, Full};
use hyper::header::HeaderMap;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A renderer driven by the chart config, for what the skia engine cannot be made to do on
/// demand: `{"test": "panic"}` panics, `{"test": "gate"}` waits until the gate opens or its
/// Cancel fires, `{"test": "stuck"}` waits for the gate only, `{"test": "spin"}` works until
/// its Cancel fires, `{"test": "fail"}` fails,
/// `{"test": "limit"}` exceeds a budget, and `{"messages": ["..."]}` returns those strings as
/// warn messages. The bitmap is solid blue at the request's size (`{"test": "noise"}`:
/// random colours, which no encoder compresses).
#[derive(Default)]
pub struct TestRenderer {
    pub started: AtomicUsize,
    /// Renders that ended (whatever the outcome).
    pub ended: AtomicUsize,
    /// Renders that stopped because their Cancel fired.
    pub cancelled: AtomicUsize,
    gate: Mutex<bool>,
    opened: Condvar,
}

impl TestRenderer {
    pub fn open_gate(&self) {
        *self.gate.lock().unwrap() = true;
        self.opened.notify_all();
    }

    pub fn close_gate(&self) {
        *self.gate.lock().unwrap() = false;
    }

    fn draw(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, RenderFailure> {
        match opts.chart.get("test").and_then(|v| v.as_str()) {
            Some("panic") => panic!("boom: secret detail"),
            Some("gate") => {
                let mut open = self.gate.lock().unwrap();
                while !*open {
                    if cancel.is_cancelled() {
                        return Err(RenderFailure::Cancelled);
                    }
                    open = self
                        .opened
                        .wait_timeout(open, Duration::from_millis(10))
                        .unwrap()
                        .0;
                }
            }
            Some("stuck") => {
                // A render that ignores its Cancel (an engine bug): only the gate ends it.
                let mut open = self.gate.lock().unwrap();
                while !*open {
                    open = self.opened.wait(open).unwrap();
                }
            }
            Some("spin") => {
                while !cancel.is_cancelled() {
                    std::hint::spin_loop();
                }
                return Err(RenderFailure::Cancelled);
            }
            Some("fail") => return Err(RenderFailure::Failed("the engine gave up".into())),
            Some("limit") => {
                return Err(RenderFailure::Rejected(
                    "the chart needs more widgets than the limit of 3 (MAX_WIDGETS)".into(),
                ))
            }
            _ => {}
        }
        let messages = opts
            .chart
            .get("messages")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str())
                    .map(Message::warn)
                    .collect()
            })
            .unwrap_or_default();
        let (w, h) = (opts.bitmap_width(), opts.bitmap_height());
        let data = if opts.chart.get("test").and_then(|v| v.as_str()) == Some("noise") {
            // Opaque pixels of a small generator: an image that does not compress, for a
            // response of about the bitmap's size.
            let mut state = 1u32;
            (0..w as usize * h as usize * 4)
                .map(|i| {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    if i % 4 == 3 {
                        255
                    } else {
                        (state >> 24) as u8
                    }
                })
                .collect()
        } else {
            [0u8, 0, 255, 255]
                .iter()
                .copied()
                .cycle()
                .take(w as usize * h as usize * 4)
                .collect()
        };
        Ok(Rendered {
            bitmap: Bitmap {
                width: w,
                height: h,
                data,
            },
            messages,
        })
    }
}

impl BlockingRenderer for TestRenderer {
    fn render(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, RenderFailure> {
        self.started.fetch_add(1, Ordering::SeqCst);
        struct Ended<'a>(&'a AtomicUsize);
        impl Drop for Ended<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let _ended = Ended(&self.ended);
        let r = self.draw(opts, cancel);
        if matches!(r, Err(RenderFailure::Cancelled)) {
            self.cancelled.fetch_add(1, Ordering::SeqCst);
        }
        r
    }
}

pub struct Options {
    pub api_key: Option<String>,
    pub trust_proxy: bool,
    pub public_url: Option<String>,
    /// Use [`TestRenderer`] instead of the skia engine.
    pub test_renderer: bool,
    pub config: ServiceConfig,
    /// `BODY_READ_TIMEOUT_SECONDS`, `RESPONSE_WRITE_TIMEOUT_SECONDS` and `MAX_CONNECTIONS`
    /// (the other server settings come from the fields above).
    pub body_read_timeout: Duration,
    pub response_write_timeout: Duration,
    pub max_connections: usize,
}

impl Default for Options {
    fn default() -> Self {
        let mut config = ServiceConfig::default();
        // The browser engine must report itself unavailable in these tests, whatever is
        // installed on the machine.
        config.browser.chromedriver = Some("/nonexistent/chromedriver".into());
        config.browser.chromium = Some("/nonexistent/chromium".into());
        Self {
            api_key: None,
            trust_proxy: false,
            public_url: None,
            test_renderer: false,
            config,
            body_read_timeout: chart_http::DEFAULT_BODY_READ_TIMEOUT,
            response_write_timeout: chart_http::DEFAULT_RESPONSE_WRITE_TIMEOUT,
            max_connections: chart_http::DEFAULT_MAX_CONNECTIONS,
        }
    }
}

pub struct Server {
    pub addr: SocketAddr,
    pub service: Service,
    pub clock: Arc<ManualClock>,
    pub renderer: Arc<TestRenderer>,
    shutdown: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

impl Server {
    pub async fn start(opts: Options) -> Server {
        let clock = Arc::new(ManualClock::new());
        let mut config = opts.config;
        config.clock = clock.clone();
        let renderer = Arc::new(TestRenderer::default());
        let service = if opts.test_renderer {
            Service::with_renderer(config, renderer.clone())
        } else {
            Service::new(config)
        };
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let server_config = ServerConfig {
            api_key: opts.api_key,
            trust_proxy: opts.trust_proxy,
            public_url: opts.public_url,
            body_read_timeout: opts.body_read_timeout,
            response_write_timeout: opts.response_write_timeout,
            max_connections: opts.max_connections,
            ..ServerConfig::default()
        };
        let svc = service.clone();
        let handle = tokio::spawn(async move {
            chart_http::serve(listener, svc, server_config, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Server {
            addr,
            service,
            clock,
            renderer,
            shutdown: Some(tx),
            handle: Some(handle),
        }
    }

    pub async fn default() -> Server {
        Server::start(Options::default()).await
    }

    pub async fn with_test_renderer() -> Server {
        Server::start(Options {
            test_renderer: true,
            ..Options::default()
        })
        .await
    }

    /// [`Server::with_test_renderer`] with the service settings `config`.
    pub async fn with_test_renderer_and(config: ServiceConfig) -> Server {
        Server::start(Options {
            test_renderer: true,
            config,
            ..Options::default()
        })
        .await
    }

    /// Signals shutdown and waits for `serve` to return.
    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(h) = self.handle.take() {
            h.await.unwrap();
        }
    }

    pub fn signal_shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.request("GET", path, &[], Vec::new()).await
    }

    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> Resp {
        self.request(
            "POST",
            path,
            &[("content-type", "application/json")],
            serde_json::to_vec(body).unwrap(),
        )
        .await
    }

    pub async fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Resp {
        request(self.addr, method, path, headers, body).await
    }

    /// Waits (without a deadline assertion) until `cond` holds.
    pub async fn wait_until(&self, mut cond: impl FnMut(&Server) -> bool) {
        for _ in 0..10_000 {
            if cond(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("condition never became true");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Never leave a renderer thread blocked behind a test's gate.
        self.renderer.open_gate();
    }
}

pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Resp {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = sender
        .send_request(req.body(Full::new(Bytes::from(body))).unwrap())
        .await
        .unwrap();
    let (parts, body) = resp.into_parts();
    Resp {
        status: parts.status,
        headers: parts.headers,
        body: body.collect().await.unwrap().to_bytes(),
    }
}

/// Sends raw bytes and reads the whole response (the server closes the connection).
pub async fn raw(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(bytes).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    String::from_utf8_lossy(&out).into_owned()
}

pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// Asserts an error response: status, exact body, JSON content type, X-Powered-By.
    pub fn assert_error(&self, status: u16, message: &str) {
        assert_eq!(self.status.as_u16(), status, "body: {:?}", self.body);
        assert_eq!(self.json(), serde_json::json!({ "error": message }));
        assert_eq!(self.header("content-type"), Some("application/json"));
        assert_powered_by(self);
    }
}

/// The headers every response carries: `X-Powered-By` and a 16-hex-digit `X-Request-Id`.
pub fn assert_powered_by(r: &Resp) {
    assert_eq!(
        r.header("x-powered-by"),
        Some(concat!("chart-raster/", env!("CARGO_PKG_VERSION")))
    );
    let id = r.header("x-request-id").expect("X-Request-Id");
    assert!(
        id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "X-Request-Id {id:?}"
    );
}

/// Parses a raw HTTP/1.1 response read to the end: status, lower-case headers, body.
pub fn parse_raw(raw: &str) -> (u16, Vec<(String, String)>, String) {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {raw:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

/// Asserts a raw response is the JSON error `message` with `status` and the common headers.
pub fn assert_raw_error(raw: &str, status: u16, message: &str) {
    let (code, headers, body) = parse_raw(raw);
    assert_eq!(code, status, "{raw}");
    let get = |k: &str| {
        headers
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("content-type"), Some("application/json"), "{raw}");
    assert_eq!(
        get("x-powered-by"),
        Some(concat!("chart-raster/", env!("CARGO_PKG_VERSION")))
    );
    assert_eq!(get("x-request-id").map(str::len), Some(16), "{raw}");
    assert_eq!(get("content-length"), Some(body.len().to_string().as_str()));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v, serde_json::json!({ "error": message }));
}

/// (width, height) of a PNG, decoding every pixel.
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    (info.width, info.height)
}

/// (width, height) from a baseline or progressive JPEG's SOF marker.
pub fn jpeg_size(b: &[u8]) -> (u32, u32) {
    assert_eq!(&b[..2], &[0xFF, 0xD8], "not a JPEG");
    let mut i = 2;
    while i + 9 < b.len() {
        assert_eq!(b[i], 0xFF, "bad JPEG marker at {i}");
        let marker = b[i + 1];
        let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        if (0xC0..=0xC2).contains(&marker) {
            let h = u16::from_be_bytes([b[i + 5], b[i + 6]]) as u32;
            let w = u16::from_be_bytes([b[i + 7], b[i + 8]]) as u32;
            return (w, h);
        }
        i += 2 + len;
    }
    panic!("no SOF marker");
}

/// (width, height) from a WebP's VP8, VP8L or VP8X header.
pub fn webp_size(b: &[u8]) -> (u32, u32) {
    assert_eq!(&b[..4], b"RIFF");
    assert_eq!(&b[8..12], b"WEBP");
    let le24 = |o: usize| u32::from(b[o]) | u32::from(b[o + 1]) << 8 | u32::from(b[o + 2]) << 16;
    match &b[12..16] {
        b"VP8X" => (le24(24) + 1, le24(27) + 1),
        b"VP8 " => {
            assert_eq!(&b[23..26], &[0x9d, 0x01, 0x2a], "VP8 start code");
            let w = u16::from_le_bytes([b[26], b[27]]) & 0x3fff;
            let h = u16::from_le_bytes([b[28], b[29]]) & 0x3fff;
            (u32::from(w), u32::from(h))
        }
        b"VP8L" => {
            let bits = u32::from_le_bytes([b[21], b[22], b[23], b[24]]);
            ((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
        }
        other => panic!("unknown WebP chunk {other:?}"),
    }
}

/// A small valid bar chart.
pub fn bar() -> serde_json::Value {
    serde_json::json!({
        "type": "bar",
        "data": {"labels": ["a", "b", "c"], "datasets": [{"label": "n", "data": [1, 3, 2]}]}
    })
}

/// `encodeURIComponent`.
pub fn encode_uri_component(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
