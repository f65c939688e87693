//! A bad document gets a located error, never a panic.

fn generate(text: &str) -> Result<apigen::Output, apigen::diag::Diagnostics> {
    let options = apigen::Options {
        api_name: None,
        name: "x".into(),
        spec_label: "x.yaml".into(),
        command: "cargo xtask codegen".into(),
        string_formats: false,
        ..Default::default()
    };
    apigen::generate(text, &options)
}

#[test]
fn not_yaml() {
    let err = generate("openapi: [unclosed").unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot read the document at line 2 column 1"),
        "{err}"
    );
}

#[test]
fn wrong_shape_is_located() {
    let err = generate("openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: 5\n      responses: {}\n").unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/parameters", "{err}");
}

#[test]
fn a_parameter_without_schema_or_content_says_so_at_its_place() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - {name: q, in: query}\n      responses:\n        '200': {description: ok}\n";
    let err = generate(text).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/parameters/0", "{err}");
    assert!(
        err.to_string()
            .contains("a parameter needs `schema` or `content`"),
        "{err}"
    );
}

#[test]
fn dangling_reference_is_located() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/Nope'\n      responses:\n        '200': {description: ok}\n";
    let err = generate(text).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/parameters/0", "{err}");
    assert!(err.to_string().contains("points at nothing"), "{err}");
}

#[test]
fn dangling_schema_reference_fails_with_its_pointer() {
    // A typo in a local reference is an error, not a response typed `serde_json::Value`.
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Missing'}\n";
    let err = generate(text).unwrap_err();
    assert_eq!(
        err.0[0].pointer, "/paths/~1a/get/responses/200/content/application~1json/schema",
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("`#/components/schemas/Missing` points at nothing"),
        "{err}"
    );
    let deep = text.replace("Missing'", "Pet/properties/nope'").replace(
        "paths:",
        "components:\n  schemas:\n    Pet: {type: object, properties: {id: {type: integer}}}\npaths:",
    );
    let err = generate(&deep).unwrap_err();
    assert!(err.to_string().contains("points at nothing"), "{err}");
}

#[test]
fn external_reference_in_a_document_given_as_text_is_an_error() {
    // A `$ref` into another file needs the document's own file to be followed
    // (`apigen::generate_from`); given text alone, it is an error at the reference, never a
    // schema typed `serde_json::Value`.
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: 'other.yaml#/Pet'}\n";
    let err = generate(text).unwrap_err();
    assert_eq!(
        err.0[0].pointer, "/paths/~1a/get/responses/200/content/application~1json/schema",
        "{err}"
    );
    assert!(
        err.to_string().contains("x.yaml:11:15: ")
            && err.to_string().contains(
                "`other.yaml#/Pet`: cannot read other.yaml: the document was given as text"
            ),
        "{err}"
    );
}

#[test]
fn bad_deprecation_extension_is_located() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      x-deprecation: {sunset: tomorrow}\n      responses:\n        '200': {description: ok}\n";
    let err = generate(text).unwrap_err();
    assert_eq!(
        err.0[0].pointer, "/paths/~1a/get/x-deprecation/sunset",
        "{err}"
    );
}

#[test]
fn unsupported_constructs_degrade_with_a_warning() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {not: {type: string}}\n";
    let out = generate(text).unwrap();
    assert!(
        out.warnings.iter().any(|w| w.message.contains("`not`")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn every_corpus_document_generates_or_fails_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/openapi-corpus");
    // CI always has the corpus beside the repository; without it this test fails rather
    // than passing having read nothing.
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "the corpus of public documents is expected at {} ({e})",
            dir.display()
        )
    });
    let mut seen = 0;
    for sub in entries.flatten() {
        for doc in std::fs::read_dir(sub.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = doc.path();
            if !matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            ) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // Either output or located errors; a panic fails the test.
            match generate(&text) {
                Ok(out) => assert!(!out.files.is_empty()),
                Err(e) => assert!(!e.0.is_empty(), "{}", path.display()),
            }
            seen += 1;
        }
    }
    assert!(seen >= 20, "expected the corpus, read {seen} documents");
}

