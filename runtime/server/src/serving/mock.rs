//! The spec-independent part of a generated server's `mock` module (feature `mock`): the
//! values its answers are made of, and the program that serves it (`<crate>-mock`).
//!
//! The generator writes, per operation, candidate values as JSON (the document's examples,
//! then values made from the types); [`value`] and [`checked`] take the first that decodes
//! into the answer's Rust type and, for types with checks, passes them, so what the mock
//! sends went through the same types and serializer as a real implementation's answer.
//! [`main`] serves the mock through the generated router: authentication, the document's
//! checks, rate limits and the error body are the real service's.
//!
//! Decision: `docs/decisions/0005-the-mock.md`.

use std::fmt;
use std::net::SocketAddr;
use std::process::ExitCode;

use axum::Router;
use serde::de::DeserializeOwned;

use super::auth::{Authenticator, Credential, Principal, SecurityScheme, StaticKeys};
use super::cors::Cors;
use super::integer;
use super::layer::ServerConfig;
use super::problem::Problem;
use super::ratelimit::RateLimitPolicy;
use super::validate::{Validate, Violations};
use std::pin::Pin;

/// Why the mock has no answer: no candidate fits the type (every reason, in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockError(pub String);

impl fmt::Display for MockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl MockError {
    /// The 500 the mock answers with, saying why (a mock is a development tool: its reasons
    /// are the point, unlike a service's internals).
    pub fn problem(&self) -> Problem {
        Problem::new(
            http::StatusCode::INTERNAL_SERVER_ERROR,
            "mock_has_no_value",
            self.0.clone(),
        )
    }
}

/// The first candidate (JSON text) that decodes into `T`; `what` names the answer in the
/// error (`getPet: 200 body`).
pub fn value<T: DeserializeOwned>(what: &str, candidates: &[&str]) -> Result<T, MockError> {
    first(what, candidates, |_: &T| Ok(()))
}

/// The first candidate that decodes into `T` and passes its checks.
pub fn checked<T: DeserializeOwned + Validate>(
    what: &str,
    candidates: &[&str],
) -> Result<T, MockError> {
    first(what, candidates, |v: &T| {
        let mut out = Violations::new();
        v.validate("", &mut out);
        out.check().map_err(|p| p.message)
    })
}

fn first<T: DeserializeOwned>(
    what: &str,
    candidates: &[&str],
    check: impl Fn(&T) -> Result<(), String>,
) -> Result<T, MockError> {
    let mut why = Vec::new();
    for (i, text) in candidates.iter().enumerate() {
        match integer::from_slice::<T>(text.as_bytes()) {
            Ok(v) => match check(&v) {
                Ok(()) => return Ok(v),
                Err(e) => why.push(format!("candidate {}: {e}", i + 1)),
            },
            Err(e) => why.push(format!("candidate {}: {e}", i + 1)),
        }
    }
    let message = format!(
        "the mock has no value for {what} that fits its type: {}",
        why.join("; ")
    );
    eprintln!("mock: {message}");
    Err(MockError(message))
}

/// How the mock program was asked to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockArgs {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The API key (bearer token, or the value of an API-key scheme) it accepts.
    pub key: String,
    /// The rate-limit plan of the key (the document's default plan when `None`).
    pub plan: Option<String>,
    /// Origins allowed by CORS (`*` for any); none: CORS off.
    pub cors: Vec<String>,
    /// No replay of answers per `Idempotency-Key`; `false` with `--idempotency`, which
    /// replays as the service does. Set by default: a mock serves tools and people trying the
    /// document, which send one key with different bodies (schemathesis does) and would get
    /// the draft's 422 instead of what the document describes; the service's `ServerConfig`
    /// has replay on.
    pub no_idempotency: bool,
}

/// The usage of a mock program (`{program}` is its name).
pub const USAGE: &str = "\
Usage: {program} [--port N | --addr HOST:PORT] [--key KEY] [--plan NAME] [--cors-origin ORIGIN]...
                 [--idempotency]

Serves the document's operations from its examples (or values made from its schemas) through
the generated router: authentication, the document's checks, rate limits and the error body
are the real service's.

  --port N              port on 127.0.0.1 (default 8080; 0 picks a free one)
  --addr HOST:PORT      the address to listen on instead
  --key KEY             the API key (or bearer token) callers present (default: a fresh one,
                        printed)
  --plan NAME           the key's plan in the document's x-rate-limit (default: its default)
  --cors-origin ORIGIN  let a browser page from ORIGIN call it (`*` for any); repeatable
  --idempotency         replay answers per Idempotency-Key as the service does (off by
                        default: the key is then checked as the document declares it, and
                        nothing more; `--no-idempotency` is accepted and changes nothing)
";

