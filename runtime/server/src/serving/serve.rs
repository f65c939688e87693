//! Owns the connection loop: `serve` accepts TCP connections and speaks HTTP/1.1 on them with
//! hyper, applying the connection-level [`Limits`] that `axum::serve` has no setting for: the
//! time a client has to send its request head (408, then the connection is closed), how many
//! connections are held at once, and hyper's own buffer sized to the configured head limits.
//!
//! HTTP/1.1 only, on purpose: hyper's head timer exists for HTTP/1 alone, and a server that
//! also sniffed for HTTP/2 would wait for the first bytes of a connection without any timer.
//! Services are normally reached through a proxy or load balancer that speaks HTTP/1.1 to them;
//! serve HTTP/2 there (or with your own loop around the router).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use super::layer::{Runtime, ServerConfig};
use super::limits::{self, Limits};

/// hyper's default read buffer limit (8 KiB + 100 × 4 KiB); a request head that does not fit
/// is answered by hyper itself (431, empty body), so it is raised when the configured head
/// limits need more.
const HYPER_DEFAULT_MAX_BUF: usize = 8192 + 4096 * 100;

/// How long a connection answered with 408 is still read from (and the bytes dropped) after
/// the answer, so the client receives it instead of a reset (closing a socket with unread
/// input sends RST, which can destroy the answer in flight).
const LINGER: Duration = Duration::from_secs(2);

/// Serves `app` (a generated `router(..)`) on `listener` over HTTP/1.1 until `shutdown`
/// completes, then stops accepting, lets requests in flight finish and returns.
///
/// From `config` it applies the connection-level [`Limits`] (`head_timeout`,
/// `max_connections`, and hyper's buffer sized for `max_request_target` +
/// `max_header_section`) and renders the head-timeout 408 with the configured problem
/// renderer; pass the configuration the router was built with. Client addresses are passed
/// on as `ConnectInfo<SocketAddr>`, so anonymous callers are rate-limited per address.
///
/// ```ignore
/// let config = ServerConfig::new().authenticator(keys).limits(Limits::new());
/// let app = router(Arc::new(MyService::default()), config.clone());
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// serve(listener, app, &config, async { let _ = tokio::signal::ctrl_c().await; }).await?;
/// ```
pub async fn serve<F>(
    listener: TcpListener,
    app: Router,
    config: &ServerConfig,
    shutdown: F,
) -> io::Result<()>
where
    F: Future<Output = ()> + Send,
{
    let runtime = config.runtime();
    let limits = *runtime.limits();
    let shared = Arc::new(Shared {
        builder: http1_builder(&limits),
        head_timeout_answer: match limits.head_timeout {
            Some(t) => Some(head_timeout_answer(&runtime, t).await),
            None => None,
        },
        permits: limits.max_connections.map(|n| Arc::new(Semaphore::new(n))),
    });
    // Connections hold a receiver: `send(true)` asks them to finish, and `closed()` resolves
    // once every one has.
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);

    loop {
        let permit = match &shared.permits {
            Some(permits) => tokio::select! {
                permit = permits.clone().acquire_owned() => match permit {
                    Ok(p) => Some(p),
                    Err(_) => break, // never closed
                },
                () = &mut shutdown => break,
            },
            None => None,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let shared = shared.clone();
        let app = app.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            connection(stream, peer, app, &shared, stopping).await;
            drop(permit);
        });
    }

    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    stop.closed().await;
    Ok(())
}

/// What every connection task shares.
struct Shared {
    builder: http1::Builder,
    /// The rendered 408 written after a head timeout (None: no head timeout).
    head_timeout_answer: Option<Bytes>,
    permits: Option<Arc<Semaphore>>,
}

fn http1_builder(limits: &Limits) -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        // The request line and the header lines, with room for hyper's own slack.
        .max_buf_size(
            HYPER_DEFAULT_MAX_BUF.max(
                limits
                    .max_request_target
                    .saturating_add(limits.max_header_section)
                    .saturating_add(16 * 1024),
            ),
        );
    builder
}