/// An OpenAPI 3.2 document of one path whose `get` is `op` (YAML at six spaces of indent).
fn doc32(path_item_extra: &str, op: &str) -> String {
    format!(
        "openapi: 3.2.0\ninfo: {{title: x, version: '1'}}\npaths:\n  /a:\n{path_item_extra}    get:\n{op}"
    )
}

const OK_RESPONSE: &str = "      responses:\n        '204': {description: ok}\n";

fn warnings(text: &str) -> Vec<(String, String)> {
    generate(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .warnings
        .into_iter()
        .map(|d| (d.pointer, d.message))
        .collect()
}

/// OpenAPI ignores `Accept`, `Content-Type` and `Authorization` header parameters; each one
/// ignored says so. `Authorization` is kept where no security scheme would send it.
#[test]
fn ignored_header_parameters_are_named() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\ncomponents:\n  securitySchemes:\n    key: {type: http, scheme: bearer}\npaths:\n  /a:\n    get:\n      security: [{key: []}]\n      parameters:\n        - {name: Authorization, in: header, schema: {type: string}}\n        - {name: accept, in: header, schema: {type: string}}\n      responses:\n        '204': {description: ok}\n  /b:\n    get:\n      parameters:\n        - {name: Authorization, in: header, schema: {type: string}}\n      responses:\n        '204': {description: ok}\n";
    let w = warnings(text);
    assert_eq!(
        w,
        [
            (
                "/paths/~1a/get/parameters/0".to_string(),
                "header parameter `Authorization` is ignored, as OpenAPI says: the operation's security scheme sets it".to_string()
            ),
            (
                "/paths/~1a/get/parameters/1".to_string(),
                "header parameter `accept` is ignored, as OpenAPI says: the client sets it from the document's media types".to_string()
            ),
        ]
    );
}

#[test]
fn additional_operations_name_real_custom_methods() {
    for (key, says) in [
        ("GET", "has a field of its own"),
        ("query", "has a field of its own"),
        ("'NOT A TOKEN'", "not an HTTP method name"),
    ] {
        let extra = format!(
            "    additionalOperations:\n      {key}:\n        responses:\n          '204': {{description: ok}}\n"
        );
        let text = doc32(&extra, OK_RESPONSE);
        let err = generate(&text).unwrap_err();
        let key = key.trim_matches('\'');
        assert_eq!(
            err.0[0].pointer,
            format!("/paths/~1a/additionalOperations/{key}"),
            "{err}"
        );
        assert!(err.to_string().contains(says), "{err}");
    }
}

#[test]
fn a_query_string_parameter_excludes_query_parameters() {
    let op = "      parameters:\n        - {name: q, in: query, schema: {type: string}}\n        - name: all\n          in: querystring\n          content:\n            application/x-www-form-urlencoded:\n              schema: {type: object, properties: {a: {type: string}}}\n".to_string() + OK_RESPONSE;
    let err = generate(&doc32("", &op)).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/parameters/1", "{err}");
    assert!(err.to_string().contains("cannot be combined"), "{err}");
}

