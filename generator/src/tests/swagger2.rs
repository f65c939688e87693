//! Swagger 2.0 → OpenAPI 3.0, rule by rule: each test gives a small 2.0 document and the 3.0
//! form the converter must write (or the located error / warning it must give).

use crate::load::swagger2::{Converted, convert};
use serde_json::{Value, json};

fn yaml(text: &str) -> Value {
    crate::load::to_json_value(text).unwrap()
}

fn doc(rest: &str) -> Converted {
    let c = convert(&yaml(&format!(
        "swagger: '2.0'\ninfo: {{title: t, version: '1'}}\n{rest}"
    )));
    assert!(
        c.errors.is_empty(),
        "{:?}",
        c.errors.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
    c
}

fn op(c: &Converted, path: &str, method: &str) -> Value {
    c.value["paths"][path][method].clone()
}

#[test]
fn host_base_path_and_schemes_become_servers() {
    let c = doc("host: api.example.com\nbasePath: /v1/\nschemes: [http, https]\npaths: {}\n");
    assert_eq!(c.value["openapi"], "3.0.3");
    assert_eq!(
        c.value["servers"],
        json!([{"url": "http://api.example.com/v1"}, {"url": "https://api.example.com/v1"}])
    );
    assert_eq!(c.moves.original("/servers/0/url"), "/host");
    // No scheme: https (the scheme the document was fetched with is not known here).
    let c = doc("host: api.example.com\npaths: {}\n");
    assert_eq!(
        c.value["servers"],
        json!([{"url": "https://api.example.com"}])
    );
    // No host: the base path, relative to wherever the API is served.
    let c = doc("basePath: /api\npaths: {}\n");
    assert_eq!(c.value["servers"], json!([{"url": "/api"}]));
    let c = doc("paths: {}\n");
    assert!(c.value.get("servers").is_none());
}

#[test]
fn a_body_parameter_becomes_the_request_body_in_each_consumed_media_type() {
    let c = doc(
        "consumes: [application/json, application/xml]\npaths:\n  /pets:\n    post:\n      parameters:\n        - {name: limit, in: query, type: integer}\n        - name: pet\n          in: body\n          description: the pet\n          required: true\n          x-audit: true\n          schema: {$ref: '#/definitions/Pet'}\n      responses:\n        '200': {description: ok}\ndefinitions:\n  Pet: {type: object}\n",
    );
    let post = op(&c, "/pets", "post");
    assert_eq!(
        post["requestBody"],
        json!({
            "description": "the pet",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}
            },
            "required": true,
            "x-audit": true
        })
    );
    assert_eq!(post["parameters"].as_array().unwrap().len(), 1);
    assert_eq!(
        c.moves
            .original("/paths/~1pets/post/requestBody/content/application~1json/schema/type"),
        "/paths/~1pets/post/parameters/1/schema/type"
    );
    assert_eq!(
        c.moves.original("/paths/~1pets/post/requestBody/required"),
        "/paths/~1pets/post/parameters/1/required"
    );
    // The operation's own `consumes` wins; without any, JSON.
    let c = doc(
        "consumes: [application/xml]\npaths:\n  /a:\n    put:\n      consumes: [text/plain]\n      parameters: [{name: b, in: body, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n  /b:\n    put:\n      parameters: [{name: b, in: body, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n",
    );
    let content = |p: &str| {
        op(&c, p, "put")["requestBody"]["content"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(content("/a"), ["text/plain"]);
    assert_eq!(content("/b"), ["application/xml"]);
    let c = doc(
        "paths:\n  /a:\n    put:\n      parameters: [{name: b, in: body, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n",
    );
    assert!(op(&c, "/a", "put")["requestBody"]["content"]["application/json"].is_object());
}

#[test]
fn form_parameters_become_one_object_body() {
    let c = doc(
        "paths:\n  /login:\n    post:\n      parameters:\n        - {name: user, in: formData, type: string, required: true, description: who}\n        - {name: tags, in: formData, type: array, items: {type: string}, collectionFormat: multi}\n        - {name: ids, in: formData, type: array, items: {type: integer}}\n      responses: {'204': {description: ok}}\n",
    );
    assert_eq!(
        op(&c, "/login", "post")["requestBody"],
        json!({
            "content": {"application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "user": {"type": "string", "description": "who"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "ids": {"type": "array", "items": {"type": "integer"}}
                    },
                    "required": ["user"]
                },
                "encoding": {
                    "tags": {"style": "form", "explode": true},
                    "ids": {"style": "form", "explode": false}
                }
            }},
            "required": true
        })
    );
    assert_eq!(
        c.moves.original(
            "/paths/~1login/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/user/type"
        ),
        "/paths/~1login/post/parameters/0/type"
    );
}

