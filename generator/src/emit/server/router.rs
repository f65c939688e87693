//! Prints `router.rs`: `router()` with its routes (shared shapes dispatched by what each
//! operation requires), the error constants and the path patterns the handlers match.

use super::*;

pub fn router_rs(api: &Api) -> TokenStream {
    let trait_ident = trait_name(api);
    let base_path = &api.base_path;
    let schemes = api.security_schemes.iter().map(|s| {
        let name = &s.name;
        let kind = scheme_kind(&s.kind);
        quote!(SecurityScheme { name: #name, kind: #kind },)
    });
    let table = route_table(api, &trait_ident);
    let routes = if table.is_some() {
        quote!(let routes = route_table(&api, &base);)
    } else {
        quote!(let routes = axum::Router::new();)
    };
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
    // A tag's handlers in one module under its feature, seen by `router` through its `use`.
    // An operation its route line serves with a runtime entry has no function (and a tag
    // whose operations all are, no module).
    let handlers = crate::emit::gates::modules(
        crate::emit::gates::grouped(
            api.operations
                .iter()
                .enumerate()
                .filter(|&(i, _)| !routed_by_entry(api, i))
                .map(|(i, op)| {
                    let features = api.features.of_operation(i);
                    let vis = crate::emit::gates::module_vis(features);
                    (features, handler(api, op, &trait_ident, vis))
                }),
        ),
        quote!(),
    );
    let allowances = crate::emit::gates::allowances_with_variables(&api.features.features);
    let dispatchers = api.routes.iter().filter_map(|r| match &r.serve {
        RouteServe::Dispatch(d) => Some(crate::emit::gates::items(
            dispatcher(api, &r.pattern, d, &trait_ident),
            route_features(api, &r.serve).as_deref(),
        )),
        RouteServe::Methods(_) => None,
    });
    let policy = api.rate_limit.as_ref().map(rate_limit_policy);
    let (cors_methods, cors_request, cors_response) = (
        &api.cors.methods,
        &api.cors.request_headers,
        &api.cors.response_headers,
    );
    let intro = module_doc(&[
        format!("HTTP routing for [`{trait_ident}`]: [`router`] and its route table, a line per"),
        "operation, whose handler is the runtime's entry (`layer::call`) or, for an operation"
            .into(),
        "that needs more, a function here.".into(),
        String::new(),
        "Each handler checks the operation's security requirement before reading anything,".into(),
        "parses and checks every parameter and the body (all failures reported together in one"
            .into(),
        "400), calls the trait method, and serializes its answer before writing the status.".into(),
        String::new(),
        "A `serve_…` function returns an `async` block rather than being an `async fn`: the".into(),
        "future then holds the request head once, not once more for the argument.".into(),
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
            #routes
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

        #table

        #policy

        #error_consts
        #(#patterns)*
        #(#dispatchers)*
        #handlers
    };
    let uses = crate::emit::imports([&mut body], ROUTER_IMPORTS);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        // The `serve_…` functions return `async` blocks on purpose (the module docs say why).
        #![allow(clippy::manual_async_fn)]
        #allowances
        #intro
        use crate::api::*;
        #uses

        #body
    }
}

/// The route table (`routes::table!`): a line per operation of a path axum routes by method,
/// its handler the runtime entry that serves it (`get("/pets", call(A::list_pets,
/// "listPets", &[…]));`) or, when it needs more, its function (`post("/pets",
/// handle_create_pet, "createPet");`), and a line per path shape several path keys share
/// (`any("/…", dispatch_…);`). Lines are grouped by the features that compile them (a group
/// a `#[cfg]`, in the order the document first names each), in document order within a
/// group. `None` when the document has no routes. The runtime registers each line; axum
/// merges a path's methods into one method router.
fn route_table(api: &Api, trait_ident: &syn::Ident) -> Option<TokenStream> {
    if api.routes.is_empty() {
        return None;
    }
    // (the group's features, its lines)
    let mut groups: Vec<(Option<Vec<String>>, Vec<TokenStream>)> = Vec::new();
    let mut push = |features: Option<Vec<String>>, line: TokenStream| match groups
        .iter_mut()
        .find(|(f, _)| *f == features)
    {
        Some((_, lines)) => lines.push(line),
        None => groups.push((features, vec![line])),
    };
    let mut deprecated = false;
    for route in &api.routes {
        let pattern = &route.pattern;
        match &route.serve {
            RouteServe::Dispatch(d) => {
                let dispatch = ident(&d.rust);
                push(
                    route_features(api, &route.serve),
                    quote!(any(#pattern, #dispatch);),
                );
            }
            RouteServe::Methods(members) => {
                for &index in members {
                    let op = &api.operations[index];
                    let features = api.features.of_operation(index).map(<[String]>::to_vec);
                    let method = format_ident!("{}", op.method.to_lowercase());
                    let line = match handler::declared_entry(api, op) {
                        Some((entry, _)) => {
                            deprecated |= op.deprecated.is_some();
                            quote!(#method(#pattern, #entry);)
                        }
                        None => {
                            let handler = handler_ident(api, op);
                            let id = &op.id;
                            quote!(#method(#pattern, #handler, #id);)
                        }
                    };
                    push(features, line);
                }
            }
        }
    }
    let groups = groups.iter().map(|(features, lines)| {
        let cfg = crate::emit::gates::cfg(features.as_deref());
        quote!(#cfg { #(#lines)* })
    });
    // A deprecated operation's trait method is called where its route is.
    let allow = deprecated.then(|| quote!(#[allow(deprecated)]));
    Some(quote! {
        routes::table! {
            /// Every operation's route under `base`, named by its operation id (each
            /// request's span and metrics carry it). A line's handler is the runtime entry
            /// that authorizes and reads the request, then calls the implementation, or the
            /// operation's own function where it needs more.
            #allow
            fn route_table<A: #trait_ident>(api: &Arc<A>, base: &str) -> axum::Router {
                #(#groups)*
            }
        }
    })
}

/// Whether operation `index` is served by the runtime entry its route line names (see
/// [`route_table`]), so that it has no handler function: a path axum routes by method, and
/// an operation with nothing but declared parameters and perhaps a JSON body to read.
fn routed_by_entry(api: &Api, index: usize) -> bool {
    let by_method = api.routes.iter().any(|r| match &r.serve {
        RouteServe::Methods(members) => members.contains(&index),
        RouteServe::Dispatch(_) => false,
    });
    by_method && handler::declared_entry(api, &api.operations[index]).is_some()
}

/// The features any of which compiles a route: those of its operations together; `None`
/// when one of them always compiles (or the crate has no features).
fn route_features(api: &Api, serve: &RouteServe) -> Option<Vec<String>> {
    let members: Vec<usize> = match serve {
        RouteServe::Methods(members) => members.clone(),
        RouteServe::Dispatch(d) => d
            .candidates
            .iter()
            .flat_map(|c| c.methods.iter().map(|&(_, operation)| operation))
            .collect(),
    };
    let mut features: Vec<String> = Vec::new();
    for i in members {
        for feature in api.features.of_operation(i)? {
            if !features.contains(feature) {
                features.push(feature.clone());
            }
        }
    }
    (!features.is_empty()).then_some(features)
}

/// `rate_limit_policy()`: the plans, the plan of callers without a valid credential and the
/// ban rule the document states in `x-rate-limit`.
fn rate_limit_policy(rl: &crate::ir::RateLimitPolicy) -> TokenStream {
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
}

/// The paths `router.rs` uses, each imported only when the printed code names it.
const ROUTER_IMPORTS: &[(&str, &str)] = &[
    ("crate::types", "types::"),
    ("crate::runtime::codegen::auth", "auth::"),
    ("crate::runtime::codegen::auth::SchemeKind", "SchemeKind"),
    (
        "crate::runtime::codegen::auth::SecurityScheme",
        "SecurityScheme",
    ),
    ("crate::runtime::codegen::body", "body::"),
    (
        "crate::runtime::codegen::context::RequestContext",
        "RequestContext",
    ),
    ("crate::runtime::codegen::testing::TestServer", "TestServer"),
    (
        "crate::runtime::codegen::cors::DocumentCors",
        "DocumentCors",
    ),
    ("crate::runtime::codegen::idempotency", "idempotency::"),
    ("crate::runtime::codegen::layer", "layer::"),
    ("crate::runtime::codegen::layer::Runtime", "Runtime"),
    (
        "crate::runtime::codegen::layer::ServerConfig",
        "ServerConfig",
    ),
    ("crate::runtime::codegen::params", "params::"),
    ("crate::runtime::codegen::params::Location", "Location"),
    ("crate::runtime::codegen::params::RawParams", "RawParams"),
    (
        "crate::runtime::codegen::params::ObjectQuery",
        "ObjectQuery::",
    ),
    ("crate::runtime::codegen::params::Style", "Style::"),
    ("crate::runtime::codegen::params::PathParams", "PathParams"),
    ("crate::runtime::codegen::problem::Problem", "Problem"),
    ("crate::runtime::codegen::response", "response::"),
    (
        "crate::runtime::codegen::errors::ErrorBodies",
        "ErrorBodies",
    ),
    ("crate::runtime::codegen::errors::ErrorBody", "ErrorBody"),
    ("crate::runtime::codegen::errors::StatusKey", "StatusKey::"),
    ("crate::runtime::codegen::route", "route::"),
    ("crate::runtime::codegen::routes", "routes::"),
    ("crate::runtime::codegen::schema::Held", "Held::"),
    ("crate::runtime::codegen::route::PathPattern", "PathPattern"),
    ("crate::runtime::codegen::route::Piece", "Piece::"),
    ("crate::runtime::codegen::sunset::Retirement", "Retirement"),
    ("crate::runtime::codegen::stream", "stream::"),
    ("crate::runtime::codegen::validate", "validate::"),
    ("crate::runtime::codegen::validate::Validate", ".validate"),
    (
        "crate::runtime::codegen::validate::Violations",
        "Violations",
    ),
    ("crate::runtime::codegen::ratelimit::Quota", "Quota"),
    (
        "crate::runtime::codegen::ratelimit::RateLimitPolicy",
        "RateLimitPolicy",
    ),
    ("axum::body::Body", "Body"),
    ("axum::extract::Request", "Request"),
    ("axum::response::Response", "Response"),
    ("axum::routing", "routing::"),
    ("http::StatusCode", "StatusCode"),
    ("std::sync::Arc", "Arc"),
];

/// A route's dispatch function: it picks the path key the request is for (the first
/// candidate whose pattern it matches; none is a 404), then the handler by the method's name,
/// and answers other methods as every path does (405 with `Allow`).
pub(super) fn dispatcher(
    api: &Api,
    pattern: &str,
    d: &Dispatcher,
    trait_ident: &proc_macro2::Ident,
) -> TokenStream {
    let name = ident(&d.rust);
    let by_method = |c: &crate::ir::Candidate| {
        let allow = &c.allow;
        let arms = c.methods.iter().map(|&(ref method, operation)| {
            // The route's `Operation` is not named (several operations share it): the
            // chosen one names itself on the request's span and metrics.
            let op = &api.operations[operation];
            let id = op.id.as_str();
            let cfg = crate::emit::gates::cfg(api.features.of_operation(operation));
            let handler = format_ident!("handle_{}", handler_stem(api, &op.rust));
            quote!(#cfg #method => layer::dispatched(#id, #handler::<A>(api, request)).await,)
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
pub(super) fn error_constants(api: &Api) -> TokenStream {
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
        let template = crate::emit::json_literal(&b.template);
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
pub(super) fn path_pattern(op: &Operation, p: &PathPattern) -> TokenStream {
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

/// The route handler of an operation: `handle_…` (and its body `serve_…`), prefixes that
/// keep them apart from each other, from `router` and from `router`'s locals whatever the
/// operation is called.
pub(super) fn handler_ident(api: &Api, op: &Operation) -> proc_macro2::Ident {
    format_ident!("handle_{}", handler_stem(api, &op.rust))
}

/// What follows `handle_`/`serve_` (see [`crate::naming::handler_stem`]).
pub(super) fn handler_stem(api: &Api, method: &str) -> String {
    crate::naming::handler_stem(method, api.operations.iter().map(|o| o.rust.as_str()))
}
