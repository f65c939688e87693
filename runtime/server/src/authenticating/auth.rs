//! Owns authentication: the pluggable `Authenticator` (with `StaticKeys` and `DenyAll`), the
//! per-request `Identity`, and the per-operation `authorize` check that produces 401 problems
//! with `WWW-Authenticate`; the scheme types (`scheme.rs`) and reading credentials
//! (`credentials.rs`) are re-exported here. Secrets never reach logs or problem messages:
//! `StaticKeys` redacts itself in `Debug`, and messages only say "missing" or "not valid".

use std::fmt;
use std::net::{IpAddr, SocketAddr};

use http::Uri;
use http::header::{self, HeaderMap, HeaderValue};
use http::request::Parts;

pub use super::authenticator::{
    Authenticator, DenyAll, DigestCompare, Principal, StaticKeys, constant_time_eq,
};
pub use super::credentials::{Credential, PresentedCredential, extract};
use super::credentials::{Found, credential_pointer, find, from_authorization, repeated};
use super::problem::{Problem, Violation};
use super::ratelimit::Decision;
use super::runtime_handle::Runtime;
pub use super::scheme::{SchemeKind, Security, SecurityScheme};

/// The realm named in every `WWW-Authenticate` challenge.
pub const REALM: &str = "api";

/// What the router-wide layer learned about the caller; stored in the request extensions.
///
/// It is the one value the layer stores per request: it also carries the rate-limit
/// [`Decision`] ([`Identity::rate_limit`]) and the handlers' [`Runtime`]
/// (`Runtime::from_parts` finds it here).
#[derive(Clone, Debug, Default)]
pub struct Identity {
    schemes: &'static [SecurityScheme],
    principals: Principals,
    /// Bit `i`: `schemes[i]` had a credential in the request.
    presented_mask: u64,
    /// Schemes marked presented that are not among the first 64 of `schemes`.
    presented_other: Vec<&'static str>,
    /// Schemes whose credential the request carried more than once (never checked).
    repeated: Vec<&'static str>,
    client_addr: Option<SocketAddr>,
    client_ip: Option<IpAddr>,
    /// Set when the rate limit refused the request: `authorize` answers with it. Boxed: a
    /// refusal is rare and the identity is moved around on every request.
    refusal: Option<Box<Problem>>,
    decision: Option<Decision>,
    runtime: Option<Runtime>,
}

/// The valid principals, without a heap allocation for the usual single one.
#[derive(Clone, Debug, Default)]
enum Principals {
    #[default]
    None,
    One(Principal),
    Many(Vec<Principal>),
}

impl Principals {
    #[inline]
    fn as_slice(&self) -> &[Principal] {
        match self {
            Principals::None => &[],
            Principals::One(p) => std::slice::from_ref(p),
            Principals::Many(v) => v,
        }
    }

    /// Adds `principal`, replacing one of the same scheme (which moves to the end).
    fn put(&mut self, principal: Principal) {
        if let Principals::None = self {
            // The usual case: one scheme, one principal.
            *self = Principals::One(principal);
            return;
        }
        *self = match std::mem::take(self) {
            Principals::None => Principals::One(principal),
            Principals::One(p) if p.scheme == principal.scheme => Principals::One(principal),
            Principals::One(p) => Principals::Many(vec![p, principal]),
            Principals::Many(mut v) => {
                v.retain(|p| p.scheme != principal.scheme);
                v.push(principal);
                Principals::Many(v)
            }
        };
    }
}

impl Identity {
    /// An identity with no credentials. `schemes` is the document's scheme table (used to
    /// word `WWW-Authenticate`); `client_addr` is the TCP peer; `client_ip` the address used
    /// for anonymous rate limiting (the peer's, or `X-Forwarded-For`'s when trusted).
    pub fn new(
        schemes: &'static [SecurityScheme],
        client_addr: Option<SocketAddr>,
        client_ip: Option<IpAddr>,
    ) -> Self {
        Identity {
            schemes,
            client_addr,
            client_ip,
            ..Identity::default()
        }
    }

