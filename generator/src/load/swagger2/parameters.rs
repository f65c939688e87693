//! 2.0 parameters into 3.0's: `collectionFormat` as `style`/`explode`, a `body` parameter
//! and `formData` ones as one `requestBody`, and the component parameters.

use super::*;

impl Converter {
    /// `collectionFormat` (default `csv`) → `style` and `explode`, for an array in `place`.
    pub(super) fn style(
        &mut self,
        src: &Map<String, Value>,
        place: &str,
        loc: &Loc,
    ) -> Option<(&'static str, bool)> {
        if src.get("type").and_then(Value::as_str) != Some("array") {
            return None;
        }
        let format = src
            .get("collectionFormat")
            .and_then(Value::as_str)
            .unwrap_or("csv");
        let at = push(&loc.orig, "collectionFormat");
        let found = match (place, format) {
            ("query", "csv") | ("formData", "csv") => ("form", false),
            ("query", "multi") | ("formData", "multi") => ("form", true),
            ("query", "ssv") => ("spaceDelimited", false),
            ("query", "pipes") => ("pipeDelimited", false),
            ("path" | "header", "csv") => ("simple", false),
            (_, "tsv") => {
                self.warn(
                    &at,
                    "`tsv` has no OpenAPI 3 style: values are read and written comma-separated",
                );
                if place == "path" || place == "header" {
                    ("simple", false)
                } else {
                    ("form", false)
                }
            }
            (_, other) => {
                self.warn(
                    &at,
                    format!("`{other}` is not a collection format of a {place} parameter in OpenAPI 3: values are read and written comma-separated"),
                );
                if place == "path" || place == "header" {
                    ("simple", false)
                } else {
                    ("form", false)
                }
            }
        };
        Some(found)
    }

