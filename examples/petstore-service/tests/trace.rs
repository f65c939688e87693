//! One trace from the generated client to the generated server: the client's `call` span and
//! the server's `request` span of the same call share a trace id, the server's parent is the
//! client's span, and each side's fields are OpenTelemetry's (read through a `tracing`
//! subscriber installed for this binary, never from log text).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use petstore_client::{Client, RetryPolicy};
use petstore_service::{PetStore, Plan, app, spawn};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

type Fields = BTreeMap<String, String>;

/// Every closed span, by name, with its fields.
#[derive(Default, Clone)]
struct Spans {
    open: Arc<Mutex<BTreeMap<u64, (String, Fields)>>>,
    closed: Arc<Mutex<Vec<(String, Fields)>>>,
}

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut fields = Fields::new();
        attrs.record(&mut Collect(&mut fields));
        let name = attrs.metadata().name().to_owned();
        self.open
            .lock()
            .unwrap()
            .insert(id.into_u64(), (name, fields));
    }
    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        if let Some((_, fields)) = self.open.lock().unwrap().get_mut(&id.into_u64()) {
            values.record(&mut Collect(fields));
        }
    }
    fn on_close(&self, id: Id, _: Context<'_, S>) {
        if let Some(span) = self.open.lock().unwrap().remove(&id.into_u64()) {
            self.closed.lock().unwrap().push(span);
        }
    }
}

impl Spans {
    fn named(&self, name: &str) -> Vec<Fields> {
        self.closed
            .lock()
            .unwrap()
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .collect()
    }
}

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
