//! The CLI of tests/fixtures/text-formats.yaml, generated with `--string-formats` (issue 29),
//! as a built binary against a scripted server on 127.0.0.1: `uuid`, `date-time` and `date`
//! parameters and body properties are text it sends as typed, as the client it calls takes
//! them, never values it parses first (a CLI lowered without the option read `uuid::Uuid`
//! and refused, or failed to compile against, the client's `&str`).

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
