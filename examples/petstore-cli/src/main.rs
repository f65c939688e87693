//! `petstore-cli`: the pet store from the command line, written on the generated client the
//! way a frontend team would use it. `petstore-cli --help` lists the commands.

mod args;
mod output;

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use args::{Command, Invocation, Target};
use petstore_client::client::{
    CreatePetError, GetPetError, ListOrdersError, ListPetsError, ListPetsOptions,
};
use petstore_client::runtime::response::{deprecation_date, sunset_date};
use petstore_client::types::{self, NewPet, PetStatus};
use petstore_client::{Client, Error, ResponseValue};

const API_KEY_VAR: &str = "PETSTORE_API_KEY";
/// Per attempt, connecting included; the client's retry policy (4 attempts, 30 s of waiting
/// at most) bounds the retries.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Exit status when the request failed.
const FAILED: u8 = 1;
/// Exit status for a usage or configuration error: nothing was sent.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let args: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let args = match args {
        Ok(args) => args,
        Err(bad) => return usage_error(&format!("argument {bad:?} is not valid UTF-8")),
    };
    let (command, target, json, verbose) = match args::parse(args) {
        Ok(Invocation::Help) => return print_stdout(args::USAGE),
        Ok(Invocation::Run {
            command,
            target,
            json,
            verbose,
        }) => (command, target, json, verbose),
        Err(e) => return usage_error(&e.0),
    };

    let key = match std::env::var(API_KEY_VAR) {
        Ok(key) if !key.trim().is_empty() => key.trim().to_owned(),
        Ok(_) | Err(std::env::VarError::NotPresent) => {
            return config_error(&format!(
                "{API_KEY_VAR} is not set; set it to your API key (it is sent as `Authorization: Bearer <key>`)"
            ));
        }
        Err(std::env::VarError::NotUnicode(_)) => {
            return config_error(&format!("{API_KEY_VAR} is not valid UTF-8"));
        }
    };
    if target.url().starts_with("https://") && !cfg!(feature = "tls") {
        return config_error(&format!(
            "{} needs HTTPS, and this petstore-cli was built without it: rebuild with \
             `--features tls`, or pass `--base-url http://...`",
            target.url()
        ));
    }

    let client = Client::builder(target.url())
        .bearer_auth(key)
        .timeout(TIMEOUT)
        .user_agent(concat!("petstore-cli/", env!("CARGO_PKG_VERSION")))
        .build();
    let client = match client {
        Ok(client) => client,
        Err(e) => {
            eprintln!("error: could not set up the HTTP client: {e}");
            return ExitCode::from(FAILED);
        }
    };
    if verbose {
        let which = match &target {
            Target::Env(server) => format!(" ({server:?})"),
            Target::BaseUrl(_) => String::new(),
        };
        eprintln!("server: {}{which}", client.base_url());
    }

    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::from(FAILED);
        }
    };
    match runtime.block_on(run(&client, command, json, verbose)) {
        Ok(stdout) => print_stdout(&stdout),
        Err(Failure(lines)) => {
            for line in lines {
                eprintln!("{line}");
            }
            ExitCode::from(FAILED)
        }
    }
}

/// Runs one command; `Ok` is what to print on stdout. Warnings and `-v` output go to stderr
/// as they happen.
async fn run(
    client: &Client,
    command: Command,
    json: bool,
    verbose: bool,
) -> Result<String, Failure> {
    let base_url = client.base_url();
    match command {
        Command::List { status, limit } => {
            // Built with setters: options the document adds later stay unset.
            let options = ListPetsOptions::default()
                .with_limit(limit)
                .with_status(status.map(pet_status));
            let pets = outcome(client.list_pets_with(options).await, base_url, verbose)?;
            Ok(if json {
                to_json(serde_json::to_string_pretty(&*pets))?
            } else {
                output::pets(&pets)
            })
        }
        Command::Add {
            name,
            category,
            status,
        } => {
            // `new` takes the required fields; optional ones the document adds later stay unset.
            let new = NewPet::new(name, category).with_status(status.map(pet_status));
            let pet = outcome(client.create_pet(&new).await, base_url, verbose)?;
            Ok(if json {
                to_json(serde_json::to_string_pretty(&*pet))?
            } else {
                output::pets(std::slice::from_ref(&*pet))
            })
        }
        Command::Get { id } => {
            // The server deprecates this operation; the user asked for it and is warned.
            #[allow(deprecated)]
            let result = client.get_pet(id).await;
            let headers = match &result {
                Ok(pet) => Some(pet.headers()),
                Err(e) => e.headers(),
            };
            for line in deprecation_warning(headers) {
                eprintln!("{line}");
            }
            let pet = outcome(result, base_url, verbose)?;
            Ok(if json {
                to_json(serde_json::to_string_pretty(&*pet))?
            } else {
                output::pets(std::slice::from_ref(&*pet))
            })
        }
        Command::Orders => {
            let orders = outcome(client.list_orders().await, base_url, verbose)?;
            Ok(if json {
                to_json(serde_json::to_string_pretty(&*orders))?
            } else {
                output::orders(&orders)
            })
        }
    }
}

