//! The `chart-raster` binary: parses arguments and maps errors to exit codes; all work is in
//! the library crates.

use anyhow::{bail, Context};
use argh::FromArgs;
use chart_http::log::{Level as LogLevel, LogFormat};
use chart_raster::{Level, RenderOptions, Service, ServiceConfig, ServiceError, VERSION};
use serde_json::{Map, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// jemalloc gives a large render's memory back to the OS once idle (see Cargo.toml).
#[cfg(all(target_os = "linux", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Chart.js configs to PNG, JPEG and WebP: an HTTP service and a command-line renderer.
#[derive(FromArgs)]
struct Cli {
    /// print the version and exit
    #[argh(switch, short = 'V')]
    version: bool,
    #[argh(subcommand)]
    command: Option<Command>,
}

#[derive(FromArgs)]
#[argh(subcommand)]
enum Command {
    Serve(Serve),
    Render(Render),
    Examples(Examples),
}

/// Run the HTTP service.
#[derive(FromArgs)]
#[argh(subcommand, name = "serve")]
struct Serve {
    /// port to listen on (env PORT, default 3000)
    #[argh(option, short = 'p')]
    port: Option<u16>,
    /// address to listen on (env HOST, default 0.0.0.0)
    #[argh(option)]
    host: Option<String>,
    /// require this key on every route but /health and /openapi.json (env API_KEY; the flag
    /// wins)
    #[argh(option)]
    api_key: Option<String>,
}

/// Render one chart: a bare Chart.js config, or a /render request body (its chart, width,
/// height and other fields; the flags override them).
#[derive(FromArgs)]
#[argh(subcommand, name = "render")]
struct Render {
    /// config file, or - for stdin (default)
    #[argh(option, short = 'i', default = "String::from(\"-\")")]
    input: String,
    /// image file, or - for stdout (default); its extension (.png, .jpg, .jpeg, .webp, .svg,
    /// .pdf) picks the format unless -f is given
    #[argh(option, short = 'o', default = "String::from(\"-\")")]
    output: String,
    /// width in CSS pixels (default 800)
    #[argh(option, short = 'w')]
    width: Option<f64>,
    /// height in CSS pixels (default 600)
    #[argh(option)]
    height: Option<f64>,
    /// device pixel ratio (default 2)
    #[argh(option)]
    device_pixel_ratio: Option<f64>,
    /// any CSS colour (default white)
    #[argh(option)]
    background_color: Option<String>,
    /// png, jpeg, webp, svg or pdf (default png; svg and pdf: skia engine, CSS size)
    #[argh(option, short = 'f')]
    format: Option<String>,
    /// quality 0-100 for jpeg and webp (default 90)
    #[argh(option, short = 'q')]
    quality: Option<f64>,
    /// skia or browser (default skia)
    #[argh(option, short = 'e')]
    engine: Option<String>,
    /// exit with status 2 when the render reported an error (the image is still written)
    #[argh(switch)]
    strict: bool,
}

/// Render every built-in example into a directory.
#[derive(FromArgs)]
#[argh(subcommand, name = "examples")]
struct Examples {
    /// directory to write the images to (created if needed)
    #[argh(option)]
    outdir: PathBuf,
    /// png, jpeg, webp, svg or pdf (default png; svg and pdf: skia engine, CSS size)
    #[argh(option, short = 'f')]
    format: Option<String>,
    /// quality 0-100 for jpeg and webp (default 90)
    #[argh(option, short = 'q')]
    quality: Option<f64>,
    /// skia or browser (default skia)
    #[argh(option, short = 'e')]
    engine: Option<String>,
}

/// Exit status when `render --strict` drew an image but the render reported an error.
const EXIT_STRICT: i32 = 2;

/// Prints an error in the one form every failure has, and exits 1.
fn fail(msg: &str) -> ! {
    eprintln!("chart-raster: error: {msg}");
    std::process::exit(1);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let strs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (name, rest) = strs
        .split_first()
        .map_or(("chart-raster", &[][..]), |(n, r)| (*n, r));
    let cli = match Cli::from_args(&[name], rest) {
        Ok(cli) => cli,
        Err(early) => {
            if early.status.is_ok() {
                // --help
                print!("{}", early.output);
                return;
            }
            // argh's own message, in the same one-line form as every other error.
            let msg = early.output.lines().map(str::trim).collect::<Vec<_>>();
            fail(&format!("{} (see --help)", msg.join(" ").trim()));
        }
    };
    if cli.version {
        println!("chart-raster {VERSION}");
        return;
    }
    let result = match cli.command {
        Some(Command::Serve(s)) => serve(s).map(|()| 0),
        Some(Command::Render(r)) => render(r),
        Some(Command::Examples(e)) => examples(e).map(|()| 0),
        None => fail("a command is needed: serve, render or examples (see --help)"),
    };
    match result {
        Ok(0) => {}
        Ok(code) => std::process::exit(code),
        Err(e) => {
            // One line: the chain of causes joined.
            fail(&format!("{e:#}").replace('\n', " "));
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn serve(args: Serve) -> anyhow::Result<()> {
    let port = match args.port {
        Some(p) => p,
        None => match env("PORT") {
            Some(p) => p
                .trim()
                .parse()
                .with_context(|| format!("invalid PORT {p:?}"))?,
            None => 3000,
        },
    };
    let host = args
        .host
        .or_else(|| env("HOST"))
        .unwrap_or_else(|| "0.0.0.0".into());
    let mut server_config = chart_http::ServerConfig::from_vars(env)?;
    if args.api_key.is_some() {
        server_config.api_key = args.api_key;
    }
    let log = server_config.log_format;
    let config = ServiceConfig::from_vars(env)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let served =
        rt.block_on(async move {
            let shutdown = shutdown_signal(log)?;
            let listener = tokio::net::TcpListener::bind((host.as_str(), port))
                .await
                .with_context(|| format!("cannot listen on {host}:{port}"))?;
            let addr = listener.local_addr()?;
            let msg =
                format!(
                "chart-raster {VERSION} listening on http://{addr} (concurrency {}, max pending \
                 {}, auth {}, trust proxy {})",
                config.concurrency,
                config.max_pending(),
                if server_config.api_key.is_some() { "on" } else { "off" },
                if server_config.trust_proxy { "on" } else { "off" },
            );
            log.emit(
                LogLevel::Info,
                || msg.clone(),
                &msg,
                None,
                &[("addr", addr.to_string().into())],
            );
            let service = Service::new(config);
            let server = chart_http::serve(listener, service.clone(), server_config, shutdown);
            server.await?;
            service.shutdown().await;
            anyhow::Ok(())
        });
    // Every render has stopped by its deadline by now; a thread that somehow has not (a bug)
    // must not keep the process alive after SIGTERM.
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    served?;
    log.emit(
        LogLevel::Info,
        || "chart-raster: stopped".into(),
        "stopped",
        None,
        &[],
    );
    Ok(())
}

/// A future that completes on SIGINT (Ctrl-C) or SIGTERM. The handlers are installed here,
/// before the server starts, so a signal arriving early is never the default "terminate".
#[cfg(unix)]
fn shutdown_signal(log: LogFormat) -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    let mut term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => {},
            _ = term.recv() => {},
        }
        let msg = "shutting down, finishing in-flight requests";
        log.emit(
            LogLevel::Info,
            || format!("chart-raster: {msg}"),
            msg,
            None,
            &[],
        );
    })
}

