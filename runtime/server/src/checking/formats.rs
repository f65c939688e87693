//! The string formats the server checks on values kept as `String`: `uri` and `uri-reference`
//! (RFC 3986), `email` (RFC 5321's mailbox: a dot-atom or quoted local part, a host name or an
//! address literal) and `hostname` (RFC 1123); and the readers of the formats with a type of
//! their own, exactly as their RFCs write them: `date-time` and `date` (RFC 3339), `uuid`
//! (RFC 9562). Other formats are not checked.
//!
//! Written to accept what JSON Schema validators accept for these formats (a value a
//! conforming client sends is never refused) and to refuse what they refuse; where validators
//! differ, the Rust `jsonschema` crate (the one schemathesis checks answers and negative cases
//! with) decides: a host name has no final dot, a label with `--` in its third and fourth
//! places is an A-label (`xn--`), and an email's local part may hold UTF-8 (RFC 6531). Not
//! checked: whether an A-label's Punycode decodes.
//!
//! Decision: `docs/decisions/0021-string-formats.md`.

use super::object::Exact;

/// The exact readers of the formats with a type of their own, as the server's generated
/// types read their fields with them (`object::field_exact`) and its parameters parse them.
pub const DATE_TIME: Exact<jiff::Timestamp> = Exact {
    read: date_time,
    expected: "a date-time with an offset, RFC 3339 (date-time)",
};
/// `format: date`: a calendar date, `YYYY-MM-DD` (RFC 3339's `full-date`).
pub const DATE: Exact<jiff::civil::Date> = Exact {
    read: date,
    expected: "a date, YYYY-MM-DD (date)",
};
/// `format: uuid`: a UUID in its hyphenated form.
pub const UUID: Exact<uuid::Uuid> = Exact {
    read: uuid,
    expected: "a UUID, RFC 9562's hyphenated form (uuid)",
};

/// `date-time` as RFC 3339 §5.6 writes it, exactly: `YYYY-MM-DDTHH:MM:SS`, an optional
/// fraction of any length, then `Z` or `±HH:MM` (`T` and `Z` in either case); a real day of
/// its month, an hour below 24 in the time and the offset, a leap second (`:60`) only where
/// the UTC time is 23:59. jiff's own reader takes more (`+01` without minutes, an offset of
/// `-24:00`, a leap second on any minute, `2024-06-01 12:00Z`) and refuses a fraction beyond
/// nanoseconds: this one is what the server holds values to, and a longer fraction is cut to
/// nanoseconds, not refused. `None`: not a date-time.
pub fn date_time(text: &str) -> Option<jiff::Timestamp> {
    let b = text.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') {
        return None;
    }
    full_date(&text[..10])?;
    let (hour, minute, second) = (two(b, 11)?, two(b, 14)?, two(b, 17)?);
    if b[13] != b':' || b[16] != b':' || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut i = 19;
    let mut fraction = "";
    if b[i] == b'.' {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        fraction = &text[i + 1..i + 1 + digits];
        i += 1 + digits;
    }
    let offset_minutes: i32 = match b.get(i..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (h, m) = (two(b, i + 1)?, two(b, i + 4)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = i32::from(h) * 60 + i32::from(m);
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return None,
    };
    if second == 60 {
        // The minute that holds a leap second is 23:59 in UTC.
        let utc = (i32::from(hour) * 60 + i32::from(minute) - offset_minutes).rem_euclid(24 * 60);
        if utc != 23 * 60 + 59 {
            return None;
        }
    }
    if second < 60 && fraction.len() <= 9 {
        return text.parse().ok();
    }
    // jiff reads the rest once the second is one it keeps (a leap second is the second
    // before it) and the fraction is at most nanoseconds.
    let mut normal = String::with_capacity(text.len());
    normal.push_str(&text[..17]);
    normal.push_str(if second == 60 { "59" } else { &text[17..19] });
    if !fraction.is_empty() {
        normal.push('.');
        normal.push_str(&fraction[..fraction.len().min(9)]);
    }
    normal.push_str(&text[i..]);
    normal.parse().ok()
}

/// `date` (RFC 3339's `full-date`), exactly: `YYYY-MM-DD`, a real day of its month.
pub fn date(text: &str) -> Option<jiff::civil::Date> {
    full_date(text)
}

