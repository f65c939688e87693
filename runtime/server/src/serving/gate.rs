//! The gate every request passes before its route: identifies the caller, applies the rate
//! limit and the head-size limits, stores the [`Identity`] in the request, and adds the
//! `X-RateLimit-*` headers to whatever the route answers.
//!
//! A tower service of its own rather than `axum::middleware::from_fn`: `from_fn` boxes one
//! future per request that holds the request, the rest of the stack and the middleware's own
//! state (over a kilobyte, past the allocator's per-thread cache). Here the common case (an
//! authenticator and a limiter that answer without waiting) is decided in `call`, and the
//! future is the route's own with the decision beside it; only an authenticator or a limiter
//! that must be awaited gets a boxed future.

use std::convert::Infallible;
use std::future::{Future, Ready};
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::SystemTime;

use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use http::HeaderMap;
use tower_layer::Layer;
use tower_service::Service;

use super::auth::{self, Authenticator, DetachedIdentity, Identity, SecurityScheme};
use super::problem::Problem;
use super::ratelimit::set_rate_limit_headers;
use super::ratelimit::{Decision, Quota, RateLimitPolicy, RateLimiter};
use super::runtime_handle::Runtime;

/// What the gate needs, shared by every route.
pub(crate) struct GateState {
    pub(crate) schemes: &'static [SecurityScheme],
    pub(crate) authenticator: Arc<dyn Authenticator>,
    pub(crate) rate_limit: Option<(Arc<dyn RateLimiter>, RateLimitPolicy)>,
    pub(crate) trust_forwarded_for: bool,
    pub(crate) runtime: Runtime,
}

/// Puts a [`Gate`] in front of every route (`Router::layer`).
#[derive(Clone)]
pub(crate) struct GateLayer(pub(crate) Arc<GateState>);

impl<S> Layer<S> for GateLayer {
    type Service = Gate<S>;

    fn layer(&self, inner: S) -> Gate<S> {
        Gate {
            inner,
            state: self.0.clone(),
        }
    }
}

/// One route behind the gate.
#[derive(Clone)]
pub(crate) struct Gate<S> {
    inner: S,
    state: Arc<GateState>,
}

impl<S> Service<Request> for Gate<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = GateFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        match admit_now(&self.state, req) {
            Admission::Route(req, after) => GateFuture::Route {
                inner: self.inner.call(req),
                after: Some(after),
            },
            Admission::Answer(response) => GateFuture::Answered {
                answer: std::future::ready(Ok(response)),
            },
            Admission::Wait(req, resume) => {
                // The service `poll_ready` was called on goes into the future; a clone stays.
                let clone = self.inner.clone();
                let inner = std::mem::replace(&mut self.inner, clone);
                GateFuture::Waiting {
                    future: Box::pin(admit_later(self.state.clone(), req, resume, inner)),
                }
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`Gate`]: the route's future with what to add to its answer, an answer
    /// the gate gave itself, or (an authenticator or limiter that must be awaited) a boxed
    /// future that does all of it.
    #[project = GateProjection]
    pub(crate) enum GateFuture<F> {
        Route { #[pin] inner: F, after: Option<After> },
        Answered { answer: Ready<Result<Response, Infallible>> },
        Waiting { future: Pin<Box<dyn Future<Output = Response> + Send>> },
    }
}

impl<F> Future for GateFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            GateProjection::Route { inner, after } => {
                let Ok(response) = std::task::ready!(inner.poll(cx));
                Poll::Ready(Ok(match after.take() {
                    Some(after) => after.apply(response),
                    None => response,
                }))
            }
            GateProjection::Answered { answer } => Pin::new(answer).poll(cx),
            GateProjection::Waiting { future } => future.as_mut().poll(cx).map(Ok),
        }
    }
}

/// What the gate decided about a request.
enum Admission {
    /// Route it, then apply `After` to the answer.
    Route(Request, After),
    /// The gate's own answer (a head over the size limits).
    Answer(Response),
    /// The authenticator or the limiter has to be awaited (boxed: rare, and large).
    Wait(Request, Box<Resume>),
}

/// What the gate decided once the caller is known and the limiter has decided.
enum Admitted {
    /// Route the request (the identity in it), then apply `After` to the answer.
    Route(Request, After),
    /// The gate's own answer (a head over the size limits).
    Answer(Response),
}

/// Where a request that has to wait stopped.
enum Resume {
    /// At a credential the authenticator must be awaited for.
    Identify(DetachedIdentity, Client),
    /// At the rate limit: the limiter must be awaited.
    Limit(Identity, Limited),
}

/// Who is on the other end of the connection.
#[derive(Clone, Copy)]
struct Client {
    /// The TCP peer.
    peer: Option<SocketAddr>,
    /// The address anonymous callers are limited by: the peer's, or `X-Forwarded-For`'s when
    /// trusted.
    ip: Option<IpAddr>,
}

/// One request's rate-limit check: the counter's key, its quota, and when.
struct Limited {
    key: String,
    quota: Quota,
    now: SystemTime,
}

/// What the gate adds to the route's answer.
pub(crate) struct After {
    decision: Option<Decision>,
    /// Boxed: held beside every route's future, and almost always `None`.
    refused: Option<Box<(Problem, Runtime)>>,
}

impl After {
    fn apply(self, mut response: Response) -> Response {
        if let Some(refused) = self.refused
            && response.status() != refused.0.status
        {
            // A route that does not start with `auth::authorize` (hand-written, not
            // generated) ignored the refusal; the client still gets the 429 (or 503).
            tracing::error!(
                status = response.status().as_u16(),
                "a route answered a request the rate limit refused; sending the refusal instead"
            );
            let (problem, runtime) = *refused;
            response = runtime.problem(problem);
        }
        // A limiter that could not decide has nothing true to report.
        if let Some(d) = self.decision.as_ref().filter(|d| !d.unavailable) {
            set_rate_limit_headers(response.headers_mut(), d);
        }
        response
    }
}

