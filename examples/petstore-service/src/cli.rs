//! The binary's command line, parsed by hand (four options do not need a parser crate).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use petstore_server::Cors;

use crate::Plan;

/// Where the binary listens unless `--addr` says otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

pub const USAGE: &str = "\
petstore-service: the reference pet store service (spec/petstore.yaml), in memory.

Usage: petstore-service [--addr HOST:PORT] [--api-key KEY=PLAN]... [--cors-origin ORIGIN]...

Options:
  --addr HOST:PORT     where to listen (default 127.0.0.1:8080; port 0 picks a free port)
  --api-key KEY=PLAN   accept KEY as a bearer token on PLAN, one of free, pro, business,
                       enterprise (repeatable). Without any, a random demo key on the free
                       plan is made and printed at start.
  --cors-origin ORIGIN let pages from ORIGIN (scheme://host[:port], e.g.
                       http://localhost:8000) call the service from a browser (CORS;
                       repeatable); `*` allows any origin. Off by default.
  -h, --help           print this help

Routes live under /v1 (e.g. GET http://127.0.0.1:8080/v1/pets). Logs go to stderr;
RUST_LOG sets the level (default: info). Ctrl-C or SIGTERM stops the service gracefully.
";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    }))
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
