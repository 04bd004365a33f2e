//! `cargo xtask tidy`: the structure rules of the workspace, checked on its sources (in the
//! manner of rust-analyzer's `tidy`). Also run by `cargo test --workspace` (the test at the
//! bottom), so CI enforces them.
//!
//! 1. tiny-skia is named only under `chart-raster-skia/src/raster/`: the rasteriser is the one
//!    place that knows the drawing library; everything above it builds a display list.
//! 2. Which crate may depend on which ([`ALLOWED_DEPS`]): leaves stay leaves (chart-spec and
//!    chart-cache depend on no workspace crate), the engines depend on chart-spec only.
//! 3. No import cycles between the modules of one crate. Modules are files; `use` trees and
//!    `crate::`/`super::`/`self::`/child-module paths in code are the edges; `#[cfg(test)]
//!    mod tests` blocks, the crate root (the crate's facade) and a module's uses of its own
//!    ancestors (a parent declares what its children share) are left out. Known cycles are
//!    listed in [`KNOWN_CYCLES`] with the reason they still exist.
//! 4. No source file over [`MAX_LINES`] lines unless [`LONG_FILES`] gives the reason.
//! 5. No `serde_json` in the skia engine's non-test code: it draws the resolved model of
//!    chart-spec (`chart_spec::resolve_for_render` reads the config, once).
//! 6. Modules are files where their path says and name what they import: no `#[path]`
//!    attribute, no `use super::*` outside test modules.
//! 7. The drawing reads laid-out values, never the objects of the update: the modules listed
//!    in [`DRAW_MODULES`] (the draw path in `chart.rs`, the elements, the scales' and plugins'
//!    drawing) do not name the update's types ([`UPDATE_TYPES`]: a scale's type object, a
//!    controller, the parsed data), so drawing cannot call back into them; nor do the fields
//!    of the values the draw reads ([`LAID_OUT_VALUES`]: the update's result).
//!
//! An allow-list entry that no longer matches anything is an error too, so the lists only
//! shrink.

use anyhow::{bail, Context, Result};
use argh::FromArgs;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The skia engine's modules that draw from laid-out values only (rule 7); an entry ending in
/// `/` is every file below that folder.
const DRAW_MODULES: &[&str] = &[
    // The draw path: `Chart.draw` over the update's result.
    "crates/chart-raster-skia/src/chart.rs",
    // The elements and what each dataset draws (`elements::dataset`).
    "crates/chart-raster-skia/src/elements/",
    // The plugin charts' elements (`elements::dataset::PluginElements`).
    "crates/chart-raster-skia/src/controllers/geo/draw.rs",
    "crates/chart-raster-skia/src/controllers/geo/legend_draw.rs",
    "crates/chart-raster-skia/src/controllers/graph_tree/draw.rs",
    "crates/chart-raster-skia/src/controllers/matrix/draw.rs",
    "crates/chart-raster-skia/src/controllers/sankey/draw.rs",
    "crates/chart-raster-skia/src/controllers/treemap/draw.rs",
    "crates/chart-raster-skia/src/controllers/venn/draw.rs",
    "crates/chart-raster-skia/src/controllers/word_cloud/draw.rs",
    "crates/chart-raster-skia/src/scales/draw.rs",
    "crates/chart-raster-skia/src/scales/radial_draw.rs",
    "crates/chart-raster-skia/src/plugins/datalabels.rs",
    "crates/chart-raster-skia/src/plugins/gradient/repaint.rs",
    "crates/chart-raster-skia/src/plugins/filler/draw.rs",
    "crates/chart-raster-skia/src/plugins/annotation/mod.rs",
    "crates/chart-raster-skia/src/plugins/annotation/geometry.rs",
    "crates/chart-raster-skia/src/plugins/annotation/label.rs",
    "crates/chart-raster-skia/src/plugins/annotation/shape.rs",
];

/// The update stage's types that the [`DRAW_MODULES`] may not name (rule 7): the scales'
/// objects, the controllers, the parsed data and what a controller's update reads. The
/// update's result (`chart::update::Updated`) is not among them: it holds laid-out values
/// only, and it is what the draw reads.
const UPDATE_TYPES: &[&str] = &[
    "Scale",
    "ScaleType",
    "RadialLinearScale",
    "Controller",
    "ChartData",
    "Meta",
    "UpdateCx",
];

