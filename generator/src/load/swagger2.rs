//! Owns reading Swagger 2.0: a 2.0 document (already made one file by `refs`) is rewritten as
//! the OpenAPI 3.0 document a careful person would write by hand, on its JSON value, before
//! anything else reads it. Every rule is one function (here, in `schemas`, `parameters` or
//! `operations`) and has a test in `tests/swagger2.rs`; decisions in
//! book/src/reference/swagger-2.md.
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
//!
//! Decision: `docs/decisions/0032-swagger-2.md`.

use super::moves::Moves;
use super::normalize::Loc;
use crate::diag::{Diagnostic, push};
use serde_json::{Map, Value, json};

mod operations;
mod parameters;
mod schemas;

use parameters::{Split, has_schema};

/// A 2.0 document rewritten as 3.0.
pub(crate) struct Converted {
    pub value: Value,
    pub moves: Moves,
    pub warnings: Vec<Diagnostic>,
    pub errors: Vec<Diagnostic>,
}

/// Rewrites a Swagger 2.0 document as OpenAPI 3.0.3.
pub(crate) fn convert(doc: &Value) -> Converted {
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
}
