//! Bad input never panics and never stops the run: every hostile file gets
//! a finding with a position (or the file named), the valid file next to
//! them is still linted, and the exit code is 1 or 2.

mod support;

use std::path::PathBuf;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kubectl-dra-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn lint_json(path: &str) -> (serde_json::Value, i32, String) {
    let o = support::run(&["lint", "-o", "json", path]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{path}: no JSON ({e}); stderr: {stderr}"));
    (v, o.status.code().unwrap_or(-1), stderr)
}

#[test]
fn hostile_fixtures_each_get_a_finding_and_the_valid_file_is_still_linted() {
    let (v, code, stderr) = lint_json("testdata/fixtures/hostile");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 2, "unreadable files make the exit code 2");
    let diags = v["diagnostics"].as_array().unwrap();
    let by_file = |f: &str| {
        diags
            .iter()
            .filter(|d| d["file"].as_str().unwrap().ends_with(f))
            .map(|d| d["rule"].as_str().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(by_file("alias-bomb.yaml"), vec!["DRA-E002"]);
    assert_eq!(by_file("binary.yaml"), vec!["DRA-E005"]);
    assert_eq!(by_file("latin1.yaml"), vec!["DRA-E005"]);
    assert_eq!(by_file("broken.yaml"), vec!["DRA-E001"]);
    assert_eq!(by_file("dup-keys.yaml"), vec!["DRA-E003"]);
    assert_eq!(by_file("not-objects.yaml"), vec!["DRA-E004", "DRA-E004"]);
    assert!(by_file("wrong-types.yaml").len() >= 6);
    // The valid DeviceClass in zz-valid.yaml was read: 3 objects in total.
    assert_eq!(v["summary"]["objects"], 3);
    for d in diags {
        assert!(d["line"].as_u64().unwrap() >= 1 && d["column"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn deep_nesting_and_long_lines() {
    let dir = tmpdir("deep");
    std::fs::write(dir.join("deep-block.yaml"), "- ".repeat(100_000) + "x\n").unwrap();
    std::fs::write(dir.join("deep-flow.yaml"), "[".repeat(100_000)).unwrap();
    let mut map = String::new();
    for i in 0..300 {
        map.push_str(&" ".repeat(i));
        map.push_str("k:\n");
    }
    std::fs::write(dir.join("deep-map.yaml"), map).unwrap();
    let long = format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: long}}\nspec:\n  selectors:\n  - cel:\n      expression: \"{}\"\n",
        "a".repeat(1 << 20)
    );
    std::fs::write(dir.join("long-line.yaml"), long).unwrap();
    std::fs::write(
        dir.join("ok.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: ok}\n",
    )
    .unwrap();
    let (v, code, stderr) = lint_json(dir.to_str().unwrap());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 1);
    let rules: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
                d["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        rules.contains(&("deep-block.yaml".into(), "DRA-E002".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("deep-map.yaml".into(), "DRA-E002".into())),
        "{rules:?}"
    );
    assert!(
        rules.iter().any(|(f, _)| f == "deep-flow.yaml"),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("long-line.yaml".into(), "DRA-V160".into())),
        "{rules:?}"
    );
    assert_eq!(v["summary"]["objects"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn oversized_file_is_refused_unread() {
    let dir = tmpdir("big");
    let f = std::fs::File::create(dir.join("huge.yaml")).unwrap();
    f.set_len(200 * 1024 * 1024).unwrap(); // sparse: the 200 MiB are never written
    std::fs::write(
        dir.join("ok.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: ok}\n",
    )
    .unwrap();
    let (v, code, _) = lint_json(dir.to_str().unwrap());
    assert_eq!(code, 2);
    let d = &v["diagnostics"][0];
    assert_eq!(d["rule"], "DRA-E005");
    assert!(d["message"].as_str().unwrap().contains("larger than"));
    assert_eq!(v["summary"]["objects"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}
