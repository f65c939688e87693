//! The echo harness (`cargo xtask calls --echo`): each call's request, recorded by the relay
//! in front of a server that answers every request `{}`, held to what OpenAPI's style table
//! (3.1.1 §4.8.12.4, on RFC 6570's expansions) says the document's parameters expand to for
//! the values given: the path byte for byte, each query parameter's pairs, each header's
//! value, each cookie's pairs, and a JSON body's value.
//!
//! The expansions are written here from the table, apart from the runtime's `style.rs`, so
//! that the two are held to each other. Where the table leaves a choice, the runtime's
//! documented decision is expected (book/src/internals/values.md, "Parameter styles"): a `label`
//! value's own `.` is encoded, `|` is written as it is, a member that is a list repeats its
//! name in an exploded `form` or `deepObject`, a nested value is its JSON text.

use serde_json::Value;

use super::proxy::Exchange;
use super::requests::{Call, Sent};

/// One difference between the request sent and the table's.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// `path`, `query color`, `header X-Id`, `cookie session`, `body`.
    pub what: String,
    pub expected: String,
    pub sent: String,
}

/// The request of `call` (`exchange`, as recorded) against the table's expansion of what was
/// given; empty when they agree.
pub fn check(call: &Call, exchange: &Exchange) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let target = exchange
        .request
        .split_whitespace()
        .nth(1)
        .unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    // A path key may carry a query of its own (`/responses?beta=true`): sent as written.
    let (template, fixed) = call.path.split_once('?').unwrap_or((&call.path, ""));
    let expected_path = expand_path(template, &call.sent);
    if path != expected_path {
        out.push(Mismatch {
            what: "path".into(),
            expected: expected_path,
            sent: path.into(),
        });
    }
    let mut pairs: Vec<&str> = query.split('&').filter(|p| !p.is_empty()).collect();
    let fixed: Vec<String> = fixed
        .split('&')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    expect_all(
        &mut pairs,
        &fixed,
        ("the path key's query".into(), "&"),
        query,
        &mut out,
    );
    let header = |name: &str| {
        exchange
            .request_headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
    };
    let cookie_header = header("cookie").join("; ");
    let mut cookies: Vec<&str> = cookie_header
        .split("; ")
        .filter(|c| !c.is_empty())
        .collect();
    for sent in &call.sent {
        match sent.location.as_str() {
            "query" => expect_all(
                &mut pairs,
                &query_pairs(sent),
                (format!("query {}", sent.name), "&"),
                query,
                &mut out,
            ),
            "header" => {
                let expected = expand_simple(sent, &|s: &str| s.to_string());
                let sent_values = header(&sent.name);
                if expected.as_deref() != sent_values.first().copied() || sent_values.len() > 1 {
                    out.push(Mismatch {
                        what: format!("header {}", sent.name),
                        expected: expected.unwrap_or_default(),
                        sent: sent_values.join(" | "),
                    });
                }
            }
            "cookie" => expect_all(
                &mut cookies,
                &cookie_pairs(sent),
                (format!("cookie {}", sent.name), "; "),
                &cookie_header,
                &mut out,
            ),
            _ => {}
        }
    }
    // A pair left over under a name the harness gave is a value the table does not write.
    let given: Vec<String> = call
        .sent
        .iter()
        .filter(|s| s.location == "query")
        .map(|s| encode(&s.name, false))
        .collect();
    for pair in pairs {
        let name = pair.split('=').next().unwrap_or_default();
        if given.iter().any(|g| g == name) {
            out.push(Mismatch {
                what: format!("query {name}"),
                expected: "(no further pair)".into(),
                sent: pair.into(),
            });
        }
    }
    if let Some(body) = &call.json_body {
        let received: Option<Value> = serde_json::from_slice(&exchange.request_body).ok();
        if received.as_ref().map(normal) != Some(normal(body)) {
            out.push(Mismatch {
                what: "body".into(),
                expected: body.to_string(),
                sent: String::from_utf8_lossy(&exchange.request_body).into_owned(),
            });
        }
    }
    out
}

/// Removes each of `expected` from `found` once; when one is not there, a mismatch named
/// `what` (the expected parts joined by its separator, against `sent` as a whole).
fn expect_all(
    found: &mut Vec<&str>,
    expected: &[String],
    (what, separator): (String, &str),
    sent: &str,
    out: &mut Vec<Mismatch>,
) {
    let mut missing = false;
    for e in expected {
        match found.iter().position(|f| f == e) {
            Some(i) => {
                found.remove(i);
            }
            None => missing = true,
        }
    }
    if missing {
        out.push(Mismatch {
            what,
            expected: expected.join(separator),
            sent: sent.into(),
        });
    }
}

