//! Operations: added and removed (against deprecation and sunset), deprecation and
//! `x-deprecation` sunset changes, parameters, request bodies, responses (statuses, bodies,
//! headers) and the shapes of the generated client that an additive edit still changes.

use super::doc::{Doc, flag, members, object, text};
use super::{Class, Cx, Dir, schema, security};
use crate::diag::push;
use crate::lower::extensions::parse_date;
use serde_json::Value;

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One operation of one document: where it stands and its path item (for shared parameters).
struct Op<'a> {
    /// `GET /pets`
    key: String,
    at: String,
    op: &'a Value,
    item: &'a Value,
    item_at: String,
    label: String,
}

fn operations(doc: &Doc) -> Vec<(String, Op<'_>)> {
    let mut out = Vec::new();
    let Some(paths) = doc.get("/paths") else {
        return out;
    };
    for (path, item) in members(paths) {
        let (item, item_at) = doc.resolve(item, &push("/paths", path));
        for method in METHODS {
            if let Some(op) = item.get(*method).filter(|o| o.is_object()) {
                let label = text(op, "operationId")
                    .map(str::to_string)
                    .unwrap_or_else(|| super::doc::operation_key(method, path));
                out.push((
                    super::doc::operation_key(method, path),
                    Op {
                        key: super::doc::operation_key(method, path),
                        at: push(&item_at, method),
                        op,
                        item,
                        item_at: item_at.clone(),
                        label,
                    },
                ));
            }
        }
    }
    out
}

pub(crate) fn compare(cx: &mut Cx<'_>, now: i64) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let base = operations(b_doc);
    let new = operations(n_doc);
    for (key, n) in &new {
        match base.iter().find(|(k, _)| k == key) {
            Some((_, b)) => operation(cx, b, n),
            None => cx.at_new(
                &n.at,
                "operation-added",
                Class::BreakingForServers,
                format!(
                    "{key} ({}) added: servers built from the base document lack it (a regenerated server answers 501 until it is implemented)",
                    n.label
                ),
            ),
        }
    }
    for (key, b) in &base {
        if new.iter().any(|(k, _)| k == key) {
            continue;
        }
        let sunset = sunset(b.op);
        let deprecated = flag(b.op, "deprecated") || b.op.get("x-deprecation").is_some();
        let (kind, class, why) = match (deprecated, sunset) {
            (_, Some((day, at))) if at <= now => (
                "operation-removed-after-sunset",
                Class::Compatible,
                format!("its sunset {day} has passed (servers have answered it 410 Gone since)"),
            ),
            (_, Some((day, _))) => (
                "operation-removed-before-sunset",
                Class::BreakingForClients,
                format!("it was announced to stay until its sunset {day}; clients calling it fail"),
            ),
            (true, None) => (
                "operation-removed-after-deprecation",
                Class::Compatible,
                "it was deprecated (without a sunset date)".to_string(),
            ),
            (false, None) => (
                "operation-removed-without-deprecation",
                Class::BreakingForClients,
                "it was not deprecated first; clients calling it fail".to_string(),
            ),
        };
        cx.at_base(
            &b.at,
            kind,
            class,
            format!("{key} ({}) removed: {why}", b.label),
        );
    }
}

/// `x-deprecation.sunset` as written and as Unix seconds.
fn sunset(op: &Value) -> Option<(String, i64)> {
    let day = op.get("x-deprecation")?.get("sunset")?.as_str()?;
    Some((day.to_string(), parse_date(day)? * 86_400))
}

