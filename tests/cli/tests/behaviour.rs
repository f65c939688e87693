//! The generated `petstore-cli` (tests/cli/src/bin, the generated crate's `main`) as a built binary
//! against a real server on 127.0.0.1 (the generated router
//! serving a small in-test store), and against a scripted server where a test needs a
//! response a correct server would not send or needs to see exactly what was sent.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::Background;
use common::scripted::{self, json, reply};
use common::store::{FAILING_ID, KEY, Limits, serve};

const BIN: &str = env!("CARGO_BIN_EXE_petstore-cli-under-test");

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

/// The seeded store as the table prints it: columns in the document's order (`Pet` is
/// `NewPet`'s properties, then `id`), `-` where a pet has no value.
const ALL_PETS: &str = "\
NAME   CATEGORYID  STATUS     ID
Rex    7           available  1
Tom    3           sold       2
Bella  7           pending    3
Nemo   9           -          4
";

// ---- Help and usage errors ------------------------------------------------------------------

#[test]
fn help_lists_commands_options_and_the_key_variable() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["list-pets", "--help"],
    ] {
        // No key needed for help.
        let run = ok(cli_with(None, args));
        for needle in [
            "--base-url <URL>",
            "--env <SERVER>",
            "--json",
            "-v, --verbose",
        ] {
            assert!(run.stdout.contains(needle), "{needle:?} in {}", run.stdout);
        }
        assert_eq!(run.stderr, "");
        if args[0] != "list-pets" {
            for needle in [
                "list-pets",
                "create-pet",
                "get-pet",
                "list-orders",
                "PETSTORE_API_KEY",
            ] {
                assert!(run.stdout.contains(needle), "{needle:?} in {}", run.stdout);
            }
        } else {
            assert!(run.stdout.contains("--limit <INTEGER>"), "{}", run.stdout);
            assert!(run.stdout.contains("--status <VALUE>"), "{}", run.stdout);
        }
    }
}

