//! What every generated command-line client shares (it names this crate `support`): the
//! global flags, reading flag values and bodies into the client's types, printing answers (a table, or JSON with `--json`), warnings, and exit codes.
//!
//! Exit codes: 0 when the call succeeded; 1 when it failed (an error answer, a transport
//! error); 2 for a usage or configuration error, when nothing was sent.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub mod progress;
pub mod upload;

/// Exit status when the request failed.
pub const FAILED: u8 = 1;
/// Exit status for a usage or configuration error: nothing was sent.
pub const USAGE: u8 = 2;

/// How the command ends early: the status to exit with, the message already printed.
pub type Exit = ExitCode;

/// The help heading of the flags every subcommand has.
const GLOBAL: &str = "Global options";
/// The help heading of `--body`, `--body-file` and the body's property flags.
pub const BODY: &str = "Request body";

/// `--base-url`, `--env`, `--json`, `-v`, `--header`, `--timeout` and `--raw`, on the
/// top-level command.
pub fn global_args(cmd: Command, servers: &[&'static str]) -> Command {
    let env = Arg::new("env")
        .long("env")
        .global(true)
        .help_heading(GLOBAL)
        .value_name("SERVER")
        .help(format!(
            "The document's server to call: {} (default: the first)",
            servers.join(", ")
        ));
    cmd.arg(
        Arg::new("base-url")
            .help_heading(GLOBAL)
            .long("base-url")
            .global(true)
            .value_name("URL")
            .help("Call this base URL instead of a server of the document")
            .conflicts_with("env"),
    )
    .arg(env)
    .arg(
        Arg::new("json")
            .help_heading(GLOBAL)
            .long("json")
            .global(true)
            .action(ArgAction::SetTrue)
            .help("Print the answer as JSON instead of a table"),
    )
    .arg(
        Arg::new("verbose")
            .help_heading(GLOBAL)
            .short('v')
            .long("verbose")
            .global(true)
            .action(ArgAction::SetTrue)
            .help("Print the server and the rate-limit state (to stderr)"),
    )
    .arg(
        Arg::new("header")
            .help_heading(GLOBAL)
            .short('H')
            .long("header")
            .global(true)
            .value_name("NAME: VALUE")
            .action(ArgAction::Append)
            .help("Send this header too, replacing one of the same name (repeatable)"),
    )
    .arg(
        Arg::new("timeout")
            .help_heading(GLOBAL)
            .long("timeout")
            .global(true)
            .value_name("SECONDS")
            .help("Give up on an attempt after this many seconds (default 60)"),
    )
    .arg(
        Arg::new("raw")
            .help_heading(GLOBAL)
            .long("raw")
            .global(true)
            .action(ArgAction::SetTrue)
            .help("Write the answer's body exactly as received, to stdout (an error's too)"),
    )
}

/// How an answer is shown besides `--json`: `-v`'s extras and `--raw`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Output {
    /// `--verbose`: the server and the rate-limit state are printed too (to stderr).
    pub verbose: bool,
    /// `--raw`: the body is written as received, not printed from its type.
    pub raw: bool,
}

impl Output {
    pub fn from_matches(m: &ArgMatches) -> Output {
        Output {
            verbose: m.get_flag("verbose"),
            raw: m.get_flag("raw"),
        }
    }
}

/// The `--header` values as (name, value), each checked as HTTP allows.
pub fn headers(m: &ArgMatches) -> Result<Vec<(String, String)>, Exit> {
    let mut out = Vec::new();
    for given in m.get_many::<String>("header").into_iter().flatten() {
        let Some((name, value)) = given.split_once(':') else {
            return Err(usage(&format!("--header {given}: expected `NAME: VALUE`")));
        };
        let (name, value) = (name.trim(), value.trim());
        if http::HeaderName::from_bytes(name.as_bytes()).is_err()
            || http::HeaderValue::from_str(value).is_err()
        {
            return Err(usage(&format!(
                "--header {given}: not a valid header name and value"
            )));
        }
        out.push((name.to_owned(), value.to_owned()));
    }
    Ok(out)
}

