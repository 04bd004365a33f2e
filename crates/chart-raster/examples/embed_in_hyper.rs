//! Embeds the render [`Service`] in your own hyper server: a `POST /render` route next to
//! your other routes, with the service's cache, queue and deadlines.
//!
//! ```sh
//! cargo run -p chart-raster --example embed_in_hyper -- --serve 127.0.0.1:3000
//! curl -s localhost:3000/render -d '{"chart": {"type": "pie", "data": {"datasets": [{"data": [1, 2]}]}}}' -o pie.png
//! ```
//!
//! Without `--serve` it starts on a free port, sends itself one request, checks the answer
//! and exits (what CI runs). The full server of this repository, with every route, limit and
//! header, is the `chart-http` crate.

use bytes::Bytes;
use chart_raster::{Service, ServiceConfig, ServiceError};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use tokio::net::TcpListener;

/// The largest request body read, as the `chart-http` server's default.
const MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let serve = match args.as_slice() {
        [flag, addr] if flag == "--serve" => Some(addr.clone()),
        [] => None,
        _ => return Err("usage: embed_in_hyper [--serve ADDR]".into()),
    };
    let listener = TcpListener::bind(serve.as_deref().unwrap_or("127.0.0.1:0")).await?;
    let addr = listener.local_addr()?;
    // One service for the whole server: clones share its cache and render slots.
    let service = Service::new(ServiceConfig::default());

    let server = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let service = service.clone();
            let handler = hyper::service::service_fn(move |req| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(route(&service, req).await) }
            });
            tokio::spawn(async move {
                let conn = hyper::server::conn::http1::Builder::new();
                // A client that goes away mid-request ends here.
                let _ = conn.serve_connection(TokioIo::new(stream), handler).await;
            });
        }
    });

    if serve.is_some() {
        println!("listening on http://{addr}");
        server.await?;
        return Ok(());
    }
    let (status, content_type, body) = post(addr, "/render", SELF_CHECK).await?;
    println!(
        "POST /render: {status}, {content_type}, {} bytes",
        body.len()
    );
    if status != StatusCode::OK || content_type != "image/png" || !body.starts_with(b"\x89PNG") {
        return Err(format!("unexpected answer: {}", String::from_utf8_lossy(&body)).into());
    }
    let (status, _, body) = post(addr, "/render", br#"{"chart": 1}"#).await?;
    println!(
        "POST /render with a bad body: {status}, {}",
        String::from_utf8_lossy(&body)
    );
    if status != StatusCode::BAD_REQUEST {
        return Err("a bad request was not answered 400".into());
    }
    server.abort();
    Ok(())
}

const SELF_CHECK: &[u8] = br#"{"chart": {"type": "line", "data": {"labels": ["a", "b", "c"],
    "datasets": [{"label": "n", "data": [3, 1, 2]}]}}, "width": 400, "height": 300}"#;

/// The application's routes; the chart route hands the body to the service.
async fn route(service: &Service, req: Request<Incoming>) -> Response<Full<Bytes>> {
    if req.method() != Method::POST || req.uri().path() != "/render" {
        return answer(
            StatusCode::NOT_FOUND,
            "application/json",
            r#"{"error":"Not found"}"#,
        );
    }
    // Bounded: a client cannot make the server hold an arbitrary body.
    let body = match Limited::new(req.into_body(), MAX_BODY_BYTES)
        .collect()
        .await
    {
        Ok(body) => body.to_bytes(),
        Err(e) => return error(StatusCode::PAYLOAD_TOO_LARGE, &e.to_string()),
    };
    let options = match chart_raster::RenderOptions::from_json_bytes(&body) {
        Ok(options) => options,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    match service.render(options).await {
        Ok(image) => answer(StatusCode::OK, image.content_type, image.bytes),
        Err(e) => error(status_of(&e), &e.to_string()),
    }
}

/// The HTTP status of a failed render, as `chart-http` answers it.
fn status_of(e: &ServiceError) -> StatusCode {
    match e {
        ServiceError::Request(_) | ServiceError::Rejected(_) => StatusCode::BAD_REQUEST,
        ServiceError::Busy { .. }
        | ServiceError::QueueMemory { .. }
        | ServiceError::QueueTimeout(_)
        | ServiceError::ShuttingDown
        | ServiceError::BrowserUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        ServiceError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn error(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({ "error": message }).to_string();
    answer(status, "application/json", body)
}

fn answer(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    if let Ok(value) = content_type.parse() {
        response
            .headers_mut()
            .insert(hyper::header::CONTENT_TYPE, value);
    }
    response
}

/// One request to the server over a fresh connection: status, content type and body.
async fn post(
    addr: std::net::SocketAddr,
    path: &str,
    body: &'static [u8],
) -> Result<(StatusCode, String, Bytes), Box<dyn std::error::Error>> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(conn);
    let req = Request::post(path)
        .header(hyper::header::HOST, addr.to_string())
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from_static(body)))?;
    let response = sender.send_request(req).await?;
    let status = response.status();
    let content_type = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, content_type, body))
}
