//! `apigen`: the installed command (`cargo install apigen-cli`); everything it does is in the
//! library, which `cargo xtask codegen` calls too.

/// The generator allocates and frees tens of millions of small objects (tokens, syntax trees,
/// strings) on a large document; with glibc's malloc that was about a third of its CPU time,
/// with mimalloc about a tenth (`cargo xtask bench`, codegen table, times both).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    apigen_cli::run(&args, apigen_cli::Invocation::apigen())
}
