//! `cargo xtask loadtest`: cache-hit and cache-miss throughput of the HTTP service.
//!
//! Starts the service in-process on 127.0.0.1:0 (skia engine, default settings), then runs two
//! bounded phases, each stopping at `--requests` requests or `--seconds` seconds, whichever
//! comes first, over `--connections` keep-alive connections:
//! - hit: the same `POST /render` every time (rendered once beforehand), served from the cache;
//! - miss: every request differs (a distinct chart title), so each one is a full render.
//!
//! Run it in release for figures worth quoting: `cargo run --release -p xtask -- loadtest`.
//!
//! `--soak [--seconds 60] [--bin PATH]`: see [`soak`].

use anyhow::bail;
use argh::FromArgs;
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
    soak: bool,
    bin: Option<std::path::PathBuf>,
}

/// Measure the service's cache-hit and cache-miss throughput in-process; with --soak, run the
/// binary under twice its capacity with hostile requests mixed in.
#[derive(FromArgs)]
#[argh(subcommand, name = "loadtest")]
pub struct Cli {
    /// requests per phase at most (default 2000)
    #[argh(option, default = "2000")]
    requests: u64,
    /// seconds per phase at most (default 10; with --soak, the soak's length, default 60)
    #[argh(option)]
    seconds: Option<f64>,
    /// keep-alive connections (default 8)
    #[argh(option, default = "8")]
    connections: usize,
    /// chart width in CSS px (default 800)
    #[argh(option, default = "800")]
    width: u32,
    /// chart height in CSS px (default 600)
    #[argh(option, default = "600")]
    height: u32,
    /// soak the chart-raster binary instead
    #[argh(switch)]
    soak: bool,
    /// the binary to soak (default: chart-raster beside this xtask binary)
    #[argh(option)]
    bin: Option<std::path::PathBuf>,
}

fn parse(cli: Cli) -> anyhow::Result<Args> {
    let seconds_given = cli.seconds.is_some();
    let mut a = Args {
        requests: cli.requests,
        seconds: cli.seconds.unwrap_or(10.0),
        connections: cli.connections,
        width: cli.width,
        height: cli.height,
        soak: cli.soak,
        bin: cli.bin,
    };
    if a.soak && !seconds_given {
        a.seconds = 60.0;
    }
    if a.connections == 0 || a.requests == 0 {
        bail!("--connections and --requests must be at least 1");
    }
    Ok(a)
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let args = parse(cli)?;
    if args.soak {
        return soak::run(soak::Args {
            seconds: args.seconds,
            bin: args.bin,
        });
    }
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let service = Service::new(ServiceConfig::default());
        let concurrency = service.config().concurrency;
        let (addr, stop_tx, server) = serve_in_process(service).await?;
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

/// The service served on a loopback port of this process: its address, the sender that
/// stops it, and the server's task.
pub(crate) async fn serve_in_process(
    service: Service,
) -> anyhow::Result<(
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), chart_http::Error>>,
)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(chart_http::serve(
        listener,
        service,
        chart_http::ServerConfig::default(),
        async {
            let _ = stop_rx.await;
        },
    ));
    Ok((addr, stop_tx, server))
}

