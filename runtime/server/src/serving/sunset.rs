//! Operations past their sunset (`x-deprecation.sunset`): answered `410 Gone` with the `Error`
//! body instead of being served, on a clock tests can set.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::StatusCode;

use super::problem::Problem;

/// When an operation goes away and what replaces it; the generated handler of every operation
/// with a sunset date holds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retirement {
    /// The `operationId`.
    pub operation: &'static str,
    /// Unix seconds of the sunset (midnight UTC of the document's date).
    pub at: u64,
    /// The sunset date as the document writes it (`2030-12-05`).
    pub day: &'static str,
    /// The `operationId` of the replacement, when the document names one.
    pub replacement: Option<&'static str>,
}

impl Retirement {
    /// The sunset as a time.
    pub fn instant(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.at)
    }

    /// 410, code `gone`, naming the date and the replacement.
    pub fn gone(&self) -> Problem {
        let mut message = format!(
            "operation {} was removed on {} (its sunset)",
            self.operation, self.day
        );
        if let Some(replacement) = self.replacement {
            message.push_str(&format!("; use {replacement} instead"));
        }
        Problem::new(StatusCode::GONE, "gone", message)
    }
}

/// What time it is, for sunsets: the system clock unless a test sets another.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> SystemTime + Send + Sync>);

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Clock(Arc::new(SystemTime::now))
    }

    /// A clock of your own (tests: a fixed or movable instant).
    pub fn new(now: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        Clock(Arc::new(now))
    }

    /// The current time.
    pub fn now(&self) -> SystemTime {
        (self.0)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Clock").field(&self.now()).finish()
    }
}

/// Whether sunsets are enforced, and on which clock (`ServerConfig::sunset`).
#[derive(Debug, Clone)]
pub struct SunsetPolicy {
    /// Answer 410 from the sunset on (default `true`: the document says the operation is
    /// removed then; `false` keeps serving it, with its deprecation headers).
    pub enforce: bool,
    /// Where the time comes from (default: the system clock).
    pub clock: Clock,
}

impl Default for SunsetPolicy {
    fn default() -> Self {
        SunsetPolicy {
            enforce: true,
            clock: Clock::system(),
        }
    }
}

impl SunsetPolicy {
    /// `Err(410)` when `retirement`'s sunset has come and sunsets are enforced.
    pub fn check(&self, retirement: &Retirement) -> Result<(), Problem> {
        if self.enforce && self.clock.now() >= retirement.instant() {
            Err(retirement.gone())
        } else {
            Ok(())
        }
    }
}
