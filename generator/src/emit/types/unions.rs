//! Prints a `oneOf`/`anyOf` type: an enum tagged by its discriminator or tried variant by
//! variant, with the serde impls that read and write it and, on the server, its checks.

use super::*;

pub(super) fn one_of(
    name: &proc_macro2::Ident,
    wire_name: &str,
    docs: &TokenStream,
    o: &OneOf,
    side: Side,
    validated: bool,
    validated_names: &BTreeSet<String>,
) -> TokenStream {
    let variants: Vec<_> = o.variants.iter().map(|v| ident(&v.rust)).collect();
    let types: Vec<_> = o
        .variants
        .iter()
        .map(|v| {
            let t = rust_type(&v.ty, false);
            if v.boxed { quote!(Box<#t>) } else { t }
        })
        .collect();
    let labels: Vec<String> = o.variants.iter().map(|v| v.rust.clone()).collect();
    // The client keeps a value the document does not describe (README, "Type mapping").
    let unknown = o
        .unknown
        .as_ref()
        .filter(|_| side == Side::Client)
        .map(|u| ident(u));
    let serialize = serialize_part(o, &variants, unknown.as_ref());
    // The first variant that accepts the value wins; the error lists why each refused. In
    // the server, where the union holds checked constraints, the first variant the value
    // also passes the checks of: variants told apart by constraints alone (nexus's `IpNet`,
    // an IPv4 or an IPv6 net, both strings, by `pattern`) are read as the one it fits, and
    // when it fits none, as the first that reads it, whose checks then refuse it.
    let checked_in_order = side == Side::Server && validated;
    // Each variant tried on a copy of the value read whole.
    let from_value =
        |t: &TokenStream| quote!(crate::runtime::integer::variant_from_value::<#t>(value.clone()));
    // A struct variant read with whether it names every member of the value
    // (`names_members`): `Ok((value, whole))`.
    let names_all: Vec<Option<TokenStream>> = o
        .variants
        .iter()
        .map(|v| {
            v.names_members.then(|| {
                let t = rust_type(&v.ty, false);
                let read = quote!(crate::runtime::object::struct_variant::<#t>(&value));
                // A variant that holds its struct boxed (the struct contains the union).
                if v.boxed {
                    quote!(#read.map(|(v, all)| (Box::new(v), all)))
                } else {
                    read
                }
            })
        })
        .collect();
    let deserialize = match &o.discriminator {
        // By the tag, read as the input streams past (the runtime's `tagged`); without one
        // (an answer that leaves the property out), in order, on the value read whole.
        Some(d) => {
            let property = &d.property;
            let integer = d.integer;
            let arms = d.mapping.iter().map(|(wire, i)| {
                let variant = ident(&o.variants[*i].rust);
                let ty = &types[*i];
                let wire = tag_literal(d, wire);
                let pattern = if integer {
                    quote!(tagged::Tag::Integer(#wire))
                } else {
                    quote!(tagged::Tag::Text(#wire))
                };
                quote!(#pattern => <#ty as Deserialize>::deserialize(body).map(Self::#variant),)
            });
            let known = d
                .mapping
                .iter()
                .map(|(w, _)| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let untagged = first_variant(
                checked_in_order,
                (&variants, &types, &labels),
                wire_name,
                (from_value, &names_all),
                |message| message,
                unknown.as_ref(),
            );
            let keep_unknown = unknown.as_ref().map(|u| {
                quote! {
                    fn unknown(value: serde_json::Value) -> Option<Self> {
                        Some(Self::#u(value))
                    }
                }
            });
            quote! {
                impl crate::runtime::tagged::Tagged for #name {
                    const PROPERTY: &'static str = #property;
                    const INTEGER: bool = #integer;
                    const KNOWN: &'static str = #known;
                    fn variant<'de, D: serde::Deserializer<'de>>(
                        tag: tagged::Tag<'_>,
                        body: D,
                    ) -> Result<Result<Self, D::Error>, D> {
                        Ok(match tag {
                            #(#arms)*
                            _ => return Err(body),
                        })
                    }
                    fn untagged(value: serde_json::Value) -> Result<Self, String> {
                        #untagged
                    }
                    #keep_unknown
                }
                impl<'de> Deserialize<'de> for #name {
                    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        tagged::deserialize(deserializer)
                    }
                }
            }
        }
        None => {
            let in_order = first_variant(
                checked_in_order,
                (&variants, &types, &labels),
                wire_name,
                (from_value, &names_all),
                |message| quote!(serde::de::Error::custom(#message)),
                unknown.as_ref(),
            );
            quote! {
                impl<'de> Deserialize<'de> for #name {
                    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        let value = serde_json::Value::deserialize(deserializer)?;
                        #in_order
                    }
                }
            }
        }
    };
    let validate =
        (side == Side::Server).then(|| validate_part(name, o, validated, validated_names));
    let param = o.scalar.then(|| {
        param_part(
            name,
            wire_name,
            side,
            checked_in_order,
            (&variants, &types, &labels),
            unknown.as_ref(),
        )
    });
    let unknown_variant = unknown.as_ref().map(|u| {
        quote! {
            /// A value this client does not know (a tag the document does not list, or a
            /// shape none of the variants reads), kept as sent; written back unchanged.
            #u(serde_json::Value),
        }
    });
    quote! {
        #param
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #( #variants(#types), )*
            #unknown_variant
        }
        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #serialize
            }
        }
        #deserialize
        #validate
    }
}

/// `Serialize`: the variant's value, with the discriminator's tag put first (a variant named
/// by several tags that holds the property writes its own, `Discriminator::own_tag`).
fn serialize_part(
    o: &OneOf,
    variants: &[proc_macro2::Ident],
    unknown: Option<&proc_macro2::Ident>,
) -> TokenStream {
    match &o.discriminator {
        // The tag is written even when the variant's own type has no field for it.
        Some(d) => {
            let property = &d.property;
            let arms = o.variants.iter().enumerate().map(|(i, v)| {
                let variant = ident(&v.rust);
                if d.own_tag.contains(&i) {
                    return quote!(Self::#variant(v) => v.serialize(serializer),);
                }
                let tag = d
                    .mapping
                    .iter()
                    .find(|(_, idx)| *idx == i)
                    .map(|(wire, _)| wire.clone())
                    .unwrap_or_else(|| v.rust.clone());
                let tag = tag_literal(d, &tag);
                quote!(Self::#variant(v) => tagging::serialize_tagged(v, #property, &#tag, serializer),)
            });
            let unknown = unknown.map(|u| quote!(Self::#u(v) => v.serialize(serializer),));
            // Straight to the output, the tag first (a `Value` in between widened `float`s).
            let tagging = (d.own_tag.len() < o.variants.len()).then(|| {
                quote!(
                    use crate::runtime::tagging;
                )
            });
            quote! {
                #tagging
                match self { #(#arms)* #unknown }
            }
        }
        None => {
            let unknown = unknown.map(|u| quote!(Self::#u(v) => v.serialize(serializer),));
            quote! {
                match self { #( Self::#variants(v) => v.serialize(serializer), )* #unknown }
            }
        }
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

/// A union of scalars as a parameter: read from text (the server) or written as text (the
/// client), the first variant that reads the text winning.
fn param_part(
    name: &proc_macro2::Ident,
    wire_name: &str,
    side: Side,
    checked_in_order: bool,
    (variants, types, labels): (&[proc_macro2::Ident], &[TokenStream], &[String]),
    unknown: Option<&proc_macro2::Ident>,
) -> TokenStream {
    match side {
        // The first variant that reads the text wins, as for bodies.
        Side::Server => {
            let body = first_variant(
                checked_in_order,
                (variants, types, labels),
                wire_name,
                (
                    |t: &TokenStream| quote!(<#t as crate::runtime::params::FromParam>::from_param(raw)),
                    &[],
                ),
                |message| message,
                None,
            );
            quote! {
                impl crate::runtime::params::FromParam for #name {
                    fn from_param(raw: &str) -> Result<Self, String> {
                        #body
                    }
                }
            }
        }
        Side::Client => {
            // A value kept as JSON is sent as its text (a string as itself).
            let unknown = unknown.map(|u| {
                quote! {
                    Self::#u(serde_json::Value::String(v)) => v.clone(),
                    Self::#u(v) => v.to_string(),
                }
            });
            quote! {
                impl crate::runtime::request::ToParam for #name {
                    fn to_param(&self) -> String {
                        match self {
                            #( Self::#variants(v) => crate::runtime::request::ToParam::to_param(v), )*
                            #unknown
                        }
                    }
                }
            }
        }
    }
}

/// The variants tried in order on one input, the first that reads it winning (`read`: the
/// expression that reads a variant's type). With `checked`, the first whose checks the value
/// also passes, else the first that read it: variants told apart by constraints alone are
/// read as the one the value fits. `struct_reads` (JSON values only): for a struct variant,
/// the expression reading it with whether it names every member of the value
/// (`runtime::object::struct_variant`); one that would drop members is taken only when no
/// later variant names them all (discord's channel update: the first variant read `{"name",
/// "icon"}` and dropped `icon`). `error` makes the caller's error of the message saying no
/// variant matched. Bodies and parameters are read the same way.
fn first_variant<R: Fn(&TokenStream) -> TokenStream>(
    checked: bool,
    (variants, types, labels): (&[proc_macro2::Ident], &[TokenStream], &[String]),
    wire_name: &str,
    (read, struct_reads): (R, &[Option<TokenStream>]),
    error: impl Fn(TokenStream) -> TokenStream,
    unknown: Option<&proc_macro2::Ident>,
) -> TokenStream {
    let reads: Vec<TokenStream> = types.iter().map(read).collect();
    let failed = error(quote!(format!(
        concat!("no variant of `", #wire_name, "` matched: {}"),
        reasons.join("; ")
    )));
    // Kept as `Unknown`, unless this union is itself a variant being tried (the outer
    // union decides then).
    let failed = match unknown {
        Some(u) => quote! {
            if crate::runtime::integer::in_union_trial() {
                Err(#failed)
            } else {
                Ok(Self::#u(value))
            }
        },
        None => quote!(Err(#failed)),
    };
    let partial = struct_reads.iter().any(Option::is_some);
    // Each variant's trial: its read, and what is done with a value it read.
    let tries = (0..variants.len()).map(|i| {
        let (variant, label) = (&variants[i], &labels[i]);
        let struct_read = struct_reads.get(i).cloned().flatten();
        let (read, taken) = match (checked, struct_read) {
            (false, None) => (
                reads[i].clone(),
                quote!(Ok(v) => return Ok(Self::#variant(v)),),
            ),
            (false, Some(read)) => (
                read,
                quote! {
                    Ok((v, true)) => return Ok(Self::#variant(v)),
                    Ok((v, false)) => {
                        fits.get_or_insert(Self::#variant(v));
                    }
                },
            ),
            (true, None) => (
                reads[i].clone(),
                quote! {
                    Ok(v) => {
                        let v = Self::#variant(v);
                        let mut errors = Violations::new();
                        v.validate("", &mut errors);
                        if errors.is_empty() {
                            return Ok(v);
                        }
                        unchecked.get_or_insert(v);
                    }
                },
            ),
            // The first that passes its checks and names every member; else the first that
            // passes its checks; else the first that read the value.
            (true, Some(read)) => (
                read,
                quote! {
                    Ok((v, whole)) => {
                        let v = Self::#variant(v);
                        let mut errors = Violations::new();
                        v.validate("", &mut errors);
                        if errors.is_empty() && whole {
                            return Ok(v);
                        }
                        if errors.is_empty() {
                            fits.get_or_insert(v);
                        } else {
                            unchecked.get_or_insert(v);
                        }
                    }
                },
            ),
        };
        quote! {
            match #read {
                #taken
                Err(e) => reasons.push(format!("{}: {e}", #label)),
            }
        }
    });
    let (kept, end) = match (checked, partial) {
        (false, false) => (quote!(), failed),
        (false, true) => (
            quote!(let mut fits = None;),
            quote!(match fits {
                Some(v) => Ok(v),
                None => #failed,
            }),
        ),
        (true, false) => (
            quote!(let mut unchecked = None;),
            quote!(match unchecked {
                Some(v) => Ok(v),
                None => #failed,
            }),
        ),
        (true, true) => (
            quote!(let mut fits = None; let mut unchecked = None;),
            quote!(match fits.or(unchecked) {
                Some(v) => Ok(v),
                None => #failed,
            }),
        ),
    };
    quote! {
        let mut reasons = Vec::new();
        #kept
        #(#tries)*
        #end
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
