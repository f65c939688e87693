//! Problems found in a document, each with the JSON pointer of where it stands.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The construct was replaced by an honest fallback (raw bytes, `serde_json::Value`).
    Warning,
    /// The document cannot be generated.
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub severity: Severity,
    /// JSON pointer into the document (`/paths/~1pets/get/responses/200`).
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{level}: {at}: {}", self.message)
    }
}

/// Errors that stop generation; `Display` prints one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Collects diagnostics while a stage runs, so that one run reports every problem.
#[derive(Debug, Default)]
pub struct Sink {
    pub items: Vec<Diagnostic>,
}

impl Sink {
    pub fn warn(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.items.push(Diagnostic {
            severity: Severity::Warning,
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    pub fn error(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.items.push(Diagnostic {
            severity: Severity::Error,
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}
