//! Whole numbers as integers (`runtime::integer`): every shape a generated type nests an
//! integer in, the messages for fractions and out-of-range values with their pointers, forms
//! and parameters, and what must stay untouched (floats, free-form JSON).

use std::collections::BTreeMap;

use apigen_server_runtime::body::{decode_form, decode_json};
use apigen_server_runtime::integer::{self, whole_text};
use apigen_server_runtime::params::FromParam;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize, PartialEq)]
struct Inner {
    count: u8,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Shapes {
    plain: i64,
    small: i32,
    unsigned: u64,
    #[serde(default)]
    optional: Option<i64>,
    list: Vec<i32>,
    map: BTreeMap<String, i64>,
    tuple: (i64, String, f64),
    nested: Vec<Inner>,
    float: f64,
    any: serde_json::Value,
    #[serde(flatten, deserialize_with = "integer::deserialize")]
    extra: BTreeMap<String, i64>,
}

const SHAPES: &str = r#"{
    "plain": -18114.0, "small": 1e3, "unsigned": 9.007199254740992e15, "optional": 0.0,
    "list": [1.0, 2, 3E0], "map": {"a": 4.0}, "tuple": [5.0, "s", 6.0],
    "nested": [{"count": 255.0}], "float": 7.0, "any": {"n": 8.0}, "more": 9.0
}"#;

#[test]
fn every_nesting_takes_whole_numbers() {
    let s: Shapes = decode_json(SHAPES.as_bytes()).unwrap();
    assert_eq!(s.plain, -18114);
    assert_eq!(s.small, 1000);
    assert_eq!(s.unsigned, 9_007_199_254_740_992);
    assert_eq!(s.optional, Some(0));
    assert_eq!(s.list, vec![1, 2, 3]);
    assert_eq!(s.map["a"], 4);
    assert_eq!(s.tuple, (5, "s".into(), 6.0));
    assert_eq!(s.nested, vec![Inner { count: 255 }]);
    assert_eq!(s.float, 7.0);
    // Free-form JSON is not rewritten: 8.0 stays a float.
    assert_eq!(s.any, json!({"n": 8.0}));
    assert!(s.any["n"].is_f64());
    assert_eq!(s.extra["more"], 9);
    // The same through a JSON value (generated `oneOf` variants decode that way).
    let value: serde_json::Value = serde_json::from_str(SHAPES).unwrap();
    let again: Shapes = integer::from_value(value).unwrap();
    assert_eq!(again, s);
}

/// The message a refused body gets, pointer first.
fn refusal(body: &str) -> String {
    decode_json::<Shapes>(body.as_bytes()).unwrap_err().message
}

