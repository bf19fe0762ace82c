//! `-o json`: the stable contract CI users and the conformance tests rely on.

use serde_json::json;

use super::{Each, Report, Values};

pub fn render(r: &Report<'_>) -> String {
    let diagnostics = r.diagnostics.iter().enumerate().map(|(i, d)| {
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
    });
    // Fields in the order the output has always had (preserve_order).
    #[derive(serde::Serialize)]
    struct Out<'a> {
        diagnostics: Values<'a>,
        summary: &'a dra_core::diag::Summary,
        #[serde(rename = "kubernetesVersion")]
        kubernetes_version: String,
    }
    let out = Out {
        diagnostics: Each::new(Box::new(diagnostics)),
        summary: &r.summary,
        kubernetes_version: r.gates.version.to_string(),
    };
    serde_json::to_string_pretty(&out).unwrap_or_default()
}
