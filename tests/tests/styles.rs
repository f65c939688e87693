//! Every parameter style of OpenAPI 3.1.1's table (§4.8.12.4) end to end over loopback, with
//! the generated crates of `tests/fixtures/styles.yaml`: the request the generated client
//! writes for `color` = `blue`, `colors` = `[blue, black, brown]` and `rgb` =
//! `{R: 100, G: 200, B: 150}` is the table's, byte for byte (recorded before the router sees
//! it), and the generated server reads back the values sent, those and values holding every
//! separator the styles use.

mod common;

use std::sync::{Arc, Mutex};

use styles_client::Client;
use styles_client::types::Rgb;
use styles_server::api::*;
use styles_server::{RequestContext, ServerConfig, StylesApi, router, types};

/// Answers every operation with what it read.
struct Reads;

fn read(
    color: Option<String>,
    colors: Option<Vec<String>>,
    rgb: Option<types::Rgb>,
) -> types::Read {
    types::Read { color, colors, rgb }
}

macro_rules! reads_all {
    ($($method:ident, $params:ident, $response:ident;)*) => {$(
        async fn $method(&self, _: &RequestContext, p: $params) -> Result<$response, String> {
            Ok($response::Ok(read(Some(p.color), Some(p.colors), Some(p.rgb))))
        }
    )*};
}

impl StylesApi for Reads {
    type Error = String;

    reads_all! {
        path_simple, PathSimpleParams, PathSimpleResponse;
        path_simple_exploded, PathSimpleExplodedParams, PathSimpleExplodedResponse;
        path_label, PathLabelParams, PathLabelResponse;
        path_label_exploded, PathLabelExplodedParams, PathLabelExplodedResponse;
        path_matrix, PathMatrixParams, PathMatrixResponse;
        path_matrix_exploded, PathMatrixExplodedParams, PathMatrixExplodedResponse;
        query_form, QueryFormParams, QueryFormResponse;
        query_form_exploded, QueryFormExplodedParams, QueryFormExplodedResponse;
        query_reserved, QueryReservedParams, QueryReservedResponse;
        header_simple, HeaderSimpleParams, HeaderSimpleResponse;
        header_simple_exploded, HeaderSimpleExplodedParams, HeaderSimpleExplodedResponse;
        cookie_form, CookieFormParams, CookieFormResponse;
    }

    async fn query_space_delimited(
        &self,
        _: &RequestContext,
        p: QuerySpaceDelimitedParams,
    ) -> Result<QuerySpaceDelimitedResponse, String> {
        Ok(QuerySpaceDelimitedResponse::Ok(read(
            None,
            Some(p.colors),
            Some(p.rgb),
        )))
    }

    async fn query_pipe_delimited(
        &self,
        _: &RequestContext,
        p: QueryPipeDelimitedParams,
    ) -> Result<QueryPipeDelimitedResponse, String> {
        Ok(QueryPipeDelimitedResponse::Ok(read(
            None,
            Some(p.colors),
            Some(p.rgb),
        )))
    }

    async fn query_deep_object(
        &self,
        _: &RequestContext,
        p: QueryDeepObjectParams,
    ) -> Result<QueryDeepObjectResponse, String> {
        Ok(QueryDeepObjectResponse::Ok(read(None, None, Some(p.rgb))))
    }

    async fn cookie_form_exploded(
        &self,
        _: &RequestContext,
        p: CookieFormExplodedParams,
    ) -> Result<CookieFormExplodedResponse, String> {
        Ok(CookieFormExplodedResponse::Ok(read(
            Some(p.color),
            Some(p.colors),
            None,
        )))
    }
}

/// One request as the server received it: the path and query as sent, and the parameter
/// headers.
type Request = (String, Vec<(String, String)>);

/// Every request that reached the server.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<Request>>>);

impl Seen {
    fn last(&self) -> Request {
        self.0
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("a request reached the server")
    }
}

async fn serve() -> (Client, Seen) {
    let seen = Seen::default();
    let record = seen.clone();
    let app = router(Arc::new(Reads), ServerConfig::new()).layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let record = record.clone();
            async move {
                let uri = request
                    .uri()
                    .path_and_query()
                    .map(|p| p.to_string())
                    .unwrap_or_default();
                let headers = ["color", "colors", "rgb", "cookie"]
                    .iter()
                    .filter_map(|h| {
                        let v = request.headers().get(*h)?.to_str().ok()?;
                        Some((h.to_string(), v.to_string()))
                    })
                    .collect();
                record.0.lock().unwrap().push((uri, headers));
                next.run(request).await
            }
        },
    ));
    let addr = common::spawn(app).await;
    (
        Client::builder(format!("http://{addr}")).build().unwrap(),
        seen,
    )
}

