//! Which operations page their results in a way the client can follow, and how: the decision
//! behind every `…_stream` method, and the warning for an operation that looks paginated but
//! matches no pattern.
//!
//! Patterns, tried in this order on a `GET` with one success body and optional parameters:
//! 1. dropshot's `x-dropshot-pagination`: a body `{items: [...], next_page: "…"}` and a
//!    `page_token` query parameter; later pages send the token and `limit` only (the token
//!    carries the rest of the scan, and dropshot refuses both).
//! 2. a cursor field: a body object with one list (`items`, `data`, `results`, … or its only
//!    array) and a next-cursor string (`next_page`, `nextPageToken`, `next_cursor`, …), with a
//!    string query parameter to send it back in (`page_token`, `pageToken`, `cursor`,
//!    `after`, …); later pages keep every other option.
//!    Also openai's `{data, has_more, last_id}` with an `after` parameter: `last_id` is sent
//!    back while `has_more` is true.
//! 3. a `Link` response header (RFC 8288, as api.github.com) on a body that is a list, or an
//!    object with one (as for a cursor, above): the `rel="next"` target's query parameters that the operation documents (`page`,
//!    `per_page`, `after`, …) are set for the next call.
//!
//! Left out, with a warning when the operation has a paging-like parameter: page numbers or
//! offsets without a next marker (when to stop would be a guess: an empty page, a short one,
//! a total count), `has_more` with the last item's id (Stripe's `starting_after`: the id field
//! would be a guess too), and operations with a request body.

use crate::diag::Sink;
use crate::ir::{
    BodyKind, Location, NextPage, Operation, Pagination, Param, Response, TypeDef, TypeKind,
    TypeRef,
};
use crate::naming::{self, Scope};

/// Body fields that hold a page's items, in order of preference.
const ITEM_FIELDS: &[&str] = &[
    "items", "data", "results", "values", "entries", "records", "elements",
];

/// Body fields that hold the next page's cursor, compared without `_`/`-` and case.
const NEXT_FIELDS: &[&str] = &[
    "nextpage",
    "nextpagetoken",
    "nextcursor",
    "nexttoken",
    "nextpagecursor",
    "continuationtoken",
];

/// Query parameters that send a cursor back, compared as above.
const CURSOR_PARAMS: &[&str] = &[
    "pagetoken",
    "cursor",
    "after",
    "nextpage",
    "nexttoken",
    "nextpagetoken",
    "continuationtoken",
    "pagecursor",
];

/// Query parameters that make an operation look paginated.
const PAGING_PARAMS: &[&str] = &[
    "page",
    "offset",
    "cursor",
    "pagetoken",
    "startingafter",
    "after",
    "skip",
    "marker",
    "continuationtoken",
    "nextpagetoken",
    "pagenumber",
];

fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// One operation as the document wrote it, beside its lowered form.
pub struct Raw<'a> {
    /// JSON pointer of the operation, for the warning.
    pub at: &'a str,
    pub dropshot: bool,
}

