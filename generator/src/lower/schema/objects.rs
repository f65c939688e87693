//! Object schemas → structs: declared properties, `additionalProperties`, 3.1's
//! `dependentRequired`, `patternProperties` and `prefixItems` tuples.

use super::*;

impl<'a> Schemas<'a> {
    /// 3.1 keywords of an object that became a struct: `dependentRequired` (checked) and
    /// `patternProperties` (the extra properties, their names checked).
    pub(super) fn struct_31(
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
        if let Some(serde_json::Value::Array(names)) =
            schema.schema_data.extensions.get("x-apigen-not-all-of")
        {
            let names: Vec<String> = names
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            if names
                .iter()
                .all(|wire| st.fields.iter().any(|f| &f.wire == wire))
            {
                st.not_all_of.push(names);
            } else {
                sink.warn(
                    push(pointer, "not"),
                    "`not: {required: [...]}` names properties the schema does not declare; not checked",
                );
            }
        }
        if let Some((pattern, value)) = self.pattern_value(schema, name, pointer, sink) {
            // Names beyond the declared ones must match, unless `additionalProperties`
            // admits others. (Left out, it would admit any name with any value; a map whose
            // names are checked is what such a schema means in practice, so that is the
            // reading, documented in book/src/reference/type-mapping.md.)
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
    pub(super) fn tuple(
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
    pub(super) fn pattern_value(
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

    pub(super) fn object(
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
            not_all_of: Vec::new(),
            additional_pattern: None,
        }
    }
}

/// (name, schema, required) for each declared property, in document order.
pub(super) fn properties<'s>(
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
pub(super) static ANY_VALUE: std::sync::LazyLock<Schema> = std::sync::LazyLock::new(|| Schema {
    schema_data: Default::default(),
    schema_kind: openapiv3::SchemaKind::Any(openapiv3::AnySchema::default()),
});

/// Whether an array schema's `items` is `false` (read as `not: {}`): nothing may follow its
/// `prefixItems`.
pub(super) fn items_closed(schema: &Schema) -> bool {
    matches!(View::of(schema).items, Some(ReferenceOr::Item(s)) if View::of(s).not && View::of(s).only_parts)
}

/// The `prefixItems` of a 3.1 schema (carried by the up-reading), when there are any.
pub(super) fn prefix_items(schema: &Schema) -> Option<Vec<ReferenceOr<Schema>>> {
    let value = schema.schema_data.extensions.get("x-apigen-prefix-items")?;
    serde_json::from_value(value.clone()).ok()
}

/// The `patternProperties` of a 3.1 schema: (pattern, schema), in document order.
pub(super) fn pattern_properties(schema: &Schema) -> Option<Vec<(String, ReferenceOr<Schema>)>> {
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
