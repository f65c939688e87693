//! Up-reading OpenAPI 3.1 and 3.2 into the 3.0 shape the `openapiv3` model holds, on the
//! document's JSON value, before it is deserialized. What 3.0 cannot say is carried in
//! `x-apigen-*` extensions that the lowering reads (see
//! book/src/reference/openapi-3.1.md); what nothing reads yet gets a warning naming its pointer. Every relocation is
//! recorded in [`Moves`], so diagnostics name the place in the user's document.

use super::moves::Moves;
use crate::diag::{Diagnostic, push};
use serde_json::{Map, Value};

/// The OpenAPI line a document declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Version {
    /// Swagger 2.0, rewritten as 3.0 by `swagger2` before anything else reads it.
    V20,
    V30,
    V31,
    V32,
}

/// The dialect 3.1 and 3.2 documents use unless they say otherwise, and the plain 2020-12
/// meta-schema, which reads the same for code generation.
const DEFAULT_DIALECTS: &[&str] = &[
    "https://spec.openapis.org/oas/3.1/dialect/base",
    "https://spec.openapis.org/oas/3.1/dialect/2024-10-25",
    "https://spec.openapis.org/oas/3.2/dialect/2025-09-17",
    "https://json-schema.org/draft/2020-12/schema",
];

/// A place in the document: where it is now (`out`) and where the user wrote it (`orig`).
#[derive(Debug, Clone)]
pub(super) struct Loc {
    pub out: String,
    pub orig: String,
}

impl Loc {
    fn root() -> Self {
        Loc {
            out: String::new(),
            orig: String::new(),
        }
    }

    pub fn child(&self, token: &str) -> Loc {
        Loc {
            out: push(&self.out, token),
            orig: push(&self.orig, token),
        }
    }

    /// The same user place, now standing at another key.
    pub fn renamed(&self, now: &str, was: &str) -> Loc {
        Loc {
            out: push(&self.out, now),
            orig: push(&self.orig, was),
        }
    }
}

pub(super) struct Normalizer {
    pub warnings: Vec<Diagnostic>,
    pub moves: Moves,
}

/// The result of up-reading: a document `openapiv3` reads, the warnings, and the moves.
pub struct Normalized {
    pub value: Value,
    pub version: Version,
    pub warnings: Vec<Diagnostic>,
    pub moves: Moves,
}

/// Up-reads a 3.1/3.2 document (a 3.0 one, or a converted 2.0 one, is returned unchanged).
pub fn normalize(mut value: Value, version: Version) -> Normalized {
    let mut n = Normalizer {
        warnings: Vec::new(),
        moves: Moves::default(),
    };
    super::canonical::canonical(&mut value);
    n.warnings.extend(super::ref_siblings::apply(&mut value));
    required_alternatives(&mut value);
    if version >= Version::V31 {
        super::dynamic::bind(&mut value, &mut n.moves);
        n.document(&mut value);
        // 3.0's `nullable` as the 3.1 reading left it (kept as written, or made from a type
        // list): a 3.1 document converted from 3.0 still writes `allOf: [{$ref: X},
        // {nullable: true}]` (openai's `tool_choice`), and a union with a nullable branch
        // admits `null` as a whole. Read as 3.0 reads them, a second stage of moves.
        let mut late = Normalizer {
            warnings: Vec::new(),
            moves: Moves::default(),
        };
        late.nullable_refs(&mut value, &Loc::root());
        n.moves = late.moves.after(std::mem::take(&mut n.moves));
    } else {
        n.definitions(&mut value);
        n.nullable_refs(&mut value, &Loc::root());
    }
    Normalized {
        value,
        version,
        warnings: n.warnings,
        moves: n.moves,
    }
}

/// Walks one kind of object in place: (normaliser, object, where, `components/mediaTypes`).
type Walk = fn(&mut Normalizer, &mut Value, &Loc, &Map<String, Value>);

pub const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

impl Normalizer {
    /// 3.0: component schemas' `definitions` (draft 4's `$defs`) hoisted as 3.1's `$defs` are,
    /// and the references into them rewritten.
    fn definitions(&mut self, doc: &mut Value) {
        let Some(components) = doc.get_mut("components").and_then(Value::as_object_mut) else {
            return;
        };
        let holds = |s: &Value| s.get("definitions").is_some_and(Value::is_object);
        if !components
            .get("schemas")
            .and_then(Value::as_object)
            .is_some_and(|schemas| schemas.values().any(holds))
        {
            return;
        }
        self.hoist(components, &Loc::root().child("components"), "definitions");
        if let Some(obj) = doc.as_object() {
            let refs = rewritten_def_refs(obj);
            if !refs.is_empty() {
                rewrite_refs(doc, &refs);
            }
        }
    }

