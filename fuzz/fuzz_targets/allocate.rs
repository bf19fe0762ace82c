//! Generated inventories and claims through the allocator; every answer is
//! checked (tests/support/alloc_model.rs): allocations obey the rules,
//! failures have a consistent funnel, brute force agrees on feasibility.
#![no_main]

#[path = "../../tests/support/alloc_model.rs"]
mod alloc_model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(case) = alloc_model::Case::from_bytes(data) {
        if let Err(e) = alloc_model::check(&case) {
            panic!("{e}\n{case:#?}");
        }
    }
});
