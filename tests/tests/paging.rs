//! Pagination as streams (tests/fixtures/paging.yaml) over real HTTP on 127.0.0.1: the
//! generated server pages in the three styles the generator recognises, and each generated
//! `…_stream` method walks every page lazily, sending back what the page named.

mod common;

use paging_client::{Client, Error, RetryPolicy};
use paging_server::api::{
    AfterItemsParams, AfterItemsResponse, CursorItemsParams, CursorItemsResponse,
    DropshotItemsParams, DropshotItemsResponse, LinkItemsOkHeaders, LinkItemsParams,
    LinkItemsResponse,
};
use paging_server::{PagingApi, RequestContext, ServerConfig, types};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// Ten items, every third of kind `b`.
fn items() -> Vec<types::Item> {
    (1..=10)
        .map(|id| types::Item {
            id,
            kind: if id % 3 == 0 { "b" } else { "a" }.into(),
        })
        .collect()
}

/// The service under test; `seen` records each request's query, in order.
#[derive(Default)]
struct Shelves {
    seen: Mutex<Vec<String>>,
    /// Answer the next request for page 2 of the Link-paged shelf with a 429.
    throttle_page_2: std::sync::atomic::AtomicBool,
}

impl Shelves {
    fn record(&self, query: String) {
        self.seen.lock().unwrap().push(query);
    }
}

/// The part of `items()` from `offset`, `n` long, and the offset after it (if any).
fn window(all: &[types::Item], offset: usize, n: usize) -> (Vec<types::Item>, Option<usize>) {
    let page: Vec<_> = all.iter().skip(offset).take(n).cloned().collect();
    let next = offset + page.len();
    (page, (next < all.len()).then_some(next))
}

impl PagingApi for Shelves {
    type Error = String;

    async fn dropshot_items(
        &self,
        _ctx: &RequestContext,
        params: DropshotItemsParams,
    ) -> Result<DropshotItemsResponse, String> {
        self.record(format!(
            "limit={:?} token={:?} kind={:?}",
            params.limit, params.page_token, params.kind
        ));
        // As dropshot: the token carries the scan (here `kind:offset`), and a request with
        // both a token and scan parameters is refused.
        let (kind, offset) = match (&params.page_token, &params.kind) {
            (Some(_), Some(_)) => {
                return Ok(DropshotItemsResponse::BadRequest(types::Error {
                    code: "bad_request".into(),
                    message: "page_token and kind together".into(),
                    status: 400,
                }));
            }
            (Some(token), None) => {
                let (kind, offset) = token.split_once(':').unwrap();
                (kind.to_owned(), offset.parse().unwrap())
            }
            (None, kind) => (kind.clone().unwrap_or_default(), 0),
        };
        let all: Vec<_> = items()
            .into_iter()
            .filter(|i| kind.is_empty() || i.kind == kind)
            .collect();
        let (page, next) = window(&all, offset, params.limit.unwrap_or(3) as usize);
        Ok(DropshotItemsResponse::Ok(types::ItemResultsPage {
            items: page,
            next_page: Some(next.map(|n| format!("{kind}:{n}"))),
        }))
    }

    async fn cursor_items(
        &self,
        _ctx: &RequestContext,
        params: CursorItemsParams,
    ) -> Result<CursorItemsResponse, String> {
        self.record(format!(
            "token={:?} size={:?} kind={:?}",
            params.page_token, params.page_size, params.kind
        ));
        // A server that ignores the cursor: always the first page, always the same next.
        if params.kind.as_deref() == Some("stuck") {
            return Ok(CursorItemsResponse::Ok(types::CursorPage {
                data: Some(items()[..2].to_vec()),
                next_page_token: Some("again".into()),
            }));
        }
        let offset = params.page_token.map_or(0, |t| t.parse().unwrap());
        let (page, next) = window(&items(), offset, params.page_size.unwrap_or(4) as usize);
        Ok(CursorItemsResponse::Ok(types::CursorPage {
            data: Some(page),
            // The last page says "no more" with an empty token, as several APIs do.
            next_page_token: Some(next.map(|n| n.to_string()).unwrap_or_default()),
        }))
    }

