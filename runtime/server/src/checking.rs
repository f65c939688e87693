//! Checking what was read: the schema constraints generated types declare, string formats, and JSON Schema held to the letter.

pub mod formats;
pub mod schema;
mod schema_eval;
mod schema_form;
pub mod validate;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{base64, decimal, document, integer, object, problem};