fn full_date(text: &str) -> Option<jiff::civil::Date> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = i16::from(two(b, 0)?) * 100 + i16::from(two(b, 2)?);
    let (month, day) = (two(b, 5)?, two(b, 8)?);
    jiff::civil::Date::new(year, month as i8, day as i8).ok()
}

/// Two ASCII digits at `at`, as a number.
fn two(b: &[u8], at: usize) -> Option<u8> {
    match b.get(at..at + 2)? {
        [h @ b'0'..=b'9', l @ b'0'..=b'9'] => Some((h - b'0') * 10 + (l - b'0')),
        _ => None,
    }
}

/// `uuid` as RFC 9562 writes it (§4): 32 hex digits in groups of 8-4-4-4-12 joined by
/// hyphens, in either case. The `uuid` crate also reads the digits without hyphens, in
/// braces or after `urn:uuid:`, which the format does not allow.
pub fn uuid(text: &str) -> Option<uuid::Uuid> {
    let b = text.as_bytes();
    let hyphens = [8, 13, 18, 23];
    let shaped = b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            if hyphens.contains(&i) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
    if !shaped {
        return None;
    }
    uuid::Uuid::try_parse(text).ok()
}

/// `uri`: an absolute URI (a scheme, `:`, then the rest as RFC 3986 writes it).
pub fn is_uri(text: &str) -> bool {
    match split_scheme(text) {
        Some((scheme, rest)) => is_scheme(scheme) && is_after_scheme(rest),
        None => false,
    }
}

/// `uri-reference`: a URI, or a relative reference (whose first segment holds no `:`).
pub fn is_uri_reference(text: &str) -> bool {
    match split_scheme(text) {
        Some((scheme, rest)) => is_scheme(scheme) && is_after_scheme(rest),
        None => is_after_scheme(text),
    }
}

/// The scheme and what follows its `:`, when a `:` comes before any `/`, `?` or `#`.
fn split_scheme(text: &str) -> Option<(&str, &str)> {
    let end = text.find([':', '/', '?', '#'])?;
    (text.as_bytes()[end] == b':').then(|| (&text[..end], &text[end + 1..]))
}

/// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
fn is_scheme(scheme: &str) -> bool {
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// hier-part (or relative-part) [ "?" query ] [ "#" fragment ].
fn is_after_scheme(rest: &str) -> bool {
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let (hier, query) = match rest.split_once('?') {
        Some((hier, query)) => (hier, Some(query)),
        None => (rest, None),
    };
    let tail_ok = |part: Option<&str>| {
        part.is_none_or(|p| chars_ok(p, |b| is_pchar(b) || b == b'/' || b == b'?'))
    };
    if !tail_ok(query) || !tail_ok(fragment) {
        return false;
    }
    match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            is_authority(&after[..end]) && is_path(&after[end..])
        }
        None => is_path(hier),
    }
}

/// [ userinfo "@" ] host [ ":" port ]
fn is_authority(authority: &str) -> bool {
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    if userinfo.is_some_and(|u| !chars_ok(u, |b| is_unreserved(b) || is_sub_delim(b) || b == b':'))
    {
        return false;
    }
    let (host, port) = if host_port.starts_with('[') {
        match host_port.find(']') {
            Some(close) => (&host_port[..=close], &host_port[close + 1..]),
            None => return false,
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((host, _)) => (host, &host_port[host.len()..]),
            None => (host_port, ""),
        }
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && is_host(host)
}

/// IP-literal / IPv4address / reg-name
fn is_host(host: &str) -> bool {
    match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(literal) => literal.parse::<std::net::Ipv6Addr>().is_ok() || is_ip_future(literal),
        None => chars_ok(host, |b| is_unreserved(b) || is_sub_delim(b)),
    }
}

/// "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
fn is_ip_future(literal: &str) -> bool {
    let Some(rest) = literal.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((version, tail)) = rest.split_once('.') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !tail.is_empty()
        && tail
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

/// Segments of pchars separated by `/`.
fn is_path(path: &str) -> bool {
    chars_ok(path, |b| is_pchar(b) || b == b'/')
}

/// Whether every character is `allowed` or part of a `%XX` escape.
fn chars_ok(text: &str, allowed: impl Fn(u8) -> bool) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
            continue;
        }
        if !allowed(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@'
}

