//! A declaration's attribute laid out as a person would: prettyplease prints an attribute's
//! arguments as a run of tokens, and when they do not fit it breaks wherever a space was, one
//! word a line (`id: impl` then `Into<String>,`). [`attributes`] puts such an attribute back
//! on one line when it fits in rustfmt's width, or packs its arguments, whole, onto as few
//! lines as fit.

/// rustfmt's default line width.
const WIDTH: usize = 100;

/// `text` with each `#[json(…)]` attribute prettyplease broke over several lines laid out
/// again (see the module's note); every other line as it is.
pub fn attributes(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        // Its closing line: `)]` at the attribute's indentation.
        let closes = |l: &str| l.len() == indent + 2 && l.ends_with(")]") && l.trim_start() == ")]";
        let end = (line.trim_start() == "#[json(")
            .then(|| (i + 1..lines.len()).find(|&j| closes(lines[j])))
            .flatten();
        let Some(end) = end else {
            out.push_str(line);
            out.push('\n');
            i += 1;
            continue;
        };
        out.push_str(&lay_out(&join(&lines[i..=end]), indent));
        i = end + 1;
    }
    out
}

/// The attribute's lines as the one line they were broken from: a space where prettyplease
/// broke, but after an opening parenthesis and before a closing one.
fn join(lines: &[&str]) -> String {
    let mut joined = String::new();
    for piece in lines.iter().map(|l| l.trim()) {
        if !(joined.is_empty() || joined.ends_with('(') || piece.starts_with(')')) {
            joined.push(' ');
        }
        joined.push_str(piece);
    }
    joined
}

/// `attribute` (one line) at `indent`: as it is when it fits, else its arguments packed
/// under its head, `#[json(` (or `#[json(new(` for a constructor's parameters), a line
/// ending with a comma but the last.
fn lay_out(attribute: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    if indent + attribute.len() <= WIDTH {
        return format!("{pad}{attribute}\n");
    }
    let args = &attribute["#[json(".len()..attribute.len() - ")]".len()];
    let (head, inner, tail) = match args.strip_prefix("new(").and_then(|a| a.strip_suffix(')')) {
        Some(inner) if top_level(inner).is_some() => ("#[json(new(", inner, "))]"),
        _ => ("#[json(", args, ")]"),
    };
    let Some(items) = top_level(inner) else {
        // Unbalanced: not what the generator prints; left on one line rather than cut wrongly.
        return format!("{pad}{attribute}\n");
    };
    let inner_pad = " ".repeat(indent + 4);
    let mut out = format!("{pad}{head}\n");
    let mut line = String::new();
    for (n, item) in items.iter().enumerate() {
        let piece = if n + 1 < items.len() {
            format!("{item},")
        } else {
            (*item).to_owned()
        };
        if !line.is_empty() && indent + 4 + line.len() + 1 + piece.len() > WIDTH {
            out.push_str(&format!("{inner_pad}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        out.push_str(&format!("{inner_pad}{line}\n"));
    }
    out.push_str(&format!("{pad}{tail}\n"));
    out
}

/// `text`'s items separated by its top-level commas (not those inside brackets or string
/// literals), trimmed, without empty ones; `None` when its brackets do not balance.
fn top_level(text: &str) -> Option<Vec<&str>> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let (mut in_string, mut escaped) = (false, false);
    for (at, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => {
                items.push(text[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    if depth != 0 || in_string {
        return None;
    }
    items.push(text[start..].trim());
    items.retain(|item| !item.is_empty());
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_constructor_is_packed_with_each_parameter_whole() {
        let broken = "    #[json(\n        new(\n            object: AdminApiKeyObject,\n            id: impl\n            Into<String>,\n            redacted_value: impl\n            Into<String>,\n            created_at: i64,\n            expires_at: Option<i64>,\n            owner: AdminApiKeyOwner\n        )\n    )]\n    pub struct AdminApiKey {\n";
        assert_eq!(
            attributes(broken),
            "    #[json(new(\n        object: AdminApiKeyObject, id: impl Into<String>, redacted_value: impl Into<String>,\n        created_at: i64, expires_at: Option<i64>, owner: AdminApiKeyOwner\n    ))]\n    pub struct AdminApiKey {\n"
        );
    }

    #[test]
    fn an_attribute_that_fits_goes_back_on_one_line() {
        let broken = "        #[json(\n            \"file_search\",\n            optional,\n            with_file_search: into(FileSearch)\n        )]\n        pub file_search: Option<FileSearch>,\n";
        assert_eq!(
            attributes(broken),
            "        #[json(\"file_search\", optional, with_file_search: into(FileSearch))]\n        pub file_search: Option<FileSearch>,\n"
        );
    }

    #[test]
    fn commas_and_brackets_inside_strings_do_not_split() {
        assert_eq!(
            top_level("\"a,(b\", optional, x: into(Vec<(u8, u8)>)"),
            Some(vec!["\"a,(b\"", "optional", "x: into(Vec<(u8, u8)>)"])
        );
        assert_eq!(top_level("a, (b"), None);
    }

    #[test]
    fn other_lines_are_left_as_they_are() {
        let text =
            "#[derive(Debug)]\npub struct A {\n    #[json(\"a\", required)]\n    pub a: u8,\n}\n";
        assert_eq!(attributes(text), text);
    }
}