#[test]
fn unknown_command_is_a_usage_error() {
    let run = failed(cli(&["frobnicate"]), 2);
    assert!(
        run.stderr
            .starts_with("error: unrecognized subcommand 'frobnicate'\n"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Usage:"), "{}", run.stderr);

    // No command at all: the help, on stderr, and a usage error.
    let run = failed(cli(&[]), 2);
    assert!(run.stderr.contains("Commands:"), "{}", run.stderr);
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, message) in [
        (
            &["list-pets", "--colour"][..],
            "unexpected argument '--colour' found",
        ),
        (
            &["list-pets", "--limit", "ten"],
            "--limit: `ten` is not a valid value",
        ),
        (
            &["create-pet", "--name", "Rex"],
            "the request body does not fit the document: missing field `categoryId`",
        ),
        (
            &["get-pet"],
            "the following required arguments were not provided:",
        ),
        (
            &["get-pet", "--pet-id", "rex"],
            "--pet-id: `rex` is not a valid value",
        ),
        (
            &["list-orders", "--status", "sold"],
            "unexpected argument '--status' found",
        ),
        (
            &["--env", "dev", "list-pets"],
            "unknown server `dev`; expected one of production, staging",
        ),
        (
            &[
                "--env",
                "staging",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "list-pets",
            ],
            "the argument '--env <SERVER>' cannot be used with '--base-url <URL>'",
        ),
    ] {
        // A local base URL (nothing listens there), unless the case is about choosing one.
        let mut args = args.to_vec();
        if !args.contains(&"--env") {
            args.extend(["--base-url", "http://127.0.0.1:9/v1"]);
        }
        let run = failed(cli(&args), 2);
        assert!(
            run.stderr.starts_with(&format!("error: {message}")),
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
        let run = failed(
            cli_with(key, &["list-pets", "--base-url", &server.base_url]),
            2,
        );
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
            &["list-pets", "--base-url", &store.base_url],
        ),
        1,
    );
    assert!(
        run.stderr
            .starts_with("error: 401 Unauthorized: the credentials are not valid (unauthorized)"),
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
            "create-pet",
            "--name",
            "Rex",
            "--category-id",
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
    let run = ok(cli(&["list-pets", "--base-url", &store.base_url]));
    assert_eq!(run.stdout, ALL_PETS);
    assert_eq!(run.stderr, "");
}

#[test]
fn list_filters_by_status_and_limit() {
    let store = serve(Limits::Document);
    let run = ok(cli(&[
        "list-pets",
        "--status",
        "pending",
        "--base-url",
        &store.base_url,
    ]));
    assert_eq!(
        run.stdout,
        "NAME   CATEGORYID  STATUS   ID\nBella  7           pending  3\n"
    );
    let run = ok(cli(&[
        "list-pets",
        "--limit",
        "2",
        "--base-url",
        &store.base_url,
    ]));
    assert_eq!(
        run.stdout,
        "NAME  CATEGORYID  STATUS     ID\nRex   7           available  1\nTom   3           sold       2\n"
    );
    let run = ok(cli(&[
        "list-pets",
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
    let run = ok(cli(&["--json", "list-pets", "--base-url", &store.base_url]));
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
        &["--base-url", url, "--json", "list-pets", "--status", "sold"][..],
        &["list-pets", "--status", "sold", "--json", "--base-url", url],
        &["--json", "list-pets", "--base-url", url, "--status", "sold"],
        &[
            "list-pets",
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

    let run = ok(cli(&["-v", "list-pets", "--base-url", url]));
    let same = ok(cli(&["list-pets", "--base-url", url, "--verbose"]));
    assert_eq!(run.stdout, same.stdout);
    assert!(run.stderr.contains("rate limit:") && same.stderr.contains("rate limit:"));
}

#[test]
fn verbose_prints_the_rate_limit_state_on_stderr() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["-v", "list-pets", "--base-url", &store.base_url]));
    assert_eq!(run.stdout, ALL_PETS, "stdout is unchanged");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[0], format!("server: {}", store.base_url));
    // The test key is on the enterprise plan: 10,000 a minute, one used.
    assert!(
        lines[1].starts_with("rate limit: 9999 of 10000 requests left, window resets in "),
        "{lines:?}"
    );
    // The second request of the minute (or the first of the next, if one began in between).
    let run = ok(cli(&["-v", "list-orders", "--base-url", &store.base_url]));
    assert!(
        run.stderr
            .contains("rate limit: 9998 of 10000 requests left")
            || run
                .stderr
                .contains("rate limit: 9999 of 10000 requests left"),
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
    let run = ok(cli(&["list-pets", "--base-url", &server.base_url]));
    assert_eq!(
        run.stdout,
        "NAME  CATEGORYID  STATUS    ID\nKit   1           reserved  8\n"
    );
    let run = ok(cli(&[
        "list-pets",
        "--json",
        "--base-url",
        &server.base_url,
    ]));
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json[0]["status"], "reserved");
}

#[test]
fn an_invalid_limit_fails_with_the_servers_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&["list-pets", "--limit", "500", "--base-url", &store.base_url]),
        1,
    );
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(
        run.stderr.contains("limit"),
        "names the parameter: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("400 Bad Request:") && run.stderr.contains("(bad_request)"),
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
        "create-pet",
        "--name",
        "Rex Jr.",
        "--category-id",
        "7",
        "--status",
        "available",
        "--base-url",
        url,
    ]));
    assert_eq!(
        run.stdout,
        "name: Rex Jr.\ncategoryId: 7\nstatus: available\nid: 5\n"
    );
    let run = ok(cli(&[
        "list-pets",
        "--status",
        "available",
        "--base-url",
        url,
    ]));
    assert!(run.stdout.contains("Rex Jr."), "{}", run.stdout);

    let run = ok(cli(&[
        "create-pet",
        "--json",
        "--name",
        "Tiddles",
        "--category-id",
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
            "create-pet",
            "--name",
            "Kit",
            "--category-id",
            "1",
            "--status",
            "reserved",
            "--base-url",
            &store.base_url,
        ]),
        1,
    );
    assert!(
        run.stderr.contains("400 Bad Request:") && run.stderr.contains("(bad_request)"),
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
    let run = ok(cli(&[
        "get-pet",
        "--pet-id",
        "1",
        "--base-url",
        &store.base_url,
    ]));
    assert_eq!(
        run.stdout,
        "name: Rex\ncategoryId: 7\nstatus: available\nid: 1\n"
    );
    assert_eq!(
        run.stderr,
        "warning: `getPet` is deprecated: Removed on 2030-12-05; use GET /pets with the status filter instead.\n"
    );

    // --json keeps stdout clean for scripts; the warning still goes to stderr.
    let run = ok(cli(&[
        "--json",
        "get-pet",
        "--pet-id",
        "3",
        "--base-url",
        &store.base_url,
    ]));
    let pet: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(pet["name"], "Bella");
    assert!(
        run.stderr.contains("Removed on 2030-12-05"),
        "{}",
        run.stderr
    );
}