#[test]
fn a_file_upload_is_multipart_with_a_binary_string() {
    let c = doc(
        "consumes: [application/json]\npaths:\n  /upload:\n    post:\n      consumes: [multipart/form-data]\n      parameters:\n        - {name: file, in: formData, type: file, required: true}\n        - {name: note, in: formData, type: string, x-nullable: true}\n      responses: {'204': {description: ok}}\n",
    );
    assert_eq!(
        op(&c, "/upload", "post")["requestBody"]["content"],
        json!({"multipart/form-data": {"schema": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "format": "binary"},
                "note": {"type": "string", "nullable": true}
            },
            "required": ["file"]
        }}})
    );
    // A file with only URL-encoding declared: multipart, with a warning.
    let c = doc(
        "paths:\n  /up:\n    post:\n      consumes: [application/x-www-form-urlencoded]\n      parameters: [{name: f, in: formData, type: file}]\n      responses: {'204': {description: ok}}\n",
    );
    assert!(op(&c, "/up", "post")["requestBody"]["content"]["multipart/form-data"].is_object());
    assert_eq!(c.warnings[0].pointer, "/paths/~1up/post/parameters/0");
}

#[test]
fn other_parameters_get_a_schema_and_a_style() {
    let c = doc(
        "paths:\n  /items/{ids}:\n    get:\n      parameters:\n        - {name: ids, in: path, type: array, items: {type: integer, format: int64}}\n        - {name: q, in: query, type: string, minLength: 2, maxLength: 9, pattern: '^a', default: ab, allowEmptyValue: true, x-example: abc}\n        - {name: tags, in: query, type: array, items: {type: string, enum: [a, b]}, collectionFormat: pipes, maxItems: 3}\n        - {name: s, in: query, type: array, items: {type: string}, collectionFormat: ssv}\n        - {name: m, in: query, type: array, items: {type: string}, collectionFormat: multi}\n        - {name: X-Rate, in: header, type: number, minimum: 0, exclusiveMinimum: true}\n      responses: {'200': {description: ok}}\n",
    );
    let params = op(&c, "/items/{ids}", "get")["parameters"].clone();
    assert_eq!(
        params,
        json!([
            {"name": "ids", "in": "path", "required": true, "style": "simple", "explode": false,
             "schema": {"type": "array", "items": {"type": "integer", "format": "int64"}}},
            {"name": "q", "in": "query", "allowEmptyValue": true, "x-example": "abc",
             "schema": {"type": "string", "default": "ab", "maxLength": 9, "minLength": 2, "pattern": "^a"}},
            {"name": "tags", "in": "query", "style": "pipeDelimited", "explode": false,
             "schema": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3}},
            {"name": "s", "in": "query", "style": "spaceDelimited", "explode": false,
             "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "m", "in": "query", "style": "form", "explode": true,
             "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "X-Rate", "in": "header",
             "schema": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}
        ])
    );
    assert_eq!(
        c.moves
            .original("/paths/~1items~1{ids}/get/parameters/1/schema/maxLength"),
        "/paths/~1items~1{ids}/get/parameters/1/maxLength"
    );
    // `tsv` has no 3.0 style: comma-separated, with a warning at its place.
    let c = doc(
        "paths:\n  /a:\n    get:\n      parameters: [{name: t, in: query, type: array, items: {type: string}, collectionFormat: tsv}]\n      responses: {'200': {description: ok}}\n",
    );
    assert_eq!(op(&c, "/a", "get")["parameters"][0]["style"], "form");
    assert_eq!(
        c.warnings[0].pointer,
        "/paths/~1a/get/parameters/0/collectionFormat"
    );
}

