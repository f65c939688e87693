//! tests/fixtures/constructs.yaml over loopback HTTP: security alternatives (basic OR
//! query key AND cookie key), header/cookie/exploded-array parameters, defaults, form and JSON
//! bodies for one operation, octet and text bodies, status ranges, several success statuses.

mod common;

use constructs_client::client::{GetTreesIdError, GetTreesIdOptions, GetTreesIdSuccess};
use constructs_client::{Client, Error, RetryPolicy};
use constructs_server::api::*;
use constructs_server::runtime::auth::{Credential, SecurityScheme};
use constructs_server::{
    Authenticator, ConstructsApi, OrMultipart, Principal, RequestContext, ServerConfig, types,
};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;

/// Basic `ann:pw`, query key `q`, cookie key `c`, bearer `t`.
struct Keys;

impl Authenticator for Keys {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        let ok = match (scheme.name, credential) {
            ("basic", Credential::Basic { user, password }) => user == "ann" && password == "pw",
            ("queryKey", Credential::ApiKey(k)) => k == "q",
            ("cookieKey", Credential::ApiKey(k)) => k == "c",
            ("oauth", Credential::Bearer(t)) => t == "t",
            _ => false,
        };
        let principal = ok.then(|| Principal {
            subject: scheme.name.to_string(),
            plan: None,
            scheme: scheme.name,
        });
        Box::pin(std::future::ready(principal))
    }
}

/// A body offered as JSON or a form and as multipart, typed: a multipart body's text fields
/// decoded with the runtime (`ctx`'s Content-Type names the boundary), as an implementation
/// without files to read does.
macro_rules! typed {
    ($ctx:expr, $body:expr) => {
        match $body {
            OrMultipart::Typed(value) => value,
            OrMultipart::Multipart(bytes) => {
                let content_type = $ctx.headers["content-type"]
                    .to_str()
                    .map_err(|e| e.to_string())?;
                constructs_server::runtime::body::decode_multipart(content_type, &bytes)
                    .map_err(|p| p.message)?
            }
        }
    };
}

struct Service;

impl ConstructsApi for Service {
    type Error = String;

    async fn get_trees_id(
        &self,
        ctx: &RequestContext,
        params: GetTreesIdParams,
    ) -> Result<GetTreesIdResponse, String> {
        if params.id == 0 {
            return Ok(GetTreesIdResponse::ClientError(
                http::StatusCode::IM_A_TEAPOT,
                types::GetTreesIdClientErrorBody {
                    reason: Some("teapot".into()),
                },
            ));
        }
        if params.id == 1 {
            return Ok(GetTreesIdResponse::Accepted);
        }
        // The caller was authenticated, and the header parameter arrived.
        assert!(ctx.principal().is_some());
        assert_eq!(params.x_trace, "trace-1");
        let ids: i64 = params.ids.unwrap_or_default().iter().sum();
        let leaf = |value: i64| types::Tree {
            value: value as i32,
            left: None,
            right: None,
            children: None,
        };
        Ok(GetTreesIdResponse::Ok(types::Tree {
            value: params.id as i32,
            left: Some(Box::new(leaf(params.depth))),
            right: None,
            children: Some(vec![leaf(ids)]),
        }))
    }

    async fn post_forms(
        &self,
        ctx: &RequestContext,
        _params: PostFormsParams,
        body: Option<OrMultipart<types::FormEntry>>,
    ) -> Result<PostFormsResponse, String> {
        match body.ok_or("body expected")? {
            OrMultipart::Typed(entry) => assert_eq!(entry.name, "n"),
            // As sent: the parts are the implementation's to read (a `name` may be bytes).
            OrMultipart::Multipart(bytes) => {
                use constructs_server::runtime::multipart;
                let content_type = ctx.headers["content-type"]
                    .to_str()
                    .map_err(|e| e.to_string())?;
                let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
                let parts = multipart::parse(&bytes.into(), &boundary).map_err(|p| p.message)?;
                let name = parts.iter().find(|p| p.name == "name").ok_or("no name")?;
                assert!(name.data == b"n"[..] || name.data == [0xff, 0xfe][..]);
            }
        }
        Ok(PostFormsResponse::Created)
    }

    async fn put_blobs(
        &self,
        _ctx: &RequestContext,
        _params: PutBlobsParams,
        body: Vec<u8>,
    ) -> Result<PutBlobsResponse, String> {
        Ok(PutBlobsResponse::Ok(format!("{} bytes", body.len())))
    }

    async fn add_dish(
        &self,
        ctx: &RequestContext,
        _params: AddDishParams,
        body: OrMultipart<types::Dish>,
    ) -> Result<AddDishResponse, String> {
        let dish: types::Dish = typed!(ctx, body);
        Ok(AddDishResponse::Ok(dish))
    }

    async fn put_raw_note(
        &self,
        _ctx: &RequestContext,
        _params: PutRawNoteParams,
        body: String,
    ) -> Result<PutRawNoteResponse, String> {
        Ok(PutRawNoteResponse::Ok(format!("{} bytes", body.len())))
    }

