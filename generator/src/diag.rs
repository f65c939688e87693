//! Problems found in a document, each with the JSON pointer of where it stands, and (for a
//! document split over several files) the file it stands in.

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
    /// Where the problem stands, as a JSON reference would name it: a JSON pointer into the
    /// document's root file (`/paths/~1pets/get/responses/200`), or, for a place in another
    /// file of a document split over several, that file and a pointer into it
    /// (`components/schemas/Pet.yaml#/properties/id`; the path as reached from the root file,
    /// see [`crate::Source`]).
    pub pointer: String,
    pub message: String,
    /// The file, line and column of the place, when they were looked up (errors are; warnings
    /// keep the pointer alone, which is cheaper to find on documents of thousands).
    pub position: Option<Position>,
}

/// A place in a file: the file as the caller named the root (or as `$ref`s reach it from
/// there) and a 1-based line and column, as editors take them (`openapi.yaml:12:7`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Diagnostic {
    pub fn error(pointer: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            pointer: pointer.into(),
            message: message.into(),
            position: None,
        }
    }

    pub fn warning(pointer: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(pointer, message)
        }
    }

    /// The file part of [`Diagnostic::pointer`] (`None`: the root file) and the JSON pointer
    /// into that file.
    pub fn place(&self) -> (Option<&str>, &str) {
        split_place(&self.pointer)
    }
}

/// `file#/pointer` → (`Some(file)`, `/pointer`); a bare pointer is the root file's.
pub fn split_place(place: &str) -> (Option<&str>, &str) {
    if place.is_empty() || place.starts_with('/') {
        return (None, place);
    }
    match place.split_once('#') {
        Some((file, pointer)) => (Some(file), pointer),
        None => (None, place),
    }
}

/// `pointer` in `file` as [`Diagnostic::pointer`] spells it (`file` `None`: the root file).
pub fn place(file: Option<&str>, pointer: &str) -> String {
    match file {
        Some(file) => format!("{file}#{pointer}"),
        None => pointer.to_string(),
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        let (_, pointer) = self.place();
        let pointer = if pointer.is_empty() { "/" } else { pointer };
        match &self.position {
            // `file:line:column`, as compilers write it, so that editors and terminals open it.
            Some(p) => write!(
                f,
                "{level}: {}:{}:{}: {pointer}: {}",
                p.file, p.line, p.column, self.message
            ),
            None if self.pointer.is_empty() => write!(f, "{level}: /: {}", self.message),
            None => write!(f, "{level}: {}: {}", self.pointer, self.message),
        }
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
        self.items.push(Diagnostic::warning(pointer, message));
    }

    pub fn error(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.items.push(Diagnostic::error(pointer, message));
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_their_display() {
        assert_eq!(split_place("/paths/~1a"), (None, "/paths/~1a"));
        assert_eq!(split_place(""), (None, ""));
        assert_eq!(
            split_place("schemas/Pet.yaml#/properties/id"),
            (Some("schemas/Pet.yaml"), "/properties/id")
        );
        assert_eq!(split_place("Pet.yaml#"), (Some("Pet.yaml"), ""));
        assert_eq!(place(Some("a.yaml"), "/x"), "a.yaml#/x");
        let mut d = Diagnostic::error("schemas/Pet.yaml#/properties/id", "bad");
        assert_eq!(d.to_string(), "error: schemas/Pet.yaml#/properties/id: bad");
        d.position = Some(Position {
            file: "spec/schemas/Pet.yaml".into(),
            line: 7,
            column: 3,
        });
        assert_eq!(
            d.to_string(),
            "error: spec/schemas/Pet.yaml:7:3: /properties/id: bad"
        );
        assert_eq!(Diagnostic::warning("", "w").to_string(), "warning: /: w");
    }
}
