//! What the runtime's own layers allocate per request, counted by a global allocator around the
//! system one. A route registered as generated routers register theirs (`layer::operation`)
//! behind `finish_prefixed`'s layers (the gate with `StaticKeys` and the in-memory limiter, and
//! CORS) must not allocate anything past the allocator's per-thread cache.
//!
//! The regression this guards against is structural, not a timing: an
//! `axum::middleware::from_fn` layer (its boxed future was 1,152 bytes in release, past glibc's
//! per-thread cache of 1,032, so every request took the allocator's slow path), an axum
//! handler's own boxed `async` block, or a layer that copies its configuration per request
//! (the instruction counts are in `cargo xtask bench`). The operation here is small on purpose,
//! so a document's shapes (how large its bodies and parameters are) do not move the figures;
//! `cargo xtask bench` has the pet store's.
//!
//! One test in this binary: the counter is process-wide.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use apigen_server_runtime as runtime;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use axum::routing;
use http::{StatusCode, header};
use runtime::layer::{self, Runtime, ServerConfig};
use runtime::{Cors, auth, response};
use tower_service::Service;

/// The largest single allocation allowed on the request path: glibc's per-thread cache
/// (`tcache`, 64-bit) holds blocks up to 1,032 bytes; a larger one takes the slow path of
/// `malloc` on every request. (The largest now, in a debug build, is 624 bytes.)
const LARGEST: usize = 1032;

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static SEEN_LARGEST: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            COUNT.fetch_add(1, Ordering::Relaxed);
            SEEN_LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    // A growing buffer (a response body) is not one allocation of its final size.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const ORIGIN: &str = "https://app.example";

/// A secured operation in the generated handler's shape: the runtime from the request, the
/// requirement, a JSON answer.
async fn who(_state: Arc<()>, req: Request) -> Response {
    let (parts, _body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let result = auth::authorize_scheme(parts.extensions.get(), &[&["bearerAuth"]])
        .and_then(|_| response::json(StatusCode::OK, &[1, 2, 3]));
    rt.reply(result, &[("deprecation", "@1795305600")])
}

fn router(rate_limit: bool, cors: bool) -> axum::Router {
    let routes = axum::Router::new().route(
        "/who",
        routing::get_service(layer::operation(&Arc::new(()), who)),
    );
    let mut config = ServerConfig::new().authenticator(common::keys());
    if rate_limit {
        config = config.rate_limit_in_memory(common::free_plan_policy(1_000_000, 1_000_000));
    }
    if cors {
        config = config.cors(Cors::builder().allow_origin(ORIGIN).build().unwrap());
    }
    layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
}

fn request(cors: bool) -> Request {
    let mut builder = http::Request::get("/who")
        .header(header::HOST, "127.0.0.1")
        .header(
            header::AUTHORIZATION,
            format!("Bearer {}", common::GOOD_KEY),
        );
    if cors {
        builder = builder.header(header::ORIGIN, ORIGIN);
    }
    let mut req = builder.body(Body::empty()).unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    req
}

/// Requests built first (their allocations are not the router's), then sent and read with the
/// counter on: the largest single allocation and the allocations per request.
async fn measure(router: &mut axum::Router, cors: bool) -> (usize, usize) {
    const N: usize = 50;
    // Warm-up: first-use caches (parsed header descriptors, the limiter's entry).
    for _ in 0..5 {
        let resp = router.call(request(cors)).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
    }
    let requests: Vec<_> = (0..N).map(|_| request(cors)).collect();
    let mut statuses = Vec::with_capacity(N);
    SEEN_LARGEST.store(0, Ordering::SeqCst);
    COUNT.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    for req in requests {
        let resp = router.call(req).await.unwrap();
        statuses.push(resp.status());
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .unwrap();
        std::hint::black_box(body);
    }
    COUNTING.store(false, Ordering::SeqCst);
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    (
        SEEN_LARGEST.load(Ordering::SeqCst),
        COUNT.load(Ordering::SeqCst) / N,
    )
}

#[test]
fn the_layers_make_no_large_allocation_per_request() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for (rate_limit, cors) in [(false, false), (true, false), (true, true)] {
            let mut app = router(rate_limit, cors);
            let (largest, per_request) = measure(&mut app, cors).await;
            println!(
                "limiter {rate_limit:<5} cors {cors:<5}: largest allocation {largest} bytes, {per_request} allocations a request"
            );
            assert!(
                largest <= LARGEST,
                "limiter {rate_limit}, cors {cors}: an allocation of {largest} bytes on the request path (at most {LARGEST} expected)"
            );
        }
        // With a subscriber, each request's span is made and its fields recorded (`observe`):
        // what that adds, printed beside the rows above. (Not held to `LARGEST`: the registry
        // grows its span slab by pages of several kilobytes, once, not per request.)
        tracing::subscriber::set_global_default(tracing_subscriber::registry()).unwrap();
        let mut app = router(true, true);
        let (largest, per_request) = measure(&mut app, true).await;
        println!(
            "limiter true  cors true , a subscriber: largest allocation {largest} bytes, {per_request} allocations a request"
        );
    });
}
