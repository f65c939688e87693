//! The `x-` extensions we read (`x-deprecation`, `x-rate-limit`), checked with located errors,
//! and the HTTP header values derived from them at generation time.

use crate::diag::{Sink, push};
use crate::ir::RateLimitPolicy;
use indexmap::IndexMap;
use serde_json::Value;
use std::collections::BTreeMap;

/// What `x-deprecation` on one operation says.
#[derive(Debug, Clone, PartialEq)]
pub struct DeprecationExt {
    /// Unix seconds of `since`, for `Deprecation: @<seconds>` (RFC 9745).
    pub since: Option<i64>,
    /// `sunset` as an IMF-fixdate, for `Sunset` (RFC 8594), and as `YYYY-MM-DD` for prose.
    pub sunset: Option<(String, String)>,
    /// Unix seconds of `sunset` (midnight UTC): from then on the server answers 410.
    pub sunset_at: Option<i64>,
    pub replacement: Option<String>,
    pub note: Option<String>,
}

pub fn deprecation(
    extensions: &IndexMap<String, Value>,
    pointer: &str,
    sink: &mut Sink,
) -> Option<DeprecationExt> {
    let value = extensions.get("x-deprecation")?;
    let at = push(pointer, "x-deprecation");
    let Some(obj) = value.as_object() else {
        sink.error(
            &at,
            "must be an object with `since`, `sunset`, `replacement`, `note`",
        );
        return None;
    };
    let date = |key: &str, sink: &mut Sink| -> Option<(i64, String)> {
        let raw = obj.get(key)?;
        match raw.as_str().and_then(parse_date) {
            Some(days) => Some((days * 86_400, raw.as_str().unwrap_or_default().to_string())),
            None => {
                sink.error(
                    push(&at, key),
                    format!("expected a date `YYYY-MM-DD`, found {raw}"),
                );
                None
            }
        }
    };
    let since = date("since", sink);
    let sunset = date("sunset", sink);
    if let (Some((s, _)), Some((e, _))) = (&since, &sunset)
        && e < s
    {
        sink.error(
            push(&at, "sunset"),
            "the sunset date is earlier than the deprecation date",
        );
    }
    let text = |key: &str, sink: &mut Sink| -> Option<String> {
        let raw = obj.get(key)?;
        match raw.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                sink.error(push(&at, key), format!("expected a string, found {raw}"));
                None
            }
        }
    };
    Some(DeprecationExt {
        since: since.map(|(s, _)| s),
        sunset_at: sunset.as_ref().map(|(s, _)| *s),
        sunset: sunset.map(|(s, day)| (imf_fixdate(s), day)),
        replacement: text("replacement", sink),
        note: text("note", sink),
    })
}

