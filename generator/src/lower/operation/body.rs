//! Request bodies → `ir::Body`: the media type read, the others also taken (JSON, form,
//! a multipart twin), the type the server checks, and response streams (3.2 `itemSchema`).

use super::*;

impl Ctx<'_> {
    pub(super) fn body(
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
        let mut raw_media = Vec::new();
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
            // Another media type of a bytes or text body (`image/jpeg` beside `image/png`):
            // the same bytes, which the caller labels. A text body takes other text only, which
            // it reads as text.
            let raw = !is_json(&essence)
                && essence != "application/x-www-form-urlencoded"
                && !essence.starts_with("multipart/")
                && !essence.ends_with("/xml")
                && !essence.ends_with("+xml");
            let raw_alike = match &kind {
                BodyKind::Bytes => !crate::ir::is_multipart_form(content_type),
                BodyKind::Text => essence.starts_with("text/"),
                _ => false,
            };
            if alternative.is_none() && raw && raw_alike {
                raw_media.push(other.clone());
                continue;
            }
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
        // The media type the document's `encoding` gives a multipart part (the first of a
        // list: `image/png, image/jpeg` names what the server takes, the client sends one).
        let part_media = match checked_as {
            Some(_) => media
                .encoding
                .iter()
                .filter_map(|(name, encoding)| {
                    let first = encoding.content_type.as_deref()?.split(',').next()?.trim();
                    (!first.is_empty() && !first.contains('*'))
                        .then(|| (name.clone(), first.to_owned()))
                })
                .collect(),
            None => Vec::new(),
        };
        Some(Body {
            required: body.required,
            content_type: content_type.to_string(),
            kind,
            alternatives,
            raw_media,
            checked_as,
            part_media,
            constraints,
            check_ty,
            doc: doc_lines(body.description.as_deref()),
            held: None,
            multipart_held: None,
            examples: media_examples(self.doc, media),
        })
    }

    pub(super) fn body_kind(
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
            // `format: binary` says the string is bytes (a file of any type, as
            // api.github.com's release assets are): read as bytes, never refused as text that
            // is not UTF-8.
            let binary = media.schema.as_ref().is_some_and(|s| {
                schemas.constraints(SchemaRef::of(s)).format.as_deref() == Some("binary")
            });
            match schema_ty(schemas, sink) {
                TypeRef::String if binary => BodyKind::Bytes,
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
}

/// A response described by 3.2's `itemSchema`: read item by item. `None` (with a warning) for
/// a media type we do not stream, whose body is then read whole like any other.
///
/// For `text/event-stream` the item schema describes the event's fields; the item type is
/// that of `data`: its `contentSchema` when it has one (JSON in the data), text when `data` is
/// a plain string. Without a `data` property the whole item schema is read as the schema of
/// each event's JSON data (a common shorthand), with a warning.
pub(super) fn stream_kind(
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

/// The values of a media type's `example` and `examples` (a reference to
/// `#/components/examples/…` resolved; `externalValue`s and dangling references left out).
pub(super) fn media_examples(doc: &OpenAPI, media: &MediaType) -> Vec<serde_json::Value> {
    example_values(doc, media.example.as_ref(), &media.examples)
}

/// The values of an `example` and an `examples` map (a media type's or a parameter's), in
/// document order: a reference to `#/components/examples/…` resolved; `externalValue`s and
/// dangling references left out.
pub(super) fn example_values(
    doc: &OpenAPI,
    example: Option<&serde_json::Value>,
    examples: &indexmap::IndexMap<String, ReferenceOr<openapiv3::Example>>,
) -> Vec<serde_json::Value> {
    let mut out: Vec<serde_json::Value> = example.into_iter().cloned().collect();
    for example in examples.values() {
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
pub(super) fn same_reader(a: &BodyKind, b: &BodyKind) -> bool {
    matches!(
        (a, b),
        (BodyKind::Json(_), BodyKind::Json(_)) | (BodyKind::Form(_), BodyKind::Form(_))
    )
}

pub(super) fn is_json(essence: &str) -> bool {
    essence == "application/json"
        || essence.ends_with("+json")
        || essence == "*/*"
        || essence == "application/*"
}

/// JSON first (it is what both sides understand best), then the document's order.
pub(super) fn pick_content(
    content: &indexmap::IndexMap<String, MediaType>,
) -> Option<(&str, &MediaType)> {
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
