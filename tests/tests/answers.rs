//! tests/fixtures/answers.yaml over loopback HTTP: what real servers send, read by the
//! generated client from the generated server. `null` answers in each spelling of a nullable
//! answer, `null` as the only value, a `204` whose document declares a body, a binary answer,
//! and the `Accept` each operation sends.

mod common;

use answers_client::{Client, RetryPolicy};
use answers_server::api::*;
use answers_server::runtime::auth::{Credential, SecurityScheme};
use answers_server::{AnswersApi, Authenticator, Principal, RequestContext, ServerConfig, types};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};

/// Basic `ann:pw`.
struct Keys;

impl Authenticator for Keys {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        let ok = matches!(
            credential,
            Credential::Basic {
                user: "ann",
                password: "pw"
            }
        );
        let principal = ok.then(|| Principal {
            subject: "ann".into(),
            plan: None,
            scheme: scheme.name,
        });
        Box::pin(std::future::ready(principal))
    }
}

/// Answers `null` (`None`) while `empty` is set, a value otherwise; reports the `Accept` it
/// was sent.
struct Service {
    empty: AtomicBool,
}

impl Service {
    fn empty(&self) -> bool {
        self.empty.load(Ordering::SeqCst)
    }
}

fn accept(ctx: &RequestContext) -> String {
    ctx.headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

impl AnswersApi for Service {
    type Error = String;

    async fn get_current_owner(
        &self,
        _ctx: &RequestContext,
        _params: GetCurrentOwnerParams,
    ) -> Result<GetCurrentOwnerResponse, String> {
        Ok(GetCurrentOwnerResponse::Ok(
            (!self.empty()).then(|| types::Owner::new("Ann")),
        ))
    }

    async fn list_owners(
        &self,
        _ctx: &RequestContext,
        _params: ListOwnersParams,
    ) -> Result<ListOwnersResponse, String> {
        Ok(ListOwnersResponse::Ok(
            (!self.empty()).then(|| vec![types::Owner::new("Ann")]),
        ))
    }

    async fn delete_owner(
        &self,
        _ctx: &RequestContext,
        _params: DeleteOwnerParams,
    ) -> Result<DeleteOwnerResponse, String> {
        Ok(DeleteOwnerResponse::NoContent)
    }

    async fn get_lateness(
        &self,
        _ctx: &RequestContext,
        _params: GetLatenessParams,
    ) -> Result<GetLatenessResponse, String> {
        Ok(GetLatenessResponse::Ok((!self.empty()).then_some(2.5)))
    }

    async fn hold(
        &self,
        _ctx: &RequestContext,
        _params: HoldParams,
    ) -> Result<HoldResponse, String> {
        Ok(HoldResponse::Ok(()))
    }

    async fn get_report(
        &self,
        ctx: &RequestContext,
        _params: GetReportParams,
    ) -> Result<GetReportResponse, String> {
        Ok(GetReportResponse::Ok(
            serde_json::json!({"accept": accept(ctx)}),
        ))
    }

    async fn get_profile(
        &self,
        _ctx: &RequestContext,
        _params: GetProfileParams,
    ) -> Result<GetProfileResponse, String> {
        Ok(GetProfileResponse::Ok(types::Owner::new("Ann")))
    }

    async fn get_motd(
        &self,
        _ctx: &RequestContext,
        _params: GetMotdParams,
    ) -> Result<GetMotdResponse, String> {
        Ok(GetMotdResponse::Ok("Closed on \"Sundays\".".into()))
    }

    async fn get_speech(
        &self,
        ctx: &RequestContext,
        params: GetSpeechParams,
    ) -> Result<GetSpeechResponse, String> {
        let mut bytes = format!("{}|{}|", accept(ctx), params.text).into_bytes();
        bytes.extend([0xff, 0x00, 0xfe]);
        Ok(GetSpeechResponse::Ok(bytes))
    }

    async fn check_token(
        &self,
        _ctx: &RequestContext,
        params: CheckTokenParams,
        body: types::CheckTokenBody,
    ) -> Result<CheckTokenResponse, String> {
        Ok(CheckTokenResponse::Ok(types::CheckTokenOkBody::new(
            params.authorization,
            body.note,
        )))
    }
}

async fn serve(empty: bool) -> Client {
    let config = ServerConfig::new().authenticator(Keys);
    let service = Service {
        empty: AtomicBool::new(empty),
    };
    let addr: SocketAddr =
        common::spawn(answers_server::router(std::sync::Arc::new(service), config)).await;
    Client::builder(format!("http://{addr}/v1"))
        .basic("ann", "pw")
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

/// Without a security requirement, an `Authorization` header parameter is sent and read as
/// declared (OpenAPI would ignore it, and the operation could not be called); a member the
/// body requires without a schema of its own is a field of any JSON value.
#[tokio::test]
async fn an_authorization_parameter_and_a_required_member_without_a_schema() {
    let client = serve(false).await;
    let body = answers_client::types::CheckTokenBody::new("t", serde_json::json!({"any": [1]}));
    let seen = client.check_token("Bearer abc", &body).await.unwrap();
    assert_eq!(seen.authorization, "Bearer abc");
    assert_eq!(seen.note, serde_json::json!({"any": [1]}));
    let json = serde_json::to_value(&body).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"token": "t", "note": {"any": [1]}})
    );
}

