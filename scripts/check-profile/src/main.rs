//! `check-profile FILE.mm_profdata`: rustc's self-profile of one crate's `cargo check`, as
//! self time per query and item (`NANOSECONDS\tQUERY\tKEY` lines, largest first), for
//! scripts/check-profile.sh to sort into kinds of generated code.
//!
//! An event's self time is its interval less the intervals of the events nested in it on
//! the same thread: rustc's queries call each other, and a type check that asks for a trait
//! solution must not count the solving twice.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use analyzeme::{ProfilingData, Timestamp};

/// One timed event: thread, start, end, query, key.
type Event = (u32, SystemTime, SystemTime, String, String);

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check-profile FILE.mm_profdata");
        return ExitCode::FAILURE;
    };
    let data = match ProfilingData::new(Path::new(&path)) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("check-profile: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut events: Vec<Event> = data
        .iter_full()
        .filter_map(|e| {
            let Timestamp::Interval { start, end } = e.payload.timestamp()? else {
                return None;
            };
            let key = e.additional_data.first().map(|s| s.to_string());
            Some((
                e.thread_id,
                start,
                end,
                e.label.to_string(),
                key.unwrap_or_default(),
            ))
        })
        .collect();
    // Outer events before the ones they hold: by thread, start, then the longer first.
    events.sort_by(|a, b| {
        (a.0, a.1, std::cmp::Reverse(a.2)).cmp(&(b.0, b.1, std::cmp::Reverse(b.2)))
    });
    let length = |e: &Event| e.2.duration_since(e.1).unwrap_or_default().as_nanos();
    let mut own: Vec<u128> = events.iter().map(length).collect();
    let mut open: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        while let Some(&top) = open.last() {
            let t = &events[top];
            if t.0 != e.0 || t.2 <= e.1 {
                open.pop();
            } else {
                break;
            }
        }
        if let Some(&top) = open.last() {
            own[top] = own[top].saturating_sub(length(e));
        }
        open.push(i);
    }
    let mut by: HashMap<(&str, &str), u128> = HashMap::new();
    for (e, ns) in events.iter().zip(own) {
        *by.entry((e.3.as_str(), e.4.as_str())).or_default() += ns;
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1));
    for ((query, key), ns) in rows {
        println!("{ns}\t{query}\t{key}");
    }
    ExitCode::SUCCESS
}
