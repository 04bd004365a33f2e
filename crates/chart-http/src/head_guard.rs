//! The request-head guard: every error must be a JSON body, but hyper answers some requests
//! itself, with an empty body, before our service ever sees them: a head longer than its read
//! buffer or with too many fields (431), a request target over 65,534 bytes (414), a head its
//! parser rejects (400). No hyper option attaches a body to those answers.
//!
//! So this layer sits between the socket and hyper. It follows HTTP/1.1 message framing
//! (RFC 9112 §6: a head, then a body of `Content-Length` bytes or chunks) over the bytes the
//! client sends, checks every request head with the parser hyper uses (httparse) and the same
//! rules hyper applies after it (method, target, header names, `Transfer-Encoding` and
//! `Content-Length`, mirroring `Server::parse` in hyper's `proto/h1/role.rs`), under bounds at
//! or below hyper's own. A head that fails is never handed to hyper: the guard writes a JSON
//! error itself and closes the connection. Hyper therefore only ever sees heads it accepts,
//! and its own limits are a backstop that cannot be reached first.
//!
//! Bodies are not buffered, only counted. Where the framing can no longer be followed (a
//! chunked body hyper will reject, which hyper reports to the handler as a body error and a
//! JSON 400), the guard stops checking for the rest of that connection, which then ends.
//!
//! Known limit: a pipelined bad head that arrives while an earlier request on the same
//! connection is still being answered gets its error first, and the earlier request is
//! dropped with the connection.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Longest request target (path and query) in bytes: hyper's own hard limit (`u16::MAX - 1`),
/// which a `GET /render?chart=...` URL may use up to. Longer: 414.
pub const MAX_TARGET_BYTES: usize = 65_534;

/// Longest request head (request line and header fields) in bytes: room for the longest
/// target plus 64 KiB of fields, and below hyper's read buffer (about 400 KB) so hyper's bare
/// 431 is never reached first. Longer: 431.
pub const MAX_HEAD_BYTES: usize = 128 * 1024;

/// Most header fields in one head (hyper's default). More: 431.
pub const MAX_HEADERS: usize = 100;

/// Bytes of chunk extensions hyper accepts in one body (its `CHUNKED_EXTENSIONS_LIMIT`).
const MAX_CHUNK_EXTENSION_BYTES: u64 = 16 * 1024;

/// Bytes of trailer fields hyper accepts (its `TRAILER_LIMIT`).
const MAX_TRAILER_BYTES: usize = 16 * 1024;

/// A request the guard answers itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// 400, 414 or 431.
    pub status: u16,
    /// The `error` of the JSON body.
    pub message: String,
}

impl Rejection {
    fn malformed(why: impl std::fmt::Display) -> Self {
        Self {
            status: 400,
            message: format!("Malformed HTTP request: {why}"),
        }
    }

    fn target_too_long() -> Self {
        Self {
            status: 414,
            message: format!(
                "URI too long: the request target is limited to {MAX_TARGET_BYTES} bytes; \
                 send large charts with POST /render"
            ),
        }
    }

    fn head_too_large() -> Self {
        Self {
            status: 431,
            message: format!(
                "Request header fields too large: a request head is limited to \
                 {MAX_HEAD_BYTES} bytes and {MAX_HEADERS} fields"
            ),
        }
    }
}

/// Where the client's byte stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// In a request head (or before one).
    Head,
    /// In a body with this many bytes left.
    Body(u64),
    /// In a chunked body.
    Chunked(Chunk),
    /// No longer followed: hyper's rules alone apply to the rest of the connection.
    Off,
}

/// Chunked-body states, as in hyper's `ChunkedState` (`proto/h1/decode.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunk {
    Start,
    Size(u64),
    SizeLws(u64),
    Extension(u64),
    SizeLf(u64),
    Data(u64),
    DataCr,
    DataLf,
    EndCr,
    Trailer,
    TrailerLf,
    EndLf,
}

/// The framing follower: fed every byte the client sends, in order.
#[derive(Debug)]
pub struct Framing {
    frame: Frame,
    /// The head so far (at most [`MAX_HEAD_BYTES`] + 1 bytes).
    head: Vec<u8>,
    /// Non-CR bytes in the current head line.
    line_len: usize,
    /// Complete non-empty lines of the current head.
    lines: usize,
    /// Chunk extension bytes of the current body.
    extension_bytes: u64,
    /// Trailer bytes of the current body.
    trailer_bytes: usize,
}

