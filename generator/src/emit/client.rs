//! Prints the client crate: `lib.rs` (docs and re-exports) and `client.rs` (`Client`, its
//! builder, one method per operation with its options and error types).

use super::{
    doc, ident, location_text, module_doc, response_doc, rust_type, scheme_kind, status_text,
};
use crate::ir::{
    Api, BodyKind, NextPage, Operation, Pagination, Param, Response, SchemeKind, Status,
    StreamFormat, TypeRef,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod method;
mod operations;
mod parts;
mod send;
mod stream;

use method::method;
use operations::operation_types;
use stream::stream_method;

pub fn lib_rs(api: &Api, crate_name: &str, vendored: bool) -> TokenStream {
    let krate = crate_name.replace('-', "_");
    // The example calls an operation without a body, preferring one with the fewest required
    // parameters (the first such, so the choice is stable).
    let example_op = api
        .operations
        .iter()
        .filter(|o| o.deprecated.is_none() && o.body.is_none())
        .min_by_key(|o| {
            o.params.iter().filter(|p| p.required).count() + usize::from(o.query_string.is_some())
        });
    let mut lines = vec![
        format!(
            "Client for {} {}, generated from its OpenAPI description.",
            api.title, api.version
        ),
        String::new(),
        "Every method sends one request (retrying politely: `Retry-After` on 429, backoff on"
            .into(),
        "transient failures, only when the request is safe to repeat) and returns the typed body"
            .into(),
        "with the response's status and headers, or an [`Error`] whose `Api` variant carries the"
            .into(),
        "operation's typed error. Both expose the rate-limit state the server reported.".into(),
        String::new(),
        // `no_run`: a doc test that compiles (cargo test), so the example cannot rot.
        "```no_run".into(),
        format!("use {krate}::{{Client, serde_json, types}};"),
        String::new(),
        "async fn example() -> Result<(), Box<dyn std::error::Error>> {".into(),
        // A server of this API run locally (the server crate's example binds this address),
        // at the document's base path.
        format!(
            "    let client = Client::builder(\"http://127.0.0.1:8080{}\")",
            api.base_path
        ),
    ];
    for s in &api.security_schemes {
        let arg = match s.kind {
            SchemeKind::Basic => "\"user\", \"password\"",
            _ => "\"secret\"",
        };
        lines.push(format!("        .{}({arg})", crate::naming::bare(&s.rust)));
    }
    lines.push("        .build()?;".into());
    if let Some(op) = example_op {
        // The call as the README shows it, with the document's examples for its arguments.
        for line in super::usage::client_call(api, op, &krate).lines() {
            lines.push(format!("    {line}"));
        }
        lines.push(
            "    println!(\"{:?} ({:?} left)\", response.status(), response.rate_limit().remaining);"
                .into(),
        );
    }
    lines.push("    Ok(())".into());
    lines.push("}".into());
    lines.push("```".into());
    let super::root::Root {
        head,
        runtime,
        webhooks,
        streams,
    } = super::root::parts(api, &lines, "apigen_client_runtime", vendored);
    let operations =
        super::root::operation_pages(api, "Client", "[`Client`] methods that call them");
    quote! {
        #head
        pub mod client;
        #runtime
        pub mod types;
        #webhooks
        #operations

        pub use client::{Client, ClientBuilder, Server};
        pub use runtime::error::Error;
        pub use runtime::ratelimit::RateLimit;
        pub use runtime::response::{ApiResult, ResponseValue};
        pub use runtime::retry::RetryPolicy;
        pub use runtime::options::RequestOptions;
        #streams
        /// Re-exported so callers can name header and body types without their own dependency.
        pub use bytes;
        /// Re-exported so callers can name header and body types without their own dependency.
        pub use http;
        /// Re-exported so callers can name the types' free-form JSON values without their own
        /// dependency.
        pub use serde_json;
        /// Re-exported for `ClientBuilder::http_client` and per-call hooks
        /// (`runtime::options::Hook`), which name its `Client` and `Request`.
        pub use reqwest;
        /// Re-exported so callers can name `format: uuid` values without their own dependency
        /// (one copy of the crate, the one the types use).
        pub use uuid;
        /// Re-exported so callers can name `format: date-time` and `date` values without their
        /// own dependency (one copy of the crate, the one the types use).
        pub use jiff;
    }
}

pub(crate) fn options_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Options", op.stem)
}

