//! Validation helpers and the `Validate` impls for containers.

use std::collections::{BTreeMap, HashMap};

use apigen_server_runtime::validate::{
    Validate, Violations, check_max_items, check_max_length, check_maximum, check_min_items,
    check_min_length, check_minimum, check_multiple_of, check_pattern, check_unique_items, join,
};

fn messages(errs: &Violations) -> Vec<String> {
    errs.as_slice()
        .iter()
        .map(|v| format!("{}: {}", v.pointer, v.message))
        .collect()
}

#[test]
fn minimum_and_maximum_with_exclusive_flags() {
    let mut e = Violations::new();
    check_minimum(1i64, 1, false, "/a", &mut e);
    check_maximum(100i32, 100, false, "/a", &mut e);
    check_minimum(0.5f64, 0.0, true, "/a", &mut e);
    assert!(e.is_empty());
    check_minimum(0i32, 1, false, "/b", &mut e);
    check_minimum(1i64, 1, true, "/c", &mut e);
    check_maximum(101u32, 100, false, "/d", &mut e);
    check_maximum(2.5f64, 2.5, true, "/e", &mut e);
    check_minimum(i64::MIN, i64::MIN + 1, false, "/f", &mut e);
    check_minimum(f64::NAN, 0.0, false, "/nan", &mut e); // NaN never violates
    assert_eq!(
        messages(&e),
        vec![
            "/b: must be greater than or equal to 1, got 0",
            "/c: must be greater than 1, got 1",
            "/d: must be less than or equal to 100, got 101",
            "/e: must be less than 2.5, got 2.5",
            "/f: must be greater than or equal to -9223372036854775807, got -9223372036854775808",
        ]
    );
}

#[test]
fn lengths_count_characters() {
    let mut e = Violations::new();
    check_min_length("héllo", 5, "/s", &mut e);
    check_max_length("héllo", 5, "/s", &mut e);
    check_max_length("日本語", 3, "/s", &mut e);
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_min_length("日本", 3, "/t", &mut e);
    check_max_length("héllo!", 5, "/u", &mut e);
    assert_eq!(
        messages(&e),
        vec![
            "/t: must be at least 3 characters long, got 2",
            "/u: must be at most 5 characters long, got 6",
        ]
    );
}

#[test]
fn patterns_are_searched_cached_and_bad_ones_skipped() {
    let mut e = Violations::new();
    check_pattern("abc123", "[0-9]+", "/p", &mut e); // unanchored: a match anywhere
    check_pattern("abc", "^[a-z]+$", "/p", &mut e);
    for _ in 0..3 {
        check_pattern("ABC", "^[a-z]+$", "/q", &mut e);
    }
    // invalid in the spec: cannot check, must not panic, no violation
    check_pattern("anything", "([unclosed", "/r", &mut e);
    check_pattern("anything", "([unclosed", "/r", &mut e);
    assert_eq!(e.len(), 3);
    assert_eq!(messages(&e)[0], r#"/q: must match the pattern "^[a-z]+$""#);
    // concurrent first use of one pattern
    let handles: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let mut e = Violations::new();
                check_pattern(&format!("x{i}"), "^x[0-3]$", "/c", &mut e);
                e.len()
            })
        })
        .collect();
    let failures: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(failures, 4);
}

#[test]
fn items() {
    let mut e = Violations::new();
    check_min_items(&[1, 2], 2, "/i", &mut e);
    check_max_items(&[1, 2], 2, "/i", &mut e);
    check_unique_items(&[1, 2, 3], "/i", &mut e);
    assert!(e.is_empty());
    check_min_items::<i32>(&[], 1, "/a", &mut e);
    check_max_items(&[1, 2, 3], 2, "/b", &mut e);
    check_unique_items(&["x", "y", "x", "x"], "/c", &mut e);
    let objs = vec![
        serde_json::json!({"a": 1, "b": [1, 2]}),
        serde_json::json!({"b": [1, 2], "a": 1}),
    ];
    check_unique_items(&objs, "/d", &mut e);
    check_unique_items(
        &[serde_json::json!([1, 2]), serde_json::json!([2, 1])],
        "/ok",
        &mut e,
    );
    assert_eq!(
        messages(&e),
        vec![
            "/a: must have at least 1 items, got 0",
            "/b: must have at most 2 items, got 3",
            "/c: items must be unique; items 0 and 2 are equal",
            "/d: items must be unique; items 0 and 1 are equal",
        ]
    );
}

#[test]
fn multiple_of() {
    let mut e = Violations::new();
    check_multiple_of(10i64, 5.0, "/a", &mut e);
    check_multiple_of(0.3f64, 0.1, "/a", &mut e);
    check_multiple_of(i64::MAX - 7, 1.0, "/a", &mut e);
    check_multiple_of(4.5f32, 1.5, "/a", &mut e);
    check_multiple_of(7i32, 0.0, "/a", &mut e); // not checkable: ignored
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_multiple_of(10i64, 3.0, "/b", &mut e);
    check_multiple_of(0.35f64, 0.1, "/c", &mut e);
    check_multiple_of(5u8, 2.5, "/ok", &mut e);
    check_multiple_of(3i64, 2.5, "/d", &mut e);
    assert_eq!(
        messages(&e),
        vec![
            "/b: must be a multiple of 3, got 10",
            "/c: must be a multiple of 0.1, got 0.35",
            "/d: must be a multiple of 2.5, got 3",
        ]
    );
}

