//! Unit tests of the pure parts: arguments, the defect table, schemathesis's events, the
//! classes and the report.

use super::classes::*;
use super::defects::parse_defects;
use super::*;

#[test]
fn arguments() {
    let a = Args::parse(&[
        "x.yaml".into(),
        "--filter".into(),
        "oai".into(),
        "--max-examples".into(),
        "5".into(),
        "--seed".into(),
        "7".into(),
        "--workers".into(),
        "3".into(),
        "--seeds".into(),
        "3".into(),
        "--generate-only".into(),
    ])
    .unwrap();
    assert_eq!(a.seeds().collect::<Vec<_>>(), [7, 8, 9]);
    // Large documents take half the examples when several seeds run.
    assert_eq!((a.examples_for(767), a.examples_for(193)), (3, 5));
    assert!(a.generate_only);
    assert_eq!(a.dirs, [PathBuf::from("x.yaml")]);
    assert_eq!(
        (a.filters.as_slice(), a.max_examples, a.seed, a.workers),
        (&["oai".to_string()][..], 5, 7, 3)
    );
    assert!(Args::parse(&["--seed".into(), "x".into()]).is_err());
    assert!(Args::parse(&["--nope".into()]).is_err());
}

#[test]
fn runs_of_several_seeds_add_up() {
    let run = |cases, check: &str, n| {
        Outcome::Ran(Run {
            cases,
            by_check: [(check.to_string(), n)].into(),
            failures: [(
                (check.to_string(), "GET /a".to_string()),
                (n, format!("{check} first")),
            )]
            .into(),
            exit: Some(if n > 0 { 1 } else { 0 }),
            ..Run::default()
        })
    };
    let Outcome::Ran(both) = run(10, "x", 1).and(run(5, "x", 2)) else {
        panic!("two runs are a run");
    };
    assert_eq!(
        (both.cases, both.by_check["x"], both.exit),
        (15, 3, Some(1))
    );
    assert_eq!(
        both.failures[&("x".to_string(), "GET /a".to_string())],
        (3, "x first".to_string())
    );
    let broken = Outcome::Broken("did not start".into());
    assert_eq!(run(1, "x", 0).and(broken.clone()), broken);
    assert_eq!(broken.clone().and(run(1, "x", 0)), broken);
}

#[test]
fn refusals_the_document_has_no_status_for_are_told_apart() {
    assert!(undocumented_refusal("Received: 400\nDocumented: 200"));
    assert!(undocumented_refusal("Received: 400\nDocumented: 204, 404"));
    assert!(undocumented_refusal("Received: 401\nDocumented: "));
    assert!(!undocumented_refusal("Received: 400\nDocumented: 200, 422"));
    assert!(!undocumented_refusal("Received: 422\nDocumented: 200, 400"));
    assert!(!undocumented_refusal("Received: 501\nDocumented: 200"));
    assert!(!undocumented_refusal("Received: 200\nDocumented: 201"));
    assert!(!undocumented_refusal("no status"));
    assert!(undocumented_challenge(
        "Received: 401\nDocumented: 200, 400, 404"
    ));
    assert!(!undocumented_challenge(
        "Received: 401\nDocumented: 200, 401"
    ));
    assert!(!undocumented_challenge(
        "Received: 401\nDocumented: 200, 4XX"
    ));
    assert!(!undocumented_challenge("Received: 403\nDocumented: 200"));
}

#[test]
fn integers_beyond_their_format_are_found_in_the_servers_refusal() {
    // Base64 as schemathesis stores bodies; the messages as the runtime writes them.
    let encode = |text: &str| {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in text.as_bytes().chunks(3) {
            let n =
                chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
            for i in 0..=chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
            out.push_str(&"=".repeat(3 - chunk.len()));
        }
        out
    };
    for (body, beyond) in [
        (
            r#"{"message":"query/limit: \"9539416630\" is out of range for uint32"}"#,
            true,
        ),
        (
            r#"{"message":"/ncpus: invalid value: integer `70000`, expected u16"}"#,
            true,
        ),
        (
            r#"{"message":"query/limit: expected an integer (uint32), got \"x\""}"#,
            false,
        ),
        (
            r#"{"message":"/name: invalid type: integer `5`, expected a string"}"#,
            false,
        ),
    ] {
        let decoded = base64_text(&encode(body)).expect("base64");
        assert_eq!(decoded, body);
        assert_eq!(beyond_format(&decoded), beyond, "{body}");
    }
    assert_eq!(base64_text("not base64!"), None);
}

