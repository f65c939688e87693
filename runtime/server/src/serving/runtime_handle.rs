//! Owns the `Runtime` handle generated handlers use at request time (the problem renderer
//! and the document's error bodies, the body limit and head limits, the idempotency store,
//! the sunset policy, the base path) and how a handler's outcome becomes its reply
//! (`reply`, `reply_to*`: the problem rendered, the operation's own headers added).
//! `ServerConfig` (in `layer`) makes it; `layer::Runtime` is its public path.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::response::Response;
use http::uri::PathAndQuery;
use http::{StatusCode, Uri};

use super::errors::ErrorBodies;
use super::idempotency_store::Idempotency;
use super::limits::Limits;
use super::problem::{Problem, RenderProblem, render_default};
use super::response::append_headers;
use super::sunset::{Retirement, SunsetPolicy};

pub(crate) struct Shared {
    pub(crate) render: Option<RenderProblem>,
    pub(crate) errors: Option<&'static ErrorBodies>,
    pub(crate) body_limit: usize,
    pub(crate) limits: Limits,
    /// The base path the routes are served under ("" for none).
    pub(crate) base_path: String,
    /// The routes are nested under `base_path` (`finish`), so axum removed it from the URI
    /// they see; false when the routes carry it (`finish_prefixed`).
    pub(crate) nested: bool,
    pub(crate) idempotency: Option<Idempotency>,
    pub(crate) sunset: SunsetPolicy,
}

/// What a handler needs at request time: the problem renderer and the body limit. `finish`
/// puts one into every request's extensions; handlers get it with `Runtime::from_parts`
/// (in `layer.rs`: it reads the runtime from the request's `auth::Identity`).
#[derive(Clone)]
pub struct Runtime(pub(crate) Arc<Shared>);

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("body_limit", &self.0.body_limit)
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// Renders a problem with the configured hook.
    pub fn problem(&self, problem: Problem) -> Response {
        if problem.status.is_server_error() {
            tracing::debug!(code = %problem.code, "responding with a server error problem");
        }
        self.render_in(problem, self.0.errors)
    }

    /// [`Runtime::problem`] for an operation whose error bodies differ from the document's:
    /// the application's renderer when it set one, else `errors`' body for the status, else
    /// the document's, else the default body.
    pub fn problem_in(&self, problem: Problem, errors: &'static ErrorBodies) -> Response {
        if problem.status.is_server_error() {
            tracing::debug!(code = %problem.code, "responding with a server error problem");
        }
        self.render_in(problem, Some(errors))
    }

    fn render_in(&self, mut problem: Problem, errors: Option<&'static ErrorBodies>) -> Response {
        // A refused request answers with the status the document describes for it.
        if problem.status == StatusCode::BAD_REQUEST
            && let Some(invalid) = errors
                .or(self.0.errors)
                .and_then(|e| StatusCode::from_u16(e.invalid).ok())
        {
            problem.status = invalid;
        }
        if let Some(render) = &self.0.render {
            return render(&problem);
        }
        match errors
            .and_then(|e| e.body_for(problem.status))
            .or_else(|| self.0.errors.and_then(|e| e.body_for(problem.status)))
        {
            Some(body) => body.render(&problem),
            None => render_default(&problem),
        }
    }

    /// The largest request body in bytes ([`ServerConfig::body_limit`](super::layer::ServerConfig::body_limit)).
    #[inline]
    pub fn body_limit(&self) -> usize {
        self.0.body_limit
    }

    /// The configured [`Limits`].
    pub fn limits(&self) -> &Limits {
        &self.0.limits
    }

    /// Where `Idempotency-Key` responses are kept; None when switched off.
    pub fn idempotency(&self) -> Option<&Idempotency> {
        self.0.idempotency.as_ref()
    }

    /// `Err(410 Gone)` when the operation's sunset has come and sunsets are enforced.
    #[inline]
    pub fn check_sunset(&self, retirement: &Retirement) -> Result<(), Problem> {
        self.0.sunset.check(retirement)
    }

    /// `Ok(response)` as is, `Err(problem)` rendered.
    #[inline]
    pub fn respond(&self, result: Result<Response, Problem>) -> Response {
        result.unwrap_or_else(|p| self.problem(p))
    }

    /// [`Runtime::reply`] for an operation whose error bodies differ from the document's (see
    /// [`Runtime::problem_in`]).
    pub fn reply_in(
        &self,
        result: Result<Response, Problem>,
        headers: &'static [(&'static str, &'static str)],
        errors: &'static ErrorBodies,
    ) -> Response {
        let mut response = result.unwrap_or_else(|p| self.problem_in(p, errors));
        append_headers(&mut response, headers);
        response
    }

    /// A handler's outcome rendered, with the operation's own headers (deprecation) added to
    /// whatever it became, error responses included.
    #[inline]
    pub fn reply(
        &self,
        result: Result<Response, Problem>,
        headers: &'static [(&'static str, &'static str)],
    ) -> Response {
        let mut response = self.respond(result);
        append_headers(&mut response, headers);
        response
    }

    /// [`Runtime::reply`] to `serve`'s outcome, as a future: what a generated route handler
    /// returns (axum boxes it for every request).
    ///
    /// A future of its own rather than `async move { rt.reply(serve.await, headers) }`: an
    /// `async` block that awaits a future it captured holds it twice (the capture, and the
    /// copy it pins to poll), which doubles the allocation and the copies of every request's
    /// future; this one polls `serve` where it lies.
    #[inline]
    pub fn reply_to<F>(
        self,
        serve: F,
        headers: &'static [(&'static str, &'static str)],
    ) -> impl Future<Output = Response> + Send
    where
        F: Future<Output = Result<Response, Problem>> + Send,
    {
        self.reply_to_checked(Ok(()), serve, headers)
    }

    /// [`Runtime::reply_to`] after a check made before anything of the request is read (the
    /// operation's sunset): when it failed, `serve` is never polled and its problem is the
    /// reply, with the operation's headers.
    #[inline]
    pub fn reply_to_checked<F>(
        self,
        checked: Result<(), Problem>,
        serve: F,
        headers: &'static [(&'static str, &'static str)],
    ) -> impl Future<Output = Response> + Send
    where
        F: Future<Output = Result<Response, Problem>> + Send,
    {
        self.reply_future(checked, serve, headers)
    }

    /// [`Runtime::reply_to_checked`] for the runtime's own callers, whose futures need not be
    /// `Send` for it.
    #[inline]
    pub(crate) fn reply_future<F>(
        self,
        checked: Result<(), Problem>,
        serve: F,
        headers: &'static [(&'static str, &'static str)],
    ) -> impl Future<Output = Response>
    where
        F: Future<Output = Result<Response, Problem>>,
    {
        Reply {
            serve,
            // Boxed: refusals are rare, and the future is allocated for every request.
            refused: checked.err().map(Box::new),
            rt: self,
            headers,
            errors: (),
        }
    }

    /// [`Runtime::reply_to_checked`] for an operation whose error bodies differ from the
    /// document's (see [`Runtime::problem_in`]).
    #[inline]
    pub fn reply_to_checked_in<F>(
        self,
        errors: &'static ErrorBodies,
        checked: Result<(), Problem>,
        serve: F,
        headers: &'static [(&'static str, &'static str)],
    ) -> impl Future<Output = Response> + Send
    where
        F: Future<Output = Result<Response, Problem>> + Send,
    {
        Reply {
            serve,
            refused: checked.err().map(Box::new),
            rt: self,
            headers,
            errors,
        }
    }

    /// The base path the routes are served under ("" for none).
    pub fn base_path(&self) -> &str {
        &self.0.base_path
    }

    /// Whether the routes are nested under the base path (axum removes it from the URI they
    /// see) rather than registered with it.
    pub fn nested(&self) -> bool {
        self.0.nested
    }

    /// A URI as nested routes see it, with the base path put back in front.
    pub(crate) fn unnested_uri(&self, uri: Uri) -> Uri {
        let base = self.0.base_path.as_str();
        if base.is_empty() {
            return uri;
        }
        let rest = uri.path_and_query().map_or("/", PathAndQuery::as_str);
        let rest = if rest == "/" { "" } else { rest };
        let Ok(path_and_query) = PathAndQuery::try_from(format!("{base}{rest}")) else {
            return uri;
        };
        let mut parts = uri.into_parts();
        parts.path_and_query = Some(path_and_query);
        Uri::from_parts(parts).unwrap_or_default()
    }
}

