//! End to end over real HTTP on 127.0.0.1: an implementation of the generated trait, served
//! by the generated router, called through the generated client for every operation.

mod common;

use petstore_client::client::{CreatePetError, GetPetError, ListPetsError, ListPetsOptions};
use petstore_client::{Client, Error, RetryPolicy};
use petstore_server::api::{
    CreatePetParams, CreatePetResponse, GetPetParams, GetPetResponse, ListOrdersParams,
    ListOrdersResponse, ListPetsParams, ListPetsResponse,
};
use petstore_server::{PetStoreApi, RequestContext, ServerConfig, StaticKeys, types};
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

const KEY: &str = "test-key-0123456789";

/// The simplest real implementation: pets in a vector, ids from a counter.
#[derive(Default)]
struct Store {
    pets: Mutex<Vec<types::Pet>>,
    next_id: AtomicI64,
}

impl PetStoreApi for Store {
    type Error = String;

    async fn list_pets(
        &self,
        ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, String> {
        assert_eq!(ctx.operation_id, "listPets");
        assert_eq!(ctx.principal().map(|p| p.subject.as_str()), Some("tester"));
        let pets = self.pets.lock().unwrap();
        let matching = pets
            .iter()
            .filter(|p| params.status.is_none() || p.status == params.status)
            .take(params.limit as usize)
            .cloned()
            .collect();
        Ok(ListPetsResponse::Ok(matching))
    }

    async fn create_pet(
        &self,
        _ctx: &RequestContext,
        _params: CreatePetParams,
        body: types::NewPet,
    ) -> Result<CreatePetResponse, String> {
        let pet = types::Pet {
            id: self.next_id.fetch_add(1, Ordering::SeqCst) + 1,
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
        if params.pet_id == 666 {
            return Err("the store's database is on fire".into());
        }
        let pets = self.pets.lock().unwrap();
        Ok(match pets.iter().find(|p| p.id == params.pet_id) {
            Some(p) => GetPetResponse::Ok(p.clone()),
            None => GetPetResponse::NotFound(types::Error {
                code: "not_found".into(),
                message: format!("no pet with id {}", params.pet_id),
                status: 404,
            }),
        })
    }

    async fn list_orders(
        &self,
        _ctx: &RequestContext,
        _params: ListOrdersParams,
    ) -> Result<ListOrdersResponse, String> {
        let mut order = serde_json::Map::new();
        order.insert("id".into(), serde_json::json!(1));
        Ok(ListOrdersResponse::Ok(vec![order]))
    }
}

async fn serve() -> SocketAddr {
    let keys = StaticKeys::new().with_key(KEY, "tester", Some("enterprise"));
    let config = ServerConfig::new()
        .authenticator(keys)
        .rate_limit_in_memory(petstore_server::rate_limit_policy());
    let app = petstore_server::router(std::sync::Arc::new(Store::default()), config);
    common::spawn(app).await
}

fn client(addr: SocketAddr, key: &str) -> Client {
    Client::builder(format!("http://{addr}/v1"))
        .bearer_auth(key)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

#[tokio::test]
async fn every_operation_round_trips() {
    let addr = serve().await;
    let client = client(addr, KEY);

    let created = client
        .create_pet(&petstore_client::types::NewPet {
            name: "Rex".into(),
            category_id: 7,
            status: Some(petstore_client::types::PetStatus::Available),
        })
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 201);
    assert_eq!(created.id, 1);
    assert_eq!(created.name, "Rex");
    client
        .create_pet(&petstore_client::types::NewPet {
            name: "Tom".into(),
            category_id: 3,
            status: Some(petstore_client::types::PetStatus::Sold),
        })
        .await
        .unwrap();

    let all = client.list_pets().await.unwrap();
    assert_eq!(all.status().as_u16(), 200);
    assert_eq!(all.len(), 2);
    let limit = all.rate_limit();
    assert_eq!(
        limit.limit,
        Some(10_000),
        "enterprise per-minute quota: {limit:?}"
    );
    assert!(
        limit.remaining.is_some() && limit.reset.is_some(),
        "{limit:?}"
    );

    let sold = client
        .list_pets_with(ListPetsOptions {
            status: Some(petstore_client::types::PetStatus::Sold),
            limit: Some(10),
        })
        .await
        .unwrap();
    assert_eq!(
        sold.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["Tom"]
    );

    let one = client
        .list_pets_with(ListPetsOptions {
            limit: Some(1),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(one.len(), 1);

    #[allow(deprecated)]
    let rex = client.get_pet(1).await.unwrap();
    assert_eq!(rex.name, "Rex");
    assert_eq!(rex.headers()["deprecation"], "@1795305600");
    assert_eq!(rex.headers()["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
    assert_eq!(
        rex.headers()["link"],
        "</v1/pets>; rel=\"successor-version\""
    );

    #[allow(deprecated)]
    let missing = client.get_pet(99).await.unwrap_err();
    match missing {
        Error::Api {
            status,
            body: GetPetError::NotFound(e),
            headers,
            ..
        } => {
            assert_eq!(status.as_u16(), 404);
            assert_eq!(e.code, "not_found");
            assert_eq!(headers["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
        }
        other => panic!("expected a typed 404, got {other:?}"),
    }

    let orders = client.list_orders().await.unwrap();
    assert_eq!(orders.into_inner()[0]["id"], 1);
}

#[test]
fn servers_are_named_choices() {
    use petstore_client::Server;
    assert_eq!("staging".parse::<Server>(), Ok(Server::Staging));
    assert_eq!("Production".parse::<Server>(), Ok(Server::Production));
    assert_eq!(Server::Production.url(), "https://api.petstore.example/v1");
    assert_eq!(Server::ALL.len(), 2);
    assert!(
        "mars"
            .parse::<Server>()
            .unwrap_err()
            .contains("production, staging")
    );
}

#[tokio::test]
async fn errors_are_typed_and_use_the_error_body() {
    let addr = serve().await;

    let wrong = client(addr, "not-a-key");
    match wrong.list_pets().await.unwrap_err() {
        Error::Api {
            status,
            body: ListPetsError::Unauthorized(e),
            headers,
            ..
        } => {
            assert_eq!(status.as_u16(), 401);
            assert_eq!((e.code.as_str(), e.status), ("unauthorized", 401));
            assert!(
                !e.message.contains("not-a-key"),
                "the key must not be echoed: {}",
                e.message
            );
            let challenge = headers["www-authenticate"].to_str().unwrap();
            assert!(challenge.starts_with("Bearer"), "{challenge}");
            assert!(challenge.contains("invalid_token"), "{challenge}");
            assert!(headers.contains_key("x-ratelimit-limit"));
        }
        other => panic!("expected a typed 401, got {other:?}"),
    }

    let client = client(addr, KEY);
    let out_of_range = client
        .list_pets_with(ListPetsOptions {
            limit: Some(101),
            ..Default::default()
        })
        .await
        .unwrap_err();
    match out_of_range {
        Error::Api {
            body: ListPetsError::BadRequest(e),
            ..
        } => {
            assert_eq!((e.code.as_str(), e.status), ("bad_request", 400));
            assert!(
                e.message.contains("limit"),
                "names the parameter: {}",
                e.message
            );
        }
        other => panic!("expected a typed 400, got {other:?}"),
    }

    #[allow(deprecated)]
    let failure = client.get_pet(666).await.unwrap_err();
    // `getPet` documents no 500: read as the document's error type.
    match &failure {
        Error::Api {
            status,
            body: GetPetError::Undocumented(e),
            ..
        } => {
            assert_eq!(status.as_u16(), 500);
            assert_eq!(e.code, "internal");
            let text = String::from_utf8_lossy(failure.raw_body().unwrap());
            assert!(!text.contains("fire"), "no internals leak: {text}");
        }
        other => panic!("expected an undocumented 500, got {other:?}"),
    }

    // A body the schema refuses: the pointer of the field is in the message.
    let http = common::raw_http();
    let response = http
        .post(format!("http://{addr}/v1/pets"))
        .bearer_auth(KEY)
        .header("content-type", "application/json")
        .body(r#"{"name": "Rex", "categoryId": "seven"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["code"], "bad_request");
    assert!(
        body["message"].as_str().unwrap().contains("/categoryId"),
        "{body}"
    );

    // A JSON array where the document describes an object: serde's sequence form of the
    // struct (its fields in order) is refused with the place, and nothing reaches the store.
    for array in [r#"["Rex", 7]"#, r#"["Rex", 7, null]"#, "[]"] {
        let response = http
            .post(format!("http://{addr}/v1/pets"))
            .bearer_auth(KEY)
            .header("content-type", "application/json")
            .body(array)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{array}");
        let body: serde_json::Value =
            serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert_eq!(body["code"], "bad_request", "{array}");
        assert_eq!(
            body["message"], "body: invalid type: sequence, expected struct NewPet",
            "{array}"
        );
    }
    let listed = client.list_pets().await.unwrap();
    assert!(listed.is_empty(), "{:?}", *listed);

    let created = petstore_client::types::NewPet {
        name: "A".into(),
        category_id: 1,
        status: None,
    };
    let ok = client.create_pet(&created).await.unwrap();
    assert_eq!(ok.status, None);
    let _ = CreatePetError::BadRequest;
}
