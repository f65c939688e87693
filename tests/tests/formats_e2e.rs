//! tests/fixtures/formats.yaml over loopback HTTP: typed string formats (`uuid`, `date-time`,
//! `date`, `ipv4`, `ipv6`) make the round trip client → server → client in bodies, path,
//! query and header parameters and response headers; the server refuses a malformed value
//! of each with the `Error` body naming the place; `uri`, `uri-reference`, `email` and
//! `hostname` stay `String`s the server checks (and the mock's values fit);
//! `Options::string_formats` keeps them all `String`. Numbers of `format: decimal` and
//! integers wider than 64 bits keep every digit both ways, and the server checks their bounds
//! and `multipleOf` exactly.

mod common;

use formats_client::client::{GetEventOkHeaders, GetEventOptions};
use formats_client::types as c;
use formats_client::{Client, RetryPolicy};
use formats_server::api::*;
use formats_server::{FormatsApi, RequestContext, ServerConfig, types};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};

struct Service;

impl FormatsApi for Service {
    type Error = String;

    /// Echoes what the parameters were read as, in the body and the response headers.
    async fn get_event(
        &self,
        _ctx: &RequestContext,
        p: GetEventParams,
    ) -> Result<GetEventResponse, String> {
        let at = p.since.unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        let day = p.day.unwrap_or(jiff::civil::date(2000, 1, 1));
        let mut event = types::Event::new(p.id, at, day)
            .with_v4(p.x_client_ip)
            .with_v6(p.x_peer)
            .with_related(p.related);
        event.ends = Some(None);
        let headers = GetEventOkHeaders2 {
            x_request_id: Some(p.id),
            last_seen: p.since,
        };
        Ok(GetEventResponse::Ok(event, headers))
    }

    async fn put_event(
        &self,
        _ctx: &RequestContext,
        p: PutEventParams,
        body: types::Event,
    ) -> Result<PutEventResponse, String> {
        if body.id != p.id {
            return Err("path and body disagree".into());
        }
        Ok(PutEventResponse::Ok(body))
    }

    /// Echoes the body, with the parameters as read in `echoed`.
    async fn post_amounts(
        &self,
        _ctx: &RequestContext,
        p: PostAmountsParams,
        mut body: types::Amounts,
    ) -> Result<PostAmountsResponse, String> {
        body.echoed = Some(vec![Some(p.total), Some(p.least), p.x_big]);
        Ok(PostAmountsResponse::Ok(body))
    }

    async fn put_held_amount(
        &self,
        _ctx: &RequestContext,
        _p: PutHeldAmountParams,
        body: types::HeldAmount,
    ) -> Result<PutHeldAmountResponse, String> {
        Ok(PutHeldAmountResponse::Ok(body))
    }
}

/// The server's header struct (the client has one of the same name).
type GetEventOkHeaders2 = formats_server::api::GetEventOkHeaders;

