//! A generated document: the ordered JSON value it is written as, the seeded random numbers,
//! the prelude of names that test naming, and `document` (one seed's document).

use super::*;

/// A JSON value that keeps its keys in order (the generated documents and their reduction).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Bool(bool),
    Int(i64),
    Str(String),
    /// A number as written (`2.0`: JSON Schema's integer with a zero fraction).
    Raw(String),
    Arr(Vec<Value>),
    Obj(Vec<(String, Value)>),
}

pub(super) fn s(text: &str) -> Value {
    Value::Str(text.to_string())
}

pub(super) fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Obj(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

impl Value {
    pub(super) fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    pub(super) fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(n) => out.push_str(&n.to_string()),
            Value::Raw(text) => out.push_str(text),
            Value::Str(text) => {
                out.push('"');
                for c in text.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        c if (c as u32) < 0x20 => {
                            let _ = write!(out, "\\u{:04x}", c as u32);
                        }
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Value::Arr(items) if items.is_empty() => out.push_str("[]"),
            Value::Obj(entries) if entries.is_empty() => out.push_str("{}"),
            Value::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Value::Obj(entries) => {
                out.push_str("{\n");
                for (i, (key, value)) in entries.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    Value::Str(key.clone()).write(out, indent + 1);
                    out.push_str(": ");
                    value.write(out, indent + 1);
                    out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }

    /// The paths (child indexes) of every node below the root.
    pub(super) fn node_paths(&self, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let children: Vec<&Value> = match self {
            Value::Arr(items) => items.iter().collect(),
            Value::Obj(entries) => entries.iter().map(|(_, v)| v).collect(),
            _ => return,
        };
        for (i, child) in children.into_iter().enumerate() {
            prefix.push(i);
            out.push(prefix.clone());
            child.node_paths(prefix, out);
            prefix.pop();
        }
    }

    pub(super) fn at(&self, path: &[usize]) -> Option<&Value> {
        let Some((first, rest)) = path.split_first() else {
            return Some(self);
        };
        let child = match self {
            Value::Arr(items) => items.get(*first)?,
            Value::Obj(entries) => &entries.get(*first)?.1,
            _ => return None,
        };
        child.at(rest)
    }

    /// A copy with the node at `path` removed.
    pub(super) fn without(&self, path: &[usize]) -> Option<Value> {
        let mut copy = self.clone();
        let (last, parent) = path.split_last()?;
        let mut node = &mut copy;
        for i in parent {
            node = match node {
                Value::Arr(items) => items.get_mut(*i)?,
                Value::Obj(entries) => &mut entries.get_mut(*i)?.1,
                _ => return None,
            };
        }
        match node {
            Value::Arr(items) if *last < items.len() => {
                items.remove(*last);
            }
            Value::Obj(entries) if *last < entries.len() => {
                entries.remove(*last);
            }
            _ => return None,
        }
        Some(copy)
    }
}

/// xorshift64*: small, fast and deterministic by seed; quality is no concern here.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that neighbouring seeds start far apart (and never 0).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names a document may use that generated code also uses, or that Rust reserves.
pub(super) const PRELUDE: &[&str] = &[
    "Result",
    "Option",
    "String",
    "Vec",
    "Box",
    "Ok",
    "Err",
    "Some",
    "None",
    "Error",
    "Value",
    "Map",
    "self",
    "Self",
    "crate",
    "super",
    "type",
    "r#type",
    "match",
    "async",
    "await",
    "dyn",
    "fn",
    "mod",
    "use",
    "impl",
    "trait",
    "where",
    "loop",
    "gen",
    "try",
    "Default",
    "Clone",
    "Debug",
    "Send",
    "Sync",
    "Future",
    "Into",
    "From",
    "ToString",
    "Arc",
    "Duration",
    "Request",
    "Response",
    "Body",
    "State",
    "Client",
    "Server",
    "ClientBuilder",
    "Unknown",
    "Custom",
    "types",
    "runtime",
    "api",
    "router",
    "client",
    "validate",
    "params",
    "serde",
    "serde_json",
    "std",
    "http",
    "bytes",
    "reqwest",
    "axum",
    "tokio",
];

/// Plain words and spellings that differ only in case or punctuation.
pub(super) const WORDS: &[&str] = &[
    "pet",
    "Pet",
    "pets",
    "id",
    "ID",
    "name",
    "status",
    "tag",
    "owner",
    "item",
    "order",
    "user-id",
    "user_id",
    "userId",
    "UserId",
    "data",
    "list",
    "count",
    "limit",
    "page",
    "kind",
    "note",
    "x-trace",
    "X-Trace",
    "a.b",
    "a b",
    "2fa",
    "_x",
    "1st",
    "ÄÖ",
    "$ref",
    "+1",
    "-1",
    // Format-string braces, which a value must never carry into generated `format!` strings.
    "{x}",
    "a}{b",
    "${<brackets>}",
];

/// Every name the fuzzer draws from.
pub(super) fn pool() -> Vec<&'static str> {
    let mut all: Vec<&str> = Vec::new();
    for list in [
        reserved::TYPES_MODULE,
        reserved::OPERATION_STEMS,
        reserved::OPERATION_METHODS,
        reserved::BUILDER_METHODS,
        reserved::SERVER_VARIANTS,
        reserved::ENUM_VARIANTS,
        reserved::STRUCT_FIELDS,
        reserved::SERVER_OPERATION_LOCALS,
        reserved::CLIENT_OPERATION_LOCALS,
        reserved::OTHER_LOCALS,
        reserved::CLIPPY_PLACEHOLDERS,
        PRELUDE,
        WORDS,
    ] {
        all.extend(list);
    }
    all.sort_unstable();
    all.dedup();
    all
}

/// The document of one seed.
pub(super) fn document(seed: u64) -> Value {
    let mut g = Gen {
        rng: Rng::new(seed),
        names: pool(),
        components: Vec::new(),
        v31: false,
    };
    // Every third seed is a 3.1 document (decided by seed, so documents stay deterministic).
    g.v31 = seed.is_multiple_of(3);
    // Component names first, so schemas can refer to any of them (recursion included).
    let mut names: Vec<String> = Vec::new();
    for _ in 0..g.rng.below(7) {
        let n = g.plain_name();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    // Shapes decided up front, so a reference knows what it points at.
    let shapes: Vec<Shape> = names
        .iter()
        .map(|_| match g.rng.below(5) {
            0 => Shape::Scalar,
            1 | 2 => Shape::Object,
            _ => Shape::Other,
        })
        .collect();
    g.components = names.iter().cloned().zip(shapes.iter().copied()).collect();
    let mut schemas: Vec<(String, Value)> = Vec::new();
    for (name, shape) in names.iter().zip(&shapes) {
        let schema = match shape {
            Shape::Scalar => g.scalar(),
            Shape::Object => g.object(0),
            Shape::Other => g.schema(0),
        };
        schemas.push((name.clone(), schema));
    }
    break_in_place_loops(&mut schemas);
    let mut schemes: Vec<(String, Value)> = Vec::new();
    for _ in 0..g.rng.below(4) {
        let name = g.plain_name();
        if schemes.iter().any(|(k, _)| *k == name) {
            continue;
        }
        let scheme = match g.rng.below(5) {
            0 => obj(vec![("type", s("http")), ("scheme", s("bearer"))]),
            1 => obj(vec![("type", s("http")), ("scheme", s("basic"))]),
            k => {
                let location = ["header", "query", "cookie"][k - 2];
                let key = g.token_name();
                obj(vec![
                    ("type", s("apiKey")),
                    ("in", s(location)),
                    ("name", s(&key)),
                ])
            }
        };
        schemes.push((name, scheme));
    }
    let scheme_names: Vec<String> = schemes.iter().map(|(k, _)| k.clone()).collect();
    let mut paths: Vec<(String, Value)> = Vec::new();
    let mut ids = BTreeSet::new();
    for i in 0..g.rng.below(4) + 1 {
        let mut path = format!("/p{i}");
        let mut templates: Vec<String> = Vec::new();
        for _ in 0..g.rng.below(3) {
            if g.rng.chance(50) {
                let t = g.plain_name();
                // A name drawn again is used again: OpenAPI lets one parameter stand in two
                // places of a path (both take its value).
                path.push_str(&format!("/{{{t}}}"));
                if !templates.contains(&t) {
                    templates.push(t);
                }
            } else {
                path.push_str(&format!("/{}", slug(&g.plain_name())));
            }
        }
        let mut methods: Vec<(String, Value)> = Vec::new();
        for method in ["get", "put", "post", "delete", "patch"] {
            if g.rng.chance(35) || (method == "patch" && methods.is_empty()) {
                let op = g.operation(&templates, &mut ids, &scheme_names);
                methods.push((method.to_string(), op));
            }
        }
        paths.push((path, Value::Obj(methods)));
    }
    // 3.1: a webhook or two, with a JSON payload of a component or an inline schema.
    let mut webhooks: Vec<(String, Value)> = Vec::new();
    if g.v31 {
        for _ in 0..g.rng.below(3) {
            let name = g.plain_name();
            if webhooks.iter().any(|(k, _)| *k == name) {
                continue;
            }
            let payload = g.schema(1);
            let body = obj(vec![
                ("required", Value::Bool(g.rng.chance(70))),
                (
                    "content",
                    obj(vec![("application/json", obj(vec![("schema", payload)]))]),
                ),
            ]);
            let op = obj(vec![
                ("requestBody", body),
                (
                    "responses",
                    obj(vec![("204", obj(vec![("description", s("Received."))]))]),
                ),
            ]);
            let method = *g.rng.pick::<&str>(&["post", "put"]);
            webhooks.push((name, obj(vec![(method, op)])));
        }
    }
    let mut root = vec![
        ("openapi", s(if g.v31 { "3.1.0" } else { "3.0.3" })),
        (
            "info",
            obj(vec![("title", s(&g.name())), ("version", s("1.0.0"))]),
        ),
    ];
    if g.rng.chance(70) {
        root.push((
            "servers",
            Value::Arr(vec![obj(vec![("url", s("http://api.example/v1"))])]),
        ));
    }
    if !scheme_names.is_empty() && g.rng.chance(60) {
        let first = scheme_names[0].clone();
        root.push((
            "security",
            Value::Arr(vec![Value::Obj(vec![(first, Value::Arr(Vec::new()))])]),
        ));
    }
    root.push(("paths", Value::Obj(paths)));
    if !webhooks.is_empty() {
        root.push(("webhooks", Value::Obj(webhooks)));
    }
    let mut components = Vec::new();
    if !schemas.is_empty() {
        components.push(("schemas", Value::Obj(schemas)));
    }
    if !schemes.is_empty() {
        components.push(("securitySchemes", Value::Obj(schemes)));
    }
    if !components.is_empty() {
        root.push(("components", obj(components)));
    }
    obj(root)
}

/// Turns each component that would reach itself in place (through `$ref`, `allOf`, `anyOf`,
/// `oneOf` or `not`, no member or item between) into one that does not, by making the `$ref`
/// that closes the loop a string: such a schema is invalid (reading a value none of its other
/// branches takes never ends) and the generator refuses it, and the fuzzer makes valid
/// documents only.
fn break_in_place_loops(schemas: &mut [(String, Value)]) {
    for i in 0..schemas.len() {
        loop {
            let mut direct = Vec::new();
            in_place_refs(&schemas[i].1, &mut direct);
            let name = schemas[i].0.clone();
            let closing = direct
                .into_iter()
                .find(|target| reaches(schemas, target, &name));
            match closing {
                Some(target) => cut_in_place_ref(&mut schemas[i].1, &target),
                None => break,
            }
        }
    }
}

/// Whether `from` reaches `to` in place (`from` itself counts).
fn reaches(schemas: &[(String, Value)], from: &str, to: &str) -> bool {
    let mut seen: Vec<String> = Vec::new();
    let mut todo = vec![from.to_string()];
    while let Some(name) = todo.pop() {
        if name == to {
            return true;
        }
        if seen.contains(&name) {
            continue;
        }
        if let Some((_, schema)) = schemas.iter().find(|(n, _)| *n == name) {
            in_place_refs(schema, &mut todo);
        }
        seen.push(name);
    }
    false
}

/// The components a schema applies to the value it is given itself.
fn in_place_refs(schema: &Value, out: &mut Vec<String>) {
    let Value::Obj(entries) = schema else {
        return;
    };
    for (key, value) in entries {
        match (key.as_str(), value) {
            ("$ref", Value::Str(reference)) => out.extend(component_of(reference)),
            ("allOf" | "anyOf" | "oneOf", Value::Arr(items)) => {
                items.iter().for_each(|item| in_place_refs(item, out))
            }
            ("not", not) => in_place_refs(not, out),
            _ => {}
        }
    }
}

/// Replaces each in-place `$ref` to `target` with `{type: string}`.
fn cut_in_place_ref(schema: &mut Value, target: &str) {
    let Value::Obj(entries) = schema else {
        return;
    };
    let points_at = entries.iter().any(|(k, v)| {
        k == "$ref" && matches!(v, Value::Str(r) if component_of(r).as_deref() == Some(target))
    });
    if points_at {
        *schema = Value::Obj(vec![("type".to_string(), s("string"))]);
        return;
    }
    for (key, value) in entries.iter_mut() {
        match (key.as_str(), value) {
            ("allOf" | "anyOf" | "oneOf", Value::Arr(items)) => items
                .iter_mut()
                .for_each(|item| cut_in_place_ref(item, target)),
            ("not", not) => cut_in_place_ref(not, target),
            _ => {}
        }
    }
}

/// The component a `#/components/schemas/…` reference names (its pointer decoded: `~1`, `~0`,
/// and the `%XX` the generator may write for the first character).
fn component_of(reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix("#/components/schemas/")?;
    let pointer = match pointer.strip_prefix('%') {
        Some(rest) if rest.len() >= 2 => {
            let byte = u8::from_str_radix(&rest[..2], 16).ok()?;
            format!("{}{}", byte as char, &rest[2..])
        }
        _ => pointer.to_string(),
    };
    Some(pointer.replace("~1", "/").replace("~0", "~"))
}
