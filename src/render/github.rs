//! `-o github`: GitHub Actions workflow commands, one annotation per finding.

use dra_core::diag::Severity;

use super::Report;

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(r: &Report<'_>) -> String {
    let mut out = String::new();
    for (i, d) in r.diagnostics.iter().enumerate() {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut msg = d.message.clone();
        if !d.field.is_empty() {
            msg.push_str(&format!(" [{}: {}]", d.field, d.error_type));
        }
        for n in d.notes.iter().cloned().chain(r.fix_note(i)) {
            msg.push('\n');
            msg.push_str(&n);
        }
        let pos = r.position(d);
        out.push_str(&format!(
            "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape_property(r.file_name(d)),
            pos.line,
            pos.column,
            pos.end_line,
            pos.end_column,
            escape_property(d.rule),
            escape_data(&msg)
        ));
    }
    out
}
