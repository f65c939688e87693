//! Schemas → named Rust types: component schemas keep their names, inline object/enum/oneOf
//! schemas are named from where they stand, and everything else becomes a `TypeRef`.

use crate::diag::{Sink, push};
pub use crate::docs::doc_lines;
use crate::ir::{
    Bound, Constraints, Discriminator, EnumVariant, Field, OneOf, OneOfVariant, RequiredAnyOf,
    Struct, TypeDef, TypeKind, TypeRef,
};
use crate::load;
use crate::naming::{self, Scope, reserved};
use openapiv3::{
    AdditionalProperties, AnySchema, IntegerFormat, NumberFormat, OpenAPI, ReferenceOr, Schema,
    SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty,
};
use std::collections::{BTreeMap, BTreeSet};

/// Lowers schemas into the type list, remembering component names.
pub struct Schemas<'a> {
    doc: &'a OpenAPI,
    pub types: Vec<TypeDef>,
    scope: Scope,
    /// Component name → Rust type name.
    components: BTreeMap<String, String>,
    /// Components currently being lowered (for `allOf` cycles).
    in_progress: BTreeSet<String>,
    /// References into component schemas, already lowered.
    deep_refs: BTreeMap<String, TypeRef>,
    /// Inline schemas being defined right now (by address in the document) and their names:
    /// an `allOf` that merges in the properties of a schema it stands in reaches the same
    /// node again, which then names the type being defined (a recursive type) instead of
    /// defining a new one forever.
    defining: Vec<(*const Schema, String)>,
    /// How many schemas deep the lowering is: past [`MAX_NESTING`] it stops with an error.
    nesting: usize,
    /// `Options::string_formats`: `uuid`, `date-time`, … stay `String`.
    pub string_formats: bool,
}

/// The deepest schema nesting lowered. Real documents stay far below (the corpus: under 15);
/// a deeper one is refused with an error at the schema where the limit was passed, so that
/// no document, however deep or cyclic, can exhaust the stack.
pub const MAX_NESTING: usize = 64;

