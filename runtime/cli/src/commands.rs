//! A generated CLI's subcommands built from their declaration: `commands.json`, which the
//! generator writes beside the CLI's `lib.rs` (name, help, flags and body of each command),
//! read when the command line is built.
//!
//! The declaration is data rather than a builder chain per command: a document of 767
//! operations printed 26,574 lines of `Arg::new(…).long(…)…` that every build of the CLI
//! compiled, and a diff of a regenerated CLI showed each flag's help as code.

use clap::{Arg, Command};
use serde_json::Value;

use super::{BODY, body_args, output_arg, upload};

/// The subcommands `declaration` (the text of `commands.json`) lists, in its order, but for
/// those whose cargo features (`"features"`, any of which compiles the command) include none of
/// `enabled`; a command without features is always offered.
///
/// # Panics
///
/// When `declaration` is not the generator's: a generated crate's own data that does not read
/// is a bug of the generator or a hand edit, and no command line could be built from it.
pub fn commands(declaration: &str, enabled: &[&str]) -> Vec<Command> {
    let declared: Value = serde_json::from_str(declaration)
        .unwrap_or_else(|e| panic!("commands.json is not the generator's: {e}"));
    let Value::Array(list) = declared else {
        panic!("commands.json is not the generator's: not an array of commands");
    };
    list.iter()
        .filter(|spec| {
            let features = strings(spec, "features");
            features.is_empty() || features.iter().any(|f| enabled.contains(&f.as_str()))
        })
        .map(command)
        .collect()
}

/// One subcommand: its names and help, the parameters' flags, then `--output` for an answer
/// that is bytes, then the body's flags.
fn command(spec: &Value) -> Command {
    let mut cmd = Command::new(text(spec, "name"));
    for alias in strings(spec, "aliases") {
        cmd = cmd.alias(alias);
    }
    cmd = cmd
        .about(text(spec, "about"))
        .long_about(text(spec, "long_about"));
    for flag in items(spec, "args") {
        let name = text(flag, "flag");
        cmd = cmd.arg(
            Arg::new(name.clone())
                .long(name)
                .value_name(text(flag, "value"))
                .required(yes(flag, "required"))
                .help(text(flag, "help")),
        );
    }
    if yes(spec, "output") {
        cmd = output_arg(cmd);
    }
    let Some(body) = spec.get("body") else {
        return cmd;
    };
    if let Some(json) = body.get("json") {
        cmd = body_args(cmd);
        // A property flag's id names the property it sets (`category-id=categoryId`), which
        // `body` reads it into.
        for flag in items(json, "properties") {
            let name = text(flag, "flag");
            cmd = cmd.arg(
                Arg::new(format!("{name}={}", text(flag, "property")))
                    .long(name)
                    .value_name(text(flag, "value"))
                    .help_heading(BODY)
                    .help(text(flag, "help")),
            );
        }
        // Also offered as a form: `--field` and `--file` beside the JSON flags.
        if let Some(example) = json.get("multipart_example").and_then(Value::as_str) {
            cmd = upload::multipart_args(cmd, example);
        }
    } else if let Some(raw) = body.get("raw") {
        cmd = upload::raw_body_args(
            cmd,
            &text(raw, "media"),
            yes(raw, "text"),
            &text(raw, "example"),
        );
        let choices = strings(raw, "choices");
        if !choices.is_empty() {
            let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
            cmd = upload::content_type_arg(cmd, &choices);
        }
    } else if let Some(form) = body.get("multipart") {
        cmd = upload::multipart_args(cmd, &text(form, "example"));
    }
    cmd
}

/// A member that is `true` (absent: `false`).
fn yes(value: &Value, key: &str) -> bool {
    value.get(key).and_then(Value::as_bool) == Some(true)
}

/// A member that is text (empty when absent).
fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A member that is an array of texts (empty when absent).
fn strings(value: &Value, key: &str) -> Vec<String> {
    items(value, key)
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// A member that is an array (empty when absent).
fn items<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DECLARED: &str = r#"[
        {"name": "list-pets", "features": ["pets"], "about": "List animals",
         "long_about": "List animals\n\nAll of them.",
         "args": [{"flag": "limit", "value": "INTEGER", "help": "At most this many."}]},
        {"name": "create-pet", "features": ["pets", "admin"], "aliases": ["createPet"],
         "about": "Add an animal", "long_about": "Add an animal",
         "body": {"json": {"properties": [{"flag": "name", "property": "petName", "value": "TEXT",
                                           "help": "Its name."}]}}},
        {"name": "upload", "about": "Upload", "long_about": "Upload", "output": true,
         "body": {"raw": {"media": "image/png", "text": false, "example": "x --body-file a.png",
                          "choices": ["image/png", "image/jpeg"]}}},
        {"name": "ping", "features": ["store"], "about": "Ping", "long_about": "Ping"}
    ]"#;

    fn names(commands: &[Command]) -> Vec<&str> {
        commands.iter().map(Command::get_name).collect()
    }

    #[test]
    fn only_commands_of_an_enabled_feature_are_offered() {
        assert_eq!(
            names(&commands(DECLARED, &["pets"])),
            ["list-pets", "create-pet", "upload"]
        );
        assert_eq!(
            names(&commands(DECLARED, &["admin"])),
            ["create-pet", "upload"]
        );
        assert_eq!(names(&commands(DECLARED, &[])), ["upload"]);
    }

    #[test]
    fn flags_help_and_bodies_are_built_as_declared() {
        let all = commands(DECLARED, &["pets", "store"]);
        let arg = |cmd: &Command, id: &str| {
            cmd.get_arguments().find(|a| a.get_id() == id).map(|a| {
                (
                    a.get_long().map(str::to_owned),
                    a.get_help().map(|h| h.to_string()),
                )
            })
        };
        assert_eq!(
            arg(&all[0], "limit"),
            Some((Some("limit".into()), Some("At most this many.".into())))
        );
        assert_eq!(
            all[0].get_long_about().map(|h| h.to_string()).as_deref(),
            Some("List animals\n\nAll of them.")
        );
        // The JSON body's own flags, then the properties.
        assert!(arg(&all[1], "body").is_some() && arg(&all[1], "name=petName").is_some());
        assert!(all[1].get_all_aliases().any(|a| a == "createPet"));
        // Bytes: the file flag, the media types, `--output`; no `--body` text.
        assert!(arg(&all[2], "body-file").is_some() && arg(&all[2], "content-type").is_some());
        assert!(arg(&all[2], "output").is_some() && arg(&all[2], "body").is_none());
        assert!(all[3].get_arguments().next().is_none());
    }

    #[test]
    #[should_panic(expected = "commands.json is not the generator's")]
    fn a_declaration_that_does_not_read_is_a_bug_said_plainly() {
        commands("{", &[]);
    }
}
