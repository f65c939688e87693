//! 2.0 paths, operations and responses into 3.0's: `consumes`/`produces` as media types,
//! an operation's own `schemes` as its `servers`, and the security schemes.

use super::*;

impl Converter {
    pub(super) fn paths(&mut self, value: &Value, loc: &Loc) -> Value {
        let mut out = Map::new();
        for (path, item) in value.as_object().into_iter().flatten() {
            if path.starts_with("x-") {
                out.insert(path.clone(), item.clone());
                continue;
            }
            let converted = self.path_item(item, &loc.child(path));
            out.insert(path.clone(), converted);
        }
        Value::Object(out)
    }

    pub(super) fn path_item(&mut self, item: &Value, loc: &Loc) -> Value {
        let Some(src) = item.as_object() else {
            return item.clone();
        };
        // Path-level body and form parameters belong to each operation's request body.
        let shared = self.split_parameters(src.get("parameters"), &loc.child("parameters"));
        let mut out = Map::new();
        if !shared.plain.is_empty() {
            out.insert("parameters".into(), Value::Array(shared.plain.clone()));
        }
        for (key, value) in src {
            match key.as_str() {
                "parameters" => {}
                m if METHODS.contains(&m) => {
                    let op = self.operation(value, &shared, &loc.child(m));
                    out.insert(key.clone(), op);
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Value::Object(out)
    }

    pub(super) fn operation(&mut self, op: &Value, shared: &Split, loc: &Loc) -> Value {
        let Some(src) = op.as_object() else {
            return op.clone();
        };
        let own = self.split_parameters(src.get("parameters"), &loc.child("parameters"));
        let consumes = match src.get("consumes") {
            Some(c) => strings(Some(c)),
            None => self.consumes.clone(),
        };
        let produces = match src.get("produces") {
            Some(p) => strings(Some(p)),
            None => self.produces.clone(),
        };
        // The operation's own body and form parameters win over its path's, by name.
        let body = own.body.clone().or_else(|| shared.body.clone());
        let mut form = own.form.clone();
        for (p, orig) in &shared.form {
            let name = p.get("name");
            if !form.iter().any(|(q, _)| q.get("name") == name) {
                form.push((p.clone(), orig.clone()));
            }
        }
        if body.is_some() && !form.is_empty() {
            self.error(
                &push(&loc.orig, "parameters"),
                "body and formData parameters exclude each other (Swagger 2.0)",
            );
        }
        let mut out = Map::new();
        for (key, value) in src {
            let here = loc.child(key);
            match key.as_str() {
                "parameters" => {
                    if !own.plain.is_empty() {
                        out.insert(key.clone(), Value::Array(own.plain.clone()));
                    }
                }
                "responses" => {
                    let mut responses = Map::new();
                    for (code, r) in value.as_object().into_iter().flatten() {
                        let converted = if code.starts_with("x-") {
                            r.clone()
                        } else {
                            self.response(r, &produces, &here.child(code))
                        };
                        responses.insert(code.clone(), converted);
                    }
                    out.insert(key.clone(), Value::Object(responses));
                }
                "consumes" | "produces" => {}
                "schemes" => {
                    let schemes = strings(Some(value));
                    if schemes != self.schemes {
                        let servers = self.servers(&schemes);
                        if !servers.is_empty() {
                            self.moves
                                .record(&push(&loc.out, "servers"), &here.orig, true);
                            out.insert("servers".into(), Value::Array(servers));
                        }
                    }
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        let body_at = push(&loc.out, "requestBody");
        if let Some((p, orig, reference)) = &body {
            let media = self.media(&consumes, false);
            let request = match reference {
                // The component was made with the document's media types.
                Some(name) if media == self.media(&self.consumes.clone(), false) => {
                    self.moves.record(&body_at, orig, true);
                    json!({ "$ref": push("#/components/requestBodies", name) })
                }
                _ => self.body(p, &media, &at(body_at, orig.clone())),
            };
            out.insert("requestBody".into(), request);
        } else if !form.is_empty() {
            let request = self.form(&form, &consumes, &body_at);
            out.insert("requestBody".into(), request);
        }
        Value::Object(out)
    }

    /// A response: its `schema` under each media type the operation produces, its headers'
    /// value keywords as schemas, `examples` by media type.
    pub(super) fn response(&mut self, r: &Value, produces: &[String], loc: &Loc) -> Value {
        let Some(src) = r.as_object() else {
            return r.clone();
        };
        if let Some(reference) = src.get("$ref").and_then(Value::as_str) {
            let Some(name) = reference.strip_prefix("#/responses/") else {
                return r.clone();
            };
            let name = crate::load::unescape(name);
            if !self.responses.contains_key(&name) {
                self.error(&loc.orig, format!("`{reference}` points at nothing"));
                return r.clone();
            }
            let own = self.media(produces, false);
            let document = self.media(&self.produces.clone(), false);
            if own == document || !has_schema(&self.response_of(&name)) {
                let rest = &reference["#/responses/".len()..];
                return json!({ "$ref": format!("#/components/responses/{rest}") });
            }
            // Produced otherwise than the document says: a copy with this operation's types.
            let Some(found) = self.response_of(&name) else {
                return json!({ "$ref": reference });
            };
            let written = at(loc.out.clone(), push("/responses", &name));
            self.moved(&written, true);
            return self.response(&found, produces, &written);
        }
        let media = self.media(produces, false);
        let examples = src.get("examples").and_then(Value::as_object);
        let mut out = Map::new();
        for (key, value) in src {
            let here = loc.child(key);
            match key.as_str() {
                "schema" => {
                    let mut content = Map::new();
                    for m in &media {
                        let schema_at = at(
                            push(&push(&push(&loc.out, "content"), m), "schema"),
                            here.orig.clone(),
                        );
                        self.moved(&schema_at, true);
                        let mut entry = Map::new();
                        entry.insert("schema".into(), self.schema(value, &schema_at));
                        if let Some(example) = examples.and_then(|e| e.get(m)) {
                            entry.insert("example".into(), example.clone());
                        }
                        content.insert(m.clone(), Value::Object(entry));
                    }
                    out.insert("content".into(), Value::Object(content));
                }
                "headers" => {
                    let mut headers = Map::new();
                    for (name, h) in value.as_object().into_iter().flatten() {
                        let h_at = here.child(name);
                        let Some(h) = h.as_object() else {
                            continue;
                        };
                        let mut header = Map::new();
                        for (k, v) in h {
                            if k == "description" || (k.starts_with("x-") && k != "x-nullable") {
                                header.insert(k.clone(), v.clone());
                            }
                        }
                        if let Some((style, explode)) = self.style(h, "header", &h_at) {
                            header.insert("style".into(), json!(style));
                            header.insert("explode".into(), json!(explode));
                        }
                        let schema_at = at(push(&h_at.out, "schema"), h_at.orig.clone());
                        self.moved(&schema_at, true);
                        header.insert("schema".into(), self.value_schema(h, &schema_at));
                        headers.insert(name.clone(), Value::Object(header));
                    }
                    out.insert(key.clone(), Value::Object(headers));
                }
                "examples" => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        // Examples without a schema (oai's api-with-examples): a body the document shows but
        // does not describe. Each is content of its own media type with no schema (any
        // value), so that the example is kept and answered, not dropped with the response's
        // body.
        if !src.contains_key("schema")
            && let Some(examples) = examples.filter(|e| !e.is_empty())
        {
            let here = loc.child("examples");
            let mut content = Map::new();
            for (m, example) in examples {
                let media_at = at(push(&push(&loc.out, "content"), m), here.orig.clone());
                self.moved(&media_at, true);
                content.insert(m.clone(), json!({ "example": example }));
            }
            out.insert("content".into(), Value::Object(content));
        }
        Value::Object(out)
    }

    pub(super) fn response_of(&self, name: &str) -> Option<Value> {
        self.responses.get(name).cloned()
    }

    pub(super) fn security_scheme(&mut self, s: &Value, loc: &Loc) -> Option<Value> {
        let src = s.as_object()?;
        let mut out = Map::new();
        let kind = src.get("type").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "basic" => {
                out.insert("type".into(), json!("http"));
                out.insert("scheme".into(), json!("basic"));
            }
            "apiKey" => {
                out.insert("type".into(), json!("apiKey"));
                for key in ["name", "in"] {
                    if let Some(v) = src.get(key) {
                        out.insert(key.into(), v.clone());
                    }
                }
            }
            "oauth2" => {
                let flow = src.get("flow").and_then(Value::as_str).unwrap_or_default();
                let (name, urls): (&str, &[&str]) = match flow {
                    "implicit" => ("implicit", &["authorizationUrl"]),
                    "password" => ("password", &["tokenUrl"]),
                    "application" => ("clientCredentials", &["tokenUrl"]),
                    "accessCode" => ("authorizationCode", &["authorizationUrl", "tokenUrl"]),
                    other => {
                        self.error(
                            &push(&loc.orig, "flow"),
                            format!("`{other}` is not an OAuth2 flow of Swagger 2.0 (implicit, password, application, accessCode)"),
                        );
                        return None;
                    }
                };
                let mut f = Map::new();
                for url in urls {
                    if let Some(v) = src.get(*url) {
                        f.insert((*url).into(), v.clone());
                    }
                }
                f.insert(
                    "scopes".into(),
                    src.get("scopes").cloned().unwrap_or_else(|| json!({})),
                );
                out.insert("type".into(), json!("oauth2"));
                out.insert("flows".into(), json!({ name: Value::Object(f) }));
            }
            other => {
                self.error(
                    &push(&loc.orig, "type"),
                    format!("`{other}` is not a security scheme type of Swagger 2.0 (basic, apiKey, oauth2)"),
                );
                return None;
            }
        }
        for (key, value) in src {
            if key == "description" || key.starts_with("x-") {
                out.insert(key.clone(), value.clone());
            }
        }
        Some(Value::Object(out))
    }
}
