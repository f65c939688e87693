//! Serving: the connection loop, the router-wide layer and the `Runtime` handle, the gate every request passes, routes, CORS, sunsets, the served document, upgrades, webhooks, tests' servers and mocks.

pub mod cors;
pub mod document;
mod entries;
mod gate;
pub mod layer;
pub mod mock;
pub mod route;
pub mod routes;
pub(super) mod runtime_handle;
pub mod serve;
pub mod sunset;
pub mod testing;
pub mod upgrade;
pub mod webhook;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{
    auth, body, context, errors, idempotency, idempotency_store, integer, limits, observe, params,
    problem, ratelimit, response, validate,
};