struct Item {
    name: String,
}

impl Validate for Item {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        check_min_length(&self.name, 1, &join(pointer, "name"), out);
    }
}

#[test]
fn containers_extend_the_pointer() {
    let mut e = Violations::new();
    let list = vec![
        Item { name: "a".into() },
        Item { name: "".into() },
        Item { name: "".into() },
    ];
    list.validate("/items", &mut e);
    Some(Item { name: "".into() }).validate("/opt", &mut e);
    None::<Item>.validate("/none", &mut e);
    Box::new(Item { name: "".into() }).validate("/boxed", &mut e);
    let mut m = BTreeMap::new();
    m.insert("a/b~c".to_owned(), Item { name: "".into() });
    m.validate("/map", &mut e);
    let mut h = HashMap::new();
    h.insert("z".to_owned(), Item { name: "".into() });
    h.insert("y".to_owned(), Item { name: "".into() });
    h.validate("", &mut e);
    "str".validate("/s", &mut e);
    5i64.validate("/n", &mut e);
    assert_eq!(
        e.as_slice()
            .iter()
            .map(|v| v.pointer.as_str())
            .collect::<Vec<_>>(),
        vec![
            "/items/1/name",
            "/items/2/name",
            "/opt/name",
            "/boxed/name",
            "/map/a~1b~0c/name",
            "/y/name",
            "/z/name",
        ]
    );
}

#[test]
fn into_problem_and_check() {
    let mut e = Violations::new();
    assert!(e.check().is_ok());
    e.push("query/limit", "must be greater than or equal to 1, got 0");
    e.push("/name", "must be at least 1 characters long, got 0");
    let p = e.check().unwrap_err();
    assert!(e.is_empty(), "check drains");
    assert_eq!(p.status, 400);
    assert_eq!(p.code, "bad_request");
    assert_eq!(p.violations.len(), 2);
    assert_eq!(
        p.message,
        "query/limit: must be greater than or equal to 1, got 0; /name: must be at least 1 characters long, got 0"
    );
}

#[test]
fn numeric_enums() {
    use apigen_server_runtime::validate::{Violations, check_one_of};
    let mut out = Violations::new();
    check_one_of(&2i64, &[1, 2, 3], "/level", &mut out);
    assert!(out.is_empty());
    check_one_of(&7i64, &[1, 2, 3], "/level", &mut out);
    assert_eq!(out.as_slice()[0].message, "must be one of 1, 2, 3, got 7");
    assert_eq!(out.as_slice()[0].pointer, "/level");
}

#[test]
fn violations_keep_what_is_pushed_in_order() {
    use apigen_server_runtime::validate::Violation;
    let mut e = Violations::new();
    e.push("/a", "first");
    e.push_violation(Violation {
        pointer: "/b".into(),
        message: "second".into(),
    });
    assert_eq!(e.len(), 2);
    assert_eq!(
        e.into_vec(),
        vec![
            Violation {
                pointer: "/a".into(),
                message: "first".into(),
            },
            Violation {
                pointer: "/b".into(),
                message: "second".into(),
            },
        ]
    );
}

#[test]
fn a_shared_value_is_validated_like_the_value() {
    let mut e = Violations::new();
    std::sync::Arc::new(Item { name: "".into() }).validate("/shared", &mut e);
    assert_eq!(
        messages(&e),
        ["/shared/name: must be at least 1 characters long, got 0"]
    );
}

#[test]
fn multiple_of_on_floats_with_an_integral_factor() {
    let mut e = Violations::new();
    check_multiple_of(4.5f32, 1.5, "/ok", &mut e);
    check_multiple_of(-3.0f32, 1.0, "/ok", &mut e);
    assert!(e.is_empty(), "{:?}", messages(&e));
    // An integral factor does not make a float an integer: 2.5 is no multiple of 1.
    check_multiple_of(2.5f32, 1.0, "/a", &mut e);
    check_multiple_of(4.75f32, 1.5, "/b", &mut e);
    check_multiple_of(2.5f64, 1.0, "/c", &mut e);
    assert_eq!(
        messages(&e),
        [
            "/a: must be a multiple of 1, got 2.5",
            "/b: must be a multiple of 1.5, got 4.75",
            "/c: must be a multiple of 1, got 2.5",
        ]
    );
}

#[test]
fn multiple_of_on_integers_is_exact_beyond_what_a_float_holds() {
    // 2^53 + 1 is odd, but as an f64 it rounds to 2^53, which is even: only the integer
    // path tells them apart.
    let mut e = Violations::new();
    check_multiple_of(9_007_199_254_740_992i64, 2.0, "/ok", &mut e);
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_multiple_of(9_007_199_254_740_993i64, 2.0, "/a", &mut e);
    check_multiple_of(u64::MAX, 2.0, "/b", &mut e);
    assert_eq!(
        messages(&e),
        [
            "/a: must be a multiple of 2, got 9007199254740993",
            "/b: must be a multiple of 2, got 18446744073709551615",
        ]
    );
}

