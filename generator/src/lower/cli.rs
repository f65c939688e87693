//! The command-line client's decisions (IR [`Cli`]): which operations become subcommands,
//! their names, their flags (parameters, then the body's top-level properties) and the
//! environment variables credentials are read from. The CLI emitter only prints them.

use crate::ir::{
    Api, BodyKind, Cli, CliCommand, CliFlag, CliLeftOut, FlagTarget, Operation, TypeKind, TypeRef,
};
use crate::naming::{self, Scope};

/// Flags every subcommand has (global ones, `--body*`, clap's own), in the snake form names
/// are claimed in (see [`claim`]).
const RESERVED_FLAGS: &[&str] = &[
    "base_url",
    "env",
    "json",
    "verbose",
    "body",
    "body_file",
    "help",
    "version",
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
    let mut names = Scope::reserving(&["help"]);
    let mut commands = Vec::new();
    let mut left_out = Vec::new();
    for (index, op) in api.operations.iter().enumerate() {
        match left_out_because(op) {
            Some(reason) => left_out.push(CliLeftOut {
                operation: index,
                reason,
            }),
            None => commands.push(CliCommand {
                operation: index,
                name: claim(&mut names, &op.rust),
                flags: flags(op, api),
                needs_key: needs_key(op),
            }),
        }
    }
    Cli {
        bin: format!("{name}-cli"),
        key_var: naming::env_var(name, "API_KEY"),
        user_var: naming::env_var(name, "USERNAME"),
        password_var: naming::env_var(name, "PASSWORD"),
        checks_credentials: commands.iter().any(|c| c.needs_key),
        commands,
        left_out,
    }
}

/// Why the CLI does not offer `op` as a subcommand, if it does not: a streamed answer, a
/// whole-query-string parameter or a body that is neither JSON nor form data are the client
/// library's (the CLI's long help lists them with this reason).
fn left_out_because(op: &Operation) -> Option<String> {
    if op.streamed {
        return Some("its answer is a stream (use the client library)".into());
    }
    if op.query_string.is_some() {
        return Some(
            "it takes the whole query string as one value (use the client library)".into(),
        );
    }
    match op.body.as_ref().map(|b| (&b.kind, &b.content_type)) {
        Some((BodyKind::Json(_) | BodyKind::Form(_), _)) | None => None,
        Some((_, media)) => Some(format!(
            "its request body is `{media}`, not JSON or form data (use the client library)"
        )),
    }
}

/// Every alternative of the operation's security needs a credential.
fn needs_key(op: &Operation) -> bool {
    !op.security.is_empty() && !op.security.iter().any(Vec::is_empty)
}

fn flags(op: &Operation, api: &Api) -> Vec<CliFlag> {
    let mut scope = Scope::reserving(RESERVED_FLAGS);
    let mut out: Vec<CliFlag> = op
        .params
        .iter()
        .enumerate()
        .map(|(index, p)| CliFlag {
            name: claim(&mut scope, &p.wire),
            help: p
                .doc
                .first()
                .cloned()
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
                help: format!(
                    "Body property `{}`{}",
                    f.wire,
                    f.doc.first().map(|d| format!(": {d}")).unwrap_or_default()
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

/// The placeholder a flag's help shows for its value.
fn value_name(ty: &TypeRef) -> &'static str {
    match ty {
        TypeRef::String => "TEXT",
        TypeRef::Bool => "BOOL",
        TypeRef::I32 | TypeRef::I64 | TypeRef::U8 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64 => {
            "INTEGER"
        }
        TypeRef::F32 | TypeRef::F64 => "NUMBER",
        TypeRef::Vec(_) | TypeRef::Tuple(_) => "JSON-ARRAY",
        _ => "VALUE",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(get.needs_key);
        assert!(
            !cli.commands[1].needs_key,
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
}
