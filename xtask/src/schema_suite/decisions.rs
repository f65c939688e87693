//! What apigen does not hold of JSON Schema, by decision, with why: the suite's groups whose
//! failures are set aside (still run and shown). Everything else is expected to pass.

use super::document::Group;

/// Where the decisions are written for users.
pub const WHERE: &str = "xtask/src/schema_suite/decisions.rs, README \"Type mapping\"";

/// Whole suite files set aside, with why.
const FILES: &[(&str, &str)] = &[];

/// The decisions, as the report lists them.
pub fn listed() -> Vec<(String, &'static str)> {
    FILES
        .iter()
        .map(|(file, why)| (format!("`{file}.json`"), *why))
        .collect()
}

/// Why a group's failures are set aside, if they are.
pub fn set_aside(group: &Group) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(file, _)| *file == group.file)
        .map(|(_, why)| *why)
}
