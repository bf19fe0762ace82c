//! `-o sarif`: SARIF 2.1.0 as GitHub code scanning accepts it: a `results`
//! array even when empty, 1-based regions, stable rule ids with metadata,
//! and repository-relative URIs.

use dra_core::diag::Severity;
use dra_core::lint::registry::RULES;
use std::collections::HashMap;

use serde_json::{json, Value};

use super::{Each, Report, Values};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub fn render(r: &Report<'_>) -> String {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.docs},
                "help": {
                    "text": format!("{}\n\nExample:\n{}", rule.docs, rule.example),
                    "markdown": format!("{}\n\nExample:\n\n```yaml\n{}```", rule.docs, rule.example),
                },
                "defaultConfiguration": {"level": level(rule.severity)},
                "properties": {"tags": [rule.origin.describe()]},
            })
        })
        .collect();
    // Artifacts in the order findings first name them; one pass over the
    // findings, then the results are written one at a time.
    let mut artifacts: Vec<String> = Vec::new();
    let mut artifact_of: HashMap<usize, usize> = HashMap::new();
    for d in r.diagnostics {
        artifact_of.entry(d.file).or_insert_with(|| {
            artifacts.push(uri_reference(r.file_name(d)));
            artifacts.len() - 1
        });
    }
    let rule_of: HashMap<&str, usize> = RULES.iter().enumerate().map(|(i, x)| (x.id, i)).collect();
    let results = r.diagnostics.iter().enumerate().map(|(i, d)| {
        let index = artifact_of[&d.file];
        let uri = &artifacts[index];
        let rule_index = rule_of.get(d.rule).copied().unwrap_or(0);
        let pos = r.position(d);
        let (start_line, start_col, end_line) = (pos.line, pos.column, pos.end_line);
        let end_col = if end_line == start_line {
            pos.end_column.max(start_col + 1)
        } else {
            pos.end_column
        };
        let mut text = d.message.clone();
        if !d.field.is_empty() {
            text.push_str(&format!(" (field {}: {})", d.field, d.error_type));
        }
        let mut result = json!({
            "ruleId": d.rule,
            "ruleIndex": rule_index,
            "level": level(d.severity),
            "message": {"text": text},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%", "index": index},
                    "region": {
                        "startLine": start_line,
                        "startColumn": start_col,
                        "endLine": end_line,
                        "endColumn": end_col,
                    }
                }
            }],
            "properties": {"field": d.field, "type": d.error_type.as_str(), "document": d.document},
        });
        // SARIF's own fix object: the edits as byte replacements.
        if let Some(o) = r.fix(i) {
            let replacements: Vec<Value> = o
                .edits
                .iter()
                .map(|e| {
                    json!({
                        "deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start},
                        "insertedContent": {"text": e.text},
                    })
                })
                .collect();
            result["fixes"] = json!([{
                "description": {"text": o.description},
                "artifactChanges": [{
                    "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%", "index": index},
                    "replacements": replacements,
                }],
            }]);
            result["properties"]["fixApplicability"] = json!(o.applicability);
        }
        result
    });
    let artifact_list: Vec<Value> = artifacts
        .iter()
        .map(|a| json!({"location": {"uri": a, "uriBaseId": "%SRCROOT%"}}))
        .collect();
    // Fields in the order the log has always had (preserve_order).
    #[derive(serde::Serialize)]
    struct Run<'a> {
        tool: Value,
        #[serde(rename = "originalUriBaseIds")]
        original_uri_base_ids: Value,
        artifacts: Vec<Value>,
        results: Values<'a>,
    }
    #[derive(serde::Serialize)]
    struct Log<'a> {
        #[serde(rename = "$schema")]
        schema: &'static str,
        version: &'static str,
        runs: [Run<'a>; 1],
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: json!({"driver": {
                "name": "kubectl-dra",
                "informationUri": "https://github.com/kubectl-dra/kubectl-dra",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }}),
            original_uri_base_ids: json!({"%SRCROOT%": {"description": {"text": "The directory kubectl-dra ran in"}}}),
            artifacts: artifact_list,
            results: Each::new(Box::new(results)),
        }],
    };
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// A file name as a SARIF `uri` (a relative URI reference, RFC 3986):
/// unreserved characters and `/` as they are, every other byte
/// percent-encoded (`<stdin>` is `%3Cstdin%3E`, a space `%20`); an absolute
/// path becomes a `file://` URI.
fn uri_reference(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    if name.starts_with('/') {
        out.push_str("file://");
    }
    for b in name.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri_reference;

    #[test]
    fn file_names_are_valid_uri_references() {
        assert_eq!(uri_reference("manifests/gpu.yaml"), "manifests/gpu.yaml");
        assert_eq!(uri_reference("<stdin>"), "%3Cstdin%3E");
        assert_eq!(uri_reference("a b#c?.yaml"), "a%20b%23c%3F.yaml");
        assert_eq!(uri_reference("/tmp/x y.yaml"), "file:///tmp/x%20y.yaml");
        assert_eq!(uri_reference("ü.yaml"), "%C3%BC.yaml");
    }
}