    async fn create_video(
        &self,
        ctx: &RequestContext,
        _params: CreateVideoParams,
        body: OrMultipart<types::CreateVideoBody>,
    ) -> Result<CreateVideoResponse, String> {
        use constructs_server::runtime::multipart;
        Ok(CreateVideoResponse::Created(match body {
            OrMultipart::Typed(video) => format!("json: {}", video.prompt),
            OrMultipart::Multipart(bytes) => {
                let content_type = ctx.headers["content-type"]
                    .to_str()
                    .map_err(|e| e.to_string())?;
                let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
                let parts = multipart::parse(&bytes.into(), &boundary).map_err(|p| p.message)?;
                let file = parts
                    .iter()
                    .find(|p| p.name == "reference")
                    .ok_or("no file")?;
                format!("multipart: {} bytes", file.data.len())
            }
        }))
    }

    /// Reads the form's parts itself, with the runtime's parser and the boundary of the
    /// request's Content-Type, as an implementation of a multipart body does.
    async fn upload(
        &self,
        ctx: &RequestContext,
        _params: UploadParams,
        body: Vec<u8>,
    ) -> Result<UploadResponse, String> {
        use constructs_server::runtime::multipart;
        let content_type = ctx.headers["content-type"]
            .to_str()
            .map_err(|e| e.to_string())?;
        let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
        let parts = multipart::parse(&body.into(), &boundary).map_err(|p| p.message)?;
        let file = parts.iter().find(|p| p.name == "file").ok_or("no file")?;
        Ok(UploadResponse::Ok(format!(
            "{} bytes in {}",
            file.data.len(),
            file.filename.as_deref().unwrap_or("?")
        )))
    }

    async fn post_notes(
        &self,
        _ctx: &RequestContext,
        _params: PostNotesParams,
        body: String,
    ) -> Result<PostNotesResponse, String> {
        if body == "fail" {
            return Ok(PostNotesResponse::Default(
                http::StatusCode::CONFLICT,
                types::Named {
                    mirror: None,
                    inner: None,
                    tags: Some(vec!["x".into()]),
                    labels: None,
                },
            ));
        }
        Ok(PostNotesResponse::NoContent)
    }

    async fn echo_labels(
        &self,
        _ctx: &RequestContext,
        params: EchoLabelsParams,
    ) -> Result<EchoLabelsResponse, String> {
        Ok(EchoLabelsResponse::Ok(types::EchoLabelsOkBody {
            names: Some(params.names),
            csv: params.csv,
            pipes: params.pipes,
            spaced: params.spaced,
            jar: params.jar,
            crumbs: params.crumbs,
        }))
    }

    async fn echo_filters(
        &self,
        _ctx: &RequestContext,
        params: EchoFiltersParams,
    ) -> Result<EchoFiltersResponse, String> {
        Ok(EchoFiltersResponse::Ok(types::EchoFiltersOkBody {
            q: params.q,
            metadata: params.metadata.map(Some),
            page: params.page,
            point: params.point,
            range: Some(params.range),
        }))
    }

    async fn echo_choices(
        &self,
        _ctx: &RequestContext,
        _params: EchoChoicesParams,
        body: types::EchoChoicesBody,
    ) -> Result<EchoChoicesResponse, String> {
        Ok(EchoChoicesResponse::Ok(types::EchoChoicesOkBody {
            chunking: body.chunking,
            tool_choice: body.tool_choice,
            actions: body.actions,
            sparse: body.sparse,
            net: body.net,
            update: body.update,
        }))
    }

    async fn list_tagged(
        &self,
        _ctx: &RequestContext,
        params: ListTaggedParams,
    ) -> Result<ListTaggedResponse, String> {
        Ok(ListTaggedResponse::Ok(params.tag.unwrap_or_default()))
    }

    async fn get_things(
        &self,
        _ctx: &RequestContext,
        _params: GetThingsParams,
    ) -> Result<GetThingsResponse, String> {
        Ok(GetThingsResponse::Ok(types::GetThingsOkBody {
            client: None,
            patch: None,
            level: Some(2),
            odd: Some(types::Odd::AB2),
            shape: Some(types::Shape::String("hex".into())),
            any: None,
            free: None,
            named: None,
        }))
    }
}

async fn serve() -> SocketAddr {
    let app = constructs_server::router(
        std::sync::Arc::new(Service),
        ServerConfig::new().authenticator(Keys),
    );
    common::spawn(app).await
}

fn base(addr: SocketAddr) -> String {
    format!("http://{addr}/v3")
}

