//! The generator's own plain-data model of an API: every decision (names, Rust types, which
//! status maps to which variant, which headers the runtime adds) is made before this is built,
//! so the emitters only print it.

use std::collections::BTreeMap;

mod cli;
mod operation;
mod types;

pub use cli::*;
pub use operation::*;
pub use types::*;

/// One API: everything both crates are generated from.
#[derive(Debug, Clone)]
pub struct Api {
    pub title: String,
    pub version: String,
    pub description: Option<String>,
    /// Path prefix of the first server URL (`/v1`), empty when there is none.
    pub base_path: String,
    pub servers: Vec<Server>,
    /// Name of the server trait and the client type stem, from the title (`PetStore`).
    pub api_name: String,
    pub types: Vec<TypeDef>,
    pub operations: Vec<Operation>,
    pub security_schemes: Vec<SecurityScheme>,
    pub rate_limit: Option<RateLimitPolicy>,
    pub cors: Cors,
    /// The server's routes, in the order of the document's paths: one per path shape.
    pub routes: Vec<Route>,
    /// The shapes of the document's error bodies that are not the default `{code, message,
    /// status}` (`lower/errors.rs`); `errors` and `Operation::errors` point into it.
    pub error_bodies: Vec<ErrorBody>,
    /// The document's error bodies by status, for every problem the server writes: for each
    /// status the document describes, the shape most of its operations use. Empty: the
    /// default body everywhere.
    pub errors: ErrorTable,
    /// The requests this API sends to its consumers (`webhooks`).
    pub webhooks: Vec<Webhook>,
    /// Some answer of some operation is a stream (`BodyKind::Stream`, a success's or not):
    /// both crate roots re-export the runtime's stream types.
    pub streams: bool,
    /// The generated crates' cargo feature per tag, and what each compiles (`lower::features`).
    pub features: FeatureGates,
}

/// The generated crates' features (`lower::features`): empty when the document's operations
/// fall in fewer than two.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeatureGates {
    /// Each feature (`pull-requests`), in the order the document first uses its tag or path
    /// group; `unused-schemas` last, where there is one.
    pub features: Vec<Feature>,
    /// By operation index: the features any of which compiles it.
    pub operations: Vec<Vec<String>>,
    /// The types that compile under some features only (by name): those features; a type
    /// not listed always compiles.
    pub types: std::collections::BTreeMap<String, Vec<String>>,
}

/// One cargo feature of the generated crates and what it compiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    /// Its name in the manifests (`pull-requests`).
    pub name: String,
    /// What turns on with it.
    pub of: FeatureOf,
}

/// What a [`Feature`] compiles: the manifests and READMEs describe it from this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureOf {
    /// The operations of a tag, or of a path group in a document without tags (`Pull
    /// Requests`, `pets`), and the types they reach.
    Group(String),
    /// The schemas no operation, webhook or error body reaches.
    UnusedSchemas,
}

impl FeatureGates {
    /// The features any of which compiles operation `index`; `None`: it always compiles.
    pub fn of_operation(&self, index: usize) -> Option<&[String]> {
        self.operations.get(index).map(Vec::as_slice)
    }

    /// The features any of which compiles the type `name`; `None`: it always compiles.
    pub fn of_type(&self, name: &str) -> Option<&[String]> {
        self.types.get(name).map(Vec::as_slice)
    }
}

/// What a browser on another origin may send and read (CORS), over the whole document; the
/// runtime adds the headers it handles itself (`Authorization`, `Content-Type`, rate-limit,
/// `Retry-After`, `WWW-Authenticate`, deprecation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cors {
    /// The operations' methods, upper case, sorted, each once.
    pub methods: Vec<String>,
    /// Header parameters and header API keys, lower case, sorted, each once.
    pub request_headers: Vec<String>,
    /// Response headers the document declares, lower case, sorted, each once.
    pub response_headers: Vec<String>,
}

/// How problems are written, for a document or an operation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ErrorTable {
    /// The status of a request the document's checks refuse: 400, or 422 where the operations
    /// describe 422 and no 400 (FastAPI, pydantic).
    pub invalid: u16,
    /// Error bodies by status: an index into [`Api::error_bodies`], or `None` for the
    /// default body (written out where another entry of the table would apply).
    pub bodies: Vec<(Status, Option<usize>)>,
}

impl ErrorTable {
    /// Nothing differs from the runtime's defaults (400, the default body).
    pub fn is_default(&self) -> bool {
        self.invalid == 400 && self.bodies.is_empty()
    }
}

