//! Parameter parsing: every failure collected with its pointer, never a panic.

use apigen_server_runtime::params::{FromParam, Location, PathParams, RawParams};
use apigen_server_runtime::validate::Violations;

fn raw(uri: &str, headers: &[(&str, &str)], path: &[(&str, &str)]) -> RawParams<'static> {
    let mut b = http::Request::builder().uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let parts = b.body(()).unwrap().into_parts().0;
    RawParams::from_parts(
        &parts,
        path.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
    .into_owned()
}

fn messages(errs: &Violations) -> Vec<String> {
    errs.as_slice()
        .iter()
        .map(|v| format!("{}: {}", v.pointer, v.message))
        .collect()
}

#[test]
fn scalar_impls() {
    assert_eq!(i64::from_param("-42"), Ok(-42));
    assert_eq!(
        i64::from_param("abc"),
        Err(r#"expected an integer (int64), got "abc""#.to_owned())
    );
    assert_eq!(
        i64::from_param("9223372036854775808"),
        Err(r#""9223372036854775808" is out of range for int64"#.to_owned())
    );
    // An integer, just not one an unsigned type holds.
    assert_eq!(
        u8::from_param("-1"),
        Err(r#""-1" is out of range for uint8"#.to_owned())
    );
    assert_eq!(
        i32::from_param("2147483648"),
        Err(r#""2147483648" is out of range for int32"#.to_owned())
    );
    assert_eq!(
        i64::from_param(" 1"),
        Err(r#"expected an integer (int64), got " 1""#.to_owned())
    );
    assert_eq!(
        i64::from_param(""),
        Err(r#"expected an integer (int64), got """#.to_owned())
    );
    assert_eq!(bool::from_param("true"), Ok(true));
    assert_eq!(bool::from_param("false"), Ok(false));
    assert_eq!(
        bool::from_param("yes"),
        Err(r#"expected a boolean (true or false), got "yes""#.to_owned())
    );
    assert_eq!(f64::from_param("1.5"), Ok(1.5));
    assert_eq!(f32::from_param("-2"), Ok(-2.0));
    for bad in ["NaN", "inf", "-infinity", "1e999", "x"] {
        assert!(f64::from_param(bad).is_err(), "{bad}");
    }
    assert_eq!(String::from_param("any thing"), Ok("any thing".to_owned()));
    // long input is truncated, control characters escaped
    let long = format!("{}\n", "9".repeat(200));
    let msg = i8::from_param(&long).unwrap_err();
    assert!(msg.len() < 120, "{msg}");
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn required_optional_and_failures_are_all_collected() {
    let r = raw(
        "/pets?limit=abc&status=sold&q=a+b%21&flag=true&flag=false",
        &[("X-Request-Id", "77")],
        &[("petId", "12")],
    );
    let mut errs = Violations::new();
    let pet_id: Option<i64> = r.required(Location::Path, "petId", &mut errs);
    let limit: Option<i32> = r.optional(Location::Query, "limit", &mut errs);
    let status: Option<String> = r.optional(Location::Query, "status", &mut errs);
    let q: Option<String> = r.required(Location::Query, "q", &mut errs);
    let flag: Option<bool> = r.optional(Location::Query, "flag", &mut errs);
    let missing: Option<i64> = r.required(Location::Query, "page", &mut errs);
    let absent: Option<i64> = r.optional(Location::Query, "size", &mut errs);
    let req_id: Option<u32> = r.required(Location::Header, "x-request-id", &mut errs);
    let trace: Option<String> = r.required(Location::Header, "X-Trace", &mut errs);
    assert_eq!(pet_id, Some(12));
    assert_eq!(limit, None);
    assert_eq!(status.as_deref(), Some("sold"));
    assert_eq!(q.as_deref(), Some("a b!"), "form decoding");
    assert_eq!(
        flag, None,
        "a repeated single-valued key is refused, not guessed"
    );
    assert_eq!((missing, absent), (None, None));
    assert_eq!(req_id, Some(77), "header names are case-insensitive");
    assert_eq!(trace, None);
    assert_eq!(
        messages(&errs),
        vec![
            r#"query/limit: expected an integer (int32), got "abc""#,
            "query/flag: given 2 times; a single value is expected",
            "query/page: required parameter is missing",
            "header/X-Trace: required parameter is missing",
        ]
    );
    // the same names in another location are other parameters
    let mut errs = Violations::new();
    assert_eq!(r.optional::<i64>(Location::Path, "limit", &mut errs), None);
    assert!(errs.is_empty());
    assert!(r.contains(Location::Query, "limit"));
    assert!(!r.contains(Location::Cookie, "limit"));
}

#[test]
fn arrays_exploded_and_not() {
    let r = raw(
        "/x?id=1&id=2&csv=3,4,5&bad=1&bad=x&bad=3&badcsv=1,,2&empty=",
        &[("X-Ids", "7, 8"), ("X-Ids", "9")],
        &[("ids", "10,11")],
    );
    let mut errs = Violations::new();
    assert_eq!(
        r.array::<i64>(Location::Query, "id", true, &mut errs),
        Some(vec![1, 2])
    );
    assert_eq!(
        r.array::<i64>(Location::Query, "csv", false, &mut errs),
        Some(vec![3, 4, 5])
    );
    assert_eq!(
        r.array::<String>(Location::Query, "csv", true, &mut errs),
        Some(vec!["3,4,5".to_owned()]),
        "exploded: a comma is part of the value"
    );
    assert_eq!(
        r.array::<i64>(Location::Header, "x-ids", false, &mut errs),
        Some(vec![7, 8, 9])
    );
    assert_eq!(
        r.array::<i64>(Location::Path, "ids", false, &mut errs),
        Some(vec![10, 11])
    );
    assert_eq!(
        r.array::<i64>(Location::Query, "empty", false, &mut errs),
        Some(vec![])
    );
    assert_eq!(
        r.array::<i64>(Location::Query, "none", true, &mut errs),
        None
    );
    assert!(errs.is_empty(), "{:?}", messages(&errs));
    assert_eq!(
        r.array::<i64>(Location::Query, "bad", true, &mut errs),
        None
    );
    assert_eq!(
        r.array::<i64>(Location::Query, "badcsv", false, &mut errs),
        None
    );
    assert_eq!(
        r.required_array::<i64>(Location::Query, "none", true, &mut errs),
        None
    );
    assert_eq!(
        messages(&errs),
        vec![
            r#"query/bad/1: expected an integer (int64), got "x""#,
            r#"query/badcsv/1: expected an integer (int64), got """#,
            "query/none: required parameter is missing",
        ]
    );
}

#[test]
fn single_valued_inputs_given_more_than_once_are_violations() {
    let r = raw(
        "/x?limit=5&limit=6&one=1&ids=1&ids=2&empty=&empty=",
        &[
            ("X-Trace", "a"),
            ("x-trace", "b"),
            ("X-Tags", "1,2"),
            ("X-Tags", "3"),
            ("cookie", "session=a; theme=dark"),
            ("cookie", "session=b"),
        ],
        &[],
    );
    let mut errs = Violations::new();
    assert_eq!(r.optional::<i32>(Location::Query, "limit", &mut errs), None);
    assert_eq!(
        r.required::<i32>(Location::Query, "one", &mut errs),
        Some(1)
    );
    assert_eq!(
        r.required::<String>(Location::Query, "empty", &mut errs),
        None
    );
    assert_eq!(
        r.required::<String>(Location::Header, "x-trace", &mut errs),
        None
    );
    assert_eq!(
        r.optional::<String>(Location::Cookie, "session", &mut errs),
        None
    );
    assert_eq!(
        r.required::<String>(Location::Cookie, "theme", &mut errs)
            .as_deref(),
        Some("dark")
    );
    // arrays keep their declared style: repeated keys and header lines are their items
    assert_eq!(
        r.array::<i64>(Location::Query, "ids", true, &mut errs),
        Some(vec![1, 2])
    );
    assert_eq!(
        r.array::<i64>(Location::Header, "x-tags", false, &mut errs),
        Some(vec![1, 2, 3])
    );
    assert_eq!(
        messages(&errs),
        vec![
            "query/limit: given 2 times; a single value is expected",
            "query/empty: given 2 times; a single value is expected",
            "header/x-trace: given 2 times; a single value is expected",
            "cookie/session: given 2 times; a single value is expected",
        ]
    );
}

#[test]
fn cookies() {
    let r = raw(
        "/",
        &[("cookie", "a=1; session=\"xyz\""), ("cookie", "n=5;bad")],
        &[],
    );
    let mut errs = Violations::new();
    assert_eq!(
        r.required::<String>(Location::Cookie, "session", &mut errs)
            .as_deref(),
        Some("xyz")
    );
    assert_eq!(r.required::<i32>(Location::Cookie, "n", &mut errs), Some(5));
    assert_eq!(r.required::<i32>(Location::Cookie, "a", &mut errs), Some(1));
    assert_eq!(r.optional::<i32>(Location::Cookie, "bad", &mut errs), None);
    assert_eq!(
        messages(&errs),
        vec![r#"cookie/bad: expected an integer (int32), got """#]
    );
}

#[test]
fn cookie_values_are_percent_decoded() {
    // What the generated client sends for `a b;c,d"é` (RFC 6570 form style: `%20`, never
    // `+`), a literal `+`, a `%` that starts no escape, and bytes that are not UTF-8.
    let r = raw(
        "/",
        &[(
            "cookie",
            "s=a%20b%3Bc%2Cd%22%C3%A9; plus=1+2; pct=100%; bad=%FF%FE",
        )],
        &[],
    );
    let mut errs = Violations::new();
    let get =
        |name: &str, errs: &mut Violations| r.optional::<String>(Location::Cookie, name, errs);
    assert_eq!(get("s", &mut errs).as_deref(), Some("a b;c,d\"é"));
    assert_eq!(get("plus", &mut errs).as_deref(), Some("1+2"));
    assert_eq!(get("pct", &mut errs).as_deref(), Some("100%"));
    assert_eq!(get("bad", &mut errs), None);
    assert_eq!(
        messages(&errs),
        vec!["cookie/bad: cookie value is not valid percent-encoded UTF-8"]
    );
    // Items of a comma-separated array are split as sent, then decoded: an encoded comma
    // is part of its item (here one that is not an integer).
    let r = raw("/", &[("cookie", "ids=1,2; other=1%2C2")], &[]);
    let mut errs = Violations::new();
    assert_eq!(
        r.array::<i32>(Location::Cookie, "ids", false, &mut errs),
        Some(vec![1, 2])
    );
    assert_eq!(
        r.array::<i32>(Location::Cookie, "other", false, &mut errs),
        None
    );
    assert_eq!(
        messages(&errs),
        vec![r#"cookie/other/0: expected an integer (int32), got "1,2""#]
    );
}

#[test]
fn non_ascii_header_values_are_violations() {
    let mut b = http::Request::builder().uri("/");
    b = b.header("x-name", http::HeaderValue::from_bytes(b"caf\xe9").unwrap());
    let parts = b.body(()).unwrap().into_parts().0;
    let r = RawParams::from_parts(&parts, PathParams::none());
    let mut errs = Violations::new();
    assert_eq!(
        r.required::<String>(Location::Header, "x-name", &mut errs),
        None
    );
    assert_eq!(
        messages(&errs),
        vec!["header/x-name: header value is not visible ASCII text"]
    );
}

#[derive(Debug, PartialEq, serde::Deserialize)]
struct Search {
    limit: i32,
    #[serde(default)]
    name: Option<String>,
}

fn head(uri: &str) -> http::request::Parts {
    http::Request::builder()
        .uri(uri)
        .body(())
        .unwrap()
        .into_parts()
        .0
}

#[test]
fn a_form_query_string_is_the_fields_of_its_type() {
    use apigen_server_runtime::params::query_string_form;
    let got = query_string_form::<Search>(&head("/s?limit=3&name=a+b%21"), false).unwrap();
    assert_eq!(
        got,
        Some(Search {
            limit: 3,
            name: Some("a b!".into())
        })
    );
    // Optional and absent or empty: none, not a missing field.
    assert_eq!(
        query_string_form::<Search>(&head("/s"), false).unwrap(),
        None
    );
    assert_eq!(
        query_string_form::<Search>(&head("/s?"), false).unwrap(),
        None
    );
    // Required: even an empty query string is decoded, so the missing field is named.
    let p = query_string_form::<Search>(&head("/s"), true).unwrap_err();
    assert_eq!(p.status, http::StatusCode::BAD_REQUEST);
    assert!(p.message.contains("limit"), "{}", p.message);
}

#[test]
fn a_json_query_string_is_percent_decoded_json() {
    use apigen_server_runtime::params::query_string_json;
    // `{"limit":3,"name":"100%"}`: lower- and upper-case escapes, a `+` that stays a `+`,
    // and a `%` that starts no escape, kept as it is.
    let got = query_string_json::<Search>(
        &head("/s?%7b%22limit%22%3A3,%22name%22%3A%22100%+1%22%7D"),
        false,
    )
    .unwrap();
    assert_eq!(
        got,
        Some(Search {
            limit: 3,
            name: Some("100%+1".into())
        })
    );
    assert_eq!(
        query_string_json::<Search>(&head("/s"), false).unwrap(),
        None
    );
    assert_eq!(
        query_string_json::<Search>(&head("/s?"), false).unwrap(),
        None
    );
    let p = query_string_json::<Search>(&head("/s"), true).unwrap_err();
    assert_eq!(p.status, http::StatusCode::BAD_REQUEST);
    let p =
        query_string_json::<Search>(&head("/s?%7B%22limit%22%3A%22x%22%7D"), false).unwrap_err();
    assert_eq!(p.status, http::StatusCode::BAD_REQUEST);
}

#[test]
fn a_raw_query_string_is_passed_as_sent() {
    use apigen_server_runtime::params::query_string_raw;
    assert_eq!(
        query_string_raw(&head("/s?a=%20b+c")).as_deref(),
        Some("a=%20b+c")
    );
    assert_eq!(query_string_raw(&head("/s?")), None);
    assert_eq!(query_string_raw(&head("/s")), None);
}

#[test]
fn given_path_parameters_clone_and_locations_print_as_openapi_names_them() {
    let path: PathParams = [("a", "1"), ("b", "x y")]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let copy = path.clone();
    let pairs: Vec<(&str, &str)> = copy.iter().collect();
    assert_eq!(pairs, vec![("a", "1"), ("b", "x y")]);
    let names: Vec<String> = [
        Location::Path,
        Location::Query,
        Location::Header,
        Location::Cookie,
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    assert_eq!(names, vec!["path", "query", "header", "cookie"]);
}

#[test]
fn a_path_parameter_given_twice_is_a_violation_like_any_other() {
    // Routers of the application's own may hand over pairs with a name twice; no value is
    // guessed, as for the other locations.
    let r = raw("/", &[], &[("id", "1"), ("id", "2")]);
    let mut errs = Violations::new();
    assert_eq!(r.required::<i64>(Location::Path, "id", &mut errs), None);
    assert_eq!(
        messages(&errs),
        vec!["path/id: given 2 times; a single value is expected"]
    );
    assert_eq!(
        r.array::<i64>(Location::Path, "id", false, &mut Violations::new()),
        Some(vec![1, 2])
    );
}

#[test]
fn string_formats_parse_into_their_types_and_refuse_anything_else() {
    use std::net::{Ipv4Addr, Ipv6Addr};
    assert_eq!(
        uuid::Uuid::from_param("67e55044-10b1-426f-9247-bb680e5fe0c8"),
        Ok(uuid::Uuid::from_u128(
            0x67e55044_10b1_426f_9247_bb680e5fe0c8
        ))
    );
    assert_eq!(
        uuid::Uuid::from_param("not-a-uuid"),
        Err(r#"expected a UUID, RFC 9562's hyphenated form (uuid), got "not-a-uuid""#.to_owned())
    );
    assert_eq!(
        jiff::Timestamp::from_param("2026-11-23T10:20:30+01:00"),
        Ok(jiff::Timestamp::from_second(1_795_425_630).unwrap())
    );
    // An offset is required: a civil date-time names no instant.
    assert_eq!(
        jiff::Timestamp::from_param("2026-11-23T10:20:30"),
        Err(
            r#"expected a date-time with an offset, RFC 3339 (date-time), got "2026-11-23T10:20:30""#
                .to_owned()
        )
    );
    assert_eq!(
        jiff::civil::Date::from_param("2026-11-23"),
        Ok(jiff::civil::date(2026, 11, 23))
    );
    assert_eq!(
        jiff::civil::Date::from_param("2026-02-30"),
        Err(r#"expected a date, YYYY-MM-DD (date), got "2026-02-30""#.to_owned())
    );
    assert_eq!(
        Ipv4Addr::from_param("192.0.2.7"),
        Ok(Ipv4Addr::new(192, 0, 2, 7))
    );
    assert_eq!(
        Ipv4Addr::from_param("192.0.2.256"),
        Err(r#"expected an IPv4 address (ipv4), got "192.0.2.256""#.to_owned())
    );
    assert_eq!(
        Ipv6Addr::from_param("2001:db8::7"),
        Ok(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 7))
    );
    assert_eq!(
        Ipv6Addr::from_param("192.0.2.7"),
        Err(r#"expected an IPv6 address (ipv6), got "192.0.2.7""#.to_owned())
    );
}

#[test]
fn query_values_decode_as_form_urlencoded_does() {
    // Names and values with and without escapes, `+`, `=` inside a value, empty pieces, a
    // name alone, invalid UTF-8 after decoding: each lookup must see what a full
    // `form_urlencoded::parse` of the query gives for that name.
    let query = "a=1&&b+c=x+y&b%20c=%41&=v&d&e=f=g&%FF=bad&h=%FF&a%3D=eq&i=%2&a=2";
    let r = raw(&format!("/?{query}"), &[], &[]);
    for name in [
        "a", "b c", "", "d", "e", "\u{FFFD}", "h", "a=", "i", "absent",
    ] {
        let expected: Vec<String> = form_urlencoded::parse(query.as_bytes())
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .collect();
        let mut errs = Violations::new();
        let got = r.array::<String>(Location::Query, name, true, &mut errs);
        assert!(errs.is_empty(), "{name:?}: {:?}", messages(&errs));
        assert_eq!(got.unwrap_or_default(), expected, "name {name:?}");
    }
}

/// An encoded delimiter is part of an item: the value is split as sent, then decoded (RFC
/// 6570 writes a comma inside an item as `%2C`), in the query, in cookies and in a path
/// segment. Headers have no encoding: a comma there always separates.
#[test]
fn encoded_delimiters_are_part_of_their_item() {
    let mut errs = Violations::new();
    let r = raw(
        "/tags/a%2Cb,c%7Cd/x?t=a%2Cb,c&p=x%7Cy|z+w&s=x%20y%20z&e=",
        &[("cookie", "ids=1%2C5,7"), ("x-list", "a, b%2Cc")],
        &[("ids", "a,b,c|d")],
    );
    let list = |v: Option<Vec<String>>| v.unwrap();
    assert_eq!(
        list(r.array(Location::Query, "t", false, &mut errs)),
        ["a,b", "c"]
    );
    assert_eq!(
        list(r.delimited_array(Location::Query, "p", false, '|', &mut errs)),
        ["x|y", "z w"]
    );
    assert_eq!(
        list(r.delimited_array(Location::Query, "s", false, ' ', &mut errs)),
        ["x", "y", "z"]
    );
    assert_eq!(
        list(r.array(Location::Query, "e", false, &mut errs)),
        Vec::<String>::new()
    );
    assert_eq!(
        list(r.array(Location::Cookie, "ids", false, &mut errs)),
        ["1,5", "7"]
    );
    // The path segment as sent is found by its decoded value.
    assert_eq!(
        list(r.array(Location::Path, "ids", false, &mut errs)),
        ["a,b", "c|d"]
    );
    assert_eq!(
        list(r.array(Location::Header, "x-list", false, &mut errs)),
        ["a", "b%2Cc"]
    );
    assert!(errs.is_empty(), "{:?}", messages(&errs));
    // Exploded query arrays are one item per key, decoded whole.
    let r = raw("/?t=a%2Cb&t=c", &[], &[]);
    assert_eq!(
        list(r.array(Location::Query, "t", true, &mut errs)),
        ["a,b", "c"]
    );
    let r = raw("/", &[], &[]);
    assert!(
        r.required_delimited_array::<String>(Location::Query, "t", false, '|', &mut errs)
            .is_none()
    );
    assert_eq!(messages(&errs), ["query/t: required parameter is missing"]);
}

/// `style: cookie` (OpenAPI 3.2): the value as sent, no percent-decoding.
#[test]
fn cookies_of_style_cookie_are_read_as_sent() {
    let r = raw("/", &[("cookie", "token=ab%2Fc=; other=1")], &[]);
    let mut errs = Violations::new();
    assert_eq!(
        r.required_cookie_as_sent::<String>("token", &mut errs),
        Some("ab%2Fc=".to_string())
    );
    assert_eq!(
        r.optional::<String>(Location::Cookie, "token", &mut errs),
        Some("ab/c=".to_string())
    );
    assert_eq!(r.optional_cookie_as_sent::<i64>("missing", &mut errs), None);
    assert!(errs.is_empty());
    assert_eq!(r.required_cookie_as_sent::<i64>("missing", &mut errs), None);
    let r = raw("/", &[("cookie", "n=1; n=2")], &[]);
    assert_eq!(r.optional_cookie_as_sent::<i64>("n", &mut errs), None);
    assert_eq!(
        messages(&errs),
        [
            "cookie/missing: required parameter is missing",
            "cookie/n: given 2 times; a single value is expected"
        ]
    );
}
