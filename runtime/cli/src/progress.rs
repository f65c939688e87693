//! A progress line on standard error for long transfers: an upload or a download of
//! a few MB shows how far it has got, redrawn in place, when standard error is a terminal;
//! nothing otherwise (a pipe or a log file gets no carriage returns). The client's
//! `on_progress` feeds it.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Transfers shorter than this draw no line: they are over before one would be read.
pub const SHOWN_FROM: u64 = 2 << 20;

/// How often the line is redrawn at most (the last report of a transfer always is).
const REDRAW: Duration = Duration::from_millis(100);

/// The line of the transfer under way.
#[derive(Debug, Default)]
pub struct ProgressLine {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// A line is drawn and not yet ended.
    open: bool,
    drawn_at: Option<Instant>,
}

impl ProgressLine {
    /// A line when standard error is a terminal; `None` otherwise.
    pub fn on_terminal() -> Option<ProgressLine> {
        std::io::stderr().is_terminal().then(ProgressLine::default)
    }

    /// Redraws the line for `done` of `total` bytes (`upload`: a request body), ending it when
    /// the transfer is complete.
    pub fn show(&self, upload: bool, done: u64, total: Option<u64>) {
        if total.unwrap_or(done) < SHOWN_FROM {
            return;
        }
        let finished = total == Some(done);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if !finished && state.drawn_at.is_some_and(|at| now - at < REDRAW) {
            return;
        }
        state.drawn_at = Some(now);
        state.open = !finished;
        let mut err = std::io::stderr().lock();
        let end = if finished { "\n" } else { "" };
        // A line that cannot be drawn is no reason to fail the transfer.
        let _ = write!(err, "\r{}\x1b[K{end}", line(upload, done, total));
        let _ = err.flush();
    }
}

impl Drop for ProgressLine {
    /// A line left open (a transfer cut short) is ended, so what follows starts on its own.
    fn drop(&mut self) {
        if self.state.get_mut().map(|s| s.open).unwrap_or(false) {
            eprintln!();
        }
    }
}

/// The line's text: `uploading 3.1 of 5.0 MB (62%)`, or without a known length `downloading
/// 3.1 MB`.
pub fn line(upload: bool, done: u64, total: Option<u64>) -> String {
    let verb = if upload { "uploading" } else { "downloading" };
    let mb = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    match total {
        Some(total) if total > 0 => format!(
            "{verb} {:.1} of {:.1} MB ({}%)",
            mb(done),
            mb(total),
            done * 100 / total
        ),
        _ => format!("{verb} {:.1} MB", mb(done)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_how_far() {
        assert_eq!(
            line(true, 3 << 20, Some(5 << 20)),
            "uploading 3.0 of 5.0 MB (60%)"
        );
        assert_eq!(line(false, 5 << 19, None), "downloading 2.5 MB");
        assert_eq!(
            line(false, 5 << 20, Some(5 << 20)),
            "downloading 5.0 of 5.0 MB (100%)"
        );
    }
}
