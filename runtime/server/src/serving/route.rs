//! Path keys axum's router cannot tell apart on its own: a segment mixing parameters with text
//! (`/Accounts/{Sid}.json`, `/{name}.{format}`), paths of one shape under different parameter
//! names (`/templates/{project_id}` beside `/templates/{template_name}`), and path keys that
//! carry a constant query (`/responses?beta=true` beside `/responses`).
//!
//! The generator registers such paths as one axum route per shape, each of those segments a
//! whole-segment capture, and describes every operation's own key as a [`PathPattern`]: the
//! generated dispatch function picks the operation whose pattern the request matches
//! ([`select`]), and its handler reads its parameters through the pattern
//! ([`path_params`]).
//!
//! Decision: `docs/decisions/0001-routing-every-path-key.md`.

use axum::extract::Request;
use http::request::Parts;
use http::{HeaderValue, StatusCode};

use super::params::{self, PathParams};
use super::problem::Problem;

/// One part of a path segment as the document writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Text the segment must contain there, as written (compared with the percent-decoded
    /// segment).
    Text(&'static str),
    /// A path parameter (its name in the document): at least one character.
    Param(&'static str),
}

/// How one operation's path key reads a request on the route its shape is registered under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathPattern {
    /// Each captured segment that is not simply one of the operation's parameters under its
    /// own name: the capture's name in the route, and the pieces the segment is made of. Other
    /// captures are the operation's parameters as they are.
    pub segments: &'static [(&'static str, &'static [Piece])],
    /// `name=value` pairs the query string must hold (form-decoded), from a path key such as
    /// `/responses?beta=true`.
    pub query: &'static [(&'static str, &'static str)],
}

impl PathPattern {
    /// The pattern that matches every request on its route.
    pub const ANY: PathPattern = PathPattern {
        segments: &[],
        query: &[],
    };

    /// Whether a request with these captured segments and this query string (without `?`) is
    /// one of this key's.
    pub fn matches(&self, captured: &PathParams, query: Option<&str>) -> bool {
        // A parameter the key uses twice must have one value: read it all, only then.
        let segments_match = if self.repeats(captured) {
            self.params(captured).is_some()
        } else {
            self.segments.iter().all(|(capture, pieces)| {
                captured_value(captured, capture)
                    .is_some_and(|value| split_segment(pieces, value, &mut |_, _| {}))
            })
        };
        segments_match
            && self.query.iter().all(|(name, value)| {
                query
                    .unwrap_or("")
                    .split('&')
                    .any(|pair| params::query_value(pair, name).is_some_and(|v| v == *value))
            })
    }

    /// Whether a parameter the pattern reads out of a segment is read elsewhere too (another
    /// segment, or a capture under its own name): `/pairs/{a}/{b}/{a}`.
    fn repeats(&self, captured: &PathParams) -> bool {
        let read = || self.segments.iter().flat_map(|(_, pieces)| pieces.iter());
        read().any(|piece| {
            let Piece::Param(name) = piece else {
                return false;
            };
            // A capture the pattern reads is no value of its own (`{Sid}` of `{Sid}.json`).
            let as_is = |capture: &str| !self.segments.iter().any(|(c, _)| *c == capture);
            captured
                .iter()
                .any(|(capture, _)| capture == *name && as_is(capture))
                || read().filter(|other| *other == piece).count() > 1
        })
    }

    /// The operation's path parameters, by their names in the document: the captures the
    /// pattern does not describe as they are, and the parameters read out of those it does.
    /// `None` when a segment does not match, or a parameter the key uses twice
    /// (`/{a}/{b}/{a}`) has two values.
    pub fn params(&self, captured: &PathParams) -> Option<PathParams> {
        let mut out: Vec<(String, String)> = captured
            .iter()
            .filter(|(name, _)| !self.segments.iter().any(|(c, _)| c == name))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        for (capture, pieces) in self.segments {
            let value = captured_value(captured, capture)?;
            let mut found = Vec::new();
            if !split_segment(pieces, value, &mut |name, v| found.push((name, v))) {
                return None;
            }
            for (name, v) in found {
                match out.iter().find(|(n, _)| n.as_str() == name) {
                    Some((_, seen)) if seen.as_str() != v => return None,
                    Some(_) => {}
                    None => out.push((name.to_owned(), v.to_owned())),
                }
            }
        }
        Some(out.into_iter().collect())
    }
}

