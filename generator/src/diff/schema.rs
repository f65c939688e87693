//! Schema comparison, direction-aware: types and formats, nullability, enum values,
//! constraints, properties and their required-ness, items, `additionalProperties`, `oneOf`/
//! `anyOf` branches, through `$ref`s (each pair of schemas compared once) and `allOf`.

use super::doc::{Doc, flag};
use super::{Class, Cx, Dir, Effect};
use crate::diag::push;
use serde_json::Value;

/// Deeper than this the comparison stops: the loader allows 128 nesting levels, and every
/// level here is at least one schema.
const MAX_DEPTH: usize = 160;

/// A schema with its `$ref`s followed and its `allOf` branches merged: what one value must
/// satisfy, keyword by keyword, each with the pointer where it is written.
struct View<'a> {
    /// Where the schema itself stands (after `$ref`).
    at: String,
    /// Keywords other than `properties`, `required` and `allOf`; the first writer wins (the
    /// schema's own keywords, then its branches' in order).
    keywords: Vec<(&'a str, &'a Value, String)>,
    /// Properties in order, with their schema and pointer.
    properties: Vec<(&'a str, &'a Value, String)>,
    required: Vec<&'a str>,
}

impl<'a> View<'a> {
    fn of(doc: &'a Doc, value: &'a Value, at: &str) -> View<'a> {
        let (value, at) = doc.resolve(value, at);
        let mut view = View {
            at: at.clone(),
            keywords: Vec::new(),
            properties: Vec::new(),
            required: Vec::new(),
        };
        view.merge(doc, value, &at, 0);
        view
    }

    fn merge(&mut self, doc: &'a Doc, value: &'a Value, at: &str, depth: usize) {
        let Some(obj) = value.as_object() else {
            return;
        };
        for (key, v) in obj {
            match key.as_str() {
                "properties" => {
                    for (name, schema) in super::doc::members(v) {
                        if !self.properties.iter().any(|(n, _, _)| n == name) {
                            let p = push(&push(at, "properties"), name);
                            self.properties.push((name.as_str(), schema, p));
                        }
                    }
                }
                "required" => {
                    for name in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        if !self.required.contains(&name) {
                            self.required.push(name);
                        }
                    }
                }
                "allOf" => {}
                _ => {
                    if !self.keywords.iter().any(|(k, _, _)| k == key) {
                        self.keywords.push((key.as_str(), v, push(at, key)));
                    }
                }
            }
        }
        // A branch that loops back through `$ref`s adds nothing new after a few rounds.
        if depth < 16 {
            for (i, branch) in obj
                .get("allOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let (branch, branch_at) =
                    doc.resolve(branch, &push(&push(at, "allOf"), &i.to_string()));
                self.merge(doc, branch, &branch_at, depth + 1);
            }
        }
    }

    fn get(&self, key: &str) -> Option<(&'a Value, &str)> {
        self.keywords
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, p)| (*v, p.as_str()))
    }

    fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(|(v, _)| v.as_str())
    }

    fn flag(&self, key: &str) -> bool {
        self.get(key)
            .and_then(|(v, _)| v.as_bool())
            .unwrap_or(false)
    }

    fn property(&self, name: &str) -> Option<&(&'a str, &'a Value, String)> {
        self.properties.iter().find(|(n, _, _)| *n == name)
    }

    fn requires(&self, name: &str) -> bool {
        self.required.contains(&name)
    }
}

/// Compares the schema `base` (at `base_at` in the base document) with `new` (at `new_at`),
/// where data flows `dir`; `context` names the place for reasons (`createPet request body`).
pub(crate) fn compare(
    cx: &mut Cx<'_>,
    dir: Dir,
    context: &str,
    base: &Value,
    base_at: &str,
    new: &Value,
    new_at: &str,
) {
    compare_at(cx, dir, context, base, base_at, new, new_at, 0);
}