/// Sets [`Operation::pagination`] where a pattern matches, claiming the stream method's name
/// in `names` (after every operation's own, so a document's `listPetsStream` keeps its name).
pub fn detect(
    ops: &mut [Operation],
    raw: &[Raw<'_>],
    types: &[TypeDef],
    names: &mut Scope,
    sink: &mut Sink,
) {
    for (op, raw) in ops.iter_mut().zip(raw) {
        let found = pattern(op, raw.dropshot, types);
        if found.is_none() {
            let paging = op.params.iter().find(|p| {
                !p.required
                    && p.location == Location::Query
                    && PAGING_PARAMS.contains(&folded(&p.wire).as_str())
            });
            if let Some(p) = paging.filter(|_| op.method == "GET") {
                sink.warn(
                    raw.at,
                    format!(
                        "looks paginated (query parameter `{}`) but matches no pattern the client can follow (a next cursor in the body, `x-dropshot-pagination`, a `Link` header): no `…_stream` method, call the operation page by page",
                        p.wire
                    ),
                );
            }
        }
        op.pagination = found.map(|(item, items_field, next)| Pagination {
            rust: names.claim(naming::stream_method(&op.rust)),
            item,
            items_field,
            next,
        });
    }
}

type Found = (TypeRef, Option<String>, NextPage);

fn pattern(op: &Operation, dropshot: bool, types: &[TypeDef]) -> Option<Found> {
    if op.method != "GET" || op.body.is_some() || op.query_string.is_some() || op.streamed {
        return None;
    }
    // The stream method captures the required arguments in a closure called once per page:
    // references and plain numbers are copied into it, anything else is left out.
    let copyable = |p: &Param| {
        !matches!(
            p.ty,
            TypeRef::Map(_)
                | TypeRef::Tuple(_)
                | TypeRef::Bytes
                | TypeRef::Base64
                | TypeRef::Base64Url
                | TypeRef::Json
                | TypeRef::JsonObject
        )
    };
    if !op.params.iter().filter(|p| p.required).all(copyable) {
        return None;
    }
    let success = one_success(op)?;
    let body = match success.body.as_ref().map(|b| &b.kind) {
        Some(BodyKind::Json(t)) => t,
        _ => return None,
    };
    let optional = |p: &&Param| !p.required && p.location == Location::Query;
    let string_param = |names: &[&str]| {
        op.params
            .iter()
            .filter(optional)
            .find(|p| p.ty == TypeRef::String && names.contains(&folded(&p.wire).as_str()))
    };
    if let Some(fields) = struct_fields(body, types) {
        let field = |wire: &str| fields.iter().find(|f| f.wire == wire);
        let list_of = |f: &crate::ir::Field| match &f.ty {
            TypeRef::Vec(item) => Some((**item).clone()),
            _ => None,
        };
        if dropshot {
            let items = field("items").and_then(|f| Some((list_of(f)?, f.rust.clone())));
            let next = field("next_page").filter(|f| f.ty == TypeRef::String);
            let token = string_param(&["pagetoken"]);
            if let (Some((item, items)), Some(next), Some(token)) = (items, next, token) {
                let limit = op
                    .params
                    .iter()
                    .filter(optional)
                    .find(|p| p.wire == "limit");
                return Some((
                    item,
                    Some(items),
                    NextPage::Cursor {
                        field: next.rust.clone(),
                        param: token.rust.clone(),
                        keep_only: Some(limit.map(|p| p.rust.clone()).into_iter().collect()),
                        more: None,
                    },
                ));
            }
        }
        let lists: Vec<(&crate::ir::Field, TypeRef)> = fields
            .iter()
            .filter_map(|f| Some((f, list_of(f)?)))
            .collect();
        let items = ITEM_FIELDS
            .iter()
            .find_map(|name| lists.iter().find(|(f, _)| f.wire == *name))
            .or(match lists.as_slice() {
                [only] => Some(only),
                _ => None,
            });
        let next = fields
            .iter()
            .find(|f| f.ty == TypeRef::String && NEXT_FIELDS.contains(&folded(&f.wire).as_str()));
        let cursor = string_param(CURSOR_PARAMS);
        if let (Some((items, item)), Some(next), Some(cursor)) = (items, next, cursor) {
            return Some((
                item.clone(),
                Some(items.rust.clone()),
                NextPage::Cursor {
                    field: next.rust.clone(),
                    param: cursor.rust.clone(),
                    keep_only: None,
                    more: None,
                },
            ));
        }
        // openai: `has_more` and the page's `last_id`, sent back as `after`.
        let more = field("has_more").filter(|f| f.ty == TypeRef::Bool);
        let last = field("last_id").filter(|f| f.ty == TypeRef::String);
        let after = string_param(&["after"]);
        if let (Some((items, item)), Some(more), Some(last), Some(after)) =
            (items, more, last, after)
        {
            return Some((
                item.clone(),
                Some(items.rust.clone()),
                NextPage::Cursor {
                    field: last.rust.clone(),
                    param: after.rust.clone(),
                    keep_only: None,
                    more: Some(more.rust.clone()),
                },
            ));
        }
        // A wrapped list paged by `Link` (api.github.com's `{total_count, runners: [...]}`).
        let (items, item) = items?;
        return link(op, success, item.clone(), Some(items.rust.clone()));
    }
    let item = list_item(body, types)?;
    link(op, success, item, None)
}

/// The `Link` pattern, when the success response documents the header.
fn link(
    op: &Operation,
    success: &Response,
    item: TypeRef,
    items_field: Option<String>,
) -> Option<Found> {
    if !success
        .headers
        .iter()
        .any(|h| h.wire.eq_ignore_ascii_case("link"))
    {
        return None;
    }
    let optional = |p: &&Param| !p.required && p.location == Location::Query;
    // Only what `str::parse` reads back from the link's text.
    let settable = |p: &&Param| {
        matches!(
            p.ty,
            TypeRef::String
                | TypeRef::Bool
                | TypeRef::I32
                | TypeRef::I64
                | TypeRef::U8
                | TypeRef::U16
                | TypeRef::U32
                | TypeRef::U64
        )
    };
    let params: Vec<(String, String)> = op
        .params
        .iter()
        .filter(optional)
        .filter(settable)
        .map(|p| (p.wire.clone(), p.rust.clone()))
        .collect();
    (!params.is_empty()).then_some((item, items_field, NextPage::Link { params }))
}

/// The one success response, when every success shares it (several with one body type are
/// read the same way; see the client emitter).
fn one_success(op: &Operation) -> Option<&Response> {
    let mut successes = op.responses.iter().filter(|r| r.is_success());
    let first = successes.next()?;
    successes.next().is_none().then_some(first)
}

fn named<'t>(ty: &TypeRef, types: &'t [TypeDef]) -> Option<&'t TypeDef> {
    match ty {
        TypeRef::Named(name) => types.iter().find(|t| &t.name == name),
        _ => None,
    }
}

