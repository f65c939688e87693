//! Owns schema-constraint checking: the `Validate` trait generated types implement, the
//! collected `Violations`, and the check helpers generated `Validate` impls call.
//!
//! Pointers are JSON pointers into the request body ("/pets/0/name"; "" is the body itself) or
//! `"<location>/<name>"` for parameters ("query/limit").

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Display;
use std::sync::{Arc, OnceLock, RwLock};

use super::problem::Problem;
pub use super::problem::Violation;

/// Every violation of one request, so the client learns about all of them at once.
#[derive(Clone, Debug, Default)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// No violation yet.
    #[inline]
    pub fn new() -> Self {
        Violations(Vec::new())
    }

    /// Records that the value at `pointer` broke a constraint, as `message` says.
    pub fn push(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.0.push(Violation {
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    /// Records a violation made elsewhere.
    pub fn push_violation(&mut self, violation: Violation) {
        self.0.push(violation);
    }

    /// Whether nothing was violated.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of violations.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The violations, in the order they were found.
    pub fn as_slice(&self) -> &[Violation] {
        &self.0
    }

    /// The violations, in the order they were found.
    pub fn into_vec(self) -> Vec<Violation> {
        self.0
    }

    /// 400 `bad_request` whose message lists every violation; 401 `unauthorized` when one of
    /// them is a missing `Authorization` header parameter (credentials a document asks for
    /// as a parameter rather than a security scheme: without them the request is
    /// unauthenticated, RFC 9110, before it is malformed).
    pub fn into_problem(self) -> Problem {
        let unauthenticated = self.0.iter().any(|v| {
            v.pointer.eq_ignore_ascii_case("header/authorization") && v.message == MISSING_PARAMETER
        });
        let problem = if unauthenticated {
            Problem::unauthorized("the request is invalid")
        } else {
            Problem::bad_request("the request is invalid")
        };
        problem.with_violations(self.0)
    }

    /// `Err(problem)` with everything collected so far (leaving `self` empty), `Ok(())` when
    /// nothing was; lets generated code write `errs.check()?`.
    #[inline]
    pub fn check(&mut self) -> Result<(), Problem> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(std::mem::take(self).into_problem())
        }
    }
}

/// Implemented by generated types: push a violation for every failed constraint below
/// `pointer` (the JSON pointer of `self`).
pub trait Validate {
    /// Pushes a violation onto `out` for every constraint `self` breaks, naming its place below
    /// `pointer`.
    fn validate(&self, pointer: &str, out: &mut Violations);
}

/// `pointer` + "/" + `segment`, escaping `~` and `/` as RFC 6901 says.
pub fn join(pointer: &str, segment: &str) -> String {
    let mut s = String::with_capacity(pointer.len() + segment.len() + 1);
    s.push_str(pointer);
    s.push('/');
    for c in segment.chars() {
        match c {
            '~' => s.push_str("~0"),
            '/' => s.push_str("~1"),
            c => s.push(c),
        }
    }
    s
}

/// `pointer` + "/" + `index`.
pub fn join_index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// A path as a JSON pointer (the runtime's one conversion, shared with the client's decoder).
pub(crate) use super::integer::pointer_of;

/// The message of a required parameter the request lacks (`params` writes it; a missing
/// `Authorization` parameter makes the request unauthenticated, [`Violations::into_problem`]).
pub(crate) const MISSING_PARAMETER: &str = "required parameter is missing";

impl<T: Validate> Validate for Vec<T> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        for (i, item) in self.iter().enumerate() {
            item.validate(&join_index(pointer, i), out);
        }
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        if let Some(v) = self {
            v.validate(pointer, out);
        }
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        (**self).validate(pointer, out);
    }
}

impl<T: Validate + ?Sized> Validate for Arc<T> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        (**self).validate(pointer, out);
    }
}

impl<T: Validate> Validate for BTreeMap<String, T> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        for (k, v) in self {
            v.validate(&join(pointer, k), out);
        }
    }
}

impl<T: Validate, H> Validate for HashMap<String, T, H> {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        // Sorted so the message is the same for the same request.
        let mut entries: Vec<(&String, &T)> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (k, v) in entries {
            v.validate(&join(pointer, k), out);
        }
    }
}

macro_rules! no_constraints {
    ($($t:ty),* $(,)?) => {
        $(impl Validate for $t {
            fn validate(&self, _pointer: &str, _out: &mut Violations) {}
        })*
    };
}

// Constraints on primitives are checked by the field's owner, which knows the schema.
no_constraints!(
    String,
    str,
    bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    serde_json::Value,
    axum::body::Bytes,
    super::base64::Base64,
    super::base64::Base64Url,
    super::decimal::Decimal,
);

