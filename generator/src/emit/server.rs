//! Prints the server crate: `lib.rs` (docs and re-exports), `api.rs` (the trait, parameter
//! structs, response enums) and `router.rs` (one handler per operation and `router()`).

use super::types::constraint_checks;
use super::{
    doc, ident, literal, location_text, module_doc, operation_doc, response_doc, rust_type,
    scheme_kind, status_text,
};
use crate::ir::{
    Api, BodyKind, Dispatcher, Location, ObjectStyle, Operation, Param, PathPattern, PathPiece,
    QueryString, QueryStringKind, Response, RouteServe, Status, StreamFormat, TypeKind, TypeRef,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub(super) fn trait_name(api: &Api) -> proc_macro2::Ident {
    format_ident!("{}Api", api.api_name)
}

pub fn lib_rs(api: &Api, crate_name: &str, vendored: bool) -> TokenStream {
    let trait_ident = trait_name(api);
    let trait_name = trait_ident.to_string();
    let krate = crate_name.replace('-', "_");
    let mut lines = vec![
        format!(
            "Server for {} {}, generated from its OpenAPI description.",
            api.title, api.version
        ),
        String::new(),
        format!("Implement [`{trait_name}`] (in `api.rs`) and serve it with [`router()`]:"),
        "authentication, parameter and body parsing, constraint checks, error bodies, rate-limit"
            .into(),
        "and deprecation headers are done before and after your methods run.".into(),
        String::new(),
        // `no_run`: a doc test that compiles (cargo test), so the example cannot rot.
        "```no_run".into(),
        format!("use {krate}::{{router, serve, {trait_name}, ServerConfig, StaticKeys}};"),
        String::new(),
        format!(
            "/// Serves `service`, your implementation of [`{trait_name}`], on 127.0.0.1:8080."
        ),
        format!("async fn run(service: impl {trait_name}) -> std::io::Result<()> {{"),
        "    // A key for subject `alice` on the document's default plan.".into(),
        "    let keys = StaticKeys::new().with_key(\"secret\", \"alice\", None);".into(),
    ];
    if api.rate_limit.is_some() {
        lines.push("    let config = ServerConfig::new()".into());
        lines.push("        .authenticator(keys)".into());
        lines.push(format!(
            "        .rate_limit_in_memory({krate}::rate_limit_policy()); // the document's x-rate-limit"
        ));
    } else {
        lines.push("    let config = ServerConfig::new().authenticator(keys);".into());
    }
    lines.extend([
        "    let app = router(std::sync::Arc::new(service), config.clone());".into(),
        "    let listener = tokio::net::TcpListener::bind(\"127.0.0.1:8080\").await?;".into(),
        "    // Runs until the future given last completes (here: never).".into(),
        "    serve(listener, app, &config, std::future::pending()).await".into(),
        "}".into(),
        "```".into(),
        String::new(),
        "`serve` applies the connection-level [`Limits`] (time to send the request head, connections".into(),
        "at once); `ServerConfig::limits` sets them and the size and body-time limits every server".into(),
        "gets. `axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())` works".into(),
        "too, without the connection-level ones.".into(),
    ]);
    if api.rate_limit.is_some() {
        lines.push(String::new());
        lines.push("Several instances share their limits and bans through Redis with the `redis` feature: `ServerConfig::new().rate_limit(RedisRateLimiter::for_policy(RedisStore::open(url, RedisOptions::default())?, &policy), policy)`.".into());
    }
    // What an implementation names in its signature for a body also offered as multipart.
    let or_multipart = api
        .operations
        .iter()
        .any(|op| {
            op.body
                .as_ref()
                .is_some_and(|b| b.multipart_alternative().is_some())
        })
        .then(|| {
            quote!(
                pub use runtime::body::OrMultipart;
            )
        });
    let policy_export = api.rate_limit.as_ref().map(|_| {
        quote!(
            pub use router::rate_limit_policy;
        )
    });
    let super::root::Root {
        head,
        runtime,
        webhooks,
        streams,
    } = super::root::parts(api, &lines, "apigen_server_runtime", vendored);
    quote! {
        #head
        pub mod api;
        pub mod document;
        #[cfg(feature = "mock")]
        pub mod mock;
        pub mod router;
        #runtime
        pub mod types;
        #webhooks

        pub use api::#trait_ident;
        pub use router::{router, test_server, BASE_PATH};
        #policy_export
        #or_multipart
        pub use runtime::auth::{Authenticator, Principal, StaticKeys};
        pub use runtime::context::RequestContext;
        pub use runtime::cors::{Cors, CorsError};
        pub use runtime::layer::ServerConfig;
        pub use runtime::limits::Limits;
        pub use runtime::problem::Problem;
        pub use runtime::ratelimit::{InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter};
        pub use runtime::serve::serve;
        pub use runtime::sunset::Clock;
        pub use runtime::testing::TestServer;
        #streams
        #[cfg(feature = "redis")]
        pub use runtime::redis_store::{RedisIdempotencyStore, RedisOptions, RedisRateLimiter, RedisStore, WhenUnavailable};
    }
}

/// The Rust type the implementation receives for a request body: the body's, or
/// `OrMultipart` of it when the document also offers it as `multipart/form-data`.
pub(super) fn request_body_type(b: &crate::ir::Body) -> TokenStream {
    let t = body_type(&b.kind);
    match b.multipart_alternative() {
        Some(_) => quote!(crate::runtime::body::OrMultipart<#t>),
        None => t,
    }
}

/// The Rust type of a body.
pub(super) fn body_type(kind: &BodyKind) -> TokenStream {
    match kind {
        BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. } => {
            rust_type(t, true)
        }
        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(Vec<u8>),
        BodyKind::Stream(s) => {
            let item = rust_type(&s.item, true);
            match s.format {
                StreamFormat::JsonLines => quote!(stream::JsonLines<#item>),
                StreamFormat::Events | StreamFormat::EventsText => {
                    quote!(stream::EventStream<#item>)
                }
            }
        }
    }
}

/// The type of an `in: querystring` argument: the form's type, or the query string as sent.
pub(super) fn query_string_type(q: &QueryString) -> TokenStream {
    let t = match &q.kind {
        QueryStringKind::Form(t) | QueryStringKind::Json(t) => rust_type(t, true),
        QueryStringKind::Raw => quote!(String),
    };
    if q.required { t } else { quote!(Option<#t>) }
}

/// Whether an answer of `op` is a stream (which is neither `Clone` nor `PartialEq`).
fn has_stream(op: &Operation) -> bool {
    op.responses
        .iter()
        .any(|r| matches!(r.body.as_ref().map(|b| &b.kind), Some(BodyKind::Stream(_))))
}

fn params_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Params", op.stem)
}

fn response_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Response", op.stem)
}

/// A parameter's field type: plain when required or when its default can be written as a
/// value of its type (the router then fills it in), else an `Option` (a `date-time` default,
/// a default on an alias).
fn param_type(api: &Api, p: &Param) -> TokenStream {
    let t = rust_type(&p.ty, true);
    if p.required || default_expr(api, p).is_some() {
        t
    } else {
        quote!(Option<#t>)
    }
}

pub fn api_rs(api: &Api) -> TokenStream {
    let trait_ident = trait_name(api);
    let mut items = Vec::new();
    for op in &api.operations {
        if op.params.is_empty() {
            // Passed even empty, so that the operation's first parameter adds a field
            // rather than an argument to the trait method (README, "Evolving the spec").
            let name = params_ident(op);
            let docs = doc(&[format!(
                "Parameters of `{}` (`{} {}`): none yet; one the document adds becomes a field.",
                op.id, op.method, op.path
            )]);
            items.push(quote! {
                #docs
                #[derive(Debug, Clone, Default, PartialEq)]
                pub struct #name {}
            });
        } else {
            let name = params_ident(op);
            let fields = op.params.iter().map(|p| {
                let rust = ident(&p.rust);
                let ty = param_type(api, p);
                let mut lines = p.doc.clone();
                let mut where_ = format!("{} parameter `{}`", location_text(p.location), p.wire);
                if let Some(d) = &p.default {
                    where_.push_str(&format!(", default `{d}`"));
                }
                if p.deprecated {
                    where_.push_str(", deprecated");
                }
                super::end_list(&mut lines);
                lines.push(format!("({where_})"));
                let docs = doc(&lines);
                quote!(#docs pub #rust: #ty,)
            });
            let docs = doc(&[format!(
                "Parameters of `{}` (`{} {}`), parsed and checked.",
                op.id, op.method, op.path
            )]);
            items.push(quote! {
                #docs
                #[derive(Debug, Clone, PartialEq)]
                pub struct #name { #(#fields)* }
            });
        }
        let name = response_ident(op);
        let variants = op.responses.iter().map(|r| {
            let v = ident(&r.variant);
            let docs = response_doc(r);
            let status = (!matches!(r.status, Status::Code(_))).then(|| quote!(http::StatusCode));
            let body = r.body.as_ref().map(|b| body_type(&b.kind));
            let headers = r.headers_type.as_ref().map(|h| {
                let h = ident(h);
                quote!(#h)
            });
            let fields: Vec<TokenStream> = [status, body, headers].into_iter().flatten().collect();
            if fields.is_empty() {
                quote!(#docs #v,)
            } else {
                quote!(#docs #v(#(#fields),*),)
            }
        });
        for r in &op.responses {
            if let Some(h) = &r.headers_type {
                items.push(headers_struct(op, r, h));
            }
        }
        let docs = doc(&[
            format!(
                "What `{}` answers: one variant per documented status, and [`{}`]({name}::{}) for an implementation without the operation.",
                op.id, op.unimplemented, op.unimplemented
            ),
            String::new(),
            "`non_exhaustive`: a status the document adds later is a new variant; code that".into(),
            "matches on this enum keeps compiling.".into(),
        ]);
        let unimplemented = ident(&op.unimplemented);
        // Bodies are held by value, as a person writes them; boxing the large one would
        // make every handler noisier for a move that happens once per request.
        let derives = if has_stream(op) {
            quote!(#[derive(Debug)])
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)])
        };
        items.push(quote! {
            #docs
            #derives
            #[allow(clippy::large_enum_variant)]
            #[non_exhaustive]
            pub enum #name {
                #(#variants)*
                /// 501 with the `Error` body (code `not_implemented`): what the trait's default
                /// method answers.
                #unimplemented,
            }
        });
    }
    let methods = api.operations.iter().map(|op| {
        let method = ident(&op.rust);
        let response = response_ident(op);
        let docs = operation_doc(op);
        let params = {
            let p = params_ident(op);
            Some(quote!(params: #p,))
        };
        let body = op.body.as_ref().map(|b| {
            let t = request_body_type(b);
            if b.required {
                quote!(body: #t,)
            } else {
                quote!(body: Option<#t>,)
            }
        });
        let query_string = op.query_string.as_ref().map(|q| {
            let name = ident(&q.rust);
            let t = query_string_type(q);
            quote!(#name: #t,)
        });
        let deprecated = op.deprecated.as_ref().map(|d| {
            let note = &d.note;
            quote!(#[deprecated(note = #note)])
        });
        let unimplemented = ident(&op.unimplemented);
        let unused: Vec<TokenStream> = [
            Some(quote!(ctx)),
            params.as_ref().map(|_| quote!(params)),
            op.query_string.as_ref().map(|q| {
                let name = ident(&q.rust);
                quote!(#name)
            }),
            body.as_ref().map(|_| quote!(body)),
        ]
        .into_iter()
        .flatten()
        .collect();
        let unused = if unused.len() == 1 {
            quote!(#(#unused)*)
        } else {
            quote!((#(#unused),*))
        };
        let allows = super::convention_allows(&method.to_string());
        quote! {
            #docs
            #deprecated
            #allows
            fn #method(
                &self,
                ctx: &RequestContext,
                #params
                #query_string
                #body
            ) -> impl Future<Output = Result<#response, Self::Error>> + Send {
                let _ = #unused;
                async { Ok(#response::#unimplemented) }
            }
        }
    });
    let mut methods: Vec<TokenStream> = methods.collect();
    let trait_docs = doc(&[
        format!(
            "{} {}: implement one method per operation.",
            api.title, api.version
        ),
        String::new(),
        "Each method receives the request context (principal, headers, extensions) and its".into(),
        "parsed, checked inputs; it returns the operation's response enum or your own error,"
            .into(),
        "which [`handle_error`](Self::handle_error) turns into a response.".into(),
        String::new(),
        "Every method has a default answering `501 Not Implemented` with the `Error` body, so an"
            .into(),
        "operation the document adds later does not break an implementation written before it"
            .into(),
        "(the price: the compiler does not point at an operation you forgot).".into(),
    ]);
    let intro = module_doc(&[format!(
        "The [`{trait_ident}`] trait and the inputs and responses of each operation."
    )]);
    let uses = super::imports(
        items.iter_mut().chain(methods.iter_mut()),
        &[
            ("crate::types", "types::"),
            ("crate::runtime::stream", "stream::"),
            ("std::future::Future", "Future"),
        ],
    );
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        #uses
        use crate::runtime::context::RequestContext;
        use crate::runtime::problem::Problem;

        #trait_docs
        pub trait #trait_ident: Send + Sync + 'static {
            /// Your error type; anything `Display` (e.g. `anyhow::Error`).
            type Error: std::fmt::Display + Send + 'static;

            #(#methods)*

            /// Turns an error of yours into the problem sent to the client. The default logs it
            /// and answers 500 with the `Error` body, without internals.
            fn handle_error(&self, ctx: &RequestContext, error: Self::Error) -> Problem {
                tracing::error!(operation = ctx.operation_id, %error, "handler failed");
                Problem::internal()
            }
        }

        #(#items)*
    }
}

/// The headers the implementation sets on one answer.
fn headers_struct(op: &Operation, r: &Response, name: &str) -> TokenStream {
    let name = ident(name);
    let fields = r.headers.iter().map(|h| {
        let rust = ident(&h.rust);
        let t = rust_type(&h.ty, true);
        let t = if h.required { t } else { quote!(Option<#t>) };
        let mut lines = h.doc.clone();
        lines.push(format!("(header `{}`)", h.wire));
        let docs = doc(&lines);
        quote!(#docs pub #rust: #t,)
    });
    let default = r
        .headers
        .iter()
        .all(|h| !h.required)
        .then(|| quote!(Default,));
    let docs = doc(&[format!(
        "Headers of the `{}` answer of `{}`.",
        status_text(r),
        op.id
    )]);
    quote! {
        #docs
        #[derive(Debug, Clone, #default PartialEq)]
        pub struct #name { #(#fields)* }
    }
}

/// `impl XHeaders { fn write(..) }`: each header as its text form; arrays comma-separated.
fn headers_write(r: &Response, name: &str) -> TokenStream {
    let name = ident(name);
    let writes = r.headers.iter().map(|h| {
        let rust = ident(&h.rust);
        let wire = &h.wire;
        let text = match &h.ty {
            TypeRef::Vec(_) => quote!(&value.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")),
            _ => quote!(&value.to_string()),
        };
        if h.required {
            quote!({ let value = &self.#rust; response::set_header(response, #wire, #text)?; })
        } else {
            quote!(if let Some(value) = &self.#rust { response::set_header(response, #wire, #text)?; })
        }
    });
    quote! {
        impl #name {
            fn write(&self, response: &mut Response) -> Result<(), Problem> {
                #(#writes)*
                Ok(())
            }
        }
    }
}

/// The default of a parameter as an expression of its type (enum defaults name a variant).
fn default_expr(api: &Api, p: &Param) -> Option<TokenStream> {
    let value = p.default.as_ref()?;
    if let (TypeRef::Named(n), serde_json::Value::String(wire)) = (&p.ty, value) {
        let def = api.types.iter().find(|t| &t.name == n)?;
        if let TypeKind::Enum(variants) = &def.kind {
            let v = variants.iter().find(|v| &v.wire == wire)?;
            let (t, v) = (ident(n), ident(&v.rust));
            return Some(quote!(types::#t::#v));
        }
        return None;
    }
    literal(value, &p.ty)
}

pub fn router_rs(api: &Api) -> TokenStream {
    let trait_ident = trait_name(api);
    let base_path = &api.base_path;
    let schemes = api.security_schemes.iter().map(|s| {
        let name = &s.name;
        let kind = scheme_kind(&s.kind);
        quote!(SecurityScheme { name: #name, kind: #kind },)
    });
    // One route per path shape (`lower/routes.rs`), in document order; the root path is
    // registered by the runtime, which also serves it with a trailing slash under a base path.
    let mut root = None;
    let mut routes = Vec::new();
    for route in &api.routes {
        let service = match &route.serve {
            RouteServe::Dispatch(d) => {
                let dispatch = ident(&d.rust);
                quote!(routing::any_service(layer::operation(&api, #dispatch::<A>)))
            }
            RouteServe::Methods(members) => {
                let mut chain = TokenStream::new();
                for (i, &index) in members.iter().enumerate() {
                    let op = &api.operations[index];
                    let method = format_ident!("{}_service", op.method.to_lowercase());
                    let handler = handler_ident(api, op);
                    let id = &op.id;
                    let service = quote!(layer::operation(&api, #handler::<A>).named(#id));
                    if i == 0 {
                        chain.extend(quote!(routing::#method(#service)));
                    } else {
                        chain.extend(quote!(.#method(#service)));
                    }
                }
                chain
            }
        };
        if route.pattern == "/" {
            root = Some(service);
        } else {
            let pattern = &route.pattern;
            routes.push(quote!(.route(&layer::route_path(&base, #pattern), #service)));
        }
    }
    let root = root.map(|service| quote!(let routes = layer::route_root(routes, &base, #service);));
    let patterns = api
        .operations
        .iter()
        .filter_map(|op| op.path_pattern.as_ref().map(|p| path_pattern(op, p)));
    // The prefix is resolved once and every route is registered with it, so no request goes
    // through axum's nesting (a second routing step and a rewritten URI); no routes, no `base`.
    let services_doc = (!api.routes.is_empty()).then(|| {
        doc(&[
            String::new(),
            "Each operation is registered as a service (`layer::operation`) rather than an axum"
                .into(),
            "handler, so its future is boxed once per request instead of inside a second box."
                .into(),
        ])
    });
    let base_decl = if api.routes.is_empty() {
        // Nothing to serve `api` with.
        quote!(let _ = api;)
    } else {
        quote!(let base = config.base_path_or(BASE_PATH);)
    };
    let document_errors =
        (!api.errors.is_default()).then(|| quote!(let config = config.document_errors(&ERRORS);));
    let error_consts = error_constants(api);
    let handlers = api
        .operations
        .iter()
        .map(|op| handler(api, op, &trait_ident));
    let conversions = api.operations.iter().map(response_conversion);
    let dispatchers = api.routes.iter().filter_map(|r| match &r.serve {
        RouteServe::Dispatch(d) => Some(dispatcher(api, &r.pattern, d, &trait_ident)),
        RouteServe::Methods(_) => None,
    });
    let policy = api.rate_limit.as_ref().map(|rl| {
        let plans = rl.plans.iter().map(|(name, (m, d))| {
            let (m, d) = (
                proc_macro2::Literal::u32_unsuffixed(*m),
                proc_macro2::Literal::u32_unsuffixed(*d),
            );
            quote!((#name.to_string(), Quota { per_minute: #m, per_day: #d }),)
        });
        let anonymous = &rl.anonymous;
        let default_plan = &rl.default_plan;
        let strikes = proc_macro2::Literal::u32_unsuffixed(rl.ban_strikes);
        let seconds = proc_macro2::Literal::u64_unsuffixed(rl.ban_seconds);
        quote! {
            /// The rate-limit policy the document states in `x-rate-limit`: plans, the plan of
            /// callers without a valid credential, and the ban rule.
            pub fn rate_limit_policy() -> RateLimitPolicy {
                RateLimitPolicy {
                    plans: [#(#plans)*].into_iter().collect(),
                    anonymous_plan: #anonymous.to_string(),
                    default_plan: #default_plan.to_string(),
                    ban_strikes: #strikes,
                    ban: std::time::Duration::from_secs(#seconds),
                }
            }
        }
    });
    let (cors_methods, cors_request, cors_response) = (
        &api.cors.methods,
        &api.cors.request_headers,
        &api.cors.response_headers,
    );
    let intro = module_doc(&[
        format!("HTTP routing for [`{trait_ident}`]: one handler per operation, and [`router`]."),
        String::new(),
        "Each handler checks the operation's security requirement before reading anything,".into(),
        "parses and checks every parameter and the body (all failures reported together in one"
            .into(),
        "400), calls the trait method, and serializes its answer before writing the status.".into(),
    ]);
    let mut body = quote! {
        /// The path prefix of the document's first server; every route lives under it unless
        /// `ServerConfig::base_path` says otherwise.
        pub const BASE_PATH: &str = #base_path;

        /// The document's security schemes, as the router-wide layer reads credentials.
        const SECURITY_SCHEMES: &[SecurityScheme] = &[#(#schemes)*];

        /// What the document lets a browser on another origin send and read, when
        /// `ServerConfig::cors` allows that origin: the runtime adds its own headers
        /// (`Authorization`, `Content-Type`, rate-limit, `Retry-After`, deprecation).
        const CORS: DocumentCors = DocumentCors {
            methods: &[#(#cors_methods),*],
            request_headers: &[#(#cors_request),*],
            response_headers: &[#(#cors_response),*],
        };

        /// Serves `api` over HTTP under [`BASE_PATH`] (or the configured base path). Unknown
        /// paths, and every path outside the base path, answer 404 and undeclared methods 405
        /// (with `Allow`), both with the problem body. With `ServerConfig::serve_document`,
        /// also the document it was generated from ([`crate::document::DOCUMENT`]).
        #services_doc
        pub fn router<A: #trait_ident>(api: Arc<A>, config: ServerConfig) -> axum::Router {
            let config = config.document(&crate::document::DOCUMENT);
            #document_errors
            #base_decl
            let routes = axum::Router::new()
                #(#routes)*;
            #root
            layer::finish_prefixed(routes, SECURITY_SCHEMES, BASE_PATH, &CORS, config)
        }

        /// Serves `api` on a free loopback port for as long as the returned [`TestServer`]
        /// lives: how a test fakes this API. Implement the operations the test needs with
        /// typed answers (the others answer 501) and build the client with
        /// [`TestServer::base_url`].
        pub async fn test_server<A: #trait_ident>(
            api: Arc<A>,
            config: ServerConfig,
        ) -> std::io::Result<TestServer> {
            let base = config.base_path_or(BASE_PATH);
            let app = router(api, config.clone());
            TestServer::start(app, &config, &base).await
        }

        #policy

        #error_consts
        #(#patterns)*
        #(#dispatchers)*
        #(#handlers)*
        #(#conversions)*
    };
    let uses = super::imports(
        [&mut body],
        &[
            ("crate::types", "types::"),
            ("crate::runtime::auth", "auth::"),
            ("crate::runtime::auth::SchemeKind", "SchemeKind"),
            ("crate::runtime::auth::SecurityScheme", "SecurityScheme"),
            ("crate::runtime::body", "body::"),
            ("crate::runtime::context::RequestContext", "RequestContext"),
            ("crate::runtime::testing::TestServer", "TestServer"),
            ("crate::runtime::cors::DocumentCors", "DocumentCors"),
            ("crate::runtime::idempotency", "idempotency::"),
            ("crate::runtime::layer", "layer::"),
            ("crate::runtime::layer::Runtime", "Runtime"),
            ("crate::runtime::layer::ServerConfig", "ServerConfig"),
            ("crate::runtime::params", "params::"),
            ("crate::runtime::params::Location", "Location"),
            ("crate::runtime::params::RawParams", "RawParams"),
            ("crate::runtime::params::ObjectQuery", "ObjectQuery::"),
            ("crate::runtime::params::PathParams", "PathParams"),
            ("crate::runtime::problem::Problem", "Problem"),
            ("crate::runtime::response", "response::"),
            ("crate::runtime::errors::ErrorBodies", "ErrorBodies"),
            ("crate::runtime::errors::ErrorBody", "ErrorBody"),
            ("crate::runtime::errors::StatusKey", "StatusKey::"),
            ("crate::runtime::route", "route::"),
            ("crate::runtime::route::PathPattern", "PathPattern"),
            ("crate::runtime::route::Piece", "Piece::"),
            ("crate::runtime::sunset::Retirement", "Retirement"),
            ("crate::runtime::stream", "stream::"),
            ("crate::runtime::validate", "validate::"),
            ("crate::runtime::validate::Validate", ".validate"),
            ("crate::runtime::validate::Violations", "Violations"),
            ("crate::runtime::ratelimit::Quota", "Quota"),
            (
                "crate::runtime::ratelimit::RateLimitPolicy",
                "RateLimitPolicy",
            ),
            ("axum::body::Body", "Body"),
            ("axum::extract::Request", "Request"),
            ("axum::response::Response", "Response"),
            ("axum::routing", "routing::"),
            ("http::StatusCode", "StatusCode"),
            ("std::sync::Arc", "Arc"),
        ],
    );
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        use crate::api::*;
        #uses

        #body
    }
}

/// The route handler of an operation: `handle_…` (and its body `serve_…`), prefixes that
/// keep them apart from each other, from `router` and from `router`'s locals whatever the
/// operation is called.
fn handler_ident(api: &Api, op: &Operation) -> proc_macro2::Ident {
    format_ident!("handle_{}", handler_stem(api, &op.rust))
}

/// What follows `handle_`/`serve_` (see [`crate::naming::handler_stem`]).
fn handler_stem(api: &Api, method: &str) -> String {
    crate::naming::handler_stem(method, api.operations.iter().map(|o| o.rust.as_str()))
}

fn handler(api: &Api, op: &Operation, trait_ident: &proc_macro2::Ident) -> TokenStream {
    let name = ident(&op.rust);
    let handle = handler_ident(api, op);
    let serve = format_ident!("serve_{}", handler_stem(api, &op.rust));
    let non_snake = handle
        .to_string()
        .contains("__")
        .then(|| quote!(#[allow(non_snake_case)]));
    let id = &op.id;
    let route_doc = doc(&[format!(
        "`{} {}`: see [`{trait_ident}::{}`].",
        op.method,
        op.path,
        crate::naming::bare(&op.rust)
    )]);
    let serve_doc = doc(&[
        format!(
            "Authorizes, reads and checks a `{}` request, then calls the implementation.",
            op.id
        ),
        String::new(),
        "A function returning an `async` block rather than an `async fn`: the future then holds"
            .to_owned(),
        "the request head once, not once more for the argument.".to_owned(),
    ]);
    let security = op.security.iter().map(|alt| quote!(&[#(#alt),*]));
    let headers = op.extra_headers.iter().map(|(k, v)| quote!((#k, #v)));
    let has_path = op.params.iter().any(|p| p.location == Location::Path);
    let reads_pattern = op.path_pattern.as_ref().filter(|p| !p.segments.is_empty());
    let raw = if op.params.is_empty() {
        quote!()
    } else if has_path {
        let path = match reads_pattern {
            Some(p) => {
                let name = format_ident!("{}", p.rust);
                quote!(route::path_params(&mut parts, &#name).await?)
            }
            None => quote!(params::path_params(&mut parts).await?),
        };
        quote! {
            let path = #path;
            let raw = RawParams::from_parts(&parts, path);
        }
    } else {
        quote!(let raw = RawParams::from_parts(&parts, PathParams::none());)
    };
    let params = if op.params.is_empty() {
        let ty = params_ident(op);
        Some(quote!(let params = #ty {};))
    } else {
        let ty = params_ident(op);
        let fields = op.params.iter().map(|p| {
            let rust = ident(&p.local);
            let wire = &p.wire;
            let loc = match p.location {
                Location::Path => quote!(Location::Path),
                Location::Query => quote!(Location::Query),
                Location::Header => quote!(Location::Header),
                Location::Cookie => quote!(Location::Cookie),
            };
            let explode = p.explode;
            let delimiter = p.delimiter;
            let object = p.object.as_ref().map(|style| match style {
                ObjectStyle::Members(names) => quote!(ObjectQuery::Members(&[#(#names),*])),
                ObjectStyle::Rest(names) => quote!(ObjectQuery::Rest(&[#(#names),*])),
                ObjectStyle::Joined => quote!(ObjectQuery::Joined),
                ObjectStyle::Deep => quote!(ObjectQuery::Deep),
            });
            let required = p.required;
            let read = match (&p.ty, p.required, &object) {
                (_, _, Some(style)) => {
                    quote!(raw.object(#wire, #style, #required, &mut errors))
                }
                (TypeRef::Vec(_), true, None) if delimiter != ',' => quote!(
                    raw.required_delimited_array(#loc, #wire, #explode, #delimiter, &mut errors)
                ),
                (TypeRef::Vec(_), false, None) if delimiter != ',' => {
                    quote!(raw.delimited_array(#loc, #wire, #explode, #delimiter, &mut errors))
                }
                (TypeRef::Vec(_), true, None) => {
                    quote!(raw.required_array(#loc, #wire, #explode, &mut errors))
                }
                (TypeRef::Vec(_), false, None) => {
                    quote!(raw.array(#loc, #wire, #explode, &mut errors))
                }
                (_, true, None) if p.as_sent => {
                    quote!(raw.required_cookie_as_sent(#wire, &mut errors))
                }
                (_, false, None) if p.as_sent => {
                    quote!(raw.optional_cookie_as_sent(#wire, &mut errors))
                }
                (_, true, None) => quote!(raw.required(#loc, #wire, &mut errors)),
                (_, false, None) => quote!(raw.optional(#loc, #wire, &mut errors)),
            };
            let t = rust_type(&p.ty, true);
            match (p.required, default_expr(api, p)) {
                (false, Some(d)) => quote!(let #rust: #t = #read.unwrap_or(#d);),
                _ => quote!(let #rust: Option<#t> = #read;),
            }
        });
        // Every parameter is read (and every failure collected) before the first return.
        let unwraps = op.params.iter().filter(|p| p.required).map(|p| {
            let rust = ident(&p.local);
            quote!(let Some(#rust) = #rust else { return Err(errors.into_problem()); };)
        });
        let names = op.params.iter().map(|p| {
            let (field, local) = (ident(&p.rust), ident(&p.local));
            if p.rust == p.local {
                quote!(#field)
            } else {
                quote!(#field: #local)
            }
        });
        let validated = validated_types(api);
        let checks = op.params.iter().filter_map(|p| {
            let mut checks =
                constraint_checks(&quote!(value), &quote!(at), &p.check_ty, &p.constraints);
            // A named type with checks of its own (nexus's `NameOrId`, whose `Name` has a
            // `maxLength` and a `pattern`) checks itself.
            if matches!(p.ty, TypeRef::Named(_))
                && super::types::contents_validated(&p.ty, &validated)
            {
                checks.extend(quote!(value.validate(at, out);));
            }
            if checks.is_empty() {
                return None;
            }
            let rust = ident(&p.local);
            let wire = &p.wire;
            let loc = location_text(p.location);
            let at = format!("{loc}/{wire}");
            let body = quote! {
                let at = #at;
                #checks
            };
            // Checked before any return, so one 400 lists every problem.
            Some(if !p.required && default_expr(api, p).is_some() {
                quote!({ let value = &#rust; #body })
            } else {
                quote!(if let Some(value) = &#rust { #body })
            })
        });
        let checks: Vec<TokenStream> = checks.collect();
        let out = (!checks.is_empty()).then(|| quote!(let out = &mut errors;));
        // In a block of its own: the raw values and the violations are gone before the body
        // is read and the implementation called, so the future does not carry them.
        Some(quote! {
            let params = {
                let mut errors = Violations::new();
                #raw
                #(#fields)*
                #out
                #(#checks)*
                #(#unwraps)*
                errors.check()?;
                #ty { #(#names),* }
            };
        })
    };
    let body = op.body.as_ref().map(|b| {
        let required = b.required;
        let read_as = |kind: &BodyKind| match kind {
            BodyKind::Json(t) => {
                let t = rust_type(t, true);
                quote!(body::read_json::<#t>(&parts, body, body_limit, #required).await?)
            }
            BodyKind::Form(t) => {
                let t = rust_type(t, true);
                quote!(body::read_form::<#t>(&parts, body, body_limit, #required).await?)
            }
            // Only ever an alternative, read apart from the others (see below). Of the same
            // schema as the typed body, its own constraints apply as well.
            BodyKind::Multipart { ty, same_schema } => {
                let own = same_schema.then_some((b.check_ty_of_value().0, &b.constraints));
                multipart_checked(api, ty, own, required, |raw| {
                    quote!(body::OrMultipart::Multipart(#raw))
                })
            }
            // `*/*`: any media type, read as the string the schema says (`text/*` otherwise).
            BodyKind::Text if b.content_type.trim() == "*/*" => quote! {
                body::read_text_of(&parts, body, body_limit, #required, "*/*").await?
            },
            BodyKind::Text => quote!(body::read_text(&parts, body, body_limit, #required).await?),
            BodyKind::Bytes | BodyKind::Stream(_) => match &b.checked_as {
                Some(form) => multipart_checked(api, form, None, required, |raw| raw),
                None => {
                    let ct = &b.content_type;
                    quote!(body::read_bytes(&parts, body, body_limit, #required, #ct).await?.map(|b| b.to_vec()))
                }
            },
        };
        let primary = read_as(&b.kind);
        // The request's Content-Type picks the reader; anything else gets the primary
        // reader's 415. A multipart alternative is read apart (see below).
        let mut chain = TokenStream::new();
        for (ct, kind) in &b.alternatives {
            if matches!(kind, BodyKind::Multipart { .. }) {
                continue;
            }
            let essence = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            let read = read_as(kind);
            chain.extend(quote!(if body::media_type_matches(&media, &[#essence]) { #read } else));
        }
        let media = quote!(let media = body::media_type(&parts).unwrap_or_default(););
        // Only bodies whose type holds a checked constraint are walked.
        let checked = match &b.kind {
            BodyKind::Json(t) | BodyKind::Form(t) => super::types::contents_validated(t, &validated_types(api)),
            _ => false,
        };
        let require = required.then(|| quote! {
            let Some(body) = body else {
                return Err(Problem::bad_request("the request body is required"));
            };
        });
        let mut kinds = b.alternatives.iter().map(|(_, kind)| kind);
        match kinds.find(|kind| matches!(kind, BodyKind::Multipart { .. })) {
            None => {
                let read = if chain.is_empty() {
                    primary
                } else {
                    quote!({ #media #chain { #primary } })
                };
                let validate = body_checks(b, checked, required);
                quote! {
                    let body = #read;
                    #require
                    #validate
                }
            }
            // Beside a JSON (or form) body, `multipart/form-data`: its parts checked as its
            // schema's type, its bytes passed on (`OrMultipart::Multipart`); the typed body
            // checked as it is alone (`OrMultipart::Typed`).
            Some(multipart) => {
                let multipart = read_as(multipart);
                let read = if chain.is_empty() {
                    primary
                } else {
                    quote!(#chain { #primary })
                };
                let validate = body_checks(b, checked, false);
                let essence = crate::ir::MULTIPART_FORM;
                quote! {
                    let body = {
                        #media
                        if body::media_type_matches(&media, &[#essence]) {
                            #multipart
                        } else {
                            let body = #read;
                            #validate
                            body.map(body::OrMultipart::Typed)
                        }
                    };
                    #require
                }
            }
        }
    });
    let query_string = op.query_string.as_ref().map(|q| {
        let name = ident(&q.rust);
        let required = q.required;
        let read = match &q.kind {
            QueryStringKind::Form(t) => {
                let t = rust_type(t, true);
                quote!(params::query_string_form::<#t>(&parts, #required)?)
            }
            QueryStringKind::Json(t) => {
                let t = rust_type(t, true);
                quote!(params::query_string_json::<#t>(&parts, #required)?)
            }
            QueryStringKind::Raw => quote!(params::query_string_raw(&parts)),
        };
        let read = match (&q.kind, required) {
            (QueryStringKind::Form(_) | QueryStringKind::Json(_), true) => quote! {
                let Some(#name) = #read else {
                    return Err(Problem::bad_request("the query string is required"));
                };
            },
            (QueryStringKind::Raw, true) => quote!(let #name = #read.unwrap_or_default();),
            (_, false) => quote!(let #name = #read;),
        };
        let checked = match &q.kind {
            QueryStringKind::Form(t) | QueryStringKind::Json(t) => {
                super::types::contents_validated(t, &validated_types(api))
            }
            QueryStringKind::Raw => false,
        };
        let validate = checked.then(|| {
            let walk = if required {
                quote!(#name.validate("", &mut errors);)
            } else {
                quote!(if let Some(value) = &#name { value.validate("", &mut errors); })
            };
            quote! {
                let mut errors = Violations::new();
                #walk
                errors.check()?;
            }
        });
        quote!(#read #validate)
    });
    let query_string_arg = op.query_string.as_ref().map(|q| {
        let name = ident(&q.rust);
        quote!(#name,)
    });
    let (body_arg, body_var) = match &op.body {
        Some(_) => (quote!(body,), quote!(body)),
        None => (quote!(), quote!(_body)),
    };
    let params_arg = quote!(params,);
    let call_allow = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
    // A request that does not ask for the switch gets 426 (a 101 without one answers nothing).
    let upgrade = op
        .switches_protocols()
        .then(|| quote!(crate::runtime::upgrade::require(&parts, "websocket")?;));
    let parts_mut = if has_path {
        quote!(mut parts)
    } else {
        quote!(parts)
    };
    // Past its sunset the operation is gone (410), before anything of the request is read.
    let retirement = op
        .deprecated
        .as_ref()
        .and_then(|d| d.sunset.as_ref().map(|s| (s, d.replacement.as_deref())))
        .map(|(s, replacement)| {
            let at = proc_macro2::Literal::u64_unsuffixed(s.at.max(0) as u64);
            let day = &s.day;
            let replacement = match replacement {
                Some(r) => quote!(Some(#r)),
                None => quote!(None),
            };
            quote! {
                const RETIREMENT: Retirement = Retirement {
                    operation: #id,
                    at: #at,
                    day: #day,
                    replacement: #replacement,
                };
            }
        });
    // Without Idempotency-Key the handler checks the sunset with the runtime it already holds
    // (`serve` is then never polled, so still before anything is read); with it, `serve` runs
    // inside the runtime's replay logic and checks it there, as the first step of the
    // operation.
    let (sunset, handle_sunset) = match (&retirement, op.idempotency_key) {
        (None, _) => (None, None),
        (Some(retirement), Some(_)) => (
            Some(quote! {
                #retirement
                Runtime::from_parts(&parts).check_sunset(&RETIREMENT)?;
            }),
            None,
        ),
        (Some(retirement), None) => (None, Some(retirement)),
    };
    let limit_arg = op.body.as_ref().map(|_| quote!(body_limit: usize,));
    let limit_pass = op.body.as_ref().map(|_| quote!(rt.body_limit(),));
    // Plain functions returning `async` blocks rather than `async fn`s: an `async fn`'s future
    // keeps its arguments besides what it moves them into, so the request head would be held
    // two or three times in the future axum boxes for every request.
    let handle_body = match op.idempotency_key {
        // The runtime stores and replays responses per Idempotency-Key around the handler.
        Some(key) => {
            let required = key.required;
            let limit = op
                .body
                .as_ref()
                .map(|_| quote!(let body_limit = rt.body_limit();));
            let limit_pass = op.body.as_ref().map(|_| quote!(body_limit,));
            quote! {
                let (parts, body) = request.into_parts();
                let rt = Runtime::from_parts(&parts);
                #limit
                idempotency::serve(rt, #id, #required, parts, body, &[#(#headers),*], move |parts, body| {
                    #serve(api, #limit_pass parts, body)
                })
            }
        }
        None => match handle_sunset {
            Some(retirement) => {
                let reply = match &op.errors {
                    Some((errors, _)) => {
                        let errors = format_ident!("{errors}");
                        quote!(rt.reply_to_checked_in(&#errors, sunset, serve, &[#(#headers),*]))
                    }
                    None => quote!(rt.reply_to_checked(sunset, serve, &[#(#headers),*])),
                };
                quote! {
                    #retirement
                    let (parts, body) = request.into_parts();
                    let rt = Runtime::from_parts(&parts);
                    let sunset = rt.check_sunset(&RETIREMENT);
                    let serve = #serve(api, #limit_pass parts, body);
                    #reply
                }
            }
            None => {
                // An operation whose error bodies are its own renders its problems with them.
                let reply = match &op.errors {
                    Some((errors, _)) => {
                        let errors = format_ident!("{errors}");
                        quote!(rt.reply_to_checked_in(&#errors, Ok(()), serve, &[#(#headers),*]))
                    }
                    None => quote!(rt.reply_to(serve, &[#(#headers),*])),
                };
                quote! {
                    let (parts, body) = request.into_parts();
                    let rt = Runtime::from_parts(&parts);
                    let serve = #serve(api, #limit_pass parts, body);
                    #reply
                }
            }
        },
    };
    quote! {
        #route_doc
        #non_snake
        fn #handle<A: #trait_ident>(
            api: Arc<A>,
            request: Request,
        ) -> impl Future<Output = Response> + Send {
            #handle_body
        }

        #serve_doc
        #[allow(clippy::manual_async_fn)]
        #non_snake
        fn #serve<A: #trait_ident>(
            api: Arc<A>,
            #limit_arg
            #parts_mut: http::request::Parts,
            #body_var: Body,
        ) -> impl Future<Output = Result<Response, Problem>> + Send {
            async move {
                #sunset
                let scheme = auth::authorize_scheme(parts.extensions.get(), &[#(#security),*])?;
                #params
                #query_string
                #body
                #upgrade
                let ctx = RequestContext::new(#id, scheme, parts);
                #call_allow
                // Called through the trait: an operation named like a method of `Arc` (`clone`)
                // would otherwise call that one.
                let outcome = A::#name(&api, &ctx, #params_arg #query_string_arg #body_arg).await;
                match outcome {
                    Ok(response) => response.into_http(),
                    Err(error) => Err(api.handle_error(&ctx, error)),
                }
            }
        }
    }
}

/// A route's dispatch function: it picks the path key the request is for (the first
/// candidate whose pattern it matches; none is a 404), then the handler by the method's name,
/// and answers other methods as every path does (405 with `Allow`).
fn dispatcher(
    api: &Api,
    pattern: &str,
    d: &Dispatcher,
    trait_ident: &proc_macro2::Ident,
) -> TokenStream {
    let name = ident(&d.rust);
    let by_method = |c: &crate::ir::Candidate| {
        let allow = &c.allow;
        let arms = c.methods.iter().map(|(method, handler)| {
            // The route's `Operation` is not named (several operations share it): the
            // chosen one names itself on the request's span and metrics.
            let id = api
                .operations
                .iter()
                .find(|op| &op.rust == handler)
                .map_or("", |op| op.id.as_str());
            let handler = format_ident!("handle_{}", handler_stem(api, handler));
            quote!(#method => layer::dispatched(#id, #handler::<A>(api, request)).await,)
        });
        quote! {
            match request.method().as_str() {
                #(#arms)*
                _ => layer::method_not_allowed(&request, #allow),
            }
        }
    };
    let keys = d
        .candidates
        .iter()
        .map(|c| {
            let methods = c
                .methods
                .iter()
                .map(|(m, _)| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let paths = c
                .paths
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ");
            format!("- {paths}: {methods}")
        })
        .collect::<Vec<_>>();
    let body = match d.candidates.as_slice() {
        // One key, every request on the route its: the method decides.
        [only] if only.pattern.is_none() => by_method(only),
        candidates => {
            let patterns = candidates.iter().map(|c| {
                let allow = &c.allow;
                match &c.pattern {
                    Some(p) => {
                        let p = format_ident!("{}", p);
                        quote!((&#p, #allow))
                    }
                    None => quote!((&PathPattern::ANY, #allow)),
                }
            });
            let arms = candidates.iter().enumerate().map(|(i, c)| {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                let body = by_method(c);
                quote!(Ok(Some(#i)) => #body,)
            });
            quote! {
                let (request, chosen) = route::select(request, &[#(#patterns),*]).await;
                match chosen {
                    #(#arms)*
                    Ok(_) => layer::refuse(&request, Problem::not_found()),
                    Err(problem) => layer::refuse(&request, problem),
                }
            }
        }
    };
    let docs = match d.candidates.as_slice() {
        [only] if only.pattern.is_none() => {
            let methods = only
                .methods
                .iter()
                .map(|(m, _)| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            doc(&[format!(
                "`{pattern}`: {methods}, dispatched by method name (axum's method filter cannot name them all)."
            )])
        }
        _ => {
            let mut lines = vec![
                format!(
                    "`{pattern}`: the path keys it serves, tried in this order, then the method:"
                ),
                String::new(),
            ];
            lines.extend(keys);
            doc(&lines)
        }
    };
    quote! {
        #docs
        async fn #name<A: #trait_ident>(api: Arc<A>, request: Request) -> Response {
            #body
        }
    }
}

/// The document's error bodies (`ERROR_BODY_n`), its table (`ERRORS`) and the tables of the
/// operations that describe other bodies (`ERRORS_…`).
fn error_constants(api: &Api) -> TokenStream {
    let key = |status: &Status| match status {
        Status::Code(c) => {
            let c = proc_macro2::Literal::u16_unsuffixed(*c);
            quote!(StatusKey::Code(#c))
        }
        Status::Range(r) => {
            let r = proc_macro2::Literal::u8_unsuffixed(*r);
            quote!(StatusKey::Class(#r))
        }
        Status::Default => quote!(StatusKey::Default),
    };
    let table = |t: &crate::ir::ErrorTable| {
        let invalid = proc_macro2::Literal::u16_unsuffixed(t.invalid);
        let entries = t.bodies.iter().map(|(status, index)| {
            let key = key(status);
            match index {
                Some(index) => {
                    let body = format_ident!("{}", api.error_bodies[*index].rust);
                    quote!((#key, &#body))
                }
                None => quote!((#key, &ErrorBody::DEFAULT)),
            }
        });
        quote!(ErrorBodies { invalid: #invalid, bodies: &[#(#entries),*] })
    };
    let bodies = api.error_bodies.iter().map(|b| {
        let name = format_ident!("{}", b.rust);
        let template = super::json_literal(&b.template);
        let (code, message, status) = (&b.code, &b.message, &b.status);
        let content_type = &b.content_type;
        let docs = doc(&[format!(
            "A shape of the document's error answers{}: problems are written in it.",
            if b.origin.is_empty() {
                String::new()
            } else {
                format!(" (`{}`)", b.origin)
            }
        )]);
        quote! {
            #docs
            const #name: ErrorBody = ErrorBody {
                template: #template,
                code: &[#(#code),*],
                message: &[#(#message),*],
                status: &[#(#status),*],
                content_type: #content_type,
            };
        }
    });
    let document = (!api.errors.is_default()).then(|| {
        let t = table(&api.errors);
        quote! {
            /// The document's error answers by status: what every problem of the router is
            /// written as (unless `ServerConfig::render_problem` says otherwise).
            const ERRORS: ErrorBodies = #t;
        }
    });
    let operations = api.operations.iter().filter_map(|op| {
        let (name, entries) = op.errors.as_ref()?;
        let name = format_ident!("{name}");
        let t = table(entries);
        let docs = doc(&[format!(
            "The error answers `{}` describes, where they differ from the document's.",
            op.id
        )]);
        Some(quote! {
            #docs
            const #name: ErrorBodies = #t;
        })
    });
    quote! {
        #(#bodies)*
        #document
        #(#operations)*
    }
}

/// An operation's `PathPattern` constant: the captures it reads otherwise than by name, and
/// the query its key requires.
fn path_pattern(op: &Operation, p: &PathPattern) -> TokenStream {
    let name = format_ident!("{}", p.rust);
    let segments = p.segments.iter().map(|(capture, pieces)| {
        let pieces = pieces.iter().map(|piece| match piece {
            PathPiece::Text(t) => quote!(Piece::Text(#t)),
            PathPiece::Param(n) => quote!(Piece::Param(#n)),
        });
        quote!((#capture, &[#(#pieces),*]))
    });
    let query = p.query.iter().map(|(k, v)| quote!((#k, #v)));
    let docs = doc(&[format!(
        "How `{}` (`{} {}`) reads a request on its route.",
        op.id, op.method, op.path
    )]);
    quote! {
        #docs
        const #name: PathPattern = PathPattern {
            segments: &[#(#segments),*],
            query: &[#(#query),*],
        };
    }
}

/// `StatusCode::NOT_FOUND` for a code http names, else a checked `from_u16`.
pub fn status_const(code: u16) -> TokenStream {
    match crate::naming::status_const(code) {
        Some(name) => {
            let name = format_ident!("{}", name);
            quote!(StatusCode::#name)
        }
        None => quote!(StatusCode::from_u16(#code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)),
    }
}

/// The named types that carry checks (`TypeDef::validated`).
pub(super) fn validated_types(api: &Api) -> std::collections::BTreeSet<String> {
    api.types
        .iter()
        .filter(|t| t.validated)
        .map(|t| t.name.clone())
        .collect()
}

/// `impl XResponse { fn into_http(self) }`: serializes the body first, then the status.
fn response_conversion(op: &Operation) -> TokenStream {
    let name = response_ident(op);
    let arms = op.responses.iter().map(|r| {
        let v = ident(&r.variant);
        let status = match &r.status {
            Status::Code(c) => status_const(*c),
            _ => quote!(status),
        };
        let own_json = r.body.as_ref().and_then(|b| b.own_json_media_type());
        let write = match r.body.as_ref().map(|b| (&b.kind, b.content_type.as_str())) {
            Some((BodyKind::Json(_), _)) if own_json.is_some() => {
                quote!(response::json_as(#status, #own_json, &body))
            }
            Some((BodyKind::Json(_) | BodyKind::Form(_) | BodyKind::Multipart { .. }, _)) => {
                quote!(response::json(#status, &body))
            }
            Some((BodyKind::Text, ct)) => quote!(Ok(response::text(#status, #ct, body))),
            Some((BodyKind::Bytes, ct)) => quote!(Ok(response::bytes(#status, #ct, body.into()))),
            Some((BodyKind::Stream(s), ct)) => match s.format {
                StreamFormat::Events => quote!(Ok(stream::event_stream(#status, body))),
                StreamFormat::EventsText => quote!(Ok(stream::event_stream_text(#status, body))),
                StreamFormat::JsonLines => quote!(Ok(stream::json_lines(#status, #ct, body))),
            },
            None => quote!(Ok(response::empty(#status))),
        };
        let status_bind = (!matches!(r.status, Status::Code(_))).then(|| quote!(status));
        let body_bind = r.body.as_ref().map(|_| quote!(body));
        let headers_bind = r.headers_type.as_ref().map(|_| quote!(headers));
        let binds: Vec<TokenStream> = [status_bind, body_bind, headers_bind]
            .into_iter()
            .flatten()
            .collect();
        let pattern = if binds.is_empty() {
            quote!(Self::#v)
        } else {
            quote!(Self::#v(#(#binds),*))
        };
        if r.headers_type.is_some() {
            quote!(#pattern => {
                let mut response = #write?;
                headers.write(&mut response)?;
                Ok(response)
            })
        } else {
            quote!(#pattern => #write,)
        }
    });
    let writers = op
        .responses
        .iter()
        .filter_map(|r| r.headers_type.as_ref().map(|h| headers_write(r, h)));
    let unimplemented = ident(&op.unimplemented);
    let id = &op.id;
    quote! {
        impl #name {
            fn into_http(self) -> Result<Response, Problem> {
                match self {
                    #(#arms)*
                    Self::#unimplemented => Err(Problem::not_implemented(#id)),
                }
            }
        }
        #(#writers)*
    }
}

/// Reads a `multipart/form-data` body that the implementation gets as its bytes: its parts
/// decoded into the schema's type `form` and checked, then passed on as sent.
/// The checks of a typed request body named `body` (a `T` when `present`, else an
/// `Option<T>`): the body schema's own constraints (a whole array's `maxItems`, a map's
/// `maxProperties`, each item's pattern) where it holds a value, then the checks its types
/// carry (`checked`). Nothing when there are none.
fn body_checks(b: &crate::ir::Body, checked: bool, present: bool) -> Option<TokenStream> {
    let (own_ty, nullable) = b.check_ty_of_value();
    let own = constraint_checks(&quote!(value), &quote!("body"), own_ty, &b.constraints);
    let own = (!own.is_empty()).then(|| {
        // Each layer that may be absent or `null` is looked into in turn.
        let mut inner = quote!({ let out = &mut errors; #own });
        if nullable {
            inner = quote!({ if let Some(value) = value #inner });
        }
        if !present {
            inner = quote!({ if let Some(value) = value #inner });
        }
        quote! {
            let value = &body;
            #inner
        }
    });
    let walk = checked.then(|| quote!(body.validate("", &mut errors);));
    (own.is_some() || checked).then(|| {
        quote! {
            let mut errors = Violations::new();
            #own
            #walk
            errors.check()?;
        }
    })
}

/// Reads a multipart body as its parts decoded into `form` (checked when its type has checks)
/// and the bytes: `Some(wrap(raw))`, `None` without a body.
fn multipart_checked(
    api: &Api,
    form: &TypeRef,
    own: Option<(&TypeRef, &crate::ir::Constraints)>,
    required: bool,
    wrap: impl FnOnce(TokenStream) -> TokenStream,
) -> TokenStream {
    let t = rust_type(form, true);
    let read = quote!(body::read_multipart_as::<#t>(&parts, body, body_limit, #required).await?);
    let raw = wrap(quote!(raw));
    // The schema's own constraints (a map's `maxProperties`, each value's `maxLength`), as
    // for the same body sent as JSON.
    let own = own
        .map(|(ty, c)| constraint_checks(&quote!(value), &quote!("body"), ty, c))
        .filter(|checks| !checks.is_empty())
        .map(|checks| quote!({ let value = &form; let out = &mut errors; #checks }));
    let walk = super::types::contents_validated(form, &validated_types(api))
        .then(|| quote!(form.validate("", &mut errors);));
    if own.is_some() || walk.is_some() {
        quote! {
            match #read {
                Some((form, raw)) => {
                    let mut errors = Violations::new();
                    #own
                    #walk
                    errors.check()?;
                    Some(#raw)
                }
                None => None,
            }
        }
    } else {
        quote!(#read.map(|(_form, raw)| #raw))
    }
}
