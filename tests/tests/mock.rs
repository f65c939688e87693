//! The generated mock (a server crate's `mock` feature) over loopback HTTP: the pet store's,
//! called through its generated client as a frontend team would, answers every operation with a
//! typed value from the document's examples, and the real service's authentication, checks,
//! error body and rate limits stand in front of it; the routing and 3.2 fixtures' mocks answer
//! every operation with its documented status (streams included).

mod common;

use std::sync::Arc;

use petstore_client::{Client, Error, RetryPolicy};
use petstore_server::{ServerConfig, StaticKeys, mock::Mock, test_server};

const KEY: &str = "mock-key";

async fn petstore() -> (petstore_server::TestServer, Client) {
    let config = ServerConfig::new()
        .authenticator(StaticKeys::new().with_key(KEY, "frontend", Some("pro")))
        .rate_limit_in_memory(petstore_server::rate_limit_policy());
    let server = test_server(Arc::new(Mock), config).await.unwrap();
    let client = Client::builder(server.base_url())
        .bearer_auth(KEY)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    (server, client)
}

#[tokio::test]
async fn the_pet_store_mock_answers_typed_values_from_the_document() {
    let (_server, client) = petstore().await;
    // The document's example of a Pet (spec/petstore.yaml).
    let pets = client.list_pets().await.unwrap();
    assert_eq!(pets.len(), 1);
    assert_eq!((pets[0].id, pets[0].name.as_str()), (42, "Rex"));
    assert!(
        pets.rate_limit().remaining.is_some(),
        "the real rate limits"
    );
    let created = client
        .create_pet(&petstore_client::types::NewPet::new("Tom", 3))
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 201);
    assert_eq!(created.name, "Rex");
    #[allow(deprecated)]
    let pet = client.get_pet(7).await.unwrap();
    assert!(pet.is_deprecated(), "the operation's deprecation headers");
    let orders = client.list_orders().await.unwrap();
    assert_eq!(orders.len(), 1);
}

#[tokio::test]
async fn the_real_service_stands_in_front_of_the_mock() {
    let (server, client) = petstore().await;
    // Authentication.
    let stranger = Client::builder(server.base_url())
        .bearer_auth("not-the-key")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    match stranger.list_pets().await.unwrap_err() {
        Error::Api { status, .. } => assert_eq!(status.as_u16(), 401),
        other => panic!("{other:?}"),
    }
    // The document's checks, with the Error body.
    match client
        .list_pets_with(petstore_client::client::ListPetsOptions::default().with_limit(1000))
        .await
        .unwrap_err()
    {
        Error::Api { status, .. } => assert_eq!(status.as_u16(), 400),
        other => panic!("{other:?}"),
    }
    let raw = common::raw_http()
        .post(format!("{}/pets", server.base_url()))
        .bearer_auth(KEY)
        .header("content-type", "application/json")
        .body("[null, null]")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 400);
    let body: serde_json::Value = serde_json::from_str(&raw.text().await.unwrap()).unwrap();
    assert_eq!(body["code"], "bad_request");
}

