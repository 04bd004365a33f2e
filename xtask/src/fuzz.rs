//! `cargo xtask fuzz`: coverage-guided fuzzing campaigns with AFL++ (cargo-afl).
//!
//! `cargo xtask fuzz [--target NAME|all] [--seconds N] [--jobs N] [--no-build]`
//!
//! 1. builds `fuzz/` with `cargo afl build --release` (the crate is outside the workspace);
//! 2. gathers the seed corpus: the `config` of every gallery example (`fixtures/examples`)
//!    and of every Chart.js and plugin fixture (`../shared/chartjs-fixtures/dev`,
//!    `../shared/plugin-fixtures/dev`), written to `fuzz/work/seeds/` (never committed);
//! 3. fills each target's AFL input directory from it (JSON text for the plain targets, seed
//!    words for the structure-aware ones);
//! 4. runs one campaign per target for `--seconds`, `--jobs` AFL instances each (one main,
//!    the rest secondaries), under `nice -n 10`, with the target's time (`-t`) and memory
//!    (`-m`) limits;
//! 5. prints execs_done, execs_per_sec, crashes and hangs from each instance's
//!    `fuzzer_stats`, appends them to `fuzz/work/campaigns.tsv`, and copies crashes and hangs
//!    to `fuzz/findings/<target>/` together with the readable case `replay` makes of each.
//!
//! Findings are triaged by hand: minimise (`cargo afl tmin`), keep the readable case in
//! `fuzz/regressions/` with a note, fix, and the workspace test `fuzz_regressions` (in
//! chart-raster's integration tests) replays it from then on.

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Every target, with its AFL time limit in ms (`-t`) and memory limit in MB (`-m`).
/// The render targets' 3 s is three times the engine's 1 s deadline
/// (`chart_raster_fuzz::RENDER_DEADLINE`): a render still running then ignores its Cancel.
const TARGETS: &[(&str, u32, u32)] = &[
    ("request", 1000, 512),
    ("query", 1000, 512),
    ("resolve", 1000, 512),
    ("resolve-struct", 1000, 512),
    ("render", 3000, 1024),
    ("render-struct", 3000, 1024),
];

/// Plain-JSON seed inputs larger than this are left out: AFL mutates small inputs far
/// faster, and the structure-aware targets start from every seed anyway.
const MAX_JSON_INPUT: usize = 16 * 1024;

struct Args {
    targets: Vec<&'static str>,
    seconds: u64,
    jobs: usize,
    build: bool,
}

/// Run AFL++ campaigns over the targets in fuzz/ (see xtask/src/fuzz.rs).
#[derive(FromArgs)]
#[argh(subcommand, name = "fuzz")]
pub struct Cli {
    /// the targets, comma-separated, or all (default: all)
    #[argh(option, default = "String::from(\"all\")")]
    target: String,
    /// seconds per campaign (default 60)
    #[argh(option, default = "60")]
    seconds: u64,
    /// the number of AFL instances per target (default 1)
    #[argh(option, default = "1")]
    jobs: usize,
    /// use the fuzz binaries already built
    #[argh(switch)]
    no_build: bool,
}

fn parse(cli: Cli) -> Result<Args> {
    let targets = if cli.target == "all" {
        TARGETS.iter().map(|t| t.0).collect()
    } else {
        let mut v = Vec::new();
        for name in cli.target.split(',') {
            let Some(t) = TARGETS.iter().find(|t| t.0 == name) else {
                bail!(
                    "unknown target {name:?}; targets: {}",
                    TARGETS.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
                );
            };
            v.push(t.0);
        }
        v
    };
    let a = Args {
        targets,
        seconds: cli.seconds,
        jobs: cli.jobs,
        build: !cli.no_build,
    };
    if a.jobs == 0 || a.seconds == 0 {
        bail!("--jobs and --seconds must be at least 1");
    }
    Ok(a)
}

