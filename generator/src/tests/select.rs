//! A part of a document (`Options::select`, issue 46): the operations picked, the types they
//! reach and nothing else; names that pick nothing are errors.

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
