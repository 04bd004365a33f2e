//! `cargo xtask bench-peers`: chart-raster's service against Chart.js drawing on
//! @napi-rs/canvas (Skia) in Node, end to end over HTTP, same configs, same run (issue 13).
//!
//! The peer is `xtask/bench-peers/render.cjs`, a small Node HTTP server taking the service's
//! request body. Its packages are pinned in `xtask/bench-peers/package.json` and
//! `package-lock.json` (Chart.js 4.5.1, @napi-rs/canvas, and the datalabels, annotation and
//! date-fns adapter versions the browser engine bundles) and installed with `npm ci` into
//! `target/bench-peers/`; npm's registry is the only network access.
//!
//! Ours is the release binary `chart-raster serve` as a child process with its cache off
//! (`CACHE_MAX_ENTRIES=0`: every request is a miss, and a hit is an error). Per config, both
//! servers are started fresh (so each one's peak RSS, `VmHWM`, is that config's), warmed up,
//! then sent the same `POST /render` (800×600 CSS px at dpr 2, PNG) alternately on one
//! keep-alive connection each, so both see the same machine load. The table gives medians and
//! ratios: the machine is shared and noisy, so only ratios from one run mean anything, and no
//! test times anything.

use anyhow::{bail, Context};
use argh::FromArgs;
use chart_raster::benchmark::charts;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Time chart-raster's service against Chart.js on @napi-rs/canvas (Node) over HTTP: medians,
/// ratios, PNG bytes and peak RSS per chart.
#[derive(FromArgs)]
#[argh(subcommand, name = "bench-peers")]
pub struct Cli {
    /// timed requests per chart and server (default 15)
    #[argh(option, default = "15")]
    runs: usize,
    /// untimed requests per chart and server first (default 3)
    #[argh(option, default = "3")]
    warmup: usize,
    /// only the charts whose name contains this
    #[argh(option)]
    filter: Option<String>,
    /// the chart-raster binary (default: target/release/chart-raster)
    #[argh(option)]
    bin: Option<PathBuf>,
    /// extra `KEY=VALUE` environment for our server (repeatable), e.g. PNG_COMPRESSION=small
    #[argh(option)]
    env: Vec<String>,
    /// write each chart's config (`<name>.json`, for `chart-raster render -i`) and both
    /// images (`<name>.ours.png`, `<name>.node-skia.png`) into this folder
    #[argh(option)]
    save: Option<PathBuf>,
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask has no parent directory")?
        .to_path_buf();
    let bin = cli
        .bin
        .clone()
        .unwrap_or_else(|| root.join("target/release/chart-raster"));
    if !bin.exists() {
        bail!(
            "{} not found: build it first (cargo build --release -p chart-cli) or pass --bin",
            bin.display()
        );
    }
    let env: Vec<(String, String)> = cli
        .env
        .iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .with_context(|| format!("--env {kv:?} is not KEY=VALUE"))
        })
        .collect::<anyhow::Result<_>>()?;
    let peer_dir = install_peer(&root)?;
    let runs = cli.runs.max(1);

    let mut rows = Vec::new();
    for chart in charts() {
        if cli
            .filter
            .as_deref()
            .is_some_and(|f| !chart.name.contains(f))
        {
            continue;
        }
        let body = serde_json::to_vec(&chart.request())?;
        let mut ours = Server::ours(&bin, &env)?;
        let mut peer = Server::peer(&peer_dir)?;
        let row = (|| {
            for _ in 0..cli.warmup {
                ours.render(&body)?;
                peer.render(&body)?;
            }
            let (mut ours_ms, mut peer_ms) = (Vec::new(), Vec::new());
            let (mut ours_png, mut peer_png) = (Vec::new(), Vec::new());
            for _ in 0..runs {
                let (ms, png) = ours.render(&body)?;
                ours_ms.push(ms);
                ours_png = png;
                let (ms, png) = peer.render(&body)?;
                peer_ms.push(ms);
                peer_png = png;
            }
            if let Some(dir) = &cli.save {
                let stem = dir.join(chart.stem());
                std::fs::create_dir_all(dir)?;
                std::fs::write(
                    stem.with_extension("json"),
                    serde_json::to_vec(&chart.config)?,
                )?;
                std::fs::write(stem.with_extension("ours.png"), &ours_png)?;
                std::fs::write(stem.with_extension("node-skia.png"), &peer_png)?;
            }
            let second_core = ours.second_core()?;
            anyhow::Ok(Row {
                name: chart.name,
                second_core,
                peer: Side {
                    median_ms: median(&mut peer_ms),
                    png_bytes: peer_png.len(),
                    peak_rss_kib: peak_rss_kib(peer.child.id()).unwrap_or(0),
                },
                ours: Side {
                    median_ms: median(&mut ours_ms),
                    png_bytes: ours_png.len(),
                    peak_rss_kib: peak_rss_kib(ours.child.id()).unwrap_or(0),
                },
            })
        })();
        ours.stop();
        peer.stop();
        let row = row.with_context(|| format!("chart {}", chart.name))?;
        eprintln!("{}", table_row(&row));
        rows.push(row);
    }
    println!(
        "\n800×600 at dpr 2, PNG, through HTTP, cache misses; median of {runs} requests each, \
         alternating; node-skia = Chart.js 4.5.1 on @napi-rs/canvas\n"
    );
    print!("{}", table(&rows));
    Ok(())
}

