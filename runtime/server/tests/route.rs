//! `route::PathPattern`: how a path key the router cannot match on its own reads the captured
//! segments and the query; the routes themselves are tested end to end with the generated
//! crates of `tests/fixtures/routing.yaml` (`tests/tests/routing.rs`).

use apigen_server_runtime::params::PathParams;
use apigen_server_runtime::route::{PathPattern, Piece};

fn captured(pairs: &[(&str, &str)]) -> PathParams {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn read(pattern: &PathPattern, pairs: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
    let params = pattern.params(&captured(pairs))?;
    let mut out: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    out.sort();
    Some(out)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = list
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    out.sort();
    out
}

const JSON: PathPattern = PathPattern {
    segments: &[("Sid", &[Piece::Param("Sid"), Piece::Text(".json")])],
    query: &[],
};

const FILE: PathPattern = PathPattern {
    segments: &[(
        "s",
        &[
            Piece::Param("name"),
            Piece::Text("."),
            Piece::Param("format"),
        ],
    )],
    query: &[],
};

#[test]
fn a_parameter_beside_text() {
    assert_eq!(
        read(&JSON, &[("Sid", "AC1.json"), ("AccountSid", "AC0")]),
        Some(pairs(&[("Sid", "AC1"), ("AccountSid", "AC0")]))
    );
    // The text must be there, the parameter must not be empty.
    for no in ["AC1", "AC1.jso", ".json", "AC1.json.bak", ""] {
        assert_eq!(read(&JSON, &[("Sid", no)]), None, "{no:?}");
        assert!(!JSON.matches(&captured(&[("Sid", no)]), None), "{no:?}");
    }
    // A value that holds the text itself keeps it.
    assert_eq!(
        read(&JSON, &[("Sid", "a.json.json")]),
        Some(pairs(&[("Sid", "a.json")]))
    );
    // The capture must be there at all.
    assert_eq!(read(&JSON, &[("Other", "AC1.json")]), None);
}

#[test]
fn two_parameters_split_at_the_last_separator_that_leaves_both_non_empty() {
    assert_eq!(
        read(&FILE, &[("s", "a.tar.gz")]),
        Some(pairs(&[("name", "a.tar"), ("format", "gz")]))
    );
    assert_eq!(
        read(&FILE, &[("s", "a.b")]),
        Some(pairs(&[("name", "a"), ("format", "b")]))
    );
    // The last `.` would leave the format empty: the one before it is taken.
    assert_eq!(
        read(&FILE, &[("s", "a..")]),
        Some(pairs(&[("name", "a"), ("format", ".")]))
    );
    for no in ["ab", ".b", "a.", "."] {
        assert_eq!(read(&FILE, &[("s", no)]), None, "{no:?}");
    }
}

#[test]
fn a_renamed_capture_is_read_under_the_operation_s_own_name() {
    const RENAMED: PathPattern = PathPattern {
        segments: &[
            ("project_id", &[Piece::Param("template_name")]),
            ("b", &[Piece::Param("a")]),
            ("a", &[Piece::Param("b")]),
        ],
        query: &[],
    };
    assert_eq!(
        read(
            &RENAMED,
            &[("project_id", "basic"), ("a", "1"), ("b", "2"), ("v", "3")]
        ),
        Some(pairs(&[
            ("template_name", "basic"),
            ("a", "2"),
            ("b", "1"),
            ("v", "3")
        ]))
    );
}

#[test]
fn a_constant_query_is_one_pair_of_the_query_string() {
    const BETA: PathPattern = PathPattern {
        segments: &[],
        query: &[("beta", "true"), ("a b", "c&d")],
    };
    let none = captured(&[]);
    assert!(BETA.matches(&none, Some("beta=true&a+b=c%26d")));
    assert!(BETA.matches(&none, Some("x=1&a%20b=c%26d&beta=true&beta=false")));
    for no in [
        None,
        Some(""),
        Some("beta=true"),
        Some("beta=false&a+b=c%26d"),
        Some("betas=true&a+b=c%26d"),
        Some("beta=TRUE&a+b=c%26d"),
        Some("beta&a+b=c%26d"),
    ] {
        assert!(!BETA.matches(&none, no), "{no:?}");
    }
    assert!(PathPattern::ANY.matches(&none, None));
    assert_eq!(
        PathPattern::ANY
            .params(&captured(&[("x", "1")]))
            .map(|p| p.iter().count()),
        Some(1)
    );
}