/// How the server writes a problem where the document describes its error answers in a shape
/// of its own: a JSON value valid against the schema, and where the problem's parts go.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorBody {
    /// Name of the router's constant (`ERROR_BODY_1`).
    pub rust: String,
    /// JSON pointer of the schema (for the constant's documentation).
    pub origin: String,
    pub template: serde_json::Value,
    /// JSON pointers: the problem's code (`bad_request`), its message, its status (a number).
    pub code: Vec<String>,
    pub message: Vec<String>,
    pub status: Vec<String>,
    /// The media type the document gives these answers (`application/problem+json`), which
    /// they are sent with.
    pub content_type: String,
}

/// One route of the server's router: a path pattern axum matches, registered once, serving
/// every path key of the document that has its shape (`lower/routes.rs` decides).
#[derive(Debug, Clone)]
pub struct Route {
    /// The pattern as axum reads it, without the base path: literal segments and
    /// whole-segment captures (`/Accounts/{Sid}`); `/` for the document's root path.
    pub pattern: String,
    pub serve: RouteServe,
}

#[derive(Debug, Clone)]
pub enum RouteServe {
    /// Keys every request on the route is for (one key, or keys that differ only in their
    /// parameters' names), with methods axum's method filter names: the operations (indices
    /// into [`Api::operations`]), each registered for its method.
    Methods(Vec<usize>),
    /// Every request goes to one generated function that picks the path key, then the
    /// method: several keys share the shape, a key mixes parameters with text in a segment or
    /// carries a query, or a method is one axum's filter cannot name (`QUERY`,
    /// `additionalOperations`).
    Dispatch(Dispatcher),
}

/// A route's own dispatch function.
#[derive(Debug, Clone)]
pub struct Dispatcher {
    /// Name of the dispatch function (`dispatch_search`).
    pub rust: String,
    /// What the request may be, most specific first: the first whose pattern matches serves
    /// it; a request none matches is an unknown path (404).
    pub candidates: Vec<Candidate>,
}

/// Path keys a request cannot tell apart (the same shape, text and query; parameter names
/// aside), with their methods.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The keys as the document writes them.
    pub paths: Vec<String>,
    /// The `PathPattern` constant (an operation's, [`PathPattern::rust`]) that tells whether a
    /// request is for these keys; `None`: every request on the route is.
    pub pattern: Option<String>,
    /// (method as sent, the index in [`Api::operations`] of the operation that answers it),
    /// `HEAD` answered by the `GET` operation when no key declares `HEAD`.
    pub methods: Vec<(String, usize)>,
    /// The `Allow` header of the keys' 405 (`GET,HEAD,QUERY`).
    pub allow: String,
}

/// How an operation's path key reads a request on its route, when the route's captures are
/// not simply its path parameters (a segment mixing parameters with text, a capture named
/// after another key's parameter) or the key carries a query: a `route::PathPattern`
/// constant of the router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    /// Name of the constant (`PATH_GET_ACCOUNT`).
    pub rust: String,
    /// Each capture that is not one of the operation's parameters under its own name: the
    /// capture's name in the route and what the segment is made of.
    pub segments: Vec<(String, Vec<PathPiece>)>,
    /// The key's constant query pairs (as [`Operation::path_query`]).
    pub query: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathPiece {
    /// Literal text, as written.
    Text(String),
    /// A path parameter, by its name in the document.
    Param(String),
}

/// One webhook: a request the API provider sends to a URL its consumer registered.
#[derive(Debug, Clone)]
pub struct Webhook {
    /// The key under `webhooks` (`petAdded`).
    pub name: String,
    /// Variant of the `Webhook` enum (`PetAdded`).
    pub variant: String,
    /// The method it is sent with (`POST`).
    pub method: String,
    /// A constant of `http::Method` names it (else built from its name).
    pub standard_method: bool,
    pub doc: Vec<String>,
    /// The JSON payload, if the webhook has one.
    pub payload: Option<WebhookPayload>,
}

#[derive(Debug, Clone)]
pub struct WebhookPayload {
    pub content_type: String,
    pub ty: TypeRef,
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct Server {
    /// Rust name of the constant/variant (`Production`).
    pub name: String,
    /// The name command lines and configuration use (`production`, `api_v2`): the client's
    /// `Server::name` and the CLI's `--env`.
    pub short: String,
    pub url: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone)]
pub struct SecurityScheme {
    /// Name in `components.securitySchemes`.
    pub name: String,
    /// Rust name for builder methods (`bearer_auth`).
    pub rust: String,
    pub kind: SchemeKind,
    pub doc: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeKind {
    Bearer,
    Basic,
    ApiKeyHeader(String),
    ApiKeyQuery(String),
    ApiKeyCookie(String),
}

#[derive(Debug, Clone)]
pub struct RateLimitPolicy {
    pub plans: BTreeMap<String, (u32, u32)>,
    pub anonymous: String,
    pub default_plan: String,
    pub ban_strikes: u32,
    pub ban_seconds: u64,
}