/// `minimum` / `exclusiveMinimum` (OpenAPI 3.0: a flag). Value and bound have the field's type,
/// so integers compare exactly (no trip through f64). NaN never violates.
pub fn check_minimum<T: PartialOrd + Display + Copy>(
    value: T,
    min: T,
    exclusive: bool,
    pointer: &str,
    out: &mut Violations,
) {
    if exclusive {
        if value <= min {
            out.push(pointer, format!("must be greater than {min}, got {value}"));
        }
    } else if value < min {
        out.push(
            pointer,
            format!("must be greater than or equal to {min}, got {value}"),
        );
    }
}

/// `maximum` / `exclusiveMaximum`.
pub fn check_maximum<T: PartialOrd + Display + Copy>(
    value: T,
    max: T,
    exclusive: bool,
    pointer: &str,
    out: &mut Violations,
) {
    if exclusive {
        if value >= max {
            out.push(pointer, format!("must be less than {max}, got {value}"));
        }
    } else if value > max {
        out.push(
            pointer,
            format!("must be less than or equal to {max}, got {value}"),
        );
    }
}

/// Numbers `multipleOf` can be asked about.
pub trait Numeric: Copy + Display {
    /// The value as a float, for a `multipleOf` that is not an integer.
    fn to_f64(self) -> f64;
    /// Exact integer value, when the type is an integer.
    fn to_i128(self) -> Option<i128>;
}

macro_rules! numeric_int {
    ($($t:ty),*) => {$(
        impl Numeric for $t {
            fn to_f64(self) -> f64 { self as f64 }
            fn to_i128(self) -> Option<i128> { i128::try_from(self).ok() }
        }
    )*};
}
numeric_int!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl Numeric for f32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn to_i128(self) -> Option<i128> {
        None
    }
}

impl Numeric for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn to_i128(self) -> Option<i128> {
        None
    }
}

/// `multipleOf`. Integers with an integral factor are checked exactly; otherwise the quotient
/// must be within a relative 1e-9 of a whole number (binary floats cannot do better: 0.3 / 0.1
/// is not exactly 3). A factor that is not positive cannot be checked and is ignored.
pub fn check_multiple_of<T: Numeric>(value: T, factor: f64, pointer: &str, out: &mut Violations) {
    if factor.is_nan() || factor <= 0.0 || factor.is_infinite() {
        return;
    }
    let ok = match value.to_i128() {
        Some(v) if factor.fract() == 0.0 && factor < 1e30 => {
            let f = factor as i128;
            v % f == 0
        }
        _ => {
            let q = value.to_f64() / factor;
            if !q.is_finite() {
                false
            } else {
                (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
            }
        }
    };
    if !ok {
        out.push(
            pointer,
            format!("must be a multiple of {factor}, got {value}"),
        );
    }
}

/// `minimum` / `maximum` (and their exclusive forms) of a [`Decimal`](super::decimal::Decimal),
/// compared digit by digit with the bound as the document writes it (`least`: a minimum).
pub fn check_decimal_bound(
    value: &super::decimal::Decimal,
    bound: &str,
    least: bool,
    exclusive: bool,
    pointer: &str,
    out: &mut Violations,
) {
    use std::cmp::Ordering::{Greater, Less};
    let Some(order) = value.cmp_text(bound) else {
        return;
    };
    let (fails, relation) = match (least, exclusive) {
        (true, true) => (order != Greater, "greater than"),
        (true, false) => (order == Less, "greater than or equal to"),
        (false, true) => (order != Less, "less than"),
        (false, false) => (order == Greater, "less than or equal to"),
    };
    if fails {
        out.push(pointer, format!("must be {relation} {bound}, got {value}"));
    }
}

/// `multipleOf` of a [`Decimal`](super::decimal::Decimal): exact, whatever the digits.
pub fn check_decimal_multiple_of(
    value: &super::decimal::Decimal,
    factor: &str,
    pointer: &str,
    out: &mut Violations,
) {
    if value.is_multiple_of(factor) == Some(false) {
        out.push(
            pointer,
            format!("must be a multiple of {factor}, got {value}"),
        );
    }
}

/// A whole number held in a [`Decimal`](super::decimal::Decimal) (an integer wider than 64
/// bits: `int128`, `uint128`, `bigint`).
pub fn check_decimal_integer(value: &super::decimal::Decimal, pointer: &str, out: &mut Violations) {
    if !value.is_integer() {
        out.push(pointer, format!("must be an integer, got {value}"));
    }
}

/// `minLength`, counted in characters (Unicode scalar values), as JSON Schema says.
pub fn check_min_length(value: &str, min: usize, pointer: &str, out: &mut Violations) {
    let n = value.chars().count();
    if n < min {
        out.push(
            pointer,
            format!("must be at least {min} characters long, got {n}"),
        );
    }
}

/// `maxLength`, counted in characters.
pub fn check_max_length(value: &str, max: usize, pointer: &str, out: &mut Violations) {
    // Count no further than needed: a huge string over the limit is rejected early.
    let n = value.chars().take(max.saturating_add(1)).count();
    if n > max {
        let total = value.chars().count();
        out.push(
            pointer,
            format!("must be at most {max} characters long, got {total}"),
        );
    }
}

type PatternCache = RwLock<HashMap<&'static str, Option<Arc<Pattern>>>>;

fn pattern_cache() -> &'static PatternCache {
    static CACHE: OnceLock<PatternCache> = OnceLock::new();
    CACHE.get_or_init(|| RwLock::new(HashMap::new()))
}