#[tokio::test]
async fn security_alternatives_and_combinations() {
    let addr = serve().await;
    let opts = || GetTreesIdOptions {
        ids: Some(vec![1, 2, 3]),
        ..Default::default()
    };

    let basic = Client::builder(base(addr))
        .basic("ann", "pw")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let tree = basic.get_trees_id_with(7, "trace-1", opts()).await.unwrap();
    match tree.into_inner() {
        GetTreesIdSuccess::Ok(t) => {
            assert_eq!(t.value, 7);
            assert_eq!(t.left.unwrap().value, 3, "depth defaults to 3");
            assert_eq!(
                t.children.unwrap()[0].value,
                6,
                "ids=1,2,3 (not exploded) summed"
            );
        }
        other => panic!("expected 200, got {other:?}"),
    }

    // Both keys of the second alternative: query AND cookie.
    let keys = Client::builder(base(addr))
        .query_key("q")
        .cookie_key("c")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    assert!(keys.get_trees_id_with(7, "trace-1", opts()).await.is_ok());

    // Only one of the two: not enough.
    let half = Client::builder(base(addr))
        .query_key("q")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let refused = half
        .get_trees_id_with(7, "trace-1", opts())
        .await
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(401));

    let wrong = Client::builder(base(addr))
        .basic("ann", "nope")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    assert_eq!(
        wrong
            .get_trees_id_with(7, "trace-1", opts())
            .await
            .unwrap_err()
            .status()
            .map(|s| s.as_u16()),
        Some(401)
    );
}

#[tokio::test]
async fn several_successes_and_status_ranges() {
    let addr = serve().await;
    let client = Client::builder(base(addr))
        .basic("ann", "pw")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let accepted = client.get_trees_id(1, "trace-1").await.unwrap();
    assert_eq!(accepted.status().as_u16(), 202);
    assert_eq!(accepted.into_inner(), GetTreesIdSuccess::Accepted);
    match client.get_trees_id(0, "trace-1").await.unwrap_err() {
        Error::Api {
            status,
            body: GetTreesIdError::ClientError(b),
            ..
        } => {
            assert_eq!(status.as_u16(), 418);
            assert_eq!(b.reason.as_deref(), Some("teapot"));
        }
        other => panic!("expected the 4XX variant, got {other:?}"),
    }
}

#[tokio::test]
async fn parameter_errors_are_collected() {
    let addr = serve().await;
    let http = common::raw_http();
    // Missing required header, depth over its maximum, a bad cookie enum, a bad array item.
    let response = http
        .get(format!("{}/trees/7?depth=11&ids=1,x", base(addr)))
        .basic_auth("ann", Some("pw"))
        .header("cookie", "theme=purple")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let text = response.text().await.unwrap();
    // In the document's 4XX body, `{"reason": …}`, not the default `{code, message, status}`.
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    let reason = body["reason"].as_str().unwrap_or_else(|| panic!("{text}"));
    assert_eq!(body.as_object().unwrap().len(), 1, "{text}");
    for expected in [
        "header/X-Trace",
        "query/depth",
        "cookie/theme",
        "query/ids/1",
    ] {
        assert!(reason.contains(expected), "{expected} in {text}");
    }
    // A uint32 path parameter refuses negatives and overflow.
    for bad in ["-1", "4294967296"] {
        let response = http
            .get(format!("{}/trees/{bad}", base(addr)))
            .basic_auth("ann", Some("pw"))
            .header("x-trace", "t")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{bad}");
    }
}

#[tokio::test]
async fn one_operation_reads_form_and_json() {
    let addr = serve().await;
    let http = common::raw_http();
    for (ct, body) in [
        ("application/x-www-form-urlencoded", "name=n&count=2"),
        ("application/json", r#"{"name": "n"}"#),
    ] {
        let response = http
            .post(format!("{}/forms", base(addr)))
            .bearer_auth("t")
            .header("content-type", ct)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 201, "{ct}");
    }
    let response = http
        .post(format!("{}/forms", base(addr)))
        .bearer_auth("t")
        .header("content-type", "application/xml")
        .body("<name>n</name>")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);

    // And the generated client sends JSON.
    let client = Client::builder(base(addr))
        .oauth("t")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let created = client
        .post_forms(Some(&constructs_client::types::FormEntry {
            name: "n".into(),
            count: None,
        }))
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 201);
}

/// A multipart form of the given parts (name, optional file name, bytes), and its
/// Content-Type.
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    for (name, filename, data) in parts {
        body.extend_from_slice(b"--B0und\r\nContent-Disposition: form-data; name=\"");
        body.extend_from_slice(name.as_bytes());
        body.push(b'"');
        if let Some(f) = filename {
            body.extend_from_slice(
                format!("; filename=\"{f}\"\r\nContent-Type: application/octet-stream").as_bytes(),
            );
        }
        body.extend_from_slice(b"\r\n\r\n");
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--B0und--\r\n");
    ("multipart/form-data; boundary=B0und".into(), body)
}