    /// Marks the request as refused (the layer's 429): `authorize`, the first thing every
    /// handler calls, then fails with `problem`, so the operation's own headers (e.g.
    /// `Deprecation`) are added to the 429 and nothing else of the request is read.
    pub fn with_refusal(mut self, problem: Problem) -> Self {
        self.refusal = Some(Box::new(problem));
        self
    }

    /// The problem the request was refused with, if the rate limit refused it.
    #[inline]
    pub fn refusal(&self) -> Option<&Problem> {
        self.refusal.as_deref()
    }

    /// What the layer adds once the rate limit has decided (in place: the identity is not
    /// moved again).
    pub(crate) fn attach(
        &mut self,
        decision: Option<Decision>,
        refusal: Option<Problem>,
        runtime: Runtime,
    ) {
        self.decision = decision;
        self.refusal = refusal.map(Box::new);
        self.runtime = Some(runtime);
    }

    /// Records the rate limit's decision about this request (the layer does).
    pub fn with_rate_limit(mut self, decision: Decision) -> Self {
        self.decision = Some(decision);
        self
    }

    /// The rate limit's decision about this request; `None` when no limit is configured or
    /// the caller is not limited.
    pub fn rate_limit(&self) -> Option<&Decision> {
        self.decision.as_ref()
    }

    /// Attaches the handlers' runtime (the layer does; `Runtime::from_parts` reads it).
    pub fn with_runtime(mut self, runtime: Runtime) -> Self {
        self.runtime = Some(runtime);
        self
    }

    /// The runtime the layer attached, if any.
    #[inline]
    pub fn runtime(&self) -> Option<&Runtime> {
        self.runtime.as_ref()
    }

    /// Records that `scheme` had a credential in the request (valid or not).
    pub fn with_presented(mut self, scheme: &'static str) -> Self {
        self.mark_presented(scheme);
        self
    }

    /// [`Identity::mark_presented`] for `schemes[index]`, without looking its name up.
    fn mark_presented_at(&mut self, index: usize) {
        match self.schemes.get(index) {
            Some(_) if index < 64 => self.presented_mask |= 1u64 << index,
            Some(scheme) => self.mark_presented(scheme.name),
            None => {}
        }
    }

    fn mark_presented(&mut self, scheme: &'static str) {
        match self.scheme_bit(scheme) {
            Some(bit) => self.presented_mask |= bit,
            None => {
                if !self.presented_other.contains(&scheme) {
                    self.presented_other.push(scheme);
                }
            }
        }
    }

    /// The bit of `scheme` in `presented_mask`, when it is among the first 64 schemes.
    fn scheme_bit(&self, scheme: &str) -> Option<u64> {
        self.schemes
            .iter()
            .take(64)
            .position(|s| s.name == scheme)
            .map(|i| 1u64 << i)
    }

    /// The authenticator's answer for `scheme`'s credential (already marked presented).
    fn accept(&mut self, scheme: &SecurityScheme, principal: Option<Principal>) {
        if let Some(mut principal) = principal {
            principal.scheme = scheme.name;
            self.principals.put(principal);
        }
    }

    /// Records that the request carried `scheme`'s credential more than once (implies
    /// presented); operations that accept the scheme answer 400.
    pub fn with_repeated(mut self, scheme: &'static str) -> Self {
        self.mark_repeated(scheme);
        self
    }

    fn mark_repeated(&mut self, scheme: &'static str) {
        self.mark_presented(scheme);
        if !self.repeated.contains(&scheme) {
            self.repeated.push(scheme);
        }
    }

    /// Whether the request carried `scheme`'s credential more than once.
    pub fn repeated(&self, scheme: &str) -> bool {
        self.repeated.contains(&scheme)
    }

    /// Records a valid credential (implies presented).
    pub fn with_principal(mut self, principal: Principal) -> Self {
        self.mark_presented(principal.scheme);
        self.principals.put(principal);
        self
    }

    /// The valid principal of `scheme`, if its credential was presented and accepted.
    pub fn principal(&self, scheme: &str) -> Option<&Principal> {
        self.principals().iter().find(|p| p.scheme == scheme)
    }