    /// A query, path or header parameter.
    pub(super) fn parameter(&mut self, src: &Map<String, Value>, loc: &Loc) -> Value {
        let place = src.get("in").and_then(Value::as_str).unwrap_or_default();
        let mut out = Map::new();
        for (key, value) in src {
            match key.as_str() {
                "name" | "in" | "description" | "required" | "allowEmptyValue" | "example"
                | "deprecated" => {
                    out.insert(key.clone(), value.clone());
                }
                k if k.starts_with("x-") && k != "x-nullable" => {
                    out.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
        if place == "path" {
            out.insert("required".into(), json!(true));
        }
        if let Some((style, explode)) = self.style(src, place, loc) {
            out.insert("style".into(), json!(style));
            out.insert("explode".into(), json!(explode));
        }
        let schema_at = at(push(&loc.out, "schema"), loc.orig.clone());
        self.moved(&schema_at, true);
        let schema = self.value_schema(src, &schema_at);
        out.insert("schema".into(), schema);
        Value::Object(out)
    }

    /// The document's `parameters`: query/path/header ones → `components/parameters`, body
    /// ones → `components/requestBodies`; `formData` ones are copied where they are used.
    pub(super) fn component_parameters(
        &mut self,
        value: &Value,
        components: &mut Map<String, Value>,
    ) {
        let mut params = Map::new();
        let mut bodies = Map::new();
        for (name, p) in value.as_object().into_iter().flatten() {
            let orig = push("/parameters", name);
            let Some(src) = p.as_object() else {
                self.error(&orig, "a parameter is an object");
                continue;
            };
            match src.get("in").and_then(Value::as_str) {
                Some("body") => {
                    let loc = at(push("/components/requestBodies", name), orig);
                    let consumes = self.media(&self.consumes.clone(), false);
                    bodies.insert(name.clone(), self.body(src, &consumes, &loc));
                }
                Some("formData") => {}
                Some(_) => {
                    let loc = at(push("/components/parameters", name), orig);
                    self.moved(&loc, true);
                    params.insert(name.clone(), self.parameter(src, &loc));
                }
                None => self.error(&orig, "a parameter needs `in`"),
            }
        }
        if !params.is_empty() {
            components.insert("parameters".into(), Value::Object(params));
        }
        if !bodies.is_empty() {
            components.insert("requestBodies".into(), Value::Object(bodies));
        }
    }

    /// The media types of a body: those given (the operation's or the document's), else
    /// JSON; `form`: of a form body, leaving out the others.
    pub(super) fn media(&self, given: &[String], form: bool) -> Vec<String> {
        if form {
            return given.iter().filter(|m| is_form(m)).cloned().collect();
        }
        if given.is_empty() {
            vec![DEFAULT_MEDIA.into()]
        } else {
            given.to_vec()
        }
    }

    /// A `body` parameter → a request body with its schema under each media type.
    pub(super) fn body(&mut self, src: &Map<String, Value>, media: &[String], loc: &Loc) -> Value {
        self.moved(loc, false);
        let mut out = Map::new();
        if let Some(d) = src.get("description") {
            out.insert("description".into(), d.clone());
        }
        let Some(schema) = src.get("schema") else {
            self.error(&loc.orig, "a body parameter needs a `schema`");
            return Value::Object(out);
        };
        let examples = src.get("examples").and_then(Value::as_object);
        let mut content = Map::new();
        for media in media {
            let media_at = at(push(&push(&loc.out, "content"), media), loc.orig.clone());
            self.moved(&media_at, true);
            let schema_at = at(push(&media_at.out, "schema"), push(&loc.orig, "schema"));
            self.moved(&schema_at, true);
            let mut m = Map::new();
            m.insert("schema".into(), self.schema(schema, &schema_at));
            if let Some(example) = examples.and_then(|e| e.get(media)) {
                m.insert("example".into(), example.clone());
            }
            content.insert(media.clone(), Value::Object(m));
        }
        out.insert("content".into(), Value::Object(content));
        if src.get("required").and_then(Value::as_bool) == Some(true) {
            out.insert("required".into(), json!(true));
        }
        for (key, value) in src {
            if key.starts_with("x-") {
                out.insert(key.clone(), value.clone());
            }
        }
        Value::Object(out)
    }

    /// `formData` parameters (each with where it was written) → a request body whose schema
    /// is an object with a property per parameter.
    pub(super) fn form(
        &mut self,
        params: &[(Map<String, Value>, String)],
        consumes: &[String],
        out_at: &str,
    ) -> Value {
        let has_file = params
            .iter()
            .any(|(p, _)| p.get("type").and_then(Value::as_str) == Some("file"));
        let mut media = self.media(consumes, true);
        if has_file && !media.iter().any(|m| m.starts_with(MULTIPART)) {
            if media.iter().any(|m| m.starts_with(FORM)) {
                let (_, orig) = &params[0];
                self.warn(
                    orig,
                    "a file parameter cannot be sent URL-encoded: the form is read as multipart/form-data",
                );
            }
            media = vec![MULTIPART.into()];
        }
        if media.is_empty() {
            media = vec![FORM.into()];
        }
        // The body as a whole stands for the operation's form parameters.
        let params_at = match out_at.strip_suffix("/requestBody") {
            Some(op) => format!("{}/parameters", self.moves.original(op)),
            None => String::new(),
        };
        self.moves.record(out_at, &params_at, true);
        let mut content = Map::new();
        for m in &media {
            self.moves
                .record(&push(&push(out_at, "content"), m), &params_at, true);
            let schema_out = push(&push(&push(out_at, "content"), m), "schema");
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut encoding = Map::new();
            for (p, orig) in params {
                let Some(name) = p.get("name").and_then(Value::as_str) else {
                    self.error(orig, "a parameter needs a `name`");
                    continue;
                };
                let loc = at(push(&push(&schema_out, "properties"), name), orig.clone());
                self.moved(&loc, true);
                let mut schema = self.value_schema(p, &loc);
                if let (Some(d), Some(obj)) = (p.get("description"), schema.as_object_mut()) {
                    obj.insert("description".into(), d.clone());
                }
                properties.insert(name.to_string(), schema);
                if p.get("required").and_then(Value::as_bool) == Some(true) {
                    required.push(json!(name));
                }
                if let Some((style, explode)) = self.style(p, "formData", &loc) {
                    encoding.insert(
                        name.to_string(),
                        json!({ "style": style, "explode": explode }),
                    );
                }
            }
            let mut schema = Map::new();
            schema.insert("type".into(), json!("object"));
            schema.insert("properties".into(), Value::Object(properties));
            if !required.is_empty() {
                schema.insert("required".into(), Value::Array(required.clone()));
            }
            let mut entry = Map::new();
            entry.insert("schema".into(), Value::Object(schema));
            if !encoding.is_empty() {
                entry.insert("encoding".into(), Value::Object(encoding));
            }
            content.insert(m.clone(), Value::Object(entry));
        }
        let mut out = Map::new();
        out.insert("content".into(), Value::Object(content));
        if params
            .iter()
            .any(|(p, _)| p.get("required").and_then(Value::as_bool) == Some(true))
        {
            out.insert("required".into(), json!(true));
        }
        Value::Object(out)
    }

    /// A parameter list split into the parameters 3.0 keeps (query, path, header; with their
    /// new places) and the body and form ones.
    pub(super) fn split_parameters(&mut self, list: Option<&Value>, loc: &Loc) -> Split {
        let mut split = Split::default();
        for (i, p) in list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let orig = push(&loc.orig, &i.to_string());
            let out = push(&loc.out, &split.plain.len().to_string());
            let Some(src) = p.as_object() else {
                self.error(&orig, "a parameter is an object");
                continue;
            };
            // A reference to the document's `parameters`: what it is decides where it goes.
            let (src, written_at, reference) = match src.get("$ref").and_then(Value::as_str) {
                Some(r) => match r.strip_prefix("#/parameters/").map(crate::load::unescape) {
                    Some(name) => match self.parameters.get(&name).and_then(Value::as_object) {
                        Some(found) => (found.clone(), push("/parameters", &name), Some(name)),
                        None => {
                            self.error(&orig, format!("`{r}` points at nothing"));
                            continue;
                        }
                    },
                    None => {
                        // Not into `parameters`: kept as written for the later checks to judge.
                        self.moves.record(&out, &orig, true);
                        split.plain.push(p.clone());
                        continue;
                    }
                },
                None => (src.clone(), orig.clone(), None),
            };
            match src.get("in").and_then(Value::as_str) {
                Some("body") => {
                    if split.body.is_some() {
                        self.error(&orig, "an operation has at most one body parameter");
                    }
                    split.body = Some((src, written_at, reference));
                }
                Some("formData") => split.form.push((src, written_at)),
                Some("query" | "path" | "header") => {
                    self.moves.record(&out, &orig, true);
                    match reference {
                        Some(name) => split
                            .plain
                            .push(json!({ "$ref": push("#/components/parameters", &name) })),
                        None => {
                            let converted = self.parameter(&src, &at(out, orig));
                            split.plain.push(converted);
                        }
                    }
                }
                Some(other) => self.error(
                    &push(&written_at, "in"),
                    format!("`{other}` is not a place of a Swagger 2.0 parameter (query, header, path, formData, body)"),
                ),
                None => self.error(&written_at, "a parameter needs `in`"),
            }
        }
        split
    }
}

/// The parameters of a path item or an operation, sorted by what 3.0 makes of them.
#[derive(Default, Clone)]
pub(super) struct Split {
    /// Query, path and header parameters, converted (or `$ref`s to components).
    pub(super) plain: Vec<Value>,
    /// The body parameter: as written, where, and the component it came from.
    pub(super) body: Option<(Map<String, Value>, String, Option<String>)>,
    /// Form parameters, as written, with where.
    pub(super) form: Vec<(Map<String, Value>, String)>,
}

pub(super) fn is_form(media: &str) -> bool {
    media.starts_with(FORM) || media.starts_with(MULTIPART)
}

pub(super) fn has_schema(r: &Option<Value>) -> bool {
    r.as_ref().is_some_and(|r| r.get("schema").is_some())
}
