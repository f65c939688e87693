//! The document's `webhooks` → `ir::Webhook`: one per operation of each webhook's path item,
//! with its JSON payload typed.

use super::*;

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
