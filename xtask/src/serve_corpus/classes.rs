//! The failures the harness names by what caused them (a class listed in
//! docs/reports/serving.md for every document: `integer_beyond_64_bits`, `null_as_text`,
//! `uri_too_long`, …), each recognized from the case schemathesis sent or the server's answer.

use super::*;

/// Appended to a schemathesis error that its log shows to be Hypothesis failing in its own
/// source reader (see `serve`), which the harness calls a `tool_error`.
pub(super) const TOOL_ERROR_NOTE: &str = " (Hypothesis's own: lambda_sources.py)";

/// The name the harness gives a valid form body's refusal when the case holds an empty array,
/// which a form cannot write (no pair at all).
pub(super) const EMPTY_FORM_ARRAY: &str = "empty_form_array";

/// The name the harness gives a valid request's refusal where a url-encoded form or a query
/// carried a `null` as the text `null` (see [`null_as_text`]).
pub(super) const NULL_AS_TEXT: &str = "null_as_text";

/// Whether a case writes a `null` where its encoding has none: a member of a url-encoded form
/// body that is `null` (or a list holding `null`), which schemathesis writes as the text
/// `null`, or a query value recorded as that text (`sku_ids=0&sku_ids=null`, an item of
/// `oneOf: [null, SnowflakeType]`). RFC 6570 leaves an undefined value out; the generated
/// server reads the text as text (book/src/reference/type-mapping.md: only a multipart part's `null` is
/// JSON's null) and refuses it where the member is no string.
pub(super) fn null_as_text(case: &Json) -> bool {
    let form = case
        .get("media_type")
        .and_then(Json::as_str)
        .is_some_and(|m| m.starts_with("application/x-www-form-urlencoded"));
    let null = |v: &Json| match v {
        Json::Null => true,
        Json::Array(items) => items.iter().any(|i| matches!(i, Json::Null)),
        _ => false,
    };
    let text_null = |v: &Json| match v {
        Json::String(t) => t == "null",
        Json::Array(items) => items.iter().any(|i| i.as_str() == Some("null")),
        _ => false,
    };
    let members = |key: &str| match case.get(key) {
        Some(Json::Object(members)) => members.iter().map(|(_, v)| v).collect(),
        _ => Vec::new(),
    };
    form && members("body").into_iter().any(null) || members("query").into_iter().any(text_null)
}

/// The name the harness gives a valid url-encoded form's refusal where the case holds an
/// object, as a member or inside an array (see [`object_in_url_encoded_form`]).
pub(super) const OBJECT_IN_URL_ENCODED_FORM: &str = "object_in_url_encoded_form";

/// Whether a case's url-encoded body holds an object, as a member or among an array's items
/// (discord's slack webhook: `attachments`, an array of embeds; its interaction callback:
/// `data`, an object). A url-encoded form writes an array as one pair per item and has no
/// spelling for an object inside it (RFC 6570's form style stops at lists of text), and an
/// object member the document gives no `encoding` for has none either, so schemathesis
/// writes each object's member names as the values (`attachments=thumb_url&attachments=color`,
/// `data=content&data=flags`): text no object is. A multipart part can hold the JSON of the
/// object or array; a url-encoded pair cannot.
pub(super) fn object_in_url_encoded_form(case: &Json) -> bool {
    let urlencoded = case
        .get("media_type")
        .and_then(Json::as_str)
        .is_some_and(|m| m.starts_with("application/x-www-form-urlencoded"));
    let holds_object = |v: &Json| match v {
        Json::Object(_) => true,
        Json::Array(items) => items.iter().any(|i| matches!(i, Json::Object(_))),
        _ => false,
    };
    urlencoded
        && matches!(case.get("body"), Some(Json::Object(members)) if members.iter().any(|(_, v)| holds_object(v)))
}

/// The name the harness gives an invalid body refused with 413 (see `class_of`).
pub(super) const BODY_OVER_LIMIT: &str = "body_over_limit";

