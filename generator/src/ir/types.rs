//! The types made from schemas: structs, enums, unions and aliases, the `TypeRef` a field or
//! parameter has, and the `Constraints` the server checks.

/// A named Rust type made from a schema (component or inline).
#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    /// JSON pointer of the schema it was made from, for docs and diagnostics.
    pub origin: String,
    pub doc: Vec<String>,
    pub kind: TypeKind,
    /// Holds (directly or through its fields) a constraint the server checks.
    pub validated: bool,
    /// The schema's own `example` (3.1: its first `examples` entry), as written: the mock
    /// tries it before a value it makes up (it may not fit the schema; the mock checks).
    pub example: Option<serde_json::Value>,
}

#[derive(Debug, Clone)]
pub enum TypeKind {
    Struct(Struct),
    /// A string enumeration.
    Enum(Vec<EnumVariant>),
    /// `oneOf`/`anyOf`: exactly one (or the first matching) variant.
    OneOf(OneOf),
    /// A named alias for another type (`type Pets = Vec<Pet>`), with its constraints.
    Alias(TypeRef, Constraints),
}

#[derive(Debug, Clone)]
pub struct Struct {
    pub fields: Vec<Field>,
    /// Properties beyond the declared ones: `additionalProperties: true` or a schema.
    pub additional: Option<TypeRef>,
    /// `additionalProperties: false`: the server rejects unknown fields.
    pub deny_unknown: bool,
    /// `dependentRequired` (3.1): when the property (wire name) is present, these must be too.
    /// The server checks it.
    pub dependent_required: Vec<(String, Vec<String>)>,
    /// `anyOf` (or `oneOf`) whose branches only list `required` properties (github's
    /// requested reviewers: `reviewers` or `team_reviewers`), or say the object is empty.
    /// The server checks it.
    pub required_any_of: Option<RequiredAnyOf>,
    /// `not: {required: [image_url, file_id]}` (openai's image references): the properties
    /// (wire names) of each list are never all present. The server checks it; the mock
    /// leaves the last optional one out.
    pub not_all_of: Vec<Vec<String>>,
    /// `patternProperties` beside `additionalProperties: false`: the names the extra
    /// properties must match (checked by the server).
    pub additional_pattern: Option<String>,
}

/// `anyOf: [{required: [reviewers]}, {required: [team_reviewers]}]`: the properties (wire
/// names) of at least one group must all be present (a `oneOf`'s "exactly one" is read as
/// "at least one"). A branch `{maxProperties: 0}` (github's gist file: new content, a new
/// name, or `{}` to delete it) lets an object with no property at all through as well; such a
/// struct keeps the properties it does not declare (`additional`), so that `{"other": 1}`
/// is not taken for `{}`.
#[derive(Debug, Clone)]
pub struct RequiredAnyOf {
    pub groups: Vec<Vec<String>>,
    pub or_empty: bool,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub rust: String,
    /// The builder-style method that sets it (`with_status`): with the struct's `new`, the
    /// way of building a value that survives optional fields added later.
    pub setter: String,
    pub wire: String,
    pub ty: TypeRef,
    /// The scalar a named alias stands for (`Level` → `i64`), which decides how
    /// `constraints` are checked; `ty` itself otherwise.
    pub check_ty: TypeRef,
    pub required: bool,
    /// The document requires it in an answer: `required`, or required and `readOnly` (which
    /// `required` leaves out, a request not carrying it). What a mock's answer must hold.
    pub required_in_answers: bool,
    pub nullable: bool,
    /// Needs `Box` to break a cycle of types that contain each other.
    pub boxed: bool,
    pub doc: Vec<String>,
    pub constraints: Constraints,
    pub deprecated: bool,
    pub read_only: bool,
    pub write_only: bool,
    pub default: Option<serde_json::Value>,
    /// The property schema's `example`, as written (see [`TypeDef::example`]).
    pub example: Option<serde_json::Value>,
}

#[derive(Debug, Clone)]
pub struct EnumVariant {
    pub rust: String,
    pub wire: String,
}

#[derive(Debug, Clone)]
pub struct OneOf {
    pub variants: Vec<OneOfVariant>,
    /// Property naming the variant, with wire value → variant index.
    pub discriminator: Option<Discriminator>,
    /// Every variant is a string, number or boolean: usable as a parameter.
    pub scalar: bool,
    /// The client's variant for a value no variant reads, or whose tag the document does not
    /// list, kept as its JSON and written back unchanged (forward compatibility; the server
    /// refuses such a value): named apart from the variants. `None` for an enum that only
    /// stands for one type (a schema that contains itself).
    pub unknown: Option<String>,
}

