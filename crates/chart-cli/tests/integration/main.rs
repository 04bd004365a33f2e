//! Integration tests of the `chart-raster` binary: the built executable, run as a user would.

mod replicas;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_chart-raster");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_with_env(args, stdin, &[])
}

/// Runs the binary with extra environment variables, feeding `stdin` and collecting the output.
fn run_with_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The process may exit before reading stdin (bad flags); that is not a test failure.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    (info.width, info.height)
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chart-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const BAR: &str = r#"{"type":"bar","data":{"labels":["a","b"],"datasets":[{"data":[1,2]}]}}"#;

/// Asserts a failed run: exit code 1, nothing on stdout, and the reason in one line, the last
/// on stderr (chart messages may come before it).
fn assert_failed(o: &Output, contains: &str) {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    assert!(o.stdout.is_empty(), "partial output on stdout");
    let err = stderr(o);
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("chart-raster: error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    assert!(errors[0].contains(contains), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn version_matches_the_library() {
    let o = run(&["--version"], b"");
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("chart-raster {}\n", chart_version())
    );
}

fn chart_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[test]
fn stdin_to_stdout() {
    let o = run(&["render", "-w", "200", "--height", "100"], BAR.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&o.stdout), (400, 200));
}

#[test]
fn file_to_file_with_every_option() {
    let d = tempdir("files");
    let input = d.join("chart.json");
    std::fs::write(&input, BAR).unwrap();
    let out = d.join("chart.jpg");
    let o = run(
        &[
            "render",
            "-i",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-w",
            "300",
            "--height",
            "150",
            "--device-pixel-ratio",
            "1",
            "--background-color",
            "transparent",
            "-f",
            "jpeg",
            "-q",
            "50",
            "-e",
            "skia",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..3], &[0xFF, 0xD8, 0xFF]);
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn png_output_to_a_file() {
    let d = tempdir("png");
    let out = d.join("c.png");
    let o = run(
        &[
            "render",
            "-o",
            out.to_str().unwrap(),
            "--device-pixel-ratio",
            "1",
        ],
        BAR.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&std::fs::read(&out).unwrap()), (800, 600));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_json_fails_with_one_line() {
    let o = run(&["render"], b"{\"type\": ");
    assert_failed(&o, "invalid chart config JSON");
    let o = run(&["render"], b"[1, 2]");
    assert_failed(&o, "the chart config must be a JSON object");
}

/// The config is scanned against the budgets before serde_json builds it, as a request body
/// is: a config of more JSON values than `MAX_JSON_VALUES` is refused by name.
#[test]
fn the_config_is_held_to_the_json_budgets_before_parsing() {
    let mut config = String::from(r#"{"type":"line","data":{"datasets":[{"data":[0"#);
    for _ in 0..200 {
        config.push_str(",0");
    }
    config.push_str("]}]}}");
    let o = run_with_env(
        &["render"],
        config.as_bytes(),
        &[("MAX_JSON_VALUES", "100")],
    );
    assert_failed(&o, "over the limit of 100 (MAX_JSON_VALUES)");
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let o = run(&["render"], deep.as_bytes());
    assert_failed(&o, "(MAX_JSON_DEPTH)");
    // Within the budgets the same config renders.
    let o = run_with_env(
        &["render"],
        config.as_bytes(),
        &[("MAX_JSON_VALUES", "1000")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn bad_options_fail_with_one_line() {
    assert_failed(
        &run(&["render", "-f", "gif"], BAR.as_bytes()),
        "Invalid format: gif",
    );
    assert_failed(
        &run(&["render", "-w", "20000"], BAR.as_bytes()),
        "Invalid width: 20000 is over the limit of 10000 (MAX_WIDTH)",
    );
    assert_failed(
        &run(&["render", "-e", "cairo"], BAR.as_bytes()),
        "Invalid engine: cairo",
    );
}

#[test]
fn io_errors_fail_and_leave_no_partial_file() {
    let d = tempdir("io");
    let o = run(
        &["render", "-i", d.join("missing.json").to_str().unwrap()],
        b"",
    );
    assert_failed(&o, "missing.json");
    // The output's directory does not exist.
    let out = d.join("no-such-dir").join("x.png");
    let o = run(&["render", "-o", out.to_str().unwrap()], BAR.as_bytes());
    assert_failed(&o, "x.png");
    assert!(!out.exists());
    // An invalid request never creates the output file.
    let out = d.join("never.png");
    let o = run(
        &["render", "-o", out.to_str().unwrap(), "-q", "500"],
        BAR.as_bytes(),
    );
    assert_failed(&o, "Invalid quality");
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&d);
}

/// `-o` onto something that is not a regular file writes into it and leaves it in place. The
/// CLI used to write a temporary file and rename it over any target: run as root,
/// `render -o /dev/null` replaced the machine's /dev/null by a PNG. A FIFO stands in for a
/// device here (the test never touches /dev). Through a symbolic link, the file it points
/// to receives the image and the link stays a link.
#[test]
fn output_onto_a_fifo_or_through_a_link_keeps_them() {
    use std::os::unix::fs::FileTypeExt;
    let d = tempdir("fifo");
    let fifo = d.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let to_fifo = d.join("to-pipe");
    std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
    for target in [&fifo, &to_fifo] {
        // Opening a FIFO for reading waits for a writer: read it on a thread. (With the old
        // rename nobody ever writes, so the thread is left waiting and the test fails below.)
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo))
        };
        let o = run(
            &["render", "-f", "png", "-o", target.to_str().unwrap()],
            BAR.as_bytes(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{target:?} replaced the FIFO by {kind:?}");
        let kind = std::fs::symlink_metadata(&to_fifo).unwrap().file_type();
        assert!(
            kind.is_symlink(),
            "{target:?} replaced the link by {kind:?}"
        );
        let bytes = reader.join().unwrap().unwrap();
        assert_eq!(png_size(&bytes), (1600, 1200));
    }
    // A link to a regular file: the file is replaced atomically, the link kept.
    let file = d.join("real.png");
    std::fs::write(&file, b"old").unwrap();
    let link = d.join("link.png");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let o = run(&["render", "-o", link.to_str().unwrap()], BAR.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(png_size(&std::fs::read(&file).unwrap()), (1600, 1200));
    // A dangling link: the file it names is created.
    let absent = d.join("absent.png");
    let dangling = d.join("dangling.png");
    std::os::unix::fs::symlink(&absent, &dangling).unwrap();
    let o = run(
        &["render", "-o", dangling.to_str().unwrap()],
        BAR.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert_eq!(png_size(&std::fs::read(&absent).unwrap()), (1600, 1200));
    // A directory is refused, and left alone.
    let o = run(&["render", "-o", d.to_str().unwrap()], BAR.as_bytes());
    assert_failed(&o, "is a directory");
    // Nothing else (no temporary file) was left behind.
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "absent.png",
            "dangling.png",
            "link.png",
            "pipe",
            "real.png",
            "to-pipe"
        ]
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn browser_engine_unavailable_is_a_clean_error() {
    let o = run_with_env(
        &["render", "-e", "browser", "-w", "50", "--height", "50"],
        BAR.as_bytes(),
        &[
            ("CHROMEDRIVER", "/nonexistent/chromedriver"),
            ("CHROMIUM_PATH", "/nonexistent/chromium"),
        ],
    );
    assert_failed(&o, "browser engine unavailable: ");
}

#[test]
fn examples_writes_one_image_per_example() {
    let d = tempdir("examples");
    let out = d.join("out");
    let o = run(
        &[
            "examples",
            "--outdir",
            out.to_str().unwrap(),
            "--format",
            "webp",
            "-q",
            "60",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let n = chart_count(&out);
    assert!(n >= 30, "{n} images");
    let err = stderr(&o);
    let progress: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with('[') && l.contains(" message(s))"))
        .collect();
    assert_eq!(progress.len(), n, "one progress line per image:\n{err}");
    // Each example's messages follow its line, as `[<example> LEVEL] ...`.
    for line in progress {
        let path = line.split_whitespace().nth(1).unwrap();
        let stem = std::path::Path::new(path)
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap();
        let count: usize = line
            .rsplit(", ")
            .next()
            .and_then(|c| c.split_whitespace().next())
            .and_then(|c| c.parse().ok())
            .unwrap();
        let printed = err
            .lines()
            .filter(|l| l.starts_with(&format!("[{stem} ")))
            .count();
        assert_eq!(printed, count, "messages of {stem}:\n{err}");
    }
    for entry in std::fs::read_dir(&out).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert_eq!(&bytes[..4], b"RIFF");
        assert_eq!(&bytes[8..12], b"WEBP");
    }
    let _ = std::fs::remove_dir_all(&d);
}

fn chart_count(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "webp")
        })
        .count()
}

#[test]
fn examples_rejects_bad_options_before_writing() {
    let d = tempdir("examples-bad");
    let out = d.join("out");
    let o = run(
        &[
            "examples",
            "--outdir",
            out.to_str().unwrap(),
            "--format",
            "bmp",
        ],
        b"",
    );
    assert_failed(&o, "Invalid format: bmp");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn serve_answers_health_and_stops_on_sigterm() {
    serve_then_signal("-TERM");
}

#[test]
fn serve_stops_on_sigint() {
    serve_then_signal("-INT");
}

fn serve_then_signal(signal: &str) {
    let (mut child, mut err, addr, line) = start_serve(&[("API_KEY", "from-env")]);
    assert!(line.contains("auth on"), "{line}");
    let get = |path: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut s, &mut out).unwrap();
        String::from_utf8_lossy(&out).into_owned()
    };
    let health = get("/health");
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.contains(&format!("\"version\":\"{}\"", chart_version())));
    let render = get("/render?chart=%7B%7D");
    assert!(render.starts_with("HTTP/1.1 401"), "{render}");
    let ok = get("/render?chart=%7B%7D&width=10&height=10&api_key=from-env");
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    // SIGTERM or SIGINT: a clean exit.
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    // One log line per request, without the query (it may hold the key).
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let log: Vec<&str> = rest.lines().filter(|l| l.starts_with("GET ")).collect();
    assert_eq!(log.len(), 3, "{rest}");
    assert!(log[0].starts_with("GET /health 200 "), "{}", log[0]);
    assert!(log[0].contains("ms cache=- id="), "{}", log[0]);
    assert!(log[1].starts_with("GET /render 401 "), "{}", log[1]);
    assert!(log[2].starts_with("GET /render 200 "), "{}", log[2]);
    assert!(log[2].contains("cache=miss id="), "{}", log[2]);
    assert!(!rest.contains("from-env"), "the key is never logged");
}

