//! Owns cross-origin access (CORS) for browsers: [`Cors`] (what the application allows:
//! origins, credentials, max age; checked when it is built, so a bad set-up is an error rather
//! than a panic at the first request), [`DocumentCors`] (what the document lets a browser send
//! and read; the generator writes it) and [`wrap`], which puts the CORS service outermost
//! around every route.
//!
//! Decisions:
//! - Off unless the application configures it (`ServerConfig::cors`).
//! - Outermost: preflights are answered before credentials are read or any quota is charged,
//!   and every answer of the layers inside (401, 404, 405, 429, ...) carries the CORS headers,
//!   so a browser script sees the status and the problem body instead of a network error.
//! - Only a true preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is
//!   answered here, with 204; any other `OPTIONS` request goes on to the routes (a document's
//!   own `options` operation, or 405) with a real response's CORS headers.
//! - Our own service, not tower-http's `CorsLayer`, which axum clones with its whole
//!   configuration for every request and which answers every `OPTIONS` request itself.
//! - Exposed response headers: those the runtime writes ([`RUNTIME_RESPONSE_HEADERS`]) plus
//!   every response header the document declares. Browsers hide all other headers from
//!   scripts, which would silently blind a client's rate-limit state, its `Retry-After`
//!   handling and its deprecation warnings.
//! - Allowed request headers: `Authorization`, `Content-Type`, the document's header
//!   parameters and header API keys. Allowed methods: the document's.
//! - Responses vary on `Origin` (and on the preflight's request headers), so shared caches
//!   never serve one origin's answer to another.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::fmt;
use std::future::{Future, Ready};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::response::Response;
use http::header::{
    ACCESS_CONTROL_ALLOW_CREDENTIALS, ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN, ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE,
    ACCESS_CONTROL_REQUEST_METHOD, HeaderName, HeaderValue, ORIGIN, VARY as VARY_NAME,
};
use http::{HeaderMap, Method, StatusCode};
use tower_layer::Layer;
use tower_service::Service;

/// Response headers the runtime itself writes; always exposed to browser scripts.
pub const RUNTIME_RESPONSE_HEADERS: &[&str] = &[
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "retry-after",
    "www-authenticate",
    "deprecation",
    "sunset",
    "link",
    "x-request-id",
];

/// Request headers every generated client may send (credentials, bodies, W3C Trace Context,
/// the request id the runtime keeps); always allowed.
pub const RUNTIME_REQUEST_HEADERS: &[&str] = &[
    "authorization",
    "content-type",
    "traceparent",
    "tracestate",
    "x-request-id",
];

/// How long browsers may cache a preflight answer unless [`CorsBuilder::max_age`] says
/// otherwise: ten minutes (Chromium caps it at two hours).
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(600);

/// What the document lets a browser do across origins; the generated router passes its own.
#[derive(Debug, Clone, Copy)]
pub struct DocumentCors {
    /// The methods of the document's operations (`GET`, `POST`, ...).
    pub methods: &'static [&'static str],
    /// Header parameters and header API keys, lower case.
    pub request_headers: &'static [&'static str],
    /// Every response header the document declares, lower case.
    pub response_headers: &'static [&'static str],
}

impl DocumentCors {
    /// No operations: only the runtime's own headers.
    pub const EMPTY: DocumentCors = DocumentCors {
        methods: &[],
        request_headers: &[],
        response_headers: &[],
    };
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Origins {
    Any,
    List(Vec<HeaderValue>),
}

/// The application's CORS rules, checked: build with [`Cors::builder`] or [`Cors::any_origin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cors {
    origins: Origins,
    credentials: bool,
    max_age: Duration,
}

impl Cors {
    /// Rules to fill in; [`CorsBuilder::build`] checks them.
    pub fn builder() -> CorsBuilder {
        CorsBuilder {
            origins: Vec::new(),
            credentials: false,
            max_age: DEFAULT_MAX_AGE,
        }
    }

