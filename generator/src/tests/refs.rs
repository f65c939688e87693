//! Documents split over several files, rule by rule, on small documents held in memory.

use crate::diag::Diagnostics;
use crate::load::{Loaded, read};
use serde_json::Value;
use std::collections::BTreeMap;

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn load(list: &[(&str, &str)]) -> Result<Loaded, Diagnostics> {
    read(list[0].0, &files(list))
}

fn json(loaded: &Loaded) -> Value {
    serde_json::to_value(&loaded.doc).unwrap()
}

const HEAD: &str = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n";

#[test]
fn a_path_item_in_its_own_file_is_read_in_place() {
    let root = format!("{HEAD}paths:\n  /orders/{{id}}:\n    $ref: paths/orders_{{id}}.yaml\n");
    let item = "\
parameters:
  - $ref: ../components/parameters/Id.yaml
get:
  operationId: getOrder
  responses:
    '200':
      description: ok
      content:
        application/json:
          schema: {$ref: ../components/schemas/Order.yaml}
    '404': {$ref: '../components/responses/NotFound.yaml'}
";
    let loaded = load(&[
        ("openapi.yaml", &root),
        ("paths/orders_{id}.yaml", item),
        (
            "components/parameters/Id.yaml",
            "{name: id, in: path, required: true, schema: {type: string}}",
        ),
        (
            "components/schemas/Order.yaml",
            "type: object\nproperties:\n  id: {type: string}\n  lines: {type: array, items: {$ref: ./Line.yaml}}\n",
        ),
        (
            "components/schemas/Line.yaml",
            "{type: object, properties: {sku: {type: string}}}",
        ),
        (
            "components/responses/NotFound.yaml",
            "description: gone\ncontent:\n  application/json:\n    schema: {$ref: ../schemas/Error.yaml}\n",
        ),
        (
            "components/schemas/Error.yaml",
            "{type: object, properties: {message: {type: string}}}",
        ),
    ])
    .unwrap();
    let doc = json(&loaded);
    let op = &doc["paths"]["/orders/{id}"]["get"];
    assert_eq!(op["operationId"], "getOrder");
    assert_eq!(
        doc["paths"]["/orders/{id}"]["parameters"][0]["$ref"],
        "#/components/parameters/Id"
    );
    assert_eq!(
        op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Order"
    );
    assert_eq!(
        op["responses"]["404"]["$ref"],
        "#/components/responses/NotFound"
    );
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["Order"]["properties"]["lines"]["items"]["$ref"],
        "#/components/schemas/Line"
    );
    assert!(schemas["Error"].is_object());
    assert_eq!(
        loaded.files,
        [
            "openapi.yaml",
            "paths/orders_{id}.yaml",
            "components/parameters/Id.yaml",
            "components/schemas/Order.yaml",
            "components/schemas/Line.yaml",
            "components/responses/NotFound.yaml",
            "components/schemas/Error.yaml"
        ]
    );
    // Places map back to the files they were written in.
    assert_eq!(
        loaded.original("/paths/~1orders~1{id}/get/responses/200"),
        "paths/orders_{id}.yaml#/get/responses/200"
    );
    assert_eq!(
        loaded.original("/components/schemas/Line/properties/sku"),
        "components/schemas/Line.yaml#/properties/sku"
    );
    assert_eq!(loaded.original("/paths"), "/paths");
}

