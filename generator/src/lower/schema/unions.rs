//! `oneOf`/`anyOf` → tagged or untagged unions: variants, their labels, and the
//! discriminator, given or implied by a property each variant pins.

use super::*;

impl<'a> Schemas<'a> {
    pub(super) fn one_of(
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
                names_members: false,
            });
        }
        let discriminator = schema
            .schema_data
            .discriminator
            .as_ref()
            .map(|d| Discriminator {
                property: d.property_name.clone(),
                integer: false,
                own_tag: Vec::new(),
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
            unknown: Some(scope.claim("Unknown".to_string())),
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
    pub(super) fn implied_discriminator(
        &self,
        parts: &[ReferenceOr<Schema>],
    ) -> Option<Discriminator> {
        // Variants that are not objects (openai's `tool_choice` is a string or one of two
        // objects) carry no property; a JSON value without it tries the variants in order.
        let scalar = |part: &ReferenceOr<Schema>| {
            self.resolve(SchemaRef::of(part))
                .is_some_and(|s| is_memberless(&View::of(s)))
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
                    own_tag: Vec::new(),
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
    pub(super) fn tags(
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
    pub(super) fn pinned(
        &self,
        s: SchemaRef<'_>,
        property: &str,
        pin: Pin,
        depth: usize,
    ) -> Vec<String> {
        if depth > 8 {
            return Vec::new();
        }
        let Some(schema) = self.resolve(SchemaRef::of_ref(&s)) else {
            return Vec::new();
        };
        // A wrapper of one `allOf` part beside parts that only say "an object": 3.1's
        // `{$ref: Item, title: Item, type: object}` (openai's `InputItem` variant), read as an
        // `allOf` of the reference and its siblings, pins what the part pins.
        let v = View::of(schema);
        let parts = (v.properties.is_empty() && v.union().is_none()).then_some(v.all_of);
        if let Some((_, part)) = parts.and_then(|parts| self.sole_meaningful_part(parts)) {
            return self.pinned(SchemaRef::of(part), property, pin, depth + 1);
        }
        let nested = v
            .union()
            .filter(|_| v.properties.is_empty())
            .map(|(parts, _)| parts);
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
            match View::of(schema) {
                v if v.only_parts && v.all_of.len() == 1 => {
                    match self.resolve(SchemaRef::of(&v.all_of[0])) {
                        Some(inner) => schema = inner,
                        None => return Vec::new(),
                    }
                }
                _ => break,
            }
        }
        // `{type: integer, enum: [2], allOf: [{$ref: ActionType}]}` (discord): the `enum`
        // beside the `allOf` is the narrower.
        let v = View::of(schema);
        match pin {
            Pin::String if !v.is("integer") => v.enum_strings().map(str::to_owned).collect(),
            Pin::Integer if !v.is("string") => v
                .enumeration
                .integers()
                .iter()
                .map(i64::to_string)
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The component a `oneOf` variant names: a `$ref`, or a `$ref` the 3.1 up-reading wrapped
/// in `allOf` to keep its sibling annotations (openai: `- $ref: …/TranscriptTextUsageTokens`
/// with a `title`).
pub(super) fn variant_reference(part: &ReferenceOr<Schema>) -> Option<&String> {
    match part {
        ReferenceOr::Reference { reference } => Some(reference),
        ReferenceOr::Item(s) => match View::of(s) {
            v if v.only_parts && v.all_of.len() == 1 => match &v.all_of[0] {
                ReferenceOr::Reference { reference } => Some(reference),
                ReferenceOr::Item(_) => None,
            },
            _ => None,
        },
    }
}

/// Which values [`Schemas::pinned`] reads: a string property's (`type: {enum: [function]}`)
/// or an integer property's (discord's `type: {type: integer, enum: [2]}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pin {
    String,
    Integer,
}

pub(super) fn variant_label(s: &Schema, i: usize) -> String {
    let v = View::of(s);
    match v.typ {
        Some("string") if is_memberless(&v) => "String".into(),
        Some("integer") if is_memberless(&v) => "Integer".into(),
        Some("number") if is_memberless(&v) => "Number".into(),
        Some("boolean") if is_memberless(&v) => "Boolean".into(),
        Some("array") if is_memberless(&v) => "Array".into(),
        _ => format!("Variant{i}"),
    }
}