    /// Any origin (`Access-Control-Allow-Origin: *`), no credentials, the default max age.
    pub fn any_origin() -> Cors {
        Cors {
            origins: Origins::Any,
            credentials: false,
            max_age: DEFAULT_MAX_AGE,
        }
    }

    /// Whether any origin is allowed.
    pub fn allows_any_origin(&self) -> bool {
        self.origins == Origins::Any
    }

    /// The allowed origins, as browsers send them (empty when any origin is allowed).
    pub fn origins(&self) -> Vec<&str> {
        match &self.origins {
            Origins::Any => Vec::new(),
            Origins::List(list) => list.iter().filter_map(|o| o.to_str().ok()).collect(),
        }
    }

    /// Whether `Access-Control-Allow-Credentials: true` is sent (cookies and HTTP
    /// authentication managed by the browser; a bearer key set by the script needs none).
    pub fn credentials(&self) -> bool {
        self.credentials
    }

    /// How long a browser may cache a preflight's answer (`Access-Control-Max-Age`).
    pub fn max_age(&self) -> Duration {
        self.max_age
    }
}

/// Unchecked CORS rules; see [`Cors::builder`].
#[derive(Debug, Clone)]
pub struct CorsBuilder {
    origins: Vec<String>,
    credentials: bool,
    max_age: Duration,
}

impl CorsBuilder {
    /// Allows one origin, `scheme://host[:port]` exactly as a browser sends it
    /// (`http://localhost:8000`); `*` allows any origin. Repeatable.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.origins.push(origin.into());
        self
    }

    /// Sends `Access-Control-Allow-Credentials: true`; refused with any origin (`*`), as the
    /// Fetch standard requires.
    pub fn allow_credentials(mut self, credentials: bool) -> Self {
        self.credentials = credentials;
        self
    }

    /// How long a browser may cache a preflight answer (`Access-Control-Max-Age`).
    pub fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = max_age;
        self
    }

    /// Checks the rules: at least one origin, each a bare origin (no path, query or trailing
    /// slash), `*` alone and never with credentials.
    pub fn build(self) -> Result<Cors, CorsError> {
        let any = self.origins.iter().any(|o| o.trim() == "*");
        let origins = if any {
            if self.origins.len() > 1 {
                return Err(CorsError::AnyWithList);
            }
            if self.credentials {
                return Err(CorsError::CredentialsWithAnyOrigin);
            }
            Origins::Any
        } else {
            if self.origins.is_empty() {
                return Err(CorsError::NoOrigin);
            }
            let mut list = Vec::with_capacity(self.origins.len());
            for origin in &self.origins {
                list.push(parse_origin(origin)?);
            }
            list.dedup();
            Origins::List(list)
        };
        Ok(Cors {
            origins,
            credentials: self.credentials,
            max_age: self.max_age,
        })
    }
}

/// Why CORS rules were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsError {
    /// No origin was allowed.
    NoOrigin,
    /// `*` together with named origins.
    AnyWithList,
    /// Credentials with any origin: browsers refuse `Access-Control-Allow-Origin: *` on a
    /// credentialed request, so the combination never works.
    CredentialsWithAnyOrigin,
    /// Not an origin a browser could send: the value and why.
    InvalidOrigin(String, &'static str),
}

impl fmt::Display for CorsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorsError::NoOrigin => write!(
                f,
                "CORS: no allowed origin given (an origin, or `*` for any)"
            ),
            CorsError::AnyWithList => write!(
                f,
                "CORS: `*` (any origin) cannot be combined with named origins"
            ),
            CorsError::CredentialsWithAnyOrigin => write!(
                f,
                "CORS: credentials cannot be allowed for any origin (`*`); browsers refuse that combination, so name the origins"
            ),
            CorsError::InvalidOrigin(origin, why) => {
                write!(
                    f,
                    "CORS: `{origin}` is not an origin: {why} (expected scheme://host[:port], e.g. http://localhost:8000)"
                )
            }
        }
    }
}