/// A future that completes on Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal(log: LogFormat) -> anyhow::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        let msg = "shutting down, finishing in-flight requests";
        log.emit(
            LogLevel::Info,
            || format!("chart-raster: {msg}"),
            msg,
            None,
            &[],
        );
    })
}

/// The settings of one-off renders (the environment's budgets and time limit): no cache
/// worth keeping.
fn one_shot_config() -> anyhow::Result<ServiceConfig> {
    let mut config = ServiceConfig::from_vars(env)?;
    config.cache.max_entries = 0;
    Ok(config)
}

/// A service for one-off renders, one at a time.
fn one_shot_service(config: ServiceConfig) -> anyhow::Result<(tokio::runtime::Runtime, Service)> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    Ok((rt, Service::new(config)))
}

fn request(chart: Map<String, Value>, fields: &[(&str, Option<Value>)]) -> Value {
    let mut req = Map::new();
    req.insert("chart".into(), Value::Object(chart));
    for (k, v) in fields {
        if let Some(v) = v {
            req.insert((*k).to_string(), v.clone());
        }
    }
    Value::Object(req)
}

fn num(x: Option<f64>) -> Option<Value> {
    x.map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
}

/// The format named by an output path's extension, when it names one we write.
fn format_of(output: &str) -> anyhow::Result<Option<&'static str>> {
    if output == "-" {
        return Ok(None);
    }
    let ext = Path::new(output)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    Ok(match ext.as_deref() {
        Some("png") => Some("png"),
        Some("jpg" | "jpeg") => Some("jpeg"),
        Some("webp") => Some("webp"),
        Some("svg") => Some("svg"),
        Some("pdf") => Some("pdf"),
        _ => None,
    })
}

