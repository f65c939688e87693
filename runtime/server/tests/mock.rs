//! `runtime::mock`: the first candidate that fits the answer's type (and its checks) is the
//! one served, with every candidate's reason when none does; the mock program's options.

use apigen_server_runtime::mock::{self, MockArgs};
use apigen_server_runtime::ratelimit::{Quota, RateLimitPolicy};
use apigen_server_runtime::validate::{Validate, Violations};
use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq)]
struct Pet {
    id: i64,
    name: String,
}

impl Validate for Pet {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        if self.name.is_empty() {
            out.push(format!("{pointer}/name"), "must not be empty");
        }
    }
}

#[test]
fn the_first_candidate_that_fits_is_served() {
    // An example that does not fit the type (a string id), then one that does.
    let pet: Pet = mock::value(
        "getPet: 200 body",
        &[r#"{"id": "x", "name": "a"}"#, r#"{"id": 2.0, "name": "b"}"#],
    )
    .unwrap();
    assert_eq!(
        pet,
        Pet {
            id: 2,
            name: "b".into()
        }
    );
    // An array is never an object, even for the mock.
    assert!(mock::value::<Pet>("x", &[r#"[1, "a"]"#]).is_err());
    // `checked` also applies the type's checks.
    let pet: Pet = mock::checked(
        "x",
        &[r#"{"id": 1, "name": ""}"#, r#"{"id": 3, "name": "c"}"#],
    )
    .unwrap();
    assert_eq!(pet.id, 3);
    let none =
        mock::checked::<Pet>("getPet: 200 body", &[r#"{"id": 1, "name": ""}"#, "{}"]).unwrap_err();
    assert_eq!(
        none.to_string(),
        "the mock has no value for getPet: 200 body that fits its type: candidate 1: /name: must not be empty; candidate 2: missing field `id` at line 1 column 2"
    );
    let problem = none.problem();
    assert_eq!(
        (problem.status.as_u16(), &*problem.code),
        (500, "mock_has_no_value")
    );
}

fn args(list: &[&str]) -> Result<MockArgs, String> {
    MockArgs::parse(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn the_program_s_options() {
    let a = args(&[
        "--port",
        "0",
        "--key",
        "k",
        "--plan",
        "pro",
        "--cors-origin",
        "*",
        "--idempotency",
    ])
    .unwrap();
    assert_eq!(a.addr.to_string(), "127.0.0.1:0");
    assert_eq!(
        (a.key.as_str(), a.plan.as_deref(), a.no_idempotency),
        ("k", Some("pro"), false)
    );
    assert_eq!(a.cors, ["*"]);
    let a = args(&["--addr", "0.0.0.0:9000"]).unwrap();
    // Replay is off unless asked (the key is still checked as the document declares it).
    assert!(a.no_idempotency);
    assert!(args(&["--no-idempotency"]).unwrap().no_idempotency);
    assert_eq!(a.addr.to_string(), "0.0.0.0:9000");
    // Without --key, a fresh one of some length.
    assert!(a.key.starts_with("mock-") && a.key.len() > 20, "{}", a.key);
    for (bad, says) in [
        (&["--port", "x"][..], "`x` is not a port number"),
        (&["--port"], "--port needs a port number"),
        (&["--addr", "nowhere"], "`nowhere` is not HOST:PORT"),
        (&["--frobnicate"], "unknown option `--frobnicate`"),
    ] {
        let err = args(bad).unwrap_err();
        assert!(err.contains(says), "{bad:?}: {err}");
    }
    // A plan the document's x-rate-limit does not have.
    let policy = RateLimitPolicy {
        plans: [(
            "free".to_string(),
            Quota {
                per_minute: 1,
                per_day: 1,
            },
        )]
        .into_iter()
        .collect(),
        anonymous_plan: "free".into(),
        default_plan: "free".into(),
        ban_strikes: 10,
        ban: std::time::Duration::from_secs(1),
    };
    let err = args(&["--plan", "gold"])
        .unwrap()
        .config(Some(policy.clone()))
        .unwrap_err();
    assert_eq!(err, "--plan: the document has no plan `gold` (it has free)");
    assert!(args(&[]).unwrap().config(Some(policy)).is_ok());
    assert!(
        args(&["--cors-origin", "not an origin"])
            .unwrap()
            .config(None)
            .is_err()
    );
}