#[test]
fn definitions_parameters_and_responses_become_components() {
    let c = doc(
        "paths:\n  /a:\n    post:\n      parameters:\n        - $ref: '#/parameters/limit'\n        - $ref: '#/parameters/pet'\n      responses:\n        '200': {$ref: '#/responses/Ok'}\n  /b:\n    post:\n      parameters:\n        - $ref: '#/parameters/token'\n      responses: {'204': {description: ok}}\nparameters:\n  limit: {name: limit, in: query, type: integer}\n  pet: {name: pet, in: body, schema: {$ref: '#/definitions/Pet'}}\n  token: {name: token, in: formData, type: string, required: true}\nresponses:\n  Ok:\n    description: ok\n    schema: {$ref: '#/definitions/Pet'}\ndefinitions:\n  Pet:\n    type: object\n    properties:\n      friend: {$ref: '#/definitions/Pet'}\n      both: {allOf: [{$ref: '#/definitions/Pet'}]}\n",
    );
    let a = op(&c, "/a", "post");
    assert_eq!(
        a["parameters"],
        json!([{"$ref": "#/components/parameters/limit"}])
    );
    assert_eq!(
        a["requestBody"],
        json!({"$ref": "#/components/requestBodies/pet"})
    );
    assert_eq!(
        a["responses"]["200"],
        json!({"$ref": "#/components/responses/Ok"})
    );
    let b = op(&c, "/b", "post");
    assert_eq!(
        b["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["required"],
        json!(["token"])
    );
    let components = &c.value["components"];
    assert_eq!(
        components.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["schemas", "parameters", "requestBodies", "responses"]
    );
    assert_eq!(
        components["requestBodies"]["pet"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Pet"
    );
    assert_eq!(
        components["responses"]["Ok"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Pet"
    );
    let pet = &components["schemas"]["Pet"]["properties"];
    assert_eq!(pet["friend"]["$ref"], "#/components/schemas/Pet");
    assert_eq!(pet["both"]["allOf"][0]["$ref"], "#/components/schemas/Pet");
    assert_eq!(
        c.moves
            .original("/components/schemas/Pet/properties/friend"),
        "/definitions/Pet/properties/friend"
    );
    assert_eq!(
        c.moves
            .original("/components/requestBodies/pet/content/application~1json/schema"),
        "/parameters/pet/schema"
    );
    assert_eq!(
        c.moves
            .original("/paths/~1b/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/token"),
        "/parameters/token"
    );
}

#[test]
fn responses_carry_their_schema_headers_and_examples_per_produced_type() {
    let c = doc(
        "produces: [application/json, text/csv]\npaths:\n  /r:\n    get:\n      responses:\n        '200':\n          description: ok\n          schema: {type: array, items: {type: string}}\n          headers:\n            X-Next: {type: string, description: the next page}\n            X-Ids: {type: array, items: {type: integer}}\n          examples:\n            application/json: [a, b]\n            application/xml: <a/>\n          x-cache: 60\n        default:\n          description: error\n        x-note: kept\n  /file:\n    get:\n      produces: [application/pdf]\n      responses:\n        '200': {description: the file, schema: {type: file}}\n",
    );
    let r = op(&c, "/r", "get")["responses"].clone();
    assert_eq!(
        r["200"],
        json!({
            "description": "ok",
            "content": {
                "application/json": {"schema": {"type": "array", "items": {"type": "string"}}, "example": ["a", "b"]},
                "text/csv": {"schema": {"type": "array", "items": {"type": "string"}}}
            },
            "headers": {
                "X-Next": {"description": "the next page", "schema": {"type": "string"}},
                "X-Ids": {"style": "simple", "explode": false, "schema": {"type": "array", "items": {"type": "integer"}}}
            },
            "x-cache": 60
        })
    );
    assert_eq!(r["default"], json!({"description": "error"}));
    assert_eq!(r["x-note"], "kept");
    assert_eq!(
        op(&c, "/file", "get")["responses"]["200"]["content"],
        json!({"application/pdf": {"schema": {"type": "string", "format": "binary"}}})
    );
    assert_eq!(
        c.moves
            .original("/paths/~1r/get/responses/200/headers/X-Next/schema/type"),
        "/paths/~1r/get/responses/200/headers/X-Next/type"
    );
    // A shared response used by an operation that produces other types: a copy with them.
    let c = doc(
        "paths:\n  /x:\n    get:\n      produces: [text/plain]\n      responses: {'200': {$ref: '#/responses/Ok'}}\nresponses:\n  Ok: {description: ok, schema: {type: string}}\n",
    );
    assert_eq!(
        op(&c, "/x", "get")["responses"]["200"]["content"],
        json!({"text/plain": {"schema": {"type": "string"}}})
    );
    // Examples without a schema (oai's api-with-examples) are kept, each as content of its
    // own media type with no schema, not dropped with the body.
    let c = doc(
        "paths:\n  /v:\n    get:\n      responses:\n        '200':\n          description: versions\n          examples:\n            application/json: {versions: [v2]}\n",
    );
    assert_eq!(
        op(&c, "/v", "get")["responses"]["200"],
        json!({"description": "versions", "content": {"application/json": {"example": {"versions": ["v2"]}}}})
    );
}

#[test]
fn security_definitions_become_security_schemes() {
    let c = doc(
        "paths: {}\nsecurityDefinitions:\n  basic: {type: basic, description: b}\n  key: {type: apiKey, name: X-Key, in: header, x-vendor: 1}\n  implicit: {type: oauth2, flow: implicit, authorizationUrl: 'https://a/auth', scopes: {read: r}}\n  password: {type: oauth2, flow: password, tokenUrl: 'https://a/token', scopes: {}}\n  app: {type: oauth2, flow: application, tokenUrl: 'https://a/token', scopes: {}}\n  code: {type: oauth2, flow: accessCode, authorizationUrl: 'https://a/auth', tokenUrl: 'https://a/token', scopes: {w: w}}\nsecurity: [{key: []}]\n",
    );
    assert_eq!(
        c.value["components"]["securitySchemes"],
        json!({
            "basic": {"type": "http", "scheme": "basic", "description": "b"},
            "key": {"type": "apiKey", "name": "X-Key", "in": "header", "x-vendor": 1},
            "implicit": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://a/auth", "scopes": {"read": "r"}}}},
            "password": {"type": "oauth2", "flows": {"password": {"tokenUrl": "https://a/token", "scopes": {}}}},
            "app": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a/token", "scopes": {}}}},
            "code": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "https://a/auth", "tokenUrl": "https://a/token", "scopes": {"w": "w"}}}}
        })
    );
    assert_eq!(c.value["security"], json!([{"key": []}]));
}