// Two schemas with their places, the direction, the context for reasons and the depth: a
// struct for them would only rename the arguments at every recursive call.
#[allow(clippy::too_many_arguments)]
fn compare_at(
    cx: &mut Cx<'_>,
    dir: Dir,
    context: &str,
    base: &Value,
    base_at: &str,
    new: &Value,
    new_at: &str,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let (b_doc, n_doc) = (cx.base, cx.new);
    let b = View::of(b_doc, base, base_at);
    let n = View::of(n_doc, new, new_at);
    if !cx.seen.insert((b.at.clone(), n.at.clone(), dir)) {
        return;
    }
    let d = dir.word();
    if !types(cx, dir, context, &b, &n) {
        // A replaced type makes every other keyword's comparison noise.
        return;
    }
    nullable(cx, dir, context, &b, &n);
    enums(cx, dir, context, &b, &n);
    constraints(cx, dir, context, &b, &n);
    properties(cx, dir, context, &b, &n, depth);

    if let (Some((bi, bi_at)), Some((ni, ni_at))) = (b.get("items"), n.get("items")) {
        let (bi_at, ni_at) = (bi_at.to_string(), ni_at.to_string());
        compare_at(
            cx,
            dir,
            &format!("{context}, items"),
            bi,
            &bi_at,
            ni,
            &ni_at,
            depth + 1,
        );
    }
    additional(cx, dir, context, &b, &n, depth);
    for key in ["oneOf", "anyOf"] {
        let (Some((bv, bk_at)), Some((nv, nk_at))) = (b.get(key), n.get(key)) else {
            continue;
        };
        let (bs, ns) = (branches(bv), branches(nv));
        let (bk_at, nk_at) = (bk_at.to_string(), nk_at.to_string());
        for i in 0..bs.len().min(ns.len()) {
            let idx = i.to_string();
            compare_at(
                cx,
                dir,
                context,
                &bs[i],
                &push(&bk_at, &idx),
                &ns[i],
                &push(&nk_at, &idx),
                depth + 1,
            );
        }
        for i in ns.len()..bs.len() {
            let effect = Effect::Narrows;
            cx.at_base(
                &push(&bk_at, &i.to_string()),
                format!("{d}-{}-branch-removed", kebab(key)),
                effect.class(dir),
                format!(
                    "{context}: `{key}` branch {i} removed: {}",
                    effect.consequence(dir)
                ),
            );
        }
        for i in bs.len()..ns.len() {
            let effect = Effect::Widens;
            cx.at_new(
                &push(&nk_at, &i.to_string()),
                format!("{d}-{}-branch-added", kebab(key)),
                effect.class(dir),
                format!(
                    "{context}: `{key}` branch {i} added: {}",
                    effect.consequence(dir)
                ),
            );
        }
    }
}

/// `type` and `format`; false when the type was replaced.
fn types(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>) -> bool {
    let d = dir.word();
    let (bt, nt) = (b.str("type"), n.str("type"));
    let composed = |v: &View<'_>| v.get("oneOf").is_some() || v.get("anyOf").is_some();
    let type_effect = match (bt, nt) {
        (Some(x), Some(y)) if x == y => None,
        (Some("integer"), Some("number")) => Some(Effect::Widens),
        (Some("number"), Some("integer")) => Some(Effect::Narrows),
        (Some(_), Some(_)) => Some(Effect::Replaces),
        // Composition without `type` is compared branch by branch instead.
        _ if composed(b) || composed(n) => None,
        (None, Some(_)) => Some(Effect::Narrows),
        (Some(_), None) => Some(Effect::Widens),
        (None, None) => None,
    };
    if let Some(effect) = type_effect {
        let at = n.get("type").map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-type-changed"),
            effect.class(dir),
            format!(
                "{context}: type {} → {}: {}",
                bt.unwrap_or("any"),
                nt.unwrap_or("any"),
                effect.consequence(dir)
            ),
        );
        if effect == Effect::Replaces {
            return false;
        }
    }
    let (bf, nf) = (b.str("format"), n.str("format"));
    let format_effect = match (bf, nf) {
        (x, y) if x == y => None,
        (Some("int32"), Some("int64")) | (Some("float"), Some("double")) => Some(Effect::Widens),
        (Some("int64"), Some("int32")) | (Some("double"), Some("float")) => Some(Effect::Narrows),
        (None, Some(_)) => Some(Effect::Narrows),
        (Some(_), None) => Some(Effect::Widens),
        _ => Some(Effect::Replaces),
    };
    if let Some(effect) = format_effect {
        let at = n.get("format").map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-format-changed"),
            effect.class(dir),
            format!(
                "{context}: format {} → {}: {}",
                bf.unwrap_or("none"),
                nf.unwrap_or("none"),
                effect.consequence(dir)
            ),
        );
    }
    true
}

fn nullable(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>) {
    let d = dir.word();
    match (b.flag("nullable"), n.flag("nullable")) {
        (false, true) => {
            let effect = Effect::Widens;
            cx.at_new(
                &n.at,
                format!("{d}-became-nullable"),
                effect.class(dir),
                format!("{context}: null now allowed: {}", effect.consequence(dir)),
            );
        }
        (true, false) => {
            let effect = Effect::Narrows;
            cx.at_new(
                &n.at,
                format!("{d}-became-not-nullable"),
                effect.class(dir),
                format!(
                    "{context}: null no longer allowed: {}",
                    effect.consequence(dir)
                ),
            );
        }
        _ => {}
    }
}

