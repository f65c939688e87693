//! Parameters → `ir::Param`: path-level ones merged with the operation's, styles and
//! `explode`, the path template reconciled with the path parameters, and 3.2's
//! `in: querystring` (the whole query as one value).

use super::*;
use crate::ir::Style;

impl Ctx<'_> {
    pub(super) fn params(
        &self,
        path_level: &[ReferenceOr<Parameter>],
        op_level: &[ReferenceOr<Parameter>],
        path: &str,
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Vec<Param> {
        // Operation-level parameters override path-level ones with the same name and location.
        let mut merged: Vec<(&Parameter, String)> = Vec::new();
        let levels = [
            (path_level, push(&push("/paths", path), "parameters")),
            (op_level, push(self.at, "parameters")),
        ];
        for (list, list_at) in &levels {
            for (i, p) in list.iter().enumerate() {
                // A reference to a component `in: querystring` parameter: see `query_string`.
                if querystring_component(self.doc, p).is_some() {
                    continue;
                }
                match load::parameter(self.doc, p, &push(list_at, &i.to_string())) {
                    Ok((param, at)) => {
                        let key = (param.parameter_data_ref().name.clone(), location(param));
                        merged.retain(|(q, _)| {
                            (q.parameter_data_ref().name.clone(), location(q)) != key
                        });
                        merged.push((param, at));
                    }
                    Err(d) => sink.items.push(d),
                }
            }
        }
        let mut scope = Scope::new();
        let mut locals = Scope::reserving(&reserved::parameter_locals());
        let mut out = Vec::new();
        let mut pointers = Vec::new();
        // The query's names: what a map sent member by member (`style: form`, exploded) is
        // not.
        let query_names: Vec<String> = merged
            .iter()
            .filter(|(p, _)| location(p) == Location::Query)
            .map(|(p, _)| p.parameter_data_ref().name.clone())
            .collect();
        for (param, at) in merged {
            let data = param.parameter_data_ref();
            let loc = location(param);
            // OpenAPI says these three are described elsewhere (content negotiation, security),
            // and the parameter ignored. Without a security requirement nothing else would
            // send `Authorization` (keeper's "Authorization header (bearer token)"): the
            // parameter is kept then, as declared.
            if loc == Location::Header {
                let ignored = match data.name.to_ascii_lowercase().as_str() {
                    "accept" | "content-type" => {
                        Some("the client sets it from the document's media types")
                    }
                    "authorization" if self.secured => {
                        Some("the operation's security scheme sets it")
                    }
                    _ => None,
                };
                if let Some(why) = ignored {
                    sink.warn(
                        &at,
                        format!(
                            "header parameter `{}` is ignored, as OpenAPI says: {why}",
                            data.name
                        ),
                    );
                    continue;
                }
            }
            let hint = format!("{}{}", self.stem, naming::pascal(&data.name));
            let (ty, constraints, default, mut doc) = match &data.format {
                ParameterSchemaOrContent::Schema(s) => {
                    let sref = SchemaRef::of(s);
                    let constraints = schemas.constraints(SchemaRef::of(s));
                    let default = schemas.default_value(SchemaRef::of(s));
                    let doc = schemas.description(SchemaRef::of(s));
                    let ty = schemas.type_of(sref, &hint, &push(&at, "schema"), sink);
                    (ty, constraints, default, doc)
                }
                ParameterSchemaOrContent::Content(_) => {
                    sink.warn(&at, "parameter with `content` is passed as a plain string");
                    (TypeRef::String, Default::default(), None, Vec::new())
                }
            };
            let object = object_style(param, &ty, schemas, &query_names);
            // One value or several (`oneOf: [T, array of T]`) in the query: a list.
            let (ty, constraints) = match (param, schemas.one_or_many(&ty)) {
                (Parameter::Query { .. }, Some(many)) if data.explode != Some(false) => many,
                _ => (ty, constraints),
            };
            let ty = match ty {
                TypeRef::Vec(inner) if schemas.is_scalar(&inner) => TypeRef::Vec(inner),
                t if schemas.is_scalar(&t) || object.is_some() => t,
                other => {
                    sink.warn(
                        &at,
                        format!(
                            "{} parameters are not supported yet (only strings, numbers, booleans, enumerations, arrays of them, objects of them, and in the query objects of those and lists); the value is passed as a plain string",
                            describe(&other)
                        ),
                    );
                    TypeRef::String
                }
            };
            if !data.description.as_deref().unwrap_or_default().is_empty() {
                doc = doc_lines(data.description.as_deref());
            }
            let explode = data.explode.unwrap_or(matches!(
                param,
                Parameter::Query { .. } | Parameter::Cookie { .. }
            ));
            let (delimiter, as_sent) = style(param, &ty, object.is_some(), &at, sink);
            let style = style_of(param);
            let allow_reserved = matches!(
                param,
                Parameter::Query {
                    allow_reserved: true,
                    ..
                }
            );
            let rust = scope.claim(naming::snake(&data.name));
            pointers.push(at.clone());
            let inline_example = match &data.format {
                ParameterSchemaOrContent::Schema(ReferenceOr::Item(s)) => {
                    s.schema_data.example.clone()
                }
                _ => None,
            };
            let example = body::example_values(self.doc, data.example.as_ref(), &data.examples)
                .into_iter()
                .next()
                .or(inline_example);
            out.push(Param {
                local: locals.claim(rust.clone()),
                setter: naming::setter(&rust),
                rust,
                wire: data.name.clone(),
                location: loc,
                check_ty: ty.clone(),
                ty,
                required: data.required || loc == Location::Path,
                explode,
                delimiter,
                as_sent,
                style,
                allow_reserved,
                default,
                example,
                constraints,
                doc,
                deprecated: data.deprecated.unwrap_or(false),
                object,
                held: None,
            });
        }
        reconcile_path(path, &mut out, &pointers, sink);
        // As for struct fields: setter names unique even where field names differ by `_`.
        let mut setters = Scope::new();
        for p in &mut out {
            p.setter = setters.claim(std::mem::take(&mut p.setter));
        }
        out
    }

    /// 3.2 `in: querystring`: the whole query string as one value. The loader moves such
    /// parameters to `x-apigen-querystring` (operation or path item); references to component
    /// ones stay in `parameters`. The operation's own wins over its path item's.
    pub(super) fn query_string(
        &self,
        item: &PathItem,
        op: &openapiv3::Operation,
        path_at: &str,
        params: &[Param],
        schemas: &mut Schemas<'_>,
        sink: &mut Sink,
    ) -> Option<QueryString> {
        let mut found: Vec<(serde_json::Value, String)> = Vec::new();
        for (ext, parameters, at) in [
            (&op.extensions, &op.parameters, self.at),
            (&item.extensions, &item.parameters, path_at),
        ] {
            let mut here = Vec::new();
            if let Some(serde_json::Value::Array(list)) = ext.get("x-apigen-querystring") {
                let list_at = push(at, "x-apigen-querystring");
                for (i, p) in list.iter().enumerate() {
                    here.push((p.clone(), push(&list_at, &i.to_string())));
                }
            }
            for (i, p) in parameters.iter().enumerate() {
                if let Some(p) = querystring_component(self.doc, p) {
                    here.push((p.clone(), push(&push(at, "parameters"), &i.to_string())));
                }
            }
            if found.is_empty() {
                found = here;
            }
        }
        let mut found = found.into_iter();
        let (param, at) = found.next()?;
        for (_, other) in found {
            sink.error(
                other,
                "an operation has at most one `in: querystring` parameter",
            );
        }
        if let Some(q) = params.iter().find(|p| p.location == Location::Query) {
            sink.error(
                &at,
                format!(
                    "`in: querystring` describes the whole query string; it cannot be combined with the `in: query` parameter `{}`",
                    q.wire
                ),
            );
        }
        let name = param
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("query");
        let required = param
            .get("required")
            .and_then(|r| r.as_bool())
            .unwrap_or(false);
        let doc = doc_lines(param.get("description").and_then(|d| d.as_str()));
        let content = param.get("content").and_then(|c| c.as_object());
        let kind = match content.and_then(|c| c.iter().next()) {
            Some((media, value)) => {
                let essence = media
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                let schema_at = push(&push(&push(&at, "content"), media), "schema");
                let json = essence == "application/json" || essence.ends_with("+json");
                match value.get("schema") {
                    Some(schema) if json => {
                        let hint = format!("{}Query", self.stem);
                        match serde_json::from_value::<ReferenceOr<Schema>>(schema.clone()) {
                            Ok(s) => QueryStringKind::Json(schemas.type_of(
                                SchemaRef::of(&s),
                                &hint,
                                &schema_at,
                                sink,
                            )),
                            Err(e) => {
                                sink.error(&schema_at, format!("not a valid Schema: {e}"));
                                QueryStringKind::Raw
                            }
                        }
                    }
                    Some(schema) if essence == "application/x-www-form-urlencoded" => {
                        let hint = format!("{}Query", self.stem);
                        match serde_json::from_value::<ReferenceOr<Schema>>(schema.clone()) {
                            Ok(s) => {
                                let ty =
                                    schemas.type_of(SchemaRef::of(&s), &hint, &schema_at, sink);
                                if schemas.is_scalar(&ty) || matches!(ty, TypeRef::Vec(_)) {
                                    sink.warn(
                                        &schema_at,
                                        "a form-encoded query string is read into an object's fields; this schema is not an object, so the query string is passed as sent",
                                    );
                                    QueryStringKind::Raw
                                } else {
                                    QueryStringKind::Form(ty)
                                }
                            }
                            Err(e) => {
                                sink.error(&schema_at, format!("not a valid Schema: {e}"));
                                QueryStringKind::Raw
                            }
                        }
                    }
                    _ => {
                        sink.warn(
                            push(&push(&at, "content"), media),
                            format!(
                                "only `application/x-www-form-urlencoded` and JSON query strings are typed yet; `{media}` is passed as the query string as sent"
                            ),
                        );
                        QueryStringKind::Raw
                    }
                }
            }
            None => {
                sink.warn(
                    &at,
                    "an `in: querystring` parameter is described by `content`; without it the query string is passed as sent",
                );
                QueryStringKind::Raw
            }
        };
        let mut locals = Scope::reserving(&reserved::parameter_locals());
        for p in params {
            locals.claim(p.local.clone());
        }
        Some(QueryString {
            rust: locals.claim(naming::snake(name)),
            wire: name.to_string(),
            kind,
            required,
            doc,
        })
    }
}