    /// 3.0 (and 2.0 read as it): `{$ref: X, nullable: true}` becomes `{allOf: [{$ref: X}],
    /// nullable: true}`, and an `allOf` part that holds only `nullable: true` the whole's. OpenAPI 3.0 says keywords beside `$ref` are ignored, but documents
    /// that write this mean "X or null" (openai's `reasoning`, `response_format`), their
    /// servers send `null` there, and schemathesis reads it so; read literally, the generated
    /// server refused `null` with a 400 and the client could not decode it. 3.1 reads every
    /// sibling (`schema31::ref_siblings`). Example and default values are data, left alone.
    fn nullable_refs(&mut self, value: &mut Value, loc: &Loc) {
        self.nullable_refs_in(value, loc, false);
    }

    /// [`Self::nullable_refs`]; `names`: `value` is a map whose keys are names.
    fn nullable_refs_in(&mut self, value: &mut Value, loc: &Loc, names: bool) {
        match value {
            Value::Object(obj) => {
                // `allOf: [{$ref: X}, {nullable: true}]` (openai's `tool_choice`): a part that
                // says only `nullable` makes the whole nullable; merged as a part it made the
                // value an object of no known shape. The parts after it move up by one.
                if let Some(Value::Array(parts)) = obj.get_mut("allOf") {
                    let only_nullable = |p: &Value| {
                        p.as_object().is_some_and(|o| {
                            o.len() == 1 && o.get("nullable") == Some(&Value::Bool(true))
                        })
                    };
                    if parts.len() > 1 && parts.iter().any(only_nullable) {
                        let mut kept = Vec::new();
                        for (i, part) in std::mem::take(parts).into_iter().enumerate() {
                            if only_nullable(&part) {
                                continue;
                            }
                            let now = push(&push(&loc.out, "allOf"), &kept.len().to_string());
                            let was = push(&push(&loc.orig, "allOf"), &i.to_string());
                            self.moves.record(&now, &was, true);
                            kept.push(part);
                        }
                        *parts = kept;
                        obj.insert("nullable".into(), Value::Bool(true));
                    }
                }
                // `oneOf: [{type: string, nullable: true}, {type: array}]` (openai's `stop`):
                // `null` fits a branch, so it fits the whole; the union's reader, which tries
                // each branch's type, refused it with a 400.
                if !names
                    && ["oneOf", "anyOf"].iter().any(|key| {
                        obj.get(*key)
                            .and_then(Value::as_array)
                            .is_some_and(|branches| {
                                branches
                                    .iter()
                                    .any(|b| b.get("nullable") == Some(&Value::Bool(true)))
                            })
                    })
                {
                    obj.insert("nullable".into(), Value::Bool(true));
                }
                if obj.get("nullable") == Some(&Value::Bool(true))
                    && let Some(reference) = obj.get("$ref").filter(|r| r.is_string()).cloned()
                {
                    obj.remove("$ref");
                    obj.insert("allOf".into(), serde_json::json!([{ "$ref": reference }]));
                    self.moves
                        .record(&push(&push(&loc.out, "allOf"), "0"), &loc.orig, true);
                }
                for (key, child) in obj.iter_mut() {
                    // Values, not schemas: left alone. Inside a map of names (`properties`,
                    // `schemas`), a key is a name, so a property named `default` is walked.
                    let data = matches!(key.as_str(), "example" | "examples" | "default" | "enum");
                    if data && !names {
                        continue;
                    }
                    let named = matches!(
                        key.as_str(),
                        "properties" | "patternProperties" | "schemas" | "definitions" | "$defs"
                    );
                    self.nullable_refs_in(child, &loc.child(key), named && !names);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.nullable_refs_in(item, &loc.child(&i.to_string()), false);
                }
            }
            _ => {}
        }
    }

    pub fn warn(&mut self, loc: &Loc, message: impl Into<String>) {
        self.warnings
            .push(Diagnostic::warning(loc.orig.clone(), message));
    }