/// The name the harness gives an invalid form body accepted because its form is byte for byte
/// that of a valid one (see [`form_same_bytes`]).
pub(super) const FORM_SAME_BYTES: &str = "form_same_bytes";

/// Whether schemathesis' "Invalid component: in body - NAME: Incorrect type" case sent, in a
/// url-encoded or multipart form, a scalar for NAME (discord's `sticker_ids: 0`, an array of
/// snowflakes): a form writes every value as text and an array as one pair per item, so the
/// scalar `0` is the same bytes as the array `["0"]`, or as the string `"0"`. Where the
/// declared type has a value of that spelling, no server can tell the invalid case from a
/// valid one; where it has none (an integer sent as `"x"`), the server refuses it and no
/// failure shows.
pub(super) fn form_same_bytes(case: &Json, message: &str) -> bool {
    let form = case
        .get("media_type")
        .and_then(Json::as_str)
        .is_some_and(|m| {
            m.starts_with("application/x-www-form-urlencoded")
                || m.starts_with("multipart/form-data")
        });
    let Some(name) = message
        .split("Invalid component: in body - ")
        .nth(1)
        .and_then(|rest| {
            rest.strip_suffix(": Incorrect type")
                .or_else(|| rest.split_once(": Incorrect type").map(|(name, _)| name))
        })
    else {
        return false;
    };
    let scalar = case
        .get("body")
        .and_then(|b| b.get(name))
        .is_some_and(|v| matches!(v, Json::Bool(_) | Json::Number(_) | Json::String(_)));
    form && scalar
}

/// The name the harness gives any failure on a 414 answer: a request target longer than the
/// HTTP layer reads.
pub(super) const URI_TOO_LONG: &str = "uri_too_long";

/// The name the harness gives any failure on a 426 answer: a request to an operation that
/// switches protocols which does not ask for the switch.
pub(super) const UPGRADE_REQUIRED: &str = "upgrade_required";

/// The name the harness gives the 415 refusing a body sent as XML.
pub(super) const XML_BODY: &str = "xml_body_not_read";

/// The name the harness gives a valid request's refusal whose data holds an integer no 64-bit
/// integer can hold (see [`beyond_64_bits`]).
pub(super) const BEYOND_64_BITS: &str = "integer_beyond_64_bits";

/// Whether a case's parameters or body hold an integer beyond `i64` (fitbit's
/// `page[limit]=12628635628150235136` for an `integer` without `format`): JSON Schema sets no
/// bound, the generated server reads `i64` and refuses it with a 400 naming the place, as the
/// type mapping (book/src/reference/type-mapping.md) decides; schemathesis calls that valid data refused.
pub(super) fn beyond_64_bits(case: &Json) -> bool {
    fn big(value: &Json) -> bool {
        match value {
            // (Read as f64: 2^63 and beyond are whole there, and nothing below it rounds up.)
            Json::Number(n) => n.fract() == 0.0 && n.abs() >= 9_223_372_036_854_775_808.0,
            Json::String(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<i64>().is_err()
            }
            Json::Array(items) => items.iter().any(big),
            Json::Object(members) => members.iter().any(|(_, v)| big(v)),
            _ => false,
        }
    }
    ["query", "path_parameters", "headers", "cookies", "body"]
        .iter()
        .filter_map(|part| case.get(part))
        .any(big)
}

/// The name the harness gives a valid request's refusal whose answer says an integer is
/// beyond the range of its `format` (see [`beyond_format`]).
pub(super) const BEYOND_FORMAT: &str = "integer_beyond_format";

/// Whether a 400's body is the generated server refusing an integer beyond its format's
/// range: `"9539416630" is out of range for uint32` (a parameter), or serde's `invalid value:
/// integer `9539416630`, expected u32` (a body field).
pub(super) fn beyond_format(body: &str) -> bool {
    const FORMATS: [(&str, &str); 8] = [
        ("int8", "i8"),
        ("int16", "i16"),
        ("int32", "i32"),
        ("int64", "i64"),
        ("uint8", "u8"),
        ("uint16", "u16"),
        ("uint32", "u32"),
        ("uint64", "u64"),
    ];
    FORMATS.iter().any(|(format, rust)| {
        body.contains(&format!("is out of range for {format}\""))
            || body.contains(&format!("is out of range for {format}\\\""))
            || body.contains("invalid value: integer `")
                && body.contains(&format!("`, expected {rust}"))
    })
}

