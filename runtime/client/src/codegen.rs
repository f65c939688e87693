//! What generated code names of the runtime, in one place: the modules its declarations expand
//! through (`request::query!`, `response::errors!`, `object::json!`) and the types its
//! signatures carry.
//!
//! A generated file imports from here alone (`use crate::runtime::codegen::{request, Error,
//! …};`), and the runtime's own macros expand to paths through here, so the runtime's surface
//! for generated code is this list, apart from the root's, which is for applications
//! (`RetryPolicy`, `RequestOptions`, `Error`, …). A name moves or goes only with a new minor
//! version of the runtime; `API.md` describes each.

pub use super::{
    auth, base64, decimal, enums, error, integer, multipart, object, options, pages, progress,
    ratelimit, request, response, retry, stream, tagged, tagging, transport, unions, webhook,
};

pub use super::auth::{Credentials, SchemeKind, Secret, SecurityScheme};
pub use super::base64::{Base64, Base64Url};
pub use super::decimal::Decimal;
pub use super::error::{Error, SendError};
pub use super::multipart::Form;
pub use super::options::RequestOptions;
pub use super::pages::{Page, Pages};
pub use super::progress::{OnProgress, Progress};
pub use super::ratelimit::RateLimit;
pub use super::request::{ObjectQuery, Query, Style, ToParam, Upload};
pub use super::response::ApiResult;
pub use super::response::{Raw, ResponseValue};
pub use super::retry::RetryPolicy;
pub use super::stream::{EventStream, JsonLines};
pub use super::transport::{OperationInfo, Transport};