pub fn run(cli: Cli) -> Result<()> {
    let args = parse(cli)?;
    let root = repo_root();
    let fuzz = root.join("fuzz");
    let work = fuzz.join("work");
    if Command::new("cargo")
        .args(["afl", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_or(true, |s| !s.success())
    {
        bail!(
            "cargo-afl is not installed: `cargo install --locked cargo-afl` (it builds AFL++ \
             on first use; `cargo afl config --build` builds it ahead of time)"
        );
    }
    if args.build {
        println!("fuzz: cargo afl build --release (fuzz/)");
        let st = Command::new("nice")
            .args(["-n", "10", "cargo", "afl", "build", "--release"])
            .current_dir(&fuzz)
            .status()
            .context("running cargo afl build")?;
        if !st.success() {
            bail!("cargo afl build failed");
        }
    }
    let seeds = gather_seeds(&root)?;
    let seed_dir = work.join("seeds");
    write_seeds(&seed_dir, &seeds)?;
    println!(
        "fuzz: {} seed configs in {}",
        seeds.len(),
        seed_dir.display()
    );
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut total = 0u64;
    for &target in &args.targets {
        let input = work.join(target).join("in");
        write_inputs(target, &input, &seeds)?;
        let out = work.join(target).join(format!("out-{stamp}"));
        let stats = campaign(&fuzz, target, &input, &out, &seed_dir, &args)?;
        for s in &stats {
            println!(
                "fuzz: {target} [{}]: execs_done {} execs_per_sec {:.1} run_time {} s \
                 crashes {} hangs {} corpus {}",
                s.instance, s.execs, s.per_sec, s.run_time, s.crashes, s.hangs, s.corpus
            );
            append_log(&work, target, stamp, s)?;
            total += s.execs;
        }
        collect_findings(&fuzz, target, stamp, &out, &seed_dir)?;
    }
    println!("fuzz: {total} executions in all");
    Ok(())
}

/// The repository root (the parent of the xtask crate).
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// `../shared/<name>` of the repository root, or of the nearest ancestor that has it (a
/// worktree may be nested deeper); `None` when there is none (the seeds are then the
/// gallery examples only).
fn shared_dir(root: &Path, name: &str) -> Option<PathBuf> {
    root.ancestors()
        .map(|a| a.join("shared").join(name).join("dev"))
        .find(|p| p.is_dir())
}

/// `(name, config)` of every gallery example and fixture, sorted by name.
fn gather_seeds(root: &Path) -> Result<Vec<(String, Value)>> {
    let mut seeds = Vec::new();
    let mut add = |prefix: &str, base: &Path| -> Result<()> {
        for rel in json_files(base)? {
            let path = base.join(&rel);
            let text = std::fs::read(&path).with_context(|| format!("{}", path.display()))?;
            let Ok(v) = serde_json::from_slice::<Value>(&text) else {
                continue;
            };
            if let Some(config @ Value::Object(_)) = v.get("config") {
                let name = format!(
                    "{prefix}-{}",
                    rel.to_string_lossy().replace(['/', '\\'], "_")
                );
                seeds.push((name, config.clone()));
            }
        }
        Ok(())
    };
    add("example", &root.join("fixtures/examples"))?;
    for (prefix, name) in [
        ("chartjs", "chartjs-fixtures"),
        ("plugin", "plugin-fixtures"),
    ] {
        match shared_dir(root, name) {
            Some(dir) => add(prefix, &dir)?,
            None => println!("fuzz: no ../shared/{name}/dev; its configs are not seeds"),
        }
    }
    seeds.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(seeds)
}

/// Every `*.json` below `dir`, relative to it, sorted.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                if let Ok(rel) = p.strip_prefix(dir) {
                    out.push(rel.to_path_buf());
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Rewrites `dir` with one `<name>` file per seed config (what `CHART_FUZZ_SEEDS` points to).
fn write_seeds(dir: &Path, seeds: &[(String, Value)]) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for (name, config) in seeds {
        std::fs::write(dir.join(name), serde_json::to_vec(config)?)?;
    }
    Ok(())
}

/// A request body for a seed config; the format cycles so the encoders all get inputs.
fn request_body(config: &Value, i: usize) -> Value {
    let format = ["png", "jpeg", "webp"][i % 3];
    json!({"chart": config, "width": 160, "height": 120, "devicePixelRatio": 1, "format": format})
}

/// Rewrites a target's AFL input directory from the seeds.
fn write_inputs(target: &str, dir: &Path, seeds: &[(String, Value)]) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    let mut n = 0;
    for (i, (name, config)) in seeds.iter().enumerate() {
        let bytes: Vec<u8> = match target {
            "resolve" => serde_json::to_vec(config)?,
            "request" | "render" => serde_json::to_vec(&request_body(config, i))?,
            "query" => {
                let chart = serde_json::to_string(config)?;
                format!("chart={chart}&width=160&height=120&devicePixelRatio=1&format=png")
                    .into_bytes()
            }
            // Structure-aware: the seed word alone (low 14 bits: the seed; top 2 bits: the
            // output format); AFL appends the mutation program.
            _ => {
                let word = (i as u16 & 0x3fff) | (((i % 3) as u16) << 14);
                word.to_le_bytes().to_vec()
            }
        };
        if bytes.len() > MAX_JSON_INPUT {
            continue;
        }
        std::fs::write(dir.join(name), bytes)?;
        n += 1;
    }
    if n == 0 {
        bail!("no inputs for {target}");
    }
    Ok(())
}