/// The name the harness gives schemathesis' "Unknown discriminator value" on an answer: the
/// tag is the pinned value of a variant where the document's discriminator has no `mapping`.
pub(super) const PINNED_DISCRIMINATOR: &str = "discriminator_pinned_value";

/// The name the harness gives a valid request's refusal whose answer says a string is not the
/// base64 its `contentEncoding: base64` (3.1) or `format: byte` says it is.
pub(super) const NOT_BASE64: &str = "not_base64";

/// The name the harness gives a valid request's refusal whose answer says a `date-time` was
/// empty.
pub(super) const EMPTY_DATE_TIME: &str = "empty_date_time";

/// The name the harness gives a 404 for a request whose path parameter is empty (see
/// [`empty_path_segment`]).
pub(super) const EMPTY_PATH_SEGMENT: &str = "empty_path_segment";

/// Whether a case gives a path parameter as the empty string: a stateful step fills it from
/// a link schemathesis infers (openai's `user_id` from `$request.body#/user_id` of a body it
/// made with `user_id: ""`), so the URL has no segment for the parameter (`GET
/// /organization/users/`) and no operation serves it.
pub(super) fn empty_path_segment(case: &Json) -> bool {
    match case.get("path_parameters") {
        Some(Json::Object(members)) => members.iter().any(|(_, v)| v.as_str() == Some("")),
        _ => false,
    }
}

/// The name the harness gives a stateful step's refusal where a value it carried over breaks
/// the parameter's own schema (see [`link_value_off_schema`]).
pub(super) const LINK_VALUE_OFF_SCHEMA: &str = "link_value_off_schema";

/// Whether a case of schemathesis's stateful phase gives a path or query parameter a value
/// that the parameter's schema in `document` refuses, by the calls harness's own checker
/// (`calls::check`, not the server's): a link it infers carries a value from one answer
/// into the next request without checking it against the parameter (nexus's `GET
/// /system/user/{user_name}` given a user's `id`, a UUID, where `user_name`'s pattern
/// rules UUIDs out), and the server's 400 is right.
pub(super) fn link_value_off_schema(document: &serde_json::Value, case: &Json) -> bool {
    let stateful = case
        .get("meta")
        .and_then(|m| m.get("phase")?.get("name")?.as_str())
        == Some("stateful");
    let off_schema = |parameter: serde_json::Value| {
        let (Some(name), Some(place), Some(schema)) = (
            parameter.get("name").and_then(|n| n.as_str()),
            parameter.get("in").and_then(|n| n.as_str()),
            parameter.get("schema"),
        ) else {
            return false;
        };
        let given = match place {
            "path" => case.get("path_parameters").and_then(|p| p.get(name)),
            "query" => case.get("query").and_then(|q| q.get(name)),
            _ => None,
        };
        given.is_some_and(|value| fits_as_text(document, schema, value) == Some(false))
    };
    stateful && parameters_of(document, case).into_iter().any(off_schema)
}

