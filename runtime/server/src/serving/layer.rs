//! Owns the router-wide part: `ServerConfig`, which makes the `Runtime` handle handlers use
//! at request time (defined in `runtime_handle.rs`, public here), and `finish_prefixed`
//! (generated routers: routes registered with the base path in them) or `finish` (routes to
//! nest under the base path), which turn unknown paths and undeclared methods into problems
//! and run identify + rate-limit on every request.

use std::convert::Infallible;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use http::StatusCode;
use http::header::HeaderValue;
use http::request::Parts;
use metrics::SharedString;
use tower_service::Service;

use super::auth::{self, Authenticator, DenyAll, SecurityScheme};
use super::cors::{self, Cors, DocumentCors};
use super::document::Document;
pub use super::entries::{
    call, call_in, call_json, call_json_checked, call_json_checked_in, call_json_in, handle,
    handle_body, handle_body_in, handle_in,
};
use super::errors::ErrorBodies;
use super::gate::{GateLayer, GateState};
use super::idempotency::{self, Idempotency, IdempotencyStore, InMemoryIdempotencyStore};
use super::limits::Limits;
use super::observe::{self, ObserveLayer, Routed};
use super::problem::{Problem, RenderProblem};
use super::ratelimit::{InMemoryRateLimiter, RateLimitPolicy, RateLimiter};
pub use super::runtime_handle::Runtime;
use super::runtime_handle::Shared;
use super::sunset::{Clock, SunsetPolicy};
pub use crate::__apigen_handler as handler;

/// Default request-body limit: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// How the application configures a generated server. Defaults: `DenyAll` (every secured
/// operation answers 401 until an authenticator is installed), no rate limit, 1 MiB bodies,
/// the default problem renderer, no base path, `X-Forwarded-For` ignored, no CORS, the default
/// [`Limits`] (8 KiB request target, 32 KiB header section, 10 s for the head, 30 s for the
/// body, 10 000 connections), `Idempotency-Key` responses kept in memory for 24 hours.
#[derive(Clone)]
pub struct ServerConfig {
    authenticator: Arc<dyn Authenticator>,
    rate_limit: Option<(Arc<dyn RateLimiter>, RateLimitPolicy)>,
    body_limit: usize,
    limits: Limits,
    /// The application's renderer (`render_problem`); `None`: the document's error bodies,
    /// else the default body.
    render: Option<RenderProblem>,
    /// The document's own error bodies (the generated `router` sets them).
    errors: Option<&'static ErrorBodies>,
    base_path: Option<String>,
    trust_forwarded_for: bool,
    cors: Option<Cors>,
    idempotency: Option<Idempotency>,
    sunset: SunsetPolicy,
    /// The document the generated `router` was generated from, and where to serve it (`None`:
    /// not served, the default).
    document: Option<&'static Document>,
    serve_document: Option<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            authenticator: Arc::new(DenyAll),
            rate_limit: None,
            body_limit: DEFAULT_BODY_LIMIT,
            limits: Limits::default(),
            render: None,
            errors: None,
            base_path: None,
            trust_forwarded_for: false,
            cors: None,
            idempotency: Some(Idempotency {
                store: Arc::new(InMemoryIdempotencyStore::new()),
                ttl: idempotency::DEFAULT_TTL,
            }),
            sunset: SunsetPolicy::default(),
            document: None,
            serve_document: None,
        }
    }
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("rate_limit", &self.rate_limit.as_ref().map(|(_, p)| p))
            .field("body_limit", &self.body_limit)
            .field("limits", &self.limits)
            .field("base_path", &self.base_path)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .field("cors", &self.cors)
            .field("idempotency", &self.idempotency)
            .field("sunset", &self.sunset)
            .finish_non_exhaustive()
    }
}

impl ServerConfig {
    /// The defaults listed above: install an authenticator before serving secured operations.
    pub fn new() -> Self {
        ServerConfig::default()
    }

