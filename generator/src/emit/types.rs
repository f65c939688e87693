//! Prints `types.rs`: one Rust type per schema type, with serde impls, and on the server the
//! `Validate` impls that enforce the schema's constraints.

use super::{Side, doc, ident, module_doc, rust_type};
use crate::ir::{Api, Bound, Constraints, Field, OneOf, Struct, TypeDef, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

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
    let items = api.types.iter().map(|t| type_def(t, side, &validated));
    let double_option = api
        .types
        .iter()
        .any(|t| matches!(&t.kind, TypeKind::Struct(s) if s.fields.iter().any(|f| !f.required && f.nullable)))
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
            ("crate::runtime::validate", "validate::"),
            ("crate::runtime::validate::Validate", "Validate"),
            ("crate::runtime::validate::Violations", "Violations"),
            ("serde::Deserialize", "Deserialize"),
            ("serde::Serialize", "Serialize"),
        ],
        Side::Client => &[
            ("serde::Deserialize", "Deserialize"),
            ("serde::Serialize", "Serialize"),
        ],
    };
    let uses = super::imports([&mut body], candidates);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro
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
            let def = struct_def(&name, &docs, s, side);
            let validate =
                (side == Side::Server).then(|| struct_validate(&name, s, t.validated, validated));
            quote!(#def #validate)
        }
        TypeKind::Enum(variants) => {
            let wires: Vec<&str> = variants.iter().map(|v| v.wire.as_str()).collect();
            let rusts: Vec<_> = variants.iter().map(|v| ident(&v.rust)).collect();
            let expected = wires
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let variant_docs = wires.iter().map(|w| {
                if w.is_empty() {
                    " The empty string.".to_string()
                } else {
                    format!(" `{w}`")
                }
            });
            let (unknown_variant, unknown_str, unknown_parse, derive_copy, err_ty) = match side {
                Side::Server => (
                    quote!(),
                    quote!(),
                    quote!(other => Err(format!(concat!("expected one of ", #expected, ", got `{}`"), other))),
                    quote!(Copy,),
                    quote!(String),
                ),
                Side::Client => (
                    quote!(
                        /// A value this client does not know (the server may have added it).
                        Unknown(String),
                    ),
                    quote!(Self::Unknown(other) => other,),
                    quote!(other => Ok(Self::Unknown(other.to_string()))),
                    quote!(),
                    quote!(std::convert::Infallible),
                ),
            };
            // Borrows the string from the input: no allocation for a known value.
            let from_str_value = match side {
                Side::Server => quote!(crate::runtime::body::from_str_value),
                Side::Client => quote!(crate::runtime::response::from_str_value),
            };
            let param_impl = match side {
                Side::Server => quote! {
                    impl crate::runtime::params::FromParam for #name {
                        fn from_param(raw: &str) -> Result<Self, String> {
                            raw.parse()
                        }
                    }
                    impl Validate for #name {
                        fn validate(&self, _pointer: &str, _out: &mut Violations) {}
                    }
                },
                Side::Client => quote! {
                    impl crate::runtime::request::ToParam for #name {
                        fn to_param(&self) -> String {
                            self.as_str().to_string()
                        }
                    }
                },
            };
            // `non_exhaustive`: a value the document adds later is not a breaking change for
            // code that matches on the enum (it already needs a `_` arm).
            quote! {
                #docs
                #[derive(Debug, Clone, #derive_copy PartialEq, Eq, Hash, PartialOrd, Ord)]
                #[non_exhaustive]
                pub enum #name {
                    #( #[doc = #variant_docs] #rusts, )*
                    #unknown_variant
                }
                impl #name {
                    /// The value as it appears on the wire.
                    pub fn as_str(&self) -> &str {
                        match self {
                            #( Self::#rusts => #wires, )*
                            #unknown_str
                        }
                    }
                }
                impl std::str::FromStr for #name {
                    type Err = #err_ty;
                    // `Self::Err` would be ambiguous with a variant named `Err`.
                    fn from_str(value: &str) -> Result<Self, #err_ty> {
                        match value {
                            #( #wires => Ok(Self::#rusts), )*
                            #unknown_parse
                        }
                    }
                }
                impl std::fmt::Display for #name {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(self.as_str())
                    }
                }
                impl Serialize for #name {
                    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                        serializer.serialize_str(self.as_str())
                    }
                }
                impl<'de> Deserialize<'de> for #name {
                    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        #from_str_value(deserializer)
                    }
                }
                #param_impl
            }
        }
        TypeKind::OneOf(o) => one_of(&name, &t.name, &docs, o, side, t.validated, validated),
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
) -> TokenStream {
    let fields = s.fields.iter().map(|f| {
        let rust = ident(&f.rust);
        let ty = field_type(f);
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
        let docs = doc(&lines);
        let rename = (bare(&f.rust) != f.wire).then(|| {
            let wire = &f.wire;
            quote!(#[serde(rename = #wire)])
        });
        let optional = match (f.required, f.nullable) {
            (false, true) => Some(quote!(#[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "absent_null_or_value"
            )])),
            // The server refuses `null` where the schema does not allow it; the client takes it
            // as absent (tolerant of what servers send). (A unit's one value is `null`.)
            (false, false)
                if side == Side::Server && !matches!(f.ty, TypeRef::Json | TypeRef::Unit) =>
            {
                Some(quote!(#[serde(
                    default,
                    skip_serializing_if = "Option::is_none",
                    deserialize_with = "crate::runtime::body::non_null"
                )]))
            }
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
            quote!(#[serde(flatten, deserialize_with = "crate::runtime::integer::deserialize")])
        } else {
            quote!(#[serde(flatten)])
        };
        quote! {
            /// Properties beyond the declared ones.
            #serde
            pub additional_properties: std::collections::BTreeMap<String, #ty>,
        }
    });
    let deny = (s.deny_unknown && side == Side::Server && s.additional.is_none())
        .then(|| quote!(#[serde(deny_unknown_fields)]));
    let allow_deprecated = allow_deprecated(s);
    // Nothing required: `Default` is the empty value, and the way to start building one.
    let default = s
        .fields
        .iter()
        .all(|f| !f.required)
        .then(|| quote!(Default,));
    let building = struct_building(name, s);
    quote! {
        #docs
        #allow_deprecated
        #[derive(Debug, Clone, #default PartialEq, Serialize, Deserialize)]
        #deny
        pub struct #name {
            #(#fields)*
            #additional
        }
        #building
    }
}