/// What one server did on one chart.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Side {
    median_ms: f64,
    png_bytes: usize,
    peak_rss_kib: u64,
}

#[derive(Debug, Clone, PartialEq)]
struct Row {
    name: &'static str,
    /// Our server's asks for a second core over every request (warm-up included): lent, and
    /// all (`chart_raster_second_core_total`). A chart whose renders are refused the core runs
    /// on one.
    second_core: (u64, u64),
    peer: Side,
    ours: Side,
}

/// The median (mean of the middle two for an even count); NaN for no samples. Sorts `v`.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// `a / b`, or NaN when `b` is not a positive number.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        f64::NAN
    }
}

const HEADER: &str = "| chart | node-skia | ours | speed-up | PNG node-skia | PNG ours | PNG ours/theirs | peak RSS node-skia | peak RSS ours | second core lent |\n|---|---|---|---|---|---|---|---|---|---|\n";

/// One Markdown row: times in ms, speed-up = node-skia's median / ours, PNG sizes in KB and
/// ours / theirs, peak RSS in MiB, our asks for a second core lent of all.
fn table_row(r: &Row) -> String {
    let kb = |b: usize| b as f64 / 1000.0;
    let mib = |k: u64| k as f64 / 1024.0;
    format!(
        "| {} | {:.1} ms | {:.1} ms | {:.1}× | {:.1} KB | {:.1} KB | {:.2}× | {:.0} MiB | {:.0} MiB | {} of {} |",
        r.name,
        r.peer.median_ms,
        r.ours.median_ms,
        ratio(r.peer.median_ms, r.ours.median_ms),
        kb(r.peer.png_bytes),
        kb(r.ours.png_bytes),
        ratio(r.ours.png_bytes as f64, r.peer.png_bytes as f64),
        mib(r.peer.peak_rss_kib),
        mib(r.ours.peak_rss_kib),
        r.second_core.0,
        r.second_core.1,
    )
}

fn table(rows: &[Row]) -> String {
    let mut out = HEADER.to_string();
    for r in rows {
        out.push_str(&table_row(r));
        out.push('\n');
    }
    out
}

/// `npm ci` of the pinned peer into `target/bench-peers/` (skipped when the lock file there is
/// already the committed one), with the server script copied beside its `node_modules`.
fn install_peer(root: &Path) -> anyhow::Result<PathBuf> {
    let src = root.join("xtask/bench-peers");
    let dir = root.join("target/bench-peers");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let lock = std::fs::read(src.join("package-lock.json"))?;
    let installed = std::fs::read(dir.join("node_modules/.package-lock.json")).ok();
    let fresh = std::fs::read(dir.join("package-lock.json")).ok().as_ref() == Some(&lock)
        && installed.is_some()
        && dir.join("node_modules/@napi-rs/canvas").exists();
    for file in ["package.json", "package-lock.json", "render.cjs"] {
        std::fs::copy(src.join(file), dir.join(file))
            .with_context(|| format!("copying {file} to {}", dir.display()))?;
    }
    if !fresh {
        eprintln!("npm ci in {}", dir.display());
        // --legacy-peer-deps: the date adapter's peer date-fns is not wanted, its bundle
        // (date-fns inside, as the browser engine loads it) is what render.cjs runs;
        // --ignore-scripts: @napi-rs/canvas ships prebuilt binaries as optional packages.
        let status = Command::new("npm")
            .args([
                "ci",
                "--legacy-peer-deps",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
            ])
            .current_dir(&dir)
            .status()
            .context("running npm (is Node.js installed?)")?;
        if !status.success() {
            bail!("npm ci failed in {}", dir.display());
        }
    }
    Ok(dir)
}