/// The `--timeout`, when given: a positive number of seconds.
pub fn timeout(m: &ArgMatches) -> Result<Option<std::time::Duration>, Exit> {
    let Some(text) = m.get_one::<String>("timeout") else {
        return Ok(None);
    };
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() => {
            Ok(Some(std::time::Duration::from_secs_f64(secs)))
        }
        _ => Err(usage(&format!(
            "--timeout {text}: expected a positive number of seconds"
        ))),
    }
}

/// The base URL chosen (`--base-url`, or a server of the document), checked before anything
/// is sent: a relative URL (a document that names a path but no host, such as Swagger 2.0's
/// `basePath` alone) cannot be called, so it is a usage error that says what to pass.
pub fn base_url(url: String) -> Result<String, Exit> {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Ok(url);
    }
    let example = if url.starts_with('/') {
        format!("http://HOST{url}")
    } else {
        "http://HOST/…".to_owned()
    };
    Err(usage(&format!(
        "the server `{url}` is not an absolute http(s) URL (the document names no host): pass --base-url {example}"
    )))
}

/// `--body` and `--body-file` for an operation with a JSON request body.
pub fn body_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("body")
            .help_heading(BODY)
            .long("body")
            .value_name("JSON")
            .help("The request body as JSON, `@FILE` to read it from a file, `-` from standard input (the property flags set or replace its properties)"),
    )
    .arg(
        Arg::new("body-file")
            .help_heading(BODY)
            .long("body-file")
            .value_name("PATH")
            .conflicts_with("body")
            .help("Read the request body from this JSON file (`-`: standard input)"),
    )
}

/// A usage error: printed, and status 2.
pub fn usage(message: &str) -> Exit {
    eprintln!("error: {message}");
    ExitCode::from(USAGE)
}

/// A failure after the call (the answer could not be written): printed, and status 1.
pub fn failed(message: &str) -> Exit {
    eprintln!("error: {message}");
    ExitCode::from(FAILED)
}

/// `--output FILE`, for a subcommand whose answer is bytes (audio, an image, a file).
pub fn output_arg(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("output")
            .long("output")
            .short('o')
            .value_name("FILE")
            .help("Write the answer's bytes to FILE (`-`: standard output) instead of standard output"),
    )
}

/// Writes an answer that is bytes as it is: to `output` (a file; `-` is standard output), or
/// to standard output. Not to a terminal: bytes of `media` there would garble it, so a note
/// on stderr says how many there are and how to keep them (as curl does).
pub fn write_bytes(bytes: &[u8], output: Option<&str>, media: &str) -> Result<(), String> {
    match output {
        Some(path) if path != "-" => {
            std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}"))
        }
        Some(_) => write_stdout(bytes),
        None if std::io::stdout().is_terminal() => {
            eprintln!(
                "note: the answer is {} bytes of `{media}`, not shown on a terminal; write them with --output FILE or by redirecting standard output",
                bytes.len()
            );
            Ok(())
        }
        None => write_stdout(bytes),
    }
}

fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// The text of a flag as JSON when it is JSON (`5`, `true`, `["a"]`), else as a string.
fn as_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// A flag's value read into `T`: as JSON (`--limit 5`, `--ids [1,2]`), or as a string
/// (`--name Rex`, `--status available`, `--id 0042` for a string id).
fn read<T: DeserializeOwned>(flag: &str, text: &str) -> Result<T, Exit> {
    serde_json::from_value(as_json(text))
        .or_else(|_| serde_json::from_value(Value::String(text.to_owned())))
        // One value where the parameter takes one or several (`oneOf: [string, array of
        // string]`, typed as a list): a list of that one.
        .or_else(|e| {
            serde_json::from_value(Value::Array(vec![as_json(text)]))
                .or_else(|_| {
                    serde_json::from_value(Value::Array(vec![Value::String(text.to_owned())]))
                })
                .map_err(|_| e)
        })
        .map_err(|e| usage(&format!("--{flag}: `{text}` is not a valid value ({e})")))
}

/// An optional flag's value, `None` when the flag is absent.
pub fn optional<T: DeserializeOwned>(m: &ArgMatches, flag: &str) -> Result<Option<T>, Exit> {
    m.get_one::<String>(flag)
        .map(|text| read(flag, text))
        .transpose()
}