#[tokio::test]
async fn multipart_forms_are_checked_against_their_schema() {
    let addr = serve().await;
    let http = common::raw_http();
    let send = |url: String, content_type: String, body: Vec<u8>| {
        let http = http.clone();
        async move {
            let response = http
                .post(url)
                .bearer_auth("t")
                .header("content-type", content_type)
                .body(body)
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.text().await.unwrap())
        }
    };
    let uploads = format!("{}/uploads", base(addr));
    let file: &[u8] = &[0xff, 0x00, 0xfe, b'\r', b'\n', b'-', b'-'];
    // A file that is no text, repeated parts for an array, a JSON part for an object: the
    // implementation gets the body as sent and finds the file's bytes whole.
    let (ct, body) = multipart(&[
        ("title", None, b"Rex"),
        ("copies", None, b"2"),
        ("tags", None, b"a"),
        ("tags", None, b"b"),
        (
            "meta",
            None,
            br#"{"author": "ann", "pages": 5.0, "origin": {"city": "Oslo"}}"#,
        ),
        ("file", Some("rex.png"), file),
    ]);
    assert_eq!(
        send(uploads.clone(), ct, body).await,
        (200, "7 bytes in rex.png".into())
    );
    // The generated client sends a form it builds part by part, files as bytes, with a
    // boundary of its own in the Content-Type.
    let client = Client::builder(base(addr))
        .oauth("t")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let form = constructs_client::runtime::multipart::Form::new()
        .text("title", "Rex")
        .json("meta", &serde_json::json!({"author": "ann"}))
        .unwrap()
        .file("file", "rex.png", file.to_vec());
    let answer = client.upload(&form).await.unwrap().into_inner();
    assert_eq!(answer, "7 bytes in rex.png");
    // A form without the required file: the server's 400 reaches the client.
    let form = constructs_client::runtime::multipart::Form::new().text("title", "Rex");
    assert!(client.upload(&form).await.is_err());
    // What breaks the schema is refused before the implementation, naming the place.
    for (parts, says) in [
        (
            vec![("title", None, &b""[..]), ("file", Some("f"), file)],
            "/title",
        ),
        (vec![("file", Some("f"), file)], "title"),
        (vec![("title", None, &b"t"[..])], "file"),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("copies", None, b"0"),
                ("file", Some("f"), file),
            ],
            "/copies",
        ),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("copies", None, b"two"),
                ("file", Some("f"), file),
            ],
            "/copies",
        ),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("tags", None, b"toolongatag"),
                ("file", Some("f"), file),
            ],
            "/tags/0",
        ),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("meta", None, b"{}"),
                ("file", Some("f"), file),
            ],
            "author",
        ),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("meta", None, b"ann"),
                ("file", Some("f"), file),
            ],
            "/meta",
        ),
        // A JSON part is read as a JSON body is: an array is no object at any depth (discord's
        // poll part took `emoji: [null, null]`), and a number written as text is a string.
        (
            vec![
                ("title", None, &b"t"[..]),
                ("meta", None, br#"{"author": "ann", "origin": [null]}"#),
                ("file", Some("f"), file),
            ],
            "sequence",
        ),
        (
            vec![
                ("title", None, &b"t"[..]),
                ("meta", None, br#"{"author": "ann", "pages": "5"}"#),
                ("file", Some("f"), file),
            ],
            "/meta/pages: invalid type: string",
        ),
    ] {
        let (ct, body) = multipart(&parts);
        let (status, text) = send(uploads.clone(), ct, body).await;
        assert_eq!(status, 400, "{parts:?}: {text}");
        assert!(text.contains(says), "{parts:?}: {text}");
    }
    // A malformed body, one without its boundary, and another media type.
    let (_, body) = multipart(&[("title", None, b"t")]);
    let (status, text) = send(
        uploads.clone(),
        "multipart/form-data; boundary=other".into(),
        body.clone(),
    )
    .await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("malformed multipart body"), "{text}");
    let (status, text) = send(uploads.clone(), "multipart/form-data".into(), body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("boundary"), "{text}");
    let (status, _) = send(uploads, "application/json".into(), b"{}".to_vec()).await;
    assert_eq!(status, 415);

    // Multipart offered beside JSON and form data for the same schema: its parts checked as
    // that type, its bytes passed on (`OrMultipart::Multipart`).
    let forms = format!("{}/forms", base(addr));
    let (ct, body) = multipart(&[("name", None, b"n"), ("count", None, b"3")]);
    assert_eq!(send(forms.clone(), ct, body).await.0, 201);
    let (ct, body) = multipart(&[("count", None, b"3")]);
    let (status, text) = send(forms.clone(), ct, body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("name"), "{text}");
    // A field of one value given twice is refused, in a multipart body and in a form (which
    // of the two was meant is not for the server to guess, so it does not take the first).
    let (ct, body) = multipart(&[("name", None, b"n"), ("name", None, b"m")]);
    let (status, text) = send(forms.clone(), ct, body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("given 2 times"), "{text}");
    let form = "application/x-www-form-urlencoded".to_string();
    let (status, text) = send(forms.clone(), form, b"name=n&name=m".to_vec()).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("/name: given 2 times"), "{text}");
    // A part that is not UTF-8 (a file, where the JSON twin has a `format: binary` string)
    // reaches the implementation whole, not refused as "not UTF-8 text" (openai's skill
    // uploads).
    let (ct, body) = multipart(&[("name", None, &[0xff, 0xfe][..])]);
    let (status, text) = send(forms, ct, body).await;
    assert_eq!(status, 201, "{text}");
}