/// Renders; the exit status ([`EXIT_STRICT`] for `--strict` and an error message, else 0).
fn render(args: Render) -> anyhow::Result<i32> {
    let text = if args.input == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading stdin")?;
        s
    } else {
        std::fs::read_to_string(&args.input).with_context(|| format!("reading {}", args.input))?
    };
    // The request is in hand: its deadline starts now, so that parsing, scanning, validating
    // and hashing it count against MAX_RENDER_TIME_SECONDS as the drawing does (a 100 MB body
    // took 0.5 s before the render's deadline started, and the CLI takes any size).
    render_text(args, text, Instant::now())
}

/// Renders the input `text` received at `received`, by the deadline `received +
/// MAX_RENDER_TIME_SECONDS`.
fn render_text(args: Render, text: String, received: Instant) -> anyhow::Result<i32> {
    // The service's settings first: their budgets apply to the config before it is parsed,
    // as they do to a request body (the scan bounds what serde_json builds).
    let config = one_shot_config()?;
    // Scanned as a request body (the outer object level 0): the config's own depth is
    // checked exactly once its shape is known, by the request validation below.
    // One pass when the text is plain: the parse stops at the budgets, then the scan names them.
    let parsed: Value = chart_raster::spec::budget::parse_json_within(
        text.as_bytes(),
        chart_raster::spec::budget::JsonText::RequestBody,
        &config.limits,
    )
    .map_err(ServiceError::from)?
    .context("invalid chart config JSON")?;
    drop(text);
    let Value::Object(input) = parsed else {
        bail!("the chart config must be a JSON object");
    };
    let format = match args.format {
        Some(f) => Some(f),
        None => format_of(&args.output)?.map(String::from),
    };
    let flags = [
        ("width", num(args.width)),
        ("height", num(args.height)),
        ("devicePixelRatio", num(args.device_pixel_ratio)),
        ("backgroundColor", args.background_color.map(Value::String)),
        ("format", format.map(Value::String)),
        ("quality", num(args.quality)),
        ("engine", args.engine.map(Value::String)),
    ];
    // A /render body: `chart` holds the config (a Chart.js config has no `chart` key, and a
    // body has no `type` or `data`).
    let is_body = matches!(input.get("chart"), Some(Value::Object(_)))
        && !input.contains_key("type")
        && !input.contains_key("data");
    let req = if is_body {
        let mut req = input;
        for (k, v) in flags {
            if let Some(v) = v {
                req.insert(k.to_string(), v);
            }
        }
        Value::Object(req)
    } else {
        request(input, &flags)
    };
    // Validate (budgets included) before starting anything, so bad options fail fast.
    let opts = RenderOptions::from_json_value_with_limits(req, &config.limits)
        .map_err(ServiceError::from)?;
    let (rt, service) = one_shot_service(config)?;
    let result = rt.block_on(service.render_received(opts, Some(received)))?;
    print_messages(&result.messages);
    if args.output == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(&result.bytes)
            .and_then(|()| out.flush())
            .context("writing stdout")?;
    } else {
        write_output(Path::new(&args.output), &result.bytes)?;
    }
    let errors = result
        .messages
        .iter()
        .filter(|m| m.level == Level::Error)
        .count();
    if args.strict && errors > 0 {
        eprintln!(
            "chart-raster: {errors} error message(s) with --strict: exit status {EXIT_STRICT}"
        );
        return Ok(EXIT_STRICT);
    }
    Ok(0)
}

fn print_messages(messages: &[chart_raster::Message]) {
    print_messages_of("chart", messages);
}

/// One stderr line per message: `[<who> WARN] ...`.
fn print_messages_of(who: &str, messages: &[chart_raster::Message]) {
    for m in messages {
        let level = match m.level {
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Log => "LOG",
        };
        eprintln!("[{who} {level}] {}", m.message);
    }
}

