//! The command lines of one round: for every subcommand the generated CLI offers, its flags
//! with values valid by the document (required parameters always, optional ones in later
//! rounds, the body as `--body JSON`, a binary or text body as `--body-file` of a file made
//! here (a few bytes in the first round, a few MB in the others), a multipart form as
//! `--field`s and `--file`s). The CLI's plan (`apigen::cli_plan`) says which flag sets which
//! parameter; the values come from the document's own schemas ([`super::values`]).

use apigen::ir::{self, FlagTarget};
use serde_json::Value;

use super::values::{self, Rng, Values, resolve};

/// One call to make.
#[derive(Debug, Clone)]
pub struct Call {
    /// The subcommand (`list-pets`).
    pub command: String,
    /// The operation's id in the document.
    pub operation: String,
    /// Where the operation is in the document: its path and method as sent.
    pub path: String,
    pub method: String,
    /// The subcommand's flags and values, after the subcommand.
    pub args: Vec<String>,
    /// Why the harness could not make every value the call needs (the call is not made).
    pub problem: Option<String>,
    /// The document itself gives no valid value (a `$ref` to nothing, an empty `$ref`): the
    /// call cannot be made as the document is written.
    pub document_fault: Option<String>,
    /// The body is sent as form data.
    pub form_body: bool,
    /// The body is sent as a multipart form.
    pub multipart_body: bool,
    /// The request body's media type as the document gives it (empty without a body).
    pub media_type: String,
    /// Members the request body's schema marks `readOnly`, anywhere in it.
    pub read_only: Vec<String>,
    /// Each parameter given and its value, as the document describes it (the echo harness
    /// holds the request to the expansion the document's style gives these).
    pub sent: Vec<Sent>,
    /// The JSON body given (not a form, multipart or raw one).
    pub json_body: Option<Value>,
}

/// A parameter given to a call: where and how the document says it goes, and its value.
#[derive(Debug, Clone)]
pub struct Sent {
    /// `path`, `query`, `header` or `cookie`.
    pub location: String,
    pub name: String,
    /// The parameter's `style`, or its location's default.
    pub style: String,
    /// `explode`, or its style's default (`true` for `form`).
    pub explode: bool,
    pub allow_reserved: bool,
    pub value: Value,
}

impl Sent {
    fn of(raw: &Value, value: Value) -> Sent {
        let text = |key: &str| raw.get(key).and_then(Value::as_str).unwrap_or_default();
        let location = text("in").to_string();
        let style = match (text("style"), location.as_str()) {
            ("", "query" | "cookie") => "form".to_string(),
            ("", _) => "simple".to_string(),
            (style, _) => style.to_string(),
        };
        let explode = raw
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == "form");
        Sent {
            location,
            name: text("name").to_string(),
            style,
            explode,
            allow_reserved: raw.get("allowReserved").and_then(Value::as_bool) == Some(true),
            value,
        }
    }
}

/// The calls of round `round` (1-based).
pub fn calls(doc: &Value, api: &ir::Api, cli: &ir::Cli, round: u32) -> Vec<Call> {
    cli.commands
        .iter()
        .map(|cmd| call(doc, api, cmd, round))
        .collect()
}