    /// Valid principals, in the order of the document's schemes.
    #[inline]
    pub fn principals(&self) -> &[Principal] {
        self.principals.as_slice()
    }

    /// Whether a credential for `scheme` was presented (valid or not).
    pub fn presented(&self, scheme: &str) -> bool {
        match self.scheme_bit(scheme) {
            Some(bit) => self.presented_mask & bit != 0,
            None => self.presented_other.contains(&scheme),
        }
    }

    /// The TCP peer of the connection, when the server was given it.
    pub fn client_addr(&self) -> Option<SocketAddr> {
        self.client_addr
    }

    /// The address anonymous callers are rate-limited by: the peer's, or the last
    /// `X-Forwarded-For` entry's when `ServerConfig::trust_forwarded_for` is on.
    pub fn client_ip(&self) -> Option<IpAddr> {
        self.client_ip
    }

    /// The document's security schemes, as the identity was built with.
    pub fn schemes(&self) -> &'static [SecurityScheme] {
        self.schemes
    }
}

/// Extracts every scheme's credential and asks `authenticator` about each one presented.
/// The layer calls this; it is public for applications that build their own layer.
pub async fn identify(
    parts: &Parts,
    schemes: &'static [SecurityScheme],
    authenticator: &dyn Authenticator,
    client_addr: Option<SocketAddr>,
    client_ip: Option<IpAddr>,
) -> Identity {
    identify_request(
        &parts.headers,
        &parts.uri,
        schemes,
        authenticator,
        client_addr,
        client_ip,
    )
    .await
}

/// [`identify`] on a request's headers and URI (so the layer need not take the request
/// apart). Credentials are handed to the authenticator borrowed from the request; its
/// synchronous answer (`Authenticator::authenticate_sync`) is used when it gives one.
pub async fn identify_request(
    headers: &HeaderMap,
    uri: &Uri,
    schemes: &'static [SecurityScheme],
    authenticator: &dyn Authenticator,
    client_addr: Option<SocketAddr>,
    client_ip: Option<IpAddr>,
) -> Identity {
    match identify_sync(headers, uri, schemes, authenticator, client_addr, client_ip) {
        Ok(identity) => identity,
        Err(pending) => pending.finish(authenticator).await,
    }
}

/// [`identify_request`] as far as it gets without waiting: `Ok` when the authenticator
/// answered every presented credential synchronously (`Authenticator::authenticate_sync`),
/// else `Err` with the rest to await ([`PendingIdentity::finish`]). Lets a layer keep the
/// common case free of futures.
pub fn identify_sync<'p>(
    headers: &'p HeaderMap,
    uri: &'p Uri,
    schemes: &'static [SecurityScheme],
    authenticator: &dyn Authenticator,
    client_addr: Option<SocketAddr>,
    client_ip: Option<IpAddr>,
) -> Result<Identity, Box<PendingIdentity<'p>>> {
    let mut pending = PendingIdentity {
        identity: Identity::new(schemes, client_addr, client_ip),
        headers,
        uri,
        next: 0,
        waiting: None,
    };
    if pending.advance(authenticator) {
        // Boxed: only authenticators that must be awaited get here.
        Err(Box::new(pending))
    } else {
        Ok(pending.identity)
    }
}

/// An identification stopped at a credential whose authenticator has to be awaited (see
/// [`identify_sync`]).
pub struct PendingIdentity<'p> {
    identity: Identity,
    headers: &'p HeaderMap,
    uri: &'p Uri,
    /// The index of the next scheme to look at.
    next: usize,
    /// The scheme and credential that wait for `Authenticator::authenticate`.
    waiting: Option<(&'static SecurityScheme, Found<'p>)>,
}

