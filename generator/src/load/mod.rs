//! Reading a document: YAML or JSON text → `openapiv3::OpenAPI`, with located errors, and
//! `$ref` resolution for every kind of component. A document split over several files is
//! first made one by `refs` (files read through the caller's [`Source`]); OpenAPI 3.1 and
//! 3.2 documents are then up-read into the 3.0 shape by [`normalize`] (see
//! book/src/reference/openapi-3.1.md).

mod canonical;
mod dynamic;
mod moves;
pub mod normalize;
pub mod position;
mod ref_siblings;
mod refs;
mod schema31;
pub mod source;
pub(crate) mod swagger2;
mod yaml;

use crate::diag::{self, Diagnostic, Diagnostics, Position, push};
pub use moves::Moves;
pub use normalize::Version;
use openapiv3::{
    Header, OpenAPI, Parameter, ReferenceOr, RequestBody, Response, Schema, SecurityScheme,
};
pub use source::{FileSystem, Source};

use std::collections::BTreeMap;

/// A read document: the 3.0 model, what reading it warned about, and the map from places in
/// the model back to places in the user's files.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub doc: OpenAPI,
    pub version: Version,
    /// Constructs read with a fallback, located in the user's document.
    pub warnings: Vec<Diagnostic>,
    pub moves: Moves,
    /// Every file read: the root first, then each other file in the order its first `$ref`
    /// was met (a file that could not be read included, so that a tool watching them sees it
    /// appear).
    pub files: Vec<String>,
    /// The name of the root file, as the caller gave it.
    pub root: String,
    /// The files' texts, for [`Loaded::locate`].
    texts: BTreeMap<String, String>,
    /// The document as its author wrote it, for the generated server to serve: the root
    /// file's text when it is the whole document, else (split over several files) every file
    /// bundled into one. Before any conversion (a Swagger 2.0 document stays 2.0).
    pub written: Written,
}

/// See [`Loaded::written`].
#[derive(Debug, Clone)]
pub struct Written {
    /// The root file's text, when the document is that one file.
    pub text: Option<String>,
    /// The document as one JSON value (bundled when split).
    pub value: serde_json::Value,
}

impl Loaded {
    /// The user's place (`/pointer` in the root file, `file#/pointer` in another) for a
    /// pointer into [`Loaded::doc`].
    pub fn original(&self, pointer: &str) -> String {
        self.moves.original(pointer)
    }

    /// Sets the file, line and column of each diagnostic that has none and whose place is
    /// found in the text of its file.
    pub fn locate(&self, diagnostics: &mut [Diagnostic]) {
        locate(&self.root, &self.texts, diagnostics);
    }
}

fn locate(root: &str, texts: &BTreeMap<String, String>, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut().filter(|d| d.position.is_none()) {
        let (file, pointer) = diag::split_place(&d.pointer);
        let file = file.unwrap_or(root);
        if file.is_empty() {
            continue;
        }
        if let Some((line, column)) = texts.get(file).and_then(|t| position::find(t, pointer)) {
            d.position = Some(Position {
                file: file.to_string(),
                line,
                column,
            });
        }
    }
}

/// Parses document text, given without a file name: a `$ref` into another file is an error
/// (read the document with [`read`] to follow them). JSON is YAML too, but JSON is tried first
/// for better error positions.
pub fn parse(text: &str) -> Result<Loaded, Diagnostics> {
    read("", &source::Text { root: "", text })
}