    /// Decides who a credential belongs to (see [`Authenticator`]); replaces `DenyAll`.
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.authenticator = Arc::new(authenticator);
        self
    }

    /// Limits every request with `limiter` under `policy` (the generated
    /// `rate_limit_policy()` reads the document's `x-rate-limit`).
    pub fn rate_limit(mut self, limiter: impl RateLimiter, policy: RateLimitPolicy) -> Self {
        self.rate_limit = Some((Arc::new(limiter), policy));
        self
    }

    /// `rate_limit` with an `InMemoryRateLimiter` that uses the policy's ban rule.
    pub fn rate_limit_in_memory(self, policy: RateLimitPolicy) -> Self {
        let limiter = InMemoryRateLimiter::for_policy(&policy);
        self.rate_limit(limiter, policy)
    }

    /// Largest request body in bytes (default [`DEFAULT_BODY_LIMIT`]); larger ones answer 413.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Sizes of the request head, time to send the head and the body, connections at once
    /// (see [`Limits`]; `serve` applies the connection-level ones).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Renders every problem with `render` instead of the document's error bodies or the
    /// default `{"code", "message", "status"}` body.
    pub fn render_problem(mut self, render: RenderProblem) -> Self {
        self.render = Some(render);
        self
    }

    /// The path prefix every route lives under ("/v1"), replacing the document's (the one
    /// the generated `router` resolves with `base_path_or`). "" or "/" = none: routes at the root.
    pub fn base_path(mut self, base_path: impl Into<String>) -> Self {
        self.base_path = Some(base_path.into());
        self
    }

    /// Take the client address for anonymous rate limiting from the last `X-Forwarded-For`
    /// entry (the one the nearest proxy appended). Only for servers reachable solely through
    /// a proxy that sets it: otherwise any client can pick its own key.
    pub fn trust_forwarded_for(mut self, trust: bool) -> Self {
        self.trust_forwarded_for = trust;
        self
    }

    /// Answers browsers from other origins (CORS) as `cors` allows, outermost: preflights
    /// before authentication and rate limits, and every response with the CORS headers (see
    /// the `cors` module). Off by default.
    pub fn cors(mut self, cors: Cors) -> Self {
        self.cors = Some(cors);
        self
    }

    /// Where the responses of operations declaring `Idempotency-Key` are kept, and for how
    /// long (see `runtime::idempotency`); default: in memory, 24 hours. Several instances
    /// need a shared store (`RedisIdempotencyStore`).
    pub fn idempotency(mut self, store: impl IdempotencyStore, ttl: std::time::Duration) -> Self {
        self.idempotency = Some(Idempotency {
            store: Arc::new(store),
            ttl,
        });
        self
    }

    /// Whether operations past their sunset (`x-deprecation.sunset`) answer `410 Gone` with
    /// the `Error` body (code `gone`) and their deprecation headers: on by default, since
    /// the document announces their removal then; `false` keeps serving them.
    pub fn enforce_sunset(mut self, enforce: bool) -> Self {
        self.sunset.enforce = enforce;
        self
    }

    /// The clock sunsets are judged by (default: the system's); tests pass a fixed one.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.sunset.clock = clock;
        self
    }

    /// The document's own error bodies (see `errors`): what problems are written as when the
    /// application set no renderer of its own. The generated `router` sets them for documents
    /// whose error answers are not the default `{"code", "message", "status"}`.
    pub fn document_errors(mut self, errors: &'static ErrorBodies) -> Self {
        self.errors = Some(errors);
        self
    }

    /// Serves the document the router was generated from (the exact text; one split over
    /// several files bundled into one) at `{prefix}.json` and `{prefix}.yaml`, and a page
    /// listing its operations at `{prefix}.html` that needs nothing from elsewhere
    /// (`serve_document("/openapi")`: `/openapi.json`, …). Off by default. The routes are
    /// anonymous and rate-limited like any request.
    pub fn serve_document(mut self, prefix: impl Into<String>) -> Self {
        self.serve_document = Some(prefix.into());
        self
    }

    /// The document the generated `router` holds (`document::DOCUMENT`); served only when
    /// [`ServerConfig::serve_document`] asks.
    pub fn document(mut self, document: &'static Document) -> Self {
        self.document = Some(document);
        self
    }

    /// Ignore `Idempotency-Key`: nothing is stored or replayed.
    pub fn without_idempotency(mut self) -> Self {
        self.idempotency = None;
        self
    }

    /// The path prefix the routes are served under: the one set with
    /// [`ServerConfig::base_path`], else `document`'s (the generated `BASE_PATH`), normalized:
    /// "/v1" (from "v1", "/v1/", ...), or "" for none ("" and "/" both mean routes at the root).
    pub fn base_path_or(&self, document: &str) -> String {
        normalize_base_path(self.base_path.as_deref().unwrap_or(document))
    }

    /// The handle handlers use at request time, with no base path (routes at the root);
    /// `finish` and `finish_prefixed` install one that knows the base path.
    pub fn runtime(&self) -> Runtime {
        self.runtime_under(String::new(), false)
    }

    fn runtime_under(&self, base_path: String, nested: bool) -> Runtime {
        Runtime(Arc::new(Shared {
            render: self.render.clone(),
            errors: self.errors,
            body_limit: self.body_limit,
            limits: self.limits,
            base_path,
            nested,
            idempotency: self.idempotency.clone(),
            sunset: self.sunset.clone(),
        }))
    }
}

