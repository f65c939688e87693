//! Integers written as whole numbers (`1.0`, `-18114.0`, `1e3`), over loopback HTTP: the
//! generated servers take them in bodies, forms and parameters, the generated clients in
//! responses; `1.5` and out-of-range values are still refused with the `Error` body naming the
//! place. (JSON Schema 2020-12: an integer is a number with a zero fractional part; the book's
//! type mapping, book/src/reference/type-mapping.md, has the decision.)

mod common;

use petstore_server::api::{
    CreatePetParams, CreatePetResponse, GetPetParams, GetPetResponse, ListOrdersParams,
    ListOrdersResponse, ListPetsParams, ListPetsResponse,
};
use petstore_server::{PetStoreApi, RequestContext, ServerConfig, StaticKeys, types};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Mutex;

const KEY: &str = "whole-numbers-key-0123";

/// Pets in a vector; `create_pet` keeps the category as the id, so a test can pick it.
#[derive(Default)]
struct Store {
    pets: Mutex<Vec<types::Pet>>,
}

impl PetStoreApi for Store {
    type Error = String;

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, String> {
        let pets = self.pets.lock().unwrap();
        let first = pets.iter().take(params.limit as usize).cloned().collect();
        Ok(ListPetsResponse::Ok(first))
    }

    async fn create_pet(
        &self,
        _ctx: &RequestContext,
        _params: CreatePetParams,
        body: types::NewPet,
    ) -> Result<CreatePetResponse, String> {
        let pet = types::Pet {
            id: body.category_id,
            name: body.name,
            category_id: body.category_id,
            status: body.status,
        };
        self.pets.lock().unwrap().push(pet.clone());
        Ok(CreatePetResponse::Created(pet))
    }

    async fn get_pet(
        &self,
        _ctx: &RequestContext,
        params: GetPetParams,
    ) -> Result<GetPetResponse, String> {
        let pets = self.pets.lock().unwrap();
        match pets.iter().find(|p| p.id == params.pet_id) {
            Some(p) => Ok(GetPetResponse::Ok(p.clone())),
            None => Err(format!("no pet {}", params.pet_id)),
        }
    }

    async fn list_orders(
        &self,
        _ctx: &RequestContext,
        _params: ListOrdersParams,
    ) -> Result<ListOrdersResponse, String> {
        Ok(ListOrdersResponse::Ok(vec![]))
    }
}

async fn serve_petstore() -> SocketAddr {
    let config = ServerConfig::new().authenticator(StaticKeys::new().with_key(
        KEY,
        "tester",
        Some("enterprise"),
    ));
    let app = petstore_server::router(std::sync::Arc::new(Store::default()), config);
    common::spawn(app).await
}

