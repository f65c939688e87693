//! Request bodies that are not JSON: a binary or text body from a file or standard input
//! (`--body-file PATH`, `-` for standard input; `--body TEXT` for text), and a
//! `multipart/form-data` body from fields and files (`--field name=value`, `--file name=PATH`),
//! as curl's `--data-binary @file` and `-F name=@file` do. Everything is read and checked
//! before anything is sent: a missing required part or an unreadable file is a usage error
//! (status 2).

use std::io::Read;

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::Value;

use super::{BODY, Exit, usage};

/// `--body-file` (and `--body` for a text body) of an operation whose body is bytes or text of
/// `media`, with an example of the command in its help.
pub fn raw_body_args(cmd: Command, media: &str, text: bool, example: &str) -> Command {
    let cmd = cmd
        .arg(
            Arg::new("body-file")
                .help_heading(BODY)
                .long("body-file")
                .value_name("PATH")
                .help(format!(
                    "Send this file's bytes as the request body (`{media}`; `-`: standard input)"
                )),
        )
        .after_help(format!("Example:\n  {example}"));
    if !text {
        return cmd;
    }
    cmd.arg(
        Arg::new("body")
            .help_heading(BODY)
            .long("body")
            .value_name("TEXT")
            .conflicts_with("body-file")
            .help(format!("The request body as text (`{media}`)")),
    )
}

/// The bytes of a binary or text body: `--body`, `--body-file` (`-`: standard input); `None`
/// when neither was given.
pub fn raw_body(m: &ArgMatches) -> Result<Option<Vec<u8>>, Exit> {
    if let Some(text) = m.try_get_one::<String>("body").ok().flatten() {
        return Ok(Some(text.clone().into_bytes()));
    }
    match m.get_one::<String>("body-file") {
        Some(path) => read_path("--body-file", path).map(Some),
        None => Ok(None),
    }
}

/// A text body (`--body` or `--body-file`), which must be UTF-8.
pub fn text_body(m: &ArgMatches) -> Result<Option<String>, Exit> {
    match raw_body(m)? {
        Some(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| usage("the request body is text, and the file given is not UTF-8")),
        None => Ok(None),
    }
}

/// `--content-type` of a bytes or text body the document offers in several media types, or
/// as a range that names none (`*/*`): `choices` in the document's order, the first sent when
/// the flag is not given (for a range, the `--body-file`'s extension decides first).
pub fn content_type_arg(cmd: Command, choices: &[&str]) -> Command {
    let listed = choices
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    cmd.arg(
        Arg::new("content-type")
            .help_heading(BODY)
            .long("content-type")
            .value_name("MEDIA-TYPE")
            .help(format!(
                "The media type to send the body as: {listed} (default: the first; for a range, the file's extension)"
            )),
    )
}

