//! The client guide: building a client, calling, and reading what came back.

// ANCHOR: call
use petstore_client::client::{ListPetsError, ListPetsOptions};
use petstore_client::{Client, Error, Server};

pub async fn list() -> Result<(), Box<dyn std::error::Error>> {
    // Or "staging".parse::<Server>()?, or Client::builder("http://127.0.0.1:8080/v1").
    let client = Client::for_server(Server::Production)
        .bearer_auth(std::env::var("PETSTORE_API_KEY")?)
        .build()?;

    let options = ListPetsOptions::default().with_limit(10);
    let pets = client.list_pets_with(options).await?;
    let left = pets.rate_limit().remaining;
    println!("{} pets, {left:?} requests left", pets.len());

    match client.list_pets().await {
        // `pets` is a ResponseValue<Vec<Pet>>, with .status() and .headers().
        Ok(pets) => println!("{} pets", pets.len()),
        Err(Error::Api {
            body: ListPetsError::Unauthorized(e),
            ..
        }) => eprintln!("{}", e.message),
        Err(Error::Api {
            body: ListPetsError::TooManyRequests(_),
            ..
        }) => eprintln!("retries exhausted"),
        // An undocumented status, a decode failure, the transport.
        Err(other) => eprintln!("{other}"),
    }
    Ok(())
}
// ANCHOR_END: call

// ANCHOR: options
use petstore_client::RequestOptions;
use petstore_client::types::NewPet;
use std::time::Duration;

pub async fn create(client: &Client, pet: &NewPet) -> Result<(), Error<impl std::fmt::Debug>> {
    // One call's own options: extra headers and query pairs, a timeout, a retry policy, an
    // idempotency key, hooks of your own (`runtime::options::Hook`). `with_options` is cheap:
    // the returned client shares this one's connections, credentials and rate-limit state.
    let options = RequestOptions::new()
        .header("x-trace", "on")
        .timeout(Duration::from_secs(2));
    let created = client.with_options(options).create_pet(pet).await?;
    // A 200 where the document says 201 is still the success type...
    let _ = created.status();
    // ...and says so (false); a warning is logged once per operation.
    let _ = created.status_documented();
    // The bytes as received, beside the typed value.
    let _ = created.raw_body();
    Ok(())
}

pub async fn read_errors(client: &Client) {
    match client.list_pets().await {
        Err(error @ (Error::Api { .. } | Error::UnexpectedStatus { .. })) => {
            let _ = error.status(); // the status of the answer
            let _ = error.raw_body(); // the body as received: members the type does not name too
            let _ = error.request_id(); // `x-request-id`, `request-id`, `x-amzn-requestid`, …
            let _ = error.server_message(); // `message`, `detail`, RFC 9457's `title: detail`, …
            // "error response 422 Unprocessable Entity: <the server's message> (request id …)"
            eprintln!("{error}");
        }
        // "/0/name: invalid type …"
        Err(Error::Decode { path, message, .. }) => eprintln!("{path}: {message}"),
        _ => {}
    }
}
// ANCHOR_END: options
