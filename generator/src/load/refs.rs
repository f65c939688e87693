//! Owns external references: a document split over several files becomes one document, as if
//! its author had written it in one file, before anything else reads it.
//!
//! Where a `$ref` into another file stands in place of an object that has a home in
//! `components` (a schema, parameter, response, request body, header, example, link, callback
//! or security scheme; in Swagger 2.0 `definitions`, `parameters`, `responses`), the object is
//! copied there once, under a name taken from the file or the pointer (`schemas/Pet.yaml` →
//! `Pet`, `common.yaml#/Error` → `Error`), and the `$ref` is rewritten to point at it: the same
//! file reached by two ways is one component, so one type. A component of the root file that
//! is nothing but such a `$ref` takes the object itself, under its own name. A path item, or an
//! operation (not allowed by the specification, but written by split documents and accepted
//! by the bundlers people use), has no home, so it is copied in place. Each copy is walked in
//! turn with its own file as the base of its references; files that refer back to each other
//! (cycles) meet the name already given. `$ref`s in places that hold no OpenAPI object (`x-`
//! extensions, examples' values) are left as they are.
//!
//! Every copy is recorded in [`Moves`], so a problem found later is reported in the file where
//! it was written (`schemas/Pet.yaml#/properties/id`). A file or a place that is not there,
//! a remote (`http(s)://`) reference and a cycle of bare `$ref`s are errors at the referring
//! file and pointer; nothing is skipped.

use super::moves::Moves;
use super::source::{Source, join};
use crate::diag::{Diagnostic, place, push};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

mod targets;

use targets::{annotated_ref, overlay};

/// A document with every reference into another file resolved.
pub(super) struct Bundled {
    pub value: Value,
    /// From pointers of the bundled document to the places the user wrote (`file#pointer`).
    pub moves: Moves,
    /// The files read besides the root, in the order first reached.
    pub files: Vec<String>,
    /// Their texts, for finding the line of a problem.
    pub texts: BTreeMap<String, String>,
    /// References that could not be followed (the document is then not generated).
    pub errors: Vec<Diagnostic>,
    /// References followed where the specification puts none (a map or list kept elsewhere).
    pub warnings: Vec<Diagnostic>,
}

/// Whether `doc` needs [`bundle`]: it refers to another file, or it holds a path item or an
/// operation that is a `$ref` (copied in place, wherever it points).
pub(super) fn needed(doc: &Value) -> bool {
    fn external(v: &Value) -> bool {
        match v {
            Value::Object(map) => map.iter().any(|(k, v)| {
                (k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#'))) || external(v)
            }),
            Value::Array(items) => items.iter().any(external),
            _ => false,
        }
    }
    let item_ref = |item: &Value| {
        item.get("$ref").is_some()
            || METHODS
                .iter()
                .any(|m| item.get(*m).is_some_and(|op| op.get("$ref").is_some()))
    };
    let items = |key: &str| {
        doc.get(key)
            .and_then(Value::as_object)
            .is_some_and(|m| m.values().any(item_ref))
    };
    items("paths") || items("webhooks") || external(doc) || container_ref(doc) || text_ref(doc)
}

/// Whether a text (`description`, …) anywhere is a reference (`Bundler::texts_of`).
fn text_ref(v: &Value) -> bool {
    match v {
        Value::Object(map) => map.iter().any(|(k, v)| {
            let is_ref = v
                .as_object()
                .is_some_and(|o| o.len() == 1 && o.get("$ref").is_some_and(Value::is_string));
            (TEXT_KEYS.contains(&k.as_str()) && is_ref) || text_ref(v)
        }),
        Value::Array(items) => items.iter().any(text_ref),
        _ => false,
    }
}

/// Keywords whose value is a map or list of objects (`properties`, `parameters`, …).
const CONTAINERS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
    "parameters",
    "responses",
    "headers",
    "content",
    "examples",
    "links",
    "callbacks",
];

/// Whether a map or list of objects anywhere is a reference (`Bundler::container`).
fn container_ref(v: &Value) -> bool {
    match v {
        Value::Object(map) => map.iter().any(|(k, v)| {
            let is_ref = v
                .as_object()
                .is_some_and(|o| o.len() == 1 && o.get("$ref").is_some_and(Value::is_string));
            (CONTAINERS.contains(&k.as_str()) && is_ref) || container_ref(v)
        }),
        Value::Array(items) => items.iter().any(container_ref),
        _ => false,
    }
}

