//! The generator's own plain-data model of an API: every decision (names, Rust types, which
//! status maps to which variant, which headers the runtime adds) is made before this is built,
//! so the emitters only print it.

use std::collections::BTreeMap;

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
    /// (method as sent, handler = the operation's `rust`), `HEAD` answered by the `GET`
    /// handler when no key declares `HEAD`.
    pub methods: Vec<(String, String)>,
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
    pub url: String,
    pub description: Option<String>,
}

/// A named Rust type made from a schema (component or inline).
#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    /// JSON pointer of the schema it was made from, for docs and diagnostics.
    pub origin: String,
    pub doc: Vec<String>,
    pub kind: TypeKind,
    /// Holds (directly or through its fields) a constraint the server checks.
    pub validated: bool,
    /// The schema's own `example` (3.1: its first `examples` entry), as written: the mock
    /// tries it before a value it makes up (it may not fit the schema; the mock checks).
    pub example: Option<serde_json::Value>,
}

#[derive(Debug, Clone)]
pub enum TypeKind {
    Struct(Struct),
    /// A string enumeration.
    Enum(Vec<EnumVariant>),
    /// `oneOf`/`anyOf`: exactly one (or the first matching) variant.
    OneOf(OneOf),
    /// A named alias for another type (`type Pets = Vec<Pet>`), with its constraints.
    Alias(TypeRef, Constraints),
}

#[derive(Debug, Clone)]
pub struct Struct {
    pub fields: Vec<Field>,
    /// Properties beyond the declared ones: `additionalProperties: true` or a schema.
    pub additional: Option<TypeRef>,
    /// `additionalProperties: false`: the server rejects unknown fields.
    pub deny_unknown: bool,
    /// `dependentRequired` (3.1): when the property (wire name) is present, these must be too.
    /// The server checks it.
    pub dependent_required: Vec<(String, Vec<String>)>,
    /// `anyOf` (or `oneOf`) whose branches only list `required` properties (github's
    /// requested reviewers: `reviewers` or `team_reviewers`), or say the object is empty.
    /// The server checks it.
    pub required_any_of: Option<RequiredAnyOf>,
    /// `patternProperties` beside `additionalProperties: false`: the names the extra
    /// properties must match (checked by the server).
    pub additional_pattern: Option<String>,
}

/// `anyOf: [{required: [reviewers]}, {required: [team_reviewers]}]`: the properties (wire
/// names) of at least one group must all be present (a `oneOf`'s "exactly one" is read as
/// "at least one"). A branch `{maxProperties: 0}` (github's gist file: new content, a new
/// name, or `{}` to delete it) lets an object with no property at all through as well; such a
/// struct keeps the properties it does not declare (`additional`), so that `{"other": 1}`
/// is not taken for `{}`.
#[derive(Debug, Clone)]
pub struct RequiredAnyOf {
    pub groups: Vec<Vec<String>>,
    pub or_empty: bool,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub rust: String,
    /// The builder-style method that sets it (`with_status`): with the struct's `new`, the
    /// way of building a value that survives optional fields added later.
    pub setter: String,
    pub wire: String,
    pub ty: TypeRef,
    /// The scalar a named alias stands for (`Level` → `i64`), which decides how
    /// `constraints` are checked; `ty` itself otherwise.
    pub check_ty: TypeRef,
    pub required: bool,
    /// The document requires it in an answer: `required`, or required and `readOnly` (which
    /// `required` leaves out, a request not carrying it). What a mock's answer must hold.
    pub required_in_answers: bool,
    pub nullable: bool,
    /// Needs `Box` to break a cycle of types that contain each other.
    pub boxed: bool,
    pub doc: Vec<String>,
    pub constraints: Constraints,
    pub deprecated: bool,
    pub read_only: bool,
    pub write_only: bool,
    pub default: Option<serde_json::Value>,
    /// The property schema's `example`, as written (see [`TypeDef::example`]).
    pub example: Option<serde_json::Value>,
}

#[derive(Debug, Clone)]
pub struct EnumVariant {
    pub rust: String,
    pub wire: String,
}

#[derive(Debug, Clone)]
pub struct OneOf {
    pub variants: Vec<OneOfVariant>,
    /// Property naming the variant, with wire value → variant index.
    pub discriminator: Option<Discriminator>,
    /// Every variant is a string, number or boolean: usable as a parameter.
    pub scalar: bool,
}

