//! The command-line client generated from tests/fixtures/answers.yaml, built in this package
//! so its tests can run it.

fn main() -> std::process::ExitCode {
    answers_cli::main()
}
