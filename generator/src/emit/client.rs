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

use method::method;

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
        format!("use {krate}::Client;"),
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
        // Required parameters are the caller's to supply: `todo!()` stands for them.
        let mut args: Vec<&str> = op
            .params
            .iter()
            .filter(|p| p.required)
            .map(|_| "todo!()")
            .collect();
        if op.query_string.is_some() {
            args.push("todo!()");
        }
        lines.push(format!(
            "    let response = client.{}({}).await?;",
            op.rust,
            args.join(", ")
        ));
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
    quote! {
        #head
        pub mod client;
        #runtime
        pub mod types;
        #webhooks

        pub use client::{Client, ClientBuilder, Server};
        pub use runtime::error::Error;
        pub use runtime::ratelimit::RateLimit;
        pub use runtime::response::ResponseValue;
        pub use runtime::retry::RetryPolicy;
        #streams
        /// Re-exported so callers can name header and body types without their own dependency.
        pub use bytes;
        /// Re-exported so callers can name header and body types without their own dependency.
        pub use http;
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
        Status::Range(c) => {
            let exact = |code: u16| op.responses.iter().any(|o| o.status == Status::Code(code));
            let (mut lo, mut hi) = (u16::from(*c) * 100, u16::from(*c) * 100 + 99);
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
        Status::Default => quote!(_),
    }
}