fn error_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Error", op.stem)
}

fn success_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Success", op.stem)
}

fn body_type(op: &Operation, kind: &BodyKind) -> TokenStream {
    match kind {
        BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. } => {
            rust_type(t, true)
        }
        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(bytes::Bytes),
        BodyKind::Stream(s) => {
            let item = rust_type(&s.item, true);
            let error = error_ident(op);
            match s.format {
                StreamFormat::JsonLines => quote!(JsonLines<#item, #error>),
                StreamFormat::Events | StreamFormat::EventsText => {
                    quote!(EventStream<#item, #error>)
                }
            }
        }
    }
}

/// The answers read as success: the 2XX ones, or `default` when the IR says it succeeds
/// ([`Operation::default_succeeds`]).
fn success_responses(op: &Operation) -> Vec<&Response> {
    op.responses
        .iter()
        .filter(|r| {
            if op.default_succeeds {
                r.status == Status::Default
            } else {
                r.is_success()
            }
        })
        .collect()
}

/// Successes share one value type when there is one success response (or none); otherwise
/// they are an enum named after the operation.
fn success_type(op: &Operation) -> TokenStream {
    let successes = success_responses(op);
    if op.success_enum {
        let name = success_ident(op);
        return quote!(#name);
    }
    match successes.first().and_then(|one| one.body.as_ref()) {
        Some(b) => body_type(op, &b.kind),
        None => quote!(()),
    }
}

/// The `match` pattern of an answer's status. Exact codes are matched first, so a range
/// leaves out the codes at its ends that have arms of their own: `400` beside `400..=499`
/// is an overlap rustc warns about (overlapping_range_endpoints), `401..=499` is not.
fn status_pattern(r: &Response, op: &Operation) -> TokenStream {
    match &r.status {
        Status::Code(c) => {
            let c = proc_macro2::Literal::u16_unsuffixed(*c);
            quote!(#c)
        }
        Status::Range(c) => class_pattern(*c, op),
        Status::Default => quote!(_),
    }
}

/// The pattern of the statuses of class `c` (`2` for 2XX), less the exact codes at its ends
/// that have arms of their own (see [`status_pattern`]).
fn class_pattern(c: u8, op: &Operation) -> TokenStream {
    let exact = |code: u16| op.responses.iter().any(|o| o.status == Status::Code(code));
    let (mut lo, mut hi) = (u16::from(c) * 100, u16::from(c) * 100 + 99);
    while lo < hi && exact(lo) {
        lo += 1;
    }
    while hi > lo && exact(hi) {
        hi -= 1;
    }
    let (lo, hi) = (
        proc_macro2::Literal::u16_unsuffixed(lo),
        proc_macro2::Literal::u16_unsuffixed(hi),
    );
    quote!(#lo..=#hi)
}

pub fn client_rs(api: &Api, crate_name: &str) -> TokenStream {
    let krate = crate_name.replace('-', "_");
    let intro = module_doc(&[format!(
        "[`Client`] for {} {}: one async method per operation.",
        api.title, api.version
    )]);
    let server_enum = server_enum(&api.servers);
    let schemes = api.security_schemes.iter().map(|s| {
        let name = &s.name;
        let kind = scheme_kind(&s.kind);
        quote!(SecurityScheme { name: #name, kind: #kind },)
    });
    let credential_setters = api.security_schemes.iter().map(credential_setter);
    // Each operation's methods and types compile under its features (`lower::features`).
    // A tag's methods are one `impl` block under the tag's feature (a `#[cfg]` once, not on
    // every method); the methods every build compiles are in the first block.
    let groups = super::gates::grouped(api.operations.iter().enumerate().map(|(i, op)| {
        let example = super::usage::client_call(api, op, &krate);
        let one = method(op, Some(&example));
        let twin = method::multipart_twin(op);
        let stream = op.pagination.as_ref().map(|p| stream_method(op, p));
        (api.features.of_operation(i), quote!(#one #twin #stream))
    }));
    let methods = groups
        .iter()
        .filter(|(features, _)| features.is_none())
        .map(|(_, methods)| methods);
    let gated_methods = groups.iter().filter_map(|(features, methods)| {
        let features = (*features)?;
        let cfg = super::gates::cfg(Some(features));
        let docs = doc(&[super::gates::group_doc(features)]);
        Some(quote! {
            #docs
            #cfg
            impl Client { #methods }
        })
    });
    // Only operations send requests; a document without any has no use for the schemes.
    let security_schemes = (!api.operations.is_empty()).then(|| {
        quote! {
            /// The document's security schemes, as credentials are applied to requests.
            const SECURITY_SCHEMES: &[SecurityScheme] = &[#(#schemes)*];
        }
    });
    let with_schemes = security_schemes
        .is_some()
        .then(|| quote!(.with_schemes(SECURITY_SCHEMES)));
    // Each operation's types, a tag's in one module under its feature.
    let op_types = super::gates::modules(
        super::gates::grouped(
            api.operations
                .iter()
                .enumerate()
                .map(|(i, op)| (api.features.of_operation(i), operation_types(op))),
        ),
        quote!(pub),
    );
    let allowances = super::gates::allowances(&api.features.features);
    let mut body = quote! {

        #server_enum

        #security_schemes

        /// A client; cheap to clone (clones share connections, credentials and rate-limit state).
        #[derive(Debug, Clone)]
        pub struct Client {
            transport: Arc<Transport>,
        }

        /// Builds a [`Client`]: base URL, credentials, timeouts, user agent, retry policy.
        #[derive(Debug)]
        pub struct ClientBuilder {
            base_url: String,
            credentials: Credentials,
            retry: RetryPolicy,
            #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
            timeout: Option<Duration>,
            user_agent: Option<String>,
            http: Option<reqwest::Client>,
            progress: Option<crate::runtime::codegen::OnProgress>,
        }

        impl ClientBuilder {
            #(#credential_setters)*

            /// How calls are retried (default: [`RetryPolicy::default`]; [`RetryPolicy::none`]
            /// switches retries off).
            pub fn retry_policy(mut self, retry: RetryPolicy) -> Self {
                self.retry = retry;
                self
            }

            /// A timeout for each attempt (default 60 s, with 10 s to connect; native targets only,
            /// browsers apply their own).
            pub fn timeout(mut self, timeout: Duration) -> Self {
                self.timeout = Some(timeout);
                self
            }

            /// The `User-Agent` header (default: this crate's name and version).
            pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
                self.user_agent = Some(user_agent.into());
                self
            }

            /// Sends through your own `reqwest::Client` (timeout and user agent are then yours to set).
            pub fn http_client(mut self, http: reqwest::Client) -> Self {
                self.http = Some(http);
                self
            }

            /// Told how far long transfers have got: request bodies of 1 MiB and more as they
            /// are sent, response bodies as they are read (native targets; the generated
            /// command line draws its progress line from this). Nothing is counted without it.
            pub fn on_progress(
                mut self,
                report: impl Fn(crate::runtime::codegen::Progress) + Send + Sync + 'static,
            ) -> Self {
                self.progress = Some(crate::runtime::codegen::OnProgress::new(report));
                self
            }

            /// The client. Fails only when the HTTP client cannot be set up (e.g. an invalid user agent).
            // One error type for every failure of this crate; it is large because it keeps the
            // response of a failed call, and building happens once.
            #[allow(clippy::result_large_err)]
            pub fn build(self) -> Result<Client, Error<std::convert::Infallible>> {
                let http = match self.http {
                    Some(http) => http,
                    None => {
                        let user_agent = self
                            .user_agent
                            .unwrap_or_else(|| concat!(env!("CARGO_PKG_NAME"), "/", env!("CARGO_PKG_VERSION")).to_string());
                        let value = http::HeaderValue::from_str(&user_agent)
                            .map_err(|e| Error::InvalidRequest(format!("invalid user agent: {e}")))?;
                        let mut headers = http::HeaderMap::new();
                        headers.insert(http::header::USER_AGENT, value);
                        let builder = reqwest::Client::builder().default_headers(headers);
                        // Timeouts (a server that accepts and never answers must not hang a
                        // call forever), no proxy for loopback, and no redirect followed: a
                        // `3xx` is the API's answer (see `default_http_client`).
                        crate::runtime::codegen::transport::configured(builder, &self.base_url, self.timeout)
                            .build()
                            .map_err(Error::Transport)?
                    }
                };
                Ok(Client {
                    transport: Arc::new(
                        Transport::new(http, self.base_url, self.credentials, self.retry)
                            .with_progress(self.progress)
                            #with_schemes,
                    ),
                })
            }
        }

        impl Client {
            /// Starts a client for `base_url`, the server's URL including its path prefix
            /// (`https://api.example/v1`).
            pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
                ClientBuilder {
                    base_url: base_url.into(),
                    credentials: Credentials::new(),
                    retry: RetryPolicy::default(),
                    timeout: None,
                    user_agent: None,
                    http: None,
                    progress: None,
                }
            }

            /// Starts a client for one of the document's servers.
            pub fn for_server(server: Server) -> ClientBuilder {
                Self::builder(server.url())
            }

            /// The base URL requests go to.
            pub fn base_url(&self) -> &str {
                &self.transport.base_url
            }

            /// The rate-limit state of the most recent response.
            pub fn last_rate_limit(&self) -> RateLimit {
                self.transport.last_rate_limit()
            }

            /// A client whose calls carry `options` (extra headers and query pairs, a
            /// timeout, a retry policy, an idempotency key, hooks of your own) on top of
            /// this one's; it shares this client's connections, credentials and rate-limit
            /// state. Cheap: make one per call
            /// (`client.with_options(RequestOptions::new().timeout(d)).list_pets()`).
            pub fn with_options(&self, options: crate::runtime::codegen::RequestOptions) -> Client {
                Client {
                    transport: Arc::new(self.transport.with_options(options)),
                }
            }

            #(#methods)*
        }

        #(#gated_methods)*

        #op_types
    };
    let uses = super::imports([&mut body], CLIENT_IMPORTS);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        #allowances
        #uses

        #body
    }
}

/// `Server`: the document's servers, with their URLs and short names (an empty enum when it
/// lists none).
fn server_enum(servers: &[crate::ir::Server]) -> TokenStream {
    let server_variants = servers.iter().map(|s| {
        let v = ident(&s.name);
        let docs = doc(&[
            s.description.clone().unwrap_or_else(|| s.url.clone()),
            format!("`{}`", s.url),
        ]);
        quote!(#docs #v,)
    });
    let server_urls = servers.iter().map(|s| {
        let v = ident(&s.name);
        let url = &s.url;
        quote!(Self::#v => #url,)
    });
    if servers.is_empty() {
        quote! {
            /// The document lists no servers; pass a URL to [`Client::builder`].
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum Server {}
            impl Server {
                /// The server's base URL.
                pub fn url(self) -> &'static str { match self {} }
            }
        }
    } else {
        let all = servers.iter().map(|s| ident(&s.name));
        let names = servers.iter().map(|s| {
            let v = ident(&s.name);
            let name = &s.short;
            quote!(Self::#v => #name,)
        });
        quote! {
            /// The servers the document lists; any other URL works with [`Client::builder`].
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum Server { #(#server_variants)* }
            impl Server {
                /// Every server, in the document's order.
                pub const ALL: &'static [Server] = &[#(Self::#all),*];

                /// The server's base URL (with its path prefix, without a trailing slash).
                pub fn url(self) -> &'static str { match self { #(#server_urls)* } }

                /// A short name for command lines and configuration (`production`).
                pub fn name(self) -> &'static str { match self { #(#names)* } }
            }
            impl std::str::FromStr for Server {
                type Err = String;
                /// A server by its [`name`](Server::name), ignoring case.
                fn from_str(text: &str) -> Result<Self, String> {
                    Self::ALL
                        .iter()
                        .copied()
                        .find(|s| s.name().eq_ignore_ascii_case(text))
                        .ok_or_else(|| {
                            let names: Vec<&str> = Self::ALL.iter().map(|s| s.name()).collect();
                            format!("unknown server `{text}`; expected one of {}", names.join(", "))
                        })
                }
            }
            impl std::fmt::Display for Server {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.name())
                }
            }
        }
    }
}

/// The builder's setter of one scheme's credentials (`bearer(token)`, `basic(user, password)`,
/// `api_key(key)`).
fn credential_setter(s: &crate::ir::SecurityScheme) -> TokenStream {
    let method = ident(&s.rust);
    let name = &s.name;
    let mut lines = vec![format!("Credentials for the `{name}` scheme.")];
    lines.extend(s.doc.iter().cloned());
    let docs = doc(&lines);
    match s.kind {
        SchemeKind::Basic => quote! {
            #docs
            pub fn #method(mut self, user: impl Into<String>, password: impl Into<String>) -> Self {
                self.credentials.set(#name, Secret::Basic { user: user.into(), password: password.into() });
                self
            }
        },
        SchemeKind::Bearer => quote! {
            #docs
            pub fn #method(mut self, token: impl Into<String>) -> Self {
                self.credentials.set(#name, Secret::Token(token.into()));
                self
            }
        },
        _ => quote! {
            #docs
            pub fn #method(mut self, key: impl Into<String>) -> Self {
                self.credentials.set(#name, Secret::ApiKey(key.into()));
                self
            }
        },
    }
}

/// The paths `client.rs` uses, each imported only when the printed code names it.
const CLIENT_IMPORTS: &[(&str, &str)] = &[
    ("crate::types", "types::"),
    ("crate::runtime::codegen::auth::Credentials", "Credentials"),
    ("crate::runtime::codegen::auth::SchemeKind", "SchemeKind"),
    ("crate::runtime::codegen::auth::Secret", "Secret"),
    (
        "crate::runtime::codegen::auth::SecurityScheme",
        "SecurityScheme",
    ),
    ("crate::runtime::codegen::error::Error", "Error"),
    ("crate::runtime::codegen::ratelimit::RateLimit", "RateLimit"),
    ("crate::runtime::codegen::request", "request::"),
    ("crate::runtime::codegen::request::Query", "Query"),
    (
        "crate::runtime::codegen::request::ObjectQuery",
        "ObjectQuery::",
    ),
    ("crate::runtime::codegen::request::Style", "Style::"),
    ("crate::runtime::codegen::request::ToParam", "ToParam"),
    ("crate::runtime::codegen::response", "response::"),
    ("crate::runtime::codegen::response::Raw", "Raw"),
    ("crate::runtime::codegen::response::ApiResult", "ApiResult"),
    (
        "crate::runtime::codegen::response::ResponseValue",
        "ResponseValue",
    ),
    ("crate::runtime::codegen::pages", "pages::"),
    ("crate::runtime::codegen::pages::Page", "Page"),
    ("crate::runtime::codegen::pages::Pages", "Pages"),
    (
        "crate::runtime::codegen::stream::EventStream",
        "EventStream",
    ),
    ("crate::runtime::codegen::stream::JsonLines", "JsonLines"),
    ("crate::runtime::codegen::retry::RetryPolicy", "RetryPolicy"),
    (
        "crate::runtime::codegen::transport::OperationInfo",
        "OperationInfo",
    ),
    ("crate::runtime::codegen::transport::Transport", "Transport"),
    ("std::sync::Arc", "Arc"),
    ("std::time::Duration", "Duration"),
];

/// Whether a required parameter is taken by reference (`&str`, `&[T]`, `&types::X`) rather
/// than by value (numbers and booleans), as a person would write the signature.
pub(crate) fn by_ref(p: &Param) -> bool {
    matches!(p.ty, TypeRef::String | TypeRef::Vec(_) | TypeRef::Named(_))
}

/// The argument type of a required parameter.
fn arg_type(p: &Param) -> TokenStream {
    match &p.ty {
        TypeRef::String => quote!(&str),
        TypeRef::Vec(inner) => {
            let inner = rust_type(inner, true);
            quote!(&[#inner])
        }
        other => {
            let t = rust_type(other, true);
            if by_ref(p) { quote!(&#t) } else { t }
        }
    }
}

/// A parameter's value expression, as a `&T` for the request helpers.
fn param_ref(p: &Param) -> TokenStream {
    let (rust, local) = (ident(&p.rust), ident(&p.local));
    match (p.required, by_ref(p)) {
        (true, true) => quote!(#local),
        (true, false) => quote!(&#local),
        (false, _) => quote!(options.#rust.as_ref()),
    }
}

/// Whether `value` is one `http::HeaderValue::from_static` takes (it panics on any other).
fn is_static_header_value(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
}

/// A header value the document fixes (a media type): `HeaderValue::from_static`, which the
/// request takes as it is, when every byte is one a header value may hold; otherwise the text,
/// which reqwest checks (and copies) on every call.
fn static_header_value(value: &str) -> TokenStream {
    if is_static_header_value(value) {
        quote!(http::HeaderValue::from_static(#value))
    } else {
        quote!(#value)
    }
}

#[cfg(test)]
mod tests {
    //! The client shapes that keep additive spec edits source-compatible (book/src/guide/evolving.md,
    //! the spec"), checked on the generated text of small documents.

    fn client_rs(paths: &str) -> String {
        let doc = format!(
            "openapi: 3.0.3\ninfo: {{title: T, version: 1.0.0}}\ncomponents:\n  schemas:\n    Pet: {{type: object, properties: {{name: {{type: string}}}}}}\npaths:\n{paths}"
        );
        let options = crate::Options {
            name: "t".into(),
            spec_label: "t.yaml".into(),
            command: "test".into(),
            string_formats: false,
            ..Default::default()
        };
        let out = crate::generate(&doc, &options).unwrap_or_else(|e| panic!("{e}"));
        out.files
            .iter()
            .find(|(path, _)| path.ends_with("client/src/client.rs"))
            .map(|(_, text)| text.clone())
            .expect("a client.rs")
    }

    const PET: &str = "{content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}, description: x}";

    #[test]
    fn optional_parameters_get_a_with_method_and_a_document_name_keeps_its_own() {
        let text = client_rs(&format!(
            "  /pets:\n    get:\n      operationId: listPets\n      parameters: [{{name: limit, in: query, schema: {{type: integer}}}}]\n      responses: {{'200': {PET}}}\n  /pets/with:\n    get:\n      operationId: listPetsWith\n      responses: {{'200': {PET}}}\n  /types:\n    get:\n      operationId: type\n      parameters: [{{name: q, in: query, schema: {{type: string}}}}]\n      responses: {{'200': {PET}}}\n"
        ));
        assert!(text.contains("pub async fn list_pets(&self)"), "{text}");
        // The document's `listPetsWith` keeps its name; ours moves.
        assert!(
            text.contains("pub async fn list_pets_with(&self)"),
            "{text}"
        );
        assert!(
            text.contains(
                "pub async fn list_pets_with_2(\n        &self,\n        options: ListPetsOptions,"
            ),
            "{text}"
        );
        assert!(
            text.contains("pub async fn r#type(") && text.contains("pub async fn type_with("),
            "{text}"
        );
    }

    #[test]
    fn successes_of_one_body_type_return_it_and_different_bodies_an_enum() {
        let text = client_rs(&format!(
            "  /same:\n    post:\n      operationId: same\n      responses: {{'200': {PET}, '201': {PET}}}\n  /empty:\n    post:\n      operationId: empty\n      responses: {{'202': {{description: x}}, '204': {{description: x}}}}\n  /mixed:\n    post:\n      operationId: mixed\n      responses: {{'201': {PET}, '202': {{description: x}}}}\n"
        ));
        assert!(
            text.contains("-> ApiResult<types::Pet, SameError>"),
            "{text}"
        );
        assert!(text.contains("-> ApiResult<(), EmptyError>"), "{text}");
        assert!(
            text.contains("-> ApiResult<MixedSuccess, MixedError>"),
            "{text}"
        );
        assert!(
            !text.contains("enum SameSuccess") && text.contains("pub enum MixedSuccess"),
            "{text}"
        );
    }
}
