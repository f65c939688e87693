//! The pagination stream (`Pages`) on its own, with scripted fetches instead of a server: what
//! each fetch is given, when it is made (lazily), how the stream ends (a last page, a page that
//! names the same next page again, an error yielded once), and the stream's faces
//! (`next`, `collect_all`, `futures_core::Stream`, `Debug`). The generated `…_stream` methods
//! over real HTTP are tested in `tests/tests/paging.rs`.

// `Error<E>` keeps status, headers and body (see the runtime's response.rs).
#![allow(clippy::result_large_err)]

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use apigen_client_runtime::error::Error;
use apigen_client_runtime::pages::{Page, Pages};
use futures_core::Stream;

type Answer = Result<Page<u32>, Error<()>>;
type Fetching = Pin<Box<dyn Future<Output = Answer> + Send + 'static>>;
type Log = Arc<Mutex<Vec<Option<String>>>>;

/// A stream whose fetches answer from `answers`, in order, recording what each was given.
fn scripted(answers: Vec<Answer>) -> (Pages<'static, u32, ()>, Log) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let mut answers = VecDeque::from(answers);
    let pages = Pages::new(move |cursor: Option<String>| {
        log.lock().unwrap().push(cursor);
        let answer = answers
            .pop_front()
            .expect("fetched more pages than the test scripted");
        Box::pin(async move { answer }) as Fetching
    });
    (pages, asked)
}

fn page(items: &[u32], next: Option<&str>) -> Answer {
    Ok(Page {
        items: items.to_vec(),
        next: next.map(str::to_owned),
    })
}

fn asked(log: &Log) -> Vec<Option<String>> {
    log.lock().unwrap().clone()
}

fn some(cursor: &str) -> Option<String> {
    Some(cursor.to_owned())
}

#[tokio::test]
async fn pages_are_fetched_lazily_each_with_the_cursor_the_page_before_named() {
    let (mut pages, log) = scripted(vec![
        page(&[1, 2], Some("b")),
        page(&[], Some("c")), // an empty page that names a next one does not end the stream
        page(&[3], None),
    ]);
    assert!(
        asked(&log).is_empty(),
        "nothing is fetched before the first item is asked for"
    );
    assert_eq!(pages.next().await.unwrap().unwrap(), 1);
    assert_eq!(asked(&log), [None]);
    assert_eq!(pages.next().await.unwrap().unwrap(), 2);
    assert_eq!(
        asked(&log),
        [None],
        "the second page waits until the first is used up"
    );
    assert_eq!(pages.next().await.unwrap().unwrap(), 3);
    assert_eq!(asked(&log), [None, some("b"), some("c")]);
    assert!(pages.next().await.is_none());
    assert!(pages.next().await.is_none(), "the end stays the end");
    assert_eq!(asked(&log).len(), 3, "no fetch after the last page");
}

#[tokio::test]
async fn a_page_naming_the_same_next_page_again_ends_the_stream() {
    let (pages, log) = scripted(vec![
        page(&[1], Some("a")),
        page(&[2], Some("b")),
        page(&[3], Some("b")), // a server ignoring the cursor
    ]);
    assert_eq!(pages.collect_all().await.unwrap(), [1, 2, 3]);
    assert_eq!(asked(&log), [None, some("a"), some("b")]);
}

#[tokio::test]
async fn an_error_is_yielded_once_and_ends_the_stream() {
    let (mut pages, log) = scripted(vec![
        page(&[1], Some("a")),
        Err(Error::InvalidRequest("boom".into())),
    ]);
    assert_eq!(pages.next().await.unwrap().unwrap(), 1);
    match pages.next().await {
        Some(Err(Error::InvalidRequest(m))) => assert_eq!(m, "boom"),
        other => panic!("expected the fetch's error, got {other:?}"),
    }
    assert!(pages.next().await.is_none());
    assert_eq!(asked(&log), [None, some("a")], "no fetch after the error");
}

#[tokio::test]
async fn collect_all_gathers_every_page_or_returns_the_first_error() {
    let (pages, _) = scripted(vec![page(&[1, 2], Some("x")), page(&[3, 4], None)]);
    assert_eq!(pages.collect_all().await.unwrap(), [1, 2, 3, 4]);
    let (pages, _) = scripted(vec![
        page(&[1], Some("x")),
        Err(Error::InvalidRequest("second page".into())),
    ]);
    match pages.collect_all().await {
        Err(Error::InvalidRequest(m)) => assert_eq!(m, "second page"),
        other => panic!("expected the second page's error, got {other:?}"),
    }
}

#[test]
fn it_is_a_futures_stream_that_waits_for_a_pending_fetch() {
    // The first fetch is pending until the test lets it finish.
    let gate: Arc<Mutex<Option<Answer>>> = Arc::new(Mutex::new(None));
    let open = gate.clone();
    let mut calls = 0;
    let mut pages: Pages<'static, u32, ()> = Pages::new(move |_cursor| {
        calls += 1;
        let gate = gate.clone();
        let mut answer = (calls > 1).then(|| page(&[9], None));
        Box::pin(std::future::poll_fn(move |_cx| {
            match answer.take().or_else(|| gate.lock().unwrap().take()) {
                Some(answer) => Poll::Ready(answer),
                None => Poll::Pending,
            }
        })) as Fetching
    });
    let mut cx = Context::from_waker(Waker::noop());
    let mut poll = |pages: &mut Pages<'static, u32, ()>| match Pin::new(pages).poll_next(&mut cx) {
        Poll::Pending => "pending".to_string(),
        Poll::Ready(None) => "end".to_string(),
        Poll::Ready(Some(Ok(n))) => n.to_string(),
        Poll::Ready(Some(Err(e))) => format!("error {e}"),
    };
    assert_eq!(poll(&mut pages), "pending");
    assert_eq!(
        format!("{pages:?}"),
        "Pages { ready: 0, next: Some(None), fetching: true }"
    );
    assert_eq!(poll(&mut pages), "pending");
    *open.lock().unwrap() = Some(page(&[7, 8], Some("n")));
    assert_eq!(poll(&mut pages), "7");
    assert_eq!(
        format!("{pages:?}"),
        r#"Pages { ready: 1, next: Some(Some("n")), fetching: false }"#
    );
    assert_eq!(poll(&mut pages), "8");
    assert_eq!(poll(&mut pages), "9");
    assert_eq!(poll(&mut pages), "end");
    assert_eq!(
        format!("{pages:?}"),
        "Pages { ready: 0, next: None, fetching: false }"
    );
}

#[test]
fn a_page_keeps_the_items_of_a_required_field() {
    let page = Page::new(vec![4, 5], "next".to_string());
    assert_eq!(page.items, [4, 5]);
    assert_eq!(page.next.as_deref(), Some("next"));
}
