//! Spec evolution over real HTTP on 127.0.0.1: an implementation written before an operation
//! existed still compiles (every trait method has a default) and answers it with 501 and the
//! document's `Error` body, with the headers every answer of the operation carries.

mod common;

use petstore_client::{Client, Error, RetryPolicy};
use petstore_server::{PetStoreApi, ServerConfig, StaticKeys};
use std::net::SocketAddr;

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

/// The body of an undocumented answer, read as the document's `Error`.
fn error_body<E: std::fmt::Debug>(err: &Error<E>) -> petstore_client::types::Error {
    let body = err
        .body_bytes()
        .unwrap_or_else(|| panic!("expected an undocumented status, got {err:?}"));
    serde_json::from_slice(body).unwrap()
}

#[tokio::test]
async fn an_unimplemented_operation_answers_501_with_the_error_body() {
    let addr = serve().await;
    let client = client(addr);

    let err = client
        .list_pets(Default::default())
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
