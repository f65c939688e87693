//! What the end-to-end tests share: serving a generated router on a free loopback port.

use std::net::SocketAddr;

/// Serves `app` on 127.0.0.1 (a free port), with the peer address available to the
/// rate limiter, for the rest of the test.
#[allow(dead_code)] // not every test binary that shares this module serves a bare router
pub async fn spawn(app: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    addr
}

/// A plain HTTP client for requests the generated client cannot make (malformed bodies and
/// the like). It ignores `HTTP_PROXY` and friends: the servers are on loopback.
#[allow(dead_code)] // not every test binary that shares this module sends raw requests
pub fn raw_http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}
