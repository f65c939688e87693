//! Every Rust name the generator prints is made here: case conversion, keywords, collisions.
//!
//! Wire names (what the document says) are never changed; the IR keeps both, and emitters
//! add `#[serde(rename)]` only where the two differ.
//!
//! Decision: `docs/decisions/0027-names.md`.

pub mod reserved;

use heck::{ToPascalCase, ToShoutySnakeCase, ToSnakeCase};
use std::collections::BTreeSet;

/// Words that cannot be identifiers at all, even as raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Keywords of every edition (strict and reserved); used raw (`r#type`).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where", "while",
    "abstract", "become", "box", "do", "final", "gen", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Keeps ASCII letters and digits, turning everything else into word breaks, so that heck
/// sees `foo.bar-baz` and `foo bar baz` alike.
fn words(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if matches!(c, '+') {
            out.push_str(" plus ");
        } else if c == '-' && out.is_empty() {
            out.push_str("minus ");
        } else {
            out.push(' ');
        }
    }
    out
}

/// A `snake_case` identifier for a field, parameter, method or module.
pub fn snake(raw: &str) -> String {
    let mut s = words(raw).to_snake_case();
    if s.is_empty() {
        s = "value".to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    keyword_safe(s)
}

/// A crate-name stem cargo accepts, from a file name or a title: lowercase ASCII letters and
/// digits, runs of anything else one `-`, never starting with a digit
/// (`api.github.com` → `api-github-com`, `3d_models` → `api-3d-models`).
pub fn crate_stem(raw: &str) -> String {
    let mut s = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, if s.is_empty() { "api" } else { "api-" });
    }
    s
}

/// File names that say nothing of the API they hold (`openapi.yaml`, `swagger-2.0.json`,
/// `schema.json`, `3.1.yaml`): a document so named is named after its title instead.
/// (`api.yaml` is not among them: it is a name people choose for their one API.)
const GENERIC_FILE_STEMS: &[&str] = &["oas", "openapi", "schema", "spec", "swagger"];

/// Words a title ends with that say it is an API, not which one ("OpenAI API", "Prefect REST
/// API", "Discord HTTP API (Preview)").
const GENERIC_TITLE_WORDS: &[&str] = &[
    "api",
    "apis",
    "documentation",
    "http",
    "openapi",
    "rest",
    "server",
    "service",
    "spec",
    "specification",
    "web",
];

/// The crate-name stem of a document when none is given (the crates are `{stem}-server`,
/// `{stem}-client`, `{stem}-cli`; the CLI's variables `{STEM}_API_KEY`…): from its file
/// name (`api.github.com.json` → `api-github-com`), or, when the file name is generic
/// (`openapi.yaml`, `swagger.json`, `schema.json`), from its title without the words that
/// only say it is an API and without a parenthesised remark ("OpenAI API" → `openai`,
/// "Discord HTTP API (Preview)" → `discord`, "Prefect REST API" → `prefect`). A title with
/// nothing else left keeps the file name.
pub fn document_stem(file_stem: &str, title: &str) -> String {
    let from_file = crate_stem(file_stem);
    let lower = file_stem.to_ascii_lowercase();
    let meaningful: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            let version = w.trim_start_matches('v');
            !w.is_empty() && !version.chars().all(|c| c.is_ascii_digit())
        })
        .collect();
    if !meaningful.iter().all(|w| GENERIC_FILE_STEMS.contains(w)) {
        return from_file;
    }
    // Parenthesised remarks ("(Preview)", "(beta)") say nothing of the API.
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in title.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let stem = crate_stem(&plain);
    let mut words: Vec<&str> = stem.split('-').collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| GENERIC_TITLE_WORDS.contains(w))
    {
        words.pop();
    }
    let stem = words.join("-");
    if stem.is_empty() || GENERIC_TITLE_WORDS.contains(&stem.as_str()) {
        from_file
    } else {
        stem
    }
}

/// Whether cargo accepts `stem-server` as a package name (what `--name` must satisfy).
pub fn is_crate_stem(stem: &str) -> bool {
    !stem.is_empty()
        && stem.starts_with(|c: char| c.is_ascii_alphabetic())
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A `PascalCase` identifier for a type or an enum variant.
pub fn pascal(raw: &str) -> String {
    let mut s = words(raw).to_pascal_case();
    if s.is_empty() {
        s = "Value".to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'V');
    }
    keyword_safe(s)
}