fn operation(cx: &mut Cx<'_>, b: &Op<'_>, n: &Op<'_>) {
    let label = n.label.as_str();
    match (flag(b.op, "deprecated"), flag(n.op, "deprecated")) {
        (false, true) => cx.at_new(
            &push(&n.at, "deprecated"),
            "operation-deprecated",
            Class::Compatible,
            format!("{label} deprecated: it keeps working; clients are told to move away"),
        ),
        (true, false) => cx.at_new(
            &n.at,
            "operation-deprecation-removed",
            Class::Compatible,
            format!("{label} no longer deprecated"),
        ),
        _ => {}
    }
    // The generated method and its types are named from the operationId.
    if let (Some(bid), Some(nid)) = (text(b.op, "operationId"), text(n.op, "operationId"))
        && bid != nid
    {
        cx.at_new(
            &push(&n.at, "operationId"),
            "generated-operation-renamed",
            Class::BreakingForClients,
            format!("operationId {bid} → {nid}: wire-compatible, but the generated client method, the server trait method and their types are renamed, so code using them stops compiling"),
        );
    }
    let sunset_at = push(&push(&n.at, "x-deprecation"), "sunset");
    match (sunset(b.op), sunset(n.op)) {
        (Some((bd, bt)), Some((nd, nt))) if nt < bt => cx.at_new(
            &sunset_at,
            "operation-sunset-moved-earlier",
            Class::BreakingForClients,
            format!("{label}: sunset {bd} → {nd}: clients planned on the later date; from {nd} the server answers 410 Gone"),
        ),
        (Some((bd, bt)), Some((nd, nt))) if nt > bt => cx.at_new(
            &sunset_at,
            "operation-sunset-moved-later",
            Class::Compatible,
            format!("{label}: sunset {bd} → {nd}: clients get more time"),
        ),
        (None, Some((nd, _))) => cx.at_new(
            &sunset_at,
            "operation-sunset-set",
            Class::Compatible,
            format!("{label}: sunset set to {nd}: from then on the server answers 410 Gone"),
        ),
        (Some((bd, _)), None) => cx.at_new(
            &n.at,
            "operation-sunset-removed",
            Class::Compatible,
            format!("{label}: sunset {bd} removed: the operation is no longer scheduled for removal"),
        ),
        _ => {}
    }
    parameters(cx, b, n);
    request_body(cx, b, n);
    responses(cx, b, n);
    security::compare_operation(cx, &b.at, b.op, &n.at, n.op, label);
}

/// A parameter: its key (`query limit`; header names ignore case), value and pointer.
struct Param<'a> {
    key: String,
    location: String,
    name: String,
    value: &'a Value,
    /// Where the parameter's definition stands (a component when referenced).
    at: String,
    /// Where the operation lists it.
    site: String,
}

/// The operation's parameters with the path item's shared ones it does not override.
fn params<'a>(doc: &'a Doc, op: &Op<'a>) -> Vec<Param<'a>> {
    let mut out: Vec<Param<'a>> = Vec::new();
    let lists = [(op.op, op.at.clone()), (op.item, op.item_at.clone())];
    for (holder, holder_at) in lists {
        let list_at = push(&holder_at, "parameters");
        for (i, p) in holder
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let site = push(&list_at, &i.to_string());
            let (value, at) = doc.resolve(p, &site);
            let location = text(value, "in").unwrap_or_default().to_string();
            let name = text(value, "name").unwrap_or_default().to_string();
            let key = if location == "header" {
                format!("{location} {}", name.to_ascii_lowercase())
            } else {
                format!("{location} {name}")
            };
            if !out.iter().any(|p| p.key == key) {
                out.push(Param {
                    key,
                    location,
                    name,
                    value,
                    at,
                    site,
                });
            }
        }
    }
    out
}

/// Parameters that become part of the generated client's `…Options` (optional ones, but the
/// `Idempotency-Key` header, which the runtime fills in).
fn in_options(p: &Param<'_>) -> bool {
    let idempotency_key = p.location == "header" && p.name.eq_ignore_ascii_case("idempotency-key");
    !flag(p.value, "required") && !idempotency_key
}

/// A parameter's schema, from `schema` or its one `content` entry.
fn param_schema<'a>(p: &'a Value, at: &str) -> Option<(&'a Value, String)> {
    if let Some(s) = p.get("schema") {
        return Some((s, push(at, "schema")));
    }
    let (media, entry) = members(p.get("content")?).into_iter().next()?;
    let content_at = push(&push(at, "content"), media);
    Some((entry.get("schema")?, push(&content_at, "schema")))
}