/// The figures of one AFL instance, from its `fuzzer_stats`.
struct Stats {
    instance: String,
    execs: u64,
    per_sec: f64,
    run_time: u64,
    crashes: u64,
    hangs: u64,
    corpus: u64,
}

fn campaign(
    fuzz: &Path,
    target: &str,
    input: &Path,
    out: &Path,
    seed_dir: &Path,
    args: &Args,
) -> Result<Vec<Stats>> {
    let &(_, tmout, mem) = TARGETS
        .iter()
        .find(|t| t.0 == target)
        .context("unknown target")?;
    let binary = fuzz.join("target/release").join(target);
    if !binary.is_file() {
        bail!("{} is missing: build without --no-build", binary.display());
    }
    std::fs::create_dir_all(out)?;
    let dict = fuzz.join("dict/json.dict");
    let structured = target.ends_with("-struct");
    println!(
        "fuzz: {target}: {} s, {} instance(s), -t {tmout} -m {mem}, out {}",
        args.seconds,
        args.jobs,
        out.display()
    );
    let mut children: Vec<Child> = Vec::new();
    for job in 0..args.jobs {
        let role = if job == 0 {
            ["-M".to_string(), "main".to_string()]
        } else {
            ["-S".to_string(), format!("s{job}")]
        };
        let log = std::fs::File::create(out.join(format!("{}.log", role[1])))?;
        let mut cmd = Command::new("nice");
        cmd.args(["-n", "10", "cargo", "afl", "fuzz"])
            .arg("-i")
            .arg(input)
            .arg("-o")
            .arg(out)
            .args(&role)
            .arg("-t")
            .arg(tmout.to_string())
            .arg("-m")
            .arg(mem.to_string())
            .arg("-V")
            .arg(args.seconds.to_string());
        if !structured && dict.is_file() {
            cmd.arg("-x").arg(&dict);
        }
        cmd.arg("--").arg(&binary);
        cmd.current_dir(fuzz)
            .env("CHART_FUZZ_SEEDS", seed_dir)
            // A shared machine: no status screen, no CPU pinning, no core_pattern demands.
            .env("AFL_NO_UI", "1")
            .env("AFL_NO_AFFINITY", "1")
            .env("AFL_SKIP_CPUFREQ", "1")
            .env("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1")
            .env("AFL_SKIP_CRASHES", "1")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        children.push(cmd.spawn().context("starting cargo afl fuzz")?);
    }
    // AFL stops itself after -V seconds of fuzzing time, which leaves out calibrating new
    // inputs (a fifth of a render campaign's wall time here); past a margin for that, an
    // instance gets SIGINT, after which AFL writes its final stats and exits.
    let limit = Duration::from_secs(args.seconds + args.seconds / 4 + 120);
    let start = Instant::now();
    for mut c in children {
        loop {
            if c.try_wait()?.is_some() {
                break;
            }
            if start.elapsed() > limit {
                println!("fuzz: {target}: instance {} overran; stopping it", c.id());
                let _ = Command::new("kill")
                    .args(["-INT", &c.id().to_string()])
                    .status();
                let asked = Instant::now();
                while c.try_wait()?.is_none() && asked.elapsed() < Duration::from_secs(30) {
                    std::thread::sleep(Duration::from_millis(200));
                }
                if c.try_wait()?.is_none() {
                    c.kill()?;
                    c.wait()?;
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
    let mut stats = Vec::new();
    for e in std::fs::read_dir(out)? {
        let dir = e?.path();
        let file = dir.join("fuzzer_stats");
        if let Ok(text) = std::fs::read_to_string(&file) {
            stats.push(read_stats(&dir, &text));
        }
    }
    if stats.is_empty() {
        bail!(
            "{target}: no fuzzer_stats under {}; see the .log files there",
            out.display()
        );
    }
    stats.sort_by(|a, b| a.instance.cmp(&b.instance));
    Ok(stats)
}

fn read_stats(dir: &Path, text: &str) -> Stats {
    let field = |name: &str| {
        text.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let int = |name: &str| field(name).parse::<u64>().unwrap_or(0);
    Stats {
        instance: dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        execs: int("execs_done"),
        per_sec: field("execs_per_sec").parse().unwrap_or(0.0),
        run_time: int("run_time"),
        // AFL++ 4 names them saved_*; older releases unique_*.
        crashes: int("saved_crashes").max(int("unique_crashes")),
        hangs: int("saved_hangs").max(int("unique_hangs")),
        corpus: int("corpus_count"),
    }
}

fn append_log(work: &Path, target: &str, stamp: u64, s: &Stats) -> Result<()> {
    use std::io::Write;
    let path = work.join("campaigns.tsv");
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    if new {
        writeln!(
            f,
            "stamp\ttarget\tinstance\texecs_done\texecs_per_sec\trun_time\tcrashes\thangs\tcorpus"
        )?;
    }
    writeln!(
        f,
        "{stamp}\t{target}\t{}\t{}\t{:.1}\t{}\t{}\t{}\t{}",
        s.instance, s.execs, s.per_sec, s.run_time, s.crashes, s.hangs, s.corpus
    )?;
    Ok(())
}

/// Copies every crash and hang to `fuzz/findings/<target>/` and writes the readable case
/// of each beside it (`<file>.json`, from the `replay` tool).
fn collect_findings(
    fuzz: &Path,
    target: &str,
    stamp: u64,
    out: &Path,
    seed_dir: &Path,
) -> Result<()> {
    let dest = fuzz.join("findings").join(target);
    let mut copied = Vec::new();
    for inst in std::fs::read_dir(out)? {
        let inst = inst?.path();
        for kind in ["crashes", "hangs"] {
            let Ok(entries) = std::fs::read_dir(inst.join(kind)) else {
                continue;
            };
            for e in entries {
                let p = e?.path();
                let Some(name) = p.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                    continue;
                };
                if !name.starts_with("id:") {
                    continue;
                }
                std::fs::create_dir_all(&dest)?;
                let inst_name = inst
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // `:` and `,` in AFL's names are awkward in shells; keep the id and the op.
                let short: String = name.split(',').take(1).collect::<String>().replace(':', "");
                let to = dest.join(format!("{stamp}-{inst_name}-{kind}-{short}"));
                std::fs::copy(&p, &to)?;
                copied.push(to);
            }
        }
    }
    if copied.is_empty() {
        return Ok(());
    }
    println!(
        "fuzz: {target}: {} finding(s) copied to {}",
        copied.len(),
        dest.display()
    );
    let replay = fuzz.join("target/release/replay");
    for f in &copied {
        let case = Command::new(&replay)
            .arg(target)
            .arg(f)
            .env("CHART_FUZZ_SEEDS", seed_dir)
            .output();
        if let Ok(o) = case {
            if o.status.success() {
                let mut name = f.as_os_str().to_owned();
                name.push(".json");
                std::fs::write(PathBuf::from(name), &o.stdout)?;
            }
        }
    }
    Ok(())
}
