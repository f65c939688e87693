//! Each case judged (server and client), tallied per suite file, and printed as tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use super::Answer;
use super::decisions;
use super::document::{Case, Group};

/// What became of a group.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The generator refused its schema (the located error): every case is lost.
    Refused(String),
    Ran(Vec<CaseResult>),
}

#[derive(Debug, Clone)]
pub struct CaseResult {
    pub server: Server,
    /// For a valid value: whether the client's types decode it (`None` for invalid ones,
    /// which the client does not check).
    pub client: Option<Result<(), String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Server {
    Pass,
    /// An invalid value reached the implementation.
    InvalidAccepted,
    /// A valid value was refused: the status and the start of the body.
    ValidRefused(u16, String),
    /// Neither `204` nor `400`, or no answer.
    Error(String),
}

pub fn judge(
    case: &Case,
    answer: Result<Answer, String>,
    decoded: Option<Result<(), String>>,
) -> CaseResult {
    let server = match answer {
        Err(e) => Server::Error(e),
        Ok(a) => match (case.valid, a.status) {
            (true, 200..=299) | (false, 400) => Server::Pass,
            (false, 200..=299) => Server::InvalidAccepted,
            (true, 400 | 413 | 415 | 422) => Server::ValidRefused(a.status, a.body),
            (_, status) => Server::Error(format!("status {status}: {}", a.body)),
        },
    };
    CaseResult {
        server,
        client: if case.valid { decoded } else { None },
    }
}

impl CaseResult {
    pub fn passes(&self) -> bool {
        self.server == Server::Pass && !matches!(self.client, Some(Err(_)))
    }
}

/// Counts for one file (or all of them).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub groups: usize,
    pub cases: usize,
    pub passed: usize,
    pub invalid_accepted: usize,
    pub valid_refused: usize,
    pub errors: usize,
    pub not_decoded: usize,
    /// Cases of groups the generator refused.
    pub lost: usize,
    /// Failing cases of groups `decisions` sets aside (counted in the columns above too).
    pub set_aside: usize,
}

impl Tally {
    fn add(&mut self, group: &Group, outcome: Option<&Outcome>) {
        self.groups += 1;
        self.cases += group.cases.len();
        let aside = decisions::set_aside(group).is_some();
        match outcome {
            None => {}
            Some(Outcome::Refused(_)) => {
                self.lost += group.cases.len();
                if aside {
                    self.set_aside += group.cases.len();
                }
            }
            Some(Outcome::Ran(results)) => {
                for r in results {
                    if r.passes() {
                        self.passed += 1;
                        continue;
                    }
                    if aside {
                        self.set_aside += 1;
                    }
                    match &r.server {
                        Server::Pass => {}
                        Server::InvalidAccepted => self.invalid_accepted += 1,
                        Server::ValidRefused(..) => self.valid_refused += 1,
                        Server::Error(_) => self.errors += 1,
                    }
                    if matches!(r.client, Some(Err(_))) {
                        self.not_decoded += 1;
                    }
                }
            }
        }
    }

    /// Failing cases not set aside by a decision.
    pub fn unexpected(&self) -> usize {
        self.cases - self.passed - self.set_aside
    }
}

pub fn tally(groups: &[&Group], outcomes: &BTreeMap<String, Outcome>) -> Tally {
    let mut all = Tally::default();
    for g in groups {
        all.add(g, outcomes.get(&g.name()));
    }
    all
}

pub fn render(
    draft: &str,
    commit: &str,
    groups: &[&Group],
    outcomes: &BTreeMap<String, Outcome>,
    took: Duration,
) -> String {
    let mut by_file: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for g in groups {
        by_file
            .entry(g.file.as_str())
            .or_default()
            .add(g, outcomes.get(&g.name()));
        all.add(g, outcomes.get(&g.name()));
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### JSON Schema Test Suite, {draft} (`{commit}`), in {:.0} s\n",
        took.as_secs_f64()
    );
    let _ = writeln!(
        s,
        "| file | groups | cases | pass | invalid accepted | valid refused | other answer | valid, client did not decode | lost (generator refused) | failing, set aside by decision |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let row = |s: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            t.groups,
            t.cases,
            t.passed,
            t.invalid_accepted,
            t.valid_refused,
            t.errors,
            t.not_decoded,
            t.lost,
            t.set_aside
        );
    };
    for (file, t) in &by_file {
        row(&mut s, &format!("`{file}.json`"), t);
    }
    row(&mut s, "**all**", &all);
    let _ = writeln!(
        s,
        "\n**{} of {} cases pass; {} fail outside the decisions below.**\n",
        all.passed,
        all.cases,
        all.unexpected()
    );
    let _ = writeln!(s, "Set aside by decision ({}):\n", decisions::WHERE);
    for (what, why) in decisions::listed() {
        let _ = writeln!(s, "- {what}: {why}");
    }
    s
}

/// Every failing case, group by group, with what happened.
pub fn failures(groups: &[&Group], outcomes: &BTreeMap<String, Outcome>) -> String {
    let mut s = String::from("# Failing cases\n\n");
    for g in groups {
        let aside = decisions::set_aside(g)
            .map(|why| format!(" (set aside: {why})"))
            .unwrap_or_default();
        match outcomes.get(&g.name()) {
            Some(Outcome::Refused(e)) => {
                let _ = writeln!(
                    s,
                    "## {} {}{aside}\nrefused: {e}\n",
                    g.label(),
                    g.description
                );
            }
            Some(Outcome::Ran(results)) => {
                let failing: Vec<_> = g
                    .cases
                    .iter()
                    .zip(results)
                    .filter(|(_, r)| !r.passes())
                    .collect();
                if failing.is_empty() {
                    continue;
                }
                let _ = writeln!(s, "## {} {}{aside}", g.label(), g.description);
                let _ = writeln!(s, "schema: `{}`", g.schema);
                for (case, r) in failing {
                    let what = match &r.server {
                        Server::Pass => String::new(),
                        Server::InvalidAccepted => "invalid, accepted".into(),
                        Server::ValidRefused(status, body) => {
                            format!("valid, refused {status}: {body}")
                        }
                        Server::Error(e) => format!("answer: {e}"),
                    };
                    let client = match &r.client {
                        Some(Err(e)) => format!("; client did not decode: {e}"),
                        _ => String::new(),
                    };
                    let _ = writeln!(s, "- {} `{}`: {what}{client}", case.description, case.data);
                }
                s.push('\n');
            }
            None => {}
        }
    }
    s
}