/// A map sent member by member (`ObjectStyle::Rest`) is every pair nobody else names: beside
/// the other query parameters, the members of structs sent the same way and the query keys of
/// the operation's security schemes (a key must not land in the implementation's map).
pub(super) fn rest_leaves_others(
    params: &mut [Param],
    security: &[Vec<String>],
    schemes: &[SecurityScheme],
) {
    let mut taken: Vec<String> = params
        .iter()
        .filter_map(|p| match &p.object {
            Some(ObjectStyle::Members(names)) => Some(names.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    taken.extend(
        schemes
            .iter()
            .filter(|s| security.iter().flatten().any(|name| *name == s.name))
            .filter_map(|s| match &s.kind {
                SchemeKind::ApiKeyQuery(key) => Some(key.clone()),
                _ => None,
            }),
    );
    for p in params {
        if let Some(ObjectStyle::Rest(names)) = &mut p.object {
            for name in &taken {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
}

/// How an object-valued query parameter's members are sent, when the parameter is one: in
/// the query, of a type whose members are scalars (or lists of them), in `style: form` or
/// `deepObject`. `query_names` are the names of the operation's query parameters.
pub(super) fn object_style(
    p: &Parameter,
    ty: &TypeRef,
    schemas: &Schemas<'_>,
    query_names: &[String],
) -> Option<ObjectStyle> {
    use openapiv3::QueryStyle;
    // Outside the query, an object is one value in its style: a path segment, a header, a
    // cookie not exploded (an exploded one would be a cookie per member, which OpenAPI's
    // Appendix D leaves undefined: it stays a plain string, with a warning).
    let styled = || schemas.scalar_object(ty).then_some(ObjectStyle::Styled);
    let (parameter_data, style) = match p {
        Parameter::Query {
            parameter_data,
            style,
            ..
        } => (parameter_data, style),
        Parameter::Path { .. } | Parameter::Header { .. } => return styled(),
        Parameter::Cookie { parameter_data, .. } => {
            return match parameter_data.explode {
                Some(false) => styled(),
                _ => None,
            };
        }
    };
    if matches!(
        style,
        QueryStyle::PipeDelimited | QueryStyle::SpaceDelimited
    ) {
        return styled();
    }
    let members = schemas.query_object(ty)?;
    let explode = parameter_data.explode.unwrap_or(true);
    Some(match (style, members) {
        (QueryStyle::DeepObject, _) => ObjectStyle::Deep,
        (QueryStyle::Form, _) if !explode => ObjectStyle::Joined,
        (QueryStyle::Form, Some(members)) => ObjectStyle::Members(members),
        (QueryStyle::Form, None) => ObjectStyle::Rest(
            query_names
                .iter()
                .filter(|n| **n != parameter_data.name)
                .cloned()
                .collect(),
        ),
        _ => return None,
    })
}

/// The parameter's `style` as the document says it, or its location's default (`simple` in
/// the path and headers, `form` in the query and cookies).
pub(super) fn style_of(p: &Parameter) -> Style {
    use openapiv3::{CookieStyle, HeaderStyle, PathStyle, QueryStyle};
    match p {
        Parameter::Path { style, .. } => match style {
            PathStyle::Simple => Style::Simple,
            PathStyle::Label => Style::Label,
            PathStyle::Matrix => Style::Matrix,
        },
        Parameter::Query { style, .. } => match style {
            QueryStyle::Form => Style::Form,
            QueryStyle::SpaceDelimited => Style::SpaceDelimited,
            QueryStyle::PipeDelimited => Style::PipeDelimited,
            QueryStyle::DeepObject => Style::DeepObject,
        },
        Parameter::Header {
            style: HeaderStyle::Simple,
            ..
        } => Style::Simple,
        Parameter::Cookie {
            style: CookieStyle::Form,
            ..
        } => Style::Form,
    }
}

/// How a parameter's value is written (`style`): the delimiter of an array's items and
/// whether a cookie is sent as it is. A style the generated code does not write is said, not
/// ignored. `object`: the value is an object written member by member (`object_style`).
pub(super) fn style(
    p: &Parameter,
    ty: &TypeRef,
    object: bool,
    at: &str,
    sink: &mut Sink,
) -> (char, bool) {
    use openapiv3::QueryStyle;
    let array = matches!(ty, TypeRef::Vec(_));
    match p {
        Parameter::Query { style, .. } => match style {
            QueryStyle::Form => (',', false),
            QueryStyle::SpaceDelimited if array => (' ', false),
            QueryStyle::PipeDelimited if array => ('|', false),
            QueryStyle::SpaceDelimited | QueryStyle::PipeDelimited => (',', false),
            QueryStyle::DeepObject if object => (',', false),
            QueryStyle::DeepObject => {
                sink.warn(
                    push(at, "style"),
                    "`deepObject` is for objects, which are passed as a plain string here: the value is written as `form`",
                );
                (',', false)
            }
        },
        // `label` and `matrix` are written and read by the runtime's `style` module.
        Parameter::Path { .. } => (',', false),
        Parameter::Cookie { parameter_data, .. } => {
            let cookie = parameter_data
                .extensions
                .get("x-apigen-style")
                .and_then(|v| v.as_str())
                == Some("cookie");
            if cookie && array {
                sink.warn(
                    push(at, "style"),
                    "an array cookie of `style: cookie` is read and written as `style: form` (its items percent-encoded)",
                );
                return (',', false);
            }
            (',', cookie)
        }
        Parameter::Header { .. } => (',', false),
    }
}

pub(super) fn location(p: &Parameter) -> Location {
    match p {
        Parameter::Path { .. } => Location::Path,
        Parameter::Query { .. } => Location::Query,
        Parameter::Header { .. } => Location::Header,
        Parameter::Cookie { .. } => Location::Cookie,
    }
}

/// Path parameters against the template's `{names}`. A document may spell them apart
/// (openai: `{certificate_id}` described by a parameter `cert_id`): when the parameters
/// missing from the template and the names without a parameter are as many, each fills the
/// placeholder at its place, with a warning; otherwise a parameter the path cannot carry is
/// left out (a warning names it), and a name without a parameter is sent as written.
pub(super) fn reconcile_path(
    path: &str,
    params: &mut Vec<Param>,
    pointers: &[String],
    sink: &mut Sink,
) {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        names.push(rest[start + 1..start + len].to_string());
        rest = &rest[start + len + 1..];
    }
    let in_path = |p: &Param| p.location == Location::Path;
    let orphans: Vec<usize> = (0..params.len())
        .filter(|&i| in_path(&params[i]) && !names.contains(&params[i].wire))
        .collect();
    let unfilled: Vec<&String> = names
        .iter()
        .filter(|n| !params.iter().any(|p| in_path(p) && &p.wire == *n))
        .collect();
    if !orphans.is_empty() && orphans.len() == unfilled.len() {
        for (&i, name) in orphans.iter().zip(&unfilled) {
            sink.warn(
                &pointers[i],
                format!(
                    "path parameter `{}` is not in the path `{path}`; it fills `{{{name}}}`, which no parameter describes",
                    params[i].wire
                ),
            );
            params[i].wire = name.to_string();
        }
        return;
    }
    for &i in orphans.iter().rev() {
        sink.warn(
            &pointers[i],
            format!(
                "path parameter `{}` is not in the path `{path}`: left out",
                params[i].wire
            ),
        );
        params.remove(i);
    }
}

/// The component `in: querystring` parameter `p` refers to, if it is such a reference (the
/// loader keeps those in `components/x-apigen-querystring-parameters`).
pub(super) fn querystring_component<'d>(
    doc: &'d OpenAPI,
    p: &ReferenceOr<Parameter>,
) -> Option<&'d serde_json::Value> {
    let ReferenceOr::Reference { reference } = p else {
        return None;
    };
    let name = reference.strip_prefix("#/components/parameters/")?;
    doc.components
        .as_ref()?
        .extensions
        .get("x-apigen-querystring-parameters")?
        .get(name)
}