// Here rather than beside `Runtime` (runtime_handle.rs): the runtime travels in the request's
// `Identity` (the gate attaches it), and the handle's module stays below `auth`.
impl Runtime {
    /// The runtime `finish` installed (it travels in the request's [`auth::Identity`]), or
    /// the defaults when the routes run without it.
    #[inline]
    pub fn from_parts(parts: &Parts) -> Runtime {
        if let Some(runtime) = parts
            .extensions
            .get::<auth::Identity>()
            .and_then(auth::Identity::runtime)
        {
            return runtime.clone();
        }
        parts
            .extensions
            .get::<Runtime>()
            .cloned()
            .unwrap_or_default()
    }
}

impl Default for Runtime {
    fn default() -> Self {
        static DEFAULT: OnceLock<Runtime> = OnceLock::new();
        DEFAULT
            .get_or_init(|| ServerConfig::default().runtime())
            .clone()
    }
}

/// Wraps routes (state already applied) that do not carry the base path into the
/// application's router:
/// - nests them under `base_path` (the document's, from its first server URL; "" = none),
///   or under `ServerConfig::base_path` when the application set one;
/// - and everything [`finish_prefixed`] does.
///
/// Generated routers register their routes with the base path in them and call
/// [`finish_prefixed`] instead, which saves axum's nesting (a second routing step and a
/// rewritten URI) on every request; this stays for routes written without the prefix.
pub fn finish(
    routes: Router,
    schemes: &'static [SecurityScheme],
    base_path: &str,
    document_cors: &DocumentCors,
    config: ServerConfig,
) -> Router {
    let base = config.base_path_or(base_path);
    // axum strips the prefix before the routes see the request.
    let runtime = config.runtime_under(base.clone(), true);
    let routes = with_method_not_allowed(routes, &runtime);
    let app = if base.is_empty() {
        routes
    } else {
        Router::new().nest(&base, routes)
    };
    wrap(app, schemes, document_cors, config, runtime)
}

/// Wraps the generated routes (state already applied), registered with the base path already
/// in their paths (`route_path(&config.base_path_or(base_path), "/pets")`), into the
/// application's router:
/// - answers unknown paths (including every path outside the base path) with a 404 problem
///   and undeclared methods on known paths with a 405 problem (axum adds the `Allow` header
///   listing the declared methods);
/// - runs, for every request (404, 405 and 401 included): credential extraction for every
///   scheme in `schemes`, the authenticator, the rate limit, and stores the `Identity` in the
///   request extensions, carrying the rate-limit `Decision` and the handlers' `Runtime`;
///   when over the limit, marks the `Identity` refused so the route answers 429 (handlers
///   through `auth::authorize`, with the operation's own headers; the fallbacks directly);
///   adds `X-RateLimit-Limit/Remaining/Reset` to every response when a rate limit is
///   configured;
/// - when `ServerConfig::cors` is set, answers CORS preflights before all of that and adds
///   the CORS headers to every response, exposing the runtime's headers and those
///   `document_cors` (the generated `CORS`) declares.
///
/// `base_path` is the document's, as for [`finish`]; it only tells `RequestContext::path` what
/// to drop, so the application sees the path as routed, without the prefix.
///
/// Serve the result with `into_make_service_with_connect_info::<SocketAddr>()` so anonymous
/// callers are limited per address (without it they share one key, "addr:unknown").
pub fn finish_prefixed(
    routes: Router,
    schemes: &'static [SecurityScheme],
    base_path: &str,
    document_cors: &DocumentCors,
    config: ServerConfig,
) -> Router {
    let runtime = config.runtime_under(config.base_path_or(base_path), false);
    let routes = with_method_not_allowed(routes, &runtime);
    wrap(routes, schemes, document_cors, config, runtime)
}