/// The media type to send a bytes or text body as: `--content-type` (one of `choices`, or in
/// a range among them), else, where a choice is a range, the `--body-file`'s extension's when
/// it falls in that range (`app.zip` for `*/*`: `application/zip`); `None`: the client sends
/// the document's first. Any other `--content-type` is a usage error (status 2), sent nowhere.
pub fn body_media(m: &ArgMatches, choices: &[&str]) -> Result<Option<String>, Exit> {
    let essence = |m: &str| {
        m.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    let fits = |media: &str| {
        let media = essence(media);
        choices.iter().any(|choice| {
            let choice = essence(choice);
            choice == media
                || choice == "*/*"
                || choice
                    .strip_suffix("/*")
                    .is_some_and(|ty| media.split_once('/').is_some_and(|(t, _)| t == ty))
        })
    };
    if let Some(given) = m.try_get_one::<String>("content-type").ok().flatten() {
        if !fits(given) {
            return Err(usage(&format!(
                "--content-type {given}: the document takes {}",
                choices.join(", ")
            )));
        }
        return Ok(Some(given.clone()));
    }
    let ranged = choices.iter().any(|c| c.contains('*'));
    let guessed = m
        .get_one::<String>("body-file")
        .filter(|path| ranged && path.as_str() != "-")
        .map(|path| media_of(path))
        .filter(|media| *media != "application/octet-stream" && fits(media));
    Ok(guessed.map(str::to_owned))
}

/// One part a multipart body's schema describes.
#[derive(Debug, Clone, Copy)]
pub struct PartSpec {
    /// The part's name.
    pub name: &'static str,
    /// Whether the body must have it.
    pub required: bool,
    /// `format: binary`: given with `--file`.
    pub file: bool,
    /// An object or an array of objects: a `--field` value is JSON, sent as a JSON part.
    pub json: bool,
    /// The media type the document's `encoding` gives the part, if any.
    pub media: Option<&'static str>,
}

/// A part read from the command line, for the client's multipart form.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// A text field (`--field NAME=VALUE`).
    Text {
        /// The part's name.
        name: String,
        /// Its text.
        value: String,
    },
    /// A JSON part (`--field NAME=JSON` for an object or array property).
    Json {
        /// The part's name.
        name: String,
        /// Its value.
        value: Value,
    },
    /// A file (`--file NAME=PATH`).
    File {
        /// The part's name.
        name: String,
        /// The file's name, as sent in `Content-Disposition`.
        filename: String,
        /// Its media type.
        media: String,
        /// The file's content.
        data: Vec<u8>,
    },
}

/// `--field NAME=VALUE` and `--file NAME=PATH`, each repeatable, with an example.
pub fn multipart_args(cmd: Command, example: &str) -> Command {
    cmd.arg(
        Arg::new("field")
            .help_heading(BODY)
            .long("field")
            .value_name("NAME=VALUE")
            .action(ArgAction::Append)
            .help("A part of the form: text, or JSON for an object; repeat for each part (and each item of an array)"),
    )
    .arg(
        Arg::new("file")
            .help_heading(BODY)
            .long("file")
            .value_name("NAME=PATH")
            .action(ArgAction::Append)
            .help("A file part of the form (`-`: standard input); repeat for each file"),
    )
    .after_help(format!("Example:\n  {example}"))
}

/// The parts of a body the document offers as JSON and as `multipart/form-data`: the form
/// when `--field` or `--file` is given (as [`multipart`] reads it), `None` for JSON. Giving
/// both the JSON (`--body`, `--body-file`, a property flag) and parts is a usage error naming
/// both, before anything is sent.
pub fn multipart_instead(m: &ArgMatches, specs: &[PartSpec]) -> Result<Option<Vec<Part>>, Exit> {
    let Some(parts) = multipart(m, specs)? else {
        return Ok(None);
    };
    let json = ["body", "body-file"]
        .into_iter()
        .map(|flag| (flag, flag))
        .chain(super::property_flags(m).map(|(id, (flag, _))| (id, flag)))
        .find(|(id, _)| m.get_one::<String>(id).is_some())
        .map(|(_, flag)| flag);
    match json {
        Some(flag) => Err(usage(&format!(
            "--{flag} gives the body as JSON and --field/--file as a form: give one of them"
        ))),
        None => Ok(Some(parts)),
    }
}

