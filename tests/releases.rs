//! Lint per release (issue 34): each fixture in `testdata/releases/` is one
//! behaviour of `../shared/spec/validation-releases.md`, linted at every
//! release 1.34-1.37, and the errors (field and type) must be exactly those
//! the release's own `validation.go` returns. Each fixture names the copy and
//! function it comes from (`source`), and shows both sides of the boundary.
//!
//! Fixture format (YAML):
//! ```yaml
//! about: what the behaviour is
//! source: C34 validateX ≈12k; C35 ...   # repo@commit in the spec's table
//! gates: DRAPartitionableDevices=true   # optional, for every release,
//!                                       # or a map from release to gates
//! manifest: |
//!   apiVersion: resource.k8s.io/v1
//!   ...
//! stored: |                             # optional: the objects as stored
//!   ...                                 # (`--stored`): the manifest updates them
//! subresource: status                   # optional: a status write (`--subresource`)
//! expect:
//!   "1.34": ["spec.devices[0].name Required"]   # "FIELD TYPE", any order;
//!                                       # type Dropped: a field the release's
//!                                       # strategy drops (its gate off)
//!   "1.35": []
//! ```

mod support;

use std::collections::BTreeMap;

fn errors(
    manifest: &std::path::Path,
    stored: Option<&std::path::Path>,
    version: &str,
    gates: Option<&str>,
    subresource: Option<&str>,
) -> Vec<String> {
    let path = manifest.to_string_lossy().into_owned();
    let stored = stored.map(|p| p.to_string_lossy().into_owned());
    let mut args = vec![
        "lint",
        path.as_str(),
        "--kubernetes-version",
        version,
        "-o",
        "json",
    ];
    if let Some(g) = gates {
        args.extend(["--feature-gates", g]);
    }
    if let Some(s) = &stored {
        args.extend(["--stored", s.as_str()]);
    }
    if let Some(s) = subresource {
        args.extend(["--subresource", s]);
    }
    let out = support::run(&args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{path} at {version}: {e}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut got: Vec<String> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        // Errors, and the fields the release's strategy drops (a gate off).
        .filter(|d| (d["severity"] == "error" && d["type"].is_string()) || d["type"] == "Dropped")
        .map(|d| {
            format!(
                "{} {}",
                d["field"].as_str().unwrap_or(""),
                d["type"].as_str().unwrap_or("")
            )
        })
        .collect();
    got.sort();
    got
}

#[test]
fn every_release_as_its_own_source() {
    let dir = support::root().join("testdata/releases");
    let tmp = std::env::temp_dir().join(format!("kubectl-dra-releases-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    entries.sort();
    for file in entries {
        let case = support::load_yaml(&file);
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            case["source"].is_string(),
            "{name}: every fixture cites its source"
        );
        let manifest = tmp.join(format!("{name}.yaml"));
        std::fs::write(&manifest, case["manifest"].as_str().expect("manifest")).unwrap();
        let stored = case["stored"].as_str().map(|text| {
            let p = tmp.join(format!("{name}.stored.yaml"));
            std::fs::write(&p, text).unwrap();
            p
        });
        let expect: BTreeMap<String, Vec<String>> =
            serde_json::from_value(case["expect"].clone()).expect("expect");
        assert!(
            expect.len() >= 2,
            "{name}: a fixture shows both sides of a boundary"
        );
        for (version, want) in expect {
            cases += 1;
            let mut want = want;
            want.sort();
            let gates = case["gates"]
                .as_str()
                .or_else(|| case["gates"][version.as_str()].as_str());
            let got = errors(
                &manifest,
                stored.as_deref(),
                &version,
                gates,
                case["subresource"].as_str(),
            );
            if got != want {
                failures.push(format!(
                    "{name} at {version}:\n  want {want:?}\n  got  {got:?}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(cases > 0, "no fixtures in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {cases} release verdicts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
