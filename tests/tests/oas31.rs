//! tests/fixtures/oas31.yaml: the OpenAPI 3.1 schema constructs as Rust types (round trips on
//! the client types) and as server-side checks over loopback HTTP (each refused with the
//! `Error` body naming the place), plus one typed client call through the server.

mod common;

use oas31_client::types as c;
use oas31_client::{Client, RetryPolicy};
use oas31_server::api::*;
use oas31_server::{Oas31Api, RequestContext, ServerConfig, types};
use serde_json::{Value, json};
use std::net::SocketAddr;

fn record() -> Value {
    json!({"id": 1, "kind": "record", "note": null, "owner": null, "score": 9.5})
}

/// Inline variants that pin the discriminator with `const` (no `mapping`, no `$ref` to name
/// them) are keyed by their constants.
/// A variant that refers to a union beside annotations (openai's `InputItem` variant `{$ref:
/// Item, title: Item, type: object}`) is that union, and its
/// variants' values are tags of the outer one (not any JSON value, with
/// `web_search_call` an unknown tag).
#[test]
fn a_variant_referring_to_a_union_with_siblings_is_that_union() {
    let search = json!({"type": "search_call", "query": "rust"});
    let input: c::Input = serde_json::from_value(search.clone()).unwrap();
    assert!(
        matches!(&input, c::Input::Item(c::Item::SearchCall(s)) if s.query == "rust"),
        "{input:?}"
    );
    assert_eq!(serde_json::to_value(&input).unwrap(), search);
    let note: types::Input = serde_json::from_value(json!({"type": "note", "text": "t"})).unwrap();
    assert!(matches!(note, types::Input::Note(_)));
    let patch: types::Input =
        serde_json::from_value(json!({"type": "patch_output", "id": "p1"})).unwrap();
    assert!(matches!(
        patch,
        types::Input::Item(types::Item::PatchOutput(_))
    ));
}

#[test]
fn const_pinned_variants_are_keyed_by_their_constants() {
    let removed: c::Change =
        serde_json::from_value(json!({"type": "removed", "id": 3, "reason": "gone"})).unwrap();
    assert!(matches!(&removed, c::Change::Removed(r) if r.id == 3));
    let added: types::Change = serde_json::from_value(json!({"type": "added", "id": 4})).unwrap();
    assert_eq!(
        serde_json::to_value(&added).unwrap(),
        json!({"type": "added", "id": 4})
    );
    assert_eq!(
        serde_json::to_value(&removed).unwrap(),
        json!({"type": "removed", "id": 3, "reason": "gone"})
    );
}

#[test]
fn nullable_spellings_keep_absent_null_and_value_apart() {
    let r: c::Record = serde_json::from_value(record()).unwrap();
    assert_eq!(
        (r.note.as_deref(), &r.owner, &r.nickname),
        (None, &None, &None)
    );
    // Required-but-nullable members must be present.
    let mut missing = record();
    missing.as_object_mut().unwrap().remove("note");
    assert!(serde_json::from_value::<c::Record>(missing).is_err());
    // Optional-and-nullable: null is not absence, in both directions.
    let mut with_null = record();
    with_null["nickname"] = Value::Null;
    with_null["reviewer"] = json!({"name": "Ann"});
    with_null["owner"] = json!({"name": "Bob"});
    let r: c::Record = serde_json::from_value(with_null.clone()).unwrap();
    assert_eq!(r.nickname, Some(None));
    assert_eq!(r.reviewer, Some(Some(c::Owner { name: "Ann".into() })));
    assert_eq!(r.owner, Some(c::Owner { name: "Bob".into() }));
    assert_eq!(serde_json::to_value(&r).unwrap(), with_null);
}

#[test]
fn type_lists_const_and_ref_siblings() {
    let mut v = record();
    v["key"] = json!("abc");
    let r: c::Record = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(r.key, Some(c::RecordKey::String("abc".into())));
    v["key"] = json!(42);
    let r: c::Record = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(r.key, Some(c::RecordKey::Integer(42)));
    assert_eq!(serde_json::to_value(&r).unwrap()["key"], json!(42));
    // `const: record` is a one-value enum, written back as the constant.
    assert_eq!(r.kind.as_str(), "record");
    // `$ref` + description is the referenced type itself.
    v["backup"] = json!({"name": "Cy"});
    let r: c::Record = serde_json::from_value(v).unwrap();
    let backup: Option<c::Owner> = r.backup;
    assert_eq!(backup.unwrap().name, "Cy");
}