#[test]
fn a_component_query_string_parameter_is_read_through_its_reference() {
    let op = "      parameters:\n        - $ref: '#/components/parameters/All'\n".to_string()
        + OK_RESPONSE;
    let text = doc32("", &op)
        + "components:\n  parameters:\n    All:\n      name: all\n      in: querystring\n      required: true\n      content:\n        application/x-www-form-urlencoded:\n          schema: {type: object, properties: {a: {type: string}}}\n";
    let out = generate(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let client = &out.files["client/src/client.rs"];
    assert!(client.contains("request::to_query_string(all)"), "{client}");
}

#[test]
fn what_3_2_cannot_type_yet_warns_at_its_place() {
    // A query string in another media type is passed as sent.
    let op = "      parameters:\n        - name: all\n          in: querystring\n          content:\n            application/xml:\n              schema: {type: object}\n".to_string() + OK_RESPONSE;
    let w = warnings(&doc32("", &op));
    assert_eq!(
        w[0].0, "/paths/~1a/get/parameters/0/content/application~1xml",
        "{w:?}"
    );

    // A sequence media type other than SSE and JSON Lines is read whole.
    let op = "      responses:\n        '200':\n          description: ok\n          content:\n            application/json-seq:\n              itemSchema: {type: object}\n";
    let w = warnings(&doc32("", op));
    assert_eq!(
        w[0].0, "/paths/~1a/get/responses/200/content/application~1json-seq/itemSchema",
        "{w:?}"
    );

    // An event schema without `data` is read as the schema of each event's JSON data.
    let op = "      responses:\n        '200':\n          description: ok\n          content:\n            text/event-stream:\n              itemSchema: {type: object, properties: {n: {type: integer}}}\n";
    let w = warnings(&doc32("", op));
    assert_eq!(
        w[0].0, "/paths/~1a/get/responses/200/content/text~1event-stream/itemSchema",
        "{w:?}"
    );

    // A streamed request body is sent and read whole.
    let op = "      requestBody:\n        content:\n          application/jsonl:\n            schema: {type: array}\n            itemSchema: {type: object}\n".to_string() + OK_RESPONSE;
    let w = warnings(&doc32("", &op));
    assert_eq!(
        w[0].0, "/paths/~1a/get/requestBody/content/application~1jsonl/itemSchema",
        "{w:?}"
    );

    // Webhook parameters are not typed yet; the payload is.
    let text = "openapi: 3.2.0\ninfo: {title: x, version: '1'}\nwebhooks:\n  ping:\n    post:\n      parameters:\n        - {name: X-Sig, in: header, schema: {type: string}}\n      requestBody:\n        content:\n          application/json:\n            schema: {type: object, properties: {n: {type: integer}}}\n      responses:\n        '204': {description: ok}\n";
    let w = warnings(text);
    assert_eq!(w[0].0, "/webhooks/ping/post", "{w:?}");
    let out = generate(text).unwrap();
    assert!(out.files.contains_key("server/src/webhooks.rs"));
    assert!(out.files.contains_key("client/src/webhooks.rs"));
}

#[test]
fn all_of_merging_the_schema_it_stands_in_is_a_recursive_type() {
    // Fuzz seed 6 (tests/fuzz/seed-6.json): `serve.loop` is `allOf: [serve, {…}]`, so the
    // merged properties hold `loop` again; the lowering recursed until the stack overflowed.
    let text = include_str!("../fuzz/seed-6.json");
    let out = generate(text).unwrap_or_else(|e| panic!("{e}"));
    let types = &out.files["server/src/types.rs"];
    assert!(
        types.contains("pub r#loop: Option<Box<ServeLoop>>"),
        "the merged type holds itself, boxed:\n{types}"
    );
}

/// `levels` schemas nested inline, each the `items` of the one above.
fn nested_arrays(levels: usize) -> String {
    let mut schema = "{\"type\": \"string\"}".to_string();
    for _ in 0..levels {
        schema = format!("{{\"type\": \"array\", \"items\": {schema}}}");
    }
    format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"x\", \"version\": \"1\"}}, \"paths\": {{}}, \"components\": {{\"schemas\": {{\"Deep\": {schema}}}}}}}"
    )
}

#[test]
fn schemas_nested_too_deep_fail_with_a_pointer_not_a_crash() {
    // Within the limit: a type, however silly.
    generate(&nested_arrays(40)).unwrap_or_else(|e| panic!("{e}"));
    // Past it: an error at the schema where the limit was passed.
    let err = generate(&nested_arrays(100)).unwrap_err();
    assert!(err.to_string().contains("levels deep"), "{err}");
    assert!(
        err.0[0]
            .pointer
            .starts_with("/components/schemas/Deep/items/items/"),
        "{err}"
    );
}