/// The path a route is registered under when the base path is part of it: `base` + `path`
/// ("/v1" + "/pets"); the root path "/" under a base is the base itself ("/v1"), as nesting
/// serves it. `base` as [`ServerConfig::base_path_or`] gives it.
pub fn route_path(base: &str, path: &str) -> String {
    if base.is_empty() {
        path.to_owned()
    } else if path == "/" || path.is_empty() {
        base.to_owned()
    } else {
        format!("{base}{path}")
    }
}

/// A generated operation's handler as the service its route calls: each request is
/// `handler(state.clone(), request)`. Generated routers register
/// `routing::get_service(layer::operation(&api, handle_list_pets::<A>))`.
///
/// A service rather than an axum handler: axum runs a handler inside an `async` block of its
/// own, boxed for every request, that holds the request beside the handler's future (two
/// allocations per request, the first over a kilobyte for most operations); the router boxes
/// a service's future as it is.
pub fn operation<S: Clone, H>(state: &S, handler: H) -> Operation<S, H> {
    Operation {
        state: state.clone(),
        handler,
        id: "",
        route: Arc::default(),
        durations: Arc::default(),
    }
}

/// See [`operation`].
#[derive(Clone)]
pub struct Operation<S, H> {
    state: S,
    handler: H,
    /// The operation id, for the request's span and metrics (`observe`).
    id: &'static str,
    /// The route template as a metric label, made on the first request and shared by the
    /// next ones (the route is known only from a request's `MatchedPath`).
    route: Arc<OnceLock<SharedString>>,
    /// The operation's duration histograms, registered once per status rather than per
    /// request (`observe::Durations`).
    durations: Arc<observe::Durations>,
}

impl<S, H> Operation<S, H> {
    /// Names the operation the route serves (`layer::operation(&api, handle).named("getPet")`):
    /// the request's span is named after it and its metrics carry it (see `observe`).
    pub fn named(mut self, id: &'static str) -> Self {
        self.id = id;
        self
    }
}

impl<S, H> fmt::Debug for Operation<S, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Operation")
            .field("handler", &std::any::type_name::<H>())
            .finish_non_exhaustive()
    }
}

impl<S, H, F> Service<Request> for Operation<S, H>
where
    S: Clone,
    H: Fn(S, Request) -> F,
    F: Future<Output = Response>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = OperationFuture<F>;

    #[inline]
    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    #[inline]
    fn call(&mut self, request: Request) -> OperationFuture<F> {
        let route = request.extensions().get::<MatchedPath>().cloned();
        observe::routed(self.id, route.as_ref());
        // One service may serve two templates (the root, with and without its slash): the
        // shared label only where it is this request's.
        let label = route.as_ref().map(|route| {
            let label = self
                .route
                .get_or_init(|| SharedString::from_shared(Arc::from(route.as_str())));
            if label.as_ref() == route.as_str() {
                label.clone()
            } else {
                SharedString::from_owned(route.as_str().to_owned())
            }
        });
        OperationFuture {
            handler: (self.handler)(self.state.clone(), request),
            routed: Some(Routed {
                operation: self.id,
                route,
                label,
                durations: Some(self.durations.clone()),
            }),
        }
    }
}

/// The handler a route's dispatch function chose (generated for a route several path keys or
/// methods share, whose [`Operation`] is not named): names the operation on the request's span
/// and in its metrics, as [`Operation::named`] does for a route of its own.
/// `"GET" => layer::dispatched("getFile", handle_get_file::<A>(api, request)).await`.
pub async fn dispatched<F: Future<Output = Response>>(
    operation: &'static str,
    handler: F,
) -> Response {
    observe::routed(operation, None);
    let mut response = handler.await;
    response.extensions_mut().insert(Routed {
        operation,
        route: None,
        label: None,
        durations: None,
    });
    response
}

pin_project_lite::pin_project! {
    /// The future of an [`Operation`]: its handler's, which cannot fail; its answer says
    /// which operation and route served it ([`Routed`]).
    pub struct OperationFuture<F> {
        #[pin]
        handler: F,
        routed: Option<Routed>,
    }
}