#[test]
fn base64_tuples_and_pattern_maps_round_trip() {
    let mut v = record();
    v["digest"] = json!({"algorithm": "sha256", "value": "aGVsbG8="});
    let r: c::Record = serde_json::from_value(v.clone()).unwrap();
    let digest = r.digest.clone().unwrap();
    assert_eq!(
        digest.value.as_deref().map(Vec::as_slice),
        Some(&b"hello"[..])
    );
    assert_eq!(serde_json::to_value(&r).unwrap(), v);
    v["digest"]["value"] = json!("not base64!");
    assert!(serde_json::from_value::<c::Record>(v).is_err());

    let s: c::Shipment =
        serde_json::from_value(json!({"position": [52.5, 13.4], "token": "_-8"})).unwrap();
    assert_eq!(s.position, (52.5, 13.4));
    assert_eq!(s.token.0, vec![0xff, 0xef]);
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({"position": [52.5, 13.4], "token": "_-8"})
    );
    // A tuple has exactly its items.
    for bad in [json!([1.0]), json!([1.0, 2.0, 3.0])] {
        let doc = json!({"position": bad, "token": ""});
        assert!(serde_json::from_value::<c::Shipment>(doc).is_err());
    }

    // `prefixItems` whose `minItems` lets the array stop early is a list (a tuple's length
    // is fixed): `[]` and one item both fit.
    for via in [json!([]), json!(["AMS"])] {
        let doc = json!({"position": [1.0, 2.0], "token": "", "via": via});
        let s: c::Shipment = serde_json::from_value(doc).unwrap();
        assert_eq!(json!(s.via.unwrap()), via);
    }

    let labels: c::Labels = serde_json::from_value(json!({"app.example/name": "x"})).unwrap();
    assert_eq!(labels.additional_properties["app.example/name"], "x");
}

struct Service;

impl Oas31Api for Service {
    type Error = String;

    async fn add_record(
        &self,
        _ctx: &RequestContext,
        _params: AddRecordParams,
        body: types::Record,
    ) -> Result<AddRecordResponse, String> {
        Ok(AddRecordResponse::Ok(body))
    }

    async fn put_labels(
        &self,
        _ctx: &RequestContext,
        _params: PutLabelsParams,
        body: types::Labels,
    ) -> Result<PutLabelsResponse, String> {
        Ok(PutLabelsResponse::Ok(body))
    }

    async fn add_shipment(
        &self,
        _ctx: &RequestContext,
        _params: AddShipmentParams,
        body: types::Shipment,
    ) -> Result<AddShipmentResponse, String> {
        Ok(AddShipmentResponse::Created(body))
    }

    async fn add_gate(
        &self,
        _ctx: &RequestContext,
        _params: AddGateParams,
        _body: types::Gate,
    ) -> Result<AddGateResponse, String> {
        Ok(AddGateResponse::NoContent)
    }

    async fn gate_log(
        &self,
        _ctx: &RequestContext,
        params: GateLogParams,
    ) -> Result<GateLogResponse, String> {
        // Required beside the `$ref`: a `String`, not an `Option`.
        let gate: String = params.gate;
        assert!(!gate.is_empty());
        Ok(GateLogResponse::NoContent)
    }

    async fn open_gate(
        &self,
        _ctx: &RequestContext,
        _params: OpenGateParams,
    ) -> Result<OpenGateResponse, String> {
        Ok(OpenGateResponse::NoContent)
    }

    async fn add_gate_note(
        &self,
        _ctx: &RequestContext,
        _params: AddGateNoteParams,
        _body: types::AddGateNoteBody,
    ) -> Result<AddGateNoteResponse, String> {
        Ok(AddGateNoteResponse::NoContent)
    }

