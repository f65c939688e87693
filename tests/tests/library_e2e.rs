//! The second document (tests/fixtures/library.yaml) end to end over loopback: API-key auth in
//! a header, array/boolean/number query parameters, typed response headers, a discriminated
//! oneOf, allOf, a 204 and a `default` response, through the generated server and client.

mod common;

use library_client::client::{
    GetBooksIsbnError, LendBookError, SearchBooksOkHeaders as ClientHeaders, SearchBooksOptions,
};
use library_client::{Client, Error, RetryPolicy};
use library_server::api::{
    GetBooksIsbnParams, GetBooksIsbnResponse, LendBookParams, LendBookResponse,
    SearchBooksOkHeaders, SearchBooksParams, SearchBooksResponse, WithdrawBookParams,
    WithdrawBookResponse,
};
use library_server::runtime::ratelimit::Decision;
use library_server::{
    InMemoryRateLimiter, LendingLibraryApi, Quota, RateLimiter, RequestContext, ServerConfig,
    StaticKeys, types,
};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const KEY: &str = "library-key";

struct Library;

fn book(isbn: &str, format: types::Format) -> types::Book {
    types::Book {
        isbn: isbn.into(),
        title: format!("Book {isbn}"),
        authors: vec![types::Author {
            id: "00000000-0000-4000-8000-0000000000a1".parse().unwrap(),
            name: "Ann".into(),
            address: Some(types::Address {
                street: "1 Main St".into(),
                city: "Springfield".into(),
                postcode: None,
            }),
            born: None,
        }],
        format,
        pages: Some(120),
        rating: Some(4.5),
        r#type: Some("novel".into()),
        tags: None,
        metadata: None,
        series: None,
    }
}

impl LendingLibraryApi for Library {
    type Error = String;

    async fn search_books(
        &self,
        _ctx: &RequestContext,
        params: SearchBooksParams,
    ) -> Result<SearchBooksResponse, String> {
        let formats = params.format.clone().unwrap_or_default();
        let books: Vec<types::Book> = [
            book("1", types::Format::EBook),
            book("2", types::Format::V1stEdition),
        ]
        .into_iter()
        .filter(|b| formats.is_empty() || formats.contains(&b.format))
        .collect();
        let headers = SearchBooksOkHeaders {
            x_total_count: books.len() as i64,
            x_formats: Some(formats),
        };
        Ok(SearchBooksResponse::Ok(books, headers))
    }

    async fn get_books_isbn(
        &self,
        _ctx: &RequestContext,
        params: GetBooksIsbnParams,
    ) -> Result<GetBooksIsbnResponse, String> {
        Ok(if params.isbn == "a/b c" {
            GetBooksIsbnResponse::Ok(book(&params.isbn, types::Format::Hardcover))
        } else {
            GetBooksIsbnResponse::NotFound(types::Problem {
                code: "not_found".into(),
                message: "no such book".into(),
                status: 404,
            })
        })
    }

    async fn withdraw_book(
        &self,
        _ctx: &RequestContext,
        _params: WithdrawBookParams,
    ) -> Result<WithdrawBookResponse, String> {
        Ok(WithdrawBookResponse::NoContent)
    }

    async fn lend_book(
        &self,
        _ctx: &RequestContext,
        params: LendBookParams,
        body: types::LoanRequest,
    ) -> Result<LendBookResponse, String> {
        if body.isbn == "taken" {
            return Ok(LendBookResponse::Conflict(types::Problem {
                code: "conflict".into(),
                message: "already lent".into(),
                status: 409,
            }));
        }
        Ok(LendBookResponse::Created(types::Loan {
            isbn: body.isbn,
            member: body.member,
            notes: body.notes,
            due: "2030-01-01T00:00:00Z".parse().unwrap(),
            id: params.member_id * 10,
            returned: Some(false),
        }))
    }
}

