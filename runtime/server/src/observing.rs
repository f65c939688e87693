//! Observing: each request's trace context, span, metrics and ids, and the `RequestContext` a handler sees.

pub mod context;
pub mod observe;
mod random;
mod trace_context;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{auth, ratelimit};
