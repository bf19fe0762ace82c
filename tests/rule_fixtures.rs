//! Rule fixtures beyond the conformance cases (testdata/fixtures/rules, see
//! its README): each file is linted on its own and its findings must be
//! exactly the lines marked `# expect: RULE [severity]`. Every rule of the
//! listed families has a failing and a passing fixture.

mod support;

#[test]
fn rule_fixtures_find_exactly_what_they_mark() {
    support::check_fixture_dir(
        "testdata/fixtures/rules",
        &[
            "DRA-V100", "DRA-V101", "DRA-V102", "DRA-V103", "DRA-V104", "DRA-V105", "DRA-V151",
            "DRA-V152", "DRA-V153", "DRA-V016", "DRA-V168",
        ],
    );
}