pub fn rate_limit(
    extensions: &IndexMap<String, Value>,
    sink: &mut Sink,
) -> Option<RateLimitPolicy> {
    let value = extensions.get("x-rate-limit")?;
    let at = "/x-rate-limit";
    let mut plans = BTreeMap::new();
    let Some(obj) = value.as_object() else {
        sink.error(
            at,
            "must be an object with `plans`, `anonymous`, `defaultPlan` and `ban`",
        );
        return None;
    };
    let plans_at = push(at, "plans");
    match obj.get("plans").and_then(Value::as_object) {
        Some(map) if !map.is_empty() => {
            for (name, quota) in map {
                let per = |key: &str| {
                    quota
                        .get(key)
                        .and_then(Value::as_u64)
                        .and_then(|v| u32::try_from(v).ok())
                };
                match (per("perMinute"), per("perDay")) {
                    (Some(m), Some(d)) => {
                        plans.insert(name.clone(), (m, d));
                    }
                    _ => sink.error(
                        push(&plans_at, name),
                        "a plan needs `perMinute` and `perDay`, whole numbers up to 4294967295",
                    ),
                }
            }
        }
        _ => {
            sink.error(
                plans_at,
                "must be a non-empty map of plan name → {perMinute, perDay}",
            );
            return None;
        }
    }
    let plan_name = |key: &str, sink: &mut Sink| -> String {
        let first = plans.keys().next().cloned().unwrap_or_default();
        match obj.get(key).and_then(Value::as_str) {
            Some(p) if plans.contains_key(p) => p.to_string(),
            Some(p) => {
                sink.error(push(at, key), format!("`{p}` is not one of the plans"));
                first
            }
            None => first,
        }
    };
    let anonymous = plan_name("anonymous", sink);
    let default_plan = plan_name("defaultPlan", sink);
    let ban = obj.get("ban");
    let ban_u64 = |key: &str, fallback: u64| {
        ban.and_then(|b| b.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(fallback)
    };
    Some(RateLimitPolicy {
        plans,
        anonymous,
        default_plan,
        ban_strikes: u32::try_from(ban_u64("strikes", 20)).unwrap_or(u32::MAX),
        ban_seconds: ban_u64("seconds", 900),
    })
}

/// `YYYY-MM-DD` → days since 1970-01-01 (proleptic Gregorian).
pub fn parse_date(s: &str) -> Option<i64> {
    let mut parts = s.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_len = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || d < 1 || d > month_len[(m - 1) as usize] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Unix seconds → `Thu, 05 Dec 2030 00:00:00 GMT` (RFC 9110 IMF-fixdate).
pub fn imf_fixdate(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    // civil_from_days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let month_name = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(month - 1) as usize];
    format!(
        "{weekday}, {day:02} {month_name} {year} {:02}:{:02}:{:02} GMT",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(
            parse_date("2030-12-05").map(|d| d * 86_400),
            Some(1_922_659_200)
        );
        assert_eq!(
            parse_date("2026-11-22").map(|d| d * 86_400),
            Some(1_795_305_600)
        );
        assert_eq!(parse_date("2030-02-30"), None);
        assert!(parse_date("2024-02-29").is_some());
        assert_eq!(parse_date("5 Dec 2030"), None);
        assert_eq!(imf_fixdate(1_922_659_200), "Thu, 05 Dec 2030 00:00:00 GMT");
        assert_eq!(imf_fixdate(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(imf_fixdate(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT");
    }

    #[test]
    fn bad_extension_is_located() {
        let mut ext = IndexMap::new();
        ext.insert(
            "x-deprecation".to_string(),
            serde_json::json!({"sunset": "soon"}),
        );
        let mut sink = Sink::default();
        deprecation(&ext, "/paths/~1a/get", &mut sink);
        assert_eq!(sink.items[0].pointer, "/paths/~1a/get/x-deprecation/sunset");
    }

    #[test]
    fn dates_take_four_two_and_two_digits_of_a_real_day() {
        for malformed in [
            "2030-12-05-01",
            "30-12-05",
            "02030-12-05",
            "2030-1-05",
            "2030-12-5",
            "2030-12",
            "2030-13-01",
            "2030-00-10",
            "2030-12-00",
            "2030-04-31",
        ] {
            assert_eq!(parse_date(malformed), None, "{malformed}");
        }
    }

    #[test]
    fn leap_years_follow_the_gregorian_rules() {
        assert_eq!(parse_date("2023-02-29"), None); // not divisible by 4
        assert_eq!(parse_date("1900-02-29"), None); // a century
        assert_eq!(parse_date("2100-02-29"), None);
        assert_eq!(parse_date("2000-02-29"), Some(11_016)); // a fourth century
        assert_eq!(parse_date("2024-02-29"), Some(19_782));
        assert_eq!(parse_date("2024-03-01"), Some(19_783));
        assert_eq!(parse_date("2023-03-01"), Some(19_417));
    }

    #[test]
    fn every_day_from_1600_to_2400_formats_and_reads_back() {
        // parse_date (days from a civil date) and imf_fixdate (a civil date from days) are
        // independent algorithms: each checks the other, on every day of four centuries,
        // around every leap day and across the 400-year era boundaries of 1600, 2000 and 2400.
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
        let first = parse_date("1600-01-01").unwrap();
        let last = parse_date("2400-12-31").unwrap();
        assert_eq!(last - first + 1, 801 * 365 + 195); // 195 leap days in 1600..=2400
        let mut weekday = WEEKDAYS.iter().position(|w| *w == "Sat").unwrap(); // 1600-01-01
        for day in first..=last {
            let text = imf_fixdate(day * 86_400 + 3_723);
            let fields: Vec<&str> = text.split(' ').collect();
            assert_eq!(fields.len(), 6, "{text}");
            assert_eq!(fields[0], format!("{},", WEEKDAYS[weekday]), "{text}");
            assert_eq!(&fields[4..], ["01:02:03", "GMT"], "{text}");
            let month = MONTHS.iter().position(|m| *m == fields[2]).unwrap() + 1;
            let date = format!("{}-{month:02}-{}", fields[3], fields[1]);
            assert_eq!(parse_date(&date), Some(day), "{text}");
            weekday = (weekday + 1) % 7;
        }
    }

    fn ext(key: &str, value: Value) -> IndexMap<String, Value> {
        let mut ext = IndexMap::new();
        ext.insert(key.to_string(), value);
        ext
    }

    fn errors(sink: &Sink) -> Vec<String> {
        sink.items
            .iter()
            .map(|d| format!("{}: {}", d.pointer, d.message))
            .collect()
    }

    #[test]
    fn deprecation_is_read_whole() {
        let mut sink = Sink::default();
        let read = deprecation(
            &ext(
                "x-deprecation",
                serde_json::json!({
                    "since": "2026-11-22",
                    "sunset": "2030-12-05",
                    "replacement": "listPetsV2",
                    "note": "pages now",
                }),
            ),
            "/paths/~1pets/get",
            &mut sink,
        );
        assert_eq!(
            read,
            Some(DeprecationExt {
                since: Some(1_795_305_600),
                sunset: Some((
                    "Thu, 05 Dec 2030 00:00:00 GMT".to_string(),
                    "2030-12-05".to_string()
                )),
                sunset_at: Some(1_922_659_200),
                replacement: Some("listPetsV2".to_string()),
                note: Some("pages now".to_string()),
            })
        );
        assert!(sink.items.is_empty(), "{:?}", errors(&sink));
        // Absent: nothing to read, nothing to say.
        assert_eq!(deprecation(&IndexMap::new(), "/p", &mut sink), None);
        assert!(sink.items.is_empty());
    }

    #[test]
    fn a_sunset_before_the_deprecation_is_refused_but_the_same_day_is_not() {
        let read = |since: &str, sunset: &str| {
            let mut sink = Sink::default();
            let value = serde_json::json!({"since": since, "sunset": sunset});
            deprecation(&ext("x-deprecation", value), "/o", &mut sink);
            errors(&sink)
        };
        assert_eq!(read("2030-12-05", "2030-12-05"), Vec::<String>::new());
        assert_eq!(read("2030-12-04", "2030-12-05"), Vec::<String>::new());
        assert_eq!(
            read("2030-12-05", "2030-12-04"),
            ["/o/x-deprecation/sunset: the sunset date is earlier than the deprecation date"]
        );
    }

    #[test]
    fn a_malformed_deprecation_is_located() {
        let mut sink = Sink::default();
        assert_eq!(
            deprecation(
                &ext("x-deprecation", serde_json::json!(true)),
                "/o",
                &mut sink
            ),
            None
        );
        let read = deprecation(
            &ext("x-deprecation", serde_json::json!({"replacement": 5})),
            "/o",
            &mut sink,
        )
        .unwrap();
        assert_eq!(read.replacement, None);
        assert_eq!(
            errors(&sink),
            [
                "/o/x-deprecation: must be an object with `since`, `sunset`, `replacement`, `note`",
                "/o/x-deprecation/replacement: expected a string, found 5",
            ]
        );
    }

    #[test]
    fn rate_limit_reads_every_value() {
        let mut sink = Sink::default();
        let policy = rate_limit(
            &ext(
                "x-rate-limit",
                serde_json::json!({
                    "plans": {
                        "free": {"perMinute": 10, "perDay": 1000},
                        "pro": {"perMinute": 100, "perDay": 100000},
                    },
                    "anonymous": "pro",
                    "defaultPlan": "free",
                    "ban": {"strikes": 3, "seconds": 60},
                }),
            ),
            &mut sink,
        )
        .unwrap();
        assert!(sink.items.is_empty(), "{:?}", errors(&sink));
        assert_eq!(
            policy.plans.into_iter().collect::<Vec<_>>(),
            [
                ("free".to_string(), (10, 1000)),
                ("pro".to_string(), (100, 100_000))
            ]
        );
        assert_eq!(
            (
                policy.anonymous.as_str(),
                policy.default_plan.as_str(),
                policy.ban_strikes,
                policy.ban_seconds
            ),
            ("pro", "free", 3, 60)
        );
        assert!(rate_limit(&IndexMap::new(), &mut sink).is_none());
        assert!(sink.items.is_empty());
    }

    #[test]
    fn rate_limit_defaults_and_fallbacks() {
        let mut sink = Sink::default();
        let policy = rate_limit(
            &ext(
                "x-rate-limit",
                serde_json::json!({
                    "plans": {
                        "basic": {"perMinute": 1, "perDay": 2},
                        "gold": {"perMinute": 3, "perDay": 4},
                        "huge": {"perMinute": 4_294_967_296u64, "perDay": 5},
                        "half": {"perMinute": 5},
                    },
                    "anonymous": "platinum",
                    "ban": {"strikes": 5_000_000_000u64},
                }),
            ),
            &mut sink,
        )
        .unwrap();
        // Plans that cannot be read are reported and left out; an unknown plan name and a
        // missing one fall back to the first plan; the ban's missing values take defaults.
        assert_eq!(policy.plans.keys().collect::<Vec<_>>(), ["basic", "gold"]);
        assert_eq!(
            (
                policy.anonymous.as_str(),
                policy.default_plan.as_str(),
                policy.ban_strikes,
                policy.ban_seconds
            ),
            ("basic", "basic", u32::MAX, 900)
        );
        // (Sorted: the plans' order is the document's or the keys', as serde_json builds.)
        let mut reported = errors(&sink);
        reported.sort();
        assert_eq!(
            reported,
            [
                "/x-rate-limit/anonymous: `platinum` is not one of the plans",
                "/x-rate-limit/plans/half: a plan needs `perMinute` and `perDay`, whole numbers up to 4294967295",
                "/x-rate-limit/plans/huge: a plan needs `perMinute` and `perDay`, whole numbers up to 4294967295",
            ]
        );
        let policy = rate_limit(
            &ext(
                "x-rate-limit",
                serde_json::json!({"plans": {"only": {"perMinute": 1, "perDay": 2}}}),
            ),
            &mut sink,
        )
        .unwrap();
        assert_eq!((policy.ban_strikes, policy.ban_seconds), (20, 900));
    }

    #[test]
    fn rate_limit_without_plans_is_refused() {
        for value in [
            serde_json::json!({"plans": {}}),
            serde_json::json!({"anonymous": "free"}),
        ] {
            let mut sink = Sink::default();
            assert!(rate_limit(&ext("x-rate-limit", value), &mut sink).is_none());
            assert_eq!(
                errors(&sink),
                ["/x-rate-limit/plans: must be a non-empty map of plan name → {perMinute, perDay}"]
            );
        }
        let mut sink = Sink::default();
        assert!(rate_limit(&ext("x-rate-limit", serde_json::json!([])), &mut sink).is_none());
        assert_eq!(
            errors(&sink),
            ["/x-rate-limit: must be an object with `plans`, `anonymous`, `defaultPlan` and `ban`"]
        );
    }
}