/// `(status, body)` of a raw request.
async fn send(method: &str, url: &str, body: Option<&str>) -> (u16, String) {
    let mut request = common::raw_http()
        .request(reqwest::Method::from_bytes(method.as_bytes()).unwrap(), url)
        .bearer_auth(KEY);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

#[tokio::test]
async fn every_operation_of_the_fixtures_answers_its_documented_status() {
    let keys = || StaticKeys::new().with_key(KEY, "t", None);
    let routing = routing_server::test_server(
        Arc::new(routing_server::mock::Mock),
        ServerConfig::new().authenticator(keys()),
    )
    .await
    .unwrap();
    let api = routing.base_url();
    for (method, path, body) in [
        ("GET", "/", None),
        ("GET", "/Accounts.json", None),
        ("GET", "/Accounts/AC1.json", None),
        ("GET", "/files/a.csv", None),
        ("PUT", "/files/3", None),
        ("DELETE", "/templates/x", None),
        ("POST", "/jobs/j:cancel", None),
        (
            "POST",
            "/responses?beta=true",
            Some(r#"{"operation": "x"}"#),
        ),
        ("GET", "/responses/r1", None),
    ] {
        let (status, text) = send(method, &format!("{api}{path}"), body).await;
        assert_eq!(status, 200, "{method} {path}: {text}");
        let echo: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(echo["operation"].is_string(), "{method} {path}: {text}");
    }

    let ticker = oas32_server::test_server(
        Arc::new(oas32_server::mock::Mock),
        ServerConfig::new()
            .authenticator(StaticKeys::new().with_key(KEY, "t", Some("pro")))
            .rate_limit_in_memory(oas32_server::rate_limit_policy()),
    )
    .await
    .unwrap();
    let client = oas32_client::Client::builder(ticker.base_url())
        .bearer_auth(KEY)
        .build()
        .unwrap();
    // A stream of Server-Sent Events: the mock's one event decodes as a Tick.
    let mut events = client.watch_ticks(3).await.unwrap().into_inner();
    let first = events.next().await.unwrap().unwrap();
    assert_eq!(first.data.seq, 1);
    assert!(events.next().await.is_none());
    let tick = client.get_tick(1).await.unwrap();
    assert_eq!(tick.seq, 1);
    // An operation that describes no response is `default` without content: the mock
    // answers 200 with no body (it was a 501 no implementation could avoid).
    let pinged = client.ping().await.unwrap();
    assert_eq!(pinged.status(), 200);
}

/// A mock's answer holds what the document requires of an answer at any depth: a required
/// `readOnly` member (scalar-galaxy's `Planet.id`, left out of the Rust type's required
/// fields because a request lacks it) even past the depth where optional members stop, and
/// list items that meet the items' own constraints.
#[test]
fn deep_answers_keep_required_read_only_members_and_item_constraints() {
    let text = r#"openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /planets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  data:
                    type: object
                    properties:
                      page:
                        type: object
                        properties:
                          items: {type: array, minItems: 1, items: {$ref: '#/components/schemas/Planet'}}
components:
  schemas:
    Planet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        moons: {type: array, minItems: 1, items: {type: integer, minimum: 10}}
"#;
    let options = apigen::Options {
        name: "x".into(),
        spec_label: "x.yaml".into(),
        command: "cargo xtask codegen".into(),
        ..Default::default()
    };
    let (api, _) = apigen::model(text, &options).unwrap();
    let body = &api.operations[0].mock.bodies[0];
    let planet = &body["data"]["page"]["items"][0];
    assert!(planet.get("id").is_some(), "{body}");
    let outer = &api.operations[0].mock.bodies;
    // At a shallow depth the optional list is made too, its item within its bounds.
    let direct = apigen::model(
        &text.replace(
            "data:\n                    type: object\n                    properties:\n                      page:\n                        type: object\n                        properties:\n                          items:",
            "items:",
        ),
        &options,
    )
    .unwrap()
    .0;
    let moons = &direct.operations[0].mock.bodies[0]["items"][0]["moons"];
    assert!(moons[0].as_i64().unwrap() >= 10, "{moons} ({outer:?})");
}

/// A mock's header values meet the header schema's own constraints: a `format: uri`
/// `Location` is a URI (it was the word `string`, scalar-galaxy's response_headers_conformance).
#[test]
fn mock_headers_meet_their_formats() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /planets:
    post:
      responses:
        '201':
          description: created
          headers:
            Location: {schema: {type: string, format: uri}}
            X-Count: {schema: {type: integer, minimum: 5}}
"#;
    let options = apigen::Options {
        name: "x".into(),
        spec_label: "x.yaml".into(),
        command: "cargo xtask codegen".into(),
        ..Default::default()
    };
    let (api, _) = apigen::model(text, &options).unwrap();
    let headers = &api.operations[0].mock.headers;
    assert_eq!(headers[0], "https://example.com/");
    assert!(headers[1].as_i64().unwrap() >= 5, "{headers:?}");
}

/// A property of several types takes each type's keywords to its own variant (`minimum` to
/// the integer, `minLength` to the string); the mock's value meets the variant's
/// (redocly-cli's `person.id`: the mock's 1 was below its `minimum: 10`).
#[test]
fn a_variant_of_several_types_keeps_its_own_keywords() {
    let text = r#"openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /person:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [id]
                properties:
                  id: {type: [integer, string], minimum: 10, minLength: 4}
"#;
    let options = apigen::Options {
        name: "x".into(),
        spec_label: "x.yaml".into(),
        command: "cargo xtask codegen".into(),
        ..Default::default()
    };
    let (api, _) = apigen::model(text, &options).unwrap();
    let id = &api.operations[0].mock.bodies[0]["id"];
    assert!(id.as_i64().is_some_and(|n| n >= 10), "{id}");
}

/// A documented framing header (openai's speech answer: `Transfer-Encoding: chunked`) is the
/// HTTP layer's, not the implementation's: neither the trait's answer nor the mock sets it
/// (the mock's `string` beside a whole body made hyper drop the connection unanswered).
#[test]
fn framing_headers_are_left_to_the_http_layer() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /audio/speech:
    post:
      responses:
        '200':
          description: ok
          headers:
            Transfer-Encoding: {schema: {type: string}, description: chunked}
            Connection: {schema: {type: string}}
            X-Kept: {schema: {type: string}}
          content:
            application/octet-stream: {schema: {type: string, format: binary}}
"#;
    let options = apigen::Options {
        name: "x".into(),
        spec_label: "x.yaml".into(),
        command: "cargo xtask codegen".into(),
        ..Default::default()
    };
    let (api, _) = apigen::model(text, &options).unwrap();
    let headers: Vec<&str> = api.operations[0].responses[0]
        .headers
        .iter()
        .map(|h| h.wire.as_str())
        .collect();
    assert_eq!(headers, ["x-kept"]);
}
