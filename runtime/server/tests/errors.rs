//! `errors`: the document's own error bodies. A problem is written in the shape the document
//! describes for its status (exact, then class, then `default`), its parts in the places the
//! generator found, and the application's own renderer still wins.

use std::sync::Arc;

use apigen_server_runtime::errors::{ErrorBodies, ErrorBody, StatusKey};
use apigen_server_runtime::layer::ServerConfig;
use apigen_server_runtime::problem::Problem;
use apigen_server_runtime::validate::Violation;
use axum::response::Response;
use http::StatusCode;

/// openai's shape: `{"error": {"message", "type", "param", "code"}}`.
const NESTED: ErrorBody = ErrorBody {
    template: r#"{"error":{"message":"string","type":"string","param":null,"code":"string"}}"#,
    code: &["/error/code"],
    message: &["/error/message"],
    status: &[],
    content_type: "application/json",
};

/// An integer code: `{"code": 0, "message": ""}`.
const INTEGER: ErrorBody = ErrorBody {
    template: r#"{"code":1,"message":"string"}"#,
    code: &[],
    message: &["/message"],
    status: &["/code"],
    content_type: "application/json",
};

/// FastAPI's validation error: `{"detail": [{"loc": [...], "msg", "type"}]}`.
const DETAIL: ErrorBody = ErrorBody {
    template: r#"{"detail":[{"loc":["string"],"msg":"string","type":"string"}]}"#,
    code: &["/detail/0/type"],
    message: &["/detail/0/msg"],
    status: &[],
    content_type: "application/json",
};

const TABLE: ErrorBodies = ErrorBodies {
    invalid: 400,
    bodies: &[
        (StatusKey::Code(422), &DETAIL),
        (StatusKey::Class(4), &NESTED),
        (StatusKey::Default, &INTEGER),
        (StatusKey::Code(404), &ErrorBody::DEFAULT),
    ],
};

async fn json(response: Response) -> (u16, serde_json::Value) {
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[test]
fn the_body_for_a_status_is_its_code_s_then_its_class_s_then_default() {
    let body = |s: u16| {
        TABLE
            .body_for(StatusCode::from_u16(s).unwrap())
            .map(|b| b.template)
    };
    assert_eq!(body(422), Some(DETAIL.template));
    assert_eq!(body(400), Some(NESTED.template));
    assert_eq!(body(404), Some(ErrorBody::DEFAULT.template));
    assert_eq!(body(500), Some(INTEGER.template));
    let no_default = ErrorBodies {
        invalid: 400,
        bodies: &[(StatusKey::Code(400), &NESTED)],
    };
    assert_eq!(no_default.body_for(StatusCode::NOT_FOUND), None);
}

#[tokio::test]
async fn a_problem_is_written_in_the_document_s_shape() {
    let rt = ServerConfig::new().document_errors(&TABLE).runtime();
    let (status, body) = json(rt.problem(Problem::bad_request("query/limit: too big"))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        serde_json::json!({"error": {"message": "query/limit: too big", "type": "string", "param": null, "code": "bad_request"}})
    );
    let (status, body) = json(rt.problem(Problem::internal())).await;
    assert_eq!(status, 500);
    assert_eq!(body["code"], 500);
    assert!(body["message"].is_string());
    // Every violation of a 400 goes into the message.
    let mut p = Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid", "x");
    p.violations.push(Violation {
        pointer: "/a".into(),
        message: "must be a number".into(),
    });
    let (_, body) = json(rt.problem(p)).await;
    assert_eq!(body["detail"][0]["msg"], "/a: must be a number");
    assert_eq!(body["detail"][0]["type"], "invalid");
    assert_eq!(body["detail"][0]["loc"], serde_json::json!(["string"]));
    // The default shape, written where the table says so.
    let (_, body) = json(rt.problem(Problem::not_found())).await;
    assert_eq!(body["code"], "not_found");
    assert_eq!(body["status"], 404);
    // An operation's own table first, then the document's.
    const OWN: ErrorBodies = ErrorBodies {
        invalid: 400,
        bodies: &[(StatusKey::Code(400), &INTEGER)],
    };
    let (_, body) = json(rt.problem_in(Problem::bad_request("x"), &OWN)).await;
    assert_eq!(body, serde_json::json!({"code": 400, "message": "x"}));
    let (_, body) = json(rt.problem_in(Problem::not_found(), &OWN)).await;
    assert_eq!(body["code"], "not_found");
}

#[tokio::test]
async fn the_application_s_renderer_wins() {
    let rt = ServerConfig::new()
        .render_problem(Arc::new(|p: &Problem| {
            let mut r = Response::new(axum::body::Body::from(format!(
                "{{\"mine\":\"{}\"}}",
                p.code
            )));
            *r.status_mut() = p.status;
            r
        }))
        .document_errors(&TABLE)
        .runtime();
    let (status, body) = json(rt.problem(Problem::bad_request("x"))).await;
    assert_eq!(
        (status, body),
        (400, serde_json::json!({"mine": "bad_request"}))
    );
}

#[tokio::test]
async fn headers_and_status_are_kept() {
    let rt = ServerConfig::new().document_errors(&TABLE).runtime();
    let response = rt.problem(Problem::method_not_allowed(&[http::Method::GET]));
    assert_eq!(response.headers()["allow"], "GET");
    assert_eq!(response.headers()["content-type"], "application/json");
    let (status, body) = json(response).await;
    assert_eq!(status, 405);
    assert_eq!(body["error"]["code"], "method_not_allowed");
}

#[tokio::test]
async fn a_refused_request_takes_the_status_the_document_describes_for_it() {
    // FastAPI: 422 with its `detail` list, and no 400.
    const FASTAPI: ErrorBodies = ErrorBodies {
        invalid: 422,
        bodies: &[(StatusKey::Code(422), &DETAIL)],
    };
    let rt = ServerConfig::new().document_errors(&FASTAPI).runtime();
    let (status, body) = json(rt.problem(Problem::bad_request("query/limit: too big"))).await;
    assert_eq!(status, 422);
    assert_eq!(body["detail"][0]["msg"], "query/limit: too big");
    // Other statuses keep theirs; an operation's own table decides for it.
    assert_eq!(rt.problem(Problem::not_found()).status(), 404);
    assert_eq!(
        rt.problem_in(Problem::bad_request("x"), &TABLE).status(),
        400
    );
}

/// An error body the document gives a media type of its own (RFC 9457's
/// `application/problem+json`) is sent with it.
#[test]
fn a_shape_is_sent_with_its_media_type() {
    const PROBLEM: ErrorBody = ErrorBody {
        content_type: "application/problem+json",
        ..ErrorBody::DEFAULT
    };
    let response = PROBLEM.render(&Problem::bad_request("query/limit: too big"));
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        response.headers()[http::header::CONTENT_TYPE],
        "application/problem+json"
    );
    assert_eq!(
        ErrorBody::DEFAULT.render(&Problem::not_found()).headers()[http::header::CONTENT_TYPE],
        "application/json"
    );
}