/// A server child process and one keep-alive connection to it.
struct Server {
    child: Child,
    conn: TcpStream,
    host: String,
    /// Whether responses must say they were not cache hits (ours).
    check_miss: bool,
}

impl Server {
    fn ours(bin: &Path, env: &[(String, String)]) -> anyhow::Result<Self> {
        let mut cmd = Command::new(bin);
        cmd.args(["serve", "--port", "0", "--host", "127.0.0.1"])
            .env("CACHE_MAX_ENTRIES", "0")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // The service prints its address on stderr, then logs every request there.
        Self::start(
            cmd,
            |c| c.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
            true,
        )
    }

    fn peer(dir: &Path) -> anyhow::Result<Self> {
        let mut cmd = Command::new("node");
        cmd.arg("render.cjs")
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        Self::start(
            cmd,
            |c| c.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
            false,
        )
    }

    fn start(
        mut cmd: Command,
        announce: impl FnOnce(&mut Child) -> Option<Box<dyn Read + Send>>,
        check_miss: bool,
    ) -> anyhow::Result<Self> {
        let mut child = cmd.spawn().with_context(|| format!("starting {cmd:?}"))?;
        let stream = announce(&mut child).context("no output pipe")?;
        let mut lines = BufReader::new(stream);
        let mut first = String::new();
        lines.read_line(&mut first)?;
        let Some(addr) = listening_addr(&first) else {
            let _ = child.kill();
            let _ = child.wait();
            bail!("{cmd:?} did not print its address: {first:?}");
        };
        // Drain the rest so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            while lines
                .read_until(b'\n', &mut sink)
                .map(|n| n > 0)
                .unwrap_or(false)
            {
                sink.clear();
            }
        });
        let conn = TcpStream::connect(addr)?;
        conn.set_nodelay(true)?;
        conn.set_read_timeout(Some(Duration::from_secs(120)))?;
        Ok(Self {
            child,
            conn,
            host: addr.to_string(),
            check_miss,
        })
    }

    /// One `POST /render`: milliseconds from the first byte sent to the last byte received,
    /// and the PNG.
    fn render(&mut self, body: &[u8]) -> anyhow::Result<(f64, Vec<u8>)> {
        let start = Instant::now();
        let head = format!(
            "POST /render HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.host,
            body.len()
        );
        self.conn.write_all(head.as_bytes())?;
        self.conn.write_all(body)?;
        let resp = read_response(&mut self.conn)?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if resp.status != 200 {
            bail!(
                "HTTP {}: {}",
                resp.status,
                String::from_utf8_lossy(&resp.body[..resp.body.len().min(2000)])
            );
        }
        if self.check_miss && resp.cache_hit {
            bail!("a cache hit: the benchmark needs every request to render");
        }
        if !resp.body.starts_with(b"\x89PNG\r\n\x1a\n") {
            bail!("the answer is not a PNG");
        }
        Ok((ms, resp.body))
    }

    /// Our server's second-core decisions so far, from `GET /metrics`: (lent, asked).
    fn second_core(&mut self) -> anyhow::Result<(u64, u64)> {
        let head = format!("GET /metrics HTTP/1.1\r\nHost: {}\r\n\r\n", self.host);
        self.conn.write_all(head.as_bytes())?;
        let resp = read_response(&mut self.conn)?;
        if resp.status != 200 {
            bail!("GET /metrics: HTTP {}", resp.status);
        }
        second_core_counts(&String::from_utf8_lossy(&resp.body))
            .context("no chart_raster_second_core_total in /metrics")
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address in a `... http://127.0.0.1:PORT ...` line.
fn listening_addr(line: &str) -> Option<SocketAddr> {
    line.split("http://")
        .nth(1)?
        .split(|c: char| c.is_whitespace() || c == '/')
        .next()?
        .parse()
        .ok()
}

struct Response {
    status: u16,
    cache_hit: bool,
    body: Vec<u8>,
}

/// Reads one HTTP/1.1 response with a `Content-Length` body (both servers send one).
fn read_response(conn: &mut TcpStream) -> anyhow::Result<Response> {
    const MAX_HEAD: usize = 64 * 1024;
    const MAX_BODY: usize = 256 * 1024 * 1024;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > MAX_HEAD {
            bail!("response head over {MAX_HEAD} bytes");
        }
        conn.read_exact(&mut byte)?;
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .context("no status line")?;
    let (mut len, mut cache_hit) = (None, false);
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        match k.as_str() {
            "content-length" => len = v.parse::<usize>().ok(),
            "x-cache-hit" => cache_hit = v == "true",
            "transfer-encoding" => bail!("transfer-encoding {v} is not supported"),
            _ => {}
        }
    }
    let len = len.context("no Content-Length")?;
    if len > MAX_BODY {
        bail!("body of {len} bytes");
    }
    let mut body = vec![0; len];
    conn.read_exact(&mut body)?;
    Ok(Response {
        status,
        cache_hit,
        body,
    })
}