#[test]
fn get_of_a_missing_pet_fails_with_the_servers_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&["get-pet", "--pet-id", "99", "--base-url", &store.base_url]),
        1,
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].starts_with("warning: `getPet` is deprecated"),
        "the 404 is deprecated too: {lines:?}"
    );
    assert_eq!(
        lines.last(),
        Some(&"error: 404 Not Found: no animal with id 99 (not_found)")
    );
}

#[test]
fn a_server_failure_shows_its_message() {
    let store = serve(Limits::Document);
    let run = failed(
        cli(&[
            "get-pet",
            "--pet-id",
            &FAILING_ID.to_string(),
            "--base-url",
            &store.base_url,
        ]),
        1,
    );
    assert!(
        run.stderr
            .ends_with("error: 500 Internal Server Error: internal server error (internal)\n"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("fire"), "{}", run.stderr);
}

// ---- orders ---------------------------------------------------------------------------------

#[test]
fn orders_as_a_table_and_as_json() {
    let store = serve(Limits::Document);
    let run = ok(cli(&["list-orders", "--base-url", &store.base_url]));
    assert_eq!(
        run.stdout,
        "\
ID  PETID  QUANTITY  STATUS  COMPLETE
1   2      1         placed  -
2   1      -         -       true
"
    );
    let run = ok(cli(&[
        "list-orders",
        "--json",
        "--base-url",
        &store.base_url,
    ]));
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
    let run = failed(cli(&["-v", "list-pets", "--base-url", &store.base_url]), 1);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[0], format!("server: {}", store.base_url));
    assert_eq!(
        lines[1],
        "error: 429 Too Many Requests: rate limit exceeded; retry after 600 seconds (rate_limited); retry after 600 s"
    );
    assert!(
        lines[2].starts_with("rate limit: 0 of 10000 requests left"),
        "{lines:?}"
    );
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
    let run = failed(cli(&["list-orders", "--base-url", &server.base_url]), 1);
    assert_eq!(
        run.stderr,
        "error: could not decode the 429 Too Many Requests answer: expected value at line 1 column 1; retry after 120 s\nthe answer was: slow down\n"
    );
}

#[test]
fn an_unreachable_server_is_named() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let run = failed(cli(&["list-pets", "--base-url", &url]), 1);
    assert!(
        run.stderr.starts_with("error: transport error: ") && run.stderr.contains(&url),
        "names the URL: {}",
        run.stderr
    );
}

#[test]
fn env_selects_a_server_of_the_document() {
    // Built without TLS, the document's HTTPS servers are refused before anything is sent,
    // which shows which URL each choice resolved to (and keeps the test off the network).
    for (args, url) in [
        (
            &["--env", "staging", "list-pets"][..],
            "https://staging.api.petstore.example/v1",
        ),
        (
            &["list-pets", "--env", "production"],
            "https://api.petstore.example/v1",
        ),
        (&["list-pets"], "https://api.petstore.example/v1"),
    ] {
        let run = failed(cli(args), 2);
        assert!(
            run.stderr.starts_with(&format!("error: {url} needs HTTPS")),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("--features rustls"), "{}", run.stderr);
    }
}