/// A memory figure of a process's `/proc/<pid>/status` (`VmRSS`, `VmHWM`...) in MiB.
pub(crate) fn status_mib(pid: &str, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
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
                "datasets": [{"label": "Sales", "data": [12, 19, 3, 5, 2, 3], "borderWidth": 2}]
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
                soak: false,
                bin: None,
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

    /// Sends one render; returns its status (the body is read and dropped).
    async fn post_status(&mut self, body: Bytes) -> anyhow::Result<u16> {
        self.sender.ready().await?;
        let req = Request::post("/render")
            .header("host", &self.host)
            .header("content-type", "application/json")
            .body(Full::new(body))?;
        let resp = self.sender.send_request(req).await?;
        let status = resp.status().as_u16();
        resp.into_body().collect().await?;
        Ok(status)
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

/// `--soak`: the shipped binary under about twice its cache-miss capacity, with hostile
/// requests mixed in.
///
/// Runs `chart-raster serve` (release build, next to this xtask binary, or `--bin PATH`) as a
/// child process, so its RSS is the service's alone and its allocator is the one it ships
/// with. Measures the cache-miss capacity for a few seconds, then sends requests open-loop at
/// twice that rate for `--seconds` (default 60): every tenth request is a hostile one from
/// the HTTP tests' suite. Every response must have an expected status (normal: 200, or 503
/// from the bounded queue; hostile: its designed answer, or 503). Reports normal requests'
/// p50/p99, the status counts and the server's RSS sampled every second from `/proc`.
mod soak {
    use super::Conn;
    use anyhow::{bail, Context};
    use bytes::Bytes;
    use std::collections::BTreeMap;
    use std::io::BufRead;
    use std::net::SocketAddr;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    pub struct Args {
        pub seconds: f64,
        pub bin: Option<PathBuf>,
    }

    /// How a request is sent and which statuses it may get.
    struct Kind {
        name: &'static str,
        wire: Wire,
        expected: Vec<u16>,
    }

    enum Wire {
        /// `POST /render` with this body.
        Post(Bytes),
        /// Raw bytes on a fresh connection.
        Raw(Bytes),
    }

    /// The hostile mix: the cases of chart-http's hostile catalogue marked for the soak (the
    /// same list its integration test sends). Each may get its designed status; one that is
    /// drawn may also get 503 from the bounded queue.
    fn hostile() -> Vec<Kind> {
        use chart_http::hostile::{cases, Send};
        let json = |v: &serde_json::Value| Bytes::from(serde_json::to_vec(v).unwrap_or_default());
        cases()
            .into_iter()
            .filter(|c| c.soak)
            .map(|c| Kind {
                name: c.name,
                wire: match c.send {
                    Send::Post(v) | Send::Headers(v, _) => Wire::Post(json(&v)),
                    Send::Body(b) => Wire::Post(Bytes::from(b)),
                    Send::Raw(b) => Wire::Raw(Bytes::from(b)),
                },
                expected: match c.expect.status {
                    200 => vec![200, 503],
                    s => vec![s],
                },
            })
            .collect()
    }

    /// A normal cache-miss request: the load test's bar chart with a distinct title.
    fn normal(n: u64) -> Bytes {
        super::body(
            &super::Args {
                requests: 0,
                seconds: 0.0,
                connections: 1,
                width: 800,
                height: 600,
                soak: false,
                bin: None,
            },
            Some(n),
        )
    }

    fn rss_mib(pid: u32) -> Option<f64> {
        super::status_mib(&pid.to_string(), "VmRSS")
    }

    /// Sends one request on a fresh connection; the status, or 0 when there was none.
    async fn send(addr: SocketAddr, wire: &Wire) -> u16 {
        let go = async {
            match wire {
                Wire::Post(body) => {
                    let mut c = Conn::open(addr).await?;
                    c.post_status(body.clone()).await
                }
                Wire::Raw(bytes) => {
                    let mut s = tokio::net::TcpStream::connect(addr).await?;
                    // The server may answer and stop reading before all is sent.
                    let _ = s.write_all(bytes).await;
                    let mut out = Vec::new();
                    let _ = s.read_to_end(&mut out).await;
                    let text = String::from_utf8_lossy(&out);
                    Ok(text
                        .split(' ')
                        .nth(1)
                        .and_then(|c| c.parse().ok())
                        .unwrap_or(0))
                }
            }
        };
        match tokio::time::timeout(Duration::from_secs(60), go).await {
            Ok(Ok(s)) => s,
            _ => 0,
        }
    }

    struct Tally {
        statuses: BTreeMap<(&'static str, u16), u64>,
        unexpected: Vec<String>,
        normal_ms: Vec<f64>,
    }

    pub fn run(args: Args) -> anyhow::Result<()> {
        let bin = match args.bin {
            Some(b) => b,
            None => std::env::current_exe()?
                .parent()
                .context("xtask has no directory")?
                .join("chart-raster"),
        };
        if !bin.exists() {
            bail!(
                "{} not found: build it first (cargo build --release -p chart-cli) or pass --bin",
                bin.display()
            );
        }
        let mut child = std::process::Command::new(&bin)
            .args(["serve", "--port", "0", "--host", "127.0.0.1"])
            .env("MAX_RENDER_TIME_SECONDS", "10")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let pid = child.id();
        let mut err = std::io::BufReader::new(child.stderr.take().context("stderr")?);
        let mut first = String::new();
        err.read_line(&mut first)?;
        let addr: SocketAddr = first
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("no address in {first:?}"))?;
        // Drain the request log so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while err.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        println!(
            "soak: {} pid {pid} on {addr}; {}",
            bin.display(),
            first.trim()
        );
        let rt = tokio::runtime::Runtime::new()?;
        let result = rt.block_on(soak(addr, pid, args.seconds));
        let _ = child.kill();
        let _ = child.wait();
        result
    }

    async fn soak(addr: SocketAddr, pid: u32, seconds: f64) -> anyhow::Result<()> {
        let rss_idle = rss_mib(pid).unwrap_or(0.0);
        // Capacity: closed loop, 8 connections, 5 s of distinct (cache-miss) requests.
        let counter = Arc::new(AtomicU64::new(0));
        let cap_end = Instant::now() + Duration::from_secs(5);
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let counter = counter.clone();
            tasks.push(tokio::spawn(async move {
                let mut conn = Conn::open(addr).await?;
                let mut ok = 0u64;
                while Instant::now() < cap_end {
                    let n = counter.fetch_add(1, Ordering::SeqCst);
                    if conn.post_status(normal(n)).await? == 200 {
                        ok += 1;
                    }
                }
                anyhow::Ok(ok)
            }));
        }
        let start = Instant::now();
        let mut ok = 0;
        for t in tasks {
            ok += t.await??;
        }
        let capacity = ok as f64 / start.elapsed().as_secs_f64();
        let rate = 2.0 * capacity;
        println!(
            "soak: cache-miss capacity {capacity:.0} req/s; sending {rate:.0} req/s for {seconds} s, \
             every 10th hostile"
        );
        let hostile = Arc::new(hostile());
        let tally = Arc::new(Mutex::new(Tally {
            statuses: BTreeMap::new(),
            unexpected: Vec::new(),
            normal_ms: Vec::new(),
        }));
        let rss = Arc::new(Mutex::new(Vec::<(f64, f64)>::new()));
        let soak_start = Instant::now();
        let end = soak_start + Duration::from_secs_f64(seconds);
        let sampler = {
            let rss = rss.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs(1));
                while Instant::now() < end {
                    tick.tick().await;
                    if let Some(m) = rss_mib(pid) {
                        rss.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((soak_start.elapsed().as_secs_f64(), m));
                    }
                }
            })
        };
        // Open loop: one task per request, started on schedule whatever the answers do; at
        // most 512 in flight, so the generator itself stays bounded.
        let in_flight = Arc::new(tokio::sync::Semaphore::new(512));
        let interval = Duration::from_secs_f64(1.0 / rate.max(1.0));
        let mut next = Instant::now();
        let mut n: u64 = 1_000_000;
        let mut handles = Vec::new();
        while Instant::now() < end {
            tokio::time::sleep_until(next.into()).await;
            next += interval;
            n += 1;
            let Ok(permit) = in_flight.clone().acquire_owned().await else {
                break;
            };
            let tally = tally.clone();
            let hostile = hostile.clone();
            handles.push(tokio::spawn(async move {
                let _permit = permit;
                let t = Instant::now();
                let (name, expected, status) = if n.is_multiple_of(10) {
                    let k = &hostile[(n / 10) as usize % hostile.len()];
                    (k.name, &k.expected[..], send(addr, &k.wire).await)
                } else {
                    (
                        "normal",
                        &[200u16, 503][..],
                        send(addr, &Wire::Post(normal(n))).await,
                    )
                };
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                let mut tl = tally.lock().unwrap_or_else(|e| e.into_inner());
                *tl.statuses.entry((name, status)).or_default() += 1;
                if !expected.contains(&status) {
                    tl.unexpected.push(format!("{name}: {status}"));
                }
                if name == "normal" && status == 200 {
                    tl.normal_ms.push(ms);
                }
            }));
        }
        for h in handles {
            let _ = h.await;
        }
        let _ = sampler.await;
        let elapsed = soak_start.elapsed().as_secs_f64();
        tokio::time::sleep(Duration::from_secs(5)).await;
        let rss_after_idle = rss_mib(pid).unwrap_or(0.0);
        // Still rendering a normal chart afterwards.
        let after = send(addr, &Wire::Post(normal(1))).await;
        let tl = tally.lock().unwrap_or_else(|e| e.into_inner());
        let mut ms = tl.normal_ms.clone();
        ms.sort_by(f64::total_cmp);
        let pct = |p: f64| {
            ms.get(((ms.len() as f64 - 1.0) * p).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let total: u64 = tl.statuses.values().sum();
        println!(
            "soak: {total} requests in {elapsed:.1} s ({:.0} req/s)",
            total as f64 / elapsed
        );
        for ((name, status), count) in &tl.statuses {
            println!("  {name:<40} {status:>3} x {count}");
        }
        println!(
            "soak: normal 200s: {}, latency p50 {:.1} ms, p99 {:.1} ms",
            ms.len(),
            pct(0.5),
            pct(0.99)
        );
        let samples = rss.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let max = samples.iter().map(|s| s.1).fold(0.0, f64::max);
        let series: Vec<String> = samples
            .iter()
            .filter(|(t, _)| (t.round() as u64).is_multiple_of(10))
            .map(|(t, m)| format!("{t:.0}s {m:.0}"))
            .collect();
        println!(
            "soak: RSS MiB: idle before {rss_idle:.0}, max {max:.0}, every 10 s [{}], \
             5 s after the soak {rss_after_idle:.0}",
            series.join(", ")
        );
        println!("soak: a normal chart afterwards: {after}");
        if !tl.unexpected.is_empty() || after != 200 {
            let mut u = tl.unexpected.clone();
            u.sort();
            u.dedup();
            bail!("unexpected statuses: {u:?} (afterwards: {after})");
        }
        Ok(())
    }
}
