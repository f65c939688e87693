//! Owns reading credentials out of a request: where each kind of security scheme carries
//! its credential (the `Authorization` line, an API-key header, query parameter or cookie),
//! the credential as presented ([`Credential`], [`PresentedCredential`]), and whether it
//! came more than once. What the credential is worth is `auth`'s business.
//!
//! Secrets never reach logs: both credential types redact themselves in `Debug`.

use std::borrow::Cow;
use std::fmt;

use http::Uri;
use http::header::{self, HeaderMap, HeaderValue};
use http::request::Parts;

use super::scheme::{SchemeKind, SecurityScheme};

/// A credential as presented, borrowed for the duration of one `authenticate` call.
#[derive(Clone, Copy)]
pub enum Credential<'a> {
    /// A bearer token (`Authorization: Bearer …`).
    Bearer(&'a str),
    /// HTTP basic authentication (`Authorization: Basic …`), decoded.
    Basic {
        /// The user name.
        user: &'a str,
        /// The password.
        password: &'a str,
    },
    /// An API key, from the header, query parameter or cookie the scheme names.
    ApiKey(&'a str),
}

impl fmt::Debug for Credential<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credential::Bearer(_) => f.write_str("Bearer(<redacted>)"),
            Credential::Basic { user, .. } => {
                write!(f, "Basic {{ user: {user:?}, password: <redacted> }}")
            }
            Credential::ApiKey(_) => f.write_str("ApiKey(<redacted>)"),
        }
    }
}

/// A credential taken out of a request (owned, so it can be held across the authenticator's
/// await without borrowing the request).
#[derive(Clone)]
pub enum PresentedCredential {
    /// A bearer token (`Authorization: Bearer …`).
    Bearer(String),
    /// HTTP basic authentication (`Authorization: Basic …`), decoded.
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: String,
    },
    /// An API key, from the header, query parameter or cookie the scheme names.
    ApiKey(String),
}

impl PresentedCredential {
    /// The credential borrowed, as an [`Authenticator`](super::auth::Authenticator) is given it.
    pub fn as_credential(&self) -> Credential<'_> {
        match self {
            PresentedCredential::Bearer(t) => Credential::Bearer(t),
            PresentedCredential::Basic { user, password } => Credential::Basic { user, password },
            PresentedCredential::ApiKey(k) => Credential::ApiKey(k),
        }
    }
}

impl fmt::Debug for PresentedCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_credential().fmt(f)
    }
}

/// What the request presents for `scheme`:
/// - `None`: nothing for this scheme;
/// - `Some(None)`: something was presented but is unusable (an empty bearer token, Basic
///   that is not base64 of "user:password");
/// - `Some(Some(c))`: a credential to check.
///
/// The auth-scheme word of `Authorization` is case-insensitive (RFC 9110 §11.1).
pub fn extract(scheme: &SecurityScheme, parts: &Parts) -> Option<Option<PresentedCredential>> {
    find(scheme, &parts.headers, &parts.uri).map(|found| found.map(Found::into_presented))
}

/// A credential as found in the request: borrowed from it where it can be (what `identify`
/// hands the authenticator), owned where it had to be decoded.
pub(crate) enum Found<'p> {
    Bearer(&'p str),
    /// The decoded `user:password` and the position of its first colon.
    Basic(String, usize),
    ApiKey(Cow<'p, str>),
}

impl Found<'_> {
    pub(crate) fn credential(&self) -> Credential<'_> {
        match self {
            Found::Bearer(t) => Credential::Bearer(t),
            Found::Basic(decoded, colon) => Credential::Basic {
                user: &decoded[..*colon],
                password: &decoded[*colon + 1..],
            },
            Found::ApiKey(k) => Credential::ApiKey(k),
        }
    }

    pub(crate) fn into_presented(self) -> PresentedCredential {
        match self {
            Found::Bearer(t) => PresentedCredential::Bearer(t.to_owned()),
            Found::Basic(mut decoded, colon) => {
                let password = decoded[colon + 1..].to_owned();
                decoded.truncate(colon);
                PresentedCredential::Basic {
                    user: decoded,
                    password,
                }
            }
            Found::ApiKey(k) => PresentedCredential::ApiKey(k.into_owned()),
        }
    }
}

