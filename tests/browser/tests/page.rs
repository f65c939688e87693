//! The pet store page (`examples/petstore-web`), and the document's page the service serves
//! (`/openapi.html`), in headless Chromium, driven through WebDriver
//! (chromedriver) as a person would use it: add an animal with the form and see it in the
//! list, filter by status, read the rate-limit state, see the server's 401 message for a wrong
//! key. The page and the reference service are served here on two loopback origins (the
//! service allows exactly the page's), and a screenshot is kept under `target/`.
//!
//! Ignored in `cargo test --workspace`: it needs the page built for wasm32 and Chromium with
//! its driver. `scripts/browser-test.sh` builds the page and runs it with `--ignored`;
//! `PETSTORE_WEB_DIR` names the built page, `CHROMEDRIVER` and `CHROMIUM` the programs
//! (default `chromedriver` on PATH and `/usr/bin/chromium`).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use petstore_service::petstore_server::Cors;
use petstore_service::{PetStore, Plan, config, router, spawn_with};
use serde_json::{Value, json};

const KEY: &str = "page-test-key";

/// How long the page may take to show what a step expects: generous, the machine is shared.
const PATIENCE: Duration = Duration::from_secs(30);

/// The document's page (`ServerConfig::serve_document`), opened as a person would: it reads
/// the document from the same server, with nothing from elsewhere (Chromium here has no
/// network beyond loopback), and lists every operation.
#[tokio::test]
#[ignore = "needs Chromium and chromedriver: scripts/browser-test.sh"]
async fn the_documents_page_lists_its_operations() {
    let config = config([(KEY, Plan::Free)]).serve_document("/openapi");
    let service = spawn_with(router(Arc::new(PetStore::new()), config.clone()), &config)
        .await
        .unwrap();
    let root = service.base_url().trim_end_matches("/v1").to_owned();
    let spec: Value = serde_json::from_str(
        &reqwest::Client::builder()
            .no_proxy()
            .build()
            .unwrap()
            .get(format!("{root}/openapi.json"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    )
    .unwrap();
    let ids: Vec<String> = spec["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op["operationId"].as_str().map(str::to_owned))
        .collect();

    let browser = Browser::start().await;
    browser.go(&format!("{root}/openapi.html")).await;
    let status = browser
        .wait_text("#status", |t| t.ends_with("operations."))
        .await;
    assert_eq!(status, format!("{} operations.", ids.len()));
    let listed = browser.text("#operations").await;
    for id in &ids {
        assert!(listed.contains(id.as_str()), "{id} in {listed}");
    }
    assert!(listed.contains("/pets/{petId}"), "{listed}");
    browser.quit().await;
}

#[tokio::test]
#[ignore = "needs the page built for wasm32, Chromium and chromedriver: scripts/browser-test.sh"]
async fn add_a_pet_filter_the_list_and_see_a_wrong_keys_message() {
    let dir = PathBuf::from(std::env::var_os("PETSTORE_WEB_DIR").expect(
        "PETSTORE_WEB_DIR names the built page (scripts/petstore-web.sh --build-only makes it)",
    ));
    assert!(
        dir.join("index.html").is_file() && dir.join("pkg").is_dir(),
        "{} holds no built page",
        dir.display()
    );

    // The page on one origin, the service on another allowing exactly that one.
    let page = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let page_origin = format!("http://{}", page.local_addr().unwrap());
    tokio::spawn(async move {
        let files = axum::Router::new()
            .fallback(static_file)
            .with_state(Arc::new(dir));
        axum::serve(page, files).await.unwrap();
    });
    let cors = Cors::builder().allow_origin(&page_origin).build().unwrap();
    let config = config([(KEY, Plan::Enterprise)]).cors(cors);
    let service = spawn_with(router(Arc::new(PetStore::new()), config.clone()), &config)
        .await
        .unwrap();
    let api = service.base_url();

    let browser = Browser::start().await;
    browser
        .go(&format!("{page_origin}/?api={api}&key={KEY}"))
        .await;

    // The first listing ran on load: the rate-limit line shows the exposed X-RateLimit-*.
    let line = browser
        .wait_text("#rate-limit", |t| t.contains(" requests left"))
        .await;
    let (remaining, limit) = rate_limit_numbers(&line);
    assert!(remaining < limit, "{line}");

    // Add an animal with the form.
    browser.type_into("#name", "Page Biscuit").await;
    browser.click("#new-status option[value=pending]").await;
    browser.click("#add").await;
    let notice = browser
        .wait_text("#notice", |t| t.starts_with("Added #"))
        .await;
    assert!(notice.ends_with(" Page Biscuit"), "{notice}");
    browser
        .wait_text("#pets", |t| t.contains("Page Biscuit"))
        .await;
    let after = browser
        .wait_text("#rate-limit", |t| {
            t.contains(" requests left") && rate_limit_numbers(t).0 < remaining
        })
        .await;
    assert_eq!(rate_limit_numbers(&after).1, limit, "{after}");

    // The page really added it on the service.
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let listed = http
        .get(format!("{api}/pets?status=pending&limit=100"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let listed: Value = serde_json::from_slice(&listed.bytes().await.unwrap()).unwrap();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "Page Biscuit"),
        "{listed}"
    );

    // The status filter: gone from "sold", back with "pending".
    browser.click("#status-filter option[value=sold]").await;
    browser
        .wait_text("#pets", |t| !t.contains("Page Biscuit"))
        .await;
    browser.click("#status-filter option[value=pending]").await;
    browser
        .wait_text("#pets", |t| t.contains("Page Biscuit"))
        .await;

    // A wrong key: the page shows the server's own 401 message.
    let refused = http
        .get(format!("{api}/pets"))
        .bearer_auth("not-the-key")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let refused: Value = serde_json::from_slice(&refused.bytes().await.unwrap()).unwrap();
    let expected = format!(
        "401 {}: {}",
        refused["code"].as_str().unwrap(),
        refused["message"].as_str().unwrap()
    );
    browser.clear("#key").await;
    browser.type_into("#key", "not-the-key").await;
    browser.click("#refresh").await;
    let error = browser.wait_text("#error", |t| !t.is_empty()).await;
    assert_eq!(error, expected);

    let shot = browser.screenshot().await;
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("petstore-web.png");
    std::fs::write(&path, &shot).unwrap();
    println!("screenshot: {}", path.display());
    assert!(shot.starts_with(b"\x89PNG"), "not a PNG");

    browser.quit().await;
    service.shutdown().await.unwrap();
}

/// `(remaining, limit)` from "Rate limit: R of L requests left…".
fn rate_limit_numbers(line: &str) -> (u64, u64) {
    let rest = line
        .strip_prefix("Rate limit: ")
        .unwrap_or_else(|| panic!("{line}"));
    let mut words = rest.split(' ');
    let remaining = words.next().and_then(|w| w.parse().ok());
    let of = words.next();
    let limit = words.next().and_then(|w| w.parse().ok());
    match (remaining, of, limit) {
        (Some(r), Some("of"), Some(l)) => (r, l),
        _ => panic!("not a rate-limit line: {line}"),
    }
}

/// Serves the built page's files (index.html, pkg/*.js, pkg/*.wasm) with their media types;
/// `application/wasm` lets the browser compile the module while it downloads.
async fn static_file(State(dir): State<Arc<PathBuf>>, request: Request) -> Response {
    let path = request.uri().path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.'))
    {
        return StatusCode::NOT_FOUND.into_response();
    }
    let media_type = match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    };
    // A few small files, read once each: blocking the runtime for that is harmless.
    match std::fs::read(dir.join(path)) {
        Ok(bytes) => ([(header::CONTENT_TYPE, media_type)], bytes).into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

/// One headless Chromium session through chromedriver's W3C WebDriver protocol; the driver
/// process is killed when this is dropped, whatever happened.
struct Browser {
    http: reqwest::Client,
    /// `http://127.0.0.1:PORT/session/ID`
    session: String,
    driver: Child,
    /// Chromium's profile for this run, removed with the session.
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The W3C name of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    async fn start() -> Browser {
        let driver_path = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        // A free port for the driver (it cannot be handed a listening socket).
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {driver_path}: {e}"));
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let base = format!("http://127.0.0.1:{port}");
        // A fresh profile for every run; the flags keep Chromium off the network (a closed
        // network refuses its background connections) and out of a sandbox (it runs as root
        // in CI).
        // One profile per browser: the tests of this file may run at once.
        static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-profile-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut browser = Browser {
            http,
            session: String::new(),
            driver,
            profile,
        };

        let started = Instant::now();
        loop {
            let ready = match browser.http.get(format!("{base}/status")).send().await {
                Ok(r) => r.status().is_success(),
                Err(_) => false,
            };
            if ready {
                break;
            }
            assert!(started.elapsed() < PATIENCE, "{driver_path} never answered");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        let capabilities = json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": chromium,
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--window-size=900,800",
                        format!("--user-data-dir={}", browser.profile.display()),
                    ],
                },
            }},
        });
        let answer = browser
            .call(
                reqwest::Method::POST,
                &format!("{base}/session"),
                capabilities,
            )
            .await;
        let id = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"));
        browser.session = format!("{base}/session/{id}");
        browser
    }

    /// One WebDriver command; an error answer fails the test with the driver's message.
    async fn call(&self, method: reqwest::Method, url: &str, body: Value) -> Value {
        let mut request = self.http.request(method, url);
        if !body.is_null() {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let answer: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert!(status.is_success(), "WebDriver {url}: {status} {answer}");
        answer["value"].clone()
    }

    async fn command(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        self.call(method, &format!("{}{path}", self.session), body)
            .await
    }

    async fn go(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", json!({ "url": url }))
            .await;
    }

    async fn find(&self, css: &str) -> String {
        let found = self
            .command(
                reqwest::Method::POST,
                "/element",
                json!({ "using": "css selector", "value": css }),
            )
            .await;
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {found}"))
            .to_owned()
    }

    async fn click(&self, css: &str) {
        let id = self.find(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{id}/click"),
            json!({}),
        )
        .await;
    }

    async fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{id}/value"),
            json!({ "text": text }),
        )
        .await;
    }

    async fn clear(&self, css: &str) {
        let id = self.find(css).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{id}/clear"),
            json!({}),
        )
        .await;
    }

    async fn text(&self, css: &str) -> String {
        let id = self.find(css).await;
        let text = self
            .command(
                reqwest::Method::GET,
                &format!("/element/{id}/text"),
                Value::Null,
            )
            .await;
        text.as_str().unwrap_or_default().to_owned()
    }

    /// Waits until the text of `css` satisfies `done` (the page answers asynchronously), and
    /// returns it; fails with the last text seen after [`PATIENCE`].
    async fn wait_text(&self, css: &str, done: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let text = self.text(css).await;
            if done(&text) {
                return text;
            }
            if started.elapsed() > PATIENCE {
                let error = self.text("#error").await;
                panic!("{css} still reads {text:?} (the page's error line: {error:?})");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn screenshot(&self) -> Vec<u8> {
        let png = self
            .command(reqwest::Method::GET, "/screenshot", Value::Null)
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap()
    }

    async fn quit(&self) {
        self.command(reqwest::Method::DELETE, "", Value::Null).await;
    }
}