#[test]
fn every_kind_of_component_and_a_whole_operation() {
    let root = format!(
        "{HEAD}paths:\n  /a:\n    post:\n      $ref: 'ops.yaml#/createA'\ncomponents:\n  securitySchemes:\n    key: {{$ref: 'security.json#/key'}}\n"
    );
    let ops = "\
createA:
  operationId: createA
  requestBody: {$ref: '#/bodies/A'}
  parameters:
    - name: trace
      in: header
      schema: {type: string}
      examples: {one: {$ref: 'examples.yaml#/trace'}}
  callbacks:
    done: {$ref: '#/callbacks/done'}
  responses:
    '201':
      description: made
      headers:
        Location: {$ref: '#/headers/Location'}
      links:
        self: {$ref: '#/links/self'}
bodies:
  A:
    content:
      application/json:
        schema: {$ref: '#/schemas/A'}
schemas:
  A: {type: object, properties: {name: {type: string}}}
headers:
  Location: {schema: {type: string}}
links:
  self: {operationId: createA}
callbacks:
  done:
    '{$request.body#/url}':
      post:
        responses:
          '200': {description: ok}
";
    let loaded = load(&[
        ("root.yaml", &root),
        ("ops.yaml", ops),
        (
            "security.json",
            r#"{"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}"#,
        ),
        ("examples.yaml", "trace: {value: abc}\n"),
    ])
    .unwrap();
    let doc = json(&loaded);
    let op = &doc["paths"]["/a"]["post"];
    assert_eq!(op["operationId"], "createA");
    assert_eq!(op["requestBody"]["$ref"], "#/components/requestBodies/A");
    assert_eq!(
        op["parameters"][0]["examples"]["one"]["$ref"],
        "#/components/examples/trace"
    );
    // The 3.0 model holds no reference to a callback: it is copied in place.
    assert!(op["callbacks"]["done"]["{$request.body#/url}"]["post"].is_object());
    let created = &op["responses"]["201"];
    assert_eq!(
        created["headers"]["Location"]["$ref"],
        "#/components/headers/Location"
    );
    assert_eq!(created["links"]["self"]["$ref"], "#/components/links/self");
    let c = &doc["components"];
    assert_eq!(
        c["requestBodies"]["A"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/A"
    );
    assert_eq!(c["examples"]["trace"]["value"], "abc");
    // A component that only refers to another file becomes what it refers to.
    assert_eq!(c["securitySchemes"]["key"]["name"], "X-Key");
    assert_eq!(
        loaded.original("/components/securitySchemes/key/name"),
        "security.json#/key/name"
    );
}

#[test]
fn files_that_refer_to_each_other_and_one_file_reached_two_ways() {
    let root = format!(
        "{HEAD}paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: 'schemas/Person.yaml'}}\n  /b:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: './other/../schemas/./Person.yaml'}}\n"
    );
    let loaded = load(&[
        ("api/openapi.yaml", &root),
        (
            "api/schemas/Person.yaml",
            "type: object\nproperties:\n  pet: {$ref: 'Pet.json'}\n",
        ),
        (
            "api/schemas/Pet.json",
            r#"{"type": "object", "properties": {"owner": {"$ref": "./Person.yaml"}}}"#,
        ),
    ])
    .unwrap();
    let doc = json(&loaded);
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    assert_eq!(schemas.keys().collect::<Vec<_>>(), ["Person", "Pet"]);
    assert_eq!(
        schemas["Pet"]["properties"]["owner"]["$ref"],
        "#/components/schemas/Person"
    );
    for path in ["/a", "/b"] {
        assert_eq!(
            doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
                ["$ref"],
            "#/components/schemas/Person"
        );
    }
}

#[test]
fn names_come_from_files_and_pointers_and_stay_unique() {
    let root = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    Pet: {{type: string}}\n    Alias: {{$ref: 'lib/Thing one.yaml'}}\n    Listed:\n      type: array\n      items: {{$ref: 'lib/Pet.yaml'}}\n    Deep:\n      type: object\n      properties:\n        a: {{$ref: 'lib/all.json#/$defs/Cat'}}\n        b: {{$ref: 'lib/all.json#/$defs/Cat'}}\n        c: {{$ref: 'lib/all.json#/$defs/Dog%20Walker'}}\n        d: {{$ref: 'v2/Pet.yaml'}}\n        e: {{$ref: 'lib/p_{{id}}@v2.yaml'}}\n"
    );
    let loaded = load(&[
        ("root.yaml", &root),
        ("lib/Thing one.yaml", "type: integer"),
        ("lib/Pet.yaml", "type: object"),
        (
            "lib/all.json",
            r#"{"$defs": {"Cat": {"type": "object"}, "Dog Walker": {"type": "string"}}}"#,
        ),
        ("v2/Pet.yaml", "type: boolean"),
        ("lib/p_{id}@v2.yaml", "type: number"),
    ])
    .unwrap();
    let doc = json(&loaded);
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    assert_eq!(
        schemas.keys().collect::<Vec<_>>(),
        [
            "Pet",
            "Alias",
            "Listed",
            "Deep",
            "Pet2",
            "Cat",
            "Dog_Walker",
            "Pet3",
            "p__id__v2"
        ]
    );
    assert_eq!(schemas["Alias"]["type"], "integer");
    let props = &schemas["Deep"]["properties"];
    assert_eq!(props["a"]["$ref"], props["b"]["$ref"]);
    assert_eq!(props["c"]["$ref"], "#/components/schemas/Dog_Walker");
}

