//! Owns `GET /healthz` and `GET /readyz`, the answers a load balancer or an orchestrator asks
//! for: the process is up; the process can serve (its database and, with `--redis`, Redis
//! answer). Beside the API's routes, not under `/v1` and not in the document: no credentials,
//! no rate limit, no access-log line (probes come every few seconds).

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use petstore_server::runtime::redis_store::RedisStore;
use petstore_server::runtime::response;
use petstore_server::types::Error;

use crate::storage::Storage;

/// What `/readyz` asks.
#[derive(Clone)]
struct Dependencies {
    storage: Arc<dyn Storage>,
    redis: Option<RedisStore>,
}

/// `app` with `/healthz` (always `200 ok`) and `/readyz` (`200 ready` when the database and
/// Redis answer; otherwise `503` with the API's `Error` body, code `not_ready`, saying which
/// does not).
pub fn with_health(app: Router, storage: Arc<dyn Storage>, redis: Option<RedisStore>) -> Router {
    let deps = Dependencies { storage, redis };
    Router::new()
        .route("/healthz", get(|| async { text(StatusCode::OK, "ok") }))
        .route(
            "/readyz",
            get(move || {
                let deps = deps.clone();
                async move { readiness(&deps).await }
            }),
        )
        .merge(app)
}

async fn readiness(deps: &Dependencies) -> Response {
    let mut missing = Vec::new();
    if let Err(e) = deps.storage.ready().await {
        missing.push(format!("the database does not answer ({e})"));
    }
    if let Some(redis) = &deps.redis
        && let Err(e) = redis.ping().await
    {
        missing.push(format!("Redis does not answer ({e})"));
    }
    if missing.is_empty() {
        return text(StatusCode::OK, "ready");
    }
    tracing::warn!(reasons = %missing.join("; "), "not ready");
    let body = Error::new("not_ready", missing.join("; "), 503);
    response::json(StatusCode::SERVICE_UNAVAILABLE, &body)
        .unwrap_or_else(|_| response::empty(StatusCode::SERVICE_UNAVAILABLE))
}

fn text(status: StatusCode, body: &'static str) -> Response {
    response::text(status, "text/plain; charset=utf-8", body.to_owned())
}