impl fmt::Debug for PendingIdentity<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingIdentity")
            .field("identity", &self.identity)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl PendingIdentity<'_> {
    /// Goes through the remaining schemes while the authenticator answers synchronously;
    /// true when it stopped at a credential to await (`waiting`).
    fn advance(&mut self, authenticator: &dyn Authenticator) -> bool {
        let schemes = self.identity.schemes;
        while let Some(scheme) = schemes.get(self.next) {
            let index = self.next;
            self.next += 1;
            let found = match scheme.kind {
                SchemeKind::HttpBearer | SchemeKind::HttpBasic => {
                    // One lookup of `Authorization` answers both questions: is there a second
                    // line (`repeated`), and what does the first hold (`find`).
                    let mut lines = self.headers.get_all(header::AUTHORIZATION).iter();
                    let first = lines.next();
                    if lines.next().is_some() {
                        self.identity.mark_repeated(scheme.name);
                        continue;
                    }
                    first.and_then(|value| from_authorization(scheme, value))
                }
                _ => {
                    if repeated(scheme, self.headers, self.uri) {
                        self.identity.mark_repeated(scheme.name);
                        continue;
                    }
                    find(scheme, self.headers, self.uri)
                }
            };
            let Some(found) = found else {
                continue;
            };
            self.identity.mark_presented_at(index);
            let Some(found) = found else {
                continue;
            };
            match authenticator.authenticate_sync(scheme, found.credential()) {
                Some(principal) => self.identity.accept(scheme, principal),
                None => {
                    self.waiting = Some((scheme, found));
                    return true;
                }
            }
        }
        false
    }

    /// Awaits the authenticator for the credential it stopped at, and every later one that
    /// needs it.
    pub async fn finish(mut self, authenticator: &dyn Authenticator) -> Identity {
        while let Some((scheme, found)) = self.waiting.take() {
            let principal = authenticator.authenticate(scheme, found.credential()).await;
            self.identity.accept(scheme, principal);
            self.advance(authenticator);
        }
        self.identity
    }

    /// The identification without its borrows of the request (the credential it stopped at
    /// copied out), so the request can move; [`DetachedIdentity::finish`] goes on from there.
    pub(crate) fn detach(self) -> DetachedIdentity {
        DetachedIdentity {
            identity: self.identity,
            next: self.next,
            waiting: self
                .waiting
                .map(|(scheme, found)| (scheme, found.into_presented())),
        }
    }
}

/// A [`PendingIdentity`] that no longer borrows the request: what a layer keeps when it must
/// move the request (into a future of its own) before awaiting the authenticator.
pub(crate) struct DetachedIdentity {
    identity: Identity,
    next: usize,
    waiting: Option<(&'static SecurityScheme, PresentedCredential)>,
}

impl fmt::Debug for DetachedIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetachedIdentity")
            .field("identity", &self.identity)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl DetachedIdentity {
    /// [`PendingIdentity::finish`] on the same request's headers and URI.
    pub(crate) async fn finish(
        mut self,
        headers: &HeaderMap,
        uri: &Uri,
        authenticator: &dyn Authenticator,
    ) -> Identity {
        while let Some((scheme, presented)) = self.waiting.take() {
            let principal = authenticator
                .authenticate(scheme, presented.as_credential())
                .await;
            self.identity.accept(scheme, principal);
            let mut pending = PendingIdentity {
                identity: self.identity,
                headers,
                uri,
                next: self.next,
                waiting: None,
            };
            pending.advance(authenticator);
            self = pending.detach();
        }
        self.identity
    }
}

/// Checks one operation's requirement against what the layer learned.
///
/// First of all: when the layer refused the request (`Identity::refusal`, a 429), that
/// problem, whatever the operation requires. Handlers call this before anything else.
///
/// Ok(Some(principal)) for the first alternative whose every scheme has a valid credential
/// (the principal of its first scheme); Ok(None) when the operation needs no auth or allows
/// anonymous callers; otherwise a 401 problem whose `WWW-Authenticate` names the schemes the
/// operation accepts, with `error="invalid_token"` on the bearer challenge only when a
/// token was presented (RFC 6750 §3).
pub fn authorize(
    identity: Option<&Identity>,
    security: Security,
) -> Result<Option<Principal>, Problem> {
    let scheme = authorize_scheme(identity, security)?;
    Ok(scheme.and_then(|s| identity?.principal(s)).cloned())
}

/// [`authorize`] without copying the principal: the scheme whose principal the operation
/// acts as (`Identity::principal` finds it; `RequestContext::principal` looks it up).
/// Generated handlers call this.
pub fn authorize_scheme(
    identity: Option<&Identity>,
    security: Security,
) -> Result<Option<&'static str>, Problem> {
    let Some(identity) = identity else {
        // Routes run without the layer: nobody is authenticated.
        return authorize_scheme(Some(&Identity::default()), security);
    };
    if let Some(refusal) = identity.refusal() {
        return Err(refusal.clone());
    }
    if let Some(problem) = repeated_credentials(identity, security) {
        return Err(problem);
    }
    let mut anonymous = security.is_empty();
    for alternative in security {
        let Some((first, rest)) = alternative.split_first() else {
            anonymous = true;
            continue;
        };
        if identity.principal(first).is_some()
            && rest.iter().all(|s| identity.principal(s).is_some())
        {
            return Ok(Some(first));
        }
    }
    if anonymous {
        return Ok(None);
    }
    Err(unauthorized(identity, security))
}