fn captured_value<'a>(captured: &'a PathParams, capture: &str) -> Option<&'a str> {
    captured
        .iter()
        .find_map(|(name, value)| (name == capture).then_some(value))
}

/// Whether `value` is made of `pieces`: each text exactly, each parameter at least one
/// character. A parameter takes as much as it can and still let the rest match
/// (`{name}.{format}` reads `a.tar.gz` as `a.tar` and `gz`). On a match, `each` gets every
/// parameter's value, in order.
fn split_segment<'v>(
    pieces: &[Piece],
    value: &'v str,
    each: &mut dyn FnMut(&'static str, &'v str),
) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return value.is_empty();
    };
    match first {
        Piece::Text(text) => value
            .strip_prefix(text)
            .is_some_and(|tail| split_segment(rest, tail, each)),
        Piece::Param(name) => match rest.first() {
            None if value.is_empty() => false,
            None => {
                each(name, value);
                true
            }
            // Where the parameter may end, longest value first.
            Some(Piece::Text(next)) => {
                for (end, _) in value.rmatch_indices(next) {
                    if end > 0 && split_segment(rest, &value[end..], &mut |_, _| {}) {
                        each(name, &value[..end]);
                        return split_segment(rest, &value[end..], each);
                    }
                }
                false
            }
            // Two parameters side by side cannot be told apart; the generator refuses them.
            Some(Piece::Param(_)) => false,
        },
    }
}

/// Which of `candidates` (most specific first, each a pattern and the methods its keys
/// declare, as an `Allow` header lists them: `"GET,HEAD,PUT"`) serves the request on a
/// dispatched route: the first whose pattern the request matches and that declares its
/// method. `Ok(None)`: no pattern matches (an unknown path, 404); `Err`: a 405 problem with
/// `Allow` listing the methods of every candidate that matches, or a 400 when a captured
/// segment is not valid percent-encoded UTF-8.
pub async fn select(
    request: Request,
    candidates: &[(&PathPattern, &str)],
) -> (Request, Result<Option<usize>, Problem>) {
    let (mut parts, body) = request.into_parts();
    let chosen = choose(&mut parts, candidates).await;
    (Request::from_parts(parts, body), chosen)
}

async fn choose(
    parts: &mut Parts,
    candidates: &[(&PathPattern, &str)],
) -> Result<Option<usize>, Problem> {
    let captured = params::path_params(parts).await?;
    let query = parts.uri.query();
    let method = parts.method.as_str();
    let mut allowed: Vec<&str> = Vec::new();
    for (i, (pattern, allow)) in candidates.iter().enumerate() {
        if !pattern.matches(&captured, query) {
            continue;
        }
        if allow.split(',').any(|m| m == method) {
            return Ok(Some(i));
        }
        for m in allow.split(',') {
            if !allowed.contains(&m) {
                allowed.push(m);
            }
        }
    }
    if allowed.is_empty() {
        return Ok(None);
    }
    let mut problem = Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("method {method} is not allowed on this path"),
    );
    if let Ok(value) = HeaderValue::try_from(allowed.join(",")) {
        problem.headers.insert(http::header::ALLOW, value);
    }
    Err(problem)
}

/// An operation's path parameters read through its pattern (see [`PathPattern::params`]): a
/// 404 problem when the request's path is not one of the key's (its dispatch function has
/// already chosen it, so that is only possible when the handler is reached another way).
pub async fn path_params(parts: &mut Parts, pattern: &PathPattern) -> Result<PathParams, Problem> {
    let captured = params::path_params(parts).await?;
    pattern.params(&captured).ok_or_else(Problem::not_found)
}
