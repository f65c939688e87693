//! Replaying: idempotent retries answered from the stored first response, and where those responses live.

pub mod idempotency;
pub(super) mod idempotency_store;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{auth, observe, problem, runtime_handle};
