//! Paths and operations → `ir::Operation`: parameters (path-level merged with overrides),
//! bodies, responses named from their status, security and deprecation.

use super::schema::{SchemaRef, Schemas, doc_lines};
use super::{extensions, pagination};
use crate::diag::{Sink, push};
use crate::ir::{
    Body, BodyKind, Constraints, Deprecation, IdempotencyKey, ItemStream, Location, MULTIPART_FORM,
    ObjectStyle, Operation, Param, QueryString, QueryStringKind, Response, ResponseBody,
    ResponseHeader, SchemeKind, SecurityScheme, Status, StreamFormat, Sunset, TypeRef, Webhook,
    WebhookPayload,
};
use crate::load;
use crate::naming::{self, Scope, reserved};
use openapiv3::{
    MediaType, OpenAPI, Parameter, ParameterSchemaOrContent, PathItem, ReferenceOr, Schema,
    StatusCode,
};
use std::borrow::Cow;
use std::collections::BTreeMap;

mod body;
mod params;
mod policy;
mod responses;
mod webhooks;

use body::{media_examples, pick_content, stream_kind};
use params::rest_leaves_others;
use policy::{deprecation, security};
use responses::{accept_header, default_succeeds, success_enum};
pub use webhooks::lower_webhooks;

/// The header of the IETF `Idempotency-Key` draft; compared case-insensitively.
const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

pub fn lower_all(
    doc: &OpenAPI,
    schemas: &mut Schemas<'_>,
    schemes: &[SecurityScheme],
    base_path: &str,
    sink: &mut Sink,
) -> Vec<Operation> {
    let routes = paths_by_operation_id(doc);
    let plain = plain_names(doc);
    let mut names = Scope::reserving(reserved::OPERATION_METHODS);
    let mut stems = Scope::reserving(reserved::OPERATION_STEMS);
    let mut out = Vec::new();
    // Per operation, beside `out`: its pointer and whether it says `x-dropshot-pagination`.
    let mut raw: Vec<(String, bool)> = Vec::new();
    for (path, item) in &doc.paths.paths {
        let path_at = push("/paths", path);
        let item = match item {
            ReferenceOr::Item(item) => item,
            // The loader copies every path item `$ref` in place; one left here could not be
            // followed, and a path is never dropped without a word.
            ReferenceOr::Reference { reference } => {
                sink.error(
                    &path_at,
                    format!("path item `$ref` `{reference}` could not be followed"),
                );
                continue;
            }
        };
        for (wire_method, op, at) in path_operations(item, &path_at, sink) {
            let op = op.as_ref();
            let method = wire_method.to_ascii_lowercase();
            let method = method.as_str();
            let id = op
                .operation_id
                .clone()
                .unwrap_or_else(|| naming::operation_from_route(method, path));
            // A framework's pattern (`create_item_items__post`) names it by its plain name.
            let name = plain
                .get(&(path.clone(), wire_method.clone()))
                .map_or(id.as_str(), String::as_str);
            let rust = names.claim(naming::snake(name));
            // A stem is only ever a prefix (`SelfParams`), so `Self_` loses its underscore.
            let stem = stems.claim(naming::pascal(name).trim_end_matches('_').to_string());
            let requirement = op.security.as_ref().or(doc.security.as_ref());
            let ctx = Ctx {
                doc,
                stem: &stem,
                at: &at,
                deprecated: op.extensions.contains_key("x-deprecation"),
                secured: requirement.is_some_and(|r| r.iter().any(|alt| !alt.is_empty())),
            };
            let mut params = ctx.params(&item.parameters, &op.parameters, path, schemas, sink);
            // The runtimes own the Idempotency-Key header (IETF draft): the implementation
            // and the client's caller never see it.
            let idempotency_key = params
                .iter()
                .position(|p| {
                    p.location == Location::Header && p.wire.eq_ignore_ascii_case(IDEMPOTENCY_KEY)
                })
                .map(|i| {
                    let param = params.remove(i);
                    IdempotencyKey {
                        required: param.required,
                        param: Param {
                            required: false,
                            default: None,
                            ..param
                        },
                    }
                });
            let query_string = ctx.query_string(item, op, &path_at, &params, schemas, sink);
            let body = op
                .request_body
                .as_ref()
                .and_then(|b| ctx.body(b, schemas, sink));
            let (responses, unimplemented) = ctx.responses(&op.responses, schemas, sink);
            let security = security(requirement, schemes, &at, sink);
            rest_leaves_others(&mut params, &security, schemes);
            let ext = extensions::deprecation(&op.extensions, &at, sink);
            let (deprecated, extra_headers) = deprecation(
                op.deprecated,
                ext,
                &routes,
                base_path,
                &push(&at, "x-deprecation"),
                sink,
            );
            let doc_text = operation_doc(op);
            let accept = accept_header(&responses);
            let streamed = responses.iter().any(|r| {
                r.is_success()
                    && matches!(r.body.as_ref().map(|b| &b.kind), Some(BodyKind::Stream(_)))
            });
            raw.push((
                at.clone(),
                op.extensions.contains_key("x-dropshot-pagination"),
            ));
            out.push(Operation {
                accept,
                pagination: None,
                tags: op.tags.clone(),
                id,
                rust,
                rust_with: None,
                multipart_twin: None,
                stem,
                standard_method: METHODS.contains(&method),
                streamed,
                method: wire_method,
                path: path.clone(),
                // `routes::plan` reads the key and sets these three.
                path_template: Vec::new(),
                path_query: Vec::new(),
                path_pattern: None,
                summary: op.summary.clone(),
                doc: doc_text,
                deprecated,
                params,
                body,
                default_succeeds: default_succeeds(&responses),
                success_enum: success_enum(&responses),
                responses,
                unimplemented,
                security,
                extra_headers,
                // QUERY is safe and idempotent (it only reads, with a body); a custom
                // method promises nothing.
                idempotent: matches!(
                    method,
                    "get" | "head" | "put" | "delete" | "options" | "trace" | "query"
                ),
                idempotency_key,
                query_string,
                // `lower::mock` and `lower::errors` fill these in once every type is known.
                mock: Default::default(),
                usage: Default::default(),
                errors: None,
                // `lower::undocumented` decides it once every operation is known.
                undocumented: Default::default(),
            });
        }
    }
    name_with_methods(&mut out, &mut names);
    let raw: Vec<pagination::Raw<'_>> = raw
        .iter()
        .map(|(at, dropshot)| pagination::Raw {
            at,
            dropshot: *dropshot,
        })
        .collect();
    pagination::detect(&mut out, &raw, &schemas.types, &mut names, sink);
    name_headers_types(&mut out);
    out
}

