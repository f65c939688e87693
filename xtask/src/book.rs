//! `cargo xtask book`: the book (book/), built with mdBook after writing the pages it includes
//! that come from generated code: GitHub's issues-only crates' READMEs, and excerpts of the pet
//! store's generated code (book/src/generated/, not committed).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::codegen::root;

/// The mdBook release CI installs, and the command that installs it.
const INSTALL: &str = "cargo install mdbook --version 0.5.4 --no-default-features --locked";

/// GitHub's document, from the shared corpora beside the checkout.
const GITHUB: &str = "../shared/openapi-corpus/progenitor/api.github.com.json";

/// Excerpts of generated code the book shows: (file written, source file, a line that starts
/// the item, whether the item is the block around that line).
const EXCERPTS: &[(&str, &str, &str, bool)] = &[
    (
        "pet-struct.rs",
        "generated-server/src/types.rs",
        "pub struct Pet {",
        true,
    ),
    (
        "get-pet-method.rs",
        "generated-client/src/client.rs",
        "pub async fn get_pet(",
        false,
    ),
    (
        "get-pet-errors.rs",
        "generated-client/src/client.rs",
        "pub enum GetPetError {",
        true,
    ),
    (
        "get-pet-response.rs",
        "generated-server/src/api.rs",
        "pub enum GetPetResponse {",
        true,
    ),
    (
        "list-pets-params.rs",
        "generated-server/src/api.rs",
        "pub struct ListPetsParams {",
        true,
    ),
    (
        "route-table.rs",
        "generated-server/src/router.rs",
        "routes::table! {",
        false,
    ),
    (
        "cli-get-pet.rs",
        "generated-cli/src/lib.rs",
        "fn get_pet(",
        false,
    ),
    (
        "cli-functions.rs",
        "generated-cli/src/lib.rs",
        "support::functions! {",
        false,
    ),
    (
        "union.rs",
        "tests/generated/constructs-client/src/types.rs",
        "pub enum ToolCall {",
        true,
    ),
];

pub fn main(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("cargo xtask book takes no argument (got `{arg}`)"));
    }
    let root = root();
    let out = root.join("book/src/generated");
    std::fs::create_dir_all(out.join("excerpts")).map_err(|e| format!("{}: {e}", out.display()))?;
    github_issues(&root, &out)?;
    for (name, source, marker, enclosing) in EXCERPTS {
        let text = read(&root.join(source))?;
        let excerpt = excerpt(&text, marker, *enclosing).ok_or_else(|| {
            format!("{source}: no line starts with `{marker}` (book excerpt {name})")
        })?;
        write(&out.join("excerpts").join(name), &excerpt)?;
    }
    mdbook(&root)
}

/// GitHub's crates generated with the tag `issues` alone: their READMEs, or a page saying how
/// to fill them when the corpus is not there.
fn github_issues(root: &Path, out: &Path) -> Result<(), String> {
    let pages = ["github-issues-client.md", "github-issues-server.md"];
    let spec = root.join(GITHUB);
    let Ok(text) = std::fs::read_to_string(&spec) else {
        eprintln!("book: {GITHUB} is absent: GitHub's issues-only pages say how to fill them");
        for page in pages {
            let note = format!(
                "This page is written by `cargo xtask book` from `{GITHUB}` (GitHub's \
                 document, tag `issues`), which was absent when the book was built. Run \
                 `cargo xtask book` with the shared corpora beside the checkout to fill it.\n"
            );
            write(&out.join(page), &note)?;
        }
        return Ok(());
    };
    let options = apigen::Options {
        name: "api-github-com".into(),
        spec_label: "api.github.com.json".into(),
        command: "cargo xtask book".into(),
        select: apigen::Selection {
            tags: vec!["issues".into()],
            operations: Vec::new(),
        },
        ..Default::default()
    };
    let output =
        apigen::generate(&text, &options).map_err(|e| format!("{}: {e}", spec.display()))?;
    for (page, file) in pages.iter().zip(["client/README.md", "server/README.md"]) {
        let readme = output
            .files
            .get(file)
            .ok_or_else(|| format!("GitHub's issues-only build has no {file}"))?;
        write(&out.join(page), readme)?;
    }
    Ok(())
}

/// The item that starts at the first line beginning (after its indentation) with `marker`,
/// with the doc comments and attributes above it; with `enclosing`, the block around that
/// line instead (the macro call that declares it), from its first line to its closing brace.
/// Dedented to its own indentation.
pub fn excerpt(text: &str, marker: &str, enclosing: bool) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(marker))?;
    if enclosing {
        let inner = indent(lines[at]);
        at = (0..at)
            .rev()
            .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) < inner)?;
    }
    let depth = indent(lines[at]);
    let mut start = at;
    while start > 0 {
        let above = lines[start - 1];
        let trimmed = above.trim_start();
        let heads = trimmed.starts_with("///") || trimmed.starts_with("#[");
        if indent(above) != depth || !heads {
            break;
        }
        start -= 1;
    }
    let close = format!("{}}}", " ".repeat(depth));
    let end = (at..lines.len()).find(|&i| lines[i] == close)?;
    let mut out = String::new();
    for line in &lines[start..=end] {
        out.push_str(line.get(depth..).unwrap_or("").trim_end());
        out.push('\n');
    }
    Some(out)
}