fn struct_fields<'t>(ty: &TypeRef, types: &'t [TypeDef]) -> Option<&'t [crate::ir::Field]> {
    match &named(ty, types)?.kind {
        TypeKind::Struct(s) => Some(&s.fields),
        _ => None,
    }
}

/// The item type of a body that is a list (directly or through a named alias).
fn list_item(ty: &TypeRef, types: &[TypeDef]) -> Option<TypeRef> {
    match ty {
        TypeRef::Vec(item) => Some((**item).clone()),
        TypeRef::Named(_) => match &named(ty, types)?.kind {
            TypeKind::Alias(TypeRef::Vec(item), _) => Some((**item).clone()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! Which operations get a stream, and the warning for those that look paginated.

    fn lowered(paths: &str) -> crate::Output {
        let doc = format!(
            "openapi: 3.0.3\ninfo: {{title: T, version: 1.0.0}}\ncomponents:\n  schemas:\n    Item: {{type: object, properties: {{id: {{type: integer}}}}}}\n    Page: {{type: object, properties: {{results: {{type: array, items: {{$ref: '#/components/schemas/Item'}}}}, next_cursor: {{type: string}}, count: {{type: integer}}}}}}\npaths:\n{paths}"
        );
        let options = crate::Options {
            name: "t".into(),
            spec_label: "t.yaml".into(),
            command: "test".into(),
            string_formats: false,
            ..Default::default()
        };
        crate::generate(&doc, &options).unwrap_or_else(|e| panic!("{e}"))
    }

    fn client(out: &crate::Output) -> &str {
        out.files
            .iter()
            .find(|(path, _)| path.ends_with("client/src/client.rs"))
            .map(|(_, text)| text.as_str())
            .expect("a client.rs")
    }

    const PAGE: &str = "{'200': {description: x, content: {application/json: {schema: {$ref: '#/components/schemas/Page'}}}}}";
    const LIST: &str = "{'200': {description: x, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Item'}}}}}}";

    #[test]
    fn a_cursor_field_and_parameter_make_a_stream() {
        let out = lowered(&format!(
            "  /a:\n    get:\n      operationId: listA\n      parameters: [{{name: cursor, in: query, schema: {{type: string}}}}]\n      responses: {PAGE}\n"
        ));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let text = client(&out);
        assert!(text.contains("pub fn list_a_stream<'a>("), "{text}");
        assert!(
            text.contains("|options, next| options.cursor = Some(next)"),
            "{text}"
        );
        assert!(
            text.contains("Page::new(body.results, body.next_cursor)"),
            "{text}"
        );
    }

    #[test]
    fn what_matches_no_pattern_gets_no_stream_and_paging_parameters_a_warning() {
        // An offset without a next marker; a cursor parameter whose body names no cursor;
        // a list without a `Link` header; a POST.
        let out = lowered(&format!(
            "  /offset:\n    get:\n      operationId: byOffset\n      parameters: [{{name: offset, in: query, schema: {{type: integer}}}}]\n      responses: {LIST}\n  /token:\n    get:\n      operationId: byToken\n      parameters: [{{name: page_token, in: query, schema: {{type: string}}}}]\n      responses: {{'200': {{description: x, content: {{application/json: {{schema: {{$ref: '#/components/schemas/Item'}}}}}}}}}}\n  /plain:\n    get:\n      operationId: plain\n      parameters: [{{name: q, in: query, schema: {{type: string}}}}]\n      responses: {LIST}\n  /post:\n    post:\n      operationId: post\n      parameters: [{{name: cursor, in: query, schema: {{type: string}}}}]\n      responses: {PAGE}\n"
        ));
        let text = client(&out);
        assert!(!text.contains("_stream<'a>"), "{text}");
        let warned: Vec<&str> = out.warnings.iter().map(|w| w.pointer.as_str()).collect();
        assert_eq!(
            warned,
            ["/paths/~1offset/get", "/paths/~1token/get"],
            "{:?}",
            out.warnings
        );
        assert!(
            out.warnings[0]
                .message
                .contains("looks paginated (query parameter `offset`)")
        );
    }

    #[test]
    fn a_link_header_pages_a_list_or_an_object_holding_one() {
        let link = "headers: {Link: {schema: {type: string}}}";
        let out = lowered(&format!(
            "  /list:\n    get:\n      operationId: plainList\n      parameters: [{{name: page, in: query, schema: {{type: integer}}}}]\n      responses: {{'200': {{description: x, {link}, content: {{application/json: {{schema: {{type: array, items: {{$ref: '#/components/schemas/Item'}}}}}}}}}}}}\n  /wrapped:\n    get:\n      operationId: wrapped\n      parameters: [{{name: page, in: query, schema: {{type: integer}}}}, {{name: per_page, in: query, schema: {{type: integer}}}}]\n      responses: {{'200': {{description: x, {link}, content: {{application/json: {{schema: {{type: object, properties: {{total_count: {{type: integer}}, runners: {{type: array, items: {{$ref: '#/components/schemas/Item'}}}}}}}}}}}}}}}}\n"
        ));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let text = client(&out);
        assert!(text.contains("pages::link_page,"), "{text}");
        assert!(
            text.contains("Page::new(response.into_inner().runners, next)"),
            "{text}"
        );
        assert!(
            text.contains("#[param(\"per_page\", with_per_page, query, next)]"),
            "{text}"
        );
    }

    #[test]
    fn a_documents_own_stream_name_is_kept() {
        let out = lowered(&format!(
            "  /a:\n    get:\n      operationId: listA\n      parameters: [{{name: cursor, in: query, schema: {{type: string}}}}]\n      responses: {PAGE}\n  /b:\n    get:\n      operationId: listAStream\n      responses: {LIST}\n"
        ));
        let text = client(&out);
        assert!(text.contains("pub async fn list_a_stream(&self)"), "{text}");
        assert!(text.contains("pub fn list_a_stream_2<'a>("), "{text}");
    }
}
