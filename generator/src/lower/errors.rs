//! The document's own error bodies (`ir::ErrorBody`, `Api::errors`, `Operation::errors`):
//! where a document describes the JSON body of its error answers in a shape other than the
//! default `{code, message, status}`, the server writes its problems in that shape.
//!
//! A shape is a value made from the schema (valid against it, as the mock's are) with the
//! places the problem's parts go, found by the properties' names: an integer `status`,
//! `statusCode` or `code` takes the status; a string `code`, `error` or `type` the problem's
//! code; a string `message`, `msg`, `detail`, `description`, `title` or `reason` its message;
//! an object under `error` or `errors`, or the first item of a list under `detail` or
//! `errors`, is searched the same way (FastAPI's `{"detail": [{"msg": …}]}`, openai's
//! `{"error": {"message": …}}`). Only properties without constraints take a part, so the body
//! stays valid; a string body is the message itself. The document's table holds, per status
//! it describes, the shape most of its operations use; an operation that describes another
//! gets a table of its own.
//!
//! Decision: `docs/decisions/0002-document-error-bodies.md`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::mock::Maker;
use crate::ir::{
    BodyKind, Bound, Constraints, ErrorBody, ErrorTable, Operation, Status, TypeDef, TypeKind,
    TypeRef,
};
use crate::naming::{self, Scope};

/// How deep the parts are looked for.
const DEPTH: usize = 3;

/// Decides the error bodies: fills `Operation::errors` and returns the shapes and the
/// document's table.
pub fn plan(ops: &mut [Operation], types: &[TypeDef]) -> (Vec<ErrorBody>, ErrorTable) {
    let by_name: BTreeMap<&str, &TypeDef> = types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut bodies: Vec<ErrorBody> = Vec::new();
    // Per operation: the shape of each error status it describes (`None`: the default body),
    // and the status it refuses invalid requests with.
    let mut per_op: Vec<ErrorTable> = Vec::new();
    for op in ops.iter() {
        let mut own = ErrorTable {
            invalid: invalid_status(op),
            bodies: Vec::new(),
        };
        for r in &op.responses {
            let is_error = match r.status {
                Status::Code(c) => c >= 400,
                Status::Range(class) => class >= 4,
                Status::Default => true,
            };
            let Some(BodyKind::Json(ty)) = r.body.as_ref().map(|b| &b.kind).filter(|_| is_error)
            else {
                continue;
            };
            // Sent with the document's media type: a JSON type of its own
            // (`application/problem+json`) makes a shape of the default body too.
            let own_type = r
                .body
                .as_ref()
                .and_then(|b| b.own_json_media_type())
                .map(str::to_string);
            let found = shape(ty, &by_name).or_else(|| own_type.as_ref().map(|_| default_shape()));
            let index = found.map(|mut body| {
                if let Some(ct) = &own_type {
                    body.content_type = ct.clone();
                }
                match bodies.iter().position(|b| {
                    b.template == body.template
                        && slots(b) == slots(&body)
                        && b.content_type == body.content_type
                }) {
                    Some(i) => i,
                    None => {
                        body.rust = format!("ERROR_BODY_{}", bodies.len() + 1);
                        bodies.push(body);
                        bodies.len() - 1
                    }
                }
            });
            own.bodies.push((r.status.clone(), index));
        }
        per_op.push(own);
    }
    // The document's table: for each status, the shape most operations describe (the first
    // seen on a tie); the refusal status most operations have.
    let mut counts: BTreeMap<Status, BTreeMap<Option<usize>, (usize, usize)>> = BTreeMap::new();
    let mut order = 0;
    for own in &per_op {
        for (status, index) in &own.bodies {
            let entry = counts
                .entry(status.clone())
                .or_default()
                .entry(*index)
                .or_insert((0, order));
            entry.0 += 1;
            order += 1;
        }
    }
    let unprocessable = per_op.iter().filter(|t| t.invalid == 422).count();
    let mut document = ErrorTable {
        invalid: if unprocessable * 2 > per_op.len() {
            422
        } else {
            400
        },
        bodies: counts
            .into_iter()
            .filter_map(|(status, shapes)| {
                shapes
                    .into_iter()
                    .max_by(|(_, (n1, first1)), (_, (n2, first2))| {
                        n1.cmp(n2).then(first2.cmp(first1))
                    })
                    .map(|(index, _)| (status, index))
            })
            .collect(),
    };
    let mut names = Scope::new();
    let methods: Vec<String> = ops.iter().map(|o| o.rust.clone()).collect();
    for (op, own) in ops.iter_mut().zip(per_op) {
        let differs = own.invalid != document.invalid
            || own.bodies.iter().any(|(status, index)| {
                document
                    .bodies
                    .iter()
                    .find(|(s, _)| s == status)
                    .map(|(_, i)| i)
                    != Some(index)
            });
        if differs {
            let stem = naming::handler_stem(&op.rust, methods.iter().map(String::as_str));
            let name = names.claim(naming::operation_const("ERRORS", &stem));
            op.errors = Some((name, own));
        }
    }
    // Nothing to say when every error answer the document describes has the default body
    // and refusals are 400s.
    if document.bodies.iter().all(|(_, index)| index.is_none())
        && ops.iter().all(|op| op.errors.is_none())
    {
        document.bodies.clear();
    }
    (bodies, document)
}

