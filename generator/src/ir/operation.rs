//! One operation, every decision made: its parameters, body, responses, security,
//! deprecation, pagination, idempotency and mock answers.

use super::*;

#[derive(Debug, Clone)]
pub struct Operation {
    /// The document's operationId, or a stable name from method and path.
    pub id: String,
    /// The document's tags (what `Options::select` picks by).
    pub tags: Vec<String>,
    /// `list_pets`
    pub rust: String,
    /// `list_pets_with`: the client method that also takes the optional parameters (an
    /// `…Options` value), when the operation has any. `rust` sends none of them, so an
    /// operation's first optional parameter adds a method instead of changing one.
    pub rust_with: Option<String>,
    /// The client methods that send the body as `multipart/form-data` (`create_message_multipart`
    /// and, with optional parameters, `create_message_multipart_with`), when the document
    /// offers that beside JSON or a form: the method `rust` sends the typed body, these a
    /// `runtime::multipart::Form` (the command line sends the form when given `--field` or
    /// `--file`).
    pub multipart_twin: Option<MultipartTwin>,
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
    /// not change the method's return type (book/src/guide/evolving.md).
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
    /// Values for an example call (`lower/mock.rs`): what the generated READMEs and docs
    /// show a call and an implementation with.
    pub usage: Usage,
    /// The operation's own error bodies by status (indices into `Api::error_bodies`), when
    /// they differ from the document's (`Api::errors`); the router's `ERRORS_…` constant.
    pub errors: Option<(String, ErrorTable)>,
    /// How the client reads a status the document does not list (`lower/undocumented.rs`).
    pub undocumented: Undocumented,
}

/// How the client reads an answer whose status no documented response covers. Real servers
/// answer statuses their documents leave out (FastAPI sets `201` at run time where the
/// document lists `200`); a 2XX is still a success, and an error is still read in the shape
/// the document gives its errors when it fits.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Undocumented {
    /// A 2XX no answer covers: read as the answer at this index of [`Operation::responses`]
    /// (the nearest documented success, the lower status on a tie); `None` with
    /// `success_arm`: read as a success without a body (the operation documents none).
    pub success: Option<usize>,
    /// Whether the client needs an arm for an undocumented 2XX at all (no `2XX` range and no
    /// `default` read as a success covers them).
    pub success_arm: bool,
    /// A 4XX or 5XX no answer covers (there is no `default`): read as this JSON type into the
    /// error enum's [`UNDOCUMENTED_VARIANT`]; a body that does not decode as it is kept raw
    /// (`Error::UnexpectedStatus`). `None`: every such answer is kept raw.
    pub error: Option<TypeRef>,
}

/// The variant of a client error enum that holds an undocumented error status read with the
/// document's common error type. Status variants are named after reason phrases
/// (`naming::status_variant`), ranges `…Error` and `default` `Default`: never this.
pub const UNDOCUMENTED_VARIANT: &str = "Undocumented";

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

/// Values for an example call of an operation, as JSON: the document's own examples where it
/// gives them and they have the parameter's shape, else values made from the types as the
/// mock makes them (a request's: required members only, no `readOnly` ones). The snippets of
/// the generated READMEs and docs are printed from these.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Usage {
    /// One per required parameter, in [`Operation::params`] order.
    pub params: Vec<serde_json::Value>,
    /// The 3.2 query string's value, when the operation has one.
    pub query_string: Option<serde_json::Value>,
    /// The body's value, when the operation has one (for text and bytes, a JSON string).
    pub body: Option<serde_json::Value>,
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

/// The document's `Idempotency-Key` header. Its syntax is the document's: the server reads and
/// checks the header as any other (`param`, never given to the implementation); the runtime
/// adds only the draft's replay rules, where the server's configuration turns them on.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    /// A request without the key is refused (400) instead of served without replay.
    pub required: bool,
    /// The header as declared, for its checks (the server reads it as optional: a missing key
    /// is the runtime's 400, `required` above).
    pub param: Param,
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
    /// `style`, as the document says or its location's default.
    pub style: Style,
    /// A query parameter's `allowReserved: true`: the client writes its value with the
    /// reserved characters a query may hold left as they are (`runtime::request::Query::
    /// allow_reserved`).
    pub allow_reserved: bool,
    /// Server-side default, as a Rust literal expression's source value.
    pub default: Option<serde_json::Value>,
    /// The parameter's `example` (or first of its `examples`, or its schema's), as written:
    /// what [`Usage`] shows it with when the value has the parameter's shape.
    pub example: Option<serde_json::Value>,
    pub constraints: Constraints,
    pub doc: Vec<String>,
    pub deprecated: bool,
    /// A query parameter whose value is an object (a struct or a map of scalars): how its
    /// members are sent. None for every other parameter.
    pub object: Option<ObjectStyle>,
    /// Set when the schema says more than the parameter's type holds (`lower::held`): the
    /// server holds the value read to the schema as written, instead of the type's checks.
    pub held: Option<Held>,
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
    /// Written as one value in the parameter's [`Style`], its members between the style's
    /// separators: a path's `R=100,G=200` (`simple`), `.R=100.G=200` (`label`),
    /// `;R=100;G=200` (`matrix`); a header's; a cookie's not exploded; a query's
    /// `pipeDelimited` or `spaceDelimited` pair. Members are scalars.
    Styled,
}