    async fn add_gate_visit(
        &self,
        _ctx: &RequestContext,
        _params: AddGateVisitParams,
        _body: Vec<u8>,
    ) -> Result<AddGateVisitResponse, String> {
        Ok(AddGateVisitResponse::NoContent)
    }

    async fn add_gate_photo(
        &self,
        _ctx: &RequestContext,
        _params: AddGatePhotoParams,
        _body: Vec<u8>,
    ) -> Result<AddGatePhotoResponse, String> {
        Ok(AddGatePhotoResponse::NoContent)
    }

    async fn put_commands(
        &self,
        _ctx: &RequestContext,
        _params: PutCommandsParams,
        body: Option<Vec<types::Command>>,
    ) -> Result<PutCommandsResponse, String> {
        Ok(PutCommandsResponse::Ok(body))
    }

    async fn list_commands(
        &self,
        _ctx: &RequestContext,
        params: ListCommandsParams,
    ) -> Result<ListCommandsResponse, String> {
        Ok(ListCommandsResponse::Ok(
            params.status.unwrap_or(types::CommandStatus::Submitted),
        ))
    }

    async fn request_reviews(
        &self,
        _ctx: &RequestContext,
        _params: RequestReviewsParams,
        _body: types::RequestReviewsBody,
    ) -> Result<RequestReviewsResponse, String> {
        Ok(RequestReviewsResponse::NoContent)
    }

    async fn add_image_ref(
        &self,
        _ctx: &RequestContext,
        _params: AddImageRefParams,
        _body: types::AddImageRefBody,
    ) -> Result<AddImageRefResponse, String> {
        Ok(AddImageRefResponse::NoContent)
    }

    async fn edit_gist_file(
        &self,
        _ctx: &RequestContext,
        _params: EditGistFileParams,
        _body: types::EditGistFileBody,
    ) -> Result<EditGistFileResponse, String> {
        Ok(EditGistFileResponse::NoContent)
    }

    async fn put_moderation(
        &self,
        _ctx: &RequestContext,
        _params: PutModerationParams,
        _body: oas31_server::OrMultipart<std::collections::BTreeMap<String, String>>,
    ) -> Result<PutModerationResponse, String> {
        Ok(PutModerationResponse::NoContent)
    }
}

async fn serve() -> SocketAddr {
    let app = oas31_server::router(std::sync::Arc::new(Service), ServerConfig::new());
    common::spawn(app).await
}