/// Reads every file `root`'s references reach through `source` and makes one document of
/// them. `doc` is the root's own content, already read.
pub(super) fn bundle(root: &str, doc: Value, source: &dyn Source) -> Bundled {
    let swagger2 = doc.get("swagger").is_some();
    let mut b = Bundler {
        source,
        root: root.to_string(),
        swagger2,
        parsed: BTreeMap::new(),
        texts: BTreeMap::new(),
        files: Vec::new(),
        hoisted: BTreeMap::new(),
        taken: BTreeMap::new(),
        added: Vec::new(),
        inlining: Vec::new(),
        moves: Moves::default(),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    b.parsed.insert(root.to_string(), Ok(doc.clone()));
    let mut doc = doc;
    b.claim_components(&doc);
    b.document(&mut doc);
    b.errors.sort();
    b.errors.dedup();
    b.insert_added(&mut doc);
    Bundled {
        value: doc,
        moves: b.moves,
        files: b.files,
        texts: b.texts,
        errors: b.errors,
        warnings: b.warnings,
    }
}

/// The kinds of object a `$ref` may stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Schema,
    Parameter,
    Response,
    RequestBody,
    Header,
    Example,
    Link,
    Callback,
    SecurityScheme,
    PathItem,
    Operation,
    MediaType,
}

/// Keywords whose value is text, where a reference is read as the text it points at
/// (`Bundler::texts_of`).
const TEXT_KEYS: &[&str] = &["description", "summary", "title"];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// Component kinds of OpenAPI 3 and where they live.
const HOMES_3: &[(Kind, &str)] = &[
    (Kind::Schema, "schemas"),
    (Kind::Parameter, "parameters"),
    (Kind::Response, "responses"),
    (Kind::RequestBody, "requestBodies"),
    (Kind::Header, "headers"),
    (Kind::Example, "examples"),
    (Kind::Link, "links"),
    (Kind::SecurityScheme, "securitySchemes"),
];

/// Swagger 2.0's homes, at the document's top level.
const HOMES_2: &[(Kind, &str)] = &[
    (Kind::Schema, "definitions"),
    (Kind::Parameter, "parameters"),
    (Kind::Response, "responses"),
    (Kind::SecurityScheme, "securityDefinitions"),
];

/// Where a `$ref` stands: the file and the pointer in it, and the pointer in the document
/// being built.
#[derive(Debug, Clone)]
struct Cx {
    file: String,
    ptr: String,
    out: String,
}

impl Cx {
    fn child(&self, token: &str) -> Cx {
        Cx {
            file: self.file.clone(),
            ptr: push(&self.ptr, token),
            out: push(&self.out, token),
        }
    }
}

/// A place in a file: (file, JSON pointer).
type Target = (String, String);

