//! The random document generator: schemas of every shape the generator reads, parameters,
//! bodies and responses, each drawn from a seed's random numbers; with the shapes JSON
//! Schema's test suite writes (counts as `2.0`, percent-encoded references, property names
//! with control characters).

use super::*;

/// What a component schema is, so parameters can refer only to scalar ones.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Shape {
    Scalar,
    Object,
    Other,
}

pub(super) struct Gen {
    pub(super) rng: Rng,
    pub(super) names: Vec<&'static str>,
    pub(super) components: Vec<(String, Shape)>,
    /// An OpenAPI 3.1 document: JSON Schema 2020-12 spellings (`type: [T, "null"]`, numeric
    /// `exclusiveMinimum`, `const`, `prefixItems`, `examples`) and `webhooks`.
    pub(super) v31: bool,
}

impl Gen {
    pub(super) fn name(&mut self) -> String {
        self.rng.pick(&self.names).to_string()
    }

    /// A name for a component or a path segment: letters, digits, `.`, `-`, `_` only.
    pub(super) fn plain_name(&mut self) -> String {
        loop {
            let n = self.name();
            if !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            {
                return n;
            }
        }
    }

    /// A header or cookie name: an HTTP token.
    pub(super) fn token_name(&mut self) -> String {
        loop {
            let n = self.name();
            if !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
            {
                return n;
            }
        }
    }

    pub(super) fn scalar(&mut self) -> Value {
        let mut entries: Vec<(&str, Value)> = Vec::new();
        match self.rng.below(6) {
            0 | 1 => {
                entries.push(("type", s("string")));
                if self.rng.chance(25) {
                    let n = self.rng.below(40) as i64 + 1;
                    // JSON Schema's suite writes counts as `2.0` too: an integer all the same.
                    let n = match self.rng.chance(20) {
                        true => Value::Raw(format!("{n}.0")),
                        false => Value::Int(n),
                    };
                    entries.push(("maxLength", n));
                }
                if self.rng.chance(15) {
                    entries.push(("minLength", Value::Int(self.rng.below(3) as i64)));
                }
                if self.rng.chance(10) {
                    entries.push(("pattern", s("^[a-z0-9]*$")));
                }
                if self.rng.chance(10) {
                    entries.push((
                        "format",
                        s(self
                            .rng
                            .pick::<&str>(&["date-time", "date", "uuid", "email", "byte"])),
                    ));
                }
            }
            2 => {
                entries.push(("type", s("integer")));
                if self.rng.chance(60) {
                    entries.push(("format", s(self.rng.pick::<&str>(&["int32", "int64"]))));
                }
                if self.rng.chance(30) {
                    entries.push(("minimum", Value::Int(self.rng.below(10) as i64 - 3)));
                }
                if self.rng.chance(20) {
                    entries.push(("maximum", Value::Int(self.rng.below(1000) as i64 + 10)));
                }
                if self.rng.chance(10) {
                    if self.v31 {
                        entries.push(("exclusiveMinimum", Value::Int(0)));
                    } else {
                        entries.push(("exclusiveMinimum", Value::Bool(true)));
                        entries.push(("minimum", Value::Int(0)));
                    }
                }
                if self.rng.chance(10) {
                    entries.push(("multipleOf", Value::Int(self.rng.below(5) as i64 + 1)));
                }
            }
            3 => {
                entries.push(("type", s("number")));
                if self.rng.chance(50) {
                    entries.push(("format", s(self.rng.pick::<&str>(&["float", "double"]))));
                }
                if self.rng.chance(20) {
                    entries.push(("maximum", Value::Int(100)));
                }
            }
            4 => entries.push(("type", s("boolean"))),
            5 if self.v31 && self.rng.chance(30) => {
                entries.push(("type", s("string")));
                entries.push(("const", s(&self.name())));
            }
            _ => {
                entries.push(("type", s("string")));
                let n = self.rng.below(4) + 1;
                let mut values: Vec<Value> = Vec::new();
                // A value drawn twice is listed twice (JSON Schema only advises against it).
                for _ in 0..n {
                    values.push(s(&self.name()));
                }
                entries.push(("enum", Value::Arr(values)));
            }
        }
        obj(entries)
    }

    pub(super) fn reference(&mut self, wanted: Option<Shape>) -> Option<Value> {
        let candidates: Vec<String> = self
            .components
            .iter()
            .filter(|(_, shape)| wanted.is_none_or(|w| w == *shape))
            .map(|(n, _)| n.clone())
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let name = self.rng.pick(&candidates).clone();
        let mut pointer = name.replace('~', "~0").replace('/', "~1");
        // A fragment is URI-encoded (RFC 6901 §6): the suite writes `#/$defs/percent%25field`.
        if self.rng.chance(15)
            && let Some(first) = pointer.chars().next().filter(char::is_ascii_alphanumeric)
        {
            pointer = format!("%{:02X}{}", first as u32, &pointer[1..]);
        }
        Some(obj(vec![(
            "$ref",
            s(&format!("#/components/schemas/{pointer}")),
        )]))
    }

