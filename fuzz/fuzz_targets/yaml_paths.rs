//! The block fast path (and split loading) against one saphyr pass: any
//! text must load to the same documents, spans and errors either way.
#![no_main]

use dra_core::yaml::{load_general, load_split, Limits};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let general = load_general(&text, Limits::default());
    // NaN is the one value not equal to itself.
    if format!("{general:?}").contains("NaN") {
        return;
    }
    assert_eq!(general, load_split(&text, Limits::default(), usize::MAX));
    assert_eq!(general, load_split(&text, Limits::default(), 64));
});