/// Errors that concern one connection (the client gave up during the handshake) are not the
/// listener's; others (out of file descriptors) are retried after a pause, as the load that
/// caused them may pass.
async fn accept_error(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
    ) {
        return;
    }
    tracing::warn!(error = %e, "accept failed; retrying in 1 s");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    shared: &Shared,
    mut stopping: watch::Receiver<bool>,
) {
    // Small answers should leave at once, not wait for the client's delayed ACK.
    let _ = stream.set_nodelay(true);
    let io = Tracked::new(stream);
    let socket = io.socket.clone();
    let service = WithPeer {
        inner: TowerToHyperService::new(app),
        peer,
    };
    let result = {
        let mut conn = pin!(
            shared
                .builder
                .serve_connection(TokioIo::new(io), service)
                .with_upgrades()
        );
        let mut stop_asked = pin!(stopping.wait_for(|stop| *stop));
        let mut asked_to_stop = false;
        std::future::poll_fn(|cx| {
            if !asked_to_stop && stop_asked.as_mut().poll(cx).is_ready() {
                asked_to_stop = true;
                conn.as_mut().graceful_shutdown();
            }
            conn.as_mut().poll(cx)
        })
        .await
    };
    let Err(e) = result else { return };
    if !e.is_timeout() {
        tracing::trace!(error = %e, %peer, "connection ended with an error");
        return;
    }
    // The head timer fired. If part of a request had come, say so before closing.
    let Some(answer) = &shared.head_timeout_answer else {
        return;
    };
    let Some((stream, head_started)) = socket.into_stream() else {
        return;
    };
    if head_started {
        tracing::debug!(%peer, "request head not received in time; answering 408");
        answer_and_close(stream, answer).await;
    }
}

/// Writes `answer`, closes the sending side, and reads (discarding) for a short while so the
/// client gets the answer rather than a reset.
async fn answer_and_close(mut stream: TcpStream, answer: &[u8]) {
    if stream.write_all(answer).await.is_err() || stream.shutdown().await.is_err() {
        return;
    }
    let mut sink = [0u8; 1024];
    let _ = tokio::time::timeout(LINGER, async {
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}

/// The 408 problem as HTTP/1.1 bytes, rendered once with the configured renderer.
async fn head_timeout_answer(runtime: &Runtime, timeout: Duration) -> Bytes {
    let response = runtime.problem(limits::request_timeout("head", timeout));
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let mut out = format!(
        "HTTP/1.1 {} {}\r\n",
        parts.status.as_u16(),
        parts.status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in &parts.headers {
        if name == http::header::CONTENT_LENGTH || name == http::header::CONNECTION {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&body);
    Bytes::from(out)
}

/// The router as hyper calls it, with the client's address in every request's extensions
/// (what `into_make_service_with_connect_info` does for `axum::serve`).
#[derive(Clone)]
struct WithPeer {
    inner: TowerToHyperService<Router>,
    peer: SocketAddr,
}

impl hyper::service::Service<http::Request<Incoming>> for WithPeer {
    type Response = Response;
    type Error = Infallible;
    type Future =
        <TowerToHyperService<Router> as hyper::service::Service<http::Request<Body>>>::Future;

    fn call(&self, req: http::Request<Incoming>) -> Self::Future {
        let mut req = req.map(Body::new);
        req.extensions_mut().insert(ConnectInfo(self.peer));
        self.inner.call(req)
    }
}

/// The connection's socket as hyper uses it, shared so it can still answer after hyper gave up
/// on the connection, and noting whether bytes came in since the last answer went out (a
/// request head had started).
struct Tracked {
    socket: Arc<SharedSocket>,
}

struct SharedSocket {
    state: Mutex<SocketState>,
}

struct SocketState {
    stream: Option<TcpStream>,
    head_started: bool,
}

impl Tracked {
    fn new(stream: TcpStream) -> Self {
        Tracked {
            socket: Arc::new(SharedSocket {
                state: Mutex::new(SocketState {
                    stream: Some(stream),
                    head_started: false,
                }),
            }),
        }
    }

    fn with<R>(
        &self,
        f: impl FnOnce(&mut SocketState, Pin<&mut TcpStream>) -> Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        let mut state = self
            .socket
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let state = &mut *state;
        match state.stream.take() {
            Some(mut stream) => {
                let result = f(state, Pin::new(&mut stream));
                state.stream = Some(stream);
                result
            }
            None => Poll::Ready(Err(io::ErrorKind::NotConnected.into())),
        }
    }
}

impl SharedSocket {
    /// The stream and whether a head had started, once hyper has let go of the connection.
    fn into_stream(self: Arc<Self>) -> Option<(TcpStream, bool)> {
        let state = Arc::into_inner(self)?
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        Some((state.stream?, state.head_started))
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        self.with(|state, stream| {
            let polled = stream.poll_read(cx, buf);
            if buf.filled().len() > before {
                state.head_started = true;
            }
            polled
        })
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.with(|state, stream| {
            let polled = stream.poll_write(cx, buf);
            if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
                state.head_started = false;
            }
            polled
        })
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.with(|state, stream| {
            let polled = stream.poll_write_vectored(cx, bufs);
            if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
                state.head_started = false;
            }
            polled
        })
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|_, stream| stream.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|_, stream| stream.poll_shutdown(cx))
    }
}