/// The parts given on the command line, in the order given (fields, then files), checked
/// against the schema's parts (`specs`; none known: any name goes): an unknown name, a text
/// value for a file, JSON that does not parse, a file that cannot be read and a required part
/// not given are usage errors naming them. `None` when no part was given at all.
pub fn multipart(m: &ArgMatches, specs: &[PartSpec]) -> Result<Option<Vec<Part>>, Exit> {
    let fields: Vec<&String> = m
        .get_many::<String>("field")
        .into_iter()
        .flatten()
        .collect();
    let files: Vec<&String> = m.get_many::<String>("file").into_iter().flatten().collect();
    if fields.is_empty() && files.is_empty() {
        return Ok(None);
    }
    let spec = |flag: &str, name: &str| -> Result<Option<&PartSpec>, Exit> {
        if specs.is_empty() {
            return Ok(None);
        }
        match specs.iter().find(|s| s.name == name) {
            Some(spec) => Ok(Some(spec)),
            None => {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                Err(usage(&format!(
                    "{flag} {name}: the form has no part `{name}` (it has {})",
                    known.join(", ")
                )))
            }
        }
    };
    let mut parts = Vec::new();
    for given in fields {
        let (name, value) = split("--field", given)?;
        let json = match spec("--field", name)? {
            Some(s) if s.file => {
                return Err(usage(&format!(
                    "--field {name}: `{name}` is a file; give it with --file {name}=PATH"
                )));
            }
            Some(s) => s.json,
            None => false,
        };
        parts.push(if json {
            let value = serde_json::from_str(value)
                .map_err(|e| usage(&format!("--field {name}: not JSON: {e}")))?;
            Part::Json {
                name: name.to_owned(),
                value,
            }
        } else {
            Part::Text {
                name: name.to_owned(),
                value: value.to_owned(),
            }
        });
    }
    for given in files {
        let (name, path) = split("--file", given)?;
        let declared = spec("--file", name)?.and_then(|s| s.media);
        let data = read_path(&format!("--file {name}"), path)?;
        let filename = match path {
            "-" => name.to_owned(),
            path => std::path::Path::new(path)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| name.to_owned()),
        };
        let media = declared
            .map(str::to_owned)
            .unwrap_or_else(|| media_of(&filename).to_owned());
        parts.push(Part::File {
            name: name.to_owned(),
            filename,
            media,
            data,
        });
    }
    let missing: Vec<&str> = specs
        .iter()
        .filter(|s| s.required)
        .filter(|s| !parts.iter().any(|p| part_name(p) == s.name))
        .map(|s| s.name)
        .collect();
    if !missing.is_empty() {
        let how: Vec<String> = missing
            .iter()
            .map(|name| match specs.iter().find(|s| s.name == *name) {
                Some(s) if s.file => format!("--file {name}=PATH"),
                _ => format!("--field {name}=VALUE"),
            })
            .collect();
        return Err(usage(&format!(
            "the form needs {} (nothing was sent)",
            how.join(", ")
        )));
    }
    Ok(Some(parts))
}

fn part_name(part: &Part) -> &str {
    match part {
        Part::Text { name, .. } | Part::Json { name, .. } | Part::File { name, .. } => name,
    }
}

/// `name=value` of `--field` or `--file`.
fn split<'a>(flag: &str, given: &'a str) -> Result<(&'a str, &'a str), Exit> {
    given
        .split_once('=')
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| usage(&format!("{flag} {given}: write it NAME=VALUE")))
}

/// A file's bytes, or standard input's for `-`.
fn read_path(flag: &str, path: &str) -> Result<Vec<u8>, Exit> {
    if path == "-" {
        let mut data = Vec::new();
        std::io::stdin()
            .read_to_end(&mut data)
            .map_err(|e| usage(&format!("{flag}: cannot read standard input: {e}")))?;
        return Ok(data);
    }
    std::fs::read(path).map_err(|e| usage(&format!("{flag} {path}: {e}")))
}

