//! Security: each operation's requirement (its own `security` or the document's), compared as
//! a set of alternatives, and the security schemes' definitions.

use super::doc::{members, text};
use super::{Class, Cx};
use crate::diag::push;
use serde_json::Value;
use std::collections::BTreeSet;

/// One way to authenticate: the schemes it needs, each with its sorted scopes, spelled for
/// reasons (`bearerAuth`, `oauth[read write] + apiKey`); "" is "no credentials".
fn alternatives(requirement: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let list = requirement.as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        out.insert(String::new());
    }
    for alt in &list {
        let mut parts: Vec<String> = members(alt)
            .into_iter()
            .map(|(scheme, scopes)| {
                let mut scopes: Vec<&str> = scopes
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                scopes.sort_unstable();
                if scopes.is_empty() {
                    scheme.clone()
                } else {
                    format!("{scheme}[{}]", scopes.join(" "))
                }
            })
            .collect();
        parts.sort();
        out.insert(parts.join(" + "));
    }
    out
}

fn spell(alt: &str) -> String {
    if alt.is_empty() {
        "no credentials".into()
    } else {
        format!("`{alt}`")
    }
}

/// The requirement in force for an operation and where it is written.
fn effective<'a>(cx_doc: &'a super::Doc, op: &'a Value, op_at: &str) -> (Value, String) {
    if let Some(s) = op.get("security") {
        return (s.clone(), push(op_at, "security"));
    }
    match cx_doc.get("/security") {
        Some(s) => (s.clone(), "/security".into()),
        None => (Value::Array(Vec::new()), op_at.to_string()),
    }
}

pub(crate) fn compare_operation(
    cx: &mut Cx<'_>,
    b_at: &str,
    b_op: &Value,
    n_at: &str,
    n_op: &Value,
    label: &str,
) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let (bs, _) = effective(b_doc, b_op, b_at);
    let (ns, ns_at) = effective(n_doc, n_op, n_at);
    let (ba, na) = (alternatives(&bs), alternatives(&ns));
    // Where anyone is let in, a client's credentials are never what refuses it: an
    // alternative dropped while the new requirement admits anonymous callers breaks no one,
    // and one added where the base admitted them is accepted by old servers too.
    let anonymous = |set: &BTreeSet<String>| set.contains("");
    for alt in ba.difference(&na).filter(|_| !anonymous(&na)) {
        cx.at_new(
            &ns_at,
            "security-alternative-removed",
            Class::BreakingForClients,
            format!(
                "{label}: authenticating with {} no longer accepted: clients using it are refused (401/403)",
                spell(alt)
            ),
        );
    }
    for alt in na.difference(&ba).filter(|_| !anonymous(&ba)) {
        cx.at_new(
            &ns_at,
            "security-alternative-added",
            Class::BreakingForServers,
            format!(
                "{label}: authenticating with {} now accepted: servers built from the base document refuse it",
                spell(alt)
            ),
        );
    }
}

/// Security schemes by name: a removed one, or one whose kind or placement changed, breaks
/// the clients that use it.
pub(crate) fn compare_schemes(cx: &mut Cx<'_>) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let empty = Value::Null;
    let bs = b_doc.get("/components/securitySchemes").unwrap_or(&empty);
    let ns = n_doc.get("/components/securitySchemes").unwrap_or(&empty);
    let at = "/components/securitySchemes";
    for (name, b) in members(bs) {
        let Some(n) = ns.get(name) else {
            continue; // Its uses, compared per operation, tell whether clients lose anything.
        };
        let (b, _) = b_doc.resolve(b, &push(at, name));
        let (n, n_at) = n_doc.resolve(n, &push(at, name));
        for key in ["type", "scheme", "in", "name"] {
            let (bv, nv) = (text(b, key), text(n, key));
            // HTTP scheme names are case-insensitive (RFC 9110).
            let same = match (bv, nv) {
                (Some(x), Some(y)) if key == "scheme" => x.eq_ignore_ascii_case(y),
                (x, y) => x == y,
            };
            if !same {
                cx.at_new(
                    &push(&n_at, key),
                    "security-scheme-changed",
                    Class::BreakingForClients,
                    format!(
                        "security scheme `{name}`: {key} {} → {}: clients send credentials the old way",
                        bv.unwrap_or("none"),
                        nv.unwrap_or("none")
                    ),
                );
            }
        }
    }
}