pub fn client_rs(api: &Api) -> TokenStream {
    let intro = module_doc(&[format!(
        "[`Client`] for {} {}: one async method per operation.",
        api.title, api.version
    )]);
    let servers = &api.servers;
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
    let server_enum = if servers.is_empty() {
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
            let name = crate::naming::snake(&s.name)
                .trim_start_matches("r#")
                .to_string();
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
    };
    let schemes = api.security_schemes.iter().map(|s| {
        let name = &s.name;
        let kind = scheme_kind(&s.kind);
        quote!(SecurityScheme { name: #name, kind: #kind },)
    });
    let credential_setters = api.security_schemes.iter().map(|s| {
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
    });
    let methods = api.operations.iter().map(|op| {
        let one = method(op);
        let stream = op.pagination.as_ref().map(|p| stream_method(op, p));
        quote!(#one #stream)
    });
    // Only operations send requests; a document without any has no use for the schemes.
    let security_schemes = (!api.operations.is_empty()).then(|| {
        quote! {
            /// The document's security schemes, as credentials are applied to requests.
            const SECURITY_SCHEMES: &[SecurityScheme] = &[#(#schemes)*];
        }
    });
    let op_types = api.operations.iter().map(operation_types);
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
        }

        impl ClientBuilder {
            #(#credential_setters)*

            /// How calls are retried (default: [`RetryPolicy::default`]; [`RetryPolicy::none`] switches retries off).
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
                        crate::runtime::transport::configured(builder, &self.base_url, self.timeout)
                            .build()
                            .map_err(Error::Transport)?
                    }
                };
                Ok(Client {
                    transport: Arc::new(Transport::new(http, self.base_url, self.credentials, self.retry)),
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

            #(#methods)*
        }

        #(#op_types)*
    };
    let uses = super::imports(
        [&mut body],
        &[
            ("crate::types", "types::"),
            ("crate::runtime::auth::Credentials", "Credentials"),
            ("crate::runtime::auth::SchemeKind", "SchemeKind"),
            ("crate::runtime::auth::Secret", "Secret"),
            ("crate::runtime::auth::SecurityScheme", "SecurityScheme"),
            ("crate::runtime::error::Error", "Error"),
            ("crate::runtime::ratelimit::RateLimit", "RateLimit"),
            ("crate::runtime::request", "request::"),
            ("crate::runtime::request::Query", "Query"),
            ("crate::runtime::request::ObjectQuery", "ObjectQuery::"),
            ("crate::runtime::request::ToParam", "ToParam"),
            ("crate::runtime::response::Raw", "Raw"),
            ("crate::runtime::response::ResponseValue", "ResponseValue"),
            ("crate::runtime::pages", "pages::"),
            ("crate::runtime::pages::Page", "Page"),
            ("crate::runtime::pages::Pages", "Pages"),
            ("crate::runtime::stream::EventStream", "EventStream"),
            ("crate::runtime::stream::JsonLines", "JsonLines"),
            ("crate::runtime::retry::RetryPolicy", "RetryPolicy"),
            ("crate::runtime::transport::OperationInfo", "OperationInfo"),
            ("crate::runtime::transport::Transport", "Transport"),
            ("std::sync::Arc", "Arc"),
            ("std::time::Duration", "Duration"),
        ],
    );
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        #uses

        #body
    }
}

/// Options, success and error types of one operation.
fn operation_types(op: &Operation) -> TokenStream {
    let optional: Vec<&Param> = op.params.iter().filter(|p| !p.required).collect();
    let options = (!optional.is_empty()).then(|| {
        let name = options_ident(op);
        let fields = optional.iter().map(|p| {
            let rust = ident(&p.rust);
            let t = rust_type(&p.ty, true);
            let mut lines = p.doc.clone();
            let mut note = format!("{} parameter `{}`", location_text(p.location), p.wire);
            if let Some(d) = &p.default {
                note.push_str(&format!("; the server uses `{d}` when unset"));
            }
            super::end_list(&mut lines);
            lines.push(format!("({note})"));
            let docs = doc(&lines);
            let deprecated = p
                .deprecated
                .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
            quote!(#docs #deprecated pub #rust: Option<#t>,)
        });
        let docs = doc(&[format!(
            "Optional parameters of `{}`; `Default::default()` sets none, the `with_…` methods set one each.",
            op.id
        )]);
        let allow = optional
            .iter()
            .any(|p| p.deprecated)
            .then(|| quote!(#[allow(deprecated)]));
        // Each setter takes the value under the field's own name; a document's `foo` is a
        // name clippy flags by default (disallowed_names) but the document's to choose.
        let placeholder = optional
            .iter()
            .any(|p| crate::naming::reserved::CLIPPY_PLACEHOLDERS.contains(&p.rust.as_str()))
            .then(|| quote!(#[allow(clippy::disallowed_names)]));
        let setters = optional.iter().map(|p| {
            let rust = ident(&p.rust);
            let setter = ident(&p.setter);
            let t = rust_type(&p.ty, true);
            let docs = doc(&[format!("Sets `{}` (`None` unsets it).", p.wire)]);
            let deprecated = p
                .deprecated
                .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
            // A value or an `Option` (to pass one on without an `if let`).
            quote! {
                #docs
                #deprecated
                pub fn #setter(mut self, #rust: impl Into<Option<#t>>) -> Self {
                    self.#rust = #rust.into();
                    self
                }
            }
        });
        quote! {
            #docs
            #allow
            #[derive(Debug, Clone, Default, PartialEq)]
            pub struct #name { #(#fields)* }
            #allow
            #placeholder
            impl #name {
                #(#setters)*
            }
        }
    });
    let successes = success_responses(op);
    let success = op.success_enum.then(|| {
        let name = success_ident(op);
        let variants = successes.iter().map(|r| {
            let v = ident(&r.variant);
            let docs = doc(&[format!(
                "{}: {}",
                status_text(r),
                r.doc.first().cloned().unwrap_or_default()
            )]);
            match &r.body {
                Some(b) => {
                    let t = body_type(op, &b.kind);
                    quote!(#docs #v(#t),)
                }
                None => quote!(#docs #v,),
            }
        });
        let docs = doc(&[format!("The successful answers of `{}`.", op.id)]);
        // A stream is read once: neither `Clone` nor `PartialEq`.
        let derives = if op.streamed {
            quote!(#[derive(Debug)])
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)])
        };
        quote! {
            #docs
            #derives
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }
        }
    });
    let error = {
        let name = error_ident(op);
        let variants = op.responses.iter().filter(|r| !r.is_success()).map(|r| {
            let v = ident(&r.variant);
            let docs = response_doc(r);
            match r.body.as_ref().map(|b| &b.kind) {
                Some(BodyKind::Json(t) | BodyKind::Form(t)) => {
                    let t = rust_type(t, true);
                    quote!(#docs #v(#t),)
                }
                // Whatever the server sent, as text: the document describes no JSON body, but
                // the message a server writes there (a sentence, a JSON it did not declare)
                // is often the only explanation of the failure.
                _ => {
                    let mut lines = vec![format!(
                        "{}: {}",
                        status_text(r),
                        r.doc.first().cloned().unwrap_or_default()
                    )];
                    lines.extend(r.doc.iter().skip(1).cloned());
                    lines.push(String::new());
                    lines.push(
                        "Holds the body as text, as the server sent it (empty if none).".into(),
                    );
                    let docs = doc(&lines);
                    quote!(#docs #v(String),)
                }
            }
        });
        let docs = doc(&[
            format!(
                "The documented error answers of `{}`; the status and headers are on [`Error::Api`].",
                op.id
            ),
            String::new(),
            "`non_exhaustive`: an error status the document adds later is a new variant; code"
                .into(),
            "that matches on this enum keeps compiling.".into(),
        ]);
        let from_raw = op.streamed.then(|| {
            let (arms, has_default) = error_arms(op);
            // Without documented errors every status is unexpected, and with `default` alone
            // every status reads the same way: no one-arm `match` (clippy::match_single_binding).
            let body = match arms.as_slice() {
                [] => quote!(raw.unexpected()),
                [(_, expr)] if has_default => expr.clone(),
                _ => {
                    let fallback = (!has_default).then(|| quote!(_ => raw.unexpected(),));
                    let arms = arms.iter().map(|(p, e)| quote!(#p => #e,));
                    quote! {
                        match raw.status.as_u16() {
                            #(#arms)*
                            #fallback
                        }
                    }
                }
            };
            quote! {
                impl #name {
                    /// The error a response of another status than the stream's becomes (also
                    /// the `error` event that ends a stream, by its `status`).
                    fn from_raw(raw: Raw) -> Error<Self> {
                        #body
                    }
                }
            }
        });
        // `Serialize`, untagged: a variant writes the body the server sent (a status without
        // one writes `null`), for logs and tools such as the generated CLI.
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq, serde::Serialize)]
            #[serde(untagged)]
            #[allow(clippy::large_enum_variant)]
            #[non_exhaustive]
            pub enum #name { #(#variants)* }
            #from_raw
        }
    };
    let headers = op.responses.iter().filter_map(|r| {
        let name = ident(r.headers_type.as_ref()?);
        let fields = r.headers.iter().map(|h| {
            let rust = ident(&h.rust);
            let t = rust_type(&h.ty, true);
            let mut lines = h.doc.clone();
            lines.push(format!("(header `{}`; `None` when absent or unreadable)", h.wire));
            let docs = doc(&lines);
            quote!(#docs pub #rust: Option<#t>,)
        });
        let reads = r.headers.iter().map(|h| {
            let rust = ident(&h.rust);
            let wire = &h.wire;
            let parse = match &h.ty {
                TypeRef::Vec(_) => quote!(value.split(',').map(|v| v.trim().parse().ok()).collect::<Option<Vec<_>>>()),
                _ => quote!(value.trim().parse().ok()),
            };
            quote!(#rust: headers.get(#wire).and_then(|v| v.to_str().ok()).and_then(|value| #parse),)
        });
        let docs = doc(&[
            format!("Headers of the `{}` answer of `{}`.", status_text(r), op.id),
            "Read them with `from_headers(response.headers())`.".to_string(),
        ]);
        Some(quote! {
            #docs
            #[derive(Debug, Clone, Default, PartialEq)]
            pub struct #name { #(#fields)* }
            impl #name {
                /// Reads the documented headers; a header that is missing or does not parse is `None`.
                pub fn from_headers(headers: &http::HeaderMap) -> Self {
                    Self { #(#reads)* }
                }
            }
        })
    });
    quote!(#options #success #error #(#headers)*)
}

/// The match arms (codes first, then ranges, then `default`) turning a documented error status
/// into the operation's error, and the arm for an undocumented one, as expressions of `raw`.
fn error_arms(op: &Operation) -> (Vec<(TokenStream, TokenStream)>, bool) {
    let error_ty = error_ident(op);
    let mut arms: Vec<(u8, TokenStream, TokenStream)> = op
        .responses
        .iter()
        .filter(|r| !r.is_success())
        .map(|r| {
            let v = ident(&r.variant);
            let expr = match r.body.as_ref().map(|b| &b.kind) {
                Some(BodyKind::Json(_) | BodyKind::Form(_)) => {
                    quote!(raw.api_error(#error_ty::#v))
                }
                _ => quote!(raw.api_error_text(#error_ty::#v)),
            };
            (status_rank(r), status_pattern(r, op), expr)
        })
        .collect();
    arms.sort_by_key(|(rank, _, _)| *rank);
    let has_default = op.responses.iter().any(|r| r.status == Status::Default);
    (
        arms.into_iter().map(|(_, p, e)| (p, e)).collect(),
        has_default,
    )
}

/// Match order: exact codes, then ranges, then `default`.
fn status_rank(r: &Response) -> u8 {
    match r.status {
        Status::Code(_) => 0,
        Status::Range(_) => 1,
        Status::Default => 2,
    }
}

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

/// The argument type of a required parameter of a `…_stream` method: as [`arg_type`], with
/// the stream's lifetime on references (the stream borrows them for every page).
fn arg_type_for_stream(p: &Param) -> TokenStream {
    match &p.ty {
        TypeRef::String => quote!(&'a str),
        TypeRef::Vec(inner) => {
            let inner = rust_type(inner, true);
            quote!(&'a [#inner])
        }
        other => {
            let t = rust_type(other, true);
            if by_ref(p) { quote!(&'a #t) } else { t }
        }
    }
}

/// `…_stream`: every item of every page, fetched lazily through `…_with` (so each page is
/// authenticated, retried and rate-limited like any call). How the next page is asked for is
/// the IR's [`Pagination`].
fn stream_method(op: &Operation, p: &Pagination) -> TokenStream {
    let name = ident(&p.rust);
    let Some(with) = op.rust_with.as_ref().map(|w| ident(w)) else {
        return quote!();
    };
    let options_ty = options_ident(op);
    let error_ty = error_ident(op);
    let item = rust_type(&p.item, true);
    let required: Vec<&Param> = op.params.iter().filter(|p| p.required).collect();
    let args = required.iter().map(|p| {
        let rust = ident(&p.local);
        let t = arg_type_for_stream(p);
        quote!(#rust: #t,)
    });
    let forward = required.iter().map(|p| {
        let a = ident(&p.local);
        quote!(#a,)
    });
    let set_next = match &p.next {
        NextPage::Cursor {
            param,
            keep_only: None,
            ..
        } => {
            let param = ident(param);
            quote!(options.#param = Some(next);)
        }
        NextPage::Cursor {
            param,
            keep_only: Some(keep),
            ..
        } => {
            let setter = |rust: &str| {
                let p = op.params.iter().find(|p| p.rust == rust);
                ident(p.map_or(rust, |p| p.setter.as_str()))
            };
            let set_param = setter(param);
            let keep = keep.iter().map(|k| {
                let (set, k) = (setter(k), ident(k));
                quote!(.#set(options.#k.take()))
            });
            quote! {
                options = #options_ty::default().#set_param(next)#(#keep)*;
            }
        }
        NextPage::Link { params } if params.len() == 1 => {
            // One parameter: an `if` (a one-arm `match` is clippy::single_match).
            let (wire, rust) = &params[0];
            let rust = ident(rust);
            quote! {
                for (name, value) in pages::query_pairs(&next) {
                    if name == #wire {
                        options.#rust = value.parse().ok();
                    }
                }
            }
        }
        NextPage::Link { params } => {
            let arms = params.iter().map(|(wire, rust)| {
                let rust = ident(rust);
                quote!(#wire => options.#rust = value.parse().ok(),)
            });
            quote! {
                for (name, value) in pages::query_pairs(&next) {
                    match name.as_str() {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        }
    };
    let read_page = match (&p.next, &p.items_field) {
        (
            NextPage::Cursor {
                field, more: None, ..
            },
            Some(items),
        ) => {
            let (field, items) = (ident(field), ident(items));
            quote! {
                let body = response.into_inner();
                Ok(Page::new(body.#items, body.#field))
            }
        }
        (
            NextPage::Cursor {
                field,
                more: Some(more),
                ..
            },
            Some(items),
        ) => {
            let (field, items, more) = (ident(field), ident(items), ident(more));
            quote! {
                let body = response.into_inner();
                Ok(Page::new(body.#items, pages::when(body.#more, body.#field)))
            }
        }
        (NextPage::Link { .. }, Some(items)) => {
            let items = ident(items);
            quote! {
                let next = pages::link_next(response.headers());
                Ok(Page::new(response.into_inner().#items, next))
            }
        }
        _ => quote! {
            let next = pages::link_next(response.headers());
            Ok(Page::new(response.into_inner(), next))
        },
    };
    let how = match &p.next {
        NextPage::Cursor {
            keep_only: Some(_), ..
        } => {
            "dropshot's `next_page`, sent back as `page_token` (with `limit` only, as dropshot wants)"
        }
        NextPage::Cursor { .. } => {
            "the cursor in the body, sent back in the query with the other options unchanged"
        }
        NextPage::Link { .. } => {
            "the `Link` header's `rel=\"next\"` target, whose query parameters set the options"
        }
    };
    let docs = doc(&[
        format!(
            "Every item of `{}`, page after page, as one stream: the next page is fetched when this one's items are taken, through [`{w}`](Self::{w}) (authenticated, retried and rate-limited like any call).",
            op.id,
            w = crate::naming::bare(&with.to_string())
        ),
        String::new(),
        format!(
            "Next page: {how}. The stream ends after the last page, after an error (yielded once), or when a page names the same next page as the one before."
        ),
    ]);
    let deprecated = op.deprecated.as_ref().map(|d| {
        let note = &d.note;
        quote!(#[deprecated(note = #note)] #[allow(deprecated)])
    });
    let reads_deprecated = (op.deprecated.is_none()
        && op.params.iter().any(|p| !p.required && p.deprecated))
    .then(|| quote!(#[allow(deprecated)]));
    let many = (1 + required.len() + 1 > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    // `#[inline]`: boxing the page closure instantiates the whole call (the `…_with` future,
    // the decoding of the page type) wherever this method is compiled. Without the attribute
    // an optimised build of the client compiles that for every paginated operation, used or
    // not; with it, like the operations' async methods (whose bodies are compiled where they
    // are awaited), only in the crates that call it.
    quote! {
        #docs
        #deprecated
        #reads_deprecated
        #many
        #[inline]
        pub fn #name<'a>(
            &'a self,
            #(#args)*
            options: #options_ty,
        ) -> Pages<'a, #item, #error_ty> {
            Pages::new(move |next: Option<String>| {
                let mut options = options.clone();
                if let Some(next) = next {
                    #set_next
                }
                Box::pin(async move {
                    let response = self.#with(#(#forward)* options).await?;
                    #read_page
                })
            })
        }
    }
}

/// A header value the document fixes (a media type): `HeaderValue::from_static`, which the
/// request takes as it is, when every byte is one a header value may hold; otherwise the text,
/// which reqwest checks (and copies) on every call.
fn static_header_value(value: &str) -> TokenStream {
    if value
        .bytes()
        .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
    {
        quote!(http::HeaderValue::from_static(#value))
    } else {
        quote!(#value)
    }
}

#[cfg(test)]
mod tests {
    //! The client shapes that keep additive spec edits source-compatible (README, "Evolving
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
        assert!(
            text.contains("pub async fn list_pets(\n        &self,\n    )"),
            "{text}"
        );
        // The document's `listPetsWith` keeps its name; ours moves.
        assert!(
            text.contains("pub async fn list_pets_with(\n        &self,\n    )"),
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
            text.contains("-> Result<ResponseValue<types::Pet>, Error<SameError>>"),
            "{text}"
        );
        assert!(
            text.contains("-> Result<ResponseValue<()>, Error<EmptyError>>"),
            "{text}"
        );
        assert!(
            text.contains("-> Result<ResponseValue<MixedSuccess>, Error<MixedError>>"),
            "{text}"
        );
        assert!(
            !text.contains("enum SameSuccess") && text.contains("pub enum MixedSuccess"),
            "{text}"
        );
    }
}
