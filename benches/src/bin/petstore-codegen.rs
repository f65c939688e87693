//! `petstore-codegen DOC NAME LABEL RUNS`: times `apigen::generate` in a process whose global
//! allocator is mimalloc, as `cargo xtask codegen` runs it, for the bench's codegen table.
//!
//! The generator allocates and frees tens of millions of small objects (tokens, syntax
//! trees, strings) per large document, and glibc's malloc took about a third of its CPU time
//! there. The choice of allocator belongs to the program that calls the library, so the bench
//! times both: the system allocator in its own process (`petstore-bench`), this one here. It
//! is a separate binary because the servers and clients the main binary measures must keep
//! the system allocator both sides of each comparison use.
//!
//! Prints one line per measured run (`time SECONDS`), then `digest HEX` of the output, which
//! the bench compares with its own so that a faster run is known to write the same files.

#[path = "../digest.rs"]
mod digest;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [doc, name, label, runs] = &args[..] else {
        eprintln!("usage: petstore-codegen DOC NAME LABEL RUNS");
        return ExitCode::FAILURE;
    };
    let Ok(runs) = runs.parse::<usize>() else {
        eprintln!("petstore-codegen: RUNS is not a number: {runs}");
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(doc) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("petstore-codegen: cannot read {doc}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = apigen::Options {
        api_name: None,
        name: name.clone(),
        spec_label: label.clone(),
        command: "cargo xtask codegen".to_owned(),
        string_formats: false,
        ..Default::default()
    };
    // One unmeasured run first (page cache, allocator warm-up), whose output is the digest.
    println!(
        "digest {:016x}",
        digest::output(&apigen::generate(&text, &options))
    );
    for _ in 0..runs {
        let started = Instant::now();
        let out = apigen::generate(&text, &options);
        let secs = started.elapsed().as_secs_f64();
        drop(std::hint::black_box(out));
        println!("time {secs}");
    }
    ExitCode::SUCCESS
}
