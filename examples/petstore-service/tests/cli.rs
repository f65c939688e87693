//! The binary's options, parsed by `petstore_service::cli::parse`.

use petstore_service::Plan;
use petstore_service::cli::{Command, DEFAULT_ADDR, Options, demo_key, parse};

fn serve(args: &[&str]) -> Options {
    match parse(args.iter().copied()) {
        Ok(Command::Serve(o)) => o,
        other => panic!("{args:?}: {other:?}"),
    }
}

fn error(args: &[&str]) -> String {
    match parse(args.iter().copied()) {
        Err(e) => e,
        other => panic!("{args:?} should be refused: {other:?}"),
    }
}

#[test]
fn defaults() {
    let o = serve(&[]);
    assert_eq!(o.addr, DEFAULT_ADDR);
    assert_eq!(o.addr, "127.0.0.1:8080");
    assert!(o.keys.is_empty());
    assert!(o.cors.is_none(), "CORS is off by default");
    assert!(o.idempotency, "Idempotency-Key is honoured by default");
}

#[test]
fn idempotency_can_be_switched_off() {
    assert!(!serve(&["--no-idempotency"]).idempotency);
}

#[test]
fn cors_origins_repeat_or_star() {
    let o = serve(&[
        "--cors-origin",
        "http://localhost:8000",
        "--cors-origin=https://app.example",
    ]);
    let cors = o.cors.unwrap();
    assert_eq!(
        cors.origins(),
        ["http://localhost:8000", "https://app.example"]
    );
    assert!(!cors.allows_any_origin());
    assert!(
        serve(&["--cors-origin", "*"])
            .cors
            .unwrap()
            .allows_any_origin()
    );
    let e = error(&["--cors-origin", "localhost:8000"]);
    assert!(
        e.starts_with("--cors-origin: CORS: `localhost:8000` is not an origin"),
        "{e}"
    );
    assert_eq!(
        error(&["--cors-origin"]),
        "--cors-origin needs a value: --cors-origin ORIGIN"
    );
}

#[test]
fn options_in_both_forms_and_repeated_keys() {
    let o = serve(&[
        "--addr",
        "0.0.0.0:9000",
        "--api-key",
        "a=free",
        "--api-key=b=Pro",
        "--api-key",
        "c=BUSINESS",
        "--api-key",
        "dGVzdA===enterprise", // a key ending in base64 padding: split at the last `=`
    ]);
    assert_eq!(o.addr, "0.0.0.0:9000");
    assert_eq!(
        o.keys,
        vec![
            ("a".to_owned(), Plan::Free),
            ("b".to_owned(), Plan::Pro),
            ("c".to_owned(), Plan::Business),
            ("dGVzdA==".to_owned(), Plan::Enterprise),
        ]
    );
    assert_eq!(serve(&["--addr=[::1]:0"]).addr, "[::1]:0");
    assert_eq!(serve(&["--addr", "localhost:8081"]).addr, "localhost:8081");
}

#[test]
fn limits_options() {
    use petstore_service::petstore_server::Limits;
    use std::time::Duration;
    assert_eq!(serve(&[]).limits, Limits::new());
    let o = serve(&[
        "--max-request-target",
        "4096",
        "--max-header-bytes=16384",
        "--head-timeout",
        "2.5",
        "--body-timeout",
        "0",
        "--max-connections",
        "0",
    ]);
    assert_eq!(
        o.limits,
        Limits::new()
            .max_request_target(4096)
            .max_header_section(16384)
            .head_timeout(Some(Duration::from_millis(2500)))
            .body_timeout(None)
            .max_connections(None)
    );
    for (args, part) in [
        (&["--head-timeout", "soon"][..], "expected seconds"),
        (&["--body-timeout", "-1"][..], "expected seconds"),
        (
            &["--max-header-bytes", "1e3"][..],
            "expected a whole number",
        ),
        (&["--max-connections"][..], "needs a value"),
    ] {
        assert!(error(args).contains(part), "{args:?}: {}", error(args));
    }
}

#[test]
fn help() {
    assert_eq!(parse(["--help"]), Ok(Command::Help));
    assert_eq!(parse(["--api-key", "a=free", "-h"]), Ok(Command::Help));
}

