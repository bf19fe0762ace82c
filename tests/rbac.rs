//! RBAC rule fixtures (testdata/fixtures/rbac, see its README): each file is
//! linted on its own and its findings must be exactly the lines marked
//! `# expect: RULE [severity]`. Also `kubectl dra rbac`.

mod support;

use std::collections::BTreeSet;

fn expectations(text: &str) -> BTreeSet<(usize, String, Option<String>)> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let Some((_, mark)) = line.split_once("# expect: ") else {
            continue;
        };
        let mut words = mark.split_whitespace();
        let rule = words
            .next()
            .expect("a rule id after `# expect:`")
            .to_owned();
        out.insert((i + 1, rule, words.next().map(str::to_owned)));
    }
    out
}

#[test]
fn rbac_fixtures_find_exactly_what_they_mark() {
    let dir = support::root().join("testdata/fixtures/rbac");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut failed = Vec::new();
    let mut covered: BTreeSet<String> = BTreeSet::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let rel = path
            .strip_prefix(support::root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut args: Vec<String> = vec!["lint".into(), "-o".into(), "json".into(), rel.clone()];
        if let Some(extra) = text.lines().next().and_then(|l| l.strip_prefix("# args: ")) {
            args.extend(extra.split_whitespace().map(str::to_owned));
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = support::run(&argv);
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{rel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let expected = expectations(&text);
        let got: BTreeSet<(usize, String, Option<String>)> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let line = d["line"].as_u64().unwrap() as usize;
                let rule = d["rule"].as_str().unwrap().to_owned();
                // Compare the severity only where the fixture names one.
                let sev = d["severity"].as_str().unwrap().to_owned();
                let named = expected
                    .iter()
                    .any(|(l, r, s)| *l == line && *r == rule && s.is_some());
                (line, rule, named.then_some(sev))
            })
            .collect();
        if rel.ends_with("-pass.yaml") {
            assert!(expected.is_empty(), "{rel}: a pass fixture marks findings");
        } else {
            covered.extend(expected.iter().map(|(_, r, _)| r.clone()));
        }
        if got != expected {
            failed.push(format!(
                "{rel}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Every RBAC rule has a failing and a passing fixture.
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for rule in dra_core::lint::registry::RULES
        .iter()
        .filter(|r| r.id.starts_with("DRA-R"))
    {
        assert!(
            covered.contains(rule.id),
            "no failing fixture finds {}",
            rule.id
        );
        let stem = rule.id.trim_start_matches("DRA-").to_ascii_lowercase();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&stem) && n.ends_with("-pass.yaml")),
            "no passing fixture for {}",
            rule.id
        );
    }
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