#[derive(Debug, Clone)]
pub struct OneOfVariant {
    pub rust: String,
    pub ty: TypeRef,
    pub boxed: bool,
    /// The variant schema's own constraints (a scalar variant's `minimum`: `type: [integer,
    /// string]` splits its keywords between the variants): what a value made for it (the
    /// mock's) must meet.
    pub constraints: Constraints,
    /// The type the constraints are checked as: the variant's, or the scalar an alias of it
    /// stands for (nexus's `NameOrId`: `Name`, a `String` with `maxLength` and `pattern`).
    /// Filled by `resolve_check_types`.
    pub check_ty: TypeRef,
}

#[derive(Debug, Clone)]
pub struct Discriminator {
    pub property: String,
    /// (wire value, variant index)
    pub mapping: Vec<(String, usize)>,
    /// The values are JSON integers written in decimal (discord's action types `1`…`4`,
    /// a tag implied by variants that pin an integer property), not strings.
    pub integer: bool,
}

impl Discriminator {
    /// The tag as the integer it is on the wire, for an integer discriminator; `None` for a
    /// text tag (and for a value an integer discriminator cannot hold, written as text).
    pub fn integer_tag(&self, wire: &str) -> Option<i64> {
        if self.integer {
            wire.parse().ok()
        } else {
            None
        }
    }
}

/// A Rust type as used in a field, parameter or body.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    Named(String),
    String,
    Bool,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// `format: binary` in a JSON document, or an octet body: raw bytes.
    Bytes,
    /// `contentEncoding: base64` (3.1): bytes, written as base64 text in JSON.
    Base64,
    /// `contentEncoding: base64url` (3.1): bytes, written as URL-safe base64 text in JSON.
    Base64Url,
    /// `format: uuid`: `uuid::Uuid`.
    Uuid,
    /// `format: date-time` (RFC 3339): `jiff::Timestamp`.
    DateTime,
    /// `format: date` (RFC 3339 full-date): `jiff::civil::Date`.
    Date,
    /// `format: ipv4`: `std::net::Ipv4Addr`.
    Ipv4,
    /// `format: ipv6`: `std::net::Ipv6Addr`.
    Ipv6,
    /// `prefixItems` (3.1) with no other items: a fixed-length tuple.
    Tuple(Vec<TypeRef>),
    Vec(Box<TypeRef>),
    Map(Box<TypeRef>),
    /// Any JSON value (`{}`, free-form).
    Json,
    /// Only `null` (`enum: [null]`, what schemars writes for Rust's `()`): `()`.
    Unit,
    /// A value whose schema admits `null` beside its type: `Option<T>`, `null` being `None`.
    /// A whole JSON answer (FastAPI's `Optional[X]`: `anyOf: [X, {type: 'null'}]`, or
    /// `type: [array, 'null']`), an array's item or a map's value (api.github.com's gist
    /// `files`); never a field's type (fields carry their own nullability).
    Nullable(Box<TypeRef>),
    /// A free-form JSON object.
    JsonObject,
}

impl TypeRef {
    /// Numbers, strings and booleans: what a path, query, header or cookie value may hold.
    pub fn is_scalar(&self) -> bool {
        !matches!(
            self,
            TypeRef::Vec(_)
                | TypeRef::Tuple(_)
                | TypeRef::Base64
                | TypeRef::Base64Url
                | TypeRef::Map(_)
                | TypeRef::Json
                | TypeRef::JsonObject
                | TypeRef::Unit
                | TypeRef::Nullable(_)
                | TypeRef::Bytes
        )
    }

    /// A string `format` read into a type of its own (`uuid`, `date-time`, `date`, `ipv4`,
    /// `ipv6`): the type's parser is the check, so string-length and pattern keywords beside
    /// the format are not applied to it.
    pub fn is_string_format(&self) -> bool {
        matches!(
            self,
            TypeRef::Uuid | TypeRef::DateTime | TypeRef::Date | TypeRef::Ipv4 | TypeRef::Ipv6
        )
    }

