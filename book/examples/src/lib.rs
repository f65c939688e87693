//! The book's Rust examples (book/src). Each page includes a part of a file here between
//! `// ANCHOR: name` and `// ANCHOR_END: name`, so every example the book shows compiles with
//! the workspace and is linted by clippy.

pub mod client;
pub mod quickstart;
pub mod redis;
pub mod server;
