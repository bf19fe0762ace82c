//! Renderers: the only place findings become text. Each format has its own
//! file and its own snapshot tests.

pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod terminal;
pub mod text;

/// A sequence serialized from an iterator, one item at a time: a report of
/// half a million findings is never held as one JSON tree.
pub(crate) struct Each<I>(std::cell::Cell<Option<I>>);

/// The findings of a report as JSON values, produced as they are written.
pub(crate) type Values<'a> = Each<Box<dyn Iterator<Item = serde_json::Value> + 'a>>;

impl<I> Each<I> {
    pub(crate) fn new(items: I) -> Self {
        Each(std::cell::Cell::new(Some(items)))
    }
}

impl<T: serde::Serialize, I: Iterator<Item = T>> serde::Serialize for Each<I> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            Some(items) => s.collect_seq(items),
            None => Err(serde::ser::Error::custom("a sequence serialized twice")),
        }
    }
}

use dra_core::diag::{Diagnostic, Summary};
use dra_core::gates::FeatureGates;
use dra_core::tree::LineIndex;

/// 1-based line and column of a finding's start and end.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// Everything a renderer needs about a finished lint run.
pub struct Report<'a> {
    /// Display names of the files, by file index.
    pub names: &'a [String],
    /// File texts, by file index (empty for unreadable files).
    pub texts: &'a [String],
    pub diagnostics: &'a [Diagnostic],
    /// Line tables of the texts, by file index.
    pub lines: &'a [LineIndex],
    pub summary: Summary,
    pub gates: &'a FeatureGates,
    /// The fix each finding offers, by finding index (`lint --fix`).
    pub fixes: &'a [Option<dra_core::lint::fixes::Offer>],
}

impl Report<'_> {
    pub fn file_name(&self, d: &Diagnostic) -> &str {
        self.names.get(d.file).map_or("<unknown>", String::as_str)
    }

    /// Where a finding is, in lines and columns (1:1 for file-level findings).
    pub fn position(&self, d: &Diagnostic) -> Position {
        let Some(lines) = self.lines.get(d.file) else {
            return Position {
                line: 1,
                column: 1,
                end_line: 1,
                end_column: 1,
            };
        };
        let (line, column) = lines.line_col(d.span.start);
        let (end_line, end_column) = lines.line_col(d.span.end.max(d.span.start));
        Position {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// The fix a finding offers.
    pub fn fix(&self, i: usize) -> Option<&dra_core::lint::fixes::Offer> {
        self.fixes.get(i).and_then(Option::as_ref)
    }

    /// "fixable with --fix: what it does" (or `--unsafe-fixes`).
    pub fn fix_note(&self, i: usize) -> Option<String> {
        let o = self.fix(i)?;
        let flag = match o.applicability {
            dra_core::fix::Applicability::Safe => "--fix",
            dra_core::fix::Applicability::Unsafe => "--fix --unsafe-fixes",
        };
        Some(format!("fixable with {flag}: {}", o.description))
    }

    /// "Kubernetes 1.37, default gates" or "..., gates: A=true".
    pub fn target(&self) -> String {
        let overrides: Vec<String> = self
            .gates
            .overrides()
            .map(|(g, on)| format!("{g}={on}"))
            .collect();
        if overrides.is_empty() {
            format!("Kubernetes {}, default gates", self.gates.version)
        } else {
            format!(
                "Kubernetes {}, gates {}",
                self.gates.version,
                overrides.join(",")
            )
        }
    }
}

/// Writes `value` to stdout as pretty JSON while it is serialized, escaped
/// as `main` escapes every answer: a fleet's answer is not held a second
/// time as text. Returns the (empty) rest of the answer for `main` to print.
pub fn stream_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    use std::io::Write;
    // Buffered before the escaping, so that it scans large pieces, not
    // each of serde's tokens.
    let mut w = std::io::BufWriter::with_capacity(
        1 << 16,
        terminal::SafeWriter::new(std::io::stdout().lock()),
    );
    // A closed pipe (`| head`) is not an error.
    let _ = serde_json::to_writer_pretty(&mut w, value)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(w))
        .and_then(|()| w.flush());
    String::new()
}
