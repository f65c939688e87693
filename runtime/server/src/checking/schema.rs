//! JSON Schema held to the letter at run time: a schema of the served document compiled once
//! into a flat list of nodes (each keyword read, references resolved to node indices), which
//! `schema_eval` walks over a request's JSON value.
//!
//! Generated `Validate` impls check what a Rust type can say of a value (bounds, lengths,
//! patterns, counts) in code per field; what a type cannot say (`not`, `if`/`then`/`else`,
//! `const` and `enum` of any JSON value, `contains`, `oneOf`'s "exactly one", schemas with no
//! `type`, boolean schemas, keywords that ignore other types) is held here, from the document
//! as written. Dialects: OpenAPI 3.0's schema object (draft 4's keywords: `exclusiveMaximum`
//! as a boolean, `items` as a list, `dependencies`, `nullable`, `$ref` beside which nothing
//! counts) and 3.1/3.2's JSON Schema 2020-12. Not held (a generation warning where a
//! document uses them): `$dynamicRef`/`$dynamicAnchor` beyond a plain reference, `$id`- and
//! anchor-based references, `unevaluatedProperties`, `unevaluatedItems`, remote references.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Number, Value};

use super::document::Document;
use super::validate::{Pattern, join, join_index};

/// Which keywords mean what: the OpenAPI version of the document a schema stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// OpenAPI 3.0 (and Swagger 2.0): draft 4's keywords with `nullable`.
    OpenApi30,
    /// OpenAPI 3.1 and 3.2: JSON Schema 2020-12.
    OpenApi31,
}

/// A compiled schema: [`Schema::check`] and [`Schema::is_valid`] (in `schema_eval.rs`).
pub struct Schema {
    pub(crate) nodes: Vec<Node>,
    /// Places whose keyword is not held, with why (a `pattern` the engine cannot read).
    unchecked: Vec<String>,
}

pub(crate) enum Node {
    /// `true` or `false` (or `{}`: `true`).
    Always(bool),
    Keywords(Box<Keywords>),
}

/// JSON's types as `type` names them; `integer` is a number with no fraction.
pub(crate) mod types {
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const OBJECT: u8 = 4;
    pub const ARRAY: u8 = 8;
    pub const NUMBER: u8 = 16;
    pub const STRING: u8 = 32;
    pub const INTEGER: u8 = 64;
}

/// A `minimum`/`maximum` (`exclusive` for `exclusiveMinimum`/`exclusiveMaximum`).
pub(crate) struct Bound {
    pub value: Number,
    pub upper: bool,
    pub exclusive: bool,
}

#[derive(Default)]
pub(crate) struct Keywords {
    /// Allowed types (`types::*` bits); 0: any.
    pub types: u8,
    /// 3.0's `nullable: true` beside a `type`: `null` is allowed too.
    pub nullable: bool,
    pub enumeration: Option<Vec<Value>>,
    pub constant: Option<Value>,
    pub multiple_of: Option<Number>,
    pub bounds: Vec<Bound>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(Pattern, String)>,
    /// A `format` the server checks (see [`CHECKED_FORMATS`]).
    pub format: Option<&'static str>,
    pub prefix_items: Vec<usize>,
    /// The schema of items past `prefix_items` (2020-12 `items`, draft 4 `additionalItems`
    /// or a single `items`).
    pub items: Option<usize>,
    pub contains: Option<usize>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub properties: Vec<(String, usize)>,
    pub pattern_properties: Vec<(Pattern, usize)>,
    pub additional: Option<usize>,
    pub property_names: Option<usize>,
    pub required: Vec<String>,
    pub dependent_required: Vec<(String, Vec<String>)>,
    pub dependent_schemas: Vec<(String, usize)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub all_of: Vec<usize>,
    pub any_of: Vec<usize>,
    pub one_of: Vec<usize>,
    pub not: Option<usize>,
    /// `if`, with its `then` and `else`.
    pub condition: Option<(usize, Option<usize>, Option<usize>)>,
    pub reference: Option<usize>,
    /// OpenAPI's `discriminator` beside `oneOf`/`anyOf`.
    pub discriminator: Option<Discriminator>,
}

