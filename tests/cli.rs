//! Whole-command tests of `kubectl-dra lint`: rendered output pinned by
//! snapshots, the SARIF checked against its schema, exit codes, selection,
//! suppression, stdin, and the README's generated rule list; and `match`'s
//! argument parsing.

mod support;

use support::run;

fn stdout(args: &[&str]) -> (String, i32) {
    let o = run(args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn text_output() {
    let (out, code) = stdout(&["lint", "testdata/fixtures/render"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("lint_text", out);
}

#[test]
fn json_output() {
    let (out, code) = stdout(&["lint", "-o", "json", "testdata/fixtures/render"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("lint_json", out);
}

#[test]
fn github_output() {
    let (out, _) = stdout(&["lint", "-o", "github", "testdata/fixtures/render"]);
    insta::assert_snapshot!("lint_github", out);
}

/// `-o gitlab`: valid against the Code Quality report format, one issue
/// per finding, fingerprints unique and stable when a finding moves.
#[test]
fn gitlab_code_quality_output() {
    let (out, code) = stdout(&["lint", "-o", "gitlab", "testdata/fixtures/render"]);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(support::root().join("testdata/schemas/gitlab-codequality.json"))
            .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let issues = report.as_array().unwrap();
    assert!(!issues.is_empty());
    let prints: std::collections::HashSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(prints.len(), issues.len(), "fingerprints repeat");
    insta::assert_json_snapshot!("lint_gitlab", report);
    let (clean, code) = stdout(&["lint", "-o", "gitlab", "examples/gpu-partitionable.yaml"]);
    assert_eq!((clean.trim(), code), ("[]", 0));
}

/// `-o junit`: a testsuite per file, a failed testcase per finding, a
/// passing one for a clean file; counts agree and the text is escaped.
#[test]
fn junit_output() {
    let (clean, code) = stdout(&["lint", "-o", "junit", "examples/gpu-partitionable.yaml"]);
    assert_eq!(code, 0);
    assert!(clean.contains("name=\"no findings\""), "{clean}");
    assert!(clean.contains("tests=\"1\" failures=\"0\""), "{clean}");
    let (out, code) = stdout(&["lint", "-o", "junit", "testdata/fixtures/render"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    let failures = out.matches("<failure ").count();
    assert!(failures > 0);
    assert_eq!(out.matches("</failure>").count(), failures);
    assert!(out.contains(&format!("failures=\"{failures}\"")), "{out}");
    assert_eq!(
        out.matches("<testsuite ").count(),
        out.matches("</testsuite>").count()
    );
    // Nothing unescaped inside attribute values or text.
    for line in out.lines().filter(|l| l.contains("message=")) {
        let value = line
            .split("message=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"];
        assert!(
            !value.contains('<')
                && value
                    .match_indices('&')
                    .all(|(k, _)| entities.iter().any(|e| value[k..].starts_with(e))),
            "{line}"
        );
    }
    insta::assert_snapshot!("lint_junit", out);
}

#[test]
fn sarif_output_matches_snapshot_and_schema() {
    let (out, _) = stdout(&["lint", "-o", "sarif", "testdata/fixtures/render"]);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Rule metadata is long and covered by the registry tests; pin the results.
    insta::assert_json_snapshot!("lint_sarif_results", sarif["runs"][0]["results"]);
    assert_valid_sarif(&sarif);
}

/// The whole real-world corpus (and the drivers' RBAC) as one SARIF run,
/// as a CI job would upload it: valid against the SARIF 2.1.0 schema.
#[test]
fn corpus_sarif_validates() {
    let (out, _) = stdout(&[
        "lint",
        "-o",
        "sarif",
        "testdata/corpus",
        "testdata/rbac-corpus",
    ]);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(sarif["runs"][0]["results"].as_array().unwrap().len() > 50);
    assert_valid_sarif(&sarif);
}

#[test]
fn sarif_without_findings_has_an_empty_results_array() {
    let (out, code) = stdout(&["lint", "-o", "sarif", "examples/gpu-partitionable.yaml"]);
    assert_eq!(code, 0);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
    assert_valid_sarif(&sarif);
}

fn assert_valid_sarif(sarif: &serde_json::Value) {
    let schema_text =
        std::fs::read_to_string(support::root().join("testdata/schemas/sarif-schema-2.1.0.json"))
            .unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(sarif)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF does not validate:\n{}",
        errors.join("\n")
    );
    for r in sarif["runs"][0]["results"].as_array().unwrap() {
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1);
        assert!(region["startColumn"].as_u64().unwrap() >= 1);
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(
            !uri.starts_with('/'),
            "URI must be repository-relative: {uri}"
        );
    }
}

#[test]
fn exit_codes() {
    assert_eq!(stdout(&["lint", "examples/gpu-partitionable.yaml"]).1, 0);
    assert_eq!(
        stdout(&["lint", "testdata/fixtures/render/slices.yaml"]).1,
        1
    );
    // Warnings only: 0, or 1 with --strict.
    assert_eq!(
        stdout(&["lint", "examples/mig-vs-vgpu-compatibility-groups.yaml"]).1,
        0
    );
    assert_eq!(
        stdout(&[
            "lint",
            "--strict",
            "examples/mig-vs-vgpu-compatibility-groups.yaml"
        ])
        .1,
        1
    );
    // Usage errors and unreadable input: 2.
    assert_eq!(stdout(&["lint", "no/such/file.yaml"]).1, 2);
    assert_eq!(
        stdout(&["lint", "--kubernetes-version", "1.29", "examples"]).1,
        2
    );
    assert_eq!(
        stdout(&[
            "lint",
            "--feature-gates",
            "DRAPrioritizedList=false",
            "examples"
        ])
        .1,
        2
    );
    assert_eq!(stdout(&["lint", "--select", "DRA-X999", "examples"]).1, 2);
    assert_eq!(stdout(&["lint", "--bogus"]).1, 2);
}

#[test]
fn gate_on_keeps_the_field() {
    let (out, code) = stdout(&[
        "lint",
        "-o",
        "json",
        "--feature-gates",
        "DRADeviceCompatibilityGroups=true",
        "examples/mig-vs-vgpu-compatibility-groups.yaml",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diagnostics"], serde_json::json!([]));
}

#[test]
fn select_ignore_and_suppression() {
    let ids = |args: &[&str]| -> Vec<String> {
        let (out, _) = stdout(args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = ids(&["lint", "-o", "json", "testdata/fixtures/render"]);
    assert!(all.contains(&"DRA-V032".to_owned()));
    let only = ids(&[
        "lint",
        "-o",
        "json",
        "--select",
        "DRA-V032",
        "testdata/fixtures/render",
    ]);
    assert_eq!(only, vec!["DRA-V032"]);
    let without = ids(&[
        "lint",
        "-o",
        "json",
        "--ignore",
        "DRA-V0,DRA-D",
        "testdata/fixtures/render",
    ]);
    assert!(without
        .iter()
        .all(|r| !r.starts_with("DRA-V0") && !r.starts_with("DRA-D")));
    // The second claim in claims.yaml has `exactly: {}` and suppresses DRA-V140.
    let (out, _) = stdout(&["lint", "-o", "json", "testdata/fixtures/render/claims.yaml"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["object"]["name"] != "suppressed"));
}

#[test]
fn stdin_is_read_with_dash() {
    let text = std::fs::read(support::root().join("testdata/fixtures/render/slices.yaml")).unwrap();
    let o = support::run_with_stdin(&["lint", "-o", "json", "-"], Some(&text));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["file"], "<stdin>");
}

#[test]
fn rules_command() {
    let (list, code) = stdout(&["rules"]);
    assert_eq!(code, 0);
    assert!(list.lines().count() >= 100);
    let (same, _) = stdout(&["lint", "--list-rules"]);
    assert_eq!(list, same);
    let (one, code) = stdout(&["rules", "DRA-V071"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("rules_v071", one);
    assert_eq!(stdout(&["rules", "too-many-compatibility-group"]).1, 2);
}

#[test]
fn docs_rule_list_is_current() {
    let (table, _) = stdout(&["rules", "--markdown"]);
    let page = std::fs::read_to_string(support::root().join("docs/rules.md")).unwrap();
    let start = page
        .find("<!-- rules:start -->")
        .expect("docs/rules.md has the rules:start marker");
    let end = page
        .find("<!-- rules:end -->")
        .expect("docs/rules.md has the rules:end marker");
    let current = page[start + "<!-- rules:start -->".len()..end].trim();
    assert_eq!(
        current,
        table.trim(),
        "docs/rules.md is stale: run `python3 scripts/readme.py` after `cargo build`"
    );
}

/// Every relative link of the README and the manual leads to a file, and
/// every page of the manual has its template (the pages are generated).
#[test]
fn docs_links_resolve_and_pages_are_generated() {
    let root = support::root();
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        pages.push(e.path());
    }
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap();
            if target.is_empty() || target.contains("://") || target.contains(' ') {
                continue;
            }
            assert!(
                dir.join(target).exists(),
                "{}: broken link {target}",
                page.display()
            );
        }
        let name = page.file_name().unwrap().to_string_lossy();
        if text.starts_with("<!-- Generated from scripts/docs/") {
            assert!(
                root.join(format!("scripts/docs/{name}.tmpl")).exists(),
                "{name}"
            );
        }
    }
}

#[test]
fn version_names_supported_kubernetes() {
    let (out, code) = stdout(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.contains("kubectl-dra"));
}

#[test]
fn completions_man_page_and_kubectl_completion_protocol() {
    for shell in ["bash", "zsh", "fish"] {
        let (script, code) = stdout(&["completion", shell]);
        assert_eq!(code, 0);
        assert!(
            script.contains("explain") && script.contains("kubernetes-version"),
            "{shell}"
        );
    }
    let (man, _) = stdout(&["man"]);
    assert!(man.starts_with(".ie") && man.contains(".SH NAME"));
    let (c, _) = stdout(&["__complete", "ex"]);
    assert_eq!(c, "explain\n:4\n");
    let (c, _) = stdout(&["__complete", "lint", "--feature"]);
    assert_eq!(c, "--feature-gates\n:4\n");
}

/// A selector may start with `-` (`-1 < x`): `match` takes it as the
/// expression, not as a flag.
#[test]
fn match_takes_an_expression_starting_with_a_minus() {
    let (out, code) = stdout(&[
        "match",
        "-1 < 0",
        "-o",
        "json",
        "-f",
        "examples/gpu-partitionable.yaml",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let devices = v["devices"].as_array().unwrap();
    assert!(!devices.is_empty());
    assert!(devices.iter().all(|d| d["matches"] == true), "{out}");
}

/// Issue 36 (CI): `--statistics` counts the findings per rule instead of
/// listing them, most first; `--exit-zero` reports without failing the job,
/// but unreadable input still exits 2.
#[test]
fn statistics_and_exit_zero() {
    let file = "testdata/fixtures/render/slices.yaml";
    let o = support::run(&["lint", file, "--statistics"]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    insta::assert_snapshot!("lint_statistics", text);
    let o = support::run(&["lint", file, "--exit-zero"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!o.stdout.is_empty(), "the findings are still printed");
    let o = support::run(&["lint", "testdata/no-such-file.yaml", "--exit-zero"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 36 (CI): `--output-file` writes the report to a file (through the
/// safe writer), prints nothing on stdout, and keeps the exit code.
#[test]
fn output_file_takes_the_report() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-output-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.json");
    let file = "testdata/fixtures/render/slices.yaml";
    let o = support::run(&[
        "lint",
        file,
        "-o",
        "json",
        "--output-file",
        &out.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let direct = support::run(&["lint", file, "-o", "json"]);
    let direct: serde_json::Value = serde_json::from_slice(&direct.stdout).unwrap();
    assert_eq!(written["diagnostics"], direct["diagnostics"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36 (CI): `-q` prints the findings and nothing else.
#[test]
fn quiet_prints_only_the_findings() {
    let file = "testdata/fixtures/render/slices.yaml";
    let full = support::run(&["lint", file]);
    let full = String::from_utf8_lossy(&full.stdout).into_owned();
    let o = support::run(&["lint", file, "-q"]);
    assert_eq!(o.status.code(), Some(1));
    let quiet = String::from_utf8_lossy(&o.stdout).into_owned();
    let summary = full.lines().last().unwrap_or_default();
    assert!(summary.contains("error"), "{full}");
    assert!(!quiet.contains(summary), "{quiet}");
    assert!(full.starts_with(&quiet), "the findings are the same");
    let clean = support::run(&["lint", "examples/gpu-partitionable.yaml", "-q"]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(
        clean.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
}

/// The GitHub Action (`action.yml`) runs `kubectl-dra lint` with flags that
/// exist, and its SARIF step writes a valid file and exits 0 on findings.
#[test]
fn github_action_uses_real_flags() {
    let action = std::fs::read_to_string(support::root().join("action.yml")).unwrap();
    let (help, _) = stdout(&["lint", "--help"]);
    let mut flags = 0;
    for line in action
        .lines()
        .filter(|l| l.contains("kubectl-dra lint") || l.contains("args+=("))
    {
        for word in line.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
            // Options of lint (not the shell's `[ -n ... ]` tests).
            if word.starts_with("--") || word == "-o" {
                flags += 1;
                assert!(
                    help.contains(word),
                    "action.yml uses {word}, which lint does not take"
                );
            }
        }
    }
    assert!(flags >= 7, "{flags}");
    let dir = support::ScratchDir::new("action");
    let sarif_path = dir.join("kubectl-dra.sarif");
    let sarif_arg = sarif_path.to_string_lossy().into_owned();
    let (_, code) = stdout(&[
        "lint",
        "-o",
        "sarif",
        "--exit-zero",
        "--output-file",
        &sarif_arg,
        "--kubernetes-version",
        "1.36",
        "testdata/fixtures/render",
    ]);
    assert_eq!(code, 0);
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif_path).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
}

/// Suppression comments: rule names and prefixes in any case, three scopes,
/// and every code that suppresses nothing or names no rule reported
/// (crates/dra-core/src/lint/suppress.rs).
#[test]
fn suppressions_have_scopes_and_say_when_they_do_nothing() {
    let (out, code) = stdout(&["lint", "-o", "json", "testdata/fixtures/suppress/"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(String, u64, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    let want = [
        // ignore-line on line 25 leaves the second request's finding.
        ("DRA-V140", 26, "scopes.yaml"),
        ("DRA-X001", 34, "scopes.yaml"),
        ("DRA-X002", 34, "scopes.yaml"),
        ("DRA-X002", 35, "scopes.yaml"),
    ];
    let want: Vec<(String, u64, String)> = want
        .iter()
        .map(|(r, l, f)| (r.to_string(), *l, f.to_string()))
        .collect();
    assert_eq!(found, want);
    // --ignore takes what the comments take; an unknown code is a usage error.
    let (_, code) = stdout(&[
        "lint",
        "--ignore",
        "Invalid-Device-Class-Name,dra-x",
        "testdata/fixtures/suppress/",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout(&["lint", "--select", "bogus", "testdata/fixtures/suppress/"]).1,
        2
    );
    // A code for a rule the run leaves out is not reported unused.
    let (out, _) = stdout(&[
        "lint",
        "-o",
        "json",
        "--select",
        "DRA-X",
        "testdata/fixtures/suppress/whole-file.yaml",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{out}");
}

/// Every relative link of the README and docs/ names a file that exists.
#[test]
fn documentation_links_resolve() {
    let root = support::root();
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or_default();
            if target.is_empty() || target.contains("://") || target.contains(' ') {
                continue;
            }
            if !page.parent().unwrap().join(target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// Issue 35, item 2: `helm template` output names each document's template
/// in `# Source:`; findings point at the template and the line within the
/// rendered document, in every format, and say they are in rendered output.
#[test]
fn rendered_charts_are_attributed_to_their_templates() {
    let text = std::fs::read(
        support::root().join("testdata/rbac-corpus/dra-driver-nvidia-gpu__helm-rendered.yaml"),
    )
    .unwrap();
    let run = |format: &str| {
        let o = support::run_with_stdin(&["lint", "-o", format, "-"], Some(&text));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let template = "dra-driver-nvidia-gpu/templates/rbac-kubeletplugin.yaml";
    let v: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some(template), Some(14)),
        "{d}"
    );
    assert!(
        d["notes"]
            .to_string()
            .contains("rendered by helm template: line 14 of the document from"),
        "{d}"
    );
    assert!(d["notes"].to_string().contains("<stdin>:15"), "{d}");
    assert_eq!(v["summary"]["files"], 1);
    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).unwrap();
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], template, "{location}");
    assert_eq!(location["region"]["startLine"], 14);
    assert!(run("github").contains(&format!("file={template},line=14,")));
    assert!(run("text").contains(&format!("{template}:14:15")));
    // --fix would have to edit the templates: a saved rendering is left as it is.
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("rendered.yaml");
    std::fs::write(&saved, &text).unwrap();
    let o = support::run(&["lint", "--fix", saved.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot edit rendered Helm output"));
    assert_eq!(std::fs::read(&saved).unwrap(), text);
}

/// DRA-A001 on a ResourcePoolStatusRequest says the kind has no other
/// version, not how v1beta1 claims and slices convert to v1.
#[test]
fn alpha_pool_status_request_has_no_other_version() {
    let (json, _) = stdout(&[
        "lint",
        "--kubernetes-version",
        "1.36",
        "--feature-gates",
        "DRAResourcePoolStatus=true",
        "-o",
        "json",
        "testdata/fixtures/rules/v220-pass.yaml",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let a001 = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "DRA-A001")
        .expect("DRA-A001");
    let notes = a001["notes"].to_string();
    assert!(
        notes.contains("ResourcePoolStatusRequest has no other version"),
        "{notes}"
    );
    assert!(!notes.contains("basic"), "{notes}");
}
