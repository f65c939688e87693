//! Paginated operations as one lazy stream of items ([`Pages`]): the generated `…_stream`
//! method fetches a page, yields its items one by one, and fetches the next page only when
//! the caller has taken them all. Every page is an ordinary call of the operation, so it
//! goes through the transport like any other: credentials, retries, `Retry-After`, the
//! rate-limit state.
//!
//! How the next page is found is the generated code's business (a cursor field of the body,
//! dropshot's `next_page`, a `Link: <…>; rel="next"` header); here it is an opaque string
//! handed back to the generated closure. The stream ends after a page without a next one,
//! after an error (yielded once), or when a page names the same next page as the one before
//! (a server that ignores the cursor would otherwise be asked for the same page forever).
//!
//! Decision: `docs/decisions/0015-client-query-pages-headers-declared.md`.

// `Error<E>` keeps status, headers and body; see response.rs for why it is not boxed.
#![allow(clippy::result_large_err)]

use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;
use http::HeaderMap;

use super::error::Error;
use super::response::ResponseValue;

/// One page: its items, and what the next request needs (`None`: this was the last page).
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The page's items.
    pub items: Vec<T>,
    /// What the next page's request needs (a cursor, a URL, a page number); `None`: last page.
    pub next: Option<String>,
}

impl<T> Page<T> {
    /// A page from the fields of a response body, however optional the document made them
    /// (`Vec<T>` or `Option<Vec<T>>`; `String`, `Option<String>` or `Option<Option<String>>`).
    /// An empty next cursor means no next page, as the APIs that send `""` mean it.
    pub fn new(items: impl IntoItems<T>, next: impl IntoNext) -> Self {
        Self {
            items: items.into_items(),
            next: next.into_next().filter(|n| !n.is_empty()),
        }
    }
}

/// The items of a page as a body field holds them.
pub trait IntoItems<T> {
    /// The items, as a `Vec`.
    fn into_items(self) -> Vec<T>;
}

impl<T> IntoItems<T> for Vec<T> {
    fn into_items(self) -> Vec<T> {
        self
    }
}

impl<T> IntoItems<T> for Option<Vec<T>> {
    fn into_items(self) -> Vec<T> {
        self.unwrap_or_default()
    }
}

/// The next cursor as a body field holds it.
pub trait IntoNext {
    /// The cursor, if there is one.
    fn into_next(self) -> Option<String>;
}

impl IntoNext for String {
    fn into_next(self) -> Option<String> {
        Some(self)
    }
}

impl IntoNext for Option<String> {
    fn into_next(self) -> Option<String> {
        self
    }
}

impl IntoNext for Option<Option<String>> {
    fn into_next(self) -> Option<String> {
        self.flatten()
    }
}

/// Whether a body says there is another page, as a field holds it (`bool` or `Option<bool>`;
/// absent means no).
pub trait IntoMore {
    /// Whether there is another page.
    fn into_more(self) -> bool;
}

impl IntoMore for bool {
    fn into_more(self) -> bool {
        self
    }
}

impl IntoMore for Option<bool> {
    fn into_more(self) -> bool {
        self.unwrap_or(false)
    }
}

/// The next cursor while `more` says there is a next page (openai's `has_more` and
/// `last_id`), else none.
pub fn when(more: impl IntoMore, next: impl IntoNext) -> Option<String> {
    if more.into_more() {
        next.into_next()
    } else {
        None
    }
}

#[cfg(not(target_arch = "wasm32"))]
type PageFuture<'a, T, E> = Pin<Box<dyn Future<Output = Result<Page<T>, Error<E>>> + Send + 'a>>;
// Browser futures are not `Send`.
#[cfg(target_arch = "wasm32")]
type PageFuture<'a, T, E> = Pin<Box<dyn Future<Output = Result<Page<T>, Error<E>>> + 'a>>;

#[cfg(not(target_arch = "wasm32"))]
type Fetch<'a, T, E> = Box<dyn FnMut(Option<String>) -> PageFuture<'a, T, E> + Send + 'a>;
#[cfg(target_arch = "wasm32")]
type Fetch<'a, T, E> = Box<dyn FnMut(Option<String>) -> PageFuture<'a, T, E> + 'a>;

/// The items of every page of a paginated operation, fetched lazily; `E` is the operation's
/// error enum. A `futures_core::Stream`, with an inherent `next().await` so that no stream
/// library is needed to read it.
pub struct Pages<'a, T, E> {
    fetch: Fetch<'a, T, E>,
    ready: VecDeque<T>,
    /// What the next fetch is given: `Some(None)` before the first page, `Some(Some(c))`
    /// for a later one, `None` once the last page (or an error) has been seen.
    next: Option<Option<String>>,
    pending: Option<PageFuture<'a, T, E>>,
}

