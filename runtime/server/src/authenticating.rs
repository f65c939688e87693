//! Authenticating: the document's security schemes, where a request carries its credentials, and who they belong to.

pub mod auth;
mod authenticator;
mod credentials;
mod scheme;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{base64, problem, ratelimit, runtime_handle};
