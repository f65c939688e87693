//! The generated client against the reference service over loopback: every operation, the
//! way a frontend team would call it, plus the rate-limit state and typed errors it reports.

use petstore_client::client::{GetPetError, ListPetsOptions};
use petstore_client::types::{NewPet, PetStatus};
use petstore_client::{Client, Error, RetryPolicy};
use petstore_service::{PetStore, Plan, app, spawn};
use std::sync::Arc;

#[tokio::test]
async fn every_operation_through_the_generated_client() {
    let running = spawn(app(Arc::new(PetStore::new()), [("pro-key", Plan::Pro)]))
        .await
        .unwrap();
    let client = Client::builder(running.base_url())
        .bearer_auth("pro-key")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();

    for (name, status) in [
        ("Rex", PetStatus::Available),
        ("Tom", PetStatus::Sold),
        ("Kit", PetStatus::Available),
    ] {
        let created = client
            .create_pet(&NewPet::new(name, 1).with_status(status))
            .await
            .unwrap();
        assert_eq!(created.status().as_u16(), 201);
    }

    let available = client
        .list_pets_with(
            ListPetsOptions::default()
                .with_status(PetStatus::Available)
                .with_limit(10),
        )
        .await
        .unwrap();
    let names: Vec<&str> = available.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Rex", "Kit"]);
    let limit = available.rate_limit();
    assert_eq!(limit.limit, Some(300), "the Pro plan's minute quota");
    assert!(limit.remaining.is_some_and(|r| r < 300), "{limit:?}");
    assert!(limit.reset.is_some(), "{limit:?}");

    #[allow(deprecated)]
    let tom = client.get_pet(2).await.unwrap();
    assert_eq!(tom.name, "Tom");
    assert!(tom.is_deprecated());
    assert!(tom.sunset().is_some());

    #[allow(deprecated)]
    match client.get_pet(999).await.unwrap_err() {
        Error::Api {
            body: GetPetError::NotFound(e),
            ..
        } => assert_eq!(e.code, "not_found"),
        other => panic!("expected a typed 404, got {other:?}"),
    }

    let orders = client.list_orders().await.unwrap();
    assert!(orders.is_empty());
    assert_eq!(client.last_rate_limit().limit, Some(300));
}

/// The library serves the document only when asked (`ServerConfig::serve_document`): a
/// service that did not ask answers its paths like any unknown path.
#[tokio::test]
async fn the_document_is_not_served_unless_asked() {
    let running = spawn(app(Arc::new(PetStore::new()), [("pro-key", Plan::Pro)]))
        .await
        .unwrap();
    let root = running.base_url().trim_end_matches("/v1").to_owned();
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    for path in ["/openapi.json", "/openapi.yaml", "/openapi.html"] {
        let resp = http.get(format!("{root}{path}")).send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 404, "{path}");
    }
}