/// The values the draw reads, (file, struct): their fields name none of the
/// [`UPDATE_TYPES`] (rule 7), so the update's result holds no scale, controller or parsed
/// data for the draw to call back into.
const LAID_OUT_VALUES: &[(&str, &str)] =
    &[("crates/chart-raster-skia/src/chart/update.rs", "Updated")];

/// The longest a source file may be without a written reason.
const MAX_LINES: usize = 1000;

/// Workspace crates each crate may depend on (normal, build and dev dependencies). A crate
/// missing here is an error: a new crate states its place in the layering.
const ALLOWED_DEPS: &[(&str, &[&str])] = &[
    ("chart-spec", &[]),
    ("chart-cache", &[]),
    // chart-fixtures only as a dev-dependency: the integration tests' image-fixture harness.
    ("chart-raster-skia", &["chart-spec", "chart-fixtures"]),
    // The test harness of the image fixtures: the skia engine with its sprite text.
    ("chart-fixtures", &["chart-spec", "chart-raster-skia"]),
    ("chart-raster-browser", &["chart-spec"]),
    (
        "chart-raster",
        &[
            "chart-spec",
            "chart-raster-skia",
            "chart-raster-browser",
            "chart-cache",
        ],
    ),
    ("chart-http", &["chart-raster"]),
    ("chart-cli", &["chart-raster", "chart-http"]),
    (
        "xtask",
        &[
            "chart-spec",
            "chart-raster-skia",
            "chart-raster-browser",
            "chart-raster",
            "chart-http",
            "chart-fixtures",
        ],
    ),
];

/// Import cycles that exist today: (crate, its modules, why). Fix the cycle, then delete the
/// entry.
const KNOWN_CYCLES: &[(&str, &[&str], &str)] = &[];

/// Files allowed over [`MAX_LINES`]: (path from the repository root, why).
const LONG_FILES: &[(&str, &str)] = &[];

/// Check the workspace's structure rules (see xtask/src/tidy.rs).
#[derive(FromArgs)]
#[argh(subcommand, name = "tidy")]
pub struct Cli {}

pub fn run(_: Cli) -> Result<()> {
    let problems = check(&repo_root())?;
    if problems.is_empty() {
        println!("tidy: ok");
        return Ok(());
    }
    for p in &problems {
        eprintln!("tidy: {p}");
    }
    bail!("tidy: {} problem(s)", problems.len())
}

fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// One workspace crate: its name, directory (relative to the root) and manifest.
struct Crate {
    name: String,
    dir: PathBuf,
    manifest: String,
}

/// All rules; the problems found, one line each.
pub fn check(root: &Path) -> Result<Vec<String>> {
    let crates = workspace_crates(root)?;
    let mut problems = Vec::new();
    let mut sources = BTreeMap::new();
    for c in &crates {
        for file in rust_files(&root.join(&c.dir))? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let rel = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            sources.insert(rel, text);
        }
    }
    tiny_skia_only_in_raster(&sources, &mut problems);
    crate_dependencies(&crates, &mut problems);
    for c in &crates {
        module_cycles(c, &sources, &mut problems);
    }
    file_lengths(&sources, &mut problems);
    no_serde_json_in_engine(&sources, &mut problems);
    plain_modules(&sources, &mut problems);
    draw_reads_laid_out_values(&sources, &mut problems);
    laid_out_values_hold_no_update_objects(&sources, &mut problems);
    Ok(problems)
}

