//! The processes: one chromedriver on a free loopback port, and per session one headless
//! Chromium with a fresh profile directory.

use crate::page::{self, PageError};
use crate::BrowserError;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Map};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::process::{Child, Command};

/// How long chromedriver may take to listen, and a session to open. Chromium's cold start on a
/// loaded two-core machine takes a few seconds; these only bound a broken installation.
const START_LIMIT: Duration = Duration::from_secs(30);

/// The flags of issue 4: headless, no sandbox (containers), nothing that phones home.
/// `--force-color-profile=srgb` keeps colours as written; the dead proxy and the resolver rule
/// are a second fence behind the page's CSP: even a request that got past it goes nowhere.
fn chromium_args(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--disable-extensions",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--disable-default-apps",
        "--mute-audio",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--window-size=1280,1024",
        "--proxy-server=http://127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// Finds `name` in the directories of `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A running chromedriver.
pub struct Driver {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub url: String,
}

impl Driver {
    /// Starts chromedriver on a free loopback port and waits until it accepts connections.
    pub async fn start(program: &Path) -> Result<Self, BrowserError> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| BrowserError::Unavailable(format!("no free loopback port: {e}")))?
            .port();
        let mut child = Command::new(program)
            .arg(format!("--port={port}"))
            // Only this process talks to it.
            .arg("--allowed-ips=127.0.0.1")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                BrowserError::Unavailable(format!(
                    "cannot start chromedriver {}: {e}",
                    program.display()
                ))
            })?;
        let deadline = tokio::time::Instant::now() + START_LIMIT;
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(BrowserError::Unavailable(format!(
                    "chromedriver {} exited at start ({status})",
                    program.display()
                )));
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            if tokio::time::Instant::now() > deadline {
                return Err(BrowserError::Unavailable(format!(
                    "chromedriver did not listen on port {port} within {START_LIMIT:?}"
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        })
    }

    /// Its process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Stops it (its sessions' Chromiums are stopped by [`Session`]).
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// A fresh Chromium profile directory and the Chromium using it. Dropping it kills that
/// Chromium and removes the directory, whatever happened before: a failed or abandoned start
/// (the caller's future dropped mid-connect) leaks no browser.
struct Profile {
    dir: PathBuf,
    /// Found once Chromium runs.
    pid: Option<u32>,
}

impl Profile {
    fn create(dir: PathBuf) -> Result<Self, BrowserError> {
        std::fs::create_dir_all(&dir).map_err(|e| {
            BrowserError::Unavailable(format!("cannot create {}: {e}", dir.display()))
        })?;
        Ok(Self { dir, pid: None })
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        // chromedriver quits Chromium only on a session delete, which a timed-out, crashed or
        // abandoned session never sends.
        match self.pid {
            Some(pid) => kill_if_ours(pid, &self.dir),
            None => kill_chromium_of(&self.dir),
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One WebDriver session: one Chromium with one tab holding the prepared page.
pub struct Session {
    /// The WebDriver client.
    pub client: Client,
    /// Which chromedriver start this session belongs to.
    pub generation: u64,
    profile: Profile,
    /// The engine's count of live sessions, decremented when this one is dropped (however it
    /// ends: closed, discarded, or its render future dropped by a caller's timeout).
    live: Arc<AtomicUsize>,
}

impl Session {
    /// Launches Chromium through chromedriver and prepares the page.
    pub async fn open(
        driver_url: String,
        chromium: PathBuf,
        profile_dir: PathBuf,
        sources: Arc<Vec<String>>,
        page_timeout: Duration,
        generation: u64,
        live: Arc<AtomicUsize>,
    ) -> Result<Self, BrowserError> {
        let mut profile = Profile::create(profile_dir)?;
        // Never below START_LIMIT: the setup script (compiling ~600 kB of bundles) runs under
        // this limit too, and a render is bounded more tightly by the engine's own timeout.
        let ms = page_timeout.max(START_LIMIT).as_millis() as u64;
        let mut caps = Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("pageLoadStrategy".into(), json!("normal"));
        // chromedriver's own limit on scripts and loads, a backstop behind the engine's
        // timeout (which discards the session).
        caps.insert(
            "timeouts".into(),
            json!({ "script": ms, "pageLoad": ms, "implicit": 0 }),
        );
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": chromium, "args": chromium_args(&profile.dir) }),
        );
        let connect = async {
            ClientBuilder::new(HttpConnector::new())
                .capabilities(caps)
                .connect(&driver_url)
                .await
        };
        let client = match tokio::time::timeout(START_LIMIT, connect).await {
            Ok(Ok(client)) => client,
            Ok(Err(e)) => {
                return Err(BrowserError::Unavailable(format!(
                    "cannot start Chromium {}: {e}",
                    chromium.display()
                )));
            }
            Err(_) => {
                return Err(BrowserError::Unavailable(format!(
                    "Chromium did not start within {START_LIMIT:?}"
                )));
            }
        };
        profile.pid = find_chromium_pid(&profile.dir);
        live.fetch_add(1, Ordering::SeqCst);
        let session = Session {
            client,
            generation,
            profile,
            live,
        };
        match tokio::time::timeout(START_LIMIT, page::setup(&session.client, &sources)).await {
            Ok(Ok(())) => Ok(session),
            Ok(Err(PageError::Driver(e))) | Ok(Err(PageError::Page(e))) => {
                session.close().await;
                Err(BrowserError::Unavailable(format!(
                    "cannot prepare the Chart.js page: {e}"
                )))
            }
            Err(_) => {
                session.close().await;
                Err(BrowserError::Unavailable(format!(
                    "the Chart.js page did not load within {START_LIMIT:?}"
                )))
            }
        }
    }

    /// The Chromium main process, for tests that kill it.
    pub fn chromium_pid(&self) -> Option<u32> {
        self.profile.pid
    }

    /// Ends the session (chromedriver quits Chromium); dropping it then makes sure Chromium
    /// is gone and removes the profile.
    pub async fn close(self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client.clone().close()).await;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The browser main process started with `--user-data-dir=<profile>` (its helpers carry
/// `--type=`). Linux-only (`/proc`); elsewhere `None`, and cleanup relies on chromedriver.
fn find_chromium_pid(profile: &Path) -> Option<u32> {
    chromium_pids(profile).into_iter().next()
}

fn chromium_pids(profile: &Path) -> Vec<u32> {
    let flag = format!("--user-data-dir={}", profile.display());
    browser_pids(|arg| arg == flag.as_bytes())
}

/// Chromium main processes whose profile lies under `root`.
pub fn chromium_pids_under(root: &Path) -> Vec<u32> {
    let prefix = format!("--user-data-dir={}/", root.display());
    browser_pids(|arg| arg.starts_with(prefix.as_bytes()))
}

/// Kills every Chromium whose profile lies under `root`.
pub fn kill_chromium_under(root: &Path) {
    for pid in chromium_pids_under(root) {
        kill(pid);
    }
}

/// Browser main processes (not `--type=` helpers) with an argument matching `wanted`.
fn browser_pids(wanted: impl Fn(&[u8]) -> bool) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                return false;
            };
            let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
            args.iter().any(|a| wanted(a)) && !args.iter().any(|a| a.starts_with(b"--type="))
        })
        .collect()
}

/// Kills `pid` only if it is still the Chromium of `profile` (pids get reused).
fn kill_if_ours(pid: u32, profile: &Path) {
    if chromium_pids(profile).contains(&pid) {
        kill(pid);
    }
}

fn kill_chromium_of(profile: &Path) {
    for pid in chromium_pids(profile) {
        kill(pid);
    }
}

fn kill(pid: u32) {
    // std has no signal API; the `kill` utility is on every system that has /proc.
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}
