//! `allOf` → one type: the parts' properties merged into a struct, or the one part that
//! says more than "an object".

use super::*;

impl<'a> Schemas<'a> {
    /// The one `allOf` part (with its index) that says more than "an object", when all the
    /// others say only that: how 3.1's `{$ref: X, title: X, type: object}` reads, an `allOf`
    /// of the reference and its siblings, which means `X`.
    pub(super) fn sole_meaningful_part<'p>(
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
    pub(super) fn all_of<'s>(
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
    pub(super) fn merge_all_of<'s>(
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
pub(super) struct Own<'s> {
    pub(super) props: &'s indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>,
    pub(super) required: &'s [String],
    pub(super) additional: Option<&'s AdditionalProperties>,
}

pub(super) fn collect_all_of<'a>(
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
    let v = View::of(schema);
    // A string, number, boolean or array has no members to merge, nor does `not`.
    if is_memberless(&v) || v.not && v.only_parts {
        return false;
    }
    for (k, p) in v.properties {
        props.push((k.clone(), SchemaRef::of_boxed(p), v.required.contains(k)));
    }
    for r in v.required {
        if let Some(p) = props.iter_mut().find(|(n, _, _)| n == r) {
            p.2 = true;
        }
    }
    if v.additional_properties.is_some() {
        *additional = v.additional_properties;
    }
    let nested_ok = v
        .all_of
        .iter()
        .all(|p| collect_all_of(doc, SchemaRef::of(p), props, additional, seen, depth + 1));
    nested_ok && v.union().is_none()
}