pin_project_lite::pin_project! {
    /// The future of [`Runtime::reply_to`] and [`Runtime::reply_to_checked`] (`E` = `()`, of
    /// no size), and of [`Runtime::reply_to_checked_in`] (`E` = the operation's error bodies).
    struct Reply<F, E> {
        #[pin]
        serve: F,
        refused: Option<Box<Problem>>,
        rt: Runtime,
        headers: &'static [(&'static str, &'static str)],
        errors: E,
    }
}

/// The error bodies a [`Reply`] renders problems with, beyond the document's.
trait OperationErrors: Copy {
    fn get(self) -> Option<&'static ErrorBodies>;
}

impl OperationErrors for () {
    #[inline]
    fn get(self) -> Option<&'static ErrorBodies> {
        None
    }
}

impl OperationErrors for &'static ErrorBodies {
    #[inline]
    fn get(self) -> Option<&'static ErrorBodies> {
        Some(self)
    }
}

impl<F, E> Future for Reply<F, E>
where
    F: Future<Output = Result<Response, Problem>>,
    E: OperationErrors,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = self.project();
        let outcome = match this.refused.take() {
            Some(problem) => Err(*problem),
            None => std::task::ready!(this.serve.poll(cx)),
        };
        Poll::Ready(match this.errors.get() {
            Some(errors) => this.rt.reply_in(outcome, this.headers, errors),
            None => this.rt.reply(outcome, this.headers),
        })
    }
}
