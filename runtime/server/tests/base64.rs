//! Base64 bytes (`contentEncoding`, OpenAPI 3.1): the RFC 4648 test vectors, both alphabets,
//! optional padding, refusals; and the name check of pattern-named maps.

use apigen_server_runtime::base64::{Base64, Base64Url, decode, encode};
use apigen_server_runtime::validate::{Violations, check_key_pattern};
use std::collections::BTreeMap;

#[test]
fn rfc_4648_vectors() {
    let vectors = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];
    for (plain, coded) in vectors {
        assert_eq!(encode(plain.as_bytes(), false), coded);
        assert_eq!(decode(coded, false).unwrap(), plain.as_bytes());
        // Padding is optional on input; the URL-safe form is written without it.
        assert_eq!(
            decode(coded.trim_end_matches('='), false).unwrap(),
            plain.as_bytes()
        );
        assert_eq!(encode(plain.as_bytes(), true), coded.trim_end_matches('='));
    }
}

#[test]
fn alphabets_differ_and_garbage_is_refused() {
    let bytes = [0xfb, 0xff, 0xbf];
    assert_eq!(encode(&bytes, false), "+/+/");
    assert_eq!(encode(&bytes, true), "-_-_");
    assert!(decode("-_-_", false).is_err());
    assert!(decode("+/+/", true).is_err());
    for bad in ["Zg===", "Z", "Zm9v!", "Zm 9v"] {
        assert!(decode(bad, false).is_err(), "{bad}");
    }
}

#[test]
fn serde_writes_text() {
    let b: Base64 = serde_json::from_str("\"aGk=\"").unwrap();
    assert_eq!(b.as_slice(), b"hi");
    assert_eq!(serde_json::to_string(&b).unwrap(), "\"aGk=\"");
    let u = Base64Url::from(vec![0xff]);
    assert_eq!(serde_json::to_string(&u).unwrap(), "\"_w\"");
    assert!(serde_json::from_str::<Base64>("17").is_err());
}

#[test]
fn map_names_are_checked() {
    let mut map = BTreeMap::new();
    map.insert("x-ok".to_string(), 1);
    map.insert("nope".to_string(), 2);
    let mut out = Violations::new();
    check_key_pattern(&map, "^x-", "/labels", &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out.as_slice()[0].pointer, "/labels/nope");
}
