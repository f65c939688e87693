//! Server runtime: spec-independent support for generated axum servers (auth, rate limits,
//! problems, parameters, bodies, validation, streamed responses, webhook deliveries, request
//! limits, each request's span, id and metrics, the `serve` loop). Generated servers depend on
//! this crate and name it `runtime` (`pub use apigen_server_runtime as runtime;`); with `--vendor-runtime` the generator copies
//! `src/` into them as `src/runtime/` instead (see docs/architecture.md, "The runtime crates").
//! API.md beside Cargo.toml lists what generated code calls.

pub mod auth;
mod authenticator;
pub mod base64;
pub mod body;
pub mod context;
pub mod cors;
mod credentials;
pub mod decimal;
pub mod document;
pub mod enums;
pub mod errors;
mod form;
pub mod formats;
mod from_param;
mod gate;
pub mod idempotency;
mod idempotency_store;
pub mod integer;
pub mod layer;
pub mod limits;
pub mod mock;
pub mod multipart;
pub mod object;
pub mod observe;
pub mod params;
pub mod problem;
mod random;
pub mod ratelimit;
#[cfg(feature = "redis")]
pub mod redis_store;
pub mod response;
pub mod route;
mod runtime_handle;
pub mod schema;
mod schema_eval;
mod schema_form;
mod scheme;
pub mod serve;
pub mod stream;
pub mod style;
pub mod sunset;
pub mod tagged;
pub mod tagging;
pub mod testing;
mod trace_context;
pub mod unions;
pub mod upgrade;
pub mod validate;
pub mod webhook;

pub use auth::{Authenticator, DenyAll, Identity, Principal, SecurityScheme, StaticKeys};
pub use cors::{Cors, CorsError, DocumentCors};
pub use idempotency::{IdempotencyStore, InMemoryIdempotencyStore};
pub use layer::{Runtime, ServerConfig, finish, finish_prefixed};
pub use limits::Limits;
pub use problem::Problem;
pub use ratelimit::{InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter};
#[cfg(feature = "redis")]
pub use redis_store::{
    RedisIdempotencyStore, RedisOptions, RedisRateLimiter, RedisStore, WhenUnavailable,
};
pub use serve::serve;
pub use sunset::{Clock, Retirement, SunsetPolicy};
pub use testing::TestServer;
