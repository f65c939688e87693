//! The CLI generated from tests/fixtures/answers.yaml as a built binary against the generated
//! server of the same document on 127.0.0.1: a binary answer written as its bytes (to standard
//! output or `--output FILE`, never printed as JSON), a parameter named `version` as
//! `--version`, `null` answers, credentials named after the scheme the document uses (HTTP
//! basic), and a WebSocket operation left out with its reason. Uploads: a file of several MB
//! arriving byte for byte, standard input, a text body, a multipart form of two files and a
//! JSON part read by the server into its type, and a missing required file refused with status
//! 2 before anything is sent.

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

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The request's `Content-Type`, as it arrived.
fn media(ctx: &RequestContext) -> String {
    ctx.headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

impl AnswersApi for Service {
    type Error = String;

    async fn put_blob(
        &self,
        _ctx: &RequestContext,
        params: PutBlobParams,
        body: Vec<u8>,
    ) -> Result<PutBlobResponse, String> {
        Ok(PutBlobResponse::Ok(format!(
            "{} {} {}",
            params.name,
            sha256(&body),
            body.len()
        )))
    }

    async fn put_image(
        &self,
        ctx: &RequestContext,
        _params: PutImageParams,
        body: Vec<u8>,
    ) -> Result<PutImageResponse, String> {
        Ok(PutImageResponse::Ok(format!(
            "{} {}",
            media(ctx),
            sha256(&body)
        )))
    }

    async fn add_asset(
        &self,
        ctx: &RequestContext,
        _params: AddAssetParams,
        body: Vec<u8>,
    ) -> Result<AddAssetResponse, String> {
        Ok(AddAssetResponse::Ok(format!(
            "{} {}",
            media(ctx),
            sha256(&body)
        )))
    }

    async fn add_note(
        &self,
        _ctx: &RequestContext,
        _params: AddNoteParams,
        body: String,
    ) -> Result<AddNoteResponse, String> {
        Ok(AddNoteResponse::Ok(body))
    }

    /// The server has read the parts into the body's type and checked them; the bytes as
    /// sent are read again here to answer what arrived.
    async fn add_album(
        &self,
        ctx: &RequestContext,
        _params: AddAlbumParams,
        body: Vec<u8>,
    ) -> Result<AddAlbumResponse, String> {
        use answers_server::runtime::multipart;
        let content_type = ctx
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
        let parts = multipart::parse(&body.into(), &boundary).map_err(|e| format!("{e:?}"))?;
        let find = |name: &str| parts.iter().find(|p| p.name == name);
        let text = |name: &str| find(name).map(|p| String::from_utf8_lossy(&p.data).into_owned());
        let meta: serde_json::Value =
            serde_json::from_str(&text("meta").unwrap_or_default()).map_err(|e| e.to_string())?;
        let described = parts
            .iter()
            .map(|p| {
                format!(
                    "{} {} {}",
                    p.name,
                    p.filename.as_deref().unwrap_or("-"),
                    p.content_type.as_deref().unwrap_or("-")
                )
            })
            .collect();
        let tags: Vec<String> = parts
            .iter()
            .filter(|p| p.name == "tags")
            .map(|p| String::from_utf8_lossy(&p.data).into_owned())
            .collect();
        let mut album = types::AddAlbumOkBody::new(
            text("title").unwrap_or_default(),
            meta["year"].as_i64().unwrap_or_default(),
            find("cover").map(|p| sha256(&p.data)).unwrap_or_default(),
            described,
        )
        .with_tags((!tags.is_empty()).then_some(tags));
        album.back = find("back").map(|p| sha256(&p.data));
        Ok(AddAlbumResponse::Ok(album))
    }

    /// What arrived: the JSON body, or the form's title and the SHA-256 of its image.
    async fn add_poster(
        &self,
        ctx: &RequestContext,
        _params: AddPosterParams,
        body: answers_server::runtime::body::OrMultipart<types::AddPosterBody>,
    ) -> Result<AddPosterResponse, String> {
        use answers_server::runtime::body::OrMultipart;
        use answers_server::runtime::multipart;
        let poster = match body {
            OrMultipart::Typed(body) => types::AddPosterOkBody::new("json", body.title),
            OrMultipart::Multipart(bytes) => {
                let content_type = ctx
                    .headers
                    .get(http::header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default();
                let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
                let parts =
                    multipart::parse(&bytes.into(), &boundary).map_err(|e| format!("{e:?}"))?;
                let find = |name: &str| parts.iter().find(|p| p.name == name);
                let title = find("title")
                    .map(|p| String::from_utf8_lossy(&p.data).into_owned())
                    .unwrap_or_default();
                let mut poster = types::AddPosterOkBody::new("multipart", title);
                poster.image = find("image").map(|p| sha256(&p.data));
                poster
            }
        };
        Ok(AddPosterResponse::Ok(poster))
    }

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
        // Uploads of several MB: a service taking files raises the 1 MiB default.
        ServerConfig::new()
            .authenticator(Keys)
            .body_limit(16 * 1024 * 1024),
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
    cli_with_input(credentials, args, None)
}

/// As [`cli`], with `input` on standard input.
fn cli_with_input(credentials: bool, args: &[&str], input: Option<&[u8]>) -> Run {
    use std::io::Write;
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
    command.stdin(std::process::Stdio::piped());
    command.stdout(std::process::Stdio::piped());
    command.stderr(std::process::Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.unwrap_or_default().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the binary runs");
    writer.join().expect("stdin written");
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

/// A temporary directory of its own for one test.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("answers-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Bytes of every value, not UTF-8, a few MB (a xorshift sequence: the same every run).
fn noise(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn a_file_of_several_mb_arrives_byte_for_byte() {
    let (_server, url) = serve();
    let dir = scratch("blob");
    let data = noise(5 * 1024 * 1024 + 7);
    let path = dir.join("backup.tar");
    std::fs::write(&path, &data).unwrap();
    let run = cli(
        true,
        &[
            "put-blob",
            "--name",
            "backup",
            "--body-file",
            path.to_str().unwrap(),
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Standard error is no terminal here: no progress line.
    assert!(!run.stderr.contains("uploading"), "{}", run.stderr);
    let said = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        said.trim(),
        format!("backup {} {}", sha256(&data), data.len()),
        "the server's SHA-256 of what arrived"
    );
    // From standard input, the same.
    let run = cli_with_input(
        true,
        &[
            "put-blob",
            "--name",
            "piped",
            "--body-file",
            "-",
            "--base-url",
            &url,
        ],
        Some(&data),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).trim(),
        format!("piped {} {}", sha256(&data), data.len())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_text_body_from_the_line_a_file_or_standard_input() {
    let (_server, url) = serve();
    let dir = scratch("note");
    let path = dir.join("note.txt");
    std::fs::write(&path, "from a file\n").unwrap();
    let path = path.to_str().unwrap();
    for (args, input, sent) in [
        (&["--body", "inline"][..], None, "inline"),
        (&["--body-file", path], None, "from a file\n"),
        (&["--body-file", "-"], Some(&b"piped"[..]), "piped"),
    ] {
        let mut line = vec!["add-note"];
        line.extend_from_slice(args);
        line.extend_from_slice(&["--base-url", &url]);
        let run = cli_with_input(true, &line, input);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout).trim_end(),
            sent.trim_end()
        );
    }
    // Not UTF-8: refused before anything is sent.
    std::fs::write(dir.join("bad.txt"), [0xff, 0xfe]).unwrap();
    let bad = dir.join("bad.txt");
    let run = cli(
        true,
        &[
            "add-note",
            "--body-file",
            bad.to_str().unwrap(),
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_multipart_form_of_two_files_and_a_json_part() {
    let (_server, url) = serve();
    let dir = scratch("album");
    let (cover, back) = (noise(300_000), noise(1_000));
    // The document's `encoding` gives the cover's media type, whatever the file's name.
    std::fs::write(dir.join("cover.dat"), &cover).unwrap();
    std::fs::write(dir.join("back.jpg"), &back).unwrap();
    let cover_arg = format!("cover={}", dir.join("cover.dat").display());
    let back_arg = format!("back={}", dir.join("back.jpg").display());
    let run = cli(
        true,
        &[
            "--json",
            "add-album",
            "--field",
            "title=Kind of Blue",
            "--field",
            r#"meta={"year": 1959, "label": "Columbia"}"#,
            "--field",
            "tags=jazz",
            "--field",
            "tags=modal",
            "--file",
            &cover_arg,
            "--file",
            &back_arg,
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(got["title"], "Kind of Blue");
    assert_eq!(got["year"], 1959);
    assert_eq!(got["tags"], serde_json::json!(["jazz", "modal"]));
    assert_eq!(got["cover"], sha256(&cover));
    assert_eq!(got["back"], sha256(&back));
    let parts: Vec<&str> = got["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(
        parts,
        [
            "title - -",
            "meta - application/json",
            "tags - -",
            "tags - -",
            "cover cover.dat image/png",
            "back back.jpg image/jpeg",
        ]
    );
    // The server reads the parts into the body's type and checks them: a year below the
    // schema's minimum is its 400, naming the place.
    let run = cli(
        true,
        &[
            "add-album",
            "--field",
            "title=Early",
            "--field",
            r#"meta={"year": 1800}"#,
            "--file",
            &cover_arg,
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("400"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_required_file_is_status_2_with_nothing_sent() {
    // A listener nobody answers on: after each command line, it must have had no connection.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    for args in [
        &[
            "--field",
            "title=Nothing",
            "--field",
            r#"meta={"year":2001}"#,
        ][..],
        // A file that cannot be read, or a part the form does not have: the same.
        &[
            "--field",
            "title=T",
            "--field",
            r#"meta={"year":2001}"#,
            "--file",
            "cover=/no/such.png",
        ],
        &[
            "--field",
            "title=T",
            "--field",
            "nope=1",
            "--file",
            "cover=/dev/null",
        ],
    ] {
        let mut line = vec!["add-album"];
        line.extend_from_slice(args);
        line.extend_from_slice(&["--base-url", &url]);
        let run = cli(true, &line);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
            "{args:?}: nothing is sent"
        );
    }
    let run = cli(
        true,
        &["add-album", "--field", "title=T", "--base-url", &url],
    );
    assert!(run.stderr.contains("--file cover=PATH"), "{}", run.stderr);
    let help = cli(false, &["add-album", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(
            "answers-cli add-album --field title=… --field 'meta={…}' --file cover=./cover.png"
        ),
        "{help}"
    );
}

/// A body the document offers as JSON and as a form: JSON by default (`--body`, the property
/// flags), the form when `--field` or `--file` is given, through the client's multipart
/// method; both at once is status 2 with nothing sent.
#[test]
fn a_body_offered_as_json_and_as_a_form_is_sent_as_what_was_given() {
    let (_server, url) = serve();
    let dir = scratch("poster");
    let image = noise(50_000);
    std::fs::write(dir.join("poster.png"), &image).unwrap();
    let image_arg = format!("image={}", dir.join("poster.png").display());
    let json = |args: &[&str]| {
        let mut line = vec!["--json", "add-poster"];
        line.extend_from_slice(args);
        line.extend_from_slice(&["--base-url", &url]);
        let run = cli(true, &line);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        serde_json::from_slice::<serde_json::Value>(&run.stdout).unwrap()
    };
    let got = json(&["--title", "Dune"]);
    assert_eq!(
        (&got["sent_as"], &got["title"]),
        (&"json".into(), &"Dune".into())
    );
    let got = json(&["--body", r#"{"title": "Alien"}"#]);
    assert_eq!(got["sent_as"], "json");
    let got = json(&["--field", "title=Heat", "--file", &image_arg]);
    assert_eq!(
        (&got["sent_as"], &got["title"]),
        (&"multipart".into(), &"Heat".into())
    );
    assert_eq!(got["image"], sha256(&image));
    // The form's own required parts are checked before sending: no image is status 2.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let nobody = format!("http://{}/v1", listener.local_addr().unwrap());
    for args in [
        &["--field", "title=Heat"][..],
        &["--title", "Heat", "--file", &image_arg],
        &["--body", r#"{"title": "Heat"}"#, "--field", "title=Heat"],
    ] {
        let mut line = vec!["add-poster"];
        line.extend_from_slice(args);
        line.extend_from_slice(&["--base-url", &nobody]);
        let run = cli(true, &line);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
            "{args:?}: nothing is sent"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--body @FILE` reads a JSON body from a file, `--body -` from standard input.
#[test]
fn a_json_body_from_a_file_or_standard_input() {
    let (_server, url) = serve();
    let dir = scratch("json");
    let path = dir.join("token.json");
    std::fs::write(&path, r#"{"token": "t", "note": 1}"#).unwrap();
    let at = format!("@{}", path.display());
    for (body, input) in [
        (at.as_str(), None),
        ("-", Some(&br#"{"token": "t", "note": 1}"#[..])),
    ] {
        let run = cli_with_input(
            false,
            &[
                "check-token",
                "--authorization",
                "t",
                "--body",
                body,
                "--base-url",
                &url,
            ],
            input,
        );
        assert_ne!(run.code, 2, "{body}: the body was read ({})", run.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A body the document offers in two media types is sent as the first, or as the one
/// `--content-type` names; one it does not list is status 2 with nothing sent, and the server
/// refuses it (415) from any other client. A body of any media type (`*/*`) is sent as the
/// file's extension says.
#[test]
fn a_body_s_media_type_is_the_document_s_first_or_the_one_named() {
    let (_server, url) = serve();
    let dir = scratch("media");
    let data = noise(4096);
    let path = dir.join("gate.bin");
    std::fs::write(&path, &data).unwrap();
    let file = path.to_str().unwrap();
    let digest = sha256(&data);
    for (extra, said) in [
        (&[][..], "image/png"),
        (&["--content-type", "image/jpeg"][..], "image/jpeg"),
    ] {
        let mut args = vec!["put-image", "--name", "gate", "--body-file", file];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--base-url", &url]);
        let run = cli(true, &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout).trim(),
            format!("{said} {digest}")
        );
    }
    let run = cli(
        true,
        &[
            "put-image",
            "--name",
            "gate",
            "--body-file",
            file,
            "--content-type",
            "image/gif",
            "--base-url",
            &url,
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("image/png, image/jpeg"),
        "{}",
        run.stderr
    );
    // From any client: a media type the document does not list is refused.
    let status = |media: &str| {
        use std::io::{Read, Write};
        let addr = url.trim_start_matches("http://").trim_end_matches("/v1");
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "PUT /v1/images/gate HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Basic YW5uOnB3\r\nContent-Type: {media}\r\nContent-Length: 3\r\nConnection: close\r\n\r\nGIF"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer.split(' ').nth(1).unwrap_or_default().to_owned()
    };
    assert_eq!(status("image/gif"), "415");
    assert_eq!(status("image/jpeg"), "200");
    // Any media type: the file's extension, else the plainest.
    let zip = dir.join("release.zip");
    std::fs::write(&zip, &data).unwrap();
    for (path, said) in [
        (zip.to_str().unwrap(), "application/zip"),
        (file, "application/octet-stream"),
    ] {
        let run = cli(
            true,
            &["add-asset", "--body-file", path, "--base-url", &url],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout).trim(),
            format!("{said} {digest}")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The client tells `on_progress` how far a long upload and any download have got (what the
/// CLI draws its progress line from, on a terminal): the upload of several MB in pieces up to
/// its length, the answer as it is read, each ending at its length. The CLI's own run above,
/// with standard error not a terminal, printed no progress at all.
#[test]
fn the_client_reports_how_far_a_transfer_has_got() {
    use answers_client::runtime::progress::{Direction, Progress};
    use std::sync::{Arc, Mutex};
    let (server, url) = serve();
    let log: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let record = Arc::clone(&log);
    let client = answers_client::Client::builder(url)
        .basic("ann", "pw")
        .on_progress(move |p| record.lock().unwrap().push(p))
        .build()
        .unwrap();
    let data = bytes::Bytes::from(noise(3 * 1024 * 1024 + 5));
    let said = server
        .block_on(client.put_blob("big", &data))
        .unwrap()
        .into_inner();
    assert_eq!(said, format!("big {} {}", sha256(&data), data.len()));
    let seen = std::mem::take(&mut *log.lock().unwrap());
    let total = data.len() as u64;
    let uploads: Vec<u64> = seen
        .iter()
        .filter(|p| p.direction == Direction::Upload)
        .map(|p| {
            assert_eq!(p.total, Some(total));
            p.done
        })
        .collect();
    assert!(uploads.len() > 10, "{} pieces", uploads.len());
    assert!(uploads.windows(2).all(|w| w[0] < w[1]), "{uploads:?}");
    assert_eq!(uploads.last(), Some(&total));
    let last = seen.last().expect("the answer was read");
    assert_eq!(last.direction, Direction::Download);
    assert_eq!(last.total, Some(last.done));
    // A small body goes in one write, unreported; its answer is still counted.
    let small = bytes::Bytes::from_static(b"tiny");
    server.block_on(client.put_blob("small", &small)).unwrap();
    let after = std::mem::take(&mut *log.lock().unwrap());
    assert!(!after.is_empty());
    assert!(
        after.iter().all(|p| p.direction == Direction::Download),
        "{after:?}"
    );
}

/// On a terminal (a pseudo-terminal from util-linux's `script`), a long upload draws its
/// progress line on standard error, ending at 100%; the answer still goes to standard output.
#[test]
fn a_long_upload_shows_progress_on_a_terminal() {
    let (_server, url) = serve();
    let dir = scratch("tty");
    let path = dir.join("backup.tar");
    std::fs::write(&path, noise(5 * 1024 * 1024)).unwrap();
    let line = format!(
        "{BIN} put-blob --name tty --body-file '{}' --base-url {url} >/dev/null",
        path.display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("ANSWERS_USERNAME", "ann")
        .env("ANSWERS_PASSWORD", "pw")
        .output()
        .expect("util-linux's `script` runs");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(
        shown.contains("uploading 5.0 of 5.0 MB (100%)"),
        "{shown:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