fn call(doc: &Value, api: &ir::Api, cmd: &ir::CliCommand, round: u32) -> Call {
    let op = &api.operations[cmd.operation];
    let mut call = Call {
        command: cmd.name.clone(),
        operation: op.id.clone(),
        path: op.path.clone(),
        method: op.method.clone(),
        args: Vec::new(),
        problem: None,
        document_fault: None,
        form_body: op
            .body
            .as_ref()
            .is_some_and(|b| matches!(b.kind, ir::BodyKind::Form(_))),
        multipart_body: op.body.as_ref().is_some_and(|b| b.is_multipart_form()),
        media_type: op
            .body
            .as_ref()
            .map(|b| b.content_type.clone())
            .unwrap_or_default(),
        read_only: Vec::new(),
        sent: Vec::new(),
        json_body: None,
    };
    let Some((item, raw)) = operation(doc, &op.path, &op.method) else {
        call.problem = Some(format!(
            "{} {} is not in the document's paths",
            op.method, op.path
        ));
        return call;
    };
    let params = parameters(doc, item, raw);
    // Path parameters spelled apart from the template (openai's `{certificate_id}` described
    // by `cert_id`) fill its placeholders in order, as the generator reads them.
    let placeholders: Vec<&str> = op
        .path
        .split('{')
        .skip(1)
        .filter_map(|p| p.split('}').next())
        .collect();
    let mut unplaced = params
        .iter()
        .filter(|r| {
            r.get("in").and_then(Value::as_str) == Some("path")
                && r.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| !placeholders.contains(&n))
        })
        .copied();
    let mut rng = Rng::new(u64::from(round), &op.id);
    let mut problems = Vec::new();
    problems.extend(homeless_path_params(&params, &placeholders, &op.path));
    for flag in &cmd.flags {
        let FlagTarget::Param(index) = flag.target else {
            continue;
        };
        let p = &op.params[index];
        let include = p.required
            || match round {
                1 => false,
                2 => true,
                _ => rng.next().is_multiple_of(2),
            };
        if !include {
            continue;
        }
        let found = params.iter().copied().find(|r| {
            r.get("name").and_then(Value::as_str) == Some(&p.wire)
                && r.get("in").and_then(Value::as_str) == Some(p.location.name())
        });
        let found = match found {
            None if p.location == ir::Location::Path => unplaced.next(),
            other => other,
        };
        let Some(raw) = found else {
            problems.push(format!(
                "{} parameter `{}` is not in the document",
                p.location.name(),
                p.wire
            ));
            continue;
        };
        let schema = raw.get("schema").cloned().or_else(|| {
            raw.get("content")
                .and_then(Value::as_object)
                .and_then(|c| c.values().next())
                .and_then(|m| m.get("schema"))
                .cloned()
        });
        let schema = schema.unwrap_or(Value::Bool(true));
        let mut values = Values::new(
            doc,
            round,
            Rng::new(u64::from(round), &format!("{}/{}", op.id, p.wire)),
        );
        match values.parameter(&schema) {
            // A list flag (`oneOf: [T, array of T]` is one: discord's `tag`) takes a single
            // value as the list of it, the same text on the wire.
            Ok(value) if matches!(p.ty, ir::TypeRef::Vec(_)) && !value.is_array() => {
                let list = Value::Array(vec![value]);
                call.args.push(format!("--{}={list}", flag.name));
                call.sent.push(Sent::of(raw, list));
            }
            // `--flag=value`: a value may start with `-` (fitbit's `sort=-send_time`).
            Ok(value) => {
                call.args
                    .push(format!("--{}={}", flag.name, flag_text(&value)));
                call.sent.push(Sent::of(raw, value));
            }
            Err(e) if p.required => {
                problems.push(format!("{} parameter `{}`: {e}", p.location.name(), p.wire))
            }
            Err(_) => {}
        }
    }
    if let Some(body) = &op.body
        && (body.required || round >= 2)
    {
        match body_schema(doc, raw, &body.content_type) {
            Some(schema) => {
                read_only_members(doc, &schema, 0, &mut call.read_only);
                let mut values = Values::new(
                    doc,
                    round,
                    Rng::new(u64::from(round), &format!("{}/body", op.id)),
                );
                match values.request(&schema) {
                    Ok(value) => match upload_args(cmd, &op.id, &value, round) {
                        Ok(args) => {
                            let json = matches!(body.kind, ir::BodyKind::Json(_))
                                && body.content_type.contains("json");
                            if json {
                                call.json_body = Some(value);
                            }
                            call.args.extend(args);
                        }
                        Err(e) => problems.push(format!("request body: {e}")),
                    },
                    Err(e) if body.required => problems.push(format!("request body: {e}")),
                    Err(_) => {}
                }
            }
            None if body.required => problems.push(format!(
                "request body: no `{}` schema in the document",
                body.content_type
            )),
            None => {}
        }
    }
    if !problems.is_empty() {
        let text = problems.join("; ");
        // A reference the document cannot resolve, or a schema no value fits, is the
        // document's to mend, not ours.
        if problems
            .iter()
            .any(|p| p.contains(values::UNRESOLVED) || p.contains(values::CONTRADICTS))
        {
            call.document_fault = Some(text);
        } else {
            call.problem = Some(text);
        }
    }
    call
}