#[tokio::test]
async fn a_union_read_from_a_form_takes_its_numbers_from_text() {
    let addr = serve().await;
    let http = common::raw_http();
    let dishes = format!("{}/dishes", base(addr));
    let send = |content_type: String, body: Vec<u8>| {
        let (http, dishes) = (http.clone(), dishes.clone());
        async move {
            let response = http
                .post(dishes)
                .header("content-type", content_type)
                .body(body)
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.text().await.unwrap())
        }
    };
    let form = "application/x-www-form-urlencoded".to_string();
    let cake = r#"{"kind":"Cake","calories":420.5,"vegan":true}"#;
    assert_eq!(
        send(
            form.clone(),
            b"kind=Cake&calories=420.5&vegan=true".to_vec()
        )
        .await,
        (200, cake.into())
    );
    let (ct, body) = multipart(&[
        ("kind", None, b"Cake"),
        ("calories", None, b"420.5"),
        ("vegan", None, b"true"),
    ]);
    assert_eq!(send(ct, body).await, (200, cake.into()));
    let (ct, body) = multipart(&[("kind", None, b"Tea"), ("cups", None, b"2")]);
    assert_eq!(
        send(ct, body).await,
        (200, r#"{"kind":"Tea","cups":2}"#.into())
    );
    // In a multipart body, a part `null` is JSON's null where the member admits it (how
    // schemathesis and a browser's FormData write it); in a url-encoded form it is text.
    let (ct, body) = multipart(&[
        ("kind", None, b"Tea"),
        ("cups", None, b"2"),
        ("sugar", None, b"null"),
    ]);
    assert_eq!(
        send(ct, body).await,
        (200, r#"{"kind":"Tea","cups":2,"sugar":null}"#.into())
    );
    let (status, text) = send(form.clone(), b"kind=Tea&cups=2&sugar=null".to_vec()).await;
    assert_eq!(status, 400, "{text}");
    // Text that spells no number of the variant's type, or breaks its bounds, is refused.
    for body in [
        "kind=Cake&calories=lots",
        "kind=Tea&cups=1.5",
        "kind=Cake&calories=1&vegan=maybe",
        "kind=Tea&cups=0",
        // Only a number's JSON spelling is a number.
        "kind=Tea&cups=02",
        "kind=Tea&cups=+2",
    ] {
        let (status, text) = send(form.clone(), body.as_bytes().to_vec()).await;
        assert_eq!(status, 400, "{body}: {text}");
    }
}

#[tokio::test]
async fn a_query_parameter_of_one_value_or_several_is_a_list() {
    let addr = serve().await;
    for (query, status, answer) in [
        ("tag=abc", 200, r#"["abc"]"#),
        ("tag=1&tag=2", 200, r#"["1","2"]"#),
        ("", 200, "[]"),
        ("tag=1&tag=2&tag=3&tag=4", 400, "at most 3 items"),
        ("tag=1&tag=1", 400, "unique"),
        // Several values are the array variant's: each item is checked as a `Digits`.
        ("tag=abc&tag=1", 400, "query/tag/0"),
    ] {
        let response = common::raw_http()
            .get(format!("{}/tagged?{query}", base(addr)))
            .send()
            .await
            .unwrap();
        let got = (response.status().as_u16(), response.text().await.unwrap());
        assert_eq!(got.0, status, "{query}: {}", got.1);
        assert!(got.1.contains(answer), "{query}: {}", got.1);
    }
    // The client sends a list as the repeated key.
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let options = constructs_client::client::ListTaggedOptions {
        tag: Some(vec!["7".into(), "8".into()]),
    };
    let answer = client.list_tagged_with(options).await.unwrap().into_inner();
    assert_eq!(answer, ["7", "8"]);
}

#[tokio::test]
async fn octet_text_and_default_responses() {
    let addr = serve().await;
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let digest = client
        .put_blobs(&bytes::Bytes::from_static(b"12345"))
        .await
        .unwrap();
    assert_eq!(digest.into_inner(), "5 bytes");
    assert_eq!(
        client.post_notes("hello").await.unwrap().status().as_u16(),
        204
    );
    let failed = client.post_notes("fail").await.unwrap_err();
    assert_eq!(failed.status().map(|s| s.as_u16()), Some(409));
    let things = client.get_things().await.unwrap();
    assert_eq!(things.level, Some(2));
    assert_eq!(things.odd, Some(constructs_client::types::Odd::AB2));
}

/// Arrays in a path segment, in the query in each style and in cookies, exploded or not:
/// an item that holds its own delimiter (`a,b`, `x|y`) or a character that must be encoded
/// reaches the server as the one item the client sent (not split at `%2C`).
#[tokio::test]
async fn arrays_keep_items_that_hold_their_delimiter() {
    use constructs_client::client::EchoLabelsOptions;
    let addr = serve().await;
    let client = Client::builder(base(addr)).build().unwrap();
    let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let names = strings(&["a,b", "c d", "é/x", "100%"]);
    let options = EchoLabelsOptions::default()
        .with_csv(strings(&["1,2", "3", "a&b=c"]))
        .with_pipes(strings(&["x|y", "z", "p,q"]))
        .with_spaced(vec![1, 2, 3])
        .with_jar(strings(&["j,1", "k;2", "l"]))
        .with_crumbs(strings(&["c,1", "d e"]));
    let echoed = client
        .echo_labels_with(&names, options.clone())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(echoed.names, Some(names));
    assert_eq!(echoed.csv, options.csv);
    assert_eq!(echoed.pipes, options.pipes);
    assert_eq!(echoed.spaced, options.spaced);
    assert_eq!(echoed.jar, options.jar);
    assert_eq!(echoed.crumbs, options.crumbs);
    // What another client may send: a literal delimiter separates, an encoded one does not.
    let raw = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!(
            "{}/labels/a%2Cb,c?csv=1%2C2,3&pipes=x%7Cy|z",
            base(addr)
        ))
        .header("cookie", "jar=j%2C1,k; crumbs=a; crumbs=b%2Cc")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 200);
    let body: serde_json::Value = serde_json::from_slice(&raw.bytes().await.unwrap()).unwrap();
    // Each item's own constraint (`minimum: 0`), named by its index.
    let refused = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!("{}/labels/a?spaced=1%20-2", base(addr)))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let problem = String::from_utf8_lossy(&refused.bytes().await.unwrap()).into_owned();
    assert!(problem.contains("query/spaced/1"), "{problem}");
    assert_eq!(
        body,
        serde_json::json!({
            "names": ["a,b", "c"],
            "csv": ["1,2", "3"],
            "pipes": ["x|y", "z"],
            "jar": ["j,1", "k"],
            "crumbs": ["a", "b,c"]
        })
    );
}

