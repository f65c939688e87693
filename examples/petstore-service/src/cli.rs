//! The binary's command line, parsed by hand (a handful of options do not need a parser crate).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use std::path::PathBuf;
use std::time::Duration;

use petstore_server::{Cors, Limits, WhenUnavailable};

use crate::Plan;
use crate::storage::Backend;

/// Where the binary listens unless `--addr` says otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

pub const USAGE: &str = "\
petstore-service: the reference pet store service (spec/petstore.yaml).

Usage: petstore-service [--addr HOST:PORT] [--api-key KEY=PLAN]... [--cors-origin ORIGIN]... [--log-format text|json] [--metrics-addr HOST:PORT] [--otlp-endpoint URL] [STORAGE] [LIMITS]

Options:
  --addr HOST:PORT     where to listen (default 127.0.0.1:8080; port 0 picks a free port)
  --api-key KEY=PLAN   accept KEY as a bearer token on PLAN, one of free, pro, business,
                       enterprise (repeatable). Without any, a random demo key on the free
                       plan is made and printed at start.
  --cors-origin ORIGIN let pages from ORIGIN (scheme://host[:port], e.g.
                       http://localhost:8000) call the service from a browser (CORS;
                       repeatable); `*` allows any origin. Off by default.
  --no-idempotency     ignore Idempotency-Key (nothing stored or replayed); used by the
                       conformance run, whose generator reuses one key for different bodies
  --metrics-addr HOST:PORT
                       serve the metrics in Prometheus text format at GET /metrics on a
                       listener of their own (port 0 picks a free port); off by default
  --otlp-endpoint URL  export each request's span over OTLP/HTTP (protobuf) to the collector
                       at URL (e.g. http://127.0.0.1:4318; /v1/traces is added unless
                       given); needs a binary built with `--features otlp`
  --log-format text|json
                       how log lines are written to stderr: text for people (the default),
                       json for a log pipeline, one object a line with the span's fields
                       (request id, operation, plan) beside the event's
  -h, --help           print this help

