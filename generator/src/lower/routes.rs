//! The server's routes: which axum route serves which path keys, and how each operation reads
//! its path parameters there. Decided here so that the router never refuses what the generator
//! accepted (axum panics in `router()` on a second parameter in a segment, text after a
//! parameter, or two routes of one shape under different parameter names).
//!
//! Every path key is read into segments: literal text axum can match as it is, a segment that
//! is exactly one parameter, or anything else (a parameter beside text, `{Sid}.json`,
//! `{name}.{format}`; text axum reads otherwise, such as a leading `:`), which becomes a
//! capture of the whole segment that the generated code matches. Keys are grouped by shape
//! (their literal segments, captures anywhere else): one route per shape, its captures named
//! after the first key's parameters. A shape with one plain key is served by axum's method
//! router, as before; any other by a generated dispatch function that tries the keys, most
//! specific first (most literal text, then most query pairs), then the method. Keys that no
//! request could tell apart and that declare the same method are refused with a located error.
//!
//! Decision: `docs/decisions/0001-routing-every-path-key.md`.

use crate::diag::{Sink, push};
use crate::ir::{Candidate, Dispatcher, Operation, PathPattern, PathPiece, Route, RouteServe};
use crate::naming::{self, Scope};

/// One path key, read.
#[derive(Debug, Clone, PartialEq)]
struct Key {
    /// The path without the query, as text and parameters ([`Operation::path_template`]).
    template: Vec<PathPiece>,
    query: Vec<(String, String)>,
    segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    /// Text axum matches as it is.
    Literal(String),
    /// Exactly one parameter.
    Param(String),
    /// Anything else: captured whole and matched by the generated code.
    Pieces(Vec<PathPiece>),
}

impl Segment {
    fn is_literal(&self) -> bool {
        matches!(self, Segment::Literal(_))
    }

    /// What a request must look like here, parameter names aside: `None` for a lone
    /// parameter (anything), the pieces otherwise.
    fn signature(&self) -> Option<Vec<PathPiece>> {
        match self {
            Segment::Literal(_) | Segment::Param(_) => None,
            Segment::Pieces(pieces) if matches!(pieces.as_slice(), [PathPiece::Param(_)]) => None,
            Segment::Pieces(pieces) => Some(
                pieces
                    .iter()
                    .map(|p| match p {
                        PathPiece::Text(t) => PathPiece::Text(t.clone()),
                        PathPiece::Param(_) => PathPiece::Param(String::new()),
                    })
                    .collect(),
            ),
        }
    }

    /// The literal characters a request must carry in this captured segment.
    fn text_len(&self) -> usize {
        match self {
            Segment::Pieces(pieces) => pieces
                .iter()
                .map(|p| match p {
                    PathPiece::Text(t) => t.chars().count(),
                    PathPiece::Param(_) => 0,
                })
                .sum(),
            _ => 0,
        }
    }
}

/// Reads a path key (`/Accounts/{Sid}.json`, `/responses?beta=true`); an error says what is
/// wrong with it.
fn read_key(raw: &str) -> Result<Key, String> {
    let (path, query) = match raw.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (raw, None),
    };
    let query = query.map(read_query).transpose()?.unwrap_or_default();
    let mut segments = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut template = Vec::new();
    // `/` alone is the root: no segment.
    if path == "/" {
        push_piece(&mut template, PathPiece::Text("/".into()));
    } else {
        for text in path.strip_prefix('/').unwrap_or(path).split('/') {
            let pieces = read_segment(text)?;
            push_piece(&mut template, PathPiece::Text("/".into()));
            for piece in &pieces {
                push_piece(&mut template, piece.clone());
            }
            // A parameter used again (`/{a}/{b}/{a}`, which OpenAPI allows) takes the same
            // value in both places: its second segment is captured under a name of its own
            // and read through the operation's pattern, which matches only equal values.
            let again = pieces
                .iter()
                .any(|p| matches!(p, PathPiece::Param(name) if seen.contains(name)));
            for piece in &pieces {
                if let PathPiece::Param(name) = piece {
                    seen.push(name.clone());
                }
            }
            segments.push(match pieces.as_slice() {
                [PathPiece::Param(name)] if is_capture_name(name) && !again => {
                    Segment::Param(name.clone())
                }
                [] => Segment::Literal(String::new()),
                [PathPiece::Text(t)] if axum_literal(t) => Segment::Literal(t.clone()),
                _ => Segment::Pieces(pieces),
            });
        }
    }
    Ok(Key {
        template,
        query,
        segments,
    })
}