    /// Whether a value of this type may contain an integer somewhere (a named type may).
    pub fn may_hold_integer(&self) -> bool {
        match self {
            TypeRef::I32 | TypeRef::I64 | TypeRef::U8 | TypeRef::U16 | TypeRef::U32 => true,
            TypeRef::U64 | TypeRef::Named(_) => true,
            TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => {
                item.may_hold_integer()
            }
            TypeRef::Tuple(items) => items.iter().any(TypeRef::may_hold_integer),
            TypeRef::String
            | TypeRef::Uuid
            | TypeRef::DateTime
            | TypeRef::Date
            | TypeRef::Ipv4
            | TypeRef::Ipv6
            | TypeRef::Bool
            | TypeRef::F32
            | TypeRef::F64
            | TypeRef::Bytes
            | TypeRef::Base64
            | TypeRef::Base64Url
            | TypeRef::Json
            | TypeRef::JsonObject
            | TypeRef::Unit => false,
        }
    }
}

/// Schema constraints enforced on input by the server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: bool,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub pattern: Option<String>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,
    /// `minProperties`/`maxProperties`, checked on maps (`additionalProperties` alone, or
    /// free-form objects); a struct's named fields are not counted (see docs: "Type mapping").
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    /// `enum` on an integer or number (string enums become Rust enums instead).
    pub one_of: Vec<serde_json::Number>,
    /// `prefixItems` (3.1) read as a tuple: the constraints of each item, by position (empty
    /// when no item has any).
    pub prefix_items: Vec<Constraints>,
    /// The constraints of every item of an array (`items`) or value of a map
    /// (`additionalProperties`), when they have any: checked on each, where the item is a
    /// scalar (a named type checks its own).
    pub each: Option<Box<Constraints>>,
    /// `each` applies only to a list of two items or more: a query parameter of one value or
    /// several (`oneOf: [string, array of patterned strings]`), where one value is the
    /// scalar variant's, which takes any text.
    pub each_when_several: bool,
    /// `format` of a string kept as `String`, when the server checks it: `uri`,
    /// `uri-reference`, `email`, `hostname` (runtime `formats`).
    pub checked_format: Option<String>,
    /// `format` of a string kept as `String`, as written, checked or not: what a value made up
    /// for it (the mock's, an error body's) must look like. Not a check.
    pub format: Option<String>,
    /// The one value a boolean's `enum` allows (slack's `defs_ok_false`: `enum: [false]`):
    /// what a value made up for it (the mock's, an error body's) must be. Not a check.
    pub boolean: Option<bool>,
}

/// A `minimum` or `maximum` as the document writes it. An integer's bound stays exact: as an
/// `f64`, discord's `maximum: 18014398509481983` (2^54 - 1) rounded up to 2^54, and the check
/// let 2^54 through.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Integer(i64),
    Number(f64),
}

impl Bound {
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Integer(v) => v as f64,
            Bound::Number(v) => v,
        }
    }

    /// Whether `self` is below `other`, exactly when both are integers.
    pub fn below(self, other: Bound) -> bool {
        match (self, other) {
            (Bound::Integer(a), Bound::Integer(b)) => a < b,
            (a, b) => a.as_f64() < b.as_f64(),
        }
    }

    /// The bound as a whole number, for an integer (a minimum when `least`, else a maximum):
    /// a fraction becomes the integer it allows (its ceiling for a minimum, its floor for a
    /// maximum), no longer exclusive; a whole bound keeps `exclusive`. `None` beyond the
    /// integers an `i128` holds.
    pub fn whole(self, exclusive: bool, least: bool) -> Option<(i128, bool)> {
        match self {
            Bound::Integer(v) => Some((i128::from(v), exclusive)),
            Bound::Number(v) if v.is_finite() && v.abs() < 1e38 => {
                let w = if least { v.ceil() } else { v.floor() };
                Some((w as i128, exclusive && w == v))
            }
            Bound::Number(_) => None,
        }
    }

    /// The least integer a minimum allows: the bound itself, the next one when it is exclusive,
    /// the ceiling of a fraction. `None` beyond the integers an `i128` holds.
    pub fn least_integer(self, exclusive: bool) -> Option<i128> {
        let (v, exclusive) = self.whole(exclusive, true)?;
        Some(v + i128::from(exclusive))
    }

    /// The greatest integer a maximum allows (see [`Bound::least_integer`]).
    pub fn greatest_integer(self, exclusive: bool) -> Option<i128> {
        let (v, exclusive) = self.whole(exclusive, false)?;
        Some(v - i128::from(exclusive))
    }
}

/// The formats the server checks on a value kept as `String` (see [`Constraints`]).
pub const CHECKED_FORMATS: &[&str] = &["uri", "uri-reference", "email", "hostname"];

