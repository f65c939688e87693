//! The command-line client generated from tests/fixtures/adversarial.yaml, built in this
//! package so its tests can run it.

fn main() -> std::process::ExitCode {
    adversarial_cli::main()
}