    pub(super) fn schema(&mut self, depth: usize) -> Value {
        let choice = if depth >= 2 {
            self.rng.below(2)
        } else {
            self.rng.below(9)
        };
        let mut schema = match choice {
            0 => self.scalar(),
            1 => self.reference(None).unwrap_or_else(|| self.scalar()),
            2 | 3 => self.object(depth),
            4 => {
                let mut entries = vec![("type", s("array")), ("items", self.schema(depth + 1))];
                if self.rng.chance(20) {
                    entries.push(("maxItems", Value::Int(self.rng.below(10) as i64 + 1)));
                }
                if self.rng.chance(10) {
                    entries.push(("minItems", Value::Int(1)));
                }
                if self.rng.chance(10) {
                    entries.push(("uniqueItems", Value::Bool(true)));
                }
                obj(entries)
            }
            5 if self.v31 && self.rng.chance(30) => {
                let n = self.rng.below(3) + 1;
                let items = (0..n).map(|_| self.schema(depth + 1)).collect();
                obj(vec![
                    ("type", s("array")),
                    ("prefixItems", Value::Arr(items)),
                    ("items", Value::Bool(false)),
                ])
            }
            5 => obj(vec![
                ("type", s("object")),
                ("additionalProperties", self.schema(depth + 1)),
            ]),
            6 => {
                let keyword = if self.rng.chance(70) {
                    "oneOf"
                } else {
                    "anyOf"
                };
                let n = self.rng.below(3) + 1;
                let variants = (0..n).map(|_| self.schema(depth + 1)).collect();
                obj(vec![(keyword, Value::Arr(variants))])
            }
            7 => {
                let mut parts = Vec::new();
                if let Some(r) = self.reference(Some(Shape::Object)) {
                    parts.push(r);
                }
                parts.push(self.object(depth + 1));
                obj(vec![("allOf", Value::Arr(parts))])
            }
            _ => self.scalar(),
        };
        let nullable = self.rng.chance(15);
        if let Value::Obj(entries) = &mut schema {
            let is_ref = entries.iter().any(|(k, _)| k == "$ref");
            if !is_ref && nullable && !self.v31 {
                entries.push(("nullable".into(), Value::Bool(true)));
            }
            if !is_ref && self.rng.chance(15) {
                entries.push(("description".into(), s(&format!("About {}.", self.name()))));
            }
            if self.v31 && self.rng.chance(10) {
                entries.push(("examples".into(), Value::Arr(vec![s(&self.name())])));
            }
        }
        if nullable && self.v31 {
            // 3.1's two spellings of "or null": a `type` list, or `anyOf` with `{type: null}`
            // (what pydantic writes), around anything else.
            let typed = match &mut schema {
                Value::Obj(entries) => entries.iter_mut().find(|(k, _)| k == "type"),
                _ => None,
            };
            match typed {
                Some((_, ty @ Value::Str(_))) => {
                    let single = std::mem::replace(ty, Value::Arr(Vec::new()));
                    *ty = Value::Arr(vec![single, s("null")]);
                }
                _ => {
                    schema = obj(vec![(
                        "anyOf",
                        Value::Arr(vec![schema, obj(vec![("type", s("null"))])]),
                    )]);
                }
            }
        }
        schema
    }

    pub(super) fn object(&mut self, depth: usize) -> Value {
        let n = self.rng.below(5);
        let mut properties: Vec<(String, Value)> = Vec::new();
        let mut required = Vec::new();
        for _ in 0..n {
            let mut name = self.name();
            // Property names with control characters (the suite's `foo\rbar`).
            if self.rng.chance(4) {
                name.push(*self.rng.pick(&['\r', '\t', '\u{7}']));
            }
            if properties.iter().any(|(k, _)| *k == name) {
                continue;
            }
            let mut schema = self.schema(depth + 1);
            if let Value::Obj(entries) = &mut schema {
                if self.rng.chance(5) && !entries.iter().any(|(k, _)| k == "$ref") {
                    entries.push(("readOnly".into(), Value::Bool(true)));
                }
                if self.rng.chance(5) && !entries.iter().any(|(k, _)| k == "$ref") {
                    entries.push(("deprecated".into(), Value::Bool(true)));
                }
            }
            if self.rng.chance(40) {
                required.push(s(&name));
            }
            properties.push((name, schema));
        }
        let mut entries = vec![("type", s("object"))];
        if !properties.is_empty() {
            entries.push(("properties", Value::Obj(properties)));
        }
        if !required.is_empty() {
            entries.push(("required", Value::Arr(required)));
        }
        match self.rng.below(6) {
            0 => entries.push(("additionalProperties", Value::Bool(false))),
            1 => entries.push(("additionalProperties", Value::Bool(true))),
            2 => entries.push(("additionalProperties", self.scalar())),
            _ => {}
        }
        obj(entries)
    }