fn colors(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn rgb(r: i64, g: i64, b: i64) -> Rgb {
    Rgb { r, g, b }
}

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Calls each operation with `color`, `colors` and `rgb`, and returns, per operation, the
/// request as the server received it and what the implementation read.
async fn call_all(
    client: &Client,
    seen: &Seen,
    color: &str,
    list: &[String],
    object: &Rgb,
    with_headers: bool,
) -> Vec<(
    &'static str,
    (String, Vec<(String, String)>),
    serde_json::Value,
)> {
    let mut out = Vec::new();
    macro_rules! call {
        ($name:literal, $call:expr) => {{
            let answer = $call.await.unwrap_or_else(|e| panic!("{}: {e}", $name));
            out.push((
                $name,
                seen.last(),
                serde_json::to_value(answer.into_inner()).unwrap(),
            ));
        }};
    }
    call!("pathSimple", client.path_simple(color, list, object));
    call!(
        "pathSimpleExploded",
        client.path_simple_exploded(color, list, object)
    );
    call!("pathLabel", client.path_label(color, list, object));
    call!(
        "pathLabelExploded",
        client.path_label_exploded(color, list, object)
    );
    call!("pathMatrix", client.path_matrix(color, list, object));
    call!(
        "pathMatrixExploded",
        client.path_matrix_exploded(color, list, object)
    );
    call!("queryForm", client.query_form(color, list, object));
    call!(
        "queryFormExploded",
        client.query_form_exploded(color, list, object)
    );
    call!(
        "querySpaceDelimited",
        client.query_space_delimited(list, object)
    );
    call!(
        "queryPipeDelimited",
        client.query_pipe_delimited(list, object)
    );
    call!("queryDeepObject", client.query_deep_object(object));
    if with_headers {
        call!("headerSimple", client.header_simple(color, list, object));
        call!(
            "headerSimpleExploded",
            client.header_simple_exploded(color, list, object)
        );
    }
    call!("cookieForm", client.cookie_form(color, list, object));
    call!(
        "cookieFormExploded",
        client.cookie_form_exploded(color, list)
    );
    out
}

#[tokio::test]
async fn the_client_writes_the_specification_table_and_the_server_reads_it_back() {
    let (client, seen) = serve().await;
    let list = colors(&["blue", "black", "brown"]);
    let object = rgb(100, 200, 150);
    // OpenAPI 3.1.1 §4.8.12.4's table, with each parameter's own name where the style writes
    // it (`;colors=…`). `|` is written as it is (the table's `%7C` is read as well, below);
    // deepObject's brackets are encoded, as the table writes them.
    type Row = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    );
    let expected: &[Row] = &[
        (
            "pathSimple",
            "/path/simple/blue/blue,black,brown/R,100,G,200,B,150",
            &[],
        ),
        (
            "pathSimpleExploded",
            "/path/simple-exploded/blue/blue,black,brown/R=100,G=200,B=150",
            &[],
        ),
        (
            "pathLabel",
            "/path/label/.blue/.blue,black,brown/.R,100,G,200,B,150",
            &[],
        ),
        (
            "pathLabelExploded",
            "/path/label-exploded/.blue/.blue.black.brown/.R=100.G=200.B=150",
            &[],
        ),
        (
            "pathMatrix",
            "/path/matrix/;color=blue/;colors=blue,black,brown/;rgb=R,100,G,200,B,150",
            &[],
        ),
        (
            "pathMatrixExploded",
            "/path/matrix-exploded/;color=blue/;colors=blue;colors=black;colors=brown/;R=100;G=200;B=150",
            &[],
        ),
        (
            "queryForm",
            "/query/form?color=blue&colors=blue,black,brown&rgb=R,100,G,200,B,150",
            &[],
        ),
        (
            "queryFormExploded",
            "/query/form-exploded?color=blue&colors=blue&colors=black&colors=brown&R=100&G=200&B=150",
            &[],
        ),
        (
            "querySpaceDelimited",
            "/query/space?colors=blue%20black%20brown&rgb=R%20100%20G%20200%20B%20150",
            &[],
        ),
        (
            "queryPipeDelimited",
            "/query/pipe?colors=blue|black|brown&rgb=R|100|G|200|B|150",
            &[],
        ),
        (
            "queryDeepObject",
            "/query/deep?rgb%5BR%5D=100&rgb%5BG%5D=200&rgb%5BB%5D=150",
            &[],
        ),
        (
            "headerSimple",
            "/header/simple",
            &[
                ("color", "blue"),
                ("colors", "blue,black,brown"),
                ("rgb", "R,100,G,200,B,150"),
            ],
        ),
        (
            "headerSimpleExploded",
            "/header/simple-exploded",
            &[
                ("color", "blue"),
                ("colors", "blue,black,brown"),
                ("rgb", "R=100,G=200,B=150"),
            ],
        ),
        (
            "cookieForm",
            "/cookie/form",
            &[(
                "cookie",
                "color=blue; colors=blue,black,brown; rgb=R,100,G,200,B,150",
            )],
        ),
        (
            "cookieFormExploded",
            "/cookie/form-exploded",
            &[(
                "cookie",
                "color=blue; colors=blue; colors=black; colors=brown",
            )],
        ),
    ];
    let calls = call_all(&client, &seen, "blue", &list, &object, true).await;
    assert_eq!(calls.len(), expected.len());
    for ((name, (uri, sent_headers), read), (want_name, want_uri, want_headers)) in
        calls.iter().zip(expected)
    {
        assert_eq!(name, want_name);
        assert_eq!(uri, want_uri, "{name}: the request line");
        assert_eq!(sent_headers, &headers(want_headers), "{name}: the headers");
        // The implementation read what was sent.
        if read.get("color").is_some() {
            assert_eq!(read["color"], "blue", "{name}");
        }
        if read.get("colors").is_some() {
            assert_eq!(
                read["colors"],
                serde_json::json!(["blue", "black", "brown"]),
                "{name}"
            );
        }
        if read.get("rgb").is_some() {
            assert_eq!(
                read["rgb"],
                serde_json::json!({"R": 100, "G": 200, "B": 150}),
                "{name}"
            );
        }
    }
}

