//! Owns reading Swagger 2.0: a 2.0 document (already made one file by `refs`) is rewritten as
//! the OpenAPI 3.0 document a careful person would write by hand, on its JSON value, before
//! anything else reads it. Every rule is one function below and has a test in
//! `tests_swagger2.rs`; decisions in docs/architecture.md, "Swagger 2.0".
//!
//! - `host`, `basePath`, `schemes` → `servers` (`https` when no scheme is given; an
//!   operation's own `schemes` → its own `servers`);
//! - `consumes`/`produces` (the operation's, else the document's, else `application/json`) →
//!   the media types of request bodies and responses;
//! - a `body` parameter → `requestBody`; `formData` parameters → one `requestBody` whose
//!   schema is an object of them (`multipart/form-data` when one is a `file`, else what
//!   `consumes` says, else `application/x-www-form-urlencoded`);
//! - `type`/`format`/`items`/bounds of other parameters and of headers → `schema`;
//!   `collectionFormat` → `style`/`explode`;
//! - `definitions`, `parameters`, `responses`, `securityDefinitions` → `components` (a body
//!   parameter → `requestBodies`; a `formData` one is copied where it is used), `$ref`s
//!   rewritten to match;
//! - in schemas: `type: file` → binary string, a string `discriminator` → `propertyName`,
//!   `x-nullable` → `nullable`; every other `x-` extension is kept where it stood.
//!
//! Each rewrite is recorded in [`Moves`], so problems are reported where the 2.0 document
//! says them.

use super::moves::Moves;
use super::normalize::Loc;
use crate::diag::{Diagnostic, push};
use serde_json::{Map, Value, json};

/// A 2.0 document rewritten as 3.0.
pub(super) struct Converted {
    pub value: Value,
    pub moves: Moves,
    pub warnings: Vec<Diagnostic>,
    pub errors: Vec<Diagnostic>,
}

/// Rewrites a Swagger 2.0 document as OpenAPI 3.0.3.
pub(super) fn convert(doc: &Value) -> Converted {
    let mut c = Converter {
        moves: Moves::default(),
        warnings: Vec::new(),
        errors: Vec::new(),
        consumes: Vec::new(),
        produces: Vec::new(),
        parameters: Map::new(),
        responses: Map::new(),
        definitions: Default::default(),
        schemes: Vec::new(),
        host: None,
        base_path: None,
    };
    let value = c.document(doc);
    Converted {
        value,
        moves: c.moves,
        warnings: c.warnings,
        errors: c.errors,
    }
}

/// The media type of bodies when neither the operation nor the document says.
const DEFAULT_MEDIA: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";
const MULTIPART: &str = "multipart/form-data";
const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch"];

/// The keywords of a 2.0 non-body parameter, header or items object that describe its value
/// (they become its `schema`).
const VALUE_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "items",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "enum",
    "multipleOf",
    "x-nullable",
];

struct Converter {
    moves: Moves,
    warnings: Vec<Diagnostic>,
    errors: Vec<Diagnostic>,
    /// The document's `consumes` and `produces`.
    consumes: Vec<String>,
    produces: Vec<String>,
    /// The document's `parameters` and `responses`, as written.
    parameters: Map<String, Value>,
    responses: Map<String, Value>,
    /// The names in `definitions`.
    definitions: std::collections::BTreeSet<String>,
    schemes: Vec<String>,
    host: Option<String>,
    base_path: Option<String>,
}

fn root() -> Loc {
    Loc {
        out: String::new(),
        orig: String::new(),
    }
}