impl Default for Framing {
    fn default() -> Self {
        Self {
            frame: Frame::Head,
            head: Vec::new(),
            line_len: 0,
            lines: 0,
            extension_bytes: 0,
            trailer_bytes: 0,
        }
    }
}

impl Framing {
    /// Follows `bytes`; a head that hyper must not see is returned as a rejection (the rest
    /// of `bytes` is then irrelevant: the connection ends).
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Rejection> {
        let mut i = 0;
        while i < bytes.len() {
            match self.frame {
                Frame::Off => return Ok(()),
                Frame::Body(left) => {
                    let take = left.min((bytes.len() - i) as u64);
                    i += take as usize;
                    self.frame = if left == take {
                        Frame::Head
                    } else {
                        Frame::Body(left - take)
                    };
                }
                Frame::Chunked(Chunk::Data(left)) => {
                    let take = left.min((bytes.len() - i) as u64);
                    i += take as usize;
                    self.frame = Frame::Chunked(if left == take {
                        Chunk::DataCr
                    } else {
                        Chunk::Data(left - take)
                    });
                }
                Frame::Chunked(state) => {
                    self.frame = self.chunk_byte(state, bytes[i]);
                    i += 1;
                }
                Frame::Head => {
                    self.head_byte(bytes[i])?;
                    i += 1;
                }
            }
        }
        Ok(())
    }

    fn head_byte(&mut self, b: u8) -> Result<(), Rejection> {
        if b == b'\n' && self.line_len == 0 && self.lines == 0 {
            // httparse skips empty lines before the request line (RFC 9112 §2.2).
            self.head.clear();
            return Ok(());
        }
        self.head.push(b);
        match b {
            b'\n' if self.line_len == 0 => return self.end_of_head(),
            b'\n' => {
                self.lines += 1;
                self.line_len = 0;
                if self.lines > MAX_HEADERS + 1 {
                    return Err(Rejection::head_too_large());
                }
            }
            b'\r' => {}
            _ => self.line_len += 1,
        }
        if self.head.len() > MAX_HEAD_BYTES {
            // Still in the request line: it is the target that is too long.
            return Err(if self.lines == 0 {
                Rejection::target_too_long()
            } else {
                Rejection::head_too_large()
            });
        }
        Ok(())
    }

    /// A complete head: parsed and checked as hyper would, then the body's framing.
    fn end_of_head(&mut self) -> Result<(), Rejection> {
        let next = check_head(&self.head)?;
        self.head.clear();
        if self.head.capacity() > 16 * 1024 {
            // One large head does not pin its buffer for the connection's life.
            self.head = Vec::new();
        }
        self.lines = 0;
        self.line_len = 0;
        self.extension_bytes = 0;
        self.trailer_bytes = 0;
        self.frame = next;
        Ok(())
    }

    fn chunk_byte(&mut self, state: Chunk, b: u8) -> Frame {
        let hex = |b: u8| (b as char).to_digit(16).map(u64::from);
        let grow = |size: u64, d: u64| size.checked_mul(16).and_then(|s| s.checked_add(d));
        let next = match (state, b) {
            (Chunk::Start, b) => hex(b).map(Chunk::Size),
            (Chunk::Size(size), b) if hex(b).is_some() => {
                hex(b).and_then(|d| grow(size, d)).map(Chunk::Size)
            }
            (Chunk::Size(size) | Chunk::SizeLws(size), b'\t' | b' ') => Some(Chunk::SizeLws(size)),
            (Chunk::Size(size) | Chunk::SizeLws(size), b';') => Some(Chunk::Extension(size)),
            (Chunk::Size(size) | Chunk::SizeLws(size) | Chunk::Extension(size), b'\r') => {
                Some(Chunk::SizeLf(size))
            }
            (Chunk::Extension(_), b'\n') => None,
            (Chunk::Extension(size), _) => {
                self.extension_bytes += 1;
                (self.extension_bytes < MAX_CHUNK_EXTENSION_BYTES).then_some(Chunk::Extension(size))
            }
            (Chunk::SizeLf(0), b'\n') => Some(Chunk::EndCr),
            (Chunk::SizeLf(size), b'\n') => Some(Chunk::Data(size)),
            (Chunk::DataCr, b'\r') => Some(Chunk::DataLf),
            (Chunk::DataLf, b'\n') => Some(Chunk::Start),
            (Chunk::EndCr, b'\r') => Some(Chunk::EndLf),
            (Chunk::EndCr | Chunk::Trailer, b) => {
                self.trailer_bytes += 1;
                let next = if b == b'\r' {
                    Chunk::TrailerLf
                } else {
                    Chunk::Trailer
                };
                (self.trailer_bytes <= MAX_TRAILER_BYTES).then_some(next)
            }
            (Chunk::TrailerLf, b'\n') => Some(Chunk::EndCr),
            (Chunk::EndLf, b'\n') => return Frame::Head,
            _ => None,
        };
        // A framing error: hyper fails the body (the handler answers it) and the connection
        // ends; nothing after it needs following.
        next.map_or(Frame::Off, Frame::Chunked)
    }
}

