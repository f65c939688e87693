//! Strings that match a schema's `pattern`: the regular expression parsed by regex-syntax and
//! walked once, taking the first (or, by `choice`, another) branch of each alternation, a
//! readable character of each class and the fewest repetitions, plus `extra` more of the
//! first unbounded repetition to reach a `minLength`.
//!
//! Patterns are ECMA-262 regular expressions; the common subset (classes, escapes,
//! repetitions, groups, anchors) reads the same in regex-syntax. Look-aheads at the start
//! (nexus's names: `^(?!<a uuid>$)^[a-z]…`) are taken off, the rest walked, and each
//! candidate checked against them with regex-lite (a few choices are tried); look-arounds
//! elsewhere and back-references are an error the caller reports.

use regex_syntax::hir::{Class, Hir, HirKind};

/// A string matching `pattern`. `choice` picks among alternatives (0: always the first),
/// `extra` repeats the first repetition without an upper bound that many more times.
pub fn sample(pattern: &str, choice: u64, extra: usize) -> Result<String, String> {
    let (rest, looks) = leading_lookaheads(pattern);
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&rest)
        .map_err(|e| {
            format!(
                "pattern `{pattern}` is not read by regex-syntax: {}",
                first_line(&e.to_string())
            )
        })?;
    let checks = looks
        .iter()
        .map(|(positive, inner)| {
            regex_lite::Regex::new(&format!("^(?:{inner})"))
                .map(|re| (*positive, re))
                .map_err(|e| {
                    format!("pattern `{pattern}`: a look-ahead regex-lite cannot read: {e}")
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Without look-aheads the first candidate is the answer.
    let attempts = if checks.is_empty() { 1 } else { 64 };
    for attempt in 0..attempts {
        let mut out = String::new();
        let mut walk = Walk {
            choice: choice.wrapping_add(attempt),
            extra,
            out: &mut out,
        };
        walk.hir(&hir)?;
        if checks
            .iter()
            .all(|(positive, re)| re.is_match(&out) == *positive)
        {
            return Ok(out);
        }
    }
    Err(format!(
        "no string made for `{pattern}` passes its look-aheads"
    ))
}

/// Whether `text` matches `pattern`, by regex-lite, with look-aheads at the pattern's start
/// read as [`sample`] reads them; `None` for a pattern regex-lite cannot read even so.
pub fn matches(pattern: &str, text: &str) -> Option<bool> {
    if let Ok(re) = regex_lite::Regex::new(pattern) {
        return Some(re.is_match(text));
    }
    let (rest, looks) = leading_lookaheads(pattern);
    if looks.is_empty() {
        return None;
    }
    let mut fits = regex_lite::Regex::new(&rest).ok()?.is_match(text);
    for (positive, inner) in looks {
        let re = regex_lite::Regex::new(&format!("^(?:{inner})")).ok()?;
        fits &= re.is_match(text) == positive;
    }
    Some(fits)
}

/// The pattern without the look-aheads at its start (after any `^`), and those look-aheads:
/// (positive, inner pattern).
fn leading_lookaheads(pattern: &str) -> (String, Vec<(bool, String)>) {
    let mut rest = pattern;
    let mut anchors = String::new();
    let mut looks = Vec::new();
    loop {
        if let Some(r) = rest.strip_prefix('^') {
            anchors.push('^');
            rest = r;
            continue;
        }
        let positive = if rest.starts_with("(?=") {
            true
        } else if rest.starts_with("(?!") {
            false
        } else {
            break;
        };
        let Some(end) = closing_paren(rest) else {
            break;
        };
        looks.push((positive, rest[3..end].to_string()));
        rest = &rest[end + 1..];
    }
    (format!("{anchors}{rest}"), looks)
}

/// The index of the `)` closing the group that opens `text`, skipping escapes and classes.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0;
    let mut in_class = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn first_line(text: &str) -> String {
    text.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(text)
        .trim()
        .to_string()
}

struct Walk<'a> {
    choice: u64,
    extra: usize,
    out: &'a mut String,
}

impl Walk<'_> {
    fn hir(&mut self, hir: &Hir) -> Result<(), String> {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Ok(()),
            HirKind::Literal(lit) => {
                self.out.push_str(&String::from_utf8_lossy(&lit.0));
                Ok(())
            }
            HirKind::Class(class) => {
                self.out
                    .push(readable(class).ok_or("a character class matches nothing")?);
                Ok(())
            }
            HirKind::Repetition(rep) => {
                let mut count = rep.min as usize;
                if rep.max.is_none() && self.extra > 0 {
                    count += std::mem::take(&mut self.extra);
                } else if let Some(max) = rep.max {
                    let room = (max - rep.min) as usize;
                    let more = room.min(self.extra);
                    count += more;
                    self.extra -= more;
                }
                for _ in 0..count {
                    self.hir(&rep.sub)?;
                }
                Ok(())
            }
            HirKind::Capture(cap) => self.hir(&cap.sub),
            HirKind::Concat(parts) => parts.iter().try_for_each(|p| self.hir(p)),
            HirKind::Alternation(branches) => {
                let pick = (self.choice % branches.len() as u64) as usize;
                // Later alternations take the first branch: one choice varies one place.
                self.choice /= branches.len() as u64;
                self.hir(&branches[pick])
            }
        }
    }
}