impl<'a, T, E> Pages<'a, T, E> {
    /// A stream that calls `fetch(None)` for the first page and `fetch(Some(next))` for each
    /// following one, `next` being what the page before named.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(fetch: impl FnMut(Option<String>) -> PageFuture<'a, T, E> + Send + 'a) -> Self {
        Self::from_boxed(Box::new(fetch))
    }

    /// A stream that calls `fetch(None)` for the first page and `fetch(Some(next))` for each
    /// following one, `next` being what the page before named.
    #[cfg(target_arch = "wasm32")]
    pub fn new(fetch: impl FnMut(Option<String>) -> PageFuture<'a, T, E> + 'a) -> Self {
        Self::from_boxed(Box::new(fetch))
    }

    /// The stream of a generated `…_stream` method: each page is `call(options)`, the
    /// options of every page after the first set from what the page before named
    /// (`set_next`), each answer read into a page by `read` (its items, and where the next
    /// page is named). [`follow_link`] and [`link_page`] are the `Link` header's pair.
    pub fn from_calls<O, B, Fut>(
        options: O,
        set_next: fn(&mut O, String),
        mut call: impl FnMut(O) -> Fut + MaybeSend + 'a,
        read: fn(ResponseValue<B>) -> Page<T>,
    ) -> Self
    where
        O: Clone + MaybeSend + 'a,
        Fut: Future<Output = Result<ResponseValue<B>, Error<E>>> + MaybeSend + 'a,
        B: 'a,
        T: 'a,
        E: 'a,
    {
        Self::from_boxed(Box::new(
            move |next: Option<String>| -> PageFuture<'a, T, E> {
                let mut options = options.clone();
                if let Some(next) = next {
                    set_next(&mut options, next);
                }
                let answer = call(options);
                Box::pin(async move { Ok(read(answer.await?)) })
            },
        ))
    }

    fn from_boxed(fetch: Fetch<'a, T, E>) -> Self {
        Self {
            fetch,
            ready: VecDeque::new(),
            next: Some(None),
            pending: None,
        }
    }

    /// The next item, fetching the next page when this one is used up; `None` at the end.
    pub async fn next(&mut self) -> Option<Result<T, Error<E>>> {
        poll_fn(|cx| self.poll_item(cx)).await
    }

    /// Every remaining item, or the first error.
    pub async fn collect_all(mut self) -> Result<Vec<T>, Error<E>> {
        let mut all = Vec::new();
        while let Some(item) = self.next().await {
            all.push(item?);
        }
        Ok(all)
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, Error<E>>>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Poll::Ready(Some(Ok(item)));
            }
            if let Some(fetching) = self.pending.as_mut() {
                let outcome = match fetching.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(outcome) => outcome,
                };
                self.pending = None;
                match outcome {
                    Ok(page) => {
                        let asked = self.next.take().flatten();
                        self.ready.extend(page.items);
                        // The same next page again would be fetched forever.
                        self.next = page.next.filter(|n| Some(n) != asked.as_ref()).map(Some);
                    }
                    Err(error) => {
                        self.next = None;
                        return Poll::Ready(Some(Err(error)));
                    }
                }
                continue;
            }
            match self.next.clone() {
                None => return Poll::Ready(None),
                Some(cursor) => self.pending = Some((self.fetch)(cursor)),
            }
        }
    }
}

impl<T, E> std::fmt::Debug for Pages<'_, T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("ready", &self.ready.len())
            .field("next", &self.next)
            .field("fetching", &self.pending.is_some())
            .finish()
    }
}

// No item is ever pinned (they are only moved in and out of the queue; the fetches are
// boxed), so the stream may move while in use; that also gives it `next(&mut self)`.
impl<T, E> Unpin for Pages<'_, T, E> {}

impl<T, E> Stream for Pages<'_, T, E> {
    type Item = Result<T, Error<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_item(cx)
    }
}

/// `Send` where futures are sent between threads; nothing in a browser, whose futures are
/// not `Send`.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + ?Sized> MaybeSend for T {}
/// `Send` where futures are sent between threads; nothing in a browser, whose futures are
/// not `Send`.
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T: ?Sized> MaybeSend for T {}

/// Options a `Link` target's query parameters can set: the fields `request::parameters!`
/// marks `next` (those `str::parse` reads back from a link's text).
pub trait Follow {
    /// Sets the option the query parameter `name` stands for to `value`; any other name
    /// is left alone.
    fn follow(&mut self, name: &str, value: &str);
}

/// Sets `options` from the query of a `Link` target, pair by pair.
pub fn follow_link<O: Follow>(options: &mut O, next: String) {
    for (name, value) in query_pairs(&next) {
        options.follow(&name, &value);
    }
}

/// A page of a body that is the list itself, the next page the `Link` header's
/// `rel="next"` target.
pub fn link_page<T, B: IntoItems<T>>(response: ResponseValue<B>) -> Page<T> {
    let next = link_next(response.headers());
    Page::new(response.into_inner(), next)
}

/// The target of the `Link` header's `rel="next"` link (RFC 8288), as api.github.com and
/// others page: `Link: <https://api.example/items?page=2>; rel="next", <…>; rel="last"`.
pub fn link_next(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(http::header::LINK)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|link| {
            let (target, params) = link.trim().split_once(';')?;
            let target = target.trim().strip_prefix('<')?.strip_suffix('>')?;
            let next = params.split(';').any(|p| {
                let Some((name, value)) = p.split_once('=') else {
                    return false;
                };
                name.trim().eq_ignore_ascii_case("rel")
                    && value
                        .trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("next"))
            });
            next.then(|| target.to_owned())
        })
}

/// The decoded query parameters of a URL (`…?page=2&per_page=30` → `page`=`2`, …), for
/// setting the options of the next page's call from a `Link` target.
pub fn query_pairs(url: &str) -> Vec<(String, String)> {
    let Some((_, query)) = url.split_once('?') else {
        return Vec::new();
    };
    let query = query.split('#').next().unwrap_or("");
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect()
}

/// `+` is a space and `%XX` a byte, as in `application/x-www-form-urlencoded`.
fn decode(text: &str) -> String {
    let text = text.replace('+', " ");
    percent_encoding::percent_decode_str(&text)
        .decode_utf8_lossy()
        .into_owned()
}