/// Starts `serve` on a free port with extra environment; returns the child, its stderr, the
/// address it listens on and the listening line.
fn start_serve(
    env: &[(&str, &str)],
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStderr>,
    String,
    String,
) {
    // Port 0: the OS picks one; the listening line tells which.
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0", "--host", "127.0.0.1"])
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut err, &mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, err, addr, line)
}

#[test]
fn sigterm_during_a_long_render_ends_within_the_render_limit() {
    // MAX_OVERDRAW raised: the chart below paints more than the default budget, and a fast
    // machine reaches that check (a 400) before the 1 s limit, so the render would never run.
    let (mut child, _err, addr, _) = start_serve(&[
        ("MAX_RENDER_TIME_SECONDS", "1"),
        ("MAX_OVERDRAW", "1000000"),
    ]);
    // 1,000 datasets of 250 points: tens of seconds in a debug build, far over the limit.
    let datasets: Vec<serde_json::Value> = (0..1000)
        .map(|j| {
            let data: Vec<u32> = (0..250).map(|i| (i * 7919 + j * 31) % 1000).collect();
            serde_json::json!({"data": data, "borderWidth": 1, "pointRadius": 2})
        })
        .collect();
    let body = serde_json::to_vec(&serde_json::json!({
        "chart": {"type": "line", "data": {"labels": (0..250).collect::<Vec<_>>(),
                  "datasets": datasets}},
        "width": 800, "height": 600
    }))
    .unwrap();
    let client = {
        let addr = addr.clone();
        std::thread::spawn(move || {
            let mut s = std::net::TcpStream::connect(&addr).unwrap();
            write!(
                s,
                "POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .unwrap();
            s.write_all(&body).unwrap();
            let mut out = Vec::new();
            let _ = std::io::Read::read_to_end(&mut s, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    // Wait until the render runs.
    let health = || {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut s, &mut out).unwrap();
        out
    };
    let start = std::time::Instant::now();
    while !health().contains("\"active\":1") {
        assert!(start.elapsed().as_secs() < 60, "the render never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let term = std::time::Instant::now();
    assert!(Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let exit = child.wait().unwrap();
    let took = term.elapsed();
    assert!(exit.success(), "{exit:?}");
    // The render limit, plus slack for a loaded machine; without the Cancel the drawing
    // thread would keep the process alive for the whole render.
    assert!(took.as_secs_f64() < 4.0, "shutdown took {took:?}");
    let resp = client.join().unwrap();
    assert!(resp.starts_with("HTTP/1.1 504"), "{resp}");
}

/// Resident memory of a process in MiB (`VmRSS` in `/proc/<pid>/status`).
/// A field of `/proc/<pid>/status` in MiB: `VmRSS` (resident now) or `VmHWM` (the peak).
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024.0
}

#[test]
fn memory_is_given_back_after_a_large_render() {
    // This test is about memory, not time: a debug build on a loaded machine can take more
    // than the default 30 s render limit for the 250,000 points (seen once in CI at 2 cores
    // shared with other builds), so the limit is raised out of the way.
    let (mut child, _err, addr, _) = start_serve(&[("MAX_RENDER_TIME_SECONDS", "300")]);
    let pid = child.id();
    let rss = || status_mib(pid, "VmRSS:");
    let idle = rss();
    // 250,000 points (the MAX_POINTS budget) over three datasets.
    let datasets: Vec<serde_json::Value> = [100_000, 100_000, 50_000]
        .iter()
        .map(|&n| {
            let data: Vec<u32> = (0..n).map(|i| (i * 37) % 1000).collect();
            serde_json::json!({"data": data, "pointRadius": 0, "borderWidth": 1})
        })
        .collect();
    let body = serde_json::to_vec(&serde_json::json!({
        "chart": {"type": "line", "data": {"labels": (0..100_000).collect::<Vec<_>>(),
                  "datasets": datasets}},
        "width": 800, "height": 600
    }))
    .unwrap();
    let out = post_render(&addr, &body);
    // What the request took at its peak (parsing, resolving, drawing): about 200 MiB over
    // idle in a debug build. The RSS when the answer arrives is no reference: the allocator
    // has already given part of it back by then.
    let peak = status_mib(pid, "VmHWM:");
    let took = peak - idle;
    // The allocator's purge runs on a timer (jemalloc's dirty_decay_ms, 10 s): within 20 s
    // of idleness nearly all of it is back with the OS; what stays is the service's own
    // (arenas of the render threads, the recycled bitmap, glyph masks, the cache entry).
    // glibc's malloc keeps most of it (measured once: 96 MiB resident 30 s after such a
    // render, against 20.5 MiB with jemalloc).
    let kept_at_most = idle + took * 0.25;
    let start = std::time::Instant::now();
    let mut now = rss();
    while now > kept_at_most && start.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(250));
        now = rss();
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        out.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&out[..out.len().min(300)])
    );
    assert!(
        took > 50.0,
        "the render should take real memory: {idle:.0} MiB idle, {peak:.0} MiB peak"
    );
    assert!(
        now <= kept_at_most,
        "RSS {idle:.0} MiB idle, {peak:.0} MiB at the peak, still {now:.0} MiB after 20 s"
    );
}

/// One request over a connection of its own: the whole response, head and body.
fn raw_request(addr: &str, method: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut s, &mut out).unwrap();
    out
}

/// One `POST /render` of `body` (see [`raw_request`]).
fn post_render(addr: &str, body: &[u8]) -> Vec<u8> {
    raw_request(addr, "POST", "/render", body)
}

/// Minor page faults of a process so far (`minflt`, field 10 of `/proc/<pid>/stat`).
fn minor_faults(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The command name (field 2) may hold spaces: count the fields after its `)`.
    let after_name = &stat[stat.rfind(')').unwrap() + 1..];
    after_name
        .split_whitespace()
        .nth(7)
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_render_reuses_the_pages_the_previous_one_freed() {
    // Issue 13: the allocator settings compiled in from `.cargo/config.toml` keep what a render
    // freed for the next one. The settings they replaced (8 arenas, 0.2 s decay) gave it back
    // to the OS between two requests a fraction of a second apart, and every page came back as
    // a fault (debug build, this chart: 510-580 a request, against 20-70; a small image, so
    // that the test takes seconds).
    let data: Vec<u32> = (0..3_000).map(|i| (i * 37) % 1000).collect();
    let body = serde_json::to_vec(&serde_json::json!({
        "chart": {"type": "line", "data": {"labels": (0..3_000).collect::<Vec<_>>(),
                  "datasets": [{"data": data, "pointRadius": 0, "borderWidth": 1}]}},
        "width": 300, "height": 200
    }))
    .unwrap();
    let faults_per_request = |env: &[(&str, &str)]| {
        let mut env = env.to_vec();
        env.extend([
            ("CACHE_MAX_ENTRIES", "0"),
            ("MAX_RENDER_TIME_SECONDS", "300"),
        ]);
        let (mut child, _err, addr, _) = start_serve(&env);
        let pid = child.id();
        let pause = || std::thread::sleep(std::time::Duration::from_millis(300));
        // Two renders first: the service's own first-use allocations (glyphs, tables).
        for _ in 0..2 {
            assert!(post_render(&addr, &body).starts_with(b"HTTP/1.1 200"));
            pause();
        }
        // The median of five requests: a thread's first-use pages (its stack, its allocator
        // cache, the lent core's first band) fault once, in whichever request first needs
        // them, not always the first two (here the second render of a new service took 598
        // faults, the next ones 3-52). A CI run's mean of three took one in: 161 against 583.
        let mut faults: Vec<u64> = (0..5)
            .map(|_| {
                let before = minor_faults(pid);
                assert!(post_render(&addr, &body).starts_with(b"HTTP/1.1 200"));
                pause();
                minor_faults(pid) - before
            })
            .collect();
        let _ = child.kill();
        let _ = child.wait();
        faults.sort_unstable();
        faults[faults.len() / 2]
    };
    let ours = faults_per_request(&[]);
    let purging = faults_per_request(&[("_RJEM_MALLOC_CONF", "narenas:8,dirty_decay_ms:200")]);
    assert!(
        ours * 4 < purging,
        "{ours} page faults a request, against {purging} when freed pages go back at once"
    );
}

#[test]
fn the_output_extension_picks_the_format() {
    let d = tempdir("ext");
    let render_to = |name: &str, extra: &[&str]| {
        let out = d.join(name);
        let mut args = vec![
            "render",
            "-w",
            "40",
            "--height",
            "30",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = run(&args, BAR.as_bytes());
        (o, out)
    };
    let (o, out) = render_to("c.jpg", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&std::fs::read(&out).unwrap()[..3], &[0xFF, 0xD8, 0xFF]);
    let (o, out) = render_to("c.WEBP", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&std::fs::read(&out).unwrap()[8..12], b"WEBP");
    // -f wins over the extension.
    let (o, out) = render_to("forced.jpg", &["-f", "png"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&std::fs::read(&out).unwrap()), (80, 60));
    // An unknown extension keeps the default, PNG.
    let (o, out) = render_to("c.img", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&std::fs::read(&out).unwrap()), (80, 60));
    // Vector files at the CSS size (devicePixelRatio sizes bitmaps only).
    let (o, out) = render_to("c.svg", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("viewBox=\"0 0 40 30\""), "{svg}");
    let (o, out) = render_to("c.PDF", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pdf = std::fs::read(&out).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(String::from_utf8_lossy(&pdf).contains("/MediaBox[0 0 30 22.5]"));
    // -f wins here too; the browser engine says why it cannot.
    let (o, out) = render_to("forced.png", &["-f", "svg"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&out).unwrap().starts_with(b"<?xml"));
    let (o, _) = render_to("b.svg", &["-e", "browser"]);
    assert_failed(&o, "svg is drawn by the skia engine only");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn render_takes_the_http_body_shape() {
    let body = format!(r#"{{"chart": {BAR}, "width": 100, "height": 50, "devicePixelRatio": 1}}"#);
    let o = run(&["render"], body.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&o.stdout), (100, 50));
    // Flags override the body's fields.
    let o = run(&["render", "-w", "70"], body.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&o.stdout), (70, 50));
    // The body is validated as /render validates it.
    let bad = format!(r#"{{"chart": {BAR}, "width": -1}}"#);
    assert_failed(&run(&["render"], bad.as_bytes()), "Invalid width");
}

#[test]
fn strict_exits_2_when_the_render_reported_an_error() {
    // Chart.js throws for an unknown chart type; the image (blank) is still drawn.
    let config = r#"{"type":"nope","data":{"datasets":[{"data":[1]}]}}"#;
    let o = run(&["render", "-w", "40", "--height", "30"], config.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("[chart ERROR]"), "{}", stderr(&o));
    let o = run(
        &["render", "--strict", "-w", "40", "--height", "30"],
        config.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(png_size(&o.stdout), (80, 60));
    // A chart without errors passes --strict.
    let o = run(&["render", "--strict"], BAR.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn help_lists_version_and_argument_errors_have_the_error_form() {
    let o = run(&["--help"], b"");
    assert!(o.status.success());
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(help.contains("--version"), "{help}");
    assert!(help.contains("render"), "{help}");
    let o = run(&["-V"], b"");
    assert!(o.status.success());
    assert_failed(
        &run(&["render", "--bogus"], b""),
        "Unrecognized argument: --bogus",
    );
    assert_failed(&run(&["render", "-w"], b""), "-w");
    assert_failed(&run(&[], b""), "a command is needed");
    assert_failed(&run(&["draw"], b""), "draw");
}

/// `LOG_FORMAT=json`: every line the server writes is one JSON object, and each line about a
/// request carries its request id (the client's `X-Request-Id`, or the one generated and
/// echoed).
#[test]
fn json_logs_are_one_object_per_line_with_the_request_id() {
    let (mut child, mut err, addr, first) = start_serve(&[("LOG_FORMAT", "json")]);
    let get = |extra: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n"
        )
        .unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut s, &mut out).unwrap();
        out
    };
    let given = get("X-Request-Id: trace-42\r\n");
    assert!(given.starts_with("HTTP/1.1 200"), "{given}");
    let generated = get("");
    let echoed = generated
        .lines()
        .find_map(|l| l.strip_prefix("x-request-id: "))
        .expect("an X-Request-Id")
        .trim()
        .to_string();
    let mut lines = vec![first];
    // Two request lines follow the listening line.
    while lines.len() < 3 {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut err, &mut line).unwrap() == 0 {
            break;
        }
        lines.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    let objects: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l.trim_end()).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(objects[0]["level"], "info");
    assert!(objects[0]["msg"].as_str().unwrap().contains("listening"));
    let requests: Vec<_> = objects.iter().filter(|o| o["msg"] == "request").collect();
    assert_eq!(requests.len(), 2, "{lines:?}");
    assert_eq!(requests[0]["request_id"], "trace-42");
    assert_eq!(requests[1]["request_id"], echoed.as_str());
    for r in requests {
        assert_eq!(r["path"], "/health");
        assert_eq!(r["status"], 200);
        assert!(r["duration_ms"].is_number() && r["ts"].is_number());
    }
}
