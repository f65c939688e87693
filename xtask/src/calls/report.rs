//! The outcome of each call, the table per document and the report file of `cargo xtask
//! calls`, and which outcomes fail the run.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::Plan;
use super::prism::Mode;
use super::requests::Call;

/// What became of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// The CLI sent a request Prism accepted and read the answer.
    Ok,
    /// Prism refused the request: it breaks the document (a client bug).
    Refused,
    /// Prism accepted the request, but the CLI could not decode its answer (a client bug,
    /// unless Prism's answer broke the document: then it is [`Outcome::MockFault`]).
    Undecoded,
    /// Prism's answer breaks the document (its log says where) and the CLI failed on it:
    /// the mock's fault, or the document's example's.
    MockFault,
    /// The CLI refused its arguments (exit status 2): nothing was sent.
    NotSent,
    /// Anything else: no answer in time, a transport error, an unexpected status.
    Failed,
    /// The harness could not make a value the call needs from the document.
    NoValues,
    /// The document gives no valid request (a `$ref` it cannot resolve): not made.
    DocumentFault,
}

impl Outcome {
    /// Whether this outcome fails the run.
    pub fn fails(self) -> bool {
        !matches!(
            self,
            Outcome::Ok | Outcome::MockFault | Outcome::DocumentFault
        )
    }

    fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused by the mock",
            Outcome::Undecoded => "answer not decoded",
            Outcome::MockFault => "the mock's fault",
            Outcome::NotSent => "arguments refused by the CLI",
            Outcome::Failed => "failed",
            Outcome::NoValues => "no valid arguments",
            Outcome::DocumentFault => "the document's fault",
        }
    }
}

#[derive(Debug, Clone)]
pub struct CallResult {
    pub command: String,
    pub operation: String,
    pub args: Vec<String>,
    pub outcome: Outcome,
    pub detail: String,
}

impl CallResult {
    pub fn new(call: &Call, outcome: Outcome, detail: String) -> CallResult {
        CallResult {
            command: call.command.clone(),
            operation: call.operation.clone(),
            args: call.args.clone(),
            outcome,
            detail,
        }
    }
}

pub struct RoundRun {
    pub mode: Mode,
    pub calls: Vec<CallResult>,
    /// Prism, the relay or the CLI could not be run, or Prism stopped answering: no call of
    /// the round counts, and the run fails.
    pub prism_error: Option<String>,
    /// Prism cannot read the document: the mock's fault; no call was made.
    pub unavailable: Option<String>,
}

/// One document's run.
pub struct DocRun {
    pub label: String,
    pub slug: String,
    pub path: PathBuf,
    /// The generator's first error (the document has no CLI).
    pub not_generated: Option<String>,
    pub plan: Option<Plan>,
    /// The CLI did not compile (or cargo could not load it): the first error.
    pub build_error: Option<String>,
    pub bin: Option<PathBuf>,
    pub rounds: Vec<RoundRun>,
    /// What Prism's copy of the document changes ([`super::prism::mock_copy`]).
    pub mock_changes: Vec<String>,
    /// The document's JSON is not its root file as written (bundled, or 2.0 read as 3.0):
    /// Prism is given the harness's copy.
    pub own_copy: bool,
}

impl DocRun {
    pub fn new(label: String, slug: String, path: PathBuf) -> DocRun {
        DocRun {
            label,
            slug,
            path,
            not_generated: None,
            plan: None,
            build_error: None,
            bin: None,
            rounds: Vec::new(),
            mock_changes: Vec::new(),
            own_copy: false,
        }
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.calls().filter(|c| c.outcome == outcome).count()
    }

    fn calls(&self) -> impl Iterator<Item = &CallResult> {
        self.rounds.iter().flat_map(|r| r.calls.iter())
    }

    fn offered(&self) -> Option<usize> {
        self.plan.as_ref().map(|(_, _, cli)| cli.commands.len())
    }

