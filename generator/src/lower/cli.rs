//! The command-line client's decisions (IR [`Cli`]): which operations become subcommands,
//! their names, their flags (parameters, then the body's top-level properties) and the
//! environment variables credentials are read from. The CLI emitter only prints them.

use crate::ir::{
    Api, BodyKind, Cli, CliBody, CliCommand, CliFlag, CliLeftOut, CliPart, FlagTarget, Operation,
    SchemeKind, Status, TypeKind, TypeRef,
};
use crate::naming::{self, Scope, reserved};

/// Flags every subcommand has (global ones, `--body*`, clap's own), in the snake form names
/// are claimed in (see [`claim`]).
///
/// `version` is not one of them: only the top-level command has clap's `--version`, so a
/// parameter of that name is `--version` in its subcommand.
const RESERVED_FLAGS: &[&str] = &[
    "base_url",
    "env",
    "json",
    "verbose",
    "body",
    "body_file",
    "header",
    "timeout",
    "raw",
    "help",
];

/// The CLI library's own functions and modules, which a subcommand's functions are named apart
/// from (an operation `run` gets `run_2`), and the locals of `run`, which calls them (an
/// operation `json` would be shadowed by the `--json` flag's `let json`).
const LIBRARY_ITEMS: &[&str] = &[
    "json",
    "verbose",
    "output",
    "base_url",
    "key",
    "builder",
    "client",
    "options",
    "runtime",
    "call",
    "command",
    "credentials",
    "m",
    "other",
    "main",
    "cli",
    "run",
    "finish",
    "finish_debug",
    "finish_bytes",
    "form",
    "report",
    "support",
    "types",
];

/// A command-line name unique in `scope`: claimed in snake form, so that the second
/// `pet-id` becomes `pet-id-2` (not `pet-id_2`), then written in kebab form.
fn claim(scope: &mut Scope, raw: &str) -> String {
    scope
        .claim(naming::kebab(raw).replace('-', "_"))
        .replace('_', "-")
}

/// The CLI of `api` for the crate stem `name` (`petstore` → `petstore-cli`).
pub fn lower(api: &Api, name: &str) -> Cli {
    let vars = Vars {
        key: naming::env_var(name, "API_KEY"),
        user: naming::env_var(name, "USERNAME"),
        password: naming::env_var(name, "PASSWORD"),
    };
    let mut names = Scope::reserving(&["help"]);
    let mut functions = Scope::reserving(LIBRARY_ITEMS);
    let mut commands = Vec::new();
    let mut left_out = Vec::new();
    for (index, op) in api.operations.iter().enumerate() {
        match left_out_because(op) {
            Some(reason) => left_out.push(CliLeftOut {
                operation: index,
                reason,
            }),
            None => {
                let binary = binary_answer(op);
                let command = claim(&mut names, &op.rust);
                let flags = flags(op, api, binary.is_some());
                let example = example_line(&format!("{name}-cli {command}"), op, &flags);
                let body = op.body.as_ref().map(|b| body(b, api, &example));
                let usage = usage_line(&format!("{name}-cli {command}"), op, &flags, &body);
                commands.push(CliCommand {
                    operation: index,
                    body,
                    usage,
                    multipart: op.body.as_ref().and_then(|b| {
                        let ty = b.multipart_alternative()?;
                        op.multipart_twin.as_ref()?;
                        Some(multipart(Some(ty), &b.part_media, api, &example))
                    }),
                    name: command,
                    aliases: Vec::new(),
                    function: functions.claim(op.rust.clone()),
                    flags,
                    missing_credentials: missing_credentials(op, api, &vars),
                    binary,
                })
            }
        }
    }
    name_aliases(api, &mut commands);
    Cli {
        bin: format!("{name}-cli"),
        credentials_help: credentials_help(api, &vars),
        key_var: vars.key,
        user_var: vars.user,
        password_var: vars.password,
        checks_credentials: commands.iter().any(|c| c.missing_credentials.is_some()),
        prints_values: commands.iter().any(|c| c.binary.is_none()),
        commands,
        left_out,
    }
}

