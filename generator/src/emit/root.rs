//! What the server's and the client's `src/lib.rs` share: the file's attributes and module
//! docs, how the runtime is reached, the webhooks module and the stream types' re-export.
//! Each side places these parts among its own modules and re-exports.

use super::module_doc;
use crate::ir::Api;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The shared parts of a crate root, as token streams to interpolate.
pub struct Root {
    /// `#![cfg_attr(rustfmt, rustfmt::skip)]` and the module docs (`lines`).
    pub head: TokenStream,
    /// `pub mod runtime;` (vendored) or the runtime crate re-exported as `runtime`.
    pub runtime: TokenStream,
    /// `pub mod webhooks;` with its `Webhook` enum, for a document with `webhooks`.
    pub webhooks: Option<TokenStream>,
    /// The runtime's stream types, for an API with a streamed answer ([`Api::streams`]).
    pub streams: Option<TokenStream>,
}

/// The parts of a crate root whose module docs are `lines` and whose runtime crate is
/// `runtime_crate` (`apigen_client_runtime`) unless the runtime is `vendored`.
pub fn parts(api: &Api, lines: &[String], runtime_crate: &str, vendored: bool) -> Root {
    let docs = module_doc(lines);
    let head = quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #docs
    };
    // The runtime is a module either way, so generated code names `crate::runtime::…`.
    let runtime = if vendored {
        quote!(
            pub mod runtime;
        )
    } else {
        let krate = format_ident!("{runtime_crate}");
        quote!(
            pub use #krate as runtime;
        )
    };
    let webhooks = (!api.webhooks.is_empty()).then(|| {
        quote! {
            pub mod webhooks;
            pub use webhooks::Webhook;
        }
    });
    let streams = api.streams.then(|| {
        quote!(
            pub use runtime::stream::{Event, EventStream, JsonLines};
        )
    });
    Root {
        head,
        runtime,
        webhooks,
        streams,
    }
}

/// `pub mod operations`: a documentation page per feature group (tag) listing its methods
/// of `owner` (`Client`, or the server's trait), each linked to its docs; nothing to compile.
/// `None` for a document whose operations are one group. `what` ends the module's summary.
pub fn operation_pages(api: &Api, owner: &str, what: &str) -> Option<TokenStream> {
    let groups: Vec<TokenStream> = api
        .features
        .features
        .iter()
        .filter_map(|f| {
            let crate::ir::FeatureOf::Group(group) = &f.of else {
                return None;
            };
            let mut lines = vec![format!("The operations of `{group}`."), String::new()];
            for (i, op) in api.operations.iter().enumerate() {
                if api
                    .features
                    .of_operation(i)
                    .is_some_and(|fs| fs.contains(&f.name))
                {
                    let summary = crate::docs::short_summary(op.summary.as_deref())
                        .map(|s| format!(": {s}"))
                        .unwrap_or_default();
                    lines.push(format!(
                        "- [`{m}`](crate::{owner}::{m}){summary} (`{} {}`)",
                        op.method,
                        op.path,
                        m = crate::naming::bare(&op.rust)
                    ));
                }
            }
            let docs = super::doc(&lines);
            let snake = crate::naming::snake(&f.name);
            // A tag named `operations` gets its page at `operations::operations`, as a reader
            // looks for it; clippy would take the name for a module nested in its namesake.
            let inception =
                (snake == "operations").then(|| quote!(#[allow(clippy::module_inception)]));
            let name = super::ident(&snake);
            let module = quote!(#docs #inception pub mod #name {});
            Some(super::gates::items(
                module,
                Some(std::slice::from_ref(&f.name)),
            ))
        })
        .collect();
    let summary = super::doc(&[format!(
        "The operations by tag (a path group where the document has none): a page each, listing the {what}."
    )]);
    (!groups.is_empty()).then(|| {
        quote! {
            #summary
            pub mod operations {
                #(#groups)*
            }
        }
    })
}

#[cfg(test)]
mod tests {
    /// A tag named `operations` has its page at `operations::operations`, which clippy's
    /// `module_inception` would refuse in a generated crate (the corpus's Azure Advisor).
    #[test]
    fn a_tag_named_operations_gets_its_page_without_a_lint() {
        let op = |path: &str, tag: &str, id: &str| {
            format!(
                "  {path}:\n    get:\n      tags: [{tag}]\n      operationId: {id}\n      responses: {{'200': {{description: ok}}}}\n"
            )
        };
        let text = format!(
            "openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths:\n{}{}",
            op("/ops", "Operations", "listOps"),
            op("/things", "Things", "listThings")
        );
        let options = crate::Options {
            name: "t".into(),
            ..Default::default()
        };
        let out = crate::generate(&text, &options).expect("generates");
        for side in ["server", "client"] {
            let lib = &out.files[&format!("{side}/src/lib.rs")];
            assert!(
                lib.contains("#[allow(clippy::module_inception)]\n    pub mod operations {}"),
                "{lib}"
            );
        }
    }
}