/// The parameters (each resolved) of the operation a case calls: the operation's own, then
/// the path item's that none of them overrides (OpenAPI: one of the same name and location
/// at the operation replaces the path item's).
fn parameters_of(document: &serde_json::Value, case: &Json) -> Vec<serde_json::Value> {
    let (Some(method), Some(path)) = (
        case.get("method").and_then(Json::as_str),
        case.get("path").and_then(Json::as_str),
    ) else {
        return Vec::new();
    };
    let Some(item) = document.get("paths").and_then(|p| p.get(path)) else {
        return Vec::new();
    };
    let resolved = |p: &'_ serde_json::Value| match p.get("$ref").and_then(|r| r.as_str()) {
        Some(r) => crate::calls::refs::resolve(document, r).ok().cloned(),
        None => Some(p.clone()),
    };
    let list = |parameters: Option<&serde_json::Value>| -> Vec<serde_json::Value> {
        parameters
            .and_then(|list| list.as_array())
            .into_iter()
            .flatten()
            .filter_map(resolved)
            .collect()
    };
    let key = |p: &serde_json::Value| (p.get("name").cloned(), p.get("in").cloned());
    let mut parameters = list(
        item.get(method.to_ascii_lowercase())
            .and_then(|o| o.get("parameters")),
    );
    let own: Vec<_> = parameters.iter().map(key).collect();
    parameters.extend(
        list(item.get("parameters"))
            .into_iter()
            .filter(|p| !own.contains(&key(p))),
    );
    parameters
}

/// Whether a scalar sent as text fits `schema`: the request carries text, so it fits if the
/// text, or the number or boolean it spells, does (by the calls harness's own checker,
/// `calls::check`, not the server's). `None` for a value that is no scalar.
fn fits_as_text(
    document: &serde_json::Value,
    schema: &serde_json::Value,
    given: &Json,
) -> Option<bool> {
    let text = match given {
        Json::String(text) => text.clone(),
        Json::Number(n) => n.to_string(),
        Json::Bool(b) => b.to_string(),
        _ => return None,
    };
    let (_, readings) = crate::calls::check::text_readings(&serde_json::Value::String(text))?;
    Some(
        readings.iter().any(|value| {
            crate::calls::check::request_violations(document, schema, value).is_empty()
        }),
    )
}

/// The name the harness gives an invalid query accepted because its bytes are those of a
/// valid one (see [`query_same_bytes`]).
pub(super) const QUERY_SAME_BYTES: &str = "query_same_bytes";

/// Whether schemathesis' "Invalid component: parameter `NAME` in query" case made NAME, a
/// scalar, an array (GitHub's `per_page`, an integer, "became array": `[10000000.0]`) that a
/// query writes with the bytes of a valid value: the form style writes an array as one pair
/// per item, so a one-item array is byte for byte the scalar it holds (`per_page=10000000.0`,
/// a whole number and so an integer), and an empty array is no pair at all, the request that
/// leaves an optional parameter out. No server can tell them apart, and its 2xx is right for
/// the bytes it got. Where the one item does not fit the parameter's schema (`["x"]` for an
/// integer) the server refuses it and no failure shows; the harness's own checker says which.
pub(super) fn query_same_bytes(document: &serde_json::Value, case: &Json, message: &str) -> bool {
    let Some(name) = message
        .split("Invalid component: parameter `")
        .nth(1)
        .and_then(|rest| rest.split_once("` in query"))
        .map(|(name, _)| name)
    else {
        return false;
    };
    let Some(Json::Array(items)) = case.get("query").and_then(|q| q.get(name)) else {
        return false;
    };
    let Some(parameter) = parameters_of(document, case).into_iter().find(|p| {
        p.get("name").and_then(|n| n.as_str()) == Some(name)
            && p.get("in").and_then(|n| n.as_str()) == Some("query")
    }) else {
        return false;
    };
    let form_exploded = parameter.get("style").is_none_or(|s| s == "form")
        && parameter.get("explode").is_none_or(|e| e == true);
    let Some(schema) = parameter.get("schema") else {
        return false;
    };
    form_exploded
        && match items.as_slice() {
            [] => parameter.get("required") != Some(&serde_json::Value::Bool(true)),
            [item] => fits_as_text(document, schema, item) == Some(true),
            _ => false,
        }
}

/// The name the harness gives a valid request's refusal whose answer says a parameter is
/// required that schemathesis left out: `required: true` beside a parameter's `$ref`, which
/// OpenAPI says to ignore and schemathesis ignores, and which the generated server applies as
/// Prism and Redocly do (a decision, book/src/reference/type-mapping.md).
pub(super) const REQUIRED_BESIDE_REF: &str = "required_beside_ref";

