//! The server guide: the trait implemented, with the configuration a service sets.

// ANCHOR: implement
use petstore_server::api::{ListPetsParams, ListPetsResponse};
use petstore_server::{
    Limits, PetStoreApi, RequestContext, ServerConfig, StaticKeys, router, serve,
};

pub struct MyStore {/* your storage */}

impl PetStoreApi for MyStore {
    // Anything `Display`: `handle_error` turns it into a 500 with the document's error body.
    type Error = String;

    async fn list_pets(
        &self,
        ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, Self::Error> {
        // `params.limit` is already parsed, defaulted (20) and checked (1..=100).
        // `ctx.principal()` is the authenticated caller.
        let _caller = ctx.principal();
        let _limit = params.limit;
        Ok(ListPetsResponse::Ok(vec![]))
    }
    // One method per operation; one you leave out answers 501.
}
// ANCHOR_END: implement

// ANCHOR: serve
pub async fn run() -> std::io::Result<()> {
    let keys = StaticKeys::new().with_key("secret-key", "alice", Some("pro"));
    let config = ServerConfig::new()
        .authenticator(keys) // or your own Authenticator
        .rate_limit_in_memory(petstore_server::rate_limit_policy()) // plans from x-rate-limit
        .limits(Limits::new()); // the defaults: see "Production"
    let app = router(std::sync::Arc::new(MyStore {}), config.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve(listener, app, &config, stop).await
}
// ANCHOR_END: serve

// ANCHOR: cors
pub fn with_cors() -> Result<ServerConfig, petstore_server::CorsError> {
    use petstore_server::Cors;

    // Or Cors::any_origin(); the builder also has allow_credentials and max_age.
    let cors = Cors::builder()
        .allow_origin("https://app.example")
        .build()?;
    Ok(ServerConfig::new().cors(cors))
}
// ANCHOR_END: cors
