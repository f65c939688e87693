//! A subcommand's function: its flags read into the client's types (the body too), then the
//! client's call handed to `Call::finish`; and `form`, the multipart form of `--field` and
//! `--file`.

use crate::emit::{client, ident, rust_type};
use crate::ir::{Api, BodyKind, Cli, CliBody, CliCommand, FlagTarget, Operation, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// Reads the request body the subcommand's flags give (`let body = …;`) and the argument
/// passing it to the client's method.
fn body_part(cmd: &CliCommand, op: &Operation) -> (TokenStream, TokenStream) {
    let (Some(b), Some(how)) = (&op.body, &cmd.body) else {
        return (quote!(), quote!());
    };
    // Bytes or text the caller labels: `--content-type`, or the file's extension within a
    // range, into the client's `Upload`.
    if let CliBody::Raw { text, choices, .. } = how
        && !choices.is_empty()
    {
        // Text of a named type must be UTF-8; a range (`*/*`, api.github.com's release assets,
        // whose schema says string) takes any file as it is, as the client's `Upload` does:
        // the server the document describes decides what it keeps.
        let ranged = choices.iter().any(|c| c.contains('*'));
        let read = if *text && !ranged {
            quote!(support::upload::text_body(m)?.map(String::into_bytes))
        } else {
            quote!(support::upload::raw_body(m)?)
        };
        let missing = if *text {
            quote!(support::NEEDS_TEXT_BODY)
        } else {
            quote!(support::NEEDS_FILE_BODY)
        };
        let read = quote! {
            let media = support::upload::body_media(m, &[#(#choices),*])?;
            let body = #read.map(|bytes| match media {
                Some(media) => Upload::new(media, bytes),
                None => Upload::from(bytes),
            });
        };
        return if b.required {
            (
                quote! {
                    #read
                    let body = support::needed(body, #missing)?;
                },
                quote!(body,),
            )
        } else {
            (read, quote!(body,))
        };
    }
    let (read, missing) = match how {
        CliBody::Json => {
            let t = match &b.kind {
                BodyKind::Json(t) | BodyKind::Form(t) => rust_type(t, true),
                _ => quote!(serde_json::Value),
            };
            (
                quote!(let body: Option<#t> = support::body(m)?;),
                quote!(support::NEEDS_JSON_BODY),
            )
        }
        CliBody::Raw { text: true, .. } => (
            quote!(let body = support::upload::text_body(m)?;),
            quote!(support::NEEDS_TEXT_BODY),
        ),
        // The client takes `bytes::Bytes`, which the call's argument decides.
        CliBody::Raw { text: false, .. } => (
            quote!(let body = support::upload::raw_body(m)?.map(Into::into);),
            quote!(support::NEEDS_FILE_BODY),
        ),
        CliBody::Multipart { parts, .. } => {
            let specs = part_specs(parts);
            (
                quote! {
                    let body = match support::upload::multipart(m, &[#specs])? {
                        Some(parts) => Some(form(parts)?),
                        None => None,
                    };
                },
                quote!(support::NEEDS_FORM),
            )
        }
    };
    if b.required {
        (
            quote! {
                #read
                let body = support::needed(body, #missing)?;
            },
            quote!(&body,),
        )
    } else if matches!(how, CliBody::Raw { text: true, .. })
        || matches!(&b.kind, BodyKind::Json(TypeRef::Vec(_)))
    {
        // The client takes text as `&str` and a list as a slice.
        (read, quote!(body.as_deref(),))
    } else {
        (read, quote!(body.as_ref(),))
    }
}

/// The `support::upload::PartSpec`s of a multipart body's parts.
fn part_specs(parts: &[crate::ir::CliPart]) -> TokenStream {
    let specs = parts.iter().map(|p| {
        let (name, required, file, json) = (&p.name, p.required, p.file, p.json);
        let media = match &p.media {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        quote!(support::upload::PartSpec { name: #name, required: #required, file: #file, json: #json, media: #media },)
    });
    quote!(#(#specs)*)
}

/// `form`, which turns the parts read from the command line into the client's multipart
/// form (once per CLI, when some subcommand takes one).
pub(super) fn form_fn(cli: &Cli, krate: &proc_macro2::Ident) -> Option<TokenStream> {
    cli.commands
        .iter()
        .any(|c| matches!(c.body, Some(CliBody::Multipart { .. })) || c.multipart.is_some())
        .then(|| {
            quote! {
                /// The client's multipart form of the parts `--field` and `--file` gave.
                fn form(parts: Vec<support::upload::Part>) -> Result<#krate::runtime::multipart::Form, ExitCode> {
                    use support::upload::Part;
                    let mut form = #krate::runtime::multipart::Form::new();
                    for part in parts {
                        form = match part {
                            Part::Text { name, value } => form.text(name, value),
                            Part::Json { name, value } => form
                                .json(name, &value)
                                .map_err(|e| support::usage(&e.to_string()))?,
                            Part::File { name, filename, media, data } => {
                                form.file_as(name, filename, media, data)
                            }
                        };
                    }
                    Ok(form)
                }
            }
        })
}

/// The function that runs one subcommand: reads its flags, calls the operation, prints the
/// answer.
pub(super) fn runner(cmd: &CliCommand, api: &Api) -> TokenStream {
    let op = &api.operations[cmd.operation];
    let function = ident(&cmd.function);
    let options_ty = client::options_ident(op);
    let mut reads = Vec::new();
    let mut args = Vec::new();
    let mut setters = Vec::new();
    for f in &cmd.flags {
        let flag = &f.name;
        match &f.target {
            FlagTarget::Param(p) if op.params[*p].required => {
                let p = &op.params[*p];
                let local = ident(f.local.as_deref().unwrap_or(&p.local));
                let t = rust_type(&p.ty, true);
                reads.push(quote!(let #local: #t = support::required(m, #flag)?;));
                args.push(if client::by_ref(p) {
                    quote!(&#local,)
                } else {
                    quote!(#local,)
                });
            }
            FlagTarget::Param(p) => {
                let p = &op.params[*p];
                let setter = ident(&p.setter);
                let t = rust_type(&p.ty, true);
                setters.push(quote!(.#setter(support::optional::<#t>(m, #flag)?)));
            }
            // Read by the runtime from the flag's id (`commands.json` names the property).
            FlagTarget::Property { .. } => {}
        }
    }
    let has_options = op.rust_with.is_some();
    let method = ident(op.rust_with.as_ref().unwrap_or(&op.rust));
    let options = has_options.then(|| quote!(let options = #options_ty::default() #(#setters)*;));
    let options_arg = has_options.then(|| quote!(options,));
    let (body_read, body_arg) = body_part(cmd, op);
    let answer = quote!(call.client.#method(#(#args)* #body_arg #options_arg));
    // A body also offered as multipart: the form when `--field` or `--file` is given, through
    // the client's multipart method (the same answer types); JSON otherwise. The two calls'
    // futures are of two types, so each is boxed, owning what it sends.
    let (send, answer) = match (&cmd.multipart, &op.multipart_twin) {
        (Some(CliBody::Multipart { parts, .. }), Some(twin)) => {
            let specs = part_specs(parts);
            let twin = ident(twin.rust_with.as_ref().unwrap_or(&twin.rust));
            let form_arg = if op.body.as_ref().is_some_and(|b| b.required) {
                quote!(&form,)
            } else {
                quote!(Some(&form),)
            };
            let send = quote! {
                let parts = support::upload::multipart_instead(m, &[#specs])?;
                let answer: std::pin::Pin<Box<dyn Future<Output = _> + '_>> = match parts {
                        Some(parts) => {
                            let form = form(parts)?;
                            Box::pin(async move { call.client.#twin(#(#args)* #form_arg #options_arg).await })
                        }
                        None => {
                            #body_read
                            Box::pin(async move { #answer.await })
                        }
                    };
            };
            (send, quote!(answer))
        }
        _ => (body_read, answer),
    };
    let finish = match &cmd.binary {
        Some(media) => quote!(call.finish_bytes(#answer, m, #media)),
        None if op.success_enum => quote!(call.finish_debug(#answer)),
        None => quote!(call.finish(#answer)),
    };
    let body = quote! {
        #(#reads)*
        #options
        #send
        #finish
    };
    // A subcommand without flags reads no matches.
    let m = if names(&body, "m") {
        quote!(m)
    } else {
        quote!(_)
    };
    let docs = crate::emit::doc(&[format!("`{}`: calls `{}`.", cmd.name, op.id)]);
    // A deprecated operation or parameter stays callable from the command line.
    let allow = (op.deprecated.is_some() || op.params.iter().any(|p| p.deprecated))
        .then(|| quote!(#[allow(deprecated)]));
    quote! {
        #docs
        #allow
        fn #function(call: &Call, #m: &ArgMatches) -> Outcome {
            #body
        }
    }
}

/// Whether `tokens` use the identifier `name` anywhere, inside groups too.
fn names(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => names(&g.stream(), name),
        _ => false,
    })
}
