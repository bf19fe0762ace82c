//! The source snippet cel-go prints under a compile error.

/// The source lines cel-go's `Error.ToDisplayString` (common/error.go,
/// v0.26.0 and v0.27.0) adds under `ERROR: <input>:L:C: message`: the
/// expression's line L (tabs as spaces) and a marker under column C, one
/// `.` per character before it (U+FF0E for a multi-byte one) and `^`
/// (U+FF3E under a multi-byte character). Empty for a line that is not
/// there or longer than 16,384 bytes, as cel-go leaves it.
pub fn error_snippet(source: &str, line: u32, column: u32) -> String {
    let Some(text) = source.split('\n').nth(line.saturating_sub(1) as usize) else {
        return String::new();
    };
    if text.len() > 16384 {
        return String::new();
    }
    let text = text.replace('\t', " ");
    let mut marker = String::new();
    let mut chars = text.chars();
    for _ in 1..column {
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => marker.push('\u{ff0e}'),
            Some(_) => marker.push('.'),
            None => break,
        }
    }
    match chars.next() {
        Some(c) if c.len_utf8() > 1 => marker.push('\u{ff3e}'),
        _ => marker.push('^'),
    }
    format!("\n | {text}\n | {marker}")
}

/// cel-go's `maxErrorsToReport` (common/errors.go): errors kept for display.
pub const MAX_ERRORS_TO_REPORT: usize = 100;

/// cel-go's `Errors.ToDisplayString()`: each error's head
/// (`ERROR: <input>:L:C: message`) and, when it has a position, its
/// snippet, one per line, in the order given (cel-go's, by position); past
/// 100 errors, kept or only counted (`unlisted`), the rest are a count.
pub(crate) fn display_errors(
    errors: impl Iterator<Item = (String, Option<(u32, u32)>)>,
    unlisted: usize,
    source: &str,
) -> String {
    let mut lines = Vec::new();
    let mut total = unlisted;
    for (head, position) in errors {
        total += 1;
        if lines.len() == MAX_ERRORS_TO_REPORT {
            continue;
        }
        let mut text = head;
        if let Some((l, c)) = position {
            text.push_str(&error_snippet(source, l, c));
        }
        lines.push(text);
    }
    if total > MAX_ERRORS_TO_REPORT {
        lines.push(format!(
            "{} more errors were truncated",
            total - MAX_ERRORS_TO_REPORT
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::error_snippet;

    /// validation_devicetaintrule_test.go "CEL-compile-errors": the message
    /// ends "\n | device.attributes[true].someBoolean\n | .................^".
    #[test]
    fn marks_the_column_as_cel_go_does() {
        let src = "device.attributes[true].someBoolean";
        assert_eq!(
            error_snippet(src, 1, 18),
            format!("\n | {src}\n | {}^", ".".repeat(17))
        );
        // Tabs print as spaces; a multi-byte character is a wide dot, and a
        // wide marker under one.
        assert_eq!(
            error_snippet("\t\u{e9}x", 1, 3),
            "\n |  \u{e9}x\n | .\u{ff0e}^"
        );
        assert_eq!(error_snippet("a\u{e9}", 1, 2), "\n | a\u{e9}\n | .\u{ff3e}");
        assert_eq!(error_snippet("a\nb + c", 2, 5), "\n | b + c\n | ....^");
        assert_eq!(error_snippet("a", 3, 1), "");
    }
}
