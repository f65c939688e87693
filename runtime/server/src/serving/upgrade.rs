//! Owns operations whose answer switches protocols (`101`, taken for a WebSocket): a request
//! that does not ask for the switch gets `426 Upgrade Required` (RFC 9110 §15.5.22) with the
//! error body, before the implementation is called.
//!
//! A request that does ask reaches the implementation, which takes the connection over with
//! hyper's `OnUpgrade` from `ctx.extensions` (it is `Clone`) after answering 101.

use http::request::Parts;
use http::{HeaderValue, StatusCode, header};

use super::problem::Problem;

/// Whether the request asks to switch to `protocol` (`Connection: upgrade` and an `Upgrade`
/// naming it, case-insensitively); else the 426 that says what to send.
pub fn require(parts: &Parts, protocol: &'static str) -> Result<(), Problem> {
    let tokens = |name: header::HeaderName| {
        parts
            .headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|t| t.trim().to_ascii_lowercase())
            .collect::<Vec<_>>()
    };
    let connection = tokens(header::CONNECTION);
    let upgrade = tokens(header::UPGRADE);
    let named = |t: &String| t.split('/').next() == Some(protocol);
    if connection.iter().any(|t| t == "upgrade") && upgrade.iter().any(named) {
        return Ok(());
    }
    let mut problem = Problem::new(
        StatusCode::UPGRADE_REQUIRED,
        "upgrade_required",
        format!(
            "this operation switches the connection to {protocol}: send `Connection: upgrade` and `Upgrade: {protocol}`"
        ),
    );
    problem
        .headers
        .insert(header::UPGRADE, HeaderValue::from_static(protocol));
    problem
        .headers
        .insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    Err(problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(headers: &[(&str, &str)]) -> Parts {
        let mut request = http::Request::builder();
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn only_a_request_for_the_switch_passes() {
        let asks = parts(&[
            ("connection", "keep-alive, Upgrade"),
            ("upgrade", "WebSocket"),
        ]);
        assert!(require(&asks, "websocket").is_ok());
        for headers in [
            &[][..],
            &[("upgrade", "websocket")][..],
            &[("connection", "upgrade"), ("upgrade", "h2c")][..],
        ] {
            let problem = require(&parts(headers), "websocket").unwrap_err();
            assert_eq!(problem.status, StatusCode::UPGRADE_REQUIRED);
            assert_eq!(problem.headers[header::UPGRADE], "websocket");
        }
    }
}
