//! The generated command-line client, built in this package so its tests can run it.

fn main() -> std::process::ExitCode {
    petstore_cli::main()
}