#[test]
fn documents_nested_past_the_parsers_limits_fail_cleanly() {
    // Far past any limit, in both syntaxes: an error, never a stack overflow.
    let json = format!(
        "{{\"openapi\": \"3.0.3\", \"x-deep\": {}{}}}",
        "[".repeat(2_000),
        "]".repeat(2_000)
    );
    let err = generate(&json).unwrap_err();
    assert!(err.to_string().contains("recursion limit"), "{err}");
    let yaml = format!(
        "openapi: 3.0.3\nx-deep: {}{}\n",
        "[".repeat(2_000),
        "]".repeat(2_000)
    );
    let err = generate(&yaml).unwrap_err();
    assert!(err.to_string().contains("recursion limit"), "{err}");
}

/// A path parameter spelled apart from its placeholder (openai: `{certificate_id}` described
/// by `cert_id`) fills the placeholder, with a warning at the parameter; one the path cannot
/// carry beside a template that has no free placeholder is left out, with a warning.
#[test]
fn path_parameters_missing_from_the_template_are_reconciled_with_a_warning() {
    let text = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /certs/{certificate_id}:\n    get:\n      operationId: getCert\n      parameters:\n        - {name: cert_id, in: path, required: true, schema: {type: string}}\n      responses:\n        '204': {description: ok}\n  /plain:\n    get:\n      operationId: plain\n      parameters:\n        - {name: stray, in: path, required: true, schema: {type: string}}\n      responses:\n        '204': {description: ok}\n";
    let out = generate(text).unwrap();
    let found = |pointer: &str, words: &str| {
        out.warnings
            .iter()
            .any(|w| w.pointer == pointer && w.message.contains(words))
    };
    assert!(
        found(
            "/paths/~1certs~1{certificate_id}/get/parameters/0",
            "it fills `{certificate_id}`"
        ),
        "{:?}",
        out.warnings
    );
    assert!(
        found("/paths/~1plain/get/parameters/0", "left out"),
        "{:?}",
        out.warnings
    );
    let client = &out.files["client/src/client.rs"];
    assert!(
        client.contains("pub async fn get_cert(&self, cert_id: &str)")
            || client.contains("cert_id: &str,"),
        "the parameter stays an argument: {client}"
    );
    // In code (a doc comment's example call may pass the parameter's name as its value).
    let code: String = client
        .lines()
        .filter(|l| !l.trim_start().starts_with("///"))
        .collect();
    assert!(
        !code.contains("\"certificate_id\""),
        "the placeholder is filled by the parameter, not sent as written"
    );
    assert!(
        !client.contains("stray"),
        "a parameter the path cannot carry is not an argument"
    );
}

/// A path document with the given `paths:` block (YAML, indented by two spaces).
fn with_paths(paths: &str) -> String {
    format!("openapi: 3.0.3\ninfo: {{title: x, version: '1'}}\npaths:\n{paths}")
}

#[test]
fn paths_no_request_can_tell_apart_are_refused_where_the_second_stands() {
    // Same shape, only the parameter names differ, the same method: the router could serve
    // only one of them.
    let text = with_paths(
        "  /a/{x}:\n    get:\n      operationId: first\n      responses: {'200': {description: ok}}\n  /a/{y}:\n    get:\n      operationId: second\n      responses: {'200': {description: ok}}\n",
    );
    let err = generate(&text).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a~1{y}/get", "{err}");
    assert!(
        err.to_string()
            .contains("`GET /a/{y}` cannot be told apart from `GET /a/{x}` (operation `first`)"),
        "{err}"
    );
    // Other methods, other text or a constant query keep them apart: no error.
    for (second, method) in [
        ("/a/{y}", "delete"),
        ("/a/{y}.json", "get"),
        ("/a/{y}?v=2", "get"),
    ] {
        let text = with_paths(&format!(
            "  /a/{{x}}:\n    get:\n      responses: {{'200': {{description: ok}}}}\n  {second}:\n    {method}:\n      responses: {{'200': {{description: ok}}}}\n"
        ));
        assert!(generate(&text).is_ok(), "{second} {method}");
    }
}