#[test]
fn clear_errors() {
    assert_eq!(
        error(&["--api-key", "k=gold"]),
        r#"--api-key #1: unknown plan "gold"; expected one of free, pro, business, enterprise"#
    );
    assert_eq!(
        error(&["--api-key", "a=pro", "--api-key", "k"]),
        "--api-key #2: expected KEY=PLAN, e.g. my-key=pro"
    );
    assert_eq!(
        error(&["--api-key", "=pro"]),
        "--api-key #1: the key is empty"
    );
    assert!(error(&["--api-key", "k="]).contains("unknown plan \"\""));
    assert!(error(&["--api-key", "a b=pro"]).contains("visible ASCII"));
    assert!(error(&["--api-key", "clé=pro"]).contains("visible ASCII"));
    assert_eq!(
        error(&["--api-key", "same=pro", "--api-key", "same=free"]),
        "--api-key #2: the same key was already given (--api-key #1)"
    );
    assert_eq!(
        error(&["--api-key"]),
        "--api-key needs a value: --api-key KEY=PLAN"
    );
    assert_eq!(error(&["--addr"]), "--addr needs a value: --addr HOST:PORT");
    for bad in ["8080", "localhost", ":8080", "host:port", "127.0.0.1:70000"] {
        assert!(
            error(&["--addr", bad]).contains("expected HOST:PORT"),
            "{bad}"
        );
    }
    assert_eq!(error(&["--port", "1"]), r#"unknown option "--port""#);
    assert_eq!(error(&["serve"]), r#"unexpected argument "serve""#);
    // A refused key is never repeated in the message.
    assert!(!error(&["--api-key", "s3cret=gold"]).contains("s3cret"));
}

#[test]
fn demo_keys_are_fresh() {
    let (a, b) = (demo_key(), demo_key());
    assert_ne!(a, b);
    assert!(a.starts_with("demo-") && a.len() == 5 + 32, "{a}");
    assert!(a[5..].bytes().all(|c| c.is_ascii_hexdigit()));
}

#[test]
fn storage_is_a_sqlite_file_by_default_or_one_other_choice() {
    use petstore_service::storage::Backend;
    use std::path::PathBuf;
    assert_eq!(
        serve(&[]).storage,
        Backend::Sqlite(PathBuf::from("petstore.db"))
    );
    assert_eq!(
        serve(&["--db", "/var/lib/pets.db"]).storage,
        Backend::Sqlite(PathBuf::from("/var/lib/pets.db"))
    );
    assert_eq!(serve(&["--in-memory"]).storage, Backend::Memory);
    let url = "postgres://pets:secret@db.internal:5432/pets";
    let o = serve(&["--database-url", url]);
    assert_eq!(o.storage, Backend::Postgres(url.to_owned()));
    assert!(
        !format!("{o:?}").contains("secret"),
        "the password never reaches a log"
    );
    assert_eq!(
        error(&["--db", "a.db", "--in-memory"]),
        "--in-memory and --db: choose one place for the pets"
    );
    assert!(error(&["--database-url", "mysql://x"]).contains("expected postgres://"));
    assert_eq!(error(&["--db", ""]), "--db needs a file path");
}

#[test]
fn redis_and_what_to_do_when_it_is_away() {
    use petstore_service::petstore_server::WhenUnavailable;
    let o = serve(&[]);
    assert_eq!(o.redis, None);
    let o = serve(&["--redis", "redis://10.0.0.5:6379/0"]);
    assert_eq!(o.redis.as_deref(), Some("redis://10.0.0.5:6379/0"));
    assert_eq!(o.when_redis_unavailable, WhenUnavailable::Allow);
    let o = serve(&["--redis=redis://r/", "--redis-unavailable", "refuse"]);
    assert_eq!(o.when_redis_unavailable, WhenUnavailable::Refuse);
    assert!(error(&["--redis", "http://r"]).contains("expected redis://"));
    assert!(
        error(&["--redis=redis://r/", "--redis-unavailable", "maybe"]).contains("allow or refuse")
    );
    assert_eq!(
        error(&["--redis-unavailable", "refuse"]),
        "--redis-unavailable needs --redis URL"
    );
    assert_eq!(o.redis_timeout, None, "RedisOptions' default");
    let o = serve(&["--redis=redis://r/", "--redis-timeout", "2.5"]);
    assert_eq!(
        o.redis_timeout,
        Some(std::time::Duration::from_millis(2500))
    );
    assert!(error(&["--redis=redis://r/", "--redis-timeout", "0"]).contains("needs some time"));
    assert_eq!(
        error(&["--redis-timeout", "1"]),
        "--redis-timeout needs --redis URL"
    );
}
