//! The snippets the generated READMEs and docs show: a call of each client method with its
//! required arguments, and each server trait method as an implementation writes it, printed
//! from the IR's [`Usage`](crate::ir::Usage) values. The tests compile every snippet of the
//! fixtures' crates (tests/build.rs), so a snippet is code that builds.

use crate::ir::{Api, BodyKind, Operation, Param, QueryStringKind, TypeDef, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::ident;

/// A member of a value written over several lines stays on one line up to this length.
const INLINE_JSON: usize = 72;
/// A line longer than this is broken: a call's arguments each on a line, a value over several.
const LINE: usize = 92;

/// A call of `op`'s client method, as a README shows it: values that take more than a literal
/// are bound first (`let body = serde_json::from_value(serde_json::json!({…}))?;`), then
/// `let response = client.create_pet(&body).await?;`. Names `Client`'s value `client` and the
/// crate's `serde_json` and `types`, which the README's opening lines bring into scope; `lib`
/// is the crate's name in code (`petstore_client`), for its other modules.
pub fn client_call(api: &Api, op: &Operation, lib: &str) -> String {
    let mut lets = Vec::new();
    let mut args = Vec::new();
    let required = op.params.iter().filter(|p| p.required);
    for (p, value) in required.zip(&op.usage.params) {
        args.push(param_arg(api, p, value, &mut lets));
    }
    if let Some(q) = &op.query_string {
        let value = op.usage.query_string.clone().unwrap_or(Value::Null);
        let arg = match &q.kind {
            QueryStringKind::Raw => literal_string(&value),
            QueryStringKind::Form(_) | QueryStringKind::Json(_) => {
                let name = local_name(&q.rust);
                lets.push(bind(&name, None, &value));
                format!("&{name}")
            }
        };
        args.push(if q.required {
            arg
        } else {
            format!("Some({arg})")
        });
    }
    if let Some(b) = &op.body {
        let value = op.usage.body.clone().unwrap_or(Value::Null);
        let arg = if b.media_chosen() {
            let text = literal_string(&value);
            if b.required {
                text
            } else {
                format!("{text}.into()")
            }
        } else {
            match &b.kind {
                BodyKind::Text => literal_string(&value),
                BodyKind::Bytes if b.is_multipart_form() => {
                    lets.push(format!(
                        "let body = {lib}::runtime::multipart::Form::from_fields(&{})?;",
                        json_macro(&value, Some(""))
                    ));
                    "&body".to_string()
                }
                BodyKind::Bytes => {
                    lets.push(format!(
                        "let body = {lib}::bytes::Bytes::from({});",
                        literal_string(&value)
                    ));
                    "&body".to_string()
                }
                BodyKind::Json(TypeRef::Vec(_)) => {
                    lets.push(bind("body", Some("Vec<_>"), &value));
                    "&body".to_string()
                }
                _ => {
                    lets.push(bind("body", None, &value));
                    "&body".to_string()
                }
            }
        };
        args.push(if b.required {
            arg
        } else {
            format!("Some({arg})")
        });
    }
    let method = &op.rust;
    let one_line = format!(
        "let response = client.{method}({}).await?;",
        args.join(", ")
    );
    let call = if one_line.len() <= LINE && !args.iter().any(|a| a.contains('\n')) {
        one_line
    } else {
        let mut text = format!("let response = client\n    .{method}(\n");
        for a in &args {
            text.push_str(&format!("        {a},\n"));
        }
        text.push_str("    )\n    .await?;");
        text
    };
    lets.push(call);
    lets.join("\n")
}

/// The argument of a required parameter: a literal where one is the argument's type (`42`,
/// `"rex"`, `types::Status::Available`), else a value bound from its JSON first.
fn param_arg(api: &Api, p: &Param, value: &Value, lets: &mut Vec<String>) -> String {
    if let (TypeRef::Named(name), Value::String(wire)) = (&p.ty, value)
        && let Some(variant) = enum_variant(api, name, wire)
    {
        // Named parameter types are taken by reference (`emit::client::by_ref`).
        return format!("&types::{name}::{variant}");
    }
    match (&p.ty, value) {
        (TypeRef::String, _) => literal_string(value),
        (TypeRef::Bool, Value::Bool(b)) => b.to_string(),
        (
            TypeRef::I32 | TypeRef::I64 | TypeRef::U8 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64,
            Value::Number(n),
        ) if n.is_i64() || n.is_u64() => n.to_string(),
        (TypeRef::F32 | TypeRef::F64, Value::Number(n)) => {
            let text = n.to_string();
            if text.contains(['.', 'e', 'E']) {
                text
            } else {
                format!("{text}.0")
            }
        }
        _ => {
            let name = local_name(&p.local);
            let annotation = matches!(p.ty, TypeRef::Vec(_)).then_some("Vec<_>");
            lets.push(bind(&name, annotation, value));
            if super::client::by_ref(p) {
                format!("&{name}")
            } else {
                name
            }
        }
    }
}

/// The Rust name of the variant of enum `name` written `wire`.
fn enum_variant<'a>(api: &'a Api, name: &str, wire: &str) -> Option<&'a str> {
    let def: &TypeDef = api.types.iter().find(|t| t.name == name)?;
    match &def.kind {
        TypeKind::Enum(variants) => variants
            .iter()
            .find(|v| v.wire == wire)
            .map(|v| v.rust.as_str()),
        _ => None,
    }
}

