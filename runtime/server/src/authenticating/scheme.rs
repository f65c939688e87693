//! Owns the document's security schemes as both runtimes see them: how a scheme carries its
//! secret ([`SchemeKind`]), one `components.securitySchemes` entry ([`SecurityScheme`], a
//! static the generator emits) and an operation's requirement ([`Security`]). One file: the
//! client runtime's `scheme.rs` is a link to this one (book/src/internals/runtime-crates.md).

/// How a security scheme carries its secret (OpenAPI `securitySchemes`). oauth2 and
/// openIdConnect schemes are emitted as `HttpBearer` (a resource server sees, and a client
/// sends, a bearer token either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemeKind {
    /// `type: http, scheme: bearer` → `Authorization: Bearer <token>`.
    HttpBearer,
    /// `type: http, scheme: basic` → `Authorization: Basic base64(user:password)`.
    HttpBasic,
    /// `type: apiKey, in: header`, with the header name.
    ApiKeyHeader(&'static str),
    /// `type: apiKey, in: query`, with the parameter name.
    ApiKeyQuery(&'static str),
    /// `type: apiKey, in: cookie`, with the cookie name.
    ApiKeyCookie(&'static str),
}

/// One entry of the document's `components.securitySchemes`, emitted as a static by the
/// generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecurityScheme {
    /// The scheme's key in `securitySchemes`; security requirements refer to it.
    pub name: &'static str,
    /// What kind of scheme it is, and where its credential goes.
    pub kind: SchemeKind,
}

/// An operation's security requirement: alternatives (OR) of sets of scheme names (AND).
/// `&[]` means the operation needs no credentials; an empty set among the alternatives means
/// credentials are optional (anonymous calls allowed).
pub type Security = &'static [&'static [&'static str]];