#[test]
fn fractions_and_out_of_range_values_are_refused_with_their_pointer() {
    let with = |field: &str, value: &str| {
        let mut v: serde_json::Value = serde_json::from_str(SHAPES).unwrap();
        v[field] = serde_json::from_str(value).unwrap();
        refusal(&v.to_string())
    };
    assert_eq!(
        with("plain", "1.5"),
        "/plain: invalid type: floating point `1.5`, expected i64"
    );
    // Beyond 2^53 a double may not be what was written: past i64's minimum, the digits of
    // -9223372036854775809 are read as a double that rounds to i64::MIN.
    for beyond in ["-9223372036854775809", "9007199254740994.0", "9.3e18"] {
        let body = SHAPES.replace("-18114.0", beyond);
        let message = refusal(&body);
        assert!(
            message.starts_with("/plain: invalid value: floating point `"),
            "{beyond}: {message}"
        );
    }
    assert_eq!(
        with("small", "3e9"),
        "/small: invalid value: integer `3000000000`, expected i32"
    );
    assert_eq!(
        with("unsigned", "-1.0"),
        "/unsigned: invalid value: integer `-1`, expected u64"
    );
    assert_eq!(
        with("unsigned", "1e20"),
        "/unsigned: invalid value: floating point `1e+20`, expected u64"
    );
    assert_eq!(
        with("list", "[1.0, 2.5]"),
        "/list/1: invalid type: floating point `2.5`, expected i32"
    );
    assert_eq!(
        with("nested", r#"[{"count": 256.0}]"#),
        "/nested/0/count: invalid value: integer `256`, expected u8"
    );
    assert_eq!(
        with("tuple", r#"[0.5, "s", 1]"#),
        "/tuple/0: invalid type: floating point `0.5`, expected i64"
    );
    assert!(with("more", "1.25").contains("floating point `1.25`"));
    // Trailing bytes after the document are still a syntax error.
    let trailing = format!("{SHAPES} x");
    assert!(refusal(&trailing).starts_with("malformed JSON"));
}

/// Two optional fields: the shape whose derived `Deserialize` would take `[null, null]`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Update {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    data: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Holder {
    update: Option<Update>,
    updates: Vec<Update>,
    by_name: BTreeMap<String, Update>,
    tuple: (i64, String),
    list: Vec<i64>,
}

#[test]
fn a_struct_is_an_object_never_an_array() {
    // serde's sequence form of a struct (field values in order) is refused at any depth,
    // with the place.
    for (body, message) in [
        (
            "[null, null]",
            "invalid type: sequence, expected struct Update",
        ),
        ("[]", "invalid type: sequence, expected struct Update"),
    ] {
        let refused = decode_json::<Update>(body.as_bytes()).unwrap_err();
        assert_eq!(refused.status, 400);
        assert!(
            refused.message.ends_with(message),
            "{body}: {}",
            refused.message
        );
        assert!(integer::from_slice::<Update>(body.as_bytes()).is_err());
        assert!(integer::from_value::<Update>(serde_json::from_str(body).unwrap()).is_err());
    }
    let ok = r#"{"update": {"name": "a"}, "updates": [{}], "by_name": {"x": {}}, "tuple": [1, "s"], "list": [1, 2.0]}"#;
    let holder: Holder = decode_json(ok.as_bytes()).unwrap();
    assert_eq!(holder.tuple, (1, "s".to_string()));
    assert_eq!(holder.list, vec![1, 2]);
    let with = |field: &str, value: &str| {
        let mut v: serde_json::Value = serde_json::from_str(ok).unwrap();
        v[field] = serde_json::from_str(value).unwrap();
        decode_json::<Holder>(v.to_string().as_bytes())
            .unwrap_err()
            .message
    };
    assert_eq!(
        with("update", "[null, null]"),
        "/update: invalid type: sequence, expected struct Update"
    );
    assert_eq!(
        with("updates", "[{}, [\"a\"]]"),
        "/updates/1: invalid type: sequence, expected struct Update"
    );
    assert_eq!(
        with("by_name", r#"{"x": []}"#),
        "/by_name/x: invalid type: sequence, expected struct Update"
    );
    // The whole body as an array, where an object is asked for.
    let refused = decode_json::<Holder>(b"[null, [], {}, [1, \"s\"], []]").unwrap_err();
    assert!(
        refused.message.contains("expected struct Holder"),
        "{}",
        refused.message
    );
}

#[derive(Debug, Deserialize, PartialEq)]
struct Form {
    count: i64,
    #[serde(default)]
    tiny: Option<u8>,
    #[serde(default)]
    ratio: Option<f64>,
}

#[test]
fn forms_and_parameters_read_whole_numbers_written_as_json_numbers() {
    let f: Form = decode_form(b"count=5.0&tiny=2e0&ratio=1.5").unwrap();
    assert_eq!(
        f,
        Form {
            count: 5,
            tiny: Some(2),
            ratio: Some(1.5)
        }
    );
    let p = decode_form::<Form>(b"count=5.5").unwrap_err();
    assert_eq!(
        p.message,
        r#"/count: invalid value: string "5.5", expected i64"#
    );
    let p = decode_form::<Form>(b"count=1&tiny=256.0").unwrap_err();
    assert_eq!(p.violations[0].pointer, "/tiny");

    assert_eq!(i64::from_param("-18114.0"), Ok(-18114));
    assert_eq!(i32::from_param("1e3"), Ok(1000));
    assert_eq!(u8::from_param("255.00"), Ok(255));
    assert_eq!(
        u8::from_param("256.0"),
        Err(r#""256.0" is out of range for uint8"#.to_owned())
    );
    for not_whole in [
        "1.5",
        "1e19",
        "9007199254740994.0",
        "1.",
        ".5",
        "01.0",
        "+1.0",
        "1e",
        "inf",
        "NaN",
        " 1.0",
        "0x10",
    ] {
        assert_eq!(
            i64::from_param(not_whole),
            Err(format!(r#"expected an integer (int64), got "{not_whole}""#)),
            "{not_whole}"
        );
    }
}

#[test]
fn whole_text_follows_the_json_number_grammar() {
    for (text, whole) in [
        ("0", Some(0.0)),
        ("-0.0", Some(0.0)),
        ("10", Some(10.0)),
        ("1.000", Some(1.0)),
        ("1e3", Some(1000.0)),
        ("1E+2", Some(100.0)),
        ("2000e-3", Some(2.0)),
        ("1500e-3", None),
        ("0.5", None),
        ("-9007199254740992.0", Some(-9_007_199_254_740_992.0)),
        ("9007199254740994.0", None),
    ] {
        assert_eq!(whole_text(text), whole, "{text}");
    }
    for bad in [
        "", "-", "1.", ".1", "00", "-01", "1e", "1e+", "--1", "1.0.0", "1e400",
    ] {
        assert_eq!(whole_text(bad), None, "{bad}");
    }
}