#[test]
fn a_chain_of_bare_references_names_one_component() {
    // The shape of swagger-parser's `fullFS` test: a file that is only a `$ref`, a pointer
    // into a file that is only a `$ref` into a nested folder, and back out.
    let root = format!(
        "{HEAD}paths:\n  /path1: {{$ref: './ex1.json'}}\ncomponents:\n  parameters:\n    external: {{$ref: './ex1a.json#/indirection3', description: root words}}\n"
    );
    let loaded = load(&[
        ("root.yaml", &root),
        ("ex1.json", r##"{"$ref": "./ex2.json#/~1path3"}"##),
        (
            "ex2.json",
            r#"{"/path3": {"summary": "s", "get": {"responses": {"200": {"description": "ok"}}}}}"#,
        ),
        (
            "ex1a.json",
            r#"{"indirection3": {"$ref": "./nested/ex2a.json#/indirection3"}}"#,
        ),
        (
            "nested/ex2a.json",
            r#"{"indirection3": {"$ref": "./ex3a.json#/p"}}"#,
        ),
        (
            "nested/ex3a.json",
            r#"{"p": {"name": "p3", "in": "query", "schema": {"type": "string"}}}"#,
        ),
    ])
    .unwrap();
    let doc = json(&loaded);
    assert_eq!(doc["paths"]["/path1"]["summary"], "s");
    let p = &doc["components"]["parameters"]["external"];
    assert_eq!(p["name"], "p3");
    assert_eq!(p["description"], "root words");
    assert_eq!(
        loaded.original("/paths/~1path1/get"),
        "ex2.json#/~1path3/get"
    );
    assert_eq!(
        loaded.original("/components/parameters/external/name"),
        "nested/ex3a.json#/p/name"
    );
}

#[test]
fn references_outside_openapi_objects_are_left_alone() {
    let root = format!(
        "{HEAD}paths:\n  /a:\n    get:\n      x-codeSamples:\n        - lang: C#\n          source: {{$ref: ../code_samples/get.cs}}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: {{$ref: not-a-file.yaml}}\n              schema: {{$ref: 'schemas.yaml#/A'}}\n"
    );
    let loaded = load(&[
        ("api/root.yaml", &root),
        ("api/schemas.yaml", "A: {type: string}"),
    ])
    .unwrap();
    assert_eq!(loaded.files, ["api/root.yaml", "api/schemas.yaml"]);
    let doc = json(&loaded);
    let get = &doc["paths"]["/a"]["get"];
    assert_eq!(
        get["x-codeSamples"][0]["source"]["$ref"],
        "../code_samples/get.cs"
    );
    assert_eq!(
        get["responses"]["200"]["content"]["application/json"]["example"]["$ref"],
        "not-a-file.yaml"
    );
}

#[test]
fn discriminator_mappings_follow_their_files() {
    let root = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    Item: {{$ref: 'schemas/Item.yaml'}}\n"
    );
    let item = "\
oneOf:
  - $ref: ./Drink.yaml
  - $ref: ./Cake.yaml
discriminator:
  propertyName: kind
  mapping:
    drink: ./Drink.yaml
    cake: Cake.yaml
    other: Other
";
    let loaded = load(&[
        ("root.yaml", &root),
        ("schemas/Item.yaml", item),
        (
            "schemas/Drink.yaml",
            "{type: object, properties: {kind: {type: string}}}",
        ),
        (
            "schemas/Cake.yaml",
            "{type: object, properties: {kind: {type: string}}}",
        ),
    ])
    .unwrap();
    let item = &json(&loaded)["components"]["schemas"]["Item"];
    assert_eq!(item["oneOf"][0]["$ref"], "#/components/schemas/Drink");
    let mapping = &item["discriminator"]["mapping"];
    assert_eq!(mapping["drink"], "#/components/schemas/Drink");
    assert_eq!(mapping["cake"], "#/components/schemas/Cake");
    assert_eq!(mapping["other"], "Other");
}

#[test]
fn a_missing_file_or_place_is_an_error_at_the_reference() {
    let root = format!("{HEAD}paths:\n  /a:\n    $ref: paths/a.yaml\n");
    let item = "get:\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema:\n            $ref: ../schemas/Nope.yaml\n    '404':\n      $ref: '../responses.yaml#/NotFound'\n";
    let err = load(&[
        ("root.yaml", &root),
        ("paths/a.yaml", item),
        ("responses.yaml", "Gone: {description: gone}\n"),
    ])
    .unwrap_err();
    let lines: Vec<String> = err.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "error: paths/a.yaml:7:11: /get/responses/200/content/application~1json/schema: `../schemas/Nope.yaml`: cannot read schemas/Nope.yaml: no such file",
            "error: paths/a.yaml:9:5: /get/responses/404: `../responses.yaml#/NotFound`: responses.yaml has nothing at `#/NotFound`",
        ],
        "{err}"
    );
    assert_eq!(
        err.0[0].pointer,
        "paths/a.yaml#/get/responses/200/content/application~1json/schema"
    );
    // A missing path item file: the error is in the root file, at the path.
    let err = load(&[("root.yaml", &root)]).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a", "{err}");
    assert_eq!(err.0[0].position.as_ref().map(|p| p.line), Some(4), "{err}");
}