#[test]
fn schemas_in_3_0_terms() {
    let c = doc(
        "paths: {}\ndefinitions:\n  Animal:\n    type: object\n    discriminator: kind\n    required: [kind]\n    properties:\n      kind: {type: string}\n      photo: {type: file}\n      nick: {type: string, x-nullable: true}\n      age: {type: integer, x-nullable: false, x-unit: years}\n    x-model: Animal\n",
    );
    assert_eq!(
        c.value["components"]["schemas"]["Animal"],
        json!({
            "type": "object",
            "discriminator": {"propertyName": "kind"},
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string"},
                "photo": {"type": "string", "format": "binary"},
                "nick": {"type": "string", "nullable": true},
                "age": {"type": "integer", "x-unit": "years"}
            },
            "x-model": "Animal"
        })
    );
}

#[test]
fn extensions_stay_and_operation_schemes_become_its_servers() {
    let c = doc(
        "host: h.example\nschemes: [https]\nx-top: 1\npaths:\n  x-paths: 2\n  /a:\n    x-item: 3\n    get:\n      schemes: [http]\n      x-op: 4\n      tags: [t]\n      operationId: getA\n      deprecated: true\n      responses: {'200': {description: ok}}\n",
    );
    assert_eq!(c.value["x-top"], 1);
    assert_eq!(c.value["paths"]["x-paths"], 2);
    assert_eq!(c.value["paths"]["/a"]["x-item"], 3);
    let get = op(&c, "/a", "get");
    assert_eq!(get["x-op"], 4);
    assert_eq!(get["deprecated"], true);
    assert_eq!(get["servers"], json!([{"url": "http://h.example"}]));
    assert!(get.get("schemes").is_none());
}