/// OpenAPI's `discriminator`: an object whose property names a branch is held to that branch
/// alone, and one whose property names none is refused (as the types' decoding refuses it). An
/// object without the property is held to `defaultMapping`'s branch (3.2) where the document
/// gives one, else to `oneOf`/`anyOf` as JSON Schema reads them: the branches' own `required`
/// decide (scalar-galaxy's `CelestialBody` does not require its `type`).
#[derive(Debug, Clone, PartialEq)]
pub struct Discriminator {
    /// The property whose value picks the branch (`propertyName`).
    pub property: String,
    /// Each value and the branch it names: the `mapping`, each branch's component name
    /// (OpenAPI's implicit mapping), and the value a branch pins its property to (`const`, or
    /// an `enum` of one: openai's `role: developer`; both are read, as the API sends the pinned
    /// value).
    pub tags: Vec<(String, usize)>,
    /// `defaultMapping`'s branch.
    pub default: Option<usize>,
}

/// The formats held to their grammar wherever they stand: those generated types parse
/// (`uuid`, `date-time`, `date`, `ipv4`, `ipv6`) and those the runtime checks on text.
pub const CHECKED_FORMATS: &[&str] = &[
    "uri",
    "uri-reference",
    "email",
    "hostname",
    "decimal",
    "uuid",
    "date-time",
    "date",
    "ipv4",
    "ipv6",
];

impl Schema {
    /// Compiles the schema at `pointer` (a JSON pointer, `""` for the whole value) in
    /// `document`; its local references (`#/…`, percent-encoded or not) are followed in
    /// `document`. An error names the place of what cannot be held (a reference to another
    /// file or to an anchor; a `pattern` the engine cannot read is not an error: see
    /// [`Schema::unchecked`]).
    pub fn compile(document: &Value, pointer: &str, dialect: Dialect) -> Result<Schema, String> {
        let mut compiler = Compiler {
            document,
            dialect,
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
            unchecked: Vec::new(),
        };
        compiler.node(pointer.to_string())?;
        compiler.refuse_loops()?;
        Ok(Schema {
            nodes: compiler.nodes,
            unchecked: compiler.unchecked,
        })
    }

    /// What the schema says that is not checked, each with its place: a `pattern` the engine
    /// (regex-lite) cannot read, such as a Unicode class `\p{Letter}`. Rejecting every request
    /// over it would be worse; the generator warns of such patterns when it reads them.
    pub fn unchecked(&self) -> &[String] {
        &self.unchecked
    }
}

/// A body's schema in the served document, as a generated handler names it
/// (`static SCHEMA: Held = Held::new(&crate::document::DOCUMENT, "/paths/…/schema", true)`),
/// compiled when the operation is first called. One that cannot be compiled (a reference
/// this module does not follow) is logged and leaves the body to its types' checks; a
/// pattern the engine cannot read is logged and not checked.
pub struct Held {
    document: &'static Document,
    pointer: &'static str,
    dialect_2020: bool,
    compiled: OnceLock<Option<Schema>>,
}

impl Held {
    /// The schema at `pointer` in `document`, compiled on first use; `dialect_2020`: read it
    /// as JSON Schema 2020-12 (OpenAPI 3.1 and later) rather than OpenAPI 3.0's dialect.
    pub const fn new(
        document: &'static Document,
        pointer: &'static str,
        dialect_2020: bool,
    ) -> Held {
        Held {
            document,
            pointer,
            dialect_2020,
            compiled: OnceLock::new(),
        }
    }

    /// Holds a value read into its type (a parameter) to the schema, as the JSON it is: every
    /// violation named below `at` (`query/ids/1: …`). A schema that could not be compiled was
    /// logged and checks nothing.
    pub fn check_typed<T: serde::Serialize + ?Sized>(
        &self,
        value: &T,
        at: &str,
        out: &mut super::validate::Violations,
    ) {
        let Some(schema) = self.schema() else {
            return;
        };
        match serde_json::to_value(value) {
            Ok(json) => schema.check(&json, at, out),
            Err(error) => {
                tracing::warn!(at, %error, "a value read could not be held to its schema");
            }
        }
    }