/// A compiled `pattern`. The engine (regex-lite, as the rest of the runtime) has no
/// look-around, which JSON Schema's ECMA-262 patterns allow; dropshot's names open with one
/// (`^(?![0-9a-fA-F]{8}-…$)^[a-z][a-z0-9-]*[a-zA-Z0-9]$`: a name, and not a UUID). Look-aheads
/// at the anchored start are each checked as a pattern of their own anchored there: `^(?!X)Y`
/// is `^(?:Y)` matching where `^(?:X)` does not, `^(?=X)Y` where both do.
pub(crate) struct Pattern {
    main: regex_lite::Regex,
    /// (must match, the look-ahead anchored at the start)
    ahead: Vec<(bool, regex_lite::Regex)>,
}

impl Pattern {
    pub(crate) fn new(pattern: &str) -> Result<Pattern, String> {
        let mut rest = pattern;
        let mut ahead = Vec::new();
        while let Some(after) = rest.strip_prefix('^') {
            let positive = if after.starts_with("(?=") {
                true
            } else if after.starts_with("(?!") {
                false
            } else {
                break;
            };
            let end = group_end(after).ok_or("an unclosed look-ahead group")?;
            let inner = &after[3..end];
            let re = regex_lite::Regex::new(&format!("^(?:{inner})")).map_err(|e| e.to_string())?;
            ahead.push((positive, re));
            // What follows is anchored at the same start.
            rest = &after[end + 1..];
            if !rest.starts_with('^') {
                let main =
                    regex_lite::Regex::new(&format!("^(?:{rest})")).map_err(|e| e.to_string())?;
                return Ok(Pattern { main, ahead });
            }
        }
        let main = regex_lite::Regex::new(rest).map_err(|e| e.to_string())?;
        Ok(Pattern { main, ahead })
    }

    pub(crate) fn is_match(&self, value: &str) -> bool {
        self.ahead
            .iter()
            .all(|(positive, re)| re.is_match(value) == *positive)
            && self.main.is_match(value)
    }
}

/// The index of the `)` closing the group `text` opens with, past escapes and classes.
fn group_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The compiled pattern, compiled once per process; None when the spec's pattern is not a
/// regex this engine understands (logged once, then the constraint is not checked: rejecting
/// every request over a spec bug would be worse).
fn compiled(pattern: &'static str) -> Option<Arc<Pattern>> {
    let cache = pattern_cache();
    if let Some(hit) = cache.read().unwrap_or_else(|e| e.into_inner()).get(pattern) {
        return hit.clone();
    }
    let mut map = cache.write().unwrap_or_else(|e| e.into_inner());
    map.entry(pattern)
        .or_insert_with(|| match Pattern::new(pattern) {
            Ok(re) => Some(Arc::new(re)),
            Err(e) => {
                tracing::warn!(pattern, error = %e, "schema pattern is not a supported regular expression; it will not be checked");
                None
            }
        })
        .clone()
}

/// `pattern`: an unanchored search, as JSON Schema says (a pattern that wants the whole value
/// says so with `^...$`).
pub fn check_pattern(value: &str, pattern: &'static str, pointer: &str, out: &mut Violations) {
    if let Some(re) = compiled(pattern)
        && !re.is_match(value)
    {
        out.push(pointer, format!("must match the pattern {pattern:?}"));
    }
}

/// `format` of a value kept as a string, for the formats the server checks (`formats`): `uri`,
/// `uri-reference`, `email`, `hostname`.
pub fn check_format(value: &str, format: &'static str, pointer: &str, out: &mut Violations) {
    let valid = match format {
        "uri" => super::formats::is_uri(value),
        "uri-reference" => super::formats::is_uri_reference(value),
        "email" => super::formats::is_email(value),
        "hostname" => super::formats::is_hostname(value),
        "decimal" => super::decimal::is_decimal(value),
        _ => true,
    };
    if !valid {
        out.push(pointer, format!("must be a valid {format}"));
    }
}