/// Sends `body` (raw text) and returns the status and the body as JSON.
async fn send(method: &str, url: String, content_type: &str, body: &str) -> (u16, Value) {
    let method = http::Method::from_bytes(method.as_bytes()).unwrap();
    let response = common::raw_http()
        .request(method, url)
        .bearer_auth(KEY)
        .header("content-type", content_type)
        .body(body.to_owned())
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

async fn get(url: String) -> (u16, Value) {
    send("GET", url, "application/json", "").await
}

/// The `Error` body of a 400 whose message names `place`.
fn assert_refused(status: u16, problem: &Value, place: &str) {
    assert_eq!(status, 400, "{problem}");
    assert_eq!(
        (&problem["code"], &problem["status"]),
        (&json!("bad_request"), &json!(400)),
        "{problem}"
    );
    let message = problem["message"].as_str().unwrap_or_default();
    assert!(message.contains(place), "{place} in {message}");
}

#[tokio::test]
async fn server_takes_whole_numbers_in_bodies_and_parameters() {
    let addr = serve_petstore().await;
    let pets = format!("http://{addr}/v1/pets");
    for (written, value) in [
        ("-18114.0", -18114),
        ("1e3", 1000),
        ("7.000", 7),
        ("2E0", 2),
    ] {
        let body = format!(r#"{{"name": "Rex", "categoryId": {written}}}"#);
        let (status, pet) = send("POST", pets.clone(), "application/json", &body).await;
        assert_eq!(status, 201, "{written}: {pet}");
        // Written back as an integer.
        assert_eq!(pet["categoryId"], json!(value), "{written}");
    }

    // Path and query parameters: the same rule, then the same checks (limit is 1 to 100).
    let (status, pet) = get(format!("{pets}/7.0")).await;
    assert_eq!((status, &pet["id"]), (200, &json!(7)), "{pet}");
    let (status, list) = get(format!("{pets}?limit=2.0")).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
    let (status, list) = get(format!("{pets}?limit=1e2")).await;
    assert_eq!((status, list.as_array().map(Vec::len)), (200, Some(4)));
    let (status, problem) = get(format!("{pets}?limit=1e3")).await;
    assert_refused(status, &problem, "limit");
    let (status, problem) = get(format!("{pets}?limit=2.5")).await;
    assert_refused(status, &problem, "query/limit");
    let (status, problem) = get(format!("{pets}/1e19")).await;
    assert_refused(status, &problem, "path/petId");
}

#[tokio::test]
async fn server_refuses_fractions_and_out_of_range_numbers_naming_the_field() {
    let addr = serve_petstore().await;
    let pets = format!("http://{addr}/v1/pets");
    for written in [
        "1.5",
        "-0.25",
        "1e-3",
        // 2^63 as a double: one past i64's largest value.
        "9223372036854775808.0",
        // Past i64's smallest value; as a double it rounds to i64::MIN (schemathesis's case).
        "-9223372036854775809",
        // Beyond 2^53, where a double is no longer exact.
        "9007199254740993.0",
        "1e19",
        "-1e300",
    ] {
        let body = format!(r#"{{"name": "Rex", "categoryId": {written}}}"#);
        let (status, problem) = send("POST", pets.clone(), "application/json", &body).await;
        assert_refused(status, &problem, "/categoryId");
    }
}

#[tokio::test]
async fn generated_client_reads_whole_numbers_in_responses() {
    // A server written by someone else that writes every integer as a float.
    let app = axum::Router::new()
        .route(
            "/v1/pets/{id}",
            axum::routing::get(|| async {
                (
                    [("content-type", "application/json")],
                    r#"{"id": 7.0, "name": "Rex", "categoryId": 1e0}"#,
                )
            }),
        )
        .route(
            "/v1/pets",
            axum::routing::get(|| async {
                (
                    [("content-type", "application/json")],
                    r#"[{"id": 8.0, "name": "Ann", "categoryId": -2.0}, {"id": 9, "name": "Bo", "categoryId": 1.5}]"#,
                )
            }),
        );
    let addr = common::spawn(app).await;
    let client = petstore_client::Client::builder(format!("http://{addr}/v1"))
        .bearer_auth(KEY)
        .retry_policy(petstore_client::RetryPolicy::none())
        .build()
        .unwrap();
    #[allow(deprecated)]
    let pet = client.get_pet(7).await.unwrap().into_inner();
    assert_eq!((pet.id, pet.category_id), (7, 1));
    // A fraction is still not an integer: the response does not decode.
    let err = client.list_pets().await.expect_err("1.5 is not an int64");
    assert!(
        matches!(err, petstore_client::Error::Decode { .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn one_of_variants_flattened_maps_and_forms_take_whole_numbers() {
    // oas31: `key: [string, integer]` is a oneOf-like enum, `version` a constant, `id` has an
    // exclusive minimum: the whole number decodes, then the checks apply to its value.
    let app = oas31_server::router(
        std::sync::Arc::new(Oas31),
        oas31_server::ServerConfig::new(),
    );
    let addr = common::spawn(app).await;
    let records = format!("http://{addr}/v31/records");
    let record = r#"{"id": 3.0, "kind": "record", "note": null, "owner": null, "score": 9.0,
        "version": 2.0, "key": 4.2e1}"#;
    let (status, back) = send("POST", records.clone(), "application/json", record).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(
        (&back["id"], &back["version"], &back["key"], &back["score"]),
        (&json!(3), &json!(2), &json!(42), &json!(9.0))
    );
    for (field, written) in [("id", "0.0"), ("id", "1.5"), ("version", "3.0")] {
        let body = record.replace(
            &format!(
                r#""{field}": {}"#,
                if field == "id" { "3.0" } else { "2.0" }
            ),
            &format!(r#""{field}": {written}"#),
        );
        assert_ne!(body, record);
        let (status, problem) = send("POST", records.clone(), "application/json", &body).await;
        assert_refused(status, &problem, &format!("/{field}"));
    }

    // constructs: a client reading a flattened map of integers and an integer enum.
    let app = axum::Router::new().route(
        "/v3/things",
        axum::routing::get(|| async {
            (
                [("content-type", "application/json")],
                r#"{"client": {"type": "t", "x": 5.0, "y": 6}, "level": 2.0}"#,
            )
        }),
    );
    let addr = common::spawn(app).await;
    let client = constructs_client::Client::builder(format!("http://{addr}/v3"))
        .retry_policy(constructs_client::RetryPolicy::none())
        .build()
        .unwrap();
    let things = client.get_things().await.unwrap().into_inner();
    let extra = things.client.unwrap().additional_properties;
    assert_eq!((extra["x"], extra["y"]), (5, 6));
    assert_eq!(things.level, Some(2));
}

struct Oas31;

impl oas31_server::Oas31Api for Oas31 {
    type Error = String;

    async fn add_record(
        &self,
        _ctx: &oas31_server::RequestContext,
        _params: oas31_server::api::AddRecordParams,
        body: oas31_server::types::Record,
    ) -> Result<oas31_server::api::AddRecordResponse, String> {
        Ok(oas31_server::api::AddRecordResponse::Ok(body))
    }

    async fn put_labels(
        &self,
        _ctx: &oas31_server::RequestContext,
        _params: oas31_server::api::PutLabelsParams,
        body: oas31_server::types::Labels,
    ) -> Result<oas31_server::api::PutLabelsResponse, String> {
        Ok(oas31_server::api::PutLabelsResponse::Ok(body))
    }

    async fn add_shipment(
        &self,
        _ctx: &oas31_server::RequestContext,
        _params: oas31_server::api::AddShipmentParams,
        body: oas31_server::types::Shipment,
    ) -> Result<oas31_server::api::AddShipmentResponse, String> {
        Ok(oas31_server::api::AddShipmentResponse::Created(body))
    }
}
