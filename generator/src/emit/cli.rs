//! Prints the command-line client crate (`…-cli`): one clap subcommand per operation the CLI
//! can call, its flags from the parameters (and the body's top-level properties), built on the
//! generated client. Which operations, and every name, flag and environment variable, are
//! decided in `lower/cli.rs` (IR [`Cli`]). `cargo xtask codegen` writes it for the pet store
//! (`generated-cli/`), and for any document with `--cli`.

use crate::emit::{client, ident, rust_type};
use crate::ir::{
    Api, BodyKind, Cli, CliBody, CliCommand, CliFlag, FlagTarget, Operation, SchemeKind, TypeRef,
};
use proc_macro2::TokenStream;
use quote::quote;

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

/// Reads the request body the subcommand's flags give (`let body = …;`) and the argument
/// passing it to the client's method.
fn body_part(cmd: &CliCommand, op: &Operation) -> (TokenStream, TokenStream) {
    let (Some(b), Some(how)) = (&op.body, &cmd.body) else {
        return (quote!(), quote!());
    };
    // Bytes or text the caller labels: `--content-type`, or the file's extension within a
    // range, into the client's `Upload`.
    if let CliBody::Raw { text, choices, .. } = how
        && !choices.is_empty()
    {
        // Text of a named type must be UTF-8; a range (`*/*`, api.github.com's release assets,
        // whose schema says string) takes any file as it is, as the client's `Upload` does:
        // the server the document describes decides what it keeps.
        let ranged = choices.iter().any(|c| c.contains('*'));
        let read = if *text && !ranged {
            quote!(support::upload::text_body(m)?.map(String::into_bytes))
        } else {
            quote!(support::upload::raw_body(m)?)
        };
        let missing = if *text {
            quote!(support::NEEDS_TEXT_BODY)
        } else {
            quote!(support::NEEDS_FILE_BODY)
        };
        let read = quote! {
            let media = support::upload::body_media(m, &[#(#choices),*])?;
            let body = #read.map(|bytes| match media {
                Some(media) => Upload::new(media, bytes),
                None => Upload::from(bytes),
            });
        };
        return if b.required {
            (
                quote! {
                    #read
                    let body = support::needed(body, #missing)?;
                },
                quote!(body,),
            )
        } else {
            (read, quote!(body,))
        };
    }
    let (read, missing) = match how {
        CliBody::Json => {
            let t = match &b.kind {
                BodyKind::Json(t) | BodyKind::Form(t) => rust_type(t, true),
                _ => quote!(serde_json::Value),
            };
            (
                quote!(let body: Option<#t> = support::body(m)?;),
                quote!(support::NEEDS_JSON_BODY),
            )
        }
        CliBody::Raw { text: true, .. } => (
            quote!(let body = support::upload::text_body(m)?;),
            quote!(support::NEEDS_TEXT_BODY),
        ),
        // The client takes `bytes::Bytes`, which the call's argument decides.
        CliBody::Raw { text: false, .. } => (
            quote!(let body = support::upload::raw_body(m)?.map(Into::into);),
            quote!(support::NEEDS_FILE_BODY),
        ),
        CliBody::Multipart { parts, .. } => {
            let specs = part_specs(parts);
            (
                quote! {
                    let body = match support::upload::multipart(m, &[#specs])? {
                        Some(parts) => Some(form(parts)?),
                        None => None,
                    };
                },
                quote!(support::NEEDS_FORM),
            )
        }
    };
    if b.required {
        (
            quote! {
                #read
                let body = support::needed(body, #missing)?;
            },
            quote!(&body,),
        )
    } else if matches!(how, CliBody::Raw { text: true, .. })
        || matches!(&b.kind, BodyKind::Json(TypeRef::Vec(_)))
    {
        // The client takes text as `&str` and a list as a slice.
        (read, quote!(body.as_deref(),))
    } else {
        (read, quote!(body.as_ref(),))
    }
}

/// The `support::upload::PartSpec`s of a multipart body's parts.
fn part_specs(parts: &[crate::ir::CliPart]) -> TokenStream {
    let specs = parts.iter().map(|p| {
        let (name, required, file, json) = (&p.name, p.required, p.file, p.json);
        let media = match &p.media {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        quote!(support::upload::PartSpec { name: #name, required: #required, file: #file, json: #json, media: #media },)
    });
    quote!(#(#specs)*)
}

/// `form`, which turns the parts read from the command line into the client's multipart
/// form (once per CLI, when some subcommand takes one).
fn form_fn(cli: &Cli, krate: &proc_macro2::Ident) -> Option<TokenStream> {
    cli.commands
        .iter()
        .any(|c| matches!(c.body, Some(CliBody::Multipart { .. })) || c.multipart.is_some())
        .then(|| {
            quote! {
                /// The client's multipart form of the parts `--field` and `--file` gave.
                fn form(parts: Vec<support::upload::Part>) -> Result<#krate::runtime::multipart::Form, ExitCode> {
                    use support::upload::Part;
                    let mut form = #krate::runtime::multipart::Form::new();
                    for part in parts {
                        form = match part {
                            Part::Text { name, value } => form.text(name, value),
                            Part::Json { name, value } => form
                                .json(name, &value)
                                .map_err(|e| support::usage(&e.to_string()))?,
                            Part::File { name, filename, media, data } => {
                                form.file_as(name, filename, media, data)
                            }
                        };
                    }
                    Ok(form)
                }
            }
        })
}

/// The function that runs one subcommand: reads its flags, calls the operation, prints the
/// answer.
fn runner(cmd: &CliCommand, api: &Api) -> TokenStream {
    let op = &api.operations[cmd.operation];
    let function = ident(&cmd.function);
    let options_ty = client::options_ident(op);
    let mut reads = Vec::new();
    let mut args = Vec::new();
    let mut setters = Vec::new();
    for f in &cmd.flags {
        let flag = &f.name;
        match &f.target {
            FlagTarget::Param(p) if op.params[*p].required => {
                let p = &op.params[*p];
                let local = ident(f.local.as_deref().unwrap_or(&p.local));
                let t = rust_type(&p.ty, true);
                reads.push(quote!(let #local: #t = support::required(m, #flag)?;));
                args.push(if client::by_ref(p) {
                    quote!(&#local,)
                } else {
                    quote!(#local,)
                });
            }
            FlagTarget::Param(p) => {
                let p = &op.params[*p];
                let setter = ident(&p.setter);
                let t = rust_type(&p.ty, true);
                setters.push(quote!(.#setter(support::optional::<#t>(m, #flag)?)));
            }
            // Read by the runtime from the flag's id (`commands.json` names the property).
            FlagTarget::Property { .. } => {}
        }
    }
    let has_options = op.rust_with.is_some();
    let method = ident(op.rust_with.as_ref().unwrap_or(&op.rust));
    let options = has_options.then(|| quote!(let options = #options_ty::default() #(#setters)*;));
    let options_arg = has_options.then(|| quote!(options,));
    let (body_read, body_arg) = body_part(cmd, op);
    let answer = quote!(call.client.#method(#(#args)* #body_arg #options_arg));
    // A body also offered as multipart: the form when `--field` or `--file` is given, through
    // the client's multipart method (the same answer types); JSON otherwise. The two calls'
    // futures are of two types, so each is boxed, owning what it sends.
    let (send, answer) = match (&cmd.multipart, &op.multipart_twin) {
        (Some(CliBody::Multipart { parts, .. }), Some(twin)) => {
            let specs = part_specs(parts);
            let twin = ident(twin.rust_with.as_ref().unwrap_or(&twin.rust));
            let form_arg = if op.body.as_ref().is_some_and(|b| b.required) {
                quote!(&form,)
            } else {
                quote!(Some(&form),)
            };
            let send = quote! {
                let parts = support::upload::multipart_instead(m, &[#specs])?;
                let answer: std::pin::Pin<Box<dyn Future<Output = _> + '_>> = match parts {
                        Some(parts) => {
                            let form = form(parts)?;
                            Box::pin(async move { call.client.#twin(#(#args)* #form_arg #options_arg).await })
                        }
                        None => {
                            #body_read
                            Box::pin(async move { #answer.await })
                        }
                    };
            };
            (send, quote!(answer))
        }
        _ => (body_read, answer),
    };
    let finish = match &cmd.binary {
        Some(media) => quote!(call.finish_bytes(#answer, m, #media)),
        None if op.success_enum => quote!(call.finish_debug(#answer)),
        None => quote!(call.finish(#answer)),
    };
    let body = quote! {
        #(#reads)*
        #options
        #send
        #finish
    };
    // A subcommand without flags reads no matches.
    let m = if names(&body, "m") {
        quote!(m)
    } else {
        quote!(_)
    };
    let docs = super::doc(&[format!("`{}`: calls `{}`.", cmd.name, op.id)]);
    // A deprecated operation or parameter stays callable from the command line.
    let allow = (op.deprecated.is_some() || op.params.iter().any(|p| p.deprecated))
        .then(|| quote!(#[allow(deprecated)]));
    quote! {
        #docs
        #allow
        fn #function(call: &Call, #m: &ArgMatches) -> Outcome {
            #body
        }
    }
}

/// `src/main.rs` of the CLI crate: the library's `main`.
pub fn main_rs(name: &str) -> TokenStream {
    let krate = ident(&format!("{}_cli", name.replace('-', "_")));
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        //! The command-line client's binary; everything is in the library (`lib.rs`).

        fn main() -> std::process::ExitCode {
            #krate::main()
        }
    }
}

/// `src/lib.rs` of the CLI crate: the command line ([`cli`]) and what each subcommand does.
pub fn lib_rs(api: &Api, cli: &Cli, client_crate: &str, vendored: bool) -> TokenStream {
    let krate = ident(&client_crate.replace('-', "_"));
    let bin = &cli.bin;
    let about = format!("{} {} from the command line.", api.title, api.version);
    let ops: Vec<&Operation> = cli
        .commands
        .iter()
        .map(|c| &api.operations[c.operation])
        .collect();
    let gate = |c: &crate::ir::CliCommand| api.features.of_operation(c.operation);
    let runners: Vec<TokenStream> = cli.commands.iter().map(|c| runner(c, api)).collect();
    let runners_text = quote!(#(#runners)*).to_string();
    // `types` only when some subcommand names one of the document's types.
    let types_use = runners_text
        .contains("types ::")
        .then(|| quote!(use #krate::types;));
    let upload_use = runners_text
        .contains("Upload ::")
        .then(|| quote!(use #krate::runtime::request::Upload;));
    // A command's function compiles under the client's features of the operation's tags: a
    // tag's functions in one module under its feature (see `gates::modules`), ending with
    // their table (`support::functions!`), which `run` finds the chosen one in by name.
    type Members<'a> = Vec<(&'a CliCommand, TokenStream)>;
    let mut groups: Vec<(Option<&[String]>, Members)> = Vec::new();
    for (c, runner) in cli.commands.iter().zip(runners) {
        let features = gate(c).filter(|f| !f.is_empty());
        match groups.iter_mut().find(|(f, _)| *f == features) {
            Some((_, members)) => members.push((c, runner)),
            None => groups.push((features, vec![(c, runner)])),
        }
    }
    let groups: Vec<(Option<&[String]>, TokenStream)> = groups
        .into_iter()
        .map(|(features, members)| {
            let functions = members.iter().map(|(c, _)| ident(&c.function));
            let runners = members.iter().map(|(_, r)| r);
            let vis = super::gates::module_vis(features);
            let doc = super::doc(&[
                "The functions of these subcommands by name, where `run` finds the chosen one."
                    .to_owned(),
            ]);
            let items = quote! {
                #(#runners)*
                support::functions! {
                    #doc
                    #vis const FUNCTIONS: &[Run] = &[#(#functions),*];
                }
            };
            (features, items)
        })
        .collect();
    let (commands, placed) = super::gates::private_modules(groups);
    let tables: Vec<TokenStream> = placed
        .into_iter()
        .map(|(cfg, module)| match module {
            Some(module) => quote!(#cfg #module::FUNCTIONS,),
            None => quote!(FUNCTIONS,),
        })
        .collect();
    // The features this build has on, which the runtime offers the declared commands of.
    let enabled: Vec<TokenStream> = api
        .features
        .features
        .iter()
        .map(|f| {
            let (name, cfg) = (
                &f.name,
                super::gates::cfg(Some(std::slice::from_ref(&f.name))),
            );
            quote!(#cfg #name,)
        })
        .collect();
    // With every command's feature off (no tag chosen), `run` reads and builds what no
    // command is left to use.
    let allowances = super::gates::allowances_with_variables(&api.features.features);
    // A document without operations: the command line has only its global flags (clap
    // refuses any command before `run`), and nothing is called.
    let no_commands = cli.commands.is_empty();
    let servers: Vec<&str> = api.servers.iter().map(|s| s.short.as_str()).collect();
    let base_url = base_url_part(api);
    let server_use = (!api.servers.is_empty()).then(|| quote!(use #krate::Server;));
    let (after_help, after_long_help) = help_texts(api, cli);
    // The runtime's `decimal::Decimal` (printed `crate::runtime::…`, as in the client), when a
    // flag reads one.
    let runtime_use = cli
        .commands
        .iter()
        .any(|cmd| {
            cmd.flags.iter().any(|f| match f.target {
                FlagTarget::Param(p) => api.operations[cmd.operation].params[p]
                    .ty
                    .mentions_decimal(),
                FlagTarget::Property { .. } => false,
            })
        })
        .then(|| quote!(use #krate::runtime;));
    // The operations' `…Options` types, when some subcommand takes one.
    let options_use = ops
        .iter()
        .any(|op| op.rust_with.is_some())
        .then(|| quote!(use #krate::client::*;));
    let Credentials {
        declare_found,
        credentials,
        reads_key,
        mutable,
    } = credentials_part(api, cli);
    let form = form_fn(cli, &krate);
    let (run, methods) = if no_commands {
        let run = quote! {
            /// The document has no operation: there is no subcommand to run.
            fn run(_: &ArgMatches) -> Outcome {
                Err(support::usage("the document has no operation to call"))
            }
        };
        (run, quote!())
    } else {
        let (run, report) = run_and_report(
            &base_url,
            reads_key,
            mutable,
            declare_found,
            credentials,
            cli,
        );
        let finishers = finishers(api, cli);
        let methods = quote! {
            impl Call {
                /// Drives the client's call to its end on this command line's runtime, once its
                /// flags are read (a usage error comes without the deprecation warning).
                fn block_on<F: Future>(&self, call: F) -> F::Output {
                    if let Some(note) = &self.deprecated {
                        eprintln!("warning: `{}` is deprecated: {note}", self.operation);
                    }
                    self.runtime.block_on(call)
                }

                #finishers

                #report
            }
        };
        (run, methods)
    };
    let cli_subcommands = if no_commands {
        quote!(support::global_args(cmd, &[#(#servers),*]))
    } else {
        quote! {
            support::global_args(cmd, &[#(#servers),*])
                .subcommands(support::commands::commands(COMMANDS, ENABLED))
        }
    };
    let declarations = (!no_commands).then(|| {
        quote! {
            /// Each subcommand's name, help and flags: data the runtime builds the command
            /// line from (`commands.json`, beside this file).
            const COMMANDS: &str = include_str!("commands.json");

            /// The cargo features this build has on: the commands of their operations are
            /// offered.
            const ENABLED: &[&str] = &[#(#enabled)*];

            /// What runs a subcommand: its call (the client, the global flags) and its flags.
            type Run = fn(&Call, &ArgMatches) -> Outcome;

            /// The tables of the subcommands' functions, one a feature this build has on.
            const ALL_FUNCTIONS: &[&[(&str, Run)]] = &[#(#tables)*];
        }
    });
    let client_use = (!no_commands).then(|| {
        quote! {
            use #krate::{ApiResult, Client, Error, RequestOptions};
            use #krate::runtime::progress::Direction;
        }
    });
    let server_use = server_use.filter(|_| !no_commands);
    // Named `support` either way: the runtime crate, or its copy (`--vendor-runtime`).
    let support = if vendored {
        quote!(
            pub mod support;
        )
    } else {
        quote!(
            pub use apigen_cli_runtime as support;
        )
    };
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #allowances
        //! The command-line client: one subcommand per operation, on the generated client.
        //! A library with the binary's `main`, so that tests and wrappers can run it and read
        //! its help ([`cli`]).
        //!
        //! Exit status 0 on success, 1 when the call failed, 2 for a usage or configuration
        //! error (nothing was sent).

        #support

        use std::process::ExitCode;

        /// How the command line ends: its exit status (`Err`: an early exit, its message
        /// printed).
        type Outcome<T = ExitCode> = Result<T, ExitCode>;

        use clap::{ArgMatches, Command};
        #options_use
        #runtime_use
        #client_use
        #types_use
        #upload_use
        #server_use

        /// Parses the process's arguments and runs the subcommand; the exit status.
        pub fn main() -> ExitCode {
            let matches = cli().get_matches();
            match run(&matches) {
                Ok(code) | Err(code) => code,
            }
        }

        /// The command line: global flags, then one subcommand per operation.
        pub fn cli() -> Command {
            let cmd = Command::new(#bin)
                .about(#about)
                .after_help(#after_help)
                #after_long_help
                .version(env!("CARGO_PKG_VERSION"))
                .subcommand_required(true)
                .arg_required_else_help(true);
            #cli_subcommands
        }

        #declarations

        #run

        #commands

        #form

        #methods
    }
}

/// The text after `--help`: the exit statuses (and where credentials come from), and under
/// the long help the operations left to the client library, with why.
fn help_texts(api: &Api, cli: &Cli) -> (String, Option<TokenStream>) {
    let after_help = format!(
        "{}Exit status: 0 on success, 1 when the call failed, 2 for a usage or configuration error (nothing sent).",
        cli.credentials_help
            .as_ref()
            .map(|c| format!("{c} "))
            .unwrap_or_default()
    );
    // `--help` (not `-h`) also names the operations left to the client library, and why.
    let left_out: String = cli
        .left_out
        .iter()
        .map(|l| format!("\n  {}: {}", api.operations[l.operation].id, l.reason))
        .collect();
    let after_long_help = (!left_out.is_empty()).then(|| {
        let text = format!("{after_help}\n\nNot offered here:{left_out}");
        quote!(.after_long_help(#text))
    });
    (after_help, after_long_help)
}

/// How the base URL is chosen: `--base-url`, else `--env` (a server's name), else the first
/// server; a document without servers needs `--base-url`.
fn base_url_part(api: &Api) -> TokenStream {
    if api.servers.is_empty() {
        quote! {
            let base_url = m
                .get_one::<String>("base-url")
                .cloned()
                .ok_or_else(|| support::usage("the document names no server: pass --base-url"))?;
            let base_url = support::base_url(base_url)?;
        }
    } else {
        quote! {
            let base_url = match (m.get_one::<String>("base-url"), m.get_one::<String>("env")) {
                (Some(url), _) => url.clone(),
                (None, Some(env)) => env
                    .parse::<Server>()
                    .map_err(|e| support::usage(&e))?
                    .url()
                    .to_owned(),
                (None, None) => Server::ALL[0].url().to_owned(),
            };
            // A server named without a host cannot be called without `--base-url`.
            let base_url = support::base_url(base_url)?;
        }
    }
}

/// What `run` prints to set the client's credentials from the environment.
struct Credentials {
    /// `let mut credentials = false;` where a subcommand refuses to run without them.
    declare_found: TokenStream,
    /// One setter call per scheme, each when its variables are set.
    credentials: Vec<TokenStream>,
    /// Reads the API key's variable, when some scheme takes a key or token.
    reads_key: Option<TokenStream>,
    /// `mut` on the builder when any scheme sets credentials on it.
    mutable: Option<TokenStream>,
}

fn credentials_part(api: &Api, cli: &Cli) -> Credentials {
    let key_var = &cli.key_var;
    let (user_var, password_var) = (&cli.user_var, &cli.password_var);
    // Whether credentials were found is kept only when a subcommand refuses to run without
    // them, so that no document leaves an unread or needlessly mutable variable.
    let checked = cli.checks_credentials;
    let found = (checked && !api.security_schemes.is_empty()).then(|| quote!(credentials = true;));
    let declare_found = match (checked, found.is_some()) {
        (false, _) => quote!(),
        (true, true) => quote!(let mut credentials = false;),
        (true, false) => quote!(let credentials = false;),
    };
    let credentials = api.security_schemes.iter().map(|s| {
        let setter = ident(&s.rust);
        match s.kind {
            SchemeKind::Basic => quote! {
                if let (Ok(user), Ok(password)) = (std::env::var(#user_var), std::env::var(#password_var)) {
                    builder = builder.#setter(user, password);
                    #found
                }
            },
            _ => quote! {
                if let Some(key) = &key {
                    builder = builder.#setter(key.clone());
                    #found
                }
            },
        }
    });
    let reads_key = api
        .security_schemes
        .iter()
        .any(|s| s.kind != SchemeKind::Basic)
        .then(|| {
            quote! {
                let key = std::env::var(#key_var)
                    .ok()
                    .map(|k| k.trim().to_owned())
                    .filter(|k| !k.is_empty());
            }
        });
    let mutable = (!api.security_schemes.is_empty()).then(|| quote!(mut));
    Credentials {
        declare_found,
        credentials: credentials.collect(),
        reads_key,
        mutable,
    }
}

/// The reporters of JSON answers (`finish`), of enums of several successes (`finish_debug`) and
/// of bytes (`finish_bytes`): methods of `Call`, each only when some subcommand uses it (an
/// unused one is dead code). Each drives the client's call, prints its answer and says how the
/// command line ends.
fn finishers(api: &Api, cli: &Cli) -> TokenStream {
    let (plain, enums): (Vec<&CliCommand>, Vec<&CliCommand>) = cli
        .commands
        .iter()
        .filter(|c| c.binary.is_none())
        .partition(|c| !api.operations[c.operation].success_enum);
    let finish = (!plain.is_empty()).then(|| {
        quote! {
            /// Drives the call and prints the answer (or the error) and the requested extras.
            fn finish<T: serde::Serialize, E: std::fmt::Debug + serde::Serialize>(
                &self,
                answer: impl Future<Output = ApiResult<T, E>>,
            ) -> Outcome {
                let result = self.block_on(answer);
                Ok(self.report(result, |value| support::print_value(value, self.json)))
            }
        }
    });
    let finish_debug = (!enums.is_empty()).then(|| {
        quote! {
            /// As `finish`, for answers that are an enum of several success statuses.
            fn finish_debug<T: std::fmt::Debug, E: std::fmt::Debug + serde::Serialize>(
                &self,
                answer: impl Future<Output = ApiResult<T, E>>,
            ) -> Outcome {
                let result = self.block_on(answer);
                Ok(self.report(result, |value| println!("{value:#?}")))
            }
        }
    });
    let finish_bytes = cli.commands.iter().any(|c| c.binary.is_some()).then(|| {
        quote! {
            /// As `finish`, for answers that are bytes: written as they are to `--output FILE`
            /// (a flag of `m`) or standard output, never printed as JSON; `media` is the
            /// answer's media type.
            fn finish_bytes<T: AsRef<[u8]>, E: std::fmt::Debug + serde::Serialize>(
                &self,
                answer: impl Future<Output = ApiResult<T, E>>,
                m: &ArgMatches,
                media: &str,
            ) -> Outcome {
                let result = self.block_on(answer);
                let to = m.get_one::<String>("output").map(String::as_str);
                let mut written = Ok(());
                let code = self.report(result, |bytes| {
                    written = support::write_bytes(bytes.as_ref(), to, media);
                });
                match written {
                    Ok(()) => Ok(code),
                    Err(e) => Ok(support::failed(&e)),
                }
            }
        }
    });
    quote! {
        #finish
        #finish_debug
        #finish_bytes
    }
}

/// Whether `tokens` use the identifier `name` anywhere, inside groups too.
fn names(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => names(&g.stream(), name),
        _ => false,
    })
}

/// `run`, which calls the chosen subcommand's operation, and `report`, which prints its
/// answer (for a document with operations). `Call` holds only the fields some subcommand
/// reads (an unread field is dead code): credentials and `--json` as the `Cli` says.
fn run_and_report(
    base_url: &TokenStream,
    reads_key: Option<TokenStream>,
    mutable: Option<TokenStream>,
    declare_found: TokenStream,
    credentials: Vec<TokenStream>,
    cli: &Cli,
) -> (TokenStream, TokenStream) {
    let (json_field, json_doc, json_read) = if cli.prints_values {
        (
            quote!(json,),
            quote!(
                /// `--json`: the answer is printed as JSON, not as a table.
                json: bool,
            ),
            quote!(let json = m.get_flag("json");),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    // Before its flags are read, a command whose operation needs credentials stops when
    // there are none.
    let needs_credentials = cli.checks_credentials.then(|| {
        quote! {
            if let Some(message) = &chosen.needs_credentials
                && !credentials
            {
                return Err(support::usage(message));
            }
        }
    });
    let run = quote! {
        /// What every subcommand's call needs: the client, the runtime that drives it, the
        /// flags that shape the output, and the operation it calls.
        struct Call {
            client: Client,
            runtime: tokio::runtime::Runtime,
            #json_doc
            /// `--verbose` and `--raw`.
            output: support::Output,
            /// The operation's id, which warnings name.
            operation: String,
            /// The document's deprecation note, when it deprecates the operation: a warning
            /// before the call, and the answer's `Deprecation` headers are not repeated.
            deprecated: Option<String>,
        }

        /// Sets up the call from the global flags and runs the chosen subcommand; `Err` is an
        /// early exit whose message is printed.
        fn run(m: &ArgMatches) -> Outcome {
            #json_read
            let output = support::Output::from_matches(m);
            #base_url
            // Without the TLS feature an HTTPS server cannot be reached: say so before sending.
            if base_url.starts_with("https://") && !cfg!(feature = "rustls") {
                return Err(support::usage(&format!(
                    "{base_url} needs HTTPS, and this CLI was built without it: rebuild with `--features rustls`, or pass `--base-url http://…`"
                )));
            }
            if output.verbose {
                eprintln!("server: {base_url}");
            }
            // `--header` and `--timeout`, on every call.
            let mut options = RequestOptions::new();
            for (name, value) in support::headers(m)? {
                options = options.header(name, value);
            }
            if let Some(timeout) = support::timeout(m)? {
                options = options.timeout(timeout);
            }
            #reads_key
            let #mutable builder = Client::builder(base_url)
                .user_agent(concat!(env!("CARGO_PKG_NAME"), "/", env!("CARGO_PKG_VERSION")));
            #declare_found
            #(#credentials)*
            // A line on standard error for long uploads and downloads, on a terminal only.
            let builder = match support::progress::ProgressLine::on_terminal() {
                Some(line) => builder.on_progress(move |p| {
                    line.show(p.direction == Direction::Upload, p.done, p.total)
                }),
                None => builder,
            };
            let client = builder.build().map_err(|e| {
                eprintln!("error: cannot set up the HTTP client: {e}");
                ExitCode::from(support::FAILED)
            })?;
            let client = client.with_options(options);
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| {
                    eprintln!("error: cannot start the async runtime: {e}");
                    ExitCode::from(support::FAILED)
                })?;
            let Some((command, m)) = m.subcommand() else {
                return Err(support::usage("no command given; --help lists them"));
            };
            let chosen = support::commands::chosen(COMMANDS, command);
            #needs_credentials
            let Some(run) = support::commands::function(ALL_FUNCTIONS, &chosen.function) else {
                return Err(support::usage(&format!("unknown command `{command}`")));
            };
            let call = Call {
                client,
                runtime,
                #json_field
                output,
                operation: chosen.operation,
                deprecated: chosen.deprecated,
            };
            run(&call, m)
        }
    };
    let report = quote! {
        /// Prints the answer with `print` (or the error), then the requested extras; the exit
        /// status.
        fn report<T, E: std::fmt::Debug + serde::Serialize>(
            &self,
            result: ApiResult<T, E>,
            print: impl FnOnce(&T),
        ) -> ExitCode {
            let output = self.output;
            let code = match result {
                Ok(response) => {
                    if self.deprecated.is_none() {
                        support::warn_deprecation(&self.operation, response.headers());
                    }
                    if !response.status_documented() {
                        support::warn_undocumented(&self.operation, response.status());
                    }
                    if output.raw {
                        support::write_raw(response.raw_body());
                    } else {
                        print(&*response);
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    if let (true, Some(body)) = (output.raw, error.raw_body()) {
                        support::write_raw(body);
                    }
                    match &error {
                        Error::Decode { status, path, message, body, .. } => {
                            support::print_decode_error(*status, (path, message), body, error.retry_after());
                        }
                        // The typed body's message and code; where it has none, the error's
                        // own text, which holds the server's message however it wrote it.
                        _ => {
                            let body = match error.api_body() {
                                Some(body) => serde_json::to_value(body).ok(),
                                None => error.body_bytes().and_then(|b| serde_json::from_slice(b).ok()),
                            };
                            support::print_error(error.status(), error.retry_after(), body, &error.to_string());
                        }
                    }
                    ExitCode::from(support::FAILED)
                }
            };
            if output.verbose {
                let state = self.client.last_rate_limit();
                support::print_rate_limit(state.limit, state.remaining, state.reset);
            }
            code
        }
    };
    (run, report)
}

/// `Cargo.toml` of the CLI crate; `client_path` is the client crate's directory as seen from
/// the CLI's.
pub fn cargo_toml(
    api: &Api,
    name: &str,
    client_crate: &str,
    client_path: &str,
    runtime: &crate::options::RuntimeSource,
    header: &str,
) -> Result<String, String> {
    let description = super::manifest::toml_escape(&format!(
        "Command-line client for {} {}.",
        api.title, api.version
    ));
    let version = super::manifest::crate_version(&api.version);
    let formats: String = super::manifest::format_dependencies()
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    let support = match runtime {
        crate::options::RuntimeSource::Vendored => String::new(),
        crate::options::RuntimeSource::Crates { path } => format!(
            "{}\n",
            super::manifest::cli_runtime_dependency(path.as_deref())?
        ),
    };
    // The client's features per tag, passed on: the client is taken without its defaults, and
    // the CLI's `default` turns every tag on, as the client's does.
    let (client_features, tag_features) = if api.features.features.is_empty() {
        (String::new(), String::new())
    } else {
        let names: Vec<String> = api
            .features
            .features
            .iter()
            .map(|f| format!("\"{}\"", f.name))
            .collect();
        let mut lines = format!(
            "# One feature per tag, all on by default, each the client's own: with\n# `default-features = false` and the features of the tags you call, only their\n# commands (and the client's operations and types) compile.\ndefault = [{}]\n",
            names.join(", ")
        );
        for feature in api.features.features.iter().map(|f| &f.name) {
            lines.push_str(&format!("{feature} = [\"{client_crate}/{feature}\"]\n"));
        }
        (", default-features = false".to_owned(), lines)
    };
    Ok(format!(
        "{header}[package]\nname = \"{name}-cli\"\nversion = \"{version}\"\nedition = \"2024\"\n# The runtime it builds on uses let chains (stable since Rust 1.88).\nrust-version = \"1.88\"\ndescription = \"{description}\"\npublish = false\n\n[[bin]]\nname = \"{name}-cli\"\npath = \"src/main.rs\"\n\n[dependencies]\n{client_crate} = {{ path = \"{client_path}\"{client_features} }}\n{support}# The command line, without the derive macros (the parser is generated code already); `string`:\n# the subcommands are built from their declaration (`src/commands.json`), read at run time.\nclap = {{ version = \"4\", default-features = false, features = [\"std\", \"help\", \"usage\", \"error-context\", \"string\"] }}\nserde = \"1\"\n# Fields print in the document's order, not sorted by name.\nserde_json = {{ version = \"1\", features = [\"preserve_order\"] }}\nhttp = \"1\"\n# The types of `format: uuid`, `date-time` and `date`, as the client names them.\n{formats}# One call at a time: a current-thread runtime.\ntokio = {{ version = \"1\", default-features = false, features = [\"rt\"] }}\n\n[features]\n# HTTPS through the client's rustls feature; off by default so that plain builds stay small.\nrustls = [\"{client_crate}/rustls\"]\n{tag_features}"
    ))
}