/// A schema reference as it appears in properties and items (boxed or not).
pub enum SchemaRef<'s> {
    Ref(&'s str),
    Item(&'s Schema),
}

impl<'s> SchemaRef<'s> {
    pub fn of(r: &'s ReferenceOr<Schema>) -> Self {
        match r {
            ReferenceOr::Reference { reference } => SchemaRef::Ref(reference),
            ReferenceOr::Item(s) => SchemaRef::Item(s),
        }
    }

    pub fn of_boxed(r: &'s ReferenceOr<Box<Schema>>) -> Self {
        match r {
            ReferenceOr::Reference { reference } => SchemaRef::Ref(reference),
            ReferenceOr::Item(s) => SchemaRef::Item(s),
        }
    }
}

impl<'a> Schemas<'a> {
    /// Names every component schema first, so references resolve in any order.
    pub fn new(doc: &'a OpenAPI) -> Self {
        let mut scope = Scope::reserving(reserved::TYPES_MODULE);
        let mut components = BTreeMap::new();
        if let Some(c) = &doc.components {
            for name in c.schemas.keys() {
                components.insert(name.clone(), scope.claim(naming::pascal(name)));
            }
        }
        Schemas {
            doc,
            types: Vec::new(),
            scope,
            components,
            in_progress: BTreeSet::new(),
            deep_refs: BTreeMap::new(),
            defining: Vec::new(),
            nesting: 0,
            string_formats: false,
        }
    }

    /// Lowers every component schema into a named type.
    pub fn lower_components(&mut self, sink: &mut Sink) {
        let Some(c) = &self.doc.components else {
            return;
        };
        for (name, schema) in &c.schemas {
            let rust = self.components[name].clone();
            let pointer = load::origin(schema).unwrap_or_else(|| push("/components/schemas", name));
            match schema {
                ReferenceOr::Item(s) => self.define(&rust, s, &pointer, sink),
                ReferenceOr::Reference { .. } => {
                    let ty = self.type_of(SchemaRef::of(schema), &rust, &pointer, sink);
                    self.types.push(TypeDef {
                        name: rust,
                        origin: pointer,
                        doc: Vec::new(),
                        kind: TypeKind::Alias(ty, Constraints::default()),
                        validated: false,
                        example: None,
                    });
                }
            }
        }
    }

    /// The Rust type for a schema standing at `pointer`; inline composite schemas become new
    /// named types called `hint`.
    pub fn type_of(
        &mut self,
        s: SchemaRef<'_>,
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeRef {
        if self.nesting >= MAX_NESTING {
            sink.error(
                pointer,
                format!("schemas nest more than {MAX_NESTING} levels deep here"),
            );
            return TypeRef::Json;
        }
        self.nesting += 1;
        let ty = self.type_of_nested(s, hint, pointer, sink);
        self.nesting -= 1;
        ty
    }

    fn type_of_nested(
        &mut self,
        s: SchemaRef<'_>,
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeRef {
        match s {
            SchemaRef::Ref(reference) => match self.component(reference) {
                Ok(name) => TypeRef::Named(name),
                Err(message) => match self.inside_component(reference, sink) {
                    Some(ty) => ty,
                    // A local reference to nothing is a mistake in the document (a typo in
                    // a name): an error, never a silent `serde_json::Value`. Local references
                    // to places we do not read schemas from, and external ones, fall back.
                    None if reference.starts_with('#') && !self.exists(reference) => {
                        sink.error(pointer, format!("`{reference}` points at nothing"));
                        TypeRef::Json
                    }
                    None => {
                        sink.warn(pointer, format!("{message}; using any JSON value"));
                        TypeRef::Json
                    }
                },
            },
            SchemaRef::Item(schema) => self.inline(schema, hint, pointer, sink),
        }
    }

    /// A reference into a component schema (`#/components/schemas/Event/properties/type`):
    /// the schema found there, lowered once and named after the place.
    fn inside_component(&mut self, reference: &str, sink: &mut Sink) -> Option<TypeRef> {
        if let Some(done) = self.deep_refs.get(reference) {
            return Some(done.clone());
        }
        let rest = reference.strip_prefix("#/components/schemas/")?;
        let mut tokens = rest.split('/').map(load::unescape);
        let component = tokens.next()?;
        let tokens: Vec<String> = tokens.collect();
        if tokens.is_empty() {
            return None;
        }
        let mut value = serde_json::to_value(load::schema_by_name(self.doc, &component)?).ok()?;
        for token in &tokens {
            value = match value {
                serde_json::Value::Object(mut map) => map.remove(token)?,
                serde_json::Value::Array(mut items) => {
                    let i: usize = token.parse().ok()?;
                    (i < items.len()).then(|| items.swap_remove(i))?
                }
                _ => return None,
            };
        }
        let found: ReferenceOr<Schema> = serde_json::from_value(value).ok()?;
        // Guard against a reference that leads back to itself.
        self.deep_refs.insert(reference.to_string(), TypeRef::Json);
        let hint = format!(
            "{}{}",
            self.components.get(&component).cloned().unwrap_or_default(),
            naming::pascal(tokens.last().map(String::as_str).unwrap_or("Part"))
        );
        let at = reference.trim_start_matches('#').to_string();
        let ty = self.type_of(SchemaRef::of(&found), &hint, &at, sink);
        self.deep_refs.insert(reference.to_string(), ty.clone());
        Some(ty)
    }

    /// Whether a local reference (`#/…`) leads to anything in the document.
    fn exists(&self, reference: &str) -> bool {
        let Ok(mut value) = serde_json::to_value(self.doc) else {
            return true;
        };
        let pointer = reference.trim_start_matches('#');
        for token in pointer.split('/').skip(1).map(load::unescape) {
            value = match value {
                serde_json::Value::Object(mut map) => match map.remove(&token) {
                    Some(v) => v,
                    None => return false,
                },
                serde_json::Value::Array(mut items) => match token.parse::<usize>() {
                    Ok(i) if i < items.len() => items.swap_remove(i),
                    _ => return false,
                },
                _ => return false,
            };
        }
        true
    }

    fn component(&self, reference: &str) -> Result<String, String> {
        let name = load::unescape(load::ref_name(reference, "schemas")?);
        self.components
            .get(&name)
            .cloned()
            .ok_or_else(|| format!("`{reference}` points at nothing"))
    }

    /// Whether values of `ty` are single strings, numbers or booleans (what a path, query,
    /// header or cookie value can hold): scalars, string enums and aliases of scalars.
    pub fn is_scalar(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(name) => scalar_types(&self.types).contains(name),
            other => other.is_scalar(),
        }
    }

    /// For a union of one scalar and an array of that scalar (discord's `tag`: `oneOf:
    /// [string, array of snowflakes]`), the array type and the constraints a list of values
    /// is checked by: in a form-style query, one value and an array of one item are the same
    /// text, so the parameter is a list. An item is checked only by what both variants ask of
    /// it (a value the scalar variant takes is valid), the list by `maxItems` and
    /// `uniqueItems` (a single value meets them), not by a `minItems` above one.
    pub fn one_or_many(&self, ty: &TypeRef) -> Option<(TypeRef, Constraints)> {
        let TypeRef::Named(name) = ty else {
            return None;
        };
        let def = self.types.iter().find(|t| &t.name == name)?;
        let TypeKind::OneOf(o) = &def.kind else {
            return None;
        };
        let [a, b] = &o.variants[..] else {
            return None;
        };
        let (one, many) = match (&a.ty, &b.ty) {
            (_, TypeRef::Vec(_)) => (a, b),
            (TypeRef::Vec(_), _) => (b, a),
            _ => return None,
        };
        let TypeRef::Vec(item) = &many.ty else {
            return None;
        };
        // Items that may be `null` are read as their type (a query has no null).
        let item = match item.as_ref() {
            TypeRef::Nullable(inner) => inner.as_ref(),
            item => item,
        };
        // The items are the scalar, or an alias of it (discord's `tag`: `oneOf: [string,
        // array of SnowflakeType]`, a patterned string).
        if !self.is_scalar(item) || self.scalar_of(item) != self.scalar_of(&one.ty) {
            return None;
        }
        // An item is checked by what both variants ask of it (a value the scalar variant
        // takes is valid); beyond that, the array variant's item checks apply when there are
        // several values, which only the array variant takes.
        let (each, each_when_several) = match many.constraints.each.as_deref() {
            Some(each) if *each == one.constraints => (Some(Box::new(each.clone())), false),
            Some(each) if one.constraints.is_empty() => (Some(Box::new(each.clone())), true),
            _ => (None, false),
        };
        let constraints = Constraints {
            max_items: many.constraints.max_items,
            unique_items: many.constraints.unique_items,
            min_items: many.constraints.min_items.filter(|&n| n <= 1),
            each,
            each_when_several,
            ..Constraints::default()
        };
        // Values of the scalar variant's type: one value may be any text it takes.
        Some((TypeRef::Vec(Box::new(one.ty.clone())), constraints))
    }

    /// The scalar a type is, through aliases of scalars (`SnowflakeType` → `String`).
    fn scalar_of(&self, ty: &TypeRef) -> TypeRef {
        let mut ty = ty.clone();
        for _ in 0..8 {
            let TypeRef::Named(name) = &ty else {
                break;
            };
            match self.types.iter().find(|t| &t.name == name).map(|t| &t.kind) {
                Some(TypeKind::Alias(inner, _)) => ty = inner.clone(),
                _ => break,
            }
        }
        ty
    }

    /// The shape of a type as an object-valued query parameter: `Some(Some(names))` for a
    /// struct whose members are all scalars or lists of them (and nothing beyond its
    /// properties), `Some(None)` for a map of scalars, `None` for anything a query cannot
    /// carry member by member (nested objects).
    pub fn query_object(&self, ty: &TypeRef) -> Option<Option<Vec<String>>> {
        let flat = |t: &TypeRef| match t {
            TypeRef::Vec(inner) => self.is_scalar(inner),
            other => self.is_scalar(other),
        };
        match ty {
            TypeRef::Map(inner) if self.is_scalar(inner) => Some(None),
            TypeRef::Named(name) => {
                let def = self.types.iter().find(|t| &t.name == name)?;
                match &def.kind {
                    TypeKind::Alias(inner, _) => self.query_object(inner),
                    TypeKind::Struct(st)
                        if st.additional.is_none()
                            && !st.fields.is_empty()
                            && st.fields.iter().all(|f| flat(&f.ty)) =>
                    {
                        Some(Some(st.fields.iter().map(|f| f.wire.clone()).collect()))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Follows a reference to the schema it names.
    fn resolve<'s>(&'s self, s: SchemaRef<'s>) -> Option<&'s Schema> {
        let mut current = s;
        for _ in 0..32 {
            match current {
                SchemaRef::Item(schema) => return Some(schema),
                SchemaRef::Ref(reference) => {
                    let name = load::unescape(load::ref_name(reference, "schemas").ok()?);
                    current = SchemaRef::of(load::schema_by_name(self.doc, &name)?);
                }
            }
        }
        None
    }

    /// Whether the schema (through references) admits `null` beside other values (one that
    /// admits only `null` is [`TypeRef::Unit`], which holds it).
    /// Whether every branch of the `anyOf`/`oneOf` that `s` is (nested ones too) says
    /// `flag`; false for a schema that is no union.
    fn every_branch(
        &self,
        s: SchemaRef<'_>,
        flag: fn(&openapiv3::SchemaData) -> bool,
        depth: usize,
    ) -> bool {
        let Some(schema) = self.resolve(s) else {
            return false;
        };
        let branches = match &schema.schema_kind {
            SchemaKind::OneOf { one_of: b } | SchemaKind::AnyOf { any_of: b } => b,
            SchemaKind::Any(any) if any.properties.is_empty() && any.all_of.is_empty() => {
                if any.one_of.is_empty() {
                    &any.any_of
                } else {
                    &any.one_of
                }
            }
            _ => return false,
        };
        depth < 8
            && !branches.is_empty()
            && branches.iter().all(|b| {
                let b = SchemaRef::of(b);
                self.resolve(SchemaRef::of_ref(&b))
                    .is_some_and(|r| flag(&r.schema_data))
                    || self.every_branch(b, flag, depth + 1)
            })
    }

    pub fn nullable(&self, s: SchemaRef<'_>) -> bool {
        self.resolve(s).is_some_and(|schema| {
            !only_null(schema)
                && (schema.schema_data.nullable
                    || matches!(&schema.schema_kind, SchemaKind::Type(Type::String(t)) if t.enumeration.contains(&None)))
        })
    }

    /// An array's item or a map's value of type `ty`, `Option` of it when its schema admits
    /// `null` (api.github.com's gist `files`, a map whose values may be `null`; its
    /// code-scanning `classifications`, items of a nullable enum): a property carries its own
    /// nullability, items and values had none, so `null` failed to decode.
    pub fn or_null(&self, s: SchemaRef<'_>, ty: TypeRef) -> TypeRef {
        if self.nullable(s) && !matches!(ty, TypeRef::Json | TypeRef::Unit | TypeRef::Nullable(_)) {
            TypeRef::Nullable(Box::new(ty))
        } else {
            ty
        }
    }

    /// Constraints of the schema (through references), enforced where the value is read;
    /// those of a tuple's items too (each through its own references).
    pub fn constraints(&self, s: SchemaRef<'_>) -> Constraints {
        self.constraints_within(s, 0)
    }

    /// [`Self::constraints`], `depth` items or values deep (a recursive schema, an array of
    /// itself, ends somewhere).
    fn constraints_within(&self, s: SchemaRef<'_>, depth: usize) -> Constraints {
        let Some(schema) = self.resolve(s) else {
            return Constraints::default();
        };
        let mut c = constraints_of(schema);
        if let SchemaKind::Any(any) = &schema.schema_kind
            && is_scalar_all_of(any)
        {
            for part in &any.all_of {
                c.narrow(&self.constraints_within(SchemaRef::of(part), depth));
            }
        }
        // A one-part `allOf` with a title beside is the part (nexus's `NameOrId` variants:
        // `{title: name, allOf: [{$ref: Name}]}`), constraints and all.
        if let SchemaKind::AllOf { all_of } = &schema.schema_kind
            && all_of.len() == 1
            && depth < 8
        {
            c.narrow(&self.constraints_within(SchemaRef::of(&all_of[0]), depth + 1));
        }
        let each = match &schema.schema_kind {
            SchemaKind::Type(Type::Array(a)) => a.items.as_ref(),
            SchemaKind::Any(any) => any.items.as_ref(),
            _ => None,
        };
        // A map's values: `additionalProperties` of an object with no properties of its own
        // (what `type_of` reads as a map).
        let each = each.map(SchemaRef::of_boxed).or(match &schema.schema_kind {
            SchemaKind::Type(Type::Object(o)) if o.properties.is_empty() => {
                match &o.additional_properties {
                    Some(AdditionalProperties::Schema(s)) => Some(SchemaRef::of(s)),
                    _ => None,
                }
            }
            _ => None,
        });
        if let Some(each) = each
            && depth < 8
            && prefix_items(schema).is_none()
        {
            let inner = self.constraints_within(each, depth + 1);
            if !inner.is_empty() {
                c.each = Some(Box::new(inner));
            }
        }
        if let Some(parts) = prefix_items(schema) {
            // `items: false` after them: no more items than they list (what a list read in
            // place of a tuple, see `tuple`, must check itself).
            if items_closed(schema) {
                c.max_items = Some(c.max_items.map_or(parts.len(), |m| m.min(parts.len())));
            }
            let items: Vec<Constraints> = parts
                .iter()
                .map(|part| self.constraints(SchemaRef::of(part)))
                .collect();
            if items.iter().any(|i| !i.is_empty()) {
                c.prefix_items = items;
            }
        }
        c
    }

    /// Description lines of the schema (through references).
    pub fn description(&self, s: SchemaRef<'_>) -> Vec<String> {
        self.resolve(s)
            .map(|schema| doc_lines(schema.schema_data.description.as_deref()))
            .unwrap_or_default()
    }

    /// The default value of the schema (through references).
    pub fn default_value(&self, s: SchemaRef<'_>) -> Option<serde_json::Value> {
        self.resolve(s)
            .and_then(|schema| schema.schema_data.default.clone())
    }

    fn inline(&mut self, schema: &Schema, hint: &str, pointer: &str, sink: &mut Sink) -> TypeRef {
        let address: *const Schema = schema;
        if let Some((_, name)) = self.defining.iter().find(|(a, _)| *a == address) {
            return TypeRef::Named(name.clone());
        }
        if let Some(prim) = self.primitive(schema, hint, pointer, sink) {
            return prim;
        }
        let name = self.scope.claim(naming::pascal(hint));
        self.defining.push((address, name.clone()));
        self.define(&name, schema, pointer, sink);
        self.defining.pop();
        TypeRef::Named(name)
    }

    /// A string: bytes when the 3.1 `contentEncoding` says base64, the format's own type when
    /// it has one (docs/architecture.md, "String formats") and `string_formats` is off, else
    /// `String`.
    fn string_type(
        &self,
        schema: &Schema,
        format: Option<&str>,
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeRef {
        let encoding = schema
            .schema_data
            .extensions
            .get("x-apigen-content-encoding")
            .and_then(|v| v.as_str());
        match encoding.map(str::to_ascii_lowercase).as_deref() {
            None if self.string_formats => TypeRef::String,
            None => format.and_then(format_type).unwrap_or(TypeRef::String),
            Some("base64") => TypeRef::Base64,
            Some("base64url") => TypeRef::Base64Url,
            Some(other) => {
                sink.warn(
                    push(pointer, "contentEncoding"),
                    format!("`contentEncoding: {other}` is not decoded; the value stays a string"),
                );
                TypeRef::String
            }
        }
    }

    /// Scalars, arrays and maps need no type of their own; `None` means it does.
    fn primitive(
        &mut self,
        schema: &Schema,
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> Option<TypeRef> {
        Some(match &schema.schema_kind {
            // `enum: [null]` (schemars' `()`): no string fits, only `null`.
            _ if only_null(schema) => TypeRef::Unit,
            SchemaKind::Type(Type::String(s))
                if s.enumeration.iter().flatten().next().is_some() =>
            {
                return None;
            }
            SchemaKind::Type(Type::String(s)) => {
                let format = match &s.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some("date"),
                    VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => Some("date-time"),
                    VariantOrUnknownOrEmpty::Unknown(f) => Some(f.as_str()),
                    _ => None,
                };
                self.string_type(schema, format, pointer, sink)
            }
            SchemaKind::Type(Type::Boolean(_)) => TypeRef::Bool,
            SchemaKind::Type(Type::Integer(i)) => integer(&i.format),
            SchemaKind::Type(Type::Number(n)) => match &n.format {
                VariantOrUnknownOrEmpty::Item(NumberFormat::Float) => TypeRef::F32,
                _ => TypeRef::F64,
            },
            SchemaKind::Type(Type::Array(a)) if prefix_items(schema).is_some() => {
                let bounds = (a.min_items, a.max_items);
                self.tuple(schema, a.items.as_ref(), bounds, hint, pointer, sink)
            }
            SchemaKind::Type(Type::Array(a)) => {
                let item = match &a.items {
                    Some(items) => {
                        let item = self.type_of(
                            SchemaRef::of_boxed(items),
                            &format!("{hint}Item"),
                            &push(pointer, "items"),
                            sink,
                        );
                        self.or_null(SchemaRef::of_boxed(items), item)
                    }
                    None => TypeRef::Json,
                };
                TypeRef::Vec(Box::new(item))
            }
            // Names checked by the server: a type of its own.
            SchemaKind::Type(Type::Object(o))
                if o.properties.is_empty() && pattern_properties(schema).is_some() =>
            {
                return None;
            }
            SchemaKind::Type(Type::Object(o)) if o.properties.is_empty() => {
                match &o.additional_properties {
                    Some(AdditionalProperties::Schema(s)) => {
                        let value = self.type_of(
                            SchemaRef::of(s),
                            &format!("{hint}Value"),
                            &push(pointer, "additionalProperties"),
                            sink,
                        );
                        TypeRef::Map(Box::new(self.or_null(SchemaRef::of(s), value)))
                    }
                    _ => TypeRef::JsonObject,
                }
            }
            // `{type: string, enum: [], allOf: [{$ref: Status}]}` (discord's query `status`):
            // the one part says what the string is; an empty `enum`, which read literally
            // admits nothing, is taken for "none listed" (README "Type mapping").
            SchemaKind::Any(any) if string_beside_one_part(any) => {
                return Some(self.type_of(
                    SchemaRef::of(&any.all_of[0]),
                    hint,
                    &push(&push(pointer, "allOf"), "0"),
                    sink,
                ));
            }
            SchemaKind::Any(any) => {
                let composite = !any.properties.is_empty()
                    || !any.one_of.is_empty()
                    || !any.any_of.is_empty()
                    || !any.all_of.is_empty() && !is_scalar_all_of(any)
                    || any.typ.as_deref() == Some("object") && any.additional_properties.is_some();
                if composite {
                    return None;
                }
                match any.typ.as_deref() {
                    Some("string") if any.enumeration.is_empty() => {
                        self.string_type(schema, any.format.as_deref(), pointer, sink)
                    }
                    Some("boolean") => TypeRef::Bool,
                    Some("integer") => any_integer(any.format.as_deref()),
                    Some("number") if any.format.as_deref() == Some("float") => TypeRef::F32,
                    Some("number") => TypeRef::F64,
                    Some("object") if pattern_properties(schema).is_some() => return None,
                    Some("object") => TypeRef::JsonObject,
                    Some("array") if prefix_items(schema).is_some() => self.tuple(
                        schema,
                        any.items.as_ref(),
                        (any.min_items, any.max_items),
                        hint,
                        pointer,
                        sink,
                    ),
                    Some("array") => match &any.items {
                        Some(items) => {
                            let item = self.type_of(
                                SchemaRef::of_boxed(items),
                                &format!("{hint}Item"),
                                &push(pointer, "items"),
                                sink,
                            );
                            TypeRef::Vec(Box::new(item))
                        }
                        None => TypeRef::Vec(Box::new(TypeRef::Json)),
                    },
                    _ => TypeRef::Json,
                }
            }
            SchemaKind::Not { .. } => {
                sink.warn(
                    pointer,
                    "`not` cannot be expressed as a Rust type; using any JSON value",
                );
                TypeRef::Json
            }
            SchemaKind::AllOf { all_of } if all_of.len() == 1 => {
                // A single-part allOf is the part itself, with a title or description beside.
                return Some(self.type_of(
                    SchemaRef::of(&all_of[0]),
                    hint,
                    &push(&push(pointer, "allOf"), "0"),
                    sink,
                ));
            }
            _ => return None,
        })
    }

    /// Lowers `schema` into a type named `name` (already claimed).
    fn define(&mut self, name: &str, schema: &Schema, pointer: &str, sink: &mut Sink) {
        let doc = doc_lines(
            schema
                .schema_data
                .description
                .as_deref()
                .or(schema.schema_data.title.as_deref()),
        );
        let kind = match &schema.schema_kind {
            SchemaKind::Type(Type::Object(o)) if !o.properties.is_empty() => {
                let props = properties(&o.properties, &o.required);
                TypeKind::Struct(self.object(
                    name,
                    props,
                    o.additional_properties.as_ref(),
                    pointer,
                    sink,
                ))
            }
            SchemaKind::Type(Type::String(s))
                if s.enumeration.iter().flatten().next().is_some() =>
            {
                TypeKind::Enum(enum_variants(
                    s.enumeration.iter().flatten().map(String::as_str),
                ))
            }
            SchemaKind::OneOf { one_of } => {
                self.one_of(name, one_of, schema, pointer, "oneOf", sink)
            }
            SchemaKind::AnyOf { any_of } => {
                self.one_of(name, any_of, schema, pointer, "anyOf", sink)
            }
            SchemaKind::AllOf { all_of } => self.all_of(name, all_of, pointer, sink),
            // Properties of its own beside `allOf` (swagger-parser issue 1796's
            // `ComposedModel`: `name`, and `allOf: [BaseModel]` with `uuid`): a value must fit
            // both, so the struct holds both; its own members alone lost the parts' (the mock
            // answered without the required `uuid`).
            SchemaKind::Any(any)
                if !any.properties.is_empty()
                    && !any.all_of.is_empty()
                    && !is_scalar_all_of(any)
                    && any.one_of.is_empty()
                    && any.any_of.is_empty() =>
            {
                let own = Own {
                    props: &any.properties,
                    required: &any.required,
                    additional: any.additional_properties.as_ref(),
                };
                self.merge_all_of(name, Some(own), &any.all_of, pointer, sink)
            }
            SchemaKind::Any(any) if !any.properties.is_empty() => {
                let props = properties(&any.properties, &any.required);
                TypeKind::Struct(self.object(
                    name,
                    props,
                    any.additional_properties.as_ref(),
                    pointer,
                    sink,
                ))
            }
            SchemaKind::Any(any) if !any.one_of.is_empty() || !any.any_of.is_empty() => {
                let parts = if any.one_of.is_empty() {
                    &any.any_of
                } else {
                    &any.one_of
                };
                self.one_of(name, parts, schema, pointer, "oneOf", sink)
            }
            // A string `enum` beside `allOf` (discord's scopes: `{type: string, enum:
            // [applications.commands, bot], allOf: [{$ref: OAuth2Scopes}]}`, a `oneOf` of
            // constants): the values it lists are the ones the parts may narrow, so it is that
            // enum; merged as object parts, it became any JSON value, and the mock's `{}`.
            SchemaKind::Any(any) if string_enum_beside_all_of(any) => TypeKind::Enum(
                enum_variants(any.enumeration.iter().filter_map(serde_json::Value::as_str)),
            ),
            SchemaKind::Any(any)
                if !any.all_of.is_empty()
                    && !is_scalar_all_of(any)
                    && !string_beside_one_part(any) =>
            {
                self.all_of(name, &any.all_of, pointer, sink)
            }
            // `patternProperties` alone: a struct of extra properties only, so that the
            // server checks their names wherever the type is used (struct_31 fills it in).
            SchemaKind::Type(Type::Object(o)) if pattern_properties(schema).is_some() => {
                TypeKind::Struct(self.object(
                    name,
                    Vec::new(),
                    o.additional_properties.as_ref(),
                    pointer,
                    sink,
                ))
            }
            SchemaKind::Any(any)
                if any.typ.as_deref() == Some("object") && pattern_properties(schema).is_some() =>
            {
                TypeKind::Struct(self.object(
                    name,
                    Vec::new(),
                    any.additional_properties.as_ref(),
                    pointer,
                    sink,
                ))
            }
            _ => {
                let ty = self
                    .primitive(schema, name, pointer, sink)
                    .unwrap_or(TypeRef::Json);
                TypeKind::Alias(ty, self.constraints(SchemaRef::Item(schema)))
            }
        };
        let mut kind = kind;
        if let TypeKind::Struct(st) = &mut kind {
            self.struct_31(st, schema, name, pointer, sink);
        }
        self.types.push(TypeDef {
            name: name.to_string(),
            origin: pointer.to_string(),
            doc,
            kind,
            validated: false,
            example: schema.schema_data.example.clone(),
        });
    }

    /// 3.1 keywords of an object that became a struct: `dependentRequired` (checked) and
    /// `patternProperties` (the extra properties, their names checked).
    fn struct_31(
        &mut self,
        st: &mut Struct,
        schema: &Schema,
        name: &str,
        pointer: &str,
        sink: &mut Sink,
    ) {
        if let Some(deps) = schema
            .schema_data
            .extensions
            .get("x-apigen-dependent-required")
            .and_then(|v| v.as_object())
        {
            for (present, needed) in deps {
                let needed: Vec<String> = needed
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let known = |wire: &str| st.fields.iter().any(|f| f.wire == wire);
                let unknown: Vec<&String> = std::iter::once(present)
                    .chain(needed.iter())
                    .filter(|w| !known(w))
                    .collect();
                if !unknown.is_empty() {
                    sink.warn(
                        push(&push(pointer, "dependentRequired"), present),
                        format!("`dependentRequired` names properties the schema does not declare ({}); not checked", unknown.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")),
                    );
                    continue;
                }
                st.dependent_required.push((present.clone(), needed));
            }
        }
        if let Some(serde_json::Value::Array(groups)) = schema
            .schema_data
            .extensions
            .get("x-apigen-required-any-of")
        {
            // An empty group is the branch `{maxProperties: 0}` (load/normalize.rs).
            let (empty, groups): (Vec<Vec<String>>, Vec<Vec<String>>) = groups
                .iter()
                .map(|g| {
                    g.as_array()
                        .map(|l| {
                            l.iter()
                                .filter_map(|v| v.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .partition(Vec::is_empty);
            let known = |wire: &String| st.fields.iter().any(|f| &f.wire == wire);
            if groups.iter().flatten().all(known) {
                let or_empty = !empty.is_empty();
                // To tell `{}` from `{"other": 1}` (no branch takes it), the properties the
                // schema does not declare are kept, as `additionalProperties: true` would.
                if or_empty && st.additional.is_none() && !st.deny_unknown {
                    st.additional = Some(TypeRef::Json);
                }
                st.required_any_of = Some(RequiredAnyOf { groups, or_empty });
            } else {
                sink.warn(
                    push(pointer, "anyOf"),
                    "`anyOf` of `required` lists names properties the schema does not declare; not checked",
                );
            }
        }
        if let Some((pattern, value)) = self.pattern_value(schema, name, pointer, sink) {
            // Names beyond the declared ones must match, unless `additionalProperties`
            // admits others. (Left out, it would admit any name with any value; a map whose
            // names are checked is what such a schema means in practice, so that is the
            // reading, documented in the README.)
            if st.additional.is_none() {
                st.additional = Some(value);
                st.additional_pattern = Some(pattern);
                st.deny_unknown = false;
            }
        }
    }

    /// `prefixItems`: a tuple of the listed item types when nothing may follow them
    /// (`items: false`, or `maxItems` equal to their number), and also, stricter than the
    /// schema (with a warning), when later items are only left open; a list of JSON values
    /// when `items` describes more. A tuple is exact in length, so where `minItems` (0 when
    /// absent) lets an array stop before the last listed item, it is a list instead: of the
    /// items' type when they all have one schema, else of JSON values. Reading `[]` as
    /// "missing the first item" would refuse what the document allows (redocly-cli's
    /// `prefixItems: [string], items: false`, whose answers Prism sends empty).
    fn tuple(
        &mut self,
        schema: &Schema,
        items: Option<&ReferenceOr<Box<Schema>>>,
        (min_items, max_items): (Option<usize>, Option<usize>),
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeRef {
        let parts = prefix_items(schema).unwrap_or_default();
        let at = push(pointer, "x-apigen-prefix-items");
        let closed = items_closed(schema);
        if items.is_some() && !closed {
            sink.warn(
                push(pointer, "items"),
                "`prefixItems` followed by more `items` cannot be a Rust tuple; using a list of JSON values",
            );
            return TypeRef::Vec(Box::new(TypeRef::Json));
        }
        if parts.is_empty() || parts.len() > 12 {
            sink.warn(
                &at,
                "`prefixItems` with no entry or more than 12 cannot be a Rust tuple; using a list of JSON values",
            );
            return TypeRef::Vec(Box::new(TypeRef::Json));
        }
        if min_items.unwrap_or(0) < parts.len() {
            let same = parts.iter().all(|p| p == &parts[0]);
            let item = if same {
                self.type_of(
                    SchemaRef::of(&parts[0]),
                    &format!("{hint}Item"),
                    &push(&at, "0"),
                    sink,
                )
            } else {
                TypeRef::Json
            };
            sink.warn(
                &at,
                format!(
                    "`prefixItems` where `minItems` allows fewer items than it lists ({}) cannot be a Rust tuple (its length is fixed); using a list of {}",
                    parts.len(),
                    if same { "the items' type" } else { "JSON values" }
                ),
            );
            return TypeRef::Vec(Box::new(item));
        }
        if !closed && max_items != Some(parts.len()) {
            sink.warn(
                &at,
                format!("`prefixItems` read as a tuple of exactly {} items; the schema also allows more (add `items: false` or `maxItems` to say it does not)", parts.len()),
            );
        }
        let types = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                self.type_of(
                    SchemaRef::of(part),
                    &format!("{hint}{}", i + 1),
                    &push(&at, &i.to_string()),
                    sink,
                )
            })
            .collect();
        TypeRef::Tuple(types)
    }

    /// The value type and name pattern of `patternProperties` (one pattern: its schema;
    /// several: any JSON value, names matching any of them).
    fn pattern_value(
        &mut self,
        schema: &Schema,
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> Option<(String, TypeRef)> {
        let patterns = pattern_properties(schema)?;
        let at = push(pointer, "x-apigen-pattern-properties");
        let joined = if patterns.len() == 1 {
            patterns[0].0.clone()
        } else {
            patterns
                .iter()
                .map(|(p, _)| format!("(?:{p})"))
                .collect::<Vec<_>>()
                .join("|")
        };
        let value = match patterns.as_slice() {
            [(p, s)] => self.type_of(
                SchemaRef::of(s),
                &format!("{hint}Value"),
                &push(&at, p),
                sink,
            ),
            _ => TypeRef::Json,
        };
        Some((joined, value))
    }

    fn object(
        &mut self,
        owner: &str,
        props: Vec<(String, SchemaRef<'_>, bool)>,
        additional: Option<&AdditionalProperties>,
        pointer: &str,
        sink: &mut Sink,
    ) -> Struct {
        // `additional` is a reserved field name when extra properties are kept.
        let mut scope =
            if additional.is_some_and(|a| !matches!(a, AdditionalProperties::Any(false))) {
                Scope::reserving(reserved::STRUCT_FIELDS)
            } else {
                Scope::new()
            };
        let mut fields = Vec::new();
        for (wire, schema, required) in props {
            let at = push(&push(pointer, "properties"), &wire);
            let rust = scope.claim(naming::snake(&wire));
            let hint = format!("{owner}{}", naming::pascal(&wire));
            let data = self
                .resolve(SchemaRef::of_ref(&schema))
                .map(|s| s.schema_data.clone());
            let nullable = self.nullable(SchemaRef::of_ref(&schema));
            let constraints = self.constraints(SchemaRef::of_ref(&schema));
            let write_only = self.every_branch(SchemaRef::of_ref(&schema), |d| d.write_only, 0);
            let read_only = self.every_branch(SchemaRef::of_ref(&schema), |d| d.read_only, 0);
            let ty = self.type_of(schema, &hint, &at, sink);
            let mut data = data.unwrap_or_default();
            // A union each of whose branches is writeOnly (readOnly) is so too: prefect's
            // `auth_string` is `anyOf: [{type: string, writeOnly: true}, {type: null}]` beside
            // a keyword of its own, so the branch stays a branch; read as an ordinary
            // property, the mock answered it, which the document forbids.
            data.write_only |= write_only;
            data.read_only |= read_only;
            // One Rust type serves requests and responses, so a property only one direction
            // carries cannot be required in it: readOnly ones are absent from requests,
            // writeOnly ones from responses.
            let required_in_answers = required && !data.write_only;
            let required = required && !data.read_only && !data.write_only;
            fields.push(Field {
                setter: naming::setter(&rust),
                rust,
                wire,
                check_ty: ty.clone(),
                ty,
                required,
                required_in_answers,
                nullable,
                boxed: false,
                doc: doc_lines(data.description.as_deref()),
                constraints,
                deprecated: data.deprecated,
                read_only: data.read_only,
                write_only: data.write_only,
                default: data.default,
                example: data.example,
            });
        }
        let (additional, deny_unknown) = match additional {
            None | Some(AdditionalProperties::Any(false)) => (None, additional.is_some()),
            Some(AdditionalProperties::Any(true)) => (Some(TypeRef::Json), false),
            Some(AdditionalProperties::Schema(s)) => {
                let ty = self.type_of(
                    SchemaRef::of(s),
                    &format!("{owner}Value"),
                    &push(pointer, "additionalProperties"),
                    sink,
                );
                (Some(ty), false)
            }
        };
        // `_x` and `x` would both be set by `with_x`: the second becomes `with_x_2`.
        let mut setters = Scope::new();
        for f in &mut fields {
            f.setter = setters.claim(std::mem::take(&mut f.setter));
        }
        Struct {
            fields,
            additional,
            deny_unknown,
            dependent_required: Vec::new(),
            required_any_of: None,
            additional_pattern: None,
        }
    }

    fn one_of(
        &mut self,
        owner: &str,
        parts: &[ReferenceOr<Schema>],
        schema: &Schema,
        pointer: &str,
        keyword: &str,
        sink: &mut Sink,
    ) -> TypeKind {
        let mut scope = Scope::new();
        let mut variants = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let at = push(&push(pointer, keyword), &i.to_string());
            let label = match part {
                ReferenceOr::Reference { reference } => self
                    .component(reference)
                    .unwrap_or_else(|_| format!("Variant{i}")),
                ReferenceOr::Item(s) => s
                    .schema_data
                    .title
                    .as_deref()
                    .map(naming::pascal)
                    .unwrap_or_else(|| variant_label(s, i)),
            };
            let rust = scope.claim(label.clone());
            let ty = self.type_of(SchemaRef::of(part), &format!("{owner}{label}"), &at, sink);
            variants.push(OneOfVariant {
                rust,
                check_ty: ty.clone(),
                ty,
                boxed: false,
                constraints: self.constraints(SchemaRef::of(part)),
            });
        }
        let discriminator = schema
            .schema_data
            .discriminator
            .as_ref()
            .map(|d| Discriminator {
                property: d.property_name.clone(),
                integer: false,
                mapping: self.tags(
                    parts,
                    &d.property_name,
                    &d.mapping,
                    &push(pointer, "discriminator"),
                    sink,
                ),
            });
        let discriminator = discriminator.or_else(|| self.implied_discriminator(parts));
        // Only `$ref` variants have a name, and only some variants pin the property; with no
        // value naming any variant, the variants are tried in order instead.
        let discriminator = match discriminator {
            Some(d) if d.mapping.is_empty() => {
                sink.warn(
                    push(pointer, "discriminator"),
                    "no variant is a `$ref` or pins the property to a value, so the discriminator maps no value; the first variant that decodes is chosen",
                );
                None
            }
            other => other,
        };
        if variants.is_empty() {
            sink.warn(pointer, format!("empty `{keyword}`; using any JSON value"));
            return TypeKind::Alias(TypeRef::Json, Constraints::default());
        }
        TypeKind::OneOf(OneOf {
            variants,
            discriminator,
            scalar: false,
        })
    }

    /// The discriminator of a union that names none but whose variants each pin one property
    /// to values no other variant allows (openai's chunking strategies: `type` is `auto` in
    /// one, `static` in the other; variants that are not objects aside): the union is tagged
    /// by that property, as if the document
    /// said so. Tried in order instead, a variant whose property is an enum that keeps unknown
    /// values (the client's `Unknown`) would read the other's value too, and drop what only
    /// the other has (`{"type": "static", "static": {…}}` read as the `auto` variant sent
    /// `{"type": "static"}`). Only the pinned values name a variant, not the schemas' names:
    /// without a `discriminator` OpenAPI's implicit mapping does not apply, and the variants'
    /// own schemas refuse those names.
    fn implied_discriminator(&self, parts: &[ReferenceOr<Schema>]) -> Option<Discriminator> {
        // Variants that are not objects (openai's `tool_choice` is a string or one of two
        // objects) carry no property; a JSON value without it tries the variants in order.
        let scalar = |part: &ReferenceOr<Schema>| {
            self.resolve(SchemaRef::of(part)).is_some_and(|s| {
                matches!(
                    s.schema_kind,
                    SchemaKind::Type(
                        Type::String(_)
                            | Type::Number(_)
                            | Type::Integer(_)
                            | Type::Boolean(_)
                            | Type::Array(_)
                    )
                )
            })
        };
        let objects: Vec<(usize, &ReferenceOr<Schema>)> = parts
            .iter()
            .enumerate()
            .filter(|(_, part)| !scalar(part))
            .collect();
        if objects.len() < 2 {
            return None;
        }
        let mut props = Vec::new();
        let mut additional = None;
        let mut seen = BTreeSet::new();
        collect_all_of(
            self.doc,
            SchemaRef::of(objects[0].1),
            &mut props,
            &mut additional,
            &mut seen,
            0,
        );
        // String values first (what OpenAPI's discriminators are), then integers.
        [Pin::String, Pin::Integer].into_iter().find_map(|pin| {
            props.iter().find_map(|(property, _, _)| {
                let mut mapping: Vec<(String, usize)> = Vec::new();
                for &(i, part) in &objects {
                    let values = self.pinned(SchemaRef::of(part), property, pin, 0);
                    if values.is_empty()
                        || values.iter().any(|v| mapping.iter().any(|(m, _)| m == v))
                    {
                        return None;
                    }
                    mapping.extend(values.into_iter().map(|v| (v, i)));
                }
                Some(Discriminator {
                    property: property.clone(),
                    mapping,
                    integer: pin == Pin::Integer,
                })
            })
        })
    }

    /// The discriminator's values and the variant each names, the first one of a variant being
    /// the one written when encoding: the `mapping`'s keys for the variant; else the values
    /// the variant pins the property to (`type: {enum: [function]}`, 3.1 `const`, or those of
    /// a nested union's variants), which is what servers and the document's examples send
    /// (typify reads such a union the same way), and then the schema's name, which OpenAPI's
    /// implicit mapping also allows. A value that would name two variants names the first.
    ///
    /// A `mapping` key that the variant's own property forbids (scalar-galaxy maps `planet`
    /// to a `Planet` whose `type` is one of `terrestrial`, `gas_giant`, …) is said: no value
    /// fits both, and the mapping, which names the variant, is what is written.
    fn tags(
        &self,
        parts: &[ReferenceOr<Schema>],
        property: &str,
        explicit: &indexmap::IndexMap<String, String>,
        at: &str,
        sink: &mut Sink,
    ) -> Vec<(String, usize)> {
        let mut mapping: Vec<(String, usize)> = Vec::new();
        let mut claim = |value: String, i: usize| {
            if !mapping.iter().any(|(v, _)| *v == value) {
                mapping.push((value, i));
            }
        };
        let mut named = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let reference = variant_reference(part);
            let keys: Vec<&String> = reference
                .map(|reference| {
                    explicit
                        .iter()
                        .filter(|(_, target)| {
                            *target == reference
                                || reference.rsplit('/').next() == Some(target.as_str())
                        })
                        .map(|(value, _)| value)
                        .collect()
                })
                .unwrap_or_default();
            if !keys.is_empty() {
                let allowed = self.pinned(SchemaRef::of(part), property, Pin::String, 0);
                for key in keys
                    .iter()
                    .filter(|k| !allowed.is_empty() && !allowed.contains(k))
                {
                    sink.warn(
                        push(&push(at, "mapping"), key),
                        format!(
                            "maps `{key}` to a variant whose `{property}` allows only {}: no value fits both; `{key}` is written (the mapping names the variant), which the variant's schema refuses",
                            allowed
                                .iter()
                                .map(|v| format!("`{v}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                keys.into_iter().for_each(|k| claim(k.clone(), i));
                continue;
            }
            for value in self.pinned(SchemaRef::of(part), property, Pin::String, 0) {
                claim(value, i);
            }
            if let Some(reference) = reference {
                named.push((
                    load::unescape(reference.rsplit('/').next().unwrap_or_default()),
                    i,
                ));
            }
        }
        for (name, i) in named {
            claim(name, i);
        }
        mapping
    }

    /// The string values a variant allows for `property`, when it restricts them: the
    /// property's `enum` (3.1's `const` is read as a one-value `enum`; openai's web search
    /// tool allows `web_search_preview` and a dated alias), through references and `allOf`;
    /// for a variant that is a union itself (openai's `Item` among `InputItem`'s variants),
    /// the values of its own variants, as deep as they go.
    fn pinned(&self, s: SchemaRef<'_>, property: &str, pin: Pin, depth: usize) -> Vec<String> {
        if depth > 8 {
            return Vec::new();
        }
        let Some(schema) = self.resolve(SchemaRef::of_ref(&s)) else {
            return Vec::new();
        };
        // A wrapper of one `allOf` part beside parts that only say "an object": 3.1's
        // `{$ref: Item, title: Item, type: object}` (openai's `InputItem` variant), read as an
        // `allOf` of the reference and its siblings, pins what the part pins.
        let parts = match &schema.schema_kind {
            SchemaKind::AllOf { all_of } => Some(all_of),
            SchemaKind::Any(any)
                if any.properties.is_empty() && any.one_of.is_empty() && any.any_of.is_empty() =>
            {
                Some(&any.all_of)
            }
            _ => None,
        };
        if let Some((_, part)) = parts.and_then(|parts| self.sole_meaningful_part(parts)) {
            return self.pinned(SchemaRef::of(part), property, pin, depth + 1);
        }
        let nested: Option<&Vec<ReferenceOr<Schema>>> = match &schema.schema_kind {
            SchemaKind::OneOf { one_of } => Some(one_of),
            SchemaKind::AnyOf { any_of } => Some(any_of),
            SchemaKind::Any(any) if !any.one_of.is_empty() && any.properties.is_empty() => {
                Some(&any.one_of)
            }
            SchemaKind::Any(any) if !any.any_of.is_empty() && any.properties.is_empty() => {
                Some(&any.any_of)
            }
            _ => None,
        };
        if let Some(parts) = nested {
            let mut values = Vec::new();
            for part in parts {
                for v in self.pinned(SchemaRef::of(part), property, pin, depth + 1) {
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
            }
            return values;
        }
        let mut props = Vec::new();
        let mut additional = None;
        let mut seen = BTreeSet::new();
        collect_all_of(self.doc, s, &mut props, &mut additional, &mut seen, 0);
        let Some((_, schema, _)) = props
            .into_iter()
            .rev()
            .find(|(name, _, _)| name == property)
        else {
            return Vec::new();
        };
        let Some(mut schema) = self.resolve(schema) else {
            return Vec::new();
        };
        // `allOf: [{$ref: ToolType}]`: a property that only refers to its type.
        for _ in 0..8 {
            match &schema.schema_kind {
                SchemaKind::AllOf { all_of } if all_of.len() == 1 => {
                    match self.resolve(SchemaRef::of(&all_of[0])) {
                        Some(inner) => schema = inner,
                        None => return Vec::new(),
                    }
                }
                _ => break,
            }
        }
        match (&schema.schema_kind, pin) {
            (SchemaKind::Type(Type::String(t)), Pin::String) => {
                t.enumeration.iter().flatten().cloned().collect()
            }
            (SchemaKind::Type(Type::Integer(t)), Pin::Integer) => {
                t.enumeration.iter().flatten().map(i64::to_string).collect()
            }
            // `{type: integer, enum: [2], allOf: [{$ref: ActionType}]}` (discord): the `enum`
            // beside the `allOf` is the narrower.
            (SchemaKind::Any(any), Pin::String) if any.typ.as_deref() != Some("integer") => any
                .enumeration
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            (SchemaKind::Any(any), Pin::Integer) if any.typ.as_deref() != Some("string") => any
                .enumeration
                .iter()
                .filter_map(|v| v.as_i64().map(|n| n.to_string()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The one `allOf` part (with its index) that says more than "an object", when all the
    /// others say only that: how 3.1's `{$ref: X, title: X, type: object}` reads, an `allOf`
    /// of the reference and its siblings, which means `X`.
    fn sole_meaningful_part<'p>(
        &self,
        parts: &'p [ReferenceOr<Schema>],
    ) -> Option<(usize, &'p ReferenceOr<Schema>)> {
        let mut meaningful = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| !self.resolve(SchemaRef::of(p)).is_some_and(is_bare_object));
        match (meaningful.next(), meaningful.next()) {
            (Some(part), None) => Some(part),
            _ => None,
        }
    }

    /// Merges the properties of every part into one struct.
    fn all_of<'s>(
        &mut self,
        owner: &str,
        parts: &'s [ReferenceOr<Schema>],
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeKind
    where
        'a: 's,
    {
        // One part that is a union beside parts that only say "an object" (3.1's `{$ref: Item,
        // title: Item, type: object}`, read as an `allOf` of the reference and its siblings,
        // where openai's `Item` is a `oneOf`): that union, not object parts to merge (which
        // fell back to any JSON value, and lost the union's tags).
        if let Some((i, part)) = self.sole_meaningful_part(parts)
            && self.resolve(SchemaRef::of(part)).is_some_and(is_union)
        {
            let at = push(&push(pointer, "allOf"), &i.to_string());
            let ty = self.type_of(SchemaRef::of(part), &format!("{owner}Part"), &at, sink);
            return TypeKind::Alias(ty, Constraints::default());
        }
        self.merge_all_of(owner, None, parts, pointer, sink)
    }

    /// Merges the schema's own members (when it has any beside `allOf`) and those of every
    /// part into one struct; the own `required` also names members a part declares.
    fn merge_all_of<'s>(
        &mut self,
        owner: &str,
        own: Option<Own<'s>>,
        parts: &'s [ReferenceOr<Schema>],
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeKind
    where
        'a: 's,
    {
        let mut props: Vec<(String, SchemaRef<'s>, bool)> = Vec::new();
        let mut additional = None;
        if let Some(own) = &own {
            props.extend(
                own.props
                    .iter()
                    .map(|(k, v)| (k.clone(), SchemaRef::of_boxed(v), false)),
            );
            additional = own.additional;
        }
        let mut ok = true;
        let doc: &'s OpenAPI = self.doc;
        for (i, part) in parts.iter().enumerate() {
            let at = push(&push(pointer, "allOf"), &i.to_string());
            if !collect_all_of(
                doc,
                SchemaRef::of(part),
                &mut props,
                &mut additional,
                &mut self.in_progress,
                0,
            ) {
                sink.warn(
                    &at,
                    "an `allOf` part is not an object schema; using any JSON value for the whole",
                );
                ok = false;
            }
        }
        if !ok {
            return TypeKind::Alias(TypeRef::Json, Constraints::default());
        }
        if let Some(own) = &own {
            for name in own.required {
                match props.iter_mut().find(|(n, _, _)| n == name) {
                    Some(p) => p.2 = true,
                    // Required with no schema anywhere: present, with any value (`properties`).
                    None => props.push((name.clone(), SchemaRef::Item(&ANY_VALUE), true)),
                }
            }
        }
        // A property listed twice (refined in a later part) keeps its first position.
        let mut merged: Vec<(String, SchemaRef<'s>, bool)> = Vec::new();
        for (name, schema, required) in props {
            if let Some(existing) = merged.iter_mut().find(|(n, _, _)| *n == name) {
                existing.2 |= required;
                if !matches!(schema, SchemaRef::Item(s) if is_empty_schema(s)) {
                    existing.1 = schema;
                }
            } else {
                merged.push((name, schema, required));
            }
        }
        TypeKind::Struct(self.object(owner, merged, additional, pointer, sink))
    }
}

/// A schema's own members beside its `allOf`.
struct Own<'s> {
    props: &'s indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>,
    required: &'s [String],
    additional: Option<&'s AdditionalProperties>,
}

impl<'s> SchemaRef<'s> {
    fn of_ref(other: &SchemaRef<'s>) -> SchemaRef<'s> {
        match other {
            SchemaRef::Ref(r) => SchemaRef::Ref(r),
            SchemaRef::Item(s) => SchemaRef::Item(s),
        }
    }
}

/// The component a `oneOf` variant names: a `$ref`, or a `$ref` the 3.1 up-reading wrapped
/// in `allOf` to keep its sibling annotations (openai: `- $ref: …/TranscriptTextUsageTokens`
/// with a `title`).
/// `enum: [null]`, with `type: string` or none: a schema only `null` fits (schemars writes it
/// for `()`; typify reads it as `()`). Read literally, `type: string` admits no `null` at all;
/// every server that writes it sends `null`, and so does Prism.
fn only_null(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) => {
            !s.enumeration.is_empty() && s.enumeration.iter().all(Option::is_none)
        }
        SchemaKind::Any(any) => {
            any.typ.as_deref().is_none_or(|t| t == "string")
                && !any.enumeration.is_empty()
                && any.enumeration.iter().all(serde_json::Value::is_null)
                && any.properties.is_empty()
                && any.one_of.is_empty()
                && any.any_of.is_empty()
                && any.all_of.is_empty()
        }
        _ => false,
    }
}

fn variant_reference(part: &ReferenceOr<Schema>) -> Option<&String> {
    match part {
        ReferenceOr::Reference { reference } => Some(reference),
        ReferenceOr::Item(s) => match &s.schema_kind {
            SchemaKind::AllOf { all_of } if all_of.len() == 1 => match &all_of[0] {
                ReferenceOr::Reference { reference } => Some(reference),
                ReferenceOr::Item(_) => None,
            },
            _ => None,
        },
    }
}

/// (name, schema, required) for each declared property, in document order.
fn properties<'s>(
    props: &'s indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>,
    required: &[String],
) -> Vec<(String, SchemaRef<'s>, bool)> {
    let mut out: Vec<(String, SchemaRef<'s>, bool)> = props
        .iter()
        .map(|(k, v)| (k.clone(), SchemaRef::of_boxed(v), required.contains(k)))
        .collect();
    // A required member the schema gives no schema of its own must still be present, with
    // any value (progenitor's cli-gen: `required: [required]` beside `properties: {gateway}`):
    // a field of any JSON value, so that a request carries it and an answer keeps it.
    for name in required.iter().filter(|r| !props.contains_key(*r)) {
        if !out.iter().any(|(n, _, _)| n == name) {
            out.push((name.clone(), SchemaRef::Item(&ANY_VALUE), true));
        }
    }
    out
}

/// The schema `{}`: any value.
static ANY_VALUE: std::sync::LazyLock<Schema> = std::sync::LazyLock::new(|| Schema {
    schema_data: Default::default(),
    schema_kind: SchemaKind::Any(AnySchema::default()),
});

fn is_empty_schema(s: &Schema) -> bool {
    matches!(&s.schema_kind, SchemaKind::Any(a) if a.typ.is_none() && a.properties.is_empty())
}

/// Whether the schema says only "an object": `type: object` and annotations, no members,
/// bounds or union.
fn is_bare_object(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(o)) => {
            o.properties.is_empty()
                && o.required.is_empty()
                && o.additional_properties.is_none()
                && o.min_properties.is_none()
                && o.max_properties.is_none()
        }
        _ => false,
    }
}

/// Whether the schema is a `oneOf`/`anyOf` with no members of its own.
fn is_union(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. } => true,
        SchemaKind::Any(any) => {
            (!any.one_of.is_empty() || !any.any_of.is_empty()) && any.properties.is_empty()
        }
        _ => false,
    }
}

/// Which values [`Schemas::pinned`] reads: a string property's (`type: {enum: [function]}`)
/// or an integer property's (discord's `type: {type: integer, enum: [2]}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pin {
    String,
    Integer,
}

fn collect_all_of<'a>(
    doc: &'a OpenAPI,
    part: SchemaRef<'a>,
    props: &mut Vec<(String, SchemaRef<'a>, bool)>,
    additional: &mut Option<&'a AdditionalProperties>,
    seen: &mut BTreeSet<String>,
    depth: usize,
) -> bool {
    if depth > 32 {
        return false;
    }
    let schema = match part {
        SchemaRef::Item(s) => s,
        SchemaRef::Ref(reference) => {
            let Ok(name) = load::ref_name(reference, "schemas") else {
                return false;
            };
            let name = load::unescape(name);
            if !seen.insert(name.clone()) {
                return false;
            }
            let found = load::schema_by_name(doc, &name);
            let result = match found {
                Some(r) => {
                    collect_all_of(doc, SchemaRef::of(r), props, additional, seen, depth + 1)
                }
                None => false,
            };
            seen.remove(&name);
            return result;
        }
    };
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(o)) => {
            for (k, v) in &o.properties {
                props.push((k.clone(), SchemaRef::of_boxed(v), o.required.contains(k)));
            }
            for r in &o.required {
                if let Some(p) = props.iter_mut().find(|(n, _, _)| n == r) {
                    p.2 = true;
                }
            }
            if o.additional_properties.is_some() {
                *additional = o.additional_properties.as_ref();
            }
            true
        }
        SchemaKind::AllOf { all_of } => all_of
            .iter()
            .all(|p| collect_all_of(doc, SchemaRef::of(p), props, additional, seen, depth + 1)),
        SchemaKind::Any(any) => {
            for (k, v) in &any.properties {
                props.push((k.clone(), SchemaRef::of_boxed(v), any.required.contains(k)));
            }
            for r in &any.required {
                if let Some(p) = props.iter_mut().find(|(n, _, _)| n == r) {
                    p.2 = true;
                }
            }
            let nested_ok = any
                .all_of
                .iter()
                .all(|p| collect_all_of(doc, SchemaRef::of(p), props, additional, seen, depth + 1));
            nested_ok && any.one_of.is_empty() && any.any_of.is_empty()
        }
        _ => false,
    }
}

/// The type of a string `format` that has one. Formats are case-sensitive names (JSON Schema
/// 2020-12, 7.3), so `dateTime` or `UUID` stay strings. `uri`, `email`, `hostname` stay
/// strings too: see docs/architecture.md, "String formats".
pub fn format_type(format: &str) -> Option<TypeRef> {
    Some(match format {
        "uuid" => TypeRef::Uuid,
        "date-time" => TypeRef::DateTime,
        "date" => TypeRef::Date,
        "ipv4" => TypeRef::Ipv4,
        "ipv6" => TypeRef::Ipv6,
        _ => return None,
    })
}

/// Whether an array schema's `items` is `false` (read as `not: {}`): nothing may follow its
/// `prefixItems`.
fn items_closed(schema: &Schema) -> bool {
    let items = match &schema.schema_kind {
        SchemaKind::Type(Type::Array(a)) => a.items.as_ref(),
        SchemaKind::Any(any) => any.items.as_ref(),
        _ => None,
    };
    matches!(items, Some(ReferenceOr::Item(s)) if matches!(&s.schema_kind, SchemaKind::Not { .. }))
}

/// The `prefixItems` of a 3.1 schema (carried by the up-reading), when there are any.
fn prefix_items(schema: &Schema) -> Option<Vec<ReferenceOr<Schema>>> {
    let value = schema.schema_data.extensions.get("x-apigen-prefix-items")?;
    serde_json::from_value(value.clone()).ok()
}

/// The `patternProperties` of a 3.1 schema: (pattern, schema), in document order.
fn pattern_properties(schema: &Schema) -> Option<Vec<(String, ReferenceOr<Schema>)>> {
    let map = schema
        .schema_data
        .extensions
        .get("x-apigen-pattern-properties")?
        .as_object()?;
    let out: Vec<_> = map
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), serde_json::from_value(v.clone()).ok()?)))
        .collect();
    (!out.is_empty()).then_some(out)
}

/// An integer's Rust type from a `format` openapiv3 left as text (on an "any" schema).
fn any_integer(format: Option<&str>) -> TypeRef {
    match format {
        Some("int32") => TypeRef::I32,
        Some(other) => integer(&VariantOrUnknownOrEmpty::Unknown(other.to_string())),
        None => TypeRef::I64,
    }
}

/// `allOf` around a number or boolean (discord: `{type: integer, enum: [1], allOf: [{$ref:
/// MessageComponentTypes}]}`): one value that must meet every part, so that scalar with the
/// parts' constraints narrowing its own, not a struct.
/// `{type: string, enum: [..], allOf: [..]}`: an enum of strings, whatever the parts say.
fn string_enum_beside_all_of(any: &AnySchema) -> bool {
    any.typ.as_deref() == Some("string")
        && !any.all_of.is_empty()
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && !any.enumeration.is_empty()
        && any.enumeration.iter().all(serde_json::Value::is_string)
}

/// `{type: string, allOf: [one part]}` and nothing else that shapes the value: the part.
fn string_beside_one_part(any: &AnySchema) -> bool {
    any.typ.as_deref() == Some("string")
        && any.all_of.len() == 1
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && any.enumeration.is_empty()
}

fn is_scalar_all_of(any: &AnySchema) -> bool {
    !any.all_of.is_empty()
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && matches!(any.typ.as_deref(), Some("integer" | "number" | "boolean"))
}

fn integer(format: &VariantOrUnknownOrEmpty<IntegerFormat>) -> TypeRef {
    match format {
        VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => TypeRef::I32,
        VariantOrUnknownOrEmpty::Item(IntegerFormat::Int64) => TypeRef::I64,
        VariantOrUnknownOrEmpty::Unknown(f) => match f.as_str() {
            "uint8" => TypeRef::U8,
            "uint16" => TypeRef::U16,
            "uint32" => TypeRef::U32,
            "uint64" | "uint" => TypeRef::U64,
            "int8" | "int16" => TypeRef::I32,
            _ => TypeRef::I64,
        },
        VariantOrUnknownOrEmpty::Empty => TypeRef::I64,
    }
}

fn variant_label(s: &Schema, i: usize) -> String {
    match &s.schema_kind {
        SchemaKind::Type(Type::String(_)) => "String".into(),
        SchemaKind::Type(Type::Integer(_)) => "Integer".into(),
        SchemaKind::Type(Type::Number(_)) => "Number".into(),
        SchemaKind::Type(Type::Boolean(_)) => "Boolean".into(),
        SchemaKind::Type(Type::Array(_)) => "Array".into(),
        _ => format!("Variant{i}"),
    }
}

/// Variants for a string enumeration; values that are not identifiers get readable names.
pub fn enum_variants<'v>(values: impl Iterator<Item = &'v str>) -> Vec<EnumVariant> {
    let mut scope = Scope::reserving(reserved::ENUM_VARIANTS);
    values
        .map(|wire| EnumVariant {
            rust: scope.claim(if wire.is_empty() {
                "Empty".to_string()
            } else {
                naming::pascal(wire)
            }),
            wire: wire.to_string(),
        })
        .collect()
}

/// The constraints the server enforces for one schema.
pub fn constraints_of(schema: &Schema) -> Constraints {
    let mut c = Constraints::default();
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) => {
            c.min_length = s.min_length;
            c.max_length = s.max_length;
            c.pattern = s.pattern.clone();
            // The format, for values made up (the mock's) and, for those the server checks,
            // as a check; a format read into a type of its own drops both
            // (`Constraints::drop_string_checks`).
            let format = match &s.format {
                VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some("date".to_string()),
                VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => {
                    Some("date-time".to_string())
                }
                VariantOrUnknownOrEmpty::Unknown(f) => Some(f.clone()),
                _ => None,
            };
            c.checked_format = format
                .clone()
                .filter(|f| crate::ir::CHECKED_FORMATS.contains(&f.as_str()));
            c.format = format;
        }
        SchemaKind::Type(Type::Integer(i)) => {
            c.minimum = i.minimum.map(Bound::Integer);
            c.maximum = i.maximum.map(Bound::Integer);
            c.exclusive_minimum = i.exclusive_minimum;
            c.exclusive_maximum = i.exclusive_maximum;
            c.multiple_of = i.multiple_of.map(|v| v as f64);
            c.one_of = i
                .enumeration
                .iter()
                .flatten()
                .map(|v| (*v).into())
                .collect();
        }
        SchemaKind::Type(Type::Number(n)) => {
            c.minimum = n.minimum.map(Bound::Number);
            c.maximum = n.maximum.map(Bound::Number);
            c.exclusive_minimum = n.exclusive_minimum;
            c.exclusive_maximum = n.exclusive_maximum;
            c.multiple_of = n.multiple_of;
            c.one_of = n
                .enumeration
                .iter()
                .flatten()
                .filter_map(|v| serde_json::Number::from_f64(*v))
                .collect();
        }
        SchemaKind::Type(Type::Boolean(b)) => {
            // `enum: [false]`: the one value; `[true, false]` allows both, as no enum does.
            let mut values = b.enumeration.iter().flatten().copied();
            if let Some(first) = values.next()
                && values.all(|v| v == first)
            {
                c.boolean = Some(first);
            }
        }
        SchemaKind::Type(Type::Array(a)) => {
            c.min_items = a.min_items;
            c.max_items = a.max_items;
            c.unique_items = a.unique_items;
        }
        SchemaKind::Type(Type::Object(o)) => {
            c.min_properties = o.min_properties;
            c.max_properties = o.max_properties;
            // `{type: object, additionalProperties: false}` and no properties (github's app
            // manifest conversion): the empty object alone, read as a free-form object that
            // may hold no member.
            if o.properties.is_empty()
                && matches!(
                    o.additional_properties,
                    Some(AdditionalProperties::Any(false))
                )
                && pattern_properties(schema).is_none()
            {
                c.max_properties = Some(0);
            }
        }
        // Keywords beside `allOf` (or other combinations openapiv3 reads as "any"), and an
        // `allOf` part that only adds a bound (`{minimum: 2}`). Which apply is decided where
        // they are checked, by the value's type.
        SchemaKind::Any(any) => {
            if matches!(any.typ.as_deref(), None | Some("integer" | "number")) {
                // openapiv3 reads these as `f64` already (beside `allOf`, 2^53 and beyond may
                // have rounded).
                c.minimum = any.minimum.map(Bound::Number);
                c.maximum = any.maximum.map(Bound::Number);
                c.exclusive_minimum = any.exclusive_minimum.unwrap_or(false);
                c.exclusive_maximum = any.exclusive_maximum.unwrap_or(false);
                c.multiple_of = any.multiple_of;
                c.one_of = any
                    .enumeration
                    .iter()
                    .filter_map(|v| v.as_number().cloned())
                    .collect();
            }
            if matches!(any.typ.as_deref(), None | Some("string")) {
                c.min_length = any.min_length;
                c.max_length = any.max_length;
                c.pattern = any.pattern.clone();
            }
            if matches!(any.typ.as_deref(), None | Some("object")) {
                c.min_properties = any.min_properties;
                c.max_properties = any.max_properties;
            }
        }
        _ => {}
    }
    // A map made of `patternProperties` alone: its names are checked.
    c
}

/// Turns aliases that contain themselves through other aliases (`errors: {type: array,
/// items: {$ref: errors}}`: `type Errors = Vec<Errors>`, which Rust refuses as a cycle) into
/// a nominal type: a one-variant `oneOf` (`enum Errors { Array(Vec<Errors>) }`, untagged, so
/// the JSON is the same). Structs, enums and unions on the way already break such a cycle.
pub fn nominal_alias_cycles(types: &mut [TypeDef]) {
    fn named<'a>(ty: &'a TypeRef, out: &mut Vec<&'a str>) {
        match ty {
            TypeRef::Named(n) => out.push(n),
            TypeRef::Vec(t) | TypeRef::Map(t) => named(t, out),
            TypeRef::Tuple(items) => items.iter().for_each(|t| named(t, out)),
            _ => {}
        }
    }
    let aliases: BTreeMap<&str, Vec<&str>> = types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Alias(ty, _) => {
                let mut refs = Vec::new();
                named(ty, &mut refs);
                Some((t.name.as_str(), refs))
            }
            _ => None,
        })
        .collect();
    let in_cycle = |start: &str| -> bool {
        let mut stack: Vec<&str> = aliases.get(start).cloned().unwrap_or_default();
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == start {
                return true;
            }
            if seen.insert(n) {
                stack.extend(aliases.get(n).into_iter().flatten().copied());
            }
        }
        false
    };
    let cyclic: BTreeSet<String> = aliases
        .keys()
        .filter(|n| in_cycle(n))
        .map(|n| n.to_string())
        .collect();
    for t in types.iter_mut().filter(|t| cyclic.contains(&t.name)) {
        let TypeKind::Alias(ty, _) = &t.kind else {
            continue;
        };
        let variant = match ty {
            TypeRef::Vec(_) => "Array",
            TypeRef::Map(_) => "Map",
            TypeRef::Tuple(_) => "Tuple",
            _ => "Value",
        };
        let ty = ty.clone();
        t.doc.push(String::new());
        t.doc.push(format!(
            "An enum of one variant (`{variant}` holds the value) rather than a type alias:"
        ));
        t.doc
            .push("the schema contains itself, which an alias cannot.".to_string());
        t.kind = TypeKind::OneOf(OneOf {
            variants: vec![OneOfVariant {
                rust: variant.to_string(),
                check_ty: ty.clone(),
                ty,
                boxed: false,
                constraints: Constraints::default(),
            }],
            discriminator: None,
            scalar: false,
        });
    }
}

/// Marks fields and variants that need `Box` because their type contains the owner again
/// without an allocation in between (`Vec` and maps already allocate).
pub fn box_cycles(types: &mut [TypeDef]) {
    let index: BTreeMap<String, usize> = types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.clone(), i))
        .collect();
    let direct: Vec<Vec<usize>> = types
        .iter()
        .map(|t| {
            direct_refs(t)
                .iter()
                .filter_map(|n| index.get(*n).copied())
                .collect()
        })
        .collect();
    let reaches = |from: usize, target: usize| -> bool {
        let mut stack = vec![from];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == target {
                return true;
            }
            if seen.insert(n) {
                stack.extend(direct[n].iter().copied());
            }
        }
        false
    };
    // Indexing: `types[owner]` is read, then written, with other entries read in between.
    #[allow(clippy::needless_range_loop)]
    for owner in 0..types.len() {
        let targets: Vec<Vec<usize>> = match &types[owner].kind {
            TypeKind::Struct(s) => s
                .fields
                .iter()
                .map(|f| named_indices(&f.ty, &index))
                .collect(),
            TypeKind::OneOf(o) => o
                .variants
                .iter()
                .map(|v| named_indices(&v.ty, &index))
                .collect(),
            _ => continue,
        };
        let boxed: Vec<bool> = targets
            .iter()
            .map(|t| t.iter().any(|&t| reaches(t, owner)))
            .collect();
        match &mut types[owner].kind {
            TypeKind::Struct(s) => s
                .fields
                .iter_mut()
                .zip(boxed)
                .for_each(|(f, b)| f.boxed = b),
            TypeKind::OneOf(o) => o
                .variants
                .iter_mut()
                .zip(boxed)
                .for_each(|(v, b)| v.boxed = b),
            _ => {}
        }
    }
}