#[derive(Debug, Clone)]
pub struct OneOfVariant {
    pub rust: String,
    pub ty: TypeRef,
    pub boxed: bool,
    /// The variant schema's own constraints (a scalar variant's `minimum`: `type: [integer,
    /// string]` splits its keywords between the variants): what a value made for it (the
    /// mock's) must meet.
    pub constraints: Constraints,
    /// The type the constraints are checked as: the variant's, or the scalar an alias of it
    /// stands for (nexus's `NameOrId`: `Name`, a `String` with `maxLength` and `pattern`).
    /// Filled by `resolve_check_types`.
    pub check_ty: TypeRef,
    /// The variant's type is a struct (its members named): tried on an object, it wins only
    /// when it names every member, else a later variant that does (one that reads the object
    /// and drops members it does not name is taken only when none does). Filled by
    /// `lower::schema::union_variant_facts`.
    pub names_members: bool,
}

#[derive(Debug, Clone)]
pub struct Discriminator {
    pub property: String,
    /// (wire value, variant index)
    pub mapping: Vec<(String, usize)>,
    /// The values are JSON integers written in decimal (discord's action types `1`…`4`,
    /// a tag implied by variants that pin an integer property), not strings.
    pub integer: bool,
    /// The variants named by several tags whose own type holds the property (openai's hosted
    /// tool choice, `file_search` or `web_search`): written as they are, their own member
    /// saying which tag, rather than with the first of their tags put in front. Filled by
    /// `lower::schema::union_variant_facts`.
    pub own_tag: Vec<usize>,
}

impl Discriminator {
    /// The tag as the integer it is on the wire, for an integer discriminator; `None` for a
    /// text tag (and for a value an integer discriminator cannot hold, written as text).
    pub fn integer_tag(&self, wire: &str) -> Option<i64> {
        if self.integer {
            wire.parse().ok()
        } else {
            None
        }
    }
}

/// A Rust type as used in a field, parameter or body.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    Named(String),
    String,
    Bool,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// `format: decimal` or `decimal128` on a number: every digit kept
    /// (`runtime::decimal::Decimal`, written back as the JSON number it was).
    Decimal,
    /// An integer wider than 64 bits (`format: int128`, `uint128`, `bigint`): a
    /// `runtime::decimal::Decimal` the server holds to a whole value.
    BigInt,
    /// `format: binary` in a JSON document, or an octet body: raw bytes.
    Bytes,
    /// `contentEncoding: base64` (3.1): bytes, written as base64 text in JSON.
    Base64,
    /// `contentEncoding: base64url` (3.1): bytes, written as URL-safe base64 text in JSON.
    Base64Url,
    /// `format: uuid`: `uuid::Uuid`.
    Uuid,
    /// `format: date-time` (RFC 3339): `jiff::Timestamp`.
    DateTime,
    /// `format: date` (RFC 3339 full-date): `jiff::civil::Date`.
    Date,
    /// `format: ipv4`: `std::net::Ipv4Addr`.
    Ipv4,
    /// `format: ipv6`: `std::net::Ipv6Addr`.
    Ipv6,
    /// `prefixItems` (3.1) with no other items: a fixed-length tuple.
    Tuple(Vec<TypeRef>),
    Vec(Box<TypeRef>),
    Map(Box<TypeRef>),
    /// Any JSON value (`{}`, free-form).
    Json,
    /// Only `null` (`enum: [null]`, what schemars writes for Rust's `()`): `()`.
    Unit,
    /// A value whose schema admits `null` beside its type: `Option<T>`, `null` being `None`.
    /// A whole JSON answer (FastAPI's `Optional[X]`: `anyOf: [X, {type: 'null'}]`, or
    /// `type: [array, 'null']`), an array's item or a map's value (api.github.com's gist
    /// `files`); never a field's type (fields carry their own nullability).
    Nullable(Box<TypeRef>),
    /// A free-form JSON object.
    JsonObject,
}