/// `hostname`: labels of 1 to 63 letters, digits and hyphens, neither first nor last a
/// hyphen, 253 characters at most; no final `.`, and `--` in a label's third and fourth places
/// only after `xn` (an IDNA A-label, RFC 5891).
pub fn is_hostname(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && (label.get(2..4) != Some("--")
                    || label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("xn")))
        })
}

/// `email`: local-part "@" domain, the local part a dot-atom or a quoted string of at most 64
/// bytes (UTF-8 allowed, RFC 6531), the domain a host name or an address literal
/// (`[192.0.2.1]`, `[IPv6:…]`).
pub fn is_email(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    let local_ok = if local.starts_with('"') {
        is_quoted_local(local)
    } else {
        !local.is_empty()
            && local
                .split('.')
                .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => literal.parse::<std::net::Ipv4Addr>().is_ok(),
        },
        None => is_hostname(domain),
    };
    local_ok && local.len() <= 64 && domain_ok
}

/// RFC 5322 `atext`: letters, digits and these symbols, and any printable non-ASCII
/// character (RFC 6531).
fn is_atext(c: char) -> bool {
    match u8::try_from(c) {
        Ok(b) => b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b),
        Err(_) => !c.is_control(),
    }
}

/// `"…"` holding printable text (ASCII or UTF-8), with `\` escaping a printable ASCII
/// character or a space.
fn is_quoted_local(local: &str) -> bool {
    let Some(inner) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else {
        return false;
    };
    let mut escaped = false;
    for c in inner.chars() {
        match (escaped, c) {
            (true, ' '..='~') => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return false,
            (false, ' '..='~') => {}
            (false, c) if !c.is_ascii() && !c.is_control() => {}
            _ => return false,
        }
    }
    !escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        for good in [
            "https://example.com/a?b#c",
            "https://example.com",
            "http://user:pw@example.com:8080/p/a%20th?q=1&r=/x?#frag/?",
            "http://[2001:db8::1]:80/",
            "http://[v7.fe80::a+en1]/",
            "http://192.0.2.1/",
            "http://example.com:/",
            "file:///etc/hosts",
            "mailto:x@y.z",
            "urn:isbn:0451450523",
            "tag:example.com,2024:a",
            "a:",
            "git+ssh://git@example.com/r.git",
        ] {
            assert!(is_uri(good), "{good}");
            assert!(is_uri_reference(good), "{good}");
        }
        for bad in [
            "not a uri",
            "http://exa mple.com",
            "//example.com/a",
            "/a/b",
            "example.com",
            "",
            "1http://example.com",
            ":no-scheme",
            "http://example.com/%zz",
            "http://example.com/a#b#c",
            "http://a@b@example.com/",
            "http://[::1/",
            "http://[not-v6]/",
            // IPvFuture: `v`, a hexadecimal version, `.`, then at least one character.
            "http://[v.fe80]/",
            "http://[vg.1]/",
            "http://[v7.]/",
            "http://[v7.a/b]/",
            "http://example.com:8o/",
            "http://example.com/ä",
            "http://example.com/<a>",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn uri_references() {
        for good in [
            "",
            "/a/b?c#d",
            "a/b",
            "../x",
            "./a:b",
            "?q",
            "#f",
            "//example.com/a",
            "%41",
        ] {
            assert!(is_uri_reference(good), "{good}");
            assert!(!is_uri(good), "{good} is relative");
        }
        for bad in ["not a uri", "a b", "1a:b", "/a#b#c", "%4", "\\a", "[x]"] {
            assert!(!is_uri_reference(bad), "{bad}");
        }
    }

    #[test]
    fn emails() {
        for good in [
            "user@example.com",
            "first.last+tag@sub.example.co",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            "x@localhost",
            "\"quoted local\"@example.com",
            "\"a@b\\\"c\"@example.com",
            "user@[192.0.2.1]",
            "user@[IPv6:2001:db8::1]",
            "用户@example.com",
            "\"名 前\"@example.com",
        ] {
            assert!(is_email(good), "{good}");
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        let long_domain = format!("a@{}.com", vec!["b".repeat(63); 4].join("."));
        for bad in [
            "a@",
            "@example.com",
            "plain",
            "a..b@example.com",
            ".a@example.com",
            "a.@example.com",
            "a b@example.com",
            "a@-example.com",
            "a@example.com.",
            "a@exa_mple.com",
            "a@[300.0.0.1]",
            "a@[2001:db8::1]",
            "\"unterminated@example.com",
            "\"a\"b\"@example.com",
            // A control character, ASCII or not, is no text even when quoted.
            "\"a\tb\"@example.com",
            "\"a\u{85}b\"@example.com",
            "Name <a@example.com>",
            &long_local,
            &long_domain,
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn date_times_as_rfc_3339_writes_them() {
        for ok in [
            "2024-06-19T15:22:45Z",
            "2024-06-19t15:22:45z",
            "2024-06-19T15:22:45.5+02:00",
            "2024-06-19T15:22:45.123456789012345-00:00",
            "1998-12-31T23:59:60Z",
            "1998-12-31T15:59:60.123-08:00",
            // 15:29 at eight and a half hours west is 23:59 in UTC.
            "1998-12-31T15:29:60-08:30",
            "2024-02-29T00:00:00+23:59",
        ] {
            assert!(date_time(ok).is_some(), "{ok}");
        }
        for bad in [
            "2024-06-19T15:22:45",
            "2024-06-19T15:22:45+01",
            "2024-06-19T15:22:45+0100",
            "2024-06-19T15:22:45-24:00",
            "2024-06-19T15:22:45+01:60",
            "2024-06-19T24:00:00Z",
            "2024-06-19T15:60:00Z",
            "2024-06-19T15:22:61Z",
            "1998-12-31T23:58:60Z",
            "1998-12-31T22:59:60Z",
            "2024-06-19 15:22:45Z",
            "2024-06-19T15:22:45.Z",
            "2023-02-29T00:00:00Z",
            "2024-06-19T15:22:45Z ",
            "2024-6-19T15:22:45Z",
            "２024-06-19T15:22:45Z",
        ] {
            assert!(date_time(bad).is_none(), "{bad}");
        }
        // A fraction beyond nanoseconds is cut, a leap second is the second before it.
        assert_eq!(
            date_time("2024-06-19T15:22:45.1234567891Z").unwrap(),
            "2024-06-19T15:22:45.123456789Z"
                .parse::<jiff::Timestamp>()
                .unwrap()
        );
        assert_eq!(
            date_time("1998-12-31T23:59:60Z").unwrap(),
            "1998-12-31T23:59:59Z".parse::<jiff::Timestamp>().unwrap()
        );
    }

    #[test]
    fn dates_and_uuids_as_their_rfcs_write_them() {
        assert!(date("2024-02-29").is_some());
        for bad in [
            "20240229",
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "2024-01-01T00:00:00Z",
            "2024/02-29",
            "2024-02/29",
            "2024-02-2x",
        ] {
            assert!(date(bad).is_none(), "{bad}");
        }
        assert!(uuid("550e8400-e29b-41d4-A716-446655440000").is_some());
        for bad in [
            "550e8400e29b41d4a716446655440000",
            "urn:uuid:550e8400-e29b-41d4-a716-446655440000",
            "{550e8400-e29b-41d4-a716-446655440000}",
            "550e8400-e29b-41d4-a716-44665544000g",
            "550e840-0e29b-41d4-a716-446655440000",
        ] {
            assert!(uuid(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn hostnames() {
        let longest = [
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(61),
        ]
        .join(".");
        assert_eq!(longest.len(), 253);
        for good in [
            "example.com",
            "localhost",
            "a",
            "1.example",
            "a-b.c-d",
            "xn--bcher-kva.example",
            "EXAMPLE.COM",
            &longest,
        ] {
            assert!(is_hostname(good), "{good}");
        }
        let too_long = format!("{longest}e");
        let long_label = format!("{}.com", "a".repeat(64));
        for bad in [
            "-host.com",
            "host-.com",
            "",
            ".",
            "example.com.",
            "a..b",
            "exa mple.com",
            "under_score.com",
            "ab--cd.com",
            "bücher.example",
            &too_long,
            &long_label,
        ] {
            assert!(!is_hostname(bad), "{bad}");
        }
    }
}