/// Checks a complete head as hyper's server parser does and returns the framing of its body.
fn check_head(head: &[u8]) -> Result<Frame, Rejection> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut fields);
    match req.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(Rejection::malformed("incomplete head")),
        Err(httparse::Error::TooManyHeaders) => return Err(Rejection::head_too_large()),
        Err(e) => return Err(Rejection::malformed(e)),
    }
    let target = req.path.unwrap_or_default();
    if target.len() > MAX_TARGET_BYTES {
        return Err(Rejection::target_too_long());
    }
    let method = req.method.unwrap_or_default();
    if hyper::Method::from_bytes(method.as_bytes()).is_err() {
        return Err(Rejection::malformed("invalid method"));
    }
    if hyper::Uri::try_from(target).is_err() {
        return Err(Rejection::malformed("invalid request target"));
    }
    let http11 = req.version == Some(1);
    let mut te = false;
    let mut te_chunked = false;
    let mut length: Option<u64> = None;
    for f in req.headers.iter() {
        if hyper::header::HeaderName::from_bytes(f.name.as_bytes()).is_err() {
            return Err(Rejection::malformed("invalid header name"));
        }
        if f.name.eq_ignore_ascii_case("transfer-encoding") {
            if !http11 {
                return Err(Rejection::malformed(
                    "HTTP/1.0 cannot have a Transfer-Encoding header",
                ));
            }
            // As hyper: a later Transfer-Encoding overrides any Content-Length, and only
            // the last one's final coding counts.
            te = true;
            length = None;
            te_chunked = last_coding_is_chunked(f.value);
        } else if f.name.eq_ignore_ascii_case("content-length") && !te {
            let n = digits(f.value)
                .filter(|&n| n <= u64::MAX - 2)
                .ok_or_else(|| Rejection::malformed("invalid Content-Length"))?;
            if length.is_some_and(|prev| prev != n) {
                return Err(Rejection::malformed("conflicting Content-Length headers"));
            }
            length = Some(n);
        }
    }
    if te && !te_chunked {
        return Err(Rejection::malformed(
            "a request's Transfer-Encoding must end with chunked",
        ));
    }
    Ok(if te_chunked {
        Frame::Chunked(Chunk::Start)
    } else {
        match length {
            Some(n) if n > 0 => Frame::Body(n),
            _ => Frame::Head,
        }
    })
}

/// hyper's `is_chunked_`: the value is visible ASCII and its last coding is `chunked`.
fn last_coding_is_chunked(value: &[u8]) -> bool {
    let visible = value.iter().all(|&b| (32..127).contains(&b) || b == b'\t');
    visible
        && std::str::from_utf8(value).is_ok_and(|s| {
            s.rsplit(',')
                .next()
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("chunked"))
        })
}

/// hyper's `from_digits`: decimal digits only, no sign, no overflow.
fn digits(value: &[u8]) -> Option<u64> {
    if value.is_empty() {
        return None;
    }
    value.iter().try_fold(0u64, |n, &b| {
        if b.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        } else {
            None
        }
    })
}

/// Writes the answer to a rejected head (given the rejection, the raw HTTP response).
pub type Respond = Box<dyn FnOnce(Rejection) -> Vec<u8> + Send>;

/// Bytes read and dropped after a rejection, at most (see [`State::Draining`]).
const DRAIN_BYTES: usize = 16 * 1024 * 1024;

/// Time spent draining after a rejection, at most.
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(2);

enum State {
    Open(Option<Respond>),
    /// Writing our own error response.
    Rejecting {
        out: Vec<u8>,
        written: usize,
    },
    /// Our side is shut down; what the client still sends is read and dropped for a while.
    /// Closing a socket with unread input makes the kernel send a reset, which can destroy
    /// our response before the client reads it (the "lingering close" of RFC 9112 §9.6).
    Draining {
        left: usize,
        until: Pin<Box<tokio::time::Sleep>>,
    },
    Closed,
}

