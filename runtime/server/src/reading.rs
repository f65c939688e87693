//! Reading a request: parameters in every style, bodies, forms and multipart, and the values generated types are read as (objects, unions, enums, integers, decimals, base64).

pub mod base64;
pub mod body;
pub mod decimal;
pub mod enums;
mod form;
mod from_param;
pub mod integer;
pub mod multipart;
pub mod object;
pub mod params;
pub mod style;
pub mod tagged;
pub mod unions;

// The other groups' modules this group's files name as `super::…`: the runtime's root is
// `crate` in its own crate and `crate::runtime` where a generated crate vendors it, so its
// files name one another by relative paths.
use super::{formats, limits, observe, problem, runtime_handle, schema, validate};