/// `anyOf: [X, null]`, `type: [array, 'null']` and `anyOf: [number, null]` answers are
/// `Option` on both sides: `null` is `None`, a value `Some`.
#[tokio::test]
async fn nullable_answers_are_options() {
    let client = serve(true).await;
    assert_eq!(*client.get_current_owner().await.unwrap(), None);
    assert_eq!(*client.list_owners().await.unwrap(), None);
    assert_eq!(*client.get_lateness().await.unwrap(), None);
    let client = serve(false).await;
    assert_eq!(
        *client.get_current_owner().await.unwrap(),
        Some(answers_client::types::Owner::new("Ann"))
    );
    assert_eq!(
        client.list_owners().await.unwrap().as_ref().map(Vec::len),
        Some(1)
    );
    assert_eq!(*client.get_lateness().await.unwrap(), Some(2.5));
}

/// `{type: string, enum: [null]}` is `()`, written and read as `null`; a `204` whose
/// document declares a JSON body is read without one (it has none).
#[tokio::test]
async fn null_only_answers_and_a_204_with_declared_content() {
    let client = serve(false).await;
    let held = client.hold().await.unwrap();
    assert_eq!(held.status(), 200);
    assert_eq!(*held, ());
    let deleted = client.delete_owner(7).await.unwrap();
    assert_eq!(deleted.status(), 204);
}

/// The `Accept` of an operation names every media type it documents (successes first):
/// `*/*` beside its JSON error, not `application/json` alone; and a binary answer arrives as
/// its bytes.
#[tokio::test]
async fn accept_names_the_documented_media_types_and_bytes_arrive_whole() {
    let client = serve(false).await;
    let report = client.get_report().await.unwrap();
    assert_eq!(report["accept"], "*/*, application/json");
    let speech = client.get_speech("hi").await.unwrap();
    assert_eq!(
        speech.as_ref(),
        b"audio/mpeg, application/json|hi|\xff\x00\xfe"
    );
}

/// A `*/*` answer with a string schema is text: the server sends `text/plain` (a range is
/// not a media type it can send), the client reads the text as it came.
#[tokio::test]
async fn a_string_of_any_media_type_is_text() {
    let client = serve(false).await;
    let motd = client.get_motd().await.unwrap();
    assert_eq!(motd.headers()["content-type"], "text/plain; charset=utf-8");
    assert_eq!(motd.as_str(), "Closed on \"Sundays\".");
}

/// A JSON answer documented under a JSON media type of its own is sent with that type (a
/// conformance tool compares it with the document), and read as JSON.
#[tokio::test]
async fn a_json_answer_carries_its_documented_media_type() {
    let client = serve(false).await;
    let profile = client.get_profile().await.unwrap();
    assert_eq!(
        profile.headers()["content-type"],
        "application/vnd.api+json"
    );
    assert_eq!(*profile, answers_client::types::Owner::new("Ann"));
}

/// An operation whose answer switches protocols (a WebSocket): a request that does not ask for
/// the switch gets 426 with the error body and the `Upgrade` to send, before the
/// implementation; one that asks reaches it (here the trait's default, 501). Otherwise every
/// request would get the implementation's 101 with nothing switched (schemathesis on nexus).
#[tokio::test]
async fn a_protocol_switch_needs_a_request_for_it() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let client = serve(false).await;
    let authority = client
        .base_url()
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_string();
    let ask = |extra: &'static str| {
        let authority = authority.clone();
        async move {
            let mut tcp = tokio::net::TcpStream::connect(&authority).await.unwrap();
            let request = format!(
                "GET /v1/socket HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Basic YW5uOnB3\r\n{extra}Connection: close{}\r\n\r\n",
                if extra.is_empty() { "" } else { ", upgrade" }
            );
            tcp.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            tcp.read_to_string(&mut answer).await.unwrap();
            answer
        }
    };
    let refused = ask("").await;
    assert!(refused.starts_with("HTTP/1.1 426 "), "{refused}");
    assert!(
        refused
            .to_ascii_lowercase()
            .contains("\r\nupgrade: websocket\r\n"),
        "{refused}"
    );
    assert!(refused.contains("upgrade_required"), "{refused}");
    let asked = ask("Upgrade: websocket\r\n").await;
    assert!(asked.starts_with("HTTP/1.1 501 "), "{asked}");
}
