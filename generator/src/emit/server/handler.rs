//! Prints one operation's handler: parameters read and checked, the body read by its media
//! type and checked, the implementation called, and its answer turned into a response.
//!
//! Decisions:
//! `docs/decisions/0016-server-params-declared.md`,
//! `docs/decisions/0017-server-answers-and-entry.md`.

use super::*;

pub(super) fn handler(
    api: &Api,
    op: &Operation,
    trait_ident: &proc_macro2::Ident,
    vis: Option<TokenStream>,
) -> TokenStream {
    let name = ident(&op.rust);
    let handle = handler_ident(api, op);
    let serve = format_ident!("serve_{}", handler_stem(api, &op.rust));
    let non_snake = handle
        .to_string()
        .contains("__")
        .then(|| quote!(#[allow(non_snake_case)]));
    let id = &op.id;
    let route_doc = doc(&[format!(
        "`{} {}`: see [`{trait_ident}::{}`].",
        op.method,
        op.path,
        crate::naming::bare(&op.rust)
    )]);
    let serve_doc = doc(&[format!(
        "Authorizes, reads and checks a `{}` request, then calls the implementation.",
        op.id
    )]);
    let security: Vec<TokenStream> = op.security.iter().map(|alt| quote!(&[#(#alt),*])).collect();
    let has_path = op.params.iter().any(|p| p.location == Location::Path);
    let params = params_part(api, op, has_path);
    let body = op.body.as_ref().map(|b| body_part(api, b));
    let query_string = op.query_string.as_ref().map(|q| query_string_part(api, q));
    let query_string_arg = op.query_string.as_ref().map(|q| {
        let name = ident(&q.rust);
        quote!(#name,)
    });
    let (body_arg, body_var) = match &op.body {
        Some(_) => (quote!(body,), quote!(body)),
        None => (quote!(), quote!(_body)),
    };
    let params_arg = quote!(params,);
    let call_allow = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
    // A request that does not ask for the switch gets 426 (a 101 without one answers nothing).
    let upgrade = op
        .switches_protocols()
        .then(|| quote!(crate::runtime::codegen::upgrade::require(&parts, "websocket")?;));
    let parts_mut = if has_path {
        quote!(mut parts)
    } else {
        quote!(parts)
    };
    let limit_arg = op.body.as_ref().map(|_| quote!(body_limit: usize,));
    let (key_arg, key_checked) = match op.idempotency_key {
        Some(_) => (
            Some(quote!(key_checked: Result<(), Box<Problem>>,)),
            // Boxed while the future holds it: a refusal is rare, the future made for every
            // request.
            Some(quote!(key_checked.map_err(|problem| *problem)?;)),
        ),
        None => (None, None),
    };
    // What serving the request is, whichever function holds it: authorize, read, check, call.
    let steps = quote! {
        let scheme = auth::authorize_scheme(parts.extensions.get(), &[#(#security),*])?;
        #key_checked
        #params
        #query_string
        #body
        #upgrade
        let ctx = RequestContext::new(#id, scheme, parts);
        #call_allow
        // Called through the trait: an operation named like a method of `Arc` (`clone`)
        // would otherwise call that one.
        let outcome = A::#name(&api, &ctx, #params_arg #query_string_arg #body_arg).await;
        response::answer(outcome, |error| api.handle_error(&ctx, error))
    };
    if let Some((entry, checked)) = declared_entry(api, op) {
        let reads = if checked {
            "Authorizes, reads and checks the request"
        } else {
            "Authorizes and reads the request"
        };
        let docs = doc(&[format!(
            "`{} {}`: see [`{trait_ident}::{}`]. {reads}, then calls the implementation.",
            op.method,
            op.path,
            crate::naming::bare(&op.rust)
        )]);
        // Declared: the runtime's `layer::handler!` writes the function around the entry.
        return quote! {
            layer::handler! {
                #docs
                #non_snake
                #call_allow
                #vis fn #handle<A: #trait_ident>() {
                    #entry
                }
            }
        };
    }
    // An operation with nothing to do before it is served is one function: the runtime's
    // `layer::handle` splits the request and replies, the closure reads and calls.
    if op.served_plainly() {
        let (entry, limit) = match &op.body {
            Some(_) => ("handle_body", quote!(body_limit,)),
            None => ("handle", quote!()),
        };
        let (entry, errors) = entry_in(op, entry);
        let docs = doc(&[format!(
            "`{} {}`: see [`{trait_ident}::{}`]. Authorizes, reads and checks the request, then calls the implementation.",
            op.method,
            op.path,
            crate::naming::bare(&op.rust)
        )]);
        return quote! {
            #docs
            #non_snake
            #vis fn #handle<A: #trait_ident>(
                api: Arc<A>,
                request: Request,
            ) -> impl Future<Output = Response> + Send {
                layer::#entry(#errors api, request, |api, #limit #parts_mut, #body_var| async move {
                    #steps
                })
            }
        };
    }
    let (sunset, handle_body) = entry_part(api, op, &serve);
    quote! {
        #route_doc
        #non_snake
        #vis fn #handle<A: #trait_ident>(
            api: Arc<A>,
            request: Request,
        ) -> impl Future<Output = Response> + Send {
            #handle_body
        }

        #serve_doc
        #non_snake
        fn #serve<A: #trait_ident>(
            api: Arc<A>,
            #limit_arg
            #key_arg
            #parts_mut: http::request::Parts,
            #body_var: Body,
        ) -> impl Future<Output = Result<Response, Problem>> + Send {
            async move {
                #sunset
                #steps
            }
        }
    }
}

/// The runtime entry that serves `op` on its own, when one does, as `layer::handler!` and
/// `routes::table!` take it (`call(A::list_pets, "listPets", &[&["bearerAuth"]])`), and
/// whether it checks the body: an operation with nothing to read but declared parameters
/// (and perhaps one JSON body) is the runtime's `layer::call` (`call_json`), which
/// authorizes, reads and names the context, then calls the trait method.
pub(super) fn declared_entry(api: &Api, op: &Operation) -> Option<(TokenStream, bool)> {
    let reads_pattern = op
        .path_pattern
        .as_ref()
        .is_some_and(|p| !p.segments.is_empty());
    let validated = validated_types(api);
    // A body the runtime reads on its own: one required JSON body with no checks but its
    // type's (`layer::call_json`, or `call_json_checked` when the type has some).
    let json_entry = op.body.as_ref().and_then(|b| match &b.kind {
        BodyKind::Json(t)
            if b.required
                && b.alternatives.is_empty()
                && b.held.is_none()
                && body_checks(b, false, true).is_none() =>
        {
            Some(if crate::emit::types::contents_validated(t, &validated) {
                "call_json_checked"
            } else {
                "call_json"
            })
        }
        _ => None,
    });
    let declared = op.served_plainly()
        && (op.body.is_none() || json_entry.is_some())
        && op.query_string.is_none()
        && !op.switches_protocols()
        && !reads_pattern
        && params_declared(op, &validated);
    if !declared {
        return None;
    }
    let (entry, errors) = entry_in(op, json_entry.unwrap_or("call"));
    let name = ident(&op.rust);
    let id = &op.id;
    let security = op.security.iter().map(|alt| quote!(&[#(#alt),*]));
    Some((
        quote!(#entry(A::#name, #errors #id, &[#(#security),*])),
        json_entry == Some("call_json_checked"),
    ))
}

/// The runtime's entry `entry` for the operation, its `…_in` twin with the operation's error
/// bodies as first argument when they are its own (its problems are rendered with them).
fn entry_in(op: &Operation, entry: &str) -> (proc_macro2::Ident, Option<TokenStream>) {
    match &op.errors {
        Some((errors, _)) => {
            let errors = format_ident!("{errors}");
            (format_ident!("{entry}_in"), Some(quote!(&#errors,)))
        }
        None => (format_ident!("{entry}"), None),
    }
}

/// Reads every parameter (collecting each failure before the first return) and checks
/// their constraints: `let params = { … Params { … } };`.
fn params_part(api: &Api, op: &Operation, has_path: bool) -> TokenStream {
    let ty = params_ident(op);
    if op.params.is_empty() {
        return quote!(let params = #ty {};);
    }
    let reads_pattern = op.path_pattern.as_ref().filter(|p| !p.segments.is_empty());
    let raw = if has_path {
        let path = match reads_pattern {
            Some(p) => {
                let name = format_ident!("{}", p.rust);
                quote!(route::path_params(&mut parts, &#name).await?)
            }
            None => quote!(params::path_params(&mut parts).await?),
        };
        quote! {
            let path = #path;
            let raw = RawParams::from_parts(&parts, path);
        }
    } else {
        quote!(let raw = RawParams::from_parts(&parts, PathParams::none());)
    };
    let validated = validated_types(api);
    if params_declared(op, &validated) {
        // The struct's declaration reads every field (`params::declare!`).
        return if has_path {
            quote! {
                let params = {
                    #raw
                    params::read(&raw)?
                };
            }
        } else {
            quote!(let params = params::read(&RawParams::from_parts(&parts, PathParams::none()))?;)
        };
    }
    let fields = op.params.iter().map(|p| read_param(api, p));
    // Every parameter is read (and every failure collected) before the first return; the
    // required ones are taken out of their `Option`s in one `let … else`.
    let required: Vec<proc_macro2::Ident> = op
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| ident(&p.local))
        .collect();
    let unwraps = match required.as_slice() {
        [] => quote!(),
        [one] => quote!(let Some(#one) = #one else { return Err(errors.into_problem()); };),
        several => quote! {
            let (#(Some(#several)),*) = (#(#several),*) else {
                return Err(errors.into_problem());
            };
        },
    };
    let names = op.params.iter().map(|p| {
        let (field, local) = (ident(&p.rust), ident(&p.local));
        if p.rust == p.local {
            quote!(#field)
        } else {
            quote!(#field: #local)
        }
    });
    let checks = op
        .params
        .iter()
        .filter_map(|p| check_param(api, p, &validated));
    let checks: Vec<TokenStream> = checks.collect();
    let out = (!checks.is_empty()).then(|| quote!(let out = &mut errors;));
    // In a block of its own: the raw values and the violations are gone before the body
    // is read and the implementation called, so the future does not carry them.
    quote! {
        let params = {
            let mut errors = Violations::new();
            #raw
            #(#fields)*
            #out
            #(#checks)*
            #unwraps
            errors.check()?;
            #ty { #(#names),* }
        };
    }
}

/// Whether the operation's parameter struct declares how each field is read and checked
/// (`params::declare!`, which implements `params::Read`): when every parameter's checks are
/// words (`#[checks(minimum(1))]`). One whose checks say more (a decimal's exact bounds, each
/// item's own, a schema held as written) has them all printed in the handler, between the
/// reads and the first return, so that one 400 lists every problem. A struct without fields
/// is declared too.
pub(super) fn params_declared(
    op: &Operation,
    validated: &std::collections::BTreeSet<String>,
) -> bool {
    op.params
        .iter()
        .all(|p| param_checks(p, validated).is_some())
}

/// A parameter's `#[checks(…)]` words (empty: it has none), or `None` when they cannot say
/// all its checks ([`params_declared`]).
fn param_checks(
    p: &crate::ir::Param,
    validated: &std::collections::BTreeSet<String>,
) -> Option<Vec<TokenStream>> {
    if p.held.is_some() {
        return None;
    }
    let mut words = crate::emit::types::check_words(&p.check_ty, &p.constraints)?;
    // A named type with checks of its own checks itself.
    if matches!(p.ty, TypeRef::Named(_)) && crate::emit::types::contents_validated(&p.ty, validated)
    {
        words.push(quote!(validate));
    }
    Some(words)
}

/// A field's `#[param(…)]` in `params::declare!`: how it ends (`required`, `optional`,
/// `default(…)`), where it is (`query("limit")`), and its style when it is not one plain
/// value; the words name the `RawParams` method [`read_param`] would call.
pub(super) fn param_words(
    api: &Api,
    p: &crate::ir::Param,
    validated: &std::collections::BTreeSet<String>,
) -> TokenStream {
    let finish = match (p.required, default_expr(api, p)) {
        (true, _) => quote!(required),
        (false, Some(d)) => quote!(default(#d)),
        (false, None) => quote!(optional),
    };
    let loc = match p.location {
        Location::Path => quote!(path),
        Location::Query => quote!(query),
        Location::Header => quote!(header),
        Location::Cookie => quote!(cookie),
    };
    let wire = &p.wire;
    let (explode, delimiter) = (p.explode, p.delimiter);
    let style = crate::emit::style_tokens(p.style);
    let prefixed = matches!(p.style, Style::Label | Style::Matrix);
    let form = match (&p.ty, &p.object) {
        (_, Some(ObjectStyle::Styled)) => Some(quote!(styled_object(#style, #explode))),
        (_, Some(ObjectStyle::Members(names))) => {
            Some(quote!(object(ObjectQuery::Members(&[#(#names),*]))))
        }
        (_, Some(ObjectStyle::Rest(names))) => {
            Some(quote!(object(ObjectQuery::Rest(&[#(#names),*]))))
        }
        (_, Some(ObjectStyle::Joined)) => Some(quote!(object(ObjectQuery::Joined))),
        (_, Some(ObjectStyle::Deep)) => Some(quote!(object(ObjectQuery::Deep))),
        (TypeRef::Vec(_), None) if prefixed => Some(quote!(styled_array(#style, #explode))),
        (_, None) if prefixed => Some(quote!(styled(#style))),
        (TypeRef::Vec(_), None) if delimiter != ',' => {
            Some(quote!(delimited(#explode, #delimiter)))
        }
        (TypeRef::Vec(_), None) => Some(quote!(array(#explode))),
        (_, None) if p.as_sent => Some(quote!(as_sent)),
        (_, None) => None,
    };
    let form = form.map(|f| quote!(, #f));
    let checks = param_checks(p, validated)
        .filter(|words| !words.is_empty())
        .map(|words| quote!(#[checks(#(#words),*)]));
    quote!(#[param(#finish, #loc(#wire) #form)] #checks)
}

/// `let <local>: Option<T> = raw.…(…);`: one parameter read, its failures collected.
fn read_param(api: &Api, p: &crate::ir::Param) -> TokenStream {
    let rust = ident(&p.local);
    let wire = &p.wire;
    let loc = match p.location {
        Location::Path => quote!(Location::Path),
        Location::Query => quote!(Location::Query),
        Location::Header => quote!(Location::Header),
        Location::Cookie => quote!(Location::Cookie),
    };
    let explode = p.explode;
    let delimiter = p.delimiter;
    let object = p.object.as_ref().and_then(|style| match style {
        ObjectStyle::Members(names) => Some(quote!(ObjectQuery::Members(&[#(#names),*]))),
        ObjectStyle::Rest(names) => Some(quote!(ObjectQuery::Rest(&[#(#names),*]))),
        ObjectStyle::Joined => Some(quote!(ObjectQuery::Joined)),
        ObjectStyle::Deep => Some(quote!(ObjectQuery::Deep)),
        ObjectStyle::Styled => None,
    });
    let required = p.required;
    let style = crate::emit::style_tokens(p.style);
    // A path's `label` and `matrix` put text before the value (`.`, `;name=`).
    let prefixed = matches!(p.style, Style::Label | Style::Matrix);
    let read = match (&p.ty, p.required, &object) {
        _ if p.object == Some(ObjectStyle::Styled) => quote!(
            raw.styled_object(#loc, #wire, #style, #explode, #required, &mut errors)
        ),
        (_, _, Some(style)) => {
            quote!(raw.object(#wire, #style, #required, &mut errors))
        }
        (TypeRef::Vec(_), _, None) if prefixed => quote!(
            raw.styled_array(#loc, #wire, #style, #explode, #required, &mut errors)
        ),
        (_, _, None) if prefixed => {
            quote!(raw.styled(#loc, #wire, #style, #required, &mut errors))
        }
        (TypeRef::Vec(_), true, None) if delimiter != ',' => quote!(
            raw.required_delimited_array(#loc, #wire, #explode, #delimiter, &mut errors)
        ),
        (TypeRef::Vec(_), false, None) if delimiter != ',' => {
            quote!(raw.delimited_array(#loc, #wire, #explode, #delimiter, &mut errors))
        }
        (TypeRef::Vec(_), true, None) => {
            quote!(raw.required_array(#loc, #wire, #explode, &mut errors))
        }
        (TypeRef::Vec(_), false, None) => {
            quote!(raw.array(#loc, #wire, #explode, &mut errors))
        }
        (_, true, None) if p.as_sent => {
            quote!(raw.required_cookie_as_sent(#wire, &mut errors))
        }
        (_, false, None) if p.as_sent => {
            quote!(raw.optional_cookie_as_sent(#wire, &mut errors))
        }
        (_, true, None) => quote!(raw.required(#loc, #wire, &mut errors)),
        (_, false, None) => quote!(raw.optional(#loc, #wire, &mut errors)),
    };
    let t = rust_type(&p.ty, true);
    match (p.required, default_expr(api, p)) {
        (false, Some(d)) => quote!(let #rust: #t = #read.unwrap_or(#d);),
        _ => quote!(let #rust: Option<#t> = #read;),
    }
}

/// One parameter's checks, run on its value when present (`None`: it has none).
fn check_param(
    api: &Api,
    p: &crate::ir::Param,
    validated: &std::collections::BTreeSet<String>,
) -> Option<TokenStream> {
    let mut checks = constraint_checks(&quote!(value), &quote!(at), &p.check_ty, &p.constraints);
    // A named type with checks of its own (nexus's `NameOrId`, whose `Name` has a
    // `maxLength` and a `pattern`) checks itself.
    if matches!(p.ty, TypeRef::Named(_)) && crate::emit::types::contents_validated(&p.ty, validated)
    {
        checks.extend(quote!(value.validate(at, out);));
    }
    // A schema that says more than the type holds: the value read is held to the schema as
    // written (`lower::held`), which says all the type's checks say.
    if let Some(held) = &p.held {
        let schema = held_static(held);
        checks = quote! {
            #schema
            SCHEMA.check_typed(value, at, out);
        };
    }
    if checks.is_empty() {
        return None;
    }
    let rust = ident(&p.local);
    let wire = &p.wire;
    let loc = location_text(p.location);
    let at = format!("{loc}/{wire}");
    let body = quote! {
        let at = #at;
        #checks
    };
    // Checked before any return, so one 400 lists every problem.
    Some(if !p.required && default_expr(api, p).is_some() {
        quote!({ let value = &#rust; #body })
    } else {
        quote!(if let Some(value) = &#rust { #body })
    })
}

/// `static SCHEMA: Held = …;`: a schema of the served document, compiled when first used.
fn held_static(held: &crate::ir::Held) -> TokenStream {
    let (pointer, dialect) = (&held.pointer, held.dialect_2020);
    quote!(static SCHEMA: Held = Held::new(&crate::document::DOCUMENT, #pointer, #dialect);)
}

/// The document's `Idempotency-Key` header read and checked as the document declares it
/// (`lower::operation`): `Ok` or the 400 naming what is wrong, which the handler answers after
/// authorizing; only a key that passes takes part in replay.
fn idempotency_key_part(api: &Api, key: &crate::ir::IdempotencyKey) -> TokenStream {
    let p = crate::ir::Param {
        required: key.required,
        local: "key".to_owned(),
        ..key.param.clone()
    };
    let read = read_param(api, &p);
    let validated = validated_types(api);
    let check = check_param(api, &p, &validated);
    let out = match &check {
        Some(_) => quote!(let out = &mut errors;),
        None => quote!(let _ = key;),
    };
    let checked = quote! {{
        let mut errors = Violations::new();
        let raw = RawParams::from_parts(&parts, PathParams::none());
        #read
        #out
        #check
        errors.check().map_err(Box::new)
    }};
    // A key the document makes optional is read only when the request has one (most have
    // none), and only a request with one can be replayed.
    if key.required {
        quote! {
            let key_checked = #checked;
            let replayable = key_checked.is_ok();
        }
    } else {
        quote! {
            let has_key = idempotency::has_key(&parts);
            let key_checked = if has_key { #checked } else { Ok(()) };
            let replayable = has_key && key_checked.is_ok();
        }
    }
}

/// Reads the body by the request's media type (JSON, form, text, bytes, a multipart twin) and
/// checks it: `let body = …;`.
fn body_part(api: &Api, b: &crate::ir::Body) -> TokenStream {
    let required = b.required;
    let read_as = |kind: &BodyKind| match kind {
        // The schema as written, compiled when the operation is first called (`lower::held`).
        BodyKind::Json(t) if b.held.is_some() && std::ptr::eq(kind, &b.kind) => {
            let t = rust_type(t, true);
            let schema = held_static(b.held.as_ref().expect("held"));
            quote! {{
                #schema
                body::read_json_held::<#t>(&parts, body, body_limit, #required, &SCHEMA).await?
            }}
        }
        BodyKind::Json(t) => {
            let t = rust_type(t, true);
            quote!(body::read_json::<#t>(&parts, body, body_limit, #required).await?)
        }
        // Read into its type, then held as the JSON value it is (`lower::held`).
        BodyKind::Form(t) if b.held.is_some() && std::ptr::eq(kind, &b.kind) => {
            let t = rust_type(t, true);
            let schema = held_static(b.held.as_ref().expect("held"));
            quote! {{
                #schema
                body::read_form_held::<#t>(&parts, body, body_limit, #required, &SCHEMA).await?
            }}
        }
        BodyKind::Form(t) => {
            let t = rust_type(t, true);
            quote!(body::read_form::<#t>(&parts, body, body_limit, #required).await?)
        }
        // Only ever an alternative, read apart from the others (see below). Of the same
        // schema as the typed body, its own constraints apply as well.
        BodyKind::Multipart { ty, same_schema } => {
            let own = same_schema.then_some((b.check_ty_of_value().0, &b.constraints));
            multipart_checked(
                api,
                ty,
                own,
                b.multipart_held.as_ref(),
                required,
                |raw| quote!(body::OrMultipart::Multipart(#raw)),
            )
        }
        // `*/*`: any media type, read as the string the schema says (`text/*` otherwise).
        BodyKind::Text if b.content_type.trim() == "*/*" => quote! {
            body::read_text_of(&parts, body, body_limit, #required, "*/*").await?
        },
        BodyKind::Text => quote!(body::read_text(&parts, body, body_limit, #required).await?),
        BodyKind::Bytes | BodyKind::Stream(_) => match &b.checked_as {
            Some(form) => multipart_checked(
                api,
                form,
                None,
                b.multipart_held.as_ref(),
                required,
                |raw| raw,
            ),
            None if b.raw_media.is_empty() => {
                let ct = &b.content_type;
                quote!(body::read_bytes(&parts, body, body_limit, #required, #ct).await?.map(|b| b.to_vec()))
            }
            None => {
                let media = b.sendable_media();
                quote!(body::read_bytes_among(&parts, body, body_limit, #required, &[#(#media),*]).await?.map(|b| b.to_vec()))
            }
        },
    };
    let primary = read_as(&b.kind);
    // The request's Content-Type picks the reader; anything else gets the primary
    // reader's 415. A multipart alternative is read apart (see below).
    let mut chain = TokenStream::new();
    for (ct, kind) in &b.alternatives {
        if matches!(kind, BodyKind::Multipart { .. }) {
            continue;
        }
        let essence = ct
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let read = read_as(kind);
        chain.extend(quote!(if body::media_type_matches(&media, &[#essence]) { #read } else));
    }
    let media = quote!(let media = body::media_type(&parts).unwrap_or_default(););
    // Only bodies whose type holds a checked constraint are walked.
    let checked = match &b.kind {
        BodyKind::Json(t) | BodyKind::Form(t) => {
            crate::emit::types::contents_validated(t, &validated_types(api))
        }
        _ => false,
    };
    let require = required.then(|| {
        quote! {
            let Some(body) = body else {
                return Err(Problem::bad_request("the request body is required"));
            };
        }
    });
    let mut kinds = b.alternatives.iter().map(|(_, kind)| kind);
    match kinds.find(|kind| matches!(kind, BodyKind::Multipart { .. })) {
        None => {
            let read = if chain.is_empty() {
                primary
            } else {
                quote!({ #media #chain { #primary } })
            };
            let validate = body_checks(b, checked, required);
            quote! {
                let body = #read;
                #require
                #validate
            }
        }
        // Beside a JSON (or form) body, `multipart/form-data`: its parts checked as its
        // schema's type, its bytes passed on (`OrMultipart::Multipart`); the typed body
        // checked as it is alone (`OrMultipart::Typed`).
        Some(multipart) => {
            let multipart = read_as(multipart);
            let read = if chain.is_empty() {
                primary
            } else {
                quote!(#chain { #primary })
            };
            let validate = body_checks(b, checked, false);
            let essence = crate::ir::MULTIPART_FORM;
            quote! {
                let body = {
                    #media
                    if body::media_type_matches(&media, &[#essence]) {
                        #multipart
                    } else {
                        let body = #read;
                        #validate
                        body.map(body::OrMultipart::Typed)
                    }
                };
                #require
            }
        }
    }
}

/// 3.2 `in: querystring`: the whole query string read as one value, and checked.
fn query_string_part(api: &Api, q: &QueryString) -> TokenStream {
    let name = ident(&q.rust);
    let required = q.required;
    let read = match &q.kind {
        QueryStringKind::Form(t) => {
            let t = rust_type(t, true);
            quote!(params::query_string_form::<#t>(&parts, #required)?)
        }
        QueryStringKind::Json(t) => {
            let t = rust_type(t, true);
            quote!(params::query_string_json::<#t>(&parts, #required)?)
        }
        QueryStringKind::Raw => quote!(params::query_string_raw(&parts)),
    };
    let read = match (&q.kind, required) {
        (QueryStringKind::Form(_) | QueryStringKind::Json(_), true) => quote! {
            let Some(#name) = #read else {
                return Err(Problem::bad_request("the query string is required"));
            };
        },
        (QueryStringKind::Raw, true) => quote!(let #name = #read.unwrap_or_default();),
        (_, false) => quote!(let #name = #read;),
    };
    let checked = match &q.kind {
        QueryStringKind::Form(t) | QueryStringKind::Json(t) => {
            crate::emit::types::contents_validated(t, &validated_types(api))
        }
        QueryStringKind::Raw => false,
    };
    let validate = checked.then(|| {
        let walk = if required {
            quote!(#name.validate("", &mut errors);)
        } else {
            quote!(if let Some(value) = &#name { value.validate("", &mut errors); })
        };
        quote! {
            let mut errors = Violations::new();
            #walk
            errors.check()?;
        }
    });
    quote!(#read #validate)
}

/// The handler's body and the sunset check `serve` starts with: the operation past its
/// sunset answered 410 before anything is read, and with an `Idempotency-Key` the runtime's
/// store and replay around `serve`.
fn entry_part(
    api: &Api,
    op: &Operation,
    serve: &proc_macro2::Ident,
) -> (Option<TokenStream>, TokenStream) {
    let id = &op.id;
    let headers = op.extra_headers.iter().map(|(k, v)| quote!((#k, #v)));
    // Past its sunset the operation is gone (410), before anything of the request is read.
    let retirement = op
        .deprecated
        .as_ref()
        .and_then(|d| d.sunset.as_ref().map(|s| (s, d.replacement.as_deref())))
        .map(|(s, replacement)| {
            let at = proc_macro2::Literal::u64_unsuffixed(s.at.max(0) as u64);
            let day = &s.day;
            let replacement = match replacement {
                Some(r) => quote!(Some(#r)),
                None => quote!(None),
            };
            quote! {
                const RETIREMENT: Retirement = Retirement {
                    operation: #id,
                    at: #at,
                    day: #day,
                    replacement: #replacement,
                };
            }
        });
    // Without Idempotency-Key the handler checks the sunset with the runtime it already holds
    // (`serve` is then never polled, so still before anything is read); with it, `serve` runs
    // inside the runtime's replay logic and checks it there, as the first step of the
    // operation.
    let (sunset, handle_sunset) = match (&retirement, &op.idempotency_key) {
        (None, _) => (None, None),
        (Some(retirement), Some(_)) => (
            Some(quote! {
                #retirement
                Runtime::from_parts(&parts).check_sunset(&RETIREMENT)?;
            }),
            None,
        ),
        (Some(retirement), None) => (None, Some(retirement)),
    };
    let limit_pass = op.body.as_ref().map(|_| quote!(rt.body_limit(),));
    // Plain functions returning `async` blocks rather than `async fn`s: an `async fn`'s future
    // keeps its arguments besides what it moves them into, so the request head would be held
    // two or three times in the future axum boxes for every request.
    let handle_body = match &op.idempotency_key {
        // The runtime stores and replays responses per Idempotency-Key around the handler,
        // for a key the document's rules take (the handler answers the others, after
        // authorizing, with the 400 `key_checked` holds).
        Some(key) => {
            let key_part = idempotency_key_part(api, key);
            let limit = op
                .body
                .as_ref()
                .map(|_| quote!(let body_limit = rt.body_limit();));
            let limit_pass = op.body.as_ref().map(|_| quote!(body_limit,));
            quote! {
                let (parts, body) = request.into_parts();
                let rt = Runtime::from_parts(&parts);
                #limit
                #key_part
                idempotency::serve_replayable(rt, #id, replayable, parts, body, &[#(#headers),*], move |parts, body| {
                    #serve(api, #limit_pass key_checked, parts, body)
                })
            }
        }
        None => match handle_sunset {
            Some(retirement) => {
                let reply = match &op.errors {
                    Some((errors, _)) => {
                        let errors = format_ident!("{errors}");
                        quote!(rt.reply_to_checked_in(&#errors, sunset, serve, &[#(#headers),*]))
                    }
                    None => quote!(rt.reply_to_checked(sunset, serve, &[#(#headers),*])),
                };
                quote! {
                    #retirement
                    let (parts, body) = request.into_parts();
                    let rt = Runtime::from_parts(&parts);
                    let sunset = rt.check_sunset(&RETIREMENT);
                    let serve = #serve(api, #limit_pass parts, body);
                    #reply
                }
            }
            None => {
                // An operation whose error bodies are its own renders its problems with them.
                let reply = match &op.errors {
                    Some((errors, _)) => {
                        let errors = format_ident!("{errors}");
                        quote!(rt.reply_to_checked_in(&#errors, Ok(()), serve, &[#(#headers),*]))
                    }
                    None => quote!(rt.reply_to(serve, &[#(#headers),*])),
                };
                quote! {
                    let (parts, body) = request.into_parts();
                    let rt = Runtime::from_parts(&parts);
                    let serve = #serve(api, #limit_pass parts, body);
                    #reply
                }
            }
        },
    };
    (sunset, handle_body)
}

/// The checks of a typed request body named `body` (a `T` when `present`, else an
/// `Option<T>`): the body schema's own constraints (a whole array's `maxItems`, a map's
/// `maxProperties`, each item's pattern) where it holds a value, then the checks its types
/// carry (`checked`). Nothing when there are none.
pub(super) fn body_checks(
    b: &crate::ir::Body,
    checked: bool,
    present: bool,
) -> Option<TokenStream> {
    let (own_ty, nullable) = b.check_ty_of_value();
    let own = constraint_checks(&quote!(value), &quote!("body"), own_ty, &b.constraints);
    let own = (!own.is_empty()).then(|| {
        // Each layer that may be absent or `null` is looked into, both in one pattern
        // (nested `if let`s are clippy's `collapsible_if`).
        let inner = quote!({ let out = &mut errors; #own });
        let inner = match (nullable, present) {
            (false, true) => inner,
            (true, false) => quote!({ if let Some(Some(value)) = value #inner }),
            _ => quote!({ if let Some(value) = value #inner }),
        };
        quote! {
            let value = &body;
            #inner
        }
    });
    let walk = checked.then(|| quote!(body.validate("", &mut errors);));
    (own.is_some() || checked).then(|| {
        quote! {
            let mut errors = Violations::new();
            #own
            #walk
            errors.check()?;
        }
    })
}

/// Reads a multipart body as its parts decoded into `form` (checked when its type has checks)
/// and the bytes: `Some(wrap(raw))`, `None` without a body.
pub(super) fn multipart_checked(
    api: &Api,
    form: &TypeRef,
    own: Option<(&TypeRef, &crate::ir::Constraints)>,
    held: Option<&crate::ir::Held>,
    required: bool,
    wrap: impl FnOnce(TokenStream) -> TokenStream,
) -> TokenStream {
    let t = rust_type(form, true);
    let read = quote!(body::read_multipart_as::<#t>(&parts, body, body_limit, #required).await?);
    let raw = wrap(quote!(raw));
    // The schema's own constraints (a map's `maxProperties`, each value's `maxLength`), as
    // for the same body sent as JSON.
    let own = own
        .map(|(ty, c)| constraint_checks(&quote!(value), &quote!("body"), ty, c))
        .filter(|checks| !checks.is_empty())
        .map(|checks| quote!({ let value = &form; let out = &mut errors; #checks }));
    let walk = crate::emit::types::contents_validated(form, &validated_types(api))
        .then(|| quote!(form.validate("", &mut errors);));
    // The schema as written, over the parts read into its type (`lower::held`), first, as a
    // held JSON or form body is: its violations alone are answered.
    let more = own.is_some() || walk.is_some();
    let held = held.map(|held| {
        let schema = held_static(held);
        let fresh = more.then(|| quote!(let mut errors = Violations::new();));
        quote! {
            #schema
            SCHEMA.check_form(&form, "", &mut errors, true);
            errors.check()?;
            #fresh
        }
    });
    if more || held.is_some() {
        quote! {
            match #read {
                Some((form, raw)) => {
                    let mut errors = Violations::new();
                    #held
                    #own
                    #walk
                    errors.check()?;
                    Some(#raw)
                }
                None => None,
            }
        }
    } else {
        quote!(#read.map(|(_form, raw)| #raw))
    }
}
