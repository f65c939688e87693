//! Prints `webhooks.rs` of both crates from the document's `webhooks`: one `Webhook` enum (a
//! variant per webhook, holding its payload); the server builds the request that delivers one,
//! the client reads a delivery its own endpoint received. Both are transport-agnostic
//! (`http::Request`, method + headers + bytes), so any HTTP stack sends or receives them.

use super::{doc, ident, module_doc, rust_type};
use crate::ir::{Api, Webhook};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn variant_field(w: &Webhook) -> Option<TokenStream> {
    let p = w.payload.as_ref()?;
    let t = rust_type(&p.ty, true);
    Some(if p.required { t } else { quote!(Option<#t>) })
}

fn variant_docs(w: &Webhook) -> TokenStream {
    let mut lines = w.doc.clone();
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(format!("(webhook `{}`, sent with `{}`)", w.name, w.method));
    doc(&lines)
}

fn webhook_enum(api: &Api) -> TokenStream {
    let variants = api.webhooks.iter().map(|w| {
        let v = ident(&w.variant);
        let docs = variant_docs(w);
        match variant_field(w) {
            Some(t) => quote!(#docs #v(#t),),
            None => quote!(#docs #v,),
        }
    });
    let names = api.webhooks.iter().map(|w| {
        let v = ident(&w.variant);
        let name = &w.name;
        let pattern = if w.payload.is_some() {
            quote!(Self::#v(_))
        } else {
            quote!(Self::#v)
        };
        quote!(#pattern => #name,)
    });
    // Once each: a name with several methods is one webhook of the document.
    let mut all: Vec<&String> = Vec::new();
    for w in &api.webhooks {
        if !all.contains(&&w.name) {
            all.push(&w.name);
        }
    }
    let docs = doc(&[
        format!(
            "One delivery of a webhook of {}: which webhook, with its payload.",
            api.title
        ),
        String::new(),
        "`non_exhaustive`: a webhook the document adds later is a new variant; code that".into(),
        "matches on this enum keeps compiling.".into(),
    ]);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        #[non_exhaustive]
        pub enum Webhook { #(#variants)* }

        impl Webhook {
            /// The names of every webhook, as the document's `webhooks` keys them.
            pub const NAMES: &'static [&'static str] = &[#(#all),*];

            /// The webhook's name in the document.
            pub fn name(&self) -> &'static str {
                match self { #(#names)* }
            }
        }
    }
}

fn method_expr(w: &Webhook) -> TokenStream {
    if w.standard_method {
        let m = format_ident!("{}", w.method.to_uppercase());
        quote!(http::Method::#m)
    } else {
        let m = &w.method;
        quote!(webhook::method(#m)?)
    }
}

/// The server's side: the provider sends deliveries.
pub fn server_rs(api: &Api) -> TokenStream {
    let arms = api.webhooks.iter().map(|w| {
        let v = ident(&w.variant);
        let method = method_expr(w);
        match &w.payload {
            Some(p) if p.required => {
                let ct = &p.content_type;
                quote!(Self::#v(payload) => webhook::json_request(#method, url, #ct, payload),)
            }
            Some(p) => {
                let ct = &p.content_type;
                quote!(Self::#v(payload) => match payload {
                    Some(payload) => webhook::json_request(#method, url, #ct, payload),
                    None => webhook::empty_request(#method, url),
                },)
            }
            None => quote!(Self::#v => webhook::empty_request(#method, url),),
        }
    });
    let the_enum = webhook_enum(api);
    let intro = module_doc(&[
        format!(
            "The webhooks {} sends to its consumers (the document's `webhooks`).",
            api.title
        ),
        String::new(),
        "Build a [`Webhook`], turn it into the request that delivers it with".into(),
        "[`Webhook::to_request`] (the URL is the one the consumer registered), and send that"
            .into(),
        "with the HTTP client of your choice; the consumer's generated client reads it back with"
            .into(),
        "its own `Webhook::from_request`.".into(),
    ]);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        use crate::runtime::codegen::webhook::{self, WebhookError};
        #[allow(unused_imports)]
        use crate::types;

        #the_enum

        impl Webhook {
            /// The request that delivers this webhook to `url`: the document's method, its
            /// `Content-Type`, the payload serialized as JSON.
            pub fn to_request(&self, url: &str) -> Result<http::Request<Vec<u8>>, WebhookError> {
                match self { #(#arms)* }
            }
        }
    }
}

/// The client's side: the consumer receives deliveries.
pub fn client_rs(api: &Api) -> TokenStream {
    // A webhook is a path item, so one name can carry several methods: the name alone then
    // picks nothing (a second arm would be unreachable), the method decides, and any other
    // method is refused naming the documented ones.
    let methods_of = |name: &str| -> Vec<&str> {
        api.webhooks
            .iter()
            .filter(|w| w.name == name)
            .map(|w| w.method.as_str())
            .collect()
    };
    let mut arms: Vec<TokenStream> = Vec::new();
    for (i, w) in api.webhooks.iter().enumerate() {
        let v = ident(&w.variant);
        let name = &w.name;
        let method = &w.method;
        let methods = methods_of(name);
        let pattern = if methods.len() > 1 {
            quote!(#name if method.as_str().eq_ignore_ascii_case(#method))
        } else {
            quote!(#name)
        };
        arms.push(match &w.payload {
            Some(p) if p.required => {
                let ct = &p.content_type;
                quote!(#pattern => Ok(Self::#v(webhook::read_json(method, #method, headers, #ct, body)?)),)
            }
            Some(p) => {
                let ct = &p.content_type;
                quote!(#pattern => Ok(Self::#v(webhook::read_optional_json(method, #method, headers, #ct, body)?)),)
            }
            None => quote!(#pattern => {
                webhook::check_method(method, #method)?;
                Ok(Self::#v)
            }),
        });
        let last_of_name = !api.webhooks[i + 1..].iter().any(|o| o.name == w.name);
        if methods.len() > 1 && last_of_name {
            let expected = methods.join(" or ");
            arms.push(quote!(#name => Err(WebhookError::MethodNotAllowed {
                expected: #expected.to_owned(),
                got: method.as_str().to_owned(),
            }),));
        }
    }
    // Without a typed payload the headers and the body are never read.
    let reads = api.webhooks.iter().any(|w| w.payload.is_some());
    let (headers, body) = if reads {
        (quote!(headers), quote!(body))
    } else {
        (quote!(_headers), quote!(_body))
    };
    let the_enum = webhook_enum(api);
    let intro = module_doc(&[
        format!(
            "The webhooks {} sends to you (the document's `webhooks`).",
            api.title
        ),
        String::new(),
        "Serve an endpoint per webhook (or one that knows the name another way) with any HTTP"
            .into(),
        "server, and hand each request to [`Webhook::from_request`]: it checks the method and"
            .into(),
        "content type and decodes the payload; [`WebhookError::status`] is the status to answer"
            .into(),
        "a delivery it refuses with.".into(),
    ]);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        pub use crate::runtime::webhook::WebhookError;
        use crate::runtime::codegen::webhook;
        #[allow(unused_imports)]
        use crate::types;

        #the_enum

        impl Webhook {
            /// Reads a delivery of the webhook `name` (one of [`Webhook::NAMES`]) from the
            /// request's method, headers and body.
            pub fn from_request(
                name: &str,
                method: &http::Method,
                #headers: &http::HeaderMap,
                #body: &[u8],
            ) -> Result<Webhook, WebhookError> {
                match name {
                    #(#arms)*
                    other => Err(WebhookError::UnknownWebhook(other.to_owned())),
                }
            }
        }
    }
}
