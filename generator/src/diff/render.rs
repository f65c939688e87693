//! A report as text: one line per change for people, a JSON document for tools.

use super::{Class, Report};
use serde_json::{Value, json};

impl Report {
    /// One line per change (`class  pointer  kind: reason`), then a count by class.
    pub fn human(&self) -> String {
        let mut out = String::new();
        for c in &self.changes {
            let at = if c.pointer.is_empty() {
                "/"
            } else {
                &c.pointer
            };
            out.push_str(&format!(
                "{:<21} {at}\n{:<21} {}: {}\n",
                c.class.as_str(),
                "",
                c.kind,
                c.reason
            ));
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `3 changes: 1 breaking for clients, 1 breaking for servers, 1 compatible (info.version 1.0.0 → 1.1.0)`.
    pub fn summary(&self) -> String {
        let versions = if self.base_version == self.new_version {
            format!("info.version {} unchanged", self.base_version)
        } else {
            format!(
                "info.version {} → {}{}",
                self.base_version,
                self.new_version,
                if self.major_bumped() {
                    ", a major version"
                } else {
                    ""
                }
            )
        };
        if self.changes.is_empty() {
            return format!("no changes ({versions})");
        }
        format!(
            "{} change{}: {} breaking for clients, {} breaking for servers, {} compatible ({versions})",
            self.changes.len(),
            if self.changes.len() == 1 { "" } else { "s" },
            self.count(Class::BreakingForClients),
            self.count(Class::BreakingForServers),
            self.count(Class::Compatible),
        )
    }

    /// The report for tools; `changes` in the report's order.
    pub fn json(&self) -> String {
        let changes: Vec<Value> = self
            .changes
            .iter()
            .map(|c| {
                json!({
                    "pointer": c.pointer,
                    "kind": c.kind,
                    "class": c.class.as_str(),
                    "reason": c.reason,
                })
            })
            .collect();
        let doc = json!({
            "base_version": self.base_version,
            "new_version": self.new_version,
            "major_bumped": self.major_bumped(),
            "summary": {
                "breaking-for-clients": self.count(Class::BreakingForClients),
                "breaking-for-servers": self.count(Class::BreakingForServers),
                "compatible": self.count(Class::Compatible),
            },
            "changes": changes,
        });
        // A `Value` built from strings and numbers always serializes.
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }
}