/// Reads the document whose root file is named `root`, and every file its `$ref`s reach,
/// through `source`.
pub fn read(root: &str, source: &dyn Source) -> Result<Loaded, Diagnostics> {
    let text = source.read(root).map_err(|e| {
        one(
            String::new(),
            if root.is_empty() {
                e
            } else {
                format!("cannot read {root}: {e}")
            },
        )
    })?;
    let mut value = to_json_value(&text)?;
    let mut texts = BTreeMap::from([(root.to_string(), text)]);
    let mut files = vec![root.to_string()];
    let mut bundle_moves = Moves::default();
    let mut bundle_warnings = Vec::new();
    if refs::needed(&value) {
        let bundled = refs::bundle(root, value, source);
        texts.extend(bundled.texts);
        files.extend(bundled.files);
        if !bundled.errors.is_empty() {
            let mut errors = bundled.errors;
            locate(root, &texts, &mut errors);
            return Err(Diagnostics(errors));
        }
        value = bundled.value;
        bundle_moves = bundled.moves;
        bundle_warnings = bundled.warnings;
    }
    let source_doc = Written {
        text: (files.len() == 1).then(|| texts[root].clone()),
        value: value.clone(),
    };
    let located = |mut d: Diagnostics| {
        locate(root, &texts, &mut d.0);
        d
    };
    let version = check_version(&value).map_err(located)?;
    // Swagger 2.0 is rewritten as 3.0 first; its places map back through its own moves.
    let mut earlier = bundle_moves;
    let mut converted_warnings = Vec::new();
    if version == Version::V20 {
        let converted = swagger2::convert(&value);
        let mut errors = converted.errors;
        if !errors.is_empty() {
            for e in &mut errors {
                e.pointer = earlier.original(&e.pointer);
            }
            errors.sort();
            return Err(located(Diagnostics(errors)));
        }
        value = converted.value;
        // Said of the 2.0 document's places: only the bundling's moves apply.
        converted_warnings = converted.warnings;
        for w in &mut converted_warnings {
            w.pointer = earlier.original(&w.pointer);
        }
        earlier = converted.moves.after(earlier);
    }
    // Path keys are checked where the paths stand in the document as 3.0 reads it.
    check_path_keys(&value).map_err(|mut d| {
        for e in &mut d.0 {
            e.pointer = earlier.original(&e.pointer);
        }
        located(d)
    })?;
    let normalized = normalize::normalize(value, version);
    let moves = normalized.moves.after(earlier.clone());
    let value = normalized.value;
    let doc = serde_path_to_error::deserialize(&value).map_err(|e| {
        // openapiv3 flattens extensions into most objects, which hides the path below them;
        // look for the deepest part that fails on its own to name the place exactly.
        let (pointer, message) = refine(&value).unwrap_or_else(|| {
            (
                path_to_pointer(&e.path().to_string()),
                e.inner().to_string(),
            )
        });
        let label = match version {
            Version::V20 => "Swagger 2.0 (read as OpenAPI 3.0)",
            Version::V30 => "3.0",
            Version::V31 => "3.1",
            Version::V32 => "3.2",
        };
        located(one(
            moves.original(&pointer),
            format!(
                "not a valid OpenAPI {label} document: {}",
                explain(&message)
            ),
        ))
    })?;
    // The up-reading names places of the document it was given; the user wrote them elsewhere
    // when that document was made of several files.
    let mut warnings = normalized.warnings;
    for w in &mut warnings {
        w.pointer = earlier.original(&w.pointer);
    }
    warnings.extend(converted_warnings);
    warnings.extend(bundle_warnings);
    Ok(Loaded {
        doc,
        version,
        warnings,
        moves,
        files,
        root: root.to_string(),
        texts,
        written: source_doc,
    })
}