fn enums(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>) {
    let d = dir.word();
    let values = |v: &View<'_>| -> Option<Vec<Value>> {
        v.get("enum")
            .and_then(|(e, _)| e.as_array().cloned())
            .filter(|e| !e.is_empty())
    };
    let enum_at = |v: &View<'_>| v.get("enum").map_or(v.at.clone(), |(_, p)| p.to_string());
    match (values(b), values(n)) {
        (None, Some(_)) => {
            let effect = Effect::Narrows;
            cx.at_new(
                &enum_at(n),
                format!("{d}-became-enum"),
                effect.class(dir),
                format!(
                    "{context}: restricted to an enum: {}",
                    effect.consequence(dir)
                ),
            );
        }
        (Some(_), None) => {
            let effect = Effect::Widens;
            cx.at_new(
                &n.at,
                format!("{d}-enum-removed"),
                effect.class(dir),
                format!("{context}: no longer an enum: {}", effect.consequence(dir)),
            );
        }
        (Some(bv), Some(nv)) => {
            let removed: Vec<&Value> = bv.iter().filter(|v| !nv.contains(v)).collect();
            let added: Vec<&Value> = nv.iter().filter(|v| !bv.contains(v)).collect();
            if !removed.is_empty() {
                let effect = Effect::Narrows;
                cx.at_new(
                    &enum_at(n),
                    format!("{d}-enum-value-removed"),
                    effect.class(dir),
                    format!(
                        "{context}: enum value{} {} removed: {}",
                        if removed.len() == 1 { "" } else { "s" },
                        list(&removed),
                        match dir {
                            Dir::Request => "clients that send it are refused",
                            Dir::Response => {
                                "servers built from the base document may still send it"
                            }
                        }
                    ),
                );
            }
            if !added.is_empty() {
                let effect = Effect::Widens;
                let strings = added.iter().all(|v| v.is_string());
                // Decision (book/src/reference/breaking-changes.md): generated clients read a string enum value they do
                // not know as `Unknown(..)` and their enums are `#[non_exhaustive]`, so a new
                // value in an answer breaks none of their code; other clients are told in the
                // reason. Non-string enums have no such variant.
                let (class, why) = match dir {
                    Dir::Response if strings => (
                        Class::Compatible,
                        "generated clients read it as `Unknown(..)` (string enums are #[non_exhaustive]); clients that match values exhaustively without a fallback need one",
                    ),
                    Dir::Response => (
                        effect.class(dir),
                        "clients may now receive a value they were not told to expect",
                    ),
                    Dir::Request => (
                        effect.class(dir),
                        "servers built from the base document refuse it",
                    ),
                };
                cx.at_new(
                    &enum_at(n),
                    format!("{d}-enum-value-added"),
                    class,
                    format!(
                        "{context}: enum value{} {} added: {why}",
                        if added.len() == 1 { "" } else { "s" },
                        list(&added)
                    ),
                );
            }
        }
        (None, None) => {}
    }
}

/// Which way a bound moves the allowed set when its number grows.
#[derive(Clone, Copy)]
enum Bound {
    /// `minLength`, `minimum`, …: a larger number allows less.
    Lower,
    /// `maxLength`, `maximum`, …: a larger number allows more.
    Upper,
}

const BOUNDS: &[(&str, Bound)] = &[
    ("minLength", Bound::Lower),
    ("maxLength", Bound::Upper),
    ("minimum", Bound::Lower),
    ("maximum", Bound::Upper),
    ("minItems", Bound::Lower),
    ("maxItems", Bound::Upper),
    ("minProperties", Bound::Lower),
    ("maxProperties", Bound::Upper),
];