/// Writes an image to `path`, replacing only what is an image file.
///
/// A regular file, or a name that does not exist yet, is written next to it and renamed over
/// it ([`write_atomically`]), so a failure never leaves a partial image; through a symbolic
/// link, the file it points to is replaced and the link kept. Anything else (a character
/// device such as `/dev/null` or `/dev/stdout`, a FIFO, `/dev/fd/N` of a shell's process
/// substitution) is written straight into, as a shell's `>` would: a rename would replace the
/// device node or pipe itself by a regular file, and run as root `-o /dev/null` replaced the
/// machine's `/dev/null` by a PNG. Writing into is what a user naming such a file means, so
/// it is not refused. A directory is an error.
fn write_output(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let context = || format!("writing {}", path.display());
    // `metadata` follows symbolic links: the type of what would receive the bytes.
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            let real = std::fs::canonicalize(path).with_context(context)?;
            write_atomically(&real, bytes)
        }
        Ok(meta) if meta.is_dir() => bail!("{} is a directory", path.display()),
        Ok(_) => write_into(path, bytes, false).with_context(context),
        // A dangling link: create the file it names, as `>` does, rather than replace the link.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.is_symlink() => {
            write_into(path, bytes, true).with_context(context)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => write_atomically(path, bytes),
        Err(e) => Err(e).with_context(context),
    }
}

/// Opens `path` for writing (following links; creating it when `create`) and writes the
/// bytes into it. Opening a FIFO waits for its reader, as a shell redirection does.
fn write_into(path: &Path, bytes: &[u8], create: bool) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(create)
        .truncate(create)
        .open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Writes next to the target and renames, so a failure never leaves a partial image.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

fn examples(args: Examples) -> anyhow::Result<()> {
    let list = chart_raster::examples::all()?;
    // Check the options once, on the first example, before creating anything.
    let fields = |e: &chart_raster::examples::Example| {
        request(
            e.config.clone(),
            &[
                ("width", num(Some(e.width))),
                ("height", num(Some(e.height))),
                ("format", args.format.clone().map(Value::String)),
                ("quality", num(args.quality)),
                ("engine", args.engine.clone().map(Value::String)),
            ],
        )
    };
    let first = list.first().context("no examples are built in")?;
    let config = one_shot_config()?;
    let limits = config.limits;
    RenderOptions::from_json_with_limits(&fields(first), &limits).map_err(ServiceError::from)?;
    std::fs::create_dir_all(&args.outdir)
        .with_context(|| format!("creating {}", args.outdir.display()))?;
    let (rt, service) = one_shot_service(config)?;
    let total = list.len();
    for (i, e) in list.iter().enumerate() {
        let opts = RenderOptions::from_json_with_limits(&fields(e), &limits)
            .map_err(ServiceError::from)?;
        let ext = opts.format.extension();
        let start = std::time::Instant::now();
        let result = rt
            .block_on(service.render(opts))
            .with_context(|| format!("rendering example {}", e.name))?;
        let path = args.outdir.join(format!("{}.{ext}", e.name));
        write_output(&path, &result.bytes)?;
        eprintln!(
            "[{}/{total}] {} ({} bytes, {} ms, {} message(s))",
            i + 1,
            path.display(),
            result.bytes.len(),
            start.elapsed().as_millis(),
            result.messages.len()
        );
        print_messages_of(e.name, &result.messages);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn render_args(output: &Path) -> Render {
        Render {
            input: "-".into(),
            output: output.display().to_string(),
            width: Some(100.0),
            height: Some(80.0),
            device_pixel_ratio: Some(1.0),
            background_color: None,
            format: None,
            quality: None,
            engine: None,
            strict: false,
        }
    }

    /// The deadline starts when the input is in hand, not when its render does: a request
    /// whose parsing outlasted MAX_RENDER_TIME_SECONDS is answered with the timeout and not
    /// drawn (the CLI took a 100 MB body's 0.5 s of parsing on top of the deadline).
    #[test]
    fn the_deadline_counts_from_the_input_in_hand() {
        let dir = std::env::temp_dir().join(format!("chart-cli-deadline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let out = dir.join("chart.png");
        let text = r#"{"type": "bar", "data": {"datasets": [{"data": [1, 2]}]}}"#;
        let limit = one_shot_config().expect("settings").max_render_time;
        let received = Instant::now()
            .checked_sub(limit + Duration::from_secs(1))
            .expect("the machine has been up longer than the render limit");
        let late = render_text(render_args(&out), text.into(), received);
        let err = late.expect_err("a timeout");
        assert_eq!(
            err.to_string(),
            format!(
                "render timed out after {} s (MAX_RENDER_TIME_SECONDS)",
                limit.as_secs_f64()
            )
        );
        assert!(!out.exists());
        // Received now, the same input is drawn.
        let now = render_text(render_args(&out), text.into(), Instant::now());
        assert_eq!(now.expect("an image"), 0);
        assert!(out.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
