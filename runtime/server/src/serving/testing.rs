//! Owns [`TestServer`]: a generated router served on a free loopback port for as long as a test
//! holds it. This is how a team that calls the API through the generated client fakes the API
//! in its own tests: implement the server trait with the typed answers the test needs (the
//! operations it leaves out answer 501), and point the client at [`TestServer::base_url`].
//!
//! A real server rather than a mocked transport, on purpose: the fake speaks HTTP as the real
//! service does (authentication, parameter and body checks, error bodies, rate-limit and
//! deprecation headers), so what passes against it is what the client will meet; and the test
//! needs no seam in the client.

use std::io;
use std::net::{Ipv4Addr, SocketAddr};

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use super::layer::ServerConfig;
use super::serve::serve;

/// A generated router served on `127.0.0.1` at a port the system picked; it stops when
/// dropped (requests in flight finish first).
///
/// Generated server crates start one with `test_server(api, config)`, which knows the
/// document's base path.
#[derive(Debug)]
pub struct TestServer {
    addr: SocketAddr,
    base_url: String,
    stop: Option<oneshot::Sender<()>>,
}

impl TestServer {
    /// Serves `app` (a generated `router(..)` built with `config`) on a free loopback port,
    /// in a task of the current tokio runtime. `base_path` is the path the routes live under
    /// (the generated `BASE_PATH`, or `ServerConfig::base_path`), so that
    /// [`base_url`](Self::base_url) is what a generated client is built with.
    pub async fn start(app: Router, config: &ServerConfig, base_path: &str) -> io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let config = config.clone();
        tokio::spawn(async move {
            // A dropped sender also ends the wait: the server stops with its test.
            let shutdown = async {
                let _ = stopped.await;
            };
            if let Err(e) = serve(listener, app, &config, shutdown).await {
                tracing::error!(%addr, error = %e, "test server stopped");
            }
        });
        Ok(Self {
            addr,
            base_url: format!("http://{addr}{}", base_path.trim_end_matches('/')),
            stop: Some(stop),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT` followed by the base path: what a generated client is built
    /// with (`Client::builder(server.base_url())`).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
