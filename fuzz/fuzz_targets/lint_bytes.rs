//! Arbitrary bytes through the YAML loader, decoding and every lint rule.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::lint_text(&String::from_utf8_lossy(data));
});
