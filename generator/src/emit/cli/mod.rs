//! Prints the command-line client crate (`…-cli`): one clap subcommand per operation the CLI
//! can call, its flags from the parameters (and the body's top-level properties), built on the
//! generated client. Which operations, and every name, flag and environment variable, are
//! decided in `lower/cli.rs` (IR [`Cli`]). `cargo xtask codegen` writes it for the pet store
//! (`generated-cli/`), and for any document with `--cli`.
//!
//! This file prints `lib.rs` around the parts, `main.rs` and `Cargo.toml`; `declaration.rs`
//! prints `commands.json`, `runner.rs` a subcommand's function, `run.rs` `run` and `Call`'s
//! methods.

use crate::emit::ident;
use crate::ir::{Api, Cli, FlagTarget, Operation, SchemeKind};
use proc_macro2::TokenStream;
use quote::quote;

mod declaration;
mod run;
mod runner;

pub use declaration::commands_json;
use run::{finishers, run_and_report};
use runner::{form_fn, runner};

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
    // Grouped twice by the same features, so the groups come in the same order: the functions,
    // and their names for the table.
    let grouped = |parts: Vec<TokenStream>| {
        crate::emit::gates::grouped(cli.commands.iter().map(gate).zip(parts))
    };
    let names = cli.commands.iter().map(|c| {
        let function = ident(&c.function);
        quote!(#function,)
    });
    let groups: Vec<(Option<&[String]>, TokenStream)> = grouped(runners)
        .into_iter()
        .zip(grouped(names.collect()))
        .map(|((features, runners), (_, functions))| {
            let vis = crate::emit::gates::module_vis(features);
            let doc = crate::emit::doc(&[
                "The functions of these subcommands by name, where `run` finds the chosen one."
                    .to_owned(),
            ]);
            let items = quote! {
                #runners
                support::functions! {
                    #doc
                    #vis const FUNCTIONS: &[Run] = &[#functions];
                }
            };
            (features, items)
        })
        .collect();
    let (commands, placed) = crate::emit::gates::private_modules(groups);
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
                crate::emit::gates::cfg(Some(std::slice::from_ref(&f.name))),
            );
            quote!(#cfg #name,)
        })
        .collect();
    // With every command's feature off (no tag chosen), `run` reads and builds what no
    // command is left to use.
    let allowances = crate::emit::gates::allowances_with_variables(&api.features.features);
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
    let description = crate::emit::manifest::toml_escape(&format!(
        "Command-line client for {} {}.",
        api.title, api.version
    ));
    let version = crate::emit::manifest::crate_version(&api.version);
    let formats: String = crate::emit::manifest::format_dependencies()
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    let support = match runtime {
        crate::options::RuntimeSource::Vendored => String::new(),
        crate::options::RuntimeSource::Crates { path } => format!(
            "{}\n",
            crate::emit::manifest::cli_runtime_dependency(path.as_deref())?
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