impl MockArgs {
    /// Reads the command line (without the program name).
    pub fn parse(args: &[String]) -> Result<MockArgs, String> {
        let mut parsed = MockArgs {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            key: String::new(),
            plan: None,
            cors: Vec::new(),
            no_idempotency: true,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |what: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{arg} needs {what}"))
            };
            match arg.as_str() {
                "--port" => {
                    let port = value("a port number")?;
                    let port: u16 = port
                        .parse()
                        .map_err(|_| format!("--port: `{port}` is not a port number"))?;
                    parsed.addr.set_port(port);
                }
                "--addr" => {
                    let addr = value("HOST:PORT")?;
                    parsed.addr = addr
                        .parse()
                        .map_err(|_| format!("--addr: `{addr}` is not HOST:PORT"))?;
                }
                "--key" => parsed.key = value("a key")?,
                "--plan" => parsed.plan = Some(value("a plan name")?),
                "--cors-origin" => parsed.cors.push(value("an origin")?),
                "--idempotency" => parsed.no_idempotency = false,
                "--no-idempotency" => parsed.no_idempotency = true,
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        if parsed.key.is_empty() {
            parsed.key = fresh_key();
        }
        Ok(parsed)
    }

    /// The configuration the mock is served with.
    pub fn config(&self, policy: Option<RateLimitPolicy>) -> Result<ServerConfig, String> {
        let plan = self
            .plan
            .clone()
            .or_else(|| policy.as_ref().map(|p| p.default_plan.clone()));
        if let (Some(plan), Some(policy)) = (&plan, &policy)
            && !policy.plans.contains_key(plan)
        {
            let known: Vec<&str> = policy.plans.keys().map(String::as_str).collect();
            return Err(format!(
                "--plan: the document has no plan `{plan}` (it has {})",
                known.join(", ")
            ));
        }
        let keys = MockKeys {
            keys: StaticKeys::new().with_key(&self.key, "mock", plan.as_deref()),
            key: self.key.clone(),
            plan,
        };
        let mut config = ServerConfig::new().authenticator(keys);
        if let Some(policy) = policy {
            config = config.rate_limit_in_memory(policy);
        }
        if !self.cors.is_empty() {
            let cors = if self.cors.iter().any(|o| o == "*") {
                Cors::any_origin()
            } else {
                self.cors
                    .iter()
                    .fold(Cors::builder(), |b, o| b.allow_origin(o.clone()))
                    .build()
                    .map_err(|e| format!("--cors-origin: {e}"))?
            };
            config = config.cors(cors);
        }
        if self.no_idempotency {
            config = config.without_idempotency();
        }
        Ok(config)
    }
}

/// The mock's one credential, whatever the document's schemes: the key as a bearer token or
/// API key ([`StaticKeys`], compared in constant time), or as the password of HTTP basic
/// authentication under any user name.
struct MockKeys {
    keys: StaticKeys,
    key: String,
    plan: Option<String>,
}

impl MockKeys {
    fn basic(&self, scheme: &SecurityScheme, password: &str) -> Option<Principal> {
        // A password compared as `StaticKeys` compares keys: through its constant-time lookup.
        let probe = StaticKeys::new().with_key(password, "mock", self.plan.as_deref());
        probe
            .authenticate_sync(scheme, Credential::ApiKey(&self.key))
            .flatten()
    }
}

impl Authenticator for MockKeys {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        Box::pin(std::future::ready(
            self.authenticate_sync(scheme, credential).flatten(),
        ))
    }

    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        Some(match credential {
            Credential::Basic { password, .. } => self.basic(scheme, password),
            other => self.keys.authenticate_sync(scheme, other).flatten(),
        })
    }
}

/// A key no one guesses: the clock's nanoseconds and the process id, mixed.
fn fresh_key() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mixed =
        (nanos ^ (u128::from(std::process::id()) << 64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    format!("mock-{:032x}", mixed)
}

/// The mock program: reads the command line, serves `app(config)` (the generated `router`
/// around the mock) until killed, printing `… listening on http://ADDR/BASE` first. Exit
/// status 2 for a usage error, 1 when it cannot listen.
pub fn main(
    program: &str,
    title: &str,
    base_path: &str,
    policy: Option<RateLimitPolicy>,
    app: impl FnOnce(ServerConfig) -> Router,
) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", USAGE.replace("{program}", program));
        return ExitCode::SUCCESS;
    }
    let parsed = match MockArgs::parse(&args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("{program}: {e}\n\n{}", USAGE.replace("{program}", program));
            return ExitCode::from(2);
        }
    };
    let config = match parsed.config(policy) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{program}: {e}");
            return ExitCode::from(2);
        }
    };
    let base = config.base_path_or(base_path);
    let app = app(config.clone());
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("{program}: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(parsed.addr).await?;
        let addr = listener.local_addr()?;
        println!("{title} mock listening on http://{addr}{base}");
        println!("key: {}", parsed.key);
        super::serve::serve(listener, app, &config, std::future::pending()).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{program}: cannot serve on {}: {e}", parsed.addr);
            ExitCode::FAILURE
        }
    }
}