/// A required flag's value (clap has already refused a missing one).
pub fn required<T: DeserializeOwned>(m: &ArgMatches, flag: &str) -> Result<T, Exit> {
    optional(m, flag)?.ok_or_else(|| usage(&format!("--{flag} is required")))
}

/// The request body: `--body` or `--body-file` (or standard input, when it is not a
/// terminal and nothing else gave a body), with the field flags (`(flag, property)`) set on
/// top. `None` when nothing gave a body at all.
pub fn body<T: DeserializeOwned>(
    m: &ArgMatches,
    fields: &[(&str, &str)],
) -> Result<Option<T>, Exit> {
    let mut given = false;
    let mut value = match (
        m.get_one::<String>("body"),
        m.get_one::<String>("body-file"),
    ) {
        // `--body @file.json` and `--body -` read the JSON from a file or standard input,
        // as curl's `--data @file` does.
        (Some(text), _) if text == "-" || text.starts_with('@') => {
            given = true;
            let text = match text.strip_prefix('@') {
                Some(path) => std::fs::read_to_string(path)
                    .map_err(|e| usage(&format!("--body @{path}: {e}")))?,
                None => {
                    let mut text = String::new();
                    std::io::stdin()
                        .read_to_string(&mut text)
                        .map_err(|e| usage(&format!("cannot read standard input: {e}")))?;
                    text
                }
            };
            serde_json::from_str(&text).map_err(|e| usage(&format!("--body: not JSON: {e}")))?
        }
        (Some(text), _) => {
            given = true;
            serde_json::from_str(text).map_err(|e| usage(&format!("--body: not JSON: {e}")))?
        }
        (None, Some(path)) => {
            given = true;
            let text = if path == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| usage(&format!("cannot read standard input: {e}")))?;
                text
            } else {
                std::fs::read_to_string(path)
                    .map_err(|e| usage(&format!("--body-file {path}: {e}")))?
            };
            serde_json::from_str(&text)
                .map_err(|e| usage(&format!("--body-file {path}: not JSON: {e}")))?
        }
        (None, None) => Value::Object(serde_json::Map::new()),
    };
    for (flag, property) in fields {
        if let Some(text) = m.get_one::<String>(flag) {
            given = true;
            let Value::Object(map) = &mut value else {
                return Err(usage(&format!(
                    "--{flag} sets a property, but the body given is not a JSON object"
                )));
            };
            map.insert((*property).to_owned(), as_json(text));
        }
    }
    if !given && !std::io::stdin().is_terminal() {
        // Nothing on the command line: a body piped in (`… < pet.json`) is the body, of any
        // JSON type (a list for an array body).
        let mut text = String::new();
        if std::io::stdin().read_to_string(&mut text).is_ok() && !text.trim().is_empty() {
            given = true;
            value = serde_json::from_str(&text)
                .map_err(|e| usage(&format!("standard input: not JSON: {e}")))?;
        }
    }
    if !given {
        return Ok(None);
    }
    serde_json::from_value(value)
        .map(Some)
        .map_err(|e| usage(&format!("the request body does not fit the document: {e}")))
}

