//! What the caller decides about generated crates: names, labels, string formats, where the
//! runtime comes from. A leaf module: every stage may read it.

/// How to name and label the generated crates.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Stem of the crate names: `petstore` gives `petstore-server` and `petstore-client`.
    pub name: String,
    /// How the document is named in headers (`spec/petstore.yaml`): never an absolute path,
    /// so output does not depend on where the repository lives.
    pub spec_label: String,
    /// The command that regenerates the files, for their first line.
    pub command: String,
    /// Keep `format: uuid`, `date-time`, `date`, `ipv4` and `ipv6` strings as `String` instead
    /// of `uuid::Uuid`, `jiff::Timestamp`, `jiff::civil::Date` and `std::net` addresses
    /// (`cargo xtask codegen --string-formats`). Off by default.
    pub string_formats: bool,
    /// Where the generated crates get the runtime from. Default: the runtime crates, by
    /// version only.
    pub runtime: RuntimeSource,
    /// The name the server's trait is named after (`petstore` → `PetstoreApi`), when the user
    /// gave one (`--name`, `name` in apigen.toml); spelt as the document's title spells it
    /// when they are the same words (`petstore` and "Pet Store" → `PetStoreApi`). `None`: the
    /// title, without version numbers and "OpenAPI" (`naming::api_stem`).
    pub api_name: Option<String>,
    /// The operations to generate (apigen.toml's `tags` and `operations`); empty: all.
    pub select: Selection,
    /// No cargo feature per tag in the client (`lower::features`): for code a crate includes
    /// whose `Cargo.toml` the generator does not write (`Builder`), which would not declare
    /// them. Off by default: generated crates get a feature per tag.
    pub without_tag_features: bool,
}

/// A part of a document to generate, for teams that call a few operations of a large API
/// (`tags = ["issues"]` of GitHub's 767 operations): the operations carrying any of `tags`,
/// and those whose id is among `operations`, and the types they reach; nothing else is
/// generated. Both empty: everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub tags: Vec<String>,
    pub operations: Vec<String>,
}

impl Selection {
    pub fn is_all(&self) -> bool {
        self.tags.is_empty() && self.operations.is_empty()
    }
}

/// How generated crates reach the hand-written runtime (`apigen-server-runtime`,
/// `apigen-client-runtime`, `apigen-cli-runtime`).
///
/// Generated code names runtime items as `crate::runtime::…` either way: a crate that depends
/// on the runtime re-exports it as `runtime` (`pub use apigen_server_runtime as runtime;`), and
/// a vendored crate has the module itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeSource {
    /// A dependency on the runtime crates at the version this generator was built with
    /// (`^0.1.0`). `path`, when set, is a checkout's `runtime/` directory as seen from each
    /// generated crate's directory (`../runtime`), for crates built next to the checkout; the
    /// version stays, so the same manifest also resolves from a registry.
    Crates { path: Option<String> },
    /// A copy of the runtime's source in each crate (`src/runtime/`, the CLI's
    /// `src/support.rs`): crates that build on their own (`--vendor-runtime`).
    Vendored,
}

impl Default for RuntimeSource {
    fn default() -> Self {
        RuntimeSource::Crates { path: None }
    }
}

impl RuntimeSource {
    pub fn is_vendored(&self) -> bool {
        matches!(self, RuntimeSource::Vendored)
    }
}