Storage (pets kept across restarts; one of):
  --db PATH            a SQLite file, created on first run (default: petstore.db in the
                       current directory); for one instance
  --database-url URL   PostgreSQL (postgres://USER:PASSWORD@HOST:PORT/DATABASE): for several
                       instances sharing their pets; the schema is created at start
  --in-memory          keep pets in memory only (lost when the service stops)

Several instances (see the book, book/src/guide/production.md):
  --redis URL          keep rate limits, bans and Idempotency-Key responses in Redis
                       (redis://HOST:PORT/DB), shared by every instance using it
  --redis-unavailable allow|refuse
                       when Redis does not answer in time: serve without a limit
                       (allow, the default) or answer 503 (refuse)
  --redis-timeout SECS the longest a request waits for Redis, connecting included, before
                       --redis-unavailable decides (default 0.1)

Limits (what a client may send, and how slowly; 0 turns a timeout or the connection limit off):
  --max-request-target BYTES  longest path and query; longer answers 414 (default 8192)
  --max-header-bytes BYTES    largest header section; larger answers 431 (default 32768)
  --head-timeout SECS         time to send a request head, and how long an idle connection
                              is kept; 408 and closed after it (default 10)
  --body-timeout SECS         time to send a request body once it is read; 408 (default 30)
  --max-connections N         connections served at once; more wait (default 10000)

Routes live under /v1 (e.g. GET http://127.0.0.1:8080/v1/pets); GET /healthz answers 200
while the process runs, GET /readyz 200 while the database (and Redis) answer, else 503
with the Error body; neither needs a key. GET /openapi.json and /openapi.yaml answer the
document (spec/petstore.yaml), /openapi.html a page listing its operations. Each answer
carries X-Request-Id. Logs go to stderr;
RUST_LOG sets the level (default: info). Ctrl-C or SIGTERM stops the service gracefully.
";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
// Made once per process: the size of the unused variant does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    Serve(Options),
    Help,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `HOST:PORT`, resolved when binding.
    pub addr: String,
    /// The keys from `--api-key`, in order. Empty: the binary makes a demo key.
    pub keys: Vec<(String, Plan)>,
    /// The CORS rules from `--cors-origin` (checked), or None: no browser on another origin.
    pub cors: Option<Cors>,
    /// The limits options, over the defaults.
    pub limits: Limits,
    /// False with `--no-idempotency`: `Idempotency-Key` is ignored.
    pub idempotency: bool,
    /// Where pets are kept: `--db`, `--database-url`, `--in-memory`.
    pub storage: Backend,
    /// `--redis URL`: rate limits, bans and idempotency in Redis instead of in memory.
    pub redis: Option<String>,
    /// `--redis-unavailable`.
    pub when_redis_unavailable: WhenUnavailable,
    /// `--redis-timeout`: `None` keeps `RedisOptions`' default (100 ms).
    pub redis_timeout: Option<Duration>,
    /// `--log-format`.
    pub log_format: LogFormat,
    /// `--metrics-addr`: where `GET /metrics` is served; `None`: metrics are not kept.
    pub metrics_addr: Option<String>,
    /// `--otlp-endpoint`: the collector request spans are exported to (OTLP/HTTP); only a
    /// binary built with the `otlp` feature exports, any other refuses to start with it.
    pub otlp_endpoint: Option<String>,
}

/// How log lines are written (`--log-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// For people: one line of text an event.
    #[default]
    Text,
    /// For log pipelines: one JSON object a line, with the fields of the spans around the
    /// event (the request's id, operation, plan).
    Json,
}

/// Parses the arguments after the program name. Errors are one line, meant for stderr
/// followed by a pointer to `--help`; they never repeat a key.
pub fn parse<I, S>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut addr: Option<String> = None;
    let mut keys: Vec<(String, Plan)> = Vec::new();
    let mut origins: Vec<String> = Vec::new();
    let mut limits = Limits::new();
    let mut idempotency = true;
    // (the option that chose it, the storage)
    let mut storage: Option<(String, Backend)> = None;
    let mut redis: Option<String> = None;
    let mut when_redis_unavailable: Option<WhenUnavailable> = None;
    let mut redis_timeout: Option<Duration> = None;
    let mut log_format = LogFormat::default();
    let mut metrics_addr: Option<String> = None;
    let mut otlp_endpoint: Option<String> = None;
    let mut args = args.into_iter().map(Into::into);
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match inline.clone().or_else(|| args.next()) {
                Some(v) => Ok(v),
                None => Err(format!("{name} needs a value: {name} {what}")),
            }
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--addr" => {
                let v = value("HOST:PORT")?;
                check_addr(&v)?;
                addr = Some(v);
            }
            "--api-key" => {
                let v = value("KEY=PLAN")?;
                let n = keys.len() + 1;
                let (key, plan) = parse_key(&v).map_err(|e| format!("--api-key #{n}: {e}"))?;
                if let Some(i) = keys.iter().position(|(k, _)| *k == key) {
                    return Err(format!(
                        "--api-key #{n}: the same key was already given (--api-key #{})",
                        i + 1
                    ));
                }
                keys.push((key, plan));
            }
            "--cors-origin" => origins.push(value("ORIGIN")?),
            "--no-idempotency" => idempotency = false,
            "--metrics-addr" => metrics_addr = Some(value("HOST:PORT")?),
            "--otlp-endpoint" => {
                let v = value("URL")?;
                if !(v.starts_with("http://") || v.starts_with("https://")) {
                    return Err(format!(
                        "--otlp-endpoint {v:?}: expected an http:// or https:// URL (the collector's OTLP/HTTP endpoint, e.g. http://127.0.0.1:4318)"
                    ));
                }
                otlp_endpoint = Some(v);
            }
            "--log-format" => {
                log_format = match value("text|json")?.as_str() {
                    "text" => LogFormat::Text,
                    "json" => LogFormat::Json,
                    other => {
                        return Err(format!("--log-format: `{other}` is neither text nor json"));
                    }
                }
            }
            "--db" | "--database-url" | "--in-memory" => {
                let backend = match name.as_str() {
                    "--db" => {
                        let path = value("PATH")?;
                        if path.is_empty() {
                            return Err("--db needs a file path".into());
                        }
                        Backend::Sqlite(PathBuf::from(path))
                    }
                    "--database-url" => {
                        let url = value("URL")?;
                        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                            return Err(
                                "--database-url: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"
                                    .into(),
                            );
                        }
                        Backend::Postgres(url)
                    }
                    _ => Backend::Memory,
                };
                if let Some((earlier, _)) = &storage {
                    return Err(format!(
                        "{name} and {earlier}: choose one place for the pets"
                    ));
                }
                storage = Some((name.clone(), backend));
            }
            "--redis" => {
                let url = value("URL")?;
                // No TLS in the tree (rediss://): Redis is reached on a private network.
                if !url.starts_with("redis://") {
                    return Err("--redis: expected redis://HOST:PORT/DB".into());
                }
                redis = Some(url);
            }
            "--redis-timeout" => {
                redis_timeout = Some(
                    seconds(&name, &value("SECS")?)?
                        .ok_or("--redis-timeout 0: Redis needs some time to answer")?,
                );
            }
            "--redis-unavailable" => {
                when_redis_unavailable = Some(match value("allow|refuse")?.as_str() {
                    "allow" => WhenUnavailable::Allow,
                    "refuse" => WhenUnavailable::Refuse,
                    other => {
                        return Err(format!(
                            "--redis-unavailable {other:?}: expected allow or refuse"
                        ));
                    }
                });
            }
            "--max-request-target" => {
                limits = limits.max_request_target(count(&name, &value("BYTES")?)?);
            }
            "--max-header-bytes" => {
                limits = limits.max_header_section(count(&name, &value("BYTES")?)?);
            }
            "--head-timeout" => limits = limits.head_timeout(seconds(&name, &value("SECS")?)?),
            "--body-timeout" => limits = limits.body_timeout(seconds(&name, &value("SECS")?)?),
            "--max-connections" => {
                let n = count(&name, &value("N")?)?;
                limits = limits.max_connections((n > 0).then_some(n));
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other:?}"));
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let cors = if origins.is_empty() {
        None
    } else {
        let rules = origins
            .into_iter()
            .fold(Cors::builder(), |rules, origin| rules.allow_origin(origin));
        Some(rules.build().map_err(|e| format!("--cors-origin: {e}"))?)
    };
    Ok(Command::Serve(Options {
        addr: addr.unwrap_or_else(|| DEFAULT_ADDR.to_owned()),
        keys,
        cors,
        limits,
        idempotency,
        storage: storage.map_or_else(Backend::default_sqlite, |(_, b)| b),
        when_redis_unavailable: match (when_redis_unavailable, &redis) {
            (Some(_), None) => return Err("--redis-unavailable needs --redis URL".into()),
            (w, _) => w.unwrap_or_default(),
        },
        redis_timeout: match (redis_timeout, &redis) {
            (Some(_), None) => return Err("--redis-timeout needs --redis URL".into()),
            (t, _) => t,
        },
        redis,
        log_format,
        metrics_addr,
        otlp_endpoint,
    }))
}