impl TypeRef {
    /// Numbers, strings and booleans: what a path, query, header or cookie value may hold.
    pub fn is_scalar(&self) -> bool {
        !matches!(
            self,
            TypeRef::Vec(_)
                | TypeRef::Tuple(_)
                | TypeRef::Base64
                | TypeRef::Base64Url
                | TypeRef::Map(_)
                | TypeRef::Json
                | TypeRef::JsonObject
                | TypeRef::Unit
                | TypeRef::Nullable(_)
                | TypeRef::Bytes
        )
    }

    /// A string `format` read into a type of its own (`uuid`, `date-time`, `date`, `ipv4`,
    /// `ipv6`): the type's parser is the check, so string-length and pattern keywords beside
    /// the format are not applied to it.
    pub fn is_string_format(&self) -> bool {
        matches!(
            self,
            TypeRef::Uuid | TypeRef::DateTime | TypeRef::Date | TypeRef::Ipv4 | TypeRef::Ipv6
        )
    }

    /// The integers of a fixed size (`i32` … `u64`), which Rust compares exactly.
    pub fn is_sized_integer(&self) -> bool {
        matches!(
            self,
            TypeRef::I32 | TypeRef::I64 | TypeRef::U8 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64
        )
    }

    /// Whether the type is, or holds in place, a number that keeps every digit (printed as
    /// the runtime's `decimal::Decimal`); named types are not followed.
    pub fn mentions_decimal(&self) -> bool {
        match self {
            TypeRef::Decimal | TypeRef::BigInt => true,
            TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => {
                item.mentions_decimal()
            }
            TypeRef::Tuple(items) => items.iter().any(TypeRef::mentions_decimal),
            _ => false,
        }
    }

    /// Whether a value of this type may contain an integer somewhere (a named type may).
    pub fn may_hold_integer(&self) -> bool {
        match self {
            TypeRef::I32 | TypeRef::I64 | TypeRef::U8 | TypeRef::U16 | TypeRef::U32 => true,
            TypeRef::U64 | TypeRef::Named(_) => true,
            TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => {
                item.may_hold_integer()
            }
            TypeRef::Tuple(items) => items.iter().any(TypeRef::may_hold_integer),
            TypeRef::String
            | TypeRef::Uuid
            | TypeRef::DateTime
            | TypeRef::Date
            | TypeRef::Ipv4
            | TypeRef::Ipv6
            | TypeRef::Bool
            | TypeRef::F32
            | TypeRef::F64
            | TypeRef::Decimal
            | TypeRef::BigInt
            | TypeRef::Bytes
            | TypeRef::Base64
            | TypeRef::Base64Url
            | TypeRef::Json
            | TypeRef::JsonObject
            | TypeRef::Unit => false,
        }
    }
}

/// Schema constraints enforced on input by the server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: bool,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub pattern: Option<String>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,
    /// `minProperties`/`maxProperties`, checked on maps (`additionalProperties` alone, or
    /// free-form objects); a struct's named fields are not counted (see docs: "Type mapping").
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    /// `enum` on an integer or number (string enums become Rust enums instead).
    pub one_of: Vec<serde_json::Number>,
    /// `prefixItems` (3.1) read as a tuple: the constraints of each item, by position (empty
    /// when no item has any).
    pub prefix_items: Vec<Constraints>,
    /// The constraints of every item of an array (`items`) or value of a map
    /// (`additionalProperties`), when they have any: checked on each, where the item is a
    /// scalar (a named type checks its own).
    pub each: Option<Box<Constraints>>,
    /// `each` applies only to a list of two items or more: a query parameter of one value or
    /// several (`oneOf: [string, array of patterned strings]`), where one value is the
    /// scalar variant's, which takes any text.
    pub each_when_several: bool,
    /// `format` of a string kept as `String`, when the server checks it: `uri`,
    /// `uri-reference`, `email`, `hostname` (runtime `formats`).
    pub checked_format: Option<String>,
    /// `format` of a string kept as `String`, as written, checked or not: what a value made up
    /// for it (the mock's, an error body's) must look like. Not a check.
    pub format: Option<String>,
    /// The one value a boolean's `enum` allows (slack's `defs_ok_false`: `enum: [false]`):
    /// what a value made up for it (the mock's, an error body's) must be. Not a check.
    pub boolean: Option<bool>,
}

/// A `minimum` or `maximum` as the document writes it. An integer's bound stays exact: as an
/// `f64`, discord's `maximum: 18014398509481983` (2^54 - 1) rounded up to 2^54, and the check
/// let 2^54 through.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Integer(i64),
    Number(f64),
}