/// The stem of the API's own names (the server's trait is `{stem}Api`): `explicit` (the
/// user's `--name`) when given, spelt as the title spells it when both are the same letters
/// (`petstore` and "Pet Store" → `PetStore`); else the title, without the words that only say
/// it is an API description ("OpenAPI", "API", "REST") or which version ("3.0", "v2"): "Swagger Petstore - OpenAPI 3.0" → `SwaggerPetstore`, "GitHub v3
/// REST API" → `GitHub`. A title of nothing but those words is kept whole; none at all is
/// `Service`.
pub fn api_stem(title: &str, explicit: Option<&str>) -> String {
    let letters = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let kept: Vec<&str> = title
        .split(|c: char| c.is_whitespace() || "-_/:()[],|".contains(c))
        .filter(|w| !w.is_empty() && !is_noise(w))
        .collect();
    let cleaned = kept.join(" ");
    let from_title = if cleaned.is_empty() {
        title
    } else {
        cleaned.as_str()
    };
    let chosen = match explicit {
        Some(name) if letters(name) != letters(from_title) && letters(name) != letters(title) => {
            name
        }
        _ => from_title,
    };
    // Only ever a prefix (`{stem}Api`), so a keyword (`self` → `Self_`) needs no escape:
    // `SelfApi`, not the non-camel-case `Self_Api`.
    let stem = pascal(chosen);
    let stem = bare(&stem).trim_end_matches('_').to_string();
    if stem == "Value" {
        "Service".into()
    } else {
        stem
    }
}

/// A name for a server the document does not describe, from its URL: the host's words (no
/// `www`, no port) and the path's, at most three (`https://api.github.com` → `ApiGithubCom`,
/// `/api/v3` → `ApiV3`, `http://localhost:8080/` → `Localhost`, `http://127.0.0.1/api` →
/// `Api`); `None` when the URL has no words (`/`).
pub fn server_from_url(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let (host, path) = if url.contains("://") {
        rest.split_once('/').unwrap_or((rest, ""))
    } else {
        ("", rest)
    };
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next().unwrap_or("");
    // An address says nothing a reader would name a server by.
    let host = if host.parse::<std::net::Ipv4Addr>().is_ok() || host.starts_with('[') {
        ""
    } else {
        host
    };
    let words: Vec<&str> = host
        .split('.')
        .filter(|w| !w.is_empty() && *w != "www")
        .chain(path.split(['/', '?', '#']).filter(|w| !w.is_empty()))
        .take(3)
        .collect();
    let name = pascal(&words.join(" "));
    (!words.is_empty() && name != "Value").then_some(name)
}

/// Title words that say the document is an API description, or which version it is.
fn is_noise(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    let numeric = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_digit())
            && s.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    // `v2`, `3.0`, `1.0.27`, `3`; not a year (`2024 Edition`).
    let version = match lower.strip_prefix('v') {
        Some(rest) => numeric(rest),
        None => numeric(&lower) && (lower.contains('.') || lower.len() <= 2),
    };
    version
        || matches!(
            lower.as_str(),
            "openapi" | "api" | "apis" | "rest" | "restful"
        )
}

/// `r#type` for keywords, `self_` for the words that cannot be raw.
fn keyword_safe(s: String) -> String {
    if NOT_RAW.contains(&s.as_str()) {
        format!("{s}_")
    } else if KEYWORDS.contains(&s.as_str()) {
        format!("r#{s}")
    } else {
        s
    }
}

/// The name without a raw-identifier prefix, for building derived names from it.
pub fn bare(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// What follows `handle_`/`serve_` for an operation method among `methods` (every
/// operation's): the name without its leading underscores (`_1st` → `handle_1st`:
/// `handle__1st` is not snake case), unless another method is spelled that way (`_x` beside
/// `x`), when the underscores stay and the router allows the lint where the name is defined.
pub fn handler_stem<'a>(method: &str, mut methods: impl Iterator<Item = &'a str>) -> String {
    let name = bare(method);
    let trimmed = name.trim_start_matches('_');
    if trimmed.is_empty() || (trimmed != name && methods.any(|m| bare(m) == trimmed)) {
        name.to_string()
    } else {
        trimmed.to_string()
    }
}