    async fn after_items(
        &self,
        _ctx: &RequestContext,
        params: AfterItemsParams,
    ) -> Result<AfterItemsResponse, String> {
        self.record(format!("after={:?} limit={:?}", params.after, params.limit));
        let all = items();
        let offset = params.after.map_or(0, |id| {
            all.iter().position(|i| i.id.to_string() == id).unwrap() + 1
        });
        let (page, next) = window(&all, offset, params.limit.unwrap_or(4) as usize);
        let id = |i: Option<&types::Item>| i.map(|i| i.id.to_string()).unwrap_or_default();
        Ok(AfterItemsResponse::Ok(types::AfterPage {
            object: "list".into(),
            first_id: id(page.first()),
            last_id: id(page.last()),
            has_more: next.is_some(),
            data: page,
        }))
    }

    async fn link_items(
        &self,
        _ctx: &RequestContext,
        params: LinkItemsParams,
    ) -> Result<LinkItemsResponse, String> {
        self.record(format!(
            "shelf={} page={:?} per_page={:?}",
            params.shelf, params.page, params.per_page
        ));
        if params.shelf != "main" {
            return Ok(LinkItemsResponse::NotFound(types::Error {
                code: "not_found".into(),
                message: format!("no shelf {}", params.shelf),
                status: 404,
            }));
        }
        let per_page = params.per_page.unwrap_or(3) as usize;
        let page = params.page.unwrap_or(1) as usize;
        if page == 2
            && self
                .throttle_page_2
                .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            return Err("slow down".into());
        }
        let (items, next) = window(&items(), (page - 1) * per_page, per_page);
        // Absolute links on another host, with a parameter the operation does not document:
        // only the documented query parameters are taken from them.
        let link = next.map(|_| {
            format!(
                "<https://paging.example/v1/link/main/items?page={}&per_page={per_page}&utm=x>; rel=\"next\", <https://paging.example/v1/link/main/items?page=1>; rel=\"first\"",
                page + 1
            )
        });
        Ok(LinkItemsResponse::Ok(items, LinkItemsOkHeaders { link }))
    }

    /// The throttled page: a 429 with `Retry-After: 1`, as a rate limiter would answer.
    fn handle_error(&self, _ctx: &RequestContext, _error: String) -> paging_server::Problem {
        paging_server::Problem::too_many_requests(1, false)
    }
}

async fn serve() -> (SocketAddr, Arc<Shelves>) {
    let shelves = Arc::new(Shelves::default());
    let app = paging_server::router(shelves.clone(), ServerConfig::new());
    (common::spawn(app).await, shelves)
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(format!("http://{addr}/v1"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

fn ids(items: &[paging_client::types::Item]) -> Vec<i64> {
    items.iter().map(|i| i.id).collect()
}

fn seen(shelves: &Shelves) -> Vec<String> {
    shelves.seen.lock().unwrap().clone()
}

#[tokio::test]
async fn dropshot_style_sends_the_token_and_the_limit_only() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    let options = paging_client::client::DropshotItemsOptions::default()
        .with_limit(2)
        .with_kind("a".to_string());
    let all = client
        .dropshot_items_stream(options)
        .collect_all()
        .await
        .unwrap();
    assert_eq!(ids(&all), [1, 2, 4, 5, 7, 8, 10]);
    assert_eq!(
        seen(&shelves),
        [
            "limit=Some(2) token=None kind=Some(\"a\")",
            "limit=Some(2) token=Some(\"a:2\") kind=None",
            "limit=Some(2) token=Some(\"a:4\") kind=None",
            "limit=Some(2) token=Some(\"a:6\") kind=None",
        ]
    );
}

#[tokio::test]
async fn a_cursor_field_is_sent_back_with_the_other_options_and_pages_are_fetched_lazily() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    // ANCHOR: stream
    let options = paging_client::client::CursorItemsOptions::default()
        .with_page_size(4)
        .with_kind("any".to_string());
    let mut stream = client.cursor_items_stream(options);
    // The first item fetches one page, no more.
    assert_eq!(stream.next().await.unwrap().unwrap().id, 1);
    // ANCHOR_END: stream
    assert_eq!(seen(&shelves).len(), 1);
    for _ in 2..=4 {
        stream.next().await.unwrap().unwrap();
    }
    assert_eq!(
        seen(&shelves).len(),
        1,
        "items 2 to 4 come from the same page"
    );
    let mut rest = Vec::new();
    while let Some(item) = stream.next().await {
        rest.push(item.unwrap().id);
    }
    assert_eq!(rest, [5, 6, 7, 8, 9, 10]);
    assert_eq!(
        seen(&shelves),
        [
            "token=None size=Some(4) kind=Some(\"any\")",
            "token=Some(\"4\") size=Some(4) kind=Some(\"any\")",
            "token=Some(\"8\") size=Some(4) kind=Some(\"any\")",
        ]
    );
    assert!(stream.next().await.is_none(), "ended streams stay ended");
}

#[tokio::test]
async fn the_last_id_is_sent_back_as_after_while_there_is_more() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    let all = client
        .after_items_stream(paging_client::client::AfterItemsOptions::default().with_limit(4))
        .collect_all()
        .await
        .unwrap();
    assert_eq!(ids(&all), (1..=10).collect::<Vec<_>>());
    assert_eq!(
        seen(&shelves),
        [
            "after=None limit=Some(4)",
            "after=Some(\"4\") limit=Some(4)",
            "after=Some(\"8\") limit=Some(4)",
        ]
    );
}