#[test]
fn unreadable_path_templates_are_located() {
    for (key, says) in [
        ("/a/{id", "`{` without its `}`"),
        ("/a/{x}{y}", "two parameters with nothing between them"),
    ] {
        let text = with_paths(&format!(
            "  '{key}':\n    get:\n      responses: {{'200': {{description: ok}}}}\n"
        ));
        let err = generate(&text).unwrap_err();
        assert_eq!(
            err.0[0].pointer,
            format!("/paths/{}", key.replace('/', "~1")),
            "{err}"
        );
        assert!(err.to_string().contains(says), "{key}: {err}");
    }
    // A path without its leading `/` (which the 3.0 model would leave out silently).
    let text = with_paths("  a/b:\n    get:\n      responses: {'200': {description: ok}}\n");
    let err = generate(&text).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/a~1b", "{err}");
    assert!(
        err.to_string().contains("a path must start with `/`"),
        "{err}"
    );
}

/// A discriminator `mapping` key the variant's own property forbids (scalar-galaxy's `planet`
/// for a `Planet` whose `type` is `terrestrial`, …) is said where the key stands: no value
/// fits both.
#[test]
fn a_mapping_key_its_variant_forbids_is_located() {
    let text = r#"openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Body'}
components:
  schemas:
    Body:
      oneOf: [{$ref: '#/components/schemas/Planet'}, {$ref: '#/components/schemas/Moon'}]
      discriminator:
        propertyName: type
        mapping: {planet: '#/components/schemas/Planet', moon: '#/components/schemas/Moon'}
    Planet:
      type: object
      properties: {type: {type: string, enum: [terrestrial, dwarf]}}
    Moon:
      type: object
      properties: {type: {type: string, enum: [moon]}}
"#;
    let out = generate(text).unwrap();
    let found: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("no value fits both"))
        .collect();
    assert_eq!(found.len(), 1, "{:?}", out.warnings);
    assert_eq!(
        found[0].pointer,
        "/components/schemas/Body/discriminator/mapping/planet"
    );
    assert!(found[0].message.contains("`terrestrial`, `dwarf`"));
}

/// 3.0's `{$ref: X, nullable: true}` means "X or null" (openai's `reasoning`): OpenAPI 3.0
/// ignores keywords beside `$ref`, but the documents' servers send `null` there and
/// schemathesis reads it so. The property is nullable, and no warning is needed.
#[test]
fn a_nullable_reference_in_3_0_is_nullable() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths: {}
components:
  schemas:
    Reasoning: {type: object, properties: {effort: {type: string}}}
    Response:
      type: object
      properties:
        reasoning: {$ref: '#/components/schemas/Reasoning', nullable: true}
        plain: {$ref: '#/components/schemas/Reasoning'}
        choice: {allOf: [{$ref: '#/components/schemas/Reasoning'}, {nullable: true}]}
        default: {$ref: '#/components/schemas/Reasoning', nullable: true}
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    assert!(
        types.contains("pub reasoning: Option<Option<Reasoning>>"),
        "{types}"
    );
    assert!(types.contains("pub plain: Option<Reasoning>"), "{types}");
    // (openai's `tool_choice`: a part that says only `nullable`.)
    assert!(
        types.contains("pub choice: Option<Option<Reasoning>>"),
        "{types}"
    );
    // A property named like a keyword that holds a value (`default`) is a schema still.
    assert!(
        types.contains("pub default: Option<Option<Reasoning>>"),
        "{types}"
    );
}

