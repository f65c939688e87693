//! The built `petstore-cli` binary against a real server on 127.0.0.1 (the generated router
//! serving a small in-test store), and against a scripted server where a test needs a
//! response a correct server would not send or needs to see exactly what was sent.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::Background;
use common::scripted::{self, json, reply};
use common::store::{FAILING_ID, KEY, Limits, serve};

const BIN: &str = env!("CARGO_BIN_EXE_petstore-cli-handwritten");

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args` and, when given, `PETSTORE_API_KEY=key`.
fn cli_with(key: Option<&str>, args: &[&str]) -> Run {
    let mut command = Command::new(BIN);
    command.args(args).env_remove("PETSTORE_API_KEY");
    if let Some(key) = key {
        command.env("PETSTORE_API_KEY", key);
    }
    let output = command.output().expect("the binary runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Runs the binary with the valid key.
fn cli(args: &[&str]) -> Run {
    cli_with(Some(KEY), args)
}

fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{run:#?}");
    run
}

fn failed(run: Run, code: i32) -> Run {
    assert_eq!(run.code, code, "{run:#?}");
    assert_eq!(run.stdout, "", "nothing on stdout when failing: {run:#?}");
    run
}

const ALL_PETS: &str = "\
ID  NAME   CATEGORY  STATUS
1   Rex    7         available
2   Tom    3         sold
3   Bella  7         pending
4   Nemo   9         -
";

// ---- Help and usage errors ------------------------------------------------------------------

#[test]
fn help_lists_commands_options_and_the_key_variable() {
    for args in [&["--help"][..], &["-h"], &["help"], &["list", "--help"]] {
        // No key needed for help.
        let run = ok(cli_with(None, args));
        for needle in [
            "list [--status STATUS] [--limit N]",
            "add --name NAME --category ID [--status STATUS]",
            "get ID",
            "orders",
            "--base-url URL",
            "--env production|staging",
            "--json",
            "-v, --verbose",
            "PETSTORE_API_KEY",
        ] {
            assert!(run.stdout.contains(needle), "{needle:?} in {}", run.stdout);
        }
        assert_eq!(run.stderr, "");
    }
}

#[test]
fn unknown_command_is_a_usage_error() {
    let run = failed(cli(&["frobnicate"]), 2);
    assert!(
        run.stderr
            .starts_with("error: unknown command `frobnicate`\n"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Usage:"), "{}", run.stderr);

    let run = failed(cli(&[]), 2);
    assert!(
        run.stderr.starts_with("error: no command given\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, message) in [
        (&["list", "--colour"][..], "unknown option `--colour`"),
        (
            &["list", "--limit", "ten"],
            "`--limit` must be an integer, got `ten`",
        ),
        (&["add", "--name", "Rex"], "`add` needs `--category ID`"),
        (&["get"], "`get` needs the ID of an animal"),
        (&["get", "rex"], "the ID must be an integer, got `rex`"),
        (
            &["orders", "--status", "sold"],
            "`--status` is not an option of `orders`",
        ),
        (
            &["--env", "dev", "list"],
            "unknown environment `dev` (expected production or staging)",
        ),
        (
            &[
                "--env",
                "staging",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "list",
            ],
            "give either `--base-url` or `--env`, not both",
        ),
    ] {
        let run = failed(cli(args), 2);
        assert!(
            run.stderr.starts_with(&format!("error: {message}\n")),
            "{args:?}: {}",
            run.stderr
        );
    }
}

// ---- The API key ----------------------------------------------------------------------------

#[test]
fn missing_key_is_a_clear_error_and_sends_nothing() {
    let background = Background::new();
    let server = background.block_on(scripted::Server::start(vec![]));
    for key in [None, Some(""), Some("  ")] {
        let run = failed(cli_with(key, &["list", "--base-url", &server.base_url]), 2);
        assert!(
            run.stderr.starts_with("error: PETSTORE_API_KEY is not set"),
            "{key:?}: {}",
            run.stderr
        );
    }
    assert_eq!(server.count(), 0);
}

#[test]
fn wrong_key_fails_with_the_servers_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli_with(
            Some("not-the-key"),
            &["list", "--base-url", &store.base_url],
        ),
        1,
    );
    assert!(
        run.stderr.starts_with("error: ") && run.stderr.contains("(unauthorized, HTTP 401)"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("not-the-key"),
        "the key is not echoed: {}",
        run.stderr
    );
}

#[test]
fn the_key_is_sent_as_a_bearer_token() {
    let background = Background::new();
    let server = background.block_on(scripted::Server::start(vec![json(
        201,
        &[],
        r#"{"id":5,"name":"Rex","categoryId":7}"#,
    )]));
    ok(cli_with(
        Some(" key with spaces around it is trimmed \n"),
        &[
            "add",
            "--name",
            "Rex",
            "--category",
            "7",
            "--base-url",
            &server.base_url,
        ],
    ));
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("POST", "/v1/pets")
    );
    assert_eq!(
        request.header("authorization"),
        Some("Bearer key with spaces around it is trimmed")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert!(
        request
            .header("user-agent")
            .unwrap()
            .starts_with("petstore-cli/"),
        "{request:?}"
    );
    let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(body, serde_json::json!({"name": "Rex", "categoryId": 7}));
}

// ---- list -----------------------------------------------------------------------------------

#[test]
fn list_prints_a_table() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["list", "--base-url", &store.base_url]));
    assert_eq!(run.stdout, ALL_PETS);
    assert_eq!(run.stderr, "");
}

#[test]
fn list_filters_by_status_and_limit() {
    let store = serve(Limits::Document);
    let run = ok(cli(&[
        "list",
        "--status",
        "pending",
        "--base-url",
        &store.base_url,
    ]));
    assert_eq!(
        run.stdout,
        "ID  NAME   CATEGORY  STATUS\n3   Bella  7         pending\n"
    );
    let run = ok(cli(&[
        "list",
        "--limit",
        "2",
        "--base-url",
        &store.base_url,
    ]));
    assert_eq!(
        run.stdout,
        "ID  NAME  CATEGORY  STATUS\n1   Rex   7         available\n2   Tom   3         sold\n"
    );
    let run = ok(cli(&[
        "list",
        "--status",
        "sold",
        "--limit=1",
        "--base-url",
        &store.base_url,
    ]));
    assert!(
        run.stdout.contains("Tom") && run.stdout.lines().count() == 2,
        "{}",
        run.stdout
    );
}

#[test]
fn list_json_prints_the_body() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["--json", "list", "--base-url", &store.base_url]));
    let body: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        body,
        serde_json::json!([
            {"id": 1, "name": "Rex", "categoryId": 7, "status": "available"},
            {"id": 2, "name": "Tom", "categoryId": 3, "status": "sold"},
            {"id": 3, "name": "Bella", "categoryId": 7, "status": "pending"},
            {"id": 4, "name": "Nemo", "categoryId": 9},
        ])
    );
}

#[test]
fn global_options_before_or_after_the_command() {
    let store = serve(Limits::Document);
    let url = store.base_url.as_str();
    let runs: Vec<Run> = [
        &["--base-url", url, "--json", "list", "--status", "sold"][..],
        &["list", "--status", "sold", "--json", "--base-url", url],
        &["--json", "list", "--base-url", url, "--status", "sold"],
        &[
            "list",
            &format!("--base-url={url}"),
            "--status=sold",
            "--json",
        ],
    ]
    .iter()
    .map(|args| ok(cli(args)))
    .collect();
    let first: serde_json::Value = serde_json::from_str(&runs[0].stdout).unwrap();
    assert_eq!(first[0]["name"], "Tom");
    for run in &runs {
        assert_eq!(run.stdout, runs[0].stdout);
    }

    let run = ok(cli(&["-v", "list", "--base-url", url]));
    let same = ok(cli(&["list", "--base-url", url, "--verbose"]));
    assert_eq!(run.stdout, same.stdout);
    assert!(run.stderr.contains("rate limit:") && same.stderr.contains("rate limit:"));
}

#[test]
fn verbose_prints_the_rate_limit_state_on_stderr() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["-v", "list", "--base-url", &store.base_url]));
    assert_eq!(run.stdout, ALL_PETS, "stdout is unchanged");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[0], format!("server: {}", store.base_url));
    // The test key is on the enterprise plan: 10,000 a minute, one used.
    assert!(
        lines[1].starts_with("rate limit: 9999/10000 remaining (window resets in "),
        "{lines:?}"
    );
    // The second request of the minute (or the first of the next, if one began in between).
    let run = ok(cli(&["-v", "orders", "--base-url", &store.base_url]));
    assert!(
        run.stderr.contains("rate limit: 9998/10000 remaining")
            || run.stderr.contains("rate limit: 9999/10000 remaining"),
        "{}",
        run.stderr
    );
}

#[test]
fn list_shows_statuses_this_client_does_not_know() {
    // A newer server may add statuses: the table and --json show them as they came.
    let body = r#"[{"id":8,"name":"Kit","categoryId":1,"status":"reserved"}]"#;
    let background = Background::new();
    let server = background.block_on(scripted::Server::start(vec![
        json(200, &[], body),
        json(200, &[], body),
    ]));
    let run = ok(cli(&["list", "--base-url", &server.base_url]));
    assert_eq!(
        run.stdout,
        "ID  NAME  CATEGORY  STATUS\n8   Kit   1         reserved\n"
    );
    let run = ok(cli(&["list", "--json", "--base-url", &server.base_url]));
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json[0]["status"], "reserved");
}

#[test]
fn an_invalid_limit_fails_with_the_servers_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&["list", "--limit", "500", "--base-url", &store.base_url]),
        1,
    );
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(
        run.stderr.contains("limit"),
        "names the parameter: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("(bad_request, HTTP 400)"),
        "{}",
        run.stderr
    );
}

// ---- add ------------------------------------------------------------------------------------

#[test]
fn add_creates_and_prints_the_pet() {
    let store = serve(Limits::Document);
    let url = store.base_url.as_str();
    let run = ok(cli(&[
        "add",
        "--name",
        "Rex Jr.",
        "--category",
        "7",
        "--status",
        "available",
        "--base-url",
        url,
    ]));
    assert_eq!(
        run.stdout,
        "ID  NAME     CATEGORY  STATUS\n5   Rex Jr.  7         available\n"
    );
    let run = ok(cli(&["list", "--status", "available", "--base-url", url]));
    assert!(run.stdout.contains("Rex Jr."), "{}", run.stdout);

    let run = ok(cli(&[
        "add",
        "--json",
        "--name",
        "Tiddles",
        "--category",
        "2",
        "--base-url",
        url,
    ]));
    let pet: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        pet,
        serde_json::json!({"id": 6, "name": "Tiddles", "categoryId": 2})
    );
}

#[test]
fn add_with_a_status_the_server_rejects_shows_its_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&[
            "add",
            "--name",
            "Kit",
            "--category",
            "1",
            "--status",
            "reserved",
            "--base-url",
            &store.base_url,
        ]),
        1,
    );
    assert!(
        run.stderr.contains("(bad_request, HTTP 400)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("status"),
        "names the field: {}",
        run.stderr
    );
}

// ---- get ------------------------------------------------------------------------------------

#[test]
fn get_prints_the_pet_and_a_deprecation_warning() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["get", "1", "--base-url", &store.base_url]));
    assert_eq!(
        run.stdout,
        "ID  NAME  CATEGORY  STATUS\n1   Rex   7         available\n"
    );
    assert_eq!(
        run.stderr,
        "warning: `get` (GET /pets/{petId}) is deprecated since 2026-11-22 and will be removed on 2030-12-05\n\
         warning: its replacement is /v1/pets; use `petstore-cli list [--status STATUS]` instead\n"
    );

    // --json keeps stdout clean for scripts; the warning still goes to stderr.
    let run = ok(cli(&["--json", "get", "3", "--base-url", &store.base_url]));
    let pet: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(pet["name"], "Bella");
    assert!(
        run.stderr.contains("will be removed on 2030-12-05"),
        "{}",
        run.stderr
    );
}

#[test]
fn get_of_a_missing_pet_fails_with_the_servers_message() {
    let store = serve(Limits::Document);
    let run = failed(cli(&["get", "99", "--base-url", &store.base_url]), 1);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].starts_with("warning: `get`"),
        "the 404 is deprecated too: {lines:?}"
    );
    assert_eq!(
        lines.last(),
        Some(&"error: no animal with id 99 (not_found, HTTP 404)")
    );
}

#[test]
fn a_server_failure_shows_its_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&[
            "get",
            &FAILING_ID.to_string(),
            "--base-url",
            &store.base_url,
        ]),
        1,
    );
    assert!(
        run.stderr
            .ends_with("error: internal server error (internal, HTTP 500)\n"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("fire"), "{}", run.stderr);
}

// ---- orders ---------------------------------------------------------------------------------

#[test]
fn orders_as_a_table_and_as_json() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["orders", "--base-url", &store.base_url]));
    assert_eq!(
        run.stdout,
        "\
ID  COMPLETE  PETID  QUANTITY  STATUS
1   -         2      1         placed
2   true      1      -         -
"
    );
    let run = ok(cli(&["orders", "--json", "--base-url", &store.base_url]));
    let orders: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        orders,
        serde_json::json!([
            {"id": 1, "petId": 2, "quantity": 1, "status": "placed"},
            {"id": 2, "petId": 1, "complete": true},
        ])
    );
}

// ---- Failures on the way --------------------------------------------------------------------

#[test]
fn too_many_requests_prints_the_retry_after_delay() {
    // Longer than the client's 30 s budget, so it is reported at once rather than waited out.
    let store = serve(Limits::RefuseAll {
        retry_after_secs: 600,
    });
    let started = Instant::now();
    let run = failed(cli(&["-v", "list", "--base-url", &store.base_url]), 1);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[1].starts_with("rate limit: 0/10000 remaining"),
        "{lines:?}"
    );
    assert_eq!(
        lines[2],
        "error: rate limit exceeded; retry after 600 seconds (rate_limited, HTTP 429)"
    );
    assert_eq!(lines[3], "retry after 600 s (the server's Retry-After)");
}

#[test]
fn a_429_without_the_error_body_still_shows_the_delay() {
    // A proxy in front of the service may answer 429 in its own words.
    let background = Background::new();
    let server = background.block_on(scripted::Server::start(vec![reply(
        429,
        &[("Retry-After", "120"), ("Content-Type", "text/plain")],
        "slow down",
    )]));
    let run = failed(cli(&["orders", "--base-url", &server.base_url]), 1);
    assert_eq!(
        run.stderr,
        "error: could not read the server's HTTP 429 Too Many Requests response: expected value at line 1 column 1\n\
         response body: slow down\n\
         retry after 120 s (the server's Retry-After)\n"
    );
}

#[test]
fn an_unreachable_server_is_named() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let run = failed(cli(&["list", "--base-url", &url]), 1);
    assert!(
        run.stderr
            .starts_with(&format!("error: could not reach {url}: ")),
        "{}",
        run.stderr
    );
}

#[cfg(not(feature = "tls"))]
#[test]
fn env_selects_a_server_of_the_document() {
    // Built without TLS, the document's HTTPS servers are refused before anything is sent,
    // which shows which URL each choice resolved to (and keeps the test off the network).
    for (args, url) in [
        (
            &["--env", "staging", "list"][..],
            "https://staging.api.petstore.example/v1",
        ),
        (
            &["list", "--env", "production"],
            "https://api.petstore.example/v1",
        ),
        (&["list"], "https://api.petstore.example/v1"),
    ] {
        let run = failed(cli(args), 2);
        assert!(
            run.stderr.starts_with(&format!("error: {url} needs HTTPS")),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("--features tls"), "{}", run.stderr);
    }
}
