//! `-o text`: miette-drawn snippets with the offending key or value
//! underlined. Colour only when asked for (the caller decides: terminal and
//! no `NO_COLOR`).

use std::fmt;

use dra_core::diag::{Diagnostic, Severity};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use dra_core::tree::LineIndex;

use super::terminal::{one_line, strict, EscapedSource};
use super::Report;

/// The lines around a finding's labels, not the whole file: miette scans
/// its source from the start for every finding, and copying a 3 MB file for
/// each of 5,000 findings made text output quadratic. Line numbers are the
/// file's.
struct Window {
    name: String,
    text: String,
    /// 0-based line of the window's first line in the file.
    first_line: usize,
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(
            MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                *inner.span(),
                inner.line() + self.first_line,
                inner.column(),
                inner.line_count(),
            )
            .with_language("yaml"),
        ))
    }
}

/// Byte range of the lines from `context` lines before `start` to
/// `context` lines after `end`.
fn window_bytes(text: &str, start: usize, end: usize, context: usize) -> (usize, usize) {
    let from = text[..start]
        .rmatch_indices('\n')
        .nth(context)
        .map_or(0, |(i, _)| i + 1);
    let to = text[end..]
        .match_indices('\n')
        .nth(context)
        .map_or(text.len(), |(i, _)| end + i);
    (from, to)
}

/// One finding wrapped for miette.
struct Shown<'a> {
    d: &'a Diagnostic,
    header: String,
    source: Option<Window>,
    labels: Vec<LabeledSpan>,
    help: String,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header)
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.help.is_empty() {
            None
        } else {
            Some(Box::new(&self.help))
        }
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
}

/// The longest source line a snippet shows.
const MAX_SHOWN_LINE: usize = 400;

/// Whether a line the snippet would show (the finding's, and one around it)
/// is longer than `MAX_SHOWN_LINE` bytes.
fn too_wide(text: &str, lines: &LineIndex, d: &Diagnostic) -> bool {
    let at = lines.byte_offset(text, d.span.start).min(text.len());
    let (from, to) = window_bytes(text, at, at, 1);
    text[from..to].split('\n').any(|l| l.len() > MAX_SHOWN_LINE)
}

fn span_of(text: &str, lines: &LineIndex, d_span: dra_core::tree::Span) -> SourceSpan {
    let start = lines.byte_offset(text, d_span.start);
    let end = lines.byte_offset(text, d_span.end.max(d_span.start));
    // Point at one line at most; a whole mapping would draw a wall of text.
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = end.min(line_end).max(start);
    SourceSpan::new(start.into(), end - start)
}

/// The findings as miette reports, then the summary line unless `quiet`.
pub fn render(r: &Report<'_>, color: bool, quiet: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_context_lines(1);
    let mut out = String::new();
    for (i, d) in r.diagnostics.iter().enumerate() {
        let text = r.texts.get(d.file).map(String::as_str).unwrap_or("");
        // Everything quoted from input is escaped here, before miette
        // paints: input cannot bring its own colour (or worse).
        let name = strict(r.file_name(d));
        // The message, object and field are one line each (a name with a
        // line break would forge one); notes may hold several (YAML to add).
        let header = format!(
            "{}[{}]: {}",
            d.severity,
            d.rule,
            strict(&one_line(&d.message))
        );
        let mut help_lines = Vec::new();
        if let Some(o) = &d.object {
            help_lines.push(format!("in {}", strict(&one_line(&o.to_string()))));
        }
        if !d.field.is_empty() {
            help_lines.push(format!(
                "field: {} ({})",
                strict(&one_line(&d.field)),
                d.error_type
            ));
        }
        help_lines.extend(d.notes.iter().map(|n| strict(n).into_owned()));
        help_lines.extend(r.fix_note(i));
        let no_lines = LineIndex::default();
        let lines = r.lines.get(d.file).unwrap_or(&no_lines);
        let (source, labels) = if text.is_empty() {
            help_lines.insert(0, format!("file: {name}"));
            (None, Vec::new())
        } else if too_wide(text, lines, d) {
            // A minified or generated line (a 60 MB one-line JSON) would be
            // echoed whole: say where instead.
            let (line, col) = lines.line_col(d.span.start);
            help_lines.insert(
                0,
                format!("at {name}:{line}:{col} (the line is too long to show)"),
            );
            (None, Vec::new())
        } else {
            let label = |l: &str| strict(l).into_owned();
            let mut spans: Vec<(Option<String>, SourceSpan, bool)> = vec![(
                d.label.as_deref().map(label),
                span_of(text, lines, d.span),
                true,
            )];
            for s in d.secondary.iter().filter(|s| s.file.is_none()) {
                spans.push((Some(label(&s.message)), span_of(text, lines, s.span), false));
            }
            let lo = spans
                .iter()
                .map(|(_, sp, _)| sp.offset())
                .min()
                .unwrap_or(0);
            let hi = spans
                .iter()
                .map(|(_, sp, _)| sp.offset() + sp.len())
                .max()
                .unwrap_or(0);
            let (from, to) = window_bytes(text, lo, hi, 2);
            let first_char = d.span.start.min(
                d.secondary
                    .iter()
                    .filter(|s| s.file.is_none())
                    .map(|s| s.span.start)
                    .min()
                    .unwrap_or(u32::MAX),
            );
            let first_line = lines
                .line_of(first_char)
                .saturating_sub(text[from..lo].matches('\n').count());
            let window = EscapedSource::new(&text[from..to]);
            let labels = spans
                .into_iter()
                .map(|(label, sp, primary)| {
                    let start = window.offset(sp.offset() - from);
                    let end = window.offset(sp.offset() + sp.len() - from);
                    let shifted = SourceSpan::new(start.into(), end - start);
                    if primary {
                        LabeledSpan::new_primary_with_span(label, shifted)
                    } else {
                        LabeledSpan::new_with_span(label, shifted)
                    }
                })
                .collect();
            (
                Some(Window {
                    name: name.to_string(),
                    text: window.text,
                    first_line,
                }),
                labels,
            )
        };
        let shown = Shown {
            d,
            header,
            source,
            labels,
            help: help_lines.join("\n"),
        };
        let mut buf = String::new();
        if handler.render_report(&mut buf, &shown).is_err() {
            buf = format!("{}\n", shown.header);
        }
        out.push_str(&buf);
        out.push('\n');
    }
    if quiet {
        return out;
    }
    let s = r.summary;
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let skipped = match s.skipped {
        0 => String::new(),
        n => format!(
            " ({} not a Kubernetes object, skipped)",
            plural(n, "document")
        ),
    };
    out.push_str(&format!(
        "{}, {}{skipped}: {}, {} ({})\n",
        plural(s.files, "file"),
        plural(s.objects, "object"),
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        r.target()
    ));
    out
}