/// A whole number (bytes, connections).
fn count(name: &str, v: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .map_err(|_| format!("{name} {v:?}: expected a whole number"))
}

/// Seconds, fractions allowed; 0 is `None` (no timeout).
fn seconds(name: &str, v: &str) -> Result<Option<Duration>, String> {
    let secs = v
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 86_400.0)
        .ok_or_else(|| format!("{name} {v:?}: expected seconds, from 0 (off) to 86400"))?;
    Ok((secs > 0.0).then(|| Duration::from_secs_f64(secs)))
}

fn check_addr(addr: &str) -> Result<(), String> {
    let bad = || format!("--addr {addr:?}: expected HOST:PORT, e.g. 127.0.0.1:8080");
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(bad());
    }
    Ok(())
}

/// `KEY=PLAN`, split at the last `=` (a key may end in base64 padding).
fn parse_key(arg: &str) -> Result<(String, Plan), String> {
    let (key, plan) = arg
        .rsplit_once('=')
        .ok_or_else(|| "expected KEY=PLAN, e.g. my-key=pro".to_owned())?;
    if key.is_empty() {
        return Err("the key is empty".into());
    }
    // What a client can send after `Bearer ` in a header: visible ASCII, no spaces.
    if !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("the key must be visible ASCII characters without spaces".into());
    }
    let plan = plan.parse::<Plan>().map_err(|e| e.to_string())?;
    Ok((key.to_owned(), plan))
}

/// A fresh random key for the demo: `demo-` and 32 hex digits (128 bits from the standard
/// library's randomly keyed SipHash; good enough for a demo on loopback, not a key-issuing
/// scheme).
pub fn demo_key() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut key = String::from("demo-");
    for i in 0..2u8 {
        let mut h = RandomState::new().build_hasher();
        h.write_u8(i);
        h.write_u128(nanos);
        h.write_u32(std::process::id());
        key.push_str(&format!("{:016x}", h.finish()));
    }
    key
}
