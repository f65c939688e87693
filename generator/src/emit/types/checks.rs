//! Prints the server's `Validate` impls: each struct's members checked against their
//! constraints, `dependentRequired` and `anyOf` of `required` lists, and the checks of one
//! value (bounds, lengths, patterns, formats, item and property counts).

use super::*;

/// The server's checks of one struct: each field's own constraints, then its contents.
/// `None`: nothing to check (the struct is declared `#[json(checks = none)]`, or, with extra
/// properties, gets the empty impl from [`no_checks`]).
pub(super) fn struct_validate(
    name: &proc_macro2::Ident,
    s: &Struct,
    validated: bool,
    validated_names: &BTreeSet<String>,
) -> Option<TokenStream> {
    if !validated {
        return None;
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
    let not_all = not_all_checks(s);
    // `anyOf` of `required` lists: one list's properties must all be present (or, where a
    // branch allows it, none at all).
    let alternatives = s.required_any_of.as_ref().map(|any| {
        let mut met: Vec<TokenStream> = any
            .groups
            .iter()
            .map(|group| {
                let present = presence(s, group);
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
        && not_all.is_empty()
    {
        return None;
    }
    let allow_deprecated = allow_deprecated(s);
    Some(quote! {
        #allow_deprecated
        impl Validate for #name {
            fn validate(&self, pointer: &str, out: &mut Violations) {
                #(#checks)*
                #additional
                #additional_pattern
                #(#dependents)*
                #alternatives
                #(#not_all)*
            }
        }
    })
}

/// The `Validate` of a type with nothing to check (its parameters unused).
pub(super) fn no_checks(name: &proc_macro2::Ident) -> TokenStream {
    quote! {
        impl Validate for #name {
            fn validate(&self, _pointer: &str, _out: &mut Violations) {}
        }
    }
}

/// `not: {required: [..]}`: a check per group that its properties are not all present.
fn not_all_checks(s: &Struct) -> Vec<TokenStream> {
    s.not_all_of
        .iter()
        .map(|names| {
            let present = presence(s, names);
            let all = if present.is_empty() {
                quote!(true)
            } else {
                quote!(#(#present)&&*)
            };
            quote! {
                if #all {
                    validate::all_present(pointer, &[#(#names),*], out);
                }
            }
        })
        .collect()
}

/// `self.x.is_some()` for each optional member among `names` (wire names): what says they are
/// all present (a required member always is).
fn presence(s: &Struct, names: &[String]) -> Vec<TokenStream> {
    names
        .iter()
        .filter_map(|wire| {
            let f = s.fields.iter().find(|f| &f.wire == wire)?;
            let rust = ident(&f.rust);
            (!f.required).then(|| quote!(self.#rust.is_some()))
        })
        .collect()
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

/// One check of a value, as data: which `validate` function, with what bound. Printed as a
/// call (a struct's `Validate`, a handler) or as the word a parameter's declaration names it
/// by (`params::declare!`'s `#[checks(…)]`).
enum Check {
    /// `minimum`, and whether it is exclusive; the bound a literal of the value's type.
    Minimum(TokenStream, bool),
    Maximum(TokenStream, bool),
    OneOf(Vec<TokenStream>),
    MultipleOf(proc_macro2::Literal),
    MinLength(usize),
    MaxLength(usize),
    Pattern(String),
    Format(String),
    MinProperties(usize),
    MaxProperties(usize),
    MinItems(usize),
    MaxItems(usize),
    UniqueItems,
}

impl Check {
    /// The keyword in snake case (as `params::declare!` reads it, and the runtime's
    /// `validate::check_…` is named, the exclusive bounds apart) and its arguments.
    fn parts(&self) -> (&'static str, Vec<TokenStream>) {
        let n = |n: &usize| {
            let n = proc_macro2::Literal::usize_unsuffixed(*n);
            vec![quote!(#n)]
        };
        match self {
            Check::Minimum(b, false) => ("minimum", vec![b.clone()]),
            Check::Minimum(b, true) => ("exclusive_minimum", vec![b.clone()]),
            Check::Maximum(b, false) => ("maximum", vec![b.clone()]),
            Check::Maximum(b, true) => ("exclusive_maximum", vec![b.clone()]),
            Check::OneOf(allowed) => ("one_of", allowed.clone()),
            Check::MultipleOf(m) => ("multiple_of", vec![quote!(#m)]),
            Check::MinLength(v) => ("min_length", n(v)),
            Check::MaxLength(v) => ("max_length", n(v)),
            Check::Pattern(p) => ("pattern", vec![quote!(#p)]),
            Check::Format(f) => ("format", vec![quote!(#f)]),
            Check::MinProperties(v) => ("min_properties", n(v)),
            Check::MaxProperties(v) => ("max_properties", n(v)),
            Check::MinItems(v) => ("min_items", n(v)),
            Check::MaxItems(v) => ("max_items", n(v)),
            Check::UniqueItems => ("unique_items", Vec::new()),
        }
    }

    /// The call that checks `value` (a reference), located at `at`, into `out`: the word's
    /// function with the value as it takes it (a number by value, a map by its length), then
    /// the word's arguments (a bound's exclusiveness as a flag, `one_of`'s values as a slice).
    fn call(&self, value: &TokenStream, at: &TokenStream) -> TokenStream {
        let (word, args) = self.parts();
        let (function, value, args) = match self {
            Check::Minimum(b, ex) => ("minimum", quote!(*#value), quote!(#b, #ex,)),
            Check::Maximum(b, ex) => ("maximum", quote!(*#value), quote!(#b, #ex,)),
            Check::OneOf(allowed) => (word, quote!(#value), quote!(&[#(#allowed),*],)),
            Check::MultipleOf(_) => (word, quote!(*#value), quote!(#(#args,)*)),
            Check::MinProperties(_) | Check::MaxProperties(_) => {
                (word, quote!(#value.len()), quote!(#(#args,)*))
            }
            _ => (word, quote!(#value), quote!(#(#args,)*)),
        };
        let function = quote::format_ident!("check_{function}");
        quote!(validate::#function(#value, #args #at, out);)
    }

    /// The word `params::declare!` reads it from: the keyword in snake case and its bound.
    fn word(&self) -> TokenStream {
        let (word, args) = self.parts();
        let word = quote::format_ident!("{word}");
        if args.is_empty() {
            quote!(#word)
        } else {
            quote!(#word(#(#args),*))
        }
    }
}

/// The checks of one value of type `ty` with constraints `c` (what `value` names, a
/// reference): bounds, lengths, patterns, formats, counts, then each item's own.
pub fn constraint_checks(
    value: &TokenStream,
    at: &TokenStream,
    ty: &TypeRef,
    c: &Constraints,
) -> TokenStream {
    let mut out = if matches!(ty, TypeRef::Decimal | TypeRef::BigInt) {
        decimal_checks(value, at, ty, c)
    } else {
        TokenStream::new()
    };
    for check in own_checks(ty, c) {
        out.extend(check.call(value, at));
    }
    out.extend(tuple_checks(value, at, ty, c));
    out.extend(each_checks(value, at, ty, c));
    out
}

/// The words of `params::declare!`'s `#[checks(…)]` for a value of type `ty` (empty: none),
/// or `None` when its checks say more than words do (a decimal's exact bounds, a tuple's
/// items, each item's own): the handler then prints them as calls.
pub fn check_words(ty: &TypeRef, c: &Constraints) -> Option<Vec<TokenStream>> {
    let value = quote!(value);
    let more = (matches!(ty, TypeRef::Decimal | TypeRef::BigInt)
        && !decimal_checks(&value, &value, ty, c).is_empty())
        || !tuple_checks(&value, &value, ty, c).is_empty()
        || !each_checks(&value, &value, ty, c).is_empty();
    (!more).then(|| own_checks(ty, c).iter().map(Check::word).collect())
}

/// A value's own checks, by its type: a number's (not a decimal's), a string's, a map's
/// property counts, an array's item counts and uniqueness.
fn own_checks(ty: &TypeRef, c: &Constraints) -> Vec<Check> {
    let mut out = numeric_checks(ty, c);
    if *ty == TypeRef::String {
        out.extend(c.min_length.map(Check::MinLength));
        out.extend(c.max_length.map(Check::MaxLength));
        out.extend(c.pattern.clone().map(Check::Pattern));
        out.extend(c.checked_format.clone().map(Check::Format));
    }
    if matches!(ty, TypeRef::Map(_) | TypeRef::JsonObject) {
        out.extend(c.min_properties.map(Check::MinProperties));
        out.extend(c.max_properties.map(Check::MaxProperties));
    }
    if matches!(ty, TypeRef::Vec(_)) {
        out.extend(c.min_items.map(Check::MinItems));
        out.extend(c.max_items.map(Check::MaxItems));
        if c.unique_items {
            out.push(Check::UniqueItems);
        }
    }
    out
}

/// A tuple's items, each in a block of its own: `{ let at = ..; let value = &value.0; .. }`.
fn tuple_checks(
    value: &TokenStream,
    at: &TokenStream,
    ty: &TypeRef,
    c: &Constraints,
) -> TokenStream {
    let mut out = TokenStream::new();
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
    out
}

/// The checks of a number: bounds (exact for integers), `enum` values, `multipleOf`. None for
/// a decimal, whose checks are [`decimal_checks`].
fn numeric_checks(ty: &TypeRef, c: &Constraints) -> Vec<Check> {
    let mut out = Vec::new();
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
    let numeric = ty.is_sized_integer() || matches!(ty, TypeRef::F32 | TypeRef::F64);
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
            out.push(Check::Minimum(min, ex));
        }
        if let Some(max) = c.maximum {
            let (max, ex) = bound(max, c.exclusive_maximum, false);
            out.push(Check::Maximum(max, ex));
        }
        if !c.one_of.is_empty() {
            let allowed = c.one_of.iter().filter_map(|n| n.as_f64()).map(&num);
            out.push(Check::OneOf(allowed.collect()));
        }
        if let Some(m) = c.multiple_of {
            out.push(Check::MultipleOf(proc_macro2::Literal::f64_unsuffixed(m)));
        }
    }
    out
}

/// The checks of a number that keeps every digit, each exact against the bound's text (as the
/// document reader holds it: book/src/reference/type-mapping.md); an integer wider than 64 bits must be
/// whole.
fn decimal_checks(
    value: &TokenStream,
    at: &TokenStream,
    ty: &TypeRef,
    c: &Constraints,
) -> TokenStream {
    let mut out = TokenStream::new();
    let text = |v: f64| v.to_string();
    if *ty == TypeRef::BigInt {
        out.extend(quote!(validate::check_decimal_integer(#value, #at, out);));
    }
    for (bound, least, exclusive) in [
        (c.minimum, true, c.exclusive_minimum),
        (c.maximum, false, c.exclusive_maximum),
    ] {
        if let Some(b) = bound {
            let b = match b {
                Bound::Integer(v) => v.to_string(),
                Bound::Number(v) => text(v),
            };
            out.extend(
                quote!(validate::check_decimal_bound(#value, #b, #least, #exclusive, #at, out);),
            );
        }
    }
    if !c.one_of.is_empty() {
        // Each value as the document reader holds it (an integer exactly, not through a double).
        let allowed = c.one_of.iter().map(|n| {
            let v = n.to_string();
            quote!(crate::runtime::codegen::Decimal::from_static(#v))
        });
        out.extend(quote!(validate::check_one_of(#value, &[#(#allowed),*], #at, out);));
    }
    if let Some(m) = c.multiple_of {
        let m = text(m);
        out.extend(quote!(validate::check_decimal_multiple_of(#value, #m, #at, out);));
    }
    out
}

/// Each item's or value's own constraints, named by its index or key.
fn each_checks(
    value: &TokenStream,
    at: &TokenStream,
    ty: &TypeRef,
    c: &Constraints,
) -> TokenStream {
    let mut out = TokenStream::new();
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
pub(super) fn int_literal(v: i128, ty: &TypeRef) -> (TokenStream, bool) {
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

/// Whether a value of the struct holds no property: every field absent, no extra property.
/// A struct with a required field is never empty.
pub(super) fn empty_object(s: &Struct) -> TokenStream {
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