#[test]
fn multiple_of_tolerates_float_error_relative_to_the_quotient() {
    // 9999999.9 / 0.3 is 33333332.999999996 in binary floats: 4e-9 from a whole number, far
    // more than 1e-9 absolute, yet 33333333 × 0.3 is exactly what the client meant.
    let mut e = Violations::new();
    check_multiple_of(9_999_999.9f64, 0.3, "/ok", &mut e);
    check_multiple_of(37_037_036.7f64, 0.3, "/ok", &mut e);
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_multiple_of(9_999_999.8f64, 0.3, "/a", &mut e);
    assert_eq!(
        messages(&e),
        ["/a: must be a multiple of 0.3, got 9999999.8"]
    );
}

#[test]
fn property_counts_and_dependent_properties() {
    use apigen_server_runtime::validate::{
        check_max_properties, check_min_properties, dependent_missing,
    };
    let mut e = Violations::new();
    check_min_properties(2, 2, "/m", &mut e);
    check_max_properties(2, 2, "/m", &mut e);
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_min_properties(1, 2, "/a", &mut e);
    check_max_properties(3, 2, "/b", &mut e);
    dependent_missing("/card", "number", "expiry", &mut e);
    assert_eq!(
        messages(&e),
        [
            "/a: must have at least 2 properties, got 1",
            "/b: must have at most 2 properties, got 3",
            "/card/expiry: is required when `number` is present",
        ]
    );
}

#[test]
fn unique_items_keeps_array_elements_apart() {
    // Compared by their JSON text: [1, 2] and [12] must not read alike.
    let mut e = Violations::new();
    check_unique_items(
        &[
            serde_json::json!([1, 2]),
            serde_json::json!([12]),
            serde_json::json!({"a": [1, 2]}),
            serde_json::json!({"a": [12]}),
        ],
        "/ok",
        &mut e,
    );
    assert!(e.is_empty(), "{:?}", messages(&e));
    check_unique_items(
        &[
            serde_json::json!({"a": [1, 2]}),
            serde_json::json!({"a": [1, 2]}),
        ],
        "/d",
        &mut e,
    );
    assert_eq!(
        messages(&e),
        ["/d: items must be unique; items 0 and 1 are equal"]
    );
}

#[test]
fn a_missing_authorization_header_parameter_is_401() {
    use apigen_server_runtime::validate::Violations;
    let problem = |pointer: &str, message: &str| {
        let mut v = Violations::new();
        v.push("query/limit", "must be less than or equal to 10, got 11");
        v.push(pointer, message);
        v.into_problem()
    };
    // Credentials asked for as a header parameter (keeper): without them, unauthenticated.
    let p = problem("header/Authorization", "required parameter is missing");
    assert_eq!(p.status, 401);
    assert_eq!(p.code, "unauthorized");
    assert_eq!(p.violations.len(), 2);
    assert_eq!(
        problem("header/authorization", "required parameter is missing").status,
        401
    );
    // Present but malformed, or another header missing: malformed, 400.
    assert_eq!(
        problem("header/Authorization", "must be a valid uri").status,
        400
    );
    assert_eq!(
        problem("header/X-Api-Version", "required parameter is missing").status,
        400
    );
}

/// Look-aheads at the anchored start (dropshot's names: a name, and not a UUID), which the
/// engine lacks, are checked as patterns of their own: nexus's path names and bodies took any
/// text (the pattern was skipped as unsupported).
#[test]
fn leading_look_aheads_are_checked() {
    const NAME: &str = "^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)^[a-z][a-z0-9-]*[a-zA-Z0-9]$";
    let check = |value: &str, pattern: &'static str| {
        let mut e = Violations::new();
        check_pattern(value, pattern, "/name", &mut e);
        e.is_empty()
    };
    assert!(check("my-disk", NAME));
    assert!(!check("My-disk", NAME)); // the name part
    assert!(!check("my-disk-", NAME));
    assert!(!check("abcdef01-2345-6789-abcd-ef0123456789", NAME)); // a UUID
    assert!(check("abcdef01-2345-6789-abcd-ef0123456789x", NAME)); // holds one
    // A positive look-ahead, with a group and a class holding `)` inside it.
    const BOTH: &str = "^(?=(a|b)[)x]*$)[a-z)]+";
    assert!(check("a)x", BOTH));
    assert!(!check("c)x", BOTH));
    // Followed by no second `^`: the rest is anchored at the same start.
    assert!(check("xyz", "^(?!abc)[a-z]+$"));
    assert!(!check("abcd", "^(?!abc)[a-z]+$"));
    // A look-ahead elsewhere is still beyond the engine: not checked, no violation.
    assert!(check("anything", "a(?!b)"));
}