impl Bound {
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Integer(v) => v as f64,
            Bound::Number(v) => v,
        }
    }

    /// Whether `self` is below `other`, exactly when both are integers.
    pub fn below(self, other: Bound) -> bool {
        match (self, other) {
            (Bound::Integer(a), Bound::Integer(b)) => a < b,
            (a, b) => a.as_f64() < b.as_f64(),
        }
    }

    /// The bound as a whole number, for an integer (a minimum when `least`, else a maximum):
    /// a fraction becomes the integer it allows (its ceiling for a minimum, its floor for a
    /// maximum), no longer exclusive; a whole bound keeps `exclusive`. `None` beyond the
    /// integers an `i128` holds.
    pub fn whole(self, exclusive: bool, least: bool) -> Option<(i128, bool)> {
        match self {
            Bound::Integer(v) => Some((i128::from(v), exclusive)),
            Bound::Number(v) if v.is_finite() && v.abs() < 1e38 => {
                let w = if least { v.ceil() } else { v.floor() };
                Some((w as i128, exclusive && w == v))
            }
            Bound::Number(_) => None,
        }
    }

    /// The least integer a minimum allows: the bound itself, the next one when it is exclusive,
    /// the ceiling of a fraction. `None` beyond the integers an `i128` holds.
    pub fn least_integer(self, exclusive: bool) -> Option<i128> {
        let (v, exclusive) = self.whole(exclusive, true)?;
        Some(v + i128::from(exclusive))
    }

    /// The greatest integer a maximum allows (see [`Bound::least_integer`]).
    pub fn greatest_integer(self, exclusive: bool) -> Option<i128> {
        let (v, exclusive) = self.whole(exclusive, false)?;
        Some(v - i128::from(exclusive))
    }
}

/// The formats the server checks on a value kept as `String` (see [`Constraints`]).
pub const CHECKED_FORMATS: &[&str] = &["uri", "uri-reference", "email", "hostname", "decimal"];

impl Constraints {
    /// Nothing to check (a format the server does not check is not a check).
    pub fn is_empty(&self) -> bool {
        let mut checks = self.clone();
        checks.format = None;
        checks.boolean = None;
        checks == Constraints::default()
    }

    /// Forgets `minLength`, `maxLength` and `pattern`: for a value read into a format's own
    /// type (`TypeRef::is_string_format`), whose parser already decided what text is valid.
    pub fn drop_string_checks(&mut self) {
        self.min_length = None;
        self.max_length = None;
        self.pattern = None;
        self.checked_format = None;
        self.format = None;
    }

    /// Adds the constraints of another schema the same value must meet (an `allOf` part):
    /// the tighter bound of each pair, the values both enumerations list. A second
    /// `multipleOf` or `pattern` is not combined (the first one stays).
    pub fn narrow(&mut self, other: &Constraints) {
        fn tighter(
            own: &mut Option<Bound>,
            own_ex: &mut bool,
            other: Option<Bound>,
            other_ex: bool,
            is_tighter: fn(Bound, Bound) -> bool,
        ) {
            if let Some(o) = other {
                match *own {
                    Some(v) if !v.below(o) && !o.below(v) => *own_ex |= other_ex,
                    Some(v) if !is_tighter(o, v) => {}
                    _ => {
                        *own = Some(o);
                        *own_ex = other_ex;
                    }
                }
            }
        }
        tighter(
            &mut self.minimum,
            &mut self.exclusive_minimum,
            other.minimum,
            other.exclusive_minimum,
            |a, b| b.below(a),
        );
        tighter(
            &mut self.maximum,
            &mut self.exclusive_maximum,
            other.maximum,
            other.exclusive_maximum,
            |a, b| a.below(b),
        );
        self.multiple_of = self.multiple_of.or(other.multiple_of);
        self.min_length = self.min_length.max(other.min_length);
        self.max_length = match (self.max_length, other.max_length) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if self.pattern.is_none() {
            self.pattern = other.pattern.clone();
        }
        if self.format.is_none() {
            self.format = other.format.clone();
            self.checked_format = other.checked_format.clone();
        }
        self.boolean = self.boolean.or(other.boolean);
        if self.one_of.is_empty() {
            self.one_of = other.one_of.clone();
        } else if !other.one_of.is_empty() {
            let both =
                |n: &serde_json::Number| other.one_of.iter().any(|o| o.as_f64() == n.as_f64());
            self.one_of.retain(both);
        }
    }
}
