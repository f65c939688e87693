//! The generated client's wasm build in a real browser (headless Chromium through
//! wasm-bindgen-test-runner), calling `browser-harness` on another origin: every answer is
//! read through CORS, so the rate-limit state, `Retry-After` and the deprecation headers are
//! only visible when the server exposes them. Run by `scripts/browser-test.sh`.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use petstore_browser_tests as harness;
use petstore_client::client::{CreatePetError, GetPetError, ListPetsError, ListPetsOptions};
use petstore_client::types::{NewPet, PetStatus};
use petstore_client::{Client, Error, RetryPolicy};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_time::Instant;

wasm_bindgen_test_configure!(run_in_browser);

/// The harness's base URL, fixed when the tests were compiled.
const API: &str = match option_env!("PETSTORE_BROWSER_API") {
    Some(url) => url,
    None => harness::DEFAULT_API,
};

fn client(key: &str) -> Client {
    Client::builder(API).bearer_auth(key).build().unwrap()
}

fn client_without_retries(key: &str) -> Client {
    Client::builder(API)
        .bearer_auth(key)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

fn new_pet(name: &str, status: PetStatus) -> NewPet {
    NewPet {
        name: name.to_owned(),
        category_id: 1,
        status: Some(status),
    }
}

#[wasm_bindgen_test]
async fn add_list_with_a_status_filter_and_read_the_rate_limit_state() {
    let c = client(harness::GOOD_KEY);
    let added = c
        .create_pet(&new_pet("Browser Rex", PetStatus::Pending))
        .await
        .unwrap();
    assert_eq!(added.status().as_u16(), 201);
    assert_eq!(added.name, "Browser Rex");
    let id = added.id;
    c.create_pet(&new_pet("Browser Tom", PetStatus::Sold))
        .await
        .unwrap();

    let pending = c
        .list_pets_with(ListPetsOptions {
            status: Some(PetStatus::Pending),
            limit: Some(100),
        })
        .await
        .unwrap();
    assert!(pending.iter().any(|p| p.id == id), "{:?}", *pending);
    assert!(
        pending.iter().all(|p| p.status == Some(PetStatus::Pending)),
        "{:?}",
        *pending
    );
    // X-RateLimit-* are readable only because the server exposes them
    let state = pending.rate_limit();
    assert_eq!(state.limit, Some(100_000), "{state:?}");
    let remaining = state.remaining.expect("X-RateLimit-Remaining exposed");
    assert!(remaining < 100_000, "{state:?}");
    assert!(state.reset.is_some(), "{state:?}");
    assert_eq!(c.last_rate_limit().remaining, Some(remaining));
}

#[wasm_bindgen_test]
async fn get_sees_the_deprecation_headers() {
    let c = client(harness::GOOD_KEY);
    let added = c
        .create_pet(&new_pet("Browser Kit", PetStatus::Available))
        .await
        .unwrap();
    #[allow(deprecated)]
    let got = c.get_pet(added.id).await.unwrap();
    assert_eq!(got.name, "Browser Kit");
    assert!(
        got.is_deprecated(),
        "Deprecation exposed: {:?}",
        got.headers()
    );
    assert!(got.deprecation().is_some());
    assert!(got.sunset().is_some(), "Sunset exposed");
    assert!(got.headers().contains_key("link"), "Link exposed");

    #[allow(deprecated)]
    let missing = c.get_pet(999_999_999).await;
    match missing {
        Err(Error::Api {
            body: GetPetError::NotFound(e),
            ..
        }) => assert_eq!(e.code, "not_found"),
        other => panic!("expected the typed 404: {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_wrong_key_is_a_typed_401_with_the_servers_message() {
    let c = client("not-a-key");
    match c.list_pets().await {
        Err(Error::Api {
            status,
            headers,
            body: ListPetsError::Unauthorized(e),
            ..
        }) => {
            assert_eq!(status.as_u16(), 401);
            assert_eq!(e.code, "unauthorized");
            assert!(!e.message.is_empty());
            assert!(headers.contains_key("www-authenticate"), "{headers:?}");
        }
        other => panic!("expected the typed 401: {other:?}"),
    }
    match c.create_pet(&new_pet("Nope", PetStatus::Sold)).await {
        Err(Error::Api {
            body: CreatePetError::Unauthorized(_),
            ..
        }) => {}
        other => panic!("expected the typed 401: {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_429_is_waited_out_with_browser_timers() {
    let none = client_without_retries(harness::BURST_KEY);
    for round in 0..5 {
        // Use up the burst window, then read the refusal. The windows are fixed (the
        // harness's clock, `BURST_WINDOW_SECS` long): a burst that crosses into the next one
        // starts counting again, so it goes on for up to two windows' worth.
        let mut refusal = None;
        for _ in 0..=2 * harness::BURST_LIMIT {
            match none.list_pets().await {
                Ok(_) => {}
                Err(e) => {
                    refusal = Some(e);
                    break;
                }
            }
        }
        let Some(refusal) = refusal else {
            // Two windows crossed (a slow machine): try again in a fresh one.
            assert!(round < 4, "the burst window never refused");
            continue;
        };
        match &refusal {
            Error::Api {
                body: ListPetsError::TooManyRequests(e),
                ..
            } => assert_eq!(e.code, "rate_limited"),
            other => panic!("expected the typed 429: {other:?}"),
        }
        assert_eq!(refusal.rate_limit().remaining, Some(0));
        let retry_after = refusal.retry_after().expect("Retry-After exposed");
        assert!(retry_after <= Duration::from_secs(harness::BURST_WINDOW_SECS));
        if retry_after < Duration::from_secs(2) {
            // Too close to the window's end to be sure the next call is refused first:
            // wait for the next window and try again.
            gloo_timers::future::sleep(retry_after).await;
            assert!(round < 4, "never refused early enough in a window");
            continue;
        }
        // A fresh client with the default policy: refused (the window has at least a second
        // left), waits `Retry-After` on a browser timer, then succeeds.
        let started = Instant::now();
        let pets = client(harness::BURST_KEY)
            .list_pets()
            .await
            .expect("the retry after the wait succeeds");
        assert_eq!(pets.status().as_u16(), 200);
        assert!(
            started.elapsed() >= Duration::from_millis(900),
            "answered after {:?}: the 429 was not waited out",
            started.elapsed()
        );
        return;
    }
}

#[wasm_bindgen_test]
async fn a_ban_is_answered_at_once() {
    let none = client_without_retries(harness::BAN_KEY);
    let mut banned = false;
    for _ in 0..(harness::BAN_STRIKES + 6) {
        if let Err(Error::Api {
            body: ListPetsError::TooManyRequests(e),
            ..
        }) = none.list_pets().await
            && e.code == "banned"
        {
            banned = true;
            break;
        }
    }
    assert!(banned, "the ban key was never banned");

    // The default policy would wait a Retry-After within its 30 s budget; a ban's is far
    // longer, so the call returns the 429 at once.
    let started = Instant::now();
    let result = client(harness::BAN_KEY).list_pets().await;
    let elapsed = started.elapsed();
    match &result {
        Err(Error::Api {
            body: ListPetsError::TooManyRequests(e),
            ..
        }) => assert_eq!(e.code, "banned"),
        other => panic!("expected the typed 429: {other:?}"),
    }
    let err = result.unwrap_err();
    let retry_after = err.retry_after().expect("Retry-After exposed");
    assert!(retry_after > Duration::from_secs(60), "{retry_after:?}");
    assert!(
        elapsed < Duration::from_secs(10),
        "a ban must not be waited on: {elapsed:?}"
    );
}
