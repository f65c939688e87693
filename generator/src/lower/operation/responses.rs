//! Responses → `ir::Response`: statuses named, bodies typed, the headers the runtime does
//! not write itself, and what a client asks for in `Accept`.

use super::*;

impl Ctx<'_> {
    /// The headers a response documents, less those the runtime writes itself.
    pub(super) fn response_headers(
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
    pub(super) fn managed_header(&self, name: &str, status: &Status) -> bool {
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

    pub(super) fn responses(
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

/// The media types the client reads, as the document names them (without parameters), each
/// once: streamed answers first, then the successes', then the errors'; `None` when no
/// response has a body. Every one is named, so that a server choosing by `Accept` finds the
/// one it has (`*/*`, `audio/mpeg` beside a JSON error: answering `Accept: application/json`
/// alone, Prism says 406).
pub(super) fn accept_header(responses: &[Response]) -> Option<String> {
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

/// See [`Operation::default_succeeds`].
pub(super) fn default_succeeds(responses: &[Response]) -> bool {
    !responses.iter().any(Response::is_success)
        && responses.iter().any(|r| r.status == Status::Default)
}

/// See [`Operation::success_enum`]: the successes (or the `default` read as success) differ
/// in how their bodies are read.
pub(super) fn success_enum(responses: &[Response]) -> bool {
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
