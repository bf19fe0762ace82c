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

/// The grant a DRA-R001 error suggests, added to the role it names, makes
/// the status writes pass: the suggestion and the check use one resolver.
#[test]
fn the_suggested_grant_fixes_the_status_write() {
    let mut tried = 0;
    for entry in std::fs::read_dir("testdata/fixtures/rbac").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("r001-fail") || name.contains("before") || name.contains("gate-off") {
            continue;
        }
        let file = path.to_string_lossy().into_owned();
        let o = support::run(&["lint", "-o", "json", &file]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut fixed = 0;
        for d in v["diagnostics"].as_array().unwrap() {
            if d["rule"] != "DRA-R001" || d["severity"] != "error" {
                continue;
            }
            let role = d["object"]["name"].as_str().unwrap();
            let note = d["notes"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|n| n.as_str())
                .find(|n| n.starts_with("add to "))
                .unwrap_or_else(|| panic!("{name}: no grant to add in {d}"));
            let grant: String = note
                .lines()
                .skip(1)
                .map(|l| format!("{}\n", l.strip_prefix("  ").unwrap_or(l)))
                .collect::<String>()
                .replace("<your driver's name>", "gpu.example.com");
            let docs: Vec<String> = text
                .split("\n---\n")
                .map(|doc| {
                    let names_role = [",", "}", "\n"]
                        .iter()
                        .any(|end| doc.contains(&format!("name: {role}{end}")));
                    let is_role =
                        doc.contains("kind: ClusterRole\n") || doc.contains("kind: Role\n");
                    if names_role && is_role {
                        doc.replacen("\nrules:\n", &format!("\nrules:\n{grant}"), 1)
                    } else {
                        doc.to_owned()
                    }
                })
                .collect();
            text = docs.join("\n---\n");
            fixed += 1;
        }
        if fixed == 0 {
            continue; // a warning-only fixture
        }
        let o = support::run_with_stdin(&["lint", "-o", "json", "-"], Some(text.as_bytes()));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let left: Vec<&serde_json::Value> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"] == "DRA-R001" && d["severity"] == "error")
            .collect();
        assert!(
            left.is_empty(),
            "{name} after the suggested grant:\n{text}\n{left:?}"
        );
        tried += 1;
    }
    assert!(tried >= 5, "only {tried} fixtures tried");
}
