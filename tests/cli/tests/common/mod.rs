//! Test support: a real pet store served by the generated server ([`store`]), a scripted raw
//! HTTP/1.1 server answering canned responses ([`scripted`]), and a background runtime so
//! that tests which block (running the CLI binary) still have servers answering.

#![allow(dead_code)] // each test binary uses a different part of this module

pub mod scripted;
pub mod store;

use std::future::Future;

/// A multi-threaded tokio runtime whose tasks keep running while the test thread blocks.
pub struct Background(tokio::runtime::Runtime);

impl Background {
    pub fn new() -> Self {
        Background(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
        )
    }

    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.0.block_on(future)
    }
}