/// The client method of an operation that also takes its optional parameters
/// (`list_pets` → `list_pets_with`, `r#type` → `type_with`, `self_` → `self_with`).
/// The clippy lints a method taking `&self` (every operation's trait and client method) trips
/// by its name alone, which the document chose: `new` (`new_ret_no_self`,
/// `wrong_self_convention`), `from_…` (no `self` expected), `into_…` (`self` by value) and
/// `to_…_mut` (`&mut self`). The generated method keeps the name and allows them, as it keeps
/// `foo` (decision: book/src/reference/names.md).
pub fn self_convention_lints(method: &str) -> &'static [&'static str] {
    let method = bare(method);
    if method == "new" {
        &["clippy::new_ret_no_self", "clippy::wrong_self_convention"]
    } else if method.starts_with("from_")
        || method.starts_with("into_")
        || (method.starts_with("to_") && method.ends_with("_mut"))
    {
        &["clippy::wrong_self_convention"]
    } else {
        &[]
    }
}

pub fn with_method(method: &str) -> String {
    format!("{}_with", bare(method).trim_end_matches('_'))
}

/// The client method that sends an operation's body as `multipart/form-data` where the
/// document offers it beside JSON: `create_message` → `create_message_multipart`.
pub fn multipart_method(method: &str) -> String {
    format!("{}_multipart", bare(method).trim_end_matches('_'))
}

/// A command-line name (a subcommand, a flag) from a Rust or wire name: `list_pets` →
/// `list-pets`, `petId` → `pet-id`, `r#type` → `type`.
pub fn kebab(raw: &str) -> String {
    bare(&snake(raw)).trim_matches('_').replace('_', "-")
}

/// An environment variable of a generated tool: `env_var("pet-store", "API_KEY")` →
/// `PET_STORE_API_KEY`.
pub fn env_var(stem: &str, what: &str) -> String {
    format!("{}_{what}", stem.to_ascii_uppercase().replace('-', "_"))
}

/// The client method of a paginated operation that streams every item of every page
/// (`list_pets` → `list_pets_stream`).
pub fn stream_method(method: &str) -> String {
    format!("{}_stream", bare(method).trim_end_matches('_'))
}

/// The router's constant describing how an operation reads its path key (`route::PathPattern`),
/// from its handler stem (`get_account` → `PATH_GET_ACCOUNT`): the stems are unique, and no
/// other item of the router is spelled `PATH_…`.
pub fn path_pattern_const(handler_stem: &str) -> String {
    operation_const("PATH", handler_stem)
}

/// A router constant of one operation: `prefix` and its handler stem in upper case
/// (`ERRORS`, `get_account` → `ERRORS_GET_ACCOUNT`).
pub fn operation_const(prefix: &str, handler_stem: &str) -> String {
    format!("{prefix}_{}", bare(handler_stem).to_shouty_snake_case())
}

/// The builder-style setter of a field (`status` → `with_status`, `r#type` → `with_type`).
pub fn setter(field: &str) -> String {
    // `_2fa` → `with_2fa`: `with__2fa` is not snake case.
    match bare(field).trim_start_matches('_') {
        "" => "with_value".to_string(),
        name => format!("with_{name}"),
    }
}

/// Hands out names unique within one scope (a module, a struct's fields, an enum's
/// variants): the second `foo` becomes `foo_2`, the third `foo_3`.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    pub fn new() -> Self {
        Self::default()
    }

    /// A scope where these names are already taken (generated names a user name must avoid).
    pub fn reserving(names: &[&str]) -> Self {
        Self {
            taken: names.iter().map(|n| n.to_string()).collect(),
        }
    }

    /// Claims `name`, or the first free `name_N`/`NameN` after it.
    pub fn claim(&mut self, name: String) -> String {
        if self.taken.insert(name.clone()) {
            return name;
        }
        let base = bare(&name).to_string();
        // `Self_` + 2 must stay UpperCamelCase (`Self2`), `self_` + 2 snake_case (`self_2`).
        let trimmed = base.trim_end_matches('_').to_string();
        let (base, sep) = if base.starts_with(|c: char| c.is_ascii_uppercase()) {
            (trimmed, "")
        } else {
            (trimmed, "_")
        };
        (2..)
            .map(|n| format!("{base}{sep}{n}"))
            .find(|candidate| self.taken.insert(candidate.clone()))
            .expect("an unbounded range always yields a free name")
    }
}