    /// [`Held::check_typed`] for a form read into its type: where the type left a field as
    /// text (a `serde_json::Value` member), the text is read as the schema says first
    /// ([`Schema::read_form_text`]; `nulls`: a multipart part's `null` is JSON's null).
    pub fn check_form<T: serde::Serialize + ?Sized>(
        &self,
        value: &T,
        at: &str,
        out: &mut super::validate::Violations,
        nulls: bool,
    ) {
        let Some(schema) = self.schema() else {
            return;
        };
        match serde_json::to_value(value) {
            Ok(mut json) => {
                schema.read_form_text(&mut json, nulls);
                schema.check(&json, at, out);
            }
            Err(error) => {
                tracing::warn!(at, %error, "a form read could not be held to its schema");
            }
        }
    }

    /// The compiled schema (`None` when it could not be compiled).
    pub fn schema(&self) -> Option<&Schema> {
        self.compiled
            .get_or_init(|| {
                let document = parsed(self.document.json)?;
                let dialect = if self.dialect_2020 {
                    Dialect::OpenApi31
                } else {
                    Dialect::OpenApi30
                };
                match Schema::compile(document, self.pointer, dialect) {
                    Ok(schema) => {
                        for place in schema.unchecked() {
                            tracing::warn!(place, "a schema keyword is not checked");
                        }
                        Some(schema)
                    }
                    Err(error) => {
                        tracing::warn!(
                            pointer = self.pointer,
                            error,
                            "the body's schema is not held; its types' checks apply"
                        );
                        None
                    }
                }
            })
            .as_ref()
    }
}

/// The schemas a node applies to the value it is given itself (not to a member or an item).
fn in_place(node: &Node) -> Vec<usize> {
    let Node::Keywords(k) = node else {
        return Vec::new();
    };
    let mut out: Vec<usize> = k.reference.into_iter().collect();
    out.extend(&k.all_of);
    out.extend(&k.any_of);
    out.extend(&k.one_of);
    out.extend(k.not);
    if let Some((condition, then, other)) = k.condition {
        out.push(condition);
        out.extend(then);
        out.extend(other);
    }
    out.extend(k.dependent_schemas.iter().map(|(_, s)| *s));
    if let Some(d) = &k.discriminator {
        out.extend(d.tags.iter().map(|(_, s)| *s));
        out.extend(d.default);
    }
    out
}

/// The served document's JSON parsed once per process (a server serves one document; the
/// value lives as long as the process, as the text does).
fn parsed(json: &'static str) -> Option<&'static Value> {
    static PARSED: Mutex<Vec<(usize, &'static Value)>> = Mutex::new(Vec::new());
    let key = json.as_ptr() as usize;
    let mut parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, value)) = parsed.iter().find(|(k, _)| *k == key) {
        return Some(value);
    }
    let value: &'static Value = Box::leak(Box::new(serde_json::from_str(json).ok()?));
    parsed.push((key, value));
    Some(value)
}

struct Compiler<'a> {
    document: &'a Value,
    dialect: Dialect,
    nodes: Vec<Node>,
    by_pointer: HashMap<String, usize>,
    unchecked: Vec<String>,
}