/// The status an operation refuses an invalid request with: 422 when it describes 422 and
/// nothing that covers 400 (400, `4XX`, `default`), else 400.
fn invalid_status(op: &Operation) -> u16 {
    let covers_400 = op.responses.iter().any(|r| {
        matches!(
            r.status,
            Status::Code(400) | Status::Range(4) | Status::Default
        )
    });
    let describes_422 = op.responses.iter().any(|r| r.status == Status::Code(422));
    if describes_422 && !covers_400 {
        422
    } else {
        400
    }
}

fn slots(b: &ErrorBody) -> (&Vec<String>, &Vec<String>, &Vec<String>) {
    (&b.code, &b.message, &b.status)
}

/// The shape of an error body of type `ty`, or `None` when the default body fits it (a free
/// object, or exactly `{code, message, status}`).
fn shape(ty: &TypeRef, types: &BTreeMap<&str, &TypeDef>) -> Option<ErrorBody> {
    if matches!(ty, TypeRef::Json | TypeRef::JsonObject) {
        return None;
    }
    let maker = Maker::new(types, false);
    let template = maker.value(ty, &Constraints::default(), 0);
    let mut body = ErrorBody {
        rust: String::new(),
        origin: match ty {
            TypeRef::Named(n) => types
                .get(n.as_str())
                .map(|t| t.origin.clone())
                .unwrap_or_default(),
            _ => String::new(),
        },
        template,
        code: Vec::new(),
        message: Vec::new(),
        status: Vec::new(),
        content_type: "application/json".into(),
    };
    find(ty, "", types, &mut body, 0);
    let is_default = matches!(&body.template, Value::Object(m)
        if m.len() == 3 && m.contains_key("code") && m.contains_key("message") && m.contains_key("status"))
        && body.code == ["/code"]
        && body.message == ["/message"]
        && body.status == ["/status"];
    (!is_default).then_some(body)
}

/// The default body, `{"code", "message", "status"}`, as a shape of its own: for answers
/// whose media type is not `application/json`.
fn default_shape() -> ErrorBody {
    ErrorBody {
        rust: String::new(),
        origin: String::new(),
        template: serde_json::json!({"code": "", "message": "", "status": 0}),
        code: vec!["/code".into()],
        message: vec!["/message".into()],
        status: vec!["/status".into()],
        content_type: "application/json".into(),
    }
}