    fn document(&mut self, doc: &mut Value) {
        let root = Loc::root();
        let Some(obj) = doc.as_object_mut() else {
            return;
        };
        if let Some(dialect) = obj.get("jsonSchemaDialect").and_then(Value::as_str)
            && !DEFAULT_DIALECTS.contains(&dialect)
        {
            let dialect = dialect.to_string();
            self.warn(
                &root.child("jsonSchemaDialect"),
                format!("schemas are read as the OpenAPI dialect of JSON Schema 2020-12, not as `{dialect}`"),
            );
        }
        if let Some(info) = obj.get_mut("info").and_then(Value::as_object_mut) {
            rename(info, "summary", "x-apigen-summary");
            if let Some(license) = info.get_mut("license").and_then(Value::as_object_mut) {
                rename(license, "identifier", "x-apigen-identifier");
            }
        }
        // 3.1: a document may hold only components or webhooks.
        obj.entry("paths")
            .or_insert_with(|| Value::Object(Map::new()));

        // Components first: path items and media types are inlined from them below.
        let mut path_items = Map::new();
        let mut media_types = Map::new();
        if let Some(components) = obj.get_mut("components").and_then(Value::as_object_mut) {
            let at = root.child("components");
            self.hoist_defs(components, &at);
            self.security_schemes(components, &at);
            if let Some(Value::Object(mt)) = components.remove("mediaTypes") {
                media_types = mt;
            }
            self.components(components, &at, &media_types);
            if let Some(Value::Object(items)) = components.get_mut("pathItems") {
                let at = at.child("pathItems");
                for (name, item) in items.iter_mut() {
                    self.path_item(item, &at.child(name), &media_types);
                }
                path_items = items.clone();
            }
            // openapiv3 does not know the key; the items live on where they are used.
            rename(components, "pathItems", "x-apigen-path-items");
        }
        self.moves.record(
            "/components/x-apigen-path-items",
            "/components/pathItems",
            true,
        );
        let refs = rewritten_def_refs(obj);
        if !refs.is_empty() {
            rewrite_refs(doc, &refs);
        }
        let Some(obj) = doc.as_object_mut() else {
            return;
        };
        if let Some(Value::Object(paths)) = obj.get_mut("paths") {
            let at = root.child("paths");
            for (path, item) in paths.iter_mut() {
                let loc = at.child(path);
                self.inline_path_item(item, &loc, &path_items);
                self.path_item(item, &loc, &media_types);
            }
        }
        if let Some(Value::Object(mut hooks)) = obj.remove("webhooks") {
            let at = root.renamed("x-apigen-webhooks", "webhooks");
            self.moves.record(&at.out, &at.orig, true);
            for (name, item) in hooks.iter_mut() {
                let loc = at.child(name);
                self.inline_path_item(item, &loc, &path_items);
                self.path_item(item, &loc, &media_types);
            }
            obj.insert("x-apigen-webhooks".into(), Value::Object(hooks));
        }
    }

    fn components(&mut self, c: &mut Map<String, Value>, at: &Loc, media: &Map<String, Value>) {
        let kinds: [(&str, Walk); 6] = [
            ("schemas", |n, v, l, _| n.schema(v, l)),
            ("responses", Self::response),
            ("parameters", Self::parameter),
            ("requestBodies", Self::request_body),
            ("headers", Self::header),
            ("callbacks", Self::callback),
        ];
        for (kind, walk) in kinds {
            if let Some(Value::Object(items)) = c.get_mut(kind) {
                let kind_at = at.child(kind);
                for (name, item) in items.iter_mut() {
                    // Hoisted `$defs` carry where they were written.
                    let loc = match item.get("x-apigen-origin").and_then(Value::as_str) {
                        Some(orig) => Loc {
                            out: push(&kind_at.out, name),
                            orig: orig.to_string(),
                        },
                        None => kind_at.child(name),
                    };
                    walk(self, item, &loc, media);
                }
            }
        }
        // A `querystring` parameter is not a 3.0 parameter: keep it aside for the lowering.
        if let Some(Value::Object(params)) = c.get_mut("parameters") {
            let names: Vec<String> = params
                .iter()
                .filter(|(_, p)| is_querystring(p))
                .map(|(k, _)| k.clone())
                .collect();
            if !names.is_empty() {
                let mut aside = Map::new();
                for name in names {
                    if let Some(p) = params.remove(&name) {
                        aside.insert(name, p);
                    }
                }
                c.insert(
                    "x-apigen-querystring-parameters".into(),
                    Value::Object(aside),
                );
                self.moves.record(
                    &push(&at.out, "x-apigen-querystring-parameters"),
                    &push(&at.orig, "parameters"),
                    true,
                );
            }
        }
    }