/// A character of the class that reads well in a URL, a header and a table: a letter or a
/// digit when the class has one, else printable ASCII, else its first character.
fn readable(class: &Class) -> Option<char> {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(c) => c.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .map(|r| (char::from(r.start()), char::from(r.end().min(0x7f))))
            .filter(|(a, b)| a <= b)
            .collect(),
    };
    let contains = |c: char| ranges.iter().any(|(a, b)| *a <= c && c <= *b);
    ['a', 'x', 'A', 'X', '1', '0']
        .into_iter()
        .find(|c| contains(*c))
        .or_else(|| {
            ('a'..='z')
                .chain('A'..='Z')
                .chain('0'..='9')
                .find(|c| contains(*c))
        })
        .or_else(|| ('!'..='~').find(|c| contains(*c)))
        .or_else(|| ranges.first().map(|(a, _)| *a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_patterns() {
        assert_eq!(sample("^[a-z0-9-]+$", 0, 0).unwrap(), "a");
        assert_eq!(sample("^[a-z0-9-]+$", 0, 3).unwrap(), "aaaa");
        assert_eq!(sample(r"^\d{4}-\d{2}$", 0, 0).unwrap(), "1111-11");
        assert_eq!(sample("^(foo|bar)$", 0, 0).unwrap(), "foo");
        assert_eq!(sample("^(foo|bar)$", 1, 0).unwrap(), "bar");
        assert_eq!(sample("^[^/]+$", 0, 0).unwrap(), "a");
        assert_eq!(sample("^sk-[A-Za-z]{2,4}$", 0, 1).unwrap(), "sk-aaa");
        assert_eq!(sample("[0-9a-fA-F]{8}", 0, 0).unwrap(), "aaaaaaaa");
        assert_eq!(
            sample("[ -]", 0, 0).unwrap(),
            "-",
            "printable, not the space"
        );
        assert!(
            sample("a(?=b)b", 0, 0).is_err(),
            "a look-ahead inside is not read"
        );
        let name = r"^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)^[a-z][a-z0-9-]*[a-zA-Z0-9]$";
        assert_eq!(sample(name, 0, 0).unwrap(), "aa");
        // The look-ahead rules a candidate out: another choice is taken.
        assert_eq!(sample("^(?!foo)(foo|bar)$", 0, 0).unwrap(), "bar");
        assert_eq!(
            sample("^(?=.*[0-9])[a-z0-9]{3}$", 0, 0).unwrap_err(),
            "no string made for `^(?=.*[0-9])[a-z0-9]{3}$` passes its look-aheads"
        );
    }

    #[test]
    fn a_pattern_with_look_aheads_at_its_start_is_checked() {
        let name = r"^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)^[a-z][a-z0-9-]*[a-zA-Z0-9]$";
        assert_eq!(matches(name, "default-silo"), Some(true));
        assert_eq!(
            matches(name, "3fa85f64-5717-4562-b3fc-2c963f66afa6"),
            Some(false)
        );
        assert_eq!(
            matches(name, "abcdef12-5717-4562-b3fc-2c963f66afa6"),
            Some(false)
        );
        assert_eq!(matches("^(?=.*[0-9])[a-z0-9]{3}$", "ab1"), Some(true));
        assert_eq!(matches("^(?=.*[0-9])[a-z0-9]{3}$", "abc"), Some(false));
        assert_eq!(matches("^[a-z]+$", "abc"), Some(true));
        assert_eq!(
            matches("a(?=b)b", "ab"),
            None,
            "a look-ahead inside is not read"
        );
    }
}