/// Properties of a schema's own beside its `allOf` (`swagger-parser-issue-1796`
/// `ComposedModel`): a value must fit both, so the struct holds the own members and the parts'
/// (with only its own, the mock's answer would lack the required `uuid`); a `required` beside
/// `allOf` also names members a part declares.
#[test]
fn own_properties_beside_all_of_keep_the_parts() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths: {}
components:
  schemas:
    BaseModel:
      type: object
      required: [uuid]
      properties: {uuid: {type: string}, note: {type: string}}
    ComposedModel:
      type: object
      required: [name, note]
      allOf: [{$ref: '#/components/schemas/BaseModel'}]
      properties: {name: {type: string}}
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    let composed = &types[types.find("pub struct ComposedModel").expect(types)..];
    let composed = &composed[..composed.find("\n}").unwrap()];
    assert!(composed.contains("pub name: String"), "{composed}");
    assert!(composed.contains("pub uuid: String"), "{composed}");
    // Optional in BaseModel, required by ComposedModel's own list.
    assert!(composed.contains("pub note: String"), "{composed}");
}

/// A union each of whose branches is writeOnly is writeOnly (prefect's `auth_string`:
/// `anyOf: [{type: string, writeOnly: true}, {type: null}]` beside a keyword of its own, so the
/// branch stays a branch): the mock leaves it out of its answers, as it does a writeOnly
/// property (it answered it, and schemathesis refused the answer).
#[test]
fn a_union_of_write_only_branches_is_write_only() {
    let text = r#"openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /settings:
    get:
      operationId: settings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Settings'}
components:
  schemas:
    Settings:
      type: object
      properties:
        url: {type: string}
        auth_string:
          anyOf: [{type: string, writeOnly: true}, {type: 'null'}]
          supported_environment_variables: [AUTH_STRING]
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    let field = &types[..types.find("pub auth_string").expect(types)];
    assert!(
        field[field.rfind("pub url").expect(types)..].contains("Write-only"),
        "{types}"
    );
    let mock = &out.files["server/src/mock.rs"];
    assert!(mock.contains("url"), "{mock}");
    assert!(!mock.contains("auth_string"), "{mock}");
}