/// The class of a 400's body that refuses a request by one of the type mapping's decisions, which
/// schemathesis calls valid data refused:
/// - an integer beyond its `format` ([`beyond_format`]);
/// - a string that is not base64 where the document says it is: JSON Schema makes
///   `contentEncoding` an annotation, so schemathesis sends any text (discord's `avatar`,
///   `image`: `"äC"`); the generated server decodes such a string into bytes and refuses text
///   that is not base64 with a 400 naming the place (runtime `base64`);
/// - an empty `date-time`: schemathesis makes `""` for a `date-time` whose `type` is a list
///   (`type: [string, "null"]`, discord's `scheduled_end_time`), which its own validator with
///   formats checked refuses (`jsonschema_rs`, `validate_formats=True`); the server's 400
///   says the year is missing;
/// - a parameter left out that a `required: true` beside its `$ref` requires
///   ([`REQUIRED_BESIDE_REF`]): the server's 400 says `required parameter is missing`.
pub(super) fn refusal_by_decision(body: &str) -> Option<&'static str> {
    if beyond_format(body) {
        Some(BEYOND_FORMAT)
    } else if body.contains("invalid base64 character at") || body.contains("invalid base64 length")
    {
        Some(NOT_BASE64)
    } else if body.contains("expected four digit year") && body.contains("but found end of input") {
        Some(EMPTY_DATE_TIME)
    } else if body.contains(": required parameter is missing") {
        Some(REQUIRED_BESIDE_REF)
    } else {
        None
    }
}

