//! The generated READMEs' snippets, compiled (tests/build.rs writes them as functions) and the
//! client calls run against the fixtures' mocks over loopback: each call, as the README writes
//! it, is a request the real server stack in front of the mock accepts.

mod common;

use std::sync::Arc;

use petstore_server::{ServerConfig, StaticKeys};

include!(concat!(env!("OUT_DIR"), "/snippets.rs"));

const KEY: &str = "snippet-key";

fn keys() -> StaticKeys {
    StaticKeys::new().with_key(KEY, "snippets", Some("pro"))
}

/// Every outcome is a success; the failures are listed by operation.
fn assert_all_ok(fixture: &str, outcomes: Vec<(&'static str, Result<(), String>)>) {
    assert!(!outcomes.is_empty(), "{fixture}: the README shows no call");
    let failed: Vec<String> = outcomes
        .into_iter()
        .filter_map(|(id, outcome)| outcome.err().map(|e| format!("{id}: {e}")))
        .collect();
    assert!(failed.is_empty(), "{fixture}: {failed:#?}");
}

#[tokio::test]
async fn the_pet_store_readme_calls_succeed_against_its_mock() {
    let server = petstore_server::test_server(
        Arc::new(petstore_server::mock::Mock),
        ServerConfig::new()
            .authenticator(keys())
            .rate_limit_in_memory(petstore_server::rate_limit_policy()),
    )
    .await
    .unwrap();
    let client = petstore_client::Client::builder(server.base_url())
        .bearer_auth(KEY)
        .build()
        .unwrap();
    assert_all_ok("petstore", petstore_client_calls::all(&client).await);
}

#[tokio::test]
async fn the_fixtures_readme_calls_succeed_against_their_mocks() {
    let routing = routing_server::test_server(
        Arc::new(routing_server::mock::Mock),
        ServerConfig::new().authenticator(keys()),
    )
    .await
    .unwrap();
    let client = routing_client::Client::builder(routing.base_url())
        .bearer_auth(KEY)
        .build()
        .unwrap();
    assert_all_ok("routing", routing_client_calls::all(&client).await);

    let oas32 = oas32_server::test_server(
        Arc::new(oas32_server::mock::Mock),
        ServerConfig::new()
            .authenticator(keys())
            .rate_limit_in_memory(oas32_server::rate_limit_policy()),
    )
    .await
    .unwrap();
    let client = oas32_client::Client::builder(oas32.base_url())
        .bearer_auth(KEY)
        .build()
        .unwrap();
    assert_all_ok("oas32", oas32_client_calls::all(&client).await);

    let formats = common::spawn(formats_server::router(
        Arc::new(formats_server::mock::Mock),
        ServerConfig::new(),
    ))
    .await;
    let client = formats_client::Client::builder(format!("http://{formats}"))
        .build()
        .unwrap();
    assert_all_ok("formats", formats_client_calls::all(&client).await);
}

/// The server snippets compile as one implementation per fixture (`Service` in each
/// `…_methods` module); here, one of them serves.
#[tokio::test]
async fn the_readme_methods_make_an_implementation_that_serves() {
    let server = petstore_server::test_server(
        Arc::new(petstore_server_methods::Service),
        ServerConfig::new().authenticator(keys()),
    )
    .await;
    assert!(server.is_ok());
}
