//! Command-line parsing, by hand: global options may stand before or after the command, and
//! every mistake is a [`UsageError`] naming what was wrong.

use std::fmt;

use petstore_client::Server;

pub const USAGE: &str = "\
petstore-cli: the pet store from the command line

Usage:
  petstore-cli [OPTIONS] list [--status STATUS] [--limit N]
  petstore-cli [OPTIONS] add --name NAME --category ID [--status STATUS]
  petstore-cli [OPTIONS] get ID
  petstore-cli [OPTIONS] orders
  petstore-cli --help

Commands:
  list      List animals, optionally only those with STATUS (available, pending, sold),
            at most N of them (1 to 100; the server's default is 20)
  add       Add an animal named NAME in category ID, optionally with STATUS
  get       Show the animal with this ID (deprecated by the server: use `list`)
  orders    List the store's orders

Options (before or after the command):
  --base-url URL              Server base URL, including its path prefix
                              (e.g. http://127.0.0.1:8080/v1)
  --env production|staging    One of the servers the API description lists
                              (default: production)
  --json                      Print the response body as JSON instead of a table
  -v, --verbose               Print the rate-limit state (remaining/limit) on stderr
  -h, --help                  Print this help

Environment:
  PETSTORE_API_KEY            The API key, sent as `Authorization: Bearer <key>` (required)

Exit status: 0 on success, 1 when the request failed (the server's message is printed),
2 on a usage or configuration error (nothing was sent).
";

/// Where requests go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    BaseUrl(String),
    Env(Server),
}

impl Target {
    pub fn url(&self) -> &str {
        match self {
            Target::BaseUrl(url) => url,
            Target::Env(server) => server.url(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    List {
        status: Option<String>,
        limit: Option<i32>,
    },
    Add {
        name: String,
        category: i64,
        status: Option<String>,
    },
    Get {
        id: i64,
    },
    Orders,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    Help,
    Run {
        command: Command,
        target: Target,
        json: bool,
        verbose: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn usage(message: impl Into<String>) -> UsageError {
    UsageError(message.into())
}

/// The options of the commands, by name; each takes a value.
const COMMAND_OPTIONS: &[(&str, &[&str])] = &[
    ("--status", &["list", "add"]),
    ("--limit", &["list"]),
    ("--name", &["add"]),
    ("--category", &["add"]),
];

const COMMANDS: &[&str] = &["list", "add", "get", "orders"];

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Invocation, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut args = args.into_iter().map(Into::into);
    let mut help = false;
    let mut json = false;
    let mut verbose = false;
    let mut base_url: Option<String> = None;
    let mut env: Option<String> = None;
    let mut options: Vec<(&'static str, String)> = Vec::new();
    let mut positionals: Vec<String> = Vec::new();
    let mut only_positionals = false;

    while let Some(arg) = args.next() {
        if only_positionals || !looks_like_option(&arg) {
            positionals.push(arg);
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        let flag = |inline: &Option<String>| match inline {
            Some(_) => Err(usage(format!("`{name}` takes no value"))),
            None => Ok(true),
        };
        match name.as_str() {
            "--" => only_positionals = true,
            "-h" | "--help" => help = flag(&inline)?,
            "--json" => json = flag(&inline)?,
            "-v" | "--verbose" => verbose = flag(&inline)?,
            "--base-url" | "--env" => {
                let value = value_of(&name, inline, &mut args)?;
                let slot = if name == "--base-url" {
                    &mut base_url
                } else {
                    &mut env
                };
                if slot.replace(value).is_some() {
                    return Err(usage(format!("`{name}` is given more than once")));
                }
            }
            _ => match COMMAND_OPTIONS.iter().find(|(n, _)| *n == name) {
                Some((known, _)) => {
                    let value = value_of(known, inline, &mut args)?;
                    if options.iter().any(|(n, _)| n == known) {
                        return Err(usage(format!("`{known}` is given more than once")));
                    }
                    options.push((known, value));
                }
                None => return Err(usage(format!("unknown option `{name}`"))),
            },
        }
    }

    if help || positionals.first().is_some_and(|p| p == "help") {
        return Ok(Invocation::Help);
    }

    let target = match (base_url, env) {
        (Some(_), Some(_)) => {
            return Err(usage("give either `--base-url` or `--env`, not both"));
        }
        (Some(url), None) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(usage(format!(
                    "`--base-url` must be an http:// or https:// URL, got `{url}`"
                )));
            }
            Target::BaseUrl(url)
        }
        (None, Some(env)) => Target::Env(parse_env(&env)?),
        (None, None) => Target::Env(Server::Production),
    };

    let mut positionals = positionals.into_iter();
    let Some(name) = positionals.next() else {
        return Err(usage("no command given"));
    };
    if !COMMANDS.contains(&name.as_str()) {
        return Err(usage(format!("unknown command `{name}`")));
    }
    for (option, _) in &options {
        let (_, commands) = COMMAND_OPTIONS
            .iter()
            .find(|(n, _)| n == option)
            .expect("only known options are collected");
        if !commands.contains(&name.as_str()) {
            return Err(usage(format!("`{option}` is not an option of `{name}`")));
        }
    }
    let take = |option: &str| {
        options
            .iter()
            .find(|(n, _)| *n == option)
            .map(|(_, v)| v.clone())
    };

    let command = match name.as_str() {
        "list" => Command::List {
            status: take("--status"),
            limit: take("--limit")
                .map(|v| integer("--limit", &v))
                .transpose()?,
        },
        "add" => Command::Add {
            name: take("--name").ok_or_else(|| usage("`add` needs `--name NAME`"))?,
            category: integer(
                "--category",
                &take("--category").ok_or_else(|| usage("`add` needs `--category ID`"))?,
            )?,
            status: take("--status"),
        },
        "get" => {
            let id = positionals
                .next()
                .ok_or_else(|| usage("`get` needs the ID of an animal"))?;
            Command::Get {
                id: id
                    .parse()
                    .map_err(|_| usage(format!("the ID must be an integer, got `{id}`")))?,
            }
        }
        _ => Command::Orders,
    };
    if let Some(extra) = positionals.next() {
        return Err(usage(format!(
            "unexpected argument `{extra}` after `{name}`"
        )));
    }
    Ok(Invocation::Run {
        command,
        target,
        json,
        verbose,
    })
}

/// `-x` and `--x` are options; `-` alone and negative numbers (`get -5`) are not.
fn looks_like_option(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1 && arg.parse::<i64>().is_err()
}

fn value_of(
    name: &str,
    inline: Option<String>,
    args: &mut impl Iterator<Item = String>,
) -> Result<String, UsageError> {
    if let Some(value) = inline {
        return Ok(value);
    }
    match args.next() {
        // `--name --json` is almost certainly a forgotten value; `--name=--json` says otherwise.
        Some(value) if !value.starts_with("--") => Ok(value),
        _ => Err(usage(format!("`{name}` needs a value"))),
    }
}

fn integer<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, UsageError> {
    value
        .trim()
        .parse()
        .map_err(|_| usage(format!("`{option}` must be an integer, got `{value}`")))
}

fn parse_env(name: &str) -> Result<Server, UsageError> {
    match name.to_ascii_lowercase().as_str() {
        "production" => Ok(Server::Production),
        "staging" => Ok(Server::Staging),
        _ => Err(usage(format!(
            "unknown environment `{name}` (expected production or staging)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Invocation, UsageError> {
        parse(args.iter().copied())
    }

    fn command(args: &[&str]) -> Command {
        match run(args).unwrap() {
            Invocation::Run { command, .. } => command,
            Invocation::Help => panic!("help for {args:?}"),
        }
    }

    fn error(args: &[&str]) -> String {
        run(args).unwrap_err().0
    }

    #[test]
    fn commands_and_their_options() {
        assert_eq!(
            command(&["list"]),
            Command::List {
                status: None,
                limit: None
            }
        );
        assert_eq!(
            command(&["list", "--status", "sold", "--limit=5"]),
            Command::List {
                status: Some("sold".into()),
                limit: Some(5)
            }
        );
        assert_eq!(
            command(&["add", "--category", "3", "--name", "Rex Jr."]),
            Command::Add {
                name: "Rex Jr.".into(),
                category: 3,
                status: None
            }
        );
        assert_eq!(command(&["get", "42"]), Command::Get { id: 42 });
        assert_eq!(command(&["get", "-5"]), Command::Get { id: -5 });
        assert_eq!(command(&["get", "--", "7"]), Command::Get { id: 7 });
        assert_eq!(command(&["orders"]), Command::Orders);
    }

    #[test]
    fn global_options_before_or_after_the_command() {
        let expected = Invocation::Run {
            command: Command::Orders,
            target: Target::BaseUrl("http://127.0.0.1:1/v1".into()),
            json: true,
            verbose: true,
        };
        for args in [
            &[
                "--base-url",
                "http://127.0.0.1:1/v1",
                "--json",
                "-v",
                "orders",
            ][..],
            &[
                "orders",
                "--json",
                "--verbose",
                "--base-url=http://127.0.0.1:1/v1",
            ],
            &[
                "--json",
                "orders",
                "-v",
                "--base-url",
                "http://127.0.0.1:1/v1",
            ],
        ] {
            assert_eq!(run(args).unwrap(), expected, "{args:?}");
        }
        match run(&["--env", "Staging", "list"]).unwrap() {
            Invocation::Run { target, .. } => assert_eq!(target, Target::Env(Server::Staging)),
            other => panic!("{other:?}"),
        }
        match run(&["list"]).unwrap() {
            Invocation::Run { target, .. } => {
                assert_eq!(target, Target::Env(Server::Production))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn help_wins() {
        for args in [
            &["--help"][..],
            &["-h"],
            &["help"],
            &["list", "--help"],
            &["frobnicate", "-h"],
        ] {
            assert_eq!(run(args).unwrap(), Invocation::Help, "{args:?}");
        }
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(error(&[]), "no command given");
        assert_eq!(error(&["frobnicate"]), "unknown command `frobnicate`");
        assert_eq!(error(&["list", "--colour"]), "unknown option `--colour`");
        assert_eq!(error(&["list", "--limit"]), "`--limit` needs a value");
        assert_eq!(
            error(&["add", "--name", "--json"]),
            "`--name` needs a value"
        );
        assert_eq!(
            error(&["list", "--limit", "ten"]),
            "`--limit` must be an integer, got `ten`"
        );
        assert_eq!(
            error(&["list", "--name", "Rex"]),
            "`--name` is not an option of `list`"
        );
        assert_eq!(
            error(&["add", "--name", "Rex"]),
            "`add` needs `--category ID`"
        );
        assert_eq!(
            error(&["add", "--category", "1"]),
            "`add` needs `--name NAME`"
        );
        assert_eq!(error(&["get"]), "`get` needs the ID of an animal");
        assert_eq!(error(&["get", "x"]), "the ID must be an integer, got `x`");
        assert_eq!(
            error(&["get", "1", "2"]),
            "unexpected argument `2` after `get`"
        );
        assert_eq!(
            error(&["--env", "dev", "list"]),
            "unknown environment `dev` (expected production or staging)"
        );
        assert_eq!(
            error(&["--env", "staging", "--base-url", "http://x", "list"]),
            "give either `--base-url` or `--env`, not both"
        );
        assert_eq!(
            error(&["--base-url", "localhost:8080", "list"]),
            "`--base-url` must be an http:// or https:// URL, got `localhost:8080`"
        );
        assert_eq!(error(&["--json=yes", "list"]), "`--json` takes no value");
        assert_eq!(
            error(&["list", "--limit", "1", "--limit", "2"]),
            "`--limit` is given more than once"
        );
    }
}
