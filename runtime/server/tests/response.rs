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