fn constraints(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>) {
    let d = dir.word();
    for &(key, bound) in BOUNDS {
        let num = |v: &View<'_>| v.get(key).and_then(|(x, _)| x.as_f64());
        let (bn, nn) = (num(b), num(n));
        let (effect, action) = match (bn, nn) {
            (None, Some(_)) => (Effect::Narrows, "set"),
            (Some(_), None) => (Effect::Widens, "unset"),
            (Some(x), Some(y)) if y > x => (
                match bound {
                    Bound::Lower => Effect::Narrows,
                    Bound::Upper => Effect::Widens,
                },
                "increased",
            ),
            (Some(x), Some(y)) if y < x => (
                match bound {
                    Bound::Lower => Effect::Widens,
                    Bound::Upper => Effect::Narrows,
                },
                "decreased",
            ),
            _ => continue,
        };
        let at = n.get(key).map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-{}-{action}", kebab(key)),
            effect.class(dir),
            format!(
                "{context}: {key} {} → {}: {}",
                show(bn),
                show(nn),
                effect.consequence(dir)
            ),
        );
    }
    for key in ["exclusiveMinimum", "exclusiveMaximum", "uniqueItems"] {
        let (bf, nf) = (b.flag(key), n.flag(key));
        if bf == nf {
            continue;
        }
        let effect = if nf { Effect::Narrows } else { Effect::Widens };
        let at = n.get(key).map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-{}-{}", kebab(key), if nf { "set" } else { "unset" }),
            effect.class(dir),
            format!("{context}: {key} {bf} → {nf}: {}", effect.consequence(dir)),
        );
    }
    let (bp, np) = (b.str("pattern"), n.str("pattern"));
    let pattern = match (bp, np) {
        (x, y) if x == y => None,
        (None, Some(_)) => Some((Effect::Narrows, "set")),
        (Some(_), None) => Some((Effect::Widens, "unset")),
        _ => Some((Effect::Replaces, "changed")),
    };
    if let Some((effect, action)) = pattern {
        let at = n
            .get("pattern")
            .map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-pattern-{action}"),
            effect.class(dir),
            format!(
                "{context}: pattern {} → {}: {}",
                bp.map_or("none".to_string(), |p| format!("`{p}`")),
                np.map_or("none".to_string(), |p| format!("`{p}`")),
                effect.consequence(dir)
            ),
        );
    }
    let num = |v: &View<'_>| v.get("multipleOf").and_then(|(x, _)| x.as_f64());
    let (bm, nm) = (num(b), num(n));
    let multiple = match (bm, nm) {
        (x, y) if x == y => None,
        (None, Some(_)) => Some(Effect::Narrows),
        (Some(_), None) => Some(Effect::Widens),
        // Multiples of 6 are multiples of 3: a multiple of the old step narrows.
        (Some(x), Some(y)) if x != 0.0 && (y / x).fract() == 0.0 => Some(Effect::Narrows),
        (Some(x), Some(y)) if y != 0.0 && (x / y).fract() == 0.0 => Some(Effect::Widens),
        _ => Some(Effect::Replaces),
    };
    if let Some(effect) = multiple {
        let at = n
            .get("multipleOf")
            .map_or(n.at.clone(), |(_, p)| p.to_string());
        cx.at_new(
            &at,
            format!("{d}-multiple-of-changed"),
            effect.class(dir),
            format!(
                "{context}: multipleOf {} → {}: {}",
                show(bm),
                show(nm),
                effect.consequence(dir)
            ),
        );
    }
}

fn properties(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>, depth: usize) {
    let d = dir.word();
    let (b_doc, n_doc) = (cx.base, cx.new);
    // A readOnly property is never sent in a request, a writeOnly one never in an answer.
    let absent_here = |doc: &Doc, schema: &Value, at: &str| {
        let (s, _) = doc.resolve(schema, at);
        match dir {
            Dir::Request => flag(s, "readOnly"),
            Dir::Response => flag(s, "writeOnly"),
        }
    };
    for (name, schema, at) in &n.properties {
        if b.property(name).is_some() {
            continue;
        }
        let required = n.requires(name) && !absent_here(n_doc, schema, at);
        let (kind, class, why) = match (dir, required) {
            (Dir::Request, true) => (
                "request-property-added-required",
                Class::BreakingForClients,
                "clients that leave it out are refused",
            ),
            (Dir::Response, true) => (
                "response-property-added-required",
                Class::BreakingForServers,
                "servers built from the base document do not send it",
            ),
            (Dir::Request, false) => (
                "request-property-added-optional",
                Class::Compatible,
                "clients may leave it out; servers built from the base document ignore it",
            ),
            (Dir::Response, false) => (
                "response-property-added-optional",
                Class::Compatible,
                "clients ignore what they do not know",
            ),
        };
        cx.at_new(
            at,
            kind,
            class,
            format!(
                "{context}: {} property `{name}` added: {why}",
                if required { "required" } else { "optional" }
            ),
        );
    }
    for (name, _, at) in &b.properties {
        if n.property(name).is_none() {
            // Decision (book/src/reference/breaking-changes.md): removing anything the generated client names breaks
            // code using it (the field or its `with_…` setter is gone), whichever way it flows.
            let why = match dir {
                Dir::Request => {
                    "the generated client loses its field; other clients' values are ignored"
                }
                Dir::Response if b.requires(name) => {
                    "clients reading it no longer get it, and the generated client loses the field"
                }
                Dir::Response => "the generated client loses the field",
            };
            cx.at_base(
                at,
                format!("{d}-property-removed"),
                Class::BreakingForClients,
                format!("{context}: property `{name}` removed: {why}"),
            );
        }
    }
    for (name, n_schema, n_at) in &n.properties {
        let Some((_, b_schema, b_at)) = b.property(name) else {
            continue;
        };
        let skip = absent_here(n_doc, n_schema, n_at) || absent_here(b_doc, b_schema, b_at);
        match (b.requires(name), n.requires(name)) {
            (false, true) if !skip => {
                let (class, why) = match dir {
                    Dir::Request => (
                        Class::BreakingForClients,
                        "clients that leave it out are refused",
                    ),
                    Dir::Response => (
                        Class::BreakingForServers,
                        "servers built from the base document may leave it out",
                    ),
                };
                cx.at_new(
                    n_at,
                    format!("{d}-property-became-required"),
                    class,
                    format!("{context}: property `{name}` became required: {why}"),
                );
            }
            (true, false) if !skip => {
                let (class, why) = match dir {
                    Dir::Request => (
                        Class::BreakingForServers,
                        "servers built from the base document refuse requests without it",
                    ),
                    Dir::Response => (
                        Class::BreakingForClients,
                        "clients may no longer receive it (the generated field becomes an Option)",
                    ),
                };
                cx.at_new(
                    n_at,
                    format!("{d}-property-became-optional"),
                    class,
                    format!("{context}: property `{name}` became optional: {why}"),
                );
            }
            _ => {}
        }
        let (b_at, n_at) = (b_at.clone(), n_at.clone());
        compare_at(
            cx,
            dir,
            &format!("{context}, property `{name}`"),
            b_schema,
            &b_at,
            n_schema,
            &n_at,
            depth + 1,
        );
    }
    required_order(cx, dir, context, b, n);
}

