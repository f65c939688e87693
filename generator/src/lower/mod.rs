//! OpenAPI document → IR. Every decision lives here or in the submodules; emitters only print.

pub mod cli;
mod errors;
pub(crate) mod extensions;
pub mod features;
pub mod held;
mod mock;
mod operation;
mod pagination;
mod routes;
pub mod schema;
pub mod select;
mod undocumented;

use crate::diag::{Sink, push};
use crate::ir::{Api, BodyKind, Cors, Location, Operation, SchemeKind, SecurityScheme, Server};
use crate::load;
use crate::naming::{self, Scope, reserved};
use openapiv3::{APIKeyLocation, OpenAPI};
use schema::{
    Schemas, box_cycles, doc_lines, mark_scalar_one_ofs, mark_validated, nominal_alias_cycles,
    refuse_in_place_cycles, resolve_check_types, share_equal_enums, union_variant_facts,
};

/// Lowers a parsed document with the default options; problems go to `sink`.
pub fn lower(doc: &OpenAPI, sink: &mut Sink) -> Api {
    lower_with(doc, &crate::options::Options::default(), sink)
}

/// Lowers a parsed document; problems go to `sink` (errors stop generation afterwards).
/// Of `options`, `string_formats` (formats such as `uuid` stay `String`) and `api_name` (the
/// trait's name) decide here.
pub fn lower_with(doc: &OpenAPI, options: &crate::options::Options, sink: &mut Sink) -> Api {
    let mut schemas = Schemas::new(doc);
    schemas.string_formats = options.string_formats;
    schemas.lower_components(sink);
    let security_schemes = security_schemes(doc, sink);
    let base_path = doc
        .servers
        .first()
        .map(|s| base_path(&s.url, s.variables.as_ref()))
        .unwrap_or_default();
    let mut operations =
        operation::lower_all(doc, &mut schemas, &security_schemes, &base_path, sink);
    let webhooks = operation::lower_webhooks(doc, &mut schemas, sink);
    let routes = routes::plan(&mut operations, sink);
    let mut types = schemas.types;
    share_equal_enums(&mut types);
    nominal_alias_cycles(&mut types);
    box_cycles(&mut types);
    let mut params = Vec::new();
    let mut bodies = Vec::new();
    for op in &mut operations {
        params.extend(op.params.iter_mut());
        bodies.extend(op.body.as_mut());
    }
    resolve_check_types(&mut types, &mut params, &mut bodies);
    mark_validated(&mut types);
    mark_scalar_one_ofs(&mut types);
    union_variant_facts(&mut types);
    refuse_in_place_cycles(&types, sink);
    mock::plan(&mut operations, &types);
    let (error_bodies, errors) = errors::plan(&mut operations, &types);
    undocumented::plan(&mut operations);
    let api_name = naming::api_stem(&doc.info.title, options.api_name.as_deref());
    let cors = cors(&operations, &security_schemes);
    let streams = operations.iter().any(|op| {
        op.responses
            .iter()
            .any(|r| matches!(r.body.as_ref().map(|b| &b.kind), Some(BodyKind::Stream(_))))
    });
    Api {
        title: doc.info.title.clone(),
        version: doc.info.version.clone(),
        description: doc.info.description.clone(),
        base_path,
        servers: servers(doc),
        api_name,
        types,
        operations,
        security_schemes,
        rate_limit: extensions::rate_limit(&doc.extensions, sink),
        cors,
        routes,
        error_bodies,
        errors,
        webhooks,
        streams,
        features: Default::default(),
    }
}

/// The document's part of the CORS rules: every method, every header a client may send
/// (header parameters, header API keys) and every response header declared, so a browser
/// script may send and read all of them. An `Idempotency-Key` parameter is lowered out of
/// `params` (the runtimes handle it), so it is added here, with the `Idempotent-Replayed`
/// header the server runtime writes on a replay: without them a browser's preflight refuses
/// every call of such an operation. An event stream's `Last-Event-ID`, which the client
/// sends when it resumes one, likewise.
fn cors(operations: &[Operation], schemes: &[SecurityScheme]) -> Cors {
    use std::collections::BTreeSet;
    let methods: BTreeSet<String> = operations.iter().map(|op| op.method.clone()).collect();
    let params = operations
        .iter()
        .flat_map(|op| &op.params)
        .filter(|p| p.location == Location::Header)
        .map(|p| p.wire.to_ascii_lowercase());
    let idempotent = operations.iter().any(|op| op.idempotency_key.is_some());
    let keys = schemes.iter().filter_map(|s| match &s.kind {
        SchemeKind::ApiKeyHeader(name) => Some(name.to_ascii_lowercase()),
        _ => None,
    });
    // A client resumes a dropped event stream with `Last-Event-ID` (WHATWG).
    let events = operations.iter().flat_map(|op| &op.responses).any(|r| {
        matches!(
            r.body.as_ref().map(|b| &b.kind),
            Some(BodyKind::Stream(s)) if s.format != crate::ir::StreamFormat::JsonLines
        )
    });
    let request_headers: BTreeSet<String> = params
        .chain(keys)
        .chain(idempotent.then(|| "idempotency-key".to_owned()))
        .chain(events.then(|| "last-event-id".to_owned()))
        .collect();
    let response_headers: BTreeSet<String> = operations
        .iter()
        .flat_map(|op| &op.responses)
        .flat_map(|r| &r.headers)
        .map(|h| h.wire.to_ascii_lowercase())
        .chain(idempotent.then(|| "idempotent-replayed".to_owned()))
        .collect();
    Cors {
        methods: methods.into_iter().collect(),
        request_headers: request_headers.into_iter().collect(),
        response_headers: response_headers.into_iter().collect(),
    }
}

