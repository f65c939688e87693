//! A digest of the generator's output, so that two runs (two processes, two allocators) are
//! known to have written the same files.

use std::hash::{DefaultHasher, Hash, Hasher};

/// A hash of every file's path and contents, or of the errors' text.
pub fn output(output: &Result<apigen::Output, apigen::diag::Diagnostics>) -> u64 {
    let mut hasher = DefaultHasher::new();
    match output {
        Ok(output) => output.files.hash(&mut hasher),
        Err(diagnostics) => diagnostics.to_string().hash(&mut hasher),
    }
    hasher.finish()
}