/// Every key of `paths` starts with `/` (or is an `x-` extension): the 3.0 model leaves any
/// other key out without a word, which would drop its operations.
fn check_path_keys(value: &serde_json::Value) -> Result<(), Diagnostics> {
    let errors: Vec<Diagnostic> = entries(value.get("paths").unwrap_or(&serde_json::Value::Null))
        .into_iter()
        .filter(|(key, _)| !key.starts_with('/') && !key.starts_with("x-"))
        .map(|(key, _)| {
            Diagnostic::error(
                push("/paths", key),
                format!("a path must start with `/` (the document's URL is the server's URL followed by it): `/{key}`?"),
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(errors))
    }
}

/// The first part of the document, from the most specific kind of object up, that does not
/// read as its OpenAPI type on its own.
fn refine(doc: &serde_json::Value) -> Option<(String, String)> {
    for (path, item) in entries(doc.get("paths")?) {
        let item_at = push("/paths", path);
        for (key, value) in entries(item) {
            let at = push(&item_at, key);
            let found = match key.as_str() {
                "parameters" => refine_list::<ReferenceOr<Parameter>>(value, &at),
                "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" => {
                    refine_operation(value, &at)
                }
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

fn refine_operation(op: &serde_json::Value, at: &str) -> Option<(String, String)> {
    for (key, value) in entries(op) {
        let here = push(at, key);
        let found = match key.as_str() {
            "parameters" => refine_list::<ReferenceOr<Parameter>>(value, &here),
            "requestBody" => check::<ReferenceOr<RequestBody>>(value, &here),
            "responses" => entries(value)
                .into_iter()
                .find_map(|(code, r)| check::<ReferenceOr<Response>>(r, &push(&here, code)))
                .or_else(|| check::<openapiv3::Responses>(value, &here)),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    check::<openapiv3::Operation>(op, at)
}

fn refine_list<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
    at: &str,
) -> Option<(String, String)> {
    match value.as_array() {
        Some(list) => list
            .iter()
            .enumerate()
            .find_map(|(i, item)| check::<T>(item, &push(at, &i.to_string()))),
        None => check::<Vec<T>>(value, at),
    }
}

fn check<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
    at: &str,
) -> Option<(String, String)> {
    serde_path_to_error::deserialize::<_, T>(value)
        .err()
        .map(|e| {
            let inner = path_to_pointer(&e.path().to_string());
            (format!("{at}{inner}"), e.inner().to_string())
        })
}

/// serde's message for a shape the model could not read, with what the specification asks
/// said first where serde only names its own enum (swagger-parser's dereference fixture: a
/// parameter with neither `schema` nor `content` read "no variant of enum
/// ParameterSchemaOrContent found in flattened data").
fn explain(message: &str) -> String {
    const MEANINGS: &[(&str, &str)] = &[(
        "enum ParameterSchemaOrContent",
        "a parameter needs `schema` or `content`",
    )];
    match MEANINGS.iter().find(|(serde, _)| message.contains(serde)) {
        Some((_, meaning)) => format!("{meaning} ({message})"),
        None => message.to_string(),
    }
}

fn entries(value: &serde_json::Value) -> Vec<(&String, &serde_json::Value)> {
    value
        .as_object()
        .map(|m| m.iter().collect())
        .unwrap_or_default()
}

fn one(pointer: String, message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic::error(pointer, message)])
}

/// The document's text as JSON (YAML read as the generator reads it: big integers as
/// doubles, merge keys applied), before any checking or up-reading.
pub fn to_json_value(text: &str) -> Result<serde_json::Value, Diagnostics> {
    if text.trim_start().starts_with('{') {
        let json = serde_json::from_str(text).map_err(|e| {
            one(
                String::new(),
                format!(
                    "invalid JSON at line {} column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        });
        // YAML's flow style (`{type: string}`) also starts with a brace.
        return json.or_else(|json_error| {
            serde_yaml::from_str::<yaml::Node>(text)
                .map_err(|_| json_error)
                .and_then(|node| yaml_to_json(node.0, ""))
        });
    }
    let yaml = serde_yaml::from_str::<yaml::Node>(text)
        .map(|node| node.0)
        .map_err(|e| {
            let at = e
                .location()
                .map(|l| format!(" at line {} column {}", l.line(), l.column()))
                .unwrap_or_default();
            // serde_yaml names the place as `a.b[1].c: message` when it knows it.
            let message = e.to_string();
            let pointer = message
                .split_once(": ")
                .filter(|(path, _)| !path.contains(' ') && path.contains('.'))
                .map(|(path, _)| path_to_pointer(path))
                .unwrap_or_default();
            one(pointer, format!("cannot read the document{at}: {message}"))
        })?;
    yaml_to_json(yaml, "")
}

/// YAML allows non-string keys (`200:` is an integer); OpenAPI means them as strings.
fn yaml_to_json(value: serde_yaml::Value, at: &str) -> Result<serde_json::Value, Diagnostics> {
    use serde_json::Value as J;
    use serde_yaml::Value as Y;
    Ok(match value {
        Y::Null => J::Null,
        Y::Bool(b) => J::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                J::from(i)
            } else if let Some(u) = n.as_u64() {
                J::from(u)
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(f)
                    .map(J::Number)
                    .ok_or_else(|| {
                        one(
                            at.to_string(),
                            format!("number {f} cannot be represented in JSON"),
                        )
                    })?
            }
        }
        Y::String(s) => J::String(s),
        Y::Sequence(items) => J::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| yaml_to_json(v, &push(at, &i.to_string())))
                .collect::<Result<_, _>>()?,
        ),
        Y::Mapping(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let key = match k {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    Y::Null => "null".to_string(),
                    other => {
                        return Err(one(
                            at.to_string(),
                            format!("mapping key {other:?} is not a string"),
                        ));
                    }
                };
                let child = push(at, &key);
                out.insert(key, yaml_to_json(v, &child)?);
            }
            J::Object(out)
        }
        Y::Tagged(tagged) => yaml_to_json(tagged.value, at)?,
    })
}

fn check_version(value: &serde_json::Value) -> Result<Version, Diagnostics> {
    if let Some(v) = value.get("swagger") {
        return match v.as_str() {
            Some("2.0") => Ok(Version::V20),
            _ => Err(one(
                "/swagger".into(),
                format!(
                    "Swagger {v} is not supported; this generator reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x"
                ),
            )),
        };
    }
    match value.get("openapi").and_then(|v| v.as_str()) {
        Some(v) if v.starts_with("3.0.") => Ok(Version::V30),
        Some(v) if v.starts_with("3.1.") => Ok(Version::V31),
        Some(v) if v.starts_with("3.2.") => Ok(Version::V32),
        Some(v) => Err(one(
            "/openapi".into(),
            format!(
                "OpenAPI {v} is not supported; this generator reads OpenAPI 3.0.x, 3.1.x and 3.2.x"
            ),
        )),
        None => Err(one(
            "/openapi".into(),
            "missing `openapi` version field; is this an OpenAPI document?".into(),
        )),
    }
}

/// serde_path_to_error prints `paths./pets.get`; we speak JSON pointer.
fn path_to_pointer(path: &str) -> String {
    if path == "." || path.is_empty() {
        return String::new();
    }
    let path = path.replace("].", ".").replace('[', ".").replace(']', "");
    let mut out = String::new();
    for token in split_path(&path) {
        out = push(&out, &token);
    }
    out
}

/// Splits on dots that separate segments; segments that hold dots are not quoted by
/// serde_path_to_error, so known OpenAPI map keys (paths start with `/`) are kept whole.
fn split_path(path: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    for part in path.split('.') {
        let joins_previous = tokens
            .last()
            .is_some_and(|prev| prev.starts_with('/') && !part.is_empty() && !is_keyword(part));
        if joins_previous {
            let last = tokens.last_mut().expect("checked above");
            last.push('.');
            last.push_str(part);
        } else {
            let token = part.trim_start_matches('[').trim_end_matches(']');
            tokens.push(token.to_string());
        }
    }
    tokens
}

fn is_keyword(part: &str) -> bool {
    matches!(
        part,
        "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" | "parameters"
    )
}

/// What a `$ref` points at, checked to be local and of the expected component kind.
pub fn ref_name<'a>(reference: &'a str, kind: &str) -> Result<&'a str, String> {
    let prefix = format!("#/components/{kind}/");
    match reference.strip_prefix(&prefix) {
        Some(name) if !name.is_empty() && !name.contains('/') => Ok(name),
        _ if reference.is_empty() => {
            Err("empty `$ref` (it would point at the whole document)".into())
        }
        _ if !reference.starts_with('#') => Err(format!(
            "external reference `{reference}` is not supported; bundle the document into one file"
        )),
        _ => Err(format!(
            "`{reference}` does not point into #/components/{kind}/"
        )),
    }
}