/// The path part of a server URL, with variables replaced by their defaults
/// (`https://host/v1` → `/v1`, `/` → ``).
fn base_path(
    url: &str,
    variables: Option<&indexmap::IndexMap<String, openapiv3::ServerVariable>>,
) -> String {
    let mut url = url.to_string();
    for (name, var) in variables.into_iter().flatten() {
        url = url.replace(&format!("{{{name}}}"), &var.default);
    }
    let path = match url.find("://") {
        Some(i) => url[i + 3..]
            .find('/')
            .map(|p| &url[i + 3 + p..])
            .unwrap_or(""),
        None => url.as_str(),
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.trim_end_matches('/').to_string()
}

fn servers(doc: &OpenAPI) -> Vec<Server> {
    let mut scope = Scope::reserving(reserved::SERVER_VARIANTS);
    doc.servers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut url = s.url.clone();
            for (name, var) in s.variables.iter().flatten() {
                url = url.replace(&format!("{{{name}}}"), &var.default);
            }
            let label = s
                .description
                .as_deref()
                .and_then(|d| d.split(['.', ',', ':', '(', '\n']).next())
                .map(str::trim)
                .filter(|l| !l.is_empty() && l.split_whitespace().count() <= 3)
                .map(naming::pascal)
                .or_else(|| naming::server_from_url(&url))
                .unwrap_or_else(|| format!("Server{}", i + 1));
            let name = scope.claim(label);
            Server {
                short: naming::snake(&name).trim_start_matches("r#").to_string(),
                name,
                url: url.trim_end_matches('/').to_string(),
                description: s.description.clone(),
            }
        })
        .collect()
}

fn security_schemes(doc: &OpenAPI, sink: &mut Sink) -> Vec<SecurityScheme> {
    let Some(components) = &doc.components else {
        return Vec::new();
    };
    let mut scope = Scope::reserving(reserved::BUILDER_METHODS);
    let mut out = Vec::new();
    for (name, scheme) in &components.security_schemes {
        let pointer = push("/components/securitySchemes", name);
        let (scheme, _) = match load::security_scheme(doc, scheme, &pointer) {
            Ok(found) => found,
            Err(d) => {
                sink.items.push(d);
                continue;
            }
        };
        use openapiv3::SecurityScheme as S;
        let (kind, description) = match scheme {
            S::APIKey {
                location,
                name: key,
                description,
                ..
            } => (
                match location {
                    APIKeyLocation::Header => SchemeKind::ApiKeyHeader(key.clone()),
                    APIKeyLocation::Query => SchemeKind::ApiKeyQuery(key.clone()),
                    APIKeyLocation::Cookie => SchemeKind::ApiKeyCookie(key.clone()),
                },
                description,
            ),
            S::HTTP {
                scheme: http_scheme,
                description,
                ..
            } => match http_scheme.to_ascii_lowercase().as_str() {
                "bearer" => (SchemeKind::Bearer, description),
                "basic" => (SchemeKind::Basic, description),
                other => {
                    sink.warn(
                        push(&pointer, "scheme"),
                        format!("HTTP auth scheme `{other}` is not supported; operations that need it accept no credential"),
                    );
                    continue;
                }
            },
            // Both end in a bearer token on the wire; obtaining it is the caller's business.
            S::OAuth2 { description, .. } | S::OpenIDConnect { description, .. } => {
                (SchemeKind::Bearer, description)
            }
        };
        out.push(SecurityScheme {
            name: name.clone(),
            rust: scope.claim(naming::snake(name)),
            kind,
            doc: doc_lines(description.as_deref()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base_path;

    #[test]
    fn base_paths() {
        assert_eq!(base_path("https://api.example/v1", None), "/v1");
        assert_eq!(base_path("https://api.example/v1/", None), "/v1");
        assert_eq!(base_path("https://api.example", None), "");
        assert_eq!(base_path("/", None), "");
        assert_eq!(base_path("/api", None), "/api");
    }
}
