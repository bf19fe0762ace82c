//! `-o junit`: JUnit XML as CI systems read it (Jenkins, GitLab's
//! `artifacts:reports:junit`, Azure Pipelines): one testsuite per file
//! linted, one failed testcase per finding, one passing testcase for a file
//! without findings.

use dra_core::diag::Severity;

use super::Report;

/// Text for XML 1.0: the five entities escaped, and the characters XML
/// cannot carry at all (most control characters) replaced.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

pub fn render(r: &Report<'_>) -> String {
    let failures = r.diagnostics.len();
    let mut suites = String::new();
    let mut tests = 0usize;
    for (file, name) in r.names.iter().enumerate() {
        let mut cases = String::new();
        let mut count = 0usize;
        for (i, d) in r
            .diagnostics
            .iter()
            .enumerate()
            .filter(|(_, d)| d.file == file)
        {
            count += 1;
            let pos = r.position(d);
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            let mut body = format!(
                "{name}:{}:{}: {level}[{}] {}",
                pos.line, pos.column, d.rule, d.message
            );
            if !d.field.is_empty() {
                body.push_str(&format!("\nfield: {} ({})", d.field, d.error_type));
            }
            for n in d.notes.iter().cloned().chain(r.fix_note(i)) {
                body.push_str(&format!("\n{n}"));
            }
            let case = if d.field.is_empty() {
                format!("{} at {}:{}", d.rule, pos.line, pos.column)
            } else {
                format!("{} {} at {}:{}", d.rule, d.field, pos.line, pos.column)
            };
            cases.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                xml(name),
                xml(&case),
                xml(name),
                pos.line,
                xml(&d.message),
                xml(d.rule),
                xml(&body)
            ));
        }
        let failed = count;
        if count == 0 {
            count = 1;
            cases.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"no findings\" file=\"{}\"/>\n",
                xml(name),
                xml(name)
            ));
        }
        tests += count;
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{count}\" failures=\"{failed}\" errors=\"0\" skipped=\"0\">\n{cases}  </testsuite>\n",
            xml(name)
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kubectl-dra lint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{suites}</testsuites>\n"
    )
}