/// Any status string is sent as given: the server knows which statuses exist (it may know
/// more than this client) and answers an unknown one with a 400 and its message.
fn pet_status(status: String) -> PetStatus {
    let Ok(status) = status.parse();
    status
}

fn to_json(result: serde_json::Result<String>) -> Result<String, Failure> {
    result.map(|text| text + "\n").map_err(|e| {
        Failure(vec![format!(
            "error: could not print the response as JSON: {e}"
        )])
    })
}

/// The lines to print on stderr, then exit with [`FAILED`].
struct Failure(Vec<String>);

/// The typed error bodies of the operations: every documented error answer this CLI knows
/// carries the document's `Error` body. The enums are `non_exhaustive`: a status the document
/// adds later has no arm here (`None`), and is shown as its status and debug form.
trait Documented: std::fmt::Debug {
    fn body(&self) -> Option<&types::Error>;
}

impl Documented for ListPetsError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::BadRequest(e) | Self::Unauthorized(e) | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

impl Documented for CreatePetError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::BadRequest(e)
            | Self::Unauthorized(e)
            | Self::Conflict(e)
            | Self::PayloadTooLarge(e)
            | Self::UnsupportedMediaType(e)
            | Self::UnprocessableEntity(e)
            | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

impl Documented for GetPetError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::BadRequest(e)
            | Self::Unauthorized(e)
            | Self::NotFound(e)
            | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

impl Documented for ListOrdersError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::Unauthorized(e) | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

/// Prints the rate-limit state with `-v` (whenever there was a response), and turns an error
/// into what the user reads.
fn outcome<T, E: Documented>(
    result: Result<ResponseValue<T>, Error<E>>,
    base_url: &str,
    verbose: bool,
) -> Result<ResponseValue<T>, Failure> {
    if verbose {
        let limit = match &result {
            Ok(value) => Some(value.rate_limit()),
            Err(e) => e.headers().map(|_| e.rate_limit()),
        };
        if let Some(limit) = limit {
            eprintln!("{}", output::rate_limit(&limit, SystemTime::now()));
        }
    }
    result.map_err(|e| describe(e, base_url))
}

fn describe<E: Documented>(error: Error<E>, base_url: &str) -> Failure {
    let mut lines = Vec::new();
    let status = error.status();
    match &error {
        Error::Api { status, body, .. } => lines.push(match body.body() {
            Some(e) => server_error(*status, e),
            None => format!("error: the server answered HTTP {status}: {body:?}"),
        }),
        Error::UnexpectedStatus { status, body, .. } => {
            // An undocumented status may still carry the document's error body (a 500 does).
            match serde_json::from_slice::<types::Error>(body) {
                Ok(e) => lines.push(server_error(*status, &e)),
                Err(_) if body.is_empty() => {
                    lines.push(format!("error: the server answered HTTP {status}"));
                }
                Err(_) => lines.push(format!(
                    "error: the server answered HTTP {status}: {}",
                    excerpt(body)
                )),
            }
        }
        Error::Gone {
            status,
            body,
            operation,
            replacement,
            ..
        } => {
            // Past the operation's sunset: the server's words when it sent its error body.
            match serde_json::from_slice::<types::Error>(body) {
                Ok(e) => lines.push(server_error(*status, &e)),
                Err(_) => lines.push(format!(
                    "error: {operation} has been removed (HTTP {})",
                    status.as_u16()
                )),
            }
            if let Some(replacement) = replacement {
                lines.push(format!("hint: use {} instead", command_for(replacement)));
            }
        }
        Error::Decode {
            status,
            body,
            message,
            ..
        } => {
            lines.push(format!(
                "error: could not read the server's HTTP {status} response: {message}"
            ));
            if !body.is_empty() {
                lines.push(format!("response body: {}", excerpt(body)));
            }
        }
        Error::Transport(e) => {
            lines.push(format!("error: could not reach {base_url}: {}", chain(e)))
        }
        Error::InvalidRequest(m) => lines.push(format!("error: could not send the request: {m}")),
    }
    if status.is_some_and(|s| s.as_u16() == 429) {
        lines.push(match error.retry_after() {
            Some(delay) => format!(
                "retry after {} (the server's Retry-After)",
                output::seconds(delay)
            ),
            None => "the server did not say when to retry (no usable Retry-After)".to_owned(),
        });
    }
    Failure(lines)
}

/// The command that runs an operation, for hints (`listPets` → `petstore-cli list`).
fn command_for(operation_id: &str) -> String {
    let command = match operation_id {
        "listPets" => "list",
        "createPet" => "add",
        "getPet" => "get",
        "listOrders" => "orders",
        other => return format!("the operation {other}"),
    };
    format!("`petstore-cli {command}`")
}

