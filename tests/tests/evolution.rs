//! Spec evolution over real HTTP on 127.0.0.1: an implementation written before an operation
//! existed still compiles (every trait method has a default) and answers it with 501 and the
//! document's `Error` body; an operation past its sunset answers 410 (on a clock the test
//! sets), and the client names its replacement.

mod common;

use petstore_client::{Client, Error, RetryPolicy};
use petstore_server::api::{GetPetParams, GetPetResponse, ListPetsParams, ListPetsResponse};
use petstore_server::{Clock, PetStoreApi, RequestContext, ServerConfig, StaticKeys, types};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, UNIX_EPOCH};

const KEY: &str = "test-key-0123456789";

/// Implements no operation at all: what a service looks like to an operation the document
/// added after it was written.
struct Predates;

impl PetStoreApi for Predates {
    type Error = String;
}

async fn serve() -> SocketAddr {
    let keys = StaticKeys::new().with_key(KEY, "tester", Some("pro"));
    let config = ServerConfig::new()
        .authenticator(keys)
        .rate_limit_in_memory(petstore_server::rate_limit_policy());
    common::spawn(petstore_server::router(
        std::sync::Arc::new(Predates),
        config,
    ))
    .await
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(format!("http://{addr}/v1"))
        .bearer_auth(KEY)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

/// The body of an answer, read as the document's `Error` (an undocumented status reads as
/// that type, into the error enum's `Undocumented`; `Gone` keeps the bytes).
fn error_body<E: std::fmt::Debug>(err: &Error<E>) -> petstore_client::types::Error {
    let body = err
        .raw_body()
        .unwrap_or_else(|| panic!("expected an answer, got {err:?}"));
    serde_json::from_slice(body).unwrap()
}

#[tokio::test]
async fn an_unimplemented_operation_answers_501_with_the_error_body() {
    let addr = serve().await;
    let client = client(addr);

    let err = client
        .list_pets()
        .await
        .expect_err("nothing is implemented");
    assert_eq!(err.status().map(|s| s.as_u16()), Some(501));
    let body = error_body(&err);
    assert_eq!(body.code, "not_implemented");
    assert_eq!(body.status, 501);
    assert!(body.message.contains("listPets"), "{}", body.message);
    assert_eq!(
        err.rate_limit().limit,
        Some(300),
        "counted like any answer (Pro plan)"
    );

    // The operation's own headers still come with it (here: deprecation).
    #[allow(deprecated)]
    let err = client.get_pet(1).await.expect_err("nothing is implemented");
    assert_eq!(err.status().map(|s| s.as_u16()), Some(501));
    assert_eq!(error_body(&err).code, "not_implemented");
    let headers = err.headers().unwrap();
    assert_eq!(headers["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
    assert_eq!(headers["deprecation"], "@1795305600");

    // Authentication and input checks still come first: they do not depend on the handler.
    let raw = common::raw_http()
        .get(format!("http://{addr}/v1/pets?limit=0"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 400);
    let raw = common::raw_http()
        .get(format!("http://{addr}/v1/store/orders"))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 401);
}

// ---- Sunset: `getPet` is removed on 2030-12-05 (`x-deprecation.sunset`) --------------------

/// 2030-12-05T00:00:00Z, the spec's sunset of `getPet`.
const SUNSET: u64 = 1_922_659_200;

/// A clock the test moves (Unix seconds).
#[derive(Clone, Default)]
struct TestClock(Arc<AtomicU64>);

impl TestClock {
    fn at(seconds: u64) -> Self {
        TestClock(Arc::new(AtomicU64::new(seconds)))
    }
    fn set(&self, seconds: u64) {
        self.0.store(seconds, Ordering::SeqCst);
    }
    fn clock(&self) -> Clock {
        let now = self.0.clone();
        Clock::new(move || UNIX_EPOCH + Duration::from_secs(now.load(Ordering::SeqCst)))
    }
}

/// Serves pet 1 and an empty list.
struct OnePet;

impl PetStoreApi for OnePet {
    type Error = String;

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        _params: ListPetsParams,
    ) -> Result<ListPetsResponse, String> {
        Ok(ListPetsResponse::Ok(Vec::new()))
    }

    async fn get_pet(
        &self,
        _ctx: &RequestContext,
        params: GetPetParams,
    ) -> Result<GetPetResponse, String> {
        Ok(GetPetResponse::Ok(types::Pet::new("Rex", 7, params.pet_id)))
    }
}

async fn serve_with(config: ServerConfig) -> SocketAddr {
    let keys = StaticKeys::new().with_key(KEY, "tester", Some("pro"));
    let config = config
        .authenticator(keys)
        .rate_limit_in_memory(petstore_server::rate_limit_policy());
    common::spawn(petstore_server::router(Arc::new(OnePet), config)).await
}

#[tokio::test]
async fn past_its_sunset_an_operation_answers_410_naming_its_replacement() {
    let clock = TestClock::at(SUNSET - 1);
    let addr = serve_with(ServerConfig::new().clock(clock.clock())).await;
    let client = client(addr);

    // The last second before the sunset: served, with its deprecation headers.
    #[allow(deprecated)]
    let pet = client.get_pet(1).await.expect("served before the sunset");
    assert_eq!(pet.status().as_u16(), 200);
    assert_eq!(pet.headers()["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");

    // From the sunset on: 410 with the Error body and the same deprecation headers, and the
    // client's typed error names the replacement.
    clock.set(SUNSET);
    #[allow(deprecated)]
    let err = client.get_pet(1).await.expect_err("gone at the sunset");
    let Error::Gone {
        status,
        headers,
        body,
        operation,
        replacement,
        ..
    } = &err
    else {
        panic!("expected Error::Gone, got {err:?}");
    };
    assert_eq!(status.as_u16(), 410);
    assert_eq!((*operation, *replacement), ("getPet", Some("listPets")));
    assert_eq!(headers["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
    assert_eq!(headers["deprecation"], "@1795305600");
    assert_eq!(headers["link"], "</v1/pets>; rel=\"successor-version\"");
    assert!(headers.contains_key("x-ratelimit-remaining"), "{headers:?}");
    let body: petstore_client::types::Error = serde_json::from_slice(body).unwrap();
    assert_eq!((body.code.as_str(), body.status), ("gone", 410));
    assert!(
        body.message.contains("2030-12-05") && body.message.contains("listPets"),
        "{}",
        body.message
    );
    assert_eq!(
        err.to_string(),
        format!(
            "operation getPet is gone (410, past its sunset); use listPets instead (request id {})",
            err.request_id().unwrap()
        )
    );

    // Gone before anything else is looked at: no credential needed to learn it.
    let raw = common::raw_http()
        .get(format!("http://{addr}/v1/pets/1"))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 410);

    // Operations without a sunset are unaffected.
    let pets = client.list_pets().await.unwrap();
    assert_eq!(pets.status().as_u16(), 200);
}

#[tokio::test]
async fn the_sunset_can_be_switched_off() {
    let clock = TestClock::at(SUNSET + 86_400 * 365);
    let config = ServerConfig::new()
        .clock(clock.clock())
        .enforce_sunset(false);
    let client = client(serve_with(config).await);
    #[allow(deprecated)]
    let pet = client
        .get_pet(3)
        .await
        .expect("still served when not enforced");
    assert_eq!(pet.id, 3);
    assert_eq!(pet.headers()["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
}
