//! The CLI of tests/fixtures/text-formats.yaml, generated with `--string-formats`, as a built
//! binary against a scripted server on 127.0.0.1: `uuid`, `date-time` and `date` parameters and
//! body properties are text it sends as typed, as the client it calls takes them, never values
//! it parses first (a CLI lowered without the option would read `uuid::Uuid` and refuse, or
//! fail to compile against, the client's `&str`).

mod common;

use std::process::Command;

use common::Background;
use common::scripted::{Server, json, reply};

const BIN: &str = env!("CARGO_BIN_EXE_text-formats-cli-under-test");

fn run(base_url: &str, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("--base-url")
        .arg(base_url)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn formats_kept_as_text_reach_the_server_as_typed() {
    let rt = Background::new();
    let server = rt.block_on(Server::start(vec![
        json(200, &[], r#"{"id": "not-a-uuid", "at": "yesterday"}"#),
        reply(204, &[], ""),
    ]));
    let got = run(
        &server.base_url,
        &[
            "get-event",
            "--id",
            "not-a-uuid",
            "--since",
            "yesterday",
            "--day",
            "someday",
            "--related",
            r#"["a","b"]"#,
            "--x-trace",
            "t-1",
        ],
    );
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    let put = run(
        &server.base_url,
        &[
            "put-event",
            "--id",
            "p-1",
            "--id-2",
            "x",
            "--at",
            "later",
            "--day",
            "soon",
        ],
    );
    assert!(
        put.status.success(),
        "{}",
        String::from_utf8_lossy(&put.stderr)
    );
    let requests = server.requests();
    assert_eq!(
        requests[0].target,
        "/v1/events/not-a-uuid?since=yesterday&day=someday&related=a,b"
    );
    assert_eq!(requests[0].header("x-trace"), Some("t-1"));
    let stdout = String::from_utf8_lossy(&got.stdout);
    assert!(stdout.contains("not-a-uuid"), "{stdout}");
    assert_eq!(requests[1].method, "PUT");
    assert_eq!(requests[1].target, "/v1/events/p-1");
    let body: serde_json::Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"id": "x", "at": "later", "day": "soon"})
    );
}

/// A parameter that takes one value or several (`oneOf: [string, array of string]`) takes
/// either on the command line: `--label abc` is the list of that one.
#[test]
fn a_one_or_many_parameter_takes_one_value_or_a_list() {
    let rt = Background::new();
    let body = r#"{"id": "e", "at": "now"}"#;
    let server = rt.block_on(Server::start(vec![
        json(200, &[], body),
        json(200, &[], body),
    ]));
    for label in ["abc", r#"["a","b"]"#] {
        let got = run(
            &server.base_url,
            &["get-event", "--id", "e", "--since", "now", "--label", label],
        );
        assert!(
            got.status.success(),
            "--label {label}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
    }
    let requests = server.requests();
    assert_eq!(requests[0].target, "/v1/events/e?since=now&label=abc");
    assert_eq!(requests[1].target, "/v1/events/e?since=now&label=a&label=b");
}

/// What a real server's document often is: a list body, a server named by a path alone, answers
/// that do not decode.
mod real_server_shapes {
    use super::*;
    use std::io::Write;
    use std::process::Stdio;

    /// A list body piped on standard input is the body, though the command has no property
    /// flags (a list has none).
    #[test]
    fn an_array_body_is_read_from_standard_input() {
        let rt = Background::new();
        let server = rt.block_on(Server::start(vec![reply(204, &[], "")]));
        let mut child = Command::new(BIN)
            .args(["--base-url", &server.base_url, "post-events"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let list = r#"[{"id":"a","at":"now"},{"id":"b","at":"then"}]"#;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(list.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let sent = server.requests();
        assert_eq!(sent[0].target, "/v1/events");
        let body: serde_json::Value = serde_json::from_slice(&sent[0].body).unwrap();
        assert_eq!(
            body,
            serde_json::from_str::<serde_json::Value>(list).unwrap()
        );
    }

    /// `--help` offers the server by the name `--env` takes; a server without a host cannot
    /// be called: a usage error (2) that names `--base-url`, with nothing sent.
    #[test]
    fn a_server_without_a_host_is_named_as_env_takes_it_and_needs_base_url() {
        let help = Command::new(BIN).arg("--help").output().unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("api_v2"), "{help}");
        for args in [
            &["--env", "api_v2", "get-event", "--id", "x", "--since", "y"][..],
            &["get-event", "--id", "x", "--since", "y"][..],
        ] {
            let out = Command::new(BIN).args(args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("--base-url http://HOST/api/v2"), "{stderr}");
        }
        let out = Command::new(BIN)
            .args(["--env", "apiv2", "get-event", "--id", "x", "--since", "y"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("expected one of api_v2"), "{stderr}");
    }

    /// An answer that does not decode is said to be one, with the place and the body; the
    /// server's words are not taken for its own message.
    #[test]
    fn an_answer_that_does_not_decode_says_so_with_the_place_and_the_body() {
        let rt = Background::new();
        let body = r#"{"id": ["x"], "at": "now", "detail": "not a message"}"#;
        let server = rt.block_on(Server::start(vec![json(200, &[], body)]));
        let got = run(
            &server.base_url,
            &["get-event", "--id", "x", "--since", "y"],
        );
        let stderr = String::from_utf8_lossy(&got.stderr);
        assert_eq!(got.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(
                "error: could not decode the 200 OK answer at /id: invalid type: sequence"
            ),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("the answer was: {body}")),
            "{stderr}"
        );
    }

    /// `--header`, `--timeout` and `--raw` on any command.
    #[test]
    fn headers_timeout_and_the_raw_answer_from_the_command_line() {
        let rt = Background::new();
        let event = r#"{"id":"e-1","at":"now","extra":true}"#;
        let server = rt.block_on(Server::start(vec![
            json(200, &[], event),
            common::scripted::delayed(json(200, &[], event), std::time::Duration::from_secs(5)),
        ]));
        let got = run(
            &server.base_url,
            &[
                "--raw",
                "-H",
                "X-Tenant: blue",
                "get-event",
                "--id",
                "x",
                "--since",
                "y",
            ],
        );
        assert!(
            got.status.success(),
            "{}",
            String::from_utf8_lossy(&got.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&got.stdout), event);
        assert_eq!(server.requests()[0].header("x-tenant"), Some("blue"));

        let started = std::time::Instant::now();
        let got = run(
            &server.base_url,
            &["--timeout", "0.3", "get-event", "--id", "x", "--since", "y"],
        );
        assert_eq!(
            got.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&got.stderr)
        );
        // The timeout is per attempt; a GET is retried after one, within the retry budget.
        assert!(started.elapsed() < std::time::Duration::from_secs(5));

        let got = run(
            &server.base_url,
            &["-H", "no colon", "get-event", "--id", "x", "--since", "y"],
        );
        assert_eq!(got.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&got.stderr).contains("expected `NAME: VALUE`"));
    }
}
