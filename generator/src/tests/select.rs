//! A part of a document (`Options::select`): the operations picked, the types they reach and
//! nothing else; names that pick nothing are errors.

use crate::Options;
use crate::options::Selection;

const PETSTORE: &str = include_str!("../../../spec/petstore.yaml");

fn model(select: Selection) -> Result<crate::ir::Api, crate::Diagnostics> {
    let options = Options {
        name: "petstore".into(),
        select,
        ..Default::default()
    };
    crate::model(PETSTORE, &options).map(|(api, _)| api)
}

/// Every `Named` reference anywhere in the model names a type the model has.
fn dangling(api: &crate::ir::Api) -> Vec<String> {
    let text = format!("{:?}{:?}", api.operations, api.types);
    text.split("Named(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| !api.types.iter().any(|t| t.name == *name))
        .map(str::to_owned)
        .collect()
}

/// The model's cargo features, by name, in the order the manifest lists them.
fn feature_names(api: &crate::ir::Api) -> Vec<&str> {
    api.features
        .features
        .iter()
        .map(|f| f.name.as_str())
        .collect()
}

#[test]
fn a_tag_keeps_its_operations_and_the_types_they_reach() {
    let whole = model(Selection::default()).unwrap();
    let store = model(Selection {
        tags: vec!["store".into()],
        ..Default::default()
    })
    .unwrap();
    let ids: Vec<&str> = store.operations.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["listOrders"]);
    let names: Vec<&str> = store.types.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"Orders") && names.contains(&"Error"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"Pet") && !names.contains(&"NewPet"),
        "{names:?}"
    );
    assert!(store.types.len() < whole.types.len());
    assert!(dangling(&store).is_empty(), "{:?}", dangling(&store));
    // An operation by id, beside a tag: both kept.
    let two = model(Selection {
        tags: vec!["store".into()],
        operations: vec!["getPet".into()],
    })
    .unwrap();
    let ids: Vec<&str> = two.operations.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["getPet", "listOrders"]);
    assert!(two.types.iter().any(|t| t.name == "Pet"));
    assert!(dangling(&two).is_empty(), "{:?}", dangling(&two));
}

#[test]
fn a_name_that_picks_nothing_is_an_error() {
    let error = model(Selection {
        tags: vec!["stores".into()],
        operations: vec!["getPets".into()],
    })
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("no operation is tagged `stores` (the document's tags: pets, store)"),
        "{error}"
    );
    assert!(
        error.contains("no operation with operationId `getPets`"),
        "{error}"
    );
}

/// The client's feature per tag (`lower::features`): an operation with several tags under
/// any of them, a type under the features of the operations that reach it (its error answers'
/// too), a type every feature reaches under none; untagged operations share
/// `untagged`; a tag named like one of the crate's own features is named apart.
#[test]
fn each_tag_is_a_feature_of_the_operations_and_types_it_reaches() {
    let text = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /pets:
    get:
      operationId: listPets
      tags: [Pets, Pull Requests]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        default: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}
  /toys:
    get:
      operationId: listToys
      tags: [default]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Toy'}}}}
  /ping:
    get:
      operationId: ping
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Shared'}}}}
components:
  schemas:
    Pet: {type: object, properties: {toy: {$ref: '#/components/schemas/Toy'}, shared: {$ref: '#/components/schemas/Shared'}}}
    Toy: {type: object, properties: {shared: {$ref: '#/components/schemas/Shared'}, ball: {$ref: '#/components/schemas/Ball'}}}
    Shared: {type: object, properties: {n: {type: integer}}}
    Problem: {type: object, properties: {message: {type: string}}}
    Ball: {type: object, properties: {size: {type: integer}}}
    Orphan: {type: object, properties: {ball: {$ref: '#/components/schemas/Ball'}}}
"#;
    let (api, _) = crate::model(text, &Options::default()).unwrap();
    let f = &api.features;
    let names: Vec<(&str, &str)> = f
        .features
        .iter()
        .map(|f| match &f.of {
            crate::ir::FeatureOf::Group(g) => (f.name.as_str(), g.as_str()),
            crate::ir::FeatureOf::UnusedSchemas => (f.name.as_str(), "(unused schemas)"),
        })
        .collect();
    assert_eq!(
        names,
        [
            ("pets", "Pets"),
            ("pull-requests", "Pull Requests"),
            ("default_2", "default"),
            ("untagged", "untagged"),
            ("unused-schemas", "(unused schemas)"),
        ]
    );
    let op = |id: &str| {
        let i = api.operations.iter().position(|o| o.id == id).unwrap();
        f.of_operation(i).unwrap().to_vec()
    };
    assert_eq!(op("listPets"), ["pets", "pull-requests"]);
    assert_eq!(op("listToys"), ["default_2"]);
    assert_eq!(op("ping"), ["untagged"]);
    assert_eq!(
        f.of_type("Pet"),
        Some(&["pets".to_owned(), "pull-requests".to_owned()][..])
    );
    assert_eq!(
        f.of_type("Toy"),
        Some(
            &[
                "default_2".to_owned(),
                "pets".to_owned(),
                "pull-requests".to_owned()
            ][..]
        )
    );
    // Reached by every feature: always compiled.
    assert_eq!(f.of_type("Shared"), None);
    // Reached by no operation: the feature `unused-schemas`'s, and so is what it holds
    // (openai's `ComputerToolCallOutput`), beside the features of the operations that reach
    // that too.
    assert_eq!(
        f.of_type("Orphan"),
        Some(&["unused-schemas".to_owned()][..])
    );
    assert_eq!(
        f.of_type("Ball"),
        Some(
            &[
                "default_2".to_owned(),
                "pets".to_owned(),
                "pull-requests".to_owned(),
                "unused-schemas".to_owned()
            ][..]
        )
    );
    // An error answer's body is the operation's.
    assert_eq!(f.of_type("Problem"), f.of_type("Pet"));
}

/// A document without tags: a feature per path group (the first segment after those every
/// path shares); one group, or one tag, is no feature at all.
#[test]
fn without_tags_each_path_group_is_a_feature() {
    let doc =
        |paths: &str| format!("openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n{paths}");
    let op = |path: &str, id: &str| {
        format!(
            "  {path}:\n    get:\n      operationId: {id}\n      responses:\n        '204': {{description: ok}}\n"
        )
    };
    let (api, _) = crate::model(
        &doc(&(op("/pets/{id}", "getPet")
            + &op("/pets", "listPets")
            + &op("/store/orders", "orders")
            + &op("/{any}", "any"))),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(feature_names(&api), ["pets", "store", "root"]);
    let (api, _) = crate::model(
        &doc(&(op("/pets/{id}", "getPet") + &op("/pets", "listPets"))),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(api.features, crate::ir::FeatureGates::default());
    // Every path under `/v1` (Stripe's document): the groups are what follows it.
    let (api, _) = crate::model(
        &doc(&(op("/v1/accounts/{account}", "getAccount")
            + &op("/v1/accounts", "listAccounts")
            + &op("/v1/charges", "listCharges")
            + &op("/v1/charges/{charge}/refund", "refund"))),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(feature_names(&api), ["accounts", "charges"]);
    // A template ends the shared prefix: `{tenant}` is no group name.
    let (api, _) = crate::model(
        &doc(&(op("/api/{tenant}/pets", "pets") + &op("/api/{tenant}/store", "store"))),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(api.features, crate::ir::FeatureGates::default());
}
