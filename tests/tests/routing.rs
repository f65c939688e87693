//! Path keys axum cannot route as they are, end to end over loopback with the generated crates
//! of `tests/fixtures/routing.yaml`: every request reaches the operation its key describes with
//! the parameters the key names, through the generated client and as raw HTTP (404 for a path
//! no key describes, 405 with `Allow` for a method no matching key declares), and the root path
//! answers under the base path with and without a slash.

mod common;
#[path = "../../runtime/server/tests/common/spans.rs"]
mod spans;

use std::collections::BTreeMap;
use std::sync::Arc;

use routing_server::api::*;
use routing_server::{RequestContext, RoutingApi, ServerConfig, StaticKeys, router, types};

const KEY: &str = "routing-key";

/// Answers every operation with its id and the parameters it read.
struct Echoes;

fn echo(operation: &str, params: &[(&str, String)]) -> types::Echo {
    let params: BTreeMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    types::Echo::new(operation).with_params(params)
}

impl RoutingApi for Echoes {
    type Error = String;

    async fn get_root(
        &self,
        _: &RequestContext,
        _: GetRootParams,
    ) -> Result<GetRootResponse, String> {
        Ok(GetRootResponse::Ok(echo("getRoot", &[])))
    }

    async fn list_accounts(
        &self,
        _: &RequestContext,
        _: ListAccountsParams,
    ) -> Result<ListAccountsResponse, String> {
        Ok(ListAccountsResponse::Ok(echo("listAccounts", &[])))
    }

    async fn get_account(
        &self,
        _: &RequestContext,
        p: GetAccountParams,
    ) -> Result<GetAccountResponse, String> {
        Ok(GetAccountResponse::Ok(echo(
            "getAccount",
            &[("Sid", p.sid)],
        )))
    }

    async fn get_call(
        &self,
        _: &RequestContext,
        p: GetCallParams,
    ) -> Result<GetCallResponse, String> {
        Ok(GetCallResponse::Ok(echo(
            "getCall",
            &[("AccountSid", p.account_sid), ("Sid", p.sid)],
        )))
    }

    async fn get_file_as(
        &self,
        _: &RequestContext,
        p: GetFileAsParams,
    ) -> Result<GetFileAsResponse, String> {
        Ok(GetFileAsResponse::Ok(echo(
            "getFileAs",
            &[("name", p.name), ("format", p.format.to_string())],
        )))
    }

    async fn get_file(
        &self,
        _: &RequestContext,
        p: GetFileParams,
    ) -> Result<GetFileResponse, String> {
        Ok(GetFileResponse::Ok(echo(
            "getFile",
            &[("id", p.id.to_string())],
        )))
    }

    async fn put_file(
        &self,
        _: &RequestContext,
        p: PutFileParams,
    ) -> Result<PutFileResponse, String> {
        Ok(PutFileResponse::Ok(echo(
            "putFile",
            &[("id", p.id.to_string())],
        )))
    }

    async fn list_templates(
        &self,
        _: &RequestContext,
        p: ListTemplatesParams,
    ) -> Result<ListTemplatesResponse, String> {
        Ok(ListTemplatesResponse::Ok(echo(
            "listTemplates",
            &[("project_id", p.project_id.to_string())],
        )))
    }

    async fn delete_template(
        &self,
        _: &RequestContext,
        p: DeleteTemplateParams,
    ) -> Result<DeleteTemplateResponse, String> {
        Ok(DeleteTemplateResponse::Ok(echo(
            "deleteTemplate",
            &[("template_name", p.template_name)],
        )))
    }

    async fn get_template_version(
        &self,
        _: &RequestContext,
        p: GetTemplateVersionParams,
    ) -> Result<GetTemplateVersionResponse, String> {
        Ok(GetTemplateVersionResponse::Ok(echo(
            "getTemplateVersion",
            &[
                ("template_name", p.template_name),
                ("version", p.version.to_string()),
            ],
        )))
    }

    async fn list_template_versions(
        &self,
        _: &RequestContext,
        p: ListTemplateVersionsParams,
    ) -> Result<ListTemplateVersionsResponse, String> {
        Ok(ListTemplateVersionsResponse::Ok(echo(
            "listTemplateVersions",
            &[("project_id", p.project_id.to_string())],
        )))
    }