    fn left_out(&self) -> Vec<(String, String)> {
        self.plan
            .as_ref()
            .map(|(_, api, cli)| {
                cli.left_out
                    .iter()
                    .map(|l| (api.operations[l.operation].id.clone(), l.reason.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Why the run fails: CLIs that do not compile, rounds Prism could not serve, and every call
/// whose outcome [fails](Outcome::fails).
pub fn failures(runs: &[DocRun]) -> Vec<String> {
    let mut out = Vec::new();
    for run in runs {
        if let Some(e) = &run.not_generated
            && (e.contains("panicked") || e.contains("internal generator error"))
        {
            out.push(format!("{}: {e}", run.label));
        }
        if run.build_error.is_some() {
            out.push(format!("{}: the CLI does not compile", run.label));
        }
        for round in &run.rounds {
            if round.prism_error.is_some() {
                out.push(format!(
                    "{} ({}): Prism failed",
                    run.label,
                    round.mode.label()
                ));
            }
        }
        let failed = run.calls().filter(|c| c.outcome.fails()).count();
        if failed > 0 {
            out.push(format!("{}: {failed} calls failed", run.label));
        }
    }
    out
}

/// The table: one row per document, and a total.
pub fn tables(runs: &[DocRun]) -> String {
    let mut s = String::from(
        "| document | CLI | operations | left out | calls | ok | refused | not decoded | mock's faults | document's faults | other failures |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = [0usize; 10];
    for run in runs {
        let cli = match (&run.not_generated, &run.build_error, &run.bin) {
            (Some(e), _, _) => format!("not generated: {}", cell(e, 80)),
            (_, Some(e), _) => format!("**does not compile**: {}", cell(e, 80)),
            (_, _, Some(_)) if run.rounds.iter().any(|r| r.unavailable.is_some()) => {
                "yes (Prism cannot read the document)".into()
            }
            (_, _, Some(_)) => "yes".into(),
            _ => "–".into(),
        };
        let other = run
            .calls()
            .filter(|c| {
                matches!(
                    c.outcome,
                    Outcome::NotSent | Outcome::Failed | Outcome::NoValues
                )
            })
            .count()
            + run
                .rounds
                .iter()
                .filter(|r| r.prism_error.is_some())
                .count();
        let row = [
            1,
            run.offered().unwrap_or(0),
            run.left_out().len(),
            run.calls().count(),
            run.count(Outcome::Ok),
            run.count(Outcome::Refused),
            run.count(Outcome::Undecoded),
            run.count(Outcome::MockFault),
            run.count(Outcome::DocumentFault),
            other,
        ];
        for (t, v) in total.iter_mut().zip(row) {
            *t += v;
        }
        let numbers: Vec<String> = row[1..].iter().map(usize::to_string).collect();
        let _ = writeln!(s, "| `{}` | {cli} | {} |", run.label, numbers.join(" | "));
    }
    let numbers: Vec<String> = total[1..].iter().map(usize::to_string).collect();
    let _ = writeln!(
        s,
        "| **{} documents** | | {} |",
        total[0],
        numbers.join(" | ")
    );
    s
}

/// The report file: the table, the operations left out and why, every failure and every
/// fault of the mock, call by call.
pub fn render(runs: &[DocRun], dirs: &str, modes: &[Mode], secs: f64) -> String {
    let mut s = String::from("# `cargo xtask calls`\n\n");
    let _ = writeln!(
        s,
        "Rounds per document: {}. Documents from {dirs}.\n",
        modes
            .iter()
            .map(|m| m.label())
            .collect::<Vec<_>>()
            .join("; ")
    );
    s.push_str(&tables(runs));
    let left: Vec<String> = runs
        .iter()
        .flat_map(|r| {
            r.left_out()
                .into_iter()
                .map(move |(op, why)| format!("- `{}` {op}: {why}", r.label))
        })
        .collect();
    let changed: Vec<String> = runs
        .iter()
        .filter(|r| !r.mock_changes.is_empty())
        .map(|r| format!("- `{}`: {}", r.label, r.mock_changes.join("; ")))
        .collect();
    if !changed.is_empty() {
        s.push_str("\n## What Prism's copy of a document changes\n\n");
        for line in changed {
            s.push_str(&line);
            s.push('\n');
        }
    }
    if !left.is_empty() {
        s.push_str("\n## Left out by the CLI\n\n");
        for line in left {
            s.push_str(&line);
            s.push('\n');
        }
    }
    // `Some(true)`: failures; `Some(false)`: the mock's faults; `None`: the documents'.
    for (title, wanted) in [
        ("Failures", Some(true)),
        (
            "The mock's faults (Prism's answer breaks the document, or Prism cannot serve it)",
            Some(false),
        ),
        ("The documents' faults (no valid request can be made)", None),
    ] {
        let mut section = String::new();
        for run in runs {
            for round in &run.rounds {
                if let Some(e) = &round.unavailable
                    && wanted == Some(false)
                {
                    let _ = writeln!(
                        section,
                        "- `{}` ({}): no call made: {}",
                        run.label,
                        round.mode.label(),
                        cell(e, 400)
                    );
                }
                if let Some(e) = &round.prism_error
                    && wanted == Some(true)
                {
                    let _ = writeln!(
                        section,
                        "- `{}` ({}): Prism: {}",
                        run.label,
                        round.mode.label(),
                        cell(e, 400)
                    );
                }
                for call in &round.calls {
                    let show = match wanted {
                        Some(true) => call.outcome.fails(),
                        Some(false) => call.outcome == Outcome::MockFault,
                        None => call.outcome == Outcome::DocumentFault,
                    };
                    if show {
                        let _ = writeln!(
                            section,
                            "- `{}` ({}) `{}` ({}): **{}**: {}{}",
                            run.label,
                            round.mode.label(),
                            call.command,
                            call.operation,
                            call.outcome.label(),
                            cell(&call.detail, 600),
                            if wanted == Some(true) && !call.args.is_empty() {
                                format!(
                                    "; arguments: `{}`",
                                    cell(&call.args.join(" "), 300).replace('`', "'")
                                )
                            } else {
                                String::new()
                            }
                        );
                    }
                }
            }
        }
        if !section.is_empty() {
            let _ = write!(s, "\n## {title}\n\n{section}");
        }
    }
    let _ = writeln!(s, "\n_{} documents; {secs:.0} s._", runs.len());
    s
}

/// A table cell: one line, no `|`, at most `max` characters.
fn cell(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s: String = one_line.chars().take(max).collect();
    if one_line.chars().count() > max {
        s.push('…');
    }
    s.replace('|', "\\|")
}
