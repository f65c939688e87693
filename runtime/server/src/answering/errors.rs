//! The document's own error bodies. Where a document describes the body of its error answers
//! in a shape other than the default `{"code", "message", "status"}` (`{"code": 400,
//! "message": …}` with an integer code, `{"error": {"message": …, "type": …}}`, FastAPI's
//! `{"detail": [{"loc": …, "msg": …, "type": …}]}`), the generator writes one [`ErrorBody`] per
//! shape: a JSON value valid against the schema, and the places where a problem's code,
//! message and status go. The router renders every problem of that status with it, so a
//! client that decodes the document's error type reads the server's refusals.
//!
//! Decision: `docs/decisions/0002-document-error-bodies.md`.

use axum::body::Body;
use axum::response::Response;
use http::StatusCode;
use http::header::{self, HeaderValue};

use super::problem::{Problem, violations_message};

/// One error body shape (see the module's docs): `template` is JSON text, the slots are JSON
/// pointers into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorBody {
    /// The body as JSON text, a value valid against the document's error schema.
    pub template: &'static str,
    /// Where the problem's `code` (`bad_request`) goes, as a string.
    pub code: &'static [&'static str],
    /// Where its message goes (with every violation of a 400), as a string.
    pub message: &'static [&'static str],
    /// Where its status goes, as a number.
    pub status: &'static [&'static str],
    /// The media type the document gives these answers (`application/json`, or one of its
    /// own such as `application/problem+json`), which they are sent with.
    pub content_type: &'static str,
}

/// Which answers a body is for, as the document keys its responses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKey {
    /// `404`.
    Code(u16),
    /// `4XX` (4).
    Class(u8),
    /// `default`.
    Default,
}

/// The error bodies of a document or an operation, by status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorBodies {
    /// The status of a request the document's checks refuse: 400, or 422 where the document
    /// describes 422 for that and no 400 (FastAPI, pydantic). The runtime's 400s take it.
    pub invalid: u16,
    /// Each body with the statuses it is for.
    pub bodies: &'static [(StatusKey, &'static ErrorBody)],
}

impl ErrorBodies {
    /// The body for `status`: its code's, else its class's, else `default`'s; `None` when the
    /// document describes none (the default body is written).
    pub fn body_for(&self, status: StatusCode) -> Option<&'static ErrorBody> {
        let code = status.as_u16();
        let find = |key: StatusKey| {
            self.bodies
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, body)| *body)
        };
        find(StatusKey::Code(code))
            .or_else(|| find(StatusKey::Class((code / 100) as u8)))
            .or_else(|| find(StatusKey::Default))
    }
}

impl ErrorBody {
    /// The default body, `{"code", "message", "status"}`, as a shape: for a status the
    /// document describes with it where another entry of the table would apply.
    pub const DEFAULT: ErrorBody = ErrorBody {
        template: r#"{"code":"","message":"","status":0}"#,
        code: &["/code"],
        message: &["/message"],
        status: &["/status"],
        content_type: "application/json",
    };

    /// The body's JSON with the problem's code, message and status in their places.
    pub fn value(&self, p: &Problem) -> serde_json::Value {
        let Ok(mut value) = serde_json::from_str::<serde_json::Value>(self.template) else {
            return serde_json::Value::Null;
        };
        let message = if p.violations.is_empty() {
            p.message.clone()
        } else {
            violations_message(&p.violations)
        };
        let mut put = |pointers: &[&str], v: serde_json::Value| {
            for pointer in pointers {
                if let Some(slot) = value.pointer_mut(pointer) {
                    *slot = v.clone();
                }
            }
        };
        put(self.code, serde_json::Value::from(p.code.as_ref()));
        put(self.message, serde_json::Value::from(message));
        put(self.status, serde_json::Value::from(p.status.as_u16()));
        value
    }

    /// The problem as a response in this shape: JSON, its status, its headers.
    pub fn render(&self, p: &Problem) -> Response {
        let bytes = serde_json::to_vec(&self.value(p)).unwrap_or_default();
        let mut resp = Response::new(Body::from(bytes));
        *resp.status_mut() = p.status;
        let content_type = HeaderValue::from_str(self.content_type)
            .unwrap_or_else(|_| HeaderValue::from_static("application/json"));
        resp.headers_mut()
            .insert(header::CONTENT_TYPE, content_type);
        for (name, value) in p.headers.iter() {
            resp.headers_mut().append(name.clone(), value.clone());
        }
        resp
    }
}
