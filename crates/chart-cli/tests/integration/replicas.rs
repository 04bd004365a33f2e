//! Two `chart-raster serve` processes sharing their cache through a real `redis-server` with a
//! password (`CACHE_URL=redis://:password@...`): what one renders, the other serves byte for
//! byte, and the password is never logged. Skipped with a printed reason when `redis-server`
//! is not installed, unless `CHART_RASTER_REQUIRE_REDIS=1`.

use super::{raw_request, start_serve};
use chart_raster::cache::testing::RedisServer;
use std::io::Read;
use std::time::{Duration, Instant};

/// One request over a fresh connection: status line, lower-cased head, body.
fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> (String, String, Vec<u8>) {
    let out = raw_request(addr, method, path, body);
    let split = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&out[..split]).to_lowercase();
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, head, out[split + 4..].to_vec())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .map(str::trim)
}

#[test]
fn two_serve_processes_share_one_redis() {
    let Some(redis) = RedisServer::start_or_skip("two_serve_processes_share_one_redis") else {
        return;
    };
    assert_eq!(redis.command("CONFIG SET requirepass s3cret"), "+OK");
    let url = format!("redis://:s3cret@127.0.0.1:{}/0", redis.port());
    let env = [("CACHE_URL", url.as_str())];
    let (mut a, mut a_err, a_addr, _) = start_serve(&env);
    let (mut b, mut b_err, b_addr, _) = start_serve(&env);
    for addr in [&a_addr, &b_addr] {
        let start = Instant::now();
        while !String::from_utf8_lossy(&http(addr, "GET", "/health", b"").2)
            .contains("\"backend\":\"redis\",\"connected\":true")
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{addr} never connected"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let req = br#"{"chart":{"type":"bar","data":{"labels":["a","b"],"datasets":[{"data":[3,5]}]}},"width":300,"height":200}"#;
    let (status, head, png) = http(&a_addr, "POST", "/render", req);
    assert!(status.contains(" 200"), "{status}");
    assert_eq!(header(&head, "x-cache-hit"), Some("false"));
    let hash = header(&head, "x-cache-hash").unwrap().to_string();
    // The cache URL A handed out, asked at B.
    let (status, head, at_b) = http(&b_addr, "GET", &format!("/cache/{hash}"), b"");
    assert!(status.contains(" 200"), "{status}");
    assert_eq!(header(&head, "content-type"), Some("image/png"));
    assert_eq!(at_b, png, "byte for byte");
    let (_, head, again) = http(&b_addr, "POST", "/render", req);
    assert_eq!(header(&head, "x-cache-hit"), Some("true"));
    assert_eq!(again, png);
    for child in [&mut a, &mut b] {
        let ok = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
        assert!(child.wait().unwrap().success());
    }
    for err in [&mut a_err, &mut b_err] {
        let mut log = String::new();
        err.read_to_string(&mut log).unwrap();
        assert!(
            log.contains("cache: connected to Redis at redis://***@127.0.0.1:"),
            "{log}"
        );
        assert!(
            !log.contains("s3cret"),
            "the password is never logged: {log}"
        );
    }
}
