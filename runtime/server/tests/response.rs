//! Success responses: the operation's fixed headers, appended from their static descriptor.

use apigen_server_runtime::response::{append_headers, empty};
use http::StatusCode;

static HEADERS: &[(&str, &str)] = &[
    ("deprecation", "@1688169599"),
    ("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
    ("bad name", "x"),
    ("link", "</v1/pets>; rel=\"successor-version\""),
    ("x-bad-value", "a\nb"),
    ("link", "</v2/pets>; rel=\"latest-version\""),
];

#[test]
fn fixed_headers_are_appended_alike_on_every_response() {
    for _ in 0..3 {
        let mut resp = empty(StatusCode::OK);
        append_headers(&mut resp, HEADERS);
        let h = resp.headers();
        assert_eq!(h.get("deprecation").unwrap(), "@1688169599");
        assert_eq!(h.get("sunset").unwrap(), "Thu, 05 Dec 2030 00:00:00 GMT");
        let links: Vec<&str> = h
            .get_all("link")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(
            links,
            vec![
                "</v1/pets>; rel=\"successor-version\"",
                "</v2/pets>; rel=\"latest-version\""
            ]
        );
        assert!(
            h.get("x-bad-value").is_none(),
            "invalid entries are skipped"
        );
        assert_eq!(h.len(), 4);
    }
    // another descriptor, and none
    let mut resp = empty(StatusCode::OK);
    append_headers(&mut resp, &[("deprecation", "true")]);
    append_headers(&mut resp, &[]);
    assert_eq!(resp.headers().get("deprecation").unwrap(), "true");
    assert_eq!(resp.headers().len(), 1);
}

#[test]
fn reply_adds_the_operation_headers_to_errors_too() {
    use apigen_server_runtime::layer::Runtime;
    use apigen_server_runtime::problem::Problem;
    static HEADERS: &[(&str, &str)] = &[("sunset", "Thu, 05 Dec 2030 00:00:00 GMT")];
    let rt = Runtime::default();
    let failed = rt.reply(Err(Problem::not_found()), HEADERS);
    assert_eq!(failed.status().as_u16(), 404);
    assert_eq!(failed.headers()["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
    let ok = rt.reply(
        Ok(apigen_server_runtime::response::empty(
            http::StatusCode::NO_CONTENT,
        )),
        HEADERS,
    );
    assert_eq!(ok.status().as_u16(), 204);
    assert_eq!(ok.headers()["sunset"], "Thu, 05 Dec 2030 00:00:00 GMT");
}
