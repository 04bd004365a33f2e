//! A throwaway `redis-server` for tests: on a free loopback port, with
//! its own temporary directory, no persistence, killed when dropped.
//!
//! Tests call [`RedisServer::start_or_skip`]: without `redis-server` on the `PATH` it prints
//! why and returns `None` (the test returns early), unless `CHART_RASTER_REQUIRE_REDIS=1`,
//! where it panics instead (CI installs the server, so a missing one is a failure there).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A running (or stopped, see [`RedisServer::stop`]) `redis-server`.
pub struct RedisServer {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
    /// TLS only (`--tls-port`), with a certificate of a throwaway CA in `dir`.
    tls: bool,
}

impl RedisServer {
    /// A server on a free port, or `None` with a printed reason when `redis-server` is not
    /// installed (a panic when `CHART_RASTER_REQUIRE_REDIS=1`).
    pub fn start_or_skip(test: &str) -> Option<Self> {
        Self::start(test, false)
    }

    /// A server that speaks TLS only, with a certificate for `127.0.0.1` signed by a CA made
    /// for it (with the `openssl` command; [`RedisServer::ca_pem`] gives the CA). Skips like
    /// [`RedisServer::start_or_skip`], also when `openssl` or TLS support is missing.
    pub fn start_tls_or_skip(test: &str) -> Option<Self> {
        Self::start(test, true)
    }

    fn start(test: &str, tls: bool) -> Option<Self> {
        let runs = |cmd: &str, arg: &str| {
            Command::new(cmd)
                .arg(arg)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        let missing = if !runs("redis-server", "--version") {
            Some("redis-server is not installed (apt-get install redis-server)")
        } else if tls && !runs("openssl", "version") {
            Some("openssl is not installed (it makes the test certificates)")
        } else {
            None
        };
        if let Some(why) = missing {
            if std::env::var("CHART_RASTER_REQUIRE_REDIS").as_deref() == Ok("1") {
                panic!("{test}: {why}, and CHART_RASTER_REQUIRE_REDIS=1");
            }
            eprintln!("skipping {test}: {why}");
            return None;
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "chart-cache-redis-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("temporary directory for redis-server");
        if tls {
            make_certificates(&dir);
        }
        // A port taken between our probe and the server's bind makes the server exit: retry.
        for _ in 0..5 {
            let port = free_port();
            let mut server = Self {
                port,
                dir: dir.clone(),
                child: None,
                tls,
            };
            if server.spawn() {
                return Some(server);
            }
        }
        panic!("{test}: redis-server did not start");
    }

    /// `redis://127.0.0.1:<port>/0`, or `rediss://` for a TLS server.
    pub fn url(&self) -> String {
        let s = if self.tls { "s" } else { "" };
        format!("redis{s}://127.0.0.1:{}/0", self.port)
    }

    /// The PEM of the CA that signed a TLS server's certificate.
    pub fn ca_pem(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("ca.crt")).expect("ca.crt")
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server (as a crash would: no shutdown handshake).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Freezes the server (`SIGSTOP`): it keeps its connections but answers nothing, as a
    /// stalled Redis would. [`RedisServer::resume`] undoes it.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a paused server run again (`SIGCONT`).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, sig: &str) {
        if let Some(c) = &self.child {
            let ok = Command::new("kill")
                .args([sig, &c.id().to_string()])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "kill {sig} redis-server");
        }
    }

    /// Starts the server again on the same port (empty: nothing is persisted). Panics when it
    /// does not come up.
    pub fn restart(&mut self) {
        self.stop();
        // The old socket may linger for a moment.
        let until = Instant::now() + Duration::from_secs(10);
        while !self.spawn() {
            assert!(Instant::now() < until, "redis-server did not restart");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Starts the process and waits until it answers PING (a TLS server: accepts a
    /// connection); false if it exited or did not answer within five seconds.
    fn spawn(&mut self) -> bool {
        let port = self.port.to_string();
        let mut cmd = Command::new("redis-server");
        if self.tls {
            let file = |name: &str| self.dir.join(name);
            cmd.args(["--port", "0", "--tls-port", &port])
                .arg("--tls-cert-file")
                .arg(file("server.crt"))
                .arg("--tls-key-file")
                .arg(file("server.key"))
                .arg("--tls-ca-cert-file")
                .arg(file("ca.crt"))
                .args(["--tls-auth-clients", "no"]);
        } else {
            cmd.args(["--port", &port]);
        }
        let child = cmd
            .args(["--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&self.dir)
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .args(["--loglevel", "warning"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else { return false };
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Some(c) = self.child.as_mut() {
                if matches!(c.try_wait(), Ok(Some(_))) {
                    self.child = None;
                    return false;
                }
            }
            let up = if self.tls {
                TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_ok()
            } else {
                ping(self.port)
            };
            if up {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stop();
        false
    }

    /// A raw command over a fresh connection (inline protocol), its first reply line: for
    /// tests that look at Redis directly (`DBSIZE`, `PTTL key`, ...).
    pub fn command(&self, line: &str) -> String {
        let mut s = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(5))).ok();
        s.write_all(format!("{line}\r\n").as_bytes()).expect("send");
        let mut out = Vec::new();
        let mut b = [0u8; 1];
        while s.read(&mut b).is_ok_and(|n| n == 1) && b[0] != b'\n' {
            out.push(b[0]);
        }
        String::from_utf8_lossy(&out).trim_end().to_string()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A CA and a certificate for 127.0.0.1 signed by it, in `dir`.
fn make_certificates(dir: &std::path::Path) {
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").expect("san.ext");
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.crt",
            "-days",
            "2",
            "-subj",
            "/CN=chart-raster test CA",
        ],
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.crt",
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ],
    ];
    for args in steps {
        let ok = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "openssl {}", args.join(" "));
    }
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn ping(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return false;
    };
    s.set_read_timeout(Some(Duration::from_millis(500))).ok();
    let mut reply = [0u8; 5];
    s.write_all(b"PING\r\n").is_ok() && s.read_exact(&mut reply).is_ok() && &reply == b"+PONG"
}