    /// A parameter's schema: a scalar, a scalar component, or an array of scalars.
    pub(super) fn parameter_schema(&mut self, array_ok: bool) -> Value {
        match self.rng.below(5) {
            0 => self
                .reference(Some(Shape::Scalar))
                .unwrap_or_else(|| self.scalar()),
            1 if array_ok => obj(vec![("type", s("array")), ("items", self.scalar())]),
            _ => self.scalar(),
        }
    }

    pub(super) fn content(&mut self, media: &str, depth: usize) -> Value {
        let schema = match media {
            "text/plain" => obj(vec![("type", s("string"))]),
            "application/octet-stream" => obj(vec![("type", s("string")), ("format", s("binary"))]),
            "application/x-www-form-urlencoded" => {
                let mut o = self.object(2);
                if let Value::Obj(entries) = &mut o {
                    entries.retain(|(k, _)| k != "additionalProperties");
                }
                o
            }
            _ => self.schema(depth),
        };
        obj(vec![(media, obj(vec![("schema", schema)]))])
    }

    pub(super) fn operation(
        &mut self,
        templates: &[String],
        ids: &mut BTreeSet<String>,
        schemes: &[String],
    ) -> Value {
        let mut entries: Vec<(&str, Value)> = Vec::new();
        if self.rng.chance(85) {
            let id = self.name();
            if !id.is_empty() && ids.insert(id.clone()) {
                entries.push(("operationId", s(&id)));
            }
        }
        if self.rng.chance(20) {
            entries.push(("summary", s(&format!("Does {}.", self.name()))));
        }
        if self.rng.chance(10) {
            entries.push(("deprecated", Value::Bool(true)));
        }
        let mut params = Vec::new();
        let mut taken: BTreeSet<(String, String)> = BTreeSet::new();
        for t in templates {
            taken.insert((t.clone(), "path".into()));
            params.push(obj(vec![
                ("name", s(t)),
                ("in", s("path")),
                ("required", Value::Bool(true)),
                ("schema", self.parameter_schema(false)),
            ]));
        }
        for _ in 0..self.rng.below(6) {
            let location = *self.rng.pick(&["query", "query", "header", "cookie"]);
            let name = match location {
                "query" => self.name(),
                _ => self.token_name(),
            };
            if name.is_empty() || !taken.insert((name.clone(), location.to_string())) {
                continue;
            }
            let mut p = vec![
                ("name", s(&name)),
                ("in", s(location)),
                ("schema", self.parameter_schema(location != "cookie")),
            ];
            if self.rng.chance(40) {
                p.push(("required", Value::Bool(true)));
            }
            if self.rng.chance(10) {
                p.push(("deprecated", Value::Bool(true)));
            }
            params.push(obj(p));
        }
        if !params.is_empty() {
            entries.push(("parameters", Value::Arr(params)));
        }
        if self.rng.chance(45) {
            let media = *self.rng.pick(&[
                "application/json",
                "application/json",
                "application/x-www-form-urlencoded",
                "text/plain",
                "application/octet-stream",
            ]);
            let mut body = vec![("content", self.content(media, 0))];
            if self.rng.chance(60) {
                body.push(("required", Value::Bool(true)));
            }
            entries.push(("requestBody", obj(body)));
        }
        let mut responses: Vec<(String, Value)> = Vec::new();
        for _ in 0..self.rng.below(4) + 1 {
            let status = *self.rng.pick(&[
                "200", "200", "201", "202", "204", "400", "404", "409", "4XX", "5XX", "default",
            ]);
            if responses.iter().any(|(k, _)| k == status) {
                continue;
            }
            let mut r = vec![("description", s(&format!("{status} answer")))];
            if status != "204" && self.rng.chance(70) {
                let media = *self.rng.pick(&[
                    "application/json",
                    "application/json",
                    "application/json",
                    "text/plain",
                    "application/octet-stream",
                ]);
                r.push(("content", self.content(media, 0)));
            }
            if self.rng.chance(20) {
                let mut headers: Vec<(String, Value)> = Vec::new();
                for _ in 0..self.rng.below(3) + 1 {
                    let name = self.token_name();
                    if headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(&name)) {
                        continue;
                    }
                    let schema = self.parameter_schema(true);
                    headers.push((name, obj(vec![("schema", schema)])));
                }
                r.push(("headers", Value::Obj(headers)));
            }
            responses.push((status.to_string(), obj(r)));
        }
        entries.push(("responses", Value::Obj(responses)));
        if !schemes.is_empty() && self.rng.chance(30) {
            let alternatives = (0..self.rng.below(3))
                .map(|_| {
                    let scheme = self.rng.pick(schemes).clone();
                    Value::Obj(vec![(scheme, Value::Arr(Vec::new()))])
                })
                .collect();
            entries.push(("security", Value::Arr(alternatives)));
        }
        obj(entries)
    }
}
