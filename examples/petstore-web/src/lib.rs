//! The pet store page (`static/index.html`) on the generated client's wasm build: lists
//! animals with a status filter, adds one, and shows the rate-limit state and the server's
//! error message. Build and serve it with `scripts/petstore-web.sh` (see book/src/guide/browser.md); the
//! service must allow the page's origin (`petstore-service --cors-origin ORIGIN`).
//!
//! The API URL comes from the page's `?api=` query parameter (default
//! `http://127.0.0.1:8080/v1`) and the key from `?key=` or the key field; both can be edited on
//! the page. Only built for `wasm32`; on the host the crate is empty.

#[cfg(target_arch = "wasm32")]
mod page;
