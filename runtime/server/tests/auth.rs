//! Authentication: StaticKeys, credential extraction, authorize and its WWW-Authenticate
//! challenges (unit level), then the same over real HTTP through `finish`.

mod common;

use apigen_server_runtime::auth::{
    Authenticator, Credential, DenyAll, Identity, PresentedCredential, Principal, SchemeKind,
    SecurityScheme, StaticKeys, authorize, constant_time_eq, extract, identify,
};
use common::{GOOD_KEY, PRO_KEY, client, config, keys, send, serve_petstore};

static BEARER: SecurityScheme = SecurityScheme {
    name: "bearerAuth",
    kind: SchemeKind::HttpBearer,
};
static BASIC: SecurityScheme = SecurityScheme {
    name: "basicAuth",
    kind: SchemeKind::HttpBasic,
};
static KEY_QUERY: SecurityScheme = SecurityScheme {
    name: "keyQuery",
    kind: SchemeKind::ApiKeyQuery("api_key"),
};
static KEY_COOKIE: SecurityScheme = SecurityScheme {
    name: "keyCookie",
    kind: SchemeKind::ApiKeyCookie("session"),
};
static KEY_HEADER: SecurityScheme = SecurityScheme {
    name: "keyHeader",
    kind: SchemeKind::ApiKeyHeader("X-API-Key"),
};
static ALL: &[SecurityScheme] = &[BEARER, BASIC, KEY_QUERY, KEY_COOKIE, KEY_HEADER];

fn parts(uri: &str, headers: &[(&str, &str)]) -> http::request::Parts {
    let mut b = http::Request::builder().uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(()).unwrap().into_parts().0
}

fn principal(subject: &str, scheme: &'static str) -> Principal {
    Principal {
        subject: subject.into(),
        plan: None,
        scheme,
    }
}

#[test]
fn static_keys_lookup_is_exact() {
    let k = keys();
    assert_eq!(k.len(), 2);
    assert_eq!(k.lookup(GOOD_KEY), Some(("alice", None)));
    assert_eq!(k.lookup(PRO_KEY), Some(("bob", Some("pro"))));
    assert_eq!(
        k.lookup("k-good-012345678"),
        None,
        "a prefix is not the key"
    );
    assert_eq!(k.lookup(&format!("{GOOD_KEY}x")), None);
    assert_eq!(k.lookup(""), None);
    assert_eq!(StaticKeys::new().lookup(GOOD_KEY), None);
    // Several keys for one subject; the last entry matching wins nothing special: each key
    // maps to its own entry.
    let k = StaticKeys::new()
        .with_key("a", "one", None)
        .with_key("b", "two", Some("free"))
        .with_key("c", "three", None);
    assert_eq!(k.lookup("b"), Some(("two", Some("free"))));
    assert_eq!(k.lookup("c"), Some(("three", None)));
}

#[test]
fn a_key_added_twice_answers_with_the_later_entry() {
    let k = StaticKeys::new()
        .with_key("k", "first", None)
        .with_key("other", "x", None)
        .with_key("k", "second", Some("pro"));
    assert_eq!(k.lookup("k"), Some(("second", Some("pro"))));
}