    async fn cancel_job(
        &self,
        _: &RequestContext,
        p: CancelJobParams,
    ) -> Result<CancelJobResponse, String> {
        Ok(CancelJobResponse::Ok(echo(
            "cancelJob",
            &[("name", p.name)],
        )))
    }

    async fn create_response(
        &self,
        _: &RequestContext,
        _: CreateResponseParams,
        body: types::Echo,
    ) -> Result<CreateResponseResponse, String> {
        Ok(CreateResponseResponse::Ok(echo(
            "createResponse",
            &[("body", body.operation)],
        )))
    }

    async fn beta_create_response(
        &self,
        _: &RequestContext,
        _: BetaCreateResponseParams,
        body: types::Echo,
    ) -> Result<BetaCreateResponseResponse, String> {
        Ok(BetaCreateResponseResponse::Ok(echo(
            "betaCreateResponse",
            &[("body", body.operation)],
        )))
    }

    async fn beta_get_response(
        &self,
        _: &RequestContext,
        p: BetaGetResponseParams,
    ) -> Result<BetaGetResponseResponse, String> {
        Ok(BetaGetResponseResponse::Ok(echo(
            "betaGetResponse",
            &[
                ("response_id", p.response_id),
                ("include", p.include.unwrap_or_default()),
            ],
        )))
    }

    async fn beta_delete_response(
        &self,
        _: &RequestContext,
        p: BetaDeleteResponseParams,
    ) -> Result<BetaDeleteResponseResponse, String> {
        Ok(BetaDeleteResponseResponse::Ok(echo(
            "betaDeleteResponse",
            &[("response_id", p.response_id)],
        )))
    }

    async fn get_response(
        &self,
        _: &RequestContext,
        p: GetResponseParams,
    ) -> Result<GetResponseResponse, String> {
        Ok(GetResponseResponse::Ok(echo(
            "getResponse",
            &[
                ("response_id", p.response_id),
                ("include", p.include.unwrap_or_default()),
            ],
        )))
    }

    async fn get_pair(
        &self,
        _: &RequestContext,
        p: GetPairParams,
    ) -> Result<GetPairResponse, String> {
        Ok(GetPairResponse::Ok(echo(
            "getPair",
            &[("a", p.a), ("b", p.b.to_string())],
        )))
    }

    async fn get_dated_account(
        &self,
        _: &RequestContext,
        p: GetDatedAccountParams,
    ) -> Result<GetDatedAccountResponse, String> {
        Ok(GetDatedAccountResponse::Ok(echo(
            "getDatedAccount",
            &[("AccountSid", p.account_sid)],
        )))
    }
}

/// The service on a free port; its origin (`http://127.0.0.1:PORT`).
async fn serve() -> String {
    let config = ServerConfig::new().authenticator(StaticKeys::new().with_key(KEY, "t", None));
    let addr = common::spawn(router(Arc::new(Echoes), config)).await;
    format!("http://{addr}")
}

struct Answer {
    status: u16,
    allow: Option<String>,
    json: serde_json::Value,
}

