//! The `apigen` command as a library: `apigen init`, `generate`, `check` and `diff` over the
//! documents a workspace lists in `apigen.toml`.
//!
//! The binary (`src/main.rs`) and every `cargo xtask codegen` (this repository's, and those
//! `apigen init --xtask` writes) call [`run`] with their own [`Invocation`], so there is one
//! implementation of what "generate" and "up to date" mean.

pub mod config;
pub mod diff;
pub mod generate;
pub mod init;
pub mod mock;
pub mod paths;
pub mod project;

use std::path::PathBuf;
use std::process::ExitCode;

/// How the commands were reached, so that help texts, generated headers and hints name what
/// the user really types.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The program as typed: `apigen`, `cargo xtask`.
    pub program: String,
    /// The word of the generating subcommand: `generate` (`apigen generate`), `codegen`
    /// (`cargo xtask codegen`).
    pub generate_word: String,
    /// The command that regenerates, as generated files name it (`apigen generate`).
    pub generate: String,
    /// The drift check, as hints name it (`apigen check`, `cargo xtask codegen --check`).
    pub check: String,
    /// Where relative paths on the command line start, and reports' paths are shown from.
    pub cwd: PathBuf,
    /// The `apigen.toml` to use; `None`: the nearest in `cwd` or a parent.
    pub config: Option<PathBuf>,
    /// The runtime crates' directory for `--spec`/`--out` without a runtime option
    /// (`cargo xtask codegen` here: this checkout's `runtime/`); `None`: by version.
    pub runtime_path: Option<PathBuf>,
}

impl Invocation {
    /// `apigen …`, run in the current directory.
    pub fn apigen() -> Invocation {
        Invocation {
            program: "apigen".into(),
            generate_word: "generate".into(),
            generate: "apigen generate".into(),
            check: "apigen check".into(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            config: None,
            runtime_path: None,
        }
    }

    /// `cargo xtask codegen …` (and `cargo xtask diff …`), run in the current directory.
    pub fn xtask() -> Invocation {
        Invocation {
            program: "cargo xtask".into(),
            generate_word: "codegen".into(),
            generate: "cargo xtask codegen".into(),
            check: "cargo xtask codegen --check".into(),
            ..Invocation::apigen()
        }
    }

    /// The `apigen.toml` in effect: the one given, or the nearest from `cwd` up.
    pub fn config(&self) -> Result<config::Config, String> {
        let path = match &self.config {
            Some(path) => self.cwd.join(path),
            None => self
                .cwd
                .ancestors()
                .map(|d| d.join(config::FILE_NAME))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    format!(
                        "no {} in {} or a parent directory: run `{} init --spec PATH` to set this workspace up, or name one document with `--spec PATH --out DIR`",
                        config::FILE_NAME,
                        self.cwd.display(),
                        self.program
                    )
                })?,
        };
        config::Config::load(&path)
    }

    fn fill(&self, text: &str) -> String {
        text.replace("{program}", &self.program)
            .replace("{generate}", &self.generate_word)
            .replace("{check}", &self.check)
    }
}

const HELP: &str = "\
apigen: OpenAPI documents in, Rust server, client and command-line crates out.

Usage: {program} <COMMAND> [OPTIONS]

Commands:
  init      set this workspace up: write apigen.toml, generate the crates, add them to the
            workspace's members (and, with --xtask, a `cargo xtask codegen`)
  {generate}  regenerate the crates of every document in apigen.toml
  check     fail while any generated file is stale, missing or orphaned (for CI)
  diff      list the changes between two versions of a document, and what they break
  mock      serve a document at once as a typed mock (its examples, through the generated
            router, with authentication and the document's checks)
  help      this text; `{program} help COMMAND` or `{program} COMMAND --help` for one command

Global options (before or after the command):
  --config PATH   the apigen.toml to use (default: the nearest from this directory up)
  -V, --version   apigen's version

apigen.toml lists each document with its crates (paths relative to the file):

  [[api]]
  spec = \"openapi.yaml\"   # crate names from `name` (default: the file name; a generic one
                          # such as openapi.yaml: the title, \"OpenAI API\" → openai)
  name = \"petstore\"       # petstore-server, petstore-client (petstore-cli with cli = true)
  out = \"petstore\"        # petstore/server, petstore/client, petstore/cli
";

/// Runs one command line (without the program name); the exit status follows the command
/// (`diff`: 1 when a change breaks clients; every command: 2 for a usage error).
pub fn run(args: &[String], mut inv: Invocation) -> ExitCode {
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--config" => match it.next() {
                Some(path) => inv.config = Some(PathBuf::from(path)),
                None => return usage("--config needs a path"),
            },
            _ => rest.push(arg.clone()),
        }
    }
    let Some((command, args)) = rest.split_first() else {
        print!("{}", inv.fill(HELP));
        return ExitCode::SUCCESS;
    };
    let wants_help = args.iter().any(|a| a == "--help" || a == "-h");
    let command = if command == &inv.generate_word {
        "generate"
    } else {
        command.as_str()
    };
    let help = match command {
        "generate" | "check" => generate::HELP,
        "diff" => diff::HELP,
        "init" => init::HELP,
        "mock" => mock::HELP,
        _ => HELP,
    };
    if wants_help {
        print!("{}", inv.fill(help));
        return ExitCode::SUCCESS;
    }
    let result = match command {
        "generate" => generate::run(args, false, &inv).map(|()| 0),
        "check" => generate::run(args, true, &inv).map(|()| 0),
        "diff" => diff::run(args, &inv),
        "init" => init::run(args, &inv).map(|()| 0),
        "mock" => mock::run(args, &inv),
        "help" | "--help" | "-h" => {
            let topic = args.first().map(String::as_str);
            let text = match topic {
                Some("generate" | "check") => generate::HELP,
                Some(t) if t == inv.generate_word => generate::HELP,
                Some("diff") => diff::HELP,
                Some("init") => init::HELP,
                Some("mock") => mock::HELP,
                _ => HELP,
            };
            print!("{}", inv.fill(text));
            Ok(0)
        }
        "--version" | "-V" | "version" => {
            println!("apigen {}", env!("CARGO_PKG_VERSION"));
            Ok(0)
        }
        other => {
            return usage(&format!(
                "unknown command `{other}`; `{} help` lists the commands",
                inv.program
            ));
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("{message}");
            // `diff` keeps 1 for "a change breaks clients"; a failure there is 2.
            ExitCode::from(if command == "diff" { 2 } else { 1 })
        }
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(2)
}

/// The message for an option a command does not know.
pub(crate) fn unknown_option(option: &str, command: &str, inv: &Invocation) -> String {
    let word = if command == "generate" {
        inv.generate_word.as_str()
    } else {
        command
    };
    format!(
        "unknown option `{option}` for `{} {word}`; `{} {word} --help` lists its options",
        inv.program, inv.program
    )
}

/// `main` of an `xtask` crate (`apigen init --xtask` writes one that calls this): `cargo
/// xtask codegen [--check]` and `cargo xtask diff`, with the apigen version in its Cargo.lock.
pub fn xtask_main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    run(&args, Invocation::xtask())
}