thread_local! {
    /// Digest comparisons made on this thread by `counting_compare`.
    static COMPARISONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn counting_compare(a: &[u8; 32], b: &[u8; 32]) -> subtle::Choice {
    COMPARISONS.with(|c| c.set(c.get() + 1));
    constant_time_eq(a, b)
}

/// Comparisons made by `f` (through `counting_compare`).
fn comparisons(f: impl FnOnce()) -> usize {
    COMPARISONS.with(|c| c.set(0));
    f();
    COMPARISONS.with(|c| c.get())
}

#[test]
fn a_key_is_compared_with_every_entry_match_or_not() {
    // A search that stops at the first match (or compares with `==`, outside the seam) takes
    // less time the earlier the key sits in the table, which tells an attacker which keys
    // exist; every lookup must make one constant-time comparison per entry.
    let k = StaticKeys::new()
        .with_key("k-0", "zero", None)
        .with_key("k-1", "one", None)
        .with_key("k-2", "two", Some("pro"))
        .with_key("k-3", "three", None)
        .with_digest_compare(counting_compare);
    for (key, subject) in [
        ("k-0", Some("zero")),
        ("k-2", Some("two")),
        ("k-3", Some("three")),
        ("nope", None),
        ("", None),
    ] {
        let mut found = None;
        let n = comparisons(|| found = k.lookup(key).map(|(s, _)| s.to_owned()));
        assert_eq!(found.as_deref(), subject, "{key}");
        assert_eq!(n, 4, "comparisons for {key:?}");
        // The authenticator's path (what the layer calls) goes through the same comparison.
        let n = comparisons(|| {
            let answer = k.authenticate_sync(&BEARER, Credential::Bearer(key));
            assert_eq!(
                answer.flatten().map(|p| p.subject),
                subject.map(str::to_owned)
            );
        });
        assert_eq!(n, 4, "comparisons for {key:?} through authenticate_sync");
    }
    // The default comparison is the constant-time one.
    let a = [7u8; 32];
    let mut b = a;
    assert!(bool::from(constant_time_eq(&a, &b)));
    b[31] = 8;
    assert!(!bool::from(constant_time_eq(&a, &b)));
    b = a;
    b[0] = 0;
    assert!(!bool::from(constant_time_eq(&a, &b)));
}

#[test]
fn static_keys_debug_never_prints_keys() {
    let dbg = format!("{:?}", keys());
    assert!(dbg.contains("alice"), "{dbg}");
    assert!(!dbg.contains(GOOD_KEY), "{dbg}");
    assert!(!dbg.contains(PRO_KEY), "{dbg}");
    let c = Credential::Bearer(GOOD_KEY);
    assert_eq!(format!("{c:?}"), "Bearer(<redacted>)");
    let c = PresentedCredential::Basic {
        user: "u".into(),
        password: "hunter2".into(),
    };
    assert_eq!(
        format!("{c:?}"),
        r#"Basic { user: "u", password: <redacted> }"#,
        "the user shows, the password never"
    );
    let c = PresentedCredential::ApiKey(GOOD_KEY.into());
    assert_eq!(format!("{c:?}"), "ApiKey(<redacted>)");
}

#[tokio::test]
async fn static_keys_authenticates_bearer_and_api_key_not_basic() {
    let k = keys();
    let p = k.authenticate(&BEARER, Credential::Bearer(PRO_KEY)).await;
    assert_eq!(
        p,
        Some(Principal {
            subject: "bob".into(),
            plan: Some("pro".into()),
            scheme: "bearerAuth"
        })
    );
    let p = k
        .authenticate(&KEY_HEADER, Credential::ApiKey(GOOD_KEY))
        .await;
    assert_eq!(
        p.map(|p| (p.subject, p.scheme)),
        Some(("alice".into(), "keyHeader"))
    );
    let p = k
        .authenticate(
            &BASIC,
            Credential::Basic {
                user: "alice",
                password: GOOD_KEY,
            },
        )
        .await;
    assert_eq!(p, None);
    assert_eq!(
        k.authenticate(&BEARER, Credential::Bearer("nope")).await,
        None
    );
    assert_eq!(
        DenyAll
            .authenticate(&BEARER, Credential::Bearer(GOOD_KEY))
            .await,
        None
    );
}

#[test]
fn bearer_scheme_word_is_case_insensitive() {
    for header in [
        "Bearer tok",
        "bearer tok",
        "BEARER tok",
        "bEaReR   tok",
        "Bearer\ttok",
    ] {
        let got = extract(&BEARER, &parts("/", &[("authorization", header)]));
        match got {
            Some(Some(PresentedCredential::Bearer(t))) => assert_eq!(t, "tok", "{header}"),
            other => panic!("{header}: {other:?}"),
        }
    }
    // Another scheme's word is not a bearer credential at all.
    assert!(extract(&BEARER, &parts("/", &[("authorization", "Basic dTpw")])).is_none());
    assert!(extract(&BEARER, &parts("/", &[])).is_none());
    // The word alone: presented, but unusable.
    assert!(matches!(
        extract(&BEARER, &parts("/", &[("authorization", "Bearer")])),
        Some(None)
    ));
    // Surrounding spaces and tabs are not part of the token.
    match extract(
        &BEARER,
        &parts("/", &[("authorization", " \tBearer  tok \t")]),
    ) {
        Some(Some(PresentedCredential::Bearer(t))) => assert_eq!(t, "tok"),
        other => panic!("padded: {other:?}"),
    }
    // A byte over 127 anywhere in the line (not text a header may carry as such): no
    // credential, in the word as in the token.
    for line in [
        &b"Bearer t\xc3\xb6k"[..],
        b"B\xc3\xa9arer tok",
        b"Bearer tok\xff",
    ] {
        let mut p = parts("/", &[]);
        p.headers.insert(
            "authorization",
            http::HeaderValue::from_bytes(line).unwrap(),
        );
        assert!(extract(&BEARER, &p).is_none(), "{line:?}");
    }
}

#[test]
fn basic_and_api_key_extraction() {
    // "alice:s3:cret" → the password keeps its colon
    let got = extract(
        &BASIC,
        &parts("/", &[("authorization", "basic YWxpY2U6czM6Y3JldA==")]),
    );
    match got {
        Some(Some(PresentedCredential::Basic { user, password })) => {
            assert_eq!((user.as_str(), password.as_str()), ("alice", "s3:cret"));
        }
        other => panic!("{other:?}"),
    }
    // unpadded base64 of "u:p"
    assert!(matches!(
        extract(&BASIC, &parts("/", &[("authorization", "Basic dTpw")])),
        Some(Some(PresentedCredential::Basic { .. }))
    ));
    for bad in [
        "Basic !!!",
        "Basic d",
        "Basic dXNlcg==",
        "Basic dTpw===",
        "Basic dTo====",
    ] {
        // not base64 / truncated / no colon / more than two `=` of padding
        assert!(
            matches!(
                extract(&BASIC, &parts("/", &[("authorization", bad)])),
                Some(None)
            ),
            "{bad}"
        );
    }
    let q = extract(&KEY_QUERY, &parts("/x?a=1&api_key=k%2B1", &[]));
    assert!(matches!(q, Some(Some(PresentedCredential::ApiKey(k))) if k == "k+1"));
    assert!(extract(&KEY_QUERY, &parts("/x?a=1", &[])).is_none());
    let c = extract(
        &KEY_COOKIE,
        &parts("/", &[("cookie", "a=1; session=abc ; z=2")]),
    );
    assert!(matches!(c, Some(Some(PresentedCredential::ApiKey(k))) if k == "abc"));
    let h = extract(&KEY_HEADER, &parts("/", &[("x-api-key", "hk")]));
    assert!(matches!(h, Some(Some(PresentedCredential::ApiKey(k))) if k == "hk"));
}

#[tokio::test]
async fn identify_records_presented_and_valid_per_scheme() {
    let p = parts(
        "/x?api_key=wrong",
        &[("authorization", &format!("Bearer {GOOD_KEY}"))],
    );
    let id = identify(&p, ALL, &keys(), None, None).await;
    assert_eq!(
        id.principal("bearerAuth").map(|p| p.subject.as_str()),
        Some("alice")
    );
    assert!(id.presented("bearerAuth"));
    assert!(id.presented("keyQuery"));
    assert!(id.principal("keyQuery").is_none());
    assert!(!id.presented("keyCookie"));
    assert_eq!(id.principals().len(), 1);
}

#[tokio::test]
async fn identify_checks_no_credential_given_more_than_once() {
    let twice = format!("Bearer {GOOD_KEY}");
    let p = parts(
        "/x?api_key=a&api_key=b",
        &[
            ("authorization", twice.as_str()),
            ("authorization", twice.as_str()),
            ("cookie", "session=a"),
            ("cookie", "theme=dark; session=b"),
            ("x-api-key", GOOD_KEY),
            ("X-API-Key", GOOD_KEY),
        ],
    );
    let id = identify(&p, ALL, &keys(), None, None).await;
    for scheme in [
        "bearerAuth",
        "basicAuth",
        "keyQuery",
        "keyCookie",
        "keyHeader",
    ] {
        assert!(id.repeated(scheme), "{scheme}");
        assert!(id.presented(scheme), "{scheme}");
    }
    assert!(
        id.principals().is_empty(),
        "even two equal valid keys are not checked"
    );

    // once each: nothing repeated
    let p = parts(
        "/x?api_key=a&other=b",
        &[
            ("authorization", twice.as_str()),
            ("cookie", "session=a; theme=dark"),
        ],
    );
    let id = identify(&p, ALL, &keys(), None, None).await;
    assert!(ALL.iter().all(|s| !id.repeated(s.name)));
    assert_eq!(id.principals().len(), 1);
}

#[test]
fn authorize_refuses_repeated_credentials_of_the_operation_only() {
    let id = Identity::new(ALL, None, None)
        .with_repeated("bearerAuth")
        .with_repeated("keyQuery")
        .with_principal(principal("k", "keyHeader"));
    let err = authorize(Some(&id), &[&["bearerAuth"]]).unwrap_err();
    assert_eq!(
        (err.status.as_u16(), err.code.as_ref()),
        (400, "bad_request")
    );
    assert_eq!(
        err.message,
        "header/Authorization: credential given more than once; send exactly one"
    );
    // every repeated input the operation accepts is named, even when another alternative is
    // satisfied: the request is ambiguous either way
    let err = authorize(Some(&id), &[&["keyHeader"], &["keyQuery"], &["bearerAuth"]]).unwrap_err();
    let pointers: Vec<&str> = err.violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, vec!["query/api_key", "header/Authorization"]);
    // an operation that does not accept the scheme does not read it
    assert_eq!(
        authorize(Some(&id), &[&["keyHeader"]])
            .unwrap()
            .unwrap()
            .subject,
        "k"
    );
    assert_eq!(authorize(Some(&id), &[]).unwrap(), None);
}