/// `error: <message> (<code>, HTTP <status>)`: the server's own words first.
fn server_error(status: http::StatusCode, body: &types::Error) -> String {
    format!(
        "error: {} ({}, HTTP {})",
        body.message,
        body.code,
        status.as_u16()
    )
}

/// A bounded, lossy view of a body (bodies can be large or binary).
fn excerpt(body: &[u8]) -> String {
    const MAX: usize = 300;
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX)]);
    let text = text.trim();
    if body.len() > MAX {
        format!("{text}...")
    } else {
        text.to_owned()
    }
}

/// An error and its causes, `: `-separated (reqwest puts the useful part in the causes).
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let words = cause.to_string();
        if !text.contains(&words) {
            text.push_str(": ");
            text.push_str(&words);
        }
        source = cause.source();
    }
    text
}

/// The warning `get` prints: when the operation was deprecated, when it goes away and what
/// replaces it, from the response's `Deprecation`, `Sunset` and `Link` headers.
fn deprecation_warning(headers: Option<&http::HeaderMap>) -> Vec<String> {
    let since = headers.and_then(deprecation_date).map(output::date);
    let sunset = headers.and_then(sunset_date).map(output::date);
    let successor = headers.and_then(successor_link);
    let mut first = "warning: `get` (GET /pets/{petId}) is deprecated".to_owned();
    if let Some(since) = since {
        first.push_str(&format!(" since {since}"));
    }
    match sunset {
        Some(sunset) => first.push_str(&format!(" and will be removed on {sunset}")),
        None => first.push_str(" and will be removed"),
    }
    let mut lines = vec![first];
    if let Some(link) = successor {
        let hint = if link.trim_end_matches('/').ends_with("/pets") {
            "; use `petstore-cli list [--status STATUS]` instead"
        } else {
            ""
        };
        lines.push(format!("warning: its replacement is {link}{hint}"));
    }
    lines
}

/// The target of the `Link` entry with `rel="successor-version"`.
fn successor_link(headers: &http::HeaderMap) -> Option<String> {
    headers
        .get_all(http::header::LINK)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|entry| {
            let (target, params) = entry.trim().split_once(';')?;
            let target = target.trim().strip_prefix('<')?.strip_suffix('>')?;
            params
                .split(';')
                .filter_map(|p| p.trim().split_once('='))
                .any(|(name, value)| {
                    name.trim().eq_ignore_ascii_case("rel")
                        && value
                            .trim()
                            .trim_matches('"')
                            .split_ascii_whitespace()
                            .any(|r| r.eq_ignore_ascii_case("successor-version"))
                })
                .then(|| target.to_owned())
        })
}

/// The error, the synopsis (the help's `Usage:` paragraph) and where to read more.
fn usage_error(message: &str) -> ExitCode {
    let synopsis = args::USAGE
        .split("\n\n")
        .find(|paragraph| paragraph.starts_with("Usage:"))
        .unwrap_or_default();
    eprintln!("error: {message}\n\n{synopsis}\n\nRun `petstore-cli --help` for the options.");
    ExitCode::from(USAGE)
}

fn config_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(USAGE)
}

/// Writes to stdout; a closed pipe (`petstore-cli list | head -1`) is not an error.
fn print_stdout(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not write the output: {e}");
            ExitCode::from(FAILED)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn deprecation_warning_from_headers() {
        let h = headers(&[
            ("deprecation", "@1795305600"),
            ("sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
            ("link", "</v1/pets>; rel=\"successor-version\""),
        ]);
        assert_eq!(
            deprecation_warning(Some(&h)),
            [
                "warning: `get` (GET /pets/{petId}) is deprecated since 2026-11-22 and will be removed on 2030-12-05",
                "warning: its replacement is /v1/pets; use `petstore-cli list [--status STATUS]` instead",
            ]
        );
        assert_eq!(
            deprecation_warning(None),
            ["warning: `get` (GET /pets/{petId}) is deprecated and will be removed"]
        );
    }

    #[test]
    fn successor_among_several_links() {
        let h = headers(&[
            (
                "link",
                "</docs>; rel=\"help\", <https://x.example/v2/pets>; rel=\"latest-version successor-version\"",
            ),
            ("link", "</other>; rel=next"),
        ]);
        assert_eq!(
            successor_link(&h).as_deref(),
            Some("https://x.example/v2/pets")
        );
        assert_eq!(
            successor_link(&headers(&[("link", "</a>; rel=next")])),
            None
        );
        assert_eq!(successor_link(&headers(&[("link", "garbage")])), None);
    }

    #[test]
    fn excerpts_are_bounded() {
        assert_eq!(excerpt(b" short \n"), "short");
        let long = vec![b'a'; 1000];
        assert_eq!(excerpt(&long).len(), 303);
    }
}
