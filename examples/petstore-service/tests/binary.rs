//! The binary itself: `--help`, refused options, serving on the address it prints, the demo
//! key, and a graceful stop on SIGINT/SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_petstore-service");

#[test]
fn help_prints_usage() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Usage: petstore-service [--addr HOST:PORT] [--api-key KEY=PLAN]..."));
    assert!(text.contains("free, pro, business"));
}

/// Without the `otlp` feature the flag is refused, not ignored: spans the operator asked for
/// would silently go nowhere.
#[cfg(not(feature = "otlp"))]
#[test]
fn otlp_endpoint_needs_the_feature() {
    let out = Command::new(BIN)
        .args(["--in-memory", "--otlp-endpoint", "http://127.0.0.1:4318"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--features otlp"), "{err}");
}

#[test]
fn bad_options_exit_2_with_a_message() {
    for (args, part) in [
        (&["--api-key", "k=gold"][..], r#"unknown plan "gold""#),
        (&["--addr", "nowhere"][..], "expected HOST:PORT"),
        (&["--verbose"][..], r#"unknown option "--verbose""#),
        (
            &["--cors-origin", "http://localhost:8000/"][..],
            "--cors-origin: CORS: `http://localhost:8000/` is not an origin",
        ),
        (
            &["--cors-origin", "*", "--cors-origin", "http://a.example"][..],
            "cannot be combined with named origins",
        ),
        (&["--head-timeout", "-1"][..], "expected seconds"),
        (
            &["--log-format", "xml"][..],
            "--log-format: `xml` is neither text nor json",
        ),
        (
            &["--max-connections", "many"][..],
            "expected a whole number",
        ),
        (
            &["--otlp-endpoint", "collector:4318"][..],
            "expected an http:// or https:// URL",
        ),
    ] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(part), "{args:?}: {err}");
        assert!(err.contains("--help"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

struct Service {
    child: Child,
    lines: Vec<String>,
    addr: String,
}

/// Starts the binary on a free port, pets in memory, and reads what it prints up to the
/// address line.
fn start(args: &[&str]) -> Service {
    start_in(&["--in-memory"], args, None)
}

/// [`start`] with `storage` options, in the directory `dir` (else the test's).
fn start_in(storage: &[&str], args: &[&str], dir: Option<&std::path::Path>) -> Service {
    let mut command = Command::new(BIN);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(["--addr", "127.0.0.1:0"])
        .args(storage)
        .args(args)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut reader = BufReader::new(stdout);
    let mut lines = Vec::new();
    let mut addr = None;
    // The banner, printed right after binding, ends with the keys line (given keys) or the
    // curl hint (demo key).
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        let line = line.trim().to_owned();
        if let Some(url) = line.strip_prefix("petstore-service listening on http://") {
            addr = Some(url.trim_end_matches("/v1").to_owned());
        }
        let last = line.starts_with("try: curl") || line.contains("API key(s)");
        lines.push(line);
        if last {
            break;
        }
    }
    let addr = addr.unwrap_or_else(|| panic!("no address in {lines:?}"));
    Service { child, lines, addr }
}

/// One HTTP/1.1 request over a plain socket; returns (status, head, body).
fn get(addr: &str, path: &str, key: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    // A guard against a hang, not a speed requirement: generous for a loaded machine.
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// One HTTP/1.1 request with extra header lines, over a plain socket; returns (status, head).
fn request(addr: &str, head: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(s, "{head}\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, _) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase())
}

/// Sends `signal` and waits (at most 30 s: a hang guard, generous for a loaded machine) for
/// the process to exit; returns its status and stderr.
fn stop(mut svc: Service, signal: &str) -> (ExitStatus, String) {
    let pid = svc.child.id().to_string();
    let killed = Command::new("kill").args([signal, &pid]).status().unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = svc.child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            svc.child.kill().unwrap();
            panic!("the service did not stop within 30 s of {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    svc.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

#[cfg(unix)]
#[test]
fn serves_the_given_keys_and_stops_on_sigint() {
    let svc = start(&["--api-key", "bin-key-1=pro", "--api-key", "bin-key-2=free"]);
    assert!(
        svc.lines.iter().all(|l| !l.contains("bin-key")),
        "keys given on the command line are not printed: {:?}",
        svc.lines
    );
    assert_eq!(
        svc.lines[1],
        "pets kept in memory (lost when the service stops)"
    );
    assert_eq!(svc.lines.last().unwrap(), "2 API key(s), plans: pro, free");

    let (status, head, body) = get(&svc.addr, "/v1/pets", "bin-key-1");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, "[]");
    assert!(head.contains("x-ratelimit-limit: 300"), "{head}");
    let (status, head, _) = get(&svc.addr, "/v1/pets/1", "bin-key-2");
    assert_eq!(status, 404);
    assert!(head.contains("x-ratelimit-limit: 60"), "{head}");
    assert!(head.contains("deprecation: @1795305600"), "{head}");
    let (status, _, body) = get(&svc.addr, "/v1/pets", "demo-nope");
    assert_eq!(status, 401, "{body}");

    let addr = svc.addr.clone();
    let (status, log) = stop(svc, "-INT");
    assert!(status.success(), "{status:?}: {log}");
    assert!(log.contains("shutting down"), "{log}");
    assert!(
        log.contains("petstore_service::access"),
        "one line per request: {log}"
    );
    assert!(!log.contains("bin-key"), "keys never reach the log: {log}");
    assert!(TcpStream::connect(&addr).is_err(), "still listening");
}

#[cfg(unix)]
#[test]
fn without_keys_a_demo_free_key_is_made_and_printed() {
    let svc = start(&[]);
    let key_line = svc
        .lines
        .iter()
        .find(|l| l.starts_with("demo API key"))
        .unwrap_or_else(|| panic!("{:?}", svc.lines));
    let key = key_line.rsplit(' ').next().unwrap().to_owned();
    assert!(key.starts_with("demo-"), "{key_line}");
    assert!(
        svc.lines
            .iter()
            .any(|l| l.starts_with("try: curl") && l.contains(&key)),
        "{:?}",
        svc.lines
    );

    let (status, head, body) = get(&svc.addr, "/v1/store/orders", &key);
    assert_eq!(status, 200, "{body}");
    assert!(head.contains("x-ratelimit-limit: 60"), "free plan: {head}");

    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
    assert!(log.contains("stopped"), "{log}");
}

#[cfg(unix)]
#[test]
fn cors_origins_answer_preflights_and_expose_the_rate_limit_headers() {
    let svc = start(&[
        "--cors-origin",
        "http://localhost:8000",
        "--cors-origin=http://127.0.0.1:8000",
        "--api-key",
        "cors-key=free",
    ]);
    assert!(
        svc.lines.iter().any(|l| l
            == "CORS: pages from http://localhost:8000, http://127.0.0.1:8000 may call the service"),
        "{:?}",
        svc.lines
    );
    // the preflight a browser sends before `GET /v1/pets` with a bearer key
    let (status, head) = request(
        &svc.addr,
        "OPTIONS /v1/pets HTTP/1.1\r\nOrigin: http://127.0.0.1:8000\r\n\
         Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: authorization",
    );
    assert_eq!(status, 204, "{head}");
    assert!(
        head.contains("access-control-allow-origin: http://127.0.0.1:8000"),
        "{head}"
    );
    assert!(head.contains("authorization"), "{head}");
    // the preflight before the generated client's `POST /v1/pets`: it sends an
    // Idempotency-Key (the spec's parameter), which must be allowed, or no animal can be
    // added from a browser
    let (status, head) = request(
        &svc.addr,
        "OPTIONS /v1/pets HTTP/1.1\r\nOrigin: http://127.0.0.1:8000\r\n\
         Access-Control-Request-Method: POST\r\n\
         Access-Control-Request-Headers: authorization,content-type,idempotency-key",
    );
    assert_eq!(status, 204, "{head}");
    let allowed = head
        .lines()
        .find_map(|l| l.strip_prefix("access-control-allow-headers: "))
        .unwrap_or_else(|| panic!("{head}"));
    for h in ["authorization", "content-type", "idempotency-key"] {
        assert!(
            allowed.split(',').any(|a| a.trim() == h),
            "{h} in {allowed}"
        );
    }
    assert!(
        head.contains("access-control-allow-methods: get,post"),
        "{head}"
    );
    // a refused request is readable by the page, rate-limit headers included
    let (status, head) = request(
        &svc.addr,
        "GET /v1/pets HTTP/1.1\r\nOrigin: http://localhost:8000\r\nAuthorization: Bearer nope",
    );
    assert_eq!(status, 401, "{head}");
    assert!(
        head.contains("access-control-allow-origin: http://localhost:8000"),
        "{head}"
    );
    let exposed = head
        .lines()
        .find_map(|l| l.strip_prefix("access-control-expose-headers: "))
        .unwrap_or_else(|| panic!("{head}"));
    for h in [
        "x-ratelimit-remaining",
        "retry-after",
        "www-authenticate",
        "deprecation",
        "idempotent-replayed",
    ] {
        assert!(exposed.contains(h), "{h} in {exposed}");
    }
    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
}

#[test]
fn an_address_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = Command::new(BIN)
        .args(["--in-memory", "--addr", &addr])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
}

/// Sends `first`, then `line` every 300 ms (at most 100 times, while the service takes them),
/// and returns what the service answered before closing (bounded by a 10 s read timeout).
fn trickle(addr: &str, first: &str, line: &'static [u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(first.as_bytes()).unwrap();
    let mut writer = s.try_clone().unwrap();
    std::thread::spawn(move || {
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(300));
            if writer.write_all(line).is_err() {
                return;
            }
        }
    });
    let mut buf = Vec::new();
    let read = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    assert!(
        read.is_ok() || !text.is_empty(),
        "not cut off within 10 s: {read:?}"
    );
    text
}

#[cfg(unix)]
#[test]
fn limits_flags_apply() {
    let svc = start(&[
        "--api-key",
        "bin-key-1=pro",
        "--max-request-target",
        "100",
        "--head-timeout",
        "1",
        "--body-timeout",
        "1",
    ]);
    let long = format!("/v1/pets?q={}", "a".repeat(100));
    let (status, head, body) = get(&svc.addr, &long, "bin-key-1");
    assert_eq!(status, 414, "{body}");
    assert!(body.contains(r#""code":"uri_too_long""#), "{body}");
    assert!(head.contains("x-ratelimit-limit: 300"), "{head}");

    let first = format!("GET /v1/pets HTTP/1.1\r\nHost: {}\r\n", svc.addr);
    let answer = trickle(&svc.addr, &first, b"X-Slow: yes\r\n");
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(answer.contains(r#""code":"request_timeout""#), "{answer}");

    let first = format!(
        "POST /v1/pets HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer bin-key-1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{",
        svc.addr
    );
    let answer = trickle(&svc.addr, &first, b" ");
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(
        answer.contains("the request body was not received within 1 second"),
        "{answer}"
    );

    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
}

#[cfg(unix)]
#[test]
fn by_default_pets_are_kept_in_petstore_db_in_the_current_directory() {
    let dir = std::env::temp_dir().join(format!("petstore-default-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svc = start_in(&[], &["--api-key", "bin-key-1=pro"], Some(&dir));
    assert_eq!(svc.lines[1], "pets kept in the SQLite file petstore.db");
    assert!(dir.join("petstore.db").is_file(), "created at start");
    let (status, _, body) = get(&svc.addr, "/v1/pets", "bin-key-1");
    assert_eq!((status, body.as_str()), (200, "[]"));
    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreachable_database_stops_the_start() {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    let out = Command::new(BIN)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            "postgres://u@127.0.0.1:1/db",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("PostgreSQL 127.0.0.1:1/db"), "{err}");
    assert!(out.stdout.is_empty(), "it never listened");
}

#[cfg(unix)]
#[test]
fn json_logs_carry_each_request_id_and_operation() {
    let svc = start(&["--api-key", "log-key=pro", "--log-format", "json"]);
    let (status, head) = request(
        &svc.addr,
        "GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer log-key\r\nX-Request-Id: trace-me-1\r\ntraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    );
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("x-request-id: trace-me-1"), "{head}");
    // Without an id of its own, the request gets one, on the answer and in the log.
    let (_, head) = request(&svc.addr, "GET /v1/nowhere HTTP/1.1");
    let made = head
        .lines()
        .find_map(|l| l.strip_prefix("x-request-id: "))
        .unwrap_or_else(|| panic!("no request id in {head}"))
        .to_owned();
    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
    // Every line is one JSON object.
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let access = |id: &str| {
        lines
            .iter()
            .find(|l| l["fields"]["request_id"] == id)
            .unwrap_or_else(|| panic!("no access line for {id} in {log}"))
            .clone()
    };
    let line = access("trace-me-1");
    assert_eq!(line["target"], "petstore_service::access");
    assert_eq!(line["fields"]["operation"], "listPets");
    assert_eq!(line["fields"]["status"], 200);
    assert_eq!(line["fields"]["path"], "/v1/pets");
    assert_eq!(
        line["fields"]["trace_id"],
        "0af7651916cd43dd8448eb211c80319c"
    );
    assert_eq!(line["fields"]["span_id"].as_str().map(str::len), Some(16));
    let line = access(&made);
    assert_eq!(line["fields"]["operation"], "-");
    assert_eq!(line["fields"]["status"], 404);
    assert!(!log.contains("log-key"), "keys never reach the log: {log}");
}

#[cfg(unix)]
#[test]
fn health_and_readiness_answer_without_a_key_and_stay_out_of_the_access_log() {
    let svc = start(&["--api-key", "probe-key=free"]);
    let (status, head) = request(&svc.addr, "GET /healthz HTTP/1.1");
    assert_eq!(status, 200, "{head}");
    let (status, head) = request(&svc.addr, "GET /readyz HTTP/1.1");
    assert_eq!(status, 200, "{head}");
    // Not rate limited: far more probes than the free plan's minute allows.
    for _ in 0..70 {
        assert_eq!(request(&svc.addr, "GET /readyz HTTP/1.1").0, 200);
    }
    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
    assert!(
        !log.contains("/readyz") && !log.contains("/healthz"),
        "{log}"
    );
}

#[cfg(unix)]
#[test]
fn metrics_are_served_in_prometheus_text_on_their_own_address() {
    let svc = start(&[
        "--api-key",
        "metrics-key=free",
        "--metrics-addr",
        "127.0.0.1:0",
    ]);
    let at = svc
        .lines
        .iter()
        .find_map(|l| l.strip_prefix("metrics (Prometheus text) at http://"))
        .unwrap_or_else(|| panic!("no metrics address in {:?}", svc.lines))
        .trim_end_matches("/metrics")
        .to_owned();
    // The free plan allows 60 a minute: the 61st is refused.
    for _ in 0..61 {
        get(&svc.addr, "/v1/pets", "metrics-key");
    }
    let (status, head) = request(&at, "GET /metrics HTTP/1.1");
    assert_eq!(status, 200, "{head}");
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let mut s = TcpStream::connect(&at).unwrap();
    write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (_, body) = text.split_once("\r\n\r\n").unwrap();
    for line in [
        "# TYPE http_server_request_duration_seconds histogram",
        "# TYPE http_server_active_requests gauge",
        "# TYPE apigen_rate_limit_refused_total counter",
        r#"apigen_rate_limit_refused_total{apigen_plan="free",apigen_rate_limit="limited"} 1"#,
    ] {
        assert!(body.lines().any(|l| l == line), "{line} in {body}");
    }
    let count = |status: &str| {
        body.lines()
            .find(|l| {
                l.starts_with("http_server_request_duration_seconds_count{")
                    && l.contains(r#"apigen_operation_id="listPets""#)
                    && l.contains(&format!(r#"http_response_status_code="{status}""#))
                    && l.contains(r#"http_route="/v1/pets""#)
            })
            .and_then(|l| l.rsplit(' ').next())
            .unwrap_or_else(|| panic!("no {status} count in {body}"))
            .to_owned()
    };
    assert_eq!(count("200"), "60");
    assert_eq!(count("429"), "1");
    // The API's port does not serve them.
    assert_eq!(request(&svc.addr, "GET /metrics HTTP/1.1").0, 404);
    let (status, log) = stop(svc, "-TERM");
    assert!(status.success(), "{status:?}: {log}");
}

#[cfg(unix)]
#[test]
fn the_document_and_its_page_are_served() {
    let svc = start(&["--api-key", "doc-key=free"]);
    let fetch = |path: &str| {
        let mut s = TcpStream::connect(&svc.addr).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            svc.addr
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        (head.to_ascii_lowercase(), body.to_owned())
    };
    let spec = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spec/petstore.yaml"
    ))
    .unwrap();
    // The YAML is the exact text; the JSON is the same document.
    let (head, yaml) = fetch("/openapi.yaml");
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/yaml"), "{head}");
    assert_eq!(yaml, spec);
    let (head, json) = fetch("/openapi.json");
    assert!(head.contains("content-type: application/json"), "{head}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["info"]["title"], "Pet Store");
    assert!(json["paths"]["/pets/{petId}"]["get"]["deprecated"] == true);
    let (head, page) = fetch("/openapi.html");
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(page.contains("<title>Pet Store</title>"), "{page}");
    assert!(page.contains(r#"fetch("/openapi.json")"#), "{page}");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "nothing from elsewhere"
    );
    stop(svc, "-TERM");
}

/// SIGTERM drains: a request in flight when it comes (its body half sent) is still served,
/// and one that never finishes does not hold the process past the shutdown bound (10 s,
/// `SHUTDOWN_GRACE` in src/main.rs), after which it stops, saying so.
#[cfg(unix)]
#[test]
fn sigterm_finishes_requests_in_flight_within_its_bound() {
    let svc = start(&["--api-key", "drain-key=pro"]);
    let body = r#"{"name":"Rex","categoryId":7,"status":"available"}"#;
    let (first, rest) = body.split_at(10);
    let post = |addr: &str| {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            s,
            "POST /v1/pets HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer drain-key\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{first}",
            body.len()
        )
        .unwrap();
        s
    };
    // One request finishes after the signal, one never does.
    let mut finishing = post(&svc.addr);
    let _stuck = post(&svc.addr);
    // Ordering, not speed: both requests reach the service before the signal.
    std::thread::sleep(Duration::from_millis(500));
    let pid = svc.child.id().to_string();
    let signalled = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    std::thread::sleep(Duration::from_millis(500));
    finishing.write_all(rest.as_bytes()).unwrap();
    let mut answer = String::new();
    finishing.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");

    let (status, log) = stop(svc, "-0");
    let took = signalled.elapsed();
    assert!(status.success(), "{status}: {log}");
    assert!(
        log.contains("requests still in flight after 10s; stopping anyway"),
        "{log}"
    );
    // The bound holds (the stuck request's body timeout, 30 s, is not what ended it).
    assert!(took >= Duration::from_secs(10), "{took:?}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}
