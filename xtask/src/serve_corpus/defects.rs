//! The list of document defects: the table of docs/reports/serving.md read, and the listed defects
//! a run no longer shows (stale).

use super::*;

/// A failure the document itself causes, accepted with its reason (docs/reports/serving.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Defect {
    pub(super) document: String,
    pub(super) check: String,
    /// `METHOD /path` as schemathesis names it, or `*` for every operation.
    pub(super) operation: String,
    pub(super) reason: String,
}

impl Defect {
    /// `*` as the document: every document (a class of defect, never stale).
    pub(super) fn covers(&self, document: &str, check: &str, operation: &str) -> bool {
        (self.document == "*" || self.document == document)
            && self.check == check
            && (self.operation == "*" || self.operation == operation)
    }
}

/// The rows of the table under `## Document defects`: `| `document` | `check` | `operation` |
/// reason |`. Every listed defect needs a reason.
pub(super) fn read_defects(path: &Path) -> Result<Vec<Defect>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_defects(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub(super) fn parse_defects(text: &str) -> Result<Vec<Defect>, String> {
    let mut out = Vec::new();
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Document defects";
            continue;
        }
        if !inside || !line.starts_with("| `") {
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        let [document, check, operation, reason] = cells.as_slice() else {
            return Err(format!(
                "line {}: a defect row has four cells (document, check, operation, reason)",
                n + 1
            ));
        };
        let unquote = |s: &str| s.trim_matches('`').to_string();
        if reason.is_empty() {
            return Err(format!("line {}: a listed defect needs its reason", n + 1));
        }
        out.push(Defect {
            document: unquote(document),
            check: unquote(check),
            operation: unquote(operation),
            reason: reason.to_string(),
        });
    }
    Ok(out)
}

/// Listed defects of documents that ran and no longer show: the list must not hide a fixed
/// document (a filtered run only judges the documents it ran).
pub(super) fn stale_defects<'a>(rows: &[Row], defects: &'a [Defect]) -> Vec<&'a Defect> {
    defects
        .iter()
        .filter(|d| {
            rows.iter()
                .find(|r| r.label == d.document)
                .is_some_and(|r| {
                    matches!(r.outcome, Outcome::Ran(_))
                        && !r
                            .accepted
                            .iter()
                            .any(|(check, op)| d.covers(&r.label, check, op))
                })
        })
        .collect()
}
