//! Faking the API in a frontend team's tests: written the way a team that only calls the pet
//! store through `petstore-client` would, with `petstore-server` as a dev-dependency. The fake
//! implements the operations the test needs with typed answers, `test_server` serves it on a
//! free loopback port, and the real client talks to it.

use std::sync::{Arc, Mutex};

use petstore_client::{Client, Error, client::GetPetError, client::ListPetsOptions};
use petstore_server::api::{GetPetParams, GetPetResponse, ListPetsParams, ListPetsResponse};
use petstore_server::{PetStoreApi, RequestContext, ServerConfig, StaticKeys, test_server, types};

// ANCHOR: fake
/// The fake: two pets, and every `listPets` call recorded for the test to inspect.
#[derive(Default)]
struct FakePetStore {
    list_calls: Mutex<Vec<(Option<i32>, Option<String>)>>,
}

impl PetStoreApi for FakePetStore {
    type Error = String;

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, String> {
        self.list_calls
            .lock()
            .unwrap()
            .push((Some(params.limit), params.status.map(|s| s.to_string())));
        Ok(ListPetsResponse::Ok(vec![
            types::Pet::new("Rex", 1, 1),
            types::Pet::new("Tom", 2, 2),
        ]))
    }

    #[allow(deprecated)]
    async fn get_pet(
        &self,
        _ctx: &RequestContext,
        params: GetPetParams,
    ) -> Result<GetPetResponse, String> {
        Ok(GetPetResponse::NotFound(types::Error::new(
            "not_found",
            format!("no pet {}", params.pet_id),
            404,
        )))
    }
    // `createPet` is left out: it answers 501 with the `Error` body.
}
// ANCHOR_END: fake

/// The fake's key, as a test would set it.
const KEY: &str = "test-key";

// ANCHOR: serve
async fn fake() -> (Arc<FakePetStore>, petstore_server::TestServer, Client) {
    let fake = Arc::new(FakePetStore::default());
    let config = ServerConfig::new().authenticator(StaticKeys::new().with_key(KEY, "tester", None));
    let server = test_server(fake.clone(), config).await.unwrap();
    let client = Client::builder(server.base_url())
        .bearer_auth(KEY)
        .build()
        .unwrap();
    (fake, server, client)
}
// ANCHOR_END: serve

#[tokio::test]
async fn the_client_reads_typed_answers_from_a_fake() {
    let (fake, _server, client) = fake().await;
    let pets = client
        .list_pets_with(ListPetsOptions::default().with_limit(5))
        .await
        .unwrap();
    let names: Vec<&str> = pets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Rex", "Tom"]);
    // The fake saw what the client sent, parsed and checked by the generated server.
    assert_eq!(
        fake.list_calls.lock().unwrap().as_slice(),
        [(Some(5), None)]
    );

    // A documented error comes back typed.
    #[allow(deprecated)]
    let err = client.get_pet(7).await.unwrap_err();
    let Error::Api { status, body, .. } = err else {
        panic!("expected the documented 404, got {err:?}");
    };
    assert_eq!(status, 404);
    let GetPetError::NotFound(e) = body else {
        panic!("expected NotFound, got {body:?}");
    };
    assert_eq!(e.message, "no pet 7");
}

#[tokio::test]
async fn the_fake_checks_requests_like_the_real_service() {
    let (fake, _server, client) = fake().await;
    // Below the document's minimum: refused before the fake runs, as the real service would.
    let err = client
        .list_pets_with(ListPetsOptions::default().with_limit(0))
        .await
        .unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(400), "{err:?}");
    assert!(fake.list_calls.lock().unwrap().is_empty());

    // A wrong key is refused by the fake's authenticator.
    let stranger = Client::builder(_server.base_url())
        .bearer_auth("not-the-key")
        .build()
        .unwrap();
    let err = stranger.list_pets().await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(401), "{err:?}");

    // An operation the fake leaves out answers 501.
    let err = client
        .create_pet(&petstore_client::types::NewPet::new("Rex", 1))
        .await
        .unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(501), "{err:?}");
}

#[tokio::test]
async fn a_dropped_test_server_stops_listening() {
    let (_fake, server, _client) = fake().await;
    let addr = server.addr();
    drop(server);
    // Stopping is asynchronous: poll (generously) until connections are refused.
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_err() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("{addr} still accepts connections after the server was dropped");
}
