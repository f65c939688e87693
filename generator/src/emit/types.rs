//! Prints `types.rs`: one Rust type per schema type, with serde impls, and on the server the
//! `Validate` impls that enforce the schema's constraints.

use super::{Side, doc, ident, module_doc, rust_type};
use crate::ir::{Api, Bound, Constraints, Field, OneOf, Struct, TypeDef, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

mod checks;
mod unions;

use checks::struct_validate;
pub use checks::{check_words, constraint_checks, contents_validated};
use unions::one_of;

pub fn file(api: &Api, side: Side) -> TokenStream {
    let intro = module_doc(&[
        format!("Schema types of {} {}.", api.title, api.version),
        String::new(),
        match side {
            Side::Server => {
                "Server side: string enumerations reject values the document does not list."
                    .to_string()
            }
            Side::Client => {
                "Client side: string enumerations keep values a newer server may add, as `Unknown`."
                    .to_string()
            }
        },
    ]);
    let validated: BTreeSet<String> = api
        .types
        .iter()
        .filter(|t| t.validated)
        .map(|t| t.name.clone())
        .collect();
    // Types compile under the features of the operations that reach them.
    let items = api
        .types
        .iter()
        .map(|t| super::gates::items(type_def(t, side, &validated), api.features.of_type(&t.name)));
    let allowances = super::gates::allowances(&api.features.features);
    let double_option = api
        .types
        .iter()
        .any(|t| matches!(&t.kind, TypeKind::Struct(s) if s.additional.is_some() && s.fields.iter().any(|f| !f.required && f.nullable)))
        .then(|| {
            quote! {
                /// Reads a property that may be absent (`None`, via `#[serde(default)]`), `null`
                /// (`Some(None)`) or a value (`Some(Some(_))`).
                fn absent_null_or_value<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
                where
                    T: Deserialize<'de>,
                    D: serde::Deserializer<'de>,
                {
                    Option::<T>::deserialize(deserializer).map(Some)
                }
            }
        });
    let mut body = quote!(#double_option #(#items)*);
    // The checks exist on the server only: a client type or variant spelled `Validate` must
    // not pull in a module the client's runtime does not have.
    let candidates: &[(&str, &str)] = match side {
        Side::Server => &[
            ("crate::runtime::codegen::enums", "enums::"),
            ("crate::runtime::codegen::object", "object::"),
            ("crate::runtime::codegen::tagged", "tagged::"),
            ("crate::runtime::codegen::unions", "unions::"),
            ("crate::runtime::codegen::validate", "validate::"),
            ("crate::runtime::codegen::validate::Validate", "Validate"),
            (
                "crate::runtime::codegen::validate::Violations",
                "Violations",
            ),
            ("serde::Deserialize", "Deserialize"),
            ("serde::Serialize", "Serialize"),
        ],
        Side::Client => &[
            ("crate::runtime::codegen::enums", "enums::"),
            ("crate::runtime::codegen::object", "object::"),
            ("crate::runtime::codegen::tagged", "tagged::"),
            ("crate::runtime::codegen::unions", "unions::"),
            ("serde::Deserialize", "Deserialize"),
            ("serde::Serialize", "Serialize"),
        ],
    };
    let uses = super::imports([&mut body], candidates);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
        #allowances
        #uses

        #body
    }
}

fn type_def(t: &TypeDef, side: Side, validated: &BTreeSet<String>) -> TokenStream {
    let name = ident(&t.name);
    let mut docs = t.doc.clone();
    if !docs.is_empty() {
        docs.push(String::new());
    }
    docs.push(format!("Schema: `{}`.", t.origin));
    let docs = doc(&docs);
    match &t.kind {
        TypeKind::Struct(s) => {
            let checks =
                (side == Side::Server).then(|| struct_validate(&name, s, t.validated, validated));
            // Nothing to check: a declared struct says so (`#[json(checks = none)]`, the
            // macro prints the empty impl); one with extra properties gets it printed.
            let declared_unchecked = matches!(checks, Some(None)) && s.additional.is_none();
            let def = struct_def(&name, &docs, s, side, declared_unchecked);
            let validate = match checks {
                Some(Some(validate)) => Some(validate),
                Some(None) if !declared_unchecked => Some(checks::no_checks(&name)),
                _ => None,
            };
            quote!(#def #validate)
        }
        TypeKind::Enum(variants) => {
            let wires: Vec<&str> = variants.iter().map(|v| v.wire.as_str()).collect();
            let rusts: Vec<_> = variants.iter().map(|v| ident(&v.rust)).collect();
            let variant_docs = wires.iter().map(|w| {
                if w.is_empty() {
                    " The empty string.".to_string()
                } else {
                    format!(" `{w}`")
                }
            });
            // The client's enums are open (`Unknown` keeps a value a newer server may add);
            // the server's refuse what the document does not list, and are `Copy`.
            let (unknown, derive_copy) = match side {
                Side::Server => (quote!(), quote!(Copy,)),
                Side::Client => (
                    quote!(
                        #[unknown]
                        Unknown(String),
                    ),
                    quote!(),
                ),
            };
            // `non_exhaustive`: a value the document adds later is not a breaking change for
            // code that matches on the enum (it already needs a `_` arm). No `Hash`, `Ord`:
            // the hand-written SDKs' enums have neither, and on OpenAI's client they were a
            // ninth of a check; a map keyed by the value takes `as_str()`. The
            // impls (`as_str`, `FromStr`, `Display`, serde's, a parameter's) are the
            // runtime's `enums::string!`.
            quote! {
                enums::string! {
                    #docs
                    #[derive(Debug, Clone, #derive_copy PartialEq, Eq)]
                    #[non_exhaustive]
                    pub enum #name {
                        #( #[doc = #variant_docs] #rusts = #wires, )*
                        #unknown
                    }
                }
            }
        }
        TypeKind::OneOf(o) => one_of(&name, &docs, o, side, t.validated, validated),
        TypeKind::Alias(ty, _) => {
            let ty = rust_type(ty, false);
            quote! {
                #docs
                pub type #name = #ty;
            }
        }
    }
}

fn field_type(f: &Field) -> TokenStream {
    let inner = rust_type(&f.ty, false);
    let inner = if f.boxed { quote!(Box<#inner>) } else { inner };
    match (f.required, f.nullable) {
        (true, false) => inner,
        // Absent (`None`), `null` (`Some(None)`) and a value are three different requests
        // (think of a PATCH that clears a field), so they stay apart.
        (false, true) => quote!(Option<Option<#inner>>),
        _ => quote!(Option<#inner>),
    }
}

fn struct_def(
    name: &proc_macro2::Ident,
    docs: &TokenStream,
    s: &Struct,
    side: Side,
    unchecked: bool,
) -> TokenStream {
    let derived = s.additional.is_some();
    let fields = s.fields.iter().map(|f| {
        let rust = ident(&f.rust);
        let ty = field_type(f);
        let docs = field_docs(f);
        let rename = (bare(&f.rust) != f.wire).then(|| {
            let wire = &f.wire;
            quote!(#[serde(rename = #wire)])
        });
        // A struct with extra properties keeps serde's derives (its `flatten` map); the rest
        // are declared to the runtime's `object::json!` (see `declared_fields`).
        let optional = match (f.required, f.nullable) {
            (false, true) => Some(quote!(#[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "absent_null_or_value"
            )])),
            // The server refuses `null` where the schema does not allow it; the client takes it
            // as absent (tolerant of what servers send). (A unit's one value is `null`.)
            (false, false) if refuses_null(f, side) => Some(quote!(#[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "crate::runtime::codegen::body::non_null"
            )])),
            (false, false) => {
                Some(quote!(#[serde(default, skip_serializing_if = "Option::is_none")]))
            }
            // serde would read a missing `Option` as `None`; a required property must be sent,
            // even when its value is `null`.
            (true, true) => Some(quote!(#[serde(deserialize_with = "Option::deserialize")])),
            (true, false) => None,
        };
        let deprecated = f
            .deprecated
            .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
        quote! {
            #docs
            #deprecated
            #rename
            #optional
            pub #rust: #ty,
        }
    });
    let additional = s.additional.as_ref().map(|a| {
        let ty = rust_type(a, false);
        // serde buffers flattened entries itself, out of reach of the runtime's decoding, so
        // values that may hold an integer are read through its whole-number rule here.
        let serde = if a.may_hold_integer() {
            quote!(#[serde(flatten, deserialize_with = "crate::runtime::codegen::integer::deserialize")])
        } else {
            quote!(#[serde(flatten)])
        };
        quote! {
            /// Properties beyond the declared ones.
            #serde
            pub additional_properties: std::collections::BTreeMap<String, #ty>,
        }
    });
    let allow_deprecated = allow_deprecated(s);
    // Nothing required: `Default` is the empty value, and the way to start building one.
    let default = s
        .fields
        .iter()
        .all(|f| !f.required)
        .then(|| quote!(Default,));
    if derived {
        let building = struct_building(name, s);
        return quote! {
            #docs
            #allow_deprecated
            #[derive(Debug, Clone, #default PartialEq, Serialize, Deserialize)]
            pub struct #name {
                #(#fields)*
                #additional
            }
            #building
        };
    }
    let declared = declared_fields(s, side);
    let deny =
        (s.deny_unknown && side == Side::Server).then(|| quote!(#[json(deny_unknown_fields)]));
    let new = declared_new(s);
    let unchecked = unchecked.then(|| quote!(#[json(checks = none)]));
    quote! {
        object::json! {
            #docs
            #allow_deprecated
            #[derive(Debug, Clone, #default PartialEq)]
            #deny
            #unchecked
            #new
            pub struct #name {
                #(#declared)*
            }
        }
    }
}

/// Whether `object::json!` derives the struct's `new` from its fields (each required one a
/// parameter, in order; `into` on a string's or a boxed value's attribute makes it `impl
/// Into<T>`), so nothing lists them again. Not for a struct of more than [`DERIVED_NEW_MAX`]
/// fields (the macro reads one field a step, and rustc stops macro expansion 128 deep), nor
/// for one with a required nullable boxed field (its parameter is the value unboxed, which the
/// macro cannot spell from the field's type): those list `new`'s parameters,
/// `#[json(new(…))]`.
fn new_is_derived(s: &Struct) -> bool {
    s.fields.len() <= DERIVED_NEW_MAX
        && !s.fields.iter().any(|f| f.required && f.nullable && f.boxed)
}

/// See [`new_is_derived`]: GitHub's largest struct has 92 fields.
const DERIVED_NEW_MAX: usize = 100;

/// `, into` on a required field whose `new` parameter is `impl Into<T>` (a `String`, as a person
/// would take `"Rex"` or a `String`; a boxed value, taken unboxed or boxed), where `new` is
/// derived.
fn derived_into(s: &Struct, f: &Field) -> Option<TokenStream> {
    let into = f.required && !f.nullable && (f.boxed || f.ty == TypeRef::String);
    (into && new_is_derived(s)).then(|| quote!(, into))
}

/// `#[json(new(…))]`, where `new` is not derived ([`new_is_derived`]): the parameters of the
/// struct's `new`, its required fields in order (the macro converts each with `Into`). A
/// `String` takes anything `Into<String>` (`"Rex"` or a `String`), as a person would write it;
/// a nullable one its `Option`; a boxed one the value unboxed. Nothing required: no `new` (the
/// struct is `Default`).
fn declared_new(s: &Struct) -> Option<TokenStream> {
    if new_is_derived(s) {
        return None;
    }
    let params: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| {
            let rust = ident(&f.rust);
            let ty = new_param_type(f);
            quote!(#rust: #ty)
        })
        .collect();
    (!params.is_empty()).then(|| quote!(#[json(new(#(#params),*))]))
}

/// The type `new` takes a required field as, declared or printed: a `String` anything
/// `Into<String>`, a nullable field its `Option` (which must be present), a boxed one the value
/// unboxed.
fn new_param_type(f: &Field) -> TokenStream {
    let ty = match f.ty {
        TypeRef::String if !f.nullable => quote!(impl Into<String>),
        _ => rust_type(&f.ty, false),
    };
    if f.nullable { quote!(Option<#ty>) } else { ty }
}

/// An optional field's setter as `object::json!` declares it, `with_name: what`: a nullable
/// field's takes the `Option` (`None` sends `null`); a string's `impl Into<String>` (`"Rex"`);
/// any other `impl Into<Option<T>>` (a value, or an `Option` to copy one over without an
/// `if let`). `boxed`: the field holds its value in a `Box`.
fn declared_setter(f: &Field) -> Option<TokenStream> {
    if f.required {
        return None;
    }
    let setter = ident(&f.setter);
    let ty = rust_type(&f.ty, false);
    let what = match (f.nullable, f.boxed, &f.ty) {
        (true, false, _) => quote!(nullable(#ty)),
        (true, true, _) => quote!(nullable_boxed(#ty)),
        (false, false, TypeRef::String) => quote!(text),
        (false, false, _) => quote!(into(#ty)),
        (false, true, _) => quote!(boxed(#ty)),
    };
    Some(quote!(, #setter: #what))
}

/// A struct's fields as the runtime's `object::json!` declares them (the macro prints the
/// reader and writer): each field under `#[json("property", how)]`, `how` the property's
/// reading:
/// - a required field: `required` (absent: `missing field`, unless the type is an `Option`);
///   a required nullable one, `required_nullable`: `null` is `None` but absence still an
///   error: a required property must be sent, even when its value is `null`;
/// - an optional nullable field: `optional_nullable`, absent (`None`), `null` (`Some(None)`)
///   and a value (`Some(Some(_))`) kept apart;
/// - an optional field that refuses `null` (server): `optional_not_null`; one that takes it
///   as absent: `optional`.
///
/// The server holds formats with a type of their own to their RFCs (`exact(…)`, the runtime's
/// `formats`), not to what their crates' readers take; the client reads leniently. An optional
/// field then declares its setter (`declared_setter`).
fn declared_fields(s: &Struct, side: Side) -> Vec<TokenStream> {
    s.fields
        .iter()
        .map(|f| {
            let rust = ident(&f.rust);
            let ty = field_type(f);
            let docs = field_docs(f);
            let wire = &f.wire;
            let mode = match (f.required, f.nullable) {
                (true, true) => quote!(required_nullable),
                (true, false) => quote!(required),
                (false, true) => quote!(optional_nullable),
                (false, false) if refuses_null(f, side) => quote!(optional_not_null),
                (false, false) => quote!(optional),
            };
            let exact = match (&f.ty, side, f.nullable) {
                (TypeRef::DateTime, Side::Server, false) => Some(quote!(, exact(DATE_TIME))),
                (TypeRef::Date, Side::Server, false) => Some(quote!(, exact(DATE))),
                (TypeRef::Uuid, Side::Server, false) => Some(quote!(, exact(UUID))),
                _ => None,
            };
            let setter = declared_setter(f);
            let into = derived_into(s, f);
            let deprecated = f
                .deprecated
                .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
            quote! {
                #docs
                #deprecated
                #[json(#wire, #mode #exact #into #setter)]
                pub #rust: #ty,
            }
        })
        .collect()
}

/// A field's doc comment: its description, then what the schema says of it beyond its type.
fn field_docs(f: &Field) -> TokenStream {
    let mut lines = f.doc.clone();
    let mut notes = Vec::new();
    if f.read_only {
        notes.push("Read-only: sent by the server, ignored in requests.".to_string());
    }
    if f.write_only {
        notes.push("Write-only: sent in requests, never returned.".to_string());
    }
    if let Some(d) = &f.default {
        notes.push(format!("Default: `{d}`."));
    }
    if !notes.is_empty() && !lines.is_empty() {
        lines.push(String::new());
    }
    lines.extend(notes);
    doc(&lines)
}

/// Whether an optional, non-nullable field refuses `null`: on the server, where the schema
/// does not allow it; the client takes it as absent (tolerant of what servers send). A unit's
/// one value, and any JSON value, is `null`.
fn refuses_null(f: &Field, side: Side) -> bool {
    side == Side::Server && !matches!(f.ty, TypeRef::Json | TypeRef::Unit)
}

/// `new` from the required fields (when there are any) and one `with_` setter per optional
/// field: code built this way keeps compiling when the document adds an optional property,
/// where a struct literal names every field and breaks.
fn struct_building(name: &proc_macro2::Ident, s: &Struct) -> TokenStream {
    let required: Vec<&Field> = s.fields.iter().filter(|f| f.required).collect();
    // A `String` field takes anything `Into<String>` (`"Rex"` or a `String`), as a person
    // would write it; other types are taken as they are.
    let convert = |f: &Field, value: TokenStream| -> TokenStream {
        let value = match f.ty {
            TypeRef::String if !f.nullable => quote!(#value.into()),
            _ => value,
        };
        if f.boxed {
            quote!(Box::new(#value))
        } else {
            value
        }
    };
    let new = (!required.is_empty()).then(|| {
        let params = required.iter().map(|f| {
            let rust = ident(&f.rust);
            let t = new_param_type(f);
            quote!(#rust: #t)
        });
        let inits = s.fields.iter().map(|f| {
            let rust = ident(&f.rust);
            if f.required {
                let plain = !f.boxed && (f.ty != TypeRef::String || f.nullable);
                let value = if f.nullable && f.boxed {
                    quote!(#rust.map(Box::new))
                } else {
                    convert(f, quote!(#rust))
                };
                if plain {
                    quote!(#rust,)
                } else {
                    quote!(#rust: #value,)
                }
            } else {
                quote!(#rust: None,)
            }
        });
        let additional = s
            .additional
            .as_ref()
            .map(|_| quote!(additional_properties: Default::default(),));
        let many = (required.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
        let docs = doc(&[
            "A value from its required properties, in the order the schema lists them; the"
                .to_string(),
            "optional ones start unset (`with_…` sets them).".to_string(),
        ]);
        quote! {
            #docs
            #many
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits)* #additional }
            }
        }
    });
    let setters = s.fields.iter().filter(|f| !f.required).map(|f| {
        let rust = ident(&f.rust);
        let setter = ident(&f.setter);
        let ty = rust_type(&f.ty, false);
        let boxed = |v: TokenStream| if f.boxed { quote!(#v.map(Box::new)) } else { v };
        // Optional and nullable: `Some(None)` sends `null`, so the setter takes the `Option`.
        // Otherwise `impl Into<Option<T>>` takes a value or an `Option` (to copy one over,
        // without an `if let`); a string takes `impl Into<String>` (`"Rex"`).
        let (t, value, note) = if f.nullable {
            let value = boxed(quote!(#rust));
            (
                quote!(Option<#ty>),
                quote!(Some(#value)),
                "; `None` sends `null`",
            )
        } else if f.ty == TypeRef::String {
            let value = convert(f, quote!(#rust));
            (quote!(impl Into<String>), quote!(Some(#value)), "")
        } else {
            let value = boxed(quote!(#rust.into()));
            (quote!(impl Into<Option<#ty>>), value, " (`None` unsets it)")
        };
        let deprecated = f
            .deprecated
            .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
        let docs = doc(&[format!("Sets `{}`{note}.", f.wire)]);
        quote! {
            #docs
            #deprecated
            pub fn #setter(mut self, #rust: #t) -> Self {
                self.#rust = #value;
                self
            }
        }
    });
    let setters: Vec<TokenStream> = setters.collect();
    if new.is_none() && setters.is_empty() {
        return TokenStream::new();
    }
    let allow = allow_deprecated(s);
    let placeholder = placeholder_names(s);
    quote! {
        #allow
        #placeholder
        impl #name {
            #new
            #(#setters)*
        }
    }
}

/// `#[allow(clippy::disallowed_names)]` for items that take each field under its own name:
/// a document's `foo` is a name clippy flags by default, but the document's to choose.
fn placeholder_names(s: &Struct) -> Option<TokenStream> {
    s.fields
        .iter()
        .any(|f| crate::naming::reserved::CLIPPY_PLACEHOLDERS.contains(&f.rust.as_str()))
        .then(|| quote!(#[allow(clippy::disallowed_names)]))
}

/// `#[allow(deprecated)]` for items that touch a struct's deprecated fields.
fn allow_deprecated(s: &Struct) -> Option<TokenStream> {
    s.fields
        .iter()
        .any(|f| f.deprecated)
        .then(|| quote!(#[allow(deprecated)]))
}

fn bare(name: &str) -> &str {
    crate::naming::bare(name)
}