#[test]
fn remote_references_are_refused_by_name() {
    let root = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        b: {{$ref: 'https://example.com/schemas/b.json#/B'}}\n"
    );
    let err = load(&[("root.yaml", &root)]).unwrap_err();
    assert_eq!(err.0[0].pointer, "/components/schemas/A/properties/b");
    assert!(
        err.0[0]
            .message
            .contains("`https://example.com/schemas/b.json#/B` is a remote reference"),
        "{err}"
    );
}

#[test]
fn a_document_given_as_text_cannot_refer_to_files() {
    let text = format!(
        "{HEAD}paths:\n  /a:\n    get:\n      responses:\n        '200': {{$ref: 'responses.yaml#/Ok'}}\n"
    );
    let err = crate::load::parse(&text).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/responses/200");
    assert!(err.0[0].message.contains("given as text"), "{err}");
}

#[test]
fn cycles_of_bare_references_and_of_path_items_are_errors() {
    let root = format!("{HEAD}paths:\n  /a: {{$ref: 'a.yaml'}}\n  /b: {{$ref: 'b.yaml'}}\n");
    let err = load(&[
        ("root.yaml", &root),
        ("a.yaml", "$ref: a2.yaml\n"),
        ("a2.yaml", "$ref: a.yaml\n"),
        ("b.yaml", "get:\n  $ref: 'b.yaml'\n"),
    ])
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("/paths/~1a: `a.yaml` is part of a cycle"),
        "{text}"
    );
    assert!(
        text.contains("b.yaml:1:1: /get: `b.yaml` makes an operation that contains itself"),
        "{text}"
    );
}

#[test]
fn a_broken_file_is_located_in_that_file() {
    let root = format!("{HEAD}paths:\n  /a: {{$ref: 'a.yaml'}}\n");
    let err = load(&[
        ("root.yaml", &root),
        ("a.yaml", "get:\n  responses: [unclosed\n"),
    ])
    .unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a");
    assert!(
        err.0[0]
            .message
            .contains("a.yaml: cannot read the document at line 3"),
        "{err}"
    );
}

#[test]
fn errors_found_later_name_the_file_and_line_they_stand_in() {
    let root = format!("{HEAD}paths:\n  /a: {{$ref: 'paths/a.yaml'}}\n");
    let item = "get:\n  x-deprecation: {sunset: tomorrow}\n  responses:\n    '200':\n      description: ok\n";
    let sources = files(&[("spec/root.yaml", &root), ("spec/paths/a.yaml", item)]);
    let options = crate::Options {
        name: "x".into(),
        spec_label: "spec/root.yaml".into(),
        ..Default::default()
    };
    let err = crate::generate_from("spec/root.yaml", &sources, &options).unwrap_err();
    assert_eq!(err.0.len(), 1, "{err}");
    assert_eq!(
        err.0[0].pointer,
        "spec/paths/a.yaml#/get/x-deprecation/sunset"
    );
    assert!(
        err.to_string()
            .starts_with("error: spec/paths/a.yaml:2:19: /get/x-deprecation/sunset: "),
        "{err}"
    );
    // A local reference inside another file is a reference into that file.
    let item = "get:\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: {$ref: '#/components/schemas/Missing'}\n";
    let sources = files(&[("spec/root.yaml", &root), ("spec/paths/a.yaml", item)]);
    let err = crate::generate_from("spec/root.yaml", &sources, &options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error: spec/paths/a.yaml:7:11: /get/responses/200/content/application~1json/schema: `#/components/schemas/Missing`: spec/paths/a.yaml has nothing at `#/components/schemas/Missing`"
    );
}