async fn send(method: &str, url: &str) -> Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = common::raw_http()
        .request(method.clone(), url)
        .bearer_auth(KEY);
    if method == reqwest::Method::POST {
        request = request
            .header("content-type", "application/json")
            .body(r#"{"operation":"raw"}"#);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let allow = response
        .headers()
        .get("allow")
        .map(|v| v.to_str().unwrap().to_string());
    let text = response.text().await.unwrap();
    Answer {
        status,
        allow,
        json: serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
    }
}

/// `(operation, params)` of a 200 answer.
async fn reached(method: &str, url: &str) -> (String, BTreeMap<String, String>) {
    let a = send(method, url).await;
    assert_eq!(a.status, 200, "{method} {url}: {}", a.json);
    let echo: types::Echo = serde_json::from_value(a.json).unwrap();
    (echo.operation, echo.params.unwrap_or_default())
}

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A request (method, path under the base path) and what should answer it (operation, the
/// parameters it read).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

#[tokio::test]
async fn every_key_reaches_its_operation_with_its_parameters() {
    let origin = serve().await;
    let api = format!("{origin}/api");
    let cases: &[Case] = &[
        ("GET", "/Accounts.json", "listAccounts", &[]),
        (
            "GET",
            "/Accounts/AC123.json",
            "getAccount",
            &[("Sid", "AC123")],
        ),
        // Percent-encoded text is compared decoded.
        (
            "GET",
            "/Accounts/AC1%2Ejson",
            "getAccount",
            &[("Sid", "AC1")],
        ),
        (
            "GET",
            "/Accounts/AC9/Calls/CA7.json",
            "getCall",
            &[("AccountSid", "AC9"), ("Sid", "CA7")],
        ),
        // The longest name that leaves a format.
        (
            "GET",
            "/files/a.tar.gz",
            "getFileAs",
            &[("name", "a.tar"), ("format", "gz")],
        ),
        ("GET", "/files/42", "getFile", &[("id", "42")]),
        ("PUT", "/files/42", "putFile", &[("id", "42")]),
        (
            "GET",
            "/templates/7",
            "listTemplates",
            &[("project_id", "7")],
        ),
        (
            "DELETE",
            "/templates/basic",
            "deleteTemplate",
            &[("template_name", "basic")],
        ),
        (
            "GET",
            "/templates/basic/versions/3",
            "getTemplateVersion",
            &[("template_name", "basic"), ("version", "3")],
        ),
        (
            "GET",
            "/templates/7/versions",
            "listTemplateVersions",
            &[("project_id", "7")],
        ),
        (
            "POST",
            "/jobs/nightly:cancel",
            "cancelJob",
            &[("name", "nightly")],
        ),
        (
            "POST",
            "/jobs/nightly%3Acancel",
            "cancelJob",
            &[("name", "nightly")],
        ),
        ("POST", "/responses", "createResponse", &[("body", "raw")]),
        (
            "POST",
            "/responses?beta=true",
            "betaCreateResponse",
            &[("body", "raw")],
        ),
        // The constant query is a pair of the query string, wherever it stands.
        (
            "POST",
            "/responses?x=1&beta=true",
            "betaCreateResponse",
            &[("body", "raw")],
        ),
        (
            "POST",
            "/responses?beta=false",
            "createResponse",
            &[("body", "raw")],
        ),
        (
            "GET",
            "/responses/r1?beta=true&include=usage",
            "betaGetResponse",
            &[("response_id", "r1"), ("include", "usage")],
        ),
        (
            "GET",
            "/responses/r1?include=usage",
            "getResponse",
            &[("response_id", "r1"), ("include", "usage")],
        ),
        (
            "DELETE",
            "/responses/r1?beta=true",
            "betaDeleteResponse",
            &[("response_id", "r1")],
        ),
        // A parameter used twice: both places carry its one value.
        ("GET", "/pairs/x/2/x", "getPair", &[("a", "x"), ("b", "2")]),
        (
            "GET",
            "/2010-04-01/Accounts/AC5.json",
            "getDatedAccount",
            &[("AccountSid", "AC5")],
        ),
    ];
    for (method, path, operation, expected) in cases {
        let (op, got) = reached(method, &format!("{api}{path}")).await;
        assert_eq!(op, *operation, "{method} {path}");
        assert_eq!(got, params(expected), "{method} {path}");
    }
}

#[tokio::test]
async fn paths_no_key_describes_are_404_and_methods_405_with_allow() {
    let origin = serve().await;
    let api = format!("{origin}/api");
    for path in [
        "/Accounts/AC1",        // no `.json`
        "/Accounts/.json",      // an empty parameter
        "/jobs/nightly",        // no `:cancel`
        "/jobs/nightly:resume", // other text
    ] {
        let a = send("GET", &format!("{api}{path}")).await;
        assert_eq!(a.status, 404, "{path}: {}", a.json);
        assert_eq!(a.json["code"], "not_found", "{path}");
    }
    // A key that matches but does not declare the method: 405 with the methods of every key
    // that matches the path.
    let a = send("DELETE", &format!("{api}/files/a.csv")).await;
    assert_eq!(a.status, 405, "{}", a.json);
    assert_eq!(a.json["code"], "method_not_allowed");
    assert_eq!(a.allow.as_deref(), Some("GET,HEAD,PUT"));
    let a = send("POST", &format!("{api}/Accounts/AC1.json")).await;
    assert_eq!((a.status, a.allow.as_deref()), (405, Some("GET,HEAD")));
    // Without the query, the key without it: it has no DELETE.
    let a = send("DELETE", &format!("{api}/responses/r1")).await;
    assert_eq!((a.status, a.allow.as_deref()), (405, Some("GET,HEAD")));
    // Keys of one shape under other names share axum's method router.
    let a = send("PUT", &format!("{api}/templates/7")).await;
    assert_eq!(a.status, 405);
    // A request for `PUT /files/a.csv` falls through the key that does not declare PUT to the
    // one that does (and its parameter is then checked as any other).
    let a = send("PUT", &format!("{api}/files/a.csv")).await;
    assert_eq!(a.status, 400, "{}", a.json);
    assert!(
        a.json["message"].as_str().unwrap().contains("path/id"),
        "{}",
        a.json
    );
    // A parameter used twice with two values is no path the key describes.
    let a = send("GET", &format!("{api}/pairs/x/2/y")).await;
    assert_eq!(a.status, 404, "{}", a.json);
    // Parameters read out of a segment are checked as the document says.
    let a = send("GET", &format!("{api}/Accounts/XY1.json")).await;
    assert_eq!(a.status, 400, "{}", a.json);
    let a = send("GET", &format!("{api}/files/a.txt")).await;
    assert_eq!(a.status, 400, "{}", a.json);
    // Authentication still comes first on a dispatched route.
    let r = common::raw_http()
        .get(format!("{api}/Accounts/AC1.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn the_root_answers_under_the_base_path_with_and_without_a_slash() {
    let origin = serve().await;
    for path in ["/api", "/api/"] {
        let (op, _) = reached("GET", &format!("{origin}{path}")).await;
        assert_eq!(op, "getRoot", "{path}");
    }
    assert_eq!(send("GET", &format!("{origin}/")).await.status, 404);
    assert_eq!(send("GET", &format!("{origin}/api//")).await.status, 404);
    // Served at the root, `/` is the root path.
    let config = ServerConfig::new()
        .authenticator(StaticKeys::new().with_key(KEY, "t", None))
        .base_path("/");
    let addr = common::spawn(router(Arc::new(Echoes), config)).await;
    let (op, _) = reached("GET", &format!("http://{addr}/")).await;
    assert_eq!(op, "getRoot");
}

#[tokio::test]
async fn the_generated_client_reaches_every_key() {
    let origin = serve().await;
    let client = routing_client::Client::builder(format!("{origin}/api"))
        .bearer_auth(KEY)
        .build()
        .unwrap();
    let op = |e: &routing_client::types::Echo| e.operation.clone();
    assert_eq!(op(&client.get_root().await.unwrap()), "getRoot");
    assert_eq!(op(&client.get_account("AC5").await.unwrap()), "getAccount");
    let call = client.get_call("AC5", "CA1").await.unwrap();
    assert_eq!(call.params.as_ref().unwrap()["Sid"], "CA1");
    let file = client
        .get_file_as("a.b", &routing_client::types::GetFileAsFormat::Csv)
        .await
        .unwrap();
    assert_eq!(
        file.params.clone().unwrap(),
        params(&[("name", "a.b"), ("format", "csv")])
    );
    assert_eq!(
        op(&client.delete_template("x").await.unwrap()),
        "deleteTemplate"
    );
    assert_eq!(
        op(&client.list_templates(3).await.unwrap()),
        "listTemplates"
    );
    assert_eq!(op(&client.cancel_job("j 1").await.unwrap()), "cancelJob");
    let body = routing_client::types::Echo::new("sent");
    assert_eq!(
        op(&client.create_response(&body).await.unwrap()),
        "createResponse"
    );
    assert_eq!(
        op(&client.beta_create_response(&body).await.unwrap()),
        "betaCreateResponse"
    );
    let beta = client
        .beta_get_response_with(
            "r9",
            routing_client::client::BetaGetResponseOptions::default()
                .with_include("usage".to_string()),
        )
        .await
        .unwrap();
    assert_eq!(
        (op(&beta), beta.params.clone().unwrap()),
        (
            "betaGetResponse".to_string(),
            params(&[("response_id", "r9"), ("include", "usage")])
        )
    );
    assert_eq!(op(&client.get_response("r9").await.unwrap()), "getResponse");
    assert_eq!(
        op(&client.beta_delete_response("r9").await.unwrap()),
        "betaDeleteResponse"
    );
    let pair = client.get_pair("a b", 3).await.unwrap();
    assert_eq!(
        (op(&pair), pair.params.clone().unwrap_or_default()),
        ("getPair".to_string(), params(&[("a", "a b"), ("b", "3")]))
    );
    assert_eq!(
        op(&client.get_dated_account("AC5").await.unwrap()),
        "getDatedAccount"
    );
}

/// The route's labels of each duration recorded, as a recorder receives them (`name{k=v,..}`).
#[derive(Clone, Default)]
struct Durations(Arc<std::sync::Mutex<Vec<String>>>);

impl metrics::Recorder for Durations {
    fn describe_counter(
        &self,
        _: metrics::KeyName,
        _: Option<metrics::Unit>,
        _: metrics::SharedString,
    ) {
    }
    fn describe_gauge(
        &self,
        _: metrics::KeyName,
        _: Option<metrics::Unit>,
        _: metrics::SharedString,
    ) {
    }
    fn describe_histogram(
        &self,
        _: metrics::KeyName,
        _: Option<metrics::Unit>,
        _: metrics::SharedString,
    ) {
    }
    fn register_counter(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Counter {
        metrics::Counter::noop()
    }
    fn register_gauge(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Gauge {
        metrics::Gauge::noop()
    }
    fn register_histogram(
        &self,
        key: &metrics::Key,
        _: &metrics::Metadata<'_>,
    ) -> metrics::Histogram {
        let mut labels: Vec<String> = key
            .labels()
            .map(|l| format!("{}={}", l.key(), l.value()))
            .collect();
        labels.sort();
        self.0
            .lock()
            .unwrap()
            .push(format!("{}{{{}}}", key.name(), labels.join(",")));
        metrics::Histogram::noop()
    }
}

/// A route several path keys share is served by its dispatch function, whose `Operation`
/// names no operation: the operation it chooses names itself on the request's span
/// (`otel.name`, `apigen.operation.id`) and in its duration's labels, as a route of its own
/// does.
#[tokio::test]
async fn a_dispatched_operation_names_itself_on_the_span_and_metrics() {
    use tracing_subscriber::layer::SubscriberExt;
    let spans = spans::Spans::default();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(spans.clone()))
        .unwrap();
    let durations = Durations::default();
    metrics::set_global_recorder(durations.clone()).unwrap();
    let origin = serve().await;
    // `/files/{name}.{format}` and `/files/{id}` share the route `/files/{name_format}`.
    let cases = [
        ("GET", "/api/files/report.csv", "getFileAs", "dispatch-1"),
        ("GET", "/api/files/7", "getFile", "dispatch-2"),
        ("PUT", "/api/files/7", "putFile", "dispatch-3"),
    ];
    for (method, path, operation, id) in cases {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = common::raw_http()
            .request(method.clone(), format!("{origin}{path}"))
            .bearer_auth(KEY)
            .header("x-request-id", id);
        if method == reqwest::Method::PUT {
            request = request
                .header("content-type", "application/json")
                .body(r#"{"operation":"raw"}"#);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200, "{method} {path}");
        let span = spans.request(id);
        assert_eq!(
            span.get("otel.name").map(String::as_str),
            Some(operation),
            "{span:?}"
        );
        assert_eq!(
            span.get("apigen.operation.id").map(String::as_str),
            Some(operation),
            "{span:?}"
        );
        assert_eq!(span["http.route"], "/api/files/{name_format}", "{span:?}");
        let key = format!(
            "http.server.request.duration{{apigen.operation.id={operation},http.request.method={method},http.response.status_code=200,http.route=/api/files/{{name_format}}}}"
        );
        assert!(
            durations.0.lock().unwrap().contains(&key),
            "{key} not in {:?}",
            durations.0.lock().unwrap()
        );
    }
    // A path none of the route's keys describes names no operation.
    let response = common::raw_http()
        .get(format!("{origin}/api/jobs/7"))
        .bearer_auth(KEY)
        .header("x-request-id", "dispatch-4")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let span = spans.request("dispatch-4");
    assert!(!span.contains_key("apigen.operation.id"), "{span:?}");
}
