//! `cargo xtask loadtest`: cache-hit and cache-miss throughput of the HTTP service.
//!
//! Starts the service in-process on 127.0.0.1:0 (skia engine, default settings), then runs two
//! bounded phases, each stopping at `--requests` requests or `--seconds` seconds, whichever
//! comes first, over `--connections` keep-alive connections:
//! - hit: the same `POST /render` every time (rendered once beforehand), served from the cache;
//! - miss: every request differs (a distinct chart title), so each one is a full render.
//!
//! Run it in release for figures worth quoting: `cargo run --release -p xtask -- loadtest`.

use anyhow::{bail, Context};
use bytes::Bytes;
use chart_raster::{Service, ServiceConfig};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    requests: u64,
    seconds: f64,
    connections: usize,
    width: u32,
    height: u32,
}

fn parse(args: &[String]) -> anyhow::Result<Args> {
    let mut a = Args {
        requests: 2000,
        seconds: 10.0,
        connections: 8,
        width: 800,
        height: 600,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--requests" => a.requests = value.parse().context("--requests")?,
            "--seconds" => a.seconds = value.parse().context("--seconds")?,
            "--connections" => a.connections = value.parse().context("--connections")?,
            "--width" => a.width = value.parse().context("--width")?,
            "--height" => a.height = value.parse().context("--height")?,
            other => bail!(
                "unknown flag {other}; flags: --requests N --seconds S --connections C --width W --height H"
            ),
        }
    }
    if a.connections == 0 || a.requests == 0 {
        bail!("--connections and --requests must be at least 1");
    }
    Ok(a)
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let args = parse(args)?;
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let service = Service::new(ServiceConfig::default());
        let concurrency = service.config().concurrency;
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(chart_http::serve(
            listener,
            service,
            chart_http::ServerConfig::default(),
            async {
                let _ = stop_rx.await;
            },
        ));
        println!(
            "loadtest: {}x{} CSS px at dpr 2 (PNG), {} connections, CONCURRENCY {concurrency}, \
             at most {} requests or {} s per phase",
            args.width, args.height, args.connections, args.requests, args.seconds
        );
        let hit = phase(&args, addr, false).await?;
        report("cache hit ", &hit);
        let miss = phase(&args, addr, true).await?;
        report("cache miss", &miss);
        let _ = stop_tx.send(());
        server.await??;
        anyhow::Ok(())
    })
}

struct Outcome {
    ok: u64,
    failed: u64,
    hits: u64,
    elapsed: Duration,
    latencies_ms: Vec<f64>,
}

fn report(name: &str, o: &Outcome) {
    let mut l = o.latencies_ms.clone();
    l.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        l.get(((l.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "{name}: {} ok, {} failed, {} served from cache, {:.2} s, {:.0} req/s, \
         latency p50 {:.1} ms, p99 {:.1} ms",
        o.ok,
        o.failed,
        o.hits,
        o.elapsed.as_secs_f64(),
        o.ok as f64 / o.elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99)
    );
}

fn body(args: &Args, unique: Option<u64>) -> Bytes {
    let title = match unique {
        Some(n) => format!("request {n}"),
        None => "cached".to_string(),
    };
    let req = serde_json::json!({
        "chart": {
            "type": "bar",
            "data": {
                "labels": ["Jan", "Feb", "Mar", "Apr", "May", "Jun"],
                "datasets": [{"label": "Sales", "data": [12, 19, 3, 5, 2, 3]}]
            },
            "options": {"plugins": {"title": {"display": true, "text": title}}}
        },
        "width": args.width,
        "height": args.height,
    });
    Bytes::from(serde_json::to_vec(&req).unwrap_or_default())
}

async fn phase(args: &Args, addr: SocketAddr, miss: bool) -> anyhow::Result<Outcome> {
    if !miss {
        // Warm the cache with the one request of this phase.
        let mut conn = Conn::open(addr).await?;
        conn.post(body(args, None)).await?;
    }
    let issued = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..args.connections {
        let issued = issued.clone();
        let limit = args.requests;
        let shared = body(args, None);
        let (width, height) = (args.width, args.height);
        tasks.push(tokio::spawn(async move {
            let args = Args {
                requests: limit,
                seconds: 0.0,
                connections: 1,
                width,
                height,
            };
            let mut conn = Conn::open(addr).await?;
            let mut out = Outcome {
                ok: 0,
                failed: 0,
                hits: 0,
                elapsed: Duration::ZERO,
                latencies_ms: Vec::new(),
            };
            loop {
                let n = issued.fetch_add(1, Ordering::SeqCst);
                if n >= limit || Instant::now() >= deadline {
                    break;
                }
                let b = if miss {
                    body(&args, Some(n))
                } else {
                    shared.clone()
                };
                let t = Instant::now();
                match conn.post(b).await {
                    Ok(hit) => {
                        out.ok += 1;
                        out.hits += u64::from(hit);
                    }
                    Err(_) => {
                        out.failed += 1;
                        conn = Conn::open(addr).await?;
                    }
                }
                out.latencies_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            anyhow::Ok(out)
        }));
    }
    let mut total = Outcome {
        ok: 0,
        failed: 0,
        hits: 0,
        elapsed: Duration::ZERO,
        latencies_ms: Vec::new(),
    };
    for t in tasks {
        let o = t.await??;
        total.ok += o.ok;
        total.failed += o.failed;
        total.hits += o.hits;
        total.latencies_ms.extend(o.latencies_ms);
    }
    total.elapsed = start.elapsed();
    Ok(total)
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    host: String,
}

impl Conn {
    async fn open(addr: SocketAddr) -> anyhow::Result<Self> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(conn);
        Ok(Self {
            sender,
            host: addr.to_string(),
        })
    }

    /// Sends one render; returns whether it was a cache hit.
    async fn post(&mut self, body: Bytes) -> anyhow::Result<bool> {
        self.sender.ready().await?;
        let req = Request::post("/render")
            .header("host", &self.host)
            .header("content-type", "application/json")
            .body(Full::new(body))?;
        let resp = self.sender.send_request(req).await?;
        let status = resp.status();
        let hit = resp
            .headers()
            .get("x-cache-hit")
            .is_some_and(|v| v.as_bytes() == b"true");
        let bytes = resp.into_body().collect().await?.to_bytes();
        if !status.is_success() {
            bail!("HTTP {status}: {}", String::from_utf8_lossy(&bytes));
        }
        Ok(hit)
    }
}