/// The variant name for an HTTP status code, from its reason phrase (`404` → `NotFound`).
/// Named from the code, not from the response description, so editing prose never renames
/// a variant.
pub fn status_variant(code: u16) -> String {
    let reason = match code {
        100 => "Continue",
        101 => "SwitchingProtocols",
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritativeInformation",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        207 => "MultiStatus",
        300 => "MultipleChoices",
        301 => "MovedPermanently",
        302 => "Found",
        303 => "SeeOther",
        304 => "NotModified",
        307 => "TemporaryRedirect",
        308 => "PermanentRedirect",
        400 => "BadRequest",
        401 => "Unauthorized",
        402 => "PaymentRequired",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        408 => "RequestTimeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "LengthRequired",
        412 => "PreconditionFailed",
        413 => "PayloadTooLarge",
        414 => "UriTooLong",
        415 => "UnsupportedMediaType",
        416 => "RangeNotSatisfiable",
        417 => "ExpectationFailed",
        418 => "ImATeapot",
        421 => "MisdirectedRequest",
        422 => "UnprocessableEntity",
        423 => "Locked",
        424 => "FailedDependency",
        425 => "TooEarly",
        426 => "UpgradeRequired",
        428 => "PreconditionRequired",
        429 => "TooManyRequests",
        431 => "RequestHeaderFieldsTooLarge",
        451 => "UnavailableForLegalReasons",
        500 => "InternalServerError",
        501 => "NotImplemented",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        505 => "HttpVersionNotSupported",
        _ => return format!("Status{code}"),
    };
    reason.to_string()
}

/// The variant name for a status range such as `4XX`.
pub fn range_variant(class: u8) -> String {
    match class {
        1 => "Informational".into(),
        2 => "Success".into(),
        3 => "Redirection".into(),
        4 => "ClientError".into(),
        5 => "ServerError".into(),
        n => format!("Status{n}xx"),
    }
}

/// A stable operation name for an operation without `operationId`: method and path
/// (`GET /pets/{petId}` → `get_pets_pet_id`).
pub fn operation_from_route(method: &str, path: &str) -> String {
    let mut raw = method.to_lowercase();
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        raw.push('_');
        raw.push_str(segment.trim_matches(|c| c == '{' || c == '}'));
    }
    if raw == method.to_lowercase() {
        raw.push_str("_root");
    }
    raw
}