impl std::error::Error for CorsError {}

/// `https://App.example:8443` → `https://app.example:8443` (browsers send scheme and host in
/// lower case); anything with a path, query, fragment or user info is refused.
fn parse_origin(origin: &str) -> Result<HeaderValue, CorsError> {
    let invalid = |why| CorsError::InvalidOrigin(origin.to_owned(), why);
    let trimmed = origin.trim();
    let (scheme, rest) = trimmed
        .split_once("://")
        .ok_or_else(|| invalid("no scheme"))?;
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return Err(invalid("bad scheme"));
    }
    if rest.is_empty() {
        return Err(invalid("no host"));
    }
    if rest.contains('/') {
        return Err(invalid("an origin has no path, not even a trailing slash"));
    }
    if rest.contains(['?', '#', '@']) || rest.contains(char::is_whitespace) {
        return Err(invalid("an origin has no query, fragment or user info"));
    }
    let normalized = format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        rest.to_ascii_lowercase()
    );
    HeaderValue::try_from(normalized).map_err(|_| invalid("not a valid header value"))
}

/// Wraps `app` (every other layer already applied) in the CORS layer: `cors` from the
/// application, `document` from the generated router.
pub fn wrap(app: Router, cors: &Cors, document: &DocumentCors) -> Router {
    let methods: Vec<String> = document
        .methods
        .iter()
        .filter_map(|m| Method::from_bytes(m.as_bytes()).ok())
        .map(|m| m.as_str().to_owned())
        .collect();
    let rules = Rules {
        origins: cors.origins.clone(),
        credentials: cors.credentials,
        allow_methods: joined(methods.iter().map(String::as_str)),
        allow_headers: joined(
            header_names(RUNTIME_REQUEST_HEADERS, document.request_headers)
                .iter()
                .map(String::as_str),
        ),
        expose_headers: joined(
            header_names(RUNTIME_RESPONSE_HEADERS, document.response_headers)
                .iter()
                .map(String::as_str),
        ),
        max_age: HeaderValue::from(cors.max_age.as_secs()),
    };
    app.layer(CorsLayer(Arc::new(rules)))
}

/// The runtime's names and the document's, lower case, each once, in a stable order.
fn header_names(runtime: &[&str], document: &[&str]) -> Vec<String> {
    let names: BTreeSet<String> = runtime
        .iter()
        .chain(document)
        .map(|h| h.to_ascii_lowercase())
        .filter(|h| HeaderName::try_from(h.as_str()).is_ok())
        .collect();
    names.into_iter().collect()
}

/// `a,b,c` as one header value (an empty list: no header).
fn joined<'a>(items: impl Iterator<Item = &'a str>) -> Option<HeaderValue> {
    let text = items.collect::<Vec<_>>().join(",");
    if text.is_empty() {
        return None;
    }
    HeaderValue::try_from(text).ok()
}

/// A CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`.
pub(crate) fn is_preflight(method: &Method, headers: &HeaderMap) -> bool {
    method == Method::OPTIONS
        && headers.contains_key(ORIGIN)
        && headers.contains_key(ACCESS_CONTROL_REQUEST_METHOD)
}

/// What every answer says, computed once when the router is built: the header values are
/// shared by every response (no per-request formatting), and the layer's per-request clone
/// is one reference count.
struct Rules {
    origins: Origins,
    credentials: bool,
    allow_methods: Option<HeaderValue>,
    allow_headers: Option<HeaderValue>,
    expose_headers: Option<HeaderValue>,
    max_age: HeaderValue,
}

/// Responses depend on these request headers, so shared caches never serve one origin's
/// answer to another.
static VARY: HeaderValue = HeaderValue::from_static(
    "origin, access-control-request-method, access-control-request-headers",
);
static ANY: HeaderValue = HeaderValue::from_static("*");
static TRUE: HeaderValue = HeaderValue::from_static("true");