/// A boolean whose `enum` allows one value (slack's `defs_ok_false`: `enum: [false]`) is
/// written with it: in the mock's answers and in the error body the server refuses requests
/// with (it wrote `"ok":true` into slack's error body, which the document forbids).
#[test]
fn a_boolean_with_one_allowed_value_is_made_with_it() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /auth.revoke:
    get:
      operationId: revoke
      parameters:
        - {name: test, in: query, schema: {type: boolean}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [ok, revoked]
                properties:
                  ok: {$ref: '#/components/schemas/defs_ok_true'}
                  revoked: {type: boolean}
        default:
          description: error
          content:
            application/json:
              schema:
                type: object
                required: [ok, error]
                properties:
                  ok: {$ref: '#/components/schemas/defs_ok_false'}
                  error: {type: string}
components:
  schemas:
    defs_ok_true: {type: boolean, enum: [true]}
    defs_ok_false: {type: boolean, enum: [false]}
"#;
    let out = generate(text).unwrap();
    let all: String = out
        .files
        .iter()
        .filter(|(path, _)| path.starts_with("server/src/"))
        .map(|(_, text)| text.as_str())
        .collect();
    let compact: String = all.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        compact.contains(r#"\"ok\":false"#) || compact.contains(r#""ok":false"#),
        "{all}"
    );
    assert!(!compact.contains(r#"\"ok\":true,\"error\""#), "{all}");
}

/// A `oneOf` whose variant is a checked scalar (nexus's `NameOrId`: a `uuid`, or a `Name`
/// with `maxLength` and `pattern`) checks that variant's constraints, and a parameter of it
/// is checked: a 64-character name reached the implementation.
#[test]
fn a_one_of_checks_its_scalar_variants() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /instances/{instance}:
    get:
      operationId: view
      parameters:
        - {name: instance, in: path, required: true, schema: {$ref: '#/components/schemas/NameOrId'}}
      responses:
        '204': {description: ok}
components:
  schemas:
    Name: {type: string, pattern: '^[a-z]+$', maxLength: 63}
    NameOrId:
      oneOf:
        - {title: id, allOf: [{type: string, format: uuid}]}
        - {title: name, allOf: [{$ref: '#/components/schemas/Name'}]}
    IpNet:
      oneOf:
        - {title: v4, type: string, pattern: '^[0-9.]+/[0-9]+$'}
        - {title: v6, type: string, pattern: '^[0-9a-f:]+/[0-9]+$'}
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    let validate = &types[types.find("impl Validate for NameOrId").expect(types)..];
    let validate = &validate[..validate.find("\n}\n").unwrap()];
    assert!(
        validate.contains("check_max_length(value, 63, pointer, out)"),
        "{validate}"
    );
    assert!(validate.contains("check_pattern"), "{validate}");
    // The parameter's declaration names the check (`params::declare!` runs it).
    let api = &out.files["server/src/api.rs"];
    assert!(api.contains("#[checks(validate)]"), "{api}");
    // Two string variants told apart by pattern alone (nexus's `IpNet`): each variant's
    // pattern is checked, and the reader takes the first variant whose checks the value
    // passes (taking the first for any string would leave neither pattern to judge the value,
    // and invalid nets would be accepted). tests/tests/constructs_e2e.rs sends such values.
    let ip = &types[types.find("impl Validate for IpNet").expect(types)..];
    let ip = &ip[..ip.find("\n}\n").unwrap()];
    assert_eq!(ip.matches("check_pattern").count(), 2, "{ip}");
    // The reader is the runtime's (`unions::json!`), told to check each variant it reads.
    let declared = &types[..types.find("pub enum IpNet").expect(types)];
    let declared = &declared[declared.rfind("unions::json!").expect(types)..];
    assert!(
        declared.contains("#[json(checked, from_param)]"),
        "{declared}"
    );
}

/// 3.0: a `oneOf` branch that is `nullable` lets `null` through the whole (openai's `stop`:
/// `oneOf: [{type: string, nullable: true}, {type: array}]`, `default: null`): the union's
/// reader tried each branch's type on `null` and refused it with a 400.
#[test]
fn a_nullable_branch_makes_the_union_nullable() {
    let text = r#"openapi: 3.0.3
info: {title: x, version: '1'}
paths: {}
components:
  schemas:
    Request:
      type: object
      properties:
        stop:
          default: null
          oneOf:
            - {type: string, nullable: true}
            - {type: array, minItems: 1, items: {type: string}}
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    assert!(types.contains("pub stop: Option<Option<"), "{types}");
}

/// A string `enum` beside `allOf` (discord's install scopes: `{type: string, enum:
/// [applications.commands, bot], allOf: [{$ref: OAuth2Scopes}]}`, a `oneOf` of constants) is
/// that enum: merged as object parts it became any JSON value, and the mock answered `{}`.
#[test]
fn a_string_enum_beside_all_of_is_an_enum() {
    let text = r#"openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /install:
    get:
      operationId: install
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [scopes]
                properties:
                  scopes:
                    type: array
                    items:
                      type: string
                      enum: [applications.commands, bot]
                      allOf: [{$ref: '#/components/schemas/OAuth2Scopes'}]
components:
  schemas:
    OAuth2Scopes:
      type: string
      oneOf:
        - {title: BOT, const: bot}
        - {title: COMMANDS, const: applications.commands}
        - {title: EMAIL, const: email}
"#;
    let out = generate(text).unwrap();
    let types = &out.files["server/src/types.rs"];
    assert!(!types.contains("ScopesItem = serde_json::Value"), "{types}");
    assert!(
        types.contains("pub enum InstallOkBodyScopesItem"),
        "{types}"
    );
    let mock = &out.files["server/src/mock.rs"];
    assert!(mock.contains("applications.commands"), "{mock}");
}
