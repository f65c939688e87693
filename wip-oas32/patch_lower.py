p='generator/src/lower/operation.rs'
s=open(p).read()
def rep(old,new,count=1):
    global s
    assert old in s, old[:90]
    s=s.replace(old,new,count)
rep('''use crate::ir::{
    Body, BodyKind, Deprecation, Location, Operation, Param, Response, ResponseBody,
    ResponseHeader, SecurityScheme, Status, TypeRef,
};''','''use crate::ir::{
    Body, BodyKind, Deprecation, ItemStream, Location, Operation, Param, Response, ResponseBody,
    ResponseHeader, SecurityScheme, Status, StreamFormat, TypeRef, Webhook, WebhookPayload,
};''')
rep('''use openapiv3::{
    MediaType, OpenAPI, Parameter, ParameterSchemaOrContent, PathItem, ReferenceOr, StatusCode,
};''','''use openapiv3::{
    MediaType, OpenAPI, Parameter, ParameterSchemaOrContent, PathItem, ReferenceOr, Schema,
    StatusCode,
};''')
# request body with itemSchema: warn
rep('''        let (content_type, media) = pick_content(&body.content)?;
        let media_at = push(&push(&at, "content"), content_type);''','''        let (content_type, media) = pick_content(&body.content)?;
        let media_at = push(&push(&at, "content"), content_type);
        if media.extensions.contains_key("x-apigen-item-schema") {
            sink.warn(
                push(&media_at, "x-apigen-item-schema"),
                "streamed request bodies are not supported yet; the body is sent and read whole, by its `schema`",
            );
        }''')
# responses: stream kinds
rep('''            let body = pick_content(&resp.content).map(|(ct, media)| ResponseBody {
                content_type: ct.to_string(),
                kind: self.body_kind(
                    ct,
                    media,
                    &hint,
                    &push(&push(&resolved_at, "content"), ct),
                    schemas,
                    sink,
                ),
            });''','''            let body = pick_content(&resp.content).map(|(ct, media)| {
                let media_at = push(&push(&resolved_at, "content"), ct);
                let streamed = media.extensions.get("x-apigen-item-schema").and_then(|item| {
                    let item_hint = format!("{}{variant}Item", self.stem);
                    stream_kind(ct, item, &item_hint, &media_at, schemas, sink)
                });
                ResponseBody {
                    content_type: ct.to_string(),
                    kind: match streamed {
                        Some(kind) => kind,
                        None => self.body_kind(ct, media, &hint, &media_at, schemas, sink),
                    },
                }
            });''')
rep('''fn location(p: &Parameter) -> Location {''','''/// A response described by 3.2's `itemSchema`: read item by item. `None` (with a warning) for
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
    let mut type_of = |value: &serde_json::Value, at: &str, sink: &mut Sink| {
        match serde_json::from_value::<ReferenceOr<Schema>>(value.clone()) {
            Ok(s) => schemas.type_of(SchemaRef::of(&s), hint, at, sink),
            Err(e) => {
                sink.warn(at, format!("not a schema we can read ({e}); items are free-form JSON"));
                TypeRef::Json
            }
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
                let is_string = matches!(data.get("type").and_then(|t| t.as_str()), None | Some("string"));
                if let Some(content) = data.get("contentSchema") {
                    (StreamFormat::Events, type_of(content, &push(&data_at, "contentSchema"), sink))
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

fn location(p: &Parameter) -> Location {''')
open(p,'w').write(s)

p='generator/src/lower/mod.rs'
s=open(p).read()
rep('''    let mut operations =
        operation::lower_all(doc, &mut schemas, &security_schemes, &base_path, sink);
    let mut types = schemas.types;''','''    let mut operations =
        operation::lower_all(doc, &mut schemas, &security_schemes, &base_path, sink);
    let webhooks = operation::lower_webhooks(doc, &mut schemas, sink);
    let dispatchers = dispatchers(&operations);
    let mut types = schemas.types;''')
rep('''        rate_limit: extensions::rate_limit(&doc.extensions, sink),
    }
}''','''        rate_limit: extensions::rate_limit(&doc.extensions, sink),
        dispatchers,
        webhooks,
    }
}

/// The paths with a method axum's method filter cannot name; each gets one dispatch function
/// over all its methods (a `GET` also answers `HEAD` unless the path declares one).
fn dispatchers(operations: &[Operation]) -> Vec<Dispatcher> {
    let mut paths: Vec<(&str, Vec<&Operation>)> = Vec::new();
    for op in operations {
        match paths.iter_mut().find(|(p, _)| *p == op.path) {
            Some((_, ops)) => ops.push(op),
            None => paths.push((&op.path, vec![op])),
        }
    }
    let mut scope = Scope::new();
    let mut out = Vec::new();
    for (path, ops) in paths {
        if ops.iter().all(|o| o.standard_method) {
            continue;
        }
        let mut methods: Vec<(String, String)> = Vec::new();
        for op in &ops {
            methods.push((op.method.clone(), op.rust.clone()));
            if op.method == "GET" && !ops.iter().any(|o| o.method == "HEAD") {
                methods.push(("HEAD".to_string(), op.rust.clone()));
            }
        }
        let allow = methods
            .iter()
            .map(|(m, _)| m.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let stem = naming::snake(path);
        let stem = if stem.is_empty() { "root".to_string() } else { stem };
        out.push(Dispatcher {
            path: path.to_string(),
            rust: scope.claim(format!("dispatch_{stem}")),
            methods,
            allow,
        });
    }
    out
}''')
rep('''use crate::ir::{Api, SchemeKind, SecurityScheme, Server};''','''use crate::ir::{Api, Dispatcher, Operation, SchemeKind, SecurityScheme, Server};''')
open(p,'w').write(s)

p='generator/src/lib.rs'
s=open(p).read()
rep('''    let rendered: Vec<(&str, Result<String, String>)>''','''    let mut jobs = jobs;
    if !api.webhooks.is_empty() {
        jobs.push((
            "server/src/webhooks.rs",
            Box::new(|| emit::webhooks::server_rs(api)),
        ));
        jobs.push((
            "client/src/webhooks.rs",
            Box::new(|| emit::webhooks::client_rs(api)),
        ));
    }
    let rendered: Vec<(&str, Result<String, String>)>''')
open(p,'w').write(s)
p='generator/src/emit/mod.rs'
s=open(p).read()
import re
m=re.search(r'pub mod types;\n',s)
assert m
s=s.replace('pub mod types;\n','pub mod types;\npub mod webhooks;\n',1)
open(p,'w').write(s)
