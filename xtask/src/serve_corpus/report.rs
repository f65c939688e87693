//! The report: the table per document (operations, cases, failures by check, listed
//! defects, verdict) and the failures no defect lists.

use super::*;

pub(super) fn render(rows: &[Row], stale: &[&Defect], args: &Args, took: Duration) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| document | operations | cases | failures by check | listed defects | verdict |\n|---|---:|---:|---|---|---|"
    );
    for r in rows {
        let operations = r
            .model
            .as_ref()
            .map_or("–".to_string(), |m| m.operations.to_string());
        let (cases, failures) = match &r.outcome {
            Outcome::Ran(run) => {
                let mut by: Vec<String> = run
                    .by_check
                    .iter()
                    .map(|(check, n)| format!("{check} {n}"))
                    .collect();
                if !run.errors.is_empty() {
                    by.push(format!("errors {}", run.errors.len()));
                }
                (
                    run.cases.to_string(),
                    if by.is_empty() {
                        "none".into()
                    } else {
                        by.join(", ")
                    },
                )
            }
            Outcome::Broken(why) => ("–".into(), format!("**{}**", cell(why, 120))),
            Outcome::NotGenerated => (
                "–".into(),
                format!(
                    "not generated: {}",
                    cell(r.refused.as_deref().unwrap_or("(no message)"), 100)
                ),
            ),
        };
        let listed = if r.accepted.is_empty() {
            "–".to_string()
        } else {
            let checks: BTreeSet<&str> = r.accepted.iter().map(|(c, _)| c.as_str()).collect();
            format!(
                "{} ({})",
                r.accepted.len(),
                checks.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        let verdict = match r.verdict() {
            Verdict::Passes => "passes",
            Verdict::Fails => "**fails**",
            Verdict::NotServed => "not served",
        };
        let _ = writeln!(
            s,
            "| `{}` | {operations} | {cases} | {failures} | {listed} | {verdict} |",
            r.label
        );
    }
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict() == v).count();
    let _ = writeln!(
        s,
        "\nserve-corpus: {} documents, {} served and passing, {} failing, {} not generated; {} cases; checks: all but {} ({}); max examples {}, {}, workers {}; {:.0} s.",
        rows.len(),
        count(Verdict::Passes),
        count(Verdict::Fails),
        count(Verdict::NotServed),
        rows.iter()
            .map(|r| match &r.outcome {
                Outcome::Ran(run) => run.cases,
                _ => 0,
            })
            .sum::<usize>(),
        EXCLUDED_CHECKS
            .iter()
            .map(|(c, _)| *c)
            .collect::<Vec<_>>()
            .join(", "),
        EXCLUDED_CHECKS
            .iter()
            .map(|(_, why)| *why)
            .collect::<Vec<_>>()
            .join("; "),
        args.max_examples,
        if args.seeds > 1 {
            let seeds: Vec<String> = args.seeds().map(|s| s.to_string()).collect();
            format!(
                "seeds {} (documents of over 300 operations: half the examples)",
                seeds.join(", ")
            )
        } else {
            format!("seed {}", args.seed)
        },
        args.workers,
        took.as_secs_f64()
    );
    // Every failure not listed, with its first message.
    let mut details = String::new();
    for r in rows {
        let Outcome::Ran(run) = &r.outcome else {
            continue;
        };
        if r.unlisted.is_empty() {
            continue;
        }
        let _ = writeln!(details, "\n### `{}`\n", r.label);
        for (check, operation) in &r.unlisted {
            let first = run
                .failures
                .get(&(check.clone(), operation.clone()))
                .map(|(n, m)| format!("{n} × {}", clip(m, 600)))
                .or_else(|| {
                    run.errors
                        .iter()
                        .find(|(op, _)| op == operation)
                        .map(|(_, m)| clip(m, 600))
                })
                .unwrap_or_default();
            let _ = writeln!(details, "- `{check}` `{operation}`: {first}");
        }
    }
    if !details.is_empty() {
        let _ = write!(s, "\n## Failures not listed as document defects\n{details}");
    }
    if !stale.is_empty() {
        let _ = writeln!(s, "\n## Listed defects that no longer show (remove them)\n");
        for d in stale {
            let _ = writeln!(s, "- `{}` `{}` `{}`", d.document, d.check, d.operation);
        }
    }
    s
}

pub(super) fn cell(text: &str, max: usize) -> String {
    clip(&text.split_whitespace().collect::<Vec<_>>().join(" "), max).replace('|', "\\|")
}

pub(super) fn clip(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', " ⏎ ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        format!("{}…", one_line.chars().take(max).collect::<String>())
    }
}