impl Constraints {
    /// Nothing to check (a format the server does not check is not a check).
    pub fn is_empty(&self) -> bool {
        let mut checks = self.clone();
        checks.format = None;
        checks.boolean = None;
        checks == Constraints::default()
    }

    /// Forgets `minLength`, `maxLength` and `pattern`: for a value read into a format's own
    /// type (`TypeRef::is_string_format`), whose parser already decided what text is valid.
    pub fn drop_string_checks(&mut self) {
        self.min_length = None;
        self.max_length = None;
        self.pattern = None;
        self.checked_format = None;
        self.format = None;
    }

    /// Adds the constraints of another schema the same value must meet (an `allOf` part):
    /// the tighter bound of each pair, the values both enumerations list. A second
    /// `multipleOf` or `pattern` is not combined (the first one stays).
    pub fn narrow(&mut self, other: &Constraints) {
        fn tighter(
            own: &mut Option<Bound>,
            own_ex: &mut bool,
            other: Option<Bound>,
            other_ex: bool,
            is_tighter: fn(Bound, Bound) -> bool,
        ) {
            if let Some(o) = other {
                match *own {
                    Some(v) if !v.below(o) && !o.below(v) => *own_ex |= other_ex,
                    Some(v) if !is_tighter(o, v) => {}
                    _ => {
                        *own = Some(o);
                        *own_ex = other_ex;
                    }
                }
            }
        }
        tighter(
            &mut self.minimum,
            &mut self.exclusive_minimum,
            other.minimum,
            other.exclusive_minimum,
            |a, b| b.below(a),
        );
        tighter(
            &mut self.maximum,
            &mut self.exclusive_maximum,
            other.maximum,
            other.exclusive_maximum,
            |a, b| a.below(b),
        );
        self.multiple_of = self.multiple_of.or(other.multiple_of);
        self.min_length = self.min_length.max(other.min_length);
        self.max_length = match (self.max_length, other.max_length) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if self.pattern.is_none() {
            self.pattern = other.pattern.clone();
        }
        if self.format.is_none() {
            self.format = other.format.clone();
            self.checked_format = other.checked_format.clone();
        }
        self.boolean = self.boolean.or(other.boolean);
        if self.one_of.is_empty() {
            self.one_of = other.one_of.clone();
        } else if !other.one_of.is_empty() {
            let both =
                |n: &serde_json::Number| other.one_of.iter().any(|o| o.as_f64() == n.as_f64());
            self.one_of.retain(both);
        }
    }
}