/// Adds `piece` to a template, joining text to the text before it.
fn push_piece(template: &mut Vec<PathPiece>, piece: PathPiece) {
    match (template.last_mut(), piece) {
        (_, PathPiece::Text(t)) if t.is_empty() => {}
        (Some(PathPiece::Text(last)), PathPiece::Text(t)) => last.push_str(&t),
        (_, piece) => template.push(piece),
    }
}

fn read_segment(text: &str) -> Result<Vec<PathPiece>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            None => {
                pieces.push(PathPiece::Text(rest.to_string()));
                break;
            }
            Some(i) if rest.as_bytes()[i] == b'}' => {
                return Err(format!(
                    "`}}` without its `{{` in the path segment `{text}`"
                ));
            }
            Some(i) => {
                if i > 0 {
                    pieces.push(PathPiece::Text(rest[..i].to_string()));
                }
                let Some(len) = rest[i..].find('}') else {
                    return Err(format!(
                        "`{{` without its `}}` in the path segment `{text}`"
                    ));
                };
                let name = &rest[i + 1..i + len];
                if name.is_empty() || name.contains('{') {
                    return Err(format!(
                        "`{{{name}}}` in the path segment `{text}` does not name a parameter"
                    ));
                }
                if matches!(pieces.last(), Some(PathPiece::Param(_))) {
                    return Err(format!(
                        "two parameters with nothing between them in the path segment `{text}`: no request tells where one ends"
                    ));
                }
                pieces.push(PathPiece::Param(name.to_string()));
                rest = &rest[i + len + 1..];
            }
        }
    }
    Ok(pieces)
}

/// A query written into a path key: `name=value` pairs, form-decoded.
fn read_query(query: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if name.contains(['{', '}']) || value.contains(['{', '}']) {
            return Err(format!(
                "the query `{query}` of the path holds a template; only constant pairs are supported there"
            ));
        }
        pairs.push((form_decode(name), form_decode(value)));
    }
    Ok(pairs)
}

/// `+` as a space and `%XX` as its byte (a `%` without two hex digits kept as written).
fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', h, l]) => (*h as char).to_digit(16).zip((*l as char).to_digit(16)),
            _ => None,
        };
        match (bytes[i], escaped) {
            (_, Some((h, l))) => {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
            (b'+', None) => out.push(b' '),
            (b, None) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether axum's router takes the name as a capture's (no `*`, which marks a catch-all).
fn is_capture_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['*', '/', '{', '}'])
}

/// Whether axum matches the text as it is: it must not start with `:` or `*` (axum refuses
/// those as the syntax of its former captures) and must be what a client sends unencoded
/// (RFC 3986 `pchar` without `%`), since the router compares it with the path as sent.
fn axum_literal(text: &str) -> bool {
    !text.starts_with([':', '*'])
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b))
}