async fn serve() -> SocketAddr {
    let config =
        ServerConfig::new().authenticator(StaticKeys::new().with_key(KEY, "librarian", None));
    let app = library_server::router(std::sync::Arc::new(Library), config);
    common::spawn(app).await
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(format!("http://{addr}/api/v2"))
        .library_key(KEY)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

#[tokio::test]
async fn query_arrays_and_typed_headers() {
    let addr = serve().await;
    let client = client(addr);
    let found = client
        .search_books_with(SearchBooksOptions {
            format: Some(vec![library_client::types::Format::EBook]),
            available: Some(true),
            min_rating: Some(1.5),
            x_request_id: Some("req-1".into()),
        })
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].format, library_client::types::Format::EBook);
    assert_eq!(found[0].r#type.as_deref(), Some("novel"));
    let headers = ClientHeaders::from_headers(found.headers());
    assert_eq!(headers.x_total_count, Some(1));
    assert_eq!(
        headers.x_formats,
        Some(vec![library_client::types::Format::EBook])
    );

    let all = client.search_books().await.unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].format.as_str(), "1st-edition");
}

#[tokio::test]
async fn path_encoding_204_and_typed_errors() {
    let addr = serve().await;
    let client = client(addr);
    let book = client.get_books_isbn("a/b c").await.unwrap();
    assert_eq!(
        book.isbn, "a/b c",
        "the path parameter was percent-encoded and decoded"
    );
    match client.get_books_isbn("nope").await.unwrap_err() {
        Error::Api {
            body: GetBooksIsbnError::NotFound(p),
            ..
        } => assert_eq!(p.code, "not_found"),
        other => panic!("expected a typed 404, got {other:?}"),
    }
    let withdrawn = client.withdraw_book("1").await.unwrap();
    assert_eq!(withdrawn.status().as_u16(), 204);

    let anonymous = Client::builder(format!("http://{addr}/api/v2"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    let refused = anonymous.withdraw_book("1").await.unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(401));
}

#[tokio::test]
async fn discriminated_one_of_round_trips() {
    let addr = serve().await;
    let client = client(addr);
    let child = library_client::types::Member::Child(library_client::types::Child {
        kind: "child".into(),
        name: "Tim".into(),
        guardian: "Ann".into(),
    });
    let loan = client
        .lend_book(
            7,
            &library_client::types::LoanRequest {
                isbn: "1".into(),
                member: child.clone(),
                notes: Some([("shelf".to_owned(), "B2".to_owned())].into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(loan.status().as_u16(), 201);
    assert_eq!(loan.id, 70);
    assert_eq!(loan.member, child);
    assert_eq!(loan.notes.as_ref().map(|n| n["shelf"].as_str()), Some("B2"));

    let taken = client
        .lend_book(
            7,
            &library_client::types::LoanRequest {
                isbn: "taken".into(),
                member: child,
                notes: None,
            },
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            taken,
            Error::Api {
                body: LendBookError::Conflict(_),
                ..
            }
        ),
        "{taken:?}"
    );

    // A member whose `kind` names no variant is a 400 naming the field.
    let http = common::raw_http();
    let response = http
        .post(format!("http://{addr}/api/v2/members/7/loans"))
        .header("x-library-key", KEY)
        .header("content-type", "application/json")
        .body(r#"{"isbn": "1", "member": {"kind": "robot", "name": "R2"}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let text = response.text().await.unwrap();
    assert!(text.contains("robot"), "{text}");

    // `notes` holds one or two entries (`minProperties`, `maxProperties` on a map).
    for (notes, expected) in [
        ("{}", "must have at least 1 properties, got 0"),
        (
            r#"{"a": "1", "b": "2", "c": "3"}"#,
            "must have at most 2 properties, got 3",
        ),
    ] {
        let response = http
            .post(format!("http://{addr}/api/v2/members/7/loans"))
            .header("x-library-key", KEY)
            .header("content-type", "application/json")
            .body(format!(
                r#"{{"isbn": "1", "member": {{"kind": "adult", "name": "Al"}}, "notes": {notes}}}"#
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{notes}");
        let text = response.text().await.unwrap();
        assert!(text.contains("/notes") && text.contains(expected), "{text}");
    }

    // memberId has minimum 1.
    let response = http
        .post(format!("http://{addr}/api/v2/members/0/loans"))
        .header("x-library-key", KEY)
        .header("content-type", "application/json")
        .body(r#"{"isbn": "1", "member": {"kind": "adult", "name": "Al"}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let text = response.text().await.unwrap();
    assert!(text.contains("path/memberId"), "{text}");
}

#[test]
fn one_of_serialization_keeps_the_tag() {
    let adult = library_client::types::Member::Adult(library_client::types::Adult {
        kind: "adult".into(),
        name: "Al".into(),
    });
    let json = serde_json::to_value(&adult).unwrap();
    assert_eq!(json["kind"], "adult");
    let back: library_client::types::Member = serde_json::from_value(json).unwrap();
    assert_eq!(back, adult);
    // Without its tag: the server refuses it; the client keeps it (forward compatibility).
    let err =
        serde_json::from_str::<library_server::types::Member>(r#"{"name": "x"}"#).unwrap_err();
    assert!(err.to_string().contains("kind"), "{err}");
    let kept = serde_json::from_str::<library_client::types::Member>(r#"{"name": "x"}"#).unwrap();
    assert_eq!(
        kept,
        library_client::types::Member::Unknown(serde_json::json!({"name": "x"}))
    );
}

// ---- The document's x-rate-limit, every value read --------------------------------------------

/// The in-memory limiter on a fixed clock, 10 s into a UTC minute (and early in a day), so
/// the windows cannot roll over while a test runs.
struct FixedClock(InMemoryRateLimiter);

impl RateLimiter for FixedClock {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        _now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        let now = UNIX_EPOCH + Duration::from_secs(1_900_000_000 / 86_400 * 86_400 + 3_610);
        Box::pin(std::future::ready(self.0.check_now(key, quota, now)))
    }
}

const LIBRARIAN_KEY: &str = "librarian-key";

async fn serve_rate_limited() -> SocketAddr {
    let policy = library_server::rate_limit_policy();
    let limiter = FixedClock(InMemoryRateLimiter::for_policy(&policy));
    let config = ServerConfig::new()
        .authenticator(StaticKeys::new().with_key(KEY, "member", None).with_key(
            LIBRARIAN_KEY,
            "head",
            Some("librarian"),
        ))
        .rate_limit(limiter, policy);
    common::spawn(library_server::router(std::sync::Arc::new(Library), config)).await
}

/// Status, `X-RateLimit-Limit`, `Retry-After` and the error code of `GET /books` sent with `key`.
async fn books(addr: SocketAddr, key: Option<&str>) -> (u16, String, Option<String>, String) {
    let mut request = common::raw_http().get(format!("http://{addr}/api/v2/books"));
    if let Some(key) = key {
        request = request.header("x-library-key", key);
    }
    let response = request.send().await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let limit = header("x-ratelimit-limit").unwrap_or_default();
    let retry_after = header("retry-after");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let code = body["code"].as_str().unwrap_or_default().to_owned();
    (status, limit, retry_after, code)
}

#[test]
fn the_policy_is_the_documents() {
    let policy = library_server::rate_limit_policy();
    let plans: Vec<(&str, u32, u32)> = policy
        .plans
        .iter()
        .map(|(name, q)| (name.as_str(), q.per_minute, q.per_day))
        .collect();
    assert_eq!(
        plans,
        [
            ("librarian", 500, 70_000),
            ("member", 5, 400),
            ("visitor", 2, 30)
        ]
    );
    assert_eq!(policy.anonymous_plan, "visitor");
    assert_eq!(policy.default_plan, "member");
    assert_eq!(policy.ban_strikes, 3);
    assert_eq!(policy.ban, Duration::from_secs(75));
}

#[tokio::test]
async fn plans_anonymous_plan_and_ban_come_from_the_document() {
    let addr = serve_rate_limited().await;
    // Anonymous callers: the `visitor` plan (2 a minute), even on the 401.
    let (status, limit, _, _) = books(addr, None).await;
    assert_eq!((status, limit.as_str()), (401, "2"));
    // A key with a named plan: that plan.
    let (status, limit, _, _) = books(addr, Some(LIBRARIAN_KEY)).await;
    assert_eq!((status, limit.as_str()), (200, "500"));
    // A key without a plan: `defaultPlan`, 5 a minute.
    for _ in 0..5 {
        let (status, limit, _, _) = books(addr, Some(KEY)).await;
        assert_eq!((status, limit.as_str()), (200, "5"));
    }
    // Refused: the first refusal and `strikes - 1` more are plain 429s; the refusal that
    // makes `strikes` further ones bans the key for `seconds`.
    for _ in 0..3 {
        let (status, _, retry_after, code) = books(addr, Some(KEY)).await;
        assert_eq!((status, code.as_str()), (429, "rate_limited"));
        assert_eq!(retry_after.as_deref(), Some("50"));
    }
    let (status, _, retry_after, code) = books(addr, Some(KEY)).await;
    assert_eq!((status, code.as_str()), (429, "banned"));
    assert_eq!(retry_after.as_deref(), Some("75"));
}
