//! Declares a `oneOf`/`anyOf` type to the runtime's `unions::json!` (an enum tagged by its
//! discriminator or tried variant by variant, which the macro reads and writes) and prints,
//! on the server, its checks.

use super::*;

pub(super) fn one_of(
    name: &proc_macro2::Ident,
    docs: &TokenStream,
    o: &OneOf,
    side: Side,
    validated: bool,
    validated_names: &BTreeSet<String>,
) -> TokenStream {
    // How the union is read, in the order `unions::json!` takes: by a tag; in the server,
    // where the union holds checked constraints, each variant tried with its checks (the first
    // the value passes wins: nexus's `IpNet`, an IPv4 or an IPv6 net, both strings told apart
    // by `pattern`); a union of scalars as a parameter.
    let mut options = Vec::new();
    if let Some(d) = &o.discriminator {
        let property = &d.property;
        options.push(quote!(tag = #property));
        if d.integer {
            options.push(quote!(integer));
        }
    }
    if side == Side::Server && validated {
        options.push(quote!(checked));
    }
    if o.scalar {
        options.push(match side {
            Side::Server => quote!(from_param),
            Side::Client => quote!(to_param),
        });
    }
    let options = (!options.is_empty()).then(|| quote!(#[json(#(#options),*)]));
    let variants = o.variants.iter().enumerate().map(|(i, v)| {
        let variant = ident(&v.rust);
        let ty = rust_type(&v.ty, false);
        let ty = if v.boxed { quote!(Box<#ty>) } else { ty };
        // Tried without a tag: a struct with whether it names every member of the value.
        let mode = match (v.names_members, v.boxed) {
            (false, _) => quote!(plain),
            (true, false) => quote!(whole),
            (true, true) => quote!(whole_boxed),
        };
        let mut declared: Vec<TokenStream> = Vec::new();
        let mut write = None;
        if let Some(d) = &o.discriminator {
            let tags: Vec<&String> = d
                .mapping
                .iter()
                .filter(|(_, at)| *at == i)
                .map(|(wire, _)| wire)
                .collect();
            declared.extend(tags.iter().map(|wire| tag_literal(d, wire)));
            // The tag is written even when the variant's own type has no field for it: the
            // first that names it, else its name; a variant named by several tags that holds
            // the property writes its own.
            if d.own_tag.contains(&i) {
                write = Some(quote!(own));
            } else if tags.is_empty() {
                let written = tag_literal(d, &v.rust);
                write = Some(quote!(writes #written));
            }
        }
        declared.push(mode);
        declared.extend(write);
        quote! {
            #[json(#(#declared),*)]
            #variant(#ty),
        }
    });
    // The client keeps a value the document does not describe (book/src/reference/type-mapping.md).
    let unknown = o
        .unknown
        .as_ref()
        .filter(|_| side == Side::Client)
        .map(|u| {
            let u = ident(u);
            quote!(#[unknown] #u(serde_json::Value),)
        });
    let validate =
        (side == Side::Server).then(|| validate_part(name, o, validated, validated_names));
    quote! {
        unions::json! {
            #docs
            #[derive(Debug, Clone, PartialEq)]
            #options
            pub enum #name {
                #(#variants)*
                #unknown
            }
        }
        #validate
    }
}

/// The server's `Validate` impl of a union: each variant checked as itself.
fn validate_part(
    name: &proc_macro2::Ident,
    o: &OneOf,
    validated: bool,
    validated_names: &BTreeSet<String>,
) -> TokenStream {
    if validated {
        // Only the variants that hold a checked constraint are walked (a free-form
        // object or a plain string has nothing to check); a scalar variant's own
        // constraints are checked here (nexus's `Name` of `NameOrId`). A value is read as
        // the first variant whose checks it passes (`in_order`), so variants of one type
        // told apart by constraints (nexus's `IpNet`) are each checked as themselves.
        let mut walks = false;
        let mut arms = Vec::new();
        for v in &o.variants {
            let variant = ident(&v.rust);
            let checks = constraint_checks(
                &quote!(value),
                &quote!(pointer),
                &v.check_ty,
                &v.constraints,
            );
            arms.push(if contents_validated(&v.ty, validated_names) {
                walks = true;
                quote!(Self::#variant(v) => v.validate(pointer, out),)
            } else if !checks.is_empty() {
                walks = true;
                quote!(Self::#variant(value) => { #checks })
            } else {
                quote!(Self::#variant(_) => {})
            });
        }
        // A variant's constraints may hold nothing its type can print (fuzz seed 5: an `each`
        // below items read as any JSON value): then nothing is walked.
        if walks {
            return quote! {
                impl Validate for #name {
                    fn validate(&self, pointer: &str, out: &mut Violations) {
                        match self { #(#arms)* }
                    }
                }
            };
        }
    }
    quote! {
        impl Validate for #name {
            fn validate(&self, _pointer: &str, _out: &mut Violations) {}
        }
    }
}

/// A discriminator value as the literal the generated code matches and writes: `"auto"`, or
/// `2` for an integer tag.
pub(super) fn tag_literal(d: &crate::ir::Discriminator, wire: &str) -> TokenStream {
    match d.integer_tag(wire) {
        Some(n) => {
            let n = proc_macro2::Literal::i64_unsuffixed(n);
            quote!(#n)
        }
        None => quote!(#wire),
    }
}