/// A connection whose incoming bytes are checked by [`Framing`] before hyper reads them, and
/// whose writes fail once the client has taken none of them for `write_timeout`.
pub struct GuardedStream<S> {
    inner: S,
    framing: Framing,
    state: State,
    write_timeout: std::time::Duration,
    /// Since when a write has been waiting for the client to read (`None`: the last one went
    /// through).
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> GuardedStream<S> {
    /// Guards `inner`; `respond` builds the one error response a rejected head gets, and a
    /// write that makes no progress for `write_timeout` fails (see [`GuardedStream::stall`]).
    pub fn new(inner: S, respond: Respond, write_timeout: std::time::Duration) -> Self {
        Self {
            inner,
            framing: Framing::default(),
            state: State::Open(Some(respond)),
            write_timeout,
            stalled: None,
        }
    }

    /// The outcome of a write to the socket, with the write timeout applied: a client that
    /// sent a request and stopped reading its answer would otherwise keep the connection,
    /// the response hyper holds (an image of megabytes) and a `MAX_CONNECTIONS` slot for
    /// ever, since TCP keeps a connection whose peer's window stays closed. As nginx's
    /// `send_timeout`, the time runs between two writes that make progress, not over the
    /// whole response, so a slow but steady reader is served. Past it the write fails with
    /// `TimedOut`, which ends hyper's connection.
    fn stall<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.write_timeout;
        let since = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match since.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read none of its response within the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for GuardedStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            match &mut this.state {
                // hyper sees the end of the stream (an unfinished head is dropped quietly).
                State::Closed => return Poll::Ready(Ok(())),
                State::Rejecting { out, written } => {
                    while *written < out.len() {
                        let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &out[*written..]))?;
                        if n == 0 {
                            return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                        }
                        *written += n;
                    }
                    ready!(Pin::new(&mut this.inner).poll_flush(cx))?;
                    // Best effort: the peer may already be gone.
                    let _ = ready!(Pin::new(&mut this.inner).poll_shutdown(cx));
                    this.state = State::Draining {
                        left: DRAIN_BYTES,
                        until: Box::pin(tokio::time::sleep(DRAIN_TIME)),
                    };
                }
                State::Draining { left, until } => {
                    if until.as_mut().poll(cx).is_ready() {
                        this.state = State::Closed;
                        continue;
                    }
                    let mut scratch = [0u8; 8192];
                    let mut sink = ReadBuf::new(&mut scratch);
                    match ready!(Pin::new(&mut this.inner).poll_read(cx, &mut sink)) {
                        Ok(()) if !sink.filled().is_empty() => {
                            *left = left.saturating_sub(sink.filled().len());
                            if *left == 0 {
                                this.state = State::Closed;
                            }
                        }
                        // End of input or an error: either way, done.
                        _ => this.state = State::Closed,
                    }
                }
                State::Open(respond) => {
                    let before = buf.filled().len();
                    ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
                    match this.framing.feed(&buf.filled()[before..]) {
                        Ok(()) => return Poll::Ready(Ok(())),
                        Err(rejection) => {
                            // hyper never sees the bytes of the rejected head's last read.
                            buf.set_filled(before);
                            let out = respond.take().map(|r| r(rejection)).unwrap_or_default();
                            this.state = State::Rejecting { out, written: 0 };
                        }
                    }
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for GuardedStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.stall(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.stall(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.stall(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(parts: &[&[u8]]) -> Result<Framing, Rejection> {
        let mut f = Framing::default();
        for p in parts {
            f.feed(p)?;
        }
        Ok(f)
    }

    fn status(parts: &[&[u8]]) -> Option<u16> {
        feed_all(parts).err().map(|r| r.status)
    }

    #[test]
    fn keep_alive_requests_with_bodies_pass() {
        // The body holds what would be an absurd head: it is counted, never parsed.
        let body = vec![b'x'; MAX_HEAD_BYTES * 2];
        let head = format!(
            "POST /render HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let f = feed_all(&[
            head.as_bytes(),
            &body[..1000],
            &body[1000..],
            b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
        .unwrap();
        assert_eq!(f.frame, Frame::Head);
        assert!(f.head.is_empty());
    }

    #[test]
    fn chunked_bodies_are_followed_byte_by_byte() {
        let req = b"POST /render HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
            5;ext=1\r\nhello\r\nA \r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n\
            GET /health HTTP/1.1\r\n\r\n";
        // All at once and one byte at a time end in the same place.
        assert_eq!(feed_all(&[req]).unwrap().frame, Frame::Head);
        let mut f = Framing::default();
        for b in req.iter() {
            f.feed(std::slice::from_ref(b)).unwrap();
        }
        assert_eq!(f.frame, Frame::Head);
        assert!(f.head.is_empty());
    }

    #[test]
    fn a_broken_chunk_stops_following() {
        let f =
            feed_all(&[b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]).unwrap();
        assert_eq!(f.frame, Frame::Off);
    }

    #[test]
    fn a_long_target_is_414_before_the_line_ends() {
        let mut line = b"GET /render?chart=".to_vec();
        line.resize(MAX_HEAD_BYTES + 10, b'a');
        assert_eq!(status(&[&line]), Some(414));
        // Just over hyper's limit on a complete head.
        let target = format!("/{}", "a".repeat(MAX_TARGET_BYTES));
        let head = format!("GET {target} HTTP/1.1\r\n\r\n");
        assert_eq!(status(&[head.as_bytes()]), Some(414));
        let ok = format!("GET {} HTTP/1.1\r\n\r\n", &target[..MAX_TARGET_BYTES]);
        assert_eq!(status(&[ok.as_bytes()]), None);
    }

    #[test]
    fn large_heads_and_many_fields_are_431() {
        let big = format!("GET / HTTP/1.1\r\nX-A: {}\r\n", "a".repeat(MAX_HEAD_BYTES));
        assert_eq!(status(&[big.as_bytes()]), Some(431));
        let mut many = String::from("GET / HTTP/1.1\r\n");
        for i in 0..=MAX_HEADERS {
            many.push_str(&format!("X-{i}: 1\r\n"));
        }
        many.push_str("\r\n");
        assert_eq!(status(&[many.as_bytes()]), Some(431));
    }

    #[test]
    fn malformed_heads_are_400() {
        for head in [
            &b"GET / HTTP/2.0\r\n\r\n"[..],
            b"G(T / HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nBad Name: 1\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n",
            b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        ] {
            let r = feed_all(&[head]).unwrap_err();
            assert_eq!(r.status, 400, "{}", String::from_utf8_lossy(head));
            assert!(r.message.starts_with("Malformed HTTP request: "), "{r:?}");
        }
    }

    #[test]
    fn leading_empty_lines_and_bare_newlines_are_accepted() {
        let f = feed_all(&[b"\r\n\r\nGET / HTTP/1.1\nHost: a\n\n"]).unwrap();
        assert_eq!(f.frame, Frame::Head);
        assert!(f.head.is_empty());
    }

    /// A client that stops reading: on a real socket whose peer never reads (its receive
    /// buffer made small), a large write fails with `TimedOut` once nothing has gone through
    /// for the write timeout; before, it waited for ever. A client that reads slowly, with
    /// pauses shorter than the timeout, gets everything. (The kernel lets a blocked writer go
    /// on once about half of its send buffer has gone, so the timeout must leave the client
    /// time to read that much.)
    #[tokio::test]
    async fn a_write_the_client_stops_reading_times_out() {
        use std::time::{Duration, Instant};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = &tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let connect = |small_buffer: bool, timeout: Duration| async move {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            if small_buffer {
                socket.set_recv_buffer_size(4096).unwrap();
            }
            let client = socket
                .connect(listener.local_addr().unwrap())
                .await
                .unwrap();
            let (server, _) = listener.accept().await.unwrap();
            let guarded = GuardedStream::new(server, Box::new(|_| Vec::new()), timeout);
            (client, guarded)
        };
        let (_client, mut guarded) = connect(true, Duration::from_millis(300)).await;
        let started = Instant::now();
        let written = tokio::time::timeout(
            Duration::from_secs(20),
            guarded.write_all(&vec![7u8; 64 << 20]),
        )
        .await
        .expect("the write did not end");
        let err = written.expect_err("nobody read 64 MiB");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );

        let (mut client, mut guarded) = connect(false, Duration::from_secs(1)).await;
        let reader = tokio::spawn(async move {
            let mut got = 0;
            let mut buf = vec![0u8; 1 << 20];
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                match client.read(&mut buf).await.unwrap() {
                    0 => return got,
                    n => got += n,
                }
            }
        });
        guarded.write_all(&vec![7u8; 8 << 20]).await.unwrap();
        guarded.shutdown().await.unwrap();
        assert_eq!(reader.await.unwrap(), 8 << 20);
    }
}