/// The plain names of the operations whose ids follow a framework's pattern
/// ([`naming::framework_plain_name`]), by path and method as written: only where the plain
/// name is unique in the document (no other operation's plain name or id spells it the same
/// in snake case), so that a name never depends on which operation came first.
fn plain_names(doc: &OpenAPI) -> BTreeMap<(String, String), String> {
    let mut quiet = Sink::default();
    let mut found: Vec<((String, String), String, String)> = Vec::new();
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    for (path, item) in &doc.paths.paths {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, op, _) in path_operations(item, &push("/paths", path), &mut quiet) {
            let Some(id) = &op.operation_id else {
                continue;
            };
            let plain = naming::framework_plain_name(id, &method, path);
            let spelled = naming::snake(plain.as_deref().unwrap_or(id));
            *taken.entry(spelled.clone()).or_default() += 1;
            if let Some(plain) = plain {
                // The document's own id, in snake case, is taken too.
                *taken.entry(naming::snake(id)).or_default() += 1;
                found.push(((path.clone(), method), plain, spelled));
            }
        }
    }
    found
        .into_iter()
        .filter(|(_, _, spelled)| taken[spelled] == 1)
        .map(|(key, plain, _)| (key, plain))
        .collect()
}

/// The path of each operation id of the whole document, so that a deprecation can link to its
/// successor.
fn paths_by_operation_id(doc: &OpenAPI) -> BTreeMap<String, String> {
    let mut routes = BTreeMap::new();
    let mut quiet = Sink::default();
    for (path, item) in &doc.paths.paths {
        if let ReferenceOr::Item(item) = item {
            for (_, op, _) in path_operations(item, &push("/paths", path), &mut quiet) {
                if let Some(id) = &op.operation_id {
                    routes.insert(id.clone(), path.clone());
                }
            }
        }
    }
    // Operations a selection left out (`lower::select`) are still the API's.
    if let Some(serde_json::Value::Object(left_out)) = doc.extensions.get(super::select::LEFT_OUT) {
        for (id, path) in left_out {
            if let Some(path) = path.as_str() {
                routes.entry(id.clone()).or_insert_with(|| path.to_owned());
            }
        }
    }
    routes
}

/// An operation's documentation: its summary, then its description.
fn operation_doc(op: &openapiv3::Operation) -> Vec<String> {
    let mut lines = doc_lines(op.summary.as_deref());
    let description = doc_lines(op.description.as_deref());
    if !lines.is_empty() && !description.is_empty() {
        lines.push(String::new());
    }
    lines.extend(description);
    lines
}

/// Names the client's `…_with` methods (see [`Operation::rust_with`]) once every operation
/// has its own name, so that a document's `listPetsWith` keeps its name and ours moves.
fn name_with_methods(ops: &mut [Operation], names: &mut Scope) {
    for op in ops.iter_mut() {
        if op.params.iter().any(|p| !p.required) {
            op.rust_with = Some(names.claim(naming::with_method(&op.rust)));
        }
    }
    for op in ops.iter_mut() {
        if op
            .body
            .as_ref()
            .is_some_and(|b| b.multipart_alternative().is_some())
        {
            let rust = names.claim(naming::multipart_method(&op.rust));
            let rust_with = op
                .rust_with
                .is_some()
                .then(|| names.claim(naming::with_method(&rust)));
            op.multipart_twin = Some(crate::ir::MultipartTwin { rust, rust_with });
        }
    }
}

