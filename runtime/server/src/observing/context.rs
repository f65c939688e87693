//! Owns `RequestContext`: what a generated handler hands to the application's trait method
//! besides the typed inputs (operation id, authenticated principal, raw headers, extensions,
//! client address, method, URI and the path as routed).

use std::net::SocketAddr;

use http::request::Parts;
use http::{Extensions, HeaderMap, Method, Uri};

use super::auth::{Identity, Principal};

/// The request as the application sees it. `extensions` carries what middleware put there
/// (the `Identity`, which also holds the rate-limit `Decision`, and anything of the
/// application's own).
///
/// Built once per request from the request's head, which it takes over: nothing is copied,
/// and what only some applications want (the principal, the routed path) is looked up when
/// asked for rather than prepared for every request.
#[derive(Debug)]
pub struct RequestContext {
    /// The `operationId` of the operation being served.
    pub operation_id: &'static str,
    /// The request's headers, as received.
    pub headers: HeaderMap,
    /// The request's extensions: what middleware put there.
    pub extensions: Extensions,
    /// The TCP peer (present when served with `into_make_service_with_connect_info`).
    pub client_addr: Option<SocketAddr>,
    /// The request's method.
    pub method: Method,
    /// The request URI as the client sent it, base path included (`/v1/pets?limit=5`); see
    /// [`RequestContext::path`] for the path as routed.
    pub uri: Uri,
    /// The scheme whose principal the operation acts as (what `auth::authorize_scheme` chose).
    principal_scheme: Option<&'static str>,
    /// Bytes of `uri`'s path that are the base path.
    base_len: usize,
}

impl RequestContext {
    /// Takes the request's head apart; call after parameters and body have been read.
    /// `principal_scheme` is what `auth::authorize_scheme` answered for the operation (`None`
    /// for an anonymous call).
    pub fn new(
        operation_id: &'static str,
        principal_scheme: Option<&'static str>,
        parts: Parts,
    ) -> Self {
        let identity = parts.extensions.get::<Identity>();
        let client_addr = identity.and_then(Identity::client_addr).or_else(|| {
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<SocketAddr>>()
                .map(|c| c.0)
        });
        let runtime = identity.and_then(Identity::runtime);
        // Routes nested under the base path (`layer::finish`) see the URI with the prefix
        // already removed: put it back, so `uri` is what the client sent either way.
        let uri = match runtime {
            Some(rt) if rt.nested() => rt.unnested_uri(parts.uri),
            _ => parts.uri,
        };
        let base_len = runtime.map_or(0, |rt| base_len(uri.path(), rt.base_path()));
        RequestContext {
            operation_id,
            headers: parts.headers,
            extensions: parts.extensions,
            client_addr,
            method: parts.method,
            uri,
            principal_scheme,
            base_len,
        }
    }

    /// The authenticated caller the operation acts for: the principal of the first scheme of
    /// the security alternative the request satisfied. `None` for anonymous calls.
    pub fn principal(&self) -> Option<&Principal> {
        self.identity()?.principal(self.principal_scheme?)
    }

    /// The path as routed: without the base path (`/pets/7` for `/v1/pets/7`), still
    /// percent-encoded. The same whether the routes carry the base path or are nested.
    pub fn path(&self) -> &str {
        match &self.uri.path()[self.base_len..] {
            "" => "/",
            rest => rest,
        }
    }

    /// The `Identity` the router-wide layer stored (every principal, not only the one the
    /// operation's requirement picked).
    pub fn identity(&self) -> Option<&Identity> {
        self.extensions.get::<Identity>()
    }
}

/// How much of `path` is the base path: `base.len()` when `path` is the base path or below
/// it, else 0.
fn base_len(path: &str, base: &str) -> usize {
    match path.strip_prefix(base) {
        Some(rest) if !base.is_empty() && (rest.is_empty() || rest.starts_with('/')) => base.len(),
        _ => 0,
    }
}
