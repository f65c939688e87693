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
use openapiv3::{AdditionalProperties, OpenAPI, ReferenceOr, Schema};
use std::collections::{BTreeMap, BTreeSet};

mod all_of;
mod constraints;
mod objects;
mod passes;
mod scalars;
mod shapes;
mod unions;
mod view;

use all_of::{Own, collect_all_of};
use constraints::constraints_of;
use objects::{ANY_VALUE, items_closed, pattern_properties, prefix_items, properties};
use passes::scalar_types;
pub use passes::{
    box_cycles, mark_scalar_one_ofs, mark_validated, nominal_alias_cycles, refuse_in_place_cycles,
    resolve_check_types, share_equal_enums, union_variant_facts,
};
use shapes::{
    is_bare_object, is_empty_schema, is_memberless, is_scalar_all_of, is_string_enum, is_union,
    only_null, string_beside_one_part,
};
use view::View;

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
    /// Whether `ty` is an object whose members are all scalars (a struct of them, or a map
    /// of one): what a parameter style writes as one value (`R=100,G=200`).
    pub fn scalar_object(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Map(inner) => self.is_scalar(inner),
            TypeRef::Named(name) => match self.types.iter().find(|t| &t.name == name) {
                Some(def) => match &def.kind {
                    TypeKind::Alias(inner, _) => self.scalar_object(inner),
                    TypeKind::Struct(st) => {
                        st.additional.is_none()
                            && !st.fields.is_empty()
                            && st.fields.iter().all(|f| self.is_scalar(&f.ty))
                    }
                    _ => false,
                },
                None => false,
            },
            _ => false,
        }
    }

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

    /// Whether a schema (its `allOf` parts too) says nothing of the value's shape: no `type`
    /// (or `null`), no properties, items, enumeration or union, only bounds and the like
    /// (JSON Schema's suite: `allOf: [{maximum: 30}, {minimum: 20}]`, `allOf: [true, true]`).
    /// Merged as an object, such an `allOf` was a struct that refused the numbers and strings
    /// it admits; it is any JSON value, which the server holds to the schema (`lower::held`).
    fn shapeless(&self, s: SchemaRef<'_>, depth: usize) -> bool {
        let Some(schema) = self.resolve(s).filter(|_| depth < 16) else {
            return false;
        };
        let v = View::of(schema);
        v.typ.is_none_or(|t| t == "null")
            && v.properties.is_empty()
            && v.required.is_empty()
            && v.additional_properties.is_none()
            && v.items.is_none()
            && v.enumeration.is_empty()
            && v.union().is_none()
            && v.all_of
                .iter()
                .all(|part| self.shapeless(SchemaRef::of(part), depth + 1))
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
        let v = View::of(schema);
        let branches = match v.union() {
            Some((branches, _)) if v.properties.is_empty() && v.all_of.is_empty() => branches,
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

    /// Whether the schema (through references) admits `null` beside other values (one that
    /// admits only `null` is [`TypeRef::Unit`], which holds it): `nullable: true`, or a typed
    /// schema whose `enum` lists `null` (`{type: string, enum:
    /// [a, null]}`); one with no `type` is any JSON value, which holds `null` already.
    pub fn nullable(&self, s: SchemaRef<'_>) -> bool {
        self.nullable_within(s, 0)
    }

    /// [`Self::nullable`], `depth` one-part wrappers deep. A wrapper of one part with only
    /// annotations beside (`{$ref: Metadata, description: …}` in 3.1, read as `allOf:
    /// [{$ref}]`) is the part: openai's required `metadata`, an `anyOf` of a map and `null`,
    /// was a map that refused the `null` the document allows.
    fn nullable_within(&self, s: SchemaRef<'_>, depth: usize) -> bool {
        self.resolve(s).is_some_and(|schema| {
            let v = View::of(schema);
            if only_null(schema) {
                return false;
            }
            if schema.schema_data.nullable || v.typ.is_some() && v.enumeration.has_null() {
                return true;
            }
            v.only_parts
                && v.all_of.len() == 1
                && depth < 8
                && self.nullable_within(SchemaRef::of(&v.all_of[0]), depth + 1)
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
        let v = View::of(schema);
        if is_scalar_all_of(&v) {
            for part in v.all_of {
                c.narrow(&self.constraints_within(SchemaRef::of(part), depth));
            }
        }
        // A one-part `allOf` with a title beside is the part (nexus's `NameOrId` variants:
        // `{title: name, allOf: [{$ref: Name}]}`), constraints and all.
        if v.only_parts && v.all_of.len() == 1 && depth < 8 {
            c.narrow(&self.constraints_within(SchemaRef::of(&v.all_of[0]), depth + 1));
        }
        // An array's items; a map's values: `additionalProperties` of an object with no
        // properties of its own (what `type_of` reads as a map).
        let each = v
            .items
            .map(SchemaRef::of_boxed)
            .or(match v.additional_properties {
                Some(AdditionalProperties::Schema(s))
                    if v.is("object") && v.properties.is_empty() =>
                {
                    Some(SchemaRef::of(s))
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
            // Each part one level down, as items are: a tuple that holds itself ends too.
            let items: Vec<Constraints> = parts
                .iter()
                .filter(|_| depth < 8)
                .map(|part| self.constraints_within(SchemaRef::of(part), depth + 1))
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

    /// Lowers `schema` into a type named `name` (already claimed).
    fn define(&mut self, name: &str, schema: &Schema, pointer: &str, sink: &mut Sink) {
        let doc = doc_lines(
            schema
                .schema_data
                .description
                .as_deref()
                .or(schema.schema_data.title.as_deref()),
        );
        let v = View::of(schema);
        let kind = if !v.properties.is_empty() {
            self.members(name, &v, pointer, sink)
        } else if let Some((parts, keyword)) = v.union() {
            self.one_of(name, parts, schema, pointer, keyword, sink)
        } else if is_string_enum(&v) {
            // A string `enum`, beside `allOf` too (discord's scopes: `{type: string, enum:
            // [applications.commands, bot], allOf: [{$ref: OAuth2Scopes}]}`, a `oneOf` of
            // constants): the values it lists are the ones the parts may narrow, so it is that
            // enum; merged as object parts, it became any JSON value, and the mock's `{}`.
            TypeKind::Enum(enum_variants(v.enum_strings()))
        } else if !v.all_of.is_empty()
            && !is_scalar_all_of(&v)
            && !string_beside_one_part(&v)
            && !self.shapeless(SchemaRef::Item(schema), 0)
        {
            self.all_of(name, v.all_of, pointer, sink)
        } else if v.is("object") && pattern_properties(schema).is_some() {
            // `patternProperties` alone: a struct of extra properties only, so that the
            // server checks their names wherever the type is used (struct_31 fills it in).
            TypeKind::Struct(self.object(name, Vec::new(), v.additional_properties, pointer, sink))
        } else {
            let ty = self
                .primitive(schema, name, pointer, sink)
                .unwrap_or(TypeRef::Json);
            TypeKind::Alias(ty, self.constraints(SchemaRef::Item(schema)))
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
}

impl<'a> Schemas<'a> {
    /// A schema with properties of its own: a struct of them, and of its `allOf` parts' when
    /// it has parts beside (the `ComposedModel` of `swagger-parser-issue-1796`: `name`, and `allOf:
    /// [BaseModel]` with `uuid`): a value must fit both, so the struct holds both; its own
    /// members alone would lose the parts' (the mock would answer without the required `uuid`).
    fn members(&mut self, name: &str, v: &View<'_>, pointer: &str, sink: &mut Sink) -> TypeKind {
        if !v.all_of.is_empty() && v.union().is_none() {
            let own = Own {
                props: v.properties,
                required: v.required,
                additional: v.additional_properties,
            };
            return self.merge_all_of(name, Some(own), v.all_of, pointer, sink);
        }
        let props = properties(v.properties, v.required);
        TypeKind::Struct(self.object(name, props, v.additional_properties, pointer, sink))
    }
}

impl<'s> SchemaRef<'s> {
    fn of_ref(other: &SchemaRef<'s>) -> SchemaRef<'s> {
        match other {
            SchemaRef::Ref(r) => SchemaRef::Ref(r),
            SchemaRef::Item(s) => SchemaRef::Item(s),
        }
    }
}

/// Variants for a string enumeration; values that are not identifiers get readable names.
pub fn enum_variants<'v>(values: impl Iterator<Item = &'v str>) -> Vec<EnumVariant> {
    let mut scope = Scope::reserving(reserved::ENUM_VARIANTS);
    // A value listed twice (`enum: [a, a]`, which JSON Schema only advises against) is one
    // variant: two would make the second `match` arm unreachable.
    let mut seen = std::collections::HashSet::new();
    values
        .filter(|wire| seen.insert(*wire))
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