/// The environment variables credentials are read from: an API key (bearer, API key
/// schemes), or basic authentication's user name and password.
struct Vars {
    key: String,
    user: String,
    password: String,
}

impl Vars {
    /// What to set for the schemes of one security alternative (`X_API_KEY`, `X_USERNAME and
    /// X_PASSWORD`).
    fn of(&self, schemes: &[String], api: &Api) -> String {
        let mut parts: Vec<String> = Vec::new();
        for name in schemes {
            let part = match api.security_schemes.iter().find(|s| &s.name == name) {
                Some(s) if s.kind == SchemeKind::Basic => {
                    format!("{} and {}", self.user, self.password)
                }
                _ => self.key.clone(),
            };
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        parts.join(" and ")
    }
}

/// The help's sentence on credentials: the variables of the kinds of scheme the document has.
fn credentials_help(api: &Api, vars: &Vars) -> Option<String> {
    let basic = api
        .security_schemes
        .iter()
        .any(|s| s.kind == SchemeKind::Basic);
    let key = api
        .security_schemes
        .iter()
        .any(|s| s.kind != SchemeKind::Basic);
    match (key, basic) {
        (true, false) => Some(format!("The API key is read from {}.", vars.key)),
        (false, true) => Some(format!(
            "The user name and password are read from {} and {}.",
            vars.user, vars.password
        )),
        (true, true) => Some(format!(
            "The API key is read from {}, a user name and password from {} and {}.",
            vars.key, vars.user, vars.password
        )),
        (false, false) => None,
    }
}

/// When every alternative of the operation's security needs a credential: the message
/// naming what to set, from the schemes the operation really uses.
fn missing_credentials(op: &Operation, api: &Api, vars: &Vars) -> Option<String> {
    if op.security.is_empty() || op.security.iter().any(Vec::is_empty) {
        return None;
    }
    let mut ways: Vec<String> = Vec::new();
    for alternative in &op.security {
        let way = vars.of(alternative, api);
        if !ways.contains(&way) {
            ways.push(way);
        }
    }
    Some(match ways.as_slice() {
        [one] if *one == vars.key => format!("{one} is not set; set it to your API key"),
        [one] if one.contains(" and ") => {
            format!("{one} are not set; set them to your credentials")
        }
        _ => format!("no credentials are set; set {}", ways.join(", or ")),
    })
}

/// The media type of a success answer that is bytes, when every documented success body is.
fn binary_answer(op: &Operation) -> Option<String> {
    if op.success_enum {
        return None;
    }
    let bodies: Vec<_> = op
        .responses
        .iter()
        .filter(|r| r.is_success() || (op.default_succeeds && r.status == Status::Default))
        .filter_map(|r| r.body.as_ref())
        .collect();
    let all_bytes = !bodies.is_empty() && bodies.iter().all(|b| matches!(b.kind, BodyKind::Bytes));
    all_bytes.then(|| bodies[0].content_type.clone())
}

/// Why the CLI does not offer `op` as a subcommand, if it does not: a streamed answer, a
/// whole-query-string parameter or a streamed request body are the client library's (the
/// CLI's long help lists them with this reason). Every other body is offered: JSON and form
/// data as JSON, bytes and text from a file, multipart forms from fields and files.
fn left_out_because(op: &Operation) -> Option<String> {
    if op.switches_protocols() {
        return Some(
            "its answer switches protocols (101, a WebSocket): a command line cannot hold the connection"
                .into(),
        );
    }
    if op.streamed {
        return Some("its answer is a stream (use the client library)".into());
    }
    if op.query_string.is_some() {
        return Some(
            "it takes the whole query string as one value (use the client library)".into(),
        );
    }
    match op.body.as_ref().map(|b| &b.kind) {
        Some(BodyKind::Stream(_)) => {
            Some("its request body is a stream (use the client library)".into())
        }
        _ => None,
    }
}

/// How the subcommand takes `b`; `example` is the command line so far
/// (`petstore-cli upload-image`), for the help's example.
fn body(b: &crate::ir::Body, api: &Api, example: &str) -> CliBody {
    match &b.kind {
        BodyKind::Json(_) | BodyKind::Form(_) => CliBody::Json,
        BodyKind::Bytes if b.is_multipart_form() => {
            multipart(b.checked_as.as_ref(), &b.part_media, api, example)
        }
        kind => {
            let text = matches!(kind, BodyKind::Text);
            CliBody::Raw {
                example: format!(
                    "{example} --body-file ./{}",
                    example_file("body", &b.content_type)
                ),
                media: b.content_type.clone(),
                text,
                choices: if b.media_chosen() {
                    b.sendable_media().map(str::to_owned).collect()
                } else {
                    Vec::new()
                },
            }
        }
    }
}

/// A multipart body of the schema `checked_as` (parts by its properties, each part's media
/// type from the document's `encoding`), with the help's example.
fn multipart(
    checked_as: Option<&TypeRef>,
    part_media: &[(String, String)],
    api: &Api,
    example: &str,
) -> CliBody {
    let mut parts = multipart_parts(checked_as, api);
    for part in &mut parts {
        part.media = part_media
            .iter()
            .find(|(name, _)| *name == part.name)
            .map(|(_, media)| media.clone());
    }
    let mut line = example.to_owned();
    for p in parts.iter().filter(|p| p.required) {
        line.push_str(&match (p.file, p.json) {
            (true, _) => format!(
                " --file {}=./{}",
                p.name,
                example_file(&p.name, p.media.as_deref().unwrap_or_default())
            ),
            (false, true) => format!(" --field '{}={{…}}'", p.name),
            (false, false) => format!(" --field {}=…", p.name),
        });
    }
    if parts.is_empty() {
        line.push_str(" --field name=value --file upload=./upload.bin");
    }
    CliBody::Multipart {
        parts,
        example: line,
    }
}

/// The parts of a multipart body's schema: its type's top-level properties; for a union of
/// objects (redocly's `MenuItem`, a `oneOf` of beverage and dessert), every variant's, none
/// required (which are depends on the variant). None known (no object schema): any part goes.
fn multipart_parts(checked_as: Option<&TypeRef>, api: &Api) -> Vec<CliPart> {
    let Some(TypeRef::Named(name)) = checked_as else {
        return Vec::new();
    };
    let kind = |name: &str| api.types.iter().find(|t| t.name == name).map(|t| &t.kind);
    match kind(name) {
        Some(TypeKind::Struct(s)) => struct_parts(s, api, true),
        Some(TypeKind::OneOf(one_of)) => {
            let mut parts: Vec<CliPart> = Vec::new();
            for variant in &one_of.variants {
                let TypeRef::Named(v) = &variant.ty else {
                    continue;
                };
                if let Some(TypeKind::Struct(s)) = kind(v) {
                    for part in struct_parts(s, api, false) {
                        if !parts.iter().any(|p| p.name == part.name) {
                            parts.push(part);
                        }
                    }
                }
            }
            parts
        }
        _ => Vec::new(),
    }
}

/// A struct's properties as parts (`required` as the schema says, when `required_as_written`).
fn struct_parts(s: &crate::ir::Struct, api: &Api, required_as_written: bool) -> Vec<CliPart> {
    s.fields
        .iter()
        .filter(|f| !f.read_only)
        .map(|f| {
            let binary = |c: &crate::ir::Constraints| c.format.as_deref() == Some("binary");
            let file = matches!(f.ty, TypeRef::Bytes)
                || binary(&f.constraints)
                || f.constraints.each.as_deref().is_some_and(binary);
            CliPart {
                name: f.wire.clone(),
                required: required_as_written && f.required,
                json: !file && json_part(&f.ty, api),
                file,
                media: None,
            }
        })
        .collect()
}

/// Whether a part of type `ty` is sent as JSON: an object, a map, any value, or an array of
/// those (an array of scalars is one text part per item).
fn json_part(ty: &TypeRef, api: &Api) -> bool {
    match ty {
        TypeRef::Map(_) | TypeRef::Json | TypeRef::Tuple(_) => true,
        TypeRef::Vec(inner) | TypeRef::Nullable(inner) => json_part(inner, api),
        TypeRef::Named(name) => {
            api.types
                .iter()
                .find(|t| &t.name == name)
                .is_some_and(|t| match &t.kind {
                    TypeKind::Struct(_) => true,
                    // A union of strings, numbers or booleans is written as its text, as
                    // the client's form writes it (openai's `model`: a string or a known
                    // name); one with an object or array variant is JSON.
                    TypeKind::OneOf(union) => !union.scalar,
                    TypeKind::Enum(_) => false,
                    TypeKind::Alias(inner, _) => json_part(inner, api),
                })
        }
        _ => false,
    }
}

/// The file name an example uses for a body of `media` (`image/png` → `cover.png`).
fn example_file(stem: &str, media: &str) -> String {
    let essence = media.split(';').next().unwrap_or("").trim();
    let extension = match essence {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "application/pdf" => "pdf",
        "application/json" => "json",
        "text/csv" => "csv",
        m if m.starts_with("text/") => "txt",
        "audio/mpeg" => "mp3",
        "audio/wav" => "wav",
        "application/zip" => "zip",
        _ => "bin",
    };
    format!("{stem}.{extension}")
}

/// The flags of `op`'s subcommand; `binary`: its answer is bytes, so it has `--output`.
fn flags(op: &Operation, api: &Api, binary: bool) -> Vec<CliFlag> {
    let mut scope = Scope::reserving(RESERVED_FLAGS);
    if binary {
        scope.claim("output".into());
    }
    // A multipart body's flags (the body's own, or its alternative beside JSON), named apart
    // from the parameters' and the JSON properties' (`--file-2` for a parameter `file`).
    if op.body.as_ref().is_some_and(|b| {
        b.is_multipart_form() || b.multipart_alternative().is_some() && op.multipart_twin.is_some()
    }) {
        scope.claim("field".into());
        scope.claim("file".into());
    }
    let mut locals = Scope::reserving(&reserved::cli_parameter_locals());
    let mut out: Vec<CliFlag> = op
        .params
        .iter()
        .enumerate()
        .map(|(index, p)| CliFlag {
            name: claim(&mut scope, &p.wire),
            local: p.required.then(|| locals.claim(p.rust.clone())),
            help: p
                .doc
                .first()
                .map(|d| crate::docs::plain(d))
                .unwrap_or_else(|| format!("{} parameter `{}`", p.location.name(), p.wire)),
            value_name: value_name(&p.ty),
            target: FlagTarget::Param(index),
        })
        .collect();
    let body_type = op.body.as_ref().and_then(|b| match &b.kind {
        BodyKind::Json(TypeRef::Named(n)) | BodyKind::Form(TypeRef::Named(n)) => {
            api.types.iter().find(|t| &t.name == n)
        }
        _ => None,
    });
    if let Some(TypeKind::Struct(s)) = body_type.map(|t| &t.kind) {
        for f in s.fields.iter().filter(|f| !f.read_only) {
            out.push(CliFlag {
                name: claim(&mut scope, &f.wire),
                local: None,
                help: format!(
                    "Body property `{}`{}",
                    f.wire,
                    f.doc
                        .first()
                        .map(|d| format!(": {}", crate::docs::plain(d)))
                        .unwrap_or_default()
                ),
                value_name: value_name(&f.ty),
                target: FlagTarget::Property {
                    wire: f.wire.clone(),
                    ty: f.ty.clone(),
                },
            });
        }
    }
    out
}

/// A command line that runs `op` as the README shows it: each required flag with the value
/// [`Operation::usage`] holds for it (the document's example where it gives one), then the
/// body: `--body` with the usage's JSON, or the file or form example the help shows.
fn usage_line(command: &str, op: &Operation, flags: &[CliFlag], body: &Option<CliBody>) -> String {
    let required: Vec<usize> = (0..op.params.len())
        .filter(|&i| op.params[i].required)
        .collect();
    let mut line = command.to_owned();
    for flag in flags {
        let FlagTarget::Param(index) = flag.target else {
            continue;
        };
        let Some(position) = required.iter().position(|&i| i == index) else {
            continue;
        };
        let value = match op.usage.params.get(position) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => continue,
        };
        line.push_str(&format!(" --{} {}", flag.name, shell_word(&value)));
    }
    match body {
        Some(CliBody::Json) => {
            if let Some(value) = &op.usage.body {
                line.push_str(&format!(" --body {}", shell_word(&value.to_string())));
            }
        }
        Some(CliBody::Raw { example, .. } | CliBody::Multipart { example, .. }) => {
            return example.clone();
        }
        None => {}
    }
    line
}