fn parameters(cx: &mut Cx<'_>, b: &Op<'_>, n: &Op<'_>) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let label = n.label.as_str();
    let bp = params(b_doc, b);
    let np = params(n_doc, n);
    for p in &np {
        let what = format!("{label}: {} parameter `{}`", p.location, p.name);
        match bp.iter().find(|q| q.key == p.key) {
            None if flag(p.value, "required") => cx.at_new(
                &p.site,
                "request-parameter-added-required",
                Class::BreakingForClients,
                format!("{what} added, required: clients that leave it out are refused"),
            ),
            None => cx.at_new(
                &p.site,
                "request-parameter-added-optional",
                Class::Compatible,
                format!("{what} added, optional: clients may leave it out"),
            ),
            Some(q) => {
                match (flag(q.value, "required"), flag(p.value, "required")) {
                    (false, true) => cx.at_new(
                        &p.at,
                        "request-parameter-became-required",
                        Class::BreakingForClients,
                        format!("{what} became required: clients that leave it out are refused"),
                    ),
                    (true, false) => {
                        cx.at_new(
                            &p.at,
                            "request-parameter-became-optional",
                            Class::BreakingForServers,
                            format!("{what} became optional: servers built from the base document refuse requests without it"),
                        );
                        // Wire-compatible for clients, but not for code calling the
                        // generated client (the Idempotency-Key header is never an argument).
                        if in_options(p) {
                            cx.at_new(
                                &p.at,
                                "generated-argument-became-option",
                                Class::BreakingForClients,
                                format!("{what} became optional: the generated client method loses its argument (it moves to the `…Options` of the `…_with` method), so code calling it stops compiling"),
                            );
                        }
                    }
                    _ => {}
                }
                match (flag(q.value, "deprecated"), flag(p.value, "deprecated")) {
                    (false, true) => cx.at_new(
                        &p.at,
                        "request-parameter-deprecated",
                        Class::Compatible,
                        format!("{what} deprecated"),
                    ),
                    (true, false) => cx.at_new(
                        &p.at,
                        "request-parameter-deprecation-removed",
                        Class::Compatible,
                        format!("{what} no longer deprecated"),
                    ),
                    _ => {}
                }
                if let (Some((bs, bs_at)), Some((ns, ns_at))) =
                    (param_schema(q.value, &q.at), param_schema(p.value, &p.at))
                {
                    schema::compare(cx, Dir::Request, &what, bs, &bs_at, ns, &ns_at);
                }
            }
        }
    }
    for q in &bp {
        if !np.iter().any(|p| p.key == q.key) {
            cx.at_base(
                &q.site,
                "request-parameter-removed",
                Class::BreakingForClients,
                format!(
                    "{label}: {} parameter `{}` removed: the generated client loses it; other clients' values are ignored",
                    q.location, q.name
                ),
            );
        }
    }
}

fn request_body(cx: &mut Cx<'_>, b: &Op<'_>, n: &Op<'_>) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let label = n.label.as_str();
    let body = |doc: &'_ Doc, op: &Op<'_>| -> Option<(Value, String, String)> {
        let raw = op.op.get("requestBody")?;
        let site = push(&op.at, "requestBody");
        let (v, at) = doc.resolve(raw, &site);
        Some((v.clone(), at, site))
    };
    match (body(b_doc, b), body(n_doc, n)) {
        (None, Some((nb, _, at))) => {
            let required = flag(&nb, "required");
            cx.at_new(
                &at,
                if required {
                    "request-body-added-required"
                } else {
                    "request-body-added-optional"
                },
                if required {
                    Class::BreakingForClients
                } else {
                    Class::Compatible
                },
                if required {
                    format!("{label}: required request body added: clients that send none are refused")
                } else {
                    format!("{label}: optional request body added")
                },
            );
        }
        (Some((_, _, at)), None) => cx.at_base(
            &at,
            "request-body-removed",
            Class::BreakingForClients,
            format!("{label}: request body removed: the generated client method loses its body argument; other clients' bodies are ignored"),
        ),
        (Some((bb, b_at, _)), Some((nb, n_at, _))) => {
            match (flag(&bb, "required"), flag(&nb, "required")) {
                (false, true) => cx.at_new(
                    &n_at,
                    "request-body-became-required",
                    Class::BreakingForClients,
                    format!("{label}: request body became required: clients that send none are refused"),
                ),
                (true, false) => cx.at_new(
                    &n_at,
                    "request-body-became-optional",
                    Class::BreakingForServers,
                    format!("{label}: request body became optional: servers built from the base document refuse requests without one"),
                ),
                _ => {}
            }
            content(
                cx,
                Dir::Request,
                &format!("{label} request body"),
                &bb,
                &b_at,
                &nb,
                &n_at,
            );
        }
        (None, None) => {}
    }
}

