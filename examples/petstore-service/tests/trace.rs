//! One trace from the generated client to the generated server: the client's `call` span and
//! the server's `request` span of the same call share a trace id, the server's parent is the
//! client's span, and each side's fields are OpenTelemetry's (read through a `tracing`
//! subscriber installed for this binary, never from log text).

use std::sync::Arc;

use petstore_client::{Client, RetryPolicy};
use petstore_service::{PetStore, Plan, app, spawn};
use tracing_subscriber::layer::SubscriberExt;

// The reference service's tests read spans with the runtime's test subscriber.
#[path = "../../../runtime/server/tests/common/spans.rs"]
mod spans;

use spans::Spans;

#[tokio::test]
async fn a_call_and_its_request_share_one_trace() {
    let spans = Spans::default();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(spans.clone()))
        .unwrap();
    let running = spawn(app(Arc::new(PetStore::new()), [("pro-key", Plan::Pro)]))
        .await
        .unwrap();
    let client = Client::builder(running.base_url())
        .bearer_auth("pro-key")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();

    #[allow(deprecated)]
    let missing = client.get_pet(404).await;
    assert!(missing.is_err());

    let calls = spans.named("call");
    assert_eq!(calls.len(), 1, "{calls:?}");
    let call = &calls[0];
    for (field, value) in [
        ("otel.name", "getPet"),
        ("otel.kind", "client"),
        ("apigen.operation.id", "getPet"),
        ("http.request.method", "GET"),
        ("server.address", "127.0.0.1"),
        ("url.template", "/pets/{petId}"),
        ("http.response.status_code", "404"),
        ("error.type", "404"),
    ] {
        assert_eq!(
            call.get(field).map(String::as_str),
            Some(value),
            "{field} in {call:?}"
        );
    }
    assert!(!call.contains_key("http.request.resend_count"), "{call:?}");

    // The server's span waits for the answer to be sent; it closes soon after.
    let mut requests = spans.named("request");
    for _ in 0..100 {
        if !requests.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        requests = spans.named("request");
    }
    assert_eq!(requests.len(), 1, "{requests:?}");
    let request = &requests[0];
    assert_eq!(
        request["trace_id"], call["trace_id"],
        "{request:?} {call:?}"
    );
    assert_eq!(request["parent_span_id"], call["span_id"]);
    assert_eq!(request["otel.name"], "getPet");
    assert_eq!(request["http.route"], "/v1/pets/{petId}");
    assert_eq!(request["http.response.status_code"], "404");
    assert_eq!(request["apigen.plan"], "pro");
}