impl Compiler<'_> {
    /// The node of the schema at `pointer`, compiled once (a reference back to a schema being
    /// compiled finds its index: recursive schemas are loops in the list).
    fn node(&mut self, pointer: String) -> Result<usize, String> {
        if let Some(&index) = self.by_pointer.get(&pointer) {
            return Ok(index);
        }
        let document = self.document;
        let value = document
            .pointer(&pointer)
            .ok_or_else(|| format!("{pointer}: no schema there"))?;
        let index = self.nodes.len();
        self.nodes.push(Node::Always(true));
        self.by_pointer.insert(pointer.clone(), index);
        let node = match value {
            Value::Bool(b) => Node::Always(*b),
            Value::Object(map) if map.is_empty() => Node::Always(true),
            Value::Object(map) => Node::Keywords(Box::new(self.keywords(map, &pointer)?)),
            _ => return Err(format!("{pointer}: a schema is an object or a boolean")),
        };
        self.nodes[index] = node;
        Ok(index)
    }

    /// Refuses a schema that reaches itself while still looking at the same value (through
    /// `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas`,
    /// never stepping into a member or an item): checking a value it does not settle early
    /// would never end, and the stack overflow would take the whole process down
    /// (`anyOf: [{$ref: '#'}, {type: integer}]` and the text `"x"`). JSON Schema calls such
    /// a schema invalid; a body held to it is left to its types' checks, with a warning.
    fn refuse_loops(&self) -> Result<(), String> {
        // Depth-first over the in-place edges: 0 unseen, 1 on the current path, 2 done.
        let mut state = vec![0u8; self.nodes.len()];
        let pointers: HashMap<usize, &str> = self
            .by_pointer
            .iter()
            .map(|(p, &i)| (i, p.as_str()))
            .collect();
        for start in 0..self.nodes.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, in_place(&self.nodes[start]))];
            state[start] = 1;
            while let Some((node, edges)) = stack.last_mut() {
                match edges.pop() {
                    Some(next) if state[next] == 1 => {
                        let at = pointers.get(&next).copied().unwrap_or_default();
                        return Err(format!(
                            "{at}: the schema refers to itself without reading into the value \
                             (through `$ref` and in-place keywords only): no check of it would end"
                        ));
                    }
                    Some(next) if state[next] == 0 => {
                        state[next] = 1;
                        stack.push((next, in_place(&self.nodes[next])));
                    }
                    Some(_) => {}
                    None => {
                        state[*node] = 2;
                        stack.pop();
                    }
                }
            }
        }
        Ok(())
    }

    fn child(&mut self, pointer: &str, key: &str) -> Result<usize, String> {
        self.node(join(pointer, key))
    }

    fn list(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Result<Vec<usize>, String> {
        match map.get(key) {
            Some(Value::Array(items)) => (0..items.len())
                .map(|i| self.node(join_index(&join(pointer, key), i)))
                .collect(),
            Some(_) => Err(format!("{pointer}/{key}: a list of schemas is due")),
            None => Ok(Vec::new()),
        }
    }

    /// Each entry of an object of schemas (`properties`, `dependentSchemas`).
    fn named(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Result<Vec<(String, usize)>, String> {
        let Some(entries) = map.get(key).and_then(Value::as_object) else {
            return Ok(Vec::new());
        };
        let base = join(pointer, key);
        entries
            .keys()
            .map(|name| Ok((name.clone(), self.child(&base, name)?)))
            .collect()
    }

    fn keywords(&mut self, map: &Map<String, Value>, pointer: &str) -> Result<Keywords, String> {
        let mut k = Keywords::default();
        if let Some(Value::String(reference)) = map.get("$ref") {
            k.reference = Some(self.reference(reference, pointer)?);
            // Draft 4 (OpenAPI 3.0): nothing beside `$ref` counts, but `nullable: true`, which
            // the generator reads as the documents mean it (openai's `{$ref:
            // AssistantsApiResponseFormatOption, nullable: true}`: `null` is `None`;
            // book/src/reference/type-mapping.md), and so does schemathesis.
            if self.dialect == Dialect::OpenApi30 {
                k.nullable = map.get("nullable") == Some(&Value::Bool(true));
                return Ok(k);
            }
        }
        if let Some(Value::String(reference)) = map.get("$dynamicRef") {
            // Read as a plain reference: what 3.1 documents write (`#/$defs/x` or the
            // `$dynamicAnchor` of the same resource) resolves the same way there.
            if reference.starts_with("#/") || reference == "#" {
                k.all_of.push(self.reference(reference, pointer)?);
            }
        }
        k.types = match map.get("type") {
            Some(Value::String(t)) => type_bit(t),
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(Value::as_str)
                .map(type_bit)
                .fold(0, |a, b| a | b),
            _ => 0,
        };
        k.nullable = map.get("nullable") == Some(&Value::Bool(true));
        k.enumeration = map.get("enum").and_then(Value::as_array).cloned();
        // An empty `enum` beside `allOf` parts (discord's `{type: string, enum: [], allOf:
        // [{$ref: Status}]}`) is read as "none listed", as the generator reads it
        // (book/src/reference/type-mapping.md); alone it admits nothing, as JSON Schema says.
        if k.enumeration.as_ref().is_some_and(Vec::is_empty) && map.contains_key("allOf") {
            k.enumeration = None;
        }
        k.constant = map.get("const").cloned();
        k.multiple_of = number(map, "multipleOf");
        bounds(map, &mut k.bounds);
        k.min_length = count(map, "minLength");
        k.max_length = count(map, "maxLength");
        if let Some(Value::String(p)) = map.get("pattern") {
            match Pattern::new(p) {
                Ok(compiled) => k.pattern = Some((compiled, p.clone())),
                Err(e) => self.unchecked.push(format!("{pointer}/pattern: {e}")),
            }
        }
        if let Some(Value::String(f)) = map.get("format") {
            k.format = CHECKED_FORMATS.iter().copied().find(|c| c == f);
        }
        self.arrays(map, pointer, &mut k)?;
        self.objects(map, pointer, &mut k)?;
        k.all_of.extend(self.list(map, pointer, "allOf")?);
        k.any_of = self.list(map, pointer, "anyOf")?;
        k.one_of = self.list(map, pointer, "oneOf")?;
        if let Some(d) = map.get("discriminator").and_then(Value::as_object)
            && let Some(property) = d.get("propertyName").and_then(Value::as_str)
            && !(k.one_of.is_empty() && k.any_of.is_empty())
        {
            let default = match d.get("defaultMapping").and_then(Value::as_str) {
                Some(target) => Some(self.mapped(target, pointer)?),
                None => None,
            };
            k.discriminator = Some(Discriminator {
                property: property.to_string(),
                tags: self.tags(map, d, property, pointer)?,
                default,
            });
        }
        if map.contains_key("not") {
            k.not = Some(self.child(pointer, "not")?);
        }
        if map.contains_key("if") && self.dialect == Dialect::OpenApi31 {
            let then = map
                .contains_key("then")
                .then(|| self.child(pointer, "then"))
                .transpose()?;
            let other = map
                .contains_key("else")
                .then(|| self.child(pointer, "else"))
                .transpose()?;
            k.condition = Some((self.child(pointer, "if")?, then, other));
        }
        Ok(k)
    }

    fn arrays(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        k: &mut Keywords,
    ) -> Result<(), String> {
        match (self.dialect, map.get("items")) {
            (Dialect::OpenApi30, Some(Value::Array(_))) => {
                k.prefix_items = self.list(map, pointer, "items")?;
                if map.contains_key("additionalItems") {
                    k.items = Some(self.child(pointer, "additionalItems")?);
                }
            }
            (_, Some(_)) => k.items = Some(self.child(pointer, "items")?),
            (_, None) => {}
        }
        if self.dialect == Dialect::OpenApi31 {
            k.prefix_items = self.list(map, pointer, "prefixItems")?;
            if map.contains_key("contains") {
                k.contains = Some(self.child(pointer, "contains")?);
                k.min_contains = count(map, "minContains");
                k.max_contains = count(map, "maxContains");
            }
        }
        k.min_items = count(map, "minItems");
        k.max_items = count(map, "maxItems");
        k.unique_items = map.get("uniqueItems") == Some(&Value::Bool(true));
        Ok(())
    }

    fn objects(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        k: &mut Keywords,
    ) -> Result<(), String> {
        k.properties = self.named(map, pointer, "properties")?;
        if let Some(patterns) = map.get("patternProperties").and_then(Value::as_object) {
            let base = format!("{pointer}/patternProperties");
            for p in patterns.keys() {
                match Pattern::new(p) {
                    Ok(compiled) => k.pattern_properties.push((compiled, self.child(&base, p)?)),
                    Err(e) => self.unchecked.push(format!("{}: {e}", join(&base, p))),
                }
            }
        }
        if map.contains_key("additionalProperties") {
            k.additional = Some(self.child(pointer, "additionalProperties")?);
        }
        if map.contains_key("propertyNames") {
            k.property_names = Some(self.child(pointer, "propertyNames")?);
        }
        // A request need not carry a required property that is `readOnly` (OpenAPI: such a
        // property is required in answers only); this checker holds requests.
        let properties = map.get("properties").and_then(Value::as_object);
        k.required = strings(map.get("required"))
            .into_iter()
            .filter(|name| {
                !properties
                    .and_then(|p| p.get(name))
                    .is_some_and(|p| self.read_only(p))
            })
            .collect();
        if let Some(deps) = map.get("dependentRequired").and_then(Value::as_object) {
            k.dependent_required = deps
                .iter()
                .map(|(n, v)| (n.clone(), strings(Some(v))))
                .collect();
        }
        k.dependent_schemas = self.named(map, pointer, "dependentSchemas")?;
        // Draft 4's `dependencies`: a list is `dependentRequired`, a schema `dependentSchemas`.
        if let Some(deps) = map.get("dependencies").and_then(Value::as_object) {
            let base = format!("{pointer}/dependencies");
            for (name, v) in deps {
                match v {
                    Value::Array(_) => k.dependent_required.push((name.clone(), strings(Some(v)))),
                    _ => k
                        .dependent_schemas
                        .push((name.clone(), self.child(&base, name)?)),
                }
            }
        }
        k.min_properties = count(map, "minProperties");
        k.max_properties = count(map, "maxProperties");
        Ok(())
    }

    /// The node a `mapping` or `defaultMapping` value names: a reference, or a component's name.
    fn mapped(&mut self, target: &str, pointer: &str) -> Result<usize, String> {
        let reference = if target.starts_with('#') {
            target.to_string()
        } else {
            format!("#{}", join("/components/schemas", target))
        };
        self.reference(&reference, pointer)
    }

    /// The tags a discriminator reads and the schema each names: its `mapping`, then each
    /// branch that refers to a component by that component's name (OpenAPI's implicit
    /// mapping), then the value each branch pins `property` to. The first to name a value
    /// keeps it.
    fn tags(
        &mut self,
        map: &Map<String, Value>,
        discriminator: &Map<String, Value>,
        property: &str,
        pointer: &str,
    ) -> Result<Vec<(String, usize)>, String> {
        let mut tags: Vec<(String, usize)> = Vec::new();
        if let Some(mapping) = discriminator.get("mapping").and_then(Value::as_object) {
            for (tag, target) in mapping {
                if let Some(target) = target.as_str() {
                    tags.push((tag.clone(), self.mapped(target, pointer)?));
                }
            }
        }
        let mut pinned = Vec::new();
        for key in ["oneOf", "anyOf"] {
            for (i, branch) in map
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let node = self.node(join_index(&join(pointer, key), i))?;
                for tag in self.pinned(branch, property, 0) {
                    pinned.push((tag, node));
                }
                let Some(reference) = branch.get("$ref").and_then(Value::as_str) else {
                    continue;
                };
                let Some(name) = reference.strip_prefix("#/components/schemas/") else {
                    continue;
                };
                let name = percent_decode(name).replace("~1", "/").replace("~0", "~");
                if !tags.iter().any(|(t, _)| *t == name) {
                    tags.push((name, node));
                }
            }
        }
        for (tag, node) in pinned {
            if !tags.iter().any(|(t, _)| *t == tag) {
                tags.push((tag, node));
            }
        }
        Ok(tags)
    }

    /// The strings a branch pins `property` to: its `const`, or an `enum` of one, in the
    /// branch's `properties` or those of its `allOf` parts, through local references; a branch
    /// that is itself a union (openai's `Item` among the `InputItem`s) pins each of its
    /// variants' values, as the types' decoding reads them.
    fn pinned(&self, schema: &Value, property: &str, depth: usize) -> Vec<String> {
        if depth > 8 {
            return Vec::new();
        }
        let schema = self.resolved(schema);
        if let Some(p) = schema.get("properties").and_then(|p| p.get(property)) {
            let p = self.resolved(p);
            if let Some(Value::String(c)) = p.get("const") {
                return vec![c.clone()];
            }
            if let Some([Value::String(only)]) =
                p.get("enum").and_then(Value::as_array).map(Vec::as_slice)
            {
                return vec![only.clone()];
            }
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array)
            && let Some(tags) = parts
                .iter()
                .map(|part| self.pinned(part, property, depth + 1))
                .find(|tags| !tags.is_empty())
        {
            return tags;
        }
        let mut tags = Vec::new();
        for key in ["oneOf", "anyOf"] {
            for variant in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for tag in self.pinned(variant, property, depth + 1) {
                    if !tags.contains(&tag) {
                        tags.push(tag);
                    }
                }
            }
        }
        tags
    }

    /// A schema followed through its local references (as far as 16 of them).
    fn resolved<'v>(&'v self, schema: &'v Value) -> &'v Value {
        let mut schema = schema;
        for _ in 0..16 {
            let Some(target) = schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|f| self.document.pointer(&percent_decode(f)))
            else {
                break;
            };
            schema = target;
        }
        schema
    }

    /// Whether a property's schema (or the one its reference names) says `readOnly: true`.
    fn read_only(&self, schema: &Value) -> bool {
        let mut schema = schema;
        for _ in 0..16 {
            if schema.get("readOnly") == Some(&Value::Bool(true)) {
                return true;
            }
            let Some(target) = schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|f| self.document.pointer(&percent_decode(f)))
            else {
                return false;
            };
            schema = target;
        }
        false
    }

    /// The node a local reference names; the fragment is percent-decoded (RFC 6901 §6).
    fn reference(&mut self, reference: &str, pointer: &str) -> Result<usize, String> {
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(format!(
                "{pointer}/$ref: `{reference}` is not a reference into this document"
            ));
        };
        let target = percent_decode(fragment);
        if !target.is_empty() && !target.starts_with('/') {
            return Err(format!(
                "{pointer}/$ref: `{reference}` names an anchor, not a place"
            ));
        }
        if self.document.pointer(&target).is_none() {
            return Err(format!("{pointer}/$ref: `{reference}` points at nothing"));
        }
        self.node(target)
    }
}

