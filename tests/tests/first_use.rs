//! What a first user of apigen sees on a document written the way public samples are (title
//! "… - OpenAPI 3.0", a relative server URL, error answers without a schema): names without
//! noise, `--name` naming the trait, the base path in the examples, the server's message kept.

fn generate(name: Option<&str>) -> apigen::Output {
    let options = apigen::Options {
        name: name.unwrap_or("sample-petstore").into(),
        api_name: name.map(String::from),
        spec_label: "sample.yaml".into(),
        command: "apigen generate".into(),
        ..Default::default()
    };
    apigen::generate(SAMPLE, &options).unwrap()
}

const SAMPLE: &str = r#"
openapi: 3.0.3
info:
  title: Sample Petstore - OpenAPI 3.0
  version: 1.0.4
servers:
  - url: /api/v3
  - url: https://pets.example.org/api/v3
paths:
  /pet/{petId}:
    get:
      operationId: getPetById
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer, format: int64}}
      responses:
        '200':
          description: The pet.
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}}}
        '400': {description: The id is not a number.}
        default: {description: Anything else.}
"#;

#[test]
fn names_come_from_the_title_without_noise_or_from_name() {
    let out = generate(None);
    let api = &out.files["server/src/api.rs"];
    assert!(api.contains("pub trait SamplePetstoreApi:"), "{api}");
    let out = generate(Some("petstore"));
    let api = &out.files["server/src/api.rs"];
    assert!(
        api.contains("pub trait PetstoreApi:"),
        "--name names the trait: {api}"
    );
}

#[test]
fn servers_are_named_after_their_urls_and_examples_use_the_base_path() {
    let out = generate(None);
    let client = &out.files["client/src/client.rs"];
    assert!(
        client.contains("    ApiV3,") && client.contains("    PetsExampleOrg,"),
        "{client}"
    );
    assert!(!client.contains("Server1"), "{client}");
    let lib = &out.files["client/src/lib.rs"];
    assert!(
        lib.contains("Client::builder(\"http://127.0.0.1:8080/api/v3\")"),
        "{lib}"
    );
}

#[test]
fn error_answers_without_a_schema_keep_the_body_text() {
    let out = generate(None);
    let client = &out.files["client/src/client.rs"];
    assert!(
        client.contains("BadRequest(String) = 400 as text,")
            && client.contains("Default(String) = default as text,"),
        "{client}"
    );
}