/// Names the answers' header structs (`{stem}{variant}Headers`) in the module they share
/// with every operation's types (`api.rs`, `client.rs`): unique among themselves (`getNot` +
/// 302 `Found` and `get` + 404 `NotFound` both spell `GetNotFoundHeaders`) and never an
/// operation's `{stem}Params`, `{stem}Response`, … (those names are claimed first).
fn name_headers_types(ops: &mut [Operation]) {
    let mut module = Scope::reserving(reserved::OPERATIONS_MODULE);
    for op in ops.iter() {
        for suffix in reserved::OPERATION_TYPE_SUFFIXES {
            module.claim(format!("{}{suffix}", op.stem));
        }
    }
    for op in ops.iter_mut() {
        for r in &mut op.responses {
            if let Some(name) = &mut r.headers_type {
                *name = module.claim(std::mem::take(name));
            }
        }
    }
}

/// A type as a reader of a warning knows it.
fn describe(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(n) => format!("`{n}` (an object or a union)"),
        TypeRef::Vec(_) => "nested array".into(),
        TypeRef::Map(_) | TypeRef::JsonObject => "object".into(),
        TypeRef::Json => "free-form".into(),
        TypeRef::Unit => "null".into(),
        TypeRef::Bytes | TypeRef::Base64 | TypeRef::Base64Url => "binary".into(),
        TypeRef::Tuple(_) => "tuple".into(),
        other => format!("{other:?}"),
    }
}

/// The operations of a path item in a stable order: the eight fixed methods, then 3.2's
/// `query`, then `additionalOperations` in document order; each with its method as sent
/// (upper case, custom ones as written) and its pointer. The loader leaves the 3.2 ones as
/// JSON in `x-apigen-query` / `x-apigen-additional-operations`.
pub fn path_operations<'a>(
    item: &'a PathItem,
    at: &str,
    sink: &mut Sink,
) -> Vec<(String, Cow<'a, openapiv3::Operation>, String)> {
    let mut out = Vec::new();
    for method in METHODS {
        if let Some(op) = operation_of(item, method) {
            out.push((method.to_uppercase(), Cow::Borrowed(op), push(at, method)));
        }
    }
    if let Some(value) = item.extensions.get("x-apigen-query") {
        let op_at = push(at, "x-apigen-query");
        if let Some(op) = extension_operation(value, &op_at, sink) {
            out.push(("QUERY".to_string(), Cow::Owned(op), op_at));
        }
    }
    if let Some(map) = item.extensions.get("x-apigen-additional-operations") {
        let map_at = push(at, "x-apigen-additional-operations");
        let Some(map) = map.as_object() else {
            sink.error(
                map_at,
                "`additionalOperations` must be a map of method → operation",
            );
            return out;
        };
        for (method, value) in map {
            let op_at = push(&map_at, method);
            let lower = method.to_ascii_lowercase();
            if METHODS.contains(&lower.as_str()) || lower == "query" {
                sink.error(
                    op_at,
                    format!("`{method}` has a field of its own in the path item (`{lower}`); `additionalOperations` is for other methods"),
                );
                continue;
            }
            if method.is_empty() || !method.bytes().all(is_tchar) {
                sink.error(
                    op_at,
                    format!("`{method}` is not an HTTP method name (RFC 9110 token)"),
                );
                continue;
            }
            if let Some(op) = extension_operation(value, &op_at, sink) {
                out.push((method.clone(), Cow::Owned(op), op_at));
            }
        }
    }
    out
}

/// A character of an HTTP token (RFC 9110, 5.6.2).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn extension_operation(
    value: &serde_json::Value,
    at: &str,
    sink: &mut Sink,
) -> Option<openapiv3::Operation> {
    match serde_json::from_value(value.clone()) {
        Ok(op) => Some(op),
        Err(e) => {
            sink.error(at, format!("not a valid Operation: {e}"));
            None
        }
    }
}

fn operation_of<'a>(item: &'a PathItem, method: &str) -> Option<&'a openapiv3::Operation> {
    match method {
        "get" => item.get.as_ref(),
        "put" => item.put.as_ref(),
        "post" => item.post.as_ref(),
        "delete" => item.delete.as_ref(),
        "options" => item.options.as_ref(),
        "head" => item.head.as_ref(),
        "patch" => item.patch.as_ref(),
        "trace" => item.trace.as_ref(),
        _ => None,
    }
}

struct Ctx<'d> {
    doc: &'d OpenAPI,
    stem: &'d str,
    at: &'d str,
    /// The operation carries `x-deprecation`, whose headers the runtime writes.
    deprecated: bool,
    /// The operation has a security requirement (its schemes carry `Authorization`).
    secured: bool,
}
