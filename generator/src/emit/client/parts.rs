//! The parts of one operation's request as the client method makes them: the HTTP method,
//! the path, the query, the headers and cookies, the body, and the closure that builds each
//! attempt's request from them when the runtime cannot.

use super::{param_ref, static_header_value};
use crate::emit::ident;
use crate::ir::{
    BodyKind, Location, ObjectStyle, Operation, Param, PathPiece, QueryStringKind, Style, TypeRef,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The request method's declaration (if any) and value. Standard methods are constants;
/// others (`QUERY`, `additionalOperations`) are built once from their name, outside the
/// closure that builds each attempt.
pub(super) fn http_method(op: &Operation) -> (TokenStream, TokenStream) {
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
pub(super) struct Part {
    pub(super) expr: TokenStream,
    pub(super) arg: TokenStream,
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
pub(super) fn path(op: &Operation) -> Part {
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
pub(super) fn query(op: &Operation) -> Part {
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
pub(super) fn headers(op: &Operation) -> Vec<TokenStream> {
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
pub(super) fn header_prep(op: &Operation) -> TokenStream {
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
pub(super) struct Cookies {
    pub(super) expr: Option<TokenStream>,
    pub(super) set: Option<TokenStream>,
}

pub(super) fn cookies(op: &Operation) -> Cookies {
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
pub(super) fn body(op: &Operation) -> (TokenStream, TokenStream) {
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
pub(super) fn request(
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
