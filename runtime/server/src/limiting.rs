//! Limiting: request size and time limits, rate limits by plan with bans, and the Redis store several instances share.

pub mod limits;
pub mod ratelimit;
#[cfg(feature = "redis")]
pub mod redis_store;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::problem;
#[cfg(feature = "redis")]
use super::{idempotency_store, observe};
