//! The gate in front of every route, over real HTTP, on the paths that have to wait: an
//! authenticator that answers some credentials at once and awaits others, a limiter that only
//! answers asynchronously (as the Redis one does), and both at once, for allowed and refused
//! requests and a head over the size limits. The routes are registered as generated routers
//! register them (`layer::operation`).

mod common;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use apigen_server_runtime as runtime;
use axum::extract::Request;
use axum::response::Response;
use axum::routing;
use common::{client, send, serve};
use http::StatusCode;
use runtime::auth::{self, Authenticator, Credential, Principal, SecurityScheme};
use runtime::layer::{self, Runtime, ServerConfig};
use runtime::ratelimit::Decision;
use runtime::{InMemoryRateLimiter, Limits, Quota, RateLimitPolicy, RateLimiter, response};

/// Answers bearer tokens at once and awaits API keys; counts the awaits.
#[derive(Default)]
struct HalfSync {
    awaited: AtomicUsize,
}

fn answer(scheme: &SecurityScheme, credential: Credential<'_>) -> Option<Principal> {
    let subject = match credential {
        Credential::Bearer("t") => "tess",
        Credential::ApiKey("k") => "kim",
        _ => return None,
    };
    Some(Principal {
        subject: subject.to_owned(),
        plan: None,
        scheme: scheme.name,
    })
}

impl Authenticator for HalfSync {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        self.awaited.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            tokio::task::yield_now().await;
            answer(scheme, credential)
        })
    }

    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        matches!(credential, Credential::Bearer(_)).then(|| answer(scheme, credential))
    }
}

/// The in-memory limiter behind an asynchronous answer only (no `check_sync`).
struct Awaited(InMemoryRateLimiter);

impl RateLimiter for Awaited {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            self.0.check_now(key, quota, now)
        })
    }
}

fn policy(per_minute: u32) -> RateLimitPolicy {
    common::free_plan_policy(per_minute, 1000)
}

/// A secured operation that answers with the principals the gate found, `scheme:subject`.
async fn whoami(_state: Arc<()>, req: Request) -> Response {
    let (parts, _body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let result = auth::authorize_scheme(
        parts.extensions.get(),
        &[&["bearerAuth"], &["apiKeyHeader"]],
    )
    .map(|_| {
        let identity = parts.extensions.get::<runtime::Identity>();
        let who: Vec<String> = identity
            .map(|i| i.principals())
            .unwrap_or_default()
            .iter()
            .map(|p| format!("{}:{}", p.scheme, p.subject))
            .collect();
        response::text(StatusCode::OK, "text/plain", who.join(","))
    });
    rt.reply(result, &[])
}

fn router(config: ServerConfig) -> axum::Router {
    let routes = axum::Router::new().route(
        "/whoami",
        routing::get_service(layer::operation(&Arc::new(()), whoami)),
    );
    layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
}

async fn get(base: &str, headers: &[(&str, &str)]) -> common::Reply {
    let mut rb = client().get(format!("{base}/whoami"));
    for (name, value) in headers {
        rb = rb.header(*name, *value);
    }
    send(rb).await
}

#[tokio::test]
async fn credentials_answered_at_once_and_awaited_both_count() {
    let auth = Arc::new(HalfSync::default());
    let srv = serve(router(ServerConfig::new().authenticator(auth.clone()))).await;

    // Bearer answered at once, the API key awaited: both principals, in the schemes' order.
    let reply = get(
        &srv.base,
        &[("authorization", "Bearer t"), ("x-api-key", "k")],
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body, "bearerAuth:tess,apiKeyHeader:kim");
    assert_eq!(auth.awaited.load(Ordering::SeqCst), 1);

    // Only the awaited one, and it is wrong: 401 with the challenge.
    let reply = get(&srv.base, &[("x-api-key", "nope")]).await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    assert!(reply.header("www-authenticate").is_some());
    assert_eq!(auth.awaited.load(Ordering::SeqCst), 2);

    // Only the one answered at once: nothing awaited.
    let reply = get(&srv.base, &[("authorization", "Bearer t")]).await;
    assert_eq!(reply.body, "bearerAuth:tess");
    assert_eq!(auth.awaited.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_awaited_limiter_counts_reports_and_refuses() {
    let limiter = Awaited(InMemoryRateLimiter::for_policy(&policy(2)));
    let config = ServerConfig::new()
        .authenticator(Arc::new(HalfSync::default()))
        .rate_limit(limiter, policy(2));
    let srv = serve(router(config)).await;

    let first = get(&srv.base, &[("authorization", "Bearer t")]).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.header("x-ratelimit-limit"), Some("2"));
    assert_eq!(first.header("x-ratelimit-remaining"), Some("1"));

    // The awaited credential and the awaited limiter in one request.
    let second = get(
        &srv.base,
        &[("authorization", "Bearer t"), ("x-api-key", "k")],
    )
    .await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.body, "bearerAuth:tess,apiKeyHeader:kim");
    assert_eq!(second.header("x-ratelimit-remaining"), Some("0"));

    // Over the quota: the route answers the refusal, with the headers.
    let third = get(&srv.base, &[("authorization", "Bearer t")]).await;
    assert_eq!(third.status, 429, "{}", third.body);
    assert_eq!(third.problem().0, "rate_limited");
    assert!(third.header("retry-after").is_some());
    assert_eq!(third.header("x-ratelimit-remaining"), Some("0"));

    // Another caller has a counter of its own.
    let other = get(&srv.base, &[("x-api-key", "k")]).await;
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.header("x-ratelimit-remaining"), Some("1"));
}

#[tokio::test]
async fn a_head_over_the_limits_is_answered_after_an_awaited_limiter_counted_it() {
    let limiter = Awaited(InMemoryRateLimiter::for_policy(&policy(5)));
    let config = ServerConfig::new()
        .authenticator(Arc::new(HalfSync::default()))
        .rate_limit(limiter, policy(5))
        .limits(Limits {
            max_header_section: 1024,
            ..Limits::default()
        });
    let srv = serve(router(config)).await;

    let big = "x".repeat(2048);
    let reply = get(
        &srv.base,
        &[("authorization", "Bearer t"), ("x-padding", &big)],
    )
    .await;
    assert_eq!(reply.status, 431, "{}", reply.body);
    assert_eq!(reply.header("x-ratelimit-remaining"), Some("4"));
    let next = get(&srv.base, &[("authorization", "Bearer t")]).await;
    assert_eq!(next.header("x-ratelimit-remaining"), Some("3"));
}
