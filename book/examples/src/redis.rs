//! Production: several instances share their rate limits and bans through Redis.

use petstore_server::{ServerConfig, StaticKeys};

pub fn config(keys: StaticKeys) -> Result<ServerConfig, Box<dyn std::error::Error>> {
    // ANCHOR: redis
    use petstore_server::{RedisOptions, RedisRateLimiter, RedisStore, WhenUnavailable};

    let store = RedisStore::open(
        "redis://10.0.0.5:6379/",
        RedisOptions {
            // Services sharing one Redis keep apart.
            key_prefix: "petstore:".into(),
            // The longest a request waits for Redis.
            timeout: std::time::Duration::from_millis(100),
            // The default; or Refuse.
            when_unavailable: WhenUnavailable::Allow,
        },
    )?;
    let policy = petstore_server::rate_limit_policy();
    let config = ServerConfig::new()
        .authenticator(keys)
        .rate_limit(RedisRateLimiter::for_policy(store, &policy), policy);
    // ANCHOR_END: redis
    Ok(config)
}