async fn serve() -> SocketAddr {
    common::spawn(formats_server::router(
        std::sync::Arc::new(Service),
        ServerConfig::new(),
    ))
    .await
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(format!("http://{addr}"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

const ID: &str = "67e55044-10b1-426f-9247-bb680e5fe0c8";

fn event() -> c::Event {
    let id: uuid::Uuid = ID.parse().unwrap();
    // An offset and nanoseconds: the instant survives, written back in UTC.
    let at: jiff::Timestamp = "2024-06-19T15:22:45.123456789+02:00".parse().unwrap();
    c::Event::new(id, at, jiff::civil::date(2024, 2, 29))
        .with_ends(Some("2024-06-20T00:00:00Z".parse().unwrap()))
        .with_v4(Ipv4Addr::new(192, 0, 2, 1))
        .with_v6("2001:db8::1".parse::<Ipv6Addr>().unwrap())
        .with_related(vec![uuid::Uuid::nil(), id])
        .with_holidays(BTreeMap::from([(
            "leap".to_string(),
            jiff::civil::date(2024, 2, 29),
        )]))
        .with_code(uuid::Uuid::max())
        // Strings, checked by the server: values validators accept, unusual ones included.
        .with_homepage("https://example.com/a?b#c")
        .with_contact("\"quoted local\"@example.com")
        .with_host("xn--bcher-kva.example")
        .with_link("../relative?x#y")
}

#[tokio::test]
async fn typed_formats_make_the_round_trip_in_bodies() {
    let addr = serve().await;
    let sent = event();
    let back = client(addr)
        .put_event(sent.id, &sent)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(back, sent);
    let wire = serde_json::to_value(&back).unwrap();
    assert_eq!(
        wire["at"], "2024-06-19T13:22:45.123456789Z",
        "RFC 3339, UTC"
    );
    assert_eq!(wire["day"], "2024-02-29");
    assert_eq!(wire["id"], ID);
    assert_eq!(wire["v6"], "2001:db8::1");
    assert_eq!(wire["holidays"], json!({"leap": "2024-02-29"}));

    // A null `ends` is not an absent one, and comes back as null.
    let mut open = sent.clone();
    open.ends = Some(None);
    let back = client(addr).put_event(open.id, &open).await.unwrap();
    assert_eq!(back.into_inner().ends, Some(None));
}

#[tokio::test]
async fn typed_formats_make_the_round_trip_in_parameters_and_headers() {
    let addr = serve().await;
    let id: uuid::Uuid = ID.parse().unwrap();
    let since: jiff::Timestamp = "2024-06-19T15:22:45Z".parse().unwrap();
    let options = GetEventOptions {
        since: Some(since),
        day: Some(jiff::civil::date(2024, 12, 31)),
        related: Some(vec![id, uuid::Uuid::nil()]),
        x_client_ip: Some(Ipv4Addr::LOCALHOST),
        x_peer: Some(Ipv6Addr::LOCALHOST),
        owner: Some("user@[192.0.2.1]".into()),
    };
    let answer = client(addr).get_event_with(id, options).await.unwrap();
    let headers = GetEventOkHeaders::from_headers(answer.headers());
    assert_eq!(headers.x_request_id, Some(id));
    assert_eq!(headers.last_seen, Some(since));
    let event = answer.into_inner();
    assert_eq!(event.id, id);
    assert_eq!(event.at, since);
    assert_eq!(event.day, jiff::civil::date(2024, 12, 31));
    assert_eq!(event.related, Some(vec![id, uuid::Uuid::nil()]));
    assert_eq!(event.v4, Some(Ipv4Addr::LOCALHOST));
    assert_eq!(event.v6, Some(Ipv6Addr::LOCALHOST));
}

async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, Value) {
    let mut request =
        common::raw_http().request(method.parse().unwrap(), format!("http://{addr}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A 400 with the document's `Error` body whose message names `place`.
fn assert_refused(what: &str, (status, problem): (u16, Value), place: &str) {
    assert_eq!(status, 400, "{what} → {problem}");
    assert_eq!(problem["status"], 400, "the Error body: {problem}");
    assert!(problem["code"].is_string(), "the Error body: {problem}");
    let message = problem["message"].as_str().unwrap_or_default();
    assert!(message.contains(place), "{what}: `{place}` in {message}");
}

#[tokio::test]
async fn server_refuses_malformed_body_values_with_a_pointer() {
    let addr = serve().await;
    let good = serde_json::to_value(event()).unwrap();
    let path = format!("/events/{ID}");
    assert_eq!(send(addr, "PUT", &path, &[], Some(&good)).await.0, 200);
    let cases = [
        ("id", json!("not-a-uuid"), "/id"),
        ("id", json!(42), "/id"),
        ("at", json!("not-a-date"), "/at"),
        ("at", json!("2024-06-19T15:22:45"), "/at"), // no offset
        ("at", json!("2024-06-19"), "/at"),
        ("day", json!("2024-02-30"), "/day"),
        ("day", json!("2024-06-19T00:00:00Z"), "/day"),
        ("ends", json!("soon"), "/ends"),
        ("v4", json!("256.0.0.1"), "/v4"),
        ("v4", json!("::1"), "/v4"),
        ("v6", json!("2001:db8::g"), "/v6"),
        ("related", json!([ID, "x"]), "/related/1"),
        ("holidays", json!({"leap": "29.02.2024"}), "/holidays/leap"),
        ("code", json!("zz"), "/code"),
        // What RFC 3339 and RFC 9562 do not write, though jiff and the uuid crate read it.
        ("at", json!("2024-06-19T15:22:45+01"), "/at"),
        ("at", json!("2024-06-19T15:22:45-24:00"), "/at"),
        ("at", json!("2024-06-19T15:22:60Z"), "/at"),
        ("at", json!("2024-06-19 15:22:45Z"), "/at"),
        ("day", json!("20240619"), "/day"),
        ("id", json!("550e8400e29b41d4a716446655440000"), "/id"),
        (
            "id",
            json!("urn:uuid:550e8400-e29b-41d4-a716-446655440000"),
            "/id",
        ),
    ];
    for (field, value, place) in cases {
        let mut body = good.clone();
        body[field] = value.clone();
        let answer = send(addr, "PUT", &path, &[], Some(&body)).await;
        assert_refused(&format!("{field}: {value}"), answer, place);
    }
}

#[tokio::test]
async fn server_refuses_malformed_parameters_with_a_pointer() {
    let addr = serve().await;
    let ok = format!("/events/{ID}");
    assert_eq!(send(addr, "GET", &ok, &[], None).await.0, 200);
    let get = |path: String, headers: Vec<(&'static str, &'static str)>| async move {
        send(addr, "GET", &path, &headers, None).await
    };
    assert_refused(
        "path",
        get("/events/not-a-uuid".into(), vec![]).await,
        "path/id",
    );
    assert_refused(
        "query since",
        get(format!("{ok}?since=yesterday"), vec![]).await,
        "query/since",
    );
    assert_refused(
        "query day",
        get(format!("{ok}?day=2024-13-01"), vec![]).await,
        "query/day",
    );
    // An offset of hours alone is ISO 8601's, not RFC 3339's.
    assert_refused(
        "query since +01",
        get(format!("{ok}?since=2024-06-19T15:22:45%2B01"), vec![]).await,
        "query/since",
    );
    assert_refused(
        "path uuid without hyphens",
        get("/events/550e8400e29b41d4a716446655440000".into(), vec![]).await,
        "path/id",
    );
    // RFC 3339 bounds neither a fraction's digits nor forbids a leap second at 23:59 UTC.
    for since in [
        "2024-06-19T15:22:45.123456789012345%2B02:00",
        "2016-12-31T23:59:60Z",
        "2016-12-31t15:59:60.5-08:00",
    ] {
        let (status, body) = get(format!("{ok}?since={since}"), vec![]).await;
        assert_eq!(status, 200, "{since}: {body}");
    }
    assert_refused(
        "query related",
        get(format!("{ok}?related={ID},nope"), vec![]).await,
        "query/related/1",
    );
    assert_refused(
        "header ipv4",
        get(ok.clone(), vec![("X-Client-Ip", "::1")]).await,
        "header/X-Client-Ip",
    );
    assert_refused(
        "header ipv6",
        get(ok.clone(), vec![("X-Peer", "10.0.0.1")]).await,
        "header/X-Peer",
    );
}

/// `uri`, `uri-reference`, `email` and `hostname` are kept as `String` and checked: a value
/// outside the format is refused with the document's `Error` body naming the place, in a body
/// and in a parameter; values JSON Schema validators accept pass (the round trips above).
#[tokio::test]
async fn server_checks_string_formats_kept_as_text() {
    let addr = serve().await;
    let good = serde_json::to_value(event()).unwrap();
    let path = format!("/events/{ID}");
    for (field, value) in [
        ("homepage", json!("mailto:x@y.z")),
        ("contact", json!("user@[IPv6:2001:db8::1]")),
        ("homepage", json!("urn:isbn:0451450523")),
        ("host", json!("localhost")),
        ("link", json!("")),
    ] {
        let mut body = good.clone();
        body[field] = value.clone();
        let (status, answer) = send(addr, "PUT", &path, &[], Some(&body)).await;
        assert_eq!(status, 200, "{field}: {value} → {answer}");
    }
    let cases = [
        ("contact", json!("a@"), "/contact", "email"),
        ("contact", json!("not an email"), "/contact", "email"),
        ("homepage", json!("not a uri"), "/homepage", "uri"),
        ("homepage", json!("http://exa mple.com"), "/homepage", "uri"),
        ("homepage", json!("/relative"), "/homepage", "uri"),
        ("host", json!("-host.com"), "/host", "hostname"),
        ("link", json!("a b"), "/link", "uri-reference"),
    ];
    for (field, value, place, format) in cases {
        let mut body = good.clone();
        body[field] = value.clone();
        let answer = send(addr, "PUT", &path, &[], Some(&body)).await;
        let message = answer.1["message"].as_str().unwrap_or_default().to_string();
        assert_refused(&format!("{field}: {value}"), answer, place);
        assert!(message.contains(format), "{field}: `{format}` in {message}");
    }
    let get = format!("{path}?owner=user%40example.com");
    assert_eq!(send(addr, "GET", &get, &[], None).await.0, 200);
    assert_refused(
        "query owner",
        send(addr, "GET", &format!("{path}?owner=a%40"), &[], None).await,
        "query/owner",
    );
}

/// The mock's values fit the formats the server checks: its answer passes the server's own
/// checks (`mock::checked`; a value that did not would be a 500) and the client reads it.
#[tokio::test]
async fn the_mock_answers_values_of_each_format() {
    let addr = common::spawn(formats_server::router(
        std::sync::Arc::new(formats_server::mock::Mock),
        ServerConfig::new(),
    ))
    .await;
    let id: uuid::Uuid = ID.parse().unwrap();
    let event = client(addr).get_event(id).await.unwrap().into_inner();
    let homepage = event.homepage.unwrap();
    let contact = event.contact.unwrap();
    let host = event.host.unwrap();
    let link = event.link.unwrap();
    use formats_server::runtime::formats;
    assert!(formats::is_uri(&homepage), "{homepage}");
    assert!(formats::is_email(&contact), "{contact}");
    assert!(formats::is_hostname(&host), "{host}");
    assert!(formats::is_uri_reference(&link), "{link}");
}

/// `Options::string_formats` (`cargo xtask codegen --string-formats`): the same document
/// with every format a `String`, and the length and pattern checks beside one back.
#[test]
fn string_formats_option_keeps_strings() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/formats.yaml"),
    )
    .unwrap();
    let generate = |string_formats: bool| {
        let options = apigen::Options {
            api_name: None,
            name: "formats".into(),
            spec_label: "tests/fixtures/formats.yaml".into(),
            command: "cargo xtask codegen".into(),
            string_formats,
            ..Default::default()
        };
        apigen::generate(&text, &options).unwrap().files
    };
    let typed = generate(false);
    assert!(typed["server/src/types.rs"].contains("pub id: uuid::Uuid,"));
    assert!(!typed["server/src/types.rs"].contains("check_pattern"));
    let strings = generate(true);
    for file in [
        "server/src/types.rs",
        "server/src/api.rs",
        "client/src/types.rs",
        "client/src/client.rs",
    ] {
        let text = &strings[file];
        for typed in ["uuid::", "jiff::", "Ipv4Addr", "Ipv6Addr"] {
            assert!(!text.contains(typed), "{file} names {typed}");
        }
    }
    assert!(strings["server/src/types.rs"].contains("pub id: String,"));
    assert!(strings["server/src/types.rs"].contains("validate::check_pattern"));
}

type Decimal = formats_client::runtime::decimal::Decimal;

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

#[tokio::test]
async fn decimals_keep_every_digit_in_bodies_and_parameters() {
    let addr = serve().await;
    // 21 digits and more: an f64 would keep 17 (`903275809834567300000`).
    let sent = c::Amounts::new(dec("903275809834567386763.01"))
        .with_big(dec("-170141183460469231731687303715884105729")) // below i128::MIN
        .with_parts(vec![
            dec("0.1"),
            dec("1e-30"),
            dec("123456789012345678901234567890.123456789"),
        ])
        .with_text("1.50");
    let options = formats_client::client::PostAmountsOptions::default()
        .with_least(dec("0.000000000000000000001"))
        .with_x_big(dec("99999999999999999999999"));
    let back = client(addr)
        .post_amounts_with(dec("12345678901234567890.123456789"), &sent, options)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(back.price.as_str(), "903275809834567386763.01");
    assert_eq!(back.big, sent.big);
    assert_eq!(back.parts, sent.parts);
    assert_eq!(back.text.as_deref(), Some("1.50"));
    let echoed: Vec<Option<String>> = back
        .echoed
        .unwrap()
        .iter()
        .map(|d| d.as_ref().map(|d| d.as_str().to_owned()))
        .collect();
    assert_eq!(
        echoed,
        [
            Some("12345678901234567890.123456789".to_owned()),
            Some("0.000000000000000000001".to_owned()),
            Some("99999999999999999999999".to_owned()),
        ]
    );
    // On the wire both ways: JSON numbers with their digits, not strings.
    let body = json!({"price": 1});
    let text = common::raw_http()
        .post(format!("http://{addr}/amounts/1.10?least=2e-3"))
        .header("content-type", "application/json")
        .body(r#"{"price": 903275809834567386763.01, "big": 1e40}"#)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        text,
        r#"{"price":903275809834567386763.01,"big":1e40,"echoed":[1.10,2e-3,null]}"#
    );
    // A body held to its schema as written (a `serde_json::Value` of doubles is walked) is
    // still decoded from its bytes.
    let held = c::HeldAmount::new(dec("903275809834567386763.01"));
    let back = client(addr)
        .put_held_amount(&held)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(back.price.as_str(), "903275809834567386763.01");
    let forbidden = json!({"price": 1, "forbidden": true});
    let (status, _) = send(addr, "PUT", "/amounts", &[], Some(&forbidden)).await;
    assert_eq!(status, 400, "the schema's `not` is checked");
    // The parameter's default, and a value the server's bound allows exactly.
    let (status, answer) = send(addr, "POST", "/amounts/0", &[], Some(&body)).await;
    assert_eq!((status, &answer["echoed"]), (200, &json!([0, 0.5, null])));
}

#[tokio::test]
async fn server_checks_decimals_exactly() {
    let addr = serve().await;
    let post = |body: &'static str,
                path: &'static str,
                headers: Vec<(&'static str, &'static str)>| async move {
        let mut request = common::raw_http()
            .post(format!("http://{addr}{path}"))
            .header("content-type", "application/json")
            .body(body);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let bytes = response.bytes().await.unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    };
    let at_max = r#"{"price": 1000000000000000000000000000000}"#;
    assert_eq!(post(at_max, "/amounts/1", vec![]).await.0, 200);
    // An enum of wide integers compares every digit (as doubles, both values are one).
    let listed = r#"{"price": 1, "tier": 12345678901234567}"#;
    assert_eq!(post(listed, "/amounts/1", vec![]).await.0, 200);
    let cases = [
        (r#"{"price": 0}"#, "/price"), // exclusiveMinimum 0
        (r#"{"price": 1000000000000000000000000000000.01}"#, "/price"), // above the maximum by a cent
        (r#"{"price": 1.001}"#, "/price"),                              // not a multiple of 0.01
        (r#"{"price": 90327580983456738676.001}"#, "/price"),
        (r#"{"price": "1.50"}"#, "/price"), // a string where a number belongs
        (r#"{"price": 1, "big": 1.5}"#, "/big"), // an integer wider than 64 bits is whole
        (r#"{"price": 1, "text": "1,50"}"#, "/text"), // format: decimal on a string
        (r#"{"price": 1, "parts": [1, true]}"#, "/parts/1"),
        (r#"{"price": 1, "tier": 12345678901234568}"#, "/tier"),
    ];
    for (body, place) in cases {
        assert_refused(body, post(body, "/amounts/1", vec![]).await, place);
    }
    let ok = r#"{"price": 1}"#;
    assert_refused("path", post(ok, "/amounts/1,5", vec![]).await, "path/total");
    assert_refused(
        "query",
        post(ok, "/amounts/1?least=-1e-30", vec![]).await,
        "query/least",
    );
    assert_refused(
        "header",
        post(ok, "/amounts/1", vec![("x-big", "1e-3")]).await,
        "header/X-Big",
    );
}