/// OpenAPI's `style` of a parameter (the runtime's `style::Style`, with `deepObject`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Simple,
    Label,
    Matrix,
    Form,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
}

/// See [`Operation::multipart_twin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultipartTwin {
    pub rust: String,
    pub rust_with: Option<String>,
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
    /// Other media types of a bytes or text body, read alike (the implementation gets the
    /// bytes or the text whichever was sent) and which the client's caller may send instead of
    /// `content_type` (`image/jpeg` beside `image/png`; api.github.com's `text/x-markdown`
    /// beside `text/plain`), in the document's order.
    pub raw_media: Vec<String>,
    /// For a `multipart/form-data` body, which reaches the implementation as its bytes
    /// (`BodyKind::Bytes`): the type of the document's schema, which the server decodes the
    /// parts into and checks before passing the bytes on.
    pub checked_as: Option<TypeRef>,
    /// A multipart body's parts' media types from the document's `encoding` (part name,
    /// media type): what the command line sends a file part as.
    pub part_media: Vec<(String, String)>,
    /// The body schema's own constraints (a whole-array body's `maxItems`, a map body's
    /// `maxProperties`, each item's or value's), checked on JSON and form bodies beside the
    /// checks the body's types carry.
    pub constraints: Constraints,
    /// The body's type with aliases of scalars, arrays and maps resolved, which decides the
    /// checks that apply (filled by `resolve_check_types`).
    pub check_ty: TypeRef,
    pub doc: Vec<String>,
    /// The JSON body's schema is held to the letter by the runtime (`runtime::schema`) before
    /// it is decoded: its schema says what the body's types and their checks cannot (see
    /// `lower::held`). `None`: the types and their checks hold all of it.
    pub held: Option<Held>,
    /// The same for the body's `multipart/form-data` schema (the body's own, or its
    /// alternative's): its parts, decoded into their type (a file as its text), are held to
    /// that schema as written.
    pub multipart_held: Option<Held>,
    /// The media type's `example` and `examples` values, in document order: what [`Usage`]
    /// shows the body with.
    pub examples: Vec<serde_json::Value>,
}

/// Where the runtime finds a body's schema: a JSON pointer into the served document (as
/// written, `document.rs`), and the dialect its keywords are read in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub pointer: String,
    /// JSON Schema 2020-12 (OpenAPI 3.1, 3.2); otherwise OpenAPI 3.0's schema object.
    pub dialect_2020: bool,
}

impl Body {
    /// The type a `multipart/form-data` alternative is checked as, when the body has one: the
    /// implementation then receives `runtime::body::OrMultipart` of the body's type.
    pub fn multipart_alternative(&self) -> Option<&TypeRef> {
        self.multipart_alternative_media().map(|(_, ty)| ty)
    }

    /// [`Body::multipart_alternative`] with its media type as the document writes it.
    pub fn multipart_alternative_media(&self) -> Option<(&str, &TypeRef)> {
        self.alternatives.iter().find_map(|(ct, kind)| match kind {
            BodyKind::Multipart { ty, .. } => Some((ct.as_str(), ty)),
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

    /// Whether the caller picks the media type a bytes or text body is sent as (the client's
    /// `runtime::request::Upload`, the CLI's `--content-type`): the document lists several,
    /// or a range that names none (api.github.com's release assets: `*/*`).
    pub fn media_chosen(&self) -> bool {
        matches!(self.kind, BodyKind::Bytes | BodyKind::Text)
            && !self.is_multipart_form()
            && (!self.raw_media.is_empty() || self.content_type.contains('*'))
    }

    /// The media types a bytes or text body may be sent as: `content_type`, then
    /// `raw_media`.
    pub fn sendable_media(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.content_type.as_str()).chain(self.raw_media.iter().map(String::as_str))
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
    /// Whether the server's handler has nothing to do before it serves the request: no
    /// sunset to check first, no `Idempotency-Key` to store answers by, no headers of its
    /// own to add (its own error bodies, if any, the runtime's `layer::handle_in` takes).
    pub fn served_plainly(&self) -> bool {
        let sunset = self.deprecated.as_ref().is_some_and(|d| d.sunset.is_some());
        !sunset && self.idempotency_key.is_none() && self.extra_headers.is_empty()
    }

    /// Whether the client's options struct writes the optional query parameters (their
    /// styles declared on its fields, `request::parameters!`): when there are some, none
    /// keeps reserved characters (`allowReserved`, which the method switches around its
    /// value), and every required query parameter comes before them, so the method's own
    /// appends then the options' keep the document's order of pairs.
    pub fn query_in_options(&self) -> bool {
        let query: Vec<&Param> = self
            .params
            .iter()
            .filter(|p| p.location == Location::Query)
            .collect();
        self.query_string.is_none()
            && query.iter().any(|p| !p.required)
            && !query.iter().any(|p| p.allow_reserved)
            && query.iter().skip_while(|p| p.required).all(|p| !p.required)
    }

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