/// A place that now stands at `out` and was written at `orig`.
fn at(out: impl Into<String>, orig: impl Into<String>) -> Loc {
    Loc {
        out: out.into(),
        orig: orig.into(),
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl Converter {
    fn error(&mut self, orig: &str, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(orig, message));
    }

    fn warn(&mut self, orig: &str, message: impl Into<String>) {
        self.warnings.push(Diagnostic::warning(orig, message));
    }

    /// Records that what is at `loc.out` (and below) was written at `loc.orig`.
    fn moved(&mut self, loc: &Loc, whole: bool) {
        self.moves.record(&loc.out, &loc.orig, whole);
    }

    fn document(&mut self, doc: &Value) -> Value {
        let Some(src) = doc.as_object() else {
            self.error("", "a Swagger 2.0 document is an object (a YAML mapping)");
            return Value::Null;
        };
        match src.get("swagger").and_then(Value::as_str) {
            Some("2.0") => {}
            other => {
                let v = other.map_or_else(|| src["swagger"].to_string(), str::to_string);
                self.error(
                    "/swagger",
                    format!("Swagger {v} is not supported; this generator reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x"),
                );
                return Value::Null;
            }
        }
        self.consumes = strings(src.get("consumes"));
        self.produces = strings(src.get("produces"));
        self.schemes = strings(src.get("schemes"));
        self.host = src.get("host").and_then(Value::as_str).map(str::to_string);
        self.base_path = src
            .get("basePath")
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(Value::Object(p)) = src.get("parameters") {
            self.parameters = p.clone();
        }
        if let Some(Value::Object(r)) = src.get("responses") {
            self.responses = r.clone();
        }
        if let Some(Value::Object(d)) = src.get("definitions") {
            self.definitions = d.keys().cloned().collect();
        }
        let mut out = Map::new();
        out.insert("openapi".into(), json!("3.0.3"));
        self.moves.record("/openapi", "/swagger", true);
        let mut components = Map::new();
        for (key, value) in src {
            let here = root().child(key);
            match key.as_str() {
                "swagger" | "consumes" | "produces" | "host" | "basePath" | "schemes" => {}
                "info" | "tags" | "externalDocs" | "security" => {
                    out.insert(key.clone(), value.clone());
                }
                "paths" => {
                    let paths = self.paths(value, &here);
                    out.insert("paths".into(), paths);
                }
                "definitions" => {
                    let loc = at("/components/schemas", "/definitions");
                    self.moved(&loc, true);
                    let schemas = self.schemas(value, &loc);
                    components.insert("schemas".into(), schemas);
                }
                "parameters" => self.component_parameters(value, &mut components),
                "responses" => {
                    let loc = at("/components/responses", "/responses");
                    self.moved(&loc, true);
                    let mut responses = Map::new();
                    for (name, r) in value.as_object().into_iter().flatten() {
                        let produces = self.produces.clone();
                        let converted = self.response(r, &produces, &loc.child(name));
                        responses.insert(name.clone(), converted);
                    }
                    components.insert("responses".into(), Value::Object(responses));
                }
                "securityDefinitions" => {
                    let loc = at("/components/securitySchemes", "/securityDefinitions");
                    self.moved(&loc, true);
                    let mut schemes = Map::new();
                    for (name, s) in value.as_object().into_iter().flatten() {
                        if let Some(s) = self.security_scheme(s, &loc.child(name)) {
                            schemes.insert(name.clone(), s);
                        }
                    }
                    components.insert("securitySchemes".into(), Value::Object(schemes));
                }
                k if k.starts_with("x-") => {
                    out.insert(key.clone(), value.clone());
                }
                other => self.warn(
                    &here.orig,
                    format!("`{other}` is not a field of a Swagger 2.0 document; it is left out"),
                ),
            }
        }
        let servers = self.servers(&self.schemes.clone());
        if !servers.is_empty() {
            let from = if self.host.is_some() {
                "/host"
            } else {
                "/basePath"
            };
            self.moves.record("/servers", from, true);
            for i in 0..servers.len() {
                self.moves.record(&format!("/servers/{i}/url"), from, true);
            }
            out.insert("servers".into(), Value::Array(servers));
        }
        if !components.is_empty() {
            // The order a person writes them in.
            let order = [
                "schemas",
                "parameters",
                "requestBodies",
                "responses",
                "securitySchemes",
            ];
            let mut sorted = Map::new();
            for key in order {
                if let Some(v) = components.remove(key) {
                    sorted.insert(key.into(), v);
                }
            }
            out.insert("components".into(), Value::Object(sorted));
        }
        // `paths` is required in 3.0 as in 2.0; an empty one if the document left it out
        // is what it means.
        out.entry("paths").or_insert_with(|| json!({}));
        Value::Object(out)
    }

    /// `host` + `basePath` + each of `schemes` → a server URL.
    fn servers(&self, schemes: &[String]) -> Vec<Value> {
        let base = self.base_path.clone().unwrap_or_default();
        let base = base.trim_end_matches('/');
        match &self.host {
            Some(host) => {
                let schemes: Vec<String> = if schemes.is_empty() {
                    vec!["https".into()]
                } else {
                    schemes.to_vec()
                };
                schemes
                    .iter()
                    .map(|s| json!({ "url": format!("{s}://{host}{base}") }))
                    .collect()
            }
            None if !base.is_empty() => vec![json!({ "url": base })],
            None => Vec::new(),
        }
    }

    fn schemas(&mut self, value: &Value, loc: &Loc) -> Value {
        let mut out = Map::new();
        for (name, s) in value.as_object().into_iter().flatten() {
            out.insert(name.clone(), self.schema(s, &loc.child(name)));
        }
        Value::Object(out)
    }

    /// A 2.0 schema in 3.0 terms (the same keywords but for `type: file`, a string
    /// `discriminator` and `x-nullable`, and references into `definitions`).
    fn schema(&mut self, s: &Value, loc: &Loc) -> Value {
        let Some(src) = s.as_object() else {
            return s.clone();
        };
        let file = src.get("type").and_then(Value::as_str) == Some("file");
        let mut out = Map::new();
        for (key, value) in src {
            let here = loc.child(key);
            match key.as_str() {
                "$ref" => {
                    let rewritten = self.schema_ref(value, loc);
                    out.insert(key.clone(), rewritten);
                }
                "type" if file => {
                    out.insert("type".into(), json!("string"));
                    out.insert("format".into(), json!("binary"));
                }
                "format" if file => {}
                "x-nullable" => {
                    if value.as_bool() == Some(true) {
                        out.insert("nullable".into(), json!(true));
                    }
                }
                "discriminator" => {
                    let d = match value {
                        Value::String(name) => json!({ "propertyName": name }),
                        other => other.clone(),
                    };
                    out.insert(key.clone(), d);
                }
                "properties" | "patternProperties" | "definitions" => {
                    out.insert(key.clone(), self.schemas(value, &here));
                }
                "items" | "additionalProperties" | "not" if value.is_object() => {
                    out.insert(key.clone(), self.schema(value, &here));
                }
                "items" | "allOf" | "anyOf" | "oneOf" if value.is_array() => {
                    let list = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .map(|(i, item)| self.schema(item, &here.child(&i.to_string())))
                        .collect();
                    out.insert(key.clone(), Value::Array(list));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Value::Object(out)
    }

    /// The schema of a non-body parameter, a header or an items object: its value keywords.
    fn value_schema(&mut self, src: &Map<String, Value>, loc: &Loc) -> Value {
        let mut schema = Map::new();
        for key in VALUE_KEYWORDS {
            let Some(value) = src.get(*key) else {
                continue;
            };
            match *key {
                "items" => {
                    let here = loc.child("items");
                    let items = match value.as_object() {
                        // A `$ref` or a full schema where an items object belongs: read it as
                        // the schema it is.
                        Some(m) if m.contains_key("$ref") || m.contains_key("properties") => {
                            self.schema(value, &here)
                        }
                        Some(m) => {
                            if m.get("type").and_then(Value::as_str) == Some("array")
                                && m.get("collectionFormat")
                                    .and_then(Value::as_str)
                                    .is_some_and(|f| f != "csv")
                            {
                                self.warn(
                                    &push(&here.orig, "collectionFormat"),
                                    "a collection format of items inside items has no OpenAPI 3 style; inner arrays are read comma-separated",
                                );
                            }
                            self.value_schema(m, &here)
                        }
                        None => value.clone(),
                    };
                    schema.insert("items".into(), items);
                }
                "type" if value.as_str() == Some("file") => {
                    schema.insert("type".into(), json!("string"));
                    schema.insert("format".into(), json!("binary"));
                }
                "format" if src.get("type").and_then(Value::as_str) == Some("file") => {}
                "x-nullable" => {
                    if value.as_bool() == Some(true) {
                        schema.insert("nullable".into(), json!(true));
                    }
                }
                _ => {
                    schema.insert((*key).into(), value.clone());
                }
            }
        }
        // Extensions on the object describe the value too (`x-example` stays on the
        // parameter, as it is written there).
        Value::Object(schema)
    }

    /// `collectionFormat` (default `csv`) → `style` and `explode`, for an array in `place`.
    fn style(
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
    fn parameter(&mut self, src: &Map<String, Value>, loc: &Loc) -> Value {
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
    fn component_parameters(&mut self, value: &Value, components: &mut Map<String, Value>) {
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
    fn media(&self, given: &[String], form: bool) -> Vec<String> {
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
    fn body(&mut self, src: &Map<String, Value>, media: &[String], loc: &Loc) -> Value {
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
    fn form(
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

    fn paths(&mut self, value: &Value, loc: &Loc) -> Value {
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

    fn path_item(&mut self, item: &Value, loc: &Loc) -> Value {
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

    /// A parameter list split into the parameters 3.0 keeps (query, path, header; with their
    /// new places) and the body and form ones.
    fn split_parameters(&mut self, list: Option<&Value>, loc: &Loc) -> Split {
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
                Some(r) => match r.strip_prefix("#/parameters/").map(super::unescape) {
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

    fn operation(&mut self, op: &Value, shared: &Split, loc: &Loc) -> Value {
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
    fn response(&mut self, r: &Value, produces: &[String], loc: &Loc) -> Value {
        let Some(src) = r.as_object() else {
            return r.clone();
        };
        if let Some(reference) = src.get("$ref").and_then(Value::as_str) {
            let Some(name) = reference.strip_prefix("#/responses/") else {
                return r.clone();
            };
            let name = super::unescape(name);
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

    /// `#/definitions/X` → `#/components/schemas/X` (and what is below it); a name that is
    /// not in `definitions` is an error in the document's own spelling.
    fn schema_ref(&mut self, r: &Value, loc: &Loc) -> Value {
        let Some(text) = r.as_str() else {
            return r.clone();
        };
        let Some(rest) = text.strip_prefix("#/definitions/") else {
            return r.clone();
        };
        let name = super::unescape(rest.split('/').next().unwrap_or_default());
        if !self.definitions.contains(&name) {
            self.error(&loc.orig, format!("`{text}` points at nothing"));
        }
        json!(format!("#/components/schemas/{rest}"))
    }

    fn response_of(&self, name: &str) -> Option<Value> {
        self.responses.get(name).cloned()
    }

    fn security_scheme(&mut self, s: &Value, loc: &Loc) -> Option<Value> {
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

/// The parameters of a path item or an operation, sorted by what 3.0 makes of them.
#[derive(Default, Clone)]
struct Split {
    /// Query, path and header parameters, converted (or `$ref`s to components).
    plain: Vec<Value>,
    /// The body parameter: as written, where, and the component it came from.
    body: Option<(Map<String, Value>, String, Option<String>)>,
    /// Form parameters, as written, with where.
    form: Vec<(Map<String, Value>, String)>,
}

fn is_form(media: &str) -> bool {
    media.starts_with(FORM) || media.starts_with(MULTIPART)
}

fn has_schema(r: &Option<Value>) -> bool {
    r.as_ref().is_some_and(|r| r.get("schema").is_some())
}