fn www(p: &apigen_server_runtime::Problem) -> Vec<String> {
    p.headers
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

#[test]
fn authorize_requirements() {
    let none = Identity::new(ALL, None, None);
    let alice = Identity::new(ALL, None, None).with_principal(principal("alice", "bearerAuth"));

    // no security: anyone, no principal
    assert_eq!(authorize(Some(&none), &[]).unwrap(), None);
    assert_eq!(authorize(None, &[]).unwrap(), None);

    // required bearer
    let ok = authorize(Some(&alice), &[&["bearerAuth"]]).unwrap();
    assert_eq!(ok.unwrap().subject, "alice");
    let err = authorize(Some(&none), &[&["bearerAuth"]]).unwrap_err();
    assert_eq!(err.status, 401);
    assert_eq!(err.code, "unauthorized");
    assert_eq!(err.message, "authentication is required");
    assert_eq!(www(&err), vec![r#"Bearer realm="api""#]);

    // a token was presented but is not valid: error="invalid_token"
    let bad = Identity::new(ALL, None, None).with_presented("bearerAuth");
    let err = authorize(Some(&bad), &[&["bearerAuth"]]).unwrap_err();
    assert_eq!(err.message, "the credentials are not valid");
    assert_eq!(
        www(&err),
        vec![r#"Bearer realm="api", error="invalid_token""#]
    );

    // AND: both needed
    let both: apigen_server_runtime::auth::Security = &[&["bearerAuth", "keyHeader"]];
    assert!(authorize(Some(&alice), both).is_err());
    let alice2 = alice
        .clone()
        .with_principal(principal("alice-key", "keyHeader"));
    assert_eq!(
        authorize(Some(&alice2), both).unwrap().unwrap().subject,
        "alice"
    );

    // OR with anonymous: a valid credential is still reported
    let optional: apigen_server_runtime::auth::Security = &[&["bearerAuth"], &[]];
    assert_eq!(authorize(Some(&none), optional).unwrap(), None);
    assert_eq!(
        authorize(Some(&alice), optional).unwrap().unwrap().subject,
        "alice"
    );

    // OR of two schemes: the second alternative satisfies
    let either: apigen_server_runtime::auth::Security = &[&["basicAuth"], &["keyHeader"]];
    let k = Identity::new(ALL, None, None).with_principal(principal("k", "keyHeader"));
    assert_eq!(
        authorize(Some(&k), either).unwrap().unwrap().scheme,
        "keyHeader"
    );
    let err = authorize(Some(&none), either).unwrap_err();
    assert_eq!(
        www(&err),
        vec![
            r#"Basic realm="api", charset="UTF-8""#.to_owned(),
            r#"ApiKey realm="api""#.to_owned()
        ]
    );
    // without the layer (no Identity) a bearer challenge is still given
    let err = authorize(None, &[&["bearerAuth"]]).unwrap_err();
    assert_eq!(www(&err), vec![r#"Bearer realm="api""#]);
}

// ---- over HTTP ------------------------------------------------------------------------------

#[tokio::test]
async fn http_missing_wrong_and_valid_bearer() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let url = format!("{}/v1/pets", srv.base);

    let r = send(c.get(&url)).await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.problem(),
        ("unauthorized".into(), "authentication is required".into())
    );
    assert_eq!(
        r.header_all("www-authenticate"),
        vec![r#"Bearer realm="api""#]
    );

    let r = send(c.get(&url).header("authorization", "Bearer not-a-key-123")).await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header_all("www-authenticate"),
        vec![r#"Bearer realm="api", error="invalid_token""#]
    );
    assert!(!r.body.contains("not-a-key-123"));
    assert_eq!(r.problem().1, "the credentials are not valid");

    // A Basic header is not a bearer token: no error attribute.
    let r = send(c.get(&url).header("authorization", "Basic dTpw")).await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header_all("www-authenticate"),
        vec![r#"Bearer realm="api""#]
    );

    for word in ["Bearer", "bearer", "BEARER"] {
        let r = send(
            c.get(&url)
                .header("authorization", format!("{word} {GOOD_KEY}")),
        )
        .await;
        assert_eq!(r.status, 200, "{word}: {}", r.body);
        assert_eq!(r.json().as_array().unwrap().len(), 3);
    }
}

#[tokio::test]
async fn http_two_authorization_headers_are_refused_with_400() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let url = format!("{}/v1/pets", srv.base);
    let r = send(
        c.get(&url)
            .header("authorization", format!("Bearer {GOOD_KEY}"))
            .header("authorization", format!("Bearer {PRO_KEY}")),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.problem(),
        (
            "bad_request".into(),
            "header/Authorization: credential given more than once; send exactly one".into()
        )
    );
    assert!(!r.body.contains(GOOD_KEY) && !r.body.contains(PRO_KEY));
    // the same header sent once is served
    let r = send(c.get(&url).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn http_default_authenticator_denies_everyone() {
    let srv = serve_petstore(apigen_server_runtime::ServerConfig::new()).await;
    let r = send(
        client()
            .get(format!("{}/v1/pets", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some(r#"Bearer realm="api", error="invalid_token""#)
    );
}

#[tokio::test]
async fn http_alternatives_and_anonymous() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let url = format!("{}/v1/whoami", srv.base);
    let r = send(c.get(&url)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "anonymous"));
    let r = send(c.get(&url).bearer_auth(PRO_KEY)).await;
    assert_eq!(r.body, "bob via bearerAuth on pro");
    let r = send(c.get(&url).header("x-api-key", GOOD_KEY)).await;
    assert_eq!(r.body, "alice via apiKeyHeader on -");
    // an invalid credential on an operation that allows anonymous: anonymous
    let r = send(c.get(&url).bearer_auth("wrong")).await;
    assert_eq!((r.status, r.body.as_str()), (200, "anonymous"));
}

#[tokio::test]
async fn http_auth_is_checked_before_the_body() {
    let srv = serve_petstore(config().body_limit(10)).await;
    let r = send(
        client()
            .post(format!("{}/v1/pets", srv.base))
            .header("content-type", "text/plain")
            .body("x".repeat(100)),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
}

/// Answers bearer tokens at once and API keys only asynchronously; counts the async calls.
#[derive(Default)]
struct HalfSync {
    awaited: std::sync::atomic::AtomicUsize,
}

impl HalfSync {
    fn answer(scheme: &SecurityScheme, credential: Credential<'_>) -> Option<Principal> {
        let ok = matches!(
            credential,
            Credential::Bearer("t") | Credential::ApiKey("k")
        );
        ok.then(|| principal(scheme.name, "overwritten by identify"))
    }
}

impl Authenticator for HalfSync {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Principal>> + Send + 'a>> {
        self.awaited
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async move {
            tokio::task::yield_now().await;
            HalfSync::answer(scheme, credential)
        })
    }

    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        matches!(credential, Credential::Bearer(_)).then(|| HalfSync::answer(scheme, credential))
    }
}

#[tokio::test]
async fn identify_uses_synchronous_answers_and_awaits_the_rest() {
    let auth = HalfSync::default();
    let p = parts(
        "/x?api_key=k",
        &[
            ("authorization", "Bearer t"),
            ("cookie", "session=wrong"),
            ("x-api-key", "k"),
        ],
    );
    let id = identify(&p, ALL, &auth, None, None).await;
    // bearer answered synchronously; the three API keys were awaited, in scheme order
    assert_eq!(auth.awaited.load(std::sync::atomic::Ordering::SeqCst), 3);
    let valid: Vec<(&str, &str)> = id
        .principals()
        .iter()
        .map(|p| (p.scheme, p.subject.as_str()))
        .collect();
    assert_eq!(
        valid,
        vec![
            ("bearerAuth", "bearerAuth"),
            ("keyQuery", "keyQuery"),
            ("keyHeader", "keyHeader"),
        ]
    );
    assert!(id.presented("keyCookie"));
    assert!(id.principal("keyCookie").is_none());
    assert!(!id.presented("basicAuth"));

    // only synchronous answers: nothing awaited, the same identity without a future
    let p = parts("/", &[("authorization", "Bearer t")]);
    let id = apigen_server_runtime::auth::identify_sync(&p.headers, &p.uri, ALL, &auth, None, None)
        .expect("no credential needed awaiting");
    assert_eq!(
        id.principal("bearerAuth").map(|p| p.scheme),
        Some("bearerAuth")
    );
    assert_eq!(auth.awaited.load(std::sync::atomic::Ordering::SeqCst), 3);
}

#[tokio::test]
async fn an_authenticator_shared_in_an_arc_keeps_its_synchronous_answers() {
    // Applications often hand the layer an `Arc` of their authenticator: it must answer as the
    // authenticator itself does, synchronous answers included.
    let auth = std::sync::Arc::new(HalfSync::default());
    let p = parts("/x", &[("authorization", "Bearer t"), ("x-api-key", "k")]);
    let id = identify(&p, ALL, &auth, None, None).await;
    assert_eq!(
        auth.awaited.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "only the API key was awaited; the bearer token was answered at once"
    );
    assert!(id.principal("bearerAuth").is_some());
    assert!(id.principal("keyHeader").is_some());

    let shared = std::sync::Arc::new(keys());
    let p = parts("/", &[("authorization", &format!("Bearer {GOOD_KEY}"))]);
    let id = identify(&p, ALL, &shared, None, None).await;
    assert_eq!(
        id.principal("bearerAuth").map(|p| p.subject.as_str()),
        Some("alice")
    );
}

/// Implements only `authenticate` (a key store behind I/O would): no synchronous answers.
struct AsyncOnly;

impl Authenticator for AsyncOnly {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Principal>> + Send + 'a>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            matches!(credential, Credential::Bearer("t")).then(|| principal("async", scheme.name))
        })
    }
}

#[tokio::test]
async fn an_authenticator_without_synchronous_answers_is_awaited() {
    let p = parts("/", &[("authorization", "Bearer t")]);
    let id = identify(&p, ALL, &AsyncOnly, None, None).await;
    assert_eq!(
        id.principal("bearerAuth").map(|p| p.subject.as_str()),
        Some("async")
    );
    let p = parts("/", &[("authorization", "Bearer wrong")]);
    let id = identify(&p, ALL, &AsyncOnly, None, None).await;
    assert!(id.presented("bearerAuth"));
    assert!(id.principal("bearerAuth").is_none());
}

#[test]
fn deny_all_answers_without_a_future() {
    // The default authenticator refuses at once: the layer never boxes a future for it.
    let p = parts("/", &[("authorization", "Bearer t"), ("x-api-key", "k")]);
    let id =
        apigen_server_runtime::auth::identify_sync(&p.headers, &p.uri, ALL, &DenyAll, None, None)
            .expect("DenyAll answers synchronously");
    assert!(id.presented("bearerAuth"));
    assert!(id.principals().is_empty());
}

/// Accepts any Basic credential, naming the principal after the user and password it was
/// handed, so a test sees exactly what `identify` decoded.
struct EchoBasic;

impl Authenticator for EchoBasic {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Principal>> + Send + 'a>> {
        let echoed = match credential {
            Credential::Basic { user, password } => {
                Some(principal(&format!("{user}|{password}"), scheme.name))
            }
            _ => None,
        };
        Box::pin(std::future::ready(echoed))
    }
}

#[tokio::test]
async fn identify_hands_the_authenticator_the_decoded_basic_user_and_password() {
    // base64 of "u:~~>?/?": its alphabet's `+` and `/` both occur, the password a `/`.
    let p = parts("/", &[("authorization", "Basic dTp+fj4/Lz8=")]);
    let id = identify(&p, ALL, &EchoBasic, None, None).await;
    assert_eq!(
        id.principal("basicAuth").map(|p| p.subject.as_str()),
        Some("u|~~>?/?")
    );
    // "alice:s3:cret": the user ends at the first colon, the password keeps the second.
    let p = parts("/", &[("authorization", "Basic YWxpY2U6czM6Y3JldA==")]);
    let id = identify(&p, ALL, &EchoBasic, None, None).await;
    assert_eq!(
        id.principal("basicAuth").map(|p| p.subject.as_str()),
        Some("alice|s3:cret")
    );
}

#[test]
fn a_second_principal_of_the_same_scheme_replaces_the_first() {
    let id = Identity::new(ALL, None, None)
        .with_principal(principal("a", "bearerAuth"))
        .with_principal(principal("b", "bearerAuth"));
    let subjects: Vec<&str> = id.principals().iter().map(|p| p.subject.as_str()).collect();
    assert_eq!(subjects, vec!["b"]);
}

#[test]
fn an_identity_keeps_the_rate_limit_decision_and_the_rest() {
    let decision = apigen_server_runtime::ratelimit::Decision {
        allowed: true,
        limit: 10,
        remaining: 9,
        reset_unix: 60,
        retry_after_secs: None,
        banned: false,
        unavailable: false,
    };
    let id = Identity::new(ALL, None, None)
        .with_principal(principal("a", "bearerAuth"))
        .with_rate_limit(decision.clone());
    assert_eq!(id.rate_limit(), Some(&decision));
    assert_eq!(
        id.principal("bearerAuth").map(|p| p.subject.as_str()),
        Some("a")
    );
    assert_eq!(id.schemes().len(), ALL.len());
}

#[test]
fn an_identity_carries_the_runtime_handlers_use() {
    let rt = apigen_server_runtime::ServerConfig::new()
        .body_limit(123)
        .runtime();
    let id = Identity::new(ALL, None, None).with_runtime(rt);
    assert_eq!(id.runtime().map(|rt| rt.body_limit()), Some(123));
    let mut p = parts("/", &[]);
    p.extensions.insert(id);
    assert_eq!(
        apigen_server_runtime::layer::Runtime::from_parts(&p).body_limit(),
        123
    );
}

#[test]
fn an_identity_keeps_the_callers_addresses() {
    let peer: std::net::SocketAddr = "192.0.2.7:4711".parse().unwrap();
    let forwarded: std::net::IpAddr = "198.51.100.1".parse().unwrap();
    let p = parts("/", &[]);
    let id = apigen_server_runtime::auth::identify_sync(
        &p.headers,
        &p.uri,
        ALL,
        &DenyAll,
        Some(peer),
        Some(forwarded),
    )
    .expect("nothing to await");
    assert_eq!(id.client_addr(), Some(peer));
    assert_eq!(id.client_ip(), Some(forwarded));
}

#[test]
fn a_pending_identity_shows_where_it_stopped_without_the_credential() {
    let p = parts("/", &[("authorization", "Bearer secret-token")]);
    let pending =
        apigen_server_runtime::auth::identify_sync(&p.headers, &p.uri, ALL, &AsyncOnly, None, None)
            .expect_err("the bearer token is awaited");
    let shown = format!("{pending:?}");
    assert!(shown.starts_with("PendingIdentity {"), "{shown}");
    assert!(shown.contains("next: 1"), "{shown}");
    assert!(!shown.contains("secret-token"), "{shown}");
}

#[test]
fn static_keys_know_whether_they_hold_any() {
    assert!(StaticKeys::new().is_empty());
    assert_eq!(StaticKeys::new().len(), 0);
    let one = StaticKeys::new().with_key("k", "s", None);
    assert!(!one.is_empty());
    assert_eq!(one.len(), 1);
}

#[test]
fn identities_keep_scheme_order_and_presence_beyond_the_table() {
    let id = Identity::new(ALL, None, None)
        .with_principal(principal("a", "keyHeader"))
        .with_principal(principal("b", "bearerAuth"))
        .with_principal(principal("c", "keyHeader"))
        .with_presented("notInTheTable");
    let subjects: Vec<&str> = id.principals().iter().map(|p| p.subject.as_str()).collect();
    assert_eq!(
        subjects,
        vec!["b", "c"],
        "a replaced principal moves to the end"
    );
    assert!(id.presented("notInTheTable"));
    assert!(id.presented("keyHeader"));
    assert!(!id.presented("keyCookie"));
    assert!(id.rate_limit().is_none());
}