/// References where the specification puts none: a map of property schemas, a list of
/// parameters and a map of responses kept in other files, as DigitalOcean's document is written
/// (`properties: {$ref: 'models/attributes.yml#/droplet_ids'}`); each is read as its target,
/// references inside it followed from the target's file, with a warning at the place. A
/// property named `$ref` whose value is a schema is still a property.
#[test]
fn maps_and_lists_kept_in_other_files_are_read_in_place() {
    let root = format!(
        "{HEAD}paths:
  /droplets:
    post:
      operationId: addDroplet
      parameters: {{$ref: 'shared/parameters.yml#/listing'}}
      requestBody:
        content:
          application/json:
            schema: {{$ref: 'models/droplet.yml'}}
      responses: {{$ref: 'shared/responses.yml#/created'}}
"
    );
    let loaded = load(&[
        ("openapi.yaml", &root),
        (
            "models/droplet.yml",
            "type: object\nrequired: [name]\nproperties: {$ref: 'attributes.yml#/droplet'}\n",
        ),
        (
            "models/attributes.yml",
            "droplet:\n  name: {type: string, maxLength: 8}\n  size: {$ref: 'size.yml'}\n  $ref: {type: string}\n",
        ),
        ("models/size.yml", "{type: string, enum: [s, m]}"),
        (
            "shared/parameters.yml",
            "listing:\n  - {name: page, in: query, schema: {type: integer}}\n",
        ),
        (
            "shared/responses.yml",
            "created:\n  '201':\n    description: made\n    content:\n      application/json:\n        schema: {$ref: '../models/droplet.yml'}\n",
        ),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    let doc = json(&loaded);
    let op = &doc["paths"]["/droplets"]["post"];
    assert_eq!(op["parameters"][0]["name"], "page");
    let created = &op["responses"]["201"]["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(created, "#/components/schemas/droplet");
    let droplet = &doc["components"]["schemas"]["droplet"]["properties"];
    assert_eq!(droplet["name"]["maxLength"], 8);
    assert_eq!(droplet["size"]["$ref"], "#/components/schemas/size");
    assert_eq!(droplet["$ref"]["type"], "string");
    let warned: Vec<&str> = loaded
        .warnings
        .iter()
        .filter(|w| w.message.contains("no reference is allowed there"))
        .map(|w| w.pointer.as_str())
        .collect();
    assert_eq!(warned.len(), 3, "{:?}", loaded.warnings);
    assert!(
        warned.contains(&"models/droplet.yml#/properties"),
        "{warned:?}"
    );
}

/// The same in one file: `properties: {$ref: '#/x-shared/attributes'}`.
#[test]
fn a_map_kept_elsewhere_in_the_same_file_is_read_in_place() {
    let root = format!(
        "{HEAD}paths: {{}}
x-shared:
  attributes:
    name: {{type: string}}
components:
  schemas:
    Thing:
      type: object
      properties: {{$ref: '#/x-shared/attributes'}}
"
    );
    let loaded = load(&[("openapi.yaml", &root)]).unwrap_or_else(|e| panic!("{e}"));
    let doc = json(&loaded);
    assert_eq!(
        doc["components"]["schemas"]["Thing"]["properties"]["name"]["type"],
        "string"
    );
}

/// `description: {$ref: 'description.yml#/introduction'}`: text kept in another file where
/// the specification puts a string (a tag's, the document's, an operation's, a schema's), as
/// Redocly's bundler reads it; a property named `description` stays the schema it refers to.
#[test]
fn a_text_kept_in_another_file_is_read_as_that_text() {
    let root = "openapi: 3.1.0
info:
  title: t
  version: '1'
  description: {$ref: 'texts.yml#/introduction'}
tags:
  - name: pets
    description: {$ref: 'texts.yml#/pets'}
paths:
  /pets:
    get:
      operationId: listPets
      summary: {$ref: 'texts.yml#/list'}
      responses:
        '200':
          description: {$ref: 'texts.yml#/listed'}
          content:
            application/json:
              schema:
                type: object
                description: {$ref: '#/x-texts/page'}
                properties:
                  description: {$ref: 'models.yml#/Text'}
x-texts:
  page: A page of pets.
";
    let loaded = load(&[
        ("openapi.yaml", root),
        (
            "texts.yml",
            "introduction: A pet store.\npets: Everything about pets.\nlist: List pets\nlisted: The pets.\n",
        ),
        ("models.yml", "Text: {type: string, maxLength: 3}\n"),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    let doc = json(&loaded);
    assert_eq!(doc["info"]["description"], "A pet store.");
    assert_eq!(doc["tags"][0]["description"], "Everything about pets.");
    let op = &doc["paths"]["/pets"]["get"];
    assert_eq!(op["summary"], "List pets");
    let ok = &op["responses"]["200"];
    assert_eq!(ok["description"], "The pets.");
    let schema = &ok["content"]["application/json"]["schema"];
    assert_eq!(schema["description"], "A page of pets.");
    assert_eq!(
        schema["properties"]["description"]["$ref"],
        "#/components/schemas/Text"
    );
    let warned: Vec<&str> = loaded
        .warnings
        .iter()
        .filter(|w| w.message.contains("puts the text of"))
        .map(|w| w.pointer.as_str())
        .collect();
    assert_eq!(warned.len(), 5, "{:?}", loaded.warnings);
    assert!(warned.contains(&"/tags/0/description"), "{warned:?}");
}