/// The flags giving a body made from its schema (`value`) as the subcommand takes it.
fn upload_args(
    cmd: &ir::CliCommand,
    operation: &str,
    value: &Value,
    round: u32,
) -> Result<Vec<String>, String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match &cmd.body {
        Some(ir::CliBody::Raw { text: true, .. }) => {
            let path = upload_file(operation, "body.txt", text(value).into_bytes())?;
            Ok(vec![format!("--body-file={path}")])
        }
        Some(ir::CliBody::Raw { text: false, .. }) => {
            let path = upload_file(operation, "body.bin", bytes(round))?;
            Ok(vec![format!("--body-file={path}")])
        }
        Some(ir::CliBody::Multipart { parts, .. }) => {
            let mut args = Vec::new();
            let members = value.as_object().cloned().unwrap_or_default();
            // No parts known (no object schema): each member of the value made, as a field.
            let guessed: Vec<ir::CliPart> = members
                .iter()
                .map(|(name, member)| ir::CliPart {
                    name: name.clone(),
                    required: false,
                    file: false,
                    json: member.is_object()
                        || member
                            .as_array()
                            .is_some_and(|items| items.iter().any(|i| i.is_object())),
                    media: None,
                })
                .collect();
            let parts = if parts.is_empty() { &guessed } else { parts };
            for part in parts {
                let Some(member) = members.get(&part.name) else {
                    continue;
                };
                if part.file {
                    let items = match member {
                        Value::Array(items) => items.len().max(1),
                        _ => 1,
                    };
                    for i in 0..items {
                        let name = format!("{}-{i}.bin", part.name);
                        let path = upload_file(operation, &name, bytes(round))?;
                        args.push(format!("--file={}={path}", part.name));
                    }
                } else if part.json {
                    args.push(format!("--field={}={member}", part.name));
                } else if let Value::Array(items) = member {
                    for item in items {
                        args.push(format!("--field={}={}", part.name, text(item)));
                    }
                } else if !member.is_null() {
                    args.push(format!("--field={}={}", part.name, text(member)));
                }
            }
            Ok(args)
        }
        Some(ir::CliBody::Json) | None => Ok(vec![format!("--body={value}")]),
    }
}

/// The bytes of an uploaded file: a few in the first round, 3 MB in the others (every byte
/// value, not UTF-8).
fn bytes(round: u32) -> Vec<u8> {
    let len = if round <= 1 { 64 } else { 3 * 1024 * 1024 };
    (0..len).map(|i| (i * 31 % 251) as u8).collect()
}

/// Writes a file for one operation's upload, under the system's temporary directory; its path.
fn upload_file(operation: &str, name: &str, data: Vec<u8>) -> Result<String, String> {
    let dir = std::env::temp_dir()
        .join(format!("apigen-calls-{}", std::process::id()))
        .join(operation.replace(['/', '\\'], "_"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, data).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// A path parameter the template has no place for: swagger-parser's issue 455 declares
/// `serverID` beside `/api/batch/`, openai's `getCertificate` `cert_id` beside
/// `{certificate_id}`. No request can carry it under its name, and a mock that checks
/// requests refuses every one without it (the generator fills the placeholders in order).
fn homeless_path_params(params: &[&Value], placeholders: &[&str], path: &str) -> Option<String> {
    let homeless: Vec<String> = params
        .iter()
        .filter(|r| r.get("in").and_then(Value::as_str) == Some("path"))
        .filter_map(|r| r.get("name").and_then(Value::as_str))
        .filter(|n| !placeholders.contains(n))
        .map(|n| format!("`{n}`"))
        .collect();
    (!homeless.is_empty()).then(|| {
        format!(
            "{}it declares path parameter {} that its path `{path}` has no place for",
            values::CONTRADICTS,
            homeless.join(", "),
        )
    })
}

/// The names of the members marked `readOnly` anywhere in `schema` (through references,
/// unions, items and properties; a few levels deep).
fn read_only_members(doc: &Value, schema: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > 12 {
        return;
    }
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => match resolve(doc, r) {
            Ok(target) => target,
            Err(_) => return,
        },
        None => schema,
    };
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, p) in properties {
            let p = match p.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(doc, r).unwrap_or(p),
                None => p,
            };
            if p.get("readOnly") == Some(&Value::Bool(true)) && !out.contains(name) {
                out.push(name.clone());
            }
            read_only_members(doc, p, depth + 1, out);
        }
    }
    for key in ["allOf", "oneOf", "anyOf", "prefixItems"] {
        for part in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            read_only_members(doc, part, depth + 1, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = schema.get(key).filter(|v| v.is_object()) {
            read_only_members(doc, inner, depth + 1, out);
        }
    }
}

/// A flag's text: strings as they are (the CLI reads a flag as JSON only when it is JSON and
/// fits the type), everything else as JSON.
fn flag_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The path item and the operation for `method` (as sent: `GET`, `QUERY`, or an
/// `additionalOperations` key) at `path`.
/// The path item and the operation of `method` on `path`, in the document's JSON.
pub fn operation<'a>(doc: &'a Value, path: &str, method: &str) -> Option<(&'a Value, &'a Value)> {
    let mut item = doc.get("paths")?.get(path)?;
    if let Some(r) = item.get("$ref").and_then(Value::as_str) {
        item = resolve(doc, r).ok()?;
    }
    let lower = method.to_ascii_lowercase();
    let op = item
        .get(&lower)
        .or_else(|| item.get("additionalOperations").and_then(|a| a.get(method)))?;
    Some((item, op))
}

