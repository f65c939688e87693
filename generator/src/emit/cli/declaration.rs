//! `commands.json`, a CLI's subcommands as data: what the runtime builds the command line from
//! (`support::commands::commands`) and what `run` reads of the chosen one before it runs it
//! (`support::commands::chosen`).

use crate::ir::{Api, Cli, CliBody, CliCommand, CliFlag, FlagTarget};

/// `commands.json`: each subcommand's declaration, which the runtime builds its clap `Command`
/// from (`support::commands::commands`): name, aliases, help, the parameters' flags, `--output`
/// for an answer that is bytes, and the body's flags. Data, not a builder chain per command:
/// the help a document writes is most of it.
pub fn commands_json(api: &Api, cli: &Cli) -> String {
    let list: Vec<serde_json::Value> = cli.commands.iter().map(|c| declaration(c, api)).collect();
    let mut text = serde_json::to_string_pretty(&list).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}

/// One subcommand's entry of [`commands_json`].
fn declaration(cmd: &CliCommand, api: &Api) -> serde_json::Value {
    use serde_json::{Map, Value, json};
    let op = &api.operations[cmd.operation];
    let about = op
        .summary
        .clone()
        .or_else(|| op.doc.first().map(|d| crate::docs::plain(d)))
        .unwrap_or_else(|| format!("`{} {}`", op.method, op.path));
    let long = crate::docs::plain(&op.doc.join("\n"));
    let long = format!(
        "{long}{}`{} {}` (operation `{}`).",
        if long.is_empty() { "" } else { "\n\n" },
        op.method,
        op.path,
        op.id
    );
    let flag = |f: &CliFlag| {
        let mut entry = Map::new();
        entry.insert("flag".into(), json!(f.name));
        if let FlagTarget::Property { wire, .. } = &f.target {
            entry.insert("property".into(), json!(wire));
        }
        entry.insert("value".into(), json!(f.value_name));
        if let FlagTarget::Param(p) = f.target
            && op.params[p].required
        {
            entry.insert("required".into(), json!(true));
        }
        entry.insert("help".into(), json!(f.help));
        Value::Object(entry)
    };
    let (params, properties): (Vec<&CliFlag>, Vec<&CliFlag>) = cmd
        .flags
        .iter()
        .partition(|f| matches!(f.target, FlagTarget::Param(_)));
    let mut entry = Map::new();
    entry.insert("name".into(), json!(cmd.name));
    // The function `run` calls, by its name in the feature's `support::functions!` table:
    // the command's name in snake case unless the library's own items took that.
    if cmd.function != cmd.name.replace('-', "_") {
        entry.insert("function".into(), json!(cmd.function));
    }
    entry.insert("operation".into(), json!(op.id));
    if let Some(d) = &op.deprecated {
        entry.insert("deprecated".into(), json!(d.note));
    }
    if let Some(message) = &cmd.missing_credentials {
        entry.insert("needs_credentials".into(), json!(message));
    }
    if let Some(features) = api
        .features
        .of_operation(cmd.operation)
        .filter(|f| !f.is_empty())
    {
        entry.insert("features".into(), json!(features));
    }
    if !cmd.aliases.is_empty() {
        entry.insert("aliases".into(), json!(cmd.aliases));
    }
    entry.insert("about".into(), json!(about));
    entry.insert("long_about".into(), json!(long));
    if !params.is_empty() {
        let args: Vec<Value> = params.into_iter().map(flag).collect();
        entry.insert("args".into(), Value::Array(args));
    }
    if cmd.binary.is_some() {
        entry.insert("output".into(), json!(true));
    }
    let body = match &cmd.body {
        Some(CliBody::Json) => {
            let mut json_body = Map::new();
            let properties: Vec<Value> = properties.into_iter().map(flag).collect();
            json_body.insert("properties".into(), Value::Array(properties));
            // Also offered as multipart: `--field`/`--file` beside the JSON flags.
            if let Some(CliBody::Multipart { example, .. }) = &cmd.multipart {
                json_body.insert("multipart_example".into(), json!(example));
            }
            Some(json!({ "json": json_body }))
        }
        Some(CliBody::Raw {
            media,
            text,
            example,
            choices,
        }) => Some(json!({ "raw": {
            "media": media,
            "text": text,
            "example": example,
            "choices": choices,
        }})),
        Some(CliBody::Multipart { example, .. }) => {
            Some(json!({ "multipart": { "example": example } }))
        }
        None => None,
    };
    if let Some(body) = body {
        entry.insert("body".into(), body);
    }
    Value::Object(entry)
}