/// (lent, asked) of the `chart_raster_second_core_total` series in a Prometheus text.
fn second_core_counts(text: &str) -> Option<(u64, u64)> {
    let (mut lent, mut asked, mut seen) = (0, 0, false);
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("chart_raster_second_core_total{decision=\"") else {
            continue;
        };
        let (decision, value) = rest.split_once("\"} ")?;
        let n: u64 = value.trim().parse().ok()?;
        seen = true;
        asked += n;
        if decision == "lent" {
            lent += n;
        }
    }
    seen.then_some((lent, asked))
}

/// Peak resident set (`VmHWM`) of a process, KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_sorts_and_takes_the_middle() {
        assert_eq!(median(&mut [5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn a_row_gives_speed_up_as_theirs_over_ours_and_png_as_ours_over_theirs() {
        let row = Row {
            name: "bar",
            second_core: (3, 4),
            peer: Side {
                median_ms: 80.0,
                png_bytes: 40_000,
                peak_rss_kib: 100 * 1024,
            },
            ours: Side {
                median_ms: 8.0,
                png_bytes: 44_000,
                peak_rss_kib: 40 * 1024,
            },
        };
        assert_eq!(
            table_row(&row),
            "| bar | 80.0 ms | 8.0 ms | 10.0× | 40.0 KB | 44.0 KB | 1.10× | 100 MiB | 40 MiB | 3 of 4 |"
        );
        let t = table(&[row.clone(), row]);
        assert!(t.starts_with(HEADER));
        assert_eq!(t.lines().count(), 4);
        // A zero denominator is not infinity.
        assert!(ratio(1.0, 0.0).is_nan());
    }

    #[test]
    fn second_core_counts_sum_the_decisions() {
        let text = "# TYPE chart_raster_second_core_total counter\n\
            chart_raster_second_core_total{decision=\"lent\"} 12\n\
            chart_raster_second_core_total{decision=\"other_render\"} 1\n\
            chart_raster_second_core_total{decision=\"no_idle_core\"} 5\n\
            chart_raster_cache_entries 0\n";
        assert_eq!(second_core_counts(text), Some((12, 18)));
        assert_eq!(second_core_counts("chart_raster_cache_entries 0\n"), None);
    }

    #[test]
    fn the_address_is_read_from_either_servers_first_line() {
        assert_eq!(
            listening_addr("listening http://127.0.0.1:40949\n"),
            Some("127.0.0.1:40949".parse().unwrap())
        );
        assert_eq!(
            listening_addr("chart-raster 0.1.0 listening on http://127.0.0.1:3000 (skia)"),
            Some("127.0.0.1:3000".parse().unwrap())
        );
        assert_eq!(listening_addr("no address"), None);
    }
}