/// Unescapes a component name from a `$ref` token (RFC 6901). A local reference's
/// percent-encoding is undone once, while the document is read (`normalize`).
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Follows `$ref` chains of one component kind to the item, returning it with its pointer.
macro_rules! resolver {
    ($fn_name:ident, $ty:ty, $kind:literal, $field:ident) => {
        pub fn $fn_name<'a>(
            doc: &'a OpenAPI,
            item: &'a ReferenceOr<$ty>,
            pointer: &str,
        ) -> Result<(&'a $ty, String), Diagnostic> {
            let mut current = item;
            let mut at = pointer.to_string();
            for _ in 0..32 {
                match current {
                    ReferenceOr::Item(found) => return Ok((found, at)),
                    ReferenceOr::Reference { reference } => {
                        let name = ref_name(reference, $kind)
                            .map_err(|message| Diagnostic::error(at.clone(), message))?;
                        let name = unescape(name);
                        current = doc
                            .components
                            .as_ref()
                            .and_then(|c| c.$field.get(&name))
                            .ok_or_else(|| {
                                Diagnostic::error(
                                    at.clone(),
                                    format!("`{reference}` points at nothing"),
                                )
                            })?;
                        at = push(&format!("/components/{}", $kind), &name);
                    }
                }
            }
            Err(Diagnostic::error(
                at,
                "`$ref` chain is longer than 32 links (a cycle?)",
            ))
        }
    };
}

