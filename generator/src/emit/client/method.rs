//! One operation's methods on the client (`op`, and `op_with` when it has optional
//! parameters), printed in parts: the signature's inputs, the path, the query, the headers
//! and cookies, the body, the request, the answers and the call that sends it.

use super::{
    arg_type, body_type, error_ident, options_ident, param_ref, static_header_value,
    status_pattern, success_ident, success_type,
};
use crate::emit::{doc, ident, operation_doc, rust_type};
use crate::ir::{
    BodyKind, Location, ObjectStyle, Operation, Param, PathPiece, QueryStringKind, Response,
    Status, StreamFormat, Style, TypeRef,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The method (or the pair) of `op`; `example`, a call of it its docs show
/// (`emit::usage::client_call`).
pub(super) fn method(op: &Operation, example: Option<&str>) -> TokenStream {
    let inputs = Inputs::of(op);
    let body = statements(op);
    match &op.rust_with {
        None => single(op, &inputs, body, example),
        Some(with) => pair(op, &inputs, with, body, example),
    }
}

/// The methods that send the body as `multipart/form-data` where the document offers that
/// beside JSON or a form ([`Operation::multipart_twin`]): the operation's methods again, under
/// the twin's names, with the body a `runtime::multipart::Form` of the multipart schema.
pub(super) fn multipart_twin(op: &Operation) -> Option<TokenStream> {
    let twin = op.multipart_twin.as_ref()?;
    let b = op.body.as_ref()?;
    let (content_type, ty) = b.multipart_alternative_media()?;
    let mut sent = op.clone();
    sent.rust = twin.rust.clone();
    sent.rust_with = twin.rust_with.clone();
    sent.pagination = None;
    let typed = crate::naming::bare(&op.rust);
    sent.doc = vec![format!(
        "[`{typed}`](Self::{typed}) with the body sent as `{content_type}` (the document offers both): build it with [`Form`](crate::runtime::multipart::Form), a file as bytes."
    )];
    if !op.doc.is_empty() {
        sent.doc.push(String::new());
        sent.doc.extend(op.doc.iter().cloned());
    }
    sent.body = Some(crate::ir::Body {
        kind: BodyKind::Bytes,
        content_type: content_type.to_owned(),
        alternatives: Vec::new(),
        checked_as: Some(ty.clone()),
        ..b.clone()
    });
    Some(method(&sent, None))
}

/// What the method `op` and `op_with` show alike: the operation's docs, its deprecation and
/// the types of its answer.
struct Shared {
    docs: TokenStream,
    deprecated: Option<TokenStream>,
    success_ty: TokenStream,
    error_ty: proc_macro2::Ident,
}

impl Shared {
    fn of(op: &Operation, example: Option<&str>) -> Shared {
        let mut docs = operation_doc(op);
        if let Some(example) = example {
            // `ignore`: a doc test per operation would be built by every `cargo test` of the
            // crate; the repository's tests build the same snippets from the README instead.
            let mut lines = vec![String::new(), "```ignore".to_string()];
            lines.extend(example.lines().map(str::to_owned));
            lines.push("```".into());
            docs.extend(doc(&lines));
        }
        if let Some(b) = op.body.as_ref().filter(|b| b.media_chosen()) {
            let listed: Vec<String> = b.sendable_media().map(|m| format!("`{m}`")).collect();
            docs.extend(doc(&[
                String::new(),
                format!(
                    "The document takes the body as {}: name the media type with [`Upload::new`](crate::runtime::request::Upload::new); bytes or text alone are sent as the first (for a range, as [`Upload::content_type`](crate::runtime::request::Upload::content_type) says).",
                    listed.join(" or ")
                ),
            ]));
        }
        Shared {
            docs,
            deprecated: op.deprecated.as_ref().map(|d| {
                let note = &d.note;
                quote!(#[deprecated(note = #note)])
            }),
            success_ty: success_type(op),
            error_ty: error_ident(op),
        }
    }
}

/// The one method of an operation without optional parameters.
fn single(
    op: &Operation,
    inputs: &Inputs<'_>,
    body: TokenStream,
    example: Option<&str>,
) -> TokenStream {
    let name = ident(&op.rust);
    let Shared {
        docs,
        deprecated,
        success_ty,
        error_ty,
    } = Shared::of(op, example);
    let (args, query_string_arg, body_arg) = (
        inputs.required_args(),
        &inputs.query_string_arg,
        &inputs.body_arg,
    );
    let many = (inputs.count > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let allows = crate::emit::convention_allows(&name.to_string());
    quote! {
        #docs
        #deprecated
        #many
        #allows
        pub async fn #name(
            &self,
            #(#args)*
            #query_string_arg
            #body_arg
        ) -> Result<ResponseValue<#success_ty>, Error<#error_ty>> {
            #body
        }
    }
}

/// With optional parameters: `op(required…)` sends none of them and forwards to
/// `op_with(required…, options)`, so an operation's first optional parameter adds a method
/// rather than changing one (book/src/guide/evolving.md).
fn pair(
    op: &Operation,
    inputs: &Inputs<'_>,
    with: &str,
    body: TokenStream,
    example: Option<&str>,
) -> TokenStream {
    let name = ident(&op.rust);
    let with = ident(with);
    let Shared {
        docs,
        deprecated,
        success_ty,
        error_ty,
    } = Shared::of(op, example);
    let (query_string_arg, body_arg) = (&inputs.query_string_arg, &inputs.body_arg);
    let options_ty = options_ident(op);
    let options_arg = inputs.has_optional.then(|| quote!(options: #options_ty,));
    let forward = inputs
        .required
        .iter()
        .map(|p| ident(&p.local))
        .map(|a| quote!(#a,))
        .chain(op.query_string.as_ref().map(|q| {
            let q = ident(&q.rust);
            quote!(#q,)
        }))
        .chain(op.body.as_ref().map(|_| quote!(body,)));
    let many = (inputs.count > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let many_short = (inputs.count > 8).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let with_docs = doc(&[
        format!(
            "[`{}`](Self::{}) with the optional parameters in `options`.",
            crate::naming::bare(&op.rust),
            crate::naming::bare(&op.rust)
        ),
        String::new(),
        format!("`{} {}` (operation `{}`).", op.method, op.path, op.id),
    ]);
    let thin_note = doc(&[
        String::new(),
        format!(
            "Sends none of the optional parameters; [`{w}`](Self::{w}) takes them.",
            w = crate::naming::bare(&with.to_string())
        ),
    ]);
    let allows = crate::emit::convention_allows(&name.to_string());
    let with_allows = crate::emit::convention_allows(&with.to_string());
    // A deprecated operation's `…_with` is deprecated too; calling it is this method's job.
    let calls_deprecated = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
    // The method sends every option it is given, deprecated ones too.
    let reads_deprecated = op
        .params
        .iter()
        .any(|p| !p.required && p.deprecated)
        .then(|| quote!(#[allow(deprecated)]));
    let (args, args_again) = (inputs.required_args(), inputs.required_args());
    quote! {
        #docs
        #thin_note
        #deprecated
        #calls_deprecated
        #many_short
        #allows
        pub async fn #name(
            &self,
            #(#args_again)*
            #query_string_arg
            #body_arg
        ) -> Result<ResponseValue<#success_ty>, Error<#error_ty>> {
            self.#with(#(#forward)* Default::default()).await
        }

        #with_docs
        #deprecated
        #reads_deprecated
        #many
        #with_allows
        pub async fn #with(
            &self,
            #(#args)*
            #query_string_arg
            #body_arg
            #options_arg
        ) -> Result<ResponseValue<#success_ty>, Error<#error_ty>> {
            #body
        }
    }
}

/// The statements of the method that sends: the method and descriptor, the path, the query,
/// the cookies and the body made once, then the call (which builds each attempt's request)
/// and the answer read by its status.
fn statements(op: &Operation) -> TokenStream {
    let (method_decl, method_value) = http_method(op);
    let path = path(op);
    let query = query(op);
    let cookies = cookies(op);
    let (body_prep, body_attach) = body(op);
    let build = request(
        op,
        &method_value,
        &path.arg,
        &query.arg,
        &cookies.set,
        &body_attach,
    );
    let (operation_decl, operation_ref) = operation_info(op, &method_value);
    let send_parts = send_parts(
        op,
        &operation_ref,
        &path.arg,
        &query.arg,
        cookies.set.is_some(),
    );
    let send_and_match = send_and_match(op, &operation_ref, &build, send_parts);
    let (path_expr, query_expr, cookie_expr) = (&path.expr, &query.expr, &cookies.expr);
    let header_prep = header_prep(op);
    quote! {
        #method_decl
        #operation_decl
        #path_expr
        #query_expr
        #cookie_expr
        #header_prep
        #body_prep
        #send_and_match
    }
}

/// The call that sends a request made of its URL and at most a serialized body (no headers
/// or cookies of its own): the runtime builds it (`send_url`, `send_body`) from the parts.
fn send_parts(
    op: &Operation,
    operation_ref: &TokenStream,
    path: &TokenStream,
    query: &TokenStream,
    has_cookies: bool,
) -> Option<TokenStream> {
    if !headers(op).is_empty() || has_cookies {
        return None;
    }
    let accept = match op.accept.as_deref() {
        Some("application/json") => quote!(JSON),
        Some(a) => quote!(Some(#a)),
        None => quote!(None),
    };
    let Some(b) = &op.body else {
        return Some(quote!(send_url(#operation_ref, #path, #query, #accept)));
    };
    let plain = matches!(
        b.kind,
        BodyKind::Json(_) | BodyKind::Form(_) | BodyKind::Text | BodyKind::Bytes
    ) && !b.is_multipart_form()
        && !b.media_chosen()
        && super::is_static_header_value(&b.content_type);
    let content_type = &b.content_type;
    let body = if b.required {
        quote!(Some(&body))
    } else {
        quote!(body.as_ref())
    };
    plain.then(|| quote!(send_body(#operation_ref, #path, #query, #accept, #content_type, #body)))
}

/// What a method takes besides `&self`: the required parameters, the query string, the body
/// (the options, when there are optional parameters, are added by [`method`]).
struct Inputs<'a> {
    required: Vec<&'a Param>,
    has_optional: bool,
    query_string_arg: Option<TokenStream>,
    body_arg: Option<TokenStream>,
    /// How many inputs `op_with` has, `&self` included: a long list is the document's to
    /// choose (clippy::too_many_arguments counts `self`).
    count: usize,
}

impl<'a> Inputs<'a> {
    fn of(op: &'a Operation) -> Inputs<'a> {
        let required: Vec<&Param> = op.params.iter().filter(|p| p.required).collect();
        let has_optional = op.params.iter().any(|p| !p.required);
        let query_string_arg = op.query_string.as_ref().map(|q| {
            let name = ident(&q.rust);
            let t = match &q.kind {
                QueryStringKind::Form(t) | QueryStringKind::Json(t) => {
                    let t = rust_type(t, true);
                    quote!(&#t)
                }
                QueryStringKind::Raw => quote!(&str),
            };
            if q.required {
                quote!(#name: #t,)
            } else {
                quote!(#name: Option<#t>,)
            }
        });
        let body_arg = op.body.as_ref().map(|b| {
            // Bytes or text the caller labels (several media types, or a range): plain bytes
            // or text still convert, so the method takes what one of a single type takes.
            if b.media_chosen() {
                return if b.required {
                    quote!(body: impl Into<crate::runtime::codegen::Upload>,)
                } else {
                    quote!(body: Option<crate::runtime::codegen::Upload>,)
                };
            }
            let t = match &b.kind {
                BodyKind::Text => quote!(str),
                _ if b.is_multipart_form() => quote!(crate::runtime::codegen::Form),
                // A list is taken as a slice (`&[Pet]`), as a person would write it.
                BodyKind::Json(TypeRef::Vec(item)) => {
                    let item = rust_type(item, true);
                    quote!([#item])
                }
                _ => body_type(op, &b.kind),
            };
            if b.required {
                quote!(body: &#t,)
            } else {
                quote!(body: Option<&#t>,)
            }
        });
        let count = 1
            + required.len()
            + usize::from(has_optional)
            + usize::from(op.query_string.is_some())
            + usize::from(op.body.is_some());
        Inputs {
            required,
            has_optional,
            query_string_arg,
            body_arg,
            count,
        }
    }

    /// `name: Type,` of each required parameter.
    fn required_args(&self) -> Vec<TokenStream> {
        self.required
            .iter()
            .map(|p| {
                let rust = ident(&p.local);
                let t = arg_type(p);
                quote!(#rust: #t,)
            })
            .collect()
    }
}

/// The request method's declaration (if any) and value. Standard methods are constants;
/// others (`QUERY`, `additionalOperations`) are built once from their name, outside the
/// closure that builds each attempt.
fn http_method(op: &Operation) -> (TokenStream, TokenStream) {
    if op.standard_method {
        let m = format_ident!("{}", op.method.to_uppercase());
        (quote!(), quote!(http::Method::#m))
    } else {
        let m = &op.method;
        (
            quote!(let method = request::method(#m)?;),
            quote!(method.clone()),
        )
    }
}

/// A part of the request: the statements that make it, and how the request names it.
struct Part {
    expr: TokenStream,
    arg: TokenStream,
}

/// The values of the path's parameters in the template's order, when each is one value of
/// `style: simple` (no list, no object): what `request::path` fills a template with.
fn simple_path_values(op: &Operation) -> Option<Vec<TokenStream>> {
    op.path_template
        .iter()
        .filter_map(|piece| match piece {
            PathPiece::Param(wire) => Some(wire),
            PathPiece::Text(_) => None,
        })
        .map(|wire| {
            let p = op
                .params
                .iter()
                .find(|p| p.location == Location::Path && &p.wire == wire)?;
            let simple = p.object.is_none()
                && !matches!(p.style, Style::Label | Style::Matrix)
                && !matches!(p.ty, TypeRef::Vec(_));
            let local = ident(&p.local);
            simple.then(|| quote!(#local))
        })
        .collect()
}

/// The path: `/pets/{petId}` → `request::path(OPERATION.path, &[&pet_id])`, or
/// `format!("/pets/{}", …)` with what the runtime writes for a list, an object or a `label`
/// or `matrix` value.
fn path(op: &Operation) -> Part {
    let mut template = String::new();
    let mut path_args = Vec::new();
    // Segments the runtime writes, each into a local first (writing can fail).
    let mut written = Vec::new();
    for piece in &op.path_template {
        let wire = match piece {
            PathPiece::Text(text) => {
                template.push_str(&text.replace('{', "{{").replace('}', "}}"));
                continue;
            }
            PathPiece::Param(wire) => wire.as_str(),
        };
        template.push_str("{}");
        match op
            .params
            .iter()
            .find(|p| p.location == Location::Path && p.wire == wire)
        {
            Some(p)
                if p.object == Some(ObjectStyle::Styled)
                    || matches!(p.style, Style::Label | Style::Matrix) =>
            {
                // An object, or a `label` or `matrix` value: written by the runtime's table
                // of styles.
                let v = param_ref(p);
                let style = crate::emit::style_tokens(p.style);
                let explode = p.explode;
                let segment = quote::format_ident!("{}_segment", crate::naming::bare(&p.local));
                written.push(
                    quote!(let #segment = request::path_styled(#v, #style, #explode, #wire)?;),
                );
                path_args.push(quote!(#segment));
            }
            Some(p) => {
                let v = param_ref(p);
                path_args.push(match &p.ty {
                    // `style: simple`: the items, each encoded, joined by commas (an item's
                    // own comma is encoded, so the server splits where the client joined).
                    TypeRef::Vec(_) => quote!(#v
                        .iter()
                        .map(|item| request::encode_path_segment(&ToParam::to_param(item)))
                        .collect::<Vec<_>>()
                        .join(",")),
                    _ => quote!(request::encode_path_segment(&ToParam::to_param(#v))),
                });
            }
            None => path_args.push(quote!(#wire)),
        }
    }
    // The template the operation's descriptor holds, not restated beside it.
    let described = |template: &str| {
        if template != op.path {
            quote!(#template)
        } else if op.standard_method {
            quote!(OPERATION.path)
        } else {
            quote!(operation.path)
        }
    };
    if path_args.is_empty() {
        // A path without parameters is named where it is used.
        Part {
            expr: quote!(),
            arg: described(&template),
        }
    } else if let Some(values) = simple_path_values(op) {
        // Every parameter one value, `style: simple`: the runtime fills the template.
        let template: String = op
            .path_template
            .iter()
            .map(|piece| match piece {
                PathPiece::Text(text) => text.clone(),
                PathPiece::Param(wire) => format!("{{{wire}}}"),
            })
            .collect();
        let template = described(&template);
        Part {
            expr: quote!(let path = request::path(#template, &[#(&#values),*]);),
            arg: quote!(&path),
        }
    } else {
        Part {
            expr: quote!(#(#written)* let path = format!(#template, #(#path_args),*);),
            arg: quote!(&path),
        }
    }
}

/// The query: the whole query string (`in: querystring`), or the key's constant pairs then
/// the query parameters.
fn query(op: &Operation) -> Part {
    let query_params: Vec<&Param> = op
        .params
        .iter()
        .filter(|p| p.location == Location::Query)
        .collect();
    let expr = if let Some(q) = &op.query_string {
        let name = ident(&q.rust);
        match (&q.kind, q.required) {
            (QueryStringKind::Form(_), true) => {
                quote!(let query = request::to_query_string(#name)?;)
            }
            (QueryStringKind::Form(_), false) => quote! {
                let query = #name.map(request::to_query_string).transpose()?.unwrap_or_default();
            },
            (QueryStringKind::Json(_), true) => {
                quote!(let query = request::to_query_string_json(#name)?;)
            }
            (QueryStringKind::Json(_), false) => quote! {
                let query = #name.map(request::to_query_string_json).transpose()?.unwrap_or_default();
            },
            (QueryStringKind::Raw, true) => quote!(let query = #name;),
            (QueryStringKind::Raw, false) => quote!(let query = #name.unwrap_or_default();),
        }
    } else if query_params.is_empty() && op.path_query.is_empty() {
        // No query: the empty string is passed as it is.
        return Part {
            expr: quote!(),
            arg: quote!(""),
        };
    } else {
        // The query the path key carries (`?beta=true`) comes first, as the key writes it.
        let fixed = op
            .path_query
            .iter()
            .map(|(name, value)| quote!(query.append(#name, #value);));
        if op.query_in_options() {
            // The options struct writes its own fields (their styles are declared on it).
            let required = query_params
                .iter()
                .filter(|p| p.required)
                .map(|p| query_append(p));
            if op.path_query.is_empty() && !query_params.iter().any(|p| p.required) {
                return Part {
                    expr: quote!(let query = options.query()?;),
                    arg: quote!(&query),
                };
            }
            return Part {
                expr: quote! {
                    let mut query = Query::new();
                    #(#fixed)*
                    #(#required)*
                    options.append_query(&mut query)?;
                    let query = query.finish();
                },
                arg: quote!(&query),
            };
        }
        let appends = query_params.iter().map(|p| query_append(p));
        quote! {
            let mut query = Query::new();
            #(#fixed)*
            #(#appends)*
            let query = query.finish();
        }
    };
    let arg = if query_params.is_empty()
        && op.path_query.is_empty()
        && !matches!(&op.query_string, Some(q) if !matches!(q.kind, QueryStringKind::Raw))
    {
        quote!(query)
    } else {
        quote!(&query)
    };
    Part { expr, arg }
}

/// The statement appending one query parameter in its style (an optional one only when set).
fn query_append(p: &Param) -> TokenStream {
    let wire = &p.wire;
    let v = param_ref(p);
    let (explode, delimiter) = (p.explode, p.delimiter);
    let object = p.object.as_ref().and_then(|style| match style {
        ObjectStyle::Members(_) | ObjectStyle::Rest(_) => Some(quote!(ObjectQuery::Exploded)),
        ObjectStyle::Joined => Some(quote!(ObjectQuery::Joined)),
        ObjectStyle::Deep => Some(quote!(ObjectQuery::Deep)),
        ObjectStyle::Styled => None,
    });
    let style = crate::emit::style_tokens(p.style);
    let append = match (&p.ty, p.required) {
        _ if p.object == Some(ObjectStyle::Styled) && p.required => {
            quote!(query.append_styled(#wire, #v, #style, #explode)?;)
        }
        _ if p.object == Some(ObjectStyle::Styled) => {
            quote!(if let Some(value) = #v { query.append_styled(#wire, value, #style, #explode)?; })
        }
        _ if p.required && object.is_some() => {
            quote!(query.append_object(#wire, #v, #object)?;)
        }
        _ if object.is_some() => {
            quote!(if let Some(value) = #v { query.append_object(#wire, value, #object)?; })
        }
        (TypeRef::Vec(_), true) => {
            quote!(query.append_array(#wire, #v, #explode, #delimiter);)
        }
        (TypeRef::Vec(_), false) => {
            quote!(if let Some(values) = #v { query.append_array(#wire, values, #explode, #delimiter); })
        }
        (_, true) => quote!(query.append(#wire, #v);),
        (_, false) => quote!(query.append_opt(#wire, #v);),
    };
    if p.allow_reserved {
        quote!(query.allow_reserved(true); #append query.allow_reserved(false);)
    } else {
        append
    }
}

/// How the options declaration says an optional query parameter is written (the words of
/// `request::parameters!`: `query`, `query(array, …)`, `query(object, …)`,
/// `query(styled, …)`), as [`query_append`] writes it in a method.
pub(super) fn query_words(p: &Param) -> TokenStream {
    let (explode, delimiter) = (p.explode, p.delimiter);
    match (&p.object, &p.ty) {
        (Some(ObjectStyle::Styled), _) => {
            let style = crate::emit::style_tokens(p.style);
            quote!(query(styled, #style, #explode))
        }
        (Some(ObjectStyle::Members(_) | ObjectStyle::Rest(_)), _) => {
            quote!(query(object, ObjectQuery::Exploded))
        }
        (Some(ObjectStyle::Joined), _) => quote!(query(object, ObjectQuery::Joined)),
        (Some(ObjectStyle::Deep), _) => quote!(query(object, ObjectQuery::Deep)),
        (None, TypeRef::Vec(_)) => quote!(query(array, #explode, #delimiter)),
        (None, _) => quote!(query),
    }
}

/// `builder = builder.header(…)` for each header parameter.
fn headers(op: &Operation) -> Vec<TokenStream> {
    op.params
        .iter()
        .filter(|p| p.location == Location::Header)
        .map(|p| {
            let wire = &p.wire;
            let v = param_ref(p);
            if p.object == Some(ObjectStyle::Styled) {
                // Written once, before the request is built (see `header_prep`).
                let written = styled_header_local(p);
                return quote!(if let Some(value) = &#written { builder = builder.header(#wire, value.as_str()); });
            }
            let value = match &p.ty {
                TypeRef::Vec(_) => quote!(
                    values
                        .iter()
                        .map(ToParam::to_param)
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                _ => quote!(ToParam::to_param(values)),
            };
            if p.required {
                quote!({ let values = #v; builder = builder.header(#wire, #value); })
            } else {
                quote!(if let Some(values) = #v { builder = builder.header(#wire, #value); })
            }
        })
        .collect()
}

/// The local holding a header parameter's value written in its style.
fn styled_header_local(p: &Param) -> proc_macro2::Ident {
    quote::format_ident!("styled_header_{}", crate::naming::bare(&p.local))
}

/// The header parameters written by the runtime's table of styles (objects), each into an
/// `Option<String>` before the request is built: writing can fail, and the request is built
/// afresh on every attempt, where `?` has no place.
fn header_prep(op: &Operation) -> TokenStream {
    let lets = op
        .params
        .iter()
        .filter(|p| p.location == Location::Header && p.object == Some(ObjectStyle::Styled))
        .map(|p| {
            let (wire, explode, v) = (&p.wire, p.explode, param_ref(p));
            let written = styled_header_local(p);
            if p.required {
                quote!(let #written = Some(request::header_styled(#v, #explode, #wire)?);)
            } else {
                quote!(let #written = #v.map(|value| request::header_styled(value, #explode, #wire)).transpose()?;)
            }
        });
    quote!(#(#lets)*)
}

/// The cookie parameters: the statements that join them into one `Cookie` header before
/// the request is built, and the statement that sets it on each attempt.
struct Cookies {
    expr: Option<TokenStream>,
    set: Option<TokenStream>,
}

fn cookies(op: &Operation) -> Cookies {
    let cookies: Vec<TokenStream> = op
        .params
        .iter()
        .filter(|p| p.location == Location::Cookie)
        .map(cookie)
        .collect();
    if cookies.is_empty() {
        return Cookies {
            expr: None,
            set: None,
        };
    }
    Cookies {
        expr: Some(quote! {
            let mut cookies: Vec<String> = Vec::new();
            #(#cookies)*
            let cookie = cookies.join("; ");
        }),
        set: Some(quote!(if !cookie.is_empty() {
            builder = builder.header(http::header::COOKIE, cookie.as_str());
        })),
    }
}

/// The pairs of one cookie parameter, pushed onto `cookies`.
fn cookie(p: &Param) -> TokenStream {
    let wire = &p.wire;
    let v = param_ref(p);
    // `style: form` percent-encodes (RFC 6570); `style: cookie` (3.2) writes the value as it
    // is. An array: one pair per item when exploded (form's default for cookies), else the
    // items encoded and joined by commas.
    let encode = |value: TokenStream| {
        if p.as_sent {
            quote!(ToParam::to_param(#value))
        } else {
            quote!(request::encode_query_component(&ToParam::to_param(#value)))
        }
    };
    let explode = p.explode;
    let push = |values: TokenStream| match &p.ty {
        _ if p.object == Some(ObjectStyle::Styled) => quote!(
            cookies.push(format!("{}={}", #wire, request::cookie_styled(#values, #explode, #wire)?));
        ),
        TypeRef::Vec(_) if p.explode => {
            let item = encode(quote!(item));
            quote!(for item in #values { cookies.push(format!("{}={}", #wire, #item)); })
        }
        TypeRef::Vec(_) => {
            let item = encode(quote!(item));
            quote!(cookies.push(format!("{}={}", #wire, #values.iter().map(|item| #item).collect::<Vec<_>>().join(",")));)
        }
        _ => {
            let value = encode(values);
            quote!(cookies.push(format!("{}={}", #wire, #value));)
        }
    };
    if p.required {
        push(v)
    } else {
        let binding = if matches!(p.ty, TypeRef::Vec(_)) {
            quote!(values)
        } else {
            quote!(value)
        };
        let push = push(binding.clone());
        quote!(if let Some(#binding) = #v { #push })
    }
}

/// The body: serialized once before the request (`prep`), attached to each attempt.
fn body(op: &Operation) -> (TokenStream, TokenStream) {
    let Some(b) = &op.body else {
        return (quote!(), quote!());
    };
    if b.is_multipart_form() {
        // The Content-Type carries the boundary the form chose.
        return if b.required {
            (
                quote!(let (multipart_type, body) = body.encode();),
                quote!(builder = builder.header(http::header::CONTENT_TYPE, multipart_type.clone()).body(body.clone());),
            )
        } else {
            (
                quote!(let body = body.map(|body| body.encode());),
                quote!(if let Some((multipart_type, body)) = &body {
                    builder = builder
                        .header(http::header::CONTENT_TYPE, multipart_type.clone())
                        .body(body.clone());
                }),
            )
        };
    }
    if b.media_chosen() {
        let declared = &b.content_type;
        return if b.required {
            (
                quote! {
                    let body: crate::runtime::codegen::Upload = body.into();
                    let content_type = body.content_type(#declared)?;
                },
                quote!(builder = builder.header(http::header::CONTENT_TYPE, content_type.clone()).body(body.bytes().clone());),
            )
        } else {
            (
                quote!(let body = body.map(|body| body.content_type(#declared).map(|ct| (ct, body))).transpose()?;),
                quote!(if let Some((content_type, body)) = &body {
                    builder = builder
                        .header(http::header::CONTENT_TYPE, content_type.clone())
                        .body(body.bytes().clone());
                }),
            )
        };
    }
    let ct_value = static_header_value(&b.content_type);
    let serialize = match &b.kind {
        BodyKind::Stream(_) => {
            quote!(Ok::<_, crate::runtime::codegen::SendError>(body.clone()))
        }
        BodyKind::Json(_) => quote!(request::to_json(body)),
        BodyKind::Form(_) => quote!(request::to_form(body)),
        BodyKind::Text => quote!(Ok::<_, crate::runtime::codegen::SendError>(
            bytes::Bytes::from(body.to_owned())
        )),
        BodyKind::Bytes => quote!(Ok::<_, crate::runtime::codegen::SendError>(body.clone())),
        BodyKind::Multipart { .. } => {
            unreachable!("a typed multipart body is only ever an alternative the server reads")
        }
    };
    if b.required {
        return (
            quote!(let body = #serialize?;),
            quote!(builder = builder.header(http::header::CONTENT_TYPE, #ct_value).body(body.clone());),
        );
    }
    let prep = match &b.kind {
        BodyKind::Json(_) => {
            quote!(let body = body.map(request::to_json).transpose()?;)
        }
        BodyKind::Form(_) => {
            quote!(let body = body.map(request::to_form).transpose()?;)
        }
        _ => quote!(let body = body.map(|body| #serialize).transpose()?;),
    };
    (
        prep,
        quote!(if let Some(body) = &body { builder = builder.header(http::header::CONTENT_TYPE, #ct_value).body(body.clone()); }),
    )
}

/// The body of the closure that builds each attempt's request from `http` and `base`.
fn request(
    op: &Operation,
    method_value: &TokenStream,
    path_arg: &TokenStream,
    query_arg: &TokenStream,
    cookie_set: &Option<TokenStream>,
    body_attach: &TokenStream,
) -> TokenStream {
    let header_sets = headers(op);
    let accept = op.accept.as_ref().map(|a| {
        let a = static_header_value(a);
        quote!(.header(http::header::ACCEPT, #a))
    });
    let request =
        quote!(http.request(#method_value, request::url(base, #path_arg, #query_arg))#accept);
    let needs_mut = !header_sets.is_empty() || cookie_set.is_some() || op.body.is_some();
    if !needs_mut {
        return request;
    }
    quote! {
        let mut builder = #request;
        #(#header_sets)*
        #cookie_set
        #body_attach
        builder
    }
}

/// The operation's descriptor for the transport (retries, authentication, deprecation):
/// its declaration and how the call names it. Standard methods make it a constant; others
/// are built from their name.
fn operation_info(op: &Operation, method_value: &TokenStream) -> (TokenStream, TokenStream) {
    let id = &op.id;
    let template = &op.path;
    let idempotency_key = op.idempotency_key.is_some();
    let deprecated_flag = op.deprecated.is_some();
    let security: Vec<TokenStream> = op.security.iter().map(|alt| quote!(&[#(#alt),*])).collect();
    if op.standard_method {
        // The runtime's constructor by method (`OperationInfo::get`), which knows whether it
        // is idempotent; what is not off is said by a modifier.
        let method = format_ident!("{}", op.method.to_ascii_lowercase());
        let deprecated = deprecated_flag.then(|| quote!(.deprecated()));
        let secured = (!security.is_empty()).then(|| quote!(.secured(&[#(#security),*])));
        let key = idempotency_key.then(|| quote!(.idempotency_key()));
        return (
            quote! {
                const OPERATION: OperationInfo =
                    OperationInfo::#method(#template, #id) #deprecated #secured #key;
            },
            quote!(&OPERATION),
        );
    }
    let idempotent = op.idempotent;
    let operation = quote!(OperationInfo {
        id: #id,
        path: #template,
        method: #method_value,
        idempotent: #idempotent,
        deprecated: #deprecated_flag,
        security: &[#(#security),*],
        idempotency_key: #idempotency_key,
    });
    (quote!(let operation = #operation;), quote!(&operation))
}

/// Sends the request and reads the answer by its status: the successes here, every other
/// status by the error enum's declaration (`response::errors!`).
///
/// `send_dyn` (not the generic `send`): the retry loop is compiled once in the runtime
/// rather than once per operation, the largest share of a big client's machine code.
fn send_and_match(
    op: &Operation,
    operation_ref: &TokenStream,
    build: &TokenStream,
    send_parts: Option<TokenStream>,
) -> TokenStream {
    let success = success_arms(op, operation_ref);
    if op.streamed {
        // Every other answer is read whole first, then as the operation's error.
        return quote! {
            let streamed = self
                .transport
                .send_streaming_dyn(#operation_ref, SECURITY_SCHEMES, &|http, base| { #build })
                .await?;
            match streamed.status.as_u16() {
                #(#success)*
                _ => Err(streamed.into_raw().await?.error()),
            }
        };
    }
    let send = send_parts.unwrap_or_else(
        || quote!(send_dyn(#operation_ref, SECURITY_SCHEMES, &|http, base| { #build })),
    );
    let read = match uniform_success(op) {
        // Every success read one way: the runtime's `answer` tells them from the errors.
        Some((codes, read)) => {
            quote!(self.transport.answer(#operation_ref, raw, &[#(#codes),*], #read))
        }
        None if success.is_empty() => quote!(Err(raw.error())),
        None => quote! {
            match raw.status.as_u16() {
                #(#success)*
                _ => Err(raw.error()),
            }
        },
    };
    quote! {
        let raw = self.transport.#send.await?;
        #read
    }
}

/// The documented success codes and the one reader of them all (`Raw::json`), when every
/// success, an undocumented 2XX's included, is a code (not a range or `default`) read the
/// same way into one type.
fn uniform_success(op: &Operation) -> Option<(Vec<proc_macro2::Literal>, TokenStream)> {
    if op.success_enum || op.default_succeeds || !op.undocumented.success_arm {
        return None;
    }
    let mut codes = Vec::new();
    let mut kinds = Vec::new();
    for r in op.responses.iter().filter(|r| r.is_success()) {
        let Status::Code(c) = r.status else {
            return None;
        };
        codes.push(proc_macro2::Literal::u16_unsuffixed(c));
        kinds.push(r.body.as_ref().map(|b| &b.kind));
    }
    let undocumented = op
        .undocumented
        .success
        .map(|i| op.responses[i].body.as_ref().map(|b| &b.kind));
    kinds.push(undocumented.flatten());
    // Compared as the whole reading (`raw.json::<T, _>()`), type included.
    let first = decode(op, kinds[0]).to_string();
    let same = kinds.iter().all(|k| decode(op, *k).to_string() == first);
    reader(kinds[0]).filter(|_| same).map(|read| (codes, read))
}

/// `Raw`'s reader of a body of `kind` as a function (`Raw::json`), when it has one.
fn reader(kind: Option<&BodyKind>) -> Option<TokenStream> {
    match kind {
        // The type is the method's to say (its return type).
        Some(BodyKind::Json(_) | BodyKind::Form(_) | BodyKind::Multipart { .. }) => {
            Some(quote!(Raw::json))
        }
        Some(BodyKind::Text) => Some(quote!(Raw::text)),
        Some(BodyKind::Bytes) => Some(quote!(Raw::bytes)),
        Some(BodyKind::Stream(_)) => None,
        None => Some(quote!(Raw::empty)),
    }
}

/// The successes' `match` arms: exact codes first, then ranges, then a `default` read as a
/// success, then any other 2XX read as the nearest documented one, marked undocumented
/// (book/src/reference/type-mapping.md, "Answers the client reads").
fn success_arms(op: &Operation, operation_ref: &TokenStream) -> Vec<TokenStream> {
    let mut arms: Vec<(u8, TokenStream)> = Vec::new();
    for r in &op.responses {
        if r.status == Status::Default && op.default_succeeds {
            let decode = decode(op, r.body.as_ref().map(|b| &b.kind));
            arms.push((1, quote!(200..=299 => #decode,)));
        }
        if r.is_success() {
            let pattern = status_pattern(r, op);
            let rank = u8::from(matches!(r.status, Status::Range(_)));
            let expr = success_expr(op, r);
            arms.push((rank, quote!(#pattern => #expr,)));
        }
    }
    if op.undocumented.success_arm {
        let expr = match op.undocumented.success {
            Some(i) => success_expr(op, &op.responses[i]),
            None => decode(op, None),
        };
        let pattern = super::class_pattern(2, op);
        arms.push((
            1,
            quote!(#pattern => self.transport.undocumented(#operation_ref, #expr),),
        ));
    }
    arms.sort_by_key(|(rank, _)| *rank);
    arms.into_iter().map(|(_, arm)| arm).collect()
}

/// Reads the success `r`, into its variant of the success enum when there is one.
fn success_expr(op: &Operation, r: &Response) -> TokenStream {
    let decode = decode(op, r.body.as_ref().map(|b| &b.kind));
    if !op.success_enum {
        return decode;
    }
    let v = ident(&r.variant);
    let success = success_ident(op);
    let wrap = if r.body.is_some() {
        quote!(#success::#v)
    } else {
        quote!(|()| #success::#v)
    };
    quote!(#decode.map(|value| value.map(#wrap)))
}

/// Reads a success's body of `kind`. A streamed operation's other answers are read whole
/// first.
fn decode(op: &Operation, kind: Option<&BodyKind>) -> TokenStream {
    let d = match kind {
        Some(BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. }) => {
            let t = rust_type(t, true);
            quote!(raw.json::<#t, _>())
        }
        Some(BodyKind::Text) => quote!(raw.text()),
        Some(BodyKind::Bytes) => quote!(raw.bytes()),
        Some(BodyKind::Stream(s)) => {
            let t = rust_type(&s.item, true);
            match s.format {
                StreamFormat::Events => {
                    quote!(Ok(streamed.event_stream::<#t, _>(Raw::error)))
                }
                StreamFormat::EventsText => {
                    quote!(Ok(streamed.event_stream_text(Raw::error)))
                }
                StreamFormat::JsonLines => quote!(Ok(streamed.json_lines::<#t, _>())),
            }
        }
        None => quote!(raw.empty()),
    };
    if op.streamed && !matches!(kind, Some(BodyKind::Stream(_))) {
        quote!({ let raw = streamed.into_raw().await?; #d })
    } else {
        d
    }
}