    /// `mutualTLS` has no 3.0 counterpart; TLS is terminated before the generated code runs.
    fn security_schemes(&mut self, c: &mut Map<String, Value>, at: &Loc) {
        let Some(Value::Object(schemes)) = c.get_mut("securitySchemes") else {
            return;
        };
        let at = at.child("securitySchemes");
        let mtls: Vec<String> = schemes
            .iter()
            .filter(|(_, s)| s.get("type").and_then(Value::as_str) == Some("mutualTLS"))
            .map(|(k, _)| k.clone())
            .collect();
        for name in &mtls {
            schemes.remove(name);
            self.warn(
                &at.child(name),
                "security scheme type `mutualTLS` is checked where TLS ends, not by the generated code; operations that require it accept no credential here",
            );
        }
    }

    /// Replaces a path item `$ref` (3.1: into `components/pathItems`) by the item, with the
    /// reference's own `summary`/`description` winning.
    fn inline_path_item(&mut self, item: &mut Value, loc: &Loc, items: &Map<String, Value>) {
        let Some(reference) = item.get("$ref").and_then(Value::as_str) else {
            return;
        };
        let Some(name) = reference.strip_prefix("#/components/pathItems/") else {
            // Left as a reference: the lowering reports what it cannot follow.
            return;
        };
        let name = super::unescape(name);
        let Some(Value::Object(found)) = items.get(&name) else {
            return;
        };
        let mut merged = found.clone();
        if let Some(obj) = item.as_object() {
            for key in ["summary", "description"] {
                if let Some(v) = obj.get(key) {
                    merged.insert(key.into(), v.clone());
                }
            }
        }
        self.moves
            .record(&loc.out, &push("/components/pathItems", &name), false);
        *item = Value::Object(merged);
    }

    fn path_item(&mut self, item: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        let Some(obj) = item.as_object_mut() else {
            return;
        };
        if obj.contains_key("$ref") {
            return;
        }
        self.parameters(obj, loc, media);
        for method in METHODS {
            if let Some(op) = obj.get_mut(*method) {
                self.operation(op, &loc.child(method), media);
            }
        }
        // 3.2: the QUERY method and other methods, kept for the lowering under new names.
        if let Some(mut op) = obj.remove("query") {
            let at = loc.renamed("x-apigen-query", "query");
            self.moves.record(&at.out, &at.orig, true);
            self.operation(&mut op, &at, media);
            obj.insert("x-apigen-query".into(), op);
        }
        if let Some(mut ops) = obj.remove("additionalOperations") {
            let at = loc.renamed("x-apigen-additional-operations", "additionalOperations");
            self.moves.record(&at.out, &at.orig, true);
            if let Some(map) = ops.as_object_mut() {
                for (method, op) in map.iter_mut() {
                    self.operation(op, &at.child(method), media);
                }
            }
            obj.insert("x-apigen-additional-operations".into(), ops);
        }
    }

    fn operation(&mut self, op: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        let Some(obj) = op.as_object_mut() else {
            return;
        };
        self.parameters(obj, loc, media);
        if let Some(body) = obj.get_mut("requestBody") {
            self.request_body(body, &loc.child("requestBody"), media);
        }
        // 3.1: `responses` is no longer required.
        let responses = obj
            .entry("responses")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(map) = responses.as_object_mut() {
            let at = loc.child("responses");
            for (code, r) in map.iter_mut() {
                self.response(r, &at.child(code), media);
            }
        }
        if let Some(Value::Object(callbacks)) = obj.get_mut("callbacks") {
            let at = loc.child("callbacks");
            for (name, cb) in callbacks.iter_mut() {
                self.callback(cb, &at.child(name), media);
            }
        }
    }

    fn callback(&mut self, cb: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        if let Some(map) = cb.as_object_mut() {
            for (expr, item) in map.iter_mut() {
                if !expr.starts_with("x-") {
                    self.path_item(item, &loc.child(expr), media);
                }
            }
        }
    }