/// The media type of a file by its name's extension (the common ones), else
/// `application/octet-stream`, as curl does for `-F name=@file`.
pub fn media_of(filename: &str) -> &'static str {
    let extension = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "json" => "application/json",
        "jsonl" => "application/jsonl",
        "txt" | "md" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "xml" => "application/xml",
        "yaml" | "yml" => "application/yaml",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "tar" => "application/x-tar",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "m4a" => "audio/mp4",
        "ogg" => "audio/ogg",
        "flac" => "audio/flac",
        "webm" => "video/webm",
        "mp4" => "video/mp4",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(args: &[&str]) -> ArgMatches {
        multipart_args(Command::new("t"), "t")
            .try_get_matches_from(std::iter::once("t").chain(args.iter().copied()))
            .expect("parses")
    }

    const SPECS: &[PartSpec] = &[
        PartSpec {
            name: "title",
            required: true,
            file: false,
            json: false,
            media: None,
        },
        PartSpec {
            name: "meta",
            required: false,
            file: false,
            json: true,
            media: None,
        },
        PartSpec {
            name: "cover",
            required: true,
            file: true,
            json: false,
            media: Some("image/png"),
        },
    ];

    #[test]
    fn parts_are_read_and_checked_before_anything_is_sent() {
        let dir = std::env::temp_dir().join(format!("apigen-cli-upload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cover = dir.join("front.jpg");
        std::fs::write(&cover, b"\x89PNG").unwrap();
        let file = format!("cover={}", cover.display());
        let m = matches(&[
            "--field",
            "title=Blue",
            "--field",
            r#"meta={"year": 1959}"#,
            "--file",
            &file,
        ]);
        let parts = multipart(&m, SPECS).unwrap().unwrap();
        assert_eq!(
            parts,
            [
                Part::Text {
                    name: "title".into(),
                    value: "Blue".into()
                },
                Part::Json {
                    name: "meta".into(),
                    value: serde_json::json!({"year": 1959})
                },
                // The document's encoding decides the media type, not the extension.
                Part::File {
                    name: "cover".into(),
                    filename: "front.jpg".into(),
                    media: "image/png".into(),
                    data: b"\x89PNG".to_vec()
                },
            ]
        );
        // Each of these is refused (status 2) before anything is sent.
        for bad in [
            &["--field", "title=Blue"][..],
            &[
                "--field",
                "title=Blue",
                "--field",
                "cover=x",
                "--file",
                &file,
            ],
            &["--field", "nope=1", "--file", &file],
            &[
                "--field",
                "title=Blue",
                "--field",
                "meta={",
                "--file",
                &file,
            ],
            &["--field", "title=Blue", "--file", "cover=/no/such/file"],
            &["--field", "=x", "--file", &file],
        ] {
            assert!(multipart(&matches(bad), SPECS).is_err(), "{bad:?}");
        }
        assert_eq!(multipart(&matches(&[]), SPECS).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_body_s_media_type_is_one_the_document_takes() {
        let parse = |args: &[&str], choices: &[&str]| {
            let cmd = content_type_arg(raw_body_args(Command::new("t"), "x", false, "t"), choices);
            let m = cmd
                .try_get_matches_from(std::iter::once("t").chain(args.iter().copied()))
                .expect("parses");
            body_media(&m, choices)
        };
        let listed = &["image/png", "image/jpeg"][..];
        assert_eq!(parse(&[], listed).unwrap(), None);
        assert_eq!(
            parse(&["--content-type", "image/jpeg"], listed)
                .unwrap()
                .as_deref(),
            Some("image/jpeg")
        );
        assert!(parse(&["--content-type", "image/gif"], listed).is_err());
        // A range: anything in it, and the file's extension when no flag says.
        let any = &["*/*"][..];
        assert_eq!(
            parse(&["--body-file", "app.zip"], any).unwrap().as_deref(),
            Some("application/zip")
        );
        assert_eq!(parse(&["--body-file", "blob"], any).unwrap(), None);
        assert_eq!(parse(&["--body-file", "a.zip"], listed).unwrap(), None);
        assert_eq!(
            parse(&["--content-type", "text/csv"], any)
                .unwrap()
                .as_deref(),
            Some("text/csv")
        );
    }

    #[test]
    fn media_types_by_extension() {
        assert_eq!(media_of("a.PNG"), "image/png");
        assert_eq!(media_of("notes.txt"), "text/plain");
        assert_eq!(media_of("blob"), "application/octet-stream");
    }
}
