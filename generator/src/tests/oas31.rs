//! Unit tests of the 3.1/3.2 up-reading: each construct read into the IR the 3.0 form gives.

use super::field;
use crate::diag::Sink;
use crate::ir::{Api, Bound, TypeKind, TypeRef};
use crate::load::parse;

fn doc(version: &str, body: &str) -> String {
    format!("openapi: {version}\ninfo: {{title: T, version: '1'}}\n{body}")
}

fn lower(text: &str) -> (Api, Sink) {
    super::lower_text(text)
}

const SCHEMAS: &str = "\
components:
  schemas:
    Pet:
      type: object
      required: [name, tag, owner, labels]
      properties:
        name: {type: string}
        tag: {type: [string, 'null']}
        nick: {type: [string, 'null'], maxLength: 5}
        owner:
          anyOf:
            - $ref: '#/components/schemas/Owner'
            - type: 'null'
        friend:
          description: the best friend
          $ref: '#/components/schemas/Owner'
        kind: {const: dog}
        age: {type: integer, exclusiveMinimum: 0, exclusiveMaximum: 30}
        weight: {type: number, minimum: 5, exclusiveMinimum: 1}
        motto: {type: string, examples: [woof]}
        labels:
          description: what the keeper notes
          $ref: '#/components/schemas/Labels'
    Labels:
      anyOf:
        - type: object
          additionalProperties: {type: string}
        - type: 'null'
    Owner:
      type: object
      properties:
        id: {type: integer}
";

#[test]
fn every_3x_version_is_read() {
    for v in ["3.0.3", "3.1.0", "3.1.1", "3.2.0"] {
        let text = doc(v, "paths: {}\n");
        let loaded = parse(&text).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert!(loaded.doc.paths.paths.is_empty());
    }
    // 3.1: `paths` may be left out.
    let loaded = parse(&doc(
        "3.1.0",
        "components: {schemas: {A: {type: string}}}\n",
    ))
    .unwrap();
    assert!(loaded.doc.paths.paths.is_empty());
    assert!(
        parse(&doc("3.0.3", "components: {}\n")).is_err(),
        "3.0 requires paths"
    );
}

#[test]
fn nullable_spellings_match_the_3_0_meaning() {
    let (api, sink) = lower(&doc("3.1.0", SCHEMAS));
    assert!(sink.items.is_empty(), "{:?}", sink.items);
    let tag = field(&api, "Pet", "tag");
    assert_eq!(
        (tag.ty.clone(), tag.required, tag.nullable),
        (TypeRef::String, true, true)
    );
    let nick = field(&api, "Pet", "nick");
    assert_eq!((nick.required, nick.nullable), (false, true));
    assert_eq!(nick.constraints.max_length, Some(5));
    let owner = field(&api, "Pet", "owner");
    assert_eq!(owner.ty, TypeRef::Named("Owner".into()));
    assert!(owner.required && owner.nullable);
    // A reference with a description beside it (read as a one-part `allOf`) to a schema that
    // admits `null` admits it too (openai's required `metadata`).
    let labels = field(&api, "Pet", "labels");
    assert_eq!(labels.ty, TypeRef::Named("Labels".into()));
    assert!(labels.required && labels.nullable);
}

#[test]
fn ref_siblings_const_bounds_examples() {
    let (api, _) = lower(&doc("3.1.0", SCHEMAS));
    let friend = field(&api, "Pet", "friend");
    assert_eq!(friend.ty, TypeRef::Named("Owner".into()));
    assert_eq!(friend.doc, vec!["the best friend".to_string()]);
    assert!(!friend.nullable);
    let kind = field(&api, "Pet", "kind");
    let TypeRef::Named(kind_ty) = &kind.ty else {
        panic!("const string is an enum: {:?}", kind.ty)
    };
    let def = api.types.iter().find(|t| &t.name == kind_ty).unwrap();
    assert!(matches!(&def.kind, TypeKind::Enum(v) if v.len() == 1 && v[0].wire == "dog"));
    let age = field(&api, "Pet", "age");
    assert_eq!(age.constraints.minimum.map(Bound::as_f64), Some(0.0));
    assert!(age.constraints.exclusive_minimum);
    assert_eq!(age.constraints.maximum.map(Bound::as_f64), Some(30.0));
    assert!(age.constraints.exclusive_maximum);
    // An inclusive bound stricter than the exclusive one wins.
    let weight = field(&api, "Pet", "weight");
    assert_eq!(weight.constraints.minimum.map(Bound::as_f64), Some(5.0));
    assert!(!weight.constraints.exclusive_minimum);
}

