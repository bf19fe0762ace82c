//! The allocator checked against generated inventories (the same model as
//! the `allocate` fuzz target, tests/support/alloc_model.rs): every
//! allocation obeys the rules it was asked to, every failure is explained by
//! a consistent funnel, and a brute-force search agrees on feasibility.
//! Inputs the fuzzer found are replayed from testdata/fuzz-regressions/allocate.

#[path = "support/alloc_model.rs"]
mod alloc_model;
mod support;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn allocations_obey_their_rules(data in proptest::collection::vec(any::<u8>(), 16..256)) {
        if let Some(case) = alloc_model::Case::from_bytes(&data) {
            if let Err(e) = alloc_model::check(&case) {
                prop_assert!(false, "{e}\n{case:#?}");
            }
        }
    }
}

#[test]
fn fuzz_regressions_stay_fixed() {
    let dir = support::root().join("testdata/fuzz-regressions/allocate");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let data = std::fs::read(e.path()).unwrap();
        if let Some(case) = alloc_model::Case::from_bytes(&data) {
            alloc_model::check(&case)
                .unwrap_or_else(|err| panic!("{}: {err}\n{case:#?}", e.path().display()));
        }
    }
}