impl Rules {
    /// `Access-Control-Allow-Origin` for a request from `origin`: `*` for any origin, the
    /// origin itself when it is one of the allowed, else none.
    fn allow_origin(&self, origin: Option<&HeaderValue>) -> Option<HeaderValue> {
        match &self.origins {
            Origins::Any => Some(ANY.clone()),
            Origins::List(list) => {
                let origin = origin?;
                list.iter().find(|o| *o == origin).cloned()
            }
        }
    }

    /// The headers every answer carries, preflight or not.
    fn common(&self, headers: &mut HeaderMap, allow_origin: Option<HeaderValue>) {
        if let Some(origin) = allow_origin {
            headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        }
        if self.credentials {
            headers.insert(ACCESS_CONTROL_ALLOW_CREDENTIALS, TRUE.clone());
        }
        headers.append(VARY_NAME, VARY.clone());
    }

    /// The headers of every answer that is not a preflight's.
    fn decorate(&self, headers: &mut HeaderMap, allow_origin: Option<HeaderValue>) {
        self.common(headers, allow_origin);
        if let Some(expose) = &self.expose_headers {
            headers.insert(ACCESS_CONTROL_EXPOSE_HEADERS, expose.clone());
        }
    }

    /// The answer to a preflight: 204, no body (the status the Fetch standard's examples use).
    fn preflight(&self, origin: Option<&HeaderValue>) -> Response {
        let mut response = Response::new(axum::body::Body::empty());
        *response.status_mut() = StatusCode::NO_CONTENT;
        let headers = response.headers_mut();
        self.common(headers, self.allow_origin(origin));
        if let Some(methods) = &self.allow_methods {
            headers.insert(ACCESS_CONTROL_ALLOW_METHODS, methods.clone());
        }
        if let Some(allowed) = &self.allow_headers {
            headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, allowed.clone());
        }
        headers.insert(ACCESS_CONTROL_MAX_AGE, self.max_age.clone());
        response
    }
}

/// Puts the CORS service in front of every route (`Router::layer`).
#[derive(Clone)]
struct CorsLayer(Arc<Rules>);

impl<S> Layer<S> for CorsLayer {
    type Service = CorsService<S>;

    fn layer(&self, inner: S) -> CorsService<S> {
        CorsService {
            inner,
            rules: self.0.clone(),
        }
    }
}

/// One route behind CORS: preflights answered here, every other answer decorated.
///
/// Ours rather than tower-http's: its service carries its configuration by value, and axum
/// clones a route's whole stack for every request (two vectors and their header values), and
/// it answers every `OPTIONS` request itself, which took two more layers with a boxed future
/// each to undo for a document's own `options` operation.
#[derive(Clone)]
struct CorsService<S> {
    inner: S,
    rules: Arc<Rules>,
}

impl<S> Service<Request> for CorsService<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = CorsFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let origin = req.headers().get(ORIGIN);
        if is_preflight(req.method(), req.headers()) {
            return CorsFuture::Answered {
                answer: std::future::ready(Ok(self.rules.preflight(origin))),
            };
        }
        let allow_origin = self.rules.allow_origin(origin);
        CorsFuture::Route {
            inner: self.inner.call(req),
            after: Some((self.rules.clone(), allow_origin)),
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`CorsService`]: the route's answer to decorate, or a preflight's.
    #[project = CorsProjection]
    pub(crate) enum CorsFuture<F> {
        Route { #[pin] inner: F, after: Option<(Arc<Rules>, Option<HeaderValue>)> },
        Answered { answer: Ready<Result<Response, Infallible>> },
    }
}

impl<F> Future for CorsFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            CorsProjection::Route { inner, after } => {
                let Ok(mut response) = std::task::ready!(inner.poll(cx));
                if let Some((rules, allow_origin)) = after.take() {
                    rules.decorate(response.headers_mut(), allow_origin);
                }
                Poll::Ready(Ok(response))
            }
            CorsProjection::Answered { answer } => Pin::new(answer).poll(cx),
        }
    }
}
