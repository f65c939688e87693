//! Every fixture's generated CLI passes clap's own checks of its command line (conflicting
//! or duplicate flags, a flag clap itself defines): they only run when a command is built,
//! so compiling the CLIs (as the workspace does) does not prove it.

#[test]
fn every_fixtures_command_line_is_valid() {
    for cli in [
        petstore_cli::cli(),
        answers_cli::cli(),
        library_cli::cli(),
        constructs_cli::cli(),
        oas31_cli::cli(),
        oas32_cli::cli(),
        adversarial_cli::cli(),
        paging_cli::cli(),
        formats_cli::cli(),
        text_formats_cli::cli(),
    ] {
        cli.debug_assert();
    }
}

/// Every subcommand is built and run by functions of its own, so the main thread's stack a
/// call needs does not grow with the number of operations: one `run` matching every
/// subcommand (each arm's future in its frame) and one builder chain overflowed the 8 MiB
/// stack of a debug build for api.github.com's 765 operations. The fixture with the most
/// operations (43) calls one with a 256 KiB stack, where that layout needed 384 KiB (measured
/// with `ulimit -s` on a debug build; this one needs under 192 KiB).
#[cfg(unix)]
#[test]
fn a_call_needs_a_small_stack_whatever_the_number_of_operations() {
    let bin = env!("CARGO_BIN_EXE_adversarial-cli-under-test");
    // A port nothing listens on: the call is refused, an ordinary failure (exit status 1).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -s 256 && exec "$0" --base-url "$1" handle-error-2"#)
        .arg(bin)
        .arg(format!("http://127.0.0.1:{port}"))
        .env("ADVERSARIAL_API_KEY", "key")
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert!(stderr.contains("error"), "{stderr}");
}