fn client(state: &GateState, req: &Request) -> Client {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let forwarded = if state.trust_forwarded_for {
        forwarded_for(req.headers())
    } else {
        None
    };
    Client {
        peer,
        ip: forwarded.or(peer.map(|p| p.ip())),
    }
}

/// Everything the gate can do without waiting, which is everything unless the authenticator
/// or the limiter has to be awaited.
fn admit_now(state: &GateState, req: Request) -> Admission {
    let client = client(state, &req);
    let identity = match auth::identify_sync(
        req.headers(),
        req.uri(),
        state.schemes,
        state.authenticator.as_ref(),
        client.peer,
        client.ip,
    ) {
        Ok(identity) => identity,
        Err(pending) => {
            let detached = pending.detach();
            return Admission::Wait(req, Box::new(Resume::Identify(detached, client)));
        }
    };
    let decision = match limited(state, &identity, client) {
        Some((limiter, limited)) => {
            match limiter.check_sync(&limited.key, limited.quota, limited.now) {
                Some(decision) => Some(decision),
                None => {
                    return Admission::Wait(req, Box::new(Resume::Limit(identity, limited)));
                }
            }
        }
        None => None,
    };
    match admit(state, req, identity, decision) {
        Admitted::Route(req, after) => Admission::Route(req, after),
        Admitted::Answer(response) => Admission::Answer(response),
    }
}

/// [`admit_now`] from where it stopped, awaiting what it could not, then the route.
async fn admit_later<S>(
    state: Arc<GateState>,
    req: Request,
    resume: Box<Resume>,
    mut inner: S,
) -> Response
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    let (identity, decision) = match *resume {
        Resume::Identify(detached, client) => {
            // Only shared borrows of the head are held across the await (the body is not
            // `Sync`).
            let (headers, uri) = (req.headers(), req.uri());
            let identity = detached
                .finish(headers, uri, state.authenticator.as_ref())
                .await;
            let decision = match limited(&state, &identity, client) {
                Some((limiter, l)) => Some(match limiter.check_sync(&l.key, l.quota, l.now) {
                    Some(decision) => decision,
                    None => limiter.check(&l.key, l.quota, l.now).await,
                }),
                None => None,
            };
            (identity, decision)
        }
        // `admit_now` asked `check_sync` already.
        Resume::Limit(identity, l) => {
            let decision = match &state.rate_limit {
                Some((limiter, _)) => Some(limiter.check(&l.key, l.quota, l.now).await),
                None => None,
            };
            (identity, decision)
        }
    };
    match admit(&state, req, identity, decision) {
        Admitted::Route(req, after) => {
            let Ok(response) = inner.call(req).await;
            after.apply(response)
        }
        Admitted::Answer(response) => response,
    }
}

/// The limiter and the check a request gets: None without a limiter, or when the caller's
/// plan has no quota.
fn limited<'s>(
    state: &'s GateState,
    identity: &Identity,
    client: Client,
) -> Option<(&'s dyn RateLimiter, Limited)> {
    let (limiter, policy) = state.rate_limit.as_ref()?;
    let (key, quota) = match identity.principals().first() {
        Some(p) => (
            format!("sub:{}", p.subject),
            policy.quota(p.plan.as_deref()),
        ),
        None => (
            match client.ip {
                Some(ip) => format!("addr:{ip}"),
                None => "addr:unknown".to_owned(),
            },
            policy.anonymous_quota(),
        ),
    };
    Some((
        limiter.as_ref(),
        Limited {
            key,
            quota: quota?,
            now: SystemTime::now(),
        },
    ))
}

/// The gate's decision once the caller is known and the limiter has decided.
fn admit(
    state: &GateState,
    mut req: Request,
    mut identity: Identity,
    decision: Option<Decision>,
) -> Admitted {
    // A refused request is still routed, so the 429 comes from the operation's handler (its
    // first step, `authorize`, answers with the refusal) and carries the operation's own
    // headers (`Deprecation`, `Sunset`, `Link`); unknown paths and undeclared methods answer
    // it from the fallbacks. Nothing else of the request (parameters, body) is read.
    let refused = match &decision {
        Some(d) if !d.allowed && d.unavailable => Some(Problem::rate_limit_unavailable()),
        Some(d) if !d.allowed => Some(Problem::too_many_requests(
            d.retry_after_secs.unwrap_or(1),
            d.banned,
        )),
        _ => None,
    };
    // A head over the size limits is answered here, counted by the rate limit and with its
    // headers like every answer; no route sees it.
    if refused.is_none()
        && let Some(problem) = state.runtime.limits().check_head(req.uri(), req.headers())
    {
        let mut response = state.runtime.problem(problem);
        if let Some(d) = &decision {
            set_rate_limit_headers(response.headers_mut(), d);
        }
        return Admitted::Answer(response);
    }
    super::observe::admitted(&identity, decision.as_ref());
    // One extension value per request: the identity carries the decision and the runtime.
    identity.attach(decision.clone(), refused.clone(), state.runtime.clone());
    req.extensions_mut().insert(identity);
    let after = After {
        decision,
        refused: refused.map(|p| Box::new((p, state.runtime.clone()))),
    };
    Admitted::Route(req, after)
}

/// The last valid address in `X-Forwarded-For`.
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let last = last.to_str().ok()?.rsplit(',').next()?.trim();
    last.parse::<IpAddr>()
        .ok()
        .or_else(|| last.parse::<SocketAddr>().ok().map(|s| s.ip()))
}
