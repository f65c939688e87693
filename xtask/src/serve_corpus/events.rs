//! Reads a run: schemathesis's JSON report and its events, every failing check of every
//! case tallied per operation, named by the classes in `classes` where one applies.

use super::classes::*;
use super::*;

/// Reads schemathesis's JSON run report (cases, errors, warnings) and its events (every
/// check of every case, with the operation and the first failure's message). `document`,
/// the document as served (JSON), lets a class check a case's values against it.
pub(super) fn read_run(
    summary: &str,
    events: &str,
    document: Option<&serde_json::Value>,
) -> Result<Run, String> {
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
                let name = result.get("name").and_then(Json::as_str).unwrap_or("?");
                let answer = recorder
                    .get("interactions")
                    .and_then(|i| i.get(case)?.get("response"));
                let mut check = class_of(
                    name,
                    negative,
                    value,
                    (text("title"), text("message")),
                    answer,
                );
                if let Some(document) = document
                    && !negative
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                    && answer.and_then(|a| a.get("status_code")?.as_number()) == Some(400.0)
                    && value.is_some_and(|case| link_value_off_schema(document, case))
                {
                    check = LINK_VALUE_OFF_SCHEMA.to_string();
                }
                // An invalid query accepted whose bytes are a valid query's: see
                // [`query_same_bytes`].
                if let Some(document) = document
                    && negative
                    && check == "negative_data_rejection"
                    && value.is_some_and(|case| query_same_bytes(document, case, text("message")))
                {
                    check = QUERY_SAME_BYTES.to_string();
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