/// A 400 naming each credential of the operation's schemes that the request carried more
/// than once; None when there is none (the usual case: no allocation).
fn repeated_credentials(identity: &Identity, security: Security) -> Option<Problem> {
    if identity.repeated.is_empty() {
        return None;
    }
    let mut violations: Vec<Violation> = Vec::new();
    for name in security.iter().flat_map(|alt| alt.iter()) {
        if !identity.repeated(name) {
            continue;
        }
        let pointer = match identity.schemes.iter().find(|s| s.name == *name) {
            Some(scheme) => credential_pointer(scheme),
            None => format!("security/{name}"),
        };
        if violations.iter().all(|v| v.pointer != pointer) {
            violations.push(Violation {
                pointer,
                message: "credential given more than once; send exactly one".to_owned(),
            });
        }
    }
    (!violations.is_empty())
        .then(|| Problem::bad_request("ambiguous credentials").with_violations(violations))
}

fn unauthorized(identity: &Identity, security: Security) -> Problem {
    let mut required: Vec<&'static str> = Vec::new();
    for name in security.iter().flat_map(|alt| alt.iter()) {
        if !required.contains(name) {
            required.push(name);
        }
    }
    let presented = required.iter().any(|s| identity.presented(s));
    let mut problem = Problem::unauthorized(if presented {
        "the credentials are not valid"
    } else {
        "authentication is required"
    });
    let mut bearer_presented: Option<bool> = None;
    let mut basic = false;
    let mut api_key = false;
    for name in &required {
        let kind = identity
            .schemes
            .iter()
            .find(|s| s.name == *name)
            .map(|s| s.kind)
            // Without the layer's scheme table, assume the common case.
            .unwrap_or(SchemeKind::HttpBearer);
        match kind {
            SchemeKind::HttpBearer => {
                let prev = bearer_presented.unwrap_or(false);
                bearer_presented = Some(prev || identity.presented(name));
            }
            SchemeKind::HttpBasic => basic = true,
            _ => api_key = true,
        }
    }
    let mut challenges: Vec<String> = Vec::new();
    if let Some(presented) = bearer_presented {
        challenges.push(if presented {
            format!("Bearer realm=\"{REALM}\", error=\"invalid_token\"")
        } else {
            format!("Bearer realm=\"{REALM}\"")
        });
    }
    if basic {
        challenges.push(format!("Basic realm=\"{REALM}\", charset=\"UTF-8\""));
    }
    if api_key {
        // No registered challenge exists for API keys, but a 401 must carry one (RFC 9110
        // §15.5.2); this is the form most API-key services use.
        challenges.push(format!("ApiKey realm=\"{REALM}\""));
    }
    for c in challenges {
        if let Ok(v) = HeaderValue::from_str(&c) {
            problem = problem.append_header(header::WWW_AUTHENTICATE, v);
        }
    }
    problem
}
