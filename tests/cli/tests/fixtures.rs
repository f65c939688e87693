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