#[test]
fn a_null_written_as_text_is_named_only_where_the_encoding_has_none() {
    for (case, named) in [
        (r#"{"query": {"sku_ids": ["0", "null"]}}"#, true),
        (r#"{"query": {"status": "null"}}"#, true),
        (r#"{"query": {"sku_ids": ["0", "1"]}}"#, false),
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"type": null}}"#,
            true,
        ),
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"ids": ["1", null]}}"#,
            true,
        ),
        // A JSON body and a multipart body have their null.
        (
            r#"{"media_type": "application/json", "body": {"type": null}}"#,
            false,
        ),
        (
            r#"{"media_type": "multipart/form-data", "body": {"type": null}}"#,
            false,
        ),
    ] {
        let case = Json::parse(case).unwrap();
        assert_eq!(null_as_text(&case), named, "{case:?}");
    }
}

#[test]
fn an_incorrect_type_a_form_cannot_write_is_named_only_in_a_form() {
    let message = "Invalid data should have been rejected ⏎ Expected: 400 ⏎ Invalid component: in body - sticker_ids: Incorrect type";
    for (case, named) in [
        (
            r#"{"media_type": "multipart/form-data", "body": {"sticker_ids": 0}}"#,
            true,
        ),
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"sticker_ids": "0"}}"#,
            true,
        ),
        (
            r#"{"media_type": "application/json", "body": {"sticker_ids": 0}}"#,
            false,
        ),
        (
            r#"{"media_type": "multipart/form-data", "body": {"sticker_ids": {"a": 1}}}"#,
            false,
        ),
        (
            r#"{"media_type": "multipart/form-data", "body": {"other": 0}}"#,
            false,
        ),
    ] {
        let case = Json::parse(case).unwrap();
        assert_eq!(form_same_bytes(&case, message), named, "{case:?}");
    }
    let case = Json::parse(r#"{"media_type": "multipart/form-data", "body": {"a": 0}}"#).unwrap();
    assert!(!form_same_bytes(
        &case,
        "Invalid component: in body - a: Value greater than maximum"
    ));
}

