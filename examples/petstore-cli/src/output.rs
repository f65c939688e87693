//! What the CLI prints: tables for people, dates as `YYYY-MM-DD` (no date crate needed for
//! that), and the rate-limit line.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use petstore_client::RateLimit;
use petstore_client::types::{Orders, Pet};

/// Left-aligned columns separated by two spaces; the header row first.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, (cell, width)) in row.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            if i + 1 < row.len() {
                line.extend(std::iter::repeat_n(' ', width - cell.chars().count()));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn pets(pets: &[Pet]) -> String {
    if pets.is_empty() {
        return "No animals.\n".to_owned();
    }
    let rows: Vec<Vec<String>> = pets
        .iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                cell(&p.name),
                p.category_id.to_string(),
                p.status
                    .as_ref()
                    .map_or_else(|| "-".to_owned(), |s| cell(s.as_str())),
            ]
        })
        .collect();
    table(&["ID", "NAME", "CATEGORY", "STATUS"], &rows)
}

/// Orders are free-form objects: one column per field any order has (`id` first, then by
/// name); strings as they are, other values as compact JSON, `-` where an order lacks one.
pub fn orders(orders: &Orders) -> String {
    if orders.is_empty() {
        return "No orders.\n".to_owned();
    }
    let names: BTreeSet<&str> = orders
        .iter()
        .flat_map(|o| o.keys().map(String::as_str))
        .collect();
    let mut columns: Vec<&str> = names.iter().copied().filter(|n| *n != "id").collect();
    if names.contains("id") {
        columns.insert(0, "id");
    }
    let rows: Vec<Vec<String>> = orders
        .iter()
        .map(|order| {
            columns
                .iter()
                .map(|c| match order.get(*c) {
                    None | Some(serde_json::Value::Null) => "-".to_owned(),
                    Some(serde_json::Value::String(s)) => cell(s),
                    Some(other) => cell(&other.to_string()),
                })
                .collect()
        })
        .collect();
    let header: Vec<String> = columns.iter().map(|c| c.to_uppercase()).collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    table(&header, &rows)
}

/// A value as one table cell: control characters (a newline in a name) escaped.
fn cell(value: &str) -> String {
    value
        .chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// `YYYY-MM-DD` (UTC) of an instant.
pub fn date(time: SystemTime) -> String {
    let secs = match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `rate limit: 59/60 remaining (window resets in 42 s)`; `?` for a part the server did not
/// report in usable form.
pub fn rate_limit(limit: &RateLimit, now: SystemTime) -> String {
    if limit.is_empty() {
        return "rate limit: not reported by the server".to_owned();
    }
    let number = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), |n| n.to_string());
    let mut line = format!(
        "rate limit: {}/{} remaining",
        number(limit.remaining),
        number(limit.limit)
    );
    if let Some(reset) = limit.reset {
        let wait = reset.duration_since(now).unwrap_or(Duration::ZERO);
        line.push_str(&format!(" (window resets in {})", seconds(wait)));
    }
    line
}

/// A delay in whole seconds, rounded up (`Retry-After: 1` must not read as "0 s").
pub fn seconds(delay: Duration) -> String {
    let secs = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
    format!("{secs} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_trim() {
        let rows = vec![
            vec!["1".into(), "Rex".into(), "available".into()],
            vec!["10".into(), "Bartholomew".into(), "-".into()],
        ];
        assert_eq!(
            table(&["ID", "NAME", "STATUS"], &rows),
            "ID  NAME         STATUS\n\
             1   Rex          available\n\
             10  Bartholomew  -\n"
        );
    }

    #[test]
    fn cells_escape_control_characters() {
        assert_eq!(cell("Rex\nJr.\t"), "Rex\\nJr.\\t");
        assert_eq!(cell("Frère Jacques"), "Frère Jacques");
    }

    #[test]
    fn dates() {
        let at = |secs: u64| date(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(1_795_305_600), "2026-11-22");
        assert_eq!(at(1_922_659_200), "2030-12-05");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(date(UNIX_EPOCH - Duration::from_secs(86_400)), "1969-12-31");
    }

    #[test]
    fn rate_limit_lines() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000);
        let full = RateLimit {
            limit: Some(60),
            remaining: Some(59),
            reset: Some(now + Duration::from_millis(41_500)),
        };
        assert_eq!(
            rate_limit(&full, now),
            "rate limit: 59/60 remaining (window resets in 42 s)"
        );
        let partial = RateLimit {
            limit: Some(60),
            ..RateLimit::default()
        };
        assert_eq!(rate_limit(&partial, now), "rate limit: ?/60 remaining");
        assert_eq!(
            rate_limit(&RateLimit::default(), now),
            "rate limit: not reported by the server"
        );
    }
}
