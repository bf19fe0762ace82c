//! `-o json`: the stable contract CI users and the conformance tests rely on.

use serde_json::{json, Value};

use super::Report;

pub fn render(r: &Report<'_>) -> String {
    let diagnostics: Vec<Value> = r
        .diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let pos = r.position(d);
            let mut v = json!({
                "rule": d.rule,
                "severity": d.severity,
                "type": d.error_type.as_str(),
                "field": d.field,
                "message": d.message,
                "file": r.file_name(d),
                "line": pos.line,
                "column": pos.column,
                "endLine": pos.end_line,
                "endColumn": pos.end_column,
                "document": d.document,
                "object": d.object,
                "notes": d.notes,
            });
            // Only fixable findings carry `fix`.
            if let Some(o) = r.fix(i) {
                v["fix"] = json!({"applicability": o.applicability, "description": o.description});
            }
            v
        })
        .collect();
    let out = json!({
        "diagnostics": diagnostics,
        "summary": r.summary,
        "kubernetesVersion": r.gates.version.to_string(),
    });
    serde_json::to_string_pretty(&out).unwrap_or_default()
}