/// Standard base64 (as schemathesis stores bodies) decoded to text; `None` when it is not
/// base64 or the bytes are not UTF-8.
pub(super) fn base64_text(encoded: &str) -> Option<String> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in encoded.bytes().filter(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The name the harness gives a `status_code_conformance` failure that is a refusal the
/// document has no status for (see [`undocumented_refusal`]).
pub(super) const UNDOCUMENTED_REFUSAL: &str = "undocumented_refusal";

/// Whether schemathesis's "Received: 401 ⏎ Documented: 200, 400, 404" is the server asking
/// for the credentials a secured operation requires (schemathesis sends some cases without
/// them, or with wrong ones, on purpose) where the operation documents no 401 (nor `4XX`, nor
/// `default`): redocly-museum's operations need HTTP basic and list no 401. The document
/// gives that refusal no status.
pub(super) fn undocumented_challenge(message: &str) -> bool {
    let field = |name: &str| {
        message
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    field("Received:") == Some("401")
        && !field("Documented:")
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .any(|d| matches!(d, "401" | "4XX" | "default"))
}

/// Whether schemathesis's "Received: 400 ⏎ Documented: 200, 404" is the server refusing
/// invalid data (the case was made invalid on purpose) with a 4XX the operation does not list,
/// when the operation lists neither 400 nor 422: the document gives no status for the refusal
/// negative_data_rejection demands, so no answer satisfies both checks. A 400 where the
/// operation lists 422 (or the reverse), a 5XX or a 2XX stays a status_code_conformance failure.
pub(super) fn undocumented_refusal(message: &str) -> bool {
    let field = |name: &str| {
        message
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    let Some(received) = field("Received:").and_then(|r| r.parse::<u16>().ok()) else {
        return false;
    };
    let documented: Vec<&str> = field("Documented:")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (400..500).contains(&received)
        && !documented
            .iter()
            .any(|d| matches!(*d, "400" | "422" | "4XX" | "default"))
}

/// The name of a failing check of one case: a class of docs/reports/serving.md where the case or
/// the server's answer shows one applies, else the check's own name. `failure`: the failure's
/// title and message; `answer`: the server's response as schemathesis recorded it.
pub(super) fn class_of(
    name: &str,
    negative: bool,
    value: Option<&Json>,
    (title, message): (&str, &str),
    answer: Option<&Json>,
) -> String {
    let mut check = name.to_string();
    let status = answer.and_then(|a| a.get("status_code")?.as_number());
    if check == "status_code_conformance"
        && (negative && undocumented_refusal(message) || undocumented_challenge(message))
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
    // does the mock (both are read, the pinned one written).
    if check == "response_schema_conformance" && title == "Unknown discriminator value" {
        check = PINNED_DISCRIMINATOR.to_string();
    }
    // A body sent as XML, which the generated server does not read (415, with the
    // generator's warning at the media type: a decision the type mapping states).
    let xml = value
        .and_then(|v| v.get("media_type")?.as_str())
        .is_some_and(|m| m.ends_with("/xml") || m.ends_with("+xml"));
    if xml
        && (check == "positive_data_acceptance"
            || check == "status_code_conformance" && message.contains("Received: 415"))
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
    let refused_400 = status == Some(400.0);
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
    if !negative
        && refused_400
        && matches!(
            check.as_str(),
            "positive_data_acceptance" | "status_code_conformance"
        )
        && value.is_some_and(object_in_url_encoded_form)
    {
        check = OBJECT_IN_URL_ENCODED_FORM.to_string();
    }
    // An invalid body larger than the server's body limit (1 MiB by default,
    // `ServerConfig::body_limit`): refused with 413 before it is read (RFC 9110 §15.5.14),
    // which negative_data_rejection does not list among the refusals it expects
    // (discord's `nick` of 1.3 MB where `maxLength` is 32).
    if negative
        && status == Some(413.0)
        && matches!(
            check.as_str(),
            "negative_data_rejection" | "status_code_conformance"
        )
    {
        check = BODY_OVER_LIMIT.to_string();
    }
    // An "incorrect type" a form writes with the bytes of a valid value (discord's
    // multipart `sticker_ids: 0`, one part `0`, as the array `["0"]` is): see
    // [`form_same_bytes`].
    if negative
        && check == "negative_data_rejection"
        && value.is_some_and(|case| form_same_bytes(case, message))
    {
        check = FORM_SAME_BYTES.to_string();
    }
    // A path parameter given as "": the URL names no operation (404), whatever it lists.
    if status == Some(404.0)
        && matches!(
            check.as_str(),
            "positive_data_acceptance" | "status_code_conformance"
        )
        && value.is_some_and(empty_path_segment)
    {
        check = EMPTY_PATH_SEGMENT.to_string();
    }
    // A request target the HTTP layer does not read: hyper answers a bare 414
    // (no body, no media type) to one over 64 KiB before any service sees it,
    // as servers bound request targets (RFC 9112 §3: at least 8,000 octets);
    // discord lets its path parameter `code` be 152,133 characters long. A head
    // larger still (that target beside long headers) gets hyper's bare 431.
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
    // `uint*` formats): the server's 400 says so, as the type mapping (book/src/reference/type-mapping.md) decides.
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
    // The same empty date-time refused by the schema walk (a held body: "/x: must be a
    // valid date-time", which does not quote the value): the case's body holds `""` there.
    if !negative
        && matches!(
            check.as_str(),
            "positive_data_acceptance" | "status_code_conformance"
        )
        && let (Some(text), Some(body)) = (refused.as_deref(), value.and_then(|v| v.get("body")))
        && empty_date_time_named(text, body)
    {
        check = EMPTY_DATE_TIME.to_string();
    }
    check
}

/// Whether a refusal's text names a place as "must be a valid date-time" where `body` holds
/// the empty string.
pub(super) fn empty_date_time_named(text: &str, body: &Json) -> bool {
    const SAID: &str = ": must be a valid date-time";
    text.match_indices(SAID).any(|(end, _)| {
        let start = text[..end].rfind([' ', '"', '(']).map_or(0, |i| i + 1);
        let pointer = &text[start..end];
        let mut at = body;
        for token in pointer.split('/').skip(1) {
            let token = token.replace("~1", "/").replace("~0", "~");
            let next = match at {
                Json::Object(members) => members.iter().find(|(k, _)| *k == token).map(|(_, v)| v),
                Json::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(v) => at = v,
                None => return false,
            }
        }
        pointer.starts_with('/') && at.as_str() == Some("")
    })
}