#[tokio::test]
async fn a_server_that_ignores_the_cursor_does_not_loop_forever() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    let options =
        paging_client::client::CursorItemsOptions::default().with_kind("stuck".to_string());
    let all = client
        .cursor_items_stream(options)
        .collect_all()
        .await
        .unwrap();
    // The first page names "again"; the second names "again" again: that is the end.
    assert_eq!(ids(&all), [1, 2, 1, 2]);
    assert_eq!(seen(&shelves).len(), 2);
}

#[tokio::test]
async fn the_link_headers_next_target_sets_the_documented_query_parameters() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    let options = paging_client::client::LinkItemsOptions::default().with_per_page(4);
    let all = client
        .link_items_stream("main", options)
        .collect_all()
        .await
        .unwrap();
    assert_eq!(ids(&all), (1..=10).collect::<Vec<_>>());
    assert_eq!(
        seen(&shelves),
        [
            "shelf=main page=None per_page=Some(4)",
            "shelf=main page=Some(2) per_page=Some(4)",
            "shelf=main page=Some(3) per_page=Some(4)",
        ]
    );
}

#[tokio::test]
async fn a_page_answered_429_is_retried_like_any_call() {
    let (addr, shelves) = serve().await;
    shelves
        .throttle_page_2
        .store(true, std::sync::atomic::Ordering::SeqCst);
    // The default retry policy: a 429 waits for its Retry-After (1 s) and tries again.
    let client = Client::builder(format!("http://{addr}/v1"))
        .build()
        .unwrap();
    let all = client
        .link_items_stream("main", Default::default())
        .collect_all()
        .await
        .unwrap();
    assert_eq!(ids(&all), (1..=10).collect::<Vec<_>>());
    let pages: Vec<String> = seen(&shelves);
    assert_eq!(
        pages.iter().filter(|q| q.contains("page=Some(2)")).count(),
        2,
        "page 2 asked twice: {pages:?}"
    );
}

#[tokio::test]
async fn an_error_answer_is_yielded_once_and_ends_the_stream() {
    let (addr, shelves) = serve().await;
    let client = client(addr);
    let mut stream = client.link_items_stream("attic", Default::default());
    match stream.next().await {
        Some(Err(Error::Api { status, body, .. })) => {
            assert_eq!(status.as_u16(), 404);
            assert!(
                matches!(body, paging_client::client::LinkItemsError::NotFound(ref e) if e.message == "no shelf attic"),
                "{body:?}"
            );
        }
        other => panic!("expected the 404, got {other:?}"),
    }
    assert!(stream.next().await.is_none());
    assert_eq!(seen(&shelves).len(), 1);
}

#[tokio::test]
async fn the_stream_is_a_futures_stream() {
    // Callers with a stream library use it as one (`futures_core::Stream`), polled here by hand.
    use futures_core::Stream;
    use std::pin::Pin;
    let (addr, _) = serve().await;
    let client = client(addr);
    let mut stream = client.link_items_stream("main", Default::default());
    let mut count = 0;
    while let Some(item) = std::future::poll_fn(|cx| Pin::new(&mut stream).poll_next(cx)).await {
        item.unwrap();
        count += 1;
    }
    assert_eq!(count, 10);
}