/// Records in `body` where the problem's parts go in a value of type `ty` at `pointer`.
fn find(
    ty: &TypeRef,
    pointer: &str,
    types: &BTreeMap<&str, &TypeDef>,
    body: &mut ErrorBody,
    depth: usize,
) {
    if depth > DEPTH {
        return;
    }
    match ty {
        // A string body is the message itself.
        TypeRef::String if pointer.is_empty() => body.message.push(String::new()),
        TypeRef::Named(name) => {
            let Some(def) = types.get(name.as_str()) else {
                return;
            };
            match &def.kind {
                TypeKind::Alias(inner, c) if c.is_empty() => {
                    find(inner, pointer, types, body, depth)
                }
                TypeKind::Struct(st) => {
                    for f in &st.fields {
                        if f.write_only {
                            continue;
                        }
                        let at = format!("{pointer}/{}", escape(&f.wire));
                        let name = normalized(&f.wire);
                        let plain = f.constraints.is_empty();
                        match (&f.ty, plain) {
                            (t, _)
                                if is_integer(t)
                                    && STATUS.contains(&name.as_str())
                                    && holds_statuses(&f.constraints) =>
                            {
                                body.status.push(at)
                            }
                            (TypeRef::String, true) if MESSAGE.contains(&name.as_str()) => {
                                body.message.push(at)
                            }
                            (TypeRef::String, true) if CODE.contains(&name.as_str()) => {
                                body.code.push(at)
                            }
                            (TypeRef::Named(_), _) if NESTED.contains(&name.as_str()) => {
                                find(&f.ty, &at, types, body, depth + 1)
                            }
                            (TypeRef::Vec(item), _) if LISTS.contains(&name.as_str()) => {
                                find(item, &format!("{at}/0"), types, body, depth + 1)
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// Whether an integer with these constraints may hold every error status (400 to 599).
fn holds_statuses(c: &Constraints) -> bool {
    let only_bounds = Constraints {
        minimum: c.minimum,
        maximum: c.maximum,
        exclusive_minimum: c.exclusive_minimum,
        exclusive_maximum: c.exclusive_maximum,
        ..Constraints::default()
    };
    *c == only_bounds
        && c.minimum
            .map(Bound::as_f64)
            .is_none_or(|m| m < 400.0 || (m == 400.0 && !c.exclusive_minimum))
        && c.maximum
            .map(Bound::as_f64)
            .is_none_or(|m| m > 599.0 || (m == 599.0 && !c.exclusive_maximum))
}

/// A property name without case, `_` and `-` (`status_code`, `statusCode` → `statuscode`).
fn normalized(wire: &str) -> String {
    wire.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A JSON pointer token (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn is_integer(t: &TypeRef) -> bool {
    matches!(
        t,
        TypeRef::I32 | TypeRef::I64 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64
    )
}

const STATUS: &[&str] = &[
    "status",
    "statuscode",
    "httpstatus",
    "httpstatuscode",
    "httpcode",
    "code",
];
const CODE: &[&str] = &["code", "errorcode", "error", "type", "errortype", "kind"];
const MESSAGE: &[&str] = &[
    "message",
    "msg",
    "detail",
    "details",
    "description",
    "errormessage",
    "errordescription",
    "title",
    "reason",
];
const NESTED: &[&str] = &["error", "errors", "detail", "details", "err"];
const LISTS: &[&str] = &["errors", "detail", "details"];

#[cfg(test)]
mod tests {
    fn api(yaml: &str) -> crate::ir::Api {
        let doc = crate::load::parse(yaml).expect("loads").doc;
        let mut sink = crate::diag::Sink::default();
        crate::lower::lower(&doc, &mut sink)
    }

    #[test]
    fn parts_are_found_by_name_and_the_majority_shape_is_the_document_s() {
        let api = api(r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses:
        '200': {description: ok}
        '422': {description: v, content: {application/json: {schema: {$ref: '#/components/schemas/HTTPValidationError'}}}}
        '400': {description: e, content: {application/json: {schema: {$ref: '#/components/schemas/ErrorResponse'}}}}
  /b:
    get:
      responses:
        '200': {description: ok}
        '400': {description: e, content: {application/json: {schema: {$ref: '#/components/schemas/ErrorResponse'}}}}
  /c:
    get:
      responses:
        '200': {description: ok}
        '400': {description: e, content: {application/json: {schema: {type: object, required: [code, message], properties: {code: {type: integer, format: int32}, message: {type: string}}}}}}
components:
  schemas:
    ErrorResponse:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [message, type, code]
          properties:
            message: {type: string}
            type: {type: string}
            code: {type: string, nullable: true}
    HTTPValidationError:
      type: object
      properties:
        detail:
          type: array
          items:
            type: object
            required: [loc, msg, type]
            properties:
              loc: {type: array, items: {type: string}}
              msg: {type: string}
              type: {type: string}
"#);
        let nested = &api.error_bodies[api
            .errors
            .bodies
            .iter()
            .find(|(s, _)| *s == crate::ir::Status::Code(400))
            .unwrap()
            .1
            .unwrap()];
        assert_eq!(nested.message, ["/error/message"]);
        assert_eq!(nested.code, ["/error/type", "/error/code"]);
        let detail = &api.error_bodies[api
            .errors
            .bodies
            .iter()
            .find(|(s, _)| *s == crate::ir::Status::Code(422))
            .unwrap()
            .1
            .unwrap()];
        assert_eq!(detail.message, ["/detail/0/msg"]);
        assert_eq!(
            detail.template["detail"][0]["loc"],
            serde_json::json!(["string"])
        );
        // `/c` describes its 400 otherwise: a table of its own, its code the status.
        let c = api.operations.iter().find(|o| o.path == "/c").unwrap();
        let (name, own) = c.errors.as_ref().unwrap();
        assert_eq!(name, "ERRORS_GET_C");
        let integer = &api.error_bodies[own.bodies[0].1.unwrap()];
        assert_eq!(
            (integer.status.clone(), integer.message.clone()),
            (vec!["/code".to_string()], vec!["/message".to_string()])
        );
        assert!(api.operations.iter().filter(|o| o.errors.is_some()).count() == 1);
    }

    #[test]
    fn the_default_shape_needs_no_table() {
        let api = api(r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses:
        '200': {description: ok}
        default: {description: e, content: {application/json: {schema: {type: object, required: [code, message, status], properties: {code: {type: string}, message: {type: string}, status: {type: integer, minimum: 100, maximum: 599}}}}}}
"#);
        assert!(api.errors.is_default() && api.error_bodies.is_empty());
    }

    #[test]
    fn a_media_type_of_the_document_s_own_makes_a_shape_sent_with_it() {
        let api = api(r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses:
        '200': {description: ok}
        '400': {description: e, content: {application/problem+json: {schema: {type: object}}}}
        '404': {description: e, content: {application/problem+json: {schema: {type: object, properties: {title: {type: string}, detail: {type: string}, status: {type: integer}}}}}}
"#);
        let types: Vec<&str> = api
            .error_bodies
            .iter()
            .map(|b| b.content_type.as_str())
            .collect();
        assert_eq!(
            types,
            ["application/problem+json", "application/problem+json"],
            "the default body too, and RFC 9457's shape"
        );
        assert_eq!(api.error_bodies[0].code, ["/code"]);
    }

    #[test]
    fn operations_that_describe_422_and_no_400_refuse_with_422() {
        let api = api(r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /a:
    get:
      parameters: [{name: n, in: query, schema: {type: integer}}]
      responses:
        '200': {description: ok}
        '422': {description: v, content: {application/json: {schema: {type: object, properties: {detail: {type: string}}}}}}
  /b:
    get:
      parameters: [{name: n, in: query, schema: {type: integer}}]
      responses:
        '200': {description: ok}
        '422': {description: v}
  /c:
    get:
      responses:
        '200': {description: ok}
        '400': {description: bad}
"#);
        assert_eq!(api.errors.invalid, 422);
        let c = api.operations.iter().find(|o| o.path == "/c").unwrap();
        assert_eq!(c.errors.as_ref().map(|(_, t)| t.invalid), Some(400));
        assert!(api.operations.iter().filter(|o| o.errors.is_some()).count() == 1);
    }
}