#[test]
fn path_level_body_and_form_parameters_reach_each_operation() {
    let c = doc(
        "paths:\n  /a:\n    parameters:\n      - {name: id, in: query, type: string}\n      - {name: token, in: formData, type: string}\n    post:\n      parameters:\n        - {name: note, in: formData, type: string}\n      responses: {'204': {description: ok}}\n    put:\n      responses: {'204': {description: ok}}\n",
    );
    let item = &c.value["paths"]["/a"];
    assert_eq!(item["parameters"][0]["name"], "id");
    assert_eq!(item["parameters"].as_array().unwrap().len(), 1);
    let form = |m: &str| {
        item[m]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
            ["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(form("post"), ["note", "token"]);
    assert_eq!(form("put"), ["token"]);
}

#[test]
fn mistakes_are_errors_at_their_2_0_place() {
    let bad = |rest: &str| {
        let c = convert(&yaml(&format!(
            "swagger: '2.0'\ninfo: {{title: t, version: '1'}}\n{rest}"
        )));
        c.errors
            .iter()
            .map(|e| format!("{}: {}", e.pointer, e.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        bad(
            "paths:\n  /a:\n    get:\n      parameters: [{name: x, type: string}]\n      responses: {}\n"
        ),
        ["/paths/~1a/get/parameters/0: a parameter needs `in`"]
    );
    assert_eq!(
        bad(
            "paths:\n  /a:\n    get:\n      parameters: [{name: x, in: cookie, type: string}]\n      responses: {}\n"
        ),
        [
            "/paths/~1a/get/parameters/0/in: `cookie` is not a place of a Swagger 2.0 parameter (query, header, path, formData, body)"
        ]
    );
    assert_eq!(
        bad(
            "paths:\n  /a:\n    post:\n      parameters: [{name: b, in: body}]\n      responses: {}\n"
        ),
        ["/paths/~1a/post/parameters/0: a body parameter needs a `schema`"]
    );
    assert_eq!(
        bad(
            "paths:\n  /a:\n    post:\n      parameters: [{name: b, in: body, schema: {}}, {name: f, in: formData, type: string}]\n      responses: {}\n"
        ),
        [
            "/paths/~1a/post/parameters: body and formData parameters exclude each other (Swagger 2.0)"
        ]
    );
    assert_eq!(
        bad(
            "paths:\n  /a:\n    post:\n      parameters: [{$ref: '#/parameters/nope'}]\n      responses: {}\n"
        ),
        ["/paths/~1a/post/parameters/0: `#/parameters/nope` points at nothing"]
    );
    assert_eq!(
        bad(
            "paths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/responses/Nope'}\n        '400': {description: bad, schema: {$ref: '#/definitions/Nope'}}\n"
        ),
        [
            "/paths/~1a/get/responses/200: `#/responses/Nope` points at nothing",
            "/paths/~1a/get/responses/400/schema: `#/definitions/Nope` points at nothing"
        ]
    );
    assert_eq!(
        bad("paths: {}\nsecurityDefinitions:\n  s: {type: oauth2, flow: magic}\n"),
        [
            "/securityDefinitions/s/flow: `magic` is not an OAuth2 flow of Swagger 2.0 (implicit, password, application, accessCode)"
        ]
    );
    assert_eq!(
        convert(&json!({"swagger": "1.2"})).errors[0].to_string(),
        "error: /swagger: Swagger 1.2 is not supported; this generator reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x"
    );
}

/// Through the whole loader: a 2.0 document split over files, and problems found after the
/// conversion reported where the 2.0 document has them, with their line.
#[test]
fn a_split_2_0_document_reads_and_reports_in_its_own_terms() {
    let root = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      parameters:\n        - $ref: 'parameters.yaml#/limit'\n      responses:\n        '200':\n          description: ok\n          schema: {type: array, items: {$ref: 'Pet.yaml'}}\n    post:\n      parameters:\n        - {name: pet, in: body, schema: {$ref: '#/definitions/Missing'}}\n      responses: {'204': {description: ok}}\n";
    let files: std::collections::BTreeMap<String, String> = [
        ("spec/swagger.yaml", root),
        (
            "spec/parameters.yaml",
            "limit: {name: limit, in: query, type: integer, format: int32}\n",
        ),
        (
            "spec/Pet.yaml",
            "type: object\nproperties:\n  id: {type: integer}\n",
        ),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let options = crate::Options {
        name: "x".into(),
        spec_label: "spec/swagger.yaml".into(),
        ..Default::default()
    };
    let err = crate::generate_from("spec/swagger.yaml", &files, &options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error: spec/swagger.yaml:14:33: /paths/~1pets/post/parameters/0/schema: `#/definitions/Missing` points at nothing"
    );
    let fixed = root.replace("#/definitions/Missing", "Pet.yaml");
    let files: std::collections::BTreeMap<String, String> = files
        .into_iter()
        .map(|(k, v)| {
            if k == "spec/swagger.yaml" {
                (k, fixed.clone())
            } else {
                (k, v)
            }
        })
        .collect();
    let out = crate::generate_from("spec/swagger.yaml", &files, &options).unwrap();
    let client = &out.files["client/src/client.rs"];
    assert!(client.contains("pub async fn get_pets("), "{client}");
    assert!(out.files["client/src/types.rs"].contains("pub struct Pet {"));
}

/// A 2.0 parameter has no `schema`: one that says more than its type holds (an `enum` of an
/// array, of integers, `uniqueItems`) is held to the parameter object itself, which the
/// runtime walks as draft 4 (the `status` of `swagger-parser-issue-597`); a plain one keeps its
/// type's checks alone.
#[test]
fn a_parameter_that_says_more_than_its_type_is_held_to_the_parameter_object() {
    let text = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /things:\n    get:\n      parameters:\n        - {name: status, in: query, required: true, type: array, items: {type: string}, collectionFormat: csv, enum: [available, sold]}\n        - {name: level, in: query, type: integer, enum: [1, 2]}\n        - {name: tags, in: query, type: array, items: {type: string, collectionFormat: csv}, uniqueItems: true}\n        - {name: limit, in: query, type: integer, minimum: 1, description: at least one}\n        - {name: kind, in: query, type: string, enum: [a, b]}\n      responses:\n        '200': {description: ok}\n";
    let loaded = crate::load::parse(text).unwrap();
    let mut sink = crate::diag::Sink::default();
    let mut api = crate::lower::lower(&loaded.doc, &mut sink);
    crate::lower::held::decide(&mut api, &loaded.written.value, loaded.version);
    let held: Vec<(String, Option<String>)> = api.operations[0]
        .params
        .iter()
        .map(|p| (p.wire.clone(), p.held.as_ref().map(|h| h.pointer.clone())))
        .collect();
    let at = |i: usize| Some(format!("/paths/~1things/get/parameters/{i}"));
    assert_eq!(
        held,
        [
            ("status".to_string(), at(0)),
            ("level".to_string(), at(1)),
            ("tags".to_string(), at(2)),
            ("limit".to_string(), None),
            ("kind".to_string(), None),
        ]
    );
}