/// Posts `body` and returns (status, body as JSON).
async fn send(addr: SocketAddr, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let http = common::raw_http();
    let method = http::Method::from_bytes(method.as_bytes()).unwrap();
    let response = http
        .request(method, format!("http://{addr}/v31{path}"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn with(base: Value, key: &str, value: Value) -> Value {
    let mut v = base;
    v[key] = value;
    v
}

#[tokio::test]
async fn server_checks_the_3_1_constraints() {
    let addr = serve().await;
    let (status, body) = send(addr, "POST", "/records", &record()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, record(), "null members are written back as null");

    let refused = [
        (with(record(), "id", json!(0)), "/id"),
        (with(record(), "score", json!(10)), "/score"),
        (with(record(), "score", json!(0)), "/score"),
        (with(record(), "kind", json!("other")), "kind"),
        (with(record(), "version", json!(3)), "/version"),
        (with(record(), "note", json!("x".repeat(21))), "/note"),
        (with(record(), "surprise", json!(1)), "surprise"),
        (with(record(), "nickname", json!(7)), "nickname"),
        (
            with(
                record(),
                "digest",
                json!({"algorithm": "sha256", "value": "%%%"}),
            ),
            "digest",
        ),
    ];
    for (body, place) in refused {
        let (status, problem) = send(addr, "POST", "/records", &body).await;
        assert_eq!(status, 400, "{body} → {problem}");
        assert_eq!(problem["status"], 400, "the Error body: {problem}");
        let message = problem["message"].as_str().unwrap_or_default();
        assert!(message.contains(place), "{place} in {message}");
    }
    let mut missing = record();
    missing.as_object_mut().unwrap().remove("owner");
    assert_eq!(send(addr, "POST", "/records", &missing).await.0, 400);
}

#[tokio::test]
async fn server_checks_pattern_names_dependencies_and_tuples() {
    let addr = serve().await;
    let ok = json!({"app.example/name": "x", "team.example/owner": "y"});
    assert_eq!(send(addr, "PUT", "/labels", &ok).await, (200, ok.clone()));
    let (status, problem) = send(
        addr,
        "PUT",
        "/labels",
        &json!({"app.example/name": "x", "Bad Key": "y"}),
    )
    .await;
    assert_eq!(status, 400, "{problem}");
    assert!(
        problem["message"].as_str().unwrap().contains("/Bad Key"),
        "the refused name is the place: {problem}"
    );

    let shipment = json!({"position": [52.5, 13.4], "token": "AQI"});
    assert_eq!(send(addr, "POST", "/shipments", &shipment).await.0, 201);
    let tracked = with(shipment.clone(), "trackingNumber", json!("T1"));
    let (status, problem) = send(addr, "POST", "/shipments", &tracked).await;
    assert_eq!(status, 400, "{problem}");
    let message = problem["message"].as_str().unwrap();
    assert!(
        message.contains("/carrier") && message.contains("trackingNumber"),
        "{message}"
    );
    let complete = with(tracked, "carrier", json!("C"));
    assert_eq!(
        send(addr, "POST", "/shipments", &complete).await,
        (201, complete.clone())
    );
    for bad in [
        with(shipment.clone(), "position", json!([1.0, 2.0, 3.0])),
        with(shipment.clone(), "token", json!("a+b")),
        // `items: false` after one `prefixItems` entry: at most one item.
        with(shipment.clone(), "via", json!(["AMS", "FRA"])),
    ] {
        assert_eq!(send(addr, "POST", "/shipments", &bad).await.0, 400, "{bad}");
    }
    // Each tuple item's own constraints (latitude within ±90, longitude within ±180), every
    // violation named by its index.
    let (status, problem) = send(
        addr,
        "POST",
        "/shipments",
        &with(shipment.clone(), "position", json!([90.5, -180.5])),
    )
    .await;
    assert_eq!(status, 400, "{problem}");
    let message = problem["message"].as_str().unwrap();
    assert!(
        message.contains("/position/0") && message.contains("/position/1"),
        "{message}"
    );
    let edge = with(shipment, "position", json!([-90, 180]));
    assert_eq!(send(addr, "POST", "/shipments", &edge).await.0, 201);
}

#[tokio::test]
async fn typed_client_sends_bytes_and_tuples() {
    let addr = serve().await;
    let client = Client::builder(format!("http://{addr}/v31"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let sent = c::Shipment {
        position: (1.25, -2.5),
        token: vec![0, 1, 254, 255].into(),
        tracking_number: Some("T9".into()),
        carrier: Some("C".into()),
        via: Some(vec!["AMS".into()]),
    };
    let back = client.add_shipment(&sent).await.unwrap().into_inner();
    assert_eq!(back, sent);
}

/// What discord's documents need the server to check: the whole body's own constraints, an
/// integer bound beyond 2^53, `null` or patterned items, a string whose one `allOf` part is its
/// enum; and a body that may be `null`.
#[tokio::test]
async fn server_checks_whole_bodies_exact_bounds_and_nullable_items() {
    let addr = serve().await;
    let max = (1u64 << 54) - 1;
    let command = |extra: Value| {
        let mut c = json!({"name": "a"});
        c.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c
    };
    let accepted = [
        json!(null),
        json!([]),
        json!([command(json!({"permissions": max, "roles": [null, "12"]}))]),
        json!([command(json!({"include_roles": "anything"}))]),
        json!([command(json!({"nothing": {}}))]),
        json!([command(json!({"include_roles": ["1", "2"]}))]),
    ];
    for body in accepted {
        let (status, answer) = send(addr, "PUT", "/commands", &body).await;
        assert_eq!((status, &answer), (200, &body), "{body}");
    }
    let refused = [
        (
            json!([command(json!({"permissions": max + 1}))]),
            "/0/permissions",
        ),
        (
            json!([{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}]),
            "body: must have at most 3 items",
        ),
        (json!([command(json!({"roles": ["x"]}))]), "/0/roles/0"),
        (json!([command(json!({"roles": ["1", "1"]}))]), "unique"),
        (
            // Held to the schema as written (the body's `anyOf` is more than its types
            // hold): the member `additionalProperties: false` refuses is named.
            json!([command(json!({"nothing": {"a": 1}}))]),
            "/0/nothing/a: is not a property this object may have",
        ),
        // A union's list variant is held to its own bounds.
        (
            json!([command(json!({"include_roles": ["1", "1"]}))]),
            "unique",
        ),
        (
            json!([command(json!({"include_roles": ["x"]}))]),
            "/0/include_roles/0",
        ),
        (
            json!([command(json!({"include_roles": ["1", "2", "3"]}))]),
            "at most 2",
        ),
    ];
    for (body, place) in refused {
        let (status, problem) = send(addr, "PUT", "/commands", &body).await;
        let message = problem["message"].as_str().unwrap_or_default();
        assert_eq!(status, 400, "{body} → {problem}");
        assert!(message.contains(place), "{place} in {message}");
    }
    let moderation = [
        (json!({"a": "b", "c": "d"}), 204, ""),
        (
            json!({"a": "b", "c": "d", "e": "f"}),
            400,
            "body: must have at most 2 properties",
        ),
        (json!({"a": "toolong"}), 400, "body/a"),
    ];
    for (body, status, place) in moderation {
        let (got, problem) = send(addr, "PUT", "/moderation", &body).await;
        let message = problem["message"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{body} → {problem}");
        assert!(message.contains(place), "{place} in {message}");
    }
    // `anyOf` of `required` lists: one of them must be met.
    for (body, status) in [
        (json!({"team": []}), 204),
        (json!({"reviewers": ["a"], "team": ["b"]}), 204),
        (json!({}), 400),
    ] {
        let (got, problem) = send(addr, "POST", "/reviews", &body).await;
        assert_eq!(got, status, "{body} → {problem}");
        if status == 400 {
            let message = problem["message"].as_str().unwrap_or_default();
            // Held to the schema as written (`anyOf` is more than its types hold): each
            // branch's reason is named.
            assert!(
                message.contains("/reviewers: is required")
                    && message.contains("/team: is required"),
                "{message}"
            );
        }
    }
    // A branch `{maxProperties: 0}` beside them: `{}` is met, another property is not.
    for (body, status) in [
        (json!({}), 204),
        (json!({"content": "x"}), 204),
        (json!({"filename": null}), 204),
        (json!({"other": 1}), 400),
    ] {
        let (got, problem) = send(addr, "PATCH", "/gist-files", &body).await;
        assert_eq!(got, status, "{body} → {problem}");
        if status == 400 {
            let message = problem["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("/content: is required")
                    && message.contains("/filename: is required")
                    && message.contains("at most 0 properties"),
                "{message}"
            );
        }
    }
    // `not: {required: [..]}`: one of the two, not both.
    for (body, status, says) in [
        (json!({"image_url": "u"}), 204, ""),
        (json!({"file_id": "f"}), 204, ""),
        (
            json!({"image_url": "u", "file_id": "f"}),
            400,
            "body: must not have all of `image_url`, `file_id`",
        ),
        (
            json!({}),
            400,
            "(#0: /image_url: is required; #1: /file_id: is required)",
        ),
    ] {
        let (got, problem) = send(addr, "POST", "/image-refs", &body).await;
        assert_eq!(got, status, "{body} → {problem}");
        let message = problem["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{says} in {message}");
    }
    // The same map sent as multipart: its bounds checked alike.
    let http = common::raw_http();
    for (fields, status, place) in [
        (&["a", "c"][..], 204, ""),
        (
            &["a", "c", "e"][..],
            400,
            "body: must have at most 2 properties",
        ),
    ] {
        let mut body = String::new();
        for name in fields {
            body.push_str(&format!(
                "--b\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\nx\r\n"
            ));
        }
        body.push_str("--b--\r\n");
        let response = http
            .put(format!("http://{addr}/v31/moderation"))
            .header("content-type", "multipart/form-data; boundary=b")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{fields:?}");
        let text = response.text().await.unwrap();
        assert!(text.contains(place), "{place} in {text}");
    }
    for (query, status) in [("", 200), ("?status=APPROVED", 200), ("?status=false", 400)] {
        let response = http
            .get(format!("http://{addr}/v31/commands{query}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{query}");
    }
}

/// A body whose schema says what no Rust type holds is held to the schema as written: each
/// refused body is one its type alone would take, and each valid one is taken.
#[tokio::test]
async fn server_holds_a_body_to_its_schema_as_written() {
    let addr = serve().await;
    let cases = [
        (json!({"mode": "open"}), 204, None),
        (json!({"mode": "locked", "pin": "1234"}), 204, None),
        // `if`/`then`: a locked gate needs its pin.
        (json!({"mode": "locked"}), 400, Some("/pin")),
        // `propertyNames`: no name longer than 8 characters.
        (
            json!({"mode": "open", "overlong_name": 1}),
            400,
            Some("/overlong_name"),
        ),
        // `oneOf`: 1 fits both branches, 1.5 only the second.
        (json!({"mode": "open", "step": 1.5}), 204, None),
        (json!({"mode": "open", "step": 1}), 400, Some("/step")),
        // `const` of an object, compared as JSON (`0.0` is `0`).
        (
            json!({"mode": "open", "origin": {"x": 0.0, "y": 0}}),
            204,
            None,
        ),
        (
            json!({"mode": "open", "origin": {"x": 1, "y": 0}}),
            400,
            Some("/origin"),
        ),
        // `contains`.
        (json!({"mode": "open", "tags": ["a", "main"]}), 204, None),
        (json!({"mode": "open", "tags": ["a"]}), 400, Some("/tags")),
    ];
    for (body, status, place) in cases {
        let (got, problem) = send(addr, "POST", "/gates", &body).await;
        assert_eq!(got, status, "{body}: {problem}");
        if let Some(place) = place {
            assert!(problem.to_string().contains(place), "{body}: {problem}");
        }
    }
}

/// `required: true` beside a parameter's `$ref` is applied: the server refuses a request
/// without it, naming it, and takes one with it.
#[tokio::test]
async fn a_sibling_of_a_parameter_reference_is_applied() {
    let addr = serve().await;
    let http = common::raw_http();
    let get = |query: &'static str| {
        let http = http.clone();
        async move {
            let response = http
                .get(format!("http://{addr}/v31/gate-log{query}"))
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.text().await.unwrap())
        }
    };
    let (status, body) = get("").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("gate"), "{body}");
    let (status, body) = get("?gate=north").await;
    assert_eq!(status, 204, "{body}");
}

/// A document's own `Idempotency-Key` header keeps its own rules: a key of 300 characters, past
/// the pet store's 1..255 pattern, is taken; one of 301, an empty one and a missing one are the
/// document's 400 naming the header.
#[tokio::test]
async fn a_document_s_own_idempotency_key_keeps_its_own_bounds() {
    let addr = serve().await;
    let http = common::raw_http();
    let cases = [
        (Some("k".repeat(300)), 204),
        (Some(" spaces and \"quotes\" too ".to_owned()), 204),
        (Some("k".repeat(301)), 400),
        (Some(String::new()), 400),
        (None, 400),
    ];
    for (key, status) in cases {
        let mut request = http.post(format!("http://{addr}/v31/gate-openings"));
        if let Some(key) = &key {
            request = request.header("idempotency-key", key);
        }
        let response = request.send().await.unwrap();
        let got = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert_eq!(got, status, "{key:?}: {body}");
        if status == 400 {
            assert!(body.contains("header/Idempotency-Key"), "{key:?}: {body}");
        }
    }
}

/// A parameter whose schema says what its type cannot (an integer `enum`, `not`) is held to
/// the schema as written: each refused value is one its type alone would take.
#[tokio::test]
async fn a_parameter_is_held_to_its_schema_as_written() {
    let addr = serve().await;
    let http = common::raw_http();
    for (query, status, place) in [
        ("floor=2&side=north", 204, None),
        ("floor=4", 400, Some("query/floor")),
        ("side=closed", 400, Some("query/side")),
    ] {
        let response = http
            .post(format!("http://{addr}/v31/gate-openings?{query}"))
            .header("idempotency-key", "k")
            .send()
            .await
            .unwrap();
        let got = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert_eq!(got, status, "{query}: {body}");
        if let Some(place) = place {
            assert!(body.contains(place), "{query}: {body}");
        }
    }
}

/// A multipart body whose schema says what its types cannot is held to the schema as written,
/// its parts read into the schema's type: each refused body is one its type alone would take.
#[tokio::test]
async fn a_multipart_body_is_held_to_its_schema_as_written() {
    let addr = serve().await;
    let http = common::raw_http();
    let body = |caption: &str, level: Option<&str>| {
        let mut text = String::new();
        let mut part = |name: &str, extra: &str, value: &str| {
            text.push_str(&format!(
                "--b0undary\r\ncontent-disposition: form-data; name=\"{name}\"{extra}\r\n\r\n{value}\r\n"
            ));
        };
        part(
            "photo",
            "; filename=\"gate.jpg\"\r\ncontent-type: image/jpeg",
            "\u{1}JPEG",
        );
        part("caption", "", caption);
        if let Some(level) = level {
            part("level", "", level);
        }
        text.push_str("--b0undary--\r\n");
        text
    };
    for (form, status, place) in [
        (body("the north gate", Some("2")), 204, None),
        (body("the north gate", Some("4")), 400, Some("/level")),
        (body("secret", None), 400, Some("/caption")),
    ] {
        let response = http
            .post(format!("http://{addr}/v31/gate-photos"))
            .header("content-type", "multipart/form-data; boundary=b0undary")
            .body(form.clone())
            .send()
            .await
            .unwrap();
        let got = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(got, status, "{form}: {text}");
        if let Some(place) = place {
            assert!(text.contains(place), "{form}: {text}");
        }
    }
}

/// A multipart body of no one Rust type (an `allOf` of an `anyOf`, discord's invite form)
/// has its text parts read as the schema says before it is held: `hours=0` is the integer 0,
/// which the second branch admits; a part holding JSON is the array of objects it spells. Held
/// as text, each 204 below would be a 400 ("must be null or an integer, got a string").
#[tokio::test]
async fn a_multipart_body_of_no_one_type_reads_its_text_by_the_schema() {
    let addr = serve().await;
    let http = common::raw_http();
    let body = |parts: &[(&str, &str)]| {
        let mut text = String::new();
        for (name, value) in parts {
            text.push_str(&format!(
                "--b0undary\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            ));
        }
        text.push_str("--b0undary--\r\n");
        text
    };
    for (form, status, place) in [
        (body(&[("hours", "0")]), 204, None),
        (body(&[("hours", "null"), ("pass", "x")]), 204, None),
        (
            body(&[("hours", "3"), ("guests", r#"[{"name": "Ada"}]"#)]),
            204,
            None,
        ),
        (body(&[("hours", "-1")]), 400, Some("/hours")),
        (body(&[("hours", "soon")]), 400, Some("/hours")),
        (
            body(&[("hours", "0"), ("guests", "[{}]")]),
            400,
            Some("/guests/0/name"),
        ),
    ] {
        let response = http
            .post(format!("http://{addr}/v31/gate-visits"))
            .header("content-type", "multipart/form-data; boundary=b0undary")
            .body(form.clone())
            .send()
            .await
            .unwrap();
        let got = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(got, status, "{form}: {text}");
        if let Some(place) = place {
            assert!(text.contains(place), "{form}: {text}");
        }
    }
}

/// A form body whose schema says what its types cannot is held to the schema as written: each
/// refused body is one its type alone would take.
#[tokio::test]
async fn a_form_body_is_held_to_its_schema_as_written() {
    let addr = serve().await;
    let http = common::raw_http();
    for (form, status, place) in [
        ("text=hello&level=2", 204, None),
        ("text=hello&level=4", 400, Some("/level")),
        ("text=secret", 400, Some("/text")),
    ] {
        let response = http
            .post(format!("http://{addr}/v31/gate-notes"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .unwrap();
        let got = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert_eq!(got, status, "{form}: {body}");
        if let Some(place) = place {
            assert!(body.contains(place), "{form}: {body}");
        }
    }
}
