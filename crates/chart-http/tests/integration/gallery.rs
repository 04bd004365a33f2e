//! `GET /examples` in a real headless Chromium: the page renders every example through the
//! server, and every image loads.

use crate::common::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Chromium, or why the test cannot run here (then it is skipped, unless
/// `CHART_RASTER_REQUIRE_BROWSER=1`, as in CI).
fn chromium() -> Option<PathBuf> {
    match chart_raster::browser::BrowserConfig::from_env().resolve_chromium() {
        Ok(p) => Some(p),
        Err(e) => {
            assert!(
                std::env::var("CHART_RASTER_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "CHART_RASTER_REQUIRE_BROWSER=1 but {e}"
            );
            eprintln!("skipping the gallery test: {e}");
            None
        }
    }
}

/// The page's DOM once its scripts and fetches have settled (`--dump-dom` after a virtual
/// time budget, which does not advance while fetches are pending).
async fn dump_dom(chromium: PathBuf, url: String) -> String {
    tokio::task::spawn_blocking(move || {
        let profile = std::env::temp_dir().join(format!(
            "chart-http-gallery-{}-{}",
            std::process::id(),
            url.len()
        ));
        let mut child = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--virtual-time-budget=120000",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(&url)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut out, &mut s);
            s
        });
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(240) {
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(&profile);
        reader.join().unwrap()
    })
    .await
    .unwrap()
}

fn count(dom: &str, needle: &str) -> usize {
    dom.matches(needle).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_gallery_image_loads_in_chromium() {
    let Some(chromium) = chromium() else {
        return;
    };
    let s = Server::default().await;
    let examples = chart_raster::examples::all().unwrap();
    let n = examples.len();
    assert!(n >= 30);

    let dom = dump_dom(chromium.clone(), format!("http://{}/examples", s.addr)).await;
    assert_eq!(count(&dom, "data-example=\""), n, "one card per example");
    assert_eq!(count(&dom, "data-loaded=\"true\""), n, "every image loaded");
    assert_eq!(count(&dom, "class=\"status error\""), 0, "no failed render");
    // Rendered at devicePixelRatio 2: each image is twice its CSS size in pixels.
    for e in &examples {
        let card = dom
            .split(&format!("data-example=\"{}\"", e.name))
            .nth(1)
            .and_then(|rest| rest.split("data-example=\"").next())
            .unwrap_or_else(|| panic!("no card for {}", e.name));
        let size = format!(
            "data-natural-size=\"{}x{}\"",
            (e.width * 2.0).floor(),
            (e.height * 2.0).floor()
        );
        assert!(card.contains(&size), "{}: want {size} in {card}", e.name);
    }

    // Side by side: two panes per card; the browser engine is made unavailable in these
    // tests, so its panes say so and the skia panes still load.
    let dom = dump_dom(chromium, format!("http://{}/examples?engine=both", s.addr)).await;
    assert_eq!(count(&dom, "data-engine=\"skia\""), n);
    assert_eq!(count(&dom, "data-engine=\"browser\""), n);
    assert_eq!(count(&dom, "data-loaded=\"true\""), n);
    assert_eq!(count(&dom, "browser engine unavailable"), n);
}
