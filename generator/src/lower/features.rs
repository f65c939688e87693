//! One cargo feature per tag of the server, client and CLI crates: which feature compiles each
//! operation and each type, decided once, so that a team calling or serving one part of a large
//! API compiles that part only (`default-features = false, features = ["issues"]`).
//!
//! Rules (book/src/guide/large-api.md):
//! - a feature per tag the operations use, named after it in kebab case (`Pull Requests` →
//!   `pull-requests`), apart from the crate's own features (`rustls`, `default`);
//! - an operation with several tags compiles when any of them is on;
//! - operations without a tag, in a document that tags others, share the feature `untagged`;
//!   in a document that tags none, each path group (its first segment: `/pets/{id}` →
//!   `pets`) is a feature, counted after the segments every path shares (Stripe's
//!   `/v1/charges/{id}` → `charges`);
//! - a type compiles when some operation whose feature is on reaches it (through any number
//!   of other types); the types webhooks and error bodies reach always compile;
//! - the schemas no operation, webhook or error body reaches (and what only they reach) have
//!   a feature of their own, `unused-schemas`: a team building one tag's operations does not
//!   compile the document's other schemas (OpenAI's 3.1 document has hundreds), and `default`
//!   keeps them for anyone who uses them as plain types;
//! - `default` turns every feature on, so nothing changes for a user who does not opt in; a
//!   document whose operations fall in one feature gets none.
//!
//! Decision: `docs/decisions/0006-cargo-features-per-tag.md`.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Api, Feature, FeatureGates, FeatureOf};
use crate::naming::{self, Scope};

/// The crate's own feature names, which a tag's feature is named apart from.
const RESERVED: &[&str] = &["default", "rustls", "mock", "redis", "full", UNUSED];

/// The feature of the schemas no operation, webhook or error body reaches.
const UNUSED: &str = "unused-schemas";

/// Fills [`Api::features`].
pub fn decide(api: &mut Api) {
    let tagged = api.operations.iter().any(|op| !op.tags.is_empty());
    let shared = if tagged {
        0
    } else {
        shared_prefix(api.operations.iter().map(|op| op.path.as_str()))
    };
    // Each operation's groups: its tags, or `untagged`, or its path's first segment after
    // the prefix every path shares.
    let groups: Vec<Vec<String>> = api
        .operations
        .iter()
        .map(|op| {
            if !op.tags.is_empty() {
                op.tags.clone()
            } else if tagged {
                vec!["untagged".to_owned()]
            } else {
                let first = segments(&op.path).nth(shared).unwrap_or_default();
                let first = if first.is_empty() || first.starts_with('{') {
                    "root"
                } else {
                    first
                };
                vec![first.to_owned()]
            }
        })
        .collect();
    let mut scope = Scope::reserving(RESERVED);
    let mut names: HashMap<String, String> = HashMap::new();
    let mut features: Vec<Feature> = Vec::new();
    for group in groups.iter().flatten() {
        if names.contains_key(group) {
            continue;
        }
        let kebab = naming::kebab(group);
        let name = scope.claim(if kebab.is_empty() {
            "tag".into()
        } else {
            kebab
        });
        names.insert(group.clone(), name.clone());
        features.push(Feature {
            name,
            of: FeatureOf::Group(group.clone()),
        });
    }
    if features.len() < 2 {
        api.features = FeatureGates::default();
        return;
    }
    let operations: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let mut f: Vec<String> = g.iter().map(|t| names[t].clone()).collect();
            f.dedup();
            f
        })
        .collect();
    // Each type's references, read from its Debug text (as `select::prune_types` does).
    let by_name: HashMap<&str, usize> = api
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = api
        .types
        .iter()
        .map(|t| {
            super::select::named(&format!("{:?}", t.kind))
                .filter_map(|n| by_name.get(n).copied())
                .collect()
        })
        .collect();
    let reach = |roots: &str| {
        let mut seen = vec![false; api.types.len()];
        let mut queue: Vec<usize> = super::select::named(roots)
            .filter_map(|n| by_name.get(n).copied())
            .collect();
        while let Some(i) = queue.pop() {
            if !std::mem::replace(&mut seen[i], true) {
                queue.extend(edges[i].iter().copied());
            }
        }
        seen
    };
    let always = reach(&format!(
        "{:?}{:?}{:?}",
        api.webhooks, api.error_bodies, api.errors
    ));
    let mut gates: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); api.types.len()];
    for (op, features) in api.operations.iter().zip(&operations) {
        for (i, reached) in reach(&format!("{op:?}")).into_iter().enumerate() {
            if reached {
                gates[i].extend(features.iter().map(String::as_str));
            }
        }
    }
    // The schemas nothing above reaches are the feature `unused-schemas`'s, with every type
    // they reach (openai's `ComputerToolCallOutput`, reached by nothing, holds a
    // `ComputerCallSafetyCheckParam` that some tags' operations reach: that one compiles
    // under either).
    let tags = features.len();
    let unused: Vec<usize> = (0..api.types.len())
        .filter(|&i| gates[i].is_empty() && !always[i])
        .collect();
    let any_unused = !unused.is_empty();
    let mut queue = unused;
    let mut seen = vec![false; api.types.len()];
    while let Some(i) = queue.pop() {
        if !std::mem::replace(&mut seen[i], true) {
            gates[i].insert(UNUSED);
            queue.extend(edges[i].iter().copied());
        }
    }
    if any_unused {
        features.push(Feature {
            name: UNUSED.to_owned(),
            of: FeatureOf::UnusedSchemas,
        });
    }
    let types = api
        .types
        .iter()
        .zip(&gates)
        .zip(&always)
        .filter(|((_, gate), always)| {
            // Every tag's feature reaching it: it compiles in every build.
            !**always && gate.iter().filter(|f| **f != UNUSED).count() < tags
        })
        .map(|((t, gate), _)| (t.name.clone(), gate.iter().map(|s| s.to_string()).collect()))
        .collect();
    api.features = FeatureGates {
        features,
        operations,
        types,
    };
}

/// A path's segments (`/v1/pets/{id}` → `v1`, `pets`, `{id}`), without a query part.
fn segments(path: &str) -> impl Iterator<Item = &str> {
    let path = path.split('?').next().unwrap_or_default();
    path.trim_start_matches('/').split('/')
}

/// How many leading segments every path shares and has more after (`/v1/accounts`,
/// `/v1/charges/{id}`: 1, the `v1`): Stripe's document tags nothing and puts every path
/// under `/v1`, so its groups are its resources, not one `v1`. A segment that is a template
/// (`{tenant}`) ends the prefix, and so does a path that would have nothing left (`/pets`
/// beside `/pets/{id}` keeps them one group, `pets`).
fn shared_prefix<'a>(paths: impl Iterator<Item = &'a str>) -> usize {
    let mut prefix: Option<Vec<&str>> = None;
    for path in paths {
        let all: Vec<&str> = segments(path).collect();
        // The last segment never belongs to the prefix: the path must go on after it.
        let here = &all[..all.len().saturating_sub(1)];
        let shared = match &prefix {
            None => here.len(),
            Some(p) => p.iter().zip(here).take_while(|(a, b)| a == b).count(),
        };
        let keep = here[..shared]
            .iter()
            .take_while(|s| !s.is_empty() && !s.starts_with('{'))
            .count();
        prefix = Some(here[..keep].to_vec());
    }
    prefix.map_or(0, |p| p.len())
}