    /// Walks the parameters; `in: querystring` ones (3.2) move to `x-apigen-querystring`.
    fn parameters(&mut self, obj: &mut Map<String, Value>, loc: &Loc, media: &Map<String, Value>) {
        let Some(Value::Array(list)) = obj.remove("parameters") else {
            return;
        };
        let at = loc.child("parameters");
        let mut kept = Vec::new();
        let mut aside = Vec::new();
        for (i, mut p) in list.into_iter().enumerate() {
            let was = at.child(&i.to_string());
            if is_querystring(&p) {
                let now = loc.renamed("x-apigen-querystring", "parameters");
                let out = push(&now.out, &aside.len().to_string());
                self.moves.record(&out, &was.orig, true);
                let here = Loc {
                    out,
                    orig: was.orig.clone(),
                };
                self.parameter(&mut p, &here, media);
                aside.push(p);
            } else {
                let out = push(&at.out, &kept.len().to_string());
                self.moves.record(&out, &was.orig, true);
                let here = Loc {
                    out,
                    orig: was.orig,
                };
                self.parameter(&mut p, &here, media);
                kept.push(p);
            }
        }
        if !kept.is_empty() {
            obj.insert("parameters".into(), Value::Array(kept));
        }
        if !aside.is_empty() {
            obj.insert("x-apigen-querystring".into(), Value::Array(aside));
        }
    }

    fn parameter(&mut self, p: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        let Some(obj) = p.as_object_mut() else {
            return;
        };
        // 3.2: `style: cookie` (values as sent, no percent-encoding); the 3.0 model knows
        // only `form` for cookies.
        if obj.get("in").and_then(Value::as_str) == Some("cookie")
            && obj.get("style").and_then(Value::as_str) == Some("cookie")
        {
            obj.remove("style");
            obj.insert("x-apigen-style".into(), Value::String("cookie".into()));
        }
        if let Some(s) = obj.get_mut("schema") {
            self.schema(s, &loc.child("schema"));
        }
        self.content(obj, loc, media);
    }

    fn header(&mut self, h: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        self.parameter(h, loc, media);
    }

    fn request_body(&mut self, b: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        if let Some(obj) = b.as_object_mut() {
            self.content(obj, loc, media);
        }
    }

    fn response(&mut self, r: &mut Value, loc: &Loc, media: &Map<String, Value>) {
        let Some(obj) = r.as_object_mut() else {
            return;
        };
        if obj.contains_key("$ref") {
            return;
        }
        // 3.2: `description` is no longer required.
        if !obj.contains_key("description") {
            let text = obj
                .get("summary")
                .cloned()
                .unwrap_or(Value::String(String::new()));
            obj.insert("description".into(), text);
        }
        if let Some(Value::Object(headers)) = obj.get_mut("headers") {
            let at = loc.child("headers");
            for (name, h) in headers.iter_mut() {
                self.header(h, &at.child(name), media);
            }
        }
        self.content(obj, loc, media);
    }

    fn content(&mut self, obj: &mut Map<String, Value>, loc: &Loc, media: &Map<String, Value>) {
        let Some(Value::Object(content)) = obj.get_mut("content") else {
            return;
        };
        let at = loc.child("content");
        for (mime, m) in content.iter_mut() {
            let here = at.child(mime);
            // 3.2: a media type may be a reference into `components/mediaTypes`.
            if let Some(name) = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/mediaTypes/"))
                .map(super::unescape)
                && let Some(found) = media.get(&name)
            {
                let origin = push("/components/mediaTypes", &name);
                self.moves.record(&here.out, &origin, false);
                *m = found.clone();
                let from = Loc {
                    out: here.out.clone(),
                    orig: origin,
                };
                self.media_type(m, &from);
                continue;
            }
            self.media_type(m, &here);
        }
    }

    fn media_type(&mut self, m: &mut Value, loc: &Loc) {
        let Some(obj) = m.as_object_mut() else {
            return;
        };
        if let Some(s) = obj.get_mut("schema") {
            self.schema(s, &loc.child("schema"));
        }
        // 3.2 sequential media types: the schema of one item of the stream.
        if let Some(mut s) = obj.remove("itemSchema") {
            let at = loc.renamed("x-apigen-item-schema", "itemSchema");
            self.moves.record(&at.out, &at.orig, true);
            self.schema(&mut s, &at);
            obj.insert("x-apigen-item-schema".into(), s);
        }
        if let Some(Value::Object(enc)) = obj.get_mut("encoding") {
            let at = loc.child("encoding");
            for (name, e) in enc.iter_mut() {
                if let Some(Value::Object(headers)) = e.get_mut("headers") {
                    let at = at.child(name).child("headers");
                    for (h, v) in headers.iter_mut() {
                        let empty = Map::new();
                        self.header(v, &at.child(h), &empty);
                    }
                }
            }
        }
    }
}