/// Prints a successful answer: JSON with `--json`, else a table for a list of objects, one
/// `field: value` line per field for an object, the value itself for the rest.
pub fn print_value<T: Serialize>(value: &T, json: bool) {
    let value = match serde_json::to_value(value) {
        Ok(value) => value,
        Err(e) => {
            eprintln!("warning: the answer cannot be shown as JSON: {e}");
            return;
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
        return;
    }
    match &value {
        Value::Null => {}
        Value::Array(rows) if rows.iter().all(Value::is_object) && !rows.is_empty() => {
            print!("{}", table(rows));
        }
        Value::Array(rows) if rows.is_empty() => println!("(none)"),
        Value::Object(map) => {
            for (key, v) in map {
                println!("{key}: {}", cell(v));
            }
        }
        other => println!("{}", cell(other)),
    }
}

/// A value in one table cell: strings without quotes, the rest as compact JSON.
fn cell(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Rows of objects as an aligned table, the columns in the order the keys first appear.
fn table(rows: &[Value]) -> String {
    let mut columns: Vec<&str> = Vec::new();
    for row in rows {
        for key in row.as_object().into_iter().flat_map(|m| m.keys()) {
            if !columns.contains(&key.as_str()) {
                columns.push(key);
            }
        }
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                // `-` for a field the row does not have (or has as `null`): a blank would
                // shift the eye to the next column.
                .map(|c| match row.get(c) {
                    None | Some(Value::Null) => "-".to_owned(),
                    Some(v) => cell(v),
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            cells
                .iter()
                .map(|r| r[i].chars().count())
                .chain([c.len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |values: Vec<&str>| -> String {
        let padded: Vec<String> = values
            .iter()
            .zip(&widths)
            .map(|(v, w)| format!("{v:<w$}"))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(
        columns
            .iter()
            .map(|c| c.to_uppercase())
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
    );
    for row in &cells {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// The rate-limit state, for `-v`.
pub fn print_rate_limit(
    limit: Option<u64>,
    remaining: Option<u64>,
    reset: Option<std::time::SystemTime>,
) {
    let reset = reset
        .and_then(|r| r.duration_since(std::time::SystemTime::now()).ok())
        .map(|d| format!(", window resets in {} s", d.as_secs()))
        .unwrap_or_default();
    match (remaining, limit) {
        (Some(remaining), Some(limit)) => {
            eprintln!("rate limit: {remaining} of {limit} requests left{reset}");
        }
        _ => eprintln!("rate limit: not reported by the server"),
    }
}

/// The `Deprecation`/`Sunset` headers of an answer, as a warning.
pub fn warn_deprecation(operation: &str, headers: &http::HeaderMap) {
    if headers.get("deprecation").is_none() && headers.get("sunset").is_none() {
        return;
    }
    let sunset = headers
        .get("sunset")
        .and_then(|v| v.to_str().ok())
        .map(|s| format!("; the server removes it on {s}"))
        .unwrap_or_default();
    eprintln!("warning: `{operation}` is deprecated{sunset}");
}

/// A success whose status the document does not list for the operation (read as its
/// documented success), as a warning.
pub fn warn_undocumented(operation: &str, status: http::StatusCode) {
    eprintln!(
        "warning: the server answered {status}, a status the document does not list for `{operation}`; read as its documented success"
    );
}

/// `--raw`: the body as received, to standard output.
pub fn write_raw(body: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(body).and_then(|()| out.flush());
}

/// An answer whose body did not decode: which answer, where in its value, and the body as
/// received (its first 2,000 bytes), so that the server's fault (or the document's) can be
/// seen; `path` is the JSON pointer of the value that failed (empty: the whole body), and
/// how long to wait when the answer said (`Retry-After`).
pub fn print_decode_error(
    status: http::StatusCode,
    (path, message): (&str, &str),
    body: &[u8],
    retry_after: Option<std::time::Duration>,
) {
    const SHOWN: usize = 2000;
    let at = if path.is_empty() {
        String::new()
    } else {
        format!(" at {path}")
    };
    let wait = retry_after
        .map(|d| format!("; retry after {} s", d.as_secs().max(1)))
        .unwrap_or_default();
    eprintln!("error: could not decode the {status} answer{at}: {message}{wait}");
    if !body.is_empty() {
        let text = String::from_utf8_lossy(&body[..body.len().min(SHOWN)]);
        let more = if body.len() > SHOWN { "…" } else { "" };
        eprintln!("the answer was: {text}{more}");
    }
}

/// A failed call on stderr: the status, and the server's `message` and `code` when its body
/// has them (the document's error shape, or a problem+json `detail`), else `fallback` (the
/// client's description); and how long to wait when the answer said (`Retry-After`).
pub fn print_error(
    status: Option<http::StatusCode>,
    retry_after: Option<std::time::Duration>,
    body: Option<Value>,
    fallback: &str,
) {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let said = body.as_ref().and_then(|b| {
        let message = text(b, "message").or_else(|| text(b, "detail"))?;
        Some(match text(b, "code").or_else(|| text(b, "title")) {
            Some(code) => format!("{message} ({code})"),
            None => message,
        })
    });
    let wait = retry_after
        .map(|d| format!("; retry after {} s", d.as_secs().max(1)))
        .unwrap_or_default();
    match (status, said) {
        (Some(status), Some(said)) => eprintln!("error: {status}: {said}{wait}"),
        _ => eprintln!("error: {fallback}{wait}"),
    }
}
