//! Client runtime: the hand-written, spec-independent half of every generated API client.
//!
//! Generated clients depend on this crate and name it `runtime` (`pub use
//! apigen_client_runtime as runtime;`); with `--vendor-runtime` the generator copies each file
//! of this `src/` into the client as `src/runtime/` instead (this file becoming
//! `runtime/mod.rs`), so the code here refers to its siblings with `super::` and carries no unit
//! tests. See `docs/architecture.md`, "The runtime crates".
//!
//! # What lives where
//!
//! - [`transport`]: the one place around sending. [`Transport::send`] applies credentials,
//!   retries per [`RetryPolicy`], honours `Retry-After`, records the last rate-limit state and
//!   warns once per deprecated operation.
//! - [`retry`]: the retry decision as pure functions (backoff, jitter, the decision table) and
//!   a sleep that works natively (tokio) and in the browser (JS timers).
//! - [`ratelimit`]: `X-RateLimit-*` and `Retry-After` parsing; garbage never becomes an error.
//! - [`auth`]: security schemes, the credentials a client holds, and how they go on the wire.
//! - [`request`]: percent-encoding of path segments, query strings, JSON request bodies.
//! - [`response`]: the raw response ([`Raw`]) and the typed success value ([`ResponseValue`]).
//! - [`error`]: [`Error`], typed per documented status, keeping bytes of everything else.
//! - [`webhook`]: reading a webhook delivery your endpoint received (method, content type,
//!   payload) for the generated `Webhook::from_request`.
//! - [`pages`]: paginated operations as one lazy stream of items ([`pages::Pages`]), for
//!   the generated `…_stream` methods.
//! - [`stream`]: streamed responses (`itemSchema`): Server-Sent Events and JSON Lines decoded
//!   into typed streams as the bytes arrive ([`Transport::send_streaming`]).
//!
//! # How a generated method uses it
//!
//! Build the request in a closure (called again for every attempt, so a body is kept as
//! serialized bytes), hand it to [`Transport::send_dyn`] (the non-generic form of
//! [`Transport::send`], compiled once rather than per operation), then map the status of the [`Raw`]
//! response: a documented success to [`Raw::json`] (or `empty`, `text`, `bytes`), a documented
//! error to [`Raw::api_error`], anything else to [`Raw::unexpected`]. `runtime/client/API.md`
//! in the apigen repository has a worked example.
//!
//! # Decisions
//!
//! - **Enums tolerate unknown values on the client.** The generator gives every client-side
//!   string enum an extra `Unknown(String)` variant, so a value the server adds later decodes
//!   instead of failing the whole response. (Server-side enums reject unknown values.) This
//!   runtime needs nothing for that; generated enums implement [`request::ToParam`] for their
//!   wire names.
//! - **No TLS by default.** reqwest is used without default features; the generated crate's
//!   Cargo.toml offers an optional `rustls` feature. Nothing here depends on TLS.
//! - **WebAssembly.** The crate builds for `wasm32-unknown-unknown`: time comes from
//!   `web-time`, the retry sleep from `gloo-timers`, and client timeouts are left to the
//!   browser there (reqwest has no timeout settings on that target).
//! - **Retries are conservative.** A `429` is retried (the server refused the request without
//!   acting on it) unless its `Retry-After` exceeds the remaining time budget, in which case it
//!   is returned at once. `502`/`503`/`504`, timeouts and broken responses are retried only for
//!   idempotent operations; a non-idempotent request is retried after a transport error only
//!   when the error proves it was never sent (a connect error).

pub mod auth;
pub mod base64;
pub mod decimal;
pub mod enums;
pub mod error;
pub mod integer;
pub mod multipart;
pub mod object;
pub mod options;
pub mod pages;
pub mod progress;
mod random;
pub mod ratelimit;
pub mod request;
pub mod response;
pub mod retry;
mod scheme;
pub mod stream;
pub mod style;
pub mod tagged;
pub mod tagging;
pub mod trace;
pub mod transport;
pub mod unions;
pub mod webhook;
mod written;

pub use auth::{Credentials, SchemeKind, Secret, Security, SecurityScheme};
pub use error::{Error, SendError};
pub use options::{Hook, RequestOptions};
pub use ratelimit::RateLimit;
pub use request::{Query, ToParam};
pub use response::{Raw, ResponseValue};
pub use retry::RetryPolicy;
pub use stream::{Event, EventStream, JsonLines, Streamed};
pub use transport::{OperationInfo, Transport};