/// Plans the routes of `ops` (in document order) and sets each operation's `path_template`,
/// `path_query` and `path_pattern`. Problems go to `sink`: a key that cannot be read, and
/// keys no request can tell apart that declare the same method.
pub fn plan(ops: &mut [Operation], sink: &mut Sink) -> Vec<Route> {
    // Read each key once; an unreadable key gets one error and no route (generation stops).
    let mut keys: Vec<Option<Key>> = Vec::new();
    let mut reported: Vec<String> = Vec::new();
    for op in ops.iter() {
        // The loader refuses keys that do not start with `/`.
        match read_key(&op.path) {
            Ok(key) => keys.push(Some(key)),
            Err(message) => {
                if !reported.contains(&op.path) {
                    sink.error(push("/paths", &op.path), message);
                }
                keys.push(None);
            }
        }
        reported.push(op.path.clone());
    }
    for (op, key) in ops.iter_mut().zip(&keys) {
        if let Some(key) = key {
            if !key.query.is_empty() && op.query_string.is_some() {
                sink.error(
                    push(&push("/paths", &op.path), &op.method.to_ascii_lowercase()),
                    "an operation whose path carries a query cannot also take the whole query string (`in: querystring`)",
                );
            }
            op.path_template = key.template.clone();
            op.path_query = key.query.clone();
        }
    }

    // Shapes in order of first appearance, each with its operations.
    type Shape = Vec<Option<String>>;
    let shape_of = |key: &Key| -> Shape {
        key.segments
            .iter()
            .map(|s| match s {
                Segment::Literal(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    };
    let mut groups: Vec<(Shape, Vec<usize>)> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        let shape = shape_of(key);
        match groups.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, members)) => members.push(i),
            None => groups.push((shape, vec![i])),
        }
    }

    let mut dispatchers = Scope::new();
    let mut constants = Scope::new();
    let mut routes = Vec::new();
    for (_, members) in groups {
        let first = keys[members[0]].as_ref().expect("grouped keys were read");
        let captures = capture_names(first);
        let pattern = route_pattern(first, &captures);
        // Each operation's own pattern, when its parameters are not the captures as they are.
        for &i in &members {
            let key = keys[i].as_ref().expect("grouped keys were read");
            let segments: Vec<(String, Vec<PathPiece>)> = key
                .segments
                .iter()
                .filter(|s| !s.is_literal())
                .zip(&captures)
                .filter_map(|(segment, capture)| match segment {
                    Segment::Param(name) if name == capture => None,
                    Segment::Param(name) => {
                        Some((capture.clone(), vec![PathPiece::Param(name.clone())]))
                    }
                    Segment::Pieces(pieces) => Some((capture.clone(), pieces.clone())),
                    Segment::Literal(_) => None,
                })
                .collect();
            if !segments.is_empty() || !key.query.is_empty() {
                let stem = naming::handler_stem(&ops[i].rust, ops.iter().map(|o| o.rust.as_str()));
                ops[i].path_pattern = Some(PathPattern {
                    rust: constants.claim(naming::path_pattern_const(&stem)),
                    segments,
                    query: key.query.clone(),
                });
            }
        }
        let candidates = candidates(ops, &keys, &members, sink);
        // axum's method router when every request on the route is for the same keys (their
        // handlers read renamed captures through their patterns) and it names every method.
        let simple = matches!(candidates.as_slice(), [only] if only.pattern.is_none())
            && members.iter().all(|&i| ops[i].standard_method);
        let serve = if simple {
            RouteServe::Methods(members.clone())
        } else {
            // `/2010-04-01/…` snakes to `_2010_04_01_…`: `dispatch__2010` would not be
            // snake case (rustc's `non_snake_case`).
            let stem = naming::snake(&pattern).trim_start_matches('_').to_string();
            let stem = if stem.is_empty() {
                "root".to_string()
            } else {
                stem
            };
            RouteServe::Dispatch(Dispatcher {
                rust: dispatchers.claim(format!("dispatch_{stem}")),
                candidates,
            })
        };
        routes.push(Route { pattern, serve });
    }
    // A pattern is printed only where it is read: by the handler (its parameters) or by the
    // dispatch function (to tell the keys apart).
    let matched: Vec<String> = routes
        .iter()
        .filter_map(|r| match &r.serve {
            RouteServe::Dispatch(d) => Some(d),
            RouteServe::Methods(_) => None,
        })
        .flat_map(|d| d.candidates.iter().filter_map(|c| c.pattern.clone()))
        .collect();
    for op in ops.iter_mut() {
        if op
            .path_pattern
            .as_ref()
            .is_some_and(|p| p.segments.is_empty() && !matched.contains(&p.rust))
        {
            op.path_pattern = None;
        }
    }
    routes
}

/// The route's capture names, one per non-literal segment of the shape's first key: a lone
/// parameter's own name, else its parameters' names joined (`{name}.{format}` →
/// `name_format`) or `segment{N}`; unique within the route.
fn capture_names(key: &Key) -> Vec<String> {
    let mut taken = Scope::new();
    key.segments
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_literal())
        .map(|(n, s)| {
            let name = match s {
                Segment::Param(name) => name.clone(),
                Segment::Pieces(pieces) => {
                    let names: Vec<&str> = pieces
                        .iter()
                        .filter_map(|p| match p {
                            PathPiece::Param(name) if is_capture_name(name) => Some(name.as_str()),
                            _ => None,
                        })
                        .collect();
                    if names.is_empty() {
                        format!("segment{}", n + 1)
                    } else {
                        names.join("_")
                    }
                }
                Segment::Literal(_) => unreachable!("filtered out"),
            };
            taken.claim(name)
        })
        .collect()
}

