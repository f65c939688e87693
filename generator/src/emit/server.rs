//! Prints the server crate: `lib.rs` (docs and re-exports), `api.rs` (the trait, parameter
//! structs, response enums) and `router.rs` (one handler per operation and `router()`).

use super::types::constraint_checks;
use super::{
    doc, ident, literal, location_text, module_doc, operation_doc, response_doc, rust_type,
    scheme_kind, status_text,
};
use crate::ir::{
    Api, BodyKind, Dispatcher, Location, ObjectStyle, Operation, Param, PathPattern, PathPiece,
    QueryString, QueryStringKind, Response, RouteServe, Status, StreamFormat, Style, TypeKind,
    TypeRef,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod api;
mod handler;
mod router;

pub use api::api_rs;
use api::default_expr;
use handler::handler;
pub use router::router_rs;
use router::{handler_ident, handler_stem};

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
        lines.push("        // The document's x-rate-limit, counted in this process.".into());
        lines.push(format!(
            "        .rate_limit_in_memory({krate}::rate_limit_policy());"
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
        lines.push(
            "Several instances share their limits and bans through Redis (the `redis` feature): \
             give `ServerConfig::rate_limit` the policy and the limiter \
             `RedisRateLimiter::for_policy(store, &policy)`, its store from \
             `RedisStore::open(url, RedisOptions::default())?`."
                .into(),
        );
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
    let operations = super::root::operation_pages(
        api,
        &trait_name,
        &format!("[`{trait_name}`] methods that serve them"),
    );
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
        #operations

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
        /// Re-exported so implementations can build the types' free-form JSON values without
        /// their own dependency.
        pub use serde_json;
        /// Re-exported so implementations can name statuses and headers (a range's or
        /// `default`'s answer holds its `StatusCode`) without their own dependency.
        pub use http;
        #[cfg(feature = "redis")]
        pub use runtime::redis_store::{RedisIdempotencyStore, RedisOptions, RedisRateLimiter, RedisStore, WhenUnavailable};
    }
}

/// The Rust type the implementation receives for a request body: the body's, or
/// `OrMultipart` of it when the document also offers it as `multipart/form-data` (named by
/// the crate's root, which re-exports it then, as an implementation names it).
pub(crate) fn request_body_type(b: &crate::ir::Body) -> TokenStream {
    let t = body_type(&b.kind);
    match b.multipart_alternative() {
        Some(_) => quote!(crate::OrMultipart<#t>),
        None => t,
    }
}

/// The Rust type of a body.
pub(crate) fn body_type(kind: &BodyKind) -> TokenStream {
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
pub(crate) fn query_string_type(q: &QueryString) -> TokenStream {
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

pub(crate) fn params_ident(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Params", op.stem)
}

pub(crate) fn response_ident(op: &Operation) -> proc_macro2::Ident {
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

/// The named types that carry checks (`TypeDef::validated`).
pub(super) fn validated_types(api: &Api) -> std::collections::BTreeSet<String> {
    api.types
        .iter()
        .filter(|t| t.validated)
        .map(|t| t.name.clone())
        .collect()
}