impl<F: Future<Output = Response>> Future for OperationFuture<F> {
    type Output = Result<Response, Infallible>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = std::task::ready!(this.handler.poll(cx));
        if let Some(mut routed) = this.routed.take() {
            // A dispatch function's choice (`dispatched`) names the operation.
            if let Some(chosen) = response.extensions().get::<Routed>() {
                routed.operation = chosen.operation;
            }
            response.extensions_mut().insert(routed);
        }
        Poll::Ready(Ok(response))
    }
}

impl<F> fmt::Debug for OperationFuture<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OperationFuture").finish_non_exhaustive()
    }
}

/// Undeclared methods on known paths: the layer's refusal, else a 405 problem.
fn with_method_not_allowed(routes: Router, runtime: &Runtime) -> Router {
    let rt = runtime.clone();
    routes.method_not_allowed_fallback(move |req: Request| {
        let rt = rt.clone();
        async move {
            if let Some(refused) = refusal(&req) {
                return rt.problem(refused);
            }
            rt.problem(Problem::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                format!("method {} is not allowed on this path", req.method()),
            ))
        }
    })
}

/// The answer of a path's own method dispatch (generated for paths with a method axum's
/// method filter cannot name, such as `QUERY` or an `additionalOperations` method) to a method
/// the path does not declare: the layer's refusal when it refused the request (429), else the
/// 405 problem with `Allow: allow` ("GET,HEAD,QUERY"), as every other path answers.
pub fn method_not_allowed(req: &Request, allow: &'static str) -> Response {
    if let Some(refused) = refusal(req) {
        return refuse(req, refused);
    }
    let mut response = refuse(
        req,
        Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("method {} is not allowed on this path", req.method()),
        ),
    );
    response
        .headers_mut()
        .insert(http::header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// The answer of a path's own dispatch (generated for routes that serve several path keys,
/// see `route`) to a request it cannot serve: the layer's refusal when it refused the request
/// (429), else `problem` (the 404 of a path none of the keys describes, or the 400 of a path
/// segment that is not UTF-8), rendered as every other problem.
pub fn refuse(req: &Request, problem: Problem) -> Response {
    let rt = req
        .extensions()
        .get::<auth::Identity>()
        .and_then(auth::Identity::runtime)
        .cloned()
        .unwrap_or_default();
    rt.problem(refusal(req).unwrap_or(problem))
}

/// Registers the root path's route under the base path both as the base path itself
/// (`/api`) and with a trailing slash (`/api/`), where URL joining puts it (a client that
/// appends the document's `/` to its base URL asks for `/api/`); at the root, `/`.
pub fn route_root(routes: Router, base: &str, service: axum::routing::MethodRouter) -> Router {
    if base.is_empty() {
        routes.route("/", service)
    } else {
        routes
            .route(base, service.clone())
            .route(&format!("{base}/"), service)
    }
}

/// Unknown paths, then the identify-and-limit layer around everything, then CORS (when
/// configured) around that.
fn wrap(
    app: Router,
    schemes: &'static [SecurityScheme],
    document_cors: &DocumentCors,
    config: ServerConfig,
    runtime: Runtime,
) -> Router {
    let app = match (config.document, &config.serve_document) {
        (Some(document), Some(prefix)) => super::document::routes(app, document, prefix),
        _ => app,
    };
    let rt = runtime.clone();
    let app = app.fallback(move |req: Request| {
        let rt = rt.clone();
        async move { rt.problem(refusal(&req).unwrap_or_else(Problem::not_found)) }
    });

    let app = app.layer(GateLayer(Arc::new(GateState {
        schemes,
        authenticator: config.authenticator,
        rate_limit: config.rate_limit,
        trust_forwarded_for: config.trust_forwarded_for,
        runtime,
    })));
    let app = match &config.cors {
        Some(rules) => cors::wrap(app, rules, document_cors),
        None => app,
    };
    // Outermost: the span, the request id and the metrics cover everything above.
    app.layer(ObserveLayer)
}

/// The 429 the layer refused `req` with, if it did.
fn refusal(req: &Request) -> Option<Problem> {
    req.extensions()
        .get::<auth::Identity>()
        .and_then(auth::Identity::refusal)
        .cloned()
}

/// "/v1/" → "/v1", "v1" → "/v1", "/" → "".
fn normalize_base_path(base: &str) -> String {
    let trimmed = base.trim().trim_matches('/');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("/{trimmed}")
    }
}
