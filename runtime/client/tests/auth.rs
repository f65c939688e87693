//! Credentials on the wire: which security alternative is chosen, and the exact header, query
//! and cookie forms of each scheme kind.

mod common;

use apigen_client_runtime::auth::{
    self, Credentials, SchemeKind, Secret, Security, SecurityScheme,
};
use apigen_client_runtime::retry::RetryPolicy;
use apigen_client_runtime::transport::{OperationInfo, Transport};
use common::{Server, json};
use http::Method;

static SCHEMES: &[SecurityScheme] = &[
    SecurityScheme {
        name: "bearer",
        kind: SchemeKind::HttpBearer,
    },
    SecurityScheme {
        name: "basic",
        kind: SchemeKind::HttpBasic,
    },
    SecurityScheme {
        name: "headerKey",
        kind: SchemeKind::ApiKeyHeader("X-API-Key"),
    },
    SecurityScheme {
        name: "queryKey",
        kind: SchemeKind::ApiKeyQuery("api_key"),
    },
    SecurityScheme {
        name: "cookieKey",
        kind: SchemeKind::ApiKeyCookie("session"),
    },
];

fn applied(
    url: &str,
    security: Security,
    creds: &Credentials,
    extra: impl FnOnce(reqwest::RequestBuilder) -> reqwest::RequestBuilder,
) -> reqwest::Request {
    let client = reqwest::Client::new();
    let mut request = extra(client.get(url)).build().unwrap();
    auth::apply(&mut request, SCHEMES, security, creds).unwrap();
    request
}

fn header<'a>(request: &'a reqwest::Request, name: &str) -> Option<&'a str> {
    request.headers().get(name).map(|v| v.to_str().unwrap())
}

#[test]
fn bearer() {
    let creds = Credentials::new().with("bearer", Secret::Token("t0k3n".into()));
    let req = applied("http://h/x", &[&["bearer"]], &creds, |b| b);
    assert_eq!(header(&req, "authorization"), Some("Bearer t0k3n"));
    // Marked sensitive: kept out of Debug output and HTTP/2 compression tables.
    assert!(req.headers()["authorization"].is_sensitive());
    // An API-key secret fits a bearer scheme too.
    let creds = Credentials::new().with("bearer", Secret::ApiKey("k".into()));
    let req = applied("http://h/x", &[&["bearer"]], &creds, |b| b);
    assert_eq!(header(&req, "authorization"), Some("Bearer k"));
}