/// Objects in the query, each style as OpenAPI writes it: a map exploded (every pair no other
/// parameter, struct member or deepObject names), a struct exploded, one not exploded
/// (`point=x,1.5,y,-2`) and a deepObject (`range[gt]=1`); what the client sends the server
/// reads back, and what another client writes by hand too.
#[tokio::test]
async fn objects_in_the_query_in_each_style() {
    use constructs_client::client::EchoFiltersOptions;
    use constructs_client::types as c;
    let addr = serve().await;
    let client = Client::builder(base(addr)).build().unwrap();
    let metadata: c::Metadata = [("team", "a,b"), ("env", "prod & test")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let options = EchoFiltersOptions::default()
        .with_q(Some("x".to_string()))
        .with_metadata(metadata.clone())
        .with_page(c::Page::default().with_size(3).with_cursor("c0"))
        .with_point(c::Point::new(1.5, -2.0));
    let range = c::Range::default().with_gt(1).with_lte(9);
    let echoed = client
        .echo_filters_with(&range, options)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(echoed.q.as_deref(), Some("x"));
    assert_eq!(echoed.metadata, Some(Some(metadata)));
    let page = echoed.page.unwrap();
    assert_eq!((page.size, page.cursor.as_deref()), (Some(3), Some("c0")));
    assert_eq!(echoed.point, Some(c::Point::new(1.5, -2.0)));
    assert_eq!(echoed.range, Some(range));

    let get = |query: &str| {
        let url = format!("{}/filters?{query}", base(addr));
        async move {
            let resp = reqwest::Client::builder()
                .no_proxy()
                .build()
                .unwrap()
                .get(url)
                .send()
                .await
                .unwrap();
            let status = resp.status().as_u16();
            let body: serde_json::Value =
                serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
            (status, body)
        }
    };
    let (status, body) =
        get("range[gt]=2&team=core&size=5&point=x,1,y,2&cursor=c1&range%5Blte%5D=4").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        serde_json::json!({
            "metadata": {"team": "core"},
            "page": {"size": 5, "cursor": "c1"},
            "point": {"x": 1.0, "y": 2.0},
            "range": {"gt": 2, "lte": 4}
        })
    );
    // A member that is not of its type, a joined object with a name and no value, a required
    // object not sent: each a violation naming its place, in one 400.
    let long = "x".repeat(65);
    let (status, body) = get(&format!("size=big&point=x,1,y&team={long}")).await;
    assert_eq!(status, 400, "{body}");
    let text = body.to_string();
    // (A map's value has its own `maxLength`: named by its key.)
    for place in [
        "query/page/size",
        "query/point",
        "query/range",
        "query/metadata/team",
    ] {
        assert!(text.contains(place), "{place} in {text}");
    }
    // An object parameter's members keep their own constraints (`Page.size`: `minimum: 1`);
    // read without them, `size=0` would reach the implementation.
    let (status, body) = get("size=0&range[gt]=1").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.to_string()
            .contains("query/page/size: must be greater than or equal to 1"),
        "{body}"
    );
}