/// `new` from the required fields (when there are any) and one `with_` setter per optional
/// field: code built this way keeps compiling when the document adds an optional property,
/// where a struct literal names every field and breaks.
fn struct_building(name: &proc_macro2::Ident, s: &Struct) -> TokenStream {
    let required: Vec<&Field> = s.fields.iter().filter(|f| f.required).collect();
    // A `String` field takes anything `Into<String>` (`"Rex"` or a `String`), as a person
    // would write it; other types are taken as they are.
    let param_type = |f: &Field| -> TokenStream {
        match f.ty {
            TypeRef::String if !f.nullable => quote!(impl Into<String>),
            _ => rust_type(&f.ty, false),
        }
    };
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
            let t = param_type(f);
            // A required nullable field is an `Option` that must be present.
            let t = if f.nullable { quote!(Option<#t>) } else { t };
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
    // `new` and the setters take each field under its own name; a document's `foo` is a
    // name clippy flags by default (disallowed_names) but the document's to choose.
    let placeholder = s
        .fields
        .iter()
        .any(|f| crate::naming::reserved::CLIPPY_PLACEHOLDERS.contains(&f.rust.as_str()))
        .then(|| quote!(#[allow(clippy::disallowed_names)]));
    quote! {
        #allow
        #placeholder
        impl #name {
            #new
            #(#setters)*
        }
    }
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

/// The server's checks of one struct: each field's own constraints, then its contents.
fn struct_validate(
    name: &proc_macro2::Ident,
    s: &Struct,
    validated: bool,
    validated_names: &BTreeSet<String>,
) -> TokenStream {
    let nothing = quote! {
        impl Validate for #name {
            fn validate(&self, _pointer: &str, _out: &mut Violations) {}
        }
    };
    if !validated {
        return nothing;
    }
    let checks: Vec<TokenStream> = s
        .fields
        .iter()
        .filter_map(|f| {
            let rust = ident(&f.rust);
            let wire = &f.wire;
            let own = constraint_checks(&quote!(value), &quote!(&at), &f.check_ty, &f.constraints);
            let nested = contents_validated(&f.ty, validated_names)
                .then(|| quote!(value.validate(&at, out);));
            if own.is_empty() && nested.is_none() {
                return None;
            }
            let body = quote! {
                let at = validate::join(pointer, #wire);
                #own
                #nested
            };
            Some(match (f.required, f.nullable) {
                (true, false) => quote!({ let value = &self.#rust; #body }),
                (false, true) => quote!(if let Some(Some(value)) = &self.#rust { #body }),
                _ => quote!(if let Some(value) = &self.#rust { #body }),
            })
        })
        .collect();
    let additional = s
        .additional
        .as_ref()
        .filter(|a| contents_validated(a, validated_names))
        .map(|_| quote!(self.additional_properties.validate(pointer, out);));
    let additional_pattern = s.additional_pattern.as_ref().map(
        |p| quote!(validate::check_key_pattern(&self.additional_properties, #p, pointer, out);),
    );
    // `dependentRequired`: a present property needs its dependents (required fields are
    // always there, so only optional ones are looked at).
    let dependents = s
        .dependent_required
        .iter()
        .flat_map(|(present, needed)| {
            let field = |wire: &str| s.fields.iter().find(|f| f.wire == wire);
            let Some(p) = field(present) else {
                return Vec::new();
            };
            let p_rust = ident(&p.rust);
            let p_present = (!p.required).then(|| quote!(self.#p_rust.is_some() &&));
            needed
                .iter()
                .filter_map(|n| field(n))
                .filter(|n| !n.required)
                .map(|n| {
                    let n_rust = ident(&n.rust);
                    let n_wire = &n.wire;
                    quote! {
                        if #p_present self.#n_rust.is_none() {
                            validate::dependent_missing(pointer, #present, #n_wire, out);
                        }
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>();
    // `anyOf` of `required` lists: one list's properties must all be present (or, where a
    // branch allows it, none at all).
    let alternatives = s.required_any_of.as_ref().map(|any| {
        let present = |wire: &String| {
            let f = s.fields.iter().find(|f| &f.wire == wire)?;
            let rust = ident(&f.rust);
            (!f.required).then(|| quote!(self.#rust.is_some()))
        };
        let mut met: Vec<TokenStream> = any
            .groups
            .iter()
            .map(|group| {
                let present: Vec<TokenStream> = group.iter().filter_map(present).collect();
                match present.as_slice() {
                    [] => quote!(true),
                    [one] => one.clone(),
                    _ => quote!((#(#present)&&*)),
                }
            })
            .collect();
        if any.or_empty {
            met.push(empty_object(s));
        }
        let groups = any.groups.iter().map(|group| quote!(&[#(#group),*]));
        let or_empty = any.or_empty;
        quote! {
            if !(#(#met)||*) {
                validate::required_any_missing(pointer, &[#(#groups),*], #or_empty, out);
            }
        }
    });
    // Marked validated for a constraint no check is printed for (a bound on a type it does
    // not apply to): an empty body, whose parameters must not warn as unused.
    if checks.is_empty()
        && additional.is_none()
        && additional_pattern.is_none()
        && dependents.is_empty()
        && alternatives.is_none()
    {
        return nothing;
    }
    let allow_deprecated = allow_deprecated(s);
    quote! {
        #allow_deprecated
        impl Validate for #name {
            fn validate(&self, pointer: &str, out: &mut Violations) {
                #(#checks)*
                #additional
                #additional_pattern
                #(#dependents)*
                #alternatives
            }
        }
    }
}

/// Whether values of `ty` hold a named type with checks of its own.
pub fn contents_validated(ty: &TypeRef, validated: &BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Named(n) => validated.contains(n),
        TypeRef::Vec(t) | TypeRef::Map(t) | TypeRef::Nullable(t) => {
            contents_validated(t, validated)
        }
        _ => false,
    }
}

/// Calls to the runtime's checks for `value` (a reference to a `ty`), one per constraint.
pub fn constraint_checks(
    value: &TokenStream,
    at: &TokenStream,
    ty: &TypeRef,
    c: &Constraints,
) -> TokenStream {
    let mut out = TokenStream::new();
    // Unsuffixed literals: the value's type decides, as a person would write it.
    let num = |v: f64| -> TokenStream {
        let lit = match ty {
            TypeRef::F32 | TypeRef::F64 => proc_macro2::Literal::f64_unsuffixed(v),
            TypeRef::U8 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64 => {
                proc_macro2::Literal::u64_unsuffixed(v.max(0.0) as u64)
            }
            _ => proc_macro2::Literal::i64_unsuffixed(v as i64),
        };
        if v < 0.0 && !matches!(ty, TypeRef::F32 | TypeRef::F64) {
            let abs = proc_macro2::Literal::i64_unsuffixed((-v) as i64);
            return quote!(-#abs);
        }
        if v < 0.0 {
            let abs = proc_macro2::Literal::f64_unsuffixed(-v);
            return quote!(-#abs);
        }
        quote!(#lit)
    };
    let numeric = matches!(
        ty,
        TypeRef::I32
            | TypeRef::I64
            | TypeRef::U8
            | TypeRef::U16
            | TypeRef::U32
            | TypeRef::U64
            | TypeRef::F32
            | TypeRef::F64
    );
    let integral = numeric && !matches!(ty, TypeRef::F32 | TypeRef::F64);
    // An integer's bound exactly as written (an `f64` rounds beyond 2^53); a fraction on an
    // integer becomes the integer it allows, inclusive.
    let bound = |b: Bound, exclusive: bool, least: bool| -> (TokenStream, bool) {
        match integral.then(|| b.whole(exclusive, least)).flatten() {
            Some((v, exclusive)) => {
                let (literal, exact) = int_literal(v, ty);
                (literal, exclusive && exact)
            }
            None => (num(b.as_f64()), exclusive),
        }
    };
    if numeric {
        if let Some(min) = c.minimum {
            let (min, ex) = bound(min, c.exclusive_minimum, true);
            out.extend(quote!(validate::check_minimum(*#value, #min, #ex, #at, out);));
        }
        if let Some(max) = c.maximum {
            let (max, ex) = bound(max, c.exclusive_maximum, false);
            out.extend(quote!(validate::check_maximum(*#value, #max, #ex, #at, out);));
        }
        if !c.one_of.is_empty() {
            let allowed = c.one_of.iter().filter_map(|n| n.as_f64()).map(&num);
            out.extend(quote!(validate::check_one_of(#value, &[#(#allowed),*], #at, out);));
        }
        if let Some(m) = c.multiple_of {
            let m = proc_macro2::Literal::f64_unsuffixed(m);
            out.extend(quote!(validate::check_multiple_of(*#value, #m, #at, out);));
        }
    }
    if *ty == TypeRef::String {
        if let Some(n) = c.min_length {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_min_length(#value, #n, #at, out);));
        }
        if let Some(n) = c.max_length {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_max_length(#value, #n, #at, out);));
        }
        if let Some(p) = &c.pattern {
            out.extend(quote!(validate::check_pattern(#value, #p, #at, out);));
        }
        if let Some(f) = &c.checked_format {
            out.extend(quote!(validate::check_format(#value, #f, #at, out);));
        }
    }
    // A tuple's items, each in a block of its own: `{ let at = ..; let value = &value.0; .. }`.
    if let TypeRef::Tuple(items) = ty {
        for (i, (item, item_c)) in items.iter().zip(&c.prefix_items).enumerate() {
            let checks = constraint_checks(&quote!(value), &quote!(&at), item, item_c);
            if !checks.is_empty() {
                let field = syn::Index::from(i);
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                out.extend(quote!({
                    let at = validate::join_index(#at, #i);
                    let value = &#value.#field;
                    #checks
                }));
            }
        }
    }
    if matches!(ty, TypeRef::Map(_) | TypeRef::JsonObject) {
        if let Some(n) = c.min_properties {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_min_properties(#value.len(), #n, #at, out);));
        }
        if let Some(n) = c.max_properties {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_max_properties(#value.len(), #n, #at, out);));
        }
    }
    if matches!(ty, TypeRef::Vec(_)) {
        if let Some(n) = c.min_items {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_min_items(#value, #n, #at, out);));
        }
        if let Some(n) = c.max_items {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            out.extend(quote!(validate::check_max_items(#value, #n, #at, out);));
        }
        if c.unique_items {
            out.extend(quote!(validate::check_unique_items(#value, #at, out);));
        }
    }
    // Each item's or value's own constraints, named by its index or key.
    // Items and values that may be `null` are checked where they hold a value.
    let present = |inner: &TypeRef| match inner {
        TypeRef::Nullable(inner) => (
            inner.as_ref().clone(),
            quote!(let Some(item) = item else { continue };),
        ),
        inner => (inner.clone(), quote!()),
    };
    match (ty, c.each.as_deref()) {
        (TypeRef::Vec(inner), Some(each)) => {
            let (inner, bind) = present(inner);
            let checks = constraint_checks(&quote!(item), &quote!(&at), &inner, each);
            if !checks.is_empty() {
                let each = quote! {
                    for (i, item) in #value.iter().enumerate() {
                        #bind
                        let at = validate::join_index(#at, i);
                        #checks
                    }
                };
                // One value is the scalar variant's, which takes any text.
                out.extend(if c.each_when_several {
                    quote!(if #value.len() > 1 { #each })
                } else {
                    each
                });
            }
        }
        (TypeRef::Map(inner), Some(each)) => {
            let (inner, bind) = present(inner);
            let checks = constraint_checks(&quote!(item), &quote!(&at), &inner, each);
            if !checks.is_empty() {
                out.extend(quote! {
                    for (key, item) in #value.iter() {
                        #bind
                        let at = validate::join(#at, key);
                        #checks
                    }
                });
            }
        }
        _ => {}
    }
    out
}

/// An integer literal for a bound of a value of type `ty` (unsuffixed: the value's type
/// decides), held within the type's range: a bound beyond it is met by every value, and the
/// literal must fit the type to compile.
fn int_literal(v: i128, ty: &TypeRef) -> (TokenStream, bool) {
    let (lo, hi) = match ty {
        TypeRef::U8 => (0, i128::from(u8::MAX)),
        TypeRef::U16 => (0, i128::from(u16::MAX)),
        TypeRef::U32 => (0, i128::from(u32::MAX)),
        TypeRef::U64 => (0, i128::from(u64::MAX)),
        TypeRef::I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    let held = v.clamp(lo, hi);
    let abs = proc_macro2::Literal::u128_unsuffixed(held.unsigned_abs());
    let literal = if held < 0 {
        quote!(-#abs)
    } else {
        quote!(#abs)
    };
    (literal, held == v)
}

fn one_of(
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
    let serialize = match &o.discriminator {
        // The tag is written even when the variant's own type has no field for it.
        Some(d) => {
            let property = &d.property;
            let arms = o.variants.iter().enumerate().map(|(i, v)| {
                let variant = ident(&v.rust);
                let tag = d
                    .mapping
                    .iter()
                    .find(|(_, idx)| *idx == i)
                    .map(|(wire, _)| wire.clone())
                    .unwrap_or_else(|| v.rust.clone());
                let tag = tag_literal(d, &tag);
                quote!(Self::#variant(v) => (serde_json::to_value(v), #tag),)
            });
            quote! {
                let (value, tag) = match self { #(#arms)* };
                let mut value = value.map_err(serde::ser::Error::custom)?;
                if let serde_json::Value::Object(map) = &mut value {
                    map.entry(#property).or_insert_with(|| serde_json::Value::from(tag));
                }
                value.serialize(serializer)
            }
        }
        None => quote! {
            match self { #( Self::#variants(v) => v.serialize(serializer), )* }
        },
    };
    // The first variant that accepts the value wins; the error lists why each refused. In
    // the server, where the union holds checked constraints, the first variant the value
    // also passes the checks of: variants told apart by constraints alone (nexus's `IpNet`,
    // an IPv4 or an IPv6 net, both strings, by `pattern`) are read as the one it fits, and
    // when it fits none, as the first that reads it, whose checks then refuse it.
    let checked_in_order = side == Side::Server && validated;
    let in_order = if checked_in_order {
        quote! {
            let mut reasons = Vec::new();
            let mut unchecked = None;
            #(
                match crate::runtime::integer::from_value::<#types>(value.clone()) {
                    Ok(v) => {
                        let v = Self::#variants(v);
                        let mut errors = Violations::new();
                        v.validate("", &mut errors);
                        if errors.is_empty() {
                            return Ok(v);
                        }
                        unchecked.get_or_insert(v);
                    }
                    Err(e) => reasons.push(format!("{}: {e}", #labels)),
                }
            )*
            unchecked.ok_or_else(|| serde::de::Error::custom(format!(
                concat!("no variant of `", #wire_name, "` matched: {}"),
                reasons.join("; ")
            )))
        }
    } else {
        quote! {
            let mut reasons = Vec::new();
            #(
                match crate::runtime::integer::from_value::<#types>(value.clone()) {
                    Ok(v) => return Ok(Self::#variants(v)),
                    Err(e) => reasons.push(format!("{}: {e}", #labels)),
                }
            )*
            Err(serde::de::Error::custom(format!(
                concat!("no variant of `", #wire_name, "` matched: {}"),
                reasons.join("; ")
            )))
        }
    };
    let deserialize = match &o.discriminator {
        // By the tag; without one (an answer that leaves the property out), in order.
        Some(d) => {
            let property = &d.property;
            let arms = d.mapping.iter().map(|(wire, i)| {
                let variant = ident(&o.variants[*i].rust);
                let wire = tag_literal(d, wire);
                quote!(Some(#wire) => crate::runtime::integer::from_value(value).map(Self::#variant),)
            });
            let known = d
                .mapping
                .iter()
                .map(|(w, _)| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let tag = if d.integer {
                quote!(let tag = value.get(#property).and_then(serde_json::Value::as_i64);)
            } else {
                quote! {
                    let tag = value
                        .get(#property)
                        .and_then(serde_json::Value::as_str)
                        .map(str::to_owned);
                    let tag = tag.as_deref();
                }
            };
            quote! {
                let value = serde_json::Value::deserialize(deserializer)?;
                #tag
                match tag {
                    #(#arms)*
                    Some(other) => return Err(serde::de::Error::custom(format!(
                        concat!("unknown `", #property, "` value `{}`; expected one of ", #known), other))),
                    None => { #in_order }
                }
                .map_err(serde::de::Error::custom)
            }
        }
        None => quote! {
            let value = serde_json::Value::deserialize(deserializer)?;
            #in_order
        },
    };
    let validate = (side == Side::Server).then(|| {
        if validated {
            // Only the variants that hold a checked constraint are walked (a free-form
            // object or a plain string has nothing to check); a scalar variant's own
            // constraints are checked here (nexus's `Name` of `NameOrId`). A value is read as
            // the first variant whose checks it passes (`in_order`), so variants of one type
            // told apart by constraints (nexus's `IpNet`) are each checked as themselves.
            let arms = o.variants.iter().map(|v| {
                let variant = ident(&v.rust);
                let checks = constraint_checks(
                    &quote!(value),
                    &quote!(pointer),
                    &v.check_ty,
                    &v.constraints,
                );
                if contents_validated(&v.ty, validated_names) {
                    quote!(Self::#variant(v) => v.validate(pointer, out),)
                } else if !checks.is_empty() {
                    quote!(Self::#variant(value) => { #checks })
                } else {
                    quote!(Self::#variant(_) => {})
                }
            });
            quote! {
                impl Validate for #name {
                    fn validate(&self, pointer: &str, out: &mut Violations) {
                        match self { #(#arms)* }
                    }
                }
            }
        } else {
            quote! {
                impl Validate for #name {
                    fn validate(&self, _pointer: &str, _out: &mut Violations) {}
                }
            }
        }
    });
    let param = o.scalar.then(|| match side {
        // The first variant that reads the text wins, as for bodies.
        Side::Server if checked_in_order => quote! {
            impl crate::runtime::params::FromParam for #name {
                fn from_param(raw: &str) -> Result<Self, String> {
                    let mut reasons = Vec::new();
                    let mut unchecked = None;
                    #(
                        match <#types as crate::runtime::params::FromParam>::from_param(raw) {
                            Ok(v) => {
                                let v = Self::#variants(v);
                                let mut errors = Violations::new();
                                v.validate("", &mut errors);
                                if errors.is_empty() {
                                    return Ok(v);
                                }
                                unchecked.get_or_insert(v);
                            }
                            Err(e) => reasons.push(format!("{}: {e}", #labels)),
                        }
                    )*
                    unchecked.ok_or_else(|| format!(concat!("no variant of `", #wire_name, "` matched: {}"), reasons.join("; ")))
                }
            }
        },
        Side::Server => quote! {
            impl crate::runtime::params::FromParam for #name {
                fn from_param(raw: &str) -> Result<Self, String> {
                    let mut reasons = Vec::new();
                    #(
                        match <#types as crate::runtime::params::FromParam>::from_param(raw) {
                            Ok(v) => return Ok(Self::#variants(v)),
                            Err(e) => reasons.push(format!("{}: {e}", #labels)),
                        }
                    )*
                    Err(format!(concat!("no variant of `", #wire_name, "` matched: {}"), reasons.join("; ")))
                }
            }
        },
        Side::Client => quote! {
            impl crate::runtime::request::ToParam for #name {
                fn to_param(&self) -> String {
                    match self { #( Self::#variants(v) => crate::runtime::request::ToParam::to_param(v), )* }
                }
            }
        },
    });
    quote! {
        #param
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #( #variants(#types), )*
        }
        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #serialize
            }
        }
        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                #deserialize
            }
        }
        #validate
    }
}

/// A discriminator value as the literal the generated code matches and writes: `"auto"`, or
/// `2` for an integer tag.
fn tag_literal(d: &crate::ir::Discriminator, wire: &str) -> TokenStream {
    match d.integer_tag(wire) {
        Some(n) => {
            let n = proc_macro2::Literal::i64_unsuffixed(n);
            quote!(#n)
        }
        None => quote!(#wire),
    }
}

/// Whether a value of the struct holds no property: every field absent, no extra property.
/// A struct with a required field is never empty.
fn empty_object(s: &Struct) -> TokenStream {
    if s.fields.iter().any(|f| f.required) {
        return quote!(false);
    }
    let mut absent: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let rust = ident(&f.rust);
            quote!(self.#rust.is_none())
        })
        .collect();
    if s.additional.is_some() {
        absent.push(quote!(self.additional_properties.is_empty()));
    }
    match absent.as_slice() {
        [] => quote!(true),
        [one] => one.clone(),
        _ => quote!((#(#absent)&&*)),
    }
}
