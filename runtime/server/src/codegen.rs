//! What generated code names of the runtime, in one place: the modules its declarations expand
//! through (`params::declare!`, `object::json!`, `layer::handler!`) and the types its
//! signatures carry.
//!
//! A generated file imports from here alone (`use crate::runtime::codegen::{params, Problem,
//! …};`), and the runtime's own macros expand to paths through here, so the runtime's surface
//! for generated code is this list, apart from the root's, which is for applications
//! (`ServerConfig`, `Authenticator`, `serve`, …). A name moves or goes only with a new minor
//! version of the runtime; `API.md` describes each.

pub use super::{
    auth, base64, body, context, cors, decimal, document, enums, errors, formats, idempotency,
    integer, layer, mock, multipart, object, params, problem, ratelimit, response, route, routes,
    schema, stream, sunset, tagged, tagging, testing, unions, upgrade, validate, webhook,
};

pub use super::auth::{SchemeKind, SecurityScheme};
pub use super::base64::{Base64, Base64Url};
pub use super::context::RequestContext;
pub use super::cors::DocumentCors;
pub use super::decimal::Decimal;
pub use super::document::Document;
pub use super::errors::{ErrorBodies, ErrorBody, StatusKey};
pub use super::layer::{Runtime, ServerConfig};
pub use super::mock::MockError;
pub use super::params::{Location, ObjectQuery, PathParams, RawParams, Style};
pub use super::problem::Problem;
pub use super::ratelimit::{Quota, RateLimitPolicy};
pub use super::response::Answer;
pub use super::route::{PathPattern, Piece};
pub use super::schema::Held;
pub use super::sunset::Retirement;
pub use super::testing::TestServer;
pub use super::validate::{Validate, Violations};
