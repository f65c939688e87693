//! Passes over the finished type list: aliases that contain themselves made nominal, cycles
//! boxed, which types carry checks, and the scalar each alias is checked as.

use super::*;

/// Turns aliases that contain themselves through other aliases (`errors: {type: array,
/// items: {$ref: errors}}`: `type Errors = Vec<Errors>`, which Rust refuses as a cycle) into
/// a nominal type: a one-variant `oneOf` (`enum Errors { Array(Vec<Errors>) }`, untagged, so
/// the JSON is the same). Structs, enums and unions on the way already break such a cycle.
pub fn nominal_alias_cycles(types: &mut [TypeDef]) {
    fn named<'a>(ty: &'a TypeRef, out: &mut Vec<&'a str>) {
        match ty {
            TypeRef::Named(n) => out.push(n),
            // `Option<T>` holds its `T` inline as much as `Vec<T>` names it.
            TypeRef::Vec(t) | TypeRef::Map(t) | TypeRef::Nullable(t) => named(t, out),
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
                names_members: false,
            }],
            discriminator: None,
            scalar: false,
            unknown: None,
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
                        || !s.not_all_of.is_empty()
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
    let numeric = ty.is_sized_integer()
        || matches!(
            ty,
            TypeRef::F32 | TypeRef::F64 | TypeRef::Decimal | TypeRef::BigInt
        );
    let string = *ty == TypeRef::String;
    *ty == TypeRef::BigInt
        || (numeric
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

/// Makes string enums with the same values in the same order one type: one keeps
/// its definition (the first that is a component schema of its own, so that a named schema
/// such as `Direction` is the type and an operation's inline copy its alias; else the first),
/// each other becomes an alias of it (`pub type WebhookBatchFailedObject =
/// WebhookBatchCancelledObject;`), which names the same variants and costs nothing to compile.
/// OpenAI's 3.1 document spells its 1,659 string enums with 634 lists of values (1,190 are
/// one-value tags such as `object: [event]`), GitHub's 294 with 105 (`direction: [asc,
/// desc]` 28 times): each enum is a dozen impls (derives, `Display`, `FromStr`, serde's
/// traits, parameters), checked once per copy. A user's code keeps compiling: the schema's
/// name is still a type, and `Alias::Variant` names a variant.
pub fn share_equal_enums(types: &mut [TypeDef]) {
    let mut groups: BTreeMap<Vec<(&str, &str)>, Vec<usize>> = BTreeMap::new();
    for (i, t) in types.iter().enumerate() {
        if let TypeKind::Enum(variants) = &t.kind {
            let values = variants
                .iter()
                .map(|v| (v.rust.as_str(), v.wire.as_str()))
                .collect();
            groups.entry(values).or_default().push(i);
        }
    }
    let component = |t: &TypeDef| {
        t.origin
            .strip_prefix("/components/schemas/")
            .is_some_and(|rest| !rest.contains('/'))
    };
    let mut aliases: Vec<(usize, String)> = Vec::new();
    for members in groups.values().filter(|m| m.len() > 1) {
        let kept = members
            .iter()
            .copied()
            .find(|&i| component(&types[i]))
            .unwrap_or(members[0]);
        let name = &types[kept].name;
        aliases.extend(
            members
                .iter()
                .filter(|&&i| i != kept)
                .map(|&i| (i, name.clone())),
        );
    }
    for (i, kept) in aliases {
        let t = &mut types[i];
        if !t.doc.is_empty() {
            t.doc.push(String::new());
        }
        t.doc.push(format!(
            "The same values as [`{kept}`]: one type for both (equal enums compile once)."
        ));
        t.kind = TypeKind::Alias(TypeRef::Named(kept), Constraints::default());
    }
}

/// Refuses a type that can only be read by reading itself again: a union (or an alias) that
/// leads back to itself through variants and aliases alone, no member or item between
/// (`Node: {anyOf: [{$ref: Node}, {type: integer}]}`). Reading a value none of its other
/// variants takes would never end (the generated decoder, and the server's schema check,
/// would overflow the stack); JSON Schema calls such a schema invalid. Each type on such a
/// loop is named, at its schema.
pub fn refuse_in_place_cycles(types: &[TypeDef], sink: &mut Sink) {
    let index: BTreeMap<&str, &TypeDef> = types.iter().map(|t| (t.name.as_str(), t)).collect();
    for t in types {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = in_place_targets(t);
        let mut loops = false;
        while let Some(name) = todo.pop() {
            if name == t.name {
                loops = true;
                break;
            }
            if seen.insert(name)
                && let Some(next) = index.get(name)
            {
                todo.extend(in_place_targets(next));
            }
        }
        if loops {
            sink.error(
                t.origin.clone(),
                "the schema can only be read by reading itself again: its variants (or the \
                 type it names) lead back to it with no member or item between, so a value \
                 none of its other variants takes would be read without end; JSON Schema calls \
                 such a schema invalid",
            );
        }
    }
}

/// The types a value of `t` is read as in place: a union's variants, an alias's target
/// (through `Option`), not a struct's members or a list's items.
fn in_place_targets(t: &TypeDef) -> Vec<&str> {
    fn named(ty: &TypeRef) -> Option<&str> {
        match ty {
            TypeRef::Named(n) => Some(n),
            TypeRef::Nullable(inner) => named(inner),
            _ => None,
        }
    }
    match &t.kind {
        TypeKind::OneOf(o) => o.variants.iter().filter_map(|v| named(&v.ty)).collect(),
        TypeKind::Alias(ty, _) => named(ty).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Fills what a union's variants are for its writer and reader: each discriminator's
/// `own_tag` (the variants named by more than one tag whose type is a struct with a required
/// field of the property's name, or a union told apart by the same property, which alone
/// know which tag they are; an optional field may be unset, and the first tag is written
/// then), and each variant's `names_members`.
pub fn union_variant_facts(types: &mut [TypeDef]) {
    // The properties each type writes whatever its value: a struct's required fields, a
    // union's discriminator (openai's input item `Item`, a union by `type` itself, stands for
    // a dozen tags, `apply_patch_call_output` among them, and writes the one it holds).
    let fields: BTreeMap<String, Vec<String>> = types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Struct(s) => Some((
                t.name.clone(),
                s.fields
                    .iter()
                    .filter(|f| f.required && !f.nullable)
                    .map(|f| f.wire.clone())
                    .collect(),
            )),
            TypeKind::OneOf(OneOf {
                discriminator: Some(d),
                ..
            }) => Some((t.name.clone(), vec![d.property.clone()])),
            _ => None,
        })
        .collect();
    // A struct that keeps the members it does not name (`additionalProperties`) drops none.
    let structs: BTreeSet<String> = types
        .iter()
        .filter(|t| matches!(&t.kind, TypeKind::Struct(s) if s.additional.is_none()))
        .map(|t| t.name.clone())
        .collect();
    // A variant's type through its aliases (openai's `InputItemItem`, a reference with a
    // description beside it, is `Item`).
    let aliases: BTreeMap<String, String> = types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Alias(TypeRef::Named(target), _) => Some((t.name.clone(), target.clone())),
            _ => None,
        })
        .collect();
    let resolve = |ty: &TypeRef| -> Option<String> {
        let TypeRef::Named(mut name) = ty.clone() else {
            return None;
        };
        for _ in 0..aliases.len() {
            match aliases.get(&name) {
                Some(next) => name = next.clone(),
                None => break,
            }
        }
        Some(name)
    };
    for t in types.iter_mut() {
        let TypeKind::OneOf(o) = &mut t.kind else {
            continue;
        };
        for v in &mut o.variants {
            v.names_members = resolve(&v.ty).is_some_and(|n| structs.contains(&n));
        }
        let Some(d) = &mut o.discriminator else {
            continue;
        };
        d.own_tag = o
            .variants
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                let tags = d.mapping.iter().filter(|(_, idx)| idx == i).count();
                let holds = resolve(&v.ty)
                    .and_then(|n| fields.get(&n))
                    .is_some_and(|f| f.contains(&d.property));
                tags > 1 && holds
            })
            .map(|(i, _)| i)
            .collect();
    }
}