resolver!(parameter, Parameter, "parameters", parameters);
resolver!(response, Response, "responses", responses);
resolver!(request_body, RequestBody, "requestBodies", request_bodies);
resolver!(header, Header, "headers", headers);
resolver!(
    security_scheme,
    SecurityScheme,
    "securitySchemes",
    security_schemes
);

/// Where a schema the up-reading moved into `components/schemas` was written (`$defs`).
pub fn origin(schema: &ReferenceOr<Schema>) -> Option<String> {
    match schema {
        ReferenceOr::Item(s) => s
            .schema_data
            .extensions
            .get("x-apigen-origin")
            .and_then(|v| v.as_str())
            .map(str::to_string),
        ReferenceOr::Reference { .. } => None,
    }
}

/// Schemas resolve by name (kept so that named types are referenced, not inlined).
pub fn schema_by_name<'a>(doc: &'a OpenAPI, name: &str) -> Option<&'a ReferenceOr<Schema>> {
    doc.components.as_ref().and_then(|c| c.schemas.get(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_from_paths() {
        assert_eq!(
            path_to_pointer("paths./pets/{id}.get.responses"),
            "/paths/~1pets~1{id}/get/responses"
        );
        assert_eq!(path_to_pointer("paths./v1.2/x.get"), "/paths/~1v1.2~1x/get");
        assert_eq!(
            path_to_pointer("components.schemas.Pet"),
            "/components/schemas/Pet"
        );
    }

    #[test]
    fn rejects_other_versions() {
        let err = parse("swagger: '1.2'\ninfo: {title: x, version: '1'}\npaths: {}\n").unwrap_err();
        assert_eq!(err.0[0].pointer, "/swagger");
        let err = parse("openapi: 4.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n").unwrap_err();
        assert!(err.to_string().contains("4.0.0 is not supported"), "{err}");
    }

    #[test]
    fn located_shape_errors() {
        let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 7\n";
        let err = parse(text).unwrap_err();
        assert_eq!(err.0[0].pointer, "/paths/~1a/get/responses", "{err}");
    }

    #[test]
    fn yaml_integer_keys_become_strings() {
        let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n";
        let doc = parse(text).unwrap().doc;
        assert_eq!(doc.paths.paths.len(), 1);
    }
}
