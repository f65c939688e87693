//! The pet store's client, generated at build time into OUT_DIR (apigen::Builder); and the
//! `store` tag's part alone (`Builder::tags`: only its operations and the types they reach),
//! which proves a part of a document compiles on its own.

fn main() {
    apigen::Builder::new("../../../spec/petstore.yaml")
        .client()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    apigen::Builder::new("../../../spec/petstore.yaml")
        .client()
        .tags(["store"])
        .out_dir(format!("{out}/part"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
}
