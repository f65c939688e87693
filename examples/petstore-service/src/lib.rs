//! The reference pet store service (library part).