/// `anyOf` (or `oneOf`) whose every branch only lists `required` properties (github's
/// `anyOf: [{required: [reviewers]}, {required: [team_reviewers]}]` beside `properties`)
/// becomes `x-apigen-required-any-of: [[reviewers], [team_reviewers]]`: beside `type: object`
/// the `openapiv3` model drops the key, and the rule ("one of these is present") is what the
/// lowering checks on the struct. A branch that says the object is empty (`maxProperties:
/// 0`, github's gist file) is the empty list `[]`; at least one branch must list names.
/// Likewise `not: {required: [a, b]}` becomes `x-apigen-not-all-of: [a, b]`.
fn required_alternatives(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            for key in ["anyOf", "oneOf"] {
                let groups: Option<Vec<Value>> =
                    obj.get(key).and_then(Value::as_array).and_then(|branches| {
                        branches
                            .iter()
                            .map(|b| {
                                let b = b.as_object()?;
                                if b.keys().all(|k| annotation(b, k) || k == "maxProperties")
                                    && b.get("maxProperties").and_then(Value::as_u64) == Some(0)
                                {
                                    return Some(Value::Array(Vec::new()));
                                }
                                required_only(b).map(Value::Array)
                            })
                            .collect()
                    });
                let names_some = |g: &Vec<Value>| {
                    g.iter()
                        .any(|l| l.as_array().is_some_and(|l| !l.is_empty()))
                };
                if let Some(groups) = groups.filter(names_some) {
                    obj.remove(key);
                    obj.insert("x-apigen-required-any-of".into(), Value::Array(groups));
                }
            }
            // `not: {required: [image_url, file_id]}` (openai's image references: one of
            // the two, not both): these properties are never all present.
            let not_all = obj
                .get("not")
                .and_then(Value::as_object)
                .and_then(required_only);
            if let Some(names) = not_all {
                obj.remove("not");
                obj.insert("x-apigen-not-all-of".into(), Value::Array(names));
            }
            for (key, child) in obj.iter_mut() {
                if !matches!(
                    key.as_str(),
                    "example" | "examples" | "default" | "enum" | "const"
                ) {
                    required_alternatives(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(required_alternatives),
        _ => {}
    }
}

/// The names of a schema that only lists `required` properties (beside annotations and
/// `type: object`), when it lists some.
fn required_only(schema: &Map<String, Value>) -> Option<Vec<Value>> {
    let only_required = schema
        .keys()
        .all(|k| annotation(schema, k) || k == "required");
    let required = schema.get("required")?.as_array()?;
    (only_required && !required.is_empty()).then(|| required.clone())
}

/// Whether member `key` of `schema` says nothing of the value: `description`, `title`,
/// `type: object` (in a branch of an object's `anyOf` or its `not`).
fn annotation(schema: &Map<String, Value>, key: &str) -> bool {
    matches!(key, "description" | "title") || key == "type" && schema[key] == "object"
}

fn is_querystring(p: &Value) -> bool {
    p.get("in").and_then(Value::as_str) == Some("querystring")
}

fn rename(obj: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = obj.remove(from) {
        obj.insert(to.into(), v);
    }
}

/// `#/components/schemas/X/$defs/Y` → the hoisted component's reference, for every `$defs`
/// entry hoisted by [`Normalizer::hoist_defs`].
fn rewritten_def_refs(doc: &Map<String, Value>) -> Vec<(String, String)> {
    let Some(Value::Object(schemas)) = doc.get("components").and_then(|c| c.get("schemas")) else {
        return Vec::new();
    };
    schemas
        .iter()
        .filter_map(|(name, s)| {
            let origin = s.get("x-apigen-origin")?.as_str()?;
            Some((
                format!("#{origin}"),
                format!("#{}", push("/components/schemas", name)),
            ))
        })
        .collect()
}

/// Rewrites every `$ref` string that points at or into an old place.
fn rewrite_refs(value: &mut Value, map: &[(String, String)]) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get_mut("$ref") {
                let best = map
                    .iter()
                    .filter(|(old, _)| {
                        r == old
                            || r.strip_prefix(old.as_str())
                                .is_some_and(|t| t.starts_with('/'))
                    })
                    .max_by_key(|(old, _)| old.len());
                if let Some((old, new)) = best {
                    *r = format!("{new}{}", &r[old.len()..]);
                }
            }
            for v in obj.values_mut() {
                rewrite_refs(v, map);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, map)),
        _ => {}
    }
}
