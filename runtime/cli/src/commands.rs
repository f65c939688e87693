//! A generated CLI's subcommands built from their declaration: `commands.json`, which the
//! generator writes beside the CLI's `lib.rs` (name, help, flags and body of each command),
//! read when the command line is built.
//!
//! The declaration is data rather than a builder chain per command: a document of 767
//! operations printed 26,574 lines of `Arg::new(…).long(…)…` that every build of the CLI
//! compiled, and a diff of a regenerated CLI showed each flag's help as code.

use std::sync::{Arc, Mutex, PoisonError};

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
    read(declaration)
        .iter()
        .filter(|spec| {
            let features = strings(spec, "features");
            features.is_empty() || features.iter().any(|f| enabled.contains(&f.as_str()))
        })
        .map(command)
        .collect()
}

/// The declaration read, and its text: [`commands`] reads it to build the command line, then
/// [`chosen`] finds the subcommand given in the same text (GitHub's is 1 MB, 3 ms to read
/// again in a release build), so the last one read is kept.
static LAST_READ: Mutex<Option<Read>> = Mutex::new(None);

/// A declaration's text and the commands it lists.
type Read = (Arc<str>, Arc<[Value]>);

/// The commands `declaration` lists, read once per text.
fn read(declaration: &str) -> Arc<[Value]> {
    let mut last = LAST_READ.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((text, list)) = &*last
        && **text == *declaration
    {
        return Arc::clone(list);
    }
    let declared: Value = serde_json::from_str(declaration)
        .unwrap_or_else(|e| panic!("commands.json is not the generator's: {e}"));
    let Value::Array(list) = declared else {
        panic!("commands.json is not the generator's: not an array of commands");
    };
    let list: Arc<[Value]> = list.into();
    *last = Some((declaration.into(), Arc::clone(&list)));
    list
}

/// What `run` needs of the chosen subcommand's declaration, beyond its flags: the function
/// that runs it, the operation it calls, and what is said before sending.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Chosen {
    /// The name of the generated function that runs it, as [`functions!`](super::functions!) lists it: the
    /// declaration's `"function"`, else the command's name with `-` written `_`.
    pub function: String,
    /// The operation's id (`listPets`), which warnings and errors name.
    pub operation: String,
    /// The document's deprecation note, when it deprecates the operation: a warning is
    /// printed before the call, and the answer's `Deprecation` headers are not repeated.
    pub deprecated: Option<String>,
    /// The usage error to stop with when the environment holds no credentials and every
    /// alternative of the operation's security needs one (`PETSTORE_API_KEY is not set; …`).
    pub needs_credentials: Option<String>,
}

/// The declaration of the subcommand `name` (its name, not an alias: what clap's
/// `ArgMatches::subcommand` gives).
///
/// # Panics
///
/// As [`commands`], when `declaration` is not the generator's or does not declare `name` (clap
/// only accepts a declared command).
pub fn chosen(declaration: &str, name: &str) -> Chosen {
    let list = read(declaration);
    let spec = list
        .iter()
        .find(|spec| spec.get("name").and_then(Value::as_str) == Some(name))
        .unwrap_or_else(|| panic!("commands.json is not the generator's: no command `{name}`"));
    let optional = |key: &str| spec.get(key).and_then(Value::as_str).map(str::to_owned);
    Chosen {
        function: optional("function").unwrap_or_else(|| name.replace('-', "_")),
        operation: text(spec, "operation"),
        deprecated: optional("deprecated"),
        needs_credentials: optional("needs_credentials"),
    }
}

/// The function named `name` among the tables [`functions!`](super::functions!) declares (one a cargo feature
/// of the CLI), `None` when none has it.
pub fn function<R: Copy>(tables: &[&[(&str, R)]], name: &str) -> Option<R> {
    tables
        .iter()
        .flat_map(|table| table.iter())
        .find(|(function, _)| *function == name)
        .map(|(_, run)| *run)
}

/// Declares a table of subcommand functions, each under its own name, which [`function`]
/// finds by the name [`Chosen::function`] gives:
///
/// ```ignore
/// support::functions! {
///     /// The subcommands of the `pets` feature.
///     pub(super) const FUNCTIONS: &[Run] = &[list_pets, create_pet];
/// }
/// ```
///
/// expands to `pub(super) const FUNCTIONS: &[(&str, Run)] = &[("list_pets", list_pets as
/// Run), …];`. Names, not positions: a table out of step with `commands.json` cannot run the
/// wrong command.
#[doc(hidden)]
#[macro_export]
macro_rules! __apigen_cli_functions {
    (
        $(#[doc = $doc:literal])*
        $vis:vis const $name:ident: &[$run:ty] = &[$($function:ident),* $(,)?];
    ) => {
        $(#[doc = $doc])*
        $vis const $name: &[(&str, $run)] = &[$((stringify!($function), $function as $run)),*];
    };
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
    fn the_chosen_command_names_its_function_operation_and_notes() {
        let declared = r#"[
            {"name": "get-pet", "operation": "getPet", "deprecated": "Use list-pets.",
             "needs_credentials": "PETSTORE_API_KEY is not set", "about": "", "long_about": ""},
            {"name": "main", "function": "main_2", "operation": "main", "about": "",
             "long_about": ""}
        ]"#;
        assert_eq!(
            chosen(declared, "get-pet"),
            Chosen {
                function: "get_pet".into(),
                operation: "getPet".into(),
                deprecated: Some("Use list-pets.".into()),
                needs_credentials: Some("PETSTORE_API_KEY is not set".into()),
            }
        );
        let main = chosen(declared, "main");
        assert_eq!((main.function.as_str(), main.deprecated), ("main_2", None));
    }

    fn one(_: &str) -> u8 {
        1
    }
    fn two(_: &str) -> u8 {
        2
    }
    fn r#type(_: &str) -> u8 {
        3
    }

    #[test]
    fn a_function_is_found_by_its_name_in_any_table() {
        // `super::super`: the crate's root, or the module a generated CLI copied it into.
        use super::super::functions;
        type Run = fn(&str) -> u8;
        functions! {
            /// One table.
            const FIRST: &[Run] = &[one, r#type];
        }
        functions! {
            const SECOND: &[Run] = &[two,];
        }
        let tables: &[&[(&str, Run)]] = &[FIRST, SECOND];
        assert_eq!(function(tables, "two").map(|f| f("")), Some(2));
        assert_eq!(function(tables, "one").map(|f| f("")), Some(1));
        // A raw identifier keeps its `r#`, as the generator writes it in `"function"`.
        assert_eq!(function(tables, "r#type").map(|f| f("")), Some(3));
        assert!(function(tables, "three").is_none());
    }

    #[test]
    #[should_panic(expected = "no command `nope`")]
    fn choosing_an_undeclared_command_is_a_bug_said_plainly() {
        chosen(DECLARED, "nope");
    }

    #[test]
    #[should_panic(expected = "commands.json is not the generator's")]
    fn a_declaration_that_does_not_read_is_a_bug_said_plainly() {
        commands("{", &[]);
    }
}
