//! Answering: success responses, the `Problem` every error becomes, the document's own error bodies, streams, and a union variant written with its tag.

pub mod errors;
pub mod problem;
pub mod response;
pub mod stream;
pub mod tagging;
