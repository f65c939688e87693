//! `run`, which sets up the call from the global flags and runs the chosen subcommand's
//! function, and `Call`'s methods that drive the client's call and print its answer.

use crate::ir::{Api, Cli, CliCommand};
use proc_macro2::TokenStream;
use quote::quote;

/// The reporters of JSON answers (`finish`), of enums of several successes (`finish_debug`) and
/// of bytes (`finish_bytes`): methods of `Call`, each only when some subcommand uses it (an
/// unused one is dead code). Each drives the client's call, prints its answer and says how the
/// command line ends.
pub(super) fn finishers(api: &Api, cli: &Cli) -> TokenStream {
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
                Ok(match written {
                    Ok(()) => code,
                    Err(e) => support::failed(&e),
                })
            }
        }
    });
    quote! {
        #finish
        #finish_debug
        #finish_bytes
    }
}

/// `run`, which calls the chosen subcommand's function, and `report`, which prints its
/// answer (for a document with operations). `Call` holds `--json` only when some subcommand
/// prints a value (an unread field is dead code); whether credentials were found is `run`'s.
pub(super) fn run_and_report(
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