fn workspace_crates(root: &Path) -> Result<Vec<Crate>> {
    let mut dirs: Vec<PathBuf> = vec![PathBuf::from("xtask")];
    for e in std::fs::read_dir(root.join("crates")).context("reading crates/")? {
        let e = e?;
        if e.path().join("Cargo.toml").is_file() {
            dirs.push(PathBuf::from("crates").join(e.file_name()));
        }
    }
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let manifest = std::fs::read_to_string(root.join(&dir).join("Cargo.toml"))
            .with_context(|| format!("reading {}/Cargo.toml", dir.display()))?;
        let name = manifest_lines(&manifest)
            .find(|(section, key, _)| section == "package" && key == "name")
            .map(|(_, _, value)| value.trim_matches('"').to_string())
            .with_context(|| format!("{}/Cargo.toml has no package name", dir.display()))?;
        out.push(Crate {
            name,
            dir,
            manifest,
        });
    }
    Ok(out)
}

/// `(section, key, value)` of each `key = value` line of a manifest; `key` is cut at its first
/// dot (`chart-spec.workspace = true` gives `chart-spec`).
fn manifest_lines(manifest: &str) -> impl Iterator<Item = (String, String, String)> + '_ {
    let mut section = String::new();
    manifest.lines().filter_map(move |line| {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
            return None;
        }
        let (key, value) = line.split_once('=')?;
        let key = key.trim().split('.').next().unwrap_or("").trim_matches('"');
        Some((section.clone(), key.to_string(), value.trim().to_string()))
    })
}

/// The `.rs` files under `dir` (skipping `target`), sorted.
fn rust_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = e?.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Rule 1.
fn tiny_skia_only_in_raster(sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    let raster = Path::new("crates/chart-raster-skia/src/raster");
    for (path, text) in sources {
        if !path.starts_with(raster) && has_word(&code_only(text), "tiny_skia") {
            problems.push(format!(
                "{}: names tiny_skia; only chart-raster-skia/src/raster/ may (the rest builds a display list)",
                path.display()
            ));
        }
    }
}

/// Rule 2.
fn crate_dependencies(crates: &[Crate], problems: &mut Vec<String>) {
    let names: BTreeSet<&str> = crates.iter().map(|c| c.name.as_str()).collect();
    for c in crates {
        let Some((_, allowed)) = ALLOWED_DEPS.iter().find(|(n, _)| *n == c.name) else {
            problems.push(format!(
                "crate {} is not in tidy's ALLOWED_DEPS: say which workspace crates it may use",
                c.name
            ));
            continue;
        };
        for (section, key, _) in manifest_lines(&c.manifest) {
            let is_deps = section.ends_with("dependencies");
            if is_deps && names.contains(key.as_str()) && !allowed.contains(&key.as_str()) {
                problems.push(format!(
                    "{}/Cargo.toml: {} may not depend on {key} (allowed: {allowed:?})",
                    c.dir.display(),
                    c.name
                ));
            }
        }
    }
}

/// Rule 4.
fn file_lengths(sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    for (path, text) in sources {
        let lines = text.lines().count();
        let listed = LONG_FILES.iter().any(|(p, _)| Path::new(p) == path);
        if lines > MAX_LINES && !listed {
            problems.push(format!(
                "{}: {lines} lines, over {MAX_LINES}: split it by concept, or list it in LONG_FILES with the reason",
                path.display()
            ));
        }
    }
    for (p, _) in LONG_FILES {
        match sources.get(Path::new(p)) {
            Some(text) if text.lines().count() > MAX_LINES => {}
            _ => problems.push(format!(
                "LONG_FILES lists {p}, which is gone or no longer over {MAX_LINES} lines: remove the entry"
            )),
        }
    }
}

/// Rule 5.
fn no_serde_json_in_engine(sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    let engine = Path::new("crates/chart-raster-skia/src");
    for (path, text) in sources {
        let code = without_tests(&tokens(&code_only(text)));
        if path.starts_with(engine) && code.iter().any(|t| t == "serde_json") {
            problems.push(format!(
                "{}: uses serde_json; the engine draws the resolved model (resolve options in chart-spec)",
                path.display()
            ));
        }
    }
}

