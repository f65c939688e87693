//! Auth: the document's security schemes, the credentials a client holds, and how the chosen
//! ones are put on an outgoing request.

use std::collections::BTreeMap;
use std::fmt;

use http::header::{AUTHORIZATION, COOKIE, HeaderName, HeaderValue};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

pub use super::scheme::{SchemeKind, Security, SecurityScheme};

/// A secret for one scheme.
#[derive(Clone, PartialEq, Eq)]
pub enum Secret {
    /// A bearer token (also accepted for api-key schemes).
    Token(String),
    /// User and password for HTTP basic.
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: String,
    },
    /// An API key (also accepted for bearer schemes).
    ApiKey(String),
}

// Secrets must not end up in logs through `{:?}`; the user name is not secret and helps debugging.
impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Secret::Token(_) => f.write_str("Token(<redacted>)"),
            Secret::Basic { user, .. } => f
                .debug_struct("Basic")
                .field("user", user)
                .field("password", &format_args!("<redacted>"))
                .finish(),
            Secret::ApiKey(_) => f.write_str("ApiKey(<redacted>)"),
        }
    }
}

/// The credentials a client holds, per security scheme name.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    // BTreeMap: deterministic Debug output and no hashing of secrets.
    secrets: BTreeMap<&'static str, Secret>,
}

impl Credentials {
    /// No credentials: requests go out without any.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets (or replaces) the secret for the scheme named `scheme`.
    pub fn set(&mut self, scheme: &'static str, value: Secret) {
        self.secrets.insert(scheme, value);
    }

    /// Builder form of [`Credentials::set`].
    pub fn with(mut self, scheme: &'static str, value: Secret) -> Self {
        self.set(scheme, value);
        self
    }

    /// The secret held for `scheme`, if any.
    pub fn get(&self, scheme: &str) -> Option<&Secret> {
        self.secrets.get(scheme)
    }

    /// Forgets the secret of `scheme`, returning it.
    pub fn remove(&mut self, scheme: &str) -> Option<Secret> {
        self.secrets.remove(scheme)
    }

    /// Whether no secret is held.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.secrets.iter()).finish()
    }
}

/// The alternative of `security` to use with `creds`: the first non-empty set whose every
/// scheme is known and has a fitting secret. An empty set (optional auth) is chosen only when
/// no non-empty one is satisfied, so optional credentials are still sent when held.
/// `None`: nothing fits; the request goes out without credentials and the server decides.
pub fn select(
    schemes: &'static [SecurityScheme],
    security: Security,
    creds: &Credentials,
) -> Option<&'static [&'static str]> {
    let mut anonymous = None;
    for &alternative in security {
        if alternative.is_empty() {
            anonymous.get_or_insert(alternative);
            continue;
        }
        let satisfied = alternative.iter().all(|name| {
            let kind = schemes.iter().find(|s| s.name == *name).map(|s| s.kind);
            matches!((kind, creds.get(name)), (Some(kind), Some(secret)) if fits(kind, secret))
        });
        if satisfied {
            return Some(alternative);
        }
    }
    anonymous
}

fn fits(kind: SchemeKind, secret: &Secret) -> bool {
    match secret {
        Secret::Basic { .. } => kind == SchemeKind::HttpBasic,
        // A token and an API key are both opaque strings; accept either for string schemes.
        Secret::Token(_) | Secret::ApiKey(_) => kind != SchemeKind::HttpBasic,
    }
}

/// Puts the credentials of the alternative chosen by [`select`] on `request`.
///
/// Works on a built request rather than a builder because reqwest (without its `query`
/// feature) can only add a query parameter through the URL, and merging a cookie needs to see
/// the headers already set. `Err` carries a message when a secret is not a valid header value.
pub fn apply(
    request: &mut reqwest::Request,
    schemes: &'static [SecurityScheme],
    security: Security,
    creds: &Credentials,
) -> Result<(), String> {
    let Some(alternative) = select(schemes, security, creds) else {
        if !security.is_empty() {
            tracing::debug!("no credentials held for any security alternative; sending without");
        }
        return Ok(());
    };
    for name in alternative {
        // `select` guarantees both lookups succeed.
        let (Some(scheme), Some(secret)) =
            (schemes.iter().find(|s| s.name == *name), creds.get(name))
        else {
            continue;
        };
        match (scheme.kind, secret) {
            (SchemeKind::HttpBasic, Secret::Basic { user, password }) => {
                let encoded = base64(format!("{user}:{password}").as_bytes());
                set_header(request, AUTHORIZATION, &format!("Basic {encoded}"), name)?;
            }
            (SchemeKind::HttpBearer, Secret::Token(token) | Secret::ApiKey(token)) => {
                // Written as bytes and handed over whole: no formatting, no second copy.
                let mut line = Vec::with_capacity("Bearer ".len() + token.len());
                line.extend_from_slice(b"Bearer ");
                line.extend_from_slice(token.as_bytes());
                let value = HeaderValue::from_maybe_shared(bytes::Bytes::from(line))
                    .map_err(|_| invalid_secret(name))?;
                insert_sensitive(request, AUTHORIZATION, value);
            }
            (SchemeKind::ApiKeyHeader(header), Secret::Token(key) | Secret::ApiKey(key)) => {
                let header = HeaderName::from_bytes(header.as_bytes()).map_err(|_| {
                    format!("security scheme `{name}`: invalid header name `{header}`")
                })?;
                set_header(request, header, key, name)?;
            }
            (SchemeKind::ApiKeyQuery(param), Secret::Token(key) | Secret::ApiKey(key)) => {
                request.url_mut().query_pairs_mut().append_pair(param, key);
            }
            (SchemeKind::ApiKeyCookie(cookie), Secret::Token(key) | Secret::ApiKey(key)) => {
                add_cookie(request, cookie, key, name)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn set_header(
    request: &mut reqwest::Request,
    name: HeaderName,
    value: &str,
    scheme: &str,
) -> Result<(), String> {
    let value = HeaderValue::from_str(value).map_err(|_| invalid_secret(scheme))?;
    insert_sensitive(request, name, value);
    Ok(())
}

fn invalid_secret(scheme: &str) -> String {
    format!("security scheme `{scheme}`: secret is not a valid header value")
}

fn insert_sensitive(request: &mut reqwest::Request, name: HeaderName, mut value: HeaderValue) {
    // Keeps the value out of HTTP/2 header compression tables and out of Debug output.
    value.set_sensitive(true);
    request.headers_mut().insert(name, value);
}

// Bytes a cookie value may not hold unencoded (RFC 6265 cookie-octet), plus `%` so encoding
// stays reversible.
const COOKIE_VALUE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

// HTTP/1.1 allows a single Cookie header, so a key joins any cookie the request already has.
fn add_cookie(
    request: &mut reqwest::Request,
    cookie: &str,
    key: &str,
    scheme: &str,
) -> Result<(), String> {
    let pair = format!("{cookie}={}", utf8_percent_encode(key, COOKIE_VALUE));
    let joined = match request.headers().get(COOKIE).and_then(|v| v.to_str().ok()) {
        Some(existing) if !existing.is_empty() => format!("{existing}; {pair}"),
        _ => pair,
    };
    set_header(request, COOKIE, &joined, scheme)
}

// Standard base64 with padding, for Basic credentials; too small a need for a dependency.
fn base64(input: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(input.len().div_ceil(3) * 4);
    for chunk in input.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
