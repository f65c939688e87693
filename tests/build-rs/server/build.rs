//! The pet store's server, generated at build time into OUT_DIR (apigen::Builder).

fn main() {
    let generated = apigen::Builder::new("../../../spec/petstore.yaml")
        .server()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    // The lines this crate's [dependencies] must hold; a mismatch is a build error here
    // rather than a confusing unresolved import in the included code.
    let manifest = std::fs::read_to_string("Cargo.toml").expect("read Cargo.toml");
    for line in generated.dependencies("server") {
        let name = line.split([' ', '=']).next().unwrap_or_default();
        assert!(
            manifest
                .lines()
                .any(|l| l.starts_with(&format!("{name} ="))),
            "build.rs: Cargo.toml lacks the dependency `{line}`"
        );
    }
}
