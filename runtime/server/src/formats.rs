//! The string formats the server checks on values kept as `String`: `uri` and `uri-reference`
//! (RFC 3986), `email` (RFC 5321's mailbox: a dot-atom or quoted local part, a host name or an
//! address literal) and `hostname` (RFC 1123). Formats with a type of their own (`uuid`,
//! `date-time`, …) are checked by their parsers; other formats are not checked.
//!
//! Written to accept what JSON Schema validators accept for these formats (a value a
//! conforming client sends is never refused) and to refuse what they refuse; where validators
//! differ, the Rust `jsonschema` crate (the one schemathesis checks answers and negative cases
//! with) decides: a host name has no final dot, a label with `--` in its third and fourth
//! places is an A-label (`xn--`), and an email's local part may hold UTF-8 (RFC 6531). Not
//! checked: whether an A-label's Punycode decodes.

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
            "Name <a@example.com>",
            &long_local,
            &long_domain,
        ] {
            assert!(!is_email(bad), "{bad}");
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
