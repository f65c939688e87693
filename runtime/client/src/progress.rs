//! Progress of long transfers: a callback the transport calls as a large request body goes out
//! and as a response body comes in, so a command line (or an application) can show how far an
//! upload or a download has got. Nothing is counted unless a callback is set.

use std::fmt;
use std::sync::Arc;

#[cfg(not(target_arch = "wasm32"))]
use bytes::Bytes;

/// Which way the bytes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A request body being sent.
    Upload,
    /// A response body being read.
    Download,
}

/// How far one transfer has got: `done` bytes of `total` (when the length is known: a request
/// body's, a response's `Content-Length`). The last report of a finished transfer has `total`
/// equal to `done` (a response that announced no length is reported once more at its end); a
/// retried call reports again from zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Which way the bytes go.
    pub direction: Direction,
    /// Bytes transferred so far.
    pub done: u64,
    /// Bytes in all, when known.
    pub total: Option<u64>,
}

/// Request bodies at least this long are sent in counted pieces; shorter ones go in one write,
/// as without a callback (a progress line for a few KB is noise, and the stream costs a copy
/// of nothing but a header).
pub const UPLOAD_REPORTED_FROM: usize = 1 << 20;

/// The piece size an upload is counted in.
#[cfg(not(target_arch = "wasm32"))]
const PIECE: usize = 64 * 1024;

/// The callback a client was given (`ClientBuilder::on_progress`).
#[derive(Clone)]
pub struct OnProgress(Arc<dyn Fn(Progress) + Send + Sync>);

impl OnProgress {
    /// A callback called with each [`Progress`] report.
    pub fn new(report: impl Fn(Progress) + Send + Sync + 'static) -> OnProgress {
        OnProgress(Arc::new(report))
    }

    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn report(&self, direction: Direction, done: u64, total: Option<u64>) {
        (self.0)(Progress {
            direction,
            done,
            total,
        });
    }

    /// `body` as a request body that reports each piece as it is taken for sending.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn upload(&self, body: Bytes) -> reqwest::Body {
        reqwest::Body::wrap_stream(Pieces {
            body,
            sent: 0,
            report: self.clone(),
        })
    }
}

/// A body handed out piece by piece, each reported as it goes.
#[cfg(not(target_arch = "wasm32"))]
struct Pieces {
    body: Bytes,
    sent: usize,
    report: OnProgress,
}

#[cfg(not(target_arch = "wasm32"))]
impl futures_core::Stream for Pieces {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.sent >= this.body.len() {
            return std::task::Poll::Ready(None);
        }
        let end = (this.sent + PIECE).min(this.body.len());
        let piece = this.body.slice(this.sent..end);
        this.sent = end;
        let total = this.body.len() as u64;
        this.report
            .report(Direction::Upload, end as u64, Some(total));
        std::task::Poll::Ready(Some(Ok(piece)))
    }
}

impl fmt::Debug for OnProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OnProgress(..)")
    }
}