#[test]
fn refusals_by_decision_are_named_from_the_servers_answer() {
    for (body, class) in [
        (
            r#"{"message":"query/limit: \"9539416630\" is out of range for uint32"}"#,
            Some(BEYOND_FORMAT),
        ),
        (
            r#"{"message":"/avatar: invalid base64 character at 0"}"#,
            Some(NOT_BASE64),
        ),
        (
            r#"{"message":"/scheduled_end_time: expected four digit year (or leading sign for six digit year), but found end of input"}"#,
            Some(EMPTY_DATE_TIME),
        ),
        (
            r#"{"message":"/when: expected four digit year (or leading sign for six digit year), but found \"x\""}"#,
            None,
        ),
        (r#"{"message":"/name: must match the pattern"}"#, None),
        (
            r#"{"title":"query/filter: required parameter is missing","status":400}"#,
            Some(REQUIRED_BESIDE_REF),
        ),
    ] {
        assert_eq!(refusal_by_decision(body), class, "{body}");
    }
}

#[test]
fn integers_beyond_64_bits_are_found_in_any_part_of_a_case() {
    let case = |text: &str| Json::parse(text).unwrap();
    assert!(beyond_64_bits(&case(
        r#"{"query": {"page[limit]": 12628635628150235136}}"#
    )));
    assert!(beyond_64_bits(&case(
        r#"{"body": {"a": [1, -9223372036854775809]}}"#
    )));
    assert!(beyond_64_bits(&case(
        r#"{"path_parameters": {"id": "99999999999999999999"}}"#
    )));
    assert!(!beyond_64_bits(&case(
        r#"{"query": {"n": 9223372036854775000, "s": "12a", "f": 2.5}}"#
    )));

    let case = |id: &str, mode: &str, documented: &str| {
        format!(
            r#"{{"ScenarioFinished": {{"recorder": {{"label": "GET /k", "cases": {{"{id}": {{"value": {{"method": "GET", "path": "/k", "meta": {{"generation": {{"mode": "{mode}"}}}}}}}}}}, "checks": {{"{id}": [{{"name": "status_code_conformance", "status": "failure", "failure_info": {{"failure": {{"title": "Undocumented status code", "message": "Received: 400\nDocumented: {documented}"}}}}}}]}}}}}}}}"#
        )
    };
    let events = [
        case("n1", "negative", "200"),
        case("n2", "negative", "200, 422"),
        case("p1", "positive", "200"),
    ]
    .join("\n");
    let run = read_run(r#"{"test_cases": {"generated": 3}}"#, &events, None).unwrap();
    assert_eq!(run.by_check[UNDOCUMENTED_REFUSAL], 1);
    assert_eq!(run.by_check["status_code_conformance"], 2);
    let class = Defect {
        document: "*".into(),
        check: UNDOCUMENTED_REFUSAL.into(),
        operation: "*".into(),
        reason: "r".into(),
    };
    assert!(class.covers("any.yaml", UNDOCUMENTED_REFUSAL, "GET /k"));
    assert!(!class.covers("any.yaml", "status_code_conformance", "GET /k"));
}

#[test]
fn the_defect_table() {
    let doc = "# Serving\n\n## Document defects\n\n| document | check | operation | reason |\n|---|---|---|---|\n| `a/b.yaml` | `response_schema_conformance` | `GET /x` | its example breaks its schema |\n| `a/c.yaml` | `error` | `*` | unsatisfiable |\n\n## Other\n\n| `z` | `y` | `x` | w |\n";
    let defects = parse_defects(doc).unwrap();
    assert_eq!(defects.len(), 2);
    assert!(defects[0].covers("a/b.yaml", "response_schema_conformance", "GET /x"));
    assert!(!defects[0].covers("a/b.yaml", "response_schema_conformance", "GET /y"));
    assert!(defects[1].covers("a/c.yaml", "error", "POST /anything"));
    let no_reason = "## Document defects\n| `a` | `b` | `c` |  |\n";
    assert!(parse_defects(no_reason).is_err());
}

#[test]
fn schemathesis_events_are_tallied_per_check_and_operation() {
    let summary = r#"{"test_cases": {"generated": 12}, "errors": [{"label": "GET /z", "title": "Schema error", "message": "unsatisfiable"}], "warnings": {"missing_auth": [], "missing_test_data": ["GET /x"]}}"#;
    let fail = |case: &str, op: &str, check: &str| {
        let (method, path) = op.split_once(' ').unwrap();
        format!(
            r#"{{"ScenarioFinished": {{"recorder": {{"label": "{op}", "cases": {{"{case}": {{"value": {{"method": "{method}", "path": "{path}"}}}}}}, "checks": {{"{case}": [{{"name": "not_a_server_error", "status": "success"}}, {{"name": "{check}", "status": "failure", "failure_info": {{"failure": {{"title": "Bad", "message": "why"}}}}}}]}}}}}}}}"#
        )
    };
    let events = [
        fail("c1", "GET /x", "response_schema_conformance"),
        fail("c2", "GET /x", "response_schema_conformance"),
        fail("c2", "GET /x", "response_schema_conformance"), // the same case again
        fail("c3", "POST /y", "negative_data_rejection"),
        r#"{"PhaseStarted": {}}"#.to_string(),
    ]
    .join("\n");
    let run = read_run(summary, &events, None).unwrap();
    assert_eq!(run.cases, 12);
    assert_eq!(run.by_check["response_schema_conformance"], 2);
    assert_eq!(run.by_check["negative_data_rejection"], 1);
    assert_eq!(
        run.failures[&("response_schema_conformance".into(), "GET /x".into())],
        (2, "Bad: why".to_string())
    );
    assert_eq!(
        run.errors,
        [(
            "GET /z".to_string(),
            "Schema error: unsatisfiable".to_string()
        )]
    );
    assert_eq!(run.warnings.get("missing_test_data"), Some(&1));
    assert!(!run.warnings.contains_key("missing_auth"));

    let doc = Document {
        base: PathBuf::from("."),
        root: "a.yaml".into(),
        label: "a.yaml".into(),
        split: false,
    };
    let mut row = Row::new("a", &doc);
    row.model = Some(Model::default());
    row.outcome = Outcome::Ran(run);
    let defects = vec![Defect {
        document: "a.yaml".into(),
        check: "response_schema_conformance".into(),
        operation: "*".into(),
        reason: "r".into(),
    }];
    row.judge(&defects);
    assert_eq!(row.verdict(), Verdict::Fails);
    assert_eq!(
        row.unlisted,
        [
            ("negative_data_rejection".to_string(), "POST /y".to_string()),
            ("error".to_string(), "GET /z".to_string())
        ]
    );
    assert!(stale_defects(&[row.clone()], &defects).is_empty());
    let report = render(
        &[row],
        &[],
        &Args::parse(&[]).unwrap(),
        Duration::from_secs(1),
    );
    assert!(report.contains("| `a.yaml` | 0 | 12 | negative_data_rejection 1, response_schema_conformance 2, errors 1 | 1 (response_schema_conformance) | **fails** |"), "{report}");
    assert!(
        report.contains("- `negative_data_rejection` `POST /y`: 1 × Bad: why"),
        "{report}"
    );
}

#[test]
fn failures_on_a_414_are_named_uri_too_long() {
    let event = |status: u16| {
        format!(
            r#"{{"ScenarioFinished": {{"recorder": {{"label": "PUT /i/{{code}}", "cases": {{"c1": {{"value": {{"method": "PUT", "path": "/i/{{code}}", "meta": {{"generation": {{"mode": "negative"}}}}}}}}}}, "checks": {{"c1": [{{"name": "negative_data_rejection", "status": "failure", "failure_info": {{"failure": {{"title": "Accepted", "message": "why"}}}}}}, {{"name": "content_type_conformance", "status": "failure", "failure_info": {{"failure": {{"title": "Media", "message": "none"}}}}}}]}}, "interactions": {{"c1": {{"response": {{"status_code": {status}}}}}}}}}}}}}"#
        )
    };
    let summary = r#"{"test_cases": {"generated": 1}}"#;
    let run = read_run(summary, &event(414), None).unwrap();
    assert_eq!(
        run.by_check.get(URI_TOO_LONG),
        Some(&1),
        "{:?}",
        run.by_check
    );
    assert!(!run.by_check.contains_key("negative_data_rejection"));
    // hyper's 431 to a head larger still is the same class.
    let run = read_run(summary, &event(431), None).unwrap();
    assert_eq!(run.by_check.get(URI_TOO_LONG), Some(&1));
    let run = read_run(summary, &event(400), None).unwrap();
    assert!(!run.by_check.contains_key(URI_TOO_LONG));
    assert_eq!(run.by_check["negative_data_rejection"], 1);
}

#[test]
fn an_empty_array_in_a_form_is_named() {
    let event = |media: &str, items: &str| {
        format!(
            r#"{{"ScenarioFinished": {{"recorder": {{"label": "POST /b", "cases": {{"c1": {{"value": {{"method": "POST", "path": "/b", "media_type": "{media}", "body": {{"Items": {items}}}, "meta": {{"generation": {{"mode": "positive"}}}}}}}}}}, "checks": {{"c1": [{{"name": "positive_data_acceptance", "status": "failure", "failure_info": {{"failure": {{"title": "Rejected", "message": "why"}}}}}}]}}}}}}}}"#
        )
    };
    let summary = r#"{"test_cases": {"generated": 1}}"#;
    let form = "application/x-www-form-urlencoded";
    let run = read_run(summary, &event(form, "[]"), None).unwrap();
    assert_eq!(
        run.by_check.get(EMPTY_FORM_ARRAY),
        Some(&1),
        "{:?}",
        run.by_check
    );
    for (media, items) in [(form, "[1]"), ("application/json", "[]")] {
        let run = read_run(summary, &event(media, items), None).unwrap();
        assert_eq!(run.by_check["positive_data_acceptance"], 1);
    }
}

#[test]
fn credentials_for_every_scheme() {
    use apigen::ir::SchemeKind;
    let model = Model {
        schemes: vec![
            ("bearerAuth".into(), SchemeKind::Bearer),
            (
                "api \"key\"".into(),
                SchemeKind::ApiKeyHeader("X-Key".into()),
            ),
            ("basic".into(), SchemeKind::Basic),
        ],
        ..Model::default()
    };
    let config = schemathesis_config(&model, "k");
    assert!(
        config.contains("[auth.openapi.\"bearerAuth\"]\nbearer = \"k\""),
        "{config}"
    );
    assert!(
        config.contains("[auth.openapi.\"api \\\"key\\\"\"]\napi_key = \"k\""),
        "{config}"
    );
    assert!(
        config.contains("username = \"mock\"\npassword = \"k\""),
        "{config}"
    );
}

#[test]
fn an_empty_date_time_refused_by_the_schema_walk_is_named() {
    let body = Json::parse(r#"{"name": "", "scheduled_end_time": "", "at": "2000-01-01T00:00:00Z", "list": [{"t": ""}]}"#).unwrap();
    assert!(empty_date_time_named(
        r#"{"message":"body: must match exactly one of the 3 schemas of oneOf, matches none (#0: /entity_metadata/location: is required; #2: /scheduled_end_time: must be a valid date-time)"}"#,
        &body
    ));
    assert!(empty_date_time_named(
        r#"{"message":"/list/0/t: must be a valid date-time"}"#,
        &body
    ));
    // A date-time that is not empty, or a place the body does not have: not this class.
    assert!(!empty_date_time_named(
        r#"{"message":"/at: must be a valid date-time"}"#,
        &body
    ));
    assert!(!empty_date_time_named(
        r#"{"message":"/gone: must be a valid date-time"}"#,
        &body
    ));
    assert!(!empty_date_time_named(
        r#"{"message":"/name: must be a valid uuid"}"#,
        &body
    ));
}

#[test]
fn an_empty_path_parameter_is_named() {
    let case = |text: &str| Json::parse(text).unwrap();
    assert!(empty_path_segment(&case(
        r#"{"path_parameters": {"user_id": ""}}"#
    )));
    assert!(!empty_path_segment(&case(
        r#"{"path_parameters": {"user_id": "0"}}"#
    )));
    assert!(!empty_path_segment(&case(r#"{"query": {"q": ""}}"#)));
}

#[test]
fn an_object_in_a_form_is_named_only_in_a_url_encoded_form() {
    for (case, named) in [
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"attachments": [{"title": "a"}]}}"#,
            true,
        ),
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"data": {"content": "a"}}}"#,
            true,
        ),
        (
            r#"{"media_type": "application/x-www-form-urlencoded", "body": {"ids": ["1", "2"]}}"#,
            false,
        ),
        // A multipart part holds the JSON of the array.
        (
            r#"{"media_type": "multipart/form-data", "body": {"attachments": [{"title": "a"}]}}"#,
            false,
        ),
    ] {
        let case = Json::parse(case).unwrap();
        assert_eq!(object_in_url_encoded_form(&case), named, "{case:?}");
    }
    let case = Json::parse(
        r#"{"media_type": "application/x-www-form-urlencoded", "body": {"attachments": [{}]}}"#,
    )
    .unwrap();
    let refused = Json::parse(r#"{"status_code": 400}"#).unwrap();
    let class = |negative, answer: &Json| {
        class_of(
            "positive_data_acceptance",
            negative,
            Some(&case),
            ("Schema-valid request rejected", ""),
            Some(answer),
        )
    };
    assert_eq!(class(false, &refused), OBJECT_IN_URL_ENCODED_FORM);
    assert_eq!(class(true, &refused), "positive_data_acceptance");
}

#[test]
fn an_invalid_body_over_the_limit_is_named_by_its_413() {
    let case = Json::parse(r#"{"media_type": "application/json", "body": {"nick": "…"}}"#).unwrap();
    let class = |negative, status: &str| {
        let answer = Json::parse(&format!(r#"{{"status_code": {status}}}"#)).unwrap();
        class_of(
            "negative_data_rejection",
            negative,
            Some(&case),
            ("Schema-violating request accepted", ""),
            Some(&answer),
        )
    };
    assert_eq!(class(true, "413"), BODY_OVER_LIMIT);
    // A valid body refused for its size stays a failure, as does any other status.
    assert_eq!(class(false, "413"), "negative_data_rejection");
    assert_eq!(class(true, "200"), "negative_data_rejection");
}

#[test]
fn a_stateful_value_the_parameter_refuses_is_named() {
    let document: serde_json::Value = serde_json::from_str(
        r##"{"paths": {"/system/user/{user_name}": {"get": {"parameters": [
            {"$ref": "#/components/parameters/UserName"}]}}},
         "components": {"parameters": {"UserName": {"name": "user_name", "in": "path",
            "required": true, "schema": {"type": "string", "pattern":
            "^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)^[a-z][a-z0-9-]*[a-zA-Z0-9]$"}}}}}"##,
    )
    .unwrap();
    let case = |phase: &str, name: &str| {
        Json::parse(&format!(
            r#"{{"method": "GET", "path": "/system/user/{{user_name}}", "path_parameters": {{"user_name": "{name}"}}, "meta": {{"phase": {{"name": "{phase}"}}}}}}"#
        ))
        .unwrap()
    };
    let uuid = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
    assert!(link_value_off_schema(&document, &case("stateful", uuid)));
    assert!(!link_value_off_schema(
        &document,
        &case("stateful", "default-silo")
    ));
    // Outside the stateful phase schemathesis makes the value from the schema itself: a
    // refusal there is the server's to answer for.
    assert!(!link_value_off_schema(&document, &case("fuzzing", uuid)));
}

