//! RBAC rule fixtures (testdata/fixtures/rbac, see its README): each file is
//! linted on its own and its findings must be exactly the lines marked
//! `# expect: RULE [severity]`. Also `kubectl dra rbac`.

mod support;

#[test]
fn rbac_fixtures_find_exactly_what_they_mark() {
    support::check_fixture_dir("testdata/fixtures/rbac", &["DRA-R"]);
}

#[test]
fn rbac_command_prints_roles_that_lint_clean() {
    for (persona, version) in [
        ("driver", "1.37"),
        ("controller", "1.36"),
        ("allocator", "1.37"),
        ("kubectl-dra", "1.34"),
        ("driver", "1.35"),
    ] {
        let o = support::run(&[
            "rbac",
            "--for",
            persona,
            "--driver",
            "gpu.example.com",
            "--kubernetes-version",
            version,
        ]);
        assert!(
            o.status.success(),
            "{persona}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let yaml = String::from_utf8(o.stdout).unwrap();
        insta::assert_snapshot!(format!("rbac_{persona}_{version}"), yaml);
        // What it prints passes its own RBAC rules (slice writes aside: info).
        let lint = support::run_with_stdin(
            &["lint", "-o", "json", "-", "--kubernetes-version", version],
            Some(yaml.as_bytes()),
        );
        let v: serde_json::Value = serde_json::from_slice(&lint.stdout).unwrap();
        let findings: Vec<&str> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap())
            .filter(|r| *r != "DRA-R007")
            .collect();
        assert!(
            findings.is_empty(),
            "{persona} {version}: {findings:?}\n{yaml}"
        );
    }
}

#[test]
fn rbac_findings_render_with_the_grant_to_add() {
    let file = "testdata/fixtures/rbac/r001-fail-daemonset.yaml";
    let text = support::run(&["lint", file, "--color", "never"]);
    assert_eq!(text.status.code(), Some(1));
    insta::assert_snapshot!("rbac_r001_text", String::from_utf8(text.stdout).unwrap());
    let gh = support::run(&["lint", "-o", "github", file]);
    insta::assert_snapshot!("rbac_r001_github", String::from_utf8(gh.stdout).unwrap());
}
