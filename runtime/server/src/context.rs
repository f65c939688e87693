//! Owns `RequestContext`: what a generated handler hands to the application's trait method
//! besides the typed inputs (operation id, authenticated principal, raw headers, extensions,
//! client address, method and URI).

use std::net::SocketAddr;

use http::request::Parts;
use http::{Extensions, HeaderMap, Method, Uri};

use super::auth::{Identity, Principal};

/// The request as the application sees it. `extensions` carries what middleware put there
/// (the `Identity`, which also holds the rate-limit `Decision`, and anything of the
/// application's own).
#[derive(Debug)]
pub struct RequestContext {
    pub operation_id: &'static str,
    pub principal: Option<Principal>,
    pub headers: HeaderMap,
    pub extensions: Extensions,
    /// The TCP peer (present when served with `into_make_service_with_connect_info`).
    pub client_addr: Option<SocketAddr>,
    pub method: Method,
    /// The URI as routed (without the base path when one is configured).
    pub uri: Uri,
}

impl RequestContext {
    /// Takes the request's head apart; call after parameters and body have been read.
    pub fn new(operation_id: &'static str, principal: Option<Principal>, parts: Parts) -> Self {
        let identity = parts.extensions.get::<Identity>();
        let client_addr = identity.and_then(Identity::client_addr).or_else(|| {
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<SocketAddr>>()
                .map(|c| c.0)
        });
        let uri = match identity.and_then(Identity::runtime) {
            Some(runtime) => runtime.routed_uri(parts.uri),
            None => parts.uri,
        };
        RequestContext {
            operation_id,
            principal,
            headers: parts.headers,
            extensions: parts.extensions,
            client_addr,
            method: parts.method,
            uri,
        }
    }

    /// The `Identity` the router-wide layer stored (every principal, not only the one the
    /// operation's requirement picked).
    pub fn identity(&self) -> Option<&Identity> {
        self.extensions.get::<Identity>()
    }
}
