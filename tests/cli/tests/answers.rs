//! The CLI generated from tests/fixtures/answers.yaml (issue 33) as a built binary against
//! the generated server of the same document on 127.0.0.1: a binary answer written as its
//! bytes (to standard output or `--output FILE`, never printed as JSON), a parameter named
//! `version` as `--version`, `null` answers, credentials named after the scheme the document
//! uses (HTTP basic), and a WebSocket operation left out with its reason.

mod common;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::process::Command;

use answers_server::api::*;
use answers_server::runtime::auth::{Credential, SecurityScheme};
use answers_server::{AnswersApi, Authenticator, Principal, RequestContext, ServerConfig, types};
use common::Background;

const BIN: &str = env!("CARGO_BIN_EXE_answers-cli-under-test");
/// The audio `get-speech` answers: not UTF-8, with a NUL.
const AUDIO: &[u8] = b"ID3\xff\xfb\x00\x90audio";

struct Keys;

impl Authenticator for Keys {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        let ok = matches!(
            credential,
            Credential::Basic {
                user: "ann",
                password: "pw"
            }
        );
        Box::pin(std::future::ready(ok.then(|| Principal {
            subject: "ann".into(),
            plan: None,
            scheme: scheme.name,
        })))
    }
}

struct Service;

impl AnswersApi for Service {
    type Error = String;

    async fn get_current_owner(
        &self,
        _ctx: &RequestContext,
        _params: GetCurrentOwnerParams,
    ) -> Result<GetCurrentOwnerResponse, String> {
        Ok(GetCurrentOwnerResponse::Ok(None))
    }

    async fn get_motd(
        &self,
        _ctx: &RequestContext,
        _params: GetMotdParams,
    ) -> Result<GetMotdResponse, String> {
        Ok(GetMotdResponse::Ok("Closed on \"Sundays\".".into()))
    }

    async fn get_speech(
        &self,
        _ctx: &RequestContext,
        _params: GetSpeechParams,
    ) -> Result<GetSpeechResponse, String> {
        Ok(GetSpeechResponse::Ok(AUDIO.to_vec()))
    }

    async fn get_document(
        &self,
        _ctx: &RequestContext,
        params: GetDocumentParams,
    ) -> Result<GetDocumentResponse, String> {
        Ok(GetDocumentResponse::Ok(types::GetDocumentOkBody::new(
            params.id,
            params.version.unwrap_or(0),
        )))
    }
}

/// The server (kept running by the returned runtime) and its base URL.
fn serve() -> (Background, String) {
    let runtime = Background::new();
    let app = answers_server::router(
        std::sync::Arc::new(Service),
        ServerConfig::new().authenticator(Keys),
    );
    let addr = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
            .unwrap();
        });
        addr
    });
    (runtime, format!("http://{addr}/v1"))
}

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn cli(credentials: bool, args: &[&str]) -> Run {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .env_remove("ANSWERS_USERNAME")
        .env_remove("ANSWERS_PASSWORD");
    if credentials {
        command
            .env("ANSWERS_USERNAME", "ann")
            .env("ANSWERS_PASSWORD", "pw");
    }
    let output = command.output().expect("the binary runs");
    Run {
        code: output.status.code().expect("exited"),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn a_binary_answer_is_written_as_its_bytes() {
    let (_server, url) = serve();
    let run = cli(true, &["get-speech", "--text", "hi", "--base-url", &url]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, AUDIO, "the bytes as sent, not JSON");
    // `--json` changes nothing: bytes are never printed as JSON.
    let run = cli(
        true,
        &["--json", "get-speech", "--text", "hi", "--base-url", &url],
    );
    assert_eq!(run.stdout, AUDIO);
    let dir = std::env::temp_dir().join(format!("answers-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("speech.mp3");
    let run = cli(
        true,
        &[
            "get-speech",
            "--text",
            "hi",
            "--output",
            file.to_str().unwrap(),
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), AUDIO);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_parameter_named_version_is_version() {
    let (_server, url) = serve();
    let run = cli(
        true,
        &[
            "--json",
            "get-document",
            "--id",
            "a",
            "--version",
            "3",
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let body: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(body, serde_json::json!({"id": "a", "version": 3}));
    // The program's own version is still `--version` at the top.
    let run = cli(false, &["--version"]);
    assert_eq!(run.code, 0);
    assert!(String::from_utf8_lossy(&run.stdout).starts_with("answers-cli "));
}

#[test]
fn a_null_answer_is_printed_as_null() {
    let (_server, url) = serve();
    let run = cli(true, &["--json", "get-current-owner", "--base-url", &url]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "null");
}

/// A string answer of any media type (`*/*`) is printed as the text it is, not quoted.
#[test]
fn a_text_answer_is_printed_as_text() {
    let (_server, url) = serve();
    let run = cli(true, &["get-motd", "--base-url", &url]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).trim(),
        "Closed on \"Sundays\"."
    );
}

#[test]
fn credentials_are_named_after_the_schemes_used() {
    let run = cli(false, &["hold", "--base-url", "http://127.0.0.1:9"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.trim(),
        "error: ANSWERS_USERNAME and ANSWERS_PASSWORD are not set; set them to your credentials"
    );
    let help = cli(false, &["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(
            "The user name and password are read from ANSWERS_USERNAME and ANSWERS_PASSWORD."
        ),
        "{help}"
    );
    assert!(!help.contains("API_KEY"), "{help}");
}

#[test]
fn a_websocket_operation_is_left_out_with_its_reason() {
    let help = cli(false, &["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(
            "Not offered here:\n  openSocket: its answer switches protocols (101, a WebSocket)"
        ),
        "{help}"
    );
    let run = cli(true, &["open-socket"]);
    assert_eq!(run.code, 2, "no such subcommand");
}