#[tokio::test]
async fn values_holding_the_separators_come_back_as_sent() {
    let (client, seen) = serve().await;
    // Every separator a style uses, inside the values: each is encoded where the style is
    // percent-encoded, so it never reads as one.
    let color = "a,b.c;d=e f|g/h%i[j]ü";
    let list = colors(&["x,y", "p.q", "r;s=t", "u|w", "ü/%", ""]);
    let object = rgb(-1, 0, 9_007_199_254_740_993);
    // Headers have no percent-encoding (a comma in a value is a separator there, and a header
    // is ASCII text): they are held to plain values in the table test alone. spaceDelimited
    // writes an item's space as its delimiter: the list has none.
    for (name, (uri, _), read) in call_all(&client, &seen, color, &list, &object, false).await {
        if read.get("color").is_some() {
            assert_eq!(read["color"], color, "{name}: {uri}");
        }
        if read.get("colors").is_some() {
            assert_eq!(read["colors"], serde_json::json!(list), "{name}: {uri}");
        }
        if read.get("rgb").is_some() {
            assert_eq!(
                read["rgb"],
                serde_json::json!({"R": -1, "G": 0, "B": 9_007_199_254_740_993i64}),
                "{name}: {uri}"
            );
        }
    }
}

#[tokio::test]
async fn the_server_reads_the_tables_spellings_and_refuses_what_breaks_the_style() {
    let (client, _) = serve().await;
    let base = client.base_url().to_string();
    let get = |path: &str| {
        let url = format!("{base}{path}");
        async move {
            let r = common::raw_http().get(url).send().await.unwrap();
            let status = r.status().as_u16();
            (
                status,
                serde_json::from_str::<serde_json::Value>(&r.text().await.unwrap()).unwrap(),
            )
        }
    };
    // `%7C`, as OpenAPI 3.1.1's table spells a pipe; `+` for a space.
    let (status, body) = get("/query/pipe?colors=blue%7Cblack&rgb=R%7C1%7CG%7C2%7CB%7C3").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["colors"], serde_json::json!(["blue", "black"]));
    assert_eq!(body["rgb"], serde_json::json!({"R": 1, "G": 2, "B": 3}));
    let (status, body) = get("/query/space?colors=blue+black&rgb=R+1+G+2+B+3").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["colors"], serde_json::json!(["blue", "black"]));
    // A label without its dot, a matrix value under another name, a member that is no
    // integer, names and values not in turn: 400, naming the parameter.
    for (path, says) in [
        ("/path/label/blue/.a/.R,1,G,2,B,3", "path/color"),
        (
            "/path/matrix/;other=blue/;colors=a/;rgb=R,1,G,2,B,3",
            "path/color",
        ),
        ("/path/simple/blue/a/R,1,G,x,B,3", "path/rgb/G"),
        ("/path/simple/blue/a/R,1,G", "path/rgb"),
        (
            "/path/matrix-exploded/;color=b/;colors=a/;R=1;G=2",
            "path/rgb",
        ),
    ] {
        let (status, body) = get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains(says),
            "{path}: {body}"
        );
    }
}

#[tokio::test]
async fn allow_reserved_keeps_the_reserved_characters_a_query_may_hold() {
    let (client, seen) = serve().await;
    let color = "a/b?c:d@e!$'()*,;&=+#[] %41%zz";
    let list = colors(&["x/y", "p&q"]);
    let answer = client
        .query_reserved(color, &list, &rgb(1, 2, 3))
        .await
        .unwrap()
        .into_inner();
    let (uri, _) = seen.last();
    // Kept: `/?:@!$()*,;` and the triple `%41`; encoded: the query's own `&`, `=`, `+`, what
    // a query cannot hold (`#`, `[`, `]`, a space), a `%` that begins no triple, and `'`
    // (which the URL parser would encode).
    assert_eq!(
        uri,
        "/query/reserved?color=a/b?c:d@e!$%27()*,;%26%3D%2B%23%5B%5D%20%41%25zz\
         &colors=x/y,p%26q&R=1&G=2&B=3"
    );
    // The server decodes what it receives: the triple is the character it encodes.
    assert_eq!(
        answer.color.as_deref(),
        Some("a/b?c:d@e!$'()*,;&=+#[] A%zz")
    );
    assert_eq!(answer.colors, Some(list));
}