/// Rule 7.
fn draw_reads_laid_out_values(sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    for m in DRAW_MODULES {
        let files: Vec<(&PathBuf, &String)> = if m.ends_with('/') {
            (sources.iter()).filter(|(p, _)| p.starts_with(m)).collect()
        } else {
            sources.get_key_value(Path::new(m)).into_iter().collect()
        };
        if files.is_empty() {
            problems.push(format!(
                "DRAW_MODULES lists {m}, which is gone: remove or rename the entry"
            ));
        }
        for (path, text) in files {
            let code = without_tests(&tokens(&code_only(text)));
            for t in UPDATE_TYPES {
                if code.iter().any(|c| c == t) {
                    problems.push(format!(
                        "{}: names {t}, a type of the update; draw from the laid-out value (e.g. scales::LaidOutScale)",
                        path.display()
                    ));
                }
            }
        }
    }
}

/// Rule 7: the fields of the [`LAID_OUT_VALUES`].
fn laid_out_values_hold_no_update_objects(
    sources: &BTreeMap<PathBuf, String>,
    problems: &mut Vec<String>,
) {
    for (file, name) in LAID_OUT_VALUES {
        let Some(text) = sources.get(Path::new(file)) else {
            problems.push(format!(
                "LAID_OUT_VALUES lists {file}, which is gone: remove or rename the entry"
            ));
            continue;
        };
        let t = without_tests(&tokens(&code_only(text)));
        let Some(open) = (t.windows(2))
            .position(|w| w[0] == "struct" && w[1] == *name)
            .and_then(|at| t[at..].iter().position(|x| x == "{").map(|p| at + p))
        else {
            problems.push(format!(
                "LAID_OUT_VALUES lists struct {name} in {file}, which is gone: remove or rename the entry"
            ));
            continue;
        };
        let fields = &t[open..skip_block(&t, open)];
        for u in UPDATE_TYPES {
            if fields.iter().any(|f| f == u) {
                problems.push(format!(
                    "{file}: {name} holds a {u}, an object of the update; keep the laid-out value it gives instead"
                ));
            }
        }
    }
}

/// Rule 6.
fn plain_modules(sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    for (path, text) in sources {
        let t = without_tests(&tokens(&code_only(text)));
        let has = |seq: &[&str]| {
            t.windows(seq.len())
                .any(|w| w.iter().zip(seq).all(|(a, b)| a == b))
        };
        if has(&["#", "[", "path", "="]) {
            problems.push(format!(
                "{}: #[path] mounts a module away from its file: move the file to where its module is",
                path.display()
            ));
        }
        if has(&["use", "super", "::", "*"]) {
            problems.push(format!(
                "{}: use super::* outside tests: import the items by name",
                path.display()
            ));
        }
    }
}

/// Rule 3 for one crate.
fn module_cycles(c: &Crate, sources: &BTreeMap<PathBuf, String>, problems: &mut Vec<String>) {
    let src = c.dir.join("src");
    let mut modules: BTreeMap<Vec<String>, &str> = BTreeMap::new();
    for (path, text) in sources {
        if let Some(m) = path.strip_prefix(&src).ok().and_then(module_of) {
            modules.insert(m, text);
        }
    }
    let known: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, text) in &modules {
        if m.is_empty() {
            continue; // the crate root: its facade re-exports are not dependencies
        }
        let edges = graph.entry(m.clone()).or_default();
        for path in referenced_paths(m, &known, text) {
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| known.contains(p));
            // A module's own ancestors are its context (a parent declares what its children
            // share, such as a trait they implement), not an edge.
            if let Some(t) = target.filter(|t| !m.starts_with(t)) {
                edges.insert(t);
            }
        }
    }
    let name = |m: &Vec<String>| m.join("::");
    let mut found: Vec<BTreeSet<String>> = strongly_connected(&graph)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .map(|scc| scc.iter().map(name).collect())
        .collect();
    found.sort();
    let known_here: Vec<BTreeSet<String>> = KNOWN_CYCLES
        .iter()
        .filter(|(krate, _, _)| *krate == c.name)
        .map(|(_, ms, _)| ms.iter().map(|s| s.to_string()).collect())
        .collect();
    for scc in &found {
        if !known_here.contains(scc) {
            let list: Vec<&str> = scc.iter().map(String::as_str).collect();
            problems.push(format!(
                "{}: import cycle between modules {}: break it (move the shared items into a module both use)",
                c.name,
                list.join(", ")
            ));
        }
    }
    for k in &known_here {
        if !found.contains(k) {
            let list: Vec<&str> = k.iter().map(String::as_str).collect();
            problems.push(format!(
                "KNOWN_CYCLES lists {} [{}], which is no longer a cycle: remove the entry",
                c.name,
                list.join(", ")
            ));
        }
    }
}