/// The named types a type holds inline: itself, or a tuple's items (a tuple is laid out in
/// place, so `(Owner,)` inside `Owner` needs a `Box` as much as `Owner` does).
fn named_indices(ty: &TypeRef, index: &BTreeMap<String, usize>) -> Vec<usize> {
    inline_names(ty)
        .into_iter()
        .filter_map(|n| index.get(n).copied())
        .collect()
}

fn inline_names(ty: &TypeRef) -> Vec<&str> {
    match ty {
        TypeRef::Named(n) => vec![n.as_str()],
        TypeRef::Tuple(items) => items.iter().flat_map(inline_names).collect(),
        _ => Vec::new(),
    }
}

/// Types held inline (not behind `Vec`/map) by a type.
fn direct_refs(t: &TypeDef) -> Vec<&str> {
    match &t.kind {
        TypeKind::Struct(s) => s.fields.iter().flat_map(|f| inline_names(&f.ty)).collect(),
        TypeKind::OneOf(o) => o
            .variants
            .iter()
            .flat_map(|v| inline_names(&v.ty))
            .collect(),
        TypeKind::Alias(ty, _) => inline_names(ty),
        TypeKind::Enum(_) => Vec::new(),
    }
}

/// Marks the types whose values hold a checked constraint, directly or through any field,
/// item or variant, so the server validates exactly those.
pub fn mark_validated(types: &mut [TypeDef]) {
    fn inner(ty: &TypeRef) -> &TypeRef {
        match ty {
            TypeRef::Vec(t) | TypeRef::Map(t) => inner(t),
            other => other,
        }
    }
    loop {
        let validated: BTreeSet<String> = types
            .iter()
            .filter(|t| t.validated)
            .map(|t| t.name.clone())
            .collect();
        let needs = |ty: &TypeRef| matches!(inner(ty), TypeRef::Named(n) if validated.contains(n));
        let mut changed = false;
        for t in types.iter_mut().filter(|t| !t.validated) {
            let v = match &t.kind {
                TypeKind::Struct(s) => {
                    s.fields
                        .iter()
                        .any(|f| !f.constraints.is_empty() || needs(&f.ty))
                        || s.additional.as_ref().is_some_and(&needs)
                        || !s.dependent_required.is_empty()
                        || s.required_any_of.is_some()
                        || s.additional_pattern.is_some()
                }
                // A variant that is a checked scalar (nexus's `NameOrId`: a `uuid`, or a
                // `Name` with `maxLength` and `pattern`) is checked as one.
                // So is one that is a list or map with bounds of its own (discord's
                // `include_roles`: `oneOf: [string, array with uniqueItems]`).
                TypeKind::OneOf(o) => o.variants.iter().any(|v| {
                    needs(&v.ty)
                        || checked_scalar(&v.check_ty, &v.constraints)
                        || matches!(
                            v.check_ty,
                            TypeRef::Vec(_) | TypeRef::Map(_) | TypeRef::JsonObject
                        ) && !v.constraints.is_empty()
                }),
                // An alias has no checks of its own: its constraints were copied to every
                // field and parameter that uses it.
                TypeKind::Alias(ty, _) => needs(ty),
                TypeKind::Enum(_) => false,
            };
            if v {
                t.validated = true;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Whether a value of `ty` has a check printed for `c` (`emit::types::constraint_checks`
/// prints those of numbers and strings).
pub fn checked_scalar(ty: &TypeRef, c: &Constraints) -> bool {
    let numeric = matches!(
        ty,
        TypeRef::I32
            | TypeRef::I64
            | TypeRef::U8
            | TypeRef::U16
            | TypeRef::U32
            | TypeRef::U64
            | TypeRef::F32
            | TypeRef::F64
    );
    let string = *ty == TypeRef::String;
    (numeric
        && (c.minimum.is_some()
            || c.maximum.is_some()
            || !c.one_of.is_empty()
            || c.multiple_of.is_some()))
        || (string
            && (c.min_length.is_some()
                || c.max_length.is_some()
                || c.pattern.is_some()
                || c.checked_format.is_some()))
}

/// Fills in `check_ty`: a field or parameter whose type is an alias of a scalar is checked
/// as that scalar (its constraints were copied from the alias's schema); one of a list or map
/// as that list or map, and their items as theirs (`Vec<Tag>` of `Tag = String` as
/// `Vec<String>`), so that `minItems` and each item's `maxLength` are checked.
pub fn resolve_check_types(
    types: &mut [TypeDef],
    params: &mut [&mut crate::ir::Param],
    bodies: &mut [&mut crate::ir::Body],
) {
    let aliases: BTreeMap<String, TypeRef> = types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Alias(inner, _)
                if !matches!(inner, TypeRef::Named(_))
                    && (inner.is_scalar()
                        || matches!(inner, TypeRef::Vec(_) | TypeRef::Map(_))) =>
            {
                Some((t.name.clone(), inner.clone()))
            }
            _ => None,
        })
        .collect();
    fn resolve(aliases: &BTreeMap<String, TypeRef>, ty: &TypeRef, depth: usize) -> TypeRef {
        if depth > 8 {
            return ty.clone();
        }
        match ty {
            TypeRef::Named(n) => match aliases.get(n) {
                Some(inner) => resolve(aliases, inner, depth + 1),
                None => ty.clone(),
            },
            TypeRef::Vec(inner) => TypeRef::Vec(Box::new(resolve(aliases, inner, depth + 1))),
            TypeRef::Map(inner) => TypeRef::Map(Box::new(resolve(aliases, inner, depth + 1))),
            // Items that may be `null` (discord's `roles`: `oneOf: [null, Snowflake]`) are
            // checked where they hold a value, as what the alias names.
            TypeRef::Nullable(inner) => {
                TypeRef::Nullable(Box::new(resolve(aliases, inner, depth + 1)))
            }
            other => other.clone(),
        }
    }
    let resolve = |ty: &TypeRef| resolve(&aliases, ty, 0);
    for t in types.iter_mut() {
        match &mut t.kind {
            TypeKind::Struct(s) => {
                for f in &mut s.fields {
                    f.check_ty = resolve(&f.ty);
                    if f.check_ty.is_string_format() {
                        f.constraints.drop_string_checks();
                    }
                }
            }
            TypeKind::OneOf(o) => {
                for v in &mut o.variants {
                    v.check_ty = resolve(&v.ty);
                }
            }
            _ => {}
        }
    }
    for p in params.iter_mut() {
        p.check_ty = resolve(&p.ty);
        if p.check_ty.is_string_format() {
            p.constraints.drop_string_checks();
        }
    }
    for b in bodies.iter_mut() {
        if let Some(ty) = b.read_type() {
            b.check_ty = resolve(ty);
        }
        if b.check_ty.is_string_format() {
            b.constraints.drop_string_checks();
        }
    }
}

/// Named types whose values are one string, number or boolean: string enums, aliases of
/// scalars, and oneOfs whose every variant is one of those (`NameOrId`). They can stand in a
/// path, query, header or cookie parameter.
pub fn scalar_types(types: &[TypeDef]) -> BTreeSet<String> {
    let mut scalar = BTreeSet::new();
    loop {
        let before = scalar.len();
        for t in types {
            let is = match &t.kind {
                TypeKind::Enum(_) => true,
                TypeKind::Alias(inner, _) => match inner {
                    TypeRef::Named(n) => scalar.contains(n),
                    other => other.is_scalar(),
                },
                TypeKind::OneOf(o) => {
                    o.discriminator.is_none()
                        && o.variants.iter().all(|v| match &v.ty {
                            TypeRef::Named(n) => scalar.contains(n),
                            other => other.is_scalar(),
                        })
                }
                TypeKind::Struct(_) => false,
            };
            if is {
                scalar.insert(t.name.clone());
            }
        }
        if scalar.len() == before {
            return scalar;
        }
    }
}

/// Marks the oneOfs that are scalars, so they get parameter conversions.
pub fn mark_scalar_one_ofs(types: &mut [TypeDef]) {
    let scalar = scalar_types(types);
    for t in types.iter_mut() {
        if let TypeKind::OneOf(o) = &mut t.kind {
            o.scalar = scalar.contains(&t.name);
        }
    }
}