/// A JSON value with every number as a double (the client writes `1.0` as `1.0` or `1`).
fn normal(v: &Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(normal).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), normal(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A value's parts: one text, the items, or the members, each written as a parameter writes
/// it (a string without quotes, anything else its JSON text); `None` when nothing is sent
/// (`null`, an empty list or object).
enum Parts {
    One(String),
    Items(Vec<String>),
    Members(Vec<(String, Value)>),
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn parts(v: &Value) -> Option<Parts> {
    match v {
        Value::Null => None,
        Value::Array(items) if items.is_empty() => None,
        Value::Array(items) => Some(Parts::Items(items.iter().map(text).collect())),
        Value::Object(members) => {
            let members: Vec<(String, Value)> = members
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            (!members.is_empty()).then_some(Parts::Members(members))
        }
        other => Some(Parts::One(text(other))),
    }
}

/// RFC 3986's unreserved characters stay; with `reserved` (`allowReserved`) so do the
/// reserved ones a query may hold but its delimiters `&`, `=`, `+` (and `'`, which WHATWG's
/// URL parser encodes in a query), and `%XX` triples.
fn encode(s: &str, reserved: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let triple = reserved
            && b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if triple {
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        }
        let kept = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || reserved && b":/?@!$()*,;".contains(&b);
        if kept {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
    out
}

/// The path with each `{name}` expanded in its parameter's style (`simple`, `label`,
/// `matrix`).
fn expand_path(template: &str, sent: &[Sent]) -> String {
    let mut path = template.to_string();
    for p in sent.iter().filter(|p| p.location == "path") {
        let enc = |s: &str| {
            let e = encode(s, false);
            // A label's own `.` would read as the exploded label's separator.
            if p.style == "label" {
                e.replace('.', "%2E")
            } else {
                e
            }
        };
        let value = match p.style.as_str() {
            "label" => expand_label(p, &enc),
            "matrix" => expand_matrix(p, &enc),
            _ => expand_simple(p, &enc),
        };
        path = path.replace(&format!("{{{}}}", p.name), &value.unwrap_or_default());
    }
    path
}

/// `simple`: `blue`, `blue,black`, `R,100,G,200` (`R=100,G=200` exploded).
fn expand_simple(p: &Sent, enc: &dyn Fn(&str) -> String) -> Option<String> {
    Some(match parts(&p.value)? {
        Parts::One(s) => enc(&s),
        Parts::Items(items) => join(items.iter().map(|i| enc(i)), ","),
        Parts::Members(members) => members_joined(&members, p.explode, enc, ","),
    })
}

/// `label`: `.blue`, `.blue,black` (`.blue.black` exploded), `.R,100` (`.R=100.G=200`).
fn expand_label(p: &Sent, enc: &dyn Fn(&str) -> String) -> Option<String> {
    let sep = if p.explode { "." } else { "," };
    Some(match parts(&p.value)? {
        Parts::One(s) => format!(".{}", enc(&s)),
        Parts::Items(items) => format!(".{}", join(items.iter().map(|i| enc(i)), sep)),
        Parts::Members(members) => format!(".{}", members_joined(&members, p.explode, enc, sep)),
    })
}

/// `matrix`: `;color=blue`, `;colors=blue,black` (`;colors=blue;colors=black` exploded),
/// `;rgb=R,100` (`;R=100;G=200` exploded).
fn expand_matrix(p: &Sent, enc: &dyn Fn(&str) -> String) -> Option<String> {
    let name = enc(&p.name);
    Some(match (parts(&p.value)?, p.explode) {
        (Parts::One(s), _) => format!(";{name}={}", enc(&s)),
        (Parts::Items(items), true) => items
            .iter()
            .map(|i| format!(";{name}={}", enc(i)))
            .collect(),
        (Parts::Items(items), false) => {
            format!(";{name}={}", join(items.iter().map(|i| enc(i)), ","))
        }
        (Parts::Members(members), true) => members
            .iter()
            .map(|(k, v)| format!(";{}={}", enc(k), enc(&text(v))))
            .collect(),
        (Parts::Members(members), false) => {
            format!(";{name}={}", members_joined(&members, false, enc, ","))
        }
    })
}

/// An object's members: `k,v,k,v`, or `k=v` joined by `sep` exploded.
fn members_joined(
    members: &[(String, Value)],
    explode: bool,
    enc: &dyn Fn(&str) -> String,
    sep: &str,
) -> String {
    if explode {
        join(
            members
                .iter()
                .map(|(k, v)| format!("{}={}", enc(k), enc(&text(v)))),
            sep,
        )
    } else {
        join(
            members.iter().flat_map(|(k, v)| [enc(k), enc(&text(v))]),
            ",",
        )
    }
}

fn join(parts: impl Iterator<Item = String>, sep: &str) -> String {
    parts.collect::<Vec<_>>().join(sep)
}

/// A query parameter's pairs (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`).
fn query_pairs(p: &Sent) -> Vec<String> {
    let enc = |s: &str| encode(s, p.allow_reserved);
    let name = encode(&p.name, false);
    let Some(value) = parts(&p.value) else {
        return Vec::new();
    };
    let delimiter = match p.style.as_str() {
        "spaceDelimited" => "%20",
        "pipeDelimited" => "|",
        _ => ",",
    };
    match (value, p.style.as_str(), p.explode) {
        (Parts::One(s), _, _) => vec![format!("{name}={}", enc(&s))],
        (Parts::Items(items), _, true) => {
            items.iter().map(|i| format!("{name}={}", enc(i))).collect()
        }
        (Parts::Items(items), _, false) => {
            vec![format!(
                "{name}={}",
                join(items.iter().map(|i| enc(i)), delimiter)
            )]
        }
        (Parts::Members(members), "deepObject", _) => each_member(
            &members,
            |k| encode(&format!("{}[{k}]", p.name), false),
            &enc,
        ),
        (Parts::Members(members), "form", true) => {
            each_member(&members, |k| encode(k, false), &enc)
        }
        (Parts::Members(members), _, _) => vec![format!(
            "{name}={}",
            join(
                members.iter().flat_map(|(k, v)| [enc(k), enc(&text(v))]),
                delimiter
            )
        )],
    }
}

/// One pair a member (`name_of` its key), a member that is a list one pair an item.
fn each_member(
    members: &[(String, Value)],
    name_of: impl Fn(&str) -> String,
    enc: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in members {
        let name = name_of(k);
        match v {
            Value::Array(items) => {
                out.extend(items.iter().map(|i| format!("{name}={}", enc(&text(i)))))
            }
            v => out.push(format!("{name}={}", enc(&text(v)))),
        }
    }
    out
}

/// A cookie's pairs (`form`): `color=blue`, `colors=blue,black` (a pair an item exploded),
/// `rgb=R,100,G,200`; values percent-encoded as in a query.
fn cookie_pairs(p: &Sent) -> Vec<String> {
    let enc = |s: &str| encode(s, false);
    let Some(value) = parts(&p.value) else {
        return Vec::new();
    };
    match (value, p.explode) {
        (Parts::One(s), _) => vec![format!("{}={}", p.name, enc(&s))],
        (Parts::Items(items), true) => items
            .iter()
            .map(|i| format!("{}={}", p.name, enc(i)))
            .collect(),
        (Parts::Items(items), false) => {
            vec![format!(
                "{}={}",
                p.name,
                join(items.iter().map(|i| enc(i)), ",")
            )]
        }
        (Parts::Members(members), _) => {
            vec![format!(
                "{}={}",
                p.name,
                members_joined(&members, false, &enc, ",")
            )]
        }
    }
}

/// What became of one call in the echo harness.
pub enum Echoed {
    /// The request is the table's.
    Matched,
    /// It differs: where, the table's, what was sent.
    Differs(Vec<Mismatch>),
    /// No request reached the echo server (the CLI refused the arguments: its message).
    NotSent(String),
    /// The harness could not make the call's values (the reason).
    NotMade(String),
}

/// One document's round of calls: its label, the round, each call's label and fate.
pub type RoundEchoed = (String, u32, Vec<(String, Echoed)>);

/// Every call of one round against the echo server: each request recorded and checked.
pub fn round(
    bin: &std::path::Path,
    cli: &apigen::ir::Cli,
    calls: &[Call],
) -> Result<Vec<(String, Echoed)>, String> {
    let echo = super::proxy::start_echo()?;
    let relay = super::proxy::Proxy::start(echo)?;
    let base_url = format!("http://127.0.0.1:{}", relay.port);
    let mut out = Vec::new();
    for call in calls {
        let label = format!("{} ({} {})", call.operation, call.method, call.path);
        if let Some(why) = call.problem.as_ref().or(call.document_fault.as_ref()) {
            out.push((label, Echoed::NotMade(why.clone())));
            continue;
        }
        let ran = super::run_cli(bin, cli, &base_url, call)?;
        let exchanges = relay.take();
        let echoed = match exchanges.first() {
            None => Echoed::NotSent(ran.stderr.trim().to_string()),
            Some(exchange) => match check(call, exchange) {
                m if m.is_empty() => Echoed::Matched,
                m => Echoed::Differs(m),
            },
        };
        out.push((label, echoed));
    }
    Ok(out)
}

/// The echo harness's table (markdown): a row per document and round, then every difference.
pub fn report(runs: &[RoundEchoed]) -> (String, usize) {
    let mut table = String::from(
        "| document | round | calls | as the table writes them | differ | not sent | not made |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut details = String::new();
    let mut failures = 0;
    for (label, round, calls) in runs {
        let count = |f: fn(&Echoed) -> bool| calls.iter().filter(|(_, e)| f(e)).count();
        let matched = count(|e| matches!(e, Echoed::Matched));
        let differ = count(|e| matches!(e, Echoed::Differs(_)));
        let not_sent = count(|e| matches!(e, Echoed::NotSent(_)));
        let not_made = count(|e| matches!(e, Echoed::NotMade(_)));
        failures += differ + not_sent;
        table.push_str(&format!(
            "| {label} | {round} | {} | {matched} | {differ} | {not_sent} | {not_made} |\n",
            calls.len()
        ));
        for (call, echoed) in calls {
            match echoed {
                Echoed::Differs(mismatches) => {
                    for m in mismatches {
                        details.push_str(&format!(
                            "- {label}, round {round}, {call}: {}: the table writes `{}`, the client sent `{}`\n",
                            m.what, m.expected, m.sent
                        ));
                    }
                }
                Echoed::NotSent(why) => details.push_str(&format!(
                    "- {label}, round {round}, {call}: nothing sent: {why}\n"
                )),
                Echoed::NotMade(why) => details.push_str(&format!(
                    "- {label}, round {round}, {call}: not made (no values): {why}\n"
                )),
                Echoed::Matched => {}
            }
        }
    }
    if !details.is_empty() {
        table.push('\n');
        table.push_str(&details);
    }
    (table, failures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sent(location: &str, name: &str, style: &str, explode: bool, value: Value) -> Sent {
        Sent {
            location: location.into(),
            name: name.into(),
            style: style.into(),
            explode,
            allow_reserved: false,
            value,
        }
    }

    /// The rows of OpenAPI 3.1.1's table for `color`, `colors` and `rgb`.
    #[test]
    fn the_specifications_table() {
        let blue = json!("blue");
        let list = json!(["blue", "black", "brown"]);
        let rgb = json!({"R": 100, "G": 200, "B": 150});
        let path = |style: &str, explode: bool| {
            expand_path(
                "/{color}/{colors}/{rgb}",
                &[
                    sent("path", "color", style, explode, blue.clone()),
                    sent("path", "colors", style, explode, list.clone()),
                    sent("path", "rgb", style, explode, rgb.clone()),
                ],
            )
        };
        assert_eq!(
            path("simple", false),
            "/blue/blue,black,brown/R,100,G,200,B,150"
        );
        assert_eq!(
            path("simple", true),
            "/blue/blue,black,brown/R=100,G=200,B=150"
        );
        assert_eq!(
            path("label", false),
            "/.blue/.blue,black,brown/.R,100,G,200,B,150"
        );
        assert_eq!(
            path("label", true),
            "/.blue/.blue.black.brown/.R=100.G=200.B=150"
        );
        assert_eq!(
            path("matrix", false),
            "/;color=blue/;colors=blue,black,brown/;rgb=R,100,G,200,B,150"
        );
        assert_eq!(
            path("matrix", true),
            "/;color=blue/;colors=blue;colors=black;colors=brown/;R=100;G=200;B=150"
        );
        let q = |style: &str, explode: bool, value: &Value| {
            query_pairs(&sent("query", "rgb", style, explode, value.clone())).join("&")
        };
        assert_eq!(q("form", true, &rgb), "R=100&G=200&B=150");
        assert_eq!(q("form", false, &rgb), "rgb=R,100,G,200,B,150");
        assert_eq!(
            q("spaceDelimited", false, &list),
            "rgb=blue%20black%20brown"
        );
        assert_eq!(q("pipeDelimited", false, &rgb), "rgb=R|100|G|200|B|150");
        assert_eq!(
            q("deepObject", true, &rgb),
            "rgb%5BR%5D=100&rgb%5BG%5D=200&rgb%5BB%5D=150"
        );
        assert_eq!(q("form", true, &list), "rgb=blue&rgb=black&rgb=brown");
        let mut reserved = sent("query", "p", "form", true, json!("a/b&c %41"));
        reserved.allow_reserved = true;
        assert_eq!(query_pairs(&reserved), ["p=a/b%26c%20%41"]);
    }
}