#[test]
fn the_3_0_reading_is_unchanged() {
    // The same words in a 3.0 document keep their 3.0 meaning (a type list is not 3.0).
    let text = doc(
        "3.0.3",
        "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        n: {type: integer, minimum: 1, exclusiveMinimum: true}\n",
    );
    let (api, _) = lower(&text);
    let n = field(&api, "A", "n");
    assert_eq!(n.constraints.minimum.map(Bound::as_f64), Some(1.0));
    assert!(n.constraints.exclusive_minimum);
}

#[test]
fn multi_type_lists_become_unions() {
    let text = doc(
        "3.1.0",
        "components:\n  schemas:\n    Id:\n      type: [string, integer, 'null']\n      minLength: 2\n",
    );
    let (api, sink) = lower(&text);
    assert!(sink.items.is_empty(), "{:?}", sink.items);
    let id = api.types.iter().find(|t| t.name == "Id").unwrap();
    let TypeKind::OneOf(o) = &id.kind else {
        panic!("{:?}", id.kind)
    };
    let tys: Vec<_> = o.variants.iter().map(|v| v.ty.clone()).collect();
    assert_eq!(tys, vec![TypeRef::String, TypeRef::I64]);
}

#[test]
fn webhooks_path_items_and_3_2_operations_are_kept() {
    let text = doc(
        "3.2.0",
        "\
paths:
  /a: {$ref: '#/components/pathItems/A', summary: mine}
  /b:
    query:
      responses: {'200': {description: ok}}
    additionalOperations:
      COPY:
        responses: {'200': {description: ok}}
    get:
      parameters:
        - {name: q, in: querystring, content: {application/x-www-form-urlencoded: {schema: {type: object}}}}
        - {name: n, in: query, schema: {type: [integer, 'null']}}
      responses: {'200': {description: ok}}
webhooks:
  ping:
    post:
      requestBody: {content: {application/json: {schema: {type: [string, 'null']}}}}
components:
  pathItems:
    A:
      get:
        operationId: getA
        responses:
          '200':
            description: ok
            content: {application/json: {schema: {type: [string, 'null']}}}
",
    );
    let loaded = parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let a = loaded.doc.paths.paths["/a"].as_item().unwrap();
    assert_eq!(a.summary.as_deref(), Some("mine"));
    assert_eq!(
        a.get.as_ref().unwrap().operation_id.as_deref(),
        Some("getA")
    );
    assert_eq!(
        loaded.original("/paths/~1a/get/responses"),
        "/components/pathItems/A/get/responses"
    );
    let b = loaded.doc.paths.paths["/b"].as_item().unwrap();
    assert!(b.extensions.contains_key("x-apigen-query"));
    assert!(b.extensions.contains_key("x-apigen-additional-operations"));
    let get = b.get.as_ref().unwrap();
    assert_eq!(get.parameters.len(), 1);
    assert!(get.extensions.contains_key("x-apigen-querystring"));
    assert_eq!(
        loaded.original("/paths/~1b/get/parameters/0"),
        "/paths/~1b/get/parameters/1"
    );
    assert_eq!(
        loaded.original("/paths/~1b/get/x-apigen-querystring/0"),
        "/paths/~1b/get/parameters/0"
    );
    let hooks = &loaded.doc.extensions["x-apigen-webhooks"];
    let schema = &hooks["ping"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(
        schema,
        &serde_json::json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        loaded.original("/x-apigen-webhooks/ping/post"),
        "/webhooks/ping/post"
    );
}

#[test]
fn unsupported_keywords_warn_where_the_user_wrote_them() {
    let text = doc(
        "3.1.0",
        "\
jsonSchemaDialect: https://example.com/dialect
components:
  schemas:
    A:
      type: object
      if: {properties: {a: {const: 1}}}
      then: {required: [b]}
      properties:
        a: {type: integer}
        b: {$dynamicRef: '#node'}
        c:
          anyOf:
            - type: object
              properties:
                d: {not: {type: string}}
            - type: 'null'
",
    );
    let (_, sink) = lower(&text);
    let at: Vec<&str> = sink.items.iter().map(|d| d.pointer.as_str()).collect();
    assert!(at.contains(&"/jsonSchemaDialect"), "{at:?}");
    assert!(at.contains(&"/components/schemas/A/if"), "{at:?}");
    assert!(at.contains(&"/components/schemas/A/properties/b"), "{at:?}");
    // Found by the lowering in the up-read document, reported where the user wrote it.
    assert!(
        at.contains(&"/components/schemas/A/properties/c/anyOf/0/properties/d"),
        "{at:?}"
    );
}

#[test]
fn defs_are_hoisted_and_refs_follow() {
    let text = doc(
        "3.1.0",
        "\
components:
  schemas:
    A:
      type: object
      properties:
        b: {$ref: '#/components/schemas/A/$defs/B'}
      $defs:
        B: {type: object, properties: {c: {type: [string, 'null']}}}
",
    );
    let (api, sink) = lower(&text);
    assert!(sink.items.is_empty(), "{:?}", sink.items);
    let b = field(&api, "A", "b");
    let TypeRef::Named(name) = &b.ty else {
        panic!("{:?}", b.ty)
    };
    let c = field(&api, name, "c");
    assert!(c.nullable);
    let def = api.types.iter().find(|t| &t.name == name).unwrap();
    assert_eq!(def.origin, "/components/schemas/A/$defs/B");
}

#[test]
fn boolean_schemas_and_mutual_tls() {
    let text = doc(
        "3.1.0",
        "\
components:
  securitySchemes:
    tls: {type: mutualTLS}
  schemas:
    A:
      type: object
      properties:
        any: true
      unevaluatedProperties: false
",
    );
    let (api, sink) = lower(&text);
    let any = field(&api, "A", "any");
    assert_eq!(any.ty, TypeRef::Json);
    let a = api.types.iter().find(|t| t.name == "A").unwrap();
    assert!(matches!(&a.kind, TypeKind::Struct(s) if s.deny_unknown));
    assert_eq!(sink.items.len(), 1, "{:?}", sink.items);
    assert_eq!(sink.items[0].pointer, "/components/securitySchemes/tls");
}

/// `type: 'null'` alone (or `type: ['null']`) admits only `null`: a unit, as `enum: [null]`
/// is, not a nullable value of any type (whose mock `{}` broke the document).
#[test]
fn only_null_is_a_unit() {
    let text = doc(
        "3.1.0",
        "paths: {}\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      properties:\n        none: {type: 'null'}\n        listed: {type: ['null']}\n        either: {type: [string, 'null']}\n",
    );
    let (api, _) = lower(&text);
    assert_eq!(field(&api, "Pet", "none").ty, TypeRef::Unit);
    assert_eq!(field(&api, "Pet", "listed").ty, TypeRef::Unit);
    let either = field(&api, "Pet", "either");
    assert_eq!((&either.ty, either.nullable), (&TypeRef::String, true));
}

#[test]
fn a_3_0_nullable_part_in_a_3_1_document_makes_the_whole_nullable() {
    // openai's 3.1 document (converted from 3.0) writes `allOf: [{$ref}, {nullable: true}]`
    // for a required member that may be `null`: the reference, or null, not an object of no
    // known shape (the mock answered `{}`, which no branch of the union takes).
    let (api, sink) = lower(&doc(
        "3.1.0",
        "\
paths: {}
components:
  schemas:
    Choice:
      oneOf:
        - {type: string, enum: [none, auto]}
        - {type: object, required: [type], properties: {type: {type: string}}}
    Run:
      type: object
      required: [tool_choice]
      properties:
        tool_choice:
          allOf:
            - $ref: '#/components/schemas/Choice'
            - nullable: true
",
    ));
    assert!(sink.items.is_empty(), "{:?}", sink.items);
    let f = field(&api, "Run", "tool_choice");
    assert_eq!(
        (&f.ty, f.nullable),
        (&TypeRef::Named("Choice".into()), true)
    );
}

#[test]
fn a_dynamic_ref_bound_where_it_is_used_becomes_a_type_of_its_own() {
    // scalar-galaxy's `PaginatedResource<T>`: `items: {$dynamicRef: '#itemType'}`, bound to
    // `Planet` by the `$defs` beside the `$ref` of each use.
    let (api, sink) = lower(&doc(
        "3.2.0",
        "\
paths:
  /planets:
    get:
      responses:
        '200':
          description: A page of planets.
          content:
            application/json:
              schema:
                $id: 'https://example.com/schemas/PaginatedPlanets'
                $defs:
                  itemType:
                    $dynamicAnchor: itemType
                    $ref: '#/components/schemas/Planet'
                $ref: '#/components/schemas/PaginatedResource'
components:
  schemas:
    Planet:
      type: object
      required: [name]
      properties:
        name: {type: string}
    PaginatedResource:
      $id: 'https://example.com/schemas/PaginatedResource'
      $defs:
        itemType:
          $dynamicAnchor: itemType
          not: {}
      type: object
      properties:
        data:
          type: array
          items:
            $dynamicRef: '#itemType'
",
    ));
    let page = field(&api, "PaginatedPlanets", "data");
    assert_eq!(
        page.ty,
        TypeRef::Vec(Box::new(TypeRef::Named("Planet".into())))
    );
    let op = &api.operations[0];
    let answer = op.responses[0].body.as_ref().expect("a body");
    assert!(
        matches!(&answer.kind, crate::ir::BodyKind::Json(TypeRef::Named(n)) if n == "PaginatedPlanets"),
        "{:?}",
        answer.kind
    );
    // The generic itself, unbound, still warns where its `$dynamicRef` was written.
    let at: Vec<&str> = sink.items.iter().map(|d| d.pointer.as_str()).collect();
    assert!(
        at.contains(&"/components/schemas/PaginatedResource/properties/data/items"),
        "{at:?}"
    );
}

#[test]
fn not_all_of_required_is_checked_and_the_mock_answers_one_of_them() {
    // openai's `ImageRefParam`: a URL or a file id, at least one, not both.
    let text = doc(
        "3.1.0",
        r#"paths:
  /refs:
    get:
      responses:
        '200':
          description: A reference.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ImageRef'}
components:
  schemas:
    ImageRef:
      type: object
      properties:
        image_url: {type: string}
        file_id: {type: string}
      anyOf:
        - required: [image_url]
        - required: [file_id]
      not:
        required: [image_url, file_id]
      additionalProperties: false
"#,
    );
    let (api, sink) = lower(&text);
    assert!(sink.items.is_empty(), "{:?}", sink.items);
    let image_ref = api.types.iter().find(|t| t.name == "ImageRef").unwrap();
    let TypeKind::Struct(s) = &image_ref.kind else {
        panic!("not a struct: {:?}", image_ref.kind);
    };
    assert_eq!(
        s.not_all_of,
        vec![vec!["image_url".to_string(), "file_id".to_string()]]
    );
    assert!(image_ref.validated);
    // The mock's made-up answer holds the first, not both.
    let answer = &api.operations[0].mock.bodies;
    assert!(!answer.is_empty());
    for body in answer {
        assert!(body.get("image_url").is_some(), "{body}");
        assert!(body.get("file_id").is_none(), "{body}");
    }
}

#[test]
fn a_type_recursing_through_two_required_members_gets_a_small_mock_answer() {
    // A tree whose node holds two nodes, and an expression whose first variant holds two
    // expressions (fuzzer seed 109): made naively, a value doubled at each level down to
    // the deepest (2^20 nodes, minutes and gigabytes). Past the shallow levels a type met
    // again is `null`, and a union takes the variant that ends.
    let text = doc(
        "3.1.0",
        r#"paths:
  /trees:
    get:
      responses:
        '200':
          description: A tree and an expression.
          content:
            application/json:
              schema:
                type: object
                required: [tree, expr]
                properties:
                  tree: {$ref: '#/components/schemas/Node'}
                  expr: {$ref: '#/components/schemas/Expr'}
components:
  schemas:
    Node:
      type: object
      required: [left, right]
      properties:
        left: {$ref: '#/components/schemas/Node'}
        right: {$ref: '#/components/schemas/Node'}
    Expr:
      oneOf:
        - $ref: '#/components/schemas/Sum'
        - {type: integer}
    Sum:
      type: object
      required: [a, b]
      properties:
        a: {$ref: '#/components/schemas/Expr'}
        b: {$ref: '#/components/schemas/Expr'}
"#,
    );
    let (api, _sink) = lower(&text);
    let answer = &api.operations[0].mock.bodies;
    assert!(!answer.is_empty());
    for body in answer {
        let size = body.to_string().len();
        assert!(size < 2_000, "{size} bytes: {body}");
        // Down to the shallow levels, the first variant, as before; the integer at the end.
        let mut expr = &body["expr"];
        while expr.is_object() {
            expr = &expr["a"];
        }
        assert!(expr.is_i64(), "{body}");
    }
}