/// A snippet's binding name: the parameter's, unless the snippet names that already.
fn local_name(name: &str) -> String {
    match name {
        "client" | "response" | "body" => format!("{name}_value"),
        _ => name.to_string(),
    }
}

/// `let name = serde_json::from_value(serde_json::json!(…))?;`: any type the value decodes
/// into, taken from where it is passed. Over several lines when one would be long.
fn bind(name: &str, annotation: Option<&str>, value: &Value) -> String {
    let annotation = annotation.map(|a| format!(": {a}")).unwrap_or_default();
    let line = |json: String| format!("let {name}{annotation} = serde_json::from_value({json})?;");
    let inline = line(json_macro(value, None));
    if inline.len() <= LINE {
        inline
    } else {
        line(json_macro(value, Some("")))
    }
}

/// A string value as a Rust literal (another value as its JSON text).
fn literal_string(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => format!("{:?}", other.to_string()),
    }
}

/// `serde_json::json!(…)` of a value: on one line, or over several from `indent`.
fn json_macro(value: &Value, indent: Option<&str>) -> String {
    format!("serde_json::json!({})", json_text(value, indent))
}

/// A value as `json!` reads it: JSON, with strings as Rust literals (`json!` takes Rust's
/// escapes, not JSON's). `indent`: written over several lines, starting at that indentation.
fn json_text(value: &Value, indent: Option<&str>) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Array(items) => match indent {
            None => format!(
                "[{}]",
                items
                    .iter()
                    .map(|v| json_text(v, None))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(indent) => {
                let inner = format!("{indent}    ");
                let lines: Vec<String> = items
                    .iter()
                    .map(|v| format!("{inner}{}", nested(v, &inner)))
                    .collect();
                format!("[\n{}\n{indent}]", lines.join(",\n"))
            }
        },
        Value::Object(map) => match indent {
            None => format!(
                "{{{}}}",
                map.iter()
                    .map(|(k, v)| format!("{k:?}: {}", json_text(v, None)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(indent) => {
                let inner = format!("{indent}    ");
                let lines: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("{inner}{k:?}: {}", nested(v, &inner)))
                    .collect();
                format!("{{\n{}\n{indent}}}", lines.join(",\n"))
            }
        },
    }
}

/// A member or item inside a value written over several lines: inline when short.
fn nested(value: &Value, indent: &str) -> String {
    let inline = json_text(value, None);
    if inline.len() + indent.len() <= INLINE_JSON {
        inline
    } else {
        json_text(value, Some(indent))
    }
}

/// `op`'s server trait method as an implementation writes it (`async fn`, the parameters'
/// struct, the body, the response enum), with a `todo!` naming what it answers; `lib` is the crate's
/// name in code, for the paths of its runtime.
pub fn server_method(op: &Operation, lib: &str) -> String {
    let method = ident(&op.rust);
    let params = super::server::params_ident(op);
    let response = super::server::response_ident(op);
    let query_string = op.query_string.as_ref().map(|q| {
        let name = ident(&q.rust);
        let t = super::server::query_string_type(q);
        quote!(#name: #t,)
    });
    let body = op.body.as_ref().map(|b| {
        let t = super::server::request_body_type(b);
        if b.required {
            quote!(body: #t,)
        } else {
            quote!(body: Option<#t>,)
        }
    });
    // What to answer, named in the placeholder: the first success the document lists.
    let answer = op
        .responses
        .iter()
        .find(|r| r.is_success())
        .or(op.responses.first())
        .map(|r| {
            let fields: Vec<String> = [
                (!matches!(r.status, crate::ir::Status::Code(_)))
                    .then(|| "http::StatusCode".to_string()),
                r.body
                    .as_ref()
                    .map(|b| type_text(super::server::body_type(&b.kind))),
                r.headers_type.clone(),
            ]
            .into_iter()
            .flatten()
            .collect();
            let fields = if fields.is_empty() {
                String::new()
            } else {
                format!("({})", fields.join(", "))
            };
            format!("answer {response}::{}{fields}", r.variant)
        })
        .unwrap_or_else(|| format!("answer {response}"));
    let item: TokenStream = quote! {
        impl Api for Service {
            async fn #method(
                &self,
                ctx: &RequestContext,
                params: #params,
                #query_string
                #body
            ) -> Result<#response, Self::Error> {
                todo!(#answer)
            }
        }
    };
    let Ok(file) = syn::parse2::<syn::File>(item) else {
        return String::new();
    };
    let text = prettyplease::unparse(&file).replace("crate::", &format!("{lib}::"));
    // The method alone: the lines inside `impl … {`, one indentation level less.
    let lines: Vec<&str> = text.lines().collect();
    lines[1..lines.len().saturating_sub(1)]
        .iter()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A type's tokens as a person writes them (`types::Pet`, `Vec<types::Pet>`).
fn type_text(tokens: TokenStream) -> String {
    tokens
        .to_string()
        .replace(" :: ", "::")
        .replace(" < ", "<")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
}
