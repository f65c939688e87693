//! Reads a run: schemathesis's JSON report and its events, every failing check of every
//! case tallied per operation, named by the classes in `classes` where one applies.

use super::classes::*;
use super::*;

/// Reads schemathesis's JSON run report (cases, errors, warnings) and its events (every
/// check of every case, with the operation and the first failure's message).
pub(super) fn read_run(summary: &str, events: &str) -> Result<Run, String> {
    let json = Json::parse(summary)?;
    let mut run = Run {
        cases: json
            .get("test_cases")
            .and_then(|t| t.get("generated"))
            .and_then(Json::as_number)
            .unwrap_or(0.0) as usize,
        ..Run::default()
    };
    for error in json.get("errors").map(Json::items).unwrap_or_default() {
        let operation = error
            .get("label")
            .or_else(|| error.get("operation"))
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let message = ["title", "message"]
            .iter()
            .filter_map(|k| error.get(k).and_then(Json::as_str))
            .collect::<Vec<_>>()
            .join(": ");
        run.errors.push((operation, message));
    }
    if let Some(Json::Object(warnings)) = json.get("warnings") {
        for (kind, list) in warnings {
            let n = list.items().len();
            if n > 0 {
                run.warnings.insert(kind.clone(), n);
            }
        }
    }
    // Each failing (check, case) once: a case can be reported by more than one event.
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for line in events
        .lines()
        .filter(|l| l.contains("\"ScenarioFinished\""))
    {
        let Ok(event) = Json::parse(line) else {
            continue;
        };
        let Some(recorder) = event
            .get("ScenarioFinished")
            .and_then(|e| e.get("recorder"))
        else {
            continue;
        };
        let scenario = recorder.get("label").and_then(Json::as_str).unwrap_or("");
        let Some(Json::Object(checks)) = recorder.get("checks") else {
            continue;
        };
        for (case, results) in checks {
            let value = recorder
                .get("cases")
                .and_then(|c| c.get(case))
                .and_then(|c| c.get("value"));
            let negative = value
                .and_then(|v| v.get("meta")?.get("generation")?.get("mode")?.as_str())
                == Some("negative");
            // A stateful scenario's cases are of several operations: each says its own.
            let operation = value
                .and_then(|v| {
                    Some(format!(
                        "{} {}",
                        v.get("method")?.as_str()?,
                        v.get("path")?.as_str()?
                    ))
                })
                .unwrap_or_else(|| scenario.to_string());
            for result in results.items() {
                if result.get("status").and_then(Json::as_str) != Some("failure") {
                    continue;
                }
                let failure = result.get("failure_info").and_then(|f| f.get("failure"));
                let text = |key: &str| {
                    failure
                        .and_then(|f| f.get(key))
                        .and_then(Json::as_str)
                        .unwrap_or("")
                };
                let mut check = result
                    .get("name")
                    .and_then(Json::as_str)
                    .unwrap_or("?")
                    .to_string();
                if check == "status_code_conformance"
                    && (negative && undocumented_refusal(text("message"))
                        || undocumented_challenge(text("message")))
                {
                    check = UNDOCUMENTED_REFUSAL.to_string();
                }
                if matches!(
                    check.as_str(),
                    "positive_data_acceptance" | "status_code_conformance"
                ) && !negative
                    && value.is_some_and(beyond_64_bits)
                {
                    check = BEYOND_64_BITS.to_string();
                }
                // A discriminator without `mapping` whose variants pin the tag (openai's
                // `type: message`): OpenAPI's implicit mapping makes the schema names the
                // values, which schemathesis expects; the API sends the pinned values, and so
                // does the mock (issue 33's decision: both are read, the pinned one written).
                if check == "response_schema_conformance"
                    && text("title") == "Unknown discriminator value"
                {
                    check = PINNED_DISCRIMINATOR.to_string();
                }
                // A body sent as XML, which the generated server does not read (415, with the
                // generator's warning at the media type: a decision the README states).
                let xml = value
                    .and_then(|v| v.get("media_type")?.as_str())
                    .is_some_and(|m| m.ends_with("/xml") || m.ends_with("+xml"));
                if xml
                    && (check == "positive_data_acceptance"
                        || check == "status_code_conformance"
                            && text("message").contains("Received: 415"))
                {
                    check = XML_BODY.to_string();
                }
                // An empty array in a form body: `Items=[]` encodes to no pair at all, the
                // same bytes as a body without the required `Items` (twilio's bulk
                // operations), which the server refuses naming the field.
                // So in a multipart body, where an empty array is no part at all (openai's
                // image edits: `image: []`).
                let form = value
                    .and_then(|v| v.get("media_type")?.as_str())
                    .is_some_and(|m| {
                        m.starts_with("application/x-www-form-urlencoded")
                            || m.starts_with("multipart/form-data")
                    });
                let empty_array = value.and_then(|v| v.get("body")).is_some_and(|b| match b {
                    Json::Object(members) => members
                        .iter()
                        .any(|(_, v)| matches!(v, Json::Array(items) if items.is_empty())),
                    _ => false,
                });
                if form
                    && empty_array
                    && !negative
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                {
                    check = EMPTY_FORM_ARRAY.to_string();
                }
                // A `null` written as the text `null` where a url-encoded form or a query has
                // no null (discord's `sku_ids=null`, `components=null`): see [`null_as_text`].
                let refused_400 = recorder.get("interactions").and_then(|i| {
                    i.get(case)?
                        .get("response")?
                        .get("status_code")?
                        .as_number()
                }) == Some(400.0);
                if !negative
                    && refused_400
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                    && value.is_some_and(null_as_text)
                {
                    check = NULL_AS_TEXT.to_string();
                }
                // An "incorrect type" a form writes with the bytes of a valid value (discord's
                // multipart `sticker_ids: 0`, one part `0`, as the array `["0"]` is): see
                // [`form_same_bytes`].
                if negative
                    && check == "negative_data_rejection"
                    && value.is_some_and(|case| form_same_bytes(case, text("message")))
                {
                    check = FORM_SAME_BYTES.to_string();
                }
                // A request target the HTTP layer does not read: hyper answers a bare 414
                // (no body, no media type) to one over 64 KiB before any service sees it,
                // as servers bound request targets (RFC 9112 §3: at least 8,000 octets);
                // discord lets its path parameter `code` be 152,133 characters long. A head
                // larger still (that target beside long headers) gets hyper's bare 431.
                let status = recorder.get("interactions").and_then(|i| {
                    i.get(case)?
                        .get("response")?
                        .get("status_code")?
                        .as_number()
                });
                if status == Some(414.0) || status == Some(431.0) {
                    check = URI_TOO_LONG.to_string();
                }
                // An operation that switches protocols (nexus's serial console, a WebSocket):
                // schemathesis speaks plain HTTP and never asks for the switch, so every case
                // gets the 426 that says what to send.
                if status == Some(426.0) {
                    check = UPGRADE_REQUIRED.to_string();
                }
                // A valid request the server refused because an integer is beyond its
                // `format` (nexus's `uint32` `limit=9539416630`; schemathesis ignores the
                // `uint*` formats): the server's 400 says so, as the README's type table decides.
                let answer = recorder
                    .get("interactions")
                    .and_then(|i| i.get(case)?.get("response"));
                // Likewise a string that is not base64 where the document says
                // `contentEncoding: base64`, and an empty date-time: see [`refusal_by_decision`].
                let refused = answer
                    .filter(|a| a.get("status_code").and_then(Json::as_number) == Some(400.0))
                    .and_then(|a| a.get("content")?.get("$base64")?.as_str())
                    .and_then(base64_text);
                if !negative
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                    && let Some(class) = refused.as_deref().and_then(refusal_by_decision)
                {
                    check = class.to_string();
                }
                if !seen.insert((check.clone(), case.clone())) {
                    continue;
                }
                *run.by_check.entry(check.clone()).or_default() += 1;
                let message = match failure {
                    Some(_) => format!("{}: {}", text("title"), text("message")),
                    None => String::new(),
                };
                let entry = run
                    .failures
                    .entry((check, operation.clone()))
                    .or_insert((0, message));
                entry.0 += 1;
            }
        }
    }
    Ok(run)
}
