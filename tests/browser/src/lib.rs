//! What the harness service and the browser tests agree on: where the harness listens by
//! default, its keys and their limits.

/// Where `browser-harness` listens unless given an address; the tests read the base URL
/// from `PETSTORE_BROWSER_API` at compile time, else use this one.
pub const DEFAULT_ADDR: &str = "127.0.0.1:18181";

/// The base URL the tests use when `PETSTORE_BROWSER_API` was not set at compile time.
pub const DEFAULT_API: &str = "http://127.0.0.1:18181/v1";

/// Enterprise plan: never limited in a test run.
pub const GOOD_KEY: &str = "browser-good-key";

/// [`BURST_LIMIT`] requests per [`BURST_WINDOW_SECS`]-second window, so a 429 with a short
/// `Retry-After` can be waited out within a test.
pub const BURST_KEY: &str = "browser-burst-key";
pub const BURST_LIMIT: u32 = 2;
pub const BURST_WINDOW_SECS: u64 = 3;

/// One request a minute; [`BAN_STRIKES`] refusals in a window ban it for [`BAN_SECS`].
pub const BAN_KEY: &str = "browser-ban-key";
pub const BAN_STRIKES: u32 = 3;
pub const BAN_SECS: u64 = 600;
