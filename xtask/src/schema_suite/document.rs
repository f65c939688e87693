//! The suite's files read into groups, and the one OpenAPI document made of them: each group's
//! schema a component, the JSON body of one operation of its own.

use std::fs;
use std::path::Path;

use serde_json::{Map, Value, json};

/// One group of a suite file: a schema and the values it must take or refuse.
#[derive(Debug, Clone)]
pub struct Group {
    /// `draft2020-12` or `draft4`: the folder of its file.
    pub draft: String,
    /// The file's name without `.json` (`additionalProperties`).
    pub file: String,
    /// The group's place in its file, from 0.
    pub index: usize,
    pub description: String,
    pub schema: Value,
    pub cases: Vec<Case>,
}

#[derive(Debug, Clone)]
pub struct Case {
    pub description: String,
    pub data: Value,
    pub valid: bool,
}

impl Group {
    /// The component (and operation id) the group's schema becomes: `if_then_else_3`.
    pub fn name(&self) -> String {
        let stem: String = self
            .file
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        format!("{stem}_{}", self.index)
    }

    /// The path of its operation: `/if-then-else/3`.
    pub fn path(&self) -> String {
        format!("/{}/{}", self.file, self.index)
    }

    /// `if-then-else.json #3`: how tables and messages name the group.
    pub fn label(&self) -> String {
        format!("{}.json #{}", self.file, self.index)
    }
}

/// Every group of every `*.json` file in `dir`, by file name, in the files' order.
pub fn read_groups(dir: &Path) -> Result<Vec<Group>, String> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut groups = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        let file = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let draft = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        groups.extend(
            parse_file(&draft, &file, &value).map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    Ok(groups)
}

fn parse_file(draft: &str, file: &str, value: &Value) -> Result<Vec<Group>, String> {
    let list = value.as_array().ok_or("not a list of groups")?;
    let mut groups = Vec::new();
    for (index, group) in list.iter().enumerate() {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").into();
        let tests = group
            .get("tests")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("group {index} has no tests"))?;
        let cases = tests
            .iter()
            .map(|t| {
                Ok(Case {
                    description: text(t, "description"),
                    data: t.get("data").cloned().unwrap_or(Value::Null),
                    valid: t
                        .get("valid")
                        .and_then(Value::as_bool)
                        .ok_or_else(|| format!("a test of group {index} has no `valid`"))?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        groups.push(Group {
            draft: draft.into(),
            file: file.into(),
            index,
            description: text(group, "description"),
            schema: group.get("schema").cloned().unwrap_or(Value::Bool(true)),
            cases,
        });
    }
    Ok(groups)
}

/// The OpenAPI version each draft's schemas are read under: 2020-12 is 3.1's dialect; draft 4
/// is the nearest to 3.0's schema object.
pub fn openapi_version(draft: &str) -> &'static str {
    if draft == "draft4" { "3.0.3" } else { "3.1.0" }
}

/// One document: a `POST` operation per group whose required JSON body is the group's schema
/// (a component), answered `204` when the server takes it.
pub fn document(draft: &str, commit: &str, groups: &[&Group]) -> Value {
    let mut paths = Map::new();
    let mut schemas = Map::new();
    for group in groups {
        let name = group.name();
        let mut schema = group.schema.clone();
        rebase_refs(&mut schema, &format!("#/components/schemas/{name}"));
        schemas.insert(name.clone(), schema);
        paths.insert(
            group.path(),
            json!({
                "post": {
                    "operationId": name,
                    "summary": group.description,
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {
                            "schema": {"$ref": format!("#/components/schemas/{name}")}
                        }}
                    },
                    "responses": {"204": {"description": "The value was taken."}}
                }
            }),
        );
    }
    json!({
        "openapi": openapi_version(draft),
        "info": {
            "title": format!("JSON Schema Test Suite, {draft}"),
            "version": commit,
            "description": "Each group of the suite's files as the body of one operation \
                            (written by `cargo xtask schema-suite`)."
        },
        "paths": paths,
        "components": {"schemas": schemas}
    })
}

/// Points the schema's own references (`#`, `#/$defs/a`) at the component it becomes: in the
/// suite a schema is its own document; here it stands at `base` in a larger one. References
/// to anything else (`$id`-relative, remote, `#anchor`) are left as written.
pub fn rebase_refs(schema: &mut Value, base: &str) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "$ref"
                    && let Value::String(target) = value
                {
                    if target == "#" {
                        *target = base.to_string();
                    } else if let Some(rest) = target.strip_prefix("#/") {
                        *target = format!("{base}/{rest}");
                    }
                    continue;
                }
                // The values of these keywords are data, not schemas.
                if matches!(key.as_str(), "const" | "enum" | "examples" | "default") {
                    continue;
                }
                rebase_refs(value, base);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rebase_refs(v, base)),
        _ => {}
    }
}

/// The group a generator error points into: `/components/schemas/NAME/…` or `/paths/…`.
pub fn group_of_pointer<'a>(pointer: &str, groups: &[&'a Group]) -> Option<&'a Group> {
    let pointer = pointer.split_once('#').map_or(pointer, |(_, p)| p);
    if let Some(rest) = pointer.strip_prefix("/components/schemas/") {
        let name = rest.split('/').next()?;
        return groups.iter().copied().find(|g| g.name() == name);
    }
    if let Some(rest) = pointer.strip_prefix("/paths/") {
        let key = rest
            .split('/')
            .next()?
            .replace("~1", "/")
            .replace("~0", "~");
        return groups.iter().copied().find(|g| g.path() == key);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_rebased_but_data_is_not() {
        let mut schema = json!({
            "$defs": {"a": {"type": "integer"}},
            "properties": {"x": {"$ref": "#/$defs/a"}, "self": {"$ref": "#"}},
            "const": {"$ref": "#/not/a/reference"},
            "items": {"$ref": "other.json#/x"}
        });
        rebase_refs(&mut schema, "#/components/schemas/s_0");
        assert_eq!(
            schema["properties"]["x"]["$ref"],
            "#/components/schemas/s_0/$defs/a"
        );
        assert_eq!(
            schema["properties"]["self"]["$ref"],
            "#/components/schemas/s_0"
        );
        assert_eq!(schema["const"]["$ref"], "#/not/a/reference");
        assert_eq!(schema["items"]["$ref"], "other.json#/x");
    }

    #[test]
    fn a_pointer_finds_its_group() {
        let group = Group {
            draft: "draft2020-12".into(),
            file: "if-then-else".into(),
            index: 3,
            description: String::new(),
            schema: json!(true),
            cases: vec![],
        };
        let groups = [&group];
        assert_eq!(group.name(), "if_then_else_3");
        for pointer in [
            "/components/schemas/if_then_else_3/then",
            "/paths/~1if-then-else~13/post/requestBody",
            "openapi.json#/components/schemas/if_then_else_3",
        ] {
            assert!(group_of_pointer(pointer, &groups).is_some(), "{pointer}");
        }
        assert!(group_of_pointer("/components/schemas/if_then_else_30", &groups).is_none());
    }
}