/// Unions told apart by a property their variants pin (no discriminator) go out and come back
/// whole: the `static` member and the function's `name` reach the server, and its answer
/// reaches the client (tried in order, the first variant would take both and drop them).
#[tokio::test]
async fn unions_told_apart_by_a_pinned_property_travel_whole() {
    let addr = serve().await;
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let sent: constructs_client::types::EchoChoicesBody =
        serde_json::from_value(serde_json::json!({
            "chunking": {"type": "static", "static": {"max_tokens": 300}},
            "tool_choice": {"type": "function", "name": "lookup"}
        }))
        .unwrap();
    let answer = client.echo_choices(&sent).await.unwrap().into_inner();
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        serde_json::json!({
            "chunking": {"type": "static", "static": {"max_tokens": 300}},
            "tool_choice": {"type": "function", "name": "lookup"}
        })
    );
    // A variant named by two tags (`file_search`, `web_search`) keeps its own both ways.
    let hosted: constructs_client::types::EchoChoicesBody =
        serde_json::from_value(serde_json::json!({
            "chunking": {"type": "static", "static": {"max_tokens": 300}},
            "tool_choice": {"type": "web_search"},
            "update": {"name": "general", "icon": "aWNvbg=="}
        }))
        .unwrap();
    let answer = client.echo_choices(&hosted).await.unwrap().into_inner();
    let answer = serde_json::to_value(&answer).unwrap();
    assert_eq!(
        answer["tool_choice"],
        serde_json::json!({"type": "web_search"})
    );
    // An untagged union's object keeps every member through the client and the server.
    assert_eq!(
        answer["update"],
        serde_json::json!({"name": "general", "icon": "aWNvbg=="})
    );
    // The server checks the variant it read: `max_tokens` below its minimum is a 400.
    // (No proxy: CI runs the tests with a dead one in the environment.)
    let raw = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(format!("{}/choices", base(addr)))
        .header("content-type", "application/json")
        .body(r#"{"chunking": {"type": "static", "static": {"max_tokens": 5}}, "tool_choice": "auto"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 400);

    // Variants told apart by pattern alone: a value is the one whose pattern it matches, and
    // a value that matches neither is refused.
    for (net, status) in [
        ("10.0.0.0/8", 200),
        ("fd00::/8", 200),
        ("a net", 400),
        ("10.0.0.0", 400),
    ] {
        let response = common::raw_http()
            .post(format!("{}/choices", base(addr)))
            .header("content-type", "application/json")
            .body(serde_json::json!({"chunking": {"type": "auto"}, "tool_choice": "auto", "net": net}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{net}");
        if status == 200 {
            let answer: serde_json::Value =
                serde_json::from_str(&response.text().await.unwrap()).unwrap();
            assert_eq!(answer["net"], net);
        }
    }
}

#[tokio::test]
async fn a_body_offered_as_json_and_as_multipart_of_its_own_schema_takes_both() {
    let addr = serve().await;
    let http = common::raw_http();
    let videos = format!("{}/videos", base(addr));
    let send = |content_type: String, body: Vec<u8>| {
        let (http, videos) = (http.clone(), videos.clone());
        async move {
            let response = http
                .post(videos)
                .header("content-type", content_type)
                .body(body)
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.text().await.unwrap())
        }
    };
    let json = "application/json".to_string();
    assert_eq!(
        send(json.clone(), br#"{"prompt":"otter","seconds":4}"#.to_vec()).await,
        (201, "json: otter".into())
    );
    // The multipart body of its own schema is taken too, not refused with 415.
    let png = [0x89, b'P', b'N', b'G', 0xff, 0x00];
    let (ct, body) = multipart(&[
        ("prompt", None, b"otter"),
        ("reference", Some("r.png"), &png),
    ]);
    assert_eq!(send(ct, body).await, (201, "multipart: 6 bytes".into()));
    // A nullable part sent as `null` is null; any other text is checked.
    let (ct, body) = multipart(&[
        ("prompt", None, b"otter"),
        ("reference", Some("r.png"), &png),
        ("style", None, b"null"),
    ]);
    assert_eq!(send(ct, body).await, (201, "multipart: 6 bytes".into()));
    let (ct, body) = multipart(&[
        ("prompt", None, b"otter"),
        ("reference", Some("r.png"), &png),
        ("style", None, b"loud"),
    ]);
    let (status, text) = send(ct, body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("/style"), "{text}");
    // Each is checked against its own schema: the multipart one requires the reference, the
    // JSON one bounds the seconds.
    let (ct, body) = multipart(&[("prompt", None, b"otter")]);
    let (status, text) = send(ct, body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("reference"), "{text}");
    let (ct, body) = multipart(&[("prompt", None, b""), ("reference", Some("r"), &png)]);
    let (status, text) = send(ct, body).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("/prompt"), "{text}");
    let (status, text) = send(json, br#"{"prompt":"otter","seconds":40}"#.to_vec()).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("/seconds"), "{text}");
}

#[tokio::test]
async fn a_string_body_of_any_media_type_takes_any_media_type() {
    let addr = serve().await;
    let http = common::raw_http();
    for (content_type, body, status) in [
        ("application/json", &br#"{"a":1}"#[..], 200),
        ("text/plain", &b"hello"[..], 200),
        ("application/octet-stream", &b"bytes"[..], 200),
        // Still text: bytes that are not UTF-8 are refused.
        ("application/octet-stream", &[0xff, 0xfe][..], 400),
    ] {
        let response = http
            .put(format!("{}/raw-notes", base(addr)))
            .header("content-type", content_type)
            .body(body.to_vec())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{content_type}");
    }
}

/// Forward compatibility: a newer server's values the document does not list (a
/// union's tag, an integer tag, a string enum's value) decode on the client into `Unknown`,
/// holding the JSON, and go back to the server unchanged; the document's own server refuses
/// them, as the document says.
#[tokio::test]
async fn values_a_newer_server_sends_round_trip_through_the_client() {
    use axum::routing::post;
    use constructs_client::types::{Chunking, EchoChoicesBody};
    use std::sync::{Arc, Mutex};

    let newer = serde_json::json!({
        "chunking": {"type": "semantic", "threshold": 0.5, "model": {"name": "m"}},
        "tool_choice": {"type": "mcp", "server_label": "deepwiki"},
        "actions": [{"type": 9, "metadata": {"x": 1}}, {"type": 1}]
    });
    let received: Arc<Mutex<Vec<serde_json::Value>>> = Arc::default();
    let app = {
        let (newer, received) = (newer.clone(), Arc::clone(&received));
        axum::Router::new().route(
            "/v3/choices",
            post(move |body: axum::body::Bytes| async move {
                received
                    .lock()
                    .unwrap()
                    .push(serde_json::from_slice(&body).unwrap());
                ([("content-type", "application/json")], newer.to_string())
            }),
        )
    };
    let addr = common::spawn(app).await;
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let first: EchoChoicesBody = serde_json::from_value(
        serde_json::json!({"chunking": {"type": "auto"}, "tool_choice": "auto"}),
    )
    .unwrap();
    let answer = client.echo_choices(&first).await.unwrap().into_inner();
    match &answer.chunking {
        Chunking::Unknown(kept) => assert_eq!(kept, &newer["chunking"]),
        other => panic!("expected the unknown variant, got {other:?}"),
    }
    // Written back as it came.
    let back: EchoChoicesBody =
        serde_json::from_value(serde_json::to_value(&answer).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), newer);
    client.echo_choices(&back).await.unwrap();
    assert_eq!(received.lock().unwrap()[1], newer);

    // The server of the document refuses what it does not list.
    let addr = serve().await;
    let refused = common::raw_http()
        .post(format!("{}/choices", base(addr)))
        .header("content-type", "application/json")
        .body(newer.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("semantic") || text.contains("oneOf"),
        "{text}"
    );
}

/// A `float` member goes out with its own digits (`1.1`, not the `1.100000023841858` it would
/// become through an `f64`): in a union the generated server writes, and in a form body the
/// generated client writes (recorded as it arrived).
#[tokio::test]
async fn a_float_member_is_written_with_its_own_digits_in_a_union_and_a_form() {
    let cake = constructs_client::types::Dish::Cake(constructs_client::types::Cake {
        kind: constructs_client::types::CakeKind::Cake,
        calories: 0.1,
        vegan: None,
        weight: Some(1.1),
    });
    // The generated server's union answer, as JSON.
    let addr = serve().await;
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let answer = client.add_dish(&cake).await.unwrap();
    let raw = String::from_utf8(answer.raw_body().to_vec()).unwrap();
    assert!(raw.contains(r#""weight":1.1"#), "{raw}");
    assert!(raw.contains(r#""calories":0.1"#), "{raw}");
    assert!(raw.starts_with(r#"{"kind":"Cake""#), "the tag first: {raw}");
    assert_eq!(answer.into_inner(), cake);

    // The client's form body, as the wire carries it.
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let record = seen.clone();
    let app = axum::Router::new().route(
        "/v3/dishes",
        axum::routing::post(move |body: String| {
            let record = record.clone();
            async move {
                *record.lock().unwrap() = body;
                (
                    [("content-type", "application/json")],
                    r#"{"kind":"Cake","calories":1}"#,
                )
            }
        }),
    );
    let addr = common::spawn(app).await;
    let client = Client::builder(base(addr))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    client.add_dish(&cake).await.unwrap();
    assert_eq!(
        seen.lock().unwrap().as_str(),
        "kind=Cake&calories=0.1&weight=1.1"
    );
}
