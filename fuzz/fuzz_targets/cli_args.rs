//! The argument parser: any argument list parses or is a usage error,
//! never a panic (NUL-separated arguments, lossy UTF-8).
#![no_main]

use clap::Parser;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let args = std::iter::once("kubectl-dra").chain(text.split('\0'));
    let _ = kubectl_dra::cli::Cli::try_parse_from(args);
});