#[derive(Debug, Clone)]
pub struct Operation {
    /// The document's operationId, or a stable name from method and path.
    pub id: String,
    /// `list_pets`
    pub rust: String,
    /// `list_pets_with`: the client method that also takes the optional parameters (an
    /// `…Options` value), when the operation has any. `rust` sends none of them, so an
    /// operation's first optional parameter adds a method instead of changing one.
    pub rust_with: Option<String>,
    /// `ListPets`, the stem of the operation's own types.
    pub stem: String,
    /// As sent on the wire: `GET`, `QUERY`, or an `additionalOperations` key as written.
    pub method: String,
    /// One of the eight methods axum's method filter and `http::Method`'s constants name
    /// (`QUERY` and `additionalOperations` methods are not).
    pub standard_method: bool,
    /// A success response is streamed (`itemSchema`): the client reads it item by item.
    pub streamed: bool,
    /// The path key as the document writes it (`/pets/{petId}`, `/responses?beta=true`).
    pub path: String,
    /// The key without its query, read (`/pets/{petId}/toys`: the text `/pets/`, the parameter
    /// `petId`, the text `/toys`): the template the client fills. Text pieces are never empty
    /// and never next to each other.
    pub path_template: Vec<PathPiece>,
    /// The query a key carries (`?beta=true`: `[("beta", "true")]`), decoded: the client
    /// sends it and the server serves the operation only to requests that carry it, which
    /// keeps it apart from an operation of the same path without it.
    pub path_query: Vec<(String, String)>,
    /// See [`PathPattern`]: present when the handler reads its path parameters through it
    /// (they are not the route's captures as they are) or the route's dispatch function tells
    /// the operation's key apart by it.
    pub path_pattern: Option<PathPattern>,
    pub summary: Option<String>,
    pub doc: Vec<String>,
    pub deprecated: Option<Deprecation>,
    pub params: Vec<Param>,
    pub body: Option<Body>,
    pub responses: Vec<Response>,
    /// No 2XX answer is documented but a `default` one is: the client reads a 2XX status
    /// through `default` (its body is then the success type); other statuses are still the
    /// error `default` describes.
    pub default_succeeds: bool,
    /// The client returns an enum of the successes (`…Success`): only when their bodies
    /// differ. Successes with one body type (`200` and `201` both a `Pet`, `202` and `204`
    /// without a body) return that type, so a second success status of the same shape does
    /// not change the method's return type (README, "Evolving the spec").
    pub success_enum: bool,
    /// The server response variant the trait's default method answers (501 with the
    /// `Error` body): `Unimplemented`, unless a documented status took the name.
    pub unimplemented: String,
    /// Alternatives (OR) of sets (AND) of scheme names; empty = no authentication.
    pub security: Vec<Vec<String>>,
    /// Headers the runtime adds to every response of this operation (deprecation).
    pub extra_headers: Vec<(String, String)>,
    /// Safe to send twice (GET, HEAD, PUT, DELETE, OPTIONS, TRACE, QUERY).
    pub idempotent: bool,
    /// The operation declares an `Idempotency-Key` header parameter: the server runtime
    /// stores and replays its responses per key, the client sends a fresh key per call (and
    /// may then retry it like an idempotent one). The parameter is not in `params`.
    pub idempotency_key: Option<IdempotencyKey>,
    /// 3.2 `in: querystring`: the whole query string as one typed value (then `params` holds
    /// no query parameter).
    pub query_string: Option<QueryString>,
    /// The client's `Accept` header: the media types the responses document.
    pub accept: Option<String>,
    /// The operation pages its results in a way the client can follow: it gets a
    /// `…_stream` method yielding every item of every page.
    pub pagination: Option<Pagination>,
    /// What the generated mock answers (`lower/mock.rs`).
    pub mock: MockAnswer,
    /// The operation's own error bodies by status (indices into `Api::error_bodies`), when
    /// they differ from the document's (`Api::errors`); the router's `ERRORS_…` constant.
    pub errors: Option<(String, ErrorTable)>,
}

/// The answer of an operation in the generated server's `mock` module: a documented
/// response, and values to fill it with, each checked by the mock before it is used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MockAnswer {
    /// Index into [`Operation::responses`]: the lowest documented 2XX, else `default`, else
    /// the first documented; `None` when the operation documents no response (the mock
    /// answers 501, as the trait's default does).
    pub response: Option<usize>,
    /// The status sent when the variant takes one (a range or `default`): `2XX` → 200.
    pub status: u16,
    /// Candidate bodies, tried in order: the document's examples of the response, then a
    /// value made from the type with the schemas' examples, then one made without them. The
    /// first that decodes into the body's type and passes its checks is sent. For a stream,
    /// candidates for its one item; for text or bytes, JSON strings.
    pub bodies: Vec<serde_json::Value>,
    /// A value for each header of the response (`Response::headers` order), as JSON.
    pub headers: Vec<serde_json::Value>,
}

/// How the client walks every page of a paginated operation (`lower/pagination.rs` says which
/// documents qualify).
#[derive(Debug, Clone)]
pub struct Pagination {
    /// The client method returning the stream of items (`list_pets_stream`).
    pub rust: String,
    /// The type of one item.
    pub item: TypeRef,
    /// The success body's field holding a page's items (`items`); `None`: the body is the
    /// list itself.
    pub items_field: Option<String>,
    pub next: NextPage,
}

#[derive(Debug, Clone)]
pub enum NextPage {
    /// A field of the body (`next_page`) holds the cursor the optional query parameter
    /// `param` (its `…Options` field) sends back. `keep_only`: the options later pages keep
    /// (dropshot: the token carries the others, only `limit` is sent again); `None`: all.
    Cursor {
        field: String,
        param: String,
        keep_only: Option<Vec<String>>,
        /// A boolean field saying whether there is a next page at all (openai's `has_more`
        /// beside `last_id`): the cursor is sent back only while it is true.
        more: Option<String>,
    },
    /// `Link: <…>; rel="next"` (RFC 8288): the target's query parameters that the operation
    /// documents, as (wire name, `…Options` field), are set for the next call.
    Link { params: Vec<(String, String)> },
}