#[test]
fn basic() {
    // RFC 7617's example.
    let creds = Credentials::new().with(
        "basic",
        Secret::Basic {
            user: "Aladdin".into(),
            password: "open sesame".into(),
        },
    );
    let req = applied("http://h/x", &[&["basic"]], &creds, |b| b);
    assert_eq!(
        header(&req, "authorization"),
        Some("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    );
    // Every padding length.
    for (user, password, expected) in [
        ("a", "", "Basic YTo="),
        ("ab", "", "Basic YWI6"),
        ("ab", "c", "Basic YWI6Yw=="),
        ("", "", "Basic Og=="),
        ("ü", "ß", "Basic w7w6w58="),
    ] {
        let creds = Credentials::new().with(
            "basic",
            Secret::Basic {
                user: user.into(),
                password: password.into(),
            },
        );
        let req = applied("http://h/x", &[&["basic"]], &creds, |b| b);
        assert_eq!(
            header(&req, "authorization"),
            Some(expected),
            "{user}:{password}"
        );
    }
}

#[test]
fn api_key_in_header_query_and_cookie() {
    let creds = Credentials::new()
        .with("headerKey", Secret::ApiKey("h-key".into()))
        .with("queryKey", Secret::ApiKey("q key&=".into()))
        .with("cookieKey", Secret::ApiKey("c;key".into()));

    let req = applied("http://h/x", &[&["headerKey"]], &creds, |b| b);
    assert_eq!(header(&req, "x-api-key"), Some("h-key"));

    // The key joins an existing query, encoded.
    let req = applied("http://h/x?limit=5", &[&["queryKey"]], &creds, |b| b);
    assert_eq!(req.url().as_str(), "http://h/x?limit=5&api_key=q+key%26%3D");
    let req = applied("http://h/x", &[&["queryKey"]], &creds, |b| b);
    assert_eq!(req.url().query(), Some("api_key=q+key%26%3D"));

    // One Cookie header, merged with cookies already set; unsafe bytes percent-encoded.
    let req = applied("http://h/x", &[&["cookieKey"]], &creds, |b| b);
    assert_eq!(header(&req, "cookie"), Some("session=c%3Bkey"));
    let req = applied("http://h/x", &[&["cookieKey"]], &creds, |b| {
        b.header("Cookie", "theme=dark")
    });
    assert_eq!(req.headers().get_all("cookie").iter().count(), 1);
    assert_eq!(header(&req, "cookie"), Some("theme=dark; session=c%3Bkey"));
}

#[test]
fn all_schemes_of_an_and_set_are_applied() {
    let creds = Credentials::new()
        .with("bearer", Secret::Token("t".into()))
        .with("headerKey", Secret::ApiKey("k".into()));
    let req = applied("http://h/x", &[&["bearer", "headerKey"]], &creds, |b| b);
    assert_eq!(header(&req, "authorization"), Some("Bearer t"));
    assert_eq!(header(&req, "x-api-key"), Some("k"));
}

#[test]
fn the_first_satisfied_alternative_wins() {
    let security: Security = &[&["bearer", "queryKey"], &["basic"], &["headerKey"]];
    // Only part of the first AND-set is held: skipped.
    let creds = Credentials::new()
        .with("bearer", Secret::Token("t".into()))
        .with("headerKey", Secret::ApiKey("k".into()));
    assert_eq!(
        auth::select(SCHEMES, security, &creds),
        Some(&["headerKey"][..])
    );
    let req = applied("http://h/x", security, &creds, |b| b);
    assert_eq!(header(&req, "authorization"), None);
    assert_eq!(header(&req, "x-api-key"), Some("k"));

    let creds = creds.with("queryKey", Secret::ApiKey("q".into()));
    assert_eq!(
        auth::select(SCHEMES, security, &creds),
        Some(&["bearer", "queryKey"][..])
    );
}

#[test]
fn optional_auth_still_sends_held_credentials() {
    let security: Security = &[&[], &["bearer"]];
    let creds = Credentials::new().with("bearer", Secret::Token("t".into()));
    assert_eq!(
        auth::select(SCHEMES, security, &creds),
        Some(&["bearer"][..])
    );
    let none = Credentials::new();
    assert_eq!(auth::select(SCHEMES, security, &none), Some(&[][..]));
    let req = applied("http://h/x", security, &none, |b| b);
    assert!(req.headers().is_empty());
}

#[test]
fn nothing_fits_sends_without_credentials() {
    // No credentials at all; a secret of the wrong kind; an unknown scheme name.
    let wrong_kind = Credentials::new().with("basic", Secret::Token("t".into()));
    let unknown = Credentials::new().with("other", Secret::Token("t".into()));
    for creds in [Credentials::new(), wrong_kind, unknown] {
        assert_eq!(
            auth::select(SCHEMES, &[&["basic"], &["other"]], &creds),
            None
        );
        let req = applied("http://h/x", &[&["basic"], &["other"]], &creds, |b| b);
        assert!(req.headers().is_empty());
        assert_eq!(req.url().query(), None);
    }
    // An operation without security sends nothing even when credentials are held.
    let creds = Credentials::new().with("bearer", Secret::Token("t".into()));
    let req = applied("http://h/x", &[], &creds, |b| b);
    assert!(req.headers().is_empty());
}

#[test]
fn invalid_secret_is_an_error_not_a_panic() {
    let creds = Credentials::new().with("bearer", Secret::Token("a\r\nInjected: yes".into()));
    let client = reqwest::Client::new();
    let mut request = client.get("http://h/x").build().unwrap();
    let err = auth::apply(&mut request, SCHEMES, &[&["bearer"]], &creds).unwrap_err();
    assert!(err.contains("bearer"), "{err}");
    assert!(
        !err.contains("Injected"),
        "the secret must not leak into the message: {err}"
    );
}

#[test]
fn debug_output_redacts_secrets() {
    let mut creds = Credentials::new()
        .with("bearer", Secret::Token("t0p-s3cret".into()))
        .with(
            "basic",
            Secret::Basic {
                user: "alice".into(),
                password: "hunter2".into(),
            },
        )
        .with("headerKey", Secret::ApiKey("k3y".into()));
    let debug = format!("{creds:?}");
    for secret in ["t0p-s3cret", "hunter2", "k3y"] {
        assert!(!debug.contains(secret), "{debug}");
    }
    assert!(
        debug.contains("bearer") && debug.contains("alice"),
        "{debug}"
    );
    assert!(!creds.is_empty());
    assert_eq!(
        creds.remove("bearer"),
        Some(Secret::Token("t0p-s3cret".into()))
    );
    assert_eq!(creds.get("bearer"), None);

    let transport = Transport::new(
        reqwest::Client::new(),
        "http://h",
        creds,
        RetryPolicy::none(),
    );
    let debug = format!("{transport:?}");
    assert!(
        !debug.contains("hunter2") && !debug.contains("k3y"),
        "{debug}"
    );
}

#[tokio::test]
async fn the_server_sees_the_credentials() {
    static OP: OperationInfo = OperationInfo {
        id: "op",
        path: "/test",
        method: Method::GET,
        idempotent: true,
        deprecated: false,
        security: &[&["queryKey", "cookieKey"]],
        idempotency_key: false,
        accept: Some("application/json"),
        content_type: "application/json",
    };
    let server = Server::start(vec![json(200, &[], "{}")]).await;
    let creds = Credentials::new()
        .with("queryKey", Secret::ApiKey("q".into()))
        .with("cookieKey", Secret::ApiKey("c".into()));
    let transport = Transport::new(
        common::direct_http(),
        &server.base_url,
        creds,
        RetryPolicy::none(),
    );
    transport
        .send(&OP, SCHEMES, |http, base| {
            http.get(format!("{base}/things?page=2"))
        })
        .await
        .unwrap();
    let request = &server.requests()[0];
    assert_eq!(request.target, "/things?page=2&api_key=q");
    assert_eq!(request.header("cookie"), Some("session=c"));
    assert_eq!(request.header("authorization"), None);
}

#[test]
fn credentials_start_empty_and_an_empty_cookie_header_is_replaced() {
    let mut creds = Credentials::new();
    assert!(creds.is_empty());
    creds.set("cookieKey", Secret::ApiKey("k".into()));
    assert!(!creds.is_empty());
    // A Cookie header without any cookie: the key is the only cookie, no stray "; ".
    let req = applied("http://h/x", &[&["cookieKey"]], &creds, |b| {
        b.header("Cookie", "")
    });
    assert_eq!(header(&req, "cookie"), Some("session=k"));
}