/// `patternProperties` (OpenAPI 3.1) of a map: every property name must match `pattern`
/// (an unanchored search, as for `pattern`).
pub fn check_key_pattern<T>(
    map: &BTreeMap<String, T>,
    pattern: &'static str,
    pointer: &str,
    out: &mut Violations,
) {
    if let Some(re) = compiled(pattern) {
        for key in map.keys().filter(|k| !re.is_match(k)) {
            out.push(
                join(pointer, key),
                format!("property name must match the pattern {pattern:?}"),
            );
        }
    }
}

/// `dependentRequired` (OpenAPI 3.1): `dependent` must be present because `present` is.
pub fn dependent_missing(pointer: &str, present: &str, dependent: &str, out: &mut Violations) {
    out.push(
        join(pointer, dependent),
        format!("is required when `{present}` is present"),
    );
}

/// `anyOf` of `required` lists (github's requested reviewers), none met: names what would
/// do, `needs `reviewers`, or `team_reviewers``; `or_empty` when an object with no property
/// at all would do as well (a branch `maxProperties: 0`).
pub fn required_any_missing(
    pointer: &str,
    groups: &[&[&str]],
    or_empty: bool,
    out: &mut Violations,
) {
    let mut ways: Vec<String> = groups
        .iter()
        .map(|group| {
            let names: Vec<String> = group.iter().map(|wire| format!("`{wire}`")).collect();
            names.join(" and ")
        })
        .collect();
    if or_empty {
        ways.push("no property at all".into());
    }
    out.push(pointer, format!("needs {}", ways.join(", or ")));
}

/// `not: {required: [..]}` (openai's image references: a URL or a file, not both): these
/// properties, all present, may not be.
pub fn all_present(pointer: &str, names: &[&str], out: &mut Violations) {
    let names: Vec<String> = names.iter().map(|wire| format!("`{wire}`")).collect();
    out.push(
        pointer,
        format!("must not have all of {}", names.join(", ")),
    );
}

/// `minItems`.
pub fn check_min_items<T>(items: &[T], min: usize, pointer: &str, out: &mut Violations) {
    if items.len() < min {
        out.push(
            pointer,
            format!("must have at least {min} items, got {}", items.len()),
        );
    }
}

/// `maxItems`.
pub fn check_max_items<T>(items: &[T], max: usize, pointer: &str, out: &mut Violations) {
    if items.len() > max {
        out.push(
            pointer,
            format!("must have at most {max} items, got {}", items.len()),
        );
    }
}

/// `minProperties` / `maxProperties` on a map's length.
pub fn check_min_properties(len: usize, min: usize, pointer: &str, out: &mut Violations) {
    if len < min {
        out.push(
            pointer,
            format!("must have at least {min} properties, got {len}"),
        );
    }
}

/// `maxProperties` on a map's length.
pub fn check_max_properties(len: usize, max: usize, pointer: &str, out: &mut Violations) {
    if len > max {
        out.push(
            pointer,
            format!("must have at most {max} properties, got {len}"),
        );
    }
}

/// `uniqueItems`. Items are compared by their JSON form so any generated type works (they all
/// serialize; few are `Hash`), in linear time. Object keys are sorted in that form, so equal
/// objects compare equal whatever their field order, even when serde_json's
/// `preserve_order` feature (which keeps `Map` in insertion order) is on in the build.
pub fn check_unique_items<T: serde::Serialize>(items: &[T], pointer: &str, out: &mut Violations) {
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
    let mut reported: HashSet<usize> = HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let Ok(value) = serde_json::to_value(item) else {
            continue;
        };
        let mut key = String::new();
        canonical_json(&value, &mut key);
        if let Some(&first) = seen.get(&key) {
            if reported.insert(first) {
                out.push(
                    pointer,
                    format!("items must be unique; items {first} and {i} are equal"),
                );
            }
        } else {
            seen.insert(key, i);
        }
    }
}

/// `value` as JSON text with every object's keys in sorted order.
fn canonical_json(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<(&String, &serde_json::Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (n, (k, v)) in entries.into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(k.clone()).to_string());
                out.push(':');
                canonical_json(v, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (n, v) in items.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                canonical_json(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// `enum` on a number: the value must be one of the listed ones (string enums are Rust enums
/// and need no check).
pub fn check_one_of<T: PartialEq + Display>(
    value: &T,
    allowed: &[T],
    pointer: &str,
    out: &mut Violations,
) {
    if !allowed.contains(value) {
        let list = allowed
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        out.push(pointer, format!("must be one of {list}, got {value}"));
    }
}