/// The plain name inside an `operationId` that a server framework wrote by its own pattern,
/// when `id` follows one (book/src/reference/names.md); `None` otherwise. The caller uses it only when no
/// other operation of the document has the same plain name.
///
/// - FastAPI: `{function}{path}` with every non-word character made `_`, then `_{method}`
///   (`create_item` on `POST /items/` → `create_item_items__post`); runs of `_` are compared
///   as one, so ids that a tool tidied still match.
/// - NestJS (`@nestjs/swagger`) and LoopBack 4: `{Controller}_{method}`, `{Controller}.{method}`
///   (`CatsController_findAll`, `TodoController.findById`).
/// - Spring (springfox): `{method}Using{METHOD}`, `_{n}` after it for a repeated name
///   (`getUserUsingGET_1`).
pub fn framework_plain_name(id: &str, method: &str, path: &str) -> Option<String> {
    let squeeze = |text: &str| {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if !(c == '_' && out.ends_with('_')) {
                out.push(c);
            }
        }
        out.trim_matches('_').to_owned()
    };
    let words = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let suffix = squeeze(&format!("{}_{}", words(path), method.to_ascii_lowercase()));
    let squeezed = squeeze(id);
    if let Some(plain) = squeezed
        .strip_suffix(&suffix)
        .and_then(|p| p.strip_suffix('_'))
        && !plain.is_empty()
    {
        return Some(plain.to_owned());
    }
    if let Some((controller, plain)) = id.split_once(['_', '.'])
        && controller.len() > "Controller".len()
        && controller.ends_with("Controller")
        && controller.chars().all(char::is_alphanumeric)
        && !plain.is_empty()
    {
        return Some(plain.to_owned());
    }
    let unnumbered = match id.rsplit_once('_') {
        Some((head, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => head,
        _ => id,
    };
    let upper = method.to_ascii_uppercase();
    unnumbered
        .strip_suffix(upper.as_str())
        .and_then(|p| p.strip_suffix("Using"))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
}

/// The private module that holds the items of the operations a set of cargo features compiles
/// (`["pets"]` → `operations_pets`, `["2010-04-01"]` → `operations_2010_04_01`, `["a", "b"]`
/// → `operations_a_or_b`): a prefix, as a feature may begin with a digit, and one no tag's own
/// name can collide with; a name `taken` already (a tag `a-or-b` beside the pair) gets a
/// number.
pub fn feature_module(features: &[String], taken: &[String]) -> String {
    let words: Vec<String> = features
        .iter()
        .map(|f| {
            f.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect()
        })
        .collect();
    let name = format!("operations_{}", words.join("_or_"));
    let mut unique = name.clone();
    let mut n = 2;
    while taken.contains(&unique) {
        unique = format!("{name}_{n}");
        n += 1;
    }
    unique
}

#[cfg(test)]
mod tests {

    #[test]
    fn framework_ids_give_their_plain_names() {
        use super::framework_plain_name as plain;
        let cases = [
            (
                "create_item_items__post",
                "post",
                "/items/",
                Some("create_item"),
            ),
            (
                "read_item_items__item_id__get",
                "get",
                "/items/{item_id}",
                Some("read_item"),
            ),
            // Tidied by a tool: one underscore where FastAPI writes two.
            (
                "read_item_items_item_id_get",
                "get",
                "/items/{item_id}",
                Some("read_item"),
            ),
            ("root__get", "get", "/", Some("root")),
            ("CatsController_findAll", "get", "/cats", Some("findAll")),
            (
                "TodoController.findById",
                "get",
                "/todos/{id}",
                Some("findById"),
            ),
            ("getUserUsingGET", "get", "/users/{id}", Some("getUser")),
            (
                "getUserUsingGET_1",
                "get",
                "/v2/users/{id}",
                Some("getUser"),
            ),
            // Names that only look alike stay as they are.
            ("task_get", "get", "/v1/tasks/{task_id}", None),
            ("items_post", "post", "/items", None),
            ("listPets", "get", "/pets", None),
            ("Controller_x", "get", "/x", None),
            ("deleteUsingPOST", "delete", "/x", None),
        ];
        for (id, method, path, expected) in cases {
            assert_eq!(plain(id, method, path).as_deref(), expected, "{id}");
        }
    }

    #[test]
    fn server_names_from_urls() {
        let name = |url: &str| server_from_url(url);
        assert_eq!(
            name("https://api.github.com").as_deref(),
            Some("ApiGithubCom")
        );
        assert_eq!(name("/api/v3").as_deref(), Some("ApiV3"));
        assert_eq!(name("http://localhost:8080/").as_deref(), Some("Localhost"));
        assert_eq!(
            name("https://www.example.com/api/v2/extra").as_deref(),
            Some("ExampleComApi")
        );
        assert_eq!(name("http://user@10.0.0.1:80/x").as_deref(), Some("X"));
        assert_eq!(name("http://127.0.0.1/api").as_deref(), Some("Api"));
        assert_eq!(name("/"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn api_stems_from_titles_and_names() {
        let stem = |title: &str, name: Option<&str>| api_stem(title, name);
        assert_eq!(
            stem("Swagger Petstore - OpenAPI 3.0", None),
            "SwaggerPetstore"
        );
        assert_eq!(
            stem("Swagger Petstore - OpenAPI 3.0", Some("petstore")),
            "Petstore"
        );
        assert_eq!(stem("Pet Store", None), "PetStore");
        assert_eq!(stem("Pet Store", Some("petstore")), "PetStore");
        assert_eq!(stem("Pet Store", Some("pet-store")), "PetStore");
        assert_eq!(stem("Lending Library", Some("library")), "Library");
        assert_eq!(stem("GitHub v3 REST API", None), "GitHub");
        assert_eq!(stem("OpenAI API", None), "OpenAi");
        assert_eq!(stem("Oas31", None), "Oas31");
        assert_eq!(stem("API", None), "Api");
        assert_eq!(stem("OpenAPI 3.1", None), "OpenApi31");
        assert_eq!(stem("", None), "Service");
        assert_eq!(stem("self", None), "Self");
        assert_eq!(stem("2024 Edition API", None), "V2024Edition");
    }
    use super::*;

    /// A generic file name gives way to the title: OpenAI's `openapi.yaml` names `openai-cli`
    /// and `OPENAI_API_KEY`, not `openapi-cli` and `OPENAPI_API_KEY`.
    #[test]
    fn generic_file_names_give_way_to_the_title() {
        assert_eq!(document_stem("openapi", "OpenAI API"), "openai");
        assert_eq!(
            env_var(&document_stem("openapi", "OpenAI API"), "API_KEY"),
            "OPENAI_API_KEY"
        );
        assert_eq!(
            document_stem("openapi", "Discord HTTP API (Preview)"),
            "discord"
        );
        assert_eq!(document_stem("schema", "Prefect REST API"), "prefect");
        assert_eq!(document_stem("3.1", "Scalar Galaxy"), "scalar-galaxy");
        assert_eq!(
            document_stem("swagger-2.0", "Swagger Petstore"),
            "swagger-petstore"
        );
        // A file name that names the API wins.
        assert_eq!(
            document_stem("api.github.com", "GitHub v3 REST API"),
            "api-github-com"
        );
        assert_eq!(document_stem("petstore", "Swagger Petstore"), "petstore");
        // A title that only says "an API" leaves the file name.
        assert_eq!(document_stem("openapi", "REST API"), "openapi");
        assert_eq!(document_stem("openapi", ""), "openapi");
        assert_eq!(
            document_stem("api", "T"),
            "api",
            "`api.yaml` is a chosen name"
        );
    }

    #[test]
    fn snake_names() {
        assert_eq!(snake("categoryId"), "category_id");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("1st-place"), "_1st_place");
        assert_eq!(snake("X-RateLimit-Limit"), "x_rate_limit_limit");
        assert_eq!(snake(""), "value");
        assert_eq!(snake("$ref"), "r#ref");
    }

    #[test]
    fn with_methods() {
        assert_eq!(with_method("list_pets"), "list_pets_with");
        assert_eq!(with_method("r#type"), "type_with");
        assert_eq!(with_method("self_"), "self_with");
        assert_eq!(with_method("_1st"), "_1st_with");
    }

    #[test]
    fn crate_stems() {
        assert_eq!(crate_stem("api.github.com"), "api-github-com");
        assert_eq!(crate_stem("Petstore"), "petstore");
        assert_eq!(crate_stem("3d_models"), "api-3d-models");
        assert_eq!(crate_stem("..."), "api");
        assert_eq!(crate_stem("twilio_iam scim"), "twilio-iam-scim");
        for raw in ["api.github.com", "3d", "", "a--b", "ünïcode"] {
            assert!(is_crate_stem(&crate_stem(raw)), "{raw}");
        }
        assert!(!is_crate_stem("api.github.com"));
        assert!(!is_crate_stem("1api"));
    }

    #[test]
    fn pascal_names() {
        assert_eq!(pascal("pet-status"), "PetStatus");
        assert_eq!(pascal("available"), "Available");
        assert_eq!(pascal("2xx"), "V2xx");
        assert_eq!(pascal("+1"), "Plus1");
        assert_eq!(pascal("-1"), "Minus1");
        assert_eq!(pascal("Self"), "Self_");
        assert_eq!(pascal("ÄÖ"), "Value");
    }

    #[test]
    fn scopes_dedupe() {
        let mut scope = Scope::reserving(&["Client"]);
        assert_eq!(scope.claim("Client".into()), "Client2");
        assert_eq!(scope.claim("Pet".into()), "Pet");
        assert_eq!(scope.claim("Pet".into()), "Pet2");
        assert_eq!(scope.claim("Self_".into()), "Self_");
        assert_eq!(scope.claim("Self_".into()), "Self2");
        let mut fields = Scope::new();
        assert_eq!(fields.claim("r#type".into()), "r#type");
        assert_eq!(fields.claim("r#type".into()), "type_2");
    }

    #[test]
    fn route_names() {
        assert_eq!(
            operation_from_route("GET", "/pets/{petId}"),
            "get_pets_petId"
        );
        assert_eq!(operation_from_route("POST", "/"), "post_root");
        assert_eq!(status_variant(404), "NotFound");
        assert_eq!(status_variant(299), "Status299");
    }

    #[test]
    fn a_feature_module_is_an_identifier_whatever_the_feature() {
        let owned = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let names = |f: &[&str]| feature_module(&owned(f), &[]);
        assert_eq!(names(&["pets"]), "operations_pets");
        assert_eq!(names(&["2010-04-01"]), "operations_2010_04_01");
        assert_eq!(
            names(&["rate-limit", "users"]),
            "operations_rate_limit_or_users"
        );
        let taken = owned(&["operations_a_or_b"]);
        assert_eq!(
            feature_module(&owned(&["a-or-b"]), &taken),
            "operations_a_or_b_2"
        );
    }
}
