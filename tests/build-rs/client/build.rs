//! The pet store's client, generated at build time into OUT_DIR (apigen::Builder).

fn main() {
    apigen::Builder::new("../../../spec/petstore.yaml")
        .client()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
}