/// A word the shell passes on as it is: quoted unless plain.
fn shell_word(value: &str) -> String {
    if !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,".contains(c))
    {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// The start of a body's help example: the command and its required parameters, each with
/// a value of its type (its default, `1`, `true`, or for text the parameter's own name), so
/// the example runs as written once the body's file is there.
fn example_line(command: &str, op: &Operation, flags: &[CliFlag]) -> String {
    let mut line = command.to_owned();
    for flag in flags {
        let FlagTarget::Param(index) = flag.target else {
            continue;
        };
        let p = &op.params[index];
        if !p.required {
            continue;
        }
        let value = match (&p.default, flag.value_name) {
            (Some(serde_json::Value::String(s)), _) => s.clone(),
            (Some(other), _) => other.to_string(),
            (None, "INTEGER" | "NUMBER") => "1".to_owned(),
            (None, "BOOL") => "true".to_owned(),
            (None, "TEXT") => p.wire.clone(),
            (None, other) => other.to_owned(),
        };
        line.push_str(&format!(" --{} {}", flag.name, shell_word(&value)));
    }
    line
}

fn value_name(ty: &TypeRef) -> &'static str {
    match ty {
        TypeRef::String => "TEXT",
        TypeRef::Bool => "BOOL",
        t if t.is_sized_integer() || *t == TypeRef::BigInt => "INTEGER",
        TypeRef::F32 | TypeRef::F64 | TypeRef::Decimal => "NUMBER",
        TypeRef::Vec(_) | TypeRef::Tuple(_) => "JSON-ARRAY",
        _ => "VALUE",
    }
}

/// See [`CliCommand::aliases`]: the document's id, as written and in kebab case, for the
/// commands not named after it; none that another command or alias has.
fn name_aliases(api: &Api, commands: &mut [CliCommand]) {
    let mut taken: std::collections::BTreeSet<String> =
        commands.iter().map(|c| c.name.clone()).collect();
    for command in commands.iter_mut() {
        let op = &api.operations[command.operation];
        let id = &op.id;
        if op.rust == naming::snake(id)
            || naming::framework_plain_name(id, &op.method, &op.path).is_none()
        {
            continue;
        }
        for alias in [id.clone(), naming::kebab(id)] {
            if !alias.is_empty() && !alias.starts_with('-') && taken.insert(alias.clone()) {
                command.aliases.push(alias);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation named like a local of the CLI's `run` (`json`, the `--json` flag's value)
    /// gets a function of another name: `run` calls it beside that local.
    #[test]
    fn an_operation_named_like_a_local_of_run_is_named_apart() {
        let (_, cli) = cli(r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /json:
    get:
      operationId: json
      responses: {"200": {description: ok}}
  /output:
    get:
      operationId: output
      responses: {"200": {description: ok}}
"#);
        let functions: Vec<&str> = cli.commands.iter().map(|c| c.function.as_str()).collect();
        assert_eq!(functions, ["json_2", "output_2"]);
        let names: Vec<&str> = cli.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["json", "output"]);
    }

    /// FastAPI's `{function}_{path}_{method}` ids name the client's method and the command by
    /// the function alone where that is unique; the id stays an alias of the command.
    #[test]
    fn framework_ids_are_named_by_their_plain_name_where_unique() {
        let (api, cli) = cli(r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /items/:
    post:
      operationId: create_item_items__post
      responses: {"200": {description: ok}}
    get:
      operationId: list_items_items__get
      responses: {"200": {description: ok}}
  /items/{item_id}:
    get:
      operationId: read_item_items__item_id__get
      parameters: [{name: item_id, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok}}
  /other/:
    get:
      operationId: list_items_other__get
      responses: {"200": {description: ok}}
"#);
        let rust: Vec<&str> = api.operations.iter().map(|o| o.rust.as_str()).collect();
        // Two functions named `list_items`: both keep their ids.
        assert_eq!(
            rust,
            [
                "list_items_items_get",
                "create_item",
                "read_item",
                "list_items_other_get"
            ]
        );
        let create = cli
            .commands
            .iter()
            .find(|c| c.name == "create-item")
            .unwrap();
        assert_eq!(
            create.aliases,
            ["create_item_items__post", "create-item-items-post"]
        );
        let list = cli.commands.iter().find(|c| c.operation == 0).unwrap();
        assert!(list.aliases.is_empty(), "{:?}", list.aliases);
    }

    fn cli(yaml: &str) -> (Api, Cli) {
        let doc = crate::load::parse(yaml)
            .unwrap_or_else(|e| panic!("{e}"))
            .doc;
        let mut sink = crate::diag::Sink::default();
        let api = crate::lower::lower(&doc, &mut sink);
        let cli = lower(&api, "pet-store");
        (api, cli)
    }

    /// Names avoid the global flags and each other; streamed and whole-query-string
    /// operations are left out; credentials are checked only where every alternative needs
    /// one; the variables follow the crate stem.
    #[test]
    fn commands_flags_and_credentials() {
        let (api, cli) = cli(r#"
openapi: 3.1.0
info: {title: T, version: "1"}
components:
  securitySchemes:
    key: {type: http, scheme: bearer}
paths:
  /things/{thingId}:
    get:
      operationId: getThing
      security: [{key: []}]
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: integer}}
        - {name: body, in: query, schema: {type: string}}
        - {name: json, in: header, schema: {type: boolean}}
      responses: {"200": {description: ok}}
  /open:
    get:
      operationId: help
      security: [{}, {key: []}]
      responses: {"200": {description: ok}}
  /events:
    get:
      operationId: events
      responses:
        "200":
          description: ok
          content:
            text/event-stream:
              itemSchema: {type: string}
"#);
        assert_eq!(cli.bin, "pet-store-cli");
        assert_eq!(cli.key_var, "PET_STORE_API_KEY");
        assert_eq!(cli.user_var, "PET_STORE_USERNAME");
        let names: Vec<&str> = cli.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["get-thing", "help-2"],
            "the streamed one is left out"
        );
        let get = &cli.commands[0];
        assert_eq!(api.operations[get.operation].id, "getThing");
        let flags: Vec<(&str, &str)> = get
            .flags
            .iter()
            .map(|f| (f.name.as_str(), f.value_name))
            .collect();
        assert_eq!(
            flags,
            [
                ("thing-id", "INTEGER"),
                ("body-2", "TEXT"),
                ("json-2", "BOOL")
            ]
        );
        assert_eq!(
            get.missing_credentials.as_deref(),
            Some("PET_STORE_API_KEY is not set; set it to your API key")
        );
        assert!(
            cli.commands[1].missing_credentials.is_none(),
            "anonymous access is an alternative"
        );
        assert!(cli.checks_credentials);
        let left: Vec<(&str, &str)> = cli
            .left_out
            .iter()
            .map(|l| (api.operations[l.operation].id.as_str(), l.reason.as_str()))
            .collect();
        assert_eq!(
            left,
            [("events", "its answer is a stream (use the client library)")]
        );
    }

    /// The doc comment escapes brackets for rustdoc (`filter\[sender\]`); the help a
    /// terminal shows does not.
    #[test]
    fn help_shows_brackets_as_written() {
        let (api, cli) = cli(r#"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /mail:
    post:
      operationId: send
      parameters:
        - {name: "filter[sender]", in: query, description: "Required if filter[receiver] is not set.", schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                to: {type: string, description: "One of [a] or [b]."}
      responses: {"204": {description: ok}}
"#);
        let op = &api.operations[0];
        assert_eq!(
            op.params[0].doc,
            [r"Required if filter\[receiver\] is not set."]
        );
        let help: Vec<&str> = cli.commands[0]
            .flags
            .iter()
            .map(|f| f.help.as_str())
            .collect();
        assert_eq!(
            help,
            [
                "Required if filter[receiver] is not set.",
                "Body property `to`: One of [a] or [b]."
            ]
        );
    }

    /// A multipart part is JSON where its value can be an object or an array; a union of
    /// scalars (openai's `model`: any string or a known name) is its text.
    #[test]
    fn a_part_is_json_only_where_its_value_can_be_an_object_or_array() {
        let (_, cli) = cli(r#"
openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /transcriptions:
    post:
      operationId: transcribe
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, model]
              properties:
                file: {type: string, format: binary}
                model:
                  anyOf:
                    - {type: string}
                    - {type: string, enum: [whisper-1, gpt-transcribe]}
                chunking:
                  anyOf:
                    - {type: string, enum: [auto]}
                    - {type: object, properties: {size: {type: integer}}}
                tags: {type: array, items: {type: string}}
      responses: {"204": {description: ok}}
"#);
        let Some(CliBody::Multipart { parts, .. }) = &cli.commands[0].body else {
            panic!("a multipart body: {:?}", cli.commands[0].body)
        };
        let json: Vec<(&str, bool)> = parts.iter().map(|p| (p.name.as_str(), p.json)).collect();
        assert_eq!(
            json,
            [
                ("file", false),
                ("model", false),
                ("chunking", true),
                ("tags", false)
            ]
        );
    }

    /// A body's help example runs as written: the required parameters with a value of their
    /// type, a file named after the media type, `--content-type` choices from the document.
    #[test]
    fn a_body_s_example_gives_the_required_parameters() {
        let (_, cli) = cli(r#"
openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /shelves/{shelf}/photos:
    put:
      operationId: putPhoto
      parameters:
        - {name: shelf, in: path, required: true, schema: {type: integer}}
        - {name: caption, in: query, required: true, schema: {type: string, default: "my shelf"}}
        - {name: note, in: query, schema: {type: string}}
      requestBody:
        required: true
        content:
          image/png: {schema: {type: string, format: binary}}
          image/jpeg: {schema: {type: string, format: binary}}
      responses: {"204": {description: ok}}
"#);
        let Some(CliBody::Raw {
            example, choices, ..
        }) = &cli.commands[0].body
        else {
            panic!("a raw body: {:?}", cli.commands[0].body)
        };
        assert_eq!(
            example,
            "pet-store-cli put-photo --shelf 1 --caption 'my shelf' --body-file ./body.png"
        );
        assert_eq!(choices, &["image/png", "image/jpeg"]);
    }
}
