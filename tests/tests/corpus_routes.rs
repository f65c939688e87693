//! The router of every corpus document (`../shared/openapi-corpus`, 3.0, and
//! `../shared/openapi-corpus-31`, 3.1/3.2) is built and started, and every operation is
//! reached over loopback HTTP with the path parameters its key names: the routes of the
//! generator's model (`apigen::model`, what the generated `router()` registers) are registered
//! in a real axum router with the runtime's own pieces (`layer::route_path`,
//! `layer::route_root`, `route::select`, `route::path_params`), one stand-in service per
//! operation that answers with the operation's id and the parameters it read.
//!
//! Four of nine documents' generated servers once panicked in `router()` ("Only one parameter
//! is allowed per path segment", "Insertion failed due to conflict"); any route the generator
//! plans and axum refuses fails here, for every document at once, without building the
//! generated crates (`cargo xtask serve-corpus` builds and starts those).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use apigen::ir::{self, PathPiece, RouteServe};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use axum::routing::{self, MethodFilter, MethodRouter};
use petstore_server::runtime::cors::DocumentCors;
use petstore_server::runtime::layer::{self, ServerConfig};
use petstore_server::runtime::params;
use petstore_server::runtime::route::{self, PathPattern, Piece};

const NO_CORS: DocumentCors = DocumentCors {
    methods: &[],
    request_headers: &[],
    response_headers: &[],
};

fn corpus_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    ["openapi-corpus", "openapi-corpus-31"]
        .iter()
        .map(|d| root.join("../shared").join(d))
        .collect()
}

fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the corpus folder {} cannot be read: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            documents(&path, out);
        } else if path
            .extension()
            .is_some_and(|x| ["yaml", "yml", "json"].contains(&x.to_str().unwrap_or("")))
        {
            out.push(path);
        }
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The runtime's pattern for the model's.
fn runtime_pattern(p: &ir::PathPattern) -> &'static PathPattern {
    let segments: Vec<(&'static str, &'static [Piece])> = p
        .segments
        .iter()
        .map(|(capture, pieces)| {
            let pieces: Vec<Piece> = pieces
                .iter()
                .map(|piece| match piece {
                    PathPiece::Text(t) => Piece::Text(leak(t)),
                    PathPiece::Param(n) => Piece::Param(leak(n)),
                })
                .collect();
            (leak(capture), &*Box::leak(pieces.into_boxed_slice()))
        })
        .collect();
    let query: Vec<(&'static str, &'static str)> =
        p.query.iter().map(|(k, v)| (leak(k), leak(v))).collect();
    Box::leak(Box::new(PathPattern {
        segments: Box::leak(segments.into_boxed_slice()),
        query: Box::leak(query.into_boxed_slice()),
    }))
}

/// The stand-in of one operation: its id and its path parameters as it reads them.
#[derive(Clone)]
struct Standin {
    id: &'static str,
    pattern: Option<&'static PathPattern>,
}

impl Standin {
    async fn answer(self, request: Request) -> Response {
        let (mut parts, _) = request.into_parts();
        let read = match self.pattern.filter(|p| !p.segments.is_empty()) {
            Some(p) => route::path_params(&mut parts, p).await,
            None => params::path_params(&mut parts).await,
        };
        match read {
            Ok(path) => {
                let path: BTreeMap<String, String> = path
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
                format!("{} {path:?}", self.id).into_response()
            }
            Err(problem) => format!("{} failed: {}", self.id, problem.message).into_response(),
        }
    }
}

/// A dispatch candidate: its pattern, its `Allow`, and the stand-in of each method.
type Candidate = (&'static PathPattern, &'static str, Vec<(String, Standin)>);