/// The required properties in another order: the generated `new` takes them in property
/// order, so the same ones reordered compile and swap values silently, or stop compiling.
fn required_order(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>) {
    let d = dir.word();
    let order = |v: &View<'_>, other: &View<'_>| -> Vec<String> {
        v.properties
            .iter()
            .map(|(name, _, _)| *name)
            .filter(|name| {
                v.requires(name) && other.requires(name) && other.property(name).is_some()
            })
            .map(str::to_string)
            .collect()
    };
    let (bo, no) = (order(b, n), order(n, b));
    if bo != no {
        let (class, who) = match dir {
            Dir::Request => (Class::BreakingForClients, "clients"),
            Dir::Response => (Class::BreakingForServers, "servers"),
        };
        cx.at_new(
            &n.at,
            format!("{d}-required-properties-reordered"),
            class,
            format!(
                "{context}: required properties reordered ({} → {}): the generated `new` takes them in this order, so {who} building the value must change",
                bo.join(", "),
                no.join(", ")
            ),
        );
    }
}

fn additional(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &View<'_>, n: &View<'_>, depth: usize) {
    let d = dir.word();
    let allows =
        |v: &View<'_>| !matches!(v.get("additionalProperties"), Some((Value::Bool(false), _)));
    match (allows(b), allows(n)) {
        (true, false) => {
            let effect = Effect::Narrows;
            cx.at_new(
                &n.at,
                format!("{d}-additional-properties-forbidden"),
                effect.class(dir),
                format!(
                    "{context}: additionalProperties now false: {}",
                    effect.consequence(dir)
                ),
            );
        }
        (false, true) => {
            let effect = Effect::Widens;
            cx.at_new(
                &n.at,
                format!("{d}-additional-properties-allowed"),
                effect.class(dir),
                format!(
                    "{context}: additionalProperties no longer false: {}",
                    effect.consequence(dir)
                ),
            );
        }
        _ => {}
    }
    if let (Some((bv, bv_at)), Some((nv, nv_at))) =
        (b.get("additionalProperties"), n.get("additionalProperties"))
        && bv.is_object()
        && nv.is_object()
    {
        let (bv_at, nv_at) = (bv_at.to_string(), nv_at.to_string());
        compare_at(
            cx,
            dir,
            &format!("{context}, additional properties"),
            bv,
            &bv_at,
            nv,
            &nv_at,
            depth + 1,
        );
    }
}

fn branches(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

/// `maxLength` → `max-length`.
pub(crate) fn kebab(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn show(n: Option<f64>) -> String {
    match n {
        None => "none".into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", x as i64),
        Some(x) => x.to_string(),
    }
}

fn list(values: &[&Value]) -> String {
    values
        .iter()
        .map(|v| match v {
            Value::String(s) => format!("`{s}`"),
            other => format!("`{other}`"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
