//! What the generated router allocates per request, counted by a global allocator around the
//! system one: no single allocation over glibc's per-thread cache (1,032 bytes; past it, every
//! request takes the allocator's slow path), for the three requests the bench measures, with the
//! rate limiter off and on and with CORS on.
//!
//! The regression this guards against is structural, not a timing: an `axum::middleware::from_fn`
//! layer, an axum handler's own boxed `async` block, or a large future kept in the request path
//! (issue 15: they cost 1,000 to 2,500 instructions a request). The instruction counts are in
//! `cargo xtask bench`; this test only needs the allocator's view, which is exact.
//!
//! One test in this binary: the counter is process-wide.

use std::alloc::{GlobalAlloc, Layout, System};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, header};
use petstore_server::Cors;
use petstore_server::ServerConfig;
use petstore_server::types::NewPet;
use petstore_service::{PetStore, Plan, static_keys};
use tower_service::Service;

/// glibc's largest per-thread cached size (`tcache`, 64-bit): 1,032 bytes.
const TCACHE_MAX: usize = 1032;

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            COUNT.fetch_add(1, Ordering::Relaxed);
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    // A growing buffer (a response body) is not a new allocation of its final size: not
    // counted, as the bench's histogram does not count it either.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const KEY: &str = "allocations-test-key-0123456789abcdef";
const ORIGIN: &str = "https://app.example";

fn router(rate_limit: bool, cors: bool) -> axum::Router {
    let store = PetStore::new();
    for i in 0..40 {
        store.add(NewPet::new(format!("pet-{i}"), i % 7));
    }
    let mut config = ServerConfig::new().authenticator(static_keys([(KEY, Plan::Enterprise)]));
    if rate_limit {
        config = config.rate_limit_in_memory(petstore_server::rate_limit_policy());
    }
    if cors {
        config = config.cors(Cors::builder().allow_origin(ORIGIN).build().unwrap());
    }
    petstore_service::router(Arc::new(store), config)
}

fn request(which: usize, n: usize, cors: bool) -> Request<Body> {
    let (method, uri, body) = match which {
        0 => (Method::GET, "/v1/pets?limit=20".to_owned(), ""),
        1 => (
            Method::POST,
            "/v1/pets".to_owned(),
            r#"{"name":"Rex","categoryId":7,"status":"available"}"#,
        ),
        _ => (Method::GET, format!("/v1/pets/{}", n % 40 + 1), ""),
    };
    let mut builder = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1")
        .header(header::AUTHORIZATION, format!("Bearer {KEY}"))
        .header(header::CONTENT_TYPE, "application/json");
    if cors {
        builder = builder.header(header::ORIGIN, ORIGIN);
    }
    let mut req = builder.body(Body::from(body)).unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    req
}

/// Requests built first (their allocations are not the router's), then sent and read with the
/// counter on: the largest single allocation and the allocations per request.
async fn measure(router: &mut axum::Router, which: usize, cors: bool) -> (usize, usize) {
    const N: usize = 50;
    // Warm-up: first-use caches (parsed header descriptors, the limiter's map entry).
    for n in 0..5 {
        let resp = router.call(request(which, n, cors)).await.unwrap();
        assert!(resp.status().is_success(), "{}", resp.status());
    }
    let requests: Vec<_> = (0..N).map(|n| request(which, n, cors)).collect();
    let mut statuses = Vec::with_capacity(N);
    LARGEST.store(0, Ordering::SeqCst);
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
    assert!(statuses.iter().all(|s| s.is_success()), "{statuses:?}");
    (
        LARGEST.load(Ordering::SeqCst),
        COUNT.load(Ordering::SeqCst) / N,
    )
}

#[test]
fn no_request_allocates_past_the_allocators_cache() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for (rate_limit, cors) in [(false, false), (true, false), (true, true)] {
            let mut app = router(rate_limit, cors);
            for (which, name) in ["list", "create", "get"].iter().enumerate() {
                let (largest, per_request) = measure(&mut app, which, cors).await;
                println!(
                    "{name:<6} limiter {rate_limit:<5} cors {cors:<5}: largest allocation {largest} bytes, {per_request} allocations a request"
                );
                assert!(
                    largest <= TCACHE_MAX,
                    "{name} (limiter {rate_limit}, cors {cors}): an allocation of {largest} bytes on the request path, past glibc's per-thread cache ({TCACHE_MAX})"
                );
            }
        }
    });
}
