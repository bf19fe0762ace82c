//! Witnesses (testdata/witnesses): one manifest per rule that no other test
//! manifest triggers, so that docs/rules-by-release.md can show what every
//! rule reports at each release. Each is a rule fixture: its findings must be
//! exactly the lines it marks `# expect: RULE severity`.

mod support;

#[test]
fn witnesses_find_exactly_what_they_mark() {
    support::check_fixture_dir("testdata/witnesses", &[]);
}

/// docs/rules-by-release.md (scripts/rules_by_release.py) has a row for
/// every rule of the registry, or names it as having no witness.
#[test]
fn rules_by_release_names_every_rule() {
    let doc = std::fs::read_to_string(support::root().join("docs/rules-by-release.md"))
        .expect("docs/rules-by-release.md: run `python3 scripts/readme.py` after `cargo build`");
    for rule in dra_core::lint::registry::RULES {
        assert!(
            doc.contains(&format!("| {} `{}` |", rule.id, rule.name))
                || doc.contains(&format!("{},", rule.id))
                || doc.contains(&format!("{}.", rule.id)),
            "docs/rules-by-release.md lacks {}: run `python3 scripts/readme.py` after `cargo build`",
            rule.id
        );
    }
}
