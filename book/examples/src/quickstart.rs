//! The getting-started example: one operation implemented, served, and called.

use std::sync::Arc;

// ANCHOR: service
use petstore_server::api::{ListPetsParams, ListPetsResponse};
use petstore_server::{
    PetStoreApi, RequestContext, ServerConfig, StaticKeys, router, serve, types,
};

struct Shop;

impl PetStoreApi for Shop {
    type Error = std::convert::Infallible;

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, Self::Error> {
        let pets = vec![types::Pet::new("Rex", 1, 1)];
        Ok(ListPetsResponse::Ok(
            pets.into_iter().take(params.limit as usize).collect(),
        ))
    }
    // Every other operation answers 501 (with the document's error body) until implemented.
}

pub async fn run_service(addr: &str) -> std::io::Result<()> {
    let keys = StaticKeys::new().with_key("my-key", "me", None);
    let config = ServerConfig::new().authenticator(keys);
    let app = router(Arc::new(Shop), config.clone());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("serving http://{addr}/v1");
    serve(listener, app, &config, std::future::pending()).await
}
// ANCHOR_END: service

// ANCHOR: call
pub async fn call(addr: &str) -> Result<(), Box<dyn std::error::Error>> {
    let client = petstore_client::Client::builder(format!("http://{addr}/v1"))
        .bearer_auth("my-key")
        .build()?;
    let pets = client.list_pets().await?;
    for pet in pets.iter() {
        println!("{} (id {})", pet.name, pet.id);
    }
    println!(
        "{:?} requests left this minute",
        pets.rate_limit().remaining
    );
    Ok(())
}
// ANCHOR_END: call
