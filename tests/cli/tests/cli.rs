//! The generated command-line client (generated-cli/) as a built binary against the reference
//! service on 127.0.0.1: subcommands and flags from the document, bodies from flags, `--body`,
//! `--body-file` and standard input, table and `--json` output, the key from
//! `PETSTORE_API_KEY`, deprecation warnings, `-v`, and the exit codes (0, 1 failed, 2 usage).

use std::io::Write;
use std::process::{Command, Stdio};

use petstore_service::{PetStore, Plan, Running};

const BIN: &str = env!("CARGO_BIN_EXE_petstore-cli-under-test");
const KEY: &str = "cli-test-key-0123456789";

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args` (and `stdin` piped in, when given), the key in
/// `PETSTORE_API_KEY` when `key` is set.
fn run(key: bool, args: &[&str], stdin: Option<&str>) -> Run {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .env_remove("PETSTORE_API_KEY")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if key {
        command.env("PETSTORE_API_KEY", KEY);
    }
    let mut child = command.spawn().expect("the binary starts");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let output = child.wait_with_output().unwrap();
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Runs it off the runtime's threads (it blocks), against `service`.
async fn cli(service: &Running, key: bool, args: &[&str], stdin: Option<&str>) -> Run {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.extend(["--base-url".to_string(), service.base_url()]);
    let stdin = stdin.map(str::to_owned);
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = all.iter().map(String::as_str).collect();
        run(key, &args, stdin.as_deref())
    })
    .await
    .unwrap()
}

async fn service() -> Running {
    let app = petstore_service::app(std::sync::Arc::new(PetStore::new()), [(KEY, Plan::Pro)]);
    petstore_service::spawn(app).await.unwrap()
}

fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{run:#?}");
    run
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_from_flags_json_a_file_and_stdin_then_a_table() {
    let service = service().await;
    let added = ok(cli(
        &service,
        true,
        &[
            "create-pet",
            "--name",
            "Rex",
            "--category-id",
            "7",
            "--status",
            "available",
        ],
        None,
    )
    .await);
    assert_eq!(
        added.stdout,
        "name: Rex\ncategoryId: 7\nstatus: available\nid: 1\n"
    );
    ok(cli(
        &service,
        true,
        &[
            "create-pet",
            "--body",
            r#"{"name": "Tom", "categoryId": 3, "status": "sold"}"#,
        ],
        None,
    )
    .await);
    let file = std::env::temp_dir().join(format!("petstore-cli-body-{}.json", std::process::id()));
    std::fs::write(&file, r#"{"name": "Bella", "categoryId": 7}"#).unwrap();
    // A flag overrides the file's property.
    ok(cli(
        &service,
        true,
        &[
            "create-pet",
            "--body-file",
            file.to_str().unwrap(),
            "--status",
            "pending",
        ],
        None,
    )
    .await);
    std::fs::remove_file(&file).unwrap();
    ok(cli(
        &service,
        true,
        &["create-pet"],
        Some(r#"{"name": "Nemo", "categoryId": 9}"#),
    )
    .await);

    let list = ok(cli(&service, true, &["list-pets"], None).await);
    assert_eq!(
        list.stdout,
        "NAME   CATEGORYID  STATUS     ID\nRex    7           available  1\nTom    3           sold       2\nBella  7           pending    3\nNemo   9           -          4\n"
    );
    let json = ok(cli(
        &service,
        true,
        &[
            "--json",
            "list-pets",
            "--status",
            "available",
            "--limit",
            "5",
        ],
        None,
    )
    .await);
    let pets: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        pets,
        serde_json::json!([{"id": 1, "name": "Rex", "categoryId": 7, "status": "available"}])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deprecated_operations_warn_and_failures_exit_1_with_nothing_on_stdout() {
    let service = service().await;
    ok(cli(
        &service,
        true,
        &["create-pet", "--name", "Rex", "--category-id", "7"],
        None,
    )
    .await);
    let got = ok(cli(&service, true, &["get-pet", "--pet-id", "1"], None).await);
    assert!(got.stdout.contains("name: Rex"), "{got:#?}");
    assert_eq!(
        got.stderr.matches("deprecated").count(),
        1,
        "one warning, from the document: {got:#?}"
    );
    assert!(
        got.stderr
            .contains("use GET /pets with the status filter instead"),
        "{got:#?}"
    );

    let missing = cli(&service, true, &["get-pet", "--pet-id", "99"], None).await;
    assert_eq!(
        (missing.code, missing.stdout.as_str()),
        (1, ""),
        "{missing:#?}"
    );
    assert!(
        missing
            .stderr
            .contains("error: 404 Not Found: no animal with id 99 (not_found)"),
        "the server's message and code: {missing:#?}"
    );

    // The server refuses a value the document forbids: 400, exit 1.
    let refused = cli(&service, true, &["list-pets", "--limit", "0"], None).await;
    assert_eq!(refused.code, 1, "{refused:#?}");
    assert!(refused.stderr.contains("400"), "{refused:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_errors_exit_2_before_anything_is_sent() {
    let service = service().await;
    let no_key = cli(&service, false, &["list-pets"], None).await;
    assert_eq!(no_key.code, 2, "{no_key:#?}");
    assert!(
        no_key.stderr.contains("PETSTORE_API_KEY is not set"),
        "{no_key:#?}"
    );
    let bad = cli(&service, true, &["list-pets", "--limit", "many"], None).await;
    assert_eq!(bad.code, 2, "{bad:#?}");
    assert!(
        bad.stderr.contains("--limit: `many` is not a valid value"),
        "{bad:#?}"
    );
    let unknown = cli(&service, true, &["adopt-pet"], None).await;
    assert_eq!(unknown.code, 2, "{unknown:#?}");
    let no_body = cli(&service, true, &["create-pet"], None).await;
    assert_eq!(no_body.code, 2, "{no_body:#?}");
    assert!(
        no_body.stderr.contains("needs a request body"),
        "{no_body:#?}"
    );
    let not_fitting = cli(&service, true, &["create-pet", "--name", "Rex"], None).await;
    assert_eq!(not_fitting.code, 2, "{not_fitting:#?}");
    assert!(
        not_fitting.stderr.contains("categoryId"),
        "{not_fitting:#?}"
    );
    // Nothing reached the service: every pet list is still empty.
    let list = ok(cli(&service, true, &["--json", "list-pets"], None).await);
    assert_eq!(list.stdout.trim(), "[]");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verbose_prints_the_rate_limit_state() {
    let service = service().await;
    let run = ok(cli(&service, true, &["-v", "list-orders"], None).await);
    assert!(
        run.stderr.contains("rate limit: ") && run.stderr.contains(" of 300 requests left"),
        "the pro plan's 300 a minute: {run:#?}"
    );
    assert_eq!(run.stdout, "(none)\n");
}

#[test]
fn the_help_texts_come_from_the_document() {
    let mut cli = petstore_cli::cli();
    // Built as when parsing, so the global flags are on every subcommand.
    cli.build();
    insta::assert_snapshot!("help", cli.render_long_help().to_string());
    for name in ["create-pet", "list-pets", "get-pet"] {
        let sub = cli.find_subcommand_mut(name).expect("the subcommand");
        insta::assert_snapshot!(name, sub.render_long_help().to_string());
    }
}

/// A server that answers every request 429 with a long `Retry-After` and the document's
/// `Error` body, as a rate limiter past its patience would.
async fn throttling() -> (String, tokio::task::JoinHandle<()>) {
    let app = axum::Router::new().fallback(|| async {
        (
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            [
                ("retry-after", "3600"),
                ("content-type", "application/json"),
            ],
            r#"{"code":"too_many_requests","message":"slow down","status":429}"#,
        )
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (url, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_beyond_the_retry_budget_shows_the_message_and_the_delay() {
    let (url, task) = throttling().await;
    let run =
        tokio::task::spawn_blocking(move || run(true, &["list-pets", "--base-url", &url], None))
            .await
            .unwrap();
    task.abort();
    assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{run:#?}");
    assert!(
        run.stderr.contains(
            "error: 429 Too Many Requests: slow down (too_many_requests); retry after 3600 s"
        ),
        "{run:#?}"
    );
}

/// The README's command lines (generated-cli/README.md, one per subcommand, built from the
/// document's examples), run as written against the reference service: each succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_command_lines_run_as_written() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../generated-cli/README.md"
    ))
    .unwrap();
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        match line {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            _ if in_sh => lines.push(line.to_owned()),
            _ => {}
        }
    }
    assert_eq!(lines.len(), 4, "one line per subcommand: {lines:?}");
    let service = service().await;
    for line in &lines {
        let words = shell_words(line);
        assert_eq!(words[0], "petstore-cli", "{line}");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let run = cli(&service, true, &args, None).await;
        assert_eq!(run.code, 0, "{line}: {run:#?}");
    }
}

/// A command line's words as a POSIX shell splits them (plain words and '…' quotes; what the
/// README's lines use).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}