/// The module a file under `src/` is: `lib.rs`/`main.rs` is the root (empty path), `a/mod.rs`
/// and `a.rs` are `a`, `a/b.rs` is `a::b`. `None` for `src/bin/`, other crate roots.
fn module_of(rel: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    match (parts.is_empty(), stem) {
        (true, "lib" | "main") => {}
        (_, "mod") => {}
        _ => parts.push(stem.to_string()),
    }
    Some(parts)
}

/// Tarjan's strongly connected components.
fn strongly_connected(
    graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    // Recursion depth is bounded by the number of modules of one of our crates.
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(edges) = s.graph.get(v) {
            for w in edges {
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v].min(lw);
                    s.low.insert(v, lv);
                } else if s.on_stack.contains(w) {
                    let lv = s.low[v].min(s.index[w]);
                    s.low.insert(v, lv);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                scc.push(w.clone());
                if w == v {
                    break;
                }
            }
            scc.sort();
            s.out.push(scc);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The source with comments, string and char literals blanked (newlines kept).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if at(i) == 'r'
            && !is_ident(at(i.wrapping_sub(1)))
            && (at(i + 1) == '"' || (at(i + 1) == '#' && matches!(at(i + 2), '"' | '#')))
        {
            // Raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| at(j + 1 + h) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if at(i) == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if at(i) == '\'' && (at(i + 1) == '\\' || (at(i + 2) == '\'' && at(i + 1) != '\'')) {
            // A char literal ('x', '\n', '\u{..}'); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if at(j) == '\\' {
                j += 2;
            } else {
                j += 1;
            }
            while j < c.len() && c[j] != '\'' && c[j] != '\n' {
                j += 1;
            }
            for _ in i..=j.min(c.len() - 1) {
                out.push(' ');
            }
            i = j + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

fn has_word(code: &str, word: &str) -> bool {
    tokens(code).iter().any(|t| t == word)
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if is_ident(c[i]) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// Absolute module paths (without `crate`) that module `m`'s source refers to.
fn referenced_paths(m: &[String], known: &BTreeSet<Vec<String>>, text: &str) -> Vec<Vec<String>> {
    let t = tokens(&code_only(text));
    let mut out = Vec::new();
    let mut depth = 0usize;
    // Brace depths at which inline (non-test) modules opened.
    let mut inline: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
            }
            "mod" if t.get(i + 2).is_some_and(|b| b == "{") => {
                if t.get(i + 1).is_some_and(|n| n == "tests") {
                    i = skip_block(&t, i + 2);
                    continue;
                }
                inline.push(depth);
            }
            "use" => {
                let end = t[i..]
                    .iter()
                    .position(|x| x == ";")
                    .map_or(t.len(), |p| i + p);
                for p in use_tree_paths(&t[i + 1..end]) {
                    if let Some(abs) = absolute(m, known, inline.len(), &p) {
                        out.push(abs);
                    }
                }
                i = end;
                continue;
            }
            tok if is_ident(tok.chars().next().unwrap_or(' '))
                && t.get(i + 1).is_some_and(|x| x == "::")
                && (i == 0 || t[i - 1] != "::") =>
            {
                let mut p = vec![tok.to_string()];
                let mut j = i + 1;
                while t.get(j).is_some_and(|x| x == "::")
                    && t.get(j + 1)
                        .is_some_and(|x| is_ident(x.chars().next().unwrap_or(' ')))
                {
                    p.push(t[j + 1].clone());
                    j += 2;
                }
                if let Some(abs) = absolute(m, known, inline.len(), &p) {
                    out.push(abs);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The tokens without `mod tests { .. }` blocks: tests may build configs as JSON.
fn without_tests(t: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        if t[i] == "mod"
            && t.get(i + 1).is_some_and(|n| n == "tests")
            && t.get(i + 2).is_some_and(|b| b == "{")
        {
            i = skip_block(t, i + 2);
            continue;
        }
        out.push(t[i].clone());
        i += 1;
    }
    out
}

/// The index after the block whose `{` is at `open`.
fn skip_block(t: &[String], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    t.len()
}

/// The paths a `use` tree names (`a::{b, c::d}` gives `a::b`, `a::c::d`).
fn use_tree_paths(t: &[String]) -> Vec<Vec<String>> {
    fn tree(t: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        while *i < t.len() {
            match t[*i].as_str() {
                "::" => *i += 1,
                "{" => {
                    *i += 1;
                    loop {
                        tree(t, i, &path, out);
                        match t.get(*i).map(String::as_str) {
                            Some(",") => *i += 1,
                            Some("}") => {
                                *i += 1;
                                return;
                            }
                            _ => return,
                        }
                        if t.get(*i).is_some_and(|x| x == "}") {
                            *i += 1;
                            return;
                        }
                    }
                }
                "," | "}" => break,
                "as" => *i += 2,
                "*" => *i += 1,
                seg => {
                    path.push(seg.to_string());
                    *i += 1;
                }
            }
        }
        out.push(path);
    }
    let mut out = Vec::new();
    let mut i = 0;
    tree(t, &mut i, &[], &mut out);
    out
}

/// `p` as an absolute path from the crate root, when it names something in the crate:
/// `crate::`, `self::`, `super::` (an inline module counts as one level) or a child module.
fn absolute(
    m: &[String],
    known: &BTreeSet<Vec<String>>,
    inline_depth: usize,
    p: &[String],
) -> Option<Vec<String>> {
    let first = p.first()?;
    match first.as_str() {
        "crate" => Some(p[1..].to_vec()),
        "self" => Some(m.iter().chain(&p[1..]).cloned().collect()),
        "super" => {
            let supers = p.iter().take_while(|s| *s == "super").count();
            let ups = supers.saturating_sub(inline_depth);
            let base = &m[..m.len().saturating_sub(ups)];
            Some(base.iter().chain(&p[supers..]).cloned().collect())
        }
        _ => {
            let mut child = m.to_vec();
            child.push(first.clone());
            known
                .contains(&child)
                .then(|| m.iter().chain(p).cloned().collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_repository_is_tidy() {
        let problems = check(&repo_root()).expect("sources readable");
        assert!(
            problems.is_empty(),
            "cargo xtask tidy:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn comments_and_strings_are_not_code() {
        let code = code_only(
            "let a = \"tiny_skia\"; // tiny_skia\n/* tiny_skia /* nested */ */ let c = 'x'; fn f<'a>(x: &'a u8) {}\nlet r = r#\"tiny_skia\"#; use tiny_skia::Paint;",
        );
        assert_eq!(code.matches("tiny_skia").count(), 1, "{code}");
        assert!(code.contains("fn f<'a>(x: &'a u8)"), "{code}");
        assert_eq!(code.lines().count(), 3);
    }

    #[test]
    fn use_trees_expand() {
        let t = tokens("crate::{color::Rgba, model::{self, Chart as C}, scopes::*}");
        assert_eq!(
            use_tree_paths(&t),
            vec![
                s(&["crate", "color", "Rgba"]),
                s(&["crate", "model", "self"]),
                s(&["crate", "model", "Chart"]),
                s(&["crate", "scopes"]),
            ]
        );
    }

    #[test]
    fn cycles_are_found_through_super_child_and_crate_paths() {
        let known: BTreeSet<Vec<String>> = [s(&[]), s(&["a"]), s(&["a", "b"]), s(&["c"])]
            .into_iter()
            .collect();
        let refs = |m: &[&str], text: &str| referenced_paths(&s(m), &known, text);
        // a/mod.rs uses its child b; b uses its parent's item: a cycle.
        assert!(refs(&["a"], "pub use b::X;").contains(&s(&["a", "b", "X"])));
        assert!(refs(&["a", "b"], "fn f() { super::helper(); }").contains(&s(&["a", "helper"])));
        // Inside an inline module, `super` is the file's module; tests blocks are skipped.
        assert!(refs(&["c"], "mod inner { use super::Y; }").contains(&s(&["c", "Y"])));
        assert!(refs(&["c"], "#[cfg(test)]\nmod tests { use crate::a::Z; }").is_empty());
        let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        g.entry(s(&["a"])).or_default().insert(s(&["a", "b"]));
        g.entry(s(&["a", "b"])).or_default().insert(s(&["a"]));
        g.entry(s(&["c"])).or_default().insert(s(&["a"]));
        let sccs: Vec<_> = strongly_connected(&g)
            .into_iter()
            .filter(|c| c.len() > 1)
            .collect();
        assert_eq!(sccs, vec![vec![s(&["a"]), s(&["a", "b"])]]);
    }

    #[test]
    fn path_mounts_and_parent_globs_are_reported() {
        let mut sources = BTreeMap::new();
        sources.insert(
            PathBuf::from("a.rs"),
            "#[path = \"x.rs\"]\nmod extra;\nuse super::*;\n".to_string(),
        );
        sources.insert(
            PathBuf::from("b.rs"),
            "#[cfg(test)]\nmod tests {\n    use super::*;\n}\n".to_string(),
        );
        let mut problems = Vec::new();
        plain_modules(&sources, &mut problems);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().all(|p| p.starts_with("a.rs")));
    }

    #[test]
    fn laid_out_values_may_not_hold_update_objects() {
        let (file, name) = LAID_OUT_VALUES[0];
        let mut sources = BTreeMap::new();
        sources.insert(
            PathBuf::from(file),
            format!("use crate::scales::Scale;\npub struct {name}<'a> {{\n    pub layout: Layout,\n}}\nfn f(s: &Scale) {{}}\n"),
        );
        let mut problems = Vec::new();
        laid_out_values_hold_no_update_objects(&sources, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        sources.insert(
            PathBuf::from(file),
            format!("pub struct {name} {{\n    pub ctrls: Vec<Box<dyn Controller>>,\n}}\n"),
        );
        laid_out_values_hold_no_update_objects(&sources, &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("holds a Controller"), "{problems:?}");
    }

    #[test]
    fn draw_modules_may_not_name_update_types() {
        let mut sources: BTreeMap<PathBuf, String> = DRAW_MODULES
            .iter()
            .map(|m| {
                let file = if m.ends_with('/') {
                    format!("{m}mod.rs")
                } else {
                    m.to_string()
                };
                (PathBuf::from(file), "use super::ScaleCore;\n".to_string())
            })
            .collect();
        let mut problems = Vec::new();
        draw_reads_laid_out_values(&sources, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        sources.insert(
            PathBuf::from(DRAW_MODULES[0]),
            "// Scale in a comment is fine\nfn f(s: &super::Scale) {}\n#[cfg(test)]\nmod tests { use super::Controller; }\n".to_string(),
        );
        draw_reads_laid_out_values(&sources, &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("names Scale"), "{problems:?}");
    }

    #[test]
    fn module_paths_follow_files() {
        assert_eq!(module_of(Path::new("lib.rs")), Some(vec![]));
        assert_eq!(module_of(Path::new("model/mod.rs")), Some(s(&["model"])));
        assert_eq!(
            module_of(Path::new("model/scale.rs")),
            Some(s(&["model", "scale"]))
        );
        assert_eq!(module_of(Path::new("bin/tool.rs")), None);
    }

    #[test]
    fn manifests_name_their_dependencies() {
        let m = "[package]\nname = \"x\"\n[dependencies]\nchart-spec.workspace = true\n# chart-cache\n[dev-dependencies]\nchart-http = { workspace = true }\n";
        let deps: Vec<(String, String)> = manifest_lines(m)
            .filter(|(sec, _, _)| sec.ends_with("dependencies"))
            .map(|(sec, k, _)| (sec, k))
            .collect();
        assert_eq!(
            deps,
            vec![
                ("dependencies".into(), "chart-spec".into()),
                ("dev-dependencies".into(), "chart-http".into())
            ]
        );
    }
}