fn type_bit(name: &str) -> u8 {
    match name {
        "null" => types::NULL,
        "boolean" => types::BOOLEAN,
        "object" => types::OBJECT,
        "array" => types::ARRAY,
        "number" => types::NUMBER,
        "string" => types::STRING,
        "integer" => types::INTEGER,
        _ => 0,
    }
}

fn number(map: &Map<String, Value>, key: &str) -> Option<Number> {
    match map.get(key) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

/// A count (`minLength: 2`, or `2.0`: a number with no fraction is an integer).
fn count(map: &Map<String, Value>, key: &str) -> Option<u64> {
    let n = map.get(key)?;
    n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0)
            .map(|f| f as u64)
    })
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `minimum`/`maximum` with their exclusive forms: a number (2020-12) or a boolean beside the
/// bound (draft 4, OpenAPI 3.0).
fn bounds(map: &Map<String, Value>, out: &mut Vec<Bound>) {
    for (key, exclusive_key, upper) in [
        ("maximum", "exclusiveMaximum", true),
        ("minimum", "exclusiveMinimum", false),
    ] {
        let flag = map.get(exclusive_key) == Some(&Value::Bool(true));
        if let Some(value) = number(map, key) {
            out.push(Bound {
                value,
                upper,
                exclusive: flag,
            });
        }
        if let Some(value) = number(map, exclusive_key) {
            out.push(Bound {
                value,
                upper,
                exclusive: true,
            });
        }
    }
}

/// `%25` → `%` (a URI fragment's percent-encoding); a `%` not followed by two hex digits stays.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16));
        match (bytes[i], hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
