//! The command-line client generated from tests/fixtures/text-formats.yaml (with
//! `--string-formats`), built in this package so its tests can run it.

fn main() -> std::process::ExitCode {
    text_formats_cli::main()
}
