//! Lintcheck over the real-world corpus (testdata/corpus, see its SOURCES.md):
//! every file is linted on its own, as it is published, and the findings are
//! compared with testdata/corpus-expected.tsv, where each one carries the
//! reason it is a true problem. A change in findings is a reviewed diff:
//! run with `KUBECTL_DRA_BLESS=1` to rewrite the file (new entries get
//! "REVIEW" as their reason and fail until a reason is written).

mod support;

use std::collections::BTreeMap;

fn findings(corpus: &str) -> Vec<String> {
    let dir = support::root().join(corpus);
    let mut files: Vec<_> = walk(&dir);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(support::root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let o = support::run(&["lint", "-o", "json", &rel]);
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{rel}: exit {:?}",
            o.status.code()
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for d in v["diagnostics"].as_array().unwrap() {
            // A rendered chart's finding is at its template (`# Source:`),
            // the line within the rendered document.
            let file = rel.trim_start_matches(corpus).trim_start_matches('/');
            let at = match d["file"].as_str() {
                Some(f) if !rel.ends_with(f) => format!("{file} > {f}"),
                _ => file.to_owned(),
            };
            out.push(format!(
                "{}\t{}:{}:{}\t{}",
                d["rule"].as_str().unwrap(),
                at,
                d["line"],
                d["column"],
                d["field"].as_str().unwrap()
            ));
        }
    }
    out
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        {
            out.push(p);
        }
    }
    out
}

#[test]
fn corpus_findings_are_the_reviewed_ones() {
    check("testdata/corpus", "testdata/corpus-expected.tsv");
}

/// The RBAC of published drivers (testdata/rbac-corpus/SOURCES.md).
#[test]
fn rbac_corpus_findings_are_the_reviewed_ones() {
    check("testdata/rbac-corpus", "testdata/rbac-corpus-expected.tsv");
}

fn check(corpus: &str, expected_file: &str) {
    let path = support::root().join(expected_file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let expected: BTreeMap<String, String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut parts = l.splitn(4, '\t');
            let (a, b, c, reason) = (
                parts.next()?,
                parts.next()?,
                parts.next()?,
                parts.next().unwrap_or(""),
            );
            Some((format!("{a}\t{b}\t{c}"), reason.to_owned()))
        })
        .collect();
    let got = findings(corpus);
    if std::env::var_os("KUBECTL_DRA_BLESS").is_some() {
        let mut s = String::from("# rule\tfile:line:column\tfield\twhy it is a true problem\n");
        for g in &got {
            let reason = expected.get(g).cloned().unwrap_or_else(|| "REVIEW".into());
            s.push_str(&format!("{g}\t{reason}\n"));
        }
        std::fs::write(&path, s).unwrap();
    }
    let new: Vec<&String> = got.iter().filter(|g| !expected.contains_key(*g)).collect();
    let gone: Vec<&String> = expected.keys().filter(|k| !got.contains(k)).collect();
    let unreviewed: Vec<&String> = expected
        .iter()
        .filter(|(_, r)| r.trim().is_empty() || r.as_str() == "REVIEW")
        .map(|(k, _)| k)
        .collect();
    assert!(
        new.is_empty() && gone.is_empty() && unreviewed.is_empty(),
        "{corpus} findings changed.\nnew (false positive to fix, or a true problem to record):\n{}\ngone:\n{}\nwithout a reason:\n{}",
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        gone.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        unreviewed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
    );
}
