//! `-o gitlab`: a GitLab Code Quality report (the JSON array GitLab reads
//! from `artifacts:reports:codequality`): per finding a description, the
//! rule as `check_name`, a fingerprint stable across runs, a severity and
//! the location with begin and end positions.

use std::hash::Hasher;

use dra_core::diag::Severity;
use serde_json::json;

use super::Report;

pub fn render(r: &Report<'_>) -> String {
    let items: Vec<serde_json::Value> = r
        .diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let pos = r.position(d);
            let mut description = d.message.clone();
            if !d.field.is_empty() {
                description.push_str(&format!(" [{}: {}]", d.field, d.error_type));
            }
            for n in d.notes.iter().cloned().chain(r.fix_note(i)) {
                description.push_str(&format!("\n{n}"));
            }
            // What identifies the finding, not where it is: moving an
            // object down the file keeps its fingerprint; the same finding
            // on two objects of one file does not share one.
            let object = d.object.as_ref().map(|o| o.to_string()).unwrap_or_default();
            let mut h = fnv::FnvHasher::default();
            for part in [d.rule, r.file_name(d), &object, &d.field, &d.message] {
                h.write(part.as_bytes());
                h.write_u8(0);
            }
            json!({
                "description": description,
                "check_name": d.rule,
                "fingerprint": format!("{:016x}", h.finish()),
                "severity": match d.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                "location": {
                    "path": r.file_name(d),
                    "positions": {
                        "begin": {"line": pos.line, "column": pos.column},
                        "end": {"line": pos.end_line, "column": pos.end_column},
                    },
                },
            })
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_default() + "\n"
}
