//! Request bodies read directly (no server): content types, limits, JSON syntax and shape
//! errors with pointers, forms, text and bytes.

use apigen_server_runtime::body::{
    decode_form, decode_multipart, is_json, media_type_matches, read_bytes, read_form, read_json,
    read_text,
};
use apigen_server_runtime::problem::Problem;
use axum::body::Body;
use http::request::Parts;
use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Available,
    Sold,
}

#[derive(Debug, Deserialize, PartialEq)]
struct NewPet {
    name: String,
    #[serde(rename = "categoryId")]
    category_id: i64,
    #[serde(default)]
    status: Option<Status>,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Form {
    name: String,
    #[serde(rename = "categoryId")]
    category_id: i64,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    status: Option<Status>,
    #[serde(default)]
    urgent: Option<bool>,
}

fn parts(content_type: Option<&str>, content_length: Option<usize>) -> Parts {
    let mut b = http::Request::builder().method("POST").uri("/pets");
    if let Some(ct) = content_type {
        b = b.header("content-type", ct);
    }
    if let Some(n) = content_length {
        b = b.header("content-length", n);
    }
    b.body(()).unwrap().into_parts().0
}

async fn json<T: serde::de::DeserializeOwned>(
    ct: Option<&str>,
    body: &str,
    required: bool,
) -> Result<Option<T>, Problem> {
    read_json(
        &parts(ct, None),
        Body::from(body.to_owned()),
        1000,
        required,
    )
    .await
}

/// The `message` of the body the default renderer writes for `p` (what a client reads).
async fn rendered_message(p: &Problem) -> String {
    let resp = apigen_server_runtime::problem::render_default(p);
    assert_eq!(resp.status(), p.status);
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    body["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn accepts_json_media_types() {
    for ct in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/merge-patch+json",
        "application/vnd.api+json;v=1",
    ] {
        let got: Option<NewPet> = json(Some(ct), r#"{"name":"a","categoryId":1}"#, true)
            .await
            .unwrap_or_else(|p| panic!("{ct}: {p}"));
        assert_eq!(got.unwrap().category_id, 1, "{ct}");
    }
    assert!(is_json("application/problem+json"));
    assert!(!is_json("text/json5"));
    assert!(!is_json("application/jsonx"));
    assert!(!is_json("json"));
}

#[tokio::test]
async fn wrong_or_missing_content_type_is_415() {
    let p = json::<NewPet>(Some("text/plain"), "{}", true)
        .await
        .unwrap_err();
    assert_eq!(p.status, 415);
    assert_eq!(p.code, "unsupported_media_type");
    assert_eq!(
        p.message,
        r#"unsupported content type "text/plain"; expected application/json"#
    );
    let p = json::<NewPet>(None, "{}", true).await.unwrap_err();
    assert_eq!(p.status, 415);
    assert_eq!(p.message, "missing Content-Type; expected application/json");
    // No content type and no body on an optional body: simply absent.
    assert_eq!(json::<NewPet>(None, "", false).await.unwrap(), None);
    assert_eq!(
        json::<NewPet>(Some("application/json"), "", false)
            .await
            .unwrap(),
        None
    );
    let p = json::<NewPet>(None, "", true).await.unwrap_err();
    assert_eq!(
        (p.status.as_u16(), p.message.as_str()),
        (400, "the request body is required")
    );
}

#[tokio::test]
async fn over_the_limit_is_413() {
    let body = format!(r#"{{"name":"{}","categoryId":1}}"#, "x".repeat(100));
    // declared length over the limit: refused before reading
    let p = read_json::<NewPet>(
        &parts(Some("application/json"), Some(body.len())),
        Body::from(body.clone()),
        50,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 413);
    assert_eq!(p.message, "request body exceeds the limit of 50 bytes");
    // no declared length: counted while reading
    let p = read_json::<NewPet>(
        &parts(Some("application/json"), None),
        Body::from(body),
        50,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(
        (p.status.as_u16(), p.code.as_ref()),
        (413, "payload_too_large")
    );
    // exactly at the limit is fine
    let body = r#"{"name":"a","categoryId":1}"#;
    assert!(
        read_json::<NewPet>(
            &parts(Some("application/json"), None),
            Body::from(body),
            body.len(),
            true
        )
        .await
        .is_ok()
    );
}

#[tokio::test]
async fn malformed_json_names_line_and_column() {
    let p = json::<NewPet>(
        Some("application/json"),
        "{\n  \"name\": \"a\",\n  oops\n}",
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 400);
    assert_eq!(p.code, "bad_request");
    assert_eq!(
        p.message,
        "malformed JSON: key must be a string at line 3 column 3"
    );
    assert!(p.violations.is_empty());
    let p = json::<NewPet>(
        Some("application/json"),
        r#"{"name":"a","categoryId":1} x"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(
        p.message,
        "malformed JSON: trailing characters at line 1 column 29"
    );
    let p = json::<NewPet>(Some("application/json"), "[", true)
        .await
        .unwrap_err();
    assert_eq!(
        p.message,
        "malformed JSON: EOF while parsing a list at line 1 column 1"
    );
}

#[tokio::test]
async fn wrong_shape_names_the_json_pointer() {
    let p = json::<NewPet>(
        Some("application/json"),
        r#"{"name":"a","categoryId":"x"}"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 400);
    assert_eq!(
        p.message,
        r#"/categoryId: invalid type: string "x", expected i64"#
    );
    assert_eq!(p.violations.len(), 1);
    assert_eq!(p.violations[0].pointer, "/categoryId");
    assert_eq!(
        rendered_message(&p).await,
        r#"/categoryId: invalid type: string "x", expected i64"#
    );

    let p = json::<NewPet>(Some("application/json"), r#"{"categoryId":1}"#, true)
        .await
        .unwrap_err();
    assert_eq!(p.message, "body: missing field `name`");
    assert_eq!(p.violations[0].pointer, "");

    let p = json::<Vec<NewPet>>(
        Some("application/json"),
        r#"[{"name":"a","categoryId":1},{"name":"b","categoryId":2,"status":"lost"}]"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(
        p.message,
        "/1/status: unknown variant `lost`, expected `available` or `sold`"
    );

    let p = json::<NewPet>(
        Some("application/json"),
        r#"{"name":"a","categoryId":99999999999999999999}"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 400);
    assert!(p.message.starts_with("/categoryId: "), "{}", p.message);

    let p = json::<std::collections::BTreeMap<String, NewPet>>(
        Some("application/json"),
        r#"{"a/b~c":{"name":1,"categoryId":1}}"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.violations[0].pointer, "/a~1b~0c/name");
}

#[derive(Debug, Deserialize, PartialEq)]
struct StrictPet {
    name: String,
    #[serde(default, deserialize_with = "apigen_server_runtime::body::non_null")]
    nickname: Option<String>,
    #[serde(default, deserialize_with = "apigen_server_runtime::body::non_null")]
    status: Option<Status>,
    #[serde(default)]
    note: Option<String>, // a nullable property: plain Option
}

#[tokio::test]
async fn non_null_refuses_null_for_optional_fields_that_are_not_nullable() {
    let ok = |body: &'static str| async move {
        json::<StrictPet>(Some("application/json"), body, true)
            .await
            .unwrap()
            .unwrap()
    };
    assert_eq!(ok(r#"{"name":"a"}"#).await.status, None);
    assert_eq!(
        ok(r#"{"name":"a","status":"sold"}"#).await.status,
        Some(Status::Sold)
    );
    assert_eq!(ok(r#"{"name":"a","note":null}"#).await.note, None);

    let p = json::<StrictPet>(
        Some("application/json"),
        r#"{"name":"a","nickname":null}"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 400);
    assert_eq!(p.violations.len(), 1, "{p:?}");
    assert_eq!(p.violations[0].pointer, "/nickname");
    assert_eq!(
        p.message,
        "/nickname: invalid type: null, expected a string"
    );
    // (serde_json words `null` for a derived enum as a syntax error; still a 400)
    let p = json::<StrictPet>(
        Some("application/json"),
        r#"{"name":"a","status":null}"#,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 400);
    assert_eq!(
        ok(r#"{"name":"a","nickname":"Rexy"}"#)
            .await
            .nickname
            .as_deref(),
        Some("Rexy")
    );

    // The same rule in forms: a present value must decode.
    let p = decode_form::<StrictPet>(b"name=a&status=lost").unwrap_err();
    assert_eq!(p.status, 400);
    let f = decode_form::<StrictPet>(b"name=a&status=sold").unwrap();
    assert_eq!(f.status, Some(Status::Sold));
}

#[tokio::test]
async fn forms_fill_typed_fields() {
    let f: Form = read_form(
        &parts(Some("application/x-www-form-urlencoded"), None),
        Body::from("name=Rex+the+dog&categoryId=5&tags=a&tags=b%2Cc&status=sold&urgent=true"),
        1000,
        true,
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        f,
        Form {
            name: "Rex the dog".into(),
            category_id: 5,
            tags: vec!["a".into(), "b,c".into()],
            status: Some(Status::Sold),
            urgent: Some(true),
        }
    );
    let f: Form = decode_form(b"name=x&categoryId=1&tags=solo").unwrap();
    assert_eq!(f.tags, vec!["solo"]);

    let p = decode_form::<Form>(b"name=x&categoryId=x").unwrap_err();
    assert_eq!(
        p.message,
        r#"/categoryId: invalid value: string "x", expected i64"#
    );
    let p = decode_form::<Form>(b"categoryId=1").unwrap_err();
    assert_eq!(p.message, "body: missing field `name`");
    let p = decode_form::<Form>(b"name=x&categoryId=1&status=lost").unwrap_err();
    assert_eq!(p.violations[0].pointer, "/status");

    let p = read_form::<Form>(
        &parts(Some("application/json"), None),
        Body::from("{}"),
        100,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 415);

    // An optional form body: an empty one sent as a form is the form of no fields (its
    // required `name` is missing: 400), an empty one without a Content-Type is no body.
    let empty = |content_type: Option<&'static str>| async move {
        read_form::<Form>(&parts(content_type, Some(0)), Body::empty(), 100, false).await
    };
    let p = empty(Some("application/x-www-form-urlencoded"))
        .await
        .unwrap_err();
    assert_eq!(p.status, 400);
    assert_eq!(p.message, "body: missing field `name`");
    assert_eq!(empty(None).await.unwrap(), None);
}

#[tokio::test]
async fn text_and_bytes() {
    let t = read_text(
        &parts(Some("text/plain; charset=utf-8"), None),
        Body::from("héllo"),
        100,
        true,
    )
    .await
    .unwrap();
    assert_eq!(t.as_deref(), Some("héllo"));
    let t = read_text(&parts(Some("text/csv"), None), Body::from("a,b"), 100, true)
        .await
        .unwrap();
    assert_eq!(t.as_deref(), Some("a,b"));
    let p = read_text(
        &parts(Some("text/plain"), None),
        Body::from(vec![0xff, 0xfe]),
        100,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(p.message, "the request body is not valid UTF-8 text");
    let p = read_text(
        &parts(Some("application/json"), None),
        Body::from("x"),
        100,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(
        p.message,
        r#"unsupported content type "application/json"; expected text/*"#
    );
    assert_eq!(
        read_text(&parts(None, None), Body::empty(), 100, false)
            .await
            .unwrap(),
        None
    );
    // Sent with its Content-Type, an empty body is the empty value, even where the body is
    // required (buildomat's required `application/octet-stream` chunk of no bytes); without
    // one it is no body.
    let empty_bytes = read_bytes(
        &parts(Some("application/octet-stream"), Some(0)),
        Body::empty(),
        100,
        true,
        "application/octet-stream",
    )
    .await
    .unwrap();
    assert_eq!(empty_bytes.as_deref(), Some(&b""[..]));
    let t = read_text(
        &parts(Some("text/plain"), Some(0)),
        Body::empty(),
        100,
        true,
    )
    .await
    .unwrap();
    assert_eq!(t.as_deref(), Some(""));
    let p = read_bytes(&parts(None, Some(0)), Body::empty(), 100, true, "")
        .await
        .unwrap_err();
    assert_eq!(p.message, "the request body is required");

    let b = read_bytes(
        &parts(Some("image/png"), None),
        Body::from(vec![1u8, 2, 3]),
        100,
        true,
        "image/*",
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(&b[..], &[1, 2, 3]);
    let b = read_bytes(
        &parts(Some("multipart/form-data; boundary=xyz"), None),
        Body::from("--xyz--"),
        100,
        true,
        "multipart/form-data",
    )
    .await
    .unwrap();
    assert_eq!(b.as_deref(), Some(&b"--xyz--"[..]));
    let p = read_bytes(
        &parts(Some("text/plain"), None),
        Body::from("x"),
        100,
        true,
        "application/octet-stream",
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 415);
    assert_eq!(
        p.message,
        r#"unsupported content type "text/plain"; expected application/octet-stream"#
    );
    let p = read_bytes(
        &parts(Some("image/png"), None),
        Body::from(vec![0u8; 11]),
        10,
        true,
        "*/*",
    )
    .await
    .unwrap_err();
    assert_eq!(p.status, 413);
    assert!(media_type_matches("image/png", &["*/*"]));
    assert!(media_type_matches("image/png", &[]));
    assert!(!media_type_matches("imagex/png", &["image/*"]));
}

/// A body that arrives in the given chunks, one poll each.
fn chunked(chunks: &[&str]) -> Body {
    struct Chunks(std::collections::VecDeque<axum::body::Bytes>);
    impl futures_core::Stream for Chunks {
        type Item = Result<axum::body::Bytes, std::io::Error>;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            std::task::Poll::Ready(self.0.pop_front().map(Ok))
        }
    }
    let chunks = chunks
        .iter()
        .map(|c| axum::body::Bytes::from(c.to_string()))
        .collect();
    Body::from_stream(Chunks(chunks))
}

#[tokio::test]
async fn a_body_in_several_chunks_is_read_whole() {
    // One, two, three and four chunks: the single-chunk path, and every way of joining them.
    for chunks in [
        &["hello world"][..],
        &["hello", " world"],
        &["he", "llo", " world"],
        &["he", "llo", " wor", "ld"],
    ] {
        let text = read_text(&parts(Some("text/plain"), None), chunked(chunks), 100, true)
            .await
            .unwrap();
        assert_eq!(text.as_deref(), Some("hello world"), "{chunks:?}");
    }
}

#[tokio::test]
async fn a_declared_length_exactly_at_the_limit_is_read() {
    let body = "x".repeat(10);
    let text = read_text(
        &parts(Some("text/plain"), Some(10)),
        Body::from(body.clone()),
        10,
        true,
    )
    .await
    .unwrap();
    assert_eq!(text, Some(body));
    // One more declared byte is refused before anything is read.
    let refused = read_text(
        &parts(Some("text/plain"), Some(11)),
        Body::from("x".repeat(11)),
        10,
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(refused.status, http::StatusCode::PAYLOAD_TOO_LARGE);
}

#[test]
fn the_media_type_is_the_lower_cased_essence() {
    use apigen_server_runtime::body::media_type;
    assert_eq!(
        media_type(&parts(Some("Application/JSON; charset=utf-8"), None)).as_deref(),
        Some("application/json")
    );
    assert_eq!(
        media_type(&parts(Some("application/x-www-form-urlencoded"), None)).as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(media_type(&parts(None, None)), None);
}

#[tokio::test]
async fn a_string_valued_field_given_another_type_says_a_string_was_expected() {
    #[derive(Debug, Deserialize)]
    struct Host {
        #[serde(deserialize_with = "apigen_server_runtime::body::from_str_value")]
        #[allow(dead_code)] // only the refusal is tested
        addr: std::net::Ipv4Addr,
    }
    let ok: Host = apigen_server_runtime::body::decode_json(br#"{"addr": "10.0.0.1"}"#).unwrap();
    assert_eq!(ok.addr, std::net::Ipv4Addr::new(10, 0, 0, 1));
    let err = apigen_server_runtime::body::decode_json::<Host>(br#"{"addr": 10}"#).unwrap_err();
    let message = rendered_message(&err).await;
    assert!(message.contains("expected a string"), "{message}");
    assert!(message.starts_with("/addr"), "{message}");
}

#[derive(Debug, Deserialize, PartialEq)]
struct Embed {
    title: String,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Webhook {
    #[serde(default)]
    attachments: Vec<Embed>,
    #[serde(default)]
    labels: Vec<String>,
}

/// A multipart body of the given (name, text) parts.
fn multipart_of(parts: &[(&str, &str)]) -> Vec<u8> {
    let mut body = String::new();
    for (name, text) in parts {
        body.push_str(&format!(
            "--xyz\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{text}\r\n"
        ));
    }
    body.push_str("--xyz--\r\n");
    body.into_bytes()
}

// discord's slack webhook: a part holding an array of objects as its JSON is that list; the
// same text where the list's items are strings stays one item, and repeated parts are items.
#[test]
fn a_part_holding_a_json_array_of_objects_is_the_list() {
    let decode = |parts: &[(&str, &str)]| {
        decode_multipart::<Webhook>("multipart/form-data; boundary=xyz", &multipart_of(parts))
    };
    let read = decode(&[("attachments", r#"[{"title":"a"},{"title":"b"}]"#)]).unwrap();
    assert_eq!(
        read.attachments,
        vec![Embed { title: "a".into() }, Embed { title: "b".into() }]
    );
    let read = decode(&[
        ("attachments", r#"{"title":"a"}"#),
        ("attachments", r#"{"title":"b"}"#),
    ])
    .unwrap();
    assert_eq!(read.attachments.len(), 2);
    let read = decode(&[("labels", r#"["x"]"#)]).unwrap();
    assert_eq!(read.labels, vec![r#"["x"]"#]);
    // A list that fits neither way is refused with the first reading's words.
    let refused = decode(&[("attachments", r#"[{"name":"a"}]"#)]).unwrap_err();
    assert_eq!(refused.violations[0].pointer, "/attachments/0");
}