/// The whole query string as one value (3.2 `in: querystring`).
#[derive(Debug, Clone)]
pub struct QueryString {
    /// Name of the server trait method's argument and the client method's (`filter`).
    pub rust: String,
    /// The parameter's name in the document (documentation only: it is not on the wire).
    pub wire: String,
    pub kind: QueryStringKind,
    pub required: bool,
    pub doc: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum QueryStringKind {
    /// `application/x-www-form-urlencoded`: the query string's pairs are the fields of the
    /// type (as a form body's are).
    Form(TypeRef),
    /// `application/json` (or `+json`): the query string is the percent-encoded JSON text.
    Json(TypeRef),
    /// Any other media type: the query string as sent, undecoded.
    Raw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdempotencyKey {
    /// A request without the key is refused (400) instead of served without replay.
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct Deprecation {
    /// Text for `#[deprecated(note = ...)]`.
    pub note: String,
    /// `x-deprecation.sunset`: from then on the server answers 410 Gone (unless switched off
    /// in `ServerConfig`) and the client reads a 410 as `Error::Gone`.
    pub sunset: Option<Sunset>,
    /// `x-deprecation.replacement`, an operationId of the document.
    pub replacement: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sunset {
    /// Unix seconds (midnight UTC of the day).
    pub at: i64,
    /// `YYYY-MM-DD`, as the document writes it.
    pub day: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Location {
    Path,
    Query,
    Header,
    Cookie,
}

impl Location {
    /// `path`, `query`, `header`, `cookie`: as the document names the place.
    pub fn name(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Param {
    /// Field name in the parameter structs (`…Params`, `…Options`).
    pub rust: String,
    /// Name of the value's binding in the server's handler and the client's method: `rust`,
    /// unless that is a local the emitters use there (`naming::reserved`).
    pub local: String,
    /// The client options' setter (`with_limit`), as [`Field::setter`].
    pub setter: String,
    pub wire: String,
    pub location: Location,
    pub ty: TypeRef,
    /// As [`Field::check_ty`].
    pub check_ty: TypeRef,
    pub required: bool,
    /// `form` arrays: repeated keys (`true`) or comma-separated (`false`).
    pub explode: bool,
    /// What separates the items of an array that is not exploded: `,`, or `|` and ` ` for a
    /// query's `style: pipeDelimited` and `spaceDelimited`.
    pub delimiter: char,
    /// A cookie of `style: cookie` (OpenAPI 3.2): the value is written and read as it is,
    /// without the percent-encoding of `style: form`.
    pub as_sent: bool,
    /// Server-side default, as a Rust literal expression's source value.
    pub default: Option<serde_json::Value>,
    pub constraints: Constraints,
    pub doc: Vec<String>,
    pub deprecated: bool,
    /// A query parameter whose value is an object (a struct or a map of scalars): how its
    /// members are sent. None for every other parameter.
    pub object: Option<ObjectStyle>,
}

/// How the members of an object-valued query parameter are written (`style`, `explode`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectStyle {
    /// `form`, exploded (the default): each member a pair of its own (`role=admin`); these
    /// are the object's property names.
    Members(Vec<String>),
    /// `form`, exploded, a map (any member names): the pairs that no other query parameter of
    /// the operation names (these are the names taken).
    Rest(Vec<String>),
    /// `form`, not exploded: one pair, names and values in turn (`id=role,admin`).
    Joined,
    /// `deepObject`: `id[role]=admin`.
    Deep,
}

#[derive(Debug, Clone)]
pub struct Body {
    pub required: bool,
    pub content_type: String,
    pub kind: BodyKind,
    /// Other media types the server also reads, by `Content-Type`: into the same type (JSON,
    /// form), or as a checked multipart body (then the implementation receives
    /// `runtime::body::OrMultipart`, see [`Body::multipart_alternative`]).
    pub alternatives: Vec<(String, BodyKind)>,
    /// For a `multipart/form-data` body, which reaches the implementation as its bytes
    /// (`BodyKind::Bytes`): the type of the document's schema, which the server decodes the
    /// parts into and checks before passing the bytes on.
    pub checked_as: Option<TypeRef>,
    /// The body schema's own constraints (a whole-array body's `maxItems`, a map body's
    /// `maxProperties`, each item's or value's), checked on JSON and form bodies beside the
    /// checks the body's types carry.
    pub constraints: Constraints,
    /// The body's type with aliases of scalars, arrays and maps resolved, which decides the
    /// checks that apply (filled by `resolve_check_types`).
    pub check_ty: TypeRef,
    pub doc: Vec<String>,
}

impl Body {
    /// The type a `multipart/form-data` alternative is checked as, when the body has one: the
    /// implementation then receives `runtime::body::OrMultipart` of the body's type.
    pub fn multipart_alternative(&self) -> Option<&TypeRef> {
        self.alternatives.iter().find_map(|(_, kind)| match kind {
            BodyKind::Multipart { ty, .. } => Some(ty),
            _ => None,
        })
    }

    /// `check_ty` with a nullable body's `null` looked through, and whether it was nullable:
    /// the type the body's own `constraints` are checked as where it holds a value.
    pub fn check_ty_of_value(&self) -> (&TypeRef, bool) {
        match &self.check_ty {
            TypeRef::Nullable(inner) => (inner, true),
            ty => (ty, false),
        }
    }

    /// The type of a JSON or form body (the one the handler reads and checks).
    pub fn read_type(&self) -> Option<&TypeRef> {
        match &self.kind {
            BodyKind::Json(t) | BodyKind::Form(t) => Some(t),
            _ => None,
        }
    }

    /// A `multipart/form-data` body passed as bytes: the client builds it as a
    /// `runtime::multipart::Form` (files are bytes), the server checks it as `checked_as`.
    pub fn is_multipart_form(&self) -> bool {
        matches!(self.kind, BodyKind::Bytes) && is_multipart_form(&self.content_type)
    }
}

/// The one multipart media type whose parts the server reads (RFC 7578).
pub const MULTIPART_FORM: &str = "multipart/form-data";

/// Whether a media type (parameters allowed) is `multipart/form-data`.
pub fn is_multipart_form(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(MULTIPART_FORM))
}

#[derive(Debug, Clone)]
pub enum BodyKind {
    Json(TypeRef),
    Form(TypeRef),
    Text,
    Bytes,
    /// A `multipart/form-data` alternative to a JSON or form body (its schema the same or
    /// its own): passed on as its bytes (`runtime::body::OrMultipart::Multipart`), after the
    /// server has decoded the parts into this type and checked them. Only ever an alternative
    /// (a body that is multipart alone is `Bytes` with `Body::checked_as`); either way its
    /// files are bytes, which the schema's `format: binary` strings cannot hold.
    Multipart {
        ty: TypeRef,
        /// The body's own schema (not one of its own): the body's `constraints` apply to
        /// the parts as well.
        same_schema: bool,
    },
    /// A response read item by item (3.2 `itemSchema`); never a request body.
    Stream(ItemStream),
}

#[derive(Debug, Clone)]
pub struct ItemStream {
    pub format: StreamFormat,
    /// The type of each item (of each event's `data` for Server-Sent Events).
    pub item: TypeRef,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamFormat {
    /// `text/event-stream` whose `data` is JSON of the item type.
    Events,
    /// `text/event-stream` whose `data` is text (the item type is `String`).
    EventsText,
    /// `application/jsonl`, `application/x-ndjson`: one JSON item per line.
    JsonLines,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Code(u16),
    /// `4XX` → 4
    Range(u8),
    Default,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: Status,
    pub variant: String,
    pub doc: Vec<String>,
    pub body: Option<ResponseBody>,
    /// Documented headers the implementation sets (those the runtime adds itself, such as
    /// rate-limit and deprecation headers, are left out).
    pub headers: Vec<ResponseHeader>,
    /// Name of the headers struct when `headers` is not empty (`ListPetsOkHeaders`).
    pub headers_type: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ResponseHeader {
    pub wire: String,
    pub rust: String,
    pub ty: TypeRef,
    pub required: bool,
    pub doc: Vec<String>,
    /// The header schema's constraints (its `format` among them): what a value made up for
    /// it (the mock's) must meet.
    pub constraints: Constraints,
}

impl Operation {
    /// Whether the operation's answer switches protocols: a `101` and no 2XX, taken for a
    /// WebSocket (nexus's serial console). The server answers a request that does not ask for
    /// the switch 426; the CLI leaves the operation out.
    pub fn switches_protocols(&self) -> bool {
        self.responses.iter().any(|r| r.status == Status::Code(101))
            && !self.responses.iter().any(Response::is_success)
    }
}

impl Response {
    pub fn is_success(&self) -> bool {
        match self.status {
            Status::Code(c) => (200..300).contains(&c),
            Status::Range(r) => r == 2,
            Status::Default => false,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ResponseBody {
    pub content_type: String,
    pub kind: BodyKind,
    /// The media type's `example` and `examples` values (references resolved; external
    /// values left out), in document order: the mock's first candidates.
    pub examples: Vec<serde_json::Value>,
}

impl ResponseBody {
    /// The media type a JSON answer is written with, when it is not `application/json`
    /// itself: a JSON type of the document's own (`application/vnd.api+json`), which the
    /// answer must carry. None for plain JSON and for ranges (`*/*`), which are no
    /// `Content-Type`.
    pub fn own_json_media_type(&self) -> Option<&str> {
        let essence = self.content_type.split(';').next().unwrap_or("").trim();
        let plain = essence.eq_ignore_ascii_case("application/json") || essence.contains('*');
        (!plain && matches!(self.kind, BodyKind::Json(_))).then_some(self.content_type.as_str())
    }
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

/// The command-line client of a document (`apigen::generate_cli`), every decision made:
/// which operations are subcommands, their names and flags, and where credentials come from.
#[derive(Debug, Clone)]
pub struct Cli {
    /// `petstore-cli`
    pub bin: String,
    /// The environment variable of the API key (`PETSTORE_API_KEY`), and of basic
    /// authentication's user name and password.
    pub key_var: String,
    pub user_var: String,
    pub password_var: String,
    /// Where the credentials the document's schemes need are read from, for the help (`The
    /// API key is read from PETSTORE_API_KEY.`); `None` when it has no scheme.
    pub credentials_help: Option<String>,
    /// One per operation the CLI can call, in document order.
    pub commands: Vec<CliCommand>,
    /// Whether some subcommand refuses to run without credentials (so `run` tracks whether
    /// any were found).
    pub checks_credentials: bool,
    /// Whether some subcommand prints its answer as a value (not bytes), so that `run` reads
    /// `--json` for it.
    pub prints_values: bool,
    /// The operations the CLI does not offer, in document order, each with the reason its
    /// long help gives.
    pub left_out: Vec<CliLeftOut>,
}

/// An operation the command-line client leaves to the client library.
#[derive(Debug, Clone)]
pub struct CliLeftOut {
    /// An index into `Api::operations`.
    pub operation: usize,
    /// Why, as the CLI's help says it (`its answer is a stream (use the client library)`).
    pub reason: String,
}

/// One subcommand: the operation it calls (an index into `Api::operations`), its name
/// (`list-pets`) and its flags.
#[derive(Debug, Clone)]
pub struct CliCommand {
    pub operation: usize,
    pub name: String,
    /// The library's function that runs the subcommand (`list_pets`), and the one that builds
    /// its clap `Command` (`list_pets_command`): one pair per subcommand keeps every stack frame
    /// small (one `run` and one builder chain for 765 operations overflowed the main thread's
    /// stack in a debug build).
    pub function: String,
    pub builder: String,
    pub flags: Vec<CliFlag>,
    /// Every alternative of the operation's security needs a credential: without one the
    /// subcommand stops before sending, with this message naming the variables of the
    /// schemes the operation uses (`PETSTORE_API_KEY is not set; set it to your API key`).
    pub missing_credentials: Option<String>,
    /// The success answer is bytes (`audio/mpeg`, `image/png`, `format: binary`): written as
    /// they are to standard output or to `--output FILE`, never printed as JSON. The media
    /// type, for the message shown instead of the bytes on a terminal.
    pub binary: Option<String>,
}

/// One flag of a subcommand: its name (`pet-id`), help, the value's placeholder (`INTEGER`)
/// and what it sets.
#[derive(Debug, Clone)]
pub struct CliFlag {
    pub name: String,
    /// The arm's binding of a required parameter's value (`pet_id`; `client_2` where the
    /// parameter is spelled like one of the arm's own locals); `None` for the others.
    pub local: Option<String>,
    pub help: String,
    pub value_name: &'static str,
    pub target: FlagTarget,
}

#[derive(Debug, Clone)]
pub enum FlagTarget {
    /// A parameter (an index into the operation's `params`).
    Param(usize),
    /// A top-level property of the JSON or form body.
    Property { wire: String, ty: TypeRef },
}