/// The router `router()` would register for `api`, under `base`, with stand-ins.
fn router(api: &ir::Api, base: &str) -> axum::Router {
    let standin = |index: usize| {
        let op = &api.operations[index];
        Standin {
            id: leak(&op.id),
            pattern: op.path_pattern.as_ref().map(runtime_pattern),
        }
    };
    let mut routes = axum::Router::new();
    let mut root = None;
    for r in &api.routes {
        let service: MethodRouter = match &r.serve {
            RouteServe::Methods(members) => {
                let mut m = MethodRouter::new();
                for &i in members {
                    let filter = MethodFilter::try_from(
                        http::Method::from_bytes(api.operations[i].method.as_bytes()).unwrap(),
                    )
                    .unwrap();
                    let s = standin(i);
                    m = m.on(filter, move |request: Request| s.clone().answer(request));
                }
                m
            }
            RouteServe::Dispatch(d) => {
                // As the generated dispatch function: the first candidate whose pattern the
                // request matches and that declares its method, then the method.
                let candidates: Vec<Candidate> = d
                    .candidates
                    .iter()
                    .map(|c| {
                        let pattern = match &c.pattern {
                            Some(name) => runtime_pattern(
                                api.operations
                                    .iter()
                                    .find_map(|o| {
                                        o.path_pattern.as_ref().filter(|p| p.rust == *name)
                                    })
                                    .unwrap(),
                            ),
                            None => &PathPattern::ANY,
                        };
                        let methods = c
                            .methods
                            .iter()
                            .map(|&(ref m, operation)| (m.clone(), standin(operation)))
                            .collect();
                        (pattern, leak(&c.allow), methods)
                    })
                    .collect();
                let candidates = Arc::new(candidates);
                routing::any(move |request: Request| {
                    let candidates = candidates.clone();
                    async move {
                        let list: Vec<(&PathPattern, &str)> =
                            candidates.iter().map(|(p, a, _)| (*p, *a)).collect();
                        let (request, chosen) = route::select(request, &list).await;
                        match chosen {
                            Ok(Some(i)) => {
                                let (_, allow, methods) = &candidates[i];
                                match methods.iter().find(|(m, _)| m == request.method().as_str()) {
                                    Some((_, s)) => s.clone().answer(request).await,
                                    None => layer::method_not_allowed(&request, allow),
                                }
                            }
                            Ok(_) => layer::refuse(
                                &request,
                                petstore_server::runtime::problem::Problem::not_found(),
                            ),
                            Err(problem) => layer::refuse(&request, problem),
                        }
                    }
                })
            }
        };
        if r.pattern == "/" {
            root = Some(service);
        } else {
            routes = routes.route(&layer::route_path(base, &r.pattern), service);
        }
    }
    if let Some(service) = root {
        routes = layer::route_root(routes, base, service);
    }
    layer::finish_prefixed(routes, &[], base, &NO_CORS, ServerConfig::new())
}

/// A request path (with its key's query) that only `op` should answer, and the parameters it
/// should read there (every parameter of the key, described or not): values of letters and
/// digits.
fn request_for(op: &ir::Operation) -> (String, BTreeMap<String, String>) {
    let mut expected = BTreeMap::new();
    let mut path = String::new();
    let mut n = 0;
    for piece in &op.path_template {
        match piece {
            PathPiece::Text(text) => path.push_str(text),
            PathPiece::Param(name) => {
                n += 1;
                let value = format!("v{n}x");
                path.push_str(&value);
                expected.insert(name.clone(), value);
            }
        }
    }
    if !op.path_query.is_empty() {
        let pairs: Vec<String> = op
            .path_query
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        path.push('?');
        path.push_str(&pairs.join("&"));
    }
    (path, expected)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_corpus_router_starts_and_routes_every_operation() {
    let mut docs = Vec::new();
    for dir in corpus_dirs() {
        documents(&dir, &mut docs);
    }
    docs.sort();
    assert!(
        docs.len() >= 40,
        "the corpus folders hold {} documents",
        docs.len()
    );
    let http = common::raw_http();
    let mut failures = Vec::new();
    let mut routed = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        let options = apigen::Options {
            name: "doc".into(),
            ..Default::default()
        };
        // Generation needs a large stack on the biggest documents.
        let model = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || apigen::model(&text, &options))
            .unwrap()
            .join()
            .unwrap();
        let Ok((api, _)) = model else {
            continue; // refused with located errors: nothing to serve
        };
        for base in ["", "/api"] {
            // A panic here is the bug this test is for.
            let app = router(&api, base);
            let addr = common::spawn(app).await;
            for op in &api.operations {
                let (path, expected) = request_for(op);
                let method = reqwest::Method::from_bytes(op.method.as_bytes()).unwrap();
                let url = format!(
                    "http://{addr}{}{}",
                    base,
                    if path == "/" && !base.is_empty() {
                        "/"
                    } else {
                        &path
                    }
                );
                let response = http.request(method.clone(), &url).send().await.unwrap();
                let status = response.status();
                let body = response.text().await.unwrap();
                let want = format!("{} {expected:?}", op.id);
                // HEAD answers carry no body.
                let ok = if method == reqwest::Method::HEAD {
                    status == 200
                } else {
                    status == 200 && body == want
                };
                if ok {
                    routed += 1;
                } else {
                    failures.push(format!(
                        "{}: {} {url}: {status} {body:?}, expected {want:?}",
                        doc.display(),
                        op.method
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} requests went astray:\n{}",
        failures.len(),
        routed + failures.len(),
        failures.join("\n")
    );
    assert!(routed > 4000, "only {routed} operations routed");
}