/// The media types of a body (request or response) and their schemas.
fn content(cx: &mut Cx<'_>, dir: Dir, context: &str, b: &Value, b_at: &str, n: &Value, n_at: &str) {
    let d = dir.word();
    let empty = Value::Null;
    let bc = b.get("content").unwrap_or(&empty);
    let nc = n.get("content").unwrap_or(&empty);
    let (bc_at, nc_at) = (push(b_at, "content"), push(n_at, "content"));
    for (media, entry) in members(nc) {
        let at = push(&nc_at, media);
        match bc.get(media) {
            None => {
                let (class, why) = match dir {
                    Dir::Request => (
                        Class::BreakingForServers,
                        "servers built from the base document answer it 415",
                    ),
                    Dir::Response => (
                        Class::Compatible,
                        "clients ask for the media types they read",
                    ),
                };
                cx.at_new(
                    &at,
                    format!("{d}-media-type-added"),
                    class,
                    format!("{context}: media type `{media}` added: {why}"),
                );
            }
            Some(old) => {
                if let (Some(bs), Some(ns)) = (old.get("schema"), entry.get("schema")) {
                    let b_schema_at = push(&push(&bc_at, media), "schema");
                    let n_schema_at = push(&at, "schema");
                    schema::compare(cx, dir, context, bs, &b_schema_at, ns, &n_schema_at);
                }
            }
        }
    }
    for (media, _) in members(bc) {
        if nc.get(media).is_none() {
            let why = match dir {
                Dir::Request => "clients that send it are refused (415)",
                Dir::Response => "clients that read only it get nothing they can read",
            };
            cx.at_base(
                &push(&bc_at, media),
                format!("{d}-media-type-removed"),
                Class::BreakingForClients,
                format!("{context}: media type `{media}` removed: {why}"),
            );
        }
    }
}

fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

fn responses(cx: &mut Cx<'_>, b: &Op<'_>, n: &Op<'_>) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let label = n.label.as_str();
    let empty = Value::Null;
    let br = b.op.get("responses").unwrap_or(&empty);
    let nr = n.op.get("responses").unwrap_or(&empty);
    let (br_at, nr_at) = (push(&b.at, "responses"), push(&n.at, "responses"));
    let statuses = |r: &Value| -> Vec<String> {
        members(r)
            .into_iter()
            .map(|(k, _)| k.clone())
            .filter(|k| !k.starts_with("x-"))
            .collect()
    };
    let (bs, ns) = (statuses(br), statuses(nr));
    for status in &ns {
        let Some(raw) = nr.get(status) else { continue };
        let (nv, n_at) = n_doc.resolve(raw, &push(&nr_at, status));
        let Some(old_raw) = br.get(status) else {
            cx.at_new(
                &push(&nr_at, status),
                "response-status-added",
                Class::Compatible,
                format!("{label}: response {status} added: servers built from the base document never send it; the generated client's enums are #[non_exhaustive]"),
            );
            continue;
        };
        let (bv, b_at) = b_doc.resolve(old_raw, &push(&br_at, status));
        let context = format!("{label} response {status}");
        let has_body = |v: &Value| {
            v.get("content")
                .and_then(object)
                .is_some_and(|c| !c.is_empty())
        };
        match (has_body(bv), has_body(nv)) {
            (false, true) => cx.at_new(
                &push(&n_at, "content"),
                "response-body-added",
                Class::BreakingForServers,
                format!("{context}: body added: servers built from the base document send none (the generated client's return type changes)"),
            ),
            (true, false) => cx.at_base(
                &push(&b_at, "content"),
                "response-body-removed",
                Class::BreakingForClients,
                format!("{context}: body removed: clients reading it get nothing"),
            ),
            (true, true) => content(cx, Dir::Response, &context, bv, &b_at, nv, &n_at),
            (false, false) => {}
        }
        headers(cx, &context, bv, &b_at, nv, &n_at);
    }
    for status in &bs {
        if ns.contains(status) {
            continue;
        }
        let why = if is_success(status) {
            "clients expecting it fail, and the generated client's success type changes"
        } else {
            "code matching it in the generated client's error enum stops compiling"
        };
        cx.at_base(
            &push(&br_at, status),
            "response-status-removed",
            Class::BreakingForClients,
            format!("{label}: response {status} removed: {why}"),
        );
    }
    // Successes of one body type are the generated client's return type; successes whose
    // bodies differ make it an enum of them: a change between the two changes the type.
    match (b_doc.success_enum(&b.key), n_doc.success_enum(&n.key)) {
        (false, true) => cx.at_new(
            &nr_at,
            "generated-success-enum",
            Class::BreakingForClients,
            format!("{label}: a success status with another body than the others: the generated client method's return type becomes an enum of the successes, so code using its result stops compiling"),
        ),
        (true, false) => cx.at_new(
            &nr_at,
            "generated-success-enum-removed",
            Class::BreakingForClients,
            format!("{label}: the successes now share one body type: the generated client method returns it instead of an enum of the successes, so code matching the enum stops compiling"),
        ),
        _ => {}
    }
}