/// The axum pattern of a shape: literal segments as written, every other segment a capture.
fn route_pattern(key: &Key, captures: &[String]) -> String {
    if key.segments.is_empty() {
        return "/".to_string();
    }
    let mut captures = captures.iter();
    let mut out = String::new();
    for segment in &key.segments {
        out.push('/');
        match segment {
            Segment::Literal(text) => out.push_str(text),
            _ => {
                let name = captures
                    .next()
                    .expect("one capture per non-literal segment");
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
    }
    out
}

/// The dispatch candidates of a shape's operations: those no request can tell apart (same
/// text in the same captured segments, same query pairs) together, most specific first.
fn candidates(
    ops: &[Operation],
    keys: &[Option<Key>],
    members: &[usize],
    sink: &mut Sink,
) -> Vec<Candidate> {
    type Signature = (Vec<Option<Vec<PathPiece>>>, Vec<(String, String)>);
    let mut groups: Vec<(Signature, usize, Vec<usize>)> = Vec::new();
    for &i in members {
        let key = keys[i].as_ref().expect("grouped keys were read");
        let mut query = key.query.clone();
        query.sort();
        let signature: Signature = (key.segments.iter().map(Segment::signature).collect(), query);
        let specificity = key.segments.iter().map(Segment::text_len).sum::<usize>();
        match groups.iter_mut().find(|(s, _, _)| *s == signature) {
            Some((_, _, ops_of)) => ops_of.push(i),
            None => groups.push((signature, specificity, vec![i])),
        }
    }
    // Most literal text first, then most query pairs; the document's order otherwise.
    groups.sort_by_key(|((_, query), text, _)| std::cmp::Reverse((*text, query.len())));
    groups
        .into_iter()
        .map(|((segments, query), _, members)| {
            let mut methods: Vec<(String, usize)> = Vec::new();
            let mut paths: Vec<String> = Vec::new();
            for &i in &members {
                let op = &ops[i];
                if let Some(&(_, other)) = methods.iter().find(|(m, _)| *m == op.method) {
                    let other = &ops[other];
                    sink.error(
                        push(&push("/paths", &op.path), &op.method.to_ascii_lowercase()),
                        format!(
                            "`{} {}` cannot be told apart from `{} {}` (operation `{}`): the paths have the same shape, text and query, and only their parameter names differ (OpenAPI: templated paths with the same hierarchy but different parameter names must not exist)",
                            op.method, op.path, other.method, other.path, other.id
                        ),
                    );
                    continue;
                }
                methods.push((op.method.clone(), i));
                if !paths.contains(&op.path) {
                    paths.push(op.path.clone());
                }
            }
            if methods.iter().any(|(m, _)| m == "GET") && !methods.iter().any(|(m, _)| m == "HEAD") {
                let get = methods.iter().position(|(m, _)| m == "GET").expect("checked");
                let operation = methods[get].1;
                methods.insert(get + 1, ("HEAD".to_string(), operation));
            }
            let allow = methods
                .iter()
                .map(|(m, _)| m.as_str())
                .collect::<Vec<_>>()
                .join(",");
            let matches_all = segments.iter().all(Option::is_none) && query.is_empty();
            let pattern = (!matches_all)
                .then(|| members.iter().find_map(|&i| ops[i].path_pattern.as_ref()))
                .flatten()
                .map(|p| p.rust.clone());
            Candidate {
                paths,
                pattern,
                methods,
                allow,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(raw: &str) -> Vec<Segment> {
        read_key(raw).unwrap().segments
    }

    #[test]
    fn keys_are_read_into_segments() {
        assert_eq!(
            pieces("/a/{id}/b.json/{Sid}.json/v{n}/:x"),
            vec![
                Segment::Literal("a".into()),
                Segment::Param("id".into()),
                Segment::Literal("b.json".into()),
                Segment::Pieces(vec![
                    PathPiece::Param("Sid".into()),
                    PathPiece::Text(".json".into())
                ]),
                Segment::Pieces(vec![
                    PathPiece::Text("v".into()),
                    PathPiece::Param("n".into())
                ]),
                Segment::Pieces(vec![PathPiece::Text(":x".into())]),
            ]
        );
        assert_eq!(pieces("/"), vec![]);
        assert_eq!(
            pieces("/a/"),
            vec![
                Segment::Literal("a".into()),
                Segment::Literal(String::new())
            ]
        );
        let key = read_key("/responses/{id}?beta=true&x=a+b%21").unwrap();
        assert_eq!(
            key.template,
            vec![
                PathPiece::Text("/responses/".into()),
                PathPiece::Param("id".into())
            ]
        );
        // The whole path, text joined across segments; the root is `/`, an empty segment
        // its slash.
        let template = |key: &str| read_key(key).unwrap().template;
        assert_eq!(template("/"), vec![PathPiece::Text("/".into())]);
        assert_eq!(template("/a//b/"), vec![PathPiece::Text("/a//b/".into())]);
        assert_eq!(
            template("/{Sid}.json/x{n}"),
            vec![
                PathPiece::Text("/".into()),
                PathPiece::Param("Sid".into()),
                PathPiece::Text(".json/x".into()),
                PathPiece::Param("n".into()),
            ]
        );
        assert_eq!(
            key.query,
            vec![
                ("beta".to_string(), "true".to_string()),
                ("x".to_string(), "a b!".to_string())
            ]
        );
    }

    #[test]
    fn unreadable_keys_say_why() {
        for (key, says) in [
            ("/a/{id", "without its `}`"),
            ("/a/id}", "without its `{`"),
            ("/a/{}", "does not name a parameter"),
            ("/a/{x}{y}", "nothing between them"),
            ("/a?b={c}", "holds a template"),
        ] {
            let err = read_key(key).unwrap_err();
            assert!(err.contains(says), "{key}: {err}");
        }
    }
}