#[test]
fn an_invalid_query_with_a_valid_querys_bytes_is_named() {
    let document: serde_json::Value = serde_json::from_str(
        r##"{"paths": {"/orgs/{org}/teams": {
          "parameters": [{"name": "per_page", "in": "query", "schema": {"type": "string"}}],
          "get": {"parameters": [
            {"$ref": "#/components/parameters/per-page"},
            {"name": "page", "in": "query", "required": true, "schema": {"type": "integer"}},
            {"name": "ids", "in": "query", "explode": false, "schema": {"type": "integer"}}]}}},
         "components": {"parameters": {"per-page": {"name": "per_page", "in": "query",
            "schema": {"type": "integer", "maximum": 100}}}}}"##,
    )
    .unwrap();
    let named = |name: &str, value: &str| {
        let case = Json::parse(&format!(
            r#"{{"method": "GET", "path": "/orgs/{{org}}/teams", "query": {{"{name}": {value}}}}}"#
        ))
        .unwrap();
        let message = format!(
            "Invalid component: parameter `{name}` in query - violates `type` at /properties/{name} (was integer, became array)"
        );
        query_same_bytes(&document, &case, &message)
    };
    // One item that is a valid value (a whole number is an integer), or none for an
    // optional parameter: the bytes of a valid query.
    assert!(named("per_page", "[50.0]"));
    assert!(named("per_page", "[50]"));
    assert!(named("per_page", "[]"));
    // An item the schema refuses, two items, a required parameter left out, a scalar, or
    // a parameter that is not written one pair per item: the server has something to refuse.
    assert!(!named("per_page", "[1000]"));
    assert!(!named("per_page", r#"["x"]"#));
    assert!(!named("per_page", "[1, 2]"));
    assert!(!named("page", "[]"));
    assert!(!named("per_page", "7"));
    assert!(!named("ids", "[7]"));
    // The operation's `per_page` (an integer up to 100) replaces the path item's (any
    // string), so `["x"]` and `[1000]` above were held to the operation's.
}