fn headers(cx: &mut Cx<'_>, context: &str, b: &Value, b_at: &str, n: &Value, n_at: &str) {
    let (b_doc, n_doc) = (cx.base, cx.new);
    let empty = Value::Null;
    let bh = b.get("headers").unwrap_or(&empty);
    let nh = n.get("headers").unwrap_or(&empty);
    let (bh_at, nh_at) = (push(b_at, "headers"), push(n_at, "headers"));
    let find = |map: &Value, name: &str| -> Option<String> {
        members(map)
            .into_iter()
            .map(|(k, _)| k)
            .find(|k| k.eq_ignore_ascii_case(name))
            .cloned()
    };
    for (name, raw) in members(nh) {
        let site = push(&nh_at, name);
        let (nv, at) = n_doc.resolve(raw, &site);
        let what = format!("{context}: header `{name}`");
        let Some(old_name) = find(bh, name) else {
            if flag(nv, "required") {
                cx.at_new(
                    &site,
                    "response-header-added-required",
                    Class::BreakingForServers,
                    format!("{what} added, required: servers built from the base document do not send it"),
                );
            } else {
                cx.at_new(
                    &site,
                    "response-header-added-optional",
                    Class::Compatible,
                    format!("{what} added, optional"),
                );
            }
            continue;
        };
        let Some(old_raw) = bh.get(&old_name) else {
            continue;
        };
        let (bv, old_at) = b_doc.resolve(old_raw, &push(&bh_at, &old_name));
        match (flag(bv, "required"), flag(nv, "required")) {
            (true, false) => cx.at_new(
                &at,
                "response-header-became-optional",
                Class::BreakingForClients,
                format!("{what} became optional: clients relying on it may not get it"),
            ),
            (false, true) => cx.at_new(
                &at,
                "response-header-became-required",
                Class::BreakingForServers,
                format!(
                    "{what} became required: servers built from the base document may leave it out"
                ),
            ),
            _ => {}
        }
        if let (Some(bs), Some(ns)) = (bv.get("schema"), nv.get("schema")) {
            schema::compare(
                cx,
                Dir::Response,
                &what,
                bs,
                &push(&old_at, "schema"),
                ns,
                &push(&at, "schema"),
            );
        }
    }
    for (name, raw) in members(bh) {
        if find(nh, name).is_some() {
            continue;
        }
        let site = push(&bh_at, name);
        let (bv, _) = b_doc.resolve(raw, &site);
        let required = flag(bv, "required");
        cx.at_base(
            &site,
            "response-header-removed",
            if required {
                Class::BreakingForClients
            } else {
                Class::Compatible
            },
            format!(
                "{context}: {} header `{name}` removed{}",
                if required { "required" } else { "optional" },
                if required {
                    ": clients relying on it no longer get it"
                } else {
                    ""
                }
            ),
        );
    }
}
