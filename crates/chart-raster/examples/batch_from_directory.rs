//! Renders every `*.json` file of a directory to PNG, on all cores, with the one-call API.
//!
//! ```sh
//! cargo run -p chart-raster --example batch_from_directory -- charts/ out/
//! ```
//!
//! A file is a request (the body of `POST /render`, with a `chart` key), an example of the
//! gallery (`{"title", "config", "width", "height"}`) or a bare Chart.js config. Without
//! arguments it renders the repository's `fixtures/examples` into the temporary directory.
//! A file that fails is reported and the others still render; the exit status says whether
//! any failed.

use chart_raster::{render, RenderOptions};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let input = args
        .next()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/examples"));
    let output = args
        .next()
        .unwrap_or_else(|| std::env::temp_dir().join("chart-raster-batch"));
    std::fs::create_dir_all(&output)?;

    let mut files: Vec<PathBuf> = std::fs::read_dir(&input)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();

    // `render` shares one engine (fonts found once) between threads; each thread takes the
    // next file until none is left.
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(files.len()) {
            scope.spawn(|| {
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    match render_file(file, &output) {
                        Ok(line) => println!("{line}"),
                        Err(e) => {
                            let failed = format!("{}: {e}", file.display());
                            eprintln!("{failed}");
                            failures
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .push(failed);
                        }
                    }
                }
            });
        }
    });

    let failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    println!(
        "{} of {} files rendered into {}",
        files.len() - failures.len(),
        files.len(),
        output.display()
    );
    if files.is_empty() || !failures.is_empty() {
        return Err(format!("{} failed, {} found", failures.len(), files.len()).into());
    }
    Ok(())
}

/// Renders one file to `<output>/<stem>.png`; the line to print.
fn render_file(file: &Path, output: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let value: Value = serde_json::from_slice(&std::fs::read(file)?)?;
    let options = RenderOptions::from_json(&as_request(value))?;
    let image = render(&options)?;
    let stem = file.file_stem().unwrap_or(file.as_os_str());
    let out = output.join(stem).with_extension(options.format.extension());
    std::fs::write(&out, &image.bytes)?;
    Ok(format!(
        "{} -> {} ({} bytes, {} messages)",
        file.display(),
        out.display(),
        image.bytes.len(),
        image.messages.len()
    ))
}

/// The request a file stands for: itself if it has a `chart`, else built around its config.
fn as_request(value: Value) -> Value {
    let Value::Object(mut file) = value else {
        // Not an object: the parser names the problem.
        return value;
    };
    if file.contains_key("chart") {
        return Value::Object(file);
    }
    let mut request = Map::new();
    match file.remove("config") {
        // A gallery example: its canvas size comes with it.
        Some(config) => {
            request.insert("chart".into(), config);
            for key in ["width", "height"] {
                if let Some(v) = file.remove(key) {
                    request.insert(key.into(), v);
                }
            }
        }
        None => {
            request.insert("chart".into(), Value::Object(file));
        }
    }
    Value::Object(request)
}