/// The operation's parameters with the path item's, the operation's winning by name and
/// place, `$ref`s resolved.
fn parameters<'a>(doc: &'a Value, item: &'a Value, op: &'a Value) -> Vec<&'a Value> {
    let resolved = |list: Option<&'a Value>| -> Vec<&'a Value> {
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| match p.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(doc, r).ok(),
                None => Some(p),
            })
            .collect()
    };
    let own = resolved(op.get("parameters"));
    let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
    let mut all: Vec<&Value> = resolved(item.get("parameters"))
        .into_iter()
        .filter(|p| !own.iter().any(|o| key(o) == key(p)))
        .collect();
    all.extend(own);
    all
}

/// The schema of the answer with `status` and `content_type` (the exact status, else its
/// range `4XX`, else `default`; the media type named, else the first JSON one, else the
/// first).
pub fn response_schema(
    doc: &Value,
    path: &str,
    method: &str,
    status: u16,
    content_type: Option<&str>,
) -> Option<Value> {
    let (_, op) = operation(doc, path, method)?;
    let responses = op.get("responses")?;
    let mut response = [
        status.to_string(),
        format!("{}XX", status / 100),
        format!("{}xx", status / 100),
        "default".to_string(),
    ]
    .iter()
    .find_map(|k| responses.get(k))?;
    if let Some(r) = response.get("$ref").and_then(Value::as_str) {
        response = resolve(doc, r).ok()?;
    }
    let content = response.get("content")?.as_object()?;
    let essence = |t: &str| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    let wanted = content_type.map(essence);
    let media = content
        .iter()
        .find(|(k, _)| Some(essence(k)) == wanted)
        .or_else(|| {
            content.iter().find(|(k, _)| {
                let e = essence(k);
                e == "application/json" || e.ends_with("+json")
            })
        })
        .or_else(|| content.iter().next())
        .map(|(_, m)| m)?;
    Some(media.get("schema").cloned().unwrap_or(Value::Bool(true)))
}

/// The schema of the request body's media type `content_type`.
fn body_schema(doc: &Value, op: &Value, content_type: &str) -> Option<Value> {
    let mut body = op.get("requestBody")?;
    if let Some(r) = body.get("$ref").and_then(Value::as_str) {
        body = resolve(doc, r).ok()?;
    }
    let content = body.get("content")?.as_object()?;
    let media = content.get(content_type).or_else(|| {
        content
            .iter()
            .find(|(k, _)| k.split(';').next().map(str::trim) == Some(content_type))
            .map(|(_, v)| v)
    })?;
    Some(media.get("schema").cloned().unwrap_or(Value::Bool(true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harness's first call of the document in the given round.
    fn first_call(text: &str, round: u32) -> Call {
        let options = apigen::Options {
            name: "doc".into(),
            spec_label: "doc.yaml".into(),
            command: "test".into(),
            ..Default::default()
        };
        let (api, cli) = apigen::cli_plan(text, &options).expect("the document plans");
        let doc: Value = serde_yaml::from_str(text).expect("YAML");
        calls(&doc, &api, &cli, round).remove(0)
    }

    const DOC: &str = r#"
openapi: 3.0.3
info: {title: Certificates, version: "1"}
paths:
  PATH:
    get:
      operationId: getCertificate
      parameters:
        - {name: PARAM, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: the certificate}
"#;

    #[test]
    fn a_parameter_s_text_fits_one_variant_of_its_one_of() {
        // api.github.com's `workflow_id`: an integer or a file name. `1` fits both as text
        // (a mock reads it back as either), so the value made is a name.
        let doc = DOC
            .replace("PATH", "/workflows/{id}")
            .replace(
                "{name: PARAM, in: path, required: true, schema: {type: string}}",
                "{name: id, in: path, required: true, schema: {oneOf: [{type: integer}, {type: string}]}}",
            );
        for round in 1..=3 {
            let call = first_call(&doc, round);
            assert_eq!(call.problem, None);
            let arg = &call.args[0];
            let text = arg.trim_start_matches("--id=");
            assert!(text.parse::<f64>().is_err(), "round {round}: {arg}");
        }
    }

    #[test]
    fn a_path_parameter_the_path_has_no_place_for_is_the_documents_fault() {
        // openai's `getCertificate`: as many parameters as placeholders, named apart.
        let apart = DOC
            .replace("PATH", "/certificates/{certificate_id}")
            .replace("PARAM", "cert_id");
        let call = first_call(&apart, 1);
        let fault = call.document_fault.expect("the document's fault");
        assert!(
            fault.contains("`cert_id`") && fault.contains("{certificate_id}"),
            "{fault}"
        );
        // Named as its placeholder: an ordinary call.
        let placed = DOC
            .replace("PATH", "/certificates/{cert_id}")
            .replace("PARAM", "cert_id");
        let call = first_call(&placed, 1);
        assert_eq!((call.document_fault, call.problem), (None, None));
        assert_eq!(call.args.len(), 1, "{:?}", call.args);
    }
}