/// [`extract`] on the request's headers and URI, without copying what it can borrow.
pub(crate) fn find<'p>(
    scheme: &SecurityScheme,
    headers: &'p HeaderMap,
    uri: &'p Uri,
) -> Option<Option<Found<'p>>> {
    match scheme.kind {
        SchemeKind::HttpBearer | SchemeKind::HttpBasic => {
            from_authorization(scheme, headers.get(header::AUTHORIZATION)?)
        }
        SchemeKind::ApiKeyHeader(name) => {
            let v = headers.get(name)?;
            Some(
                v.to_str()
                    .ok()
                    .filter(|s| !s.is_empty())
                    .map(|s| Found::ApiKey(Cow::Borrowed(s))),
            )
        }
        SchemeKind::ApiKeyQuery(name) => {
            let query = uri.query()?;
            let (_, v) = form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name)?;
            Some((!v.is_empty()).then_some(Found::ApiKey(v)))
        }
        SchemeKind::ApiKeyCookie(name) => {
            let v = cookie(headers, name)?;
            Some((!v.is_empty()).then_some(Found::ApiKey(Cow::Borrowed(v))))
        }
    }
}

/// [`find`] for the `Authorization` schemes (bearer, basic), given the header's first line.
pub(crate) fn from_authorization<'p>(
    scheme: &SecurityScheme,
    value: &'p HeaderValue,
) -> Option<Option<Found<'p>>> {
    match scheme.kind {
        SchemeKind::HttpBearer => {
            let rest = authorization_param(value, "bearer")?;
            Some((!rest.is_empty()).then_some(Found::Bearer(rest)))
        }
        SchemeKind::HttpBasic => {
            let rest = authorization_param(value, "basic")?;
            let decoded = super::base64::decode(rest, false)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            Some(decoded.and_then(|d| {
                let colon = d.find(':')?;
                Some(Found::Basic(d, colon))
            }))
        }
        _ => None,
    }
}

/// Whether the request carries `scheme`'s credential more than once: a second
/// `Authorization` line (for bearer and basic schemes, whatever its scheme word), a repeated
/// API-key header, query key or cookie. Such a request is ambiguous (a proxy in front may
/// have read the other value), so no credential of the scheme is checked and operations that
/// accept the scheme refuse the request with 400 (`auth::authorize_scheme`).
pub(crate) fn repeated(scheme: &SecurityScheme, headers: &HeaderMap, uri: &Uri) -> bool {
    match scheme.kind {
        SchemeKind::HttpBearer | SchemeKind::HttpBasic => headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .nth(1)
            .is_some(),
        SchemeKind::ApiKeyHeader(name) => headers.get_all(name).iter().nth(1).is_some(),
        SchemeKind::ApiKeyQuery(name) => uri.query().is_some_and(|q| {
            form_urlencoded::parse(q.as_bytes())
                .filter(|(k, _)| k == name)
                .nth(1)
                .is_some()
        }),
        SchemeKind::ApiKeyCookie(name) => headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(k, _)| k.trim() == name)
            .nth(1)
            .is_some(),
    }
}

/// Where `scheme`'s credential travels, as a violation pointer names an input:
/// "header/Authorization", "query/api_key", "cookie/session".
pub(crate) fn credential_pointer(scheme: &SecurityScheme) -> String {
    match scheme.kind {
        SchemeKind::HttpBearer | SchemeKind::HttpBasic => "header/Authorization".to_owned(),
        SchemeKind::ApiKeyHeader(name) => format!("header/{name}"),
        SchemeKind::ApiKeyQuery(name) => format!("query/{name}"),
        SchemeKind::ApiKeyCookie(name) => format!("cookie/{name}"),
    }
}

/// The text after `<scheme> ` in an `Authorization` header line, when its scheme word is
/// `scheme` (compared case-insensitively).
fn authorization_param<'p>(value: &'p HeaderValue, scheme: &str) -> Option<&'p str> {
    let value = value.to_str().ok()?.trim();
    let (word, rest) = match value.split_once([' ', '\t']) {
        Some((w, r)) => (w, r.trim()),
        None => (value, ""),
    };
    word.eq_ignore_ascii_case(scheme).then_some(rest)
}

fn cookie<'p>(headers: &'p HeaderMap, name: &str) -> Option<&'p str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| k.trim() == name)
        .map(|(_, v)| v.trim())
}