/// `mdbook build book`, failing on any warning or error it prints.
fn mdbook(root: &Path) -> Result<(), String> {
    let program = mdbook_program().ok_or_else(|| {
        format!("mdbook is not installed (neither on PATH nor in ~/.cargo/bin); install it with\n    {INSTALL}")
    })?;
    let output = Command::new(&program)
        .args(["build", "book"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    eprint!("{log}");
    if !output.status.success() {
        return Err(format!("mdbook build book failed ({})", output.status));
    }
    let complaints: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    if !complaints.is_empty() {
        return Err(format!(
            "mdbook build book printed {} warning(s) or error(s)",
            complaints.len()
        ));
    }
    let (pages, rewritten) = check_links(&root.join("book/book"))?;
    eprintln!(
        "book: built into book/book/index.html; every relative link of its {pages} pages resolves ({rewritten} into the repository's Markdown)"
    );
    Ok(())
}

/// Every relative `href` of the built pages leads to a file. A link out of the book into the
/// repository (`docs/decisions/…`) is one mdBook writes as `….html`, which only exists as
/// `….md`: it is pointed at the Markdown file, which the checkout has. Any other link that
/// leads nowhere fails the build, listed. Returns the pages read and the links pointed at
/// Markdown.
fn check_links(built: &Path) -> Result<(usize, usize), String> {
    let mut pages = Vec::new();
    collect_pages(built, &mut pages)?;
    let (mut broken, mut rewritten) = (Vec::new(), 0);
    for page in &pages {
        // 404.html is served from the site's root (`<base href="/">`): its links are not relative to it.
        if page.file_name().is_some_and(|n| n == "404.html") {
            continue;
        }
        let dir = page.parent().unwrap_or(built);
        let html = read(page)?;
        let mut out = String::with_capacity(html.len());
        let mut rest = html.as_str();
        let mut changed = false;
        while let Some(at) = rest.find("href=\"") {
            let (head, tail) = rest.split_at(at + 6);
            out.push_str(head);
            let end = tail.find('"').unwrap_or(tail.len());
            let (link, after) = tail.split_at(end);
            rest = after;
            let target = link.split(['#', '?']).next().unwrap_or("");
            let external =
                link.contains("://") || link.starts_with("mailto:") || link.starts_with('/');
            if external || target.is_empty() || dir.join(target).exists() {
                out.push_str(link);
                continue;
            }
            let markdown = target.strip_suffix(".html").map(|t| format!("{t}.md"));
            match markdown.filter(|md| dir.join(md).is_file()) {
                Some(md) => {
                    out.push_str(&md);
                    out.push_str(&link[target.len()..]);
                    rewritten += 1;
                    changed = true;
                }
                None => {
                    broken.push(format!("{}: {link}", page.display()));
                    out.push_str(link);
                }
            }
        }
        out.push_str(rest);
        if changed {
            write(page, &out)?;
        }
    }
    if !broken.is_empty() {
        return Err(format!(
            "{} link(s) of the built book lead nowhere:\n  {}",
            broken.len(),
            broken.join("\n  ")
        ));
    }
    Ok((pages.len(), rewritten))
}

/// The `.html` files under `dir`, at any depth.
fn collect_pages(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            collect_pages(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    Ok(())
}

/// mdbook on PATH, else in cargo's bin directory.
fn mdbook_program() -> Option<PathBuf> {
    let on_path = Command::new("mdbook")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if on_path {
        return Some(PathBuf::from("mdbook"));
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))?;
    let installed = cargo_home.join("bin/mdbook");
    installed.is_file().then_some(installed)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn an_excerpt_is_the_item_with_its_docs_or_the_block_around_it() {
        let text = "use a;\n\n/// Docs.\n#[cfg(x)]\nmac! {\n    /// Inner.\n    pub struct P {\n        a: i64,\n    }\n}\n\nfn f() {}\n";
        assert_eq!(
            excerpt(text, "pub struct P {", false).unwrap(),
            "/// Inner.\npub struct P {\n    a: i64,\n}\n"
        );
        assert_eq!(
            excerpt(text, "pub struct P {", true).unwrap(),
            "/// Docs.\n#[cfg(x)]\nmac! {\n    /// Inner.\n    pub struct P {\n        a: i64,\n    }\n}\n"
        );
        assert_eq!(excerpt(text, "pub struct Q {", false), None);
    }
}