struct Bundler<'a> {
    source: &'a dyn Source,
    root: String,
    swagger2: bool,
    /// Each file read, as JSON (or why it could not be read).
    parsed: BTreeMap<String, Result<Value, String>>,
    texts: BTreeMap<String, String>,
    files: Vec<String>,
    /// Place copied into a component → its kind and name.
    hoisted: BTreeMap<Target, (Kind, String)>,
    /// Names in use per kind.
    taken: BTreeMap<Kind, BTreeSet<String>>,
    /// Components to add, in the order they were made.
    added: Vec<(Kind, String, Value)>,
    /// Path items and operations being copied in place (a cycle among them is an error).
    inlining: Vec<Target>,
    moves: Moves,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl Bundler<'_> {
    fn home(&self, kind: Kind) -> Option<&'static str> {
        let homes = if self.swagger2 { HOMES_2 } else { HOMES_3 };
        homes.iter().find(|(k, _)| *k == kind).map(|(_, h)| *h)
    }

    /// The pointer of a component's home (`/components/schemas`, 2.0: `/definitions`).
    fn home_pointer(&self, home: &str) -> String {
        if self.swagger2 {
            push("", home)
        } else {
            push("/components", home)
        }
    }

    fn error(&mut self, cx: &Cx, message: String) {
        self.errors
            .push(Diagnostic::error(self.place(&cx.file, &cx.ptr), message));
    }

    fn place(&self, file: &str, ptr: &str) -> String {
        place((file != self.root).then_some(file), ptr)
    }

    /// The names of the root's components, claimed first; a component that is nothing but a
    /// reference into another file takes that place's object under its own name.
    fn claim_components(&mut self, doc: &Value) {
        let homes = if self.swagger2 { HOMES_2 } else { HOMES_3 };
        for (kind, home) in homes {
            let container = if self.swagger2 {
                doc.get(*home)
            } else {
                doc.get("components").and_then(|c| c.get(*home))
            };
            let Some(map) = container.and_then(Value::as_object) else {
                continue;
            };
            for name in map.keys() {
                self.taken.entry(*kind).or_default().insert(name.clone());
            }
            for (name, item) in map {
                let Some(reference) = annotated_ref(item) else {
                    continue;
                };
                if reference.starts_with('#') {
                    continue;
                }
                let cx = Cx {
                    file: self.root.clone(),
                    ptr: push(&self.home_pointer(home), name),
                    out: push(&self.home_pointer(home), name),
                };
                // Errors are reported when the component itself is walked.
                if let Ok(target) = self.follow(reference, &cx)
                    && target.0 != self.root
                {
                    self.hoisted
                        .entry(target)
                        .or_insert_with(|| (*kind, name.clone()));
                }
            }
        }
    }

    fn document(&mut self, doc: &mut Value) {
        let root = Cx {
            file: self.root.clone(),
            ptr: String::new(),
            out: String::new(),
        };
        self.texts_of(doc, &root);
        let Some(obj) = doc.as_object_mut() else {
            return;
        };
        // The document's own texts: its `info` and its tags'.
        if let Some(info) = obj.get_mut("info") {
            self.texts_of(info, &root.child("info"));
        }
        if let Some(Value::Array(tags)) = obj.get_mut("tags") {
            let at = root.child("tags");
            for (i, tag) in tags.iter_mut().enumerate() {
                self.texts_of(tag, &at.child(&i.to_string()));
            }
        }
        for key in ["paths", "webhooks"] {
            if let Some(Value::Object(items)) = obj.get_mut(key) {
                let at = root.child(key);
                for (name, item) in items.iter_mut() {
                    if !name.starts_with("x-") {
                        self.walk(item, Kind::PathItem, &at.child(name));
                    }
                }
            }
        }
        let homes = if self.swagger2 { HOMES_2 } else { HOMES_3 };
        let (container, at) = if self.swagger2 {
            (Some(&mut *obj), root.clone())
        } else {
            (
                obj.get_mut("components").and_then(Value::as_object_mut),
                root.child("components"),
            )
        };
        let Some(container) = container else {
            return;
        };
        for (kind, home) in homes {
            if let Some(Value::Object(items)) = container.get_mut(*home) {
                let at = at.child(home);
                for (name, item) in items.iter_mut() {
                    self.component(item, *kind, &at.child(name));
                }
            }
        }
        if !self.swagger2 {
            for (key, kind) in [
                ("pathItems", Kind::PathItem),
                ("mediaTypes", Kind::MediaType),
            ] {
                if let Some(Value::Object(items)) = container.get_mut(key) {
                    let at = at.child(key);
                    for (name, item) in items.iter_mut() {
                        self.walk(item, kind, &at.child(name));
                    }
                }
            }
        }
    }

    /// A component of the root file: one that only refers to another file's object becomes
    /// that object (its `summary`/`description` beside the `$ref` winning).
    fn component(&mut self, item: &mut Value, kind: Kind, cx: &Cx) {
        let Some(reference) = item.get("$ref").and_then(Value::as_str).map(str::to_string) else {
            return self.walk(item, kind, cx);
        };
        if reference.starts_with('#') || annotated_ref(item).is_none() {
            return self.walk(item, kind, cx);
        }
        let target = match self.follow(&reference, cx) {
            Ok(t) => t,
            Err(message) => return self.error(cx, message),
        };
        let claimed = self.hoisted.get(&target).map(|(_, n)| n.as_str());
        let own_name = cx.out.rsplit('/').next().map(super::unescape);
        if target.0 == self.root || claimed != own_name.as_deref() {
            // Another component holds it already: refer to that one.
            return self.walk(item, kind, cx);
        }
        let mut content = self.value_at(&target).unwrap_or(Value::Null);
        overlay(&mut content, item);
        self.moves
            .record(&cx.out, &self.place(&target.0, &target.1), true);
        let inner = Cx {
            file: target.0.clone(),
            ptr: target.1.clone(),
            out: cx.out.clone(),
        };
        self.walk(&mut content, kind, &inner);
        *item = content;
    }

    /// Walks one object of `kind`, resolving the references in it.
    fn walk(&mut self, v: &mut Value, kind: Kind, cx: &Cx) {
        if v.get("$ref").is_some_and(Value::is_string) {
            let go_on = self.reference(v, kind, cx);
            if !go_on {
                return;
            }
        }
        self.texts_of(v, cx);
        match kind {
            Kind::PathItem => self.path_item(v, cx),
            Kind::Operation => self.operation(v, cx),
            Kind::Schema => self.schema(v, cx),
            Kind::Parameter | Kind::Header => {
                self.one(v, "schema", Kind::Schema, cx);
                self.map(v, "content", Kind::MediaType, cx);
                self.map(v, "examples", Kind::Example, cx);
            }
            Kind::RequestBody => self.map(v, "content", Kind::MediaType, cx),
            Kind::Response => {
                self.map(v, "headers", Kind::Header, cx);
                self.map(v, "content", Kind::MediaType, cx);
                self.map(v, "links", Kind::Link, cx);
                // Swagger 2.0: the body's schema stands on the response.
                self.one(v, "schema", Kind::Schema, cx);
            }
            Kind::MediaType => {
                self.one(v, "schema", Kind::Schema, cx);
                self.one(v, "itemSchema", Kind::Schema, cx);
                self.map(v, "examples", Kind::Example, cx);
                if let Some(Value::Object(encodings)) = v.get_mut("encoding") {
                    let at = cx.child("encoding");
                    for (name, e) in encodings.iter_mut() {
                        self.map(e, "headers", Kind::Header, &at.child(name));
                    }
                }
            }
            Kind::Callback => {
                if let Some(map) = v.as_object_mut() {
                    for (expression, item) in map.iter_mut() {
                        if !expression.starts_with("x-") {
                            self.walk(item, Kind::PathItem, &cx.child(expression));
                        }
                    }
                }
            }
            Kind::Example | Kind::Link | Kind::SecurityScheme => {}
        }
    }

    /// `description: {$ref: 'description.yml#/introduction'}`: text kept in another place,
    /// where the specification puts a string (a `description`, `summary` or `title`) and no
    /// reference. Redocly's bundler resolves a reference wherever it stands, and split
    /// documents are written so: one whose target is a string or a number is read as that,
    /// with a warning at the place. A reference to anything else is left for the readers
    /// after (a property named `description` is a schema, and may be a reference).
    fn texts_of(&mut self, v: &mut Value, cx: &Cx) {
        for key in TEXT_KEYS {
            let Some(reference) = v
                .get(*key)
                .and_then(Value::as_object)
                .filter(|o| o.len() == 1)
                .and_then(|o| o.get("$ref"))
                .and_then(Value::as_str)
                .map(str::to_string)
            else {
                continue;
            };
            let at = cx.child(key);
            let target = match self.follow(&reference, &at) {
                Ok(t) => t,
                Err(message) => {
                    self.error(&at, message);
                    continue;
                }
            };
            let Some(text) = self
                .value_at(&target)
                .filter(|t| t.is_string() || t.is_number())
            else {
                continue;
            };
            self.moves
                .record(&at.out, &self.place(&target.0, &target.1), false);
            self.warnings.push(Diagnostic::warning(
                self.place(&at.file, &at.ptr),
                format!(
                    "`{reference}` stands where the specification puts the text of `{key}` (no reference is allowed there): read as its target, as Redocly's bundler does"
                ),
            ));
            v[*key] = text;
        }
    }

    fn one(&mut self, v: &mut Value, key: &str, kind: Kind, cx: &Cx) {
        if let Some(child) = v.get_mut(key)
            && child.is_object()
        {
            self.walk(child, kind, &cx.child(key));
        }
    }

    fn map(&mut self, v: &mut Value, key: &str, kind: Kind, cx: &Cx) {
        let at = self.container(v, key, "map", cx);
        if let Some(Value::Object(items)) = v.get_mut(key) {
            for (name, item) in items.iter_mut() {
                self.walk(item, kind, &at.child(name));
            }
        }
    }

    fn list(&mut self, v: &mut Value, key: &str, kind: Kind, cx: &Cx) {
        // `items: {$ref: …}` is one schema (the list is draft 4's other spelling).
        let at = if key == "items" {
            cx.child(key)
        } else {
            self.container(v, key, "list", cx)
        };
        if let Some(Value::Array(items)) = v.get_mut(key) {
            for (i, item) in items.iter_mut().enumerate() {
                self.walk(item, kind, &at.child(&i.to_string()));
            }
        }
    }

    /// `properties: {$ref: 'models/attributes.yml#/droplet_ids'}`: a JSON Reference where
    /// the specification puts a map (or a list) of objects, none of which may be one. Redocly's
    /// bundler and swagger-parser resolve a reference wherever it stands, and large split
    /// documents are written so: the map is replaced by a copy of its target, with a warning
    /// at the place. Returns where the map's entries were written (the target's file and
    /// pointer, for the references inside them), or `cx`'s child when it was no reference. A
    /// property named `$ref` (its value a schema, not a string) is no reference.
    fn container(&mut self, v: &mut Value, key: &str, what: &str, cx: &Cx) -> Cx {
        let at = cx.child(key);
        let Some(child) = v.get_mut(key) else {
            return at;
        };
        let Some(reference) = child
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.get("$ref"))
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return at;
        };
        let target = match self.follow(&reference, &at) {
            Ok(t) => t,
            Err(message) => {
                self.error(&at, message);
                return at;
            }
        };
        let Some(content) = self.value_at(&target) else {
            self.error(&at, format!("`{reference}` points at nothing"));
            return at;
        };
        self.moves
            .record(&at.out, &self.place(&target.0, &target.1), false);
        self.warnings.push(Diagnostic::warning(
            self.place(&at.file, &at.ptr),
            format!(
                "`{reference}` stands where the specification puts a {what} of `{key}` (no reference is allowed there): read as its target, as Redocly's bundler and swagger-parser do"
            ),
        ));
        *child = content;
        Cx {
            file: target.0,
            ptr: target.1,
            out: at.out,
        }
    }

    fn path_item(&mut self, v: &mut Value, cx: &Cx) {
        self.list(v, "parameters", Kind::Parameter, cx);
        for method in METHODS {
            self.one(v, method, Kind::Operation, cx);
        }
        self.map(v, "additionalOperations", Kind::Operation, cx);
    }

    fn operation(&mut self, v: &mut Value, cx: &Cx) {
        self.list(v, "parameters", Kind::Parameter, cx);
        self.one(v, "requestBody", Kind::RequestBody, cx);
        let at = self.container(v, "responses", "map", cx);
        if let Some(Value::Object(responses)) = v.get_mut("responses") {
            for (code, r) in responses.iter_mut() {
                if !code.starts_with("x-") {
                    self.walk(r, Kind::Response, &at.child(code));
                }
            }
        }
        self.map(v, "callbacks", Kind::Callback, cx);
    }

    fn schema(&mut self, v: &mut Value, cx: &Cx) {
        const MAPS: &[&str] = &[
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ];
        const ONE: &[&str] = &[
            "additionalProperties",
            "items",
            "additionalItems",
            "not",
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contentSchema",
        ];
        const LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
        for key in MAPS {
            self.map(v, key, Kind::Schema, cx);
        }
        for key in ONE {
            self.one(v, key, Kind::Schema, cx);
        }
        for key in LISTS {
            self.list(v, key, Kind::Schema, cx);
        }
        self.mapping(v, cx);
    }

    /// `discriminator.mapping` values that are references (`./Dog.yaml`, `#/…` in another
    /// file) point at the component their schema became; schema names stay.
    fn mapping(&mut self, v: &mut Value, cx: &Cx) {
        let Some(Value::Object(mapping)) = v
            .get_mut("discriminator")
            .and_then(|d| d.get_mut("mapping"))
        else {
            return;
        };
        let at = cx.child("discriminator").child("mapping");
        for (key, value) in mapping.iter_mut() {
            let Some(reference) = value.as_str() else {
                continue;
            };
            let is_reference = reference.contains('/')
                || reference.contains('#')
                || [".yaml", ".yml", ".json"]
                    .iter()
                    .any(|x| reference.to_ascii_lowercase().ends_with(x));
            if !is_reference || (reference.starts_with('#') && cx.file == self.root) {
                continue;
            }
            let here = at.child(key);
            if let Some(local) = self.hoist_ref(reference, Kind::Schema, &here) {
                *value = Value::String(local);
            }
        }
    }

    /// Handles the `$ref` of `v`; returns whether the rest of `v` is still to be walked (a
    /// schema's keywords beside its `$ref`, 3.1).
    fn reference(&mut self, v: &mut Value, kind: Kind, cx: &Cx) -> bool {
        let reference = v["$ref"].as_str().unwrap_or_default().to_string();
        let local_to_root = reference.starts_with('#') && cx.file == self.root;
        match self.home(kind) {
            Some(_) if local_to_root => {}
            Some(_) => {
                if let Some(local) = self.hoist_ref(&reference, kind, cx) {
                    v["$ref"] = Value::String(local);
                }
            }
            // No home (a path item, an operation; a callback, which the 3.0 model cannot hold
            // as a reference): the object itself is copied here.
            None => {
                if kind == Kind::MediaType && local_to_root {
                    // 3.2 `components/mediaTypes`: the up-reading copies them.
                    return false;
                }
                self.inline(v, kind, &reference, cx);
                return false;
            }
        }
        kind == Kind::Schema
    }
}
