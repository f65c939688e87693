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
    // The operation ids of the whole document, so a deprecation can link to its successor.
    let mut routes: BTreeMap<String, String> = BTreeMap::new();
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
            let rust = names.claim(naming::snake(&id));
            // A stem is only ever a prefix (`SelfParams`), so `Self_` loses its underscore.
            let stem = stems.claim(naming::pascal(&id).trim_end_matches('_').to_string());
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
                .map(|i| IdempotencyKey {
                    required: params.remove(i).required,
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
            let mut doc_text = doc_lines(op.summary.as_deref());
            let description = doc_lines(op.description.as_deref());
            if !doc_text.is_empty() && !description.is_empty() {
                doc_text.push(String::new());
            }
            doc_text.extend(description);
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
                id,
                rust,
                rust_with: None,
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
                errors: None,
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

/// Names the client's `…_with` methods (see [`Operation::rust_with`]) once every operation
/// has its own name, so that a document's `listPetsWith` keeps its name and ours moves.
fn name_with_methods(ops: &mut [Operation], names: &mut Scope) {
    for op in ops.iter_mut() {
        if op.params.iter().any(|p| !p.required) {
            op.rust_with = Some(names.claim(naming::with_method(&op.rust)));
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

/// The media types the client reads, as the document names them (without parameters), each
/// once: streamed answers first, then the successes', then the errors'; `None` when no
/// response has a body. Every one is named, so that a server choosing by `Accept` finds the
/// one it has (`*/*`, `audio/mpeg` beside a JSON error: answering `Accept: application/json`
/// alone, Prism says 406).
fn accept_header(responses: &[Response]) -> Option<String> {
    let mut types: Vec<String> = Vec::new();
    let streams = responses
        .iter()
        .filter_map(|r| r.body.as_ref())
        .filter(|b| matches!(b.kind, BodyKind::Stream(_)));
    let successes = responses
        .iter()
        .filter(|r| r.is_success())
        .filter_map(|r| r.body.as_ref());
    let others = responses
        .iter()
        .filter(|r| !r.is_success())
        .filter_map(|r| r.body.as_ref());
    for b in streams.chain(successes).chain(others) {
        let essence = b
            .content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if !essence.is_empty() && !types.contains(&essence) {
            types.push(essence);
        }
    }
    (!types.is_empty()).then(|| types.join(", "))
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

impl Ctx<'_> {
    fn params(
        &self,
        path_level: &[ReferenceOr<Parameter>],
        op_level: &[ReferenceOr<Parameter>],
        path: &str,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Vec<Param> {
        // Operation-level parameters override path-level ones with the same name and location.
        let mut merged: Vec<(&Parameter, String)> = Vec::new();
        let levels = [
            (path_level, push(&push("/paths", path), "parameters")),
            (op_level, push(self.at, "parameters")),
        ];
        for (list, list_at) in &levels {
            for (i, p) in list.iter().enumerate() {
                // A reference to a component `in: querystring` parameter: see `query_string`.
                if querystring_component(self.doc, p).is_some() {
                    continue;
                }
                match load::parameter(self.doc, p, &push(list_at, &i.to_string())) {
                    Ok((param, at)) => {
                        let key = (param.parameter_data_ref().name.clone(), location(param));
                        merged.retain(|(q, _)| {
                            (q.parameter_data_ref().name.clone(), location(q)) != key
                        });
                        merged.push((param, at));
                    }
                    Err(d) => sink.items.push(d),
                }
            }
        }
        let mut scope = Scope::new();
        let mut locals = Scope::reserving(&reserved::parameter_locals());
        let mut out = Vec::new();
        let mut pointers = Vec::new();
        // The query's names: what a map sent member by member (`style: form`, exploded) is
        // not.
        let query_names: Vec<String> = merged
            .iter()
            .filter(|(p, _)| location(p) == Location::Query)
            .map(|(p, _)| p.parameter_data_ref().name.clone())
            .collect();
        for (param, at) in merged {
            let data = param.parameter_data_ref();
            let loc = location(param);
            // OpenAPI says these three are described elsewhere (content negotiation, security),
            // and the parameter ignored. Without a security requirement nothing else would
            // send `Authorization` (keeper's "Authorization header (bearer token)"): the
            // parameter is kept then, as declared.
            if loc == Location::Header {
                let ignored = match data.name.to_ascii_lowercase().as_str() {
                    "accept" | "content-type" => {
                        Some("the client sets it from the document's media types")
                    }
                    "authorization" if self.secured => {
                        Some("the operation's security scheme sets it")
                    }
                    _ => None,
                };
                if let Some(why) = ignored {
                    sink.warn(
                        &at,
                        format!(
                            "header parameter `{}` is ignored, as OpenAPI says: {why}",
                            data.name
                        ),
                    );
                    continue;
                }
            }
            let hint = format!("{}{}", self.stem, naming::pascal(&data.name));
            let (ty, constraints, default, mut doc) = match &data.format {
                ParameterSchemaOrContent::Schema(s) => {
                    let sref = SchemaRef::of(s);
                    let constraints = schemas.constraints(SchemaRef::of(s));
                    let default = schemas.default_value(SchemaRef::of(s));
                    let doc = schemas.description(SchemaRef::of(s));
                    let ty = schemas.type_of(sref, &hint, &push(&at, "schema"), sink);
                    (ty, constraints, default, doc)
                }
                ParameterSchemaOrContent::Content(_) => {
                    sink.warn(&at, "parameter with `content` is passed as a plain string");
                    (TypeRef::String, Default::default(), None, Vec::new())
                }
            };
            let object = object_style(param, &ty, schemas, &query_names);
            // One value or several (`oneOf: [T, array of T]`) in the query: a list.
            let (ty, constraints) = match (param, schemas.one_or_many(&ty)) {
                (Parameter::Query { .. }, Some(many)) if data.explode != Some(false) => many,
                _ => (ty, constraints),
            };
            let ty = match ty {
                TypeRef::Vec(inner) if schemas.is_scalar(&inner) => TypeRef::Vec(inner),
                t if schemas.is_scalar(&t) || object.is_some() => t,
                other => {
                    sink.warn(
                        &at,
                        format!(
                            "{} parameters are not supported yet (only strings, numbers, booleans, enumerations, arrays of them, and in the query objects of them); the value is passed as a plain string",
                            describe(&other)
                        ),
                    );
                    TypeRef::String
                }
            };
            if !data.description.as_deref().unwrap_or_default().is_empty() {
                doc = doc_lines(data.description.as_deref());
            }
            let explode = data.explode.unwrap_or(matches!(
                param,
                Parameter::Query { .. } | Parameter::Cookie { .. }
            ));
            let (delimiter, as_sent) = style(param, &ty, object.is_some(), &at, sink);
            let rust = scope.claim(naming::snake(&data.name));
            pointers.push(at.clone());
            out.push(Param {
                local: locals.claim(rust.clone()),
                setter: naming::setter(&rust),
                rust,
                wire: data.name.clone(),
                location: loc,
                check_ty: ty.clone(),
                ty,
                required: data.required || loc == Location::Path,
                explode,
                delimiter,
                as_sent,
                default,
                constraints,
                doc,
                deprecated: data.deprecated.unwrap_or(false),
                object,
            });
        }
        reconcile_path(path, &mut out, &pointers, sink);
        // As for struct fields: setter names unique even where field names differ by `_`.
        let mut setters = Scope::new();
        for p in &mut out {
            p.setter = setters.claim(std::mem::take(&mut p.setter));
        }
        out
    }

    fn body(
        &self,
        body: &ReferenceOr<openapiv3::RequestBody>,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Option<Body> {
        let at = push(self.at, "requestBody");
        let (body, at) = match load::request_body(self.doc, body, &at) {
            Ok(found) => found,
            Err(d) => {
                sink.items.push(d);
                return None;
            }
        };
        let (content_type, media) = pick_content(&body.content)?;
        let media_at = push(&push(&at, "content"), content_type);
        if media.extensions.contains_key("x-apigen-item-schema") {
            sink.warn(
                push(&media_at, "x-apigen-item-schema"),
                "streamed request bodies are not supported yet; the body is sent and read whole, by its `schema`",
            );
        }
        let kind = self.body_kind(
            content_type,
            media,
            &format!("{}Body", self.stem),
            &media_at,
            schemas,
            sink,
        );
        // A JSON body whose schema admits `null` (discord's `type: [array, "null"]` command
        // lists) is an `Option`: the JSON text `null` is a valid request body. (An answer's
        // `null` is handled where responses are lowered.)
        let kind = match (kind, &media.schema) {
            (BodyKind::Json(ty), Some(s)) => BodyKind::Json(schemas.or_null(SchemaRef::of(s), ty)),
            (kind, _) => kind,
        };
        // Other media types the server can read into the same Rust type (JSON or form with
        // the same schema); the client always sends the first.
        let mut alternatives = Vec::new();
        for (other, other_media) in &body.content {
            if other == content_type {
                continue;
            }
            let essence = other
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            let same_schema = other_media.schema == media.schema;
            let alternative = match (&kind, same_schema) {
                (BodyKind::Json(t) | BodyKind::Form(t), true) if is_json(&essence) => {
                    Some(BodyKind::Json(t.clone()))
                }
                (BodyKind::Json(t) | BodyKind::Form(t), true)
                    if essence == "application/x-www-form-urlencoded" =>
                {
                    Some(BodyKind::Form(t.clone()))
                }
                // discord offers its JSON bodies as form data and multipart too; openai its
                // video and image uploads as JSON and as multipart of a schema of its own.
                // Either way the parts are checked as the multipart schema's type and the
                // bytes passed on (files are bytes).
                (BodyKind::Json(t) | BodyKind::Form(t), true) if essence == MULTIPART_FORM => {
                    // A multipart body is never `null`, whatever its JSON twin allows.
                    let t = match t {
                        TypeRef::Nullable(inner) => inner.as_ref(),
                        t => t,
                    };
                    Some(BodyKind::Multipart {
                        ty: t.clone(),
                        same_schema: true,
                    })
                }
                (BodyKind::Json(_) | BodyKind::Form(_), false) if essence == MULTIPART_FORM => {
                    let hint = format!("{}Multipart", self.stem);
                    let at = push(&push(&push(&at, "content"), other), "schema");
                    match other_media
                        .schema
                        .as_ref()
                        .map(|schema| schemas.type_of(SchemaRef::of(schema), &hint, &at, sink))
                    {
                        Some(ty @ TypeRef::Named(_)) => Some(BodyKind::Multipart {
                            ty,
                            same_schema: false,
                        }),
                        _ => None,
                    }
                }
                _ => None,
            };
            match alternative {
                // Read the same way as the primary media type (JSON and JSON, form and
                // form): the primary reader already takes it, and a branch of its own would
                // repeat the primary one (clippy::if_same_then_else).
                Some(k) if same_reader(&k, &kind) => {}
                Some(k) => alternatives.push((other.clone(), k)),
                None => sink.warn(
                    push(&push(&at, "content"), other),
                    format!("`{other}` is not accepted: only `{content_type}`, media types with the same schema in JSON or form encoding, and `multipart/form-data` with an object schema are"),
                ),
            }
        }
        // A multipart form is passed on as its bytes (its files are bytes, which the
        // schema's `format: binary` strings cannot hold), checked first as its schema's type.
        let checked_as = match (&kind, &media.schema) {
            (BodyKind::Bytes, Some(schema)) if crate::ir::is_multipart_form(content_type) => {
                let hint = format!("{}Body", self.stem);
                match schemas.type_of(
                    SchemaRef::of(schema),
                    &hint,
                    &push(&media_at, "schema"),
                    sink,
                ) {
                    ty @ TypeRef::Named(_) => Some(ty),
                    _ => None,
                }
            }
            _ => None,
        };
        let constraints = match &media.schema {
            Some(schema) if matches!(kind, BodyKind::Json(_) | BodyKind::Form(_)) => {
                schemas.constraints(SchemaRef::of(schema))
            }
            _ => Constraints::default(),
        };
        let check_ty = match &kind {
            BodyKind::Json(t) | BodyKind::Form(t) => t.clone(),
            _ => TypeRef::Unit,
        };
        Some(Body {
            required: body.required,
            content_type: content_type.to_string(),
            kind,
            alternatives,
            checked_as,
            constraints,
            check_ty,
            doc: doc_lines(body.description.as_deref()),
        })
    }

    fn body_kind(
        &self,
        content_type: &str,
        media: &MediaType,
        hint: &str,
        at: &str,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> BodyKind {
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let schema_ty = |schemas: &mut Schemas<'_>, sink: &mut Sink| match &media.schema {
            Some(s) => schemas.type_of(SchemaRef::of(s), hint, &push(at, "schema"), sink),
            None => TypeRef::Json,
        };
        if essence == "*/*" {
            // Any media type: what is sent is read by its own Content-Type. A string (JSON
            // text or plain text alike) is text, bytes are bytes; the rest is JSON, the one
            // encoding every side reads (nexus's `*/*` answers are `type: string`, and a real
            // server sends them as text/plain, which a JSON reader refused).
            match schema_ty(schemas, sink) {
                TypeRef::String => BodyKind::Text,
                TypeRef::Bytes => BodyKind::Bytes,
                ty => BodyKind::Json(ty),
            }
        } else if is_json(&essence) {
            BodyKind::Json(schema_ty(schemas, sink))
        } else if essence == "application/x-www-form-urlencoded" {
            BodyKind::Form(schema_ty(schemas, sink))
        } else if essence.starts_with("text/") {
            BodyKind::Text
        } else {
            if essence == MULTIPART_FORM && media.schema.is_some() {
                sink.warn(
                    at,
                    "a multipart/form-data body reaches the implementation as its bytes (the boundary is in the request's Content-Type), after the server has checked its parts against the schema",
                );
            } else if essence.starts_with("multipart/") {
                sink.warn(
                    at,
                    "multipart bodies are passed as raw bytes with their content type",
                );
            }
            BodyKind::Bytes
        }
    }

    /// The headers a response documents, less those the runtime writes itself.
    fn response_headers(
        &self,
        resp: &openapiv3::Response,
        status: &Status,
        at: &str,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Vec<ResponseHeader> {
        let mut scope = Scope::new();
        let mut out = Vec::new();
        for (name, header) in &resp.headers {
            if self.managed_header(name, status) {
                continue;
            }
            let h_at = push(&push(at, "headers"), name);
            let (header, h_at) = match load::header(self.doc, header, &h_at) {
                Ok(found) => found,
                Err(d) => {
                    sink.items.push(d);
                    continue;
                }
            };
            let ty = match &header.format {
                ParameterSchemaOrContent::Schema(s) => {
                    let hint = format!("{}{}", self.stem, naming::pascal(name));
                    schemas.type_of(SchemaRef::of(s), &hint, &push(&h_at, "schema"), sink)
                }
                ParameterSchemaOrContent::Content(_) => TypeRef::String,
            };
            let constraints = match &header.format {
                ParameterSchemaOrContent::Schema(s) => schemas.constraints(SchemaRef::of(s)),
                ParameterSchemaOrContent::Content(_) => Default::default(),
            };
            let ty = match ty {
                TypeRef::Vec(inner) if schemas.is_scalar(&inner) => TypeRef::Vec(inner),
                t if schemas.is_scalar(&t) => t,
                _ => {
                    sink.warn(&h_at, "a response header that is not a scalar or an array of scalars is written as a plain string");
                    TypeRef::String
                }
            };
            out.push(ResponseHeader {
                rust: scope.claim(naming::snake(name)),
                wire: name.to_ascii_lowercase(),
                ty,
                required: header.required,
                doc: doc_lines(header.description.as_deref()),
                constraints,
            });
        }
        out
    }

    /// Headers the runtime writes: content negotiation always; authentication challenges on
    /// 401; rate-limit state and `Retry-After` on 429 when the document has `x-rate-limit`;
    /// deprecation headers when the operation has `x-deprecation`.
    fn managed_header(&self, name: &str, status: &Status) -> bool {
        let name = name.to_ascii_lowercase();
        let rate_limited = self.doc.extensions.contains_key("x-rate-limit");
        match name.as_str() {
            "content-type" | "content-length" => true,
            // How the message is framed and the connection kept (RFC 9110 §7.6.1, RFC 9112):
            // the HTTP layer's, on each hop. openai documents `Transfer-Encoding: chunked` on
            // its speech answer; set by the implementation (the mock's `string`) beside a whole
            // body, hyper dropped the connection without an answer.
            "transfer-encoding" | "connection" | "keep-alive" | "upgrade" | "te" | "trailer"
            | "proxy-connection" => true,
            "www-authenticate" => *status == Status::Code(401),
            "x-ratelimit-limit" | "x-ratelimit-remaining" | "x-ratelimit-reset" => rate_limited,
            "retry-after" => rate_limited && *status == Status::Code(429),
            "deprecation" | "sunset" | "link" => self.deprecated,
            _ => false,
        }
    }

    fn responses(
        &self,
        responses: &openapiv3::Responses,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> (Vec<Response>, String) {
        let at = push(self.at, "responses");
        let mut scope = Scope::new();
        let mut entries: Vec<(Status, &ReferenceOr<openapiv3::Response>, String)> = Vec::new();
        for (code, r) in &responses.responses {
            let (status, token) = match code {
                StatusCode::Code(c) => (Status::Code(*c), c.to_string()),
                StatusCode::Range(r) => (Status::Range(*r as u8), format!("{r}XX")),
            };
            entries.push((status, r, push(&at, &token)));
        }
        if let Some(d) = &responses.default {
            entries.push((Status::Default, d, push(&at, "default")));
        }
        let mut out = Vec::new();
        for (status, r, r_at) in entries {
            if matches!(status, Status::Code(c) if !(100..=599).contains(&c)) {
                sink.error(&r_at, "status code outside 100..=599");
                continue;
            }
            let (resp, resolved_at) = match load::response(self.doc, r, &r_at) {
                Ok(found) => found,
                Err(d) => {
                    sink.items.push(d);
                    continue;
                }
            };
            let variant = scope.claim(match status {
                Status::Code(c) => naming::status_variant(c),
                Status::Range(r) => naming::range_variant(r),
                Status::Default => "Default".to_string(),
            });
            // Inline body schemas of shared responses are named after the response, not the
            // first operation that happens to use them.
            let hint = match r {
                ReferenceOr::Reference { reference } => {
                    format!(
                        "{}Body",
                        naming::pascal(reference.rsplit('/').next().unwrap_or("Response"))
                    )
                }
                ReferenceOr::Item(_) => format!("{}{variant}Body", self.stem),
            };
            // RFC 9110: a 204, 205 or 304 answer has no content, whatever the document
            // declares (FastAPI declares a JSON body on 204s): neither side expects one.
            let bodiless = matches!(status, Status::Code(204 | 205 | 304));
            if bodiless && !resp.content.is_empty() {
                sink.warn(
                    push(&resolved_at, "content"),
                    "a 204, 205 or 304 answer has no content (RFC 9110); the declared content is ignored",
                );
            }
            let content = if bodiless {
                &indexmap::IndexMap::new()
            } else {
                &resp.content
            };
            let body = pick_content(content).map(|(ct, media)| {
                let media_at = push(&push(&resolved_at, "content"), ct);
                let streamed = media
                    .extensions
                    .get("x-apigen-item-schema")
                    .and_then(|item| {
                        let item_hint = format!("{}{variant}Item", self.stem);
                        stream_kind(ct, item, &item_hint, &media_at, schemas, sink)
                    });
                let kind = match streamed {
                    Some(kind) => kind,
                    None => self.body_kind(ct, media, &hint, &media_at, schemas, sink),
                };
                // An answer whose schema admits `null` beside its type is `Option` of it on
                // both sides (serde_json::Value and `()` hold `null` already).
                let nullable = media
                    .schema
                    .as_ref()
                    .is_some_and(|s| schemas.nullable(SchemaRef::of(s)));
                ResponseBody {
                    examples: media_examples(self.doc, media),
                    content_type: ct.to_string(),
                    kind: match kind {
                        BodyKind::Json(t)
                            if nullable && !matches!(t, TypeRef::Json | TypeRef::Unit) =>
                        {
                            BodyKind::Json(TypeRef::Nullable(Box::new(t)))
                        }
                        other => other,
                    },
                }
            });
            let headers = self.response_headers(resp, &status, &resolved_at, schemas, sink);
            let headers_type =
                (!headers.is_empty()).then(|| format!("{}{variant}Headers", self.stem));
            out.push(Response {
                status,
                variant,
                doc: doc_lines(Some(&resp.description)),
                body,
                headers,
                headers_type,
            });
        }
        // No response described (`responses` is optional since 3.1): the document says
        // nothing of the answer, which is what `default` without content says. Without it the
        // operation could only answer 501, implemented or not.
        if responses.responses.is_empty() && responses.default.is_none() {
            sink.warn(
                self.at,
                "the operation describes no response: read as `default` with no content (any status, no body)",
            );
            out.push(Response {
                status: Status::Default,
                variant: scope.claim("Default".to_string()),
                doc: vec!["The document describes no response: any status, no body.".to_string()],
                body: None,
                headers: Vec::new(),
                headers_type: None,
            });
        }
        // Claimed last: a documented status keeps its name whatever this one becomes.
        let unimplemented = scope.claim("Unimplemented".to_string());
        (out, unimplemented)
    }
}

/// A response described by 3.2's `itemSchema`: read item by item. `None` (with a warning) for
/// a media type we do not stream, whose body is then read whole as before.
///
/// For `text/event-stream` the item schema describes the event's fields; the item type is
/// that of `data`: its `contentSchema` when it has one (JSON in the data), text when `data` is
/// a plain string. Without a `data` property the whole item schema is read as the schema of
/// each event's JSON data (a common shorthand), with a warning.
fn stream_kind(
    content_type: &str,
    item: &serde_json::Value,
    hint: &str,
    media_at: &str,
    schemas: &mut Schemas<'_>,
    sink: &mut Sink,
) -> Option<BodyKind> {
    let at = push(media_at, "x-apigen-item-schema");
    let mut type_of =
        |value: &serde_json::Value, at: &str, sink: &mut Sink| match serde_json::from_value::<
            ReferenceOr<Schema>,
        >(value.clone())
        {
            Ok(s) => schemas.type_of(SchemaRef::of(&s), hint, at, sink),
            Err(e) => {
                sink.warn(
                    at,
                    format!("not a schema we can read ({e}); items are free-form JSON"),
                );
                TypeRef::Json
            }
        };
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let (format, item) = match essence.as_str() {
        "application/jsonl" | "application/x-ndjson" | "application/x-jsonlines" => {
            (StreamFormat::JsonLines, type_of(item, &at, sink))
        }
        "text/event-stream" => match item.get("properties").and_then(|p| p.get("data")) {
            Some(data) => {
                let data_at = push(&push(&at, "properties"), "data");
                let media = data
                    .get("x-apigen-content-media-type")
                    .and_then(|m| m.as_str())
                    .unwrap_or("");
                let json_data = media == "application/json" || media.ends_with("+json");
                let is_string = matches!(
                    data.get("type").and_then(|t| t.as_str()),
                    None | Some("string")
                );
                if let Some(content) = data.get("contentSchema") {
                    (
                        StreamFormat::Events,
                        type_of(content, &push(&data_at, "contentSchema"), sink),
                    )
                } else if json_data {
                    (StreamFormat::Events, TypeRef::Json)
                } else if is_string {
                    (StreamFormat::EventsText, TypeRef::String)
                } else {
                    (StreamFormat::Events, type_of(data, &data_at, sink))
                }
            }
            None if item.get("oneOf").is_some() || item.get("anyOf").is_some() => {
                sink.warn(
                    &at,
                    "events described by `oneOf`/`anyOf` are not typed yet; each event's `data` is passed as text",
                );
                (StreamFormat::EventsText, TypeRef::String)
            }
            None => {
                sink.warn(
                    &at,
                    "an event stream's `itemSchema` describes each event (`data`, `event`, `id`, `retry`); this one has no `data` property, so it is read as the schema of the JSON in each event's `data`",
                );
                (StreamFormat::Events, type_of(item, &at, sink))
            }
        },
        _ => {
            sink.warn(
                &at,
                format!("`itemSchema` is read for `text/event-stream` and JSON Lines only; `{content_type}` is read whole"),
            );
            return None;
        }
    };
    Some(BodyKind::Stream(ItemStream { format, item }))
}

/// The document's `webhooks` (kept by the loader as `x-apigen-webhooks`): one entry per
/// operation of each webhook's path item, with its JSON payload typed.
pub fn lower_webhooks(doc: &OpenAPI, schemas: &mut Schemas<'_>, sink: &mut Sink) -> Vec<Webhook> {
    let root = "/x-apigen-webhooks";
    let Some(map) = doc.extensions.get("x-apigen-webhooks") else {
        return Vec::new();
    };
    let Some(map) = map.as_object() else {
        sink.error(root, "`webhooks` must be a map of name → path item");
        return Vec::new();
    };
    let mut scope = Scope::new();
    let mut out = Vec::new();
    for (name, value) in map {
        let item_at = push(root, name);
        let item: PathItem = match serde_json::from_value(value.clone()) {
            Ok(item) => item,
            Err(e) => {
                sink.error(&item_at, format!("not a valid Path Item: {e}"));
                continue;
            }
        };
        let ops = path_operations(&item, &item_at, sink);
        let several = ops.len() > 1;
        for (method, op, at) in ops {
            let variant = scope.claim(naming::pascal(&if several {
                format!("{name} {method}")
            } else {
                name.clone()
            }));
            if !op.parameters.is_empty() || !item.parameters.is_empty() {
                sink.warn(
                    &at,
                    "webhook parameters are not typed yet; only the payload is",
                );
            }
            let ctx = Ctx {
                doc,
                stem: &variant,
                at: &at,
                deprecated: false,
                secured: false,
            };
            let body = op
                .request_body
                .as_ref()
                .and_then(|b| ctx.body(b, schemas, sink));
            let payload = match body {
                None => None,
                Some(Body {
                    kind: BodyKind::Json(ty),
                    content_type,
                    required,
                    ..
                }) => Some(WebhookPayload {
                    content_type,
                    ty,
                    required,
                }),
                Some(_) => {
                    sink.warn(
                        push(&at, "requestBody"),
                        "only JSON webhook payloads are typed yet; this webhook is sent and read without its payload",
                    );
                    None
                }
            };
            let mut doc_text = doc_lines(op.summary.as_deref());
            let description = doc_lines(op.description.as_deref());
            if !doc_text.is_empty() && !description.is_empty() {
                doc_text.push(String::new());
            }
            doc_text.extend(description);
            out.push(Webhook {
                name: name.clone(),
                variant,
                standard_method: METHODS.contains(&method.to_ascii_lowercase().as_str()),
                method,
                doc: doc_text,
                payload,
            });
        }
    }
    out
}

/// The component `in: querystring` parameter `p` refers to, if it is such a reference (the
/// loader keeps those in `components/x-apigen-querystring-parameters`).
fn querystring_component<'d>(
    doc: &'d OpenAPI,
    p: &ReferenceOr<Parameter>,
) -> Option<&'d serde_json::Value> {
    let ReferenceOr::Reference { reference } = p else {
        return None;
    };
    let name = reference.strip_prefix("#/components/parameters/")?;
    doc.components
        .as_ref()?
        .extensions
        .get("x-apigen-querystring-parameters")?
        .get(name)
}

impl Ctx<'_> {
    /// 3.2 `in: querystring`: the whole query string as one value. The loader moves such
    /// parameters to `x-apigen-querystring` (operation or path item); references to component
    /// ones stay in `parameters`. The operation's own wins over its path item's.
    fn query_string(
        &self,
        item: &PathItem,
        op: &openapiv3::Operation,
        path_at: &str,
        params: &[Param],
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Option<QueryString> {
        let mut found: Vec<(serde_json::Value, String)> = Vec::new();
        for (ext, parameters, at) in [
            (&op.extensions, &op.parameters, self.at),
            (&item.extensions, &item.parameters, path_at),
        ] {
            let mut here = Vec::new();
            if let Some(serde_json::Value::Array(list)) = ext.get("x-apigen-querystring") {
                let list_at = push(at, "x-apigen-querystring");
                for (i, p) in list.iter().enumerate() {
                    here.push((p.clone(), push(&list_at, &i.to_string())));
                }
            }
            for (i, p) in parameters.iter().enumerate() {
                if let Some(p) = querystring_component(self.doc, p) {
                    here.push((p.clone(), push(&push(at, "parameters"), &i.to_string())));
                }
            }
            if found.is_empty() {
                found = here;
            }
        }
        let mut found = found.into_iter();
        let (param, at) = found.next()?;
        for (_, other) in found {
            sink.error(
                other,
                "an operation has at most one `in: querystring` parameter",
            );
        }
        if let Some(q) = params.iter().find(|p| p.location == Location::Query) {
            sink.error(
                &at,
                format!(
                    "`in: querystring` describes the whole query string; it cannot be combined with the `in: query` parameter `{}`",
                    q.wire
                ),
            );
        }
        let name = param
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("query");
        let required = param
            .get("required")
            .and_then(|r| r.as_bool())
            .unwrap_or(false);
        let doc = doc_lines(param.get("description").and_then(|d| d.as_str()));
        let content = param.get("content").and_then(|c| c.as_object());
        let kind = match content.and_then(|c| c.iter().next()) {
            Some((media, value)) => {
                let essence = media
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                let schema_at = push(&push(&push(&at, "content"), media), "schema");
                let json = essence == "application/json" || essence.ends_with("+json");
                match value.get("schema") {
                    Some(schema) if json => {
                        let hint = format!("{}Query", self.stem);
                        match serde_json::from_value::<ReferenceOr<Schema>>(schema.clone()) {
                            Ok(s) => QueryStringKind::Json(schemas.type_of(
                                SchemaRef::of(&s),
                                &hint,
                                &schema_at,
                                sink,
                            )),
                            Err(e) => {
                                sink.error(&schema_at, format!("not a valid Schema: {e}"));
                                QueryStringKind::Raw
                            }
                        }
                    }
                    Some(schema) if essence == "application/x-www-form-urlencoded" => {
                        let hint = format!("{}Query", self.stem);
                        match serde_json::from_value::<ReferenceOr<Schema>>(schema.clone()) {
                            Ok(s) => {
                                let ty =
                                    schemas.type_of(SchemaRef::of(&s), &hint, &schema_at, sink);
                                if schemas.is_scalar(&ty) || matches!(ty, TypeRef::Vec(_)) {
                                    sink.warn(
                                        &schema_at,
                                        "a form-encoded query string is read into an object's fields; this schema is not an object, so the query string is passed as sent",
                                    );
                                    QueryStringKind::Raw
                                } else {
                                    QueryStringKind::Form(ty)
                                }
                            }
                            Err(e) => {
                                sink.error(&schema_at, format!("not a valid Schema: {e}"));
                                QueryStringKind::Raw
                            }
                        }
                    }
                    _ => {
                        sink.warn(
                            push(&push(&at, "content"), media),
                            format!(
                                "only `application/x-www-form-urlencoded` and JSON query strings are typed yet; `{media}` is passed as the query string as sent"
                            ),
                        );
                        QueryStringKind::Raw
                    }
                }
            }
            None => {
                sink.warn(
                    &at,
                    "an `in: querystring` parameter is described by `content`; without it the query string is passed as sent",
                );
                QueryStringKind::Raw
            }
        };
        let mut locals = Scope::reserving(&reserved::parameter_locals());
        for p in params {
            locals.claim(p.local.clone());
        }
        Some(QueryString {
            rust: locals.claim(naming::snake(name)),
            wire: name.to_string(),
            kind,
            required,
            doc,
        })
    }
}

/// A map sent member by member (`ObjectStyle::Rest`) is every pair nobody else names: beside
/// the other query parameters, the members of structs sent the same way and the query keys of
/// the operation's security schemes (a key must not land in the implementation's map).
fn rest_leaves_others(params: &mut [Param], security: &[Vec<String>], schemes: &[SecurityScheme]) {
    let mut taken: Vec<String> = params
        .iter()
        .filter_map(|p| match &p.object {
            Some(ObjectStyle::Members(names)) => Some(names.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    taken.extend(
        schemes
            .iter()
            .filter(|s| security.iter().flatten().any(|name| *name == s.name))
            .filter_map(|s| match &s.kind {
                SchemeKind::ApiKeyQuery(key) => Some(key.clone()),
                _ => None,
            }),
    );
    for p in params {
        if let Some(ObjectStyle::Rest(names)) = &mut p.object {
            for name in &taken {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
}

/// How an object-valued query parameter's members are sent, when the parameter is one: in
/// the query, of a type whose members are scalars (or lists of them), in `style: form` or
/// `deepObject`. `query_names` are the names of the operation's query parameters.
fn object_style(
    p: &Parameter,
    ty: &TypeRef,
    schemas: &Schemas<'_>,
    query_names: &[String],
) -> Option<ObjectStyle> {
    use openapiv3::QueryStyle;
    let Parameter::Query {
        parameter_data,
        style,
        ..
    } = p
    else {
        return None;
    };
    let members = schemas.query_object(ty)?;
    let explode = parameter_data.explode.unwrap_or(true);
    Some(match (style, members) {
        (QueryStyle::DeepObject, _) => ObjectStyle::Deep,
        (QueryStyle::Form, _) if !explode => ObjectStyle::Joined,
        (QueryStyle::Form, Some(members)) => ObjectStyle::Members(members),
        (QueryStyle::Form, None) => ObjectStyle::Rest(
            query_names
                .iter()
                .filter(|n| **n != parameter_data.name)
                .cloned()
                .collect(),
        ),
        // Objects in spaceDelimited or pipeDelimited: not written (the plain-string fallback
        // says so).
        _ => return None,
    })
}

/// How a parameter's value is written (`style`): the delimiter of an array's items and
/// whether a cookie is sent as it is. A style the generated code does not write is said, not
/// ignored. `object`: the value is an object written member by member (`object_style`).
fn style(p: &Parameter, ty: &TypeRef, object: bool, at: &str, sink: &mut Sink) -> (char, bool) {
    use openapiv3::{PathStyle, QueryStyle};
    let array = matches!(ty, TypeRef::Vec(_));
    match p {
        Parameter::Query { style, .. } => match style {
            QueryStyle::Form => (',', false),
            QueryStyle::SpaceDelimited if array => (' ', false),
            QueryStyle::PipeDelimited if array => ('|', false),
            QueryStyle::SpaceDelimited | QueryStyle::PipeDelimited => (',', false),
            QueryStyle::DeepObject if object => (',', false),
            QueryStyle::DeepObject => {
                sink.warn(
                    push(at, "style"),
                    "`deepObject` is for objects, which are passed as a plain string here: the value is written as `form`",
                );
                (',', false)
            }
        },
        Parameter::Path { style, .. } => {
            if !matches!(style, PathStyle::Simple) {
                let name = if matches!(style, PathStyle::Label) {
                    "label"
                } else {
                    "matrix"
                };
                sink.warn(
                    push(at, "style"),
                    format!("path style `{name}` is not written by the generated code: the value is read and written as `simple`"),
                );
            }
            (',', false)
        }
        Parameter::Cookie { parameter_data, .. } => {
            let cookie = parameter_data
                .extensions
                .get("x-apigen-style")
                .and_then(|v| v.as_str())
                == Some("cookie");
            if cookie && array {
                sink.warn(
                    push(at, "style"),
                    "an array cookie of `style: cookie` is read and written as `style: form` (its items percent-encoded)",
                );
                return (',', false);
            }
            (',', cookie)
        }
        Parameter::Header { .. } => (',', false),
    }
}

fn location(p: &Parameter) -> Location {
    match p {
        Parameter::Path { .. } => Location::Path,
        Parameter::Query { .. } => Location::Query,
        Parameter::Header { .. } => Location::Header,
        Parameter::Cookie { .. } => Location::Cookie,
    }
}

/// Path parameters against the template's `{names}`. A document may spell them apart
/// (openai: `{certificate_id}` described by a parameter `cert_id`): when the parameters
/// missing from the template and the names without a parameter are as many, each fills the
/// placeholder at its place, with a warning; otherwise a parameter the path cannot carry is
/// left out (a warning names it), and a name without a parameter is sent as written.
fn reconcile_path(path: &str, params: &mut Vec<Param>, pointers: &[String], sink: &mut Sink) {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        names.push(rest[start + 1..start + len].to_string());
        rest = &rest[start + len + 1..];
    }
    let in_path = |p: &Param| p.location == Location::Path;
    let orphans: Vec<usize> = (0..params.len())
        .filter(|&i| in_path(&params[i]) && !names.contains(&params[i].wire))
        .collect();
    let unfilled: Vec<&String> = names
        .iter()
        .filter(|n| !params.iter().any(|p| in_path(p) && &p.wire == *n))
        .collect();
    if !orphans.is_empty() && orphans.len() == unfilled.len() {
        for (&i, name) in orphans.iter().zip(&unfilled) {
            sink.warn(
                &pointers[i],
                format!(
                    "path parameter `{}` is not in the path `{path}`; it fills `{{{name}}}`, which no parameter describes",
                    params[i].wire
                ),
            );
            params[i].wire = name.to_string();
        }
        return;
    }
    for &i in orphans.iter().rev() {
        sink.warn(
            &pointers[i],
            format!(
                "path parameter `{}` is not in the path `{path}`: left out",
                params[i].wire
            ),
        );
        params.remove(i);
    }
}

/// The values of a media type's `example` and `examples` (a reference to
/// `#/components/examples/…` resolved; `externalValue`s and dangling references left out).
fn media_examples(doc: &OpenAPI, media: &MediaType) -> Vec<serde_json::Value> {
    let mut out: Vec<serde_json::Value> = media.example.iter().cloned().collect();
    for example in media.examples.values() {
        let found = match example {
            ReferenceOr::Item(e) => Some(e),
            ReferenceOr::Reference { reference } => reference
                .strip_prefix("#/components/examples/")
                .and_then(|name| doc.components.as_ref()?.examples.get(name))
                .and_then(|e| match e {
                    ReferenceOr::Item(e) => Some(e),
                    ReferenceOr::Reference { .. } => None,
                }),
        };
        if let Some(value) = found.and_then(|e| e.value.clone()) {
            out.push(value);
        }
    }
    out
}

/// Whether two body kinds are read by the same runtime reader.
fn same_reader(a: &BodyKind, b: &BodyKind) -> bool {
    matches!(
        (a, b),
        (BodyKind::Json(_), BodyKind::Json(_)) | (BodyKind::Form(_), BodyKind::Form(_))
    )
}

fn is_json(essence: &str) -> bool {
    essence == "application/json"
        || essence.ends_with("+json")
        || essence == "*/*"
        || essence == "application/*"
}

/// JSON first (it is what both sides understand best), then the document's order.
fn pick_content(content: &indexmap::IndexMap<String, MediaType>) -> Option<(&str, &MediaType)> {
    content
        .iter()
        .find(|(ct, _)| {
            let essence = ct
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            essence == "application/json" || essence.ends_with("+json")
        })
        .or_else(|| content.iter().next())
        .map(|(ct, m)| (ct.as_str(), m))
}

fn security(
    requirements: Option<&Vec<openapiv3::SecurityRequirement>>,
    schemes: &[SecurityScheme],
    at: &str,
    sink: &mut Sink,
) -> Vec<Vec<String>> {
    let Some(requirements) = requirements else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, req) in requirements.iter().enumerate() {
        let mut names: Vec<String> = Vec::new();
        let mut usable = true;
        for name in req.keys() {
            if schemes.iter().any(|s| &s.name == name) {
                names.push(name.clone());
            } else {
                sink.warn(
                    push(&push(at, "security"), &i.to_string()),
                    format!("security scheme `{name}` is not defined (or not supported); this alternative is ignored"),
                );
                usable = false;
            }
        }
        if usable {
            out.push(names);
        }
    }
    if out.is_empty() && !requirements.is_empty() && requirements.iter().all(|r| !r.is_empty()) {
        // Every alternative was unusable: keep the operation closed rather than open.
        out.push(vec!["<unsupported>".to_string()]);
    }
    out
}

/// The deprecation note and the response headers derived from `x-deprecation`.
fn deprecation(
    deprecated: bool,
    ext: Option<extensions::DeprecationExt>,
    routes: &BTreeMap<String, String>,
    base_path: &str,
    at: &str,
    sink: &mut Sink,
) -> (Option<Deprecation>, Vec<(String, String)>) {
    if !deprecated && ext.is_none() {
        return (None, Vec::new());
    }
    let Some(ext) = ext else {
        return (
            Some(Deprecation {
                note: "This operation is deprecated in the API description.".into(),
                sunset: None,
                replacement: None,
            }),
            Vec::new(),
        );
    };
    let mut headers = Vec::new();
    if let Some(since) = ext.since {
        headers.push(("deprecation".to_string(), format!("@{since}")));
    }
    if let Some((imf, _)) = &ext.sunset {
        headers.push(("sunset".to_string(), imf.clone()));
    }
    let successor = ext
        .replacement
        .as_ref()
        .and_then(|id| match routes.get(id) {
            Some(path) => Some((id.clone(), path.clone())),
            None => {
                sink.error(
                    push(at, "replacement"),
                    format!("no operation has the operationId `{id}`"),
                );
                None
            }
        });
    if let Some((_, path)) = &successor {
        headers.push((
            "link".to_string(),
            format!("<{base_path}{path}>; rel=\"successor-version\""),
        ));
    }
    let note = match (&ext.note, &ext.sunset, &successor) {
        (Some(n), _, _) => n.clone(),
        (None, Some((_, day)), Some((id, _))) => format!("Removed on {day}; use `{id}` instead."),
        (None, Some((_, day)), None) => format!("Removed on {day}."),
        (None, None, Some((id, _))) => format!("Use `{id}` instead."),
        (None, None, None) => "This operation is deprecated in the API description.".into(),
    };
    let sunset = ext
        .sunset_at
        .zip(ext.sunset.as_ref())
        .map(|(at, (_, day))| Sunset {
            at,
            day: day.clone(),
        });
    let replacement = successor.map(|(id, _)| id);
    (
        Some(Deprecation {
            note,
            sunset,
            replacement,
        }),
        headers,
    )
}

/// See [`Operation::default_succeeds`].
fn default_succeeds(responses: &[Response]) -> bool {
    !responses.iter().any(Response::is_success)
        && responses.iter().any(|r| r.status == Status::Default)
}

/// See [`Operation::success_enum`]: the successes (or the `default` read as success) differ
/// in how their bodies are read.
fn success_enum(responses: &[Response]) -> bool {
    let successes: Vec<&Response> = if default_succeeds(responses) {
        responses
            .iter()
            .filter(|r| r.status == Status::Default)
            .collect()
    } else {
        responses.iter().filter(|r| r.is_success()).collect()
    };
    fn kind(r: &Response) -> Option<&BodyKind> {
        r.body.as_ref().map(|b| &b.kind)
    }
    let same = |a: Option<&BodyKind>, b: Option<&BodyKind>| match (a, b) {
        (None, None) | (Some(BodyKind::Text), Some(BodyKind::Text)) => true,
        (Some(BodyKind::Bytes), Some(BodyKind::Bytes)) => true,
        // Both read as JSON (`raw.json`), whichever media type documents them.
        (
            Some(BodyKind::Json(x) | BodyKind::Form(x)),
            Some(BodyKind::Json(y) | BodyKind::Form(y)),
        ) => x == y,
        _ => false,
    };
    match successes.split_first() {
        Some((first, rest)) if !rest.is_empty() => !rest.iter().all(|r| same(kind(first), kind(r))),
        _ => false,
    }
}
